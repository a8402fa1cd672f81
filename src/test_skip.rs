//! Unit tests that need a tool outside the crate (Stockfish, python3):
//! when it is missing the test is reported skipped, naming it, on the
//! terminal next to the test's own line, and under
//! `ANNABELLA_REQUIRE_E2E=1` it fails (the same rule and wording as the
//! integration tests' `common::skip`).

/// Reports that the running test skips its checks because of `why` (what
/// is missing): `skipped: <why>` written past the harness's capture, so
/// `cargo test` shows it. Under `ANNABELLA_REQUIRE_E2E=1` the test fails
/// instead.
pub(crate) fn skip(why: &str) {
    use std::io::Write;
    assert!(
        std::env::var("ANNABELLA_REQUIRE_E2E").as_deref() != Ok("1"),
        "not run (ANNABELLA_REQUIRE_E2E=1): {why}"
    );
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    let line = format!("skipped: {why} ({test})\n");
    // Straight to the process's output: print! would be captured.
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(line.as_bytes());
    let _ = out.flush();
}
