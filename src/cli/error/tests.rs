//! Every kind of [`CliError`] is worded in every built-in locale: a line,
//! no placeholder left, and no English outside the English locale.

use super::*;
use crate::vocab::Vocabulary;

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
        CliError::typed(crate::journal::JournalConfigError::Start(
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
        CliError::typed(VoiceModelError::NotBuilt),
        CliError::typed(VoiceModelError::NoModel {
            missing: MsgKey::VoiceNoModelListen,
            locale: "Deutsch".to_owned(),
            name: "vosk-model-small-de-0.15".to_owned(),
        }),
        CliError::typed(VoiceModelError::Model(ModelError::NotFound("/m".into()))),
        CliError::typed(VoiceModelError::Model(ModelError::NotAModel {
            path: "/m".into(),
            missing: "am/final.mdl".to_owned(),
        })),
        CliError::typed(VoiceModelError::Model(ModelError::LoadFailed("/m".into()))),
        CliError::typed(VoiceModelError::Model(ModelError::NotBuilt)),
        CliError::typed(VoiceModelError::WrongLanguage {
            path: "/m".into(),
            locale: "Deutsch".to_owned(),
            words: vec!["springer (knight)".to_owned()],
        }),
        CliError::typed(crate::cli::play::parse_side("grey").unwrap_err()),
        CliError::typed(crate::cli::settings::check_value("rate", "300").unwrap_err()),
    ]
    .into_iter()
    .chain(typed_samples())
    .collect()
}

/// A position and phrases that are not one legal move of it, one of every
/// kind of refusal.
fn refused_moves() -> Vec<MoveRefused> {
    let start = Chess::default();
    let after_e4 = {
        use shakmaty::Position;
        let m = start.legal_moves()[0];
        start.clone().play(m).expect("a legal move")
    };
    [
        ParseError::Empty,
        ParseError::NotUnderstood {
            unknown: vec!["xyzzy".to_owned()],
        },
        ParseError::TooLong(crate::input::TooLong::Line),
    ]
    .into_iter()
    .map(|error| MoveRefused {
        position: start.clone(),
        error,
    })
    .chain([MoveRefused {
        position: after_e4,
        error: ParseError::Empty,
    }])
    .collect()
}

/// A PGN game whose third move cannot be played.
fn bad_pgn_game() -> crate::pgn::ReplayedGame {
    let games = crate::pgn::read_games("1. e4 e5 2. Ke3 *\n".as_bytes()).expect("PGN reads");
    let replayed = games[0].replay().expect("standard start");
    assert!(replayed.error.is_some(), "Ke3 is not legal");
    replayed
}

/// The errors of the command line's other kinds: typed errors that word
/// their whole line, and lines as the screen shows them.
fn typed_samples() -> Vec<CliError> {
    use crate::config::ConfigError;
    use crate::config::file::FileError;
    use crate::input::{FileKind, InputError};
    use crate::output::OutputError;
    use crate::pgn::ContinueError;
    use crate::speech::SpeechError;
    let io = || std::io::Error::from(std::io::ErrorKind::PermissionDenied);
    let system = || crate::input::SystemError::from(&io());
    let file = || std::path::PathBuf::from("x.pgn");
    let mut out: Vec<CliError> = vec![
        CliError::typed(SpeechError::NoEngine {
            program: "espeak-ng".to_owned(),
            error: system(),
        }),
        CliError::typed(SpeechError::NoVoice {
            engine: "espeak-ng".to_owned(),
            language: "xx".to_owned(),
        }),
        CliError::typed(SpeechError::Stuck {
            engine: "espeak-ng".to_owned(),
            seconds: 10,
        }),
        CliError::typed(SpeechError::File {
            path: "x.wav".into(),
            error: system(),
        }),
        CliError::typed(ConfigError::UnknownKey("colour".to_owned())),
        CliError::typed(ConfigError::BadValue {
            key: crate::config::Key::Rate,
            value: "300".to_owned(),
        }),
        CliError::msg(MsgKey::ClockBadEvery)
            .arg("option", "every")
            .arg("value", "5x")
            .cause(
                "error",
                crate::clock::parse_duration("5x").expect_err("not a duration"),
            ),
        CliError::msg(MsgKey::ReviewBadFile)
            .arg("file", "x.pgn")
            .cause("error", crate::pgn::PgnReadError::TooLarge),
        CliError::msg(MsgKey::ExportNotAFile)
            .arg("file", "x.pgn")
            .cause("error", InputError::NotRegular(FileKind::Fifo)),
        CliError::typed(PgnRefused {
            file: "x.pgn".to_owned(),
            error: ContinueError::Move(Box::new(bad_pgn_game())),
        }),
        CliError::typed(PgnRefused {
            file: "x.pgn".to_owned(),
            error: ContinueError::NoGame,
        })
        .isolated(),
        CliError::typed(PgnRefused {
            file: "x.pgn".to_owned(),
            error: ContinueError::Fen(crate::pgn::FenProblem::Board),
        }),
        CliError::typed(PgnRefused {
            file: "x.pgn".to_owned(),
            error: ContinueError::Read(crate::pgn::PgnReadError::Io(io())),
        }),
        CliError::msg(MsgKey::VoiceModelError)
            .arg("error", Arg::Message(MsgKey::ModelNoDataDir, Vec::new())),
    ];
    for error in [
        OutputError::IsInput { input: file() },
        OutputError::NotRegular(FileKind::Device),
        OutputError::OtherKind,
        OutputError::OtherGames { games: 2 },
        OutputError::Exists,
        OutputError::Io(io()),
    ] {
        out.push(CliError::typed(OutputRefused {
            file: file(),
            error,
        }));
    }
    for error in [
        FileError::Io(io()),
        FileError::Input(InputError::NotText),
        FileError::Config(ConfigError::UnknownKey("colour".to_owned())),
        FileError::Busy,
        FileError::Refused(OutputError::NotRegular(FileKind::Directory)),
    ] {
        out.push(CliError::typed(SettingsFileError {
            file: "config.toml".into(),
            error,
        }));
    }
    for m in refused_moves() {
        out.push(
            CliError::msg(MsgKey::ErrorBadMove)
                .arg("number", "1")
                .arg("move", "xyzzy")
                .cause("reason", m),
        );
    }
    out.push(
        CliError::typed(refused_moves().remove(0))
            .isolated()
            .worded_in(&locale::builtin("he").expect("he loads")),
    );
    out
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
    "game",
    "move",
    "moves",
    "exists",
    "already",
    "voice",
    "key",
    "settings",
    "nothing",
    "choose",
    "unknown",
    "model",
    "use",
    "missing",
    "allowed",
    "language",
];

fn english_words(line: &str) -> Vec<String> {
    // The names of the settings are what the user types (`config set
    // locale de`), the same in every language.
    let keys: Vec<&str> = crate::config::Key::ALL.iter().map(|k| k.name()).collect();
    line.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|w| w.trim_matches('\'').to_lowercase())
        .filter(|w| ENGLISH.contains(&w.as_str()) && !keys.contains(&w.as_str()))
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

#[test]
fn a_refused_move_is_worded_as_the_vocabulary_of_the_locale_words_it() {
    for code in locale::builtin_codes() {
        let vocab = Vocabulary::builtin(code).expect("a built-in locale loads");
        for m in refused_moves() {
            let want = vocab.describe_error(&m.position, &m.error).display;
            assert_eq!(CliError::typed(m).describe(vocab.locale()), want, "{code}");
        }
    }
}

#[test]
fn a_pgn_game_that_cannot_be_continued_is_worded_as_the_vocabulary_words_it() {
    use crate::pgn::ContinueError;
    for code in locale::builtin_codes() {
        let vocab = Vocabulary::builtin(code).expect("a built-in locale loads");
        let e = ContinueError::Move(Box::new(bad_pgn_game()));
        let want = bad_pgn_game()
            .describe_error(&vocab, "x.pgn", 1)
            .expect("an error")
            .display;
        assert_eq!(e.describe(&vocab, "x.pgn").display, want, "{code}");
        let e = CliError::typed(PgnRefused {
            file: "x.pgn".to_owned(),
            error: e,
        });
        assert_eq!(e.describe(vocab.locale()), want, "{code}");
    }
}

#[test]
fn an_isolated_line_is_inside_an_isolate_only_right_to_left() {
    for code in locale::builtin_codes() {
        let vocab = Vocabulary::builtin(code).expect("a built-in locale loads");
        let l = vocab.locale();
        let line = CliError::GenerateNoBase.describe(l);
        assert_eq!(
            CliError::GenerateNoBase.isolated().describe(l),
            vocab.for_display(&line),
            "{code}"
        );
    }
    let he = locale::builtin("he").expect("he loads");
    let line = CliError::GenerateNoBase.isolated().describe(&he);
    assert!(
        line.starts_with('\u{2067}') && line.ends_with('\u{2069}'),
        "{line:?}"
    );
}
