//! Files that must never be lost or hang the program (issue 13), with the
//! real binary:
//!
//! - `export -o` never writes over the journal it exports (on main
//!   `export -o g.jsonl g.jsonl` replaced the journal with PGN): not by the
//!   same path, another spelling, a symlink or a hard link, not even with
//!   `--force`; an existing file is replaced only with `--force`; a FIFO or
//!   a folder is never written over.
//! - A FIFO as the journal (`play --journal`, `resume`, `export`) and
//!   `replay /dev/zero` hung on main; a device as a locale file, a folder
//!   as the journal and a PGN file over the size cap are refused too: each
//!   at once, in one line that names the file.
//!
//! Every run has a deadline, so a hang fails instead of stalling the suite.

mod common;

use common::{bin, en};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// The reason phrase for a file of `kind` (a `file.kind.*` key).
fn not_regular(kind: &str) -> String {
    en("file.not_regular", &[("kind", &en(kind, &[]))])
}

fn run(dir: &Path, args: &[&str]) -> Output {
    common::run_until(
        Command::new(bin())
            .args(args)
            .current_dir(dir)
            .env("XDG_DATA_HOME", dir.join("data")),
        "",
        Duration::from_secs(20),
    )
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).trim_end().to_owned()
}

/// A folder with a short game's journal `g.jsonl`.
fn game() -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("s.txt");
    std::fs::write(&script, "time 5\nclock\n").expect("script");
    let journal = dir.path().join("g.jsonl");
    let out = run(
        dir.path(),
        &[
            "play",
            "-l",
            "en",
            "--journal",
            "g.jsonl",
            "--script",
            "s.txt",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(&journal).expect("the journal");
    (dir, journal, bytes)
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.to_str().expect("UTF-8")).expect("C string");
    // SAFETY: mkfifo with a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

#[test]
fn export_never_writes_over_its_journal() {
    let (dir, journal, bytes) = game();
    let d = dir.path();
    std::os::unix::fs::symlink("g.jsonl", d.join("link.jsonl")).expect("symlink");
    std::fs::hard_link(&journal, d.join("hard.jsonl")).expect("hard link");
    std::fs::create_dir(d.join("sub")).expect("folder");
    let absolute = journal.display().to_string();
    for target in [
        "g.jsonl",
        "./g.jsonl",
        "sub/../g.jsonl",
        absolute.as_str(),
        "link.jsonl",
        "hard.jsonl",
    ] {
        for force in [false, true] {
            let mut args = vec!["export", "-l", "en", "-o", target];
            if force {
                args.push("--force");
            }
            args.push("g.jsonl");
            let out = run(d, &args);
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            assert_eq!(
                stderr(&out),
                en("export.same_file", &[("file", target)]),
                "{args:?}"
            );
            assert_eq!(
                std::fs::read(&journal).expect("journal"),
                bytes,
                "{args:?} changed the journal"
            );
        }
    }
    assert!(
        std::fs::symlink_metadata(d.join("link.jsonl"))
            .expect("link")
            .file_type()
            .is_symlink()
    );
}

#[test]
fn export_replaces_an_existing_file_only_with_force() {
    let (dir, _journal, _) = game();
    let d = dir.path();
    std::fs::write(d.join("other.pgn"), "keep me\n").expect("write");
    let out = run(d, &["export", "-l", "en", "-o", "other.pgn", "g.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), en("export.exists", &[("file", "other.pgn")]));
    assert_eq!(
        std::fs::read_to_string(d.join("other.pgn")).expect("read"),
        "keep me\n"
    );
    let out = run(
        d,
        &[
            "export",
            "-l",
            "en",
            "-o",
            "other.pgn",
            "--force",
            "g.jsonl",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let pgn = std::fs::read_to_string(d.join("other.pgn")).expect("read");
    assert!(pgn.starts_with("[Event "), "{pgn}");
    // A new file needs no --force.
    let out = run(d, &["export", "-l", "en", "-o", "new.pgn", "g.jsonl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(d.join("new.pgn").is_file());
}

#[test]
fn export_never_writes_over_a_fifo_or_a_folder() {
    let (dir, _journal, _) = game();
    let d = dir.path();
    mkfifo(&d.join("fifo"));
    std::fs::create_dir(d.join("folder")).expect("folder");
    for (target, kind) in [
        ("fifo", "file.kind.fifo"),
        ("folder", "file.kind.directory"),
    ] {
        let out = run(
            d,
            &["export", "-l", "en", "-o", target, "--force", "g.jsonl"],
        );
        assert_eq!(out.status.code(), Some(1), "{target}");
        let reason = not_regular(kind);
        assert_eq!(
            stderr(&out),
            en("export.not_a_file", &[("file", target), ("error", &reason)])
        );
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata(d.join("fifo"))
            .expect("fifo")
            .file_type()
            .is_fifo()
    );
}

#[test]
fn a_fifo_as_the_journal_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    mkfifo(&d.join("fifo.jsonl"));
    let line = en(
        "journal.open_failed",
        &[
            ("file", "fifo.jsonl"),
            ("error", &not_regular("file.kind.fifo")),
        ],
    );
    for args in [
        vec!["--plain", "-l", "en", "--journal", "fifo.jsonl"],
        vec!["resume", "-l", "en", "fifo.jsonl"],
        vec!["export", "-l", "en", "fifo.jsonl"],
    ] {
        // On main each of these waited for ever for a writer.
        let out = run(d, &args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(stderr(&out), line, "{args:?}");
    }
    // A folder.
    std::fs::create_dir(d.join("folder.jsonl")).expect("folder");
    let out = run(d, &["export", "-l", "en", "folder.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        en(
            "journal.open_failed",
            &[
                ("file", "folder.jsonl"),
                ("error", &not_regular("file.kind.directory")),
            ],
        )
    );
}

#[test]
fn devices_and_oversized_files_are_refused_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    // On main `replay /dev/zero` never ended.
    let out = run(d, &["replay", "--locale", "en", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(1));
    let device = not_regular("file.kind.device");
    assert_eq!(
        stderr(&out),
        en(
            "error.pgn_read",
            &[("file", "/dev/zero"), ("error", &device)]
        )
    );
    let out = run(d, &["announce", "--locale", "/dev/zero", "e4"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        en(
            "locale.read_failed",
            &[("file", "/dev/zero"), ("error", &device)]
        )
    );
    // A symlink to itself: the system's error by its number, not its
    // English words.
    std::os::unix::fs::symlink("loop.pgn", d.join("loop.pgn")).expect("symlink");
    let out = run(d, &["replay", "--locale", "de", "loop.pgn"]);
    assert_eq!(out.status.code(), Some(1));
    let code = libc::ELOOP.to_string();
    let de = |key: &str, args: &[(&str, &str)]| common::de(key, args);
    assert_eq!(
        stderr(&out),
        de(
            "error.pgn_read",
            &[
                ("file", "loop.pgn"),
                ("error", &de("io.system_error", &[("code", &code)])),
            ],
        )
    );
    // A sparse PGN file just over the cap (no disk space used).
    let big = d.join("big.pgn");
    let f = std::fs::File::create(&big).expect("create");
    f.set_len(annabella::pgn::MAX_PGN_BYTES + 1)
        .expect("set_len");
    let out = run(d, &["replay", "--locale", "en", "big.pgn"]);
    assert_eq!(out.status.code(), Some(1));
    let limit = (annabella::pgn::MAX_PGN_BYTES >> 20).to_string();
    assert_eq!(
        stderr(&out),
        en(
            "error.pgn_read",
            &[
                ("file", "big.pgn"),
                ("error", &en("pgn.too_large", &[("limit", &limit)])),
            ],
        )
    );
}

#[test]
fn a_script_is_a_capped_stream_never_a_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    // On main /dev/zero was read as one endless line until memory ran
    // out: now at most 64 MB of it, one line too long, and the script
    // ends. The run gets 2 GB of address space, so a regression aborts
    // instead of taking the machine's memory.
    let mut cmd = Command::new(bin());
    cmd.args([
        "play",
        "-l",
        "en",
        "--journal",
        "a.jsonl",
        "--script",
        "/dev/zero",
    ])
    .current_dir(d);
    // SAFETY: setrlimit(2) only, between fork and exec.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut cmd, || {
            let limit = libc::rlimit {
                rlim_cur: 2 << 30,
                rlim_max: 2 << 30,
            };
            libc::setrlimit(libc::RLIMIT_AS, &raw const limit);
            Ok(())
        });
    }
    let out = common::run_until(&mut cmd, "", Duration::from_secs(20));
    assert!(out.status.success(), "{}", stderr(&out));
    let too_long = en(
        "input.line_too_long",
        &[("limit", &annabella::input::MAX_LINE_CHARS.to_string())],
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.lines().any(|l| l == too_long), "{said}");
    // A folder is no script.
    std::fs::create_dir(d.join("folder")).expect("folder");
    let out = run(
        d,
        &[
            "play",
            "-l",
            "en",
            "--journal",
            "c.jsonl",
            "--script",
            "folder",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let line = en(
        "play.bad_script",
        &[
            ("file", "folder"),
            ("error", &not_regular("file.kind.directory")),
        ],
    );
    assert!(stderr(&out).lines().any(|l| l == line), "{}", stderr(&out));
    // A named pipe is a stream of script lines: read once a writer comes.
    let fifo = d.join("script.fifo");
    mkfifo(&fifo);
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        std::fs::write(&fifo, "time 5\nclock\n").expect("write the pipe");
    });
    let out = run(
        d,
        &[
            "play",
            "-l",
            "en",
            "--journal",
            "b.jsonl",
            "--script",
            "script.fifo",
        ],
    );
    writer.join().expect("writer");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(annabella::journal::read(&d.join("b.jsonl")).is_ok());
}
