//! The real binary ends a game at once when a move reaches a dead position
//! that is not bare material (FIDE Art. 5.2.2): a move that locks every
//! pawn with both kings fenced in.

mod common;

use annabella::locale::MsgKey;
use common::de;
use std::process::Command;

#[test]
fn announce_ends_the_game_when_a_move_locks_every_pawn() {
    // After g3-g4 the pawns on a, c, e, g are locked; the kings can cross
    // neither the fourth nor the fifth rank.
    let fen = "8/8/3k4/p1p1p1p1/P1P1P3/6P1/3K4/8 w - - 0 1";
    let out = Command::new(env!("CARGO_BIN_EXE_annabella"))
        .args(["announce", "--fen", fen, "g4"])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let dead = de(MsgKey::ResultDeadPosition, &[]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("Gustav vier\n{dead}\n"),
        "{stderr}"
    );
    // One move earlier the game goes on: no result line.
    let out = Command::new(env!("CARGO_BIN_EXE_annabella"))
        .args(["announce", "--fen", fen, "Kd3"])
        .output()
        .expect("the binary runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
}
