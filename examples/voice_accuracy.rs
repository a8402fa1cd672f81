//! Accuracy of spoken moves on synthesized sets; prints figures.
//!
//!     cargo run --release --example voice_accuracy [-- OPTIONS]
//!
//! Options:
//! - `--per-set N` utterances per set (default 80);
//! - `--seed S` (default 14): the same seed gives the same sets;
//! - `--model CODE=DIR` a Vosk model for locale CODE (repeatable); the
//!   Korean model defaults to env `ANNABELLA_TEST_MODEL`;
//! - `--only CODE` run one locale;
//! - `--wav-dir DIR` also write every synthesized utterance as a 16 kHz
//!   WAV with a `manifest.tsv` (file, locale, set, FEN, UCI, spoken text),
//!   so the sets can be run where a model for the language exists;
//! - `--no-near-miss` decide without near-miss recovery (exact readings
//!   only, as before it existed: the control);
//! - `--no-denoise` feed the recognizer the audio as it is, without the
//!   noise reduction in front of it (the control);
//! - `--quiet-rms X` the room noise (RMS) below which the noise reduction
//!   leaves the audio alone (default: the product's);
//! - `--dump FILE` write one JSON line per decoded utterance (what was
//!   said, the alternatives heard, the decision, the closest moves with
//!   their costs) for tuning;
//! - `--costs FILE` decide with the word costs of FILE instead of the
//!   built-in `locales/CODE.costs.toml` (to validate freshly learned costs
//!   on other training seeds before they are built in);
//! - `--learn OUT.toml` instead of the benchmark: run the model over
//!   *training* utterances (positions and seed disjoint from the
//!   benchmark's) and write the per-word costs learned from the
//!   confusions (see `annabella::voice::nearmiss`).
//!
//! The sets: for every locale with an espeak-ng voice (de, en, pl, he, ar,
//! el, ko), utterances in annabella's own spoken words (what `annabella
//! announce --spoken` prints: [`Vocabulary::announce`]'s spoken form) for
//! legal moves of real positions (benches/data/voice_games.pgn; a seeded
//! random legal move of a seeded random position, short style three times
//! in four, long style once). Each locale has four sets of the same moves:
//! the plain voice, a higher faster variant (`+f3`), a lower slower variant
//! with room noise (`+m3`, SNR 20 dB) and the plain voice in loud noise
//! (SNR 10 dB). The noise is made here (seeded brown and white noise).
//!
//! With a model (Korean here), every utterance goes through the product's
//! real path: [`Listener::hear`] (grammar of the position, both Vosk
//! decodings, [`decide`](annabella::voice::decide())). Per set it prints:
//! right moves taken, asked with the right move first, other asks, not
//! understood, and **wrong** moves taken (must be 0). The figure that
//! counts: (right + right first asked) / utterances.
//!
//! Without a model for a locale (all but Korean on this machine), the audio
//! is still synthesized (to `--wav-dir` if given: run it where a model
//! exists with `--model CODE=DIR`), and the pure decision is scored on text:
//! the exact phrase, the phrase with one word replaced by another word of
//! the locale, and with one word dropped. That measures the decision rules
//! on confusions, not speech recognition.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use annabella::vocab::{Style, Vocabulary};
use annabella::voice::commands::SpokenCommandWords;
use annabella::voice::decide::{Alternative, Decision, DecisionSettings, HeardWord, Hearing};
use annabella::voice::grammar::{Grammar, Spellings, model_form};
use annabella::voice::listener::Listener;
use annabella::voice::recognizer::VoskModel;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

const LOCALES: [(&str, &str); 7] = [
    ("de", "de"),
    ("en", "en-us"),
    ("pl", "pl"),
    ("he", "he"),
    ("ar", "ar"),
    ("el", "el"),
    ("ko", "ko"),
];

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

/// One set's voice: espeak-ng voice variant, speed, pitch, noise.
#[derive(Clone)]
struct VoiceSet {
    name: String,
    voice: String,
    speed: u32,
    pitch: u32,
    snr_db: Option<f32>,
}

fn voice_sets(voice: &str, learn: bool) -> Vec<VoiceSet> {
    let v = |name: &str, variant: &str, speed, pitch, snr_db| VoiceSet {
        name: name.to_owned(),
        voice: format!("{voice}{variant}"),
        speed,
        pitch,
        snr_db,
    };
    if learn {
        // Other speeds and pitches than the benchmark's.
        vec![
            v("train plain", "", 150, 45, None),
            v("train f2", "+f2", 180, 65, Some(25.0)),
            v("train m2", "+m2", 135, 40, Some(15.0)),
            v("train m7", "+m7", 165, 55, None),
        ]
    } else {
        vec![
            v("plain s160 p50", "", 160, 50, None),
            v("+f3 s190 p70", "+f3", 190, 70, None),
            v("+m3 s140 p35 room 20dB", "+m3", 140, 35, Some(20.0)),
            v("plain s175 noise 10dB", "", 175, 50, Some(10.0)),
        ]
    }
}

/// One thing said: a legal move of a position.
#[derive(Clone)]
struct Item {
    pos: Chess,
    mode: CastlingMode,
    mv: Move,
    spoken: String,
}

fn positions(learn: bool) -> Vec<(Chess, CastlingMode)> {
    let text = include_str!("../benches/data/voice_games.pgn");
    let games = match annabella::pgn::read_games(text.as_bytes()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("voice_accuracy: the games do not read: {e}");
            std::process::exit(1);
        }
    };
    let mut out = Vec::new();
    for g in games {
        let Ok(r) = g.replay() else { continue };
        for (pos, _) in r.steps() {
            out.push((pos, r.mode));
        }
    }
    // Benchmark and training use disjoint positions.
    out.into_iter()
        .enumerate()
        .filter(|(i, _)| (i % 2 == 0) == learn)
        .map(|(_, p)| p)
        .collect()
}

fn items(vocab: &Vocabulary, all: &[(Chess, CastlingMode)], n: usize, rng: &mut Rng) -> Vec<Item> {
    let mut out = Vec::new();
    while out.len() < n {
        let (pos, mode) = &all[rng.below(all.len())];
        let legal = pos.legal_moves();
        if legal.is_empty() {
            continue;
        }
        let mv = legal[rng.below(legal.len())];
        let style = if rng.below(4) == 0 {
            Style::Long
        } else {
            Style::Short
        };
        let spoken = vocab.announce(pos, mv, style).spoken;
        out.push(Item {
            pos: pos.clone(),
            mode: *mode,
            mv,
            spoken,
        });
    }
    out
}

fn synthesize(text: &str, set: &VoiceSet, dir: &Path) -> Option<Vec<i16>> {
    let raw = dir.join("say.wav");
    let ok = Command::new("espeak-ng")
        .args([
            "-v",
            &set.voice,
            "-s",
            &set.speed.to_string(),
            "-p",
            &set.pitch.to_string(),
            "-w",
        ])
        .arg(&raw)
        .arg(text)
        .status()
        .ok()?
        .success();
    if !ok {
        return None;
    }
    annabella::voice::audio::read_wav(&raw).ok()
}

/// Leading and trailing room, then noise at the set's SNR (measured on
/// the speech's RMS), seeded.
fn with_room(speech: &[i16], snr_db: Option<f32>, rng: &mut Rng) -> Vec<i16> {
    let lead = 250 * 16;
    let tail = 350 * 16;
    let mut x: Vec<f32> = vec![0.0; lead];
    x.extend(speech.iter().map(|&s| f32::from(s)));
    x.extend(std::iter::repeat_n(0.0, tail));
    let rms = {
        let loud: Vec<f32> = speech
            .iter()
            .map(|&s| f32::from(s))
            .filter(|s| s.abs() > 300.0)
            .collect();
        (loud.iter().map(|s| s * s).sum::<f32>() / loud.len().max(1) as f32).sqrt()
    };
    // Brown noise (a room's rumble) plus a little white (hiss).
    let mut brown = 0.0f32;
    let mut noise: Vec<f32> = (0..x.len())
        .map(|_| {
            let w = rng.unit();
            brown = 0.98 * brown + 0.2 * w;
            brown + 0.3 * rng.unit()
        })
        .collect();
    let level = match snr_db {
        Some(db) => {
            let nrms = (noise.iter().map(|s| s * s).sum::<f32>() / noise.len() as f32).sqrt();
            rms / 10f32.powf(db / 20.0) / nrms.max(1e-6)
        }
        // Clean: a faint floor, as a quiet room.
        None => {
            let nrms = (noise.iter().map(|s| s * s).sum::<f32>() / noise.len() as f32).sqrt();
            30.0 / nrms.max(1e-6)
        }
    };
    for n in &mut noise {
        *n *= level;
    }
    x.iter()
        .zip(&noise)
        .map(|(s, n)| (s + n).clamp(-32768.0, 32767.0) as i16)
        .collect()
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
}

impl Tally {
    fn add(&mut self, d: &Decision, said: Move) {
        self.n += 1;
        match d {
            Decision::Move { mv, .. } if *mv == said => self.right += 1,
            Decision::Move { .. } => self.wrong += 1,
            Decision::Ask { candidates, .. } if candidates.first() == Some(&said) => {
                self.right_first += 1
            }
            Decision::Ask { .. } => self.other_ask += 1,
            Decision::DidYouMean { candidates, .. } if candidates.first() == Some(&said) => {
                self.right_first += 1
            }
            Decision::DidYouMean { .. } => self.other_ask += 1,
            Decision::Command { .. } => self.command += 1,
            // A number alone answers a question; with none open it is not
            // understood.
            Decision::NotUnderstood { .. } | Decision::Number { .. } => self.not_understood += 1,
        }
    }
    fn merge(&mut self, o: &Tally) {
        self.n += o.n;
        self.right += o.right;
        self.right_first += o.right_first;
        self.other_ask += o.other_ask;
        self.not_understood += o.not_understood;
        self.command += o.command;
        self.wrong += o.wrong;
    }
    fn figure(&self) -> f64 {
        100.0 * (self.right + self.right_first) as f64 / self.n.max(1) as f64
    }
    fn line(&self, label: &str) -> String {
        format!(
            "{label:<44} n {:>3}  right {:>3}  right-first-asked {:>3}  other-asks {:>3}  not-understood {:>3}  command {:>2}  WRONG {}  figure {:>5.1}%",
            self.n,
            self.right,
            self.right_first,
            self.other_ask,
            self.not_understood,
            self.command,
            self.wrong,
            self.figure()
        )
    }
}

fn uci(m: Move, mode: CastlingMode) -> String {
    UciMove::from_move(m, mode).to_string()
}

fn fen(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Words a model for the language would know: the locale's spoken words
/// and the command words (text-level scoring without a model).
fn spoken_words(vocab: &Vocabulary) -> Vec<String> {
    let loc = vocab.locale();
    let mut out: Vec<String> = Vec::new();
    let mut add = |s: &str| {
        for w in model_form(s).split(' ') {
            if !w.is_empty() && !out.iter().any(|x| x == w) {
                out.push(w.to_owned());
            }
        }
    };
    for f in shakmaty::File::ALL {
        add(&loc.file(f).spoken);
    }
    for r in shakmaty::Rank::ALL {
        add(&loc.rank(r).spoken);
    }
    for role in shakmaty::Role::ALL {
        add(&loc.piece(role).spoken);
    }
    let w = &loc.words;
    for word in [
        &w.capture,
        &w.check,
        &w.mate,
        &w.en_passant,
        &w.promotion,
        &w.castle_short,
        &w.castle_long,
    ] {
        add(&word.spoken);
    }
    for (_, forms) in SpokenCommandWords::from_vocab(vocab).iter() {
        for f in forms {
            add(f);
        }
    }
    out
}

fn text_hearing(text: &str) -> Hearing {
    Hearing {
        alternatives: vec![Alternative {
            text: text.to_owned(),
            confidence: None,
            words: text
                .split_whitespace()
                .map(|w| HeardWord {
                    word: w.to_owned(),
                    conf: None,
                })
                .collect(),
        }],
    }
}

struct Args {
    per_set: usize,
    seed: u64,
    models: BTreeMap<String, PathBuf>,
    only: Option<String>,
    wav_dir: Option<PathBuf>,
    learn: Option<PathBuf>,
    near_miss: bool,
    dump: Option<PathBuf>,
    costs: Option<PathBuf>,
    denoise: bool,
    quiet_rms: Option<f32>,
}

fn args() -> Args {
    let mut a = Args {
        per_set: 80,
        seed: 14,
        models: BTreeMap::new(),
        only: None,
        wav_dir: None,
        learn: None,
        near_miss: true,
        dump: None,
        costs: None,
        denoise: true,
        quiet_rms: None,
    };
    if let Some(dir) = std::env::var_os("ANNABELLA_TEST_MODEL") {
        a.models.insert("ko".into(), PathBuf::from(dir));
    }
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--no-near-miss" {
            a.near_miss = false;
            continue;
        }
        if flag == "--no-denoise" {
            a.denoise = false;
            continue;
        }
        let value = it.next().unwrap_or_default();
        match flag.as_str() {
            "--per-set" => a.per_set = value.parse().unwrap_or(80),
            "--seed" => a.seed = value.parse().unwrap_or(14),
            "--model" => {
                if let Some((code, dir)) = value.split_once('=') {
                    a.models.insert(code.to_owned(), PathBuf::from(dir));
                }
            }
            "--only" => a.only = Some(value),
            "--wav-dir" => a.wav_dir = Some(PathBuf::from(value)),
            "--learn" => a.learn = Some(PathBuf::from(value)),
            "--dump" => a.dump = Some(PathBuf::from(value)),
            "--costs" => a.costs = Some(PathBuf::from(value)),
            "--quiet-rms" => a.quiet_rms = value.parse().ok(),
            other => {
                eprintln!("voice_accuracy: unknown option {other}");
                std::process::exit(2);
            }
        }
    }
    a
}

fn main() {
    let a = args();
    annabella::voice::stderr::quiet_vosk(true);
    let learn = a.learn.is_some();
    let all = positions(learn);
    let tmp = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("voice_accuracy: no temporary folder: {e}");
            std::process::exit(1);
        }
    };
    if let Some(dir) = &a.wav_dir
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("voice_accuracy: {}: {e}", dir.display());
        std::process::exit(1);
    }
    let mut manifest = String::new();
    let mut dump = String::new();
    println!(
        "voice_accuracy: seed {}, {} utterances per set, positions from benches/data/voice_games.pgn ({} {})",
        a.seed,
        a.per_set,
        all.len(),
        if learn {
            "training positions"
        } else {
            "benchmark positions"
        }
    );
    let mut korean = Tally::default();
    let mut confusions = learn_support::Confusions::default();
    for (code, voice) in LOCALES {
        if a.only.as_deref().is_some_and(|o| o != code) {
            continue;
        }
        if learn && !a.models.contains_key(code) {
            continue;
        }
        let Ok(vocab) = Vocabulary::builtin(code) else {
            eprintln!("voice_accuracy: no locale {code}");
            continue;
        };
        let mut rng = Rng(a.seed ^ (code.as_bytes()[0] as u64) << 8 ^ code.as_bytes()[1] as u64);
        let set_items = items(&vocab, &all, a.per_set, &mut rng);
        let settings = DecisionSettings {
            near_miss: a.near_miss,
            ..DecisionSettings::default()
        };
        let listener = a
            .models
            .get(code)
            .and_then(|dir| match VoskModel::load(dir) {
                Ok(mut m) => {
                    if !a.denoise {
                        m.denoise = None;
                    }
                    if let (Some(q), Some(d)) = (a.quiet_rms, m.denoise.as_mut()) {
                        d.quiet_rms = q;
                    }
                    let mut l = Listener::new(m, vocab.clone(), settings);
                    if let Some(file) = &a.costs {
                        let read = std::fs::read_to_string(file).map_err(|e| e.to_string());
                        match read.and_then(|t| {
                            annabella::voice::nearmiss::WordCosts::from_toml(
                                &file.display().to_string(),
                                &t,
                            )
                            .map_err(|e| format!("{e:?}"))
                        }) {
                            Ok(c) => l.costs = c,
                            Err(e) => {
                                eprintln!("voice_accuracy: {}: {e}", file.display());
                                std::process::exit(1);
                            }
                        }
                    }
                    Some(l)
                }
                Err(e) => {
                    eprintln!("voice_accuracy: {code}: {e}");
                    None
                }
            });
        println!();
        match &listener {
            Some(l) => println!(
                "== {code} (espeak-ng voice {voice}): real model {} ({} locale words missing from it)",
                l.model.path.display(),
                l.missing_words().len()
            ),
            None => println!(
                "== {code} (espeak-ng voice {voice}): no model for {code} here — audio synthesized{}, decision scored on text only",
                if a.wav_dir.is_some() {
                    " and written to --wav-dir"
                } else {
                    " (give --wav-dir to keep it)"
                }
            ),
        }
        let mut locale_total = Tally::default();
        for set in voice_sets(voice, learn) {
            let t = Instant::now();
            let mut tally = Tally::default();
            let mut seconds = 0.0;
            let mut failed = 0;
            let mut noise_rng = Rng(a
                .seed
                .wrapping_add(set.speed as u64 * 31 + set.pitch as u64));
            for (k, item) in set_items.iter().enumerate() {
                let Some(speech) = synthesize(&item.spoken, &set, tmp.path()) else {
                    failed += 1;
                    continue;
                };
                let audio = with_room(&speech, set.snr_db, &mut noise_rng);
                seconds += audio.len() as f64 / 16_000.0;
                if let Some(dir) = &a.wav_dir {
                    let name = format!(
                        "{code}-{}-{k:03}.wav",
                        set.name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
                    );
                    let spec = hound::WavSpec {
                        channels: 1,
                        sample_rate: 16_000,
                        bits_per_sample: 16,
                        sample_format: hound::SampleFormat::Int,
                    };
                    if let Ok(mut w) = hound::WavWriter::create(dir.join(&name), spec) {
                        for s in &audio {
                            let _ = w.write_sample(*s);
                        }
                        let _ = w.finalize();
                    }
                    manifest.push_str(&format!(
                        "{name}\t{code}\t{}\t{}\t{}\t{}\n",
                        set.name,
                        fen(&item.pos),
                        uci(item.mv, item.mode),
                        item.spoken
                    ));
                }
                if let Some(l) = &listener {
                    let Some(heard) = l.hear(&item.pos, item.mode, &audio) else {
                        failed += 1;
                        continue;
                    };
                    if learn {
                        let g = l.grammar(&item.pos, item.mode);
                        confusions.add(&g, &item.spoken, item.mv, &heard.hearing);
                    }
                    if let Decision::Move { mv, .. } = &heard.decision
                        && *mv != item.mv
                    {
                        println!(
                            "  WRONG: said '{}' ({}) in {}, took {}; recognizer: {}",
                            item.spoken,
                            uci(item.mv, item.mode),
                            fen(&item.pos),
                            uci(*mv, item.mode),
                            heard.json
                        );
                    }
                    tally.add(&heard.decision, item.mv);
                    if a.dump.is_some() {
                        let g = l.grammar(&item.pos, item.mode);
                        let phrases = annabella::voice::nearmiss::PhraseWords::new(&g);
                        let top: Vec<serde_json::Value> = annabella::voice::nearmiss::rank(
                            &l.costs,
                            &phrases,
                            &heard.hearing,
                            0.1,
                        )
                        .iter()
                        .take(8)
                        .map(|s| {
                            let (what, right) = match s.meaning {
                                annabella::voice::nearmiss::PhraseMeaning::Move(m) => {
                                    (uci(m, item.mode), m == item.mv)
                                }
                                annabella::voice::nearmiss::PhraseMeaning::Command(c) => {
                                    (format!("cmd:{}", c.name()), false)
                                }
                            };
                            serde_json::json!([s.cost, right, what, s.words])
                        })
                        .collect();
                        let alts: Vec<&str> = heard
                            .hearing
                            .alternatives
                            .iter()
                            .map(|x| x.text.as_str())
                            .collect();
                        let grammar_phrases: Vec<(String, String)> = g
                            .moves
                            .iter()
                            .map(|(p, m)| (p.clone(), uci(*m, item.mode)))
                            .chain(
                                g.commands
                                    .iter()
                                    .map(|(p, c)| (p.clone(), format!("cmd:{}", c.name()))),
                            )
                            .collect();
                        dump.push_str(&format!(
                            "{}\n",
                            serde_json::json!({
                                "set": set.name,
                                "said": model_form(&item.spoken),
                                "alts": alts,
                                "decision": format!("{:?}", heard.decision).chars().take(60).collect::<String>(),
                                "top": top,
                                "said_uci": uci(item.mv, item.mode),
                                "phrases": grammar_phrases,
                            })
                        ));
                    }
                }
            }
            if failed > 0 {
                println!(
                    "  {}: {failed} utterances could not be synthesized or decoded",
                    set.name
                );
            }
            if listener.is_some() {
                println!(
                    "{}  ({:.0} s of audio, {:.1} s)",
                    tally.line(&format!("{code} {}", set.name)),
                    seconds,
                    t.elapsed().as_secs_f64()
                );
                locale_total.merge(&tally);
            } else {
                println!(
                    "{code} {:<40} synthesized {} utterances, {:.0} s of audio (no model: not decoded)",
                    set.name,
                    set_items.len() - failed,
                    seconds
                );
            }
        }
        if listener.is_some() {
            println!("{}", locale_total.line(&format!("{code} all audio sets")));
            if code == "ko" {
                korean = locale_total;
            }
        }
        if learn {
            continue;
        }
        // Text level: the pure decision on the exact phrase and on
        // one-word confusions, with spellings a model of the language
        // would have (the locale's spoken words).
        let commands = SpokenCommandWords::from_vocab(&vocab);
        let known = spoken_words(&vocab);
        let mut knows = |w: &str| known.iter().any(|k| k == w);
        let spellings = Spellings::choose(&vocab, &commands, &mut knows);
        let words = spellings.all_words();
        let costs = annabella::voice::nearmiss::WordCosts::builtin(code);
        let (mut exact, mut swapped, mut dropped) =
            (Tally::default(), Tally::default(), Tally::default());
        // A confusion that is exactly another legal move's phrase cannot be
        // told from that move said (on audio, the word-loop check's
        // confidences catch such hearings): counted apart, not scored.
        let mut other_phrase = 0;
        let mut decide_ms: Vec<f64> = Vec::new();
        let mut trng = Rng(a.seed.wrapping_mul(7) ^ code.as_bytes()[0] as u64);
        for item in &set_items {
            let g = Grammar::build(&vocab, &spellings, &item.pos, item.mode);
            let said = model_form(&item.spoken);
            let phrase = if g.moves.iter().any(|(p, m)| *p == said && *m == item.mv) {
                said
            } else {
                match g.moves.iter().find(|(_, m)| *m == item.mv) {
                    Some((p, _)) => p.clone(),
                    None => continue,
                }
            };
            let mut decide = |text: &str| {
                let t = Instant::now();
                let d = annabella::voice::decide_with(
                    &vocab,
                    &commands,
                    &item.pos,
                    item.mode,
                    Some(&g),
                    &text_hearing(text),
                    &settings,
                    &costs,
                );
                decide_ms.push(t.elapsed().as_secs_f64() * 1000.0);
                d
            };
            let is_other = |text: &str| {
                vocab
                    .parse(&item.pos, item.mode, text)
                    .is_ok_and(|m| m != item.mv)
            };

            let w: Vec<&str> = phrase.split(' ').collect();
            let i = trng.below(w.len());
            let exact_d = decide(&phrase);
            let mut other = words[trng.below(words.len())].as_str();
            if other == w[i] {
                other = words[(trng.below(words.len()) + 1) % words.len()].as_str();
            }
            let mut s = w.clone();
            s[i] = other;
            exact.add(&exact_d, item.mv);
            let s = s.join(" ");
            if is_other(&s) {
                other_phrase += 1;
            } else {
                swapped.add(&decide(&s), item.mv);
            }
            if w.len() > 1 {
                let mut d = w.clone();
                d.remove(trng.below(w.len()));
                let d = d.join(" ");
                if is_other(&d) {
                    other_phrase += 1;
                } else {
                    dropped.add(&decide(&d), item.mv);
                }
            }
        }
        println!("{}", exact.line(&format!("{code} text: exact phrase")));
        println!(
            "{}",
            swapped.line(&format!("{code} text: one word replaced"))
        );
        println!(
            "{}",
            dropped.line(&format!("{code} text: one word dropped"))
        );
        decide_ms.sort_by(f64::total_cmp);
        if let (Some(med), Some(max)) = (decide_ms.get(decide_ms.len() / 2), decide_ms.last()) {
            println!(
                "{code} text: decision time with near-miss scoring (pure core, grammar built): median {med:.3} ms, max {max:.3} ms over {} decisions",
                decide_ms.len()
            );
        }
        println!(
            "{code} text: {other_phrase} confusions were exactly another legal move's words (indistinguishable on text; not scored)"
        );
    }
    if let Some(dir) = &a.wav_dir {
        let _ = std::fs::write(dir.join("manifest.tsv"), &manifest);
    }
    if let Some(path) = &a.dump {
        let _ = std::fs::write(path, &dump);
    }
    if let Some(out) = &a.learn {
        let _ = std::fs::write(out.with_extension("counts.json"), confusions.to_json());
        let text = confusions.to_toml();
        match std::fs::write(out, text) {
            Ok(()) => println!("\nlearned costs written to {}", out.display()),
            Err(e) => eprintln!("voice_accuracy: {}: {e}", out.display()),
        }
    }
    if korean.n > 0 {
        println!();
        println!(
            "Korean figure (right move taken or right move first asked, of all utterances): {} of {} = {:.1}%, wrong {}",
            korean.right + korean.right_first,
            korean.n,
            korean.figure(),
            korean.wrong
        );
    }
}

#[path = "support/confusions.rs"]
mod learn_support;
