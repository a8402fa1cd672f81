//! The arbiter's clock and penalty actions, and draw claims (Art. 9.2,
//! 9.5), on the two boards.

use std::time::Duration;

use shakmaty::Color;

use super::{ArbiterRecord, Mirror, MirrorError, Said, Stage, idx};
use crate::clock::Adjustment;
use crate::rules::{INCORRECT_CLAIM_PENALTY, IllegalMoveConsequence, RuleError};
use crate::vocab::Utterance;

impl Mirror {
    /// Arbiter: stops both clocks (Art. 6.11).
    ///
    /// # Errors
    ///
    /// [`MirrorError::GameOver`], [`MirrorError::Adjourned`],
    /// [`MirrorError::TimeWentBackwards`], [`MirrorError::Clock`] (already
    /// paused).
    pub fn arbiter_pause(&mut self, now: Duration) -> Result<Said, MirrorError> {
        self.arbiter_clock(now, true)
    }

    /// Arbiter: restarts the clock after a pause.
    ///
    /// # Errors
    ///
    /// As [`Mirror::arbiter_pause`] (not paused).
    pub fn arbiter_resume(&mut self, now: Duration) -> Result<Said, MirrorError> {
        self.arbiter_clock(now, false)
    }

    fn arbiter_clock(&mut self, now: Duration, pause: bool) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        self.check_playing()?;
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        if self.result.is_some() {
            return Ok(said);
        }
        let r = if pause {
            self.clock.pause(now)
        } else {
            self.clock.resume(now)
        };
        r.map_err(MirrorError::Clock)?;
        let key = if pause {
            "clock.paused"
        } else {
            "clock.resumed"
        };
        let side = self.side(self.mover());
        let notice = self.info(key, &[("side", &side)]);
        self.record(now, &notice.text);
        said.push(notice);
        Ok(said)
    }

    /// Arbiter: an illegal move by `side` that was completed (Art. 7.5.3
    /// to 7.5.5): the opponent gets two minutes, a second one loses.
    ///
    /// # Errors
    ///
    /// [`MirrorError::GameOver`], [`MirrorError::Adjourned`],
    /// [`MirrorError::TimeWentBackwards`], [`MirrorError::Clock`].
    pub fn arbiter_penalty(&mut self, now: Duration, side: Color) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        self.check_playing()?;
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        if self.result.is_some() {
            return Ok(said);
        }
        let mut consequence = None;
        for b in &mut self.boards {
            let c = b.record_illegal_move(side);
            consequence.get_or_insert(c);
        }
        match consequence {
            Some(IllegalMoveConsequence::Penalty { to, extra }) => {
                self.clock
                    .adjust(now, to, Adjustment::Add(extra))
                    .map_err(MirrorError::Clock)?;
                let minutes = Utterance::plain((extra.as_secs() / 60).to_string());
                let notice = self.warn(
                    "penalty.illegal_move",
                    &[
                        ("side", &self.side(side)),
                        ("opponent", &self.side(to)),
                        ("minutes", &minutes),
                    ],
                );
                self.record(now, &notice.text);
                said.push(notice);
            }
            Some(IllegalMoveConsequence::GameEnds(r)) => self.end(r, &mut said),
            None => {}
        }
        Ok(said)
    }

    /// `by` claims a draw by threefold repetition or the fifty-move rule
    /// (Art. 9.2, 9.3), with the move made but not yet completed as the
    /// intended move. A correct claim ends the game (the intended move is
    /// executed on the other board too); an incorrect one gives the
    /// opponent two minutes (Art. 9.5.3) and the game goes on, the intended
    /// move standing.
    ///
    /// # Errors
    ///
    /// [`MirrorError::NotYourTurn`] when `by` is not the player to move,
    /// [`MirrorError::BoardsDiffer`], [`MirrorError::GameOver`],
    /// [`MirrorError::Adjourned`], [`MirrorError::TimeWentBackwards`].
    pub fn claim_draw(&mut self, now: Duration, by: Color) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        self.check_playing()?;
        if self.mismatch_is_boards() {
            return Err(MirrorError::BoardsDiffer);
        }
        if let Stage::Pressed { mv, .. } = self.stage {
            // The opponent first executes the move just completed.
            return Err(MirrorError::AwaitExecution {
                board: !self.mover(),
                mv,
            });
        }
        let mover = self.mover();
        let intended = match &self.stage {
            Stage::Made { mv, .. } | Stage::Announced { mv, .. } => *mv,
            _ => None,
        };
        if by != mover {
            return Err(MirrorError::NotYourTurn { board: by, mover });
        }
        let mut probe = self.boards[idx(mover)].clone();
        if intended.is_some() {
            let len = probe.moves().len().saturating_sub(1);
            probe.truncate(len);
        }
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        if self.result.is_some() {
            return Ok(said);
        }
        match probe.claim_draw(by, intended) {
            Ok(r) => {
                if let Some(m) = intended {
                    let other = &mut self.boards[idx(!mover)];
                    if other.moves().len() < probe.moves().len() {
                        let _ = other.play(m);
                    }
                }
                self.end(r, &mut said);
                Ok(said)
            }
            Err(RuleError::ClaimRejected {
                repetitions,
                halfmoves,
            }) => {
                let extra = INCORRECT_CLAIM_PENALTY;
                self.clock
                    .adjust(now, !by, Adjustment::Add(extra))
                    .map_err(MirrorError::Clock)?;
                let notice = self.warn(
                    "ui.claim_rejected",
                    &[
                        ("side", &self.side(by)),
                        ("opponent", &self.side(!by)),
                        ("repetitions", &Utterance::plain(repetitions.to_string())),
                        ("halfmoves", &Utterance::plain(halfmoves.to_string())),
                        (
                            "minutes",
                            &Utterance::plain((extra.as_secs() / 60).to_string()),
                        ),
                    ],
                );
                self.record(now, &notice.text);
                said.push(notice);
                Ok(said)
            }
            Err(RuleError::GameOver(r)) => Err(MirrorError::GameOver(r)),
            Err(_) => Err(MirrorError::NotYourTurn { board: by, mover }),
        }
    }

    fn record(&mut self, now: Duration, text: &Utterance) {
        let ply = self.longer_board().moves().len();
        self.arbiter.push(ArbiterRecord {
            at: now,
            ply,
            text: text.clone(),
        });
    }
}
