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
    vosk::set_log_level(if silent {
        vosk::LogLevel::Error
    } else {
        vosk::LogLevel::Warn
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_goes_to_the_file_and_comes_back() {
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
}
