//! The play screen's model and update function (pure: no I/O, time is
//! injected). Adapters (full-screen terminal, plain lines) feed it
//! [`Msg`]s and carry out the [`Effect`]s it returns; everything it says is
//! appended to [`App::log`] and returned as [`Effect::Say`].
//!
//! The game is the two-board [`Mirror`] of Appendix D: every change goes in
//! as a journal [`Event`], and the records of one update are handed to the
//! adapter as one [`Effect::Journal`] *before* anything is said, so nothing
//! is announced that is not on disk. If the adapter cannot save them it
//! sends [`Msg::JournalFailed`] and the update is undone. Spoken input
//! sends the same [`Msg::Line`]s; speech output consumes [`Effect::Say`].

use std::path::PathBuf;
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role, Square};

use super::command::{Cmd, CommandWords, Input};
use crate::clock::talk::{Phrasebook, Schedule, Talker, Verbosity};
use crate::clock::{Clock, TimeControl};
use crate::journal::{self, Event, Record, Side};
use crate::mirror::{Config, Level, Mirror, MirrorError, PgnSource, Said, Stage};
use crate::rules::{GameResult, Match};
use crate::vocab::lex::{Dictionary, Token};
use crate::vocab::{ParseError, Style, Utterance, Vocabulary};
use crate::voice::{Command as Spoken, Decision};

/// How the program is used at the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Mode {
    /// Over-the-board play on two boards (Appendix D): each move is made
    /// on the mover's board, the clock pressed, then the opponent makes it
    /// on his own board; the boards are compared.
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
    /// Name of White.
    pub white: String,
    /// Name of Black.
    pub black: String,
    /// The journal file, for messages.
    pub journal_path: Option<PathBuf>,
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
            white: String::new(),
            black: String::new(),
            journal_path: None,
        }
    }
}

impl Settings {
    /// The mirror's configuration for a new game.
    pub fn config(&self) -> Config {
        Config {
            white: self.white.clone(),
            black: self.black.clone(),
            control: self.control.clone(),
            start: Chess::default(),
            mode: CastlingMode::Standard,
            style: self.style,
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
    /// The records of the last update could not be saved to the journal:
    /// the update is undone.
    JournalFailed {
        /// What the system said.
        error: String,
    },
    /// Something to say that comes from an adapter (speech in, set-up):
    /// shown, spoken and kept in the log.
    Notice(Utterance),
    /// A spoken utterance was decided (in the position last sent as
    /// [`Effect::Position`]).
    Heard(Decision),
}

/// What the adapter must do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Save these journal records, synced to disk, as one unit, before
    /// carrying out the effects after it. If that fails, send
    /// [`Msg::JournalFailed`] and drop the rest of this update's effects.
    Journal(Vec<Record>),
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
    /// The position moves are heard in changed (for speech input).
    Position {
        /// The position.
        pos: Box<Chess>,
        /// Castling rules.
        mode: CastlingMode,
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
    /// The position before it (where a correction is heard, and where the
    /// scoresheet entry is written).
    pub before: Chess,
}

/// Which of the core's notices to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tell {
    /// Everything.
    All,
    /// Warnings only (the app says the rest in its own words).
    Warnings,
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
    mirror: Mirror,
    /// The journal records of the update in progress.
    batch: Vec<Record>,
    /// The game before the update in progress changed it, and the log's
    /// length then: restored if the journal cannot be written.
    undo: Option<(Box<Mirror>, usize)>,
    /// The undo of the last update that handed out journal records.
    last_undo: Option<(Box<Mirror>, usize)>,
    prompt: Prompt,
    engine_on: bool,
    engine_busy: bool,
    last_said: Option<Utterance>,
    /// The position last sent as [`Effect::Position`].
    heard_in: Option<(usize, usize)>,
    /// Everything said, oldest first.
    pub log: Vec<Utterance>,
    /// The line being typed (full-screen mode).
    pub input: String,
    quit: bool,
    now: Duration,
}

/// How many lines the log keeps.
const LOG_KEEP: usize = 500;

fn side_of(c: Color) -> Side {
    Side::from(c)
}

impl App {
    /// A new game at time `now`; the first effects (welcome, the engine's
    /// first move) are returned too.
    pub fn new(vocab: Vocabulary, settings: Settings, now: Duration) -> (App, Vec<Effect>) {
        let mirror = Mirror::new(vocab.clone(), settings.config(), now);
        let mut app = App::with_mirror(vocab, settings, mirror, now);
        let mut fx = Vec::new();
        let mode = Utterance::plain(app.vocab.locale().message(app.settings.mode.key(), &[]));
        let control = Utterance::plain(app.settings.control.to_string());
        let side = app.vocab.side(Color::White);
        let example = app.vocab.example(app.game().position());
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
        app.finish(&mut fx);
        (app, fx)
    }

    /// A game continued from its journal, `mirror` being its replayed
    /// state (see [`journal::replay`]); `now` is that state's game time.
    /// Says what waits: the result, or a mismatch for the arbiter.
    pub fn resume(vocab: Vocabulary, settings: Settings, mirror: Mirror) -> (App, Vec<Effect>) {
        let now = mirror.now();
        let mut app = App::with_mirror(vocab, settings, mirror, now);
        let mut fx = Vec::new();
        if let Some(r) = app.mirror.result() {
            app.announce_result(r, &mut fx);
        } else if let Some(m) = app.mirror.mismatch().cloned() {
            let u = app.mirror.describe_mismatch(&m);
            app.say(&mut fx, u);
        } else if let Some(u) = app.unpressed() {
            let side = app.vocab.side(u.by);
            let press = app.cmd_word(Cmd::Press);
            let takeback = app.cmd_word(Cmd::TakeBack);
            let msg = app.vocab.message(
                "ui.press_first",
                &[
                    ("side", &side),
                    ("move", &u.words),
                    ("press", &press),
                    ("takeback", &takeback),
                ],
            );
            app.say(&mut fx, msg);
        } else if let Some((board, mv)) = app.to_execute() {
            let u = app
                .mirror
                .describe_error(&MirrorError::AwaitExecution { board, mv });
            app.say(&mut fx, u);
        }
        app.finish(&mut fx);
        (app, fx)
    }

    fn with_mirror(vocab: Vocabulary, settings: Settings, mirror: Mirror, now: Duration) -> App {
        let words = CommandWords::new(vocab.locale());
        let dict = Dictionary::new(vocab.locale());
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
        App {
            vocab,
            words,
            dict,
            phrases,
            talker,
            engine_on: settings.mode == Mode::Engine,
            settings,
            mirror,
            batch: Vec::new(),
            undo: None,
            last_undo: None,
            prompt: Prompt::Game,
            engine_busy: false,
            last_said: None,
            heard_in: None,
            log: Vec::new(),
            input: String::new(),
            quit: false,
            now,
        }
    }

    // ---- accessors for rendering and adapters ----

    /// The vocabulary.
    pub fn vocab(&self) -> &Vocabulary {
        &self.vocab
    }

    /// The game as far as it goes (the board with more moves).
    pub fn game(&self) -> &Match {
        self.mirror.game()
    }

    /// The board of one player.
    pub fn board(&self, owner: Color) -> &Match {
        self.mirror.board(owner)
    }

    /// The two boards, scoresheets and clock.
    pub fn mirror(&self) -> &Mirror {
        &self.mirror
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        self.mirror.clock()
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The move made but not yet pressed, if any.
    pub fn unpressed(&self) -> Option<Unpressed> {
        match self.mirror.stage() {
            Stage::Made { mv: Some(m), .. } | Stage::Announced { mv: Some(m), .. } => {
                let by = self.mirror.mover();
                let b = self.mirror.board(by);
                let mut pos = b.start().clone();
                for x in &b.moves()[..b.moves().len().saturating_sub(1)] {
                    pos.play_unchecked(*x);
                }
                let words = self.vocab.announce(&pos, *m, self.settings.style);
                Some(Unpressed {
                    mv: *m,
                    by,
                    words,
                    before: pos,
                })
            }
            _ => None,
        }
    }

    /// The move the opponent has yet to make on his board, and whose board.
    pub fn to_execute(&self) -> Option<(Color, Move)> {
        match self.mirror.stage() {
            Stage::Pressed { mv, .. } => Some((!self.mirror.mover(), *mv)),
            _ => None,
        }
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
        self.engine_busy && self.mirror.result().is_none()
    }

    /// The last thing said.
    pub fn last_message(&self) -> Option<&Utterance> {
        self.log.last()
    }

    /// A player's scoresheet: the entries in the locale's notation, one
    /// per half-move (an entry that is no legal move is shown as written).
    pub fn sheet(&self, owner: Color) -> Vec<String> {
        let entries = self.mirror.sheet(owner).entries();
        let mut pos = Some(self.game().start().clone());
        let mut out = Vec::with_capacity(entries.len());
        for e in entries {
            let text = match (&mut pos, e.mv) {
                (Some(p), Some(m)) if p.is_legal(m) => {
                    let san = San::from_move(p, m).to_string();
                    p.play_unchecked(m);
                    self.local_san(&san)
                }
                _ => {
                    pos = None;
                    e.text.clone()
                }
            };
            out.push(text);
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
        self.batch.clear();
        self.undo = None;
        let mut fx = Vec::new();
        match msg {
            Msg::Tick => self.tick(&mut fx),
            Msg::HelpKey => self.help(&mut fx),
            Msg::Line(line) => {
                self.tick(&mut fx);
                self.line(&line, &mut fx);
            }
            Msg::Notice(u) => self.say(&mut fx, u),
            Msg::Heard(d) => {
                self.tick(&mut fx);
                self.heard(d, &mut fx);
            }
            Msg::EngineMove(uci) => self.engine_move(&uci, &mut fx),
            Msg::EngineFailed { error, at_start } => self.engine_failed(error, at_start, &mut fx),
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
            Msg::JournalFailed { error } => {
                // Never reached with a pending batch: the adapter sends it
                // right after the failed write, so the undo is that update's.
                return self.journal_failed(error);
            }
        }
        self.finish(&mut fx);
        fx
    }

    /// Ends an update: the journal records go first, and the position for
    /// speech input is sent when it changed.
    fn finish(&mut self, fx: &mut Vec<Effect>) {
        let key = (
            self.mirror.board(Color::White).moves().len(),
            self.mirror.board(Color::Black).moves().len(),
        );
        if self.heard_in != Some(key) {
            self.heard_in = Some(key);
            fx.push(Effect::Position {
                pos: Box::new(self.hearing_position()),
                mode: self.castling_mode(),
            });
        }
        if self.batch.is_empty() {
            self.last_undo = None;
        } else {
            fx.insert(0, Effect::Journal(std::mem::take(&mut self.batch)));
            self.last_undo = self.undo.take();
        }
    }

    /// The position a spoken move is meant in: the board the next move is
    /// made on.
    pub fn hearing_position(&self) -> Chess {
        match self.mirror.stage() {
            Stage::Pressed { .. } => self.mirror.board(!self.mirror.mover()).position().clone(),
            // A move made, not pressed: a correction is heard in the
            // position before it.
            _ => match self.unpressed() {
                Some(u) => u.before,
                None => self.game().position().clone(),
            },
        }
    }

    fn journal_failed(&mut self, error: String) -> Vec<Effect> {
        let mut fx = Vec::new();
        if let Some((mirror, log_len)) = self.last_undo.take() {
            self.mirror = *mirror;
            self.log.truncate(log_len);
        }
        self.heard_in = None;
        let file = Utterance::plain(
            self.settings
                .journal_path
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        );
        let u = self.vocab.message(
            "ui.journal_failed",
            &[("file", &file), ("error", &Utterance::plain(error))],
        );
        self.say(&mut fx, u);
        self.finish(&mut fx);
        fx
    }

    /// Applies an event to the game and adds it to the journal batch.
    fn act(&mut self, mut event: Event) -> Result<Said, MirrorError> {
        let lens = [
            self.mirror.board(Color::White).moves().len(),
            self.mirror.board(Color::Black).moves().len(),
        ];
        let snapshot = self
            .undo
            .is_none()
            .then(|| (Box::new(self.mirror.clone()), self.log.len()));
        let said = journal::apply(&mut self.mirror, self.now, &event)?;
        if let Some(s) = snapshot {
            self.undo = Some(s);
        }
        if let Event::Board { side, uci, .. } = &mut event {
            let c = Color::from(*side);
            let moves = self.mirror.board(c).moves();
            if moves.len() == lens[crate::mirror::idx(c)] + 1 {
                *uci = moves.last().map(|m| self.mirror.uci(*m));
            }
        }
        self.batch.push(Record {
            at_ms: u64::try_from(self.now.as_millis()).unwrap_or(u64::MAX),
            line: None,
            event,
            said: said.iter().map(|n| n.text.display.clone()).collect(),
            clock_ms: journal::clock_ms(&self.mirror),
        });
        Ok(said)
    }

    /// Applies an event and says what the core said (as `tell` asks), or
    /// why it was refused. `true` if it was applied.
    fn act_say(&mut self, event: Event, tell: Tell, fx: &mut Vec<Effect>) -> bool {
        let was_over = self.mirror.result().is_some();
        match self.act(event) {
            Ok(said) => {
                let ended = !was_over && self.mirror.result().is_some();
                let result_words = self.mirror.result().map(|r| self.vocab.describe_result(&r));
                for n in said {
                    if ended && Some(&n.text) == result_words.as_ref() {
                        continue;
                    }
                    if tell == Tell::All || n.level == Level::Warning {
                        self.say(fx, n.text);
                    }
                }
                if ended && let Some(r) = self.mirror.result() {
                    self.announce_result(r, fx);
                }
                true
            }
            Err(e) => {
                self.refused(&e, fx);
                false
            }
        }
    }

    fn refused(&mut self, e: &MirrorError, fx: &mut Vec<Effect>) {
        match e {
            MirrorError::GameOver(r) => self.announce_result(*r, fx),
            e => {
                let u = self.mirror.describe_error(e);
                self.say(fx, u);
            }
        }
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
        if self.mirror.result().is_some() || self.mirror.sealed().is_some() {
            return;
        }
        let clock = self.mirror.clock();
        let due = clock.flagged().is_none()
            && clock
                .running()
                .is_some_and(|c| clock.remaining(c, self.now).is_zero());
        if due {
            // A flag falls: that is recorded.
            let before = self.batch.len();
            self.act_say(Event::Tick, Tell::All, fx);
            if self.batch.len() > before && self.batch.last().is_some_and(|r| r.said.is_empty()) {
                self.batch.pop();
            }
        } else {
            let _ = self.mirror.tick(self.now);
            self.talk(fx);
        }
    }

    /// Automatic time announcements due now (see [`Talker`]).
    fn talk(&mut self, fx: &mut Vec<Effect>) {
        let (Some(talker), Some(phrases)) = (&mut self.talker, &self.phrases) else {
            return;
        };
        let said: Vec<Utterance> = talker
            .observe(self.mirror.clock(), self.now, &[])
            .iter()
            .map(|a| phrases.announcement(a, Verbosity::Brief))
            .collect();
        for u in said {
            self.say(fx, u);
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
                    self.chosen(moves[n - 1], fx);
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
                    .describe_error(self.game().position(), &ParseError::Empty);
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
            && self.mirror.result().is_none()
            && *self.mirror.stage() == Stage::Idle
            && self.mirror.mismatch().is_none()
            && self.settings.engine_side.plays(self.mirror.mover())
    }

    /// The board the next typed move is made on, and whether it is the
    /// execution of the opponent's move.
    fn target_board(&self) -> (Color, bool) {
        match self.mirror.stage() {
            Stage::Pressed { .. } => (!self.mirror.mover(), true),
            _ => (self.mirror.mover(), false),
        }
    }

    fn typed_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        if let Some(r) = self.mirror.result() {
            return self.announce_result(r, fx);
        }
        if let Some(u) = self.unpressed() {
            let side = self.vocab.side(u.by);
            let press = self.cmd_word(Cmd::Press);
            let takeback = self.cmd_word(Cmd::TakeBack);
            let msg = self.vocab.message(
                "ui.press_first",
                &[
                    ("side", &side),
                    ("move", &u.words),
                    ("press", &press),
                    ("takeback", &takeback),
                ],
            );
            return self.say(fx, msg);
        }
        if self.engine_to_move() {
            let side = self.vocab.side(self.mirror.mover());
            let u = self.vocab.message("ui.engine_turn", &[("side", &side)]);
            return self.say(fx, u);
        }
        let (board, executing) = self.target_board();
        let pos = self.mirror.board(board).position().clone();
        match self.vocab.parse(&pos, self.castling_mode(), text) {
            Ok(m) => self.chosen(m, fx),
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
            Err(e) if executing => {
                // Not a move on this board: the core tells whether it is
                // the player's own next move, made without executing the
                // opponent's first.
                let event = Event::Board {
                    side: side_of(board),
                    text: text.to_owned(),
                    uci: None,
                };
                if let Err(MirrorError::BadMove { .. }) = self.act(event.clone()) {
                    let u = self.vocab.describe_error(&pos, &e);
                    self.unknown(u, fx);
                } else {
                    self.act_say(event, Tell::All, fx);
                }
            }
            Err(e) => {
                let u = self.vocab.describe_error(&pos, &e);
                self.unknown(u, fx);
            }
        }
    }

    /// A spoken utterance, decided by the recognizer: a move is made and
    /// announced back (the clock is not pressed: a slip is corrected by
    /// saying the move again, D.2.8); doubt is asked about; nothing is ever
    /// played on a guess.
    fn heard(&mut self, d: Decision, fx: &mut Vec<Effect>) {
        match d {
            Decision::Move { mv, .. } => {
                if self.mirror.result().is_some() {
                    if let Some(r) = self.mirror.result() {
                        self.announce_result(r, fx);
                    }
                    return;
                }
                self.prompt = Prompt::Game;
                // Said again before the press: the new move replaces it.
                if self.unpressed().is_some() {
                    if self.hearing_position_after_takeback_has(mv) {
                        let _ = self.act(Event::TakeBack);
                    } else {
                        return self.typed_move("", fx);
                    }
                }
                if self.engine_to_move() {
                    let side = self.vocab.side(self.mirror.mover());
                    let u = self.vocab.message("ui.engine_turn", &[("side", &side)]);
                    return self.say(fx, u);
                }
                if self.hearing_position().is_legal(mv) {
                    self.chosen(mv, fx);
                }
            }
            Decision::Ask { candidates, .. } => {
                let pos = self.hearing_position();
                let legal: Vec<Move> = candidates
                    .into_iter()
                    .filter(|m| pos.is_legal(*m))
                    .collect();
                let words: Vec<Utterance> = legal
                    .iter()
                    .map(|m| self.vocab.announce(&pos, *m, Style::Long))
                    .collect();
                let u = match words.as_slice() {
                    [] => self.vocab.message("voice.nothing_heard", &[]),
                    [one] => {
                        let yes = self.spoken_word(Spoken::Yes);
                        let no = self.spoken_word(Spoken::No);
                        self.vocab.message(
                            "voice.confirm",
                            &[("move", one), ("yes", &yes), ("no", &no)],
                        )
                    }
                    _ => {
                        let or = self.vocab.locale().message("parse.or", &[]);
                        let mut list = Utterance::default();
                        for (i, w) in words.iter().enumerate() {
                            let sep = if i == 0 {
                                String::new()
                            } else {
                                format!(" {or} ")
                            };
                            list.display
                                .push_str(&format!("{sep}{}: {}", i + 1, w.display));
                            list.spoken
                                .push_str(&format!("{sep}{}: {}", i + 1, w.spoken));
                        }
                        self.vocab
                            .message("voice.ask_which", &[("candidates", &list)])
                    }
                };
                self.say(fx, u);
                if !legal.is_empty() {
                    self.prompt = Prompt::Choice(legal);
                }
            }
            Decision::Command { command, .. } => match command {
                Spoken::Yes => match std::mem::take(&mut self.prompt) {
                    Prompt::Choice(moves) if moves.len() == 1 => self.chosen(moves[0], fx),
                    Prompt::ConfirmQuit => {
                        self.quit = true;
                        fx.push(Effect::Quit);
                    }
                    other => self.prompt = other,
                },
                Spoken::No | Spoken::Cancel => {
                    if matches!(self.prompt, Prompt::Choice(_)) {
                        self.prompt = Prompt::Game;
                        let u = self.vocab.message("ui.voice_cancelled", &[]);
                        self.say(fx, u);
                    } else if self.prompt == Prompt::ConfirmQuit {
                        self.prompt = Prompt::Game;
                        let u = self.vocab.message("ui.quit_cancelled", &[]);
                        self.say(fx, u);
                    }
                }
                Spoken::Repeat => self.command(Cmd::Repeat, "", fx),
                Spoken::Time => self.command(Cmd::Time, "", fx),
                Spoken::Moves => self.command(Cmd::Sheet, "", fx),
                Spoken::Help => self.help(fx),
                Spoken::Clock => self.press(fx),
            },
            Decision::NotUnderstood { heard } => {
                let u = if heard.trim().is_empty() {
                    self.vocab.message("voice.nothing_heard", &[])
                } else {
                    self.vocab.message(
                        "voice.not_understood",
                        &[("heard", &Utterance::plain(heard))],
                    )
                };
                self.say(fx, u);
            }
        }
    }

    /// `true` when `mv` would be legal on the mover's board with the move
    /// made but not pressed taken back (a spoken correction, D.2.8).
    fn hearing_position_after_takeback_has(&self, mv: Move) -> bool {
        self.unpressed().is_some_and(|u| u.before.is_legal(mv))
    }

    /// The first spelling of a voice command word.
    fn spoken_word(&self, c: Spoken) -> Utterance {
        let text = self.vocab.locale().message(c.message_key(), &[]);
        Utterance::plain(text.split('|').next().unwrap_or_default().to_owned())
    }

    /// A move chosen for the board the next move is made on.
    fn chosen(&mut self, m: Move, fx: &mut Vec<Effect>) {
        match self.target_board() {
            (board, true) => self.execute(board, m, fx),
            (_, false) => self.make_move(m, fx),
        }
    }

    fn board_event(&self, board: Color, m: Move) -> Event {
        let pos = self.mirror.board(board).position();
        let san = San::from_move(pos, m).to_string();
        Event::Board {
            side: side_of(board),
            text: self.local_san(&san),
            uci: Some(self.mirror.uci(m)),
        }
    }

    /// Makes a legal move on the mover's board and announces it (the clock
    /// is not yet pressed, D.2.8).
    fn make_move(&mut self, m: Move, fx: &mut Vec<Effect>) {
        let mover = self.mirror.mover();
        let event = self.board_event(mover, m);
        if self.act_say(event, Tell::Warnings, fx) {
            self.act_say(Event::Announce { text: None }, Tell::All, fx);
        }
    }

    /// The opponent makes the pressed move on his board (two-board mode).
    fn execute(&mut self, board: Color, m: Move, fx: &mut Vec<Effect>) {
        let event = self.board_event(board, m);
        self.act_say(event, Tell::All, fx);
        if self.mirror.stage() == &Stage::Idle && self.mirror.mismatch().is_none() {
            self.maybe_ask_engine(fx);
        }
    }

    fn press(&mut self, fx: &mut Vec<Effect>) {
        let Some(u) = self.unpressed() else {
            if let Some((board, mv)) = self.to_execute() {
                let e = MirrorError::AwaitExecution { board, mv };
                return self.refused(&e, fx);
            }
            let side = self.vocab.side(self.mirror.mover());
            let msg = self
                .vocab
                .message("ui.nothing_to_press", &[("side", &side)]);
            return self.say(fx, msg);
        };
        let two_boards = self.settings.mode == Mode::Board;
        let tell = if two_boards {
            Tell::All
        } else {
            Tell::Warnings
        };
        // What both players write on their scoresheets: the move in the
        // position before it.
        let entry = self.local_san(&San::from_move(&u.before, u.mv).to_string());
        if !self.act_say(Event::Press, tell, fx) {
            return;
        }
        if self.mirror.result().is_some() {
            return;
        }
        for c in [Color::White, Color::Black] {
            let ev = Event::Sheet {
                side: side_of(c),
                text: entry.clone(),
            };
            self.act_say(ev, Tell::Warnings, fx);
        }
        if !two_boards {
            // One person (or the engine) keeps both boards: the move is
            // made on the other board at once.
            let ev = self.board_event(!u.by, u.mv);
            if let Ok(said) = self.act(ev) {
                for n in said.into_iter().filter(|n| n.level == Level::Warning) {
                    self.say(fx, n.text);
                }
            }
            if let Some(r) = self.mirror.result() {
                return self.announce_result(r, fx);
            }
            let side = self.vocab.side(u.by);
            let next = self.vocab.side(!u.by);
            let msg = self
                .vocab
                .message("ui.pressed", &[("side", &side), ("next", &next)]);
            self.say(fx, msg);
        }
        self.autosave(fx);
        self.talk(fx);
        self.maybe_ask_engine(fx);
    }

    fn maybe_ask_engine(&mut self, fx: &mut Vec<Effect>) {
        if self.engine_to_move() && !self.engine_busy {
            self.engine_busy = true;
            let game = self.game();
            let fen = Fen::from_position(game.start(), EnPassantMode::Legal).to_string();
            let moves = game
                .moves()
                .iter()
                .map(|m| m.to_uci(game.mode()).to_string())
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
            .and_then(|u| u.to_move(self.game().position()).ok());
        match m {
            Some(m) => {
                self.make_move(m, fx);
                if self.unpressed().is_some() {
                    self.press(fx);
                }
            }
            None => self.engine_failed(format!("bestmove {uci}"), false, fx),
        }
    }

    fn engine_failed(&mut self, error: String, at_start: bool, fx: &mut Vec<Effect>) {
        self.engine_busy = false;
        if self.engine_on {
            self.engine_on = false;
            let side = self.vocab.side(self.mirror.mover());
            let error = Utterance::plain(error);
            let key = if at_start {
                "ui.engine_missing"
            } else {
                "ui.engine_failed"
            };
            let u = self
                .vocab
                .message(key, &[("error", &error), ("side", &side)]);
            self.say(fx, u);
        }
    }

    fn take_back(&mut self, fx: &mut Vec<Effect>) {
        match self.unpressed() {
            Some(u) => {
                if self.act(Event::TakeBack).is_ok() {
                    let side = self.vocab.side(u.by);
                    let msg = self
                        .vocab
                        .message("ui.taken_back", &[("move", &u.words), ("side", &side)]);
                    self.say(fx, msg);
                }
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
                let example = self.vocab.example(&self.hearing_position());
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
                    let clock = self.mirror.clock();
                    let w = clock.reading(Color::White, self.now);
                    let b = clock.reading(Color::Black, self.now);
                    let u = p.times(&w, &b, Verbosity::Brief);
                    self.say(fx, u);
                }
            }
            Cmd::MyTime => {
                let (side, _) = self.words.strip_side(rest);
                let side = side.unwrap_or_else(|| self.clock_side());
                if let Some(p) = &self.phrases {
                    let r = self.mirror.clock().reading(side, self.now);
                    let u = p.time(&r, Verbosity::Brief);
                    self.say(fx, u);
                }
            }
            Cmd::Count => {
                if let Some(p) = &self.phrases {
                    let clock = self.mirror.clock();
                    let w = p.moves(&clock.reading(Color::White, self.now));
                    let b = p.moves(&clock.reading(Color::Black, self.now));
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
                let (side, _) = self.words.strip_side(rest);
                let owner = side.unwrap_or(Color::White);
                let sheet = self.sheet(owner);
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
            Cmd::Claim => {
                let by = self.mirror.mover();
                self.act_say(Event::Claim { side: side_of(by) }, Tell::All, fx);
            }
            Cmd::Resign => {
                let (side, _) = self.words.strip_side(rest);
                let by = side.unwrap_or_else(|| self.clock_side());
                if let Some(r) = self.mirror.result() {
                    return self.announce_result(r, fx);
                }
                self.act_say(Event::Resign { side: side_of(by) }, Tell::All, fx);
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
            Cmd::Pause
            | Cmd::Resume
            | Cmd::Add
            | Cmd::Remove
            | Cmd::Penalty
            | Cmd::Correct
            | Cmd::Back => {
                // Arbiter commands also work from the game prompt.
                self.arbiter_input(Input::Command(cmd, rest.to_owned()), fx);
                if cmd == Cmd::Back {
                    self.prompt = Prompt::Game;
                }
            }
            Cmd::Yes | Cmd::No => {
                let u = self
                    .vocab
                    .describe_error(self.game().position(), &ParseError::Empty);
                self.unknown(u, fx);
            }
        }
    }

    /// The side whose clock runs (the player who is to act).
    fn clock_side(&self) -> Color {
        self.mirror
            .clock()
            .running()
            .unwrap_or_else(|| self.mirror.mover())
    }

    fn arbiter_input(&mut self, input: Input, fx: &mut Vec<Effect>) {
        self.prompt = Prompt::Arbiter;
        let Input::Command(cmd, rest) = input else {
            if input != Input::Empty {
                self.help(fx);
            }
            return;
        };
        // "Back" and "take back" share words in some languages (German
        // "zurück"): with no move to take back, it leaves the menu.
        let cmd = if cmd == Cmd::TakeBack && self.unpressed().is_none() {
            Cmd::Back
        } else {
            cmd
        };
        match cmd {
            Cmd::Back => {
                self.prompt = Prompt::Game;
                let u = self.vocab.message("ui.arbiter_back", &[]);
                self.say(fx, u);
            }
            Cmd::Pause => {
                self.act_say(Event::Pause, Tell::All, fx);
            }
            Cmd::Resume => {
                self.act_say(Event::Resume, Tell::All, fx);
            }
            Cmd::Correct => {
                self.act_say(Event::Correct, Tell::All, fx);
                if self.mirror.mismatch().is_none() {
                    self.maybe_ask_engine(fx);
                }
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
                let ev = Event::Adjust {
                    side: side_of(side),
                    ms: secs.saturating_mul(1000),
                    add: cmd == Cmd::Add,
                };
                self.act_say(ev, Tell::All, fx);
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
                self.act_say(
                    Event::Penalty {
                        side: side_of(side),
                    },
                    Tell::All,
                    fx,
                );
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
        if let Some(r) = self.mirror.result() {
            return self.announce_result(r, fx);
        }
        let (side, _) = self.words.strip_side(rest);
        let by = side.unwrap_or_else(|| self.clock_side());
        if self.act_say(Event::OfferDraw { side: side_of(by) }, Tell::Warnings, fx) {
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
    }

    fn answer_draw(&mut self, accept: bool, rest: &str, fx: &mut Vec<Effect>) {
        let Some(offerer) = self.mirror.draw_offer() else {
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
        let ev = Event::AnswerDraw {
            side: side_of(by),
            accept,
        };
        self.act_say(ev, Tell::All, fx);
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
        let pos = self.game().position();
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
        let board = self.game().position().board().clone();
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
                        let pos = if p.color == self.game().turn() {
                            self.game().position()
                        } else {
                            match self.game().position().clone().swap_turn() {
                                Ok(s) => {
                                    swapped = s;
                                    &swapped
                                }
                                Err(_) => self.game().position(),
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
                let c = side.unwrap_or_else(|| self.game().turn());
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
        let game = self.game();
        let moves = game.moves();
        let Some((last, before)) = moves.split_last() else {
            return self.vocab.message("ui.no_last_move", &[]);
        };
        let mut pos = game.start().clone();
        for m in before {
            pos.play_unchecked(*m);
        }
        let words = self.vocab.announce(&pos, *last, self.settings.style);
        self.vocab.message(
            "ui.last_move",
            &[("side", &self.vocab.side(pos.turn())), ("move", &words)],
        )
    }

    /// The game as PGN text: the moves of White's board (both boards agree
    /// unless a mismatch waits for the arbiter), with clock times and the
    /// arbiter's record as comments.
    pub fn pgn(&self) -> String {
        self.mirror.pgn(
            PgnSource::Board(Color::White),
            "annabella game",
            "?",
            "????.??.??",
        )
    }

    /// The castling mode (for adapters).
    pub fn castling_mode(&self) -> CastlingMode {
        self.game().mode()
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
