//! End to end: the real binary in plain mode (`--plain`), driven line by
//! line through standard input, checked line by line on standard output.

mod common;

use annabella::locale::MsgKey;
use common::{de, de_until, de_word};

fn run_plain(args: &[&str], script: &str) -> Vec<String> {
    let mut all = vec!["--plain"];
    all.extend_from_slice(args);
    common::run_with_input(&all, script).0
}

#[test]
fn a_game_in_appendix_d_words_line_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    let journal = dir.path().join("game.jsonl");
    let script = "\
Eva vier
press
Eva vier
Eva fuenf
press
Eva fuenf
Springer Gustav eins Felix drei
press
David vier
zeit
schiedsrichter
korrigieren
zurück
Hector neun
Springer Bella acht Cesar sechs
press
Springer Cesar sechs
what Eva vier
where Springer
resign
ja
save
quit
yes
";
    let lines = run_plain(
        &[
            "-l",
            "fide",
            "--control",
            "5m",
            "--save",
            pgn.to_str().unwrap(),
            "--journal",
            journal.to_str().unwrap(),
        ],
        script,
    );
    // fide speaks German: every line is a message of the de locale.
    let (white, black) = (de(MsgKey::SideWhite, &[]), de(MsgKey::SideBlack, &[]));
    let (white, black) = (white.as_str(), black.as_str());
    let file = journal.display().to_string();
    assert_eq!(lines[0], de(MsgKey::UiJournalCreated, &[("file", &file)]));
    let mode = de(MsgKey::UiModeBoard, &[]);
    let welcome = de_until(MsgKey::UiWelcome, &[("mode", &mode)], "control");
    assert!(lines[1].starts_with(&welcome), "{lines:#?}");
    let announced = |n: &str, side: &str, mv: &str| {
        de(
            MsgKey::MirrorAnnounced,
            &[("number", n), ("side", side), ("move", mv)],
        )
    };
    let pressed = |side: &str, opponent: &str, mv: &str| -> (MsgKey, Vec<(String, String)>) {
        (
            MsgKey::MirrorPressed,
            vec![
                ("side".into(), side.into()),
                ("opponent".into(), opponent.into()),
                ("move".into(), mv.into()),
            ],
        )
    };
    let check_pressed = |i: usize, p: (MsgKey, Vec<(String, String)>)| {
        let args: Vec<(&str, &str)> = p.1.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert!(
            common::fits(&lines[i], &de(p.0, &args)),
            "line {i}: {}",
            lines[i]
        );
    };
    let executed = |side: &str, mv: &str, next: &str| {
        de(
            MsgKey::MirrorExecuted,
            &[("side", side), ("move", mv), ("next", next)],
        )
    };
    assert_eq!(lines[2], announced("1", white, "Eva vier"));
    check_pressed(3, pressed(white, black, "Eva vier"));
    assert_eq!(lines[4], executed(black, "Eva vier", black));
    assert_eq!(lines[5], announced("1", black, "Eva fuenf"));
    check_pressed(6, pressed(black, white, "Eva fuenf"));
    assert_eq!(lines[7], executed(white, "Eva fuenf", white));
    assert_eq!(lines[8], announced("2", white, "Springer Felix drei"));
    check_pressed(9, pressed(white, black, "Springer Felix drei"));
    // Black made d4 on his board instead of Nf3: said at once.
    // It names the correction in the play screen's own words (the
    // command typed there), not in the script's.
    let arbiter = de_word(MsgKey::UiCmdArbiter);
    let correct = format!("{arbiter} {}", de_word(MsgKey::UiCmdCorrect));
    let pause = format!("{arbiter} {}", de_word(MsgKey::UiCmdPause));
    let differ = [
        ("number", "2"),
        ("side", white),
        ("black", "David vier"),
        ("white", "Springer Felix drei"),
        ("correct", correct.as_str()),
        ("pause", pause.as_str()),
    ];
    assert_eq!(lines[10], de(MsgKey::MirrorBoardsDiffer, &differ));
    // The clock on request.
    let clock = de_until(MsgKey::ClockTime, &[("side", white)], "time");
    assert!(lines[11].starts_with(&clock), "{}", lines[11]);
    // The arbiter menu, the correction of Black's board, back to the game.
    let menu = de_until(MsgKey::UiHelpArbiter, &[], "commands");
    assert!(lines[12].starts_with(&menu), "{}", lines[12]);
    let corrected = de_until(MsgKey::MirrorCorrectedBoard, &[], "boards");
    assert!(lines[13].starts_with(&corrected), "{}", lines[13]);
    assert!(lines[13].contains(black), "{}", lines[13]);
    // The clocks, stopped while the boards differed, run again (D.2.9).
    assert_eq!(
        lines[14],
        de(MsgKey::ClockResumed, &[("side", black)]),
        "{lines:#?}"
    );
    assert_eq!(lines[15], de(MsgKey::UiArbiterBack, &[]));
    // An unknown word is explained and nothing is lost.
    let unknown = de_until(MsgKey::UiUnknown, &[], "error");
    assert!(lines[16].starts_with(&unknown), "{}", lines[16]);
    assert!(lines[16].contains("'neun'"), "{}", lines[16]);
    assert_eq!(lines[17], announced("2", black, "Springer Cesar sechs"));
    check_pressed(18, pressed(black, white, "Springer Cesar sechs"));
    assert_eq!(lines[19], executed(white, "Springer Cesar sechs", white));
    let square = [("square", "Eva vier"), ("side", white), ("piece", "Bauer")];
    assert_eq!(lines[20], de(MsgKey::UiSquarePiece, &square));
    let where_ = |side: &str, squares: &str| {
        de(
            MsgKey::UiWhere,
            &[("side", side), ("piece", "Springer"), ("squares", squares)],
        )
    };
    assert_eq!(
        lines[21],
        format!(
            "{} {}",
            where_(white, "Bella eins, Felix drei"),
            where_(black, "Cesar sechs, Gustav acht")
        )
    );
    // Resigning is said back, naming the side (White's clock runs).
    let (yes, no) = (de_word(MsgKey::UiCmdYes), de_word(MsgKey::UiCmdNo));
    assert_eq!(
        lines[22],
        de(
            MsgKey::UiConfirmResign,
            &[("side", white), ("yes", &yes), ("no", &no)]
        )
    );
    let resigned = de(
        MsgKey::ResultResignation,
        &[("loser", white), ("winner", black)],
    );
    let (save, quit) = (de_word(MsgKey::UiCmdSave), de_word(MsgKey::UiCmdQuit));
    assert_eq!(
        lines[23],
        de(
            MsgKey::UiGameOver,
            &[
                ("result", &resigned),
                ("save", &save),
                ("quit", &quit),
                ("review", &de_word(MsgKey::UiCmdReview)),
            ]
        )
    );
    let file = pgn.display().to_string();
    assert_eq!(lines[24], de(MsgKey::UiSaved, &[("file", &file)]));
    assert_eq!(
        lines[25],
        de(MsgKey::UiQuitConfirm, &[("yes", &yes), ("no", &no)])
    );
    // After yes: where the game is kept and how it goes on.
    assert_eq!(
        lines[26],
        de(
            MsgKey::UiQuitDone,
            &[("file", &journal.display().to_string())]
        )
    );
    assert_eq!(lines.len(), 27, "{lines:#?}");
    // Written after every move and at the end, and by `save`, with the
    // arbiter's correction as a comment.
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    let moves: String = text
        .lines()
        .skip_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    for m in ["1. e4", " e5 ", "2. Nf3", " Nc6 ", "0-1"] {
        assert!(moves.contains(m), "{m} in {text}");
    }
    assert!(moves.contains(&corrected), "{text}");
}

#[test]
fn a_game_goes_on_from_its_journal() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let j = journal.to_str().unwrap();
    run_plain(&["-l", "en", "--journal", j], "e4\npress\ne4\ne5\n");
    // The program stopped with e5 made, not pressed: it is still there.
    let lines = run_plain(&["--journal", j], "press\ne5\nsheet\n");
    assert!(lines[0].contains("events"), "{lines:#?}");
    assert!(lines[1].contains("not pressed"), "{lines:#?}");
    assert!(
        lines[2].starts_with("Black has pressed the clock"),
        "{lines:#?}"
    );
    assert!(lines[3].contains("both boards agree"), "{lines:#?}");
    // The read-out says whose scoresheet it is (White's by default).
    let en = annabella::locale::builtin("en").expect("en locale");
    let white = en.message(MsgKey::SideWhite, &[]);
    assert_eq!(
        lines[4],
        en.message(MsgKey::UiSheet, &[("sheet", &white), ("moves", "1. e4 e5")])
    );
}

#[test]
fn end_of_input_ends_the_program_cleanly() {
    let lines = run_plain(&["-l", "en"], "e4\n");
    // The journal line, the welcome, the move.
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert_eq!(lines[2], "1. White: e4");
}

#[test]
fn help_in_german() {
    let lines = run_plain(&["-l", "de"], "hilfe\n");
    assert!(lines[2].contains("aufgeben"), "{lines:#?}");
    assert!(lines[2].contains("drücken"), "{lines:#?}");
}

#[test]
fn missing_engine_is_one_clear_line_and_play_goes_on() {
    let lines = run_plain(
        &[
            "-l",
            "en",
            "--mode",
            "engine",
            "--engine",
            "/nonexistent/stockfish",
        ],
        "e4\npress\ne5\n",
    );
    let missing: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("No chess engine could be started"))
        .collect();
    assert_eq!(missing.len(), 1, "{lines:#?}");
    assert!(missing[0].contains("/nonexistent/stockfish"));
    assert_eq!(lines.last().unwrap(), "1. Black: e5");
}

#[test]
fn with_save_every_completed_move_is_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("autosave.pgn");
    run_plain(
        &["-l", "en", "--save", pgn.to_str().unwrap()],
        "e4\npress\ne5\n",
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    // e5 was made on Black's board but not pressed: White's board (the
    // game's record) has only the completed move.
    assert!(text.contains("\n1. e4 {[%clk 1:"), "{text}");
    assert!(!text.contains("e5"), "{text}");
}

/// A mate ends the game at the press: the saved game (`--save`, written
/// after every completed move) and `export` hold the mating move although
/// the loser's board has not received it yet, and again once it has.
#[test]
fn the_saved_game_holds_the_move_that_ended_it() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    let journal = dir.path().join("game.jsonl");
    let moves = "\
Felix drei
press
Felix drei
Eva fuenf
press
Eva fuenf
Gustav vier
press
Gustav vier
Dame Hector vier
press
";
    let args = [
        "-l",
        "fide",
        "--save",
        pgn.to_str().unwrap(),
        "--journal",
        journal.to_str().unwrap(),
    ];
    // Quit before White's board shows the mate.
    run_plain(&args, &format!("{moves}quit\nja\n"));
    let saved = std::fs::read_to_string(&pgn).expect("the game was saved");
    assert!(saved.contains("[Result \"0-1\"]"), "{saved}");
    assert!(saved.contains("2. g4"), "{saved}");
    assert!(saved.contains(" Qh4#"), "the mating move is saved: {saved}");
    // Exported from the journal: the same moves.
    let out = std::process::Command::new(common::bin())
        .args(["export", journal.to_str().unwrap()])
        .output()
        .expect("export runs");
    let exported = String::from_utf8_lossy(&out.stdout);
    assert!(
        exported.contains(" Qh4#") && exported.contains("0-1"),
        "{exported}"
    );
}
