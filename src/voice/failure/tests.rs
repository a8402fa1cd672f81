//! Every failure of spoken input worded in every built-in locale: the
//! words the worker chose before it reported typed failures (built here
//! from the locale's messages, as the worker built them), no placeholder
//! left, and no English outside the English locale.

use std::io;
use std::path::{Path, PathBuf};

use super::VoiceFailure;
use crate::locale::{self, Locale, MsgKey};
use crate::voice::audio::WavError;
use crate::voice::mic::MicError;
use crate::voice::recognizer::ModelError;

/// A recording's name, the same in every language.
const FILE: &str = "aufnahme-3.wav";

/// What the worker's model error was (`load_listener`'s line) for a
/// folder that does not exist.
fn model_line(l: &Locale) -> String {
    let error = ModelError::NotFound(PathBuf::from("/srv/vosk-ko")).describe(l);
    l.message(MsgKey::VoiceModelError, &[("error", &error)])
}

/// Every kind of failure, with the line the worker sent for it before it
/// was typed (each built from the locale's messages as it was built).
fn cases(l: &Locale) -> Vec<(VoiceFailure, String)> {
    let mut out = Vec::new();
    // No thread: the system's error (EAGAIN: too many threads), worded.
    for e in [
        io::Error::from_raw_os_error(11),
        io::Error::from(io::ErrorKind::OutOfMemory),
    ] {
        let error = crate::input::describe_io_error(l, &e);
        let line = l.message(MsgKey::VoiceNoThread, &[("error", &error)]);
        out.push((VoiceFailure::no_thread(e), line));
    }
    // The model: `load_listener`'s error, worded as its line was.
    let line = model_line(l);
    let error = crate::voice::live::VoiceModelError::Model(ModelError::NotFound(PathBuf::from(
        "/srv/vosk-ko",
    )));
    out.push((VoiceFailure::Model(error), line));
    for e in MicError::every_kind() {
        let error = e.describe(l);
        let line = l.message(MsgKey::VoiceNoMicrophone, &[("error", &error)]);
        out.push((VoiceFailure::Microphone(e), line));
    }
    out.push((
        VoiceFailure::Recognizer,
        l.message(MsgKey::VoiceRecognizerFailed, &[]),
    ));
    let wav = |key: MsgKey, args: &[(&str, &str)]| {
        l.message(
            MsgKey::VoiceWavError,
            &[("file", FILE), ("error", &l.message(key, args))],
        )
    };
    out.push((
        VoiceFailure::wav(PathBuf::from(FILE), WavError::NotWav),
        wav(MsgKey::WavNotWav, &[]),
    ));
    out.push((
        VoiceFailure::wav(PathBuf::from(FILE), WavError::Rate(1000)),
        wav(
            MsgKey::WavRate,
            &[
                ("rate", "1000"),
                ("min", &crate::voice::audio::MIN_RATE.to_string()),
                ("max", &crate::voice::audio::MAX_RATE.to_string()),
            ],
        ),
    ));
    out.push((
        VoiceFailure::wav(PathBuf::from(FILE), WavError::Truncated(480)),
        wav(MsgKey::WavCutShort, &[("samples", "480")]),
    ));
    out.push((
        VoiceFailure::WorkerStopped,
        l.message(MsgKey::VoiceWorkerStopped, &[]),
    ));
    out
}

/// Words of the English lines that no other locale uses (words the other
/// languages share with English, such as `Format`, `Position`, `Start`,
/// `Samples`, `was`, `in`, Polish `folder`, are left out).
const ENGLISH: &[&str] = &[
    "cannot",
    "the",
    "speech",
    "microphone",
    "spoken",
    "moves",
    "are",
    "off",
    "type",
    "instead",
    "recognizer",
    "could",
    "not",
    "stopped",
    "after",
    "internal",
    "error",
    "nothing",
    "lost",
    "give",
    "recording",
    "there",
    "plug",
    "again",
    "choose",
    "another",
    "reinstall",
    "damaged",
    "longer",
    "seconds",
    "short",
    "running",
    "allowed",
    "using",
    "close",
    "resources",
    "reports",
    "which",
    "converted",
    "reached",
    "unplugged",
    "perhaps",
];

fn english_words(line: &str) -> Vec<String> {
    line.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|w| w.trim_matches('\'').to_lowercase())
        .filter(|w| ENGLISH.contains(&w.as_str()))
        .collect()
}

#[test]
fn every_failure_is_worded_as_the_worker_worded_it_in_every_locale() {
    let codes = locale::builtin_codes();
    assert!(codes.len() >= 8, "{codes:?}");
    for code in codes {
        let l = locale::builtin(code).expect("a built-in locale loads");
        for (failure, before) in cases(&l) {
            let line = failure.describe(&l);
            assert_eq!(line, before, "{code}: {failure:?}");
            assert!(!line.trim().is_empty(), "{code}: {failure:?} says nothing");
            assert!(!line.contains('\n'), "{code}: one line: {line}");
            assert!(
                !line.contains('{') && !line.contains('}'),
                "{code}: {failure:?} leaves a placeholder: {line}"
            );
        }
    }
}

#[test]
fn no_failure_is_worded_in_english_outside_english() {
    let en = locale::builtin("en").expect("en loads");
    let english: Vec<String> = cases(&en).iter().map(|(f, _)| f.describe(&en)).collect();
    // The list can find English: every English line has some.
    for line in &english {
        assert!(!english_words(line).is_empty(), "{line}");
    }
    let mut wrong = Vec::new();
    for code in locale::builtin_codes().iter().filter(|c| **c != "en") {
        let l = locale::builtin(code).expect("a built-in locale loads");
        for ((failure, _), en_line) in cases(&l).iter().zip(&english) {
            let line = failure.describe(&l);
            let found = english_words(&line);
            if &line == en_line || !found.is_empty() {
                wrong.push(format!("{code}: English {found:?} in {line}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_recording_is_named_as_given() {
    let l = locale::builtin("de").expect("de loads");
    let file = Path::new("/tmp/züge/e4.wav");
    let line = VoiceFailure::wav(file.to_owned(), WavError::BadHeader).describe(&l);
    assert!(line.contains("/tmp/züge/e4.wav"), "{line}");
    assert!(
        line.contains(&l.message(MsgKey::WavBadHeader, &[])),
        "{line}"
    );
}
