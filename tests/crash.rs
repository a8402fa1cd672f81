//! Crash test with the real binary: a long scripted game (a real game from
//! ../shared/pgn with a wrong execution and the arbiter's correction, a slip
//! of the tongue, an illegal move, a draw offer and a clock adjustment) is
//! killed with SIGKILL at pseudo-random moments dozens of times and resumed
//! each time from its journal; the finished game must equal an uninterrupted
//! run: the same boards, scoresheets and clock times, to the millisecond.

mod common;

use common::{de, de_until as until};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use annabella::locale::MsgKey;
use annabella::pgn::read_games;
use annabella::vocab::{Style, Vocabulary};
use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_annabella")
}

/// The longest standard game of the shared files.
fn long_game() -> Vec<Move> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pgn/kasparov-deep-blue-1997.pgn");
    let text = std::fs::read(&path).unwrap();
    read_games(text.as_slice())
        .unwrap()
        .iter()
        .filter_map(|g| g.replay().ok())
        .map(|r| r.moves.iter().map_while(|m| *m).collect::<Vec<_>>())
        .max_by_key(Vec::len)
        .unwrap()
}

fn script(moves: &[Move]) -> String {
    let vocab = Vocabulary::builtin("fide").unwrap();
    let mut pos = Chess::default();
    let mut s = String::from("# crash test game\n");
    let mut t = 0.0;
    for (i, m) in moves.iter().enumerate() {
        let (me, other) = if i % 2 == 0 {
            ("white", "black")
        } else {
            ("black", "white")
        };
        let san = San::from_move(&pos, *m).to_string();
        let words = vocab.announce(&pos, *m, Style::Long).display;
        t += 7.3;
        s.push_str(&format!("time {t:.1}\n"));
        if i == 6 {
            // An illegal move, completed: 2 minutes to the opponent.
            s.push_str(&format!("{me} board: Kh8\nannounce\npress\n"));
        }
        s.push_str(&format!("{me} board: {san}\n"));
        if i == 10 {
            // A slip of the tongue, corrected before the press.
            let slip = pos
                .legal_moves()
                .into_iter()
                .find(|x| x != m)
                .map(|x| vocab.announce(&pos, x, Style::Long).display)
                .unwrap_or_default();
            s.push_str(&format!("announce: {slip}\n"));
        }
        s.push_str("announce\n");
        if i == 20 {
            s.push_str(&format!("{me} offer draw\n"));
        }
        s.push_str("time +1.5\npress\nsleep 3\n");
        if i == 14 {
            // Executed wrongly, then corrected from the scoresheets.
            let wrong = pos.legal_moves().into_iter().find(|x| x != m).unwrap();
            let wrong = San::from_move(&pos, wrong).to_string();
            s.push_str(&format!("{other} board: {wrong}\n"));
            s.push_str(&format!("white sheet: {san}\nblack sheet: {san}\n"));
            s.push_str("arbiter: correct\narbiter: add black 30s\n");
        } else {
            s.push_str(&format!("{other} repeat\n{other} board: {words}\n"));
            let mark = if i == 20 { " (=)" } else { "" };
            s.push_str(&format!(
                "white sheet: {san}{mark}\nblack sheet: {san}{mark}\n"
            ));
        }
        if i == 20 {
            // Declined before the opponent's own move: making a move would
            // let the offer lapse (9.1.2.1).
            s.push_str("decline draw\n");
        }
        s.push_str("sleep 2\n");
        pos.play_unchecked(*m);
    }
    s.push_str("clock\n");
    s
}

fn play(dir: &Path, journal: &Path) -> Command {
    let mut c = Command::new(bin());
    c.args([
        "play",
        "--script",
        "s.txt",
        "--white",
        "Kasparov",
        "--black",
        "Deep Blue",
    ])
    .arg("--journal")
    .arg(journal)
    .current_dir(dir)
    .env("XDG_DATA_HOME", dir.join("data"))
    .stdin(Stdio::null());
    c
}

fn export(dir: &Path, journal: &Path, args: &[&str]) -> String {
    let o = Command::new(bin())
        .arg("export")
        .args(args)
        .arg(journal)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The journal a game is continued in: the last continuation, if any.
fn current(dir: &Path) -> PathBuf {
    let mut best = dir.join("g.jsonl");
    for n in 1.. {
        let p = dir.join(format!("g-cont{n}.jsonl"));
        if !p.exists() {
            break;
        }
        best = p;
    }
    best
}

struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n.max(1)
    }
}

#[test]
fn killed_at_random_moments_the_resumed_game_equals_an_uninterrupted_one() {
    let moves = long_game();
    assert!(moves.len() > 80, "{}", moves.len());
    let text = script(&moves);

    // Uninterrupted run.
    let a = tempfile::tempdir().unwrap();
    std::fs::write(a.path().join("s.txt"), &text).unwrap();
    let ja = a.path().join("g.jsonl");
    let t0 = Instant::now();
    let o = play(a.path(), &ja).output().unwrap();
    let whole = t0.elapsed();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The default locale (fide) speaks German: the texts are de's.
    let (white, black) = (de(MsgKey::SideWhite, &[]), de(MsgKey::SideBlack, &[]));
    let illegal = until(MsgKey::MirrorIllegalCompleted, &[("side", &white)], "side");
    assert!(out.contains(illegal.trim_end()), "{out}");
    let slip = until(MsgKey::MirrorSlip, &[("side", &white)], "said");
    assert!(out.contains(slip.trim_end()), "{out}");
    let differ = until(
        MsgKey::MirrorBoardsDiffer,
        &[("number", "8"), ("side", &white)],
        "black",
    );
    assert!(out.contains(differ.trim_end()), "{out}");
    let board = de(MsgKey::MirrorBoardOf, &[("side", &black)]);
    let corrected = until(MsgKey::MirrorCorrectedBoard, &[("boards", &board)], "last");
    assert!(out.contains(corrected.trim_end()), "{out}");
    let refused = until(MsgKey::PlayLineError, &[], "line");
    assert!(
        !out.contains(refused.trim_end()),
        "no script line may be refused: {out}"
    );
    let expected = export(a.path(), &ja, &["--format", "json"]);
    let expected_pgn = export(a.path(), &ja, &["--board", "black"]);
    assert!(expected.contains("\"stage\": \"idle\""), "{expected}");

    // Killed again and again, resumed each time. How much of the game a
    // run gets through before its kill depends on the machine's load, so a
    // game that ends after too few kills is played again from the start
    // with shorter slices; every game played must end equal to the
    // uninterrupted one.
    let seed = std::env::var("ANNABELLA_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| u64::from(std::process::id()));
    println!("seed {seed} (set ANNABELLA_SEED to repeat)");
    let mut rng = Lcg(seed);
    let mut killed_mid_game = 0;
    let mut runs = 0;
    let mut slice = u64::try_from(whole.as_millis() / 20).unwrap_or(100).max(10);
    let mut games = 0;
    while killed_mid_game < 24 && games < 6 {
        games += 1;
        let b = tempfile::tempdir().unwrap();
        std::fs::write(b.path().join("s.txt"), &text).unwrap();
        let mut game_runs = 0;
        while killed_mid_game < 40 && game_runs < 300 {
            runs += 1;
            game_runs += 1;
            let journal = current(b.path());
            let first = !journal.exists();
            let mut child = play(b.path(), &journal)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            if first {
                // Wait for the journal to exist (it appears complete or not at all).
                let t0 = Instant::now();
                while !journal.exists() && t0.elapsed() < Duration::from_secs(20) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            // Each run gets a small random slice of the whole game's time.
            std::thread::sleep(Duration::from_millis(5 + rng.next(slice)));
            if child.try_wait().unwrap().is_none() {
                child.kill().unwrap();
                killed_mid_game += 1;
            }
            let _ = child.wait();
            if export(b.path(), &current(b.path()), &["--format", "json"]) == expected {
                break;
            }
        }
        // Finish the game.
        let journal = current(b.path());
        let o = play(b.path(), &journal).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let got = export(b.path(), &journal, &["--format", "json"]);
        assert_eq!(
            got, expected,
            "game {games}: after {killed_mid_game} kills ({runs} runs)"
        );
        assert_eq!(
            export(b.path(), &journal, &["--board", "black"]),
            expected_pgn
        );
        slice = (slice / 2).max(5);
    }
    assert!(
        killed_mid_game >= 24,
        "only {killed_mid_game} kills landed mid-game in {runs} runs of {games} games"
    );
    println!(
        "{killed_mid_game} kills in {runs} runs of {games} games (uninterrupted run {whole:?})"
    );
}
