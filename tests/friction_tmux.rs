//! Issue 24 on the full screen (the real binary in tmux at 80×24): the
//! rule for questions, and the commands blind players asked for (fen,
//! last five, the scans, the alarm), typed as on the plain screen, in
//! fide's (German), Korean and Arabic words.

mod common;

use annabella::locale::MsgKey;
use std::process::Command;

use common::tmux::{Session, tmux_available};

fn msg(code: &str, key: MsgKey, args: &[(&str, &str)]) -> String {
    let code = if code == "fide" { "de" } else { code };
    annabella::locale::builtin(code).unwrap().message(key, args)
}

fn word(code: &str, key: MsgKey) -> String {
    msg(code, key, &[]).split('|').next().unwrap().to_owned()
}

/// A session of 80×24 columns and lines.
fn small(tag: &str) -> Session {
    let s = Session::start(tag);
    let ok = Command::new("tmux")
        .args(["resize-window", "-t", &s.0, "-x", "80", "-y", "24"])
        .status()
        .is_ok_and(|st| st.success());
    assert!(ok, "tmux resize-window");
    s
}

#[test]
fn questions_and_the_new_commands_on_the_full_screen() {
    if !tmux_available() {
        return;
    }
    for code in ["fide", "ko", "ar"] {
        let dir = tempfile::tempdir().unwrap();
        let journal = dir.path().join("game.jsonl");
        let s = small(&format!("friction-{code}"));
        s.keys(&format!(
            "XDG_CONFIG_HOME={0} XDG_DATA_HOME={0} {1} -l {code} --control 5m --silent --journal {2}; echo EXITED $?",
            dir.path().display(),
            common::bin(),
            journal.display()
        ));
        let w = |k: MsgKey| word(code, k);
        // The clock's title: a short one, whole at 80 columns in every
        // locale (the boards' titles are cut in Arabic: issue 24, item 9).
        s.wait_for(&format!("┌{}", msg(code, MsgKey::UiLabelClock, &[])));
        // A question dropped by another command, which is carried out.
        s.keys(&w(MsgKey::UiCmdResign));
        s.keys(&w(MsgKey::UiCmdCount));
        let dropped = msg(
            code,
            MsgKey::UiQuestionDropped,
            &[("yes", &w(MsgKey::UiCmdYes)), ("no", &w(MsgKey::UiCmdNo))],
        );
        let head = dropped.split(':').next().unwrap();
        s.wait_for(head);
        // The position in FEN after 1. e4.
        s.keys("e4");
        s.keys(&w(MsgKey::UiCmdPress));
        s.keys("e4");
        s.keys(&w(MsgKey::UiCmdFen));
        s.wait_for("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        // The last moves, said in words.
        s.keys(&w(MsgKey::UiCmdLastFive));
        let last = msg(code, MsgKey::UiLastMoves, &[("moves", "")]);
        s.wait_for(last.split(':').next().unwrap());
        // The alarm, set in play.
        s.keys(&format!("{} 2m", w(MsgKey::UiCmdAlarm)));
        let warnings = msg(code, MsgKey::UiAlarmWarnings, &[("times", "2:00")]);
        s.wait_for(&warnings);
        // Quit: yes.
        s.keys(&w(MsgKey::UiCmdQuit));
        s.keys(&w(MsgKey::UiCmdYes));
        s.wait_for("EXITED 0");
    }
}

/// A tmux server of its own (its settings and paste buffers are nobody
/// else's), killed when dropped.
struct OwnServer(String);

impl OwnServer {
    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.0, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn send(&self, text: &str) {
        self.run(&["send-keys", "-t", "clip", "-l", text]);
        self.run(&["send-keys", "-t", "clip", "Enter"]);
    }

    /// Waits until `what` of the server holds; says what it last saw.
    fn wait(&self, what: &str, until: impl Fn(&str) -> bool, read: impl Fn() -> String) {
        let start = std::time::Instant::now();
        loop {
            let seen = read();
            if until(&seen) {
                return;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(20),
                "waited for {what}; saw {seen:?}; screen:\n{}",
                self.run(&["capture-pane", "-p", "-t", "clip"])
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.0, "kill-server"])
            .status();
    }
}

#[test]
fn fen_on_the_full_screen_is_put_on_the_terminals_clipboard() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let tmux = OwnServer(format!("annabella-clip-{}", std::process::id()));
    tmux.run(&[
        "new-session",
        "-d",
        "-x",
        "80",
        "-y",
        "24",
        "-s",
        "clip",
        "env",
        "PS1=$ ",
        "bash",
        "--norc",
        "--noprofile",
    ]);
    // The terminal lets programs set its clipboard (OSC 52), as xterm,
    // kitty or foot do; tmux keeps what it is given as a paste buffer.
    tmux.run(&["set-option", "-s", "set-clipboard", "on"]);
    tmux.send(&format!(
        "XDG_CONFIG_HOME={0} XDG_DATA_HOME={0} {1} -l ko --control 5m --silent",
        dir.path().display(),
        common::bin()
    ));
    let board = msg(
        "ko",
        MsgKey::UiLabelBoardOf,
        &[("side", &msg("ko", MsgKey::SideWhite, &[]))],
    );
    let screen = || tmux.run(&["capture-pane", "-p", "-t", "clip"]);
    tmux.wait("the board", |s| s.contains(&board), screen);
    tmux.send("e4");
    tmux.send(&word("ko", MsgKey::UiCmdPress));
    tmux.send("e4");
    tmux.send(&word("ko", MsgKey::UiCmdFen));
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let buffer = || {
        Command::new("tmux")
            .args(["-L", &tmux.0, "show-buffer"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    };
    tmux.wait("the position on the clipboard", |b| b == fen, buffer);
}
