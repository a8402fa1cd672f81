//! Unit tests of the game layer: which core procedure a command reaches,
//! and what its journal record holds.

use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color};

use super::*;
use crate::mirror::GameEvent;

fn mins(m: u64) -> Duration {
    Duration::from_secs(m * 60)
}

/// After 1. Nf3 d5 2. d4 Nc6: White to move.
const OPENING: &str = "r1bqkbnr/ppp1pppp/2n5/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3";

/// A practice game in English words from `fen`, 90 minutes plus 30 s.
fn game(fen: &str) -> Game {
    game_in("en", fen)
}

/// The same in the words of the built-in locale `code`.
fn game_in(code: &str, fen: &str) -> Game {
    let start: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let config = Config {
        start,
        control: "90m+30s".parse().unwrap(),
        practice: true,
        ..Config::default()
    };
    Game::new(Vocabulary::builtin(code).unwrap(), config, Duration::ZERO)
}

/// White seals e4 at 10 minutes; the press at 11 closes the envelope.
fn adjourned() -> Game {
    let mut g = game(OPENING);
    let seal = Command::Seal {
        text: "e4".into(),
        resumption: "Monday 10:00, Hall B".into(),
    };
    g.apply(mins(10), seal, None).unwrap();
    g.apply(mins(11), Command::Press, None).unwrap();
    assert!(g.mirror().sealed().is_some());
    g
}

#[test]
fn a_draw_offered_while_the_game_is_adjourned_stands_until_the_resumption() {
    // Guideline I.4: through the game layer, as every front end gives it.
    let mut g = adjourned();
    let said = g
        .apply(mins(20), Command::OfferDraw { side: Side::Black }, None)
        .unwrap();
    assert!(
        said.contains(&GameEvent::DrawOfferStands { side: Color::Black }),
        "{said:?}"
    );
}

#[test]
fn a_draw_declined_while_the_game_is_adjourned_leaves_it_adjourned() {
    let mut g = adjourned();
    g.apply(mins(20), Command::OfferDraw { side: Side::Black }, None)
        .unwrap();
    let answer = Command::AnswerDraw {
        side: Side::White,
        accept: false,
    };
    g.apply(mins(21), answer, None).unwrap();
    assert_eq!(g.mirror().draw_offer(), None);
    assert!(g.mirror().sealed().is_some());
    assert!(g.mirror().result().is_none());
}

#[test]
fn a_resignation_while_the_game_is_adjourned_ends_it() {
    // Guideline I.6: a player may resign before the resumption.
    let mut g = adjourned();
    g.apply(mins(20), Command::Resign { side: Side::White }, None)
        .unwrap();
    let result = g.mirror().result().expect("the game is over");
    assert_eq!(result.winner, Some(Color::Black));
}

#[test]
fn every_record_holds_both_clocks_after_the_command() {
    let mut g = game(OPENING);
    let board = Command::Board {
        side: Side::White,
        text: "e4".into(),
        uci: None,
    };
    g.apply(Duration::ZERO, board, None).unwrap();
    let records = g.take_records();
    let last = records.last().expect("a record");
    // 90 minutes each, none used yet.
    assert_eq!(last.clock_ms, [5_400_000, 5_400_000]);
    // A minute later, a record holds what the clock says then.
    g.apply(mins(1), Command::OfferDraw { side: Side::Black }, None)
        .unwrap();
    let records = g.take_records();
    let last = records.last().expect("a record");
    let clock = g.mirror().clock();
    let ms = |c| clock.remaining(c, mins(1)).as_millis() as u64;
    assert_eq!(last.clock_ms, [ms(Color::White), ms(Color::Black)]);
    assert!(last.clock_ms[0] < 5_400_000 || last.clock_ms[1] < 5_400_000);
}

#[test]
fn records_wait_until_they_are_taken() {
    let mut g = game(OPENING);
    assert!(!g.has_records());
    let board = Command::Board {
        side: Side::White,
        text: "e4".into(),
        uci: None,
    };
    g.apply(Duration::ZERO, board, None).unwrap();
    assert!(g.has_records());
    assert_eq!(g.take_records().len(), 1);
    assert!(!g.has_records());
}

#[test]
fn the_fen_of_each_board_and_the_positions_of_the_game() {
    let mut g = game(OPENING);
    let board = Command::Board {
        side: Side::White,
        text: "e4".into(),
        uci: None,
    };
    g.apply(Duration::ZERO, board, None).unwrap();
    let after = "r1bqkbnr/ppp1pppp/2n5/3p4/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3";
    assert_eq!(g.mirror().fen(Color::White), after);
    assert_eq!(g.mirror().fen(Color::Black), OPENING);
    // The positions of the recorded moves: the start, then after each.
    let start: Chess = OPENING
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let moves = g.mirror().board(Color::White).moves().to_vec();
    let positions = crate::rules::positions(&start, &moves);
    let fens: Vec<String> = positions
        .iter()
        .map(|p| Fen::from_position(p, shakmaty::EnPassantMode::Legal).to_string())
        .collect();
    assert_eq!(fens, vec![OPENING.to_owned(), after.to_owned()]);
}

/// espeak-ng's Hebrew voice reads no digits at all: a move number in what
/// is spoken must be the locale's number word, and stays digits on screen.
#[test]
fn a_move_number_is_spoken_as_a_word_where_the_voice_reads_no_digits() {
    let mut g = game_in("he", OPENING);
    let seal = Command::Seal {
        text: "e4".into(),
        resumption: "Monday".into(),
    };
    let said = g.apply(mins(10), seal, None).unwrap();
    let verbs = script::ScriptVerbs;
    let words = g.wording(&verbs);
    let lines: Vec<_> = said.iter().map(|e| words.event(e)).collect();
    let sealed = lines
        .iter()
        .find(|u| u.display.contains('3'))
        .unwrap_or_else(|| panic!("no line names move 3: {lines:?}"));
    // Move 3 (the position is after 2... Nc6): "שלוש" in words.
    assert!(sealed.spoken.contains("שלוש"), "{sealed:?}");
    assert!(
        !sealed.spoken.chars().any(|c| c.is_ascii_digit()),
        "{sealed:?}"
    );
}
