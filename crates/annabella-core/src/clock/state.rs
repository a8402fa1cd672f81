//! The chess clock: state, operations with injected time, exact ledger.

use std::time::Duration;

use shakmaty::{ByColor, Color};

use super::{
    control::{Increment, MAX_INCREMENT, TimeControl, is_whole_millis},
    fide::QUICKPLAY_THRESHOLD,
    parts::TimeParts,
};
use crate::rules::GameKind;

/// Exact account of one player's clock, in integer [`Duration`]s.
///
/// Every change of the player's remaining time is recorded in one field, so
/// that always
///
/// ```text
/// remaining = initial + period_added + increment_added + arbiter_added
///           - arbiter_removed - charged
/// used      = charged + delay_absorbed
/// ```
///
/// and the `used` times of both players add up to exactly the time the clock
/// has been running (zero drift). The ledger is settled up to the last
/// operation; [`Clock::remaining`] and [`Clock::used`] include the move in
/// progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Ledger {
    /// The first period's time, on the clock at the start.
    pub initial: Duration,
    /// Time of later periods, added when a period's moves were completed.
    pub period_added: Duration,
    /// Fischer increments and Bronstein refunds.
    pub increment_added: Duration,
    /// Time given by the arbiter (penalties to the opponent, corrections).
    pub arbiter_added: Duration,
    /// Time taken away by the arbiter.
    pub arbiter_removed: Duration,
    /// Running time deducted from the clock. With a Bronstein delay this is
    /// all running time (the refund is in `increment_added`); with a simple
    /// delay it is the running time beyond each move's delay.
    pub charged: Duration,
    /// Running time covered by a simple delay and not deducted.
    pub delay_absorbed: Duration,
}

impl Ledger {
    /// Everything ever put on the clock.
    pub fn credited(&self) -> Duration {
        self.initial
            .saturating_add(self.period_added)
            .saturating_add(self.increment_added)
            .saturating_add(self.arbiter_added)
    }

    /// Everything ever taken off the clock.
    pub fn debited(&self) -> Duration {
        self.charged.saturating_add(self.arbiter_removed)
    }

    /// Time left on the clock: `credited - debited` (the clock keeps
    /// `debited <= credited`).
    pub fn remaining(&self) -> Duration {
        self.credited().saturating_sub(self.debited())
    }

    /// Running time of this player's clock: `charged + delay_absorbed`.
    pub fn used(&self) -> Duration {
        self.charged.saturating_add(self.delay_absorbed)
    }

    /// `credited() + add` without overflow, as a check before adding.
    fn can_credit(&self, add: Duration) -> bool {
        self.initial
            .checked_add(self.period_added)
            .and_then(|d| d.checked_add(self.increment_added))
            .and_then(|d| d.checked_add(self.arbiter_added))
            .and_then(|d| d.checked_add(add))
            .is_some()
    }
}

/// What happened on the clock, for a talking clock to announce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClockEvent {
    /// A player pressed the clock and so completed a move.
    MoveCompleted {
        /// Who moved.
        color: Color,
        /// Moves that player has now completed.
        moves: u32,
    },
    /// A Fischer increment or Bronstein refund was added (never zero).
    IncrementAdded {
        /// To whose clock.
        color: Color,
        /// How much.
        added: Duration,
    },
    /// A player completed a period's moves and the next period's time was
    /// added.
    PeriodReached {
        /// Whose clock.
        color: Color,
        /// The period now played, counting from 0 (1 is the second period).
        period: usize,
        /// The time added.
        added: Duration,
    },
    /// The clock now runs for `color`.
    Switched {
        /// Whose clock runs now.
        color: Color,
    },
    /// A player's remaining time reached zero.
    FlagFell {
        /// Whose flag fell.
        color: Color,
        /// The exact instant it fell.
        at: Duration,
    },
}

/// Why a clock operation was refused. Refused operations change nothing,
/// except that an operation that finds a flag fallen records it (the clock
/// stops at the instant of the fall).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum ClockError {
    /// The clock has not been started yet.
    #[error("the clock has not been started")]
    NotStarted,
    /// The clock was started before.
    #[error("the clock has already been started")]
    AlreadyStarted,
    /// The clock is paused.
    #[error("the clock is paused with {color} to move; resume it first")]
    Paused {
        /// Whose move it is.
        color: Color,
    },
    /// `resume` while the clock is not paused.
    #[error("the clock is not paused")]
    NotPaused,
    /// A player's flag has fallen; pressing the clock no longer saves them.
    #[error("{color}'s flag has fallen")]
    FlagFallen {
        /// Whose flag fell.
        color: Color,
        /// The exact instant it fell.
        at: Duration,
    },
    /// `now` is earlier than an instant the clock has already seen.
    #[error("time went backwards: {now:?} is before {latest:?}")]
    TimeWentBackwards {
        /// The latest instant the clock has seen.
        latest: Duration,
        /// The `now` given.
        now: Duration,
    },
    /// The arbiter tried to take away more time than is left.
    #[error("cannot take {requested:?} from {color}: only {remaining:?} left")]
    RemovalExceedsRemaining {
        /// Whose clock.
        color: Color,
        /// Time left.
        remaining: Duration,
        /// Time asked to take away.
        requested: Duration,
    },
    /// An increment was to be added to a game that has one or a delay.
    #[error("the game already has an increment or delay ({increment})")]
    IncrementAlreadySet {
        /// The increment in force.
        increment: Increment,
    },
    /// An increment of zero, over an hour, or not of whole milliseconds.
    #[error(
        "invalid increment {0:?}: it must be more than zero, at most one hour, in whole milliseconds"
    )]
    InvalidIncrement(Duration),
    /// A time or count too large to represent.
    #[error("time or move count too large")]
    Overflow,
}

/// A signed change of a player's time, made by the arbiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Adjustment {
    /// Give time.
    Add(Duration),
    /// Take time away.
    Remove(Duration),
}

/// Where the clock is, without the times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClockState {
    /// Before [`Clock::start`].
    NotStarted,
    /// Running for this player.
    Running(Color),
    /// Paused with this player to move.
    Paused(Color),
    /// Stopped because this player's flag fell.
    Flagged(Color),
}

/// Everything a talking clock announces about one player (Appendix D.2.6,
/// D.2.10: the time and the number of moves; time used on request).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Reading {
    /// The player.
    pub color: Color,
    /// Time left, as the clock shows it.
    pub remaining: Duration,
    /// Time the player's clock has run so far.
    pub used: Duration,
    /// Moves completed.
    pub moves: u32,
    /// Current period, from 0.
    pub period: usize,
    /// Moves left until the end of the current period, `None` in the final
    /// period.
    pub moves_to_control: Option<u32>,
    /// What is left of a simple delay for the move in progress (zero
    /// otherwise).
    pub delay_left: Duration,
    /// `true` when this player's clock is running.
    pub running: bool,
    /// `true` when this player's flag has fallen.
    pub flagged: bool,
}

impl Reading {
    /// [`remaining`](Self::remaining) split for announcing.
    pub fn remaining_parts(&self) -> TimeParts {
        TimeParts::new(self.remaining)
    }

    /// [`used`](Self::used) split for announcing.
    pub fn used_parts(&self) -> TimeParts {
        TimeParts::new(self.used)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
struct Player {
    ledger: Ledger,
    moves: u32,
    period: usize,
}

/// `turn` is the running time of the move in progress before `since`/`at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Phase {
    NotStarted,
    Running {
        color: Color,
        since: Duration,
        turn: Duration,
    },
    Paused {
        color: Color,
        at: Duration,
        turn: Duration,
    },
    Flagged {
        color: Color,
        at: Duration,
        turn: Duration,
    },
}

/// What [`Clock::settle`] found.
enum Settled {
    Idle,
    Running { color: Color, turn: Duration },
    NewlyFlagged { color: Color, at: Duration },
}

/// A chess clock for two players under a [`TimeControl`].
///
/// Pure: it never reads the system clock. Every operation that depends on
/// time takes `now`, the time since an arbitrary epoch fixed by the caller,
/// which must never go backwards. All arithmetic is on integer
/// [`Duration`]s, so the time charged never drifts from the time injected
/// (see [`Ledger`]).
///
/// The flag falls at the exact instant a running player's remaining time
/// reaches zero; a press at that instant is too late. With a simple delay the
/// flag falls when the delay is over and the remaining time has run out.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Clock {
    control: TimeControl,
    increment: Increment,
    players: ByColor<Player>,
    phase: Phase,
}

impl Clock {
    /// A clock set for `control`, not started.
    pub fn new(control: TimeControl) -> Clock {
        let initial = control.initial_time();
        let player = Player {
            ledger: Ledger {
                initial,
                ..Ledger::default()
            },
            moves: 0,
            period: 0,
        };
        Clock {
            increment: control.increment(),
            control,
            players: ByColor {
                white: player,
                black: player,
            },
            phase: Phase::NotStarted,
        }
    }

    /// The time control the clock was set for.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// The increment in force: the control's, or the one the arbiter added
    /// with [`add_increment_both`](Self::add_increment_both).
    pub fn increment(&self) -> Increment {
        self.increment
    }

    /// Where the clock is.
    pub fn state(&self) -> ClockState {
        match self.phase {
            Phase::NotStarted => ClockState::NotStarted,
            Phase::Running { color, .. } => ClockState::Running(color),
            Phase::Paused { color, .. } => ClockState::Paused(color),
            Phase::Flagged { color, .. } => ClockState::Flagged(color),
        }
    }

    /// Whose clock is running; `None` when not started, paused or stopped.
    pub fn running(&self) -> Option<Color> {
        match self.phase {
            Phase::Running { color, .. } => Some(color),
            _ => None,
        }
    }

    /// Whose move it is on the clock, running or paused.
    pub fn to_move(&self) -> Option<Color> {
        match self.phase {
            Phase::Running { color, .. } | Phase::Paused { color, .. } => Some(color),
            Phase::NotStarted | Phase::Flagged { .. } => None,
        }
    }

    /// `true` when paused.
    pub fn is_paused(&self) -> bool {
        matches!(self.phase, Phase::Paused { .. })
    }

    /// The player whose flag fell, as recorded by an operation. See
    /// [`flag`](Self::flag) for the flag at a given instant.
    pub fn flagged(&self) -> Option<Color> {
        match self.phase {
            Phase::Flagged { color, .. } => Some(color),
            _ => None,
        }
    }

    /// Moves `color` has completed.
    pub fn moves(&self, color: Color) -> u32 {
        self.players.get(color).moves
    }

    /// The period (from 0) `color` is playing.
    pub fn period(&self, color: Color) -> usize {
        self.players.get(color).period
    }

    /// Moves `color` still has to complete in the current period, `None` in
    /// the final period.
    pub fn moves_to_control(&self, color: Color) -> Option<u32> {
        let player = self.players.get(color);
        self.control
            .period_end(player.period)
            .map(|end| end.saturating_sub(player.moves))
    }

    /// The settled ledger of `color` (up to the last operation).
    pub fn ledger(&self, color: Color) -> Ledger {
        self.players.get(color).ledger
    }

    /// Running time deducted from `color`'s clock, settled (see
    /// [`Ledger::charged`]).
    pub fn charged(&self, color: Color) -> Duration {
        self.players.get(color).ledger.charged
    }

    fn delay_left_after(&self, turn: Duration) -> Duration {
        match self.increment {
            Increment::SimpleDelay(d) => d.saturating_sub(turn),
            _ => Duration::ZERO,
        }
    }

    /// For `color` if its clock is running: the time elapsed since the last
    /// settlement (zero if `now` is earlier) and the simple delay left at
    /// that settlement.
    fn live(&self, color: Color, now: Duration) -> Option<(Duration, Duration)> {
        match self.phase {
            Phase::Running {
                color: c,
                since,
                turn,
            } if c == color => Some((now.saturating_sub(since), self.delay_left_after(turn))),
            _ => None,
        }
    }

    /// What the clock shows for `color` at `now`. During a simple delay it
    /// does not go down. An earlier `now` than the last operation counts as
    /// the last operation's instant.
    pub fn remaining(&self, color: Color, now: Duration) -> Duration {
        let rem = self.players.get(color).ledger.remaining();
        match self.live(color, now) {
            Some((elapsed, delay_left)) => rem.saturating_sub(elapsed.saturating_sub(delay_left)),
            None => rem,
        }
    }

    /// Time `color`'s clock has run in the whole game, at `now`.
    pub fn used(&self, color: Color, now: Duration) -> Duration {
        let used = self.players.get(color).ledger.used();
        match self.live(color, now) {
            Some((elapsed, _)) => used.saturating_add(elapsed),
            None => used,
        }
    }

    /// What is left of the simple delay of the move in progress at `now`
    /// (zero for other modes and for the player not to move).
    pub fn delay_left(&self, color: Color, now: Duration) -> Duration {
        match self.live(color, now) {
            Some((elapsed, delay_left)) => delay_left.saturating_sub(elapsed),
            None => Duration::ZERO,
        }
    }

    /// The player whose flag has fallen at `now`, if any: the running
    /// player's remaining time has reached zero (after any simple delay), or
    /// an operation recorded a fall.
    pub fn flag(&self, now: Duration) -> Option<Color> {
        match self.phase {
            Phase::Flagged { color, .. } => Some(color),
            Phase::Running { color, since, turn } => {
                let rem = self.players.get(color).ledger.remaining();
                let limit = self.delay_left_after(turn).checked_add(rem)?;
                (now.saturating_sub(since) >= limit).then_some(color)
            }
            Phase::NotStarted | Phase::Paused { .. } => None,
        }
    }

    /// Everything to announce about `color` at `now`.
    pub fn reading(&self, color: Color, now: Duration) -> Reading {
        let player = self.players.get(color);
        Reading {
            color,
            remaining: self.remaining(color, now),
            used: self.used(color, now),
            moves: player.moves,
            period: player.period,
            moves_to_control: self.moves_to_control(color),
            delay_left: self.delay_left(color, now),
            running: self.running() == Some(color),
            flagged: self.flag(now) == Some(color),
        }
    }

    /// Charges the running player for the time up to `now` (or up to the
    /// flag fall, which stops the clock).
    fn settle(&mut self, now: Duration) -> Result<Settled, ClockError> {
        let Phase::Running { color, since, turn } = self.phase else {
            return Ok(Settled::Idle);
        };
        let elapsed = now
            .checked_sub(since)
            .ok_or(ClockError::TimeWentBackwards { latest: since, now })?;
        let delay_left = self.delay_left_after(turn);
        let ledger = self.players.get(color).ledger;
        let rem = ledger.remaining();
        let flag_after = delay_left
            .checked_add(rem)
            .filter(|limit| elapsed >= *limit);
        // Split the elapsed time into the part absorbed by a simple delay and
        // the part charged; stop at the flag fall.
        let (absorbed, charged, counted) = match flag_after {
            Some(limit) => (delay_left, rem, limit),
            None => {
                let absorbed = elapsed.min(delay_left);
                (absorbed, elapsed.saturating_sub(absorbed), elapsed)
            }
        };
        let new_absorbed = ledger
            .delay_absorbed
            .checked_add(absorbed)
            .ok_or(ClockError::Overflow)?;
        // charged <= rem, so this stays within `credited`.
        let new_charged = ledger.charged.saturating_add(charged);
        let player = self.players.get_mut(color);
        player.ledger.delay_absorbed = new_absorbed;
        player.ledger.charged = new_charged;
        let turn = turn.saturating_add(counted);
        // since + counted <= now, so this cannot overflow.
        let at = since.saturating_add(counted);
        if flag_after.is_some() {
            self.phase = Phase::Flagged { color, at, turn };
            Ok(Settled::NewlyFlagged { color, at })
        } else {
            self.phase = Phase::Running {
                color,
                since: now,
                turn,
            };
            Ok(Settled::Running { color, turn })
        }
    }

    /// Starts the clock for `first_to_move` (normally White) at `now`.
    ///
    /// # Errors
    ///
    /// [`ClockError::AlreadyStarted`] if started before.
    pub fn start(&mut self, now: Duration, first_to_move: Color) -> Result<(), ClockError> {
        match self.phase {
            Phase::NotStarted => {
                self.phase = Phase::Running {
                    color: first_to_move,
                    since: now,
                    turn: Duration::ZERO,
                };
                Ok(())
            }
            _ => Err(ClockError::AlreadyStarted),
        }
    }

    /// Brings the clock up to `now` and reports a flag fall that happened
    /// since the last operation (once: later calls find the clock stopped).
    /// A talking clock calls this regularly to announce a flag fall at once.
    ///
    /// # Errors
    ///
    /// [`ClockError::TimeWentBackwards`].
    pub fn update(&mut self, now: Duration) -> Result<Option<ClockEvent>, ClockError> {
        Ok(match self.settle(now)? {
            Settled::NewlyFlagged { color, at } => Some(ClockEvent::FlagFell { color, at }),
            Settled::Idle | Settled::Running { .. } => None,
        })
    }

    /// The running player presses the clock at `now`, completing a move.
    ///
    /// In order: the time since the last operation is charged (respecting a
    /// simple delay); if the flag has fallen by `now` the press is refused;
    /// the increment (Fischer) or refund (Bronstein, the move's time up to
    /// the delay) is added; the move is counted; when the move completes a
    /// period, the next period's time is added; the opponent's clock starts.
    ///
    /// Returns the events in that order: [`ClockEvent::MoveCompleted`],
    /// [`ClockEvent::IncrementAdded`] (if any), [`ClockEvent::PeriodReached`]
    /// (if any), [`ClockEvent::Switched`].
    ///
    /// # Errors
    ///
    /// [`ClockError::NotStarted`], [`ClockError::Paused`],
    /// [`ClockError::FlagFallen`] (the fall is recorded and the clock stops
    /// at its instant), [`ClockError::TimeWentBackwards`],
    /// [`ClockError::Overflow`].
    pub fn press(&mut self, now: Duration) -> Result<Vec<ClockEvent>, ClockError> {
        match self.phase {
            Phase::NotStarted => return Err(ClockError::NotStarted),
            Phase::Paused { color, .. } => return Err(ClockError::Paused { color }),
            Phase::Flagged { color, at, .. } => return Err(ClockError::FlagFallen { color, at }),
            Phase::Running { .. } => {}
        }
        let (color, turn) = match self.settle(now)? {
            Settled::Running { color, turn } => (color, turn),
            Settled::NewlyFlagged { color, at } => {
                return Err(ClockError::FlagFallen { color, at });
            }
            Settled::Idle => return Err(ClockError::NotStarted),
        };
        let increment = match self.increment {
            Increment::Fischer(d) => d,
            Increment::Bronstein(d) => turn.min(d),
            Increment::None | Increment::SimpleDelay(_) => Duration::ZERO,
        };
        let player = *self.players.get(color);
        let moves = player.moves.checked_add(1).ok_or(ClockError::Overflow)?;
        let next_period = player.period.saturating_add(1);
        let period_added = match (
            self.control.period_end(player.period),
            self.control.periods().get(next_period),
        ) {
            (Some(end), Some(next)) if moves >= end => Some(next.time),
            _ => None,
        };
        let mut ledger = player.ledger;
        if !ledger.can_credit(increment.saturating_add(period_added.unwrap_or_default())) {
            return Err(ClockError::Overflow);
        }
        ledger.increment_added = ledger.increment_added.saturating_add(increment);
        let mut events = vec![ClockEvent::MoveCompleted { color, moves }];
        if !increment.is_zero() {
            events.push(ClockEvent::IncrementAdded {
                color,
                added: increment,
            });
        }
        let mut period = player.period;
        if let Some(added) = period_added {
            ledger.period_added = ledger.period_added.saturating_add(added);
            period = next_period;
            events.push(ClockEvent::PeriodReached {
                color,
                period,
                added,
            });
        }
        *self.players.get_mut(color) = Player {
            ledger,
            moves,
            period,
        };
        let opponent = color.other();
        self.phase = Phase::Running {
            color: opponent,
            since: now,
            turn: Duration::ZERO,
        };
        events.push(ClockEvent::Switched { color: opponent });
        Ok(events)
    }

    /// Pauses the clock at `now` (e.g. the arbiter stops it, Art. 6.12). The
    /// move in progress keeps its used time and delay.
    ///
    /// # Errors
    ///
    /// [`ClockError::NotStarted`], [`ClockError::Paused`] (already paused),
    /// [`ClockError::FlagFallen`] (the fall is recorded),
    /// [`ClockError::TimeWentBackwards`], [`ClockError::Overflow`].
    pub fn pause(&mut self, now: Duration) -> Result<(), ClockError> {
        match self.phase {
            Phase::NotStarted => return Err(ClockError::NotStarted),
            Phase::Paused { color, .. } => return Err(ClockError::Paused { color }),
            Phase::Flagged { color, at, .. } => return Err(ClockError::FlagFallen { color, at }),
            Phase::Running { .. } => {}
        }
        match self.settle(now)? {
            Settled::Running { color, turn } => {
                self.phase = Phase::Paused {
                    color,
                    at: now,
                    turn,
                };
                Ok(())
            }
            Settled::NewlyFlagged { color, at } => Err(ClockError::FlagFallen { color, at }),
            Settled::Idle => Err(ClockError::NotStarted),
        }
    }

    /// Resumes a paused clock at `now` for the player to move.
    ///
    /// # Errors
    ///
    /// [`ClockError::NotStarted`], [`ClockError::NotPaused`],
    /// [`ClockError::FlagFallen`], [`ClockError::TimeWentBackwards`] (before
    /// the pause).
    pub fn resume(&mut self, now: Duration) -> Result<(), ClockError> {
        match self.phase {
            Phase::Paused { color, at, turn } => {
                if now < at {
                    return Err(ClockError::TimeWentBackwards { latest: at, now });
                }
                self.phase = Phase::Running {
                    color,
                    since: now,
                    turn,
                };
                Ok(())
            }
            Phase::NotStarted => Err(ClockError::NotStarted),
            Phase::Running { .. } => Err(ClockError::NotPaused),
            Phase::Flagged { color, at, .. } => Err(ClockError::FlagFallen { color, at }),
        }
    }

    /// Arbiter: from `now` on, `color`'s clock runs, without a move being
    /// completed (Guideline I.9.2 and I.9.3: at the resumption of an
    /// adjourned game the clock of an absent player is started). A running
    /// clock is charged up to `now` first; no move is counted and no
    /// increment added. The move in progress keeps its time (and delay)
    /// when it is the same player's.
    ///
    /// # Errors
    ///
    /// [`ClockError::FlagFallen`] (the fall is recorded),
    /// [`ClockError::TimeWentBackwards`], [`ClockError::Overflow`].
    pub fn run_for(&mut self, now: Duration, color: Color) -> Result<(), ClockError> {
        let turn = match self.phase {
            Phase::Flagged { color, at, .. } => return Err(ClockError::FlagFallen { color, at }),
            Phase::NotStarted => Duration::ZERO,
            Phase::Paused { color: c, at, turn } => {
                if now < at {
                    return Err(ClockError::TimeWentBackwards { latest: at, now });
                }
                if c == color { turn } else { Duration::ZERO }
            }
            Phase::Running { .. } => match self.settle(now)? {
                Settled::NewlyFlagged { color, at } => {
                    return Err(ClockError::FlagFallen { color, at });
                }
                Settled::Running { color: c, turn } if c == color => turn,
                Settled::Running { .. } | Settled::Idle => Duration::ZERO,
            },
        };
        self.phase = Phase::Running {
            color,
            since: now,
            turn,
        };
        Ok(())
    }

    /// Arbiter: gives `color` time or takes it away, at `now` (e.g. 2 extra
    /// minutes to the opponent of an illegal move, Art. 7.5.5; corrections
    /// after D.2.9). Works in every state, also before the start. Giving
    /// time to a player whose flag fell lifts the fall; the clock is then
    /// paused with that player to move.
    ///
    /// # Errors
    ///
    /// [`ClockError::RemovalExceedsRemaining`] (use
    /// [`set_remaining`](Self::set_remaining) to set zero),
    /// [`ClockError::TimeWentBackwards`], [`ClockError::Overflow`].
    pub fn adjust(
        &mut self,
        now: Duration,
        color: Color,
        adjustment: Adjustment,
    ) -> Result<(), ClockError> {
        self.settle(now)?;
        let ledger = self.players.get(color).ledger;
        match adjustment {
            Adjustment::Add(d) => {
                if !ledger.can_credit(d) {
                    return Err(ClockError::Overflow);
                }
                self.players.get_mut(color).ledger.arbiter_added =
                    ledger.arbiter_added.saturating_add(d);
                if let Phase::Flagged { color: c, at, turn } = self.phase
                    && c == color
                    && !d.is_zero()
                {
                    self.phase = Phase::Paused {
                        color,
                        at: at.max(now),
                        turn,
                    };
                }
            }
            Adjustment::Remove(d) => {
                let remaining = ledger.remaining();
                if d > remaining {
                    return Err(ClockError::RemovalExceedsRemaining {
                        color,
                        remaining,
                        requested: d,
                    });
                }
                // d <= remaining <= credited, so this cannot overflow.
                self.players.get_mut(color).ledger.arbiter_removed =
                    ledger.arbiter_removed.saturating_add(d);
            }
        }
        Ok(())
    }

    /// Arbiter: sets `color`'s remaining time to `remaining` at `now`,
    /// recorded in the ledger as an adjustment.
    ///
    /// # Errors
    ///
    /// As [`adjust`](Self::adjust).
    pub fn set_remaining(
        &mut self,
        now: Duration,
        color: Color,
        remaining: Duration,
    ) -> Result<(), ClockError> {
        self.settle(now)?;
        let current = self.players.get(color).ledger.remaining();
        let adjustment = if remaining >= current {
            Adjustment::Add(remaining.saturating_sub(current))
        } else {
            Adjustment::Remove(current.saturating_sub(remaining))
        };
        self.adjust(now, color, adjustment)
    }

    /// Arbiter: sets the number of moves `color` has completed (D.2.9, or
    /// resuming an adjourned game). The period follows from the count; the
    /// time is not changed (use [`set_remaining`](Self::set_remaining)), and
    /// a period's time is added again whenever the count next completes a
    /// period.
    pub fn set_moves(&mut self, color: Color, moves: u32) {
        let period = self.control.period_for_moves(moves);
        let player = self.players.get_mut(color);
        player.moves = moves;
        player.period = period;
    }

    /// Arbiter (Guideline III.4): from now on add `increment` (normally
    /// [`QUICKPLAY_INCREMENT`](super::QUICKPLAY_INCREMENT), 5 s) to both
    /// players after each move, as a Fischer increment.
    ///
    /// # Errors
    ///
    /// [`ClockError::IncrementAlreadySet`] if the game has an increment or
    /// delay; [`ClockError::InvalidIncrement`] for zero, more than an hour
    /// or not whole milliseconds.
    pub fn add_increment_both(&mut self, increment: Duration) -> Result<(), ClockError> {
        if !self.increment.is_none() {
            return Err(ClockError::IncrementAlreadySet {
                increment: self.increment,
            });
        }
        if increment.is_zero() || increment > MAX_INCREMENT || !is_whole_millis(increment) {
            return Err(ClockError::InvalidIncrement(increment));
        }
        self.increment = Increment::Fischer(increment);
        Ok(())
    }

    /// Guideline III.4/III.5: may `color` ask for an increment of 5 seconds
    /// for both players, or claim a draw, at `now`? Yes when the game has no
    /// increment or delay, is not blitz (III.2.2), `color` has the move and
    /// is in the final period (quickplay finish, III.1), and has less than
    /// two minutes left but the flag has not fallen.
    pub fn quickplay_finish_eligible(&self, color: Color, now: Duration) -> bool {
        let player = self.players.get(color);
        let remaining = self.remaining(color, now);
        self.increment.is_none()
            && self.control.kind() != GameKind::Blitz
            && self.to_move() == Some(color)
            && player.period.saturating_add(1) >= self.control.periods().len()
            && self.flag(now).is_none()
            && remaining < QUICKPLAY_THRESHOLD
    }
}

#[cfg(test)]
#[path = "state_tests.rs"]
mod tests;
