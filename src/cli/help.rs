//! `--help` in the user's language (issue 20 item 5).
//!
//! clap's help is written in English: the derive's doc comments, and its
//! own words ("Usage", "Options", "Print help", "[default: …]"). For any
//! locale but the base locale, the command tree is given the locale's
//! words at run time, before the command line is parsed:
//!
//! - clap's own words from the `cli.help.*` messages;
//! - the description of a command from `cli.about.PATH` (`cli.about.root`
//!   for the program, `cli.about.models.install` for a subcommand's),
//!   and what its `--help` says after it (an example) from
//!   `cli.about_more.PATH`;
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
    let cmd = help_subcommands(cmd, &loc.message(MsgKey::CliHelpHelpCommand, &[]));
    let options = value_name("OPTIONS", base, loc);
    // The title is printed as "Usage: " (its width on the terminal).
    let indent = unicode_width::UnicodeWidthStr::width(words.usage.as_str()) + 2;
    usages(cmd, &format!("[{options}]"), indent)
}

/// The usage lines of `cmd` and its subcommands with clap's `[OPTIONS]`
/// in the locale's words, the lines after the first indented under the
/// locale's "Usage: " (`indent` columns).
fn usages(mut cmd: Command, options: &str, indent: usize) -> Command {
    let rendered = cmd.render_usage().to_string();
    let mut lines = rendered.lines().map(|l| {
        l.trim_start()
            .trim_start_matches("Usage:")
            .trim_start()
            .replace("[OPTIONS]", options)
    });
    if let Some(first) = lines.next() {
        let pad = " ".repeat(indent);
        let usage = std::iter::once(first)
            .chain(lines.map(|l| format!("{pad}{l}")))
            .collect::<Vec<_>>()
            .join("\n");
        cmd = cmd.override_usage(usage);
    }
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    for name in subs {
        cmd = cmd.mut_subcommand(&name, |s| usages(s, options, indent));
    }
    cmd
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
        // A command's `--help` goes on after its description (an example,
        // a note): `cli.about_more.PATH`, where the base locale's text is
        // what follows the English description.
        let long = long.or_else(|| {
            let english = cmd.get_long_about()?.to_string();
            let (_, rest) = english.split_once("\n\n")?;
            let (key, more) = w.text(&format!("cli.about_more.{dotted}"))?;
            (w.base.message(key, &[]) == rest).then(|| format!("{about}\n\n{more}"))
        });
        cmd = match long {
            Some(long) => cmd.about(about).long_about(long),
            None => cmd.about(about).long_about(None),
        };
    }
    // `play --help` ends with the script's lines, their help in the base
    // locale's words.
    let script = crate::game::script::grammar(w.base);
    if cmd.get_after_long_help().map(|a| a.to_string()) == Some(script) {
        cmd = cmd.after_long_help(crate::game::script::grammar(w.loc));
    }
    let heading = w.loc.message(MsgKey::CliHelpCommands, &[]);
    cmd = cmd
        .subcommand_help_heading(heading)
        .subcommand_value_name(value_name("COMMAND", w.base, w.loc))
        .help_template(format!(
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
    let mut help = match arg_key(dotted, &id, &english, w.base) {
        Some(key) => w.loc.message(key, &[]),
        None => english,
    };
    let takes_values = matches!(a.get_action(), ArgAction::Set | ArgAction::Append);
    if takes_values {
        let names: Vec<String> = a
            .get_value_names()
            .unwrap_or_default()
            .iter()
            .map(|n| value_name(n.as_str(), w.base, w.loc))
            .collect();
        if !names.is_empty() {
            a = a.value_names(names);
        }
    }
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

/// The message that translates the help `english` of the argument `id`
/// of the command at `dotted`: `cli.arg.PATH.ID`, else `cli.arg.ID`,
/// else any `cli.arg.….ID` (an option several commands share, with the
/// same text), each only where the base locale's text of the key is
/// `english`: a translation is never put on an option it was not
/// written for.
fn arg_key(dotted: &str, id: &str, english: &str, base: &Locale) -> Option<MsgKey> {
    if english.is_empty() {
        return None;
    }
    let written_for = |key: &MsgKey| base.message(*key, &[]) == english;
    let own = format!("cli.arg.{dotted}.{id}");
    let program = format!("cli.arg.{id}");
    let shared = format!(".{id}");
    [own.as_str(), program.as_str()]
        .into_iter()
        .filter_map(MsgKey::from_key)
        .find(written_for)
        .or_else(|| {
            MsgKey::ALL.iter().copied().find(|key| {
                let name = key.as_str();
                name.starts_with("cli.arg.") && name.ends_with(&shared) && written_for(key)
            })
        })
}

/// A value name in the locale's words (`<FILE>`: `<DATEI>`), where the
/// base locale's `cli.value.*` text is the name; else the name as it is.
fn value_name(name: &str, base: &Locale, loc: &Locale) -> String {
    MsgKey::from_key(&value_name_key(name))
        .filter(|key| base.message(*key, &[]) == name)
        .map_or_else(|| name.to_owned(), |key| loc.message(key, &[]))
}

/// The message key of a value name (`<FILE>`: `cli.value.file`,
/// `<GAME.pgn>`: `cli.value.game_pgn`).
fn value_name_key(name: &str) -> String {
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("cli.value.{name}")
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
            if let Some((_, rest)) = long.split_once("\n\n") {
                out.push((format!("cli.about_more.{dotted}"), rest.to_owned()));
            }
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

    /// What `--help` shows of the command at `path` that needs words of
    /// the locale: (where, the English text, the keys that may carry it).
    fn shown_texts(
        cmd: &Command,
        path: &mut Vec<String>,
        out: &mut Vec<(String, String, Vec<String>)>,
    ) {
        let dotted = if path.is_empty() {
            "root".to_owned()
        } else {
            path.join(".")
        };
        // The program's description is the first paragraph of its own.
        let about = match path.is_empty() {
            true => cmd
                .get_long_about()
                .map(|a| a.to_string())
                .unwrap_or_default(),
            false => cmd.get_about().map(|a| a.to_string()).unwrap_or_default(),
        };
        let about = about.split("\n\n").next().unwrap_or_default().to_owned();
        if !about.is_empty() {
            out.push((
                format!("{dotted}: description"),
                about,
                vec![format!("cli.about.{dotted}")],
            ));
        }
        // What a command's `--help` says after its description.
        let long = cmd.get_long_about().map(|a| a.to_string());
        if let Some((_, rest)) = long.as_deref().and_then(|l| l.split_once("\n\n"))
            && !path.is_empty()
        {
            out.push((
                format!("{dotted}: --help after the description"),
                rest.to_owned(),
                vec![format!("cli.about_more.{dotted}")],
            ));
        }
        for a in cmd.get_arguments() {
            let id = a.get_id().as_str();
            if a.is_hide_set() || id == "help" || id == "version" {
                continue;
            }
            let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
            if !help.is_empty() {
                let key = arg_key(&dotted, id, &help, locale::base().unwrap()).map_or_else(
                    || format!("cli.arg.{dotted}.{id}"),
                    |k| k.as_str().to_owned(),
                );
                out.push((format!("{dotted}: {id}"), help, vec![key]));
            }
            if !matches!(a.get_action(), ArgAction::Set | ArgAction::Append) {
                continue;
            }
            for name in a.get_value_names().unwrap_or_default() {
                if !value_name_is_words(name.as_str()) {
                    continue;
                }
                out.push((
                    format!("{dotted}: {id}: value name"),
                    name.to_string(),
                    vec![value_name_key(name)],
                ));
            }
        }
        // clap's own `help` subcommands are given their words apart.
        for s in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            path.push(s.get_name().to_owned());
            shown_texts(s, path, out);
            path.pop();
        }
    }

    /// Whether a value name is a word to translate (`FILE`, `GAME.pgn`),
    /// not what is typed as it is (`white|black`, `0-20`, `N`).
    fn value_name_is_words(name: &str) -> bool {
        // FEN is the notation's name in every language.
        name != "FEN"
            && name
                .as_bytes()
                .windows(2)
                .any(|w| w.iter().all(u8::is_ascii_uppercase))
    }

    /// Value names that are words of the locale spelt as in English.
    const COGNATES: &[(&str, &str)] = &[
        ("de", "NAME"),
        ("de", "TEXT"),
        ("de", "FORMAT"),
        ("pl", "FORMAT"),
    ];

    #[test]
    fn every_option_of_every_command_has_its_words_in_every_locale() {
        // The whole command tree, as clap builds it (every subcommand,
        // hidden ones too, every argument with help and every value
        // name): a new option without a translation fails here.
        let en = locale::base().unwrap();
        let mut cmd = Cli::command();
        cmd.build();
        let mut shown = Vec::new();
        shown_texts(&cmd, &mut Vec::new(), &mut shown);
        assert!(shown.len() > 100, "{}", shown.len());
        let mut missing = Vec::new();
        for (what, english, keys) in &shown {
            let same = |t: &str| t.trim_end_matches('.') == english.trim_end_matches('.');
            let key = keys
                .iter()
                .filter_map(|k| MsgKey::from_key(k))
                .find(|&k| same(&en.message(k, &[])));
            let Some(key) = key else {
                missing.push(format!("en {what}: {:?} = {english:?}", keys[0]));
                continue;
            };
            for code in locale::builtin_codes() {
                if code == locale::BASE_LOCALE {
                    continue;
                }
                let loc = locale::builtin(code).unwrap();
                let text = loc.message(key, &[]);
                // Words spelt as in English (German `NAME`, Polish
                // `FORMAT`) are the locale's own.
                let lang = loc.fallback.as_deref().unwrap_or(code);
                let own_word = COGNATES.contains(&(lang, text.as_str()));
                if (same(&text) && !own_word) || text.trim().is_empty() {
                    missing.push(format!("{code} {what}: {} = {english:?}", key.as_str()));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "{} without words:\n{}",
            missing.len(),
            missing.join("\n")
        );
    }

    #[test]
    fn every_commands_long_help_says_all_that_the_english_one_says() {
        // `--help` of a command goes on after its description (Moves can
        // be written…, an example): a locale's help has as many
        // paragraphs, none of them the English text.
        fn paragraphs(cmd: &Command) -> Vec<String> {
            let long = cmd.get_long_about().or(cmd.get_about());
            let long = long.map(|a| a.to_string()).unwrap_or_default();
            long.split("\n\n").map(str::to_owned).collect()
        }
        fn walk(en: &Command, loc: &Command, path: &str, code: &str, out: &mut Vec<String>) {
            let (english, ours) = (paragraphs(en), paragraphs(loc));
            if english.len() != ours.len() {
                out.push(format!("{code} {path}: {ours:?} for {english:?}"));
            } else if code != locale::BASE_LOCALE {
                for (e, o) in english.iter().zip(&ours).filter(|(e, o)| e == o) {
                    out.push(format!("{code} {path}: English {e:?} = {o:?}"));
                }
            }
            for s in en.get_subcommands().filter(|s| s.get_name() != "help") {
                let Some(l) = loc.find_subcommand(s.get_name()) else {
                    out.push(format!("{code} {path} {}: missing", s.get_name()));
                    continue;
                };
                walk(s, l, &format!("{path} {}", s.get_name()), code, out);
            }
        }
        let mut en = Cli::command();
        en.build();
        let mut problems = Vec::new();
        let mut several = 0;
        for code in locale::builtin_codes() {
            let mut cmd = localized(Cli::command(), &locale::builtin(code).unwrap());
            cmd.build();
            walk(&en, &cmd, "annabella", code, &mut problems);
            several += en
                .get_subcommands()
                .filter(|s| paragraphs(s).len() > 1)
                .count();
        }
        assert!(several >= 8 * 9, "{several}");
        assert!(problems.is_empty(), "{}", problems.join("\n"));
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
            if !["cli.about.", "cli.about_more.", "cli.arg."]
                .iter()
                .any(|p| name.starts_with(p))
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
    fn every_value_name_translation_is_of_a_name_clap_shows() {
        // A `cli.value.*` message whose English is no value name any more
        // is never used (the lookup asks for the name's own key).
        fn names(cmd: &Command, out: &mut Vec<String>) {
            for a in cmd.get_arguments() {
                for n in a.get_value_names().unwrap_or_default() {
                    out.push(n.to_string());
                }
            }
            for s in cmd.get_subcommands() {
                names(s, out);
            }
        }
        let en = locale::base().unwrap();
        let mut shown = vec!["OPTIONS".to_owned(), "COMMAND".to_owned()];
        names(&Cli::command(), &mut shown);
        let stale: Vec<String> = MsgKey::ALL
            .iter()
            .filter(|k| k.as_str().starts_with("cli.value."))
            .map(|&k| (k, en.message(k, &[])))
            .filter(|(k, text)| !shown.contains(text) || value_name_key(text) != k.as_str())
            .map(|(k, text)| format!("{k}: {text:?}"))
            .collect();
        assert!(
            stale.is_empty(),
            "no such value name:\n{}",
            stale.join("\n")
        );
    }

    #[test]
    fn the_help_column_lines_up_in_korean() {
        // Hangul takes two columns on a terminal: clap measures the
        // option column by display width (its `unicode` feature), else
        // every help text starts a little further right.
        use unicode_width::UnicodeWidthStr;
        let ko = locale::builtin("ko").unwrap();
        let mut cmd = localized(Cli::command(), &ko);
        for name in ["review", "clock", "say", "play"] {
            let help = cmd
                .find_subcommand_mut(name)
                .unwrap()
                .render_help()
                .to_string();
            let columns: std::collections::BTreeSet<usize> = help
                .lines()
                .filter(|l| l.starts_with("  -") || l.starts_with("      --"))
                .filter_map(|l| {
                    let gap = l.trim_start().find("  ")? + (l.len() - l.trim_start().len());
                    let at = gap + (l[gap..].len() - l[gap..].trim_start().len());
                    Some(l[..at].width())
                })
                .collect();
            assert_eq!(columns.len(), 1, "{name}: {columns:?}\n{help}");
        }
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
