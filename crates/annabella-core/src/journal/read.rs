//! Reading a journal that may be damaged: every line is checked on its
//! own (its checksum), the records are put in order by the chain (each
//! names its predecessor's checksum), and what can be mended is mended:
//! a duplicate is skipped, a line out of order is read in its place, a
//! line with one damaged byte is restored exactly from a checksum that
//! names it. Where the chain cannot go on (a line missing or beyond
//! repair), the game stops, and every whole record after it is kept
//! apart for the arbiter.

use std::collections::HashMap;

use super::restore::{Budget, digest_of_hex, restore};
use super::{
    Damage, Damaged, FORMAT, Header, Later, Loaded, Mend, Mended, OLDEST_VERSION, ReadError,
    Record, VERSION,
};

/// Checks one line (without its line end) and returns its checksum and
/// JSON payload.
fn decode_line(line: &[u8]) -> Result<(&str, &str), Damage> {
    let line = std::str::from_utf8(line).map_err(|_| Damage::Syntax)?;
    let rest = line.strip_prefix("{\"sum\":\"").ok_or(Damage::Syntax)?;
    if rest.len() < 64 + 8 || !rest.is_char_boundary(64) {
        return Err(Damage::Syntax);
    }
    let (sum, rest) = rest.split_at(64);
    let json = rest
        .strip_prefix("\",\"rec\":")
        .and_then(|r| r.strip_suffix('}'))
        .ok_or(Damage::Syntax)?;
    if super::checksum(json) != sum {
        return Err(Damage::Checksum);
    }
    Ok((sum, json))
}

/// What a JSON payload is.
enum Payload {
    /// A header of this format (any version).
    Header(serde_json::Value),
    /// A record.
    Record(Box<Record>),
    /// Neither.
    Other,
}

fn payload(json: &str) -> Payload {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(json) else {
        return Payload::Other;
    };
    if v.get("format").and_then(|f| f.as_str()) == Some(FORMAT) {
        return Payload::Header(v);
    }
    match serde_json::from_value::<Record>(v) {
        Ok(r) => Payload::Record(Box::new(r)),
        Err(_) => Payload::Other,
    }
}

fn header_of(v: serde_json::Value) -> Result<Header, ReadError> {
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
}

/// One line of the file as read.
enum Line<'a> {
    /// Its checksum matches.
    Good { sum: String, payload: Payload },
    /// It does not; the bytes are kept for a restoration.
    Bad { damage: Damage, bytes: &'a [u8] },
}

fn read_line(bytes: &[u8]) -> Line<'_> {
    match decode_line(bytes) {
        Ok((sum, json)) => Line::Good {
            sum: sum.to_owned(),
            payload: payload(json),
        },
        Err(damage) => Line::Bad { damage, bytes },
    }
}

/// Finds the header: the first line, else a whole header line elsewhere
/// (moved), else the first line restored from the first record's `prev`.
fn find_header(
    lines: &mut [(usize, Line<'_>)],
    budget: &mut Budget,
    mended: &mut Vec<Mended>,
) -> Result<(usize, String, Header), ReadError> {
    let mut found = None;
    for (i, (no, line)) in lines.iter().enumerate() {
        if let Line::Good {
            sum,
            payload: Payload::Header(v),
        } = line
        {
            found = Some((i, *no, sum.clone(), v.clone()));
            break;
        }
    }
    if let Some((i, no, sum, v)) = found {
        let header = header_of(v)?;
        if i > 0 {
            mended.push(Mended {
                line: no,
                how: Mend::Moved,
            });
        }
        return Ok((i, sum, header));
    }
    // The first line, damaged: the first record names its checksum.
    let targets: Vec<[u8; 32]> = lines
        .iter()
        .filter_map(|(_, l)| match l {
            Line::Good {
                payload: Payload::Record(r),
                ..
            } if r.seq == 1 => digest_of_hex(&r.prev),
            _ => None,
        })
        .collect();
    if let Some((no, Line::Bad { bytes, .. })) = lines.first()
        && !targets.is_empty()
        && let Some(json) = restore(bytes, &targets, budget)
        && let Payload::Header(v) = payload(&json)
    {
        let header = header_of(v)?;
        mended.push(Mended {
            line: *no,
            how: Mend::Restored,
        });
        return Ok((0, super::checksum(&json), header));
    }
    Err(ReadError::NotJournal)
}

/// Journal bytes to what can be recovered (see [`super::parse`]).
pub(super) fn parse(bytes: &[u8]) -> Result<Loaded, ReadError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let strip_cr = |l: &[u8]| -> usize { usize::from(l.last() == Some(&b'\r')) };
    let mut pieces: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    // After the final newline, split gives an empty piece; anything else
    // there is an incomplete line.
    let tail = pieces.pop().unwrap_or_default();
    let tail = &tail[..tail.len() - strip_cr(tail)];
    let mut torn_tail = !tail.is_empty();
    let mut raw: Vec<(usize, &[u8])> = pieces
        .iter()
        .enumerate()
        .map(|(i, l)| (i + 1, &l[..l.len() - strip_cr(l)]))
        .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
        .collect();
    if raw.is_empty() {
        if tail.iter().all(u8::is_ascii_whitespace) {
            return Err(ReadError::Empty);
        }
        // Only a header without its newline.
        raw.push((pieces.len() + 1, tail));
        torn_tail = false;
    }
    let tail_no = pieces.len() + 1;
    let mut lines: Vec<(usize, Line<'_>)> = raw.iter().map(|(no, b)| (*no, read_line(b))).collect();
    let mut budget = Budget(super::restore::BUDGET);
    let mut mended = Vec::new();
    let (at, header_sum, header) = find_header(&mut lines, &mut budget, &mut mended)?;
    let header_no = lines[at].0;
    lines.remove(at);
    let mut loaded = Loaded {
        header,
        records: Vec::new(),
        lines: Vec::new(),
        torn: None,
        last_sum: header_sum,
        mended,
        gap: None,
        unreadable: Vec::new(),
        later: Vec::new(),
    };
    if loaded.header.version >= 2 {
        chained(&mut loaded, lines, header_no, torn_tail, &mut budget);
    } else {
        in_file_order(&mut loaded, lines, torn_tail);
    }
    if torn_tail {
        loaded.torn = Some(tail_no);
    }
    Ok(loaded)
}

/// Version 1 (no chain): the records in file order, up to the first line
/// that is not one (the last line, bad, is a torn write).
fn in_file_order(loaded: &mut Loaded, lines: Vec<(usize, Line<'_>)>, torn_tail: bool) {
    let count = lines.len();
    for (i, (no, line)) in lines.into_iter().enumerate() {
        let damage = match line {
            Line::Good {
                sum,
                payload: Payload::Record(r),
            } => {
                loaded.records.push(*r);
                loaded.lines.push(no);
                loaded.last_sum = sum;
                continue;
            }
            Line::Good { .. } => Damage::Syntax,
            Line::Bad { damage, .. } => damage,
        };
        if i + 1 == count && !torn_tail {
            loaded.torn = Some(no);
        } else {
            let d = Damaged { line: no, damage };
            loaded.gap = Some(d);
            loaded.unreadable.push(d);
        }
        return;
    }
}

/// A whole record line.
struct Rec {
    no: usize,
    sum: String,
    record: Record,
    used: bool,
}

/// A line that is not a whole record.
struct Bad<'a> {
    no: usize,
    damage: Damage,
    bytes: &'a [u8],
    used: bool,
}

/// Version 2: the records along the chain from the header.
fn chained(
    loaded: &mut Loaded,
    lines: Vec<(usize, Line<'_>)>,
    header_no: usize,
    torn_tail: bool,
    budget: &mut Budget,
) {
    let header_sum = loaded.last_sum.clone();
    let mut recs: Vec<Rec> = Vec::new();
    let mut bads: Vec<Bad<'_>> = Vec::new();
    for (no, line) in lines {
        match line {
            Line::Good {
                sum,
                payload: Payload::Record(r),
            } => recs.push(Rec {
                no,
                sum,
                record: *r,
                used: false,
            }),
            Line::Good { sum, .. } if sum == header_sum => loaded.mended.push(Mended {
                line: no,
                how: Mend::Duplicate,
            }),
            Line::Good { .. } => bads.push(Bad {
                no,
                damage: Damage::Syntax,
                bytes: &[],
                used: false,
            }),
            Line::Bad { damage, bytes } => bads.push(Bad {
                no,
                damage,
                bytes,
                used: false,
            }),
        }
    }
    let mut by_prev: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, r) in recs.iter().enumerate() {
        by_prev.entry(r.record.prev.clone()).or_default().push(i);
    }
    let mut chain_sums: Vec<String> = Vec::new();
    let mut last_no = header_no;
    loop {
        let want = loaded.records.len() as u64 + 1;
        let found = by_prev.get(&loaded.last_sum).and_then(|ids| {
            ids.iter()
                .copied()
                .find(|&i| !recs[i].used && recs[i].record.seq == want)
        });
        if let Some(i) = found {
            recs[i].used = true;
            let sum = recs[i].sum.clone();
            // Other copies of the same line.
            for &j in by_prev.get(&loaded.last_sum).into_iter().flatten() {
                if !recs[j].used && recs[j].sum == sum {
                    recs[j].used = true;
                    loaded.mended.push(Mended {
                        line: recs[j].no,
                        how: Mend::Duplicate,
                    });
                }
            }
            if recs[i].no < last_no {
                loaded.mended.push(Mended {
                    line: recs[i].no,
                    how: Mend::Moved,
                });
            }
            last_no = recs[i].no;
            loaded.records.push(recs[i].record.clone());
            loaded.lines.push(recs[i].no);
            chain_sums.push(sum.clone());
            loaded.last_sum = sum;
            continue;
        }
        // A damaged line in its place: restored if a checksum names it.
        let targets: Vec<[u8; 32]> = recs
            .iter()
            .filter(|r| !r.used && r.record.seq == want + 1)
            .filter_map(|r| digest_of_hex(&r.record.prev))
            .collect();
        let mut order: Vec<usize> = (0..bads.len())
            .filter(|&b| !bads[b].used && !bads[b].bytes.is_empty())
            .collect();
        // The line right after the last one read first.
        order.sort_by_key(|&b| (bads[b].no < last_no, bads[b].no.abs_diff(last_no)));
        let mut restored = None;
        for b in order {
            let Some(json) = restore(bads[b].bytes, &targets, budget) else {
                continue;
            };
            if let Payload::Record(r) = payload(&json)
                && r.seq == want
                && r.prev == loaded.last_sum
            {
                restored = Some((b, super::checksum(&json), *r));
                break;
            }
        }
        let Some((b, sum, record)) = restored else {
            break;
        };
        bads[b].used = true;
        loaded.mended.push(Mended {
            line: bads[b].no,
            how: Mend::Restored,
        });
        last_no = bads[b].no;
        loaded.records.push(record);
        loaded.lines.push(bads[b].no);
        chain_sums.push(sum.clone());
        loaded.last_sum = sum;
    }
    // What is left: copies of lines read, whole records that do not link,
    // and lines beyond repair.
    let chained: std::collections::HashSet<&String> = chain_sums.iter().collect();
    let mut later: Vec<&Rec> = Vec::new();
    for r in recs.iter().filter(|r| !r.used) {
        if chained.contains(&r.sum) || later.iter().any(|l| l.sum == r.sum) {
            loaded.mended.push(Mended {
                line: r.no,
                how: Mend::Duplicate,
            });
        } else {
            later.push(r);
        }
    }
    later.sort_by_key(|r| (r.record.seq, r.no));
    let mut unreadable: Vec<Damaged> = bads
        .iter()
        .filter(|b| !b.used)
        .map(|b| Damaged {
            line: b.no,
            damage: b.damage,
        })
        .collect();
    // A bad last line and nothing after the game: a torn write (a power
    // cut can leave garbage at the end); it was never announced.
    let last_line = recs
        .iter()
        .map(|r| r.no)
        .chain(bads.iter().map(|b| b.no))
        .max();
    if later.is_empty()
        && !torn_tail
        && let [only] = unreadable.as_slice()
        && Some(only.line) == last_line
    {
        loaded.torn = Some(only.line);
        unreadable.clear();
    }
    let end = last_no;
    loaded.gap = later
        .iter()
        .map(|r| Damaged {
            line: r.no,
            damage: Damage::Chain,
        })
        .chain(unreadable.iter().copied().filter(|d| d.line > end))
        .min_by_key(|d| d.line);
    loaded.later = later
        .into_iter()
        .map(|r| Later {
            line: r.no,
            record: r.record.clone(),
        })
        .collect();
    loaded.unreadable = unreadable;
    loaded.mended.sort_by_key(|m| m.line);
}
