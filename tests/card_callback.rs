//! The sound card's output callback (`speech::played::Output::fill`,
//! issue 23): it neither allocates nor waits for the renderer or the
//! front end's loop. A counting global allocator counts every
//! allocation, reallocation and free made on the callback's thread while
//! it fills blocks of odd sizes, stereo, at 48 and 44.1 kHz, while a
//! renderer thread pushes speech into the rings at the same time; and the
//! speech comes out whole and in order (the liveness twin), and a stop
//! cuts it at once, still without allocating.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};

use annabella::speech::played::{Played, rings};

struct Counting;

thread_local! {
    /// Allocations on this thread while counting (`None`: not counting).
    static COUNT: Cell<Option<usize>> = const { Cell::new(None) };
}

fn note() {
    let _ = COUNT.try_with(|c| {
        if let Some(n) = c.get() {
            c.set(Some(n + 1));
        }
    });
}

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note();
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// `f`'s result and how many allocations it made on this thread.
fn counted<R>(f: impl FnOnce() -> R) -> (R, usize) {
    COUNT.with(|c| c.set(Some(0)));
    let r = f();
    let n = COUNT.with(|c| c.replace(None)).unwrap_or(0);
    (r, n)
}

/// The counter counts (else "no allocation" proves nothing).
#[test]
fn the_counter_sees_an_allocation() {
    let (v, n) = counted(|| vec![1u8; 100]);
    assert_eq!(v.len(), 100);
    assert!(n >= 1, "{n}");
}

fn speech_at(k: usize) -> f32 {
    // A ramp that never repeats within the test and is never silence.
    ((k % 20_000) + 1) as f32 / 40_000.0
}

fn callback_plays_everything_without_allocating(rate: u32, blocks: &[usize]) {
    let t0 = Instant::now();
    let played = Played::new(t0);
    let (mut feed, mut output, progress) = rings(played.clone());
    let relay = annabella::wake::Relay::spawn(annabella::wake::Waker::default());
    let ping = relay.ping();
    let id = progress.ask();
    // 3 s of speech: more than the rings hold, so the renderer waits for
    // the callback as it does for a long reply.
    let total = rate as usize * 3;
    let renderer = std::thread::spawn(move || {
        let mut k = 0;
        while k < total {
            let n = 333.min(total - k);
            let device: Vec<f32> = (k..k + n).map(speech_at).collect();
            let reference = vec![0.25f32; n * 16_000 / rate as usize];
            assert!(feed.push(id, &device, &reference), "still wanted");
            k += n;
        }
        feed.done(id, true);
        feed
    });
    let mut heard = Vec::with_capacity(total + 10_000);
    let mut allocations = 0;
    let mut at = t0;
    let mut began = 0;
    let mut ended = false;
    let mut out = vec![0.0f32; 2 * blocks.iter().max().copied().unwrap_or(1)];
    let mut mic = vec![0i16; 160];
    let start = Instant::now();
    let mut i = 0;
    while !ended && start.elapsed() < Duration::from_secs(60) {
        let frames = blocks[i % blocks.len()];
        i += 1;
        let block = &mut out[..2 * frames];
        at += Duration::from_nanos(frames as u64 * 1_000_000_000 / u64::from(rate));
        let (filled, n) = counted(|| {
            let filled = output.fill(block, 2, rate, at);
            if filled.began || filled.ended {
                ping.ping();
            }
            // The microphone's side reads the reference the same way.
            played.pull_into(&mut mic, at);
            filled
        });
        allocations += n;
        began += usize::from(filled.began);
        ended = filled.ended;
        for frame in block.chunks(2) {
            assert_eq!(frame[0], frame[1], "both channels the same");
            if frame[0] != 0.0 {
                heard.push(frame[0]);
            }
        }
        if heard.is_empty() || heard.len() >= total {
            // Nothing yet or all there: give the renderer time.
            std::thread::sleep(Duration::from_micros(200));
        }
    }
    let mut feed = renderer.join().expect("the renderer");
    assert_eq!(allocations, 0, "the callback allocated {allocations} times");
    assert!(ended, "the utterance ended");
    assert_eq!(began, 1, "began once");
    assert_eq!(heard.len(), total, "every sample played once");
    assert!(
        heard.iter().enumerate().all(|(k, &s)| s == speech_at(k)),
        "in order"
    );
    assert!(progress.ended(id));

    // A stop cuts a second utterance at once, without allocating.
    let next = progress.ask();
    let device: Vec<f32> = (0..rate as usize).map(speech_at).collect();
    assert!(feed.push(next, &device, &[0.5; 16_000]));
    let block = &mut out[..2 * blocks[0]];
    let (f, n) = counted(|| output.fill(block, 2, rate, at));
    assert!(f.began && n == 0, "{f:?}, {n} allocations");
    progress.stop();
    let (_, n) = counted(|| output.fill(block, 2, rate, at));
    assert_eq!(n, 0, "dropping the rest allocates nothing");
    assert!(block.iter().all(|&s| s == 0.0), "silence after the stop");
    assert!(!feed.push(next, &[0.1; 8], &[]), "the renderer is told");
}

#[test]
fn at_48_khz_in_odd_blocks_the_callback_plays_all_without_allocating() {
    callback_plays_everything_without_allocating(48_000, &[480, 441, 1_021, 97, 2_048, 513]);
}

#[test]
fn at_44_1_khz_in_odd_blocks_the_callback_plays_all_without_allocating() {
    callback_plays_everything_without_allocating(44_100, &[441, 1_024, 333, 4_097, 17]);
}
