//! `--help` in the user's language (issue 20 item 5).
//!
//! clap's help is written in English: the derive's doc comments, and its
//! own words ("Usage", "Options", "Print help", "[default: …]"). For any
//! locale but the base locale, the command tree is given the locale's
//! words at run time, before the command line is parsed:
//!
//! - clap's own words from the `cli.help.*` messages;
//! - the description of a command from `cli.about.PATH` (`cli.about.root`
//!   for the program, `cli.about.models.install` for a subcommand's);
//! - an option's help from `cli.arg.PATH.ID`, else `cli.arg.ID` (the
//!   program's own options), used only where the base locale's text of
//!   that key is the option's English help: a translation is never put on
//!   an option it was not written for.
//!
//! What has no translation keeps its English text; the test of
//! `tests/locale_english.rs` runs the help it covers in de, ko and ar.

use clap::{Arg, ArgAction, Command};

use crate::locale::{self, Locale, MsgKey};

/// `cmd` with the help texts of `loc` (unchanged for the base locale).
pub fn localized(cmd: Command, loc: &Locale) -> Command {
    if loc.code == locale::BASE_LOCALE {
        return cmd;
    }
    let Some(base) = locale::base() else {
        return cmd;
    };
    let words = Words {
        loc,
        base,
        usage: loc.message(MsgKey::CliHelpUsage, &[]),
        options: loc.message(MsgKey::CliHelpOptions, &[]),
        arguments: loc.message(MsgKey::CliHelpArguments, &[]),
    };
    let mut cmd = walk(cmd, &mut Vec::new(), &words);
    if cmd.get_version().is_some() {
        cmd = cmd.disable_version_flag(true).arg(
            Arg::new("version")
                .short('V')
                .long("version")
                .action(ArgAction::Version)
                .help(loc.message(MsgKey::CliHelpVersion, &[]))
                .help_heading(words.options.clone()),
        );
    }
    // The whole tree is built now (every argument added), so that the
    // `help` subcommands clap adds exist and can be given their words.
    cmd.build();
    help_subcommands(cmd, &loc.message(MsgKey::CliHelpHelpCommand, &[]))
}

struct Words<'a> {
    loc: &'a Locale,
    base: &'a Locale,
    usage: String,
    options: String,
    arguments: String,
}

impl Words<'_> {
    /// The message `key` of the locale, if the base locale has the key.
    fn text(&self, key: &str) -> Option<(MsgKey, String)> {
        let key = MsgKey::from_key(key)?;
        Some((key, self.loc.message(key, &[])))
    }
}

/// The command at `path` (subcommand names) and its subcommands, in the
/// locale's words.
fn walk(mut cmd: Command, path: &mut Vec<String>, w: &Words<'_>) -> Command {
    let dotted = if path.is_empty() {
        "root".to_owned()
    } else {
        path.join(".")
    };
    if let Some((_, about)) = w.text(&format!("cli.about.{dotted}")) {
        // The program's description has a second paragraph (`--help`).
        let long = path
            .is_empty()
            .then(|| w.loc.message(MsgKey::CliAboutRootLong, &[]))
            .map(|more| format!("{about}\n\n{more}"));
        cmd = match long {
            Some(long) => cmd.about(about).long_about(long),
            None => cmd.about(about).long_about(None),
        };
    }
    let heading = w.loc.message(MsgKey::CliHelpCommands, &[]);
    cmd = cmd.subcommand_help_heading(heading).help_template(format!(
        "{{before-help}}{{about-with-newline}}\n{}: {{usage}}\n\n{{all-args}}{{after-help}}",
        w.usage.replace(['{', '}'], "")
    ));
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().as_str().to_owned())
        .filter(|id| id != "help")
        .collect();
    for id in ids {
        cmd = cmd.mut_arg(&id, |a| localize_arg(a, &dotted, w));
    }
    // clap's help flag, after the arguments (as clap places it).
    cmd = cmd.disable_help_flag(true).arg(
        Arg::new("help")
            .short('h')
            .long("help")
            .action(ArgAction::Help)
            .help(w.loc.message(MsgKey::CliHelpHelp, &[]))
            .help_heading(w.options.clone()),
    );
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    for name in subs {
        path.push(name.clone());
        cmd = cmd.mut_subcommand(&name, |s| walk(s, path, w));
        path.pop();
    }
    cmd
}

/// clap's own `help` subcommands (made when the tree is built) in the
/// locale's words.
fn help_subcommands(mut cmd: Command, about: &str) -> Command {
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    for name in subs {
        cmd = if name == "help" {
            cmd.mut_subcommand(&name, |h| h.about(about.to_owned()))
        } else {
            cmd.mut_subcommand(&name, |s| help_subcommands(s, about))
        };
    }
    cmd
}

/// One argument in the locale's words: its help where there is a
/// translation of its English text, clap's headings and the default and
/// possible values in the locale's words.
fn localize_arg(mut a: Arg, dotted: &str, w: &Words<'_>) -> Arg {
    let english = a.get_help().map(|h| h.to_string()).unwrap_or_default();
    let id = a.get_id().as_str().to_owned();
    let own = format!("cli.arg.{dotted}.{id}");
    let program = format!("cli.arg.{id}");
    let translated = [own.as_str(), program.as_str()]
        .into_iter()
        .filter_map(|k| w.text(k))
        .find(|(key, _)| w.base.message(*key, &[]) == english);
    let mut help = match translated {
        Some((_, text)) => text,
        None => english,
    };
    let takes_values = matches!(a.get_action(), ArgAction::Set | ArgAction::Append);
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .filter(|v| !v.is_empty())
        .collect();
    if takes_values && !defaults.is_empty() && !a.is_hide_default_value_set() {
        help.push_str(&format!(
            " [{}]",
            w.loc
                .message(MsgKey::CliHelpDefault, &[("value", &defaults.join(", "))])
        ));
    }
    let possible: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|p| !p.is_hide_set())
        .map(|p| p.get_name().to_owned())
        .collect();
    if takes_values && !possible.is_empty() && !a.is_hide_possible_values_set() {
        help.push_str(&format!(
            " [{}]",
            w.loc
                .message(MsgKey::CliHelpPossible, &[("values", &possible.join(", "))])
        ));
    }
    a = a.help(help).long_help(None);
    if takes_values {
        // Said above in the locale's words; clap allows hiding them only
        // on an argument that takes values (a debug build asserts it).
        a = a.hide_default_value(true).hide_possible_values(true);
    }
    if a.get_help_heading().is_none() {
        let heading = if a.is_positional() {
            w.arguments.clone()
        } else {
            w.options.clone()
        };
        a = a.help_heading(heading);
    }
    a
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, FromArgMatches};

    use super::*;
    use crate::cli::Cli;

    /// Every `cli.about.*` and `cli.arg.*` key with the command or option
    /// it describes, by the rule of [`walk`] and [`localize_arg`].
    fn described(cmd: &Command, path: &mut Vec<String>, out: &mut Vec<(String, String)>) {
        let dotted = if path.is_empty() {
            "root".to_owned()
        } else {
            path.join(".")
        };
        out.push((
            format!("cli.about.{dotted}"),
            cmd.get_about().map(|a| a.to_string()).unwrap_or_default(),
        ));
        // The program's `--help` begins with its own first paragraph.
        if let Some(long) = cmd.get_long_about() {
            let long = long.to_string();
            let first = long.split("\n\n").next().unwrap_or_default().to_owned();
            out.push((format!("cli.about.{dotted}"), first));
        }
        for a in cmd.get_arguments() {
            let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
            let id = a.get_id().as_str();
            out.push((format!("cli.arg.{dotted}.{id}"), help.clone()));
            if path.is_empty() {
                out.push((format!("cli.arg.{id}"), help));
            }
        }
        for s in cmd.get_subcommands() {
            path.push(s.get_name().to_owned());
            described(s, path, out);
            path.pop();
        }
    }

    #[test]
    fn every_help_translation_is_of_the_text_clap_shows() {
        // A translation whose English (en.toml) no longer is the option's
        // help is never used: the option's text changed, and the
        // translations must follow it.
        let en = locale::base().unwrap();
        let mut shown = Vec::new();
        described(&Cli::command(), &mut Vec::new(), &mut shown);
        let mut stale = Vec::new();
        for &key in MsgKey::ALL {
            let name = key.as_str();
            if !(name.starts_with("cli.about.") || name.starts_with("cli.arg."))
                || key == MsgKey::CliAboutRootLong
            {
                continue;
            }
            // clap drops the full stop of a one-sentence description.
            let text = en.message(key, &[]);
            let same = |t: &str| t.trim_end_matches('.') == text.trim_end_matches('.');
            if !shown.iter().any(|(k, t)| k == name && same(t)) {
                stale.push(format!("{name}: {text:?}"));
            }
        }
        assert!(stale.is_empty(), "not clap's text:\n{}", stale.join("\n"));
    }

    #[test]
    fn a_localized_command_line_reads_as_the_english_one() {
        // Only words change: every locale parses the same command lines
        // to the same commands.
        let lines: &[&[&str]] = &[
            &[
                "annabella",
                "--plain",
                "--mode",
                "hotseat",
                "--control",
                "5m+3s",
            ],
            &["annabella", "announce", "-l", "de", "e4", "e5"],
            &["annabella", "models", "-l", "ko", "verify", "x"],
            &["annabella", "config", "set", "rate", "20"],
            &["annabella", "clock", "--plain", "--control", "15m+10s"],
        ];
        for code in locale::builtin_codes() {
            let loc = locale::builtin(code).unwrap();
            let cmd = localized(Cli::command(), &loc);
            cmd.clone().debug_assert();
            for line in lines {
                let plain = Cli::from_arg_matches(&Cli::command().get_matches_from(*line));
                let ours = Cli::from_arg_matches(&cmd.clone().get_matches_from(*line));
                assert_eq!(
                    format!("{:?}", ours.unwrap()),
                    format!("{:?}", plain.unwrap()),
                    "{code}: {line:?}"
                );
            }
            // Help and version are still answered.
            for flag in ["--help", "-h", "--version"] {
                let e = cmd
                    .clone()
                    .try_get_matches_from(["annabella", flag])
                    .unwrap_err();
                assert!(
                    matches!(
                        e.kind(),
                        clap::error::ErrorKind::DisplayHelp
                            | clap::error::ErrorKind::DisplayVersion
                    ),
                    "{code} {flag}: {e}"
                );
            }
            let e = cmd
                .clone()
                .try_get_matches_from(["annabella", "help", "models"])
                .unwrap_err();
            assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp, "{code}");
        }
    }
}
