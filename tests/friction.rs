//! Issue 24: the frictions of a blind player's evening in `--plain` (and
//! what blind players ask for), each through the real binary, every
//! expected line from the locale data.

mod common;

use std::io::Write;
use std::time::Duration;

use annabella::locale::MsgKey;
use annabella::locale::{Locale, builtin};

fn loc(code: &str) -> Locale {
    // fide's sentences are the German locale's.
    builtin(if code == "fide" { "de" } else { code }).expect("a built-in locale")
}

fn msg(code: &str, key: MsgKey, args: &[(&str, &str)]) -> String {
    loc(code).message(key, args)
}

/// The first (shown) spelling of a command word.
fn word(code: &str, key: MsgKey) -> String {
    msg(code, key, &[])
        .split('|')
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// The play screen in plain lines with `args`, `script` on standard input;
/// its journal in a fresh folder.
fn plain(args: &[&str], script: &str) -> Vec<String> {
    let mut all = vec!["--plain", "--silent"];
    all.extend_from_slice(args);
    common::run_with_input(&all, script).0
}

/// The line after the first one equal to `line`.
fn after<'a>(lines: &'a [String], line: &str) -> &'a [String] {
    let i = lines
        .iter()
        .position(|l| l == line)
        .unwrap_or_else(|| panic!("no line {line:?} in {lines:#?}"));
    &lines[i + 1..]
}

fn has(lines: &[String], line: &str) {
    assert!(
        lines.iter().any(|l| l == line),
        "no line {line:?} in {lines:#?}"
    );
}

#[test]
fn a_line_that_is_no_answer_drops_the_question_and_is_carried_out() {
    for code in ["en", "de"] {
        let w = |k: MsgKey| word(code, k);
        let (white, black) = (
            msg(code, MsgKey::SideWhite, &[]),
            msg(code, MsgKey::SideBlack, &[]),
        );
        let script = [
            // Resign, then the time instead of yes or no.
            w(MsgKey::UiCmdResign),
            w(MsgKey::UiCmdTime),
            // A draw offered, accepted, then the state instead.
            "e4".into(),
            w(MsgKey::UiCmdDraw),
            w(MsgKey::UiCmdYes),
            w(MsgKey::UiCmdPress),
            "e4".into(),
            w(MsgKey::UiCmdAccept),
            w(MsgKey::UiCmdStatus),
            // Quit, then the move count instead.
            w(MsgKey::UiCmdQuit),
            w(MsgKey::UiCmdCount),
            // Help says the question again, an empty line leaves it open;
            // then yes resigns (the question still works).
            w(MsgKey::UiCmdResign),
            String::new(),
            w(MsgKey::UiCmdHelp),
            w(MsgKey::UiCmdYes),
        ]
        .join("\n")
            + "\n";
        let lines = plain(&["-l", code, "--control", "5m"], &script);
        let (yes, no) = (w(MsgKey::UiCmdYes), w(MsgKey::UiCmdNo));
        let dropped = msg(
            code,
            MsgKey::UiQuestionDropped,
            &[("yes", &yes), ("no", &no)],
        );
        let confirm = |key: MsgKey, side: &str| {
            msg(
                code,
                key,
                &[("side", side), ("yes", &yes), ("no", &no), ("opponent", "")],
            )
        };
        // Resign, time: dropped, and the time is said.
        let next = after(&lines, &confirm(MsgKey::UiConfirmResign, &white));
        assert_eq!(next[0], dropped, "{code}");
        assert!(
            next[1].starts_with(&format!("{white}: ")),
            "{code}: {next:#?}"
        );
        // Accept, status: dropped, and the state is said; no draw.
        let accept = msg(
            code,
            MsgKey::UiConfirmAccept,
            &[("side", &black), ("yes", &yes), ("no", &no)],
        );
        let next = after(&lines, &accept);
        assert_eq!(next[0], dropped, "{code}");
        let state = msg(
            code,
            MsgKey::JournalState,
            &[("number", "1"), ("side", &black)],
        );
        let state_head = state.split(',').next().unwrap_or_default();
        assert!(next[1].starts_with(state_head), "{code}: {next:#?}");
        // Quit, count: dropped, and the count is said; the game goes on.
        let quit = msg(code, MsgKey::UiQuitConfirm, &[("yes", &yes), ("no", &no)]);
        let next = after(&lines, &quit);
        assert_eq!(next[0], dropped, "{code}");
        assert!(
            next[1].starts_with(&format!("{white}: ")),
            "{code}: {next:#?}"
        );
        // Resign again: an empty line leaves the question, help says it
        // again, yes resigns.
        let confirm_black = confirm(MsgKey::UiConfirmResign, &black);
        let next = after(&lines, &confirm_black);
        assert_eq!(next[0], confirm_black, "{code}: help says it again");
        let resigned = msg(
            code,
            MsgKey::ResultResignation,
            &[("loser", &black), ("winner", &white)],
        );
        assert!(next[1].contains(&resigned), "{code}: {next:#?}");
    }
}

#[test]
fn boards_that_differ_name_the_arbiter_command_of_the_play_screen() {
    let code = "de";
    let w = |k: MsgKey| word(code, k);
    let (white, black) = (
        msg(code, MsgKey::SideWhite, &[]),
        msg(code, MsgKey::SideBlack, &[]),
    );
    let arbiter = w(MsgKey::UiCmdArbiter);
    let correct = format!("{arbiter} {}", w(MsgKey::UiCmdCorrect));
    let script = [
        "e4".to_owned(),
        w(MsgKey::UiCmdPress),
        "d4".into(),
        w(MsgKey::UiCmdHelp),
        arbiter.clone(),
        "foo".into(),
        "Sf3".into(),
        w(MsgKey::UiCmdBack),
        correct.clone(),
        w(MsgKey::UiCmdStatus),
    ]
    .join("\n")
        + "\n";
    let lines = plain(&["-l", code, "--control", "5m"], &script);
    // The mismatch names the command that corrects it here, on one line.
    let differ = msg(
        code,
        MsgKey::MirrorBoardsDiffer,
        &[
            ("number", "1"),
            ("side", &white),
            ("black", "d4"),
            ("white", "e4"),
            ("correct", &correct),
        ],
    );
    // Both clocks stand meanwhile (D.2.9, tests/laws.rs).
    has(&lines, &differ);
    // Help says what waits: the same sentence.
    let help = lines
        .iter()
        .find(|l| l.contains(&w(MsgKey::UiCmdTakeback)))
        .expect("help");
    assert!(help.contains(&differ), "{help}");
    // A line the arbiter menu does not know is answered with why.
    let unknown = |text: &str| {
        msg(
            code,
            MsgKey::UiArbiterUnknown,
            &[
                ("text", text),
                ("help", &w(MsgKey::UiCmdHelp)),
                ("back", &w(MsgKey::UiCmdBack)),
            ],
        )
    };
    has(&lines, &unknown("foo"));
    has(&lines, &unknown("Sf3"));
    // "schiedsrichter korrigieren" on one line corrects Black's board.
    let corrected = msg(code, MsgKey::MirrorCorrectedBoard, &[]);
    let head = corrected.split('{').next().unwrap_or_default();
    let fixed = lines
        .iter()
        .find(|l| l.starts_with(head))
        .unwrap_or_else(|| panic!("no correction in {lines:#?}"));
    assert!(fixed.contains(&black), "{fixed}");
    // And the game goes on: no mismatch any more.
    let last = lines.last().unwrap();
    assert!(!last.contains(&differ), "{last}");
}

#[test]
fn resuming_says_the_draw_offer_that_waits() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let j = journal.to_str().unwrap();
    plain(
        &["-l", "en", "--control", "5m", "--journal", j],
        "e4\npress\ne4\ne5\ndraw\nyes\npress\n",
    );
    let offer = |accept: &str, decline: &str| {
        msg(
            "en",
            MsgKey::MirrorDrawOfferOpen,
            &[
                ("side", "Black"),
                ("opponent", "White"),
                ("accept", accept),
                ("decline", decline),
            ],
        )
    };
    // The play screen, resumed: in the first lines, and in status.
    let lines = plain(&["--journal", j], "status\ne5\naccept\nyes\n");
    let screen_offer = offer(
        &word("en", MsgKey::UiCmdAccept),
        &word("en", MsgKey::UiCmdDecline),
    );
    assert!(lines[1].ends_with(&screen_offer), "{lines:#?}");
    assert!(lines[2].ends_with(&screen_offer), "{lines:#?}");
    // Liveness: it is accepted.
    let agreed = msg("en", MsgKey::ResultAgreement, &[]);
    assert!(
        lines.iter().any(|l| l.contains(&agreed)),
        "{agreed}: {lines:#?}"
    );
    // The script's resume says it in the script's words.
    let journal2 = dir.path().join("game2.jsonl");
    let j2 = journal2.to_str().unwrap();
    plain(
        &["-l", "en", "--control", "5m", "--journal", j2],
        "e4\npress\ne4\ne5\ndraw\nyes\npress\n",
    );
    let out = std::process::Command::new(common::bin())
        .args(["resume", j2, "--script", "/dev/null", "-l", "en"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&offer("accept draw", "decline draw")),
        "{text}"
    );
}

#[test]
fn the_move_that_mates_is_made_on_the_opponents_board_too() {
    // Fool's mate: Black's Qh4 ends the game when announced; White still
    // makes it on his board, and the boards are compared.
    let moves = "f3\npress\nf3\ne5\npress\ne5\ng4\npress\ng4\nQh4\n";
    let lines = plain(&["-l", "en", "--control", "5m"], &format!("{moves}Qh4\n"));
    let execute = msg(
        "en",
        MsgKey::UiExecuteFinal,
        &[("side", "White"), ("move", "Queen h4 mate")],
    );
    has(&lines, &execute);
    let shown = msg(
        "en",
        MsgKey::MirrorExecutedFinal,
        &[("side", "White"), ("move", "Queen h4 mate")],
    );
    assert_eq!(lines.last().unwrap(), &shown, "{lines:#?}");
    // Another move there is a mismatch, said at once.
    let lines = plain(&["-l", "en", "--control", "5m"], &format!("{moves}Qg5\n"));
    let differ = msg(
        "en",
        MsgKey::MirrorBoardsDiffer,
        &[("number", "2"), ("side", "Black")],
    );
    let head = differ.split('{').next().unwrap_or_default();
    assert!(
        lines.last().unwrap().starts_with(head),
        "{head}: {lines:#?}"
    );
}

#[test]
fn board_questions_take_english_words_a_side_anywhere_and_fen() {
    // German: the English piece word, the side after the piece.
    let lines = plain(
        &["-l", "de", "--control", "5m"],
        "where knight\nwo bauer schwarz\nfen\n",
    );
    let n = lines.len();
    let where_ = |code: &str, side: &str, piece: &str, squares: &str| {
        msg(
            code,
            MsgKey::UiWhere,
            &[("side", side), ("piece", piece), ("squares", squares)],
        )
    };
    let (weiss, schwarz) = (
        msg("de", MsgKey::SideWhite, &[]),
        msg("de", MsgKey::SideBlack, &[]),
    );
    assert_eq!(
        lines[n - 3],
        format!(
            "{} {}",
            where_("de", &weiss, "Springer", "b1, g1"),
            where_("de", &schwarz, "Springer", "b8, g8")
        )
    );
    assert_eq!(
        lines[n - 2],
        where_("de", &schwarz, "Bauer", "a7, b7, c7, d7, e7, f7, g7, h7")
    );
    // fen is a command, not piece letters.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(lines[n - 1], msg("de", MsgKey::UiFen, &[("fen", start)]));
    // Korean: English words too.
    let lines = plain(&["-l", "ko", "--control", "5m"], "where knight\n");
    let ko = loc("ko");
    let knight = annabella::vocab::Vocabulary::builtin("ko")
        .unwrap()
        .piece(shakmaty::Role::Knight)
        .display;
    assert_eq!(
        lines.last().unwrap(),
        &format!(
            "{} {}",
            where_("ko", &ko.message(MsgKey::SideWhite, &[]), &knight, "b1, g1"),
            where_("ko", &ko.message(MsgKey::SideBlack, &[]), &knight, "b8, g8")
        )
    );
    // English: "file b" is the b-file, not Black's.
    let lines = plain(&["-l", "en", "--control", "5m"], "file b\n");
    assert_eq!(
        lines.last().unwrap(),
        &msg(
            "en",
            MsgKey::UiLine,
            &[
                ("line", "b"),
                (
                    "pieces",
                    "White Knight b1, White Pawn b2, Black Pawn b7, Black Knight b8"
                )
            ]
        )
    );
}

#[test]
fn quit_and_quiet_say_a_line_status_is_understood_and_help_names_no_keys() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let j = journal.to_str().unwrap();
    let lines = plain(
        &["-l", "en", "--control", "5m", "--journal", j],
        "status\nquiet\nhelp\nquit\nyes\n",
    );
    let n = lines.len();
    let state = msg(
        "en",
        MsgKey::JournalState,
        &[("number", "1"), ("side", "White")],
    );
    assert!(
        lines[n - 5].starts_with(state.split(',').next().unwrap()),
        "{lines:#?}"
    );
    assert_eq!(lines[n - 4], msg("en", MsgKey::UiQuietDone, &[]));
    // No keys in plain lines.
    assert!(!lines[n - 3].contains("F1"), "{}", lines[n - 3]);
    assert!(!lines[n - 3].contains(&msg("en", MsgKey::UiHelpKeys, &[])));
    assert_eq!(
        lines[n - 2],
        msg("en", MsgKey::UiQuitConfirm, &[("yes", "yes"), ("no", "no")])
    );
    // After yes: where the game is and how it goes on.
    assert_eq!(lines[n - 1], msg("en", MsgKey::UiQuitDone, &[("file", j)]));
}

/// The play screen in plain lines whose input stays open for `wait`
/// after `script` (the clock runs meanwhile), then `quit`, `yes`.
fn plain_waiting(args: &[&str], script: &str, wait: Duration) -> (Vec<String>, tempfile::TempDir) {
    let data = tempfile::tempdir().unwrap();
    let mut all = vec!["--plain", "--silent"];
    all.extend_from_slice(args);
    let mut child = common::annabella(&all, data.path()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    std::thread::sleep(wait);
    let _ = stdin.write_all(b"quit\nyes\n");
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    (text.lines().map(str::to_owned).collect(), data)
}

/// `m:ss` or `m:ss.t` (no hours under an hour).
fn is_clock(t: &str) -> bool {
    let (main, tenths) = t.split_once('.').unwrap_or((t, "0"));
    let parts: Vec<&str> = main.split(':').collect();
    parts.len() == 2
        && parts[0].parse::<u32>().is_ok()
        && parts[1].len() == 2
        && parts[1].parse::<u32>().is_ok()
        && tenths.len() == 1
}

#[test]
fn one_clock_format_and_a_countdown_set_in_play() {
    // The press, the time and the state give the clock the same way.
    let lines = plain(
        &["-l", "en", "--control", "3m"],
        "e4\npress\ne4\ntime\nstatus\n",
    );
    let pressed = lines
        .iter()
        .find(|l| l.starts_with("White has pressed the clock"))
        .expect("pressed");
    let t = pressed
        .split('(')
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert!(is_clock(t), "{pressed}");
    let n = lines.len();
    let reading = lines[n - 2].trim_end_matches('.');
    // "White: 2:59. Black: 3:00. White has used 0:00.4. …": each part
    // ends in a clock reading.
    for side in reading.split(". ") {
        let t = side.rsplit(' ').next().unwrap_or_default();
        assert!(is_clock(t), "{reading}");
    }
    let state = &lines[n - 1];
    for t in state.split([' ', ',', '.']).filter(|p| p.contains(':')) {
        assert!(is_clock(t), "{t} in {state}");
    }
    // The countdown set in play: the last two seconds only.
    let (lines, data) = plain_waiting(
        &["-l", "en", "--control", "4s"],
        "alarm countdown 2\nsettings save\n",
        Duration::from_millis(5000),
    );
    let count = |n: u32| {
        msg(
            "en",
            MsgKey::ClockCountdown,
            &[("side", "White"), ("n", &n.to_string())],
        )
    };
    let counted: Vec<&String> = lines.iter().filter(|l| l.starts_with("White: ")).collect();
    assert!(!lines.contains(&count(3)), "{lines:#?}");
    assert!(
        lines.contains(&count(2)) && lines.contains(&count(1)),
        "{counted:?}: {lines:#?}"
    );
    // Kept for the next games by settings save.
    let file = std::fs::read_to_string(data.path().join("annabella").join("config.toml")).unwrap();
    assert!(file.contains("countdown = 2"), "{file}");
    // --countdown 0: none at all, the flag still falls.
    let (lines, _) = plain_waiting(
        &["-l", "en", "--control", "3s", "--countdown", "0"],
        "",
        Duration::from_millis(4000),
    );
    assert!(!lines.contains(&count(1)), "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.contains("flag has fallen")),
        "{lines:#?}"
    );
}

#[test]
fn scans_attacks_attackers_and_defenders_in_every_locale_words() {
    // 1. e4 e5 2. Nf3 Nc6 on both boards.
    let moves = "e4\npress\ne4\ne5\npress\ne5\nNf3\npress\nNf3\nNc6\npress\nNc6\n";
    let en = |key: MsgKey, args: &[(&str, &str)]| msg("en", key, args);
    let lines = plain(
        &["-l", "en", "--control", "5m"],
        &format!(
            "{moves}attacks f3\nattackers e5\ndefenders e5\nattackers d4\nray f1 b5\n\
             ray e4\ndiagonal c4\nlast five\nfen\n"
        ),
    );
    let n = lines.len();
    let with = |sq: &str, side: &str, piece: &str| {
        en(
            MsgKey::UiSquareWith,
            &[("square", sq), ("side", side), ("piece", piece)],
        )
    };
    let list = [
        with("e1", "White", "King"),
        "g1".into(),
        with("d2", "White", "Pawn"),
        with("h2", "White", "Pawn"),
        "d4".into(),
        "h4".into(),
        with("e5", "Black", "Pawn"),
        "g5".into(),
    ]
    .join(", ");
    let piece = |side: &str, piece: &str, sq: &str, key: MsgKey, list: &str| {
        en(
            key,
            &[
                ("side", side),
                ("piece", piece),
                ("square", sq),
                ("list", list),
            ],
        )
    };
    assert_eq!(
        lines[n - 9],
        piece("White", "Knight", "f3", MsgKey::UiAttacks, &list)
    );
    assert_eq!(
        lines[n - 8],
        piece(
            "Black",
            "Pawn",
            "e5",
            MsgKey::UiAttackers,
            "White Knight f3"
        )
    );
    assert_eq!(
        lines[n - 7],
        piece("Black", "Pawn", "e5", MsgKey::UiDefenders, "Knight c6")
    );
    // An empty square: both sides.
    assert_eq!(
        lines[n - 6],
        format!(
            "{} {}",
            en(
                MsgKey::UiSquareAttackedBy,
                &[("side", "White"), ("square", "d4"), ("pieces", "Knight f3")]
            ),
            en(
                MsgKey::UiSquareAttackedBy,
                &[
                    ("side", "Black"),
                    ("square", "d4"),
                    ("pieces", "Pawn e5, Knight c6")
                ]
            )
        )
    );
    // The bishop's ray: free to the edge.
    assert_eq!(
        lines[n - 5],
        en(
            MsgKey::UiRayOpen,
            &[
                ("from", "f1"),
                ("towards", "a6"),
                ("free", "e2, d3, c4, b5, a6")
            ]
        )
    );
    // Every direction from e4: up to the black pawn first.
    assert!(
        lines[n - 4].starts_with(&en(
            MsgKey::UiRayNext,
            &[
                ("from", "e4"),
                ("towards", "e8"),
                ("piece", "Black Pawn e5")
            ]
        )),
        "{}",
        lines[n - 4]
    );
    let diag = |from: &str, to: &str| en(MsgKey::UiDiagonalName, &[("from", from), ("to", to)]);
    assert_eq!(
        lines[n - 3],
        format!(
            "{} {}",
            en(
                MsgKey::UiLine,
                &[
                    ("line", &diag("a2", "g8")),
                    ("pieces", "White Pawn a2, Black Pawn f7, Black Knight g8")
                ]
            ),
            en(
                MsgKey::UiLine,
                &[("line", &diag("f1", "a6")), ("pieces", "White Bishop f1")]
            )
        )
    );
    let move_ = |n: &str, side: &str, m: &str| {
        en(
            MsgKey::ReviewMove,
            &[("number", n), ("side", side), ("move", m)],
        )
    };
    let last = [
        move_("1", "White", "e4"),
        move_("1", "Black", "e5"),
        move_("2", "White", "Knight f3"),
        move_("2", "Black", "Knight c6"),
    ]
    .join(", ");
    assert_eq!(lines[n - 2], en(MsgKey::UiLastMoves, &[("moves", &last)]));
    assert_eq!(
        lines[n - 1],
        en(
            MsgKey::UiFen,
            &[(
                "fen",
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
            )]
        )
    );
    // The same questions in the words of the other locales.
    for code in ["de", "pl", "he", "ar", "el", "ko"] {
        let q = |k: MsgKey| word(code, k);
        let script = format!(
            "{moves}{} f3\n{} e5\n{}\n{}\n",
            q(MsgKey::UiCmdAttacks),
            q(MsgKey::UiCmdDefenders),
            q(MsgKey::UiCmdLastFive),
            q(MsgKey::UiCmdFen)
        );
        let lines = plain(&["-l", code, "--control", "5m"], &script);
        let n = lines.len();
        let vocab = annabella::vocab::Vocabulary::builtin(code).unwrap();
        let (side, knight) = (
            vocab.side(shakmaty::Color::White).display,
            vocab.piece(shakmaty::Role::Knight).display,
        );
        let sq = |s: shakmaty::Square| vocab.square(s).display;
        let head = msg(
            code,
            MsgKey::UiAttacks,
            &[
                ("side", &side),
                ("piece", &knight),
                ("square", &sq(shakmaty::Square::F3)),
                ("list", ""),
            ],
        );
        let head = head.split(':').next().unwrap_or_default().to_owned();
        assert!(
            lines[n - 4].starts_with(head.trim_end_matches('.').trim()),
            "{code}: {}",
            lines[n - 4]
        );
        let defended = msg(
            code,
            MsgKey::UiDefenders,
            &[
                ("side", &vocab.side(shakmaty::Color::Black).display),
                ("piece", &vocab.piece(shakmaty::Role::Pawn).display),
                ("square", &sq(shakmaty::Square::E5)),
                ("list", &format!("{knight} {}", sq(shakmaty::Square::C6))),
            ],
        );
        assert_eq!(lines[n - 3], defended, "{code}");
        let last_head = msg(code, MsgKey::UiLastMoves, &[("moves", "")]);
        let last_head = last_head.split(':').next().unwrap_or_default();
        assert!(
            lines[n - 2].starts_with(last_head),
            "{code}: {}",
            lines[n - 2]
        );
        assert!(
            lines[n - 1]
                .ends_with("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
            "{code}: {}",
            lines[n - 1]
        );
    }
}

#[test]
fn models_install_names_a_missing_file_and_listen_needs_a_model() {
    let data = tempfile::tempdir().unwrap();
    let out = common::annabella(&["models", "install", "/nonexistent.zip"], data.path())
        .env("ANNABELLA_MODELS_DIR", data.path().join("models"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim_end(),
        // No --locale and no settings file: fide's words.
        msg(
            "fide",
            MsgKey::ModelsNoSuchFile,
            &[("path", "/nonexistent.zip")]
        )
    );
    // listen without a model: it needs one; there is no typing to go on
    // with.
    let wav = data.path().join("none.wav");
    let out = common::annabella(&["listen", "-l", "de", wav.to_str().unwrap()], data.path())
        .env("ANNABELLA_MODELS_DIR", data.path().join("models"))
        .env_remove("ANNABELLA_MODEL")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let needs = msg(
        "de",
        MsgKey::VoiceNoModelListen,
        &[
            ("locale", &loc("de").name),
            ("name", "vosk-model-small-de-0.15"),
        ],
    );
    assert_eq!(err.trim_end(), needs);
    // The did-you-mean verdict is documented.
    let out = common::annabella(&["listen", "--help"], data.path())
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("did-you-mean"));
    // parse --tsv prints "UCI SAN", as the README says.
    let mut child = common::annabella(&["parse", "--tsv", "-l", "en"], data.path())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\tknight f3\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "g1f3 Nf3\n");
}

/// `save FILE` at the prompt writes FILE (it wrote annabella-game.pgn in
/// the working folder and said so), and words after a command that takes
/// none are refused: `press e5` neither pressed nor played.
#[test]
fn save_with_a_file_name_writes_that_file_and_stray_words_do_nothing() {
    for code in ["en", "de"] {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let file = dir.path().join("mine.pgn");
        let file_text = file.to_str().expect("a UTF-8 path");
        let w = |k: MsgKey| word(code, k);
        let (press, save, quit, yes) = (
            w(MsgKey::UiCmdPress),
            w(MsgKey::UiCmdSave),
            w(MsgKey::UiCmdQuit),
            w(MsgKey::UiCmdYes),
        );
        let missing = dir.path().join("no-such-folder").join("x.pgn");
        let missing = missing.to_str().expect("a UTF-8 path");
        let script = format!(
            "e4\n{press} e5\n{press}\ne5\n{save} {file_text}\n{save} {missing}\n{quit}\n{yes}\n"
        );
        let lines = plain(&["-l", code, "--mode", "hotseat"], &script);
        has(
            &lines,
            &msg(
                code,
                MsgKey::UiTakesNothing,
                &[("word", &press), ("rest", "e5")],
            ),
        );
        has(&lines, &msg(code, MsgKey::UiSaved, &[("file", file_text)]));
        // A named file that cannot be written is the one named in the
        // refusal (the line named the --save file).
        let not_found = msg(code, MsgKey::IoNotFound, &[]);
        assert!(
            lines
                .iter()
                .any(|l| l.contains(missing) && l.contains(&not_found)),
            "{lines:#?}"
        );
        let pgn = std::fs::read_to_string(&file).expect("the named file was written");
        // The press after the refused line completed e4 alone; e5 was
        // then Black's move, typed by itself.
        assert!(pgn.contains("1. e4 "), "{pgn}");
        assert!(pgn.contains(" e5 "), "{pgn}");
        assert!(!pgn.contains("2."), "{pgn}");
    }
}
