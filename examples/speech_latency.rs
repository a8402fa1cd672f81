//! Latency of the talking clock's speech: from a clock press to the first
//! audio of the announcement, rendered by the espeak-ng adapter.
//!
//! Each run presses the clock (pure core, injected time), lets the
//! [`Talker`] decide what is due, words it with the [`Phrasebook`], and
//! streams espeak-ng's output through [`EspeakNg::stream`]; timing stops at
//! the first audio chunk and, separately, at the first non-silent sample
//! (|sample| > 1 % of full scale). Target: median ≤ 50 ms on 2 cores.
//!
//! Run: `cargo run --release --example speech_latency [RUNS] [LOCALE...]`

use std::time::{Duration, Instant};

use annabella::clock::Clock;
use annabella::clock::talk::{Phrasebook, Schedule, TalkEvent, Talker, Verbosity};
use annabella::speech::Voice;
use annabella::speech::espeak::EspeakNg;
use shakmaty::Color;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let mut locales: Vec<String> = args.collect();
    if locales.is_empty() {
        locales = ["de", "en", "pl", "he", "ar", "el"]
            .map(String::from)
            .to_vec();
    }
    println!("runs per locale: {runs}");
    println!("locale  first-chunk median/p90 ms  first-sound median/p90 ms  core ms (median)");
    let mut all_sound = Vec::new();
    for code in &locales {
        let book = match Phrasebook::builtin(code) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{code}: {e}");
                continue;
            }
        };
        let voice = Voice {
            language: book.language().to_owned(),
            ..Voice::default()
        };
        let engine = match EspeakNg::probe(&voice) {
            Ok((e, missing)) => {
                if let Some(m) = missing {
                    eprintln!("{code}: {m}");
                }
                e
            }
            Err(e) => {
                eprintln!("espeak-ng cannot be run: {e}");
                std::process::exit(1);
            }
        };
        let (mut chunk, mut sound, mut core) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..runs + 2 {
            let mut clock = Clock::new("5m+3s".parse().expect("valid control"));
            let mut talker = Talker::new(Schedule::default());
            let t0 = Duration::from_secs(100);
            clock.start(t0, Color::White).expect("fresh clock");
            talker.observe(&clock, t0, &[]);
            let now = t0 + Duration::from_millis(2_000 + 37 * i as u64);
            // The press.
            let start = Instant::now();
            let events: Vec<TalkEvent> = clock
                .press(now)
                .expect("running clock")
                .into_iter()
                .map(TalkEvent::from)
                .collect();
            let due = talker.observe(&clock, now, &events);
            let mut text = String::new();
            for a in &due {
                text.push_str(&book.announcement(a, Verbosity::Brief).spoken);
                text.push(' ');
            }
            let core_done = start.elapsed();
            let mut first_chunk = None;
            let mut first_sound = None;
            let result = engine.stream(&text, |samples, _rate| {
                if first_chunk.is_none() {
                    first_chunk = Some(start.elapsed());
                }
                if samples.iter().any(|s| s.unsigned_abs() > 328) {
                    first_sound = Some(start.elapsed());
                    return false;
                }
                true
            });
            if let Err(e) = result {
                eprintln!("{code}: {e}");
                std::process::exit(1);
            }
            if i < 2 {
                continue; // warm-up (disk cache)
            }
            core.push(core_done);
            if let Some(c) = first_chunk {
                chunk.push(c);
            }
            if let Some(s) = first_sound {
                sound.push(s);
            }
        }
        for v in [&mut chunk, &mut sound, &mut core] {
            v.sort();
        }
        println!(
            "{code:6}  {:8.1} / {:6.1}              {:8.1} / {:6.1}              {:8.3}",
            ms(percentile(&chunk, 0.5)),
            ms(percentile(&chunk, 0.9)),
            ms(percentile(&sound, 0.5)),
            ms(percentile(&sound, 0.9)),
            ms(percentile(&core, 0.5)),
        );
        all_sound.extend(sound);
    }
    all_sound.sort();
    println!(
        "all     first sound: median {:.1} ms, p90 {:.1} ms (target: median <= 50 ms)",
        ms(percentile(&all_sound, 0.5)),
        ms(percentile(&all_sound, 0.9))
    );
}
