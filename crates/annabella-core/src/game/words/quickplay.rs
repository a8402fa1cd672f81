//! The words of Guideline III (games without increment): the requests,
//! claims and the arbiter's decisions, and why one was refused.

use std::time::Duration;

use shakmaty::Color;

use super::Wording;
use crate::commands::Cmd;
use crate::locale::{MsgKey, PluralStem};
use crate::mirror::{ClaimGrounds, Mirror, QuickplayError, QuickplayEvent, QuickplayPending};
use crate::vocab::Utterance;

impl Wording<'_> {
    /// What the claimant says his opponent cannot do.
    fn grounds(&self, grounds: ClaimGrounds, opponent: Color) -> Utterance {
        let key = match grounds {
            ClaimGrounds::CannotWin => MsgKey::QuickplayGroundsCannotWin,
            ClaimGrounds::NoEffort => MsgKey::QuickplayGroundsNoEffort,
            ClaimGrounds::Both => MsgKey::QuickplayGroundsBoth,
        };
        self.msg(key, &[("opponent", &self.side(opponent))])
    }

    /// "5 seconds", counted in the locale's plural forms.
    fn seconds(&self, d: Duration) -> Utterance {
        self.count(PluralStem::TimeSeconds, d.as_secs())
    }

    /// "2 minutes", counted in the locale's plural forms.
    fn minutes(&self, d: Duration) -> Utterance {
        self.count(PluralStem::TimeMinutes, d.as_secs() / 60)
    }

    /// The arbiter's decision on the claim of `side` (message `key`), with
    /// the time `to` received (message `no_time` when none).
    fn decided(
        &self,
        (key, no_time): (MsgKey, MsgKey),
        side: Color,
        to: Color,
        extra: Option<Duration>,
    ) -> Utterance {
        let (side, to) = (self.side(side), self.side(to));
        match extra {
            Some(extra) => self.msg(
                key,
                &[
                    ("side", &side),
                    ("opponent", &to),
                    ("minutes", &self.minutes(extra)),
                ],
            ),
            None => self.msg(no_time, &[("side", &side), ("opponent", &to)]),
        }
    }

    /// A Guideline III event, as one line.
    pub(super) fn quickplay_event(&self, e: &QuickplayEvent) -> Utterance {
        let s = |c: Color| self.side(c);
        let v = |verb: Cmd| self.verb(verb);
        match e {
            QuickplayEvent::IncrementRequested { side } => self.msg(
                MsgKey::QuickplayIncrementRequested,
                &[
                    ("side", &s(*side)),
                    ("opponent", &s(!*side)),
                    ("seconds", &self.seconds(crate::clock::QUICKPLAY_INCREMENT)),
                    ("accept", &v(Cmd::Accept)),
                    ("decline", &v(Cmd::Decline)),
                    ("grant", &v(Cmd::GrantIncrement)),
                    ("refuse", &v(Cmd::RefuseIncrement)),
                ],
            ),
            QuickplayEvent::IncrementGranted {
                side,
                increment,
                to,
                extra,
            } => self.msg(
                MsgKey::QuickplayIncrementGranted,
                &[
                    ("side", &s(*side)),
                    ("opponent", &s(*to)),
                    ("seconds", &self.seconds(*increment)),
                    ("minutes", &self.minutes(*extra)),
                ],
            ),
            QuickplayEvent::IncrementRefused { side } => {
                self.msg(MsgKey::QuickplayIncrementRefused, &[("side", &s(*side))])
            }
            QuickplayEvent::Claimed { side, grounds } => self.msg(
                MsgKey::QuickplayClaimed,
                &[
                    ("side", &s(*side)),
                    ("grounds", &self.grounds(*grounds, !*side)),
                    ("agree", &v(Cmd::Agree)),
                    ("postpone", &v(Cmd::Postpone)),
                    ("reject", &v(Cmd::Reject)),
                ],
            ),
            QuickplayEvent::Postponed { side, to, extra } => self.decided(
                (MsgKey::QuickplayPostponed, MsgKey::QuickplayPostponedNoTime),
                *side,
                *to,
                *extra,
            ),
            QuickplayEvent::Rejected { side, to, extra } => self.decided(
                (MsgKey::QuickplayRejected, MsgKey::QuickplayRejectedNoTime),
                *side,
                *to,
                *extra,
            ),
            QuickplayEvent::FlagFell { flagged, claimant } => self.msg(
                MsgKey::QuickplayFlagFell,
                &[
                    ("flagged", &s(*flagged)),
                    ("opponent", &s(!*flagged)),
                    ("claimant", &s(*claimant)),
                    ("draw", &v(Cmd::DecideDraw)),
                    ("loss", &v(Cmd::DecideLoss)),
                ],
            ),
            QuickplayEvent::Referred { side, grounds } => {
                let duty = if grounds.no_effort() {
                    MsgKey::QuickplayDutyScoresheet
                } else {
                    MsgKey::QuickplayDutyPosition
                };
                let duty = self.msg(duty, &[("side", &s(*side)), ("opponent", &s(!*side))]);
                self.msg(
                    MsgKey::QuickplayReferred,
                    &[
                        ("side", &s(*side)),
                        ("grounds", &self.grounds(*grounds, !*side)),
                        ("duty", &duty),
                    ],
                )
            }
        }
    }

    /// Why a Guideline III procedure was refused, saying what to do.
    pub(super) fn quickplay_error(&self, e: &QuickplayError) -> Utterance {
        let s = |c: Color| self.side(c);
        let v = |verb: Cmd| self.verb(verb);
        match e {
            QuickplayError::NotAnnounced => self.msg(MsgKey::QuickplayErrNotAnnounced, &[]),
            QuickplayError::WithIncrement(_) => self.msg(MsgKey::QuickplayErrIncrement, &[]),
            QuickplayError::Blitz => self.msg(MsgKey::QuickplayErrBlitz, &[]),
            QuickplayError::NotFinalPeriod { side, moves } => self.msg(
                MsgKey::QuickplayErrNotFinalPeriod,
                &[("side", &s(*side)), ("moves", &self.num(moves))],
            ),
            QuickplayError::NotToMove { side, mover } => self.msg(
                MsgKey::QuickplayErrNotToMove,
                &[("side", &s(*side)), ("mover", &s(*mover))],
            ),
            QuickplayError::TimeLeft { side, remaining } => self.msg(
                MsgKey::QuickplayErrTimeLeft,
                &[("side", &s(*side)), ("time", &self.time(*remaining))],
            ),
            QuickplayError::FlagFallen { side } => {
                self.msg(MsgKey::QuickplayErrFlagFallen, &[("side", &s(*side))])
            }
            QuickplayError::RequestPending { side } => self.msg(
                MsgKey::QuickplayErrRequestPending,
                &[
                    ("side", &s(*side)),
                    ("grant", &v(Cmd::GrantIncrement)),
                    ("refuse", &v(Cmd::RefuseIncrement)),
                ],
            ),
            QuickplayError::ClaimPending { side } => self.msg(
                MsgKey::QuickplayErrClaimPending,
                &[
                    ("side", &s(*side)),
                    ("agree", &v(Cmd::Agree)),
                    ("postpone", &v(Cmd::Postpone)),
                    ("reject", &v(Cmd::Reject)),
                ],
            ),
            QuickplayError::NothingToDecide => self.msg(MsgKey::QuickplayErrNothingToDecide, &[]),
            QuickplayError::IncrementFirst { side } => self.msg(
                MsgKey::QuickplayErrIncrementFirst,
                &[("side", &s(*side)), ("request", &v(Cmd::RequestIncrement))],
            ),
            QuickplayError::OfferOpen { side } => self.msg(
                MsgKey::QuickplayErrOfferOpen,
                &[
                    ("side", &s(*side)),
                    ("opponent", &s(!*side)),
                    ("accept", &v(Cmd::Accept)),
                    ("decline", &v(Cmd::Decline)),
                ],
            ),
            QuickplayError::AwaitsResult { flagged, claimant } => self.msg(
                MsgKey::QuickplayErrAwaitsResult,
                &[
                    ("flagged", &s(*flagged)),
                    ("claimant", &s(*claimant)),
                    ("draw", &v(Cmd::DecideDraw)),
                    ("loss", &v(Cmd::DecideLoss)),
                ],
            ),
            QuickplayError::NoFlagFallen { side } => self.msg(
                MsgKey::QuickplayErrNoFlag,
                &[
                    ("side", &s(*side)),
                    ("agree", &v(Cmd::Agree)),
                    ("postpone", &v(Cmd::Postpone)),
                    ("reject", &v(Cmd::Reject)),
                ],
            ),
            QuickplayError::AlreadyPostponed { side } => self.msg(
                MsgKey::QuickplayErrAlreadyPostponed,
                &[
                    ("side", &s(*side)),
                    ("agree", &v(Cmd::Agree)),
                    ("reject", &v(Cmd::Reject)),
                ],
            ),
        }
    }

    /// What waits under Guideline III in a game one comes back to (a
    /// resumed journal): the request, the claim, or the result to declare.
    pub(super) fn quickplay_waiting(&self, m: &Mirror) -> Option<Utterance> {
        let e = match m.quickplay_pending()? {
            QuickplayPending::Increment { by } if m.draw_offer() == Some(by) => {
                QuickplayEvent::IncrementRequested { side: by }
            }
            QuickplayPending::Increment { by } => {
                return Some(self.quickplay_error(&QuickplayError::RequestPending { side: by }));
            }
            QuickplayPending::Claim {
                by,
                flagged: Some(f),
                ..
            } => QuickplayEvent::FlagFell {
                flagged: f,
                claimant: by,
            },
            QuickplayPending::Claim {
                by,
                postponed: false,
                grounds,
                ..
            } => QuickplayEvent::Claimed { side: by, grounds },
            // A postponed decision waits quietly while the game goes on.
            QuickplayPending::Claim { .. } => return None,
        };
        Some(self.quickplay_event(&e))
    }
}
