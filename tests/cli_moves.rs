//! The real `annabella` binary: announce, parse and replay, and one clear
//! line (never a panic) for every kind of bad input.

mod common;

use annabella::locale::MsgKey;
use common::de;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_annabella"))
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The German message `key` up to its first unfilled placeholder.
fn de_start(key: MsgKey, args: &[(&str, &str)]) -> String {
    let text = de(key, args);
    text.split('{').next().unwrap_or_default().to_owned()
}

fn pgn_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pgn");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("../shared/pgn beside the project")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    files
}

/// Total main-line moves in the shared games, counted with the library's
/// reader (which a unit test holds to pgn-reader's reading of these games)
/// and shakmaty, independently of the binary.
fn expected_moves() -> (usize, usize) {
    let (mut games, mut moves) = (0, 0);
    for f in pgn_files() {
        for g in annabella::pgn::read_games(std::fs::File::open(f).unwrap()).unwrap() {
            games += 1;
            moves += g
                .sans
                .iter()
                .filter(|s| s.san != shakmaty::san::San::Null)
                .count();
        }
    }
    (games, moves)
}

#[test]
fn replay_check_round_trips_every_shared_game_in_every_locale_and_style() {
    let (games, moves) = expected_moves();
    assert!(games >= 14 && moves > 1000);
    let locales = stdout(&run(&["locales"]));
    let codes: Vec<&str> = locales
        .lines()
        .filter_map(|l| l.split('\t').next())
        .collect();
    assert!(codes.len() >= 7, "{codes:?}");
    for code in codes {
        for style in ["short", "long"] {
            let mut args = vec!["replay", "--check", "--locale", code, "--style", style];
            let files = pgn_files();
            let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
            args.extend(names.iter().map(String::as_str));
            let o = run(&args);
            let out = stdout(&o);
            let last = out.lines().last().unwrap_or_default();
            assert_eq!(
                last,
                format!("games {games}, moves {moves}, round-trip failures 0"),
                "{code} {style}: {}",
                stderr(&o)
            );
            assert!(o.status.success(), "{code} {style}: {}", stderr(&o));
        }
    }
}

#[test]
fn announce_prints_one_line_per_move_and_the_result() {
    let o = run(&["announce", "f3", "e5", "g4", "Qh4"]);
    assert!(o.status.success());
    let mate = de(
        MsgKey::ResultCheckmate,
        &[("winner", &de(MsgKey::SideBlack, &[]))],
    );
    assert_eq!(
        stdout(&o),
        format!("Felix drei\nEva fuenf\nGustav vier\nDame Hector vier Matt\n{mate}\n")
    );
    let o = run(&["announce", "--style", "long", "--spoken", "Nf3", "c5"]);
    assert_eq!(
        stdout(&o),
        "Springer Gustav eins Felix drei\nBauer Zäsar sieben Zäsar fünf\n"
    );
}

#[test]
fn parse_prints_uci_and_san() {
    let o = run(&["parse", "Springer", "Gustav", "eins", "Felix", "drei"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "g1f3 Nf3\n");
    // Chess960 castling is king-takes-rook in UCI.
    let o = run(&[
        "parse",
        "--chess960",
        "--fen",
        "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1",
        "Lange Rochade",
    ]);
    assert_eq!(stdout(&o), "b1a1 O-O-O\n", "{}", stderr(&o));
}

#[test]
fn parse_tsv_reads_fen_and_phrase_per_line() {
    let mut child = bin()
        .args(["parse", "--tsv"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\tEva vier\n\
                 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\tKurze Rochade\n\
                 not a fen\tEva vier\n\
                 no tab here\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    // "UCI SAN", as `parse` prints it and the README says.
    assert_eq!(lines[0], "e2e4 e4");
    let castling = format!("error: {}", de_start(MsgKey::IllegalCastling, &[]));
    assert!(lines[1].starts_with(&castling), "{}", lines[1]);
    let bad_fen = format!("error: {}", de_start(MsgKey::ErrorBadFen, &[]));
    assert!(lines[2].starts_with(&bad_fen), "{}", lines[2]);
    assert_eq!(lines[3], format!("error: {}", de(MsgKey::TsvNoTab, &[])));
}

/// Bad input: exit 1, exactly one line on stderr, nothing on stdout, no
/// panic.
#[track_caller]
fn one_clear_line(args: &[&str], must_contain: impl AsRef<str>) {
    let must_contain = must_contain.as_ref();
    let o = run(args);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(must_contain), "{args:?}: {err}");
}

#[test]
fn bad_input_gives_one_clear_line() {
    one_clear_line(&["parse", ""], de_start(MsgKey::ParseEmpty, &[]));
    let not_understood = de_start(MsgKey::ParseNotUnderstood, &[]);
    one_clear_line(
        &["parse", "Springer Gustaf eins"],
        format!("{not_understood}'Gustaf'"),
    );
    one_clear_line(&["parse", "knight to f3"], &not_understood);
    one_clear_line(
        &["parse", "--locale", "en", "Springer Gustav eins Felix drei"],
        "Not understood",
    );
    one_clear_line(
        &["parse", "Springer Eva vier"],
        de_start(MsgKey::IllegalCannotReach, &[]),
    );
    one_clear_line(
        &["parse", "Springer"],
        de_start(MsgKey::ParseIncomplete, &[]),
    );
    one_clear_line(
        &["parse", "--fen", "not/a/fen", "e4"],
        de_start(MsgKey::ErrorBadFen, &[]),
    );
    // An unknown locale is reported in the base language.
    one_clear_line(&["parse", "--locale", "xx", "e4"], "Unknown locale 'xx'");
    one_clear_line(
        &["announce", "e4", "e4"],
        de_start(MsgKey::ErrorBadMove, &[("number", "2"), ("move", "e4")]),
    );
    let missing = "/nonexistent/game.pgn";
    one_clear_line(
        &["replay", missing],
        de_start(MsgKey::ErrorPgnRead, &[("file", missing)]),
    );
}

#[test]
fn cut_short_or_garbage_pgn_is_reported_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("cut.pgn");
    std::fs::write(&cut, "[White \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb").unwrap();
    let o = run(&["replay", "--check", cut.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let cut_short = de(
        MsgKey::ErrorPgnUnterminated,
        &[("game", "1"), ("moves", "4")],
    );
    let cut_short = cut_short.split("{file}").nth(1).unwrap_or_default();
    assert!(!cut_short.is_empty());
    assert!(stderr(&o).contains(cut_short), "{}", stderr(&o));
    assert!(stdout(&o).ends_with("games 1, moves 4, round-trip failures 0\n"));

    let garbage = dir.path().join("garbage.pgn");
    let bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    std::fs::write(&garbage, bytes).unwrap();
    let o = run(&["replay", "--check", garbage.to_str().unwrap()]);
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert!(o.status.code() == Some(0) || o.status.code() == Some(1));

    let badfen = dir.path().join("badfen.pgn");
    std::fs::write(&badfen, "[FEN \"xx\"]\n\n1. e4 *\n").unwrap();
    let o = run(&["replay", badfen.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let bad_fen = de_start(MsgKey::ErrorBadFen, &[]);
    assert!(stderr(&o).contains(&bad_fen), "{}", stderr(&o));
}

#[test]
fn user_locale_file_with_an_error_names_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.toml");
    let fide = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("locales/fide.toml"),
    )
    .unwrap();
    std::fs::write(&path, fide.replace("g = \"Gustav\"\n", "")).unwrap();
    let p = path.to_str().unwrap();
    one_clear_line(&["parse", "--locale", p, "e4"], "files.g");
}
