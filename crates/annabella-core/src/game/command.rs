//! Typed commands to the game ([`Command`]), the same for every front end
//! and stored as they are in the journal.

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::commands::Cmd;
use crate::mirror::ClaimGrounds;

/// A side, as commands name it (and the journal writes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// A command to the game: what a player, an assistant or the arbiter did.
/// Every front end sends these, and the journal stores them as they are
/// (one per line), so replaying them restores the game exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Command {
    /// A move made on a board (own move, or the execution of the
    /// opponent's).
    Board {
        /// Whose board.
        side: Side,
        /// As given.
        text: String,
        /// The move it resolved to, in UCI (replay uses it first).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        uci: Option<String>,
    },
    /// The mover announces (`text`: what was said, if given separately).
    Announce {
        /// What was said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// The mover takes back an uncompleted move.
    TakeBack,
    /// The mover presses the clock.
    Press,
    /// The opponent repeats the move aloud.
    Repeat {
        /// What was repeated.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// A scoresheet entry.
    Sheet {
        /// Whose scoresheet.
        side: Side,
        /// As written (may end in `(=)`).
        text: String,
    },
    /// A draw offer.
    OfferDraw {
        /// Who offers.
        side: Side,
    },
    /// An answer to a draw offer.
    AnswerDraw {
        /// Who answers.
        side: Side,
        /// Accepted?
        accept: bool,
    },
    /// A resignation.
    Resign {
        /// Who resigns.
        side: Side,
    },
    /// Game time passes.
    Tick,
    /// Arbiter: clock adjustment.
    Adjust {
        /// Whose clock.
        side: Side,
        /// Milliseconds.
        ms: u64,
        /// Added (or taken away).
        add: bool,
    },
    /// Arbiter: set a clock's remaining time.
    SetTime {
        /// Whose clock.
        side: Side,
        /// Milliseconds.
        ms: u64,
    },
    /// Arbiter: correct boards and scoresheets (D.2.9).
    Correct,
    /// Arbiter: stop the clock.
    Pause,
    /// Arbiter: restart the clock.
    Resume,
    /// Arbiter: an illegal move penalty (Art. 7.5).
    Penalty {
        /// Who made the illegal move.
        side: Side,
    },
    /// A draw claim (threefold repetition, fifty moves).
    Claim {
        /// Who claims.
        side: Side,
        /// The move he wrote on his scoresheet and intends to make, not
        /// made on the board (9.2.1.1, 9.3.1): recorded on his scoresheet
        /// with the claim.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// The player to move writes his sealed move (Guideline I.1.1; again
    /// to change it; `Press` then stops the clock and closes the envelope).
    Seal {
        /// As given.
        text: String,
        /// Date, time and place of resumption.
        resumption: String,
    },
    /// At resumption a player is present, or has arrived (Guideline I.9).
    Present {
        /// Who (`None`: the player who must answer the sealed move).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
    },
    /// At resumption a player is absent (Guideline I.9).
    Absent {
        /// Who.
        side: Side,
    },
    /// Arbiter: the event's default time (Article 6.7, Guideline I.10).
    DefaultTime {
        /// Milliseconds.
        ms: u64,
    },
    /// Arbiter: a player's absence does not lose the game (Guideline I.10).
    Excuse {
        /// Who.
        side: Side,
    },
    /// The sealed move is opened.
    OpenSeal,
    /// The assistant reports that a player touched a piece (D.2.10.5,
    /// Art. 4.3).
    Touch {
        /// Who touched it.
        side: Side,
        /// Its square (`g1`).
        square: String,
    },
    /// A game continued from PGN: what the PGN says of the moves just
    /// played (the clock times and the comments), kept for the export.
    PgnNotes {
        /// Per move: the mover's time left after it (`[%clk]`), in ms.
        #[serde(default)]
        clocks: Vec<Option<u64>>,
        /// `[0]` before the first move, `[i + 1]` after move `i`.
        #[serde(default)]
        comments: Vec<String>,
    },
    /// Guideline III.4: the player having the move asks for an increment
    /// of five seconds for both players (also a draw offer).
    RequestIncrement {
        /// Who asks.
        side: Side,
    },
    /// Guideline III.4, the arbiter: grants (or refuses) the increment.
    DecideIncrement {
        /// Granted?
        grant: bool,
    },
    /// Guideline III.5 / III.6: a draw claim with less than two minutes.
    ClaimQuickplay {
        /// Who claims.
        side: Side,
        /// On what grounds.
        grounds: ClaimGrounds,
    },
    /// Guideline III.5.1, the arbiter: agrees with the claim (a draw).
    UpholdClaim,
    /// Guideline III.5.2, the arbiter: postpones the decision.
    PostponeClaim {
        /// The opponent receives two minutes.
        two_minutes: bool,
    },
    /// Guideline III.5.3, the arbiter: rejects the claim.
    RejectClaim,
    /// Guideline III.5.2, the arbiter after a flag fall: a draw, or the
    /// flag fall stands.
    DecideAfterFlag {
        /// A draw (else the flag fall stands).
        draw: bool,
    },
}

impl Command {
    /// The command of the [command table](crate::commands::table) this is
    /// (`None` for the game's own [`Command::Tick`] and
    /// [`Command::PgnNotes`]).
    pub fn cmd(&self) -> Option<Cmd> {
        Some(match self {
            Command::Board { .. } => Cmd::Board,
            Command::Announce { .. } => Cmd::Announce,
            Command::TakeBack => Cmd::TakeBack,
            Command::Press => Cmd::Press,
            Command::Repeat { .. } => Cmd::RepeatMove,
            Command::Sheet { .. } => Cmd::Write,
            Command::OfferDraw { .. } => Cmd::Draw,
            Command::AnswerDraw { accept: true, .. } => Cmd::Accept,
            Command::AnswerDraw { accept: false, .. } => Cmd::Decline,
            Command::Resign { .. } => Cmd::Resign,
            Command::Tick | Command::PgnNotes { .. } => return None,
            Command::Adjust { add: true, .. } => Cmd::Add,
            Command::Adjust { add: false, .. } => Cmd::Remove,
            Command::SetTime { .. } => Cmd::Set,
            Command::Correct => Cmd::Correct,
            Command::Pause => Cmd::Pause,
            Command::Resume => Cmd::Resume,
            Command::Penalty { .. } => Cmd::Penalty,
            Command::Claim { .. } => Cmd::Claim,
            Command::Seal { .. } => Cmd::Seal,
            Command::Present { .. } => Cmd::Present,
            Command::Absent { .. } => Cmd::Absent,
            Command::DefaultTime { .. } => Cmd::Default,
            Command::Excuse { .. } => Cmd::Excuse,
            Command::OpenSeal => Cmd::OpenSeal,
            Command::Touch { .. } => Cmd::Touch,
            Command::RequestIncrement { .. } => Cmd::RequestIncrement,
            Command::DecideIncrement { grant: true } => Cmd::GrantIncrement,
            Command::DecideIncrement { grant: false } => Cmd::RefuseIncrement,
            Command::ClaimQuickplay {
                grounds: ClaimGrounds::NoEffort,
                ..
            } => Cmd::ClaimNoEffort,
            Command::ClaimQuickplay { .. } => Cmd::ClaimCannotWin,
            Command::UpholdClaim => Cmd::Agree,
            Command::PostponeClaim { .. } => Cmd::Postpone,
            Command::RejectClaim => Cmd::Reject,
            Command::DecideAfterFlag { draw: true } => Cmd::DecideDraw,
            Command::DecideAfterFlag { draw: false } => Cmd::DecideLoss,
        })
    }
}
