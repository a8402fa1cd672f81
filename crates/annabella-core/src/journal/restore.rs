//! Restoring a damaged journal line exactly, from a checksum that names
//! it: the line's own `sum`, or the `prev` of the record after it. A line
//! whose bytes differ from the original in one place (a flipped bit, a
//! changed byte: what a bad sector, a cosmic ray or an editor slip leaves)
//! is rebuilt by trying every such change until the SHA-256 matches; no
//! other text has that checksum, so what is restored is the line as it
//! was written, never a guess. The search is bounded ([`Budget`]).

use sha2::{Digest, Sha256};

/// `{"sum":"`: how every line starts.
const PREFIX: &[u8] = b"{\"sum\":\"";
/// `","rec":`: between the checksum and the payload.
const MIDDLE: &[u8] = b"\",\"rec\":";
/// Hex digits of a checksum.
const SUM_LEN: usize = 64;
/// Where the payload starts.
const JSON_AT: usize = PREFIX.len() + SUM_LEN + MIDDLE.len();

/// The most bytes hashed while restoring the lines of one journal (about
/// a second of work; one damaged line of a game takes a few megabytes at
/// most). A journal damaged beyond this is read as far as the restored
/// lines go.
pub const BUDGET: u64 = 256 << 20;

/// The hashing still allowed, in bytes.
#[derive(Debug, Clone, Copy)]
pub struct Budget(pub u64);

impl Budget {
    fn spend(&mut self, bytes: usize) -> bool {
        let bytes = bytes as u64;
        if self.0 < bytes {
            self.0 = 0;
            return false;
        }
        self.0 -= bytes;
        true
    }
}

/// A checksum in hex as bytes.
pub fn digest_of_hex(hex: &str) -> Option<[u8; 32]> {
    let b = hex.as_bytes();
    if b.len() != SUM_LEN {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in b.chunks_exact(2).enumerate() {
        let hi = nibble(pair[0])?;
        let lo = nibble(pair[1])?;
        out[i] = (hi << 4) | lo;
    }
    Some(out)
}

fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    }
}

/// A line taken apart by its frame.
struct Framed<'a> {
    /// The line's own checksum, if it reads as one.
    own: Option<[u8; 32]>,
    /// The payload.
    json: &'a [u8],
    /// A byte of the frame had to be mended.
    mended: bool,
}

/// The line's payload with its frame mended; `None` when the frame
/// differs in more than one byte (or the line is too short to be a
/// journal line).
fn frame(line: &[u8]) -> Option<Framed<'_>> {
    if line.len() < JSON_AT + 3 {
        return None;
    }
    let mut wrong = 0;
    wrong += line[..PREFIX.len()]
        .iter()
        .zip(PREFIX)
        .filter(|(a, b)| a != b)
        .count();
    wrong += line[PREFIX.len() + SUM_LEN..JSON_AT]
        .iter()
        .zip(MIDDLE)
        .filter(|(a, b)| a != b)
        .count();
    wrong += usize::from(line[line.len() - 1] != b'}');
    if wrong > 1 {
        return None;
    }
    let own = std::str::from_utf8(&line[PREFIX.len()..PREFIX.len() + SUM_LEN])
        .ok()
        .and_then(digest_of_hex);
    Some(Framed {
        own,
        json: &line[JSON_AT..line.len() - 1],
        mended: wrong == 1,
    })
}

/// The payload of `line` as it was written, if a checksum in `targets` or
/// the line's own names it and the line differs from the original in at
/// most one byte.
pub fn restore(line: &[u8], targets: &[[u8; 32]], budget: &mut Budget) -> Option<String> {
    let Framed {
        own,
        json,
        mended: mended_frame,
    } = frame(line)?;
    let mut wanted: Vec<[u8; 32]> = targets.to_vec();
    let own_is_hex = own.is_some();
    wanted.extend(own);
    if wanted.is_empty() || !budget.spend(json.len()) {
        return None;
    }
    let whole: [u8; 32] = Sha256::digest(json).into();
    if wanted.contains(&whole) {
        return String::from_utf8(json.to_vec()).ok();
    }
    // The one changed byte was in the frame, or the checksum field is not
    // hex (then the change is there): the payload would have matched.
    if mended_frame || !own_is_hex {
        return None;
    }
    search(json, &wanted, budget).and_then(|c| String::from_utf8(c).ok())
}

/// `json` with one byte changed so that its SHA-256 is in `targets`:
/// single bit flips first (the usual damage), then every other value.
fn search(json: &[u8], targets: &[[u8; 32]], budget: &mut Budget) -> Option<Vec<u8>> {
    let n = json.len();
    // The hash state after each whole 64-byte block: a change at `p` only
    // needs the bytes from its block on.
    let mut states = Vec::with_capacity(n / 64 + 1);
    let mut h = Sha256::new();
    states.push(h.clone());
    for block in json.chunks_exact(64) {
        h.update(block);
        states.push(h.clone());
    }
    for pass in 0..2 {
        for p in 0..n {
            let at = (p / 64) * 64;
            let orig = json[p];
            for v in 0..=255u8 {
                let flips = (v ^ orig).count_ones();
                let tried_now = if pass == 0 { flips == 1 } else { flips > 1 };
                if !tried_now {
                    continue;
                }
                if !budget.spend(n - at) {
                    return None;
                }
                let mut h = states[at / 64].clone();
                h.update(&json[at..p]);
                h.update([v]);
                h.update(&json[p + 1..]);
                let d: [u8; 32] = h.finalize().into();
                if targets.contains(&d) {
                    let mut c = json.to_vec();
                    c[p] = v;
                    return Some(c);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(json: &str) -> (Vec<u8>, [u8; 32]) {
        let sum = super::super::checksum(json);
        let l = format!("{{\"sum\":\"{sum}\",\"rec\":{json}}}");
        (l.into_bytes(), digest_of_hex(&sum).unwrap())
    }

    const JSON: &str = r#"{"seq":3,"prev":"ab","at_ms":1000,"event":"Tick","said":["Zeit"]}"#;

    #[test]
    fn every_single_byte_change_is_restored_from_the_own_checksum() {
        let (good, _) = line(JSON);
        let mut budget = Budget(BUDGET);
        for p in JSON_AT..good.len() - 1 {
            for v in [good[p] ^ 0x01, good[p] ^ 0x80, b'#', 0] {
                if v == good[p] {
                    continue;
                }
                let mut bad = good.clone();
                bad[p] = v;
                assert_eq!(
                    restore(&bad, &[], &mut budget).as_deref(),
                    Some(JSON),
                    "byte {p} -> {v:#x}"
                );
            }
        }
    }

    #[test]
    fn a_damaged_frame_or_checksum_is_restored_from_the_next_records_prev() {
        let (good, sum) = line(JSON);
        let mut budget = Budget(BUDGET);
        for p in 0..JSON_AT {
            let mut bad = good.clone();
            bad[p] ^= 0x01;
            // Without the next record's word, a damaged checksum field
            // leaves nothing to check the payload against.
            let alone = restore(&bad, &[], &mut budget);
            let with_next = restore(&bad, &[sum], &mut budget);
            assert_eq!(with_next.as_deref(), Some(JSON), "byte {p}");
            if (PREFIX.len()..PREFIX.len() + SUM_LEN).contains(&p) {
                assert_eq!(alone, None, "byte {p}");
            } else {
                assert_eq!(alone.as_deref(), Some(JSON), "byte {p}");
            }
        }
        let mut bad = good.clone();
        let last = bad.len() - 1;
        bad[last] = b')';
        assert_eq!(restore(&bad, &[], &mut budget).as_deref(), Some(JSON));
    }

    #[test]
    fn two_changes_or_a_lost_byte_are_not_guessed() {
        let (good, sum) = line(JSON);
        let mut budget = Budget(BUDGET);
        let mut two = good.clone();
        two[JSON_AT + 3] ^= 1;
        two[JSON_AT + 20] ^= 1;
        assert_eq!(restore(&two, &[sum], &mut budget), None);
        let mut shorter = good.clone();
        shorter.remove(JSON_AT + 5);
        assert_eq!(restore(&shorter, &[sum], &mut budget), None);
        // A checksum and its frame in two places.
        let mut frame_and_json = good.clone();
        frame_and_json[0] = b'[';
        frame_and_json[JSON_AT + 4] ^= 1;
        assert_eq!(restore(&frame_and_json, &[sum], &mut budget), None);
        assert_eq!(restore(b"@@@ garbage @@@", &[sum], &mut budget), None);
    }

    #[test]
    fn the_budget_bounds_the_work() {
        let (good, _) = line(JSON);
        let mut bad = good.clone();
        let last = bad.len() - 2;
        bad[last] = b'#';
        // Not enough for the search: nothing restored, the budget spent.
        let mut small = Budget(1000);
        assert_eq!(restore(&bad, &[], &mut small), None);
        assert_eq!(small.0, 0);
        let mut empty = Budget(0);
        assert_eq!(restore(&good, &[], &mut empty), None);
    }

    #[test]
    fn hex_checksums() {
        assert_eq!(digest_of_hex(&"0".repeat(64)), Some([0; 32]));
        assert_eq!(digest_of_hex(&"f".repeat(64)), Some([0xff; 32]));
        assert_eq!(digest_of_hex(&"F".repeat(64)), None);
        assert_eq!(digest_of_hex("00"), None);
    }
}
