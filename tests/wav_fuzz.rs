//! Fuzzing the WAV reader (property tests): random bytes, valid files with
//! mutated headers and bodies, and headers built from arbitrary fields
//! never panic, never allocate in proportion to a length a header claims
//! (the allocations of each read are counted), and do bounded work (an
//! endless input is read no further than the duration limit).
//!
//! 256 cases per property in `make test`; `make fuzz` runs many more
//! (`PROPTEST_CASES`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::{Cursor, Read, Seek, SeekFrom};

use annabella::voice::audio::{MAX_CHANNELS, MAX_RATE, MAX_SECONDS, WavError, read_wav_from};
use proptest::prelude::*;

/// Counts the bytes this thread has allocated and not freed, and their peak.
struct Counting;

thread_local! {
    static NOW: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn add(n: usize) {
    let _ = NOW.try_with(|now| {
        let v = now.get().saturating_add(n);
        now.set(v);
        let _ = PEAK.try_with(|p| p.set(p.get().max(v)));
    });
}

fn sub(n: usize) {
    let _ = NOW.try_with(|now| now.set(now.get().saturating_sub(n)));
}

// SAFETY: every call is passed on to the system allocator unchanged; only
// thread-local counters (no allocation) are updated beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size());
        // SAFETY: as the caller's contract.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        sub(layout.size());
        // SAFETY: as the caller's contract.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(new_size);
        sub(layout.size());
        // SAFETY: as the caller's contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Reads `bytes` and returns the result and the peak of the bytes
/// allocated during the read.
fn read_counting(bytes: &[u8]) -> (Result<Vec<i16>, WavError>, usize) {
    let before = NOW.with(Cell::get);
    PEAK.with(|p| p.set(before));
    let r = read_wav_from(Cursor::new(bytes));
    let peak = PEAK.with(Cell::get) - before;
    (r, peak)
}

/// What a read of `len` input bytes may allocate at most: the read buffer
/// (4096 frames of at most 8 channels of 8 bytes), and a few bytes of mono
/// audio and its resampled copies per input byte, never more.
fn allowed(len: usize) -> usize {
    (4096 * 64 * 2) + 64 * len
}

fn header(tag: u16, channels: u16, rate: u32, bits: u16, block: u16, claim: u32) -> Vec<u8> {
    let mut v = b"RIFF\xff\xff\xff\xffWAVEfmt ".to_vec();
    v.extend(16u32.to_le_bytes());
    v.extend(tag.to_le_bytes());
    v.extend(channels.to_le_bytes());
    v.extend(rate.to_le_bytes());
    v.extend(rate.wrapping_mul(u32::from(block)).to_le_bytes());
    v.extend(block.to_le_bytes());
    v.extend(bits.to_le_bytes());
    v.extend(b"data");
    v.extend(claim.to_le_bytes());
    v
}

fn valid() -> Vec<u8> {
    let data: Vec<u8> = (0..1600i16)
        .flat_map(|i| ((i % 50) * 300).to_le_bytes())
        .collect();
    let mut v = header(1, 1, 16_000, 16, 2, data.len() as u32);
    v.extend(data);
    v
}

fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    let (r, peak) = read_counting(bytes);
    prop_assert!(
        peak <= allowed(bytes.len()),
        "{peak} bytes allocated for {} input bytes ({r:?})",
        bytes.len()
    );
    if let Ok(samples) = &r {
        // At most the duration limit at 16 kHz.
        prop_assert!(samples.len() <= MAX_SECONDS as usize * 16_000);
    }
    Ok(())
}

proptest! {
    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        check(&bytes)?;
    }

    #[test]
    fn random_bytes_after_a_riff_header(tail in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let mut bytes = b"RIFF\0\0\0\0WAVE".to_vec();
        bytes.extend(tail);
        check(&bytes)?;
    }

    #[test]
    fn mutated_valid_files(
        edits in proptest::collection::vec((0usize..3244, any::<u8>()), 0..12),
        field in proptest::option::of((prop::sample::select(vec![4usize, 16, 22, 24, 28, 32, 34, 40]), any::<u32>())),
        cut in proptest::option::of(0usize..3244),
    ) {
        let mut bytes = valid();
        for (at, b) in edits {
            if at < bytes.len() {
                bytes[at] = b;
            }
        }
        if let Some((at, v)) = field {
            let width = if matches!(at, 22 | 32 | 34) { 2 } else { 4 };
            bytes[at..at + width].copy_from_slice(&v.to_le_bytes()[..width]);
        }
        if let Some(c) = cut {
            bytes.truncate(c);
        }
        check(&bytes)?;
    }

    #[test]
    fn arbitrary_header_fields(
        tag in prop::sample::select(vec![0u16, 1, 2, 3, 6, 7, 0xFFFE, 0x1234]),
        channels in prop::sample::select(vec![0u16, 1, 2, 3, MAX_CHANNELS, MAX_CHANNELS + 1, 255, u16::MAX]),
        rate in prop::sample::select(vec![0u32, 1, 100, 7_999, 8_000, 16_000, 44_100, MAX_RATE, MAX_RATE + 1, u32::MAX]),
        bits in prop::sample::select(vec![0u16, 1, 8, 12, 16, 24, 32, 64, u16::MAX]),
        block in any::<u16>(),
        claim in prop::sample::select(vec![0u32, 1, 1000, 0x7FFF_FFFF, u32::MAX]),
        data in proptest::collection::vec(any::<u8>(), 0..2048),
    ) {
        let mut bytes = header(tag, channels, rate, bits, block, claim);
        bytes.extend(data);
        check(&bytes)?;
    }
}

/// A header followed by an endless stream of zeros, counting what is read.
struct Endless {
    head: Vec<u8>,
    at: u64,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(1 << 16);
        for (i, b) in buf[..n].iter_mut().enumerate() {
            *b = usize::try_from(self.at)
                .ok()
                .and_then(|at| self.head.get(at + i).copied())
                .unwrap_or(0);
        }
        self.at += n as u64;
        Ok(n)
    }
}

impl Seek for Endless {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        if let SeekFrom::Current(d) = pos {
            self.at = self.at.saturating_add_signed(d);
        }
        Ok(self.at)
    }
}

#[test]
fn an_endless_input_is_read_no_further_than_the_duration_limit() {
    // An unknown data length ("streaming"): stereo 16 bit at 48 kHz.
    let head = header(1, 2, 48_000, 16, 4, u32::MAX);
    let mut input = Endless { head, at: 0 };
    let r = read_wav_from(&mut input);
    assert!(matches!(r, Err(WavError::TooLong)), "{r:?}");
    let most = u64::from(MAX_SECONDS + 1) * 48_000 * 4 + (1 << 20);
    assert!(input.at <= most, "read {} bytes", input.at);
    // Chunks of length zero for ever: refused after a bounded number.
    let mut chunks = Endless {
        head: b"RIFF\0\0\0\0WAVE".to_vec(),
        at: 0,
    };
    let r = read_wav_from(&mut chunks);
    assert!(matches!(r, Err(WavError::BadHeader)), "{r:?}");
    assert!(chunks.at < 1 << 20, "read {} bytes", chunks.at);
}

#[test]
fn a_header_claiming_four_gigabytes_allocates_only_for_what_is_there() {
    // On main 0xffffffff reserved 17 GB (`Vec::with_capacity` of the
    // claim): now it means "unknown", and what is there is read.
    let mut bytes = header(1, 1, 16_000, 16, 2, u32::MAX);
    bytes.extend(vec![0u8; 3200]);
    let (r, peak) = read_counting(&bytes);
    assert_eq!(r.map(|s| s.len()).ok(), Some(1600));
    assert!(peak <= allowed(bytes.len()), "{peak} bytes");
    // 59 seconds claimed, a tenth of a second there: cut short.
    let mut bytes = header(1, 1, 16_000, 16, 2, 59 * 32_000);
    bytes.extend(vec![0u8; 3200]);
    let (r, peak) = read_counting(&bytes);
    assert!(matches!(r, Err(WavError::Truncated(1600))), "{r:?}");
    assert!(peak <= allowed(bytes.len()), "{peak} bytes");
}
