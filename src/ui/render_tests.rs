use super::*;
use crate::locale::MsgKey;
use crate::ui::app::{Msg, Page, Settings};
use crate::vocab::Vocabulary;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color as Tint, Modifier};
use std::time::Duration;

fn app(code: &str) -> App {
    app_with(code, Settings::default())
}

fn app_with(code: &str, settings: Settings) -> App {
    App::new(Vocabulary::builtin(code).unwrap(), settings, Duration::ZERO).0
}

fn screen(app: &App, w: u16, h: u16, kind: ThemeKind) -> Buffer {
    let mut term = ratatui::Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| draw(f, app, &Theme::of(kind))).unwrap();
    term.backend().buffer().clone()
}

/// Row `y` of the buffer as text, from column `x`, `n` cells.
fn row(buf: &Buffer, x: u16, y: u16, n: u16) -> String {
    (x..x + n)
        .map(|i| buf[(i, y)].symbol().to_string())
        .collect()
}

#[test]
fn fide_boards_from_each_owners_side() {
    let a = app("fide");
    let buf = screen(&a, 100, 30, ThemeKind::Default);
    // fide speaks German: the titles are the German locale's.
    let de = crate::locale::builtin("de").unwrap();
    let title = |side: MsgKey| {
        let side = de.message(side, &[]);
        format!(
            "┌{}",
            de.message(MsgKey::UiLabelBoardOf, &[("side", &side)])
        )
    };
    let width = |t: &str| t.chars().count() as u16;
    let (white, black) = (title(MsgKey::SideWhite), title(MsgKey::SideBlack));
    // White's board: block at column 0, inner text from column 1, row 1.
    assert_eq!(row(&buf, 0, 0, width(&white)), white);
    assert_eq!(row(&buf, 1, 1, 17), "  A B C D E F G H");
    assert_eq!(row(&buf, 1, 2, 19), "8 t s l d k l s t 8");
    assert_eq!(row(&buf, 1, 3, 19), "7 b b b b b b b b 7");
    assert_eq!(row(&buf, 1, 5, 19), "5 . . . . . . . . 5");
    assert_eq!(row(&buf, 1, 9, 19), "1 T S L D K L S T 1");
    assert_eq!(row(&buf, 1, 10, 17), "  A B C D E F G H");
    // Black's board next to it, seen from Black's side: rank 1 on top,
    // files from H to A.
    assert_eq!(row(&buf, 22, 0, width(&black)), black);
    assert_eq!(row(&buf, 23, 1, 17), "  H G F E D C B A");
    assert_eq!(row(&buf, 23, 2, 19), "1 T S L K D L S T 1");
    assert_eq!(row(&buf, 23, 9, 19), "8 t s l k d l s t 8");
}

#[test]
fn clocks_sheets_messages_and_input() {
    let mut a = app("en");
    a.update(Msg::Line("e4".into()), Duration::ZERO);
    a.update(Msg::Line("press".into()), Duration::ZERO);
    // Black makes White's move on his board, then his own.
    a.update(Msg::Line("e4".into()), Duration::ZERO);
    a.update(Msg::Line("Nf6".into()), Duration::ZERO);
    a.input = "what e4".into();
    let buf = screen(&a, 100, 30, ThemeKind::Default);
    // Clock block right of the boards (column 44).
    assert_eq!(row(&buf, 44, 0, 6), "┌Clock");
    // White: 90 minutes + 30 s increment after the move; Black's clock
    // runs and the move is not yet pressed.
    assert_eq!(row(&buf, 45, 1, 26), "White   1:30:30  moves 1  ");
    assert_eq!(
        row(&buf, 45, 2, 49),
        "Black   1:30:00  moves 0  > running (not pressed)"
    );
    // Scoresheets: both have the completed move (Nf6 is not pressed yet).
    assert_eq!(row(&buf, 45, 5, 10), "1. e4     ");
    assert_eq!(row(&buf, 73, 5, 10), "1. e4     ");
    // The newest message on the last row of the message box.
    assert_eq!(row(&buf, 1, 25, 20), "1. Black: Knight f6 ");
    // The input line at the bottom, with the typed text.
    assert_eq!(row(&buf, 1, 28, 10), "> what e4 ");
    // Every row fits: the bottom border is drawn.
    assert_eq!(row(&buf, 0, 29, 1), "└");
}

#[test]
fn white_pieces_upper_case_black_lower_case_not_colour() {
    let a = app("en");
    let buf = screen(&a, 80, 24, ThemeKind::Monochrome);
    assert_eq!(row(&buf, 1, 2, 19), "8 r n b q k b n r 8");
    assert_eq!(row(&buf, 1, 9, 19), "1 R N B Q K B N R 1");
    // Monochrome: no cell has a colour.
    for y in 0..24 {
        for x in 0..80 {
            let c = &buf[(x, y)];
            assert_eq!(c.fg, Tint::Reset, "fg at {x},{y}");
            assert_eq!(c.bg, Tint::Reset, "bg at {x},{y}");
        }
    }
}

#[test]
fn last_move_squares_are_marked_by_emphasis_too() {
    let mut a = app("en");
    a.update(Msg::Line("e4".into()), Duration::ZERO);
    let buf = screen(&a, 80, 24, ThemeKind::Monochrome);
    // e4 on White's board: rank 4 is row 6, file e is column 1 + 2 + 2*4.
    let e4 = &buf[(11, 6)];
    assert_eq!(e4.symbol(), "P");
    assert!(e4.modifier.contains(Modifier::REVERSED));
    let d4 = &buf[(9, 6)];
    assert!(!d4.modifier.contains(Modifier::REVERSED));
}

#[test]
fn compact_layout_shows_the_board_of_the_player_to_move() {
    let mut a = app("en");
    let buf = screen(&a, 60, 20, ThemeKind::Default);
    assert_eq!(row(&buf, 0, 0, 14), "┌White's board");
    a.update(Msg::Line("e4".into()), Duration::ZERO);
    a.update(Msg::Line("press".into()), Duration::ZERO);
    let buf = screen(&a, 60, 20, ThemeKind::Default);
    assert_eq!(row(&buf, 0, 0, 14), "┌Black's board");
    // Narrow: board above the clock lines.
    let buf = screen(&a, 30, 20, ThemeKind::Default);
    assert_eq!(row(&buf, 0, 0, 14), "┌Black's board");
    assert_eq!(row(&buf, 0, 12, 5), "White");
}

#[test]
fn too_small_window_says_so_and_keeps_the_input() {
    let mut a = app("en");
    a.input = "e4".into();
    let buf = screen(&a, 30, 6, ThemeKind::Default);
    assert_eq!(row(&buf, 0, 0, 30), "The window is too small: make ");
    assert_eq!(row(&buf, 0, 5, 4), "> e4");
}

#[test]
fn arabic_pieces_without_case_get_a_marker_and_the_legend_says_so() {
    let a = app("ar");
    let lines = board_lines(&a, Color::White);
    // Black's pieces carry the ' marker; White's do not.
    assert!(lines[1].contains('\''), "{}", lines[1]);
    assert!(!lines[8].contains('\''), "{}", lines[8]);
    let ar = crate::locale::builtin("ar").unwrap();
    let marked = ar.message(MsgKey::UiLabelLegendMarked, &[("files", "")]);
    let head: String = marked.chars().take(10).collect();
    assert!(legend_text(&a).starts_with(&head), "{}", legend_text(&a));
}

/// Every piece on every locale's board is told apart from every other by
/// its two columns, and the board is 8 squares wide in columns, not in
/// characters: Hebrew pawns and bishops (רגלי, רץ), Greek pawns and rooks
/// (πιόνι, πύργος) once shared a letter, and Korean letters, two columns
/// wide each, pushed the g and h files off the board.
#[test]
fn every_locale_shows_twelve_distinct_pieces_on_a_board_of_eight_squares() {
    use unicode_width::UnicodeWidthStr;
    for code in crate::locale::builtin_codes() {
        let a = app(code);
        let loc = a.vocab().locale();
        let mut glyphs = Vec::new();
        for color in [Color::White, Color::Black] {
            for role in shakmaty::Role::ALL {
                let g = loc.board_glyph(shakmaty::Piece { color, role });
                assert_eq!(g.width(), 2, "{code}: {g:?}");
                assert!(!glyphs.contains(&g), "{code}: {g:?} twice in {glyphs:?}");
                glyphs.push(g);
            }
        }
        let lines = board_lines(&a, Color::White);
        let widths: Vec<usize> = lines[1..9].iter().map(|l| l.width()).collect();
        // A rank number, eight squares of two columns, a rank number (and
        // a free column before it where Black's `'` mark fills a square).
        let spacer = usize::from(!loc.board_has_case());
        assert!(
            widths.iter().all(|w| *w == 2 + 16 + spacer + 1),
            "{code}: {lines:#?}"
        );
        // Letters that are not the locale's own are named in the legend.
        if loc.board_letters() != crate::locale::builtin("en").unwrap().board_letters() {
            continue;
        }
        let legend = legend_text(&a);
        if code != "en" {
            let queen = &loc.piece(shakmaty::Role::Queen).display;
            assert!(legend.contains(&format!("Q={queen}")), "{code}: {legend}");
        }
    }
}

/// Lines are measured in terminal columns: a Korean message (Hangul
/// letters take two columns each) once ran past the message box, whose
/// border cut it, so words were lost from the screen ("...뒤에는 annabel"
/// and the next line began "/tmp/...": "la --journal" never shown).
#[test]
fn wrap_counts_columns_and_loses_no_word() {
    use unicode_width::UnicodeWidthStr;
    let ko = crate::locale::builtin("ko").unwrap();
    let text = ko.message(MsgKey::UiJournalCreated, &[("file", "/tmp/hs/g.jsonl")]);
    for width in [7, 20, 40, 98] {
        let lines = wrap(&text, width);
        for l in &lines {
            assert!(
                l.width() <= width,
                "{width}: {l:?} is {} columns",
                l.width()
            );
        }
        let back: String = lines.concat().chars().filter(|c| *c != ' ').collect();
        let want: String = text.chars().filter(|c| *c != ' ').collect();
        assert_eq!(back, want, "{width}: {lines:#?}");
    }
    // A word wider than the line is cut between letters, never inside one.
    assert_eq!(wrap("가나다라", 5), ["가나", "다라"]);
}

#[test]
fn wrap_splits_at_spaces() {
    assert_eq!(wrap("aaa bbb ccc", 7), ["aaa bbb", "ccc"]);
    assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
    assert_eq!(wrap("", 4), [""]);
}

#[test]
fn legend_explains_letters_and_file_words() {
    let a = app("fide");
    let buf = screen(&a, 100, 30, ThemeKind::Default);
    // fide speaks German: the legend is the German locale's sentence with
    // the Appendix D file words.
    let de = crate::locale::builtin("de").unwrap();
    let files = "A=Anna B=Bella C=Cesar D=David E=Eva F=Felix G=Gustav H=Hector";
    let want = de.message(MsgKey::UiLabelLegend, &[("files", files)]);
    assert_eq!(legend_text(&a), want);
    // On the top border of the message box (row 12), as far as it fits.
    let start: String = want.chars().take(46).collect();
    assert_eq!(row(&buf, 1, 12, 46), start);
}

// ---- every panel at 80x24, the size of a standard terminal ----

/// The text of row `y` from column `x0` to `x1`, cell by cell: a letter
/// two columns wide is read once.
fn text_of(buf: &Buffer, y: u16, x0: u16, x1: u16) -> String {
    use unicode_width::UnicodeWidthStr;
    let mut out = String::new();
    let mut x = x0;
    while x < x1 {
        let sym = buf[(x, y)].symbol();
        out.push_str(sym);
        x += sym.width().max(1) as u16;
    }
    out
}

/// A framed box whose top left corner is at (`x`, `y`): what its top
/// edge reads, its rows inside, what its bottom edge reads (line drawing
/// removed, spaces collapsed).
fn framed(buf: &Buffer, x: u16, y: u16) -> (String, Vec<String>, String) {
    assert_eq!(buf[(x, y)].symbol(), "┌", "no box at {x},{y}");
    let x2 = (x + 1..buf.area.width)
        .find(|i| buf[(*i, y)].symbol() == "┐")
        .expect("the top right corner");
    let y2 = (y + 1..buf.area.height)
        .find(|j| buf[(x, *j)].symbol() == "└")
        .expect("the bottom left corner");
    let edge = |row: u16| norm(&text_of(buf, row, x + 1, x2).replace('─', " "));
    let rows = (y + 1..y2)
        .map(|j| text_of(buf, j, x + 1, x2).trim_end().to_owned())
        .collect();
    (edge(y), rows, edge(y2))
}

/// A Unicode direction mark, embedding or isolate (no width, no cell).
fn is_direction_mark(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One assistant enters both sides' moves.
fn assistant(code: &str) -> App {
    let settings = Settings {
        mode: crate::ui::app::Mode::Assistant,
        ..Settings::default()
    };
    App::new(Vocabulary::builtin(code).unwrap(), settings, Duration::ZERO).0
}

fn play(a: &mut App, lines: &[&str]) {
    for l in lines {
        a.update(Msg::Line((*l).to_owned()), Duration::ZERO);
    }
}

/// The clock at 80 columns: both lines whole, with "running" and "not
/// pressed" (they once needed 49 columns of the 34 there are, and read
/// `> running (`).
#[test]
fn at_80x24_the_clock_reads_whole() {
    let mut a = app("en");
    play(&mut a, &["e4"]);
    let buf = screen(&a, 80, 24, ThemeKind::Default);
    let (title, rows, _) = framed(&buf, 44, 0);
    assert_eq!(title, "Clock");
    assert_eq!(
        norm(&rows.join(" ")),
        "White 1:30:00 moves 0 > running (not pressed) Black 1:30:00 moves 0",
        "{rows:#?}"
    );
    // Every row inside its box.
    assert!(rows.iter().all(|r| r.chars().count() <= 34), "{rows:#?}");
    for code in crate::locale::builtin_codes() {
        let mut a = app(code);
        play(&mut a, &["e4"]);
        let loc = a.vocab().locale().clone();
        let buf = screen(&a, 80, 24, ThemeKind::Default);
        let (title, rows, _) = framed(&buf, 44, 0);
        assert_eq!(
            title,
            norm(&loc.message(MsgKey::UiLabelClock, &[])),
            "{code}"
        );
        let text = norm(&rows.join(" "));
        let state = format!(
            "> {} ({})",
            loc.message(MsgKey::UiLabelRunning, &[]),
            loc.message(MsgKey::UiLabelUnpressed, &[])
        );
        assert!(text.contains(&norm(&state)), "{code}: {rows:#?}");
        let black = loc.message(MsgKey::SideBlack, &[]);
        assert!(
            text.ends_with(&format!(
                "{black} 1:30:00 {} 0",
                loc.message(MsgKey::UiLabelMoves, &[])
            )),
            "{code}: {rows:#?}"
        );
    }
}

/// The clock reads whole at every width from 80 to 100 columns, in every
/// locale: a row that needs one or two columns more than its box has
/// (the box's border counted in, say) shows at some width here, where
/// at 80 columns alone it might happen to fit.
#[test]
fn the_clock_reads_whole_column_by_column_from_80_to_100() {
    for code in crate::locale::builtin_codes() {
        let mut a = app(code);
        play(&mut a, &["e4"]);
        let loc = a.vocab().locale().clone();
        let moves = loc.message(MsgKey::UiLabelMoves, &[]);
        let want = norm(&format!(
            "{} 1:30:00 {moves} 0 > {} ({}) {} 1:30:00 {moves} 0",
            loc.message(MsgKey::SideWhite, &[]),
            loc.message(MsgKey::UiLabelRunning, &[]),
            loc.message(MsgKey::UiLabelUnpressed, &[]),
            loc.message(MsgKey::SideBlack, &[]),
        ));
        for w in 80..=100u16 {
            let buf = screen(&a, w, 24, ThemeKind::Default);
            // The clock is the third box along the top.
            let x = (0..w)
                .filter(|x| buf[(*x, 0)].symbol() == "┌")
                .nth(2)
                .unwrap_or_else(|| panic!("{code} at {w}: no clock box"));
            let (_, rows, _) = framed(&buf, x, 0);
            assert_eq!(
                norm(&rows.join(" ")),
                want,
                "{code} at {w} columns: {rows:#?}"
            );
        }
    }
}

/// The legend at 80 columns, whole in every locale: on the message box's
/// top edge and, what does not fit there, its bottom edge (it once
/// stopped at `C=Cesar`, in Korean at `세로줄 A=a B`).
#[test]
fn at_80x24_the_legend_reads_whole_in_every_locale() {
    for code in crate::locale::builtin_codes() {
        let a = app(code);
        let want = legend_text(&a);
        // Two rows in most locales; Greek needs three (the third inside
        // the box, between the two edges, in reading order).
        let rows = legend_rows(&want, 78);
        assert!(rows.len() <= 3, "{code}: {want}");
        let buf = screen(&a, 80, 24, ThemeKind::Default);
        let (top, inside, bottom) = framed(&buf, 0, 12);
        let between = inside[..rows.len() - 2].join(" ");
        assert_eq!(
            norm(&format!("{top} {between} {bottom}")),
            norm(&want),
            "{code}"
        );
    }
    // Whole sentences kept together; a sentence wider than a row is
    // wrapped at spaces, nothing lost.
    assert_eq!(
        legend_rows("Aa bb. Cc dd. Ee ff gg hh.", 13),
        ["Aa bb. Cc dd.", "Ee ff gg hh."]
    );
    assert_eq!(legend_rows("Aa bb cc dd ee.", 6), ["Aa bb", "cc dd", "ee."]);
}

/// Board titles whole at 80 columns (Arabic: each letter of a lam-alef
/// pair has its column; the titles once read `رقعة الأبي`), and where
/// Black's letters carry the `'` mark, a free column before the closing
/// rank number.
#[test]
fn at_80x24_board_titles_are_whole_and_marks_leave_the_rank_column_free() {
    for code in crate::locale::builtin_codes() {
        let a = app(code);
        let loc = a.vocab().locale().clone();
        let buf = screen(&a, 80, 24, ThemeKind::Default);
        for (x, side) in [(0, MsgKey::SideWhite), (22, MsgKey::SideBlack)] {
            let (title, rows, _) = framed(&buf, x, 0);
            let side = loc.message(side, &[]);
            assert_eq!(
                title,
                norm(&loc.message(MsgKey::UiLabelBoardOf, &[("side", &side)])),
                "{code}"
            );
            for r in &rows[1..9] {
                let cells: Vec<char> = r.trim_end().chars().collect();
                let n = cells.len();
                assert!(
                    n >= 3 && cells[n - 1] == cells[0] && cells[n - 2] == ' ',
                    "{code}: {r:?}"
                );
            }
        }
    }
}

/// The scoresheets at 80 columns: titled so they are told apart in every
/// locale (in Arabic both once read `ورقة التسجيل الأ`), and with the
/// check sign in the locale's letters (`2. Dh5+`, once `2. Dh5`).
#[test]
fn at_80x24_scoresheets_are_told_apart_and_keep_the_check_sign() {
    for code in crate::locale::builtin_codes() {
        let mut a = assistant(code);
        let loc = a.vocab().locale().clone();
        let press = loc.message(MsgKey::UiCmdPress, &[]);
        let press = press.split('|').next().unwrap();
        play(&mut a, &["e4", press, "f5", press, "Qh5", press]);
        let buf = screen(&a, 80, 24, ThemeKind::Default);
        let (_, clock, _) = framed(&buf, 44, 0);
        let y = 1 + clock.len() as u16 + 1;
        let mut titles = Vec::new();
        for (x, side) in [(44, MsgKey::SideWhite), (62, MsgKey::SideBlack)] {
            let (title, rows, _) = framed(&buf, x, y);
            let side = loc.message(side, &[]);
            let full = norm(&format!(
                "{} {side}",
                loc.message(MsgKey::UiLabelSheet, &[])
            ));
            assert!(title == full || title == norm(&side), "{code}: {title:?}");
            // The locale's notation (the core's display_san, tested with
            // literal values there), the check sign kept.
            let san = |s: &str| loc.display_san(s);
            assert_eq!(
                rows[0].trim_end(),
                format!("1. {} {}", san("e4"), san("f5")),
                "{code}"
            );
            assert_eq!(rows[1].trim_end(), format!("2. {}", san("Qh5+")), "{code}");
            assert!(rows[1].trim_end().ends_with('+'), "{code}: {}", rows[1]);
            titles.push(title);
        }
        assert_ne!(titles[0], titles[1], "{code}");
    }
}

/// A scoresheet line wider than its column goes on under its number,
/// every entry kept.
#[test]
fn a_long_scoresheet_line_goes_on_under_its_number() {
    let mut a = assistant("fide");
    play(
        &mut a,
        &[
            "e4", "remis", "ja", "drücken", "f5", "drücken", "Dh5", "drücken",
        ],
    );
    let lines = sheet_lines(&a, Color::White);
    assert_eq!(lines, ["1. e4 (=) f5", "2. Dh5+"]);
    let rows = sheet_rows(&a, Color::White, 9);
    assert_eq!(rows, ["1. e4 (=)", "   f5", "2. Dh5+"]);
    assert_eq!(sheet_rows(&a, Color::White, 16), lines);
}

/// The message box at 80x24: before the first move the welcome (the
/// mode, the time control, whose move) is whole though the journal
/// notice came with it; PgUp goes back through everything said, saying
/// newer lines are below, PgDn comes back, and a typed line brings the
/// box back to its answer.
#[test]
fn at_80x24_the_welcome_stays_whole_and_paging_brings_back_everything() {
    for code in ["fide", "ko", "ar", "en"] {
        let mut a = app_with(code, Settings::default());
        let loc = a.vocab().locale().clone();
        let file = crate::vocab::Utterance::plain(
            "/home/someone/.local/share/annabella/games/20260101-120000.jsonl",
        );
        let notice = a
            .vocab()
            .message(MsgKey::UiJournalCreated, &[("file", &file)]);
        let welcome = a.log[0].display.clone();
        a.set_up([notice.clone()], Duration::ZERO);
        assert_eq!(a.log[0], notice, "{code}: said first, shown first");
        let messages = |a: &App| {
            let buf = screen(a, 80, 24, ThemeKind::Default);
            let (_, rows, _) = framed(&buf, 0, 12);
            let (input, _, _) = framed(&buf, 0, 21);
            (norm(&rows.join(" ")), input)
        };
        let (shown, _) = messages(&a);
        assert!(shown.ends_with(&norm(&welcome)), "{code}: {shown}");
        // A query and the help push both out of view.
        let time = loc.message(MsgKey::UiCmdTime, &[]);
        let help = loc.message(MsgKey::UiCmdHelp, &[]);
        play(
            &mut a,
            &[
                time.split('|').next().unwrap(),
                help.split('|').next().unwrap(),
            ],
        );
        let newest = a.log.last().unwrap().display.clone();
        let (shown, input) = messages(&a);
        assert!(!shown.contains(&norm(&notice.display)), "{code}");
        assert!(
            input.ends_with(&norm(&loc.message(MsgKey::UiLabelScrollOlder, &[]))),
            "{code}: {input}"
        );
        // Back a page at a time: every row of everything said comes into
        // view.
        let buf = screen(&a, 80, 24, ThemeKind::Default);
        let mut seen: Vec<String> = framed(&buf, 0, 12).1;
        for _ in 0..20 {
            a.page_messages(Page::Older);
            let buf = screen(&a, 80, 24, ThemeKind::Default);
            let (_, rows, _) = framed(&buf, 0, 12);
            let (input, _, _) = framed(&buf, 0, 21);
            seen.extend(rows.iter().map(|r| r.trim_end().to_owned()));
            assert!(
                input.ends_with(&norm(&loc.message(MsgKey::UiLabelScrollNewer, &[]))),
                "{code}: {input}"
            );
        }
        for u in &a.log {
            for l in wrap(&u.display, 78) {
                // Direction marks and isolates take no cell: a terminal
                // cell never holds them.
                let l: String = l.chars().filter(|c| !is_direction_mark(*c)).collect();
                assert!(
                    seen.contains(&l.trim_end().to_owned()),
                    "{code}: {l:?} never shown"
                );
            }
        }
        // A line said meanwhile does not move the view.
        let (before, _) = messages(&a);
        a.update(
            Msg::Notice(crate::vocab::Utterance::plain("x")),
            Duration::ZERO,
        );
        assert_eq!(messages(&a).0, before, "{code}");
        a.page_messages(Page::Newer);
        assert_ne!(messages(&a).0, before, "{code}");
        // Typing brings the box back to the newest line.
        play(&mut a, &[help.split('|').next().unwrap()]);
        let (shown, input) = messages(&a);
        // (Its end: the help is longer than the box.)
        let newest = norm(&newest);
        assert!(
            shown.ends_with(&newest) || newest.ends_with(&shown),
            "{code}: {shown:?} {newest:?}"
        );
        assert!(
            !input.contains(&norm(&loc.message(MsgKey::UiLabelScrollNewer, &[]))),
            "{code}"
        );
    }
}

/// The input line at 80x24: its title whole, what is typed shown; a line
/// longer than the box shows its end.
#[test]
fn at_80x24_the_input_line_reads_whole() {
    for code in crate::locale::builtin_codes() {
        let mut a = app(code);
        let loc = a.vocab().locale().clone();
        a.input = "wo e2".into();
        let buf = screen(&a, 80, 24, ThemeKind::Default);
        let (title, rows, _) = framed(&buf, 0, 21);
        assert!(
            title.starts_with(&norm(&loc.message(MsgKey::UiLabelInput, &[]))),
            "{code}: {title}"
        );
        assert_eq!(rows[0], "> wo e2");
        a.input = format!("{}end", "x".repeat(100));
        let buf = screen(&a, 80, 24, ThemeKind::Default);
        let (_, rows, _) = framed(&buf, 0, 21);
        assert!(
            rows[0].starts_with("> x") && rows[0].ends_with("xend"),
            "{rows:?}"
        );
    }
}
