//! From tokens to the one legal move they mean, or a typed reason why not.

use shakmaty::{CastlingSide, Chess, Color, File, Move, MoveList, Position, Rank, Role, Square};

use super::lex::Token;

/// What a phrase says about a move; every `None` means "not said".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MoveSpec {
    /// Castling, if the phrase names it.
    pub castle: Option<CastlingSide>,
    /// The moving piece, if named.
    pub role: Option<Role>,
    /// Origin file (disambiguation or a full from-square).
    pub from_file: Option<File>,
    /// Origin rank (disambiguation or a full from-square).
    pub from_rank: Option<Rank>,
    /// Destination square.
    pub to: Option<Square>,
    /// A capture word was said.
    pub capture: bool,
    /// "en passant" was said.
    pub en_passant: bool,
    /// The piece a pawn promotes to.
    pub promotion: Option<Role>,
}

impl MoveSpec {
    fn origin_square(&self) -> Option<Square> {
        match (self.from_file, self.from_rank) {
            (Some(f), Some(r)) => Some(Square::from_coords(f, r)),
            _ => None,
        }
    }
}

/// Why a sequence of tokens is not a move description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecProblem {
    /// No destination square (e.g. only "Springer").
    NoDestination,
    /// Words that cannot be put together (two pieces before a square, a
    /// square after the promotion piece, …).
    Garbled,
}

/// Builds a [`MoveSpec`] from one reading of a phrase.
///
/// Grammar, in order: `[piece] [origin] [capture|to] destination [en
/// passant] [promotion-word] [promotion piece] [check|mate]`, where origin
/// is a file, a rank or a square; or a castling word with an optional
/// check/mate word.
///
/// Two rules keep every reading of a phrase one move description:
/// - check and mate words end a move (only en passant or another check or
///   mate word may follow), so Arabic "كش ملك" (check) is never also "كش"
///   (check) followed by a king;
/// - a king is never told apart from another king: it takes no from-file
///   or from-rank alone (a whole from-square is the long form), so Hebrew
///   `מהד2` is the queen (מה) to d2, never the king (מ) from the e-file (ה).
pub fn spec_from_tokens(tokens: &[Token]) -> Result<MoveSpec, SpecProblem> {
    let mut spec = MoveSpec::default();
    let mut places: smallvec::SmallVec<[Token; 3]> = smallvec::SmallVec::new();
    let mut promotion_said = false;
    let mut ended = false;
    for &t in tokens {
        if ended && !matches!(t, Token::Check | Token::Mate | Token::EnPassant) {
            return Err(SpecProblem::Garbled);
        }
        match t {
            Token::Castle(side) => {
                if spec.castle.is_some() || spec.role.is_some() || !places.is_empty() {
                    return Err(SpecProblem::Garbled);
                }
                spec.castle = Some(side);
            }
            Token::Piece(role) => {
                if spec.castle.is_some() {
                    return Err(SpecProblem::Garbled);
                }
                if places.is_empty() && !promotion_said {
                    if spec.role.is_some() {
                        return Err(SpecProblem::Garbled);
                    }
                    spec.role = Some(role);
                } else {
                    if spec.promotion.is_some() {
                        return Err(SpecProblem::Garbled);
                    }
                    spec.promotion = Some(role);
                }
            }
            Token::File(_) | Token::Rank(_) | Token::Square(_) => {
                if spec.castle.is_some() || spec.promotion.is_some() || promotion_said {
                    return Err(SpecProblem::Garbled);
                }
                places.push(t);
            }
            Token::Capture => spec.capture = true,
            Token::EnPassant => spec.en_passant = true,
            Token::Promotion => promotion_said = true,
            Token::Check | Token::Mate => ended = true,
            Token::To => {}
        }
    }
    if spec.castle.is_some() {
        spec.capture |= spec.en_passant;
        return Ok(spec);
    }
    let Some(Token::Square(to)) = places.pop() else {
        return Err(SpecProblem::NoDestination);
    };
    spec.to = Some(to);
    match places.as_slice() {
        [] => {}
        [Token::File(f)] => spec.from_file = Some(*f),
        [Token::Rank(r)] => spec.from_rank = Some(*r),
        [Token::Square(s)] => {
            spec.from_file = Some(s.file());
            spec.from_rank = Some(s.rank());
        }
        _ => return Err(SpecProblem::Garbled),
    }
    if spec.role == Some(Role::King) && spec.from_file.is_some() != spec.from_rank.is_some() {
        return Err(SpecProblem::Garbled);
    }
    // En passant is a capture: "takes e.p." and "e.p." say the same.
    spec.capture |= spec.en_passant;
    Ok(spec)
}

/// Whether legal move `m` fits `spec`.
pub fn matches(spec: &MoveSpec, m: Move, mode_chess960: bool) -> bool {
    if spec.capture && !m.is_capture() {
        return false;
    }
    if spec.en_passant && !m.is_en_passant() {
        return false;
    }
    if let Some(side) = spec.castle {
        return m.castling_side() == Some(side);
    }
    let Some(to) = spec.to else { return false };
    let Some(from) = m.from() else { return false };
    if spec.from_file.is_some_and(|f| f != from.file())
        || spec.from_rank.is_some_and(|r| r != from.rank())
    {
        return false;
    }
    // Without a piece, a move is a pawn move, unless a full from-square was
    // given (coordinate notation such as g1f3 or "Gustav eins Felix drei").
    let role = spec.role.unwrap_or(if spec.origin_square().is_some() {
        m.role()
    } else {
        Role::Pawn
    });
    if role != m.role() {
        return false;
    }
    if spec.promotion != m.promotion() && spec.promotion.is_some() {
        return false;
    }
    match m {
        Move::Castle { king, rook } => {
            // A king move to its castling square (standard chess), or
            // king-takes-rook (UCI in Chess960).
            let side = CastlingSide::from_queen_side(rook < king);
            let king_to = Square::from_coords(side.king_to_file(), king.rank());
            (to == king_to && !mode_chess960) || to == rook
        }
        _ => m.to() == to,
    }
}

/// The legal moves that can fit `spec` (a cheap superset, before
/// [`matches`]): the same candidates a SAN reader would look at.
pub fn candidates(pos: &Chess, spec: &MoveSpec) -> MoveList {
    if let Some(side) = spec.castle {
        return pos.castling_moves(side);
    }
    match (spec.role, spec.to, spec.origin_square()) {
        (Some(Role::King), Some(to), _) => {
            // Castling can also be said as a king move (to its castling
            // square, or king-takes-rook): add castling moves when the
            // destination is on the king's back rank.
            let mut list = pos.san_candidates(Role::King, to);
            let back = pos.board().king_of(pos.turn()).map(|k| k.rank());
            if back == Some(to.rank()) && !pos.castles().is_empty() {
                list.extend(pos.legal_moves().into_iter().filter(|m| m.is_castle()));
            }
            list
        }
        (Some(role), Some(to), _) => pos.san_candidates(role, to),
        (None, Some(to), None) => pos.san_candidates(Role::Pawn, to),
        _ => pos.legal_moves(),
    }
}

/// Why no legal move fits a complete description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// There are no legal moves at all: the game is over.
    GameOver,
    /// Castling on that side is not possible now.
    Castling(CastlingSide),
    /// The side to move has no piece of that kind.
    NoSuchPiece(Role),
    /// The given origin square has no (matching) piece of the side to move.
    NoPieceOn {
        /// The piece named, if any.
        role: Option<Role>,
        /// The origin square.
        square: Square,
    },
    /// The destination holds a piece of the side to move.
    OwnPieceOn(Square),
    /// A capture was said but there is nothing to capture there.
    NothingToCapture(Square),
    /// No piece of that kind can move there.
    CannotReach {
        /// The piece named (pawn if none).
        role: Role,
        /// Destination.
        to: Square,
        /// The side to move is in check (the usual reason).
        in_check: bool,
    },
}

/// Explains why `spec` fits no legal move in `pos`.
pub fn diagnose(pos: &Chess, spec: &MoveSpec) -> Illegal {
    let us: Color = pos.turn();
    let board = pos.board();
    if pos.legal_moves().is_empty() {
        return Illegal::GameOver;
    }
    if let Some(side) = spec.castle {
        return Illegal::Castling(side);
    }
    let role = spec.role.unwrap_or(Role::Pawn);
    let to = spec.to.unwrap_or(Square::A1);
    if let Some(from) = spec.origin_square() {
        let piece = board.piece_at(from);
        let fits = piece.is_some_and(|p| p.color == us && spec.role.is_none_or(|r| r == p.role));
        if !fits {
            return Illegal::NoPieceOn {
                role: spec.role,
                square: from,
            };
        }
    } else if (board.by_role(role) & board.by_color(us)).is_empty() {
        return Illegal::NoSuchPiece(role);
    }
    if board.color_at(to) == Some(us) {
        return Illegal::OwnPieceOn(to);
    }
    if spec.capture
        && board.color_at(to).is_none()
        && pos.ep_square(shakmaty::EnPassantMode::Legal) != Some(to)
    {
        return Illegal::NothingToCapture(to);
    }
    let role = match spec.origin_square() {
        Some(from) if spec.role.is_none() => board.role_at(from).unwrap_or(Role::Pawn),
        _ => role,
    };
    Illegal::CannotReach {
        role,
        to,
        in_check: pos.is_check(),
    }
}
