//! End to end with the real binary: hands-free listening with speech on
//! plays annabella's speech through her own output adapter
//! (`speech::played::CardSpeaker`), which gives the echo canceller its
//! reference; without an output device she falls back to the usual
//! speaker with the microphone muted while she speaks, saying so in one
//! line, and play goes on.
//!
//! The sound devices are chosen with an ALSA configuration in a temporary
//! `HOME` (`.asoundrc`), so the tests do the same on any machine: no
//! device at all (a card that does not exist), or ALSA's `null` device
//! for output (it takes the samples and discards them) with no input.
//!
//! Needs the model (env ANNABELLA_TEST_MODEL) and espeak-ng; skips with a
//! reason when missing, unless ANNABELLA_REQUIRE_E2E=1.

mod common;

use common::voice_prerequisites as model;

use annabella::locale::MsgKey;
use annabella::vocab::Vocabulary;
use shakmaty::Color;

/// Runs hands-free plain play with speech, the sound devices as `asoundrc`
/// says; types `e4`. Returns the output lines.
fn play(asoundrc: &str) -> Option<Vec<String>> {
    let model = model()?;
    let espeak = std::process::Command::new("espeak-ng")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !common::tool_present(espeak, "espeak-ng") {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".asoundrc"), asoundrc).unwrap();
    let journal = dir.path().join("game.jsonl");
    let model = model.to_string_lossy().into_owned();
    let journal = journal.to_string_lossy().into_owned();
    let mut cmd = common::annabella(
        &[
            "--plain",
            "--speak",
            "-l",
            "ko",
            "--voice",
            "--model",
            &model,
            "--journal",
            &journal,
        ],
        dir.path(),
    );
    cmd.env("HOME", dir.path());
    let out = common::run_until(&mut cmd, "e4\n", std::time::Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    Some(stdout.lines().map(str::to_owned).collect())
}

fn no_barge_in_lines(lines: &[String], ko: &Vocabulary) -> usize {
    let line = ko.locale().message(MsgKey::UiVoiceNoBargeIn, &[]);
    lines.iter().filter(|l| **l == line).count()
}

fn moved(lines: &[String], ko: &Vocabulary) -> bool {
    let white = ko.side(Color::White).display;
    lines.iter().any(|l| l.starts_with(&format!("1. {white}")))
}

#[test]
fn without_an_output_device_she_falls_back_says_so_once_and_play_goes_on() {
    let Some(lines) = play("pcm.!default { type hw card 97 }\nctl.!default { type hw card 97 }\n")
    else {
        return;
    };
    let ko = Vocabulary::builtin("ko").unwrap();
    assert_eq!(no_barge_in_lines(&lines, &ko), 1, "{lines:#?}");
    assert!(moved(&lines, &ko), "{lines:#?}");
}

#[test]
fn with_an_output_device_she_plays_herself_and_gives_the_reference() {
    // Output to ALSA's null device; no input (the microphone fails, as on
    // a headless machine: one line, typing goes on).
    let conf = "pcm.!default { type asym playback.pcm \"null\" capture.pcm { type hw card 97 } }\n\
                ctl.!default { type hw card 97 }\n";
    let Some(lines) = play(conf) else { return };
    let ko = Vocabulary::builtin("ko").unwrap();
    assert_eq!(
        no_barge_in_lines(&lines, &ko),
        0,
        "her own output gives the reference: {lines:#?}"
    );
    let no_mic = ko.locale().message(MsgKey::VoiceNoMicrophone, &[]);
    let no_mic = no_mic.split('{').next().unwrap_or_default();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with(no_mic)).count(),
        1,
        "{lines:#?}"
    );
    assert!(moved(&lines, &ko), "{lines:#?}");
}
