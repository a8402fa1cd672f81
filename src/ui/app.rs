//! The play screen's model and update function (pure: no I/O, time is
//! injected). Adapters (full-screen terminal, plain lines) feed it
//! [`Msg`]s and carry out the [`Effect`]s it returns; everything it says is
//! appended to [`App::log`] and returned as [`Effect::Say`].
//!
//! Seams for the parallel work: the game is a [`Match`] plus a [`Clock`]
//! here; the two-board mirror (issue 5) can replace both behind the same
//! messages, spoken input (issue 3) sends the same [`Msg::Line`], speech
//! output (issue 4) consumes [`Effect::Say`].

use std::path::PathBuf;
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, EnPassantMode, Move, Position, Role, Square};

use super::command::{Cmd, CommandWords, Input};
use crate::clock::talk::{Phrasebook, Schedule, TalkEvent, Talker, Verbosity};
use crate::clock::{Adjustment, Clock, ClockEvent, TimeControl};
use crate::rules::{GameResult, IllegalMoveConsequence, Match, RuleError};
use crate::vocab::lex::{Dictionary, Token};
use crate::vocab::{ParseError, Style, Utterance, Vocabulary};

/// How the program is used at the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Mode {
    /// Over-the-board play: each player types (or says) their own moves.
    #[default]
    Board,
    /// Appendix D.2.10: one assistant enters both players' moves; time and
    /// move count only on request; flag fall is announced.
    Assistant,
    /// Against a UCI engine.
    Engine,
    /// Two players at one keyboard.
    Hotseat,
}

impl Mode {
    fn key(self) -> &'static str {
        match self {
            Mode::Board => "ui.mode.board",
            Mode::Assistant => "ui.mode.assistant",
            Mode::Engine => "ui.mode.engine",
            Mode::Hotseat => "ui.mode.hotseat",
        }
    }
}

/// Which sides the engine plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum EngineSide {
    /// The engine plays White.
    White,
    /// The engine plays Black.
    #[default]
    Black,
    /// The engine plays both sides (demonstration, tests).
    Both,
}

impl EngineSide {
    fn plays(self, c: Color) -> bool {
        matches!(
            (self, c),
            (EngineSide::Both, _)
                | (EngineSide::White, Color::White)
                | (EngineSide::Black, Color::Black)
        )
    }
}

/// Settings of one game.
#[derive(Debug, Clone)]
pub struct Settings {
    /// How the program is used.
    pub mode: Mode,
    /// Which sides the engine plays (engine mode).
    pub engine_side: EngineSide,
    /// The time control.
    pub control: TimeControl,
    /// Announcement style.
    pub style: Style,
    /// Where `save` writes the game.
    pub save_path: PathBuf,
    /// Also write the game there after every completed move and at the
    /// end (quietly; only a failure is said).
    pub autosave: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            mode: Mode::Board,
            engine_side: EngineSide::Black,
            control: TimeControl::default(),
            style: Style::Short,
            save_path: PathBuf::from("annabella-game.pgn"),
            autosave: false,
        }
    }
}

/// Something that happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Msg {
    /// A typed (or recognized) line.
    Line(String),
    /// The help key (F1, or `?` on an empty line).
    HelpKey,
    /// Time passed (the display tick).
    Tick,
    /// The engine chose a move (UCI text).
    EngineMove(String),
    /// The engine could not be used (missing, or it stopped).
    EngineFailed {
        /// What the system said.
        error: String,
        /// `true` when it could not be started at all.
        at_start: bool,
    },
    /// The game file was written (or not).
    Saved(Result<PathBuf, String>),
}

/// What the adapter must do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Say and show this.
    Say(Utterance),
    /// Ask the engine for a move in this position.
    AskEngine {
        /// Start position (FEN).
        fen: String,
        /// Moves since then, in UCI.
        moves: Vec<String>,
    },
    /// Write `text` to `path`.
    Save {
        /// The file.
        path: PathBuf,
        /// PGN text.
        text: String,
    },
    /// Write `text` to `path` quietly: only a failure is reported (as
    /// [`Msg::Saved`] with an error).
    Autosave {
        /// The file.
        path: PathBuf,
        /// PGN text.
        text: String,
    },
    /// Leave the program.
    Quit,
}

/// What the next typed line answers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
enum Prompt {
    /// A move or command.
    #[default]
    Game,
    /// The number of one of these moves.
    Choice(Vec<Move>),
    /// Quit: yes or no.
    ConfirmQuit,
    /// The arbiter menu.
    Arbiter,
}

/// A move made on the board whose clock is not yet pressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unpressed {
    /// The move.
    pub mv: Move,
    /// Who made it.
    pub by: Color,
    /// Its words.
    pub words: Utterance,
}

/// The model of the play screen.
#[derive(Debug, Clone)]
pub struct App {
    vocab: Vocabulary,
    words: CommandWords,
    dict: Dictionary,
    phrases: Option<Phrasebook>,
    /// Automatic time announcements (low time, countdown, period); none
    /// in assistant mode, where time is told only on request (D.2.10).
    talker: Option<Talker>,
    settings: Settings,
    game: Match,
    clock: Clock,
    unpressed: Option<Unpressed>,
    prompt: Prompt,
    draw_offer: Option<Color>,
    engine_on: bool,
    engine_busy: bool,
    last_said: Option<Utterance>,
    /// Everything said, oldest first.
    pub log: Vec<Utterance>,
    /// The line being typed (full-screen mode).
    pub input: String,
    quit: bool,
    now: Duration,
}

/// How many lines the log keeps.
const LOG_KEEP: usize = 500;

impl App {
    /// A new game at time `now`; the first effects (welcome, the engine's
    /// first move) are returned too.
    pub fn new(vocab: Vocabulary, settings: Settings, now: Duration) -> (App, Vec<Effect>) {
        let words = CommandWords::new(vocab.locale());
        let dict = Dictionary::new(vocab.locale());
        // The clock speaks the same language as the rest of the screen
        // (for `fide`, whose words are German but whose messages are the
        // base locale's, that is the base language).
        let phrases = Some(Phrasebook::new(vocab.locale().clone()));
        let talker = (settings.mode != Mode::Assistant).then(|| {
            Talker::new(Schedule {
                // Moves, presses, flag fall and arbiter changes are said by
                // the app itself.
                turn: false,
                flag_fall: false,
                adjustments: false,
                ..Schedule::default()
            })
        });
        let mut clock = Clock::new(settings.control.clone());
        let _ = clock.start(now, Color::White);
        let mut app = App {
            vocab,
            words,
            dict,
            phrases,
            talker,
            engine_on: settings.mode == Mode::Engine,
            settings,
            game: Match::default(),
            clock,
            unpressed: None,
            prompt: Prompt::Game,
            draw_offer: None,
            engine_busy: false,
            last_said: None,
            log: Vec::new(),
            input: String::new(),
            quit: false,
            now,
        };
        let mut fx = Vec::new();
        let mode = Utterance::plain(app.vocab.locale().message(app.settings.mode.key(), &[]));
        let control = Utterance::plain(app.settings.control.to_string());
        let side = app.vocab.side(Color::White);
        let example = app.vocab.example(app.game.position());
        let help = app.cmd_word(Cmd::Help);
        let welcome = app.vocab.message(
            "ui.welcome",
            &[
                ("mode", &mode),
                ("control", &control),
                ("side", &side),
                ("example", &example),
                ("help", &help),
            ],
        );
        app.say(&mut fx, welcome);
        if app.settings.mode == Mode::Engine && app.settings.engine_side != EngineSide::Both {
            let engine_side = if app.settings.engine_side.plays(Color::White) {
                Color::White
            } else {
                Color::Black
            };
            let u = app.vocab.message(
                "ui.you_play",
                &[
                    ("side", &app.vocab.side(!engine_side)),
                    ("engine", &app.vocab.side(engine_side)),
                ],
            );
            app.say(&mut fx, u);
        }
        app.maybe_ask_engine(&mut fx);
        (app, fx)
    }

    // ---- accessors for rendering and adapters ----

    /// The vocabulary.
    pub fn vocab(&self) -> &Vocabulary {
        &self.vocab
    }

    /// The game.
    pub fn game(&self) -> &Match {
        &self.game
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The move made but not yet pressed, if any.
    pub fn unpressed(&self) -> Option<&Unpressed> {
        self.unpressed.as_ref()
    }

    /// The time of the last update.
    pub fn now(&self) -> Duration {
        self.now
    }

    /// `true` once the user confirmed quitting.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// `true` while the engine is asked for a move.
    pub fn engine_busy(&self) -> bool {
        self.engine_busy
    }

    /// `true` when the program is waiting for the engine, so an adapter
    /// whose input has ended should keep running.
    pub fn waiting_for_engine(&self) -> bool {
        self.engine_busy && self.game.result().is_none()
    }

    /// The last thing said.
    pub fn last_message(&self) -> Option<&Utterance> {
        self.log.last()
    }

    /// A player's scoresheet: the moves in the locale's notation, one entry
    /// per half-move. Both players' sheets come from the one game here; the
    /// two-board mirror gives each its own.
    pub fn sheet(&self, _owner: Color) -> Vec<String> {
        let mut pos = self.game.start().clone();
        let mut out = Vec::with_capacity(self.game.moves().len());
        for m in self.game.moves() {
            let san = San::from_move(&pos, *m).to_string();
            out.push(self.local_san(&san));
            pos.play_unchecked(*m);
        }
        out
    }

    fn local_san(&self, san: &str) -> String {
        let mut chars = san.chars();
        match chars.next() {
            Some(c @ ('K' | 'Q' | 'R' | 'B' | 'N')) if !san.starts_with("O-") => {
                let role = Role::from_char(c.to_ascii_lowercase());
                let letter = role.map(|r| self.piece_letter(r));
                match letter {
                    Some(l) => format!("{l}{}", chars.as_str()),
                    None => san.to_owned(),
                }
            }
            _ => san.to_owned(),
        }
    }

    /// The letter of a piece for boards and scoresheets: the locale's
    /// notation letter, else the first letter of its name (pawn: the first
    /// letter of the pawn's name).
    pub fn piece_letter(&self, role: Role) -> String {
        let loc = self.vocab.locale();
        if let Some((_, l)) = loc.notation.pieces.iter().find(|(r, _)| *r == role) {
            return l.clone();
        }
        let name = &loc.piece(role).display;
        name.chars()
            .next()
            .map(|c| c.to_uppercase().collect())
            .unwrap_or_else(|| role.upper_char().to_string())
    }

    // ---- the update function ----

    /// Handles one message at time `now`.
    pub fn update(&mut self, msg: Msg, now: Duration) -> Vec<Effect> {
        self.now = self.now.max(now);
        let mut fx = Vec::new();
        match msg {
            Msg::Tick => self.tick(&mut fx),
            Msg::HelpKey => self.help(&mut fx),
            Msg::Line(line) => {
                self.tick(&mut fx);
                self.line(&line, &mut fx);
            }
            Msg::EngineMove(uci) => self.engine_move(&uci, &mut fx),
            Msg::EngineFailed { error, at_start } => {
                self.engine_busy = false;
                if self.engine_on {
                    self.engine_on = false;
                    let side = self.vocab.side(self.game.turn());
                    let error = Utterance::plain(error);
                    let key = if at_start {
                        "ui.engine_missing"
                    } else {
                        "ui.engine_failed"
                    };
                    let u = self
                        .vocab
                        .message(key, &[("error", &error), ("side", &side)]);
                    self.say(&mut fx, u);
                }
            }
            Msg::Saved(r) => {
                let u = match r {
                    Ok(path) => {
                        let file = Utterance::plain(path.display().to_string());
                        self.vocab.message("ui.saved", &[("file", &file)])
                    }
                    Err(e) => {
                        let file = Utterance::plain(self.settings.save_path.display().to_string());
                        let error = Utterance::plain(e);
                        let save = self.cmd_word(Cmd::Save);
                        self.vocab.message(
                            "ui.save_failed",
                            &[("file", &file), ("error", &error), ("save", &save)],
                        )
                    }
                };
                self.say(&mut fx, u);
            }
        }
        fx
    }

    fn say(&mut self, fx: &mut Vec<Effect>, u: Utterance) {
        self.last_said = Some(u.clone());
        self.log.push(u.clone());
        if self.log.len() > LOG_KEEP {
            self.log.drain(..self.log.len() - LOG_KEEP);
        }
        fx.push(Effect::Say(u));
    }

    fn cmd_word(&self, cmd: Cmd) -> Utterance {
        Utterance::plain(self.words.shown(cmd).to_owned())
    }

    fn tick(&mut self, fx: &mut Vec<Effect>) {
        if self.game.result().is_some() {
            return;
        }
        if let Ok(Some(ClockEvent::FlagFell { color, .. })) = self.clock.update(self.now) {
            self.flag_fell(color, fx);
        } else if let Some(color) = self.clock.flagged()
            && self.game.result().is_none()
        {
            self.flag_fell(color, fx);
        } else {
            self.talk(&[], fx);
        }
    }

    /// Automatic time announcements due now (see [`Talker`]).
    fn talk(&mut self, events: &[ClockEvent], fx: &mut Vec<Effect>) {
        let (Some(talker), Some(phrases)) = (&mut self.talker, &self.phrases) else {
            return;
        };
        let events: Vec<TalkEvent> = events.iter().cloned().map(TalkEvent::from).collect();
        let said: Vec<Utterance> = talker
            .observe(&self.clock, self.now, &events)
            .iter()
            .map(|a| phrases.announcement(a, Verbosity::Brief))
            .collect();
        for u in said {
            self.say(fx, u);
        }
    }

    fn flag_fell(&mut self, color: Color, fx: &mut Vec<Effect>) {
        let side = self.vocab.side(color);
        let u = self.vocab.message("clock.flag_fell", &[("side", &side)]);
        self.say(fx, u);
        if let Ok(r) = self.game.flag_fall(color) {
            self.announce_result(r, fx);
        }
    }

    fn autosave(&self, fx: &mut Vec<Effect>) {
        if self.settings.autosave {
            fx.push(Effect::Autosave {
                path: self.settings.save_path.clone(),
                text: self.pgn(),
            });
        }
    }

    fn announce_result(&mut self, r: GameResult, fx: &mut Vec<Effect>) {
        self.autosave(fx);
        let _ = self.clock.pause(self.now);
        self.draw_offer = None;
        self.prompt = Prompt::Game;
        let result = self.vocab.describe_result(&r);
        let save = self.cmd_word(Cmd::Save);
        let quit = self.cmd_word(Cmd::Quit);
        let u = self.vocab.message(
            "ui.game_over",
            &[("result", &result), ("save", &save), ("quit", &quit)],
        );
        self.say(fx, u);
    }

    fn line(&mut self, line: &str, fx: &mut Vec<Effect>) {
        let input = self.words.read(line);
        match std::mem::take(&mut self.prompt) {
            Prompt::ConfirmQuit => match input {
                Input::Command(Cmd::Yes, _) => {
                    self.quit = true;
                    fx.push(Effect::Quit);
                }
                _ => {
                    let u = self.vocab.message("ui.quit_cancelled", &[]);
                    self.say(fx, u);
                }
            },
            Prompt::Choice(moves) => match input {
                Input::Number(n) if (1..=moves.len()).contains(&n) => {
                    self.make_move(moves[n - 1], fx);
                }
                Input::Number(n) => {
                    let number = Utterance::plain(n.to_string());
                    let max = Utterance::plain(moves.len().to_string());
                    let u = self
                        .vocab
                        .message("ui.bad_choice", &[("number", &number), ("max", &max)]);
                    self.say(fx, u);
                    self.prompt = Prompt::Choice(moves);
                }
                other => self.game_input(other, fx),
            },
            Prompt::Arbiter => self.arbiter_input(input, fx),
            Prompt::Game => self.game_input(input, fx),
        }
    }

    fn game_input(&mut self, input: Input, fx: &mut Vec<Effect>) {
        match input {
            Input::Empty => {}
            Input::Number(_) => {
                // A number alone is no move: explain like any bad move.
                let u = self
                    .vocab
                    .describe_error(self.game.position(), &ParseError::Empty);
                self.unknown(u, fx);
            }
            Input::Move(text) => self.typed_move(&text, fx),
            Input::Command(cmd, rest) => self.command(cmd, &rest, fx),
        }
    }

    fn unknown(&mut self, error: Utterance, fx: &mut Vec<Effect>) {
        let help = self.cmd_word(Cmd::Help);
        let u = self
            .vocab
            .message("ui.unknown", &[("error", &error), ("help", &help)]);
        self.say(fx, u);
    }

    /// `true` when the engine is to move now.
    fn engine_to_move(&self) -> bool {
        self.engine_on
            && self.game.result().is_none()
            && self.unpressed.is_none()
            && self.settings.engine_side.plays(self.game.turn())
    }

    fn typed_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        if let Some(r) = self.game.result() {
            return self.announce_result(r, fx);
        }
        if let Some(u) = &self.unpressed {
            let side = self.vocab.side(u.by);
            let mv = u.words.clone();
            let press = self.cmd_word(Cmd::Press);
            let takeback = self.cmd_word(Cmd::TakeBack);
            let msg = self.vocab.message(
                "ui.press_first",
                &[
                    ("side", &side),
                    ("move", &mv),
                    ("press", &press),
                    ("takeback", &takeback),
                ],
            );
            return self.say(fx, msg);
        }
        if self.engine_to_move() {
            let side = self.vocab.side(self.game.turn());
            let u = self.vocab.message("ui.engine_turn", &[("side", &side)]);
            return self.say(fx, u);
        }
        let pos = self.game.position().clone();
        match self.vocab.parse(&pos, self.game.mode(), text) {
            Ok(m) => self.make_move(m, fx),
            Err(ParseError::Ambiguous(moves)) => {
                let or = self.vocab.locale().message("parse.or", &[]);
                let mut list = Utterance::default();
                for (i, m) in moves.iter().enumerate() {
                    let words = self.vocab.announce(&pos, *m, Style::Long);
                    let sep = if i == 0 {
                        String::new()
                    } else {
                        format!(" {or} ")
                    };
                    list.display
                        .push_str(&format!("{sep}{}: {}", i + 1, words.display));
                    list.spoken
                        .push_str(&format!("{sep}{}: {}", i + 1, words.spoken));
                }
                let u = self.vocab.message("ui.choose", &[("candidates", &list)]);
                self.say(fx, u);
                self.prompt = Prompt::Choice(moves);
            }
            Err(e) => {
                let u = self.vocab.describe_error(&pos, &e);
                self.unknown(u, fx);
            }
        }
    }

    /// Makes a legal move on the board (clock not yet pressed).
    fn make_move(&mut self, m: Move, fx: &mut Vec<Effect>) {
        let pos = self.game.position().clone();
        let by = pos.turn();
        let words = self.vocab.announce(&pos, m, self.settings.style);
        match self.game.play(m) {
            Ok(result) => {
                let side = self.vocab.side(by);
                let u = self
                    .vocab
                    .message("ui.moved", &[("side", &side), ("move", &words)]);
                self.say(fx, u);
                if let Some(r) = result {
                    // The move ended the game: the clock stops with it.
                    let _ = self.clock.press(self.now);
                    self.announce_result(r, fx);
                } else {
                    self.unpressed = Some(Unpressed { mv: m, by, words });
                }
            }
            Err(e) => self.rule_error(e, fx),
        }
    }

    fn rule_error(&mut self, e: RuleError, fx: &mut Vec<Effect>) {
        match e {
            RuleError::GameOver(r) => self.announce_result(r, fx),
            other => {
                let u = Utterance::plain(other.to_string());
                self.unknown(u, fx);
            }
        }
    }

    fn press(&mut self, fx: &mut Vec<Effect>) {
        let Some(u) = self.unpressed.take() else {
            let side = self.vocab.side(self.game.turn());
            let msg = self
                .vocab
                .message("ui.nothing_to_press", &[("side", &side)]);
            return self.say(fx, msg);
        };
        match self.clock.press(self.now) {
            Ok(events) => {
                let side = self.vocab.side(u.by);
                let next = self.vocab.side(!u.by);
                let msg = self
                    .vocab
                    .message("ui.pressed", &[("side", &side), ("next", &next)]);
                self.say(fx, msg);
                self.autosave(fx);
                self.talk(&events, fx);
                if let Some(ClockEvent::FlagFell { color, .. }) = events
                    .iter()
                    .find(|e| matches!(e, ClockEvent::FlagFell { .. }))
                {
                    self.flag_fell(*color, fx);
                }
            }
            Err(e) => {
                self.tick(fx);
                if self.game.result().is_none() {
                    let error = Utterance::plain(e.to_string());
                    let msg = self.vocab.message("ui.clock_refused", &[("error", &error)]);
                    self.say(fx, msg);
                    self.unpressed = Some(u);
                }
            }
        }
        self.maybe_ask_engine(fx);
    }

    fn maybe_ask_engine(&mut self, fx: &mut Vec<Effect>) {
        if self.engine_to_move() && !self.engine_busy {
            self.engine_busy = true;
            let fen = Fen::from_position(self.game.start(), EnPassantMode::Legal).to_string();
            let moves = self
                .game
                .moves()
                .iter()
                .map(|m| m.to_uci(self.game.mode()).to_string())
                .collect();
            fx.push(Effect::AskEngine { fen, moves });
        }
    }

    fn engine_move(&mut self, uci: &str, fx: &mut Vec<Effect>) {
        self.engine_busy = false;
        if !self.engine_to_move() {
            return;
        }
        let m = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(self.game.position()).ok());
        match m {
            Some(m) => {
                self.make_move(m, fx);
                if self.unpressed.is_some() {
                    self.press(fx);
                }
            }
            None => {
                let error = format!("bestmove {uci}");
                let msgs = self.update(
                    Msg::EngineFailed {
                        error,
                        at_start: false,
                    },
                    self.now,
                );
                fx.extend(msgs);
            }
        }
    }

    fn take_back(&mut self, fx: &mut Vec<Effect>) {
        match self.unpressed.take() {
            Some(u) => {
                let len = self.game.moves().len();
                self.game.truncate(len.saturating_sub(1));
                let side = self.vocab.side(u.by);
                let msg = self
                    .vocab
                    .message("ui.taken_back", &[("move", &u.words), ("side", &side)]);
                self.say(fx, msg);
            }
            None => {
                let msg = self.vocab.message("ui.nothing_to_take_back", &[]);
                self.say(fx, msg);
            }
        }
    }

    fn help(&mut self, fx: &mut Vec<Effect>) {
        let u = match &self.prompt {
            Prompt::Choice(_) => self.vocab.message("ui.help_choice", &[]),
            Prompt::ConfirmQuit => {
                let yes = self.cmd_word(Cmd::Yes);
                let no = self.cmd_word(Cmd::No);
                self.vocab
                    .message("ui.help_confirm", &[("yes", &yes), ("no", &no)])
            }
            Prompt::Arbiter => {
                let commands = self.command_list(&Cmd::ARBITER);
                let add = self.cmd_word(Cmd::Add);
                let back = self.cmd_word(Cmd::Back);
                self.vocab.message(
                    "ui.help_arbiter",
                    &[("commands", &commands), ("add", &add), ("back", &back)],
                )
            }
            Prompt::Game => {
                let commands = self.command_list(&Cmd::GAME);
                let example = self.vocab.example(self.game.position());
                let press = self.cmd_word(Cmd::Press);
                self.vocab.message(
                    "ui.help",
                    &[
                        ("commands", &commands),
                        ("example", &example),
                        ("press", &press),
                    ],
                )
            }
        };
        self.say(fx, u);
    }

    fn command_list(&self, cmds: &[Cmd]) -> Utterance {
        Utterance::plain(
            cmds.iter()
                .map(|c| self.words.shown(*c))
                .collect::<Vec<_>>()
                .join(", "),
        )
    }

    fn command(&mut self, cmd: Cmd, rest: &str, fx: &mut Vec<Effect>) {
        match cmd {
            Cmd::Help => self.help(fx),
            Cmd::Press => self.press(fx),
            Cmd::TakeBack => self.take_back(fx),
            Cmd::Time => {
                if let Some(p) = &self.phrases {
                    let w = self.clock.reading(Color::White, self.now);
                    let b = self.clock.reading(Color::Black, self.now);
                    let u = p.times(&w, &b, Verbosity::Brief);
                    self.say(fx, u);
                }
            }
            Cmd::MyTime => {
                let (side, _) = self.words.strip_side(rest);
                let side = side.unwrap_or_else(|| self.clock_side());
                if let Some(p) = &self.phrases {
                    let r = self.clock.reading(side, self.now);
                    let u = p.time(&r, Verbosity::Brief);
                    self.say(fx, u);
                }
            }
            Cmd::Count => {
                if let Some(p) = &self.phrases {
                    let w = p.moves(&self.clock.reading(Color::White, self.now));
                    let b = p.moves(&self.clock.reading(Color::Black, self.now));
                    let u = Utterance {
                        display: format!("{} {}", w.display, b.display),
                        spoken: format!("{} {}", w.spoken, b.spoken),
                    };
                    self.say(fx, u);
                }
            }
            Cmd::Repeat => {
                if let Some(u) = self.last_said.clone() {
                    self.log.push(u.clone());
                    fx.push(Effect::Say(u));
                }
            }
            Cmd::What | Cmd::Where | Cmd::File | Cmd::Rank | Cmd::Pieces | Cmd::Legal => {
                let u = self.query(cmd, rest);
                self.say(fx, u);
            }
            Cmd::Last => {
                let u = self.last_move();
                self.say(fx, u);
            }
            Cmd::Sheet => {
                let sheet = self.sheet(Color::White);
                let u = if sheet.is_empty() {
                    self.vocab.message("ui.sheet_empty", &[])
                } else {
                    let text = sheet
                        .chunks(2)
                        .enumerate()
                        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
                        .collect::<Vec<_>>()
                        .join(" ");
                    self.vocab
                        .message("ui.sheet", &[("moves", &Utterance::plain(text))])
                };
                self.say(fx, u);
            }
            Cmd::Draw => self.offer_draw(rest, fx),
            Cmd::Accept | Cmd::Decline => self.answer_draw(cmd == Cmd::Accept, rest, fx),
            Cmd::Claim => self.claim(fx),
            Cmd::Resign => {
                let (side, _) = self.words.strip_side(rest);
                let by = side.unwrap_or_else(|| self.clock_side());
                match self.game.resign(by) {
                    Ok(r) => {
                        self.unpressed = None;
                        self.announce_result(r, fx);
                    }
                    Err(e) => self.rule_error(e, fx),
                }
            }
            Cmd::Arbiter => {
                self.prompt = Prompt::Arbiter;
                self.help(fx);
            }
            Cmd::Save => fx.push(Effect::Save {
                path: self.settings.save_path.clone(),
                text: self.pgn(),
            }),
            Cmd::Quit => {
                self.prompt = Prompt::ConfirmQuit;
                let yes = self.cmd_word(Cmd::Yes);
                let no = self.cmd_word(Cmd::No);
                let u = self
                    .vocab
                    .message("ui.quit_confirm", &[("yes", &yes), ("no", &no)]);
                self.say(fx, u);
            }
            Cmd::Pause | Cmd::Resume | Cmd::Add | Cmd::Remove | Cmd::Penalty | Cmd::Back => {
                // Arbiter commands also work from the game prompt.
                self.arbiter_input(Input::Command(cmd, rest.to_owned()), fx);
                if cmd == Cmd::Back {
                    self.prompt = Prompt::Game;
                }
            }
            Cmd::Yes | Cmd::No => {
                let u = self
                    .vocab
                    .describe_error(self.game.position(), &ParseError::Empty);
                self.unknown(u, fx);
            }
        }
    }

    /// The side whose clock runs (the player who is to act).
    fn clock_side(&self) -> Color {
        match &self.unpressed {
            Some(u) => u.by,
            None => self.game.turn(),
        }
    }

    fn arbiter_input(&mut self, input: Input, fx: &mut Vec<Effect>) {
        self.prompt = Prompt::Arbiter;
        let Input::Command(cmd, rest) = input else {
            if input != Input::Empty {
                self.help(fx);
            }
            return;
        };
        let now = self.now;
        match cmd {
            Cmd::Back => {
                self.prompt = Prompt::Game;
                let u = self.vocab.message("ui.arbiter_back", &[]);
                self.say(fx, u);
            }
            Cmd::Pause | Cmd::Resume => {
                let side = self.vocab.side(self.clock_side());
                let r = if cmd == Cmd::Pause {
                    self.clock.pause(now)
                } else {
                    self.clock.resume(now)
                };
                let u = match r {
                    Ok(()) => {
                        let key = if cmd == Cmd::Pause {
                            "clock.paused"
                        } else {
                            "clock.resumed"
                        };
                        self.vocab.message(key, &[("side", &side)])
                    }
                    Err(e) => self.vocab.message(
                        "ui.clock_refused",
                        &[("error", &Utterance::plain(e.to_string()))],
                    ),
                };
                self.say(fx, u);
            }
            Cmd::Add | Cmd::Remove => {
                let (side, rest) = self.words.strip_side(&rest);
                let secs = rest
                    .split_whitespace()
                    .next()
                    .and_then(|s| s.parse::<u64>().ok());
                let (Some(side), Some(secs)) = (side, secs) else {
                    let example = Utterance::plain(format!(
                        "{} {} 60",
                        self.words.shown(cmd),
                        self.vocab.side(Color::White).display.to_lowercase()
                    ));
                    let u = self.vocab.message("ui.need_time", &[("example", &example)]);
                    return self.say(fx, u);
                };
                let d = Duration::from_secs(secs);
                let adj = if cmd == Cmd::Add {
                    Adjustment::Add(d)
                } else {
                    Adjustment::Remove(d)
                };
                let u = match self.clock.adjust(now, side, adj) {
                    Ok(()) => {
                        let key = if cmd == Cmd::Add {
                            "ui.time_added"
                        } else {
                            "ui.time_removed"
                        };
                        self.vocab.message(
                            key,
                            &[
                                ("side", &self.vocab.side(side)),
                                ("seconds", &Utterance::plain(secs.to_string())),
                            ],
                        )
                    }
                    Err(e) => self.vocab.message(
                        "ui.clock_refused",
                        &[("error", &Utterance::plain(e.to_string()))],
                    ),
                };
                self.say(fx, u);
            }
            Cmd::Penalty => {
                let (side, _) = self.words.strip_side(&rest);
                let Some(side) = side else {
                    let example = Utterance::plain(format!(
                        "{} {}",
                        self.words.shown(Cmd::Penalty),
                        self.vocab.side(Color::White).display.to_lowercase()
                    ));
                    let u = self.vocab.message("ui.need_side", &[("example", &example)]);
                    return self.say(fx, u);
                };
                match self.game.record_illegal_move(side) {
                    IllegalMoveConsequence::Penalty { to, extra } => {
                        let _ = self.clock.adjust(now, to, Adjustment::Add(extra));
                        let u = self.vocab.message(
                            "penalty.illegal_move",
                            &[
                                ("side", &self.vocab.side(side)),
                                ("opponent", &self.vocab.side(to)),
                                (
                                    "minutes",
                                    &Utterance::plain((extra.as_secs() / 60).to_string()),
                                ),
                            ],
                        );
                        self.say(fx, u);
                    }
                    IllegalMoveConsequence::GameEnds(r) => {
                        self.unpressed = None;
                        self.announce_result(r, fx);
                    }
                }
            }
            Cmd::Help => self.help(fx),
            other => {
                // Game commands work inside the menu too.
                self.prompt = Prompt::Game;
                self.command(other, &rest, fx);
                if self.prompt == Prompt::Game {
                    self.prompt = Prompt::Arbiter;
                }
            }
        }
    }

    fn offer_draw(&mut self, rest: &str, fx: &mut Vec<Effect>) {
        if let Some(r) = self.game.result() {
            return self.announce_result(r, fx);
        }
        let (side, _) = self.words.strip_side(rest);
        let by = side.unwrap_or_else(|| self.clock_side());
        self.draw_offer = Some(by);
        let u = self.vocab.message(
            "ui.draw_offered",
            &[
                ("side", &self.vocab.side(by)),
                ("opponent", &self.vocab.side(!by)),
                ("accept", &self.cmd_word(Cmd::Accept)),
                ("decline", &self.cmd_word(Cmd::Decline)),
            ],
        );
        self.say(fx, u);
    }

    fn answer_draw(&mut self, accept: bool, rest: &str, fx: &mut Vec<Effect>) {
        let Some(offerer) = self.draw_offer else {
            let u = self
                .vocab
                .message("ui.no_draw_offer", &[("draw", &self.cmd_word(Cmd::Draw))]);
            return self.say(fx, u);
        };
        let (side, _) = self.words.strip_side(rest);
        let by = side.unwrap_or(!offerer);
        if by == offerer {
            let u = self.vocab.message(
                "ui.own_draw_offer",
                &[
                    ("side", &self.vocab.side(by)),
                    ("opponent", &self.vocab.side(!by)),
                ],
            );
            return self.say(fx, u);
        }
        self.draw_offer = None;
        if accept {
            match self.game.agree_draw() {
                Ok(r) => {
                    self.unpressed = None;
                    self.announce_result(r, fx);
                }
                Err(e) => self.rule_error(e, fx),
            }
        } else {
            let u = self
                .vocab
                .message("ui.draw_declined", &[("side", &self.vocab.side(by))]);
            self.say(fx, u);
        }
    }

    fn claim(&mut self, fx: &mut Vec<Effect>) {
        // A claim is made by the player to move, before pressing (an
        // unpressed move is the "intended" move of Art. 9.2.1.1).
        let intended = self.unpressed.take();
        if let Some(u) = &intended {
            let len = self.game.moves().len();
            self.game.truncate(len.saturating_sub(1));
            let _ = u;
        }
        let by = self.game.turn();
        match self.game.claim_draw(by, intended.as_ref().map(|u| u.mv)) {
            Ok(r) => self.announce_result(r, fx),
            Err(RuleError::ClaimRejected {
                repetitions,
                halfmoves,
            }) => {
                if let Some(u) = intended {
                    // The written move stands; it still needs the press.
                    let _ = self.game.play(u.mv);
                    self.unpressed = Some(u);
                }
                let extra = crate::rules::INCORRECT_CLAIM_PENALTY;
                let _ = self.clock.adjust(self.now, !by, Adjustment::Add(extra));
                let u = self.vocab.message(
                    "ui.claim_rejected",
                    &[
                        ("side", &self.vocab.side(by)),
                        ("opponent", &self.vocab.side(!by)),
                        ("repetitions", &Utterance::plain(repetitions.to_string())),
                        ("halfmoves", &Utterance::plain(halfmoves.to_string())),
                        (
                            "minutes",
                            &Utterance::plain((extra.as_secs() / 60).to_string()),
                        ),
                    ],
                );
                self.say(fx, u);
            }
            Err(RuleError::NotYourTurn) => {
                let u = self
                    .vocab
                    .message("ui.not_your_claim", &[("side", &self.vocab.side(by))]);
                self.say(fx, u);
            }
            Err(e) => {
                if let Some(u) = intended {
                    let _ = self.game.play(u.mv);
                    self.unpressed = Some(u);
                }
                self.rule_error(e, fx);
            }
        }
    }

    // ---- board queries ----

    /// The tokens of `text`: of the readings the lexer offers, the first
    /// with a square (so "b1" is the square, not bishop and rank).
    fn tokens(&self, text: &str) -> Vec<Token> {
        let lexed = self.dict.tokenize(text);
        let with_square = lexed
            .alternatives
            .iter()
            .position(|alt| alt.iter().any(|t| matches!(t, Token::Square(_))));
        let i = with_square.unwrap_or(0);
        lexed
            .alternatives
            .into_iter()
            .nth(i)
            .map(|t| t.into_vec())
            .unwrap_or_default()
    }

    /// A square holding a piece of the side to move that has a legal move.
    fn example_piece_square(&self) -> Square {
        let pos = self.game.position();
        pos.legal_moves()
            .iter()
            .find_map(|m| m.from())
            .unwrap_or(Square::E1)
    }

    fn piece_words(&self, color: Color, role: Role) -> (Utterance, Utterance) {
        (self.vocab.side(color), self.vocab.piece(role))
    }

    fn example_square(&self) -> Utterance {
        self.vocab.square(Square::E4)
    }

    fn query(&self, cmd: Cmd, rest: &str) -> Utterance {
        let (side, rest) = self.words.strip_side(rest);
        let tokens = self.tokens(rest);
        let board = self.game.position().board().clone();
        let square = tokens.iter().find_map(|t| match t {
            Token::Square(s) => Some(*s),
            _ => None,
        });
        match cmd {
            Cmd::What => match square {
                Some(sq) => match board.piece_at(sq) {
                    Some(p) => {
                        let (s, r) = self.piece_words(p.color, p.role);
                        self.vocab.message(
                            "ui.square_piece",
                            &[
                                ("square", &self.vocab.square(sq)),
                                ("side", &s),
                                ("piece", &r),
                            ],
                        )
                    }
                    None => self
                        .vocab
                        .message("ui.square_empty", &[("square", &self.vocab.square(sq))]),
                },
                None => self
                    .vocab
                    .message("ui.need_square", &[("example", &self.example_square())]),
            },
            Cmd::Legal => match square {
                Some(sq) => match board.piece_at(sq) {
                    Some(p) => {
                        // The opponent's piece: its moves as if it were
                        // its turn.
                        let swapped;
                        let pos = if p.color == self.game.turn() {
                            self.game.position()
                        } else {
                            match self.game.position().clone().swap_turn() {
                                Ok(s) => {
                                    swapped = s;
                                    &swapped
                                }
                                Err(_) => self.game.position(),
                            }
                        };
                        let moves: Vec<Move> = pos
                            .legal_moves()
                            .into_iter()
                            .filter(|m| m.from() == Some(sq))
                            .collect();
                        let piece = self.vocab.piece(p.role);
                        if moves.is_empty() {
                            self.vocab.message(
                                "ui.no_legal_moves",
                                &[("piece", &piece), ("square", &self.vocab.square(sq))],
                            )
                        } else {
                            let list = join(
                                moves
                                    .iter()
                                    .map(|m| self.vocab.announce(pos, *m, self.settings.style)),
                            );
                            self.vocab.message(
                                "ui.legal_moves",
                                &[
                                    ("piece", &piece),
                                    ("square", &self.vocab.square(sq)),
                                    ("moves", &list),
                                ],
                            )
                        }
                    }
                    None => self.vocab.message(
                        "ui.no_piece_there",
                        &[
                            ("square", &self.vocab.square(sq)),
                            ("example", &self.vocab.square(self.example_piece_square())),
                        ],
                    ),
                },
                None => self.vocab.message(
                    "ui.need_square",
                    &[("example", &self.vocab.square(self.example_piece_square()))],
                ),
            },
            Cmd::Where => {
                let role = tokens.iter().find_map(|t| match t {
                    Token::Piece(r) => Some(*r),
                    _ => None,
                });
                let Some(role) = role else {
                    return self.vocab.message(
                        "ui.need_piece",
                        &[("example", &self.vocab.piece(Role::Knight))],
                    );
                };
                let colors: Vec<Color> = match side {
                    Some(c) => vec![c],
                    None => vec![Color::White, Color::Black],
                };
                let mut out = Utterance::default();
                for c in colors {
                    let squares: Vec<Square> = (board.by_color(c) & board.by_role(role))
                        .into_iter()
                        .collect();
                    let (s, r) = self.piece_words(c, role);
                    let u = if squares.is_empty() {
                        self.vocab
                            .message("ui.where_none", &[("side", &s), ("piece", &r)])
                    } else {
                        let list = join(squares.iter().map(|sq| self.vocab.square(*sq)));
                        self.vocab.message(
                            "ui.where",
                            &[("side", &s), ("piece", &r), ("squares", &list)],
                        )
                    };
                    append(&mut out, &u);
                }
                out
            }
            Cmd::File | Cmd::Rank => {
                let word = |w: &crate::locale::Word| Utterance {
                    display: w.display.clone(),
                    spoken: w.spoken.clone(),
                };
                let squares: Option<(Utterance, Vec<Square>)> = if cmd == Cmd::File {
                    tokens
                        .iter()
                        .find_map(|t| match t {
                            Token::File(f) => Some(*f),
                            Token::Square(s) => Some(s.file()),
                            _ => None,
                        })
                        .map(|f| {
                            let sq = Square::ALL.iter().copied().filter(|s| s.file() == f);
                            (word(self.vocab.locale().file(f)), sq.collect())
                        })
                } else {
                    tokens
                        .iter()
                        .find_map(|t| match t {
                            Token::Rank(r) => Some(*r),
                            Token::Square(s) => Some(s.rank()),
                            _ => None,
                        })
                        .map(|r| {
                            let sq = Square::ALL.iter().copied().filter(|s| s.rank() == r);
                            (word(self.vocab.locale().rank(r)), sq.collect())
                        })
                };
                let Some((line, squares)) = squares else {
                    let example = if cmd == Cmd::File {
                        let w = self.vocab.locale().file(shakmaty::File::E);
                        Utterance {
                            display: format!("{} {}", self.words.shown(cmd), w.display),
                            spoken: format!("{} {}", self.words.shown(cmd), w.spoken),
                        }
                    } else {
                        let w = self.vocab.locale().rank(shakmaty::Rank::Second);
                        Utterance {
                            display: format!("{} {}", self.words.shown(cmd), w.display),
                            spoken: format!("{} {}", self.words.shown(cmd), w.spoken),
                        }
                    };
                    return self.vocab.message("ui.need_line", &[("example", &example)]);
                };
                let pieces: Vec<Utterance> = squares
                    .iter()
                    .filter_map(|sq| {
                        board.piece_at(*sq).map(|p| {
                            let (s, r) = self.piece_words(p.color, p.role);
                            let mut u = s;
                            append(&mut u, &r);
                            append(&mut u, &self.vocab.square(*sq));
                            u
                        })
                    })
                    .collect();
                if pieces.is_empty() {
                    self.vocab.message("ui.line_empty", &[("line", &line)])
                } else {
                    self.vocab.message(
                        "ui.line",
                        &[("line", &line), ("pieces", &join(pieces.into_iter()))],
                    )
                }
            }
            Cmd::Pieces => {
                let c = side.unwrap_or_else(|| self.game.turn());
                let mut list = Vec::new();
                for role in [
                    Role::King,
                    Role::Queen,
                    Role::Rook,
                    Role::Bishop,
                    Role::Knight,
                    Role::Pawn,
                ] {
                    for sq in board.by_color(c) & board.by_role(role) {
                        let mut u = self.vocab.piece(role);
                        append(&mut u, &self.vocab.square(sq));
                        list.push(u);
                    }
                }
                self.vocab.message(
                    "ui.pieces_of",
                    &[
                        ("side", &self.vocab.side(c)),
                        ("pieces", &join(list.into_iter())),
                    ],
                )
            }
            _ => Utterance::default(),
        }
    }

    fn last_move(&self) -> Utterance {
        let moves = self.game.moves();
        let Some((last, before)) = moves.split_last() else {
            return self.vocab.message("ui.no_last_move", &[]);
        };
        let mut pos = self.game.start().clone();
        for m in before {
            pos.play_unchecked(*m);
        }
        let words = self.vocab.announce(&pos, *last, self.settings.style);
        self.vocab.message(
            "ui.last_move",
            &[("side", &self.vocab.side(pos.turn())), ("move", &words)],
        )
    }

    /// The game as PGN text.
    pub fn pgn(&self) -> String {
        let result = match self.game.result() {
            Some(r) => match r.winner {
                Some(Color::White) => "1-0",
                Some(Color::Black) => "0-1",
                None => "1/2-1/2",
            },
            None => "*",
        };
        let mut text = String::new();
        text.push_str(
            "[Event \"annabella game\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n",
        );
        text.push_str("[White \"?\"]\n[Black \"?\"]\n");
        text.push_str(&format!("[Result \"{result}\"]\n"));
        text.push_str(&format!("[TimeControl \"{}\"]\n", self.settings.control));
        if self.game.start() != &shakmaty::Chess::default() {
            let fen = Fen::from_position(self.game.start(), EnPassantMode::Legal);
            text.push_str(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n"));
        }
        text.push('\n');
        let mut pos = self.game.start().clone();
        let mut line = String::new();
        for (i, m) in self.game.moves().iter().enumerate() {
            if pos.turn() == Color::White {
                line.push_str(&format!("{}. ", pos.fullmoves()));
            } else if i == 0 {
                line.push_str(&format!("{}... ", pos.fullmoves()));
            }
            line.push_str(&San::from_move(&pos, *m).to_string());
            line.push(' ');
            pos.play_unchecked(*m);
        }
        line.push_str(result);
        // Wrap at 80 columns as PGN export format asks.
        let mut col = 0;
        for word in line.split(' ') {
            if col > 0 && col + word.len() + 1 > 79 {
                text.push('\n');
                col = 0;
            } else if col > 0 {
                text.push(' ');
                col += 1;
            }
            text.push_str(word);
            col += word.len();
        }
        text.push('\n');
        text
    }

    /// The castling mode (for adapters).
    pub fn castling_mode(&self) -> CastlingMode {
        self.game.mode()
    }
}

fn append(u: &mut Utterance, other: &Utterance) {
    if other.display.is_empty() {
        return;
    }
    if !u.display.is_empty() {
        u.display.push(' ');
        u.spoken.push(' ');
    }
    u.display.push_str(&other.display);
    u.spoken.push_str(&other.spoken);
}

fn join(items: impl Iterator<Item = Utterance>) -> Utterance {
    let mut out = Utterance::default();
    for (i, u) in items.enumerate() {
        if i > 0 {
            out.display.push_str(", ");
            out.spoken.push_str(", ");
        }
        out.display.push_str(&u.display);
        out.spoken.push_str(&u.spoken);
    }
    out
}

#[cfg(test)]
#[path = "app_tests.rs"]
mod tests;
