//! The command line's error: what went wrong, as data and typed causes.
//! Words are chosen in one place, [`CliError::describe`], called at the
//! edge (`cli::main` and the play screen's start) in the message locale of
//! the one-locale rule.

use std::fmt;
use std::path::PathBuf;

use shakmaty::Chess;

use crate::locale::{self, Direction, Locale, LocaleError, MsgKey};
use crate::vocab::{ParseError, Utterance, Vocabulary};

/// A typed cause inside an error, worded only when the error is described.
pub trait Cause: fmt::Debug {
    /// The cause in `locale`'s words.
    fn describe(&self, locale: &Locale) -> String;
}

impl Cause for std::io::Error {
    fn describe(&self, locale: &Locale) -> String {
        crate::input::describe_io_error(locale, self)
    }
}

/// Errors that word themselves with an inherent `describe(&self, &Locale)`
/// are causes as they are.
macro_rules! cause_by_describe {
    ($($t:ty),* $(,)?) => {
        $(impl Cause for $t {
            fn describe(&self, locale: &Locale) -> String {
                <$t>::describe(self, locale)
            }
        })*
    };
}

cause_by_describe!(
    crate::pgn::FenProblem,
    crate::clock::ParseTimeControlError,
    crate::clock::DurationError,
    crate::journal::JournalConfigError,
    crate::voice::live::VoiceModelError,
    LocaleError,
    crate::pgn::PgnReadError,
    crate::input::InputError,
    crate::speech::SpeechError,
    crate::config::ConfigError,
    crate::voice::VoiceFailure,
);

/// A file that may not be written (see [`crate::output`]), and why.
#[derive(Debug)]
pub struct OutputRefused {
    /// The file as given.
    pub file: PathBuf,
    /// Why.
    pub error: crate::output::OutputError,
}

impl Cause for OutputRefused {
    fn describe(&self, locale: &Locale) -> String {
        self.error.describe(locale, &self.file)
    }
}

/// The settings file, and what went wrong with it.
#[derive(Debug)]
pub struct SettingsFileError {
    /// The settings file.
    pub file: PathBuf,
    /// What went wrong.
    pub error: crate::config::file::FileError,
}

impl Cause for SettingsFileError {
    fn describe(&self, locale: &Locale) -> String {
        crate::config::file::describe(locale, &self.file, &self.error)
    }
}

/// A phrase that is not one legal move of a position, and why: worded by
/// the vocabulary of the locale that describes it (its words for the
/// pieces, squares and the example move).
#[derive(Debug)]
pub struct MoveRefused {
    /// The position the phrase was read in.
    pub position: Chess,
    /// Why it is not one legal move.
    pub error: ParseError,
}

impl Cause for MoveRefused {
    fn describe(&self, locale: &Locale) -> String {
        Vocabulary::new(locale.clone())
            .describe_error(&self.position, &self.error)
            .display
    }
}

/// A PGN file whose first game cannot be continued, and why: worded by
/// the vocabulary of the locale that describes it.
#[derive(Debug)]
pub struct PgnRefused {
    /// The file as given.
    pub file: String,
    /// Why.
    pub error: crate::pgn::ContinueError,
}

impl Cause for PgnRefused {
    fn describe(&self, locale: &Locale) -> String {
        self.error
            .describe(&Vocabulary::new(locale.clone()), &self.file)
            .display
    }
}

/// An argument of a message: data (a name, a number, a path), a typed
/// cause, or another message.
#[derive(Debug)]
pub enum Arg {
    /// Data written as it is: a file name, a number, what the user typed.
    Text(String),
    /// A typed cause, worded when the error is.
    Cause(Box<dyn Cause>),
    /// A message of its own (a key with its arguments).
    Message(MsgKey, Vec<(&'static str, Arg)>),
    /// An error inside another (what the refused value's problem was).
    Error(Box<CliError>),
}

impl Arg {
    /// A typed cause.
    pub fn cause(c: impl Cause + 'static) -> Arg {
        Arg::Cause(Box::new(c))
    }

    fn describe(&self, l: &Locale) -> String {
        match self {
            Arg::Text(t) => t.clone(),
            Arg::Cause(c) => c.describe(l),
            Arg::Message(key, args) => message(l, *key, args),
            Arg::Error(e) => e.describe(l),
        }
    }
}

impl From<CliError> for Arg {
    fn from(e: CliError) -> Arg {
        Arg::Error(Box::new(e))
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Text(s)
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Text(s.to_owned())
    }
}

fn message(l: &Locale, key: MsgKey, args: &[(&'static str, Arg)]) -> String {
    let words: Vec<(&str, String)> = args.iter().map(|(k, a)| (*k, a.describe(l))).collect();
    let refs: Vec<(&str, &str)> = words.iter().map(|(k, v)| (*k, v.as_str())).collect();
    l.message(key, &refs)
}

/// Why a locale file could not be read.
#[derive(Debug)]
pub enum LocaleFileError {
    /// Opening or reading it failed.
    Io(std::io::Error),
    /// It is larger than [`locale::MAX_LOCALE_BYTES`].
    TooLarge,
}

impl Cause for LocaleFileError {
    fn describe(&self, l: &Locale) -> String {
        match self {
            LocaleFileError::Io(e) => crate::input::describe_io_error(l, e),
            LocaleFileError::TooLarge => l.message(
                MsgKey::LocaleTooLarge,
                &[("limit", &(locale::MAX_LOCALE_BYTES / 1024).to_string())],
            ),
        }
    }
}

/// An error of a command: the process says it on one line (or a few) and
/// exits with 1.
#[derive(Debug)]
pub enum CliError {
    /// Writing the output (standard output) failed.
    Output(std::io::Error),
    /// A built-in locale does not load (a defect of the build).
    Locale(LocaleError),
    /// A locale file does not load: worded by the base locale (the file's
    /// own words are what failed) unless a locale is given with
    /// [`CliError::In`].
    LocaleFile(LocaleError),
    /// A locale file could not be read.
    LocaleRead {
        /// The file as given.
        file: String,
        /// Why.
        error: LocaleFileError,
    },
    /// Neither a built-in locale code nor a locale file.
    UnknownLocale {
        /// What was given.
        locale: String,
    },
    /// `generate commands`: the base locale does not load.
    GenerateNoBase,
    /// `generate WHAT`: not one of the things generated.
    GenerateUnknown {
        /// What was asked for.
        what: String,
    },
    /// `export --json`: the state could not be written as JSON.
    Json(serde_json::Error),
    /// One message of the locale with its arguments (data or typed causes,
    /// never a worded line).
    Message {
        /// The message.
        key: MsgKey,
        /// Its arguments.
        args: Vec<(&'static str, Arg)>,
    },
    /// Several errors, one per line.
    Lines(Vec<CliError>),
    /// A typed error that words its whole line itself (a speech error, a
    /// refused output file, a bad settings value).
    Typed(Box<dyn Cause>),
    /// An error as the screen shows a line of the locale: in a
    /// right-to-left locale inside an isolate (RLI … PDI), so that a
    /// left-to-right terminal keeps its words in order.
    Isolated(Box<CliError>),
    /// What the game layer said, as its lines are shown: the notes of a
    /// damaged journal that `resume` refuses, worded with the replayed
    /// game's own words (its locale) when the journal was read.
    Said(Vec<Utterance>),
    /// An error worded in the words of another locale than the message
    /// locale: the base locale for a locale file that does not load, or a
    /// journal's own locale.
    In {
        /// The locale that words it (`None`: the base locale).
        locale: Option<Box<Locale>>,
        /// The error.
        error: Box<CliError>,
    },
}

impl CliError {
    /// One message with data arguments.
    pub fn msg(key: MsgKey) -> CliError {
        CliError::Message {
            key,
            args: Vec::new(),
        }
    }

    /// Adds an argument to a [`CliError::Message`] (no effect on another
    /// kind).
    pub fn arg(mut self, name: &'static str, value: impl Into<Arg>) -> CliError {
        if let CliError::Message { args, .. } = &mut self {
            args.push((name, value.into()));
        }
        self
    }

    /// Adds a typed cause to a [`CliError::Message`].
    pub fn cause(self, name: &'static str, c: impl Cause + 'static) -> CliError {
        self.arg(name, Arg::cause(c))
    }

    /// A typed error that words its whole line itself.
    pub fn typed(c: impl Cause + 'static) -> CliError {
        CliError::Typed(Box::new(c))
    }

    /// This error as the screen shows a line (see [`CliError::Isolated`]).
    pub fn isolated(self) -> CliError {
        CliError::Isolated(Box::new(self))
    }

    /// This error, worded in `locale` whatever the message locale is.
    pub fn worded_in(self, locale: &Locale) -> CliError {
        CliError::In {
            locale: Some(Box::new(locale.clone())),
            error: Box::new(self),
        }
    }

    /// This error, worded by the base locale.
    pub fn in_base(self) -> CliError {
        CliError::In {
            locale: None,
            error: Box::new(self),
        }
    }

    /// The error in words: the only place that chooses them. `l` is the
    /// message locale (`--locale`, else the settings file's, else fide).
    pub fn describe(&self, l: &Locale) -> String {
        match self {
            CliError::Output(e) => l.message(
                MsgKey::CliOutputFailed,
                &[("error", &crate::input::describe_io_error(l, e))],
            ),
            CliError::Locale(e) | CliError::LocaleFile(e) => e.describe(l),
            CliError::LocaleRead { file, error } => l.message(
                MsgKey::LocaleReadFailed,
                &[("file", file), ("error", &error.describe(l))],
            ),
            CliError::UnknownLocale { locale: given } => l.message(
                MsgKey::ErrorUnknownLocale,
                &[
                    ("locale", given),
                    ("known", &locale::builtin_codes().join(", ")),
                ],
            ),
            CliError::GenerateNoBase => l.message(MsgKey::CliGenerateNoBase, &[]),
            CliError::GenerateUnknown { what } => {
                l.message(MsgKey::CliGenerateUnknown, &[("what", what)])
            }
            CliError::Json(_) => l.message(MsgKey::ExportJsonFailed, &[]),
            CliError::Message { key, args } => message(l, *key, args),
            CliError::Lines(list) => list
                .iter()
                .map(|e| e.describe(l))
                .collect::<Vec<_>>()
                .join("\n"),
            CliError::Typed(c) => c.describe(l),
            CliError::Isolated(e) => {
                let line = e.describe(l);
                match l.direction {
                    Direction::Ltr => line,
                    // As `Vocabulary::for_display`.
                    Direction::Rtl => format!("\u{2067}{line}\u{2069}"),
                }
            }
            CliError::Said(lines) => lines
                .iter()
                .map(|u| u.display.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            CliError::In { locale, error } => {
                let words = match locale {
                    Some(w) => w,
                    None => locale::base().unwrap_or(l),
                };
                error.describe(words)
            }
        }
    }
}

impl From<std::io::Error> for CliError {
    /// An error writing the output.
    fn from(e: std::io::Error) -> CliError {
        CliError::Output(e)
    }
}

/// The message locale of a command whose locale option is `spec` (after
/// the settings file is applied): that locale, else fide, else the base
/// locale.
pub fn message_locale(spec: &str) -> Option<Locale> {
    super::load_locale(spec)
        .ok()
        .map(|v| v.locale().clone())
        .or_else(|| locale::builtin("fide").ok())
        .or_else(|| locale::base().cloned())
}

#[cfg(test)]
mod tests;
