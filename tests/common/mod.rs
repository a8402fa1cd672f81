//! Helpers shared by the integration tests that run the real binary.
// Each test crate uses only some of these.
#![allow(dead_code)]

pub mod room;
pub mod screen;
pub mod tmux;

use annabella::locale::MsgKey;
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the real `annabella` with `args`, writes `input` to its standard
/// input, requires a successful exit and returns (stdout lines, stderr).
pub fn run_with_input(args: &[&str], input: &str) -> (Vec<String>, String) {
    // The play screen keeps a journal in the user's data folder: a fresh
    // one per run, so tests neither collide nor litter the real one.
    let data = tempfile::tempdir().expect("a temporary folder");
    let mut child = annabella(args, data.path())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("the binary reads its input");
    let out = child.wait_with_output().expect("the binary ends");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "exit {:?}: {stderr}", out.status);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    (stdout.lines().map(str::to_owned).collect(), stderr)
}

/// The real binary with `args`, its data and settings folders in `data`,
/// and every stream piped.
pub fn annabella(args: &[&str], data: &std::path::Path) -> Command {
    let mut c = Command::new(bin());
    c.args(args)
        .env("XDG_DATA_HOME", data)
        .env("XDG_CONFIG_HOME", data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Whether an end-to-end tool is there. When it is missing the test is
/// skipped with a reason naming it (see [`skip`]), except under
/// `ANNABELLA_REQUIRE_E2E=1` (as `make test` and CI run), where a missing
/// tool fails the test.
pub fn tool_present(present: bool, what: &str) -> bool {
    if present {
        return true;
    }
    skip(&format!("{what} is missing"));
    false
}

/// A test (or part of one) that cannot run here: under
/// `ANNABELLA_REQUIRE_E2E=1` a failure naming `why`; else the reason goes
/// straight to the terminal, next to the test's own "ok" line (the
/// harness captures what tests print), and to the captured output.
pub fn skip(why: &str) {
    assert!(
        std::env::var("ANNABELLA_REQUIRE_E2E").as_deref() != Ok("1"),
        "not run (ANNABELLA_REQUIRE_E2E=1): {why}"
    );
    let line = format!("skipped: {why}\n");
    println!("{line}");
    use std::os::fd::FromRawFd;
    // SAFETY: file descriptor 2 stays open for the whole process; the
    // File is never dropped, so it is never closed here.
    let mut terminal = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(2) });
    let _ = terminal.write_all(line.as_bytes());
}

/// Makes `home` (as `HOME` of a child) a place where ALSA, the sound
/// system the binary uses here, finds no sound card at all: no microphone
/// and no loudspeaker, on any machine.
pub fn no_sound_devices(home: &std::path::Path) {
    std::fs::write(
        home.join(".asoundrc"),
        "pcm.!default { type hw card 97 }\nctl.!default { type hw card 97 }\n",
    )
    .expect("an .asoundrc");
}

/// A message of the German locale. The default locale, fide, speaks German
/// (its messages come from de), so expected fide sentences are read there:
/// from the locale data, never from the output under test.
pub fn de(key: MsgKey, args: &[(&str, &str)]) -> String {
    annabella::locale::builtin("de")
        .expect("de locale")
        .message(key, args)
}

/// A message of the English locale (expected text from the locale data).
pub fn en(key: MsgKey, args: &[(&str, &str)]) -> String {
    annabella::locale::builtin("en")
        .expect("en locale")
        .message(key, args)
}

/// The real binary under test: this build's, or the one named by
/// `ANNABELLA_TEST_BIN` (to show that a test fails on an older build).
pub fn bin() -> &'static str {
    static BIN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BIN.get_or_init(|| {
        std::env::var("ANNABELLA_TEST_BIN")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_annabella").to_owned())
    })
}

/// The German message `key` up to the placeholder `{stop}`.
pub fn de_until(key: MsgKey, args: &[(&str, &str)], stop: &str) -> String {
    let text = de(key, args);
    let stop = format!("{{{stop}}}");
    text.split(&stop).next().unwrap_or_default().to_owned()
}

/// The German command word shown for `key` (its first spelling).
pub fn de_word(key: MsgKey) -> String {
    de(key, &[])
        .split('|')
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// `line` is the message text `template` with its `{placeholders}` filled
/// in somehow (a clock time, a transcript): the literal parts appear in
/// order, the first at the start and the last at the end.
pub fn fits(line: &str, template: &str) -> bool {
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        parts.push(&rest[..open]);
        rest = rest[open..].split_once('}').map_or("", |(_, r)| r);
    }
    parts.push(rest);
    let mut at = 0;
    for (i, p) in parts.iter().enumerate() {
        match line[at..].find(p) {
            Some(k) if i > 0 || k == 0 => at += k + p.len(),
            _ => return false,
        }
    }
    line.ends_with(parts.last().copied().unwrap_or_default())
}

/// How the voice tests play their recordings (`--wav-clock`): `fast`, on
/// the recordings' own timeline, unless env `ANNABELLA_TEST_WAV_CLOCK` says
/// `real` (to compare with real time: the same tests, paced by the wall
/// clock as before the timeline existed).
#[allow(dead_code)]
pub fn wav_clock() -> &'static str {
    match std::env::var("ANNABELLA_TEST_WAV_CLOCK").as_deref() {
        Ok("real") => "real",
        _ => "fast",
    }
}

/// The speech model folder for the voice end-to-end tests (env
/// ANNABELLA_TEST_MODEL), with espeak-ng and sox installed; `None` after
/// printing why the test skips (a failure under ANNABELLA_REQUIRE_E2E=1).
pub fn voice_prerequisites() -> Option<std::path::PathBuf> {
    let mut missing = Vec::new();
    for tool in ["espeak-ng", "sox"] {
        let ok = Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            missing.push(format!("{tool} is not installed"));
        }
    }
    let model = std::env::var_os("ANNABELLA_TEST_MODEL").map(std::path::PathBuf::from);
    match &model {
        None => missing.push("ANNABELLA_TEST_MODEL is not set".to_owned()),
        Some(p) if !p.join("am").is_dir() => {
            missing.push(format!("no Vosk model at {}", p.display()))
        }
        Some(_) => {}
    }
    if missing.is_empty() {
        return model;
    }
    let why = missing.join("; ");
    tool_present(false, &format!("{why} (run scripts/setup.sh test)"));
    None
}

/// Speaks `text` with espeak-ng's Korean voice (pitch 50 is espeak-ng's
/// default) into a 16 kHz mono WAV.
pub fn synthesize_ko(text: &str, speed: u32, pitch: u32, out: &std::path::Path) {
    let raw = out.with_extension("raw.wav");
    let ok = Command::new("espeak-ng")
        .args([
            "-v",
            "ko",
            "-s",
            &speed.to_string(),
            "-p",
            &pitch.to_string(),
            "-w",
        ])
        .arg(&raw)
        .arg(text)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "espeak-ng failed on {text}");
    sox(&[
        &raw.to_string_lossy(),
        "-r",
        "16000",
        "-c",
        "1",
        "-b",
        "16",
        &out.to_string_lossy(),
    ]);
    let _ = std::fs::remove_file(raw);
}

/// What a decision makes annabella do, without the words heard: two runs
/// of libvosk on the same audio are compared by this (their n-best lists
/// can differ on a busy machine).
pub fn action(d: &annabella::voice::decide::Decision) -> String {
    use annabella::voice::decide::Decision;
    let uci = |m: &shakmaty::Move| {
        shakmaty::uci::UciMove::from_move(*m, shakmaty::CastlingMode::Standard).to_string()
    };
    let list = |c: &[shakmaty::Move]| c.iter().map(uci).collect::<Vec<_>>().join(" ");
    match d {
        Decision::Move { mv, .. } => format!("move {}", uci(mv)),
        Decision::Ask { candidates, .. } => format!("ask {}", list(candidates)),
        Decision::DidYouMean { candidates, .. } => format!("did-you-mean {}", list(candidates)),
        Decision::Number { number, .. } => format!("number {number}"),
        Decision::Command { command, .. } => format!("command {command:?}"),
        Decision::NotUnderstood { heard } if heard.is_empty() => "nothing heard".to_owned(),
        Decision::NotUnderstood { .. } => "not understood".to_owned(),
    }
}

/// Runs sox and requires success.
pub fn sox(args: &[&str]) {
    let ok = Command::new("sox")
        .args(args)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "sox {args:?} failed");
}

/// Noise the Korean model hears as command words when nothing checks for a
/// voice (measured with examples/voice_noise.rs: "repeat", "moves",
/// "draw", "clock"): repeatable sox noise (`-R`), cut from a long stretch.
pub fn noise_heard_as_commands(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let specs: [(&str, &[&str]); 6] = [
        (
            "pink-repeat",
            &[
                "synth",
                "200",
                "pinknoise",
                "trim",
                "66",
                "1.0",
                "vol",
                "0.8",
            ],
        ),
        (
            "pink-repeat2",
            &[
                "synth",
                "200",
                "pinknoise",
                "trim",
                "78",
                "0.6",
                "vol",
                "1.0",
            ],
        ),
        (
            "pink-moves",
            &[
                "synth",
                "200",
                "pinknoise",
                "trim",
                "36",
                "1.0",
                "vol",
                "0.3",
            ],
        ),
        (
            "brown-draw",
            &[
                "synth",
                "200",
                "brownnoise",
                "trim",
                "69",
                "1.5",
                "vol",
                "0.8",
            ],
        ),
        (
            "brown-draw2",
            &[
                "synth",
                "200",
                "brownnoise",
                "trim",
                "127",
                "2.5",
                "vol",
                "1.0",
            ],
        ),
        (
            "white-clock",
            &[
                "synth",
                "2",
                "whitenoise",
                "tremolo",
                "4",
                "90",
                "vol",
                "0.6",
            ],
        ),
    ];
    specs
        .iter()
        .map(|(name, effects)| {
            let p = dir.join(format!("{name}.wav"));
            let out = p.to_string_lossy().into_owned();
            let mut args = vec!["-R", "-n", "-r", "16000", "-c", "1", "-b", "16", &out];
            args.extend_from_slice(effects);
            sox(&args);
            p
        })
        .collect()
}

/// Sustained tones and chords the Korean model hears as words when nothing
/// checks for a voice, and the old voicing check (enough voiced frames)
/// let through: they are periodic in the pitch range. Start position,
/// whole files, measured with `annabella listen` and ANNABELLA_VOICING=off:
/// a square tone at 110 Hz -> command "no", a sawtooth at 220 Hz -> "yes",
/// a triangle at 250 Hz -> "help", a sawtooth at 150 Hz and sawtooth
/// chords (C major, A minor) -> questions about moves. sox, repeatable.
pub fn tones_heard_as_words(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let tones: [(&str, &str, &[&str]); 6] = [
        ("square-110", "1.2", &["square", "110"]),
        ("sawtooth-220", "1.5", &["sawtooth", "220"]),
        ("triangle-250", "1.2", &["triangle", "250"]),
        ("sawtooth-150", "1.2", &["sawtooth", "150"]),
        (
            "sawtooth-chord-cmaj",
            "1.2",
            &["sawtooth", "261.6", "sawtooth", "329.6", "sawtooth", "392"],
        ),
        (
            "sawtooth-chord-amin",
            "1.2",
            &["sawtooth", "220", "sawtooth", "261.6", "sawtooth", "329.6"],
        ),
    ];
    tones
        .iter()
        .map(|(name, secs, synth)| {
            // One channel per tone, then mixed down to one.
            let channels = (synth.len() / 2).to_string();
            let multi = dir.join(format!("{name}.multi.wav"));
            let multi = multi.to_string_lossy().into_owned();
            let mut args = vec![
                "-R", "-n", "-r", "16000", "-c", &channels, "-b", "16", &multi,
            ];
            args.extend_from_slice(&["synth", secs]);
            args.extend_from_slice(synth);
            sox(&args);
            let p = dir.join(format!("{name}.wav"));
            let out = p.to_string_lossy().into_owned();
            sox(&[
                &multi, "-c", "1", &out, "remix", "-", "fade", "0.02", "0", "0.02", "vol", "0.5",
                "pad", "0.3", "0.3",
            ]);
            let _ = std::fs::remove_file(&multi);
            p
        })
        .collect()
}

/// Runs `cmd` with `input` on its standard input and returns its output;
/// fails the test (after killing it) if it has not ended within
/// `deadline`: a hang fails instead of stalling the suite.
pub fn run_until(
    cmd: &mut Command,
    input: &str,
    deadline: std::time::Duration,
) -> std::process::Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_owned();
    // A program that does not read its input must not block the test.
    let writer = std::thread::spawn(move || {
        let mut stdin = stdin;
        let _ = stdin.write_all(input.as_bytes());
    });
    let start = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "still running after {deadline:?}: {cmd:?}\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = writer.join();
    child.wait_with_output().expect("output")
}
