//! Match rules on top of `shakmaty` (pure core, no I/O): legal moves,
//! automatic endings (checkmate, stalemate, dead position, fivefold
//! repetition, 75-move rule), draw claims by the player to move (threefold
//! repetition, 50-move rule), resignation, agreed draws, time forfeits, and
//! the illegal-move count of Art. 7.5.
//!
//! The match keeps the start position and the moves; everything else is
//! derived from them (the current position is a cache of replaying them).

use std::time::Duration;

pub mod dead;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{ByColor, CastlingMode, Chess, Color, EnPassantMode, Move, Outcome, Position};

/// How FIDE classifies a game by its time control (Art. 7.5, Appendices A
/// and B): penalties for illegal moves differ between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Standard (classical) play: 60 minutes or more for 60 moves.
    Standard,
    /// Rapid (Appendix A.1, 2023 Laws): more than 10 and less than 60
    /// minutes for 60 moves.
    Rapid,
    /// Blitz (Appendix B.1): 10 minutes or less for 60 moves.
    Blitz,
}

impl GameKind {
    /// Extra time the opponent receives after a completed illegal move
    /// (Art. 7.5.5) and after an incorrect draw claim (Art. 9.5.3): two
    /// minutes, and one minute in rapid and blitz (Appendix A.3, and B.3
    /// through it).
    pub fn penalty(self) -> Duration {
        match self {
            GameKind::Standard => Duration::from_secs(120),
            GameKind::Rapid | GameKind::Blitz => Duration::from_secs(60),
        }
    }

    /// Rapid or blitz (Appendices A and B).
    pub fn is_rapid_or_blitz(self) -> bool {
        self != GameKind::Standard
    }
}

/// The Chess960 start position number `id` (0–959, Scharnagl numbering;
/// 518 is the standard position), as Guideline II describes: the king
/// between the rooks, the bishops on squares of opposite colours, Black
/// mirroring White. `None` for a number above 959.
pub fn chess960_start(id: u16) -> Option<Chess> {
    use shakmaty::{Board, Role, Setup};
    if id > 959 {
        return None;
    }
    let mut back: [Option<Role>; 8] = [None; 8];
    let mut n = usize::from(id);
    // Light-squared bishop on b, d, f or h; dark-squared on a, c, e or g.
    back[n % 4 * 2 + 1] = Some(Role::Bishop);
    n /= 4;
    back[n % 4 * 2] = Some(Role::Bishop);
    n /= 4;
    let place_in_free = |slot: usize, role: Role, back: &mut [Option<Role>; 8]| {
        let free: Vec<usize> = (0..8).filter(|&i| back[i].is_none()).collect();
        back[free[slot]] = Some(role);
    };
    place_in_free(n % 6, Role::Queen, &mut back);
    n /= 6;
    // The two knights on two of the five remaining squares (KRN table).
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n];
    place_in_free(b, Role::Knight, &mut back);
    place_in_free(a, Role::Knight, &mut back);
    // Rook, king, rook on the last three squares, in that order.
    for role in [Role::Rook, Role::King, Role::Rook] {
        place_in_free(0, role, &mut back);
    }
    let mut board = Board::empty();
    for (i, role) in back.iter().enumerate() {
        let role = (*role)?;
        let file = shakmaty::File::new(i as u32);
        board.set_piece_at(
            shakmaty::Square::from_coords(file, shakmaty::Rank::First),
            role.of(Color::White),
        );
        board.set_piece_at(
            shakmaty::Square::from_coords(file, shakmaty::Rank::Eighth),
            role.of(Color::Black),
        );
        board.set_piece_at(
            shakmaty::Square::from_coords(file, shakmaty::Rank::Second),
            Role::Pawn.of(Color::White),
        );
        board.set_piece_at(
            shakmaty::Square::from_coords(file, shakmaty::Rank::Seventh),
            Role::Pawn.of(Color::Black),
        );
    }
    let mut setup = Setup::empty();
    setup.board = board;
    setup.castling_rights = setup.board.by_role(Role::Rook) & shakmaty::Bitboard::BACKRANKS;
    <Chess as shakmaty::FromSetup>::from_setup(setup, CastlingMode::Chess960).ok()
}

/// The position after the move `m` that is not legal in `pos`, if the
/// game can go on from it (Appendix A.5.2: the illegal move stands): a
/// valid position with the other side to move. `None` otherwise (a king
/// left in check, a king captured, a pawn on its first or last rank).
pub fn standing_after(pos: &Chess, m: Move, mode: CastlingMode) -> Option<Chess> {
    use shakmaty::{FromSetup, Role};
    let from = m.from()?;
    let piece = pos.board().piece_at(from)?;
    if piece.color != pos.turn() || m.capture() == Some(Role::King) {
        return None;
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    Chess::from_setup(after.to_setup(EnPassantMode::Legal), mode).ok()?;
    Some(after)
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// Art. 5.1.1.
    Checkmate,
    /// Art. 5.2.1.
    Stalemate,
    /// Art. 5.2.2: no series of legal moves can mate (see [`dead`]).
    DeadPosition,
    /// Art. 9.6.1: automatic.
    FivefoldRepetition,
    /// Art. 9.6.2: automatic.
    SeventyFiveMoves,
    /// Art. 9.2: claimed by the player to move.
    ThreefoldRepetition,
    /// Art. 9.3: claimed by the player to move.
    FiftyMoves,
    /// Art. 5.1.2.
    Resignation,
    /// Art. 5.2.3 / 9.1.
    Agreement,
    /// Art. 7.5.5: second illegal move.
    IllegalMoves,
    /// Appendix A.5.2 (B.3): an illegal move the opponent claimed, in
    /// rapid or blitz without adequate supervision.
    IllegalMoveClaimed,
    /// Art. 6.9: flag fall.
    Time,
    /// Guideline III.5.1 / III.5.2: the arbiter agrees with the draw claim
    /// of `by` (the player with less than two minutes) that the opponent
    /// cannot win by normal means or is making no effort to win.
    QuickplayClaim,
    /// Guideline III.5.2: the flag of `by` fell while a postponed claim
    /// awaited the arbiter, who declared a draw because the opponent could
    /// not win by normal means or was not making sufficient attempts.
    QuickplayFlag,
    /// Guideline III.6: without an arbiter, the draw claim of `by`
    /// concluded the game and is referred to the appointed arbiter; the
    /// result is not known yet ([`GameResult::pending`]).
    QuickplayReferred,
    /// Guideline I.8: the sealed move of an adjourned game is ambiguous,
    /// unintelligible or illegal.
    SealedMove,
    /// Guideline I.10: a player arrived after the default time (or not at
    /// all) when the adjourned game was resumed.
    Absence,
}

/// The result of a game and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct GameResult {
    /// Winner, or `None` for a draw.
    #[serde(with = "color_opt")]
    pub winner: Option<Color>,
    /// Why the game ended.
    pub termination: Termination,
    /// The player the ending concerns: who claimed, resigned, flagged or
    /// moved illegally (`None` for endings that concern nobody in
    /// particular, such as stalemate).
    #[serde(with = "color_opt")]
    pub by: Option<Color>,
}

impl GameResult {
    /// `true` while the result waits for an arbiter's decision (a claim
    /// referred under Guideline III.6): no winner and no draw yet (PGN `*`).
    pub fn pending(&self) -> bool {
        self.termination == Termination::QuickplayReferred
    }

    /// As a shakmaty outcome (for PGN result strings); unknown while the
    /// result is [`pending`](Self::pending).
    pub fn outcome(&self) -> Outcome {
        if self.pending() {
            return Outcome::Unknown;
        }
        match self.winner {
            Some(winner) => Outcome::Known(shakmaty::KnownOutcome::Decisive { winner }),
            None => Outcome::Known(shakmaty::KnownOutcome::Draw),
        }
    }
}

mod color_opt {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use shakmaty::Color;

    pub fn serialize<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        c.map(|c| c.char().to_string()).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
        let v: Option<String> = Option::deserialize(d)?;
        match v.as_deref() {
            None => Ok(None),
            Some("w") => Ok(Some(Color::White)),
            Some("b") => Ok(Some(Color::Black)),
            Some(other) => Err(serde::de::Error::custom(format!(
                "colour must be \"w\" or \"b\", not {other:?}"
            ))),
        }
    }
}

/// Why a move or request was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver(GameResult),
    /// The move is not legal in the current position.
    #[error("the move is not legal in this position")]
    IllegalMove,
    /// Only the player to move may claim (Art. 9.2, 9.3).
    #[error("only the player to move may claim a draw")]
    NotYourTurn,
    /// A draw claim that the position does not support.
    #[error("the draw claim is not correct")]
    ClaimRejected {
        /// How often the position (after the intended move, if any) has
        /// appeared.
        repetitions: usize,
        /// Half-moves without pawn move or capture.
        halfmoves: u32,
    },
}

/// What happens after an illegal move is completed (Art. 7.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IllegalMoveConsequence {
    /// First illegal move: the opponent receives extra time.
    Penalty {
        /// Who receives the time.
        to: Color,
        /// How much.
        extra: Duration,
    },
    /// Second illegal move: the game ends (loss, or draw if the opponent
    /// cannot mate).
    GameEnds(GameResult),
}

/// The positions of a recorded game: the start, then the position after
/// each move, as long as the moves are legal (a record read from a file,
/// whose positions are computed once, where it is read).
pub fn positions(start: &Chess, moves: &[Move]) -> Vec<Chess> {
    let mut out = Vec::with_capacity(moves.len() + 1);
    out.push(start.clone());
    let mut pos = start.clone();
    for m in moves {
        if !pos.is_legal(*m) {
            break;
        }
        pos.play_unchecked(*m);
        out.push(pos.clone());
    }
    out
}

/// A game under the FIDE Laws.
#[derive(Debug, Clone)]
pub struct Match {
    start: Chess,
    mode: CastlingMode,
    kind: GameKind,
    moves: Vec<Move>,
    /// The position before each move (`history[i]` before `moves[i]`).
    history: Vec<Chess>,
    pos: Chess,
    illegal: ByColor<u8>,
    result: Option<GameResult>,
}

impl Default for Match {
    fn default() -> Match {
        Match::new(Chess::default(), CastlingMode::Standard, GameKind::Standard)
    }
}

impl Match {
    /// A match from a start position.
    pub fn new(start: Chess, mode: CastlingMode, kind: GameKind) -> Match {
        let mut m = Match {
            pos: start.clone(),
            start,
            mode,
            kind,
            moves: Vec::new(),
            history: Vec::new(),
            illegal: ByColor::new_with(|_| 0),
            result: None,
        };
        m.result = m.automatic_ending();
        m
    }

    /// The start position.
    pub fn start(&self) -> &Chess {
        &self.start
    }

    /// Castling mode (Chess960 or standard).
    pub fn mode(&self) -> CastlingMode {
        self.mode
    }

    /// The kind of game (for penalties).
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// The position after the first `ply` moves (the start for 0, the
    /// current position for all of them, `None` beyond): the game's own
    /// history, so no front end replays moves.
    pub fn position_at(&self, ply: usize) -> Option<&Chess> {
        match ply.cmp(&self.moves.len()) {
            std::cmp::Ordering::Less => self.history.get(ply),
            std::cmp::Ordering::Equal => Some(&self.pos),
            std::cmp::Ordering::Greater => None,
        }
    }

    /// The position before the last move (the start if there is none).
    pub fn position_before_last(&self) -> &Chess {
        self.history.last().unwrap_or(&self.start)
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The result, once the game has ended.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Illegal moves completed by `color` so far.
    pub fn illegal_moves(&self, color: Color) -> u8 {
        *self.illegal.get(color)
    }

    /// Plays a legal move; returns the result if the move ended the game.
    pub fn play(&mut self, m: Move) -> Result<Option<GameResult>, RuleError> {
        if let Some(r) = self.result {
            return Err(RuleError::GameOver(r));
        }
        if !self.pos.is_legal(m) {
            return Err(RuleError::IllegalMove);
        }
        self.history.push(self.pos.clone());
        self.pos.play_unchecked(m);
        self.moves.push(m);
        self.result = self.automatic_ending();
        Ok(self.result)
    }

    /// Plays a move that is not legal but stands (Appendix A.5.2: in rapid
    /// or blitz without adequate supervision, an illegal move nobody
    /// claimed stays on the board), when the position it leaves is one
    /// the game can go on from (a valid position with the other side to
    /// move). Returns the result if it ended the game.
    pub fn play_standing(&mut self, m: Move) -> Result<Option<GameResult>, RuleError> {
        if let Some(r) = self.result {
            return Err(RuleError::GameOver(r));
        }
        if self.pos.is_legal(m) {
            return self.play(m);
        }
        if standing_after(&self.pos, m, self.mode).is_none() {
            return Err(RuleError::IllegalMove);
        }
        self.history.push(self.pos.clone());
        self.pos.play_unchecked(m);
        self.moves.push(m);
        self.result = self.automatic_ending();
        Ok(self.result)
    }

    /// Takes back moves so that `len` remain (slip correction, arbiter
    /// correction); clears a result that those moves had caused.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.moves.len() {
            return;
        }
        self.moves.truncate(len);
        if let Some(pos) = self.history.get(len) {
            self.pos = pos.clone();
        }
        self.history.truncate(len);
        self.result = self.automatic_ending();
    }

    /// Endings that need no claim, checked after every move.
    fn automatic_ending(&self) -> Option<GameResult> {
        let pos = &self.pos;
        let ending = |winner, termination| {
            Some(GameResult {
                winner,
                termination,
                by: None,
            })
        };
        if pos.is_checkmate() {
            return ending(Some(!pos.turn()), Termination::Checkmate);
        }
        if pos.is_stalemate() {
            return ending(None, Termination::Stalemate);
        }
        if dead::is_dead(pos) {
            return ending(None, Termination::DeadPosition);
        }
        if pos.halfmoves() >= 150 {
            return ending(None, Termination::SeventyFiveMoves);
        }
        if self.repetitions() >= 5 {
            return ending(None, Termination::FivefoldRepetition);
        }
        None
    }

    /// How often the current position has appeared (same player to move,
    /// same pieces, same castling and en passant possibilities), counting
    /// the current occurrence.
    pub fn repetitions(&self) -> usize {
        self.repetitions_of(&self.pos, &[])
    }

    /// Counts occurrences of `target` in the game extended by `extra`.
    fn repetitions_of(&self, target: &Chess, extra: &[Move]) -> usize {
        let key: Zobrist64 = target.zobrist_hash(EnPassantMode::Legal);
        let same = |p: &Chess| p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal) == key;
        let mut count =
            self.history.iter().filter(|p| same(p)).count() + usize::from(same(&self.pos));
        // The positions after the extra moves (a move written but not yet
        // made: its position counts once it is made).
        let mut pos = self.pos.clone();
        for m in extra {
            pos.play_unchecked(*m);
            if same(&pos) {
                count += 1;
            }
        }
        count
    }

    /// A draw claim by `by` (Art. 9.2 and 9.3), either on the current
    /// position or, with `intended`, on the position after the move the
    /// player has written down and declares to make (which is then played).
    pub fn claim_draw(
        &mut self,
        by: Color,
        intended: Option<Move>,
    ) -> Result<GameResult, RuleError> {
        if let Some(r) = self.result {
            return Err(RuleError::GameOver(r));
        }
        if by != self.turn() {
            return Err(RuleError::NotYourTurn);
        }
        let (target, extra) = match intended {
            Some(m) => {
                if !self.pos.is_legal(m) {
                    return Err(RuleError::IllegalMove);
                }
                let mut p = self.pos.clone();
                p.play_unchecked(m);
                (p, vec![m])
            }
            None => (self.pos.clone(), Vec::new()),
        };
        let repetitions = self.repetitions_of(&target, &extra);
        let halfmoves = target.halfmoves();
        let termination = if repetitions >= 3 {
            Termination::ThreefoldRepetition
        } else if halfmoves >= 100 {
            Termination::FiftyMoves
        } else {
            return Err(RuleError::ClaimRejected {
                repetitions,
                halfmoves,
            });
        };
        if let Some(m) = intended {
            self.play(m)?;
            if let Some(r) = self.result {
                // The move itself ended the game (e.g. mate): that stands.
                return Ok(r);
            }
        }
        let r = GameResult {
            winner: None,
            termination,
            by: Some(by),
        };
        self.result = Some(r);
        Ok(r)
    }

    /// Records a completed illegal move by `by` (Art. 7.5): the first gives
    /// the opponent extra time, the second ends the game.
    pub fn record_illegal_move(&mut self, by: Color) -> IllegalMoveConsequence {
        let count = self.illegal.get_mut(by);
        *count = count.saturating_add(1);
        if *count >= 2 {
            let r = self.end_against(by, Termination::IllegalMoves);
            IllegalMoveConsequence::GameEnds(r)
        } else {
            IllegalMoveConsequence::Penalty {
                to: !by,
                extra: self.kind.penalty(),
            }
        }
    }

    /// Appendix A.5.2: the game is lost by `by` for an illegal move his
    /// opponent claimed (a draw if the opponent cannot checkmate).
    pub fn lose_for_illegal_move(&mut self, by: Color) -> GameResult {
        self.end_against(by, Termination::IllegalMoveClaimed)
    }

    /// `by` resigns.
    pub fn resign(&mut self, by: Color) -> Result<GameResult, RuleError> {
        if let Some(r) = self.result {
            return Err(RuleError::GameOver(r));
        }
        let r = GameResult {
            winner: Some(!by),
            termination: Termination::Resignation,
            by: Some(by),
        };
        self.result = Some(r);
        Ok(r)
    }

    /// Both players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<GameResult, RuleError> {
        if let Some(r) = self.result {
            return Err(RuleError::GameOver(r));
        }
        let r = GameResult {
            winner: None,
            termination: Termination::Agreement,
            by: None,
        };
        self.result = Some(r);
        Ok(r)
    }

    /// `flagged`'s time has run out (Art. 6.9): a loss, or a draw if the
    /// opponent cannot mate by any series of legal moves.
    pub fn flag_fall(&mut self, flagged: Color) -> Result<GameResult, RuleError> {
        if let Some(r) = self.result {
            return Err(RuleError::GameOver(r));
        }
        Ok(self.end_against(flagged, Termination::Time))
    }

    /// Guideline I.8: `by`'s sealed move is ambiguous, unintelligible or
    /// illegal: a loss, or a draw if the opponent cannot mate by any series
    /// of legal moves (the exception of Article 6.9, which I.8 names).
    pub fn sealed_move_invalid(&mut self, by: Color) -> Result<GameResult, RuleError> {
        if let Some(r) = self.result {
            return Err(RuleError::GameOver(r));
        }
        Ok(self.end_against(by, Termination::SealedMove))
    }

    /// Guideline I.10: `absent` did not arrive within the default time at
    /// the resumption of an adjourned game: a loss (whatever the material).
    pub fn absence(&mut self, absent: Color) -> Result<GameResult, RuleError> {
        if let Some(r) = self.result {
            return Err(RuleError::GameOver(r));
        }
        let r = GameResult {
            winner: Some(!absent),
            termination: Termination::Absence,
            by: Some(absent),
        };
        self.result = Some(r);
        Ok(r)
    }

    fn end_against(&mut self, loser: Color, termination: Termination) -> GameResult {
        let winner = dead::can_ever_checkmate(&self.pos, !loser).then_some(!loser);
        let r = GameResult {
            winner,
            termination,
            by: Some(loser),
        };
        self.result = Some(r);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::san::San;

    fn play(m: &mut Match, sans: &str) {
        for s in sans.split_whitespace() {
            let mv = San::from_ascii(s.as_bytes())
                .unwrap()
                .to_move(m.position())
                .unwrap();
            m.play(mv).unwrap();
        }
    }

    fn from_fen(fen: &str) -> Match {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        Match::new(pos, CastlingMode::Standard, GameKind::Standard)
    }

    #[test]
    fn fools_mate_is_checkmate_and_further_moves_are_refused() {
        let mut m = Match::default();
        play(&mut m, "f3 e5 g4");
        let qh4 = San::from_ascii(b"Qh4")
            .unwrap()
            .to_move(m.position())
            .unwrap();
        let r = m.play(qh4).unwrap().unwrap();
        assert_eq!(r.winner, Some(Color::Black));
        assert_eq!(r.termination, Termination::Checkmate);
        assert!(matches!(m.play(qh4), Err(RuleError::GameOver(_))));
    }

    #[test]
    fn stalemate_and_dead_position_are_automatic_draws() {
        let mut m = from_fen("7k/5Q2/8/6K1/8/8/8/8 w - - 0 1");
        play(&mut m, "Kg6");
        assert_eq!(
            m.result().map(|r| r.termination),
            Some(Termination::Stalemate)
        );
        let mut s = from_fen("k7/8/1QK5/8/8/8/8/8 b - - 0 1");
        assert_eq!(
            s.result().map(|r| r.termination),
            Some(Termination::Stalemate)
        );
        assert!(s.resign(Color::Black).is_err());
        let mut d = from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1");
        assert_eq!(
            d.result().map(|r| r.termination),
            Some(Termination::DeadPosition)
        );
        assert!(d.agree_draw().is_err());
    }

    #[test]
    fn threefold_claim_needs_three_occurrences_and_the_turn() {
        let mut m = Match::default();
        play(&mut m, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        // The start position has appeared twice; now Black is to move.
        assert!(matches!(
            m.claim_draw(Color::White, None),
            Err(RuleError::NotYourTurn)
        ));
        // Black intends Ng8: the start position would appear a third time.
        let ng8 = San::from_ascii(b"Ng8")
            .unwrap()
            .to_move(m.position())
            .unwrap();
        let before = m.clone();
        assert!(matches!(
            m.clone().claim_draw(Color::Black, None),
            Err(RuleError::ClaimRejected { repetitions: 2, .. })
        ));
        let r = m.claim_draw(Color::Black, Some(ng8)).unwrap();
        assert_eq!(r.termination, Termination::ThreefoldRepetition);
        assert_eq!(m.moves().len(), before.moves().len() + 1);
    }

    #[test]
    fn fivefold_repetition_ends_the_game_without_a_claim() {
        let mut m = Match::default();
        for _ in 0..3 {
            play(&mut m, "Nf3 Nf6 Ng1 Ng8");
        }
        assert_eq!(m.repetitions(), 4);
        assert!(m.result().is_none());
        play(&mut m, "Nf3 Nf6 Ng1");
        let ng8 = San::from_ascii(b"Ng8")
            .unwrap()
            .to_move(m.position())
            .unwrap();
        let r = m.play(ng8).unwrap().unwrap();
        assert_eq!(r.termination, Termination::FivefoldRepetition);
    }

    #[test]
    fn fifty_and_seventy_five_move_rules() {
        let mut m = from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 99 80");
        let ra2 = San::from_ascii(b"Ra2")
            .unwrap()
            .to_move(m.position())
            .unwrap();
        // 99 half-moves now: a claim on the current position fails, with the
        // intended move it succeeds.
        assert!(matches!(
            m.clone().claim_draw(Color::White, None),
            Err(RuleError::ClaimRejected { halfmoves: 99, .. })
        ));
        let r = m.claim_draw(Color::White, Some(ra2)).unwrap();
        assert_eq!(r.termination, Termination::FiftyMoves);
        let mut m = from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 149 100");
        let r = m.play(ra2).unwrap().unwrap();
        assert_eq!(r.termination, Termination::SeventyFiveMoves);
    }

    #[test]
    fn mate_on_the_75th_move_is_mate() {
        let mut m = from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100");
        let ra8 = San::from_ascii(b"Ra8")
            .unwrap()
            .to_move(m.position())
            .unwrap();
        let r = m.play(ra8).unwrap().unwrap();
        assert_eq!(r.termination, Termination::Checkmate);
    }

    #[test]
    fn illegal_moves_penalty_then_loss_or_draw() {
        let mut m = Match::default();
        assert_eq!(
            m.record_illegal_move(Color::White),
            IllegalMoveConsequence::Penalty {
                to: Color::Black,
                extra: Duration::from_secs(120)
            }
        );
        match m.record_illegal_move(Color::White) {
            IllegalMoveConsequence::GameEnds(r) => {
                assert_eq!(r.winner, Some(Color::Black));
                assert_eq!(r.termination, Termination::IllegalMoves);
            }
            other => panic!("{other:?}"),
        }
        // Opponent with a bare king cannot mate: draw.
        let mut d = from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 0 1");
        d.record_illegal_move(Color::White);
        let IllegalMoveConsequence::GameEnds(r) = d.record_illegal_move(Color::White) else {
            panic!("second illegal move must end the game")
        };
        assert_eq!(r.winner, None);
        // Rapid: one minute.
        let mut rapid = Match::new(Chess::default(), CastlingMode::Standard, GameKind::Rapid);
        assert_eq!(
            rapid.record_illegal_move(Color::Black),
            IllegalMoveConsequence::Penalty {
                to: Color::White,
                extra: Duration::from_secs(60)
            }
        );
    }

    #[test]
    fn flag_fall_against_bare_king_is_a_draw() {
        let mut m = from_fen("8/8/4k3/8/8/4K3/8/R7 b - - 0 1");
        // Black flags; White (rook) can mate: White wins.
        assert_eq!(
            m.clone().flag_fall(Color::Black).unwrap().winner,
            Some(Color::White)
        );
        // White flags; Black (bare king) cannot mate: draw.
        assert_eq!(m.flag_fall(Color::White).unwrap().winner, None);
    }

    #[test]
    fn a_move_that_locks_every_pawn_ends_the_game_as_a_dead_position() {
        // Before g4 White's king can walk in through g4 and take g5; after
        // it every pawn is locked and both kings are fenced in (see
        // rules::dead's tests for the wall).
        let mut m = from_fen("8/8/3k4/p1p1p1p1/P1P1P3/6P1/3K4/8 w - - 0 1");
        assert_eq!(m.result(), None);
        play(&mut m, "g4");
        assert_eq!(
            m.result(),
            Some(GameResult {
                winner: None,
                termination: Termination::DeadPosition,
                by: None
            })
        );
    }

    #[test]
    fn flag_fall_and_illegal_moves_against_a_queen_that_must_be_taken() {
        // White has a queen, but Black's only legal move takes it; Black's
        // h-pawn can still queen and mate. Not insufficient material, yet
        // White cannot mate by any series of legal moves (Art. 6.9).
        let m = from_fen("k7/1Q6/8/8/8/8/7p/4K3 b - - 0 1");
        assert_eq!(m.result(), None);
        assert_eq!(m.clone().flag_fall(Color::Black).unwrap().winner, None);
        assert_eq!(
            m.clone().flag_fall(Color::White).unwrap().winner,
            Some(Color::Black)
        );
        let mut illegal = m.clone();
        illegal.record_illegal_move(Color::Black);
        let IllegalMoveConsequence::GameEnds(r) = illegal.record_illegal_move(Color::Black) else {
            panic!("second illegal move must end the game")
        };
        assert_eq!((r.winner, r.termination), (None, Termination::IllegalMoves));
    }

    #[test]
    fn truncate_replays_and_reopens_the_game() {
        let mut m = Match::default();
        play(&mut m, "f3 e5 g4 Qh4");
        assert!(m.result().is_some());
        m.truncate(3);
        assert!(m.result().is_none());
        assert_eq!(m.moves().len(), 3);
        let mut fresh = Match::default();
        play(&mut fresh, "f3 e5 g4");
        assert_eq!(m.position(), fresh.position());
    }

    #[test]
    fn chess960_numbering_matches_known_positions() {
        let fen = |id| {
            let pos = chess960_start(id).unwrap();
            assert_eq!(pos.castles().castling_rights().count(), 4, "{id}");
            Fen::from_position(&pos, EnPassantMode::Legal).to_string()
        };
        let board = |id| fen(id).split(' ').next().unwrap().to_owned();
        // Known positions of the Scharnagl numbering.
        assert_eq!(board(518), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
        assert_eq!(board(0), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR");
        assert_eq!(board(959), "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB");
        assert!(chess960_start(960).is_none());
        // Every one is valid and distinct, with the king between the rooks
        // and bishops on opposite colours.
        let mut seen = std::collections::HashSet::new();
        for id in 0..960 {
            let pos = chess960_start(id).unwrap();
            let rank: String = fen(id)
                .split('/')
                .next_back()
                .unwrap()
                .chars()
                .take(8)
                .collect();
            assert!(seen.insert(rank.clone()), "{id} repeats {rank}");
            let r1 = rank.find('R').unwrap();
            let r2 = rank.rfind('R').unwrap();
            let k = rank.find('K').unwrap();
            assert!(r1 < k && k < r2, "{rank}");
            let b1 = rank.find('B').unwrap();
            let b2 = rank.rfind('B').unwrap();
            assert_ne!(b1 % 2, b2 % 2, "{rank}");
            assert!(pos.legal_moves().len() >= 18, "{rank}");
        }
    }

    #[test]
    fn result_serializes_with_colour_letters() {
        let r = GameResult {
            winner: Some(Color::White),
            termination: Termination::Time,
            by: Some(Color::Black),
        };
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(json, r#"{"winner":"w","termination":"time","by":"b"}"#);
        assert_eq!(serde_json::from_str::<GameResult>(&json).unwrap(), r);
    }
}
