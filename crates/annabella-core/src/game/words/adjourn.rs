//! The words of adjourned games (Guideline I): sealing, the envelope,
//! attendance at the resumption, the opening and its faults.

use shakmaty::Color;

use super::{Wording, plain};
use crate::commands::Cmd;
use crate::locale::MsgKey;
use crate::mirror::{GameEvent, SealFault, Sealed};
use crate::vocab::Utterance;

impl Wording<'_> {
    /// The adjournment's events (Guideline I).
    pub(super) fn adjournment(&self, e: &GameEvent) -> Utterance {
        let s = |c: Color| self.side(c);
        let offer = |key: MsgKey, side: Color| {
            self.msg(
                key,
                &[
                    ("side", &s(side)),
                    ("opponent", &s(!side)),
                    ("accept", &self.verb(Cmd::Accept)),
                    ("decline", &self.verb(Cmd::Decline)),
                ],
            )
        };
        match e {
            GameEvent::SealWritten { side, number } => self.msg(
                MsgKey::MirrorSealWritten,
                &[
                    ("side", &s(*side)),
                    ("number", &self.num(number)),
                    ("seal", &self.verb(Cmd::Seal)),
                    ("press", &self.verb(Cmd::Press)),
                ],
            ),
            GameEvent::SealFaulty { side, fault } => self.msg(
                MsgKey::MirrorSealFaulty,
                &[
                    ("side", &s(*side)),
                    ("fault", &self.seal_fault(*fault)),
                    ("seal", &self.verb(Cmd::Seal)),
                    ("press", &self.verb(Cmd::Press)),
                ],
            ),
            GameEvent::EnvelopeDrawOffer { side } => offer(MsgKey::MirrorEnvelopeDrawOffer, *side),
            GameEvent::DrawOfferStands { side } => offer(MsgKey::MirrorDrawOfferStands, *side),
            GameEvent::PlayerPresent { side } => {
                self.msg(MsgKey::MirrorPlayerPresent, &[("side", &s(*side))])
            }
            GameEvent::PlayerAbsent {
                side,
                clock_started,
                default_time,
            } => self.msg(
                if *clock_started {
                    MsgKey::MirrorPlayerAbsentClock
                } else {
                    MsgKey::MirrorPlayerAbsent
                },
                &[("side", &s(*side)), ("time", &self.amount(*default_time))],
            ),
            GameEvent::PlayerArrived { side, open } => self.msg(
                if *open {
                    MsgKey::MirrorArrivedOpen
                } else {
                    MsgKey::MirrorArrived
                },
                &[
                    ("side", &s(*side)),
                    ("open_seal", &self.verb(Cmd::OpenSeal)),
                ],
            ),
            GameEvent::AbsentClockStarted { side } => {
                self.msg(MsgKey::MirrorAbsentClockStarted, &[("side", &s(*side))])
            }
            GameEvent::SealInvalid { side, fault, text } => self.msg(
                MsgKey::MirrorSealInvalid,
                &[
                    ("side", &s(*side)),
                    ("text", &plain(text.clone())),
                    ("fault", &self.seal_fault(*fault)),
                ],
            ),
            GameEvent::DefaultTimeSet { time } => {
                self.msg(MsgKey::MirrorDefaultTime, &[("time", &self.amount(*time))])
            }
            GameEvent::Excused { side } => self.msg(MsgKey::MirrorExcused, &[("side", &s(*side))]),
            // Every other event is worded in `event`, which sends only
            // the ones above here.
            _ => Utterance::default(),
        }
    }

    /// Date, time and place of resumption, or that they are not fixed yet.
    pub(super) fn resumption(&self, text: &str) -> Utterance {
        if text.trim().is_empty() {
            self.msg(MsgKey::MirrorResumptionUnknown, &[])
        } else {
            plain(text)
        }
    }

    /// What is wrong with a sealed move (Guideline I.8.1–I.8.3).
    fn seal_fault(&self, fault: SealFault) -> Utterance {
        self.msg(
            match fault {
                SealFault::Ambiguous => MsgKey::MirrorSealFaultAmbiguous,
                SealFault::Unclear => MsgKey::MirrorSealFaultUnclear,
                SealFault::Illegal => MsgKey::MirrorSealFaultIllegal,
            },
            &[],
        )
    }

    /// The public part of the envelope (Guideline I.2, I.5): who sealed
    /// which move, the times used, the resumption, a current draw offer.
    /// Never the sealed move.
    pub fn envelope(&self, sealed: &Sealed) -> Utterance {
        let mut u = self.msg(
            MsgKey::MirrorAdjourned,
            &[
                ("side", &self.side(sealed.by)),
                ("number", &self.num(sealed.number)),
                ("white", &self.time(sealed.used[0])),
                ("black", &self.time(sealed.used[1])),
                ("resumption", &self.resumption(&sealed.resumption)),
            ],
        );
        crate::query::append(
            &mut u,
            &self.envelope_contents(&sealed.names, &sealed.fen, true),
        );
        if let Some(side) = sealed.draw_offer {
            let o = self.adjournment(&GameEvent::EnvelopeDrawOffer { side });
            u.display = format!("{} {}", u.display, o.display);
            u.spoken = format!("{} {}", u.spoken, o.spoken);
        }
        u
    }

    /// What the envelope says of the players and the position (I.2.1,
    /// I.2.2): both names, the position before the sealed move as the
    /// pieces of each side in words (`pieces`) and as FEN (shown, not
    /// spoken).
    pub(super) fn envelope_contents(
        &self,
        names: &[String; 2],
        fen: &str,
        pieces: bool,
    ) -> Utterance {
        let name = |n: &str| {
            if n.trim().is_empty() {
                self.msg(MsgKey::MirrorNameUnknown, &[])
            } else {
                plain(n.trim())
            }
        };
        let mut u = self.msg(
            MsgKey::MirrorEnvelopePlayers,
            &[("white", &name(&names[0])), ("black", &name(&names[1]))],
        );
        if pieces {
            let pieces = fen
                .parse::<shakmaty::fen::Fen>()
                .ok()
                .map(|f| pieces_in_words(self, f.as_setup()))
                .unwrap_or_default();
            let position = self.msg(MsgKey::MirrorEnvelopePosition, &[("pieces", &pieces)]);
            crate::query::append(&mut u, &position);
        }
        // The FEN is shown (and written down), not spoken: the pieces are.
        let fen = Utterance {
            display: self
                .msg(MsgKey::MirrorEnvelopeFen, &[("fen", &plain(fen))])
                .display,
            spoken: String::new(),
        };
        crate::query::append(&mut u, &fen);
        u.spoken = u.spoken.trim_end().to_owned();
        u
    }
}

/// Every piece of both sides on `setup`, in words: "White: King g1, …
/// Black: …".
fn pieces_in_words(w: &Wording<'_>, setup: &shakmaty::Setup) -> Utterance {
    use shakmaty::Role;
    let board = &setup.board;
    let mut out = Utterance::default();
    for c in [Color::White, Color::Black] {
        let mut list = Vec::new();
        for role in [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            for sq in board.by_color(c) & board.by_role(role) {
                let mut u = w.vocab().piece(role);
                crate::query::append(&mut u, &w.vocab().square(sq));
                list.push(u);
            }
        }
        let side = w.msg(
            MsgKey::UiPiecesOf,
            &[
                ("side", &w.side(c)),
                ("pieces", &crate::query::join(list.into_iter())),
            ],
        );
        crate::query::append(&mut out, &side);
    }
    out
}
