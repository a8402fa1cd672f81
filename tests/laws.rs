//! The Laws of Chess clause by clause (FIDE 2023 text, the Arabic seed;
//! Appendix D, Articles 5–9, Appendices A and B): each test is named after
//! the clause it shows and runs the real binary, in the `play` script and
//! on the play screen (`--plain`), in a position that shows it. The
//! expected words come from the locale data (fide speaks German: the de
//! messages), never from the program under test.

mod common;

use annabella::locale::MsgKey;
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
        MsgKey::UiGameOver,
        &[
            ("result", result),
            ("save", &de_word(MsgKey::UiCmdSave)),
            ("quit", &de_word(MsgKey::UiCmdQuit)),
            ("review", &de_word(MsgKey::UiCmdReview)),
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
    de(MsgKey::SideWhite, &[])
}

fn black() -> String {
    de(MsgKey::SideBlack, &[])
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
        MsgKey::MirrorAnnounced,
        &[
            ("number", "1"),
            ("side", &white()),
            ("move", "Dame Bella eins Bella sechs"),
        ],
    );
    let at = position_of(&lines, &announced);
    // The result is said at once, with the move.
    assert_eq!(
        lines[at + 1],
        de(MsgKey::ResultStalemate, &[]),
        "{lines:#?}"
    );
    // No flag falls afterwards: the clocks stopped with the move.
    let flag = de_until(MsgKey::ResultTime, &[], "loser");
    assert!(!lines.iter().any(|l| l.starts_with(&flag)), "{lines:#?}");
    // The opponent still makes the move on his board.
    assert!(
        has(
            &lines,
            &de(
                MsgKey::MirrorExecutedFinal,
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
        MsgKey::MirrorAnnounced,
        &[
            ("number", "1"),
            ("side", &white()),
            ("move", "Dame Bella sechs"),
        ],
    );
    let at = position_of(&lines, &announced);
    assert_eq!(lines[at + 1], game_over(&de(MsgKey::ResultStalemate, &[])));
}

#[test]
fn law_5_1_1_checkmate_ends_the_game_when_the_move_is_made() {
    let lines = play(
        Some(MATE),
        "5m",
        &[],
        "time 1\nwhite board: Rh8\nannounce\ntime 400\n",
    );
    let mate = de(MsgKey::ResultCheckmate, &[("winner", &white())]);
    assert!(has(&lines, &mate), "{lines:#?}");
    let flag = de_until(MsgKey::ResultTime, &[], "loser");
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
        MsgKey::MirrorDrawOfferLapsed,
        &[("side", &white()), ("opponent", &black())],
    );
    assert!(has(&lines, &lapsed), "{lines:#?}");
    let no_offer = de(MsgKey::MirrorErrNoDrawOffer, &[]);
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
    let early = de(MsgKey::MirrorErrDrawTooEarly, &[]);
    assert!(lines.iter().any(|l| l.ends_with(&early)), "{lines:#?}");
    assert!(
        !has(&lines, &de(MsgKey::ResultAgreement, &[])),
        "{lines:#?}"
    );
    // The play screen, with the acceptance confirmed: still refused.
    let lines = screen(
        &["--mode", "hotseat"],
        &format!(
            "e4\n{}\n{}\n{}\n{}\n",
            de_word(MsgKey::UiCmdDraw),
            de_word(MsgKey::UiCmdYes),
            de_word(MsgKey::UiCmdAccept),
            de_word(MsgKey::UiCmdYes)
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
        MsgKey::MirrorClaimIsOffer,
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("accept", "accept draw"),
            ("decline", "decline draw"),
        ],
    );
    assert!(has(&lines, &offer), "{lines:#?}");
    assert!(has(&lines, &de(MsgKey::ResultAgreement, &[])), "{lines:#?}");
}

#[test]
fn law_a_3_an_incorrect_claim_in_rapid_gives_one_minute_in_standard_two() {
    let script = "white claim\nstatus\n";
    let rejected = |minutes: &str| {
        de(
            MsgKey::UiClaimRejected,
            &[
                ("side", &white()),
                ("opponent", &black()),
                ("repetitions", &de(MsgKey::CountTimesOne, &[])),
                ("halfmoves", &de(MsgKey::CountHalfmovesOther, &[("n", "0")])),
                ("minutes", minutes),
            ],
        )
    };
    let rapid = play(None, "15m", &[], script);
    assert!(
        has(&rapid, &rejected(&de(MsgKey::TimeMinutesOne, &[]))),
        "{rapid:#?}"
    );
    let standard = play(None, "90m", &[], script);
    assert!(
        has(
            &standard,
            &rejected(&de(MsgKey::TimeMinutesOther, &[("n", "2")]))
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
    let script = "white board: e8\nannounce\npress\nblack board: e8=Q\nstatus\n";
    let missing = de(
        MsgKey::MirrorPromotionMissing,
        &[("side", &white()), ("queen", "Dame")],
    );
    // In practice the player is warned before the press; in a tournament
    // game (the default) nothing is said before it (11.3).
    let lines = play(Some(fen), "90m", &["--practice"], script);
    assert!(has(&lines, &missing), "{lines:#?}");
    let lines = play(Some(fen), "90m", &[], script);
    assert!(!has(&lines, &missing), "{lines:#?}");
    let penalty = de(
        MsgKey::PenaltyIllegalMove,
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("minutes", &de(MsgKey::TimeMinutesOther, &[("n", "2")])),
        ],
    );
    assert!(has(&lines, &penalty), "{lines:#?}");
    let queen = de_until(MsgKey::MirrorBecameQueen, &[("side", &white())], "move");
    assert!(lines.iter().any(|l| l.starts_with(&queen)), "{lines:#?}");
    // The queen stands on both boards: Black made it on his.
    let agree = de_until(MsgKey::MirrorExecuted, &[("side", &black())], "move");
    assert!(lines.iter().any(|l| l.starts_with(&agree)), "{lines:#?}");
}

#[test]
fn law_7_5_3_pressing_the_clock_without_a_move_is_an_illegal_move() {
    let lines = play(None, "90m", &[], "press\nstatus\n");
    assert!(
        has(
            &lines,
            &de(MsgKey::MirrorPressedWithoutMove, &[("side", &white())])
        ),
        "{lines:#?}"
    );
    let penalty = de(
        MsgKey::PenaltyIllegalMove,
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("minutes", &de(MsgKey::TimeMinutesOther, &[("n", "2")])),
        ],
    );
    assert!(has(&lines, &penalty), "{lines:#?}");
    // The play screen says it back first; yes presses.
    let (yes, no) = (de_word(MsgKey::UiCmdYes), de_word(MsgKey::UiCmdNo));
    let press = de_word(MsgKey::UiCmdPress);
    let lines = screen(&["--mode", "hotseat"], &format!("{press}\n{yes}\n"));
    let confirm = de(
        MsgKey::UiConfirmPress,
        &[("side", &white()), ("yes", &yes), ("no", &no)],
    );
    let at = position_of(&lines, &confirm);
    assert_eq!(
        lines[at + 1],
        de(MsgKey::MirrorPressedWithoutMove, &[("side", &white())])
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
    let claimable = de_until(MsgKey::MirrorWinClaimable, &[("side", &black())], "claim");
    assert!(
        lines.iter().any(|l| l.starts_with(&claimable)),
        "{lines:#?}"
    );
    let won = de(
        MsgKey::ResultIllegalMoveClaimed,
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
    let (draw, press, sheet, yes) = (
        de_word(MsgKey::UiCmdDraw),
        de_word(MsgKey::UiCmdPress),
        de_word(MsgKey::UiCmdSheet),
        de_word(MsgKey::UiCmdYes),
    );
    let (w, b) = (de_word(MsgKey::UiCmdWhite), de_word(MsgKey::UiCmdBlack));
    let lines = screen(
        &["--mode", "hotseat"],
        &format!("e4\n{draw}\n{yes}\n{press}\n{sheet} {w}\n{sheet} {b}\n"),
    );
    for side in [white(), black()] {
        let expected = de(MsgKey::UiSheet, &[("sheet", &side), ("moves", "1. e4 (=)")]);
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
        MsgKey::MirrorErrSlipUncorrected,
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
        de_word(MsgKey::UiCmdDraw),
        de_word(MsgKey::UiCmdAccept),
        de_word(MsgKey::UiCmdResign),
        de_word(MsgKey::UiCmdYes),
        de_word(MsgKey::UiCmdNo),
    );
    let press = de_word(MsgKey::UiCmdPress);
    let lines = screen(
        &["--mode", "hotseat"],
        &format!("e4\n{press}\ne5\n{draw}\n{yes}\n{accept}\n{no}\n{resign}\n{no}\n"),
    );
    let accept_back = de(
        MsgKey::UiConfirmAccept,
        &[("side", &white()), ("yes", &yes), ("no", &no)],
    );
    let resign_back = de(
        MsgKey::UiConfirmResign,
        &[("side", &black()), ("yes", &yes), ("no", &no)],
    );
    assert!(has(&lines, &accept_back), "{lines:#?}");
    assert!(has(&lines, &resign_back), "{lines:#?}");
    // "No" twice: nothing ended.
    assert_eq!(
        lines
            .iter()
            .filter(|l| **l == de(MsgKey::UiNotConfirmed, &[]))
            .count(),
        2,
        "{lines:#?}"
    );
    assert!(
        !has(&lines, &de(MsgKey::ResultAgreement, &[])),
        "{lines:#?}"
    );
}

#[test]
fn law_9_4_a_player_who_touched_a_piece_may_not_claim_on_that_move() {
    let lines = play(None, "90m", &[], "white touch: g1\nwhite claim\n");
    let refused = de(MsgKey::MirrorErrClaimAfterTouch, &[("side", &white())]);
    assert!(lines.iter().any(|l| l.ends_with(&refused)), "{lines:#?}");
    let rejected = de_until(
        MsgKey::UiClaimRejected,
        &[("side", &white())],
        "repetitions",
    );
    assert!(
        !lines.iter().any(|l| l.starts_with(&rejected)),
        "no claim was judged: {lines:#?}"
    );
}

#[test]
fn law_4_3_a_touched_piece_that_could_move_is_reported_when_another_moves() {
    let lines = play(None, "90m", &[], "white touch: g1\nwhite board: e4\n");
    let report = de_until(
        MsgKey::MirrorTouchNotHonoured,
        &[("side", &white())],
        "square",
    );
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
        MsgKey::MirrorDrawOfferLapsed,
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
    let dead = de(MsgKey::ResultDeadPosition, &[]);
    assert!(has(&lines, &dead), "{lines:#?}");
    let flag = de_until(MsgKey::ResultTime, &[], "loser");
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
        MsgKey::ResultTimeDraw,
        &[("loser", &black()), ("winner", &white())],
    );
    assert!(has(&lines, &draw), "{lines:#?}");
}

// ---------------------------------------------------------------------
// The Laws, second pass (issue 22): claims as the Law makes them, no help
// before the press, the sighted player under the ordinary rules, games
// that are over before they begin, the smaller clauses, the arbiter's
// paperwork, imported games, one outcome in every front end.
// ---------------------------------------------------------------------

/// The real binary's output lines with a settings file holding `settings`
/// (in a fresh settings folder).
fn with_settings(args: &[&str], settings: &str, input: &str) -> Vec<String> {
    use std::io::Write as _;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let conf = dir.path().join("annabella");
    std::fs::create_dir_all(&conf).expect("the settings folder");
    std::fs::write(conf.join("config.toml"), settings).expect("the settings file");
    let mut child = common::annabella(args, dir.path())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("the binary reads its input");
    let out = child.wait_with_output().expect("the binary ends");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Both players shuffle their knights out and back twice (on both boards,
/// both scoresheets written): `ply` half-moves of Nf3 Nf6 Ng1 Ng8 ….
fn knight_shuffle(plies: usize) -> String {
    let moves = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut s = String::new();
    for i in 0..plies {
        let (mover, other) = if i % 2 == 0 {
            ("white", "black")
        } else {
            ("black", "white")
        };
        let m = moves[i % 4];
        s.push_str(&format!(
            "{mover} board: {m}\nannounce\npress\n{other} board: {m}\n"
        ));
    }
    for sheet in ["white", "black"] {
        for i in 0..plies {
            s.push_str(&format!("{sheet} sheet: {}\n", moves[i % 4]));
        }
    }
    s
}

#[test]
fn law_9_2_1_1_a_claim_on_the_move_written_on_the_scoresheet_and_not_made_is_judged_on_that_move() {
    // Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1: Black writes Ng8 without making it;
    // after it the start position stands for the third time.
    let script = format!(
        "{}black sheet: Ng8\nblack claim\nstatus\n",
        knight_shuffle(7)
    );
    let lines = play(None, "90m", &[], &script);
    let draw = de(MsgKey::ResultThreefold, &[("side", &black())]);
    assert!(has(&lines, &draw), "{lines:#?}");
    let rejected = de_until(
        MsgKey::UiClaimRejected,
        &[("side", &black())],
        "repetitions",
    );
    assert!(
        !lines.iter().any(|l| l.starts_with(&rejected)),
        "no penalty: {lines:#?}"
    );
    // `claim MOVE` writes the move with the claim.
    let script = format!("{}black claim Ng8\n", knight_shuffle(7));
    let lines = play(None, "90m", &[], &script);
    assert!(has(&lines, &draw), "{lines:#?}");
    // The play screen: `claim MOVE`, said back, then yes.
    let (claim, press, yes) = (
        de_word(MsgKey::UiCmdClaim),
        de_word(MsgKey::UiCmdPress),
        de_word(MsgKey::UiCmdYes),
    );
    let mut input = String::new();
    for m in ["Sf3", "Sf6", "Sg1", "Sg8", "Sf3", "Sf6", "Sg1"] {
        input.push_str(&format!("{m}\n{press}\n"));
    }
    input.push_str(&format!("{claim} Sg8\n{yes}\n"));
    let lines = screen(&["--mode", "hotseat"], &input);
    assert!(has(&lines, &game_over(&draw)), "{lines:#?}");
}

/// Black to move after 99 half-moves without a pawn move or a capture.
const FIFTY_LESS_ONE: &str = "k7/8/8/8/8/8/8/K6R b - - 99 80";

#[test]
fn law_9_3_1_a_fifty_move_claim_on_the_move_written_and_not_made_is_judged_on_that_move() {
    let draw = de(MsgKey::ResultFiftyMoves, &[("side", &black())]);
    let rejected = de_until(
        MsgKey::UiClaimRejected,
        &[("side", &black())],
        "repetitions",
    );
    // Kb8 written, not made: the 50th move of each side.
    let lines = play(
        Some(FIFTY_LESS_ONE),
        "90m",
        &[],
        "black claim Kb8
status
",
    );
    assert!(has(&lines, &draw), "{lines:#?}");
    assert!(
        !lines.iter().any(|l| l.starts_with(&rejected)),
        "{lines:#?}"
    );
    // Without the written move the 50 moves are not complete.
    let lines = play(
        Some(FIFTY_LESS_ONE),
        "90m",
        &[],
        "black claim
status
",
    );
    assert!(!has(&lines, &draw), "{lines:#?}");
    // The play screen: `claim MOVE`, said back, then yes.
    let (claim, yes) = (de_word(MsgKey::UiCmdClaim), de_word(MsgKey::UiCmdYes));
    let lines = screen(
        &["--mode", "hotseat", "--fen", FIFTY_LESS_ONE],
        &format!("{claim} Kb8\n{yes}\n"),
    );
    assert!(has(&lines, &game_over(&draw)), "{lines:#?}");
}

#[test]
fn law_9_5_3_after_an_incorrect_claim_on_a_written_move_that_move_must_be_made() {
    // Black writes Nc6 and claims: the position after it has not appeared
    // before. Two minutes for White, and Black must play Nc6.
    let script = "white board: e4\nannounce\npress\nblack board: e4\nwhite sheet: e4\n\
         black sheet: e4\nblack claim: Nc6\nblack board: Nf6\nblack board: Nc6\nstatus\n";
    let lines = play(None, "90m", &[], script);
    let rejected = de_until(
        MsgKey::UiClaimRejected,
        &[("side", &black())],
        "repetitions",
    );
    assert!(lines.iter().any(|l| l.starts_with(&rejected)), "{lines:#?}");
    let must = de(
        MsgKey::MirrorErrClaimMoveRequired,
        &[
            ("side", &black()),
            ("move", "Springer Bella acht Cesar sechs"),
        ],
    );
    assert!(lines.iter().any(|l| l.ends_with(&must)), "{lines:#?}");
    // The written move is then made.
    let made = de(
        MsgKey::MirrorMade,
        &[
            ("side", &black()),
            ("move", "Springer Bella acht Cesar sechs"),
        ],
    );
    assert!(has(&lines, &made), "{lines:#?}");
}

#[test]
fn law_11_3_in_a_tournament_game_nothing_about_the_legality_of_a_players_own_move_is_said_before_the_press()
 {
    let lines = play(
        None,
        "90m",
        &[],
        "white board: e2e5\nannounce\npress\nstatus\n",
    );
    // Made and announced as given, like any move.
    let made = de(MsgKey::MirrorMade, &[("side", &white()), ("move", "e2e5")]);
    let announced = de(
        MsgKey::MirrorAnnounced,
        &[("number", "1"), ("side", &white()), ("move", "e2e5")],
    );
    let at = position_of(&lines, &made);
    assert_eq!(lines[at + 1], announced, "{lines:#?}");
    // Nothing about its legality before the press ...
    let bad = de_until(MsgKey::MirrorErrBadMove, &[("board", &white())], "reason");
    let warned = de(MsgKey::MirrorIllegalMade, &[("side", &white())]);
    assert!(
        !lines[..=at + 1]
            .iter()
            .any(|l| l.contains(&bad) || *l == warned),
        "{lines:#?}"
    );
    // ... and the press applies 7.5.
    let penalty = de(
        MsgKey::PenaltyIllegalMove,
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("minutes", &de(MsgKey::TimeMinutesOther, &[("n", "2")])),
        ],
    );
    assert!(has(&lines, &penalty), "{lines:#?}");
    // The play screen: the same move is made, said as given, and the press
    // counts it.
    let press = de_word(MsgKey::UiCmdPress);
    let lines = screen(&["--mode", "hotseat"], &format!("e2e5\n{press}\n"));
    assert!(has(&lines, &announced), "{lines:#?}");
    assert!(has(&lines, &penalty), "{lines:#?}");
    let unknown = de_until(MsgKey::UiUnknown, &[], "error");
    assert!(
        !lines.iter().any(|l| l.starts_with(&unknown)),
        "no refusal that tells why: {lines:#?}"
    );
    // Nor are the legal moves of a piece listed; practice lists them.
    let legal = format!("{} g1\n", de_word(MsgKey::UiCmdLegal));
    let refused = de(MsgKey::UiLegalTournament, &[]);
    let lines = screen(&["--mode", "hotseat"], &legal);
    assert!(has(&lines, &refused), "{lines:#?}");
    let listed = de_until(MsgKey::UiLegalMoves, &[("piece", "Springer")], "square");
    assert!(!lines.iter().any(|l| l.starts_with(&listed)), "{lines:#?}");
    let lines = screen(&["--mode", "hotseat", "--practice"], &legal);
    assert!(lines.iter().any(|l| l.starts_with(&listed)), "{lines:#?}");
    assert!(!has(&lines, &refused), "{lines:#?}");
}

#[test]
fn law_11_3_practice_keeps_the_immediate_warnings() {
    let warned = de(MsgKey::MirrorIllegalMade, &[("side", &white())]);
    let lines = play(None, "90m", &["--practice"], "white board: e2e5\n");
    assert!(has(&lines, &warned), "{lines:#?}");
    // The settings file's `practice` does the same.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let journal = dir.path().join("g.jsonl");
    let args = [
        "play",
        "--script",
        "-",
        "--journal",
        journal.to_str().expect("a UTF-8 path"),
    ];
    let lines = with_settings(&args, "practice = true\n", "white board: e2e5\n");
    assert!(has(&lines, &warned), "{lines:#?}");
    // The play screen refuses the move at once, with the reason.
    let unknown = de_until(MsgKey::UiUnknown, &[], "error");
    let lines = screen(&["--mode", "hotseat", "--practice"], "e2e5\n");
    assert!(lines.iter().any(|l| l.starts_with(&unknown)), "{lines:#?}");
    let lines = with_settings(
        &["--plain", "--mode", "hotseat"],
        "practice = \"on\"\n",
        "e2e5\n",
    );
    assert!(lines.iter().any(|l| l.starts_with(&unknown)), "{lines:#?}");
}

#[test]
fn guideline_i_8_a_tournament_sealer_is_not_told_that_his_sealed_move_is_illegal() {
    let faulty = de_until(MsgKey::MirrorSealFaulty, &[("side", &white())], "fault");
    let script = "seal: e2e5 @ Monday\npress\n";
    let lines = play(None, "90m", &[], script);
    assert!(!lines.iter().any(|l| l.starts_with(&faulty)), "{lines:#?}");
    let lines = play(None, "90m", &["--practice"], script);
    assert!(lines.iter().any(|l| l.starts_with(&faulty)), "{lines:#?}");
    // The play screen: the same.
    let (seal, press) = (de_word(MsgKey::UiCmdSeal), de_word(MsgKey::UiCmdPress));
    let input = format!("{seal} e2e5 @ Monday\n{press}\n");
    let lines = screen(&["--mode", "hotseat"], &input);
    assert!(!lines.iter().any(|l| l.starts_with(&faulty)), "{lines:#?}");
    let lines = screen(&["--mode", "hotseat", "--practice"], &input);
    assert!(lines.iter().any(|l| l.starts_with(&faulty)), "{lines:#?}");
}

/// White to play Qf8, mate (the king on h8, White's king on g6).
const SIGHTED_MATE: &str = "7k/8/6K1/5Q2/8/8/8/8 w - - 0 1";

#[test]
fn law_d_2_5_for_the_sighted_player_a_mate_placed_on_his_board_ends_the_game_at_once() {
    let script = "time 10\nwhite board: Qf8\ntime 400\nannounce\n";
    let mate = de(MsgKey::ResultCheckmate, &[("winner", &white())]);
    let lines = play(Some(SIGHTED_MATE), "5m", &["--sighted", "white"], script);
    assert!(has(&lines, &mate), "{lines:#?}");
    // Complete when placed: he is not told to announce it and press.
    let queen_mate = "Dame Felix fuenf Felix acht Matt";
    let final_made = de(
        MsgKey::MirrorMadeFinal,
        &[("side", &white()), ("move", queen_mate)],
    );
    let made = de(
        MsgKey::MirrorMade,
        &[("side", &white()), ("move", queen_mate)],
    );
    assert!(
        has(&lines, &final_made) && !has(&lines, &made),
        "{lines:#?}"
    );
    let flag = de_until(MsgKey::ResultTime, &[], "loser");
    assert!(!lines.iter().any(|l| l.starts_with(&flag)), "{lines:#?}");
    // Not announced before the flag fell: for a visually impaired player
    // (D.2.3) the move counts only once announced.
    let lines = play(Some(SIGHTED_MATE), "5m", &["--sighted", "black"], script);
    assert!(!has(&lines, &mate), "{lines:#?}");
    // The play screen: the sighted player's released piece stays (4.7).
    let takeback = de_word(MsgKey::UiCmdTakeback);
    let stands = de(
        MsgKey::MirrorErrMoveStands,
        &[("side", &white()), ("press", &de_word(MsgKey::UiCmdPress))],
    );
    let input = format!("e4\n{takeback}\n");
    let lines = screen(&["--mode", "hotseat", "--sighted", "white"], &input);
    assert!(has(&lines, &stands), "{lines:#?}");
    let lines = screen(&["--mode", "hotseat"], &input);
    assert!(!has(&lines, &stands), "{lines:#?}");
    // And the settings file's `sighted`.
    let lines = with_settings(
        &["--plain", "--mode", "hotseat"],
        "sighted = \"white\"\n",
        &input,
    );
    assert!(has(&lines, &stands), "{lines:#?}");
}

#[test]
fn law_5_2_1_a_game_started_from_a_finished_position_is_over_at_once() {
    let over = |result: &str| de(MsgKey::MirrorErrGameOver, &[("result", result)]);
    let stalemate = de(MsgKey::ResultStalemate, &[]);
    let mate = de(MsgKey::ResultCheckmate, &[("winner", &white())]);
    for (fen, result) in [
        ("k7/8/1QK5/8/8/8/8/8 b - - 0 1", &stalemate),
        ("k6R/8/1K6/8/8/8/8/8 b - - 0 1", &mate),
    ] {
        let lines = play(
            Some(fen),
            "5m",
            &[],
            "time 10\npress\nresign\nblack board: Ka7\ntime 400\nstatus\n",
        );
        // Said at once, before any line of the script.
        assert_eq!(lines[1], over(result), "{lines:#?}");
        let penalty = de_until(MsgKey::PenaltyIllegalMove, &[], "side");
        assert!(!lines.iter().any(|l| l.starts_with(&penalty)), "{lines:#?}");
        let flag = de_until(MsgKey::ResultTime, &[], "loser");
        assert!(!lines.iter().any(|l| l.starts_with(&flag)), "{lines:#?}");
        let refused = |n: u32| format!("Zeile {n}: {}", over(result));
        for n in [2, 3, 4] {
            assert!(has(&lines, &refused(n)), "line {n}: {lines:#?}");
        }
        // The play screen: over at once.
        let lines = screen(&["--mode", "hotseat", "--fen", fen, "--control", "5m"], "");
        assert!(has(&lines, &game_over(result)), "{lines:#?}");
        // A journal whose last position is finished: resumed, it is over
        // at once too, in the script and on the play screen.
        let dir = tempfile::tempdir().expect("a temporary folder");
        let journal = dir.path().join("g.jsonl");
        let path = journal.to_str().expect("a UTF-8 path");
        run_with_input(
            &["play", "--script", "-", "--fen", fen, "--journal", path],
            "",
        );
        let (lines, _) = run_with_input(
            &["resume", path, "--script", "-", "--locale", "fide"],
            "press
black resign
",
        );
        for n in [1, 2] {
            assert!(has(&lines, &refused(n)), "line {n}: {lines:#?}");
        }
        let penalty = de_until(MsgKey::PenaltyIllegalMove, &[], "side");
        assert!(!lines.iter().any(|l| l.starts_with(&penalty)), "{lines:#?}");
        let press = de_word(MsgKey::UiCmdPress);
        let lines = screen(&["--journal", path], &format!("{press}\n"));
        assert!(has(&lines, &game_over(result)), "{lines:#?}");
        assert!(!lines.iter().any(|l| l.starts_with(&penalty)), "{lines:#?}");
    }
}

#[test]
fn law_7_5_1_the_move_replacing_an_illegal_move_is_under_touch_move() {
    let report = de(
        MsgKey::MirrorTouchNotHonoured,
        &[("side", &white()), ("square", "Eva zwei")],
    );
    let lines = play(
        None,
        "90m",
        &[],
        "white board: e2e5\nannounce\npress\nwhite board: d4\n",
    );
    assert!(has(&lines, &report), "{lines:#?}");
    // The pawn that was moved illegally, moved legally: nothing to report.
    let lines = play(
        None,
        "90m",
        &[],
        "white board: e2e5\nannounce\npress\nwhite board: e4\n",
    );
    assert!(!has(&lines, &report), "{lines:#?}");
    let press = de_word(MsgKey::UiCmdPress);
    let lines = screen(&["--mode", "hotseat"], &format!("e2e5\n{press}\nd4\n"));
    assert!(has(&lines, &report), "{lines:#?}");
}

#[test]
fn law_7_5_2_the_unpromoted_pawn_is_said_to_become_a_queen_and_nothing_else() {
    let fen = "7k/4P3/8/8/8/8/8/4K3 w - - 0 1";
    let restored = de(MsgKey::MirrorIllegalCompleted, &[("side", &white())]);
    let unpromoted = de(MsgKey::MirrorUnpromotedCompleted, &[("side", &white())]);
    let lines = play(Some(fen), "90m", &[], "white board: e8\nannounce\npress\n");
    assert!(has(&lines, &unpromoted), "{lines:#?}");
    assert!(!has(&lines, &restored), "{lines:#?}");
    let press = de_word(MsgKey::UiCmdPress);
    let lines = screen(
        &["--mode", "hotseat", "--fen", fen],
        &format!("e8\n{press}\n"),
    );
    assert!(has(&lines, &unpromoted), "{lines:#?}");
    assert!(!has(&lines, &restored), "{lines:#?}");
}

#[test]
fn law_a_5_2_without_an_arbiter_an_illegal_move_not_claimed_stands() {
    // 1. e2-e5 (a pawn jump) in unsupervised blitz: Black may claim; he
    // plays d5 instead, and the pawn stays on e5.
    let lines = play(
        None,
        "5m",
        &["--unsupervised"],
        "white board: e2e5\nannounce\npress\nblack board: e2e5\nblack board: d5\nannounce\npress\n\
         white board: d5\nwhite board: e5d6\nannounce\npress\nstatus\n",
    );
    let stands = de_until(
        MsgKey::MirrorWinClaimableStands,
        &[("side", &black())],
        "claim",
    );
    assert!(lines.iter().any(|l| l.starts_with(&stands)), "{lines:#?}");
    // Black makes it on his board as it was made ...
    let executed = de(
        MsgKey::MirrorExecuted,
        &[("side", &black()), ("move", "e2e5"), ("next", &black())],
    );
    assert!(has(&lines, &executed), "{lines:#?}");
    // ... and the pawn on e5 takes en passant on d6: the illegal move
    // stood. No line of the script was refused.
    assert!(!lines.iter().any(|l| l.starts_with("Zeile ")), "{lines:#?}");
    let penalty = de_until(MsgKey::PenaltyIllegalMove, &[], "side");
    assert!(!lines.iter().any(|l| l.starts_with(&penalty)), "{lines:#?}");
    // The play screen: the same move stands on both boards.
    let press = de_word(MsgKey::UiCmdPress);
    let lines = screen(
        &["--mode", "hotseat", "--control", "5m", "--unsupervised"],
        &format!("e2e5\n{press}\nd5\n{press}\nexd6\n"),
    );
    assert!(lines.iter().any(|l| l.starts_with(&stands)), "{lines:#?}");
    let unknown = de_until(MsgKey::UiUnknown, &[], "error");
    assert!(!lines.iter().any(|l| l.starts_with(&unknown)), "{lines:#?}");
}

#[test]
fn law_d_2_10_4_on_request_the_time_used_is_told_too() {
    let used = de_until(MsgKey::ClockTimeUsed, &[("side", &white())], "time");
    let lines = play(
        None,
        "90m",
        &[],
        "time 5\nwhite board: e4\nannounce\npress\nclock\n",
    );
    assert!(
        lines.iter().any(|l| l.contains(&format!("{used}0:00:05"))),
        "{lines:#?}"
    );
    let time = de_word(MsgKey::UiCmdTime);
    let lines = screen(&["--mode", "hotseat"], &format!("{time}\n"));
    assert!(lines.iter().any(|l| l.contains(&used)), "{lines:#?}");
}

#[test]
fn law_9_1_2_1_a_typed_draw_offer_is_said_back_before_it_is_made() {
    let (draw, yes, no, press) = (
        de_word(MsgKey::UiCmdDraw),
        de_word(MsgKey::UiCmdYes),
        de_word(MsgKey::UiCmdNo),
        de_word(MsgKey::UiCmdPress),
    );
    let lines = screen(
        &["--mode", "hotseat"],
        &format!("e4\n{draw}\n{no}\n{draw}\n{yes}\n{press}\n"),
    );
    let back = de(
        MsgKey::UiConfirmOffer,
        &[("side", &white()), ("yes", &yes), ("no", &no)],
    );
    assert_eq!(
        lines.iter().filter(|l| **l == back).count(),
        2,
        "{lines:#?}"
    );
    let offered = de_until(MsgKey::UiDrawOffered, &[("side", &white())], "opponent");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with(&offered)).count(),
        1,
        "only after yes: {lines:#?}"
    );
}

#[test]
fn law_8_1_5_a_scoresheet_without_the_draw_offer_mark_is_reported() {
    let lines = play(
        None,
        "90m",
        &[],
        "white board: e4\nwhite offer draw\nannounce\npress\nblack board: e4\n\
         white sheet: e4 (=)\nblack sheet: e4\n",
    );
    let unmarked = |sheet: &str| {
        de(
            MsgKey::MirrorSheetOfferUnmarked,
            &[("sheet", sheet), ("number", "1"), ("side", &white())],
        )
    };
    assert!(has(&lines, &unmarked(&black())), "{lines:#?}");
    assert!(!has(&lines, &unmarked(&white())), "{lines:#?}");
}

#[test]
fn guideline_i_2_the_envelope_holds_the_names_and_the_position_before_the_sealed_move() {
    let names = de(
        MsgKey::MirrorEnvelopePlayers,
        &[("white", "Anna Weiß"), ("black", "Bella Schwarz")],
    );
    let fen = de(
        MsgKey::MirrorEnvelopeFen,
        &[(
            "fen",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        )],
    );
    let position = de_until(MsgKey::MirrorEnvelopePosition, &[], "pieces");
    let check = |lines: &[String]| {
        let sealed = lines
            .iter()
            .find(|l| l.contains(&names))
            .unwrap_or_else(|| panic!("no envelope with the names: {lines:#?}"));
        assert!(sealed.contains(&fen), "{sealed}");
        assert!(sealed.contains(&position), "{sealed}");
        // The pieces in words (the knight on b8 among them), never the
        // sealed move.
        assert!(sealed.contains("Springer Bella acht"), "{sealed}");
    };
    let lines = play(
        None,
        "90m",
        &["--white", "Anna Weiß", "--black", "Bella Schwarz"],
        "white board: e4\nannounce\npress\nblack board: e4\nseal: Nc6 @ Monday\npress\nstatus\n",
    );
    check(&lines);
    let (seal, press) = (de_word(MsgKey::UiCmdSeal), de_word(MsgKey::UiCmdPress));
    let lines = screen(
        &[
            "--mode",
            "hotseat",
            "--white",
            "Anna Weiß",
            "--black",
            "Bella Schwarz",
        ],
        &format!("e4\n{press}\n{seal} Sc6 @ Monday\n{press}\n"),
    );
    check(&lines);
}

#[test]
fn law_d_2_9_differing_boards_stop_both_clocks_until_the_arbiters_correction() {
    // Black makes d4 on his board instead of White's e4.
    let lines = play(
        None,
        "90m",
        &[],
        "time 10\nwhite board: e4\nannounce\npress\ntime 20\nblack board: d4\nwhite sheet: e4\n\
         black sheet: e4\ntime 80\nclock\narbiter: correct\ntime 90\nclock\n",
    );
    let differ = de_until(
        MsgKey::MirrorBoardsDiffer,
        &[("number", "1"), ("side", &white())],
        "black",
    );
    let at = lines
        .iter()
        .position(|l| l.starts_with(&differ))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert!(
        lines[at].ends_with(&format!("({}).", "arbiter: correct")),
        "names the script's command: {}",
        lines[at]
    );
    let reading = |black: &str| {
        de(
            MsgKey::MirrorClockReading,
            &[
                ("white", "1:29:50"),
                ("black", black),
                ("white_moves", &de(MsgKey::CountMovesOne, &[("n", "1")])),
                ("black_moves", &de(MsgKey::CountMovesOther, &[("n", "0")])),
            ],
        )
    };
    // Stopped at 0:20 while the arbiter is called (60 s pass) ...
    assert!(
        lines.iter().any(|l| l.starts_with(&reading("1:29:50"))),
        "{lines:#?}"
    );
    // ... and running again after the correction (10 s more).
    assert!(
        lines.iter().any(|l| l.starts_with(&reading("1:29:40"))),
        "{lines:#?}"
    );
    // The play screen names its own command, and help lists the
    // arbiter's commands while the boards differ.
    let (press, help, correct) = (
        de_word(MsgKey::UiCmdPress),
        de_word(MsgKey::UiCmdHelp),
        de_word(MsgKey::UiCmdCorrect),
    );
    let lines = screen(&[], &format!("e4\n{press}\nd4\n{help}\n"));
    let at = lines
        .iter()
        .position(|l| l.starts_with(&differ))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    // Named as the play screen takes it on one line (issue 24).
    let arbiter = de_word(MsgKey::UiCmdArbiter);
    assert!(
        lines[at].ends_with(&format!("({arbiter} {correct}).")),
        "{}",
        lines[at]
    );
    let listed = de_until(MsgKey::UiHelpMismatch, &[("correct", &correct)], "commands");
    assert!(lines.iter().any(|l| l.contains(&listed)), "{lines:#?}");
}

#[test]
fn law_d_2_1_an_unreadable_move_is_not_understood_and_records_nothing_in_every_front_end() {
    let incomplete = de_until(
        MsgKey::ParseIncomplete,
        &[("heard", "Springer Felix")],
        "example",
    );
    let lines = play(
        None,
        "90m",
        &[],
        "white board: Springer Felix\nannounce\nstatus\n",
    );
    assert!(lines.iter().any(|l| l.contains(&incomplete)), "{lines:#?}");
    // Nothing was made: nothing to announce.
    let no_move = de(MsgKey::MirrorErrNoMove, &[("side", &white())]);
    assert!(lines.iter().any(|l| l.ends_with(&no_move)), "{lines:#?}");
    let made = de_until(MsgKey::MirrorMade, &[("side", &white())], "move");
    assert!(!lines.iter().any(|l| l.starts_with(&made)), "{lines:#?}");
    // The play screen says the same words.
    let lines = screen(&["--mode", "hotseat"], "Springer Felix\n");
    assert!(lines.iter().any(|l| l.contains(&incomplete)), "{lines:#?}");
}

/// A game with clock times and comments, a null move (Black passes) and
/// two moves after it.
const WITH_NULL: &str = "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n\
{Opening book} 1. e4 {[%clk 1:29:50] best by test} e5 {[%clk 1:29:40]} \
2. Nf3 {[%clk 1:29:20]} -- 3. Ke2 Qh4 *\n";

#[test]
fn law_d_2_7_a_game_continued_from_pgn_keeps_its_times_and_comments_and_says_what_it_cannot_import()
{
    let dir = tempfile::tempdir().expect("a temporary folder");
    let pgn = dir.path().join("g.pgn");
    std::fs::write(&pgn, WITH_NULL).expect("the PGN");
    let journal = dir.path().join("g.jsonl");
    let (lines, _) = run_with_input(
        &[
            "play",
            "--script",
            "-",
            "--from-pgn",
            pgn.to_str().expect("a UTF-8 path"),
            "--journal",
            journal.to_str().expect("a UTF-8 path"),
        ],
        "status\n",
    );
    // The null move and the moves after it are said, not dropped.
    let null = de(
        MsgKey::PlayPgnNullMove,
        &[("number", "2..."), ("last", "2. Nf3"), ("count", "3")],
    );
    assert!(has(&lines, &null), "{lines:#?}");
    // The clocks stand where the PGN left them.
    let clocks = de(
        MsgKey::MirrorClocksFromPgn,
        &[("white", "1:29:20"), ("black", "1:29:40")],
    );
    assert!(has(&lines, &clocks), "{lines:#?}");
    let state = de_until(
        MsgKey::JournalState,
        &[("number", "2"), ("side", &black())],
        "white",
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains(&format!("{state}1:29:20, "))),
        "{lines:#?}"
    );
    // The export keeps the clock times and the comments.
    let (pgn_out, _) = run_with_input(
        &[
            "export",
            "--board",
            "white",
            journal.to_str().expect("a UTF-8 path"),
        ],
        "",
    );
    let text = pgn_out.join("\n");
    for kept in [
        "{Opening book}",
        "best by test",
        "[%clk 1:29:50]",
        "[%clk 1:29:40]",
        "[%clk 1:29:20]",
    ] {
        assert!(text.contains(kept), "{kept} in {text}");
    }
}

#[test]
fn law_d_2_7_review_reads_cutechess_times_and_export_gives_the_result_code() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let pgn = dir.path().join("cute.pgn");
    std::fs::write(
        &pgn,
        "[Event \"c\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n\
         1. e4 {+0.20/18 0.8s} e5 {-8.11/24 5.0s, White resigns} 0-1\n",
    )
    .expect("the PGN");
    let (lines, _) = run_with_input(
        &["review", "--plain", pgn.to_str().expect("a UTF-8 path")],
        "last\nclock\n",
    );
    let used = de_until(
        MsgKey::ReviewMoveTime,
        &[("side", &black()), ("number", "1")],
        "time",
    );
    assert!(lines.iter().any(|l| l.starts_with(&used)), "{lines:#?}");
    assert!(!has(&lines, &de(MsgKey::ReviewNoClock, &[])), "{lines:#?}");
    // The result's code beside its words.
    let journal = dir.path().join("g.jsonl");
    play_journal(&journal, "white resign\n");
    let (json, _) = run_with_input(
        &[
            "export",
            "--format",
            "json",
            journal.to_str().expect("a UTF-8 path"),
        ],
        "",
    );
    let json = json.join("\n");
    assert!(json.contains("\"result_code\": \"0-1\""), "{json}");
}

/// Plays `script` into the journal `journal`.
fn play_journal(journal: &std::path::Path, script: &str) {
    run_with_input(
        &[
            "play",
            "--script",
            "-",
            "--journal",
            journal.to_str().expect("a UTF-8 path"),
        ],
        script,
    );
}
