//! The microphone's audio callback (issue 23 item 1): what runs on the
//! device's real-time thread for each block must neither allocate nor take
//! a lock shared with another thread. A counting global allocator counts
//! the allocations made on this thread while the callback's code runs on
//! 48 kHz stereo blocks of odd sizes (as devices deliver them); the
//! samples must still arrive, converted, on the other side.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::mpsc::channel;

use annabella::voice::mic::capture_pair;

struct Counting;

thread_local! {
    /// Counting on this thread (only the callback's code is counted).
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    /// Allocations (and reallocations) counted on this thread.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    let _ = COUNTING.try_with(|c| {
        if c.get() {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        }
    });
}

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made on this thread by `f`.
fn allocations(f: impl FnOnce()) -> usize {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.with(Cell::get)
}

/// Block sizes (frames) as devices deliver them: odd, changing, some tiny.
const BLOCKS: [usize; 8] = [441, 1, 1023, 17, 4097, 333, 960, 2];

/// Two seconds of 48 kHz stereo speech-like sound (a 300 Hz tone).
fn stereo() -> Vec<f32> {
    (0..2 * 48_000)
        .flat_map(|i| {
            let s =
                (0.3 * (2.0 * std::f64::consts::PI * 300.0 * f64::from(i) / 48_000.0).sin()) as f32;
            [s, s]
        })
        .collect()
}

#[test]
fn the_microphone_callback_allocates_nothing_and_the_audio_arrives() {
    let audio = stereo();
    // As the play screen's voice worker opens it: each chunk goes on to
    // the worker, from the capture thread (here this thread, after the
    // counted callbacks).
    let (tx, rx) = channel::<Vec<i16>>();
    let (mut callback, mut capture) = capture_pair(48_000, 2, 2 * 48_000, move |chunk, _| {
        let _ = tx.send(chunk);
    })
    .expect("a converter");
    let mut rest = &audio[..];
    let mut n_blocks = 0;
    let counted = allocations(|| {
        for n in BLOCKS.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (block, r) = rest.split_at((2 * n).min(rest.len()));
            callback.block(block);
            rest = r;
            n_blocks += 1;
        }
    });
    capture.drain();
    let got: usize = rx.try_iter().map(|c| c.len()).sum();
    assert_eq!(
        counted, 0,
        "the callback allocated {counted} times in {n_blocks} blocks"
    );
    // Liveness: two seconds in, two seconds out at 16 kHz (less the
    // converter's latency).
    assert!(got + 15 * 16 >= 2 * 16_000, "{got} samples came out");
}

/// What the callback runs, read from its source: nothing that takes a
/// lock, sends on a channel, allocates or prints (the counting test above
/// sees allocations only; a lock shared with the UI thread would not show
/// there).
#[test]
fn the_microphone_callback_takes_no_lock_and_sends_nothing() {
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/voice/mic.rs"))
        .expect("src/voice/mic.rs");
    let start = source
        .find("impl CallbackSide {")
        .expect("the callback's side (impl CallbackSide)");
    let body = &source[start..];
    let body = &body[..body.find("\n}\n").expect("its end")];
    assert!(body.contains("fn block"), "{body}");
    for banned in [
        "lock(", "Mutex", "RwLock", "send(", "Vec", "to_vec", "collect", "format!", "print",
        "Condvar", "sleep",
    ] {
        assert!(
            !body.contains(banned),
            "the callback uses {banned}:\n{body}"
        );
    }
    // The callback given to cpal is that method alone.
    assert!(source.contains("move |data: &[S], _: &cpal::InputCallbackInfo| side.block(data)"));
}
