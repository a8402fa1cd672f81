//! Reviewing a finished game by ear (pure: no I/O, no threads). The model
//! [`Review`] takes a [`ReviewMsg`] (a typed or spoken line, a key, the
//! engine's answer) and returns [`ReviewEffect`]s (say this, ask the
//! engine, quit); the front ends (`annabella review`: plain lines or the
//! full screen, [`render`]) carry them out.
//!
//! Every move is said in the locale's words with its number and side;
//! board questions are answered by [`crate::query::Queries`] at the
//! current position; comments and clock times come from the game
//! ([`ReviewGame`]: from PGN, from a journal's replayed game, or from the
//! play screen's game).

pub mod front;
pub mod render;
mod words;

#[cfg(test)]
mod tests;

use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

pub use words::{ReviewCmd, ReviewWords};

use crate::clock::talk::{Phrasebook, Verbosity};
use crate::commands::{Cmd, CommandWords};
use crate::engine::{Analysis, EngineError, Score};
use crate::locale::MsgKey;
use crate::mirror::Mirror;
use crate::pgn::PgnGame;
use crate::query::{Queries, join};
use crate::rules::{GameKind, Match};
use crate::vocab::lex::Dictionary;
use crate::vocab::{Style, Utterance, Vocabulary};

/// How many moves "last five moves" says.
pub const RECENT: usize = 5;

/// The result of a game as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    /// This side won.
    Won(Color),
    /// Drawn.
    Drawn,
    /// Not recorded (`*`).
    Unknown,
}

impl Recorded {
    /// From a PGN result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub fn from_token(token: &str) -> Recorded {
        match token.trim() {
            "1-0" => Recorded::Won(Color::White),
            "0-1" => Recorded::Won(Color::Black),
            "1/2-1/2" | "½-½" => Recorded::Drawn,
            _ => Recorded::Unknown,
        }
    }
}

/// A game to review: its start, moves, and what was noted with them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewGame {
    /// Name of White.
    pub white: String,
    /// Name of Black.
    pub black: String,
    /// The recorded result.
    pub result: Recorded,
    /// Start position.
    pub start: Chess,
    /// Castling rules.
    pub mode: CastlingMode,
    /// The moves, in order (all legal).
    pub moves: Vec<Move>,
    /// Per move: the mover's clock after it (`[%clk]`).
    pub clocks: Vec<Option<Duration>>,
    /// Per move: the time spent on it (`[%emt]`, or a cutechess comment).
    pub move_times: Vec<Option<Duration>>,
    /// Comments: `comments[0]` before the first move, `comments[i + 1]`
    /// after move `i`; empty when there is none.
    pub comments: Vec<String>,
    /// The position after each number of moves (computed once, by
    /// [`crate::rules::positions`]).
    positions: Vec<Chess>,
}

/// Why a PGN game cannot be reviewed.
#[derive(Debug, Clone)]
pub enum ReviewGameError {
    /// The headers are wrong (a bad FEN).
    Headers(crate::pgn::FenProblem),
    /// A move is not legal: its 1-based number in the main line, its SAN
    /// and why. The moves before it can still be reviewed.
    Illegal {
        /// 1-based half-move.
        number: usize,
        /// As written.
        san: String,
        /// Why it cannot be played.
        error: crate::pgn::PgnProblem,
        /// The game up to that move.
        before: Box<ReviewGame>,
    },
}

impl ReviewGame {
    /// A game from its parts: what the play screen's game (its
    /// [`Mirror`]) and its PGN export hold. `clocks` and `comments` may
    /// be shorter than `moves` (missing entries are none).
    pub fn new(
        start: Chess,
        mode: CastlingMode,
        moves: Vec<Move>,
        clocks: Vec<Option<Duration>>,
        comments: Vec<String>,
    ) -> ReviewGame {
        let mut g = ReviewGame {
            white: String::new(),
            black: String::new(),
            result: Recorded::Unknown,
            start,
            mode,
            moves,
            clocks,
            move_times: Vec::new(),
            comments,
            positions: Vec::new(),
        };
        g.fit();
        g
    }

    /// Pads or cuts the per-move lists to the moves.
    fn fit(&mut self) {
        self.positions = crate::rules::positions(&self.start, &self.moves);
        self.moves.truncate(self.positions.len() - 1);
        let n = self.moves.len();
        self.clocks.resize(n, None);
        self.move_times.resize(n, None);
        self.comments.resize(n + 1, String::new());
    }

    /// The game of a two-board core (the play screen's, or a journal's
    /// replay): the game as far as it goes, the clock after every press,
    /// and the arbiter's records as comments.
    pub fn from_mirror(m: &Mirror) -> ReviewGame {
        let config = m.config();
        let moves = m.game().moves().to_vec();
        let mut comments = vec![String::new(); moves.len() + 1];
        let verbs = crate::game::script::ScriptVerbs;
        let words = crate::game::words::Wording::of(m, &verbs);
        for rec in m.arbiter_record() {
            if let Some(c) = comments.get_mut(rec.ply) {
                if !c.is_empty() {
                    c.push(' ');
                }
                c.push_str(&words.event(&rec.event).display);
            }
        }
        let mut g = ReviewGame::new(
            config.start.clone(),
            config.mode,
            moves,
            m.clock_times().to_vec(),
            comments,
        );
        g.white = config.white.clone();
        g.black = config.black.clone();
        g.result = match m.result() {
            Some(r) => match r.winner {
                Some(c) => Recorded::Won(c),
                None => Recorded::Drawn,
            },
            None => Recorded::Unknown,
        };
        g
    }

    /// A game read from PGN (its main line; a null move ends it).
    pub fn from_pgn(game: &PgnGame) -> Result<ReviewGame, ReviewGameError> {
        let replayed = game.replay().map_err(ReviewGameError::Headers)?;
        let moves: Vec<Move> = replayed.moves.iter().map_while(|m| *m).collect();
        let n = moves.len();
        let mut g = ReviewGame {
            white: game.header("White").unwrap_or_default().to_owned(),
            black: game.header("Black").unwrap_or_default().to_owned(),
            result: Recorded::from_token(game.header("Result").unwrap_or("*")),
            start: replayed.start.clone(),
            mode: replayed.mode,
            clocks: game.clocks.iter().take(n).copied().collect(),
            move_times: game.move_times.iter().take(n).copied().collect(),
            comments: game.comments.iter().take(n + 1).cloned().collect(),
            moves,
            positions: Vec::new(),
        };
        g.fit();
        match replayed.error {
            Some(e) => Err(ReviewGameError::Illegal {
                number: e.index + 1,
                san: e.text,
                error: e.problem,
                before: Box::new(g),
            }),
            None => Ok(g),
        }
    }

    /// The colour that makes move `i` (0-based), and its move number.
    pub fn move_number(&self, i: usize) -> (Color, u32) {
        let offset = usize::from(self.start.turn() == Color::Black);
        let k = i + offset;
        let color = if k.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        let n = u32::from(self.start.fullmoves()).saturating_add(u32::try_from(k / 2).unwrap_or(0));
        (color, n)
    }

    /// The 0-based index of move `number` of `color`, if the game has it.
    pub fn index_of(&self, number: u32, color: Color) -> Option<usize> {
        let first = u32::from(self.start.fullmoves());
        let k = usize::try_from(number.checked_sub(first)?).ok()? * 2
            + usize::from(color == Color::Black);
        let offset = usize::from(self.start.turn() == Color::Black);
        let i = k.checked_sub(offset)?;
        (i < self.moves.len()).then_some(i)
    }

    /// The position after `ply` moves (the last one beyond the end).
    pub fn position_at(&self, ply: usize) -> Chess {
        self.positions
            .get(ply)
            .or(self.positions.last())
            .cloned()
            .unwrap_or_else(|| self.start.clone())
    }
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewMsg {
    /// A typed (or recognized) line.
    Line(String),
    /// A command from a key.
    Key(ReviewCmd),
    /// The engine's answer for the position after `ply` moves.
    Evaluated {
        /// The position asked about.
        ply: usize,
        /// The analysis, or what went wrong.
        result: Result<Analysis, EngineError>,
    },
    /// No engine could be started.
    NoEngine(EngineError),
}

/// What the front end must do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewEffect {
    /// Say and show this.
    Say(Utterance),
    /// Ask the engine about this position (answer with
    /// [`ReviewMsg::Evaluated`] or [`ReviewMsg::NoEngine`]).
    Evaluate {
        /// The position after `ply` moves.
        ply: usize,
        /// Its FEN.
        fen: String,
        /// How long the engine may think.
        movetime: Duration,
    },
    /// Leave the review.
    Quit,
}

/// The review's state.
#[derive(Debug, Clone)]
pub struct Review {
    vocab: Vocabulary,
    book: Phrasebook,
    game: ReviewGame,
    words: ReviewWords,
    queries: CommandWords,
    dict: Dictionary,
    style: Style,
    ply: usize,
    here: Match,
    movetime: Duration,
    quit: bool,
    /// Everything said, oldest first.
    pub log: Vec<Utterance>,
    /// The line being typed (full screen).
    pub input: String,
}

/// The engine's thinking time unless the front end says otherwise.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);

impl Review {
    /// A review at the start position; the first effects say what the
    /// game is and how to go on.
    pub fn new(vocab: Vocabulary, game: ReviewGame, style: Style) -> (Review, Vec<ReviewEffect>) {
        let book = Phrasebook::new(vocab.locale().clone());
        let words = ReviewWords::new(vocab.locale());
        let queries = CommandWords::new(vocab.locale());
        let dict = Dictionary::new(vocab.locale());
        let here = Match::new(game.start.clone(), game.mode, GameKind::Standard);
        let mut r = Review {
            vocab,
            book,
            game,
            words,
            queries,
            dict,
            style,
            ply: 0,
            here,
            movetime: DEFAULT_MOVETIME,
            quit: false,
            log: Vec::new(),
            input: String::new(),
        };
        let name = |s: &str, c: Color| {
            if s.is_empty() {
                r.vocab.side(c)
            } else {
                Utterance::plain(s)
            }
        };
        let u = r.vocab.message(
            MsgKey::ReviewOpened,
            &[
                ("white", &name(&r.game.white, Color::White)),
                ("black", &name(&r.game.black, Color::Black)),
                ("count", &r.vocab.number(r.game.moves.len())),
                ("result", &r.result_words()),
                ("side", &r.vocab.side(r.game.start.turn())),
                ("next", &Utterance::plain(r.words.shown(ReviewCmd::Next))),
                ("help", &Utterance::plain(r.words.shown(ReviewCmd::Help))),
            ],
        );
        let mut fx = Vec::new();
        r.say(&mut fx, u);
        (r, fx)
    }

    /// How long the engine may think per request.
    pub fn set_movetime(&mut self, movetime: Duration) {
        self.movetime = movetime;
    }

    /// The vocabulary.
    pub fn vocab(&self) -> &Vocabulary {
        &self.vocab
    }

    /// The game.
    pub fn game(&self) -> &ReviewGame {
        &self.game
    }

    /// Moves played at the current position.
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        self.here.position()
    }

    /// The command words.
    pub fn words(&self) -> &ReviewWords {
        &self.words
    }

    /// `true` once the user asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The last thing said.
    pub fn last_message(&self) -> Option<&Utterance> {
        self.log.last()
    }

    fn say(&mut self, fx: &mut Vec<ReviewEffect>, u: Utterance) {
        self.log.push(u.clone());
        if self.log.len() > 500 {
            self.log.drain(..100);
        }
        fx.push(ReviewEffect::Say(u));
    }

    fn result_words(&self) -> Utterance {
        match self.game.result {
            Recorded::Won(c) => self
                .vocab
                .message(MsgKey::ReviewWon, &[("side", &self.vocab.side(c))]),
            Recorded::Drawn => self.vocab.message(MsgKey::ReviewDrawn, &[]),
            Recorded::Unknown => self.vocab.message(MsgKey::ReviewNoResult, &[]),
        }
    }

    /// Move `i` (0-based) in words: "12. White: Springer Felix drei".
    pub fn move_words(&self, i: usize) -> Utterance {
        let Some(m) = self.game.moves.get(i) else {
            return Utterance::default();
        };
        let before = self.game.position_at(i);
        let (color, number) = self.game.move_number(i);
        self.vocab.message(
            MsgKey::ReviewMove,
            &[
                ("number", &self.vocab.number(number)),
                ("side", &self.vocab.side(color)),
                ("move", &self.vocab.announce(&before, *m, self.style)),
            ],
        )
    }

    fn go_to(&mut self, ply: usize) {
        self.ply = ply.min(self.game.moves.len());
        self.here = Match::new(
            self.game.position_at(self.ply),
            self.game.mode,
            GameKind::Standard,
        );
    }

    /// What is said at the current position: its last move, or the start.
    fn here_words(&self) -> Utterance {
        if self.ply == 0 {
            self.vocab.message(
                MsgKey::ReviewStart,
                &[("side", &self.vocab.side(self.game.start.turn()))],
            )
        } else {
            self.move_words(self.ply - 1)
        }
    }

    /// Handles one message.
    pub fn update(&mut self, msg: ReviewMsg) -> Vec<ReviewEffect> {
        let mut fx = Vec::new();
        match msg {
            ReviewMsg::Key(cmd) => self.command(cmd, "", &mut fx),
            ReviewMsg::Line(line) => {
                let line = line.trim().to_owned();
                if line.is_empty() {
                    return fx;
                }
                // "12", "12 black", "12 Schwarz": a move number first.
                let number = line
                    .split_whitespace()
                    .next()
                    .and_then(|w| w.parse::<u32>().ok());
                if let Some(n) = number {
                    self.jump(n, Color::White, &line, &mut fx);
                } else if let Some((cmd, rest)) = self.words.read(self.vocab.locale(), &line) {
                    self.command(cmd, &rest, &mut fx);
                } else if let crate::commands::Input::Command(q, rest) = self.queries.read(&line)
                    && Queries::handles(q)
                {
                    let u = Queries {
                        vocab: &self.vocab,
                        words: &self.queries,
                        dict: &self.dict,
                        base: crate::query::base_dictionary(self.vocab.locale()),
                        style: self.style,
                        game: &self.here,
                    }
                    .answer(q, &rest);
                    self.say(&mut fx, u);
                } else {
                    let u = self.vocab.message(
                        MsgKey::ReviewUnknown,
                        &[
                            ("text", &Utterance::plain(line)),
                            ("help", &Utterance::plain(self.words.shown(ReviewCmd::Help))),
                        ],
                    );
                    self.say(&mut fx, u);
                }
            }
            ReviewMsg::Evaluated { ply, result } => {
                if ply != self.ply {
                    return fx;
                }
                let u = match result {
                    Ok(a) => self.describe_analysis(&a),
                    Err(error) => self.vocab.message(
                        MsgKey::ReviewEngineFailed,
                        &[(
                            "error",
                            &Utterance::plain(error.describe(self.vocab.locale())),
                        )],
                    ),
                };
                self.say(&mut fx, u);
            }
            ReviewMsg::NoEngine(error) => {
                let u = self.vocab.message(
                    MsgKey::ReviewNoEngine,
                    &[(
                        "error",
                        &Utterance::plain(error.describe(self.vocab.locale())),
                    )],
                );
                self.say(&mut fx, u);
            }
        }
        fx
    }

    fn command(&mut self, cmd: ReviewCmd, rest: &str, fx: &mut Vec<ReviewEffect>) {
        let total = self.game.moves.len();
        match cmd {
            ReviewCmd::Next => {
                if self.ply >= total {
                    let u = self
                        .vocab
                        .message(MsgKey::ReviewAtEnd, &[("result", &self.result_words())]);
                    self.say(fx, u);
                } else {
                    self.go_to(self.ply + 1);
                    let u = self.here_words();
                    self.say(fx, u);
                }
            }
            ReviewCmd::Back => {
                if self.ply == 0 {
                    let next = Utterance::plain(self.words.shown(ReviewCmd::Next));
                    let u = self
                        .vocab
                        .message(MsgKey::ReviewAtStart, &[("next", &next)]);
                    self.say(fx, u);
                } else {
                    self.go_to(self.ply - 1);
                    let u = self.here_words();
                    self.say(fx, u);
                }
            }
            ReviewCmd::First => {
                self.go_to(0);
                let u = self.here_words();
                self.say(fx, u);
            }
            ReviewCmd::Last => {
                self.go_to(total);
                let u = self.here_words();
                self.say(fx, u);
            }
            ReviewCmd::Go => {
                let (side, rest) = self.queries.strip_side(rest);
                let number = rest.split_whitespace().find_map(|w| w.parse::<u32>().ok());
                match number {
                    Some(n) => {
                        self.jump(n, side.unwrap_or(Color::White), rest, fx);
                    }
                    None => {
                        let example =
                            Utterance::plain(format!("{} 12", self.words.shown(ReviewCmd::Go)));
                        let u = self
                            .vocab
                            .message(MsgKey::ReviewNeedNumber, &[("example", &example)]);
                        self.say(fx, u);
                    }
                }
            }
            ReviewCmd::Recent => {
                let from = self.ply.saturating_sub(RECENT);
                if self.ply == 0 {
                    let u = self.vocab.message(MsgKey::ReviewRecentNone, &[]);
                    self.say(fx, u);
                } else {
                    let list = join((from..self.ply).map(|i| self.move_words(i)));
                    let u = self.vocab.message(
                        MsgKey::ReviewRecent,
                        &[
                            ("count", &self.vocab.number(self.ply - from)),
                            ("moves", &list),
                        ],
                    );
                    self.say(fx, u);
                }
            }
            ReviewCmd::Comment => {
                let text = self
                    .game
                    .comments
                    .get(self.ply)
                    .cloned()
                    .unwrap_or_default();
                let u = if text.trim().is_empty() {
                    self.vocab.message(MsgKey::ReviewNoComment, &[])
                } else if self.ply == 0 {
                    Utterance::plain(text)
                } else {
                    let (color, number) = self.game.move_number(self.ply - 1);
                    self.vocab.message(
                        MsgKey::ReviewComment,
                        &[
                            ("number", &self.vocab.number(number)),
                            ("side", &self.vocab.side(color)),
                            ("text", &Utterance::plain(text)),
                        ],
                    )
                };
                self.say(fx, u);
            }
            ReviewCmd::Clock => {
                let u = self.clock_words();
                self.say(fx, u);
            }
            ReviewCmd::Eval => {
                if self.position().legal_moves().is_empty() {
                    let u = self.vocab.message(MsgKey::ReviewEvalOver, &[]);
                    self.say(fx, u);
                    return;
                }
                let time = self.book.duration(self.movetime, Verbosity::Full);
                let u = self
                    .vocab
                    .message(MsgKey::ReviewEngineThinking, &[("time", &time)]);
                self.say(fx, u);
                fx.push(ReviewEffect::Evaluate {
                    ply: self.ply,
                    fen: Fen::from_position(self.position(), EnPassantMode::Legal).to_string(),
                    movetime: self.movetime,
                });
            }
            ReviewCmd::Position => {
                let u = if self.ply == 0 {
                    self.here_words()
                } else {
                    let i = self.ply - 1;
                    let (color, number) = self.game.move_number(i);
                    let before = self.game.position_at(i);
                    self.vocab.message(
                        MsgKey::ReviewPosition,
                        &[
                            ("number", &self.vocab.number(number)),
                            ("side", &self.vocab.side(color)),
                            (
                                "move",
                                &self.vocab.announce(&before, self.game.moves[i], self.style),
                            ),
                            ("next", &self.vocab.side(self.position().turn())),
                            ("ply", &self.vocab.number(self.ply)),
                            ("plies", &self.vocab.number(total)),
                        ],
                    )
                };
                self.say(fx, u);
            }
            ReviewCmd::Help => {
                let commands = ReviewCmd::ALL
                    .iter()
                    .map(|c| self.words.shown(*c))
                    .collect::<Vec<_>>()
                    .join(", ");
                let queries = [
                    Cmd::What,
                    Cmd::Where,
                    Cmd::File,
                    Cmd::Rank,
                    Cmd::Pieces,
                    Cmd::Legal,
                    Cmd::Diagonal,
                    Cmd::Ray,
                    Cmd::Attacks,
                    Cmd::Attackers,
                    Cmd::Defenders,
                    Cmd::Fen,
                ]
                .iter()
                .map(|c| self.queries.shown(*c))
                .collect::<Vec<_>>()
                .join(", ");
                let black = self.vocab.side(Color::Black);
                let u = self.vocab.message(
                    MsgKey::ReviewHelp,
                    &[
                        ("commands", &Utterance::plain(commands)),
                        ("queries", &Utterance::plain(queries)),
                        ("black", &black),
                    ],
                );
                self.say(fx, u);
            }
            ReviewCmd::Quit => {
                self.quit = true;
                fx.push(ReviewEffect::Quit);
            }
        }
    }

    fn jump(&mut self, number: u32, color: Color, text: &str, fx: &mut Vec<ReviewEffect>) {
        // "12 black" / "12 Schwarz" as well as "black 12".
        let color = text
            .split_whitespace()
            .find_map(|w| self.queries.side(w))
            .unwrap_or(color);
        match self.game.index_of(number, color) {
            Some(i) => {
                self.go_to(i + 1);
                let u = self.here_words();
                self.say(fx, u);
            }
            None => {
                let total = self.game.moves.len();
                let first = self.game.move_number(0).1;
                let last = self.game.move_number(total.saturating_sub(1)).1;
                let u = self.vocab.message(
                    MsgKey::ReviewNoSuchMove,
                    &[
                        ("number", &self.vocab.number(number)),
                        ("side", &self.vocab.side(color)),
                        ("first", &self.vocab.number(first)),
                        ("last", &self.vocab.number(last)),
                    ],
                );
                self.say(fx, u);
            }
        }
    }

    fn clock_words(&self) -> Utterance {
        if self.ply == 0 {
            return self.vocab.message(MsgKey::ReviewNoClock, &[]);
        }
        let i = self.ply - 1;
        let (color, number) = self.game.move_number(i);
        let args = |time: Utterance| {
            self.vocab.message(
                if self.game.clocks[i].is_some() {
                    MsgKey::ReviewClock
                } else {
                    MsgKey::ReviewMoveTime
                },
                &[
                    ("side", &self.vocab.side(color)),
                    ("number", &self.vocab.number(number)),
                    ("time", &time),
                ],
            )
        };
        match (self.game.clocks[i], self.game.move_times[i]) {
            (Some(t), _) | (None, Some(t)) => args(self.book.duration(t, Verbosity::Brief)),
            (None, None) => self.vocab.message(MsgKey::ReviewNoClock, &[]),
        }
    }

    fn describe_analysis(&self, a: &Analysis) -> Utterance {
        let pos = self.position();
        let turn = pos.turn();
        let score = match a.score {
            Some(Score::Mate(n)) => {
                let winner = if n > 0 { turn } else { !turn };
                self.vocab.message(
                    MsgKey::ReviewScoreMate,
                    &[
                        ("side", &self.vocab.side(winner)),
                        ("moves", &self.vocab.number(u64::from(n.unsigned_abs()))),
                    ],
                )
            }
            Some(Score::Centipawns(cp)) if cp.abs() >= 30 => {
                let ahead = if cp > 0 { turn } else { !turn };
                let tenths = (cp.unsigned_abs() + 5) / 10;
                let pawns = self.vocab.locale().tenths(u64::from(tenths));
                self.vocab.message(
                    MsgKey::ReviewScoreAhead,
                    &[
                        ("side", &self.vocab.side(ahead)),
                        ("pawns", &Utterance::plain(pawns)),
                    ],
                )
            }
            _ => self.vocab.message(MsgKey::ReviewScoreEven, &[]),
        };
        // Only a legal move is said as the best one (as the play screen
        // plays only a legal engine move): anything else is the engine's
        // failure, named as such.
        let Some(best) = a
            .best
            .to_move(pos)
            .ok()
            .map(|m| self.vocab.announce(pos, m, self.style))
        else {
            let error =
                Utterance::plain(EngineError::Illegal(a.best).describe(self.vocab.locale()));
            return self
                .vocab
                .message(MsgKey::ReviewEngineFailed, &[("error", &error)]);
        };
        self.vocab.message(
            MsgKey::ReviewEval,
            &[
                ("time", &self.book.duration(self.movetime, Verbosity::Full)),
                ("score", &score),
                ("side", &self.vocab.side(turn)),
                ("move", &best),
            ],
        )
    }
}
