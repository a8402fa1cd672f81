//! Acoustic echo cancellation and near-end speech detection (issue 14,
//! hands-free barge-in), pure core: no I/O, no clock (the sample count is
//! the time).
//!
//! annabella knows the samples she plays (the *reference*). What the
//! microphone hears is the player's voice plus her voice after the room's
//! path (delay, gain, reflections). [`EchoCanceller`] learns that path with
//! an adaptive filter (NLMS on pre-emphasized signals, which whitens
//! speech and speeds up learning) and subtracts its estimate of her voice
//! from the microphone's: what is left (the *residual*) is the player's
//! voice, if he speaks.
//!
//! The detector is conservative (a false barge-in cuts a blind player's
//! announcement; a missed one only makes him repeat after her): a 10 ms
//! frame is *near-end* when its residual is much louder than the residual
//! echo predicted for it, and loud in itself; a barge-in is detected when
//! most frames of the last [`DetectorSettings::window`] were near-end, and
//! only once the filter has learned the room (its long-term echo return
//! loss enhancement, ERLE, is at least
//! [`DetectorSettings::min_erle_db`]). The filter does not learn during
//! near-end frames (the player's voice would spoil it).

/// 16 kHz mono, as everywhere in the voice stack.
const RATE: usize = 16_000;

/// Samples per detector frame (10 ms).
pub const FRAME: usize = RATE / 100;

/// Test only: set to `off` to run the detector on the microphone's audio
/// without cancellation (what a barge-in without echo cancellation would
/// do: her own voice stops her), to show that the false-barge-in test can
/// fail; set to `mute` to switch hands-free barge-in off (the microphone
/// is muted while she speaks, as before), to show that the barge-in test
/// can fail.
pub const ECHO_CANCEL_ENV: &str = crate::environment::ECHO_CANCEL;

/// How the adaptive filter learns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FilterSettings {
    /// Length of the echo path it can learn, in samples (160 ms).
    pub taps: usize,
    /// NLMS step size (0–1).
    pub step: f32,
    /// Pre-emphasis coefficient (0: none).
    pub pre_emphasis: f32,
}

impl Default for FilterSettings {
    fn default() -> FilterSettings {
        FilterSettings {
            taps: 2560,
            step: 0.4,
            pre_emphasis: 0.9,
        }
    }
}

/// When the player is taken to speak over annabella.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DetectorSettings {
    /// Frames looked back on (16: 160 ms).
    pub window: usize,
    /// Of which at least this many must be near-end.
    pub needed: usize,
    /// A near-end frame's residual is at least this many times the
    /// residual echo predicted for it (power ratio).
    pub ratio: f32,
    /// …and its RMS level at least this (0–32767).
    pub min_rms: f32,
    /// No detection before the filter's long-term ERLE reaches this (dB).
    pub min_erle_db: f32,
}

impl Default for DetectorSettings {
    fn default() -> DetectorSettings {
        DetectorSettings {
            window: 16,
            needed: 10,
            ratio: 8.0,
            min_rms: 300.0,
            min_erle_db: 12.0,
        }
    }
}

/// What one call of [`EchoCanceller::process`] found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Cancelled {
    /// The microphone's audio with her voice taken out (same length).
    pub audio: Vec<i16>,
    /// A barge-in was detected in this block: the sample index (within
    /// this block) of the end of the frame that decided it.
    pub barge_in: Option<usize>,
}

/// Running figures, for tests, the log and the benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct EchoStats {
    /// Long-term ERLE (dB) over frames with her voice and no near-end.
    pub erle_db: f32,
    /// Barge-ins detected so far.
    pub barge_ins: usize,
    /// Samples processed.
    pub samples: u64,
}

/// The adaptive filter and the near-end detector.
#[derive(Debug, Clone)]
pub struct EchoCanceller {
    filter: FilterSettings,
    detector: DetectorSettings,
    /// `false`: no cancellation (the residual is the microphone's audio),
    /// and the detector needs no learned filter.
    cancelling: bool,
    weights: Vec<f32>,
    /// The shadow filter: always learning (the main one stops while the
    /// player speaks). When it cancels clearly better for a while, the
    /// room changed (the loudspeaker moved): the main filter takes its
    /// weights. A frame is near-end only when neither cancels it.
    shadow: Vec<f32>,
    better: usize,
    prev_out_shadow: f32,
    /// Pre-emphasized reference, twice over (`hist[pos..pos + taps]` is
    /// the latest `taps` samples, newest first).
    hist: Vec<f32>,
    pos: usize,
    /// Energy of the reference in the filter's window.
    ref_energy: f64,
    prev_ref: f32,
    prev_mic: f32,
    prev_out: f32,
    // The frame being gathered: energies of the microphone, the residual,
    // the echo estimate, and of the reference.
    frame_fill: usize,
    e_mic: f32,
    e_res: f32,
    e_est: f32,
    e_ref: f32,
    e_shadow: f32,
    /// Is the current frame near-end so far (the filter stops learning)?
    near_hold: usize,
    /// Last frames' near-end flags, newest last.
    recent: std::collections::VecDeque<bool>,
    /// Smoothed microphone and residual energies of echo-only frames
    /// (long-term ERLE), and the residual-to-estimate ratio.
    lt_mic: f32,
    lt_res: f32,
    misadjust: f32,
    /// A barge-in was detected and near-end frames go on.
    active: bool,
    stats: EchoStats,
}

/// Frames whose reference energy is below this (per sample) carry no echo
/// worth learning from.
const REF_FLOOR: f32 = 50.0 * 50.0;

impl Default for EchoCanceller {
    fn default() -> Self {
        EchoCanceller::new(FilterSettings::default(), DetectorSettings::default())
    }
}

impl EchoCanceller {
    /// A canceller that has learned nothing yet.
    pub fn new(filter: FilterSettings, detector: DetectorSettings) -> EchoCanceller {
        let taps = filter.taps.max(1);
        EchoCanceller {
            filter: FilterSettings { taps, ..filter },
            detector: DetectorSettings {
                window: detector.window.max(1),
                needed: detector.needed.clamp(1, detector.window.max(1)),
                ..detector
            },
            cancelling: true,
            weights: vec![0.0; taps],
            shadow: vec![0.0; taps],
            better: 0,
            prev_out_shadow: 0.0,
            hist: vec![0.0; 2 * taps],
            pos: 0,
            ref_energy: 0.0,
            prev_ref: 0.0,
            prev_mic: 0.0,
            prev_out: 0.0,
            frame_fill: 0,
            e_mic: 0.0,
            e_res: 0.0,
            e_est: 0.0,
            e_ref: 0.0,
            e_shadow: 0.0,
            near_hold: 0,
            recent: std::collections::VecDeque::new(),
            lt_mic: 0.0,
            lt_res: 0.0,
            misadjust: 1.0,
            active: false,
            stats: EchoStats::default(),
        }
    }

    /// The same detector without cancellation (test only, see
    /// [`ECHO_CANCEL_ENV`]).
    pub fn without_cancelling(detector: DetectorSettings) -> EchoCanceller {
        let mut c = EchoCanceller::new(
            FilterSettings {
                taps: 1,
                ..FilterSettings::default()
            },
            detector,
        );
        c.cancelling = false;
        c
    }

    /// Running figures.
    pub fn stats(&self) -> EchoStats {
        self.stats
    }

    /// Has the filter learned the room well enough to detect barge-ins?
    pub fn ready(&self) -> bool {
        !self.cancelling || self.long_term_erle_db() >= self.detector.min_erle_db
    }

    fn long_term_erle_db(&self) -> f32 {
        if self.lt_res <= 0.0 || self.lt_mic <= 0.0 {
            return 0.0;
        }
        10.0 * (self.lt_mic / self.lt_res).log10()
    }

    /// `true` while a detected barge-in goes on (the player still speaks).
    pub fn near_end(&self) -> bool {
        self.active
    }

    /// Cancels her voice (`reference`, the samples played at the moments
    /// `mic` was captured; missing samples are silence, extra ones are
    /// ignored) from `mic`. Any block size.
    pub fn process(&mut self, mic: &[i16], reference: &[i16]) -> Cancelled {
        let mut out = Cancelled {
            audio: Vec::with_capacity(mic.len()),
            barge_in: None,
        };
        for (i, &d) in mic.iter().enumerate() {
            let x = reference.get(i).copied().unwrap_or(0);
            let r = self.sample(f32::from(d), f32::from(x));
            out.audio.push(r.clamp(-32768.0, 32767.0) as i16);
            self.frame_fill += 1;
            if self.frame_fill == FRAME && self.end_frame() && out.barge_in.is_none() {
                out.barge_in = Some(i + 1);
            }
        }
        self.stats.samples += mic.len() as u64;
        out
    }

    /// One sample: returns the residual (de-emphasized).
    fn sample(&mut self, d: f32, x: f32) -> f32 {
        let a = self.filter.pre_emphasis;
        let xp = x - a * self.prev_ref;
        let dp = d - a * self.prev_mic;
        self.prev_ref = x;
        self.prev_mic = d;
        let taps = self.filter.taps;
        // The reference history, newest first at `pos`.
        self.pos = if self.pos == 0 {
            taps - 1
        } else {
            self.pos - 1
        };
        // The sample written `taps` samples ago leaves the window.
        let leaving = f64::from(self.hist[self.pos]);
        self.ref_energy =
            (self.ref_energy + f64::from(xp) * f64::from(xp) - leaving * leaving).max(0.0);
        self.hist[self.pos] = xp;
        self.hist[self.pos + taps] = xp;
        let (err, err_shadow) = if self.cancelling {
            let window = &self.hist[self.pos..self.pos + taps];
            let err = dp - dot(&self.weights, window);
            let err_shadow = dp - dot(&self.shadow, window);
            let energy = self.ref_energy as f32;
            if energy > REF_FLOOR * 0.01 * taps as f32 {
                let norm = energy + 1.0e3 * taps as f32;
                if self.near_hold == 0 {
                    axpy(&mut self.weights, self.filter.step * err / norm, window);
                }
                axpy(
                    &mut self.shadow,
                    self.filter.step * err_shadow / norm,
                    window,
                );
            }
            (err, err_shadow)
        } else {
            (dp, dp)
        };
        let shadow_out = err_shadow + a * self.prev_out_shadow;
        self.prev_out_shadow = shadow_out;
        self.e_shadow += shadow_out * shadow_out;
        // De-emphasis: the residual as heard; the estimate of her voice as
        // heard is what it took away.
        let out = err + a * self.prev_out;
        self.prev_out = out;
        let est = d - out;
        self.e_mic += d * d;
        self.e_res += out * out;
        self.e_est += est * est;
        self.e_ref += x * x;
        out
    }

    /// Closes a frame; `true` when a barge-in is detected at its end.
    fn end_frame(&mut self) -> bool {
        let n = FRAME as f32;
        let (mic, res, est, refe) = (
            self.e_mic / n,
            self.e_res / n,
            self.e_est / n,
            self.e_ref / n,
        );
        let res_shadow = self.e_shadow / n;
        self.e_shadow = 0.0;
        self.frame_fill = 0;
        self.e_mic = 0.0;
        self.e_res = 0.0;
        self.e_est = 0.0;
        self.e_ref = 0.0;
        let floor = self.detector.min_rms * self.detector.min_rms;
        let echo_present = self.ref_energy > f64::from(REF_FLOOR) * 0.01 * self.filter.taps as f64;
        let predicted = if self.cancelling {
            self.misadjust * est
        } else {
            0.0
        };
        let least = res.min(res_shadow);
        let near = least > floor && least > self.detector.ratio * (predicted + floor * 0.05);
        // The room changed: the shadow filter cancels clearly better.
        if self.cancelling && echo_present && res_shadow * 4.0 < res {
            self.better += 1;
            if self.better >= 10 {
                self.weights.copy_from_slice(&self.shadow);
                self.prev_out = self.prev_out_shadow;
                self.better = 0;
            }
        } else {
            self.better = 0;
        }
        // The filter stays frozen for the next frame too (onsets); while
        // it has not learned the room, her own voice looks near-end: it
        // learns on.
        let learned = self.ready();
        self.near_hold = if near && self.cancelling && learned {
            2
        } else {
            self.near_hold.saturating_sub(1)
        };
        if echo_present && !near && refe > REF_FLOOR && est > 0.0 {
            // A frame of her voice without his: the room's figures. The
            // long-term ERLE follows every such frame (a filter that has
            // not learned, or a player who spoke below the detector's
            // level, keeps it low: no detection); the residual echo
            // predicted for a frame follows only frames cancelled by
            // 10 dB at least, slowly, so that the onset of his voice is
            // not learned as residual echo.
            let k = 0.02;
            self.lt_mic += k * (mic - self.lt_mic);
            self.lt_res += k * (res - self.lt_res);
            let ratio = res / est;
            if ratio < 0.1 {
                self.misadjust += 0.01 * (ratio.max(1.0e-4) - self.misadjust);
            }
        }
        self.stats.erle_db = self.long_term_erle_db();
        self.recent.push_back(near);
        while self.recent.len() > self.detector.window {
            self.recent.pop_front();
        }
        let count = self.recent.iter().filter(|&&b| b).count();
        if self.active {
            // The barge-in goes on until the window has no near-end frame.
            if count == 0 {
                self.active = false;
            }
            return false;
        }
        if count >= self.detector.needed && self.ready() {
            self.active = true;
            self.stats.barge_ins += 1;
            return true;
        }
        false
    }
}

/// `a · b` (eight running sums, so that it vectorizes).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ca, ra) = a.as_chunks::<8>();
    let (cb, rb) = b.as_chunks::<8>();
    for (x, y) in ca.iter().zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    acc.iter().sum::<f32>() + tail
}

/// `w += g · x`.
fn axpy(w: &mut [f32], g: f32, x: &[f32]) {
    for (w, x) in w.iter_mut().zip(x) {
        *w += g * x;
    }
}

/// ERLE in dB of `residual` against `mic` (whole signals; silence: 0).
pub fn erle_db(mic: &[i16], residual: &[i16]) -> f32 {
    let e = |s: &[i16]| s.iter().map(|&v| f64::from(v) * f64::from(v)).sum::<f64>();
    let (m, r) = (e(mic), e(residual));
    if m <= 0.0 {
        return 0.0;
    }
    (10.0 * (m / r.max(1.0)).log10()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::speech::echo::{Room, RoomPath};

    /// A speech-like signal: noise through a resonance (a formant at
    /// `formant` Hz), in syllables of about 200 ms with short pauses,
    /// peak level about `level`.
    fn voice(seconds: f32, formant: f32, level: f32, seed: u64) -> Vec<i16> {
        let n = (seconds * RATE as f32) as usize;
        let mut state = seed.wrapping_mul(2_862_933_555_777_941_757).wrapping_add(3);
        let mut noise = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as f32 / (1u64 << 30) as f32 - 1.0
        };
        let w = 2.0 * std::f32::consts::PI * formant / RATE as f32;
        let (r, mut y1, mut y2) = (0.97f32, 0.0f32, 0.0f32);
        let syllable = RATE / 5;
        (0..n)
            .map(|i| {
                let y = noise() + 2.0 * r * w.cos() * y1 - r * r * y2;
                y2 = y1;
                y1 = y;
                let k = i % syllable;
                let env = if k < syllable * 4 / 5 {
                    (std::f32::consts::PI * k as f32 / (syllable as f32 * 0.8)).sin()
                } else {
                    0.0
                };
                (y * env * level * 0.05).clamp(-32768.0, 32767.0) as i16
            })
            .collect()
    }

    /// Plays `played` into `room` while `near` is said into its
    /// microphone, through `c` in blocks of `block` samples: the
    /// microphone's audio, the residual, and the barge-ins (sample index).
    fn run(
        c: &mut EchoCanceller,
        room: &Room,
        played: &[i16],
        near: &[i16],
        block: usize,
    ) -> (Vec<i16>, Vec<i16>, Vec<usize>) {
        room.play(played);
        let n = played.len().max(near.len());
        let mut mic = near.to_vec();
        mic.resize(n, 0);
        let mut residual = Vec::with_capacity(n);
        let mut barge = Vec::new();
        let mut at = 0;
        for chunk in mic.chunks_mut(block.max(1)) {
            let reference = room.mix_into(chunk);
            let out = c.process(chunk, &reference);
            assert_eq!(out.audio.len(), chunk.len());
            barge.extend(out.barge_in.map(|b| at + b));
            residual.extend(out.audio);
            at += chunk.len();
        }
        (mic, residual, barge)
    }

    fn rms(s: &[i16]) -> f32 {
        let e: f64 = s.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
        (e / s.len().max(1) as f64).sqrt() as f32
    }

    #[test]
    fn her_voice_alone_is_cancelled_strongly_and_never_taken_for_the_player() {
        let mut c = EchoCanceller::default();
        let room = Room::new();
        let her = voice(10.0, 700.0, 12_000.0, 1);
        let (mic, res, barge) = run(&mut c, &room, &her, &[], 320);
        assert!(barge.is_empty(), "false barge-ins at {barge:?}");
        let late = 6 * RATE..mic.len();
        let erle = erle_db(&mic[late.clone()], &res[late]);
        eprintln!(
            "ERLE after 6 s: {erle:.1} dB (long-term estimate {:.1} dB)",
            c.stats().erle_db
        );
        assert!(erle >= 20.0, "ERLE {erle:.1} dB");
        assert!(c.ready());
        assert_eq!(c.stats().barge_ins, 0);
    }

    #[test]
    fn the_player_speaking_over_her_is_detected_soon_after_he_starts() {
        let mut c = EchoCanceller::default();
        let room = Room::new();
        // She speaks 10 s; he starts at 6 s, as loud as her echo.
        let her = voice(10.0, 700.0, 12_000.0, 1);
        let onset = 6 * RATE;
        let mut near = vec![0i16; onset];
        near.extend(voice(2.0, 1300.0, 12_000.0, 99));
        let (mic, res, barge) = run(&mut c, &room, &her, &near, 320);
        assert_eq!(barge.len(), 1, "{barge:?}");
        assert!(barge[0] > onset, "before he spoke: {barge:?}");
        let delay_ms = (barge[0] - onset) * 1000 / RATE;
        eprintln!("detected {delay_ms} ms after the onset");
        assert!(delay_ms <= 300, "{delay_ms} ms");
        // His voice is in the residual, not taken away with hers.
        let his = &near[onset..onset + RATE];
        let kept = &res[onset..onset + RATE];
        let ratio = rms(kept) / rms(his);
        assert!((0.7..1.4).contains(&ratio), "his voice kept at {ratio:.2}");
        assert!(rms(&mic[onset..onset + RATE]) > rms(his));
    }

    #[test]
    fn nothing_is_detected_before_the_filter_has_learned_the_room() {
        let mut c = EchoCanceller::default();
        let room = Room::new();
        // He speaks at once over her first words: too early to tell him
        // from her (a missed barge-in, never a false one).
        let her = voice(1.0, 700.0, 12_000.0, 1);
        let near = voice(1.0, 1300.0, 6_000.0, 99);
        let (_, _, barge) = run(&mut c, &room, &her, &near, 320);
        assert!(barge.is_empty(), "{barge:?}");
    }

    #[test]
    fn an_echo_later_than_the_window_is_never_learned_and_never_stops_her() {
        // Output and input buffers of a real sound card add to the way
        // through the room: 250 ms is beyond the filter's 160 ms. It
        // cannot learn, so no barge-in is ever detected, not even when
        // he speaks: the microphone stays muted while she speaks, as
        // without a reference (a missed barge-in, never a false one).
        let mut c = EchoCanceller::default();
        let room = Room::with_path(RoomPath::new(250, 0.5, 80, 7));
        let her = voice(10.0, 700.0, 12_000.0, 1);
        let onset = 6 * RATE;
        let mut near = vec![0i16; onset];
        near.extend(voice(2.0, 1300.0, 12_000.0, 99));
        let (_, _, barge) = run(&mut c, &room, &her, &near, 320);
        eprintln!("ERLE with a 250 ms echo: {:.1} dB", c.stats().erle_db);
        assert!(barge.is_empty(), "{barge:?}");
        assert!(!c.ready(), "ERLE {:.1} dB", c.stats().erle_db);
    }

    #[test]
    fn the_filter_follows_a_changed_room() {
        let mut c = EchoCanceller::default();
        let her = voice(6.0, 700.0, 12_000.0, 1);
        let (mic, res, _) = run(&mut c, &Room::new(), &her, &[], 320);
        let before = erle_db(&mic[4 * RATE..], &res[4 * RATE..]);
        // The loudspeaker moved: 75 ms away, other reflections.
        let moved = Room::with_path(RoomPath::new(75, 0.6, 60, 42));
        let her = voice(8.0, 650.0, 12_000.0, 3);
        let (mic, res, barge) = run(&mut c, &moved, &her, &[], 320);
        let after = erle_db(&mic[5 * RATE..], &res[5 * RATE..]);
        eprintln!("ERLE {before:.1} dB, after the move {after:.1} dB; barge-ins {barge:?}");
        assert!(after >= 15.0, "ERLE after the move {after:.1} dB");
        // After it has learned the new room, no barge-in.
        assert!(barge.iter().all(|&b| b < 2 * RATE), "{barge:?}");
    }

    #[test]
    fn silence_in_silence_out_and_nothing_detected() {
        let mut c = EchoCanceller::default();
        let out = c.process(&vec![0; 16_000], &vec![0; 16_000]);
        assert!(out.audio.iter().all(|&s| s == 0));
        assert_eq!(out.barge_in, None);
        // No reference at all: the microphone's audio passes.
        let his = voice(1.0, 1300.0, 6_000.0, 5);
        let out = c.process(&his, &[]);
        assert!(out.audio.iter().zip(&his).all(|(a, b)| (a - b).abs() <= 1));
    }

    #[test]
    fn clipped_audio_and_odd_blocks_cause_no_panic_and_stay_in_range() {
        let mut c = EchoCanceller::default();
        let room = Room::with_path(RoomPath::new(20, 4.0, 40, 1));
        let loud = voice(3.0, 700.0, 200_000.0, 1);
        for block in [1, 7, 159, 161, 4999] {
            let (_, res, _) = run(&mut c, &room, &loud[..RATE / 2], &loud[..RATE / 3], block);
            assert_eq!(res.len(), RATE / 2);
        }
        // One huge block, extremes, references longer or shorter.
        let extremes: Vec<i16> = (0..50_000)
            .map(|i| if i % 3 == 0 { i16::MIN } else { i16::MAX })
            .collect();
        let out = c.process(&extremes, &extremes[..10]);
        assert_eq!(out.audio.len(), extremes.len());
        let out = c.process(&extremes[..5], &extremes);
        assert_eq!(out.audio.len(), 5);
        assert_eq!(c.process(&[], &[]).audio.len(), 0);
        // Odd settings.
        let mut tiny = EchoCanceller::new(
            FilterSettings {
                taps: 0,
                step: 0.0,
                pre_emphasis: 0.0,
            },
            DetectorSettings {
                window: 0,
                needed: 9,
                ..DetectorSettings::default()
            },
        );
        assert_eq!(
            tiny.process(&extremes, &extremes).audio.len(),
            extremes.len()
        );
    }

    #[test]
    fn without_cancelling_her_own_voice_stops_her() {
        // The switch the end-to-end test is shown to fail with.
        let mut c = EchoCanceller::without_cancelling(DetectorSettings::default());
        let her = voice(3.0, 700.0, 12_000.0, 1);
        let (_, _, barge) = run(&mut c, &Room::new(), &her, &[], 320);
        assert!(!barge.is_empty());
    }
}
