//! Keeps libvosk's and ALSA's messages on standard error from corrupting a
//! full-screen terminal UI: while a [`StderrRedirect`] lives, file
//! descriptor 2 points to a log file; dropping it restores the terminal.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::Path;

unsafe extern "C" {
    fn dup2(old: i32, new: i32) -> i32;
}

/// Standard error sent to a file until dropped.
#[derive(Debug)]
pub struct StderrRedirect {
    saved: OwnedFd,
}

impl StderrRedirect {
    /// Sends fd 2 to `log` (appending; created if needed).
    pub fn to_file(log: &Path) -> io::Result<StderrRedirect> {
        let file: File = OpenOptions::new().create(true).append(true).open(log)?;
        // The terminal's stderr, kept to restore it.
        let saved = io::stderr().as_fd().try_clone_to_owned()?;
        // SAFETY: dup2 on two open descriptors; fd 2 is replaced atomically.
        let rc = unsafe { dup2(file.as_raw_fd(), 2) };
        if rc < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(StderrRedirect { saved })
    }
}

impl StderrRedirect {
    /// Sends fd 2 to annabella's audio log (`annabella/audio.log` in the
    /// user's cache folder, else `/dev/null`).
    pub fn to_log() -> io::Result<StderrRedirect> {
        match log_path() {
            Some(p) => StderrRedirect::to_file(&p)
                .or_else(|_| StderrRedirect::to_file(Path::new("/dev/null"))),
            None => StderrRedirect::to_file(Path::new("/dev/null")),
        }
    }
}

/// Where libvosk's and ALSA's messages are logged.
pub fn log_path() -> Option<std::path::PathBuf> {
    let dir = dirs::cache_dir()?.join("annabella");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("audio.log"))
}

impl Drop for StderrRedirect {
    fn drop(&mut self) {
        // SAFETY: restores the saved descriptor onto fd 2.
        unsafe {
            dup2(self.saved.as_raw_fd(), 2);
        }
    }
}

/// Quiets libvosk's own log: errors only (`silent`), or warnings too.
pub fn quiet_vosk(silent: bool) {
    #[cfg(not(feature = "voice"))]
    let _ = silent;
    #[cfg(feature = "voice")]
    vosk::set_log_level(if silent {
        vosk::LogLevel::Error
    } else {
        vosk::LogLevel::Warn
    });
}

/// Standard error kept in the audio log for as long as any
/// [`QuietStderr`] lives (a process-wide count: the first one redirects,
/// the last one dropped restores the terminal). The live voice worker
/// holds one while it runs, so libvosk's and ALSA's lines never reach a
/// full-screen UI; a UI may hold its own for its whole run as well.
#[derive(Debug)]
#[must_use = "standard error is restored when this is dropped"]
pub struct QuietStderr(());

static QUIET: std::sync::Mutex<(usize, Option<StderrRedirect>)> = std::sync::Mutex::new((0, None));

/// Sends standard error to the audio log (see [`log_path`]) until the
/// returned guard and every other live guard are dropped.
pub fn quiet_to_log() -> QuietStderr {
    let mut q = QUIET.lock().unwrap_or_else(|e| e.into_inner());
    if q.0 == 0 {
        q.1 = StderrRedirect::to_log().ok();
    }
    q.0 += 1;
    QuietStderr(())
}

impl Clone for QuietStderr {
    fn clone(&self) -> QuietStderr {
        quiet_to_log()
    }
}

impl Drop for QuietStderr {
    fn drop(&mut self) {
        let mut q = QUIET.lock().unwrap_or_else(|e| e.into_inner());
        q.0 = q.0.saturating_sub(1);
        if q.0 == 0 {
            // Restores fd 2.
            q.1 = None;
        }
    }
}

/// Writes one line to the terminal's standard error, even while a
/// [`QuietStderr`] sends fd 2 to the log (for the few lines a command-line
/// tool must show while voice input runs).
pub fn write_terminal(line: &str) {
    use std::io::Write;
    let q = QUIET.lock().unwrap_or_else(|e| e.into_inner());
    let text = format!("{line}\n");
    if let Some(r) = &q.1
        && let Ok(fd) = r.saved.try_clone()
    {
        let mut f = File::from(fd);
        let _ = f.write_all(text.as_bytes());
        return;
    }
    let _ = io::stderr().write_all(text.as_bytes());
}

/// Waits up to `timeout` for every [`QuietStderr`] to be dropped (a
/// worker thread finishing); true if standard error is the terminal again.
pub fn wait_restored(timeout: std::time::Duration) -> bool {
    let deadline = std::time::Instant::now() + timeout;
    while is_quiet() {
        if std::time::Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    true
}

/// Is standard error in the audio log now (a [`QuietStderr`] lives)?
pub fn is_quiet() -> bool {
    QUIET.lock().map(|q| q.0 > 0).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests move fd 2 of the whole process: one at a time.
    static FD2: std::sync::Mutex<()> = std::sync::Mutex::new(());

    #[test]
    fn stderr_goes_to_the_file_and_comes_back() {
        let _one = FD2.lock().unwrap_or_else(|e| e.into_inner());
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("stderr.log");
        {
            let _r = StderrRedirect::to_file(&log).unwrap();
            use std::io::Write;
            // Straight to fd 2 (eprintln! is captured by the test harness).
            io::stderr().write_all(b"into the log\n").unwrap();
        }
        let text = std::fs::read_to_string(&log).unwrap();
        assert_eq!(text, "into the log\n");
    }

    #[test]
    fn quiet_guards_are_counted_and_the_last_one_restores() {
        let _one = FD2.lock().unwrap_or_else(|e| e.into_inner());
        assert!(!is_quiet());
        let a = quiet_to_log();
        assert!(is_quiet());
        let b = a.clone();
        drop(a);
        assert!(is_quiet(), "one guard still lives");
        drop(b);
        assert!(!is_quiet());
        assert!(wait_restored(std::time::Duration::ZERO));
    }
}
