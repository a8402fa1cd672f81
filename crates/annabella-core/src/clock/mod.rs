//! FIDE chess clock with injected time (pure core: no I/O, never reads the
//! system clock).
//!
//! - [`TimeControl`]: periods with optional move counts and an [`Increment`]
//!   mode (Fischer, simple delay, Bronstein delay), with a compact text form
//!   (`90m/40+30m+30s`, `15m+10s`, `3m d2s`, `3m b2s`, FIDE style
//!   `40/90m, 30m`) and the FIDE classification [`TimeControl::kind`].
//! - [`parse_duration`]: the one duration grammar (`12.5`, `1:30`, `2m`,
//!   `1h30m`), overflow-safe, at most [`MAX_DURATION`].
//! - [`Clock`]: both players' clocks. Every operation takes `now`, a
//!   [`Duration`](std::time::Duration) since an arbitrary epoch; all
//!   arithmetic is on integer durations and every change is recorded in a
//!   [`Ledger`], so no time is ever lost or invented (zero drift).
//! - [`ClockEvent`] and [`Reading`]/[`TimeParts`]: what a talking clock
//!   announces (Appendix D.2.6: the time and the number of moves).
//! - Guideline III constants.
//!
//! ```
//! use std::time::Duration;
//! use annabella_core::clock::{Clock, ClockEvent, TimeControl};
//! use shakmaty::Color;
//!
//! let control: TimeControl = "15m+10s".parse()?;
//! let mut clock = Clock::new(control);
//! let t0 = Duration::from_secs(1000); // any epoch
//! clock.start(t0, Color::White)?;
//! let events = clock.press(t0 + Duration::from_secs(25))?;
//! assert_eq!(events[0], ClockEvent::MoveCompleted { color: Color::White, moves: 1 });
//! // 15 minutes - 25 s + 10 s increment.
//! assert_eq!(
//!     clock.remaining(Color::White, t0 + Duration::from_secs(60)),
//!     Duration::from_secs(15 * 60 - 15)
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod control;
pub mod duration;
mod fide;
mod parts;
mod state;
pub mod talk;
mod text;

#[cfg(test)]
mod proptests;

pub use control::{
    Increment, MAX_INCREMENT, MAX_PERIOD_MOVES, MAX_PERIOD_TIME, MAX_PERIODS, Period, TimeControl,
    TimeControlError,
};
pub use duration::{DurationError, MAX_DURATION, parse_duration};
pub use fide::{QUICKPLAY_INCREMENT, QUICKPLAY_THRESHOLD};
pub use parts::{TENTHS_BELOW, TimeParts};
pub use state::{Adjustment, Clock, ClockError, ClockEvent, ClockState, Ledger, Reading};
pub use text::ParseTimeControlError;

use std::time::Duration;

/// Low-time warning marks such as `5m,1m,30s`; `off` (or nothing) for
/// none. `None` if a mark is not a duration.
pub fn parse_warnings(text: &str) -> Option<Vec<Duration>> {
    match text.trim() {
        "off" | "" => Some(Vec::new()),
        t => t.split(',').map(|w| parse_duration(w).ok()).collect(),
    }
}
