//! The play screen's model and update function (pure: no I/O, time is
//! injected). Adapters (full-screen terminal, plain lines) feed it
//! [`Msg`]s and carry out the [`Effect`]s it returns; everything it says is
//! appended to [`App::log`] and returned as [`Effect::Say`] with its speech
//! priority.
//!
//! The game is the game layer's [`Game`]: every change goes in as a typed
//! [`Command`], and the game is kept with its journal store in the one save
//! sequence of every front end ([`Journaled`]): at the end of each update
//! its records are saved *before* anything is said, so nothing is announced
//! that is not on disk; if they cannot be saved the update is undone and
//! only that is said. Spoken input
//! sends decisions ([`Msg::Heard`]); speech output consumes
//! [`Effect::Say`].
//!
//! The model is split by concern: [`prompt`] (what the next line answers,
//! the command words, help), [`moves`] (moves, the press, draws, claims,
//! resignation and the arbiter's commands, all through the game layer),
//! [`voice`] (spoken decisions), [`engine`] (the UCI engine's turn); board
//! questions are answered by [`super::query`].

mod adjourn;
mod engine;
mod moves;
mod prompt;
mod quickplay;
mod settings;
mod view;
mod voice;

use std::path::PathBuf;
use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position, Role};

use super::command::{Cmd, CommandWords};
use super::query::Queries;
use crate::clock::talk::{Phrasebook, Talker};
use crate::clock::{Clock, TimeControl};
use crate::engine::EngineError;
use crate::game::words::Wording;
use crate::game::{Command, Game, Journaled, SaveFailed, Store};
use crate::locale::MsgKey;
use crate::mirror::{Config, GameError, GameEvent, Mirror, PgnSource, Stage};
use crate::rules::{GameResult, Match};
use crate::vocab::lex::Dictionary;
use crate::vocab::{Item, Priority, Style, Utterance, Vocabulary};
use crate::voice::Decision;

use prompt::Prompt;
pub use settings::{Alarm, SpeechChoice};
pub use view::Page;

/// Which front end shows the play screen: its help names keys only where
/// there are keys to press.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Front {
    /// The full screen (F1 help, F3 stops speech).
    #[default]
    Screen,
    /// Plain lines (`--plain`): typed commands only.
    Plain,
}

/// How the program is used at the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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
    fn key(self) -> MsgKey {
        match self {
            Mode::Board => MsgKey::UiModeBoard,
            Mode::Assistant => MsgKey::UiModeAssistant,
            Mode::Engine => MsgKey::UiModeEngine,
            Mode::Hotseat => MsgKey::UiModeHotseat,
        }
    }
}

/// Which sides the engine plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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
    /// The front end showing the screen.
    pub front: Front,
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
    /// The start position (a FEN given on the command line, a Chess960
    /// start), if not the standard one.
    pub start: Option<Chess>,
    /// Chess960 castling rules.
    pub chess960: bool,
    /// Guideline III announced for this game (III.2.1).
    pub quickplay: bool,
    /// Rapid or blitz without adequate supervision (A.5.2, B.3).
    /// (Also Guideline III.6: a draw claim concludes the game.)
    pub unsupervised: bool,
    /// Practice: a typed move that is not legal is refused with the
    /// reason; in a tournament game (the default) it is made, and the
    /// press counts it (7.5).
    pub practice: bool,
    /// The sighted player (D.2.5), if named.
    pub sighted: Option<Color>,
    /// The speech rate, voice and verbosity (the settings command).
    pub speech: SpeechChoice,
    /// The low-time alarm (the alarm command).
    pub alarm: Alarm,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            mode: Mode::Board,
            front: Front::Screen,
            engine_side: EngineSide::Black,
            control: TimeControl::default(),
            style: Style::Short,
            save_path: PathBuf::from("annabella-game.pgn"),
            autosave: false,
            white: String::new(),
            black: String::new(),
            journal_path: None,
            start: None,
            chess960: false,
            quickplay: false,
            unsupervised: false,
            practice: false,
            sighted: None,
            speech: SpeechChoice::default(),
            alarm: Alarm::default(),
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
            start: self.start.clone().unwrap_or_default(),
            mode: if self.chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            },
            style: self.style,
            quickplay: self.quickplay,
            unsupervised: self.unsupervised,
            practice: self.practice,
            sighted: self.sighted,
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
    /// The engine chose a move.
    EngineMove(UciMove),
    /// The engine could not be used (missing, or it stopped; worded when
    /// it is said).
    EngineFailed(EngineError),
    /// The game file `path` was written (or not: the system's error,
    /// worded when it is said).
    Saved {
        path: PathBuf,
        result: Result<(), crate::input::SystemError>,
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
    /// Show this and say it as urgently as its priority says (clock
    /// chatter may be dropped when stale, a countdown number replaced by
    /// the next, a result never).
    Say(Item),
    /// Ask the engine for a move in this position.
    AskEngine {
        /// Start position (FEN).
        fen: String,
        /// Moves since then.
        moves: Vec<UciMove>,
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
    /// Speak from now on with this rate and voice (the settings command).
    Speech {
        /// Speaking rate, -100 to 100.
        rate: Option<i32>,
        /// Voice name.
        voice: Option<String>,
    },
    /// Save these settings in the settings file; each result is said as a
    /// [`Msg::Notice`].
    SaveSettings(Vec<(crate::config::Key, String)>),
    /// Go through the game just played by ear ([`crate::review`]), then
    /// come back to the play screen.
    Review(Box<crate::review::ReviewGame>),
    /// Stop speaking at once (what was shown stays shown).
    StopSpeech,
    /// Show this without speaking it.
    Show(Utterance),
    /// Put this text on the terminal's clipboard (the full screen's
    /// `fen`; OSC 52, where the terminal allows it).
    Clipboard(String),
    /// Leave the program.
    Quit,
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

/// Which of the game's events to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tell {
    /// Everything.
    All,
    /// Warnings only (the screen says the rest in its own words).
    Warnings,
}

/// Where the play screen's journal records go: the journal file, or
/// nowhere ([`crate::journal::Nowhere`]) when no journal is kept.
pub type JournalStore = Box<dyn Store<Error = std::io::Error> + Send>;

/// The model of the play screen.
pub struct App {
    vocab: Vocabulary,
    words: CommandWords,
    dict: Dictionary,
    phrases: Phrasebook,
    /// Automatic time announcements (low time, countdown, period); none
    /// in assistant mode, where time is told only on request (D.2.10).
    talker: Option<Talker>,
    settings: Settings,
    game: Journaled<JournalStore>,
    /// The log's length before the update whose records were last handed
    /// out: restored with the game if they cannot be saved.
    log_mark: usize,
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
    /// What the message box shows of the log.
    view: view::MessageView,
    quit: bool,
    now: Duration,
}

/// How many lines the log keeps.
const LOG_KEEP: usize = 500;

impl App {
    /// A new game at time `now`; the first effects (welcome, the engine's
    /// first move) are returned too.
    pub fn new(vocab: Vocabulary, settings: Settings, now: Duration) -> (App, Vec<Effect>) {
        let game = Game::new(vocab.clone(), settings.config(), now);
        App::start(
            vocab,
            settings,
            game,
            Box::new(crate::journal::Nowhere),
            now,
        )
    }

    /// A new game whose journal is already created (its first state is
    /// `game`); its records go to `store`.
    pub fn start(
        vocab: Vocabulary,
        settings: Settings,
        game: Game,
        store: JournalStore,
        now: Duration,
    ) -> (App, Vec<Effect>) {
        let mut app = App::with_game(vocab, settings, Journaled::new(game, store), now);
        let mut fx = Vec::new();
        let mode = Utterance::plain(app.vocab.locale().message(app.settings.mode.key(), &[]));
        let control = Utterance::plain(app.settings.control.to_string());
        let side = app.vocab.side(app.game.mirror().mover());
        let example = app.vocab.example(app.current().position());
        let help = app.cmd_word(Cmd::Help);
        let welcome = app.vocab.message(
            MsgKey::UiWelcome,
            &[
                ("mode", &mode),
                ("control", &control),
                ("side", &side),
                ("example", &example),
                ("help", &help),
            ],
        );
        app.say(&mut fx, welcome, Priority::Move);
        if app.settings.mode == Mode::Engine && app.settings.engine_side != EngineSide::Both {
            let engine_side = if app.settings.engine_side.plays(Color::White) {
                Color::White
            } else {
                Color::Black
            };
            let u = app.vocab.message(
                MsgKey::UiYouPlay,
                &[
                    ("side", &app.vocab.side(!engine_side)),
                    ("engine", &app.vocab.side(engine_side)),
                ],
            );
            app.say(&mut fx, u, Priority::Move);
        }
        // A start position that is already mate, stalemate or dead: the
        // game is over at once (5.1.1, 5.2).
        if let Some(r) = app.game.mirror().result() {
            app.announce_result(r, &mut fx);
        }
        app.maybe_ask_engine(&mut fx);
        app.finish(&mut fx);
        (app, fx)
    }

    /// A game continued from its journal (`game` replayed by the game
    /// layer); says what waits: the result, a mismatch for the arbiter, a
    /// move to press or to execute.
    /// Its records go on to `store`.
    pub fn resume(
        vocab: Vocabulary,
        settings: Settings,
        game: Game,
        store: JournalStore,
    ) -> (App, Vec<Effect>) {
        let now = game.mirror().now();
        let mut app = App::with_game(vocab, settings, Journaled::new(game, store), now);
        let mut fx = Vec::new();
        if let Some(r) = app.game.mirror().result() {
            app.announce_result(r, &mut fx);
        } else if let Some(u) = app.unpressed() {
            let msg = app.press_first(&u);
            app.say(&mut fx, msg, Priority::Move);
            if let Some(offer) = app.words().open_offer(app.game.mirror()) {
                app.say(&mut fx, offer, Priority::Critical);
            }
        } else if let Some(u) = app.words().waiting(app.game.mirror()) {
            app.say(&mut fx, u, Priority::Critical);
        }
        app.maybe_ask_engine(&mut fx);
        app.finish(&mut fx);
        (app, fx)
    }

    fn with_game(
        vocab: Vocabulary,
        settings: Settings,
        game: Journaled<JournalStore>,
        now: Duration,
    ) -> App {
        let words = CommandWords::new(vocab.locale());
        let dict = Dictionary::new(vocab.locale());
        let phrases = Phrasebook::new(vocab.locale().clone());
        let talker =
            (settings.mode != Mode::Assistant).then(|| Talker::new(App::schedule(&settings.alarm)));
        App {
            vocab,
            words,
            dict,
            phrases,
            talker,
            engine_on: settings.mode == Mode::Engine,
            settings,
            game,
            log_mark: 0,
            prompt: Prompt::Game,
            engine_busy: false,
            last_said: None,
            heard_in: None,
            log: Vec::new(),
            input: String::new(),
            view: view::MessageView::default(),
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
    pub fn current(&self) -> &Match {
        self.game.mirror().game()
    }

    /// The board of one player.
    pub fn board(&self, owner: Color) -> &Match {
        self.game.mirror().board(owner)
    }

    /// The two boards, scoresheets and clock.
    pub fn mirror(&self) -> &Mirror {
        self.game.mirror()
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        self.game.mirror().clock()
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The move made but not yet pressed, if any.
    pub fn unpressed(&self) -> Option<Unpressed> {
        let m = self.game.mirror();
        match m.stage() {
            Stage::Made { mv: Some(mv), .. } | Stage::Announced { mv: Some(mv), .. } => {
                let by = m.mover();
                let pos = m.board(by).position_before_last().clone();
                let words = self.vocab.announce(&pos, *mv, self.settings.style);
                Some(Unpressed {
                    mv: *mv,
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
        let m = self.game.mirror();
        match m.stage() {
            Stage::Pressed { mv, .. } => Some((!m.mover(), *mv)),
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
        self.engine_busy && self.game.mirror().result().is_none()
    }

    /// The next game time at which a [`Msg::Tick`] has something to do: a
    /// flag falls, the talking clock's next announcement falls due, an
    /// absent player's default time runs out. `None` while nothing is
    /// due by itself (the clocks stopped, the game over). A front end
    /// sleeps until then (or until something else happens); waking
    /// earlier does no harm.
    pub fn next_deadline(&self) -> Option<Duration> {
        let m = self.game.mirror();
        if m.result().is_some() {
            return None;
        }
        let now = self.now;
        let clock = m.clock();
        let mut due: Vec<Duration> = Vec::new();
        if let Some(c) = clock.running()
            && clock.flagged().is_none()
        {
            // The remaining time goes down after the delay, if any.
            let start = now.saturating_add(clock.delay_left(c, now));
            let left = clock.remaining(c, now);
            due.push(start.saturating_add(left));
            if let Some(mark) = self.talker.as_ref().and_then(|t| t.next_mark(c)) {
                due.push(start.saturating_add(left.saturating_sub(mark)));
            }
        }
        let r = m.resumption();
        if let Some(start) = r.start {
            // Due once the default time is over (strictly after it).
            due.push(
                start
                    .saturating_add(r.default_time)
                    .saturating_add(Duration::from_millis(1)),
            );
        }
        due.into_iter().min()
    }

    /// The next game time at which the clock's display changes (the
    /// running clock shows whole seconds, tenths below
    /// [`crate::clock::TENTHS_BELOW`]): the full screen draws it then.
    pub fn next_display_change(&self) -> Option<Duration> {
        let m = self.game.mirror();
        let clock = m.clock();
        let c = clock.running()?;
        if m.result().is_some() || clock.flagged().is_some() {
            return None;
        }
        let now = self.now;
        let left = clock.remaining(c, now);
        let unit = if left < crate::clock::TENTHS_BELOW {
            Duration::from_millis(100)
        } else {
            Duration::from_secs(1)
        };
        let nanos = u64::try_from(left.as_nanos() % unit.as_nanos()).unwrap_or(0);
        Some(
            now.saturating_add(clock.delay_left(c, now))
                .saturating_add(Duration::from_nanos(nanos))
                .saturating_add(Duration::from_millis(1)),
        )
    }

    /// The last thing said.
    pub fn last_message(&self) -> Option<&Utterance> {
        self.log.last()
    }

    /// A player's scoresheet: the entries in the locale's notation with
    /// the check and mate signs, one per half-move, with the draw-offer
    /// mark `(=)` (8.1.5; an entry that is no legal move is shown as
    /// written).
    pub fn sheet(&self, owner: Color) -> Vec<String> {
        self.game.mirror().sheet_texts(owner)
    }

    fn local_san(&self, san: &str) -> String {
        self.vocab.locale().display_san(san)
    }

    /// The letter of a piece for boards and scoresheets
    /// ([`crate::locale::Locale::piece_letter`]).
    pub fn piece_letter(&self, role: Role) -> String {
        self.vocab.locale().piece_letter(role)
    }

    // ---- the update function ----

    /// Handles one message at time `now`.
    pub fn update(&mut self, msg: Msg, now: Duration) -> Vec<Effect> {
        self.now = self.now.max(now);
        let mut fx = Vec::new();
        match msg {
            Msg::Tick => self.tick(&mut fx),
            Msg::HelpKey => {
                // What is asked for is shown: the box comes back to the
                // newest line.
                self.page_messages(Page::Newest);
                self.help(&mut fx);
            }
            Msg::Line(line) => {
                self.page_messages(Page::Newest);
                self.tick(&mut fx);
                self.line(&line, &mut fx);
            }
            Msg::Notice(u) => self.say(&mut fx, u, Priority::Request),
            Msg::Heard(d) => {
                self.tick(&mut fx);
                self.heard(d, &mut fx);
            }
            Msg::EngineMove(uci) => self.engine_move(&uci, &mut fx),
            Msg::EngineFailed(error) => self.engine_failed(&error, &mut fx),
            Msg::Saved { path, result } => {
                let file = Utterance::plain(path.display().to_string());
                let u = match result {
                    Ok(()) => self.vocab.message(MsgKey::UiSaved, &[("file", &file)]),
                    Err(e) => {
                        let error = Utterance::plain(e.describe(self.vocab.locale()));
                        let save = self.cmd_word(Cmd::Save);
                        self.vocab.message(
                            MsgKey::UiSaveFailed,
                            &[("file", &file), ("error", &error), ("save", &save)],
                        )
                    }
                };
                self.say(&mut fx, u, Priority::Critical);
            }
        }
        self.finish(&mut fx);
        fx
    }

    /// Ends an update: its journal records are saved (the one save
    /// sequence) before any of its effects is carried out, and the position
    /// for speech input is sent when it changed. Records that cannot be
    /// saved undo the update: nothing of it is said or done but that.
    fn finish(&mut self, fx: &mut Vec<Effect>) {
        if let Err(failed) = self.game.save() {
            self.journal_failed(failed, fx);
        }
        let m = self.game.mirror();
        let key = (
            m.board(Color::White).moves().len(),
            m.board(Color::Black).moves().len(),
        );
        if self.heard_in != Some(key) {
            self.heard_in = Some(key);
            fx.push(Effect::Position {
                pos: Box::new(self.hearing_position()),
                mode: self.castling_mode(),
            });
        }
    }

    /// The position a spoken move is meant in: the board the next move is
    /// made on.
    pub fn hearing_position(&self) -> Chess {
        let m = self.game.mirror();
        match m.stage() {
            Stage::Pressed { .. } => m.board(!m.mover()).position().clone(),
            // A move made, not pressed: a correction is heard in the
            // position before it.
            _ => match self.unpressed() {
                Some(u) => u.before,
                None => self.current().position().clone(),
            },
        }
    }

    /// The update's records could not be saved: it was undone (see
    /// [`Journaled::save`]); what it said leaves the log and its effects are
    /// dropped, and the failure is said.
    fn journal_failed(&mut self, failed: SaveFailed<std::io::Error>, fx: &mut Vec<Effect>) {
        fx.clear();
        if failed.undone {
            self.log.truncate(self.log_mark);
        }
        self.heard_in = None;
        let error = crate::input::describe_io_error(self.vocab.locale(), &failed.error);
        let file = Utterance::plain(
            self.settings
                .journal_path
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        );
        let u = self.vocab.message(
            MsgKey::UiJournalFailed,
            &[("file", &file), ("error", &Utterance::plain(error))],
        );
        self.say(fx, u, Priority::Critical);
    }

    /// The game's words, with this screen's command names.
    fn words(&self) -> Wording<'_> {
        self.game.wording(&self.words)
    }

    /// Applies a command through the game layer (its record joins this
    /// update's journal batch).
    fn act(&mut self, command: Command) -> Result<Vec<GameEvent>, GameError> {
        if !self.game.has_records() {
            self.log_mark = self.log.len();
        }
        self.game.apply(self.now, command, None)
    }

    /// Applies a command and says what happened (as `tell` asks), or why
    /// it was refused. `true` if it was applied.
    fn act_say(&mut self, command: Command, tell: Tell, fx: &mut Vec<Effect>) -> bool {
        match self.act(command) {
            Ok(said) => {
                self.tell(said, tell, fx);
                true
            }
            Err(e) => {
                self.refused(&e, fx);
                false
            }
        }
    }

    /// Says the events (as `tell` asks); a game that just ended is said
    /// with what can be done next.
    fn tell(&mut self, said: Vec<GameEvent>, tell: Tell, fx: &mut Vec<Effect>) {
        for e in said {
            if let GameEvent::GameOver(r) = e {
                self.announce_result(r, fx);
            } else if tell == Tell::All || e.is_warning() {
                let u = self.words().event(&e);
                self.say(fx, u, e.priority());
            }
        }
    }

    fn refused(&mut self, e: &GameError, fx: &mut Vec<Effect>) {
        match e {
            GameError::GameOver(r) => self.announce_result(*r, fx),
            e => {
                let u = self.words().error(e);
                self.say(fx, u, Priority::Critical);
            }
        }
    }

    /// Shows `u` (and keeps it in the log) without speaking it.
    fn show(&mut self, fx: &mut Vec<Effect>, u: Utterance) {
        self.log.push(u.clone());
        fx.push(Effect::Show(u));
    }

    fn say(&mut self, fx: &mut Vec<Effect>, u: Utterance, priority: Priority) {
        self.say_item(fx, Item::new(u, priority));
    }

    fn say_item(&mut self, fx: &mut Vec<Effect>, item: Item) {
        self.last_said = Some(item.utterance.clone());
        self.keep_view(&item.utterance);
        self.log.push(item.utterance.clone());
        if self.log.len() > LOG_KEEP {
            let cut = self.log.len() - LOG_KEEP;
            self.log.drain(..cut);
            self.log_mark = self.log_mark.saturating_sub(cut);
        }
        fx.push(Effect::Say(item));
    }

    fn cmd_word(&self, cmd: Cmd) -> Utterance {
        Utterance::plain(self.words.shown(cmd).to_owned())
    }

    fn tick(&mut self, fx: &mut Vec<Effect>) {
        if !self.game.has_records() {
            self.log_mark = self.log.len();
        }
        let said = self.game.tick(self.now);
        if said.is_empty() {
            self.talk(fx);
        } else {
            self.tell(said, Tell::All, fx);
        }
    }

    /// Automatic time announcements due now (see [`Talker`]), with the
    /// clock's own priorities (chatter, warnings, countdown).
    fn talk(&mut self, fx: &mut Vec<Effect>) {
        if self.game.mirror().result().is_some() {
            return;
        }
        let Some(talker) = &mut self.talker else {
            return;
        };
        let said: Vec<Item> = talker
            .observe(self.game.mirror().clock(), self.now, &[])
            .iter()
            .map(|a| Item {
                utterance: self.phrases.announcement(a, self.verbosity()),
                priority: a.priority(),
                key: a.coalesce_key(),
            })
            .collect();
        for item in said {
            self.say_item(fx, item);
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
        let review = self.cmd_word(Cmd::Review);
        let u = self.vocab.message(
            MsgKey::UiGameOver,
            &[
                ("result", &result),
                ("save", &save),
                ("quit", &quit),
                ("review", &review),
            ],
        );
        self.say(fx, u, Priority::Critical);
        // The move that ended the game still goes on the opponent's
        // board, and the boards are compared (D.1). With one person (or
        // the engine) keeping both boards it is made there at once.
        let two_boards = self.settings.mode == Mode::Board;
        if let Some((board, mv)) = self.to_execute().filter(|_| two_boards) {
            let pos = self.game.mirror().board(board).position().clone();
            if pos.is_legal(mv) {
                let words = self.vocab.announce(&pos, mv, self.settings.style);
                let side = self.vocab.side(board);
                let u = self
                    .vocab
                    .message(MsgKey::UiExecuteFinal, &[("side", &side), ("move", &words)]);
                self.say(fx, u, Priority::Critical);
            }
        }
    }

    /// Board questions about the game's current position.
    fn queries(&self) -> Queries<'_> {
        Queries {
            vocab: &self.vocab,
            words: &self.words,
            dict: &self.dict,
            base: crate::query::base_dictionary(self.vocab.locale()),
            style: self.settings.style,
            game: self.current(),
        }
    }

    /// The game as PGN text: the moves of White's board (both boards agree
    /// unless a mismatch waits for the arbiter), with clock times, draw
    /// offers and the arbiter's record as comments.
    pub fn pgn(&self) -> String {
        let words = self.words();
        self.game.mirror().pgn(
            PgnSource::Board(self.game.mirror().game_board()),
            "annabella game",
            "?",
            "????.??.??",
            &words,
        )
    }

    /// The castling mode (for adapters).
    pub fn castling_mode(&self) -> CastlingMode {
        self.current().mode()
    }
}

#[cfg(test)]
mod tests;
