//! Speech played on the sound card by annabella herself, so that what she
//! plays is known: the echo canceller's reference for hands-free barge-in
//! with a real microphone (issue 14).
//!
//! [`CardSpeaker`] renders each utterance with espeak-ng (16 kHz mono),
//! resamples it to the output device's rate (with the same anti-aliased
//! resampler as the microphone's stream, [`crate::voice::rate`]) and plays
//! it through a cpal
//! output stream. In the output callback, every block handed to the
//! device is also written, at 16 kHz, into [`Played`]: a timeline of what
//! was handed to the device when (silence while she is quiet). The
//! microphone's callback pulls, for each captured block, the samples
//! handed to the device during the same wall-clock span
//! ([`Played::pull`]): the real air mixes her voice into the microphone
//! later (output buffer, the way through the room, input buffer), so the
//! reference comes before its echo, as the canceller needs. When that
//! delay is longer than the canceller's window (160 ms), it cannot learn
//! the room, its ERLE stays below the detector's threshold, and no
//! barge-in is ever detected: the microphone stays muted while she
//! speaks, as without a reference.
//!
//! [`Played`] is pure (time is passed in); the cpal stream is the thin
//! adapter.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

#[cfg(feature = "voice")]
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

use super::espeak::{EspeakNg, resample};
use super::{Priority, Speaker, SpeechError};
use crate::vocab::Utterance;

/// 16 kHz mono, as the voice stack.
const RATE: u64 = 16_000;

/// How much of the timeline is kept (2 s: far more than any echo delay
/// the canceller can learn).
pub const KEEP: usize = 2 * RATE as usize;

/// Blocks handed to the device up to this late (after the timeline's end
/// in wall-clock time) are taken as following on without a gap: callback
/// times jitter (40 ms).
pub const JITTER: u64 = RATE * 40 / 1000;

#[derive(Debug)]
struct Timeline {
    epoch: Instant,
    /// Timeline index (16 kHz samples since `epoch`) of `samples[0]`.
    start: u64,
    samples: VecDeque<i16>,
    /// Card speakers playing into it (a new one opens before the old one
    /// is dropped when speech is reopened).
    live: usize,
}

impl Timeline {
    fn index(&self, at: Instant) -> u64 {
        let ns = at.saturating_duration_since(self.epoch).as_nanos();
        (ns * u128::from(RATE) / 1_000_000_000) as u64
    }

    fn end(&self) -> u64 {
        self.start + self.samples.len() as u64
    }
}

/// What the loudspeaker was handed, on a 16 kHz wall-clock timeline:
/// written by the output callback, read by the microphone's. Cloning
/// shares it.
#[derive(Debug, Clone)]
pub struct Played {
    line: Arc<Mutex<Timeline>>,
}

impl Default for Played {
    fn default() -> Played {
        Played::new(Instant::now())
    }
}

impl Played {
    /// An empty timeline starting at `epoch`.
    pub fn new(epoch: Instant) -> Played {
        Played {
            line: Arc::new(Mutex::new(Timeline {
                epoch,
                start: 0,
                samples: VecDeque::new(),
                live: 0,
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Timeline> {
        self.line.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `samples` (16 kHz) were handed to the device at `at`. They follow
    /// what was handed before without a gap, unless that ended more than
    /// [`JITTER`] before `at` (the stream paused: silence in between) or
    /// runs more than [`KEEP`] ahead of `at` (a device that takes samples
    /// faster than it plays them: the timeline starts again at `at`).
    pub fn push(&self, samples: &[i16], at: Instant) {
        let mut line = self.lock();
        let now = line.index(at);
        let end = line.end();
        if line.samples.is_empty() || end + (KEEP as u64) < now || end > now + KEEP as u64 {
            line.samples.clear();
            line.start = now;
        } else if now > end + JITTER {
            let gap = (now - end) as usize;
            line.samples.extend(std::iter::repeat_n(0, gap));
        }
        line.samples.extend(samples.iter().copied());
        let excess = line.samples.len().saturating_sub(2 * KEEP);
        line.samples.drain(..excess);
        line.start += excess as u64;
    }

    /// The `n` samples handed to the device in the span of `n` samples
    /// ending at `at` (silence where nothing was).
    pub fn pull(&self, n: usize, at: Instant) -> Vec<i16> {
        let line = self.lock();
        let to = line.index(at);
        let from = to.saturating_sub(n as u64);
        let mut out = vec![0i16; n - (to - from) as usize];
        out.extend((from..to).map(|i| {
            i.checked_sub(line.start)
                .and_then(|k| line.samples.get(k as usize))
                .copied()
                .unwrap_or(0)
        }));
        out
    }

    /// `true` while a [`CardSpeaker`] plays into it (else the reference is
    /// silence and barge-in by voice cannot work).
    pub fn is_live(&self) -> bool {
        self.lock().live > 0
    }

    fn set_live(&self, live: bool) {
        let mut line = self.lock();
        line.live = if live {
            line.live + 1
        } else {
            line.live.saturating_sub(1)
        };
    }
}

/// The utterance being played, at the device's rate and at 16 kHz.
#[derive(Debug, Default)]
struct Playing {
    /// Mono samples at the device rate, still to be handed over.
    device: VecDeque<f32>,
    /// The same at 16 kHz (the reference).
    original: VecDeque<i16>,
    /// Nothing of it has been handed over yet.
    fresh: bool,
}

impl Playing {
    fn clear(&mut self) {
        self.device.clear();
        self.original.clear();
    }
}

/// How many 16 kHz samples go with `frames` device frames at `rate`,
/// carrying the fraction over in `carry` (units of 1/`rate` samples).
pub fn reference_len(frames: usize, rate: u32, carry: &mut u64) -> usize {
    let rate = u64::from(rate.max(1));
    let total = frames as u64 * RATE + *carry;
    *carry = total % rate;
    (total / rate) as usize
}

/// What one output callback did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Filled {
    /// It handed over the first samples of an utterance.
    began: bool,
    /// It handed over the last samples of an utterance.
    ended: bool,
}

/// One output callback: fills `out` (`channels` interleaved) from
/// `playing`, and writes what was handed over (16 kHz) into `played`.
fn fill(
    out: &mut [f32],
    channels: usize,
    rate: u32,
    carry: &mut u64,
    playing: &Mutex<Playing>,
    played: &Played,
    at: Instant,
) -> Filled {
    let frames = out.len() / channels.max(1);
    let want = reference_len(frames, rate, carry);
    let mut reference = Vec::with_capacity(want);
    let mut filled = Filled::default();
    {
        let mut p = playing.lock().unwrap_or_else(|e| e.into_inner());
        let was = !p.device.is_empty();
        filled.began = was && std::mem::take(&mut p.fresh);
        for frame in out.chunks_mut(channels.max(1)) {
            let s = p.device.pop_front().unwrap_or(0.0);
            frame.fill(s);
        }
        for _ in 0..want {
            reference.push(p.original.pop_front().unwrap_or(0));
        }
        if p.device.is_empty() {
            p.original.clear();
        }
        filled.ended = was && p.device.is_empty();
    }
    played.push(&reference, at);
    filled
}

/// **Test only** (env [`TEST_OUTPUT_ENV`] = `virtual`): a sound card that
/// takes 10 ms of 48 kHz stereo every 10 ms, paced by the wall clock
/// (ALSA's `null` device takes everything at once), calling the same
/// callback a real device calls.
pub const TEST_OUTPUT_ENV: &str = crate::environment::TEST_OUTPUT;

/// The paced test sound card's thread; dropping it stops it.
struct VirtualCard {
    stop: Arc<std::sync::atomic::AtomicBool>,
}

impl VirtualCard {
    fn start(mut callback: impl FnMut(&mut [f32]) + Send + 'static) -> VirtualCard {
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let halt = Arc::clone(&stop);
        let _ = std::thread::Builder::new()
            .name("annabella-test-card".to_owned())
            .spawn(move || {
                let period = std::time::Duration::from_millis(10);
                let mut buf = vec![0.0f32; 480 * 2];
                let start = Instant::now();
                let mut n = 0u32;
                while !halt.load(std::sync::atomic::Ordering::Relaxed) {
                    n += 1;
                    let due = start + period * n;
                    let now = Instant::now();
                    if due > now {
                        std::thread::sleep(due - now);
                    }
                    callback(&mut buf);
                }
            });
        VirtualCard { stop }
    }
}

impl Drop for VirtualCard {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// An open output stream of the sound card (none without the `voice`
/// feature: no cpal, no ALSA).
#[cfg(feature = "voice")]
type Stream = cpal::Stream;
#[cfg(not(feature = "voice"))]
type Stream = std::convert::Infallible;

/// Opens the default output device, its samples filled by `callback`
/// (the block, its channel count, its rate): the stream, the rate and the
/// device's name.
#[cfg(feature = "voice")]
fn open_device(
    mut callback: impl FnMut(&mut [f32], usize, u32) + Send + 'static,
) -> Result<(Stream, u32, String), SpeechError> {
    let host = cpal::default_host();
    let device = host
        .default_output_device()
        .ok_or_else(|| no_audio("no output device"))?;
    let name = device
        .description()
        .map(|d| d.to_string())
        .unwrap_or_else(|_| "default".to_owned());
    let supported = device.default_output_config().map_err(no_audio)?;
    if supported.sample_format() != cpal::SampleFormat::F32 {
        return Err(no_audio(format!(
            "unsupported sample format {:?}",
            supported.sample_format()
        )));
    }
    let config = supported.config();
    let channels = usize::from(config.channels.max(1));
    let rate = config.sample_rate;
    let stream = device
        .build_output_stream(
            config,
            move |out: &mut [f32], _: &cpal::OutputCallbackInfo| {
                callback(out, channels, rate);
            },
            |_e: cpal::Error| {},
            None,
        )
        .map_err(no_audio)?;
    stream.play().map_err(no_audio)?;
    Ok((stream, rate, name))
}

/// Built without the `voice` feature: no sound card is used (speech goes
/// to espeak-ng's own output).
#[cfg(not(feature = "voice"))]
fn open_device(
    _callback: impl FnMut(&mut [f32], usize, u32) + Send + 'static,
) -> Result<(Stream, u32, String), SpeechError> {
    Err(no_audio("built without the sound card (feature voice)"))
}

/// Where the card speaker's samples go.
enum Card {
    Device { _stream: Stream },
    Virtual { _card: VirtualCard },
}

/// What the renderer thread needs.
struct Renderer {
    engine: EspeakNg,
    rate: u32,
    playing: Arc<Mutex<Playing>>,
    current: Arc<std::sync::atomic::AtomicU64>,
    rendered: Arc<std::sync::atomic::AtomicU64>,
    error: Arc<Mutex<Option<SpeechError>>>,
    ping: crate::wake::Ping,
}

/// Renders each utterance asked for (unless a newer one was asked for
/// meanwhile) and hands it to the output callback.
fn spawn_renderer(r: Renderer) -> std::sync::mpsc::Sender<(u64, String)> {
    let (tx, rx) = std::sync::mpsc::channel::<(u64, String)>();
    let _ = std::thread::Builder::new()
        .name("annabella-render".to_owned())
        .spawn(move || {
            for (id, text) in rx {
                if r.current.load(Ordering::Acquire) == id {
                    match r.engine.render(&text) {
                        Ok(samples) => {
                            let device: Vec<f32> = resample(&samples, RATE as u32, r.rate)
                                .iter()
                                .map(|&s| f32::from(s) / 32768.0)
                                .collect();
                            let mut p = r.playing.lock().unwrap_or_else(|e| e.into_inner());
                            if r.current.load(Ordering::Acquire) == id {
                                p.clear();
                                p.device.extend(device);
                                p.original.extend(samples);
                                p.fresh = true;
                            }
                        }
                        Err(e) => {
                            *r.error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        }
                    }
                }
                r.rendered.store(id, Ordering::Release);
                // Nothing to play (a failure, an utterance dropped): the
                // loop looks again.
                r.ping.ping();
            }
        });
    tx
}

/// espeak-ng played by annabella on the default output device, each
/// block also written into a [`Played`] timeline.
pub struct CardSpeaker {
    rate: u32,
    playing: Arc<Mutex<Playing>>,
    /// Renders on a thread of its own (espeak-ng, then the device's
    /// rate): the front end's loop never waits for it.
    render: std::sync::mpsc::Sender<(u64, String)>,
    /// The utterance to be played (earlier ones are dropped), and the
    /// last one rendered (or failed).
    current: Arc<std::sync::atomic::AtomicU64>,
    rendered: Arc<std::sync::atomic::AtomicU64>,
    /// The utterance handed to the renderer and not yet rendered.
    waiting: Option<u64>,
    error: Arc<Mutex<Option<SpeechError>>>,
    played: Played,
    _card: Card,
    device: String,
    /// When the first samples of the last utterance were handed over
    /// (nanoseconds since `epoch`; 0: not yet told), for the trace.
    began: Arc<std::sync::atomic::AtomicU64>,
    epoch: Instant,
    /// Wakes the front end's loop when an utterance has been played.
    relay: crate::wake::Relay,
}

impl std::fmt::Debug for CardSpeaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CardSpeaker")
            .field("device", &self.device)
            .field("rate", &self.rate)
            .finish_non_exhaustive()
    }
}

fn no_audio(detail: impl std::fmt::Display) -> SpeechError {
    SpeechError::NoAudio {
        engine: "espeak-ng".to_owned(),
        detail: detail.to_string(),
    }
}

impl CardSpeaker {
    /// Opens the default output device and plays `engine`'s speech on it,
    /// writing what it plays into `played`.
    ///
    /// # Errors
    ///
    /// [`SpeechError::NoAudio`] when there is no usable output device
    /// (headless machine, device busy, unsupported format).
    pub fn open(engine: EspeakNg, played: Played) -> Result<CardSpeaker, SpeechError> {
        let playing = Arc::new(Mutex::new(Playing::default()));
        let relay = crate::wake::Relay::spawn(crate::wake::Waker::default());
        let ping = relay.ping();
        let began = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let epoch = Instant::now();
        let (p, r, b) = (playing.clone(), played.clone(), began.clone());
        let mut carry = 0u64;
        let mut callback = move |out: &mut [f32], channels: usize, rate: u32| {
            let at = Instant::now();
            let filled = fill(out, channels, rate, &mut carry, &p, &r, at);
            if filled.began {
                let ns = u64::try_from(at.duration_since(epoch).as_nanos()).unwrap_or(u64::MAX);
                b.store(ns.max(1), std::sync::atomic::Ordering::Release);
            }
            if filled.began || filled.ended {
                ping.ping();
            }
        };
        let (card, rate, name) = if crate::environment::get().virtual_output {
            let card = VirtualCard::start(move |out| callback(out, 2, 48_000));
            (
                Card::Virtual { _card: card },
                48_000,
                "test card".to_owned(),
            )
        } else {
            let (stream, rate, name) = open_device(callback)?;
            (Card::Device { _stream: stream }, rate, name)
        };
        played.set_live(true);
        let current = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let rendered = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let error = Arc::new(Mutex::new(None));
        let render = spawn_renderer(Renderer {
            engine,
            rate,
            playing: Arc::clone(&playing),
            current: Arc::clone(&current),
            rendered: Arc::clone(&rendered),
            error: Arc::clone(&error),
            ping: relay.ping(),
        });
        Ok(CardSpeaker {
            rate,
            playing,
            render,
            current,
            rendered,
            waiting: None,
            error,
            played,
            _card: card,
            device: name,
            began,
            epoch,
            relay,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Playing> {
        self.playing.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Speaker for CardSpeaker {
    fn speak(&mut self, u: &Utterance, _priority: Priority) -> Result<(), SpeechError> {
        crate::trace::event("speak", &u.display);
        let id = self.current.fetch_add(1, Ordering::AcqRel) + 1;
        self.lock().clear();
        if self.render.send((id, u.spoken.clone())).is_err() {
            return Err(no_audio("the renderer has ended"));
        }
        self.waiting = Some(id);
        Ok(())
    }
    fn stop(&mut self) {
        self.current.fetch_add(1, Ordering::AcqRel);
        self.waiting = None;
        self.lock().clear();
    }
    fn is_speaking(&mut self) -> bool {
        if let Some(id) = self.waiting {
            if self.rendered.load(Ordering::Acquire) < id {
                return true;
            }
            self.waiting = None;
        }
        !self.lock().device.is_empty()
    }
    fn take_error(&mut self) -> Option<SpeechError> {
        self.error
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }
    fn name(&self) -> &str {
        "espeak-ng"
    }
    fn set_waker(&mut self, waker: crate::wake::Waker) {
        let (began, epoch) = (Arc::clone(&self.began), self.epoch);
        self.relay.set_waker(crate::wake::Waker::new(move || {
            // Test only: when her utterance reached the sound card.
            let ns = began.swap(0, std::sync::atomic::Ordering::AcqRel);
            if ns > 0 {
                crate::trace::event_at(epoch + std::time::Duration::from_nanos(ns), "audio", "");
            }
            waker.wake();
        }));
    }
}

impl Drop for CardSpeaker {
    fn drop(&mut self) {
        self.lock().clear();
        self.played.set_live(false);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_reference_is_what_was_handed_over_in_the_same_span() {
        let t0 = Instant::now();
        let played = Played::new(t0);
        // 10 ms handed over at 100 ms: samples 1600..1760.
        let block: Vec<i16> = (1..=160).collect();
        played.push(&block, t0 + ms(100));
        // The next block follows on, though its callback came 5 ms late.
        played.push(&[500; 160], t0 + ms(115));
        // A microphone block of 20 ms ending at 120 ms: 1600..1920.
        assert_eq!(played.pull(320, t0 + ms(120))[..160], block[..]);
        assert_eq!(played.pull(320, t0 + ms(120))[160..], [500; 160]);
        // Shifted by 5 ms: 80 samples of silence before, then the start.
        let r = played.pull(160, t0 + ms(105));
        assert_eq!(r[..80], [0; 80]);
        assert_eq!(r[80..], block[..80]);
        // Long after: silence; before the epoch: silence, right length.
        assert_eq!(played.pull(160, t0 + ms(1000)), vec![0; 160]);
        assert_eq!(played.pull(320, t0), vec![0; 320]);
    }

    #[test]
    fn a_pause_in_the_stream_leaves_silence_and_a_runaway_device_starts_again() {
        let t0 = Instant::now();
        let played = Played::new(t0);
        played.push(&[7; 160], t0 + ms(100));
        // 100 ms later (more than the jitter): silence in between.
        played.push(&[9; 160], t0 + ms(210));
        let r = played.pull(160, t0 + ms(220));
        assert_eq!(r, vec![9; 160]);
        assert_eq!(played.pull(160, t0 + ms(120)), vec![0; 160]);
        // A device that takes 10 s in no time: the timeline does not run
        // away from the wall clock.
        for _ in 0..1000 {
            played.push(&[3; 160], t0 + ms(300));
        }
        let r = played.pull(160, t0 + ms(310));
        assert!(r.iter().all(|&s| s == 3 || s == 0), "{r:?}");
        assert!(played.lock().samples.len() <= 2 * KEEP);
    }

    #[test]
    fn it_is_live_while_any_card_speaker_plays_into_it() {
        let played = Played::default();
        assert!(!played.is_live());
        // Speech reopened: the new speaker opens, then the old one goes.
        played.set_live(true);
        played.set_live(true);
        played.set_live(false);
        assert!(played.is_live());
        played.set_live(false);
        played.set_live(false);
        assert!(!played.is_live());
    }

    #[test]
    fn reference_lengths_follow_the_device_rate_without_drift() {
        let mut carry = 0;
        let total: usize = (0..100)
            .map(|_| reference_len(441, 44_100, &mut carry))
            .sum();
        assert_eq!(total, 16_000, "1 s at 44.1 kHz is 1 s at 16 kHz");
        let mut carry = 0;
        assert_eq!(reference_len(480, 48_000, &mut carry), 160);
        assert_eq!(carry, 0);
        // Resampling the rendered speech keeps its duration.
        let speech = vec![1000i16; 16_000];
        assert_eq!(resample(&speech, 16_000, 48_000).len(), 48_000);
        assert_eq!(resample(&speech, 16_000, 44_100).len(), 44_100);
    }

    #[test]
    fn the_callback_plays_and_writes_the_reference_and_stop_clears_both() {
        let t0 = Instant::now();
        let played = Played::new(t0);
        let playing = Mutex::new(Playing::default());
        {
            let mut p = playing.lock().unwrap();
            // 20 ms of speech at 16 kHz, 40 ms... at 48 kHz: 960 frames.
            p.original.extend([100i16; 320]);
            p.device.extend([0.5f32; 960]);
        }
        let mut carry = 0;
        // Stereo, 10 ms: 480 frames.
        let mut out = vec![0.0f32; 960];
        fill(
            &mut out,
            2,
            48_000,
            &mut carry,
            &playing,
            &played,
            t0 + ms(10),
        );
        assert!(out.iter().all(|&s| s == 0.5), "both channels");
        assert_eq!(played.pull(160, t0 + ms(20)), vec![100; 160]);
        // Stopped: the rest is cut at once, the next blocks are silence.
        playing.lock().unwrap().clear();
        fill(
            &mut out,
            2,
            48_000,
            &mut carry,
            &playing,
            &played,
            t0 + ms(20),
        );
        assert!(out.iter().all(|&s| s == 0.0));
        assert_eq!(played.pull(160, t0 + ms(30)), vec![0; 160]);
        assert!(playing.lock().unwrap().device.is_empty());
    }
}
