//! annabella's pure core: everything about a game of chess between a
//! sighted and a visually impaired player under the FIDE Laws that does not
//! touch a file, a device, the system clock or the environment.
//!
//! - [`rules`]: match state on top of `shakmaty` (legal moves, results,
//!   FIDE draw rules, dead positions, the Art. 7.5 illegal-move count).
//! - [`mirror`]: the two boards, both scoresheets, the clock and the
//!   arbiter's procedures (Appendix D, Guidelines I and III).
//! - [`game`]: the one game layer every front end drives with typed
//!   [`game::Command`]s, and the wording of its outcomes per locale.
//! - [`clock`]: FIDE time controls with injected time, and the talking
//!   clock's phrases.
//! - [`locale`]: the locale data model (parsed from TOML text, validated);
//!   [`template`]: the language of its messages (cases, choices by number).
//! - [`vocab`]: announcing moves as words and parsing words back into moves.
//! - [`pgn`]: reading and writing games as PGN text.
//! - [`journal`]: the journal format (lines, checksums, the chain); the
//!   store that writes files is an adapter of the `annabella` crate.
//! - [`commands`]: what a typed line means on the play screen (command
//!   words of the locale).
//! - [`query`]: board questions (what is on a square, where the pieces
//!   are) answered in the locale's words.
//! - [`input`]: limits on text input, a bounded line reader over any
//!   [`std::io::BufRead`], and input errors in the user's words.
//!
//! No module here reads the environment, opens a file or a device, or
//! asks the system for the time; `cargo test -p annabella-core` needs no
//! native library.

pub mod clock;
pub mod commands;
pub mod game;
pub mod input;
pub mod journal;
pub mod locale;
pub mod mirror;
pub mod pgn;
pub mod plural;
pub mod query;
pub mod rules;
pub mod template;
pub mod vocab;

#[cfg(test)]
mod fuzz;
