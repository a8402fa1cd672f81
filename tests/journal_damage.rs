//! The real binary against damaged journals: a torn last line, garbage in
//! the middle, a wrong version, not a journal. Each gives one clear message
//! with the last good move, and the file's bytes are never changed.

mod common;

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
    std::fs::write(dir.path().join("s.txt"), script).unwrap();
    let o = run(
        &["play", "--script", "s.txt", "--journal", "g.jsonl"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    let path = dir.path().join("g.jsonl");
    (dir, path)
}

/// The resume state line's start for Black to make move `number` (the
/// times after it are not known here).
fn black_to_move(number: u32) -> String {
    let black = de("side.black", &[]);
    until(
        "journal.state",
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

fn lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect()
}

#[test]
fn intact_journal_resumes_and_exports() {
    let (dir, path) = journal();
    let o = run(&["resume", "g.jsonl", "--script", "/dev/null"], dir.path());
    assert!(o.status.success(), "{}", text(&o));
    let resumed = until("journal.resumed", &[("file", "g.jsonl")], "events");
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
    let torn = until("journal.torn_tail", &[("file", "g.jsonl")], "line");
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
        "journal.torn_tail",
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
    let black = de("side.black", &[]);
    let executed = de("mirror.executed", &[("next", &black)]);
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
            "journal.torn_read",
            &[("file", "g.jsonl")],
            "line"
        )),
        "{}",
        text(&o)
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn garbage_in_the_middle_stops_with_the_last_good_move() {
    let (dir, path) = journal();
    let full = std::fs::read(&path).unwrap();
    let mut ls = lines(&full);
    // Line 12 of the file (index 11): flip a character inside the record.
    let target = 11;
    let pos = ls[target].len() - 20;
    ls[target][pos] ^= 0x01;
    let damaged = ls.join(&b'\n');
    std::fs::write(&path, &damaged).unwrap();
    let listing = files(dir.path());
    for args in [
        vec!["resume", "g.jsonl", "--script", "/dev/null"],
        vec!["play", "--script", "s.txt", "--journal", "g.jsonl"],
    ] {
        let o = run(&args, dir.path());
        let out = text(&o);
        assert!(!o.status.success(), "{out}");
        let reason = de("journal.reason.checksum", &[]);
        let whole = de(
            "journal.corrupt",
            &[
                ("file", "g.jsonl"),
                ("line", "12"),
                ("reason", &reason),
                ("last", "1... e5"),
            ],
        );
        assert_eq!(out.trim(), whole, "{out}");
        assert_eq!(out.trim().lines().count(), 1, "one clear line: {out}");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            damaged,
            "the journal was changed"
        );
        assert_eq!(files(dir.path()), listing, "a file was created");
    }
    // Explicitly continuing from the last good event: a new journal.
    let o = run(
        &["resume", "--from-good", "g.jsonl", "--script", "/dev/null"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("g-cont1.jsonl"), "{}", text(&o));
    assert_eq!(std::fs::read(&path).unwrap(), damaged);
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
    let reason = de("journal.reason.syntax", &[]);
    let damaged_at = until(
        "journal.corrupt",
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
    assert!(out.contains("format version 7"), "{out}");
    assert!(
        out.contains(&format!("reads version {}", annabella::journal::VERSION)),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), changed);

    let foreign = dir.path().join("notes.jsonl");
    std::fs::write(&foreign, "{\"hello\": 1}\n").unwrap();
    let o = run(&["resume", "notes.jsonl"], dir.path());
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    assert!(out.contains("is not an annabella journal"), "{out}");
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
fn a_dropped_doubled_or_swapped_line_is_damage_never_replayed() {
    let (dir, path) = journal();
    let cases: [(&str, Edit); 3] = [
        ("dropped", Box::new(|ls| drop(ls.remove(4)))),
        (
            "doubled",
            Box::new(|ls| {
                let l = ls[4].clone();
                ls.insert(4, l);
            }),
        ),
        ("swapped", Box::new(|ls| ls.swap(4, 5))),
    ];
    let reason = de("journal.reason.chain", &[]);
    let original = std::fs::read(&path).unwrap();
    for (what, edit) in cases {
        let bytes = edited(&path, edit);
        std::fs::write(&path, &bytes).unwrap();
        let o = run(&["resume", "g.jsonl", "--script", "/dev/null"], dir.path());
        let out = text(&o);
        assert!(!o.status.success(), "{what}: {out}");
        assert!(out.contains(&reason), "{what}: {out}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{what}: unchanged");
        // Export reads the good part and says where the damage is.
        let o = run(&["export", "g.jsonl"], dir.path());
        assert!(o.status.success(), "{what}: {}", text(&o));
        assert!(text(&o).contains(&reason), "{what}: {}", text(&o));
        // Put the journal back for the next case.
        std::fs::write(&path, &original).unwrap();
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
        "journal.replay_failed",
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
    let expected = de("journal.locked", &[("file", "g.jsonl"), ("pid", &pid)]);
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
        let head = until("journal.bad_header", &[("file", "fen.jsonl")], "error");
        assert!(out.starts_with(&head), "{out}");
        assert_eq!(std::fs::read(&bad).unwrap(), before);
    }
}
