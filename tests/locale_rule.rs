//! One locale rule for every command (issue 20): `--locale`, else the
//! settings file's `locale`, else fide. `announce` and `parse` ignored the
//! settings file; `resume`, `export` and `models` spoke English by default.

mod common;

use std::path::Path;
use std::process::Output;

use annabella::locale::MsgKey;
use annabella::vocab::{Style, Vocabulary};
use shakmaty::Chess;
use shakmaty::san::San;

/// Runs the binary with a settings file holding `settings` (none if
/// empty) in a fresh settings folder.
fn run(settings: &str, args: &[&str]) -> Output {
    let data = tempfile::tempdir().unwrap();
    if !settings.is_empty() {
        let dir = data.path().join("annabella");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), settings).unwrap();
    }
    common::annabella(args, data.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).trim().to_owned()
}

/// Nf3 from the start, announced in `code`.
fn knight(code: &str) -> String {
    let pos = Chess::default();
    let m = San::from_ascii(b"Nf3").unwrap().to_move(&pos).unwrap();
    Vocabulary::builtin(code)
        .unwrap()
        .announce(&pos, m, Style::Short)
        .display
}

fn message(code: &str, key: MsgKey, args: &[(&str, &str)]) -> String {
    annabella::locale::builtin(code).unwrap().message(key, args)
}

/// A message's text up to its first placeholder.
fn head(code: &str, key: MsgKey) -> String {
    let m = message(code, key, &[]);
    m.split('{').next().unwrap().trim().to_owned()
}

#[test]
fn announce_and_parse_take_the_settings_files_locale() {
    assert_eq!(
        out(&run("locale = 'en'\n", &["announce", "Nf3"])),
        knight("en")
    );
    assert_eq!(out(&run("", &["announce", "Nf3"])), knight("fide"));
    // The command line wins.
    assert_eq!(
        out(&run("locale = 'en'\n", &["announce", "-l", "de", "Nf3"])),
        knight("de")
    );
    let said = knight("en");
    let o = run("locale = 'en'\n", &["parse", &said]);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(out(&o), "g1f3 Nf3");
    // Its twin: without the file the words are fide's, and English ones
    // are not understood.
    assert!(!run("", &["parse", &said]).status.success());
    assert_eq!(out(&run("", &["parse", &knight("fide")])), "g1f3 Nf3");
}

#[test]
fn resume_export_and_models_speak_fide_by_default_and_the_files_locale() {
    let missing = Path::new("/nonexistent-annabella/game.jsonl");
    let m = missing.display().to_string();
    for (settings, code) in [
        ("", "de"),
        ("locale = 'ko'\n", "ko"),
        ("locale = 'ar'\n", "ar"),
    ] {
        // resume and export: a journal that is not there.
        for cmd in ["resume", "export"] {
            let o = run(settings, &[cmd, &m]);
            assert!(!o.status.success());
            let e = err(&o);
            let english = message(
                "en",
                MsgKey::JournalOpenFailed,
                &[("file", &m), ("error", "")],
            );
            let head = english.split(&m).next().unwrap();
            assert!(
                !e.contains(head.trim()) || head.trim().is_empty(),
                "{cmd} {settings:?}: English: {e}"
            );
            let want = message(
                code,
                MsgKey::JournalOpenFailed,
                &[("file", &m), ("error", "")],
            );
            let want_head = want.split(&m).next().unwrap().trim();
            assert!(e.contains(want_head), "{cmd} {settings:?}: not {code}: {e}");
        }
        // models: the list's header.
        let o = run(settings, &["models", "list"]);
        let header = head(code, MsgKey::ModelsHeader);
        assert!(!header.is_empty());
        assert!(
            out(&o).starts_with(&header),
            "models {settings:?}: {}",
            out(&o)
        );
    }
    // The command line wins over the file.
    let o = run("locale = 'ko'\n", &["models", "-l", "pl", "list"]);
    assert!(
        out(&o).starts_with(&head("pl", MsgKey::ModelsHeader)),
        "{}",
        out(&o)
    );
}

#[test]
fn replay_takes_the_settings_files_locale() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    std::fs::write(&pgn, "1. Nf3 *\n").unwrap();
    let p = pgn.to_str().unwrap();
    let en = out(&run("locale = 'en'\n", &["replay", p]));
    assert!(en.contains(&knight("en")), "{en}");
    let fide = out(&run("", &["replay", p]));
    assert!(fide.contains(&knight("fide")), "{fide}");
}
