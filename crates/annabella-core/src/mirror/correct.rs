//! The arbiter's correction (D.2.9).
//!
//! - Boards agree (one may lag by the move being executed): each scoresheet
//!   entry that differs from the boards is corrected to the boards' move.
//! - Boards differ and the scoresheets agree, covering the point where the
//!   boards part: the deviating board is set to the scoresheets (and a board
//!   that agrees with them keeps the moves it has beyond them).
//! - Otherwise (the scoresheets differ, or do not reach that point): both
//!   boards and both scoresheets are retraced to the last move where all of
//!   them agree; the arbiter then adjusts the clocks with explicit, recorded
//!   adjustments ([`Mirror::arbiter_adjust`]).
//!
//! A made but uncompleted move (clock not pressed) is taken back first.
//! Every correction is recorded ([`Mirror::arbiter_record`]).

use std::time::Duration;

use shakmaty::{Color, Move, Position};

use super::{BoardsSet, GameError, GameEvent, Mirror, MoveInput, Said, Stage, idx};
use crate::clock::Clock;

/// What the arbiter's correction did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Correction {
    /// Nothing differed.
    Nothing,
    /// Scoresheet entries were corrected to the boards.
    Sheets,
    /// A board was set to the scoresheets.
    Boards,
    /// Everything was retraced to `ply` moves.
    Retraced(usize),
}

impl Mirror {
    /// Arbiter: corrects boards and scoresheets as D.2.9 prescribes.
    ///
    /// # Errors
    ///
    /// [`GameError::GameOver`], [`GameError::Adjourned`],
    /// [`GameError::TimeWentBackwards`].
    pub fn arbiter_correct(&mut self, now: Duration) -> Result<(Correction, Said), GameError> {
        self.check_time(now)?;
        if self.sealed().is_some() {
            return Err(GameError::Adjourned);
        }
        let was_over = self.result;
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        if was_over.is_none() && self.result.is_some() {
            return Ok((Correction::Nothing, said));
        }
        if let Some(r) = was_over {
            // After the game only the scoresheets can be corrected.
            let (w, b) = (self.boards[0].moves(), self.boards[1].moves());
            if w != b {
                return Err(GameError::GameOver(r));
            }
        }
        let mut records: Vec<GameEvent> = Vec::new();
        // 1. An uncompleted move is taken back.
        if matches!(self.stage, Stage::Made { .. } | Stage::Announced { .. }) {
            records.push(self.undo_unpressed());
        }
        let w = self.boards[0].moves().to_vec();
        let b = self.boards[1].moves().to_vec();
        let n = w.len().min(b.len());
        let diverge = (0..n).find(|&i| w[i] != b[i]);
        let sheet_moves = |c: Color| {
            self.sheets[idx(c)]
                .entries
                .iter()
                .map(|e| e.mv)
                .collect::<Vec<_>>()
        };
        let (sw, sb) = (sheet_moves(Color::White), sheet_moves(Color::Black));
        let kind;
        match diverge {
            None => {
                // Boards agree; the longer one is the record.
                let line = if w.len() >= b.len() { w } else { b };
                let mut changed = false;
                for c in [Color::White, Color::Black] {
                    for i in 0..self.sheets[idx(c)].entries.len().min(line.len()) {
                        if self.sheets[idx(c)].entries[i].mv != Some(line[i]) {
                            let old = self.sheets[idx(c)].entries[i].text.clone();
                            let new = self.san(&line[..i], line[i]);
                            let (side, number) = self.ply_number(i);
                            records.push(GameEvent::CorrectedSheet {
                                sheet: c,
                                number,
                                side,
                                old,
                                new: new.clone(),
                            });
                            let e = &mut self.sheets[idx(c)].entries[i];
                            e.text = new;
                            e.mv = Some(line[i]);
                            e.corrected = true;
                            changed = true;
                        }
                    }
                    self.reparse_sheet(c);
                }
                let lagging = self.boards[0].moves().len() != self.boards[1].moves().len();
                if lagging {
                    // The move being executed is put on the lagging board.
                    for c in [Color::White, Color::Black] {
                        self.set_line(c, &line);
                    }
                    self.stage = Stage::Idle;
                    records.push(GameEvent::CorrectedBoards {
                        boards: BoardsSet::Both,
                        last: self.last_of(line.len()),
                        turn: self.boards[0].turn(),
                    });
                    changed = true;
                }
                kind = if changed {
                    Correction::Sheets
                } else {
                    Correction::Nothing
                };
            }
            Some(d) => {
                let sheets_agree = (0..sw.len().min(sb.len()))
                    .all(|i| sw[i].is_some() && sw[i] == sb[i])
                    && sw.iter().chain(sb.iter()).all(Option::is_some);
                let reference: Vec<Move> = if sw.len() >= sb.len() { &sw } else { &sb }
                    .iter()
                    .map_while(|m| *m)
                    .collect();
                if sheets_agree && reference.len() > d {
                    let consistent = |line: &[Move]| {
                        let k = line.len().min(reference.len());
                        line[..k] == reference[..k]
                    };
                    let target = [&w, &b]
                        .into_iter()
                        .filter(|l| consistent(l) && l.len() > reference.len())
                        .max_by_key(|l| l.len())
                        .cloned()
                        .unwrap_or_else(|| reference.clone());
                    let mut fixed = Vec::new();
                    for c in [Color::White, Color::Black] {
                        if self.boards[idx(c)].moves() != target.as_slice() {
                            if !consistent(self.boards[idx(c)].moves()) {
                                fixed.push(c);
                            }
                            self.set_line(c, &target);
                        }
                    }
                    let boards = match fixed.as_slice() {
                        [c] => BoardsSet::One(*c),
                        _ => BoardsSet::Both,
                    };
                    records.push(GameEvent::CorrectedBoards {
                        boards,
                        last: self.last_of(target.len()),
                        turn: self.boards[0].turn(),
                    });
                    kind = Correction::Boards;
                } else {
                    // Retrace to where boards and scoresheets all agree.
                    let mut p = 0;
                    while p < d
                        && [&sw, &sb]
                            .iter()
                            .all(|s| s.get(p).is_none_or(|m| *m == Some(w[p])))
                    {
                        p += 1;
                    }
                    let target = w[..p].to_vec();
                    for c in [Color::White, Color::Black] {
                        self.set_line(c, &target);
                        self.sheets[idx(c)].entries.truncate(p);
                    }
                    let (_, number) = self.ply_number(d.min(p));
                    records.push(GameEvent::Retraced {
                        number,
                        last: self.last_of(p),
                        turn: self.boards[0].turn(),
                    });
                    kind = Correction::Retraced(p);
                }
                self.stage = Stage::Idle;
            }
        }
        let len = self.boards[0]
            .moves()
            .len()
            .max(self.boards[1].moves().len());
        self.clk.truncate(len);
        self.offers.truncate(len);
        self.sync_clock(now)?;
        if records.is_empty() {
            said.push(GameEvent::NothingToCorrect);
        }
        for event in records {
            self.record(now, &event);
            said.push(event);
        }
        self.mismatch = None;
        self.detect(&mut said);
        self.restart_after_mismatch(now, &mut said);
        Ok((kind, said))
    }

    /// The side and number of the last of `plies` moves, if any.
    fn last_of(&self, plies: usize) -> Option<(Color, u32)> {
        plies.checked_sub(1).map(|p| self.ply_number(p))
    }

    /// Sets the board of `c` to `line` (moves kept where they agree).
    fn set_line(&mut self, c: Color, line: &[Move]) {
        let b = &mut self.boards[idx(c)];
        let common = b
            .moves()
            .iter()
            .zip(line)
            .take_while(|(x, y)| x == y)
            .count();
        b.truncate(common);
        for m in &line[common..] {
            // Moves that stand though illegal (A.5.2) too.
            if b.play_standing(*m).is_err() {
                break;
            }
        }
    }

    /// Re-reads the entries of a scoresheet after a correction: entries
    /// that follow a corrected one are parsed again in the right position.
    fn reparse_sheet(&mut self, c: Color) {
        let mut pos = self.config.start.clone();
        let mut valid = true;
        let entries = self.sheets[idx(c)].entries.clone();
        let mut out = Vec::with_capacity(entries.len());
        for mut e in entries {
            let mv = if !valid {
                None
            } else if e.corrected {
                e.mv
            } else {
                let input = MoveInput::Text(e.text.clone());
                let ply = out.len();
                self.resolve(c, &pos, &input)
                    .ok()
                    .or_else(|| self.standing_at(ply, &pos, &input))
            };
            e.mv = mv;
            match mv {
                Some(m)
                    if pos.is_legal(m)
                        || self
                            .standing_at(out.len(), &pos, &MoveInput::Move(m))
                            .is_some() =>
                {
                    pos.play_unchecked(m)
                }
                _ => {
                    e.mv = None;
                    valid = false;
                }
            }
            out.push(e);
        }
        self.sheets[idx(c)].entries = out;
    }

    /// After boards changed: move counts follow the boards, and the clock
    /// runs for the side to move (rebuilt with the same remaining times if
    /// it ran for the other side).
    fn sync_clock(&mut self, now: Duration) -> Result<(), GameError> {
        let line = self.boards[0].moves().len();
        let start_black = usize::from(self.config.start.turn() == Color::Black);
        let black_moves = (line + start_black) / 2;
        let white_moves = line - black_moves;
        let turn = self.boards[0].turn();
        let running = self.clock.to_move();
        if running != Some(turn) && running.is_some() {
            let paused = self.clock.is_paused();
            let remaining = [
                self.clock.remaining(Color::White, now),
                self.clock.remaining(Color::Black, now),
            ];
            let mut clock = Clock::new(self.config.control.clone());
            clock.start(now, turn).map_err(GameError::Clock)?;
            for c in [Color::White, Color::Black] {
                clock
                    .set_remaining(now, c, remaining[idx(c)])
                    .map_err(GameError::Clock)?;
            }
            if paused {
                clock.pause(now).map_err(GameError::Clock)?;
            }
            self.clock = clock;
        }
        let as_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        self.clock.set_moves(Color::White, as_u32(white_moves));
        self.clock.set_moves(Color::Black, as_u32(black_moves));
        Ok(())
    }
}
