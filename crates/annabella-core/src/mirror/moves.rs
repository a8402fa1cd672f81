//! The stages of a move (Appendix D.2.1–D.2.4, D.2.8): made on the mover's
//! board, announced, the clock pressed, repeated and executed on the
//! opponent's board; a move not yet completed can be taken back.

use std::time::Duration;

use shakmaty::{Chess, Color, Move, Position, Role, Square};

use super::{GameError, GameEvent, Mirror, MoveAt, MoveInput, Said, Stage, idx};
use crate::clock::{Adjustment, ClockEvent};
use crate::rules::IllegalMoveConsequence;
use crate::vocab::ParseError;

impl Mirror {
    /// A move is made on the board of `board` at `now`: either the mover's
    /// own move (stage Idle) or the execution of the opponent's move (stage
    /// Pressed). An illegal own move is accepted as made (it may still be
    /// taken back); it counts under Art. 7.5 once the clock is pressed.
    pub fn board_move(
        &mut self,
        now: Duration,
        board: Color,
        input: &MoveInput,
    ) -> Result<Said, GameError> {
        if self.result.is_some()
            && let Stage::Pressed { mv, .. } = self.stage
        {
            // The game ended with this move: the opponent still makes it
            // on his board, and the boards are compared.
            self.check_time(now)?;
            return self.execute(now, board, mv, input);
        }
        self.guard(now)?;
        match self.stage.clone() {
            Stage::Idle => self.make_own(now, board, input),
            Stage::Made { .. } | Stage::Announced { .. } => {
                let mover = self.turn_of_game_for_pending();
                if board == mover {
                    Err(GameError::AlreadyMade(mover))
                } else {
                    Err(GameError::NotPressed(mover))
                }
            }
            Stage::Pressed { mv, .. } => self.execute(now, board, mv, input),
            Stage::Over(r) => Err(GameError::GameOver(r)),
            Stage::Adjourned { .. } => Err(GameError::Adjourned),
        }
    }

    /// The mover makes his own move on his board.
    fn make_own(
        &mut self,
        now: Duration,
        board: Color,
        input: &MoveInput,
    ) -> Result<Said, GameError> {
        if self.mismatch_is_boards() {
            return Err(GameError::BoardsDiffer);
        }
        let mover = self.turn_of_game();
        if board != mover {
            return Err(GameError::NotYourTurn { board, mover });
        }
        let pos = self.boards[idx(board)].position().clone();
        let text = self.input_text(&pos, input);
        let resolved = self.resolve(board, &pos, input);
        if let Err(e) = &resolved
            && !is_made(e)
        {
            // Words that are no move at all (unknown, incomplete, more than
            // one move): nothing was made; the same outcome in every front
            // end.
            return Err(e.clone());
        }
        if let (Some((c, required)), Ok(mv)) = (self.claim_move, &resolved)
            && c == board
            && *mv != required
        {
            // 9.5.3: after an incorrect claim on a written move, that move
            // must be made.
            return Err(GameError::ClaimMoveRequired {
                side: board,
                mv: required,
                before: Box::new(pos),
            });
        }
        self.step(now, |m, said| {
            // Making a move answers what the opponent left open: his draw
            // offer lapses (9.1.2.1), and so does the right to claim a win
            // for his illegal move (A.5.2).
            if m.draw_offer == Some(!board) {
                m.draw_offer = None;
                said.push(GameEvent::DrawOfferLapsed { side: !board });
            }
            if m.illegal_claim == Some(board) {
                m.illegal_claim = None;
            }
            match resolved {
                Ok(mv) => {
                    if let Some((c, square)) = m.touched
                        && c == board
                        && !honours_touch(&pos, square, mv)
                    {
                        said.push(GameEvent::TouchNotHonoured {
                            side: board,
                            square,
                        });
                    }
                    m.boards[idx(board)]
                        .play(mv)
                        .map_err(|_| GameError::NoMove(board))?;
                    m.stage = Stage::Made { mv: Some(mv), text };
                    let at = MoveAt {
                        before: pos.clone(),
                        mv,
                    };
                    // D.2.5: for the sighted player the ordinary rules
                    // apply: his move is made when the piece is released
                    // on his board, and a mate, stalemate, dead position,
                    // fivefold repetition or 75th move ends the game then
                    // (5.1.1, 5.2, 9.6), before any announcement: nothing
                    // is left to announce or press.
                    let ending = m.boards[idx(board)]
                        .result()
                        .filter(|_| m.config.sighted == Some(board));
                    said.push(match ending {
                        Some(_) => GameEvent::MadeFinal {
                            side: board,
                            mv: at,
                        },
                        None => GameEvent::Made {
                            side: board,
                            mv: at,
                        },
                    });
                    if let Some(r) = ending {
                        m.record_press(board, None);
                        m.stage = Stage::Pressed {
                            mv,
                            repeated: false,
                        };
                        m.end(r, said);
                    }
                }
                Err(e) => {
                    m.stage = Stage::Made {
                        mv: None,
                        text: text.clone(),
                    };
                    m.unpromoted = unpromoted(&e);
                    if !m.config.practice {
                        // A tournament game: nothing about the legality of
                        // his own move before the press (11.3); the press
                        // applies Art. 7.5.
                        said.push(GameEvent::MadeAsGiven { side: board, text });
                    } else if m.unpromoted.is_some() {
                        said.push(GameEvent::PromotionMissing { side: board });
                    } else {
                        said.push(GameEvent::NotLegal(e));
                        said.push(GameEvent::IllegalMade { side: board });
                    }
                }
            }
            Ok(())
        })
    }

    /// The opponent makes the pressed move `pressed` on his board.
    fn execute(
        &mut self,
        now: Duration,
        board: Color,
        pressed: Move,
        input: &MoveInput,
    ) -> Result<Said, GameError> {
        let mover = self.longer_board().turn().other();
        let target = !mover;
        if board != target {
            return Err(self.await_execution().unwrap_or(GameError::NoMove(mover)));
        }
        let pos = self.boards[idx(board)].position().clone();
        let mv = match self.resolve(board, &pos, input) {
            Ok(m) => m,
            // An illegal move that stands (A.5.2) is made as it was.
            Err(_) if !pos.is_legal(pressed) && self.described(&pos, input) == Some(pressed) => {
                pressed
            }
            Err(e) => {
                // Is it the player's own next move, made without executing
                // the opponent's move first?
                let ahead = self.boards[idx(mover)].position().clone();
                if self.resolve(board, &ahead, input).is_ok() {
                    let ply = self.boards[idx(board)].moves().len();
                    return Err(GameError::MissedMove {
                        board,
                        mv: pressed,
                        before: Box::new(pos),
                        number: self.ply_number(ply).1,
                    });
                }
                return Err(e);
            }
        };
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        self.boards[idx(board)]
            .play_standing(mv)
            .map_err(|_| GameError::NoMove(board))?;
        self.stage = match self.result {
            Some(r) => Stage::Over(r),
            None => Stage::Idle,
        };
        self.detect(&mut said);
        if self.mismatch_is_boards() {
            return Ok(said);
        }
        let over = self.result.is_some();
        said.push(GameEvent::Executed {
            board,
            mv: MoveAt { before: pos, mv },
            next: (!over).then(|| self.boards[idx(board)].turn()),
        });
        if !over && let Some(r) = self.boards[idx(board)].result() {
            self.end(r, &mut said);
        }
        Ok(said)
    }

    /// After the press: the refusal that says the opponent must first
    /// execute the pressed move on his board.
    pub fn await_execution(&self) -> Option<GameError> {
        let Stage::Pressed { mv, .. } = self.stage else {
            return None;
        };
        let mover = !self.longer_board().turn();
        let line = self.boards[idx(mover)].moves();
        Some(GameError::AwaitExecution {
            board: !mover,
            mv,
            before: Box::new(self.position_after(&line[..line.len().saturating_sub(1)])),
        })
    }

    /// The mover announces the move. `said` is what was announced when it
    /// was given separately (typed or spoken); `None` announces what is on
    /// the board. A different move is a slip of the tongue (D.2.8): it is
    /// reported and must be corrected by announcing again before pressing.
    pub fn announce(
        &mut self,
        now: Duration,
        said_input: Option<&MoveInput>,
    ) -> Result<Said, GameError> {
        self.guard(now)?;
        let mover = self.turn_of_game_for_pending();
        let (mv, text, was_slip) = match self.stage.clone() {
            Stage::Made { mv, text } => (mv, text, false),
            Stage::Announced { mv, text, slip } => (mv, text, slip.is_some()),
            Stage::Idle => return Err(GameError::NoMove(mover)),
            Stage::Pressed { .. } => return Err(GameError::TooLate(!self.longer_board().turn())),
            Stage::Over(r) => return Err(GameError::GameOver(r)),
            Stage::Adjourned { .. } => return Err(GameError::Adjourned),
        };
        let b = &self.boards[idx(mover)];
        let before_len = b.moves().len() - usize::from(mv.is_some());
        let before = self.position_after(&b.moves()[..before_len]);
        let said_move = match said_input {
            None => mv,
            // What was announced for a move that is not legal is not read
            // (nothing about its legality is said before the press).
            Some(_) if mv.is_none() => None,
            Some(inp) => Some(self.resolve(mover, &before, inp)?),
        };
        let (_, number) = self.ply_number(before_len);
        self.step(now, |m, said| {
            let at = |mv| MoveAt {
                before: before.clone(),
                mv,
            };
            match (mv, said_move) {
                (Some(made), Some(s)) if made != s => {
                    m.stage = Stage::Announced {
                        mv,
                        text,
                        slip: Some(s),
                    };
                    said.push(GameEvent::Slip {
                        side: mover,
                        said: at(s),
                        mv: at(made),
                    });
                }
                (Some(made), _) => {
                    m.stage = Stage::Announced {
                        mv,
                        text,
                        slip: None,
                    };
                    said.push(GameEvent::Announced {
                        number,
                        side: mover,
                        mv: at(made),
                        corrected: was_slip,
                    });
                    // Made and announced, the move is complete (D.2.3): a
                    // mate, stalemate, dead position, fivefold repetition or
                    // 75th move ends the game now (5.1.1, 5.2.1, 5.2.2,
                    // 9.6), not when the clock is pressed.
                    if let Some(r) = m.boards[idx(mover)].result() {
                        m.record_press(mover, None);
                        // The opponent still makes it on his board.
                        m.stage = Stage::Pressed {
                            mv: made,
                            repeated: false,
                        };
                        m.end(r, said);
                    }
                }
                (None, _) => {
                    m.stage = Stage::Announced {
                        mv: None,
                        text: text.clone(),
                        slip: None,
                    };
                    said.push(if m.config.practice {
                        GameEvent::AnnouncedIllegal {
                            number,
                            side: mover,
                            text,
                        }
                    } else {
                        GameEvent::AnnouncedAsGiven {
                            number,
                            side: mover,
                            text,
                        }
                    });
                }
            }
            Ok(())
        })
    }

    /// The mover takes back a move that is made but not yet completed (the
    /// clock not pressed): needed after an illegal move, or when the arbiter
    /// has the player replace it.
    pub fn take_back(&mut self, now: Duration) -> Result<Said, GameError> {
        self.guard(now)?;
        let mover = self.turn_of_game_for_pending();
        match self.stage.clone() {
            Stage::Made { mv: Some(_), .. } | Stage::Announced { mv: Some(_), .. }
                if self.config.sighted == Some(mover) =>
            {
                // D.2.5, Art. 4.7: the sighted player's legal move stands
                // once the piece is released.
                Err(GameError::MoveStands(mover))
            }
            Stage::Made { .. } | Stage::Announced { .. } => self.step(now, |m, said| {
                said.push(m.undo_unpressed());
                Ok(())
            }),
            Stage::Idle => Err(GameError::NoMove(mover)),
            Stage::Pressed { .. } => Err(GameError::TooLate(!self.longer_board().turn())),
            Stage::Over(r) => Err(GameError::GameOver(r)),
            Stage::Adjourned { .. } => Err(GameError::Adjourned),
        }
    }

    /// Takes a made but uncompleted move off the mover's board.
    pub(super) fn undo_unpressed(&mut self) -> GameEvent {
        let mover = self.turn_of_game_for_pending();
        self.unpromoted = None;
        if let Stage::Made { mv: Some(_), .. } | Stage::Announced { mv: Some(_), .. } = self.stage {
            let b = &mut self.boards[idx(mover)];
            let len = b.moves().len().saturating_sub(1);
            b.truncate(len);
        }
        self.stage = Stage::Idle;
        GameEvent::TakenBack { side: mover }
    }

    /// The mover presses the clock, completing the move (D.2.4). An illegal
    /// move is counted (Art. 7.5): the position before it is restored, the
    /// opponent gets the penalty time, and a second one loses the game.
    pub fn press(&mut self, now: Duration) -> Result<Said, GameError> {
        self.guard(now)?;
        let mover = self.turn_of_game_for_pending();
        let (mv, slip, text) = match self.stage.clone() {
            Stage::Announced { mv, slip, text } => (mv, slip, text),
            Stage::Made { .. } => return Err(GameError::NotAnnounced(mover)),
            Stage::Idle if self.mismatch_is_boards() => return Err(GameError::BoardsDiffer),
            Stage::Idle => {
                // 7.5.3: the clock pressed without a move made is penalised
                // as an illegal move.
                return self.step(now, |m, said| {
                    said.push(GameEvent::PressedWithoutMove { side: mover });
                    m.illegal_move(now, mover, said)
                });
            }
            Stage::Pressed { .. } => return Err(GameError::TooLate(!self.longer_board().turn())),
            Stage::Over(r) => return Err(GameError::GameOver(r)),
            Stage::Adjourned { .. } => return Err(GameError::Adjourned),
        };
        if let (Some(m), Some(s)) = (mv, slip) {
            let line = self.boards[idx(mover)].moves();
            return Err(GameError::SlipUncorrected {
                color: mover,
                mv: m,
                said: s,
                before: Box::new(self.position_after(&line[..line.len().saturating_sub(1)])),
            });
        }
        let unpromoted = self.unpromoted.take();
        self.step(now, |m, said| {
            let mut stands = false;
            let mv = match (mv, unpromoted) {
                (Some(mv), _) => mv,
                (None, Some(queen)) => {
                    // 7.5.2: the pawn on the last rank without a piece
                    // chosen becomes a queen, and the move is illegal.
                    said.push(GameEvent::UnpromotedCompleted { side: mover });
                    m.illegal_move(now, mover, said)?;
                    if m.result.is_some() {
                        return Ok(());
                    }
                    m.boards[idx(mover)]
                        .play(queen)
                        .map_err(|_| GameError::NoMove(mover))?;
                    let ply = m.boards[idx(mover)].moves().len() - 1;
                    let before = m.position_after(&m.boards[idx(mover)].moves()[..ply]);
                    said.push(GameEvent::BecameQueen {
                        side: mover,
                        mv: MoveAt { before, mv: queen },
                    });
                    queen
                }
                (None, None) => {
                    let pos = m.boards[idx(mover)].position().clone();
                    let described = m.vocab.as_described(&pos, &text);
                    match described.filter(|_| m.unsupervised_rapid()) {
                        // A.5.2 (B.3): without adequate supervision the
                        // illegal move stands, unless the opponent claims
                        // the win before his next move.
                        Some(d) if m.boards[idx(mover)].play_standing(d).is_ok() => {
                            stands = true;
                            d
                        }
                        _ => {
                            // Art. 7.5.1: an illegal move is completed by
                            // pressing; the position before it is restored,
                            // and Articles 4.3–4.7 apply to the move that
                            // replaces it: the piece he moved counts as
                            // touched.
                            m.stage = Stage::Idle;
                            said.push(GameEvent::IllegalCompleted { side: mover });
                            if let Some(from) = described.and_then(|d| d.from()) {
                                m.touched = Some((mover, from));
                            }
                            return m.illegal_move(now, mover, said);
                        }
                    }
                }
            };
            let events = m.clock.press(now).map_err(GameError::Clock)?;
            let remaining = m.clock.remaining(mover, now);
            let ply = m.record_press(mover, Some(remaining));
            m.stage = Stage::Pressed {
                mv,
                repeated: false,
            };
            let before = m.position_after(&m.boards[idx(mover)].moves()[..ply]);
            said.push(GameEvent::Pressed {
                side: mover,
                mv: MoveAt { before, mv },
                remaining,
            });
            m.unmarked_offer(ply, said);
            if stands {
                m.illegal_claim = Some(!mover);
                let event = GameEvent::WinClaimable {
                    side: !mover,
                    stands: true,
                };
                m.record(now, &event);
                said.push(event);
            }
            for e in events {
                if let ClockEvent::PeriodReached { color, added, .. } = e {
                    said.push(GameEvent::PeriodReached { side: color, added });
                }
            }
            if let Some(r) = m.boards[idx(mover)].result() {
                m.end(r, said);
            }
            Ok(())
        })
    }

    /// Keeps what the PGN shows of a completed move of `mover`: the time
    /// left after it (`None`: the time now), and whether a draw was offered
    /// with it. Returns the move's ply.
    fn record_press(&mut self, mover: Color, remaining: Option<Duration>) -> usize {
        if self.touched.is_some_and(|(c, _)| c == mover) {
            self.touched = None;
        }
        if self.claim_move.is_some_and(|(c, _)| c == mover) {
            self.claim_move = None;
        }
        let ply = self.boards[idx(mover)].moves().len().saturating_sub(1);
        if self.clk.len() <= ply {
            self.clk.resize(ply + 1, None);
            self.offers.resize(ply + 1, false);
        }
        self.clk[ply] = Some(remaining.unwrap_or_else(|| self.clock.remaining(mover, self.now)));
        self.offers[ply] = self.draw_offer == Some(mover);
        ply
    }

    /// A completed illegal move by `side` (Art. 7.5.5): the opponent gets
    /// extra time, and a second one ends the game. The one place both the
    /// press of an illegal move and the arbiter's penalty go through.
    pub(super) fn illegal_move(
        &mut self,
        now: Duration,
        side: Color,
        said: &mut Said,
    ) -> Result<(), GameError> {
        if self.unsupervised_rapid() {
            self.illegal_claim = Some(!side);
            let event = GameEvent::WinClaimable {
                side: !side,
                stands: false,
            };
            self.record(now, &event);
            said.push(event);
            return Ok(());
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
                    .map_err(GameError::Clock)?;
                let event = GameEvent::Penalty { side, to, extra };
                self.record(now, &event);
                said.push(event);
            }
            Some(IllegalMoveConsequence::GameEnds(r)) => self.end(r, said),
            None => {}
        }
        Ok(())
    }

    /// Rapid or blitz without adequate supervision (A.5, B.3).
    pub(super) fn unsupervised_rapid(&self) -> bool {
        self.config.unsupervised && self.boards[0].kind().is_rapid_or_blitz()
    }

    /// The move `input` describes in `pos`, legal or not (a move given as
    /// such, or the words of one).
    pub(super) fn described(&self, pos: &Chess, input: &MoveInput) -> Option<Move> {
        match input {
            MoveInput::Move(m) => Some(*m),
            MoveInput::Text(t) => self.vocab.as_described(pos, t),
        }
    }

    /// An illegal move that stands (A.5.2) at `ply` on a board, if `input`
    /// describes it in `pos`: how a scoresheet or the opponent's board
    /// records it.
    pub(super) fn standing_at(&self, ply: usize, pos: &Chess, input: &MoveInput) -> Option<Move> {
        let standing = self
            .boards
            .iter()
            .filter_map(|b| b.moves().get(ply).copied())
            .find(|m| !pos.is_legal(*m))?;
        (self.described(pos, input) == Some(standing)).then_some(standing)
    }

    /// The opponent repeats the announced move aloud (D.2.1). `heard` is
    /// what he repeated, if given; a different move is reported at once.
    pub fn repeat(&mut self, now: Duration, heard: Option<&MoveInput>) -> Result<Said, GameError> {
        self.guard(now)?;
        let Stage::Pressed { mv, .. } = self.stage.clone() else {
            let mover = self.turn_of_game_for_pending();
            return Err(GameError::NotPressed(mover));
        };
        let mover = !self.longer_board().turn();
        let before_len = self.boards[idx(mover)].moves().len() - 1;
        let before = self.position_after(&self.boards[idx(mover)].moves()[..before_len]);
        let heard_move = match heard {
            None => mv,
            Some(inp) => self.resolve(!mover, &before, inp)?,
        };
        self.step(now, |m, said| {
            let at = |mv| MoveAt {
                before: before.clone(),
                mv,
            };
            if heard_move == mv {
                m.stage = Stage::Pressed { mv, repeated: true };
                said.push(GameEvent::Repeated {
                    side: !mover,
                    mv: at(mv),
                });
            } else {
                said.push(GameEvent::RepeatDiffers {
                    side: !mover,
                    heard: at(heard_move),
                    mv: at(mv),
                });
            }
            Ok(())
        })
    }
}

/// A text that was made on the board: a move, legal or not. Words that are
/// no move (unknown words, an incomplete move, more than one legal move it
/// could mean) are refused instead: nothing was made. A pawn moved to the
/// last rank without a piece is made (Art. 7.5.2).
fn is_made(e: &GameError) -> bool {
    match e {
        GameError::BadMove { error, .. } => {
            matches!(error, ParseError::Illegal(_)) || unpromoted(e).is_some()
        }
        _ => false,
    }
}

/// A pawn moved to the last rank with no piece chosen: the moves that would
/// be meant differ only in the piece; the one it becomes is the queen
/// (Art. 7.5.2).
fn unpromoted(e: &GameError) -> Option<Move> {
    let GameError::BadMove {
        error: ParseError::Ambiguous(moves),
        ..
    } = e
    else {
        return None;
    };
    let first = moves.first()?;
    let same_squares = moves
        .iter()
        .all(|m| m.from() == first.from() && m.to() == first.to() && m.is_promotion());
    if !same_squares {
        return None;
    }
    moves
        .iter()
        .find(|m| m.promotion() == Some(Role::Queen))
        .copied()
}

/// Art. 4.3: `mv` moves the touched own piece on `square`, or takes the
/// touched opponent's piece there, or no such move was possible.
fn honours_touch(pos: &Chess, square: Square, mv: Move) -> bool {
    let Some(piece) = pos.board().piece_at(square) else {
        return true;
    };
    let legal = pos.legal_moves();
    if piece.color == pos.turn() {
        let movable = legal.iter().any(|m| m.from() == Some(square));
        !movable || mv.from() == Some(square)
    } else {
        let takeable = legal.iter().any(|m| m.to() == square && m.is_capture());
        !takeable || (mv.to() == square && mv.is_capture())
    }
}
