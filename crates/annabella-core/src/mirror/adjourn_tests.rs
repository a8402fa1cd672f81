//! Unit tests of the adjournment (Guideline I), clause by clause.

use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color};

use super::*;
use crate::mirror::Config;
use crate::rules::Termination;
use crate::vocab::Vocabulary;

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn mins(m: u64) -> Duration {
    Duration::from_secs(m * 60)
}

/// A game in English words from `fen` (White or Black to move), 90
/// minutes plus 30 seconds a move.
fn game(fen: &str) -> Mirror {
    let start: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    // Practice: the sealer is warned of a faulty sealed move (in a
    // tournament game nothing is said before I.8 applies at the opening).
    let config = Config {
        start,
        control: "90m+30s".parse().unwrap(),
        practice: true,
        ..Config::default()
    };
    Mirror::new(Vocabulary::builtin("en").unwrap(), config, Duration::ZERO)
}

/// After 1. Nf3 d5 2. d4 Nc6: White to move; `Nd2` fits two knights.
const OPENING: &str = "r1bqkbnr/ppp1pppp/2n5/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3";
/// White mates with Ra8.
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30";
/// White has a rook, Black a bare king: Black cannot mate.
const BARE_KING: &str = "8/8/8/4k3/8/8/8/R3K3 w - - 0 40";

/// White seals `text` at 10 minutes and stops the clock at 11.
fn adjourned(fen: &str, text: &str) -> Mirror {
    let mut m = game(fen);
    m.seal(mins(10), &text.into(), "Monday 10:00, Hall B")
        .unwrap();
    m.close_envelope(mins(11)).unwrap();
    m
}

fn result(m: &Mirror) -> Option<(Termination, Option<Color>)> {
    m.result().map(|r| (r.termination, r.winner))
}

#[test]
fn i_1_1_a_tournament_game_gives_the_sealer_no_help_with_his_sealed_move() {
    let mut m = game(OPENING);
    m.config.practice = false;
    let said = m.seal(mins(10), &"Nd2".into(), "Monday").unwrap();
    assert_eq!(
        said,
        vec![GameEvent::SealWritten {
            side: Color::White,
            number: 3
        }]
    );
    // I.8 applies when the envelope is opened.
    m.close_envelope(mins(10)).unwrap();
    m.attend(mins(100), None, true).unwrap();
    m.open_seal(mins(100)).unwrap();
    assert_eq!(
        result(&m),
        Some((Termination::SealedMove, Some(Color::Black)))
    );
}

#[test]
fn i_1_1_the_sealed_move_may_be_changed_until_the_clock_is_stopped() {
    let mut m = game(OPENING);
    let said = m.seal(mins(10), &"Nd2".into(), "Monday").unwrap();
    assert_eq!(
        said,
        vec![
            GameEvent::SealWritten {
                side: Color::White,
                number: 3
            },
            GameEvent::SealFaulty {
                side: Color::White,
                fault: SealFault::Ambiguous
            }
        ]
    );
    assert!(m.is_sealing());
    // Nothing else may happen on the board meanwhile.
    assert_eq!(
        m.board_move(mins(10), Color::White, &"e4".into()),
        Err(GameError::Sealing(Color::White))
    );
    for (text, fault) in [
        ("Ke3", Some(SealFault::Illegal)),
        ("bla", Some(SealFault::Unclear)),
        ("Nbd2", None),
    ] {
        let said = m.seal(mins(10), &text.into(), "").unwrap();
        let found = said.iter().find_map(|e| match e {
            GameEvent::SealFaulty { fault, .. } => Some(*fault),
            _ => None,
        });
        assert_eq!(found, fault, "{text}");
    }
    // Sealing takes the sealer's time until he stops the clock.
    m.close_envelope(mins(12)).unwrap();
    let sealed = m.sealed().unwrap();
    assert_eq!(sealed.text, "Nbd2");
    assert_eq!(sealed.resumption, "Monday");
    assert_eq!(sealed.used, [mins(12), Duration::ZERO]);
    assert!(!m.is_sealing());
    assert_eq!(
        m.seal(mins(13), &"Nfd2".into(), ""),
        Err(GameError::Adjourned)
    );
}

#[test]
fn i_1_1_a_move_made_on_the_board_is_the_one_to_seal() {
    let mut m = game(OPENING);
    m.board_move(secs(5), Color::White, &"e4".into()).unwrap();
    assert!(matches!(
        m.seal(secs(6), &"Nbd2".into(), ""),
        Err(GameError::SealNotMade {
            side: Color::White,
            ..
        })
    ));
    m.seal(secs(6), &"e2e4".into(), "").unwrap();
    // Taken off the board: the envelope has the position before it.
    assert_eq!(m.board(Color::White).moves().len(), 0);
    assert_eq!(m.sealed().unwrap().fen, OPENING);
}

#[test]
fn i_2_the_envelope_holds_everything_and_a_current_draw_offer() {
    let mut m = game(OPENING);
    m.seal(mins(10), &"e4".into(), "22 Nov 10:00, Hall B")
        .unwrap();
    // The sealer offers a draw with his sealed move.
    m.adjourned_offer(mins(10), Color::White).unwrap();
    let said = m.close_envelope(mins(10)).unwrap();
    assert_eq!(
        said,
        vec![
            GameEvent::Sealed {
                side: Color::White,
                number: 3,
                used: [mins(10), Duration::ZERO],
                resumption: "22 Nov 10:00, Hall B".into(),
            },
            GameEvent::EnvelopeContents {
                names: [String::new(), String::new()],
                fen: OPENING.into(),
            },
            GameEvent::EnvelopeDrawOffer { side: Color::White }
        ]
    );
    let sealed = m.sealed().unwrap().clone();
    assert_eq!(sealed.fen, OPENING);
    assert_eq!(sealed.draw_offer, Some(Color::White));
    assert_eq!(sealed.by, Color::White);
    // The public part goes to the record (and the PGN), never the move.
    let recorded: Vec<&GameEvent> = m.arbiter_record().iter().map(|r| &r.event).collect();
    assert_eq!(recorded, said.iter().collect::<Vec<_>>());
    // Opening says the offer again: Black answers it now.
    m.attend(mins(100), None, true).unwrap();
    let said = m.open_seal(mins(100)).unwrap();
    assert!(said.contains(&GameEvent::EnvelopeDrawOffer { side: Color::White }));
    assert_eq!(m.draw_offer(), Some(Color::White));
}

#[test]
fn i_2_an_offer_the_sealer_left_unanswered_lapses_with_the_sealed_move() {
    let mut m = game(OPENING);
    m.offer_draw(secs(30), Color::Black).unwrap();
    m.seal(mins(10), &"e4".into(), "").unwrap();
    let said = m.close_envelope(mins(10)).unwrap();
    assert!(said.contains(&GameEvent::EnvelopeDrawOffer { side: Color::Black }));
    m.attend(mins(100), None, true).unwrap();
    let said = m.open_seal(mins(100)).unwrap();
    // Making the sealed move answers it (9.1.2.1).
    assert!(said.contains(&GameEvent::DrawOfferLapsed { side: Color::Black }));
    assert_eq!(m.draw_offer(), None);
}

#[test]
fn i_4_a_draw_offered_after_sealing_stands_until_answered() {
    let mut m = adjourned(OPENING, "e4");
    let said = m.adjourned_offer(mins(20), Color::Black).unwrap();
    assert!(said.contains(&GameEvent::DrawOfferStands { side: Color::Black }));
    m.attend(mins(100), None, true).unwrap();
    m.open_seal(mins(100)).unwrap();
    // The sealed move was played: the offer still stands.
    assert_eq!(m.draw_offer(), Some(Color::Black));
    m.board_move(mins(101), Color::Black, &"e4".into()).unwrap();
    assert_eq!(m.draw_offer(), Some(Color::Black));
    // Black moves on (his own offer stands); White accepts after both
    // have moved in this game (5.2.3).
    m.board_move(mins(102), Color::Black, &"e5".into()).unwrap();
    m.announce(mins(102), None).unwrap();
    m.press(mins(102)).unwrap();
    m.board_move(mins(102), Color::White, &"e5".into()).unwrap();
    m.answer_draw(mins(103), Color::White, true).unwrap();
    assert_eq!(result(&m), Some((Termination::Agreement, None)));
}

#[test]
fn i_6_a_draw_agreed_or_a_resignation_before_resumption_ends_the_game() {
    // After 1. e4 e5 (both have moved, 5.2.3), White seals Nf3.
    let mut m = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for (t, board, san) in [
        (1, Color::White, "e4"),
        (2, Color::Black, "e4"),
        (3, Color::Black, "e5"),
        (4, Color::White, "e5"),
    ] {
        m.board_move(secs(t), board, &san.into()).unwrap();
        if m.stage() != &Stage::Idle {
            m.announce(secs(t), None).unwrap();
            m.press(secs(t)).unwrap();
        }
    }
    m.seal(mins(10), &"Nf3".into(), "").unwrap();
    m.close_envelope(mins(10)).unwrap();
    m.adjourned_offer(mins(20), Color::Black).unwrap();
    assert_eq!(
        m.adjourned_answer(mins(21), Color::Black, true),
        Err(GameError::OwnDrawOffer(Color::Black))
    );
    m.adjourned_answer(mins(21), Color::White, false).unwrap();
    assert_eq!(m.draw_offer(), None);
    assert!(m.sealed().is_some());
    m.adjourned_offer(mins(22), Color::White).unwrap();
    m.adjourned_answer(mins(23), Color::Black, true).unwrap();
    assert_eq!(result(&m), Some((Termination::Agreement, None)));
    assert_eq!(
        m.open_seal(mins(30)),
        Err(GameError::GameOver(m.result().unwrap()))
    );

    let mut m = adjourned(OPENING, "e4");
    m.adjourned_resign(mins(20), Color::White).unwrap();
    assert_eq!(
        result(&m),
        Some((Termination::Resignation, Some(Color::Black)))
    );
}

#[test]
fn i_7_the_envelope_is_opened_only_with_the_responder_present() {
    let mut m = adjourned(OPENING, "e4");
    assert_eq!(
        m.open_seal(mins(100)),
        Err(GameError::OpponentAbsent(Color::Black))
    );
    m.attend(mins(100), Some(Color::White), true).unwrap();
    assert_eq!(
        m.open_seal(mins(100)),
        Err(GameError::OpponentAbsent(Color::Black))
    );
    m.set_default_time(mins(100), mins(60)).unwrap();
    m.attend(mins(100), Some(Color::Black), false).unwrap();
    assert_eq!(
        m.open_seal(mins(101)),
        Err(GameError::OpponentAbsent(Color::Black))
    );
    m.attend(mins(102), Some(Color::Black), true).unwrap();
    assert!(m.open_seal(mins(102)).is_ok());
}

#[test]
fn i_8_an_ambiguous_unclear_or_illegal_sealed_move_loses() {
    for (text, fault) in [
        ("Nd2", SealFault::Ambiguous),
        ("Qxx9", SealFault::Unclear),
        ("Ke3", SealFault::Illegal),
    ] {
        let mut m = adjourned(OPENING, text);
        m.attend(mins(100), None, true).unwrap();
        let said = m.open_seal(mins(100)).unwrap();
        assert_eq!(
            said[0],
            GameEvent::SealInvalid {
                side: Color::White,
                fault,
                text: text.into()
            },
            "{text}"
        );
        assert_eq!(
            result(&m),
            Some((Termination::SealedMove, Some(Color::Black))),
            "{text}"
        );
        assert!(m.board(Color::White).moves().is_empty());
    }
}

#[test]
fn i_8_is_a_draw_when_the_opponent_cannot_mate() {
    // Article 6.9's exception, which I.8 names.
    let mut m = adjourned(BARE_KING, "Ra9");
    m.attend(mins(100), None, true).unwrap();
    m.open_seal(mins(100)).unwrap();
    assert_eq!(result(&m), Some((Termination::SealedMove, None)));
}

#[test]
fn i_9_1_the_sealed_move_is_made_and_the_responders_clock_starts() {
    let mut m = adjourned(OPENING, "e4");
    m.attend(mins(100), None, true).unwrap();
    m.open_seal(mins(100)).unwrap();
    assert_eq!(m.board(Color::White).moves().len(), 1);
    assert_eq!(m.clock().running(), Some(Color::Black));
    // Time did not run while adjourned; the sealed move got its increment.
    assert_eq!(
        m.clock().remaining(Color::White, mins(105)),
        mins(90) - mins(11) + secs(30)
    );
    assert_eq!(
        m.clock().remaining(Color::Black, mins(105)),
        mins(90) - mins(5)
    );
}

#[test]
fn i_9_2_an_absent_responders_clock_runs_until_he_arrives() {
    let mut m = adjourned(OPENING, "e4");
    m.set_default_time(mins(100), mins(60)).unwrap();
    let said = m.attend(mins(100), Some(Color::Black), false).unwrap();
    assert_eq!(
        said,
        vec![GameEvent::PlayerAbsent {
            side: Color::Black,
            clock_started: true,
            default_time: mins(60)
        }]
    );
    assert_eq!(m.clock().running(), Some(Color::Black));
    let said = m.attend(mins(120), Some(Color::Black), true).unwrap();
    assert_eq!(
        said,
        vec![GameEvent::PlayerArrived {
            side: Color::Black,
            open: true
        }]
    );
    // He stopped his clock on arrival: 20 minutes lost.
    assert_eq!(m.clock().running(), None);
    assert_eq!(
        m.clock().remaining(Color::Black, mins(125)),
        mins(90) - mins(20)
    );
    m.open_seal(mins(125)).unwrap();
    assert_eq!(m.clock().running(), Some(Color::Black));
    assert_eq!(
        m.clock().remaining(Color::White, mins(130)),
        mins(90) - mins(11) + secs(30)
    );
}

#[test]
fn i_9_3_an_absent_sealers_clock_starts_when_the_reply_is_sealed() {
    let mut m = adjourned(OPENING, "e4");
    m.set_default_time(mins(100), mins(60)).unwrap();
    m.attend(mins(100), Some(Color::White), false).unwrap();
    m.attend(mins(100), Some(Color::Black), true).unwrap();
    // No clock runs for the absent sealer yet.
    assert_eq!(m.clock().running(), None);
    m.open_seal(mins(101)).unwrap();
    m.board_move(mins(101), Color::Black, &"e4".into()).unwrap();
    m.seal(mins(104), &"e5".into(), "").unwrap();
    let said = m.close_envelope(mins(105)).unwrap();
    assert!(said.contains(&GameEvent::AbsentClockStarted { side: Color::White }));
    assert_eq!(m.clock().running(), Some(Color::White));
    assert_eq!(m.sealed().unwrap().by, Color::Black);
    // The fresh envelope is opened when White arrives.
    let said = m.attend(mins(115), Some(Color::White), true).unwrap();
    assert_eq!(
        said,
        vec![GameEvent::PlayerArrived {
            side: Color::White,
            open: true
        }]
    );
    m.open_seal(mins(116)).unwrap();
    m.board_move(mins(116), Color::White, &"e5".into()).unwrap();
    assert_eq!(m.board(Color::White).moves(), m.board(Color::Black).moves());
    assert_eq!(m.clock().running(), Some(Color::White));
    // White's absence cost him 10 minutes; Black took 4 for his reply.
    assert_eq!(
        m.clock().remaining(Color::White, mins(116)),
        mins(90) - mins(11) + secs(30) - mins(10)
    );
    assert_eq!(
        m.clock().remaining(Color::Black, mins(116)),
        mins(90) - mins(4) + secs(30)
    );
}

#[test]
fn i_10_a_player_absent_after_the_default_time_loses() {
    let mut m = adjourned(OPENING, "e4");
    m.set_default_time(mins(100), mins(30)).unwrap();
    m.attend(mins(100), Some(Color::Black), false).unwrap();
    assert_eq!(m.absence_due(mins(130)), None);
    assert_eq!(m.absence_due(mins(130) + secs(1)), Some(Color::Black));
    // Arriving late loses.
    let said = m.attend(mins(131), Some(Color::Black), true).unwrap();
    assert_eq!(result(&m), Some((Termination::Absence, Some(Color::White))));
    assert_eq!(said, vec![GameEvent::GameOver(m.result().unwrap())]);
}

#[test]
fn i_10_zero_default_time_any_later_arrival_loses() {
    let mut m = adjourned(OPENING, "e4");
    m.attend(mins(100), Some(Color::White), false).unwrap();
    m.tick(mins(100) + Duration::from_millis(1)).unwrap();
    assert_eq!(result(&m), Some((Termination::Absence, Some(Color::Black))));
}

#[test]
fn i_10_a_sealed_move_that_ends_the_game_stands() {
    // The sealer is absent, but his sealed move mates.
    let mut m = adjourned(MATE_IN_ONE, "Ra8");
    m.attend(mins(100), Some(Color::White), false).unwrap();
    m.attend(mins(100), Some(Color::Black), true).unwrap();
    let said = m.tick(mins(101)).unwrap();
    assert_eq!(
        result(&m),
        Some((Termination::Checkmate, Some(Color::White)))
    );
    assert!(matches!(said[0], GameEvent::SealOpened { .. }));
    assert_eq!(m.board(Color::Black).moves().len(), 1);
}

#[test]
fn i_10_unless_the_arbiter_decides_otherwise() {
    let mut m = adjourned(OPENING, "e4");
    m.attend(mins(100), Some(Color::Black), false).unwrap();
    m.excuse(mins(100), Color::Black).unwrap();
    m.tick(mins(150)).unwrap();
    assert_eq!(m.result(), None);
    m.attend(mins(150), Some(Color::Black), true).unwrap();
    m.open_seal(mins(150)).unwrap();
    // I.11: he still lost the time he was away.
    assert_eq!(
        m.clock().remaining(Color::Black, mins(150)),
        mins(90) - mins(50)
    );
}

#[test]
fn i_10_both_absent_is_left_to_the_arbiter() {
    let mut m = adjourned(OPENING, "e4");
    m.attend(mins(100), Some(Color::White), false).unwrap();
    m.attend(mins(100), Some(Color::Black), false).unwrap();
    m.tick(mins(110)).unwrap();
    assert_eq!(m.result(), None);
}

#[test]
fn i_13_times_are_corrected_before_the_resumption() {
    let mut m = adjourned(OPENING, "e4");
    m.arbiter_set(mins(100), Color::White, mins(70)).unwrap();
    assert_eq!(m.clock().remaining(Color::White, mins(100)), mins(70));
    m.attend(mins(100), None, true).unwrap();
    m.open_seal(mins(100)).unwrap();
    assert_eq!(
        m.clock().remaining(Color::White, mins(100)),
        mins(70) + secs(30)
    );
}

#[test]
fn attendance_needs_an_adjourned_game() {
    let mut m = game(OPENING);
    assert_eq!(
        m.attend(secs(1), Some(Color::White), false),
        Err(GameError::NotAdjourned)
    );
    m.seal(secs(2), &"e4".into(), "").unwrap();
    assert_eq!(
        m.attend(secs(3), None, true),
        Err(GameError::Sealing(Color::White))
    );
    assert_eq!(m.open_seal(secs(3)), Err(GameError::Sealing(Color::White)));
}

#[test]
fn a_journal_written_before_attendance_had_sides_still_replays() {
    use crate::game::{Command, Side};
    let old: Command = serde_json::from_str(r#"{"kind":"present"}"#).unwrap();
    assert_eq!(old, Command::Present { side: None });
    let new = Command::Present {
        side: Some(Side::Black),
    };
    let text = serde_json::to_string(&new).unwrap();
    assert_eq!(text, r#"{"kind":"present","side":"black"}"#);
    assert_eq!(serde_json::from_str::<Command>(&text).unwrap(), new);
}

#[test]
fn i_9_3_an_excused_sealer_arrives_after_the_sealed_move_was_played() {
    let mut m = adjourned(OPENING, "e4");
    m.attend(mins(100), Some(Color::White), false).unwrap();
    m.excuse(mins(100), Color::White).unwrap();
    m.attend(mins(100), None, true).unwrap();
    m.open_seal(mins(100)).unwrap();
    m.board_move(mins(100), Color::Black, &"e4".into()).unwrap();
    // No envelope any more: the arrival is still recorded.
    let said = m.attend(mins(120), None, true).unwrap();
    assert_eq!(
        said,
        vec![GameEvent::PlayerArrived {
            side: Color::White,
            open: false
        }]
    );
    assert_eq!(
        m.attend(mins(121), None, true),
        Err(GameError::NotAdjourned)
    );
}

#[test]
fn a_default_by_absence_is_recorded_and_replays_exactly() {
    use crate::game::{Command, Game, Side};
    let start: Chess = OPENING
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let config = Config {
        start,
        control: "90m+30s".parse().unwrap(),
        ..Config::default()
    };
    let vocab = Vocabulary::builtin("en").unwrap();
    let mut g = Game::new(vocab.clone(), config.clone(), Duration::ZERO);
    for (t, c) in [
        (
            mins(10),
            Command::Seal {
                text: "e4".into(),
                resumption: String::new(),
            },
        ),
        (mins(11), Command::Press),
        (mins(100), Command::DefaultTime { ms: 600_000 }),
        (mins(100), Command::Absent { side: Side::Black }),
    ] {
        g.apply(t, c, None).unwrap();
    }
    // The front end's tick: nothing due within the default time, then the
    // absent player loses, recorded as a tick.
    assert!(g.tick(mins(110)).is_empty());
    let said = g.tick(mins(110) + secs(1));
    let r = g.mirror().result().unwrap();
    assert_eq!(said, vec![GameEvent::GameOver(r)]);
    assert_eq!(r.termination, Termination::Absence);
    let records = g.take_records();
    assert_eq!(records.last().map(|r| &r.event), Some(&Command::Tick));
    let replayed = Game::replay(vocab, config, &records).unwrap();
    assert_eq!(replayed.mirror().result(), Some(r));
    assert_eq!(
        replayed.mirror().clock().remaining(Color::Black, mins(200)),
        g.mirror().clock().remaining(Color::Black, mins(200))
    );
}
