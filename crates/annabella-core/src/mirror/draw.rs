//! Draw offers and claims, and resignation (Art. 5.1.2, 5.2.3, 9.1–9.5).

use std::time::Duration;

use shakmaty::Color;

use super::{GameError, GameEvent, Mirror, Said, Stage, idx};
use crate::clock::Adjustment;
use crate::rules::RuleError;

impl Mirror {
    /// `by` offers a draw (Art. 9.1.2: after making a move, before pressing
    /// the clock); recorded `(=)`.
    pub fn offer_draw(&mut self, now: Duration, by: Color) -> Result<Said, GameError> {
        self.guard(now)?;
        self.step(now, |m, said| {
            m.draw_offer = Some(by);
            said.push(GameEvent::DrawOffered { side: by });
            Ok(())
        })
    }

    /// The opponent of the offerer accepts (`true`) or declines the offer.
    pub fn answer_draw(
        &mut self,
        now: Duration,
        by: Color,
        accept: bool,
    ) -> Result<Said, GameError> {
        self.guard(now)?;
        let Some(offerer) = self.draw_offer else {
            return Err(GameError::NoDrawOffer);
        };
        if offerer == by {
            return Err(GameError::OwnDrawOffer(by));
        }
        if accept && !self.both_have_moved() {
            return Err(GameError::DrawTooEarly);
        }
        self.step(now, |m, said| {
            m.draw_offer = None;
            if accept {
                let mut r = None;
                for b in &mut m.boards {
                    if let Ok(res) = b.agree_draw() {
                        r.get_or_insert(res);
                    }
                }
                if let Some(r) = r {
                    m.end(r, said);
                }
            } else {
                said.push(GameEvent::DrawDeclined { side: by });
            }
            Ok(())
        })
    }

    /// `by` resigns.
    pub fn resign(&mut self, now: Duration, by: Color) -> Result<Said, GameError> {
        self.guard(now)?;
        self.step(now, |m, said| {
            let mut r = None;
            for b in &mut m.boards {
                if let Ok(res) = b.resign(by) {
                    r.get_or_insert(res);
                }
            }
            if let Some(r) = r {
                m.end(r, said);
            }
            Ok(())
        })
    }

    /// `by` claims a draw by threefold repetition or the fifty-move rule
    /// (Art. 9.2, 9.3), with the move made but not yet completed as the
    /// intended move. A correct claim ends the game (the intended move is
    /// executed on the other board too); an incorrect one gives the
    /// opponent extra time (Art. 9.5.3) and the game goes on, the intended
    /// move standing.
    ///
    /// # Errors
    ///
    /// [`GameError::NotYourTurn`] when `by` is not the player to move,
    /// [`GameError::BoardsDiffer`], [`GameError::GameOver`],
    /// [`GameError::Adjourned`], [`GameError::TimeWentBackwards`].
    pub fn claim_draw(&mut self, now: Duration, by: Color) -> Result<Said, GameError> {
        self.guard(now)?;
        if self.illegal_claim == Some(by) {
            return self.claim_win_for_illegal_move(now, by);
        }
        if self.touched.is_some_and(|(c, _)| c == by) {
            // 9.4: a player who touched a piece (Art. 4.3) has lost the
            // right to claim on this move.
            return Err(GameError::ClaimAfterTouch(by));
        }
        if self.mismatch_is_boards() {
            return Err(GameError::BoardsDiffer);
        }
        if let Some(e) = self.await_execution() {
            // The opponent first executes the move just completed.
            return Err(e);
        }
        let mover = self.mover();
        let intended = match &self.stage {
            Stage::Made { mv, .. } | Stage::Announced { mv, .. } => *mv,
            _ => None,
        };
        if by != mover {
            return Err(GameError::NotYourTurn { board: by, mover });
        }
        let mut probe = self.boards[idx(mover)].clone();
        if intended.is_some() {
            let len = probe.moves().len().saturating_sub(1);
            probe.truncate(len);
        }
        let verdict = probe.claim_draw(by, intended);
        if let Err(RuleError::GameOver(r)) = verdict {
            return Err(GameError::GameOver(r));
        }
        self.step(now, |m, said| match verdict {
            Ok(r) => {
                if let Some(mv) = intended {
                    let other = &mut m.boards[idx(!mover)];
                    if other.moves().len() < probe.moves().len() {
                        let _ = other.play(mv);
                    }
                }
                m.end(r, said);
                Ok(())
            }
            Err(RuleError::ClaimRejected {
                repetitions,
                halfmoves,
            }) => {
                let extra = m.boards[0].kind().penalty();
                m.clock
                    .adjust(now, !by, Adjustment::Add(extra))
                    .map_err(GameError::Clock)?;
                let event = GameEvent::ClaimRejected {
                    side: by,
                    repetitions,
                    halfmoves,
                    extra,
                };
                m.record(now, &event);
                said.push(event);
                // The claim counts as a draw offer (9.1.2.3).
                m.draw_offer = Some(by);
                said.push(GameEvent::ClaimIsOffer { side: by });
                Ok(())
            }
            Err(_) => Err(GameError::NotYourTurn { board: by, mover }),
        })
    }

    /// Appendix A.5.2 (B.3): `by` claims the win for the illegal move his
    /// opponent just completed, before making his own next move: a loss
    /// for the opponent, or a draw if `by` cannot checkmate him by any
    /// series of legal moves.
    fn claim_win_for_illegal_move(&mut self, now: Duration, by: Color) -> Result<Said, GameError> {
        self.step(now, |m, said| {
            let mut r = None;
            for b in &mut m.boards {
                r.get_or_insert(b.lose_for_illegal_move(!by));
            }
            if let Some(r) = r {
                m.end(r, said);
            }
            Ok(())
        })
    }
}
