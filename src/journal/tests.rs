use super::*;

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
        style: Style::Long,
        event: String::new(),
        site: String::new(),
        continues: None,
    }
}

fn record(n: u64) -> Record {
    Record {
        at_ms: n * 1000,
        line: Some(n),
        event: Event::Tick,
        said: vec![format!("tick {n}")],
        clock_ms: [n, n + 1],
    }
}

fn file(records: u64) -> String {
    let mut s = encode_line(&header()).unwrap();
    for n in 0..records {
        s.push_str(&encode_line(&record(n)).unwrap());
    }
    s
}

#[test]
fn round_trip() {
    let l = parse(file(3).as_bytes()).unwrap();
    assert_eq!(l.header, header());
    assert_eq!(l.records, vec![record(0), record(1), record(2)]);
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
        Err(ReadError::Corrupt {
            line,
            checksum,
            good,
        }) => {
            assert_eq!(line, 3);
            assert!(checksum);
            assert_eq!(good.records, vec![record(0)]);
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
            checksum: false,
            ..
        })
    ));
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
fn continuation_names_do_not_nest() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("game.jsonl");
    let c1 = continuation_path(&old);
    assert_eq!(c1, dir.path().join("game-cont1.jsonl"));
    std::fs::write(&c1, "x").unwrap();
    assert_eq!(continuation_path(&c1), dir.path().join("game-cont2.jsonl"));
}

#[test]
fn writer_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("g.jsonl");
    let mut w = Writer::create(&p, &header(), &[record(0)]).unwrap();
    w.append(&record(1)).unwrap();
    assert!(Writer::create(&p, &header(), &[]).is_err());
    let l = read(&p).unwrap();
    assert_eq!(l.records, vec![record(0), record(1)]);
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
