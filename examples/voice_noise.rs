//! Noise heard as commands, and what the voicing check costs speech;
//! prints figures.
//!
//!     cargo run --release --example voice_noise [-- OPTIONS]
//!
//! Options:
//! - `--model DIR` the Korean Vosk model (default env `ANNABELLA_TEST_MODEL`);
//!   without one only the voicing figures are measured;
//! - `--no-decode` measure voicing only (no model);
//! - `--keep DIR` keep every generated sound as a WAV there;
//! - `--list` print one line per sound (voicing, decisions);
//! - `--frames FILE.wav` print every analysis window of one recording.
//!
//! Env `VOICING=field=value,…` overrides [`VoicingSettings`] fields (for
//! tuning).
//!
//! The sounds (all deterministic: sox runs with `-R`, the rest is made
//! here with a seeded generator):
//! - **coloured noise** (sox `synth`): white, pink, brown and TPDF noise at
//!   six levels and five lengths, two different stretches of each;
//!   band-limited noise (speech band, narrow bands at 300 Hz, 1 kHz,
//!   3 kHz); noise with a syllable-like tremolo (4–6 Hz) and short bursts;
//! - **knocks and clicks**: click trains at 2–50 clicks a second, door
//!   knocks (damped wood resonances with a noise attack), hand claps,
//!   irregular key typing, a dropped object;
//! - **tones** (music-like): pure tones from 100 Hz to 3 kHz, beeps, chords
//!   and arpeggios of harmonic tones, square, sawtooth and triangle tones
//!   and chords, clean and in a quiet room (periodic in the pitch range,
//!   like a voice: the check rejects them as sustained tones, one pitch
//!   and one spectral shape throughout; arpeggios change pitch and can
//!   pass);
//! - **babble**: espeak-ng speech of several locales played backwards,
//!   three or four voices mixed (voiced, like speech: the check lets it
//!   pass by design).
//!
//! Each sound goes through the product's real decision path
//! ([`Listener::hear`]: the grammar of the start position, both Vosk
//! decodings, the decision) twice: with the voicing check off (the code
//! before it) and on. A sound "heard as something" is one decided as a
//! move, a command (yes included), a number, or a question about moves.
//!
//! Speech: espeak-ng in every locale's voice (de en ko pl he ar el), the
//! spoken words of moves of real positions, every command word and number
//! word, in four voices (plain, `+f3` fast and high, `+m3` slow and low,
//! plain in brown+white noise at 10 dB SNR), and Korean also in the two
//! monotone voices (`+robosoft6`, `+robosoft8`: one pitch throughout, only
//! the formants move); it counts how many fail the voicing check (they
//! would be "nothing heard"). Time per second of
//! audio of the voicing measure is printed too.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use annabella::vocab::{Style, Vocabulary};
use annabella::voice::commands::SpokenCommandWords;
use annabella::voice::decide::{Decision, DecisionSettings};
use annabella::voice::listener::Listener;
use annabella::voice::recognizer::VoskModel;
use annabella::voice::voicing::{self, VoicingMeter, VoicingSettings};
use shakmaty::{CastlingMode, Chess, Position};

const RATE: f32 = 16_000.0;

/// splitmix64: deterministic, seeded.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [-1, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.unit() + 1.0) / 2.0
    }
}

struct Sound {
    name: String,
    category: &'static str,
    samples: Vec<i16>,
}

fn sox_sound(dir: &Path, name: &str, effects: &[&str]) -> Option<Vec<i16>> {
    let out = dir.join(format!("{name}.wav"));
    let ok = Command::new("sox")
        .args(["-R", "-n", "-r", "16000", "-c", "1", "-b", "16"])
        .arg(&out)
        .args(effects)
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("voice_noise: sox failed for {name}: {effects:?}");
        return None;
    }
    let s = annabella::voice::audio::read_wav(&out).ok();
    let _ = std::fs::remove_file(out);
    s
}

fn to_i16(x: &[f32], peak: f32) -> Vec<i16> {
    let max = x.iter().fold(0.0f32, |m, v| m.max(v.abs())).max(1e-9);
    x.iter()
        .map(|v| (v / max * peak * 32767.0).clamp(-32768.0, 32767.0) as i16)
        .collect()
}

fn coloured_noise(dir: &Path) -> Vec<Sound> {
    let mut out = Vec::new();
    let colours = ["whitenoise", "pinknoise", "brownnoise", "tpdfnoise"];
    let levels = ["0.05", "0.15", "0.3", "0.5", "0.8", "1.0"];
    let lengths = ["0.3", "0.6", "1.0", "1.5", "2.5"];
    for colour in colours {
        for (li, level) in levels.iter().enumerate() {
            for (ti, len) in lengths.iter().enumerate() {
                for seg in 0..2 {
                    // Another stretch of the same repeatable noise.
                    let offset = format!("{}", 3 * (li * lengths.len() + ti) + 40 * seg);
                    let name = format!("{colour}-v{level}-{len}s-{seg}");
                    if let Some(s) = sox_sound(
                        dir,
                        &name,
                        &["synth", "200", colour, "trim", &offset, len, "vol", level],
                    ) {
                        out.push(Sound {
                            name,
                            category: "coloured noise",
                            samples: s,
                        });
                    }
                }
            }
        }
    }
    // Band-limited, tremolo and bursts.
    let extra: [(&str, Vec<&str>); 14] = [
        (
            "speechband-white",
            vec![
                "synth",
                "1.5",
                "whitenoise",
                "sinc",
                "300-3400",
                "vol",
                "0.8",
            ],
        ),
        (
            "speechband-pink",
            vec!["synth", "2", "pinknoise", "sinc", "200-2000", "vol", "0.9"],
        ),
        (
            "band300",
            vec![
                "synth",
                "1.5",
                "whitenoise",
                "sinc",
                "250-350",
                "vol",
                "0.9",
            ],
        ),
        (
            "band1k",
            vec![
                "synth",
                "1.5",
                "whitenoise",
                "sinc",
                "900-1100",
                "vol",
                "0.9",
            ],
        ),
        (
            "band3k",
            vec![
                "synth",
                "1.5",
                "whitenoise",
                "sinc",
                "2800-3200",
                "vol",
                "0.9",
            ],
        ),
        (
            "lowpass-white",
            vec!["synth", "2", "whitenoise", "sinc", "-500", "vol", "0.9"],
        ),
        (
            "tremolo4-white",
            vec![
                "synth",
                "2",
                "whitenoise",
                "tremolo",
                "4",
                "90",
                "vol",
                "0.6",
            ],
        ),
        (
            "tremolo5-pink",
            vec![
                "synth",
                "2",
                "pinknoise",
                "tremolo",
                "5",
                "95",
                "vol",
                "0.8",
            ],
        ),
        (
            "tremolo6-brown",
            vec![
                "synth",
                "2",
                "brownnoise",
                "tremolo",
                "6",
                "95",
                "vol",
                "0.9",
            ],
        ),
        (
            "tremolo3-brown",
            vec![
                "synth",
                "2.5",
                "brownnoise",
                "tremolo",
                "3",
                "80",
                "vol",
                "1.0",
            ],
        ),
        (
            "burst-white",
            vec![
                "synth",
                "0.4",
                "whitenoise",
                "fade",
                "q",
                "0.02",
                "0.4",
                "0.2",
                "pad",
                "0.2",
                "0.3",
                "vol",
                "0.9",
            ],
        ),
        (
            "burst-brown",
            vec![
                "synth",
                "0.3",
                "brownnoise",
                "fade",
                "q",
                "0.01",
                "0.3",
                "0.2",
                "pad",
                "0.2",
                "0.3",
                "vol",
                "1.0",
            ],
        ),
        (
            "burst-pink",
            vec![
                "synth",
                "0.5",
                "pinknoise",
                "fade",
                "q",
                "0.05",
                "0.5",
                "0.3",
                "pad",
                "0.2",
                "0.3",
                "vol",
                "0.9",
            ],
        ),
        (
            "clipped-brown",
            vec!["synth", "1.5", "brownnoise", "vol", "4", "gain", "-n", "-1"],
        ),
    ];
    for (name, effects) in extra {
        if let Some(s) = sox_sound(dir, name, &effects) {
            out.push(Sound {
                name: name.to_owned(),
                category: "coloured noise",
                samples: s,
            });
        }
    }
    out
}

/// A damped resonance (a knock on wood, a tap) at `f` Hz starting at `t0`.
fn add_knock(x: &mut [f32], rng: &mut Rng, t0: f32, f: f32, decay_ms: f32, amp: f32) {
    let start = (t0 * RATE) as usize;
    let len = (decay_ms * 6.0 * RATE / 1000.0) as usize;
    for i in 0..len {
        let Some(v) = x.get_mut(start + i) else { break };
        let t = i as f32 / RATE;
        let env = (-t * 1000.0 / decay_ms).exp();
        let attack = if i < 80 { rng.unit() * 0.8 } else { 0.0 };
        let body = (2.0 * std::f32::consts::PI * f * t).sin()
            + 0.5 * (2.0 * std::f32::consts::PI * f * 2.3 * t).sin();
        *v += amp * env * (body + attack);
    }
}

fn knocks_and_clicks() -> Vec<Sound> {
    let mut out = Vec::new();
    let mut rng = Rng(71);
    let secs = |s: f32| vec![0.0f32; (s * RATE) as usize];
    // Click trains.
    for rate in [2.0f32, 5.0, 10.0, 20.0, 50.0] {
        for width in [1usize, 3] {
            let mut x = secs(1.5);
            let step = (RATE / rate) as usize;
            let mut i = 800;
            while i + width * 16 < x.len() {
                for k in 0..width * 16 {
                    x[i + k] = if k % 2 == 0 { 1.0 } else { -0.8 } * (1.0 - k as f32 / 48.0);
                }
                i += step;
            }
            out.push(Sound {
                name: format!("clicks-{rate}hz-{width}ms"),
                category: "knocks and clicks",
                samples: to_i16(&x, 0.9),
            });
        }
    }
    // Door knocks: three or four knocks on wood at various resonances.
    for (k, f) in [120.0f32, 180.0, 250.0, 330.0, 450.0, 800.0]
        .iter()
        .enumerate()
    {
        for decay in [8.0f32, 20.0, 40.0] {
            let mut x = secs(1.6);
            let n = 3 + k % 2;
            for j in 0..n {
                add_knock(&mut x, &mut rng, 0.2 + 0.22 * j as f32, *f, decay, 1.0);
            }
            out.push(Sound {
                name: format!("knock-{f}hz-{decay}ms"),
                category: "knocks and clicks",
                samples: to_i16(&x, 0.9),
            });
        }
    }
    // Hand claps: short noise bursts.
    for n in [1usize, 2, 4] {
        let mut x = secs(1.5);
        for j in 0..n {
            let start = ((0.2 + 0.3 * j as f32) * RATE) as usize;
            for i in 0..400 {
                if let Some(v) = x.get_mut(start + i) {
                    *v += rng.unit() * (-(i as f32) / 80.0).exp();
                }
            }
        }
        out.push(Sound {
            name: format!("claps-{n}"),
            category: "knocks and clicks",
            samples: to_i16(&x, 0.9),
        });
    }
    // Key typing: irregular taps.
    for seed in 0..4u64 {
        let mut r = Rng(100 + seed);
        let mut x = secs(2.0);
        let mut t = 0.1;
        while t < 1.9 {
            let f = r.range(1500.0, 4000.0);
            let amp = r.range(0.3, 1.0);
            add_knock(&mut x, &mut r, t, f, 3.0, amp);
            t += r.range(0.06, 0.25);
        }
        out.push(Sound {
            name: format!("typing-{seed}"),
            category: "knocks and clicks",
            samples: to_i16(&x, 0.8),
        });
    }
    // A dropped object: a thud and a few bounces.
    for (k, f) in [90.0f32, 160.0, 600.0].iter().enumerate() {
        let mut x = secs(1.5);
        let mut t = 0.2;
        let mut amp = 1.0;
        for _ in 0..5 {
            add_knock(&mut x, &mut rng, t, *f, 30.0, amp);
            t += 0.25 * amp;
            amp *= 0.6;
        }
        out.push(Sound {
            name: format!("drop-{k}"),
            category: "knocks and clicks",
            samples: to_i16(&x, 0.9),
        });
    }
    out
}

/// A harmonic tone: `harmonics` partials falling 1/k, with a little vibrato.
fn tone(x: &mut [f32], start: usize, len: usize, f: f32, harmonics: usize, amp: f32) {
    let mut phase = 0.0f32;
    for i in 0..len {
        let Some(v) = x.get_mut(start + i) else { break };
        let t = i as f32 / RATE;
        let vib = 1.0 + 0.004 * (2.0 * std::f32::consts::PI * 5.0 * t).sin();
        phase += 2.0 * std::f32::consts::PI * f * vib / RATE;
        let mut s = 0.0;
        for k in 1..=harmonics {
            s += (phase * k as f32).sin() / k as f32;
        }
        let env = (i.min(len - i) as f32 / 160.0).min(1.0);
        *v += amp * env * s;
    }
}

/// Wave shapes of sustained tones (band-limited: partials below 7.5 kHz).
#[derive(Clone, Copy)]
enum Wave {
    Square,
    Sawtooth,
    Triangle,
}

/// A sustained tone of a wave shape, steady (no vibrato), 20 ms fades.
fn wave(x: &mut [f32], start: usize, len: usize, f: f32, shape: Wave, amp: f32) {
    let top = (7_500.0 / f) as usize;
    for i in 0..len {
        let Some(v) = x.get_mut(start + i) else { break };
        let t = i as f32 / RATE;
        let mut s = 0.0;
        for k in 1..=top.max(1) {
            let kf = k as f32;
            let a = match shape {
                Wave::Square if k % 2 == 1 => 1.0 / kf,
                Wave::Sawtooth => 1.0 / kf,
                Wave::Triangle if k % 2 == 1 => 1.0 / (kf * kf),
                _ => 0.0,
            };
            if a > 0.0 {
                s += a * (2.0 * std::f32::consts::PI * f * kf * t).sin();
            }
        }
        let env = (i.min(len - i) as f32 / 320.0).min(1.0);
        *v += amp * env * s;
    }
}

fn tones() -> Vec<Sound> {
    let mut out = Vec::new();
    let secs = |s: f32| vec![0.0f32; (s * RATE) as usize];
    for f in [
        100.0f32, 150.0, 220.0, 330.0, 440.0, 880.0, 1000.0, 2000.0, 3000.0,
    ] {
        for harmonics in [1usize, 6] {
            let mut x = secs(1.2);
            tone(&mut x, 1600, 12_800, f, harmonics, 1.0);
            out.push(Sound {
                name: format!("tone-{f}hz-h{harmonics}"),
                category: "tones",
                samples: to_i16(&x, 0.7),
            });
        }
    }
    // Beeps: 1 kHz and 2.5 kHz, three short ones.
    for f in [1000.0f32, 2500.0] {
        let mut x = secs(1.2);
        for j in 0..3 {
            tone(&mut x, 1600 + j * 4800, 2400, f, 1, 1.0);
        }
        out.push(Sound {
            name: format!("beeps-{f}hz"),
            category: "tones",
            samples: to_i16(&x, 0.7),
        });
    }
    // Chords (C major, A minor, a low fifth) and arpeggios.
    let chords: [(&str, &[f32]); 3] = [
        ("chord-Cmaj", &[261.6, 329.6, 392.0]),
        ("chord-Amin", &[220.0, 261.6, 329.6, 440.0]),
        ("chord-fifth", &[110.0, 164.8]),
    ];
    for (name, notes) in chords {
        let mut x = secs(1.5);
        for f in notes {
            tone(&mut x, 1600, 19_200, *f, 5, 0.5);
        }
        out.push(Sound {
            name: name.to_owned(),
            category: "tones",
            samples: to_i16(&x, 0.7),
        });
        let mut x = secs(1.8);
        for (j, f) in notes.iter().enumerate() {
            tone(&mut x, 1600 + j * 4000, 4000, *f, 5, 0.8);
        }
        out.push(Sound {
            name: format!("{name}-arpeggio"),
            category: "tones",
            samples: to_i16(&x, 0.7),
        });
    }
    // Square, sawtooth and triangle tones and chords (electronic beeps,
    // alarms, music), clean and in a quiet room (pink noise 26 dB down).
    let mut rng = Rng(2323);
    let shapes: [(&str, Wave, &[f32]); 9] = [
        ("square-110hz", Wave::Square, &[110.0]),
        ("square-200hz", Wave::Square, &[200.0]),
        ("square-330hz", Wave::Square, &[330.0]),
        ("sawtooth-150hz", Wave::Sawtooth, &[150.0]),
        ("sawtooth-262hz", Wave::Sawtooth, &[261.6]),
        ("triangle-250hz", Wave::Triangle, &[250.0]),
        (
            "sawtooth-chord-Cmaj",
            Wave::Sawtooth,
            &[261.6, 329.6, 392.0],
        ),
        ("square-chord-Amin", Wave::Square, &[220.0, 261.6, 329.6]),
        ("sawtooth-chord-fifth", Wave::Sawtooth, &[110.0, 164.8]),
    ];
    for (name, shape, notes) in shapes {
        let mut x = secs(1.6);
        for f in notes {
            wave(&mut x, 3200, 19_200, *f, shape, 1.0 / notes.len() as f32);
        }
        out.push(Sound {
            name: name.to_owned(),
            category: "tones",
            samples: to_i16(&x, 0.6),
        });
        let peak = x.iter().fold(1e-9f32, |m, v| m.max(v.abs()));
        let mut b = [0.0f32; 3];
        let noisy: Vec<f32> = x
            .iter()
            .map(|v| {
                let w = rng.unit();
                b[0] = 0.99765 * b[0] + w * 0.099_046;
                b[1] = 0.963 * b[1] + w * 0.296_516_4;
                b[2] = 0.57 * b[2] + w * 1.052_691_3;
                v / peak + 0.05 * (b[0] + b[1] + b[2] + w * 0.1848) / 3.0
            })
            .collect();
        out.push(Sound {
            name: format!("{name}-in-room"),
            category: "tones",
            samples: to_i16(&noisy, 0.6),
        });
    }
    out
}

fn espeak(dir: &Path, voice: &str, speed: u32, pitch: u32, text: &str) -> Option<Vec<i16>> {
    let raw = dir.join("say.wav");
    let ok = Command::new("espeak-ng")
        .args([
            "-v",
            voice,
            "-s",
            &speed.to_string(),
            "-p",
            &pitch.to_string(),
        ])
        .arg("-w")
        .arg(&raw)
        .arg(text)
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        return None;
    }
    annabella::voice::audio::read_wav(&raw).ok()
}

const LOCALES: [(&str, &str); 7] = [
    ("de", "de"),
    ("en", "en-us"),
    ("pl", "pl"),
    ("he", "he"),
    ("ar", "ar"),
    ("el", "el"),
    ("ko", "ko"),
];

fn babble(dir: &Path) -> Vec<Sound> {
    let mut out = Vec::new();
    let texts = [
        ("en-us", "the weather is quite nice today, isn't it"),
        ("de", "heute regnet es schon wieder den ganzen Tag"),
        ("pl", "dzisiaj jest bardzo ładna pogoda"),
        ("ko", "오늘 날씨가 정말 좋네요 그렇죠"),
        ("el", "σήμερα ο καιρός είναι πολύ ωραίος"),
        ("en-us+f3", "could you pass me the salt please"),
    ];
    let mut voices: Vec<Vec<f32>> = Vec::new();
    for (voice, text) in texts {
        if let Some(s) = espeak(dir, voice, 170, 50, text) {
            let mut v: Vec<f32> = s.iter().map(|&x| f32::from(x)).collect();
            v.reverse();
            voices.push(v);
        }
    }
    if voices.is_empty() {
        return out;
    }
    for (k, n) in [(0usize, 1usize), (1, 1), (2, 3), (3, 4), (4, 3), (5, 4)] {
        let len = voices.iter().map(Vec::len).max().unwrap_or(0).min(40_000);
        let mut x = vec![0.0f32; len];
        for j in 0..n {
            let v = &voices[(k + j) % voices.len()];
            let shift = j * 2400;
            for (i, s) in v.iter().enumerate() {
                if let Some(y) = x.get_mut((i + shift) % len) {
                    *y += s;
                }
            }
        }
        out.push(Sound {
            name: format!("babble-reversed-{n}voices-{k}"),
            category: "babble (reversed speech)",
            samples: to_i16(&x, 0.7),
        });
    }
    out
}

/// Leading and trailing quiet, then brown + white noise at `snr_db`
/// (as examples/voice_accuracy.rs does).
fn with_noise(speech: &[i16], snr_db: Option<f32>, rng: &mut Rng) -> Vec<i16> {
    let mut x: Vec<f32> = vec![0.0; 4000];
    x.extend(speech.iter().map(|&s| f32::from(s)));
    x.extend(std::iter::repeat_n(0.0, 5600));
    let loud: Vec<f32> = speech
        .iter()
        .map(|&s| f32::from(s))
        .filter(|s| s.abs() > 300.0)
        .collect();
    let rms = (loud.iter().map(|s| s * s).sum::<f32>() / loud.len().max(1) as f32).sqrt();
    let mut brown = 0.0f32;
    let noise: Vec<f32> = (0..x.len())
        .map(|_| {
            let w = rng.unit();
            brown = 0.98 * brown + 0.2 * w;
            brown + 0.3 * rng.unit()
        })
        .collect();
    let nrms = (noise.iter().map(|s| s * s).sum::<f32>() / noise.len() as f32).sqrt();
    let level = match snr_db {
        Some(db) => rms / 10f32.powf(db / 20.0) / nrms.max(1e-6),
        None => 30.0 / nrms.max(1e-6),
    };
    x.iter()
        .zip(&noise)
        .map(|(s, n)| (s + n * level).clamp(-32768.0, 32767.0) as i16)
        .collect()
}

/// Spoken words of every locale: moves of a few positions, every command
/// word and number word.
fn speech(dir: &Path) -> Vec<(String, Vec<Sound>)> {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/ppp2ppp/2nq1n2/3pp3/3PP1b1/2NQ1N2/PPP2PPP/R3K2R w KQkq - 0 9",
        "1r2k3/P7/8/3pP3/8/8/5PPP/4K3 w - d6 0 30",
    ];
    let variants: [(&str, &str, u32, u32, Option<f32>); 4] = [
        ("plain", "", 160, 50, None),
        ("+f3", "+f3", 190, 70, None),
        ("+m3", "+m3", 140, 35, None),
        ("noise10dB", "", 175, 50, Some(10.0)),
    ];
    // Korean also in espeak-ng's monotone voices (a pitch range of 0: one
    // pitch throughout, only the formants move), against the tone check.
    let monotone: [(&str, &str, u32, u32, Option<f32>); 2] = [
        ("+robosoft6", "+robosoft6", 160, 50, None),
        ("+robosoft8", "+robosoft8", 140, 50, None),
    ];
    let mut out = Vec::new();
    for (code, voice) in LOCALES {
        let Ok(vocab) = Vocabulary::builtin(code) else {
            continue;
        };
        let mut texts: Vec<String> = Vec::new();
        for fen in fens {
            let Ok(pos) = annabella::pgn::position_from_fen(fen, CastlingMode::Standard) else {
                continue;
            };
            let moves = pos.legal_moves();
            for (i, m) in moves.iter().enumerate().step_by(moves.len() / 5 + 1) {
                let style = if i % 2 == 0 {
                    Style::Short
                } else {
                    Style::Long
                };
                texts.push(vocab.announce(&pos, *m, style).spoken);
            }
        }
        for (_, forms) in SpokenCommandWords::from_vocab(&vocab).iter() {
            if let Some(f) = forms.first() {
                texts.push(f.clone());
            }
        }
        for key in annabella::commands::spoken::NUMBER_KEYS {
            let words = vocab.locale().message(key, &[]);
            texts.push(words.split('|').next().unwrap_or("").to_owned());
        }
        texts.retain(|t| !t.trim().is_empty());
        texts.dedup();
        let mut sounds = Vec::new();
        let mut rng = Rng(code.as_bytes()[0] as u64 * 1000 + code.as_bytes()[1] as u64);
        let extra: &[(&str, &str, u32, u32, Option<f32>)] =
            if code == "ko" { &monotone } else { &[] };
        for &(vname, variant, speed, pitch, snr) in variants.iter().chain(extra) {
            for (i, text) in texts.iter().enumerate() {
                let Some(s) = espeak(dir, &format!("{voice}{variant}"), speed, pitch, text) else {
                    continue;
                };
                sounds.push(Sound {
                    name: format!("{code}-{vname}-{i:02} {text}"),
                    category: "speech",
                    samples: with_noise(&s, snr, &mut rng),
                });
            }
        }
        out.push((code.to_owned(), sounds));
    }
    out
}

#[derive(Default, Clone, Copy)]
struct Heard {
    moves: usize,
    commands: usize,
    yes: usize,
    numbers: usize,
    questions: usize,
    nothing: usize,
}

impl Heard {
    fn add(&mut self, d: &Decision) {
        match d {
            Decision::Move { .. } => self.moves += 1,
            Decision::Command { command, .. } => {
                self.commands += 1;
                if *command == annabella::commands::Cmd::Yes {
                    self.yes += 1;
                }
            }
            Decision::Number { .. } => self.numbers += 1,
            Decision::Ask { .. } | Decision::DidYouMean { .. } => self.questions += 1,
            Decision::NotUnderstood { .. } => self.nothing += 1,
        }
    }
    /// Acted on without a question: a move, a command or a number.
    fn acted(&self) -> usize {
        self.moves + self.commands + self.numbers
    }
    fn line(&self) -> String {
        format!(
            "move {:>2}  command {:>2} (yes {})  number {:>2}  question {:>2}  not-understood {:>3}",
            self.moves, self.commands, self.yes, self.numbers, self.questions, self.nothing
        )
    }
}

fn short(d: &Decision) -> String {
    match d {
        Decision::Move { heard, .. } => format!("move '{heard}'"),
        Decision::Command { command, heard } => format!("command {} '{heard}'", command.name()),
        Decision::Number { number, heard } => format!("number {number} '{heard}'"),
        Decision::Ask { heard, .. } => format!("ask '{heard}'"),
        Decision::DidYouMean { heard, .. } => format!("did-you-mean '{heard}'"),
        Decision::NotUnderstood { heard } => format!("not-understood '{heard}'"),
    }
}

fn write_wav(path: &Path, samples: &[i16]) {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 16_000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    if let Ok(mut w) = hound::WavWriter::create(path, spec) {
        for s in samples {
            let _ = w.write_sample(*s);
        }
        let _ = w.finalize();
    }
}

/// The default settings, or as env `VOICING` says (`field=value,…`, for
/// tuning).
fn settings() -> VoicingSettings {
    let mut s = VoicingSettings::default();
    for kv in std::env::var("VOICING").unwrap_or_default().split(',') {
        let Some((k, v)) = kv.split_once('=') else {
            continue;
        };
        let f: f32 = v.parse().unwrap_or(0.0);
        match k {
            "min_voiced_ms" => s.min_voiced_ms = f as u32,
            "min_correlation" => s.min_correlation = f,
            "min_run" => s.min_run = f as u32,
            "keep_correlation" => s.keep_correlation = f,
            "min_rms" => s.min_rms = f,
            "pre_emphasis" => s.pre_emphasis = f,
            "lowpass_hz" => s.lowpass_hz = f,
            "window_ms" => s.window_ms = f as u32,
            "tone_steady_share" => s.tone_steady_share = f,
            "tone_pitch_spread" => s.tone_pitch_spread = f,
            "tone_max_movement" => s.tone_max_movement = f,
            "tone_min_ms" => s.tone_min_ms = f as u32,
            _ => eprintln!("voice_noise: unknown setting {k}"),
        }
    }
    s
}

fn main() {
    let mut model: Option<PathBuf> = std::env::var_os("ANNABELLA_TEST_MODEL").map(PathBuf::from);
    let mut keep: Option<PathBuf> = None;
    let mut list = false;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--model" => model = it.next().map(PathBuf::from),
            "--no-decode" => model = None,
            "--keep" => keep = it.next().map(PathBuf::from),
            "--list" => list = true,
            "--frames" => {
                // Debugging: every frame of one WAV.
                let Some(f) = it.next() else {
                    std::process::exit(2)
                };
                let Ok(s) = annabella::voice::audio::read_wav(Path::new(&f)) else {
                    std::process::exit(1)
                };
                for (i, fr) in voicing::frames(&s, &settings()).iter().enumerate() {
                    println!(
                        "{:>5} ms  r {:.2}  lag {:>3}  rms {:>7.1}  tone {}",
                        i * 10,
                        fr.correlation,
                        fr.lag,
                        fr.rms,
                        fr.tone
                    );
                }
                return;
            }
            other => {
                eprintln!("voice_noise: unknown option {other}");
                std::process::exit(2);
            }
        }
    }
    let tmp = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("voice_noise: no temporary folder: {e}");
            std::process::exit(1);
        }
    };
    let settings = settings();
    println!("voice_noise: voicing settings {settings:?}");
    let mut noise: Vec<Sound> = Vec::new();
    noise.extend(coloured_noise(tmp.path()));
    noise.extend(knocks_and_clicks());
    noise.extend(tones());
    noise.extend(babble(tmp.path()));
    if let Some(dir) = &keep {
        let _ = std::fs::create_dir_all(dir);
        for s in &noise {
            write_wav(&dir.join(format!("{}.wav", s.name)), &s.samples);
        }
    }

    // Time of the voicing measure per second of audio.
    let mut measure_time = 0.0f64;
    let mut measured_secs = 0.0f64;
    let mut voiced = |s: &[i16]| {
        let t = Instant::now();
        let mut m = VoicingMeter::new(settings);
        for chunk in s.chunks(320) {
            m.push(chunk);
        }
        let passes = m.passes();
        let tone = m.tone_measure();
        measure_time += t.elapsed().as_secs_f64();
        measured_secs += s.len() as f64 / 16_000.0;
        (m.voiced_ms(), m.longest_run_ms(), passes, tone)
    };

    let mut listener = model.as_ref().and_then(|dir| {
        annabella::voice::stderr::quiet_vosk(true);
        let vocab = Vocabulary::builtin("ko").ok()?;
        match VoskModel::load(dir) {
            Ok(m) => Some(Listener::new(m, vocab, DecisionSettings::default())),
            Err(e) => {
                eprintln!("voice_noise: {}: {e}", dir.display());
                None
            }
        }
    });
    let pos = Chess::default();
    let mode = CastlingMode::Standard;
    let categories = [
        "coloured noise",
        "knocks and clicks",
        "tones",
        "babble (reversed speech)",
    ];
    println!();
    println!(
        "== noise: {} sounds, {:.0} s of audio{}",
        noise.len(),
        noise.iter().map(|s| s.samples.len()).sum::<usize>() as f64 / 16_000.0,
        if listener.is_some() {
            " (Korean model, start position, real decision path)"
        } else {
            " (no model: voicing only)"
        }
    );
    let mut all_before = Heard::default();
    let mut all_after = Heard::default();
    let mut all_pass = 0;
    for cat in categories {
        let mut before = Heard::default();
        let mut after = Heard::default();
        let (mut n, mut pass) = (0, 0);
        for s in noise.iter().filter(|s| s.category == cat) {
            n += 1;
            let (ms, run, ok, tone) = voiced(&s.samples);
            pass += usize::from(ok);
            let mut line = format!(
                "  {:<34} voiced {ms:>4} ms (run {run:>4}, steady {:.2}, moving {:.2}{})",
                s.name,
                tone.steady_share,
                tone.movement,
                if settings.passes(ms) && !ok {
                    ": a tone"
                } else {
                    ""
                }
            );
            if let Some(l) = listener.as_mut() {
                l.voicing = VoicingSettings::off();
                let b = l.hear(&pos, mode, &s.samples).map(|h| h.decision);
                l.voicing = settings;
                let a = l.hear(&pos, mode, &s.samples).map(|h| h.decision);
                if let (Some(b), Some(a)) = (b, a) {
                    before.add(&b);
                    after.add(&a);
                    line.push_str(&format!("  off: {:<28} on: {}", short(&b), short(&a)));
                }
            }
            if list {
                println!("{line}");
            }
        }
        println!(
            "{cat:<26} {n:>3} sounds, pass the voicing check {pass:>3}{}",
            if listener.is_some() {
                format!(
                    "\n    check off (before): {}  -> acted on {}\n    check on  (after):  {}  -> acted on {}",
                    before.line(),
                    before.acted(),
                    after.line(),
                    after.acted()
                )
            } else {
                String::new()
            }
        );
        all_pass += pass;
        for (t, x) in [(&mut all_before, before), (&mut all_after, after)] {
            t.moves += x.moves;
            t.commands += x.commands;
            t.yes += x.yes;
            t.numbers += x.numbers;
            t.questions += x.questions;
            t.nothing += x.nothing;
        }
    }
    println!(
        "all noise                  {:>3} sounds, pass the voicing check {all_pass}",
        noise.len()
    );
    if listener.is_some() {
        println!(
            "    check off (before): {}  -> acted on {}",
            all_before.line(),
            all_before.acted()
        );
        println!(
            "    check on  (after):  {}  -> acted on {}",
            all_after.line(),
            all_after.acted()
        );
    }

    println!();
    println!("== speech (espeak-ng, every locale's voice): utterances failing the voicing check");
    let mut total = 0;
    let mut failed = 0;
    let mut least = u32::MAX;
    for (code, sounds) in speech(tmp.path()) {
        let mut per: std::collections::BTreeMap<String, (usize, usize, u32)> = Default::default();
        for s in &sounds {
            let (ms, _, ok, tone) = voiced(&s.samples);
            let variant = s.name.split('-').nth(1).unwrap_or("").to_owned();
            let e = per.entry(variant).or_insert((0, 0, u32::MAX));
            e.0 += 1;
            e.2 = e.2.min(ms);
            least = least.min(ms);
            if !ok {
                e.1 += 1;
                println!(
                    "  FAILS: {} (voiced {ms} ms, steady {:.2}, moving {:.2})",
                    s.name, tone.steady_share, tone.movement
                );
            } else if list {
                println!(
                    "  {} (voiced {ms} ms, steady {:.2}, moving {:.2})",
                    s.name, tone.steady_share, tone.movement
                );
            }
        }
        let line: Vec<String> = per
            .iter()
            .map(|(v, (n, f, m))| format!("{v} {f}/{n} (least {m} ms)"))
            .collect();
        let (n, f) = per.values().fold((0, 0), |a, x| (a.0 + x.0, a.1 + x.1));
        total += n;
        failed += f;
        println!("{code}: {f} of {n} fail — {}", line.join(", "));
    }
    println!(
        "all speech: {failed} of {total} utterances fail the voicing check (least voiced: {least} ms; needed {} ms; sustained tones rejected: steady share >= {}, movement <= {})",
        settings.min_voiced_ms, settings.tone_steady_share, settings.tone_max_movement
    );
    println!();
    println!(
        "voicing measure: {:.2} ms per second of audio ({:.0} s measured in 20 ms chunks, this machine)",
        1000.0 * measure_time / measured_secs.max(1e-9),
        measured_secs
    );
    let _ = voicing::RATE;
}
