//! Every locale is a checked contract (issue 20): the real binary reads the
//! moves a player says in Korean and Hebrew as the moves said, refuses what
//! no legal move fits, and refuses a locale file whose words can be read
//! two ways.

mod common;

use std::process::Output;

use annabella::locale::MsgKey;
use annabella::vocab::{Style, Vocabulary};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess};

fn run(args: &[&str]) -> Output {
    let data = tempfile::tempdir().unwrap();
    common::annabella(args, data.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_owned()
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// `annabella parse` prints "UCI SAN" of the one move read: here the move
/// written by hand.
#[track_caller]
fn parse_gives(locale: &str, fen: Option<&str>, phrase: &str, uci_san: &str) {
    let mut args = vec!["parse", "-l", locale];
    if let Some(f) = fen {
        args.extend(["--fen", f]);
    }
    args.push(phrase);
    let o = run(&args);
    assert!(
        o.status.success(),
        "{locale} '{phrase}': {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(stdout(&o), uci_san, "{locale} '{phrase}'");
}

/// White: king h1, bishop e2, pawn b3; Black: king h8, knight c4. Both the
/// pawn (bxc4) and the bishop (Bxc4) can take on c4.
const TWO_TAKERS: &str = "7k/8/8/8/2n5/1P6/4B3/7K w - - 0 1";

#[test]
fn korean_bi_is_the_file_b() {
    // "비 잡고 찰리 사": b takes c4, the pawn (the bishop's move was played).
    parse_gives("ko", Some(TWO_TAKERS), "비 잡고 찰리 사", "b3c4 bxc4");
    // "비 4": b4 (was "not a complete move: 비숍 4").
    parse_gives("ko", None, "비 4", "b2b4 b4");
    // Liveness: the bishop is still the bishop, in words and in notation.
    parse_gives("ko", Some(TWO_TAKERS), "비숍 잡고 찰리 사", "e2c4 Bxc4");
    parse_gives("ko", Some(TWO_TAKERS), "Bxc4", "e2c4 Bxc4");
}

#[test]
fn korean_plain_mode_plays_the_pawn_said() {
    let (lines, _) = common::run_with_input(
        &["--plain", "-l", "ko", "--fen", TWO_TAKERS],
        "비 잡고 찰리 사\nquit\n예\n",
    );
    let pos = position(TWO_TAKERS);
    let vocab = Vocabulary::builtin("ko").unwrap();
    let said = |san: &str| {
        let m = San::from_ascii(san.as_bytes())
            .unwrap()
            .to_move(&pos)
            .unwrap();
        vocab.announce(&pos, m, Style::Short).display
    };
    let (pawn, bishop) = (said("bxc4"), said("Bxc4"));
    assert_ne!(pawn, bishop);
    assert!(
        lines.iter().any(|l| l.ends_with(&format!(": {pawn}"))),
        "{lines:#?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains(&bishop)),
        "the bishop moved: {lines:#?}"
    );
}

#[test]
fn hebrew_queen_letters_are_never_a_king_and_a_file() {
    // "מהו3": no queen can reach f3; the king from the e-file must not be
    // played instead.
    let o = run(&[
        "parse",
        "-l",
        "he",
        "--fen",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR w kq - 2 3",
        "מהו3",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert_eq!(stdout(&o), "");
    // "מהד2" after 1.e4 e5 2.d4 d5: the queen, without a question.
    parse_gives(
        "he",
        Some("rnbqkbnr/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3"),
        "מהד2",
        "d1d2 Qd2",
    );
    // Liveness: the king's own move in Hebrew notation.
    parse_gives(
        "he",
        Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR w kq - 2 3"),
        "מו3",
        "e2f3 Kf3",
    );
}

#[test]
fn the_hebrew_scoresheet_writes_hebrew_files() {
    // The sheet wrote מהd2 (a Hebrew letter and a Latin file) while the
    // announcements say ד2.
    let he = annabella::locale::builtin("he").unwrap();
    let word = |key: MsgKey| he.message(key, &[]).split('|').next().unwrap().to_owned();
    let (press, sheet, quit, yes) = (
        word(MsgKey::UiCmdPress),
        word(MsgKey::UiCmdSheet),
        word(MsgKey::UiCmdQuit),
        word(MsgKey::UiCmdYes),
    );
    let script = format!("e4\n{press}\ne5\n{press}\nQh5\n{press}\n{sheet}\n{quit}\n{yes}\n");
    let (lines, _) = common::run_with_input(&["--plain", "-l", "he", "--mode", "hotseat"], &script);
    let want = he.message(
        MsgKey::UiSheet,
        &[
            ("sheet", &he.message(MsgKey::SideWhite, &[])),
            // Written by hand: the files of Appendix C5, the queen of C2.
            ("moves", "1. ה4 ה5 2. מהח5"),
        ],
    );
    assert!(
        lines.iter().any(|l| l.contains(&want)),
        "{want}\n{lines:#?}"
    );
    assert!(!lines.iter().any(|l| l.contains("מהh5")), "{lines:#?}");
}

#[test]
fn a_locale_file_with_bi_as_file_and_bishop_letter_is_refused() {
    // The Korean locale as it was: no notation letters, so the bishop's
    // letter is 비 (the first syllable of 비숍), which is also the file b.
    let ko = annabella::locale::BUILTIN
        .iter()
        .find(|(c, _)| *c == "ko")
        .unwrap()
        .1;
    let old = match ko.find("[notation]") {
        Some(start) => {
            let end = start + ko[start..].find("[messages]").unwrap();
            format!("{}{}", &ko[..start], &ko[end..])
        }
        None => ko.to_owned(),
    }
    .replace("code = \"ko\"", "code = \"ko-old\"");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ko-old.toml");
    std::fs::write(&file, &old).unwrap();
    let path = file.to_str().unwrap();
    let o = run(&["parse", "-l", path, "e4"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    for part in [path, "비", "files.b", "pieces.bishop"] {
        assert!(err.contains(part), "{part}: {err}");
    }
    // Its twin: the built-in Korean locale, written to a file, loads.
    let good = dir.path().join("ko-new.toml");
    std::fs::write(&good, ko.replace("code = \"ko\"", "code = \"ko-new\"")).unwrap();
    parse_gives(good.to_str().unwrap(), None, "비 4", "b2b4 b4");
}
