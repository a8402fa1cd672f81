//! End to end with the real Stockfish (/usr/games/stockfish or
//! env ANNABELLA_STOCKFISH): a full engine-against-engine game in plain
//! mode, every move announced and checked by reading the words back; and a
//! typed move answered by the engine.
//!
//! Skips (with a printed reason) when Stockfish is missing, unless
//! ANNABELLA_REQUIRE_E2E=1.

mod common;

use annabella::locale::MsgKey;
use annabella::vocab::Vocabulary;
use shakmaty::{CastlingMode, Chess, Position};

fn stockfish() -> Option<String> {
    let path =
        std::env::var("ANNABELLA_STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".into());
    let present = std::path::Path::new(&path).exists();
    common::tool_present(present, &format!("Stockfish at {path}")).then_some(path)
}

fn run(args: &[&str], script: &str) -> Vec<String> {
    let mut all = vec!["--plain"];
    all.extend_from_slice(args);
    common::run_with_input(&all, script).0
}

#[test]
fn engine_against_engine_every_move_announced() {
    let Some(sf) = stockfish() else { return };
    let lines = run(
        &[
            "-l",
            "en",
            "--mode",
            "engine",
            "--engine",
            &sf,
            "--engine-side",
            "both",
            "--engine-skill",
            "0",
            "--engine-movetime",
            "5",
        ],
        "",
    );
    let vocab = Vocabulary::builtin("en").unwrap();
    let mut pos = Chess::default();
    let mut moves = 0;
    let mut over = false;
    for (i, line) in lines.iter().enumerate() {
        let side = if pos.turn() == shakmaty::Color::White {
            "White: "
        } else {
            "Black: "
        };
        // "12. White: Knight f3" (the number is the move's).
        let line_words = line.split_once(". ").map_or(line.as_str(), |(n, rest)| {
            if n.chars().all(|c| c.is_ascii_digit()) {
                rest
            } else {
                line.as_str()
            }
        });
        if let Some(words) = line_words.strip_prefix(side) {
            if words.contains("pressed") || words.contains(':') {
                continue;
            }
            // Every announced move reads back as the one legal move.
            let m = vocab
                .parse(&pos, CastlingMode::Standard, words)
                .unwrap_or_else(|e| panic!("line {i} {line:?} does not read back: {e:?}"));
            pos.play_unchecked(m);
            moves += 1;
        }
        if line.starts_with("The game is over:") {
            over = true;
            assert_eq!(i, lines.len() - 1, "the game over line is the last");
        }
    }
    assert!(over, "the game ended: {lines:#?}");
    assert!(moves >= 2, "{lines:#?}");
    eprintln!("engine game: {moves} half-moves announced");
}

#[test]
fn typed_move_then_engine_reply() {
    let Some(sf) = stockfish() else { return };
    let lines = run(
        &[
            "-l",
            "fide",
            "--mode",
            "engine",
            "--engine",
            &sf,
            "--engine-movetime",
            "50",
        ],
        "Eva vier\npress\n",
    );
    // fide: Appendix D words, German messages (the fide locale's).
    let v = Vocabulary::builtin("fide").unwrap();
    let side = |c| v.side(c);
    let (w, b) = (side(shakmaty::Color::White), side(shakmaty::Color::Black));
    let you = v.message(MsgKey::UiYouPlay, &[("side", &w), ("engine", &b)]);
    let pressed = |by: &annabella::vocab::Utterance, next: &annabella::vocab::Utterance| {
        v.message(MsgKey::UiPressed, &[("side", by), ("next", next)])
            .display
    };
    // The journal line, the welcome, then the game.
    assert!(lines[0].contains(".jsonl"), "{lines:#?}");
    assert_eq!(lines[2], you.display);
    let at = lines
        .iter()
        .position(|l| l.ends_with("Eva vier"))
        .unwrap_or_else(|| panic!("the move is announced: {lines:#?}"));
    assert!(lines[at].starts_with("1. "), "{}", lines[at]);
    assert_eq!(lines[at + 1], pressed(&w, &b));
    // The engine's answer, in words, then its press.
    assert!(lines[at + 2].starts_with("1. "), "{lines:#?}");
    assert_eq!(lines[at + 3], pressed(&b, &w));
}

/// D.2.6, issue 21 item 7: the time is said on request while the engine
/// thinks, not after its move; and the board question too. The engine's
/// move still comes, after them (its liveness twin).
#[test]
fn the_time_is_answered_while_the_engine_thinks() {
    let Some(sf) = stockfish() else { return };
    let en = annabella::locale::builtin("en").expect("en");
    let lines = run(
        &[
            "-l",
            "en",
            "--silent",
            "--mode",
            "engine",
            "--engine",
            &sf,
            "--engine-movetime",
            "3000",
        ],
        "e4\npress\ntime\nwhere knight\n",
    );
    let used = en.message(MsgKey::ClockTimeUsed, &[("side", "White"), ("time", "")]);
    let used = used.trim_end_matches('.').trim_end();
    let time = lines
        .iter()
        .position(|l| l.contains(used))
        .unwrap_or_else(|| panic!("no time said: {lines:#?}"));
    let reply = lines
        .iter()
        .position(|l| l.starts_with("1. Black: "))
        .unwrap_or_else(|| panic!("the engine never moved: {lines:#?}"));
    assert!(time < reply, "the time waited for the engine: {lines:#?}");
    let knights = lines
        .iter()
        .position(|l| l.contains("b1, g1"))
        .unwrap_or_else(|| panic!("no answer to where knight: {lines:#?}"));
    assert!(knights < reply, "the board question waited: {lines:#?}");
}
