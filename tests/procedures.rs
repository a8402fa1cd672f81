//! Every procedure of the game layer, in every front end that types
//! commands: the `play` script and the play screen in plain lines (the full
//! screen runs the same model: tests/ui_tmux.rs). Each step's answer is
//! checked against the locale's message (fide speaks German: de), filled
//! with what the step knows; what it cannot know (clock times) is matched
//! as a placeholder (`common::fits`). This is the README's procedure
//! table, cell by cell.

mod common;

use annabella::locale::MsgKey;
use common::{de, de_word, fits, run_with_input};

fn white() -> String {
    de(MsgKey::SideWhite, &[])
}

fn black() -> String {
    de(MsgKey::SideBlack, &[])
}

/// Requires a line that fits the message `key` with `args` filled in.
fn expect(lines: &[String], what: &str, key: MsgKey, args: &[(&str, &str)]) {
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
    expect(
        &lines,
        "made",
        MsgKey::MirrorMade,
        &[("side", &w), ("move", e4)],
    );
    expect(
        &lines,
        "taken back",
        MsgKey::MirrorTakenBack,
        &[("side", &w)],
    );
    expect(
        &lines,
        "slip",
        MsgKey::MirrorSlip,
        &[("side", &w), ("move", e4)],
    );
    expect(
        &lines,
        "slip corrected",
        MsgKey::MirrorSlipCorrected,
        &[("number", "1"), ("side", &w), ("move", e4)],
    );
    expect(
        &lines,
        "draw offered",
        MsgKey::MirrorDrawOffered,
        &[("side", &w)],
    );
    expect(
        &lines,
        "pressed",
        MsgKey::MirrorPressed,
        &[("side", &w), ("move", e4)],
    );
    expect(
        &lines,
        "repeated",
        MsgKey::MirrorRepeated,
        &[("side", &b), ("move", e4)],
    );
    expect(
        &lines,
        "executed",
        MsgKey::MirrorExecuted,
        &[("side", &b), ("move", e4)],
    );
    expect(
        &lines,
        "declined",
        MsgKey::MirrorDrawDeclined,
        &[("side", &b)],
    );
    expect(
        &lines,
        "scoresheet with (=)",
        MsgKey::MirrorSheetRecorded,
        &[("sheet", &w), ("number", "1"), ("offer", " (=)")],
    );
    expect(
        &lines,
        "boards differ",
        MsgKey::MirrorBoardsDiffer,
        &[
            ("number", "1"),
            ("side", &b),
            ("correct", "arbiter: correct"),
            ("pause", "arbiter: pause"),
        ],
    );
    expect(&lines, "corrected", MsgKey::MirrorCorrectedBoard, &[]);
    expect(&lines, "touched", MsgKey::MirrorTouched, &[("side", &w)]);
    expect(
        &lines,
        "paused",
        MsgKey::GamePaused,
        &[("resume", "arbiter: resume")],
    );
    expect(&lines, "resumed", MsgKey::ClockResumed, &[]);
    expect(&lines, "added", MsgKey::MirrorAdjustAdd, &[("side", &w)]);
    expect(
        &lines,
        "removed",
        MsgKey::MirrorAdjustRemove,
        &[("side", &b)],
    );
    expect(
        &lines,
        "penalty",
        MsgKey::PenaltyIllegalMove,
        &[("side", &b), ("opponent", &w)],
    );
    expect(&lines, "claim", MsgKey::UiClaimRejected, &[("side", &b)]);
    expect(&lines, "sealed", MsgKey::MirrorSealed, &[("side", &b)]);
    expect(&lines, "present", MsgKey::MirrorPresent, &[("side", &w)]);
    expect(&lines, "opened", MsgKey::MirrorSealOpened, &[]);
    // Both clocks, then the time each has used (D.2.10.4).
    let reading = format!(
        "{} {} {}",
        de(MsgKey::MirrorClockReading, &[]),
        de(MsgKey::ClockTimeUsed, &[("side", &w)]),
        de(MsgKey::ClockTimeUsed, &[("side", &b)])
    );
    assert!(
        lines.iter().any(|l| fits(l, &reading)),
        "clock: no line fits {reading:?} in {lines:#?}"
    );
    expect(&lines, "state", MsgKey::JournalState, &[]);
    expect(
        &lines,
        "resigned",
        MsgKey::ResultResignation,
        &[("loser", &w), ("winner", &b)],
    );
    // Every line was accepted: no refusal.
    let refused = de(MsgKey::PlayLineError, &[]);
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
    let arbiter_word = |key: MsgKey| word(key);
    let input = [
        "e4".to_owned(),
        word(MsgKey::UiCmdTakeback),
        "e4".to_owned(),
        word(MsgKey::UiCmdDraw),
        word(MsgKey::UiCmdYes),
        word(MsgKey::UiCmdPress),
        "e4".to_owned(),
        word(MsgKey::UiCmdDecline),
        "e5".to_owned(),
        word(MsgKey::UiCmdPress),
        "d5".to_owned(),
        arbiter_word(MsgKey::UiCmdCorrect),
        format!("{} g1", word(MsgKey::UiCmdTouch)),
        "Nf3".to_owned(),
        word(MsgKey::UiCmdPress),
        "Nf3".to_owned(),
        word(MsgKey::UiCmdPause),
        word(MsgKey::UiCmdResume),
        format!("{} {} 60", word(MsgKey::UiCmdAdd), word(MsgKey::UiCmdWhite)),
        format!(
            "{} {} 30",
            word(MsgKey::UiCmdRemove),
            word(MsgKey::UiCmdBlack)
        ),
        format!(
            "{} {} 1:20:00",
            word(MsgKey::UiCmdSet),
            word(MsgKey::UiCmdWhite)
        ),
        format!(
            "{} {}",
            word(MsgKey::UiCmdPenalty),
            word(MsgKey::UiCmdBlack)
        ),
        word(MsgKey::UiCmdClaim),
        word(MsgKey::UiCmdYes),
        format!("{} Nc6 @ morgen 10 Uhr", word(MsgKey::UiCmdSeal)),
        word(MsgKey::UiCmdPress),
        word(MsgKey::UiCmdPresent),
        word(MsgKey::UiCmdOpenSeal),
        "Nc6".to_owned(),
        word(MsgKey::UiCmdTime),
        word(MsgKey::UiCmdCount),
        format!("{} {}", word(MsgKey::UiCmdSheet), word(MsgKey::UiCmdBlack)),
        word(MsgKey::UiCmdResign),
        word(MsgKey::UiCmdYes),
    ]
    .join("\n")
        + "\n";
    let (lines, _) = run_with_input(&["--plain", "--control", "90m"], &input);
    let e4 = "Bauer Eva vier";
    expect(
        &lines,
        "announced",
        MsgKey::MirrorAnnounced,
        &[("side", &w)],
    );
    expect(
        &lines,
        "taken back",
        MsgKey::UiTakenBack,
        &[("side", &w), ("move", "Eva vier")],
    );
    let _ = e4;
    expect(
        &lines,
        "draw offered",
        MsgKey::UiDrawOffered,
        &[("side", &w)],
    );
    expect(&lines, "pressed", MsgKey::MirrorPressed, &[("side", &w)]);
    expect(&lines, "executed", MsgKey::MirrorExecuted, &[("side", &b)]);
    expect(
        &lines,
        "declined",
        MsgKey::MirrorDrawDeclined,
        &[("side", &b)],
    );
    expect(
        &lines,
        "boards differ",
        MsgKey::MirrorBoardsDiffer,
        &[
            ("number", "1"),
            ("side", &b),
            (
                "correct",
                &format!(
                    "{} {}",
                    word(MsgKey::UiCmdArbiter),
                    word(MsgKey::UiCmdCorrect)
                ),
            ),
            (
                "pause",
                &format!(
                    "{} {}",
                    word(MsgKey::UiCmdArbiter),
                    word(MsgKey::UiCmdPause)
                ),
            ),
        ],
    );
    expect(&lines, "corrected", MsgKey::MirrorCorrectedBoard, &[]);
    expect(&lines, "touched", MsgKey::MirrorTouched, &[("side", &w)]);
    expect(
        &lines,
        "paused",
        MsgKey::GamePaused,
        &[(
            "resume",
            &format!(
                "{} {}",
                word(MsgKey::UiCmdArbiter),
                word(MsgKey::UiCmdResume)
            ),
        )],
    );
    expect(&lines, "resumed", MsgKey::ClockResumed, &[]);
    expect(&lines, "added", MsgKey::MirrorAdjustAdd, &[("side", &w)]);
    expect(
        &lines,
        "removed",
        MsgKey::MirrorAdjustRemove,
        &[("side", &b)],
    );
    expect(
        &lines,
        "penalty",
        MsgKey::PenaltyIllegalMove,
        &[("side", &b), ("opponent", &w)],
    );
    expect(
        &lines,
        "claim confirmed",
        MsgKey::UiConfirmClaim,
        &[("side", &b)],
    );
    expect(&lines, "claim", MsgKey::UiClaimRejected, &[("side", &b)]);
    expect(&lines, "sealed", MsgKey::MirrorSealed, &[("side", &b)]);
    expect(
        &lines,
        "present",
        MsgKey::MirrorPresent,
        &[("side", &w), ("open_seal", &word(MsgKey::UiCmdOpenSeal))],
    );
    expect(&lines, "opened", MsgKey::MirrorSealOpened, &[]);
    expect(&lines, "scoresheet", MsgKey::UiSheet, &[("sheet", &b)]);
    expect(&lines, "resign said back", MsgKey::UiConfirmResign, &[]);
    let resigned = de(MsgKey::ResultResignation, &[("winner", &b), ("loser", &w)]);
    expect(
        &lines,
        "resigned",
        MsgKey::UiGameOver,
        &[
            ("result", &resigned),
            ("save", &word(MsgKey::UiCmdSave)),
            ("quit", &word(MsgKey::UiCmdQuit)),
            ("review", &word(MsgKey::UiCmdReview)),
        ],
    );
}
