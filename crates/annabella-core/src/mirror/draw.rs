//! Draw offers and claims, and resignation (Art. 5.1.2, 5.2.3, 9.1–9.5).

use std::time::Duration;

use shakmaty::Color;

use super::{GameError, GameEvent, Mirror, MoveAt, MoveInput, Said, Stage, idx};
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
    /// (Art. 9.2, 9.3). The claim may rest on the position on the board
    /// (9.2.1.2, 9.3.2) or on the move he intends to make: the move made
    /// but not yet completed, or else the move he wrote on his scoresheet
    /// without making it (9.2.1.1, 9.3.1): `written` (it goes on his
    /// scoresheet now), or the entry his scoresheet already has for this
    /// move. A correct claim ends the game (the intended move is made on
    /// the boards); an incorrect one gives the opponent extra time (Art.
    /// 9.5.3) and the game goes on: a move made stands, and a written move
    /// must be made.
    ///
    /// # Errors
    ///
    /// [`GameError::NotYourTurn`] when `by` is not the player to move,
    /// [`GameError::BoardsDiffer`], [`GameError::GameOver`],
    /// [`GameError::Adjourned`], [`GameError::TimeWentBackwards`].
    pub fn claim_draw(
        &mut self,
        now: Duration,
        by: Color,
        written: Option<&MoveInput>,
    ) -> Result<Said, GameError> {
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
        let made = match &self.stage {
            Stage::Made { mv, .. } | Stage::Announced { mv, .. } => Some(*mv),
            _ => None,
        };
        if by != mover {
            return Err(GameError::NotYourTurn { board: by, mover });
        }
        let mut probe = self.boards[idx(mover)].clone();
        if made.flatten().is_some() {
            let len = probe.moves().len().saturating_sub(1);
            probe.truncate(len);
        }
        let pos = probe.position().clone();
        let ply = probe.moves().len();
        // The move written on his scoresheet, not made (9.2.1.1, 9.3.1):
        // given now (and recorded), or already there for this move.
        let sheet = &self.sheets[idx(by)];
        let record = written.filter(|_| made.is_none() && sheet.entries.len() == ply);
        let written_text = match written {
            Some(w) => Some(self.input_text(&pos, w)),
            None if made.is_none() => sheet.entries.get(ply).map(|e| e.text.clone()),
            None => None,
        };
        let written_move = match &written_text {
            Some(t) if made.is_none() => {
                let t = t.trim();
                let t = t.strip_suffix("(=)").unwrap_or(t).trim();
                self.resolve(by, &pos, &MoveInput::Text(t.to_owned())).ok()
            }
            _ => None,
        };
        let intended = made.flatten().or(written_move);
        let verdict = probe.claim_draw(by, intended);
        if let Err(RuleError::GameOver(r)) = verdict {
            return Err(GameError::GameOver(r));
        }
        let mut said = Said::new();
        if let Some(w) = record {
            said = self.sheet_entry(now, by, w)?;
        }
        let more = self.step(now, |m, said| match verdict {
            Ok(r) => {
                if let Some(mv) = intended {
                    // The intended move goes on the boards that lack it.
                    for c in [Color::White, Color::Black] {
                        let b = &mut m.boards[idx(c)];
                        if b.moves().len() < probe.moves().len() {
                            let _ = b.play(mv);
                        }
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
                // 9.5.3: a claim on a written move: that move must be made.
                if let Some(mv) = written_move {
                    m.claim_move = Some((by, mv));
                    said.push(GameEvent::ClaimMoveToMake {
                        side: by,
                        mv: MoveAt {
                            before: pos.clone(),
                            mv,
                        },
                    });
                }
                Ok(())
            }
            Err(_) => Err(GameError::NotYourTurn { board: by, mover }),
        })?;
        said.extend(more);
        Ok(said)
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
