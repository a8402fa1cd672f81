//! Dead-position detection against labelled positions, with timings.
//!
//! ```sh
//! cargo run --release --example dead_bench -- FILE...
//! ```
//!
//! Each FILE is either PGN (`.pgn`: every position of every game) or a list
//! of positions, one per line, `#` starting a comment:
//!
//! - `LABEL FEN`, LABEL being two characters saying who can still mate:
//!   `WB` both, `W-` only White, `-B` only Black, `--` nobody (dead);
//! - `FEN` or `FEN<TAB>dead` / `FEN<TAB>alive` (anything after the FEN that
//!   is not one of these words is ignored).
//!
//! In PGN, every position of a game that ends in checkmate is alive (the
//! game itself is the sequence of legal moves to a mate); other games'
//! positions are unlabelled. Every unlabelled position called dead is
//! printed, and checked by a small exhaustive helpmate search written here
//! independently: a mate found there counts as "live called dead".
//!
//! Prints: positions, labelled dead ones found and missed, live positions
//! called dead (must be 0), the same for "cannot checkmate" per side where
//! the label says, and the time per `is_dead` call (median, p90, max) with
//! the most search nodes one call used. `--missed` also lists the labelled
//! dead positions that were not found.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use annabella::pgn::read_games;
use annabella::rules::dead::{Colors, can_ever_checkmate, is_dead, prove_unwinnable};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

/// What a line or game says about a position, per side: can still mate
/// (`Some(true)`), cannot (`Some(false)`), or not known (`None`). A label
/// that is not dead says the position is alive.
#[derive(Clone, Copy)]
struct Label {
    white: Option<bool>,
    black: Option<bool>,
}

impl Label {
    fn dead(self) -> bool {
        self.white == Some(false) && self.black == Some(false)
    }
}

struct Case {
    pos: Chess,
    label: Option<Label>,
}

fn parse_line(line: &str) -> Option<Result<Case, String>> {
    let line = line.split('#').next().unwrap_or_default().trim();
    if line.is_empty() {
        return None;
    }
    let mut tokens: Vec<&str> = line.split_whitespace().collect();
    let mut label = None;
    let first = tokens.first().copied().unwrap_or_default();
    if first.len() == 2 && first.chars().all(|c| matches!(c, 'W' | 'B' | '-')) {
        label = Some(Label {
            white: Some(first.starts_with('W')),
            black: Some(first.ends_with('B')),
        });
        tokens.remove(0);
    }
    if tokens.len() < 2 {
        return Some(Err(format!("no FEN in {line:?}")));
    }
    // Board, turn, castling, en passant, and the two counters if present.
    let mut n = 4.min(tokens.len());
    while n < tokens.len() && n < 6 && tokens[n].parse::<u32>().is_ok() {
        n += 1;
    }
    for word in &tokens[n..] {
        match word.to_ascii_lowercase().as_str() {
            "dead" => {
                label = Some(Label {
                    white: Some(false),
                    black: Some(false),
                })
            }
            "alive" => {
                // Alive, but not saying who can mate.
                label = Some(Label {
                    white: None,
                    black: None,
                })
            }
            _ => {}
        }
    }
    let fen = tokens[..n].join(" ");
    // Composed positions may hold more promoted pieces than shakmaty's
    // material check allows; they are still legal positions to analyse.
    let parsed = fen
        .parse::<Fen>()
        .map_err(|e| format!("{fen}: {e}"))
        .and_then(|f| {
            f.into_position(CastlingMode::Standard)
                .or_else(shakmaty::PositionError::ignore_too_much_material)
                .map_err(|e| format!("{fen}: {e}"))
        });
    Some(parsed.map(|pos| Case { pos, label }))
}

fn read_cases(path: &str) -> Result<Vec<Case>, String> {
    if path.ends_with(".pgn") {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let games = read_games(file).map_err(|e| format!("{path}: {e}"))?;
        let mut cases = Vec::new();
        for game in games {
            let replayed = game.replay().map_err(|e| match annabella::locale::base() {
                Some(en) => format!("{path}: {}", e.describe(en)),
                None => format!("{path}: {e:?}"),
            })?;
            let mut positions = Vec::new();
            let mut last = replayed.start.clone();
            for (before, m) in replayed.steps() {
                last = before.clone();
                match m {
                    Some(m) => last.play_unchecked(m),
                    None => last = last.swap_turn().map_err(|e| e.to_string())?,
                }
                positions.push(before);
            }
            // The side that gave mate could mate from every position.
            let winner = last.is_checkmate().then(|| !last.turn());
            positions.push(last);
            let label = winner.map(|w| Label {
                white: (w == Color::White).then_some(true),
                black: (w == Color::Black).then_some(true),
            });
            cases.extend(positions.into_iter().map(|pos| Case { pos, label }));
        }
        return Ok(cases);
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut cases = Vec::new();
    for parsed in text.lines().filter_map(parse_line) {
        match parsed {
            Ok(case) => cases.push(case),
            Err(e) => eprintln!("skipped (not a legal position): {e}"),
        }
    }
    Ok(cases)
}

/// An exhaustive search for any sequence of at most `plies` legal moves
/// that ends in a checkmate (by either side): independent of the module
/// under test.
fn mate_within(pos: &Chess, plies: u32) -> bool {
    if pos.is_checkmate() {
        return true;
    }
    if plies == 0 {
        return false;
    }
    pos.legal_moves().into_iter().any(|m| {
        let mut child = pos.clone();
        child.play_unchecked(m);
        mate_within(&child, plies - 1)
    })
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[(sorted.len() - 1) * p / 100]
}

fn main() -> ExitCode {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    // `--missed`: also list the labelled dead positions not found.
    let verbose = paths.iter().any(|p| p == "--missed");
    paths.retain(|p| p != "--missed");
    if paths.is_empty() {
        eprintln!("usage: dead_bench FILE... (PGN, or lines of [LABEL] FEN)");
        return ExitCode::FAILURE;
    }
    let mut failed = false;
    for path in &paths {
        let cases = match read_cases(path) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{e}");
                failed = true;
                continue;
            }
        };
        let mut times = Vec::with_capacity(cases.len());
        let (mut dead_labelled, mut found, mut missed, mut live_dead) = (0, 0, 0, 0);
        let (mut side_unwinnable, mut side_found, mut side_live_called) = (0, 0, 0);
        let (mut unlabelled_dead, mut max_nodes) = (0, 0);
        let mut slowest = (Duration::ZERO, String::new());
        for case in &cases {
            let start = Instant::now();
            let dead = is_dead(&case.pos);
            let took = start.elapsed();
            times.push(took);
            max_nodes = max_nodes.max(prove_unwinnable(&case.pos, Colors::BOTH).nodes);
            let fen = Fen::from_position(&case.pos, EnPassantMode::Legal);
            if took > slowest.0 {
                slowest = (took, fen.to_string());
            }
            match case.label {
                Some(label) => {
                    let labelled_dead = label.dead();
                    dead_labelled += usize::from(labelled_dead);
                    match (labelled_dead, dead) {
                        (true, true) => found += 1,
                        (true, false) => {
                            missed += 1;
                            if verbose {
                                println!("missed dead: {fen}");
                            }
                        }
                        (false, true) => {
                            live_dead += 1;
                            println!("LIVE CALLED DEAD: {fen}");
                        }
                        (false, false) => {}
                    }
                    for (color, can) in [(Color::White, label.white), (Color::Black, label.black)] {
                        let Some(can) = can else { continue };
                        let says = can_ever_checkmate(&case.pos, color);
                        if !can {
                            side_unwinnable += 1;
                            side_found += usize::from(!says);
                        } else if !says {
                            side_live_called += 1;
                            println!("{color} CAN MATE, CALLED UNABLE: {fen}");
                        }
                    }
                }
                None if dead => {
                    unlabelled_dead += 1;
                    let mate = mate_within(&case.pos, 4);
                    if mate {
                        live_dead += 1;
                    }
                    println!(
                        "called dead: {fen}{}",
                        if mate { "  (MATE WITHIN 4 PLIES)" } else { "" }
                    );
                }
                None => {}
            }
        }
        times.sort();
        failed |= live_dead > 0 || side_live_called > 0;
        println!("== {path}");
        println!(
            "positions {}, labelled dead {dead_labelled}, found dead {found}, missed dead {missed}, live called dead {live_dead}",
            cases.len()
        );
        println!(
            "per side: cannot mate (labelled) {side_unwinnable}, proven {side_found}, can mate but called unable {side_live_called}"
        );
        println!("unlabelled positions called dead {unlabelled_dead}");
        println!(
            "is_dead time per position: median {:?}, p90 {:?}, max {:?}; most search nodes {max_nodes}",
            percentile(&times, 50),
            percentile(&times, 90),
            times.last().copied().unwrap_or_default()
        );
        let total: Duration = times.iter().sum();
        println!("total {total:?}; slowest: {}", slowest.1);
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
