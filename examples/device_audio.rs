//! Spoken moves as a sound card delivers them: 48 kHz stereo (and 44.1 kHz
//! mono) with room hiss, through annabella's device path, against the same
//! audio resampled offline by sox; prints figures.
//!
//!     cargo run --release --example device_audio [-- --n 80 --seed 23 --keep DIR]
//!
//! Held-out Korean moves (positions of benches/data/voice_games.pgn, the
//! benchmark half; a seed other than the tuning ones), spoken by espeak-ng
//! in four voices (plain, +f3, +m3, +m7 at varied speed and pitch),
//! upsampled by sox to the device rate (espeak-ng's band reaches 11 kHz),
//! with white hiss over the whole band (to 24 kHz) at 20 dB below the
//! speech on each channel: what a microphone in a quiet room records. Each
//! recording is then heard through:
//!
//! - `sox 16k`: the recording resampled to 16 kHz mono by sox (its
//!   high-quality resampler), read as `listen` reads a file;
//! - `listen`: the device recording read by `listen`'s path
//!   ([`read_wav`]: device-sized blocks through the stream's converter);
//! - `microphone`: the device recording's frames fed as a sound card's
//!   callback does, in odd blocks (480, 441, 1023, 17, 333 frames), through
//!   [`capture_pair`], the microphone's conversion path;
//! - the control, the conversion before the stateful resampler (kept here
//!   only to measure it): the whole file mixed down and linearly
//!   interpolated (`listen` before), and each device block mixed down and
//!   linearly interpolated on its own (the microphone before).
//!
//! Per path: right moves taken, right move first asked, other questions,
//! not understood, commands, wrong moves (must be 0), and the figure
//! (right + right first asked); and how many decisions differ from the
//! sox path's. Needs espeak-ng, sox and the Korean model (env
//! `ANNABELLA_TEST_MODEL`).

use std::path::{Path, PathBuf};
use std::process::Command;

use annabella::vocab::{Style, Vocabulary};
use annabella::voice::audio::{VadSettings, has_speech, read_wav};
use annabella::voice::decide::{Decision, DecisionSettings};
use annabella::voice::listener::Listener;
use annabella::voice::mic::capture_pair;
use annabella::voice::recognizer::VoskModel;
use shakmaty::{CastlingMode, Chess, Move, Position};

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
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    /// Uniform in [-1, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

fn fail(what: &str) -> ! {
    eprintln!("device_audio: {what}");
    std::process::exit(1)
}

fn positions() -> Vec<(Chess, CastlingMode)> {
    let text = include_str!("../benches/data/voice_games.pgn");
    let games = annabella::pgn::read_games(text.as_bytes())
        .unwrap_or_else(|e| fail(&format!("the games do not read: {e}")));
    let mut out = Vec::new();
    for g in games {
        let Ok(r) = g.replay() else { continue };
        for (pos, _) in r.steps() {
            out.push((pos, r.mode));
        }
    }
    // The benchmark half (training uses the other).
    out.into_iter().step_by(2).collect()
}

fn run(cmd: &mut Command) {
    let ok = cmd.status().is_ok_and(|s| s.success());
    if !ok {
        fail(&format!("{cmd:?} failed"));
    }
}

/// A device recording: `raw` (espeak-ng's 22 050 Hz) upsampled by sox to
/// `rate` with `channels`, 250 ms of room before and 350 ms after, white
/// hiss on every channel 20 dB below the speech.
fn device_recording(raw: &Path, rate: u32, channels: u16, out: &Path, rng: &mut Rng) {
    let up = out.with_extension("up.wav");
    run(Command::new("sox")
        .arg(raw)
        .args([
            "-r",
            &rate.to_string(),
            "-c",
            &channels.to_string(),
            "-b",
            "16",
        ])
        .arg(&up)
        .args(["pad", "0.25", "0.35"]));
    let mut reader = hound::WavReader::open(&up).unwrap_or_else(|e| fail(&e.to_string()));
    let speech: Vec<f32> = reader
        .samples::<i16>()
        .map(|s| f32::from(s.unwrap_or(0)))
        .collect();
    let loud: Vec<f32> = speech.iter().copied().filter(|s| s.abs() > 300.0).collect();
    let rms = (loud.iter().map(|s| s * s).sum::<f32>() / loud.len().max(1) as f32).sqrt();
    // 20 dB below the speech; uniform noise in [-1, 1) has RMS 1/sqrt(3).
    const SNR_DB: f32 = 20.0;
    let level = rms / 10f32.powf(SNR_DB / 20.0) * 3f32.sqrt();
    let spec = hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(out, spec).unwrap_or_else(|e| fail(&e.to_string()));
    for s in speech {
        let v = (s + level * rng.unit()).clamp(-32768.0, 32767.0) as i16;
        w.write_sample(v).unwrap_or_else(|e| fail(&e.to_string()));
    }
    w.finalize().unwrap_or_else(|e| fail(&e.to_string()));
    let _ = std::fs::remove_file(up);
}

/// The conversion before the stateful resampler (the control): mix down,
/// then linear interpolation.
mod before {
    pub fn downmix(interleaved: &[f32], channels: usize) -> Vec<f32> {
        if channels <= 1 {
            return interleaved.to_vec();
        }
        interleaved
            .chunks(channels)
            .map(|frame| frame.iter().sum::<f32>() / frame.len() as f32)
            .collect()
    }

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

    pub fn to_i16(samples: &[f32]) -> Vec<i16> {
        samples
            .iter()
            .map(|s| (s.clamp(-1.0, 1.0) * 32767.0).round() as i16)
            .collect()
    }
}

/// Device frames in the odd blocks a sound card's callback delivers.
const BLOCKS: [usize; 5] = [480, 441, 1023, 17, 333];

/// The device recording's interleaved samples, rate and channels.
fn frames(path: &Path) -> (Vec<i16>, u32, usize) {
    let mut r = hound::WavReader::open(path).unwrap_or_else(|e| fail(&e.to_string()));
    let spec = r.spec();
    let s: Vec<i16> = r.samples::<i16>().map(|s| s.unwrap_or(0)).collect();
    (s, spec.sample_rate, usize::from(spec.channels))
}

fn microphone(path: &Path) -> Vec<i16> {
    let (s, rate, channels) = frames(path);
    let (tx, rx) = std::sync::mpsc::channel();
    // The callback's side fed as the device would, the capture thread's
    // side drained after each block.
    let (mut callback, mut capture) = capture_pair(rate, channels, rate as usize, move |c, _| {
        let _ = tx.send(c);
    })
    .unwrap_or_else(|e| fail(&e.to_string()));
    let mut rest = &s[..];
    for n in BLOCKS.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let n = (n * channels).min(rest.len());
        callback.block(&rest[..n]);
        capture.drain();
        rest = &rest[n..];
    }
    drop(callback);
    drop(capture);
    rx.iter().flatten().collect()
}

fn as_f32(s: &[i16]) -> Vec<f32> {
    s.iter().map(|&v| f32::from(v) / 32_768.0).collect()
}

fn listen_before(path: &Path) -> Vec<i16> {
    let (s, rate, channels) = frames(path);
    let mono = before::downmix(&as_f32(&s), channels);
    before::to_i16(&before::resample(&mono, rate, 16_000))
}

fn microphone_before(path: &Path) -> Vec<i16> {
    let (s, rate, channels) = frames(path);
    let mut out = Vec::new();
    let mut rest = &s[..];
    for n in BLOCKS.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let n = (n * channels).min(rest.len());
        let mono = before::downmix(&as_f32(&rest[..n]), channels);
        out.extend(before::to_i16(&before::resample(&mono, rate, 16_000)));
        rest = &rest[n..];
    }
    out
}

#[derive(Default, Clone, Copy)]
struct Tally {
    n: usize,
    right: usize,
    right_first: usize,
    other_ask: usize,
    not_understood: usize,
    command: usize,
    wrong: usize,
    /// Decisions other than the sox path's (the action, not the words
    /// heard).
    differ: usize,
}

impl Tally {
    fn add(&mut self, d: &Decision, said: Move) {
        self.n += 1;
        match d {
            Decision::Move { mv, .. } if *mv == said => self.right += 1,
            Decision::Move { .. } => self.wrong += 1,
            Decision::Ask { candidates, .. } | Decision::DidYouMean { candidates, .. }
                if candidates.first() == Some(&said) =>
            {
                self.right_first += 1
            }
            Decision::Ask { .. } | Decision::DidYouMean { .. } => self.other_ask += 1,
            Decision::Command { .. } => self.command += 1,
            Decision::NotUnderstood { .. } | Decision::Number { .. } => self.not_understood += 1,
        }
    }
    fn line(&self, label: &str) -> String {
        format!(
            "{label:<44} n {:>3}  right {:>3}  right-first-asked {:>3}  other-asks {:>3}  not-understood {:>3}  command {:>2}  WRONG {}  figure {:>3} ({:>5.1}%)  differ from sox {:>2}",
            self.n,
            self.right,
            self.right_first,
            self.other_ask,
            self.not_understood,
            self.command,
            self.wrong,
            self.right + self.right_first,
            100.0 * (self.right + self.right_first) as f64 / self.n.max(1) as f64,
            self.differ,
        )
    }
}

/// A decision without the words heard: what annabella does.
fn action(d: &Decision) -> String {
    match d {
        Decision::Move { mv, .. } => format!("move {mv:?}"),
        Decision::Ask { candidates, .. } => format!("ask {candidates:?}"),
        Decision::DidYouMean { candidates, .. } => format!("did-you-mean {candidates:?}"),
        Decision::Number { number, .. } => format!("number {number}"),
        Decision::Command { command, .. } => format!("command {command:?}"),
        Decision::NotUnderstood { heard } if heard.is_empty() => "nothing heard".into(),
        Decision::NotUnderstood { .. } => "not understood".into(),
    }
}

fn hear(listener: &Listener, pos: &Chess, mode: CastlingMode, samples: &[i16]) -> Decision {
    if !has_speech(samples, VadSettings::default()) {
        return Decision::NotUnderstood {
            heard: String::new(),
        };
    }
    listener
        .hear(pos, mode, samples)
        .map(|h| h.decision)
        .unwrap_or_else(|| fail("the recognizer could not start"))
}

fn main() {
    let mut n = 80usize;
    let mut seed = 23u64;
    let mut keep: Option<PathBuf> = None;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_default();
        match flag.as_str() {
            "--n" => n = value.parse().unwrap_or(80),
            "--seed" => seed = value.parse().unwrap_or(23),
            "--keep" => keep = Some(PathBuf::from(value)),
            other => fail(&format!("unknown option {other}")),
        }
    }
    let model = std::env::var_os("ANNABELLA_TEST_MODEL")
        .map(PathBuf::from)
        .unwrap_or_else(|| fail("set ANNABELLA_TEST_MODEL to the Korean model's folder"));
    annabella::voice::stderr::quiet_vosk(true);
    let vocab = Vocabulary::builtin("ko").unwrap_or_else(|e| fail(&format!("{e:?}")));
    let listener = Listener::new(
        VoskModel::load(&model).unwrap_or_else(|e| fail(&e.to_string())),
        vocab.clone(),
        DecisionSettings::default(),
    );
    let tmp = tempfile::tempdir().unwrap_or_else(|e| fail(&e.to_string()));
    let dir = keep.clone().unwrap_or_else(|| tmp.path().to_owned());
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| fail(&e.to_string()));
    let all = positions();
    let voices = [
        ("ko", 160, 50),
        ("ko+f3", 185, 70),
        ("ko+m3", 140, 35),
        ("ko+m7", 170, 55),
    ];
    let formats: [(u32, u16); 2] = [(48_000, 2), (44_100, 1)];
    let paths = [
        "sox 16k",
        "listen (device blocks, stateful)",
        "microphone (odd blocks, stateful)",
        "control: listen before (whole, linear)",
        "control: microphone before (per block)",
    ];
    let mut manifest = String::new();
    println!(
        "device_audio: {n} held-out Korean moves (seed {seed}), espeak-ng voices {:?}, white hiss to the device's Nyquist frequency at 20 dB SNR",
        voices.iter().map(|v| v.0).collect::<Vec<_>>()
    );
    for (rate, channels) in formats {
        let mut tallies = [Tally::default(); 5];
        let mut item_rng = Rng(seed);
        let mut noise_rng = Rng(seed ^ u64::from(rate));
        for k in 0..n {
            let (pos, mode) = loop {
                let (pos, mode) = &all[item_rng.below(all.len())];
                if !pos.legal_moves().is_empty() {
                    break (pos.clone(), *mode);
                }
            };
            let legal = pos.legal_moves();
            let said = legal[item_rng.below(legal.len())];
            let style = if item_rng.below(4) == 0 {
                Style::Long
            } else {
                Style::Short
            };
            let text = vocab.announce(&pos, said, style).spoken;
            let (voice, speed, pitch) = voices[k % voices.len()];
            let raw = dir.join(format!("raw{k}.wav"));
            run(Command::new("espeak-ng")
                .args([
                    "-v",
                    voice,
                    "-s",
                    &speed.to_string(),
                    "-p",
                    &pitch.to_string(),
                    "-w",
                ])
                .arg(&raw)
                .arg(&text));
            let device = dir.join(format!("u{k}-{rate}-{channels}ch.wav"));
            device_recording(&raw, rate, channels, &device, &mut noise_rng);
            let sox16 = dir.join(format!("u{k}-{rate}-{channels}ch-sox16k.wav"));
            run(Command::new("sox")
                .arg(&device)
                .args(["-r", "16000", "-c", "1", "-b", "16"])
                .arg(&sox16));
            let _ = std::fs::remove_file(&raw);
            let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
            manifest.push_str(&format!(
                "{}\t{}\t{fen}\t{}\t{text}\n",
                device.display(),
                sox16.display(),
                shakmaty::uci::UciMove::from_move(said, mode)
            ));
            let audio = [
                read_wav(&sox16).unwrap_or_else(|e| fail(&e.to_string())),
                read_wav(&device).unwrap_or_else(|e| fail(&e.to_string())),
                microphone(&device),
                listen_before(&device),
                microphone_before(&device),
            ];
            let decisions: Vec<Decision> = audio
                .iter()
                .map(|a| hear(&listener, &pos, mode, a))
                .collect();
            for (t, d) in tallies.iter_mut().zip(&decisions) {
                t.add(d, said);
                if action(d) != action(&decisions[0]) {
                    t.differ += 1;
                }
            }
        }
        println!();
        println!("== {rate} Hz, {channels} channel(s)");
        for (t, p) in tallies.iter().zip(paths) {
            println!("{}", t.line(p));
        }
    }
    if keep.is_some() {
        let _ = std::fs::write(dir.join("manifest.tsv"), manifest);
    }
}
