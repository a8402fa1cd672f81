//! Announce and parse timings per move for one locale, split into parts,
//! for profiling with callgrind (instruction counts are repeatable under
//! load): `N=3 valgrind --tool=callgrind target/release/examples/vocab_prof fide`.
//! Run from the project folder (it reads `../shared/pgn`).

use annabella::pgn::read_games;
use annabella::vocab::{Style, Vocabulary};
use shakmaty::{Position, san::San};
use std::time::Instant;
fn main() {
    let mut s = Vec::new();
    for f in std::fs::read_dir("../shared/pgn").unwrap() {
        let p = f.unwrap().path();
        if p.extension().is_some_and(|e| e == "pgn") {
            for g in read_games(std::fs::File::open(&p).unwrap()).unwrap() {
                let r = g.replay().unwrap();
                for (pos, m) in r.steps() {
                    if let Some(m) = m {
                        s.push((pos, r.mode, m));
                    }
                }
            }
        }
    }
    let code = std::env::args().nth(1).unwrap_or("fide".into());
    let v = Vocabulary::builtin(&code).unwrap();
    let texts: Vec<String> = s
        .iter()
        .map(|(p, _, m)| v.announce(p, *m, Style::Short).display)
        .collect();
    let n: u32 = std::env::var("N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let t = Instant::now();
    for _ in 0..n {
        for (p, _, m) in &s {
            std::hint::black_box(v.announce(p, *m, Style::Short));
        }
    }
    println!("announce {:?}", t.elapsed() / (n * s.len() as u32));
    let t = Instant::now();
    for _ in 0..n {
        for ((p, mode, _), txt) in s.iter().zip(&texts) {
            let _ = std::hint::black_box(v.parse(p, *mode, txt));
        }
    }
    println!("parse {:?}", t.elapsed() / (n * s.len() as u32));
    let t = Instant::now();
    for _ in 0..n {
        for (p, _, m) in &s {
            std::hint::black_box(San::from_move(p, *m));
        }
    }
    println!("San::from_move {:?}", t.elapsed() / (n * s.len() as u32));
    let t = Instant::now();
    for _ in 0..n {
        for (p, _, _) in &s {
            std::hint::black_box(p.legal_moves());
        }
    }
    println!("legal_moves {:?}", t.elapsed() / (n * s.len() as u32));
    let t = Instant::now();
    for _ in 0..n {
        for (p, _, m) in &s {
            let mut q = p.clone();
            q.play_unchecked(*m);
            std::hint::black_box(q.is_check());
        }
    }
    println!(
        "clone+play+is_check {:?}",
        t.elapsed() / (n * s.len() as u32)
    );
}
