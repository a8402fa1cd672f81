//! The talking clock (pure core): what the clock says, and when.
//!
//! Appendix D.2.6 asks for a clock that announces the time and the number of
//! moves to the visually impaired player; D.2.10.4 for those on request.
//! This module has two parts, both free of I/O:
//!
//! - [`Phrasebook`]: the words. Times, counts and announcements as
//!   [`Utterance`]s (display and spoken form) built only from locale
//!   messages, with plural forms chosen by [`plural_category`] (the CLDR
//!   cardinal rules of the locale's language, from `icu_plurals`).
//! - [`Talker`]: the schedule. Given clock readings at injected instants
//!   and the clock's events, it returns the [`Announcement`]s due:
//!   periodic announcements, low-time warnings, the countdown, period
//!   changes, flag fall, time added or taken by the arbiter.
//!
//! ```
//! use std::time::Duration;
//! use annabella_core::clock::{Clock, talk::{Phrasebook, Verbosity}};
//! use shakmaty::Color;
//!
//! let book = Phrasebook::builtin("de")?;
//! let t = book.duration(Duration::from_secs(3600 + 12 * 60 + 5), Verbosity::Brief);
//! assert_eq!(t.display, "1:12:05");
//! assert_eq!(t.spoken, "eine Stunde 12 Minuten");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Duration;

use shakmaty::{ByColor, Color};

use super::{Adjustment, Clock, ClockEvent, Reading, TimeParts};
use crate::locale::{self, Locale, LocaleError};
use crate::locale::{MsgKey, PluralStem};
use crate::vocab::Priority;
use crate::vocab::Utterance;

pub use crate::plural::{PluralCategory, plural_category};

/// The message key of `n` things: `STEM.CATEGORY` with the CLDR category
/// of `n` in the locale's language, or `STEM.other` when the locale has no
/// message for that category (a user's file written for fewer forms).
pub fn plural_key(locale: &Locale, stem: PluralStem, n: u64) -> MsgKey {
    let key = stem.form(plural_category(&locale.language, n));
    if locale.has_message(key) {
        key
    } else {
        stem.form(PluralCategory::Other)
    }
}

/// `n` things of `stem` in the plural form of `locale`'s language ("5
/// minut", "ساعتان"): digits on screen, the locale's number word when
/// spoken (where `[numbers]` has one). The one place a count is worded.
pub fn counted(locale: &Locale, stem: PluralStem, n: u64) -> Utterance {
    let key = plural_key(locale, stem, n);
    Utterance {
        display: locale.message(key, &[("n", &n.to_string())]),
        spoken: locale.message(key, &[("n", &locale.spoken_number(n))]),
    }
}

/// Units that are counted in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Hours.
    Hours,
    /// Minutes.
    Minutes,
    /// Seconds.
    Seconds,
    /// Moves.
    Moves,
}

impl Unit {
    fn key(self) -> PluralStem {
        match self {
            Unit::Hours => PluralStem::TimeHours,
            Unit::Minutes => PluralStem::TimeMinutes,
            Unit::Seconds => PluralStem::TimeSeconds,
            Unit::Moves => PluralStem::CountMoves,
        }
    }
}

/// How much a time announcement says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Verbosity {
    /// Displayed like a clock (`1:12:05`); spoken with the two largest
    /// units ("one hour 12 minutes", "4 minutes 5 seconds").
    #[default]
    Brief,
    /// Every unit in words, displayed and spoken ("1 hour 12 minutes 5
    /// seconds").
    Full,
}

impl std::str::FromStr for Verbosity {
    type Err = UnknownVerbosity;
    fn from_str(s: &str) -> Result<Verbosity, UnknownVerbosity> {
        match s.to_ascii_lowercase().as_str() {
            "brief" | "short" => Ok(Verbosity::Brief),
            "full" | "verbose" | "long" => Ok(Verbosity::Full),
            other => Err(UnknownVerbosity(other.to_owned())),
        }
    }
}

/// A verbosity that is neither `brief` nor `full` (as written,
/// lower-cased).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownVerbosity(pub String);

impl UnknownVerbosity {
    /// What is wrong and what to write, in `locale`'s words.
    pub fn describe(&self, locale: &Locale) -> String {
        locale.message(MsgKey::VerbosityUnknown, &[("verbosity", &self.0)])
    }
}

impl std::fmt::Display for UnknownVerbosity {
    /// In the base locale's words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::locale::in_base(|l| self.describe(l)))
    }
}

impl std::error::Error for UnknownVerbosity {}

/// Locales that have only move words and take the talking language from
/// another locale: `(code, locale whose messages are spoken)`. FIDE's
/// Appendix D words are German, so its clock speaks German.
pub const WORDS_ONLY_LOCALES: &[(&str, &str)] = &[("fide", "de")];

/// The words of the talking clock, from one locale.
#[derive(Debug, Clone)]
pub struct Phrasebook {
    locale: Locale,
}

impl Phrasebook {
    /// A phrasebook speaking `locale`'s messages (see
    /// [`WORDS_ONLY_LOCALES`] for locales that take them from another one:
    /// use [`Phrasebook::builtin`] or [`Phrasebook::for_locale`] for those).
    pub fn new(locale: Locale) -> Phrasebook {
        Phrasebook { locale }
    }

    /// The phrasebook for `locale`, taking the messages of the locale named
    /// in [`WORDS_ONLY_LOCALES`] where there is one.
    pub fn for_locale(locale: &Locale) -> Result<Phrasebook, LocaleError> {
        match WORDS_ONLY_LOCALES.iter().find(|(c, _)| *c == locale.code) {
            Some((_, talk)) => Phrasebook::builtin(talk),
            None => Ok(Phrasebook::new(locale.clone())),
        }
    }

    /// The phrasebook of a built-in locale (`fide` speaks German).
    pub fn builtin(code: &str) -> Result<Phrasebook, LocaleError> {
        let code = WORDS_ONLY_LOCALES
            .iter()
            .find(|(c, _)| *c == code)
            .map_or(code, |(_, talk)| talk);
        locale::builtin(code).map(Phrasebook::new)
    }

    /// The locale whose messages are spoken.
    pub fn locale(&self) -> &Locale {
        &self.locale
    }

    /// The language tag for the speech synthesizer.
    pub fn language(&self) -> &str {
        &self.locale.language
    }

    fn msg(&self, key: MsgKey, args: &[(&str, &Utterance)]) -> Utterance {
        let display: Vec<(&str, &str)> =
            args.iter().map(|(k, v)| (*k, v.display.as_str())).collect();
        let spoken: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.spoken.as_str())).collect();
        Utterance {
            display: self.locale.message(key, &display),
            spoken: self.locale.message(key, &spoken),
        }
    }

    /// A message of the locale, without arguments, in both forms.
    pub fn message(&self, key: MsgKey) -> Utterance {
        self.msg(key, &[])
    }

    /// A message with plain text arguments, in both forms.
    pub fn message_with(&self, key: MsgKey, args: &[(&str, &str)]) -> Utterance {
        Utterance::plain(self.locale.message(key, args))
    }

    /// The name of a side ("White").
    pub fn side(&self, color: Color) -> Utterance {
        self.message(match color {
            Color::White => MsgKey::SideWhite,
            Color::Black => MsgKey::SideBlack,
        })
    }

    /// `n` of `unit` with the plural form of the locale's language ("1
    /// minute", "5 minut", "ساعتان").
    pub fn count(&self, unit: Unit, n: u64) -> Utterance {
        counted(&self.locale, unit.key(), n)
    }

    /// How a number is given to the synthesizer: the locale's number word
    /// where it has one (`[numbers]`, e.g. Hebrew, whose espeak-ng voice
    /// does not read digits), else digits.
    pub fn spoken_number(&self, n: u64) -> String {
        self.locale.spoken_number(n)
    }

    fn join(&self, parts: Vec<Utterance>) -> Utterance {
        let mut iter = parts.into_iter();
        let Some(mut acc) = iter.next() else {
            return Utterance::default();
        };
        for next in iter {
            acc = self.msg(MsgKey::TimeJoin, &[("first", &acc), ("second", &next)]);
        }
        acc
    }

    fn words(&self, parts: TimeParts, max_units: usize) -> Utterance {
        let mut units = Vec::new();
        if parts.hours > 0 {
            units.push((Unit::Hours, parts.hours));
        }
        if parts.minutes > 0 {
            units.push((Unit::Minutes, u64::from(parts.minutes)));
        }
        if parts.seconds > 0 {
            units.push((Unit::Seconds, u64::from(parts.seconds)));
        }
        if units.is_empty() {
            units.push((Unit::Seconds, 0));
        }
        // The largest units, as many as wanted, without skipping over a
        // missing unit in between ("1 hour 5 seconds" stays "1 hour").
        let first = units[0].0;
        let allowed: &[Unit] = match (first, max_units) {
            (_, n) if n >= 3 => &[Unit::Hours, Unit::Minutes, Unit::Seconds],
            (Unit::Hours, _) => &[Unit::Hours, Unit::Minutes],
            (Unit::Minutes, _) => &[Unit::Minutes, Unit::Seconds],
            _ => &[Unit::Seconds],
        };
        let chosen = units
            .into_iter()
            .filter(|(u, _)| allowed.contains(u))
            .take(max_units)
            .map(|(u, n)| self.count(u, n))
            .collect();
        self.join(chosen)
    }

    /// A time: see [`Verbosity`]. Parts are truncated (never more time than
    /// there is); tenths of a second are shown, not spoken.
    pub fn duration(&self, d: Duration, verbosity: Verbosity) -> Utterance {
        let parts = TimeParts::new(d);
        match verbosity {
            Verbosity::Brief => Utterance {
                display: parts.to_string(),
                spoken: self.words(parts, 2).spoken,
            },
            Verbosity::Full => self.words(parts, 3),
        }
    }

    /// On request: one player's remaining time ("White: 4:05.").
    pub fn time(&self, reading: &Reading, verbosity: Verbosity) -> Utterance {
        let time = self.duration(reading.remaining, verbosity);
        self.msg(
            MsgKey::ClockTime,
            &[("side", &self.side(reading.color)), ("time", &time)],
        )
    }

    /// On request: both players' remaining time, White first.
    pub fn times(&self, white: &Reading, black: &Reading, verbosity: Verbosity) -> Utterance {
        let mut u = self.time(white, verbosity);
        let b = self.time(black, verbosity);
        u.display.push(' ');
        u.display.push_str(&b.display);
        u.spoken.push(' ');
        u.spoken.push_str(&b.spoken);
        u
    }

    /// On request: the time a player's clock has run in the game.
    pub fn time_used(&self, reading: &Reading, verbosity: Verbosity) -> Utterance {
        let time = self.duration(reading.used, verbosity);
        self.msg(
            MsgKey::ClockTimeUsed,
            &[("side", &self.side(reading.color)), ("time", &time)],
        )
    }

    /// On request: moves a player has completed, and the moves left to the
    /// time control when there is one.
    pub fn moves(&self, reading: &Reading) -> Utterance {
        let moves = self.count(Unit::Moves, u64::from(reading.moves));
        let mut u = self.msg(
            MsgKey::ClockMoves,
            &[("side", &self.side(reading.color)), ("moves", &moves)],
        );
        if let Some(left) = reading.moves_to_control {
            let left = self.count(Unit::Moves, u64::from(left));
            let more = self.msg(MsgKey::ClockMovesToControl, &[("moves", &left)]);
            u.display.push(' ');
            u.display.push_str(&more.display);
            u.spoken.push(' ');
            u.spoken.push_str(&more.spoken);
        }
        u
    }

    /// Whose turn it is.
    pub fn turn(&self, color: Color) -> Utterance {
        self.msg(MsgKey::ClockTurn, &[("side", &self.side(color))])
    }

    /// The words of an automatic announcement.
    pub fn announcement(&self, a: &Announcement, verbosity: Verbosity) -> Utterance {
        let side = |c: Color| self.side(c);
        match *a {
            Announcement::Periodic { color, remaining } => self.msg(
                MsgKey::ClockTimeLeft,
                &[
                    ("side", &side(color)),
                    ("time", &self.duration(remaining, verbosity)),
                ],
            ),
            Announcement::LowTime { color, remaining } => self.msg(
                MsgKey::ClockLowTime,
                &[
                    ("side", &side(color)),
                    ("time", &self.duration(remaining, verbosity)),
                ],
            ),
            Announcement::Countdown { color, seconds } => {
                let n = Utterance {
                    display: seconds.to_string(),
                    spoken: self.spoken_number(u64::from(seconds)),
                };
                Utterance {
                    display: self
                        .msg(MsgKey::ClockCountdown, &[("side", &side(color)), ("n", &n)])
                        .display,
                    spoken: self.msg(MsgKey::ClockCountdownSpoken, &[("n", &n)]).spoken,
                }
            }
            Announcement::PeriodReached { color, added } => self.msg(
                MsgKey::ClockPeriodReached,
                &[
                    ("side", &side(color)),
                    ("time", &self.duration(added, Verbosity::Full)),
                ],
            ),
            Announcement::FlagFell { color } => {
                self.msg(MsgKey::ClockFlagFell, &[("side", &side(color))])
            }
            Announcement::Adjusted { color, adjustment } => {
                let (key, d) = match adjustment {
                    Adjustment::Add(d) => (MsgKey::ClockTimeAdded, d),
                    Adjustment::Remove(d) => (MsgKey::ClockTimeRemoved, d),
                };
                self.msg(
                    key,
                    &[
                        ("side", &side(color)),
                        ("time", &self.duration(d, Verbosity::Full)),
                    ],
                )
            }
            Announcement::Turn { color } => self.turn(color),
            Announcement::Started { color } => {
                self.msg(MsgKey::ClockStarted, &[("side", &side(color))])
            }
            Announcement::Paused { color } => {
                self.msg(MsgKey::ClockPaused, &[("side", &side(color))])
            }
            Announcement::Resumed { color } => {
                self.msg(MsgKey::ClockResumed, &[("side", &side(color))])
            }
        }
    }
}

/// Something the talking clock says without being asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Announcement {
    /// The regular announcement (every 10 minutes of a player's time by
    /// default): the time left.
    Periodic {
        /// Whose time.
        color: Color,
        /// The time left: the mark passed, when announced within a second
        /// of passing it, else the reading.
        remaining: Duration,
    },
    /// A low-time warning (5 minutes, 1 minute, 30 seconds by default).
    LowTime {
        /// Whose time.
        color: Color,
        /// The time left (the threshold, as for [`Announcement::Periodic`]).
        remaining: Duration,
    },
    /// One number of the final countdown (10, 9, …, 1).
    Countdown {
        /// Whose time.
        color: Color,
        /// Whole seconds left, rounded up.
        seconds: u32,
    },
    /// A period's moves were completed and its time added.
    PeriodReached {
        /// Whose clock.
        color: Color,
        /// The time added.
        added: Duration,
    },
    /// A player's flag fell.
    FlagFell {
        /// Whose flag.
        color: Color,
    },
    /// The arbiter gave or took time (e.g. a penalty: 2 minutes to the
    /// opponent of an illegal move).
    Adjusted {
        /// Whose clock.
        color: Color,
        /// What was done.
        adjustment: Adjustment,
    },
    /// The clock was pressed; now it is this side's turn.
    Turn {
        /// Whose clock runs now.
        color: Color,
    },
    /// The clock was started.
    Started {
        /// Who is to move.
        color: Color,
    },
    /// The clock was paused.
    Paused {
        /// Who is to move.
        color: Color,
    },
    /// The clock was resumed.
    Resumed {
        /// Who is to move.
        color: Color,
    },
}

impl Announcement {
    /// How urgently it must be spoken.
    pub fn priority(&self) -> Priority {
        match self {
            Announcement::FlagFell { .. } | Announcement::Adjusted { .. } => Priority::Critical,
            Announcement::PeriodReached { .. } => Priority::Critical,
            Announcement::LowTime { .. } | Announcement::Countdown { .. } => Priority::Warning,
            Announcement::Turn { .. }
            | Announcement::Started { .. }
            | Announcement::Paused { .. }
            | Announcement::Resumed { .. } => Priority::Move,
            Announcement::Periodic { .. } => Priority::Chatter,
        }
    }

    /// Announcements with the same key replace each other in the speech
    /// queue when not yet spoken (the countdown says only the latest
    /// number).
    pub fn coalesce_key(&self) -> Option<String> {
        match self {
            Announcement::Countdown { color, .. }
            | Announcement::LowTime { color, .. }
            | Announcement::Periodic { color, .. } => Some(format!("time-left:{color}")),
            Announcement::Turn { .. }
            | Announcement::Started { .. }
            | Announcement::Paused { .. }
            | Announcement::Resumed { .. } => Some("turn".to_owned()),
            _ => None,
        }
    }
}

/// What happened besides the passing of time, for the [`Talker`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TalkEvent {
    /// An event of the clock ([`Clock::press`], [`Clock::update`]).
    Clock(ClockEvent),
    /// The arbiter changed a player's time ([`Clock::adjust`]).
    Adjusted {
        /// Whose clock.
        color: Color,
        /// What was done.
        adjustment: Adjustment,
    },
    /// [`Clock::start`].
    Started {
        /// Who is to move.
        color: Color,
    },
    /// [`Clock::pause`].
    Paused {
        /// Who is to move.
        color: Color,
    },
    /// [`Clock::resume`].
    Resumed {
        /// Who is to move.
        color: Color,
    },
}

impl From<ClockEvent> for TalkEvent {
    fn from(e: ClockEvent) -> TalkEvent {
        TalkEvent::Clock(e)
    }
}

/// When the clock talks by itself. [`Default`] gives the usual talking
/// clock: every 10 minutes, warnings at 5 minutes, 1 minute and 30
/// seconds, a countdown of the last 10 seconds, and every event.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Schedule {
    /// Announce the time left each time a player's clock passes a multiple
    /// of this (`None`: never).
    pub every: Option<Duration>,
    /// Warn once when a player's time falls to each of these.
    pub warnings: Vec<Duration>,
    /// Count the last seconds aloud, from this number (0: no countdown).
    pub countdown: u32,
    /// Announce a period change ("time control reached, 30 minutes
    /// added").
    pub period_change: bool,
    /// Announce a flag fall.
    pub flag_fall: bool,
    /// Announce time given or taken by the arbiter (penalties).
    pub adjustments: bool,
    /// Say whose turn it is after each press, and start, pause and resume.
    pub turn: bool,
    /// Whose time is announced automatically (e.g. only the visually
    /// impaired player's own).
    pub players: ByColor<bool>,
}

impl Default for Schedule {
    fn default() -> Schedule {
        Schedule {
            every: Some(Duration::from_secs(600)),
            warnings: vec![
                Duration::from_secs(300),
                Duration::from_secs(60),
                Duration::from_secs(30),
            ],
            countdown: 10,
            period_change: true,
            flag_fall: true,
            adjustments: true,
            turn: true,
            players: ByColor {
                white: true,
                black: true,
            },
        }
    }
}

impl Schedule {
    /// Nothing automatic except flag fall, period change and penalties.
    pub fn quiet() -> Schedule {
        Schedule {
            every: None,
            warnings: Vec::new(),
            countdown: 0,
            turn: false,
            ..Schedule::default()
        }
    }
}

/// A threshold announced at most once per descent.
const SNAP: Duration = Duration::from_secs(1);

#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Marks {
    seen: bool,
    /// Index of the next periodic mark (`mark * every`), 0 for none.
    periodic: u64,
    /// Per warning: still to be said.
    warn_armed: Vec<bool>,
    /// Next countdown number, 0 for none.
    countdown: u32,
}

/// The talking clock's schedule as a state machine: feed it the clock, the
/// injected `now` and the events since the last call; it returns what is
/// due. Call it often (e.g. every 100 ms) for a punctual countdown; a late
/// call announces the current reading once rather than every mark missed.
#[derive(Debug, Clone)]
pub struct Talker {
    schedule: Schedule,
    marks: ByColor<Marks>,
}

/// Largest `m` with `m * unit < d` (0 when `d` is zero).
fn marks_below(d: Duration, unit: Duration) -> u64 {
    let unit = unit.as_nanos().max(1);
    let d = d.as_nanos();
    if d == 0 {
        0
    } else {
        u64::try_from((d - 1) / unit).unwrap_or(u64::MAX)
    }
}

fn times(unit: Duration, m: u64) -> Duration {
    let nanos = unit.as_nanos().saturating_mul(u128::from(m));
    Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
}

/// What to say for a mark passed: the mark itself when passed moments ago,
/// else the honest reading.
fn snapped(mark: Duration, remaining: Duration) -> Duration {
    if mark.saturating_sub(remaining) < SNAP {
        mark
    } else {
        remaining
    }
}

impl Talker {
    /// A talker following `schedule`.
    pub fn new(mut schedule: Schedule) -> Talker {
        schedule.warnings.retain(|w| !w.is_zero());
        schedule.warnings.sort_unstable_by(|a, b| b.cmp(a));
        schedule.warnings.dedup();
        if schedule.every.is_some_and(|e| e.is_zero()) {
            schedule.every = None;
        }
        Talker {
            schedule,
            marks: ByColor::default(),
        }
    }

    /// The schedule followed.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The announcements due at `now`: first those of `events` (in order),
    /// then at most one time announcement per player (the countdown before
    /// a warning before a periodic announcement).
    pub fn observe(
        &mut self,
        clock: &Clock,
        now: Duration,
        events: &[TalkEvent],
    ) -> Vec<Announcement> {
        let s = &self.schedule;
        let mut out = Vec::new();
        for e in events {
            let a = match *e {
                TalkEvent::Clock(ClockEvent::PeriodReached { color, added, .. }) => s
                    .period_change
                    .then_some(Announcement::PeriodReached { color, added }),
                TalkEvent::Clock(ClockEvent::FlagFell { color, .. }) => {
                    s.flag_fall.then_some(Announcement::FlagFell { color })
                }
                TalkEvent::Clock(ClockEvent::Switched { color }) => {
                    s.turn.then_some(Announcement::Turn { color })
                }
                TalkEvent::Clock(ClockEvent::MoveCompleted { .. })
                | TalkEvent::Clock(ClockEvent::IncrementAdded { .. }) => None,
                TalkEvent::Adjusted { color, adjustment } => s
                    .adjustments
                    .then_some(Announcement::Adjusted { color, adjustment }),
                TalkEvent::Started { color } => s.turn.then_some(Announcement::Started { color }),
                TalkEvent::Paused { color } => s.turn.then_some(Announcement::Paused { color }),
                TalkEvent::Resumed { color } => s.turn.then_some(Announcement::Resumed { color }),
            };
            out.extend(a);
        }
        for color in Color::ALL {
            let flagged = clock.flag(now) == Some(color);
            let remaining = clock.remaining(color, now);
            let wanted = *self.schedule.players.get(color);
            if let Some(a) = self.time_due(color, remaining, flagged)
                && wanted
            {
                out.push(a);
            }
        }
        out
    }

    /// The remaining time of `color` at which the next time announcement
    /// falls due (it is said once the remaining time is at or below it),
    /// if one is scheduled; `None` also before the first
    /// [`observe`](Self::observe), which sets the marks. With the clock
    /// running, the next announcement is due when that much is left: a
    /// front end sleeps until then instead of looking every moment.
    pub fn next_mark(&self, color: Color) -> Option<Duration> {
        let s = &self.schedule;
        let m = self.marks.get(color);
        if !m.seen || !*s.players.get(color) {
            return None;
        }
        let periodic = s
            .every
            .filter(|_| m.periodic >= 1)
            .map(|e| times(e, m.periodic));
        let warning = s
            .warnings
            .iter()
            .zip(&m.warn_armed)
            .filter(|(_, armed)| **armed)
            .map(|(w, _)| *w)
            .max();
        let countdown = (s.countdown > 0 && m.countdown >= 1)
            .then(|| Duration::from_secs(u64::from(m.countdown)));
        [periodic, warning, countdown].into_iter().flatten().max()
    }

    fn time_due(&mut self, color: Color, r: Duration, flagged: bool) -> Option<Announcement> {
        let s = &self.schedule;
        let m = self.marks.get_mut(color);
        if !m.seen {
            m.seen = true;
            m.periodic = s.every.map_or(0, |e| marks_below(r, e));
            m.warn_armed = s.warnings.iter().map(|w| r > *w).collect();
            m.countdown = u32::try_from(marks_below(r, Duration::from_secs(1)))
                .unwrap_or(u32::MAX)
                .min(s.countdown);
            return None;
        }
        if flagged {
            return None;
        }
        let mut due = None;
        // Periodic.
        if let Some(every) = s.every {
            let below = marks_below(r, every);
            if m.periodic >= 1 && r <= times(every, m.periodic) {
                due = Some(Announcement::Periodic {
                    color,
                    remaining: snapped(times(every, m.periodic), r),
                });
                m.periodic = below;
            } else if below >= m.periodic.saturating_add(2) {
                // Time was added (a new period, the arbiter): re-arm.
                m.periodic = below;
            }
        }
        // Warnings: the lowest one passed is said, all passed are spent.
        let mut warned = None;
        for (i, w) in s.warnings.iter().enumerate() {
            if let Some(armed) = m.warn_armed.get_mut(i) {
                if *armed && r <= *w {
                    *armed = false;
                    warned = Some(*w);
                } else if !*armed && r > w.saturating_mul(2) {
                    *armed = true;
                }
            }
        }
        if let Some(w) = warned {
            due = Some(Announcement::LowTime {
                color,
                remaining: snapped(w, r),
            });
        }
        // Countdown.
        if s.countdown > 0 {
            let below = u32::try_from(marks_below(r, Duration::from_secs(1)))
                .unwrap_or(u32::MAX)
                .min(s.countdown);
            if m.countdown >= 1 && r <= Duration::from_secs(u64::from(m.countdown)) {
                // Whole seconds left, rounded up, never more than the mark.
                let up = u32::try_from(r.as_nanos().div_ceil(1_000_000_000))
                    .unwrap_or(u32::MAX)
                    .min(m.countdown);
                if up >= 1 {
                    due = Some(Announcement::Countdown { color, seconds: up });
                }
                m.countdown = below;
            } else if below > m.countdown {
                m.countdown = below;
            }
        }
        due
    }
}

#[cfg(test)]
#[path = "talk_tests.rs"]
mod tests;
