//! Property tests: zero drift over a long game, and the clock against an
//! independent reference model in integer nanoseconds.

use std::time::Duration;

use proptest::prelude::*;
use shakmaty::Color::{self, Black, White};

use super::*;

const HOUR: Duration = Duration::from_secs(3600);

fn increment(mode: u8, amount: Duration) -> Increment {
    match mode {
        0 => Increment::None,
        1 => Increment::Fischer(amount),
        2 => Increment::SimpleDelay(amount),
        _ => Increment::Bronstein(amount),
    }
}

#[derive(Debug, Clone)]
enum Action {
    /// The clock runs `run` ns, then the player to move presses it.
    Press { run: u64 },
    /// The clock runs `run` ns, is paused for `paused` ns, then resumed.
    Pause { run: u64, paused: u64 },
    /// The clock runs `run` ns, then the arbiter gives `give_ms` to a player.
    Give { run: u64, white: bool, give_ms: u64 },
}

/// Up to 16.8 s per step: about 3000 steps make a seven-hour game.
const MAX_RUN_NS: u64 = 16_800_000_000;

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        95 => (0..=MAX_RUN_NS).prop_map(|run| Action::Press { run }),
        4 => (0..=MAX_RUN_NS, 0..=600_000_000_000u64)
            .prop_map(|(run, paused)| Action::Pause { run, paused }),
        1 => (0..=MAX_RUN_NS, any::<bool>(), 0..=120_000u64)
            .prop_map(|(run, white, give_ms)| Action::Give { run, white, give_ms }),
    ]
}

/// Expected per-player totals, worked out by the test itself.
#[derive(Debug, Default, Clone, Copy)]
struct Expected {
    used: Duration,
    absorbed: Duration,
    increments: Duration,
    periods: Duration,
    arbiter: Duration,
    moves: u32,
}

fn idx(color: Color) -> usize {
    match color {
        White => 0,
        Black => 1,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A seven-hour game with thousands of presses at random nanosecond
    /// intervals, random pauses and arbiter additions: the running time of
    /// both clocks adds up to exactly the injected running time, and each
    /// remaining time is exactly initial + additions - charged.
    #[test]
    fn zero_drift_over_a_seven_hour_game(
        epoch_ns in 0u64..=1_000_000_000_000_000,
        mode in 0u8..4,
        amount_ms in 0u64..=30_000,
        actions in prop::collection::vec(action(), 2800..=3200),
    ) {
        // 3 h for 40 moves, 1 h for 20, then 4 h: 8 h, more than either
        // player can use in the game, so no flag falls.
        let amount = Duration::from_millis(amount_ms);
        let inc = increment(mode, amount);
        let control = TimeControl::new(
            vec![Period::new(3 * HOUR, 40), Period::new(HOUR, 20), Period::sudden_death(4 * HOUR)],
            inc,
        ).unwrap();
        let mut clock = Clock::new(control);
        let mut now = Duration::from_nanos(epoch_ns);
        clock.start(now, White).unwrap();

        let mut exp = [Expected::default(); 2];
        let mut running_total = Duration::ZERO;
        let mut to_move = White;
        let mut turn = Duration::ZERO;

        for a in &actions {
            let run = match *a {
                Action::Press { run } | Action::Pause { run, .. } | Action::Give { run, .. } => run,
            };
            let run = Duration::from_nanos(run);
            now += run;
            running_total += run;
            turn += run;
            exp[idx(to_move)].used += run;
            match *a {
                Action::Press { .. } => {
                    clock.press(now).unwrap();
                    let e = &mut exp[idx(to_move)];
                    match inc {
                        Increment::None => {}
                        Increment::Fischer(d) => e.increments += d,
                        Increment::SimpleDelay(d) => e.absorbed += turn.min(d),
                        Increment::Bronstein(d) => e.increments += turn.min(d),
                    }
                    e.moves += 1;
                    if e.moves == 40 {
                        e.periods += HOUR;
                    }
                    if e.moves == 60 {
                        e.periods += 4 * HOUR;
                    }
                    to_move = to_move.other();
                    turn = Duration::ZERO;
                }
                Action::Pause { paused, .. } => {
                    clock.pause(now).unwrap();
                    now += Duration::from_nanos(paused);
                    clock.resume(now).unwrap();
                }
                Action::Give { white, give_ms, .. } => {
                    let color = Color::from_white(white);
                    let give = Duration::from_millis(give_ms);
                    clock.adjust(now, color, Adjustment::Add(give)).unwrap();
                    exp[idx(color)].arbiter += give;
                }
            }
            prop_assert_eq!(clock.used(White, now) + clock.used(Black, now), running_total);
        }

        prop_assert_eq!(clock.flag(now), None);
        prop_assert_eq!(clock.running(), Some(to_move));
        // The ledger is settled up to `now` (every action ends with an
        // operation at `now`), including the move in progress.
        if let Increment::SimpleDelay(d) = inc {
            exp[idx(to_move)].absorbed += turn.min(d);
        }
        let white = clock.ledger(White);
        let black = clock.ledger(Black);
        prop_assert_eq!(white.used() + black.used(), running_total);
        for color in [White, Black] {
            let e = exp[idx(color)];
            let l = clock.ledger(color);
            prop_assert_eq!(l.used(), e.used);
            prop_assert_eq!(clock.used(color, now), e.used);
            prop_assert_eq!(l.delay_absorbed, e.absorbed);
            prop_assert_eq!(l.charged, e.used - e.absorbed);
            prop_assert_eq!(l.initial, 3 * HOUR);
            prop_assert_eq!(l.increment_added, e.increments);
            prop_assert_eq!(l.period_added, e.periods);
            prop_assert_eq!(l.arbiter_added, e.arbiter);
            prop_assert_eq!(l.arbiter_removed, Duration::ZERO);
            prop_assert_eq!(clock.moves(color), e.moves);
            let expected_remaining =
                3 * HOUR + e.periods + e.increments + e.arbiter - (e.used - e.absorbed);
            prop_assert_eq!(clock.remaining(color, now), expected_remaining);
        }
        // It really was a long game.
        prop_assert!(running_total > 5 * HOUR, "{:?}", running_total);
    }
}

/// Reference model: one player's clock in signed integer nanoseconds.
#[derive(Debug, Clone, Copy)]
struct ModelSide {
    rem: i128,
    moves: u32,
    used: i128,
}

const fn ns(d: Duration) -> i128 {
    d.as_nanos() as i128
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Short, tight games where flags fall: the clock matches a reference
    /// model on every press, on remaining time at random instants and on
    /// the exact instant of the flag fall.
    #[test]
    fn matches_reference_model_with_flags(
        first_ms in 1_000u64..=20_000,
        first_moves in 1u32..=5,
        second_ms in 1_000u64..=20_000,
        mode in 0u8..4,
        amount_ms in 0u64..=3_000,
        // Whole milliseconds, small: exact boundaries are hit often.
        // Sometimes the press comes exactly at the flag fall.
        steps in prop::collection::vec(
            (0u64..=6_000, 0u64..=6_000, prop::bool::weighted(0.05)),
            1..200,
        ),
    ) {
        let inc = increment(mode, Duration::from_millis(amount_ms));
        let (fischer, simple, bronstein) = match inc {
            Increment::None => (0, 0, 0),
            Increment::Fischer(d) => (ns(d), 0, 0),
            Increment::SimpleDelay(d) => (0, ns(d), 0),
            Increment::Bronstein(d) => (0, 0, ns(d)),
        };
        let first = Duration::from_millis(first_ms);
        let second = Duration::from_millis(second_ms);
        let control = TimeControl::new(
            vec![Period::new(first, first_moves), Period::sudden_death(second)],
            inc,
        ).unwrap();
        let mut clock = Clock::new(control);
        let t0: i128 = 7_000_000_000;
        clock.start(Duration::from_nanos(7_000_000_000), White).unwrap();

        let side = ModelSide { rem: ns(first), moves: 0, used: 0 };
        let mut model = [side, side];
        let mut to_move = White;
        let mut since = t0;
        let mut turn: i128 = 0;
        let mut flag_at: Option<i128> = None;
        let mut running_total: i128 = 0;
        let ms = 1_000_000i128;

        for (look_ms, press_ms, exact) in steps {
            let c = idx(to_move);
            let delay_left = (simple - turn).max(0);
            let fall = since + delay_left + model[c].rem;
            // Look at the clock at some instant before the press.
            let look = since + i128::from(look_ms) * ms;
            let look_d = Duration::from_nanos(u64::try_from(look).unwrap());
            let shown = (model[c].rem - (look - since - delay_left).max(0)).max(0);
            prop_assert_eq!(ns(clock.remaining(to_move, look_d)), shown);
            prop_assert_eq!(clock.flag(look_d), (look >= fall).then_some(to_move));

            let now = if exact { fall } else { since + i128::from(press_ms) * ms };
            let now_d = Duration::from_nanos(u64::try_from(now).unwrap());
            let result = clock.press(now_d);
            if now >= fall {
                let at = Duration::from_nanos(u64::try_from(fall).unwrap());
                prop_assert_eq!(result, Err(ClockError::FlagFallen { color: to_move, at }));
                model[c].used += fall - since;
                running_total += fall - since;
                model[c].rem = 0;
                flag_at = Some(fall);
                break;
            }
            let events = result.unwrap();
            let e = now - since;
            model[c].used += e;
            running_total += e;
            model[c].rem -= (e - delay_left).max(0);
            turn += e;
            model[c].rem += fischer + turn.min(bronstein);
            model[c].moves += 1;
            if model[c].moves == first_moves {
                model[c].rem += ns(second);
            }
            prop_assert_eq!(
                events.first().copied(),
                Some(ClockEvent::MoveCompleted { color: to_move, moves: model[c].moves })
            );
            prop_assert_eq!(events.last().copied(), Some(ClockEvent::Switched { color: to_move.other() }));
            to_move = to_move.other();
            since = now;
            turn = 0;
        }

        let end = Duration::from_nanos(u64::try_from(since + 100_000 * ms).unwrap());
        for color in [White, Black] {
            let m = model[idx(color)];
            prop_assert_eq!(clock.moves(color), m.moves);
            prop_assert_eq!(ns(clock.ledger(color).used()), m.used);
            if flag_at.is_some() || color != to_move {
                prop_assert_eq!(ns(clock.remaining(color, end)), m.rem);
            }
        }
        prop_assert_eq!(
            ns(clock.ledger(White).used()) + ns(clock.ledger(Black).used()),
            running_total
        );
        // Without pauses, the clock ran from the start to the last press or
        // to the flag fall.
        prop_assert_eq!(running_total, flag_at.unwrap_or(since) - t0);
        if flag_at.is_some() {
            prop_assert_eq!(clock.flagged(), Some(to_move));
            prop_assert_eq!(ns(clock.used(to_move, end)), model[idx(to_move)].used);
        }
    }
}
