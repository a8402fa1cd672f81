//! The Laws of Chess clause by clause (FIDE 2023 text, the Arabic seed;
//! Appendix D, Articles 5–9, Appendices A and B): each test is named after
//! the clause it shows and runs the real binary, in the `play` script and
//! on the play screen (`--plain`), in a position that shows it. The
//! expected words come from the locale data (fide speaks German: the de
//! messages), never from the program under test.

mod common;

use common::{de, de_until, de_word, run_with_input};

/// The `play` script's output lines, from `fen` (if any) with `control`.
fn play(fen: Option<&str>, control: &str, extra: &[&str], script: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let journal = dir.path().join("g.jsonl");
    let mut args = vec![
        "play",
        "--script",
        "-",
        "--control",
        control,
        "--journal",
        journal.to_str().expect("a UTF-8 path"),
    ];
    if let Some(f) = fen {
        args.extend(["--fen", f]);
    }
    args.extend_from_slice(extra);
    run_with_input(&args, script).0
}

/// The play screen's lines in plain mode.
fn screen(args: &[&str], input: &str) -> Vec<String> {
    let mut all = vec!["--plain"];
    all.extend_from_slice(args);
    run_with_input(&all, input).0
}

fn has(lines: &[String], expected: &str) -> bool {
    lines.iter().any(|l| l == expected)
}

/// The play screen's words when a game is over with `result`.
fn game_over(result: &str) -> String {
    de(
        "ui.game_over",
        &[
            ("result", result),
            ("save", &de_word("ui.cmd.save")),
            ("quit", &de_word("ui.cmd.quit")),
            ("review", &de_word("ui.cmd.review")),
        ],
    )
}

fn position_of(lines: &[String], expected: &str) -> usize {
    lines
        .iter()
        .position(|l| l == expected)
        .unwrap_or_else(|| panic!("no line {expected:?} in {lines:#?}"))
}

fn white() -> String {
    de("side.white", &[])
}

fn black() -> String {
    de("side.black", &[])
}

/// White to play Qb6, which stalemates the king on a8.
const STALEMATE: &str = "k7/2K5/8/8/8/8/8/1Q6 w - - 0 1";
/// White to play Rh8, which mates the king on a8.
const MATE: &str = "k7/8/1K6/8/8/8/8/7R w - - 0 1";

#[test]
fn law_5_2_1_stalemate_ends_the_game_when_the_move_is_made_and_a_later_flag_counts_for_nothing() {
    let lines = play(
        Some(STALEMATE),
        "1m",
        &[],
        "time 1\nwhite board: Qb6\nannounce\npress\ntime 100\nblack board: Qb6\nstatus\n",
    );
    let announced = de(
        "mirror.announced",
        &[
            ("number", "1"),
            ("side", &white()),
            ("move", "Dame Bella eins Bella sechs"),
        ],
    );
    let at = position_of(&lines, &announced);
    // The result is said at once, with the move.
    assert_eq!(lines[at + 1], de("result.stalemate", &[]), "{lines:#?}");
    // No flag falls afterwards: the clocks stopped with the move.
    let flag = de_until("result.time", &[], "loser");
    assert!(!lines.iter().any(|l| l.starts_with(&flag)), "{lines:#?}");
    // The opponent still makes the move on his board.
    assert!(
        has(
            &lines,
            &de(
                "mirror.executed_final",
                &[("side", &black()), ("move", "Dame Bella eins Bella sechs")]
            )
        ),
        "{lines:#?}"
    );
    // Plain play screen: the same.
    let lines = screen(
        &["--fen", STALEMATE, "--control", "1m", "--mode", "hotseat"],
        "Dame Bella sechs\n",
    );
    let announced = de(
        "mirror.announced",
        &[
            ("number", "1"),
            ("side", &white()),
            ("move", "Dame Bella sechs"),
        ],
    );
    let at = position_of(&lines, &announced);
    assert_eq!(lines[at + 1], game_over(&de("result.stalemate", &[])));
}

#[test]
fn law_5_1_1_checkmate_ends_the_game_when_the_move_is_made() {
    let lines = play(
        Some(MATE),
        "5m",
        &[],
        "time 1\nwhite board: Rh8\nannounce\ntime 400\n",
    );
    let mate = de("result.checkmate", &[("winner", &white())]);
    assert!(has(&lines, &mate), "{lines:#?}");
    let flag = de_until("result.time", &[], "loser");
    assert!(!lines.iter().any(|l| l.starts_with(&flag)), "{lines:#?}");
    let lines = screen(
        &["--fen", MATE, "--control", "5m", "--mode", "hotseat"],
        "Turm Hector acht\n",
    );
    assert!(has(&lines, &game_over(&mate)), "{lines:#?}");
}

#[test]
fn law_9_1_2_1_a_draw_offer_lapses_when_the_opponent_makes_a_move() {
    let lines = play(
        None,
        "90m",
        &[],
        "white board: e4\nwhite offer draw\nannounce\npress\nblack board: e4\n\
         black board: e5\nblack accept draw\n",
    );
    let lapsed = de(
        "mirror.draw_offer_lapsed",
        &[("side", &white()), ("opponent", &black())],
    );
    assert!(has(&lines, &lapsed), "{lines:#?}");
    let no_offer = de("mirror.err.no_draw_offer", &[]);
    assert!(
        lines.iter().any(|l| l.ends_with(&no_offer)),
        "the offer is gone: {lines:#?}"
    );
}

#[test]
fn law_5_2_3_no_draw_by_agreement_before_both_players_have_moved() {
    let lines = play(
        None,
        "90m",
        &[],
        "white board: e4\nwhite offer draw\nblack accept draw\n",
    );
    let early = de("mirror.err.draw_too_early", &[]);
    assert!(lines.iter().any(|l| l.ends_with(&early)), "{lines:#?}");
    assert!(!has(&lines, &de("result.agreement", &[])), "{lines:#?}");
    // The play screen, with the acceptance confirmed: still refused.
    let lines = screen(
        &["--mode", "hotseat"],
        &format!(
            "e4\n{}\n{}\n{}\n",
            de_word("ui.cmd.draw"),
            de_word("ui.cmd.accept"),
            de_word("ui.cmd.yes")
        ),
    );
    assert!(has(&lines, &early), "{lines:#?}");
}

#[test]
fn law_9_1_2_3_a_claim_counts_as_a_draw_offer() {
    let lines = play(
        None,
        "90m",
        &[],
        "white board: e4\nannounce\npress\nblack board: e4\nblack board: e5\n\
         announce\npress\nwhite board: e5\nwhite claim\nblack accept draw\n",
    );
    let offer = de(
        "mirror.claim_is_offer",
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("accept", "accept draw"),
            ("decline", "decline draw"),
        ],
    );
    assert!(has(&lines, &offer), "{lines:#?}");
    assert!(has(&lines, &de("result.agreement", &[])), "{lines:#?}");
}

#[test]
fn law_a_3_an_incorrect_claim_in_rapid_gives_one_minute_in_standard_two() {
    let script = "white claim\nstatus\n";
    let rejected = |minutes: &str| {
        de(
            "ui.claim_rejected",
            &[
                ("side", &white()),
                ("opponent", &black()),
                ("repetitions", &de("count.times.one", &[])),
                ("halfmoves", &de("count.halfmoves.other", &[("n", "0")])),
                ("minutes", minutes),
            ],
        )
    };
    let rapid = play(None, "15m", &[], script);
    assert!(
        has(&rapid, &rejected(&de("time.minutes.one", &[]))),
        "{rapid:#?}"
    );
    let standard = play(None, "90m", &[], script);
    assert!(
        has(
            &standard,
            &rejected(&de("time.minutes.other", &[("n", "2")]))
        ),
        "{standard:#?}"
    );
    // And on the clocks: the opponent's time in the state line at the end.
    let state = |lines: &[String]| lines.last().cloned().unwrap_or_default();
    assert!(state(&rapid).contains("16:00"), "{rapid:#?}");
    assert!(state(&standard).contains("1:32:00"), "{standard:#?}");
}

#[test]
fn law_7_5_2_a_pawn_pressed_without_a_piece_becomes_a_queen_and_counts_as_illegal() {
    let fen = "7k/4P3/8/8/8/8/8/4K3 w - - 0 1";
    let lines = play(
        Some(fen),
        "90m",
        &[],
        "white board: e8\nannounce\npress\nblack board: e8=Q\nstatus\n",
    );
    let missing = de(
        "mirror.promotion_missing",
        &[("side", &white()), ("queen", "Dame")],
    );
    assert!(has(&lines, &missing), "{lines:#?}");
    let penalty = de(
        "penalty.illegal_move",
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("minutes", &de("time.minutes.other", &[("n", "2")])),
        ],
    );
    assert!(has(&lines, &penalty), "{lines:#?}");
    let queen = de_until("mirror.became_queen", &[("side", &white())], "move");
    assert!(lines.iter().any(|l| l.starts_with(&queen)), "{lines:#?}");
    // The queen stands on both boards: Black made it on his.
    let agree = de_until("mirror.executed", &[("side", &black())], "move");
    assert!(lines.iter().any(|l| l.starts_with(&agree)), "{lines:#?}");
}

#[test]
fn law_7_5_3_pressing_the_clock_without_a_move_is_an_illegal_move() {
    let lines = play(None, "90m", &[], "press\nstatus\n");
    assert!(
        has(
            &lines,
            &de("mirror.pressed_without_move", &[("side", &white())])
        ),
        "{lines:#?}"
    );
    let penalty = de(
        "penalty.illegal_move",
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("minutes", &de("time.minutes.other", &[("n", "2")])),
        ],
    );
    assert!(has(&lines, &penalty), "{lines:#?}");
    // The play screen says it back first; yes presses.
    let (yes, no) = (de_word("ui.cmd.yes"), de_word("ui.cmd.no"));
    let press = de_word("ui.cmd.press");
    let lines = screen(&["--mode", "hotseat"], &format!("{press}\n{yes}\n"));
    let confirm = de(
        "ui.confirm_press",
        &[("side", &white()), ("yes", &yes), ("no", &no)],
    );
    let at = position_of(&lines, &confirm);
    assert_eq!(
        lines[at + 1],
        de("mirror.pressed_without_move", &[("side", &white())])
    );
}

#[test]
fn law_a_5_2_unsupervised_blitz_an_illegal_move_loses_when_the_opponent_claims() {
    let lines = play(
        None,
        "5m",
        &["--unsupervised"],
        "white board: e5\nannounce\npress\nblack claim\n",
    );
    let claimable = de_until("mirror.win_claimable", &[("side", &black())], "claim");
    assert!(
        lines.iter().any(|l| l.starts_with(&claimable)),
        "{lines:#?}"
    );
    let won = de(
        "result.illegal_move_claimed",
        &[("winner", &black()), ("loser", &white())],
    );
    assert!(has(&lines, &won), "{lines:#?}");
    // Supervised (the default), the same move is a time penalty.
    let lines = play(
        None,
        "5m",
        &[],
        "white board: e5\nannounce\npress\nblack claim\n",
    );
    assert!(!has(&lines, &won), "{lines:#?}");
}

#[test]
fn law_8_1_5_the_draw_offer_mark_is_on_both_scoresheets_of_the_play_screen() {
    let (draw, press, sheet) = (
        de_word("ui.cmd.draw"),
        de_word("ui.cmd.press"),
        de_word("ui.cmd.sheet"),
    );
    let (w, b) = (de_word("ui.cmd.white"), de_word("ui.cmd.black"));
    let lines = screen(
        &["--mode", "hotseat"],
        &format!("e4\n{draw}\n{press}\n{sheet} {w}\n{sheet} {b}\n"),
    );
    for side in [white(), black()] {
        let expected = de("ui.sheet", &[("sheet", &side), ("moves", "1. e4 (=)")]);
        assert!(has(&lines, &expected), "{side}: {lines:#?}");
    }
}

#[test]
fn law_d_2_8_the_slip_refusal_words_the_moves_in_the_position_before_them() {
    let lines = play(
        None,
        "90m",
        &[],
        "white board: Nf3\nannounce: Springer Gustav eins Hector drei\npress\n",
    );
    let refusal = de(
        "mirror.err.slip_uncorrected",
        &[
            ("side", &white()),
            ("move", "Springer Gustav eins Felix drei"),
            ("said", "Springer Gustav eins Hector drei"),
        ],
    );
    assert!(lines.iter().any(|l| l.ends_with(&refusal)), "{lines:#?}");
}

#[test]
fn irreversible_actions_are_said_back_naming_the_side() {
    let (draw, accept, resign, yes, no) = (
        de_word("ui.cmd.draw"),
        de_word("ui.cmd.accept"),
        de_word("ui.cmd.resign"),
        de_word("ui.cmd.yes"),
        de_word("ui.cmd.no"),
    );
    let press = de_word("ui.cmd.press");
    let lines = screen(
        &["--mode", "hotseat"],
        &format!("e4\n{press}\ne5\n{draw}\n{accept}\n{no}\n{resign}\n{no}\n"),
    );
    let accept_back = de(
        "ui.confirm_accept",
        &[("side", &white()), ("yes", &yes), ("no", &no)],
    );
    let resign_back = de(
        "ui.confirm_resign",
        &[("side", &black()), ("yes", &yes), ("no", &no)],
    );
    assert!(has(&lines, &accept_back), "{lines:#?}");
    assert!(has(&lines, &resign_back), "{lines:#?}");
    // "No" twice: nothing ended.
    assert_eq!(
        lines
            .iter()
            .filter(|l| **l == de("ui.not_confirmed", &[]))
            .count(),
        2,
        "{lines:#?}"
    );
    assert!(!has(&lines, &de("result.agreement", &[])), "{lines:#?}");
}

#[test]
fn law_9_4_a_player_who_touched_a_piece_may_not_claim_on_that_move() {
    let lines = play(None, "90m", &[], "white touch: g1\nwhite claim\n");
    let refused = de("mirror.err.claim_after_touch", &[("side", &white())]);
    assert!(lines.iter().any(|l| l.ends_with(&refused)), "{lines:#?}");
    let rejected = de_until("ui.claim_rejected", &[("side", &white())], "repetitions");
    assert!(
        !lines.iter().any(|l| l.starts_with(&rejected)),
        "no claim was judged: {lines:#?}"
    );
}

#[test]
fn law_4_3_a_touched_piece_that_could_move_is_reported_when_another_moves() {
    let lines = play(None, "90m", &[], "white touch: g1\nwhite board: e4\n");
    let report = de_until("mirror.touch_not_honoured", &[("side", &white())], "square");
    assert!(lines.iter().any(|l| l.starts_with(&report)), "{lines:#?}");
    // Moving the touched knight is no report.
    let lines = play(None, "90m", &[], "white touch: g1\nwhite board: Nf3\n");
    assert!(!lines.iter().any(|l| l.starts_with(&report)), "{lines:#?}");
}

#[test]
fn law_9_1_2_1_touching_a_piece_rejects_the_opponents_draw_offer() {
    let lines = play(
        None,
        "90m",
        &[],
        "white board: e4\nwhite offer draw\nannounce\npress\nblack board: e4\n\
         black touch: e7\n",
    );
    let lapsed = de(
        "mirror.draw_offer_lapsed",
        &[("side", &white()), ("opponent", &black())],
    );
    assert!(has(&lines, &lapsed), "{lines:#?}");
}

/// After g3-g4 the pawns on a, c, e, g are locked and the kings can cross
/// neither the fourth nor the fifth rank: no sequence of legal moves mates.
const LOCKED: &str = "8/8/3k4/p1p1p1p1/P1P1P3/6P1/3K4/8 w - - 0 1";

#[test]
fn law_5_2_2_a_dead_position_beyond_bare_material_ends_the_game_when_the_move_is_made() {
    let lines = play(
        Some(LOCKED),
        "5m",
        &[],
        "time 1\nwhite board: g4\nannounce\ntime 400\n",
    );
    let dead = de("result.dead_position", &[]);
    assert!(has(&lines, &dead), "{lines:#?}");
    let flag = de_until("result.time", &[], "loser");
    assert!(!lines.iter().any(|l| l.starts_with(&flag)), "{lines:#?}");
    let lines = screen(
        &["--fen", LOCKED, "--control", "5m", "--mode", "hotseat"],
        "g4\n",
    );
    assert!(has(&lines, &game_over(&dead)), "{lines:#?}");
}

#[test]
fn law_6_9_a_flag_falls_against_a_side_that_can_never_mate_is_a_draw() {
    // Black, in check, can only take the queen: White has a queen, but
    // no sequence of legal moves lets White mate. Black's flag falls: a
    // draw, not a loss.
    let fen = "k7/1Q6/8/8/8/8/7p/4K3 b - - 0 1";
    let lines = play(Some(fen), "1m", &[], "time 61\n");
    let draw = de(
        "result.time_draw",
        &[("loser", &black()), ("winner", &white())],
    );
    assert!(has(&lines, &draw), "{lines:#?}");
}
