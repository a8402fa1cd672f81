//! Reading games from PGN text with the `pgn-reader` crate (pure: works on
//! any `std::io::Read`, the caller opens files).
//!
//! Comments, NAGs and variations are skipped; only the main line is kept.
//! `FEN`, `SetUp` and `Variant` headers are honoured (Chess960).

use std::io;
use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// One game as read from PGN: headers and main-line SAN, not yet checked.
#[derive(Debug, Clone, Default)]
pub struct PgnGame {
    /// Header pairs in file order.
    pub headers: Vec<(String, String)>,
    /// Main-line moves as written.
    pub sans: Vec<SanPlus>,
    /// Whether the game ended with a result marker (`1-0`, `*`, …); a game
    /// without one was probably cut short.
    pub terminated: bool,
    /// A problem the reader met in the headers (bad FEN), if any.
    pub header_error: Option<String>,
}

/// A PGN game checked move by move against the rules.
#[derive(Debug, Clone)]
pub struct ReplayedGame {
    /// Start position.
    pub start: Chess,
    /// Castling notation mode (Chess960 or standard).
    pub mode: CastlingMode,
    /// The moves of the main line, in order; `None` is a null move (`--`,
    /// `Z0`: no move recorded, the other side is to move).
    pub moves: Vec<Option<Move>>,
    /// Where replay stopped, if a move was not legal: (index, SAN, reason).
    pub error: Option<(usize, String, String)>,
}

impl PgnGame {
    /// A header value by (case-insensitive) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the game is Chess960 (a `Variant` header naming it).
    pub fn is_chess960(&self) -> bool {
        self.header("Variant").is_some_and(|v| {
            let v = v.to_ascii_lowercase().replace([' ', '-'], "");
            v.contains("960") || v.contains("fischerandom") || v.contains("fischerrandom")
        })
    }

    /// The start position and castling mode, from the headers.
    pub fn start(&self) -> Result<(Chess, CastlingMode), String> {
        let mode = if self.is_chess960() {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        match self.header("FEN") {
            None => Ok((Chess::default(), mode)),
            Some(fen) => position_from_fen(fen, mode).map(|p| (p, mode)),
        }
    }

    /// Plays the main line, stopping at the first move that is not legal.
    pub fn replay(&self) -> Result<ReplayedGame, String> {
        let (start, mode) = self.start()?;
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(self.sans.len());
        let mut error = None;
        for (i, san) in self.sans.iter().enumerate() {
            if san.san == shakmaty::san::San::Null {
                match pos.clone().swap_turn() {
                    Ok(p) => {
                        pos = p;
                        moves.push(None);
                        continue;
                    }
                    Err(_) => {
                        error = Some((i, san.to_string(), "null move while in check".into()));
                        break;
                    }
                }
            }
            match san.san.to_move(&pos) {
                Ok(m) => {
                    pos.play_unchecked(m);
                    moves.push(Some(m));
                }
                Err(e) => {
                    error = Some((i, san.to_string(), e.to_string()));
                    break;
                }
            }
        }
        Ok(ReplayedGame {
            start,
            mode,
            moves,
            error,
        })
    }
}

impl ReplayedGame {
    /// Each position with the move played from it (`None`: null move).
    pub fn steps(&self) -> impl Iterator<Item = (Chess, Option<Move>)> + '_ {
        let mut pos = self.start.clone();
        self.moves.iter().map(move |m| {
            let before = pos.clone();
            match m {
                Some(m) => pos.play_unchecked(*m),
                None => {
                    if let Ok(p) = pos.clone().swap_turn() {
                        pos = p;
                    }
                }
            }
            (before, *m)
        })
    }
}

/// Parses a FEN into a position; the error text says what was wrong.
pub fn position_from_fen(fen: &str, mode: CastlingMode) -> Result<Chess, String> {
    let fen: Fen = fen.trim().parse().map_err(|e| format!("{e}"))?;
    fen.into_position(mode).map_err(|e| format!("{e}"))
}

struct GameVisitor;

impl Visitor for GameVisitor {
    type Tags = PgnGame;
    type Movetext = PgnGame;
    type Output = PgnGame;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(PgnGame::default())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.headers.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(tags)
    }

    fn san(&mut self, game: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        game.sans.push(san);
        ControlFlow::Continue(())
    }

    fn outcome(
        &mut self,
        game: &mut Self::Movetext,
        _outcome: pgn_reader::Outcome,
    ) -> ControlFlow<Self::Output> {
        game.terminated = true;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _game: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, game: Self::Movetext) -> Self::Output {
        game
    }
}

/// Reads every game of a PGN stream.
pub fn read_games<R: io::Read>(input: R) -> io::Result<Vec<PgnGame>> {
    let mut reader = Reader::new(input);
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut GameVisitor)? {
        games.push(game);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_comments_variations_and_nags() {
        let pgn =
            b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 {best} e5 $1 (1... c5 2. Nf3) 2. Nf3 Nc6 *\n";
        let games = read_games(&pgn[..]).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].header("white"), Some("A"));
        let r = games[0].replay().unwrap();
        assert_eq!(r.moves.len(), 4);
        assert!(r.error.is_none());
    }

    #[test]
    fn illegal_move_stops_the_replay() {
        let pgn = b"1. e4 e5 2. Qxf7 *";
        let games = read_games(&pgn[..]).unwrap();
        assert!(games[0].terminated);
        let r = games[0].replay().unwrap();
        assert_eq!(r.moves.len(), 2);
        assert_eq!(r.error.as_ref().map(|e| e.0), Some(2));
    }

    #[test]
    fn cut_short_game_has_no_result_marker() {
        let games = read_games(&b"1. e4 e5 2. Nf3 Nc6 3. Bb"[..]).unwrap();
        assert!(!games[0].terminated);
    }

    #[test]
    fn null_move_passes_the_turn() {
        let games = read_games(&b"1. e4 Z0 2. d4 -- 3. c4 *"[..]).unwrap();
        let r = games[0].replay().unwrap();
        assert!(r.error.is_none(), "{:?}", r.error);
        assert_eq!(r.moves.len(), 5);
        assert_eq!(r.moves[1], None);
        let steps: Vec<_> = r.steps().collect();
        assert_eq!(steps[4].0.turn(), shakmaty::Color::White);
    }

    #[test]
    fn bad_fen_is_an_error_not_a_panic() {
        let pgn = b"[FEN \"this is no fen\"]\n\n1. e4 *";
        let games = read_games(&pgn[..]).unwrap();
        assert!(games[0].replay().is_err());
    }

    #[test]
    fn chess960_header_switches_mode() {
        let pgn = b"[Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n\n9. g3 *";
        let games = read_games(&pgn[..]).unwrap();
        let r = games[0].replay().unwrap();
        assert_eq!(r.mode, CastlingMode::Chess960);
        assert_eq!(r.moves.len(), 1);
    }
}
