//! Speech output: one small trait, [`Speaker`], with its adapters, and the
//! pure [`SpeechQueue`] that decides what is said when.
//!
//! Adapters:
//! - [`dispatcher::Dispatcher`]: the `tts` crate over speech-dispatcher,
//!   the system screen readers such as Orca use, so users keep their voice
//!   and rate;
//! - [`espeak::EspeakNg`]: espeak-ng rendering 16 kHz mono audio (a WAV
//!   file, an in-memory buffer, or a stream for the latency benchmark), or
//!   playing on the sound card when speech-dispatcher is missing;
//! - [`played::CardSpeaker`]: espeak-ng audio played by annabella itself
//!   on the sound card, what it plays known (the echo canceller's
//!   reference for barge-in by voice), synthesized in process by
//!   [`libespeak::Synthesizer`] and streamed to the card as it comes;
//! - [`TextSpeaker`]: plain display lines on a writer (stdout), for screen
//!   readers and braille displays;
//! - [`Recording`]: a test double that records what it was told.
//!
//! [`Announcer`] joins a speaker and the queue; [`open`] picks the speaker
//! for an [`Output`] choice and falls back (speech-dispatcher → espeak-ng →
//! text only), describing each fallback once, in one line, from locale
//! messages.

pub mod activity;
pub mod dispatcher;
pub mod echo;
pub mod espeak;
pub mod libespeak;
pub mod played;
pub mod queue;

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

pub use queue::{Item, Priority, Pushed, SpeechQueue};

use crate::locale::Locale;
use crate::locale::MsgKey;
use crate::vocab::Utterance;
use crate::wake::Waker;

/// What is wrong with the speech-dispatcher daemon.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Trouble {
    /// It cannot be reached (the library's words, for logs).
    #[error("unreachable: {0}")]
    Unreachable(String),
    /// It did not answer within the time limit.
    #[error("no answer within {seconds} s")]
    NoAnswer {
        /// The limit.
        seconds: u64,
    },
    /// It took speech but did not speak it (never began, never ended, or
    /// refused).
    #[error("it did not speak")]
    Silent,
    /// This build has no speech-dispatcher client (built without the
    /// `dispatcher` feature).
    #[error("not built in")]
    NotBuilt,
}

impl Trouble {
    /// One localized phrase for the `{error}` of `speech.no_daemon`.
    pub fn describe(&self, locale: &Locale) -> String {
        match self {
            Trouble::Unreachable(_) => locale.message(MsgKey::SpeechUnreachable, &[]),
            Trouble::NoAnswer { seconds } => {
                locale.message(MsgKey::SpeechNoAnswer, &[("seconds", &seconds.to_string())])
            }
            Trouble::Silent => locale.message(MsgKey::SpeechSilent, &[]),
            Trouble::NotBuilt => locale.message(MsgKey::SpeechNotBuilt, &[]),
        }
    }
}

/// Why speech output did not work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpeechError {
    /// The speech-dispatcher daemon cannot be used (then espeak-ng speaks).
    #[error("speech-dispatcher: {0}")]
    NoDaemon(Trouble),
    /// The synthesizer program could not be run.
    #[error("{program}: {error}")]
    NoEngine {
        /// The program.
        program: String,
        /// What the system said.
        error: crate::input::SystemError,
    },
    /// libespeak-ng cannot be loaded: the espeak-ng program is run for
    /// each utterance instead (speech goes on, a little slower to start).
    #[error("{library}: {error:?}")]
    NoLibrary {
        /// The library asked for.
        library: String,
        /// What went wrong.
        error: libespeak::LibTrouble,
    },
    /// The synthesizer has no voice for the language.
    #[error("{engine}: no voice for '{language}'")]
    NoVoice {
        /// The synthesizer ("espeak-ng", "speech-dispatcher").
        engine: String,
        /// The language or voice name asked for.
        language: String,
    },
    /// Speaking or rendering failed.
    #[error("{0:?}")]
    Failed(Failure),
    /// The synthesizer found no audio device to play on.
    #[error("{engine} could not play ({detail})")]
    NoAudio {
        /// The synthesizer.
        engine: String,
        /// Its last line of error output (for logs).
        detail: String,
    },
    /// The synthesizer did not finish an utterance within its time limit
    /// (it was stopped).
    #[error("{engine} did not finish within {seconds} s")]
    Stuck {
        /// The synthesizer.
        engine: String,
        /// The limit.
        seconds: u64,
    },
    /// An audio file could not be written.
    #[error("{path}: {error}")]
    File {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: crate::input::SystemError,
    },
}

impl SpeechError {
    /// The one-line explanation for the user, from `locale`'s messages:
    /// what went wrong and what to do.
    pub fn describe(&self, locale: &Locale) -> String {
        match self {
            SpeechError::NoDaemon(t) => {
                locale.message(MsgKey::SpeechNoDaemon, &[("error", &t.describe(locale))])
            }
            SpeechError::NoEngine { program, error } => locale.message(
                MsgKey::SpeechNoEspeak,
                &[("error", &format!("{program}: {}", error.describe(locale)))],
            ),
            SpeechError::NoLibrary { library, error } => locale.message(
                MsgKey::SpeechNoLibrary,
                &[("error", &format!("{library}: {}", error.describe(locale)))],
            ),
            SpeechError::NoVoice { engine, language } => locale.message(
                MsgKey::SpeechNoVoice,
                &[("engine", engine), ("language", language)],
            ),
            SpeechError::Failed(f) => {
                locale.message(MsgKey::SpeechFailed, &[("error", &f.describe(locale))])
            }
            SpeechError::NoAudio { engine, .. } => {
                let why = locale.message(MsgKey::SpeechNoAudio, &[("engine", engine)]);
                locale.message(MsgKey::SpeechFailed, &[("error", &why)])
            }
            SpeechError::Stuck { engine, seconds } => {
                let why = locale.message(
                    MsgKey::SpeechStuck,
                    &[("engine", engine), ("seconds", &seconds.to_string())],
                );
                locale.message(MsgKey::SpeechFailed, &[("error", &why)])
            }
            SpeechError::File { path, error } => locale.message(
                MsgKey::SpeechFileError,
                &[
                    ("file", &path.display().to_string()),
                    ("error", &error.describe(locale)),
                ],
            ),
        }
    }
}

/// Why speaking or rendering failed ([`SpeechError::Failed`]): worded from
/// locale data, the synthesizer's own words never shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The synthesizer program ended with an error.
    Exited {
        /// The program.
        program: String,
        /// Its exit code, if any.
        code: Option<i32>,
        /// Its error output (its own, English words): for logs and bug
        /// reports, never shown to the player.
        detail: String,
    },
    /// Its output (or the lines' output) could not be read or written.
    Io(crate::input::SystemError),
    /// It gave no output to read.
    NoOutput,
    /// Its output is not 16-bit mono PCM WAV (what is wrong, for logs).
    NotWav(&'static str),
    /// libespeak-ng failed.
    Library(libespeak::LibTrouble),
    /// No device to play on (a test double's failure).
    NoDevice,
}

impl Failure {
    /// In `locale`'s words.
    pub fn describe(&self, locale: &Locale) -> String {
        match self {
            Failure::Exited { program, .. } => {
                locale.message(MsgKey::SpeechFailExited, &[("program", program)])
            }
            Failure::Io(e) => e.describe(locale),
            Failure::NoOutput => locale.message(MsgKey::SpeechFailNoOutput, &[]),
            Failure::NotWav(_) => locale.message(MsgKey::SpeechFailNotWav, &[]),
            Failure::Library(t) => t.describe(locale),
            Failure::NoDevice => locale.message(MsgKey::SpeechFailNoDevice, &[]),
        }
    }
}

impl From<&std::io::Error> for Failure {
    fn from(e: &std::io::Error) -> Failure {
        Failure::Io(crate::input::SystemError::from(e))
    }
}

/// Something that can speak (or show) utterances.
pub trait Speaker {
    /// Starts saying `u` (may return before the audio has ended).
    ///
    /// # Errors
    ///
    /// When the output does not work; the caller falls back.
    fn speak(&mut self, u: &Utterance, priority: Priority) -> Result<(), SpeechError>;
    /// Stops the utterance being spoken, if any.
    fn stop(&mut self);
    /// `true` while an utterance is still being spoken.
    fn is_speaking(&mut self) -> bool {
        false
    }
    /// A short name for messages ("speech-dispatcher", "espeak-ng").
    fn name(&self) -> &str;
    /// A failure found after an utterance ended (e.g. the audio device
    /// could not be opened), reported once.
    fn take_error(&mut self) -> Option<SpeechError> {
        None
    }
    /// Something the user must be told while speech goes on (a fallback to
    /// another synthesizer), once each.
    fn take_notice(&mut self) -> Option<SpeechError> {
        None
    }
    /// Whom to wake when speech makes progress by itself (an utterance
    /// ended, the speaker became ready): a front end's loop then lets the
    /// [`Announcer`] go on ([`Announcer::pump`]). It sleeps otherwise.
    fn set_waker(&mut self, _waker: Waker) {}
    /// When to ask again at the latest, though nothing woke the loop (a
    /// time limit of the utterance under way), if ever.
    fn deadline(&mut self) -> Option<Instant> {
        None
    }
}

impl<S: Speaker + ?Sized> Speaker for Box<S> {
    fn speak(&mut self, u: &Utterance, priority: Priority) -> Result<(), SpeechError> {
        (**self).speak(u, priority)
    }
    fn stop(&mut self) {
        (**self).stop();
    }
    fn is_speaking(&mut self) -> bool {
        (**self).is_speaking()
    }
    fn name(&self) -> &str {
        (**self).name()
    }
    fn take_error(&mut self) -> Option<SpeechError> {
        (**self).take_error()
    }
    fn take_notice(&mut self) -> Option<SpeechError> {
        (**self).take_notice()
    }
    fn set_waker(&mut self, waker: Waker) {
        (**self).set_waker(waker);
    }
    fn deadline(&mut self) -> Option<Instant> {
        (**self).deadline()
    }
}

/// How announcements are spoken: rate, voice, verbosity.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Voice {
    /// BCP 47 language of the text (`de`, `en`, `he`, …).
    pub language: String,
    /// Speaking rate from -100 (slowest) to 100 (fastest); `None` keeps the
    /// user's setting (speech-dispatcher) or the synthesizer's default.
    pub rate: Option<i32>,
    /// A voice name of the synthesizer; `None` picks one for the language.
    pub name: Option<String>,
}

/// Plain display lines, one per utterance (the display form).
#[derive(Debug)]
pub struct TextSpeaker<W: Write> {
    out: W,
}

impl<W: Write> TextSpeaker<W> {
    /// Lines go to `out`.
    pub fn new(out: W) -> TextSpeaker<W> {
        TextSpeaker { out }
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> Speaker for TextSpeaker<W> {
    fn speak(&mut self, u: &Utterance, _priority: Priority) -> Result<(), SpeechError> {
        writeln!(self.out, "{}", u.display)
            .and_then(|()| self.out.flush())
            .map_err(|e| SpeechError::Failed(Failure::from(&e)))
    }
    fn stop(&mut self) {}
    fn name(&self) -> &str {
        "text"
    }
}

/// Says nothing (when the display lines are printed elsewhere and no audio
/// works).
#[derive(Debug, Default, Clone, Copy)]
pub struct Silent;

impl Speaker for Silent {
    fn speak(&mut self, _u: &Utterance, _priority: Priority) -> Result<(), SpeechError> {
        Ok(())
    }
    fn stop(&mut self) {}
    fn name(&self) -> &str {
        "silent"
    }
}

/// Test double: records what it is told. With `hold` set, each utterance
/// stays "being spoken" until [`Recording::end`] is called, like a slow
/// synthesizer.
#[derive(Debug, Default, Clone)]
pub struct Recording {
    /// Every utterance started, in order.
    pub spoken: Vec<(Utterance, Priority)>,
    /// How often [`Speaker::stop`] was called while speaking.
    pub stopped: usize,
    /// Simulate speech that takes time.
    pub hold: bool,
    /// Make every `speak` fail with this error.
    pub fail: Option<SpeechError>,
    /// Report this error once after the next utterance ended (like a
    /// synthesizer that finds no audio device only when playing).
    pub fail_after: Option<SpeechError>,
    busy: bool,
}

impl Recording {
    /// The current utterance has ended.
    pub fn end(&mut self) {
        self.busy = false;
    }

    /// The display forms spoken, in order.
    pub fn displays(&self) -> Vec<String> {
        self.spoken.iter().map(|(u, _)| u.display.clone()).collect()
    }
}

impl Speaker for Recording {
    fn speak(&mut self, u: &Utterance, priority: Priority) -> Result<(), SpeechError> {
        if let Some(e) = &self.fail {
            return Err(e.clone());
        }
        self.spoken.push((u.clone(), priority));
        self.busy = self.hold;
        Ok(())
    }
    fn stop(&mut self) {
        if self.busy {
            self.stopped += 1;
        }
        self.busy = false;
    }
    fn is_speaking(&mut self) -> bool {
        self.busy
    }
    fn name(&self) -> &str {
        "recording"
    }
    fn take_error(&mut self) -> Option<SpeechError> {
        if self.spoken.is_empty() {
            None
        } else {
            self.fail_after.take()
        }
    }
}

/// A speaker fed through the priority queue.
#[derive(Debug)]
pub struct Announcer<S: Speaker> {
    speaker: S,
    queue: SpeechQueue,
    failure: Option<SpeechError>,
    held: bool,
}

impl<S: Speaker> Announcer<S> {
    /// Speech through `speaker`.
    pub fn new(speaker: S) -> Announcer<S> {
        Announcer {
            speaker,
            queue: SpeechQueue::default(),
            failure: None,
            held: false,
        }
    }

    /// While held (the player is speaking, push-to-talk), nothing new is
    /// started; what is queued waits.
    pub fn hold(&mut self, held: bool) {
        self.held = held;
    }

    /// The speaker.
    pub fn speaker(&self) -> &S {
        &self.speaker
    }

    /// The speaker, to change it.
    pub fn speaker_mut(&mut self) -> &mut S {
        &mut self.speaker
    }

    /// The queue (for inspection).
    pub fn queue(&self) -> &SpeechQueue {
        &self.queue
    }

    /// Wakes `waker` when speech makes progress by itself (see
    /// [`Speaker::set_waker`]): the front end then calls
    /// [`pump`](Self::pump).
    pub fn set_waker(&mut self, waker: Waker) {
        self.speaker.set_waker(waker);
    }

    /// When to [`pump`](Self::pump) at the latest though nothing woke the
    /// loop (see [`Speaker::deadline`]).
    pub fn deadline(&mut self) -> Option<Instant> {
        if self.failure.is_some() {
            return None;
        }
        self.speaker.deadline()
    }

    /// `true` while something is being said or waits to be said.
    pub fn busy(&mut self) -> bool {
        !self.queue.is_empty() || self.speaker.is_speaking()
    }

    /// Queues `item`, interrupts stale speech, and starts the next
    /// utterance if the speaker is free. Returns an error for the caller to
    /// print as one line: the speaker's first failure, after which speech
    /// is off ([`failed`](Self::failed)); or a notice from a speaker that
    /// goes on (a fallback to another synthesizer), after which speech
    /// goes on.
    ///
    /// # Errors
    ///
    /// The speaker's first failure, or a notice.
    pub fn say(&mut self, item: Item) -> Result<(), SpeechError> {
        if self.failure.is_some() {
            return Ok(());
        }
        let pushed = self.queue.push(item);
        if pushed.interrupt {
            self.speaker.stop();
        }
        self.pump()
    }

    /// Starts the next utterance when the speaker is free. Call it
    /// regularly (e.g. every tick).
    ///
    /// # Errors
    ///
    /// As [`say`](Self::say).
    pub fn pump(&mut self) -> Result<(), SpeechError> {
        if self.failure.is_some() {
            return Ok(());
        }
        loop {
            let speaking = self.speaker.is_speaking();
            if let Some(n) = self.speaker.take_notice() {
                return Err(n);
            }
            if speaking || self.held {
                return Ok(());
            }
            if let Some(e) = self.speaker.take_error() {
                self.queue.finished();
                self.failure = Some(e.clone());
                return Err(e);
            }
            self.queue.finished();
            let Some(item) = self.queue.start_next() else {
                return Ok(());
            };
            if let Err(e) = self.speaker.speak(&item.utterance, item.priority) {
                self.queue.finished();
                self.failure = Some(e.clone());
                return Err(e);
            }
            if let Some(n) = self.speaker.take_notice() {
                return Err(n);
            }
        }
    }

    /// Stops speaking and drops what is waiting, except moves and critical
    /// items.
    pub fn hush(&mut self) {
        self.speaker.stop();
        self.queue.finished();
        self.queue.clear_droppable();
    }

    /// `true` once the speaker has failed.
    pub fn failed(&self) -> bool {
        self.failure.is_some()
    }

    /// Waits (by polling every 20 ms, up to `limit`) until everything queued
    /// has been spoken. For short command-line programs. A notice does not
    /// stop the waiting (speech goes on). Returns the notices and the
    /// failure that ended speech, if any, for the caller to print.
    pub fn drain(&mut self, limit: std::time::Duration) -> Vec<SpeechError> {
        let start = std::time::Instant::now();
        let mut said = Vec::new();
        loop {
            if let Err(e) = self.pump() {
                said.push(e);
            }
            let done = self.queue.is_empty() && !self.speaker.is_speaking();
            if done || start.elapsed() >= limit || self.failed() {
                while let Some(n) = self.speaker.take_notice() {
                    said.push(n);
                }
                return said;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

/// A speaker that falls back instead of failing: when the one in use
/// fails (speech-dispatcher not answering, never speaking), the next one
/// is made (espeak-ng, or text only when that cannot run either), the
/// utterance that was cut off is said again on it, and the switch is a
/// notice ([`Speaker::take_notice`]) for the user, once. It never fails.
pub struct Resilient {
    current: Box<dyn Speaker>,
    next: Option<Fallback>,
    notices: std::collections::VecDeque<SpeechError>,
    /// The utterance being spoken, to say again after a switch.
    last: Option<(Utterance, Priority)>,
    waker: Waker,
}

/// Makes the next speaker, adding what the user must know to the list.
pub type Fallback = Box<dyn FnOnce(&mut Vec<SpeechError>) -> Box<dyn Speaker>>;

impl std::fmt::Debug for Resilient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resilient")
            .field("current", &self.current.name())
            .field("notices", &self.notices)
            .finish_non_exhaustive()
    }
}

impl Resilient {
    /// `current`, then what `next` makes when it fails, then text only.
    pub fn new(current: Box<dyn Speaker>, next: Fallback) -> Resilient {
        Resilient {
            current,
            next: Some(next),
            notices: std::collections::VecDeque::new(),
            last: None,
            waker: Waker::default(),
        }
    }

    fn switch(&mut self, cause: SpeechError) {
        self.current.stop();
        self.notices.push_back(cause);
        let mut more = Vec::new();
        self.current = match self.next.take() {
            Some(make) => make(&mut more),
            None => Box::new(Silent),
        };
        self.notices.extend(more);
        self.current.set_waker(self.waker.clone());
        if let Some((u, p)) = self.last.clone()
            && let Err(e) = self.current.speak(&u, p)
        {
            self.switch(e);
        }
    }
}

impl Speaker for Resilient {
    fn speak(&mut self, u: &Utterance, priority: Priority) -> Result<(), SpeechError> {
        self.last = Some((u.clone(), priority));
        if let Err(e) = self.current.speak(u, priority) {
            self.switch(e);
        }
        Ok(())
    }
    fn stop(&mut self) {
        self.last = None;
        self.current.stop();
    }
    fn is_speaking(&mut self) -> bool {
        if self.current.is_speaking() {
            return true;
        }
        match self.current.take_error() {
            Some(e) => {
                self.switch(e);
                self.current.is_speaking()
            }
            None => {
                self.last = None;
                false
            }
        }
    }
    fn name(&self) -> &str {
        self.current.name()
    }
    fn take_notice(&mut self) -> Option<SpeechError> {
        self.notices.pop_front()
    }
    fn set_waker(&mut self, waker: Waker) {
        self.current.set_waker(waker.clone());
        self.waker = waker;
    }
    fn deadline(&mut self) -> Option<Instant> {
        self.current.deadline()
    }
}

/// Where speech goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// The sound card: speech-dispatcher, else espeak-ng.
    Speak,
    /// A 16 kHz mono WAV file, rendered by espeak-ng.
    File(PathBuf),
    /// No audio: display lines only.
    Text,
}

/// espeak-ng playing on the sound card, else nothing (text only); what
/// the user must know goes to `notices`.
fn espeak_player(voice: &Voice, notices: &mut Vec<SpeechError>) -> Box<dyn Speaker> {
    match espeak::EspeakNg::probe(voice) {
        Ok((engine, missing)) => {
            notices.extend(missing);
            Box::new(espeak::Player::new(engine))
        }
        Err(e) => {
            notices.push(e);
            Box::new(Silent)
        }
    }
}

/// Opens the speaker for `output`, falling back step by step. Each fallback
/// is described in `notices` (one line each, from `locale`), so the caller
/// can print them once.
pub fn open(
    output: &Output,
    voice: &Voice,
    locale: &Locale,
    notices: &mut Vec<String>,
) -> Box<dyn Speaker> {
    let espeak = |notices: &mut Vec<String>| match espeak::EspeakNg::probe(voice) {
        Ok((engine, missing)) => {
            if let Some(e) = missing {
                notices.push(e.describe(locale));
            }
            Some(engine)
        }
        Err(e) => {
            notices.push(e.describe(locale));
            None
        }
    };
    match output {
        Output::Text => Box::new(Silent),
        Output::File(path) => match espeak(notices) {
            Some(engine) => match espeak::WavFileSpeaker::create(engine, path) {
                Ok(s) => Box::new(s),
                Err(e) => {
                    notices.push(e.describe(locale));
                    Box::new(Silent)
                }
            },
            None => Box::new(Silent),
        },
        Output::Speak => {
            // Connecting takes the daemon seconds at times: it goes on in
            // the background, what is said meanwhile waits, and a failure
            // falls back to espeak-ng with one line, as any later one.
            let d = dispatcher::Dispatcher::start(voice);
            let voice = voice.clone();
            Box::new(Resilient::new(
                Box::new(d),
                Box::new(move |notices| espeak_player(&voice, notices)),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(s: &str, p: Priority) -> Item {
        Item::new(Utterance::plain(s), p)
    }

    #[test]
    fn a_free_speaker_says_everything_in_order() {
        let mut a = Announcer::new(Recording::default());
        a.say(item("one", Priority::Chatter)).unwrap();
        a.say(item("two", Priority::Chatter)).unwrap();
        assert_eq!(a.speaker().displays(), ["one", "two"]);
    }

    #[test]
    fn a_move_interrupts_chatter_on_a_busy_speaker() {
        let mut a = Announcer::new(Recording {
            hold: true,
            ..Recording::default()
        });
        a.say(item("White: 10 minutes left", Priority::Chatter))
            .unwrap();
        a.say(item("Black: 10 minutes left", Priority::Chatter))
            .unwrap();
        a.say(item("Knight f3", Priority::Move)).unwrap();
        let r = a.speaker();
        assert_eq!(r.stopped, 1);
        assert_eq!(r.displays(), ["White: 10 minutes left", "Knight f3"]);
        assert!(a.queue().is_empty());
    }

    #[test]
    fn a_busy_speaker_gets_the_next_item_when_it_is_done() {
        let mut a = Announcer::new(Recording {
            hold: true,
            ..Recording::default()
        });
        a.say(item("e4", Priority::Move)).unwrap();
        a.say(item("flag", Priority::Critical)).unwrap();
        assert_eq!(a.speaker().displays(), ["e4"]);
        a.speaker_mut().end();
        a.pump().unwrap();
        assert_eq!(a.speaker().displays(), ["e4", "flag"]);
    }

    #[test]
    fn a_held_announcer_starts_nothing_until_released() {
        let mut a = Announcer::new(Recording {
            hold: true,
            ..Recording::default()
        });
        a.say(item("e4", Priority::Move)).unwrap();
        // The player barges in: speech stops and waits.
        a.hush();
        a.hold(true);
        a.say(item("Nf3", Priority::Move)).unwrap();
        a.pump().unwrap();
        assert_eq!(a.speaker().displays(), ["e4"]);
        assert_eq!(a.speaker().stopped, 1);
        a.hold(false);
        a.pump().unwrap();
        assert_eq!(a.speaker().displays(), ["e4", "Nf3"]);
    }

    #[test]
    fn failure_is_reported_once_then_speech_is_off() {
        let mut a = Announcer::new(Recording {
            fail: Some(SpeechError::Failed(Failure::NoDevice)),
            ..Recording::default()
        });
        assert!(a.say(item("a", Priority::Move)).is_err());
        assert!(a.failed());
        assert!(a.say(item("b", Priority::Move)).is_ok());
    }

    #[test]
    fn a_failure_found_after_playing_is_reported_once() {
        let mut a = Announcer::new(Recording {
            fail_after: Some(SpeechError::Failed(Failure::NoDevice)),
            ..Recording::default()
        });
        // The first utterance is handed over; its failure shows at the
        // next pump, once, and speech is off after it.
        let first = a.say(item("a", Priority::Move));
        let second = a.say(item("b", Priority::Move));
        assert_eq!(
            [first.is_err(), second.is_err()],
            [true, false],
            "{first:?} {second:?}"
        );
        assert!(a.failed());
        assert_eq!(a.speaker().displays(), ["a"]);
        assert!(a.pump().is_ok());
    }

    #[test]
    fn a_failing_speaker_falls_back_says_the_cut_off_utterance_again_and_tells_once() {
        let first = Recording {
            fail_after: Some(SpeechError::NoDaemon(Trouble::Silent)),
            ..Recording::default()
        };
        let second = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        struct Shared(std::rc::Rc<std::cell::RefCell<Vec<String>>>);
        impl Speaker for Shared {
            fn speak(&mut self, u: &Utterance, _p: Priority) -> Result<(), SpeechError> {
                self.0.borrow_mut().push(u.display.clone());
                Ok(())
            }
            fn stop(&mut self) {}
            fn name(&self) -> &str {
                "second"
            }
        }
        let seen = second.clone();
        let mut a = Announcer::new(Resilient::new(
            Box::new(first),
            Box::new(move |_| Box::new(Shared(seen))),
        ));
        // The first speaker takes "e4", then reports it did not speak.
        let r = a.say(item("e4", Priority::Move));
        assert_eq!(r, Err(SpeechError::NoDaemon(Trouble::Silent)));
        assert!(!a.failed(), "speech goes on");
        assert_eq!(second.borrow().as_slice(), ["e4"], "said again");
        assert!(a.say(item("e5", Priority::Move)).is_ok(), "told once");
        assert_eq!(second.borrow().as_slice(), ["e4", "e5"]);
        assert_eq!(a.speaker().name(), "second");
    }

    #[test]
    fn text_speaker_prints_display_lines() {
        let mut t = TextSpeaker::new(Vec::new());
        let u = Utterance {
            display: "Weiß: 4:05.".into(),
            spoken: "Weiß: 4 Minuten 5 Sekunden.".into(),
        };
        t.speak(&u, Priority::Request).unwrap();
        assert_eq!(String::from_utf8(t.into_inner()).unwrap(), "Weiß: 4:05.\n");
    }

    /// Every failure of the synthesizer and the library is worded in every
    /// built-in locale, translated, without the synthesizer's own words.
    #[test]
    fn every_speech_failure_is_worded_in_every_locale() {
        use libespeak::LibTrouble as T;
        let failures = [
            Failure::Exited {
                program: "espeak-ng".into(),
                code: Some(1),
                detail: "SECRET english words".into(),
            },
            Failure::Io(crate::input::SystemError::from(std::io::Error::from(
                std::io::ErrorKind::BrokenPipe,
            ))),
            Failure::NoOutput,
            Failure::NotWav("SECRET english words"),
            Failure::NoDevice,
        ];
        let troubles = [
            T::NotLoadable,
            T::MissingFunction,
            T::NoData,
            T::NoVoice,
            T::Refused,
            T::NotOpen,
        ];
        let en = crate::locale::builtin("en").unwrap();
        for code in crate::locale::builtin_codes() {
            let l = crate::locale::builtin(code).unwrap();
            let mut texts: Vec<(String, String)> = failures
                .iter()
                .map(|f| (f.describe(&l), f.describe(&en)))
                .collect();
            texts.extend(troubles.iter().map(|t| (t.describe(&l), t.describe(&en))));
            texts.extend(troubles.iter().map(|&t| {
                let e = SpeechError::NoLibrary {
                    library: "/x/libespeak-ng.so.1".into(),
                    error: t,
                };
                (e.describe(&l), e.describe(&en))
            }));
            for (t, in_en) in &texts {
                assert!(
                    !t.is_empty() && !t.contains("SECRET") && !t.contains('{'),
                    "{code}: {t}"
                );
                if l.language != "en" {
                    assert_ne!(t, in_en, "{code}: not translated");
                }
            }
        }
    }

    #[test]
    fn errors_are_described_from_the_locale() {
        let en = crate::locale::builtin("en").unwrap();
        let line =
            SpeechError::NoDaemon(Trouble::Unreachable("connection refused".into())).describe(&en);
        let reason = en.message(MsgKey::SpeechUnreachable, &[]);
        assert_eq!(
            line,
            en.message(MsgKey::SpeechNoDaemon, &[("error", &reason)]),
            "the library's English is not shown"
        );
        assert!(!line.contains('\n'));
        let de = crate::locale::builtin("de").unwrap();
        let line = SpeechError::NoVoice {
            engine: "espeak-ng".into(),
            language: "xx".into(),
        }
        .describe(&de);
        assert!(line.contains("Keine Stimme"), "{line}");
    }
}
