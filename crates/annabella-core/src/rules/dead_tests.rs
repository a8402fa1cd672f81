//! Positions composed for these tests. Every expected verdict is argued in
//! a comment; every "alive" position comes with a sequence of legal moves
//! that ends in checkmate (played and checked with shakmaty), so the
//! expectation does not come from the code under test.

use super::*;
use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Color, Position};

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// Plays `line` (SAN) from `fen`, requires it to end in checkmate and
/// returns the colour that gave mate: proof that the start is alive.
fn helpmate(fen: &str, line: &str) -> Color {
    let mut p = pos(fen);
    for san in line.split_whitespace() {
        let m = San::from_ascii(san.trim_end_matches('#').as_bytes())
            .unwrap()
            .to_move(&p)
            .unwrap_or_else(|e| panic!("{san} in {fen}: {e}"));
        p.play_unchecked(m);
    }
    assert!(p.is_checkmate(), "{line} from {fen} does not mate");
    !p.turn()
}

/// Asserts that `fen` is alive (witnessed by `line`) and that the mating
/// side is not declared unable to mate.
fn assert_alive(fen: &str, line: &str) {
    let winner = helpmate(fen, line);
    let p = pos(fen);
    assert!(!is_dead(&p), "called dead: {fen}");
    assert!(
        can_ever_checkmate(&p, winner),
        "{winner} called unable: {fen}"
    );
}

// ---------------------------------------------------------------------------
// Dead positions

#[test]
fn bare_material_is_dead() {
    // Kings alone; king and knight; bishops all on dark squares.
    for fen in [
        "8/8/4k3/8/8/4K3/8/8 w - - 0 1",
        "8/8/4k3/8/8/2N1K3/8/8 b - - 0 1",
        "8/2b5/4k3/8/8/4K3/3B4/8 w - - 0 1",
    ] {
        assert!(is_dead(&pos(fen)), "{fen}");
    }
}

#[test]
fn a_locked_pawn_wall_is_dead() {
    // Pawns locked on a, c, e, g; each king is kept off the fourth and
    // fifth ranks by the enemy pawns (b4, d4, f4, h4 and b5, d5, f5, h5
    // are attacked by pawns that can never move or be taken), and no pawn
    // can ever capture (only kings could stand on the capture squares).
    assert!(is_dead(&pos("8/8/3k4/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1")));
}

#[test]
fn bishops_shut_behind_the_wall_are_dead() {
    // The same wall: White's bishop is light-squared and every light
    // square of the fourth rank holds a White pawn; Black's is
    // dark-squared and every dark square of the fifth rank holds a Black
    // pawn. Neither bishop can ever cross or take anything.
    assert!(is_dead(&pos(
        "8/3kb3/8/p1p1p1p1/P1P1P1P1/8/3KB3/8 w - - 0 1"
    )));
}

#[test]
fn a_lone_bishop_inside_the_wall_cannot_mate() {
    // White's light bishop roams Black's half, but Black has nothing that
    // could fill the dark squares next to its king, and White's king can
    // never come near: every light square leaves the king a dark escape.
    assert!(is_dead(&pos(
        "k7/8/4B3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1"
    )));
}

#[test]
fn a_fortress_where_taking_the_last_piece_stalemates_is_dead() {
    // White's bishop is shut in by its own blocked pawns, the king shuttles
    // between g1 and h1. Black's king can take the bishop only while
    // White's king is on h1, and that leaves White without a legal move
    // (stalemate); e2 and g2 are always defended. Needs the search over
    // every reachable position.
    assert!(is_dead(&pos("6k1/8/8/8/8/4p1p1/4P1P1/5B1K w - - 0 1")));
}

#[test]
fn a_forced_capture_of_the_last_mating_piece_is_dead() {
    // Black's only legal move takes the queen: bare kings.
    assert!(is_dead(&pos("k7/1Q6/8/8/8/8/8/7K b - - 0 1")));
}

#[test]
fn a_wall_that_only_en_passant_could_open() {
    // Without the en passant right the wall is shut: h4 can capture only
    // on g3, where no White piece can ever stand; g4 is blocked and
    // defended, both kings are fenced in as in the plain wall.
    let shut = "8/8/3k4/p1p1p1p1/P1P1P1Pp/7P/3K4/8 b - - 0 1";
    assert!(is_dead(&pos(shut)));
    // Just after g2-g4 Black may take en passant: the pawn reaches g3,
    // queens, the queen takes a4 and the a-pawn queens as well; two queens
    // mate White's fenced king. Not dead.
    let open = "8/8/3k4/p1p1p1p1/P1P1P1Pp/7P/3K4/8 b - g3 0 1";
    assert!(!is_dead(&pos(open)));
    assert!(can_ever_checkmate(&pos(open), Color::Black));
}

// ---------------------------------------------------------------------------
// Positions that look dead but are not

#[test]
fn looks_dead_but_a_pawn_promotes() {
    // The fortress above with a free Black c-pawn: it queens and takes the
    // bishop with mate while White's king stands on h1.
    assert_alive(
        "6k1/8/8/8/2p5/4p1p1/4P1P1/5B1K w - - 0 1",
        "Kg1 c3 Kh1 c2 Kg1 c1=Q Kh1 Qxf1#",
    );
}

#[test]
fn looks_dead_but_a_pawn_break_exists() {
    // The fortress with a Black pawn on d3: dxe2 opens it, exf1=Q mates.
    assert_alive(
        "6k1/8/8/8/8/3pp1p1/4P1P1/5B1K w - - 0 1",
        "Kg1 dxe2 Kh1 exf1=Q#",
    );
}

#[test]
fn looks_dead_but_a_sacrifice_opens_the_wall() {
    // A White rook given up on d2 frees Black's e-pawn.
    assert_alive(
        "6k1/8/8/8/8/4p1p1/R3P1P1/5B1K w - - 0 1",
        "Rd2 exd2 Kg1 d1=Q Kh1 Qxf1#",
    );
}

#[test]
fn looks_dead_but_en_passant_opens_it() {
    // Black's f-pawn is blocked by f3, its king cannot get in, but it may
    // take e4 en passant right now; the pawn then runs to f1.
    assert_alive(
        "6k1/8/8/4p3/4Pp2/5Pp1/6P1/5B1K b - e3 0 1",
        "fxe3 Kg1 e2 Kh1 exf1=Q#",
    );
}

#[test]
fn opposite_coloured_bishops_mate_with_help() {
    // King and bishop each, bishops on opposite colours: Black's own
    // bishop can block b8 (a helpmate, not a forced win).
    assert_alive("k7/8/1K1b4/8/8/8/8/5B2 w - - 0 1", "Be2 Bb8 Bf3#");
}

#[test]
fn a_knight_mates_a_king_hemmed_in_by_its_own_pawn() {
    // Black cooperates by promoting to a knight instead of a queen.
    assert_alive("k7/p2K4/8/3N4/8/8/7p/8 w - - 0 1", "Kc8 h1=N Nc7#");
}

// ---------------------------------------------------------------------------
// One side cannot mate (Art. 6.9, 7.5.5)

#[test]
fn who_can_ever_checkmate() {
    // King and knight against king and queen: the knight side cannot (see
    // the module documentation), the queen side can.
    let p = pos("8/8/4k3/8/8/2N1K3/8/7q w - - 0 1");
    assert!(!can_ever_checkmate(&p, Color::White));
    assert!(can_ever_checkmate(&p, Color::Black));
    // Two light bishops cannot mate against a rook.
    let p = pos("8/8/4k3/8/8/4K3/2B1B3/7r w - - 0 1");
    assert!(!can_ever_checkmate(&p, Color::White));
    assert!(can_ever_checkmate(&p, Color::Black));
    // Beyond material: White has a queen, but Black's only legal move
    // takes it, and Black's h-pawn can still queen and mate.
    let fen = "k7/1Q6/8/8/8/8/7p/4K3 b - - 0 1";
    let p = pos(fen);
    assert!(!can_ever_checkmate(&p, Color::White));
    assert!(!is_dead(&p));
    let line = "Kxb7 Kd2 h1=Q Kc3 Qh5 Kb2 Kb6 Ka1 Kb5 Kb1 Kb4 Ka1 Kb3 Kb1 Qh1#";
    assert_eq!(helpmate(fen, line), Color::Black);
    assert!(can_ever_checkmate(&p, Color::Black));
}

#[test]
fn the_game_already_won_or_lost() {
    // Black is checkmated (smothered): White has mated, Black never will.
    // Stalemate: nobody can.
    let mated = pos("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1");
    assert!(mated.is_checkmate());
    assert!(can_ever_checkmate(&mated, Color::White));
    assert!(!can_ever_checkmate(&mated, Color::Black));
    assert!(!is_dead(&mated));
    let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(stalemate.is_stalemate());
    assert!(is_dead(&stalemate));
}

// ---------------------------------------------------------------------------
// Cost

#[test]
fn the_opening_is_answered_without_search() {
    let v = prove_unwinnable(&Chess::default(), Colors::BOTH);
    assert!(!v.proven);
    assert_eq!(v.nodes, 0);
}

#[test]
fn a_call_stays_within_the_node_budget() {
    // A king and pawn ending with few moves: the exhaustive search runs
    // (past the depth-limited one) and must stop at the budget.
    let p = pos("8/5k2/8/2p5/2P5/8/5K2/8 w - - 0 1");
    let v = prove_unwinnable(&p, Colors::BOTH);
    assert!(!v.proven);
    assert!(v.nodes > DEPTH_BUDGET, "{}", v.nodes);
    assert!(v.nodes <= NODE_BUDGET + 1, "{}", v.nodes);
}

// ---------------------------------------------------------------------------
// Cross-check against brute force on random play

/// Some sequence of at most `plies` legal moves (by both sides) ends in a
/// checkmate.
fn mate_within(p: &Chess, plies: u32) -> bool {
    if p.is_checkmate() {
        return true;
    }
    plies > 0
        && p.legal_moves().into_iter().any(|m| {
            let mut child = p.clone();
            child.play_unchecked(m);
            mate_within(&child, plies - 1)
        })
}

/// Small positions random play starts from: walls, fortresses, endings.
const SEEDS: [&str; 8] = [
    "8/8/3k4/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1",
    "6k1/8/8/8/2p5/4p1p1/4P1P1/5B1K w - - 0 1",
    "k7/8/4B3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1",
    "8/8/3k4/p1p1p1p1/P1P1P3/6P1/3K4/8 w - - 0 1",
    "k7/p2K4/8/3N4/8/8/7p/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
    "8/2b5/4k3/3p4/3P4/4K3/3B4/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Along random games from small positions: whatever is called dead
    /// has no checkmate within three plies, and a position where the side
    /// to move can mate at once is never dead nor "cannot mate" for it.
    #[test]
    fn dead_positions_have_no_reachable_mate(
        seed in 0..SEEDS.len(),
        choices in proptest::collection::vec(any::<u32>(), 12),
    ) {
        let mut p = pos(SEEDS[seed]);
        for choice in choices {
            let dead = is_dead(&p);
            if dead {
                prop_assert!(!mate_within(&p, 3), "dead but mates: {:?}", Fen::from_position(&p, shakmaty::EnPassantMode::Legal).to_string());
            }
            let mates_now = p.legal_moves().into_iter().any(|m| {
                let mut child = p.clone();
                child.play_unchecked(m);
                child.is_checkmate()
            });
            if mates_now {
                prop_assert!(!dead);
                prop_assert!(can_ever_checkmate(&p, p.turn()));
            }
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.play_unchecked(moves[choice as usize % moves.len()]);
        }
    }
}
