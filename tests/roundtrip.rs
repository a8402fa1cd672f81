//! Round trip over every legal move of every position of the real games in
//! `../shared/pgn/`, in every built-in locale and both styles:
//! `parse(announce(m)) == m`.

use std::path::PathBuf;

use annabella::locale::builtin_codes;
use annabella::pgn::read_games;
use annabella::vocab::{Style, Vocabulary};
use shakmaty::{CastlingMode, Chess, Position};

fn pgn_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pgn")
}

/// Every position of every game in the shared PGN files, with its mode.
fn positions() -> Vec<(Chess, CastlingMode)> {
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(pgn_dir())
        .expect("../shared/pgn must exist beside the project")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    entries.sort();
    assert!(entries.len() >= 6, "expected the six shared PGN files");
    for path in entries {
        let file = std::fs::File::open(&path).expect("readable PGN");
        for game in read_games(file).expect("PGN reads") {
            let r = game.replay().expect("start position");
            for (pos, _) in r.steps() {
                out.push((pos, r.mode));
            }
        }
    }
    out
}

#[test]
fn every_legal_move_round_trips_in_every_locale_and_style() {
    let positions = positions();
    assert!(positions.len() > 1000, "only {} positions", positions.len());
    let mut checked = 0usize;
    let mut failures = Vec::new();
    for code in builtin_codes() {
        let vocab = Vocabulary::builtin(code).expect("built-in locale");
        for (pos, mode) in &positions {
            for m in pos.legal_moves() {
                for style in [Style::Short, Style::Long] {
                    let said = vocab.announce(pos, m, style);
                    checked += 1;
                    for text in [&said.display, &said.spoken] {
                        let back = vocab.parse(pos, *mode, text);
                        if back != Ok(m) && failures.len() < 20 {
                            failures.push(format!(
                                "{code} {style:?} {}: {m:?} -> '{text}' -> {back:?}",
                                shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} checked, failures:\n{}", checked, failures.join("\n"));
    eprintln!("round trip: {checked} announcements checked");
}
