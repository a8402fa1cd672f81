//! **Test only**: a timeline of what the program did, for measuring it end
//! to end from outside (`examples/e2e_latency`). With env
//! [`TRACE_ENV`] naming a file, each event is appended there as one line,
//! `<CLOCK_MONOTONIC nanoseconds> <kind> <detail>`, the clock every
//! process on the machine shares. Without it nothing is done. Never
//! called from an audio callback.

use std::io::Write;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// The environment variable naming the trace file.
pub const TRACE_ENV: &str = crate::environment::TRACE;

static FILE: OnceLock<Option<Mutex<std::fs::File>>> = OnceLock::new();

fn file() -> Option<&'static Mutex<std::fs::File>> {
    FILE.get_or_init(|| {
        let path = crate::environment::get().trace.clone()?;
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()
            .map(Mutex::new)
    })
    .as_ref()
}

/// `true` when a trace is written.
pub fn on() -> bool {
    file().is_some()
}

/// CLOCK_MONOTONIC now, in nanoseconds.
pub fn mono_now() -> u128 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime(2) with a valid timespec.
    unsafe {
        libc::clock_gettime(libc::CLOCK_MONOTONIC, &raw mut ts);
    }
    u128::try_from(ts.tv_sec).unwrap_or(0) * 1_000_000_000 + u128::try_from(ts.tv_nsec).unwrap_or(0)
}

/// CLOCK_MONOTONIC at `at`, in nanoseconds.
pub fn mono_of(at: Instant) -> u128 {
    let now = Instant::now();
    let mono = mono_now();
    if at <= now {
        mono.saturating_sub(now.duration_since(at).as_nanos())
    } else {
        mono + at.duration_since(now).as_nanos()
    }
}

/// An event now.
pub fn event(kind: &str, detail: &str) {
    if file().is_some() {
        write(mono_now(), kind, detail);
    }
}

/// An event that happened at `at`.
pub fn event_at(at: Instant, kind: &str, detail: &str) {
    if file().is_some() {
        write(mono_of(at), kind, detail);
    }
}

fn write(mono: u128, kind: &str, detail: &str) {
    let Some(f) = file() else { return };
    let line = format!("{mono} {kind} {}\n", detail.replace('\n', " "));
    let mut f = f.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let _ = f.write_all(line.as_bytes());
}
