//! PGN round trip through the real binary: a Chess960 game from
//! ../shared/pgn is continued with `play --from-pgn`, exported from each
//! board and scoresheet, and read back by the PGN reader: same start
//! position, same moves, Variant and FEN tags.

use std::path::PathBuf;
use std::process::Command;

use annabella::pgn::read_games;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_annabella")
}

#[test]
fn chess960_game_continues_from_pgn_and_exports_back() {
    let src =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pgn/cutechess-fischerrandom.pgn");
    let original = read_games(std::fs::read(&src).unwrap().as_slice()).unwrap();
    let first = original[0].replay().unwrap();
    let moves: Vec<_> = first.moves.iter().map_while(|m| *m).collect();
    assert!(moves.len() > 10);

    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("s.txt");
    std::fs::write(&script, "time 5\nclock\n").unwrap();
    let o = Command::new(bin())
        .args(["play", "--control", "5m+3s", "--white", "A", "--black", "B"])
        .arg("--from-pgn")
        .arg(&src)
        .arg("--script")
        .arg(&script)
        .arg("--journal")
        .arg(dir.path().join("g.jsonl"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.contains("Line "), "{out}");

    for args in [
        vec!["--board", "white"],
        vec!["--board", "black"],
        vec!["--sheet", "white"],
        vec!["--sheet", "black"],
    ] {
        let o = Command::new(bin())
            .arg("export")
            .args(&args)
            .arg(dir.path().join("g.jsonl"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let pgn = String::from_utf8(o.stdout).unwrap();
        assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
        assert!(pgn.contains("[TimeControl \"300+3\"]"), "{pgn}");
        assert!(pgn.contains("[White \"A\"]"), "{pgn}");
        let back = read_games(pgn.as_bytes()).unwrap();
        assert_eq!(back.len(), 1, "{pgn}");
        let r = back[0].replay().unwrap();
        assert_eq!(r.error, None, "{pgn}");
        assert_eq!(r.start, first.start, "{args:?}");
        let got: Vec<_> = r.moves.iter().map_while(|m| *m).collect();
        assert_eq!(got, moves, "{args:?}: {pgn}");
    }
}
