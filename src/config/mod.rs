//! The user's settings file (`~/.config/annabella/config.toml`): the model
//! is pure (parse, validate, change one value keeping the rest of the text
//! and its comments); [`file`] reads and writes it.
//!
//! The file holds one TOML key per setting, for example:
//!
//! ```toml
//! locale = "de"
//! rate = 20
//! listen = "push-to-talk"
//! ```
//!
//! Command-line options override the file; the file overrides the
//! built-in defaults. Values are checked when the file is read and when
//! one is set: a bad one is named with what is allowed.

pub mod file;

use std::collections::BTreeMap;

use crate::locale::MsgKey;
use crate::locale::{self, Locale};

/// One setting of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    /// Locale of words and messages (a built-in code or a `.toml` file).
    Locale,
    /// Announcement style: short or long.
    Style,
    /// How much the talking clock says: brief or full.
    Verbosity,
    /// The speech synthesizer's voice name.
    Voice,
    /// Speaking rate, -100 to 100.
    Rate,
    /// Speech on, off, or auto (the command's default).
    Speech,
    /// How the play screen is used: board, assistant, engine, hotseat.
    Mode,
    /// Time control text.
    Control,
    /// Folder of the speech model.
    Model,
    /// Spoken moves: off, hands-free or push-to-talk.
    Listen,
    /// Silence that ends a spoken move, in milliseconds.
    SilenceMs,
    /// How long the microphone stays deaf after annabella's own speech.
    MuteTailMs,
    /// Low-time warning marks of the clock.
    Warn,
    /// The last seconds counted aloud (0: no countdown).
    Countdown,
    /// Colours: default, high-contrast, monochrome.
    Theme,
    /// Name of White.
    White,
    /// Name of Black.
    Black,
    /// Practice (the legality of a player's own move told before the
    /// press) or a tournament game: on or off.
    Practice,
    /// The sighted player (D.2.5): none, white or black.
    Sighted,
}

/// The smallest and largest `silence-ms`.
pub const SILENCE_MS: (i64, i64) = (50, 5000);

/// The smallest and largest `mute-tail-ms`.
pub const MUTE_TAIL_MS: (i64, i64) = (0, 5000);

/// The smallest and largest `countdown`.
pub const COUNTDOWN: (i64, i64) = (0, 60);

/// The smallest and largest `rate`.
pub const RATE: (i64, i64) = (-100, 100);

impl Key {
    /// Every key, in the order they are listed.
    pub const ALL: [Key; 19] = [
        Key::Locale,
        Key::Style,
        Key::Verbosity,
        Key::Voice,
        Key::Rate,
        Key::Speech,
        Key::Mode,
        Key::Control,
        Key::Model,
        Key::Listen,
        Key::SilenceMs,
        Key::MuteTailMs,
        Key::Warn,
        Key::Countdown,
        Key::Theme,
        Key::White,
        Key::Black,
        Key::Practice,
        Key::Sighted,
    ];

    /// Its name in the file and on the command line of `annabella config`.
    pub fn name(self) -> &'static str {
        match self {
            Key::Locale => "locale",
            Key::Style => "style",
            Key::Verbosity => "verbosity",
            Key::Voice => "voice",
            Key::Rate => "rate",
            Key::Speech => "speech",
            Key::Mode => "mode",
            Key::Control => "control",
            Key::Model => "model",
            Key::Listen => "listen",
            Key::SilenceMs => "silence-ms",
            Key::MuteTailMs => "mute-tail-ms",
            Key::Warn => "warn",
            Key::Countdown => "countdown",
            Key::Theme => "theme",
            Key::White => "white",
            Key::Black => "black",
            Key::Practice => "practice",
            Key::Sighted => "sighted",
        }
    }

    /// The key of a name (`silence_ms` is read as `silence-ms`; case does
    /// not matter).
    pub fn from_name(name: &str) -> Option<Key> {
        let n = name.trim().to_ascii_lowercase().replace('_', "-");
        Key::ALL.into_iter().find(|k| k.name() == n)
    }

    /// The message key that describes the setting and its allowed values.
    pub fn message_key(self) -> MsgKey {
        match self {
            Key::Locale => MsgKey::ConfigKeyLocale,
            Key::Style => MsgKey::ConfigKeyStyle,
            Key::Verbosity => MsgKey::ConfigKeyVerbosity,
            Key::Voice => MsgKey::ConfigKeyVoice,
            Key::Rate => MsgKey::ConfigKeyRate,
            Key::Speech => MsgKey::ConfigKeySpeech,
            Key::Mode => MsgKey::ConfigKeyMode,
            Key::Control => MsgKey::ConfigKeyControl,
            Key::Model => MsgKey::ConfigKeyModel,
            Key::Listen => MsgKey::ConfigKeyListen,
            Key::SilenceMs => MsgKey::ConfigKeySilenceMs,
            Key::MuteTailMs => MsgKey::ConfigKeyMuteTailMs,
            Key::Warn => MsgKey::ConfigKeyWarn,
            Key::Countdown => MsgKey::ConfigKeyCountdown,
            Key::Theme => MsgKey::ConfigKeyTheme,
            Key::White => MsgKey::ConfigKeyWhite,
            Key::Black => MsgKey::ConfigKeyBlack,
            Key::Practice => MsgKey::ConfigKeyPractice,
            Key::Sighted => MsgKey::ConfigKeySighted,
        }
    }

    /// The fixed choices, for keys that have them.
    pub fn choices(self) -> Option<&'static [&'static str]> {
        Some(match self {
            Key::Style => &["short", "long"],
            Key::Verbosity => &["brief", "full"],
            Key::Speech => &["auto", "on", "off"],
            Key::Practice => &["on", "off"],
            Key::Sighted => &["none", "white", "black"],
            Key::Mode => &["board", "assistant", "engine", "hotseat"],
            Key::Listen => &["off", "hands-free", "push-to-talk"],
            Key::Theme => &["default", "high-contrast", "monochrome"],
            _ => return None,
        })
    }

    /// Whether the file holds the value as a TOML integer.
    fn is_integer(self) -> bool {
        matches!(
            self,
            Key::Rate | Key::SilenceMs | Key::MuteTailMs | Key::Countdown
        )
    }
}

/// What is wrong with the file or with a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigError {
    /// The text is not TOML (1-based line, the parser's words).
    Syntax {
        /// Line of the error.
        line: usize,
        /// What the TOML parser said.
        message: String,
    },
    /// A key that is not a setting.
    UnknownKey(String),
    /// A value that is not allowed for its key.
    BadValue {
        /// The setting.
        key: Key,
        /// The value as written.
        value: String,
    },
}

impl ConfigError {
    /// One line saying what is wrong, naming the key and what is allowed,
    /// in the locale's words.
    pub fn describe(&self, loc: &Locale) -> String {
        match self {
            // The parser's own words are English: the line and what to
            // check there, in the locale's words.
            ConfigError::Syntax { line, .. } => {
                loc.message(MsgKey::ConfigBadSyntax, &[("line", &line.to_string())])
            }
            ConfigError::UnknownKey(key) => loc.message(
                MsgKey::ConfigUnknownKey,
                &[("key", key), ("keys", &key_names())],
            ),
            ConfigError::BadValue { key, value } => loc.message(
                MsgKey::ConfigBadValue,
                &[
                    ("key", key.name()),
                    ("value", value),
                    ("allowed", &loc.message(key.message_key(), &[])),
                ],
            ),
        }
    }
}

impl std::fmt::Display for ConfigError {
    /// In the base locale's words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::locale::in_base(|l| self.describe(l)))
    }
}

impl std::error::Error for ConfigError {}

/// Every key's name, comma-separated.
pub fn key_names() -> String {
    // As the help writes what is typed: in backticks (a key such as
    // `model` is no English word inside another language's line).
    Key::ALL.map(|k| format!("`{}`", k.name())).join(", ")
}

/// Checks `value` for `key` and returns it in its canonical form
/// (`On` → `on`, `hands_free` → `hands-free`, ` 20 ` → `20`).
pub fn validate(key: Key, value: &str) -> Result<String, ConfigError> {
    let bad = || ConfigError::BadValue {
        key,
        value: value.to_owned(),
    };
    let v = value.trim();
    if let Some(choices) = key.choices() {
        let mut norm = v.to_ascii_lowercase().replace('_', "-");
        if matches!(key, Key::Speech | Key::Practice) {
            norm = match norm.as_str() {
                "true" | "yes" => "on".to_owned(),
                "false" | "no" => "off".to_owned(),
                _ => norm,
            };
        }
        return choices
            .iter()
            .find(|c| **c == norm)
            .map(|c| (*c).to_owned())
            .ok_or_else(bad);
    }
    match key {
        Key::Rate | Key::SilenceMs | Key::MuteTailMs | Key::Countdown => {
            let (lo, hi) = match key {
                Key::Rate => RATE,
                Key::SilenceMs => SILENCE_MS,
                Key::Countdown => COUNTDOWN,
                _ => MUTE_TAIL_MS,
            };
            let n: i64 = v.parse().map_err(|_| bad())?;
            if (lo..=hi).contains(&n) {
                Ok(n.to_string())
            } else {
                Err(bad())
            }
        }
        Key::Locale => {
            let builtin = locale::builtin_codes().contains(&v);
            if builtin || (v.ends_with(".toml") && !v.contains('\n')) {
                Ok(v.to_owned())
            } else {
                Err(bad())
            }
        }
        Key::Control => match v.parse::<crate::clock::TimeControl>() {
            Ok(_) => Ok(v.to_owned()),
            Err(_) => Err(bad()),
        },
        Key::Warn => match crate::clock::parse_warnings(v) {
            Some(_) if v.is_empty() => Ok("off".to_owned()),
            Some(_) => Ok(v.replace(' ', "")),
            None => Err(bad()),
        },
        Key::Voice | Key::Model => {
            if v.is_empty() || v.chars().any(char::is_control) {
                Err(bad())
            } else {
                Ok(v.to_owned())
            }
        }
        Key::White | Key::Black => {
            if v.chars().any(char::is_control) {
                Err(bad())
            } else {
                Ok(v.to_owned())
            }
        }
        // Keys with choices were handled above.
        _ => Err(bad()),
    }
}

/// The settings read from the file: every value checked and canonical.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserConfig {
    values: BTreeMap<Key, String>,
}

fn syntax_error(text: &str, e: &toml_edit::TomlError) -> ConfigError {
    let line = e
        .span()
        .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1)
        .unwrap_or(1);
    ConfigError::Syntax {
        line,
        message: e.message().trim().replace('\n', " "),
    }
}

/// A TOML value as the text [`validate`] reads.
fn item_text(item: &toml_edit::Item) -> Option<String> {
    let v = item.as_value()?;
    if let Some(s) = v.as_str() {
        return Some(s.to_owned());
    }
    if let Some(n) = v.as_integer() {
        return Some(n.to_string());
    }
    v.as_bool().map(|b| if b { "on" } else { "off" }.to_owned())
}

impl UserConfig {
    /// Reads the file's text. The first problem is the error: the caller
    /// then starts with the defaults.
    pub fn parse(text: &str) -> Result<UserConfig, ConfigError> {
        let doc: toml_edit::DocumentMut = text.parse().map_err(|e| syntax_error(text, &e))?;
        let mut values = BTreeMap::new();
        for (name, item) in doc.iter() {
            let key =
                Key::from_name(name).ok_or_else(|| ConfigError::UnknownKey(name.to_owned()))?;
            let raw = item_text(item).ok_or_else(|| ConfigError::BadValue {
                key,
                value: item.to_string().trim().to_owned(),
            })?;
            values.insert(key, validate(key, &raw)?);
        }
        Ok(UserConfig { values })
    }

    /// The value of `key`, if the file sets it.
    pub fn get(&self, key: Key) -> Option<&str> {
        self.values.get(&key).map(String::as_str)
    }

    /// Forgets a value (in memory).
    pub fn remove(&mut self, key: Key) {
        self.values.remove(&key);
    }

    /// Sets a value (checked) in memory.
    pub fn set(&mut self, key: Key, value: &str) -> Result<(), ConfigError> {
        let v = validate(key, value)?;
        self.values.insert(key, v);
        Ok(())
    }
}

/// The file's text with `key` set to `value` (checked): everything else,
/// comments included, is kept. Returns the new text and the canonical
/// value.
pub fn set_in(text: &str, key: Key, value: &str) -> Result<(String, String), ConfigError> {
    let value = validate(key, value)?;
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e| syntax_error(text, &e))?;
    // Another spelling of the same key (silence_ms) goes.
    let others: Vec<String> = doc
        .iter()
        .map(|(k, _)| k.to_owned())
        .filter(|k| Key::from_name(k) == Some(key) && k != key.name())
        .collect();
    for k in others {
        doc.remove(&k);
    }
    let item = if key.is_integer() {
        let n: i64 = value.parse().map_err(|_| ConfigError::BadValue {
            key,
            value: value.clone(),
        })?;
        toml_edit::value(n)
    } else {
        toml_edit::value(value.as_str())
    };
    match doc.get_mut(key.name()) {
        // Keep the comment and spacing around an existing value.
        Some(old) if old.is_value() => {
            let decor = old.as_value().map(|v| v.decor().clone());
            *old = item;
            if let (Some(d), Some(v)) = (decor, old.as_value_mut()) {
                *v.decor_mut() = d;
            }
        }
        _ => {
            doc.insert(key.name(), item);
        }
    }
    Ok((doc.to_string(), value))
}

/// The file's text without `key` (any spelling), and whether it was there.
pub fn unset_in(text: &str, key: Key) -> Result<(String, bool), ConfigError> {
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e| syntax_error(text, &e))?;
    let names: Vec<String> = doc
        .iter()
        .map(|(k, _)| k.to_owned())
        .filter(|k| Key::from_name(k) == Some(key))
        .collect();
    let found = !names.is_empty();
    for k in names {
        doc.remove(&k);
    }
    Ok((doc.to_string(), found))
}

/// Where a value in force comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The built-in default.
    Default,
    /// The settings file.
    File,
    /// An option on the command line.
    CommandLine,
}

impl Source {
    /// The message key of its name.
    pub fn message_key(self) -> MsgKey {
        match self {
            Source::Default => MsgKey::ConfigSourceDefault,
            Source::File => MsgKey::ConfigSourceFile,
            Source::CommandLine => MsgKey::ConfigSourceCommandLine,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_has_a_unique_name_that_reads_back() {
        for k in Key::ALL {
            assert_eq!(Key::from_name(k.name()), Some(k));
        }
        assert_eq!(Key::from_name("SILENCE_MS"), Some(Key::SilenceMs));
        assert_eq!(Key::from_name("colour"), None);
    }

    #[test]
    fn a_full_file_is_read_and_canonical() {
        let text = r#"
# my settings
locale = "de"
style = "Long"
verbosity = "full"
voice = "German+f2"
rate = -20
speech = false
mode = "assistant"
control = "15m+10s"
model = "/models/de"
listen = "push_to_talk"
silence_ms = 450
warn = "2m, 30s"
theme = "high-contrast"
white = "Anna"
black = "Bella"
"#;
        let c = UserConfig::parse(text).unwrap();
        let want = [
            (Key::Locale, "de"),
            (Key::Style, "long"),
            (Key::Verbosity, "full"),
            (Key::Voice, "German+f2"),
            (Key::Rate, "-20"),
            (Key::Speech, "off"),
            (Key::Mode, "assistant"),
            (Key::Control, "15m+10s"),
            (Key::Model, "/models/de"),
            (Key::Listen, "push-to-talk"),
            (Key::SilenceMs, "450"),
            (Key::Warn, "2m,30s"),
            (Key::Theme, "high-contrast"),
            (Key::White, "Anna"),
            (Key::Black, "Bella"),
        ];
        for (k, v) in want {
            assert_eq!(c.get(k), Some(v), "{}", k.name());
        }
        assert_eq!(UserConfig::parse("").unwrap(), UserConfig::default());
    }

    #[test]
    fn bad_values_name_the_key() {
        for (text, key, value) in [
            ("rate = 300", Key::Rate, "300"),
            ("rate = \"fast\"", Key::Rate, "fast"),
            ("style = \"medium\"", Key::Style, "medium"),
            ("locale = \"xx\"", Key::Locale, "xx"),
            ("control = \"soon\"", Key::Control, "soon"),
            ("warn = \"5 apples\"", Key::Warn, "5 apples"),
            ("silence-ms = 10", Key::SilenceMs, "10"),
            ("voice = \"\"", Key::Voice, ""),
        ] {
            assert_eq!(
                UserConfig::parse(text),
                Err(ConfigError::BadValue {
                    key,
                    value: value.to_owned()
                }),
                "{text}"
            );
        }
        // A table is no value.
        assert!(matches!(
            UserConfig::parse("[rate]\nx = 1"),
            Err(ConfigError::BadValue { key: Key::Rate, .. })
        ));
        assert_eq!(
            UserConfig::parse("colour = \"red\""),
            Err(ConfigError::UnknownKey("colour".into()))
        );
        assert!(matches!(
            UserConfig::parse("locale = \"de\"\nrate = = 3"),
            Err(ConfigError::Syntax { line: 2, .. })
        ));
    }

    #[test]
    fn the_message_names_key_value_and_what_is_allowed() {
        let en = locale::builtin("en").unwrap();
        let e = ConfigError::BadValue {
            key: Key::Rate,
            value: "300".into(),
        };
        let line = e.describe(&en);
        let allowed = en.message(MsgKey::ConfigKeyRate, &[]);
        assert!(line.contains("rate") && line.contains("300"), "{line}");
        assert!(line.contains(&allowed), "{line}");
        assert!(!line.contains('\n'));
    }

    #[test]
    fn set_keeps_comments_and_other_keys() {
        let text = "# my settings\nlocale = \"de\" # German\n\n# speed\nrate = 10\n";
        let (out, v) = set_in(text, Key::Rate, " 35 ").unwrap();
        assert_eq!(v, "35");
        assert!(out.contains("# my settings"), "{out}");
        assert!(out.contains("# speed"), "{out}");
        assert!(out.contains("locale = \"de\" # German"), "{out}");
        let c = UserConfig::parse(&out).unwrap();
        assert_eq!(c.get(Key::Rate), Some("35"));
        assert_eq!(c.get(Key::Locale), Some("de"));
        let (out, _) = set_in(&out, Key::White, "Anna Bella").unwrap();
        assert_eq!(
            UserConfig::parse(&out).unwrap().get(Key::White),
            Some("Anna Bella")
        );
        // Another spelling is replaced, not doubled.
        let (out, _) = set_in("silence_ms = 300\n", Key::SilenceMs, "500").unwrap();
        assert_eq!(out.trim(), "silence-ms = 500");
        assert_eq!(
            set_in(text, Key::Rate, "fast"),
            Err(ConfigError::BadValue {
                key: Key::Rate,
                value: "fast".into()
            })
        );
    }

    #[test]
    fn unset_removes_only_that_key() {
        let text = "# keep\nlocale = \"de\"\nrate = 10\n";
        let (out, found) = unset_in(text, Key::Rate).unwrap();
        assert!(found);
        assert!(out.contains("# keep") && out.contains("locale"), "{out}");
        assert!(!out.contains("rate"), "{out}");
        let (_, found) = unset_in(&out, Key::Rate).unwrap();
        assert!(!found);
    }

    #[test]
    fn every_locale_describes_every_key() {
        for code in locale::builtin_codes() {
            let loc = locale::builtin(code).unwrap();
            for k in Key::ALL {
                let d = loc.message(k.message_key(), &[]);
                assert!(loc.has_message(k.message_key()), "{code}: {}", k.name());
                // Fixed choices are named as they are written.
                for c in k.choices().unwrap_or(&[]) {
                    assert!(d.contains(c), "{code}: {} lacks {c}: {d}", k.name());
                }
            }
        }
    }
}
