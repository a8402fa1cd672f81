//! A simulated room for tests (hidden option `--room-echo`): annabella's
//! speech, rendered by espeak-ng, goes into the same air the microphone
//! hears. [`RoomEcho`] is the speaker: it renders each utterance and puts
//! its samples into the [`Room`]; the voice worker's WAV source
//! ([`crate::voice::live`]) mixes the room into what it plays, in real
//! time, so the announcement reaches the input at the moment annabella
//! speaks it. The utterance lasts as long as its samples are being played
//! into the room.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use super::espeak::EspeakNg;
use super::{Priority, Speaker, SpeechError};
use crate::vocab::Utterance;

/// The air of the room: samples (16 kHz mono) waiting to be heard.
#[derive(Debug, Clone, Default)]
pub struct Room {
    air: Arc<Mutex<VecDeque<i16>>>,
}

impl Room {
    /// An empty room.
    pub fn new() -> Room {
        Room::default()
    }

    fn lock(&self) -> MutexGuard<'_, VecDeque<i16>> {
        self.air.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sound put into the room (after what is still playing).
    pub fn play(&self, samples: &[i16]) {
        self.lock().extend(samples.iter().copied());
    }

    /// Silence at once (speech cut off).
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// `true` while sound is still to be heard.
    pub fn busy(&self) -> bool {
        !self.lock().is_empty()
    }

    /// Mixes the next `block.len()` samples of the room into `block`
    /// (what the microphone hears), taking them out of the room.
    pub fn mix_into(&self, block: &mut [i16]) {
        let mut air = self.lock();
        for s in block.iter_mut() {
            let Some(a) = air.pop_front() else { break };
            *s = s.saturating_add(a);
        }
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_room_is_mixed_into_the_input_and_empties_as_it_is_heard() {
        let room = Room::new();
        room.play(&[100, 200, 300]);
        let mut block = [1i16, 1];
        room.mix_into(&mut block);
        assert_eq!(block, [101, 201]);
        assert!(room.busy());
        let mut block = [i16::MAX, 0, 5];
        room.mix_into(&mut block);
        assert_eq!(block, [i16::MAX, 0, 5], "saturating, then nothing left");
        assert!(!room.busy());
        room.play(&[1; 10]);
        room.clear();
        assert!(!room.busy());
    }
}
