//! Adjournment (Guideline I of the Laws): the player to move seals his move
//! instead of playing it, the envelope is kept, and at the resumption the
//! players' attendance is recorded, the envelope opened and the sealed move
//! played.
//!
//! - Sealing (I.1.1) has two steps, as over the board: the player writes
//!   his sealed move ([`Mirror::seal`], again to change it), then stops the
//!   clock ([`Mirror::close_envelope`], the `press`), which closes the
//!   envelope. The sealed move is kept as written and read only when the
//!   envelope is opened (I.8); the sealer is warned at once, without the
//!   move being said, when it is not one legal move, while he may still
//!   change it. A move he made on his board must be the one he seals.
//! - The envelope ([`Sealed`]) holds everything I.2 asks for; a draw offer
//!   that is current is announced with it and again at the opening.
//! - Before the resumption a draw may be offered (I.4: it stands until
//!   answered, also after the sealed move is played), agreed, or a player
//!   may resign (I.6): the game is then concluded.
//! - At the resumption ([`Resumption`]): present and absent players are
//!   recorded (I.9); the envelope is opened only when the player who must
//!   answer the sealed move is present (I.7); an absent responder's clock
//!   runs until he arrives (I.9.2, I.11); an absent sealer's clock is
//!   started when the responder seals his reply in a fresh envelope
//!   (I.9.3); a player still absent after the default time loses unless
//!   the arbiter excused him, except that a sealed move which ends the game
//!   stands (I.10). A sealed move that is ambiguous, unintelligible or
//!   illegal loses for the sealer when opened (I.8), or draws when his
//!   opponent cannot mate (Article 6.9, one of the exceptions I.8 names).
//!
//! The other exceptions I.8 names cannot meet an unopened envelope: a game
//! ended by Article 5 (mate, stalemate, dead position, resignation,
//! agreement) or 9.6 (fivefold repetition, 75 moves) is over before the
//! envelope is opened, and an envelope is never opened once the game is
//! over. (The 2018 and 2023 texts also name Article 9.7, which they do not
//! have.) I.1.2 (adjourning before the session's end) and I.13 (clock times
//! found wrong) are the arbiter's `set`/`remove`, which work while
//! adjourned; I.12 (a lost envelope) and I.14 (the arbiter's clock for the
//! sessions) concern paper and the venue: the journal keeps the envelope.

use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Move};

use super::{GameError, GameEvent, Mirror, MoveAt, MoveInput, Said, Stage, idx};
use crate::rules::{GameResult, Match, RuleError};
use crate::vocab::ParseError;

/// The envelope of an adjourned game (Guideline I.2) and the sealed move
/// inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    /// Who sealed it (I.2.4).
    pub by: Color,
    /// The sealed move as the player wrote it (I.1.1): secret until the
    /// envelope is opened, and only then read (I.8).
    pub text: String,
    /// The position immediately before the sealed move (I.2.2), as FEN.
    pub fen: String,
    /// The number of the sealed move (I.2.5).
    pub number: u32,
    /// Time used by White and Black when the clock was stopped (I.2.3).
    pub used: [Duration; 2],
    /// A draw offer current when the clock was stopped (I.2.6).
    pub draw_offer: Option<Color>,
    /// Date, time and place of resumption, as the arbiter wrote them (I.2.7).
    pub resumption: String,
    /// The players' names, White and Black (I.2.1).
    pub names: [String; 2],
}

/// Why a sealed move cannot be played (Guideline I.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SealFault {
    /// I.8.1: it fits more than one legal move.
    Ambiguous,
    /// I.8.2: its meaning cannot be established.
    Unclear,
    /// I.8.3: it is an illegal move.
    Illegal,
}

/// Whether a player is at the board at the resumption (Guideline I.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Attendance {
    /// Nothing recorded (counts as present).
    #[default]
    NotRecorded,
    /// Present.
    Present,
    /// Absent.
    Absent,
}

/// The resumption of an adjourned game (Guideline I.9–I.11).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resumption {
    /// The default time (Article 6.7, I.10): zero unless the arbiter sets
    /// the event's.
    pub default_time: Duration,
    /// When the resumption session began: the first attendance recorded.
    pub start: Option<Duration>,
    /// White's and Black's attendance.
    pub attendance: [Attendance; 2],
    /// The arbiter decided that this player's absence does not lose (I.10).
    pub excused: [bool; 2],
    /// A draw offered after the envelope was closed (I.4): it stands until
    /// answered, also after the sealed move is played.
    pub offer: Option<Color>,
}

impl Mirror {
    /// The player to move writes his sealed move `input` (Guideline I.1.1),
    /// with the date, time and place of resumption: the game is adjourned,
    /// but his clock runs until he stops it ([`Mirror::close_envelope`]);
    /// until then he may seal again to change the move (an empty
    /// `resumption` keeps the one written before). The move is kept as
    /// written and read only when the envelope is opened; a text that is
    /// not one legal move is reported at once ([`GameEvent::SealFaulty`],
    /// without the move). A move already made on his board (not yet
    /// completed) is the one he must seal: it is taken off the board.
    ///
    /// # Errors
    ///
    /// [`GameError::SealNotMade`] (another move is on his board),
    /// [`GameError::AlreadyMade`] (an illegal move is on his board),
    /// [`GameError::AwaitExecution`], [`GameError::BoardsDiffer`],
    /// [`GameError::Adjourned`] (the envelope is closed),
    /// [`GameError::GameOver`], [`GameError::TimeWentBackwards`].
    pub fn seal(
        &mut self,
        now: Duration,
        input: &MoveInput,
        resumption: &str,
    ) -> Result<Said, GameError> {
        self.check_time(now)?;
        let mover = self.turn_of_game_for_pending();
        let mut kept = String::new();
        let made = match &self.stage {
            Stage::Idle => None,
            Stage::Adjourned {
                sealed,
                closed: false,
            } => {
                kept = sealed.resumption.clone();
                None
            }
            Stage::Adjourned { .. } => return Err(GameError::Adjourned),
            Stage::Made { mv: Some(m), .. } | Stage::Announced { mv: Some(m), .. } => Some(*m),
            Stage::Made { .. } | Stage::Announced { .. } => {
                return Err(GameError::AlreadyMade(mover));
            }
            Stage::Pressed { .. } => {
                return Err(self.await_execution().unwrap_or(GameError::Adjourned));
            }
            Stage::Over(r) => return Err(GameError::GameOver(*r)),
        };
        if self.mismatch_is_boards() {
            return Err(GameError::BoardsDiffer);
        }
        let line = self.boards[idx(mover)].moves();
        let ply = line.len() - usize::from(made.is_some());
        let before = self.position_after(&line[..ply]);
        if let Some(m) = made
            && self.resolve(mover, &before, input).ok() != Some(m)
        {
            return Err(GameError::SealNotMade {
                side: mover,
                mv: m,
                before: Box::new(before),
            });
        }
        let text = self.input_text(&before, input);
        let fault = self.read_sealed(mover, &before, &text).err();
        let resumption = if resumption.trim().is_empty() {
            kept
        } else {
            resumption.trim().to_owned()
        };
        self.step(now, |m, said| {
            if made.is_some() {
                m.undo_unpressed();
            }
            let (_, number) = m.ply_number(ply);
            let sealed = Sealed {
                by: mover,
                text,
                fen: Fen::from_position(&before, EnPassantMode::Legal).to_string(),
                number,
                used: m.used_times(now),
                draw_offer: m.draw_offer,
                resumption,
                names: [m.config.white.clone(), m.config.black.clone()],
            };
            said.push(GameEvent::SealWritten {
                side: mover,
                number,
            });
            // The sealer is told of a faulty sealed move only in practice:
            // in a tournament game that would be help with his own move
            // (11.3); I.8 applies when the envelope is opened.
            if let Some(fault) = fault.filter(|_| m.config.practice) {
                said.push(GameEvent::SealFaulty { side: mover, fault });
            }
            m.stage = Stage::Adjourned {
                sealed: Box::new(sealed),
                closed: false,
            };
            Ok(())
        })
    }

    /// The sealer stops the clock (the `press` while sealing): the envelope
    /// is closed with the times used and a current draw offer (I.1.1, I.2),
    /// and recorded for the arbiter (the public part: never the move). When
    /// his opponent is absent at a resumption, the opponent's clock is
    /// started instead (I.9.3: a reply sealed in a fresh envelope).
    ///
    /// # Errors
    ///
    /// [`GameError::NotAdjourned`] (nothing is being sealed),
    /// [`GameError::Adjourned`] (already closed), [`GameError::GameOver`],
    /// [`GameError::TimeWentBackwards`].
    pub fn close_envelope(&mut self, now: Duration) -> Result<Said, GameError> {
        let sealed = self.envelope(now, false)?;
        let by = sealed.by;
        let absent = self.adjourn.attendance[idx(!by)] == Attendance::Absent;
        self.step(now, |m, said| {
            if absent {
                m.clock.run_for(now, !by)
            } else {
                m.clock.pause(now)
            }
            .map_err(GameError::Clock)?;
            let mut sealed = *sealed;
            sealed.used = m.used_times(now);
            sealed.draw_offer = m.draw_offer;
            let event = GameEvent::Sealed {
                side: by,
                number: sealed.number,
                used: sealed.used,
                resumption: sealed.resumption.clone(),
            };
            m.record(now, &event);
            said.push(event);
            let event = GameEvent::EnvelopeContents {
                names: sealed.names.clone(),
                fen: sealed.fen.clone(),
            };
            m.record(now, &event);
            said.push(event);
            if let Some(side) = sealed.draw_offer {
                let event = GameEvent::EnvelopeDrawOffer { side };
                m.record(now, &event);
                said.push(event);
            }
            if absent {
                let event = GameEvent::AbsentClockStarted { side: !by };
                m.record(now, &event);
                said.push(event);
            } else {
                // A new adjournment: a new resumption, the same event rules.
                m.adjourn = Resumption {
                    default_time: m.adjourn.default_time,
                    ..Resumption::default()
                };
            }
            m.stage = Stage::Adjourned {
                sealed: Box::new(sealed),
                closed: true,
            };
            Ok(())
        })
    }

    /// The envelope while the game is adjourned (being sealed or closed).
    pub fn sealed(&self) -> Option<&Sealed> {
        match &self.stage {
            Stage::Adjourned { sealed, .. } => Some(sealed),
            _ => None,
        }
    }

    /// `true` while the sealer has not yet stopped the clock: `press` then
    /// closes the envelope ([`Mirror::close_envelope`]).
    pub fn is_sealing(&self) -> bool {
        matches!(self.stage, Stage::Adjourned { closed: false, .. })
    }

    /// The resumption: attendance, default time, a draw offer made while
    /// adjourned.
    pub fn resumption(&self) -> &Resumption {
        &self.adjourn
    }

    /// At the resumption `side` is present (`present`) or absent (I.9);
    /// `None` names the player who must answer the sealed move. The first
    /// attendance recorded starts the resumption session (the default time
    /// counts from it). An absent responder's clock is started (I.9.2,
    /// I.11); on arrival he stops it and the envelope may be opened.
    ///
    /// # Errors
    ///
    /// [`GameError::NotAdjourned`] (no envelope and nobody absent),
    /// [`GameError::Sealing`], [`GameError::GameOver`],
    /// [`GameError::TimeWentBackwards`], [`GameError::Clock`].
    pub fn attend(
        &mut self,
        now: Duration,
        side: Option<Color>,
        present: bool,
    ) -> Result<Said, GameError> {
        self.check_time(now)?;
        let envelope = match &self.stage {
            Stage::Over(r) => return Err(GameError::GameOver(*r)),
            Stage::Adjourned {
                sealed,
                closed: false,
            } => return Err(GameError::Sealing(sealed.by)),
            Stage::Adjourned { sealed, .. } => Some(sealed.by),
            _ => None,
        };
        // Without an envelope, only an absent player's arrival (I.9.3:
        // after the sealed move was played) is recorded.
        let away = [Color::White, Color::Black]
            .into_iter()
            .find(|c| self.adjourn.attendance[idx(*c)] == Attendance::Absent);
        let side = match (side, envelope, away) {
            (_, None, None) => return Err(GameError::NotAdjourned),
            (Some(s), _, _) => s,
            (None, Some(by), _) => !by,
            (None, None, Some(c)) => c,
        };
        let responder = envelope == Some(!side);
        self.step(now, |m, said| {
            m.adjourn.start.get_or_insert(now);
            let was = m.adjourn.attendance[idx(side)];
            let running = m.clock.running() == Some(side);
            let event = if present {
                m.adjourn.attendance[idx(side)] = Attendance::Present;
                match (was, responder) {
                    (Attendance::Absent, _) => {
                        if responder && running {
                            // He stops his clock and calls the arbiter.
                            m.clock.pause(now).map_err(GameError::Clock)?;
                        }
                        GameEvent::PlayerArrived {
                            side,
                            open: responder,
                        }
                    }
                    (_, true) => GameEvent::OpponentPresent { side },
                    (_, false) => GameEvent::PlayerPresent { side },
                }
            } else {
                m.adjourn.attendance[idx(side)] = Attendance::Absent;
                let clock_started = responder && !running;
                if clock_started {
                    m.clock.run_for(now, side).map_err(GameError::Clock)?;
                }
                GameEvent::PlayerAbsent {
                    side,
                    clock_started,
                    default_time: m.adjourn.default_time,
                }
            };
            m.record(now, &event);
            said.push(event);
            Ok(())
        })
    }

    /// Opens the envelope (I.7, I.9): only when the player who must answer
    /// the sealed move is present. A sealed move that is one legal move is
    /// made on the sealer's board, announced and completed on the clock
    /// (the responder's clock starts, I.9.1); the opponent then executes it
    /// as usual. Otherwise the sealer loses, or it is a draw when his
    /// opponent cannot mate (I.8). A draw offer that is current is
    /// announced again, and one made while adjourned stands (I.4).
    ///
    /// # Errors
    ///
    /// [`GameError::OpponentAbsent`], [`GameError::NotAdjourned`],
    /// [`GameError::Sealing`], [`GameError::GameOver`],
    /// [`GameError::TimeWentBackwards`], [`GameError::Clock`].
    pub fn open_seal(&mut self, now: Duration) -> Result<Said, GameError> {
        let sealed = self.envelope(now, true)?;
        let by = sealed.by;
        if self.adjourn.attendance[idx(!by)] != Attendance::Present {
            return Err(GameError::OpponentAbsent(!by));
        }
        let before = self.boards[idx(by)].position().clone();
        let mv = match self.read_sealed(by, &before, &sealed.text) {
            Ok(mv) => mv,
            Err(fault) => {
                return self.step(now, |m, said| {
                    let event = GameEvent::SealInvalid {
                        side: by,
                        fault,
                        text: sealed.text.clone(),
                    };
                    m.record(now, &event);
                    said.push(event);
                    m.end_on_boards(said, |b| b.sealed_move_invalid(by));
                    Ok(())
                });
            }
        };
        let mut said = self.step(now, |m, said| {
            // The sealed move is completed on the sealer's clock.
            m.clock.run_for(now, by).map_err(GameError::Clock)?;
            m.stage = Stage::Idle;
            said.push(GameEvent::SealOpened {
                mv: MoveAt {
                    before: before.clone(),
                    mv,
                },
            });
            // The sealer's own offer, made with his sealed move, is his
            // opponent's to answer now; an offer made after the sealing
            // stands (I.4). (An offer the sealer left unanswered lapses as
            // his sealed move is made, 9.1.2.1.)
            match m.draw_offer {
                Some(side) if side == by && sealed.draw_offer == Some(side) => {
                    said.push(GameEvent::EnvelopeDrawOffer { side });
                }
                Some(side) if m.adjourn.offer == Some(side) => {
                    said.push(GameEvent::DrawOfferStands { side });
                }
                _ => {}
            }
            Ok(())
        })?;
        if self.result.is_some() {
            return Ok(said);
        }
        // I.4: making the sealed move does not answer an offer made while
        // the game was adjourned: it is set aside while the move is made.
        let stands = self
            .adjourn
            .offer
            .take()
            .filter(|c| self.draw_offer == Some(*c));
        if stands.is_some() {
            self.draw_offer = None;
        }
        said.extend(self.board_move(now, by, &MoveInput::Move(mv))?);
        said.extend(self.announce(now, None)?);
        said.extend(self.press(now)?);
        if self.result.is_none() && stands.is_some() {
            self.draw_offer = stands;
        }
        Ok(said)
    }

    /// Arbiter: the event's default time (Article 6.7, I.10).
    ///
    /// # Errors
    ///
    /// [`GameError::GameOver`], [`GameError::TimeWentBackwards`].
    pub fn set_default_time(&mut self, now: Duration, time: Duration) -> Result<Said, GameError> {
        self.check_time(now)?;
        if let Stage::Over(r) = self.stage {
            return Err(GameError::GameOver(r));
        }
        self.step(now, |m, said| {
            m.adjourn.default_time = time;
            let event = GameEvent::DefaultTimeSet { time };
            m.record(now, &event);
            said.push(event);
            Ok(())
        })
    }

    /// Arbiter: `side`'s absence, or arrival after the default time, does
    /// not lose the game (I.10: "unless the arbiter decides otherwise").
    ///
    /// # Errors
    ///
    /// [`GameError::GameOver`], [`GameError::TimeWentBackwards`].
    pub fn excuse(&mut self, now: Duration, side: Color) -> Result<Said, GameError> {
        self.check_time(now)?;
        if let Stage::Over(r) = self.stage {
            return Err(GameError::GameOver(r));
        }
        self.step(now, |m, said| {
            m.adjourn.excused[idx(side)] = true;
            let event = GameEvent::Excused { side };
            m.record(now, &event);
            said.push(event);
            Ok(())
        })
    }

    /// A draw offer while the game is adjourned: by the sealer with his
    /// sealed move (it goes into the envelope, I.2.6), or after the
    /// envelope is closed (it stands until answered, I.4). Not adjourned:
    /// the ordinary offer ([`Mirror::offer_draw`]).
    ///
    /// # Errors
    ///
    /// As [`Mirror::offer_draw`].
    pub fn adjourned_offer(&mut self, now: Duration, by: Color) -> Result<Said, GameError> {
        let mut said = self.as_if_playing(|m| m.offer_draw(now, by))?;
        if self.closed() == Some(true) {
            self.adjourn.offer = Some(by);
            let event = GameEvent::DrawOfferStands { side: by };
            self.record(now, &event);
            said.push(event);
        }
        Ok(said)
    }

    /// An answer to a draw offer while the game is adjourned: an agreed
    /// draw concludes the game (I.6). Not adjourned: the ordinary answer.
    ///
    /// # Errors
    ///
    /// As [`Mirror::answer_draw`].
    pub fn adjourned_answer(
        &mut self,
        now: Duration,
        by: Color,
        accept: bool,
    ) -> Result<Said, GameError> {
        let said = self.as_if_playing(|m| m.answer_draw(now, by, accept))?;
        self.adjourn.offer = None;
        Ok(said)
    }

    /// A resignation while the game is adjourned (told to the arbiter)
    /// concludes it (I.6). Not adjourned: the ordinary resignation.
    ///
    /// # Errors
    ///
    /// As [`Mirror::resign`].
    pub fn adjourned_resign(&mut self, now: Duration, by: Color) -> Result<Said, GameError> {
        self.as_if_playing(|m| m.resign(now, by))
    }

    /// Runs an ordinary procedure (Article 9.1, 5.1.2) while the game is
    /// adjourned, as it would run in play: the game stays adjourned unless
    /// the procedure ended it.
    fn as_if_playing(
        &mut self,
        procedure: impl FnOnce(&mut Mirror) -> Result<Said, GameError>,
    ) -> Result<Said, GameError> {
        if self.closed().is_none() {
            return procedure(self);
        }
        let adjourned = std::mem::replace(&mut self.stage, Stage::Idle);
        let out = procedure(self);
        if self.result.is_none() {
            self.stage = adjourned;
        }
        out
    }

    /// The player who loses by absence at `now` (I.10): the resumption has
    /// begun, the default time since its start has passed, and exactly one
    /// player is recorded absent and not excused. (Both absent: the arbiter
    /// decides; nothing happens by itself.)
    pub fn absence_due(&self, now: Duration) -> Option<Color> {
        if self.result.is_some() {
            return None;
        }
        let start = self.adjourn.start?;
        if now <= start.saturating_add(self.adjourn.default_time) {
            return None;
        }
        match self.absent().as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// Part of every step: a player still absent after the default time
    /// loses (I.10), unless the sealed move in the envelope ends the game:
    /// then that conclusion stands (the move is made on both boards).
    pub(super) fn settle_absence(&mut self, now: Duration, said: &mut Said) {
        let Some(absent) = self.absence_due(now) else {
            return;
        };
        if let Stage::Adjourned {
            sealed,
            closed: true,
        } = &self.stage
        {
            let by = sealed.by;
            let before = self.boards[idx(by)].position().clone();
            if let Ok(mv) = self.read_sealed(by, &before, &sealed.text) {
                let mut probe = self.boards[idx(by)].clone();
                if let Ok(Some(r)) = probe.play(mv) {
                    for b in &mut self.boards {
                        let _ = b.play(mv);
                    }
                    self.stage = Stage::Idle;
                    said.push(GameEvent::SealOpened {
                        mv: MoveAt { before, mv },
                    });
                    self.end(r, said);
                    return;
                }
            }
        }
        self.end_on_boards(said, |b| b.absence(absent));
    }

    /// The sealed move `text` of `by`, read in `before` (the position
    /// before it): one legal move, or why not (I.8).
    fn read_sealed(&self, by: Color, before: &Chess, text: &str) -> Result<Move, SealFault> {
        match self.resolve(by, before, &MoveInput::Text(text.to_owned())) {
            Ok(m) => Ok(m),
            Err(GameError::BadMove { error, .. }) => Err(match error {
                ParseError::Ambiguous(_) => SealFault::Ambiguous,
                ParseError::Illegal(_) => SealFault::Illegal,
                ParseError::Empty
                | ParseError::NotUnderstood { .. }
                | ParseError::Incomplete { .. }
                | ParseError::TooLong(_) => SealFault::Unclear,
            }),
            Err(_) => Err(SealFault::Unclear),
        }
    }

    /// The envelope, when it is `closed` (to open it) or not yet (to close
    /// it) at `now`; otherwise why not.
    fn envelope(&self, now: Duration, closed: bool) -> Result<Box<Sealed>, GameError> {
        self.check_time(now)?;
        match &self.stage {
            Stage::Adjourned { sealed, closed: c } if *c == closed => Ok(sealed.clone()),
            Stage::Adjourned { sealed, .. } if closed => Err(GameError::Sealing(sealed.by)),
            Stage::Adjourned { .. } => Err(GameError::Adjourned),
            Stage::Over(r) => Err(GameError::GameOver(*r)),
            _ => Err(GameError::NotAdjourned),
        }
    }

    /// Whether the game is adjourned: `Some(closed)`.
    fn closed(&self) -> Option<bool> {
        match &self.stage {
            Stage::Adjourned { closed, .. } => Some(*closed),
            _ => None,
        }
    }

    /// The players recorded absent and not excused.
    fn absent(&self) -> Vec<Color> {
        [Color::White, Color::Black]
            .into_iter()
            .filter(|c| {
                self.adjourn.attendance[idx(*c)] == Attendance::Absent
                    && !self.adjourn.excused[idx(*c)]
            })
            .collect()
    }

    /// Time used by White and Black at `now`.
    fn used_times(&self, now: Duration) -> [Duration; 2] {
        [
            self.clock.used(Color::White, now),
            self.clock.used(Color::Black, now),
        ]
    }

    /// Ends the game with what `end` says on the boards (the first board's
    /// result; both boards record it).
    fn end_on_boards(
        &mut self,
        said: &mut Said,
        end: impl Fn(&mut Match) -> Result<GameResult, RuleError>,
    ) {
        let mut r = None;
        for b in &mut self.boards {
            if let Ok(res) = end(b) {
                r.get_or_insert(res);
            }
        }
        if let Some(r) = r {
            self.end(r, said);
        }
    }
}

#[cfg(test)]
#[path = "adjourn_tests.rs"]
mod tests;
