//! The settings file on disk (adapter): where it is, reading it (a
//! regular file of at most [`MAX_BYTES`]: a named pipe or a device such as
//! `/dev/zero` is refused at once instead of hanging every command), and
//! changing one value: under an exclusive lock on the settings folder
//! (so two `config set` at once both keep their value), read, change,
//! write a temporary file, sync, rename, release, so a crash leaves the
//! old file or the new one, never half of one.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{ConfigError, Key, UserConfig, set_in, unset_in};
use crate::fsutil::InputError;
use crate::locale::Locale;
use crate::locale::MsgKey;

/// The file's name in the settings folder.
pub const FILE_NAME: &str = crate::places::SETTINGS_FILE;

/// The most bytes read from the settings file.
pub const MAX_BYTES: u64 = 1 << 20;

/// How long a change waits for another program changing the file.
const LOCK_WAIT: Duration = Duration::from_secs(20);

/// `CONFIG_DIR/annabella/config.toml`: `$XDG_CONFIG_HOME` when it is set,
/// else `~/.config`. `None` without a home folder.
pub fn path() -> Option<PathBuf> {
    crate::places::settings_file()
}

/// Why the file could not be used.
#[derive(Debug)]
pub enum FileError {
    /// It could not be read or written.
    Io(std::io::Error),
    /// It is not a regular file of at most [`MAX_BYTES`], or not text.
    Input(InputError),
    /// Its text is not a valid settings file.
    Config(ConfigError),
    /// Another program has been changing it for too long.
    Busy,
    /// The file may not be written (see [`crate::output`]).
    Refused(crate::output::OutputError),
}

/// The file's text; a missing file is an empty one.
fn read_text(path: &Path) -> Result<String, FileError> {
    match crate::fsutil::read_capped(path, MAX_BYTES) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| FileError::Input(InputError::NotText)),
        Err(InputError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(FileError::Input(e)),
    }
}

/// Reads the settings: a missing file is no settings (`Ok` with none).
pub fn load(path: &Path) -> Result<UserConfig, FileError> {
    UserConfig::parse(&read_text(path)?).map_err(FileError::Config)
}

/// Writes `text` to `path` atomically (temporary file in the same
/// folder, synced, renamed), creating the folder first if needed.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    crate::fsutil::write_atomic(path, text.as_bytes(), true)
}

/// Runs `change` (read, change, write) while holding the exclusive lock
/// of the settings folder: every change of the file waits its turn.
fn locked<T>(path: &Path, change: impl FnOnce() -> Result<T, FileError>) -> Result<T, FileError> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(FileError::Io)?;
    // The folder itself is locked: no lock file to leave behind.
    let folder = std::fs::File::open(dir).map_err(FileError::Io)?;
    let deadline = Instant::now() + LOCK_WAIT;
    loop {
        match folder.try_lock() {
            Ok(()) => break,
            Err(std::fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(std::fs::TryLockError::WouldBlock) => return Err(FileError::Busy),
            Err(std::fs::TryLockError::Error(e)) => return Err(FileError::Io(e)),
        }
    }
    let result = change();
    let _ = folder.unlock();
    result
}

/// Writes the new text of the settings file, by the output rule.
fn store(path: &Path, text: &str) -> Result<(), FileError> {
    crate::output::check(
        path,
        crate::output::Kind::Settings,
        &crate::output::Inputs::default(),
        false,
    )
    .map_err(FileError::Refused)?;
    write_atomic(path, text).map_err(FileError::Io)
}

/// Sets one value in the file at `path` (checked first; nothing is
/// written if it is not allowed). Returns the canonical value.
pub fn save_value(path: &Path, key: Key, value: &str) -> Result<String, FileError> {
    locked(path, || {
        let text = read_text(path)?;
        let (new, value) = set_in(&text, key, value).map_err(FileError::Config)?;
        store(path, &new)?;
        Ok(value)
    })
}

/// Removes one value from the file at `path`; `false` if it was not set.
pub fn remove_value(path: &Path, key: Key) -> Result<bool, FileError> {
    locked(path, || {
        let text = read_text(path)?;
        let (new, found) = unset_in(&text, key).map_err(FileError::Config)?;
        if found {
            store(path, &new)?;
        }
        Ok(found)
    })
}

/// What went wrong with reading the settings file, as a phrase for a
/// message's `{error}`.
pub fn read_problem(loc: &Locale, e: &FileError) -> String {
    match e {
        FileError::Io(io) => crate::input::describe_io_error(loc, io),
        FileError::Input(i) => i.describe(loc),
        FileError::Config(c) => c.describe(loc),
        FileError::Busy => loc.message(MsgKey::ConfigBusy, &[]),
        FileError::Refused(r) => match r {
            crate::output::OutputError::NotRegular(kind) => {
                InputError::NotRegular(*kind).describe(loc)
            }
            crate::output::OutputError::Io(io) => crate::input::describe_io_error(loc, io),
            _ => loc.message(MsgKey::ConfigBusy, &[]),
        },
    }
}

/// What went wrong with the settings file, in words.
pub fn describe(loc: &Locale, path: &Path, e: &FileError) -> String {
    let f = path.display().to_string();
    match e {
        FileError::Config(c) => {
            loc.message(MsgKey::ConfigRejected, &[("problem", &c.describe(loc))])
        }
        other => loc.message(
            MsgKey::ConfigWriteFailed,
            &[("file", &f), ("error", &read_problem(loc, other))],
        ),
    }
}

/// Saves one checked value in the user's settings file; the line to say
/// (saved, or why not).
pub fn save_and_say(loc: &Locale, key: Key, value: &str) -> String {
    let Some(path) = path() else {
        return loc.message(MsgKey::ConfigNoHome, &[]);
    };
    match save_value(&path, key, value) {
        Ok(v) => loc.message(
            MsgKey::ConfigSaved,
            &[
                ("key", key.name()),
                ("value", &v),
                ("file", &path.display().to_string()),
            ],
        ),
        Err(e) => describe(loc, &path, &e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_creates_keeps_and_removes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join(FILE_NAME);
        assert_eq!(load(&path).unwrap(), UserConfig::default());
        assert_eq!(save_value(&path, Key::Rate, "20").unwrap(), "20");
        std::fs::write(&path, "# mine\nrate = 20\n").unwrap();
        save_value(&path, Key::Locale, "de").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# mine\n"), "{text}");
        let c = load(&path).unwrap();
        assert_eq!(
            (c.get(Key::Rate), c.get(Key::Locale)),
            (Some("20"), Some("de"))
        );
        assert!(matches!(
            save_value(&path, Key::Rate, "999"),
            Err(FileError::Config(ConfigError::BadValue { .. }))
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        assert!(remove_value(&path, Key::Rate).unwrap());
        assert!(!remove_value(&path, Key::Rate).unwrap());
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from(FILE_NAME)]);
    }

    #[test]
    fn changes_from_many_threads_at_once_are_all_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let keys = [
            (Key::Rate, "20"),
            (Key::Style, "long"),
            (Key::Verbosity, "full"),
            (Key::Voice, "anna"),
            (Key::Speech, "off"),
            (Key::Mode, "hotseat"),
            (Key::Listen, "push-to-talk"),
            (Key::SilenceMs, "400"),
            (Key::MuteTailMs, "100"),
            (Key::Theme, "monochrome"),
            (Key::White, "Anna"),
            (Key::Black, "Bella"),
        ];
        std::thread::scope(|s| {
            for (k, v) in keys {
                let p = &path;
                s.spawn(move || save_value(p, k, v).unwrap());
            }
        });
        let c = load(&path).unwrap();
        for (k, v) in keys {
            assert_eq!(c.get(k), Some(v), "{k:?}");
        }
    }

    #[test]
    fn a_pipe_a_device_or_a_huge_file_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.toml");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(matches!(
            load(&fifo),
            Err(FileError::Input(InputError::NotRegular(
                crate::fsutil::FileKind::Fifo
            )))
        ));
        assert!(matches!(
            save_value(&fifo, Key::Rate, "20"),
            Err(FileError::Input(InputError::NotRegular(_)))
        ));
        assert!(matches!(
            load(Path::new("/dev/zero")),
            Err(FileError::Input(InputError::NotRegular(_)))
        ));
        let big = dir.path().join("big.toml");
        std::fs::write(&big, vec![b'#'; MAX_BYTES as usize + 1]).unwrap();
        assert!(matches!(
            load(&big),
            Err(FileError::Input(InputError::TooLarge { .. }))
        ));
    }
}
