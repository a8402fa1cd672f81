//! End to end, measured where the player is (issue 23): the real binary,
//! in plain lines and on the full screen (in tmux), hears recordings
//! played in real time as if spoken into the microphone (`--voice-wav`),
//! hands-free and with the talk key held (`--push-to-talk`: the key goes
//! down before each recording and up 100 ms after its last sound, handled
//! by the screen like F2). Its speech goes to a paced test sound card
//! (10 ms of 48 kHz stereo every 10 ms, the callback a real card calls).
//!
//!     cargo run --release --example e2e_latency [-- MODEL_DIR [PHRASES]]
//!
//! MODEL_DIR defaults to env ANNABELLA_TEST_MODEL (the Korean model);
//! PHRASES (default 12) Korean moves of the start position, synthesized
//! with espeak-ng and sox (short and long style, 140–220 words a minute).
//!
//! The program writes a timeline (env ANNABELLA_TRACE, CLOCK_MONOTONIC,
//! which this process shares): when each recording's first sample was
//! "captured", when the key went up, when each decision was made, when the
//! newest line reached the screen, when her reply's first sample was
//! handed to the sound card. The end of speech is known from the
//! recording (its last sample above 500, as `voice_bench`); push-to-talk
//! counts from the key release, as `voice_bench` does. Printed lines in
//! plain mode are timed here, as they are read from the program's output.
//!
//! Per mode: the core (end of the utterance to the decision, what
//! `voice_bench` measures), printed (to the line on the screen or read
//! from the output) and spoken (to the first sample of her reply handed to
//! the sound card), medians over both front ends. Targets: printed at most
//! core plus 10 ms, spoken at most core plus 30 ms. The last line:
//!
//!     e2e: push-to-talk core X ms, printed Y ms, spoken Z ms; hands-free core X ms, printed Y ms, spoken Z ms

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use annabella::vocab::{Style, Vocabulary};
use annabella::voice::audio::read_wav;
use shakmaty::{Chess, Position};

fn mono_now() -> u128 {
    annabella::trace::mono_now()
}

fn synthesize(text: &str, speed: u32, dir: &Path, n: usize) -> Option<PathBuf> {
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
    ok.then_some(wav)
}

/// One timeline event.
#[derive(Debug, Clone)]
struct Ev {
    at: u128,
    kind: String,
    detail: String,
}

fn read_trace(path: &Path) -> Vec<Ev> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out: Vec<Ev> = text
        .lines()
        .filter_map(|l| {
            let mut parts = l.splitn(3, ' ');
            let at = parts.next()?.parse().ok()?;
            let kind = parts.next()?.to_owned();
            let detail = parts.next().unwrap_or("").to_owned();
            Some(Ev { at, kind, detail })
        })
        .collect();
    out.sort_by_key(|e| e.at);
    out
}

#[derive(Debug, Default, Clone)]
struct Figures {
    core: Vec<f64>,
    printed: Vec<f64>,
    spoken: Vec<f64>,
    decisions: Vec<String>,
}

impl Figures {
    fn extend(&mut self, other: Figures) {
        self.core.extend(other.core);
        self.printed.extend(other.printed);
        self.spoken.extend(other.spoken);
        self.decisions.extend(other.decisions);
    }
}

fn ms(ns: i128) -> f64 {
    ns as f64 / 1e6
}

/// The figures of one run from its timeline (`lines`: plain output lines
/// with the moment they were read; none on the full screen, where the
/// program's "shown" events count).
fn figures(
    trace: &[Ev],
    lines: &[(u128, String)],
    ends: &HashMap<String, u128>,
    push_to_talk: bool,
) -> Figures {
    let mut f = Figures::default();
    let files: Vec<&Ev> = trace.iter().filter(|e| e.kind == "file").collect();
    for (i, file) in files.iter().enumerate() {
        let next = files.get(i + 1).map_or(u128::MAX, |e| e.at);
        let Some(speech) = ends.get(&file.detail) else {
            continue;
        };
        let end = if push_to_talk {
            match trace
                .iter()
                .find(|e| e.kind == "talk-up" && e.at >= file.at && e.at < next)
            {
                Some(e) => e.at,
                None => continue,
            }
        } else {
            file.at + speech
        };
        let Some(decided) = trace
            .iter()
            .find(|e| e.kind == "decided" && e.at >= file.at && e.at < next)
        else {
            continue;
        };
        f.decisions.push(decided.detail.clone());
        f.core.push(ms(decided.at as i128 - end as i128));
        let printed = if lines.is_empty() {
            trace
                .iter()
                .find(|e| e.kind == "shown" && e.at >= decided.at)
                .map(|e| e.at)
        } else {
            lines.iter().find(|(at, _)| *at >= decided.at).map(|l| l.0)
        };
        if let Some(p) = printed {
            f.printed.push(ms(p as i128 - end as i128));
        }
        if let Some(s) = trace
            .iter()
            .find(|e| e.kind == "audio" && e.at >= decided.at && e.at < next)
        {
            f.spoken.push(ms(s.at as i128 - end as i128));
        }
    }
    f
}

fn median(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn p90(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() - 1) as f64 * 0.9).round() as usize]
}

struct Setup<'a> {
    bin: &'a Path,
    model: &'a Path,
    files: &'a [PathBuf],
    ends: &'a HashMap<String, u128>,
}

fn args(s: &Setup<'_>, dir: &Path, push_to_talk: bool, plain: bool) -> Vec<String> {
    let mut a: Vec<String> = vec!["-l".into(), "ko".into(), "--model".into()];
    a.push(s.model.display().to_string());
    a.push("--journal".into());
    a.push(dir.join("game.jsonl").display().to_string());
    if plain {
        a.extend(["--plain".into(), "--speak".into()]);
    }
    if push_to_talk {
        a.extend(["--push-to-talk".into(), "--release-ms".into(), "100".into()]);
    }
    for f in s.files {
        a.push("--voice-wav".into());
        a.push(f.display().to_string());
    }
    a
}

/// Waits until the timeline holds `n` decisions and then `linger` more
/// (her last reply is spoken), at most `limit`. Each recording is played
/// only after annabella has been quiet, and a Korean question with three
/// moves takes her about 10 s to say: the limit allows 30 s a recording
/// (at 10 s, only 8 of 12 recordings were played before the run ended).
fn wait_decisions(trace: &Path, n: usize, linger: Duration, limit: Duration) {
    let start = Instant::now();
    while start.elapsed() < limit {
        let count = read_trace(trace)
            .iter()
            .filter(|e| e.kind == "decided")
            .count();
        if count >= n {
            std::thread::sleep(linger);
            return;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn run_plain(s: &Setup<'_>, push_to_talk: bool) -> Figures {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let trace = dir.path().join("trace");
    let mut child = Command::new(s.bin)
        .args(args(s, dir.path(), push_to_talk, true))
        .env("ANNABELLA_TRACE", &trace)
        .env("ANNABELLA_TEST_OUTPUT", "virtual")
        .env("HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut lines = Vec::new();
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            lines.push((mono_now(), line));
        }
        lines
    });
    wait_decisions(
        &trace,
        s.files.len(),
        Duration::from_secs(3),
        Duration::from_secs(60 + 30 * s.files.len() as u64),
    );
    drop(child.stdin.take());
    let _ = child.kill();
    let _ = child.wait();
    let lines = reader.join().unwrap_or_default();
    figures(&read_trace(&trace), &lines, s.ends, push_to_talk)
}

fn run_screen(s: &Setup<'_>, push_to_talk: bool) -> Figures {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let trace = dir.path().join("trace");
    let name = format!("e2e-{}-{}", std::process::id(), push_to_talk);
    let d = dir.path().display();
    let mut line = format!(
        "ANNABELLA_TRACE={} ANNABELLA_TEST_OUTPUT=virtual HOME={d} XDG_DATA_HOME={d} XDG_CONFIG_HOME={d} {}",
        trace.display(),
        s.bin.display()
    );
    for a in args(s, dir.path(), push_to_talk, false) {
        line.push(' ');
        line.push_str(&a);
    }
    let ok = Command::new("tmux")
        .args(["new-session", "-d", "-x", "100", "-y", "30", "-s", &name])
        .args(["bash", "--norc", "--noprofile", "-c", &line])
        .status()
        .is_ok_and(|st| st.success());
    if !ok {
        eprintln!("e2e_latency: tmux could not start the full screen");
        return Figures::default();
    }
    wait_decisions(
        &trace,
        s.files.len(),
        Duration::from_secs(3),
        Duration::from_secs(60 + 30 * s.files.len() as u64),
    );
    let _ = Command::new("tmux")
        .args(["kill-session", "-t", &name])
        .status();
    figures(&read_trace(&trace), &[], s.ends, push_to_talk)
}

fn report(name: &str, f: &Figures) {
    println!(
        "{name}: n {} — core median {:.1} ms (p90 {:.1}), printed median {:.1} ms (p90 {:.1}), spoken median {:.1} ms (p90 {:.1}; {} replies)",
        f.core.len(),
        median(&f.core),
        p90(&f.core),
        median(&f.printed),
        p90(&f.printed),
        median(&f.spoken),
        p90(&f.spoken),
        f.spoken.len()
    );
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let model = argv
        .get(1)
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("ANNABELLA_TEST_MODEL").map(PathBuf::from));
    let Some(model) = model else {
        eprintln!("e2e_latency: give the model folder as argument or set ANNABELLA_TEST_MODEL");
        std::process::exit(2);
    };
    let phrases: usize = argv.get(2).and_then(|s| s.parse().ok()).unwrap_or(12);
    // The real binary, built as the user gets it.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let built = Command::new(&cargo)
        .args(["build", "--release", "--bin", "annabella"])
        .status()
        .is_ok_and(|s| s.success());
    let bin = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent()?.parent().map(|d| d.join("annabella")));
    let Some(bin) = bin.filter(|b| built && b.is_file()) else {
        eprintln!("e2e_latency: the binary could not be built");
        std::process::exit(1);
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let vocab = Vocabulary::builtin("ko").expect("ko");
    let pos = Chess::default();
    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
    let mut files = Vec::new();
    let mut ends = HashMap::new();
    for n in 0..phrases {
        let m = moves[n % moves.len()];
        let style = if n % 2 == 0 {
            Style::Short
        } else {
            Style::Long
        };
        let text = vocab.announce(&pos, m, style).spoken;
        let Some(wav) = synthesize(&text, 140 + (n as u32 % 5) * 20, dir.path(), n) else {
            eprintln!("e2e_latency: espeak-ng and sox are needed to synthesize speech");
            std::process::exit(1);
        };
        let samples = read_wav(&wav).expect("own recording");
        let last = samples
            .iter()
            .rposition(|s| s.unsigned_abs() > 500)
            .map_or(samples.len(), |i| i + 1);
        ends.insert(
            wav.display().to_string(),
            last as u128 * 1_000_000_000 / 16_000,
        );
        files.push(wav);
    }
    let setup = Setup {
        bin: &bin,
        model: &model,
        files: &files,
        ends: &ends,
    };
    println!(
        "e2e_latency: {} recordings, the real binary {}, model {}",
        files.len(),
        bin.display(),
        model.display()
    );
    let mut all: HashMap<bool, Figures> = HashMap::new();
    for push_to_talk in [true, false] {
        let mode = if push_to_talk {
            "push-to-talk (key up 100 ms after the last word)"
        } else {
            "hands-free"
        };
        let plain = run_plain(&setup, push_to_talk);
        report(&format!("{mode}, --plain"), &plain);
        let screen = run_screen(&setup, push_to_talk);
        report(&format!("{mode}, full screen"), &screen);
        let mut both = plain;
        both.extend(screen);
        report(&format!("{mode}, both"), &both);
        let moves = both
            .decisions
            .iter()
            .filter(|d| d.starts_with("Move"))
            .count();
        println!(
            "  decisions: {} ({} moves taken; each is one of the legal moves said, or a question)",
            both.decisions.len(),
            moves
        );
        all.insert(push_to_talk, both);
    }
    let line = |f: &Figures| {
        format!(
            "core {:.0} ms, printed {:.0} ms, spoken {:.0} ms",
            median(&f.core),
            median(&f.printed),
            median(&f.spoken)
        )
    };
    let (ptt, hf) = (&all[&true], &all[&false]);
    for (name, f) in [("push-to-talk", ptt), ("hands-free", hf)] {
        let (c, p, s) = (median(&f.core), median(&f.printed), median(&f.spoken));
        println!(
            "{name}: printed − core {:.1} ms (target ≤ 10: {}), spoken − core {:.1} ms (target ≤ 30: {})",
            p - c,
            if p - c <= 10.0 { "met" } else { "MISSED" },
            s - c,
            if s - c <= 30.0 { "met" } else { "MISSED" }
        );
    }
    println!("e2e: push-to-talk {}; hands-free {}", line(ptt), line(hf));
}
