//! End to end: the real binary in plain mode (`--plain`), driven line by
//! line through standard input, checked line by line on standard output.

mod common;

fn run_plain(args: &[&str], script: &str) -> Vec<String> {
    let mut all = vec!["--plain"];
    all.extend_from_slice(args);
    common::run_with_input(&all, script).0
}

#[test]
fn a_game_in_appendix_d_words_line_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    let script = "\
Eva vier
press
Eva fuenf
press
Springer Gustav eins Felix drei
press
Hector neun
Springer Bella acht Cesar sechs
press
what Eva vier
where Springer
time
resign
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
        ],
        script,
    );
    assert!(
        lines[0].starts_with("annabella, over-the-board play."),
        "{lines:#?}"
    );
    let expected_moves = [
        "White: Eva vier",
        "White pressed the clock. Black to move.",
        "Black: Eva fuenf",
        "Black pressed the clock. White to move.",
        "White: Springer Felix drei",
    ];
    assert_eq!(&lines[1..6], &expected_moves, "{lines:#?}");
    assert_eq!(lines[6], "White pressed the clock. Black to move.");
    // An unknown word is explained and nothing is lost.
    assert!(
        lines[7].starts_with("Not a move or command:"),
        "{}",
        lines[7]
    );
    assert!(lines[7].contains("'neun'"), "{}", lines[7]);
    assert_eq!(lines[8], "Black: Springer Cesar sechs");
    assert_eq!(lines[9], "Black pressed the clock. White to move.");
    assert_eq!(lines[10], "Eva vier: White Bauer.");
    assert_eq!(
        lines[11],
        "White Springer: Bella eins, Felix drei. Black Springer: Cesar sechs, Gustav acht."
    );
    assert!(
        lines[12].starts_with("White: 5:") || lines[12].starts_with("White: 4:"),
        "{}",
        lines[12]
    );
    assert_eq!(
        lines[13],
        "The game is over: White resigns. Black wins. Type save to save it, or quit to leave."
    );
    assert_eq!(lines[14], format!("Game saved to {}.", pgn.display()));
    assert_eq!(lines[15], "Quit the game? Type yes to quit or no to go on.");
    assert_eq!(lines.len(), 16, "{lines:#?}");
    // Written after every move and at the end, and by `save`.
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    assert!(text.contains("1. e4 e5 2. Nf3 Nc6 0-1"), "{text}");
}

#[test]
fn end_of_input_ends_the_program_cleanly() {
    let lines = run_plain(&["-l", "en"], "e4\n");
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert_eq!(lines[1], "White: e4");
}

#[test]
fn help_in_german() {
    let lines = run_plain(&["-l", "de"], "hilfe\n");
    assert!(lines[1].contains("aufgeben"), "{lines:#?}");
    assert!(lines[1].contains("drücken"), "{lines:#?}");
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
    assert_eq!(lines.last().unwrap(), "Black: e5");
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
    // e5 was made but not pressed: only the completed move is written.
    assert!(text.contains("\n1. e4 *\n"), "{text}");
}
