//! The filter keeps speech-like tones, takes noise off, and keeps the
//! length and timing of the audio.

use super::*;

/// Deterministic white noise in [-1, 1).
fn noise(n: usize, seed: u64) -> Vec<f32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

fn tone(n: usize, hz: f32, amp: f32) -> Vec<f32> {
    (0..n)
        .map(|i| amp * (2.0 * std::f32::consts::PI * hz * i as f32 / 16_000.0).sin())
        .collect()
}

fn to_i16(x: &[f32]) -> Vec<i16> {
    x.iter()
        .map(|s| s.round().clamp(-32768.0, 32767.0) as i16)
        .collect()
}

fn filtered(x: &[i16], chunk: usize) -> Vec<i16> {
    let mut d = Denoiser::default();
    let mut out = Vec::new();
    for c in x.chunks(chunk) {
        out.extend(d.push(c));
    }
    out.extend(d.finish());
    out
}

fn energy(x: &[f32]) -> f32 {
    x.iter().map(|s| s * s).sum::<f32>()
}

#[test]
fn fft_and_inverse_give_the_signal_back() {
    let x = noise(512, 3);
    let mut re = x.clone();
    let mut im = vec![0.0; 512];
    fft(&mut re, &mut im, false);
    // A real signal: the spectrum is mirrored.
    assert!((re[5] - re[507]).abs() < 1e-3 && (im[5] + im[507]).abs() < 1e-3);
    fft(&mut re, &mut im, true);
    for (a, b) in x.iter().zip(&re) {
        assert!((a - b).abs() < 1e-4);
    }
}

#[test]
fn a_noisy_room_is_filtered_and_delayed_by_a_half_frame_in_any_chunks() {
    for len in [0, 100, 256, 1000, 16_000] {
        let x = to_i16(&noise(len, 5).iter().map(|s| s * 2000.0).collect::<Vec<_>>());
        let a = filtered(&x, 160);
        let b = filtered(&x, 1600);
        let delay = if len >= 256 { HOP } else { 0 };
        assert_eq!(a.len(), len + delay, "{len}");
        assert_eq!(a, b, "{len}");
        if len > 2000 {
            assert_ne!(a[HOP..], x[..]);
        }
    }
}

#[test]
fn a_quiet_room_passes_unchanged() {
    // A faint floor, then a tone: nothing to take off.
    let n = 16_000;
    let mut x: Vec<f32> = noise(n, 9).iter().map(|s| s * 8.0).collect();
    for (i, s) in x.iter_mut().enumerate().skip(4000) {
        *s += 4000.0 * (2.0 * std::f32::consts::PI * 300.0 * i as f32 / 16_000.0).sin();
    }
    let x = to_i16(&x);
    assert_eq!(filtered(&x, 160), x);
    assert_eq!(filtered(&x, 4000), x);
}

#[test]
fn noise_alone_is_turned_down_and_a_tone_in_it_is_kept() {
    let n = 32_000;
    let room: Vec<f32> = noise(n, 7).iter().map(|s| s * 1000.0).collect();
    // Half a second of room, then a tone in the room.
    let mut speech = vec![0.0; 8000];
    speech.extend(tone(n - 8000, 500.0, 3000.0));
    let mixed: Vec<f32> = room.iter().zip(&speech).map(|(a, b)| a + b).collect();
    let out: Vec<f32> = filtered(&to_i16(&mixed), 320)[HOP..]
        .iter()
        .map(|&s| f32::from(s))
        .collect();
    // In the room alone (after the lead), at least 10 dB less.
    let (lead_in, lead_out) = (energy(&mixed[3200..8000]), energy(&out[3200..8000]));
    assert!(lead_out < lead_in / 10.0, "{lead_in} {lead_out}");
    // The tone: the error to the clean tone is at least 6 dB below the
    // noise there was.
    let err: Vec<f32> = out[12_000..n]
        .iter()
        .zip(&speech[12_000..n])
        .map(|(a, b)| a - b)
        .collect();
    assert!(
        energy(&err) < energy(&room[12_000..n]) / 4.0,
        "{} {}",
        energy(&err),
        energy(&room[12_000..n])
    );
}
