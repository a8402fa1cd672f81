//! The real binary on hostile and clumsy input (issue 13): every text input
//! is answered in one clear, localized line, in time linear in the input;
//! nothing panics, hangs or is skipped without a word. Expected sentences
//! come from the locale files, never from the output under test.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use annabella::locale::MsgKey;
use annabella::locale::{Locale, builtin};

/// How long any run may take before it counts as a hang (generous: the
/// machine may be busy; every run here takes well under a second).
const HANG: Duration = Duration::from_secs(60);

/// Runs the binary with `stdin`, killing it (and failing) if it hangs.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let data = tempfile::tempdir().unwrap();
    let mut child = common::annabella(args, data.path()).spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!("{args:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = writer.join();
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{args:?}: {:?} {err}",
        o.status
    );
    o
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn loc(code: &str) -> Locale {
    builtin(code).unwrap()
}

/// The start of a message, up to its first placeholder.
fn start_of(l: &Locale, key: MsgKey) -> String {
    let text = l.message(key, &[]);
    text.split('{').next().unwrap_or_default().to_owned()
}

const CODES: [&str; 8] = ["fide", "en", "de", "pl", "he", "ar", "el", "ko"];

/// The locale whose messages a code speaks (fide speaks German).
fn messages_of(code: &str) -> Locale {
    loc(if code == "fide" { "de" } else { code })
}

#[test]
fn one_long_word_is_refused_in_one_line_in_every_locale() {
    // Issue 13, reproducer 1: exit 134 (stack overflow).
    let word = "e4".repeat(17_000);
    for code in CODES {
        let o = run(&["parse", "--locale", code, &word], b"");
        assert_eq!(o.status.code(), Some(1), "{code}");
        let e = err(&o);
        assert_eq!(e.lines().count(), 1, "{code}: {e}");
        let l = messages_of(code);
        let limit = annabella::input::MAX_WORD_CHARS.to_string();
        let expected = l.message(
            MsgKey::InputWordTooLong,
            &[
                ("limit", &limit),
                ("word", &format!("{}…", "e4".repeat(10))),
            ],
        );
        assert!(e.contains(&expected), "{code}: {e}");
    }
    // The same through the other text inputs.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let tsv = format!("{fen}\t{word}\n{fen}\tEva vier\n");
    let o = run(&["parse", "--tsv"], tsv.as_bytes());
    let lines: Vec<String> = out(&o).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    let too_long = loc("de").message(
        MsgKey::InputLineTooLong,
        &[("limit", &annabella::input::MAX_LINE_CHARS.to_string())],
    );
    assert_eq!(lines[0], format!("error: {too_long}"));
    assert_eq!(lines[1], "e2e4 e4");
    let script = format!("white board: {word}\nwhite board: e4\nstatus\n");
    let o = run(&["play", "--script", "-"], script.as_bytes());
    assert!(out(&o).contains(&too_long), "{}", out(&o));
    let made = start_of(&loc("de"), MsgKey::MirrorMade);
    assert!(out(&o).contains(&made), "the game goes on: {}", out(&o));
    let plain = format!("{word}\ne4\nquit\nyes\n");
    let o = run(&["--plain", "--silent"], plain.as_bytes());
    assert!(out(&o).contains(&too_long), "{}", out(&o));
}

#[test]
fn hebrew_piece_letters_repeated_are_read_in_linear_time() {
    // Issue 13, reproducer 2: 24 repeats took 15 s, every extra repeat
    // doubled it; 40 would take days. Now they take milliseconds.
    let phrase = format!("{}§", "מה".repeat(40));
    let o = run(&["parse", "--locale", "he", &phrase], b"");
    assert_eq!(o.status.code(), Some(1));
    let not_understood = start_of(&loc("he"), MsgKey::ParseNotUnderstood);
    assert!(err(&o).contains(&not_understood), "{}", err(&o));
}

#[test]
fn huge_durations_are_refused_not_a_panic() {
    // Issue 13, reproducer 3: "overflow when adding durations".
    let bad_time = loc("de").message(MsgKey::PlayBadTime, &[]);
    for line in [
        "time 10000000000000000000s10000000000000000000s",
        "time +10000000000000000000s10000000000000000000s",
        "time +99999999999999999999",
        "time 1001h",
        "arbiter: add white 10000000000000000000s10000000000000000000s",
        "arbiter: remove black 99999999999999999999h",
    ] {
        let script = format!("white board: e4\n{line}\nstatus\n");
        let o = run(&["play", "--script", "-"], script.as_bytes());
        assert_eq!(o.status.code(), Some(0), "{line}: {}", err(&o));
        assert!(out(&o).contains(&bad_time), "{line}: {}", out(&o));
    }
    // The clock's own commands use the same grammar, and say why.
    let o = run(
        &["clock", "--plain", "--locale", "en"],
        b"add white 10000000000000000000s10000000000000000000s\nquit\n",
    );
    let en = loc("en");
    let why = en.message(
        MsgKey::DurationTooLong,
        &[("position", "1"), ("hours", "1000")],
    );
    assert!(out(&o).contains(&why), "{}", out(&o));
}

#[test]
fn time_control_errors_are_in_the_locale_with_characters_as_they_are() {
    // Issue 13: English in every locale, characters as Rust escapes.
    for code in CODES {
        for control in ["15m\u{30c}", "90m/40+30m+30s\u{7}", "\u{2030}z"] {
            let o = run(
                &["clock", "--plain", "--locale", code, "--control", control],
                b"quit\n",
            );
            assert_eq!(o.status.code(), Some(1), "{code} {control:?}");
            let e = err(&o);
            let l = messages_of(code);
            assert!(
                e.starts_with(&start_of(&l, MsgKey::ClockBadControl)),
                "{code}: {e}"
            );
            assert!(!e.contains("\\u{"), "{code}: {e}");
            for english in ["unexpected", "expected a number", "position 4", "found"] {
                if code != "en" {
                    assert!(!e.contains(english), "{code}: {e}");
                }
            }
        }
        let o = run(
            &[
                "clock",
                "--plain",
                "--locale",
                code,
                "--control",
                "15m\u{30c}",
            ],
            b"quit\n",
        );
        assert!(err(&o).contains("U+030C"), "{code}: {}", err(&o));
    }
}

/// Writes `bytes` as `name` in `dir`.
fn file(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.display().to_string()
}

#[test]
fn unreadable_pgn_move_text_is_reported_with_number_and_text() {
    // Issue 13: a typo (O-0) was skipped without a word, exit 0, and the
    // next move got the blame.
    let dir = tempfile::tempdir().unwrap();
    let pgn = file(
        dir.path(),
        "typo.pgn",
        b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-0 Be7 *\n",
    );
    let de = loc("de");
    let expected = de.message(
        MsgKey::ErrorPgnUnreadable,
        &[
            ("file", &pgn),
            ("game", "1"),
            ("number", "4"),
            ("move", "O-0"),
        ],
    );
    for check in [&[][..], &["--check"][..]] {
        let mut args = vec!["replay"];
        args.extend_from_slice(check);
        args.push(&pgn);
        let o = run(&args, b"");
        assert_eq!(o.status.code(), Some(1), "{}", err(&o));
        assert!(err(&o).contains(&expected), "{}", err(&o));
        // Be7 is never blamed.
        assert!(!err(&o).contains("Be7"), "{}", err(&o));
    }
    let o = run(&["play", "--script", "-", "--from-pgn", &pgn], b"status\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains(&expected), "{}", err(&o));
    // An illegal move: the reason in the locale's words, no library text.
    let illegal = file(dir.path(), "illegal.pgn", b"1. e4 e5 2. Qxf7 *\n");
    let o = run(&["replay", "--locale", "pl", &illegal], b"");
    assert_eq!(o.status.code(), Some(1));
    let pl = loc("pl");
    assert!(
        err(&o).contains(&start_of(&pl, MsgKey::IllegalCannotReach)),
        "{}",
        err(&o)
    );
    assert!(!err(&o).contains("illegal san"), "{}", err(&o));
}

#[test]
fn pgn_files_that_are_not_text_or_too_large_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = "1. e4 e5 *\n";
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let utf16 = file(dir.path(), "utf16.pgn", &utf16);
    let png = file(
        dir.path(),
        "image.pgn",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0",
    );
    // Larger than the limit (sparse: no disk used).
    let huge = dir.path().join("huge.pgn");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(annabella::pgn::MAX_PGN_BYTES + 1)
        .unwrap();
    let huge = huge.display().to_string();
    let el = loc("el");
    for (path, key) in [
        (utf16.as_str(), MsgKey::PgnUtf16),
        (png.as_str(), MsgKey::PgnBinary),
        (huge.as_str(), MsgKey::PgnTooLarge),
    ] {
        let o = run(&["replay", "--locale", "el", path], b"");
        assert_eq!(o.status.code(), Some(1), "{path}");
        let why = el.message(key, &[("limit", "64")]);
        assert!(err(&o).contains(&why), "{path}: {}", err(&o));
    }
    // A device is no PGN file, whatever it would yield.
    let o = run(&["replay", "--locale", "el", "/dev/zero"], b"");
    assert_eq!(o.status.code(), Some(1));
    let device = el.message(MsgKey::FileKindDevice, &[]);
    let why = el.message(MsgKey::FileNotRegular, &[("kind", &device)]);
    assert!(err(&o).contains(&why), "/dev/zero: {}", err(&o));
    let empty = file(dir.path(), "empty.pgn", b"");
    let o = run(&["replay", &empty], b"");
    assert_eq!(o.status.code(), Some(1));
    let none = loc("de").message(MsgKey::ErrorPgnNoGame, &[("file", &empty)]);
    assert!(err(&o).contains(&none), "{}", err(&o));
}

#[test]
fn parse_tsv_prints_one_line_per_input_line() {
    // Issue 13: a blank line printed nothing, so output stopped lining up.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut bytes = format!("{fen}\tEva vier\n\n   \n").into_bytes();
    bytes.extend_from_slice(b"\xff\xfe\n");
    bytes.extend_from_slice(format!("{fen}\tc2c4\n").as_bytes());
    bytes.extend_from_slice(b"\xff\xfe\n");
    bytes.extend_from_slice(format!("{fen}\td2d4").as_bytes());
    let o = run(&["parse", "--tsv"], &bytes);
    let lines: Vec<String> = out(&o).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 7, "{lines:?}");
    assert_eq!(lines[0], "e2e4 e4");
    assert!(lines[1].starts_with("error: ") && lines[2].starts_with("error: "));
    assert_eq!(lines[4], "c2c4 c4");
    assert!(lines[5].starts_with("error: "));
    assert_eq!(lines[6], "d2d4 d4");
}

#[test]
fn uci_promotion_to_a_bishop_parses_in_every_locale() {
    // Issue 13: c7c8b was read as the file word Bella.
    for code in CODES {
        let o = run(
            &[
                "parse",
                "--locale",
                code,
                "--fen",
                "8/2P5/8/8/8/8/8/k6K w - - 0 1",
                "c7c8b",
            ],
            b"",
        );
        assert_eq!(out(&o), "c7c8b c8=B\n", "{code}: {}", err(&o));
    }
}

#[test]
fn locale_file_errors_name_file_key_and_what_is_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let en_text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("locales/en.toml"))
            .unwrap();
    // A word of the wrong type: no internal type names.
    let wrong = file(
        dir.path(),
        "wrong.toml",
        en_text
            .replace("c = { display = \"c\",", "c = { display = 5,")
            .as_bytes(),
    );
    let o = run(&["parse", "--locale", &wrong, "e4"], b"");
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(e.contains(&wrong) && e.contains("files.c"), "{e}");
    assert!(!e.contains("RawWord") && !e.contains("untagged"), "{e}");
    // A file with the base locale's code and no messages: no raw keys.
    let cut = en_text.split("[messages]").next().unwrap_or_default();
    let bare = file(dir.path(), "bare.toml", cut.as_bytes());
    let o = run(&["parse", "--locale", &bare, "zzz"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        !err(&o).contains(MsgKey::ParseNotUnderstood.as_str()),
        "{}",
        err(&o)
    );
    assert!(
        err(&o).contains(&start_of(&loc("en"), MsgKey::ParseNotUnderstood)),
        "{}",
        err(&o)
    );
    // Not a locale file at all.
    let o = run(&["parse", "--locale", "/dev/zero", "e4"], b"");
    assert_eq!(o.status.code(), Some(1));
    let device = loc("en").message(MsgKey::FileKindDevice, &[]);
    let why = loc("en").message(MsgKey::FileNotRegular, &[("kind", &device)]);
    assert!(err(&o).contains(&why), "{}", err(&o));
    // Larger than the limit (sparse: no disk used).
    let huge = dir.path().join("huge.toml");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(annabella::locale::MAX_LOCALE_BYTES + 1)
        .unwrap();
    let o = run(
        &["parse", "--locale", &huge.display().to_string(), "e4"],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    let too_large = loc("en").message(
        MsgKey::LocaleTooLarge,
        &[(
            "limit",
            &(annabella::locale::MAX_LOCALE_BYTES / 1024).to_string(),
        )],
    );
    assert!(err(&o).contains(&too_large), "{}", err(&o));
}

#[test]
fn a_rate_out_of_range_is_refused_on_every_front_end_as_config_set_refuses_it() {
    // What `config set rate 500` says, in each front end's language.
    for code in ["en", "de", "ko"] {
        let l = messages_of(code);
        let refused = annabella::config::validate(annabella::config::Key::Rate, "500")
            .unwrap_err()
            .describe(&l);
        // On main the play screen took --rate 500 (and say, clock, play,
        // review too).
        for args in [
            vec!["--plain", "-l", code, "--rate", "500"],
            vec!["say", "-l", code, "--rate", "500", "e4"],
            vec!["clock", "--plain", "-l", code, "--rate", "500"],
            vec!["play", "-l", code, "--rate", "500", "--script", "/dev/null"],
        ] {
            let o = run(&args, b"quit\n");
            assert_eq!(o.status.code(), Some(1), "{args:?}: {}", out(&o));
            assert_eq!(err(&o).trim(), refused, "{args:?}");
        }
    }
    // The edges are allowed.
    let o = run(&["say", "-l", "en", "--rate", "-100", "e4"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = run(&["say", "-l", "en", "--rate", "100", "e4"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
}

#[test]
fn say_refuses_an_option_it_does_not_know_instead_of_saying_it() {
    // On main `say --voice-name x hello` said "--voice-name x hello"
    // aloud, and `say --move e4 --help` read `--help` as a move.
    let data = tempfile::tempdir().unwrap();
    let args = ["say", "-l", "en", "--voice-name", "x", "hello"];
    let o = common::annabella(&args, data.path()).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(out(&o).trim().is_empty(), "said: {}", out(&o));
    assert!(err(&o).contains("--voice-name"), "{}", err(&o));
    let o = run(&["say", "-l", "en", "--move", "e4", "--help"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("--speak-to"), "no help: {}", out(&o));
    // A text that starts with a dash is said after `--`, all of it.
    let o = run(&["say", "-l", "en", "--", "-5", "degrees"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o).trim(), "-5 degrees");
    // A negative number is text, as before.
    let o = run(&["say", "-l", "en", "-5", "degrees"], b"");
    assert_eq!(out(&o).trim(), "-5 degrees", "{}", err(&o));
    let o = run(&["say", "-l", "en", "hello", "again"], b"");
    assert_eq!(out(&o).trim(), "hello again", "{}", err(&o));
}

#[test]
fn review_of_a_game_number_a_file_does_not_hold_says_how_many_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.pgn");
    std::fs::write(&one, "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 *\n").unwrap();
    let file = one.display().to_string();
    for n in ["2", "0"] {
        let o = run(
            &["review", "--plain", "-l", "en", "--game", n, &file],
            b"quit\n",
        );
        assert_eq!(o.status.code(), Some(1), "{}", out(&o));
        // On main: "one.pgn holds no game."
        assert_eq!(
            err(&o).trim(),
            loc("en").message(
                MsgKey::ReviewNoSuchGame,
                &[("file", &file), ("count", "1"), ("game", n)]
            )
        );
    }
    let o = run(
        &["review", "--plain", "-l", "en", "--game", "1", &file],
        b"quit\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
}

/// Processes whose command line contains `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        if cmd.contains(marker) {
            found.push(format!("{name}: {cmd}"));
        }
    }
    found
}

#[test]
fn review_says_only_a_legal_best_move_and_stops_the_engines_helpers() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("g.pgn");
    // After 1. e4 it is Black's move: a1a8 is no move at all here, e2e4
    // a White move, zz99zz not a move.
    std::fs::write(&game, "[White \"A\"]\n[Black \"B\"]\n\n1. e4 *\n").unwrap();
    let g = game.display().to_string();
    let l = loc("en");
    for best in ["a1a8", "e2e4", "zz99zz"] {
        let marker = format!("annabella-helper-{}-{best}", std::process::id());
        let engine = dir.path().join(format!("engine-{best}.sh"));
        // The engine starts a helper (as engines with a network or
        // tablebase server do) and gives an impossible best move.
        std::fs::write(
            &engine,
            format!(
                "#!/bin/sh\nsh -c 'sleep 600' {marker} &\n\
                 while read l; do case $l in uci) echo uciok;; isready) echo readyok;;\n\
                 go*) echo 'info depth 1 score cp 40'; echo 'bestmove {best}';; esac; done\n"
            ),
        )
        .unwrap();
        let mut perm = std::fs::metadata(&engine).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
        std::fs::set_permissions(&engine, perm).unwrap();
        let e = engine.display().to_string();
        let o = run(
            &["review", "--plain", "-l", "en", "--engine", &e, &g],
            b"last\neval\nquit\n",
        );
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        let refused = l.message(
            MsgKey::ReviewEngineFailed,
            &[(
                "error",
                &l.message(MsgKey::EngineIllegalMove, &[("move", best)]),
            )],
        );
        // On main the move was said as the best one.
        assert!(out(&o).lines().any(|x| x == refused), "{best}: {}", out(&o));
        assert!(!out(&o).contains(&format!(": {best}.")), "{}", out(&o));
        // On main the helper was left running after quit.
        let start = Instant::now();
        let mut left = processes_with(&marker);
        while !left.is_empty() && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(50));
            left = processes_with(&marker);
        }
        for p in &left {
            if let Some(pid) = p.split(':').next().and_then(|n| n.parse::<i32>().ok()) {
                // SAFETY: kill(2) of a leftover test helper.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
        assert!(left.is_empty(), "{best}: left running: {left:?}");
    }
    // Liveness: a legal best move is said.
    let engine = dir.path().join("engine-ok.sh");
    std::fs::write(
        &engine,
        "#!/bin/sh\nwhile read l; do case $l in uci) echo uciok;; isready) echo readyok;;\n\
         go*) echo 'info depth 1 score cp 40'; echo 'bestmove e7e5';; esac; done\n",
    )
    .unwrap();
    let mut perm = std::fs::metadata(&engine).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&engine, perm).unwrap();
    let e = engine.display().to_string();
    let o = run(
        &["review", "--plain", "-l", "en", "--engine", &e, &g],
        b"last\neval\nquit\n",
    );
    assert!(
        out(&o)
            .lines()
            .any(|x| x.starts_with("Engine") && x.contains("e5")),
        "{}",
        out(&o)
    );
}
