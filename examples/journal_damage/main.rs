//! How much of a damaged journal is recovered (issue 21, item 4): a game
//! of 60 events (15 moves, each made, announced, pressed and made on the
//! other board), damaged one way at every place, read back by the reader
//! of `main` before the issue and by today's. The figure is the events
//! recovered of 60: the records that replay through the game layer.
//!
//! - deleted: one line removed (each of the 61: the header and 60 records)
//! - duplicated: one line written twice in a row
//! - swapped: one line swapped with the next
//! - flipped bit: one bit changed, at every byte of every line
//! - changed byte: one byte set to another value, every 7th byte of every
//!   line (the other value from a fixed pseudo-random sequence)
//!
//! Columns: `before` (main's reader: the lines up to the first bad one),
//! `after` (today's, automatically: `resume`, `export`, `review`), and
//! `repair` (today's `resume --repair` with the arbiter taking every
//! record offered; a record that does not fit the game is not taken).
//!
//!     cargo run --release --example journal_damage

mod old_reader;

use std::time::{Duration, Instant};

use annabella::game::script::{Step, parse_line};
use annabella::game::{Game, Record};
use annabella::journal::{self, Header};

const MOVES: [&str; 15] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3",
];

/// The game's header and its 60 records, as `play` makes them.
fn game() -> (Header, Vec<Record>) {
    let header: Header = serde_json::from_str(
        r#"{"format":"annabella-journal","version":2,"created":"2026-11-26T10:00:00Z",
            "white":"Anna","black":"Bella","control":"90m/40+30m+30s","locale":"en"}"#,
    )
    .expect("header");
    let vocab = annabella::cli::load_locale("en").unwrap_or_else(|_| panic!("en"));
    let config = journal::config_of(&header).expect("config");
    let mut g = Game::new(vocab, config, Duration::ZERO);
    let mut records = Vec::new();
    let mut t = 0;
    for (i, mv) in MOVES.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            ("white", "black")
        } else {
            ("black", "white")
        };
        for line in [
            format!("{mover} board: {mv}"),
            "announce".to_owned(),
            "press".to_owned(),
            format!("{other} board: {mv}"),
        ] {
            t += 1;
            let Ok(Step::Command(c)) = parse_line(&line, g.mirror()) else {
                panic!("{line}");
            };
            g.apply(Duration::from_secs(t), c, None)
                .unwrap_or_else(|e| panic!("{line}: {e:?}"));
            records.extend(g.take_records());
        }
    }
    assert_eq!(records.len(), 60);
    (header, records)
}

/// Records that replay, from the start, of `records`.
fn replayed(header: &Header, records: &[Record]) -> usize {
    let vocab = annabella::cli::load_locale(&header.locale).unwrap_or_else(|_| panic!("locale"));
    let Ok(config) = journal::config_of(header) else {
        return 0;
    };
    match Game::replay(vocab, config, records) {
        Ok(_) => records.len(),
        Err((i, _)) => i,
    }
}

/// Events recovered by main's reader.
fn before(bytes: &[u8]) -> usize {
    match old_reader::parse(bytes) {
        Ok(l) => replayed(&l.header, &l.records),
        Err(old_reader::ReadError::Corrupt { good, .. }) => replayed(&good.header, &good.records),
        Err(_) => 0,
    }
}

/// Events recovered by today's reader: automatically, and with the
/// arbiter taking every record offered.
fn after(bytes: &[u8]) -> (usize, usize) {
    let Ok(l) = journal::parse(bytes) else {
        return (0, 0);
    };
    let vocab = annabella::cli::load_locale(&l.header.locale).unwrap_or_else(|_| panic!("locale"));
    let Ok(config) = journal::config_of(&l.header) else {
        return (0, 0);
    };
    let auto = replayed(&l.header, &l.records);
    let mut g = match Game::replay(vocab, config, &l.records[..auto]) {
        Ok(g) => g,
        Err(_) => return (auto, auto),
    };
    let mut taken = auto;
    for r in l.records[auto..]
        .iter()
        .chain(l.later.iter().map(|x| &x.record))
    {
        if g.replay_record(r).is_ok() {
            taken += 1;
        }
    }
    (auto, taken)
}

fn lines_of(text: &str) -> Vec<Vec<u8>> {
    text.lines().map(|l| l.as_bytes().to_vec()).collect()
}

fn join(ls: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for l in ls {
        out.extend_from_slice(l);
        out.push(b'\n');
    }
    out
}

#[derive(Default)]
struct Tally {
    cases: usize,
    before: usize,
    after: usize,
    repair: usize,
    whole_before: usize,
    whole_after: usize,
    worst_after: Option<usize>,
}

impl Tally {
    fn add(&mut self, bytes: &[u8]) {
        let b = before(bytes);
        let (a, r) = after(bytes);
        self.cases += 1;
        self.before += b;
        self.after += a;
        self.repair += r;
        self.whole_before += usize::from(b == 60);
        self.whole_after += usize::from(a == 60);
        self.worst_after = Some(self.worst_after.map_or(a, |w| w.min(a)));
    }

    fn row(&self, kind: &str) -> String {
        let mean = |n: usize| n as f64 / self.cases.max(1) as f64;
        format!(
            "| {kind:<13} | {:>5} | {:>6.1} | {:>5.1} | {:>6.1} | {:>5} | {:>5} | {:>5} |",
            self.cases,
            mean(self.before),
            mean(self.after),
            mean(self.repair),
            self.whole_before,
            self.whole_after,
            self.worst_after.unwrap_or(0),
        )
    }
}

fn main() {
    let started = Instant::now();
    let (header, records) = game();
    let mut text = journal::encode_line(&header).expect("header");
    let (header_sum, _) = journal::encode(&header).expect("header");
    let (body, _, _) = journal::chain(&records, 0, header_sum).expect("chain");
    text.push_str(&body);
    let clean = lines_of(&text);
    assert_eq!(clean.len(), 61);
    assert_eq!(before(text.as_bytes()), 60);
    assert_eq!(after(text.as_bytes()), (60, 60));
    let n = clean.len();
    let mut rows = Vec::new();
    let mut deleted = Tally::default();
    let mut duplicated = Tally::default();
    let mut swapped = Tally::default();
    for i in 0..n {
        let mut ls = clean.clone();
        ls.remove(i);
        deleted.add(&join(&ls));
        let mut ls = clean.clone();
        ls.insert(i + 1, clean[i].clone());
        duplicated.add(&join(&ls));
        if i + 1 < n {
            let mut ls = clean.clone();
            ls.swap(i, i + 1);
            swapped.add(&join(&ls));
        }
    }
    rows.push(deleted.row("deleted"));
    rows.push(duplicated.row("duplicated"));
    rows.push(swapped.row("swapped"));
    let mut flipped = Tally::default();
    let mut changed = Tally::default();
    let mut seed: u32 = 2026;
    for i in 0..n {
        for p in 0..clean[i].len() {
            let mut ls = clean.clone();
            ls[i][p] ^= 1 << (p % 8);
            flipped.add(&join(&ls));
            if p % 7 == 0 {
                // A fixed pseudo-random other value (never a newline,
                // which would split the line: that is another damage).
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let mut v = (seed >> 16) as u8;
                if v == clean[i][p] || v == b'\n' {
                    v = v.wrapping_add(1).max(1);
                }
                let mut ls = clean.clone();
                ls[i][p] = v;
                changed.add(&join(&ls));
            }
        }
    }
    rows.push(flipped.row("flipped bit"));
    rows.push(changed.row("changed byte"));
    println!("Events recovered of 60 from a journal of 61 lines, damaged once:");
    println!();
    println!(
        "| damage        | cases | before | after | repair | whole before | whole after | worst after |"
    );
    println!("|---------------|-------|--------|-------|--------|-------|-------|-------|");
    for r in rows {
        println!("{r}");
    }
    println!();
    println!(
        "(before, after, repair: mean events recovered; whole: cases with all 60; {:.0} s)",
        started.elapsed().as_secs_f64()
    );
}
