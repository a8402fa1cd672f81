use super::*;

const PI2: f32 = 2.0 * std::f32::consts::PI;

/// splitmix64, seeded: noise for the tests.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

fn pcm(x: &[f32], peak: f32) -> Vec<i16> {
    let max = x.iter().fold(1e-9f32, |m, v| m.max(v.abs()));
    x.iter()
        .map(|v| (v / max * peak).clamp(-32768.0, 32767.0) as i16)
        .collect()
}

fn ms(n: u32) -> usize {
    RATE * n as usize / 1000
}

/// Formant targets (F1, F2 in Hz) of the vowels a, i, u.
const VOWELS: [(f32, f32); 3] = [(750.0, 1200.0), (300.0, 2300.0), (350.0, 800.0)];

/// A two-pole resonance (a formant) of bandwidth `bw`, retuned per sample.
struct Resonance {
    y: [f32; 2],
}

impl Resonance {
    fn next(&mut self, x: f32, hz: f32, bw: f32) -> f32 {
        let r = (-std::f32::consts::PI * bw / RATE as f32).exp();
        let w = PI2 * hz / RATE as f32;
        let y = x + 2.0 * r * w.cos() * self.y[0] - r * r * self.y[1];
        self.y = [y, self.y[0]];
        y * (1.0 - r)
    }
}

/// A voice-like source: a fundamental gliding from `f0` to `f1` with
/// `harmonics` partials falling 1/k, through two formants moving from
/// vowel to vowel (a, i, u, a, … every 150 ms), between 100 ms of silence.
fn voiced(f0: f32, f1: f32, harmonics: usize, len_ms: u32) -> Vec<f32> {
    let n = ms(len_ms);
    let mut x = vec![0.0; ms(100)];
    let mut phase = 0.0f32;
    let (mut r1, mut r2) = (Resonance { y: [0.0; 2] }, Resonance { y: [0.0; 2] });
    let step = ms(150) as f32;
    for i in 0..n {
        let f = f0 + (f1 - f0) * i as f32 / n as f32;
        phase += PI2 * f / RATE as f32;
        let env = (i.min(n - i) as f32 / 160.0).min(1.0);
        let s: f32 = (1..=harmonics)
            .map(|k| (phase * k as f32).sin() / k as f32)
            .sum();
        let at = i as f32 / step;
        let (a, b) = (VOWELS[at as usize % 3], VOWELS[(at as usize + 1) % 3]);
        let t = at.fract();
        let (fa, fb) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        let v = r1.next(s, fa, 90.0) + r2.next(s, fb, 120.0);
        x.push(env * v);
    }
    x.extend(vec![0.0; ms(100)]);
    x
}

/// A sustained harmonic tone: `harmonics` partials of `f` falling 1/k
/// (`square`: odd ones only), with 20 ms fades, between 100 ms of silence.
fn steady_tone(f: f32, harmonics: usize, square: bool, len_ms: u32) -> Vec<f32> {
    let n = ms(len_ms);
    let mut x = vec![0.0; ms(100)];
    for i in 0..n {
        let env = (i.min(n - i) as f32 / ms(20) as f32).min(1.0);
        let t = i as f32 / RATE as f32;
        let s: f32 = (1..=harmonics)
            .filter(|k| !square || k % 2 == 1)
            .map(|k| (PI2 * f * k as f32 * t).sin() / k as f32)
            .sum();
        x.push(env * s);
    }
    x.extend(vec![0.0; ms(100)]);
    x
}

fn white(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n).map(|_| rng.unit()).collect()
}

/// Pink noise (Paul Kellet's filter).
fn pink(rng: &mut Rng, n: usize) -> Vec<f32> {
    let mut b = [0.0f32; 3];
    (0..n)
        .map(|_| {
            let w = rng.unit();
            b[0] = 0.99765 * b[0] + w * 0.0990460;
            b[1] = 0.96300 * b[1] + w * 0.2965164;
            b[2] = 0.57000 * b[2] + w * 1.0526913;
            b[0] + b[1] + b[2] + w * 0.1848
        })
        .collect()
}

/// Brown noise: a leaky random walk.
fn brown(rng: &mut Rng, n: usize) -> Vec<f32> {
    let mut y = 0.0f32;
    (0..n)
        .map(|_| {
            y = 0.999 * y + rng.unit();
            y
        })
        .collect()
}

fn sine(f: f32, len_ms: u32) -> Vec<f32> {
    (0..ms(len_ms))
        .map(|i| (PI2 * f * i as f32 / RATE as f32).sin())
        .collect()
}

fn on() -> VoicingSettings {
    VoicingSettings::default()
}

#[test]
fn a_harmonic_voice_in_the_pitch_range_is_voiced() {
    for (f0, f1) in [
        (65.0, 75.0),
        (100.0, 100.0),
        (120.0, 90.0),
        (180.0, 240.0),
        (300.0, 350.0),
    ] {
        let x = pcm(&voiced(f0, f1, 8, 300), 12_000.0);
        let v = voiced_ms(&x, on());
        assert!(v >= 200, "{f0}-{f1} Hz: {v} ms voiced of 300");
        assert!(has_voice(&x, on()), "{f0}-{f1} Hz");
    }
}

#[test]
fn a_short_vowel_is_enough_and_a_click_of_voice_is_not() {
    let vowel = pcm(&voiced(110.0, 95.0, 6, 120), 10_000.0);
    assert!(has_voice(&vowel, on()), "{}", voiced_ms(&vowel, on()));
    let blip = pcm(&voiced(110.0, 110.0, 6, 40), 10_000.0);
    assert!(!has_voice(&blip, on()), "{}", voiced_ms(&blip, on()));
}

#[test]
fn white_pink_and_brown_noise_are_not_voiced_at_any_level() {
    let mut rng = Rng(7);
    for level in [300.0, 3_000.0, 20_000.0, 32_767.0] {
        for len_ms in [300, 1_000, 2_500] {
            let n = ms(len_ms);
            for (name, x) in [
                ("white", white(&mut rng, n)),
                ("pink", pink(&mut rng, n)),
                ("brown", brown(&mut rng, n)),
            ] {
                let s = pcm(&x, level);
                let v = voiced_ms(&s, on());
                assert!(
                    !has_voice(&s, on()),
                    "{name} {level} {len_ms} ms: {v} ms voiced"
                );
            }
        }
    }
}

#[test]
fn noise_frames_correlate_weakly_and_voice_frames_strongly() {
    let mut rng = Rng(11);
    let noise = pcm(&pink(&mut rng, ms(1_000)), 15_000.0);
    let f = frames(&noise, &on());
    let strong = f.iter().filter(|f| f.correlation >= 0.55).count();
    assert!(
        strong * 10 < f.len(),
        "{strong} of {} noise frames",
        f.len()
    );
    let voice = pcm(&voiced(140.0, 140.0, 6, 500), 15_000.0);
    let f = frames(&voice, &on());
    let strong: Vec<&FrameVoicing> = f.iter().filter(|f| f.correlation >= 0.9).collect();
    assert!(strong.len() >= 30, "{} voice frames", strong.len());
    // The pitch period: 16000 / 140 = 114 samples.
    let lags: Vec<usize> = strong.iter().map(|f| f.lag).collect();
    let at_period = lags.iter().filter(|l| (112..=117).contains(*l)).count();
    assert!(at_period * 10 >= lags.len() * 9, "{lags:?}");
}

#[test]
fn silence_and_near_silence_are_not_voiced() {
    assert_eq!(voiced_ms(&vec![0; ms(2_000)], on()), 0);
    // A voiced source far below any speech level.
    let faint = pcm(&voiced(120.0, 120.0, 6, 500), 3.0);
    assert!(!has_voice(&faint, on()));
    // A constant offset (DC) is no voice.
    assert_eq!(voiced_ms(&vec![9_000; ms(1_000)], on()), 0);
}

#[test]
fn clipping_neither_hides_a_voice_nor_makes_one_of_noise() {
    let loud: Vec<f32> = voiced(130.0, 110.0, 6, 400)
        .iter()
        .map(|v| v * 40.0)
        .collect();
    let clipped: Vec<i16> = loud
        .iter()
        .map(|v| (v * 32_767.0).clamp(-32_768.0, 32_767.0) as i16)
        .collect();
    assert!(has_voice(&clipped, on()), "{}", voiced_ms(&clipped, on()));
    let mut rng = Rng(3);
    let noise: Vec<i16> = brown(&mut rng, ms(1_500))
        .iter()
        .map(|v| (v * 4_000.0).clamp(-32_768.0, 32_767.0) as i16)
        .collect();
    assert!(!has_voice(&noise, on()), "{}", voiced_ms(&noise, on()));
}

#[test]
fn beeps_above_the_pitch_range_are_tones_not_voice() {
    for f in [1_000.0, 2_000.0, 3_000.0] {
        let x = pcm(&sine(f, 500), 12_000.0);
        let fr = frames(&x, &on());
        assert!(fr.iter().filter(|f| f.rms > 20.0).all(|f| f.tone), "{f} Hz");
        assert!(!has_voice(&x, on()), "{f} Hz: {}", voiced_ms(&x, on()));
    }
}

#[test]
fn short_and_odd_inputs_do_not_panic() {
    let s = on();
    assert_eq!(voiced_ms(&[], s), 0);
    assert_eq!(voiced_ms(&[1], s), 0);
    let just_short = vec![1_000i16; s.window() + MAX_LAG - 1];
    assert_eq!(voiced_ms(&just_short, s), 0);
    assert!(frames(&just_short, &s).is_empty());
    assert_eq!(frames(&vec![0; s.window() + MAX_LAG], &s).len(), 1);
    assert!(analyse(&[0.0; 10], s.window()).is_none());
    assert!(analyse(&[0.0; 1_000], 0).is_none());
    // Extremes: full-scale square waves, the Nyquist rate, all minimum.
    let mut rng = Rng(5);
    let inputs: Vec<Vec<i16>> = vec![
        vec![i16::MIN; 5_000],
        (0..5_000)
            .map(|i| if i % 2 == 0 { i16::MAX } else { i16::MIN })
            .collect(),
        (0..5_000)
            .map(|i| {
                if (i / 80) % 2 == 0 {
                    i16::MAX
                } else {
                    i16::MIN
                }
            })
            .collect(),
        (0..5_000).map(|_| (rng.unit() * 32_767.0) as i16).collect(),
    ];
    for x in &inputs {
        let v = voiced_ms(x, s);
        assert!(v <= 1_000 * x.len() as u32 / RATE as u32, "{v}");
        for f in frames(x, &s) {
            assert!(f.correlation.is_finite() && f.rms.is_finite());
            assert!(f.correlation <= 1.0 + 1e-3);
        }
    }
    // Odd settings do not panic either.
    let odd = VoicingSettings {
        window_ms: 0,
        lowpass_hz: 1e9,
        min_run: 0,
        pre_emphasis: -3.0,
        ..on()
    };
    let _ = voiced_ms(&inputs[3], odd);
}

#[test]
fn the_meter_gives_the_same_in_any_chunk_size() {
    let mut x = voiced(150.0, 120.0, 6, 300);
    let mut rng = Rng(9);
    x.extend(white(&mut rng, ms(300)).iter().map(|v| v * 0.1));
    let x = pcm(&x, 14_000.0);
    let whole = voiced_ms(&x, on());
    assert!(whole > 0);
    for chunk in [1, 7, 160, 320, 1_000] {
        let mut m = VoicingMeter::new(on());
        for c in x.chunks(chunk) {
            m.push(c);
        }
        assert_eq!(m.voiced_ms(), whole, "chunks of {chunk}");
        assert_eq!(m.passes(), has_voice(&x, on()));
        let mut one = VoicingMeter::new(on());
        one.push(&x);
        assert_eq!(m.tone_measure(), one.tone_measure(), "chunks of {chunk}");
    }
}

#[test]
fn reset_forgets_and_off_lets_everything_pass() {
    let x = pcm(&voiced(120.0, 120.0, 6, 300), 12_000.0);
    let mut m = VoicingMeter::new(on());
    m.push(&x);
    assert!(m.passes() && m.frames() > 0 && m.longest_run_ms() >= 200);
    m.reset();
    assert_eq!((m.voiced_ms(), m.frames()), (0, 0));
    assert!(!m.passes());
    let off = VoicingSettings::off();
    assert!(!off.is_on());
    assert!(has_voice(&[], off));
    assert!(VoicingMeter::new(off).passes());
}

#[test]
fn sustained_tones_and_chords_are_voiced_but_not_a_voice() {
    // What was heard as commands and moves: a 200 Hz square tone
    // ("resign"), a 330 Hz harmonic tone ("accept"), a sawtooth chord (a
    // question about moves).
    let mut sounds: Vec<(String, Vec<f32>)> = vec![
        ("square 200 Hz".into(), steady_tone(200.0, 15, true, 1_000)),
        (
            "harmonic 330 Hz".into(),
            steady_tone(330.0, 6, false, 1_000),
        ),
        ("sine 150 Hz".into(), steady_tone(150.0, 1, false, 800)),
        ("square 110 Hz".into(), steady_tone(110.0, 25, true, 1_500)),
    ];
    let mut chord = vec![0.0f32; ms(1_400)];
    for f in [261.6f32, 329.6, 392.0] {
        for (a, b) in chord.iter_mut().zip(steady_tone(f, 12, false, 1_200)) {
            *a += b;
        }
    }
    sounds.push(("sawtooth chord C-E-G".into(), chord));
    let mut rng = Rng(17);
    for (name, x) in sounds {
        for level in [2_000.0, 12_000.0, 30_000.0] {
            let s = pcm(&x, level);
            let v = voiced_ms(&s, on());
            // Periodic in the pitch range: voiced by the old measure …
            assert!(v >= 300, "{name} at {level}: only {v} ms voiced");
            // … but one pitch and one spectral shape throughout.
            let mut m = VoicingMeter::new(on());
            m.push(&s);
            assert!(
                m.sustained_tone(),
                "{name} at {level}: {:?}",
                m.tone_measure()
            );
            assert!(!has_voice(&s, on()), "{name} at {level}");
        }
        // In a quiet room (pink noise 30 dB down) too.
        let noise = pink(&mut rng, x.len());
        let nmax = noise.iter().fold(1e-9f32, |m, v| m.max(v.abs()));
        let xmax = x.iter().fold(1e-9f32, |m, v| m.max(v.abs()));
        let mixed: Vec<f32> = x
            .iter()
            .zip(&noise)
            .map(|(a, b)| a / xmax + 0.03 * b / nmax)
            .collect();
        let s = pcm(&mixed, 15_000.0);
        assert!(!has_voice(&s, on()), "{name} in noise: {:?}", {
            let mut m = VoicingMeter::new(on());
            m.push(&s);
            m.tone_measure()
        });
    }
}

#[test]
fn a_monotone_voice_moving_its_formants_is_a_voice() {
    // A robot voice holds one pitch, but its formants move.
    for f0 in [90.0, 150.0, 240.0] {
        let s = pcm(&voiced(f0, f0, 12, 600), 12_000.0);
        let mut m = VoicingMeter::new(on());
        m.push(&s);
        assert!(!m.sustained_tone(), "{f0} Hz: {:?}", m.tone_measure());
        assert!(has_voice(&s, on()), "{f0} Hz: {:?}", m.tone_measure());
    }
    // A short word in a monotone: 150 ms.
    let s = pcm(&voiced(130.0, 130.0, 10, 150), 12_000.0);
    assert!(has_voice(&s, on()), "{}", voiced_ms(&s, on()));
}

#[test]
fn speech_over_a_steady_hum_is_a_voice_and_the_hum_alone_is_not() {
    let hum = steady_tone(100.0, 8, false, 1_800);
    let hum_max = hum.iter().fold(1e-9f32, |m, v| m.max(v.abs()));
    let speech = voiced(180.0, 140.0, 10, 900);
    let speech_max = speech.iter().fold(1e-9f32, |m, v| m.max(v.abs()));
    // The hum 10 dB under the voice, from 400 ms before it to after it.
    let mut x: Vec<f32> = hum.iter().map(|v| 0.3 * v / hum_max).collect();
    for (i, v) in speech.iter().enumerate() {
        x[ms(400) + i] += v / speech_max;
    }
    let s = pcm(&x, 14_000.0);
    let mut m = VoicingMeter::new(on());
    m.push(&s);
    assert!(m.passes(), "{:?}", m.tone_measure());
    let alone = pcm(&hum, 14_000.0);
    assert!(!has_voice(&alone, on()));
}

#[test]
fn the_tone_check_can_be_switched_off() {
    let s = pcm(&steady_tone(200.0, 15, true, 1_000), 12_000.0);
    let no_tones = VoicingSettings {
        tone_max_movement: 0.0,
        ..on()
    };
    assert!(has_voice(&s, no_tones));
    assert!(has_voice(&s, VoicingSettings::off()));
    assert!(!has_voice(&s, on()));
}
