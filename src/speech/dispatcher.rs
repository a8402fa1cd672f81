//! speech-dispatcher adapter (through the `tts` crate): speech goes to the
//! same system the user's screen reader (Orca) uses, with the user's rate
//! and, for the user's own language, the user's voice.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::{Priority, Speaker, SpeechError, Voice};
use crate::vocab::Utterance;

/// Speech through speech-dispatcher.
pub struct Dispatcher {
    tts: tts::Tts,
    /// Utterances begun and ended (or stopped), counted by the daemon's
    /// callbacks.
    begun: Arc<AtomicUsize>,
    ended: Arc<AtomicUsize>,
    /// The utterance being spoken: when it started, how long it may take
    /// at most, and the counters before it.
    current: Option<Current>,
    /// An utterance never began or never ended: the daemon has no working
    /// audio output.
    stalled: bool,
    /// The stall was reported.
    reported: bool,
}

#[derive(Debug, Clone, Copy)]
struct Current {
    since: Instant,
    limit: Duration,
    begun: usize,
    ended: usize,
}

/// How long the daemon may take to begin an utterance.
pub const BEGIN_LIMIT: Duration = Duration::from_secs(3);

impl std::fmt::Debug for Dispatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dispatcher")
            .field("current", &self.current)
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
fn session_language() -> Option<String> {
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .filter_map(|k| std::env::var(k).ok())
        .find(|v| !v.is_empty())
        .map(|v| match primary_language(&v).as_str() {
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

impl Dispatcher {
    /// Connects to speech-dispatcher. The rate is set only when
    /// `voice.rate` is given; a voice is chosen only when `voice.name` is
    /// given or the text's language differs from the session's (then the
    /// first voice for the language).
    ///
    /// # Errors
    ///
    /// [`SpeechError::NoDaemon`] when no daemon can be reached;
    /// [`SpeechError::NoVoice`] when no voice speaks the language.
    pub fn open(voice: &Voice) -> Result<Dispatcher, SpeechError> {
        let mut tts = tts::Tts::new(tts::Backends::SpeechDispatcher)
            .map_err(|e| SpeechError::NoDaemon(e.to_string()))?;
        if let Some(rate) = voice.rate {
            tts.set_rate(rate.clamp(-100, 100) as f32)
                .map_err(|e| SpeechError::Failed(e.to_string()))?;
        }
        let want = primary_language(&voice.language);
        let own_language = session_language().is_some_and(|l| l == want);
        if voice.name.is_some() || !own_language {
            let voices = tts
                .voices()
                .map_err(|e| SpeechError::Failed(e.to_string()))?;
            let chosen = match &voice.name {
                Some(name) => voices.iter().find(|v| v.name() == *name),
                None => voices
                    .iter()
                    .find(|v| primary_language(v.language().as_str()) == want),
            };
            match chosen {
                Some(v) => tts
                    .set_voice(v)
                    .map_err(|e| SpeechError::Failed(e.to_string()))?,
                None => {
                    return Err(SpeechError::NoVoice {
                        engine: "speech-dispatcher".to_owned(),
                        language: voice.name.clone().unwrap_or_else(|| voice.language.clone()),
                    });
                }
            }
        }
        let begun = Arc::new(AtomicUsize::new(0));
        let ended = Arc::new(AtomicUsize::new(0));
        let (b, e, st) = (begun.clone(), ended.clone(), ended.clone());
        let callbacks = tts
            .on_utterance_begin(Some(Box::new(move |_| {
                b.fetch_add(1, Ordering::SeqCst);
            })))
            .and_then(|()| {
                tts.on_utterance_end(Some(Box::new(move |_| {
                    e.fetch_add(1, Ordering::SeqCst);
                })))
            })
            .and_then(|()| {
                tts.on_utterance_stop(Some(Box::new(move |_| {
                    st.fetch_add(1, Ordering::SeqCst);
                })))
            });
        callbacks.map_err(|e| SpeechError::Failed(e.to_string()))?;
        Ok(Dispatcher {
            tts,
            begun,
            ended,
            current: None,
            stalled: false,
            reported: false,
        })
    }
}

impl Speaker for Dispatcher {
    fn speak(&mut self, u: &Utterance, _priority: Priority) -> Result<(), SpeechError> {
        if self.stalled {
            return Err(stalled_error());
        }
        let current = Current {
            since: Instant::now(),
            limit: speaking_limit(&u.spoken),
            begun: self.begun.load(Ordering::SeqCst),
            ended: self.ended.load(Ordering::SeqCst),
        };
        self.tts
            .speak(u.spoken.as_str(), false)
            .map_err(|e| SpeechError::Failed(e.to_string()))?;
        self.current = Some(current);
        Ok(())
    }
    fn stop(&mut self) {
        let _ = self.tts.stop();
        self.current = None;
    }
    fn is_speaking(&mut self) -> bool {
        let Some(c) = self.current else {
            return false;
        };
        if self.ended.load(Ordering::SeqCst) > c.ended {
            self.current = None;
            return false;
        }
        let elapsed = c.since.elapsed();
        let begun = self.begun.load(Ordering::SeqCst) > c.begun;
        if (!begun && elapsed > BEGIN_LIMIT) || elapsed > c.limit {
            self.stalled = true;
            let _ = self.tts.stop();
            self.current = None;
            return false;
        }
        true
    }
    fn name(&self) -> &str {
        "speech-dispatcher"
    }
    fn take_error(&mut self) -> Option<SpeechError> {
        // Once: the caller turns speech off after it. `speak` keeps
        // refusing, so speech never resumes silently into the void.
        if self.stalled && !self.reported {
            self.reported = true;
            return Some(stalled_error());
        }
        None
    }
}

fn stalled_error() -> SpeechError {
    SpeechError::Failed(
        "speech-dispatcher did not speak; it may have no working audio device".to_owned(),
    )
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
