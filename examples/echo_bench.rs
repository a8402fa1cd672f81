//! Echo canceller figures on real espeak-ng announcements (issue 14,
//! hands-free barge-in): annabella's Korean announcements played through
//! the simulated room's path (40 ms, half as loud, 80 ms of reflections;
//! the canceller is given only what was played).
//!
//! - ERLE over her speech (after the first 3 s of learning);
//! - false barge-ins over all announcements (her voice alone);
//! - detection delay: the player (espeak-ng, other pitch) starts to speak
//!   800 ms into an announcement; from the onset of his voice to the
//!   detection (median, max), and misses;
//! - CPU cost per second of audio.
//!
//! Run: `cargo run --release --example echo_bench [ANNOUNCEMENTS]`

use std::time::{Duration, Instant};

use annabella::speech::Voice;
use annabella::speech::echo::Room;
use annabella::speech::espeak::EspeakNg;
use annabella::vocab::{Style, Vocabulary};
use annabella::voice::echo_cancel::{EchoCanceller, erle_db};
use shakmaty::{Chess, Position};

const RATE: usize = 16_000;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(40);
    let ko = Vocabulary::builtin("ko").expect("ko");
    let voice = Voice {
        language: "ko".into(),
        ..Voice::default()
    };
    let (her, _) = EspeakNg::probe(&voice).expect("espeak-ng");
    // Announcements of a game's moves (the first legal move each time,
    // restarting when the game ends).
    let mut texts = Vec::new();
    let mut pos = Chess::default();
    let mut i = 0usize;
    while texts.len() < n {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            pos = Chess::default();
            continue;
        }
        let mv = moves[i % moves.len()];
        i += 7;
        texts.push(ko.announce(&pos, mv, Style::Long).spoken);
        pos.play_unchecked(mv);
    }
    let rendered: Vec<Vec<i16>> = texts
        .iter()
        .map(|t| her.render(t).expect("rendered"))
        .collect();
    // Her voice alone: every announcement, 600 ms apart.
    let mut played = Vec::new();
    for r in &rendered {
        played.extend_from_slice(r);
        played.extend(std::iter::repeat_n(0, RATE * 6 / 10));
    }
    let room = Room::new();
    room.play(&played);
    let mut mic = vec![0i16; played.len() + RATE / 2];
    let mut c = EchoCanceller::default();
    let mut residual = Vec::with_capacity(mic.len());
    let mut reference = Vec::with_capacity(mic.len());
    let mut false_barge = 0;
    let mut busy = Duration::ZERO;
    for chunk in mic.chunks_mut(320) {
        let r = room.mix_into(chunk);
        let t = Instant::now();
        let out = c.process(chunk, &r);
        busy += t.elapsed();
        false_barge += usize::from(out.barge_in.is_some());
        residual.extend(out.audio);
        reference.extend(r);
    }
    let seconds = mic.len() as f64 / RATE as f64;
    let learn = 3 * RATE;
    let erle = erle_db(&mic[learn..], &residual[learn..]);
    println!(
        "her voice alone: {n} announcements, {seconds:.1} s of audio: ERLE {erle:.1} dB after the first 3 s \
         (long-term estimate {:.1} dB), false barge-ins {false_barge}",
        c.stats().erle_db
    );
    println!(
        "CPU: {:.1} ms per second of audio ({:.2} % of real time)",
        busy.as_secs_f64() * 1000.0 / seconds,
        busy.as_secs_f64() * 100.0 / seconds
    );
    // The player talks over her: his words (espeak-ng, lower pitch) start
    // 800 ms into each announcement, after a warm-up of her voice.
    let dir = std::env::temp_dir().join(format!("annabella-echo-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let his_wav = dir.join("his.wav");
    let raw = dir.join("his.raw.wav");
    let ok = std::process::Command::new("espeak-ng")
        .args(["-v", "ko", "-s", "150", "-p", "30", "-w"])
        .arg(&raw)
        .arg(&texts[1])
        .status()
        .is_ok_and(|s| s.success())
        && std::process::Command::new("sox")
            .arg(&raw)
            .args(["-r", "16000", "-c", "1", "-b", "16"])
            .arg(&his_wav)
            .status()
            .is_ok_and(|s| s.success());
    assert!(ok, "espeak-ng and sox");
    let his = annabella::voice::audio::read_wav(&his_wav).expect("wav");
    let _ = std::fs::remove_dir_all(&dir);
    let his_onset = his
        .iter()
        .position(|s| s.unsigned_abs() > 1000)
        .unwrap_or(0);
    let mut delays = Vec::new();
    let mut missed = 0;
    let mut early = 0;
    for (k, r) in rendered.iter().enumerate().skip(2) {
        let mut c = EchoCanceller::default();
        let room = Room::new();
        // Warm-up: the previous two announcements.
        let mut warm = rendered[k - 2].clone();
        warm.extend_from_slice(&rendered[k - 1]);
        room.play(&warm);
        let mut silent = vec![0i16; warm.len()];
        for chunk in silent.chunks_mut(320) {
            let reference = room.mix_into(chunk);
            c.process(chunk, &reference);
        }
        room.play(r);
        let start = (RATE * 8 / 10).min(r.len());
        let mut near = vec![0i16; start];
        near.extend_from_slice(&his);
        let onset = start + his_onset;
        let mut found = None;
        let mut at = 0;
        for chunk in near.chunks_mut(320) {
            let reference = room.mix_into(chunk);
            let out = c.process(chunk, &reference);
            if found.is_none()
                && let Some(b) = out.barge_in
            {
                found = Some(at + b);
            }
            at += chunk.len();
        }
        match found {
            Some(f) if f < onset => early += 1,
            Some(f) => delays.push((f - onset) * 1000 / RATE),
            None => missed += 1,
        }
    }
    delays.sort_unstable();
    let median = delays.get(delays.len() / 2).copied().unwrap_or(0);
    let max = delays.last().copied().unwrap_or(0);
    println!(
        "talking over her: {} tries, detected {} (median {median} ms, max {max} ms after his onset), \
         missed {missed}, before his onset {early}",
        rendered.len().saturating_sub(2),
        delays.len()
    );
}
