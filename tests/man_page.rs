//! The manual page as `man -l` shows it: every command and key of the play
//! screen, every subcommand, the files and the environment variables the
//! program reads; and it names only pages that exist.

mod common;

use std::process::Command;

use annabella::commands::{Cmd, Menu};

/// The page rendered by man, plain text, wide enough that no word is cut.
fn rendered() -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("annabella.1");
    let out = Command::new(common::bin())
        .args(["generate", "man"])
        .output()
        .unwrap();
    assert!(out.status.success());
    std::fs::write(&page, &out.stdout).unwrap();
    let man = Command::new("man")
        .arg("-l")
        .arg(&page)
        .env("MANWIDTH", "400")
        .env("MAN_KEEP_FORMATTING", "0")
        .env("PAGER", "cat")
        .output();
    let Ok(man) = man else {
        common::tool_present(false, "man");
        return None;
    };
    assert!(
        man.status.success(),
        "{}",
        String::from_utf8_lossy(&man.stderr)
    );
    let stderr = String::from_utf8_lossy(&man.stderr);
    assert!(!stderr.contains("warning"), "{stderr}");
    // Bold and underline as man prints them to a pipe (x\bx), dropped.
    let text = String::from_utf8_lossy(&man.stdout).into_owned();
    let mut plain = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if chars.peek() == Some(&'\u{8}') {
            chars.next();
            continue;
        }
        plain.push(c);
    }
    // Hyphenation at line ends, undone.
    Some(plain.replace("‐\n", "").replace("-\n", "-"))
}

/// The page with runs of white space made one space.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_manual_page_holds_every_command_and_key_of_the_play_screen() {
    let Some(page) = rendered() else { return };
    let flat = squeezed(&page);
    let en = annabella::locale::builtin("en").unwrap();
    for menu in [Menu::Game, Menu::Arbiter, Menu::Answer] {
        for cmd in Cmd::listed(menu) {
            let key = cmd.message_key().expect("a listed command is typed");
            for w in en.message(key, &[]).split('|') {
                assert!(flat.contains(w), "{cmd:?}: '{w}' is not in the page");
            }
            let help = squeezed(&en.message(cmd.help_key(), &[]));
            assert!(flat.contains(&help), "{cmd:?}: '{help}' is not in the page");
        }
    }
    // Spoken commands, too.
    for cmd in Cmd::spoken() {
        let key = cmd.row().spoken.unwrap();
        let first = en.message(key, &[]);
        let first = first.split('|').next().unwrap();
        assert!(flat.contains(first), "spoken {cmd:?}: '{first}'");
    }
    for (key, what) in annabella::ui::keys::SCREEN_KEYS {
        let line = format!("{key} {}", squeezed(&en.message(*what, &[])));
        assert!(
            flat.contains(&line),
            "key {key}: '{line}' is not in the page"
        );
    }
    for section in [
        "PLAY SCREEN COMMANDS",
        "PLAY SCREEN KEYS",
        "FILES",
        "ENVIRONMENT",
        "EXIT STATUS",
        "COMMANDS",
    ] {
        assert!(
            page.lines().any(|l| l.trim_end() == section),
            "no section {section}"
        );
    }
    // Every subcommand with its options, and the script's lines of play.
    use clap::CommandFactory;
    let cli = annabella::cli::Cli::command();
    for sub in cli.get_subcommands().filter(|c| !c.is_hide_set()) {
        let name = sub.get_name();
        if name == "help" {
            continue;
        }
        assert!(flat.contains(&format!("annabella {name} ")), "{name}");
        for a in sub.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(l) = a.get_long() {
                assert!(flat.contains(&format!("--{l}")), "{name} --{l}");
            }
        }
    }
    for text in [
        "--speak-to",
        "--from-good",
        "--tsv",
        "white|black board: MOVE",
    ] {
        assert!(flat.contains(text), "{text}");
    }
    // Nothing said to be below that is not.
    assert!(!flat.contains("see below"), "'see below' in the page");
}

#[test]
fn the_manual_page_names_only_pages_that_exist() {
    let Some(page) = rendered() else { return };
    // Nor points at parts it does not have.
    assert!(!page.contains("see below"), "'see below' in the page");
    let mut named = Vec::new();
    for word in page.split(|c: char| c.is_whitespace() || c == ',') {
        // NAME(N): a page reference.
        let Some((name, rest)) = word.split_once('(') else {
            continue;
        };
        let section = rest.trim_end_matches([')', '.', ';']);
        if !name.is_empty()
            && section.len() == 1
            && section.chars().all(|c| c.is_ascii_digit())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        {
            named.push((name.to_owned(), section.to_owned()));
        }
    }
    for (name, section) in named {
        if name == "annabella" && section == "1" {
            continue;
        }
        let found = Command::new("man")
            .args(["-w", &section, &name])
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(
            found,
            "the page names {name}({section}), which does not exist"
        );
    }
}

#[test]
fn the_manual_page_names_every_environment_variable_and_key_the_program_reads() {
    let Some(page) = rendered() else { return };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    // Every ANNABELLA_… variable in the program's sources.
    let mut vars = std::collections::BTreeSet::new();
    let mut files = vec![root.join("src"), root.join("crates/annabella-core/src")];
    while let Some(p) = files.pop() {
        if p.is_dir() {
            files.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else if p.extension().is_some_and(|e| e == "rs")
            // The test harness's own switch, read by test code only.
            && !p.ends_with("test_skip.rs")
        {
            let text = std::fs::read_to_string(&p).unwrap();
            for (i, _) in text.match_indices("\"ANNABELLA_") {
                let name: String = text[i + 1..]
                    .chars()
                    .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                vars.insert(name);
            }
        }
    }
    assert!(vars.contains("ANNABELLA_MODEL"), "{vars:?}");
    let env = page
        .split("\nENVIRONMENT")
        .nth(1)
        .expect("an ENVIRONMENT section");
    for v in vars {
        assert!(env.contains(&v), "{v} is not in ENVIRONMENT");
    }
    // Every key the full screen handles is in the key table.
    let term = std::fs::read_to_string(root.join("src/ui/term.rs")).unwrap();
    let keys: Vec<&str> = annabella::ui::keys::SCREEN_KEYS
        .iter()
        .map(|(k, _)| *k)
        .collect();
    for (i, _) in term.match_indices("KeyCode::") {
        let rest = &term[i + "KeyCode::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        let key = match name.as_str() {
            "Char" | "Modifier" => continue,
            "F" => format!(
                "F{}",
                rest[2..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
            ),
            other => other.to_owned(),
        };
        assert!(
            keys.contains(&key.as_str()),
            "{key} is handled but not in the key table"
        );
    }
}
