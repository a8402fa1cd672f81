//! Guideline III (games without increment, quickplay finishes), end to end:
//! the real binary in `play` (script, injected game time), on the play
//! screen (`--plain`, real time) and as the standalone clock. Every
//! expected sentence is read from the German locale data (fide speaks
//! German), never from the code under test.

mod common;

use annabella::locale::MsgKey;
use common::{de, de_word, fits};

fn white() -> String {
    de(MsgKey::SideWhite, &[])
}

fn black() -> String {
    de(MsgKey::SideBlack, &[])
}

/// A refusal of script line `n`.
fn line_error(n: u32, error: &str) -> String {
    de(
        MsgKey::PlayLineError,
        &[("line", &n.to_string()), ("error", error)],
    )
}

/// `annabella play` in the fide locale with a 15-minute rapid game (or
/// `control`), Guideline III announced, the script on standard input.
fn play_in(journal: &std::path::Path, control: &str, extra: &[&str], script: &str) -> Vec<String> {
    let journal = journal.to_str().expect("a UTF-8 path");
    let mut args = vec![
        "play",
        "--script",
        "-",
        "--journal",
        journal,
        "--control",
        control,
        "-l",
        "fide",
    ];
    args.extend_from_slice(extra);
    common::run_with_input(&args, script).0
}

fn play(control: &str, extra: &[&str], script: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    play_in(&dir.path().join("g.jsonl"), control, extra, script)
}

/// The play screen in plain lines, fide words, a 15-minute game (or as
/// `args` say) with Guideline III announced.
fn screen(args: &[&str], script: &str) -> Vec<String> {
    let mut all = vec!["--plain", "-l", "fide", "--quickplay"];
    all.extend_from_slice(args);
    common::run_with_input(&all, script).0
}

/// The expected lines appear in this order (others may come between).
fn in_order(lines: &[String], expected: &[String]) {
    let mut at = 0;
    for e in expected {
        match lines[at..].iter().position(|l| l == e) {
            Some(k) => at += k + 1,
            None => panic!("missing (in this order): {e}\nin: {lines:#?}"),
        }
    }
}

/// The screen's first spelling of a command.
fn word(key: MsgKey) -> String {
    de_word(key)
}

/// How the screen's messages name an arbiter's command: with the arbiter
/// menu's word first, given on one line.
fn arbiter_word(key: MsgKey) -> String {
    format!("{} {}", de_word(MsgKey::UiCmdArbiter), de_word(key))
}

/// The screen's line giving White 1:30 (the arbiter sets the clock).
fn white_low() -> String {
    format!(
        "{} {} 1:30\n",
        word(MsgKey::UiCmdSet),
        word(MsgKey::UiCmdWhite)
    )
}

/// The screen's lines with which III.4 is asked for, the draw it offers
/// declined and the increment refused by the arbiter: III.4 cannot be
/// applied, so III.5 may (2023 wording).
fn increment_refused() -> String {
    format!(
        "{}\n{}\n{}\n",
        word(MsgKey::UiCmdRequestIncrement),
        word(MsgKey::UiCmdDecline),
        word(MsgKey::UiCmdRefuseIncrement)
    )
}

/// "2 Minuten": the locale's counted words (German plural "other").
fn two_minutes() -> String {
    de(MsgKey::TimeMinutesOther, &[("n", "2")])
}

/// "5 Sekunden".
fn five_seconds() -> String {
    de(MsgKey::TimeSecondsOther, &[("n", "5")])
}

/// A result message of a game White claimed or lost (Black the opponent).
fn white_result(key: MsgKey) -> String {
    let (w, b) = (white(), black());
    de(
        key,
        &[("side", &w), ("winner", &b), ("loser", &w), ("by", &w)],
    )
}

/// The arbiter's decision on White's claim that gives Black two minutes.
fn two_minutes_for_black(key: MsgKey) -> String {
    de(
        key,
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("minutes", &two_minutes()),
        ],
    )
}

/// The increment White asked for, granted: two minutes for Black.
fn granted() -> String {
    de(
        MsgKey::QuickplayIncrementGranted,
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("seconds", &five_seconds()),
            ("minutes", &two_minutes()),
        ],
    )
}

/// The state at move 1 after Black received two minutes: White 1:30,
/// Black 17:00.
fn state_black_two_more() -> String {
    de(
        MsgKey::JournalState,
        &[
            ("number", "1"),
            ("side", &white()),
            ("white", "1:30"),
            ("black", "17:00"),
        ],
    )
}

// ---- play (script) ----

#[test]
fn guideline_iii_2_1_only_when_announced_in_play() {
    let lines = play("15m", &[], "time 13:30\nwhite request increment\n");
    in_order(
        &lines,
        &[line_error(2, &de(MsgKey::QuickplayErrNotAnnounced, &[]))],
    );
}

#[test]
fn guideline_iii_2_2_not_in_blitz_nor_with_increment_in_play() {
    let lines = play("5m", &["--quickplay"], "time 4:00\nwhite claim no effort\n");
    in_order(
        &lines,
        &[line_error(2, &de(MsgKey::QuickplayErrBlitz, &[]))],
    );
    let lines = play(
        "15m+10s",
        &["--quickplay"],
        "time 13:30\nwhite request increment\n",
    );
    in_order(
        &lines,
        &[line_error(2, &de(MsgKey::QuickplayErrIncrement, &[]))],
    );
}

#[test]
fn guideline_iii_4_increment_for_both_in_play() {
    let script = "\
time 12:00
white request increment
time 13:30
black request increment
white request increment
arbiter: grant increment
black decline draw
arbiter: grant increment
status
time 13:40
white board: e4
announce
press
";
    let lines = play("15m", &["--quickplay"], script);
    let (w, b) = (white(), black());
    let requested = de(
        MsgKey::QuickplayIncrementRequested,
        &[
            ("side", &w),
            ("opponent", &b),
            ("seconds", &five_seconds()),
            ("accept", "accept draw"),
            ("decline", "decline draw"),
            ("grant", "arbiter: grant increment"),
            ("refuse", "arbiter: refuse increment"),
        ],
    );
    in_order(
        &lines,
        &[
            // Three minutes left: not yet.
            line_error(
                2,
                &de(
                    MsgKey::QuickplayErrTimeLeft,
                    &[("side", &w), ("time", "3:00")],
                ),
            ),
            // Only the player having the move.
            line_error(
                4,
                &de(
                    MsgKey::QuickplayErrNotToMove,
                    &[("side", &b), ("mover", &w)],
                ),
            ),
            requested,
            // The arbiter waits for the answer to the draw offer.
            line_error(
                6,
                &de(
                    MsgKey::QuickplayErrOfferOpen,
                    &[
                        ("side", &w),
                        ("opponent", &b),
                        ("accept", "accept draw"),
                        ("decline", "decline draw"),
                    ],
                ),
            ),
            de(MsgKey::MirrorDrawDeclined, &[("side", &b)]),
            granted(),
            de(MsgKey::ClockResumed, &[("side", &w)]),
            // Black 15 + 2 minutes; White's time stood while stopped.
            state_black_two_more(),
        ],
    );
    // Ten seconds for the move, five back: 1:25.
    let pressed = de(
        MsgKey::MirrorPressed,
        &[("side", &w), ("opponent", &b), ("time", "1:25")],
    );
    assert!(
        lines.iter().any(|l| fits(l, &pressed)),
        "{pressed}\n{lines:#?}"
    );
}

#[test]
fn guideline_iii_5_only_when_iii_4_cannot_be_applied() {
    let w = white();
    let first = de(
        MsgKey::QuickplayErrIncrementFirst,
        &[("side", &w), ("request", "request increment")],
    );
    let lines = play(
        "15m",
        &["--quickplay"],
        "time 13:30
white claim cannot win
",
    );
    in_order(&lines, &[line_error(2, &first)]);
    // Once the arbiter refused the increment, the claim is taken.
    let script = format!(
        "time 13:30\n{}white claim cannot win\n",
        "white request increment\nblack decline draw\narbiter: refuse increment\n"
    );
    let lines = play("15m", &["--quickplay"], &script);
    assert!(!lines.iter().any(|l| l.ends_with(&first)), "{lines:#?}");
    // The play screen: the same, in its own words; nothing is said back.
    let input = format!("{}{}\n", white_low(), word(MsgKey::UiCmdClaimCannotWin));
    let lines = screen(&["--control", "15m"], &input);
    let first = de(
        MsgKey::QuickplayErrIncrementFirst,
        &[
            ("side", &w),
            ("request", &word(MsgKey::UiCmdRequestIncrement)),
        ],
    );
    in_order(&lines, &[first]);
    assert!(
        !lines
            .iter()
            .any(|l| *l == confirm(MsgKey::UiConfirmQuickplayClaim)),
        "{lines:#?}"
    );
}

#[test]
fn guideline_iii_5_1_the_arbiter_agrees_in_play() {
    let script = "\
time 13:30
white request increment
black decline draw
arbiter: refuse increment
white claim cannot win
white board: e4
arbiter: agree
";
    let lines = play("15m", &["--quickplay"], script);
    let (w, b) = (white(), black());
    let grounds = de(MsgKey::QuickplayGroundsCannotWin, &[("opponent", &b)]);
    let verbs = [
        ("agree", "arbiter: agree"),
        ("postpone", "arbiter: postpone 2m"),
        ("reject", "arbiter: reject"),
    ];
    let mut claimed: Vec<(&str, &str)> = vec![("side", &w), ("grounds", &grounds)];
    claimed.extend_from_slice(&verbs);
    let mut pending: Vec<(&str, &str)> = vec![("side", &w)];
    pending.extend_from_slice(&verbs);
    in_order(
        &lines,
        &[
            de(MsgKey::QuickplayClaimed, &claimed),
            // Nothing goes on before the arbiter decides.
            line_error(6, &de(MsgKey::QuickplayErrClaimPending, &pending)),
            white_result(MsgKey::ResultQuickplayClaim),
        ],
    );
}

#[test]
fn guideline_iii_5_2_postponed_then_decided_after_the_flag_in_play() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("g.jsonl");
    let until_flag = "\
time 13:30
white request increment
black decline draw
arbiter: refuse increment
white claim no effort
arbiter: postpone 2m
white board: e4
announce
press
black board: e4
black board: e5
announce
press
time 40:00
white board: e5
";
    let lines = play_in(&journal, "15m", &["--quickplay"], until_flag);
    let (w, b) = (white(), black());
    let flag_fell = de(
        MsgKey::QuickplayFlagFell,
        &[
            ("flagged", &w),
            ("opponent", &b),
            ("claimant", &w),
            ("draw", "arbiter: decide draw"),
            ("loss", "arbiter: decide loss"),
        ],
    );
    in_order(
        &lines,
        &[
            two_minutes_for_black(MsgKey::QuickplayPostponed),
            de(MsgKey::ClockResumed, &[("side", &w)]),
            // White's flag falls at 15:00: the game waits for the arbiter.
            flag_fell.clone(),
            line_error(
                15,
                &de(
                    MsgKey::QuickplayErrAwaitsResult,
                    &[
                        ("flagged", &w),
                        ("claimant", &w),
                        ("draw", "arbiter: decide draw"),
                        ("loss", "arbiter: decide loss"),
                    ],
                ),
            ),
        ],
    );
    // The arbiter declares the draw (the script continues the journal).
    let copy = dir.path().join("copy.jsonl");
    std::fs::copy(&journal, &copy).unwrap();
    let decided = format!("{until_flag}arbiter: decide draw\n");
    let lines = play_in(&journal, "15m", &["--quickplay"], &decided);
    let result = white_result(MsgKey::ResultQuickplayFlag);
    in_order(&lines, std::slice::from_ref(&result));
    // The journal replays on the play screen to the same waiting state,
    // said in the screen's words; there the arbiter lets the flag count.
    let input = format!("{}\n", word(MsgKey::UiCmdDecideLoss));
    let lines = common::run_with_input(&["--plain", "--journal", copy.to_str().unwrap()], &input).0;
    let waiting = de(
        MsgKey::QuickplayFlagFell,
        &[
            ("flagged", &w),
            ("opponent", &b),
            ("claimant", &w),
            ("draw", &arbiter_word(MsgKey::UiCmdDecideDraw)),
            ("loss", &arbiter_word(MsgKey::UiCmdDecideLoss)),
        ],
    );
    let lost = de(MsgKey::ResultTime, &[("winner", &b), ("loser", &w)]);
    in_order(&lines, &[waiting, game_over(&lost)]);
}

#[test]
fn guideline_iii_5_3_rejected_gives_two_minutes_in_play() {
    let script = "\
time 13:30
white request increment
black decline draw
arbiter: refuse increment
white claim cannot win and no effort
arbiter: reject
status
";
    let lines = play("15m", &["--quickplay"], script);
    let (w, b) = (white(), black());
    let grounds = de(MsgKey::QuickplayGroundsBoth, &[("opponent", &b)]);
    let claimed = de(
        MsgKey::QuickplayClaimed,
        &[
            ("side", &w),
            ("grounds", &grounds),
            ("agree", "arbiter: agree"),
            ("postpone", "arbiter: postpone 2m"),
            ("reject", "arbiter: reject"),
        ],
    );
    in_order(
        &lines,
        &[
            claimed,
            two_minutes_for_black(MsgKey::QuickplayRejected),
            de(MsgKey::ClockResumed, &[("side", &w)]),
            state_black_two_more(),
        ],
    );
}

#[test]
fn guideline_iii_6_unsupervised_claim_concludes_the_game_in_play() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("g.jsonl");
    // White thinks 13:30 over his first move; then, Black to move, White
    // claims (III.6.1 does not ask for the player having the move).
    let script = "\
time 13:30
white board: e4
announce
press
black board: e4
white claim no effort
";
    let lines = play_in(&journal, "15m", &["--quickplay", "--unsupervised"], script);
    let (w, b) = (white(), black());
    let grounds = de(MsgKey::QuickplayGroundsNoEffort, &[("opponent", &b)]);
    let duty = de(
        MsgKey::QuickplayDutyScoresheet,
        &[("side", &w), ("opponent", &b)],
    );
    in_order(
        &lines,
        &[
            de(
                MsgKey::QuickplayReferred,
                &[("side", &w), ("grounds", &grounds), ("duty", &duty)],
            ),
            white_result(MsgKey::ResultQuickplayReferred),
        ],
    );
    // No result yet in the PGN: the appointed arbiter decides.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_annabella"))
        .arg("export")
        .arg(&journal)
        .output()
        .unwrap();
    let pgn = String::from_utf8_lossy(&o.stdout);
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(pgn.trim_end().ends_with('*'), "{pgn}");
}

// ---- the play screen (plain lines) ----

#[test]
fn guideline_iii_2_2_not_in_blitz_on_the_screen() {
    let input = format!("{}\n", word(MsgKey::UiCmdClaimNoEffort));
    let lines = screen(&["--control", "5m"], &input);
    in_order(&lines, &[de(MsgKey::QuickplayErrBlitz, &[])]);
}

#[test]
fn guideline_iii_4_increment_for_both_on_the_screen() {
    let input = format!(
        "{}{}\n{}\n{}\n",
        white_low(),
        word(MsgKey::UiCmdRequestIncrement),
        word(MsgKey::UiCmdDecline),
        word(MsgKey::UiCmdGrantIncrement),
    );
    let lines = screen(&["--control", "15m"], &input);
    let (w, b) = (white(), black());
    in_order(
        &lines,
        &[
            de(
                MsgKey::QuickplayIncrementRequested,
                &[
                    ("side", &w),
                    ("opponent", &b),
                    ("seconds", &five_seconds()),
                    ("accept", &word(MsgKey::UiCmdAccept)),
                    ("decline", &word(MsgKey::UiCmdDecline)),
                    ("grant", &arbiter_word(MsgKey::UiCmdGrantIncrement)),
                    ("refuse", &arbiter_word(MsgKey::UiCmdRefuseIncrement)),
                ],
            ),
            de(MsgKey::MirrorDrawDeclined, &[("side", &b)]),
            granted(),
            de(MsgKey::ClockResumed, &[("side", &w)]),
        ],
    );
}

/// The game-over line of the screen for `result`.
fn game_over(result: &str) -> String {
    de(
        MsgKey::UiGameOver,
        &[
            ("result", result),
            ("save", &word(MsgKey::UiCmdSave)),
            ("quit", &word(MsgKey::UiCmdQuit)),
            ("review", &word(MsgKey::UiCmdReview)),
        ],
    )
}

/// The screen's question before White's claim (it cannot be withdrawn).
fn confirm(key: MsgKey) -> String {
    de(
        key,
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("yes", &word(MsgKey::UiCmdYes)),
            ("no", &word(MsgKey::UiCmdNo)),
        ],
    )
}

fn screen_verbs() -> [(&'static str, String); 3] {
    [
        ("agree", arbiter_word(MsgKey::UiCmdAgree)),
        (
            "postpone",
            format!("{} 2m", arbiter_word(MsgKey::UiCmdPostpone)),
        ),
        ("reject", arbiter_word(MsgKey::UiCmdReject)),
    ]
}

fn screen_claimed(grounds_key: MsgKey) -> String {
    let (w, b) = (white(), black());
    let grounds = de(grounds_key, &[("opponent", &b)]);
    let verbs = screen_verbs();
    let mut args: Vec<(&str, &str)> = vec![("side", &w), ("grounds", &grounds)];
    args.extend(verbs.iter().map(|(k, v)| (*k, v.as_str())));
    de(MsgKey::QuickplayClaimed, &args)
}

#[test]
fn guideline_iii_5_1_the_arbiter_agrees_on_the_screen() {
    let input = format!(
        "{}{}\n{}\n{}\n",
        white_low() + &increment_refused(),
        word(MsgKey::UiCmdClaimCannotWin),
        word(MsgKey::UiCmdYes),
        word(MsgKey::UiCmdAgree),
    );
    let lines = screen(&["--control", "15m"], &input);
    let result = white_result(MsgKey::ResultQuickplayClaim);
    in_order(
        &lines,
        &[
            confirm(MsgKey::UiConfirmQuickplayClaim),
            screen_claimed(MsgKey::QuickplayGroundsCannotWin),
            game_over(&result),
        ],
    );
}

#[test]
fn guideline_iii_5_2_postponed_then_agreed_later_on_the_screen() {
    let input = format!(
        "{}{}\n{}\n{} 2m\ne4\n{}\n",
        white_low() + &increment_refused(),
        word(MsgKey::UiCmdClaimNoEffort),
        word(MsgKey::UiCmdYes),
        word(MsgKey::UiCmdPostpone),
        word(MsgKey::UiCmdAgree),
    );
    let lines = screen(&["--control", "15m"], &input);
    let w = white();
    let result = white_result(MsgKey::ResultQuickplayClaim);
    in_order(
        &lines,
        &[
            screen_claimed(MsgKey::QuickplayGroundsNoEffort),
            two_minutes_for_black(MsgKey::QuickplayPostponed),
            de(MsgKey::ClockResumed, &[("side", &w)]),
            game_over(&result),
        ],
    );
    // The game went on between: White's move was announced.
    let announced = de(MsgKey::MirrorAnnounced, &[("number", "1"), ("side", &w)]);
    assert!(
        lines.iter().any(|l| fits(l, &announced)),
        "{announced}\n{lines:#?}"
    );
}

#[test]
fn guideline_iii_5_3_rejected_gives_two_minutes_on_the_screen() {
    // Both grounds: one claim word after the other.
    let input = format!(
        "{}{} {}\n{}\n{}\n",
        white_low() + &increment_refused(),
        word(MsgKey::UiCmdClaimCannotWin),
        word(MsgKey::UiCmdClaimNoEffort),
        word(MsgKey::UiCmdYes),
        word(MsgKey::UiCmdReject),
    );
    let lines = screen(&["--control", "15m"], &input);
    let w = white();
    in_order(
        &lines,
        &[
            screen_claimed(MsgKey::QuickplayGroundsBoth),
            two_minutes_for_black(MsgKey::QuickplayRejected),
            de(MsgKey::ClockResumed, &[("side", &w)]),
        ],
    );
}

#[test]
fn guideline_iii_6_unsupervised_claim_concludes_the_game_on_the_screen() {
    let input = format!(
        "{}{}\n{}\n",
        white_low(),
        word(MsgKey::UiCmdClaimCannotWin),
        word(MsgKey::UiCmdYes),
    );
    let lines = screen(&["--control", "15m", "--unsupervised"], &input);
    let (w, b) = (white(), black());
    let grounds = de(MsgKey::QuickplayGroundsCannotWin, &[("opponent", &b)]);
    let duty = de(
        MsgKey::QuickplayDutyPosition,
        &[("side", &w), ("opponent", &b)],
    );
    let result = white_result(MsgKey::ResultQuickplayReferred);
    in_order(
        &lines,
        &[
            // Without an arbiter the claim ends the game: said back first.
            confirm(MsgKey::UiConfirmQuickplayReferred),
            de(
                MsgKey::QuickplayReferred,
                &[("side", &w), ("grounds", &grounds), ("duty", &duty)],
            ),
            game_over(&result),
        ],
    );
}

// ---- the standalone clock ----

#[test]
fn guideline_iii_4_the_clock_adds_the_increment() {
    let (lines, _) = common::run_with_input(
        &["clock", "--plain", "--control", "15m", "-l", "de"],
        "press\nincrement\nincrement\nquit\n",
    );
    let added = de(MsgKey::ClockIncrementAdded, &[]);
    let at = lines
        .iter()
        .position(|l| fits(l, &added))
        .unwrap_or_else(|| panic!("{added}\n{lines:#?}"));
    // Five seconds, in the clock's words for a number of seconds.
    let five = five_seconds();
    assert!(lines[at].contains(&five), "{five}: {}", lines[at]);
    // A second time: the clock has it already, nothing changes.
    let already = de(MsgKey::ClockIncrementAlready, &[]);
    assert!(fits(&lines[at + 1], &already), "{lines:#?}");
}
