//! The settings file on disk (adapter): where it is, reading it, and
//! changing one value atomically (temporary file, sync, rename), so a
//! crash leaves the old file or the new one, never half of one.

use std::path::{Path, PathBuf};

use super::{ConfigError, Key, UserConfig, set_in, unset_in};
use crate::locale::Locale;

/// The file's name in the settings folder.
pub const FILE_NAME: &str = "config.toml";

/// `CONFIG_DIR/annabella/config.toml`: `$XDG_CONFIG_HOME` when it is set,
/// else `~/.config`. `None` without a home folder.
pub fn path() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("annabella").join(FILE_NAME))
}

/// Why the file could not be used.
#[derive(Debug)]
pub enum FileError {
    /// It could not be read or written.
    Io(std::io::Error),
    /// Its text is not a valid settings file.
    Config(ConfigError),
}

/// Reads the settings: a missing file is no settings (`Ok` with none).
pub fn load(path: &Path) -> Result<UserConfig, FileError> {
    match std::fs::read_to_string(path) {
        Ok(text) => UserConfig::parse(&text).map_err(FileError::Config),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(UserConfig::default()),
        Err(e) => Err(FileError::Io(e)),
    }
}

fn read_text(path: &Path) -> Result<String, FileError> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(FileError::Io(e)),
    }
}

/// Writes `text` to `path` atomically (temporary file in the same
/// folder, synced, renamed), creating the folder first if needed.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    crate::fsutil::write_atomic(path, text.as_bytes(), true)
}

/// Sets one value in the file at `path` (checked first; nothing is
/// written if it is not allowed). Returns the canonical value.
pub fn save_value(path: &Path, key: Key, value: &str) -> Result<String, FileError> {
    let text = read_text(path)?;
    let (new, value) = set_in(&text, key, value).map_err(FileError::Config)?;
    write_atomic(path, &new).map_err(FileError::Io)?;
    Ok(value)
}

/// Removes one value from the file at `path`; `false` if it was not set.
pub fn remove_value(path: &Path, key: Key) -> Result<bool, FileError> {
    let text = read_text(path)?;
    let (new, found) = unset_in(&text, key).map_err(FileError::Config)?;
    if found {
        write_atomic(path, &new).map_err(FileError::Io)?;
    }
    Ok(found)
}

/// What went wrong with the settings file, in words.
pub fn describe(loc: &Locale, path: &Path, e: &FileError) -> String {
    let f = path.display().to_string();
    match e {
        FileError::Io(io) => loc.message(
            "config.write_failed",
            &[("file", &f), ("error", &io.to_string())],
        ),
        FileError::Config(c) => loc.message("config.rejected", &[("problem", &c.describe(loc))]),
    }
}

/// Saves one checked value in the user's settings file; the line to say
/// (saved, or why not).
pub fn save_and_say(loc: &Locale, key: Key, value: &str) -> String {
    let Some(path) = path() else {
        return loc.message("config.no_home", &[]);
    };
    match save_value(&path, key, value) {
        Ok(v) => loc.message(
            "config.saved",
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
}
