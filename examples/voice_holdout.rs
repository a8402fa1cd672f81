//! Accuracy that generalises: Korean spoken moves and commands in every
//! espeak-ng voice variant and many recording conditions, learned on some
//! voices and measured on voices kept apart; prints figures.
//!
//!     cargo run --release --example voice_holdout [-- OPTIONS]
//!
//! Options:
//! - `--model DIR` the Korean Vosk model (default env `ANNABELLA_TEST_MODEL`);
//! - `--seed S` (default 23): the same seed gives the same utterances;
//! - `--moves N` moves per voice and condition (default 2);
//! - `--commands N` commands per voice and condition (default 2);
//! - `--train-moves N`, `--train-commands N` more moves and commands per
//!   training voice and condition (default 0: more data to learn from);
//! - `--conditions A,B,…` only these conditions (default all; names as
//!   printed);
//! - `--holdout-voices A,B,…` the voice variants kept apart (default: the
//!   fixed split below);
//! - `--split train|holdout|all` which utterances to run (default all);
//! - `--costs FILE` decide with the word costs and rules of FILE instead
//!   of the built-in `locales/ko.costs.toml`;
//! - `--learn OUT.toml` learn the word costs from the *training* voices'
//!   hearings and write them (then measure with them);
//! - `--cache DIR` where decoded hearings are kept between runs (default
//!   `target/voice_holdout`): a rerun decodes only what it has not decoded
//!   before, so other costs and rules are measured in seconds;
//! - `--list` one line per utterance; `--per-voice` one line per voice;
//! - `--dump FILE` one JSON line per utterance (what was said, every
//!   alternative heard with what it reads as, the word-loop decoding, the
//!   decision, the closest phrases with their costs), for tuning.
//!
//! **Voices.** Every espeak-ng Korean voice: `ko` and `ko+VARIANT` for each
//! variant file of espeak-ng's `voices/!v` (101 on Debian 12). They are
//! split by *family* (the name without trailing digits, so `robosoft` …
//! `robosoft8` go together): a fixed hash of the family name puts about a
//! third of the families in the held-out set; the voices the costs before
//! this tool were learned or tuned on (`ko`, `+f2`, `+f3`, `+m2`, `+m3`,
//! `+m7`: the `f` and `m` families) are always training voices. The
//! whispered variants (`whisper`, `whisperf`) have no voicing: annabella
//! does not hear whispered speech by design (the voicing check), so they
//! form a set of their own, measured apart.
//!
//! **Conditions.** Every utterance is spoken at a random speed (100–220
//! words a minute) and pitch (10–90), at a random level (peak −20 to
//! −3 dBFS), with 250 ms of room before and 350 ms after, in one of these
//! conditions (sox and a seeded generator here; nothing is downloaded):
//! `clean` (a faint room floor), `gaps` (espeak-ng word gaps of 100–300
//! ms), `phone` (telephone band 300–3400 Hz), `8k` (down to 8 kHz and
//! back), `reverb` (sox reverb, a random room), `white`/`pink`/`brown` noise
//! at 20, 10 and 5 dB SNR (white at 20 and 10), `hum` (100 Hz mains hum with
//! harmonics at 10 dB SNR), `tone` (a steady 1 kHz whistle at 10 dB SNR),
//! `phone+noise` (8 kHz, telephone band, pink noise at 15 dB SNR).
//!
//! **Items.** Moves: a seeded random legal move of a seeded random position
//! of benches/data/voice_games.pgn (training and held-out sets use
//! disjoint positions), in annabella's own spoken words, short style three
//! times in four. Commands: a random spelling of a random voice command
//! (help, yes, no, time, claim, draw, resign, …) or of a number word (the
//! answers to a numbered question), decided in a random position of the
//! set.
//!
//! Each utterance goes through the product's path: the voicing check on
//! the audio, both Vosk decodings of the position's grammar (with the noise
//! reduction), and [`Listener::decide_voiced`] (the same decision
//! [`Listener::hear`] makes). Per condition it prints, for moves: right
//! move taken, right move asked first, right move asked later, other
//! questions, not understood, heard as a command, and **wrong** moves taken
//! (must be 0); the figure (right taken or right asked first, of all) and
//! **utterances per accepted move**: (utterances + answers) / moves
//! accepted, where a move is accepted when it is taken (one utterance) or
//! asked about and answered (the answer is a second utterance), and every
//! other utterance is said for nothing (1.0 is ideal). For commands: right,
//! **wrong command**, a move taken (**wrong move**), a question about moves,
//! not understood.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use annabella::commands::Cmd;
use annabella::vocab::{Style, Vocabulary};
use annabella::voice::commands::{ChoiceNumbers, SpokenCommandWords};
use annabella::voice::decide::{Decision, DecisionSettings, Hearing};
use annabella::voice::grammar::model_form;
use annabella::voice::listener::Listener;
use annabella::voice::nearmiss::{NearMissRules, WordCosts};
use annabella::voice::recognizer::VoskModel;
use annabella::voice::voicing;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

#[path = "support/confusions.rs"]
mod confusions;

/// Bumped when the audio or the decoding changes (cached hearings of
/// another version are decoded again).
const DECODE_VERSION: u32 = 1;

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
    /// Uniform in [lo, hi].
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below((hi - lo + 1) as usize) as u32
    }
    fn rangef(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.unit() + 1.0) / 2.0
    }
}

/// FNV-1a: a stable hash of a text (splits, seeds, cache keys).
fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Split {
    Train,
    Holdout,
    Whisper,
}

impl Split {
    fn name(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Holdout => "held-out",
            Split::Whisper => "whispered",
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Colour {
    White,
    Pink,
    Brown,
}

/// A recording condition.
#[derive(Clone, Debug)]
struct Condition {
    name: &'static str,
    /// Word gaps (espeak-ng `-g`, 10 ms units) drawn from this range.
    gap: Option<(u32, u32)>,
    /// sox effects after the room is padded on.
    sox: fn(&mut Rng) -> Vec<String>,
    /// Noise of a colour at an SNR (dB).
    noise: Option<(Colour, f32)>,
    /// A steady harmonic tone (fundamental Hz, harmonics) at an SNR (dB).
    tone: Option<(f32, usize, f32)>,
}

fn no_effects(_: &mut Rng) -> Vec<String> {
    Vec::new()
}

fn phone(_: &mut Rng) -> Vec<String> {
    vec!["sinc".into(), "300-3400".into()]
}

fn eight_k(_: &mut Rng) -> Vec<String> {
    vec!["rate".into(), "8000".into()]
}

fn phone_8k(_: &mut Rng) -> Vec<String> {
    vec![
        "rate".into(),
        "8000".into(),
        "sinc".into(),
        "300-3400".into(),
    ]
}

fn reverb(rng: &mut Rng) -> Vec<String> {
    // reverberance %, HF damping %, room scale %, stereo depth, pre-delay ms
    vec![
        "reverb".into(),
        rng.range(30, 90).to_string(),
        "50".into(),
        rng.range(40, 100).to_string(),
        "100".into(),
        rng.range(0, 30).to_string(),
    ]
}

fn conditions() -> Vec<Condition> {
    let c = |name, sox: fn(&mut Rng) -> Vec<String>| Condition {
        name,
        gap: None,
        sox,
        noise: None,
        tone: None,
    };
    let noise = |name, colour, snr| Condition {
        noise: Some((colour, snr)),
        ..c(name, no_effects)
    };
    vec![
        c("clean", no_effects),
        Condition {
            gap: Some((10, 30)),
            ..c("gaps", no_effects)
        },
        c("phone", phone),
        c("8k", eight_k),
        c("reverb", reverb),
        noise("white 20dB", Colour::White, 20.0),
        noise("white 10dB", Colour::White, 10.0),
        noise("pink 20dB", Colour::Pink, 20.0),
        noise("pink 10dB", Colour::Pink, 10.0),
        noise("pink 5dB", Colour::Pink, 5.0),
        noise("brown 20dB", Colour::Brown, 20.0),
        noise("brown 10dB", Colour::Brown, 10.0),
        noise("brown 5dB", Colour::Brown, 5.0),
        Condition {
            tone: Some((100.0, 8, 10.0)),
            ..c("hum", no_effects)
        },
        Condition {
            tone: Some((1000.0, 1, 10.0)),
            ..c("tone", no_effects)
        },
        Condition {
            noise: Some((Colour::Pink, 15.0)),
            ..c("phone+noise", phone_8k)
        },
    ]
}

/// espeak-ng's data folder (from `espeak-ng --version`).
fn espeak_data() -> Option<PathBuf> {
    let out = Command::new("espeak-ng").arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let at = text.find("Data at:")?;
    Some(PathBuf::from(text[at + 8..].trim()))
}

/// Every voice variant name (file names of `voices/!v`), sorted.
fn variants() -> Vec<String> {
    let Some(dir) = espeak_data() else {
        return Vec::new();
    };
    let mut out: Vec<String> = std::fs::read_dir(dir.join("voices").join("!v"))
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| e.path().is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// A variant's family: its name without trailing digits, lower-case.
fn family(variant: &str) -> String {
    variant
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .to_lowercase()
}

/// Families the costs before this tool were learned or tuned on: always
/// training voices.
const TRAIN_FAMILIES: [&str; 2] = ["f", "m"];

fn split_of(variant: &str, holdout: Option<&[String]>) -> Split {
    if variant.starts_with("whisper") {
        return Split::Whisper;
    }
    if variant.is_empty() {
        return Split::Train;
    }
    match holdout {
        Some(list) => {
            if list.iter().any(|v| v == variant) {
                Split::Holdout
            } else {
                Split::Train
            }
        }
        None => {
            let f = family(variant);
            if TRAIN_FAMILIES.contains(&f.as_str())
                || !fnv(&format!("family:{f}")).is_multiple_of(3)
            {
                Split::Train
            } else {
                Split::Holdout
            }
        }
    }
}

/// The spoken commands in the order utterances draw them from.
const COMMAND_ORDER: [&str; 13] = [
    "yes", "no", "cancel", "repeat", "time", "moves", "help", "clock", "resign", "draw", "accept",
    "decline", "claim",
];

/// A spoken command's short name: its spellings' message key
/// (`voice.cmd.KEY`).
trait SpokenKey {
    fn key(self) -> &'static str;
}

impl SpokenKey for Cmd {
    fn key(self) -> &'static str {
        self.row()
            .spoken
            .and_then(|k| k.as_str().strip_prefix("voice.cmd."))
            .unwrap_or(self.name())
    }
}

/// What an utterance says.
#[derive(Clone, Debug, PartialEq)]
enum Said {
    Move { mv: Move },
    Command(Cmd),
    Number(usize),
}

/// One utterance: who says what, how, where.
#[derive(Clone)]
struct Utterance {
    split: Split,
    /// The variant ("" for plain `ko`).
    variant: String,
    cond: usize,
    speed: u32,
    pitch: u32,
    gap: u32,
    /// Peak level, dBFS.
    level: i32,
    effects: Vec<String>,
    noise_seed: u64,
    pos: Chess,
    mode: CastlingMode,
    said: Said,
    text: String,
}

impl Utterance {
    fn voice(&self) -> String {
        if self.variant.is_empty() {
            "ko".to_owned()
        } else {
            format!("ko+{}", self.variant)
        }
    }

    /// Everything the audio and its decoding depend on.
    fn spec(&self, cond: &Condition) -> String {
        format!(
            "v{DECODE_VERSION}|{}|{}|s{}|p{}|g{}|l{}|{:?}|{:?}|{:?}|n{}|{}|{}",
            self.voice(),
            cond.name,
            self.speed,
            self.pitch,
            self.gap,
            self.level,
            self.effects,
            cond.noise,
            cond.tone,
            self.noise_seed,
            fen(&self.pos),
            self.text
        )
    }
}

fn fen(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn uci(m: Move, mode: CastlingMode) -> String {
    UciMove::from_move(m, mode).to_string()
}

/// Positions of the benchmark games: even steps for training, odd ones
/// held out (as `voice_accuracy` splits them).
fn positions(train: bool) -> Vec<(Chess, CastlingMode)> {
    let text = include_str!("../benches/data/voice_games.pgn");
    let games = match annabella::pgn::read_games(text.as_bytes()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("voice_holdout: the games do not read: {e}");
            std::process::exit(1);
        }
    };
    let mut out = Vec::new();
    for g in games {
        let Ok(r) = g.replay() else { continue };
        for (pos, _) in r.steps() {
            if !pos.legal_moves().is_empty() {
                out.push((pos, r.mode));
            }
        }
    }
    out.into_iter()
        .enumerate()
        .filter(|(i, _)| (i % 2 == 0) == train)
        .map(|(_, p)| p)
        .collect()
}

struct Plan<'a> {
    seed: u64,
    moves: usize,
    commands: usize,
    extra_moves: usize,
    extra_commands: usize,
    vocab: &'a Vocabulary,
    command_words: &'a SpokenCommandWords,
    numbers: &'a ChoiceNumbers,
}

/// The utterances of one voice in one condition (seeded by the seed,
/// the voice and the condition alone: choosing fewer conditions or voices
/// does not change the others). Training voices also say the extra moves
/// and commands, from a stream of their own (more training data leaves the
/// others as they were).
fn utterances(
    plan: &Plan<'_>,
    split: Split,
    variant: &str,
    cond_index: usize,
    cond: &Condition,
    pool: &[(Chess, CastlingMode)],
) -> Vec<Utterance> {
    let mut out = Vec::new();
    let mut rng = Rng(plan.seed ^ fnv(&format!("{variant}|{}", cond.name)));
    for k in 0..plan.moves + plan.commands {
        out.extend(utterance(
            plan,
            &mut rng,
            k < plan.moves,
            split,
            variant,
            cond_index,
            cond,
            pool,
        ));
    }
    if split == Split::Train {
        let mut rng = Rng(plan.seed ^ fnv(&format!("extra|{variant}|{}", cond.name)));
        for k in 0..plan.extra_moves + plan.extra_commands {
            out.extend(utterance(
                plan,
                &mut rng,
                k < plan.extra_moves,
                split,
                variant,
                cond_index,
                cond,
                pool,
            ));
        }
    }
    out
}

/// One utterance drawn from `rng`: a move (`is_move`) or a command or
/// number word.
#[allow(clippy::too_many_arguments)]
fn utterance(
    plan: &Plan<'_>,
    rng: &mut Rng,
    is_move: bool,
    split: Split,
    variant: &str,
    cond_index: usize,
    cond: &Condition,
    pool: &[(Chess, CastlingMode)],
) -> Option<Utterance> {
    let (pos, mode) = pool[rng.below(pool.len())].clone();
    let speed = rng.range(100, 220);
    let pitch = rng.range(10, 90);
    let gap = cond.gap.map_or(0, |(lo, hi)| rng.range(lo, hi));
    let level = -(rng.range(3, 20) as i32);
    let effects = (cond.sox)(rng);
    let noise_seed = rng.next();
    let (said, text) = if is_move {
        let legal = pos.legal_moves();
        let mv = legal[rng.below(legal.len())];
        let style = if rng.below(4) == 0 {
            Style::Long
        } else {
            Style::Short
        };
        let text = plan.vocab.announce(&pos, mv, style).spoken;
        (Said::Move { mv }, text)
    } else {
        let mut commands: Vec<(Cmd, &[String])> = plan.command_words.iter().collect();
        // Drawn in a fixed order (the same seed says the same commands
        // whatever order the command table lists them in).
        commands.sort_by_key(|(c, _)| COMMAND_ORDER.iter().position(|k| *k == c.key()));
        let numbers: Vec<(usize, &[String])> = plan.numbers.iter().collect();
        // One in five is a number (an answer to a question).
        if rng.below(5) == 0 {
            let (n, forms) = numbers[rng.below(numbers.len())];
            let words: Vec<&String> = forms
                .iter()
                .filter(|f| !f.chars().all(|c| c.is_ascii_digit()))
                .collect();
            if words.is_empty() {
                return None;
            }
            (Said::Number(n), words[rng.below(words.len())].clone())
        } else {
            let (c, forms) = commands[rng.below(commands.len())];
            (Said::Command(c), forms[rng.below(forms.len())].clone())
        }
    };
    Some(Utterance {
        split,
        variant: variant.to_owned(),
        cond: cond_index,
        speed,
        pitch,
        gap,
        level,
        effects,
        noise_seed,
        pos,
        mode,
        said,
        text,
    })
}

/// espeak-ng, then sox (16 kHz mono, the room padded on, the condition's
/// effects, the level), then noise or a tone mixed in here.
fn render(u: &Utterance, cond: &Condition, dir: &Path) -> Option<Vec<i16>> {
    let raw = dir.join("say.wav");
    let out = dir.join("room.wav");
    let mut espeak = Command::new("espeak-ng");
    espeak.args([
        "-v",
        &u.voice(),
        "-s",
        &u.speed.to_string(),
        "-p",
        &u.pitch.to_string(),
    ]);
    if u.gap > 0 {
        espeak.args(["-g", &u.gap.to_string()]);
    }
    let ok = espeak
        .arg("-w")
        .arg(&raw)
        .arg(&u.text)
        .status()
        .ok()?
        .success();
    if !ok {
        return None;
    }
    let ok = Command::new("sox")
        .args(["-R", "-V1"])
        .arg(&raw)
        .args(["-r", "16000", "-c", "1", "-b", "16"])
        .arg(&out)
        .args(["gain", "-n", "-6", "pad", "0.25", "0.35"])
        .args(&u.effects)
        .args(["gain", "-n", &u.level.to_string()])
        .status()
        .ok()?
        .success();
    if !ok {
        return None;
    }
    let speech = annabella::voice::audio::read_wav(&out).ok()?;
    Some(mix(&speech, cond, u.noise_seed))
}

/// Adds the condition's noise or tone at its SNR (measured on the loud
/// part of the speech), or a faint room floor.
fn mix(speech: &[i16], cond: &Condition, seed: u64) -> Vec<i16> {
    let mut rng = Rng(seed);
    let x: Vec<f32> = speech.iter().map(|&s| f32::from(s)).collect();
    let rms = {
        let loud: Vec<f32> = x.iter().copied().filter(|s| s.abs() > 100.0).collect();
        (loud.iter().map(|s| s * s).sum::<f32>() / loud.len().max(1) as f32).sqrt()
    };
    let n = x.len();
    let mut noise: Vec<f32> = match cond.noise {
        Some((Colour::White, _)) => (0..n).map(|_| rng.unit()).collect(),
        Some((Colour::Pink, _)) => {
            let mut b = [0.0f32; 3];
            (0..n)
                .map(|_| {
                    let w = rng.unit();
                    b[0] = 0.99765 * b[0] + w * 0.099_046;
                    b[1] = 0.963 * b[1] + w * 0.296_516_4;
                    b[2] = 0.57 * b[2] + w * 1.052_691_3;
                    b[0] + b[1] + b[2] + w * 0.1848
                })
                .collect()
        }
        Some((Colour::Brown, _)) => {
            let mut y = 0.0f32;
            (0..n)
                .map(|_| {
                    y = 0.995 * y + rng.unit();
                    y
                })
                .collect()
        }
        None => {
            // A quiet room: brown rumble and a little hiss.
            let mut brown = 0.0f32;
            (0..n)
                .map(|_| {
                    brown = 0.98 * brown + 0.2 * rng.unit();
                    brown + 0.3 * rng.unit()
                })
                .collect()
        }
    };
    let snr = cond.noise.map(|(_, s)| s);
    if let Some((f0, harmonics, tone_snr)) = cond.tone {
        let phase0 = rng.rangef(0.0, std::f32::consts::TAU);
        for (i, v) in noise.iter_mut().enumerate() {
            let t = i as f32 / 16_000.0;
            let s: f32 = (1..=harmonics)
                .map(|k| (2.0 * std::f32::consts::PI * f0 * k as f32 * t + phase0).sin() / k as f32)
                .sum();
            // The floor stays, faint; the tone is set to its SNR below.
            *v = s * 1000.0 + *v * 0.01;
        }
        let nrms = (noise.iter().map(|s| s * s).sum::<f32>() / n.max(1) as f32).sqrt();
        let gain = rms / 10f32.powf(tone_snr / 20.0) / nrms.max(1e-6);
        return add(&x, &noise, gain);
    }
    let nrms = (noise.iter().map(|s| s * s).sum::<f32>() / n.max(1) as f32).sqrt();
    let gain = match snr {
        Some(db) => rms / 10f32.powf(db / 20.0) / nrms.max(1e-6),
        None => 30.0 / nrms.max(1e-6),
    };
    add(&x, &noise, gain)
}

fn add(x: &[f32], noise: &[f32], gain: f32) -> Vec<i16> {
    x.iter()
        .zip(noise)
        .map(|(s, n)| (s + n * gain).clamp(-32768.0, 32767.0) as i16)
        .collect()
}

/// What one utterance was heard as (kept in the cache).
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Cached {
    key: String,
    /// What `Decoding::finish` recorded (both decodings).
    json: String,
    /// The voicing check's settings and version it was measured with.
    voicing_tag: String,
    voiced: bool,
    voiced_ms: u32,
    /// For analysis outside this tool.
    #[serde(default)]
    meta: serde_json::Value,
}

fn voicing_tag(l: &Listener) -> String {
    format!("{:?}", l.voicing)
}

#[derive(Default, Clone, Copy, Debug)]
struct MoveTally {
    n: usize,
    right: usize,
    right_first: usize,
    right_later: usize,
    other_ask: usize,
    not_understood: usize,
    command: usize,
    wrong: usize,
}

impl MoveTally {
    fn add(&mut self, d: &Decision, said: Move) {
        self.n += 1;
        let asked = |c: &[Move], me: &mut MoveTally| {
            if c.first() == Some(&said) {
                me.right_first += 1;
            } else if c.contains(&said) {
                me.right_later += 1;
            } else {
                me.other_ask += 1;
            }
        };
        match d {
            Decision::Move { mv, .. } if *mv == said => self.right += 1,
            Decision::Move { .. } => self.wrong += 1,
            Decision::Ask { candidates, .. } | Decision::DidYouMean { candidates, .. } => {
                asked(candidates, self)
            }
            Decision::Command { .. } => self.command += 1,
            Decision::NotUnderstood { .. } | Decision::Number { .. } => self.not_understood += 1,
        }
    }
    fn merge(&mut self, o: &MoveTally) {
        self.n += o.n;
        self.right += o.right;
        self.right_first += o.right_first;
        self.right_later += o.right_later;
        self.other_ask += o.other_ask;
        self.not_understood += o.not_understood;
        self.command += o.command;
        self.wrong += o.wrong;
    }
    fn figure(&self) -> f64 {
        100.0 * (self.right + self.right_first) as f64 / self.n.max(1) as f64
    }
    /// Utterances (the moves said, and an answer to every question that
    /// named the move) per move accepted.
    fn per_accepted(&self) -> f64 {
        let asked = self.right_first + self.right_later;
        let accepted = self.right + asked;
        if accepted == 0 {
            f64::INFINITY
        } else {
            (self.n + asked) as f64 / accepted as f64
        }
    }
    fn line(&self, label: &str) -> String {
        format!(
            "{label:<30} n {:>4}  taken {:>3}  asked-first {:>3}  asked-later {:>3}  other-asks {:>3}  not-understood {:>3}  command {:>2}  WRONG {}  figure {:>5.1}%  utt/accepted {:>4.2}",
            self.n,
            self.right,
            self.right_first,
            self.right_later,
            self.other_ask,
            self.not_understood,
            self.command,
            self.wrong,
            self.figure(),
            self.per_accepted()
        )
    }
}

#[derive(Default, Clone, Copy, Debug)]
struct CommandTally {
    n: usize,
    right: usize,
    wrong_command: usize,
    wrong_move: usize,
    asked: usize,
    not_understood: usize,
}

impl CommandTally {
    fn add(&mut self, d: &Decision, said: &Said) {
        self.n += 1;
        match (d, said) {
            (Decision::Command { command, .. }, Said::Command(c)) if command == c => {
                self.right += 1
            }
            (Decision::Number { number, .. }, Said::Number(n)) if number == n => self.right += 1,
            (Decision::Command { .. } | Decision::Number { .. }, _) => self.wrong_command += 1,
            (Decision::Move { .. }, _) => self.wrong_move += 1,
            (Decision::Ask { .. } | Decision::DidYouMean { .. }, _) => self.asked += 1,
            (Decision::NotUnderstood { .. }, _) => self.not_understood += 1,
        }
    }
    fn merge(&mut self, o: &CommandTally) {
        self.n += o.n;
        self.right += o.right;
        self.wrong_command += o.wrong_command;
        self.wrong_move += o.wrong_move;
        self.asked += o.asked;
        self.not_understood += o.not_understood;
    }
    fn figure(&self) -> f64 {
        100.0 * self.right as f64 / self.n.max(1) as f64
    }
    fn line(&self, label: &str) -> String {
        format!(
            "{label:<30} n {:>4}  right {:>3}  WRONG-COMMAND {}  WRONG-MOVE {}  question {:>3}  not-understood {:>3}  figure {:>5.1}%",
            self.n,
            self.right,
            self.wrong_command,
            self.wrong_move,
            self.asked,
            self.not_understood,
            self.figure()
        )
    }
}

/// One utterance for tuning: what was said, what every alternative and the
/// word-loop decoding read as, the decision, the closest phrases.
fn dump_line(
    l: &Listener,
    u: &Utterance,
    cond: &Condition,
    c: &Cached,
    hearing: &Hearing,
    g: &annabella::voice::grammar::Grammar,
    d: &Decision,
) -> String {
    use annabella::voice::nearmiss::{PhraseMeaning, PhraseWords, rank};
    let reads = |text: &str| -> String {
        let text = text.trim();
        if text.is_empty() {
            return "empty".into();
        }
        if let Some(cmd) = l.commands.find(&l.vocab, text) {
            return format!("cmd:{}", cmd.key());
        }
        if let Some(n) = ChoiceNumbers::from_vocab(&l.vocab).find(&l.vocab, text) {
            return format!("number:{n}");
        }
        match l.vocab.parse(&u.pos, u.mode, text) {
            Ok(m) => uci(m, u.mode),
            Err(annabella::vocab::ParseError::Ambiguous(ms)) => format!(
                "ambiguous:{}",
                ms.iter()
                    .map(|m| uci(*m, u.mode))
                    .collect::<Vec<_>>()
                    .join("/")
            ),
            Err(_) => "none".into(),
        }
    };
    let target = match &u.said {
        Said::Move { mv } => uci(*mv, u.mode),
        Said::Command(c) => format!("cmd:{}", c.key()),
        Said::Number(n) => format!("number:{n}"),
    };
    let phrase = match &u.said {
        Said::Move { mv } => {
            let said = model_form(&u.text);
            if g.moves.iter().any(|(p, m)| *p == said && m == mv) {
                said
            } else {
                g.moves
                    .iter()
                    .find(|(_, m)| m == mv)
                    .map_or(String::new(), |(p, _)| p.clone())
            }
        }
        _ => model_form(&u.text),
    };
    let alts: Vec<serde_json::Value> = hearing
        .alternatives
        .iter()
        .map(|a| {
            serde_json::json!({
                "text": a.text,
                "conf": a.confidence,
                "reads": reads(&a.text),
                "offered": g.moves.iter().any(|(p, _)| *p == model_form(&a.text)),
                "words": a.words.iter().map(|w| serde_json::json!([w.word, w.conf])).collect::<Vec<_>>(),
            })
        })
        .collect();
    let loop_text = serde_json::from_str::<serde_json::Value>(&c.json)
        .ok()
        .and_then(|v| v.get("words").and_then(|w| w.get("text")).cloned())
        .and_then(|t| t.as_str().map(str::to_owned))
        .unwrap_or_default();
    let phrases = PhraseWords::new(g);
    let top: Vec<serde_json::Value> = hearing
        .alternatives
        .first()
        .map(|a| {
            let best = Hearing {
                alternatives: vec![a.clone()],
            };
            rank(&l.costs, &phrases, &best, 0.0)
                .iter()
                .take(6)
                .map(|s| {
                    let what = match s.meaning {
                        PhraseMeaning::Move(m) => uci(m, u.mode),
                        PhraseMeaning::Command(c) => format!("cmd:{}", c.key()),
                    };
                    serde_json::json!([what, s.cost, s.words])
                })
                .collect()
        })
        .unwrap_or_default();
    serde_json::json!({
        "split": u.split.name(),
        "voice": u.voice(),
        "cond": cond.name,
        "target": target,
        "phrase": phrase,
        "voiced": c.voiced,
        "voiced_ms": c.voiced_ms,
        "decision": short(d, u.mode),
        "alts": alts,
        "loop": loop_text,
        "loop_reads": reads(&loop_text),
        "near": top,
        "phrases": g
            .moves
            .iter()
            .map(|(p, m)| (p.clone(), uci(*m, u.mode)))
            .chain(g.commands.iter().map(|(p, c)| (p.clone(), format!("cmd:{}", c.key()))))
            .collect::<Vec<_>>(),
    })
    .to_string()
}

/// The options a learning run was given, for the costs file's header.
fn learn_flags(a: &Args) -> String {
    let mut f = String::new();
    if a.seed != 23 {
        f.push_str(&format!(" --seed {}", a.seed));
    }
    if a.moves != 2 {
        f.push_str(&format!(" --moves {}", a.moves));
    }
    if a.commands != 2 {
        f.push_str(&format!(" --commands {}", a.commands));
    }
    if a.train_moves > 0 {
        f.push_str(&format!(" --train-moves {}", a.train_moves));
    }
    if a.train_commands > 0 {
        f.push_str(&format!(" --train-commands {}", a.train_commands));
    }
    f
}

/// A training utterance, ready to be decided again under other rules.
#[derive(Clone)]
struct Trial {
    pos: Chess,
    mode: CastlingMode,
    grammar: annabella::voice::grammar::Grammar,
    hearing: Hearing,
    voiced: bool,
    said: Said,
}

/// What the training utterances came to under one set of rules.
#[derive(Default, Clone, Copy, Debug)]
struct Outcome {
    moves: MoveTally,
    commands: CommandTally,
}

impl Outcome {
    fn wrong_moves(&self) -> usize {
        self.moves.wrong + self.commands.wrong_move
    }
    /// Commands (or numbers) acted on that nobody said: other commands,
    /// and commands heard where a move was said.
    fn wrong_commands(&self) -> usize {
        self.commands.wrong_command + self.moves.command
    }
}

/// Decides every trial again (on two threads: the rules search makes
/// many passes over thousands of hearings) and tallies the decisions.
fn decide_all(l: &Listener, trials: &[Trial]) -> Outcome {
    let half = trials.len().div_ceil(2).max(1);
    let decisions: Vec<Decision> = std::thread::scope(|s| {
        let parts: Vec<_> = trials
            .chunks(half)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|t| l.decide_voiced(t.voiced, &t.pos, t.mode, &t.grammar, &t.hearing))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut o = Outcome::default();
    for (t, d) in trials.iter().zip(&decisions) {
        match &t.said {
            Said::Move { mv } => o.moves.add(d, *mv),
            said => o.commands.add(d, said),
        }
    }
    o
}

/// Safety added to the smallest take and command margins that made no
/// wrong move or command on the training voices (nats: a likelihood ratio
/// of e^2, about 7): what generalises to voices never heard.
const SAFETY: f32 = 2.0;

/// Searches the decision thresholds on the training utterances:
/// 1. the near-miss rules (how far off a hearing may be and still be
///    asked about, how much later alternatives count) by coordinate
///    search, for the most right moves taken or asked first (a wrong
///    question counts a twentieth against), with no move taken and no
///    command acted on;
/// 2. the take margin (`confusable`): the smallest margin at which no
///    training move was taken wrongly, plus [`SAFETY`];
/// 3. the command margin likewise for commands and numbers.
fn search_rules(l: &mut Listener, trials: &[Trial]) -> NearMissRules {
    use annabella::voice::nearmiss::MAX_RULE;
    let t = Instant::now();
    let mut r = NearMissRules {
        confusable: MAX_RULE,
        command_margin: MAX_RULE,
        ..NearMissRules::default()
    };
    let score = |o: &Outcome| {
        (o.moves.right + o.moves.right_first) as f64 - 0.05 * o.moves.other_ask as f64
    };
    let eval = |l: &mut Listener, r: NearMissRules| {
        l.costs.rules = r;
        decide_all(l, trials)
    };
    // The knobs only change which moves are asked about (nothing is taken,
    // no command acted on): measured on the moves alone.
    let moves: Vec<&Trial> = trials
        .iter()
        .filter(|t| matches!(t.said, Said::Move { .. }))
        .collect();
    let move_trials: Vec<Trial> = moves.into_iter().cloned().collect();
    let eval_moves = |l: &mut Listener, r: NearMissRules| {
        l.costs.rules = r;
        decide_all(l, &move_trials)
    };
    let mut best = eval_moves(l, r);
    type Knob = (&'static str, fn(&mut NearMissRules, f32), &'static [f32]);
    let knobs: [Knob; 5] = [
        (
            "max_cost",
            |r, v| r.max_cost = v,
            &[4.0, 8.0, 14.0, 20.0, 30.0],
        ),
        ("per_word", |r, v| r.per_word = v, &[0.0, 2.0, 4.0, 6.0]),
        ("spread", |r, v| r.spread = v, &[0.5, 1.0, 2.0, 3.0]),
        ("rank_penalty", |r, v| r.rank_penalty = v, &[0.0, 1.0, 2.0]),
        (
            "min_heard_words",
            |r, v| r.min_heard_words = v as usize,
            &[1.0, 2.0],
        ),
    ];
    for (name, set, values) in &knobs {
        for &v in *values {
            let mut c = r;
            set(&mut c, v);
            if format!("{c:?}") == format!("{r:?}") {
                continue;
            }
            let o = eval_moves(l, c);
            if score(&o) > score(&best) + 1e-9 {
                best = o;
                r = c;
            }
        }
        println!(
            "  rules search: {name} -> {:?}: figure {:.1}% (other questions {}, {:.0} s)",
            r,
            best.moves.figure(),
            best.moves.other_ask,
            t.elapsed().as_secs_f64()
        );
    }
    // The margins: wrong moves (and commands) only fall as they grow, so
    // the smallest safe one on the grid is found by bisection.
    let margins: Vec<f32> = (0..=60).map(|i| i as f32 * 0.5).collect();
    let smallest_safe = |l: &mut Listener, make: &dyn Fn(f32) -> NearMissRules, commands: bool| {
        let safe = |o: &Outcome| o.wrong_moves() == 0 && (!commands || o.wrong_commands() == 0);
        // Invariant: margins[hi] is safe (or hi is past the grid: MAX_RULE).
        let (mut lo, mut hi) = (0usize, margins.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if safe(&eval(l, make(margins[mid]))) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        margins.get(hi).copied().unwrap_or(MAX_RULE)
    };
    let base = r;
    let take = smallest_safe(
        l,
        &|m| NearMissRules {
            confusable: m,
            ..base
        },
        false,
    );
    r.confusable = (take + SAFETY).min(MAX_RULE);
    println!(
        "  rules search: smallest safe take margin {take} ({:.0} s)",
        t.elapsed().as_secs_f64()
    );
    let base = r;
    let command = smallest_safe(
        l,
        &|m| NearMissRules {
            command_margin: m,
            ..base
        },
        true,
    );
    r.command_margin = (command + SAFETY).min(MAX_RULE);
    println!(
        "  rules search: smallest safe command margin {command} ({:.0} s)",
        t.elapsed().as_secs_f64()
    );
    let o = eval(l, r);
    println!(
        "  rules: {r:?}\n  training voices with them: moves figure {:.1}% (taken {}), commands right {} of {}, wrong moves {}, wrong commands {} ({:.0} s)",
        o.moves.figure(),
        o.moves.right,
        o.commands.right,
        o.commands.n,
        o.wrong_moves(),
        o.wrong_commands(),
        t.elapsed().as_secs_f64()
    );
    r
}

/// The `[rules]` table's lines.
fn rules_toml(r: &NearMissRules) -> String {
    format!(
        "max_cost = {:.2}\nper_word = {:.2}\nspread = {:.2}\nmax_candidates = {}\nrank_penalty = {:.2}\nconfusable = {:.2}\nmin_heard_words = {}\ncommand_margin = {:.2}\n",
        r.max_cost,
        r.per_word,
        r.spread,
        r.max_candidates,
        r.rank_penalty,
        r.confusable,
        r.min_heard_words,
        r.command_margin
    )
}

fn short(d: &Decision, mode: CastlingMode) -> String {
    match d {
        Decision::Move { mv, heard } => format!("move {} '{heard}'", uci(*mv, mode)),
        Decision::Ask { candidates, heard } => format!(
            "ask [{}] '{heard}'",
            candidates
                .iter()
                .map(|m| uci(*m, mode))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Decision::DidYouMean { candidates, heard } => format!(
            "did-you-mean [{}] '{heard}'",
            candidates
                .iter()
                .map(|m| uci(*m, mode))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Decision::Number { number, heard } => format!("number {number} '{heard}'"),
        Decision::Command { command, heard } => format!("command {} '{heard}'", command.key()),
        Decision::NotUnderstood { heard } => format!("not-understood '{heard}'"),
    }
}

struct Args {
    model: Option<PathBuf>,
    seed: u64,
    moves: usize,
    commands: usize,
    train_moves: usize,
    train_commands: usize,
    conditions: Option<Vec<String>>,
    holdout: Option<Vec<String>>,
    split: Option<String>,
    costs: Option<PathBuf>,
    learn: Option<PathBuf>,
    cache: PathBuf,
    list: bool,
    per_voice: bool,
    dump: Option<PathBuf>,
}

fn args() -> Args {
    let mut a = Args {
        model: std::env::var_os("ANNABELLA_TEST_MODEL").map(PathBuf::from),
        seed: 23,
        moves: 2,
        commands: 2,
        train_moves: 0,
        train_commands: 0,
        conditions: None,
        holdout: None,
        split: None,
        costs: None,
        learn: None,
        cache: PathBuf::from("target/voice_holdout"),
        list: false,
        per_voice: false,
        dump: None,
    };
    let mut it = std::env::args().skip(1);
    let list = |v: String| -> Vec<String> {
        v.split(',')
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect()
    };
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--list" => {
                a.list = true;
                continue;
            }
            "--per-voice" => {
                a.per_voice = true;
                continue;
            }
            _ => {}
        }
        let Some(value) = it.next() else {
            eprintln!("voice_holdout: {flag} needs a value");
            std::process::exit(2);
        };
        let number = |v: &str| -> usize {
            v.parse().unwrap_or_else(|_| {
                eprintln!("voice_holdout: {flag} takes a number, not '{v}'");
                std::process::exit(2);
            })
        };
        match flag.as_str() {
            "--model" => a.model = Some(PathBuf::from(value)),
            "--seed" => a.seed = number(&value) as u64,
            "--moves" => a.moves = number(&value),
            "--commands" => a.commands = number(&value),
            "--train-moves" => a.train_moves = number(&value),
            "--train-commands" => a.train_commands = number(&value),
            "--conditions" => a.conditions = Some(list(value)),
            "--holdout-voices" => a.holdout = Some(list(value)),
            "--split" => a.split = Some(value),
            "--costs" => a.costs = Some(PathBuf::from(value)),
            "--learn" => a.learn = Some(PathBuf::from(value)),
            "--cache" => a.cache = PathBuf::from(value),
            "--dump" => a.dump = Some(PathBuf::from(value)),
            other => {
                eprintln!("voice_holdout: unknown option {other}");
                std::process::exit(2);
            }
        }
    }
    a
}

fn load_cache(path: &Path) -> HashMap<String, Cached> {
    let mut out = HashMap::new();
    if let Ok(text) = std::fs::read_to_string(path) {
        for line in text.lines() {
            if let Ok(c) = serde_json::from_str::<Cached>(line) {
                out.insert(c.key.clone(), c);
            }
        }
    }
    out
}

fn read_costs(file: &Path) -> WordCosts {
    let read = std::fs::read_to_string(file).map_err(|e| e.to_string());
    match read.and_then(|t| {
        WordCosts::from_toml(&file.display().to_string(), &t).map_err(|e| format!("{e:?}"))
    }) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("voice_holdout: {}: {e}", file.display());
            std::process::exit(1);
        }
    }
}

fn main() {
    let a = args();
    annabella::voice::stderr::quiet_vosk(true);
    let Some(model_dir) = a.model.clone() else {
        eprintln!("voice_holdout: no Korean model: give --model DIR or set ANNABELLA_TEST_MODEL");
        std::process::exit(2);
    };
    let vocab = match Vocabulary::builtin("ko") {
        Ok(v) => v,
        Err(e) => {
            eprintln!("voice_holdout: no Korean locale: {e}");
            std::process::exit(1);
        }
    };
    let model = match VoskModel::load(&model_dir) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("voice_holdout: {}: {e}", model_dir.display());
            std::process::exit(1);
        }
    };
    let mut listener = Listener::new(model, vocab.clone(), DecisionSettings::default());
    if let Some(file) = &a.costs {
        listener.costs = read_costs(file);
    }
    let vtag = voicing_tag(&listener);
    let all_conditions = conditions();
    let chosen: Vec<usize> = (0..all_conditions.len())
        .filter(|&i| {
            a.conditions
                .as_ref()
                .is_none_or(|l| l.iter().any(|n| n == all_conditions[i].name))
        })
        .collect();
    if let Some(l) = &a.conditions {
        for n in l {
            if !all_conditions.iter().any(|c| c.name == n) {
                eprintln!(
                    "voice_holdout: no condition '{n}' (there are: {})",
                    all_conditions
                        .iter()
                        .map(|c| c.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                std::process::exit(2);
            }
        }
    }
    let mut voices: Vec<String> = vec![String::new()];
    voices.extend(variants());
    if voices.len() == 1 {
        eprintln!("voice_holdout: no espeak-ng voice variants found");
    }
    let command_words = SpokenCommandWords::from_vocab(&vocab);
    let numbers = ChoiceNumbers::from_vocab(&vocab);
    let plan = Plan {
        seed: a.seed,
        moves: a.moves,
        commands: a.commands,
        extra_moves: a.train_moves,
        extra_commands: a.train_commands,
        vocab: &vocab,
        command_words: &command_words,
        numbers: &numbers,
    };
    let train_pool = positions(true);
    let held_pool = positions(false);
    let wanted = |s: Split| match a.split.as_deref() {
        Some("train") => s == Split::Train,
        Some("holdout") => s != Split::Train,
        _ => true,
    };
    let mut utts: Vec<Utterance> = Vec::new();
    let mut split_voices: BTreeMap<Split, Vec<String>> = BTreeMap::new();
    for v in &voices {
        let split = split_of(v, a.holdout.as_deref());
        split_voices
            .entry(split)
            .or_default()
            .push(if v.is_empty() { "ko".into() } else { v.clone() });
        if !wanted(split) {
            continue;
        }
        let pool = if split == Split::Train {
            &train_pool
        } else {
            &held_pool
        };
        for &ci in &chosen {
            utts.extend(utterances(&plan, split, v, ci, &all_conditions[ci], pool));
        }
    }
    println!(
        "voice_holdout: seed {}, {} moves and {} commands per voice and condition, {} utterances; Korean model {}",
        a.seed,
        a.moves,
        a.commands,
        utts.len(),
        model_dir.display()
    );
    for (s, vs) in &split_voices {
        println!("{} voices ({}): {}", s.name(), vs.len(), vs.join(" "));
    }
    println!(
        "conditions: {}",
        chosen
            .iter()
            .map(|&i| all_conditions[i].name)
            .collect::<Vec<_>>()
            .join(", ")
    );
    match &a.costs {
        Some(f) => println!("costs: {}", f.display()),
        None => println!("costs: built-in locales/ko.costs.toml"),
    }

    // Decode what the cache lacks.
    if let Err(e) = std::fs::create_dir_all(&a.cache) {
        eprintln!("voice_holdout: {}: {e}", a.cache.display());
        std::process::exit(1);
    }
    let cache_file = a.cache.join("hearings.jsonl");
    let mut cache = load_cache(&cache_file);
    let mut appender = match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cache_file)
    {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => {
            eprintln!("voice_holdout: {}: {e}", cache_file.display());
            std::process::exit(1);
        }
    };
    let tmp = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("voice_holdout: no temporary folder: {e}");
            std::process::exit(1);
        }
    };
    let t0 = Instant::now();
    let (mut decoded, mut revoiced, mut failed) = (0usize, 0usize, 0usize);
    let mut keys: Vec<Option<String>> = Vec::with_capacity(utts.len());
    for (i, u) in utts.iter().enumerate() {
        let cond = &all_conditions[u.cond];
        let key = format!("{:016x}", fnv(&u.spec(cond)));
        let have = cache.get(&key);
        if have.is_some_and(|c| c.voicing_tag == vtag) {
            keys.push(Some(key));
            continue;
        }
        let Some(audio) = render(u, cond, tmp.path()) else {
            failed += 1;
            keys.push(None);
            continue;
        };
        let voiced_ms = voicing::voiced_ms(&audio, listener.voicing);
        let voiced = voicing::has_voice(&audio, listener.voicing);
        let json = match have {
            Some(c) => {
                revoiced += 1;
                c.json.clone()
            }
            None => {
                let g = listener.grammar(&u.pos, u.mode);
                let Some(mut d) = listener.model.recognizer(&g) else {
                    failed += 1;
                    keys.push(None);
                    continue;
                };
                for chunk in audio.chunks(1600) {
                    d.feed(chunk);
                }
                decoded += 1;
                d.finish().1
            }
        };
        let target = match &u.said {
            Said::Move { mv } => uci(*mv, u.mode),
            Said::Command(c) => format!("cmd:{}", c.key()),
            Said::Number(n) => format!("number:{n}"),
        };
        let c = Cached {
            key: key.clone(),
            json,
            voicing_tag: vtag.clone(),
            voiced,
            voiced_ms,
            meta: serde_json::json!({
                "split": u.split.name(),
                "voice": u.voice(),
                "cond": cond.name,
                "speed": u.speed,
                "pitch": u.pitch,
                "fen": fen(&u.pos),
                "said": model_form(&u.text),
                "target": target,
            }),
        };
        if let Ok(line) = serde_json::to_string(&c) {
            let _ = writeln!(appender, "{line}");
        }
        cache.insert(key.clone(), c);
        keys.push(Some(key));
        if (decoded + revoiced) % 200 == 0 {
            let _ = appender.flush();
            eprintln!(
                "voice_holdout: {} of {} ({} decoded, {} voicing measured again), {:.0} s",
                i + 1,
                utts.len(),
                decoded,
                revoiced,
                t0.elapsed().as_secs_f64()
            );
        }
    }
    let _ = appender.flush();
    println!(
        "decoded {decoded} utterances, voicing measured again for {revoiced}, {} from the cache, {failed} failed ({:.0} s)",
        utts.len() - decoded - revoiced - failed,
        t0.elapsed().as_secs_f64()
    );

    // Learn from the training voices.
    if let Some(out) = &a.learn {
        let mut conf = confusions::Confusions::default();
        for (u, key) in utts.iter().zip(&keys) {
            let Some(c) = key.as_ref().and_then(|k| cache.get(k)) else {
                continue;
            };
            if u.split != Split::Train || !c.voiced {
                continue;
            }
            let hearing = Hearing::from_recorded_json(&c.json).unwrap_or_default();
            match &u.said {
                Said::Move { mv } => {
                    let g = listener.grammar(&u.pos, u.mode);
                    conf.add(&g, &u.text, *mv, &hearing);
                }
                Said::Command(_) | Said::Number(_) => {
                    conf.add_phrase(&model_form(&u.text), &hearing)
                }
            }
        }
        let _ = std::fs::write(out.with_extension("counts.json"), conf.to_json());
        let header = format!(
            "# Per-word costs and decision thresholds of spoken moves and commands\n\
             # (src/voice/nearmiss.rs, src/voice/decide.rs), learned by\n\
             #   cargo run --release --example voice_holdout -- --learn locales/ko.costs.toml{}\n\
             # from espeak-ng Korean through the Korean Vosk model: the training voices\n\
             # only ({} utterances: every variant of the families not held out, 16\n\
             # recording conditions; held-out voices, their positions and the whispered\n\
             # voices are never learned from). Costs are in nats: a word heard as\n\
             # another costs -ln P(heard | said), smoothed (add 0.5); a confusion never\n\
             # seen costs the default. The [rules] were searched on the training voices\n\
             # (see examples/voice_holdout.rs).\n\n",
            learn_flags(&a),
            conf.utterances
        );
        let nat = confusions::NatCosts::default();
        let plain = conf.to_toml_nats(&nat, &header, "");
        match WordCosts::from_toml(&out.display().to_string(), &plain) {
            Ok(c) => listener.costs = c,
            Err(e) => {
                eprintln!("voice_holdout: the learned costs do not read: {e:?}");
                std::process::exit(1);
            }
        }
        let training: Vec<Trial> = utts
            .iter()
            .zip(&keys)
            .filter(|(u, _)| u.split == Split::Train)
            .filter_map(|(u, key)| {
                let c = key.as_ref().and_then(|k| cache.get(k))?;
                Some(Trial {
                    pos: u.pos.clone(),
                    mode: u.mode,
                    grammar: listener.grammar(&u.pos, u.mode),
                    hearing: Hearing::from_recorded_json(&c.json).unwrap_or_default(),
                    voiced: c.voiced,
                    said: u.said.clone(),
                })
            })
            .collect();
        let rules = search_rules(&mut listener, &training);
        let text = conf.to_toml_nats(&nat, &header, &rules_toml(&rules));
        match std::fs::write(out, &text) {
            Ok(()) => println!("learned costs and rules written to {}", out.display()),
            Err(e) => {
                eprintln!("voice_holdout: {}: {e}", out.display());
                std::process::exit(1);
            }
        }
        listener.costs = read_costs(out);
    }

    // Decide and tally.
    let mut dump = a
        .dump
        .as_ref()
        .and_then(|p| match std::fs::File::create(p) {
            Ok(f) => Some(std::io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("voice_holdout: {}: {e}", p.display());
                None
            }
        });
    let t = Instant::now();
    let mut moves: BTreeMap<(Split, usize), MoveTally> = BTreeMap::new();
    let mut commands: BTreeMap<(Split, usize), CommandTally> = BTreeMap::new();
    let mut by_voice: BTreeMap<(Split, String), (MoveTally, CommandTally)> = BTreeMap::new();
    for (u, key) in utts.iter().zip(&keys) {
        let Some(c) = key.as_ref().and_then(|k| cache.get(k)) else {
            continue;
        };
        let hearing = Hearing::from_recorded_json(&c.json).unwrap_or_default();
        let g = listener.grammar(&u.pos, u.mode);
        let d = listener.decide_voiced(c.voiced, &u.pos, u.mode, &g, &hearing);
        if let Some(out) = dump.as_mut() {
            let _ = writeln!(
                out,
                "{}",
                dump_line(&listener, u, &all_conditions[u.cond], c, &hearing, &g, &d)
            );
        }
        let voice_entry = by_voice.entry((u.split, u.voice())).or_default();
        let bad = match &u.said {
            Said::Move { mv } => {
                moves.entry((u.split, u.cond)).or_default().add(&d, *mv);
                voice_entry.0.add(&d, *mv);
                matches!(&d, Decision::Move { mv: m, .. } if m != mv)
            }
            said => {
                commands.entry((u.split, u.cond)).or_default().add(&d, said);
                voice_entry.1.add(&d, said);
                match (&d, said) {
                    (Decision::Move { .. }, _) => true,
                    (Decision::Command { command, .. }, Said::Command(x)) => command != x,
                    (Decision::Command { .. }, _) => true,
                    (Decision::Number { number, .. }, Said::Number(n)) => number != n,
                    (Decision::Number { .. }, _) => true,
                    _ => false,
                }
            }
        };
        if a.list || bad {
            let target = match &u.said {
                Said::Move { mv } => uci(*mv, u.mode),
                Said::Command(c) => format!("cmd:{}", c.key()),
                Said::Number(n) => format!("number:{n}"),
            };
            println!(
                "  {}{} {} {} s{} p{} g{}: said '{}' ({target}) -> {}  [voiced {} ms] {}",
                if bad { "WRONG " } else { "" },
                u.split.name(),
                u.voice(),
                all_conditions[u.cond].name,
                u.speed,
                u.pitch,
                u.gap,
                u.text,
                short(&d, u.mode),
                c.voiced_ms,
                if bad { fen(&u.pos) } else { String::new() }
            );
        }
    }
    let decide_s = t.elapsed().as_secs_f64();
    for split in [Split::Holdout, Split::Whisper, Split::Train] {
        let mut total = MoveTally::default();
        let mut ctotal = CommandTally::default();
        let rows: Vec<usize> = chosen
            .iter()
            .copied()
            .filter(|ci| moves.contains_key(&(split, *ci)) || commands.contains_key(&(split, *ci)))
            .collect();
        if rows.is_empty() {
            continue;
        }
        println!();
        println!(
            "== {} voices: moves ({} voices)",
            split.name(),
            split_voices.get(&split).map_or(0, Vec::len)
        );
        for ci in &rows {
            let m = moves.get(&(split, *ci)).copied().unwrap_or_default();
            println!("{}", m.line(all_conditions[*ci].name));
            total.merge(&m);
        }
        println!("{}", total.line(&format!("{} all", split.name())));
        println!("== {} voices: commands", split.name());
        for ci in &rows {
            let m = commands.get(&(split, *ci)).copied().unwrap_or_default();
            println!("{}", m.line(all_conditions[*ci].name));
            ctotal.merge(&m);
        }
        println!("{}", ctotal.line(&format!("{} all", split.name())));
        if a.per_voice {
            println!("== {} voices: per voice", split.name());
            for ((s, v), (m, c)) in &by_voice {
                if *s == split {
                    println!(
                        "{}  | commands right {:>2} of {:>2}",
                        m.line(v),
                        c.right,
                        c.n
                    );
                }
            }
        }
    }
    // The summary: held-out moves and commands, wrong ones everywhere.
    let sum = |split: Split| {
        let mut m = MoveTally::default();
        let mut c = CommandTally::default();
        for ((s, _), t) in &moves {
            if *s == split {
                m.merge(t);
            }
        }
        for ((s, _), t) in &commands {
            if *s == split {
                c.merge(t);
            }
        }
        (m, c)
    };
    let (hm, hc) = sum(Split::Holdout);
    let (tm, tc) = sum(Split::Train);
    let (wm, wc) = sum(Split::Whisper);
    let wrong_moves =
        hm.wrong + tm.wrong + wm.wrong + hc.wrong_move + tc.wrong_move + wc.wrong_move;
    let wrong_commands = hc.wrong_command + tc.wrong_command + wc.wrong_command;
    println!();
    println!("decisions: {decide_s:.1} s");
    println!(
        "held-out voices: moves right or asked first {} of {} = {:.1}% (taken {}), utterances per accepted move {:.2}; commands right {} of {} = {:.1}%; training voices: moves {:.1}%, commands {:.1}%; WRONG moves {wrong_moves}, WRONG commands {wrong_commands}",
        hm.right + hm.right_first,
        hm.n,
        hm.figure(),
        hm.right,
        hm.per_accepted(),
        hc.right,
        hc.n,
        hc.figure(),
        tm.figure(),
        tc.figure()
    );
}
