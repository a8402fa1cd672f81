//! End to end: `annabella review` of a shared PGN game (an engine game
//! with comments and move times) and of a journal (clock times), in plain
//! lines and on the full screen in tmux: forward, back, jump, the last
//! five moves, a board question, a clock time and a comment, each line
//! checked against the locale's messages filled in here.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use annabella::clock::talk::{Phrasebook, Verbosity};
use annabella::locale::MsgKey;
use annabella::vocab::{Style, Vocabulary};
use common::de;
use common::tmux::{Session, tmux_available};
use shakmaty::{Chess, Color, Position};

/// A file of the shared games: `../shared/pgn` beside the checkout (CI),
/// or two levels up (a worktree).
fn shared_pgn(name: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    ["../shared/pgn", "../../shared/pgn"]
        .iter()
        .map(|d| root.join(d).join(name))
        .find(|p| p.exists())
        .expect("the shared PGN games beside the project")
}

/// The first game's main-line moves, read with pgn-reader and shakmaty.
fn moves_of(path: &PathBuf) -> Vec<shakmaty::Move> {
    let games = annabella::pgn::read_games(std::fs::File::open(path).unwrap()).unwrap();
    let mut pos = Chess::default();
    games[0]
        .sans
        .iter()
        .map(|s| {
            let m = s.san.to_move(&pos).unwrap();
            pos.play_unchecked(m);
            m
        })
        .collect()
}

/// "N. Side: words" for move `i` in the fide words (German messages).
fn said_move(moves: &[shakmaty::Move], i: usize) -> String {
    let v = Vocabulary::builtin("fide").unwrap();
    let mut pos = Chess::default();
    for m in &moves[..i] {
        pos.play_unchecked(*m);
    }
    let side = if i.is_multiple_of(2) {
        MsgKey::SideWhite
    } else {
        MsgKey::SideBlack
    };
    de(
        MsgKey::ReviewMove,
        &[
            ("number", &(i / 2 + 1).to_string()),
            ("side", &de(side, &[])),
            ("move", &v.announce(&pos, moves[i], Style::Short).display),
        ],
    )
}

/// The time in the cutechess comment of move `i` (`{+0.69/29 36s}`):
/// in this file every move of the first game has one comment, in order.
fn cutechess_time(text: &str, i: usize) -> Duration {
    let movetext = &text[text.find("\n\n").unwrap()..];
    let comment = movetext.split('{').nth(i + 1).unwrap();
    let comment = &comment[..comment.find('}').unwrap()];
    let secs = comment.split_whitespace().last().unwrap();
    Duration::from_secs_f64(secs.trim_end_matches('s').parse().unwrap())
}

#[test]
fn a_shared_engine_game_in_plain_lines() {
    let path = shared_pgn("stockfish-learning.pgn");
    let moves = moves_of(&path);
    let text = std::fs::read_to_string(&path).unwrap();
    let script = "\
weiter
weiter
weiter
zurück
gehe zu 10
10 schwarz
letzte fünf
was e4
wo springer
zeit
kommentar
3
uhr
";
    let (lines, _) = common::run_with_input(
        &[
            "review",
            "--plain",
            "--engine",
            "/nonexistent",
            path.to_str().unwrap(),
        ],
        script,
    );
    let white = de(MsgKey::SideWhite, &[]);
    let book = Phrasebook::builtin("de").unwrap();
    let mut pos10 = Chess::default();
    for m in &moves[..20] {
        pos10.play_unchecked(*m);
    }
    let v = Vocabulary::builtin("fide").unwrap();
    let recent: Vec<String> = (15..20).map(|i| said_move(&moves, i)).collect();
    let knights = |c: Color| {
        let b = pos10.board();
        let squares: Vec<String> = (b.by_color(c) & b.knights())
            .into_iter()
            .map(|s| v.square(s).display)
            .collect();
        de(
            MsgKey::UiWhere,
            &[
                ("side", &v.side(c).display),
                ("piece", &v.piece(shakmaty::Role::Knight).display),
                ("squares", &squares.join(", ")),
            ],
        )
    };
    let e4 = pos10.board().piece_at(shakmaty::Square::E4).unwrap();
    let move_time = |i: usize| {
        let side = if i.is_multiple_of(2) {
            MsgKey::SideWhite
        } else {
            MsgKey::SideBlack
        };
        de(
            MsgKey::ReviewMoveTime,
            &[
                ("side", &de(side, &[])),
                ("number", &(i / 2 + 1).to_string()),
                (
                    "time",
                    &book
                        .duration(cutechess_time(&text, i), Verbosity::Brief)
                        .display,
                ),
            ],
        )
    };
    let expected = vec![
        de(
            MsgKey::ReviewOpened,
            &[
                ("white", "Stockfish-reference"),
                ("black", "Stockfish-learning"),
                ("count", &moves.len().to_string()),
                ("result", &de(MsgKey::ReviewWon, &[("side", &white)])),
                ("side", &white),
                ("next", "weiter"),
                ("help", "hilfe"),
            ],
        ),
        said_move(&moves, 0),
        said_move(&moves, 1),
        said_move(&moves, 2),
        said_move(&moves, 1),
        said_move(&moves, 18),
        said_move(&moves, 19),
        de(
            MsgKey::ReviewRecent,
            &[("count", "5"), ("moves", &recent.join(", "))],
        ),
        de(
            MsgKey::UiSquarePiece,
            &[
                ("square", &v.square(shakmaty::Square::E4).display),
                ("side", &v.side(e4.color).display),
                ("piece", &v.piece(e4.role).display),
            ],
        ),
        format!("{} {}", knights(Color::White), knights(Color::Black)),
        move_time(19),
        de(
            MsgKey::ReviewComment,
            &[
                ("number", "10"),
                ("side", &de(MsgKey::SideBlack, &[])),
                ("text", "-0.03/29 35s"),
            ],
        ),
        said_move(&moves, 4),
        move_time(4),
    ];
    assert_eq!(lines, expected);
}

#[test]
fn a_journal_with_clock_times() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let script = "time 0\nwhite board: e4\nannounce\ntime 7\npress\nblack board: e4\n\
        black board: e5\nannounce\ntime 19\npress\nwhite board: e5\n";
    common::run_with_input(
        &[
            "play",
            "--script",
            "-",
            "--control",
            "5m",
            "--journal",
            journal.to_str().unwrap(),
        ],
        script,
    );
    let (lines, _) = common::run_with_input(
        &["review", "--plain", "-l", "en", journal.to_str().unwrap()],
        "last\nclock\nback\nclock\nquit\nnext\n",
    );
    let en = annabella::locale::builtin("en").unwrap();
    let book = Phrasebook::builtin("en").unwrap();
    let clock = |side: &str, d: u64| {
        en.message(
            MsgKey::ReviewClock,
            &[
                ("side", side),
                ("number", "1"),
                (
                    "time",
                    &book
                        .duration(Duration::from_secs(d), Verbosity::Brief)
                        .display,
                ),
            ],
        )
    };
    // White pressed after 7 s of 5 minutes, Black after 12 s.
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(
        lines[1],
        en.message(
            MsgKey::ReviewMove,
            &[("number", "1"), ("side", "Black"), ("move", "e5")]
        )
    );
    assert_eq!(lines[2], clock("Black", 288));
    assert_eq!(
        lines[3],
        en.message(
            MsgKey::ReviewMove,
            &[("number", "1"), ("side", "White"), ("move", "e4")]
        )
    );
    assert_eq!(lines[4], clock("White", 293));
}

#[test]
fn a_shared_game_on_the_full_screen() {
    if !tmux_available() {
        return;
    }
    let path = shared_pgn("kasparov-deep-blue-1997.pgn");
    let moves = moves_of(&path);
    let cfg = tempfile::tempdir().unwrap();
    let s = Session::start("review");
    s.keys(&format!(
        "XDG_CONFIG_HOME={} {} review -l fide --silent --engine /nonexistent {}; echo EXITED $?",
        cfg.path().display(),
        env!("CARGO_BIN_EXE_annabella"),
        path.display()
    ));
    let keys = de(MsgKey::ReviewLabelKeys, &[]);
    s.wait_for(&keys[..30]);
    let send = |k: &str| {
        let st = std::process::Command::new("tmux")
            .args(["send-keys", "-t", &s.0, k])
            .status()
            .unwrap();
        assert!(st.success());
    };
    // Forward twice, back once: the first move is said again.
    send("Right");
    s.wait_for(&said_move(&moves, 0));
    send("Right");
    s.wait_for(&said_move(&moves, 1));
    send("Left");
    // The move list is in the locale's letters (S for Springer), as the
    // scoresheets of the play screen are.
    let screen = s.wait_for(">1. Sf3");
    assert!(screen.contains(&said_move(&moves, 0)), "{screen}");
    // Jump by a typed command, then the last five moves (F2).
    s.keys("gehe zu 20 schwarz");
    s.wait_for(&said_move(&moves, 39));
    send("F2");
    let recent: Vec<String> = (35..40).map(|i| said_move(&moves, i)).collect();
    let line = de(
        MsgKey::ReviewRecent,
        &[("count", "5"), ("moves", &recent.join(", "))],
    );
    // The message box wraps long lines: compare its first 40 characters.
    s.wait_for(&line[..40]);
    // A board question and the clock (no time in this game).
    s.keys("figuren schwarz");
    let v = Vocabulary::builtin("fide").unwrap();
    let mut pos = Chess::default();
    for m in &moves[..40] {
        pos.play_unchecked(*m);
    }
    let b = pos.board();
    let mut list = Vec::new();
    for role in [
        shakmaty::Role::King,
        shakmaty::Role::Queen,
        shakmaty::Role::Rook,
        shakmaty::Role::Bishop,
        shakmaty::Role::Knight,
        shakmaty::Role::Pawn,
    ] {
        for sq in b.by_color(Color::Black) & b.by_role(role) {
            list.push(format!(
                "{} {}",
                v.piece(role).display,
                v.square(sq).display
            ));
        }
    }
    let pieces = de(
        MsgKey::UiPiecesOf,
        &[
            ("side", &de(MsgKey::SideBlack, &[])),
            ("pieces", &list.join(", ")),
        ],
    );
    s.wait_for(&pieces[..40]);
    send("F4");
    s.wait_for(&de(MsgKey::ReviewNoClock, &[]));
    send("Escape");
    s.wait_for("EXITED 0");
}

#[test]
fn the_play_screen_goes_through_its_game_after_the_end_and_comes_back() {
    let (resign, yes, review, quit) = (
        common::de_word(MsgKey::UiCmdResign),
        common::de_word(MsgKey::UiCmdYes),
        common::de_word(MsgKey::UiCmdReview),
        common::de_word(MsgKey::UiCmdQuit),
    );
    let next = common::de_word(MsgKey::ReviewCmdNext);
    let leave = common::de_word(MsgKey::ReviewCmdQuit);
    // Before the end, there is nothing to go through yet.
    let input = format!(
        "{review}\ne4\npress\ne5\npress\n{resign}\n{yes}\n{review}\n{next}\n{next}\n{leave}\n{quit}\n{yes}\n"
    );
    let (lines, _) = common::run_with_input(&["--plain", "--mode", "hotseat"], &input);
    let white = common::de(MsgKey::SideWhite, &[]);
    let black = common::de(MsgKey::SideBlack, &[]);
    let early = common::de(MsgKey::UiReviewAfterGame, &[("resign", &resign)]);
    assert_eq!(
        lines.iter().filter(|l| **l == early).count(),
        1,
        "{lines:#?}"
    );
    let opened = common::de_until(MsgKey::ReviewOpened, &[], "white");
    let at = lines
        .iter()
        .position(|l| l.starts_with(&opened))
        .unwrap_or_else(|| panic!("no review: {lines:#?}"));
    let first = common::de(
        MsgKey::ReviewMove,
        &[("number", "1"), ("side", &white), ("move", "Eva vier")],
    );
    let second = common::de(
        MsgKey::ReviewMove,
        &[("number", "1"), ("side", &black), ("move", "Eva fuenf")],
    );
    assert_eq!(lines[at + 1], first, "{lines:#?}");
    assert_eq!(lines[at + 2], second, "{lines:#?}");
    assert_eq!(
        lines[at + 3],
        common::de(MsgKey::UiReviewBack, &[]),
        "{lines:#?}"
    );
}

#[test]
fn the_full_play_screen_goes_through_its_game_and_comes_back() {
    if !tmux_available() {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let s = Session::start("screen-review");
    s.keys(&format!(
        "XDG_CONFIG_HOME={d} XDG_DATA_HOME={d} {} -l fide --mode hotseat --silent --engine /nonexistent; echo EXITED $?",
        env!("CARGO_BIN_EXE_annabella"),
        d = data.path().display(),
    ));
    let white = de(MsgKey::SideWhite, &[]);
    s.wait_for(&format!(
        "┌{}",
        de(MsgKey::UiLabelBoardOf, &[("side", &white)])
    ));
    for l in ["e4", "press", "e5", "press"] {
        s.keys(l);
    }
    s.keys(&common::de_word(MsgKey::UiCmdResign));
    s.keys(&common::de_word(MsgKey::UiCmdYes));
    s.keys(&common::de_word(MsgKey::UiCmdReview));
    let keys = de(MsgKey::ReviewLabelKeys, &[]);
    s.wait_for(&keys[..30]);
    let send = |k: &str| {
        let st = std::process::Command::new("tmux")
            .args(["send-keys", "-t", &s.0, k])
            .status()
            .unwrap();
        assert!(st.success());
    };
    send("Right");
    let first = de(
        MsgKey::ReviewMove,
        &[("number", "1"), ("side", &white), ("move", "Eva vier")],
    );
    s.wait_for(&first);
    send("Escape");
    s.wait_for(&de(MsgKey::UiReviewBack, &[]));
    s.keys(&common::de_word(MsgKey::UiCmdQuit));
    s.keys(&common::de_word(MsgKey::UiCmdYes));
    s.wait_for("EXITED 0");
}
