//! Where annabella keeps its own files: the settings file's place, known
//! here so that the settings (`config`) and the rule for every file
//! written (`output`) both take it without needing each other.

use std::path::PathBuf;

/// The settings file's name in the settings folder.
pub const SETTINGS_FILE: &str = "config.toml";

/// `CONFIG_DIR/annabella/config.toml`: `$XDG_CONFIG_HOME` when it is set,
/// else `~/.config`. `None` without a home folder.
pub fn settings_file() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("annabella").join(SETTINGS_FILE))
}
