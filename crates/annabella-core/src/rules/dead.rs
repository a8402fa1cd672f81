//! Dead positions (FIDE Art. 5.2.2) and "cannot checkmate by any possible
//! series of legal moves" (Art. 6.9, 7.5.5, Guideline III), beyond bare
//! material: locked pawn walls, kings fenced in, bishops of one colour that
//! can never mate, and positions where every line soon reaches one of those.
//!
//! Pure functions of the position; no I/O, no clock. Each call is bounded by
//! a node count ([`NODE_BUDGET`]), so it always ends quickly and gives the
//! same answer on every machine.
//!
//! # The question
//!
//! `winner` *can checkmate* from a position when some sequence of legal
//! moves, with both sides cooperating (a helpmate, not best play), ends in
//! `winner` checkmating the other side. A position is *dead* when neither
//! side can. Repetition and 75-move endings are ignored (they only make
//! games shorter), so the question is asked about more sequences than the
//! game allows, never fewer.
//!
//! Everything here answers "proven impossible" or "not proven". A position
//! is called dead only with a proof; when the proof fails, runs out of
//! budget or is not attempted, the answer is "alive". **A live position is
//! never called dead** as long as every proof step below is sound; each
//! step says why it is.
//!
//! The method follows the idea of Miguel Ambrona's Chess Unwinnability
//! Analyzer (CHA): a static over-approximation of where every piece could
//! ever go, a check of whether any piece of the winner could ever give
//! check where the losing king could ever stand, and a bounded search over
//! all moves of both sides whose leaves are closed by those static proofs.
//! The rules and code here are written anew on `shakmaty`.
//!
//! # 1. Material (`shakmaty::Position::has_insufficient_material`)
//!
//! - A lone king never gives check.
//! - King and one knight, against a king with nothing but queens, and no
//!   pawns on the board: say the knight checks from (1,2) relative to the
//!   king at (0,0) (every other knight check is a reflection of this one,
//!   and the argument uses only squares inside the rectangle spanned by the
//!   two, which are on the board). A queen on (0,1) or (1,1) would take the
//!   knight, so both must be empty and attacked by the winner's king, which
//!   is then on (0,2) (the only square next to both and not next to the
//!   other king). A queen on (1,0) would take the knight through (1,1), and
//!   neither the king on (0,2) nor the knight attacks (1,0): the king
//!   escapes there. No mate.
//! - King and bishops all on squares of one colour C, against pieces with
//!   no knight and no bishop on the other colour, and no pawns anywhere (so
//!   nothing new can appear): only a bishop ever gives check, along a
//!   diagonal d from the king k. Two bishops never give double check (a
//!   bishop that moves off one diagonal of k onto the other diagonal
//!   family would have to move along a line parallel to that diagonal,
//!   i.e. on it). The two squares k+(dx,0) and k+(0,dy) are of the other
//!   colour; no bishop attacks them and the winner's king, never next to
//!   k, attacks at most one. The other is either free for the king, or
//!   holds a rook or queen of the defender (the only pieces it can have
//!   there), which steps to k+d and blocks or takes the checking bishop
//!   (it cannot be pinned: the winner has no rook or queen). No mate.
//!
//! # 2. Where pieces can ever go (the reach analysis)
//!
//! For every piece on the board, identified by the square it stands on
//! now, the analysis computes `at`: a set of squares containing every
//! square the piece could ever stand on (or pass over) in any continuation,
//! and `gone`: whether it could ever leave its square (move or be captured).
//! It is the least fixed point of these rules, iterated until nothing
//! changes:
//!
//! - A square is *clearable of colour c* if no piece of c stands on it
//!   now, or the piece of c there can be gone.
//! - Knights, bishops, rooks, queens and kings step (one square in their
//!   directions, or a knight's jump) to a square clearable of their own
//!   colour. A slider's move is a chain of such steps over squares that are
//!   empty at that moment, so every real move is covered.
//! - A king may not step onto a square attacked all game by an enemy piece
//!   that can never be gone: a pawn, knight or king attacks its squares for
//!   good; a bishop, rook or queen those up to the first square that any
//!   piece could ever stand on.
//! - A pawn pushes onto a square clearable of both colours (a double step
//!   is two such pushes), and captures diagonally onto a square clearable
//!   of its own colour where some enemy non-king piece could ever be. The
//!   square a pawn passes on its double step is in its `at`, which covers
//!   en passant; an en passant capture available now seeds that square.
//! - A pawn never gets past an enemy pawn ahead of it on its file while
//!   neither ever leaves the file and the enemy pawn is never captured
//!   (both stay on the file, in front of each other, all game): its pushes
//!   stop before that pawn's rank.
//! - A pawn that can reach its last rank can become anything: its `at` is
//!   the whole board and it can check from anywhere.
//! - A piece (not a king) can be captured if one of its squares can be
//!   entered by an enemy piece (any square a non-pawn enemy can reach, or a
//!   square an enemy pawn can capture onto).
//! - Castling rights seed the castled squares of king and rook.
//!
//! *Why it is sound:* the sets only grow; the restrictions (squares
//! attacked all game, pawns that cannot pass) hold only while pieces are
//! never gone or never leave their file, so they only loosen as the sets
//! grow. The iteration therefore reaches a fixed point that is closed
//! under every rule evaluated with its own final values. By induction over
//! any real sequence of moves: if everything that happened so far is in the
//! sets, the next move's preconditions (a square free of own pieces, an
//! enemy piece to capture, a square the king may enter, a pawn not yet
//! passed) are implied by the sets, so its effects are in the sets too.
//!
//! # 3. Who could ever give check where the king could ever be
//!
//! Let `KR` be the losing king's `at`. A checkmate needs a piece of the
//! winner (never the king) to attack a square of `KR` from a square in its
//! own `at`; slider lines are blocked only by never-gone pieces (they stand
//! there all game). If no piece can, the winner can never mate.
//!
//! If the only pieces that can are bishops, all on squares of one colour C
//! (no pawn of the winner can promote), a mate needs the losing king on a
//! C square k of `KR` checked by one bishop (single check: a bishop cannot
//! discover a second bishop check, an en passant capture uncovers at most
//! one C square, castling uncovers only back-rank squares with nothing
//! behind them). The neighbours of k of the other colour (the orthogonal
//! ones) that lie in `KR` must then be occupied by pieces of the loser or
//! attacked by the winner's king: no bishop attacks them, any other piece
//! of the winner that attacked them would attack `KR`, and a winner's piece
//! standing there unprotected would be taken; the winner's king, never next
//! to k, attacks at most one of them. (Neighbours outside `KR` are never
//! free for the king anyway.) So k is excluded as a mating square when no
//! bishop can attack it, or when the loser's non-king pieces that can reach
//! those squares cannot fill all but (at most) the one the winner's king
//! can cover (a maximum matching between pieces and squares). If every
//! square of `KR` is excluded, the winner cannot mate.
//!
//! The iteration of section 2 can stop early for a colour once it has a
//! checker other than a bishop: the sets only grow, so that checker stays,
//! and the proof of this section would fail for that colour anyway.
//!
//! # 4. Searching all moves of both sides
//!
//! A position counts as proven when the static proofs (1 to 3) cover every
//! colour in question, when it is a stalemate, or a checkmate of a colour
//! not in question. A colour proven statically at a position stays proven
//! in every position after it (the proofs are about all continuations), so
//! the question narrows as the search goes on.
//!
//! 1. *Depth-limited search* (at most [`MAX_DEPTH`] plies with a choice;
//!    forced single moves are free): proven when every legal move leads to
//!    a proven position. A move back to a position already on the current
//!    line counts as proven: if all visited positions are proven, a
//!    visited position closest to a mate would need a successor closer
//!    still, which is either visited, or an earlier position of the line
//!    (also visited). Positions proven without such a cut are remembered
//!    for the rest of the call.
//! 2. *Every reachable position* (when the first search fails without
//!    meeting a mate, and both sides have few moves and no freely roaming
//!    queen, rook or knight): visits all positions reachable from the
//!    start, not looking past proven ones. When they all fit in the budget
//!    and none is a checkmate by a colour in question, the visited set is
//!    closed under legal moves, so no sequence of moves can reach a mate.
//!    This catches fortresses where one king walks about while everything
//!    else is stuck (taking a stuck piece would stalemate). Here the static
//!    proofs run only after irreversible moves (captures, pawn moves,
//!    castling); skipping them elsewhere only costs pruning.
//!
//! # Cost
//!
//! A position without any pawn locked against an enemy pawn, where a side
//! in question has a queen, rook or three pieces and the board holds six
//! or more besides the kings, is answered "alive" from the material alone
//! (a shortcut for speed; it can only miss a dead position, never invent
//! one). Otherwise one call examines at most [`NODE_BUDGET`] positions,
//! each costing a legal move generation and usually a reach analysis of a
//! few microseconds. `examples/dead_bench.rs` measures it: in the real
//! games of the test data a call takes about 10 to 30 microseconds
//! (slowest about 0.1 ms); the worst case, when the exhaustive search runs
//! out of budget, is several tens of milliseconds.

use rustc_hash::FxHashMap;
use shakmaty::{Bitboard, Chess, Color, EnPassantMode, Position, Role, Square, attacks};
use smallvec::SmallVec;

/// Most positions one call examines (the search's node budget).
pub const NODE_BUDGET: u32 = 5_000;

/// Most positions the depth-limited first search examines.
const DEPTH_BUDGET: u32 = 1_000;

/// The exhaustive search runs only when both sides together have at most
/// this many legal moves.
const FEW_MOVES: usize = 20;

/// ... and no queen, rook or knight can reach more than this many squares.
const ROAMING: u32 = 8;

/// Deepest the search looks, in plies that offer a choice (forced single
/// moves are free).
pub const MAX_DEPTH: u32 = 8;

/// True only when it is proven that neither side can ever checkmate by any
/// series of legal moves (Art. 5.2.2). Unknown, or too expensive to prove,
/// is `false`.
pub fn is_dead(pos: &Chess) -> bool {
    prove_unwinnable(pos, Colors::BOTH).proven
}

/// False only when it is proven that `winner` cannot checkmate the other
/// side by any possible series of legal moves (Art. 6.9, 7.5.5, Guideline
/// III). Unknown is `true`.
pub fn can_ever_checkmate(pos: &Chess, winner: Color) -> bool {
    !prove_unwinnable(pos, Colors::only(winner)).proven
}

/// A set of colours: the sides whose mate is to be proven impossible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Colors(u8);

impl Colors {
    /// Neither colour.
    pub const NONE: Colors = Colors(0);
    /// Both colours (a dead position).
    pub const BOTH: Colors = Colors(3);

    /// Just `color`.
    pub fn only(color: Color) -> Colors {
        Colors(match color {
            Color::White => 1,
            Color::Black => 2,
        })
    }

    fn contains(self, color: Color) -> bool {
        self.0 & Colors::only(color).0 != 0
    }

    fn without(self, color: Color) -> Colors {
        Colors(self.0 & !Colors::only(color).0)
    }

    fn covers(self, other: Colors) -> bool {
        self.0 & other.0 == other.0
    }

    fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// The outcome of one proof attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// Proven: none of the asked colours can ever checkmate.
    pub proven: bool,
    /// Positions examined (at most [`NODE_BUDGET`] plus one).
    pub nodes: u32,
}

/// Tries to prove that none of `colors` can ever checkmate from `pos`,
/// within [`NODE_BUDGET`] positions.
pub fn prove_unwinnable(pos: &Chess, colors: Colors) -> Verdict {
    if colors.is_empty() {
        return Verdict {
            proven: true,
            nodes: 0,
        };
    }
    if obviously_alive(pos, colors) {
        return Verdict {
            proven: false,
            nodes: 0,
        };
    }
    let mut search = Search {
        nodes: 0,
        budget: DEPTH_BUDGET,
        mate_seen: false,
        proven: FxHashMap::default(),
        line: Vec::new(),
    };
    let mut proven = search.prove(pos, colors, MAX_DEPTH).is_some();
    if !proven && !search.mate_seen && few_moves(pos) {
        search.budget = NODE_BUDGET;
        proven = search.exhaust(pos, colors);
    }
    Verdict {
        proven,
        nodes: search.nodes,
    }
}

// ---------------------------------------------------------------------------
// Quick exit

/// The cheap "alive" answer before any analysis, for speed only: no pawn
/// is locked against an enemy pawn and some asked colour has a queen, rook
/// or three pieces among at least six on the board besides the kings.
/// Such positions are alive in all but contrived cases; answering "alive"
/// can miss a dead position but never calls a live one dead.
fn obviously_alive(pos: &Chess, colors: Colors) -> bool {
    let board = pos.board();
    let white_pawns = board.pawns() & board.white();
    let black_pawns = board.pawns() & board.black();
    // A white pawn with a black pawn right in front: a wall may be forming.
    let locked = Bitboard(white_pawns.0 << 8) & black_pawns;
    if locked.any() {
        return false;
    }
    let heavy = |c: Color| {
        let ours = board.by_color(c);
        let pieces = (ours & !board.kings()).count();
        (ours & board.rooks_and_queens()).any() || pieces >= 3
    };
    let total = (board.occupied() & !board.kings()).count();
    [Color::White, Color::Black]
        .into_iter()
        .any(|c| colors.contains(c) && heavy(c) && total >= 6)
}

// ---------------------------------------------------------------------------
// Search

/// A position as the Laws compare them (Art. 9.2.2): pieces, side to move,
/// castling rights, en passant capture possible. Cheaper to compare than
/// `Chess`, whose equality works out en passant legality on every call;
/// hashed by its Zobrist value (the board's own hash spreads badly).
#[derive(Clone, PartialEq, Eq)]
struct Key {
    zobrist: u64,
    board: shakmaty::Board,
    turn: Color,
    castles: Bitboard,
    ep: Option<Square>,
}

impl Key {
    fn of(pos: &Chess) -> Key {
        let ep = pos.ep_square(EnPassantMode::Legal);
        Key {
            zobrist: pos
                .zobrist_hash::<shakmaty::zobrist::Zobrist64>(EnPassantMode::Legal)
                .0,
            board: pos.board().clone(),
            turn: pos.turn(),
            castles: pos.castles().castling_rights(),
            ep,
        }
    }
}

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.zobrist);
    }
}

struct Search {
    nodes: u32,
    budget: u32,
    /// A checkmate by an asked colour was reached: certainly not provable.
    mate_seen: bool,
    /// Positions proven without any repetition cut, with the colours proven.
    proven: FxHashMap<Key, Colors>,
    /// The current line, for repetition cuts.
    line: Vec<(Key, Colors)>,
}

/// `Some(clean)`: proven (`clean` when no repetition cut was used).
type Proof = Option<bool>;

impl Search {
    fn prove(&mut self, pos: &Chess, colors: Colors, depth: u32) -> Proof {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let key = Key::of(pos);
        if self
            .proven
            .get(&key)
            .is_some_and(|&done| done.covers(colors))
        {
            return Some(true);
        }
        if self.line.iter().any(|(k, c)| c.covers(colors) && *k == key) {
            return Some(false);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            // Checkmate of the side to move is a mate by the other side.
            return if pos.is_check() && colors.contains(!pos.turn()) {
                self.mate_seen = true;
                None
            } else {
                Some(true)
            };
        }
        let rest = statically_unproven(pos, colors);
        if rest.is_empty() {
            self.proven.insert(key, colors);
            return Some(true);
        }
        if depth == 0 {
            return None;
        }
        let next = if moves.len() == 1 { depth } else { depth - 1 };
        self.line.push((key, rest));
        let mut clean = true;
        for m in moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            match self.prove(&child, rest, next) {
                None => {
                    self.line.pop();
                    return None;
                }
                Some(c) => clean &= c,
            }
        }
        if let Some((key, _)) = self.line.pop()
            && clean
        {
            self.proven.insert(key, colors);
        }
        Some(clean)
    }

    /// Visits every position reachable from `pos` (not below statically
    /// proven ones): proven when they all fit in the budget and none is a
    /// checkmate by an asked colour. The visited set is then closed under
    /// legal moves, so no sequence of moves leaves it.
    fn exhaust(&mut self, pos: &Chess, colors: Colors) -> bool {
        let mut seen: FxHashMap<Key, Colors> = FxHashMap::default();
        seen.insert(Key::of(pos), colors);
        let mut todo = vec![(pos.clone(), colors, true)];
        while let Some((p, asked, fresh)) = todo.pop() {
            self.nodes += 1;
            if self.nodes > self.budget {
                return false;
            }
            let moves = p.legal_moves();
            if moves.is_empty() {
                if p.is_check() && asked.contains(!p.turn()) {
                    return false;
                }
                continue;
            }
            // The static proofs look at material and at what is locked; a
            // reversible move rarely changes their verdict, so they run
            // only after irreversible ones (skipping them is always sound).
            let rest = if fresh {
                statically_unproven(&p, asked)
            } else {
                asked
            };
            if rest.is_empty() {
                continue;
            }
            for m in moves {
                let irreversible = m.is_zeroing() || m.is_castle();
                let mut child = p.clone();
                child.play_unchecked(m);
                let key = Key::of(&child);
                let before = seen.get(&key).copied().unwrap_or(Colors::NONE);
                if before.covers(rest) {
                    continue;
                }
                let wanted = Colors(before.0 | rest.0);
                seen.insert(key, wanted);
                todo.push((child, wanted, irreversible));
            }
        }
        true
    }
}

/// Whether visiting every reachable position ([`Search::exhaust`]) has a
/// chance within the budget: the legal moves of the side to move and of
/// the other side (as if it were to move) add up to at most
/// [`FEW_MOVES`] (in check, the other side's moves are not defined and the
/// side to move's count is doubled instead), and no queen, rook or knight
/// can roam over more than [`ROAMING`] squares.
fn few_moves(pos: &Chess) -> bool {
    let ours = pos.legal_moves().len();
    let theirs = match pos.clone().swap_turn() {
        Ok(swapped) => swapped.legal_moves().len(),
        Err(_) => ours,
    };
    if ours + theirs > FEW_MOVES {
        return false;
    }
    let roaming = |u: &Unit| {
        matches!(u.role, Role::Queen | Role::Rook | Role::Knight) && u.at.count_ones() > ROAMING
    };
    !Reach::of(pos).units.iter().any(roaming)
}

/// The colours of `colors` that the static proofs (material, reach) do not
/// rule out.
fn statically_unproven(pos: &Chess, colors: Colors) -> Colors {
    let mut rest = colors;
    for c in [Color::White, Color::Black] {
        if rest.contains(c) && pos.has_insufficient_material(c) {
            rest = rest.without(c);
        }
    }
    if rest.is_empty() {
        return rest;
    }
    let Some(reach) = Reach::unless_hopeless(pos, rest) else {
        return rest;
    };
    for c in [Color::White, Color::Black] {
        if rest.contains(c) && reach.cannot_mate(c) {
            rest = rest.without(c);
        }
    }
    rest
}

// ---------------------------------------------------------------------------
// Bitboard steps (raw u64, a1 = bit 0, h8 = bit 63)

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_B: u64 = FILE_A << 1;
const FILE_G: u64 = FILE_A << 6;
const FILE_H: u64 = FILE_A << 7;
const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;

fn north(b: u64) -> u64 {
    b << 8
}
fn south(b: u64) -> u64 {
    b >> 8
}
fn east(b: u64) -> u64 {
    (b << 1) & !FILE_A
}
fn west(b: u64) -> u64 {
    (b >> 1) & !FILE_H
}

fn orthogonal_steps(b: u64) -> u64 {
    north(b) | south(b) | east(b) | west(b)
}

fn diagonal_steps(b: u64) -> u64 {
    north(east(b)) | north(west(b)) | south(east(b)) | south(west(b))
}

fn knight_jumps(b: u64) -> u64 {
    let one = east(b) | west(b);
    let two = ((b << 2) & !(FILE_A | FILE_B)) | ((b >> 2) & !(FILE_G | FILE_H));
    (one << 16) | (one >> 16) | (two << 8) | (two >> 8)
}

fn forward(color: Color, b: u64) -> u64 {
    match color {
        Color::White => north(b),
        Color::Black => south(b),
    }
}

fn pawn_captures(color: Color, b: u64) -> u64 {
    let f = forward(color, b);
    east(f) | west(f)
}

fn last_rank(color: Color) -> u64 {
    match color {
        Color::White => RANK_8,
        Color::Black => RANK_1,
    }
}

/// Squares reachable in one step (or jump) by a non-pawn piece.
fn steps(role: Role, b: u64) -> u64 {
    match role {
        Role::Knight => knight_jumps(b),
        Role::Bishop => diagonal_steps(b),
        Role::Rook => orthogonal_steps(b),
        Role::Queen | Role::King => diagonal_steps(b) | orthogonal_steps(b),
        Role::Pawn => 0,
    }
}

fn squares(b: u64) -> impl Iterator<Item = Square> {
    Bitboard(b).into_iter()
}

// ---------------------------------------------------------------------------
// Reach analysis

/// One piece of the position and where it could ever be.
#[derive(Debug, Clone, Copy)]
struct Unit {
    color: Color,
    role: Role,
    from: Square,
    /// Every square it could ever stand on or pass over.
    at: u64,
    /// It could ever leave its square (move or be captured).
    gone: bool,
    /// A pawn that could promote (then it could be anything, anywhere).
    promoted: bool,
}

impl Unit {
    fn bit(&self) -> u64 {
        1 << self.from.to_u32()
    }
}

/// The fixed point of section 2 of the module documentation.
struct Reach {
    units: SmallVec<[Unit; 32]>,
    /// Pairs (pawn, enemy pawn ahead of it on its file), as unit indices.
    facing: SmallVec<[(usize, usize); 16]>,
}

/// Per-colour masks derived from the units, recomputed each round.
#[derive(Default, Clone, Copy)]
struct Masks {
    /// Squares that can be free of this colour's pieces.
    clearable: u64,
    /// Squares where a non-king piece of this colour could be.
    pieces_at: u64,
    /// Squares where this colour could capture.
    captures: u64,
    /// Squares attacked all game by this colour's never-gone pawns,
    /// knights and king.
    always_attacked: u64,
}

fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Reach {
    /// The complete analysis.
    fn of(pos: &Chess) -> Reach {
        let mut reach = Reach::start(pos);
        reach.saturate(Colors::NONE);
        reach
    }

    /// The analysis, stopped early (`None`) once every colour of `hopeless`
    /// has a piece other than a bishop that can check somewhere the enemy
    /// king can be: the sets only grow, so that stays true to the end and
    /// [`Reach::cannot_mate`] would fail for those colours anyway.
    fn unless_hopeless(pos: &Chess, hopeless: Colors) -> Option<Reach> {
        let mut reach = Reach::start(pos);
        reach.saturate(hopeless).then_some(reach)
    }

    fn start(pos: &Chess) -> Reach {
        let board = pos.board();
        let mut units: SmallVec<[Unit; 32]> = SmallVec::new();
        for (sq, piece) in board.clone() {
            units.push(Unit {
                color: piece.color,
                role: piece.role,
                from: sq,
                at: 1 << sq.to_u32(),
                gone: false,
                promoted: false,
            });
        }
        // Castling: the castled squares of king and rook.
        let castles = pos.castles();
        for color in [Color::White, Color::Black] {
            for side in [
                shakmaty::CastlingSide::KingSide,
                shakmaty::CastlingSide::QueenSide,
            ] {
                if let Some(rook) = castles.rook(color, side) {
                    for u in units.iter_mut() {
                        if u.color == color && u.role == Role::King {
                            u.at |= 1 << side.king_to(color).to_u32();
                        }
                        if u.from == rook {
                            u.at |= 1 << side.rook_to(color).to_u32();
                        }
                    }
                }
            }
        }
        // En passant available now: the pawn that just made its double
        // step passed over the target square.
        if let Some(target) = pos.ep_square(EnPassantMode::Legal) {
            let pawn = forward(!pos.turn(), 1 << target.to_u32());
            for u in units.iter_mut() {
                if u.bit() == pawn && u.role == Role::Pawn {
                    u.at |= 1 << target.to_u32();
                }
            }
        }
        let mut facing = SmallVec::new();
        let pawns: SmallVec<[usize; 16]> = (0..units.len())
            .filter(|&i| units[i].role == Role::Pawn)
            .collect();
        for &i in &pawns {
            for &j in &pawns {
                let (u, v) = (&units[i], &units[j]);
                let ahead = match u.color {
                    Color::White => v.from.rank() > u.from.rank(),
                    Color::Black => v.from.rank() < u.from.rank(),
                };
                if v.color != u.color && v.from.file() == u.from.file() && ahead {
                    facing.push((i, j));
                }
            }
        }
        Reach { units, facing }
    }

    fn masks(&self, pawn_captures_so_far: [u64; 2]) -> [Masks; 2] {
        let mut m = [Masks::default(); 2];
        let mut staying = [0u64; 2];
        // Squares something could ever stand on: a never-gone slider's line
        // is open for good only up to the first such square.
        let anywhere = self.units.iter().fold(0, |acc, u| acc | u.at);
        for u in &self.units {
            let c = index(u.color);
            if !u.gone {
                staying[c] |= u.bit();
                m[c].always_attacked |= match u.role {
                    Role::Pawn => pawn_captures(u.color, u.bit()),
                    Role::Knight => knight_jumps(u.bit()),
                    Role::King => steps(Role::King, u.bit()),
                    Role::Bishop | Role::Rook | Role::Queen => {
                        let others = Bitboard(anywhere & !u.bit());
                        attacks::attacks(u.from, u.role.of(u.color), others).0
                    }
                };
            }
            if u.role != Role::King {
                m[c].pieces_at |= u.at;
            }
            if u.promoted {
                m[c].captures = !0;
            } else if u.role != Role::Pawn {
                m[c].captures |= u.at;
            }
        }
        for c in 0..2 {
            m[c].clearable = !staying[c];
            m[c].captures |= pawn_captures_so_far[c];
        }
        m
    }

    /// For each unit, the squares its pushes may reach: a pawn can never
    /// get past an enemy pawn ahead of it on its file while neither leaves
    /// the file and the enemy pawn is never captured.
    fn push_limits(&self, captures: [u64; 2]) -> SmallVec<[u64; 32]> {
        let stays_on_file = |u: &Unit| u.at & !(FILE_A << u.from.file().to_u32()) == 0;
        let mut limits: SmallVec<[u64; 32]> = self.units.iter().map(|_| !0).collect();
        for &(i, j) in &self.facing {
            let (u, v) = (&self.units[i], &self.units[j]);
            if stays_on_file(u) && stays_on_file(v) && v.at & captures[index(u.color)] == 0 {
                // Only the ranks strictly before the enemy pawn's.
                let rank = v.from.rank().to_u32();
                limits[i] &= match u.color {
                    Color::White => (1u64 << (8 * rank)) - 1,
                    Color::Black => !((1u64 << (8 * (rank + 1))) - 1),
                };
            }
        }
        limits
    }

    /// Iterates to the fixed point; `false` when stopped early because
    /// every colour of `stop` has a plain checker (see
    /// [`Reach::unless_hopeless`]).
    fn saturate(&mut self, stop: Colors) -> bool {
        let mut pawn_caps = [0u64; 2];
        loop {
            let mut changed = false;
            let m = self.masks(pawn_caps);
            let limits = self.push_limits([m[0].captures, m[1].captures]);
            for (u, limit) in self.units.iter_mut().zip(limits) {
                let (us, them) = (index(u.color), index(!u.color));
                if !u.gone
                    && (u.at != u.bit() || (u.role != Role::King && u.at & m[them].captures != 0))
                {
                    u.gone = true;
                    changed = true;
                }
                if u.promoted {
                    continue;
                }
                let before = u.at;
                if u.role == Role::Pawn {
                    loop {
                        let push =
                            forward(u.color, u.at) & m[us].clearable & m[them].clearable & limit;
                        let take =
                            pawn_captures(u.color, u.at) & m[us].clearable & m[them].pieces_at;
                        pawn_caps[us] |= take;
                        let grown = u.at | push | take;
                        if grown == u.at {
                            break;
                        }
                        u.at = grown;
                    }
                    if u.at & last_rank(u.color) != 0 {
                        u.promoted = true;
                        u.at = !0;
                    }
                } else {
                    let mut allowed = m[us].clearable;
                    if u.role == Role::King {
                        allowed &= !m[them].always_attacked;
                    }
                    loop {
                        let grown = u.at | (steps(u.role, u.at) & allowed);
                        if grown == u.at {
                            break;
                        }
                        u.at = grown;
                    }
                }
                changed |= u.at != before;
            }
            if !changed {
                return true;
            }
            if !stop.is_empty()
                && [Color::White, Color::Black]
                    .into_iter()
                    .all(|c| !stop.contains(c) || self.plain_checker(c))
            {
                return false;
            }
        }
    }

    /// `winner` has a piece other than a bishop (or a pawn that could
    /// promote) that could check the enemy king somewhere it could be.
    fn plain_checker(&self, winner: Color) -> bool {
        let Some(loser_king) = self.king(!winner) else {
            return false;
        };
        let fixed = self.fixed();
        self.units.iter().any(|u| {
            u.color == winner
                && u.role != Role::King
                && (u.promoted || u.role != Role::Bishop)
                && self.attack_span(u, fixed) & loser_king.at != 0
        })
    }

    fn king(&self, color: Color) -> Option<&Unit> {
        self.units
            .iter()
            .find(|u| u.color == color && u.role == Role::King)
    }

    /// Squares of pieces that never leave: they block lines all game.
    fn fixed(&self) -> Bitboard {
        Bitboard(
            self.units
                .iter()
                .filter(|u| !u.gone)
                .fold(0, |acc, u| acc | u.bit()),
        )
    }

    /// Every square `u` could ever attack.
    fn attack_span(&self, u: &Unit, fixed: Bitboard) -> u64 {
        if u.promoted {
            return !0;
        }
        match u.role {
            Role::Pawn => pawn_captures(u.color, u.at),
            Role::Knight => knight_jumps(u.at),
            Role::King => steps(Role::King, u.at),
            Role::Bishop | Role::Rook | Role::Queen => squares(u.at).fold(0, |acc, sq| {
                acc | attacks::attacks(sq, u.role.of(u.color), fixed).0
            }),
        }
    }

    /// Section 3 of the module documentation: `winner` can never give
    /// checkmate, proven from where the pieces can ever go.
    fn cannot_mate(&self, winner: Color) -> bool {
        let (Some(loser_king), Some(winner_king)) = (self.king(!winner), self.king(winner)) else {
            return false;
        };
        let region = loser_king.at;
        let fixed = self.fixed();
        let mut bishops: SmallVec<[(u64, u64); 16]> = SmallVec::new();
        for u in self
            .units
            .iter()
            .filter(|u| u.color == winner && u.role != Role::King)
        {
            let span = self.attack_span(u, fixed);
            if span & region == 0 {
                continue;
            }
            if u.promoted || u.role != Role::Bishop {
                return false;
            }
            bishops.push((u.at, span));
        }
        if bishops.is_empty() {
            return true;
        }
        let on_light = |b: u64| b & Bitboard::LIGHT_SQUARES.0 != 0;
        let on_dark = |b: u64| b & Bitboard::DARK_SQUARES.0 != 0;
        let light = bishops.iter().any(|&(at, _)| on_light(at));
        let dark = bishops.iter().any(|&(at, _)| on_dark(at));
        if light && dark {
            return false;
        }
        let checked = bishops.iter().fold(0, |acc, &(_, span)| acc | span);
        let blockers: SmallVec<[u64; 16]> = self
            .units
            .iter()
            .filter(|u| u.color == !winner && u.role != Role::King)
            .map(|u| u.at)
            .collect();
        for k in squares(region & checked) {
            let escapes = orthogonal_steps(1 << k.to_u32()) & region;
            let king_near = winner_king.at & steps(Role::King, escapes) != 0;
            let need = escapes.count_ones() as usize - usize::from(king_near && escapes != 0);
            if need == 0 || max_matching(&blockers, escapes) >= need {
                return false;
            }
        }
        true
    }
}

/// The most escape squares that distinct pieces (each given by the squares
/// it can reach) can fill at once (Kuhn's augmenting paths; at most four
/// squares).
fn max_matching(pieces: &[u64], escapes: u64) -> usize {
    let targets: SmallVec<[u64; 4]> = squares(escapes).map(|s| 1u64 << s.to_u32()).collect();
    // owner[t] = index of the piece filling target t.
    let mut owner: SmallVec<[Option<usize>; 4]> = targets.iter().map(|_| None).collect();
    fn augment(
        p: usize,
        pieces: &[u64],
        targets: &[u64],
        owner: &mut [Option<usize>],
        seen: &mut u8,
    ) -> bool {
        for (t, &bit) in targets.iter().enumerate() {
            if pieces[p] & bit == 0 || *seen & (1 << t) != 0 {
                continue;
            }
            *seen |= 1 << t;
            let free = match owner[t] {
                None => true,
                Some(q) => augment(q, pieces, targets, owner, seen),
            };
            if free {
                owner[t] = Some(p);
                return true;
            }
        }
        false
    }
    let mut matched = 0;
    for p in 0..pieces.len() {
        let mut seen = 0u8;
        if augment(p, pieces, &targets, &mut owner, &mut seen) {
            matched += 1;
        }
    }
    matched
}

#[cfg(test)]
#[path = "dead_tests.rs"]
mod tests;
