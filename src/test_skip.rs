//! Unit tests that need a tool outside the crate (Stockfish, python3):
//! when it is missing they are reported skipped on the harness's own
//! output, naming it, and under `ANNABELLA_REQUIRE_E2E=1` they fail.

/// Reports that the running test skips its checks because of `why` (what
/// is missing): a line `SKIPPED <test>: <why>` written past the harness's
/// capture, so `cargo test` shows it. Under `ANNABELLA_REQUIRE_E2E=1` the
/// test fails instead.
pub(crate) fn skip(why: &str) {
    use std::io::Write;
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_owned();
    assert!(
        std::env::var("ANNABELLA_REQUIRE_E2E").as_deref() != Ok("1"),
        "{test}: {why}, and ANNABELLA_REQUIRE_E2E=1 requires it"
    );
    let line = format!("SKIPPED {test}: {why} (with ANNABELLA_REQUIRE_E2E=1 this is a failure)\n");
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(line.as_bytes());
    let _ = out.flush();
}
