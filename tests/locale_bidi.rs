//! Bidirectional text (issue 20): in the right-to-left locales (Hebrew,
//! Arabic) a command, an option or a path inside a message is put in an
//! isolate (U+2066 LRI or U+2068 FSI … U+2069 PDI) around the whole of it,
//! never a direction mark inside it, so what is printed can be copied and
//! run. Every command in every message of those locales is copied out and
//! given to the real binary.

mod common;

use std::collections::BTreeSet;

use annabella::locale::MsgKey;
use annabella::locale::{self, Direction, Locale};
use clap::CommandFactory;

const LRI: char = '\u{2066}';
const FSI: char = '\u{2068}';
const PDI: char = '\u{2069}';

/// Direction marks and embeddings: none may be in a right-to-left message
/// (they were glued to options: "annabella \u{200e}--journal").
fn is_mark(c: char) -> bool {
    matches!(
        c,
        '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}'
    )
}

fn rtl_locales() -> Vec<Locale> {
    locale::builtin_codes()
        .into_iter()
        .map(|c| locale::builtin(c).unwrap())
        .filter(|l| l.direction == Direction::Rtl)
        .collect()
}

/// The text of `template` outside isolates, and the isolated spans.
fn split(template: &str) -> (String, Vec<String>) {
    let mut outside = String::new();
    let mut spans = Vec::new();
    let mut cur: Option<String> = None;
    for c in template.chars() {
        match c {
            LRI | FSI if cur.is_none() => cur = Some(String::new()),
            PDI if cur.is_some() => spans.extend(cur.take()),
            _ => match &mut cur {
                Some(s) => s.push(c),
                None => outside.push(c),
            },
        }
    }
    (outside, spans)
}

/// Every long option (`--journal`) of every command of the program.
fn long_options() -> BTreeSet<String> {
    fn walk(cmd: &clap::Command, out: &mut BTreeSet<String>) {
        for a in cmd.get_arguments() {
            if let Some(l) = a.get_long() {
                out.insert(format!("--{l}"));
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, out);
        }
    }
    let mut out = BTreeSet::from(["--help".to_owned(), "--version".to_owned()]);
    walk(&annabella::cli::Cli::command(), &mut out);
    out
}

#[test]
fn rtl_messages_isolate_commands_options_and_paths() {
    let options = long_options();
    let mut problems = Vec::new();
    for l in rtl_locales() {
        for &key in MsgKey::ALL {
            // Command words, and the manual page (written in English only).
            let name = key.as_str();
            if name.starts_with("ui.cmd.")
                || name.starts_with("voice.cmd.")
                || name.starts_with("man.")
            {
                continue;
            }
            let text = l.message(key, &[]);
            if text.chars().any(is_mark) {
                problems.push(format!("{} {key}: a direction mark: {text:?}", l.code));
            }
            let (outside, spans) = split(&text);
            // A command (the program's name followed by a subcommand or an
            // option), an option and a path are isolated.
            let words: Vec<&str> = outside.split_whitespace().collect();
            for (i, w) in words.iter().enumerate() {
                let next = words.get(i + 1).copied().unwrap_or("");
                let command = w.ends_with("annabella")
                    && (next.starts_with('-')
                        || ["resume", "models", "config", "play", "export", "review"]
                            .contains(&next.trim_end_matches(['.', ',', '\''])));
                if command || w.starts_with("--") || w.contains("{file}") || w.contains("{path}") {
                    problems.push(format!("{} {key}: '{w} {next}' is not isolated", l.code));
                }
            }
            for s in &spans {
                if s.chars()
                    .any(|c| is_mark(c) || matches!(c, LRI | FSI | PDI | '\u{2067}'))
                {
                    problems.push(format!("{} {key}: a mark inside '{s}'", l.code));
                }
                if s.starts_with("--") && !s.contains('{') {
                    let opt = s.split_whitespace().next().unwrap_or("");
                    if !options.contains(opt) {
                        problems.push(format!("{} {key}: no option '{opt}'", l.code));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A value for a placeholder or a word in capitals of a command.
fn fill(word: &str, dir: &std::path::Path) -> String {
    let path = |name: &str| dir.join(name).display().to_string();
    match word {
        "{file}" | "PATH" => path("game.jsonl"),
        "/path/to/{file}" => path("model.zip"),
        "{name}" | "NAME" => "xx-no-such-model".to_owned(),
        "KEY" => "rate".to_owned(),
        "VALUE" => "20".to_owned(),
        "{command}" => "announce".to_owned(),
        w if w.contains('{') => "x".to_owned(),
        w => w.to_owned(),
    }
}

#[test]
fn every_command_in_an_rtl_message_runs() {
    let dir = tempfile::tempdir().unwrap();
    let mut ran = 0;
    let mut problems = Vec::new();
    for l in rtl_locales() {
        for &key in MsgKey::ALL {
            let text = l.message(key, &[]);
            let (_, spans) = split(&text);
            for span in spans.iter().filter(|s| s.starts_with("annabella ")) {
                // Copied out of the message as printed, then given to the
                // program with --help: clap reads every argument first and
                // refuses one it does not know, and nothing is installed,
                // resumed or written.
                // A shell's redirection (`> game.pgn`) ends the command.
                let args: Vec<String> = span
                    .split_whitespace()
                    .skip(1)
                    .take_while(|w| !matches!(*w, ">" | ">>" | "<" | "|"))
                    .map(|w| fill(w, dir.path()))
                    .chain(["--help".to_owned()])
                    .collect();
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let out = common::annabella(&args, dir.path())
                    .stdin(std::process::Stdio::null())
                    .output()
                    .unwrap();
                ran += 1;
                if !out.status.success() {
                    problems.push(format!(
                        "{} {key}: `annabella {}` exit {:?}: {}",
                        l.code,
                        args.join(" "),
                        out.status.code(),
                        String::from_utf8_lossy(&out.stderr)
                    ));
                }
            }
        }
    }
    assert!(ran >= 30, "only {ran} commands found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_crash_recovery_line_copies_into_a_command_that_runs() {
    // The line of the issue: "annabella ‎--journal game.jsonl", pasted,
    // gave "unrecognized subcommand '‎--journal'".
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    for l in rtl_locales() {
        let line = l.message(
            MsgKey::UiJournalCreated,
            &[("file", &journal.display().to_string())],
        );
        let (_, spans) = split(&line);
        let command = spans
            .iter()
            .find(|s| s.starts_with("annabella "))
            .unwrap_or_else(|| panic!("{}: no command in {line:?}", l.code));
        let mut args: Vec<&str> = command.split_whitespace().skip(1).collect();
        assert_eq!(args, ["--journal", journal.to_str().unwrap()], "{}", l.code);
        args.push("--help");
        let out = common::annabella(&args, dir.path()).output().unwrap();
        assert!(
            out.status.success(),
            "{}: {}",
            l.code,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
