//! Announce + parse round trip of every move of the shared PGN games,
//! measured beside a baseline of shakmaty's own SAN parse + play of the same
//! moves. Target: the round trip costs at most 3x the SAN baseline.
//!
//! Run with `cargo bench --bench roundtrip`; the ratio is printed at the end.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use annabella::pgn::read_games;
use annabella::vocab::{Style, Vocabulary};
use criterion::{Criterion, criterion_group};
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Move, Position};

struct Sample {
    pos: Chess,
    mode: CastlingMode,
    m: Move,
    san: Vec<u8>,
}

fn samples() -> Vec<Sample> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pgn");
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("../shared/pgn beside the project")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    paths.sort();
    for path in paths {
        let file = std::fs::File::open(&path).expect("readable");
        for game in read_games(file).expect("pgn") {
            let Ok(r) = game.replay() else { continue };
            for (pos, m) in r.steps() {
                if let Some(m) = m {
                    let san = San::from_move(&pos, m).to_string().into_bytes();
                    out.push(Sample {
                        pos,
                        mode: r.mode,
                        m,
                        san,
                    });
                }
            }
        }
    }
    out
}

fn baseline(samples: &[Sample]) {
    for s in samples {
        let san = San::from_ascii(&s.san).expect("san");
        let m = san.to_move(&s.pos).expect("legal");
        let mut next = s.pos.clone();
        next.play_unchecked(m);
        black_box(next);
    }
}

fn round_trip(vocab: &Vocabulary, style: Style, samples: &[Sample]) {
    for s in samples {
        let said = vocab.announce(&s.pos, s.m, style);
        let m = vocab
            .parse(&s.pos, s.mode, &said.display)
            .expect("round trip");
        let mut next = s.pos.clone();
        next.play_unchecked(m);
        black_box(next);
    }
}

fn per_move(samples: &[Sample], f: impl Fn()) -> Duration {
    // A fixed, repeatable measurement beside criterion's, for the ratio.
    f();
    let runs = 20;
    let start = Instant::now();
    for _ in 0..runs {
        f();
    }
    start.elapsed() / (runs * samples.len() as u32)
}

fn bench(c: &mut Criterion) {
    let samples = samples();
    let fide = Vocabulary::builtin("fide").expect("fide");
    let mut group = c.benchmark_group(format!("{} moves", samples.len()));
    group.bench_function("baseline: shakmaty SAN parse + play", |b| {
        b.iter(|| baseline(&samples))
    });
    group.bench_function("fide short: announce + parse + play", |b| {
        b.iter(|| round_trip(&fide, Style::Short, &samples))
    });
    group.bench_function("fide long: announce + parse + play", |b| {
        b.iter(|| round_trip(&fide, Style::Long, &samples))
    });
    group.finish();

    let base = per_move(&samples, || baseline(&samples));
    println!();
    println!("moves: {}", samples.len());
    println!("baseline (SAN parse + play): {base:?} per move");
    for code in annabella::locale::builtin_codes() {
        let v = Vocabulary::builtin(code).expect("locale");
        for style in [Style::Short, Style::Long] {
            let t = per_move(&samples, || round_trip(&v, style, &samples));
            let ratio = t.as_secs_f64() / base.as_secs_f64();
            println!("{code:>5} {style:?}: {t:?} per move, ratio {ratio:.2} (target <= 3.00)");
        }
    }
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
