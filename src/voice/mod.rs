//! Spoken moves, offline: Vosk speech recognition with a grammar built for
//! every position, and decisions that never play a move the player did not
//! say.
//!
//! Pure core: [`grammar`] (recognizer spellings, per-position phrase lists),
//! [`commands`] (voice command words from locale data), [`decide`] (from
//! Vosk's result to a move, a question, a command or "not understood"),
//! [`nearmiss`] (hearings scored against every phrase with per-locale word
//! costs),
//! [`audio`]'s voice-activity detector, [`rate`] (the stateful
//! anti-aliased resampler every input and output stream goes through),
//! [`models`]'s
//! manifest. Adapters: [`recognizer`] (libvosk), [`audio::read_wav`],
//! [`mic`] (cpal), [`models`]' install/verify/remove, [`stderr`]; and
//! [`live`], the worker the play screen listens through.

pub mod audio;
pub mod commands;
pub mod decide;
pub mod denoise;
pub mod echo_cancel;
pub mod failure;
pub mod grammar;
pub mod heard;
pub mod listener;
pub mod live;
pub mod mic;
pub mod models;
pub mod nearmiss;
pub mod rate;
pub mod recognizer;
pub mod stderr;
pub mod voicing;

pub use commands::SpokenCommandWords;
pub use decide::{Decision, DecisionSettings, Hearing, decide, decide_with};
pub use failure::VoiceFailure;
pub use grammar::{Grammar, Spellings};
pub use listener::{Heard, Listener};
pub use live::{LiveVoice, VoiceEvent, VoiceSource};
pub use recognizer::{ModelError, VoskModel};
