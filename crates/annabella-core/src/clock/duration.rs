//! The one duration grammar of annabella (pure core): time controls, the
//! clock's `add`/`take` commands and `--every`/`--warn`, and the `time`
//! and `arbiter:` lines of `annabella play` all read durations here.
//!
//! ```text
//! duration = clock | units | seconds
//! units    = number unit { [spaces] number unit }   90m, 1h30m, 1h 30m, 1.5s, 500ms
//! unit     = "h" | "m" | "min" | "s" | "sec" | "ms"  (any case; largest first, each once)
//! clock    = number ":" number [ ":" number ]       1:30 (m:ss), 1:02:03 (h:mm:ss)
//! seconds  = number                                 12.5
//! number   = digits [ "." digits ]
//! ```
//!
//! A time control ([`Form::Units`]) takes only the `units` form, since a
//! bare number there is a move count (`40/90m`). Arithmetic is exact (whole
//! nanoseconds, no floating point) and can never overflow: a duration
//! longer than [`MAX_DURATION`] (1000 hours) is refused, where the number
//! that passes it starts.

use std::time::Duration;

use crate::locale::Locale;
use crate::locale::MsgKey;

/// The longest duration annabella reads: 1000 hours.
pub const MAX_DURATION: Duration = Duration::from_secs(1000 * 3600);

const NANOS_PER_SEC: u128 = 1_000_000_000;
/// Integer parts are kept up to this (larger ones are too long anyway), so
/// that no product overflows.
const NUMBER_CAP: u128 = 1_000_000_000_000_000;

/// What a duration may look like where it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Number and unit pairs only (`90m`, `1h30m`): in time controls.
    Units,
    /// Also a bare number of seconds (`12.5`) and the clock form (`1:30`,
    /// `1:02:03`).
    Any,
}

/// Why a text is not a duration. Positions count characters from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DurationError {
    /// Nothing but whitespace.
    Empty,
    /// A number was expected.
    ExpectedNumber {
        /// Where the number should be.
        position: usize,
        /// What was there instead (`None` for the end of the text).
        found: Option<char>,
    },
    /// A number without a unit where one is needed (`90` in a time
    /// control).
    MissingUnit {
        /// Where the unit should be.
        position: usize,
    },
    /// A word that is not a time unit.
    UnknownUnit {
        /// Where the word starts.
        position: usize,
        /// The word.
        unit: String,
    },
    /// Units repeated or not from the largest to the smallest.
    UnitOrder {
        /// Where the unit starts.
        position: usize,
    },
    /// Longer than [`MAX_DURATION`].
    TooLong {
        /// Where the number that passes the limit starts.
        position: usize,
    },
    /// Something after a whole duration.
    Unexpected {
        /// Where it is.
        position: usize,
        /// The character.
        found: char,
    },
}

impl DurationError {
    /// The message in `locale`'s words (no example: the caller's message
    /// gives one that fits its place).
    pub fn describe(&self, locale: &Locale) -> String {
        let pos = |p: &usize| p.to_string();
        match self {
            DurationError::Empty => locale.message(MsgKey::DurationEmpty, &[]),
            DurationError::ExpectedNumber { position, found } => locale.message(
                MsgKey::DurationExpectedNumber,
                &[
                    ("position", &pos(position)),
                    ("found", &crate::input::show_found(locale, *found)),
                ],
            ),
            DurationError::MissingUnit { position } => {
                locale.message(MsgKey::DurationMissingUnit, &[("position", &pos(position))])
            }
            DurationError::UnknownUnit { position, unit } => locale.message(
                MsgKey::DurationUnknownUnit,
                &[("position", &pos(position)), ("unit", unit)],
            ),
            DurationError::UnitOrder { position } => {
                locale.message(MsgKey::DurationUnitOrder, &[("position", &pos(position))])
            }
            DurationError::TooLong { position } => locale.message(
                MsgKey::DurationTooLong,
                &[
                    ("position", &pos(position)),
                    ("hours", &(MAX_DURATION.as_secs() / 3600).to_string()),
                ],
            ),
            DurationError::Unexpected { position, found } => locale.message(
                MsgKey::DurationUnexpected,
                &[
                    ("position", &pos(position)),
                    ("found", &crate::input::show_found(locale, Some(*found))),
                ],
            ),
        }
    }
}

impl std::fmt::Display for DurationError {
    /// The message in the base locale's words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::locale::in_base(|l| self.describe(l)))
    }
}

impl std::error::Error for DurationError {}

/// Reads a whole text as a duration in any form (`12.5`, `1:30`, `2m`,
/// `1h30m`, `500ms`); surrounding whitespace is ignored.
///
/// # Errors
///
/// A [`DurationError`] saying what is wrong and where.
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let mut cursor = Cursor::new(text);
    cursor.skip_ws();
    if cursor.peek().is_none() {
        return Err(DurationError::Empty);
    }
    let d = cursor.duration(Form::Any)?;
    cursor.skip_ws();
    match cursor.peek() {
        None => Ok(d),
        Some(found) => Err(DurationError::Unexpected {
            position: cursor.here(),
            found,
        }),
    }
}

/// A position in a text being read; shared with the time-control reader.
#[derive(Debug, Clone)]
pub(crate) struct Cursor<'a> {
    pub(crate) src: &'a str,
    /// Byte offset into `src`, always on a character boundary.
    pub(crate) pos: usize,
}

/// A number as written: whole part (capped at [`NUMBER_CAP`]) and up to
/// nine decimals as nanoseconds of one.
#[derive(Debug, Clone, Copy)]
struct Number {
    whole: u128,
    nanos: u128,
    decimal: bool,
}

impl Number {
    /// `self` times `unit_nanos` nanoseconds, exactly (never overflows).
    fn times(self, unit_nanos: u128) -> u128 {
        self.whole * unit_nanos + self.nanos * unit_nanos / NANOS_PER_SEC
    }
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(src: &'a str) -> Cursor<'a> {
        Cursor { src, pos: 0 }
    }

    pub(crate) fn peek(&self) -> Option<char> {
        self.src
            .get(self.pos..)
            .and_then(|rest| rest.chars().next())
    }

    pub(crate) fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += c.len_utf8();
        }
    }

    pub(crate) fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    /// 1-based character position of a byte offset.
    pub(crate) fn position(&self, byte: usize) -> usize {
        self.src.get(..byte).map_or(0, |s| s.chars().count()) + 1
    }

    pub(crate) fn here(&self) -> usize {
        self.position(self.pos)
    }

    fn expected_number(&self) -> DurationError {
        DurationError::ExpectedNumber {
            position: self.here(),
            found: self.peek(),
        }
    }

    /// Reads `digits [ "." digits ]`.
    fn number(&mut self, decimals: bool) -> Result<Number, DurationError> {
        let mut n = Number {
            whole: 0,
            nanos: 0,
            decimal: false,
        };
        let mut digits = 0usize;
        // `char::to_digit` reads ASCII digits only.
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n.whole = (n.whole * 10 + u128::from(d)).min(NUMBER_CAP);
            digits += 1;
            self.bump();
        }
        if decimals && self.peek() == Some('.') {
            let dot = self.pos;
            self.bump();
            let mut scale = NANOS_PER_SEC;
            let mut fraction = 0usize;
            while let Some(d) = self.peek().filter(char::is_ascii_digit) {
                scale /= 10;
                n.nanos += u128::from(d.to_digit(10).unwrap_or(0)) * scale;
                fraction += 1;
                self.bump();
            }
            if digits == 0 && fraction == 0 {
                self.pos = dot;
                return Err(self.expected_number());
            }
            n.decimal = true;
            digits += fraction;
        }
        if digits == 0 {
            return Err(self.expected_number());
        }
        Ok(n)
    }

    /// Reads one duration in `form` from here; stops after it (trailing
    /// text is the caller's).
    pub(crate) fn duration(&mut self, form: Form) -> Result<Duration, DurationError> {
        let start = self.pos;
        let first = self.number(true)?;
        let too_long = |c: &Cursor<'_>, at: usize| DurationError::TooLong {
            position: c.position(at),
        };
        let max = MAX_DURATION.as_nanos();
        if form == Form::Any && self.peek() == Some(':') && !first.decimal {
            // Clock form: m:ss or h:mm:ss; only the last part may have
            // decimals.
            let mut total = first.whole;
            let mut parts = 1;
            while self.peek() == Some(':') && parts < 3 {
                self.bump();
                let at = self.pos;
                let part = self.number(true)?;
                parts += 1;
                let last = self.peek() != Some(':') || parts == 3;
                if part.decimal && !last {
                    return Err(DurationError::Unexpected {
                        position: self.here(),
                        found: ':',
                    });
                }
                total = total.min(NUMBER_CAP) * 60;
                if last {
                    let nanos = total * NANOS_PER_SEC + part.times(NANOS_PER_SEC);
                    if nanos > max {
                        return Err(too_long(self, at));
                    }
                    return Ok(nanos_to_duration(nanos));
                }
                total += part.whole;
            }
            return Err(self.expected_number());
        }
        let mut total: u128 = 0;
        let mut previous: Option<Unit> = None;
        let mut number = first;
        let mut number_start = start;
        loop {
            let before_unit = self.pos;
            self.skip_ws();
            let unit_start = self.pos;
            while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                self.bump();
            }
            let word = self.src.get(unit_start..self.pos).unwrap_or("");
            if word.is_empty() {
                if form == Form::Any && previous.is_none() {
                    // A bare number: seconds.
                    self.pos = before_unit;
                    let nanos = number.times(NANOS_PER_SEC);
                    if nanos > max {
                        return Err(too_long(self, number_start));
                    }
                    return Ok(nanos_to_duration(nanos));
                }
                return Err(DurationError::MissingUnit {
                    position: self.position(unit_start),
                });
            }
            let unit = Unit::from_word(word).ok_or_else(|| DurationError::UnknownUnit {
                position: self.position(unit_start),
                unit: word.to_owned(),
            })?;
            if previous.is_some_and(|p| unit >= p) {
                return Err(DurationError::UnitOrder {
                    position: self.position(unit_start),
                });
            }
            previous = Some(unit);
            total += number.times(unit.nanos());
            if total > max {
                return Err(too_long(self, number_start));
            }
            // Another "number unit" pair may follow, also after spaces
            // ("1h 30m").
            let after_unit = self.pos;
            self.skip_ws();
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                number_start = self.pos;
                number = self.number(true)?;
            } else {
                self.pos = after_unit;
                return Ok(nanos_to_duration(total));
            }
        }
    }
}

fn nanos_to_duration(nanos: u128) -> Duration {
    let secs = u64::try_from(nanos / NANOS_PER_SEC).unwrap_or(u64::MAX);
    let sub = u32::try_from(nanos % NANOS_PER_SEC).unwrap_or(0);
    Duration::new(secs, sub)
}

/// Time units, smallest first; a duration's units must strictly decrease.
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

    fn nanos(self) -> u128 {
        match self {
            Unit::Hours => 3600 * NANOS_PER_SEC,
            Unit::Minutes => 60 * NANOS_PER_SEC,
            Unit::Seconds => NANOS_PER_SEC,
            Unit::Millis => NANOS_PER_SEC / 1000,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DurationError as E;

    fn secs(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn every_form() {
        for (text, expected) in [
            ("12.5", Duration::from_millis(12_500)),
            ("0", Duration::ZERO),
            ("30", secs(30)),
            ("2m", secs(120)),
            ("2M", secs(120)),
            ("1h30m", secs(5400)),
            ("1h 30m", secs(5400)),
            ("  15 min ", secs(900)),
            ("10 sec", secs(10)),
            ("500ms", Duration::from_millis(500)),
            ("1m30s500ms", Duration::from_millis(90_500)),
            ("1.5m", secs(90)),
            ("1:30", secs(90)),
            ("1:02:03", secs(3723)),
            ("0:00:01.25", Duration::from_millis(1250)),
            ("0.000000001", Duration::from_nanos(1)),
            ("1000h", MAX_DURATION),
            ("999:59:60", MAX_DURATION),
        ] {
            assert_eq!(parse_duration(text), Ok(expected), "{text:?}");
        }
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(parse_duration(""), Err(E::Empty));
        assert_eq!(parse_duration("  "), Err(E::Empty));
        assert_eq!(
            parse_duration("-3"),
            Err(E::ExpectedNumber {
                position: 1,
                found: Some('-')
            })
        );
        assert_eq!(
            parse_duration("3q"),
            Err(E::UnknownUnit {
                position: 2,
                unit: "q".into()
            })
        );
        assert_eq!(parse_duration("30m1h"), Err(E::UnitOrder { position: 5 }));
        assert_eq!(parse_duration("1m1m"), Err(E::UnitOrder { position: 4 }));
        assert_eq!(
            parse_duration("1:2:3:4"),
            Err(E::Unexpected {
                position: 6,
                found: ':'
            })
        );
        assert_eq!(
            parse_duration("1:"),
            Err(E::ExpectedNumber {
                position: 3,
                found: None
            })
        );
        assert_eq!(
            parse_duration("1m+"),
            Err(E::Unexpected {
                position: 3,
                found: '+'
            })
        );
        assert_eq!(
            parse_duration("."),
            Err(E::ExpectedNumber {
                position: 1,
                found: Some('.')
            })
        );
        // Digits of other scripts are not read as numbers.
        assert_eq!(
            parse_duration("٣m"),
            Err(E::ExpectedNumber {
                position: 1,
                found: Some('٣')
            })
        );
    }

    #[test]
    fn huge_values_are_refused_not_overflowed() {
        // Issue 13: "time 10000000000000000000s10000000000000000000s"
        // panicked with "overflow when adding durations".
        for (text, position) in [
            ("10000000000000000000s10000000000000000000s", 1),
            ("1000h1ms", 6),
            ("1001h", 1),
            ("99999999999999999999999999999999999999999h", 1),
            ("1h99999999999999999999m", 3),
            ("1000:00:01", 9),
            ("18446744073709551616", 1),
            ("1e400", 2),
        ] {
            let got = parse_duration(text);
            if text == "1e400" {
                assert!(matches!(got, Err(E::UnknownUnit { .. })), "{got:?}");
            } else {
                assert_eq!(got, Err(E::TooLong { position }), "{text}");
            }
        }
        let long = "9".repeat(100_000);
        assert_eq!(parse_duration(&long), Err(E::TooLong { position: 1 }));
    }

    #[test]
    fn time_controls_need_units() {
        let mut c = Cursor::new("90");
        assert_eq!(c.duration(Form::Units), Err(E::MissingUnit { position: 3 }));
        let mut c = Cursor::new("1:30");
        assert_eq!(c.duration(Form::Units), Err(E::MissingUnit { position: 2 }));
        let mut c = Cursor::new("90m/40");
        assert_eq!(c.duration(Form::Units), Ok(secs(5400)));
        assert_eq!(c.peek(), Some('/'));
    }

    #[test]
    fn messages_come_from_the_locale_and_show_characters_as_they_are() {
        for code in crate::locale::builtin_codes() {
            let l = crate::locale::builtin(code).unwrap();
            for e in [
                E::Empty,
                E::ExpectedNumber {
                    position: 4,
                    found: Some('\u{30c}'),
                },
                E::ExpectedNumber {
                    position: 4,
                    found: None,
                },
                E::MissingUnit { position: 4 },
                E::UnknownUnit {
                    position: 4,
                    unit: "x".into(),
                },
                E::UnitOrder { position: 4 },
                E::TooLong { position: 4 },
                E::Unexpected {
                    position: 4,
                    found: 'é',
                },
            ] {
                let text = e.describe(&l);
                assert!(!text.contains("duration."), "{code}: {text}");
                assert!(!text.contains("\\u{"), "{code}: {text}");
                assert!(!text.contains('{'), "{code}: {text}");
                if e != E::Empty {
                    assert!(text.contains('4'), "{code}: {text}");
                }
            }
            let combining = E::ExpectedNumber {
                position: 1,
                found: Some('\u{30c}'),
            };
            assert!(combining.describe(&l).contains("U+030C"), "{code}");
            let plain = E::Unexpected {
                position: 1,
                found: 'é',
            };
            assert!(plain.describe(&l).contains('é'), "{code}");
        }
    }
}
