//! End to end: the real binary's full screen in tmux (100×30): a game in
//! Appendix D words, clock query, resignation, quit; and the terminal is
//! restored after SIGTERM.
//!
//! Skips (with a printed reason) when tmux is missing, unless
//! ANNABELLA_REQUIRE_E2E=1.

use std::process::Command;
use std::time::{Duration, Instant};

fn tmux_available() -> bool {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("ANNABELLA_REQUIRE_E2E").as_deref() != Ok("1"),
            "tmux is required (ANNABELLA_REQUIRE_E2E=1) but not installed"
        );
        eprintln!("skipped: tmux is not installed");
    }
    ok
}

struct Session(String);

impl Session {
    fn start(tag: &str) -> Session {
        let name = format!("annabella-{tag}-{}", std::process::id());
        let st = Command::new("tmux")
            .args(["new-session", "-d", "-x", "100", "-y", "30", "-s", &name])
            .args(["env", "PS1=$ ", "bash", "--norc", "--noprofile"])
            .status()
            .unwrap();
        assert!(st.success());
        Session(name)
    }

    fn keys(&self, text: &str) {
        let st = Command::new("tmux")
            .args(["send-keys", "-t", &self.0, "-l", text])
            .status()
            .unwrap();
        assert!(st.success());
        let st = Command::new("tmux")
            .args(["send-keys", "-t", &self.0, "Enter"])
            .status()
            .unwrap();
        assert!(st.success());
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.0])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until the screen contains `text`; returns the screen.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "waited for {text:?}; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The pid of the program running in the pane's shell.
    fn child_pid(&self) -> Option<u32> {
        let out = Command::new("tmux")
            .args(["display", "-p", "-t", &self.0, "#{pane_pid}"])
            .output()
            .ok()?;
        let shell = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        let tasks = std::fs::read_dir(format!("/proc/{shell}/task")).ok()?;
        for t in tasks.flatten() {
            let children = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
            if let Some(pid) = children.split_whitespace().next() {
                return pid.parse().ok();
            }
        }
        None
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.0])
            .status();
    }
}

/// A message of the German locale: fide's words are German and so are its
/// messages (they come from de), so the expected fide screen is read there.
fn de(key: &str, args: &[(&str, &str)]) -> String {
    annabella::locale::builtin("de")
        .expect("de locale")
        .message(key, args)
}

/// The German message `key` up to the placeholder `{stop}`.
fn de_until(key: &str, args: &[(&str, &str)], stop: &str) -> String {
    let text = de(key, args);
    let stop = format!("{{{stop}}}");
    text.split(&stop).next().unwrap_or_default().to_owned()
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_annabella")
}

#[test]
fn a_game_on_the_full_screen() {
    if !tmux_available() {
        return;
    }
    let s = Session::start("game");
    s.keys(&format!(
        "{} -l fide --control 5m --silent; echo EXITED $?",
        bin()
    ));
    // fide speaks German: the texts are the de locale's.
    let (white, black) = (de("side.white", &[]), de("side.black", &[]));
    let (white, black) = (white.as_str(), black.as_str());
    let board_title = de("ui.label.board_of", &[("side", white)]);
    let moved = |mv: &str| de("ui.moved", &[("side", white), ("move", mv)]);
    s.wait_for(&format!("┌{board_title}"));
    s.keys("Eva vier");
    s.wait_for(&moved("Eva vier"));
    s.keys("press");
    s.wait_for(&de("ui.pressed", &[("side", white), ("next", black)]));
    s.keys("Eva fuenf");
    s.keys("press");
    s.keys("Springer Gustav eins Felix drei");
    let screen = s.wait_for(&moved("Springer Felix drei"));
    // White's board from White's side, Black's board from Black's side.
    assert!(screen.contains("│5 . . . . b . . . 5 │"), "{screen}");
    assert!(screen.contains("│4 . . . . B . . . 4 │"), "{screen}");
    assert!(screen.contains("│3 . . . . . S . . 3 │"), "{screen}");
    assert!(screen.contains("│3 . . S . . . . . 3 │"), "{screen}");
    let unpressed = format!("({})", de("ui.label.unpressed", &[]));
    assert!(screen.contains(&unpressed), "{screen}");
    // Both scoresheets.
    assert_eq!(screen.matches("1. e4 e5").count(), 2, "{screen}");
    s.keys("press");
    s.keys("time");
    let time_of = |side: &str| de_until("clock.time", &[("side", side)], "time");
    let screen = s.wait_for(&format!("{}4:", time_of(white)));
    assert!(
        screen.contains(&format!("{}4:", time_of(black))),
        "{screen}"
    );
    s.keys("resign");
    s.wait_for(&de(
        "result.resignation",
        &[("loser", black), ("winner", white)],
    ));
    s.keys("quit");
    s.wait_for(de_until("ui.quit_confirm", &[], "yes").trim_end());
    s.keys("yes");
    let screen = s.wait_for("EXITED 0");
    // The main screen is back: the board is gone.
    assert!(!screen.contains(&board_title), "{screen}");
}

#[test]
fn sigterm_restores_the_terminal() {
    if !tmux_available() {
        return;
    }
    let s = Session::start("term");
    s.keys(&format!("{} -l en --silent; echo EXITED $?", bin()));
    s.wait_for("┌White's board");
    let pid = s.child_pid().expect("the program runs in the pane");
    let st = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let screen = s.wait_for("EXITED");
    assert!(!screen.contains("White's board"), "{screen}");
    // Line discipline back to normal: canonical mode and echo on.
    s.keys("stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo :ST''TY");
    let screen = s.wait_for(":STTY\n");
    assert!(screen.contains("icanon echo :STTY"), "{screen}");
}
