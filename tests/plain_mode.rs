//! End to end: the real binary in plain mode (`--plain`), driven line by
//! line through standard input, checked line by line on standard output.

mod common;

/// A message of the German locale: fide's words are German and so are its
/// messages (they come from de), so expected fide lines are read from there.
fn de(key: &str, args: &[(&str, &str)]) -> String {
    annabella::locale::builtin("de")
        .expect("de locale")
        .message(key, args)
}

/// The German message `key` up to the placeholder `{stop}`.
fn de_until(key: &str, args: &[(&str, &str)], stop: &str) -> String {
    let text = de(key, args);
    let stop = format!("{{{stop}}}");
    text.split(&stop).next().unwrap_or_default().to_owned()
}

/// The German command word shown for `key` (its first spelling).
fn de_word(key: &str) -> String {
    de(key, &[])
        .split('|')
        .next()
        .unwrap_or_default()
        .to_owned()
}

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
    // fide speaks German: every line is a message of the de locale.
    let (white, black) = (de("side.white", &[]), de("side.black", &[]));
    let (white, black) = (white.as_str(), black.as_str());
    let mode = de("ui.mode.board", &[]);
    let welcome = de_until("ui.welcome", &[("mode", &mode)], "control");
    assert!(lines[0].starts_with(&welcome), "{lines:#?}");
    let moved = |side: &str, mv: &str| de("ui.moved", &[("side", side), ("move", mv)]);
    let pressed = |side: &str, next: &str| de("ui.pressed", &[("side", side), ("next", next)]);
    let expected_moves = [
        moved(white, "Eva vier"),
        pressed(white, black),
        moved(black, "Eva fuenf"),
        pressed(black, white),
        moved(white, "Springer Felix drei"),
    ];
    assert_eq!(&lines[1..6], &expected_moves, "{lines:#?}");
    assert_eq!(lines[6], pressed(white, black));
    // An unknown word is explained and nothing is lost.
    let unknown = de_until("ui.unknown", &[], "error");
    assert!(lines[7].starts_with(&unknown), "{}", lines[7]);
    assert!(lines[7].contains("'neun'"), "{}", lines[7]);
    assert_eq!(lines[8], moved(black, "Springer Cesar sechs"));
    assert_eq!(lines[9], pressed(black, white));
    let square = [("square", "Eva vier"), ("side", white), ("piece", "Bauer")];
    assert_eq!(lines[10], de("ui.square_piece", &square));
    let where_ = |side: &str, squares: &str| {
        de(
            "ui.where",
            &[("side", side), ("piece", "Springer"), ("squares", squares)],
        )
    };
    assert_eq!(
        lines[11],
        format!(
            "{} {}",
            where_(white, "Bella eins, Felix drei"),
            where_(black, "Cesar sechs, Gustav acht")
        )
    );
    let clock = de_until("clock.time", &[("side", white)], "time");
    assert!(
        lines[12].starts_with(&format!("{clock}5:"))
            || lines[12].starts_with(&format!("{clock}4:")),
        "{}",
        lines[12]
    );
    let resigned = de("result.resignation", &[("loser", white), ("winner", black)]);
    let (save, quit) = (de_word("ui.cmd.save"), de_word("ui.cmd.quit"));
    assert_eq!(
        lines[13],
        de(
            "ui.game_over",
            &[("result", &resigned), ("save", &save), ("quit", &quit)]
        )
    );
    let file = pgn.display().to_string();
    assert_eq!(lines[14], de("ui.saved", &[("file", &file)]));
    let (yes, no) = (de_word("ui.cmd.yes"), de_word("ui.cmd.no"));
    assert_eq!(
        lines[15],
        de("ui.quit_confirm", &[("yes", &yes), ("no", &no)])
    );
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
