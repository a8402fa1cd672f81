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
//! - A **torn last line** (the program stopped while writing it; the file
//!   does not end with a newline, or its last line fails the checksum) is
//!   the expected result of a crash. The line was never announced. It is
//!   reported and ignored; the old file is never written again: the game
//!   continues in a **new journal** next to it (`NAME-cont1.jsonl`, …) whose
//!   header names the old file, with the good records copied.
//! - A bad line **followed by good lines** (a wrong checksum, not a journal
//!   line, or a break in the chain) is damage, not a crash: nothing is
//!   changed, the last good move is reported, and `annabella resume
//!   --from-good FILE` continues from it in a new journal the same way.
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
}

pub use crate::game::Record;

/// Why a journal could not be read. Nothing is ever changed on disk.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read.
    Io(io::Error),
    /// The file is empty.
    Empty,
    /// The first line is not a journal header.
    NotJournal,
    /// Another format version.
    BadVersion(u32),
    /// A damaged line followed by good ones.
    Corrupt {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        damage: Damage,
        /// What was good before it.
        good: Box<Loaded>,
    },
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

/// A journal read from disk.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The header.
    pub header: Header,
    /// The good records, in order.
    pub records: Vec<Record>,
    /// 1-based number of an incomplete last line that was ignored.
    pub torn: Option<usize>,
    /// The checksum of the last good line (what the next record follows).
    pub last_sum: String,
}

/// The SHA-256 of `json`, in lowercase hex: a line's `sum`, and the next
/// record's `prev`.
pub fn checksum(json: &str) -> String {
    let digest = Sha256::digest(json.as_bytes());
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

/// Checks one line (without newline) and returns its checksum and JSON
/// payload.
fn decode_line(line: &str) -> Result<(&str, &str), Damage> {
    let rest = line.strip_prefix("{\"sum\":\"").ok_or(Damage::Syntax)?;
    if rest.len() < 64 + 8 || !rest.is_char_boundary(64) {
        return Err(Damage::Syntax);
    }
    let (sum, rest) = rest.split_at(64);
    let json = rest
        .strip_prefix("\",\"rec\":")
        .and_then(|r| r.strip_suffix('}'))
        .ok_or(Damage::Syntax)?;
    if checksum(json) != sum {
        return Err(Damage::Checksum);
    }
    Ok((sum, json))
}

/// Checks journal bytes (see the module documentation).
pub fn parse(bytes: &[u8]) -> Result<Loaded, ReadError> {
    if bytes.is_empty() {
        return Err(ReadError::Empty);
    }
    let mut lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    // After the final newline, split gives an empty piece; anything else
    // there is an incomplete line.
    let tail = lines.pop().unwrap_or_default();
    let mut torn_tail = !tail.is_empty();
    let header_line = match lines.first() {
        Some(l) => *l,
        None => tail,
    };
    let (header_sum, header_json) = std::str::from_utf8(header_line)
        .ok()
        .and_then(|l| decode_line(l).ok())
        .ok_or(ReadError::NotJournal)?;
    let header: Header = serde_json::from_str::<serde_json::Value>(header_json)
        .ok()
        .filter(|v| v.get("format").and_then(|f| f.as_str()) == Some(FORMAT))
        .ok_or(ReadError::NotJournal)
        .and_then(|v| {
            let version = v
                .get("version")
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(0);
            if !(u64::from(OLDEST_VERSION)..=u64::from(VERSION)).contains(&version) {
                return Err(ReadError::BadVersion(
                    u32::try_from(version).unwrap_or(u32::MAX),
                ));
            }
            serde_json::from_value(v).map_err(|_| ReadError::NotJournal)
        })?;
    if lines.is_empty() {
        // Only a header without its newline.
        torn_tail = false;
    }
    let chained = header.version >= 2;
    let mut loaded = Loaded {
        header,
        records: Vec::new(),
        torn: None,
        last_sum: header_sum.to_owned(),
    };
    let body = lines.len();
    for (i, raw) in lines.iter().enumerate().skip(1) {
        let decoded = std::str::from_utf8(raw)
            .map_err(|_| Damage::Syntax)
            .and_then(decode_line)
            .and_then(|(sum, j)| {
                serde_json::from_str::<Record>(j)
                    .map(|r| (sum, r))
                    .map_err(|_| Damage::Syntax)
            });
        let follows = |r: &Record| {
            !chained || (r.seq == loaded.records.len() as u64 + 1 && r.prev == loaded.last_sum)
        };
        match decoded {
            Ok((sum, r)) if follows(&r) => {
                loaded.last_sum = sum.to_owned();
                loaded.records.push(r);
            }
            Ok(_) => {
                // A whole, valid line in the wrong place is never the mark
                // of a crash: a line was lost, doubled or moved.
                return Err(ReadError::Corrupt {
                    line: i + 1,
                    damage: Damage::Chain,
                    good: Box::new(loaded),
                });
            }
            Err(damage) => {
                let last = i + 1 == body && !torn_tail;
                if last {
                    // A last line that is complete but bad: also a torn
                    // write (a power cut can leave garbage at the end).
                    loaded.torn = Some(i + 1);
                    return Ok(loaded);
                }
                return Err(ReadError::Corrupt {
                    line: i + 1,
                    damage,
                    good: Box::new(loaded),
                });
            }
        }
    }
    if torn_tail {
        loaded.torn = Some(body + 1);
    }
    Ok(loaded)
}

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

/// The game configuration a header describes.
pub fn config_of(header: &Header) -> Result<Config, String> {
    let control: TimeControl = header.control.parse().map_err(|e| format!("{e}"))?;
    let mode = if header.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let start = match &header.fen {
        Some(f) => crate::pgn::position_from_fen(f, mode)?,
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
