//! A real full disk under the real binary (issue 25, fault injection for
//! the journal store): the game's journal on a small tmpfs, filled up in
//! the middle of a game. An event is said only once its record is on
//! disk; the event whose record does not fit is neither said nor kept,
//! the program says so and what to do; the journal holds no half line;
//! with space again the game goes on from exactly where it stopped.
//!
//! The tmpfs is mounted in a mount namespace of its own (`unshare -m`),
//! so it goes away with the run whatever happens. That needs root (as
//! the tests run in CI); otherwise the test says what it skipped, and
//! fails under `ANNABELLA_REQUIRE_E2E=1`. The unit tests of the store
//! (`journal::tests::faults`, `cli::play::tests`) inject the same
//! failures (full disk on the Nth write, short write, failing
//! `sync_data`) without root.

mod common;

use annabella::locale::MsgKey;
use common::{bin, en};

use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The first moves of a game, as `play` script lines (one journal record
/// each).
const OPENING: &str = "white board: e4\nannounce\npress\nblack board: e4\n";

/// The rest of the game: enough records to fill the last page of the
/// journal on a full disk.
fn rest() -> String {
    let moves = [
        ("black", "white", "e5"),
        ("white", "black", "Nf3"),
        ("black", "white", "Nc6"),
        ("white", "black", "Bc4"),
        ("black", "white", "Bc5"),
        ("white", "black", "c3"),
        ("black", "white", "Nf6"),
        ("white", "black", "d4"),
        ("black", "white", "exd4"),
        ("white", "black", "cxd4"),
        ("black", "white", "Bb4+"),
        ("white", "black", "Bd2"),
    ];
    let mut s = String::new();
    for (n, (mover, other, mv)) in moves.iter().enumerate() {
        s.push_str(&format!(
            "time {}\n{mover} board: {mv}\nannounce\npress\n{other} board: {mv}\n",
            10 + 7 * n
        ));
    }
    s
}

/// Whether a tmpfs can be mounted in a mount namespace here; `None`
/// after saying why not (a failure under ANNABELLA_REQUIRE_E2E=1).
fn can_mount() -> Option<()> {
    // SAFETY: geteuid(2) has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let unshare = Command::new("unshare")
        .args(["-m", "--propagation", "private", "true"])
        .output()
        .is_ok_and(|o| o.status.success());
    let why = if !root {
        "root (to mount a small tmpfs as a full disk; run the test as root, see the README)"
    } else if !unshare {
        "unshare -m (a mount namespace for the tmpfs)"
    } else {
        return Some(());
    };
    println!("skipped: {why} is missing");
    common::tool_present(false, why);
    None
}

/// Runs `script` (sh) in a new mount namespace; returns its output.
fn in_namespace(script: &str) -> std::process::Output {
    common::run_until(
        Command::new("unshare").args(["-m", "--propagation", "private", "sh", "-c", script]),
        "",
        Duration::from_secs(120),
    )
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn a_full_disk_stops_the_game_before_anything_unsaved_is_said() {
    if can_mount().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let out = d.join("out");
    let disk = d.join("disk");
    std::fs::create_dir(&out).expect("out");
    std::fs::create_dir(&disk).expect("disk");
    std::fs::write(out.join("s1.txt"), OPENING).expect("s1");
    // The whole game: its opening lines are skipped on resume (they are
    // in the journal already).
    std::fs::write(out.join("s2.txt"), format!("{OPENING}{}", rest())).expect("s2");
    let script = format!(
        r#"set -u
export HOME="{out}" XDG_DATA_HOME="{out}/data" XDG_CONFIG_HOME="{out}/config"
mount -t tmpfs -o size=128k tmpfs "{disk}" || {{ echo "cannot mount" >&2; exit 97; }}
cd "{disk}"
"{bin}" play -l en --journal g.jsonl --script "{out}/s1.txt" >"{out}/1.out" 2>&1; echo $? >"{out}/1.rc"
cp g.jsonl "{out}/g1.jsonl"
# Fill the disk to the last byte.
dd if=/dev/zero of=fill bs=4096 2>/dev/null
dd if=/dev/zero of=fill2 bs=1 2>/dev/null
"{bin}" resume -l en g.jsonl --script "{out}/s2.txt" >"{out}/2.out" 2>"{out}/2.err"; echo $? >"{out}/2.rc"
cp g.jsonl "{out}/g2.jsonl"
ls -a >"{out}/2.ls"
rm -f fill fill2
"{bin}" resume -l en g.jsonl --script "{out}/s2.txt" >"{out}/3.out" 2>&1; echo $? >"{out}/3.rc"
cp g.jsonl "{out}/g3.jsonl"
"#,
        out = out.display(),
        disk = disk.display(),
        bin = bin(),
    );
    let o = in_namespace(&script);
    if o.status.code() == Some(97) {
        let why = "mounting a tmpfs (no CAP_SYS_ADMIN here)";
        println!("skipped: {why}");
        common::tool_present(false, why);
        return;
    }
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        read(&out.join("1.rc")).trim(),
        "0",
        "{}",
        read(&out.join("1.out"))
    );
    // The run on the full disk stops at the event that did not fit, in
    // one line saying so and what to do.
    assert_eq!(
        read(&out.join("2.rc")).trim(),
        "1",
        "{}",
        read(&out.join("2.out"))
    );
    let error = en(MsgKey::IoNoSpace, &[]);
    assert_eq!(
        read(&out.join("2.err")).trim(),
        en(
            MsgKey::JournalWriteFailed,
            &[("file", "g.jsonl"), ("error", &error)]
        )
    );
    // No half line, no damage, no temporary file left.
    let full = annabella::journal::read(&out.join("g2.jsonl")).expect("the journal reads");
    assert!(full.is_intact(), "{full:?}");
    let ls = read(&out.join("2.ls"));
    assert!(!ls.contains(".tmp"), "{ls}");
    let before = annabella::journal::read(&out.join("g1.jsonl"))
        .expect("journal")
        .records
        .len();
    let kept = full.records.len() - before;
    let rest = rest();
    let lines: Vec<&str> = rest.lines().collect();
    assert!(
        kept > 0 && kept < lines.len(),
        "the disk filled after {kept} of {} events",
        lines.len()
    );
    // What was said on the full disk is exactly what the same events say
    // on a disk with room: every event said was saved, and the event not
    // saved was not said.
    let reference = d.join("reference");
    std::fs::create_dir(&reference).expect("reference");
    std::fs::copy(out.join("g1.jsonl"), reference.join("g.jsonl")).expect("copy");
    let opening: Vec<&str> = OPENING.lines().collect();
    let upto: Vec<&str> = opening.iter().chain(&lines[..kept]).copied().collect();
    std::fs::write(reference.join("s.txt"), upto.join("\n") + "\n").expect("s");
    let r = common::run_until(
        Command::new(bin())
            .args(["resume", "-l", "en", "g.jsonl", "--script", "s.txt"])
            .current_dir(&reference)
            .env("HOME", &reference)
            .env("XDG_DATA_HOME", reference.join("data"))
            .env("XDG_CONFIG_HOME", reference.join("config")),
        "",
        Duration::from_secs(60),
    );
    assert!(r.status.success());
    let said = read(&out.join("2.out"));
    let expected = String::from_utf8_lossy(&r.stdout);
    assert_eq!(said, expected);
    // With room again the game goes on from where it stopped, to the end.
    assert_eq!(
        read(&out.join("3.rc")).trim(),
        "0",
        "{}",
        read(&out.join("3.out"))
    );
    let done = annabella::journal::read(&out.join("g3.jsonl")).expect("journal");
    assert!(done.is_intact());
    assert_eq!(done.records.len(), before + lines.len());
    let whole = d.join("whole");
    std::fs::create_dir(&whole).expect("whole");
    std::fs::write(whole.join("s.txt"), format!("{OPENING}{rest}")).expect("script");
    let w = common::run_until(
        Command::new(bin())
            .args([
                "play",
                "-l",
                "en",
                "--journal",
                "g.jsonl",
                "--script",
                "s.txt",
            ])
            .current_dir(&whole)
            .env("XDG_DATA_HOME", whole.join("data")),
        "",
        Duration::from_secs(60),
    );
    assert!(w.status.success());
    let json = |p: &Path| {
        let o = Command::new(bin())
            .args(["export", "--format", "json"])
            .arg(p)
            .output()
            .expect("export");
        assert!(o.status.success());
        o.stdout
    };
    assert_eq!(json(&out.join("g3.jsonl")), json(&whole.join("g.jsonl")));
}
