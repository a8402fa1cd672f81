//! Speech played on the sound card by annabella herself, so that what she
//! plays is known: the echo canceller's reference for hands-free barge-in
//! with a real microphone (issue 14).
//!
//! [`CardSpeaker`] synthesizes each utterance with libespeak-ng in process
//! ([`super::libespeak`], warm: library and voice loaded when the speaker
//! opens; else the espeak-ng program, with a one-line notice), converts
//! each block as it comes to the output device's rate and to 16 kHz (with
//! the same anti-aliased resampler as the microphone's stream,
//! [`crate::voice::rate`], its filters made once) and hands it at once,
//! through two preallocated lock-free rings ([`rings`]), to the output
//! callback of a cpal output stream: the first samples of a reply reach
//! the card while the rest is still being synthesized. The callback
//! ([`Output::fill`]) allocates nothing and takes no lock the renderer or
//! the front end's loop takes; what is no longer wanted (a stop, a newer
//! utterance) it drops by its tag. In the output callback, every block handed to the
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
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

#[cfg(feature = "voice")]
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

use super::espeak::EspeakNg;
use super::libespeak::Synthesizer;
use super::{Priority, Speaker, SpeechError};
use crate::vocab::Utterance;
use crate::voice::rate::Resampler;

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
    /// Preallocated ([`CAPACITY`]) and never grown: the output callback
    /// writes into it without allocating.
    samples: VecDeque<i16>,
}

/// What the timeline holds at most (2 [`KEEP`]) plus what one push may
/// add before the oldest is dropped (a gap of up to [`KEEP`] and a
/// block): its preallocated size.
const CAPACITY: usize = 4 * KEEP;

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
/// written by the output callback, read by the microphone's (the only
/// two that take its lock; the front end's loop only reads an atomic,
/// [`Played::is_live`]). Cloning shares it.
#[derive(Debug, Clone)]
pub struct Played {
    line: Arc<Mutex<Timeline>>,
    /// Card speakers playing into it (a new one opens before the old one
    /// is dropped when speech is reopened).
    live: Arc<AtomicUsize>,
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
                samples: VecDeque::with_capacity(CAPACITY),
            })),
            live: Arc::new(AtomicUsize::new(0)),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Timeline> {
        self.line.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `samples` (16 kHz) were handed to the device at `at`. They follow
    /// what was handed before without a gap, unless that ended more than
    /// [`JITTER`] before `at` (the stream paused: silence in between) or
    /// runs more than [`KEEP`] ahead of `at` (a device that takes samples
    /// faster than it plays them: the timeline starts again at `at`).
    /// Allocates nothing for blocks up to [`KEEP`] samples (longer ones
    /// are written in pieces).
    pub fn push(&self, samples: &[i16], at: Instant) {
        for piece in samples.chunks(KEEP) {
            self.push_piece(piece, at);
        }
    }

    fn push_piece(&self, samples: &[i16], at: Instant) {
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
        // Room first, so that the preallocated buffer never grows.
        let excess = (line.samples.len() + samples.len()).saturating_sub(2 * KEEP);
        let excess = excess.min(line.samples.len());
        line.samples.drain(..excess);
        line.start += excess as u64;
        line.samples.extend(samples.iter().copied());
    }

    /// The `n` samples handed to the device in the span of `n` samples
    /// ending at `at` (silence where nothing was).
    pub fn pull(&self, n: usize, at: Instant) -> Vec<i16> {
        let mut out = vec![0i16; n];
        self.pull_into(&mut out, at);
        out
    }

    /// As [`pull`](Self::pull), into `out` (its length is `n`), without
    /// allocating.
    pub fn pull_into(&self, out: &mut [i16], at: Instant) {
        let n = out.len();
        let line = self.lock();
        let to = line.index(at);
        let from = to.saturating_sub(n as u64);
        let lead = n - (to - from) as usize;
        out[..lead].fill(0);
        for (slot, i) in out[lead..].iter_mut().zip(from..to) {
            *slot = i
                .checked_sub(line.start)
                .and_then(|k| line.samples.get(k as usize))
                .copied()
                .unwrap_or(0);
        }
    }

    /// `true` while a [`CardSpeaker`] plays into it (else the reference is
    /// silence and barge-in by voice cannot work).
    pub fn is_live(&self) -> bool {
        self.live.load(Ordering::Acquire) > 0
    }

    fn set_live(&self, live: bool) {
        if live {
            self.live.fetch_add(1, Ordering::AcqRel);
        } else {
            let _ = self
                .live
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
        }
    }
}

/// A sample in a ring, with the utterance it belongs to (the low bits of
/// its id): what belongs to an utterance no longer wanted is dropped by
/// the output callback, which alone takes from the rings.
#[derive(Debug, Clone, Copy)]
struct Tagged<T> {
    tag: u32,
    sample: T,
}

fn tag(id: u64) -> u32 {
    // Truncation intended: ids are compared for equality only.
    id as u32
}

/// What the speaker, its renderer and the output callback share: atomics
/// only, so no side waits for another.
#[derive(Debug)]
pub struct Progress {
    /// The utterance wanted now (each `speak` and each `stop` takes a new
    /// id, so what was asked for before becomes stale).
    current: AtomicU64,
    /// The last utterance the renderer is done with (all its samples in
    /// the rings, or failed, or skipped).
    rendered: AtomicU64,
    /// The last utterance whose last sample was handed to the device (or
    /// that has nothing to play).
    ended: AtomicU64,
    /// When the first samples of the last utterance were handed over
    /// (nanoseconds since `epoch`; 0: not yet told), for the trace.
    began: AtomicU64,
    epoch: Instant,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            current: AtomicU64::new(0),
            rendered: AtomicU64::new(0),
            ended: AtomicU64::new(0),
            began: AtomicU64::new(0),
            epoch: Instant::now(),
        }
    }

    /// A new utterance is wanted: its id (what was wanted before is
    /// dropped).
    pub fn ask(&self) -> u64 {
        self.current.fetch_add(1, Ordering::AcqRel) + 1
    }

    /// Nothing is wanted any more (what is in the rings is dropped at the
    /// next callback).
    pub fn stop(&self) {
        self.current.fetch_add(1, Ordering::AcqRel);
    }

    /// `true` while utterance `id` is the one wanted.
    pub fn wanted(&self, id: u64) -> bool {
        self.current.load(Ordering::Acquire) == id
    }

    /// `true` once utterance `id` has been played to its end (or had
    /// nothing to play).
    pub fn ended(&self, id: u64) -> bool {
        self.ended.load(Ordering::Acquire) >= id
    }
}

/// Samples in the device ring: 1 s at 48 kHz (the renderer waits while
/// it is full; synthesis runs many times faster than the card plays).
const DEVICE_RING: usize = 48_000;
/// Samples in the reference ring: a little more than the same time.
const REFERENCE_RING: usize = RATE as usize * 5 / 4;
/// How long the renderer sleeps at most while the rings are full (a new
/// utterance or a stop wakes it at once: [`CardSpeaker`] unparks it).
const FULL_WAIT: std::time::Duration = std::time::Duration::from_millis(20);

/// The renderer's side of the rings.
pub struct Feed {
    device: rtrb::Producer<Tagged<f32>>,
    reference: rtrb::Producer<Tagged<i16>>,
    progress: Arc<Progress>,
}

impl std::fmt::Debug for Feed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Feed").finish_non_exhaustive()
    }
}

fn to_i16(s: f32) -> i16 {
    (s * 32_768.0)
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

impl Feed {
    /// Hands samples of utterance `id` to the output callback: `device`
    /// at the device's rate, `reference` (the same speech) at 16 kHz.
    /// Waits while the rings are full. `false`: `id` is no longer wanted
    /// (or the callback is gone), stop rendering it.
    pub fn push(&mut self, id: u64, device: &[f32], reference: &[f32]) -> bool {
        let tag = tag(id);
        // The reference first: the callback never plays a sample whose
        // reference has not arrived.
        for &s in reference {
            let mut item = Tagged {
                tag,
                sample: to_i16(s),
            };
            while let Err(rtrb::PushError::Full(back)) = self.reference.push(item) {
                if !self.waiting(id, self.reference.is_abandoned()) {
                    return false;
                }
                item = back;
            }
        }
        for &sample in device {
            let mut item = Tagged { tag, sample };
            while let Err(rtrb::PushError::Full(back)) = self.device.push(item) {
                if !self.waiting(id, self.device.is_abandoned()) {
                    return false;
                }
                item = back;
            }
        }
        self.progress.wanted(id)
    }

    fn waiting(&self, id: u64, abandoned: bool) -> bool {
        if abandoned || !self.progress.wanted(id) {
            return false;
        }
        std::thread::park_timeout(FULL_WAIT);
        true
    }

    /// The renderer is done with utterance `id` (`played`: its samples
    /// are all in the rings; else it failed or was skipped and has
    /// nothing more to play).
    pub fn done(&mut self, id: u64, played: bool) {
        self.progress.rendered.fetch_max(id, Ordering::AcqRel);
        if !played {
            self.progress.ended.fetch_max(id, Ordering::AcqRel);
        }
    }
}

/// The output callback's side: fills each block from the rings without
/// allocating or locking anything the front end's loop or the renderer
/// locks (only [`Played`]'s timeline, which the microphone's callback
/// reads).
pub struct Output {
    device: rtrb::Consumer<Tagged<f32>>,
    reference: rtrb::Consumer<Tagged<i16>>,
    progress: Arc<Progress>,
    played: Played,
    /// Fraction of a 16 kHz sample carried between blocks.
    carry: u64,
    /// The last utterance whose first samples were handed over, and the
    /// last one seen to its end.
    began: u64,
    ended: u64,
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Output").finish_non_exhaustive()
    }
}

/// The rings between a renderer and an output callback, preallocated,
/// and the progress they share (what [`CardSpeaker`] is made of; public
/// for the allocation test).
pub fn rings(played: Played) -> (Feed, Output, Arc<Progress>) {
    let progress = Arc::new(Progress::new());
    let (dp, dc) = rtrb::RingBuffer::new(DEVICE_RING);
    let (rp, rc) = rtrb::RingBuffer::new(REFERENCE_RING);
    (
        Feed {
            device: dp,
            reference: rp,
            progress: Arc::clone(&progress),
        },
        Output {
            device: dc,
            reference: rc,
            progress: Arc::clone(&progress),
            played,
            carry: 0,
            began: 0,
            ended: 0,
        },
        progress,
    )
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
pub struct Filled {
    /// It handed over the first samples of an utterance.
    pub began: bool,
    /// It handed over the last samples of an utterance.
    pub ended: bool,
}

/// The reference is written into the timeline in pieces of this many
/// samples (a buffer on the stack).
const PIECE: usize = 256;

impl Output {
    /// One output callback at `at`: fills `out` (`channels` interleaved,
    /// at `rate`) with the utterance wanted (silence when there is none
    /// or it is not rendered yet), and writes what was handed over, at
    /// 16 kHz, into the [`Played`] timeline.
    pub fn fill(&mut self, out: &mut [f32], channels: usize, rate: u32, at: Instant) -> Filled {
        let channels = channels.max(1);
        let frames = out.len() / channels;
        // `rendered` before looking into the rings: what it says is done
        // is all in them.
        let rendered = self.progress.rendered.load(Ordering::Acquire);
        let current = self.progress.current.load(Ordering::Acquire);
        let tag = tag(current);
        // What is no longer wanted goes (older utterances come first).
        while self.device.peek().is_ok_and(|t| t.tag != tag) {
            let _ = self.device.pop();
        }
        while self.reference.peek().is_ok_and(|t| t.tag != tag) {
            let _ = self.reference.pop();
        }
        let mut handed = 0;
        for frame in out.chunks_mut(channels) {
            let s = match self.device.pop() {
                Ok(t) => {
                    handed += 1;
                    t.sample
                }
                Err(_) => 0.0,
            };
            frame.fill(s);
        }
        let mut filled = Filled::default();
        if handed > 0 && self.began != current {
            self.began = current;
            filled.began = true;
            let ns = u64::try_from(at.saturating_duration_since(self.progress.epoch).as_nanos())
                .unwrap_or(u64::MAX);
            self.progress.began.store(ns.max(1), Ordering::Release);
        }
        let want = reference_len(frames, rate, &mut self.carry);
        // As much reference as speech was handed over (the rest of the
        // span was silence: the renderer was late).
        let take = if handed == frames {
            want
        } else {
            want * handed / frames.max(1)
        };
        let mut piece = [0i16; PIECE];
        let (mut done, mut taken) = (0, 0);
        while done < want {
            let n = (want - done).min(PIECE);
            for slot in &mut piece[..n] {
                *slot = 0;
                if taken < take
                    && let Ok(t) = self.reference.pop()
                {
                    taken += 1;
                    *slot = t.sample;
                }
            }
            self.played.push(&piece[..n], at);
            done += n;
        }
        if rendered >= current && self.device.is_empty() && self.ended < current {
            self.ended = current;
            while self.reference.pop().is_ok() {}
            self.progress.ended.fetch_max(current, Ordering::AcqRel);
            filled.ended = true;
        }
        filled
    }
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

/// What renders the card speaker's speech: libespeak-ng in process
/// (warm: its voice is loaded once), else the espeak-ng program.
enum Engine {
    Library(Synthesizer),
    Program(EspeakNg),
}

impl Engine {
    /// The library unless a program was named (env `ANNABELLA_ESPEAK`, a
    /// test's stand-in) or it cannot be opened (then the second value
    /// says why, for a one-line notice).
    fn open(program: EspeakNg) -> (Engine, Option<SpeechError>) {
        if crate::environment::get().espeak.is_some() {
            return (Engine::Program(program), None);
        }
        match Synthesizer::open(program.voice(), program.speed()) {
            Ok(s) => (Engine::Library(s), None),
            Err(e) => (
                Engine::Program(program),
                Some(SpeechError::NoLibrary {
                    library: e.library,
                    error: e.trouble,
                }),
            ),
        }
    }

    /// For the trace: which one renders.
    fn name(&self) -> &'static str {
        match self {
            Engine::Library(_) => "library",
            Engine::Program(_) => "program",
        }
    }

    fn stream(
        &self,
        text: &str,
        chunk: impl FnMut(&[i16], u32) -> bool,
    ) -> Result<(), SpeechError> {
        match self {
            Engine::Library(s) => s
                .stream(text, chunk)
                .map_err(|e| SpeechError::Failed(super::Failure::Library(e.trouble))),
            Engine::Program(p) => p.stream(text, chunk),
        }
    }
}

/// Converts the synthesizer's blocks (at its own rate) to the device's
/// rate and to 16 kHz, as they come, with filters kept warm between
/// utterances (making one takes milliseconds).
struct Converter {
    from: u32,
    to_device: Option<Resampler>,
    to_reference: Option<Resampler>,
    input: Vec<f32>,
    device: Vec<f32>,
    reference: Vec<f32>,
}

impl Converter {
    fn new(from: u32, device_rate: u32) -> Converter {
        Converter {
            from,
            to_device: Resampler::new(from, device_rate).ok(),
            to_reference: Resampler::new(from, RATE as u32).ok(),
            input: Vec::with_capacity(4096),
            device: Vec::with_capacity(16_384),
            reference: Vec::with_capacity(4096),
        }
    }

    /// A new utterance at `from` Hz.
    fn start(&mut self, from: u32, device_rate: u32) {
        if from != self.from {
            *self = Converter::new(from, device_rate);
        }
        for r in [&mut self.to_device, &mut self.to_reference]
            .into_iter()
            .flatten()
        {
            r.reset();
        }
    }

    fn push(&mut self, samples: &[i16]) {
        self.input.clear();
        self.input
            .extend(samples.iter().map(|&s| f32::from(s) / 32_768.0));
        self.device.clear();
        self.reference.clear();
        if let Some(r) = &mut self.to_device {
            r.push(&self.input, &mut self.device);
        }
        if let Some(r) = &mut self.to_reference {
            r.push(&self.input, &mut self.reference);
        }
    }

    fn finish(&mut self) {
        self.device.clear();
        self.reference.clear();
        if let Some(r) = &mut self.to_device {
            r.finish(&mut self.device);
        }
        if let Some(r) = &mut self.to_reference {
            r.finish(&mut self.reference);
        }
    }
}

/// What the renderer thread needs.
struct Renderer {
    program: EspeakNg,
    rate: u32,
    feed: Feed,
    progress: Arc<Progress>,
    trouble: Arc<Mutex<Trouble>>,
    ping: crate::wake::Ping,
}

/// What the renderer tells the speaker: a failure (speech is off), a
/// notice (it goes on).
#[derive(Debug, Default)]
struct Trouble {
    error: Option<SpeechError>,
    notice: Option<SpeechError>,
}

/// The rate espeak-ng synthesizes at (the filters are made for it before
/// the first utterance).
const ESPEAK_RATE: u32 = 22_050;

/// Renders each utterance asked for (unless a newer one was asked for
/// meanwhile), handing each block to the output callback as soon as it
/// is synthesized and converted.
fn spawn_renderer(
    r: Renderer,
) -> (
    std::sync::mpsc::Sender<(u64, String)>,
    Option<std::thread::Thread>,
) {
    let (tx, rx) = std::sync::mpsc::channel::<(u64, String)>();
    let thread = std::thread::Builder::new()
        .name("annabella-render".to_owned())
        .spawn(move || {
            let Renderer {
                program,
                rate,
                mut feed,
                progress,
                trouble,
                ping,
            } = r;
            // Warm before the first reply: the library and its voice
            // loaded, the filters made.
            let (engine, notice) = Engine::open(program);
            let mut convert = Converter::new(ESPEAK_RATE, rate);
            if let Some(n) = notice {
                trouble
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .notice = Some(n);
                ping.ping();
            }
            for (id, text) in rx {
                if !progress.wanted(id) {
                    feed.done(id, false);
                    ping.ping();
                    continue;
                }
                crate::trace::event("synth", engine.name());
                let mut started = None;
                let mut first = true;
                let mut handed = 0usize;
                let result = engine.stream(&text, |samples, from| {
                    if started != Some(from) {
                        convert.start(from, rate);
                        started = Some(from);
                    }
                    convert.push(samples);
                    let go = feed.push(id, &convert.device, &convert.reference);
                    handed += convert.device.len();
                    if go && first && !convert.device.is_empty() {
                        first = false;
                        crate::trace::event("chunk", "");
                    }
                    go
                });
                if started.is_some() && progress.wanted(id) {
                    convert.finish();
                    feed.push(id, &convert.device, &convert.reference);
                    handed += convert.device.len();
                }
                // Test only: synthesis is over, so many device samples.
                crate::trace::event("rendered", &handed.to_string());
                let ok = result.is_ok() && started.is_some();
                feed.done(id, ok);
                if let Err(e) = result {
                    trouble.lock().unwrap_or_else(PoisonError::into_inner).error = Some(e);
                }
                // Nothing to play (a failure, an utterance dropped): the
                // loop looks again.
                ping.ping();
            }
        });
    (tx, thread.ok().map(|t| t.thread().clone()))
}

/// espeak-ng played by annabella on the default output device, each
/// block also written into a [`Played`] timeline.
pub struct CardSpeaker {
    rate: u32,
    /// Renders on a thread of its own (libespeak-ng or the espeak-ng
    /// program, then the device's rate): the front end's loop never waits
    /// for it.
    render: std::sync::mpsc::Sender<(u64, String)>,
    /// The renderer's thread, woken when what it renders is no longer
    /// wanted (it may be waiting for room in the rings).
    renderer: Option<std::thread::Thread>,
    progress: Arc<Progress>,
    /// The utterance handed to the renderer and not yet played to its end.
    waiting: Option<u64>,
    trouble: Arc<Mutex<Trouble>>,
    played: Played,
    _card: Card,
    device: String,
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
    /// Opens the default output device and plays `engine`'s speech on it
    /// (synthesized by libespeak-ng in process when it can be loaded,
    /// else by the `engine` program, with a notice), writing what it
    /// plays into `played`.
    ///
    /// # Errors
    ///
    /// [`SpeechError::NoAudio`] when there is no usable output device
    /// (headless machine, device busy, unsupported format).
    pub fn open(engine: EspeakNg, played: Played) -> Result<CardSpeaker, SpeechError> {
        let relay = crate::wake::Relay::spawn(crate::wake::Waker::default());
        let ping = relay.ping();
        let (feed, mut output, progress) = rings(played.clone());
        let mut callback = move |out: &mut [f32], channels: usize, rate: u32| {
            let filled = output.fill(out, channels, rate, Instant::now());
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
        let trouble = Arc::new(Mutex::new(Trouble::default()));
        let (render, renderer) = spawn_renderer(Renderer {
            program: engine,
            rate,
            feed,
            progress: Arc::clone(&progress),
            trouble: Arc::clone(&trouble),
            ping: relay.ping(),
        });
        Ok(CardSpeaker {
            rate,
            render,
            renderer,
            progress,
            waiting: None,
            trouble,
            played,
            _card: card,
            device: name,
            relay,
        })
    }

    fn wake_renderer(&self) {
        if let Some(t) = &self.renderer {
            t.unpark();
        }
    }

    fn trouble(&self) -> MutexGuard<'_, Trouble> {
        self.trouble.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Speaker for CardSpeaker {
    fn speak(&mut self, u: &Utterance, _priority: Priority) -> Result<(), SpeechError> {
        crate::trace::event("speak", &u.display);
        let id = self.progress.ask();
        if self.render.send((id, u.spoken.clone())).is_err() {
            return Err(no_audio("the renderer has ended"));
        }
        self.wake_renderer();
        self.waiting = Some(id);
        Ok(())
    }
    fn stop(&mut self) {
        self.progress.stop();
        self.wake_renderer();
        self.waiting = None;
    }
    fn is_speaking(&mut self) -> bool {
        match self.waiting {
            Some(id) if !self.progress.ended(id) => true,
            _ => {
                self.waiting = None;
                false
            }
        }
    }
    fn take_error(&mut self) -> Option<SpeechError> {
        self.trouble().error.take()
    }
    fn take_notice(&mut self) -> Option<SpeechError> {
        self.trouble().notice.take()
    }
    fn name(&self) -> &str {
        "espeak-ng"
    }
    fn set_waker(&mut self, waker: crate::wake::Waker) {
        let progress = Arc::clone(&self.progress);
        self.relay.set_waker(crate::wake::Waker::new(move || {
            // Test only: when her utterance reached the sound card.
            let ns = progress.began.swap(0, Ordering::AcqRel);
            if ns > 0 {
                crate::trace::event_at(
                    progress.epoch + std::time::Duration::from_nanos(ns),
                    "audio",
                    "",
                );
            }
            waker.wake();
        }));
    }
}

impl Drop for CardSpeaker {
    fn drop(&mut self) {
        // The renderer stops waiting for room; the callback drops the rest.
        self.progress.stop();
        self.wake_renderer();
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
        use crate::speech::espeak::resample;
        let speech = vec![1000i16; 16_000];
        assert_eq!(resample(&speech, 16_000, 48_000).len(), 48_000);
        assert_eq!(resample(&speech, 16_000, 44_100).len(), 44_100);
    }

    #[test]
    fn the_callback_plays_and_writes_the_reference_and_stop_clears_both() {
        let t0 = Instant::now();
        let played = Played::new(t0);
        let (mut feed, mut output, progress) = rings(played.clone());
        let id = progress.ask();
        // 20 ms of speech at 16 kHz, the same at 48 kHz: 960 frames.
        assert!(feed.push(id, &[0.5f32; 960], &[100.0 / 32_768.0; 320]));
        // Stereo, 10 ms: 480 frames.
        let mut out = vec![0.0f32; 960];
        let filled = output.fill(&mut out, 2, 48_000, t0 + ms(10));
        assert_eq!(
            filled,
            Filled {
                began: true,
                ended: false
            }
        );
        assert!(out.iter().all(|&s| s == 0.5), "both channels");
        assert_eq!(played.pull(160, t0 + ms(20)), vec![100; 160]);
        assert!(!progress.ended(id), "half of it is still to play");
        // Stopped: the rest is cut at once, the next blocks are silence.
        progress.stop();
        let filled = output.fill(&mut out, 2, 48_000, t0 + ms(20));
        assert!(out.iter().all(|&s| s == 0.0));
        assert!(!filled.began);
        assert_eq!(played.pull(160, t0 + ms(30)), vec![0; 160]);
        // The renderer learns it is no longer wanted.
        assert!(!feed.push(id, &[0.5; 10], &[0.0; 4]));
    }

    #[test]
    fn an_utterance_ends_when_its_last_sample_is_handed_over_after_rendering() {
        let t0 = Instant::now();
        let (mut feed, mut output, progress) = rings(Played::new(t0));
        let id = progress.ask();
        let mut out = vec![0.0f32; 960];
        // Nothing rendered yet: silence, not ended.
        assert_eq!(output.fill(&mut out, 2, 48_000, t0), Filled::default());
        assert!(!progress.ended(id));
        assert!(feed.push(id, &[0.25; 480], &[0.0; 160]));
        let f = output.fill(&mut out, 2, 48_000, t0 + ms(10));
        assert!(f.began && !f.ended, "not rendered to the end: {f:?}");
        assert!(!progress.ended(id), "the renderer may be late");
        assert!(feed.push(id, &[0.25; 240], &[0.0; 80]));
        feed.done(id, true);
        let f = output.fill(&mut out, 2, 48_000, t0 + ms(20));
        assert!(!f.began && f.ended, "{f:?}");
        assert!(out[..480].iter().all(|&s| s == 0.25));
        assert!(out[480..].iter().all(|&s| s == 0.0));
        assert!(progress.ended(id));
        // A newer utterance supersedes what is left of an older one.
        let a = progress.ask();
        assert!(feed.push(a, &[0.1; 960], &[0.0; 320]));
        let b = progress.ask();
        assert!(!feed.push(a, &[0.1; 10], &[]), "a is stale");
        assert!(feed.push(b, &[0.9; 960], &[0.0; 320]));
        let f = output.fill(&mut out, 2, 48_000, t0 + ms(30));
        assert!(f.began);
        assert!(out.iter().all(|&s| s == 0.9), "b at once, nothing of a");
        // A failed rendering ends at once.
        let c = progress.ask();
        feed.done(c, false);
        assert!(progress.ended(c));
    }
}
