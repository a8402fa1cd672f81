//! Time controls: periods, increment modes and their FIDE classification.

use std::time::Duration;

use crate::rules::GameKind;

/// The most periods a [`TimeControl`] may have.
pub const MAX_PERIODS: usize = 8;

/// The longest time a single period may add (100 hours).
pub const MAX_PERIOD_TIME: Duration = Duration::from_secs(100 * 3600);

/// The largest move count a single period may have.
pub const MAX_PERIOD_MOVES: u32 = 1000;

/// The longest increment or delay (one hour).
pub const MAX_INCREMENT: Duration = Duration::from_secs(3600);

const MINUTE: Duration = Duration::from_secs(60);

/// One period of a [`TimeControl`].
///
/// The time of the first period is on each clock at the start; the time of
/// every later period is added to a player's clock when that player has
/// completed the moves of the period before it (Art. 6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Period {
    /// Time for the period.
    pub time: Duration,
    /// Number of moves to complete in the period, or `None` for the final,
    /// sudden-death period in which all remaining moves must be completed.
    pub moves: Option<u32>,
}

impl Period {
    /// A period of `time` for `moves` moves, followed by another period.
    pub const fn new(time: Duration, moves: u32) -> Period {
        Period {
            time,
            moves: Some(moves),
        }
    }

    /// The final period: `time` for all remaining moves.
    pub const fn sudden_death(time: Duration) -> Period {
        Period { time, moves: None }
    }
}

/// How time is given back to a player for each move, for the whole game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Increment {
    /// No increment and no delay.
    #[default]
    None,
    /// Fischer increment: the amount is added to a player's clock after each
    /// of the player's moves, from move 1 on.
    Fischer(Duration),
    /// Simple (US) delay: the player's clock does not go down during the
    /// first part of each move, up to the amount.
    SimpleDelay(Duration),
    /// Bronstein delay: after each move the time used for it is given back,
    /// up to the amount.
    Bronstein(Duration),
}

impl Increment {
    /// The amount of the increment or delay ([`Duration::ZERO`] for
    /// [`Increment::None`]).
    pub const fn amount(self) -> Duration {
        match self {
            Increment::None => Duration::ZERO,
            Increment::Fischer(d) | Increment::SimpleDelay(d) | Increment::Bronstein(d) => d,
        }
    }

    /// `true` when there is neither an increment nor a delay.
    pub const fn is_none(self) -> bool {
        self.amount().is_zero()
    }

    /// The same mode with `Increment::None` for a zero amount.
    pub(crate) const fn normalized(self) -> Increment {
        if self.is_none() {
            Increment::None
        } else {
            self
        }
    }
}

/// Why a [`TimeControl`] could not be built. Periods are numbered from 1.
/// `TimeControlError::describe` words it in a locale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimeControlError {
    /// No period was given.
    NoPeriods,
    /// More than [`MAX_PERIODS`] periods.
    TooManyPeriods {
        /// How many periods were given.
        count: usize,
    },
    /// A period with no time.
    ZeroTime {
        /// The period (from 1).
        period: usize,
    },
    /// A period longer than [`MAX_PERIOD_TIME`].
    PeriodTooLong {
        /// The period (from 1).
        period: usize,
    },
    /// A period that is not the last one lacks a move count.
    MissingMoveCount {
        /// The period (from 1).
        period: usize,
    },
    /// The last period has a move count: nothing would follow it.
    LastPeriodHasMoveCount {
        /// The period (from 1).
        period: usize,
    },
    /// A move count of zero.
    ZeroMoves {
        /// The period (from 1).
        period: usize,
    },
    /// A move count above [`MAX_PERIOD_MOVES`].
    TooManyMoves {
        /// The period (from 1).
        period: usize,
        /// The move count given.
        moves: u32,
    },
    /// A period time that is not a whole number of milliseconds.
    PeriodNotWholeMillis {
        /// The period (from 1).
        period: usize,
    },
    /// An increment or delay longer than [`MAX_INCREMENT`].
    IncrementTooLong,
    /// An increment or delay that is not a whole number of milliseconds.
    IncrementNotWholeMillis,
}

/// A FIDE time control: one or more periods and an increment mode.
///
/// Invariants (checked by [`TimeControl::new`]): 1 to [`MAX_PERIODS`]
/// periods; every period has a positive time of whole milliseconds up to
/// [`MAX_PERIOD_TIME`]; every period but the last has a move count from 1 to
/// [`MAX_PERIOD_MOVES`]; the last period is sudden death. A zero increment is
/// stored as [`Increment::None`].
///
/// The compact text form (see [`FromStr`](std::str::FromStr) and
/// [`Display`](std::fmt::Display)) is e.g. `90m/40+30m+30s`, `15m+10s`,
/// `3m d2s` (simple delay) or `3m b2s` (Bronstein delay).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TimeControl {
    periods: Vec<Period>,
    increment: Increment,
}

/// `true` when `d` is a whole number of milliseconds.
pub(crate) fn is_whole_millis(d: Duration) -> bool {
    d.subsec_nanos().is_multiple_of(1_000_000)
}

impl TimeControl {
    /// Builds a time control, checking its invariants.
    ///
    /// # Errors
    ///
    /// A [`TimeControlError`] naming the first problem found.
    pub fn new(
        periods: Vec<Period>,
        increment: Increment,
    ) -> Result<TimeControl, TimeControlError> {
        if periods.is_empty() {
            return Err(TimeControlError::NoPeriods);
        }
        if periods.len() > MAX_PERIODS {
            return Err(TimeControlError::TooManyPeriods {
                count: periods.len(),
            });
        }
        let last = periods.len() - 1;
        for (index, p) in periods.iter().enumerate() {
            let period = index + 1;
            if p.time.is_zero() {
                return Err(TimeControlError::ZeroTime { period });
            }
            if p.time > MAX_PERIOD_TIME {
                return Err(TimeControlError::PeriodTooLong { period });
            }
            if !is_whole_millis(p.time) {
                return Err(TimeControlError::PeriodNotWholeMillis { period });
            }
            match p.moves {
                None if index != last => return Err(TimeControlError::MissingMoveCount { period }),
                Some(_) if index == last => {
                    return Err(TimeControlError::LastPeriodHasMoveCount { period });
                }
                Some(0) => return Err(TimeControlError::ZeroMoves { period }),
                Some(moves) if moves > MAX_PERIOD_MOVES => {
                    return Err(TimeControlError::TooManyMoves { period, moves });
                }
                _ => {}
            }
        }
        let amount = increment.amount();
        if amount > MAX_INCREMENT {
            return Err(TimeControlError::IncrementTooLong);
        }
        if !is_whole_millis(amount) {
            return Err(TimeControlError::IncrementNotWholeMillis);
        }
        Ok(TimeControl {
            periods,
            increment: increment.normalized(),
        })
    }

    /// One sudden-death period of `time` with `increment`.
    ///
    /// # Errors
    ///
    /// As [`TimeControl::new`].
    pub fn sudden_death(
        time: Duration,
        increment: Increment,
    ) -> Result<TimeControl, TimeControlError> {
        TimeControl::new(vec![Period::sudden_death(time)], increment)
    }

    /// Classical preset `90m/40+30m+30s`: 90 minutes for 40 moves, then 30
    /// minutes for the rest of the game, 30 seconds added per move from move 1.
    pub fn classical() -> TimeControl {
        TimeControl {
            periods: vec![
                Period::new(90 * MINUTE, 40),
                Period::sudden_death(30 * MINUTE),
            ],
            increment: Increment::Fischer(Duration::from_secs(30)),
        }
    }

    /// Rapid preset `15m+10s`.
    pub fn rapid() -> TimeControl {
        TimeControl {
            periods: vec![Period::sudden_death(15 * MINUTE)],
            increment: Increment::Fischer(Duration::from_secs(10)),
        }
    }

    /// Blitz preset `3m+2s`.
    pub fn blitz() -> TimeControl {
        TimeControl {
            periods: vec![Period::sudden_death(3 * MINUTE)],
            increment: Increment::Fischer(Duration::from_secs(2)),
        }
    }

    /// The periods, in order; never empty, the last one sudden death.
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// The increment mode.
    pub const fn increment(&self) -> Increment {
        self.increment
    }

    /// Time on each clock at the start (the first period's time).
    pub fn initial_time(&self) -> Duration {
        self.periods.first().map_or(Duration::ZERO, |p| p.time)
    }

    /// Number of moves a player has completed when `period` (from 0) ends,
    /// or `None` for the sudden-death period (or an index out of range).
    pub fn period_end(&self, period: usize) -> Option<u32> {
        let mut total: u32 = 0;
        for p in self.periods.get(..=period)? {
            total = total.saturating_add(p.moves?);
        }
        Some(total)
    }

    /// The period (from 0) in which a player who has completed `moves`
    /// moves plays the next one.
    pub fn period_for_moves(&self, moves: u32) -> usize {
        let mut end: u32 = 0;
        for (index, p) in self.periods.iter().enumerate() {
            match p.moves {
                Some(n) => {
                    end = end.saturating_add(n);
                    if moves < end {
                        return index;
                    }
                }
                None => return index,
            }
        }
        self.periods.len().saturating_sub(1)
    }

    /// Time for 60 moves as FIDE classifies games (Appendices A.1, B.1):
    /// the time of every period that starts within the first 60 moves, plus
    /// 60 times the increment (a delay counts like an increment).
    pub fn time_for_60_moves(&self) -> Duration {
        let mut total = Duration::ZERO;
        let mut moves_before: u32 = 0;
        for p in &self.periods {
            if moves_before >= 60 {
                break;
            }
            total = total.saturating_add(p.time);
            match p.moves {
                Some(n) => moves_before = moves_before.saturating_add(n),
                None => break,
            }
        }
        total.saturating_add(self.increment.amount().saturating_mul(60))
    }

    /// FIDE classification by [`time_for_60_moves`](Self::time_for_60_moves):
    /// blitz at most 10 minutes, rapid more than 10 and less than 60 minutes,
    /// standard otherwise (60 minutes or more), following Appendices A.1 and
    /// B.1 of the 2023 Laws.
    pub fn kind(&self) -> GameKind {
        let t = self.time_for_60_moves();
        if t <= 10 * MINUTE {
            GameKind::Blitz
        } else if t < 60 * MINUTE {
            GameKind::Rapid
        } else {
            GameKind::Standard
        }
    }

    /// `true` when the control has neither an increment nor a delay.
    pub const fn has_no_increment(&self) -> bool {
        self.increment.is_none()
    }
}

impl Default for TimeControl {
    /// The classical preset.
    fn default() -> TimeControl {
        TimeControl::classical()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn min(n: u64) -> Duration {
        Duration::from_secs(n * 60)
    }

    const fn sec(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn presets_are_valid() {
        for tc in [
            TimeControl::classical(),
            TimeControl::rapid(),
            TimeControl::blitz(),
        ] {
            let rebuilt = TimeControl::new(tc.periods().to_vec(), tc.increment());
            assert_eq!(rebuilt, Ok(tc));
        }
    }

    #[test]
    fn preset_kinds() {
        // classical: 90 + 30 minutes (second period starts at move 41) + 60 * 30 s.
        assert_eq!(TimeControl::classical().time_for_60_moves(), min(150));
        assert_eq!(TimeControl::classical().kind(), GameKind::Standard);
        // rapid: 15 minutes + 60 * 10 s = 25 minutes.
        assert_eq!(TimeControl::rapid().time_for_60_moves(), min(25));
        assert_eq!(TimeControl::rapid().kind(), GameKind::Rapid);
        // blitz: 3 minutes + 60 * 2 s = 5 minutes.
        assert_eq!(TimeControl::blitz().time_for_60_moves(), min(5));
        assert_eq!(TimeControl::blitz().kind(), GameKind::Blitz);
    }

    #[test]
    fn kind_boundaries() {
        let sd = |t, inc| TimeControl::sudden_death(t, inc).unwrap();
        assert_eq!(sd(min(10), Increment::None).kind(), GameKind::Blitz);
        assert_eq!(
            sd(min(10) + Duration::from_millis(1), Increment::None).kind(),
            GameKind::Rapid
        );
        assert_eq!(
            sd(min(5), Increment::Fischer(sec(5))).kind(),
            GameKind::Blitz
        );
        assert_eq!(
            sd(min(5), Increment::Fischer(sec(6))).kind(),
            GameKind::Rapid
        );
        // A delay counts like an increment.
        assert_eq!(
            sd(min(3), Increment::SimpleDelay(sec(7))).kind(),
            GameKind::Blitz
        );
        assert_eq!(
            sd(min(3), Increment::Bronstein(sec(8))).kind(),
            GameKind::Rapid
        );
        assert_eq!(
            sd(min(59) + sec(59), Increment::None).kind(),
            GameKind::Rapid
        );
        // Rapid is "less than 60 minutes" (A.1): exactly 60 is standard.
        assert_eq!(sd(min(60), Increment::None).kind(), GameKind::Standard);
        assert_eq!(
            sd(min(45), Increment::Fischer(sec(15))).kind(),
            GameKind::Standard
        );
        assert_eq!(
            sd(min(30), Increment::Fischer(sec(29))).kind(),
            GameKind::Rapid
        );
    }

    #[test]
    fn time_for_60_moves_counts_periods_starting_before_move_61() {
        // 20 moves in 5 min, then 40 moves in 10 min, then 30 min: the third
        // period starts at move 61 and does not count.
        let tc = TimeControl::new(
            vec![
                Period::new(min(5), 20),
                Period::new(min(10), 40),
                Period::sudden_death(min(30)),
            ],
            Increment::None,
        )
        .unwrap();
        assert_eq!(tc.time_for_60_moves(), min(15));
        assert_eq!(tc.kind(), GameKind::Rapid);
        let tc = TimeControl::new(
            vec![
                Period::new(min(5), 20),
                Period::new(min(10), 39),
                Period::sudden_death(min(30)),
            ],
            Increment::None,
        )
        .unwrap();
        assert_eq!(tc.time_for_60_moves(), min(45));
    }

    #[test]
    fn period_ends_and_lookup() {
        let tc = TimeControl::new(
            vec![
                Period::new(min(120), 40),
                Period::new(min(60), 20),
                Period::sudden_death(min(30)),
            ],
            Increment::None,
        )
        .unwrap();
        assert_eq!(tc.period_end(0), Some(40));
        assert_eq!(tc.period_end(1), Some(60));
        assert_eq!(tc.period_end(2), None);
        assert_eq!(tc.period_end(3), None);
        assert_eq!(tc.period_for_moves(0), 0);
        assert_eq!(tc.period_for_moves(39), 0);
        assert_eq!(tc.period_for_moves(40), 1);
        assert_eq!(tc.period_for_moves(59), 1);
        assert_eq!(tc.period_for_moves(60), 2);
        assert_eq!(tc.period_for_moves(u32::MAX), 2);
        assert_eq!(tc.initial_time(), min(120));
    }

    #[test]
    fn zero_increment_is_none() {
        let tc = TimeControl::sudden_death(min(15), Increment::Fischer(Duration::ZERO)).unwrap();
        assert_eq!(tc.increment(), Increment::None);
        assert!(tc.has_no_increment());
        assert!(!TimeControl::rapid().has_no_increment());
    }

    #[test]
    fn validation_errors() {
        use TimeControlError as E;
        let new = TimeControl::new;
        assert_eq!(new(vec![], Increment::None), Err(E::NoPeriods));
        let many = vec![Period::new(min(1), 1); 8]
            .into_iter()
            .chain([Period::sudden_death(min(1))])
            .collect();
        assert_eq!(
            new(many, Increment::None),
            Err(E::TooManyPeriods { count: 9 })
        );
        assert_eq!(
            new(
                vec![
                    Period::new(min(1), 40),
                    Period::sudden_death(Duration::ZERO)
                ],
                Increment::None
            ),
            Err(E::ZeroTime { period: 2 })
        );
        assert_eq!(
            new(
                vec![Period::sudden_death(Duration::from_secs(100 * 3600 + 1))],
                Increment::None
            ),
            Err(E::PeriodTooLong { period: 1 })
        );
        assert_eq!(
            new(
                vec![Period::sudden_death(min(1)), Period::sudden_death(min(1))],
                Increment::None
            ),
            Err(E::MissingMoveCount { period: 1 })
        );
        assert_eq!(
            new(vec![Period::new(min(1), 40)], Increment::None),
            Err(E::LastPeriodHasMoveCount { period: 1 })
        );
        assert_eq!(
            new(
                vec![Period::new(min(1), 0), Period::sudden_death(min(1))],
                Increment::None
            ),
            Err(E::ZeroMoves { period: 1 })
        );
        assert_eq!(
            new(
                vec![Period::new(min(1), 1001), Period::sudden_death(min(1))],
                Increment::None
            ),
            Err(E::TooManyMoves {
                period: 1,
                moves: 1001
            })
        );
        assert_eq!(
            new(
                vec![Period::sudden_death(Duration::from_micros(1500))],
                Increment::None
            ),
            Err(E::PeriodNotWholeMillis { period: 1 })
        );
        assert_eq!(
            new(
                vec![Period::sudden_death(min(1))],
                Increment::Bronstein(min(61))
            ),
            Err(E::IncrementTooLong)
        );
        assert_eq!(
            new(
                vec![Period::sudden_death(min(1))],
                Increment::SimpleDelay(Duration::from_nanos(1))
            ),
            Err(E::IncrementNotWholeMillis)
        );
    }

    #[test]
    fn validation_messages_come_from_the_locale() {
        use TimeControlError as E;
        let en = crate::locale::builtin("en").unwrap();
        for e in [
            E::NoPeriods,
            E::TooManyPeriods { count: 9 },
            E::ZeroTime { period: 1 },
            E::PeriodTooLong { period: 1 },
            E::MissingMoveCount { period: 1 },
            E::LastPeriodHasMoveCount { period: 1 },
            E::ZeroMoves { period: 1 },
            E::TooManyMoves {
                period: 1,
                moves: 1001,
            },
            E::PeriodNotWholeMillis { period: 1 },
            E::IncrementTooLong,
            E::IncrementNotWholeMillis,
        ] {
            let text = e.describe(&en);
            assert!(!text.contains("control."), "{text}");
            assert!(!text.contains('{'), "{text}");
            assert_eq!(e.to_string(), text);
        }
    }
}
