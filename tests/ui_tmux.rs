//! End to end: the real binary's full screen in tmux (100×30): a game in
//! Appendix D words on two boards, a mismatch shown and corrected by the
//! arbiter, clock query, resignation, quit, the journal replayed; and the
//! terminal is restored after SIGTERM.
//!
//! Skips (with a printed reason) when tmux is missing, unless
//! ANNABELLA_REQUIRE_E2E=1.

mod common;

use common::{de, de_until};

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

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_annabella")
}

#[test]
fn a_game_on_the_full_screen() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let s = Session::start("game");
    s.keys(&format!(
        "{} -l fide --control 5m --silent --journal {}; echo EXITED $?",
        bin(),
        journal.display()
    ));
    // fide speaks German: the texts are the de locale's.
    let (white, black) = (de("side.white", &[]), de("side.black", &[]));
    let (white, black) = (white.as_str(), black.as_str());
    let board_title = de("ui.label.board_of", &[("side", white)]);
    let announced = |n: &str, side: &str, mv: &str| {
        de(
            "mirror.announced",
            &[("number", n), ("side", side), ("move", mv)],
        )
    };
    let executed = |side: &str, mv: &str, next: &str| {
        de(
            "mirror.executed",
            &[("side", side), ("move", mv), ("next", next)],
        )
    };
    s.wait_for(&format!("┌{board_title}"));
    s.keys("Eva vier");
    s.wait_for(&announced("1", white, "Eva vier"));
    s.keys("press");
    // White pressed: Black is told to make the move on his board.
    s.wait_for(&de_until("mirror.pressed", &[("side", white)], "time"));
    s.keys("Eva vier");
    s.wait_for(&executed(black, "Eva vier", black));
    for l in ["Eva fuenf", "press", "Eva fuenf"] {
        s.keys(l);
    }
    s.wait_for(&executed(white, "Eva fuenf", white));
    s.keys("Springer Gustav eins Felix drei");
    let screen = s.wait_for(&announced("2", white, "Springer Felix drei"));
    // White's board from White's side, Black's board from Black's side;
    // the knight is on White's board only, not yet pressed.
    assert!(screen.contains("│5 . . . . b . . . 5 │"), "{screen}");
    assert!(screen.contains("│4 . . . . B . . . 4 │"), "{screen}");
    assert!(screen.contains("│3 . . . . . S . . 3 │"), "{screen}");
    assert!(!screen.contains("│3 . . S . . . . . 3 │"), "{screen}");
    let unpressed = format!("({})", de("ui.label.unpressed", &[]));
    assert!(screen.contains(&unpressed), "{screen}");
    // Both scoresheets.
    assert_eq!(screen.matches("1. e4 e5").count(), 2, "{screen}");
    s.keys("press");
    // Black makes a different move on his board: d4 instead of Nf3.
    s.keys("David vier");
    let differ = de_until(
        "mirror.boards_differ",
        &[("number", "2"), ("side", white)],
        "black",
    );
    let screen = s.wait_for(differ.trim_end());
    // Shown on both boards and in words, not by colour.
    assert!(
        screen.contains(&de("ui.label.mismatch", &[("number", "2")])),
        "{screen}"
    );
    assert_eq!(screen.matches("!= 2 !=").count(), 2, "{screen}");
    assert!(screen.contains("│4 . . . B B . . . 4 │"), "{screen}");
    // The clock on request.
    s.keys("zeit");
    let time_of = |side: &str| de_until("clock.time", &[("side", side)], "time");
    s.wait_for(&format!("{}4:", time_of(white)));
    // The arbiter corrects Black's board from the scoresheets.
    s.keys("schiedsrichter");
    s.keys("korrigieren");
    let screen = s.wait_for(&de_until("mirror.corrected_board", &[], "boards"));
    assert!(!screen.contains("!= 2 !="), "{screen}");
    assert!(screen.contains("│4 . . . B . . . . 4 │"), "{screen}");
    assert!(screen.contains("│3 . . S . . . . . 3 │"), "{screen}");
    s.keys("zurück");
    s.wait_for(&de("ui.arbiter_back", &[]));
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
    // Everything is in the journal: it replays to the same end.
    let loaded = annabella::journal::read(&journal).expect("the journal reads");
    let config = annabella::journal::config_of(&loaded.header).unwrap();
    let vocab = annabella::vocab::Vocabulary::builtin("fide").unwrap();
    let m = annabella::journal::replay(vocab, config, &loaded.records).expect("replays");
    assert!(m.mismatch().is_none());
    assert_eq!(m.board(shakmaty::Color::Black).moves().len(), 3);
    assert_eq!(
        m.result().and_then(|r| r.winner),
        Some(shakmaty::Color::White)
    );
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
