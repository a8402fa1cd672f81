//! Is there a voice in this sound? (pure core)
//!
//! Vosk with a small grammar hears *something* in almost any sound: loud
//! noise is often heard as a short command word, with full confidence from
//! both decodings. Every word a player says (move, command, number, yes or
//! no) has vowels, and a vowel is voiced: the vocal folds make it periodic
//! at the pitch of the voice (about 60–400 Hz). Noise is not periodic. A
//! decision is therefore made only on an utterance with enough voiced
//! speech ([`VoicingSettings::min_voiced_ms`]); anything else is "nothing
//! heard".
//!
//! The measure, per 20 ms window every 10 ms, on 16 kHz audio:
//! 1. a difference (`x[n] - x[n-1]`): brown noise (a random walk) becomes
//!    white and pink noise nearly so, so their slow swings do not look
//!    periodic; then a low-pass at 1 kHz: a voice's first harmonics, whose
//!    periodicity survives the glide of its pitch;
//! 2. the normalized cross-correlation of the window with itself shifted
//!    by every lag of the pitch range (40–266 samples: 400–60 Hz); its
//!    peak is near 1 for a voiced frame and low for noise;
//! 3. a frame is voiced when that peak reaches
//!    [`VoicingSettings::min_correlation`], the window is not near digital
//!    silence, and it is not a tone above the pitch range (a beep or
//!    whistle correlates as well at a lag shorter than 40);
//! 4. voiced frames count only in runs of [`VoicingSettings::min_run`]
//!    frames whose pitch stays within 25 % from frame to frame; a run
//!    under way goes on through frames that correlate only
//!    [`VoicingSettings::keep_correlation`] at a steady pitch (a vowel's
//!    pitch glides; noise does not stay at one pitch). Noise gives at most
//!    a stray frame or two.
//!
//! Whispered speech has no voicing and is not heard (out of scope). A
//! sustained tone or hum in the pitch range is "voiced": it passes this
//! check (and then rarely makes a word of the grammar).
//!
//! [`VoicingMeter`] is fed the audio as it arrives (no I/O, no clock);
//! [`voiced_ms`] measures a whole recording.

use serde::{Deserialize, Serialize};

/// Sample rate the meter expects (the recognizers' rate).
pub const RATE: usize = 16_000;
/// Hop between analysis windows, in samples (10 ms).
pub const HOP: usize = RATE / 100;
/// Shortest lag of the pitch range (400 Hz).
pub const MIN_LAG: usize = RATE / 400;
/// Longest lag of the pitch range (about 60 Hz).
pub const MAX_LAG: usize = 266;
/// Shortest lag searched for tones above the pitch range (1 kHz).
pub const TONE_LAG: usize = RATE / 1000;
/// Pre-emphasis coefficient: a plain difference, which makes brown noise
/// (a random walk) white.
pub const PRE_EMPHASIS: f32 = 1.0;
/// Low-pass cut-off: a voice's first harmonics, where its periodicity
/// survives the glide of its pitch.
pub const LOWPASS_HZ: f32 = 1000.0;

/// How much voice an utterance needs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VoicingSettings {
    /// An utterance with less voiced speech than this is not decided
    /// (0: the check is off).
    pub min_voiced_ms: u32,
    /// A frame is voiced when its normalized autocorrelation peak in the
    /// pitch range reaches this (0–1).
    pub min_correlation: f32,
    /// …or, in a run already under way and at a pitch within 25 % of the
    /// last frame's, this (a vowel's pitch glides; noise does not stay at
    /// one pitch).
    pub keep_correlation: f32,
    /// Voiced frames count only in runs of at least this many (10 ms each).
    pub min_run: u32,
    /// Windows quieter than this RMS (after pre-emphasis, of 32767) are
    /// never voiced.
    pub min_rms: f32,
    /// Pre-emphasis coefficient (0: none).
    pub pre_emphasis: f32,
    /// Low-pass cut-off of the analysed signal, Hz (0: none).
    pub lowpass_hz: f32,
    /// Analysis window, ms (10 ms apart).
    pub window_ms: u32,
}

impl Default for VoicingSettings {
    fn default() -> VoicingSettings {
        VoicingSettings {
            min_voiced_ms: 80,
            min_correlation: 0.55,
            keep_correlation: 0.3,
            min_run: 4,
            min_rms: 20.0,
            pre_emphasis: PRE_EMPHASIS,
            lowpass_hz: LOWPASS_HZ,
            window_ms: 20,
        }
    }
}

impl VoicingSettings {
    /// The check switched off: every utterance passes.
    pub fn off() -> VoicingSettings {
        VoicingSettings {
            min_voiced_ms: 0,
            ..VoicingSettings::default()
        }
    }

    /// Is the check on?
    pub fn is_on(&self) -> bool {
        self.min_voiced_ms > 0
    }

    /// The analysis window in samples (at least 10 ms).
    pub fn window(&self) -> usize {
        RATE / 1000 * self.window_ms.clamp(10, 100) as usize
    }

    /// Does a measured amount of voiced speech pass?
    pub fn passes(&self, voiced_ms: u32) -> bool {
        voiced_ms >= self.min_voiced_ms
    }
}

/// What one analysis window looked like.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameVoicing {
    /// The peak of the normalized autocorrelation in the pitch range.
    pub correlation: f32,
    /// Its lag in samples (the pitch period).
    pub lag: usize,
    /// RMS of the pre-emphasized window.
    pub rms: f32,
    /// The window is periodic at a lag shorter than the pitch range just
    /// as strongly (a tone above 400 Hz).
    pub tone: bool,
}

impl FrameVoicing {
    /// Is this frame voiced under `s` (before the run rule)?
    pub fn voiced(&self, s: &VoicingSettings) -> bool {
        self.rms >= s.min_rms && self.correlation >= s.min_correlation && !self.tone
    }
}

/// Analyses one window of `window` samples: `x` holds at least
/// `window + MAX_LAG` shaped samples (the window and what follows it, for
/// the lags). `None` if it holds fewer.
pub fn analyse(x: &[f32], window: usize) -> Option<FrameVoicing> {
    if window == 0 || x.len() < window + MAX_LAG {
        return None;
    }
    let head = &x[..window];
    let e0: f32 = head.iter().map(|v| v * v).sum();
    let rms = (e0 / window as f32).sqrt();
    // Energy of the shifted window for every lag, by running sums.
    let mut e_lag: f32 = x[TONE_LAG..TONE_LAG + window].iter().map(|v| v * v).sum();
    let mut r = [0.0f32; MAX_LAG + 2];
    for lag in TONE_LAG..=MAX_LAG {
        if lag > TONE_LAG {
            let out = x[lag - 1];
            let inn = x[lag + window - 1];
            e_lag = (e_lag - out * out + inn * inn).max(0.0);
        }
        let shifted = &x[lag..lag + window];
        let cross: f32 = head.iter().zip(shifted).map(|(a, b)| a * b).sum();
        let denom = (e0 * e_lag).sqrt();
        r[lag] = if denom > 1e-9 {
            (cross / denom).clamp(-1.0, 1.0)
        } else {
            0.0
        };
    }
    let best_tone = r[TONE_LAG..MIN_LAG].iter().fold(0.0f32, |m, v| m.max(*v));
    let correlation = r[MIN_LAG..=MAX_LAG].iter().fold(0.0f32, |m, v| m.max(*v));
    // The period is the shortest lag that correlates nearly as well as the
    // best (twice the period correlates as well as the period itself).
    let lag = (MIN_LAG..=MAX_LAG)
        .find(|&l| r[l] >= 0.85 * correlation && r[l] >= r[l - 1] && r[l] >= r[l + 1])
        .unwrap_or(MIN_LAG);
    Some(FrameVoicing {
        correlation,
        lag,
        rms,
        // A voice's shorter lags (half the period and less) correlate
        // weakly; a tone above the range repeats there as well as at the
        // period found.
        tone: best_tone >= 0.8 && best_tone + 0.02 >= correlation,
    })
}

/// RBJ low-pass biquad (Q = 1/√2), direct form I.
#[derive(Debug, Clone, Copy)]
struct Biquad {
    b: [f32; 3],
    a: [f32; 2],
    x: [f32; 2],
    y: [f32; 2],
}

impl Biquad {
    fn lowpass(hz: f32) -> Biquad {
        let w = 2.0 * std::f32::consts::PI * (hz / RATE as f32).clamp(1e-4, 0.49);
        let alpha = w.sin() / std::f32::consts::SQRT_2;
        let c = w.cos();
        let a0 = 1.0 + alpha;
        Biquad {
            b: [(1.0 - c) / 2.0 / a0, (1.0 - c) / a0, (1.0 - c) / 2.0 / a0],
            a: [-2.0 * c / a0, (1.0 - alpha) / a0],
            x: [0.0; 2],
            y: [0.0; 2],
        }
    }

    fn next(&mut self, v: f32) -> f32 {
        let y = self.b[0] * v + self.b[1] * self.x[0] + self.b[2] * self.x[1]
            - self.a[0] * self.y[0]
            - self.a[1] * self.y[1];
        self.x = [v, self.x[0]];
        self.y = [y, self.y[0]];
        y
    }
}

/// Pre-emphasis, then a fourth-order low-pass: the band where a voice's
/// first harmonics are, with coloured noise made nearly white in it.
#[derive(Debug, Clone, Copy)]
struct Shaping {
    pre_emphasis: f32,
    last: f32,
    lowpass: Option<[Biquad; 2]>,
}

impl Shaping {
    fn new(s: &VoicingSettings) -> Shaping {
        Shaping {
            pre_emphasis: s.pre_emphasis,
            last: 0.0,
            lowpass: (s.lowpass_hz > 0.0)
                .then(|| [Biquad::lowpass(s.lowpass_hz), Biquad::lowpass(s.lowpass_hz)]),
        }
    }

    fn next(&mut self, s: i16) -> f32 {
        let v = f32::from(s);
        let mut e = v - self.pre_emphasis * self.last;
        self.last = v;
        if let Some([a, b]) = self.lowpass.as_mut() {
            e = b.next(a.next(e));
        }
        e
    }
}

/// Measures voiced speech in audio fed in any chunk size (16 kHz mono).
#[derive(Debug, Clone)]
pub struct VoicingMeter {
    settings: VoicingSettings,
    /// Pre-emphasized samples not yet analysed as a window start (with
    /// the tail the lags need).
    buf: Vec<f32>,
    shaping: Shaping,
    run: u32,
    run_lag: usize,
    voiced_frames: u32,
    frames: u32,
    best_run: u32,
}

impl VoicingMeter {
    /// A meter for `settings`.
    pub fn new(settings: VoicingSettings) -> VoicingMeter {
        VoicingMeter {
            settings,
            buf: Vec::with_capacity(2 * (settings.window() + MAX_LAG)),
            shaping: Shaping::new(&settings),
            run: 0,
            run_lag: 0,
            voiced_frames: 0,
            frames: 0,
            best_run: 0,
        }
    }

    /// The settings.
    pub fn settings(&self) -> &VoicingSettings {
        &self.settings
    }

    /// Forgets everything fed so far (a new utterance).
    pub fn reset(&mut self) {
        *self = VoicingMeter::new(self.settings);
    }

    /// Feeds samples.
    pub fn push(&mut self, samples: &[i16]) {
        for &s in samples {
            let v = self.shaping.next(s);
            self.buf.push(v);
        }
        let window = self.settings.window();
        let need = window + MAX_LAG;
        let mut start = 0;
        while self.buf.len() - start >= need {
            if let Some(f) = analyse(&self.buf[start..start + need], window) {
                self.count(f);
            }
            start += HOP;
        }
        if start > 0 {
            self.buf.drain(..start);
        }
    }

    fn count(&mut self, f: FrameVoicing) {
        self.frames += 1;
        let s = &self.settings;
        let steady = self.run > 0 && {
            let (a, b) = (f.lag as f32, self.run_lag as f32);
            a <= b * 1.25 && b <= a * 1.25
        };
        let kept = steady
            && f.rms >= s.min_rms
            && !f.tone
            && f.correlation >= s.keep_correlation.min(s.min_correlation);
        if !kept && !f.voiced(s) {
            self.run = 0;
            return;
        }
        self.run = if steady { self.run + 1 } else { 1 };
        self.run_lag = f.lag;
        let min_run = self.settings.min_run.max(1);
        if self.run == min_run {
            self.voiced_frames += min_run;
        } else if self.run > min_run {
            self.voiced_frames += 1;
        }
        self.best_run = self.best_run.max(self.run);
    }

    /// Voiced speech so far, in milliseconds (frames in qualifying runs).
    pub fn voiced_ms(&self) -> u32 {
        self.voiced_frames * (1000 * HOP as u32 / RATE as u32)
    }

    /// Windows analysed so far.
    pub fn frames(&self) -> u32 {
        self.frames
    }

    /// The longest run of voiced frames, in milliseconds.
    pub fn longest_run_ms(&self) -> u32 {
        self.best_run * (1000 * HOP as u32 / RATE as u32)
    }

    /// Is there enough voiced speech so far? (Always, with the check off.)
    pub fn passes(&self) -> bool {
        self.settings.passes(self.voiced_ms())
    }
}

/// Every analysis window of a whole recording (16 kHz mono), 10 ms apart.
pub fn frames(samples: &[i16], settings: &VoicingSettings) -> Vec<FrameVoicing> {
    let mut shaping = Shaping::new(settings);
    let x: Vec<f32> = samples.iter().map(|&s| shaping.next(s)).collect();
    let mut out = Vec::new();
    let mut start = 0;
    let window = settings.window();
    while start + window + MAX_LAG <= x.len() {
        if let Some(f) = analyse(&x[start..start + window + MAX_LAG], window) {
            out.push(f);
        }
        start += HOP;
    }
    out
}

/// Voiced speech in a whole recording (16 kHz mono), in milliseconds.
pub fn voiced_ms(samples: &[i16], settings: VoicingSettings) -> u32 {
    let mut m = VoicingMeter::new(settings);
    m.push(samples);
    m.voiced_ms()
}

/// Does a whole recording hold enough voiced speech to be decided?
pub fn has_voice(samples: &[i16], settings: VoicingSettings) -> bool {
    !settings.is_on() || settings.passes(voiced_ms(samples, settings))
}

#[cfg(test)]
mod tests;
