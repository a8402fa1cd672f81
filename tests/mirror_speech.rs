//! Every announcement of `annabella play` is spoken as well as printed:
//! rendered with the real espeak-ng into a WAV file (headless). Skipped
//! with a reason when espeak-ng is missing, unless ANNABELLA_REQUIRE_E2E=1.

mod common;

use annabella::locale::MsgKey;
use std::process::Command;

fn have_espeak() -> bool {
    Command::new("espeak-ng")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn play_speaks_every_announcement_into_a_wav_file() {
    if !common::tool_present(have_espeak(), "espeak-ng (apt-get install espeak-ng)") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("s.txt");
    std::fs::write(
        &script,
        "white board: Nf3\nannounce\npress\nblack board: Nh3\n",
    )
    .unwrap();
    let wav = dir.path().join("out.wav");
    let run = |extra: &[&std::ffi::OsStr], journal: &str| {
        Command::new(env!("CARGO_BIN_EXE_annabella"))
            .args(["play", "--script"])
            .arg(&script)
            .arg("--journal")
            .arg(dir.path().join(journal))
            .args(extra)
            .output()
            .unwrap()
    };
    let spoken = run(&["--speak-to".as_ref(), wav.as_os_str()], "a.jsonl");
    assert!(
        spoken.status.success(),
        "{}",
        String::from_utf8_lossy(&spoken.stderr)
    );
    let silent = run(&[], "b.jsonl");
    // The same lines are printed with and without speech (journal name aside).
    let lines = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .skip(1)
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&spoken), lines(&silent));
    // The default locale, fide, speaks German: the warning is the de
    // locale's, up to its first placeholder.
    let de = annabella::locale::builtin("de").expect("de locale");
    let warning = de.message(MsgKey::MirrorBoardsDiffer, &[]);
    let warning = warning.split('{').next().unwrap_or_default();
    assert!(!warning.is_empty());
    assert!(
        lines(&spoken).iter().any(|l| l.contains(warning)),
        "{:?}",
        lines(&spoken)
    );
    let bytes = std::fs::read(&wav).unwrap();
    assert_eq!(&bytes[..4], b"RIFF", "not a WAV file");
    // 16 kHz, 16 bit mono: six announcements take well over 5 seconds.
    let seconds = (bytes.len() - 44) as f64 / 32_000.0;
    assert!(seconds > 5.0, "only {seconds:.1} s of speech");
}
