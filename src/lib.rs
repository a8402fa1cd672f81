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
pub mod config;
pub mod engine;
pub mod environment;
pub mod fsutil;
pub mod journal;
pub mod output;
pub mod review;
pub mod speech;
pub mod theme;
pub mod trace;
pub mod ui;
pub mod voice;
pub mod wake;

#[cfg(test)]
pub(crate) mod test_skip;

// The pure core, under the names the adapters have always used.
pub use annabella_core::{clock, commands, game, input, locale, mirror, pgn, query, rules, vocab};
