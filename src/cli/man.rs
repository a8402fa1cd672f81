//! The manual page (`annabella generate man`, installed by `make install`):
//! written from the program's own definitions, so it always matches it.
//! The command line's options and every subcommand with its options come
//! from clap; the play screen's commands from the command table; its keys
//! from [`crate::ui::keys`]; the rest (files, environment) from the base
//! locale's `man.*` messages. One page: it names no other page of its own.

use clap::{Command, CommandFactory};

use crate::commands::{Cmd, Menu};
use crate::locale::Locale;
use crate::locale::MsgKey;

/// Text for roff: backslashes and hyphens escaped, a line that would start
/// with a control character guarded.
fn esc(s: &str) -> String {
    s.replace('\\', "\\e")
        .replace('-', "\\-")
        .lines()
        .map(|l| {
            if l.starts_with(['.', '\'']) {
                format!("\\&{l}")
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Paragraphs (separated by blank lines) as roff paragraphs.
fn paragraphs(text: &str) -> String {
    let mut out = String::new();
    for (i, p) in text
        .split("\n\n")
        .filter(|p| !p.trim().is_empty())
        .enumerate()
    {
        if i > 0 {
            out.push_str(".PP\n");
        }
        let joined: Vec<&str> = p.lines().map(str::trim).collect();
        out.push_str(&esc(&joined.join(" ")));
        out.push('\n');
    }
    out
}

/// The visible subcommands of `cmd` (not `help`, not hidden ones).
fn visible(cmd: &Command) -> impl Iterator<Item = &Command> {
    cmd.get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
}

/// A subcommand (and its own subcommands) under COMMANDS: its usage, its
/// description, its options, and what its long help adds (the script's
/// lines of `play`).
fn subcommand(out: &mut String, path: &str, cmd: &Command) -> std::io::Result<()> {
    let name = format!("{path} {}", cmd.get_name());
    out.push_str(&format!(".SS \"{}\"\n", esc(&name)));
    let mut usage = cmd.clone().bin_name(&name);
    let usage = usage.render_usage().to_string();
    let usage = usage.trim_start_matches("Usage:").trim();
    out.push_str(&format!(".B {}\n.PP\n", esc(usage)));
    if let Some(about) = cmd.get_long_about().or(cmd.get_about()) {
        out.push_str(&paragraphs(&about.to_string()));
    }
    let mut options = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render_options_section(&mut options)?;
    let options = String::from_utf8_lossy(&options);
    // The options as a list under this heading (their own section
    // headings dropped).
    for line in options.lines().filter(|l| !l.starts_with(".SH")) {
        out.push_str(line);
        out.push('\n');
    }
    if let Some(more) = cmd.get_after_long_help() {
        out.push_str(".PP\n.nf\n");
        out.push_str(&esc(&more.to_string()));
        out.push_str("\n.fi\n");
    }
    for sub in visible(cmd) {
        subcommand(out, &name, sub)?;
    }
    Ok(())
}

/// The play screen's commands: every typed command of the command table,
/// with its English words and help line.
fn play_screen_commands(out: &mut String, en: &Locale) {
    out.push_str(".SH \"PLAY SCREEN COMMANDS\"\n");
    out.push_str(&esc(&en.message(MsgKey::ManCommandsIntro, &[])));
    out.push('\n');
    for (title, menu) in [
        (MsgKey::ManCommandsGame, Menu::Game),
        (MsgKey::ManCommandsArbiter, Menu::Arbiter),
        (MsgKey::ManCommandsAnswers, Menu::Answer),
    ] {
        out.push_str(&format!(".SS \"{}\"\n", esc(&en.message(title, &[]))));
        for cmd in Cmd::listed(menu) {
            let words = cmd
                .message_key()
                .map(|k| en.message(k, &[]).replace('|', ", "))
                .unwrap_or_default();
            out.push_str(&format!(
                ".TP\n\\fB{}\\fR\n{}\n",
                esc(&words),
                esc(&en.message(cmd.help_key(), &[]))
            ));
        }
    }
    let spoken: Vec<String> = Cmd::spoken()
        .filter_map(|c| c.row().spoken)
        .map(|k| {
            let w = en.message(k, &[]);
            w.split('|').next().unwrap_or_default().to_owned()
        })
        .collect();
    out.push_str(&format!(
        ".SS \"{}\"\n{}\n",
        esc(&en.message(MsgKey::ManCommandsSpoken, &[])),
        esc(&en.message(
            MsgKey::ManCommandsSpokenText,
            &[("words", &spoken.join(", "))]
        ))
    ));
}

/// The full screen's keys.
fn play_screen_keys(out: &mut String, en: &Locale) {
    out.push_str(".SH \"PLAY SCREEN KEYS\"\n");
    out.push_str(&esc(&en.message(MsgKey::ManKeysIntro, &[])));
    out.push('\n');
    for (key, what) in crate::ui::keys::SCREEN_KEYS {
        out.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            esc(key),
            esc(&en.message(*what, &[]))
        ));
    }
    out.push_str(&format!(
        ".PP\n{}\n",
        esc(&en.message(
            MsgKey::ManKeysReview,
            &[("keys", &en.message(MsgKey::ReviewLabelKeys, &[]))]
        ))
    ));
}

/// A section of (term, description) pairs from `man.*` messages.
fn pairs(out: &mut String, en: &Locale, title: &str, items: &[(&str, MsgKey)]) {
    out.push_str(&format!(".SH {title}\n"));
    for (term, key) in items {
        out.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            esc(term),
            esc(&en.message(*key, &[]))
        ));
    }
}

/// The files annabella reads and writes.
pub const FILES: &[(&str, MsgKey)] = &[
    ("~/.config/annabella/config.toml", MsgKey::ManFileConfig),
    ("~/.local/share/annabella/games/", MsgKey::ManFileGames),
    ("~/.local/share/annabella/models/", MsgKey::ManFileModels),
    ("~/.cache/annabella/audio.log", MsgKey::ManFileAudioLog),
    ("annabella-game.pgn", MsgKey::ManFileSave),
];

/// The environment variables annabella reads.
pub const ENVIRONMENT: &[(&str, MsgKey)] = &[
    ("XDG_CONFIG_HOME", MsgKey::ManEnvXdgConfigHome),
    ("XDG_DATA_HOME", MsgKey::ManEnvXdgDataHome),
    ("XDG_CACHE_HOME", MsgKey::ManEnvXdgCacheHome),
    ("TERM", MsgKey::ManEnvTerm),
    ("LANG", MsgKey::ManEnvLang),
    ("ANNABELLA_MODEL", MsgKey::ManEnvModel),
    ("ANNABELLA_MODELS_DIR", MsgKey::ManEnvModelsDir),
    ("ANNABELLA_ESPEAK", MsgKey::ManEnvEspeak),
    ("ANNABELLA_LIBESPEAK", MsgKey::ManEnvLibespeak),
    ("ANNABELLA_VOICING", MsgKey::ManEnvVoicing),
    ("ANNABELLA_ECHO_CANCEL", MsgKey::ManEnvEchoCancel),
    ("ANNABELLA_NO_SELF_MUTE", MsgKey::ManEnvNoSelfMute),
    ("ANNABELLA_TEST_ABORT", MsgKey::ManEnvTestAbort),
    ("ANNABELLA_TEST_OUTPUT", MsgKey::ManEnvTestOutput),
    ("ANNABELLA_TRACE", MsgKey::ManEnvTrace),
    ("ANNABELLA_SUPERVISED", MsgKey::ManEnvSupervised),
];

/// The manual page, in roff.
pub fn page() -> std::io::Result<String> {
    let cmd = super::Cli::command();
    let en = crate::locale::base().ok_or_else(|| std::io::Error::other("no base locale"))?;
    let man = clap_mangen::Man::new(cmd.clone());
    let mut head = Vec::new();
    man.render_title(&mut head)?;
    man.render_name_section(&mut head)?;
    man.render_synopsis_section(&mut head)?;
    man.render_description_section(&mut head)?;
    man.render_options_section(&mut head)?;
    let mut out = String::from_utf8_lossy(&head).into_owned();
    out.push_str(".SH COMMANDS\n");
    out.push_str(&esc(&en.message(MsgKey::ManSubcommandsIntro, &[])));
    out.push('\n');
    for sub in visible(&cmd) {
        subcommand(&mut out, "annabella", sub)?;
    }
    play_screen_commands(&mut out, en);
    play_screen_keys(&mut out, en);
    pairs(&mut out, en, "FILES", FILES);
    pairs(&mut out, en, "ENVIRONMENT", ENVIRONMENT);
    out.push_str(&format!(
        ".SH \"EXIT STATUS\"\n{}\n",
        esc(&en.message(MsgKey::ManExitStatus, &[]))
    ));
    let mut version = Vec::new();
    man.render_version_section(&mut version)?;
    out.push_str(&String::from_utf8_lossy(&version));
    Ok(out)
}
