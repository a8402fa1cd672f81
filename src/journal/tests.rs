use super::*;
use crate::game::Command;

fn header() -> Header {
    serde_json::from_str(
        r#"{"format":"annabella-journal","version":2,"created":"2026-11-21T22:00:00Z",
            "white":"Anna","black":"Bella","control":"90m/40+30m+30s","locale":"fide"}"#,
    )
    .unwrap()
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

/// The file of a header and `records` records, chained by hand (each
/// line's `prev` is the SHA-256 of the line before), not by the store.
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
fn continuation_names_do_not_nest() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("game.jsonl");
    let c1 = continuation_path(&old);
    assert_eq!(c1, dir.path().join("game-cont1.jsonl"));
    std::fs::write(&c1, "x").unwrap();
    assert_eq!(continuation_path(&c1), dir.path().join("game-cont2.jsonl"));
}

#[test]
fn writer_never_overwrites_and_chains_what_it_appends() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("g.jsonl");
    let mut w = Writer::create(&p, &header(), &[record(0)]).unwrap();
    w.append_all(&[record(1), record(2)]).unwrap();
    drop(w);
    assert!(matches!(
        Writer::create(&p, &header(), &[]),
        Err(StoreError::Exists)
    ));
    let written = std::fs::read_to_string(&p).unwrap();
    assert_eq!(written, file(3), "the writer's chain is the format's");
    let l = read(&p).unwrap();
    assert_eq!(events(&l), vec![(1, 0), (2, 1000), (3, 2000)]);
}

#[test]
fn a_second_writer_is_refused_naming_the_holder() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("g.jsonl");
    let w = Writer::create(&p, &header(), &[]).unwrap();
    let l = read(&p).unwrap();
    match Writer::append_to(&p, &l) {
        Err(StoreError::Locked { pid }) => assert_eq!(pid, Some(std::process::id())),
        other => panic!("expected the lock to refuse, got {other:?}"),
    }
    drop(w);
    // The lock is gone with its writer.
    let mut again = Writer::append_to(&p, &l).unwrap();
    again.append_all(&[record(0)]).unwrap();
    assert_eq!(read(&p).unwrap().records.len(), 1);
}

#[test]
fn appending_after_another_writer_changed_the_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("g.jsonl");
    let mut w = Writer::create(&p, &header(), &[]).unwrap();
    let stale = read(&p).unwrap();
    w.append_all(&[record(0)]).unwrap();
    drop(w);
    assert!(Writer::append_to(&p, &stale).is_err());
}

#[test]
fn unique_names_for_games_started_in_the_same_second() {
    let dir = tempfile::tempdir().unwrap();
    let a = Writer::create_unique(dir.path(), "20261121-220000", &header(), &[]).unwrap();
    let b = Writer::create_unique(dir.path(), "20261121-220000", &header(), &[]).unwrap();
    assert_eq!(a.path(), dir.path().join("20261121-220000.jsonl"));
    assert_eq!(b.path(), dir.path().join("20261121-220000-2.jsonl"));
}
