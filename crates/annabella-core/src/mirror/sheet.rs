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

/// One row of a scoresheet as shown: a move number with White's and
/// Black's entries (`white` is `None` on the first row of a game that
/// starts with Black to move; `black` is `None` while Black's entry is
/// not written yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetRow {
    /// The move number.
    pub number: u32,
    /// White's entry, as shown.
    pub white: Option<String>,
    /// Black's entry, as shown.
    pub black: Option<String>,
}

impl Mirror {
    /// A player's scoresheet as every front end shows it (the full
    /// screen, `--plain`'s `sheet`, spoken): one text per entry, in the
    /// locale's notation with the check and mate signs, and the draw-offer
    /// mark `(=)` (8.1.5). From the first entry that is no legal move on,
    /// entries are shown as written.
    pub fn sheet_texts(&self, owner: Color) -> Vec<String> {
        let entries = self.sheet(owner).entries();
        let mut pos = Some(self.game().start().clone());
        let mut out = Vec::with_capacity(entries.len());
        for e in entries {
            let mut text = match (&mut pos, e.mv) {
                (Some(p), Some(m)) if p.is_legal(m) => {
                    let san = SanPlus::from_move_and_play_unchecked(p, m).to_string();
                    self.vocab().locale().display_san(&san)
                }
                _ => {
                    pos = None;
                    e.text.clone()
                }
            };
            if e.draw_offer {
                text.push_str(" (=)");
            }
            out.push(text);
        }
        out
    }

    /// A player's scoresheet as numbered rows ([`Mirror::sheet_texts`]
    /// paired by move number from the start position's).
    pub fn sheet_rows(&self, owner: Color) -> Vec<SheetRow> {
        let start = self.game().start();
        let mut number = start.fullmoves().get();
        let mut texts = self.sheet_texts(owner).into_iter();
        let mut rows = Vec::new();
        if start.turn() == Color::Black {
            match texts.next() {
                Some(black) => rows.push(SheetRow {
                    number,
                    white: None,
                    black: Some(black),
                }),
                None => return rows,
            }
            number += 1;
        }
        while let Some(white) = texts.next() {
            rows.push(SheetRow {
                number,
                white: Some(white),
                black: texts.next(),
            });
            number += 1;
        }
        rows
    }
}

#[cfg(test)]
mod display_tests {
    use super::*;
    use crate::mirror::Config;
    use crate::vocab::Vocabulary;

    fn mirror(fen: Option<&str>) -> Mirror {
        let mut config = Config::default();
        if let Some(f) = fen {
            config.start = crate::pgn::position_from_fen(f, shakmaty::CastlingMode::Standard)
                .expect("a legal FEN");
        }
        Mirror::new(Vocabulary::builtin("de").unwrap(), config, Duration::ZERO)
    }

    fn write(m: &mut Mirror, owner: Color, entries: &[&str]) {
        for e in entries {
            m.sheet_entry(Duration::ZERO, owner, &MoveInput::Text((*e).to_owned()))
                .unwrap_or_else(|err| panic!("{e}: {err:?}"));
        }
    }

    #[test]
    fn entries_are_shown_in_the_locale_with_signs_and_the_offer_mark() {
        let mut m = mirror(None);
        write(
            &mut m,
            Color::White,
            &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6(=)", "Qxf7"],
        );
        assert_eq!(
            m.sheet_texts(Color::White),
            ["e4", "e5", "Dh5", "Sc6", "Lc4", "Sf6 (=)", "Dxf7#"]
        );
        let rows = m.sheet_rows(Color::White);
        assert_eq!(rows.len(), 4);
        assert_eq!(
            rows[3],
            SheetRow {
                number: 4,
                white: Some("Dxf7#".into()),
                black: None
            }
        );
        // The other player's sheet is his own.
        assert!(m.sheet_rows(Color::Black).is_empty());
    }

    #[test]
    fn a_game_from_a_position_with_black_to_move_starts_with_black_half_row() {
        let mut m = mirror(Some(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7",
        ));
        write(&mut m, Color::Black, &["e5", "Nf3", "zz9"]);
        let rows = m.sheet_rows(Color::Black);
        assert_eq!(
            rows,
            [
                SheetRow {
                    number: 7,
                    white: None,
                    black: Some("e5".into())
                },
                SheetRow {
                    number: 8,
                    white: Some("Sf3".into()),
                    black: Some("zz9".into())
                },
            ]
        );
    }
}
