//! The play screen's settings command: the speech rate, the voice and the
//! verbosity of time read-outs, changed for this game and, on request,
//! saved in the settings file (the same keys and checks as `annabella
//! config set`).

use super::{App, Effect};
use crate::clock::talk::Verbosity;
use crate::config::{self, Key};
use crate::ui::command::Cmd;
use crate::vocab::{Priority, Utterance};

/// What the speech of this game sounds like.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SpeechChoice {
    /// Speaking rate (-100 to 100), `None`: the user's or synthesizer's.
    pub rate: Option<i32>,
    /// A voice name, `None`: one for the language.
    pub voice: Option<String>,
    /// How much time read-outs say.
    pub verbosity: Verbosity,
}

/// The settings the play screen changes.
const KEYS: [Key; 3] = [Key::Rate, Key::Voice, Key::Verbosity];

impl App {
    /// `settings`, `settings KEY VALUE` or `settings save`.
    pub(super) fn settings_command(&mut self, rest: &str, fx: &mut Vec<Effect>) {
        let mut words = rest.split_whitespace();
        let first = words.next().unwrap_or_default();
        let value = words.collect::<Vec<_>>().join(" ");
        let save =
            self.words.read(first) == crate::ui::command::Input::Command(Cmd::Save, String::new());
        if first.is_empty() {
            let u = self.settings_now();
            self.say(fx, u, Priority::Request);
        } else if save {
            let values: Vec<(Key, String)> = KEYS
                .iter()
                .filter_map(|k| self.setting(*k).map(|v| (*k, v)))
                .collect();
            fx.push(Effect::SaveSettings(values));
        } else {
            match self.change(first, &value) {
                Ok(()) => {
                    let now = self.settings_now();
                    self.say(fx, now, Priority::Request);
                    let s = &self.settings.speech;
                    fx.push(Effect::Speech {
                        rate: s.rate,
                        voice: s.voice.clone(),
                    });
                }
                Err(line) => {
                    let u = self.vocab.message(
                        "ui.settings_refused",
                        &[
                            ("problem", &Utterance::plain(line)),
                            ("example", &self.settings_example()),
                        ],
                    );
                    self.say(fx, u, Priority::Request);
                }
            }
        }
    }

    /// A setting's value as the settings file writes it, if set.
    fn setting(&self, key: Key) -> Option<String> {
        let s = &self.settings.speech;
        match key {
            Key::Rate => s.rate.map(|r| r.to_string()),
            Key::Voice => s.voice.clone(),
            Key::Verbosity => Some(
                match s.verbosity {
                    Verbosity::Brief => "brief",
                    Verbosity::Full => "full",
                }
                .to_owned(),
            ),
            _ => None,
        }
    }

    /// Changes one setting, checked like `annabella config set`.
    fn change(&mut self, name: &str, value: &str) -> Result<(), String> {
        let loc = self.vocab.locale();
        let key = Key::from_name(name)
            .filter(|k| KEYS.contains(k))
            .ok_or_else(|| config::ConfigError::UnknownKey(name.to_owned()).describe(loc))?;
        let v = config::validate(key, value).map_err(|e| e.describe(loc))?;
        let s = &mut self.settings.speech;
        match key {
            Key::Rate => s.rate = v.parse().ok(),
            Key::Voice => s.voice = Some(v),
            Key::Verbosity => {
                s.verbosity = if v == "full" {
                    Verbosity::Full
                } else {
                    Verbosity::Brief
                };
            }
            _ => {}
        }
        Ok(())
    }

    /// "Settings: rate …, voice …, verbosity …" with how to change them.
    fn settings_now(&self) -> Utterance {
        let unset = self.vocab.message("ui.settings_unset", &[]);
        let show = |k: Key| match (k, self.setting(k)) {
            // The locale's word for the value ("brief" is the settings
            // file's).
            (Key::Verbosity, Some(v)) => self.vocab.message(
                if v == "full" {
                    "ui.verbosity.full"
                } else {
                    "ui.verbosity.brief"
                },
                &[],
            ),
            (_, Some(v)) => Utterance::plain(v),
            (_, None) => unset.clone(),
        };
        self.vocab.message(
            "ui.settings_now",
            &[
                ("rate", &show(Key::Rate)),
                ("voice", &show(Key::Voice)),
                ("verbosity", &show(Key::Verbosity)),
                ("example", &self.settings_example()),
                (
                    "save",
                    &Utterance::plain(format!(
                        "{} {}",
                        self.words.shown(Cmd::Settings),
                        self.words.shown(Cmd::Save)
                    )),
                ),
            ],
        )
    }

    fn settings_example(&self) -> Utterance {
        Utterance::plain(format!("{} rate 20", self.words.shown(Cmd::Settings)))
    }

    /// How much the time read-outs say.
    pub(super) fn verbosity(&self) -> Verbosity {
        self.settings.speech.verbosity
    }
}
