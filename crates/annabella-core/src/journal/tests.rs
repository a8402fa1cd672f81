use std::time::Duration;

use super::*;
use crate::game::Command;

fn header() -> Header {
    Header {
        format: FORMAT.to_owned(),
        version: VERSION,
        created: "2026-11-21T22:00:00Z".to_owned(),
        white: "Anna".to_owned(),
        black: "Bella".to_owned(),
        control: "90m/40+30m+30s".to_owned(),
        fen: None,
        chess960: false,
        locale: "fide".to_owned(),
        locale_file: None,
        style: Style::Long,
        event: String::new(),
        site: String::new(),
        continues: None,
        quickplay: false,
        unsupervised: false,
    }
}

/// Record `n` as the game layer makes it (no place in the chain yet).
fn record(n: u64) -> Record {
    Record {
        seq: 0,
        prev: String::new(),
        at_ms: n * 1000,
        line: Some(n),
        event: Command::Tick,
        said: vec![format!("tick {n}")],
        clock_ms: [n, n + 1],
    }
}

/// The file of a header and `records` records, chained as a writer
/// chains them (computed here independently of [`chain`]).
fn file(records: u64) -> String {
    let mut s = encode_line(&header()).unwrap();
    let mut prev = checksum(&serde_json::to_string(&header()).unwrap());
    for n in 0..records {
        let mut r = record(n);
        r.seq = n + 1;
        r.prev = prev;
        prev = checksum(&serde_json::to_string(&r).unwrap());
        s.push_str(&encode_line(&r).unwrap());
    }
    s
}

/// The records as read back: their place in the chain is kept.
fn events(l: &Loaded) -> Vec<(u64, u64)> {
    l.records.iter().map(|r| (r.seq, r.at_ms)).collect()
}

#[test]
fn round_trip() {
    let l = parse(file(3).as_bytes()).unwrap();
    assert_eq!(l.header, header());
    assert_eq!(events(&l), vec![(1, 0), (2, 1000), (3, 2000)]);
    assert_eq!(l.torn, None);
}

#[test]
fn torn_last_line_is_ignored_and_reported() {
    let full = file(3);
    for cut in 1..40 {
        let text = &full[..full.len() - cut];
        let l = parse(text.as_bytes()).unwrap();
        assert_eq!(l.records.len(), 2, "cut {cut}");
        assert_eq!(l.torn, Some(4), "cut {cut}");
    }
}

#[test]
fn garbage_in_the_middle_is_corruption() {
    let full = file(3);
    let lines: Vec<&str> = full.lines().collect();
    let mut bad = lines.clone();
    let damaged = lines[2].replace("tick 1", "tick 7");
    bad[2] = &damaged;
    let text = bad.join("\n") + "\n";
    match parse(text.as_bytes()) {
        Err(ReadError::Corrupt { line, damage, good }) => {
            assert_eq!(line, 3);
            assert_eq!(damage, Damage::Checksum);
            assert_eq!(events(&good), vec![(1, 0)]);
        }
        other => panic!("expected corruption, got {other:?}"),
    }
    let mut bad = lines.clone();
    bad[1] = "%%% not json";
    let text = bad.join("\n") + "\n";
    assert!(matches!(
        parse(text.as_bytes()),
        Err(ReadError::Corrupt {
            line: 2,
            damage: Damage::Syntax,
            ..
        })
    ));
}

#[test]
fn a_dropped_doubled_or_swapped_line_breaks_the_chain() {
    let full = file(4);
    let lines: Vec<&str> = full.lines().collect();
    let join = |ls: Vec<&str>| ls.join("\n") + "\n";
    // Line 3 (record 2) dropped.
    let dropped = join(vec![lines[0], lines[1], lines[3], lines[4]]);
    // Line 3 doubled.
    let doubled = join(vec![lines[0], lines[1], lines[2], lines[2], lines[3]]);
    // Lines 3 and 4 swapped.
    let swapped = join(vec![lines[0], lines[1], lines[3], lines[2], lines[4]]);
    // Even as the very last line, a whole line in the wrong place is no
    // crash: it is damage, never replayed.
    let doubled_last = join(vec![lines[0], lines[1], lines[2], lines[2]]);
    for (what, text, at) in [
        ("dropped", dropped, 3),
        ("doubled", doubled, 4),
        ("swapped", swapped, 3),
        ("doubled last", doubled_last, 4),
    ] {
        match parse(text.as_bytes()) {
            Err(ReadError::Corrupt { line, damage, good }) => {
                assert_eq!((line, damage), (at, Damage::Chain), "{what}");
                assert_eq!(good.records.len(), at - 2, "{what}");
            }
            other => panic!("{what}: expected a broken chain, got {other:?}"),
        }
    }
}

#[test]
fn version_1_journals_are_still_read() {
    let mut h = header();
    h.version = 1;
    let mut text = encode_line(&h).unwrap();
    for n in 0..2 {
        text.push_str(&encode_line(&record(n)).unwrap());
    }
    let l = parse(text.as_bytes()).unwrap();
    assert_eq!(l.records.len(), 2);
}

#[test]
fn wrong_version_and_not_a_journal() {
    let mut h = header();
    h.version = 99;
    let text = encode_line(&h).unwrap();
    assert!(matches!(
        parse(text.as_bytes()),
        Err(ReadError::BadVersion(99))
    ));
    assert!(matches!(parse(b"hello\n"), Err(ReadError::NotJournal)));
    assert!(matches!(parse(b""), Err(ReadError::Empty)));
}

#[test]
fn utc_dates() {
    assert_eq!(utc_stamp(Duration::ZERO).0, "1970-01-01T00:00:00Z");
    assert_eq!(
        utc_stamp(Duration::from_secs(1_763_763_300)).0,
        "2025-11-21T22:15:00Z"
    );
    assert_eq!(utc_stamp(Duration::from_secs(951_782_400)).1, "2000.02.29");
}
