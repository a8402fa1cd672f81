//! Start-up and settings never wait for speech (issue 23), on the full
//! screen in tmux with the real binary and speech on, as a new user starts
//! it: a fresh home, so speech-dispatcher has to be started first (and, in
//! a session whose language is not the game's, asked for its voices: some
//! seconds on a headless machine). The speaker opens in the background;
//! the board is shown at once and what is to be said waits for it.
//!
//! Changing the rate reopens speech: with a daemon that never answers (a
//! stand-in on a Unix socket), typing goes on meanwhile.
//!
//! The clock starts with the first frame: that frame shows the full time.
//! It is read from what the program wrote to the terminal (tmux's
//! pipe-pane), not from a later look at the screen.
//!
//! Skips (with a printed reason) when tmux is missing, unless
//! ANNABELLA_REQUIRE_E2E=1.

mod common;

use common::tmux::{Session, tmux_available};

use std::path::Path;
use std::time::{Duration, Instant};

use annabella::locale::MsgKey;
use annabella::ui::command::{Cmd, CommandWords};

/// The start of a shell line running the binary in `home`: a new user's
/// environment (no speech-dispatcher of his own yet), a session language
/// other than the game's (fide speaks German).
fn fresh(home: &Path) -> String {
    let d = home.display();
    format!(
        "env -u XDG_RUNTIME_DIR -u XDG_CACHE_HOME -u SPEECHD_ADDRESS HOME={d} \
         XDG_DATA_HOME={d} XDG_CONFIG_HOME={d} LANG=C.UTF-8 LC_ALL=C.UTF-8 LC_MESSAGES= {} \
         --journal {d}/game.jsonl",
        env!("CARGO_BIN_EXE_annabella")
    )
}

/// Waits until the screen shows `text`, at most `limit`; returns how long
/// it took and the screen.
fn shown_within(s: &Session, text: &str, limit: Duration) -> (Duration, String) {
    let start = Instant::now();
    loop {
        let screen = s.screen();
        if screen.contains(text) {
            return (start.elapsed(), screen);
        }
        assert!(
            start.elapsed() < limit,
            "waited {limit:?} for {text:?}; screen:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The first clock reading (`h:mm:ss`) in what the program wrote.
fn first_reading(raw: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(raw);
    let b = text.as_bytes();
    (0..b.len().saturating_sub(6)).find_map(|i| {
        let w = &b[i..i + 7];
        let digit = |c: u8| c.is_ascii_digit();
        (digit(w[0])
            && w[1] == b':'
            && digit(w[2])
            && digit(w[3])
            && w[4] == b':'
            && digit(w[5])
            && digit(w[6]))
        .then(|| String::from_utf8_lossy(w).into_owned())
    })
}

/// A speech-dispatcher stand-in on `path` that accepts connections and
/// never answers.
fn mute_daemon(path: &Path) {
    let listener = std::os::unix::net::UnixListener::bind(path).expect("bind");
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for conn in listener.incoming().flatten() {
            held.push(conn);
        }
    });
}

fn word(cmd: Cmd) -> String {
    let de = annabella::locale::builtin("fide").expect("fide locale");
    CommandWords::new(&de).shown(cmd).to_owned()
}

fn quit(s: &Session) {
    let yes = annabella::locale::builtin("de")
        .expect("de")
        .message(MsgKey::UiCmdYes, &[]);
    s.keys(&word(Cmd::Quit));
    s.keys(yes.split('|').next().unwrap_or("ja"));
    s.wait_for("EXITED");
}

#[test]
fn the_board_is_shown_within_a_second_with_speech_on_and_the_clock_reads_the_full_time() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let raw = dir.path().join("screen.raw");
    let s = Session::start("startup");
    s.record(&raw);
    let moves = annabella::locale::builtin("de")
        .expect("de")
        .message(MsgKey::UiLabelMoves, &[]);
    s.keys(&format!("{}; echo EXITED $?", fresh(dir.path())));
    let (took, screen) = shown_within(&s, &moves, Duration::from_secs(30));
    assert!(
        took < Duration::from_secs(1),
        "the board came after {took:?}:\n{screen}"
    );
    // tmux hands the output to the recording a moment later.
    let start = Instant::now();
    let reading = loop {
        let written = std::fs::read(&raw).unwrap_or_default();
        if let Some(r) = first_reading(&written) {
            break r;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "nothing recorded"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(
        reading, "1:30:00",
        "the first frame shows the full time of 90m/40+30m+30s"
    );
    quit(&s);
}

#[test]
fn changing_the_speech_rate_never_blocks_typing() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let socket = dir.path().join("speechd.sock");
    mute_daemon(&socket);
    let s = Session::start("settings-rate");
    let moves = annabella::locale::builtin("de")
        .expect("de")
        .message(MsgKey::UiLabelMoves, &[]);
    // espeak-ng, the fallback, "plays" without a sound card (`true`), so
    // that speech stays on and is reopened.
    s.keys(&format!(
        "ANNABELLA_ESPEAK=true SPEECHD_ADDRESS=unix_socket:{} {}; echo EXITED $?",
        socket.display(),
        fresh(dir.path()).replace("-u SPEECHD_ADDRESS ", "")
    ));
    shown_within(&s, &moves, Duration::from_secs(30));
    // Speech reopens with the new rate (the daemon does not answer, at
    // most ten seconds); what is typed meanwhile shows at once.
    s.keys(&format!("{} rate 20", word(Cmd::Settings)));
    s.type_text("Sf3");
    let (took, screen) = shown_within(&s, "> Sf3", Duration::from_secs(30));
    assert!(
        took < Duration::from_secs(1),
        "typing showed after {took:?}:\n{screen}"
    );
    s.key("C-u");
    quit(&s);
}
