//! Nothing English outside en (issue 20): every bad-input reproducer of the
//! issue, run through the real binary in German, Korean and Arabic, says
//! what went wrong in that language. The vocabulary's name, the settings
//! words, the model error, FEN errors, TOML errors of the settings file,
//! the system's errors, journal errors of `--plain --journal` and clap's
//! refusals of the command line were English.

mod common;

use annabella::locale::MsgKey;
use std::path::Path;
use std::process::Output;

/// English words the program's own sentences used; a Latin word in the
/// output that is one of these (outside commands, options, paths and
/// quoted input) is English text in another language. Words that are
/// also German ("an", "in", "System") and the settings file's keys (rate,
/// voice, verbosity: typed as commands) are not on the list.
const ENGLISH: &[&str] = &[
    "the",
    "is",
    "not",
    "no",
    "of",
    "at",
    "a",
    "and",
    "or",
    "to",
    "for",
    "be",
    "must",
    "error",
    "errors",
    "folder",
    "model",
    "file",
    "directory",
    "values",
    "value",
    "quoted",
    "os",
    "unrecognized",
    "subcommand",
    "argument",
    "found",
    "invalid",
    "expected",
    "usage",
    "more",
    "information",
    "try",
    "brief",
    "full",
    "german",
    "words",
    "appendix",
    "as",
    "set",
    "by",
    "too",
    "long",
    "such",
    "cannot",
    "could",
    "piece",
    "placement",
    "eight",
    "ranks",
    "squares",
    "string",
    "missing",
    "line",
    "column",
    "unexpected",
    "key",
    "tip",
    "did",
    "you",
    "mean",
    "options",
    "help",
    "print",
    "with",
    "from",
    "when",
    "this",
    "instead",
    "every",
    "only",
    "which",
    "each",
    "its",
    "your",
    "default",
    "language",
];

/// The words of `text` to judge: commands (`annabella …` and what follows
/// the program's name up to the end of the sentence is left to the bidi
/// tests), options, paths, quoted input and the examples in capitals are
/// taken out.
fn english_words(text: &str) -> Vec<String> {
    // A help's list of commands names each as it is typed ("  help  …").
    let text: String = text
        .lines()
        .map(|l| {
            let rest = l.trim_start();
            match rest.split_once("  ") {
                Some((name, what))
                    if l.starts_with("  ")
                        && !name.is_empty()
                        && name.chars().all(|c| c.is_ascii_lowercase() || c == '-') =>
                {
                    what.to_owned()
                }
                _ => l.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = Vec::new();
    let mut after_program = false;
    // Inside `…`: what is typed as it is written (values, commands).
    let mut code = false;
    for raw in text.split(|c: char| c.is_whitespace()) {
        let was_code = code || raw.starts_with('`') || raw.contains("\u{2066}`");
        code ^= raw.matches('`').count() % 2 == 1;
        if was_code {
            continue;
        }
        let w = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '-' && c != '/');
        if w.is_empty() {
            continue;
        }
        // `annabella --help`, `annabella config set KEY VALUE`: a command.
        if w == "annabella" {
            after_program = true;
            continue;
        }
        if after_program && (w.starts_with('-') || w.chars().all(|c| c.is_ascii_lowercase())) {
            continue;
        }
        after_program = false;
        if w.starts_with('-') || w.contains('/') || raw.starts_with('\'') || raw.contains('=') {
            continue;
        }
        // Placeholders of a command (KEY, VALUE) are in capitals.
        let capitals = w.chars().all(|c| c.is_ascii_uppercase());
        if !capitals
            && ENGLISH.contains(&w.to_lowercase().as_str())
            && w.chars().all(|c| c.is_ascii_alphabetic())
        {
            found.push(w.to_owned());
        }
    }
    found
}

fn run_in(data: &Path, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = common::annabella(args, data)
        .env(
            "ANNABELLA_MODELS_DIR",
            data.join("annabella").join("models"),
        )
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn word(code: &str, key: MsgKey) -> String {
    let l = annabella::locale::builtin(code).unwrap();
    l.message(key, &[]).split('|').next().unwrap().to_owned()
}

/// Every reproducer in `code`: (what, output).
fn reproducers(code: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let data = tempfile::tempdir().unwrap();
    let d = data.path();
    let mut case = |what: &str, args: &[&str], input: &str| {
        let o = run_in(d, args, input);
        out.push((what.to_owned(), text(&o)));
    };
    case("not understood", &["parse", "-l", code, "zzz"], "");
    case(
        "bad FEN",
        &["parse", "-l", code, "--fen", "8/8 w - - 0 1", "e4"],
        "",
    );
    let missing = d.join("no-such-model");
    let m = missing.to_str().unwrap();
    case(
        "model folder",
        &["--plain", "-l", code, "--voice", "--model", m],
        &format!(
            "{}\n{}\n",
            word(code, MsgKey::UiCmdQuit),
            word(code, MsgKey::UiCmdYes)
        ),
    );
    case(
        "settings words",
        &["--plain", "-l", code],
        &format!(
            "{}\n{}\n{}\n",
            word(code, MsgKey::UiCmdSettings),
            word(code, MsgKey::UiCmdQuit),
            word(code, MsgKey::UiCmdYes)
        ),
    );
    let long = d.join("a".repeat(300)).join("x.jsonl");
    case(
        "name too long",
        &["export", "-l", code, long.to_str().unwrap()],
        "",
    );
    case("a folder", &["export", "-l", code, d.to_str().unwrap()], "");
    case(
        "plain journal",
        &["--plain", "-l", code, "--journal", d.to_str().unwrap()],
        "",
    );
    // Installing and checking speech models: the system's, curl's and
    // the unpacker's words were pasted in English.
    let empty = d.join("empty-model");
    std::fs::create_dir_all(&empty).unwrap();
    case(
        "model install: not a model",
        &["models", "-l", code, "install", empty.to_str().unwrap()],
        "",
    );
    let junk = d.join("junk.zip");
    std::fs::write(&junk, b"not a zip archive").unwrap();
    case(
        "model install: not a zip",
        &["models", "-l", code, "install", junk.to_str().unwrap()],
        "",
    );
    let hand = d.join("annabella").join("models").join("by-hand");
    for f in ["am/final.mdl", "conf/mfcc.conf", "graph/HCLG.fst"] {
        let p = hand.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, b"x").unwrap();
    }
    case(
        "model verify: installed by hand",
        &["models", "-l", code, "verify", "by-hand"],
        "",
    );
    // Rendering speech into a file that cannot be written.
    let no_dir = d.join("no-such-folder").join("x.wav");
    case(
        "say into a missing folder",
        &[
            "say",
            "-l",
            code,
            "--speak-to",
            no_dir.to_str().unwrap(),
            "e4",
        ],
        "",
    );
    // clap's help: its own words, the descriptions of the commands and
    // the options, in the locale.
    case("help", &["-l", code, "--help"], "");
    case("short help", &["-l", code, "-h"], "");
    case("models help", &["models", "-l", code, "--help"], "");
    case(
        "models install help",
        &["models", "-l", code, "install", "--help"],
        "",
    );
    case("unknown option", &["-l", code, "--bogus"], "");
    // The settings' names are what is typed (`model` is no English word
    // there).
    case(
        "unknown setting",
        &["config", "set", "modle", "x", "-l", code],
        "",
    );
    case("unknown command", &["-l", code, "announce", "--fen"], "");
    case("bad value", &["-l", code, "--mode", "sideways"], "");
    // The settings file is read before any command: unquoted text.
    let dir = d.join("annabella");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "rate = fast\n").unwrap();
    case("TOML", &["announce", "-l", code, "e4"], "");
    std::fs::write(dir.join("config.toml"), format!("locale = '{code}'\n")).unwrap();
    case("clap, locale from the file", &["frobnicate"], "");
    case("help, locale from the file", &["--help"], "");
    case(
        "help command, locale from the file",
        &["help", "models"],
        "",
    );
    case(
        "verify help, locale from the file",
        &["models", "verify", "--help"],
        "",
    );
    out
}

#[test]
fn no_english_in_german_korean_or_arabic_errors() {
    let mut problems = Vec::new();
    for code in ["de", "ko", "ar"] {
        for (what, output) in reproducers(code) {
            assert!(!output.trim().is_empty(), "{code} {what}: nothing printed");
            let english = english_words(&output);
            if !english.is_empty() {
                problems.push(format!("{code} {what}: {english:?} in\n{output}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn the_english_detector_catches_the_issues_lines() {
    // Its liveness: the lines of the issue are caught, a German line is not.
    for line in [
        "Nicht verstanden: 'zzz'. Wortschatz FIDE Appendix D (German words)",
        "Einstellungen: rate wie im System eingestellt, voice x, verbosity brief.",
        "Das Sprachmodell ist nicht verwendbar: no model folder at /x.",
        "Keine gültige Stellung: the piece placement is not eight ranks of eight squares.",
        "Zeile 1 ist kein gültiges TOML (string values must be quoted)",
        "Speichern fehlgeschlagen (Is a directory (os error 21))",
        "error: unrecognized subcommand 'x'",
        "Options:\n  -h, --help  Print help",
        "Eine Zeile (`annabella play --help` nennt sie), mehr in English words",
    ] {
        assert!(!english_words(line).is_empty(), "{line}");
    }
    assert!(
        english_words(
            "'--bogus' ist hier keine Option von annabella. annabella --help nennt die Befehle."
        )
        .is_empty()
    );
    // What is typed as it is written, in `…`, is not English text.
    assert!(english_words("Ansagestil: `short` oder `long` [Vorgabe: `brief`]").is_empty());
    assert!(english_words("[mögliche Werte: `board, assistant, engine, hotseat`]").is_empty());
}

/// Every command of the program, as typed (`["models", "install"]`),
/// hidden ones too; clap's own `help` commands are not walked.
fn every_command() -> Vec<Vec<String>> {
    use clap::CommandFactory;
    fn walk(cmd: &clap::Command, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        for s in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            path.push(s.get_name().to_owned());
            walk(s, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(&annabella::cli::Cli::command(), &mut Vec::new(), &mut out);
    out
}

/// `text` without the syntax column of the script's lines that end
/// `play --help` (`  [white|black] claim cannot win   …`: what is typed,
/// English in every locale), which follow the locale's introduction.
fn without_script_syntax(text: &str, code: &str) -> String {
    let intro = word(code, MsgKey::ScriptGrammarIntro);
    let Some(at) = text.find(&intro) else {
        return text.to_owned();
    };
    let (before, after) = text.split_at(at + intro.len());
    let lines: Vec<&str> = after.lines().collect();
    let mut out = vec![before.to_owned()];
    let column = " ".repeat(32);
    for (i, l) in lines.iter().enumerate() {
        let next_is_help = lines.get(i + 1).is_some_and(|n| n.starts_with(&column));
        if l.starts_with(&column) {
            out.push(l.trim_start().to_owned());
        } else if l.starts_with("  ") && !next_is_help {
            out.push(l.chars().skip(32).collect());
        } else if !l.starts_with("  ") {
            out.push((*l).to_owned());
        }
    }
    out.join("\n")
}

/// Placeholders of a usage or an option (`<FILE>`, `[OPTIONS]`,
/// `<GAME.pgn>`) that are English words in capitals; FEN is the
/// notation's name in every language.
fn english_placeholders(text: &str) -> Vec<String> {
    // What is typed as it is written, in `…`, is left out.
    let text: String = text.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    let mut found = Vec::new();
    for (open, close) in [('<', '>'), ('[', ']')] {
        for part in text.split(open).skip(1) {
            let Some((inside, _)) = part.split_once(close) else {
                continue;
            };
            for name in inside.split(['|', '.']) {
                let letters = name.chars().filter(|c| c.is_ascii_uppercase()).count();
                if letters >= 2
                    && name != "FEN"
                    && name
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
                {
                    found.push(format!("{open}{inside}{close}"));
                }
            }
        }
    }
    found
}

#[test]
fn every_commands_help_is_in_german_korean_or_arabic() {
    // `--help`, `-h` and `annabella help …` of every command, the locale
    // from the settings file (an option of the program is not an option
    // of every command): no English words; in Korean and Arabic, no
    // placeholder in English capitals either.
    let commands = every_command();
    assert!(commands.len() > 20, "{commands:?}");
    let mut problems = Vec::new();
    for code in ["de", "ko", "ar"] {
        let data = tempfile::tempdir().unwrap();
        let d = data.path();
        let dir = d.join("annabella");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), format!("locale = '{code}'\n")).unwrap();
        for path in &commands {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            let help_command: Vec<&str> = std::iter::once("help").chain(path.clone()).collect();
            let long: Vec<&str> = path.iter().copied().chain(["--help"]).collect();
            let short: Vec<&str> = path.iter().copied().chain(["-h"]).collect();
            for args in [long, short, help_command] {
                let o = run_in(d, &args, "");
                let output = text(&o);
                let stdout = String::from_utf8_lossy(&o.stdout);
                if !o.status.success() || !stdout.contains("annabella") {
                    problems.push(format!("{code} {args:?}: no help: {output}"));
                    continue;
                }
                let mut english = english_words(&without_script_syntax(&output, code));
                if code != "de" {
                    english.extend(english_placeholders(&output));
                }
                if !english.is_empty() {
                    problems.push(format!("{code} {args:?}: {english:?} in\n{output}"));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

#[test]
fn help_of_a_command_takes_the_locale_on_its_command_line() {
    fn with<'a>(before: &[&'a str], after: &[&'a str]) -> Vec<&'a str> {
        before.iter().chain(after).copied().collect()
    }
    // `annabella help clock -l de` was refused ("'-l' is no command"):
    // clap's `help` took the option for a command's name, so the locale
    // reached `help` only through the settings file. It gives the help
    // that `clock --help` gives with the settings file's locale.
    let mut problems = Vec::new();
    let mut compared = 0;
    for code in ["de", "ko", "ar"] {
        let with_file = tempfile::tempdir().unwrap();
        let dir = with_file.path().join("annabella");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), format!("locale = '{code}'\n")).unwrap();
        let without = tempfile::tempdir().unwrap();
        let usage = word(code, MsgKey::CliHelpUsage);
        for path in every_command().iter().filter(|p| !p.is_empty()) {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            let expected = run_in(
                with_file.path(),
                &path.iter().copied().chain(["--help"]).collect::<Vec<_>>(),
                "",
            );
            let (parent, last) = path.split_at(path.len() - 1);
            let lines: [Vec<&str>; 4] = [
                with(&with(&["help"], &path), &["-l", code]),
                with(&with(&["help"], &path), &["--locale", code]),
                with(&["help", "--locale", code], &path),
                // A command's own `help` (`models help install -l ko`).
                with(&with(&with(parent, &["help"]), last), &["-l", code]),
            ];
            for args in lines {
                let o = run_in(without.path(), &args, "");
                compared += 1;
                if !o.status.success()
                    || o.stdout != expected.stdout
                    || !String::from_utf8_lossy(&o.stdout).contains(&usage)
                {
                    problems.push(format!("{code} {args:?}: {}", text(&o)));
                }
            }
        }
        // Liveness twin: a command that takes words keeps `-l` after the
        // word `help` (it is a word to read, in the locale given).
        let said = run_in(without.path(), &["parse", "help", "-l", code], "");
        let before = run_in(without.path(), &["parse", "-l", code, "help"], "");
        let fide = run_in(without.path(), &["parse", "help"], "");
        if text(&said) != text(&before) || text(&said) == text(&fide) || said.status.success() {
            problems.push(format!("{code} parse help -l {code}: {}", text(&said)));
        }
    }
    assert!(compared > 100, "{compared}");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn the_placeholder_detector_catches_english_capitals() {
    assert_eq!(
        english_placeholders("사용법: annabella clock [OPTIONS] <GAME.pgn|GAME.jsonl>"),
        [
            "<GAME.pgn|GAME.jsonl>",
            "<GAME.pgn|GAME.jsonl>",
            "[OPTIONS]"
        ]
    );
    assert!(
        english_placeholders(
            "--fen <FEN>  --rate <-100..100>  [텍스트]... <파일.wav> `FEN<TAB>말`"
        )
        .is_empty()
    );
}

/// A locale file of the user's with the Korean words (the only speech
/// model the tests have is Korean) and the messages of `messages` (by its
/// fallback): the no-microphone line in German or Arabic is reached
/// through the real model.
fn korean_words_with_messages_of(messages: &str, dir: &Path) -> String {
    let ko = include_str!("../locales/ko.toml");
    let words = ko.split("\n[messages]").next().unwrap();
    let direction = if messages == "ar" { "rtl" } else { "ltr" };
    let text = words
        .replace(
            "code = \"ko\"",
            &format!("code = \"ko-{messages}\"\nfallback = \"{messages}\""),
        )
        .replace("language = \"ko\"", &format!("language = \"{messages}\""))
        .replace(
            "direction = \"ltr\"",
            &format!("direction = \"{direction}\""),
        );
    // The tables the messages use beside them ("{side:li}" in Arabic).
    let tables = match messages {
        "ar" => include_str!("../locales/ar.toml")
            .split("\n[cases.")
            .skip(1)
            .map(|t| format!("\n[cases.{t}"))
            .collect::<String>(),
        _ => String::new(),
    };
    let text = text + &tables;
    let path = dir.join(format!("ko-{messages}.toml"));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// Plain play with voice input through the Korean model on a machine
/// without a sound card, its messages in Korean, German and Arabic: the
/// one line starting as `key`'s message does, in each, must have no
/// English inside and end as the message ends (what to do). With `speak`,
/// speech output too, on the virtual card, with libespeak-ng missing.
fn one_line_in_three_languages(key: MsgKey, speak: bool) {
    let Some(model) = common::voice_prerequisites() else {
        return;
    };
    let model = model.to_string_lossy().into_owned();
    let home = tempfile::tempdir().unwrap();
    common::no_sound_devices(home.path());
    let files = tempfile::tempdir().unwrap();
    let mut problems = Vec::new();
    for messages in ["ko", "de", "ar"] {
        let spec = if messages == "ko" {
            "ko".to_owned()
        } else {
            korean_words_with_messages_of(messages, files.path())
        };
        let data = tempfile::tempdir().unwrap();
        let journal = data.path().join("g.jsonl");
        let mut args = vec![
            "--plain",
            "-l",
            &spec,
            "--voice",
            "--model",
            &model,
            "--journal",
            journal.to_str().unwrap(),
        ];
        if speak {
            args.push("--speak");
        }
        let mut cmd = common::annabella(&args, data.path());
        cmd.env("HOME", home.path());
        if speak {
            cmd.env("ANNABELLA_TEST_OUTPUT", "virtual")
                .env("ANNABELLA_LIBESPEAK", "/nonexistent/libespeak-ng.so.1")
                .env_remove("ANNABELLA_ESPEAK");
        }
        let out = common::run_until(&mut cmd, "e4\n", std::time::Duration::from_secs(120));
        let output = text(&out);
        if !out.status.success() {
            problems.push(format!("{messages}: {:?}: {output}", out.status));
            continue;
        }
        let template = annabella::locale::builtin(messages)
            .unwrap()
            .message(key, &[]);
        let (before, after) = template.split_once("{error}").unwrap();
        let lines: Vec<&str> = output.lines().filter(|l| l.starts_with(before)).collect();
        if lines.len() != 1 {
            problems.push(format!("{messages}: not one line of {key:?} in\n{output}"));
            continue;
        }
        let line = lines[0];
        // What to do: the end of the line, as the locale words it.
        if !line.ends_with(after.trim_end()) {
            problems.push(format!("{messages}: {line}"));
        }
        let english = english_words(line);
        if !english.is_empty() {
            problems.push(format!("{messages}: {english:?} in {line}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The microphone's error was cpal's English text pasted into the line
/// ("Kein Mikrofon verwendbar (The requested audio device is not
/// available. It may have been disconnected.)"): on a machine without a
/// microphone, `--plain --voice` says why in the player's language, and
/// still what to do.
#[test]
fn the_no_microphone_line_is_in_the_players_language() {
    one_line_in_three_languages(MsgKey::VoiceNoMicrophone, false);
}

/// libespeak-ng that cannot be loaded was said with the system's English
/// words ("libespeak-ng kann nicht geladen werden (/nonexistent/…:
/// cannot open shared object file: No such file or directory)").
#[test]
fn the_no_speech_library_line_is_in_the_players_language() {
    one_line_in_three_languages(MsgKey::SpeechNoLibrary, true);
}

/// `annabella -l de announce e4`, the locale (or another option of the
/// play screen) before the command's name, was refused with "This command
/// line cannot be read." in every language: nothing said which word was
/// wrong or what to do. The refusal names the option and the command, in
/// the user's language; the command line it points to works.
#[test]
fn an_option_before_the_commands_name_is_named() {
    let mut problems = Vec::new();
    for code in ["de", "ko", "ar", "he", "pl", "el"] {
        let data = tempfile::tempdir().unwrap();
        let d = data.path();
        let unreadable = word(code, MsgKey::CliOther);
        for (args, command) in [
            (vec!["-l", code, "announce", "e4"], "announce"),
            (
                vec!["--locale", code, "config", "set", "rate", "20"],
                "config",
            ),
            (vec!["-l", code, "models", "list"], "models"),
        ] {
            let o = run_in(d, &args, "");
            let output = text(&o);
            let english = if code == "de" || code == "ko" || code == "ar" {
                english_words(&output)
            } else {
                Vec::new()
            };
            if o.status.success()
                || output.contains(&unreadable)
                || !output.contains("--locale")
                || !output.contains(&format!("annabella {command} --help"))
                || !english.is_empty()
            {
                problems.push(format!("{code} {args:?}: {english:?} in {output}"));
            }
        }
        // Liveness twin: the option after the command's name is read.
        let o = run_in(d, &["announce", "-l", code, "e4"], "");
        if !o.status.success() || o.stdout.is_empty() {
            problems.push(format!("{code} announce -l {code} e4: {}", text(&o)));
        }
    }
    // A word that is no command after an option: named as such.
    let data = tempfile::tempdir().unwrap();
    let o = run_in(data.path(), &["-l", "de", "frobnicate"], "");
    let said = text(&o);
    if !said.contains("frobnicate") || said.contains(&word("de", MsgKey::CliOther)) {
        problems.push(format!("-l de frobnicate: {said}"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
