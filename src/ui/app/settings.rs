//! The play screen's settings command: the speech rate, the voice, the
//! verbosity of time read-outs and the low-time alarm, changed for this
//! game and, on request, saved in the settings file (the same keys and
//! checks as `annabella config set`); and the alarm command.

use std::time::Duration;

use super::{App, Effect, Mode};
use crate::clock::talk::{Schedule, Talker, Unit, Verbosity};
use crate::config::{self, Key};
use crate::locale::MsgKey;
use crate::ui::command::Cmd;
use crate::vocab::{Priority, Utterance};

/// The low-time alarm: warnings when a player's time falls to these, and
/// the last seconds counted aloud.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alarm {
    /// Warn once when a player's time falls to each of these.
    pub warnings: Vec<Duration>,
    /// Count the last seconds aloud from this number (0: no countdown).
    pub countdown: u32,
}

impl Default for Alarm {
    fn default() -> Alarm {
        let s = Schedule::default();
        Alarm {
            warnings: s.warnings,
            countdown: s.countdown,
        }
    }
}

/// The longest countdown (as `annabella config` allows).
pub const MAX_COUNTDOWN: u32 = config::COUNTDOWN.1 as u32;

/// A duration as the settings file writes it: `5m`, `30s`, `1h`, `1m30s`.
pub fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    let (h, m, sec) = (s / 3600, (s / 60) % 60, s % 60);
    let mut out = String::new();
    for (n, unit) in [(h, "h"), (m, "m"), (sec, "s")] {
        if n > 0 {
            out.push_str(&format!("{n}{unit}"));
        }
    }
    let ms = d.subsec_millis();
    if ms > 0 || out.is_empty() {
        out.push_str(&format!("{ms}ms"));
    }
    out
}

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
const KEYS: [Key; 5] = [
    Key::Rate,
    Key::Voice,
    Key::Verbosity,
    Key::Warn,
    Key::Countdown,
];

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
                Ok(Key::Warn | Key::Countdown) => {
                    let now = self.alarm_now();
                    self.say(fx, now, Priority::Request);
                }
                Ok(_) => {
                    let now = self.settings_now();
                    self.say(fx, now, Priority::Request);
                    let s = &self.settings.speech;
                    fx.push(Effect::Speech {
                        rate: s.rate,
                        voice: s.voice.clone(),
                    });
                }
                Err(e) => {
                    let line = e.describe(self.vocab.locale());
                    let u = self.vocab.message(
                        MsgKey::UiSettingsRefused,
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
            Key::Warn => Some(if self.settings.alarm.warnings.is_empty() {
                "off".to_owned()
            } else {
                let times: Vec<String> = self
                    .settings
                    .alarm
                    .warnings
                    .iter()
                    .map(|d| duration_text(*d))
                    .collect();
                times.join(",")
            }),
            Key::Countdown => Some(self.settings.alarm.countdown.to_string()),
            _ => None,
        }
    }

    /// Changes one setting, checked like `annabella config set`.
    fn change(&mut self, name: &str, value: &str) -> Result<Key, config::ConfigError> {
        let key = Key::from_name(name)
            .filter(|k| KEYS.contains(k))
            .ok_or_else(|| config::ConfigError::UnknownKey(name.to_owned()))?;
        let v = config::validate(key, value)?;
        match key {
            Key::Warn => {
                let warnings = crate::clock::parse_warnings(&v).unwrap_or_default();
                return Ok(self.set_alarm(Some(warnings), None));
            }
            Key::Countdown => {
                return Ok(self.set_alarm(None, v.parse().ok()));
            }
            _ => {}
        }
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
        Ok(key)
    }

    /// "Settings: rate …, voice …, verbosity …" with how to change them.
    fn settings_now(&self) -> Utterance {
        let unset = self.vocab.message(MsgKey::UiSettingsUnset, &[]);
        let show = |k: Key| match (k, self.setting(k)) {
            // The locale's word for the value ("brief" is the settings
            // file's).
            (Key::Verbosity, Some(v)) => self.vocab.message(
                if v == "full" {
                    MsgKey::UiVerbosityFull
                } else {
                    MsgKey::UiVerbosityBrief
                },
                &[],
            ),
            (_, Some(v)) => Utterance::plain(v),
            (_, None) => unset.clone(),
        };
        self.vocab.message(
            MsgKey::UiSettingsNow,
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

    /// The talking clock's schedule on the play screen: the alarm's
    /// warnings and countdown, every ten minutes, period changes (moves,
    /// presses, flag fall and the arbiter's changes are said by the screen
    /// itself).
    pub(super) fn schedule(alarm: &Alarm) -> Schedule {
        Schedule {
            turn: false,
            flag_fall: false,
            adjustments: false,
            warnings: alarm.warnings.clone(),
            countdown: alarm.countdown,
            ..Schedule::default()
        }
    }

    /// Changes the alarm for this game (`None`: that part stays), and
    /// the talking clock with it; `Key::Warn` or `Key::Countdown`, for
    /// the caller's answer.
    fn set_alarm(&mut self, warnings: Option<Vec<Duration>>, countdown: Option<u32>) -> Key {
        let key = if warnings.is_some() {
            Key::Warn
        } else {
            Key::Countdown
        };
        if let Some(w) = warnings {
            self.settings.alarm.warnings = w;
        }
        if let Some(c) = countdown {
            self.settings.alarm.countdown = c.min(MAX_COUNTDOWN);
        }
        if self.settings.mode != Mode::Assistant {
            self.talker = Some(Talker::new(App::schedule(&self.settings.alarm)));
        }
        key
    }

    /// `alarm`: says the low-time alarm; `alarm 2m 30s` sets its
    /// warnings, `alarm countdown 5` its countdown, `alarm off` both off.
    pub(super) fn alarm_command(&mut self, rest: &str, fx: &mut Vec<Effect>) {
        if self.settings.mode == Mode::Assistant {
            let u = self.vocab.message(MsgKey::UiAlarmAssistant, &[]);
            return self.say(fx, u, Priority::Request);
        }
        let rest = rest.trim();
        if rest.is_empty() {
            let u = self.alarm_now();
            return self.say(fx, u, Priority::Request);
        }
        let loc = self.vocab.locale();
        // The spellings of a word of the alarm command, the locale's and
        // the base locale's, normalized.
        let spellings = |key: MsgKey| -> Vec<String> {
            [Some(loc), crate::locale::base()]
                .into_iter()
                .flatten()
                .flat_map(|l| {
                    l.message(key, &[])
                        .split('|')
                        .map(|s| loc.normalize(s.trim()))
                        .filter(|s| !s.is_empty())
                        .collect::<Vec<_>>()
                })
                .collect()
        };
        let norm = loc.normalize(rest);
        let norm = norm.split_whitespace().collect::<Vec<_>>().join(" ");
        let countdown = spellings(MsgKey::UiAlarmCountdown)
            .into_iter()
            .find_map(|s| {
                norm.strip_prefix(&s)
                    .and_then(|r| r.strip_prefix(' '))
                    .map(|r| r.trim().parse::<u32>())
            });
        let changed = if spellings(MsgKey::UiAlarmOff).contains(&norm) {
            self.set_alarm(Some(Vec::new()), Some(0));
            true
        } else if let Some(n) = countdown {
            match n {
                Ok(n) if n <= MAX_COUNTDOWN => {
                    self.set_alarm(None, Some(n));
                    true
                }
                _ => false,
            }
        } else {
            let words: Vec<&str> = rest.split([' ', ',']).filter(|w| !w.is_empty()).collect();
            match crate::clock::parse_warnings(&words.join(",")) {
                Some(w) if !w.is_empty() && w.iter().all(|d| !d.is_zero()) => {
                    self.set_alarm(Some(w), None);
                    true
                }
                _ => false,
            }
        };
        let u = if changed {
            self.alarm_now()
        } else {
            let (example, countdown, off) = self.alarm_examples();
            self.vocab.message(
                MsgKey::UiAlarmRefused,
                &[
                    ("text", &Utterance::plain(rest.to_owned())),
                    ("example", &example),
                    ("countdown", &countdown),
                    ("off", &off),
                    ("max", &Utterance::plain(MAX_COUNTDOWN.to_string())),
                ],
            )
        };
        self.say(fx, u, Priority::Request);
    }

    /// "alarm 2m 30s", "alarm countdown 5", "alarm off".
    fn alarm_examples(&self) -> (Utterance, Utterance, Utterance) {
        let word = self.words.shown(Cmd::Alarm);
        let first = |key: MsgKey| {
            self.vocab
                .locale()
                .message(key, &[])
                .split('|')
                .next()
                .unwrap_or_default()
                .trim()
                .to_owned()
        };
        (
            Utterance::plain(format!("{word} 2m 30s")),
            Utterance::plain(format!("{word} {} 5", first(MsgKey::UiAlarmCountdown))),
            Utterance::plain(format!("{word} {}", first(MsgKey::UiAlarmOff))),
        )
    }

    /// "Low-time alarm: a warning at 5:00, 1:00 and 0:30 left; the last
    /// 10 seconds counted aloud. To change it: …"
    pub(super) fn alarm_now(&self) -> Utterance {
        let alarm = &self.settings.alarm;
        let warnings = if alarm.warnings.is_empty() {
            self.vocab.message(MsgKey::UiAlarmNoWarnings, &[])
        } else {
            let times = crate::query::join(
                alarm
                    .warnings
                    .iter()
                    .map(|d| self.phrases.duration(*d, Verbosity::Brief)),
            );
            self.vocab
                .message(MsgKey::UiAlarmWarnings, &[("times", &times)])
        };
        let countdown = if alarm.countdown == 0 {
            self.vocab.message(MsgKey::UiAlarmNoCountdown, &[])
        } else {
            let seconds = self
                .phrases
                .count(Unit::Seconds, u64::from(alarm.countdown));
            self.vocab
                .message(MsgKey::UiAlarmCounted, &[("seconds", &seconds)])
        };
        let (example, countdown_example, off) = self.alarm_examples();
        let save = Utterance::plain(format!(
            "{} {}",
            self.words.shown(Cmd::Settings),
            self.words.shown(Cmd::Save)
        ));
        self.vocab.message(
            MsgKey::UiAlarmNow,
            &[
                ("warnings", &warnings),
                ("countdown", &countdown),
                ("example", &example),
                ("countdown_example", &countdown_example),
                ("off", &off),
                ("save", &save),
            ],
        )
    }
}
