//! Configuration from the process environment, read once at start-up
//! into one typed value, [`Environment`]. `main` reads it first
//! ([`init`]); every adapter takes what it needs from [`get`] and none
//! reads the environment itself. A library user or a unit test that never
//! called [`init`] gets the environment as it was at the first [`get`].
//!
//! The test-only hooks are here too, named as such: they change nothing
//! unless a test sets them.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Set by the full screen's supervisor for the child it runs.
pub const SUPERVISED: &str = "ANNABELLA_SUPERVISED";
/// Test only: the supervised child ends itself this way (`segv`, `kill`,
/// else abort) once the screen is up.
pub const TEST_ABORT: &str = "ANNABELLA_TEST_ABORT";
/// Test only: a file the timeline of what the program did is appended to.
pub const TRACE: &str = "ANNABELLA_TRACE";
/// Diagnostic: `off` switches the voicing check off.
pub const VOICING: &str = "ANNABELLA_VOICING";
/// Where installed speech models live (default: the user's data folder).
pub const MODELS_DIR: &str = "ANNABELLA_MODELS_DIR";
/// The speech model folder when `--model` is not given.
pub const MODEL: &str = "ANNABELLA_MODEL";
/// Barge-in: `off` (detector without cancelling), `mute`, else cancel.
pub const ECHO_CANCEL: &str = "ANNABELLA_ECHO_CANCEL";
/// `1`: the microphone is not muted while annabella speaks.
pub const NO_SELF_MUTE: &str = "ANNABELLA_NO_SELF_MUTE";
/// Test only: `virtual`, the card speaker plays to a clocked virtual card.
pub const TEST_OUTPUT: &str = "ANNABELLA_TEST_OUTPUT";
/// The espeak-ng program (default `espeak-ng`).
pub const ESPEAK: &str = "ANNABELLA_ESPEAK";
/// The espeak-ng library the card speaker synthesizes with in process
/// (default `libespeak-ng.so.1`).
pub const LIBESPEAK: &str = "ANNABELLA_LIBESPEAK";

/// Everything annabella takes from the environment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    /// `TERM=dumb`: no full screen.
    pub term_dumb: bool,
    /// This process is the full screen's supervised child.
    pub supervised: bool,
    /// Test only: how the supervised child is to end itself.
    pub test_abort: Option<OsString>,
    /// Test only: the trace file.
    pub trace: Option<PathBuf>,
    /// The voicing check is switched off.
    pub voicing_off: bool,
    /// Where installed models live, when given.
    pub models_dir: Option<PathBuf>,
    /// The speech model folder, when given.
    pub model: Option<PathBuf>,
    /// The barge-in mode asked for (`off`, `mute`, anything else).
    pub echo_cancel: Option<String>,
    /// The microphone stays open while annabella speaks.
    pub no_self_mute: bool,
    /// Test only: the card speaker plays to a virtual card.
    pub virtual_output: bool,
    /// The espeak-ng program, when given.
    pub espeak: Option<String>,
    /// The espeak-ng library, when given.
    pub libespeak: Option<String>,
    /// The session's language (`LC_ALL`, `LC_MESSAGES`, `LANG`: the first
    /// that is set and not empty).
    pub session_language: Option<String>,
}

impl Environment {
    /// From a lookup of variables (the process's, or a test's map).
    pub fn from_vars(var: impl Fn(&str) -> Option<OsString>) -> Environment {
        let set = |k: &str| var(k).filter(|v| !v.is_empty());
        let text = |k: &str| set(k).and_then(|v| v.into_string().ok());
        Environment {
            term_dumb: text("TERM").is_some_and(|t| t == "dumb"),
            supervised: var(SUPERVISED).is_some(),
            test_abort: var(TEST_ABORT),
            trace: set(TRACE).map(PathBuf::from),
            voicing_off: text(VOICING).is_some_and(|v| v == "off"),
            models_dir: set(MODELS_DIR).map(PathBuf::from),
            model: set(MODEL).map(PathBuf::from),
            echo_cancel: text(ECHO_CANCEL),
            no_self_mute: text(NO_SELF_MUTE).is_some_and(|v| v == "1"),
            virtual_output: text(TEST_OUTPUT).is_some_and(|v| v == "virtual"),
            espeak: text(ESPEAK),
            libespeak: text(LIBESPEAK),
            session_language: ["LC_ALL", "LC_MESSAGES", "LANG"]
                .iter()
                .find_map(|k| text(k)),
        }
    }

    /// The process's environment now.
    pub fn from_process() -> Environment {
        Environment::from_vars(|k| std::env::var_os(k))
    }
}

static CURRENT: OnceLock<Environment> = OnceLock::new();

/// Reads the process's environment once (first thing in `main`).
pub fn init() -> &'static Environment {
    get()
}

/// The environment read at start-up.
pub fn get() -> &'static Environment {
    CURRENT.get_or_init(Environment::from_process)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> Environment {
        let map: HashMap<String, OsString> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), OsString::from(*v)))
            .collect();
        Environment::from_vars(|k| map.get(k).cloned())
    }

    #[test]
    fn nothing_set_is_the_default() {
        assert_eq!(env(&[]), Environment::default());
    }

    #[test]
    fn each_variable_reaches_its_field() {
        let e = env(&[
            ("TERM", "dumb"),
            (SUPERVISED, "1"),
            (TEST_ABORT, "segv"),
            (TRACE, "/tmp/t"),
            (VOICING, "off"),
            (MODELS_DIR, "/m"),
            (MODEL, "/m/ko"),
            (ECHO_CANCEL, "mute"),
            (NO_SELF_MUTE, "1"),
            (TEST_OUTPUT, "virtual"),
            (ESPEAK, "/bin/espeak-ng"),
            (LIBESPEAK, "/lib/libespeak-ng.so.1"),
            ("LANG", "de_DE.UTF-8"),
        ]);
        assert!(e.term_dumb && e.supervised && e.voicing_off && e.no_self_mute);
        assert!(e.virtual_output);
        assert_eq!(e.test_abort, Some(OsString::from("segv")));
        assert_eq!(e.trace, Some(PathBuf::from("/tmp/t")));
        assert_eq!(e.models_dir, Some(PathBuf::from("/m")));
        assert_eq!(e.model, Some(PathBuf::from("/m/ko")));
        assert_eq!(e.echo_cancel.as_deref(), Some("mute"));
        assert_eq!(e.espeak.as_deref(), Some("/bin/espeak-ng"));
        assert_eq!(e.libespeak.as_deref(), Some("/lib/libespeak-ng.so.1"));
        assert_eq!(e.session_language.as_deref(), Some("de_DE.UTF-8"));
    }

    #[test]
    fn empty_values_count_as_unset_and_other_values_as_off() {
        let e = env(&[
            ("TERM", "xterm"),
            (MODEL, ""),
            (VOICING, "on"),
            (NO_SELF_MUTE, "0"),
            (TEST_OUTPUT, "card"),
            ("LC_ALL", ""),
            ("LC_MESSAGES", "pl_PL"),
            ("LANG", "de_DE"),
        ]);
        assert!(!e.term_dumb && !e.voicing_off && !e.no_self_mute && !e.virtual_output);
        assert_eq!(e.model, None);
        assert_eq!(e.session_language.as_deref(), Some("pl_PL"));
    }

    /// No adapter reads the environment itself: outside this module (and
    /// the test-only skip helper), no source file calls `env::var`.
    #[test]
    fn only_this_module_reads_the_environment() {
        fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                    continue;
                }
                let name = p.to_string_lossy().into_owned();
                if !name.ends_with(".rs")
                    || name.ends_with("/environment.rs")
                    || name.ends_with("/test_skip.rs")
                    || name.ends_with("tests.rs")
                    || name.contains("/tests/")
                {
                    continue;
                }
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                for (n, line) in text.lines().enumerate() {
                    let code = line.split("//").next().unwrap_or("");
                    if code.contains("env::var(") || code.contains("env::var_os(") {
                        out.push(format!("{name}:{}: {}", n + 1, line.trim()));
                    }
                }
            }
        }
        let mut found = Vec::new();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        walk(&root.join("src"), &mut found);
        walk(&root.join("crates/annabella-core/src"), &mut found);
        // The core's property tests take their case count from proptest's
        // own variable.
        found.retain(|l| !l.contains("PROPTEST_CASES"));
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}
