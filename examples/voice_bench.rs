//! Benchmarks of spoken-move recognition; prints figures.
//!
//!     cargo run --release --example voice_bench [-- MODEL_DIR [PHRASES]]
//!
//! MODEL_DIR defaults to env ANNABELLA_TEST_MODEL (the Korean model that
//! `scripts/setup.sh test` unpacks). Speech is synthesized with espeak-ng
//! (Korean) and resampled with sox, so both must be installed.
//!
//! Figures (targets from the issue):
//! - push-to-talk: end of audio (key release) to decision, median ≤ 30 ms;
//! - hands-free: end of speech to decision, silence detector included,
//!   median ≤ 350 ms;
//! - model load time, grammar build time per position, recognizer start;
//! - peak RSS (VmHWM) against the model's footprint + 50 MB.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use annabella::vocab::{Style, Vocabulary};
use annabella::voice::audio::{Vad, VadEvent, VadSettings, read_wav};
use annabella::voice::decide::DecisionSettings;
use annabella::voice::listener::Listener;
use annabella::voice::recognizer::VoskModel;
use shakmaty::{CastlingMode, Chess, Position};

fn status_kb(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn summary(name: &str, mut v: Vec<f64>, target: Option<f64>) {
    if v.is_empty() {
        println!("{name}: no samples");
        return;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let q = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
    let verdict = match target {
        Some(t) if q(0.5) <= t => format!("  (target median ≤ {t} ms: met)"),
        Some(t) => format!("  (target median ≤ {t} ms: MISSED)"),
        None => String::new(),
    };
    println!(
        "{name}: n {}, median {:.1} ms, p90 {:.1} ms, max {:.1} ms{verdict}",
        v.len(),
        q(0.5),
        q(0.9),
        q(1.0)
    );
}

fn synthesize(text: &str, speed: u32, dir: &std::path::Path, n: usize) -> Option<Vec<i16>> {
    let raw = dir.join(format!("{n}.raw.wav"));
    let wav = dir.join(format!("{n}.wav"));
    let ok = Command::new("espeak-ng")
        .args(["-v", "ko", "-s", &speed.to_string(), "-w"])
        .arg(&raw)
        .arg(text)
        .status()
        .ok()?
        .success()
        && Command::new("sox")
            .arg(&raw)
            .args(["-r", "16000", "-c", "1", "-b", "16"])
            .arg(&wav)
            .status()
            .ok()?
            .success();
    if !ok {
        return None;
    }
    read_wav(&wav).ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let model_dir = args
        .get(1)
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("ANNABELLA_TEST_MODEL").map(PathBuf::from));
    let Some(model_dir) = model_dir else {
        eprintln!("voice_bench: give the model folder as argument or set ANNABELLA_TEST_MODEL");
        std::process::exit(2);
    };
    let phrases: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(60);
    annabella::voice::stderr::quiet_vosk(true);

    let rss_before = status_kb("VmRSS:");
    let model = match VoskModel::load(&model_dir) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("voice_bench: {e}");
            std::process::exit(1);
        }
    };
    let rss_model = status_kb("VmRSS:");
    let hwm_model = status_kb("VmHWM:");
    println!("model: {}", model_dir.display());
    println!("model load: {:.0} ms", ms(model.load_time));
    let vocab = Vocabulary::builtin("ko").expect("ko locale");
    let t = Instant::now();
    let listener = Listener::new(model, vocab.clone(), DecisionSettings::default());
    println!(
        "start-up word check: {:.1} ms ({} words missing)",
        ms(t.elapsed()),
        listener.missing_words().len()
    );

    // Grammar build per position: every position of a short game and some
    // busy middle-game positions.
    let mut positions: Vec<Chess> = Vec::new();
    let mut pos = Chess::default();
    for san in [
        "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be3", "e5", "Nb3",
        "Be6", "f3", "Be7", "Qd2", "O-O", "O-O-O", "Nbd7", "g4", "b5", "g5", "b4", "Ne2", "Ne8",
        "f4", "a5", "f5", "a4",
    ] {
        positions.push(pos.clone());
        let m = san
            .parse::<shakmaty::san::San>()
            .ok()
            .and_then(|s| s.to_move(&pos).ok());
        match m {
            Some(m) => pos.play_unchecked(m),
            None => break,
        }
    }
    positions.push(pos);
    let mut build = Vec::new();
    let mut sizes = Vec::new();
    let mut start = Vec::new();
    for p in &positions {
        let t = Instant::now();
        let g = listener.grammar(p, CastlingMode::Standard);
        build.push(ms(t.elapsed()));
        sizes.push(g.moves.len() + g.commands.len());
        let t = Instant::now();
        let r = listener.model.recognizer(&g);
        start.push(ms(t.elapsed()));
        drop(r);
    }
    summary("grammar build per position", build, None);
    println!(
        "grammar size: {}–{} phrases",
        sizes.iter().min().unwrap_or(&0),
        sizes.iter().max().unwrap_or(&0)
    );
    summary("recognizer start (both grammars)", start, None);

    // Synthesized moves of the start position.
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("voice_bench: no temporary folder: {e}");
            std::process::exit(1);
        }
    };
    let pos = Chess::default();
    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
    let mut clips = Vec::new();
    for n in 0..phrases {
        let m = moves[n % moves.len()];
        let style = if n % 2 == 0 {
            Style::Short
        } else {
            Style::Long
        };
        let text = vocab.announce(&pos, m, style).spoken;
        match synthesize(&text, 140 + (n as u32 % 5) * 20, dir.path(), n) {
            Some(s) => clips.push(s),
            None => {
                eprintln!("voice_bench: espeak-ng and sox are needed to synthesize speech");
                std::process::exit(1);
            }
        }
    }
    let grammar = listener.grammar(&pos, CastlingMode::Standard);

    // Push-to-talk: the audio is fed as it arrives (not timed); the key
    // release ends it: final results of both decodings and the decision.
    let mut ptt = Vec::new();
    let mut feed_rtf = Vec::new();
    for clip in &clips {
        let Some(mut u) = listener.model.recognizer(&grammar) else {
            continue;
        };
        let t = Instant::now();
        for chunk in clip.chunks(1600) {
            u.feed(chunk);
        }
        feed_rtf.push(t.elapsed().as_secs_f64() / (clip.len() as f64 / 16_000.0));
        let t = Instant::now();
        let (hearing, _) = u.finish();
        let _ = listener.decide(&pos, CastlingMode::Standard, &grammar, &hearing);
        ptt.push(ms(t.elapsed()));
    }
    summary("push-to-talk: key release to decision", ptt, Some(30.0));

    // Where the time goes: each decoding's final result on its own.
    let phrases_list = grammar.phrases(listener.model.unk());
    let loop_list = grammar.word_loop(listener.model.unk());
    let (mut nbest_t, mut loop_t) = (Vec::new(), Vec::new());
    for clip in &clips {
        for (list, out, alts) in [
            (&phrases_list, &mut nbest_t, true),
            (&loop_list, &mut loop_t, false),
        ] {
            let Some(mut r) = listener.model.raw_recognizer(list) else {
                continue;
            };
            if alts {
                r.set_max_alternatives(annabella::voice::recognizer::MAX_ALTERNATIVES);
            }
            r.set_words(true);
            for chunk in clip.chunks(1600) {
                let _ = r.accept_waveform(chunk);
            }
            let t = Instant::now();
            let _ = r.final_result();
            out.push(ms(t.elapsed()));
        }
    }
    summary(
        "  final result, move grammar with alternatives",
        nbest_t,
        None,
    );
    summary("  final result, word loop with confidences", loop_t, None);
    feed_rtf.sort_by(|a, b| a.total_cmp(b));
    if let Some(m) = feed_rtf.get(feed_rtf.len() / 2) {
        println!("decoding while speaking: real-time factor {m:.3} (median; below 1 keeps up)");
    }

    // Hands-free: 300 ms of room noise before, the phrase, 800 ms after;
    // 10 ms chunks through the detector and the recognizer as from a
    // microphone. Latency = audio time from the end of speech to the
    // detector's verdict + the time to decide.
    let vad_settings = VadSettings::default();
    let mut hf = Vec::new();
    let mut missed = 0;
    for (i, clip) in clips.iter().enumerate() {
        let noise = |n: usize, seed: usize| -> Vec<i16> {
            (0..n)
                .map(|k| (((k * 7919 + seed * 104_729) % 61) as i16) - 30)
                .collect()
        };
        let mut audio = noise(300 * 16, i);
        // The end of speech: the last sample above a whisper, not the end
        // of the clip (espeak-ng adds silence).
        let last_loud = clip
            .iter()
            .rposition(|s| s.unsigned_abs() > 500)
            .unwrap_or(0);
        let speech_end = audio.len() + last_loud + 1;
        audio.extend_from_slice(clip);
        audio.extend(noise(800 * 16, i + 1));
        let mut vad = Vad::new(vad_settings);
        let mut u = None;
        let mut decided = None;
        for (k, chunk) in audio.chunks(160).enumerate() {
            let chunk_start = k * 160;
            for e in vad.push(chunk) {
                match e {
                    VadEvent::SpeechStart(at) => {
                        // The recognizer starts 200 ms before the speech.
                        let mut r = listener.model.recognizer(&grammar);
                        if let Some(r) = r.as_mut() {
                            r.feed(&audio[at.saturating_sub(3200).min(chunk_start)..chunk_start]);
                        }
                        u = r;
                    }
                    VadEvent::SpeechEnd(_) => {
                        if let Some(r) = u.take() {
                            let t = Instant::now();
                            let (h, _) = r.finish();
                            let _ = listener.decide(&pos, CastlingMode::Standard, &grammar, &h);
                            decided = Some(t.elapsed());
                        }
                    }
                }
            }
            if let Some(r) = u.as_mut() {
                r.feed(chunk);
            }
            if let Some(d) = decided {
                // Position of this chunk's end in the audio.
                let at = chunk_start + chunk.len();
                let waited = at.saturating_sub(speech_end) as f64 / 16.0;
                hf.push(waited + ms(d));
                break;
            }
        }
        if decided.is_none() {
            missed += 1;
        }
    }
    summary(
        "hands-free: end of speech to decision (detector included)",
        hf,
        Some(350.0),
    );
    if missed > 0 {
        println!("hands-free: the detector missed the end of {missed} clips");
    }

    let hwm = status_kb("VmHWM:");
    let footprint = rss_model.saturating_sub(rss_before);
    println!(
        "memory: RSS before model {} MB, model footprint {} MB (peak while loading {} MB), peak RSS (VmHWM) {} MB; over model footprint + start: {} MB (target ≤ 50 MB)",
        rss_before / 1024,
        footprint / 1024,
        hwm_model / 1024,
        hwm / 1024,
        hwm.saturating_sub(rss_model.max(hwm_model)) / 1024
    );
}
