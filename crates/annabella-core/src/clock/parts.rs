//! A time split into the parts a talking clock announces.

use std::{fmt, time::Duration};

/// Below this remaining time, [`TimeParts`] also gives tenths of a second.
pub const TENTHS_BELOW: Duration = Duration::from_secs(10);

/// A time split into hours, minutes and seconds, with tenths of a second
/// when it is under [`TENTHS_BELOW`] (10 seconds).
///
/// Parts are truncated, never rounded up, so a clock never shows or
/// announces more time than there is: 59.99 s is 0 minutes 59 seconds,
/// and anything under 0.1 s is 0.0 seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TimeParts {
    /// Whole hours.
    pub hours: u64,
    /// Minutes, 0 to 59.
    pub minutes: u8,
    /// Seconds, 0 to 59.
    pub seconds: u8,
    /// Tenths of a second, 0 to 9, present only under 10 seconds.
    pub tenths: Option<u8>,
}

impl TimeParts {
    /// Splits `d`.
    pub fn new(d: Duration) -> TimeParts {
        let secs = d.as_secs();
        TimeParts {
            hours: secs / 3600,
            // Both below 60, so the conversions cannot fail.
            minutes: u8::try_from(secs / 60 % 60).unwrap_or(0),
            seconds: u8::try_from(secs % 60).unwrap_or(0),
            tenths: (d < TENTHS_BELOW).then(|| u8::try_from(d.subsec_millis() / 100).unwrap_or(0)),
        }
    }
}

impl From<Duration> for TimeParts {
    fn from(d: Duration) -> TimeParts {
        TimeParts::new(d)
    }
}

impl fmt::Display for TimeParts {
    /// `1:29:59` with hours, `4:05` without, `0:09.5` with tenths.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.hours > 0 {
            write!(f, "{}:{:02}:{:02}", self.hours, self.minutes, self.seconds)?;
        } else {
            write!(f, "{}:{:02}", self.minutes, self.seconds)?;
        }
        if let Some(t) = self.tenths {
            write!(f, ".{t}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(hours: u64, minutes: u8, seconds: u8, tenths: Option<u8>) -> TimeParts {
        TimeParts {
            hours,
            minutes,
            seconds,
            tenths,
        }
    }

    #[test]
    fn splits() {
        let ms = Duration::from_millis;
        assert_eq!(TimeParts::new(ms(5_399_999)), parts(1, 29, 59, None));
        assert_eq!(TimeParts::new(ms(5_400_000)), parts(1, 30, 0, None));
        assert_eq!(TimeParts::new(ms(59_990)), parts(0, 0, 59, None));
        assert_eq!(TimeParts::new(ms(10_000)), parts(0, 0, 10, None));
        assert_eq!(TimeParts::new(ms(9_999)), parts(0, 0, 9, Some(9)));
        assert_eq!(TimeParts::new(ms(9_950)), parts(0, 0, 9, Some(9)));
        assert_eq!(TimeParts::new(ms(1_049)), parts(0, 0, 1, Some(0)));
        assert_eq!(TimeParts::new(ms(99)), parts(0, 0, 0, Some(0)));
        assert_eq!(TimeParts::new(Duration::ZERO), parts(0, 0, 0, Some(0)));
        assert_eq!(
            TimeParts::new(Duration::MAX),
            parts(u64::MAX / 3600, 0, 15, None)
        );
    }

    #[test]
    fn displays() {
        let ms = Duration::from_millis;
        assert_eq!(TimeParts::new(ms(5_399_999)).to_string(), "1:29:59");
        assert_eq!(TimeParts::new(ms(36_005_000)).to_string(), "10:00:05");
        assert_eq!(TimeParts::new(ms(245_000)).to_string(), "4:05");
        assert_eq!(TimeParts::new(ms(9_500)).to_string(), "0:09.5");
        assert_eq!(TimeParts::new(Duration::ZERO).to_string(), "0:00.0");
    }
}
