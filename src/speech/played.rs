//! Speech played on the sound card by annabella herself, so that what she
//! plays is known: the echo canceller's reference for hands-free barge-in
//! with a real microphone (issue 14).
//!
//! [`CardSpeaker`] renders each utterance with espeak-ng (16 kHz mono),
//! resamples it to the output device's rate (with the same anti-aliased
//! resampler as the microphone's stream, [`crate::voice::rate`]) and plays
//! it through a cpal output stream. In the output callback, every block handed to the
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
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

use super::espeak::EspeakNg;
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

/// The utterance being played: at 16 kHz, resampled to the device's rate
/// as the device takes it (a stateful resampler per stream: the first
/// sample plays at once, whatever the utterance's length).
#[derive(Debug)]
struct Playing {
    /// 16 kHz speech not yet resampled.
    source: VecDeque<f32>,
    /// Mono samples at the device rate, still to be handed over.
    device: VecDeque<f32>,
    /// The 16 kHz samples (the reference), as handed over.
    original: VecDeque<i16>,
    /// 16 kHz to the device's rate; `None`: the same rate.
    resampler: Option<Resampler>,
    /// The resampler's tail was given (the source ran out).
    flushed: bool,
    scratch: Vec<f32>,
}

/// Samples of speech resampled at a time (10 ms at 16 kHz).
const STEP: usize = 160;

impl Playing {
    fn new(rate: u32) -> Playing {
        Playing {
            source: VecDeque::new(),
            device: VecDeque::new(),
            original: VecDeque::new(),
            resampler: Resampler::new(RATE as u32, rate).ok(),
            flushed: true,
            scratch: Vec::new(),
        }
    }

    /// A new utterance: 16 kHz samples.
    fn start(&mut self, samples: &[i16]) {
        self.clear();
        self.source
            .extend(samples.iter().map(|&s| f32::from(s) / 32_768.0));
        self.original.extend(samples.iter().copied());
        self.flushed = false;
    }

    fn clear(&mut self) {
        self.source.clear();
        self.device.clear();
        self.original.clear();
        if let Some(r) = self.resampler.as_mut() {
            r.reset();
        }
        self.flushed = true;
    }

    /// `true` while anything is still to be played.
    fn busy(&self) -> bool {
        !self.device.is_empty() || !self.source.is_empty()
    }

    /// Resamples until `frames` device samples are ready (or the speech
    /// has all been resampled).
    fn prepare(&mut self, frames: usize) {
        while self.device.len() < frames && !self.flushed {
            self.scratch.clear();
            let n = self.source.len().min(STEP);
            match self.resampler.as_mut() {
                Some(r) if n > 0 => {
                    let (a, b) = self.source.as_slices();
                    let first = a.len().min(n);
                    r.push(&a[..first], &mut self.scratch);
                    r.push(&b[..n - first], &mut self.scratch);
                }
                Some(r) => {
                    r.finish(&mut self.scratch);
                    self.flushed = true;
                }
                None if n > 0 => self.scratch.extend(self.source.range(..n)),
                None => self.flushed = true,
            }
            self.source.drain(..n);
            self.device.extend(self.scratch.iter().copied());
        }
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
) {
    let frames = out.len() / channels.max(1);
    let want = reference_len(frames, rate, carry);
    let mut reference = Vec::with_capacity(want);
    {
        let mut p = playing.lock().unwrap_or_else(|e| e.into_inner());
        p.prepare(frames);
        for frame in out.chunks_mut(channels.max(1)) {
            let s = p.device.pop_front().unwrap_or(0.0);
            frame.fill(s);
        }
        for _ in 0..want {
            reference.push(p.original.pop_front().unwrap_or(0));
        }
        if !p.busy() {
            p.original.clear();
        }
    }
    played.push(&reference, at);
}

/// espeak-ng played by annabella on the default output device, each
/// block also written into a [`Played`] timeline.
pub struct CardSpeaker {
    engine: EspeakNg,
    rate: u32,
    playing: Arc<Mutex<Playing>>,
    played: Played,
    _stream: cpal::Stream,
    device: String,
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
        let playing = Arc::new(Mutex::new(Playing::new(rate)));
        let (p, r) = (playing.clone(), played.clone());
        let mut carry = 0u64;
        let stream = device
            .build_output_stream(
                config,
                move |out: &mut [f32], _: &cpal::OutputCallbackInfo| {
                    fill(out, channels, rate, &mut carry, &p, &r, Instant::now());
                },
                |_e: cpal::Error| {},
                None,
            )
            .map_err(no_audio)?;
        stream.play().map_err(no_audio)?;
        played.set_live(true);
        Ok(CardSpeaker {
            engine,
            rate,
            playing,
            played,
            _stream: stream,
            device: name,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Playing> {
        self.playing.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Speaker for CardSpeaker {
    fn speak(&mut self, u: &Utterance, _priority: Priority) -> Result<(), SpeechError> {
        let samples = self.engine.render(&u.spoken)?;
        self.lock().start(&samples);
        Ok(())
    }
    fn stop(&mut self) {
        self.lock().clear();
    }
    fn is_speaking(&mut self) -> bool {
        self.lock().busy()
    }
    fn name(&self) -> &str {
        "espeak-ng"
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
        let speech = vec![0.03f32; 16_000];
        let resample = crate::voice::rate::resample;
        assert_eq!(resample(&speech, 16_000, 48_000).len(), 48_000);
        assert_eq!(resample(&speech, 16_000, 44_100).len(), 44_100);
    }

    #[test]
    fn the_callback_plays_and_writes_the_reference_and_stop_clears_both() {
        let t0 = Instant::now();
        let played = Played::new(t0);
        let playing = Mutex::new(Playing::new(48_000));
        // 20 ms of speech at 16 kHz: 960 frames at 48 kHz.
        playing.lock().unwrap().start(&[3000i16; 320]);
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
        assert!(out.chunks(2).all(|f| f[0] == f[1]), "both channels");
        let level = out[480..].iter().map(|s| s.abs()).sum::<f32>() / 480.0;
        assert!((level - 3000.0 / 32768.0).abs() < 0.01, "{level}");
        assert_eq!(played.pull(160, t0 + ms(20)), vec![3000; 160]);
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
        assert!(!playing.lock().unwrap().busy());
    }

    #[test]
    fn an_utterance_is_resampled_as_the_device_takes_it_without_loss() {
        // 0.7 s of a tone at 16 kHz, played at 44.1 kHz mono in callbacks
        // of odd sizes: the device gets exactly the whole utterance
        // resampled at once, and it stops speaking at its end.
        let speech: Vec<i16> = (0..11_200)
            .map(|i| ((i as f32 * 0.2).sin() * 8000.0) as i16)
            .collect();
        let whole = crate::voice::rate::resample(
            &speech
                .iter()
                .map(|&s| f32::from(s) / 32_768.0)
                .collect::<Vec<_>>(),
            16_000,
            44_100,
        );
        let played = Played::new(Instant::now());
        let playing = Mutex::new(Playing::new(44_100));
        playing.lock().unwrap().start(&speech);
        let mut carry = 0;
        let mut got = Vec::new();
        for n in [441usize, 1, 1023, 17, 4097, 333].iter().cycle() {
            if !playing.lock().unwrap().busy() {
                break;
            }
            let mut out = vec![0.0f32; *n];
            fill(
                &mut out,
                1,
                44_100,
                &mut carry,
                &playing,
                &played,
                Instant::now(),
            );
            got.extend(out);
        }
        assert_eq!(whole.len(), 30_870);
        assert_eq!(got[..whole.len()], whole[..]);
        assert!(got[whole.len()..].iter().all(|&s| s == 0.0));
    }
}
