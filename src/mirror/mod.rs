//! Two boards in step (pure core, Appendix D.1, D.2): the sighted player's
//! board and the visually impaired player's board, both scoresheets, the
//! clock, and the arbiter's corrections.
//!
//! A move goes through explicit stages ([`Stage`]): made on the mover's
//! board, announced (a slip of the tongue is corrected here, D.2.8), clock
//! pressed (D.2.4), then repeated and executed on the opponent's board.
//! Events in the wrong order are refused with a typed [`MirrorError`] and
//! change nothing. Every accepted event returns the [`Notice`]s to speak
//! and print, from locale messages.
//!
//! The moment the two boards or the two scoresheets differ, a [`Mismatch`]
//! is reported with the move number and what each side has. The arbiter's
//! correction ([`Mirror::arbiter_correct`]) follows D.2.9.
//!
//! Pure: no I/O, time is injected (`now`, a [`Duration`] since the start of
//! the game, as for [`Clock`]). The same events with the same times always
//! give the same state, which is what the journal relies on.

mod arbiter;
mod correct;
mod pgn_out;
#[cfg(test)]
mod tests;

use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

use crate::clock::{Adjustment, Clock, ClockError, ClockEvent, TimeControl};
use crate::rules::{GameResult, IllegalMoveConsequence, Match};
use crate::vocab::{ParseError, Style, Utterance, Vocabulary};

pub use correct::Correction;
pub use pgn_out::{PgnSource, pgn_time_control};

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

/// How a notice should be treated by the adapters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Ordinary announcement.
    Info,
    /// Something is wrong and needs attention (mismatch, slip, penalty).
    Warning,
}

/// One line to speak and print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// Info or warning.
    pub level: Level,
    /// The text in both forms.
    pub text: Utterance,
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

/// A move sealed at adjournment (Guideline I).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    /// Who sealed it.
    pub by: Color,
    /// The sealed move (secret until opened).
    pub mv: Move,
    /// Position before the sealed move.
    pub fen: String,
    /// The move number of the sealed move.
    pub number: u32,
    /// Time used by White and Black when sealing.
    pub used: [Duration; 2],
    /// A draw offer pending when the game was adjourned.
    pub draw_offer: Option<Color>,
    /// Date, time and place of resumption, as the arbiter wrote them.
    pub resumption: String,
    /// Players' names (White, Black).
    pub names: [String; 2],
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
    /// The game is adjourned with a sealed move.
    Adjourned {
        /// The envelope.
        sealed: Box<Sealed>,
        /// The opponent of the sealer is present (opening is allowed).
        present: bool,
    },
    /// The game is over.
    Over(GameResult),
}

/// Why an event was refused. A refused event changes nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MirrorError {
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
    },
    /// The clock was pressed already; the announcement can no longer change.
    TooLate(Color),
    /// The opponent must first execute `mv` on his board.
    AwaitExecution {
        /// Whose board must take it.
        board: Color,
        /// The move.
        mv: Move,
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
    /// The sealed move is opened only in the presence of the opponent.
    OpponentAbsent(Color),
    /// No draw offer is pending.
    NoDrawOffer,
    /// A draw offer is accepted by the opponent of the one who made it.
    OwnDrawOffer(Color),
    /// The injected time went backwards.
    TimeWentBackwards {
        /// Latest time seen.
        latest: Duration,
    },
    /// The clock refused.
    Clock(ClockError),
}

/// A recorded arbiter action: who, what, when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArbiterRecord {
    /// Game time of the action.
    pub at: Duration,
    /// Ply the action refers to (the number of moves on the boards after it).
    pub ply: usize,
    /// What was done, in words.
    pub text: Utterance,
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
    arbiter: Vec<ArbiterRecord>,
    mismatch: Option<Mismatch>,
    result: Option<GameResult>,
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

/// Result of an accepted event: what to say.
pub type Said = Vec<Notice>;

impl Mirror {
    /// A new game at game time `now`; White's (or the side to move's) clock
    /// starts at once.
    pub fn new(vocab: Vocabulary, config: Config, now: Duration) -> Mirror {
        let board = Match::new(config.start.clone(), config.mode, config.control.kind());
        let mut clock = Clock::new(config.control.clone());
        // A fresh clock always starts.
        let _ = clock.start(now, config.start.turn());
        Mirror {
            vocab,
            boards: [board.clone(), board],
            sheets: [Scoresheet::default(), Scoresheet::default()],
            clock,
            stage: Stage::Idle,
            now,
            draw_offer: None,
            clk: Vec::new(),
            offers: Vec::new(),
            arbiter: Vec::new(),
            mismatch: None,
            result: None,
            config,
        }
    }

    // ----- reading -----

    /// The vocabulary in use.
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

    /// The current mismatch, if the boards or scoresheets differ.
    pub fn mismatch(&self) -> Option<&Mismatch> {
        self.mismatch.as_ref()
    }

    /// The arbiter's record.
    pub fn arbiter_record(&self) -> &[ArbiterRecord] {
        &self.arbiter
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

    /// The position of a board after `ply` moves of `line`.
    fn position_after(&self, line: &[Move]) -> Chess {
        let mut pos = self.config.start.clone();
        for m in line {
            pos.play_unchecked(*m);
        }
        pos
    }

    /// Announces `m` played from the position after `ply` moves on board
    /// `c`.
    fn words_at(&self, line: &[Move], ply: usize, m: Move) -> Utterance {
        let pos = self.position_after(&line[..ply.min(line.len())]);
        if pos.is_legal(m) {
            self.vocab.announce(&pos, m, self.config.style)
        } else {
            Utterance::plain(m.to_uci(self.config.mode).to_string())
        }
    }

    fn side(&self, c: Color) -> Utterance {
        self.vocab.side(c)
    }

    fn msg(&self, key: &str, args: &[(&str, &Utterance)]) -> Utterance {
        self.vocab.message(key, args)
    }

    fn info(&self, key: &str, args: &[(&str, &Utterance)]) -> Notice {
        Notice {
            level: Level::Info,
            text: self.msg(key, args),
        }
    }

    fn warn(&self, key: &str, args: &[(&str, &Utterance)]) -> Notice {
        Notice {
            level: Level::Warning,
            text: self.msg(key, args),
        }
    }

    /// Explains a refused event in the locale's words, saying what to do.
    pub fn describe_error(&self, e: &MirrorError) -> Utterance {
        let s = |c: Color| self.side(c);
        let mv_words = |board: Color, m: Move| {
            let b = &self.boards[idx(board)];
            let pos = b.position();
            if pos.is_legal(m) {
                self.vocab.announce(pos, m, self.config.style)
            } else {
                // Try the other board's line (the move was made there).
                let other = &self.boards[idx(!board)];
                let ply = b.moves().len();
                self.words_at(other.moves(), ply, m)
            }
        };
        match e {
            MirrorError::NotYourTurn { board, mover } => self.msg(
                "mirror.err.not_your_turn",
                &[("board", &s(*board)), ("side", &s(*mover))],
            ),
            MirrorError::AlreadyMade(c) => self.msg("mirror.err.already_made", &[("side", &s(*c))]),
            MirrorError::NoMove(c) => self.msg("mirror.err.no_move", &[("side", &s(*c))]),
            MirrorError::NotAnnounced(c) => {
                self.msg("mirror.err.not_announced", &[("side", &s(*c))])
            }
            MirrorError::SlipUncorrected { color, mv, said } => {
                let b = self.boards[idx(*color)].position();
                self.msg(
                    "mirror.err.slip_uncorrected",
                    &[
                        ("side", &s(*color)),
                        ("move", &self.vocab.announce(b, *mv, self.config.style)),
                        ("said", &self.vocab.announce(b, *said, self.config.style)),
                    ],
                )
            }
            MirrorError::TooLate(c) => self.msg("mirror.err.too_late", &[("side", &s(*c))]),
            MirrorError::AwaitExecution { board, mv } => self.msg(
                "mirror.err.await_execution",
                &[
                    ("side", &s(*board)),
                    ("opponent", &s(!*board)),
                    ("move", &mv_words(*board, *mv)),
                ],
            ),
            MirrorError::NotPressed(c) => self.msg("mirror.err.not_pressed", &[("side", &s(*c))]),
            MirrorError::MissedMove { board, mv } => {
                let ply = self.boards[idx(*board)].moves().len();
                let (_, number) = self.ply_number(ply);
                self.msg(
                    "mirror.missed_move",
                    &[
                        ("side", &s(*board)),
                        ("opponent", &s(!*board)),
                        ("number", &Utterance::plain(number.to_string())),
                        ("move", &mv_words(*board, *mv)),
                    ],
                )
            }
            MirrorError::BoardsDiffer => self.msg("mirror.err.boards_differ", &[]),
            MirrorError::BadMove { board, pos, error } => {
                let why = self.vocab.describe_error(pos, error);
                self.msg(
                    "mirror.err.bad_move",
                    &[("board", &s(*board)), ("reason", &why)],
                )
            }
            MirrorError::GameOver(r) => self.msg(
                "mirror.err.game_over",
                &[("result", &self.vocab.describe_result(r))],
            ),
            MirrorError::Adjourned => self.msg("mirror.err.adjourned", &[]),
            MirrorError::NotAdjourned => self.msg("mirror.err.not_adjourned", &[]),
            MirrorError::OpponentAbsent(c) => {
                self.msg("mirror.err.opponent_absent", &[("side", &s(*c))])
            }
            MirrorError::NoDrawOffer => self.msg("mirror.err.no_draw_offer", &[]),
            MirrorError::OwnDrawOffer(c) => {
                self.msg("mirror.err.own_draw_offer", &[("side", &s(*c))])
            }
            MirrorError::TimeWentBackwards { latest } => self.msg(
                "mirror.err.time_backwards",
                &[("time", &Utterance::plain(hms(*latest)))],
            ),
            MirrorError::Clock(e) => self.msg(
                "mirror.err.clock",
                &[("error", &Utterance::plain(e.to_string()))],
            ),
        }
    }

    // ----- helpers -----

    fn check_time(&mut self, now: Duration) -> Result<(), MirrorError> {
        if now < self.now {
            return Err(MirrorError::TimeWentBackwards { latest: self.now });
        }
        Ok(())
    }

    fn check_playing(&self) -> Result<(), MirrorError> {
        match &self.stage {
            Stage::Over(r) => Err(MirrorError::GameOver(*r)),
            Stage::Adjourned { .. } => Err(MirrorError::Adjourned),
            _ => Ok(()),
        }
    }

    /// Parses `input` on the position `pos`.
    fn resolve(&self, board: Color, pos: &Chess, input: &MoveInput) -> Result<Move, MirrorError> {
        match input {
            MoveInput::Move(m) if pos.is_legal(*m) => Ok(*m),
            MoveInput::Move(m) => {
                // Let the vocabulary explain it from its notation.
                let text = m.to_uci(self.config.mode).to_string();
                let error = match self.vocab.parse(pos, self.config.mode, &text) {
                    Err(e) => e,
                    Ok(_) => ParseError::Empty,
                };
                Err(MirrorError::BadMove {
                    board,
                    pos: Box::new(pos.clone()),
                    error,
                })
            }
            MoveInput::Text(t) => {
                // Standard algebraic notation is unambiguous: read it first
                // (national letters and words go to the vocabulary).
                if let Ok(san) = SanPlus::from_ascii(t.trim().as_bytes())
                    && let Ok(m) = san.san.to_move(pos)
                {
                    return Ok(m);
                }
                self.vocab
                    .parse(pos, self.config.mode, t)
                    .map_err(|error| MirrorError::BadMove {
                        board,
                        pos: Box::new(pos.clone()),
                        error,
                    })
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
    fn settle(&mut self, now: Duration, said: &mut Said) -> Result<(), MirrorError> {
        self.check_time(now)?;
        self.now = now;
        if let Ok(Some(ClockEvent::FlagFell { color, .. })) = self.clock.update(now) {
            self.flag_fell(color, said);
        }
        Ok(())
    }

    fn flag_fell(&mut self, color: Color, said: &mut Said) {
        if self.result.is_some() {
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

    fn end(&mut self, r: GameResult, said: &mut Said) {
        self.result = Some(r);
        self.stage = Stage::Over(r);
        let _ = self.clock.pause(self.now);
        said.push(Notice {
            level: Level::Info,
            text: self.vocab.describe_result(&r),
        });
    }

    // ----- the stages of a move -----

    /// A move is made on the board of `board` at `now`: either the mover's
    /// own move (stage Idle) or the execution of the opponent's move (stage
    /// Pressed). An illegal own move is accepted as made (it may still be
    /// taken back); it counts under Art. 7.5 once the clock is pressed.
    pub fn board_move(
        &mut self,
        now: Duration,
        board: Color,
        input: &MoveInput,
    ) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        self.check_playing()?;
        let mut said = Said::new();
        match self.stage.clone() {
            Stage::Idle => {
                if self.mismatch_is_boards() {
                    return Err(MirrorError::BoardsDiffer);
                }
                let mover = self.turn_of_game();
                if board != mover {
                    // Maybe the opponent's board is still missing our move?
                    return Err(MirrorError::NotYourTurn { board, mover });
                }
                let pos = self.boards[idx(board)].position().clone();
                let text = self.input_text(&pos, input);
                self.settle(now, &mut said)?;
                if self.result.is_some() {
                    return Ok(said);
                }
                match self.resolve(board, &pos, input) {
                    Ok(m) => {
                        self.boards[idx(board)]
                            .play(m)
                            .map_err(|_| MirrorError::NoMove(board))?;
                        self.stage = Stage::Made { mv: Some(m), text };
                        let words = self.vocab.announce(&pos, m, self.config.style);
                        said.push(self.info(
                            "mirror.made",
                            &[("side", &self.side(board)), ("move", &words)],
                        ));
                    }
                    Err(e) => {
                        let why = self.describe_error(&e);
                        self.stage = Stage::Made { mv: None, text };
                        said.push(Notice {
                            level: Level::Warning,
                            text: why,
                        });
                        said.push(self.warn("mirror.illegal_made", &[("side", &self.side(board))]));
                    }
                }
                Ok(said)
            }
            Stage::Made { .. } | Stage::Announced { .. } => {
                let mover = self.turn_of_game_for_pending();
                if board == mover {
                    Err(MirrorError::AlreadyMade(mover))
                } else {
                    Err(MirrorError::NotPressed(mover))
                }
            }
            Stage::Pressed { mv, .. } => {
                let mover = self.longer_board().turn().other();
                let target = !mover;
                if board != target {
                    return Err(MirrorError::AwaitExecution { board: target, mv });
                }
                let pos = self.boards[idx(board)].position().clone();
                let m = match self.resolve(board, &pos, input) {
                    Ok(m) => m,
                    Err(e) => {
                        // Is it the player's own next move, made without
                        // executing the opponent's move first?
                        let ahead = self.boards[idx(mover)].position().clone();
                        if self.resolve(board, &ahead, input).is_ok() {
                            return Err(MirrorError::MissedMove { board, mv });
                        }
                        return Err(e);
                    }
                };
                self.settle(now, &mut said)?;
                if self.result.is_some() {
                    return Ok(said);
                }
                self.boards[idx(board)]
                    .play(m)
                    .map_err(|_| MirrorError::NoMove(board))?;
                self.stage = Stage::Idle;
                let words = self.vocab.announce(&pos, m, self.config.style);
                if self.draw_offer == Some(mover) {
                    // A pending offer lapses when the opponent makes a move;
                    // executing the offerer's move is not that.
                }
                self.detect(&mut said);
                if self.mismatch_is_boards() {
                    return Ok(said);
                }
                let next = self.boards[idx(board)].turn();
                said.push(self.info(
                    "mirror.executed",
                    &[
                        ("side", &self.side(board)),
                        ("move", &words),
                        ("next", &self.side(next)),
                    ],
                ));
                if let Some(r) = self.boards[idx(board)].result() {
                    self.end(r, &mut said);
                }
                Ok(said)
            }
            Stage::Over(r) => Err(MirrorError::GameOver(r)),
            Stage::Adjourned { .. } => Err(MirrorError::Adjourned),
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

    fn mismatch_is_boards(&self) -> bool {
        matches!(self.mismatch, Some(Mismatch::Boards { .. }))
    }

    /// The mover announces the move. `said` is what was announced when it
    /// was given separately (typed or spoken); `None` announces what is on
    /// the board. A different move is a slip of the tongue (D.2.8): it is
    /// reported and must be corrected by announcing again before pressing.
    pub fn announce(
        &mut self,
        now: Duration,
        said_input: Option<&MoveInput>,
    ) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        self.check_playing()?;
        let mover = self.turn_of_game_for_pending();
        let (mv, text) = match self.stage.clone() {
            Stage::Made { mv, text } | Stage::Announced { mv, text, .. } => (mv, text),
            Stage::Idle => return Err(MirrorError::NoMove(mover)),
            Stage::Pressed { .. } => return Err(MirrorError::TooLate(!self.longer_board().turn())),
            Stage::Over(r) => return Err(MirrorError::GameOver(r)),
            Stage::Adjourned { .. } => return Err(MirrorError::Adjourned),
        };
        let b = &self.boards[idx(mover)];
        let before_len = b.moves().len() - usize::from(mv.is_some());
        let before = self.position_after(&b.moves()[..before_len]);
        let said_move = match said_input {
            None => mv,
            Some(inp) => Some(self.resolve(mover, &before, inp)?),
        };
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        if self.result.is_some() {
            return Ok(said);
        }
        let (_, number) = self.ply_number(before_len);
        let num = Utterance::plain(number.to_string());
        match (mv, said_move) {
            (Some(m), Some(s)) if m != s => {
                self.stage = Stage::Announced {
                    mv,
                    text,
                    slip: Some(s),
                };
                said.push(self.warn(
                    "mirror.slip",
                    &[
                        ("side", &self.side(mover)),
                        ("said", &self.vocab.announce(&before, s, self.config.style)),
                        ("move", &self.vocab.announce(&before, m, self.config.style)),
                    ],
                ));
            }
            (Some(m), _) => {
                let was_slip = matches!(self.stage, Stage::Announced { slip: Some(_), .. });
                self.stage = Stage::Announced {
                    mv,
                    text,
                    slip: None,
                };
                let words = self.vocab.announce(&before, m, self.config.style);
                let key = if was_slip {
                    "mirror.slip_corrected"
                } else {
                    "mirror.announced"
                };
                said.push(self.info(
                    key,
                    &[
                        ("number", &num),
                        ("side", &self.side(mover)),
                        ("move", &words),
                    ],
                ));
            }
            (None, _) => {
                self.stage = Stage::Announced {
                    mv: None,
                    text: text.clone(),
                    slip: None,
                };
                said.push(self.warn(
                    "mirror.announced_illegal",
                    &[
                        ("number", &num),
                        ("side", &self.side(mover)),
                        ("move", &Utterance::plain(text)),
                    ],
                ));
            }
        }
        Ok(said)
    }

    /// The mover takes back a move that is made but not yet completed (the
    /// clock not pressed): needed after an illegal move, or when the arbiter
    /// has the player replace it.
    pub fn take_back(&mut self, now: Duration) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        self.check_playing()?;
        let mover = self.turn_of_game_for_pending();
        match self.stage.clone() {
            Stage::Made { mv, .. } | Stage::Announced { mv, .. } => {
                let mut said = Said::new();
                self.settle(now, &mut said)?;
                if mv.is_some() {
                    let b = &mut self.boards[idx(mover)];
                    let len = b.moves().len().saturating_sub(1);
                    b.truncate(len);
                }
                self.stage = Stage::Idle;
                said.push(self.info("mirror.taken_back", &[("side", &self.side(mover))]));
                Ok(said)
            }
            Stage::Idle => Err(MirrorError::NoMove(mover)),
            Stage::Pressed { .. } => Err(MirrorError::TooLate(!self.longer_board().turn())),
            Stage::Over(r) => Err(MirrorError::GameOver(r)),
            Stage::Adjourned { .. } => Err(MirrorError::Adjourned),
        }
    }

    /// The mover presses the clock, completing the move (D.2.4). An illegal
    /// move is counted (Art. 7.5): the position before it is restored, the
    /// opponent gets the penalty time, and a second one loses the game.
    pub fn press(&mut self, now: Duration) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        self.check_playing()?;
        let mover = self.turn_of_game_for_pending();
        let (mv, slip) = match self.stage.clone() {
            Stage::Announced { mv, slip, .. } => (mv, slip),
            Stage::Made { .. } => return Err(MirrorError::NotAnnounced(mover)),
            Stage::Idle => return Err(MirrorError::NoMove(mover)),
            Stage::Pressed { .. } => return Err(MirrorError::TooLate(!self.longer_board().turn())),
            Stage::Over(r) => return Err(MirrorError::GameOver(r)),
            Stage::Adjourned { .. } => return Err(MirrorError::Adjourned),
        };
        if let (Some(m), Some(s)) = (mv, slip) {
            return Err(MirrorError::SlipUncorrected {
                color: mover,
                mv: m,
                said: s,
            });
        }
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        if self.result.is_some() {
            return Ok(said);
        }
        match mv {
            None => {
                // Art. 7.5: an illegal move is completed by pressing.
                self.stage = Stage::Idle;
                let mut consequence = None;
                for b in &mut self.boards {
                    let c = b.record_illegal_move(mover);
                    consequence.get_or_insert(c);
                }
                said.push(self.warn("mirror.illegal_completed", &[("side", &self.side(mover))]));
                match consequence {
                    Some(IllegalMoveConsequence::Penalty { to, extra }) => {
                        self.clock
                            .adjust(now, to, Adjustment::Add(extra))
                            .map_err(MirrorError::Clock)?;
                        let minutes = Utterance::plain((extra.as_secs() / 60).to_string());
                        said.push(self.warn(
                            "penalty.illegal_move",
                            &[
                                ("side", &self.side(mover)),
                                ("opponent", &self.side(to)),
                                ("minutes", &minutes),
                            ],
                        ));
                        self.arbiter.push(ArbiterRecord {
                            at: now,
                            ply: self.longer_board().moves().len(),
                            text: said[said.len() - 1].text.clone(),
                        });
                    }
                    Some(IllegalMoveConsequence::GameEnds(r)) => self.end(r, &mut said),
                    None => {}
                }
                Ok(said)
            }
            Some(m) => {
                let events = self.clock.press(now).map_err(MirrorError::Clock)?;
                let ply = self.boards[idx(mover)].moves().len() - 1;
                let remaining = self.clock.remaining(mover, now);
                if self.clk.len() <= ply {
                    self.clk.resize(ply + 1, None);
                    self.offers.resize(ply + 1, false);
                }
                self.clk[ply] = Some(remaining);
                self.offers[ply] = self.draw_offer == Some(mover);
                self.stage = Stage::Pressed {
                    mv: m,
                    repeated: false,
                };
                let before = self.position_after(&self.boards[idx(mover)].moves()[..ply]);
                let words = self.vocab.announce(&before, m, self.config.style);
                said.push(self.info(
                    "mirror.pressed",
                    &[
                        ("side", &self.side(mover)),
                        ("opponent", &self.side(!mover)),
                        ("move", &words),
                        ("time", &Utterance::plain(hms(remaining))),
                    ],
                ));
                for e in events {
                    if let ClockEvent::PeriodReached { color, added, .. } = e {
                        said.push(self.info(
                            "mirror.period_reached",
                            &[
                                ("side", &self.side(color)),
                                ("time", &Utterance::plain(hms(added))),
                            ],
                        ));
                    }
                }
                Ok(said)
            }
        }
    }

    /// The opponent repeats the announced move aloud (D.2.1). `heard` is
    /// what he repeated, if given; a different move is reported at once.
    pub fn repeat(
        &mut self,
        now: Duration,
        heard: Option<&MoveInput>,
    ) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        self.check_playing()?;
        let Stage::Pressed { mv, .. } = self.stage.clone() else {
            let mover = self.turn_of_game_for_pending();
            return Err(MirrorError::NotPressed(mover));
        };
        let mover = !self.longer_board().turn();
        let before_len = self.boards[idx(mover)].moves().len() - 1;
        let before = self.position_after(&self.boards[idx(mover)].moves()[..before_len]);
        let heard_move = match heard {
            None => mv,
            Some(inp) => self.resolve(!mover, &before, inp)?,
        };
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        let words = self.vocab.announce(&before, heard_move, self.config.style);
        if heard_move == mv {
            self.stage = Stage::Pressed { mv, repeated: true };
            said.push(self.info(
                "mirror.repeated",
                &[("side", &self.side(!mover)), ("move", &words)],
            ));
        } else {
            said.push(self.warn(
                "mirror.repeat_differs",
                &[
                    ("side", &self.side(!mover)),
                    ("heard", &words),
                    ("move", &self.vocab.announce(&before, mv, self.config.style)),
                ],
            ));
        }
        Ok(said)
    }

    /// A player records an entry on his scoresheet (the next line: both
    /// players' moves are recorded). A trailing `(=)` marks a draw offer.
    pub fn sheet_entry(
        &mut self,
        now: Duration,
        sheet: Color,
        input: &MoveInput,
    ) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        let moves = self.sheets[idx(sheet)].valid_moves();
        let valid_prefix = moves.len() == self.sheets[idx(sheet)].entries.len();
        let pos = self.position_after(&moves);
        let (raw, draw_offer) = match input {
            MoveInput::Text(t) => {
                let t = t.trim();
                match t.strip_suffix("(=)") {
                    Some(rest) => (MoveInput::Text(rest.trim().to_owned()), true),
                    None => (MoveInput::Text(t.to_owned()), false),
                }
            }
            MoveInput::Move(m) => (MoveInput::Move(*m), false),
        };
        let mv = if valid_prefix {
            self.resolve(sheet, &pos, &raw).ok()
        } else {
            None
        };
        let text = match (mv, &raw) {
            (Some(m), _) => SanPlus::from_move(pos.clone(), m).to_string(),
            (None, MoveInput::Text(t)) => t.clone(),
            (None, MoveInput::Move(m)) => m.to_uci(self.config.mode).to_string(),
        };
        let ply = self.sheets[idx(sheet)].entries.len();
        self.sheets[idx(sheet)].entries.push(SheetEntry {
            text: text.clone(),
            mv,
            draw_offer,
            corrected: false,
        });
        let (side, number) = self.ply_number(ply);
        let entry_words = match mv {
            Some(m) => self.vocab.announce(&pos, m, self.config.style),
            None => Utterance::plain(text),
        };
        let offer = if draw_offer {
            Utterance::plain(" (=)")
        } else {
            Utterance::default()
        };
        said.push(self.info(
            "mirror.sheet_recorded",
            &[
                ("sheet", &self.side(sheet)),
                ("number", &Utterance::plain(number.to_string())),
                ("side", &self.side(side)),
                ("entry", &entry_words),
                ("offer", &offer),
            ],
        ));
        self.detect(&mut said);
        Ok(said)
    }

    /// `by` offers a draw (Art. 9.1.2: after making a move, before pressing
    /// the clock); recorded `(=)`.
    pub fn offer_draw(&mut self, now: Duration, by: Color) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        self.check_playing()?;
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        if self.result.is_some() {
            return Ok(said);
        }
        self.draw_offer = Some(by);
        said.push(self.info("mirror.draw_offered", &[("side", &self.side(by))]));
        Ok(said)
    }

    /// The opponent of the offerer accepts (`true`) or declines the offer.
    pub fn answer_draw(
        &mut self,
        now: Duration,
        by: Color,
        accept: bool,
    ) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        self.check_playing()?;
        let Some(offerer) = self.draw_offer else {
            return Err(MirrorError::NoDrawOffer);
        };
        if offerer == by {
            return Err(MirrorError::OwnDrawOffer(by));
        }
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        if self.result.is_some() {
            return Ok(said);
        }
        self.draw_offer = None;
        if accept {
            let mut r = None;
            for b in &mut self.boards {
                if let Ok(res) = b.agree_draw() {
                    r.get_or_insert(res);
                }
            }
            if let Some(r) = r {
                self.end(r, &mut said);
            }
        } else {
            said.push(self.info("mirror.draw_declined", &[("side", &self.side(by))]));
        }
        Ok(said)
    }

    /// `by` resigns.
    pub fn resign(&mut self, now: Duration, by: Color) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        self.check_playing()?;
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        if self.result.is_some() {
            return Ok(said);
        }
        let mut r = None;
        for b in &mut self.boards {
            if let Ok(res) = b.resign(by) {
                r.get_or_insert(res);
            }
        }
        if let Some(r) = r {
            self.end(r, &mut said);
        }
        Ok(said)
    }

    /// Game time passes to `now` (a flag may fall).
    pub fn tick(&mut self, now: Duration) -> Result<Said, MirrorError> {
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        Ok(said)
    }

    /// Both clocks and move counts, as the talking clock reads them (D.2.6).
    pub fn clock_reading(&self) -> Utterance {
        let r = |c: Color| self.clock.reading(c, self.now);
        let (w, b) = (r(Color::White), r(Color::Black));
        self.msg(
            "mirror.clock_reading",
            &[
                ("white", &Utterance::plain(hms(w.remaining))),
                ("black", &Utterance::plain(hms(b.remaining))),
                ("white_moves", &Utterance::plain(w.moves.to_string())),
                ("black_moves", &Utterance::plain(b.moves.to_string())),
            ],
        )
    }

    /// Arbiter: gives `color` time (or takes it, `add == false`).
    pub fn arbiter_adjust(
        &mut self,
        now: Duration,
        color: Color,
        amount: Duration,
        add: bool,
    ) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        let adj = if add {
            Adjustment::Add(amount)
        } else {
            Adjustment::Remove(amount)
        };
        self.clock
            .adjust(now, color, adj)
            .map_err(MirrorError::Clock)?;
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        let key = if add {
            "mirror.adjust_add"
        } else {
            "mirror.adjust_remove"
        };
        let n = self.msg(
            key,
            &[
                ("side", &self.side(color)),
                ("time", &Utterance::plain(hms(amount))),
                (
                    "remaining",
                    &Utterance::plain(hms(self.clock.remaining(color, now))),
                ),
            ],
        );
        self.arbiter.push(ArbiterRecord {
            at: now,
            ply: self.longer_board().moves().len(),
            text: n.clone(),
        });
        said.push(Notice {
            level: Level::Warning,
            text: n,
        });
        Ok(said)
    }

    /// Arbiter: sets `color`'s remaining time (e.g. from the scoresheet's
    /// times after a retrace, or when continuing a game from PGN).
    pub fn arbiter_set(
        &mut self,
        now: Duration,
        color: Color,
        remaining: Duration,
    ) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        let current = self.clock.remaining(color, now);
        if remaining >= current {
            self.arbiter_adjust(now, color, remaining - current, true)
        } else {
            self.arbiter_adjust(now, color, current - remaining, false)
        }
    }

    // ----- adjournment (Guideline I) -----

    /// The player to move seals `input` instead of playing it: the clock
    /// stops and the game is adjourned.
    pub fn seal(
        &mut self,
        now: Duration,
        input: &MoveInput,
        resumption: &str,
    ) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        self.check_playing()?;
        if self.stage != Stage::Idle {
            return Err(MirrorError::AlreadyMade(self.turn_of_game_for_pending()));
        }
        if self.mismatch_is_boards() {
            return Err(MirrorError::BoardsDiffer);
        }
        let mover = self.turn_of_game();
        let pos = self.boards[idx(mover)].position().clone();
        let m = self.resolve(mover, &pos, input)?;
        let mut said = Said::new();
        self.settle(now, &mut said)?;
        if self.result.is_some() {
            return Ok(said);
        }
        self.clock.pause(now).map_err(MirrorError::Clock)?;
        let ply = self.boards[idx(mover)].moves().len();
        let (_, number) = self.ply_number(ply);
        let sealed = Sealed {
            by: mover,
            mv: m,
            fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
            number,
            used: [
                self.clock.used(Color::White, now),
                self.clock.used(Color::Black, now),
            ],
            draw_offer: self.draw_offer,
            resumption: resumption.to_owned(),
            names: [self.config.white.clone(), self.config.black.clone()],
        };
        said.push(self.info(
            "mirror.sealed",
            &[
                ("side", &self.side(mover)),
                ("number", &Utterance::plain(number.to_string())),
                ("white", &Utterance::plain(hms(sealed.used[0]))),
                ("black", &Utterance::plain(hms(sealed.used[1]))),
                ("resumption", &Utterance::plain(resumption)),
            ],
        ));
        self.stage = Stage::Adjourned {
            sealed: Box::new(sealed),
            present: false,
        };
        Ok(said)
    }

    /// The sealed record while adjourned.
    pub fn sealed(&self) -> Option<&Sealed> {
        match &self.stage {
            Stage::Adjourned { sealed, .. } => Some(sealed),
            _ => None,
        }
    }

    /// At resumption: the opponent of the sealer is present (the explicit
    /// step before the envelope is opened).
    pub fn opponent_present(&mut self, now: Duration) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        let Stage::Adjourned { sealed, .. } = self.stage.clone() else {
            return Err(MirrorError::NotAdjourned);
        };
        self.now = now;
        let by = sealed.by;
        self.stage = Stage::Adjourned {
            sealed,
            present: true,
        };
        Ok(vec![
            self.info("mirror.present", &[("side", &self.side(!by))]),
        ])
    }

    /// Opens the envelope: the sealed move is made on the sealer's board and
    /// announced, the clock runs again and is pressed for it; the opponent
    /// then executes it as usual.
    pub fn open_seal(&mut self, now: Duration) -> Result<Said, MirrorError> {
        self.check_time(now)?;
        let Stage::Adjourned { sealed, present } = self.stage.clone() else {
            return Err(MirrorError::NotAdjourned);
        };
        if !present {
            return Err(MirrorError::OpponentAbsent(!sealed.by));
        }
        self.now = now;
        self.clock.resume(now).map_err(MirrorError::Clock)?;
        let before = self.boards[idx(sealed.by)].position().clone();
        let words = self.vocab.announce(&before, sealed.mv, self.config.style);
        self.stage = Stage::Idle;
        let mut said = vec![self.info("mirror.seal_opened", &[("move", &words)])];
        said.extend(self.board_move(now, sealed.by, &MoveInput::Move(sealed.mv))?);
        said.extend(self.announce(now, None)?);
        said.extend(self.press(now)?);
        Ok(said)
    }

    // ----- mismatch detection -----

    /// Compares the boards and the scoresheets; reports a new mismatch.
    fn detect(&mut self, said: &mut Said) {
        let found = self.find_mismatch();
        if found != self.mismatch
            && let Some(m) = &found
        {
            let text = self.describe_mismatch(m);
            said.push(Notice {
                level: Level::Warning,
                text,
            });
        }
        self.mismatch = found;
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

    /// A mismatch in words a blind player can follow.
    pub fn describe_mismatch(&self, m: &Mismatch) -> Utterance {
        let nothing = self.msg("mirror.nothing", &[]);
        match m {
            Mismatch::Boards { ply, white, black } => {
                let (side, number) = self.ply_number(*ply);
                let words = |c: Color, mv: Option<Move>| match mv {
                    Some(mv) => self.words_at(self.boards[idx(c)].moves(), *ply, mv),
                    None => nothing.clone(),
                };
                self.msg(
                    "mirror.boards_differ",
                    &[
                        ("number", &Utterance::plain(number.to_string())),
                        ("side", &self.side(side)),
                        ("black", &words(Color::Black, *black)),
                        ("white", &words(Color::White, *white)),
                    ],
                )
            }
            Mismatch::Sheets { ply } => {
                let (side, number) = self.ply_number(*ply);
                let words = |c: Color| self.sheet_words(c, *ply).unwrap_or_else(|| nothing.clone());
                self.msg(
                    "mirror.sheets_differ",
                    &[
                        ("number", &Utterance::plain(number.to_string())),
                        ("side", &self.side(side)),
                        ("black", &words(Color::Black)),
                        ("white", &words(Color::White)),
                    ],
                )
            }
            Mismatch::SheetInvalid { color, ply } => {
                let (side, number) = self.ply_number(*ply);
                let text = self.sheets[idx(*color)]
                    .entries
                    .get(*ply)
                    .map(|e| e.text.clone())
                    .unwrap_or_default();
                self.msg(
                    "mirror.sheet_invalid",
                    &[
                        ("sheet", &self.side(*color)),
                        ("number", &Utterance::plain(number.to_string())),
                        ("side", &self.side(side)),
                        ("entry", &Utterance::plain(text)),
                    ],
                )
            }
        }
    }

    fn sheet_words(&self, c: Color, ply: usize) -> Option<Utterance> {
        let e = self.sheets[idx(c)].entries.get(ply)?;
        Some(match e.mv {
            Some(m) => {
                let line = self.sheets[idx(c)].valid_moves();
                self.words_at(&line, ply, m)
            }
            None => Utterance::plain(e.text.clone()),
        })
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
