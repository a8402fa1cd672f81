//! A simulated room for tests (hidden option `--room-echo`): annabella's
//! speech, rendered by espeak-ng, goes into the same air the microphone
//! hears. [`RoomEcho`] is the speaker: it renders each utterance and puts
//! its samples into the [`Room`]; the voice worker's WAV source
//! ([`crate::voice::live`]) mixes the room into what it plays, in real
//! time, so the announcement reaches the input at the moment annabella
//! speaks it. The utterance lasts as long as its samples are being played
//! into the room.
//!
//! The room is honest about the way from loudspeaker to microphone: what
//! is heard is not a copy of what was played but passes through a
//! [`RoomPath`] (a delay of some tens of milliseconds, a gain, and a short
//! decaying reverberation). The echo canceller
//! ([`crate::voice::echo_cancel`]) is given only what was played (the
//! reference), never the path: it has to learn it, as in a real room.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use super::espeak::EspeakNg;
use super::{Priority, Speaker, SpeechError};
use crate::vocab::Utterance;

/// The way from the loudspeaker to the microphone: an impulse response
/// of a direct sound after `delay_ms` and reflections decaying over
/// `reverb_ms` (pure, deterministic).
#[derive(Debug, Clone, PartialEq)]
pub struct RoomPath {
    /// (delay in samples, gain), sorted by delay.
    taps: Vec<(usize, f32)>,
}

impl Default for RoomPath {
    /// 40 ms to the microphone, half the loudness, 80 ms of reflections.
    fn default() -> RoomPath {
        RoomPath::new(40, 0.5, 80, 7)
    }
}

impl RoomPath {
    /// A direct sound after `delay_ms` at `gain`, then 24 reflections
    /// within `reverb_ms`, decaying, their places and signs drawn from
    /// `seed`.
    pub fn new(delay_ms: u32, gain: f32, reverb_ms: u32, seed: u64) -> RoomPath {
        let delay = delay_ms as usize * 16;
        let mut taps = vec![(delay, gain)];
        let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as f32 / (1u64 << 31) as f32
        };
        let span = (reverb_ms as usize * 16).max(1);
        for _ in 0..24 {
            let at = 16 + (next() * span as f32) as usize;
            let decay = (-(at as f32) / (span as f32 / 3.0)).exp();
            let sign = if next() < 0.5 { -1.0 } else { 1.0 };
            taps.push((delay + at, gain * 0.4 * decay * sign));
        }
        taps.sort_by_key(|t| t.0);
        RoomPath { taps }
    }

    /// Samples of history the path needs.
    pub fn len(&self) -> usize {
        self.taps.last().map_or(0, |t| t.0 + 1)
    }

    /// `false`: a path always has its direct sound.
    pub fn is_empty(&self) -> bool {
        self.taps.is_empty()
    }
}

/// The room's state: what is still to be played, and what was played
/// lately (the reverberation still sounds).
#[derive(Debug)]
struct Air {
    waiting: VecDeque<i16>,
    /// Woken when what was played into the room has been heard.
    waker: crate::wake::Waker,
    path: RoomPath,
    /// What the loudspeaker played, newest last, [`RoomPath::len`] long.
    played: VecDeque<f32>,
}

/// The air of the room: samples (16 kHz mono) waiting to be heard.
#[derive(Debug, Clone)]
pub struct Room {
    air: Arc<Mutex<Air>>,
}

impl Default for Room {
    fn default() -> Room {
        Room::with_path(RoomPath::default())
    }
}

impl Room {
    /// An empty room with the default path.
    pub fn new() -> Room {
        Room::default()
    }

    /// An empty room whose echo takes `path`.
    pub fn with_path(path: RoomPath) -> Room {
        let played = std::iter::repeat_n(0.0, path.len().max(1)).collect();
        Room {
            air: Arc::new(Mutex::new(Air {
                waiting: VecDeque::new(),
                waker: crate::wake::Waker::default(),
                path,
                played,
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Air> {
        self.air.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sound put into the room (after what is still playing).
    pub fn play(&self, samples: &[i16]) {
        self.lock().waiting.extend(samples.iter().copied());
    }

    /// Silence at once (speech cut off; its reverberation fades).
    pub fn clear(&self) {
        self.lock().waiting.clear();
    }

    /// `true` while sound is still to be played.
    pub fn busy(&self) -> bool {
        !self.lock().waiting.is_empty()
    }

    /// Plays the next `block.len()` samples and mixes them, after the
    /// room's path, into `block` (what the microphone hears). Returns
    /// what the loudspeaker played meanwhile (the reference an echo
    /// canceller is given; silence when nothing played).
    pub fn mix_into(&self, block: &mut [i16]) -> Vec<i16> {
        let mut guard = self.lock();
        let air = &mut *guard;
        let was_busy = !air.waiting.is_empty();
        let mut reference = Vec::with_capacity(block.len());
        for s in block.iter_mut() {
            let x = air.waiting.pop_front().unwrap_or(0);
            reference.push(x);
            air.played.pop_front();
            air.played.push_back(f32::from(x));
            let newest = air.played.len() - 1;
            let echo: f32 = air
                .path
                .taps
                .iter()
                .map(|&(d, g)| {
                    g * air
                        .played
                        .get(newest.wrapping_sub(d))
                        .copied()
                        .unwrap_or(0.0)
                })
                .sum();
            let mixed = f32::from(*s) + echo;
            *s = mixed.clamp(-32768.0, 32767.0) as i16;
        }
        if was_busy && air.waiting.is_empty() {
            // The utterance has been played: speech goes on.
            let waker = air.waker.clone();
            drop(guard);
            waker.wake();
        }
        reference
    }

    /// Wakes `waker` each time what was played into the room has been
    /// heard to its end.
    pub fn set_waker(&self, waker: crate::wake::Waker) {
        self.lock().waker = waker;
    }
}

/// espeak-ng speaking into a [`Room`] instead of the sound card.
#[derive(Debug)]
pub struct RoomEcho {
    engine: EspeakNg,
    room: Room,
}

impl RoomEcho {
    /// Speech by `engine` into `room`.
    pub fn new(engine: EspeakNg, room: Room) -> RoomEcho {
        RoomEcho { engine, room }
    }
}

impl Speaker for RoomEcho {
    fn speak(&mut self, u: &Utterance, _priority: Priority) -> Result<(), SpeechError> {
        let samples = self.engine.render(&u.spoken)?;
        self.room.play(&samples);
        Ok(())
    }
    fn stop(&mut self) {
        self.room.clear();
    }
    fn is_speaking(&mut self) -> bool {
        self.room.busy()
    }
    fn name(&self) -> &str {
        "room echo"
    }
    fn set_waker(&mut self, waker: crate::wake::Waker) {
        self.room.set_waker(waker);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_room_is_mixed_into_the_input_after_its_path_and_empties_as_it_is_played() {
        // A bare path: 2 samples late, half as loud.
        let room = Room::with_path(RoomPath {
            taps: vec![(2, 0.5)],
        });
        room.play(&[100, 200, 300]);
        let mut block = [1i16, 1];
        assert_eq!(room.mix_into(&mut block), [100, 200], "the reference");
        assert_eq!(block, [1, 1], "not arrived yet");
        assert!(room.busy());
        let mut block = [i16::MAX, 0, 5, 0];
        assert_eq!(room.mix_into(&mut block), [300, 0, 0, 0]);
        assert_eq!(block, [i16::MAX, 100, 155, 0], "saturating, then the tail");
        assert!(!room.busy());
        room.play(&[1; 10]);
        room.clear();
        assert!(!room.busy());
    }

    #[test]
    fn the_default_path_is_late_weaker_and_reverberant() {
        let path = RoomPath::default();
        assert_eq!(path.taps[0], (640, 0.5), "40 ms, half");
        assert!(path.len() > 640 + 16 * 40, "reflections");
        assert!(path.len() <= 640 + 16 * 81, "within 80 ms");
        let room = Room::new();
        let mut click = vec![0i16; 3000];
        click[0] = 10_000;
        room.play(&click);
        let mut heard = vec![0i16; 3000];
        let played = room.mix_into(&mut heard);
        assert_eq!(played, click);
        assert!(heard[..640].iter().all(|&s| s == 0));
        assert_eq!(heard[640], 5000);
        assert!(heard[641..].iter().filter(|&&s| s != 0).count() >= 20);
    }
}
