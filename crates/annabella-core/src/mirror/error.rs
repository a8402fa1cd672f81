//! Why a command was refused (typed; a refused command changes nothing).

use std::time::Duration;

use shakmaty::{Chess, Color, Move};

use super::QuickplayError;
use crate::clock::ClockError;
use crate::rules::GameResult;
use crate::vocab::ParseError;

/// Why a command was refused. A refused command changes nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameError {
    /// The board of `board` cannot take a move now: it is `mover`'s turn to
    /// make a move on `mover`'s board.
    NotYourTurn {
        /// The board the move was made on.
        board: Color,
        /// Whose move it is.
        mover: Color,
    },
    /// The mover already made a move; announce it or take it back.
    AlreadyMade(Color),
    /// Nothing to announce or press: no move has been made.
    NoMove(Color),
    /// The clock is pressed only after the move was announced (D.2.4).
    NotAnnounced(Color),
    /// The announcement differs from the board and was not corrected (D.2.8).
    SlipUncorrected {
        /// Who announced.
        color: Color,
        /// What is on the board.
        mv: Move,
        /// What was announced.
        said: Move,
        /// The position both are meant in.
        before: Box<Chess>,
    },
    /// The clock was pressed already; the announcement can no longer change.
    TooLate(Color),
    /// The opponent must first execute `mv` on his board.
    AwaitExecution {
        /// Whose board must take it.
        board: Color,
        /// The move.
        mv: Move,
        /// The position it is made in.
        before: Box<Chess>,
    },
    /// The clock must be pressed before the opponent executes the move.
    NotPressed(Color),
    /// On the board of `board`, the opponent's last move `mv` is missing:
    /// the player made his own move without executing it (detected).
    MissedMove {
        /// The board that lacks the move.
        board: Color,
        /// The missing move.
        mv: Move,
        /// The position it is made in.
        before: Box<Chess>,
        /// Its move number.
        number: u32,
    },
    /// The boards differ; the arbiter must correct them first.
    BoardsDiffer,
    /// The text is not one legal move on that board.
    BadMove {
        /// The board it was tried on.
        board: Color,
        /// The position it was parsed in.
        pos: Box<Chess>,
        /// Why.
        error: ParseError,
    },
    /// The game is over.
    GameOver(GameResult),
    /// The game is adjourned: only the adjournment steps are possible.
    Adjourned,
    /// The game is not adjourned.
    NotAdjourned,
    /// `0` is sealing his move: he may seal again to change it, or stop the
    /// clock to close the envelope (Guideline I.1.1).
    Sealing(Color),
    /// `side` made a move on his board before sealing: that move is the one
    /// to seal (Guideline I.1.1).
    SealNotMade {
        /// Who seals.
        side: Color,
        /// The move on his board.
        mv: Move,
        /// The position it was made in.
        before: Box<Chess>,
    },
    /// The sealed move is opened only in the presence of the opponent.
    OpponentAbsent(Color),
    /// No draw offer is pending.
    NoDrawOffer,
    /// A draw by agreement needs a move by each player first (5.2.3).
    DrawTooEarly,
    /// This player touched a piece and may not claim on this move (9.4).
    ClaimAfterTouch(Color),
    /// After an incorrect claim based on a move he wrote down, `side` must
    /// make that move (Art. 9.5.3).
    ClaimMoveRequired {
        /// Who claimed.
        side: Color,
        /// The written move.
        mv: Move,
        /// The position it is made in.
        before: Box<Chess>,
    },
    /// For the sighted player the ordinary rules apply (D.2.5): a piece
    /// released on a square by a legal move cannot be moved to another
    /// square on this move (Art. 4.7).
    MoveStands(Color),
    /// A draw offer is accepted by the opponent of the one who made it.
    OwnDrawOffer(Color),
    /// The injected time went backwards.
    TimeWentBackwards {
        /// Latest time seen.
        latest: Duration,
    },
    /// Not a square (`g1`).
    BadSquare(String),
    /// The clock refused.
    Clock(ClockError),
    /// A Guideline III procedure does not apply now.
    Quickplay(QuickplayError),
}
