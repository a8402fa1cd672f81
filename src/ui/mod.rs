//! The player's terminal: the play screen's model ([`app`]), its command
//! words ([`command`]), rendering as pure widgets ([`render`]), and two
//! adapters: the full-screen terminal ([`term`]) and plain lines for screen
//! readers and braille displays ([`plain`]).

pub mod app;
pub mod keys;
pub use annabella_core::commands as command;
pub mod inbox;
pub mod plain;
pub use annabella_core::query;
pub mod render;
pub mod term;

pub use app::{App, Effect, EngineSide, Mode, Msg, Settings};

use std::time::{Duration, Instant};

use crate::engine::Worker;
use crate::locale::MsgKey;
use crate::speech::activity::{SignalledSpeaker, SpeechActivity};
use crate::speech::echo::{Room, RoomEcho};
use crate::speech::played::{CardSpeaker, Played};
use crate::speech::{Announcer, Speaker};
use crate::vocab::Utterance;
use crate::voice::live::{LiveVoice, VoiceEvent};

/// How long speech waits, at most, after a hands-free barge-in for the
/// player's words to be decided.
pub const BARGE_HOLD: Duration = Duration::from_secs(8);

/// The adapters' shared part: carries out [`Effect`]s (speech, engine,
/// saving) and feeds the answers back into the [`App`].
pub struct Runner {
    /// The engine, when one runs.
    pub engine: Option<Worker>,
    /// Speech output, when on.
    pub speech: Option<Announcer<Box<dyn Speaker>>>,
    /// Spoken moves, when on.
    pub voice: Option<LiveVoice>,
    /// Push-to-talk (F2 starts and ends an utterance) instead of
    /// hands-free listening.
    pub push_to_talk: bool,
    /// A review of the game asked for ([`Effect::Review`]): the front end
    /// runs it, then comes back to the game.
    pub review: Option<Box<crate::review::ReviewGame>>,
    /// The engine a review evaluates positions with.
    pub engine_path: std::path::PathBuf,
    /// When annabella speaks, for spoken input to stay deaf meanwhile
    /// (set with voice on; speech made by this runner reports to it).
    pub activity: Option<SpeechActivity>,
    /// Test only (`--room-echo`): speech goes into this simulated room
    /// instead of the sound card.
    pub room: Option<Room>,
    /// Hands-free listening with speech: annabella plays her speech on
    /// the sound card herself, writing what she plays here (the echo
    /// canceller's reference).
    pub played: Option<Played>,
    talking: bool,
    /// Hands-free barge-in: speech is held since then, until the player's
    /// words are decided (at most [`BARGE_HOLD`]).
    barged: Option<Instant>,
    voice_finished: bool,
    /// The files this run uses, which a save never writes over.
    pub outputs: crate::output::Inputs,
    /// `--force`: a save replaces a file that holds other games.
    pub force_save: bool,
    /// Spoken input's events handled since the loop last ticked.
    voice_acts: u64,
    /// Game time at `start` (a resumed game goes on from its last record).
    offset: Duration,
    /// When the game time began to run: `None` until the front end has
    /// shown its first frame ([`Runner::start_clock`]).
    start: Option<Instant>,
    /// Woken when speech makes progress (the front end's loop).
    speech_waker: crate::wake::Waker,
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
            voice: None,
            push_to_talk: false,
            review: None,
            engine_path: std::path::PathBuf::from(crate::engine::DEFAULT_ENGINE),
            activity: None,
            room: None,
            played: None,
            talking: false,
            barged: None,
            voice_finished: false,
            outputs: crate::output::Inputs::default(),
            force_save: false,
            voice_acts: 0,
            offset: Duration::ZERO,
            start: Some(Instant::now()),
            speech_waker: crate::wake::Waker::default(),
        }
    }

    /// Continues at game time `offset` (zero for a new game, the last
    /// journal record's time on resume). Game time stands still until
    /// [`start_clock`](Self::start_clock): the clock does not run before
    /// the player can see and hear it.
    pub fn starting_at(mut self, offset: Duration) -> Runner {
        self.offset = offset;
        self.start = None;
        self
    }

    /// Game time now (the clock's `now`).
    pub fn now(&self) -> Duration {
        self.offset + self.start.map_or(Duration::ZERO, |s| s.elapsed())
    }

    /// The first frame is shown (the first lines printed): game time runs
    /// from now on.
    pub fn start_clock(&mut self) {
        if self.start.is_none() {
            self.start = Some(Instant::now());
        }
    }

    /// The moment game time `t` is reached (`None` before the clock
    /// started).
    pub fn instant_of(&self, t: Duration) -> Option<Instant> {
        let start = self.start?;
        Some(start + t.saturating_sub(self.offset))
    }

    /// Speech wakes `waker` when it makes progress by itself (its
    /// speakers from now on, including those opened later).
    pub fn set_speech_waker(&mut self, waker: crate::wake::Waker) {
        if let Some(s) = &mut self.speech {
            s.set_waker(waker.clone());
        }
        self.speech_waker = waker;
    }

    /// When the loop must wake at the latest though nothing arrives: the
    /// game's next deadline (a flag, the talking clock), the end of a
    /// barge-in's hold, a time limit of speech.
    pub fn deadline(&mut self, app: &App) -> Option<Instant> {
        let game = app.next_deadline().and_then(|t| self.instant_of(t));
        let barge = self.barged.map(|at| at + BARGE_HOLD);
        let speech = self.speech.as_mut().and_then(Announcer::deadline);
        [game, barge, speech].into_iter().flatten().min()
    }

    /// Time passed: what the clock says now, and speech goes on. Called
    /// after every event and at every deadline.
    pub fn tick(&mut self, app: &mut App, show: &mut dyn FnMut(&Utterance)) {
        let fx = app.update(Msg::Tick, self.now());
        self.apply(app, fx, show);
        self.pump(app, show);
        // Spoken input's events handled, everything they led to done (a
        // recordings' timeline plays on only then).
        let acts = std::mem::take(&mut self.voice_acts);
        if let Some(v) = &self.voice
            && acts > 0
        {
            v.acted(acts);
        }
    }

    /// An event for the runner (spoken input, the engine, speech
    /// progress) is handled here; any other is given back to the front
    /// end.
    pub fn handle(
        &mut self,
        app: &mut App,
        event: inbox::Event,
        show: &mut dyn FnMut(&Utterance),
    ) -> Option<inbox::Event> {
        match event {
            inbox::Event::Voice(serial, e) => self.voice_event(app, serial, e, show),
            inbox::Event::Engine(r) => self.engine_answer(app, r, show),
            inbox::Event::Speech => self.pump(app, show),
            other => return Some(other),
        }
        None
    }

    /// Writes the game's PGN `text` to `path` by the output rule (see
    /// [`crate::output`]): never over a file this run uses or a file that
    /// holds other games; atomically. A refusal is said in its own words,
    /// a failure as a failed save; a quiet (automatic) save that succeeds
    /// says nothing.
    fn save(
        &mut self,
        app: &mut App,
        path: &std::path::Path,
        text: &str,
        quiet: bool,
    ) -> Vec<Effect> {
        use crate::output::{Kind, OutputError};
        match crate::output::write(
            path,
            text.as_bytes(),
            Kind::GameSave(text),
            &self.outputs,
            self.force_save,
        ) {
            Ok(()) if quiet => Vec::new(),
            Ok(()) => app.update(
                Msg::Saved {
                    path: path.to_owned(),
                    result: Ok(()),
                },
                self.now(),
            ),
            Err(OutputError::Io(e)) => app.update(
                Msg::Saved {
                    path: path.to_owned(),
                    result: Err(crate::input::SystemError::from(&e)),
                },
                self.now(),
            ),
            Err(refused) => {
                let line = refused.describe(app.vocab().locale(), path);
                app.update(Msg::Notice(Utterance::plain(line)), self.now())
            }
        }
    }

    /// Carries out `effects`; every utterance is passed to `show` (and
    /// spoken when speech is on). Answers that come back at once (a save)
    /// are fed to the app, and their effects carried out too.
    pub fn apply(&mut self, app: &mut App, effects: Vec<Effect>, show: &mut dyn FnMut(&Utterance)) {
        let mut queue: std::collections::VecDeque<Effect> = effects.into();
        while let Some(e) = queue.pop_front() {
            match e {
                Effect::Position { pos, mode } => {
                    if let Some(v) = &self.voice {
                        v.set_position(*pos, mode);
                    }
                }
                Effect::Say(item) => {
                    show(&item.utterance);
                    let failed = match &mut self.speech {
                        Some(s) => s.say(item).err(),
                        None => None,
                    };
                    if let Some(err) = failed {
                        self.speech_trouble(app, show, &err);
                    }
                }
                Effect::AskEngine { fen, moves } => {
                    let Some(w) = &self.engine else { continue };
                    if let Err(error) = w.ask(fen, moves) {
                        let fx = app.update(Msg::EngineFailed(error), self.now());
                        queue.extend(fx);
                    }
                }
                Effect::Save { path, text } => {
                    let fx = self.save(app, &path, &text, false);
                    queue.extend(fx);
                }
                Effect::Autosave { path, text } => {
                    let fx = self.save(app, &path, &text, true);
                    queue.extend(fx);
                }
                Effect::Speech { rate, voice } => self.reopen_speech(app, rate, voice, show),
                Effect::SaveSettings(values) => {
                    for (key, value) in values {
                        let line =
                            crate::config::file::save_and_say(app.vocab().locale(), key, &value);
                        let fx = app.update(Msg::Notice(Utterance::plain(line)), self.now());
                        queue.extend(fx);
                    }
                }
                Effect::Review(game) => self.review = Some(game),
                Effect::StopSpeech => self.stop_speech(),
                Effect::Show(u) => show(&u),
                Effect::Clipboard(text) => copy_to_clipboard(&text),
                Effect::Quit => {}
            }
        }
    }

    /// Speech with a new rate or voice (the settings command); nothing
    /// when speech is off. A fallback is said like at the start.
    fn reopen_speech(
        &mut self,
        app: &mut App,
        rate: Option<i32>,
        name: Option<String>,
        show: &mut dyn FnMut(&Utterance),
    ) {
        if self.speech.is_none() {
            return;
        }
        let voice = crate::speech::Voice {
            language: app.vocab().locale().language.clone(),
            rate,
            name,
        };
        let mut notices = Vec::new();
        let speaker = open_speaker(
            &voice,
            app.vocab().locale(),
            &mut notices,
            self.activity.as_ref(),
            self.room.as_ref(),
            self.played.as_ref(),
        );
        let mut announcer = Announcer::new(speaker);
        announcer.set_waker(self.speech_waker.clone());
        self.speech = Some(announcer);
        for n in notices {
            let u = Utterance::plain(n);
            app.log.push(u.clone());
            show(&u);
        }
    }

    /// A review of the game just played, run by a front end: the review
    /// speaks through this runner's speech meanwhile.
    pub fn start_review(
        &mut self,
        app: &App,
        game: crate::review::ReviewGame,
        answers: crate::wake::Post<crate::review::ReviewMsg>,
    ) -> (
        crate::review::Review,
        crate::review::front::ReviewRunner,
        Vec<crate::review::ReviewEffect>,
    ) {
        let (review, first) = crate::review::front::start(
            app.vocab().clone(),
            game,
            app.settings().style,
            Duration::from_millis(1000),
        );
        let runner = crate::review::front::ReviewRunner::new(
            self.speech.take(),
            self.engine_path.clone(),
            answers,
        );
        (review, runner, first)
    }

    /// Back from a review: speech returns, and the screen says so.
    pub fn end_review(
        &mut self,
        app: &mut App,
        mut review_runner: crate::review::front::ReviewRunner,
        show: &mut dyn FnMut(&Utterance),
    ) {
        self.speech = review_runner.speech.take();
        let back = app.vocab().message(MsgKey::UiReviewBack, &[]);
        let fx = app.update(Msg::Notice(back), self.now());
        self.apply(app, fx, show);
    }

    /// Feeds the engine's answer into the app.
    pub fn engine_answer(
        &mut self,
        app: &mut App,
        r: Result<shakmaty::uci::UciMove, crate::engine::EngineError>,
        show: &mut dyn FnMut(&Utterance),
    ) {
        if self.engine.is_none() {
            return;
        }
        let msg = match r {
            Ok(m) => Msg::EngineMove(m),
            Err(e) => {
                self.engine = None;
                Msg::EngineFailed(e)
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
    /// utterance; a terminal reports no key release). Starting one cuts
    /// annabella off (barge-in): her speech stops, nothing new is said
    /// until the utterance ends, and the player's words are heard.
    pub fn toggle_talk(&mut self) {
        if let (Some(v), true) = (&self.voice, self.push_to_talk) {
            self.talking = !self.talking;
            if let Some(s) = &mut self.speech {
                if self.talking {
                    s.hush();
                }
                s.hold(self.talking);
            }
            v.push_to_talk(self.talking);
        }
    }

    /// The player spoke over annabella (hands-free barge-in): she stops,
    /// as with the stop key, and says nothing new until his words are
    /// decided.
    fn barge_in(&mut self) {
        if let Some(s) = &mut self.speech {
            s.hush();
            s.hold(true);
            self.barged = Some(Instant::now());
        }
    }

    /// Speech held for a barge-in goes on (his words were decided, or
    /// none came within [`BARGE_HOLD`]).
    fn end_barge_in(&mut self) {
        if self.barged.take().is_some()
            && let Some(s) = &mut self.speech
        {
            s.hold(self.talking);
        }
    }

    /// The stop key: annabella stops speaking at once (what is waiting,
    /// except moves and critical lines, is dropped).
    pub fn stop_speech(&mut self) {
        if let Some(s) = &mut self.speech {
            s.hush();
        }
    }

    /// Feeds what speech input reported (a decision in the position
    /// `serial`, a notice) into the app.
    pub fn voice_event(
        &mut self,
        app: &mut App,
        serial: u64,
        event: VoiceEvent,
        show: &mut dyn FnMut(&Utterance),
    ) {
        let Some(v) = &self.voice else { return };
        // Acted on once the loop has ticked after it (see `tick`).
        self.voice_acts += 1;
        let Some(event) = v.accept(serial, event) else {
            return;
        };
        let msgs: Vec<Msg> = match event {
            VoiceEvent::Heard(h) => {
                self.end_barge_in();
                vec![Msg::Heard(h.decision)]
            }
            VoiceEvent::BargeIn => {
                self.barge_in();
                Vec::new()
            }
            VoiceEvent::Ready { missing_words } => {
                let words = command::CommandWords::new(app.vocab().locale());
                let help = Utterance::plain(words.shown(command::Cmd::Help).to_owned());
                let key = if self.push_to_talk {
                    MsgKey::UiVoicePtt
                } else {
                    MsgKey::UiVoiceReady
                };
                let mut out = vec![Msg::Notice(app.vocab().message(key, &[("help", &help)]))];
                if !missing_words.is_empty() {
                    let list = Utterance::plain(missing_words.join(", "));
                    out.push(Msg::Notice(
                        app.vocab()
                            .message(MsgKey::VoiceMissingWords, &[("words", &list)]),
                    ));
                }
                out
            }
            VoiceEvent::Failed(failure) => vec![Msg::Notice(Utterance::plain(
                failure.describe(app.vocab().locale()),
            ))],
            VoiceEvent::Finished => {
                self.voice_finished = true;
                Vec::new()
            }
            VoiceEvent::TalkKey(down) => {
                if self.talking != down {
                    self.toggle_talk();
                }
                Vec::new()
            }
            VoiceEvent::Stopped => {
                // Listening ended (no microphone, no model): typed input
                // goes on, and speech is never held for it.
                self.voice = None;
                self.talking = false;
                if let Some(s) = &mut self.speech {
                    s.hold(false);
                }
                Vec::new()
            }
        };
        for m in msgs {
            let fx = app.update(m, self.now());
            self.apply(app, fx, show);
        }
    }

    /// Keeps speech going (after every event); a failure or a fallback of
    /// speech is shown as one line.
    pub fn pump(&mut self, app: &mut App, show: &mut dyn FnMut(&Utterance)) {
        if self.barged.is_some_and(|at| at.elapsed() >= BARGE_HOLD) {
            self.end_barge_in();
        }
        if let Some(s) = &mut self.speech
            && let Err(err) = s.pump()
        {
            self.speech_trouble(app, show, &err);
        }
    }

    /// One line about speech: it failed (then it is off), or fell back to
    /// another synthesizer (then it goes on, and the line is spoken too).
    fn speech_trouble(
        &mut self,
        app: &mut App,
        show: &mut dyn FnMut(&Utterance),
        err: &crate::speech::SpeechError,
    ) {
        let mut next = Some(err.clone());
        // A fallback may itself fall back: a few lines at most.
        while let Some(err) = next.take() {
            let line = Utterance::plain(err.describe(app.vocab().locale()));
            app.log.push(line.clone());
            show(&line);
            match &mut self.speech {
                Some(s) if s.failed() => self.speech = None,
                Some(s) => {
                    let item = crate::vocab::Item::new(line, crate::vocab::Priority::Critical);
                    next = s.say(item).err();
                }
                None => {}
            }
        }
    }
}

/// The speaker of the play screen: speech-dispatcher, else espeak-ng, else
/// nothing (each fallback a line in `notices`); with `room` (test only),
/// espeak-ng speaking into that simulated room; with `played`,
/// espeak-ng played on the sound card by annabella herself, what she
/// plays written into `played` (when that cannot be opened, on a machine
/// without a sound card, the usual speaker: [`Played::is_live`] tells).
/// With `activity`, it reports when it speaks.
pub fn open_speaker(
    voice: &crate::speech::Voice,
    locale: &crate::locale::Locale,
    notices: &mut Vec<String>,
    activity: Option<&SpeechActivity>,
    room: Option<&Room>,
    played: Option<&Played>,
) -> Box<dyn Speaker> {
    // Without a sound card (or espeak-ng) the usual speaker, which says
    // what is missing itself.
    let card = match (room, played) {
        (None, Some(played)) => match crate::speech::espeak::EspeakNg::probe(voice) {
            Ok((engine, missing)) => CardSpeaker::open(engine, played.clone())
                .ok()
                .inspect(|_| notices.extend(missing.map(|e| e.describe(locale)))),
            Err(_) => None,
        },
        _ => None,
    };
    let speaker: Box<dyn Speaker> = match (card, room) {
        (Some(card), _) => Box::new(card),
        (None, Some(room)) => match crate::speech::espeak::EspeakNg::probe(voice) {
            Ok((engine, missing)) => {
                notices.extend(missing.map(|e| e.describe(locale)));
                Box::new(RoomEcho::new(engine, room.clone()))
            }
            Err(e) => {
                notices.push(e.describe(locale));
                Box::new(crate::speech::Silent)
            }
        },
        (None, None) => crate::speech::open(&crate::speech::Output::Speak, voice, locale, notices),
    };
    match activity {
        Some(a) => Box::new(SignalledSpeaker::new(speaker, a.clone())),
        None => speaker,
    }
}

/// Asks the terminal to put `text` on the clipboard (OSC 52: xterm,
/// kitty, foot, WezTerm, iTerm2, and tmux with `set-clipboard`); a
/// terminal without it ignores the sequence.
fn copy_to_clipboard(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout();
    let _ = write!(out, "\x1b]52;c;{}\x07", base64(text.as_bytes()));
    let _ = out.flush();
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ABC[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    #[test]
    fn base64_as_the_standard_says() {
        // RFC 4648, section 10.
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(super::base64(plain.as_bytes()), coded);
        }
    }
    use std::rc::Rc;

    use super::*;
    use crate::clock::TimeControl;
    use crate::speech::{Recording, SpeechError};
    use crate::vocab::{Item, Priority, Vocabulary};

    /// The speech test double, shared so the test can look at it after the
    /// runner took it.
    struct Shared(Rc<RefCell<Recording>>);

    impl Speaker for Shared {
        fn speak(&mut self, u: &Utterance, p: Priority) -> Result<(), SpeechError> {
            self.0.borrow_mut().speak(u, p)
        }
        fn stop(&mut self) {
            self.0.borrow_mut().stop();
        }
        fn is_speaking(&mut self) -> bool {
            self.0.borrow_mut().is_speaking()
        }
        fn name(&self) -> &str {
            "shared recording"
        }
    }

    #[test]
    fn push_to_talk_and_the_stop_key_cut_speech_and_open_the_gate() {
        let mut slow = Recording::default();
        slow.hold = true;
        let recording = Rc::new(RefCell::new(slow));
        let activity = SpeechActivity::default();
        let speaker: Box<dyn Speaker> = Box::new(SignalledSpeaker::new(
            Box::new(Shared(Rc::clone(&recording))),
            activity.clone(),
        ));
        let mut runner = Runner::new(None, Some(Announcer::new(speaker)));
        // Listening whose model is missing: it stops at once, but takes
        // the key like any other.
        let dir = tempfile::tempdir().expect("a temporary folder");
        runner.voice = Some(LiveVoice::start(
            dir.path().join("no-model"),
            Vocabulary::builtin("en").expect("en"),
            crate::voice::DecisionSettings::default(),
            crate::voice::live::VoiceSource::PushToTalk,
            shakmaty::CastlingMode::Standard,
        ));
        runner.push_to_talk = true;
        let (mut app, _) = App::new(
            Vocabulary::builtin("en").expect("en"),
            Settings::default(),
            Duration::ZERO,
        );
        let mut show = |_: &Utterance| {};
        let say = |text: &str| {
            vec![Effect::Say(Item::new(
                Utterance::plain(text),
                Priority::Move,
            ))]
        };
        runner.apply(&mut app, say("1. White: e4"), &mut show);
        assert!(activity.speaking());
        // The player presses the talk key while annabella speaks: she
        // stops (barge-in), the mute ends after the short cut tail, and
        // nothing new is said while he speaks.
        runner.toggle_talk();
        assert_eq!(recording.borrow().stopped, 1);
        assert!(!activity.speaking());
        let later = std::time::Instant::now() + Duration::from_millis(150);
        assert!(!activity.muted(later, later), "the player is heard");
        runner.apply(&mut app, say("1. Black: e5"), &mut show);
        runner.pump(&mut app, &mut show);
        assert_eq!(recording.borrow().displays(), ["1. White: e4"]);
        // Key again: his utterance ends, what waited is said.
        runner.toggle_talk();
        runner.pump(&mut app, &mut show);
        assert_eq!(
            recording.borrow().displays(),
            ["1. White: e4", "1. Black: e5"]
        );
        assert!(activity.speaking());
        // The stop key: silence at once.
        runner.stop_speech();
        assert_eq!(recording.borrow().stopped, 2);
        assert!(!activity.speaking());
    }

    /// A failure of spoken input is worded by the play screen in its
    /// locale, shown and spoken, as the line the worker built before.
    #[test]
    fn a_voice_failure_is_said_in_the_screen_s_locale() {
        use crate::voice::VoiceFailure;
        use crate::voice::mic::MicError;
        for code in ["de", "ko", "ar", "en"] {
            let recording = Rc::new(RefCell::new(Recording::default()));
            let speaker: Box<dyn Speaker> = Box::new(Shared(Rc::clone(&recording)));
            let mut runner = Runner::new(None, Some(Announcer::new(speaker)));
            let vocab = Vocabulary::builtin(code).expect("a built-in locale");
            let l = vocab.locale().clone();
            // Listening whose model is missing (its own events are not
            // polled here): the events below are fed in as the loop would.
            let dir = tempfile::tempdir().expect("a temporary folder");
            runner.voice = Some(LiveVoice::start(
                dir.path().join("no-model"),
                vocab.clone(),
                crate::voice::DecisionSettings::default(),
                crate::voice::live::VoiceSource::PushToTalk,
                shakmaty::CastlingMode::Standard,
            ));
            let (mut app, _) = App::new(vocab, Settings::default(), Duration::ZERO);
            let mut show = |_: &Utterance| {};
            let no_mic = l.message(
                MsgKey::VoiceNoMicrophone,
                &[("error", &l.message(MsgKey::VoiceMicNoDevice, &[]))],
            );
            for (failure, line) in [
                (
                    VoiceFailure::Recognizer,
                    l.message(MsgKey::VoiceRecognizerFailed, &[]),
                ),
                (VoiceFailure::Microphone(MicError::NoDevice), no_mic),
            ] {
                runner.voice_event(&mut app, 0, VoiceEvent::Failed(failure), &mut show);
                runner.pump(&mut app, &mut show);
                let said = app.log.last().expect("a line").clone();
                assert_eq!(said, Utterance::plain(line.clone()), "{code}");
                assert!(
                    recording.borrow().displays().contains(&line),
                    "{code}: spoken: {:?}",
                    recording.borrow().displays()
                );
            }
        }
    }

    /// `--plain` has no F3: the typed command `quiet` (or any of its
    /// words, in every locale) stops the speech at once, says nothing
    /// itself, and changes nothing in the game.
    #[test]
    fn the_quiet_command_stops_speech_in_every_locale() {
        for code in crate::locale::builtin_codes() {
            let mut slow = Recording::default();
            slow.hold = true;
            let recording = Rc::new(RefCell::new(slow));
            let speaker: Box<dyn Speaker> = Box::new(Shared(Rc::clone(&recording)));
            let mut runner = Runner::new(None, Some(Announcer::new(speaker)));
            let vocab = Vocabulary::builtin(code).expect("a built-in locale");
            let words = vocab.locale().message(MsgKey::UiCmdQuiet, &[]);
            let (mut app, _) = App::new(vocab, Settings::default(), Duration::ZERO);
            let mut show = |_: &Utterance| {};
            let before = app.current().moves().len();
            for (i, word) in words.split('|').enumerate() {
                let fx = vec![Effect::Say(Item::new(
                    Utterance::plain("1. White: e4"),
                    Priority::Move,
                ))];
                runner.apply(&mut app, fx, &mut show);
                assert_eq!(recording.borrow().stopped, i, "{code}: '{word}'");
                let fx = app.update(Msg::Line(word.to_owned()), Duration::ZERO);
                // Speech stops, and a line is shown, never spoken.
                assert!(
                    fx.iter().any(|e| matches!(e, Effect::StopSpeech))
                        && fx.iter().any(|e| matches!(e, Effect::Show(_)))
                        && !fx.iter().any(|e| matches!(e, Effect::Say(_))),
                    "{code}: '{word}' gave {fx:?}"
                );
                runner.apply(&mut app, fx, &mut show);
                assert_eq!(recording.borrow().stopped, i + 1, "{code}: '{word}'");
            }
            assert_eq!(app.current().moves().len(), before);
        }
    }

    #[test]
    fn clock_chatter_on_the_play_screen_keeps_the_clocks_priorities() {
        let mut slow = Recording::default();
        slow.hold = true;
        let recording = Rc::new(RefCell::new(slow));
        let speaker: Box<dyn Speaker> = Box::new(Shared(Rc::clone(&recording)));
        let mut runner = Runner::new(None, Some(Announcer::new(speaker)));
        let settings = Settings {
            control: "2m".parse::<TimeControl>().expect("a control"),
            mode: Mode::Hotseat,
            ..Settings::default()
        };
        let vocab = Vocabulary::builtin("en").expect("en");
        let (mut app, first) = App::new(vocab, settings, Duration::ZERO);
        let mut printed = Vec::new();
        let mut show = |u: &Utterance| printed.push(u.display.clone());
        runner.apply(&mut app, first, &mut show);
        // The welcome is still being spoken (the synthesizer is slow)
        // while White's last ten seconds are counted.
        let mut said = Vec::new();
        for s in 60..=119 {
            let fx = app.update(Msg::Tick, Duration::from_secs(s));
            for e in &fx {
                if let Effect::Say(item) = e {
                    said.push(item.clone());
                }
            }
            runner.apply(&mut app, fx, &mut show);
        }
        // The clock's own priorities: warnings, not moves.
        let countdown: Vec<&Item> = said
            .iter()
            .filter(|i| i.key.as_deref() == Some("time-left:white"))
            .collect();
        assert!(countdown.len() >= 10, "{said:#?}");
        assert!(
            countdown.iter().all(|i| i.priority == Priority::Warning),
            "{said:#?}"
        );
        // Every one was printed at once; spoken, a number replaces the one
        // before it while the synthesizer is busy: only the last remains.
        recording.borrow_mut().end();
        runner.pump(&mut app, &mut show);
        recording.borrow_mut().end();
        runner.pump(&mut app, &mut show);
        let spoken = recording.borrow().displays();
        let last = countdown.last().map(|i| i.utterance.display.clone());
        assert_eq!(spoken.len(), 2, "{spoken:#?}");
        assert_eq!(spoken.last().cloned(), last, "{spoken:#?}");
        for i in &countdown {
            assert!(printed.contains(&i.utterance.display), "{printed:#?}");
        }
    }
}
