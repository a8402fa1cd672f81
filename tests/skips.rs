//! A skipped test cannot hide a failure: the skip is reported on the
//! terminal next to the test's line (not only in the captured output,
//! which `cargo test` swallows for a passing test), naming what is missing, and under
//! `ANNABELLA_REQUIRE_E2E=1` (as `make test` runs) it is a failure.

mod common;

use std::process::Command;

/// Skips when `ANNABELLA_SKIP_PROBE` is set (only the test below sets it,
/// running this test binary again as a child process).
#[test]
fn probe_that_skips() {
    if std::env::var_os("ANNABELLA_SKIP_PROBE").is_none() {
        return;
    }
    common::skip("the probe tool is missing");
}

#[test]
fn a_skip_is_reported_in_the_test_output_and_fails_when_e2e_is_required() {
    let me = std::env::current_exe().expect("the test binary");
    let run = |require: &str| {
        Command::new(&me)
            .args(["probe_that_skips", "--exact", "--test-threads=1"])
            .env("ANNABELLA_SKIP_PROBE", "1")
            .env("ANNABELLA_REQUIRE_E2E", require)
            .output()
            .expect("the test binary runs")
    };
    // Not required: the test passes, and the terminal (stderr, which the
    // harness does not capture) says it skipped and why.
    let quiet = run("0");
    let out = String::from_utf8_lossy(&quiet.stdout);
    let err = String::from_utf8_lossy(&quiet.stderr);
    assert!(quiet.status.success(), "{out}{err}");
    assert!(
        err.lines()
            .any(|l| l == "skipped: the probe tool is missing"),
        "{out}{err}"
    );
    assert!(out.contains("1 passed"), "{out}");
    // Required: the same test fails, naming what is missing.
    let strict = run("1");
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&strict.stdout),
        String::from_utf8_lossy(&strict.stderr)
    );
    assert!(!strict.status.success(), "{out}");
    assert!(out.contains("1 failed"), "{out}");
    assert!(
        out.contains("not run (ANNABELLA_REQUIRE_E2E=1): the probe tool is missing"),
        "{out}"
    );
}
