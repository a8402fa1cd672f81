//! End to end at the size of a standard terminal, 80×24: the real
//! binary's full screen in tmux in fide (German messages), en, ko (Hangul
//! letters take two columns) and ar (letters without case; lam-alef
//! pairs), read as a person reads it at that size:
//!
//! - every panel reads whole: both board titles, the clock's lines (with
//!   "running" and "not pressed"), the legend, both scoresheet titles
//!   (told apart), the newest message, the input line;
//! - Black's `'` mark never takes the column before the rank number;
//! - nothing said is lost: the welcome (the mode line) is whole before the
//!   first move, and PgUp/PgDn go back through everything said;
//! - the scoresheets keep the check sign;
//! - the review's move list is in the locale's letters, its board has a
//!   legend.
//!
//! Expected texts come from the locale data, never from the screen under
//! test. Each check waits for its condition with a deadline (no fixed
//! sleeps). Skips (reported) when tmux is missing, unless
//! ANNABELLA_REQUIRE_E2E=1.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use annabella::locale::MsgKey;
use annabella::locale::{self, Locale};
use common::screen::{Frame, Grid, holds, norm};
use common::tmux::{Session, tmux_available};
use shakmaty::{File, Role};

const W: u16 = 80;
const H: u16 = 24;
/// How long the program may take to show what it was asked for.
const SETTLE: Duration = Duration::from_secs(20);
/// How long a screen is watched for something that should already be
/// there (the program has shown the message that comes with it); only a
/// failing check waits this long.
const SHORT: Duration = Duration::from_secs(10);

fn loc(code: &str) -> Locale {
    locale::builtin(code).expect("a built-in locale")
}

/// The first spelling of a command word (what the screen shows).
fn word(loc: &Locale, key: MsgKey) -> String {
    loc.message(key, &[])
        .split('|')
        .next()
        .unwrap_or_default()
        .to_owned()
}

fn side(loc: &Locale, white: bool) -> String {
    loc.message(
        if white {
            MsgKey::SideWhite
        } else {
            MsgKey::SideBlack
        },
        &[],
    )
}

/// The legend as the locale data words it: the standard letters named
/// where the board does not show the locale's own, how colour is shown,
/// the files' words.
fn legend(loc: &Locale) -> String {
    let files: Vec<String> = File::ALL
        .iter()
        .map(|f| {
            let w = &loc.file(*f).display;
            let first: String = w
                .chars()
                .next()
                .map(|c| c.to_uppercase().collect())
                .unwrap();
            format!("{first}={w}")
        })
        .collect();
    let key = if loc.board_has_case() {
        MsgKey::UiLabelLegend
    } else {
        MsgKey::UiLabelLegendMarked
    };
    let colours = loc.message(key, &[("files", &files.join(" "))]);
    if loc.board_letters_are_own() {
        return colours;
    }
    let letters = loc.board_letters();
    let pieces: Vec<String> = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ]
    .iter()
    .map(|r| format!("{}={}", letters[usize::from(*r) - 1], loc.piece(*r).display))
    .collect();
    let named = loc.message(
        MsgKey::UiLabelLegendLetters,
        &[("pieces", &pieces.join(" "))],
    );
    format!("{named} {colours}")
}

/// The play screen's panels, found by where they are: the two boards and
/// the clock along the top, the scoresheets under the clock, the message
/// box and the input line across the screen.
struct Panels {
    white_board: Frame,
    black_board: Frame,
    clock: Frame,
    sheets: Vec<Frame>,
    messages: Frame,
    input: Frame,
}

fn panels(g: &Grid) -> Option<Panels> {
    let frames = g.frames();
    let mut top: Vec<&Frame> = frames.iter().filter(|f| f.y == 0).collect();
    top.sort_by_key(|f| f.x);
    let [white_board, black_board, clock] = top.as_slice() else {
        return None;
    };
    let mut sheets: Vec<Frame> = frames
        .iter()
        .filter(|f| f.y > 0 && f.x >= clock.x && f.y < black_board.y + black_board.h)
        .cloned()
        .collect();
    sheets.sort_by_key(|f| f.x);
    let wide: Vec<&Frame> = frames.iter().filter(|f| f.w == usize::from(W)).collect();
    let (messages, input) = (wide.first()?, wide.last()?);
    if sheets.len() != 2 || wide.len() != 2 {
        return None;
    }
    Some(Panels {
        white_board: (*white_board).clone(),
        black_board: (*black_board).clone(),
        clock: (*clock).clone(),
        sheets,
        messages: (*messages).clone(),
        input: (*input).clone(),
    })
}

/// The real binary in a tmux session of 80×24, with its own settings and
/// data folders and journal.
struct Screen {
    s: Session,
    journal: PathBuf,
    _dir: tempfile::TempDir,
}

impl Screen {
    /// Runs the binary with the arguments `args` makes from the test's
    /// folder.
    fn start(tag: &str, code: &str, args: impl FnOnce(&Path) -> String) -> Screen {
        let dir = tempfile::tempdir().unwrap();
        let journal = dir.path().join("g.jsonl");
        let s = Session::start_sized(&format!("{tag}-{code}"), W, H);
        s.keys(&format!(
            "XDG_CONFIG_HOME={d} XDG_DATA_HOME={d} {bin} {args}; echo EXITED $?",
            d = dir.path().display(),
            bin = env!("CARGO_BIN_EXE_annabella"),
            args = args(dir.path()),
        ));
        Screen {
            s,
            journal,
            _dir: dir,
        }
    }

    /// A game in `code`, the journal in the test's folder.
    fn play(tag: &str, code: &str, mode: &str) -> Screen {
        let screen = Screen::start(tag, code, |d| {
            format!(
                "-l {code} --mode {mode} --silent --journal {}",
                d.join("g.jsonl").display()
            )
        });
        screen.panels(|_| true, "the play screen");
        screen
    }

    /// Waits until the play screen's panels are there and `ready` holds;
    /// fails the test with the screen and `what` after the deadline.
    fn panels(&self, mut ready: impl FnMut(&Panels) -> bool, what: &str) -> Panels {
        match self
            .s
            .wait_until(SETTLE, |g| panels(g).is_some_and(|p| ready(&p)))
        {
            Ok(g) => panels(&g).expect("found a moment ago"),
            Err(screen) => panic!("waited for {what}; screen:\n{screen}"),
        }
    }

    /// The screen once `ready` holds, or `Err` with the last screen after
    /// `deadline`.
    fn until(&self, deadline: Duration, ready: impl FnMut(&Grid) -> bool) -> Result<Grid, String> {
        self.s.wait_until(deadline, ready)
    }

    fn quit(&self, loc: &Locale) {
        self.s.keys(&word(loc, MsgKey::UiCmdQuit));
        self.s.keys(&word(loc, MsgKey::UiCmdYes));
        self.s.wait_for("EXITED");
    }
}

fn journal_path(p: &Path) -> String {
    p.display().to_string()
}

/// The whole screen as one text, spaces collapsed.
fn screen_text(g: &Grid) -> String {
    norm(
        &g.rows
            .iter()
            .map(|r| r.concat())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// Everything of the play screen reads whole at 80×24: board titles, the
/// clock's two lines with "running" and "not pressed", the legend, the
/// scoresheet titles told apart, the newest message, the input line; and
/// Black's `'` mark leaves the column before the rank number free.
fn reads_in_full(code: &str) {
    if !tmux_available() {
        return;
    }
    let loc = loc(code);
    let (white, black) = (side(&loc, true), side(&loc, false));
    let screen = Screen::play("whole", code, "board");
    // White makes a move and has not pressed the clock yet: the longest
    // clock line there is.
    screen.s.keys("e4");
    let announced = loc.message(
        MsgKey::MirrorAnnounced,
        &[("number", "1"), ("side", &white), ("move", "{move}")],
    );
    let p = screen.panels(
        |p| holds(&p.messages.text(), &announced),
        "the move's announcement",
    );
    let mut wrong = Vec::new();
    // The boards' titles, whole.
    for (frame, name) in [(&p.white_board, &white), (&p.black_board, &black)] {
        let title = loc.message(MsgKey::UiLabelBoardOf, &[("side", name)]);
        if frame.top != norm(&title) {
            wrong.push(format!("board title {:?}, not {title:?}", frame.top));
        }
    }
    // The clock: title, and both lines whole, with the state words.
    let words = |k: MsgKey| loc.message(k, &[]);
    let clock_lines = format!(
        "{white} {{time}} {moves} {{n}} > {running} ({unpressed}) {black} {{time}} {moves} {{n}}",
        moves = words(MsgKey::UiLabelMoves),
        running = words(MsgKey::UiLabelRunning),
        unpressed = words(MsgKey::UiLabelUnpressed),
    );
    // The clock may still be on its way to the new state: watch it a
    // moment before calling it cut.
    let clock = match screen.until(SHORT, |g| {
        panels(g).is_some_and(|p| holds(&p.clock.text(), &clock_lines))
    }) {
        Ok(g) => panels(&g).map(|p| p.clock),
        Err(s) => panels(&Grid::parse(&s)).map(|p| p.clock),
    }
    .unwrap_or_else(|| p.clock.clone());
    if clock.top != norm(&words(MsgKey::UiLabelClock)) || !holds(&clock.text(), &clock_lines) {
        wrong.push(format!(
            "clock {:?}: {:?}, not {clock_lines:?}",
            clock.top, clock.rows
        ));
    }
    // The legend, whole, on the message box's edges (in reading order,
    // with a row between them inside the box where two do not hold it).
    let want = norm(&legend(&loc));
    let edges = |k: usize| {
        norm(&format!(
            "{} {} {}",
            p.messages.top,
            p.messages.rows[..k].join(" "),
            p.messages.bottom
        ))
    };
    if !(0..2).any(|k| edges(k) == want) {
        wrong.push(format!("legend {:?}, not {want:?}", edges(0)));
    }
    // The scoresheets: each title names its side whole (with the word
    // for scoresheet where it fits), and they differ.
    let sheet = words(MsgKey::UiLabelSheet);
    for (frame, name) in p.sheets.iter().zip([&white, &black]) {
        let full = norm(&format!("{sheet} {name}"));
        if frame.top != full && frame.top != norm(name) {
            wrong.push(format!("scoresheet title {:?} for {name}", frame.top));
        }
    }
    if p.sheets[0].top == p.sheets[1].top {
        wrong.push(format!("both scoresheets are titled {:?}", p.sheets[0].top));
    }
    // The newest message is whole (waited for above), and the input line:
    // its title whole, what is typed shown.
    let typed = format!("{} e2", word(&loc, MsgKey::UiCmdWhat));
    screen.s.type_text(&typed);
    let input = words(MsgKey::UiLabelInput);
    let shown = format!("> {typed}");
    match screen.until(SHORT, |g| {
        panels(g).is_some_and(|p| p.input.rows.first() == Some(&shown))
    }) {
        Ok(g) => {
            let p = panels(&g).unwrap();
            if !p.input.top.starts_with(&norm(&input)) {
                wrong.push(format!("input title {:?}, not {input:?}", p.input.top));
            }
        }
        Err(s) => wrong.push(format!("the input line never read {shown:?}:\n{s}")),
    }
    screen.s.key("C-u");
    // Every rank of both boards: the rank number, eight squares, a free
    // column, the rank number again (Black's `'` mark once took that
    // column on the Arabic board).
    let g = Grid::parse(&screen.s.screen());
    for f in [&p.white_board, &p.black_board] {
        for y in f.y + 2..f.y + 10 {
            let row: Vec<&str> = (f.x + 1..f.x + f.w - 1).map(|x| g.cell(x, y)).collect();
            let last = row.iter().rposition(|c| !c.trim().is_empty()).unwrap_or(0);
            let ok = last >= 1 && row[last] == row[0] && row[last - 1] == " ";
            if !ok {
                wrong.push(format!("board row {:?}", row.concat()));
            }
        }
    }
    screen.quit(&loc);
    assert!(
        wrong.is_empty(),
        "{code} at 80x24:\n{}\nscreen:\n{}",
        wrong.join("\n"),
        screen.s.screen()
    );
}

#[test]
fn fide_reads_in_full_at_80x24() {
    reads_in_full("fide");
}

#[test]
fn en_reads_in_full_at_80x24() {
    reads_in_full("en");
}

#[test]
fn ko_reads_in_full_at_80x24() {
    reads_in_full("ko");
}

#[test]
fn ar_reads_in_full_at_80x24() {
    reads_in_full("ar");
}

/// Nothing said is lost at 80×24: before the first move the welcome (the
/// mode, the time control, whose move) is whole on the screen; after a
/// query and the help, PgUp goes back through the query's answer, the
/// welcome and the journal notice (each whole at some point, a notice
/// that newer lines are below), and PgDn comes back to the newest.
fn nothing_said_is_lost(code: &str) {
    if !tmux_available() {
        return;
    }
    let loc = loc(code);
    let white = side(&loc, true);
    let screen = Screen::play("scroll", code, "board");
    let welcome = loc.message(
        MsgKey::UiWelcome,
        &[
            ("mode", &loc.message(MsgKey::UiModeBoard, &[])),
            ("control", "90m/40+30m+30s"),
            ("side", &white),
            ("example", "{example}"),
            ("help", &word(&loc, MsgKey::UiCmdHelp)),
        ],
    );
    let in_messages =
        |g: &Grid, template: &str| panels(g).is_some_and(|p| holds(&p.messages.text(), template));
    if let Err(s) = screen.until(SHORT, |g| in_messages(g, &welcome)) {
        panic!("{code}: the welcome is not whole before the first move:\n{s}");
    }
    // A query, then the help, which fills the box.
    screen.s.keys(&word(&loc, MsgKey::UiCmdTime));
    let time = loc.message(MsgKey::ClockTime, &[("side", &white), ("time", "{time}")]);
    if let Err(s) = screen.until(SETTLE, |g| in_messages(g, &time)) {
        panic!("{code}: no answer to the time query:\n{s}");
    }
    screen.s.keys(&word(&loc, MsgKey::UiCmdHelp));
    let keys_help = loc.message(MsgKey::UiHelpKeys, &[]);
    let last_words: String = {
        let w: Vec<&str> = keys_help.split_whitespace().collect();
        w[w.len().saturating_sub(3)..].join(" ")
    };
    if let Err(s) = screen.until(SETTLE, |g| {
        panels(g).is_some_and(|p| p.messages.text().ends_with(&last_words))
    }) {
        panic!("{code}: the help is not shown:\n{s}");
    }
    // Back, a page at a time, to the journal notice, the first line said.
    let notice = loc.message(
        MsgKey::UiJournalCreated,
        &[("file", &journal_path(&screen.journal))],
    );
    let newer = norm(&loc.message(MsgKey::UiLabelScrollNewer, &[]));
    let messages = |g: &Grid| panels(g).map(|p| p.messages.text()).unwrap_or_default();
    let mut shown = messages(&Grid::parse(&screen.s.screen()));
    // The page after `shown`, once drawn whole: the box differs from
    // `shown` and reads the same twice in a row (a frame caught while it
    // is being written would show a page half old, half new). `None` when
    // nothing changes before the deadline.
    let new_page = |shown: &str| {
        let mut g = screen.until(SETTLE, |g| messages(g) != shown).ok()?;
        let deadline = std::time::Instant::now() + SETTLE;
        loop {
            std::thread::sleep(Duration::from_millis(50));
            let again = Grid::parse(&screen.s.screen());
            if messages(&again) == messages(&g) || std::time::Instant::now() > deadline {
                return Some(again);
            }
            g = again;
        }
    };
    let (mut time_seen, mut welcome_seen, mut notice_seen, mut newer_seen) =
        (false, false, false, false);
    for _ in 0..12 {
        screen.s.key("PageUp");
        // Each page up shows older lines: wait until they are drawn.
        let Some(g) = new_page(&shown) else {
            break;
        };
        shown = messages(&g);
        time_seen |= holds(&shown, &time);
        welcome_seen |= holds(&shown, &welcome);
        notice_seen |= holds(&shown, &notice);
        newer_seen |= screen_text(&g).contains(&newer);
        if notice_seen {
            break;
        }
    }
    assert!(
        time_seen && welcome_seen && notice_seen,
        "{code}: PgUp did not bring back everything said (time answer {time_seen}, \
         welcome {welcome_seen}, journal notice {notice_seen}):\n{}",
        screen.s.screen()
    );
    assert!(
        newer_seen,
        "{code}: scrolled back, nothing says newer lines are below ({newer:?}):\n{}",
        screen.s.screen()
    );
    // Forward again to the newest: the help's end, no notice of newer
    // lines.
    let at_end = |g: &Grid| messages(g).ends_with(&last_words) && !screen_text(g).contains(&newer);
    let mut back = false;
    for _ in 0..12 {
        screen.s.key("PageDown");
        // Each page down shows newer lines: wait until they are drawn
        // (at the newest, nothing changes and the loop ends).
        let Some(g) = new_page(&shown) else {
            break;
        };
        shown = messages(&g);
        if at_end(&g) {
            back = true;
            break;
        }
    }
    assert!(
        back,
        "{code}: PgDn did not come back:\n{}",
        screen.s.screen()
    );
    screen.quit(&loc);
}

#[test]
fn fide_nothing_said_is_lost_at_80x24() {
    nothing_said_is_lost("fide");
}

#[test]
fn en_nothing_said_is_lost_at_80x24() {
    nothing_said_is_lost("en");
}

#[test]
fn ko_nothing_said_is_lost_at_80x24() {
    nothing_said_is_lost("ko");
}

#[test]
fn ar_nothing_said_is_lost_at_80x24() {
    nothing_said_is_lost("ar");
}

/// Both scoresheets keep the check sign (`2. Dh5+`, in the locale's
/// letters), at 80×24.
fn sheets_keep_the_check_sign(code: &str) {
    if !tmux_available() {
        return;
    }
    let loc = loc(code);
    let screen = Screen::play("check", code, "assistant");
    let press = word(&loc, MsgKey::UiCmdPress);
    for l in ["e4", &press, "f5", &press, "Qh5", &press] {
        screen.s.keys(l);
    }
    // In the locale's notation (the core's display_san, tested with
    // literal values there): the check sign kept.
    let san = |s: &str| loc.display_san(s);
    let first = format!("1. {} {}", san("e4"), san("f5"));
    let check = format!("2. {}", san("Qh5+"));
    assert!(check.ends_with('+'), "{check}");
    match screen.until(SETTLE, |g| {
        panels(g).is_some_and(|p| {
            p.sheets
                .iter()
                .all(|s| holds(&s.text(), &first) && holds(&s.text(), &check))
        })
    }) {
        Ok(_) => {}
        Err(s) => panic!("{code}: both scoresheets should read {first:?} and {check:?}:\n{s}"),
    }
    screen.quit(&loc);
}

#[test]
fn fide_scoresheets_keep_the_check_sign_at_80x24() {
    sheets_keep_the_check_sign("fide");
}

#[test]
fn en_scoresheets_keep_the_check_sign_at_80x24() {
    sheets_keep_the_check_sign("en");
}

#[test]
fn ko_scoresheets_keep_the_check_sign_at_80x24() {
    sheets_keep_the_check_sign("ko");
}

#[test]
fn ar_scoresheets_keep_the_check_sign_at_80x24() {
    sheets_keep_the_check_sign("ar");
}

/// The review at 80×24: its move list in the locale's letters (as the
/// play screen's scoresheets), with the check sign, and a legend for its
/// board, whole.
fn review_in_the_locales_letters(code: &str) {
    if !tmux_available() {
        return;
    }
    let loc = loc(code);
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    std::fs::write(
        &pgn,
        "[Event \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 f5 2. Qh5+ g6 3. Nf3 *\n",
    )
    .unwrap();
    let screen = Screen::start("review", code, |_| {
        format!(
            "review -l {code} --silent --engine /nonexistent {}",
            pgn.display()
        )
    });
    let moves_title = loc.message(MsgKey::ReviewLabelMoves, &[]);
    if let Err(s) = screen.until(SETTLE, |g| g.frame(&moves_title).is_some()) {
        panic!("{code}: no move list titled {moves_title:?}:\n{s}");
    }
    screen.s.key("End");
    let san = |s: &str| loc.display_san(s);
    let check = format!("2. {} {}", san("Qh5+"), san("g6"));
    let last = format!(">3. {}", san("Nf3"));
    let list = screen.until(SETTLE, |g| {
        g.frame(&moves_title)
            .is_some_and(|f| holds(&f.text(), &check) && holds(&f.text(), &last))
    });
    let want = norm(&legend(&loc));
    let legend_shown = |g: &Grid| {
        g.frames().iter().any(|f| {
            (0..2.min(f.rows.len()))
                .any(|k| norm(&format!("{} {} {}", f.top, f.rows[..k].join(" "), f.bottom)) == want)
                || f.top == want
        })
    };
    let grid = Grid::parse(&screen.s.screen());
    let has_legend = legend_shown(&grid);
    screen.s.key("Escape");
    screen.s.wait_for("EXITED");
    if let Err(s) = list {
        panic!("{code}: the move list should read {check:?} and {last:?}:\n{s}");
    }
    assert!(
        has_legend,
        "{code}: the review board has no whole legend ({want:?}):\n{}",
        screen_text(&grid)
    );
}

#[test]
fn fide_review_in_the_locales_letters_with_a_legend_at_80x24() {
    review_in_the_locales_letters("fide");
}

#[test]
fn en_review_in_the_locales_letters_with_a_legend_at_80x24() {
    review_in_the_locales_letters("en");
}

#[test]
fn ko_review_in_the_locales_letters_with_a_legend_at_80x24() {
    review_in_the_locales_letters("ko");
}

#[test]
fn ar_review_in_the_locales_letters_with_a_legend_at_80x24() {
    review_in_the_locales_letters("ar");
}
