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
        practice: false,
        sighted: None,
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

/// The file's lines (without their newlines).
fn lines_of(text: &str) -> Vec<String> {
    text.lines().map(str::to_owned).collect()
}

fn join(ls: &[String]) -> String {
    ls.join("\n") + "\n"
}

fn mends(l: &Loaded) -> Vec<(usize, Mend)> {
    l.mended.iter().map(|m| (m.line, m.how)).collect()
}

#[test]
fn garbage_in_the_middle_stops_the_game_and_keeps_the_rest_apart() {
    let full = file(3);
    let mut bad = lines_of(&full);
    // Two changes in one line: beyond repair.
    bad[2] = bad[2].replace("tick 1", "tack 7");
    let l = parse(join(&bad).as_bytes()).unwrap();
    assert_eq!(events(&l), vec![(1, 0)]);
    let gap = Damaged {
        line: 3,
        damage: Damage::Checksum,
    };
    assert_eq!(l.gap, Some(gap));
    assert_eq!(l.unreadable, vec![gap]);
    // Record 3 is whole but follows the lost record 2: for the arbiter.
    assert_eq!(
        l.later
            .iter()
            .map(|x| (x.line, x.record.seq))
            .collect::<Vec<_>>(),
        vec![(4, 3)]
    );
    assert!(l.drops_records() && !l.is_intact());
    let mut bad = lines_of(&full);
    bad[1] = "%%% not json".to_owned();
    let l = parse(join(&bad).as_bytes()).unwrap();
    assert!(l.records.is_empty());
    assert_eq!(
        l.gap,
        Some(Damaged {
            line: 2,
            damage: Damage::Syntax
        })
    );
    assert_eq!(l.later.len(), 2);
}

#[test]
fn every_deleted_line_stops_the_game_there_and_offers_the_rest() {
    let n = 20;
    let full = lines_of(&file(n));
    for del in 1..=n as usize {
        let mut ls = full.clone();
        ls.remove(del);
        let l = parse(join(&ls).as_bytes()).unwrap();
        assert_eq!(l.records.len(), del - 1, "line {} deleted", del + 1);
        if del == n as usize {
            // The last record gone: nothing tells (as after a crash
            // before the write).
            assert!(l.is_intact(), "last line deleted");
            continue;
        }
        assert_eq!(
            l.gap,
            Some(Damaged {
                line: del + 1,
                damage: Damage::Chain
            }),
            "line {} deleted",
            del + 1
        );
        let later: Vec<u64> = l.later.iter().map(|x| x.record.seq).collect();
        assert_eq!(later, ((del as u64 + 1)..=n).collect::<Vec<_>>());
    }
}

#[test]
fn every_duplicated_line_is_skipped_and_named() {
    let n = 20;
    let full = lines_of(&file(n));
    for dup in 0..=n as usize {
        for at in [dup + 1, full.len()] {
            let mut ls = full.clone();
            ls.insert(at, full[dup].clone());
            let l = parse(join(&ls).as_bytes()).unwrap();
            assert_eq!(l.records.len(), n as usize, "line {} doubled", dup + 1);
            assert_eq!(l.gap, None);
            assert!(l.later.is_empty() && l.unreadable.is_empty());
            assert!(!l.drops_records());
            assert_eq!(
                mends(&l),
                vec![(at + 1, Mend::Duplicate)],
                "line {} doubled at {}",
                dup + 1,
                at + 1
            );
        }
    }
}

#[test]
fn every_swapped_pair_is_read_in_chain_order() {
    let n = 20;
    let full = lines_of(&file(n));
    for a in 0..n as usize {
        let mut ls = full.clone();
        ls.swap(a, a + 1);
        let l = parse(join(&ls).as_bytes()).unwrap();
        assert_eq!(
            events(&l),
            (1..=n).map(|k| (k, (k - 1) * 1000)).collect::<Vec<_>>(),
            "lines {} and {} swapped",
            a + 1,
            a + 2
        );
        assert_eq!(l.gap, None);
        // With the header, both lines are out of place.
        let moved = if a == 0 {
            vec![(1, Mend::Moved), (2, Mend::Moved)]
        } else {
            vec![(a + 1, Mend::Moved)]
        };
        assert_eq!(mends(&l), moved);
        assert!(!l.drops_records());
    }
}

#[test]
fn every_flipped_bit_of_every_line_is_restored() {
    let n = 6;
    let text = file(n);
    let full = lines_of(&text);
    let last = full.len() - 1;
    let sum_field = 8..72;
    for (i, line) in full.iter().enumerate() {
        for p in 0..line.len() {
            for bit in [0x01u8, 0x04, 0x40] {
                let mut bytes = line.as_bytes().to_vec();
                bytes[p] ^= bit;
                let mut damaged = Vec::new();
                for (j, l) in full.iter().enumerate() {
                    damaged.extend_from_slice(if i == j { &bytes } else { l.as_bytes() });
                    damaged.push(b'\n');
                }
                let what = format!("line {} byte {p} ^ {bit:#x}", i + 1);
                let l = match parse(&damaged) {
                    Ok(l) => l,
                    Err(e) => panic!("{what}: {e:?}"),
                };
                if i == last && sum_field.contains(&p) {
                    // The last line's checksum damaged: nothing after it
                    // names the line, so it reads as a torn write.
                    assert_eq!(l.records.len(), n as usize - 1, "{what}");
                    assert_eq!(l.torn, Some(i + 1), "{what}");
                    continue;
                }
                assert_eq!(l.header, header(), "{what}");
                assert_eq!(l.records.len(), n as usize, "{what}");
                assert_eq!(mends(&l), vec![(i + 1, Mend::Restored)], "{what}");
                assert_eq!(l.gap, None, "{what}");
                // Exactly the records written.
                assert_eq!(l.records, parse(text.as_bytes()).unwrap().records, "{what}");
            }
        }
    }
}

#[test]
fn a_changed_byte_in_a_text_field_is_restored_and_two_are_not_guessed() {
    let full = lines_of(&file(5));
    let mut one = full.clone();
    one[3] = one[3].replace("tick 2", "tick X");
    let l = parse(join(&one).as_bytes()).unwrap();
    assert_eq!(l.records.len(), 5);
    assert_eq!(l.records[2].said, vec!["tick 2".to_owned()]);
    assert_eq!(mends(&l), vec![(4, Mend::Restored)]);
    let mut two = full.clone();
    two[3] = two[3].replace("tick 2", "tack X");
    let l = parse(join(&two).as_bytes()).unwrap();
    assert_eq!(l.records.len(), 2);
    assert_eq!(l.later.len(), 2);
}

#[test]
fn crlf_line_ends_a_byte_order_mark_and_blank_lines_are_not_damage() {
    let text = file(4);
    let clean = parse(text.as_bytes()).unwrap();
    let crlf = text.replace('\n', "\r\n");
    let bom = format!("\u{feff}{text}");
    let both = format!("\u{feff}{crlf}");
    let blank = text.replace('\n', "\n\n");
    for (what, t) in [
        ("crlf", crlf),
        ("bom", bom),
        ("both", both),
        ("blank", blank),
    ] {
        let l = parse(t.as_bytes()).unwrap();
        assert_eq!(l.records, clean.records, "{what}");
        assert_eq!(l.last_sum, clean.last_sum, "{what}");
        assert!(l.is_intact(), "{what}: {l:?}");
    }
    // A torn CRLF line is still torn.
    let crlf = file(4).replace('\n', "\r\n");
    let cut = &crlf[..crlf.len() - 30];
    let l = parse(cut.as_bytes()).unwrap();
    assert_eq!(l.records.len(), 3);
    assert_eq!(l.torn, Some(5));
}

#[test]
fn a_damaged_moved_or_doubled_header_is_found() {
    let full = lines_of(&file(3));
    let mut flipped = full.clone();
    flipped[0] = flipped[0].replace("Anna", "Anne");
    let l = parse(join(&flipped).as_bytes()).unwrap();
    assert_eq!(l.header, header());
    assert_eq!(l.records.len(), 3);
    assert_eq!(mends(&l), vec![(1, Mend::Restored)]);
    let mut swapped = full.clone();
    swapped.swap(0, 1);
    let l = parse(join(&swapped).as_bytes()).unwrap();
    assert_eq!(l.records.len(), 3);
    assert_eq!(mends(&l), vec![(1, Mend::Moved), (2, Mend::Moved)]);
    let mut doubled = full.clone();
    doubled.insert(1, full[0].clone());
    let l = parse(join(&doubled).as_bytes()).unwrap();
    assert_eq!(l.records.len(), 3);
    assert_eq!(mends(&l), vec![(2, Mend::Duplicate)]);
    // Without its header a journal cannot be read: the players, the time
    // control and the start position are gone.
    let headless = join(&full[1..]);
    assert!(matches!(
        parse(headless.as_bytes()),
        Err(ReadError::NotJournal)
    ));
}

#[test]
fn two_writers_the_first_chain_is_the_game_the_other_is_for_the_arbiter() {
    // A second program appended its own record 3 and 4 after record 2.
    let full = lines_of(&file(4));
    let two = parse(join(&full[..3]).as_bytes()).unwrap();
    let mut other = record(9);
    other.seq = 3;
    other.prev = two.last_sum.clone();
    let (other_sum, other_line) = encode(&other).unwrap();
    let mut next = record(10);
    next.seq = 4;
    next.prev = other_sum;
    let mut ls = full.clone();
    ls.insert(4, other_line.trim_end().to_owned());
    ls.push(encode_line(&next).unwrap().trim_end().to_owned());
    let l = parse(join(&ls).as_bytes()).unwrap();
    assert_eq!(events(&l), vec![(1, 0), (2, 1000), (3, 2000), (4, 3000)]);
    assert_eq!(
        l.later
            .iter()
            .map(|x| (x.line, x.record.seq))
            .collect::<Vec<_>>(),
        vec![(5, 3), (7, 4)]
    );
    assert_eq!(
        l.gap,
        Some(Damaged {
            line: 5,
            damage: Damage::Chain
        })
    );
}

#[test]
fn a_garbage_line_between_whole_records_loses_nothing() {
    let full = lines_of(&file(4));
    let mut ls = full.clone();
    ls.insert(2, "@@@ garbage @@@".to_owned());
    let l = parse(join(&ls).as_bytes()).unwrap();
    assert_eq!(l.records.len(), 4);
    assert_eq!(l.gap, None);
    assert!(!l.drops_records());
    assert_eq!(
        l.unreadable,
        vec![Damaged {
            line: 3,
            damage: Damage::Syntax
        }]
    );
    assert!(!l.is_intact());
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

#[test]
fn every_day_from_1970_to_2100_is_dated_as_the_calendar_counts() {
    // Counted day by day here, independently of the civil-date formula.
    let leap = |y: u64| (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
    let (mut y, mut m, mut d) = (1970u64, 1u64, 1u64);
    for day in 0..(131 * 366) {
        let (stamp, date) = utc_stamp(Duration::from_secs(day * 86_400 + 3_723));
        assert_eq!(
            stamp,
            format!("{y:04}-{m:02}-{d:02}T01:02:03Z"),
            "day {day}"
        );
        assert_eq!(date, format!("{y:04}.{m:02}.{d:02}"), "day {day}");
        let days_in_month = match m {
            2 if leap(y) => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        d += 1;
        if d > days_in_month {
            d = 1;
            m += 1;
            if m > 12 {
                m = 1;
                y += 1;
            }
        }
    }
}

#[test]
fn chain_links_each_record_to_the_one_before() {
    // The writer's chain against the file built above without it.
    let header_sum = checksum(&serde_json::to_string(&header()).unwrap());
    let records: Vec<Record> = (0..3).map(record).collect();
    let (text, seq, last) = chain(&records, 0, header_sum).unwrap();
    let whole = file(3);
    let header_line = encode_line(&header()).unwrap();
    assert_eq!(format!("{header_line}{text}"), whole);
    assert_eq!(seq, 3);
    let l = parse(whole.as_bytes()).unwrap();
    let third = serde_json::to_string(&l.records[2]).unwrap();
    assert_eq!(last, checksum(&third));
    // Going on from there: the next record follows the third.
    let (more, seq, _) = chain(&[record(3)], seq, last).unwrap();
    assert_eq!(seq, 4);
    let l = parse(format!("{whole}{more}").as_bytes()).unwrap();
    assert_eq!(events(&l), vec![(1, 0), (2, 1000), (3, 2000), (4, 3000)]);
    assert!(l.is_intact());
}

/// The typed errors of issue 19 (a header that describes no game, a style
/// or verbosity that is neither) are worded in every built-in locale: a
/// line, no placeholder left, and not the English line outside English.
#[test]
fn the_typed_errors_of_values_are_worded_in_every_locale() {
    let mut bad_control = header();
    bad_control.control = "90x".to_owned();
    let mut bad_fen = header();
    bad_fen.fen = Some("8/8/8/8/8/8/8/8 w - - 0 1".to_owned());
    let control = config_of(&bad_control).unwrap_err();
    let start = config_of(&bad_fen).unwrap_err();
    assert!(
        matches!(control, JournalConfigError::Control(_)),
        "{control:?}"
    );
    assert_eq!(
        start,
        JournalConfigError::Start(crate::pgn::FenProblem::EmptyBoard)
    );
    let style = "bogus".parse::<Style>().unwrap_err();
    let verbosity = "bogus"
        .parse::<crate::clock::talk::Verbosity>()
        .unwrap_err();
    let en = crate::locale::builtin("en").unwrap();
    let lines = |l: &crate::locale::Locale| {
        vec![
            control.describe(l),
            start.describe(l),
            style.describe(l),
            verbosity.describe(l),
        ]
    };
    let english = lines(&en);
    assert!(english[2].contains("bogus") && english[2].contains("short"));
    assert!(english[3].contains("bogus") && english[3].contains("brief"));
    for code in crate::locale::builtin_codes() {
        let l = crate::locale::builtin(code).unwrap();
        for (line, en_line) in lines(&l).iter().zip(&english) {
            assert!(!line.trim().is_empty(), "{code}: empty");
            assert!(!line.contains('{') && !line.contains('}'), "{code}: {line}");
            if *code != *"en" {
                assert_ne!(line, en_line, "{code}: English");
            }
        }
        let said = [&style.describe(&l), &verbosity.describe(&l)];
        assert!(said.iter().all(|s| s.contains("bogus")), "{code}: {said:?}");
        if *code != *"en" {
            for s in said {
                assert!(
                    !s.contains("unknown") && !s.contains(" use "),
                    "{code}: {s}"
                );
            }
        }
    }
    // Display is the base locale's words, for clap and logs.
    assert_eq!(style.to_string(), style.describe(&en));
}
