//! The microphone adapter (cpal): captures the default input device and
//! hands 16 kHz mono chunks, each with the moment its last sample was
//! captured, to a function.
//!
//! The device's callback runs on a real-time audio thread: it must never
//! wait (no lock another thread may hold) nor allocate. It only copies
//! each block, as `f32` samples at the device's rate and channel count,
//! into a preallocated lock-free single-producer single-consumer ring
//! ([`rtrb`]), notes how many and when in a second one, and wakes the
//! capture thread ([`CallbackSide::block`]). The capture thread
//! ([`CaptureSide::drain`]) converts them to 16 kHz mono through the
//! stream's one stateful [`InputConverter`] and calls the function (which
//! may allocate, lock and send). A block that finds the ring full (the
//! capture thread stalled for more than [`RING_SECONDS`]) is dropped and
//! counted, never waited for.
//!
//! On a machine without a usable input device (headless),
//! [`MicStream::open`] returns an error the caller prints as one line;
//! the keyboard keeps working.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::{JoinHandle, Thread};
use std::time::{Duration, Instant};

#[cfg(feature = "voice")]
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use rtrb::{Consumer, Producer, RingBuffer};

/// An open input stream (none without the `voice` feature: no cpal, no
/// ALSA).
#[cfg(feature = "voice")]
type Stream = cpal::Stream;
#[cfg(not(feature = "voice"))]
type Stream = std::convert::Infallible;

use super::rate::{DeviceSample, InputConverter};

/// Device audio the ring between the callback and the capture thread
/// holds.
pub const RING_SECONDS: u32 = 2;

/// Device callbacks the ring of block marks holds (a block of 1 frame
/// each, at most, in [`RING_SECONDS`]: far more than any device gives).
const MARKS: usize = 4096;

/// The longest the capture thread sleeps without being woken (it is woken
/// by every block; this only bounds a missed wake-up).
const IDLE: Duration = Duration::from_millis(20);

/// Why the microphone cannot be used: what the player can do something
/// about, never the sound system's own (English) text, which goes to the
/// audio log only ([`MicError::logged`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MicError {
    /// No input device at all (none connected; a headless machine).
    NoDevice,
    /// The device cannot be reached (unplugged, or not there any more).
    Unavailable,
    /// The sound system (its server or subsystem) is not running.
    NoSoundSystem,
    /// Another program holds the device.
    Busy,
    /// The system does not let annabella use the device.
    PermissionDenied,
    /// The device gives its samples in a format no converter reads.
    UnsupportedFormat {
        /// The format's name (`u8`, `f64`, …).
        format: String,
    },
    /// The device's configuration (rate, channels) cannot be used.
    UnsupportedConfig,
    /// The system ran out of threads or memory.
    Resources,
    /// The device reports a rate no converter takes (zero).
    Rate {
        /// The rate it reports, in Hz.
        rate: u32,
    },
    /// Built without the `voice` feature: there is no microphone.
    NotBuilt,
    /// Any other error of the sound system (its text in the audio log).
    Backend,
}

impl MicError {
    /// One error of every kind (for the tests that word them).
    #[cfg(test)]
    pub(crate) fn every_kind() -> Vec<MicError> {
        vec![
            MicError::NoDevice,
            MicError::Unavailable,
            MicError::NoSoundSystem,
            MicError::Busy,
            MicError::PermissionDenied,
            MicError::UnsupportedFormat {
                format: "u8".to_owned(),
            },
            MicError::UnsupportedConfig,
            MicError::Resources,
            MicError::Rate { rate: 0 },
            MicError::NotBuilt,
            MicError::Backend,
        ]
    }

    /// Why, in `locale`'s words, with what to do about it.
    pub fn describe(&self, locale: &crate::locale::Locale) -> String {
        use crate::locale::MsgKey;
        match self {
            MicError::NoDevice => locale.message(MsgKey::VoiceMicNoDevice, &[]),
            MicError::Unavailable => locale.message(MsgKey::VoiceMicUnavailable, &[]),
            MicError::NoSoundSystem => locale.message(MsgKey::VoiceMicNoSoundSystem, &[]),
            MicError::Busy => locale.message(MsgKey::VoiceMicBusy, &[]),
            MicError::PermissionDenied => locale.message(MsgKey::VoiceMicPermission, &[]),
            MicError::UnsupportedFormat { format } => {
                locale.message(MsgKey::VoiceMicFormat, &[("format", format)])
            }
            MicError::UnsupportedConfig => locale.message(MsgKey::VoiceMicConfig, &[]),
            MicError::Resources => locale.message(MsgKey::VoiceMicResources, &[]),
            MicError::Rate { rate } => {
                locale.message(MsgKey::VoiceMicRate, &[("rate", &rate.to_string())])
            }
            MicError::NotBuilt => locale.message(MsgKey::VoiceMicNotBuilt, &[]),
            MicError::Backend => locale.message(MsgKey::VoiceMicBackend, &[]),
        }
    }

    /// The error of the sound system, `what` failing: its kind, and its
    /// own text written to standard error (the audio log while voice
    /// input runs) for bug reports.
    #[cfg(feature = "voice")]
    fn logged(what: &str, e: &cpal::Error) -> MicError {
        use cpal::ErrorKind as K;
        eprintln!("annabella voice: microphone: {what}: {e} ({:?})", e.kind());
        match e.kind() {
            K::DeviceNotAvailable | K::DeviceChanged | K::StreamInvalidated => {
                MicError::Unavailable
            }
            K::HostUnavailable => MicError::NoSoundSystem,
            K::DeviceBusy => MicError::Busy,
            K::PermissionDenied => MicError::PermissionDenied,
            // The default device has no input ("Device does not support
            // input": ALSA without a capture card).
            K::UnsupportedOperation => MicError::NoDevice,
            K::UnsupportedConfig | K::InvalidInput => MicError::UnsupportedConfig,
            K::ResourceExhausted => MicError::Resources,
            _ => MicError::Backend,
        }
    }

    /// No thread for the capture: the system's error to standard error.
    fn no_thread(e: &std::io::Error) -> MicError {
        eprintln!("annabella voice: microphone: no capture thread: {e}");
        MicError::Resources
    }
}

impl std::fmt::Display for MicError {
    /// In the base locale's words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::locale::in_base(|l| self.describe(l)))
    }
}

impl std::error::Error for MicError {}

/// One device block in the ring: how many samples, captured when.
#[derive(Debug, Clone, Copy)]
struct Mark {
    samples: usize,
    at: Instant,
}

/// What the device's callback runs for each block (see the module
/// documentation): no allocation, no lock.
pub struct CallbackSide {
    samples: Producer<f32>,
    marks: Producer<Mark>,
    waker: Option<Thread>,
    dropped: Arc<AtomicU64>,
}

impl std::fmt::Debug for CallbackSide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallbackSide").finish_non_exhaustive()
    }
}

impl CallbackSide {
    /// One block from the device (interleaved, at the device's rate).
    pub fn block<S: DeviceSample>(&mut self, data: &[S]) {
        let at = Instant::now();
        if data.is_empty() {
            return;
        }
        if self.marks.is_full() {
            self.dropped.fetch_add(data.len() as u64, Ordering::Relaxed);
            return;
        }
        match self.samples.write_chunk_uninit(data.len()) {
            Ok(chunk) => {
                let n = chunk.fill_from_iter(data.iter().map(|s| s.to_f32()));
                let _ = self.marks.push(Mark { samples: n, at });
            }
            Err(_) => {
                self.dropped.fetch_add(data.len() as u64, Ordering::Relaxed);
                return;
            }
        }
        if let Some(t) = &self.waker {
            t.unpark();
        }
    }
}

/// The capture thread's side: device blocks from the ring, converted to
/// 16 kHz mono, to `sink` with the moment their last sample was captured.
pub struct CaptureSide<F> {
    samples: Consumer<f32>,
    marks: Consumer<Mark>,
    converter: InputConverter,
    sink: F,
    dropped: Arc<AtomicU64>,
    reported: u64,
}

impl<F: FnMut(Vec<i16>, Instant)> CaptureSide<F> {
    /// Converts every block in the ring and hands the result to the sink
    /// in one chunk (nothing when no block completed a 16 kHz sample).
    /// `false` once the callback side is gone and the ring is empty.
    pub fn drain(&mut self) -> bool {
        let mut out: Vec<i16> = Vec::new();
        let mut last = None;
        while let Ok(mark) = self.marks.pop() {
            if let Ok(chunk) = self.samples.read_chunk(mark.samples) {
                let (a, b) = chunk.as_slices();
                out.extend_from_slice(self.converter.push(a));
                out.extend_from_slice(self.converter.push(b));
                chunk.commit_all();
            }
            last = Some(mark.at);
        }
        let dropped = self.dropped.load(Ordering::Relaxed);
        if dropped > self.reported {
            eprintln!(
                "annabella voice: {} device samples lost (the capture thread fell behind)",
                dropped - self.reported
            );
            self.reported = dropped;
        }
        if let Some(at) = last
            && !out.is_empty()
        {
            (self.sink)(out, at);
        }
        !(self.marks.is_abandoned() && self.marks.is_empty())
    }
}

/// The two sides of a capture of a stream at `rate` Hz with `channels`
/// interleaved channels, the ring holding `ring_frames` frames. The
/// callback side wakes nobody: [`capture`] gives one that wakes its
/// thread.
///
/// # Errors
///
/// A rate of zero.
pub fn capture_pair<F: FnMut(Vec<i16>, Instant)>(
    rate: u32,
    channels: usize,
    ring_frames: usize,
    sink: F,
) -> Result<(CallbackSide, CaptureSide<F>), MicError> {
    let converter =
        InputConverter::new(rate, channels).map_err(|e| MicError::Rate { rate: e.from })?;
    let (samples_tx, samples_rx) = RingBuffer::new(ring_frames.max(1) * channels.max(1));
    let (marks_tx, marks_rx) = RingBuffer::new(MARKS);
    let dropped = Arc::new(AtomicU64::new(0));
    Ok((
        CallbackSide {
            samples: samples_tx,
            marks: marks_tx,
            waker: None,
            dropped: dropped.clone(),
        },
        CaptureSide {
            samples: samples_rx,
            marks: marks_rx,
            converter,
            sink,
            dropped,
            reported: 0,
        },
    ))
}

/// The capture thread; dropping it stops it (after the callback side,
/// which the stream owns, is gone).
#[derive(Debug)]
pub struct CaptureThread {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Drop for CaptureThread {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            h.thread().unpark();
            let _ = h.join();
        }
    }
}

/// A capture of a stream at `rate` Hz with `channels` channels: the
/// callback's side, and the thread that converts what it captures and
/// hands it to `sink`.
///
/// # Errors
///
/// A rate of zero, or no thread.
pub fn capture<F: FnMut(Vec<i16>, Instant) + Send + 'static>(
    rate: u32,
    channels: usize,
    sink: F,
) -> Result<(CallbackSide, CaptureThread), MicError> {
    let frames = (rate * RING_SECONDS) as usize;
    let (mut callback, mut side) = capture_pair(rate, channels, frames, sink)?;
    let stop = Arc::new(AtomicBool::new(false));
    let stopping = stop.clone();
    let handle = std::thread::Builder::new()
        .name("annabella-mic".to_owned())
        .spawn(move || {
            while side.drain() && !stopping.load(Ordering::SeqCst) {
                std::thread::park_timeout(IDLE);
            }
        })
        .map_err(|e| MicError::no_thread(&e))?;
    callback.waker = Some(handle.thread().clone());
    Ok((
        callback,
        CaptureThread {
            stop,
            handle: Some(handle),
        },
    ))
}

/// The callback of an input stream: [`CallbackSide::block`] alone.
#[cfg(feature = "voice")]
fn callback<S: DeviceSample>(
    mut side: CallbackSide,
) -> impl FnMut(&[S], &cpal::InputCallbackInfo) + Send + 'static {
    move |data: &[S], _: &cpal::InputCallbackInfo| side.block(data)
}

/// An open input stream that hands its 16 kHz mono chunks, with the
/// moment the last sample of each was captured, to a function (called on
/// the capture thread, never on the audio thread); dropping it stops the
/// capture.
pub struct MicStream {
    // Dropped first: the callback (and its side of the ring) goes before
    // the capture thread is stopped.
    _stream: Stream,
    _thread: CaptureThread,
    /// Device description for messages.
    pub name: String,
}

impl std::fmt::Debug for MicStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MicStream")
            .field("name", &self.name)
            .finish()
    }
}

impl MicStream {
    /// Opens the default input device; `sink` gets every chunk as it is
    /// captured.
    pub fn open(
        sink: impl FnMut(Vec<i16>, Instant) + Send + 'static,
    ) -> Result<MicStream, MicError> {
        let (stream, thread, name) = open_stream(sink)?;
        Ok(MicStream {
            _stream: stream,
            _thread: thread,
            name,
        })
    }
}

/// Built without the `voice` feature: there is no microphone.
#[cfg(not(feature = "voice"))]
fn open_stream(
    _sink: impl FnMut(Vec<i16>, Instant) + Send + 'static,
) -> Result<(Stream, CaptureThread, String), MicError> {
    Err(MicError::NotBuilt)
}

#[cfg(feature = "voice")]
fn open_stream(
    sink: impl FnMut(Vec<i16>, Instant) + Send + 'static,
) -> Result<(Stream, CaptureThread, String), MicError> {
    let host = cpal::default_host();
    let device = host.default_input_device().ok_or(MicError::NoDevice)?;
    let name = device
        .description()
        .map(|d| d.to_string())
        .unwrap_or_else(|_| "default".to_owned());
    let supported = device
        .default_input_config()
        .map_err(|e| MicError::logged("its configuration", &e))?;
    let config = supported.config();
    let channels = usize::from(config.channels.max(1));
    let rate = config.sample_rate;
    let err_fn = |_e: cpal::Error| {};
    let (side, thread) = capture(rate, channels, sink)?;
    let stream = match supported.sample_format() {
        cpal::SampleFormat::F32 => {
            device.build_input_stream(config, callback::<f32>(side), err_fn, None)
        }
        cpal::SampleFormat::I16 => {
            device.build_input_stream(config, callback::<i16>(side), err_fn, None)
        }
        cpal::SampleFormat::I32 => {
            device.build_input_stream(config, callback::<i32>(side), err_fn, None)
        }
        other => {
            return Err(MicError::UnsupportedFormat {
                format: other.to_string(),
            });
        }
    }
    .map_err(|e| MicError::logged("its stream", &e))?;
    stream
        .play()
        .map_err(|e| MicError::logged("starting its stream", &e))?;
    Ok((stream, thread, name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    const RATE: u32 = 48_000;

    /// Block sizes as devices deliver them: odd, changing, some tiny.
    const BLOCKS: [usize; 8] = [441, 1, 1023, 17, 4097, 333, 960, 2];

    /// `seconds` of 48 kHz stereo: the same 1 kHz tone on both channels,
    /// and on the right one also a 10 kHz tone (above 16 kHz's Nyquist
    /// frequency: it must not come back as a 6 kHz tone).
    fn stereo(seconds: usize) -> Vec<f32> {
        let w = |hz: f64, i: usize| {
            (2.0 * std::f64::consts::PI * hz * i as f64 / f64::from(RATE)).sin()
        };
        (0..seconds * RATE as usize)
            .flat_map(|i| {
                let speech = 0.3 * w(1000.0, i);
                [speech as f32, (speech + 0.3 * w(10_000.0, i)) as f32]
            })
            .collect()
    }

    /// Feeds `audio` in [`BLOCKS`] to `convert` (one device block in, its
    /// 16 kHz samples out) and checks what came out: as many samples as
    /// the time fed (less the converter's latency, at most 15 ms) and the
    /// 1 kHz tone alone, at its place in time (within 1% of its level).
    fn check(audio: &[f32], mut convert: impl FnMut(&[f32]) -> Vec<i16>) -> Result<(), Vec<Wrong>> {
        let mut out = Vec::new();
        let mut rest = audio;
        for n in BLOCKS.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let n = (n * 2).min(rest.len());
            out.extend(convert(&rest[..n]));
            rest = &rest[n..];
        }
        let fed = audio.len() / 2 / 3;
        let latency = 15 * 16;
        let mut wrong = Vec::new();
        if out.len() > fed || out.len() + latency < fed {
            wrong.push(Wrong::Samples {
                got: out.len(),
                fed,
            });
        }
        let ideal =
            |k: usize| 0.3 * (2.0 * std::f64::consts::PI * 1000.0 * k as f64 / 16_000.0).sin();
        let (mut err, mut n) = (0.0f64, 0usize);
        for (k, &s) in out.iter().enumerate().skip(160) {
            let e = f64::from(s) / 32767.0 - ideal(k);
            err += e * e;
            n += 1;
        }
        let err = (err / n.max(1) as f64).sqrt() / (0.3 / 2f64.sqrt());
        if err > 0.01 {
            wrong.push(Wrong::Off {
                percent: 100.0 * err,
            });
        }
        if wrong.is_empty() { Ok(()) } else { Err(wrong) }
    }

    /// What [`check`] found wrong.
    #[derive(Debug, PartialEq)]
    enum Wrong {
        /// Samples out for the 16 kHz samples fed.
        Samples { got: usize, fed: usize },
        /// The tone's error, in percent of its level.
        Off { percent: f64 },
    }

    /// Every reason is worded in every built-in locale, each differently,
    /// with its value filled in, and translated (not the English words).
    #[test]
    fn every_microphone_error_is_worded_in_every_locale() {
        let en = crate::locale::builtin("en").unwrap();
        for code in crate::locale::builtin_codes() {
            let l = crate::locale::builtin(code).unwrap();
            let texts: Vec<String> = MicError::every_kind()
                .iter()
                .map(|e| e.describe(&l))
                .collect();
            for (e, t) in MicError::every_kind().iter().zip(&texts) {
                assert!(
                    !t.trim().is_empty() && !t.contains('{'),
                    "{code} {e:?}: {t}"
                );
                if l.language != "en" {
                    assert_ne!(t, &e.describe(&en), "{code} {e:?}: not translated");
                }
            }
            let distinct: std::collections::BTreeSet<&String> = texts.iter().collect();
            assert_eq!(distinct.len(), texts.len(), "{code}: {texts:#?}");
            assert!(
                texts[5].contains("u8") && texts[8].contains('0'),
                "{texts:#?}"
            );
        }
    }

    /// cpal's kinds of error become what the player can act on; its text
    /// is never part of the reason.
    #[cfg(feature = "voice")]
    #[test]
    fn the_sound_systems_errors_become_kinds_without_their_text() {
        use cpal::ErrorKind as K;
        let de = crate::locale::builtin("de").unwrap();
        for (kind, want) in [
            (K::DeviceNotAvailable, MicError::Unavailable),
            (K::HostUnavailable, MicError::NoSoundSystem),
            (K::DeviceBusy, MicError::Busy),
            (K::PermissionDenied, MicError::PermissionDenied),
            (K::UnsupportedOperation, MicError::NoDevice),
            (K::UnsupportedConfig, MicError::UnsupportedConfig),
            (K::ResourceExhausted, MicError::Resources),
            (K::BackendError, MicError::Backend),
            (K::Other, MicError::Backend),
        ] {
            let e = cpal::Error::with_message(kind, "ALSA function 'snd_pcm_open' failed");
            let got = MicError::logged("a test", &e);
            assert_eq!(got, want, "{kind:?}");
            let text = got.describe(&de);
            assert!(
                !text.contains("snd_pcm") && !text.contains("ALSA"),
                "{text}"
            );
        }
    }

    #[test]
    fn stereo_48k_in_odd_blocks_comes_out_as_16k_mono_without_loss_drift_or_alias() {
        let audio = stereo(30);
        // As the microphone hands its chunks over: through a channel.
        let (tx, rx) = channel();
        let (mut callback, mut capture) = capture_pair(RATE, 2, 48_000, move |c, _| {
            let _ = tx.send(c);
        })
        .expect("a converter");
        let r = check(&audio, |block| {
            callback.block(block);
            capture.drain();
            rx.try_iter().flatten().collect()
        });
        assert_eq!(r, Ok(()));
        // The same through the device's integer formats.
        let as_i16: Vec<i16> = audio.iter().map(|s| (s * 32767.0) as i16).collect();
        let (tx, rx) = channel();
        let (mut callback, mut capture) = capture_pair(RATE, 2, 48_000, move |c, _| {
            let _ = tx.send(c);
        })
        .expect("a converter");
        let mut pos = 0;
        let r = check(&audio, |block| {
            callback.block(&as_i16[pos..pos + block.len()]);
            capture.drain();
            pos += block.len();
            rx.try_iter().flatten().collect()
        });
        assert_eq!(r, Ok(()));
    }

    /// The check above can fail: the conversion this stream had before (a
    /// fresh linear interpolation of every block, without a filter) fails
    /// it, losing the fraction of a sample at each block's edge and
    /// folding the 10 kHz tone back.
    #[test]
    fn the_check_fails_on_a_stateless_linear_resampling_of_each_block() {
        fn linear(input: &[f32], from: u32, to: u32) -> Vec<f32> {
            let ratio = f64::from(from) / f64::from(to);
            let out_len = ((input.len() as f64) / ratio).floor() as usize;
            (0..out_len)
                .map(|i| {
                    let pos = i as f64 * ratio;
                    let idx = pos.floor() as usize;
                    let frac = (pos - idx as f64) as f32;
                    let a = input[idx.min(input.len() - 1)];
                    let b = input[(idx + 1).min(input.len() - 1)];
                    a + (b - a) * frac
                })
                .collect()
        }
        let r = check(&stereo(30), |block| {
            let mono: Vec<f32> = block.chunks(2).map(|f| (f[0] + f[1]) / 2.0).collect();
            linear(&mono, RATE, 16_000)
                .iter()
                .map(|s| (s.clamp(-1.0, 1.0) * 32767.0).round() as i16)
                .collect()
        });
        assert!(r.is_err(), "{r:?}");
        println!("per-block linear interpolation: {:?}", r.unwrap_err());
    }

    #[test]
    fn ten_minutes_of_44k_stereo_in_odd_blocks_do_not_drift() {
        // A click at every minute; the stream in changing odd blocks.
        const RATE: u32 = 44_100;
        let minute = 60 * RATE as usize;
        let frames = 10 * minute + RATE as usize;
        let (tx, rx) = channel();
        let (mut callback, mut capture) = capture_pair(RATE, 2, 48_000, move |c, _| {
            let _ = tx.send(c);
        })
        .expect("a converter");
        let mut block = Vec::new();
        let mut fed = 0usize;
        let mut out: Vec<i16> = Vec::new();
        for n in BLOCKS.iter().cycle() {
            if fed == frames {
                break;
            }
            let n = (*n).min(frames - fed);
            block.clear();
            for i in fed..fed + n {
                let click = if i > 0 && i % minute == 0 { 0.9 } else { 0.0 };
                block.extend([click, click]);
            }
            callback.block(&block);
            capture.drain();
            out.extend(rx.try_iter().flatten());
            fed += n;
        }
        // Each click is where its minute is at 16 kHz, to the sample.
        for k in 1..=10usize {
            let at = k * 60 * 16_000;
            assert!(out.len() > at + 100, "{} samples", out.len());
            let peak = (at - 100..at + 100)
                .max_by_key(|&i| out[i].unsigned_abs())
                .unwrap_or(0);
            assert_eq!(peak, at, "minute {k}");
        }
        // And the stream has as many samples as its time, less the
        // converter's latency (at most 15 ms).
        let want = 601 * 16_000;
        assert!(
            out.len() <= want && out.len() + 15 * 16 >= want,
            "{}",
            out.len()
        );
    }

    /// The capture thread: what the callback side puts in the ring comes
    /// out converted, stamped with the moment its last block was captured;
    /// a full ring drops blocks without waiting; dropping the thread
    /// stops it.
    #[test]
    fn the_capture_thread_converts_what_the_callback_rings_and_a_full_ring_never_waits() {
        let (tx, rx) = channel();
        let (mut callback, thread) = capture(48_000, 2, move |c, at| {
            let _ = tx.send((c.len(), at));
        })
        .expect("a capture");
        let start = Instant::now();
        let block = vec![0.1f32; 2 * 480];
        for _ in 0..100 {
            callback.block(&block);
            std::thread::sleep(Duration::from_millis(1));
        }
        let mut got = 0;
        let deadline = Instant::now() + Duration::from_secs(10);
        while got + 15 * 16 < 100 * 160 && Instant::now() < deadline {
            if let Ok((n, at)) = rx.recv_timeout(Duration::from_millis(100)) {
                assert!(at >= start && at <= Instant::now(), "stamped when captured");
                got += n;
            }
        }
        assert!(got + 15 * 16 >= 100 * 160, "{got} samples for one second");
        drop(callback);
        drop(thread);

        // A ring of 100 frames and nobody draining it: the callback drops
        // what does not fit and returns at once.
        let (mut callback, mut side) = capture_pair(48_000, 2, 100, |_, _| {}).expect("pair");
        let t = Instant::now();
        for _ in 0..1000 {
            callback.block(&block);
        }
        assert!(t.elapsed() < Duration::from_secs(1));
        assert!(side.dropped.load(Ordering::Relaxed) >= 999 * 960);
        assert!(side.drain(), "the callback side is still there");
        drop(callback);
        assert!(!side.drain(), "gone and drained");
    }
}
