//! Benchmark of the play screen:
//! 1. frame render time of the full screen (100×30 and 80×24) on ratatui's
//!    TestBackend, mid-game (target: median ≤ 1 ms);
//! 2. idle CPU of the real binary running in tmux for 10 s, from
//!    /proc/PID/stat utime+stime (target ≤ 1 %).
//!
//! Run: cargo run --release --example ui_bench [-- /path/to/annabella]
//! (default binary: target/release/annabella; build it first).

use std::process::Command;
use std::time::{Duration, Instant};

use annabella::ui::render::{Theme, ThemeKind, draw};
use annabella::ui::{App, Msg, Settings};
use annabella::vocab::Vocabulary;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn render_median(w: u16, h: u16, frames: usize) -> Duration {
    let vocab = Vocabulary::builtin("fide").expect("built-in locale");
    let (mut app, _) = App::new(vocab, Settings::default(), Duration::ZERO);
    for m in [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
    ] {
        app.update(Msg::Line(m.into()), Duration::ZERO);
        app.update(Msg::Line("press".into()), Duration::ZERO);
    }
    app.input = "what Eva vier".into();
    let theme = Theme::of(ThemeKind::Default);
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("test backend");
    let mut times = Vec::with_capacity(frames);
    for i in 0..frames {
        // A new tick each frame, so the clock text changes like in use.
        app.update(Msg::Tick, Duration::from_millis(i as u64 * 250));
        let t = Instant::now();
        term.draw(|f| draw(f, &app, &theme)).expect("draw");
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

fn cpu_ticks(pid: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the ")" of the command name: utime is field 14, stime 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

fn idle_cpu(bin: &str) -> Result<f64, String> {
    let name = format!("annabella-bench-{}", std::process::id());
    let st = Command::new("tmux")
        .args([
            "new-session",
            "-d",
            "-x",
            "100",
            "-y",
            "30",
            "-s",
            &name,
            bin,
        ])
        .args(["-l", "fide", "--silent"])
        .status()
        .map_err(|e| format!("tmux: {e}"))?;
    if !st.success() {
        return Err("tmux new-session failed".into());
    }
    std::thread::sleep(Duration::from_secs(1));
    let pid = Command::new("tmux")
        .args(["display", "-p", "-t", &name, "#{pane_pid}"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .map_err(|e| e.to_string())?;
    let result = (|| {
        let hz = 100.0; // USER_HZ on Linux
        let a = cpu_ticks(&pid).ok_or("cannot read /proc stat")?;
        let t = Instant::now();
        std::thread::sleep(Duration::from_secs(10));
        let b = cpu_ticks(&pid).ok_or("the program ended early")?;
        let secs = t.elapsed().as_secs_f64();
        Ok::<f64, String>((b - a) as f64 / hz / secs * 100.0)
    })();
    let _ = Command::new("tmux")
        .args(["kill-session", "-t", &name])
        .status();
    result
}

fn main() {
    for (w, h) in [(100, 30), (80, 24)] {
        let m = render_median(w, h, 2000);
        println!(
            "render {w}x{h}: median {:.1} µs per frame (target ≤ 1000 µs)",
            m.as_secs_f64() * 1e6
        );
    }
    let default_bin = concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/annabella");
    let bin = std::env::args()
        .nth(1)
        .unwrap_or_else(|| default_bin.to_owned());
    if !std::path::Path::new(&bin).exists() {
        println!("idle CPU: skipped, no binary at {bin} (cargo build --release first)");
        return;
    }
    match idle_cpu(&bin) {
        Ok(p) => println!("idle CPU over 10 s: {p:.2} % (target ≤ 1 %)"),
        Err(e) => println!("idle CPU: not measured ({e})"),
    }
}
