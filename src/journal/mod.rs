//! The game journal (persistence adapter): every accepted event, as JSON
//! lines, appended and flushed to disk (`fsync`) before it is announced, so a
//! crash or power cut loses nothing that was already said.
//!
//! # Format (version 1)
//!
//! Every line is a JSON object `{"sum":"<sha256 hex>","rec":<JSON>}` where
//! `sum` is the SHA-256 of the exact bytes of `<JSON>`. The first line's
//! `rec` is the [`Header`] (format name, version, players, time control,
//! start position, locale); every other line's `rec` is a [`Record`]: the
//! game time, the input [`Event`] and, for people reading the file, what was
//! announced and both clocks afterwards.
//!
//! # Damage
//!
//! - A **torn last line** (the program stopped while writing it; the file
//!   does not end with a newline, or its last line fails the checksum) is
//!   the expected result of a crash. The line was never announced. It is
//!   reported and ignored; the old file is never written again: the game
//!   continues in a **new journal** next to it (`NAME-cont1.jsonl`, …) whose
//!   header names the old file, with the good records copied.
//! - A bad line **followed by good lines** is damage, not a crash: nothing
//!   is changed, the last good move is reported, and `annabella resume
//!   --from-good FILE` continues from it in a new journal the same way.
//! - A different version or a file that is not a journal is refused with a
//!   clear message; nothing is changed.
//!
//! Replay ([`replay`]) feeds the records through the pure core
//! ([`crate::mirror::Mirror`]) with their recorded game times, so it
//! restores exactly the same boards, scoresheets and clocks.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use shakmaty::{CastlingMode, Chess, Color, Move};

use crate::clock::TimeControl;
use crate::mirror::{Config, Mirror, MirrorError, MoveInput, Said, idx};
use crate::vocab::{Style, Vocabulary};

/// The format name in every header.
pub const FORMAT: &str = "annabella-journal";
/// The version this build writes and reads.
pub const VERSION: u32 = 1;

/// A side in the journal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

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
}

/// An input event of the game, as given to the pure core.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A move made on a board (own move, or the execution of the
    /// opponent's).
    Board {
        /// Whose board.
        side: Side,
        /// As given.
        text: String,
        /// The move it resolved to, in UCI (replay uses it first).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        uci: Option<String>,
    },
    /// The mover announces (`text`: what was said, if given separately).
    Announce {
        /// What was said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// The mover takes back an uncompleted move.
    TakeBack,
    /// The mover presses the clock.
    Press,
    /// The opponent repeats the move aloud.
    Repeat {
        /// What was repeated.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// A scoresheet entry.
    Sheet {
        /// Whose scoresheet.
        side: Side,
        /// As written (may end in `(=)`).
        text: String,
    },
    /// A draw offer.
    OfferDraw {
        /// Who offers.
        side: Side,
    },
    /// An answer to a draw offer.
    AnswerDraw {
        /// Who answers.
        side: Side,
        /// Accepted?
        accept: bool,
    },
    /// A resignation.
    Resign {
        /// Who resigns.
        side: Side,
    },
    /// Game time passes.
    Tick,
    /// Arbiter: clock adjustment.
    Adjust {
        /// Whose clock.
        side: Side,
        /// Milliseconds.
        ms: u64,
        /// Added (or taken away).
        add: bool,
    },
    /// Arbiter: set a clock's remaining time.
    SetTime {
        /// Whose clock.
        side: Side,
        /// Milliseconds.
        ms: u64,
    },
    /// Arbiter: correct boards and scoresheets (D.2.9).
    Correct,
    /// Arbiter: stop the clock.
    Pause,
    /// Arbiter: restart the clock.
    Resume,
    /// Arbiter: an illegal move penalty (Art. 7.5).
    Penalty {
        /// Who made the illegal move.
        side: Side,
    },
    /// A draw claim (threefold repetition, fifty moves).
    Claim {
        /// Who claims.
        side: Side,
    },
    /// A sealed move (Guideline I).
    Seal {
        /// As given.
        text: String,
        /// Date, time and place of resumption.
        resumption: String,
    },
    /// The opponent of the sealer is present at resumption.
    Present,
    /// The sealed move is opened.
    OpenSeal,
}

/// One journal line after the header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Game time in milliseconds (injected time of the core).
    pub at_ms: u64,
    /// Line of the script that gave the event, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// The event.
    pub event: Event,
    /// What was announced (display form), for people reading the file.
    #[serde(default)]
    pub said: Vec<String>,
    /// Both players' remaining time afterwards, in ms (White, Black).
    #[serde(default)]
    pub clock_ms: [u64; 2],
}

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
        /// The line's checksum did not match (else: not a journal line).
        checksum: bool,
        /// What was good before it.
        good: Box<Loaded>,
    },
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
}

fn checksum(json: &str) -> String {
    let digest = Sha256::digest(json.as_bytes());
    let mut s = String::with_capacity(64);
    for b in digest {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// One journal line (with its newline) for `value`.
pub fn encode_line<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    let json = serde_json::to_string(value)?;
    Ok(format!(
        "{{\"sum\":\"{}\",\"rec\":{json}}}\n",
        checksum(&json)
    ))
}

/// Checks one line (without newline) and returns its JSON payload.
fn decode_line(line: &str) -> Result<&str, bool> {
    let rest = line.strip_prefix("{\"sum\":\"").ok_or(false)?;
    if rest.len() < 64 + 8 || !rest.is_char_boundary(64) {
        return Err(false);
    }
    let (sum, rest) = rest.split_at(64);
    let json = rest
        .strip_prefix("\",\"rec\":")
        .and_then(|r| r.strip_suffix('}'))
        .ok_or(false)?;
    if checksum(json) != sum {
        return Err(true);
    }
    Ok(json)
}

/// Reads and checks a journal file.
pub fn read(path: &Path) -> Result<Loaded, ReadError> {
    let bytes = std::fs::read(path).map_err(ReadError::Io)?;
    parse(&bytes)
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
    let header: Header = std::str::from_utf8(header_line)
        .ok()
        .and_then(|l| decode_line(l).ok())
        .and_then(|j| serde_json::from_str::<serde_json::Value>(j).ok())
        .filter(|v| v.get("format").and_then(|f| f.as_str()) == Some(FORMAT))
        .ok_or(ReadError::NotJournal)
        .and_then(|v| {
            let version = v
                .get("version")
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(0);
            if version != u64::from(VERSION) {
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
    let mut loaded = Loaded {
        header,
        records: Vec::new(),
        torn: None,
    };
    let body = lines.len();
    for (i, raw) in lines.iter().enumerate().skip(1) {
        let decoded = std::str::from_utf8(raw)
            .map_err(|_| false)
            .and_then(decode_line)
            .and_then(|j| serde_json::from_str::<Record>(j).map_err(|_| false));
        match decoded {
            Ok(r) => loaded.records.push(r),
            Err(checksum) => {
                let last = i + 1 == body && !torn_tail;
                if last {
                    // A last line that is complete but bad: also a torn
                    // write (a power cut can leave garbage at the end).
                    loaded.torn = Some(i + 1);
                    return Ok(loaded);
                }
                return Err(ReadError::Corrupt {
                    line: i + 1,
                    checksum,
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

/// Appends records to a journal file, syncing each to disk.
#[derive(Debug)]
pub struct Writer {
    file: File,
    path: PathBuf,
}

fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        // Best effort: makes the new directory entry durable.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

impl Writer {
    /// Creates a new journal (never overwrites an existing file) with
    /// `header` and `records`, synced to disk. The file appears complete or
    /// not at all: it is written under a temporary name, synced, then
    /// linked to `path` (which fails if `path` exists).
    pub fn create(path: &Path, header: &Header, records: &[Record]) -> io::Result<Writer> {
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir)?;
        }
        if path.exists() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "the file exists already",
            ));
        }
        let mut text = encode_line(header).map_err(io::Error::other)?;
        for r in records {
            text.push_str(&encode_line(r).map_err(io::Error::other)?);
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = path.with_file_name(format!(".{name}.tmp{}", std::process::id()));
        let written = (|| {
            let mut f = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(&tmp)?;
            f.write_all(text.as_bytes())?;
            f.sync_all()?;
            match std::fs::hard_link(&tmp, path) {
                // A file system without hard links: rename (the existence
                // check above keeps an old journal safe).
                Err(e) if e.kind() != io::ErrorKind::AlreadyExists && !path.exists() => {
                    std::fs::rename(&tmp, path)
                }
                other => other,
            }
        })();
        let _ = std::fs::remove_file(&tmp);
        written?;
        sync_dir(path);
        let file = OpenOptions::new().append(true).open(path)?;
        Ok(Writer {
            file,
            path: path.to_owned(),
        })
    }

    /// Opens an existing, intact journal for appending.
    pub fn append_to(path: &Path) -> io::Result<Writer> {
        let file = OpenOptions::new().append(true).open(path)?;
        Ok(Writer {
            file,
            path: path.to_owned(),
        })
    }

    /// Appends `records` as one unit, synced to disk: either all of them
    /// are in the file afterwards, or (on an error, such as a full disk)
    /// none, the file being cut back to its length before.
    pub fn append_all(&mut self, records: &[Record]) -> io::Result<()> {
        let mut text = String::new();
        for r in records {
            text.push_str(&encode_line(r).map_err(io::Error::other)?);
        }
        let len = self.file.metadata()?.len();
        let written = self
            .file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_data());
        if let Err(e) = written {
            // Best effort: leave no partial line behind.
            if self.file.set_len(len).is_ok() {
                let _ = self.file.sync_data();
            }
            return Err(e);
        }
        Ok(())
    }

    /// The file written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one record and waits until it is on disk.
    pub fn append(&mut self, record: &Record) -> io::Result<()> {
        let line = encode_line(record).map_err(io::Error::other)?;
        self.file.write_all(line.as_bytes())?;
        self.file.flush()?;
        self.file.sync_data()
    }
}

/// A free name next to `old` for a continuation journal:
/// `NAME-cont1.jsonl`, `NAME-cont2.jsonl`, …
pub fn continuation_path(old: &Path) -> PathBuf {
    let stem = old
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".to_owned());
    // Continue numbering rather than nesting "-cont1-cont1".
    let base = match stem.rsplit_once("-cont") {
        Some((b, n)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => b.to_owned(),
        _ => stem,
    };
    let dir = old.parent().unwrap_or(Path::new(""));
    (1u32..)
        .map(|n| dir.join(format!("{base}-cont{n}.jsonl")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join(format!("{base}-cont.jsonl")))
}

/// The default folder for journals: `data_dir()/annabella/games`.
pub fn default_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("annabella").join("games"))
}

/// The most recently modified journal in `dir`.
pub fn latest_in(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max()
        .map(|(_, p)| p)
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
    })
}

fn input(mirror: &Mirror, pos: Option<&Chess>, text: &str, uci: Option<&str>) -> MoveInput {
    if let (Some(pos), Some(u)) = (pos, uci)
        && let Some(m) = mirror.from_uci(pos, u)
    {
        return MoveInput::Move(m);
    }
    MoveInput::Text(text.to_owned())
}

/// Applies one event to the core at `now`.
pub fn apply(mirror: &mut Mirror, now: Duration, event: &Event) -> Result<Said, MirrorError> {
    match event {
        Event::Board { side, text, uci } => {
            let c = Color::from(*side);
            let pos = mirror.board(c).position().clone();
            let inp = input(mirror, Some(&pos), text, uci.as_deref());
            mirror.board_move(now, c, &inp)
        }
        Event::Announce { text } => {
            let inp = text.as_deref().map(MoveInput::from);
            mirror.announce(now, inp.as_ref())
        }
        Event::TakeBack => mirror.take_back(now),
        Event::Press => mirror.press(now),
        Event::Repeat { text } => {
            let inp = text.as_deref().map(MoveInput::from);
            mirror.repeat(now, inp.as_ref())
        }
        Event::Sheet { side, text } => {
            mirror.sheet_entry(now, (*side).into(), &MoveInput::from(text.as_str()))
        }
        Event::OfferDraw { side } => mirror.offer_draw(now, (*side).into()),
        Event::AnswerDraw { side, accept } => mirror.answer_draw(now, (*side).into(), *accept),
        Event::Resign { side } => mirror.resign(now, (*side).into()),
        Event::Tick => mirror.tick(now),
        Event::Adjust { side, ms, add } => {
            mirror.arbiter_adjust(now, (*side).into(), Duration::from_millis(*ms), *add)
        }
        Event::SetTime { side, ms } => {
            mirror.arbiter_set(now, (*side).into(), Duration::from_millis(*ms))
        }
        Event::Correct => mirror.arbiter_correct(now).map(|(_, s)| s),
        Event::Pause => mirror.arbiter_pause(now),
        Event::Resume => mirror.arbiter_resume(now),
        Event::Penalty { side } => mirror.arbiter_penalty(now, (*side).into()),
        Event::Claim { side } => mirror.claim_draw(now, (*side).into()),
        Event::Seal { text, resumption } => {
            mirror.seal(now, &MoveInput::from(text.as_str()), resumption)
        }
        Event::Present => mirror.opponent_present(now),
        Event::OpenSeal => mirror.open_seal(now),
    }
}

/// Fills in the resolved move of a board event after it was applied, so
/// that replay does not depend on reading the words again.
pub fn resolve_event(before: &Mirror, after: &Mirror, event: &mut Event) {
    if let Event::Board { side, uci, .. } = event {
        let c = Color::from(*side);
        let (b, a) = (before.board(c).moves(), after.board(c).moves());
        if a.len() == b.len() + 1 {
            *uci = a.last().map(|m: &Move| after.uci(*m));
        }
    }
}

/// Both remaining times in ms at the core's current time.
pub fn clock_ms(mirror: &Mirror) -> [u64; 2] {
    let ms = |c: Color| {
        u64::try_from(mirror.clock().remaining(c, mirror.now()).as_millis()).unwrap_or(u64::MAX)
    };
    let mut out = [0; 2];
    out[idx(Color::White)] = ms(Color::White);
    out[idx(Color::Black)] = ms(Color::Black);
    out
}

/// Replays `records` from a fresh game: the exact state when the last one
/// was written. On failure: the 0-based index of the record and the error.
pub fn replay(
    vocab: Vocabulary,
    config: Config,
    records: &[Record],
) -> Result<Mirror, (usize, MirrorError)> {
    let mut mirror = Mirror::new(vocab, config, Duration::ZERO);
    for (i, r) in records.iter().enumerate() {
        apply(&mut mirror, Duration::from_millis(r.at_ms), &r.event).map_err(|e| (i, e))?;
    }
    Ok(mirror)
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
