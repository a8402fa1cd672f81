//! When annabella's own voice is in the room, so that the microphone does
//! not take it for the player's (issue 14: no self-hearing).
//!
//! - [`MuteGate`] (pure core, time injected): the intervals during which
//!   annabella spoke, each followed by a short tail (the room's echo and
//!   the sound card's buffer), and whether a block of captured audio
//!   falls into one of them.
//! - [`SpeechActivity`]: the gate shared between the speech output (which
//!   says when an utterance starts, ends, or is cut off) and the voice
//!   worker (which asks, for every captured block, whether it is muted).
//! - [`SignalledSpeaker`]: the adapter that tells a [`SpeechActivity`]
//!   when any [`Speaker`] starts and stops speaking.
//! - [`AudioClock`]: the clock both sides stamp with: the wall clock, or
//!   (recordings played faster than real time, in tests) the recordings'
//!   own timeline.
//!
//! A muted block never reaches the recognizers: the voice worker hears
//! silence in its place (see [`crate::voice::live`]).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::{Priority, Speaker, SpeechError};
use crate::vocab::Utterance;

/// The tail after an utterance that ended by itself, in milliseconds
/// (`--mute-tail-ms`).
pub const DEFAULT_TAIL_MS: u32 = 300;

/// The tail after an utterance that was cut off (the stop key, or
/// push-to-talk barging in): only what the sound card still holds, so
/// that the player's first words after the key are heard.
pub const CUT_TAIL_MS: u32 = 100;

/// Test only: set to `1` to switch the gate off (the microphone then hears
/// annabella's own voice), to show that the self-hearing test can fail.
pub const NO_MUTE_ENV: &str = crate::environment::NO_SELF_MUTE;

/// At most this many intervals are kept (the oldest go first); the voice
/// worker only asks about audio of the last second or so.
const KEPT: usize = 32;

/// The clock the voice path runs on: the moments audio was captured, and
/// when annabella started and stopped speaking, are stamped with it.
/// Clones share it.
///
/// Normally the wall clock. For recordings played faster than real time
/// (`--wav-clock fast`, tests only) it is the recordings' own timeline: it
/// stands still until the player (the WAV source) has played more audio,
/// so that a second of recording is a second for the mute, the detector
/// and the echo canceller however fast it was played.
#[derive(Debug, Clone, Default)]
pub struct AudioClock {
    timeline: Option<Arc<Timeline>>,
}

#[derive(Debug)]
struct Timeline {
    origin: Instant,
    /// 16 kHz samples played so far.
    samples: AtomicU64,
}

impl AudioClock {
    /// The wall clock.
    pub fn wall() -> AudioClock {
        AudioClock::default()
    }

    /// A timeline that starts now and moves only with [`advance`](Self::advance).
    pub fn timeline() -> AudioClock {
        AudioClock {
            timeline: Some(Arc::new(Timeline {
                origin: Instant::now(),
                samples: AtomicU64::new(0),
            })),
        }
    }

    /// `true` for a recordings' timeline.
    pub fn is_timeline(&self) -> bool {
        self.timeline.is_some()
    }

    /// Now.
    pub fn now(&self) -> Instant {
        match &self.timeline {
            None => Instant::now(),
            Some(t) => t.origin + samples_time(t.samples.load(Ordering::SeqCst)),
        }
    }

    /// The moment of 16 kHz sample `samples` of the timeline (the wall
    /// clock: that long after `start`).
    pub fn at(&self, start: Instant, samples: u64) -> Instant {
        match &self.timeline {
            None => start + samples_time(samples),
            Some(t) => t.origin + samples_time(samples),
        }
    }

    /// The recordings have played `samples` (16 kHz) in all: the timeline
    /// moves to their end (never back). Nothing on the wall clock.
    pub fn advance(&self, samples: u64) {
        if let Some(t) = &self.timeline {
            t.samples.fetch_max(samples, Ordering::SeqCst);
        }
    }
}

fn samples_time(n: u64) -> Duration {
    Duration::from_nanos(n.saturating_mul(1_000_000_000) / 16_000)
}

/// One interval of annabella's speech.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    start: Instant,
    /// The end of the mute (speech's end plus its tail); `None` while
    /// speaking.
    until: Option<Instant>,
}

/// The intervals during which captured audio is annabella's own voice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MuteGate {
    tail: Duration,
    spans: VecDeque<Span>,
}

impl MuteGate {
    /// A gate whose mute lasts `tail` after each utterance's end.
    pub fn new(tail: Duration) -> MuteGate {
        MuteGate {
            tail,
            spans: VecDeque::new(),
        }
    }

    /// The tail after an utterance's end.
    pub fn tail(&self) -> Duration {
        self.tail
    }

    /// An utterance started at `at` (nothing changes while one is under
    /// way).
    pub fn started(&mut self, at: Instant) {
        if self.speaking() {
            return;
        }
        if self.spans.len() == KEPT {
            self.spans.pop_front();
        }
        self.spans.push_back(Span {
            start: at,
            until: None,
        });
    }

    /// The utterance under way ended by itself at `at`.
    pub fn ended(&mut self, at: Instant) {
        self.close(at + self.tail);
    }

    /// The utterance under way was cut off at `at` (the player barged
    /// in): the tail is at most [`CUT_TAIL_MS`].
    pub fn cut(&mut self, at: Instant) {
        let cut = Duration::from_millis(u64::from(CUT_TAIL_MS));
        self.close(at + self.tail.min(cut));
    }

    fn close(&mut self, until: Instant) {
        if let Some(s) = self.spans.back_mut()
            && s.until.is_none()
        {
            s.until = Some(until.max(s.start));
        }
    }

    /// `true` while an utterance is under way.
    pub fn speaking(&self) -> bool {
        self.spans.back().is_some_and(|s| s.until.is_none())
    }

    /// `true` when audio captured from `from` to `to` overlaps annabella's
    /// speech or its tail.
    pub fn muted(&self, from: Instant, to: Instant) -> bool {
        self.spans
            .iter()
            .any(|s| s.start <= to && s.until.is_none_or(|u| u > from))
    }

    /// How long the utterance under way has lasted at `now` (`None`: not
    /// speaking).
    pub fn speaking_for(&self, now: Instant) -> Option<Duration> {
        match self.spans.back() {
            Some(Span { start, until: None }) => Some(now.saturating_duration_since(*start)),
            _ => None,
        }
    }

    /// Since when the room is quiet at `now` (no speech, its tail over):
    /// `None` while speaking or within a tail.
    pub fn quiet_for(&self, now: Instant) -> Option<Duration> {
        match self.spans.back() {
            None => Some(Duration::MAX),
            Some(Span { until: None, .. }) => None,
            Some(Span { until: Some(u), .. }) => now.checked_duration_since(*u),
        }
    }
}

/// A [`MuteGate`] shared by the speech output and the voice worker. Clones
/// share one gate. The speech side stamps with the clock; the voice side
/// asks with the moments its audio was captured.
#[derive(Debug, Clone)]
pub struct SpeechActivity {
    gate: Arc<Mutex<MuteGate>>,
    /// `false`: never muted (test only, [`NO_MUTE_ENV`]); speaking is
    /// still tracked.
    enabled: bool,
    clock: AudioClock,
}

impl Default for SpeechActivity {
    fn default() -> Self {
        SpeechActivity::new(Duration::from_millis(u64::from(DEFAULT_TAIL_MS)))
    }
}

impl SpeechActivity {
    /// A shared gate with this tail, on.
    pub fn new(tail: Duration) -> SpeechActivity {
        SpeechActivity {
            gate: Arc::new(Mutex::new(MuteGate::new(tail))),
            enabled: true,
            clock: AudioClock::wall(),
        }
    }

    /// The same gate, its moments stamped with `clock`.
    pub fn with_clock(mut self, clock: AudioClock) -> SpeechActivity {
        self.clock = clock;
        self
    }

    /// The clock it stamps with.
    pub fn clock(&self) -> &AudioClock {
        &self.clock
    }

    /// As [`new`](Self::new), switched off when env [`NO_MUTE_ENV`] is `1`.
    pub fn from_env(tail: Duration) -> SpeechActivity {
        let mut a = SpeechActivity::new(tail);
        a.enabled = !crate::environment::get().no_self_mute;
        a
    }

    /// `false` when the gate was switched off (it never mutes).
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    fn lock(&self) -> MutexGuard<'_, MuteGate> {
        // A panic elsewhere cannot leave the gate half-changed.
        self.gate.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Speech started now.
    pub fn started(&self) {
        self.started_at(self.clock.now());
    }

    /// Speech ended by itself now.
    pub fn ended(&self) {
        self.ended_at(self.clock.now());
    }

    /// Speech was cut off now.
    pub fn cut(&self) {
        self.cut_at(self.clock.now());
    }

    /// Speech started at `at` (see [`MuteGate::started`]).
    pub fn started_at(&self, at: Instant) {
        self.lock().started(at);
    }

    /// Speech ended by itself at `at` (see [`MuteGate::ended`]).
    pub fn ended_at(&self, at: Instant) {
        self.lock().ended(at);
    }

    /// Speech was cut off at `at` (see [`MuteGate::cut`]).
    pub fn cut_at(&self, at: Instant) {
        self.lock().cut(at);
    }

    /// `true` while annabella speaks (whether or not the gate is on).
    pub fn speaking(&self) -> bool {
        self.lock().speaking()
    }

    /// How long annabella has been speaking now (see
    /// [`MuteGate::speaking_for`]).
    pub fn speaking_for(&self) -> Option<Duration> {
        self.lock().speaking_for(self.clock.now())
    }

    /// How long the room has been quiet now (see [`MuteGate::quiet_for`]).
    pub fn quiet_for(&self) -> Option<Duration> {
        self.lock().quiet_for(self.clock.now())
    }

    /// Is audio captured from `from` to `to` to be kept from the
    /// recognizers?
    pub fn muted(&self, from: Instant, to: Instant) -> bool {
        self.enabled && self.lock().muted(from, to)
    }
}

/// A speaker that tells a [`SpeechActivity`] when it speaks: from
/// [`Speaker::speak`] until [`Speaker::is_speaking`] says it is done (the
/// announcer asks on every tick), or until [`Speaker::stop`] cuts it off.
pub struct SignalledSpeaker {
    inner: Box<dyn Speaker>,
    activity: SpeechActivity,
    on: bool,
}

impl std::fmt::Debug for SignalledSpeaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignalledSpeaker")
            .field("inner", &self.inner.name())
            .field("on", &self.on)
            .finish_non_exhaustive()
    }
}

impl SignalledSpeaker {
    /// `inner`, reporting to `activity`.
    pub fn new(inner: Box<dyn Speaker>, activity: SpeechActivity) -> SignalledSpeaker {
        SignalledSpeaker {
            inner,
            activity,
            on: false,
        }
    }
}

impl Speaker for SignalledSpeaker {
    fn speak(&mut self, u: &Utterance, priority: Priority) -> Result<(), SpeechError> {
        // Before the sound: the gate is shut when the first sample plays.
        self.activity.started();
        self.on = true;
        let r = self.inner.speak(u, priority);
        if r.is_err() {
            self.on = false;
            self.activity.cut();
        }
        r
    }
    fn stop(&mut self) {
        self.inner.stop();
        if std::mem::take(&mut self.on) {
            self.activity.cut();
        }
    }
    fn is_speaking(&mut self) -> bool {
        let speaking = self.inner.is_speaking();
        if !speaking && std::mem::take(&mut self.on) {
            self.activity.ended();
        }
        speaking
    }
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn take_error(&mut self) -> Option<SpeechError> {
        self.inner.take_error()
    }
    fn take_notice(&mut self) -> Option<SpeechError> {
        self.inner.take_notice()
    }
    fn set_waker(&mut self, waker: crate::wake::Waker) {
        self.inner.set_waker(waker);
    }
    fn deadline(&mut self) -> Option<std::time::Instant> {
        self.inner.deadline()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::speech::{Announcer, Item, Recording};

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn audio_during_speech_and_its_tail_is_muted_and_after_it_is_not() {
        let t0 = Instant::now();
        let mut g = MuteGate::new(ms(300));
        assert!(!g.muted(t0, t0 + ms(20)), "nothing said yet");
        g.started(t0 + ms(100));
        assert!(g.speaking());
        assert_eq!(g.speaking_for(t0 + ms(400)), Some(ms(300)));
        // Before the start: the player's words.
        assert!(!g.muted(t0 + ms(60), t0 + ms(80)));
        // Overlapping the start, during, long after the start while
        // still speaking.
        assert!(g.muted(t0 + ms(90), t0 + ms(110)));
        assert!(g.muted(t0 + ms(500), t0 + ms(520)));
        assert!(g.muted(t0 + ms(9000), t0 + ms(9020)));
        g.ended(t0 + ms(1000));
        assert!(!g.speaking());
        assert!(g.muted(t0 + ms(1280), t0 + ms(1300)), "in the tail");
        assert!(!g.muted(t0 + ms(1300), t0 + ms(1320)), "after the tail");
        assert_eq!(g.quiet_for(t0 + ms(1250)), None);
        assert_eq!(g.speaking_for(t0 + ms(1250)), None);
        assert_eq!(g.quiet_for(t0 + ms(1500)), Some(ms(200)));
    }

    #[test]
    fn a_cut_off_utterance_has_a_short_tail_so_the_player_is_heard() {
        let t0 = Instant::now();
        let mut g = MuteGate::new(ms(300));
        g.started(t0);
        g.cut(t0 + ms(500));
        assert!(g.muted(t0 + ms(580), t0 + ms(600)));
        assert!(!g.muted(t0 + ms(600), t0 + ms(620)));
        // A shorter tail setting wins.
        let mut g = MuteGate::new(ms(50));
        g.started(t0);
        g.cut(t0 + ms(500));
        assert!(!g.muted(t0 + ms(550), t0 + ms(570)));
    }

    #[test]
    fn earlier_utterances_still_mute_their_own_audio() {
        let t0 = Instant::now();
        let mut g = MuteGate::new(ms(300));
        g.started(t0);
        g.ended(t0 + ms(1000));
        g.started(t0 + ms(3000));
        assert!(g.muted(t0 + ms(500), t0 + ms(520)));
        assert!(!g.muted(t0 + ms(2000), t0 + ms(2020)), "between the two");
        // A second start while speaking changes nothing.
        g.started(t0 + ms(3500));
        g.ended(t0 + ms(4000));
        assert!(!g.muted(t0 + ms(4400), t0 + ms(4420)));
        assert!(g.muted(t0 + ms(3200), t0 + ms(3220)));
        // An end without a start changes nothing.
        g.ended(t0 + ms(9000));
        assert!(!g.muted(t0 + ms(8000), t0 + ms(8020)));
    }

    #[test]
    fn only_the_latest_intervals_are_kept() {
        let t0 = Instant::now();
        let mut g = MuteGate::new(ms(0));
        for i in 0..100u64 {
            g.started(t0 + ms(i * 100));
            g.ended(t0 + ms(i * 100 + 50));
        }
        assert_eq!(g.spans.len(), KEPT);
        assert!(g.muted(t0 + ms(9910), t0 + ms(9920)));
    }

    #[test]
    fn a_recordings_timeline_moves_only_as_they_are_played() {
        let clock = AudioClock::timeline();
        let t0 = clock.now();
        std::thread::sleep(ms(20));
        assert_eq!(clock.now(), t0, "the wall clock does not move it");
        clock.advance(16_000);
        assert_eq!(clock.now(), t0 + ms(1000));
        clock.advance(8_000);
        assert_eq!(clock.now(), t0 + ms(1000), "never back");
        assert_eq!(clock.at(Instant::now(), 32_000), t0 + ms(2000));
        // Speech is stamped on it.
        let activity = SpeechActivity::new(ms(300)).with_clock(clock.clone());
        activity.started();
        clock.advance(24_000);
        assert_eq!(activity.speaking_for(), Some(ms(500)));
        activity.ended();
        clock.advance(32_000);
        assert_eq!(activity.quiet_for(), Some(ms(200)));
        assert!(activity.muted(t0 + ms(1400), t0 + ms(1420)));
        // The wall clock is the wall clock.
        let wall = AudioClock::wall();
        let a = wall.now();
        std::thread::sleep(ms(5));
        assert!(wall.now() > a);
        assert_eq!(wall.at(a, 16_000), a + ms(1000));
    }

    #[test]
    fn the_speaker_reports_start_end_and_cut() {
        let activity = SpeechActivity::new(ms(300));
        let speaker = Recording {
            hold: true,
            ..Recording::default()
        };
        let mut a = Announcer::new(SignalledSpeaker::new(Box::new(speaker), activity.clone()));
        assert!(!activity.speaking());
        a.say(Item::new(Utterance::plain("e4"), Priority::Move))
            .expect("speaks");
        assert!(activity.speaking());
        let now = Instant::now();
        assert!(activity.muted(now, now));
        // Cut off (the stop key): no longer speaking, a short tail.
        a.hush();
        assert!(!activity.speaking());
        assert!(activity.quiet_for().is_none(), "in the tail");
        // A switched-off gate still tracks speech but never mutes.
        let off = SpeechActivity {
            enabled: false,
            ..activity.clone()
        };
        a.say(Item::new(Utterance::plain("e5"), Priority::Move))
            .expect("speaks");
        assert!(off.speaking());
        let now = Instant::now();
        assert!(!off.muted(now, now));
        assert!(activity.muted(now, now));
    }
}
