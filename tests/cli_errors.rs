//! The command line's own refusals are in the user's language (issue 19:
//! typed errors worded at the edge): `generate` with something it does not
//! write, and output that cannot be written, were English in every locale.

mod common;

use annabella::locale::{self, MsgKey};
use std::path::Path;
use std::process::Output;

fn run(data: &Path, args: &[&str]) -> Output {
    common::annabella(args, data).output().unwrap()
}

/// The settings file of `data` says `locale = code` (the one-locale rule:
/// the settings file's locale words every message).
fn set_locale(data: &Path, code: &str) {
    let o = run(data, &["config", "set", "locale", code]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn generate_refuses_an_unknown_kind_in_the_settings_locale() {
    for code in ["de", "pl", "ko", "en"] {
        let dir = tempfile::tempdir().unwrap();
        set_locale(dir.path(), code);
        let o = run(dir.path(), &["generate", "bogus"]);
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8_lossy(&o.stderr);
        let want = locale::builtin(code)
            .unwrap()
            .message(MsgKey::CliGenerateUnknown, &[("what", "bogus")]);
        assert_eq!(err.trim_end(), want, "{code}");
        if code != "en" {
            assert!(!err.contains(" not "), "{code}: English left: {err}");
        }
        // Its liveness twin: what generate does know is written.
        let o = run(dir.path(), &["generate", "bash"]);
        assert!(
            o.status.success(),
            "{code}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(String::from_utf8_lossy(&o.stdout).contains("annabella"));
    }
}

#[test]
fn output_that_cannot_be_written_is_said_in_the_settings_locale() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        common::skip("/dev/full is missing");
        return;
    }
    for code in ["de", "el"] {
        let dir = tempfile::tempdir().unwrap();
        set_locale(dir.path(), code);
        let o = common::annabella(&["locales"], dir.path())
            .stdout(std::fs::File::create(full).unwrap())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{code}");
        let err = String::from_utf8_lossy(&o.stderr);
        let l = locale::builtin(code).unwrap();
        let head = l.message(MsgKey::CliOutputFailed, &[("error", "")]);
        assert!(
            err.starts_with(head.trim_end()),
            "{code}: {err:?} does not start with {head:?}"
        );
        assert!(!err.contains("Cannot write"), "{code}: English left: {err}");
    }
}

/// `say` took an option it does not have as text to speak (`--voice-name
/// x` was said aloud): an unknown option is refused like anywhere else,
/// in the user's language, and nothing is said.
#[test]
fn say_refuses_an_option_it_does_not_have() {
    let dir = tempfile::tempdir().unwrap();
    for code in ["de", "en"] {
        let o = run(
            dir.path(),
            &["say", "--plain", "-l", code, "--voice-name", "x", "hallo"],
        );
        assert_eq!(o.status.code(), Some(2), "{code}");
        assert!(o.stdout.is_empty(), "{code}: said {:?}", o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        let want = locale::builtin(code)
            .unwrap()
            .message(MsgKey::CliUnknownArgument, &[("arg", "--voice-name")]);
        assert!(err.contains(&want), "{code}: {err}");
    }
}

/// Its liveness twin: text that starts with '-' is still said after `--`,
/// and plain text needs nothing.
#[test]
fn say_speaks_text_after_double_dash() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["say", "--plain", "-l", "de", "--", "-5", "Grad"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim_end(), "-5 Grad");
    let o = run(dir.path(), &["say", "--plain", "-l", "de", "fünf", "Grad"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim_end(), "fünf Grad");
}
