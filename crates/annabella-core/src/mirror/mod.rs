//! Two boards in step (pure core, Appendix D.1, D.2): the sighted player's
//! board and the visually impaired player's board, both scoresheets, the
//! clock, and the arbiter's corrections.
//!
//! A move goes through explicit stages ([`Stage`]): made on the mover's
//! board, announced (a slip of the tongue is corrected here, D.2.8), clock
//! pressed (D.2.4), then repeated and executed on the opponent's board.
//! Commands in the wrong order are refused with a typed [`GameError`].
//! Every accepted command returns the [`GameEvent`]s it caused, typed: the
//! core never words anything (see [`crate::game::words`]).
//!
//! The moment the two boards or the two scoresheets differ, a [`Mismatch`]
//! is reported with the move number and what each side has. The arbiter's
//! correction ([`Mirror::arbiter_correct`]) follows D.2.9.
//!
//! The stages live in their own files: [`moves`](self) (make, announce,
//! take back, press, repeat, execute), the scoresheets, draws and claims,
//! adjournment, the arbiter's clock and penalty actions, and the
//! correction. Every stage runs through one step ([`Mirror::step`]): the
//! time may not go backwards, the game must be on, and the clock is
//! advanced first (a flag may fall, which ends the step).
//!
//! Pure: no I/O, time is injected (`now`, a [`Duration`] since the start of
//! the game, as for [`Clock`]). The same commands with the same times always
//! give the same state, which is what the journal relies on.

mod adjourn;
mod arbiter;
mod correct;
mod draw;
mod error;
mod event;
mod moves;
mod pgn_out;
mod quickplay;
mod sheet;
pub use sheet::SheetRow;
#[cfg(test)]
mod tests;

use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Square};

use crate::clock::{Clock, ClockEvent, TimeControl};
use crate::rules::{GameResult, Match};
use crate::vocab::{ParseError, Style, Vocabulary};

pub use adjourn::{Attendance, Resumption, SealFault, Sealed};
pub use correct::Correction;
pub use error::GameError;
pub use event::{BoardsSet, Entry, GameEvent, MoveAt};
pub use pgn_out::{PgnNotes, PgnSource, pgn_time_control, result_token};
pub use quickplay::{
    ClaimGrounds, QUICKPLAY_OPPONENT_TIME, QuickplayError, QuickplayEvent, QuickplayPending,
};

/// A move as given by a player or assistant: already a move, or text
/// (algebraic notation, coordinates or the locale's words) for
/// [`Vocabulary::parse`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveInput {
    /// A move (legal or not is checked against the board it is made on).
    Move(Move),
    /// Text to parse on the board it is made on.
    Text(String),
}

impl From<&str> for MoveInput {
    fn from(s: &str) -> MoveInput {
        MoveInput::Text(s.to_owned())
    }
}

impl From<Move> for MoveInput {
    fn from(m: Move) -> MoveInput {
        MoveInput::Move(m)
    }
}

/// A difference between the boards or the scoresheets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// The boards differ at `ply` (0 = first move of the game).
    Boards {
        /// Index of the first differing move.
        ply: usize,
        /// What the board of White has there (`None`: no move).
        white: Option<Move>,
        /// What the board of Black has there.
        black: Option<Move>,
    },
    /// The scoresheets differ at `ply`.
    Sheets {
        /// Index of the first differing entry.
        ply: usize,
    },
    /// A scoresheet entry is not a legal move in the scoresheet's own
    /// position.
    SheetInvalid {
        /// Whose scoresheet.
        color: Color,
        /// Index of the entry.
        ply: usize,
    },
}

/// One line of a scoresheet, as the player recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetEntry {
    /// The text as recorded (without a draw-offer mark).
    pub text: String,
    /// The move it means in the scoresheet's position, if it is legal there.
    pub mv: Option<Move>,
    /// The entry was marked `(=)`: a draw was offered with this move.
    pub draw_offer: bool,
    /// The arbiter corrected this entry.
    pub corrected: bool,
}

/// A player's scoresheet: both players' moves as that player recorded them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Scoresheet {
    entries: Vec<SheetEntry>,
}

impl Scoresheet {
    /// The entries, in order.
    pub fn entries(&self) -> &[SheetEntry] {
        &self.entries
    }

    /// The moves up to the first entry that is not a legal move.
    pub fn valid_moves(&self) -> Vec<Move> {
        self.entries.iter().map_while(|e| e.mv).collect()
    }
}

/// Where the move in progress stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    /// The side to move has not made a move yet.
    Idle,
    /// Made on the mover's board (`mv` is `None` for an illegal move,
    /// `text` holds what was made).
    Made {
        /// The legal move, or `None`.
        mv: Option<Move>,
        /// What was given, for messages.
        text: String,
    },
    /// Announced; `said` is what was announced when it differs from the
    /// board (a slip of the tongue, to be corrected before pressing).
    Announced {
        /// The legal move, or `None` for an illegal one.
        mv: Option<Move>,
        /// What was given, for messages.
        text: String,
        /// A different move that was announced (slip), if any.
        slip: Option<Move>,
    },
    /// Clock pressed: the opponent repeats and executes the move.
    Pressed {
        /// The move to execute on the opponent's board.
        mv: Move,
        /// The opponent has repeated it aloud.
        repeated: bool,
    },
    /// The game is adjourned with a sealed move (Guideline I).
    Adjourned {
        /// The envelope.
        sealed: Box<Sealed>,
        /// The sealer has stopped the clock: the envelope is closed. Until
        /// then he may change his sealed move (I.1.1).
        closed: bool,
    },
    /// The game is over.
    Over(GameResult),
}

/// A recorded arbiter action: who, what, when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArbiterRecord {
    /// Game time of the action.
    pub at: Duration,
    /// Ply the action refers to (the number of moves on the boards after it).
    pub ply: usize,
    /// What was done.
    pub event: GameEvent,
}

/// Everything fixed at the start of a game.
#[derive(Debug, Clone)]
pub struct Config {
    /// Name of White.
    pub white: String,
    /// Name of Black.
    pub black: String,
    /// The time control.
    pub control: TimeControl,
    /// Start position.
    pub start: Chess,
    /// Castling mode (Chess960 or standard).
    pub mode: CastlingMode,
    /// How moves are announced.
    pub style: Style,
    /// Guideline III (games without increment, quickplay finishes) was
    /// announced for this game (III.2.1).
    pub quickplay: bool,
    /// Rapid or blitz played without adequate supervision (Appendix A.5,
    /// B.3, an event's choice): a completed illegal move loses when the
    /// opponent claims it before making his next move (A.5.2), instead of
    /// the time penalty of Art. 7.5.5.
    /// Without an arbiter, a Guideline III draw claim concludes the
    /// game (III.6).
    pub unsupervised: bool,
    /// Practice, not a rated game: the legality of a player's own move is
    /// told at once (an illegal move made, an illegal sealed move). In a
    /// tournament game (the default) nothing about his own move is said
    /// before the clock is pressed (Art. 11.3); the press applies 7.5.
    pub practice: bool,
    /// The sighted player, if one is named (Appendix D.2.5): for him the
    /// ordinary rules apply, so a move of his counts when it is made on
    /// his board (a mate ends the game then, 5.1.1) and a piece released
    /// on a square stays there (4.7). `None`: both players move by D.2.3
    /// (a move counts when it is made and announced).
    pub sighted: Option<Color>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            white: String::new(),
            black: String::new(),
            control: TimeControl::classical(),
            start: Chess::default(),
            mode: CastlingMode::Standard,
            style: Style::Long,
            quickplay: false,
            unsupervised: false,
            practice: false,
            sighted: None,
        }
    }
}

/// The two boards, the two scoresheets, the clock and the record.
#[derive(Debug, Clone)]
pub struct Mirror {
    vocab: Vocabulary,
    config: Config,
    boards: [Match; 2],
    sheets: [Scoresheet; 2],
    clock: Clock,
    stage: Stage,
    now: Duration,
    draw_offer: Option<Color>,
    /// Per ply of the game: the mover's remaining time after the press.
    clk: Vec<Option<Duration>>,
    /// Per ply: a draw was offered with this move.
    offers: Vec<bool>,
    /// Comments of a game continued from PGN: `[0]` before the first move,
    /// `[i + 1]` after move `i` (kept for the export).
    notes: Vec<String>,
    arbiter: Vec<ArbiterRecord>,
    mismatch: Option<Mismatch>,
    result: Option<GameResult>,
    /// A pawn moved to the last rank without a piece chosen (Art. 7.5.2):
    /// the move it becomes if the clock is pressed (a queen).
    unpromoted: Option<Move>,
    /// Appendix A.5.2: the player who may claim the win for the illegal
    /// move just completed, until he makes his next move.
    illegal_claim: Option<Color>,
    /// After an incorrect claim based on a written move, that move must be
    /// made (Art. 9.5.3): the claimant and the move, until it is completed.
    claim_move: Option<(Color, Move)>,
    /// The boards differ and the clocks were stopped for the arbiter
    /// (D.2.9): his correction starts them again.
    mismatch_stopped: bool,
    /// A piece the player to move touched (reported by the assistant,
    /// D.2.10.5): Art. 4.3 applies, and he may not claim a draw on this
    /// move (9.4). Cleared when his move is completed.
    touched: Option<(Color, Square)>,
    /// Guideline III procedures under way.
    quickplay: quickplay::Quickplay,
    /// The resumption of an adjourned game (Guideline I.9–I.11).
    adjourn: Resumption,
}

/// Index of a colour in the two-element arrays.
pub const fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Formats a duration as `h:mm:ss` (PGN `%clk` style).
pub fn hms(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

/// Result of an accepted command: what happened, in order.
pub type Said = Vec<GameEvent>;

impl Mirror {
    /// A new game at game time `now`; White's (or the side to move's) clock
    /// starts at once.
    pub fn new(vocab: Vocabulary, config: Config, now: Duration) -> Mirror {
        let board = Match::new(config.start.clone(), config.mode, config.control.kind());
        let mut clock = Clock::new(config.control.clone());
        // A fresh clock always starts.
        let _ = clock.start(now, config.start.turn());
        // A start position that is already mate, stalemate or dead: the
        // game is over before it begins (5.1.1, 5.2.1, 5.2.2), the clocks
        // stand still and nothing but the scoresheets can change.
        let result = board.result();
        if result.is_some() {
            let _ = clock.pause(now);
        }
        Mirror {
            vocab,
            boards: [board.clone(), board],
            sheets: [Scoresheet::default(), Scoresheet::default()],
            clock,
            stage: result.map_or(Stage::Idle, Stage::Over),
            now,
            draw_offer: None,
            clk: Vec::new(),
            offers: Vec::new(),
            notes: Vec::new(),
            arbiter: Vec::new(),
            mismatch: None,
            result,
            unpromoted: None,
            illegal_claim: None,
            claim_move: None,
            mismatch_stopped: false,
            touched: None,
            quickplay: quickplay::Quickplay::default(),
            adjourn: Resumption::default(),
            config,
        }
    }

    // ----- reading -----

    /// The vocabulary in use (to read typed and spoken moves).
    pub fn vocab(&self) -> &Vocabulary {
        &self.vocab
    }

    /// The game's configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The board of `c` (its moves as actually executed on it).
    pub fn board(&self, c: Color) -> &Match {
        &self.boards[idx(c)]
    }

    /// The scoresheet of `c`.
    pub fn sheet(&self, c: Color) -> &Scoresheet {
        &self.sheets[idx(c)]
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The stage of the move in progress.
    pub fn stage(&self) -> &Stage {
        &self.stage
    }

    /// The latest game time seen.
    pub fn now(&self) -> Duration {
        self.now
    }

    /// The side whose move it is (on the mover's board).
    pub fn mover(&self) -> Color {
        match &self.stage {
            Stage::Pressed { .. } => !self.longer_board().turn(),
            _ => self.turn_of_game_for_pending(),
        }
    }

    /// The move under way: the side whose move it is and its move number.
    /// A move made but not pressed is still under way (its number, not the
    /// next one); after the press, the opponent's move is (his clock runs,
    /// though he has yet to execute the pressed move on his board).
    pub fn move_under_way(&self) -> (Color, u32) {
        let plies = self.longer_board().moves().len();
        let ply = match &self.stage {
            Stage::Made { mv: Some(_), .. } | Stage::Announced { mv: Some(_), .. } => {
                plies.saturating_sub(1)
            }
            _ => plies,
        };
        self.ply_number(ply)
    }

    /// The game as far as it goes: the board with more moves (the mover's
    /// board while the opponent has yet to execute the move).
    pub fn game(&self) -> &Match {
        self.longer_board()
    }

    /// The game's side to move: from the longer board.
    fn turn_of_game(&self) -> Color {
        self.longer_board().turn()
    }

    fn longer_board(&self) -> &Match {
        if self.boards[1].moves().len() > self.boards[0].moves().len() {
            &self.boards[1]
        } else {
            &self.boards[0]
        }
    }

    fn turn_of_game_for_pending(&self) -> Color {
        // During Made/Announced with a legal move, the mover's board has
        // already advanced; with an illegal move it has not.
        match &self.stage {
            Stage::Made { mv: Some(_), .. } | Stage::Announced { mv: Some(_), .. } => {
                !self.longer_board().turn()
            }
            _ => self.longer_board().turn(),
        }
    }

    /// The current mismatch, if the boards or scoresheets differ.
    pub fn mismatch(&self) -> Option<&Mismatch> {
        self.mismatch.as_ref()
    }

    fn mismatch_is_boards(&self) -> bool {
        matches!(self.mismatch, Some(Mismatch::Boards { .. }))
    }

    /// The arbiter's record.
    pub fn arbiter_record(&self) -> &[ArbiterRecord] {
        &self.arbiter
    }

    /// Who may claim the win for the illegal move just completed (rapid
    /// or blitz without adequate supervision, A.5.2), until his next move.
    pub fn win_claimable_by(&self) -> Option<Color> {
        self.illegal_claim
    }

    /// A pending draw offer and who made it.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Per ply: the mover's remaining time after pressing the clock.
    pub fn clock_times(&self) -> &[Option<Duration>] {
        &self.clk
    }

    /// Per ply: a draw was offered with this move.
    pub fn draw_offers(&self) -> &[bool] {
        &self.offers
    }

    /// Comments of a game continued from PGN: `[0]` before the first
    /// move, `[i + 1]` after move `i`.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// A move on a board at `ply` that is not legal there but stood
    /// (Appendix A.5.2).
    pub(crate) fn stood(&self, ply: usize, m: Move) -> bool {
        self.boards.iter().any(|b| b.moves().get(ply) == Some(&m))
    }

    /// A game continued from PGN keeps what the PGN says of its moves
    /// (after they were played on both boards): the clock time after each
    /// move (`[%clk]`; the clocks are set to the last of each side's) and
    /// the comments (`comments[0]` before the first move, `comments[i +
    /// 1]` after move `i`), for the export.
    ///
    /// # Errors
    ///
    /// [`GameError::TimeWentBackwards`], [`GameError::Clock`].
    pub fn import_notes(
        &mut self,
        now: Duration,
        clocks: &[Option<Duration>],
        comments: &[String],
    ) -> Result<Said, GameError> {
        self.check_time(now)?;
        let plies = self.longer_board().moves().len();
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        if self.clk.len() < plies {
            self.clk.resize(plies, None);
            self.offers.resize(plies, false);
        }
        let mut last = [None, None];
        for (i, t) in clocks.iter().enumerate().take(plies) {
            if let Some(t) = t {
                self.clk[i] = Some(*t);
                last[idx(self.ply_number(i).0)] = Some(*t);
            }
        }
        self.notes = comments.iter().take(plies + 1).cloned().collect();
        if self.result.is_none() {
            for c in [Color::White, Color::Black] {
                if let Some(t) = last[idx(c)] {
                    self.clock
                        .set_remaining(now, c, t)
                        .map_err(GameError::Clock)?;
                }
            }
        }
        if last.iter().any(Option::is_some) {
            said.push(GameEvent::ClocksFromPgn {
                white: last[0],
                black: last[1],
            });
        }
        Ok(said)
    }

    /// The colour that moves at `ply`, and the move number there.
    pub fn ply_number(&self, ply: usize) -> (Color, u32) {
        let start = &self.config.start;
        let offset = usize::from(start.turn() == Color::Black);
        let k = ply + offset;
        let color = if k.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        let number = u32::from(start.fullmoves()).saturating_add(u32::try_from(k / 2).unwrap_or(0));
        (color, number)
    }

    /// The position after the moves of `line`.
    fn position_after(&self, line: &[Move]) -> Chess {
        let mut pos = self.config.start.clone();
        for m in line {
            pos.play_unchecked(*m);
        }
        pos
    }

    /// Move `m` of `line` at `ply`, in the position it was made in.
    fn move_at(&self, line: &[Move], ply: usize, m: Move) -> MoveAt {
        MoveAt {
            before: self.position_after(&line[..ply.min(line.len())]),
            mv: m,
        }
    }

    // ----- the step every command goes through -----

    /// Refuses a command at a time before the latest one seen.
    fn check_time(&self, now: Duration) -> Result<(), GameError> {
        if now < self.now {
            return Err(GameError::TimeWentBackwards { latest: self.now });
        }
        Ok(())
    }

    /// Refuses a game command once the game is over or adjourned.
    fn check_playing(&self) -> Result<(), GameError> {
        if let Some(r) = self.result {
            return Err(GameError::GameOver(r));
        }
        match &self.stage {
            Stage::Over(r) => Err(GameError::GameOver(*r)),
            Stage::Adjourned {
                sealed,
                closed: false,
            } => Err(GameError::Sealing(sealed.by)),
            Stage::Adjourned { .. } => Err(GameError::Adjourned),
            _ => self.quickplay_blocks(),
        }
    }

    /// Checks that a game command may run at `now` (time, game on).
    fn guard(&self, now: Duration) -> Result<(), GameError> {
        self.check_time(now)?;
        self.check_playing()
    }

    /// The step every command goes through, after its checks: the clock
    /// is advanced to `now` (a flag may fall: then the game is over and
    /// `body` does not run), then `body` does the command's work.
    fn step(
        &mut self,
        now: Duration,
        body: impl FnOnce(&mut Mirror, &mut Said) -> Result<(), GameError>,
    ) -> Result<Said, GameError> {
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        if self.result.is_none() {
            body(self, &mut said)?;
        }
        Ok(said)
    }

    /// Parses `input` on the position `pos`.
    fn resolve(&self, board: Color, pos: &Chess, input: &MoveInput) -> Result<Move, GameError> {
        let bad = |error| GameError::BadMove {
            board,
            pos: Box::new(pos.clone()),
            error,
        };
        match input {
            MoveInput::Move(m) if pos.is_legal(*m) => Ok(*m),
            MoveInput::Move(m) => {
                // Let the vocabulary explain it from its notation.
                let text = m.to_uci(self.config.mode).to_string();
                Err(bad(self
                    .vocab
                    .parse(pos, self.config.mode, &text)
                    .err()
                    .unwrap_or(ParseError::Empty)))
            }
            MoveInput::Text(t) => {
                // Standard algebraic notation is unambiguous: read it first
                // (national letters and words go to the vocabulary).
                if let Ok(san) = SanPlus::from_ascii(t.trim().as_bytes())
                    && let Ok(m) = san.san.to_move(pos)
                {
                    return Ok(m);
                }
                self.vocab.parse(pos, self.config.mode, t).map_err(bad)
            }
        }
    }

    fn input_text(&self, pos: &Chess, input: &MoveInput) -> String {
        match input {
            MoveInput::Text(t) => t.clone(),
            MoveInput::Move(m) => {
                if pos.is_legal(*m) {
                    SanPlus::from_move(pos.clone(), *m).to_string()
                } else {
                    m.to_uci(self.config.mode).to_string()
                }
            }
        }
    }

    /// Advances the clock to `now` and handles a flag fall.
    fn settle(&mut self, now: Duration, said: &mut Said) -> Result<(), GameError> {
        self.check_time(now)?;
        self.now = now;
        if let Ok(Some(ClockEvent::FlagFell { color, .. })) = self.clock.update(now) {
            self.flag_fell(color, said);
        }
        self.settle_absence(now, said);
        Ok(())
    }

    fn flag_fell(&mut self, color: Color, said: &mut Said) {
        if self.result.is_some() || self.quickplay_flag_fell(color, said) {
            return;
        }
        let mut r = None;
        for b in &mut self.boards {
            if let Ok(res) = b.flag_fall(color) {
                r.get_or_insert(res);
            }
        }
        if let Some(r) = r {
            self.end(r, said);
        }
    }

    /// The game is over: the clocks stop at once (a flag falling later
    /// counts for nothing, 6.9) and the result is said. A final move the
    /// opponent has yet to make on his board can still be made there.
    fn end(&mut self, r: GameResult, said: &mut Said) {
        self.result = Some(r);
        self.unpromoted = None;
        self.illegal_claim = None;
        self.claim_move = None;
        self.draw_offer = None;
        self.touched = None;
        if !matches!(self.stage, Stage::Pressed { .. }) {
            self.stage = Stage::Over(r);
        }
        let _ = self.clock.pause(self.now);
        said.push(GameEvent::GameOver(r));
    }

    /// Both players have made at least one move (5.2.3).
    fn both_have_moved(&self) -> bool {
        self.longer_board().moves().len() >= 2
    }

    /// Records an arbiter's action (or a penalty) with what it caused.
    fn record(&mut self, now: Duration, event: &GameEvent) {
        let ply = self.longer_board().moves().len();
        self.arbiter.push(ArbiterRecord {
            at: now,
            ply,
            event: event.clone(),
        });
    }

    /// Game time passes to `now` (a flag may fall).
    pub fn tick(&mut self, now: Duration) -> Result<Said, GameError> {
        self.step(now, |_, _| Ok(()))
    }

    // ----- mismatch detection -----

    /// Compares the boards and the scoresheets; reports a new mismatch.
    fn detect(&mut self, said: &mut Said) {
        let found = self.find_mismatch();
        if found != self.mismatch
            && let Some(m) = &found
        {
            // D.2.9: boards that differ are corrected with the arbiter;
            // both clocks stand still until he has done so.
            if matches!(m, Mismatch::Boards { .. })
                && self.result.is_none()
                && self.clock.pause(self.now).is_ok()
            {
                self.mismatch_stopped = true;
            }
            said.push(self.mismatch_event(m));
        }
        self.mismatch = found;
    }

    /// After the arbiter's correction: the clocks stopped for differing
    /// boards run again, for the player to move.
    fn restart_after_mismatch(&mut self, now: Duration, said: &mut Said) {
        if !self.mismatch_stopped || self.mismatch_is_boards() {
            return;
        }
        self.mismatch_stopped = false;
        if self.result.is_none()
            && self.clock.resume(now).is_ok()
            && let Some(side) = self.clock.to_move()
        {
            said.push(GameEvent::ClockResumed { side });
        }
    }

    /// The first difference between the boards, then the scoresheets.
    pub fn find_mismatch(&self) -> Option<Mismatch> {
        let w = self.boards[0].moves();
        let b = self.boards[1].moves();
        // The mover's board may be one move ahead while the opponent has
        // yet to execute it: that is no mismatch.
        let pending = matches!(
            self.stage,
            Stage::Made { mv: Some(_), .. }
                | Stage::Announced { mv: Some(_), .. }
                | Stage::Pressed { .. }
        );
        let n = w.len().min(b.len());
        if let Some(ply) = (0..n).find(|&i| w[i] != b[i]) {
            return Some(Mismatch::Boards {
                ply,
                white: Some(w[ply]),
                black: Some(b[ply]),
            });
        }
        let lag = w.len().abs_diff(b.len());
        if lag > usize::from(pending) {
            return Some(Mismatch::Boards {
                ply: n,
                white: w.get(n).copied(),
                black: b.get(n).copied(),
            });
        }
        for c in [Color::White, Color::Black] {
            if let Some(ply) = self.sheets[idx(c)]
                .entries
                .iter()
                .position(|e| e.mv.is_none())
            {
                return Some(Mismatch::SheetInvalid { color: c, ply });
            }
        }
        let sw = &self.sheets[0].entries;
        let sb = &self.sheets[1].entries;
        let n = sw.len().min(sb.len());
        (0..n)
            .find(|&i| sw[i].mv != sb[i].mv)
            .map(|ply| Mismatch::Sheets { ply })
    }

    /// A mismatch with what each board or scoresheet has there.
    pub fn mismatch_event(&self, m: &Mismatch) -> GameEvent {
        let board = |c: Color, ply: usize, mv: Option<Move>| match mv {
            Some(mv) => Entry::Move(self.move_at(self.boards[idx(c)].moves(), ply, mv)),
            None => Entry::Nothing,
        };
        let (ply, white, black) = match m {
            Mismatch::Boards { ply, white, black } => (
                *ply,
                board(Color::White, *ply, *white),
                board(Color::Black, *ply, *black),
            ),
            Mismatch::Sheets { ply } => (
                *ply,
                self.sheet_at(Color::White, *ply),
                self.sheet_at(Color::Black, *ply),
            ),
            Mismatch::SheetInvalid { color, ply } => {
                let entry = self.sheet_at(*color, *ply);
                match color {
                    Color::White => (*ply, entry, Entry::Nothing),
                    Color::Black => (*ply, Entry::Nothing, entry),
                }
            }
        };
        let (side, number) = self.ply_number(ply);
        GameEvent::Mismatch {
            found: m.clone(),
            number,
            side,
            white,
            black,
        }
    }

    /// What the scoresheet of `c` has at `ply`.
    fn sheet_at(&self, c: Color, ply: usize) -> Entry {
        let Some(e) = self.sheets[idx(c)].entries.get(ply) else {
            return Entry::Nothing;
        };
        match e.mv {
            Some(m) => Entry::Move(self.move_at(&self.sheets[idx(c)].valid_moves(), ply, m)),
            None => Entry::Text(e.text.clone()),
        }
    }

    /// The position of the board of `c` as FEN.
    pub fn fen(&self, c: Color) -> String {
        Fen::from_position(self.boards[idx(c)].position(), EnPassantMode::Legal).to_string()
    }

    /// A move in UCI for the journal (Chess960 aware).
    pub fn uci(&self, m: Move) -> String {
        m.to_uci(self.config.mode).to_string()
    }

    /// A move from UCI in `pos`.
    pub fn from_uci(&self, pos: &Chess, uci: &str) -> Option<Move> {
        let u: UciMove = uci.parse().ok()?;
        u.to_move(pos).ok()
    }

    /// SAN of `m` in the position after `line`.
    pub fn san(&self, line: &[Move], m: Move) -> String {
        let pos = self.position_after(line);
        if pos.is_legal(m) {
            San::from_move(&pos, m).to_string()
        } else {
            m.to_uci(self.config.mode).to_string()
        }
    }
}
