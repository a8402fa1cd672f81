//! PGN export of a board or a scoresheet (pure: returns the text).
//!
//! Seven Tag Roster, `TimeControl` (PGN standard form, e.g.
//! `40/5400+30:1800+30`), `SetUp`/`FEN` and `Variant "Chess960"` when needed,
//! `[%clk h:mm:ss]` after every move whose clock press was seen, draw offers
//! as `{(=)}` (a PGN comment: parentheses alone would start a variation),
//! and the arbiter's corrections as comments.

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

use super::{GameEvent, Mirror, hms, idx};
use crate::clock::{Increment, TimeControl};
use crate::rules::GameResult;

/// What to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PgnSource {
    /// The moves as executed on this player's board.
    Board(Color),
    /// This player's scoresheet.
    Sheet(Color),
}

/// A time control in the PGN standard's `TimeControl` tag form.
pub fn pgn_time_control(tc: &TimeControl) -> String {
    let inc = match tc.increment() {
        Increment::None => String::new(),
        Increment::Fischer(d) | Increment::SimpleDelay(d) | Increment::Bronstein(d) => {
            format!("+{}", d.as_secs())
        }
    };
    tc.periods()
        .iter()
        .map(|p| match p.moves {
            Some(n) => format!("{n}/{}{inc}", p.time.as_secs()),
            None => format!("{}{inc}", p.time.as_secs()),
        })
        .collect::<Vec<_>>()
        .join(":")
}

/// The result as PGN writes it: `1-0`, `0-1`, `1/2-1/2`, or `*` (no
/// result yet, or one the arbiter has still to decide).
pub fn result_token(r: Option<GameResult>) -> &'static str {
    match r {
        // No result yet, or one the arbiter has still to decide (III.6).
        None => "*",
        Some(r) if r.pending() => "*",
        Some(r) => match r.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        },
    }
}

fn escape_tag(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn comment(s: &str) -> String {
    format!("{{{}}}", s.replace('}', ")").replace('{', "("))
}

/// The words of the comments a PGN export writes (the core words
/// nothing itself).
pub trait PgnNotes {
    /// An arbiter's action or penalty, as a comment.
    fn record(&self, event: &GameEvent) -> String;
    /// The mark of a scoresheet entry the arbiter corrected.
    fn corrected(&self) -> String;
}

impl Mirror {
    /// The board that holds the game so far: the one with more moves when
    /// the other shows the same moves up to where it stops (it waits for
    /// the last move to be made on it, as after a mate, which ends the game
    /// at the press), else White's (boards that differ wait for the
    /// arbiter). A saved game never lacks a move that was made and pressed.
    pub fn game_board(&self) -> Color {
        let (w, b) = (
            self.boards[idx(Color::White)].moves(),
            self.boards[idx(Color::Black)].moves(),
        );
        if b.len() > w.len() && b.starts_with(w) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The game as PGN from `source`; `event`, `site` and `date`
    /// (`YYYY.MM.DD`) fill the Seven Tag Roster, `notes` words the
    /// comments.
    pub fn pgn(
        &self,
        source: PgnSource,
        event: &str,
        site: &str,
        date: &str,
        notes: &dyn PgnNotes,
    ) -> String {
        let (moves, offers, corrected): (Vec<Move>, Vec<bool>, Vec<bool>) = match source {
            PgnSource::Board(c) => {
                let moves = self.boards[idx(c)].moves().to_vec();
                let offers = (0..moves.len())
                    .map(|i| self.offers.get(i).copied().unwrap_or(false))
                    .collect();
                let n = moves.len();
                (moves, offers, vec![false; n])
            }
            PgnSource::Sheet(c) => {
                let entries = self.sheets[idx(c)].entries();
                let valid: Vec<_> = entries.iter().take_while(|e| e.mv.is_some()).collect();
                (
                    valid.iter().filter_map(|e| e.mv).collect(),
                    valid.iter().map(|e| e.draw_offer).collect(),
                    valid.iter().map(|e| e.corrected).collect(),
                )
            }
        };
        let name = |s: &str| {
            if s.is_empty() {
                "?".to_owned()
            } else {
                s.to_owned()
            }
        };
        let mut tags: Vec<(&str, String)> = vec![
            ("Event", name(event)),
            ("Site", name(site)),
            ("Date", name(date)),
            ("Round", "-".to_owned()),
            ("White", name(&self.config.white)),
            ("Black", name(&self.config.black)),
            ("Result", result_token(self.result).to_owned()),
            ("TimeControl", pgn_time_control(&self.config.control)),
        ];
        let chess960 = self.config.mode == CastlingMode::Chess960;
        if chess960 {
            tags.push(("Variant", "Chess960".to_owned()));
        }
        if chess960 || self.config.start != Chess::default() {
            tags.push(("SetUp", "1".to_owned()));
            tags.push((
                "FEN",
                Fen::from_position(&self.config.start, EnPassantMode::Legal).to_string(),
            ));
        }
        let mut out = String::new();
        for (k, v) in &tags {
            out.push_str(&format!("[{k} \"{}\"]\n", escape_tag(v)));
        }
        out.push('\n');
        let mut tokens: Vec<String> = Vec::new();
        if let Some(first) = self.notes.first().filter(|c| !c.is_empty()) {
            tokens.push(comment(first));
        }
        for rec in self.arbiter.iter().filter(|r| r.ply == 0) {
            tokens.push(comment(&notes.record(&rec.event)));
        }
        let mut pos = self.config.start.clone();
        let (first_color, first_number) = self.ply_number(0);
        for (i, m) in moves.iter().enumerate() {
            let (color, number) = self.ply_number(i);
            if color == Color::White {
                tokens.push(format!("{number}."));
            } else if i == 0 {
                debug_assert_eq!(first_color, Color::Black);
                tokens.push(format!("{first_number}..."));
            }
            if !pos.is_legal(*m) && !self.stood(i, *m) {
                break;
            }
            if pos.is_legal(*m) {
                tokens.push(SanPlus::from_move_and_play_unchecked(&mut pos, *m).to_string());
            } else {
                // An illegal move that stood (A.5.2): as it was made.
                tokens.push(m.to_uci(self.config.mode).to_string());
                pos.play_unchecked(*m);
            }
            let mut comments: Vec<String> = Vec::new();
            if let Some(c) = self.notes.get(i + 1).filter(|c| !c.is_empty()) {
                comments.push(c.clone());
            }
            if offers.get(i).copied().unwrap_or(false) {
                comments.push("(=)".to_owned());
            }
            if let PgnSource::Board(_) = source
                && let Some(Some(t)) = self.clk.get(i)
            {
                comments.push(format!("[%clk {}]", hms(*t)));
            }
            if corrected.get(i).copied().unwrap_or(false) {
                comments.push(notes.corrected());
            }
            for rec in self.arbiter.iter().filter(|r| r.ply == i + 1) {
                comments.push(notes.record(&rec.event));
            }
            if !comments.is_empty() {
                tokens.push(comment(&comments.join(" ")));
            }
        }
        tokens.push(result_token(self.result).to_owned());
        let mut line = String::new();
        for t in tokens {
            if !line.is_empty() && line.len() + 1 + t.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&t);
        }
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }
}
