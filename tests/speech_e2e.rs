//! End-to-end tests of the talking clock and speech output with the real
//! parts: espeak-ng rendering audio for every locale it speaks, and the
//! real `annabella` binary driven through standard input.
//!
//! Tests that need espeak-ng skip with a printed reason when it is missing,
//! and fail instead when ANNABELLA_REQUIRE_E2E=1 (as `make test` sets).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use annabella::clock::talk::{Announcement, Phrasebook, Verbosity};
use annabella::clock::{Adjustment, Clock};
use annabella::locale::MsgKey;
use annabella::speech::espeak::{EspeakNg, WavFileSpeaker, loudness};
use annabella::speech::{Priority, Speaker, Voice};
use shakmaty::Color;

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_annabella");

/// `true` when the test may run; prints why not, or panics when the
/// end-to-end tests are required.
fn have_espeak() -> bool {
    let ok = Command::new("espeak-ng")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        let why = "espeak-ng is not installed (apt-get install espeak-ng)";
        common::skip(why);
    }
    ok
}

/// Reads a WAV written by annabella: checks the format, returns samples.
fn read_wav(path: &Path) -> Vec<i16> {
    let mut r = hound::WavReader::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let spec = r.spec();
    assert_eq!(spec.sample_rate, 16_000, "{}", path.display());
    assert_eq!(spec.channels, 1);
    assert_eq!(spec.bits_per_sample, 16);
    r.samples::<i16>().map(|s| s.unwrap()).collect()
}

/// Audible: RMS and peak well above silence (16-bit full scale 32767).
fn assert_audible(samples: &[i16], what: &str) {
    let (rms, peak) = loudness(samples);
    assert!(rms > 300.0, "{what}: RMS {rms:.0} is near silence");
    assert!(peak > 3000, "{what}: peak {peak} is near silence");
}

fn seconds(samples: &[i16]) -> f64 {
    samples.len() as f64 / 16_000.0
}

const LOCALES: [&str; 7] = ["fide", "de", "en", "pl", "he", "ar", "el"];

#[test]
fn announcements_are_audible_in_every_locale() {
    if !have_espeak() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for code in LOCALES {
        let book = Phrasebook::builtin(code).unwrap();
        let (engine, missing) = EspeakNg::probe(&Voice {
            language: book.language().to_owned(),
            ..Voice::default()
        })
        .unwrap();
        assert_eq!(missing, None, "espeak-ng has a voice for {code}");
        let mut c = Clock::new("90m/40+30m+30s".parse().unwrap());
        let t0 = Duration::from_secs(1);
        c.start(t0, Color::White).unwrap();
        c.press(t0 + Duration::from_secs(65)).unwrap();
        let now = t0 + Duration::from_secs(80);
        let w = c.reading(Color::White, now);
        let b = c.reading(Color::Black, now);
        let short = book.announcement(
            &Announcement::Countdown {
                color: Color::White,
                seconds: 7,
            },
            Verbosity::Brief,
        );
        let utterances = [
            book.times(&w, &b, Verbosity::Full),
            book.moves(&w),
            book.announcement(
                &Announcement::Adjusted {
                    color: Color::Black,
                    adjustment: Adjustment::Add(Duration::from_secs(120)),
                },
                Verbosity::Brief,
            ),
            book.announcement(
                &Announcement::FlagFell {
                    color: Color::Black,
                },
                Verbosity::Brief,
            ),
        ];
        // Each alone, in one file per utterance.
        let mut lengths = Vec::new();
        for (i, u) in std::iter::once(&short).chain(&utterances).enumerate() {
            let path = dir.path().join(format!("{code}-{i}.wav"));
            let mut file = WavFileSpeaker::create(engine.clone(), &path).unwrap();
            file.speak(u, Priority::Request).unwrap();
            file.finish().unwrap();
            let samples = read_wav(&path);
            let what = format!("{code}: {}", u.spoken);
            assert_audible(&samples, &what);
            let secs = seconds(&samples);
            // Plausible speech: about 5 to 40 characters a second.
            let chars = u.spoken.chars().count() as f64;
            assert!(
                secs > 0.2 && secs > chars / 40.0 && secs < chars / 5.0 + 1.5,
                "{what}: {secs:.2} s for {chars} characters"
            );
            lengths.push(secs);
        }
        // The countdown's single number is much shorter than the times.
        assert!(lengths[0] * 2.0 < lengths[1], "{code}: {lengths:?}");
    }
}

#[test]
fn a_session_file_holds_every_utterance_with_gaps() {
    if !have_espeak() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (engine, _) = EspeakNg::probe(&Voice {
        language: "de".into(),
        ..Voice::default()
    })
    .unwrap();
    let one = dir.path().join("one.wav");
    let mut f = WavFileSpeaker::create(engine.clone(), &one).unwrap();
    let u = annabella::vocab::Utterance::plain("Weiß am Zug.");
    f.speak(&u, Priority::Move).unwrap();
    f.finish().unwrap();
    let single = read_wav(&one).len();

    let three = dir.path().join("three.wav");
    let mut f = WavFileSpeaker::create(engine, &three).unwrap();
    for _ in 0..3 {
        f.speak(&u, Priority::Move).unwrap();
        // Valid after every utterance: a crash loses nothing said.
        let now = read_wav(&three).len() as u64;
        assert_eq!(now, f.samples());
    }
    drop(f);
    let all = read_wav(&three);
    // Three times the speech plus two gaps of 0.3 s.
    assert_eq!(all.len(), 3 * single + 2 * 4800);
    let gap = &all[single..single + 4800];
    assert!(gap.iter().all(|s| *s == 0));
}

#[test]
fn say_renders_moves_to_a_wav_file() {
    if !have_espeak() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("moves.wav");
    let out = Command::new(BIN)
        .args(["say", "--locale", "fide", "--speak-to"])
        .arg(&path)
        .args(["--move", "e4", "e5", "Nf3"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines, ["Eva vier", "Eva fuenf", "Springer Felix drei"]);
    let samples = read_wav(&path);
    assert_audible(&samples, "say --move");
    assert!(seconds(&samples) > 1.5, "{} s", seconds(&samples));

    // A folder that does not exist: one clear line, exit 1.
    let bad = dir.path().join("missing").join("x.wav");
    let out = Command::new(BIN)
        .args(["say", "--locale", "en", "--speak-to"])
        .arg(&bad)
        .arg("hello")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("Cannot write the audio file"), "{err}");
}

/// Runs `annabella clock` with `script` on standard input.
fn clock_session(args: &[&str], script: &str) -> (Vec<String>, String) {
    let mut all = vec!["clock"];
    all.extend_from_slice(args);
    common::run_with_input(&all, script)
}

/// "White: 5:02." → seconds.
fn clock_seconds(text: &str) -> u64 {
    let t = text.trim_end_matches('.');
    let (m, s) = t
        .split_once(':')
        .unwrap_or_else(|| panic!("not a time: {text}"));
    m.parse::<u64>().unwrap() * 60 + s.parse::<u64>().unwrap()
}

#[test]
fn clock_plain_session_through_stdin() {
    let script = "time\npress\nmoves\npress white\npress white\nhelp\nbogus\npause\npress\nresume\ntime black\nmoves\nquit\n";
    let (lines, err) = clock_session(&["--control", "5m+3s", "--locale", "en", "--plain"], script);
    assert_eq!(err, "", "no speech, no notices in --plain");
    // The help: the commands, then the arbiter's Guideline III increment
    // (from the locale data).
    let en = annabella::locale::builtin("en").expect("en");
    let help = format!(
        "{} {}",
        en.message(MsgKey::ClockHelpCommands, &[]),
        en.message(MsgKey::ClockHelpIncrement, &[])
    );
    let help = help.as_str();
    let fixed: Vec<Option<&str>> = vec![
        Some("Time control 5m+3s."),
        Some(help),
        Some("White: 5:00. Black: 5:00."),
        Some("Clock started: White to move."),
        Some("White: 0 moves completed. Black: 0 moves completed."),
        Some("Black to move."),
        Some("White is not to move: that press is ignored."),
        Some(help),
        Some("Unknown command 'bogus'. Type help for the list of commands."),
        Some("Clock paused with Black to move. Resume it to go on."),
        Some("The clock is paused: resume it first (p, or the command resume)."),
        Some("Clock running again: Black to move."),
        None, // Black: 4:59. (or 5:00 on a fast machine: time since the press)
        Some("White: 1 move completed. Black: 0 moves completed."),
        Some("Clock stopped."),
        None, // White: 5:02. Black: 4:59.
        Some("White: 1 move completed. Black: 0 moves completed."),
    ];
    assert_eq!(lines.len(), fixed.len(), "{lines:#?}");
    for (i, (got, want)) in lines.iter().zip(&fixed).enumerate() {
        if let Some(want) = want {
            assert_eq!(got, want, "line {i}");
        }
    }
    // Black's clock ran for a moment only.
    let black = lines[12].strip_prefix("Black: ").unwrap();
    assert!((295..=300).contains(&clock_seconds(black)), "{}", lines[12]);
    // White: 5 minutes, minus the thinking time, plus the 3 s increment.
    let (w, b) = lines[15].split_once(" Black: ").unwrap();
    let w = clock_seconds(w.strip_prefix("White: ").unwrap());
    assert!((298..=302).contains(&w), "{}", lines[15]);
    assert!((295..=299).contains(&clock_seconds(b)), "{}", lines[15]);
}

#[test]
fn clock_counts_down_and_announces_the_flag_in_real_time() {
    let mut child = Command::new(BIN)
        .args(["clock", "--control", "3s", "--locale", "de", "--plain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "press").unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let start = Instant::now();
    // Every line with the moment it arrived.
    let mut lines: Vec<(String, Duration)> = Vec::new();
    let mut line = String::new();
    while start.elapsed() < Duration::from_secs(30) {
        line.clear();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        lines.push((line.trim_end().to_owned(), start.elapsed()));
        if line.contains("Fahne") {
            break;
        }
    }
    let flag_after = start.elapsed();
    writeln!(stdin, "press").unwrap();
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    for l in reader.lines() {
        lines.push((l.unwrap(), start.elapsed()));
    }
    assert!(child.wait().unwrap().success());
    let pos = |want: &str| lines.iter().position(|(l, _)| l == want);
    let text: Vec<&String> = lines.iter().map(|(l, _)| l).collect();
    let started =
        pos("Uhr gestartet: Weiß am Zug.").unwrap_or_else(|| panic!("no start in {text:#?}"));
    let flag = pos("Die Fahne von Weiß ist gefallen: Die Zeit von Weiß ist abgelaufen.")
        .unwrap_or_else(|| panic!("no flag in {text:#?}"));
    let started_at = lines[started].1;
    // The countdown: each number said once, in order, between the start
    // and the flag, never before its second has come (n seconds left:
    // 3 - n seconds after the start, which is not before the press was
    // written).
    let mut last = started;
    for n in [2u64, 1] {
        match pos(&format!("Weiß: {n}")) {
            Some(i) => {
                assert!(last < i && i < flag, "'Weiß: {n}' out of order: {text:#?}");
                assert!(
                    lines[i].1 >= Duration::from_secs(3 - n),
                    "'Weiß: {n}' at {:?}, before its second: {lines:#?}",
                    lines[i].1
                );
                last = i;
            }
            None => {
                // The talking clock says a missed number only if it is
                // still the reading (a late look says the current one,
                // never a stale one): a number may be missing only when
                // nothing at all was printed during its whole second and
                // well after (300 ms: a number never said, the next one on
                // time, is a failure), the program having stalled (a
                // loaded machine).
                let due = started_at + Duration::from_secs(3 - n);
                let next = lines[last + 1..]
                    .iter()
                    .map(|(_, at)| *at)
                    .find(|at| *at >= due)
                    .unwrap_or(flag_after);
                assert!(
                    next >= due + Duration::from_millis(1300),
                    "'Weiß: {n}' was not said, though the program printed at {next:?} \
                     (its second began {due:?} after the start): {lines:#?}"
                );
                println!("'Weiß: {n}' missed: the program stalled from {due:?} to {next:?}");
            }
        }
    }
    // The flag fell about 3 s after the start, not much later.
    assert!(flag_after >= Duration::from_millis(2900), "{flag_after:?}");
    assert!(flag_after < Duration::from_secs(10), "{flag_after:?}");
    // A press after the flag fall is refused with the same words.
    assert!(
        lines[flag + 1..]
            .iter()
            .any(|(l, _)| l.starts_with("Die Fahne von Weiß")),
        "{text:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|(l, _)| l == "Weiß: 0:00.0. Schwarz: 0:03.0."),
        "{text:#?}"
    );
}

#[test]
fn clock_rejects_a_bad_time_control_in_one_line() {
    let out = Command::new(BIN)
        .args(["clock", "--control", "5x", "--locale", "en", "--plain"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("Cannot read the time control '5x'"),
        "{err}"
    );
    assert!(err.contains("h, m, s or ms"), "says what to write: {err}");
}

#[test]
fn clock_speaks_to_a_file_while_printing() {
    if !have_espeak() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clock.wav");
    let p = path.to_str().unwrap();
    let (lines, _) = clock_session(
        &["--control", "5m", "--locale", "pl", "--speak-to", p],
        "press\ntime\nquit\n",
    );
    assert!(
        lines.iter().any(|l| l == "Zegar uruchomiony. Ruch: Białe."),
        "{lines:#?}"
    );
    let samples = read_wav(&path);
    assert_audible(&samples, "clock --speak-to");
    // Several announcements: well over two seconds of speech.
    assert!(seconds(&samples) > 3.0, "{} s", seconds(&samples));
}

/// A private speech-dispatcher set-up: a copy of the system configuration
/// with ALSA's null device, so the daemon runs headless and reports the
/// end of each utterance. `None` (after printing why) when the daemon is
/// not installed.
fn private_dispatcher() -> Option<tempfile::TempDir> {
    let installed = Path::new("/etc/speech-dispatcher/speechd.conf").exists()
        && Command::new("speech-dispatcher")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
    if !installed {
        let why = "speech-dispatcher is not installed (apt-get install speech-dispatcher speech-dispatcher-espeak-ng)";
        common::skip(why);
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config").join("speech-dispatcher");
    std::fs::create_dir_all(&config).unwrap();
    let status = Command::new("cp")
        .arg("-r")
        .arg("/etc/speech-dispatcher/.")
        .arg(&config)
        .status()
        .unwrap();
    assert!(status.success());
    let conf = config.join("speechd.conf");
    let mut text = std::fs::read_to_string(&conf).unwrap();
    text.push_str("\nAudioOutputMethod \"alsa\"\nAudioALSADevice \"null\"\n");
    std::fs::write(&conf, text).unwrap();
    let run = dir.path().join("run");
    std::fs::create_dir_all(&run).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o700)).unwrap();
    Some(dir)
}

/// Stops the private daemon (by the process id it wrote).
fn stop_private_dispatcher(dir: &Path) {
    let pid_file = dir.join("run").join("speech-dispatcher").join("pid");
    if let Ok(pid) = std::fs::read_to_string(pid_file) {
        let pid = pid.trim();
        if !pid.is_empty() && pid.chars().all(|c| c.is_ascii_digit()) {
            let _ = Command::new("kill").arg(pid).status();
        }
    }
}

#[test]
fn speech_dispatcher_speaks_headless_with_a_private_daemon() {
    let Some(dir) = private_dispatcher() else {
        return;
    };
    // English in the C locale: the user's voice is kept. German: a German
    // voice is chosen from the daemon's list. (LANG stays C: the daemon
    // does not start with a locale that is not installed.)
    for (code, text) in [("en", "White to move."), ("de", "Weiß am Zug.")] {
        let out = Command::new(BIN)
            .args(["say", "--speak", "--locale", code, text])
            .env("XDG_CONFIG_HOME", dir.path().join("config"))
            .env("XDG_RUNTIME_DIR", dir.path().join("run"))
            .env("LANG", "C.UTF-8")
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env_remove("SPEECHD_ADDRESS")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{code}: {err}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{text}\n"));
        // No fallback notice: speech-dispatcher took the utterance.
        assert_eq!(err, "", "{code}: speech-dispatcher was not used");
    }
    assert!(
        dir.path().join("run").join("speech-dispatcher").exists(),
        "the private daemon was started"
    );
    stop_private_dispatcher(dir.path());
}

#[test]
fn a_missing_speech_daemon_is_reported_once_and_espeak_ng_takes_over() {
    if !have_espeak() {
        return;
    }
    let out = Command::new(BIN)
        .args(["say", "--speak", "--locale", "en", "White to move."])
        .env(
            "SPEECHD_ADDRESS",
            "unix_socket:/nonexistent/annabella/speechd.sock",
        )
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "White to move.\n");
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].starts_with("Speech-dispatcher is not available")
            && lines[0].contains("espeak-ng instead"),
        "{err}"
    );
    // Headless (no sound card), espeak-ng cannot play either: said once
    // more, in one line, and nothing of ALSA's own messages shows.
    match lines.get(1) {
        None => {}
        Some(l) => {
            assert!(l.starts_with("Speech output failed"), "{err}");
            assert!(l.contains("audio device"), "{err}");
            assert_eq!(lines.len(), 2, "{err}");
        }
    }
    assert!(!err.contains("ALSA lib"), "{err}");
}

fn have_tmux() -> bool {
    let ok = Command::new("tmux")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        let why = "tmux is not installed (apt-get install tmux)";
        common::skip(why);
    }
    ok
}

/// The real binary in a terminal (tmux on a private socket), driven by
/// single keys.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket]);
        c
    }

    fn screen(&self) -> String {
        let out = self
            .cmd()
            .args(["capture-pane", "-p", "-J", "-S", "-200", "-t", "clock"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let status = self
            .cmd()
            .args(["send-keys", "-t", "clock"])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits until the screen shows `want` `times` times.
    fn wait_for(&self, want: &str, times: usize) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.matches(want).count() >= times {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{want:?} not shown {times} times; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").status();
    }
}

#[test]
fn clock_keys_in_a_terminal() {
    if !have_espeak() || !have_tmux() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("keys.wav");
    let tmux = Tmux {
        socket: format!("annabella-clock-test-{}", std::process::id()),
    };
    // The shell keeps the pane open after annabella ends, to read it.
    let run = format!(
        "{BIN} clock --control 5m --locale en --every off --speak-to {}; echo EXIT=$?; sleep 30",
        wav.display()
    );
    let status = tmux
        .cmd()
        .args([
            "new-session",
            "-d",
            "-s",
            "clock",
            "-x",
            "250",
            "-y",
            "50",
            &run,
        ])
        .status()
        .unwrap();
    assert!(status.success());
    tmux.wait_for(
        "Keys: a for the left player's clock (White), l for the right player's (Black)",
        1,
    );
    tmux.keys(&["Space"]);
    tmux.wait_for("Clock started: White to move.", 1);
    tmux.keys(&["a"]);
    tmux.wait_for("Black to move.", 1);
    tmux.keys(&["a"]);
    tmux.wait_for("White is not to move: that press is ignored.", 1);
    tmux.keys(&["l"]);
    tmux.wait_for("White to move.", 2);
    tmux.keys(&["m"]);
    tmux.wait_for("White: 1 move completed. Black: 1 move completed.", 1);
    tmux.keys(&["t"]);
    tmux.wait_for("White: 4:5", 1);
    tmux.keys(&["p"]);
    tmux.wait_for("Clock paused with White to move.", 1);
    tmux.keys(&["p"]);
    tmux.wait_for("Clock running again: White to move.", 1);
    tmux.keys(&["q"]);
    tmux.wait_for("Quit the clock? Press y to quit", 1);
    tmux.keys(&["n"]);
    tmux.wait_for("Not quitting: the clock goes on.", 1);
    tmux.keys(&["q"]);
    tmux.wait_for("Quit the clock? Press y to quit", 2);
    tmux.keys(&["y"]);
    let screen = tmux.wait_for("EXIT=", 1);
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(screen.contains("Clock stopped."), "{screen}");
    // Each announcement on its own line, starting at the left edge (raw
    // mode must not leave lines staircased).
    for line in ["Black to move.", "Clock stopped."] {
        assert!(
            screen.lines().any(|l| l == line),
            "{line:?} not a line of its own:\n{screen}"
        );
    }
    let samples = read_wav(&wav);
    assert_audible(&samples, "clock keys");
}

#[test]
fn clock_turn_and_arbiter_time_changes() {
    let script = "turn\npress\nturn\nadd black 2m\ntake white 1h\ntake white 30s\nquit\n";
    let (lines, _) = clock_session(
        &[
            "--control",
            "5m",
            "--locale",
            "en",
            "--plain",
            "--every",
            "off",
        ],
        script,
    );
    let after_help = &lines[2..];
    assert_eq!(
        after_help[0],
        "The clock has not been started yet: press it (space) to start it for White."
    );
    assert_eq!(after_help[1], "Clock started: White to move.");
    assert_eq!(after_help[2], "White to move.");
    assert_eq!(after_help[3], "Black receives 2 minutes.");
    assert_eq!(after_help[4], "Black: 7:00.");
    assert!(
        after_help[5].starts_with("Cannot take 1 hour from White: only 4 minutes 5")
            && after_help[5].ends_with("left. Take less, or at most what is left."),
        "{}",
        after_help[5]
    );
    assert_eq!(after_help[6], "30 seconds taken from White.");
    assert!(after_help[7].starts_with("White: 4:2"), "{}", after_help[7]);
}
