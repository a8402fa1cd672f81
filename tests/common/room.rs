//! A whole game for the room tests (`voice_room`, `voice_barge_in`): the
//! moves, what the player types, and a silent recording.

use std::path::{Path, PathBuf};

use annabella::locale::MsgKey;
use annabella::vocab::Vocabulary;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// Fool's mate: a whole game in four moves.
pub const GAME: [&str; 4] = ["f3", "e5", "g4", "Qh4#"];

/// Each move of [`GAME`] with the position it is played in.
pub fn game_moves() -> Vec<(Chess, Move)> {
    let mut pos = Chess::default();
    let mut out = Vec::new();
    for san in GAME {
        let mv = san
            .parse::<San>()
            .expect("SAN")
            .to_move(&pos)
            .expect("legal");
        out.push((pos.clone(), mv));
        pos.play_unchecked(mv);
    }
    out
}

/// A move in UCI notation.
pub fn uci(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Standard).to_string()
}

/// A second of silence: the player says nothing.
pub fn silence(dir: &Path) -> PathBuf {
    let f = dir.join("silence.wav");
    super::sox(&[
        "-n",
        "-r",
        "16000",
        "-c",
        "1",
        "-b",
        "16",
        &f.to_string_lossy(),
        "trim",
        "0",
        "1",
    ]);
    f
}

/// The player types the whole game in Korean hotseat (move, press), and
/// says nothing; annabella announces every move into the room.
pub fn typed_game() -> String {
    let ko = Vocabulary::builtin("ko").expect("ko");
    let press = ko.locale().message(MsgKey::UiCmdPress, &[]);
    let press = press.split('|').next().unwrap_or_default().to_owned();
    let mut typed = String::new();
    for (i, san) in GAME.iter().enumerate() {
        typed.push_str(san);
        typed.push('\n');
        // The last move mates: no press after it.
        if i + 1 < GAME.len() {
            typed.push_str(&press);
            typed.push('\n');
        }
    }
    typed
}
