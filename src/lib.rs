//! annabella: a talking chess client for play between sighted and visually
//! impaired players under the FIDE Laws of Chess, Appendix D.
//!
//! The crate is split into a **pure core** (no I/O, no system clock) and thin
//! **adapters** around it.
//!
//! Pure core:
//! - [`rules`]: match state on top of `shakmaty` (legal moves, results, FIDE
//!   draw rules, the Art. 7.5 illegal-move count).
//! - [`locale`]: locale data model (parsed from TOML text, validated).
//! - [`vocab`]: announce moves as words and parse words back into moves.
//! - [`clock`]: FIDE time controls with injected time.
//! - [`pgn`]: reading games from PGN text.
//! - [`input`]: limits on text input and a bounded line reader.
//!
//! Adapters live beside them (`cli`, and later speech, voice, persistence,
//! engine and terminal UI).

pub mod cli;
pub mod clock;
pub mod config;
pub mod engine;
pub mod fsutil;
pub mod game;
pub mod input;
pub mod journal;
pub mod locale;
pub mod mirror;
pub mod pgn;
pub mod review;
pub mod rules;
pub mod speech;
pub mod trace;
pub mod ui;
pub mod vocab;
pub mod voice;
pub mod wake;

#[cfg(test)]
mod fuzz;
