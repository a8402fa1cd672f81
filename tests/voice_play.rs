//! End to end: spoken moves on the play screen (plain mode) with the real
//! Korean model, real espeak-ng speech and the real binary. Recordings are
//! played through the same path as the microphone (`--voice-wav`), on
//! their own timeline (`--wav-clock fast`: as fast as listening and the
//! screen follow). espeak-ng's Korean is poorly recognized, so this checks
//! the plumbing and safety (every recording gets one answer; no move other
//! than the one spoken is ever made), not accuracy. Also: no microphone and
//! no model each give one clear line while typed moves go on.
//!
//! Needs espeak-ng, sox and the model (env ANNABELLA_TEST_MODEL); skips
//! with a reason when missing, unless ANNABELLA_REQUIRE_E2E=1.

mod common;

use common::{synthesize_ko, voice_prerequisites as model};

use common::fits;

use std::process::Command;

use annabella::locale::MsgKey;
use annabella::vocab::{Style, Vocabulary};
use shakmaty::san::San;
use shakmaty::{Chess, Color};

#[test]
fn spoken_moves_on_the_play_screen_never_make_another_move() {
    let Some(model) = model() else { return };
    let dir = tempfile::tempdir().unwrap();
    let ko = Vocabulary::builtin("ko").unwrap();
    let start = Chess::default();
    let e4 = "e4".parse::<San>().unwrap().to_move(&start).unwrap();
    let words = ko.announce(&start, e4, Style::Long).spoken;
    let mut wavs = Vec::new();
    for speed in [120, 160] {
        let f = dir.path().join(format!("e4-{speed}.wav"));
        synthesize_ko(&words, speed, 50, &f);
        wavs.push(f);
    }
    let silence = dir.path().join("silence.wav");
    let ok = Command::new("sox")
        .args(["-n", "-r", "16000", "-c", "1", "-b", "16"])
        .arg(&silence)
        .args(["trim", "0", "1.5"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok);
    wavs.insert(1, silence);
    let journal = dir.path().join("game.jsonl");
    let model = model.to_string_lossy().into_owned();
    let mut args = vec![
        "--plain".to_owned(),
        "-l".into(),
        "ko".into(),
        // The recordings' own timeline (tests/voice_live.rs keeps real
        // time).
        "--wav-clock".into(),
        common::wav_clock().into(),
        "--model".into(),
        model,
        "--journal".into(),
        journal.to_string_lossy().into_owned(),
    ];
    for w in &wavs {
        args.push("--voice-wav".into());
        args.push(w.to_string_lossy().into_owned());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // No typed input: the program runs until every recording was heard.
    let (lines, _) = common::run_with_input(&args, "");
    let msg = |key: MsgKey| ko.locale().message(key, &[]);
    let help = msg(MsgKey::UiCmdHelp);
    let help = help.split('|').next().unwrap_or_default();
    let ready = ko.locale().message(MsgKey::UiVoiceReady, &[("help", help)]);
    assert!(lines.contains(&ready), "{lines:#?}");
    // One answer per recording: a move said back, a question, or not
    // understood; silence is "nothing heard".
    let nothing = msg(MsgKey::VoiceNothingHeard);
    let templates = [
        msg(MsgKey::VoiceNotUnderstood),
        msg(MsgKey::VoiceConfirm),
        msg(MsgKey::VoiceAskWhich),
        msg(MsgKey::VoiceDidYouMean),
    ];
    let white = ko.side(Color::White).display;
    let announced_e4 = ko
        .message(
            MsgKey::MirrorAnnounced,
            &[
                ("number", &annabella::vocab::Utterance::plain("1")),
                ("side", &ko.side(Color::White)),
                ("move", &ko.announce(&start, e4, Style::Short)),
            ],
        )
        .display;
    let mut answers = 0;
    for l in &lines {
        if l.starts_with("1. ") {
            // A move was made: it can only be the spoken one.
            assert!(l.starts_with(&format!("1. {white}")), "{l}");
            assert_eq!(l, &announced_e4, "a move other than the spoken one");
            answers += 1;
        } else if *l == nothing || templates.iter().any(|t| fits(l, t)) {
            answers += 1;
        }
    }
    assert_eq!(answers, wavs.len(), "{lines:#?}");
    assert!(lines.contains(&nothing), "silence: {lines:#?}");
    // Whatever was played is in the journal.
    let loaded = annabella::journal::read(&journal).expect("journal");
    let moves = loaded
        .records
        .iter()
        .filter(|r| matches!(r.event, annabella::game::Command::Board { .. }))
        .count();
    let said_moves = lines.iter().filter(|l| l.starts_with("1. ")).count();
    assert_eq!(moves, said_moves, "{lines:#?}");
}

#[test]
fn no_microphone_or_no_model_is_one_line_and_typing_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let j = |n: &str| dir.path().join(n).to_string_lossy().into_owned();
    let missing = dir.path().join("no-model").to_string_lossy().into_owned();
    let (lines, _) = common::run_with_input(
        &[
            "--plain",
            "-l",
            "en",
            "--voice",
            "--model",
            &missing,
            "--journal",
            &j("a.jsonl"),
        ],
        "e4\n",
    );
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("Cannot use the speech model"))
        .collect();
    assert_eq!(errors.len(), 1, "{lines:#?}");
    assert!(errors[0].contains("no-model"), "{lines:#?}");
    assert!(lines.contains(&"1. White: e4".to_owned()), "{lines:#?}");
    // With a model but no microphone (headless): one line, typing goes on.
    let Some(model) = model() else { return };
    // ALSA is given no sound card (HOME/.asoundrc): no microphone on any
    // machine, one with a microphone too.
    let model = model.to_string_lossy().into_owned();
    let home = tempfile::tempdir().unwrap();
    common::no_sound_devices(home.path());
    let data = tempfile::tempdir().unwrap();
    let mut cmd = common::annabella(
        &[
            "--plain",
            "-l",
            "ko",
            "--voice",
            "--model",
            &model,
            "--journal",
            &j("b.jsonl"),
        ],
        data.path(),
    );
    cmd.env("HOME", home.path());
    let out = common::run_until(&mut cmd, "e4\n", std::time::Duration::from_secs(120));
    assert!(out.status.success(), "{out:?}");
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    let ko = Vocabulary::builtin("ko").unwrap();
    let no_mic = ko.locale().message(MsgKey::VoiceNoMicrophone, &[]);
    let no_mic = no_mic.split('{').next().unwrap_or_default();
    let count = lines.iter().filter(|l| l.starts_with(no_mic)).count();
    if count == 0 {
        common::skip(
            "the no-microphone line: a microphone was opened although ALSA was given no \
             sound card (HOME/.asoundrc); is another sound system in use?",
        );
    } else {
        assert_eq!(count, 1, "{lines:#?}");
    }
    let white = ko.side(Color::White).display;
    assert!(
        lines.iter().any(|l| l.starts_with(&format!("1. {white}"))),
        "{lines:#?}"
    );
}
