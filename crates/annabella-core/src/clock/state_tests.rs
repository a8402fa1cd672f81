//! Unit tests for [`Clock`]. Expected values are worked out by hand from the
//! time control, never read back from the clock.

use std::time::Duration;

use shakmaty::Color::{self, Black, White};

use super::*;
use crate::clock::{Period, QUICKPLAY_INCREMENT};

const fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

const fn sec(n: u64) -> Duration {
    Duration::from_secs(n)
}

const fn min(n: u64) -> Duration {
    Duration::from_secs(n * 60)
}

/// An arbitrary epoch: the clock must not care where time starts.
const T0: Duration = Duration::from_secs(123_456);

fn clock(text: &str) -> Clock {
    Clock::new(text.parse().unwrap())
}

fn started(text: &str) -> Clock {
    let mut c = clock(text);
    c.start(T0, White).unwrap();
    c
}

fn assert_ledger_identity(c: &Clock, color: Color) {
    let l = c.ledger(color);
    let credited = l.initial + l.period_added + l.increment_added + l.arbiter_added;
    let debited = l.charged + l.arbiter_removed;
    assert!(debited <= credited, "{l:?}");
    assert_eq!(l.remaining(), credited - debited, "{l:?}");
}

#[test]
fn new_clock_shows_the_first_period() {
    let c = clock("90m/40+30m+30s");
    for color in [White, Black] {
        assert_eq!(c.remaining(color, T0), min(90));
        assert_eq!(c.moves(color), 0);
        assert_eq!(c.period(color), 0);
        assert_eq!(c.moves_to_control(color), Some(40));
        assert_eq!(c.used(color, T0), Duration::ZERO);
    }
    assert_eq!(c.state(), ClockState::NotStarted);
    assert_eq!(c.running(), None);
    assert_eq!(c.flag(T0 + min(1000)), None);
}

#[test]
fn fischer_increment_after_each_move() {
    let mut c = started("15m+10s");
    assert_eq!(c.running(), Some(White));
    assert_eq!(c.remaining(White, T0 + sec(4)), min(15) - sec(4));
    assert_eq!(c.remaining(Black, T0 + sec(4)), min(15));
    let events = c.press(T0 + sec(4)).unwrap();
    assert_eq!(
        events,
        vec![
            ClockEvent::MoveCompleted {
                color: White,
                moves: 1
            },
            ClockEvent::IncrementAdded {
                color: White,
                added: sec(10)
            },
            ClockEvent::Switched { color: Black },
        ]
    );
    // 15:00 - 4 s + 10 s.
    assert_eq!(c.remaining(White, T0 + sec(5)), min(15) + sec(6));
    assert_eq!(c.running(), Some(Black));
    c.press(T0 + sec(34)).unwrap();
    // Black: 15:00 - 30 s + 10 s.
    assert_eq!(c.remaining(Black, T0 + sec(40)), min(15) - sec(20));
    assert_eq!(c.moves(White), 1);
    assert_eq!(c.moves(Black), 1);
    let l = c.ledger(Black);
    assert_eq!(l.charged, sec(30));
    assert_eq!(l.increment_added, sec(10));
    assert_eq!(l.delay_absorbed, Duration::ZERO);
    assert_ledger_identity(&c, White);
    assert_ledger_identity(&c, Black);
}

#[test]
fn no_increment_adds_nothing() {
    let mut c = started("5m");
    let events = c.press(T0 + sec(7)).unwrap();
    assert_eq!(
        events,
        vec![
            ClockEvent::MoveCompleted {
                color: White,
                moves: 1
            },
            ClockEvent::Switched { color: Black },
        ]
    );
    assert_eq!(c.remaining(White, T0 + sec(8)), min(5) - sec(7));
}

#[test]
fn simple_delay_holds_the_display_during_the_delay() {
    let mut c = started("3m d2s");
    assert_eq!(c.remaining(White, T0 + ms(1500)), min(3));
    assert_eq!(c.delay_left(White, T0 + ms(1500)), ms(500));
    assert_eq!(c.remaining(White, T0 + sec(2)), min(3));
    assert_eq!(c.remaining(White, T0 + ms(2001)), min(3) - ms(1));
    assert_eq!(c.remaining(White, T0 + sec(5)), min(3) - sec(3));
    assert_eq!(c.delay_left(White, T0 + sec(5)), Duration::ZERO);
    let events = c.press(T0 + sec(5)).unwrap();
    // Nothing is added with a delay.
    assert_eq!(
        events,
        vec![
            ClockEvent::MoveCompleted {
                color: White,
                moves: 1
            },
            ClockEvent::Switched { color: Black },
        ]
    );
    assert_eq!(c.remaining(White, T0 + sec(5)), min(3) - sec(3));
    let l = c.ledger(White);
    assert_eq!(l.charged, sec(3));
    assert_eq!(l.delay_absorbed, sec(2));
    assert_eq!(l.used(), sec(5));
    // Black moves within the delay: no time lost.
    c.press(T0 + sec(6)).unwrap();
    assert_eq!(c.remaining(Black, T0 + sec(6)), min(3));
    assert_eq!(c.ledger(Black).delay_absorbed, sec(1));
    assert_eq!(c.used(Black, T0 + sec(6)), sec(1));
    // White's new move has a fresh delay.
    assert_eq!(c.remaining(White, T0 + sec(8)), min(3) - sec(3));
    assert_eq!(c.remaining(White, T0 + sec(9)), min(3) - sec(4));
}

#[test]
fn simple_delay_survives_a_pause() {
    let mut c = started("3m d2s");
    c.pause(T0 + sec(1)).unwrap();
    c.resume(T0 + sec(100)).unwrap();
    // 1 s used before the pause, so 1 s of delay is left after it.
    assert_eq!(c.remaining(White, T0 + sec(101)), min(3));
    assert_eq!(c.remaining(White, T0 + sec(102)), min(3) - sec(1));
    c.press(T0 + sec(102)).unwrap();
    let l = c.ledger(White);
    assert_eq!(l.delay_absorbed, sec(2));
    assert_eq!(l.charged, sec(1));
}

#[test]
fn bronstein_gives_back_up_to_the_delay() {
    let mut c = started("3m b2s");
    // The display goes down during the move.
    assert_eq!(c.remaining(White, T0 + ms(1500)), min(3) - ms(1500));
    let events = c.press(T0 + ms(1500)).unwrap();
    assert_eq!(
        events[1],
        ClockEvent::IncrementAdded {
            color: White,
            added: ms(1500)
        }
    );
    assert_eq!(c.remaining(White, T0 + sec(2)), min(3));
    // Black uses 5 s and gets 2 s back.
    let events = c.press(T0 + ms(6500)).unwrap();
    assert_eq!(
        events[1],
        ClockEvent::IncrementAdded {
            color: Black,
            added: sec(2)
        }
    );
    assert_eq!(c.remaining(Black, T0 + sec(7)), min(3) - sec(3));
    let l = c.ledger(Black);
    assert_eq!(l.charged, sec(5));
    assert_eq!(l.increment_added, sec(2));
    // A move in no time gets nothing back and no event.
    let events = c.press(T0 + ms(6500)).unwrap();
    assert_eq!(
        events,
        vec![
            ClockEvent::MoveCompleted {
                color: White,
                moves: 2
            },
            ClockEvent::Switched { color: Black },
        ]
    );
}

#[test]
fn bronstein_refund_counts_the_whole_move_across_a_pause() {
    let mut c = started("3m b2s");
    c.pause(T0 + sec(1)).unwrap();
    c.resume(T0 + sec(50)).unwrap();
    let events = c.press(T0 + ms(50_500)).unwrap();
    assert_eq!(
        events[1],
        ClockEvent::IncrementAdded {
            color: White,
            added: ms(1500)
        }
    );
    assert_eq!(c.remaining(White, T0 + sec(60)), min(3));
}

/// Plays `n` moves for each side, `white` and `black` per move.
fn play(
    c: &mut Clock,
    now: &mut Duration,
    n: u32,
    white: Duration,
    black: Duration,
) -> Vec<ClockEvent> {
    let mut events = Vec::new();
    for _ in 0..n {
        *now += white;
        events.extend(c.press(*now).unwrap());
        *now += black;
        events.extend(c.press(*now).unwrap());
    }
    events
}

#[test]
fn periods_add_time_when_their_moves_are_completed() {
    let mut c = started("90m/40+30m");
    let mut now = T0;
    let events = play(&mut c, &mut now, 39, min(2), sec(30));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, ClockEvent::PeriodReached { .. }))
    );
    assert_eq!(c.moves_to_control(White), Some(1));
    assert_eq!(c.remaining(White, now), min(90) - 39 * min(2));
    now += min(2);
    let events = c.press(now).unwrap();
    assert_eq!(
        events,
        vec![
            ClockEvent::MoveCompleted {
                color: White,
                moves: 40
            },
            ClockEvent::PeriodReached {
                color: White,
                period: 1,
                added: min(30)
            },
            ClockEvent::Switched { color: Black },
        ]
    );
    // 90 min - 80 min + 30 min.
    assert_eq!(c.remaining(White, now), min(40));
    assert_eq!(c.period(White), 1);
    assert_eq!(c.period(Black), 0);
    assert_eq!(c.moves_to_control(White), None);
    now += sec(30);
    let events = c.press(now).unwrap();
    assert_eq!(
        events[1],
        ClockEvent::PeriodReached {
            color: Black,
            period: 1,
            added: min(30)
        }
    );
    assert_eq!(c.remaining(Black, now), min(90) - 40 * sec(30) + min(30));
    // The final period adds nothing more.
    let events = play(&mut c, &mut now, 100, sec(1), sec(1));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, ClockEvent::PeriodReached { .. }))
    );
    assert_eq!(c.ledger(White).period_added, min(30));
}

#[test]
fn three_periods_with_increment() {
    let mut c = started("2h/40+1h/20+30m+30s");
    let mut now = T0;
    let events = play(&mut c, &mut now, 60, min(1), min(1));
    let reached: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            ClockEvent::PeriodReached {
                color,
                period,
                added,
            } => Some((*color, *period, *added)),
            _ => None,
        })
        .collect();
    assert_eq!(
        reached,
        vec![
            (White, 1, min(60)),
            (Black, 1, min(60)),
            (White, 2, min(30)),
            (Black, 2, min(30)),
        ]
    );
    // 2 h + 1 h + 30 min - 60 min used + 60 * 30 s.
    let expected = min(120 + 60 + 30 - 60) + 60 * sec(30);
    assert_eq!(c.remaining(White, now), expected);
    assert_eq!(c.remaining(Black, now), expected);
    assert_eq!(c.ledger(Black).increment_added, min(30));
}

#[test]
fn classical_preset_period_and_increment_at_move_40() {
    let mut c = started("90m/40+30m+30s");
    let mut now = T0;
    play(&mut c, &mut now, 39, min(2), min(2));
    now += min(2);
    let events = c.press(now).unwrap();
    assert_eq!(
        events,
        vec![
            ClockEvent::MoveCompleted {
                color: White,
                moves: 40
            },
            ClockEvent::IncrementAdded {
                color: White,
                added: sec(30)
            },
            ClockEvent::PeriodReached {
                color: White,
                period: 1,
                added: min(30)
            },
            ClockEvent::Switched { color: Black },
        ]
    );
    // 90 - 80 + 40 * 0.5 + 30 minutes.
    assert_eq!(c.remaining(White, now), min(60));
}

#[test]
fn flag_falls_exactly_at_zero() {
    let c = started("1m");
    let before = T0 + min(1) - ms(1);
    assert_eq!(c.remaining(White, before), ms(1));
    assert_eq!(c.flag(before), None);
    assert_eq!(c.remaining(White, T0 + min(1)), Duration::ZERO);
    assert_eq!(c.flag(T0 + min(1)), Some(White));
    assert_eq!(c.remaining(White, T0 + min(1) + ms(1)), Duration::ZERO);
    assert_eq!(c.flag(T0 + min(1) + ms(1)), Some(White));
    assert_eq!(c.flag(T0 + min(1) - Duration::from_nanos(1)), None);
}

#[test]
fn press_one_ms_before_the_flag_is_in_time() {
    let mut c = started("1m");
    let events = c.press(T0 + min(1) - ms(1)).unwrap();
    assert_eq!(events.len(), 2);
    assert_eq!(c.remaining(White, T0 + min(5)), ms(1));
    assert_eq!(c.flag(T0 + min(1)), None);
    // Black's flag falls a minute after Black's clock started.
    assert_eq!(c.flag(T0 + min(2) - ms(2)), None);
    assert_eq!(c.flag(T0 + min(2) - ms(1)), Some(Black));
}

#[test]
fn press_exactly_at_zero_is_too_late() {
    let mut c = started("1m");
    assert_eq!(
        c.press(T0 + min(1)),
        Err(ClockError::FlagFallen {
            color: White,
            at: T0 + min(1)
        })
    );
    assert_eq!(c.moves(White), 0);
    assert_eq!(c.state(), ClockState::Flagged(White));
}

#[test]
fn press_after_the_flag_does_not_save_the_player() {
    let mut c = started("1m+5s");
    let late = T0 + min(1) + ms(1);
    assert_eq!(
        c.press(late),
        Err(ClockError::FlagFallen {
            color: White,
            at: T0 + min(1)
        })
    );
    // No move counted, no increment, clock stopped at the fall.
    assert_eq!(c.moves(White), 0);
    assert_eq!(c.running(), None);
    assert_eq!(c.flagged(), Some(White));
    assert_eq!(c.flag(late + min(10)), Some(White));
    assert_eq!(c.remaining(White, late), Duration::ZERO);
    assert_eq!(c.remaining(Black, late + min(10)), min(1));
    let l = c.ledger(White);
    assert_eq!(l.charged, min(1));
    assert_eq!(l.increment_added, Duration::ZERO);
    assert_eq!(c.used(White, late + min(10)), min(1));
    // Pressing again is still refused.
    assert_eq!(
        c.press(late + sec(1)),
        Err(ClockError::FlagFallen {
            color: White,
            at: T0 + min(1)
        })
    );
    assert_eq!(c.pause(late + sec(1)), c.press(late).map(|_| ()));
    assert_eq!(
        c.resume(late + sec(1)),
        Err(ClockError::FlagFallen {
            color: White,
            at: T0 + min(1)
        })
    );
}

#[test]
fn update_reports_the_flag_once() {
    let mut c = started("1m");
    assert_eq!(c.update(T0 + sec(59)), Ok(None));
    assert_eq!(
        c.update(T0 + sec(61)),
        Ok(Some(ClockEvent::FlagFell {
            color: White,
            at: T0 + min(1)
        }))
    );
    assert_eq!(c.update(T0 + sec(62)), Ok(None));
    assert_eq!(c.flagged(), Some(White));
}

#[test]
fn flag_with_simple_delay_falls_after_the_delay() {
    let mut c = started("1m d5s");
    assert_eq!(c.flag(T0 + sec(65) - ms(1)), None);
    assert_eq!(c.remaining(White, T0 + sec(65) - ms(1)), ms(1));
    assert_eq!(c.flag(T0 + sec(65)), Some(White));
    assert_eq!(
        c.press(T0 + sec(70)),
        Err(ClockError::FlagFallen {
            color: White,
            at: T0 + sec(65)
        })
    );
    let l = c.ledger(White);
    assert_eq!(l.charged, min(1));
    assert_eq!(l.delay_absorbed, sec(5));
}

#[test]
fn flag_with_bronstein_falls_at_zero() {
    let c = started("1m b5s");
    assert_eq!(c.flag(T0 + min(1) - ms(1)), None);
    assert_eq!(c.flag(T0 + min(1)), Some(White));
}

#[test]
fn zero_time_with_simple_delay_still_has_the_delay() {
    let mut c = started("1m d5s");
    c.set_remaining(T0, White, Duration::ZERO).unwrap();
    assert_eq!(c.remaining(White, T0 + sec(4)), Duration::ZERO);
    assert_eq!(c.flag(T0 + sec(4)), None);
    assert_eq!(c.flag(T0 + sec(5)), Some(White));
    // Pressing within the delay saves the move.
    c.press(T0 + sec(4)).unwrap();
    assert_eq!(c.moves(White), 1);
}

#[test]
fn pause_and_resume() {
    let mut c = started("5m");
    c.pause(T0 + sec(10)).unwrap();
    assert!(c.is_paused());
    assert_eq!(c.running(), None);
    assert_eq!(c.to_move(), Some(White));
    assert_eq!(c.state(), ClockState::Paused(White));
    // Time does not run while paused, and no flag falls.
    assert_eq!(c.remaining(White, T0 + min(100)), min(5) - sec(10));
    assert_eq!(c.flag(T0 + min(100)), None);
    assert_eq!(
        c.press(T0 + sec(20)),
        Err(ClockError::Paused { color: White })
    );
    assert_eq!(
        c.pause(T0 + sec(20)),
        Err(ClockError::Paused { color: White })
    );
    assert_eq!(
        c.resume(T0 + sec(9)),
        Err(ClockError::TimeWentBackwards {
            latest: T0 + sec(10),
            now: T0 + sec(9)
        })
    );
    c.resume(T0 + min(100)).unwrap();
    assert_eq!(c.resume(T0 + min(100)), Err(ClockError::NotPaused));
    assert_eq!(c.running(), Some(White));
    c.press(T0 + min(100) + sec(5)).unwrap();
    assert_eq!(c.remaining(White, T0 + min(200)), min(5) - sec(15));
    assert_eq!(c.used(White, T0 + min(200)), sec(15));
}

#[test]
fn operations_before_start() {
    let mut c = clock("5m");
    assert_eq!(c.press(T0), Err(ClockError::NotStarted));
    assert_eq!(c.pause(T0), Err(ClockError::NotStarted));
    assert_eq!(c.resume(T0), Err(ClockError::NotStarted));
    assert_eq!(c.update(T0), Ok(None));
    c.start(T0, Black).unwrap();
    assert_eq!(c.start(T0, White), Err(ClockError::AlreadyStarted));
    assert_eq!(c.running(), Some(Black));
    assert_eq!(c.remaining(Black, T0 + sec(1)), min(5) - sec(1));
    assert_eq!(c.remaining(White, T0 + sec(1)), min(5));
}

#[test]
fn time_going_backwards_is_refused() {
    let mut c = started("5m");
    c.press(T0 + sec(10)).unwrap();
    assert_eq!(
        c.press(T0 + sec(9)),
        Err(ClockError::TimeWentBackwards {
            latest: T0 + sec(10),
            now: T0 + sec(9)
        })
    );
    // Queries treat an earlier instant as no time elapsed.
    assert_eq!(c.remaining(Black, T0), min(5));
    assert_eq!(c.moves(Black), 0);
    c.press(T0 + sec(10)).unwrap();
    assert_eq!(c.moves(Black), 1);
}

#[test]
fn arbiter_adjusts_time() {
    let mut c = started("15m+10s");
    c.adjust(T0 + sec(30), Black, Adjustment::Add(min(2)))
        .unwrap();
    assert_eq!(c.remaining(Black, T0 + sec(30)), min(17));
    c.adjust(T0 + sec(30), White, Adjustment::Remove(min(1)))
        .unwrap();
    // White's clock ran 30 s and lost a minute.
    assert_eq!(c.remaining(White, T0 + sec(30)), min(15) - sec(90));
    assert_eq!(c.remaining(White, T0 + sec(40)), min(15) - sec(100));
    assert_eq!(
        c.adjust(T0 + sec(40), White, Adjustment::Remove(min(14))),
        Err(ClockError::RemovalExceedsRemaining {
            color: White,
            remaining: min(15) - sec(100),
            requested: min(14)
        })
    );
    let l = c.ledger(White);
    assert_eq!(l.arbiter_removed, min(1));
    assert_eq!(l.charged, sec(40));
    c.set_remaining(T0 + sec(40), White, min(10)).unwrap();
    assert_eq!(c.remaining(White, T0 + sec(40)), min(10));
    c.set_remaining(T0 + sec(40), Black, min(20)).unwrap();
    assert_eq!(c.remaining(Black, T0 + sec(40)), min(20));
    let l = c.ledger(Black);
    assert_eq!(l.arbiter_added, min(5));
    assert_ledger_identity(&c, White);
    assert_ledger_identity(&c, Black);
}

#[test]
fn arbiter_can_set_time_before_the_start() {
    // Resuming an adjourned game (Guideline I): times and move counts.
    let mut c = clock("90m/40+30m");
    c.set_remaining(Duration::ZERO, White, min(12)).unwrap();
    c.set_remaining(Duration::ZERO, Black, min(34)).unwrap();
    c.set_moves(White, 41);
    c.set_moves(Black, 41);
    assert_eq!(c.period(White), 1);
    assert_eq!(c.moves_to_control(White), None);
    c.start(T0, Black).unwrap();
    c.press(T0 + min(1)).unwrap();
    assert_eq!(c.moves(Black), 42);
    assert_eq!(c.remaining(Black, T0 + min(1)), min(33));
    assert_eq!(c.remaining(White, T0 + min(1)), min(12));
}

#[test]
fn set_moves_recomputes_the_period() {
    let mut c = started("90m/40+30m");
    c.set_moves(White, 39);
    assert_eq!(c.period(White), 0);
    let events = c.press(T0 + sec(1)).unwrap();
    assert_eq!(
        events[1],
        ClockEvent::PeriodReached {
            color: White,
            period: 1,
            added: min(30)
        }
    );
    c.set_moves(White, 10);
    assert_eq!(c.period(White), 0);
    assert_eq!(c.moves_to_control(White), Some(30));
}

#[test]
fn arbiter_time_lifts_a_flag_fall() {
    let mut c = started("1m");
    assert!(c.update(T0 + min(2)).unwrap().is_some());
    c.adjust(T0 + min(3), White, Adjustment::Add(min(1)))
        .unwrap();
    assert_eq!(c.state(), ClockState::Paused(White));
    assert_eq!(c.flag(T0 + min(4)), None);
    // Paused at the adjustment, not at the fall.
    assert_eq!(
        c.resume(T0 + min(2)),
        Err(ClockError::TimeWentBackwards {
            latest: T0 + min(3),
            now: T0 + min(2)
        })
    );
    c.resume(T0 + min(4)).unwrap();
    assert_eq!(c.remaining(White, T0 + min(4) + sec(10)), sec(50));
    // Time to the other player does not lift it.
    let mut c = started("1m");
    assert!(c.update(T0 + min(2)).unwrap().is_some());
    c.adjust(T0 + min(3), Black, Adjustment::Add(min(1)))
        .unwrap();
    assert_eq!(c.state(), ClockState::Flagged(White));
}

#[test]
fn arbiter_taking_all_time_makes_the_flag_fall() {
    let mut c = started("5m");
    c.set_remaining(T0 + sec(10), White, Duration::ZERO)
        .unwrap();
    assert_eq!(c.flag(T0 + sec(10)), Some(White));
    assert_eq!(
        c.press(T0 + sec(11)),
        Err(ClockError::FlagFallen {
            color: White,
            at: T0 + sec(10)
        })
    );
}

#[test]
fn switching_to_a_player_without_time_flags_at_once() {
    let mut c = started("5m");
    c.set_remaining(T0, Black, Duration::ZERO).unwrap();
    c.press(T0 + sec(3)).unwrap();
    assert_eq!(c.flag(T0 + sec(3)), Some(Black));
    assert_eq!(
        c.update(T0 + sec(4)),
        Ok(Some(ClockEvent::FlagFell {
            color: Black,
            at: T0 + sec(3)
        }))
    );
}

#[test]
fn guideline_iii_increment_for_both() {
    let mut c = started("15m");
    assert_eq!(
        c.add_increment_both(Duration::ZERO),
        Err(ClockError::InvalidIncrement(Duration::ZERO))
    );
    assert_eq!(
        c.add_increment_both(min(61)),
        Err(ClockError::InvalidIncrement(min(61)))
    );
    assert_eq!(
        c.add_increment_both(Duration::from_micros(1)),
        Err(ClockError::InvalidIncrement(Duration::from_micros(1)))
    );
    c.add_increment_both(QUICKPLAY_INCREMENT).unwrap();
    assert_eq!(c.increment(), Increment::Fischer(sec(5)));
    // The time control as announced is unchanged.
    assert_eq!(c.control().increment(), Increment::None);
    let events = c.press(T0 + sec(20)).unwrap();
    assert_eq!(
        events[1],
        ClockEvent::IncrementAdded {
            color: White,
            added: sec(5)
        }
    );
    assert_eq!(c.remaining(White, T0 + sec(20)), min(15) - sec(15));
    assert_eq!(
        c.add_increment_both(sec(5)),
        Err(ClockError::IncrementAlreadySet {
            increment: Increment::Fischer(sec(5))
        })
    );
    let mut c = started("3m d2s");
    assert_eq!(
        c.add_increment_both(sec(5)),
        Err(ClockError::IncrementAlreadySet {
            increment: Increment::SimpleDelay(sec(2))
        })
    );
}

#[test]
fn quickplay_finish_eligibility() {
    // Rapid without increment: White to move with less than two minutes.
    let mut c = started("15m");
    let t = T0 + min(13);
    assert!(!c.quickplay_finish_eligible(White, t));
    assert!(c.quickplay_finish_eligible(White, t + ms(1)));
    // Only the player to move.
    c.set_remaining(t, Black, min(1)).unwrap();
    assert!(!c.quickplay_finish_eligible(Black, t + ms(1)));
    // Not after the flag fell.
    assert!(!c.quickplay_finish_eligible(White, T0 + min(15)));
    // Not once the increment was added.
    c.add_increment_both(QUICKPLAY_INCREMENT).unwrap();
    assert!(!c.quickplay_finish_eligible(White, t + ms(1)));

    // Not with an increment or delay in the control.
    let c = started("15m+10s");
    assert!(!c.quickplay_finish_eligible(White, T0 + min(14)));
    let c = started("15m d10s");
    assert!(!c.quickplay_finish_eligible(White, T0 + min(14)));
    // Not in blitz (III.2.2).
    let c = started("5m");
    assert!(!c.quickplay_finish_eligible(White, T0 + min(4)));
    // Not before the final period.
    let mut c = started("90m/40+30m");
    assert!(!c.quickplay_finish_eligible(White, T0 + min(89)));
    c.set_moves(White, 40);
    assert!(c.quickplay_finish_eligible(White, T0 + min(89)));
    // Paused with the move still counts.
    let mut c = started("15m");
    c.pause(T0 + min(14)).unwrap();
    assert!(c.quickplay_finish_eligible(White, T0 + min(20)));
}

#[test]
fn reading_has_what_a_talking_clock_needs() {
    let mut c = started("90m/40+30m+30s");
    let mut now = T0;
    play(&mut c, &mut now, 3, sec(61), sec(5));
    now += ms(2500);
    let r = c.reading(White, now);
    assert_eq!(r.color, White);
    // 90 min - 3 * 61 s - 2.5 s + 3 * 30 s.
    assert_eq!(r.remaining, min(90) - sec(3 * 61) - ms(2500) + sec(90));
    assert_eq!(r.used, sec(3 * 61) + ms(2500));
    assert_eq!(r.moves, 3);
    assert_eq!(r.period, 0);
    assert_eq!(r.moves_to_control, Some(37));
    assert_eq!(r.delay_left, Duration::ZERO);
    assert!(r.running);
    assert!(!r.flagged);
    // 5400 - 183 - 2.5 + 90 = 5304.5 s = 1:28:24.5
    assert_eq!(
        r.remaining_parts(),
        TimeParts {
            hours: 1,
            minutes: 28,
            seconds: 24,
            tenths: None
        }
    );
    assert_eq!(
        r.used_parts(),
        TimeParts {
            hours: 0,
            minutes: 3,
            seconds: 5,
            tenths: None
        }
    );
    let r = c.reading(Black, now);
    assert!(!r.running);
    assert_eq!(r.used, sec(15));
}

#[test]
fn reading_in_the_last_seconds_has_tenths() {
    let c = started("1m d2s");
    let r = c.reading(White, T0 + ms(52_550));
    assert_eq!(r.remaining, ms(9450));
    assert_eq!(r.remaining_parts().tenths, Some(4));
    assert_eq!(r.remaining_parts().to_string(), "0:09.4");
    assert_eq!(c.reading(White, T0 + ms(500)).delay_left, ms(1500));
}

#[test]
fn huge_times_do_not_panic() {
    let mut c = started("15m+10s");
    assert_eq!(
        c.adjust(T0, Black, Adjustment::Add(Duration::MAX)),
        Err(ClockError::Overflow)
    );
    assert_eq!(c.flag(Duration::MAX), Some(White));
    assert_eq!(c.remaining(White, Duration::MAX), Duration::ZERO);
    assert!(c.press(Duration::MAX).is_err());
    let mut c = clock("15m");
    c.start(Duration::ZERO, White).unwrap();
    c.set_remaining(Duration::ZERO, White, Duration::MAX - min(15))
        .unwrap();
    assert_eq!(c.remaining(White, Duration::ZERO), Duration::MAX - min(15));
    assert!(c.press(Duration::MAX).is_err());
}

#[test]
fn error_messages() {
    assert_eq!(
        ClockError::FlagFallen {
            color: White,
            at: T0
        }
        .to_string(),
        "white's flag has fallen"
    );
    assert_eq!(
        ClockError::IncrementAlreadySet {
            increment: Increment::SimpleDelay(sec(2))
        }
        .to_string(),
        "the game already has an increment or delay (d2s)"
    );
}

#[test]
fn three_period_control_without_text() {
    let control = TimeControl::new(
        vec![
            Period::new(min(1), 1),
            Period::new(min(2), 1),
            Period::sudden_death(min(3)),
        ],
        Increment::None,
    )
    .unwrap();
    let mut c = Clock::new(control);
    c.start(T0, White).unwrap();
    let mut now = T0;
    let events = play(&mut c, &mut now, 2, sec(1), sec(1));
    let added: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            ClockEvent::PeriodReached {
                color: White,
                added,
                ..
            } => Some(*added),
            _ => None,
        })
        .collect();
    assert_eq!(added, vec![min(2), min(3)]);
    assert_eq!(c.remaining(White, now), min(6) - sec(2));
}

#[test]
fn run_for_starts_an_absent_players_clock_without_a_move() {
    // Guideline I.9.2: adjourned with White (the sealer) to move; at the
    // resumption Black is absent and his clock runs; on arrival he stops
    // it; the sealed move is then completed by White's press.
    let mut c = clock("90m+30s");
    c.start(T0, White).unwrap();
    c.pause(T0 + min(10)).unwrap();
    c.run_for(T0 + min(60), Black).unwrap();
    assert_eq!(c.running(), Some(Black));
    assert_eq!(c.moves(White), 0);
    assert_eq!(c.remaining(White, T0 + min(70)), min(80));
    assert_eq!(c.remaining(Black, T0 + min(70)), min(80));
    c.pause(T0 + min(70)).unwrap();
    c.run_for(T0 + min(75), White).unwrap();
    c.press(T0 + min(75)).unwrap();
    // The sealed move: counted for White with its increment, no time.
    assert_eq!(c.moves(White), 1);
    assert_eq!(c.remaining(White, T0 + min(75)), min(80) + sec(30));
    assert_eq!(c.remaining(Black, T0 + min(76)), min(79));
    // A running clock is charged before it is handed over.
    c.run_for(T0 + min(77), White).unwrap();
    assert_eq!(c.remaining(Black, T0 + min(90)), min(78));
    assert_ledger_identity(&c, White);
    assert_ledger_identity(&c, Black);
    assert_eq!(
        c.run_for(T0 + min(70), Black),
        Err(ClockError::TimeWentBackwards {
            latest: T0 + min(77),
            now: T0 + min(70)
        })
    );
}
