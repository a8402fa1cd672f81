//! Guideline III: games without increment, including quickplay finishes.
//!
//! In the last period of a standard or rapid game without increment (not
//! blitz, III.2.2), and only where the event announced it (III.2.1, the
//! game option [`Config::quickplay`](super::Config)), the player having the
//! move with less than two minutes left may
//!
//! - ask for an increment of five seconds per move for both players
//!   (III.4): the request is also a draw offer; if the opponent declines
//!   it, the arbiter grants the increment (the opponent also receives two
//!   minutes) or refuses it;
//! - claim a draw because the opponent cannot win by normal means and/or
//!   makes no effort to win (III.5): the arbiter agrees (a draw), postpones
//!   his decision (the opponent may receive two minutes; the decision
//!   follows later in the game or after a flag fall) or rejects the claim
//!   (the opponent receives two minutes).
//!
//! Both stop the clocks (III.5 allows it, and the arbiter has to act); the
//! arbiter's decision starts them again. A flag that falls while a claim
//! awaits the arbiter does not end the game: the arbiter declares the result
//! (III.5.2), and until then nothing else can happen.
//!
//! Without an arbiter ([`Config::unsupervised`](super::Config)), the claim
//! concludes the game at once and is referred to the appointed arbiter
//! (III.6): a result that is not known yet (PGN `*`).
//!
//! III.3.1 (both flags fallen, impossible to tell which first) cannot
//! happen here: the clock records the exact instant of every fall, and only
//! the running clock can fall.
//!
//! The two minutes stay two minutes in rapid play: Appendix A.3 halves
//! only the penalties of Articles 7 and 9.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::{GameError, GameEvent, Mirror, Said, Stage};
use crate::clock::{Adjustment, Increment, QUICKPLAY_INCREMENT, QUICKPLAY_THRESHOLD};
use crate::rules::{GameKind, GameResult, Termination};

/// The time the opponent receives under Guideline III.4, III.5.2 and
/// III.5.3: two minutes, in standard and in rapid play alike.
pub const QUICKPLAY_OPPONENT_TIME: Duration = Duration::from_secs(120);

/// What a Guideline III draw claim rests on (III.5, III.6.1): the opponent
/// cannot win by normal means, and/or makes no effort to win by normal
/// means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimGrounds {
    /// III.5 / III.6.1.1: the opponent cannot win by normal means.
    CannotWin,
    /// III.5 / III.6.1.2: the opponent makes no effort to win by normal
    /// means.
    NoEffort,
    /// Both.
    Both,
}

impl ClaimGrounds {
    /// The grounds include "no effort" (the claimant then hands over an
    /// up-to-date scoresheet, III.6.1.2).
    pub fn no_effort(self) -> bool {
        matches!(self, ClaimGrounds::NoEffort | ClaimGrounds::Both)
    }
}

/// A Guideline III procedure that awaits someone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuickplayPending {
    /// III.4: `by` asked for the increment. The draw offer it includes is
    /// open while [`Mirror::draw_offer`] is `Some(by)`; once declined, the
    /// arbiter decides.
    Increment {
        /// Who asked.
        by: Color,
    },
    /// III.5: a draw claim waits for the arbiter.
    Claim {
        /// Who claimed.
        by: Color,
        /// On what grounds.
        grounds: ClaimGrounds,
        /// The arbiter postponed his decision (III.5.2).
        postponed: bool,
        /// The opponent already received two minutes for this claim.
        extra_given: bool,
        /// A flag fell meanwhile: the arbiter now declares the result.
        flagged: Option<Color>,
    },
}

/// The Guideline III state of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Quickplay {
    pending: Option<QuickplayPending>,
    /// The procedure stopped the clock: the arbiter's decision starts it.
    stopped: bool,
    /// The arbiter refused the increment of III.4 in this game: III.4
    /// cannot be applied, so a draw claim under III.5 may be made.
    increment_refused: bool,
}

/// What happened under Guideline III.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuickplayEvent {
    /// III.4: `side` asks for the increment for both players; this is also
    /// a draw offer.
    IncrementRequested {
        /// Who asks.
        side: Color,
    },
    /// III.4: the arbiter granted the increment; the opponent of the
    /// requester received extra time.
    IncrementGranted {
        /// Who asked.
        side: Color,
        /// The increment per move, for both players from now on.
        increment: Duration,
        /// Who received the extra time.
        to: Color,
        /// How much.
        extra: Duration,
    },
    /// III.4: the arbiter refused the increment.
    IncrementRefused {
        /// Who asked.
        side: Color,
    },
    /// III.5: `side` claims a draw; the arbiter decides.
    Claimed {
        /// Who claims.
        side: Color,
        /// On what grounds.
        grounds: ClaimGrounds,
    },
    /// III.5.2: the arbiter postponed his decision.
    Postponed {
        /// Who claimed.
        side: Color,
        /// The claimant's opponent.
        to: Color,
        /// The time the opponent received, if any.
        extra: Option<Duration>,
    },
    /// III.5.3: the arbiter rejected the claim.
    Rejected {
        /// Who claimed.
        side: Color,
        /// The claimant's opponent.
        to: Color,
        /// The time the opponent received (`None`: he received it already
        /// when the decision was postponed).
        extra: Option<Duration>,
    },
    /// III.5.2: a flag fell while the claim awaited the arbiter, who now
    /// declares the result.
    FlagFell {
        /// Whose flag fell.
        flagged: Color,
        /// Who claimed.
        claimant: Color,
    },
    /// III.6: without an arbiter the claim concluded the game; it goes to
    /// the appointed arbiter.
    Referred {
        /// Who claimed.
        side: Color,
        /// On what grounds.
        grounds: ClaimGrounds,
    },
}

/// Why a Guideline III procedure was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuickplayError {
    /// III.2.1: the guidelines were not announced for this game.
    NotAnnounced,
    /// III.2.2: the game has an increment or a delay.
    WithIncrement(Increment),
    /// III.2.2: not in blitz.
    Blitz,
    /// III.1: not yet the period in which all remaining moves must be
    /// completed; `moves` still to the time control.
    NotFinalPeriod {
        /// Whose period.
        side: Color,
        /// Moves still to make before the time control.
        moves: u32,
    },
    /// III.4, III.5: only the player having the move.
    NotToMove {
        /// Who tried.
        side: Color,
        /// Who has the move.
        mover: Color,
    },
    /// Two minutes or more left.
    TimeLeft {
        /// Who tried.
        side: Color,
        /// The time left.
        remaining: Duration,
    },
    /// The flag of `side` has fallen: too late.
    FlagFallen {
        /// Whose flag.
        side: Color,
    },
    /// A request for the increment by `side` awaits an answer or the
    /// arbiter.
    RequestPending {
        /// Who asked.
        side: Color,
    },
    /// A claim by `side` awaits the arbiter.
    ClaimPending {
        /// Who claimed.
        side: Color,
    },
    /// No request and no claim awaits the arbiter.
    NothingToDecide,
    /// III.5 applies only when III.4 cannot: `side` first asks for the
    /// increment, and may claim under III.5 once the arbiter refused it.
    IncrementFirst {
        /// Who tried to claim.
        side: Color,
    },
    /// III.4: the opponent of `side` has not yet answered the draw offer
    /// that the request includes.
    OfferOpen {
        /// Who asked.
        side: Color,
    },
    /// III.5.2: `flagged`'s flag fell while the claim of `claimant` awaited
    /// the arbiter, who must now declare the result.
    AwaitsResult {
        /// Whose flag fell.
        flagged: Color,
        /// Who claimed.
        claimant: Color,
    },
    /// A decision after a flag fall, but no flag has fallen: the claim of
    /// `side` is decided by agreeing, postponing or rejecting.
    NoFlagFallen {
        /// Who claimed.
        side: Color,
    },
    /// The decision on the claim of `side` was postponed already.
    AlreadyPostponed {
        /// Who claimed.
        side: Color,
    },
}

impl From<QuickplayError> for GameError {
    fn from(e: QuickplayError) -> GameError {
        GameError::Quickplay(e)
    }
}

impl Mirror {
    /// What awaits under Guideline III, if anything.
    pub fn quickplay_pending(&self) -> Option<QuickplayPending> {
        self.quickplay.pending
    }

    /// Refuses every game command while the arbiter has to act: a claim
    /// awaits his decision, a request for the increment whose draw offer
    /// was declined awaits it, or a flag fell and he declares the result
    /// (III.5.2). (While the draw offer of a request is open, it can be
    /// answered; a postponed claim lets the game go on.)
    pub(super) fn quickplay_blocks(&self) -> Result<(), GameError> {
        let e = match self.quickplay.pending {
            Some(QuickplayPending::Claim {
                by,
                flagged: Some(f),
                ..
            }) => QuickplayError::AwaitsResult {
                flagged: f,
                claimant: by,
            },
            Some(QuickplayPending::Claim {
                by,
                postponed: false,
                ..
            }) => QuickplayError::ClaimPending { side: by },
            Some(QuickplayPending::Increment { by }) if self.draw_offer != Some(by) => {
                QuickplayError::RequestPending { side: by }
            }
            _ => return Ok(()),
        };
        Err(e.into())
    }

    /// A flag fell: with a claim awaiting the arbiter the game does not
    /// end, the arbiter declares the result (III.5.2). `true` if so.
    pub(super) fn quickplay_flag_fell(&mut self, color: Color, said: &mut Said) -> bool {
        let Some(QuickplayPending::Claim { by, flagged, .. }) = &mut self.quickplay.pending else {
            return false;
        };
        if flagged.is_some() {
            return true;
        }
        *flagged = Some(color);
        let claimant = *by;
        self.quickplay.stopped = false;
        let event = GameEvent::Quickplay(QuickplayEvent::FlagFell {
            flagged: color,
            claimant,
        });
        self.record(self.now, &event);
        said.push(event);
        true
    }

    /// The checks every Guideline III procedure of `side` goes through at
    /// `now`: announced, no increment, not blitz, the last period, the flag
    /// not fallen, (`to_move`) the player having the move, less than two
    /// minutes left, nothing else pending.
    fn quickplay_applies(
        &self,
        now: Duration,
        side: Color,
        to_move: bool,
    ) -> Result<(), QuickplayError> {
        if !self.config.quickplay {
            return Err(QuickplayError::NotAnnounced);
        }
        if self.config.control.kind() == GameKind::Blitz {
            return Err(QuickplayError::Blitz);
        }
        let increment = self.clock.increment();
        if !increment.is_none() {
            return Err(QuickplayError::WithIncrement(increment));
        }
        if let Some(moves) = self.clock.moves_to_control(side) {
            return Err(QuickplayError::NotFinalPeriod { side, moves });
        }
        let remaining = self.clock.remaining(side, now);
        if self.clock.flag(now) == Some(side) || remaining.is_zero() {
            return Err(QuickplayError::FlagFallen { side });
        }
        if to_move
            && let Some(mover) = self.clock.to_move()
            && mover != side
        {
            return Err(QuickplayError::NotToMove { side, mover });
        }
        if remaining >= QUICKPLAY_THRESHOLD {
            return Err(QuickplayError::TimeLeft { side, remaining });
        }
        match self.quickplay.pending {
            Some(QuickplayPending::Increment { by }) => {
                Err(QuickplayError::RequestPending { side: by })
            }
            Some(QuickplayPending::Claim { by, .. }) => {
                Err(QuickplayError::ClaimPending { side: by })
            }
            None => Ok(()),
        }
    }

    /// The time check and the game still on (not over, not adjourned) for
    /// the arbiter's decisions, which also come after a flag fall.
    fn quickplay_guard(&self, now: Duration) -> Result<(), GameError> {
        self.check_time(now)?;
        if let Some(r) = self.result {
            return Err(GameError::GameOver(r));
        }
        match &self.stage {
            Stage::Over(r) => Err(GameError::GameOver(*r)),
            Stage::Adjourned { .. } => Err(GameError::Adjourned),
            _ => Ok(()),
        }
    }

    /// Stops the clock for the arbiter, if it runs (the request's and the
    /// claim's own words say so).
    fn quickplay_stop(&mut self, now: Duration) {
        self.quickplay.stopped = self.clock.pause(now).is_ok();
    }

    /// Starts the clock again after the arbiter's decision, if the
    /// procedure stopped it (a clock the arbiter stopped himself stays
    /// stopped).
    fn quickplay_restart(&mut self, now: Duration, said: &mut Said) {
        if std::mem::take(&mut self.quickplay.stopped)
            && self.clock.resume(now).is_ok()
            && let Some(side) = self.clock.to_move()
        {
            said.push(GameEvent::ClockResumed { side });
        }
    }

    fn quickplay_said(&mut self, now: Duration, event: QuickplayEvent, said: &mut Said) {
        let event = GameEvent::Quickplay(event);
        self.record(now, &event);
        said.push(event);
    }

    /// Guideline III.4: `by`, having the move with less than two minutes
    /// left, asks for an increment of five seconds per move for both
    /// players. This is a draw offer too (answered with
    /// [`Mirror::answer_draw`]); the clock stops until the arbiter decides
    /// ([`Mirror::decide_increment`]).
    ///
    /// # Errors
    ///
    /// [`GameError::Quickplay`] when Guideline III does not apply (see
    /// [`QuickplayError`]), and the usual [`GameError::GameOver`],
    /// [`GameError::Adjourned`], [`GameError::TimeWentBackwards`].
    pub fn request_increment(&mut self, now: Duration, by: Color) -> Result<Said, GameError> {
        self.guard(now)?;
        self.quickplay_applies(now, by, true)?;
        self.step(now, |m, said| {
            m.draw_offer = Some(by);
            m.quickplay.pending = Some(QuickplayPending::Increment { by });
            said.push(GameEvent::Quickplay(QuickplayEvent::IncrementRequested {
                side: by,
            }));
            m.quickplay_stop(now);
            Ok(())
        })
    }

    /// Guideline III.4, the arbiter: after the opponent declined the draw,
    /// grants the increment (`grant`: five seconds per move for both from
    /// now on, two minutes for the opponent) or refuses it. The clock runs
    /// again.
    ///
    /// # Errors
    ///
    /// [`QuickplayError::NothingToDecide`], [`QuickplayError::ClaimPending`]
    /// (a claim, not a request, awaits), [`QuickplayError::OfferOpen`], and
    /// the usual ones.
    pub fn decide_increment(&mut self, now: Duration, grant: bool) -> Result<Said, GameError> {
        self.quickplay_guard(now)?;
        let by = match self.quickplay.pending {
            Some(QuickplayPending::Increment { by }) => by,
            Some(QuickplayPending::Claim { by, .. }) => {
                return Err(QuickplayError::ClaimPending { side: by }.into());
            }
            None => return Err(QuickplayError::NothingToDecide.into()),
        };
        if self.draw_offer == Some(by) {
            return Err(QuickplayError::OfferOpen { side: by }.into());
        }
        self.step(now, |m, said| {
            m.quickplay.pending = None;
            let event = if grant {
                m.clock
                    .add_increment_both(QUICKPLAY_INCREMENT)
                    .map_err(GameError::Clock)?;
                m.clock
                    .adjust(now, !by, Adjustment::Add(QUICKPLAY_OPPONENT_TIME))
                    .map_err(GameError::Clock)?;
                QuickplayEvent::IncrementGranted {
                    side: by,
                    increment: QUICKPLAY_INCREMENT,
                    to: !by,
                    extra: QUICKPLAY_OPPONENT_TIME,
                }
            } else {
                m.quickplay.increment_refused = true;
                QuickplayEvent::IncrementRefused { side: by }
            };
            m.quickplay_said(now, event, said);
            m.quickplay_restart(now, said);
            Ok(())
        })
    }

    /// Whether `by` may claim a draw under Guideline III at `now` (the
    /// checks of [`Mirror::claim_quickplay`], changing nothing): a front
    /// end asks for a confirmation only for a claim that will be taken.
    ///
    /// # Errors
    ///
    /// As [`Mirror::claim_quickplay`].
    pub fn may_claim_quickplay(&self, now: Duration, by: Color) -> Result<(), GameError> {
        self.guard(now)?;
        self.quickplay_applies(now, by, !self.config.unsupervised)?;
        self.increment_first(by)?;
        Ok(())
    }

    /// III.5 (2023): "If Article III.4 is not applied": with an arbiter,
    /// where the clock can take the increment (annabella's always can), a
    /// draw claim is made only after the arbiter refused the increment.
    /// Without an arbiter III.6 applies, which has no such condition.
    fn increment_first(&self, by: Color) -> Result<(), QuickplayError> {
        if self.config.unsupervised || self.quickplay.increment_refused {
            Ok(())
        } else {
            Err(QuickplayError::IncrementFirst { side: by })
        }
    }

    /// Guideline III.5 / III.6: `by`, with less than two minutes left,
    /// claims a draw on `grounds`. Under an arbiter (III.5) only the player
    /// having the move may claim; the clock stops and the arbiter decides
    /// ([`Mirror::uphold_claim`], [`Mirror::postpone_claim`],
    /// [`Mirror::reject_claim`]). Without an arbiter (III.6.1) the claim
    /// concludes the game, and the result waits for the appointed arbiter.
    ///
    /// # Errors
    ///
    /// As [`Mirror::request_increment`].
    pub fn claim_quickplay(
        &mut self,
        now: Duration,
        by: Color,
        grounds: ClaimGrounds,
    ) -> Result<Said, GameError> {
        self.guard(now)?;
        let unsupervised = self.config.unsupervised;
        self.quickplay_applies(now, by, !unsupervised)?;
        self.increment_first(by)?;
        self.step(now, |m, said| {
            if unsupervised {
                m.quickplay_said(now, QuickplayEvent::Referred { side: by, grounds }, said);
                let r = GameResult {
                    winner: None,
                    termination: Termination::QuickplayReferred,
                    by: Some(by),
                };
                m.end(r, said);
            } else {
                m.quickplay.pending = Some(QuickplayPending::Claim {
                    by,
                    grounds,
                    postponed: false,
                    extra_given: false,
                    flagged: None,
                });
                m.quickplay_said(now, QuickplayEvent::Claimed { side: by, grounds }, said);
                m.quickplay_stop(now);
            }
            Ok(())
        })
    }

    /// The claim awaiting the arbiter before any flag fell: its claimant,
    /// whether the decision was postponed and whether the opponent already
    /// received two minutes.
    fn claim_before_flag(&self) -> Result<(Color, bool, bool), QuickplayError> {
        match self.quickplay.pending {
            Some(QuickplayPending::Claim {
                by,
                flagged: Some(f),
                ..
            }) => Err(QuickplayError::AwaitsResult {
                flagged: f,
                claimant: by,
            }),
            Some(QuickplayPending::Claim {
                by,
                postponed,
                extra_given,
                ..
            }) => Ok((by, postponed, extra_given)),
            Some(QuickplayPending::Increment { by }) => {
                Err(QuickplayError::RequestPending { side: by })
            }
            None => Err(QuickplayError::NothingToDecide),
        }
    }

    /// Guideline III.5.1 (or later, III.5.2), the arbiter: agrees that the
    /// claimant's opponent cannot win by normal means or makes no effort to
    /// win. The game is drawn.
    ///
    /// # Errors
    ///
    /// [`QuickplayError::NothingToDecide`], [`QuickplayError::RequestPending`],
    /// [`QuickplayError::AwaitsResult`] (after a flag fall, see
    /// [`Mirror::decide_after_flag`]), and the usual ones.
    pub fn uphold_claim(&mut self, now: Duration) -> Result<Said, GameError> {
        self.quickplay_guard(now)?;
        let (by, _, _) = self.claim_before_flag()?;
        self.step(now, |m, said| {
            m.quickplay.pending = None;
            m.quickplay.stopped = false;
            let r = GameResult {
                winner: None,
                termination: Termination::QuickplayClaim,
                by: Some(by),
            };
            m.end(r, said);
            Ok(())
        })
    }

    /// Guideline III.5.2, the arbiter: postpones his decision; the opponent
    /// receives two minutes if `two_minutes`, and the game continues (the
    /// clock runs again). The decision follows later in the game
    /// ([`Mirror::uphold_claim`], [`Mirror::reject_claim`]) or after a flag
    /// fall ([`Mirror::decide_after_flag`]).
    ///
    /// # Errors
    ///
    /// As [`Mirror::uphold_claim`], and [`QuickplayError::AlreadyPostponed`].
    pub fn postpone_claim(&mut self, now: Duration, two_minutes: bool) -> Result<Said, GameError> {
        self.quickplay_guard(now)?;
        let (by, postponed, _) = self.claim_before_flag()?;
        if postponed {
            return Err(QuickplayError::AlreadyPostponed { side: by }.into());
        }
        self.step(now, |m, said| {
            if two_minutes {
                m.clock
                    .adjust(now, !by, Adjustment::Add(QUICKPLAY_OPPONENT_TIME))
                    .map_err(GameError::Clock)?;
            }
            if let Some(QuickplayPending::Claim {
                postponed,
                extra_given,
                ..
            }) = &mut m.quickplay.pending
            {
                *postponed = true;
                *extra_given = two_minutes;
            }
            let event = QuickplayEvent::Postponed {
                side: by,
                to: !by,
                extra: two_minutes.then_some(QUICKPLAY_OPPONENT_TIME),
            };
            m.quickplay_said(now, event, said);
            m.quickplay_restart(now, said);
            Ok(())
        })
    }

    /// Guideline III.5.3, the arbiter: rejects the claim; the opponent
    /// receives two minutes (unless he received them when the decision was
    /// postponed: the claim is paid for once) and the game continues.
    ///
    /// # Errors
    ///
    /// As [`Mirror::uphold_claim`].
    pub fn reject_claim(&mut self, now: Duration) -> Result<Said, GameError> {
        self.quickplay_guard(now)?;
        let (by, _, extra_given) = self.claim_before_flag()?;
        self.step(now, |m, said| {
            if !extra_given {
                m.clock
                    .adjust(now, !by, Adjustment::Add(QUICKPLAY_OPPONENT_TIME))
                    .map_err(GameError::Clock)?;
            }
            m.quickplay.pending = None;
            let event = QuickplayEvent::Rejected {
                side: by,
                to: !by,
                extra: (!extra_given).then_some(QUICKPLAY_OPPONENT_TIME),
            };
            m.quickplay_said(now, event, said);
            m.quickplay_restart(now, said);
            Ok(())
        })
    }

    /// Guideline III.5.2, the arbiter after a flag fell while the claim
    /// awaited him: `draw` when the opponent of the player whose flag fell
    /// could not win by normal means or was not making sufficient attempts
    /// to win; otherwise the flag fall stands (Art. 6.9: a loss, or a draw
    /// if the opponent cannot checkmate at all).
    ///
    /// # Errors
    ///
    /// [`QuickplayError::NoFlagFallen`] (decide with agree, postpone or
    /// reject), [`QuickplayError::NothingToDecide`],
    /// [`QuickplayError::RequestPending`], and the usual ones.
    pub fn decide_after_flag(&mut self, now: Duration, draw: bool) -> Result<Said, GameError> {
        self.quickplay_guard(now)?;
        let flagged = match self.quickplay.pending {
            Some(QuickplayPending::Claim {
                flagged: Some(f), ..
            }) => f,
            Some(QuickplayPending::Claim { by, .. }) => {
                return Err(QuickplayError::NoFlagFallen { side: by }.into());
            }
            Some(QuickplayPending::Increment { by }) => {
                return Err(QuickplayError::RequestPending { side: by }.into());
            }
            None => return Err(QuickplayError::NothingToDecide.into()),
        };
        self.step(now, |m, said| {
            // Nothing awaits any more: the flag fall now counts as any other
            // (Art. 6.9), unless the arbiter declares the draw.
            m.quickplay.pending = None;
            if draw {
                let r = GameResult {
                    winner: None,
                    termination: Termination::QuickplayFlag,
                    by: Some(flagged),
                };
                m.end(r, said);
            } else {
                m.flag_fell(flagged, said);
            }
            Ok(())
        })
    }
}

#[cfg(test)]
#[path = "quickplay_tests.rs"]
mod tests;
