//! Speech output never hangs the program (issue 13), with the real binary
//! and a speech-dispatcher stand-in on a Unix socket (SPEECHD_ADDRESS):
//!
//! - a daemon that accepts the connection and never answers (on main
//!   `say --speak` waited for ever),
//! - one that answers everything but `SPEAK` (on main: for ever),
//! - one that takes speech but never begins it (what speech-dispatcher
//!   does headless with its default setup; on main speech just went off),
//! - and an espeak-ng that never finishes (ANNABELLA_ESPEAK),
//!
//! each give one line in the user's language within a time limit, and
//! speech falls back to espeak-ng, then to text.

mod common;

use annabella::locale::MsgKey;
use common::{bin, en};

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// How the stand-in answers.
#[derive(Clone, Copy, PartialEq)]
enum Daemon {
    /// Accepts, never answers.
    Mute,
    /// Answers everything but SPEAK.
    NoSpeak,
    /// Takes speech, never begins it.
    NeverBegins,
}

/// Serves the SSIP protocol (as far as the client uses it) on `path`.
fn stand_in(path: &Path, how: Daemon) {
    let listener = UnixListener::bind(path).expect("bind");
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut out = conn.try_clone().expect("clone");
                let mut lines = BufReader::new(conn);
                let mut line = String::new();
                while lines.read_line(&mut line).is_ok_and(|n| n > 0) {
                    let cmd = line.trim().to_ascii_uppercase();
                    line.clear();
                    let reply: &[u8] = match how {
                        Daemon::Mute => continue,
                        Daemon::NoSpeak if cmd.starts_with("SPEAK") => continue,
                        _ if cmd.starts_with("SPEAK") => {
                            let _ = out.write_all(b"230 OK RECEIVING DATA\r\n");
                            // The text ends with a line holding a dot.
                            let mut text = String::new();
                            while lines.read_line(&mut text).is_ok_and(|n| n > 0) {
                                if text.trim() == "." {
                                    break;
                                }
                                text.clear();
                            }
                            b"225-1\r\n225 OK MESSAGE QUEUED\r\n"
                        }
                        _ if cmd.starts_with("QUIT") => b"231 HAPPY HACKING\r\n",
                        _ => b"200 OK\r\n",
                    };
                    if out.write_all(reply).is_err() {
                        return;
                    }
                }
            });
        }
    });
}

/// `say --speak` in English with the stand-in; returns stderr lines.
fn say(daemon: Option<Daemon>, espeak: Option<&Path>) -> Vec<String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let socket = dir.path().join("speechd.sock");
    if let Some(how) = daemon {
        stand_in(&socket, how);
    }
    let mut cmd = Command::new(bin());
    cmd.args(["say", "--speak", "--locale", "en", "hello"])
        // The session's own language: no voice to choose.
        .env("LANG", "en_US.UTF-8")
        .env("LC_ALL", "en_US.UTF-8")
        .env(
            "SPEECHD_ADDRESS",
            format!("unix_socket:{}", socket.display()),
        );
    if let Some(p) = espeak {
        cmd.env("ANNABELLA_ESPEAK", p);
    }
    let out = common::run_until(&mut cmd, "", Duration::from_secs(40));
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(str::to_owned)
        .collect()
}

fn no_daemon(reason: &str) -> String {
    en(MsgKey::SpeechNoDaemon, &[("error", reason)])
}

#[test]
fn a_daemon_that_never_answers_is_given_up_after_ten_seconds() {
    let lines = say(Some(Daemon::Mute), None);
    let reason = en(MsgKey::SpeechNoAnswer, &[("seconds", "10")]);
    assert_eq!(lines.first(), Some(&no_daemon(&reason)), "{lines:#?}");
}

#[test]
fn a_daemon_that_never_answers_speak_is_given_up_after_two_seconds() {
    let lines = say(Some(Daemon::NoSpeak), None);
    let reason = en(MsgKey::SpeechNoAnswer, &[("seconds", "2")]);
    assert_eq!(lines.first(), Some(&no_daemon(&reason)), "{lines:#?}");
}

#[test]
fn a_daemon_that_never_speaks_falls_back_to_espeak() {
    let lines = say(Some(Daemon::NeverBegins), None);
    let reason = en(MsgKey::SpeechSilent, &[]);
    assert_eq!(lines.first(), Some(&no_daemon(&reason)), "{lines:#?}");
}

#[test]
fn an_espeak_that_never_finishes_is_stopped() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Answers the probe (an empty text), then hangs on real speech.
    let fake = dir.path().join("espeak-ng");
    std::fs::write(
        &fake,
        "#!/bin/sh\nfor a; do last=$a; done\n[ -z \"$last\" ] && exit 0\nexec sleep 600\n",
    )
    .expect("write");
    let mut perm = std::fs::metadata(&fake).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&fake, perm).expect("chmod");
    // No daemon at all: espeak-ng from the start.
    let lines = say(None, Some(&fake));
    // "hello": 5 characters, 250 ms each, and 5 s.
    let stuck = en(
        MsgKey::SpeechStuck,
        &[("engine", "espeak-ng"), ("seconds", "6")],
    );
    let failed = en(MsgKey::SpeechFailed, &[("error", &stuck)]);
    assert!(lines.contains(&failed), "{lines:#?}");
}
