//! End to end with the real binary (issue 23): annabella's speech played
//! on the (paced test) sound card by herself is synthesized in process
//! by libespeak-ng and streamed: the first samples of a long utterance
//! reach the card before its synthesis is over (the rings hold one
//! second, so a longer utterance cannot be rendered whole first, as
//! before, when the whole of it was rendered and resampled before its
//! first sample was played). Without the library she runs the espeak-ng
//! program, says so in one line, and speech goes on.
//!
//! Order of events in the trace (env ANNABELLA_TRACE), never timing.
//! Needs the model (env ANNABELLA_TEST_MODEL) and espeak-ng.

mod common;

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use annabella::locale::MsgKey;
use annabella::vocab::Vocabulary;

#[derive(Debug)]
struct Ev {
    at: u128,
    kind: String,
    detail: String,
}

fn trace(path: &Path) -> Vec<Ev> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut v: Vec<Ev> = text
        .lines()
        .filter_map(|l| {
            let mut p = l.splitn(3, ' ');
            Some(Ev {
                at: p.next()?.parse().ok()?,
                kind: p.next()?.to_owned(),
                detail: p.next().unwrap_or("").trim().to_owned(),
            })
        })
        .collect();
    v.sort_by_key(|e| e.at);
    v
}

/// Plain play in Korean with speech and voice, her speech on the paced
/// test card, until the first utterance is rendered; the output lines
/// and the trace.
fn run(libespeak: Option<&str>) -> Option<(Vec<String>, Vec<Ev>)> {
    let model = common::voice_prerequisites()?;
    let dir = tempfile::tempdir().unwrap();
    // No microphone (one line, typing goes on); her output is the test card.
    std::fs::write(
        dir.path().join(".asoundrc"),
        "pcm.!default { type asym playback.pcm \"null\" capture.pcm { type hw card 97 } }\n\
         ctl.!default { type hw card 97 }\n",
    )
    .unwrap();
    let path = dir.path().join("trace");
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
    cmd.env("HOME", dir.path())
        .env("ANNABELLA_TRACE", &path)
        .env("ANNABELLA_TEST_OUTPUT", "virtual")
        .env_remove("ANNABELLA_ESPEAK");
    match libespeak {
        Some(l) => cmd.env("ANNABELLA_LIBESPEAK", l),
        None => cmd.env_remove("ANNABELLA_LIBESPEAK"),
    };
    let mut child = cmd.spawn().expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60)
        && !trace(&path).iter().any(|e| e.kind == "rendered")
    {
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let out = child.wait_with_output().expect("output");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    Some((lines, trace(&path)))
}

/// The first utterance rendered: its engine, its length (device samples),
/// and whether its first sample reached the card before its rendering
/// was over.
fn first_rendered(t: &[Ev]) -> (String, usize, bool) {
    let synth = t.iter().position(|e| e.kind == "synth").expect("synth");
    let rendered = t[synth..]
        .iter()
        .find(|e| e.kind == "rendered")
        .expect("rendered");
    let audio = t[synth..]
        .iter()
        .find(|e| e.kind == "audio")
        .expect("her speech reached the card");
    (
        t[synth].detail.clone(),
        rendered.detail.parse().unwrap_or(0),
        audio.at < rendered.at,
    )
}

#[test]
fn a_long_utterance_reaches_the_card_before_its_synthesis_is_over() {
    let Some((lines, t)) = run(None) else { return };
    let (engine, samples, streamed) = first_rendered(&t);
    assert_eq!(engine, "library", "libespeak-ng in process: {t:#?}");
    // Longer than the rings (1 s at 48 kHz): it cannot be rendered whole
    // before it plays.
    assert!(samples > 48_000, "{samples} samples: {t:#?}");
    assert!(streamed, "played while synthesized: {t:#?}");
    let ko = Vocabulary::builtin("ko").unwrap();
    let notice = ko
        .locale()
        .message(MsgKey::SpeechNoLibrary, &[("error", "")]);
    let notice = notice.split('(').next().unwrap_or_default();
    assert!(!lines.iter().any(|l| l.starts_with(notice)), "{lines:#?}");
}

#[test]
fn without_the_library_the_program_speaks_and_one_line_says_so() {
    let Some((lines, t)) = run(Some("/nonexistent/libespeak-ng.so.1")) else {
        return;
    };
    let (engine, samples, streamed) = first_rendered(&t);
    assert_eq!(engine, "program", "{t:#?}");
    assert!(samples > 48_000, "{samples} samples");
    assert!(streamed, "the program's output is streamed too: {t:#?}");
    let ko = Vocabulary::builtin("ko").unwrap();
    let notice = ko
        .locale()
        .message(MsgKey::SpeechNoLibrary, &[("error", "")]);
    let notice = notice.split('(').next().unwrap_or_default();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with(notice)).count(),
        1,
        "{lines:#?}"
    );
}
