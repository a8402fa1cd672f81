//! End to end: the real binary's full screen in tmux (100×30): a game in
//! Appendix D words on two boards, a mismatch shown and corrected by the
//! arbiter, clock query, resignation, quit, the journal replayed; and the
//! terminal is restored after SIGTERM.
//!
//! Skips (with a printed reason) when tmux is missing, unless
//! ANNABELLA_REQUIRE_E2E=1.

mod common;

use annabella::locale::MsgKey;
use common::tmux::{Session, tmux_available};
use common::{de, de_until, de_word};

use std::process::Command;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_annabella")
}

#[test]
fn a_game_on_the_full_screen() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let s = Session::start("game");
    s.keys(&format!(
        "{} -l fide --control 5m --silent --journal {}; echo EXITED $?",
        bin(),
        journal.display()
    ));
    // fide speaks German: the texts are the de locale's.
    let (white, black) = (de(MsgKey::SideWhite, &[]), de(MsgKey::SideBlack, &[]));
    let (white, black) = (white.as_str(), black.as_str());
    let board_title = de(MsgKey::UiLabelBoardOf, &[("side", white)]);
    let announced = |n: &str, side: &str, mv: &str| {
        de(
            MsgKey::MirrorAnnounced,
            &[("number", n), ("side", side), ("move", mv)],
        )
    };
    let executed = |side: &str, mv: &str, next: &str| {
        de(
            MsgKey::MirrorExecuted,
            &[("side", side), ("move", mv), ("next", next)],
        )
    };
    s.wait_for(&format!("┌{board_title}"));
    s.keys("Eva vier");
    s.wait_for(&announced("1", white, "Eva vier"));
    s.keys("press");
    // White pressed: Black is told to make the move on his board.
    s.wait_for(&de_until(MsgKey::MirrorPressed, &[("side", white)], "time"));
    s.keys("Eva vier");
    s.wait_for(&executed(black, "Eva vier", black));
    for l in ["Eva fuenf", "press", "Eva fuenf"] {
        s.keys(l);
    }
    s.wait_for(&executed(white, "Eva fuenf", white));
    s.keys("Springer Gustav eins Felix drei");
    let screen = s.wait_for(&announced("2", white, "Springer Felix drei"));
    // White's board from White's side, Black's board from Black's side;
    // the knight is on White's board only, not yet pressed.
    assert!(screen.contains("│5 . . . . b . . . 5 │"), "{screen}");
    assert!(screen.contains("│4 . . . . B . . . 4 │"), "{screen}");
    assert!(screen.contains("│3 . . . . . S . . 3 │"), "{screen}");
    assert!(!screen.contains("│3 . . S . . . . . 3 │"), "{screen}");
    let unpressed = format!("({})", de(MsgKey::UiLabelUnpressed, &[]));
    assert!(screen.contains(&unpressed), "{screen}");
    // Both scoresheets.
    assert_eq!(screen.matches("1. e4 e5").count(), 2, "{screen}");
    s.keys("press");
    // Black makes a different move on his board: d4 instead of Nf3.
    s.keys("David vier");
    let differ = de_until(
        MsgKey::MirrorBoardsDiffer,
        &[("number", "2"), ("side", white)],
        "black",
    );
    let screen = s.wait_for(differ.trim_end());
    // It names the correction in the play screen's own command word, never
    // in the script's syntax.
    // With the arbiter menu's word first: one line that corrects.
    let correct = format!(
        "({} {})",
        de_word(MsgKey::UiCmdArbiter),
        de_word(MsgKey::UiCmdCorrect)
    );
    let screen = if screen.contains(&correct) {
        screen
    } else {
        s.wait_for(&correct)
    };
    assert!(!screen.contains("arbiter: correct"), "{screen}");
    // Shown on both boards and in words, not by colour.
    assert!(
        screen.contains(&de(MsgKey::UiLabelMismatch, &[("number", "2")])),
        "{screen}"
    );
    assert_eq!(screen.matches("!= 2 !=").count(), 2, "{screen}");
    assert!(screen.contains("│4 . . . B B . . . 4 │"), "{screen}");
    // The clock on request.
    s.keys("zeit");
    let time_of = |side: &str| de_until(MsgKey::ClockTime, &[("side", side)], "time");
    s.wait_for(&format!("{}4:", time_of(white)));
    // The arbiter corrects Black's board from the scoresheets.
    s.keys("schiedsrichter");
    s.keys("korrigieren");
    let screen = s.wait_for(&de_until(MsgKey::MirrorCorrectedBoard, &[], "boards"));
    assert!(!screen.contains("!= 2 !="), "{screen}");
    assert!(screen.contains("│4 . . . B . . . . 4 │"), "{screen}");
    assert!(screen.contains("│3 . . S . . . . . 3 │"), "{screen}");
    s.keys("zurück");
    s.wait_for(&de(MsgKey::UiArbiterBack, &[]));
    s.keys("resign");
    s.wait_for(de_until(MsgKey::UiConfirmResign, &[("side", black)], "yes").trim_end());
    s.keys(&de_word(MsgKey::UiCmdYes));
    s.wait_for(&de(
        MsgKey::ResultResignation,
        &[("loser", black), ("winner", white)],
    ));
    s.keys("quit");
    s.wait_for(de_until(MsgKey::UiQuitConfirm, &[], "yes").trim_end());
    s.keys("yes");
    let screen = s.wait_for("EXITED 0");
    // The main screen is back: the board is gone.
    assert!(!screen.contains(&board_title), "{screen}");
    // Everything is in the journal: it replays to the same end.
    let loaded = annabella::journal::read(&journal).expect("the journal reads");
    let config = annabella::journal::config_of(&loaded.header).unwrap();
    let vocab = annabella::vocab::Vocabulary::builtin("fide").unwrap();
    let g = annabella::game::Game::replay(vocab, config, &loaded.records).expect("replays");
    let m = g.mirror();
    assert!(m.mismatch().is_none());
    assert_eq!(m.board(shakmaty::Color::Black).moves().len(), 3);
    assert_eq!(
        m.result().and_then(|r| r.winner),
        Some(shakmaty::Color::White)
    );
}

#[test]
fn sigterm_restores_the_terminal() {
    if !tmux_available() {
        return;
    }
    let s = Session::start("term");
    s.keys(&format!("{} -l en --silent; echo EXITED $?", bin()));
    s.wait_for("┌White's board");
    let pid = s.child_pid().expect("the program runs in the pane");
    let st = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let screen = s.wait_for("EXITED");
    assert!(!screen.contains("White's board"), "{screen}");
    // Line discipline back to normal: canonical mode and echo on.
    assert_eq!(s.line_settings(), "icanon echo");
}

/// The start of a message as the screen shows it: up to its first unknown
/// placeholder, at most 28 characters, cut at a word (a message box may
/// wrap the rest).
fn head(key: MsgKey, args: &[(&str, &str)]) -> String {
    let text = de(key, args);
    let known: String = text.split('{').next().unwrap_or_default().to_owned();
    let mut cut: String = known.chars().take(28).collect();
    if cut.chars().count() == 28
        && let Some(i) = cut.rfind(' ')
    {
        cut.truncate(i);
    }
    cut.trim_end().to_owned()
}

#[test]
fn every_procedure_on_the_full_screen() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let s = Session::start("procedures");
    s.keys(&format!(
        "{} -l fide --control 90m --silent --journal {}; echo EXITED $?",
        bin(),
        journal.display()
    ));
    let (white, black) = (de(MsgKey::SideWhite, &[]), de(MsgKey::SideBlack, &[]));
    let (w, b) = (white.as_str(), black.as_str());
    let word = de_word;
    s.wait_for(&format!("┌{}", de(MsgKey::UiLabelBoardOf, &[("side", w)])));
    let steps: Vec<(String, String)> = vec![
        (
            "e4".into(),
            head(MsgKey::MirrorAnnounced, &[("number", "1"), ("side", w)]),
        ),
        (
            word(MsgKey::UiCmdTakeback),
            head(MsgKey::UiTakenBack, &[("side", w)]),
        ),
        (
            "e4".into(),
            head(MsgKey::MirrorAnnounced, &[("number", "1"), ("side", w)]),
        ),
        // An offer cannot be withdrawn: said back first.
        (
            word(MsgKey::UiCmdDraw),
            head(MsgKey::UiConfirmOffer, &[("side", w)]),
        ),
        (
            word(MsgKey::UiCmdYes),
            head(MsgKey::UiDrawOffered, &[("side", w)]),
        ),
        (
            word(MsgKey::UiCmdPress),
            head(MsgKey::MirrorPressed, &[("side", w)]),
        ),
        ("e4".into(), head(MsgKey::MirrorExecuted, &[("side", b)])),
        (
            word(MsgKey::UiCmdDecline),
            head(MsgKey::MirrorDrawDeclined, &[("side", b)]),
        ),
        (
            "e5".into(),
            head(MsgKey::MirrorAnnounced, &[("number", "1"), ("side", b)]),
        ),
        (
            word(MsgKey::UiCmdPress),
            head(MsgKey::MirrorPressed, &[("side", b)]),
        ),
        (
            "d5".into(),
            head(MsgKey::MirrorBoardsDiffer, &[("number", "1"), ("side", b)]),
        ),
        (
            word(MsgKey::UiCmdCorrect),
            head(MsgKey::MirrorCorrectedBoard, &[]),
        ),
        (
            format!("{} g1", word(MsgKey::UiCmdTouch)),
            head(MsgKey::MirrorTouched, &[("side", w)]),
        ),
        (
            "Nf3".into(),
            head(MsgKey::MirrorAnnounced, &[("number", "2"), ("side", w)]),
        ),
        (
            word(MsgKey::UiCmdPress),
            head(MsgKey::MirrorPressed, &[("side", w)]),
        ),
        ("Nf3".into(), head(MsgKey::MirrorExecuted, &[("side", b)])),
        (
            word(MsgKey::UiCmdPause),
            head(MsgKey::GamePaused, &[("side", b)]),
        ),
        (
            word(MsgKey::UiCmdResume),
            head(MsgKey::ClockResumed, &[("side", b)]),
        ),
        (
            format!("{} {} 60", word(MsgKey::UiCmdAdd), word(MsgKey::UiCmdWhite)),
            head(MsgKey::MirrorAdjustAdd, &[("side", w)]),
        ),
        (
            format!(
                "{} {} 30",
                word(MsgKey::UiCmdRemove),
                word(MsgKey::UiCmdBlack)
            ),
            head(MsgKey::MirrorAdjustRemove, &[("side", b)]),
        ),
        (
            format!(
                "{} {} 1:20:00",
                word(MsgKey::UiCmdSet),
                word(MsgKey::UiCmdWhite)
            ),
            head(MsgKey::MirrorAdjustRemove, &[("side", w)]),
        ),
        (
            format!(
                "{} {}",
                word(MsgKey::UiCmdPenalty),
                word(MsgKey::UiCmdBlack)
            ),
            head(MsgKey::PenaltyIllegalMove, &[("side", b)]),
        ),
        (
            word(MsgKey::UiCmdClaim),
            head(MsgKey::UiConfirmClaim, &[("side", b)]),
        ),
        (
            word(MsgKey::UiCmdYes),
            head(MsgKey::UiClaimRejected, &[("side", b)]),
        ),
        (
            format!("{} Nc6 @ morgen", word(MsgKey::UiCmdSeal)),
            head(MsgKey::MirrorSealWritten, &[("side", b)]),
        ),
        (
            word(MsgKey::UiCmdPress),
            head(MsgKey::MirrorSealed, &[("side", b)]),
        ),
        (
            word(MsgKey::UiCmdPresent),
            head(MsgKey::MirrorPresent, &[("side", w)]),
        ),
        (
            word(MsgKey::UiCmdOpenSeal),
            head(MsgKey::MirrorSealOpened, &[]),
        ),
        ("Nc6".into(), head(MsgKey::MirrorExecuted, &[("side", w)])),
        (
            format!("{} {}", word(MsgKey::UiCmdSheet), word(MsgKey::UiCmdBlack)),
            head(MsgKey::UiSheet, &[("sheet", b)]),
        ),
        (
            word(MsgKey::UiCmdResign),
            head(MsgKey::UiConfirmResign, &[("side", w)]),
        ),
        (
            word(MsgKey::UiCmdYes),
            head(MsgKey::ResultResignation, &[("loser", w), ("winner", b)]),
        ),
    ];
    for (typed, expected) in steps {
        s.keys(&typed);
        s.wait_for(&expected);
    }
    s.keys(&word(MsgKey::UiCmdQuit));
    s.keys(&word(MsgKey::UiCmdYes));
    s.wait_for("EXITED 0");
}
