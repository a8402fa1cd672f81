//! The terminal is always restored (issue 13): a crash that no handler in
//! the program can catch — abort, SIGSEGV, SIGKILL of the full screen —
//! used to leave the terminal in raw mode on the alternate screen, which a
//! blind player cannot recover from. Now a restoring parent waits for the
//! full screen (see `ui::term::supervisor`). With the real binary in tmux
//! and the test-only trigger ANNABELLA_TEST_ABORT (the full screen ends
//! itself after its first frame): afterwards the pane is on the main
//! screen, `stty -a` shows `icanon echo`, and one line says what happened
//! and how to continue the game from its journal.
//!
//! Skips (with a printed reason) when tmux is missing, unless
//! ANNABELLA_REQUIRE_E2E=1.

mod common;

use annabella::locale::MsgKey;
use common::{bin, en};

use common::tmux::{Session, tmux_available};

fn crash_restores(how: &str, signal: &str, status: i32) {
    if !tmux_available() {
        return;
    }
    let data = tempfile::tempdir().expect("temp dir");
    let s = Session::start(&format!("crash-{how}"));
    s.keys(&format!(
        "XDG_DATA_HOME={} ANNABELLA_TEST_ABORT={how} {} -l en --silent; echo EXITED $?",
        data.path().display(),
        bin()
    ));
    s.wait_for(&format!("EXITED {status}"));
    assert!(!s.alternate_on(), "still on the alternate screen");
    assert_eq!(s.line_settings(), "icanon echo");
    // The line names the journal the game is in.
    let games = data.path().join("annabella").join("games");
    let journal = std::fs::read_dir(&games)
        .expect("the games folder")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .expect("a journal");
    annabella::journal::read(&journal).expect("the journal reads");
    let reason = en(MsgKey::UiCrashSignal, &[("signal", signal)]);
    let line = en(
        MsgKey::UiCrashed,
        &[
            ("reason", &reason),
            ("file", &journal.display().to_string()),
        ],
    );
    let screen = s.screen_joined();
    assert!(screen.contains(&line), "{line:?} not on\n{screen}");
}

#[test]
fn an_abort_of_the_full_screen_leaves_a_usable_terminal() {
    crash_restores("abort", "SIGABRT", 134);
}

#[test]
fn a_segfault_of_the_full_screen_leaves_a_usable_terminal() {
    crash_restores("segv", "SIGSEGV", 139);
}

#[test]
fn sigkill_of_the_full_screen_leaves_a_usable_terminal() {
    crash_restores("kill", "SIGKILL", 137);
}

#[test]
fn sigint_sent_to_the_parent_alone_ends_the_game_and_restores_the_terminal() {
    if !tmux_available() {
        return;
    }
    let data = tempfile::tempdir().expect("temp dir");
    let s = Session::start("sigint-parent");
    s.keys(&format!(
        "XDG_DATA_HOME={} {} -l en --silent; echo EXITED $?",
        data.path().display(),
        bin()
    ));
    // The full screen is up (the supervised child has drawn it).
    let start = std::time::Instant::now();
    while !s.alternate_on() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(20),
            "no full screen:\n{}",
            s.screen_joined()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // `kill -INT` of the program the user started (the supervising
    // parent), not of its process group: on main it was ignored and the
    // game went on.
    let parent = s.child_pid().expect("the program's pid");
    let pid = libc::pid_t::try_from(parent).expect("pid");
    // SAFETY: kill(2) of the program under test.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    s.wait_for("EXITED");
    assert!(!s.alternate_on(), "still on the alternate screen");
    assert_eq!(s.line_settings(), "icanon echo");
    let games = data.path().join("annabella").join("games");
    let journal = std::fs::read_dir(&games)
        .expect("the games folder")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .expect("a journal");
    assert!(
        annabella::journal::read(&journal)
            .expect("the journal reads")
            .is_intact()
    );
}
