//! Issue 24 on the full screen (the real binary in tmux at 80×24): the
//! rule for questions, and the commands blind players asked for (fen,
//! last five, the scans, the alarm), typed as on the plain screen, in
//! fide's (German) and Korean words.

mod common;

use std::process::Command;

use common::tmux::{Session, tmux_available};

fn msg(code: &str, key: &str, args: &[(&str, &str)]) -> String {
    let code = if code == "fide" { "de" } else { code };
    annabella::locale::builtin(code).unwrap().message(key, args)
}

fn word(code: &str, key: &str) -> String {
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
    for code in ["fide", "ko"] {
        let dir = tempfile::tempdir().unwrap();
        let journal = dir.path().join("game.jsonl");
        let s = small(&format!("friction-{code}"));
        s.keys(&format!(
            "XDG_CONFIG_HOME={0} XDG_DATA_HOME={0} {1} -l {code} --control 5m --silent --journal {2}; echo EXITED $?",
            dir.path().display(),
            common::bin(),
            journal.display()
        ));
        let w = |k: &str| word(code, k);
        let board = msg(
            code,
            "ui.label.board_of",
            &[("side", &msg(code, "side.white", &[]))],
        );
        s.wait_for(&board);
        // A question dropped by another command, which is carried out.
        s.keys(&w("ui.cmd.resign"));
        s.keys(&w("ui.cmd.count"));
        let dropped = msg(
            code,
            "ui.question_dropped",
            &[("yes", &w("ui.cmd.yes")), ("no", &w("ui.cmd.no"))],
        );
        let head = dropped.split(':').next().unwrap();
        s.wait_for(head);
        // The position in FEN after 1. e4.
        s.keys("e4");
        s.keys(&w("ui.cmd.press"));
        s.keys("e4");
        s.keys(&w("ui.cmd.fen"));
        s.wait_for("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        // The last moves, said in words.
        s.keys(&w("ui.cmd.last_five"));
        let last = msg(code, "ui.last_moves", &[("moves", "")]);
        s.wait_for(last.split(':').next().unwrap());
        // The alarm, set in play.
        s.keys(&format!("{} 2m", w("ui.cmd.alarm")));
        let warnings = msg(code, "ui.alarm_warnings", &[("times", "2:00")]);
        s.wait_for(&warnings);
        // Quit: yes.
        s.keys(&w("ui.cmd.quit"));
        s.keys(&w("ui.cmd.yes"));
        s.wait_for("EXITED 0");
    }
}
