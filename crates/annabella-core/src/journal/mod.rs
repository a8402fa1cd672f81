//! The game journal's format: every accepted event, as JSON
//! lines, appended and flushed to disk (`fsync`) before it is announced, so a
//! crash or power cut loses nothing that was already said.
//!
//! This module is the format only (pure: bytes in, records out, and the
//! lines for records to append); the one journal store that creates,
//! locks, appends to and reads journal files is the `annabella` crate's
//! `journal` adapter.
//!
//! # Format (version 2)
//!
//! Every line is a JSON object `{"sum":"<sha256 hex>","rec":<JSON>}` where
//! `sum` is the SHA-256 of the exact bytes of `<JSON>`. The first line's
//! `rec` is the [`Header`] (format name, version, players, time control,
//! start position, locale, and the locale file's text when the game used
//! one, so the journal can always be replayed); every other line's `rec` is
//! a [`Record`]: its sequence number and its predecessor's checksum (so a
//! dropped, duplicated or swapped line is found, never silently replayed),
//! the game time, the [`Command`] and, for people reading the file, what
//! was announced and both clocks afterwards. Version 1 journals (without
//! the chain) are still read.
//!
//! # Damage
//!
//! Every line is checked on its own (its checksum) and the records are
//! put in order by the chain, so reading is never all-or-nothing
//! ([`parse`], [`Loaded`]):
//!
//! - A **torn last line** (the program stopped while writing it; the file
//!   does not end with a newline, or its last line fails the checksum) is
//!   the expected result of a crash. The line was never announced. It is
//!   reported and ignored; the old file is never written again: the game
//!   continues in a **new journal** next to it (`NAME-cont1.jsonl`, …) whose
//!   header names the old file, with the good records copied.
//! - A **duplicated** line is skipped, a line **out of order** is read in
//!   its place in the chain, a line with **one damaged byte** (anywhere:
//!   its checksum, its frame, a move, a text field) is restored exactly
//!   from a checksum that names it (its own, or the next record's `prev`),
//!   a blank line, CRLF line ends and a byte order mark are read as if
//!   they were not there. Each mended line is named ([`Mended`]); the game
//!   is whole, and it goes on in a new journal all the same.
//! - Where the chain cannot go on (a **missing** line, a line beyond
//!   repair), the game stops ([`Loaded::gap`]); the whole records after it
//!   are kept apart ([`Loaded::later`]) and offered to the arbiter, one by
//!   one, by `annabella resume --repair` (a new chained journal; the old
//!   file is kept). `annabella resume --from-good` goes on without them.
//! - A different version or a file that is not a journal is refused with a
//!   clear message; nothing is changed.
//!
//! Replay ([`crate::game::Game::replay`]) feeds the records through the
//! pure core with their recorded game times, so it restores exactly the
//! same boards, scoresheets and clocks.

use std::io;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use shakmaty::{CastlingMode, Chess};

use crate::clock::TimeControl;
use crate::mirror::Config;
use crate::vocab::Style;

/// The format name in every header.
pub const FORMAT: &str = "annabella-journal";
/// The version this build writes.
pub const VERSION: u32 = 2;
/// The oldest version this build reads.
pub const OLDEST_VERSION: u32 = 1;

/// The file this journal continues (after a torn line or damage).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Continues {
    /// The old journal.
    pub file: String,
    /// How many of its records were taken over.
    pub records: usize,
}

/// The first line of a journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// Format version.
    pub version: u32,
    /// When the game was started (UTC, `YYYY-MM-DDTHH:MM:SSZ`).
    pub created: String,
    /// Name of White.
    pub white: String,
    /// Name of Black.
    pub black: String,
    /// Time control in annabella's text form.
    pub control: String,
    /// Start position (FEN) when not the standard one.
    #[serde(default)]
    pub fen: Option<String>,
    /// Chess960.
    #[serde(default)]
    pub chess960: bool,
    /// Locale code used to read typed words.
    pub locale: String,
    /// The locale file's text, when the game was played with a locale
    /// given as a file (`--locale FILE.toml`): the journal carries it, so
    /// it can be replayed anywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale_file: Option<String>,
    /// Announcement style.
    #[serde(default)]
    pub style: Style,
    /// Event name (PGN).
    #[serde(default)]
    pub event: String,
    /// Site (PGN).
    #[serde(default)]
    pub site: String,
    /// The journal this one continues.
    #[serde(default)]
    pub continues: Option<Continues>,
    /// Guideline III (games without increment, quickplay finishes) was
    /// announced for this game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quickplay: bool,
    /// Rapid or blitz without adequate supervision (Appendix A.5, B.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unsupervised: bool,
    /// Practice, not a rated game: the legality of a player's own move is
    /// told before the press.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
    /// The sighted player, for whom the ordinary rules apply (D.2.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sighted: Option<crate::game::Side>,
}

pub use crate::game::Record;

/// Why a journal could not be read at all. Nothing is ever changed on
/// disk. (Damage inside a journal is not an error: [`parse`] returns what
/// can be recovered and says what it mended and where it stopped.)
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read.
    Io(io::Error),
    /// The file is empty.
    Empty,
    /// The first line is not a journal header (and no header was found or
    /// restored elsewhere).
    NotJournal,
    /// Another format version.
    BadVersion(u32),
}

/// What is wrong with a damaged journal line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Damage {
    /// The line's checksum does not match.
    Checksum,
    /// The line is not a journal line.
    Syntax,
    /// The line does not follow the one before (a line is missing, doubled
    /// or out of order).
    Chain,
}

/// How a line was mended while reading: the game is whole despite it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mend {
    /// Its bytes were damaged and are restored exactly: the restored
    /// line's checksum is the one its own `sum` or the next record's
    /// `prev` names (SHA-256: no other text has it).
    Restored,
    /// A second copy of a line already read: skipped.
    Duplicate,
    /// Out of order: read in its place in the chain.
    Moved,
}

/// A line mended while reading (1-based line number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mended {
    /// The line.
    pub line: usize,
    /// What was done.
    pub how: Mend,
}

/// A line that could not be used (1-based line number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Damaged {
    /// The line.
    pub line: usize,
    /// Why.
    pub damage: Damage,
}

/// A whole record (its own checksum matches) after the place where the
/// game stops: it cannot be linked to the game (a line before it is
/// missing or unreadable, or another writer wrote it), so only the
/// arbiter can take it (`annabella resume --repair`).
#[derive(Debug, Clone, PartialEq)]
pub struct Later {
    /// 1-based line number.
    pub line: usize,
    /// The record.
    pub record: Record,
}

/// A journal read from disk: everything that can be recovered, and what
/// was wrong.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The header.
    pub header: Header,
    /// The records of the game, in order, each linked to the one before
    /// by the chain (or, in a version 1 journal, read in file order).
    pub records: Vec<Record>,
    /// The 1-based line of each record.
    pub lines: Vec<usize>,
    /// 1-based number of an incomplete last line that was ignored.
    pub torn: Option<usize>,
    /// The checksum of the last record read (what the next one follows).
    pub last_sum: String,
    /// Lines mended on the way (restored, duplicate, moved): nothing of
    /// the game was lost to them.
    pub mended: Vec<Mended>,
    /// Where the game stops before the end of the file: the first line
    /// that could not be read, restored or linked.
    pub gap: Option<Damaged>,
    /// Every line that could not be read or restored.
    pub unreadable: Vec<Damaged>,
    /// Whole records after the gap, in the order of their sequence
    /// numbers: offered to the arbiter, never replayed on their own.
    pub later: Vec<Later>,
}

impl Loaded {
    /// Nothing was wrong (a CRLF line end or a byte order mark are not
    /// damage).
    pub fn is_intact(&self) -> bool {
        self.torn.is_none()
            && self.mended.is_empty()
            && self.gap.is_none()
            && self.unreadable.is_empty()
            && self.later.is_empty()
    }

    /// Records were left out: the file holds more than [`Loaded::records`]
    /// (a torn last line, never announced, does not count).
    pub fn drops_records(&self) -> bool {
        self.gap.is_some() || !self.later.is_empty()
    }
}

/// The SHA-256 of `json`, in lowercase hex: a line's `sum`, and the next
/// record's `prev`.
pub fn checksum(json: &str) -> String {
    hex(&Sha256::digest(json.as_bytes()).into())
}

fn hex(digest: &[u8; 32]) -> String {
    let mut s = String::with_capacity(64);
    for b in digest {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// One journal line (with its newline) for `value`.
pub fn encode_line<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    encode(value).map(|(_, line)| line)
}

/// The checksum and the journal line (with its newline) for `value`.
pub fn encode<T: Serialize>(value: &T) -> Result<(String, String), serde_json::Error> {
    let json = serde_json::to_string(value)?;
    let sum = checksum(&json);
    let line = format!("{{\"sum\":\"{sum}\",\"rec\":{json}}}\n");
    Ok((sum, line))
}

/// Checks journal bytes (see the module documentation): the header, then
/// the records along the chain, mending what can be mended (see
/// [`Loaded`]). A UTF-8 byte order mark, CRLF line ends and blank lines
/// are read as if they were not there.
pub fn parse(bytes: &[u8]) -> Result<Loaded, ReadError> {
    read::parse(bytes)
}

mod read;
mod restore;

/// The lines for `records` chained after `seq` records ending in
/// `last_sum`; returns the text, the new count and the last checksum.
pub fn chain(
    records: &[Record],
    mut seq: u64,
    mut last_sum: String,
) -> io::Result<(String, u64, String)> {
    let mut text = String::new();
    for r in records {
        seq += 1;
        let mut r = r.clone();
        r.seq = seq;
        r.prev = last_sum;
        let (sum, line) = encode(&r).map_err(io::Error::other)?;
        text.push_str(&line);
        last_sum = sum;
    }
    Ok((text, seq, last_sum))
}

/// Why a journal's header describes no game one can play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JournalConfigError {
    /// The time control does not read.
    Control(crate::clock::ParseTimeControlError),
    /// The start position (FEN) is not one to play from.
    Start(crate::pgn::FenProblem),
}

impl JournalConfigError {
    /// What is wrong, in `locale`'s words (for `{error}` in
    /// `journal.bad_header`).
    pub fn describe(&self, locale: &crate::locale::Locale) -> String {
        match self {
            JournalConfigError::Control(e) => e.describe(locale),
            JournalConfigError::Start(e) => e.describe(locale),
        }
    }
}

impl std::fmt::Display for JournalConfigError {
    /// In the base locale's words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::locale::in_base(|l| self.describe(l)))
    }
}

impl std::error::Error for JournalConfigError {}

/// The game configuration a header describes.
///
/// # Errors
///
/// The time control or the start position does not read.
pub fn config_of(header: &Header) -> Result<Config, JournalConfigError> {
    let control: TimeControl = header
        .control
        .parse()
        .map_err(JournalConfigError::Control)?;
    let mode = if header.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let start = match &header.fen {
        Some(f) => crate::pgn::position_from_fen(f, mode).map_err(JournalConfigError::Start)?,
        None => Chess::default(),
    };
    Ok(Config {
        white: header.white.clone(),
        black: header.black.clone(),
        control,
        start,
        mode,
        style: header.style,
        quickplay: header.quickplay,
        unsupervised: header.unsupervised,
        practice: header.practice,
        sighted: header.sighted.map(shakmaty::Color::from),
    })
}

/// "2026-11-21T22:15:00Z" and "2026.11.21" for a time since the Unix epoch.
pub fn utc_stamp(since_epoch: Duration) -> (String, String) {
    let secs = since_epoch.as_secs();
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Civil date from days (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
            rem / 3600,
            (rem / 60) % 60,
            rem % 60
        ),
        format!("{y:04}.{m:02}.{d:02}"),
    )
}

#[cfg(test)]
mod tests;
