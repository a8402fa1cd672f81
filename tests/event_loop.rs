//! The play screen's loop sleeps until something happens (issue 23): keys
//! or lines, spoken decisions, the engine's replies, speech progress and
//! signals arrive on one channel, and the loop wakes by itself only at its
//! next deadline (the clock's display changes, the talking clock speaks, a
//! flag falls). It used to look every 250 ms whether anything had come, so
//! a decision waited up to 250 ms before it was printed or spoken.
//!
//! Measured here without a clock on the wall: how often the loop's thread
//! went to sleep and was woken (its voluntary context switches, from
//! /proc) while the game stood idle. The real binary, in plain lines and
//! on the full screen in tmux.

mod common;

use std::io::{BufRead, BufReader};
use std::time::Duration;

use common::tmux::{Session, tmux_available};

/// How often the main thread of `pid` has gone to sleep so far.
fn sleeps(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/status"))
        .expect("the program's status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
        .and_then(|v| v.trim().parse().ok())
        .expect("voluntary_ctxt_switches")
}

#[test]
fn an_idle_plain_game_does_not_wake_up() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut child = common::annabella(&["--plain", "-l", "en", "--silent"], dir.path())
        .spawn()
        .expect("the binary starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    // The welcome is printed: the loop runs. Keep reading (never block
    // the program on a full pipe).
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    rx.recv_timeout(Duration::from_secs(30))
        .expect("the welcome line");
    std::thread::sleep(Duration::from_millis(500));
    let pid = child.id();
    let before = sleeps(pid);
    std::thread::sleep(Duration::from_secs(3));
    let woke = sleeps(pid) - before;
    // Nothing is due for ten minutes (the talking clock's next
    // announcement): no wake at all, give or take one.
    assert!(
        woke <= 2,
        "the idle loop woke {woke} times in 3 s (a polling loop wakes 4 times a second)"
    );
    // Still alive and answering: the input ends, the program quits.
    drop(child.stdin.take());
    let out = child.wait_with_output().expect("the binary ends");
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_idle_full_screen_wakes_only_when_the_clock_display_changes() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let d = dir.path().display();
    let s = Session::start("idle");
    s.keys(&format!(
        "XDG_DATA_HOME={d} XDG_CONFIG_HOME={d} {} -l en --silent; echo EXITED $?",
        env!("CARGO_BIN_EXE_annabella")
    ));
    s.wait_for("running");
    std::thread::sleep(Duration::from_millis(500));
    let pid = s.grandchild_pid().expect("the full screen's process");
    let before = sleeps(pid);
    std::thread::sleep(Duration::from_secs(4));
    let woke = sleeps(pid) - before;
    // The running clock's seconds change four times: four frames (and a
    // few sleeps of writing them at most).
    assert!(
        woke <= 9,
        "the idle screen woke {woke} times in 4 s (a polling loop wakes 4 times a second)"
    );
    s.keys("quit");
    s.keys("yes");
    s.wait_for("EXITED 0");
}
