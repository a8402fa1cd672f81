//! The real binary against damaged journals: a torn last line, garbage in
//! the middle, a wrong version, not a journal. Each gives one clear message
//! with the last good move, and the file's bytes are never changed.

mod common;

use annabella::locale::MsgKey;
use common::{de, de_until as until};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SCRIPT: &str = "\
time 2
white board: e4
announce
press
black board: Bauer Eva zwei Eva vier
white sheet: e4
black sheet: e4
time 9
black board: e5
announce
press
white board: e5
white sheet: e5
black sheet: e5
time 15
white board: Nf3
announce
press
black board: Nf3
";

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_annabella")
}

fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .output()
        .expect("run annabella")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A journal of SCRIPT in a fresh folder.
fn journal() -> (tempfile::TempDir, PathBuf) {
    journal_of(SCRIPT)
}

/// A journal of `script` in a fresh folder.
fn journal_of(script: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = journal_of_in(script, dir.path());
    (dir, path)
}

/// A journal `g.jsonl` of `script` in `dir`.
fn journal_of_in(script: &str, dir: &Path) -> PathBuf {
    std::fs::write(dir.join("s.txt"), script).unwrap();
    let o = run(&["play", "--script", "s.txt", "--journal", "g.jsonl"], dir);
    assert!(o.status.success(), "{}", text(&o));
    dir.join("g.jsonl")
}

/// The resume state line's start for Black to make move `number` (the
/// times after it are not known here).
fn black_to_move(number: u32) -> String {
    let black = de(MsgKey::SideBlack, &[]);
    until(
        MsgKey::JournalState,
        &[("number", &number.to_string()), ("side", &black)],
        "white",
    )
}

fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A record without its place in the chain (`seq`, `prev`).
fn strip(r: &annabella::journal::Record) -> annabella::journal::Record {
    annabella::journal::Record {
        seq: 0,
        prev: String::new(),
        ..r.clone()
    }
}

fn lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect()
}

#[test]
fn intact_journal_resumes_and_exports() {
    let (dir, path) = journal();
    let o = run(&["resume", "g.jsonl", "--script", "/dev/null"], dir.path());
    assert!(o.status.success(), "{}", text(&o));
    let resumed = until(MsgKey::JournalResumed, &[("file", "g.jsonl")], "events");
    assert!(text(&o).contains(&resumed), "{}", text(&o));
    let state = black_to_move(2);
    assert!(text(&o).contains(&state), "{}", text(&o));
    let o = run(&["export", "--board", "black", "g.jsonl"], dir.path());
    assert!(o.status.success(), "{}", text(&o));
    let pgn = String::from_utf8_lossy(&o.stdout);
    assert!(
        pgn.contains("1. e4 {[%clk 1:30:28]} e5 {[%clk 1:30:23]} 2. Nf3"),
        "{pgn}"
    );
    assert!(path.exists());
}

#[test]
fn a_move_made_but_not_pressed_is_resumed_under_its_own_number() {
    // Black makes his second move on his board, and the program stops
    // before he announces it and presses the clock.
    let (dir, _) = journal_of(&format!("{SCRIPT}time 20\nblack board: Nc6\n"));
    let o = run(&["resume", "g.jsonl", "--script", "/dev/null"], dir.path());
    assert!(o.status.success(), "{}", text(&o));
    // Still Black's move 2 (his board already reads move 3).
    let state = black_to_move(2);
    assert!(text(&o).contains(&state), "{}", text(&o));
}

#[test]
fn torn_last_line_is_reported_ignored_and_the_file_is_untouched() {
    let (dir, path) = journal();
    let full = std::fs::read(&path).unwrap();
    // Cut the last line in half, as a crash during the write would.
    let cut = full.len() - 40;
    std::fs::write(&path, &full[..cut]).unwrap();
    let before = std::fs::read(&path).unwrap();
    let o = run(&["resume", "g.jsonl", "--script", "/dev/null"], dir.path());
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let torn = until(MsgKey::JournalTornTail, &[("file", "g.jsonl")], "line");
    assert!(out.contains(&torn), "{out}");
    // The whole line: the last good move and the new journal.
    let line = out
        .lines()
        .find(|l| l.starts_with(&torn))
        .unwrap_or_default();
    let n = line[torn.len()..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap_or_default();
    let full = de(
        MsgKey::JournalTornTail,
        &[
            ("file", "g.jsonl"),
            ("line", n),
            ("last", "2. Nf3"),
            ("new", "g-cont1.jsonl"),
        ],
    );
    assert_eq!(line, full, "{out}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the old journal was changed"
    );
    // The continuation holds the good events and names the old file.
    let cont = std::fs::read_to_string(dir.path().join("g-cont1.jsonl")).unwrap();
    assert!(
        cont.contains("\"continues\":{\"file\":\"g.jsonl\""),
        "{cont}"
    );
    // Finishing the game in the continuation replays the rest of the script
    // (the torn event, never announced, is done again).
    let o = run(
        &["play", "--script", "s.txt", "--journal", "g-cont1.jsonl"],
        dir.path(),
    );
    // "...; both boards agree. Black to move."
    let black = de(MsgKey::SideBlack, &[]);
    let executed = de(MsgKey::MirrorExecuted, &[("next", &black)]);
    let agree = executed.split("{move}").nth(1).unwrap_or_default();
    assert!(!agree.is_empty());
    assert!(text(&o).contains(agree), "{}", text(&o));
    let o = run(&["export", "--format", "json", "g-cont1.jsonl"], dir.path());
    let json = String::from_utf8_lossy(&o.stdout);
    assert!(json.contains("\"g1f3\""), "{json}");
    // Reading the torn file for export also works, with a note.
    let o = run(&["export", "g.jsonl"], dir.path());
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(&until(
            MsgKey::JournalTornRead,
            &[("file", "g.jsonl")],
            "line"
        )),
        "{}",
        text(&o)
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_flipped_byte_in_the_middle_is_restored_and_the_game_goes_on() {
    let (dir, path) = journal();
    let full = std::fs::read(&path).unwrap();
    let mut ls = lines(&full);
    // Line 12 of the file (index 11): flip a character inside the record.
    let target = 11;
    let pos = ls[target].len() - 20;
    ls[target][pos] ^= 0x01;
    let damaged = ls.join(&b'\n');
    std::fs::write(&path, &damaged).unwrap();
    // On main: "damaged at line 12", and the game stopped at 1... e5.
    let o = run(&["resume", "g.jsonl", "--script", "/dev/null"], dir.path());
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let restored = de(MsgKey::JournalMendRestored, &[("line", "12")]);
    let mended = de(
        MsgKey::JournalMended,
        &[("file", "g.jsonl"), ("lines", &restored)],
    );
    let all = (lines(&full).len() - 2).to_string();
    let salvaged = de(
        MsgKey::JournalSalvaged,
        &[
            ("file", "g.jsonl"),
            ("new", "g-cont1.jsonl"),
            ("events", &all),
        ],
    );
    let said: Vec<&str> = out.lines().collect();
    assert_eq!(said[..2], [mended.as_str(), salvaged.as_str()], "{out}");
    assert!(out.contains(&black_to_move(2)), "{out}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        damaged,
        "the journal was changed"
    );
    // The new journal holds every record, exactly as written.
    let cont = annabella::journal::read(&dir.path().join("g-cont1.jsonl")).unwrap();
    let original = annabella::journal::parse(&full).unwrap();
    assert_eq!(cont.records.len(), original.records.len());
    for (a, b) in cont.records.iter().zip(&original.records) {
        assert_eq!((&a.event, a.at_ms, &a.said), (&b.event, b.at_ms, &b.said));
    }
    // Export reads the whole game too, naming the mended line.
    let o = run(&["export", "--board", "black", "g.jsonl"], dir.path());
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(String::from_utf8_lossy(&o.stderr).trim(), mended);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("2. Nf3"),
        "{}",
        text(&o)
    );
}

/// The journal with `n` bytes of line `line` (1-based) changed: beyond
/// repair from one byte on when `n` > 1.
fn with_damaged_line(path: &Path, line: usize, n: usize) -> Vec<u8> {
    let mut ls = lines(&std::fs::read(path).unwrap());
    let l = &mut ls[line - 1];
    for k in 0..n {
        let at = l.len() - 20 - 7 * k;
        l[at] ^= 0x01;
    }
    ls.join(&b'\n')
}

/// The line of the journal whose record is the tick at `at_ms`.
fn tick_line(path: &Path, at_ms: u64) -> usize {
    let l = annabella::journal::read(path).unwrap();
    let i = l
        .records
        .iter()
        .position(|r| r.at_ms == at_ms && r.event == annabella::game::Command::Tick)
        .unwrap();
    l.lines[i]
}

#[test]
fn a_line_beyond_repair_stops_the_game_there_and_the_arbiter_gets_the_rest() {
    let (dir, path) = journal();
    let original = annabella::journal::read(&path).unwrap();
    // The tick at 9 s (before Black's first move): two bytes changed.
    let line = tick_line(&path, 9000);
    let damaged = with_damaged_line(&path, line, 2);
    std::fs::write(&path, &damaged).unwrap();
    let listing = files(dir.path());
    let events = (line - 2).to_string();
    let later = (original.records.len() - (line - 1)).to_string();
    let reason = de(MsgKey::JournalReasonChecksum, &[]);
    let corrupt = de(
        MsgKey::JournalCorrupt,
        &[
            ("file", "g.jsonl"),
            ("line", &line.to_string()),
            ("reason", &reason),
            ("last", "1. e4"),
            ("events", &events),
            ("later", &later),
        ],
    );
    for args in [
        vec!["resume", "g.jsonl", "--script", "/dev/null"],
        vec!["play", "--script", "s.txt", "--journal", "g.jsonl"],
    ] {
        let o = run(&args, dir.path());
        let out = text(&o);
        assert!(!o.status.success(), "{out}");
        assert_eq!(out.trim(), corrupt, "{out}");
        assert_eq!(std::fs::read(&path).unwrap(), damaged);
        assert_eq!(files(dir.path()), listing, "a file was created");
    }
    // export prints what it can, says what it dropped, and fails: on
    // main it exited 0 with the warning on standard error only.
    let o = run(&["export", "g.jsonl"], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(String::from_utf8_lossy(&o.stderr).trim(), corrupt);
    assert!(String::from_utf8_lossy(&o.stdout).contains("1. e4"));
    // The arbiter goes through every later record and takes each: the
    // game is whole but for the lost tick (on main --from-good copied
    // only the part before the damage).
    let o = Command::new(bin())
        .args(["resume", "--repair", "g.jsonl", "--script", "/dev/null"])
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            let answers = "ja\n".repeat(50);
            c.stdin.take().unwrap().write_all(answers.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let question = de(
        MsgKey::JournalRepairOffer,
        &[("yes", "ja"), ("no", "nein"), ("quit", "beenden")],
    );
    let offered = out.lines().filter(|l| common::fits(l, &question)).count();
    assert_eq!(offered.to_string(), later, "{out}");
    let done = de(
        MsgKey::JournalRepairDone,
        &[("taken", &later), ("offered", &later), ("file", "g.jsonl")],
    );
    assert!(out.lines().any(|l| l == done), "{out}");
    let cont = annabella::journal::read(&dir.path().join("g-cont1.jsonl")).unwrap();
    assert_eq!(cont.records.len(), original.records.len() - 1);
    assert_eq!(std::fs::read(&path).unwrap(), damaged);
    let o = run(&["export", "--format", "json", "g-cont1.jsonl"], dir.path());
    assert!(o.status.success(), "{}", text(&o));
    let o2 = {
        let clean = dir.path().join("clean");
        std::fs::create_dir(&clean).unwrap();
        journal_of_in(SCRIPT, &clean);
        run(&["export", "--format", "json", "g.jsonl"], &clean)
    };
    assert_eq!(o.stdout, o2.stdout, "the repaired game is the game");
    // --from-good goes on without them, and says what was left out.
    std::fs::remove_file(dir.path().join("g-cont1.jsonl")).unwrap();
    let o = run(
        &["resume", "--from-good", "g.jsonl", "--script", "/dev/null"],
        dir.path(),
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.lines().any(|l| l == corrupt), "{out}");
    let cont = annabella::journal::read(&dir.path().join("g-cont1.jsonl")).unwrap();
    assert_eq!(cont.records.len(), line - 2);
}

#[test]
fn not_json_in_the_middle_is_damage_too() {
    let (dir, path) = journal();
    let full = std::fs::read(&path).unwrap();
    let mut ls = lines(&full);
    ls[3] = b"@@@@ garbage @@@@".to_vec();
    let damaged = ls.join(&b'\n');
    std::fs::write(&path, &damaged).unwrap();
    let o = run(&["resume", "g.jsonl", "--script", "/dev/null"], dir.path());
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    let reason = de(MsgKey::JournalReasonSyntax, &[]);
    let damaged_at = until(
        MsgKey::JournalCorrupt,
        &[("file", "g.jsonl"), ("line", "4"), ("reason", &reason)],
        "last",
    );
    assert!(out.contains(&damaged_at), "{out}");
    assert_eq!(std::fs::read(&path).unwrap(), damaged);
}

#[test]
fn wrong_version_and_foreign_files_are_refused_unchanged() {
    let (dir, path) = journal();
    let full = std::fs::read_to_string(&path).unwrap();
    let mut ls: Vec<String> = full.lines().map(str::to_owned).collect();
    let header = ls[0]
        .split_once(",\"rec\":")
        .map(|(_, r)| r.trim_end_matches('}').to_owned() + "}")
        .unwrap()
        .replace(
            &format!("\"version\":{}", annabella::journal::VERSION),
            "\"version\":7",
        );
    ls[0] = annabella::journal::encode_line(
        &serde_json::from_str::<serde_json::Value>(&header).unwrap(),
    )
    .unwrap()
    .trim_end()
    .to_owned();
    let changed = ls.join("\n") + "\n";
    std::fs::write(&path, &changed).unwrap();
    let o = run(&["resume", "g.jsonl", "--script", "/dev/null"], dir.path());
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    // No --locale and no settings file: fide's words (German).
    let refused = common::de(
        MsgKey::JournalBadVersion,
        &[
            ("file", "g.jsonl"),
            ("found", "7"),
            ("expected", &annabella::journal::VERSION.to_string()),
        ],
    );
    assert!(out.contains(&refused), "{out}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), changed);

    let foreign = dir.path().join("notes.jsonl");
    std::fs::write(&foreign, "{\"hello\": 1}\n").unwrap();
    let o = run(&["resume", "notes.jsonl"], dir.path());
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    let foreign_line = until(
        MsgKey::JournalNotJournal,
        &[("file", "notes.jsonl")],
        "reason",
    );
    assert!(out.contains(&foreign_line), "{out}");
    assert_eq!(
        std::fs::read_to_string(&foreign).unwrap(),
        "{\"hello\": 1}\n"
    );
}

/// An edit of a journal's lines.
type Edit = Box<dyn FnOnce(&mut Vec<Vec<u8>>)>;

/// The journal `path` with one line dropped, doubled or moved (checksums
/// of every line intact).
fn edited(path: &Path, edit: Edit) -> Vec<u8> {
    let mut ls = lines(&std::fs::read(path).unwrap());
    edit(&mut ls);
    let mut out = ls.join(&b"\n"[..]);
    out.push(b'\n');
    out
}

#[test]
fn a_doubled_or_swapped_line_loses_nothing() {
    let (dir, path) = journal();
    let original = std::fs::read(&path).unwrap();
    let full = annabella::journal::parse(&original).unwrap();
    let cases: [(&str, Edit, MsgKey, &str); 2] = [
        (
            "doubled",
            Box::new(|ls| {
                let l = ls[4].clone();
                ls.insert(4, l);
            }),
            MsgKey::JournalMendDuplicate,
            "6",
        ),
        (
            "swapped",
            Box::new(|ls| ls.swap(4, 5)),
            MsgKey::JournalMendMoved,
            "5",
        ),
    ];
    for (what, edit, key, line) in cases {
        let bytes = edited(&path, edit);
        std::fs::write(&path, &bytes).unwrap();
        // On main: "damaged at line 5", the game stopped at line 4.
        let o = run(&["resume", "g.jsonl", "--script", "/dev/null"], dir.path());
        let out = text(&o);
        assert!(o.status.success(), "{what}: {out}");
        let mended = de(
            MsgKey::JournalMended,
            &[("file", "g.jsonl"), ("lines", &de(key, &[("line", line)]))],
        );
        assert_eq!(out.lines().next(), Some(mended.as_str()), "{what}: {out}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{what}: unchanged");
        let cont = dir.path().join("g-cont1.jsonl");
        let l = annabella::journal::read(&cont).unwrap();
        assert_eq!(l.records.len(), full.records.len(), "{what}");
        let o = run(&["export", "g.jsonl"], dir.path());
        assert!(o.status.success(), "{what}: {}", text(&o));
        std::fs::remove_file(cont).unwrap();
        std::fs::write(&path, &original).unwrap();
    }
}

#[test]
fn a_dropped_line_stops_the_game_export_fails_and_repair_offers_the_rest() {
    let (dir, path) = journal();
    let full = annabella::journal::read(&path).unwrap();
    // The tick at 9 s is lost.
    let line = tick_line(&path, 9000);
    let bytes = edited(&path, Box::new(move |ls| drop(ls.remove(line - 1))));
    std::fs::write(&path, &bytes).unwrap();
    let reason = de(MsgKey::JournalReasonChain, &[]);
    let o = run(&["resume", "g.jsonl", "--script", "/dev/null"], dir.path());
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains(&reason), "{}", text(&o));
    // On main export printed the part before the gap and exited 0.
    let o = run(&["export", "g.jsonl"], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains(&reason));
    let o = Command::new(bin())
        .args(["resume", "--repair", "g.jsonl", "--script", "/dev/null"])
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            // Unclear answers are asked again; the end of input leaves
            // the rest out.
            c.stdin
                .take()
                .unwrap()
                .write_all("vielleicht\nja\nja\nnein\n".as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let again = de(
        MsgKey::JournalRepairAnswer,
        &[("yes", "ja"), ("no", "nein"), ("quit", "beenden")],
    );
    assert!(out.lines().any(|l| l == again), "{out}");
    let cont = annabella::journal::read(&dir.path().join("g-cont1.jsonl")).unwrap();
    // Up to the gap, then the two later records taken (the third left
    // out, the rest with it at the end of the answers).
    assert_eq!(cont.records.len(), line - 2 + 2, "{out}");
    assert_eq!(
        strip(&cont.records[line - 2]),
        strip(&full.records[line - 1])
    );
    assert_eq!(strip(&cont.records[line - 1]), strip(&full.records[line]));
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn crlf_line_ends_and_a_byte_order_mark_are_read_as_if_not_there() {
    let (dir, path) = journal();
    let original = std::fs::read(&path).unwrap();
    let clean = String::from_utf8(original.clone()).unwrap();
    let o = run(&["export", "--format", "json", "g.jsonl"], dir.path());
    let want = o.stdout;
    for (what, bytes) in [
        ("crlf", clean.replace('\n', "\r\n").into_bytes()),
        ("bom", format!("\u{feff}{clean}").into_bytes()),
        (
            "both",
            format!("\u{feff}{}", clean.replace('\n', "\r\n")).into_bytes(),
        ),
    ] {
        std::fs::write(&path, &bytes).unwrap();
        // On main none of these could open the journal at all.
        let o = run(&["export", "--format", "json", "g.jsonl"], dir.path());
        assert!(o.status.success(), "{what}: {}", text(&o));
        assert_eq!(o.stdout, want, "{what}");
        assert!(o.stderr.is_empty(), "{what}: {}", text(&o));
        let o = run(&["review", "--plain", "-l", "en", "g.jsonl"], dir.path());
        assert!(o.status.success(), "{what}: {}", text(&o));
        let o = run(
            &["resume", "--from-good", "g.jsonl", "--script", "/dev/null"],
            dir.path(),
        );
        assert!(o.status.success(), "{what}: {}", text(&o));
        let o = run(&["resume", "g.jsonl", "--script", "/dev/null"], dir.path());
        assert!(o.status.success(), "{what}: {}", text(&o));
        assert!(text(&o).contains(&black_to_move(2)), "{what}: {}", text(&o));
        for f in files(dir.path()) {
            if f.contains("-cont") {
                std::fs::remove_file(dir.path().join(f)).unwrap();
            }
        }
    }
}

#[test]
fn a_journal_whose_records_do_not_replay_goes_on_from_the_last_good_one() {
    let (dir, path) = journal();
    // Valid lines, valid chain, but time goes backwards at record 6
    // (line 7): written through the journal store, as a buggy or edited
    // program could.
    let loaded = annabella::journal::read(&path).unwrap();
    let mut records = loaded.records.clone();
    records[5].at_ms = 0;
    let bad = dir.path().join("bad.jsonl");
    drop(annabella::journal::Writer::create(&bad, &loaded.header, &records).unwrap());
    let before = std::fs::read(&bad).unwrap();
    let o = run(
        &["resume", "bad.jsonl", "--script", "/dev/null"],
        dir.path(),
    );
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    let head = until(
        MsgKey::JournalReplayFailed,
        &[("file", "bad.jsonl"), ("line", "7")],
        "error",
    );
    assert!(out.contains(&head), "{out}");
    assert_eq!(std::fs::read(&bad).unwrap(), before);
    let o = run(
        &[
            "resume",
            "--from-good",
            "bad.jsonl",
            "--script",
            "/dev/null",
        ],
        dir.path(),
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let cont = dir.path().join("bad-cont1.jsonl");
    let salvaged = annabella::journal::read(&cont).unwrap();
    assert_eq!(salvaged.records.len(), 5, "{out}");
    assert_eq!(std::fs::read(&bad).unwrap(), before);
}

#[test]
fn a_second_writer_is_refused_in_one_line_naming_the_holder() {
    let (dir, path) = journal();
    // The first program goes on with the game and waits for input.
    let mut first = Command::new(bin())
        .args(["resume", "g.jsonl"])
        .current_dir(dir.path())
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until it holds the journal.
    let lock = dir.path().join(".g.jsonl.lock");
    let start = std::time::Instant::now();
    while !lock.exists() && start.elapsed() < std::time::Duration::from_secs(20) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let before = std::fs::read(&path).unwrap();
    let o = run(&["resume", "g.jsonl", "--script", "/dev/null"], dir.path());
    let out = text(&o);
    let pid = first.id().to_string();
    let _ = first.kill();
    let _ = first.wait();
    assert!(!o.status.success(), "{out}");
    let expected = de(MsgKey::JournalLocked, &[("file", "g.jsonl"), ("pid", &pid)]);
    assert_eq!(out.trim(), expected, "one line naming the holder");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // Once the holder is gone, the game continues.
    let o = run(&["resume", "g.jsonl", "--script", "/dev/null"], dir.path());
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn a_game_with_a_locale_file_resumes_and_exports_from_another_folder() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    // A locale of one's own: the English one under another code.
    let en = include_str!("../locales/en.toml").replace("code = \"en\"", "code = \"mine\"");
    std::fs::write(game.join("mine.toml"), en).unwrap();
    std::fs::write(game.join("s.txt"), "white board: e4\nannounce\npress\n").unwrap();
    let o = run(
        &[
            "play",
            "--script",
            "s.txt",
            "--journal",
            "g.jsonl",
            "--locale",
            "./mine.toml",
        ],
        &game,
    );
    assert!(o.status.success(), "{}", text(&o));
    // The locale file is gone; the journal carries it.
    std::fs::remove_file(game.join("mine.toml")).unwrap();
    let journal = game.join("g.jsonl");
    let j = journal.to_str().unwrap();
    let o = run(&["export", j], &elsewhere);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("1. e4"), "{}", text(&o));
    let o = run(&["resume", j, "--script", "/dev/null"], &elsewhere);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn a_header_with_a_bad_start_position_names_the_file_and_what_to_do() {
    let (dir, path) = journal();
    let loaded = annabella::journal::read(&path).unwrap();
    let mut header = loaded.header.clone();
    header.fen = Some("not a position".to_owned());
    let bad = dir.path().join("fen.jsonl");
    drop(annabella::journal::Writer::create(&bad, &header, &loaded.records).unwrap());
    let before = std::fs::read(&bad).unwrap();
    for args in [
        vec!["resume", "fen.jsonl", "--script", "/dev/null"],
        vec!["export", "fen.jsonl"],
    ] {
        let o = run(&args, dir.path());
        let out = text(&o);
        assert!(!o.status.success(), "{out}");
        // One line: the file, what is wrong, and that nothing changed.
        assert_eq!(out.trim().lines().count(), 1, "{out}");
        let head = until(MsgKey::JournalBadHeader, &[("file", "fen.jsonl")], "error");
        assert!(out.starts_with(&head), "{out}");
        assert_eq!(std::fs::read(&bad).unwrap(), before);
    }
}
