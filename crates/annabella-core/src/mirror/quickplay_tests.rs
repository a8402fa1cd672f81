//! Guideline III in the core: each clause and each refusal, with expected
//! values computed from the Laws' numbers (five seconds, two minutes), not
//! from the code under test.

use std::time::Duration;

use shakmaty::Color;

use super::*;
use crate::clock::Increment;
use crate::game::{Command, Game, Side};
use crate::locale::MsgKey;
use crate::mirror::{Config, GameEvent, Mirror, PgnNotes, PgnSource};
use crate::rules::Termination;
use crate::vocab::Vocabulary;

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn config(control: &str, quickplay: bool) -> Config {
    Config {
        control: control.parse().unwrap(),
        quickplay,
        ..Config::default()
    }
}

fn mirror_with(config: Config) -> Mirror {
    Mirror::new(Vocabulary::builtin("en").unwrap(), config, Duration::ZERO)
}

/// A rapid game (15 minutes, no increment) with Guideline III announced.
fn rapid() -> Mirror {
    mirror_with(config("15m", true))
}

/// 13:30 into the game: White, to move, has 1:30 left.
const LOW: Duration = Duration::from_secs(13 * 60 + 30);

fn quickplay_error(r: Result<Said, GameError>) -> QuickplayError {
    match r {
        Err(GameError::Quickplay(e)) => e,
        other => panic!("not a Guideline III refusal: {other:?}"),
    }
}

fn events(said: &Said) -> Vec<QuickplayEvent> {
    said.iter()
        .filter_map(|e| match e {
            GameEvent::Quickplay(q) => Some(q.clone()),
            _ => None,
        })
        .collect()
}

fn remaining(m: &Mirror, c: Color) -> Duration {
    m.clock().remaining(c, m.now())
}

/// White makes, announces and presses a move at `now`.
fn white_moves(m: &mut Mirror, now: Duration, san: &str) {
    m.board_move(now, Color::White, &san.into()).unwrap();
    m.announce(now, None).unwrap();
    m.press(now).unwrap();
    m.board_move(now, Color::Black, &san.into()).unwrap();
}

#[test]
fn guideline_iii_2_1_only_when_announced() {
    let mut m = mirror_with(config("15m", false));
    assert_eq!(
        quickplay_error(m.request_increment(LOW, Color::White)),
        QuickplayError::NotAnnounced
    );
    assert_eq!(
        quickplay_error(m.claim_quickplay(LOW, Color::White, ClaimGrounds::NoEffort)),
        QuickplayError::NotAnnounced
    );
}

#[test]
fn guideline_iii_2_2_not_in_blitz_nor_with_increment_or_delay() {
    // 5 minutes is blitz (B.1): no Guideline III, whatever the time left.
    let mut m = mirror_with(config("5m", true));
    assert_eq!(
        quickplay_error(m.request_increment(secs(4 * 60), Color::White)),
        QuickplayError::Blitz
    );
    for control in ["15m+10s", "15m d5s"] {
        let mut m = mirror_with(config(control, true));
        let e = quickplay_error(m.claim_quickplay(LOW, Color::White, ClaimGrounds::CannotWin));
        assert!(
            matches!(e, QuickplayError::WithIncrement(_)),
            "{control}: {e:?}"
        );
    }
}

#[test]
fn guideline_iii_1_only_in_the_last_period() {
    // 90 minutes for 40 moves, then 30: the first period is no quickplay
    // finish, even with little time left.
    let mut m = mirror_with(config("90m/40+30m", true));
    assert_eq!(
        quickplay_error(m.request_increment(secs(89 * 60), Color::White)),
        QuickplayError::NotFinalPeriod {
            side: Color::White,
            moves: 40
        }
    );
}

#[test]
fn only_the_player_having_the_move_with_less_than_two_minutes() {
    let mut m = rapid();
    assert_eq!(
        quickplay_error(m.request_increment(LOW, Color::Black)),
        QuickplayError::NotToMove {
            side: Color::Black,
            mover: Color::White
        }
    );
    // 13:00: exactly two minutes left is not less than two minutes.
    assert_eq!(
        quickplay_error(m.claim_quickplay(secs(13 * 60), Color::White, ClaimGrounds::NoEffort)),
        QuickplayError::TimeLeft {
            side: Color::White,
            remaining: secs(120)
        }
    );
    // A refusal changes nothing.
    assert_eq!(m.quickplay_pending(), None);
    assert_eq!(m.clock().running(), Some(Color::White));
}

#[test]
fn guideline_iii_4_granted_after_the_draw_offer_is_declined() {
    let mut m = rapid();
    let said = m.request_increment(LOW, Color::White).unwrap();
    assert_eq!(
        events(&said),
        [QuickplayEvent::IncrementRequested { side: Color::White }]
    );
    // The request is a draw offer by White; the clocks are stopped.
    assert_eq!(m.draw_offer(), Some(Color::White));
    assert!(m.clock().is_paused());
    // The arbiter decides only after the offer is declined.
    assert_eq!(
        quickplay_error(m.decide_increment(LOW + secs(5), true)),
        QuickplayError::OfferOpen { side: Color::White }
    );
    m.answer_draw(LOW + secs(5), Color::Black, false).unwrap();
    // Until the arbiter decides, the game waits.
    assert_eq!(
        quickplay_error(m.board_move(LOW + secs(6), Color::White, &"e4".into())),
        QuickplayError::RequestPending { side: Color::White }
    );
    let black_before = remaining(&m, Color::Black);
    let said = m.decide_increment(LOW + secs(10), true).unwrap();
    assert_eq!(
        events(&said),
        [QuickplayEvent::IncrementGranted {
            side: Color::White,
            increment: secs(5),
            to: Color::Black,
            extra: secs(120),
        }]
    );
    assert_eq!(m.clock().increment(), Increment::Fischer(secs(5)));
    assert_eq!(remaining(&m, Color::Black), black_before + secs(120));
    // The clock runs again, and White's time did not run while stopped.
    assert_eq!(m.clock().running(), Some(Color::White));
    assert_eq!(remaining(&m, Color::White), secs(90));
    // White moves 10 s later: 90 - 10 + 5.
    white_moves(&mut m, LOW + secs(20), "e4");
    assert_eq!(m.clock().remaining(Color::White, LOW + secs(20)), secs(85));
    // The game has an increment now: Guideline III no longer applies.
    let e =
        quickplay_error(m.claim_quickplay(LOW + secs(21), Color::Black, ClaimGrounds::NoEffort));
    assert_eq!(
        e,
        QuickplayError::WithIncrement(Increment::Fischer(secs(5)))
    );
    // The arbiter's decision is on the record (PGN comment).
    assert!(m.arbiter_record().iter().any(|r| matches!(
        r.event,
        GameEvent::Quickplay(QuickplayEvent::IncrementGranted { .. })
    )));
}

#[test]
fn guideline_iii_4_the_request_is_a_draw_offer_that_can_be_accepted() {
    let mut m = rapid();
    // One move each first (a draw by agreement needs them, Art. 5.2.3).
    white_moves(&mut m, secs(1), "e4");
    m.board_move(secs(2), Color::Black, &"e5".into()).unwrap();
    m.announce(secs(2), None).unwrap();
    m.press(secs(2)).unwrap();
    m.board_move(secs(2), Color::White, &"e5".into()).unwrap();
    // White's clock: 14:59 left at 0:02, so 1:30 left at 13:31.
    let low = LOW + secs(1);
    m.request_increment(low, Color::White).unwrap();
    let said = m.answer_draw(low + secs(3), Color::Black, true).unwrap();
    assert!(said.iter().any(|e| matches!(e, GameEvent::GameOver(_))));
    assert_eq!(
        m.result().map(|r| (r.termination, r.winner)),
        Some((Termination::Agreement, None))
    );
}

#[test]
fn guideline_iii_4_refused_leaves_the_clock_as_it_was() {
    let mut m = rapid();
    m.request_increment(LOW, Color::White).unwrap();
    m.answer_draw(LOW, Color::Black, false).unwrap();
    let said = m.decide_increment(LOW + secs(30), false).unwrap();
    assert_eq!(
        events(&said),
        [QuickplayEvent::IncrementRefused { side: Color::White }]
    );
    assert!(m.clock().increment().is_none());
    assert_eq!(remaining(&m, Color::Black), secs(15 * 60));
    assert_eq!(m.clock().running(), Some(Color::White));
    // Nothing awaits the arbiter any more.
    assert_eq!(
        quickplay_error(m.decide_increment(LOW + secs(31), true)),
        QuickplayError::NothingToDecide
    );
}

/// III.4 asked for at `LOW`, declined and refused by the arbiter at once:
/// III.4 cannot be applied, so III.5 may (the clock stands meanwhile).
fn increment_refused(m: &mut Mirror) {
    m.request_increment(LOW, Color::White).unwrap();
    m.answer_draw(LOW, Color::Black, false).unwrap();
    m.decide_increment(LOW, false).unwrap();
}

#[test]
fn guideline_iii_5_only_when_iii_4_cannot_be_applied() {
    let mut m = rapid();
    // The increment can be given (annabella's clock always can): III.4
    // first.
    assert_eq!(
        quickplay_error(m.claim_quickplay(LOW, Color::White, ClaimGrounds::CannotWin)),
        QuickplayError::IncrementFirst { side: Color::White }
    );
    assert_eq!(
        quickplay_error(
            m.may_claim_quickplay(LOW, Color::White)
                .map(|()| Said::new())
        ),
        QuickplayError::IncrementFirst { side: Color::White }
    );
    // Refused by the arbiter: III.4 is not applied, the claim is open.
    increment_refused(&mut m);
    m.claim_quickplay(LOW, Color::White, ClaimGrounds::CannotWin)
        .unwrap();
}

#[test]
fn guideline_iii_5_1_the_arbiter_agrees_a_draw() {
    let mut m = rapid();
    increment_refused(&mut m);
    let said = m
        .claim_quickplay(LOW, Color::White, ClaimGrounds::NoEffort)
        .unwrap();
    assert_eq!(
        events(&said),
        [QuickplayEvent::Claimed {
            side: Color::White,
            grounds: ClaimGrounds::NoEffort
        }]
    );
    assert!(m.clock().is_paused());
    // The game waits for the arbiter.
    assert_eq!(
        quickplay_error(m.board_move(LOW + secs(1), Color::White, &"e4".into())),
        QuickplayError::ClaimPending { side: Color::White }
    );
    // The flag-fall decision is not the one to give now.
    assert_eq!(
        quickplay_error(m.decide_after_flag(LOW + secs(1), true)),
        QuickplayError::NoFlagFallen { side: Color::White }
    );
    m.uphold_claim(LOW + secs(40)).unwrap();
    let r = m.result().unwrap();
    assert_eq!(
        (r.termination, r.winner, r.by),
        (Termination::QuickplayClaim, None, Some(Color::White))
    );
}

#[test]
fn guideline_iii_5_3_rejected_gives_the_opponent_two_minutes() {
    let mut m = rapid();
    increment_refused(&mut m);
    m.claim_quickplay(LOW, Color::White, ClaimGrounds::CannotWin)
        .unwrap();
    let said = m.reject_claim(LOW + secs(60)).unwrap();
    assert_eq!(
        events(&said),
        [QuickplayEvent::Rejected {
            side: Color::White,
            to: Color::Black,
            extra: Some(secs(120)),
        }]
    );
    assert_eq!(remaining(&m, Color::Black), secs(17 * 60));
    // The claimant's time did not run while the arbiter decided.
    assert_eq!(remaining(&m, Color::White), secs(90));
    assert_eq!(m.clock().running(), Some(Color::White));
    assert!(m.result().is_none());
}

#[test]
fn guideline_iii_5_2_postponed_then_decided_later_in_the_game() {
    let mut m = rapid();
    increment_refused(&mut m);
    m.claim_quickplay(LOW, Color::White, ClaimGrounds::Both)
        .unwrap();
    let said = m.postpone_claim(LOW + secs(20), true).unwrap();
    assert_eq!(
        events(&said),
        [QuickplayEvent::Postponed {
            side: Color::White,
            to: Color::Black,
            extra: Some(secs(120)),
        }]
    );
    assert_eq!(remaining(&m, Color::Black), secs(17 * 60));
    assert_eq!(
        quickplay_error(m.postpone_claim(LOW + secs(21), true)),
        QuickplayError::AlreadyPostponed { side: Color::White }
    );
    // The game goes on.
    white_moves(&mut m, LOW + secs(30), "e4");
    // Rejected later: the opponent had his two minutes already.
    let said = m.reject_claim(LOW + secs(40)).unwrap();
    assert_eq!(
        events(&said),
        [QuickplayEvent::Rejected {
            side: Color::White,
            to: Color::Black,
            extra: None,
        }]
    );
    assert_eq!(
        m.clock().remaining(Color::Black, LOW + secs(40)),
        secs(17 * 60 - 10)
    );
}

#[test]
fn guideline_iii_5_2_a_flag_fall_waits_for_the_arbiter() {
    let postponed = || {
        let mut m = rapid();
        increment_refused(&mut m);
        m.claim_quickplay(LOW, Color::White, ClaimGrounds::NoEffort)
            .unwrap();
        m.postpone_claim(LOW, false).unwrap();
        // White's 90 seconds run out.
        let said = m.tick(LOW + secs(90)).unwrap();
        assert_eq!(
            events(&said),
            [QuickplayEvent::FlagFell {
                flagged: Color::White,
                claimant: Color::White
            }]
        );
        assert!(m.result().is_none(), "the flag fall alone ends nothing");
        m
    };
    let mut m = postponed();
    // Nothing else until the arbiter declares the result.
    assert_eq!(
        quickplay_error(m.board_move(LOW + secs(91), Color::White, &"e4".into())),
        QuickplayError::AwaitsResult {
            flagged: Color::White,
            claimant: Color::White
        }
    );
    assert_eq!(
        quickplay_error(m.uphold_claim(LOW + secs(91))),
        QuickplayError::AwaitsResult {
            flagged: Color::White,
            claimant: Color::White
        }
    );
    m.decide_after_flag(LOW + secs(100), true).unwrap();
    let r = m.result().unwrap();
    assert_eq!(
        (r.termination, r.winner, r.by),
        (Termination::QuickplayFlag, None, Some(Color::White))
    );
    // Or the flag fall stands: Black wins on time.
    let mut m = postponed();
    m.decide_after_flag(LOW + secs(100), false).unwrap();
    let r = m.result().unwrap();
    assert_eq!(
        (r.termination, r.winner),
        (Termination::Time, Some(Color::Black))
    );
}

#[test]
fn guideline_iii_6_without_an_arbiter_the_claim_ends_the_game_undecided() {
    let mut m = mirror_with(Config {
        unsupervised: true,
        ..config("15m", true)
    });
    // White to move; Black has the full 15 minutes: no claim for Black.
    assert!(matches!(
        quickplay_error(m.claim_quickplay(LOW, Color::Black, ClaimGrounds::CannotWin)),
        QuickplayError::TimeLeft { .. }
    ));
    let said = m
        .claim_quickplay(LOW, Color::White, ClaimGrounds::NoEffort)
        .unwrap();
    assert_eq!(
        events(&said),
        [QuickplayEvent::Referred {
            side: Color::White,
            grounds: ClaimGrounds::NoEffort
        }]
    );
    let r = m.result().unwrap();
    assert_eq!(r.termination, Termination::QuickplayReferred);
    assert!(r.pending());
    assert_eq!(r.outcome(), shakmaty::Outcome::Unknown);
    // PGN: no result yet.
    struct Notes;
    impl PgnNotes for Notes {
        fn record(&self, _: &GameEvent) -> String {
            String::new()
        }
        fn corrected(&self) -> String {
            String::new()
        }
    }
    let pgn = m.pgn(PgnSource::Board(Color::White), "", "", "", &Notes);
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
}

#[test]
fn guideline_iii_6_the_player_not_to_move_may_claim_too() {
    // III.6.1 names no "player having the move" (III.4 and III.5 do).
    // White thinks 13:30 over his first move: 1:30 left, Black to move.
    let claim = |unsupervised: bool| {
        let mut m = mirror_with(Config {
            unsupervised,
            ..config("15m", true)
        });
        white_moves(&mut m, LOW, "e4");
        assert_eq!(m.clock().running(), Some(Color::Black));
        let r = m.claim_quickplay(LOW + secs(5), Color::White, ClaimGrounds::CannotWin);
        (m, r)
    };
    let (m, r) = claim(true);
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(
        m.result().map(|r| r.termination),
        Some(Termination::QuickplayReferred)
    );
    // Under an arbiter (III.5) only the player having the move claims.
    let (_, r) = claim(false);
    assert_eq!(
        quickplay_error(r),
        QuickplayError::NotToMove {
            side: Color::White,
            mover: Color::Black
        }
    );
}

/// Every Guideline III command is a journal record, and replaying the
/// records gives the same game (clocks, increment, result).
#[test]
fn guideline_iii_commands_replay_exactly() {
    let vocab = Vocabulary::builtin("en").unwrap();
    let cfg = config("15m", true);
    let mut game = Game::new(vocab.clone(), cfg.clone(), Duration::ZERO);
    let white = Side::White;
    let steps = [
        (LOW, Command::RequestIncrement { side: white }),
        (
            LOW + secs(2),
            Command::AnswerDraw {
                side: Side::Black,
                accept: false,
            },
        ),
        (LOW + secs(9), Command::DecideIncrement { grant: false }),
        (
            LOW + secs(15),
            Command::ClaimQuickplay {
                side: white,
                grounds: ClaimGrounds::Both,
            },
        ),
        (LOW + secs(30), Command::PostponeClaim { two_minutes: true }),
        (LOW + secs(200), Command::Tick),
        (LOW + secs(210), Command::DecideAfterFlag { draw: true }),
    ];
    for (at, c) in steps {
        game.apply(at, c.clone(), None)
            .unwrap_or_else(|e| panic!("{c:?}: {e:?}"));
    }
    let records = game.take_records();
    assert_eq!(records.len(), 7);
    // The records survive the journal's JSON form.
    let json: Vec<String> = records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap())
        .collect();
    let back: Vec<crate::journal::Record> = json
        .iter()
        .map(|j| serde_json::from_str(j).unwrap())
        .collect();
    let replayed = Game::replay(vocab, cfg, &back).unwrap();
    let (a, b) = (game.mirror(), replayed.mirror());
    assert_eq!(a.result(), b.result());
    assert_eq!(
        a.result().map(|r| r.termination),
        Some(Termination::QuickplayFlag)
    );
    for c in [Color::White, Color::Black] {
        assert_eq!(
            a.clock().remaining(c, a.now()),
            b.clock().remaining(c, b.now())
        );
    }
    assert_eq!(a.arbiter_record(), b.arbiter_record());
}

#[test]
fn a_claim_after_the_flag_fell_is_too_late() {
    // White's 15 minutes ran out at 15:00, and nothing has looked at the
    // clock since: the claim at 15:01 finds the flag down.
    let mut m = rapid();
    assert_eq!(
        quickplay_error(m.claim_quickplay(secs(15 * 60 + 1), Color::White, ClaimGrounds::NoEffort)),
        QuickplayError::FlagFallen { side: Color::White }
    );
}

#[test]
fn the_script_lines_of_guideline_iii() {
    use crate::game::script::{Step, parse_line};
    let m = rapid();
    let p = |s: &str| parse_line(s, &m);
    let cmd = |c: Command| Ok(Step::Command(c));
    assert_eq!(
        p("request increment"),
        cmd(Command::RequestIncrement { side: Side::White })
    );
    assert_eq!(
        p("black claim no effort"),
        cmd(Command::ClaimQuickplay {
            side: Side::Black,
            grounds: ClaimGrounds::NoEffort
        })
    );
    assert_eq!(
        p("white claim cannot win and no effort"),
        cmd(Command::ClaimQuickplay {
            side: Side::White,
            grounds: ClaimGrounds::Both
        })
    );
    assert_eq!(
        p("claim cannot win"),
        cmd(Command::ClaimQuickplay {
            side: Side::White,
            grounds: ClaimGrounds::CannotWin
        })
    );
    // The threefold / fifty-move claim keeps its line.
    assert_eq!(
        p("claim"),
        cmd(Command::Claim {
            side: Side::White,
            text: None
        })
    );
    assert_eq!(p("claim loudly"), Err(MsgKey::PlayUnknownCommand));
    assert_eq!(
        p("arbiter: grant increment"),
        cmd(Command::DecideIncrement { grant: true })
    );
    assert_eq!(
        p("arbiter: refuse increment"),
        cmd(Command::DecideIncrement { grant: false })
    );
    assert_eq!(p("arbiter: agree"), cmd(Command::UpholdClaim));
    assert_eq!(p("arbiter: reject"), cmd(Command::RejectClaim));
    assert_eq!(
        p("arbiter: postpone"),
        cmd(Command::PostponeClaim { two_minutes: false })
    );
    assert_eq!(
        p("arbiter: postpone 2m"),
        cmd(Command::PostponeClaim { two_minutes: true })
    );
    assert_eq!(
        p("arbiter: postpone 1m"),
        Err(MsgKey::PlayQuickplayTwoMinutes)
    );
    assert_eq!(
        p("arbiter: decide draw"),
        cmd(Command::DecideAfterFlag { draw: true })
    );
    assert_eq!(
        p("arbiter: decide loss"),
        cmd(Command::DecideAfterFlag { draw: false })
    );
}
