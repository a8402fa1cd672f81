//! Every procedure of the game layer, in every front end that types
//! commands: the `play` script and the play screen in plain lines (the full
//! screen runs the same model: tests/ui_tmux.rs). Each step's answer is
//! checked against the locale's message (fide speaks German: de), filled
//! with what the step knows; what it cannot know (clock times) is matched
//! as a placeholder (`common::fits`). This is the README's procedure
//! table, cell by cell.

mod common;

use common::{de, de_word, fits, run_with_input};

fn white() -> String {
    de("side.white", &[])
}

fn black() -> String {
    de("side.black", &[])
}

/// Requires a line that fits the message `key` with `args` filled in.
fn expect(lines: &[String], what: &str, key: &str, args: &[(&str, &str)]) {
    let template = de(key, args);
    assert!(
        lines.iter().any(|l| fits(l, &template)),
        "{what}: no line fits {template:?} in {lines:#?}"
    );
}

fn play(script: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let journal = dir.path().join("g.jsonl");
    let args = [
        "play",
        "--script",
        "-",
        "--control",
        "90m",
        "--journal",
        journal.to_str().expect("a UTF-8 path"),
    ];
    let (lines, _) = run_with_input(&args, script);
    // The journal replays to the same end (every procedure is a record).
    let (again, _) = run_with_input(
        &["export", "--format", "json", journal.to_str().unwrap_or("")],
        "",
    );
    assert!(
        again.iter().any(|l| l.contains("white_board")),
        "{again:#?}"
    );
    lines
}

#[test]
fn the_play_script_runs_every_procedure() {
    let (w, b) = (white(), black());
    let lines = play(
        "time 1\n\
         white board: e4\n\
         takeback\n\
         white board: e4\n\
         announce: d4\n\
         announce\n\
         white offer draw\n\
         press\n\
         black repeat\n\
         black board: e4\n\
         black decline draw\n\
         white sheet: e4 (=)\n\
         black sheet: e4 (=)\n\
         black board: e5\n\
         announce\n\
         press\n\
         white board: d5\n\
         white sheet: e5\n\
         black sheet: e5\n\
         arbiter: correct\n\
         white touch: g1\n\
         white board: Nf3\n\
         announce\n\
         press\n\
         black board: Nf3\n\
         arbiter: pause\n\
         arbiter: resume\n\
         arbiter: add white 1m\n\
         arbiter: remove black 30s\n\
         arbiter: set white 1:20:00\n\
         arbiter: penalty black\n\
         black claim\n\
         seal: Nc6 @ tomorrow 10:00, hall B\n\
         press\n\
         present\n\
         open seal\n\
         white board: Nc6\n\
         clock\n\
         status\n\
         white resign\n",
    );
    let e4 = "Bauer Eva zwei Eva vier";
    expect(&lines, "made", "mirror.made", &[("side", &w), ("move", e4)]);
    expect(&lines, "taken back", "mirror.taken_back", &[("side", &w)]);
    expect(&lines, "slip", "mirror.slip", &[("side", &w), ("move", e4)]);
    expect(
        &lines,
        "slip corrected",
        "mirror.slip_corrected",
        &[("number", "1"), ("side", &w), ("move", e4)],
    );
    expect(
        &lines,
        "draw offered",
        "mirror.draw_offered",
        &[("side", &w)],
    );
    expect(
        &lines,
        "pressed",
        "mirror.pressed",
        &[("side", &w), ("move", e4)],
    );
    expect(
        &lines,
        "repeated",
        "mirror.repeated",
        &[("side", &b), ("move", e4)],
    );
    expect(
        &lines,
        "executed",
        "mirror.executed",
        &[("side", &b), ("move", e4)],
    );
    expect(&lines, "declined", "mirror.draw_declined", &[("side", &b)]);
    expect(
        &lines,
        "scoresheet with (=)",
        "mirror.sheet_recorded",
        &[("sheet", &w), ("number", "1"), ("offer", " (=)")],
    );
    expect(
        &lines,
        "boards differ",
        "mirror.boards_differ",
        &[
            ("number", "1"),
            ("side", &b),
            ("correct", "arbiter: correct"),
            ("pause", "arbiter: pause"),
        ],
    );
    expect(&lines, "corrected", "mirror.corrected_board", &[]);
    expect(&lines, "touched", "mirror.touched", &[("side", &w)]);
    expect(
        &lines,
        "paused",
        "game.paused",
        &[("resume", "arbiter: resume")],
    );
    expect(&lines, "resumed", "clock.resumed", &[]);
    expect(&lines, "added", "mirror.adjust_add", &[("side", &w)]);
    expect(&lines, "removed", "mirror.adjust_remove", &[("side", &b)]);
    expect(
        &lines,
        "penalty",
        "penalty.illegal_move",
        &[("side", &b), ("opponent", &w)],
    );
    expect(&lines, "claim", "ui.claim_rejected", &[("side", &b)]);
    expect(&lines, "sealed", "mirror.sealed", &[("side", &b)]);
    expect(&lines, "present", "mirror.present", &[("side", &w)]);
    expect(&lines, "opened", "mirror.seal_opened", &[]);
    // Both clocks, then the time each has used (D.2.10.4).
    let reading = format!(
        "{} {} {}",
        de("mirror.clock_reading", &[]),
        de("clock.time_used", &[("side", &w)]),
        de("clock.time_used", &[("side", &b)])
    );
    assert!(
        lines.iter().any(|l| fits(l, &reading)),
        "clock: no line fits {reading:?} in {lines:#?}"
    );
    expect(&lines, "state", "journal.state", &[]);
    expect(
        &lines,
        "resigned",
        "result.resignation",
        &[("loser", &w), ("winner", &b)],
    );
    // Every line was accepted: no refusal.
    let refused = de("play.line_error", &[]);
    let head = refused.split('{').next().unwrap_or_default();
    assert!(
        !lines.iter().any(|l| l.starts_with(head)),
        "a line was refused: {lines:#?}"
    );
}

#[test]
fn the_plain_play_screen_runs_every_procedure() {
    let (w, b) = (white(), black());
    let word = de_word;
    let arbiter_word = |key: &str| word(key);
    let input = [
        "e4".to_owned(),
        word("ui.cmd.takeback"),
        "e4".to_owned(),
        word("ui.cmd.draw"),
        word("ui.cmd.yes"),
        word("ui.cmd.press"),
        "e4".to_owned(),
        word("ui.cmd.decline"),
        "e5".to_owned(),
        word("ui.cmd.press"),
        "d5".to_owned(),
        arbiter_word("ui.cmd.correct"),
        format!("{} g1", word("ui.cmd.touch")),
        "Nf3".to_owned(),
        word("ui.cmd.press"),
        "Nf3".to_owned(),
        word("ui.cmd.pause"),
        word("ui.cmd.resume"),
        format!("{} {} 60", word("ui.cmd.add"), word("ui.cmd.white")),
        format!("{} {} 30", word("ui.cmd.remove"), word("ui.cmd.black")),
        format!("{} {} 1:20:00", word("ui.cmd.set"), word("ui.cmd.white")),
        format!("{} {}", word("ui.cmd.penalty"), word("ui.cmd.black")),
        word("ui.cmd.claim"),
        word("ui.cmd.yes"),
        format!("{} Nc6 @ morgen 10 Uhr", word("ui.cmd.seal")),
        word("ui.cmd.press"),
        word("ui.cmd.present"),
        word("ui.cmd.open_seal"),
        "Nc6".to_owned(),
        word("ui.cmd.time"),
        word("ui.cmd.count"),
        format!("{} {}", word("ui.cmd.sheet"), word("ui.cmd.black")),
        word("ui.cmd.resign"),
        word("ui.cmd.yes"),
    ]
    .join("\n")
        + "\n";
    let (lines, _) = run_with_input(&["--plain", "--control", "90m"], &input);
    let e4 = "Bauer Eva vier";
    expect(&lines, "announced", "mirror.announced", &[("side", &w)]);
    expect(
        &lines,
        "taken back",
        "ui.taken_back",
        &[("side", &w), ("move", "Eva vier")],
    );
    let _ = e4;
    expect(&lines, "draw offered", "ui.draw_offered", &[("side", &w)]);
    expect(&lines, "pressed", "mirror.pressed", &[("side", &w)]);
    expect(&lines, "executed", "mirror.executed", &[("side", &b)]);
    expect(&lines, "declined", "mirror.draw_declined", &[("side", &b)]);
    expect(
        &lines,
        "boards differ",
        "mirror.boards_differ",
        &[
            ("number", "1"),
            ("side", &b),
            (
                "correct",
                &format!("{} {}", word("ui.cmd.arbiter"), word("ui.cmd.correct")),
            ),
            (
                "pause",
                &format!("{} {}", word("ui.cmd.arbiter"), word("ui.cmd.pause")),
            ),
        ],
    );
    expect(&lines, "corrected", "mirror.corrected_board", &[]);
    expect(&lines, "touched", "mirror.touched", &[("side", &w)]);
    expect(
        &lines,
        "paused",
        "game.paused",
        &[(
            "resume",
            &format!("{} {}", word("ui.cmd.arbiter"), word("ui.cmd.resume")),
        )],
    );
    expect(&lines, "resumed", "clock.resumed", &[]);
    expect(&lines, "added", "mirror.adjust_add", &[("side", &w)]);
    expect(&lines, "removed", "mirror.adjust_remove", &[("side", &b)]);
    expect(
        &lines,
        "penalty",
        "penalty.illegal_move",
        &[("side", &b), ("opponent", &w)],
    );
    expect(
        &lines,
        "claim confirmed",
        "ui.confirm_claim",
        &[("side", &b)],
    );
    expect(&lines, "claim", "ui.claim_rejected", &[("side", &b)]);
    expect(&lines, "sealed", "mirror.sealed", &[("side", &b)]);
    expect(
        &lines,
        "present",
        "mirror.present",
        &[("side", &w), ("open_seal", &word("ui.cmd.open_seal"))],
    );
    expect(&lines, "opened", "mirror.seal_opened", &[]);
    expect(&lines, "scoresheet", "ui.sheet", &[("sheet", &b)]);
    expect(&lines, "resign said back", "ui.confirm_resign", &[]);
    let resigned = de("result.resignation", &[("winner", &b), ("loser", &w)]);
    expect(
        &lines,
        "resigned",
        "ui.game_over",
        &[
            ("result", &resigned),
            ("save", &word("ui.cmd.save")),
            ("quit", &word("ui.cmd.quit")),
            ("review", &word("ui.cmd.review")),
        ],
    );
}
