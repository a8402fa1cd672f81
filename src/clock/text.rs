//! The compact text form of a [`TimeControl`].
//!
//! Grammar (whitespace is allowed between tokens):
//!
//! ```text
//! control   = period { ("+" | ",") period } [ increment ]
//! period    = duration [ "/" moves ]        90m/40   (90 minutes for 40 moves)
//!           | moves "/" duration            40/90m   (FIDE style, the same)
//! increment = "+" duration                  +30s     Fischer increment
//!           | ["+"] "d" duration            d2s      simple (US) delay
//!           | ["+"] "b" duration            b2s      Bronstein delay
//! duration  = number unit { number unit }   1h30m, 45s, 1m30s, 500ms
//! unit      = "h" | "m" | "min" | "s" | "sec" | "ms"
//! ```
//!
//! A period with a move count must be followed by another period; the first
//! period without one is the last (sudden death), and only the increment may
//! follow it. So in `15m+10s` the `10s` is the increment, and in
//! `90m/40+30m+30s` the `30m` is the second period and `30s` the increment.
//!
//! [`Display`](fmt::Display) writes the canonical form (`90m/40+30m+30s`,
//! `3m d2s`, `3m b2s`), which parses back to the same value.

use std::{fmt, str::FromStr, time::Duration};

use super::control::{Increment, MAX_PERIODS, Period, TimeControl, TimeControlError};

const EXAMPLE: &str = "e.g. \"90m/40+30m+30s\", \"15m+10s\" or \"3m d2s\"";

/// Why a text time control could not be read. Positions count characters
/// from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseTimeControlError {
    /// Nothing but whitespace.
    #[error("the time control is empty; write one like {EXAMPLE}")]
    Empty,
    /// A number was expected.
    #[error("expected a number at position {position} but found {}; write a time like {EXAMPLE}", describe(*.found))]
    ExpectedNumber {
        /// Where the number should be.
        position: usize,
        /// What was there instead (`None` for the end of the text).
        found: Option<char>,
    },
    /// A number without a time unit.
    #[error(
        "the number at position {position} has no unit; write h, m, s or ms after it, e.g. \"90m\", \"30s\" or \"1h30m\""
    )]
    MissingUnit {
        /// Where the unit should be.
        position: usize,
    },
    /// A word that is not a time unit.
    #[error(
        "\"{unit}\" at position {position} is not a time unit; use h, m, s or ms, e.g. \"1h30m\" or \"45s\""
    )]
    UnknownUnit {
        /// Where the word starts.
        position: usize,
        /// The word.
        unit: String,
    },
    /// Units repeated or not from largest to smallest.
    #[error(
        "the unit at position {position} is repeated or out of order; go from hours down to milliseconds, each once, e.g. \"1h30m\" or \"1m30s\""
    )]
    UnitOrder {
        /// Where the unit starts.
        position: usize,
    },
    /// A number or a duration too large to represent.
    #[error(
        "the number at position {position} is too large; a period has at most 100 hours and 1000 moves, e.g. \"90m/40+30m\""
    )]
    NumberTooLarge {
        /// Where the number starts.
        position: usize,
    },
    /// A period with a move count is not followed by another period.
    #[error(
        "a period with a move count must be followed by \"+\" and the next period (position {position}), e.g. \"90m/40+30m\""
    )]
    MissingNextPeriod {
        /// Where the `+` should be.
        position: usize,
    },
    /// Something other than an increment after the last period.
    #[error(
        "unexpected {} at position {position}; after the last period only an increment may follow: \"+30s\" (increment), \"d2s\" (simple delay) or \"b2s\" (Bronstein delay), e.g. \"90m/40+30m+30s\"", describe(Some(*.found))
    )]
    Unexpected {
        /// Where it is.
        position: usize,
        /// The character found.
        found: char,
    },
    /// Text after the increment.
    #[error(
        "unexpected {} at position {position}: nothing may follow the increment, and a period without a move count must be the last one, e.g. \"90m/40+30m+30s\"", describe(Some(*.found))
    )]
    TrailingInput {
        /// Where it is.
        position: usize,
        /// The character found.
        found: char,
    },
    /// The text is well formed but the time control is not valid.
    #[error(transparent)]
    Invalid(#[from] TimeControlError),
}

fn describe(found: Option<char>) -> String {
    match found {
        None => "the end".to_owned(),
        Some(c) => format!("{c:?}"),
    }
}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    fn from_str(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        Parser { src: s, pos: 0 }.control()
    }
}

/// Unit ranks, largest first; a duration's units must strictly decrease.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Unit {
    Millis,
    Seconds,
    Minutes,
    Hours,
}

impl Unit {
    fn from_word(word: &str) -> Option<Unit> {
        Some(match word.to_ascii_lowercase().as_str() {
            "h" => Unit::Hours,
            "m" | "min" => Unit::Minutes,
            "s" | "sec" => Unit::Seconds,
            "ms" => Unit::Millis,
            _ => return None,
        })
    }

    fn duration(self, n: u64) -> Option<Duration> {
        match self {
            Unit::Hours => n.checked_mul(3600).map(Duration::from_secs),
            Unit::Minutes => n.checked_mul(60).map(Duration::from_secs),
            Unit::Seconds => Some(Duration::from_secs(n)),
            Unit::Millis => Some(Duration::from_millis(n)),
        }
    }
}

struct Parser<'a> {
    src: &'a str,
    /// Byte offset into `src`, always on a char boundary.
    pos: usize,
}

type PResult<T> = Result<T, ParseTimeControlError>;

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.src
            .get(self.pos..)
            .and_then(|rest| rest.chars().next())
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += c.len_utf8();
        }
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    /// 1-based character position of a byte offset.
    fn position(&self, byte: usize) -> usize {
        self.src.get(..byte).map_or(0, |s| s.chars().count()) + 1
    }

    fn here(&self) -> usize {
        self.position(self.pos)
    }

    fn control(mut self) -> PResult<TimeControl> {
        self.skip_ws();
        if self.peek().is_none() {
            return Err(ParseTimeControlError::Empty);
        }
        let mut periods = Vec::new();
        loop {
            let period = self.period()?;
            periods.push(period);
            if periods.len() > MAX_PERIODS {
                return Err(TimeControlError::TooManyPeriods {
                    count: periods.len(),
                }
                .into());
            }
            self.skip_ws();
            if period.moves.is_none() {
                break;
            }
            match self.peek() {
                Some('+' | ',') => {
                    self.bump();
                    self.skip_ws();
                }
                _ => {
                    return Err(ParseTimeControlError::MissingNextPeriod {
                        position: self.here(),
                    });
                }
            }
        }
        let increment = match self.peek() {
            None => Increment::None,
            Some('+') => {
                self.bump();
                self.skip_ws();
                self.increment()?
            }
            Some('d' | 'D' | 'b' | 'B') => self.increment()?,
            Some(found) => {
                return Err(ParseTimeControlError::Unexpected {
                    position: self.here(),
                    found,
                });
            }
        };
        self.skip_ws();
        if let Some(found) = self.peek() {
            return Err(ParseTimeControlError::TrailingInput {
                position: self.here(),
                found,
            });
        }
        Ok(TimeControl::new(periods, increment)?)
    }

    fn increment(&mut self) -> PResult<Increment> {
        Ok(match self.peek() {
            Some('d' | 'D') => {
                self.bump();
                self.skip_ws();
                Increment::SimpleDelay(self.duration()?)
            }
            Some('b' | 'B') => {
                self.bump();
                self.skip_ws();
                Increment::Bronstein(self.duration()?)
            }
            _ => Increment::Fischer(self.duration()?),
        })
    }

    fn period(&mut self) -> PResult<Period> {
        let start = self.pos;
        let first = self.number()?;
        let after_number = self.pos;
        self.skip_ws();
        if self.peek() == Some('/') {
            // FIDE style: moves "/" duration.
            self.bump();
            self.skip_ws();
            let moves = self.move_count(first, start)?;
            let time = self.duration()?;
            return Ok(Period::new(time, moves));
        }
        self.pos = after_number;
        let time = self.duration_from(first, start)?;
        let after_duration = self.pos;
        self.skip_ws();
        if self.peek() == Some('/') {
            self.bump();
            self.skip_ws();
            let start = self.pos;
            let n = self.number()?;
            let moves = self.move_count(n, start)?;
            return Ok(Period::new(time, moves));
        }
        self.pos = after_duration;
        Ok(Period::sudden_death(time))
    }

    fn move_count(&self, n: u64, start: usize) -> PResult<u32> {
        u32::try_from(n).map_err(|_| ParseTimeControlError::NumberTooLarge {
            position: self.position(start),
        })
    }

    fn number(&mut self) -> PResult<u64> {
        let start = self.pos;
        let mut value: u64 = 0;
        let mut digits = 0usize;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d)))
                .ok_or(ParseTimeControlError::NumberTooLarge {
                    position: self.position(start),
                })?;
            digits += 1;
            self.bump();
        }
        if digits == 0 {
            return Err(ParseTimeControlError::ExpectedNumber {
                position: self.here(),
                found: self.peek(),
            });
        }
        Ok(value)
    }

    fn duration(&mut self) -> PResult<Duration> {
        let start = self.pos;
        let n = self.number()?;
        self.duration_from(n, start)
    }

    /// Reads the rest of a duration whose first number, `value`, started at
    /// byte `start` and has just been read.
    fn duration_from(&mut self, mut value: u64, mut start: usize) -> PResult<Duration> {
        let mut total = Duration::ZERO;
        let mut previous: Option<Unit> = None;
        loop {
            self.skip_ws();
            let unit_start = self.pos;
            while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                self.bump();
            }
            let word = self.src.get(unit_start..self.pos).unwrap_or("");
            if word.is_empty() {
                return Err(ParseTimeControlError::MissingUnit {
                    position: self.position(unit_start),
                });
            }
            let unit = Unit::from_word(word).ok_or_else(|| ParseTimeControlError::UnknownUnit {
                position: self.position(unit_start),
                unit: word.to_owned(),
            })?;
            if previous.is_some_and(|p| unit >= p) {
                return Err(ParseTimeControlError::UnitOrder {
                    position: self.position(unit_start),
                });
            }
            previous = Some(unit);
            let too_large = ParseTimeControlError::NumberTooLarge {
                position: self.position(start),
            };
            let part = unit.duration(value).ok_or(too_large.clone())?;
            total = total.checked_add(part).ok_or(too_large)?;
            // Another "number unit" pair may follow, also after whitespace
            // ("1h 30m").
            let after_unit = self.pos;
            self.skip_ws();
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                start = self.pos;
                value = self.number()?;
            } else {
                self.pos = after_unit;
                return Ok(total);
            }
        }
    }
}

/// Writes a duration of whole milliseconds canonically: `2h`, `90m`,
/// `1m30s`, `45s`, `1s500ms`, `0s`.
fn write_duration(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    let millis = d.as_millis();
    let minutes = millis / 60_000;
    let seconds = millis / 1000 % 60;
    let ms = millis % 1000;
    if minutes > 0 {
        if minutes.is_multiple_of(60) {
            write!(f, "{}h", minutes / 60)?;
        } else {
            write!(f, "{minutes}m")?;
        }
    }
    if seconds > 0 {
        write!(f, "{seconds}s")?;
    }
    if ms > 0 {
        write!(f, "{ms}ms")?;
    }
    if millis == 0 {
        f.write_str("0s")?;
    }
    Ok(())
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, period) in self.periods().iter().enumerate() {
            if index > 0 {
                f.write_str("+")?;
            }
            write_duration(f, period.time)?;
            if let Some(moves) = period.moves {
                write!(f, "/{moves}")?;
            }
        }
        match self.increment() {
            Increment::None => Ok(()),
            Increment::Fischer(d) => {
                f.write_str("+")?;
                write_duration(f, d)
            }
            Increment::SimpleDelay(d) => {
                f.write_str(" d")?;
                write_duration(f, d)
            }
            Increment::Bronstein(d) => {
                f.write_str(" b")?;
                write_duration(f, d)
            }
        }
    }
}

impl fmt::Display for Increment {
    /// `none`, `+30s`, `d2s` (simple delay) or `b2s` (Bronstein delay).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Increment::None => f.write_str("none"),
            Increment::Fischer(d) => {
                f.write_str("+")?;
                write_duration(f, d)
            }
            Increment::SimpleDelay(d) => {
                f.write_str("d")?;
                write_duration(f, d)
            }
            Increment::Bronstein(d) => {
                f.write_str("b")?;
                write_duration(f, d)
            }
        }
    }
}

impl serde::Serialize for TimeControl {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for TimeControl {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<TimeControl, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ParseTimeControlError as E;

    const fn min(n: u64) -> Duration {
        Duration::from_secs(n * 60)
    }

    const fn sec(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn tc(periods: Vec<Period>, increment: Increment) -> TimeControl {
        TimeControl::new(periods, increment).unwrap()
    }

    fn parse(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        s.parse()
    }

    #[test]
    fn parses_presets() {
        let classical = tc(
            vec![Period::new(min(90), 40), Period::sudden_death(min(30))],
            Increment::Fischer(sec(30)),
        );
        assert_eq!(parse("90m/40+30m+30s"), Ok(classical.clone()));
        assert_eq!(TimeControl::classical(), classical);
        let rapid = tc(
            vec![Period::sudden_death(min(15))],
            Increment::Fischer(sec(10)),
        );
        assert_eq!(parse("15m+10s"), Ok(rapid.clone()));
        assert_eq!(TimeControl::rapid(), rapid);
        let blitz = tc(
            vec![Period::sudden_death(min(3))],
            Increment::Fischer(sec(2)),
        );
        assert_eq!(parse("3m+2s"), Ok(blitz.clone()));
        assert_eq!(TimeControl::blitz(), blitz);
    }

    #[test]
    fn parses_every_form() {
        let sd = |t, inc| tc(vec![Period::sudden_death(t)], inc);
        assert_eq!(parse("5m+3s"), Ok(sd(min(5), Increment::Fischer(sec(3)))));
        assert_eq!(
            parse("3m d2s"),
            Ok(sd(min(3), Increment::SimpleDelay(sec(2))))
        );
        assert_eq!(
            parse("3m b2s"),
            Ok(sd(min(3), Increment::Bronstein(sec(2))))
        );
        assert_eq!(
            parse("3m+d2s"),
            Ok(sd(min(3), Increment::SimpleDelay(sec(2))))
        );
        assert_eq!(
            parse("3m + B 2s"),
            Ok(sd(min(3), Increment::Bronstein(sec(2))))
        );
        assert_eq!(
            parse("90m/40+30m"),
            Ok(tc(
                vec![Period::new(min(90), 40), Period::sudden_death(min(30))],
                Increment::None
            ))
        );
        assert_eq!(parse("1h30m"), Ok(sd(min(90), Increment::None)));
        assert_eq!(parse("1h 30m"), Ok(sd(min(90), Increment::None)));
        assert_eq!(parse("45s"), Ok(sd(sec(45), Increment::None)));
        assert_eq!(parse("1m30s"), Ok(sd(sec(90), Increment::None)));
        assert_eq!(
            parse("2s500ms"),
            Ok(sd(Duration::from_millis(2500), Increment::None))
        );
        assert_eq!(
            parse("  15 min + 10 sec  "),
            Ok(sd(min(15), Increment::Fischer(sec(10))))
        );
        assert_eq!(
            parse("15M+10S"),
            Ok(sd(min(15), Increment::Fischer(sec(10))))
        );
        // A zero increment is no increment.
        assert_eq!(parse("15m+0s"), Ok(sd(min(15), Increment::None)));
    }

    #[test]
    fn parses_fide_style() {
        let expected = tc(
            vec![Period::new(min(90), 40), Period::sudden_death(min(30))],
            Increment::None,
        );
        assert_eq!(parse("40/90m, 30m"), Ok(expected.clone()));
        assert_eq!(parse("40 / 90 min, 30 min"), Ok(expected));
        assert_eq!(
            parse("40/2h, 20/1h, 30m + 30s"),
            Ok(tc(
                vec![
                    Period::new(min(120), 40),
                    Period::new(min(60), 20),
                    Period::sudden_death(min(30))
                ],
                Increment::Fischer(sec(30))
            ))
        );
    }

    #[test]
    fn displays_canonically() {
        let cases = [
            ("90m/40+30m+30s", "90m/40+30m+30s"),
            ("15m+10s", "15m+10s"),
            ("3m d2s", "3m d2s"),
            ("3m b2s", "3m b2s"),
            ("3m+d2s", "3m d2s"),
            ("90m/40+30m", "90m/40+30m"),
            ("1h30m", "90m"),
            ("120m", "2h"),
            ("60m", "1h"),
            ("45s", "45s"),
            ("1m30s", "1m30s"),
            ("2s500ms", "2s500ms"),
            ("40/90m, 30m", "90m/40+30m"),
            ("40/2h, 20/1h, 30m + 30s", "2h/40+1h/20+30m+30s"),
            ("61m+1s500ms", "61m+1s500ms"),
        ];
        for (input, canonical) in cases {
            let parsed = parse(input).unwrap();
            assert_eq!(parsed.to_string(), canonical, "{input}");
            assert_eq!(parse(canonical), Ok(parsed), "{input}");
        }
    }

    #[test]
    fn presets_display() {
        assert_eq!(TimeControl::classical().to_string(), "90m/40+30m+30s");
        assert_eq!(TimeControl::rapid().to_string(), "15m+10s");
        assert_eq!(TimeControl::blitz().to_string(), "3m+2s");
    }

    #[test]
    fn increment_display() {
        assert_eq!(Increment::None.to_string(), "none");
        assert_eq!(Increment::Fischer(sec(30)).to_string(), "+30s");
        assert_eq!(Increment::SimpleDelay(sec(2)).to_string(), "d2s");
        assert_eq!(
            Increment::Bronstein(Duration::from_millis(1500)).to_string(),
            "b1s500ms"
        );
    }

    #[test]
    fn errors() {
        assert_eq!(parse(""), Err(E::Empty));
        assert_eq!(parse("   "), Err(E::Empty));
        assert_eq!(
            parse("m"),
            Err(E::ExpectedNumber {
                position: 1,
                found: Some('m')
            })
        );
        assert_eq!(
            parse("15m+"),
            Err(E::ExpectedNumber {
                position: 5,
                found: None
            })
        );
        assert_eq!(parse("90"), Err(E::MissingUnit { position: 3 }));
        assert_eq!(parse("40/90"), Err(E::MissingUnit { position: 6 }));
        assert_eq!(
            parse("15x"),
            Err(E::UnknownUnit {
                position: 3,
                unit: "x".to_owned()
            })
        );
        assert_eq!(
            parse("3md2s"),
            Err(E::UnknownUnit {
                position: 2,
                unit: "md".to_owned()
            })
        );
        assert_eq!(parse("30m1h"), Err(E::UnitOrder { position: 5 }));
        assert_eq!(parse("1m1m"), Err(E::UnitOrder { position: 4 }));
        assert_eq!(
            parse("99999999999999999999m"),
            Err(E::NumberTooLarge { position: 1 })
        );
        assert_eq!(
            parse("9999999999999999999h"),
            Err(E::NumberTooLarge { position: 1 })
        );
        assert_eq!(
            parse("90m/4294967296+30m"),
            Err(E::NumberTooLarge { position: 5 })
        );
        assert_eq!(parse("90m/40"), Err(E::MissingNextPeriod { position: 7 }));
        assert_eq!(
            parse("90m/40 30m"),
            Err(E::MissingNextPeriod { position: 8 })
        );
        assert_eq!(
            parse("15m*10s"),
            Err(E::Unexpected {
                position: 4,
                found: '*'
            })
        );
        assert_eq!(
            parse("15m+10s+5s"),
            Err(E::TrailingInput {
                position: 8,
                found: '+'
            })
        );
        assert_eq!(
            parse("30m+30m/40"),
            Err(E::TrailingInput {
                position: 8,
                found: '/'
            })
        );
        assert_eq!(
            parse("0m"),
            Err(E::Invalid(TimeControlError::ZeroTime { period: 1 }))
        );
        assert_eq!(
            parse("90m/0+30m"),
            Err(E::Invalid(TimeControlError::ZeroMoves { period: 1 }))
        );
        assert_eq!(
            parse("101h"),
            Err(E::Invalid(TimeControlError::PeriodTooLong { period: 1 }))
        );
        assert_eq!(
            parse("15m+2h"),
            Err(E::Invalid(TimeControlError::IncrementTooLong))
        );
        assert_eq!(
            parse("1m/1+1m/1+1m/1+1m/1+1m/1+1m/1+1m/1+1m/1+1m"),
            Err(E::Invalid(TimeControlError::TooManyPeriods { count: 9 }))
        );
    }

    #[test]
    fn positions_count_characters() {
        // "é" is two bytes but one character.
        assert_eq!(
            parse("15m é"),
            Err(E::Unexpected {
                position: 5,
                found: 'é'
            })
        );
    }

    #[test]
    fn error_messages_explain_and_show_an_example() {
        for input in [
            "",
            "m",
            "90",
            "15x",
            "30m1h",
            "99999999999999999999m",
            "90m/40",
            "15m*10s",
            "15m+10s+5s",
            "0m",
            "101h",
        ] {
            let message = parse(input).unwrap_err().to_string();
            assert!(message.contains("e.g."), "{input:?}: {message}");
        }
        let message = parse("15m+").unwrap_err().to_string();
        assert!(message.contains("position 5"), "{message}");
        assert!(message.contains("the end"), "{message}");
        let message = parse("15x").unwrap_err().to_string();
        assert!(message.contains("\"x\""), "{message}");
    }

    #[test]
    fn serde_uses_the_text_form() {
        let json = serde_json::to_string(&TimeControl::classical()).unwrap();
        assert_eq!(json, "\"90m/40+30m+30s\"");
        let back: TimeControl = serde_json::from_str("\"3m b2s\"").unwrap();
        assert_eq!(
            back,
            tc(
                vec![Period::sudden_death(min(3))],
                Increment::Bronstein(sec(2))
            )
        );
        assert!(serde_json::from_str::<TimeControl>("\"90m/40\"").is_err());
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        fn duration() -> impl Strategy<Value = Duration> {
            prop_oneof![
                (1u64..=6000).prop_map(Duration::from_secs),
                (1u64..=360_000_000).prop_map(Duration::from_millis),
            ]
        }

        fn control() -> impl Strategy<Value = TimeControl> {
            let increment = (0u8..4, 0u64..=3_600_000).prop_map(|(mode, ms)| {
                let d = Duration::from_millis(ms);
                match mode {
                    0 => Increment::None,
                    1 => Increment::Fischer(d),
                    2 => Increment::SimpleDelay(d),
                    _ => Increment::Bronstein(d),
                }
            });
            (
                prop::collection::vec((duration(), 1u32..=1000), 0..8),
                duration(),
                increment,
            )
                .prop_map(|(counted, last, increment)| {
                    let mut periods: Vec<Period> = counted
                        .into_iter()
                        .map(|(t, n)| Period::new(t, n))
                        .collect();
                    periods.push(Period::sudden_death(last));
                    TimeControl::new(periods, increment).unwrap()
                })
        }

        proptest! {
            #[test]
            fn display_parse_round_trip(tc in control()) {
                let text = tc.to_string();
                prop_assert_eq!(parse(&text), Ok(tc), "{}", text);
            }

            #[test]
            fn parse_never_panics(s in "\\PC{0,40}") {
                let _ = parse(&s);
            }

            #[test]
            fn parse_never_panics_on_near_misses(s in "[0-9hmsdb/+, ]{0,30}") {
                if let Ok(tc) = parse(&s) {
                    prop_assert_eq!(parse(&tc.to_string()), Ok(tc));
                }
            }
        }
    }
}
