//! Engines that misbehave never hold up a game (issue 13), with the real
//! binary: `/bin/cat` (never says `uciok`; on main the program hung before
//! its first line and `quit` did nothing), `/bin/true` (ends at once), a
//! script that answers the handshake and then never moves, and one that
//! also ignores `quit` and SIGTERM. Each gives one localized line, the
//! game goes on with both sides typed, `quit` works at once, and no engine
//! process is left behind. Real Stockfish still plays (see
//! `engine_stockfish.rs`).
//!
//! Each run has a deadline: a hang fails the test instead of stalling the
//! suite.

mod common;

use annabella::locale::MsgKey;
use common::{bin, de};

use common::tmux::{Session, tmux_available};

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// An engine script in its own folder (the folder's path marks its
/// processes).
fn script(dir: &Path, body: &str) -> PathBuf {
    let p = dir.join("engine.sh");
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).expect("write the engine");
    let mut perm = std::fs::metadata(&p).expect("metadata").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&p, perm).expect("chmod");
    p
}

const NEVER_MOVES: &str =
    "while read l; do case $l in uci) echo uciok;; isready) echo readyok;; esac; done";

const IGNORES_QUIT: &str = "trap '' TERM INT HUP\n\
     while read l; do case $l in uci) echo uciok;; isready) echo readyok;; esac; done\n\
     while :; do sleep 1; done";

/// Processes whose command line contains `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        if cmd.contains(marker) {
            found.push(format!("{name}: {cmd}"));
        }
    }
    found
}

/// Runs the play screen in plain mode with `input`; fails if it has not
/// ended after `deadline`. Returns stdout lines and the exit status.
fn play(args: &[&str], input: &str, deadline: Duration) -> (Vec<String>, std::process::ExitStatus) {
    let data = tempfile::tempdir().expect("temp dir");
    let out = common::run_until(
        Command::new(bin())
            .arg("--plain")
            .args(args)
            .env("XDG_DATA_HOME", data.path()),
        input,
        deadline,
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    (text.lines().map(str::to_owned).collect(), out.status)
}

/// The line `key` (ui.engine_missing / ui.engine_failed) with the reason
/// `reason`, whichever side it names.
fn engine_line<'a>(lines: &'a [String], key: MsgKey, reason: &str) -> Option<&'a String> {
    let template = de(key, &[("error", reason)]);
    lines.iter().find(|l| common::fits(l, &template))
}

/// German, against `engine` thinking `movetime` ms.
fn engine_args<'a>(engine: &'a str, movetime: &'a str) -> [&'a str; 8] {
    [
        "-l",
        "de",
        "--mode",
        "engine",
        "--engine",
        engine,
        "--engine-movetime",
        movetime,
    ]
}

/// Plays e4 against the engine script `body` (thinking `movetime` ms),
/// then types Black's reply: the game must go on after the line `key`
/// with `reason`, Black's move typed, and no engine process left.
fn stopped_and_typed(body: &str, movetime: &str, key: MsgKey, reason: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = script(dir.path(), body);
    let engine = engine.to_str().expect("UTF-8");
    let (lines, status) = play(
        &engine_args(engine, movetime),
        "e4\ndrücken\ne5\n",
        Duration::from_secs(60),
    );
    assert!(status.success(), "{status:?} {lines:#?}");
    assert!(engine_line(&lines, key, reason).is_some(), "{lines:#?}");
    // Black's move is typed.
    let black = de(MsgKey::SideBlack, &[]);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("1. {black}: "))),
        "{lines:#?}"
    );
    assert!(processes_with(&dir.path().display().to_string()).is_empty());
}

#[test]
fn an_engine_that_never_says_uciok_is_stopped_and_the_game_goes_on() {
    // A script around cat, so its processes can be found afterwards.
    let reason = de(MsgKey::EngineNoUciok, &[("seconds", "5")]);
    stopped_and_typed("exec cat", "1000", MsgKey::UiEngineMissing, &reason);
}

#[test]
fn an_engine_that_ends_at_once_is_one_line() {
    let (lines, status) = play(
        &["-l", "de", "--mode", "engine", "--engine", "/bin/true"],
        "e4\ndrücken\n",
        Duration::from_secs(30),
    );
    assert!(status.success(), "{status:?}");
    let reason = de(MsgKey::EngineEnded, &[]);
    let line = engine_line(&lines, MsgKey::UiEngineMissing, &reason);
    assert!(line.is_some(), "{lines:#?}");
    // One line, not one per request.
    assert_eq!(
        lines.iter().filter(|l| l.contains(&reason)).count(),
        1,
        "{lines:#?}"
    );
}

#[test]
fn an_engine_that_never_moves_is_stopped_after_its_time_and_a_margin() {
    // 50 ms of thinking and the 5 s margin: 6 s, rounded up.
    let reason = de(MsgKey::EngineNoBestmove, &[("seconds", "6")]);
    stopped_and_typed(NEVER_MOVES, "50", MsgKey::UiEngineFailed, &reason);
}

/// The engine's process group is killed at the quit; on a busy machine its
/// processes can take a moment to be gone (a killed engine that stays is
/// still found after five seconds).
fn assert_engine_gone(marker: &str) {
    let t0 = std::time::Instant::now();
    let mut left = processes_with(marker);
    while !left.is_empty() && t0.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(100));
        left = processes_with(marker);
    }
    assert!(left.is_empty(), "engine processes left: {left:#?}");
}

#[test]
fn quit_works_at_once_while_the_engine_thinks_and_stops_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = script(dir.path(), IGNORES_QUIT);
    // Ten minutes of thinking: the run's deadline is far shorter, so only
    // a quit that does not wait for the engine passes.
    let (lines, status) = play(
        &engine_args(engine.to_str().expect("UTF-8"), "600000"),
        "e4\ndrücken\nbeenden\nja\n",
        Duration::from_secs(30),
    );
    assert!(status.success(), "{status:?} {lines:#?}");
    assert_engine_gone(&dir.path().display().to_string());
}

#[test]
fn the_full_screen_starts_at_once_and_quits_while_the_engine_hangs() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = script(dir.path(), "exec cat");
    let s = Session::start("engine-cat");
    s.keys(&format!(
        "XDG_DATA_HOME={} {} -l en --silent --mode engine --engine {}; echo EXITED $?",
        dir.path().display(),
        bin(),
        engine.display()
    ));
    let en = annabella::locale::builtin("en").expect("en");
    let white = en.message(MsgKey::SideWhite, &[]);
    // On main nothing was drawn: the handshake waited for ever.
    s.wait_for(&format!(
        "┌{}",
        en.message(MsgKey::UiLabelBoardOf, &[("side", &white)])
    ));
    s.keys("quit");
    let confirm = en.message(MsgKey::UiQuitConfirm, &[]);
    s.wait_for(confirm.split('?').next().unwrap_or_default());
    s.keys("yes");
    s.wait_for("EXITED 0");
    assert_engine_gone(&engine.display().to_string());
}
