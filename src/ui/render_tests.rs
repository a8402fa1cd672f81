use super::*;
use crate::ui::app::{Msg, Settings};
use crate::vocab::Vocabulary;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color as Tint, Modifier};
use std::time::Duration;

fn app(code: &str) -> App {
    App::new(
        Vocabulary::builtin(code).unwrap(),
        Settings::default(),
        Duration::ZERO,
    )
    .0
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
    let title = |side: &str| {
        let side = de.message(side, &[]);
        format!("┌{}", de.message("ui.label.board_of", &[("side", &side)]))
    };
    let width = |t: &str| t.chars().count() as u16;
    let (white, black) = (title("side.white"), title("side.black"));
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
    let marked = ar.message("ui.label.legend_marked", &[("files", "")]);
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
        // A rank number, eight squares of two columns, a rank number.
        assert!(
            widths.iter().all(|w| *w == 2 + 16 + 1),
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
    let text = ko.message("ui.journal_created", &[("file", "/tmp/hs/g.jsonl")]);
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
    let want = de.message("ui.label.legend", &[("files", files)]);
    assert_eq!(legend_text(&a), want);
    // On the top border of the message box (row 12), as far as it fits.
    let start: String = want.chars().take(46).collect();
    assert_eq!(row(&buf, 1, 12, 46), start);
}
