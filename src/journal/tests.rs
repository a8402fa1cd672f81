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

mod faults {
    //! The store over a disk that fails (issue 25): a record counts only
    //! once it is durable, a failed append leaves the file as it was, and
    //! nothing half-written is ever read back.
    use super::super::fault::{Disk, Faults, Op};
    use super::*;

    /// A writer over a disk holding a header-only journal.
    fn writer(faults: Faults) -> (Writer, Disk) {
        let text = file(0);
        let disk = Disk::new(text.as_bytes(), faults);
        let loaded = parse(text.as_bytes()).unwrap();
        let w = Writer::over(Box::new(disk.clone()), Path::new("g.jsonl"), &loaded);
        (w, disk)
    }

    fn records_in(bytes: &[u8]) -> Vec<(u64, u64)> {
        let l = parse(bytes).unwrap();
        assert!(!l.drops_records(), "{l:?}");
        events(&l)
    }

    #[test]
    fn an_append_is_written_then_synced_before_it_returns() {
        let (mut w, disk) = writer(Faults::default());
        w.append_all(&[record(0), record(1)]).unwrap();
        let s = disk.state();
        assert_eq!(s.log.last(), Some(&Op::Sync), "{:?}", s.log);
        assert!(s.log.iter().any(|o| matches!(o, Op::Write(_))));
        assert_eq!(s.durable, s.bytes);
        assert_eq!(records_in(&s.durable), vec![(1, 0), (2, 1000)]);
        assert_eq!(String::from_utf8_lossy(&s.bytes), file(2));
    }

    #[test]
    fn a_full_disk_on_any_write_leaves_the_file_as_it_was() {
        for nth in 1..=3 {
            let (mut w, disk) = writer(Faults {
                full_at_write: Some(nth),
                ..Faults::default()
            });
            let mut kept = 0;
            for n in 0..3 {
                match w.append_all(&[record(n)]) {
                    Ok(()) => kept += 1,
                    Err(e) => {
                        assert_eq!(e.raw_os_error(), Some(libc::ENOSPC), "write {nth}");
                        break;
                    }
                }
            }
            assert_eq!(kept, nth - 1, "write {nth}");
            let s = disk.state();
            assert_eq!(s.bytes, s.durable, "write {nth}: cut back and synced");
            let want: Vec<(u64, u64)> = (0..kept as u64).map(|n| (n + 1, n * 1000)).collect();
            assert_eq!(records_in(&s.bytes), want, "write {nth}");
        }
    }

    #[test]
    fn a_short_write_is_cut_off_and_never_read_back() {
        let (mut w, disk) = writer(Faults {
            short_write: Some((2, 40)),
            ..Faults::default()
        });
        w.append_all(&[record(0)]).unwrap();
        let e = w.append_all(&[record(1)]).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::ENOSPC));
        let s = disk.state();
        assert!(s.log.contains(&Op::Write(40)), "{:?}", s.log);
        assert_eq!(records_in(&s.bytes), vec![(1, 0)]);
        assert_eq!(s.bytes, s.durable);
        assert_eq!(String::from_utf8_lossy(&s.bytes), file(1));
    }

    #[test]
    fn a_failing_sync_undoes_the_append() {
        // Sync 1 is the first append's; sync 2 fails.
        let (mut w, disk) = writer(Faults {
            fail_sync: Some(2),
            ..Faults::default()
        });
        w.append_all(&[record(0)]).unwrap();
        let e = w.append_all(&[record(1), record(2)]).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::EIO));
        {
            let s = disk.state();
            assert_eq!(records_in(&s.bytes), vec![(1, 0)]);
            assert_eq!(records_in(&s.durable), vec![(1, 0)]);
        }
        // The chain goes on from the last durable record.
        w.append_all(&[record(3)]).unwrap();
        let s = disk.state();
        assert_eq!(records_in(&s.bytes), vec![(1, 0), (2, 3000)]);
    }

    #[test]
    fn the_file_sink_asks_the_system_to_sync_and_passes_its_refusal_on() {
        // A pipe cannot be synced (fdatasync gives EINVAL): a sink that
        // only pretended to sync would say Ok. The double's tests above
        // prove the store syncs; this proves the real sink does.
        let (reader, writer) = std::io::pipe().unwrap();
        let writer = File::from(std::os::fd::OwnedFd::from(writer));
        let mut sink: Box<dyn Sink> = Box::new(writer);
        let e = sink.sync_data().unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::EINVAL));
        drop(reader);
        // And a regular file syncs.
        let dir = tempfile::tempdir().unwrap();
        let mut sink: Box<dyn Sink> = Box::new(File::create(dir.path().join("f")).unwrap());
        sink.write_all(b"x").unwrap();
        sink.sync_data().unwrap();
        assert_eq!(sink.size().unwrap(), 1);
    }

    #[test]
    fn when_even_cutting_back_fails_the_half_line_is_torn_and_cut_before_the_next() {
        let (mut w, disk) = writer(Faults {
            short_write: Some((2, 40)),
            fail_cut: true,
            ..Faults::default()
        });
        w.append_all(&[record(0)]).unwrap();
        assert!(w.append_all(&[record(1)]).is_err());
        {
            let s = disk.state();
            // The half line is there, but never read as a record, and
            // was never synced.
            let l = parse(&s.bytes).unwrap();
            assert_eq!(events(&l), vec![(1, 0)]);
            assert_eq!(l.torn, Some(3));
            assert_eq!(records_in(&s.durable), vec![(1, 0)]);
        }
        // Nothing is appended after a half line while it cannot be cut.
        assert!(w.append_all(&[record(2)]).is_err());
        assert_eq!(parse(&disk.state().bytes).unwrap().records.len(), 1);
        disk.heal();
        // The disk is writable again: first the half line goes.
        w.append_all(&[record(2)]).unwrap();
        let s = disk.state();
        assert_eq!(records_in(&s.bytes), vec![(1, 0), (2, 2000)]);
        assert_eq!(parse(&s.bytes).unwrap().torn, None);
    }
}

#[test]
fn the_lock_is_on_the_file_whatever_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("g.jsonl");
    let w = Writer::create(&p, &header(), &[]).unwrap();
    let l = read(&p).unwrap();
    let hard = dir.path().join("hard.jsonl");
    std::fs::hard_link(&p, &hard).unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let sym = sub.join("sym.jsonl");
    std::os::unix::fs::symlink(&p, &sym).unwrap();
    let other = sub.join("..").join("g.jsonl");
    for name in [&p, &hard, &sym, &other] {
        match Writer::append_to(name, &l) {
            Err(StoreError::Locked { pid }) => {
                assert_eq!(pid, Some(std::process::id()), "{}", name.display());
            }
            other => panic!(
                "{}: expected the lock to refuse, got {other:?}",
                name.display()
            ),
        }
    }
    drop(w);
    let mut again = Writer::append_to(&hard, &l).unwrap();
    again.append_all(&[record(0)]).unwrap();
    assert_eq!(read(&p).unwrap().records.len(), 1);
}

#[test]
fn a_long_name_leaves_no_temporary_file_and_takes_no_longer_name() {
    let dir = tempfile::tempdir().unwrap();
    // 250 bytes: the journal's own name fits; ".NAME.tmpPID" would not.
    let name = format!("{}.jsonl", "ж".repeat(122));
    assert!(name.len() <= 255);
    let p = dir.path().join(&name);
    let w = Writer::create(&p, &header(), &[record(0)]).unwrap();
    drop(w);
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec![name]);
    assert_eq!(read(&p).unwrap().records.len(), 1);
}
