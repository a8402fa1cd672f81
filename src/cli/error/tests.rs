//! Every kind of [`CliError`] is worded in every built-in locale: a line,
//! no placeholder left, and no English outside the English locale.

use super::*;

/// One error of every kind (and every new message of this module).
fn samples() -> Vec<CliError> {
    let io = || std::io::Error::from(std::io::ErrorKind::PermissionDenied);
    let json = serde_json::from_str::<serde_json::Value>("{").unwrap_err();
    let bad_locale = locale::Locale::from_toml("x.toml", "=").unwrap_err();
    vec![
        CliError::Output(io()),
        CliError::Locale(bad_locale.clone()),
        CliError::LocaleFile(bad_locale.clone()),
        CliError::LocaleRead {
            file: "x.toml".to_owned(),
            error: LocaleFileError::Io(io()),
        },
        CliError::LocaleRead {
            file: "x.toml".to_owned(),
            error: LocaleFileError::TooLarge,
        },
        CliError::UnknownLocale {
            locale: "xx".to_owned(),
        },
        CliError::GenerateNoBase,
        CliError::GenerateUnknown {
            what: "tcsh".to_owned(),
        },
        CliError::Json(json),
        CliError::msg(MsgKey::ConfigRejected).arg(
            "problem",
            CliError::UnknownLocale {
                locale: "xx".to_owned(),
            },
        ),
        CliError::msg(MsgKey::UiTerminalError).cause("error", io()),
        CliError::Lines(vec![CliError::GenerateNoBase, CliError::Output(io())]),
        CliError::GenerateNoBase.in_base(),
        // Issue 19: typed errors that were lines (`Result<_, String>`).
        CliError::of(crate::journal::JournalConfigError::Start(
            crate::pgn::FenProblem::Kings,
        )),
        CliError::msg(MsgKey::JournalBadHeader)
            .arg("file", "g.jsonl")
            .cause(
                "error",
                crate::journal::JournalConfigError::Control(
                    crate::clock::ParseTimeControlError::Empty,
                ),
            ),
        CliError::of(VoiceModelError::NotBuilt),
        CliError::of(VoiceModelError::NoModel {
            missing: MsgKey::VoiceNoModelListen,
            locale: "Deutsch".to_owned(),
            name: "vosk-model-small-de-0.15".to_owned(),
        }),
        CliError::of(VoiceModelError::Model(ModelError::NotFound("/m".into()))),
        CliError::of(VoiceModelError::Model(ModelError::NotAModel {
            path: "/m".into(),
            missing: "am/final.mdl".to_owned(),
        })),
        CliError::of(VoiceModelError::Model(ModelError::LoadFailed("/m".into()))),
        CliError::of(VoiceModelError::Model(ModelError::NotBuilt)),
        CliError::of(VoiceModelError::WrongLanguage {
            path: "/m".into(),
            locale: "Deutsch".to_owned(),
            words: vec!["springer (knight)".to_owned()],
        }),
        CliError::of(crate::cli::play::parse_side("grey").unwrap_err()),
        CliError::of(crate::cli::settings::check_value("rate", "300").unwrap_err()),
    ]
}

use crate::voice::live::VoiceModelError;
use crate::voice::recognizer::ModelError;

/// Words of the English messages of this module that must not be met in
/// another locale's line.
const ENGLISH: &[&str] = &[
    "cannot",
    "write",
    "output",
    "the",
    "base",
    "locale",
    "does",
    "not",
    "load",
    "or",
    "state",
    "written",
    "nothing",
    "was",
    "permission",
    "denied",
    "file",
    "unknown",
    "use",
    "missing",
    "allowed",
    "language",
];

fn english_words(line: &str) -> Vec<String> {
    line.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|w| w.trim_matches('\'').to_lowercase())
        .filter(|w| ENGLISH.contains(&w.as_str()))
        .collect()
}

#[test]
fn every_error_is_worded_in_every_locale() {
    for code in locale::builtin_codes() {
        let l = locale::builtin(code).expect("a built-in locale loads");
        for e in samples() {
            let line = e.describe(&l);
            assert!(!line.trim().is_empty(), "{code}: {e:?} says nothing");
            assert!(
                !line.contains('{') && !line.contains('}'),
                "{code}: {e:?} leaves a placeholder: {line}"
            );
            if *code != *"en" && !matches!(e, CliError::In { .. }) {
                let found = english_words(&line);
                assert!(found.is_empty(), "{code}: English {found:?} in {line}");
            }
        }
    }
}

#[test]
fn the_new_messages_are_not_the_english_ones() {
    let en = locale::builtin("en").expect("en loads");
    for code in locale::builtin_codes().iter().filter(|c| **c != "en") {
        let l = locale::builtin(code).expect("a built-in locale loads");
        for e in [
            CliError::Output(std::io::Error::from(std::io::ErrorKind::BrokenPipe)),
            CliError::GenerateNoBase,
            CliError::GenerateUnknown {
                what: "tcsh".to_owned(),
            },
            CliError::Json(serde_json::from_str::<serde_json::Value>("{").unwrap_err()),
        ] {
            assert_ne!(e.describe(&l), e.describe(&en), "{code}: {e:?}");
        }
    }
}

#[test]
fn an_error_in_the_base_locale_is_english_whatever_the_message_locale() {
    let de = locale::builtin("de").expect("de loads");
    let en = locale::builtin("en").expect("en loads");
    let e = CliError::GenerateNoBase.in_base();
    assert_eq!(e.describe(&de), CliError::GenerateNoBase.describe(&en));
    let e = CliError::GenerateNoBase.worded_in(&de);
    assert_eq!(e.describe(&en), CliError::GenerateNoBase.describe(&de));
}
