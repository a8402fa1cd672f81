//! The bash completion, loaded in bash and asked as bash asks it on Tab:
//! it offers the locale codes and the setting keys, and no hidden test
//! option or subcommand.

mod common;

use std::process::Command;

/// What the completion offers for the words `line` (the last one being
/// completed), from a folder holding `my.toml`.
fn offered(script: &std::path::Path, dir: &std::path::Path, line: &[&str]) -> Vec<String> {
    let words: Vec<String> = line.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source '{}'\n\
         COMP_WORDS=({})\n\
         COMP_CWORD=$((${{#COMP_WORDS[@]}}-1))\n\
         COMPREPLY=()\n\
         _annabella annabella \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        words.join(" ")
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .current_dir(dir)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn bash_completion_offers_locale_codes_setting_keys_and_no_hidden_options() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("annabella.bash");
    let out = Command::new(common::bin())
        .args(["generate", "bash"])
        .output()
        .unwrap();
    assert!(out.status.success());
    std::fs::write(&script, &out.stdout).unwrap();
    std::fs::write(dir.path().join("my.toml"), "").unwrap();
    std::fs::write(dir.path().join("game.pgn"), "").unwrap();
    let codes = annabella::locale::builtin_codes();
    // --locale: every built-in code, and a locale file; no other file.
    for line in [
        &["annabella", "--locale", ""][..],
        &["annabella", "-l", ""],
        &["annabella", "clock", "--locale", ""],
        &["annabella", "review", "-l", ""],
    ] {
        let got = offered(&script, dir.path(), line);
        for c in &codes {
            assert!(got.iter().any(|g| g == c), "{line:?}: {c} not in {got:?}");
        }
        assert!(got.iter().any(|g| g == "my.toml"), "{line:?}: {got:?}");
        assert!(!got.iter().any(|g| g == "game.pgn"), "{line:?}: {got:?}");
    }
    let got = offered(&script, dir.path(), &["annabella", "--locale", "e"]);
    assert_eq!(got, ["en", "el"], "{got:?}");
    // config set / unset: the setting keys.
    let got = offered(&script, dir.path(), &["annabella", "config", "set", ""]);
    for k in annabella::config::Key::ALL {
        assert!(
            got.iter().any(|g| g == k.name()),
            "{} not in {got:?}",
            k.name()
        );
    }
    let got = offered(&script, dir.path(), &["annabella", "config", "unset", "co"]);
    assert_eq!(got, ["control", "countdown"], "{got:?}");
    // No hidden option or subcommand; the visible ones are there.
    let got = offered(&script, dir.path(), &["annabella", "--"]);
    for hidden in ["--room-echo", "--speak-over-ms"] {
        assert!(
            !got.iter().any(|g| g == hidden),
            "{hidden} offered: {got:?}"
        );
    }
    for visible in ["--plain", "--locale", "--warn", "--countdown"] {
        assert!(got.iter().any(|g| g == visible), "{visible} not in {got:?}");
    }
    let got = offered(&script, dir.path(), &["annabella", ""]);
    assert!(!got.iter().any(|g| g == "generate"), "{got:?}");
    assert!(got.iter().any(|g| g == "review"), "{got:?}");
}
