//! The player's terminal: the play screen's model ([`app`]), its command
//! words ([`command`]), rendering as pure widgets ([`render`]), and two
//! adapters: the full-screen terminal ([`term`]) and plain lines for screen
//! readers and braille displays ([`plain`]).

pub mod app;
pub mod command;
pub mod plain;
pub mod render;
pub mod term;

pub use app::{App, Effect, EngineSide, Mode, Msg, Settings};

use std::time::{Duration, Instant};

use crate::engine::Worker;
use crate::journal::Writer;
use crate::speech::{Announcer, Item, Priority, Speaker};
use crate::vocab::Utterance;
use crate::voice::live::{LiveVoice, VoiceEvent};

/// The adapters' shared part: carries out [`Effect`]s (speech, engine,
/// saving) and feeds the answers back into the [`App`].
pub struct Runner {
    /// The engine, when one runs.
    pub engine: Option<Worker>,
    /// Speech output, when on.
    pub speech: Option<Announcer<Box<dyn Speaker>>>,
    /// The game's journal, when one is kept.
    pub journal: Option<Writer>,
    /// Spoken moves, when on.
    pub voice: Option<LiveVoice>,
    /// Push-to-talk (F2 starts and ends an utterance) instead of
    /// hands-free listening.
    pub push_to_talk: bool,
    talking: bool,
    voice_finished: bool,
    /// Game time at `start` (a resumed game goes on from its last record).
    offset: Duration,
    start: Instant,
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("engine", &self.engine.is_some())
            .field("speech", &self.speech.is_some())
            .finish()
    }
}

impl Runner {
    /// A runner whose clock starts now.
    pub fn new(engine: Option<Worker>, speech: Option<Announcer<Box<dyn Speaker>>>) -> Runner {
        Runner {
            engine,
            speech,
            journal: None,
            voice: None,
            push_to_talk: false,
            talking: false,
            voice_finished: false,
            offset: Duration::ZERO,
            start: Instant::now(),
        }
    }

    /// Keeps the game's journal in `writer`, continuing at game time
    /// `offset` (zero for a new game, the last record's time on resume).
    pub fn with_journal(mut self, writer: Option<Writer>, offset: Duration) -> Runner {
        self.journal = writer;
        self.offset = offset;
        self.start = Instant::now();
        self
    }

    /// Game time now (the clock's `now`).
    pub fn now(&self) -> Duration {
        self.offset + self.start.elapsed()
    }

    /// Carries out `effects`; every utterance is passed to `show` (and
    /// spoken when speech is on). Answers that come back at once (a save)
    /// are fed to the app, and their effects carried out too.
    pub fn apply(&mut self, app: &mut App, effects: Vec<Effect>, show: &mut dyn FnMut(&Utterance)) {
        let mut queue: std::collections::VecDeque<Effect> = effects.into();
        while let Some(e) = queue.pop_front() {
            match e {
                Effect::Journal(records) => {
                    let Some(w) = &mut self.journal else { continue };
                    if let Err(err) = w.append_all(&records) {
                        // Nothing of this update may be said or done: it
                        // is undone.
                        queue.clear();
                        let fx = app.update(
                            Msg::JournalFailed {
                                error: err.to_string(),
                            },
                            self.now(),
                        );
                        queue.extend(fx);
                    }
                }
                Effect::Position { pos, mode } => {
                    if let Some(v) = &self.voice {
                        v.set_position(*pos, mode);
                    }
                }
                Effect::Say(u) => {
                    show(&u);
                    let failed = match &mut self.speech {
                        Some(s) => s.say(Item::new(u, Priority::Move)).err(),
                        None => None,
                    };
                    if let Some(err) = failed {
                        let line = Utterance::plain(err.describe(app.vocab().locale()));
                        app.log.push(line.clone());
                        show(&line);
                        self.speech = None;
                    }
                }
                Effect::AskEngine { fen, moves } => {
                    let r = match &self.engine {
                        Some(w) => w.ask(fen, moves).map_err(|e| e.to_string()),
                        None => Err(String::new()),
                    };
                    if let Err(error) = r {
                        if error.is_empty() {
                            continue;
                        }
                        let fx = app.update(
                            Msg::EngineFailed {
                                error,
                                at_start: false,
                            },
                            self.now(),
                        );
                        queue.extend(fx);
                    }
                }
                Effect::Save { path, text } => {
                    let r = std::fs::write(&path, text)
                        .map(|()| path.clone())
                        .map_err(|e| e.to_string());
                    queue.extend(app.update(Msg::Saved(r), self.now()));
                }
                Effect::Autosave { path, text } => {
                    if let Err(e) = std::fs::write(&path, text) {
                        queue.extend(app.update(Msg::Saved(Err(e.to_string())), self.now()));
                    }
                }
                Effect::Quit => {}
            }
        }
    }

    /// Feeds the engine's answer, if one has arrived, into the app.
    pub fn poll_engine(&mut self, app: &mut App, show: &mut dyn FnMut(&Utterance)) {
        let Some(w) = &self.engine else { return };
        let Some(r) = w.poll() else { return };
        let msg = match r {
            Ok(m) => Msg::EngineMove(m),
            Err(e) => {
                self.engine = None;
                Msg::EngineFailed {
                    error: e.to_string(),
                    at_start: false,
                }
            }
        };
        let fx = app.update(msg, self.now());
        self.apply(app, fx, show);
    }

    /// `true` while spoken input may still come (a file source that has
    /// not finished, or a microphone): an adapter whose typed input has
    /// ended keeps running.
    pub fn voice_pending(&self) -> bool {
        self.voice.is_some() && !self.voice_finished
    }

    /// Push-to-talk: the talk key was pressed (starts or ends an
    /// utterance; a terminal reports no key release).
    pub fn toggle_talk(&mut self) {
        if let (Some(v), true) = (&self.voice, self.push_to_talk) {
            self.talking = !self.talking;
            v.push_to_talk(self.talking);
        }
    }

    /// Feeds what speech input decided (and its notices) into the app.
    pub fn poll_voice(&mut self, app: &mut App, show: &mut dyn FnMut(&Utterance)) {
        loop {
            let Some(v) = &self.voice else { return };
            let Some(event) = v.poll() else {
                if v.is_stopped() {
                    // Listening ended (no microphone, no model): typed
                    // input goes on.
                    self.voice = None;
                }
                return;
            };
            let msgs: Vec<Msg> = match event {
                VoiceEvent::Heard(h) => vec![Msg::Heard(h.decision)],
                VoiceEvent::Ready { missing_words } => {
                    let words = command::CommandWords::new(app.vocab().locale());
                    let help = Utterance::plain(words.shown(command::Cmd::Help).to_owned());
                    let key = if self.push_to_talk {
                        "ui.voice_ptt"
                    } else {
                        "ui.voice_ready"
                    };
                    let mut out = vec![Msg::Notice(app.vocab().message(key, &[("help", &help)]))];
                    if !missing_words.is_empty() {
                        let list = Utterance::plain(missing_words.join(", "));
                        out.push(Msg::Notice(
                            app.vocab()
                                .message("voice.missing_words", &[("words", &list)]),
                        ));
                    }
                    out
                }
                VoiceEvent::Failed(line) => vec![Msg::Notice(Utterance::plain(line))],
                VoiceEvent::Finished => {
                    self.voice_finished = true;
                    Vec::new()
                }
            };
            for m in msgs {
                let fx = app.update(m, self.now());
                self.apply(app, fx, show);
            }
        }
    }

    /// Keeps speech going (call every tick).
    pub fn pump(&mut self) {
        if let Some(s) = &mut self.speech
            && s.pump().is_err()
        {
            self.speech = None;
        }
    }
}
