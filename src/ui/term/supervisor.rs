//! A restoring parent for the full screen: the program runs itself again
//! as a child and waits for it. Whatever ends the child — a normal quit,
//! or a crash no handler can catch (abort, stack overflow, SIGSEGV,
//! SIGKILL) — the parent then puts the terminal back: the line settings
//! saved before the child started, the main screen, the cursor; and after
//! a crash it says (and speaks) one line: what happened, that the game is
//! in its journal, and how to continue it. A blind player is never left
//! with a terminal in raw mode on the alternate screen.
//!
//! The child knows it is supervised by [`SUPERVISED_ENV`]. SIGTERM,
//! SIGHUP and SIGINT sent to the parent are passed on to the child (a
//! `kill -INT` of the parent alone stops the game as Ctrl+C would; the
//! full screen reads Ctrl+C as a key, so the keyboard sends none);
//! SIGQUIT (from the keyboard, sent to both) is left to the child.
//!
//! [`TEST_ABORT_ENV`] is for tests only: the child then ends itself right
//! after drawing its first frame (`abort`, `segv` or `kill`), so the tests
//! can check that the terminal comes back.

use std::path::Path;
use std::process::ExitCode;

use crate::locale::Locale;
use crate::locale::MsgKey;

/// Set (to `1`) in the supervised child's environment.
pub const SUPERVISED_ENV: &str = crate::environment::SUPERVISED;

/// **Test only**: the full screen ends itself after its first frame, by
/// `abort` (also `1`), `segv` (SIGSEGV) or `kill` (SIGKILL).
pub const TEST_ABORT_ENV: &str = crate::environment::TEST_ABORT;

/// Restores what the full screen may have changed: the main screen, the
/// colours, the cursor, and the keyboard mode pushed for key releases.
const RESET: &str = "\x1b[<u\x1b[?1049l\x1b[0m\x1b[?25h\r\n";

/// What the parent needs to know of the game.
#[derive(Debug, Clone, Copy)]
pub struct Supervision<'a> {
    /// Plain lines were asked for (`--plain`): nothing to supervise.
    pub plain: bool,
    /// The language of the line after a crash.
    pub locale: &'a Locale,
    /// The journal given with `--journal`; else the newest in the data
    /// folder is named.
    pub journal: Option<&'a Path>,
    /// Speak the line after a crash (not `--silent`).
    pub speak: bool,
}

/// Called first by the full-screen play command. In the parent: runs the
/// program again as a supervised child, waits for it, restores the
/// terminal, reports a crash, and returns the exit status to end with.
/// `None` where there is nothing to supervise (plain lines, no terminal,
/// already the child, or the child could not be started): go on in this
/// process.
pub fn supervise(s: &Supervision<'_>) -> Option<ExitCode> {
    use std::io::IsTerminal;
    if s.plain
        || crate::environment::get().supervised
        || !std::io::stdin().is_terminal()
        || !std::io::stdout().is_terminal()
        || crate::environment::get().term_dumb
    {
        return None;
    }
    #[cfg(unix)]
    {
        unix::supervise(s)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The test-only trigger (see [`TEST_ABORT_ENV`]): ends this process the
/// way it asks, if it is set.
pub fn test_abort() {
    let Some(how) = crate::environment::get().test_abort.clone() else {
        return;
    };
    #[cfg(unix)]
    match how.to_str() {
        // SAFETY: signal(2) and raise(3) on this process, as the test
        // asked (the default action: Rust's own handler would return).
        Some("segv") => unsafe {
            libc::signal(libc::SIGSEGV, libc::SIG_DFL);
            libc::raise(libc::SIGSEGV);
        },
        // SAFETY: as above.
        Some("kill") => unsafe {
            libc::raise(libc::SIGKILL);
        },
        _ => std::process::abort(),
    }
    #[cfg(not(unix))]
    {
        let _ = how;
        std::process::abort();
    }
}

/// The line after a crash: `reason`, the journal and how to continue.
pub fn crash_line(locale: &Locale, reason: &str, journal: Option<&Path>) -> String {
    match journal {
        Some(j) => {
            let file = j.display().to_string();
            locale.message(MsgKey::UiCrashed, &[("reason", reason), ("file", &file)])
        }
        None => locale.message(MsgKey::UiCrashedNoJournal, &[("reason", reason)]),
    }
}

#[cfg(unix)]
mod unix {
    use std::io::Write;
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, ExitCode};
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::time::Duration;

    use super::{MsgKey, RESET, SUPERVISED_ENV, Supervision, crash_line};

    /// A signal for the child that arrived at the parent.
    static PENDING: AtomicI32 = AtomicI32::new(0);

    extern "C" fn on_signal(sig: i32) {
        // Only an atomic store: async-signal-safe.
        PENDING.store(sig, Ordering::SeqCst);
    }

    fn signal_name(sig: i32) -> String {
        match sig {
            libc::SIGABRT => "SIGABRT".to_owned(),
            libc::SIGSEGV => "SIGSEGV".to_owned(),
            libc::SIGKILL => "SIGKILL".to_owned(),
            libc::SIGBUS => "SIGBUS".to_owned(),
            libc::SIGILL => "SIGILL".to_owned(),
            libc::SIGFPE => "SIGFPE".to_owned(),
            libc::SIGTERM => "SIGTERM".to_owned(),
            libc::SIGHUP => "SIGHUP".to_owned(),
            libc::SIGINT => "SIGINT".to_owned(),
            other => other.to_string(),
        }
    }

    pub(super) fn supervise(s: &Supervision<'_>) -> Option<ExitCode> {
        // SAFETY: a zeroed termios is a valid value to be filled in.
        let mut saved: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: tcgetattr on standard input with a valid pointer.
        if unsafe { libc::tcgetattr(libc::STDIN_FILENO, &raw mut saved) } != 0 {
            return None;
        }
        let exe = std::env::current_exe().ok()?;
        let mut child = Command::new(exe)
            .args(std::env::args_os().skip(1))
            .env(SUPERVISED_ENV, "1")
            .spawn()
            .ok()?;
        let handler = on_signal as extern "C" fn(i32) as libc::sighandler_t;
        // SAFETY: signal(2) with SIG_IGN, and a handler that only stores
        // to an atomic.
        unsafe {
            libc::signal(libc::SIGINT, handler);
            libc::signal(libc::SIGQUIT, libc::SIG_IGN);
            libc::signal(libc::SIGTERM, handler);
            libc::signal(libc::SIGHUP, handler);
        }
        let pid = libc::pid_t::try_from(child.id()).ok()?;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) => {}
                Err(_) => break None,
            }
            let sig = PENDING.swap(0, Ordering::SeqCst);
            if sig != 0 {
                // SAFETY: kill(2) on our own child, not yet reaped.
                unsafe {
                    libc::kill(pid, sig);
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // The line settings from before the child, whatever it left.
        // SAFETY: tcsetattr on standard input with the saved settings.
        unsafe {
            libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &raw const saved);
        }
        let status = status?;
        let reason = match (status.signal(), status.code()) {
            // Asked to stop (before its own handlers ran): no crash, but
            // the terminal is put back all the same.
            (Some(sig @ (libc::SIGINT | libc::SIGTERM | libc::SIGHUP)), _) => {
                reset_screen();
                return Some(ExitCode::from(u8::try_from(128 + sig).unwrap_or(1)));
            }
            (Some(sig), _) => Some((
                s.locale
                    .message(MsgKey::UiCrashSignal, &[("signal", &signal_name(sig))]),
                128 + sig,
            )),
            // A panic (its hook restored what it could).
            (None, Some(101)) => Some((s.locale.message(MsgKey::UiCrashInternal, &[]), 101)),
            _ => None,
        };
        let Some((reason, code)) = reason else {
            let code = status
                .code()
                .and_then(|c| u8::try_from(c).ok())
                .unwrap_or(1);
            return Some(ExitCode::from(code));
        };
        reset_screen();
        let journal = match s.journal {
            Some(j) => Some(j.to_owned()),
            None => crate::journal::default_dir().and_then(|d| crate::journal::latest_in(&d)),
        };
        let line = crash_line(s.locale, &reason, journal.as_deref());
        eprintln!("{line}");
        if s.speak {
            speak(s.locale, &line);
        }
        Some(ExitCode::from(u8::try_from(code).unwrap_or(1)))
    }

    fn reset_screen() {
        let mut out = std::io::stdout();
        let _ = out.write_all(RESET.as_bytes());
        let _ = out.flush();
    }

    /// Says the line aloud (as the full screen would have), waiting a few
    /// seconds at most.
    fn speak(locale: &crate::locale::Locale, line: &str) {
        use crate::speech::{self, Announcer, Item, Output, Priority, Voice};
        let voice = Voice {
            language: locale.language.clone(),
            ..Voice::default()
        };
        let mut notices = Vec::new();
        let mut a = Announcer::new(speech::open(&Output::Speak, &voice, locale, &mut notices));
        let u = crate::vocab::Utterance::plain(line.to_owned());
        if a.say(Item::new(u, Priority::Critical)).is_ok() {
            let _ = a.drain(Duration::from_secs(15));
        }
    }
}
