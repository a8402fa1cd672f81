//! Noise reduction in front of the recognizer (pure core).
//!
//! A short-time spectral Wiener filter: the audio is cut into frames of
//! 32 ms (512 samples at 16 kHz, half overlapping, square-root Hann
//! windows, so that analysis and synthesis together add up to the input),
//! each frame's spectrum is multiplied by a gain per frequency bin, and the
//! frames are added back together. The noise's power per bin is estimated
//! from the first frames (the room before the player speaks) and then
//! follows the quietest level each bin has had lately (a bin that rises
//! stays noise only slowly: speech does not raise the estimate much). The
//! gain per bin is the Wiener gain of the "decision-directed" a-priori
//! signal-to-noise ratio (Ephraim and Malah), never below a floor (no
//! bin goes silent, which would leave "musical" noise).
//!
//! A quiet room (the lead's noise below [`DenoiseSettings::quiet_rms`]) is
//! left alone: the audio passes unchanged.
//!
//! Streaming: [`Denoiser::push`] takes samples as they come and returns
//! what is finished (after the lead, about 100 ms; filtered audio is
//! delayed by 256 samples, 16 ms); [`Denoiser::finish`] returns the rest.

/// Frame length (samples).
const FRAME: usize = 512;
/// Hop between frames (samples).
const HOP: usize = FRAME / 2;
/// Frequency bins of a real frame.
const BINS: usize = FRAME / 2 + 1;

/// How strongly the filter works.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DenoiseSettings {
    /// The lowest gain of a bin (0–1): 0.1 takes at most 20 dB off.
    pub floor: f32,
    /// Weight of the last frame's estimate in the a-priori SNR (0–1).
    pub smoothing: f32,
    /// How many first frames the first noise estimate is averaged over.
    pub lead_frames: usize,
    /// Per frame, how much the noise estimate of a bin may grow (1.0 =
    /// never; 1.005 is about a third per second).
    pub rise: f32,
    /// A room quieter than this (RMS of the lead's noise, in samples of
    /// 16 bits) is left as it is: the audio passes unchanged and
    /// undelayed.
    pub quiet_rms: f32,
}

impl Default for DenoiseSettings {
    fn default() -> DenoiseSettings {
        DenoiseSettings {
            floor: 0.15,
            smoothing: 0.96,
            lead_frames: 6,
            rise: 1.005,
            quiet_rms: 10.0,
        }
    }
}

/// One utterance's noise reduction (see the module documentation).
#[derive(Debug, Clone)]
pub struct Denoiser {
    settings: DenoiseSettings,
    window: Vec<f32>,
    /// The last `FRAME` input samples (the first half primed with zeros).
    input: Vec<f32>,
    /// Input samples since the last frame.
    fresh: usize,
    /// Overlap-add of the processed frames.
    output: Vec<f32>,
    /// Noise power per bin.
    noise: Vec<f32>,
    /// Smoothed power per bin (for the minimum tracking).
    smoothed: Vec<f32>,
    /// The last frame's clean power estimate per bin (gain² × power).
    last_clean: Vec<f32>,
    frames: usize,
    /// Until the lead is over: the input as it came and what the filter
    /// made of it; then whether the room is quiet (pass the audio on).
    held: Vec<i16>,
    held_out: Vec<i16>,
    quiet: Option<bool>,
    re: Vec<f32>,
    im: Vec<f32>,
}

impl Default for Denoiser {
    fn default() -> Denoiser {
        Denoiser::new(DenoiseSettings::default())
    }
}

impl Denoiser {
    /// A filter with `settings`.
    pub fn new(settings: DenoiseSettings) -> Denoiser {
        // Periodic Hann, square-rooted: at half overlap, the squares add
        // up to 1.
        let window = (0..FRAME)
            .map(|i| {
                let x = std::f32::consts::PI * i as f32 / FRAME as f32;
                x.sin()
            })
            .collect();
        Denoiser {
            settings,
            window,
            input: vec![0.0; FRAME],
            fresh: 0,
            output: vec![0.0; FRAME],
            noise: vec![0.0; BINS],
            smoothed: vec![0.0; BINS],
            last_clean: vec![0.0; BINS],
            frames: 0,
            held: Vec::new(),
            held_out: Vec::new(),
            quiet: None,
            re: vec![0.0; FRAME],
            im: vec![0.0; FRAME],
        }
    }

    /// Takes samples; returns the filtered samples that are finished.
    ///
    /// During the lead nothing is returned; then, in a quiet room, the
    /// audio as it came (unchanged, undelayed), else the filtered audio
    /// (delayed by `HOP` samples).
    pub fn push(&mut self, samples: &[i16]) -> Vec<i16> {
        if self.quiet == Some(true) {
            return samples.to_vec();
        }
        let filtered = self.filter(samples);
        match self.quiet {
            Some(_) => filtered,
            None => {
                self.held.extend_from_slice(samples);
                self.held_out.extend(filtered);
                if self.frames >= self.settings.lead_frames {
                    self.decide()
                } else {
                    Vec::new()
                }
            }
        }
    }

    /// Quiet room or not, from the lead's noise: returns what was held.
    fn decide(&mut self) -> Vec<i16> {
        // White noise of variance v gives each bin v · Σ w² = v · FRAME/2.
        let mean = self.noise.iter().sum::<f32>() / BINS as f32;
        let rms = (mean / (FRAME / 2) as f32).sqrt();
        let quiet = self.frames == 0 || rms < self.settings.quiet_rms;
        self.quiet = Some(quiet);
        let held = std::mem::take(&mut self.held);
        let held_out = std::mem::take(&mut self.held_out);
        if quiet { held } else { held_out }
    }

    /// Whether the room was found quiet (the audio passes unchanged);
    /// `None` during the lead.
    pub fn quiet(&self) -> Option<bool> {
        self.quiet
    }

    fn filter(&mut self, samples: &[i16]) -> Vec<i16> {
        let mut out = Vec::with_capacity(samples.len() + HOP);
        for &s in samples {
            let at = FRAME - HOP + self.fresh;
            self.input[at] = f32::from(s);
            self.fresh += 1;
            if self.fresh == HOP {
                self.frame(&mut out);
            }
        }
        out
    }

    /// The rest of the audio (pushed in, not yet returned).
    pub fn finish(&mut self) -> Vec<i16> {
        let mut out = match self.quiet {
            None => self.decide(),
            Some(_) => Vec::new(),
        };
        if self.quiet == Some(true) {
            return out;
        }
        let pending = self.fresh;
        let mut rest = self.filter(&vec![0; HOP - pending]);
        // The half frame that only the next frame would complete.
        rest.extend(self.filter(&[0; HOP]));
        // `HOP` samples of delay are in; what follows is padding.
        let keep = rest.len().saturating_sub(HOP - pending);
        rest.truncate(keep);
        out.extend(rest);
        out
    }

    fn frame(&mut self, out: &mut Vec<i16>) {
        for i in 0..FRAME {
            self.re[i] = self.input[i] * self.window[i];
            self.im[i] = 0.0;
        }
        fft(&mut self.re, &mut self.im, false);
        let s = self.settings;
        let first = self.frames < s.lead_frames;
        for k in 0..BINS {
            let p = self.re[k] * self.re[k] + self.im[k] * self.im[k];
            if first {
                // The lead: the average of the first frames.
                let n = self.frames as f32;
                self.noise[k] = (self.noise[k] * n + p) / (n + 1.0);
                self.smoothed[k] = self.noise[k];
            } else {
                self.smoothed[k] = 0.7 * self.smoothed[k] + 0.3 * p;
                self.noise[k] = if self.smoothed[k] < self.noise[k] {
                    self.smoothed[k]
                } else {
                    self.noise[k] * s.rise
                };
            }
            let noise = self.noise[k].max(1e-3);
            let post = p / noise;
            let prio = s.smoothing * self.last_clean[k] / noise
                + (1.0 - s.smoothing) * (post - 1.0).max(0.0);
            let gain = (prio / (1.0 + prio)).max(s.floor);
            self.last_clean[k] = gain * gain * p;
            self.re[k] *= gain;
            self.im[k] *= gain;
            if k > 0 && k < FRAME / 2 {
                // The mirrored bin of a real signal.
                self.re[FRAME - k] *= gain;
                self.im[FRAME - k] *= gain;
            }
        }
        self.frames += 1;
        fft(&mut self.re, &mut self.im, true);
        for i in 0..FRAME {
            self.output[i] += self.re[i] * self.window[i];
        }
        out.extend(
            self.output[..HOP]
                .iter()
                .map(|x| x.round().clamp(-32768.0, 32767.0) as i16),
        );
        self.output.copy_within(HOP.., 0);
        for x in &mut self.output[FRAME - HOP..] {
            *x = 0.0;
        }
        self.input.copy_within(HOP.., 0);
        self.fresh = 0;
    }
}

/// In-place radix-2 FFT of `re` + i `im` (length a power of two); the
/// inverse is scaled by 1/n.
fn fft(re: &mut [f32], im: &mut [f32], inverse: bool) {
    let n = re.len();
    let mut j = 0;
    for i in 1..n {
        let mut bit = n >> 1;
        while j & bit != 0 {
            j ^= bit;
            bit >>= 1;
        }
        j |= bit;
        if i < j {
            re.swap(i, j);
            im.swap(i, j);
        }
    }
    let sign = if inverse { 1.0 } else { -1.0 };
    let mut len = 2;
    while len <= n {
        let angle = sign * 2.0 * std::f32::consts::PI / len as f32;
        let (wr, wi) = (angle.cos(), angle.sin());
        for start in (0..n).step_by(len) {
            let (mut cr, mut ci) = (1.0f32, 0.0f32);
            for k in 0..len / 2 {
                let a = start + k;
                let b = a + len / 2;
                let tr = re[b] * cr - im[b] * ci;
                let ti = re[b] * ci + im[b] * cr;
                re[b] = re[a] - tr;
                im[b] = im[a] - ti;
                re[a] += tr;
                im[a] += ti;
                let next = cr * wr - ci * wi;
                ci = cr * wi + ci * wr;
                cr = next;
            }
        }
        len <<= 1;
    }
    if inverse {
        let scale = 1.0 / n as f32;
        for (r, i) in re.iter_mut().zip(im.iter_mut()) {
            *r *= scale;
            *i *= scale;
        }
    }
}

#[cfg(test)]
mod tests;
