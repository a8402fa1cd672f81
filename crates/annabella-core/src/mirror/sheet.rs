//! The scoresheets (Art. 8, Appendix D.2.7): each player records both
//! players' moves; a trailing `(=)` marks a draw offer (8.1.5).

use std::time::Duration;

use shakmaty::san::SanPlus;
use shakmaty::{Color, Position};

use super::{Entry, GameError, GameEvent, Mirror, MoveAt, MoveInput, Said, SheetEntry, idx};

impl Mirror {
    /// A player records an entry on his scoresheet (the next line: both
    /// players' moves are recorded). A trailing `(=)` marks a draw offer.
    pub fn sheet_entry(
        &mut self,
        now: Duration,
        sheet: Color,
        input: &MoveInput,
    ) -> Result<Said, GameError> {
        self.check_time(now)?;
        let moves = self.sheets[idx(sheet)].valid_moves();
        let valid_prefix = moves.len() == self.sheets[idx(sheet)].entries.len();
        let pos = self.position_after(&moves);
        let (raw, draw_offer) = match input {
            MoveInput::Text(t) => {
                let t = t.trim();
                match t.strip_suffix("(=)") {
                    Some(rest) => (MoveInput::Text(rest.trim().to_owned()), true),
                    None => (MoveInput::Text(t.to_owned()), false),
                }
            }
            MoveInput::Move(m) => (MoveInput::Move(*m), false),
        };
        let mv = if valid_prefix {
            self.resolve(sheet, &pos, &raw)
                .ok()
                .or_else(|| self.standing_at(moves.len(), &pos, &raw))
        } else {
            None
        };
        let text = match (mv, &raw) {
            (Some(m), _) if !pos.is_legal(m) => m.to_uci(self.config.mode).to_string(),
            (Some(m), _) => SanPlus::from_move(pos.clone(), m).to_string(),
            (None, MoveInput::Text(t)) => t.clone(),
            (None, MoveInput::Move(m)) => m.to_uci(self.config.mode).to_string(),
        };
        let mut said = Said::new();
        // Scoresheets are written after the game too: no game check.
        self.settle(now, &mut said)?;
        let ply = self.sheets[idx(sheet)].entries.len();
        self.sheets[idx(sheet)].entries.push(SheetEntry {
            text: text.clone(),
            mv,
            draw_offer,
            corrected: false,
        });
        let (side, number) = self.ply_number(ply);
        let entry = match mv {
            Some(mv) => Entry::Move(MoveAt { before: pos, mv }),
            None => Entry::Text(text),
        };
        said.push(GameEvent::SheetRecorded {
            sheet,
            number,
            side,
            entry,
            offer: draw_offer,
        });
        if !draw_offer && self.offers.get(ply).copied() == Some(true) {
            said.push(GameEvent::SheetOfferUnmarked {
                sheet,
                number,
                side,
            });
        }
        self.detect(&mut said);
        Ok(said)
    }

    /// The scoresheets that already hold the move at `ply`, completed with
    /// a draw offer, without its `(=)` mark (8.1.5).
    pub(super) fn unmarked_offer(&self, ply: usize, said: &mut Said) {
        if self.offers.get(ply).copied() != Some(true) {
            return;
        }
        let (side, number) = self.ply_number(ply);
        for sheet in [Color::White, Color::Black] {
            if self.sheets[idx(sheet)]
                .entries
                .get(ply)
                .is_some_and(|e| !e.draw_offer)
            {
                said.push(GameEvent::SheetOfferUnmarked {
                    sheet,
                    number,
                    side,
                });
            }
        }
    }
}
