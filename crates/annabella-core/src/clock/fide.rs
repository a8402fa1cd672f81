//! FIDE rules around the clock: the Guideline III numbers. (Penalties are
//! in [`crate::rules::GameKind`], flag-fall results in
//! [`crate::rules::Match::flag_fall`].)

use std::time::Duration;

/// Guideline III: a player with less than this left may ask for an
/// increment or claim a draw.
pub const QUICKPLAY_THRESHOLD: Duration = Duration::from_secs(120);

/// Guideline III.4: the increment given to both players on request.
pub const QUICKPLAY_INCREMENT: Duration = Duration::from_secs(5);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guideline_iii_numbers() {
        assert_eq!(QUICKPLAY_INCREMENT, Duration::from_secs(5));
        assert_eq!(QUICKPLAY_THRESHOLD, Duration::from_secs(2 * 60));
    }
}
