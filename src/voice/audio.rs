//! Audio in: WAV files (via `hound`), conversion to 16 kHz mono, and an
//! energy-based voice-activity detector (pure).

use std::path::Path;

use super::recognizer::SAMPLE_RATE;

/// Why a WAV file could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WavError {
    /// Not readable or not a WAV file.
    #[error("{0}")]
    Open(String),
    /// A sample format this reader does not convert.
    #[error("unsupported sample format: {0}")]
    Format(String),
    /// The file ends before the length its header gives (cut short).
    #[error("the file is cut short after {0} samples")]
    Truncated(usize),
}

/// Reads a WAV file as 16 kHz mono 16-bit samples: other rates are
/// resampled, several channels are mixed down.
pub fn read_wav(path: &Path) -> Result<Vec<i16>, WavError> {
    let reader = hound::WavReader::open(path).map_err(|e| WavError::Open(e.to_string()))?;
    let spec = reader.spec();
    let channels = usize::from(spec.channels.max(1));
    let mut interleaved: Vec<f32> = Vec::with_capacity(reader.len() as usize);
    match (spec.sample_format, spec.bits_per_sample) {
        (hound::SampleFormat::Float, 32) => {
            for s in reader.into_samples::<f32>() {
                let s = s.map_err(|_| WavError::Truncated(interleaved.len()))?;
                interleaved.push(s.clamp(-1.0, 1.0));
            }
        }
        (hound::SampleFormat::Int, bits @ (8 | 16 | 24 | 32)) => {
            let scale = (1i64 << (bits - 1)) as f32;
            for s in reader.into_samples::<i32>() {
                let s = s.map_err(|_| WavError::Truncated(interleaved.len()))?;
                interleaved.push(s as f32 / scale);
            }
        }
        (fmt, bits) => return Err(WavError::Format(format!("{fmt:?} {bits} bit"))),
    }
    let mono = downmix(&interleaved, channels);
    let resampled = resample(&mono, spec.sample_rate, SAMPLE_RATE);
    Ok(to_i16(&resampled))
}

/// Averages interleaved channels into one.
pub fn downmix(interleaved: &[f32], channels: usize) -> Vec<f32> {
    if channels <= 1 {
        return interleaved.to_vec();
    }
    interleaved
        .chunks(channels)
        .map(|frame| frame.iter().sum::<f32>() / frame.len() as f32)
        .collect()
}

/// Linear-interpolation resampling (enough for speech recognition).
pub fn resample(input: &[f32], from: u32, to: u32) -> Vec<f32> {
    if from == to || input.is_empty() || from == 0 {
        return input.to_vec();
    }
    let ratio = f64::from(from) / f64::from(to);
    let out_len = ((input.len() as f64) / ratio).floor() as usize;
    let mut out = Vec::with_capacity(out_len);
    for i in 0..out_len {
        let pos = i as f64 * ratio;
        let idx = pos.floor() as usize;
        let frac = (pos - idx as f64) as f32;
        let a = input[idx.min(input.len() - 1)];
        let b = input[(idx + 1).min(input.len() - 1)];
        out.push(a + (b - a) * frac);
    }
    out
}

/// Samples in −1..1 to 16-bit.
pub fn to_i16(samples: &[f32]) -> Vec<i16> {
    samples
        .iter()
        .map(|s| (s.clamp(-1.0, 1.0) * 32767.0).round() as i16)
        .collect()
}

/// Settings of the voice-activity detector.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VadSettings {
    /// Frame length in milliseconds.
    pub frame_ms: u32,
    /// An utterance ends after this much silence.
    pub silence_ms: u32,
    /// Speech must last this long to start an utterance.
    pub min_speech_ms: u32,
    /// Frames louder than the noise floor times this are speech.
    pub ratio: f32,
    /// …and louder than this RMS level (0–32767).
    pub min_rms: f32,
}

impl Default for VadSettings {
    fn default() -> VadSettings {
        VadSettings {
            frame_ms: 10,
            silence_ms: 300,
            min_speech_ms: 50,
            ratio: 3.0,
            min_rms: 300.0,
        }
    }
}

/// What the detector noticed, with the sample index (from the first sample
/// ever pushed) where it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VadEvent {
    /// Speech began at this sample (the start of the first loud frame).
    SpeechStart(usize),
    /// Speech ended: the last loud frame ended at this sample, and the
    /// silence after it has lasted long enough.
    SpeechEnd(usize),
}

/// An energy-based voice-activity detector with an adaptive noise floor.
/// Feed it 16 kHz samples in any chunk size.
#[derive(Debug, Clone)]
pub struct Vad {
    settings: VadSettings,
    frame: Vec<i16>,
    frame_len: usize,
    pos: usize,
    floor: Option<f32>,
    in_speech: bool,
    loud_run: usize,
    loud_start: usize,
    quiet_run: usize,
    last_loud_end: usize,
}

impl Vad {
    /// A detector for 16 kHz audio.
    pub fn new(settings: VadSettings) -> Vad {
        let frame_len = (SAMPLE_RATE as usize * settings.frame_ms.max(1) as usize / 1000).max(1);
        Vad {
            settings,
            frame: Vec::with_capacity(frame_len),
            frame_len,
            pos: 0,
            floor: None,
            in_speech: false,
            loud_run: 0,
            loud_start: 0,
            quiet_run: 0,
            last_loud_end: 0,
        }
    }

    /// Is an utterance under way?
    pub fn in_speech(&self) -> bool {
        self.in_speech
    }

    /// The detector's settings.
    pub fn settings(&self) -> &VadSettings {
        &self.settings
    }

    /// Where the last loud frame ended (sample index from the first
    /// sample pushed; 0 before any).
    pub fn last_loud_end(&self) -> usize {
        self.last_loud_end
    }

    /// Samples pushed so far (whole frames and the part of a frame
    /// waiting to be completed).
    pub fn pushed(&self) -> usize {
        self.pos + self.frame.len()
    }

    /// During an utterance: how long it has been quiet since the last
    /// loud frame, in samples (0 while loud or outside an utterance).
    pub fn quiet_samples(&self) -> usize {
        if self.in_speech {
            self.pos.saturating_sub(self.last_loud_end)
        } else {
            0
        }
    }

    /// Forgets the utterance under way (the noise floor is kept).
    pub fn reset_speech(&mut self) {
        self.in_speech = false;
        self.loud_run = 0;
        self.quiet_run = 0;
    }

    /// Feeds samples; returns what happened in them.
    pub fn push(&mut self, samples: &[i16]) -> Vec<VadEvent> {
        let mut events = Vec::new();
        for &s in samples {
            self.frame.push(s);
            if self.frame.len() == self.frame_len {
                self.end_frame(&mut events);
                self.frame.clear();
            }
        }
        events
    }

    fn end_frame(&mut self, events: &mut Vec<VadEvent>) {
        let start = self.pos;
        self.pos += self.frame_len;
        let energy = (self
            .frame
            .iter()
            .map(|&s| f64::from(s) * f64::from(s))
            .sum::<f64>()
            / self.frame_len as f64)
            .sqrt() as f32;
        // Noise floor by minimum statistics: it drops at once to a quieter
        // frame and rises slowly (doubling in about 0.7 s), so steady
        // noise soon counts as quiet while the dips between syllables keep
        // it low during speech.
        let floor = match self.floor {
            None => energy,
            Some(f) => f.mul_add(1.01, 1e-3).min(energy.max(1.0)),
        };
        self.floor = Some(floor);
        let loud = energy > self.settings.min_rms && energy > floor * self.settings.ratio;
        let frames = |ms: u32| (ms / self.settings.frame_ms.max(1)).max(1) as usize;
        if loud {
            if self.loud_run == 0 {
                self.loud_start = start;
            }
            self.loud_run += 1;
            self.quiet_run = 0;
            self.last_loud_end = self.pos;
            if !self.in_speech && self.loud_run >= frames(self.settings.min_speech_ms) {
                self.in_speech = true;
                events.push(VadEvent::SpeechStart(self.loud_start));
            }
        } else {
            self.loud_run = 0;
            if self.in_speech {
                self.quiet_run += 1;
                if self.quiet_run >= frames(self.settings.silence_ms) {
                    self.in_speech = false;
                    self.quiet_run = 0;
                    events.push(VadEvent::SpeechEnd(self.last_loud_end));
                }
            }
        }
    }
}

/// Does this recording contain speech at all (by the detector)?
pub fn has_speech(samples: &[i16], settings: VadSettings) -> bool {
    let mut vad = Vad::new(settings);
    vad.push(samples)
        .iter()
        .any(|e| matches!(e, VadEvent::SpeechStart(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(ms: usize, amp: f32) -> Vec<i16> {
        (0..ms * 16)
            .map(|i| ((i as f32 * 0.2).sin() * amp) as i16)
            .collect()
    }

    #[test]
    fn resample_and_downmix() {
        let x: Vec<f32> = (0..441).map(|i| i as f32 / 441.0).collect();
        let y = resample(&x, 44_100, 16_000);
        assert_eq!(y.len(), 160);
        assert!((y[80] - x[220]).abs() < 0.01, "{} vs {}", y[80], x[220]);
        assert_eq!(downmix(&[1.0, 0.0, 0.5, 0.5], 2), vec![0.5, 0.5]);
        assert_eq!(to_i16(&[1.0, -2.0, 0.0]), vec![32767, -32767, 0]);
    }

    #[test]
    fn vad_finds_speech_and_its_end_after_the_silence() {
        let mut audio = tone(200, 10.0); // quiet room
        audio.extend(tone(500, 8000.0)); // speech
        audio.extend(tone(600, 10.0));
        let mut vad = Vad::new(VadSettings::default());
        let events = vad.push(&audio);
        assert_eq!(events.len(), 2, "{events:?}");
        assert_eq!(events[0], VadEvent::SpeechStart(200 * 16));
        assert_eq!(events[1], VadEvent::SpeechEnd(700 * 16));
    }

    #[test]
    fn vad_ignores_steady_noise_and_silence_and_short_clicks() {
        assert!(!has_speech(&vec![0; 16_000], VadSettings::default()));
        assert!(!has_speech(&tone(1000, 3000.0), VadSettings::default()));
        let mut click = tone(300, 10.0);
        click.extend(tone(20, 9000.0));
        click.extend(tone(300, 10.0));
        assert!(!has_speech(&click, VadSettings::default()));
    }

    #[test]
    fn vad_finds_speech_that_starts_with_the_recording() {
        // Syllables with short dips between them, no silence before.
        let mut audio = Vec::new();
        for _ in 0..4 {
            audio.extend(tone(150, 8000.0));
            audio.extend(tone(50, 100.0));
        }
        assert!(has_speech(&audio, VadSettings::default()));
        assert!(
            !has_speech(&tone(2000, 8000.0), VadSettings::default()),
            "a steady hum is no speech"
        );
    }

    #[test]
    fn vad_works_in_small_chunks() {
        let mut audio = tone(200, 10.0);
        audio.extend(tone(400, 8000.0));
        audio.extend(tone(400, 10.0));
        let mut vad = Vad::new(VadSettings::default());
        let mut events = Vec::new();
        for chunk in audio.chunks(37) {
            events.extend(vad.push(chunk));
        }
        assert_eq!(
            events,
            [VadEvent::SpeechStart(3200), VadEvent::SpeechEnd(600 * 16)]
        );
    }

    #[test]
    fn vad_tells_how_long_it_has_been_quiet_during_speech() {
        let mut vad = Vad::new(VadSettings::default());
        vad.push(&tone(200, 10.0));
        assert_eq!(vad.quiet_samples(), 0, "no utterance yet");
        vad.push(&tone(400, 8000.0));
        assert!(vad.in_speech());
        assert_eq!(vad.last_loud_end(), 600 * 16);
        assert_eq!(vad.quiet_samples(), 0);
        vad.push(&tone(150, 10.0));
        assert_eq!(vad.quiet_samples(), 150 * 16);
        assert_eq!(vad.pushed(), 750 * 16);
        // Speech resumes: the quiet count starts again.
        vad.push(&tone(100, 8000.0));
        assert_eq!(vad.quiet_samples(), 0);
        assert_eq!(vad.last_loud_end(), 850 * 16);
        vad.reset_speech();
        assert!(!vad.in_speech());
        assert_eq!(vad.quiet_samples(), 0);
    }
}
