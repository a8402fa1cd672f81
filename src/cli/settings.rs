//! `annabella config` and the settings file applied to the commands'
//! options: an option given on the command line wins, then the file, then
//! the option's default. Which options were given is asked of clap
//! ([`ArgMatches::value_source`]), so a default never hides the file.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, Subcommand};

use super::error::SettingsFileError;
use super::{CliError, io_error};
use crate::config::file::{self, FileError};
use crate::config::{Key, Source, UserConfig};
use crate::locale::MsgKey;
use crate::locale::{self, Locale, LocaleError};
use crate::ui::Mode;

/// Options of `annabella config`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ConfigArgs {
    #[command(subcommand)]
    action: Option<ConfigAction>,
    /// Without a subcommand: what the play screen would use with these
    /// options (the play screen's options, e.g. --rate 20).
    #[command(flatten)]
    play: super::ui::ScreenArgs,
}

#[derive(Debug, Subcommand)]
enum ConfigAction {
    /// Set one value (checked first; the rest of the file and its
    /// comments are kept).
    ///
    /// Example: annabella config set rate 20
    Set {
        /// Language of the messages (a locale code).
        #[arg(long, short)]
        locale: Option<String>,
        /// The setting (see `annabella config keys`).
        key: String,
        /// Its value.
        #[arg(allow_hyphen_values = true)]
        value: String,
    },
    /// Remove one value: its default applies again.
    Unset {
        /// Language of the messages (a locale code).
        #[arg(long, short)]
        locale: Option<String>,
        /// The setting.
        key: String,
    },
    /// List the settings with their allowed values.
    Keys {
        /// Language of the messages (a locale code).
        #[arg(long, short)]
        locale: Option<String>,
    },
}

/// The settings file, read at start. A bad file is one line (`warning`)
/// and no settings.
#[derive(Debug, Default)]
pub struct Startup {
    /// The settings in force from the file.
    pub config: UserConfig,
    /// The file, if there is a settings folder.
    pub path: Option<PathBuf>,
    /// Why the file was not used.
    pub warning: Option<String>,
}

/// The locale the settings' own messages are in: a built-in `--locale`
/// given to the command, else the file's, else the default (fide, German
/// messages).
fn message_locale(m: Option<&ArgMatches>, c: &UserConfig) -> Result<Locale, LocaleError> {
    let given = m
        .filter(|m| given(m, &["locale"]))
        .and_then(|m| m.try_get_one::<String>("locale").ok().flatten())
        .map(String::as_str)
        .or(c.get(Key::Locale))
        .filter(|code| locale::builtin_codes().contains(code));
    locale::builtin(given.unwrap_or("fide"))
}

/// The settings file's `locale`, if the file can be read.
pub fn file_locale() -> Option<String> {
    let path = file::path()?;
    file::load(&path).ok()?.get(Key::Locale).map(str::to_owned)
}

/// Reads the settings file for a command whose options are `m`.
pub fn startup(m: Option<&ArgMatches>) -> Startup {
    let Some(path) = file::path() else {
        return Startup::default();
    };
    match file::load(&path) {
        Ok(mut config) => {
            // A locale file that cannot be loaded (gone since it was set)
            // must not stop every command: the default is used, and said.
            let mut warning = None;
            if let Some(spec) = config.get(Key::Locale).map(str::to_owned)
                && is_locale_file(&spec)
                && let Err(error) = super::load_locale(&spec)
            {
                config.remove(Key::Locale);
                // Said in the locale used instead (a built-in one), not
                // the base locale's words a failing locale file is
                // otherwise worded in.
                let error = match error {
                    CliError::In {
                        locale: None,
                        error,
                    } => *error,
                    other => other,
                };
                let line = message_locale(m, &config).map(|loc| {
                    loc.message(
                        MsgKey::ConfigLocaleUnusable,
                        &[
                            ("file", &path.display().to_string()),
                            ("error", &error.describe(&loc)),
                        ],
                    )
                });
                warning = Some(line.unwrap_or_else(|_| {
                    locale::base().map_or_else(String::new, |b| error.describe(b))
                }));
            }
            Startup {
                config,
                path: Some(path),
                warning,
            }
        }
        Err(e) => {
            let f = path.display().to_string();
            let line = match message_locale(m, &UserConfig::default()) {
                Err(error) => error.to_string(),
                Ok(loc) => match e {
                    FileError::Config(c) => loc.message(
                        MsgKey::ConfigBadFile,
                        &[("file", &f), ("problem", &c.describe(&loc))],
                    ),
                    other => loc.message(
                        MsgKey::ConfigReadFailed,
                        &[("file", &f), ("error", &file::read_problem(&loc, &other))],
                    ),
                },
            };
            Startup {
                config: UserConfig::default(),
                path: Some(path),
                warning: Some(line),
            }
        }
    }
}

/// Whether any of `ids` was given on the command line.
fn given(m: &ArgMatches, ids: &[&str]) -> bool {
    ids.iter().any(|id| {
        matches!(m.try_contains_id(id), Ok(true))
            && m.value_source(id) == Some(ValueSource::CommandLine)
    })
}

/// The file's value of `key` unless one of `ids` was given.
fn from_file<'c>(c: &'c UserConfig, m: &ArgMatches, key: Key, ids: &[&str]) -> Option<&'c str> {
    if given(m, ids) { None } else { c.get(key) }
}

/// Parses a value the file already checked.
fn parsed<T: std::str::FromStr>(v: Option<&str>) -> Option<T> {
    v.and_then(|v| v.parse().ok())
}

/// Applies the settings file's `locale` to a command's `--locale` when it
/// was not given on the command line (the one locale rule of every
/// command: `--locale`, else the file's, else fide).
pub fn apply_locale(locale: &mut String, c: &UserConfig, m: &ArgMatches) {
    if let Some(v) = from_file(c, m, Key::Locale, &["locale"]) {
        *locale = v.to_owned();
    }
}

/// Applies the settings to the play screen's options (`annabella` with no
/// subcommand); `m` are its matches.
pub fn apply_play_screen(a: &mut super::ui::ScreenArgs, c: &UserConfig, m: &ArgMatches) {
    if let Some(v) = from_file(c, m, Key::Locale, &["locale"]) {
        a.locale = v.to_owned();
    }
    if let Some(v) = parsed(from_file(c, m, Key::Style, &["style"])) {
        a.style = v;
    }
    if let Some(v) = parsed(from_file(c, m, Key::Rate, &["rate"])) {
        a.rate = Some(v);
    }
    if let Some(v) = from_file(c, m, Key::Voice, &["voice_name"]) {
        a.voice_name = Some(v.to_owned());
    }
    if let Some(v) = parsed(from_file(c, m, Key::Verbosity, &["verbosity"])) {
        a.verbosity = v;
    }
    match from_file(c, m, Key::Speech, &["speak", "silent"]) {
        Some("on") => a.speak = true,
        Some("off") => a.silent = true,
        _ => {}
    }
    if let Some(v) = from_file(c, m, Key::Mode, &["mode"]) {
        a.mode = match v {
            "assistant" => Mode::Assistant,
            "engine" => Mode::Engine,
            "hotseat" => Mode::Hotseat,
            _ => Mode::Board,
        };
    }
    if let Some(v) = from_file(c, m, Key::Control, &["control"]) {
        a.control = Some(v.to_owned());
    }
    if let Some(v) = from_file(c, m, Key::Model, &["model"]) {
        a.model = Some(PathBuf::from(v));
    }
    match from_file(c, m, Key::Listen, &["voice", "push_to_talk", "voice_wav"]) {
        Some("hands-free") => a.voice = true,
        Some("push-to-talk") => a.push_to_talk = true,
        _ => {}
    }
    if let Some(v) = parsed(from_file(c, m, Key::SilenceMs, &["silence_ms"])) {
        a.silence_ms = v;
    }
    if let Some(v) = parsed(from_file(c, m, Key::MuteTailMs, &["mute_tail_ms"])) {
        a.mute_tail_ms = v;
    }
    if let Some(v) = from_file(c, m, Key::Theme, &["monochrome", "high_contrast"]) {
        a.theme.choose(v);
    }
    if let Some(v) = from_file(c, m, Key::White, &["white"]) {
        a.white = v.to_owned();
    }
    if let Some(v) = from_file(c, m, Key::Black, &["black"]) {
        a.black = v.to_owned();
    }
    if let Some(v) = from_file(c, m, Key::Warn, &["warn"]) {
        a.warn = Some(v.to_owned());
    }
    if let Some(v) = parsed(from_file(c, m, Key::Countdown, &["countdown"])) {
        a.countdown = Some(v);
    }
    if from_file(c, m, Key::Practice, &["practice"]) == Some("on") {
        a.practice = true;
    }
    if let Some(v) = from_file(c, m, Key::Sighted, &["sighted"]) {
        a.sighted = super::play::parse_side(v).ok();
    }
}

/// Applies `rate`, `voice` and `speech` to speech options; `plain` is
/// whether the command was asked for plain lines.
fn apply_speech(s: &mut super::clock::SpeechArgs, c: &UserConfig, m: &ArgMatches, plain: bool) {
    if let Some(v) = parsed(from_file(c, m, Key::Rate, &["rate"])) {
        s.rate = Some(v);
    }
    if let Some(v) = from_file(c, m, Key::Voice, &["voice"]) {
        s.voice = Some(v.to_owned());
    }
    match from_file(c, m, Key::Speech, &["speak", "speak_to", "plain"]) {
        Some("on") if !plain => s.speak = true,
        Some("off") => s.quiet = true,
        _ => {}
    }
}

/// Applies the settings to `annabella clock`.
pub fn apply_clock(a: &mut super::clock::ClockArgs, c: &UserConfig, m: &ArgMatches) {
    if let Some(v) = from_file(c, m, Key::Locale, &["locale"]) {
        a.locale = v.to_owned();
    }
    if let Some(v) = from_file(c, m, Key::Control, &["control"]) {
        a.control = v.to_owned();
    }
    if let Some(v) = parsed(from_file(c, m, Key::Verbosity, &["verbosity"])) {
        a.verbosity = v;
    }
    if let Some(v) = from_file(c, m, Key::Warn, &["warn"]) {
        a.warn = v.to_owned();
    }
    if let Some(v) = parsed(from_file(c, m, Key::Countdown, &["countdown"])) {
        a.countdown = v;
    }
    apply_speech(&mut a.speech, c, m, a.plain);
}

/// Applies the settings to `annabella say`.
pub fn apply_say(a: &mut super::say::SayArgs, c: &UserConfig, m: &ArgMatches) {
    if let Some(v) = from_file(c, m, Key::Locale, &["locale"]) {
        a.locale = v.to_owned();
    }
    if let Some(v) = parsed(from_file(c, m, Key::Style, &["style"])) {
        a.style = v;
    }
    apply_speech(&mut a.speech, c, m, a.plain);
}

/// Applies the settings to `annabella play`.
pub fn apply_play(a: &mut super::play::PlayArgs, c: &UserConfig, m: &ArgMatches) {
    if let Some(v) = from_file(c, m, Key::Locale, &["locale"]) {
        a.locale = v.to_owned();
    }
    if let Some(v) = from_file(c, m, Key::Control, &["control"]) {
        a.control = v.to_owned();
    }
    if let Some(v) = parsed(from_file(c, m, Key::Style, &["style"])) {
        a.style = v;
    }
    if let Some(v) = from_file(c, m, Key::White, &["white"]) {
        a.white = v.to_owned();
    }
    if let Some(v) = from_file(c, m, Key::Black, &["black"]) {
        a.black = v.to_owned();
    }
    if from_file(c, m, Key::Practice, &["practice"]) == Some("on") {
        a.practice = true;
    }
    if let Some(v) = from_file(c, m, Key::Sighted, &["sighted"]) {
        a.sighted = super::play::parse_side(v).ok();
    }
    let plain = a.script.is_some();
    apply_speech(&mut a.speech, c, m, plain);
}

/// Applies the settings to `annabella listen`.
pub fn apply_listen(a: &mut super::listen::ListenArgs, c: &UserConfig, m: &ArgMatches) {
    if let Some(v) = from_file(c, m, Key::Locale, &["locale"]) {
        a.locale = v.to_owned();
    }
    if let Some(v) = from_file(c, m, Key::Model, &["model"]) {
        a.model = Some(PathBuf::from(v));
    }
    if let Some(v) = parsed(from_file(c, m, Key::SilenceMs, &["silence_ms"])) {
        a.silence_ms = v;
    }
    if a.mic && from_file(c, m, Key::Listen, &["push_to_talk"]) == Some("push-to-talk") {
        a.push_to_talk = true;
    }
}

/// Applies the settings to `annabella review`.
pub fn apply_review(a: &mut super::review::ReviewArgs, c: &UserConfig, m: &ArgMatches) {
    if let Some(v) = from_file(c, m, Key::Locale, &["locale"]) {
        a.locale = v.to_owned();
    }
    if let Some(v) = parsed(from_file(c, m, Key::Style, &["style"])) {
        a.style = v;
    }
    if let Some(v) = from_file(c, m, Key::Theme, &["monochrome", "high_contrast"]) {
        a.theme.choose(v);
    }
    let plain = a.plain || a.silent;
    apply_speech(&mut a.speech, c, m, plain);
}

/// The value of `key` the play screen uses with options `a` (for
/// `annabella config`); keys the play screen has no option for come from
/// `clock`'s options.
fn in_force(key: Key, a: &super::ui::ScreenArgs) -> String {
    let auto = || "auto".to_owned();
    match key {
        Key::Locale => a.locale.clone(),
        Key::Style => match a.style {
            crate::vocab::Style::Short => "short",
            crate::vocab::Style::Long => "long",
        }
        .to_owned(),
        Key::Verbosity => match a.verbosity {
            crate::clock::talk::Verbosity::Brief => "brief",
            crate::clock::talk::Verbosity::Full => "full",
        }
        .to_owned(),
        Key::Warn => a.warn.clone().unwrap_or_else(|| clock_default(key.name())),
        Key::Countdown => a
            .countdown
            .map_or_else(|| clock_default(key.name()), |n| n.to_string()),
        Key::Voice => a.voice_name.clone().unwrap_or_else(auto),
        Key::Rate => a.rate.map_or_else(auto, |r| r.to_string()),
        Key::Speech => match (a.speak, a.silent) {
            (true, _) => "on".to_owned(),
            (_, true) => "off".to_owned(),
            _ => auto(),
        },
        Key::Mode => match a.mode {
            Mode::Board => "board",
            Mode::Assistant => "assistant",
            Mode::Engine => "engine",
            Mode::Hotseat => "hotseat",
        }
        .to_owned(),
        Key::Control => a
            .control
            .clone()
            .unwrap_or_else(|| crate::clock::TimeControl::default().to_string()),
        Key::Model => a
            .model
            .as_ref()
            .map_or_else(auto, |p| p.display().to_string()),
        Key::Listen => if a.voice {
            "hands-free"
        } else if a.push_to_talk {
            "push-to-talk"
        } else {
            "off"
        }
        .to_owned(),
        Key::SilenceMs => a.silence_ms.to_string(),
        Key::MuteTailMs => a.mute_tail_ms.to_string(),
        Key::Theme => a.theme.name().to_owned(),
        Key::White | Key::Black => {
            let name = if key == Key::White {
                &a.white
            } else {
                &a.black
            };
            if name.is_empty() {
                "\"\"".to_owned()
            } else {
                name.clone()
            }
        }
        Key::Practice => if a.practice { "on" } else { "off" }.to_owned(),
        Key::Sighted => match a.sighted {
            Some(crate::game::Side::White) => "white",
            Some(crate::game::Side::Black) => "black",
            None => "none",
        }
        .to_owned(),
    }
}

/// The play screen's option ids that set `key`.
fn play_screen_ids(key: Key) -> &'static [&'static str] {
    match key {
        Key::Locale => &["locale"],
        Key::Style => &["style"],
        Key::Verbosity => &[],
        Key::Warn => &["warn"],
        Key::Countdown => &["countdown"],
        Key::Voice => &["voice_name"],
        Key::Rate => &["rate"],
        Key::Speech => &["speak", "silent"],
        Key::Mode => &["mode"],
        Key::Control => &["control"],
        Key::Model => &["model"],
        Key::Listen => &["voice", "push_to_talk", "voice_wav"],
        Key::SilenceMs => &["silence_ms"],
        Key::MuteTailMs => &["mute_tail_ms"],
        Key::Theme => &["monochrome", "high_contrast"],
        Key::White => &["white"],
        Key::Black => &["black"],
        Key::Practice => &["practice"],
        Key::Sighted => &["sighted"],
    }
}

/// A locale given as a file rather than a built-in code.
fn is_locale_file(spec: &str) -> bool {
    spec.ends_with(".toml") || spec.contains('/') || spec.contains('\\')
}

fn say_line(out: &mut impl Write, line: &str) -> Result<(), CliError> {
    writeln!(out, "{line}").map_err(io_error)
}

fn settings_path(loc: &Locale) -> Result<PathBuf, CliError> {
    file::path().ok_or_else(|| CliError::msg(MsgKey::ConfigNoHome).worded_in(loc))
}

fn key_of(loc: &Locale, name: &str) -> Result<Key, CliError> {
    Key::from_name(name).ok_or_else(|| {
        CliError::typed(crate::config::ConfigError::UnknownKey(name.to_owned())).worded_in(loc)
    })
}

fn file_problem(loc: &Locale, path: &Path, e: FileError) -> CliError {
    CliError::typed(SettingsFileError {
        file: path.to_owned(),
        error: e,
    })
    .worded_in(loc)
}

/// `annabella config`: `m` are its matches, `start` the file as read at
/// start.
pub fn run(
    out: &mut impl Write,
    args: &ConfigArgs,
    m: &ArgMatches,
    start: &Startup,
) -> Result<ExitCode, CliError> {
    let m = m.subcommand().map_or(m, |(_, sub)| sub);
    let loc = message_locale(Some(m), &start.config).map_err(|e| CliError::Locale(e).in_base())?;
    match &args.action {
        Some(ConfigAction::Keys { .. }) => {
            for k in Key::ALL {
                let d = loc.message(k.message_key(), &[]);
                say_line(
                    out,
                    &loc.message(
                        MsgKey::ConfigKeyLine,
                        &[("key", k.name()), ("description", &d)],
                    ),
                )?;
            }
        }
        Some(ConfigAction::Set { key, value, .. }) => {
            let path = settings_path(&loc)?;
            let key = key_of(&loc, key)?;
            // A locale file is loaded before it is kept: one that cannot
            // be would stop every command later.
            if key == Key::Locale && is_locale_file(value.trim()) {
                super::load_locale_in(value.trim(), Some(&loc))
                    .map_err(|why| CliError::msg(MsgKey::ConfigRejected).arg("problem", why))?;
            }
            let value =
                file::save_value(&path, key, value).map_err(|e| file_problem(&loc, &path, e))?;
            let f = path.display().to_string();
            say_line(
                out,
                &loc.message(
                    MsgKey::ConfigSaved,
                    &[("key", key.name()), ("value", &value), ("file", &f)],
                ),
            )?;
        }
        Some(ConfigAction::Unset { key, .. }) => {
            let path = settings_path(&loc)?;
            let key = key_of(&loc, key)?;
            let found = file::remove_value(&path, key).map_err(|e| file_problem(&loc, &path, e))?;
            let f = path.display().to_string();
            let msg = if found {
                MsgKey::ConfigRemoved
            } else {
                MsgKey::ConfigNotSet
            };
            say_line(out, &loc.message(msg, &[("key", key.name()), ("file", &f)]))?;
        }
        None => show(out, &loc, args, m, start)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn show(
    out: &mut impl Write,
    loc: &Locale,
    args: &ConfigArgs,
    m: &ArgMatches,
    start: &Startup,
) -> Result<(), CliError> {
    let path = settings_path(loc)?;
    let f = path.display().to_string();
    let head = if path.exists() {
        loc.message(MsgKey::ConfigFile, &[("file", &f)])
    } else {
        loc.message(MsgKey::ConfigFileMissing, &[("file", &f)])
    };
    say_line(out, &head)?;
    let mut play = args.play.clone();
    apply_play_screen(&mut play, &start.config, m);
    for k in Key::ALL {
        let source = if given(m, play_screen_ids(k)) {
            Source::CommandLine
        } else if start.config.get(k).is_some() {
            Source::File
        } else {
            Source::Default
        };
        let value = in_force(k, &play);
        let src = loc.message(source.message_key(), &[]);
        say_line(
            out,
            &loc.message(
                MsgKey::ConfigLine,
                &[("key", k.name()), ("value", &value), ("source", &src)],
            ),
        )?;
    }
    Ok(())
}

/// The default of one of `annabella clock`'s options, from its
/// definition.
fn clock_default(id: &str) -> String {
    use clap::CommandFactory;
    let cmd = super::Cli::command();
    cmd.find_subcommand("clock")
        .and_then(|c| c.get_arguments().find(|a| a.get_id() == id))
        .and_then(|a| a.get_default_values().first())
        .map(|v| v.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Tells the settings of one kind of value to the play screen's settings
/// command (the lead's): checks `value` for the setting named `key`
/// (`rate`, `verbosity`, `voice`, …) and returns it canonical, or the
/// one error to say ([`crate::config::ConfigError::describe`] words it).
pub fn check_value(key: &str, value: &str) -> Result<(Key, String), crate::config::ConfigError> {
    let k = Key::from_name(key)
        .ok_or_else(|| crate::config::ConfigError::UnknownKey(key.to_owned()))?;
    crate::config::validate(k, value).map(|v| (k, v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::EngineSide;
    use clap::{CommandFactory, FromArgMatches};

    fn play_screen(args: &[&str], c: &UserConfig) -> super::super::ui::ScreenArgs {
        let mut all = vec!["annabella"];
        all.extend_from_slice(args);
        let m = super::super::Cli::command().get_matches_from(all);
        let mut cli = super::super::Cli::from_arg_matches(&m).unwrap();
        apply_play_screen(&mut cli.play, c, &m);
        cli.play
    }

    fn config(text: &str) -> UserConfig {
        UserConfig::parse(text).unwrap()
    }

    #[test]
    fn the_file_applies_and_options_win() {
        let c = config(
            "locale = 'de'\nstyle = 'long'\nrate = -20\nvoice = 'German+f2'\nspeech = 'off'\n\
             mode = 'hotseat'\ncontrol = '15m+10s'\nmodel = '/m'\nlisten = 'push-to-talk'\n\
             silence-ms = 450\ntheme = 'monochrome'\nwhite = 'Anna'\nblack = 'Bella'\n",
        );
        let a = play_screen(&[], &c);
        assert_eq!(a.locale, "de");
        assert_eq!(a.style, crate::vocab::Style::Long);
        assert_eq!(a.rate, Some(-20));
        assert_eq!(a.voice_name.as_deref(), Some("German+f2"));
        assert!(a.silent && !a.speak);
        assert_eq!(a.mode, Mode::Hotseat);
        assert_eq!(a.control.as_deref(), Some("15m+10s"));
        assert_eq!(a.model, Some(PathBuf::from("/m")));
        assert!(a.push_to_talk && !a.voice);
        assert_eq!(a.silence_ms, 450);
        assert!(a.theme.monochrome && !a.theme.high_contrast);
        assert_eq!((a.white.as_str(), a.black.as_str()), ("Anna", "Bella"));
        // Options given on the command line win, also when they are the
        // defaults; options not given keep the file's values.
        let a = play_screen(
            &[
                "-l",
                "fide",
                "--style",
                "short",
                "--speak",
                "--voice",
                "--high-contrast",
                "--rate",
                "5",
            ],
            &c,
        );
        assert_eq!(a.locale, "fide");
        assert_eq!(a.style, crate::vocab::Style::Short);
        assert!(a.speak && !a.silent);
        assert!(a.voice && !a.push_to_talk);
        assert!(a.theme.high_contrast && !a.theme.monochrome);
        assert_eq!(a.rate, Some(5));
        assert_eq!(a.mode, Mode::Hotseat);
        assert_eq!(a.engine_side, EngineSide::Black);
    }

    #[test]
    fn no_file_changes_nothing() {
        let a = play_screen(&[], &UserConfig::default());
        let b = play_screen(&[], &config(""));
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
        assert_eq!(a.locale, "fide");
        assert!(!a.speak && !a.silent && a.rate.is_none());
    }

    #[test]
    fn clock_takes_verbosity_warnings_and_speech() {
        let c = config("verbosity = 'full'\nwarn = '2m,30s'\ncontrol = '3m+2s'\nspeech = 'off'\n");
        let m = super::super::Cli::command().get_matches_from([
            "annabella",
            "clock",
            "--control",
            "5m",
        ]);
        let sub = m.subcommand_matches("clock").unwrap();
        let mut a = super::super::clock::ClockArgs::from_arg_matches(sub).unwrap();
        apply_clock(&mut a, &c, sub);
        assert_eq!(a.verbosity, crate::clock::talk::Verbosity::Full);
        assert_eq!(a.warn, "2m,30s");
        assert_eq!(a.control, "5m");
        assert!(a.speech.quiet);
        assert_eq!(a.speech.output(false), crate::speech::Output::Text);
    }

    #[test]
    fn a_value_for_the_play_screen_command_is_checked() {
        let en = locale::builtin("en").unwrap();
        assert_eq!(check_value("rate", "30"), Ok((Key::Rate, "30".into())));
        let e = check_value("rate", "300").unwrap_err().describe(&en);
        assert!(e.contains("rate") && e.contains("300"), "{e}");
        assert!(check_value("speed", "3").is_err());
    }
}
