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
//! A sustained tone, hum or chord in the pitch range is periodic too, so
//! the voiced frames are also checked for what only a voice does: every
//! word moves its formants (the vocal tract changes shape from sound to
//! sound), and a human voice does not hold one pitch for a whole
//! utterance. For every voiced frame the meter keeps its pitch and its
//! spectral shape: the log energies of six bands from 300 Hz to 3.2 kHz
//! (where the first formants are), less their mean, so loudness does not
//! count. An utterance whose voiced frames hold one pitch
//! ([`VoicingSettings::tone_steady_share`] of them within
//! [`VoicingSettings::tone_pitch_spread`] of the median pitch) **and** one
//! spectral shape (the shapes, smoothed over 50 ms, stay within
//! [`VoicingSettings::tone_max_movement`] of their median for all but the
//! onset and end) for [`VoicingSettings::tone_min_ms`] or more is a
//! sustained tone: not a voice.
//! Speech in a monotone (a robot voice) still moves its formants, and a
//! hum under speech does not hold the pitch while the voice speaks.
//!
//! Whispered speech has no voicing and is not heard (out of scope).
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
/// Bands of the spectral shape (the tone check).
pub const BANDS: usize = 6;
/// Their centre frequencies, Hz (two-thirds of an octave apart: where the
/// first two formants move).
pub const BAND_HZ: [f32; BANDS] = [300.0, 500.0, 800.0, 1250.0, 2000.0, 3150.0];
/// Voiced frames kept for the tone check (30 s; later ones are not kept).
pub const MAX_TRACKED: usize = 3000;

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
    /// A sustained tone holds its pitch: at least this share (0–1) of the
    /// voiced frames lie within [`VoicingSettings::tone_pitch_spread`] of
    /// their median pitch period (above 1: the tone check is off).
    pub tone_steady_share: f32,
    /// See `tone_steady_share`: the relative spread of the period (0.03:
    /// within 3 %).
    pub tone_pitch_spread: f32,
    /// …and holds its spectral shape: the smoothed band shapes of its
    /// voiced frames stay within this (RMS over the bands, natural log
    /// units: 0.2 is under 2 dB) of their median shape, except for a
    /// tenth of the frames (onset and end). 0: the tone check is off.
    pub tone_max_movement: f32,
    /// Only this much voiced sound or more is judged a sustained tone (a
    /// short word can hold one vowel at one pitch).
    pub tone_min_ms: u32,
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
            tone_steady_share: 0.9,
            tone_pitch_spread: 0.03,
            tone_max_movement: 0.2,
            tone_min_ms: 200,
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

    /// Is the sustained-tone check on?
    pub fn checks_tones(&self) -> bool {
        self.is_on() && self.tone_max_movement > 0.0 && self.tone_steady_share <= 1.0
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
    /// RBJ band-pass with 0 dB peak gain.
    fn bandpass(hz: f32, q: f32) -> Biquad {
        let w = 2.0 * std::f32::consts::PI * (hz / RATE as f32).clamp(1e-4, 0.49);
        let alpha = w.sin() / (2.0 * q);
        let c = w.cos();
        let a0 = 1.0 + alpha;
        Biquad {
            b: [alpha / a0, 0.0, -alpha / a0],
            a: [-2.0 * c / a0, (1.0 - alpha) / a0],
            x: [0.0; 2],
            y: [0.0; 2],
        }
    }

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

/// Band energies of the raw signal, per hop (10 ms).
#[derive(Debug, Clone, Copy)]
struct Bands {
    filters: [Biquad; BANDS],
    acc: [f32; BANDS],
    n: usize,
}

impl Bands {
    fn new() -> Bands {
        Bands {
            filters: BAND_HZ.map(|hz| Biquad::bandpass(hz, 1.4)),
            acc: [0.0; BANDS],
            n: 0,
        }
    }

    /// Feeds one sample; the energies of a hop when one is complete.
    fn push(&mut self, v: f32) -> Option<[f32; BANDS]> {
        for (f, a) in self.filters.iter_mut().zip(self.acc.iter_mut()) {
            let y = f.next(v);
            *a += y * y;
        }
        self.n += 1;
        if self.n < HOP {
            return None;
        }
        self.n = 0;
        Some(std::mem::take(&mut self.acc))
    }
}

/// A spectral shape: log band energies less their mean.
pub type Shape = [f32; BANDS];

fn shape_of(energy: &[f32; BANDS]) -> Shape {
    let logs = energy.map(|e| (e.max(0.0) + 1.0).ln());
    let mean = logs.iter().sum::<f32>() / BANDS as f32;
    logs.map(|l| l - mean)
}

/// How much an utterance's voiced frames look like a sustained tone.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ToneMeasure {
    /// Voiced frames measured.
    pub frames: usize,
    /// Share of them within the pitch spread of their median period.
    pub steady_share: f32,
    /// How far their smoothed spectral shapes move from their median
    /// shape (the 90th percentile of the RMS distance, log units).
    pub movement: f32,
}

impl ToneMeasure {
    /// Is this a sustained tone under `s`?
    pub fn is_tone(&self, s: &VoicingSettings) -> bool {
        s.checks_tones()
            && self.frames > 0
            && self.frames as u64 * (1000 * HOP as u64 / RATE as u64) >= u64::from(s.tone_min_ms)
            && self.steady_share >= s.tone_steady_share
            && self.movement <= s.tone_max_movement
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
    bands: Bands,
    /// Band energies of the complete hops from `buf[0]` on.
    hops: std::collections::VecDeque<[f32; BANDS]>,
    run: u32,
    run_lag: usize,
    voiced_frames: u32,
    frames: u32,
    best_run: u32,
    /// Pitch period and shape of the frames of a run not yet long enough.
    pending: Vec<(usize, Shape)>,
    /// …and of every voiced frame counted (at most [`MAX_TRACKED`]).
    tracked: Vec<(usize, Shape)>,
}

impl VoicingMeter {
    /// A meter for `settings`.
    pub fn new(settings: VoicingSettings) -> VoicingMeter {
        VoicingMeter {
            settings,
            buf: Vec::with_capacity(2 * (settings.window() + MAX_LAG)),
            shaping: Shaping::new(&settings),
            bands: Bands::new(),
            hops: std::collections::VecDeque::new(),
            run: 0,
            run_lag: 0,
            voiced_frames: 0,
            frames: 0,
            best_run: 0,
            pending: Vec::new(),
            tracked: Vec::new(),
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
            if let Some(e) = self.bands.push(f32::from(s)) {
                self.hops.push_back(e);
            }
        }
        let window = self.settings.window();
        let need = window + MAX_LAG;
        let mut start = 0;
        while self.buf.len() - start >= need {
            if let Some(f) = analyse(&self.buf[start..start + need], window) {
                let shape = self.shape_at(start / HOP, (window / HOP).max(1));
                self.count(f, shape);
            }
            start += HOP;
        }
        if start > 0 {
            self.buf.drain(..start);
            let hops = (start / HOP).min(self.hops.len());
            self.hops.drain(..hops);
        }
    }

    /// The spectral shape of `n` hops from hop `first` of the buffer.
    fn shape_at(&self, first: usize, n: usize) -> Shape {
        let mut e = [0.0f32; BANDS];
        for hop in self.hops.iter().skip(first).take(n) {
            for (a, b) in e.iter_mut().zip(hop) {
                *a += b;
            }
        }
        shape_of(&e.map(|v| v / n as f32))
    }

    fn count(&mut self, f: FrameVoicing, shape: Shape) {
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
            self.pending.clear();
            return;
        }
        self.run = if steady { self.run + 1 } else { 1 };
        if self.run == 1 {
            self.pending.clear();
        }
        self.run_lag = f.lag;
        let min_run = self.settings.min_run.max(1);
        if self.run < min_run {
            self.pending.push((f.lag, shape));
        } else {
            let room = MAX_TRACKED.saturating_sub(self.tracked.len());
            let pending = std::mem::take(&mut self.pending);
            self.tracked.extend(pending.into_iter().take(room));
            if self.tracked.len() < MAX_TRACKED {
                self.tracked.push((f.lag, shape));
            }
        }
        if self.run == min_run {
            self.voiced_frames += min_run;
        } else if self.run > min_run {
            self.voiced_frames += 1;
        }
        self.best_run = self.best_run.max(self.run);
    }

    /// How much the voiced frames so far look like a sustained tone: the
    /// share holding one pitch and the movement of their spectral shape.
    pub fn tone_measure(&self) -> ToneMeasure {
        let n = self.tracked.len();
        if n == 0 {
            return ToneMeasure::default();
        }
        let mut lags: Vec<usize> = self.tracked.iter().map(|t| t.0).collect();
        lags.sort_unstable();
        let median = lags[n / 2] as f32;
        let spread = (median * self.settings.tone_pitch_spread).max(1.0);
        let steady = lags
            .iter()
            .filter(|&&l| (l as f32 - median).abs() <= spread)
            .count();
        // Shapes smoothed over five frames (50 ms), their median shape,
        // and the distances from it.
        let smoothed: Vec<Shape> = (0..n)
            .map(|i| {
                let lo = i.saturating_sub(2);
                let hi = (i + 2).min(n - 1);
                let mut m = [0.0f32; BANDS];
                for (_, sh) in &self.tracked[lo..=hi] {
                    for (a, b) in m.iter_mut().zip(sh) {
                        *a += b;
                    }
                }
                m.map(|v| v / (hi - lo + 1) as f32)
            })
            .collect();
        let mut median_shape = [0.0f32; BANDS];
        let mut column: Vec<f32> = Vec::with_capacity(n);
        for (b, m) in median_shape.iter_mut().enumerate() {
            column.clear();
            column.extend(smoothed.iter().map(|sh| sh[b]));
            column.sort_by(f32::total_cmp);
            *m = column[n / 2];
        }
        let mut dist: Vec<f32> = smoothed
            .iter()
            .map(|sh| {
                (sh.iter()
                    .zip(&median_shape)
                    .map(|(a, b)| (a - b) * (a - b))
                    .sum::<f32>()
                    / BANDS as f32)
                    .sqrt()
            })
            .collect();
        dist.sort_by(f32::total_cmp);
        ToneMeasure {
            frames: n,
            steady_share: steady as f32 / n as f32,
            movement: dist[(n - 1) * 9 / 10],
        }
    }

    /// Is what was voiced so far a sustained tone (one pitch, one spectral
    /// shape)? Always false with the tone check off.
    pub fn sustained_tone(&self) -> bool {
        self.settings.checks_tones() && self.tone_measure().is_tone(&self.settings)
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

    /// Is there enough voiced speech so far, and is it not a sustained
    /// tone? (Always, with the check off.)
    pub fn passes(&self) -> bool {
        self.settings.passes(self.voiced_ms()) && !self.sustained_tone()
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

/// Does a whole recording hold enough voiced speech to be decided (and
/// is it not a sustained tone)?
pub fn has_voice(samples: &[i16], settings: VoicingSettings) -> bool {
    if !settings.is_on() {
        return true;
    }
    let mut m = VoicingMeter::new(settings);
    m.push(samples);
    m.passes()
}

#[cfg(test)]
mod tests;
