//! What happened in the game, as typed values (pure core). The core never
//! words anything: a front end turns each [`GameEvent`] into the words of
//! its locale and of its own commands (see [`crate::game::words`]).

use std::time::Duration;

use shakmaty::{Chess, Color, Move, Piece, Square};

use super::{GameError, Mismatch, QuickplayEvent, SealFault};
use crate::rules::GameResult;
use crate::vocab::Priority;

/// A move together with the position it was made in, so that it can be
/// announced later (an illegal move is shown in coordinates).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveAt {
    /// The position before the move.
    pub before: Chess,
    /// The move.
    pub mv: Move,
}

/// What a board or a scoresheet holds at one move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A move (legal in its position, or not).
    Move(MoveAt),
    /// Text that is no move there (as written on a scoresheet).
    Text(String),
    /// Nothing at all.
    Nothing,
}

/// Which boards an arbiter's correction set to the scoresheets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardsSet {
    /// The board of one player.
    One(Color),
    /// Both boards.
    Both,
}

/// One thing that happened, in the order it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEvent {
    /// A legal move was made on the mover's board (not yet announced).
    Made {
        /// The mover.
        side: Color,
        /// The move.
        mv: MoveAt,
    },
    /// The sighted player's legal move that ends the game, made on his
    /// board (D.2.5: the ordinary rules apply, so it is complete when the
    /// piece is released; nothing is left to announce or press).
    MadeFinal {
        /// The mover.
        side: Color,
        /// The move.
        mv: MoveAt,
    },
    /// A move that is not one legal move was made on the mover's board,
    /// in a tournament game: said like any move, as given, since nothing
    /// about the legality of a player's own move is said before the press
    /// (Art. 11.3); pressing completes it under Art. 7.5.
    MadeAsGiven {
        /// The mover.
        side: Color,
        /// What was made, as given.
        text: String,
    },
    /// What was made on the mover's board is not a legal move: why (in
    /// practice only).
    NotLegal(GameError),
    /// An illegal move was made; it counts once the clock is pressed.
    IllegalMade {
        /// The mover.
        side: Color,
    },
    /// A pawn was moved to the last rank without a piece chosen: if the
    /// clock is pressed so, it becomes a queen and the move is illegal
    /// (Art. 7.5.2).
    PromotionMissing {
        /// The mover.
        side: Color,
    },
    /// The clock was pressed without a move made (Art. 7.5.3).
    PressedWithoutMove {
        /// Who pressed.
        side: Color,
    },
    /// The pawn pressed without a piece chosen became a queen (7.5.2).
    BecameQueen {
        /// The mover.
        side: Color,
        /// The move as it now stands.
        mv: MoveAt,
    },
    /// In rapid or blitz without adequate supervision (A.5.2, B.3): the
    /// opponent of an illegal move may claim the win before his next move.
    WinClaimable {
        /// Who may claim.
        side: Color,
        /// The illegal move stands if he does not claim (A.5.2); `false`
        /// when the position it leaves cannot be played on (a king left in
        /// check): it is taken back and replaced.
        stands: bool,
    },
    /// The move was announced (D.2.1).
    Announced {
        /// Move number.
        number: u32,
        /// The mover.
        side: Color,
        /// The move.
        mv: MoveAt,
        /// It corrects a slip of the tongue (D.2.8).
        corrected: bool,
    },
    /// A move that is not one legal move was announced, in a tournament
    /// game: said like any announcement, as given.
    AnnouncedAsGiven {
        /// Move number.
        number: u32,
        /// The mover.
        side: Color,
        /// What was made.
        text: String,
    },
    /// An illegal move was announced (in practice: with the warning).
    AnnouncedIllegal {
        /// Move number.
        number: u32,
        /// The mover.
        side: Color,
        /// What was made.
        text: String,
    },
    /// A slip of the tongue: the announcement differs from the board.
    Slip {
        /// The mover.
        side: Color,
        /// What was announced.
        said: MoveAt,
        /// What the board shows.
        mv: MoveAt,
    },
    /// A move not yet completed was taken back.
    TakenBack {
        /// The mover.
        side: Color,
    },
    /// The clock was pressed: the move is completed (D.2.4).
    Pressed {
        /// The mover.
        side: Color,
        /// The move.
        mv: MoveAt,
        /// The mover's time left.
        remaining: Duration,
    },
    /// A time control was reached and time added.
    PeriodReached {
        /// Whose clock.
        side: Color,
        /// The time added.
        added: Duration,
    },
    /// An illegal move was completed (Art. 7.5.1): the position before it
    /// is restored and the player makes another move, to which Articles
    /// 4.3–4.7 apply.
    IllegalCompleted {
        /// Who made it.
        side: Color,
    },
    /// A pawn moved to the last rank was completed without a piece chosen
    /// (Art. 7.5.2): an illegal move; the pawn becomes a queen
    /// ([`GameEvent::BecameQueen`] follows).
    UnpromotedCompleted {
        /// Who made it.
        side: Color,
    },
    /// Extra time for the opponent of an illegal move (Art. 7.5.5).
    Penalty {
        /// Who made the illegal move.
        side: Color,
        /// Who receives the time.
        to: Color,
        /// How much.
        extra: Duration,
    },
    /// The opponent repeated the announced move.
    Repeated {
        /// Who repeated.
        side: Color,
        /// The move.
        mv: MoveAt,
    },
    /// The opponent repeated a different move.
    RepeatDiffers {
        /// Who repeated.
        side: Color,
        /// What was repeated.
        heard: MoveAt,
        /// The move.
        mv: MoveAt,
    },
    /// The opponent made the move on his board; both boards agree.
    Executed {
        /// Whose board.
        board: Color,
        /// The move.
        mv: MoveAt,
        /// Who moves next (`None`: the game is over).
        next: Option<Color>,
    },
    /// A scoresheet entry was recorded.
    SheetRecorded {
        /// Whose scoresheet.
        sheet: Color,
        /// Move number of the entry.
        number: u32,
        /// Whose move the entry is.
        side: Color,
        /// The entry.
        entry: Entry,
        /// Marked `(=)`.
        offer: bool,
    },
    /// The boards or the scoresheets differ.
    Mismatch {
        /// What differs.
        found: Mismatch,
        /// Move number where they differ.
        number: u32,
        /// Whose move that is.
        side: Color,
        /// What White's board or scoresheet has there.
        white: Entry,
        /// What Black's board or scoresheet has there.
        black: Entry,
    },
    /// A draw was offered.
    DrawOffered {
        /// Who offers.
        side: Color,
    },
    /// A draw offer was declined.
    DrawDeclined {
        /// Who declined.
        side: Color,
    },
    /// A draw offer lapsed: the opponent made a move instead of answering
    /// (9.1.2.1).
    DrawOfferLapsed {
        /// Who had offered.
        side: Color,
    },
    /// A draw claim counts as a draw offer (9.1.2.3): the opponent may
    /// accept it.
    ClaimIsOffer {
        /// Who claimed.
        side: Color,
    },
    /// A draw claim based on a move written on the scoresheet was found
    /// incorrect: that move must now be made (Art. 9.5.3).
    ClaimMoveToMake {
        /// Who claimed.
        side: Color,
        /// The written move.
        mv: MoveAt,
    },
    /// A scoresheet lacks the `(=)` mark of a draw offer made with the
    /// move (Art. 8.1.5, 9.1.2.2: both players record it).
    SheetOfferUnmarked {
        /// Whose scoresheet.
        sheet: Color,
        /// Move number of the entry.
        number: u32,
        /// Whose move the entry is.
        side: Color,
    },
    /// A draw claim was found incorrect (Art. 9.5.3): time for the
    /// opponent.
    ClaimRejected {
        /// Who claimed.
        side: Color,
        /// How often the position occurred.
        repetitions: usize,
        /// Half-moves without a pawn move or capture.
        halfmoves: u32,
        /// Time given to the opponent.
        extra: Duration,
    },
    /// The arbiter stopped the clock.
    ClockPaused {
        /// The side to move.
        side: Color,
    },
    /// The arbiter restarted the clock.
    ClockResumed {
        /// The side to move.
        side: Color,
    },
    /// A game continued from PGN: the clocks were set to the times the
    /// PGN gives after each side's last move (`[%clk]`).
    ClocksFromPgn {
        /// White's time, if the PGN gives it.
        white: Option<Duration>,
        /// Black's time, if the PGN gives it.
        black: Option<Duration>,
    },
    /// The arbiter gave or took time.
    ClockAdjusted {
        /// Whose clock.
        side: Color,
        /// How much.
        amount: Duration,
        /// Given (or taken).
        add: bool,
        /// Time left afterwards.
        remaining: Duration,
    },
    /// A move was sealed: the game is adjourned (Guideline I).
    Sealed {
        /// Who sealed.
        side: Color,
        /// Move number of the sealed move.
        number: u32,
        /// Time used by White and Black.
        used: [Duration; 2],
        /// Date, time and place of resumption.
        resumption: String,
    },
    /// What else the closed envelope holds (Guideline I.2.1, I.2.2): the
    /// players' names and the position before the sealed move.
    EnvelopeContents {
        /// The players' names, White and Black.
        names: [String; 2],
        /// The position before the sealed move, as FEN.
        fen: String,
    },
    /// At resumption, the sealer's opponent is present.
    OpponentPresent {
        /// Who is present.
        side: Color,
    },
    /// The sealed move was opened.
    SealOpened {
        /// The sealed move.
        mv: MoveAt,
    },
    /// The arbiter corrected a scoresheet entry to the boards.
    CorrectedSheet {
        /// Whose scoresheet.
        sheet: Color,
        /// Move number.
        number: u32,
        /// Whose move.
        side: Color,
        /// The entry before.
        old: String,
        /// The entry now.
        new: String,
    },
    /// The arbiter set boards to the scoresheets.
    CorrectedBoards {
        /// Which boards.
        boards: BoardsSet,
        /// The last move on the boards now (its side and number), if any.
        last: Option<(Color, u32)>,
        /// Who is to move.
        turn: Color,
    },
    /// The arbiter retraced boards and scoresheets to where all agree.
    Retraced {
        /// Move number where the scoresheets first differ.
        number: u32,
        /// The last move kept (its side and number), if any.
        last: Option<(Color, u32)>,
        /// Who is to move.
        turn: Color,
    },
    /// The arbiter found nothing to correct.
    NothingToCorrect,
    /// A player touched a piece, as the assistant reports (D.2.10.5).
    Touched {
        /// Who touched it.
        side: Color,
        /// Where.
        square: Square,
        /// What stands there, if anything.
        piece: Option<Piece>,
    },
    /// A move was made with another piece than the one the player touched,
    /// which could have moved (Art. 4.3): for the arbiter to decide.
    TouchNotHonoured {
        /// Who moved.
        side: Color,
        /// The touched piece's square.
        square: Square,
    },
    /// The game is over.
    GameOver(GameResult),
    /// A Guideline III procedure (games without increment).
    Quickplay(QuickplayEvent),
    // --- adjournment (Guideline I) ---
    /// The player to move wrote his sealed move (secret); he may change it
    /// until he stops the clock (I.1.1).
    SealWritten {
        /// Who seals.
        side: Color,
        /// Move number of the sealed move.
        number: u32,
    },
    /// The sealed move just written is not one legal move (I.8): said to
    /// the sealer at once, without the move, while he may still change it.
    SealFaulty {
        /// Who seals.
        side: Color,
        /// What is wrong with it.
        fault: SealFault,
    },
    /// The envelope holds a draw offer that is current (I.2.6).
    EnvelopeDrawOffer {
        /// Who offered.
        side: Color,
    },
    /// A draw offered while the game is adjourned stands until the opponent
    /// accepts or declines it (I.4).
    DrawOfferStands {
        /// Who offered.
        side: Color,
    },
    /// At the resumption a player is present (not the one who must answer
    /// the sealed move: that is [`GameEvent::OpponentPresent`]).
    PlayerPresent {
        /// Who.
        side: Color,
    },
    /// At the resumption a player is absent (I.9).
    PlayerAbsent {
        /// Who.
        side: Color,
        /// His clock was started: he must answer the sealed move (I.9.2).
        clock_started: bool,
        /// The default time (I.10).
        default_time: Duration,
    },
    /// An absent player arrived.
    PlayerArrived {
        /// Who.
        side: Color,
        /// He stopped his clock and the sealed move may now be opened
        /// (I.9.2, I.9.3).
        open: bool,
    },
    /// The reply was sealed in a fresh envelope and the absent opponent's
    /// clock started (I.9.3).
    AbsentClockStarted {
        /// Whose clock.
        side: Color,
    },
    /// The envelope was opened and the sealed move cannot be played (I.8):
    /// the sealer loses (or draws, when his opponent cannot mate).
    SealInvalid {
        /// Who sealed it.
        side: Color,
        /// What is wrong with it.
        fault: SealFault,
        /// The sealed move as written.
        text: String,
    },
    /// The arbiter set the default time (Article 6.7, I.10).
    DefaultTimeSet {
        /// The default time.
        time: Duration,
    },
    /// The arbiter decided that an absence does not lose the game (I.10:
    /// "unless the arbiter decides otherwise").
    Excused {
        /// Who.
        side: Color,
    },
}

impl GameEvent {
    /// Something is wrong and needs attention (a mismatch, a slip, a
    /// penalty, an arbiter's change): said at once, never dropped.
    pub fn is_warning(&self) -> bool {
        matches!(
            self,
            GameEvent::NotLegal(_)
                | GameEvent::IllegalMade { .. }
                | GameEvent::PromotionMissing { .. }
                | GameEvent::PressedWithoutMove { .. }
                | GameEvent::BecameQueen { .. }
                | GameEvent::WinClaimable { .. }
                | GameEvent::AnnouncedIllegal { .. }
                | GameEvent::Slip { .. }
                | GameEvent::IllegalCompleted { .. }
                | GameEvent::UnpromotedCompleted { .. }
                | GameEvent::Penalty { .. }
                | GameEvent::RepeatDiffers { .. }
                | GameEvent::Mismatch { .. }
                | GameEvent::ClaimRejected { .. }
                | GameEvent::ClaimMoveToMake { .. }
                | GameEvent::SheetOfferUnmarked { .. }
                | GameEvent::ClockAdjusted { .. }
                | GameEvent::CorrectedSheet { .. }
                | GameEvent::CorrectedBoards { .. }
                | GameEvent::Retraced { .. }
                | GameEvent::Touched { .. }
                | GameEvent::TouchNotHonoured { .. }
                | GameEvent::Quickplay(_)
                | GameEvent::SealFaulty { .. }
                | GameEvent::SealInvalid { .. }
        )
    }

    /// How urgently it is said: warnings and the result are never dropped,
    /// everything else is said like a move.
    pub fn priority(&self) -> Priority {
        if self.is_warning() || matches!(self, GameEvent::GameOver(_)) {
            Priority::Critical
        } else {
            Priority::Move
        }
    }
}
