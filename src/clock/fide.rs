//! FIDE rules around the clock: flag-fall results, time penalties and the
//! Guideline III numbers.

use std::time::Duration;

use shakmaty::{Color, KnownOutcome, Outcome, Position};

use crate::rules::GameKind;

/// Time given to the opponent after a player's first illegal move in
/// standard play (Art. 7.5.5).
pub const ILLEGAL_MOVE_PENALTY_STANDARD: Duration = Duration::from_secs(120);

/// Time given to the opponent after a player's first illegal move in rapid
/// and blitz (Appendices A.4.2, B: one minute instead of two).
pub const ILLEGAL_MOVE_PENALTY_RAPID_BLITZ: Duration = Duration::from_secs(60);

/// Time given to the opponent after an incorrect draw claim (Art. 9.5) and
/// after a rejected Guideline III claim.
pub const INCORRECT_CLAIM_PENALTY: Duration = Duration::from_secs(120);

/// Guideline III: a player with less than this left may ask for an
/// increment or claim a draw.
pub const QUICKPLAY_THRESHOLD: Duration = Duration::from_secs(120);

/// Guideline III.4: the increment given to both players on request.
pub const QUICKPLAY_INCREMENT: Duration = Duration::from_secs(5);

/// Extra time for the opponent of a player who completes a first illegal
/// move (Art. 7.5): 2 minutes in standard play, 1 minute in rapid and blitz.
pub const fn illegal_move_penalty(kind: GameKind) -> Duration {
    match kind {
        GameKind::Standard => ILLEGAL_MOVE_PENALTY_STANDARD,
        GameKind::Rapid | GameKind::Blitz => ILLEGAL_MOVE_PENALTY_RAPID_BLITZ,
    }
}

/// Extra time for the opponent of a player whose draw claim is incorrect
/// (Art. 9.5): 2 minutes.
pub const fn incorrect_claim_penalty() -> Duration {
    INCORRECT_CLAIM_PENALTY
}

/// Result when `flagged`'s flag falls in `pos` (Art. 6.9): the game is lost,
/// unless the opponent cannot checkmate by any series of legal moves; then it
/// is drawn.
///
/// "Cannot checkmate" is decided by
/// [`Position::has_insufficient_material`] for the opponent, which shakmaty
/// documents as a quick material test: positions that are unwinnable only
/// because of the pawn structure (blocked pawns) still count as a loss.
pub fn flag_fall_result<P: Position>(flagged: Color, pos: &P) -> Outcome {
    let opponent = flagged.other();
    if pos.has_insufficient_material(opponent) {
        Outcome::Known(KnownOutcome::Draw)
    } else {
        Outcome::Known(KnownOutcome::Decisive { winner: opponent })
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, fen::Fen};

    use super::*;

    fn position(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn penalties() {
        assert_eq!(
            illegal_move_penalty(GameKind::Standard),
            Duration::from_secs(2 * 60)
        );
        assert_eq!(
            illegal_move_penalty(GameKind::Rapid),
            Duration::from_secs(60)
        );
        assert_eq!(
            illegal_move_penalty(GameKind::Blitz),
            Duration::from_secs(60)
        );
        assert_eq!(incorrect_claim_penalty(), Duration::from_secs(2 * 60));
        assert_eq!(QUICKPLAY_INCREMENT, Duration::from_secs(5));
        assert_eq!(QUICKPLAY_THRESHOLD, Duration::from_secs(2 * 60));
    }

    #[test]
    fn flag_fall_in_the_start_position_loses() {
        let pos = Chess::default();
        assert_eq!(
            flag_fall_result(Color::White, &pos),
            Outcome::Known(KnownOutcome::Decisive {
                winner: Color::Black
            })
        );
        assert_eq!(
            flag_fall_result(Color::Black, &pos),
            Outcome::Known(KnownOutcome::Decisive {
                winner: Color::White
            })
        );
    }

    #[test]
    fn flag_fall_against_a_lone_king_draws() {
        // White: king and queen; Black: lone king.
        let pos = position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        // White's flag falls: Black cannot mate with a lone king.
        assert_eq!(
            flag_fall_result(Color::White, &pos),
            Outcome::Known(KnownOutcome::Draw)
        );
        // Black's flag falls: White can mate.
        assert_eq!(
            flag_fall_result(Color::Black, &pos),
            Outcome::Known(KnownOutcome::Decisive {
                winner: Color::White
            })
        );
    }

    #[test]
    fn flag_fall_against_minor_pieces() {
        // Black has king and knight only. Against a lone king that could
        // never mate, but White has a pawn that can block its own king, so a
        // mate is possible by some series of legal moves: a loss.
        let pos = position("4k3/8/8/8/8/8/4P3/1n2K3 w - - 0 1");
        assert_eq!(
            flag_fall_result(Color::White, &pos),
            Outcome::Known(KnownOutcome::Decisive {
                winner: Color::Black
            })
        );
        // King and bishop against a lone king: no mate possible.
        let pos = position("4k3/8/8/8/8/8/8/2b1K3 w - - 0 1");
        assert_eq!(
            flag_fall_result(Color::White, &pos),
            Outcome::Known(KnownOutcome::Draw)
        );
        // King and knight against king and queen: no mate possible.
        let pos = position("4k3/8/8/8/8/8/8/1n1QK3 w - - 0 1");
        assert_eq!(
            flag_fall_result(Color::White, &pos),
            Outcome::Known(KnownOutcome::Draw)
        );
    }
}
