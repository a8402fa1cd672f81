//! The journal reader of `main` before issue 21 (commit 19cab74), kept
//! verbatim but for its types, to measure the damage it recovered from:
//! it stopped at the first line that was not the next one in the chain.

use annabella::journal::{FORMAT, Header, OLDEST_VERSION, Record, VERSION, checksum};

/// What was wrong (kept for the shape of the old code).
#[derive(Debug, Clone, Copy)]
pub enum Damage {
    Checksum,
    Syntax,
    Chain,
}

/// What the old reader returned for damage in the middle.
pub enum ReadError {
    Empty,
    NotJournal,
    BadVersion(#[allow(dead_code)] u32),
    Corrupt {
        #[allow(dead_code)]
        line: usize,
        #[allow(dead_code)]
        damage: Damage,
        good: Box<Loaded>,
    },
}

/// The good part.
pub struct Loaded {
    pub header: Header,
    pub records: Vec<Record>,
    pub torn: Option<usize>,
    pub last_sum: String,
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
