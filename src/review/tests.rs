//! The review model, driven by messages; expected sentences are the
//! locale's messages filled in here.

use std::time::Duration;

use shakmaty::{Chess, Color, Position, san::San};

use super::*;
use crate::locale;
use crate::locale::MsgKey;

const PGN: &str = "[White \"Anna\"]\n[Black \"Bella\"]\n[Result \"0-1\"]\n\n\
    1. e4 {[%clk 0:04:58] fast} e5 {[%clk 0:04:57]} 2. Nf3 Nc6 3. Bc4 {[%emt 0:00:20]} Nf6 \
    4. Ng5 d5 5. exd5 Na5 6. d3 0-1\n";

fn review(code: &str) -> (Review, Vec<ReviewEffect>) {
    let game = &crate::pgn::read_games(PGN.as_bytes()).unwrap()[0];
    let g = ReviewGame::from_pgn(game).unwrap();
    Review::new(Vocabulary::builtin(code).unwrap(), g, Style::Short)
}

fn said(fx: &[ReviewEffect]) -> Vec<String> {
    fx.iter()
        .filter_map(|e| match e {
            ReviewEffect::Say(u) => Some(u.display.clone()),
            _ => None,
        })
        .collect()
}

fn line(r: &mut Review, text: &str) -> Vec<String> {
    said(&r.update(ReviewMsg::Line(text.into())))
}

/// "N. Side: words" of the `i`-th move of `sans`, from the locale's
/// message and the vocabulary's words.
fn expected_move(code: &str, sans: &[&str], i: usize) -> String {
    let v = Vocabulary::builtin(code).unwrap();
    let mut pos = Chess::default();
    let mut words = Utterance::default();
    for (k, s) in sans.iter().enumerate().take(i + 1) {
        let m = s.parse::<San>().unwrap().to_move(&pos).unwrap();
        if k == i {
            words = v.announce(&pos, m, Style::Short);
        }
        pos.play_unchecked(m);
    }
    let side = if i.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    };
    locale::builtin(code).unwrap().message(
        MsgKey::ReviewMove,
        &[
            ("number", &(i / 2 + 1).to_string()),
            ("side", &v.side(side).display),
            ("move", &words.display),
        ],
    )
}

const SANS: [&str; 11] = [
    "e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Ng5", "d5", "exd5", "Na5", "d3",
];

#[test]
fn steps_forward_back_first_last_and_jumps() {
    let (mut r, first) = review("en");
    let en = locale::builtin("en").unwrap();
    assert_eq!(said(&first).len(), 1);
    assert!(said(&first)[0].starts_with("Review: Anna against Bella, 11 "));
    assert_eq!(line(&mut r, "next"), [expected_move("en", &SANS, 0)]);
    assert_eq!(line(&mut r, "n"), [expected_move("en", &SANS, 1)]);
    assert_eq!(line(&mut r, "back"), [expected_move("en", &SANS, 0)]);
    assert_eq!(r.ply(), 1);
    assert_eq!(
        line(&mut r, "first"),
        [en.message(MsgKey::ReviewStart, &[("side", "White")])]
    );
    assert_eq!(
        line(&mut r, "back"),
        [en.message(MsgKey::ReviewAtStart, &[("next", "next")])]
    );
    assert_eq!(line(&mut r, "last"), [expected_move("en", &SANS, 10)]);
    assert_eq!(
        line(&mut r, "next"),
        [en.message(MsgKey::ReviewAtEnd, &[("result", "Black won.")])]
    );
    // A number is White's move; "black" (or "b") names Black's.
    assert_eq!(line(&mut r, "3"), [expected_move("en", &SANS, 4)]);
    assert_eq!(line(&mut r, "1 black"), [expected_move("en", &SANS, 1)]);
    assert_eq!(line(&mut r, "go 2 black"), [expected_move("en", &SANS, 3)]);
    assert_eq!(
        line(&mut r, "jump black 5"),
        [expected_move("en", &SANS, 9)]
    );
    assert_eq!(r.ply(), 10);
    assert_eq!(
        line(&mut r, "go 9"),
        [en.message(
            MsgKey::ReviewNoSuchMove,
            &[
                ("number", "9"),
                ("side", "White"),
                ("first", "1"),
                ("last", "6")
            ]
        )]
    );
    assert_eq!(r.ply(), 10, "a bad jump stays");
    assert!(line(&mut r, "go")[0].starts_with("Say which move"));
}

#[test]
fn the_last_five_moves_up_to_here() {
    let (mut r, _) = review("en");
    line(&mut r, "go 4 black");
    let list: Vec<String> = (3..8).map(|i| expected_move("en", &SANS, i)).collect();
    let en = locale::builtin("en").unwrap();
    assert_eq!(
        line(&mut r, "last five"),
        [en.message(
            MsgKey::ReviewRecent,
            &[("count", "5"), ("moves", &list.join(", "))]
        )]
    );
    line(&mut r, "first");
    assert_eq!(
        line(&mut r, "recent"),
        [en.message(MsgKey::ReviewRecentNone, &[])]
    );
}

#[test]
fn board_questions_are_asked_at_the_current_position() {
    let (mut r, _) = review("en");
    let en = locale::builtin("en").unwrap();
    assert_eq!(
        line(&mut r, "what e4"),
        [en.message(MsgKey::UiSquareEmpty, &[("square", "e4")])]
    );
    line(&mut r, "next");
    assert_eq!(
        line(&mut r, "what e4"),
        [en.message(
            MsgKey::UiSquarePiece,
            &[("square", "e4"), ("side", "White"), ("piece", "Pawn")]
        )]
    );
}

#[test]
fn clock_times_and_comments_on_request() {
    let (mut r, _) = review("en");
    let en = locale::builtin("en").unwrap();
    assert_eq!(
        line(&mut r, "clock"),
        [en.message(MsgKey::ReviewNoClock, &[])]
    );
    line(&mut r, "next");
    let book = Phrasebook::builtin("en").unwrap();
    let t = book
        .duration(Duration::from_secs(298), Verbosity::Brief)
        .display;
    assert_eq!(
        line(&mut r, "clock"),
        [en.message(
            MsgKey::ReviewClock,
            &[("side", "White"), ("number", "1"), ("time", &t)]
        )]
    );
    assert_eq!(
        line(&mut r, "comment"),
        [en.message(
            MsgKey::ReviewComment,
            &[("number", "1"), ("side", "White"), ("text", "fast")]
        )]
    );
    line(&mut r, "go 3");
    let t = book
        .duration(Duration::from_secs(20), Verbosity::Brief)
        .display;
    assert_eq!(
        line(&mut r, "time"),
        [en.message(
            MsgKey::ReviewMoveTime,
            &[("side", "White"), ("number", "3"), ("time", &t)]
        )]
    );
    assert_eq!(
        line(&mut r, "comment"),
        [en.message(MsgKey::ReviewNoComment, &[])]
    );
}

#[test]
fn the_engine_is_asked_and_its_answer_said_in_words() {
    let (mut r, _) = review("en");
    line(&mut r, "go 2");
    let fx = r.update(ReviewMsg::Line("engine".into()));
    let fen = match fx.last() {
        Some(ReviewEffect::Evaluate { ply, fen, .. }) => {
            assert_eq!(*ply, 3);
            fen.clone()
        }
        other => panic!("no request: {other:?}"),
    };
    assert!(fen.starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b"));
    let answer = |score| ReviewMsg::Evaluated {
        ply: 3,
        result: Ok(Analysis {
            best: "b8c6".parse().unwrap(),
            score,
        }),
    };
    let out = said(&r.update(answer(Some(Score::Centipawns(-123)))));
    assert_eq!(out.len(), 1);
    // Scores are from the side to move's view: Black's here.
    assert!(out[0].contains("White is ahead by 1.2 pawns"), "{}", out[0]);
    assert!(
        out[0].contains("best move for Black: Knight c6"),
        "{}",
        out[0]
    );
    let out = said(&r.update(answer(Some(Score::Mate(2)))));
    assert!(out[0].contains("Black mates in 2"), "{}", out[0]);
    let out = said(&r.update(answer(Some(Score::Centipawns(12)))));
    assert!(out[0].contains("the position is equal"), "{}", out[0]);
    // An answer for a position left since is not said.
    line(&mut r, "next");
    assert!(said(&r.update(answer(None))).is_empty());
    let out = said(
        &r.update(ReviewMsg::NoEngine(crate::engine::EngineError::Start {
            path: "/nowhere/stockfish".into(),
            kind: std::io::ErrorKind::NotFound,
            code: None,
        })),
    );
    assert!(out[0].contains("/nowhere/stockfish"), "{}", out[0]);
}

/// German takes a decimal comma: espeak-ng reads "1.2" as "eins Punkt
/// zwei", and "1,2" as "eins Komma zwei".
#[test]
fn a_score_in_pawns_takes_the_locales_decimal_separator() {
    for (code, want) in [("de", "um 1,2 Bauern besser"), ("en", "ahead by 1.2 pawns")] {
        let (mut r, _) = review(code);
        line(&mut r, "go 2");
        r.update(ReviewMsg::Line("engine".into()));
        let out = said(&r.update(ReviewMsg::Evaluated {
            ply: 3,
            result: Ok(Analysis {
                best: "b8c6".parse().unwrap(),
                score: Some(Score::Centipawns(-123)),
            }),
        }));
        assert!(out[0].contains(want), "{code}: {}", out[0]);
    }
}

#[test]
fn every_locale_has_review_words_that_read_back_and_do_not_clash() {
    for code in locale::builtin_codes() {
        let loc = locale::builtin(code).unwrap();
        let w = ReviewWords::new(&loc);
        for cmd in ReviewCmd::ALL {
            let shown = w.shown(cmd);
            assert_eq!(
                w.read(&loc, shown),
                Some((cmd, String::new())),
                "{code}: {shown}"
            );
            // Every spelling of the locale itself means this command only.
            for form in loc.message(cmd.message_key(), &[]).split('|') {
                assert_eq!(
                    w.read(&loc, form).map(|(c, _)| c),
                    Some(cmd),
                    "{code}: {form}"
                );
            }
        }
    }
}

#[test]
fn a_game_in_german_words() {
    let (mut r, _) = review("fide");
    assert_eq!(line(&mut r, "weiter"), [expected_move("fide", &SANS, 0)]);
    assert_eq!(line(&mut r, "next"), [expected_move("fide", &SANS, 1)]);
    assert!(line(&mut r, "zurück")[0].contains("Eva vier"));
}

#[test]
fn from_the_two_board_core() {
    let v = Vocabulary::builtin("en").unwrap();
    let config = crate::mirror::Config {
        white: "W".into(),
        black: "B".into(),
        control: crate::clock::TimeControl::default(),
        start: Chess::default(),
        mode: shakmaty::CastlingMode::Standard,
        style: Style::Short,
        ..crate::mirror::Config::default()
    };
    let m = crate::mirror::Mirror::new(v.clone(), config, Duration::ZERO);
    let g = ReviewGame::from_mirror(&m);
    assert_eq!(
        (g.white.as_str(), g.moves.len(), g.comments.len()),
        ("W", 0, 1)
    );
    let (mut r, _) = Review::new(v, g, Style::Short);
    assert!(line(&mut r, "next")[0].starts_with("That was the last move."));
}

#[test]
fn the_screen_shows_board_moves_keys_and_what_was_said() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let (mut r, _) = review("en");
    line(&mut r, "go 2");
    let mut term = Terminal::new(TestBackend::new(100, 32)).unwrap();
    let theme = crate::theme::Theme::of(crate::theme::ThemeKind::Monochrome);
    term.draw(|f| render::draw(f, &r, &theme)).unwrap();
    let buf = term.backend().buffer();
    let rows: Vec<String> = (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect())
        .collect();
    let text = rows.join("\n");
    let en = locale::builtin("en").unwrap();
    assert!(text.contains("Review: Anna against Bella"), "{text}");
    // Rank 3 after 2. Nf3: the knight on f3, in capitals for White.
    assert!(text.contains("3 . . . . . N . . 3"), "{text}");
    assert!(text.contains(" 1. e4 e5 "), "{text}");
    assert!(text.contains(">2. Nf3 Nc6"), "{text}");
    assert!(text.contains(&expected_move("en", &SANS, 2)), "{text}");
    let keys = en.message(MsgKey::ReviewLabelKeys, &[]);
    assert!(text.contains(&keys[..40]), "{text}");
    assert!(rows.iter().all(|r| r.chars().count() == 100));
    let _ = Position::turn(r.position());
}

/// At 80x24, the size of a standard terminal: the move list in the
/// locale's letters with the check sign (as the play screen's
/// scoresheets; it once showed English letters in every locale), the
/// board's legend whole on the message box's edges (the review board
/// once had none), the titles whole (Arabic lam-alef pairs once cut).
#[test]
fn at_80x24_the_moves_are_in_the_locales_letters_and_the_board_has_a_legend() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let pgn = "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 f5 2. Qh5+ g6 3. Nf3 *\n";
    for code in locale::builtin_codes() {
        let game = &crate::pgn::read_games(pgn.as_bytes()).unwrap()[0];
        let g = ReviewGame::from_pgn(game).unwrap();
        let (mut r, _) = Review::new(Vocabulary::builtin(code).unwrap(), g, Style::Short);
        let loc = r.vocab().locale().clone();
        let last = loc.message(MsgKey::ReviewCmdLast, &[]);
        line(&mut r, last.split('|').next().unwrap());
        let lines = render::move_lines(&r);
        // The locale's notation (its letters; the core's display_san,
        // tested with literal values there), the check sign kept.
        let san = |s: &str| loc.display_san(s);
        assert_eq!(
            lines[1],
            format!(" 2. {} {}", san("Qh5+"), san("g6")),
            "{code}"
        );
        assert!(lines[1].contains('+'), "{code}: {}", lines[1]);
        assert_eq!(
            lines[2].trim_start_matches([' ', '>']),
            format!("3. {}", san("Nf3")),
            "{code}"
        );
        let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
        let theme = crate::theme::Theme::of(crate::theme::ThemeKind::Default);
        term.draw(|f| render::draw(f, &r, &theme)).unwrap();
        let buf = term.backend().buffer();
        let row = |y: u16| {
            use unicode_width::UnicodeWidthStr;
            let mut out = String::new();
            let mut x = 0;
            while x < buf.area.width {
                let s = buf[(x, y)].symbol();
                out.push_str(s);
                x += s.width().max(1) as u16;
            }
            out
        };
        let norm = |s: &str| {
            s.replace(['─', '┌', '┐', '└', '┘', '│'], " ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        let rows: Vec<String> = (0..buf.area.height).map(row).collect();
        // The legend: on the top and bottom edges of the message box
        // (rows 13 and 17, below the title and the board), in Greek with
        // a third row between them inside the box.
        let want = norm(&crate::ui::render::board_legend(&loc));
        let between = if code == "el" { rows[14].as_str() } else { "" };
        assert_eq!(
            norm(&format!("{} {between} {}", rows[13], rows[17])),
            want,
            "{code}: {rows:#?}"
        );
        let moves = loc.message(MsgKey::ReviewLabelMoves, &[]);
        assert!(
            rows[1].contains(&format!("┌{moves}")),
            "{code}: {}",
            rows[1]
        );
    }
}
