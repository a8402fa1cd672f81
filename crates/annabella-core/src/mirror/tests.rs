use std::time::Duration;

use shakmaty::{Chess, Color, Move, san::San};

use super::*;
use crate::rules::Termination;

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// A mirror with the Appendix D words and the base locale's (English)
/// messages: the assertions below read English sentences. (The built-in
/// fide locale speaks German, see locales/fide.toml; this is how a user's
/// locale file with `fallback = "en"` would look.)
fn mirror() -> Mirror {
    let (_, text) = crate::locale::BUILTIN
        .iter()
        .find(|(code, _)| *code == "fide")
        .unwrap();
    let mut words = crate::locale::Locale::from_toml("fide.toml", text).unwrap();
    words.fallback = Some(crate::locale::BASE_LOCALE.to_owned());
    crate::locale::complete(&mut words).unwrap();
    Mirror::new(Vocabulary::new(words), Config::default(), Duration::ZERO)
}

fn mv(pos: &Chess, san: &str) -> Move {
    San::from_ascii(san.as_bytes())
        .unwrap()
        .to_move(pos)
        .unwrap()
}

/// What the events say, in the words of the `play` script.
fn text_of(m: &Mirror, said: &Said) -> String {
    let verbs = crate::game::script::ScriptVerbs;
    let words = crate::game::words::Wording::of(m, &verbs);
    said.iter()
        .map(|e| words.event(e).display)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A refusal in the words of the `play` script.
fn error_text(m: &Mirror, e: &GameError) -> String {
    let verbs = crate::game::script::ScriptVerbs;
    crate::game::words::Wording::of(m, &verbs).error(e).display
}

/// Plays one move through all stages, with both scoresheets.
fn full_move(m: &mut Mirror, t: &mut u64, san: &str) {
    let mover = m.mover();
    *t += 5;
    m.board_move(secs(*t), mover, &san.into()).unwrap();
    m.announce(secs(*t), None).unwrap();
    m.press(secs(*t)).unwrap();
    m.board_move(secs(*t), !mover, &san.into()).unwrap();
    m.sheet_entry(secs(*t), Color::White, &san.into()).unwrap();
    m.sheet_entry(secs(*t), Color::Black, &san.into()).unwrap();
    assert_eq!(m.mismatch(), None, "after {san}");
}

#[test]
fn a_move_goes_through_every_stage() {
    let mut m = mirror();
    let pos = Chess::default();
    let said = m.board_move(secs(3), Color::White, &"Nf3".into()).unwrap();
    assert!(
        text_of(&m, &said).contains("Springer Gustav eins Felix drei"),
        "{}",
        text_of(&m, &said)
    );
    assert!(matches!(m.stage(), Stage::Made { .. }));
    assert_eq!(m.press(secs(3)), Err(GameError::NotAnnounced(Color::White)));
    let said = m.announce(secs(4), None).unwrap();
    assert_eq!(
        text_of(&m, &said),
        "1. Weiß: Springer Gustav eins Felix drei"
            .replace("Weiß", &m.vocab().side(Color::White).display)
    );
    assert_eq!(
        m.board_move(secs(4), Color::Black, &"Nf3".into()),
        Err(GameError::NotPressed(Color::White))
    );
    let said = m.press(secs(10)).unwrap();
    assert!(
        text_of(&m, &said).contains("1:30:20 left"),
        "{}",
        text_of(&m, &said)
    );
    assert_eq!(
        m.board_move(secs(10), Color::White, &"e4".into()),
        Err(GameError::AwaitExecution {
            board: Color::Black,
            mv: mv(&pos, "Nf3"),
            before: Box::new(pos.clone()),
        })
    );
    m.repeat(secs(11), None).unwrap();
    let said = m
        .board_move(
            secs(12),
            Color::Black,
            &"Springer Gustav eins Felix drei".into(),
        )
        .unwrap();
    assert!(
        text_of(&m, &said).contains("both boards agree"),
        "{}",
        text_of(&m, &said)
    );
    assert_eq!(m.stage(), &Stage::Idle);
    assert_eq!(m.mover(), Color::Black);
    assert_eq!(m.board(Color::White).moves(), m.board(Color::Black).moves());
    // Black's clock runs from 10 s.
    assert_eq!(
        m.clock().remaining(Color::Black, secs(20)),
        secs(90 * 60 - 10)
    );
    assert_eq!(
        m.board_move(secs(20), Color::White, &"e4".into()),
        Err(GameError::NotYourTurn {
            board: Color::White,
            mover: Color::Black
        })
    );
    assert_eq!(
        m.announce(secs(20), None),
        Err(GameError::NoMove(Color::Black))
    );
    assert_eq!(
        m.tick(secs(5)),
        Err(GameError::TimeWentBackwards { latest: secs(12) })
    );
}

#[test]
fn slip_of_the_tongue_is_corrected_before_the_press() {
    let mut m = mirror();
    m.board_move(secs(1), Color::White, &"Nf3".into()).unwrap();
    let said = m
        .announce(secs(2), Some(&"Springer Hector drei".into()))
        .unwrap();
    assert!(said[0].is_warning());
    assert!(
        text_of(&m, &said).contains("Slip of the tongue"),
        "{}",
        text_of(&m, &said)
    );
    assert!(matches!(
        m.press(secs(3)),
        Err(GameError::SlipUncorrected { .. })
    ));
    let said = m
        .announce(secs(3), Some(&"Springer Felix drei".into()))
        .unwrap();
    assert!(
        text_of(&m, &said).starts_with("Corrected"),
        "{}",
        text_of(&m, &said)
    );
    m.press(secs(4)).unwrap();
    assert_eq!(
        m.announce(secs(4), None),
        Err(GameError::TooLate(Color::White))
    );
}

#[test]
fn wrong_execution_is_flagged_in_words_and_corrected_from_the_sheets() {
    let mut m = mirror();
    let mut t = 0;
    full_move(&mut m, &mut t, "e4");
    full_move(&mut m, &mut t, "e5");
    m.board_move(secs(20), Color::White, &"Nf3".into()).unwrap();
    m.announce(secs(20), None).unwrap();
    m.press(secs(21)).unwrap();
    let said = m.board_move(secs(22), Color::Black, &"Nh3".into()).unwrap();
    let s = text_of(&m, &said);
    assert!(
        s.contains("Board of Black: Springer Gustav eins Hector drei; board of White: Springer Gustav eins Felix drei"),
        "{s}"
    );
    assert!(s.contains("move 2 of White"), "{s}");
    assert_eq!(
        m.mismatch(),
        Some(&Mismatch::Boards {
            ply: 2,
            white: Some(m.board(Color::White).moves()[2]),
            black: Some(m.board(Color::Black).moves()[2]),
        })
    );
    assert_eq!(
        m.board_move(secs(23), Color::Black, &"Nc6".into()),
        Err(GameError::BoardsDiffer)
    );
    m.sheet_entry(secs(24), Color::White, &"Nf3".into())
        .unwrap();
    m.sheet_entry(secs(24), Color::Black, &"Nf3".into())
        .unwrap();
    let (kind, said) = m.arbiter_correct(secs(30)).unwrap();
    assert_eq!(kind, Correction::Boards, "{}", text_of(&m, &said));
    assert!(
        text_of(&m, &said).contains("the board of Black set to the scoresheets"),
        "{}",
        text_of(&m, &said)
    );
    assert_eq!(m.board(Color::Black).moves(), m.board(Color::White).moves());
    assert_eq!(
        m.board(Color::White).moves(),
        m.sheet(Color::White).valid_moves().as_slice()
    );
    assert_eq!(m.mismatch(), None);
    assert_eq!(m.arbiter_record().len(), 1);
    assert_eq!(m.mover(), Color::Black);
    assert_eq!(m.clock().to_move(), Some(Color::Black));
    t = 40;
    full_move(&mut m, &mut t, "Nc6");
}

#[test]
fn differing_sheets_retrace_both_boards() {
    let mut m = mirror();
    let mut t = 0;
    full_move(&mut m, &mut t, "e4");
    full_move(&mut m, &mut t, "e5");
    m.board_move(secs(20), Color::White, &"Nf3".into()).unwrap();
    m.announce(secs(20), None).unwrap();
    m.press(secs(21)).unwrap();
    m.board_move(secs(22), Color::Black, &"Nh3".into()).unwrap();
    m.sheet_entry(secs(24), Color::White, &"Nf3".into())
        .unwrap();
    let said = m
        .sheet_entry(secs(24), Color::Black, &"Nh3".into())
        .unwrap();
    assert!(m.mismatch().is_some(), "{}", text_of(&m, &said));
    let (kind, said) = m.arbiter_correct(secs(30)).unwrap();
    assert_eq!(kind, Correction::Retraced(2), "{}", text_of(&m, &said));
    assert!(
        // Two half-moves kept: up to Black's first move (not "2 moves").
        text_of(&m, &said).contains("up to move 1 of Black"),
        "{}",
        text_of(&m, &said)
    );
    assert_eq!(m.board(Color::White).moves().len(), 2);
    assert_eq!(m.board(Color::Black).moves(), m.board(Color::White).moves());
    assert_eq!(m.sheet(Color::Black).entries().len(), 2);
    assert_eq!(m.mover(), Color::White);
    assert_eq!(m.clock().to_move(), Some(Color::White));
    // The arbiter adjusts the clocks explicitly.
    let before = m.clock().remaining(Color::White, secs(31));
    m.arbiter_adjust(secs(31), Color::White, secs(60), true)
        .unwrap();
    assert_eq!(
        m.clock().remaining(Color::White, secs(31)),
        before + secs(60)
    );
    assert_eq!(m.arbiter_record().len(), 2);
    t = 40;
    full_move(&mut m, &mut t, "Nf3");
}

#[test]
fn a_missed_move_is_detected_and_corrected() {
    let mut m = mirror();
    let mut t = 0;
    full_move(&mut m, &mut t, "e4");
    m.board_move(secs(20), Color::Black, &"e5".into()).unwrap();
    m.announce(secs(20), None).unwrap();
    m.press(secs(21)).unwrap();
    // White forgets e5 and makes Nf3 on his board.
    let err = m
        .board_move(secs(22), Color::White, &"Nf3".into())
        .unwrap_err();
    assert!(
        matches!(
            err,
            GameError::MissedMove {
                board: Color::White,
                ..
            }
        ),
        "{err:?}"
    );
    let s = error_text(&m, &err);
    assert!(
        s.contains("does not show move 1 of Black, Bauer Eva sieben Eva fuenf"),
        "{s}"
    );
    let (_, said) = m.arbiter_correct(secs(23)).unwrap();
    assert_eq!(
        m.board(Color::White).moves(),
        m.board(Color::Black).moves(),
        "{}",
        text_of(&m, &said)
    );
    assert_eq!(m.mover(), Color::White);
}

#[test]
fn a_wrong_scoresheet_entry_is_flagged_and_corrected_to_the_boards() {
    let mut m = mirror();
    let mut t = 0;
    full_move(&mut m, &mut t, "e4");
    m.board_move(secs(20), Color::Black, &"e5".into()).unwrap();
    m.announce(secs(20), None).unwrap();
    m.press(secs(21)).unwrap();
    m.board_move(secs(22), Color::White, &"e5".into()).unwrap();
    m.sheet_entry(secs(22), Color::White, &"e5".into()).unwrap();
    let said = m.sheet_entry(secs(22), Color::Black, &"e6".into()).unwrap();
    assert!(
        text_of(&m, &said).contains("scoresheets differ at move 1 of Black"),
        "{}",
        text_of(&m, &said)
    );
    let said = m
        .sheet_entry(secs(22), Color::Black, &"Nf9".into())
        .unwrap();
    // Still the first mismatch (not repeated).
    assert!(
        !text_of(&m, &said).contains("differ"),
        "{}",
        text_of(&m, &said)
    );
    let (kind, said) = m.arbiter_correct(secs(23)).unwrap();
    assert_eq!(kind, Correction::Sheets);
    assert!(
        text_of(&m, &said).contains("e6 corrected to e5"),
        "{}",
        text_of(&m, &said)
    );
    assert_eq!(m.sheet(Color::Black).entries()[1].text, "e5");
    assert!(m.sheet(Color::Black).entries()[1].corrected);
    // The entry after it is still not a legal move, and stays flagged.
    assert!(matches!(
        m.mismatch(),
        Some(Mismatch::SheetInvalid {
            color: Color::Black,
            ply: 2
        })
    ));
}

#[test]
fn illegal_moves_are_counted_and_penalised() {
    let mut m = mirror();
    // A tournament game: nothing about the move's legality before the
    // press (11.3).
    let said = m.board_move(secs(1), Color::White, &"e5".into()).unwrap();
    assert!(!said.iter().any(GameEvent::is_warning), "{said:?}");
    assert!(matches!(said[0], GameEvent::MadeAsGiven { .. }));
    m.announce(secs(2), None).unwrap();
    let said = m.press(secs(3)).unwrap();
    assert!(
        text_of(&m, &said).contains("Black receives 2 minutes more"),
        "{}",
        text_of(&m, &said)
    );
    assert_eq!(m.clock().remaining(Color::Black, secs(3)), secs(92 * 60));
    assert_eq!(m.mover(), Color::White);
    assert_eq!(m.board(Color::White).moves().len(), 0);
    // Taking an illegal move back before the press costs nothing.
    m.board_move(secs(4), Color::White, &"Ke2".into()).unwrap();
    m.take_back(secs(5)).unwrap();
    m.board_move(secs(6), Color::White, &"Qh5".into()).unwrap();
    m.announce(secs(7), None).unwrap();
    m.press(secs(8)).unwrap();
    assert_eq!(
        m.result().map(|r| (r.termination, r.winner)),
        Some((Termination::IllegalMoves, Some(Color::Black)))
    );
    assert!(matches!(m.press(secs(9)), Err(GameError::GameOver(_))));
}

#[test]
fn adjournment_seals_and_opens_only_with_the_opponent_present() {
    let mut m = mirror();
    let mut t = 0;
    full_move(&mut m, &mut t, "e4");
    m.offer_draw(secs(30), Color::White).unwrap();
    let mut said = m
        .seal(secs(40), &"Nc6".into(), "2026-11-22 10:00, Hall B")
        .unwrap();
    said.extend(m.close_envelope(secs(40)).unwrap());
    // The envelope names the pieces of the position before the sealed
    // move (the knight on b8 among them), never the move's destination.
    assert!(
        !text_of(&m, &said).contains("Cesar sechs"),
        "the sealed move stays secret: {}",
        text_of(&m, &said)
    );
    assert!(
        text_of(&m, &said).contains("Springer Bella acht"),
        "{}",
        text_of(&m, &said)
    );
    let sealed = m.sealed().unwrap().clone();
    assert_eq!(sealed.by, Color::Black);
    assert_eq!(sealed.number, 1);
    assert_eq!(sealed.used, [secs(5), secs(35)]);
    assert_eq!(sealed.draw_offer, Some(Color::White));
    assert_eq!(
        sealed.fen,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(
        m.board_move(secs(50), Color::Black, &"Nc6".into()),
        Err(GameError::Adjourned)
    );
    // Time does not run while adjourned.
    assert_eq!(
        m.open_seal(secs(1000)),
        Err(GameError::OpponentAbsent(Color::White))
    );
    m.attend(secs(1000), None, true).unwrap();
    let said = m.open_seal(secs(1000)).unwrap();
    assert!(
        text_of(&m, &said).contains("Springer Bella acht Cesar sechs"),
        "{}",
        text_of(&m, &said)
    );
    assert_eq!(m.clock().used(Color::Black, secs(1000)), secs(35));
    m.board_move(secs(1001), Color::White, &"Nc6".into())
        .unwrap();
    assert_eq!(m.board(Color::White).moves(), m.board(Color::Black).moves());
}

#[test]
fn pgn_has_tags_clocks_offers_and_corrections() {
    let mut m = mirror();
    let mut t = 0;
    full_move(&mut m, &mut t, "e4");
    m.board_move(secs(20), Color::Black, &"e5".into()).unwrap();
    m.offer_draw(secs(20), Color::Black).unwrap();
    m.announce(secs(20), None).unwrap();
    m.press(secs(21)).unwrap();
    m.board_move(secs(22), Color::White, &"e5".into()).unwrap();
    m.answer_draw(secs(22), Color::White, false).unwrap();
    m.arbiter_adjust(secs(23), Color::White, secs(120), true)
        .unwrap();
    let verbs = crate::game::script::ScriptVerbs;
    let notes = crate::game::words::Wording::of(&m, &verbs);
    let pgn = m.pgn(
        PgnSource::Board(Color::White),
        "Test",
        "Here",
        "2026.11.21",
        &notes,
    );
    assert!(
        pgn.contains("[TimeControl \"40/5400+30:1800+30\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(pgn.contains("1. e4 {[%clk 1:30:25]} e5"), "{pgn}");
    assert!(pgn.contains("{(=) [%clk 1:30:14]"), "{pgn}");
    assert!(pgn.contains("Arbiter: White receives 2 minutes"), "{pgn}");
    let games = crate::pgn::read_games(pgn.as_bytes()).unwrap();
    assert_eq!(games[0].replay().unwrap().moves.len(), 2);
}

#[test]
fn flag_fall_ends_the_game() {
    let vocab = Vocabulary::builtin("en").unwrap();
    let config = Config {
        control: "1m".parse().unwrap(),
        ..Config::default()
    };
    let mut m = Mirror::new(vocab, config, Duration::ZERO);
    let said = m.tick(secs(61)).unwrap();
    assert!(
        text_of(&m, &said).contains("flag"),
        "{}",
        text_of(&m, &said)
    );
    assert_eq!(m.result().map(|r| r.termination), Some(Termination::Time));
}

#[test]
fn the_move_under_way_keeps_its_number_until_the_press() {
    let mut m = mirror();
    let mut t = 0;
    assert_eq!(m.move_under_way(), (Color::White, 1));
    full_move(&mut m, &mut t, "e4");
    assert_eq!(m.move_under_way(), (Color::Black, 1));
    // Black's move made and announced on his board, not yet pressed: still
    // Black's first move (his board already reads move 2).
    m.board_move(secs(20), Color::Black, &"e5".into()).unwrap();
    assert_eq!(m.board(Color::Black).position().fullmoves().get(), 2);
    assert_eq!(m.move_under_way(), (Color::Black, 1));
    m.announce(secs(21), None).unwrap();
    assert_eq!(m.move_under_way(), (Color::Black, 1));
    // Pressed: White's second move is under way (White's clock runs).
    m.press(secs(22)).unwrap();
    assert_eq!(m.move_under_way(), (Color::White, 2));
    m.board_move(secs(23), Color::White, &"e5".into()).unwrap();
    assert_eq!(m.move_under_way(), (Color::White, 2));
    // An illegal move leaves the board as it was: the same move is under way.
    m.board_move(secs(30), Color::White, &"Ke3".into()).ok();
    assert_eq!(m.move_under_way(), (Color::White, 2));
}

/// A mirror as [`mirror`] from `fen`, with `change` applied to its
/// configuration.
fn mirror_from(fen: &str, change: impl FnOnce(&mut Config)) -> Mirror {
    let base = mirror();
    let mut config = Config {
        start: fen
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap(),
        ..Config::default()
    };
    change(&mut config);
    Mirror::new(base.vocab().clone(), config, Duration::ZERO)
}

#[test]
fn a_claim_rests_on_the_move_written_and_not_made() {
    let mut m = mirror();
    let mut t = 0;
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
        full_move(&mut m, &mut t, san);
    }
    // Black writes Ng8 with the claim (9.2.1.1): the start position for
    // the third time.
    let said = m
        .claim_draw(secs(100), Color::Black, Some(&"Ng8".into()))
        .unwrap();
    assert!(
        said.iter().any(|e| matches!(
            e,
            GameEvent::SheetRecorded {
                sheet: Color::Black,
                ..
            }
        )),
        "{said:?}"
    );
    let r = m.result().unwrap();
    assert_eq!(r.termination, Termination::ThreefoldRepetition);
    // The written move is on both boards.
    assert_eq!(m.board(Color::White).moves().len(), 8);
    assert_eq!(m.board(Color::Black).moves().len(), 8);
    assert_eq!(m.mismatch(), None);
}

#[test]
fn an_incorrect_claim_on_a_written_move_binds_the_claimant_to_it() {
    let mut m = mirror();
    let mut t = 0;
    full_move(&mut m, &mut t, "e4");
    m.sheet_entry(secs(20), Color::Black, &"Nc6".into())
        .unwrap();
    let said = m.claim_draw(secs(20), Color::Black, None).unwrap();
    assert!(
        said.iter().any(|e| matches!(
            e,
            GameEvent::ClaimMoveToMake {
                side: Color::Black,
                ..
            }
        )),
        "{said:?}"
    );
    assert!(matches!(
        m.board_move(secs(21), Color::Black, &"Nf6".into()),
        Err(GameError::ClaimMoveRequired { .. })
    ));
    m.board_move(secs(21), Color::Black, &"Nc6".into()).unwrap();
    m.announce(secs(21), None).unwrap();
    m.press(secs(22)).unwrap();
    // Completed: the next move is free again.
    m.board_move(secs(22), Color::White, &"Nc6".into()).unwrap();
    m.board_move(secs(23), Color::White, &"d4".into()).unwrap();
}

#[test]
fn the_sighted_players_mate_ends_the_game_on_his_board() {
    let fen = "7k/8/6K1/5Q2/8/8/8/8 w - - 0 1";
    let mut m = mirror_from(fen, |c| c.sighted = Some(Color::White));
    let said = m.board_move(secs(1), Color::White, &"Qf8".into()).unwrap();
    assert!(said.iter().any(|e| matches!(e, GameEvent::GameOver(_))));
    // Complete when made: nothing left to announce or press.
    assert!(
        said.iter().any(|e| matches!(
            e,
            GameEvent::MadeFinal {
                side: Color::White,
                ..
            }
        )) && !said.iter().any(|e| matches!(e, GameEvent::Made { .. })),
        "{said:?}"
    );
    assert_eq!(
        m.result().map(|r| r.termination),
        Some(Termination::Checkmate)
    );
    // The visually impaired opponent still makes it on his board.
    m.board_move(secs(2), Color::Black, &"Qf8".into()).unwrap();
    assert_eq!(m.mismatch(), None);
    // Not for a visually impaired mover: announced first (D.2.3).
    let mut m = mirror_from(fen, |c| c.sighted = Some(Color::Black));
    m.board_move(secs(1), Color::White, &"Qf8".into()).unwrap();
    assert!(m.result().is_none());
    // The sighted player's released piece stays (4.7).
    let mut m = mirror_from(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        |c| c.sighted = Some(Color::White),
    );
    m.board_move(secs(1), Color::White, &"e4".into()).unwrap();
    assert_eq!(
        m.take_back(secs(2)),
        Err(GameError::MoveStands(Color::White))
    );
}

#[test]
fn a_game_from_a_finished_position_is_over_before_it_begins() {
    let mut m = mirror_from("k7/8/1QK5/8/8/8/8/8 b - - 0 1", |_| {});
    assert_eq!(
        m.result().map(|r| r.termination),
        Some(Termination::Stalemate)
    );
    assert!(m.clock().is_paused());
    assert!(matches!(m.press(secs(5)), Err(GameError::GameOver(_))));
    assert!(matches!(
        m.resign(secs(5), Color::Black),
        Err(GameError::GameOver(_))
    ));
    // No flag falls on a clock that stands.
    m.tick(secs(10_000)).unwrap();
    assert_eq!(
        m.result().map(|r| r.termination),
        Some(Termination::Stalemate)
    );
}

#[test]
fn the_move_replacing_an_illegal_one_is_under_touch_move() {
    let mut m = mirror();
    m.board_move(secs(1), Color::White, &"e2e5".into()).unwrap();
    m.announce(secs(1), None).unwrap();
    m.press(secs(2)).unwrap();
    let said = m.board_move(secs(3), Color::White, &"d4".into()).unwrap();
    assert!(
        said.iter().any(|e| matches!(
            e,
            GameEvent::TouchNotHonoured {
                side: Color::White,
                square: shakmaty::Square::E2
            }
        )),
        "{said:?}"
    );
}

#[test]
fn without_an_arbiter_an_illegal_move_not_claimed_stands() {
    let mut m = mirror_from(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        |c| {
            c.control = "5m".parse().unwrap();
            c.unsupervised = true;
        },
    );
    m.board_move(secs(1), Color::White, &"e2e5".into()).unwrap();
    m.announce(secs(1), None).unwrap();
    let said = m.press(secs(2)).unwrap();
    assert!(
        said.iter().any(|e| matches!(
            e,
            GameEvent::WinClaimable {
                side: Color::Black,
                stands: true
            }
        )),
        "{said:?}"
    );
    assert_eq!(m.win_claimable_by(), Some(Color::Black));
    // Black makes it on his board, and plays on: the claim is gone.
    m.board_move(secs(3), Color::Black, &"e2e5".into()).unwrap();
    m.sheet_entry(secs(3), Color::White, &"e2e5".into())
        .unwrap();
    m.sheet_entry(secs(3), Color::Black, &"e2e5".into())
        .unwrap();
    assert_eq!(m.mismatch(), None);
    m.board_move(secs(4), Color::Black, &"d5".into()).unwrap();
    assert_eq!(m.win_claimable_by(), None);
    m.announce(secs(4), None).unwrap();
    m.press(secs(5)).unwrap();
    m.board_move(secs(5), Color::White, &"d5".into()).unwrap();
    // The pawn on e5 takes en passant.
    m.board_move(secs(6), Color::White, &"exd6".into()).unwrap();
    assert!(matches!(m.stage(), Stage::Made { mv: Some(_), .. }));
}

#[test]
fn boards_that_differ_stop_the_clocks_until_the_correction() {
    let mut m = mirror();
    m.board_move(secs(1), Color::White, &"e4".into()).unwrap();
    m.announce(secs(1), None).unwrap();
    m.press(secs(2)).unwrap();
    m.board_move(secs(3), Color::Black, &"d4".into()).unwrap();
    assert!(m.clock().is_paused());
    let black = m.clock().remaining(Color::Black, secs(3));
    assert_eq!(m.clock().remaining(Color::Black, secs(60)), black);
    m.sheet_entry(secs(60), Color::White, &"e4".into()).unwrap();
    m.sheet_entry(secs(60), Color::Black, &"e4".into()).unwrap();
    let (_, said) = m.arbiter_correct(secs(60)).unwrap();
    assert!(
        said.iter()
            .any(|e| matches!(e, GameEvent::ClockResumed { side: Color::Black })),
        "{said:?}"
    );
    assert_eq!(
        m.clock().remaining(Color::Black, secs(70)),
        black - secs(10)
    );
}
