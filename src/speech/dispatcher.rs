//! speech-dispatcher adapter (through the `tts` crate): speech goes to the
//! same system the user's screen reader (Orca) uses, with the user's rate
//! and, for the user's own language, the user's voice.
//!
//! The daemon is never trusted to answer: every call into it (connecting,
//! `speak`, `stop`) runs on a thread of its own, and the game never waits
//! for it: [`Dispatcher::start`] returns at once, what is said meanwhile
//! waits until the daemon has answered (at most [`OPEN_LIMIT`]); a call
//! may take [`CALL_LIMIT`]. A daemon that does not answer, accepts speech
//! but never begins or never ends it is reported as [`Trouble`];
//! [`super::open`] then falls back to espeak-ng (see
//! [`super::Resilient`]). Its callbacks wake the front end's loop when an
//! utterance ends ([`Speaker::set_waker`]); its time limits are the
//! loop's deadlines ([`Speaker::deadline`]).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{Priority, Speaker, SpeechError, Trouble, Voice};
use crate::vocab::Utterance;
use crate::wake::Waker;

/// How long connecting (and choosing a voice, which lists the daemon's
/// voices: a few seconds with its espeak-ng module) may take.
pub const OPEN_LIMIT: Duration = Duration::from_secs(10);

/// How long one call into the daemon (`speak`, `stop`) may take.
pub const CALL_LIMIT: Duration = Duration::from_secs(2);

/// How long the daemon may take to begin an utterance.
pub const BEGIN_LIMIT: Duration = Duration::from_secs(3);

/// What the daemon's thread is asked to do.
enum Call {
    Speak(String),
    Stop,
}

/// What the daemon's thread and its callbacks report.
#[derive(Debug, Default)]
struct Shared {
    /// Utterances begun and ended (or stopped), counted by the daemon's
    /// callbacks.
    begun: AtomicUsize,
    ended: AtomicUsize,
    /// A call refused by the daemon.
    failed: AtomicBool,
    /// When the call under way started.
    in_call: Mutex<Option<Instant>>,
    /// Whom the callbacks wake.
    waker: Mutex<Waker>,
}

impl Shared {
    fn wake(&self) {
        self.waker
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .wake();
    }

    fn call_started(&self) -> Option<Instant> {
        *self
            .in_call
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn set_call(&self, at: Option<Instant>) {
        *self
            .in_call
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = at;
    }
}

/// Speech through speech-dispatcher.
pub struct Dispatcher {
    calls: Sender<Call>,
    shared: Arc<Shared>,
    /// Still connecting: since when, the limit, the answer to come.
    connecting: Option<Connecting>,
    /// What was said while connecting (said once connected).
    pending: Option<String>,
    /// Connecting failed (reported once).
    refused: Option<SpeechError>,
    /// The utterance being spoken: when it started, how long it may take
    /// at most, and the counters before it.
    current: Option<Current>,
    /// The daemon stopped working (and why).
    stalled: Option<Trouble>,
    /// The stall was reported.
    reported: bool,
}

struct Connecting {
    since: Instant,
    limit: Duration,
    answer: Receiver<Result<(), SpeechError>>,
}

#[derive(Debug, Clone, Copy)]
struct Current {
    since: Instant,
    limit: Duration,
    begun: usize,
    ended: usize,
}

impl std::fmt::Debug for Dispatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dispatcher")
            .field("connecting", &self.connecting.is_some())
            .field("current", &self.current)
            .field("stalled", &self.stalled)
            .finish_non_exhaustive()
    }
}

/// The primary subtag of a language tag or POSIX locale (`de_AT.UTF-8` →
/// `de`).
pub fn primary_language(tag: &str) -> String {
    tag.split(['-', '_', '.', '@'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// The language of the user's session (`LC_ALL`, `LC_MESSAGES`, `LANG`).
#[cfg(feature = "dispatcher")]
fn session_language() -> Option<String> {
    crate::environment::get()
        .session_language
        .as_deref()
        .map(|v| match primary_language(v).as_str() {
            // The C locale's messages are English.
            "c" | "posix" => "en".to_owned(),
            other => other.to_owned(),
        })
}

/// How long an utterance may take before the end is assumed: 250 ms per
/// character (slower than the slowest rate) plus 5 s.
pub fn speaking_limit(text: &str) -> Duration {
    let chars = u64::try_from(text.chars().count()).unwrap_or(u64::MAX);
    Duration::from_millis(chars.saturating_mul(250)).saturating_add(Duration::from_secs(5))
}

/// Built without the `dispatcher` feature: no speech-dispatcher client.
/// Connecting always fails (the speaker falls back to espeak-ng), so the
/// connection type cannot be made.
#[cfg(not(feature = "dispatcher"))]
mod absent {
    use super::{Arc, Shared, SpeechError, Trouble, Voice};

    pub enum Tts {}

    impl Tts {
        pub fn speak(&mut self, _text: String, _interrupt: bool) -> Result<(), ()> {
            match *self {}
        }
        pub fn stop(&mut self) -> Result<(), ()> {
            match *self {}
        }
    }

    pub fn connect(_voice: &Voice, _shared: &Arc<Shared>) -> Result<Tts, SpeechError> {
        Err(SpeechError::NoDaemon(Trouble::NotBuilt))
    }
}

#[cfg(not(feature = "dispatcher"))]
use absent::connect;

/// Connects and sets up the voice (on the daemon's thread).
#[cfg(feature = "dispatcher")]
fn connect(voice: &Voice, shared: &Arc<Shared>) -> Result<tts::Tts, SpeechError> {
    let unreachable = |e: tts::Error| SpeechError::NoDaemon(Trouble::Unreachable(e.to_string()));
    let mut tts = tts::Tts::new(tts::Backends::SpeechDispatcher).map_err(unreachable)?;
    if let Some(rate) = voice.rate {
        tts.set_rate(rate.clamp(-100, 100) as f32)
            .map_err(unreachable)?;
    }
    let want = primary_language(&voice.language);
    let own_language = session_language().is_some_and(|l| l == want);
    if voice.name.is_some() || !own_language {
        let voices = tts.voices().map_err(unreachable)?;
        let chosen = match &voice.name {
            Some(name) => voices.iter().find(|v| v.name() == *name),
            None => voices
                .iter()
                .find(|v| primary_language(v.language().as_str()) == want),
        };
        match chosen {
            Some(v) => tts.set_voice(v).map_err(unreachable)?,
            None => {
                return Err(SpeechError::NoVoice {
                    engine: "speech-dispatcher".to_owned(),
                    language: voice.name.clone().unwrap_or_else(|| voice.language.clone()),
                });
            }
        }
    }
    let (b, e, st) = (shared.clone(), shared.clone(), shared.clone());
    let callbacks = tts
        .on_utterance_begin(Some(Box::new(move |_| {
            b.begun.fetch_add(1, Ordering::SeqCst);
        })))
        .and_then(|()| {
            tts.on_utterance_end(Some(Box::new(move |_| {
                e.ended.fetch_add(1, Ordering::SeqCst);
                e.wake();
            })))
        })
        .and_then(|()| {
            tts.on_utterance_stop(Some(Box::new(move |_| {
                st.ended.fetch_add(1, Ordering::SeqCst);
                st.wake();
            })))
        });
    callbacks.map_err(unreachable)?;
    Ok(tts)
}

impl Dispatcher {
    /// Connects to speech-dispatcher, waiting at most [`OPEN_LIMIT`]. The
    /// rate is set only when `voice.rate` is given; a voice is chosen only
    /// when `voice.name` is given or the text's language differs from the
    /// session's (then the first voice for the language).
    ///
    /// # Errors
    ///
    /// [`SpeechError::NoDaemon`] when no daemon can be reached or it does
    /// not answer in time; [`SpeechError::NoVoice`] when no voice speaks
    /// the language.
    pub fn open(voice: &Voice) -> Result<Dispatcher, SpeechError> {
        Dispatcher::open_within(voice, OPEN_LIMIT)
    }

    /// [`Dispatcher::open`] with another time limit.
    ///
    /// # Errors
    ///
    /// As [`Dispatcher::open`].
    pub fn open_within(voice: &Voice, limit: Duration) -> Result<Dispatcher, SpeechError> {
        let mut d = Dispatcher::start_within(voice, limit);
        let answer = match &d.connecting {
            Some(c) => c.answer.recv_timeout(limit),
            None => return d.refused.take().map_or(Ok(d), Err),
        };
        d.connecting = None;
        match answer {
            Ok(Ok(())) => Ok(d),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(SpeechError::NoDaemon(Trouble::NoAnswer {
                seconds: limit.as_secs().max(1),
            })),
        }
    }

    /// Starts connecting to speech-dispatcher and returns at once: what
    /// is said meanwhile waits (it is "being spoken") until the daemon
    /// has answered, at most [`OPEN_LIMIT`]; a failure to connect is then
    /// the speaker's error ([`Speaker::take_error`]), reported once.
    pub fn start(voice: &Voice) -> Dispatcher {
        Dispatcher::start_within(voice, OPEN_LIMIT)
    }

    /// [`Dispatcher::start`] with another time limit.
    pub fn start_within(voice: &Voice, limit: Duration) -> Dispatcher {
        let shared = Arc::new(Shared::default());
        let (ready_tx, ready_rx) = sync_channel(1);
        let (calls, calls_rx) = channel::<Call>();
        let voice = voice.clone();
        let daemon = shared.clone();
        // The daemon's thread: it alone waits for the daemon. If the
        // daemon never answers, it waits on its own, and ends when it does
        // and its Dispatcher is gone.
        let spawned = std::thread::Builder::new()
            .name("speech-dispatcher".to_owned())
            .spawn(move || {
                let mut tts = match connect(&voice, &daemon) {
                    Ok(t) => t,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        daemon.wake();
                        return;
                    }
                };
                if ready_tx.send(Ok(())).is_err() {
                    return;
                }
                daemon.wake();
                for call in calls_rx {
                    daemon.set_call(Some(Instant::now()));
                    let r = match call {
                        Call::Speak(text) => tts.speak(text, false).map(|_| ()),
                        Call::Stop => tts.stop().map(|_| ()),
                    };
                    if r.is_err() {
                        daemon.failed.store(true, Ordering::SeqCst);
                        daemon.wake();
                    }
                    daemon.set_call(None);
                }
            });
        let (connecting, refused) = match spawned {
            Ok(_) => (
                Some(Connecting {
                    since: Instant::now(),
                    limit,
                    answer: ready_rx,
                }),
                None,
            ),
            Err(_) => (
                None,
                Some(SpeechError::NoDaemon(Trouble::Unreachable(
                    "no thread".to_owned(),
                ))),
            ),
        };
        Dispatcher {
            calls,
            shared,
            connecting,
            pending: None,
            refused,
            current: None,
            stalled: None,
            reported: false,
        }
    }

    /// `true` while the daemon has not answered yet. Takes its answer
    /// when it has come: the utterance waiting is then said.
    fn still_connecting(&mut self) -> bool {
        let Some(c) = &self.connecting else {
            return false;
        };
        let answer = match c.answer.try_recv() {
            Ok(a) => a,
            Err(TryRecvError::Empty) if c.since.elapsed() <= c.limit => return true,
            Err(TryRecvError::Empty) => Err(SpeechError::NoDaemon(Trouble::NoAnswer {
                seconds: c.limit.as_secs().max(1),
            })),
            Err(TryRecvError::Disconnected) => Err(SpeechError::NoDaemon(Trouble::Unreachable(
                "the connection ended".to_owned(),
            ))),
        };
        self.connecting = None;
        match answer {
            Ok(()) => {
                if let Some(text) = self.pending.take() {
                    self.begin(text);
                }
            }
            Err(e) => {
                self.pending = None;
                self.refused = Some(e);
            }
        }
        false
    }

    /// Hands `text` to the daemon's thread.
    fn begin(&mut self, text: String) -> bool {
        let current = Current {
            since: Instant::now(),
            limit: speaking_limit(&text),
            begun: self.shared.begun.load(Ordering::SeqCst),
            ended: self.shared.ended.load(Ordering::SeqCst),
        };
        if self.calls.send(Call::Speak(text)).is_err() {
            return false;
        }
        self.current = Some(current);
        true
    }

    /// Has the daemon stopped working? Marks it so, once.
    fn check(&mut self) -> Option<Trouble> {
        if self.stalled.is_some() {
            return self.stalled.clone();
        }
        let trouble = if self.shared.failed.load(Ordering::SeqCst) {
            Some(Trouble::Silent)
        } else if self
            .shared
            .call_started()
            .is_some_and(|t| t.elapsed() > CALL_LIMIT)
        {
            Some(Trouble::NoAnswer {
                seconds: CALL_LIMIT.as_secs(),
            })
        } else {
            None
        };
        if trouble.is_some() {
            self.stalled.clone_from(&trouble);
            self.current = None;
        }
        trouble
    }

    fn stall(&mut self, trouble: Trouble) {
        self.stalled = Some(trouble);
        self.current = None;
        let _ = self.calls.send(Call::Stop);
    }
}

impl Speaker for Dispatcher {
    fn speak(&mut self, u: &Utterance, _priority: Priority) -> Result<(), SpeechError> {
        if self.still_connecting() {
            self.pending = Some(u.spoken.clone());
            return Ok(());
        }
        if let Some(e) = self.refused.clone() {
            return Err(e);
        }
        if let Some(t) = self.check() {
            return Err(SpeechError::NoDaemon(t));
        }
        if !self.begin(u.spoken.clone()) {
            return Err(SpeechError::NoDaemon(Trouble::Silent));
        }
        Ok(())
    }
    fn stop(&mut self) {
        self.pending = None;
        if self.stalled.is_none() && self.current.is_some() {
            let _ = self.calls.send(Call::Stop);
        }
        self.current = None;
    }
    fn is_speaking(&mut self) -> bool {
        if self.still_connecting() {
            return self.pending.is_some();
        }
        if self.refused.is_some() || self.check().is_some() {
            return false;
        }
        let Some(c) = self.current else {
            return false;
        };
        if self.shared.ended.load(Ordering::SeqCst) > c.ended {
            self.current = None;
            return false;
        }
        let elapsed = c.since.elapsed();
        let begun = self.shared.begun.load(Ordering::SeqCst) > c.begun;
        if (!begun && elapsed > BEGIN_LIMIT) || elapsed > c.limit {
            self.stall(Trouble::Silent);
            return false;
        }
        true
    }
    fn name(&self) -> &str {
        "speech-dispatcher"
    }
    fn take_error(&mut self) -> Option<SpeechError> {
        if self.still_connecting() {
            return None;
        }
        // Once: `speak` keeps refusing, so speech never resumes silently
        // into the void.
        let error = match &self.refused {
            Some(e) => e.clone(),
            None => SpeechError::NoDaemon(self.check()?),
        };
        if self.reported {
            return None;
        }
        self.reported = true;
        Some(error)
    }
    fn set_waker(&mut self, waker: Waker) {
        *self
            .shared
            .waker
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = waker;
    }
    fn deadline(&mut self) -> Option<Instant> {
        if let Some(c) = &self.connecting {
            return Some(c.since + c.limit + Duration::from_millis(1));
        }
        if self.stalled.is_some() || self.refused.is_some() {
            return None;
        }
        let call = self
            .shared
            .call_started()
            .map(|t| t + CALL_LIMIT + Duration::from_millis(1));
        let utterance = self.current.map(|c| {
            let begun = self.shared.begun.load(Ordering::SeqCst) > c.begun;
            let limit = if begun {
                c.limit
            } else {
                c.limit.min(BEGIN_LIMIT)
            };
            c.since + limit + Duration::from_millis(1)
        });
        [call, utterance].into_iter().flatten().min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primary_languages() {
        assert_eq!(primary_language("de_AT.UTF-8"), "de");
        assert_eq!(primary_language("en-US"), "en");
        assert_eq!(primary_language("C"), "c");
        assert_eq!(primary_language("he"), "he");
    }

    #[test]
    fn speaking_limit_grows_with_the_text() {
        assert_eq!(speaking_limit(""), Duration::from_secs(5));
        assert_eq!(speaking_limit("abcd"), Duration::from_millis(6000));
    }
}
