//! Spoken moves are played (liveness), not only never wrong (safety): a
//! game of ten moves said to the real binary, hands-free and with
//! push-to-talk, ends with at least nine of them on the board.
//!
//! The recordings are in tests/fixtures/voice/ (see its README): espeak-ng
//! Korean chosen by measuring (`cargo run --release --example
//! voice_fixtures`), each heard by the model as its move in every hearing
//! the play screen can make, hands-free and push-to-talk. For each move
//! the player says the move, then "yes" (which plays a move asked back,
//! and does nothing when it was taken at once), then "clock" (the press).
//! The game is hotseat: both sides are spoken. The recordings play on
//! their own timeline (`--wav-clock fast`).
//!
//! The proof that these tests can fail: make the play screen drop heard
//! moves (`Decision::Move` ignored in `ui/app/voice.rs`, or every
//! `VoiceEvent::Heard` ignored in `ui/mod.rs`): both fail.
//!
//! Needs the model (env ANNABELLA_TEST_MODEL); skips with a reason when it
//! is missing, unless ANNABELLA_REQUIRE_E2E=1.

#[path = "../common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use annabella::game::{Command as GameCommand, Side};
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// The game the fixtures say: a Ruy Lopez (Berlin) to move 5.
const GAME: [&str; 10] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O", "Be7", "Re1", "O-O",
];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/voice")
        .join(name)
}

/// The game's moves in UCI.
fn said() -> Vec<String> {
    let mut pos = Chess::default();
    GAME.iter()
        .map(|san| {
            let mv = san
                .parse::<San>()
                .expect("SAN")
                .to_move(&pos)
                .expect("legal");
            pos.play_unchecked(mv);
            UciMove::from_move(mv, CastlingMode::Standard).to_string()
        })
        .collect()
}

/// What a spoken game left behind.
#[derive(Debug)]
struct Game {
    /// The moves on White's board (every move of the game), in UCI.
    moves: Vec<String>,
    /// Every decision of the recognizers (from the audio log).
    decisions: Vec<String>,
    /// Standard output.
    lines: Vec<String>,
}

/// The player says the game to the play screen (Korean, hotseat, plain):
/// each move, "yes", "clock".
fn speak_the_game(model: &Path, push_to_talk: bool) -> Game {
    let dir = tempfile::tempdir().expect("a data folder");
    let journal = dir.path().join("game.jsonl");
    let mut args: Vec<String> = [
        "--plain",
        "-l",
        "ko",
        "--mode",
        "hotseat",
        "--wav-clock",
        common::wav_clock(),
        "--model",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    args.push(model.to_string_lossy().into_owned());
    args.push("--journal".into());
    args.push(journal.to_string_lossy().into_owned());
    if push_to_talk {
        args.push("--push-to-talk".into());
    }
    for (i, san) in GAME.iter().enumerate() {
        let name = format!("{:02}-{}.wav", i + 1, san.replace('-', ""));
        for f in [fixture(&name), fixture("yes.wav"), fixture("clock.wav")] {
            assert!(f.is_file(), "missing fixture {}", f.display());
            args.push("--voice-wav".into());
            args.push(f.to_string_lossy().into_owned());
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut cmd = common::annabella(&args, dir.path());
    cmd.env("XDG_CACHE_HOME", dir.path());
    let out = common::run_until(&mut cmd, "", std::time::Duration::from_secs(600));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "exit {:?}: {stderr}", out.status);
    let log =
        std::fs::read_to_string(dir.path().join("annabella").join("audio.log")).unwrap_or_default();
    let decisions = log
        .lines()
        .filter_map(|l| l.strip_prefix("annabella voice: decision "))
        .map(str::to_owned)
        .collect();
    let loaded = annabella::journal::read(&journal).expect("journal");
    let moves = loaded
        .records
        .iter()
        .filter_map(|r| match &r.event {
            GameCommand::Board {
                side: Side::White,
                uci,
                ..
            } => uci.clone(),
            _ => None,
        })
        .collect();
    Game {
        moves,
        decisions,
        lines: String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect(),
    }
}

/// At least nine of the ten moves said are on the board, in the game's
/// order, and no move that was not said.
fn check(game: &Game) {
    let said = said();
    for (i, m) in game.moves.iter().enumerate() {
        assert_eq!(
            Some(m),
            said.get(i),
            "move {} is not the one said: {game:#?}",
            i + 1
        );
    }
    let taken = game
        .decisions
        .iter()
        .filter(|d| d.starts_with("Move"))
        .count();
    println!(
        "{} of {} moves played ({taken} taken at once, the rest asked and confirmed by 'yes'); {} decisions",
        game.moves.len(),
        said.len(),
        game.decisions.len()
    );
    assert!(
        game.moves.len() >= 9,
        "only {} of {} spoken moves played: {game:#?}",
        game.moves.len(),
        said.len()
    );
}

#[test]
fn a_game_said_hands_free_is_played() {
    let Some(model) = common::voice_prerequisites() else {
        return;
    };
    let game = speak_the_game(&model, false);
    check(&game);
    assert_eq!(game.decisions.len(), 3 * GAME.len(), "{game:#?}");
}

#[test]
fn a_game_said_with_push_to_talk_is_played() {
    let Some(model) = common::voice_prerequisites() else {
        return;
    };
    let game = speak_the_game(&model, true);
    check(&game);
    assert_eq!(game.decisions.len(), 3 * GAME.len(), "{game:#?}");
    // The talk key was the play screen's own: it said so when ready.
    let ko = annabella::vocab::Vocabulary::builtin("ko").expect("ko");
    let help = ko.locale().message("ui.cmd.help", &[]);
    let help = help.split('|').next().unwrap_or_default();
    let ptt = ko.locale().message("ui.voice_ptt", &[("help", help)]);
    assert!(game.lines.contains(&ptt), "{game:#?}");
}
