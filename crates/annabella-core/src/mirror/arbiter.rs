//! The arbiter's clock and penalty actions (Art. 6.11, 7.5, 6.10): stop
//! and restart the clock, give, take or set time, and an illegal-move
//! penalty. Every action is recorded (who, what, when) for the PGN.

use std::time::Duration;

use shakmaty::{Color, Position, Square};

use super::{GameError, GameEvent, Mirror, Said};
use crate::clock::Adjustment;

impl Mirror {
    /// Arbiter: stops both clocks (Art. 6.11).
    ///
    /// # Errors
    ///
    /// [`GameError::GameOver`], [`GameError::Adjourned`],
    /// [`GameError::TimeWentBackwards`], [`GameError::Clock`] (already
    /// paused).
    pub fn arbiter_pause(&mut self, now: Duration) -> Result<Said, GameError> {
        self.arbiter_clock(now, true)
    }

    /// Arbiter: restarts the clock after a pause.
    ///
    /// # Errors
    ///
    /// As [`Mirror::arbiter_pause`] (not paused).
    pub fn arbiter_resume(&mut self, now: Duration) -> Result<Said, GameError> {
        self.arbiter_clock(now, false)
    }

    fn arbiter_clock(&mut self, now: Duration, pause: bool) -> Result<Said, GameError> {
        self.guard(now)?;
        self.step(now, |m, said| {
            if pause {
                m.clock.pause(now)
            } else {
                m.clock.resume(now)
            }
            .map_err(GameError::Clock)?;
            let side = m.mover();
            let event = if pause {
                GameEvent::ClockPaused { side }
            } else {
                GameEvent::ClockResumed { side }
            };
            m.record(now, &event);
            said.push(event);
            Ok(())
        })
    }

    /// Arbiter: an illegal move by `side` that was completed (Art. 7.5.3
    /// to 7.5.5): the opponent gets extra time, a second one loses.
    ///
    /// # Errors
    ///
    /// [`GameError::GameOver`], [`GameError::Adjourned`],
    /// [`GameError::TimeWentBackwards`], [`GameError::Clock`].
    pub fn arbiter_penalty(&mut self, now: Duration, side: Color) -> Result<Said, GameError> {
        self.guard(now)?;
        self.step(now, |m, said| m.illegal_move(now, side, said))
    }

    /// The assistant reports that `side` touched the piece on `square`
    /// (D.2.10.5): recorded for the arbiter (Art. 4.3 applies).
    pub fn report_touch(
        &mut self,
        now: Duration,
        side: Color,
        square: Square,
    ) -> Result<Said, GameError> {
        self.guard(now)?;
        let piece = self.longer_board().position().board().piece_at(square);
        self.step(now, |m, said| {
            let event = GameEvent::Touched {
                side,
                square,
                piece,
            };
            m.record(now, &event);
            said.push(event);
            m.touched = Some((side, square));
            // Touching a piece to move or take it rejects the opponent's
            // draw offer (9.1.2.1).
            if m.draw_offer == Some(!side) {
                m.draw_offer = None;
                said.push(GameEvent::DrawOfferLapsed { side: !side });
            }
            Ok(())
        })
    }

    /// Arbiter: gives `color` time (or takes it, `add == false`).
    pub fn arbiter_adjust(
        &mut self,
        now: Duration,
        color: Color,
        amount: Duration,
        add: bool,
    ) -> Result<Said, GameError> {
        self.check_time(now)?;
        let adj = if add {
            Adjustment::Add(amount)
        } else {
            Adjustment::Remove(amount)
        };
        self.clock
            .adjust(now, color, adj)
            .map_err(GameError::Clock)?;
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        let event = GameEvent::ClockAdjusted {
            side: color,
            amount,
            add,
            remaining: self.clock.remaining(color, now),
        };
        self.record(now, &event);
        said.push(event);
        Ok(said)
    }

    /// Arbiter: sets `color`'s remaining time (e.g. from the scoresheet's
    /// times after a retrace, or when continuing a game from PGN).
    pub fn arbiter_set(
        &mut self,
        now: Duration,
        color: Color,
        remaining: Duration,
    ) -> Result<Said, GameError> {
        self.check_time(now)?;
        let current = self.clock.remaining(color, now);
        if remaining >= current {
            self.arbiter_adjust(now, color, remaining - current, true)
        } else {
            self.arbiter_adjust(now, color, current - remaining, false)
        }
    }
}
