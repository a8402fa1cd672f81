//! Benchmarks of spoken-move recognition; prints figures.
//!
//!     cargo run --release --example voice_bench [-- MODEL_DIR [PHRASES]]
//!
//! MODEL_DIR defaults to env ANNABELLA_TEST_MODEL (the Korean model that
//! `scripts/setup.sh test` unpacks). Speech is synthesized with espeak-ng
//! (Korean) and resampled with sox, so both must be installed.
//!
//! Figures (targets from the issue):
//! - push-to-talk: end of audio (key release) to decision, median ≤ 30 ms,
//!   for a key released 0, 100, 200 and 300 ms after the last word (the
//!   decision is prepared during that pause; released with the last sound,
//!   all the final results are still to come);
//! - hands-free: end of speech to decision, silence detector included,
//!   median ≤ 350 ms;
//!
//! Both latencies are measured live: a thread plays each recording in real
//! time, in chunks of 10–100 ms stamped with their capture time, into the
//! same [`LiveDecoder`] the play screen's worker runs; the clock starts when the
//! key is released (push-to-talk) or when the end of speech was captured
//! (hands-free), and stops when the decision is made. PHRASES (default 40)
//! recordings take about 5 s each in real time.
//! - model load time, grammar build time per position, recognizer start;
//! - peak RSS (VmHWM) against the model's footprint + 50 MB.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use annabella::vocab::{Style, Vocabulary};
use annabella::voice::audio::{VadSettings, read_wav};
use annabella::voice::decide::{Decision, DecisionSettings};
use annabella::voice::listener::Listener;
use annabella::voice::live::LiveDecoder;
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

fn samples(n: usize) -> Duration {
    Duration::from_secs_f64(n as f64 / 16_000.0)
}

/// What the simulated microphone delivers.
enum Feed<'a> {
    /// Before the first chunk (push-to-talk: the key goes down).
    Start,
    /// A chunk and the moment its last sample was captured.
    Chunk(&'a [i16], Instant),
    /// After the last chunk, at the moment it was captured (push-to-talk:
    /// the key is released).
    End(Instant),
}

/// Plays `audio` in real time from another thread in chunks of `chunk`
/// samples; `on` runs on this thread for each delivery. Returns the first
/// value `on` gives.
fn stream<T>(audio: &[i16], chunk: usize, mut on: impl FnMut(Feed<'_>) -> Option<T>) -> Option<T> {
    let (tx, rx) = std::sync::mpsc::channel::<(usize, usize, Instant)>();
    let mut result = None;
    std::thread::scope(|scope| {
        let len = audio.len();
        scope.spawn(move || {
            let start = Instant::now();
            let mut from = 0;
            while from < len {
                let to = (from + chunk).min(len);
                let due = start + samples(to);
                let now = Instant::now();
                if due > now {
                    std::thread::sleep(due - now);
                }
                if tx.send((from, to, due)).is_err() {
                    return;
                }
                from = to;
            }
        });
        if let Some(v) = on(Feed::Start) {
            result = Some(v);
        }
        let mut last = None;
        while let Ok((from, to, at)) = rx.recv() {
            last = Some(at);
            if let Some(v) = on(Feed::Chunk(&audio[from..to], at))
                && result.is_none()
            {
                result = Some(v);
            }
        }
        if let Some(at) = last
            && let Some(v) = on(Feed::End(at))
            && result.is_none()
        {
            result = Some(v);
        }
    });
    result
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
    let phrases: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(40);
    // `hands-free` as third argument: only the hands-free measurement.
    let only_hands_free = args.get(3).is_some_and(|a| a == "hands-free");
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
    let mut said = Vec::new();
    for n in 0..phrases {
        let m = moves[n % moves.len()];
        let style = if n % 2 == 0 {
            Style::Short
        } else {
            Style::Long
        };
        let text = vocab.announce(&pos, m, style).spoken;
        said.push(m);
        match synthesize(&text, 140 + (n as u32 % 5) * 20, dir.path(), n) {
            Some(s) => clips.push(s),
            None => {
                eprintln!("voice_bench: espeak-ng and sox are needed to synthesize speech");
                std::process::exit(1);
            }
        }
    }
    let grammar = listener.grammar(&pos, CastlingMode::Standard);

    // Where the time goes: each decoding's final result on its own (the
    // audio fed in 100 ms chunks first, not timed).
    let phrases_list = grammar.phrases(listener.model.unk());
    let loop_list = grammar.word_loop(listener.model.unk());
    let (mut nbest_t, mut loop_t, mut feed_rtf) = (Vec::new(), Vec::new(), Vec::new());
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
            let t = Instant::now();
            for chunk in clip.chunks(1600) {
                let _ = r.accept_waveform(chunk);
            }
            if alts {
                feed_rtf.push(t.elapsed().as_secs_f64() / (clip.len() as f64 / 16_000.0));
            }
            let t = Instant::now();
            let _ = r.final_result();
            out.push(ms(t.elapsed()));
        }
    }
    summary(
        "final result alone, move grammar with alternatives",
        nbest_t,
        None,
    );
    summary(
        "final result alone, word loop with confidences",
        loop_t,
        None,
    );
    feed_rtf.sort_by(|a, b| a.total_cmp(b));
    if let Some(m) = feed_rtf.get(feed_rtf.len() / 2) {
        println!(
            "decoding while speaking (one recognizer): real-time factor {m:.3} (median; below 1 keeps up)"
        );
    }

    // Live: a simulated microphone thread delivers each recording in real
    // time, in chunks of 10, 20, 50 or 100 ms (in turn), each stamped with
    // the moment its last sample was captured; the engine (the same one
    // the play screen's worker runs) listens on this thread. Nothing is
    // fed ahead of time: the clock runs as with a real microphone.
    let chunk_ms = [10usize, 20, 50, 100];
    let noise = |n: usize, seed: usize| -> Vec<i16> {
        (0..n)
            .map(|k| (((k * 7919 + seed * 104_729) % 61) as i16) - 30)
            .collect()
    };

    // Push-to-talk: key down, 200 ms of room noise, the phrase up to its
    // last loud sample (|s| > 500), then room noise for as long as the
    // player keeps the key down after the last word, key release right
    // after the last chunk is captured. Timed: release to decision. A
    // player lets go of the key after the last word, not with it; how
    // long after varies, so each delay is measured on its own, 0 ms
    // (released with the last sound: the final results are all still to
    // come) included.
    let release_delays_ms: &[usize] = if only_hands_free {
        &[]
    } else {
        &[0, 100, 200, 300]
    };
    let mut ptt_by_delay: Vec<Vec<f64>> = vec![Vec::new(); release_delays_ms.len()];
    let mut ptt_moves = 0;
    let mut ptt_early = 0;
    let mut ptt_redecoded = 0;
    let mut n_ptt = 0;
    for (d, delay) in release_delays_ms.iter().enumerate() {
        for (i, clip) in clips.iter().enumerate() {
            let last_loud = clip
                .iter()
                .rposition(|s| s.unsigned_abs() > 500)
                .unwrap_or(clip.len().saturating_sub(1));
            let mut audio = noise(200 * 16, i);
            audio.extend_from_slice(&clip[..=last_loud]);
            audio.extend(noise(delay * 16, i + 1));
            let chunk = chunk_ms[(i + d) % chunk_ms.len()] * 16;
            let mut engine = LiveDecoder::new(
                &listener,
                pos.clone(),
                CastlingMode::Standard,
                false,
                VadSettings::default(),
            );
            engine.prepare();
            let heard = stream(&audio, chunk, |item| match item {
                Feed::Start => {
                    let _ = engine.press();
                    None
                }
                Feed::Chunk(c, at) => {
                    let _ = engine.push(c, at);
                    None
                }
                Feed::End(at) => engine.release(at).and_then(Result::ok),
            });
            if let Some(h) = heard {
                n_ptt += 1;
                if let Some(t) = h.since_speech_end {
                    ptt_by_delay[d].push(ms(t));
                }
                if matches!(h.decision, Decision::Move { .. }) {
                    ptt_moves += 1;
                }
            }
            ptt_early += engine.stats().early_used;
            ptt_redecoded += engine.stats().redecoded;
        }
    }
    // The same, but always waiting for both decodings: what a decision
    // that is a move costs (synthetic Korean is rarely heard as a move).
    let mut ptt_both = Vec::new();
    for (i, clip) in clips.iter().enumerate().filter(|_| !only_hands_free) {
        let mut audio = noise(200 * 16, i);
        audio.extend_from_slice(clip);
        let chunk = chunk_ms[i % chunk_ms.len()] * 16;
        let mut u = listener.model.recognizer(&grammar);
        let took = stream(&audio, chunk, |item| match item {
            Feed::Start => None,
            Feed::Chunk(c, _) => {
                if let Some(u) = u.as_mut() {
                    u.feed(c);
                }
                None
            }
            Feed::End(at) => u.take().map(|u| {
                let (h, _) = u.finish();
                let _ = listener.decide(&pos, CastlingMode::Standard, &grammar, &h);
                at.elapsed()
            }),
        });
        if let Some(d) = took {
            ptt_both.push(ms(d));
        }
    }
    for (delay, v) in release_delays_ms.iter().zip(ptt_by_delay) {
        summary(
            &format!(
                "push-to-talk: key release to decision, key released {delay} ms after the last word (live, real time)"
            ),
            v,
            Some(30.0),
        );
    }
    println!(
        "  ({ptt_early} of {n_ptt} decided during the pause before the release, {ptt_redecoded} decoded again after a pause within the phrase; {ptt_moves} decided as a move, which waits for the word-loop check)"
    );
    summary(
        "push-to-talk, both decodings always waited for (the cost of a move)",
        ptt_both,
        Some(30.0),
    );

    // Hands-free: 300 ms of room noise, the phrase, 800 ms of room noise.
    // Timed: from the moment the end of speech (the last sample above a
    // whisper, |s| > 500, as before) was captured to the decision; the
    // silence detector's wait is included. Also the engine's own figure,
    // from the end of the detector's last loud frame.
    let mut hf = Vec::new();
    let mut hf_engine = Vec::new();
    let mut hf_by_chunk: Vec<Vec<f64>> = vec![Vec::new(); chunk_ms.len()];
    let mut missed = 0;
    let (mut hf_short, mut hf_early_used) = (0, 0);
    let mut hf_decoding = Vec::new();
    let (mut taken, mut wrong, mut asked, mut asked_without, mut other) = (0, 0, 0, 0, 0);
    for (i, clip) in clips.iter().enumerate() {
        let mut audio = noise(300 * 16, i);
        let last_loud = clip
            .iter()
            .rposition(|s| s.unsigned_abs() > 500)
            .unwrap_or(0);
        let speech_end = audio.len() + last_loud + 1;
        audio.extend_from_slice(clip);
        audio.extend(noise(800 * 16, i + 1));
        let chunk = chunk_ms[i % chunk_ms.len()] * 16;
        let mut engine = LiveDecoder::new(
            &listener,
            pos.clone(),
            CastlingMode::Standard,
            true,
            VadSettings::default(),
        );
        engine.prepare();
        let mut t0 = None;
        let mut fed = 0usize;
        let mut first: Option<(Instant, Duration)> = None;
        let mut decisions = Vec::new();
        stream(&audio, chunk, |item| {
            match item {
                Feed::Start => {}
                Feed::Chunk(c, at) => {
                    if t0.is_none() {
                        t0 = at.checked_sub(samples(c.len()));
                    }
                    fed += c.len();
                    for h in engine.push(c, at).into_iter().flatten() {
                        if first.is_none() {
                            first = Some((Instant::now(), h.since_speech_end.unwrap_or_default()));
                            hf_decoding.push(ms(h.finish_time));
                        }
                        decisions.push(h.decision);
                    }
                }
                Feed::End(_) => {}
            }
            None::<()>
        });
        hf_short += engine.stats().short;
        hf_early_used += engine.stats().early_used;
        // What was decided: the move said, taken or asked; never another
        // move taken.
        for d in decisions {
            match d {
                Decision::Move { mv, .. } if mv == said[i] => taken += 1,
                Decision::Move { .. } => wrong += 1,
                Decision::Ask { candidates, .. } | Decision::DidYouMean { candidates, .. } => {
                    if candidates.contains(&said[i]) {
                        asked += 1;
                    } else {
                        asked_without += 1;
                    }
                }
                _ => other += 1,
            }
        }
        match (first, t0) {
            (Some((decided, own)), Some(t0)) => {
                let end_at = t0 + samples(speech_end);
                hf.push(ms(decided.saturating_duration_since(end_at)));
                hf_by_chunk[i % chunk_ms.len()].push(ms(decided.saturating_duration_since(end_at)));
                hf_engine.push(ms(own));
            }
            _ => missed += 1,
        }
    }
    summary(
        "hands-free: end of speech to decision, detector (300 ms silence) included (live, real time)",
        hf,
        Some(350.0),
    );
    let hf_waited: Vec<f64> = hf_engine
        .iter()
        .zip(&hf_decoding)
        .map(|(all, decoding)| all - decoding)
        .collect();
    summary(
        "  the same from the end of the detector's last loud frame",
        hf_engine,
        None,
    );
    summary(
        "    of which the final decoding at the decision (CPU: grows with the machine's load)",
        hf_decoding,
        None,
    );
    summary(
        "    of which the rest: the silence waited, at the chunks' pace, and the decoding lagging behind",
        hf_waited,
        None,
    );
    for (c, v) in chunk_ms.iter().zip(hf_by_chunk) {
        summary(&format!("  in {c} ms chunks"), v, None);
    }
    if missed > 0 {
        println!("hands-free: the detector missed the end of {missed} clips");
    }
    println!(
        "  decisions: {taken} moves taken (the move said), {wrong} WRONG moves taken, {asked} questions naming the move said, {asked_without} questions without it, {other} other; {hf_short} decided after the short silence (the words heard end the utterance), {hf_early_used} prepared during the silence and used"
    );

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
