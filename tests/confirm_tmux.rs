//! End to end on the full screen (tmux, the real binary): what cannot be
//! undone is said back and acts only after yes, typed and spoken
//! (issue 14). Spoken: real espeak-ng Korean recordings played through
//! the microphone's path (`--voice-wav`), the real Korean model.
//!
//! espeak-ng's Korean is recognized poorly (see the voice stack facts):
//! of the resignation phrases tried, "나 기권" ("I resign") spoken at 190
//! words a minute and pitch 70 is heard as the resign command; "네" (yes)
//! and "아니요" (no) are heard at espeak-ng's usual speed. Those are the
//! recordings used.
//!
//! Skips (with a printed reason) when tmux, espeak-ng, sox or the model
//! is missing, unless ANNABELLA_REQUIRE_E2E=1.

mod common;

use common::tmux::{Session, tmux_available};
use common::{synthesize_ko, voice_prerequisites as model};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use annabella::game::Command as GameCommand;
use annabella::locale::MsgKey;
use annabella::vocab::Vocabulary;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_annabella")
}

/// How many resignations the journal holds.
fn resignations(journal: &Path) -> usize {
    let Ok(loaded) = annabella::journal::read(journal) else {
        return 0;
    };
    loaded
        .records
        .iter()
        .filter(|r| matches!(r.event, GameCommand::Resign { .. }))
        .count()
}

/// A message with its arguments, cut before its first question mark
/// (the part that fits one line of the screen's log).
fn head(vocab: &Vocabulary, key: MsgKey, args: &[(&str, &str)]) -> String {
    let m = vocab.locale().message(key, args);
    match m.find('?') {
        Some(i) => m[..=i].to_owned(),
        None => m,
    }
}

#[test]
fn a_typed_resignation_is_asked_about_and_acts_only_after_yes() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = dir.path().join("game.jsonl");
    let en = Vocabulary::builtin("en").expect("en");
    let white = en.locale().message(MsgKey::SideWhite, &[]);
    let black = en.locale().message(MsgKey::SideBlack, &[]);
    let asked = head(&en, MsgKey::UiConfirmResign, &[("side", &white)]);
    let dropped = en.locale().message(MsgKey::UiNotConfirmed, &[]);
    let resigned = en.locale().message(
        MsgKey::ResultResignation,
        &[("loser", &white), ("winner", &black)],
    );
    let s = Session::start("confirm-typed");
    s.keys(&format!(
        "{} -l en --silent --journal {}; echo EXITED $?",
        bin(),
        journal.display()
    ));
    s.wait_for("help");
    s.keys("resign");
    s.wait_for(&asked);
    assert_eq!(resignations(&journal), 0, "asked, not done");
    s.keys("no");
    s.wait_for(&dropped);
    assert_eq!(resignations(&journal), 0, "no: nothing done");
    s.keys("resign");
    s.keys("yes");
    s.wait_for(&resigned);
    assert_eq!(resignations(&journal), 1, "yes: resigned");
    s.keys("quit");
    s.keys("yes");
    s.wait_for("EXITED 0");
}

/// Korean recordings for the spoken test.
fn recordings(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let ko = Vocabulary::builtin("ko").expect("ko");
    let word = |key: MsgKey| {
        let m = ko.locale().message(key, &[]);
        m.split('|').next().unwrap_or_default().to_owned()
    };
    let resign = dir.join("resign.wav");
    // espeak-ng's Korean is poorly recognized: of "기권", "나 기권",
    // "기권 기권" and "기권합니다" at 110–190 words a minute and pitch
    // 30–70, the model heard the command only in "기권" at 190 (pitch 50
    // or 70) and "기권 기권" at 190, pitch 30.
    synthesize_ko(&word(MsgKey::VoiceCmdResign), 190, 70, &resign);
    // "Yes": the recording chosen by measuring through the binary
    // (tests/fixtures/voice, heard as yes after every move of the liveness
    // game). espeak-ng's 네 synthesized here was heard only on some runs:
    // on CI and under load it was "nothing heard" now and then.
    let yes = dir.join("yes.wav");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/voice/yes.wav"),
        &yes,
    )
    .expect("the yes fixture");
    let no = dir.join("no.wav");
    synthesize_ko(&word(MsgKey::VoiceCmdNo), 150, 50, &no);
    (resign, yes, no)
}

fn voice_session(tag: &str, model: &Path, journal: &Path, files: &[&Path]) -> Session {
    let s = Session::start(tag);
    let mut line = format!(
        "{} -l ko --silent --model {} --journal {}",
        bin(),
        model.display(),
        journal.display()
    );
    for f in files {
        line.push_str(&format!(" --voice-wav {}", f.display()));
    }
    line.push_str("; echo EXITED $?");
    s.keys(&line);
    s
}

/// Quits (typed, confirmed) and waits for the program to end: none is
/// left running when the session goes.
fn quit(s: &Session, ko: &Vocabulary) {
    let word = |key: MsgKey| {
        let m = ko.locale().message(key, &[]);
        m.split('|').next().unwrap_or_default().to_owned()
    };
    // A question still open is answered no first.
    s.keys(&word(MsgKey::UiCmdNo));
    s.keys(&word(MsgKey::UiCmdQuit));
    s.keys(&word(MsgKey::UiCmdYes));
    s.wait_for("EXITED 0");
}

#[test]
fn a_spoken_resignation_is_asked_about_and_acts_only_after_a_spoken_yes() {
    if !tmux_available() {
        return;
    }
    let Some(model) = model() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let (resign, yes, no) = recordings(dir.path());
    let ko = Vocabulary::builtin("ko").expect("ko");
    let white = ko.locale().message(MsgKey::SideWhite, &[]);
    let black = ko.locale().message(MsgKey::SideBlack, &[]);
    let asked = head(&ko, MsgKey::UiConfirmResign, &[("side", &white)]);
    let dropped = ko.locale().message(MsgKey::UiNotConfirmed, &[]);
    let resigned = ko.locale().message(
        MsgKey::ResultResignation,
        &[("loser", &white), ("winner", &black)],
    );

    // Said, then "no": asked, dropped; the game goes on.
    let journal = dir.path().join("no.jsonl");
    let s = voice_session("confirm-no", &model, &journal, &[&resign, &no]);
    s.wait_for(&asked);
    assert_eq!(resignations(&journal), 0, "asked, not done");
    s.wait_for(&dropped);
    // Nothing more is coming: the game was not resigned.
    std::thread::sleep(Duration::from_secs(2));
    assert!(!s.screen().contains(&resigned), "{}", s.screen());
    assert_eq!(resignations(&journal), 0, "no: nothing done");
    quit(&s, &ko);

    // Said alone: asked, and nothing happens without an answer.
    let journal = dir.path().join("alone.jsonl");
    let s = voice_session("confirm-alone", &model, &journal, &[&resign]);
    s.wait_for(&asked);
    let until = Instant::now() + Duration::from_secs(4);
    while Instant::now() < until {
        assert!(!s.screen().contains(&resigned), "{}", s.screen());
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(resignations(&journal), 0, "no answer: nothing done");
    quit(&s, &ko);

    // Said, then "yes": resigned, through the game layer (the journal).
    let journal = dir.path().join("yes.jsonl");
    let s = voice_session("confirm-yes", &model, &journal, &[&resign, &yes]);
    s.wait_for(&asked);
    let screen = s.wait_for(&resigned);
    assert!(
        screen.find(&asked) < screen.find(&resigned),
        "asked before: {screen}"
    );
    assert_eq!(resignations(&journal), 1, "yes: resigned");
    quit(&s, &ko);
}
