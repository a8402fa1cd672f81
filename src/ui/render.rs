//! Rendering of the play screen as pure widgets: from an [`App`] to a
//! ratatui buffer, nothing else. Colour never carries meaning alone: piece
//! colour is in the letter case (or a `'` marker where the script has no
//! case), the running clock is marked with a word, the last move is in the
//! message line.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use shakmaty::{Color, File, Position as _, Rank, Square};

use super::app::App;

pub use crate::theme::{Theme, ThemeKind, wrap};

/// Width and height of one board block.
pub const BOARD_W: u16 = 22;
/// Height of one board block.
pub const BOARD_H: u16 = 12;
/// Below this the full layout does not fit.
pub const FULL_MIN: (u16, u16) = (80, 24);
/// Below this not even one board fits.
pub const COMPACT_MIN: (u16, u16) = (BOARD_W, BOARD_H + 5);

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme) {
    let area = frame.area();
    frame.render_widget(Block::default().style(theme.text), area);
    if area.width >= FULL_MIN.0 && area.height >= FULL_MIN.1 {
        full(frame, app, theme, area);
    } else if area.width >= COMPACT_MIN.0 && area.height >= COMPACT_MIN.1 {
        compact(frame, app, theme, area);
    } else {
        tiny(frame, app, theme, area);
    }
}

fn full(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let [top, messages, input] = Layout::vertical([
        Constraint::Length(BOARD_H),
        Constraint::Min(3),
        Constraint::Length(3),
    ])
    .areas(area);
    let [wb, bb, right] = Layout::horizontal([
        Constraint::Length(BOARD_W),
        Constraint::Length(BOARD_W),
        Constraint::Min(20),
    ])
    .areas(top);
    board(frame, app, theme, wb, Color::White);
    board(frame, app, theme, bb, Color::Black);
    let [clock_area, sheets] =
        Layout::vertical([Constraint::Length(4), Constraint::Min(3)]).areas(right);
    clocks(frame, app, theme, clock_area);
    let [ws, bs] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(sheets);
    sheet(frame, app, theme, ws, Color::White);
    sheet(frame, app, theme, bs, Color::Black);
    message_log(frame, app, theme, messages, true);
    legend(frame, app, theme, messages);
    input_line(frame, app, theme, input);
}

/// The legend line: how colour is shown without colour, and the file
/// letters' words.
pub fn legend_text(app: &App) -> String {
    let loc = app.vocab().locale();
    if let Some(crate::mirror::Mismatch::Boards { ply, .. }) = app.mirror().mismatch() {
        let (_, number) = app.mirror().ply_number(*ply);
        return loc.message("ui.label.mismatch", &[("number", &number.to_string())]);
    }
    let files: Vec<String> = File::ALL
        .iter()
        .map(|f| format!("{}={}", file_label(app, *f), loc.file(*f).display))
        .collect();
    let key = if loc.board_has_case() {
        "ui.label.legend"
    } else {
        "ui.label.legend_marked"
    };
    let colours = loc.message(key, &[("files", &files.join(" "))]);
    // Letters that are not the locale's own (standard letters where its
    // own would repeat or not fit a board square) are named first.
    let letters = loc.board_letters();
    if loc.board_letters_are_own() {
        return colours;
    }
    let pieces: Vec<String> = [
        shakmaty::Role::King,
        shakmaty::Role::Queen,
        shakmaty::Role::Rook,
        shakmaty::Role::Bishop,
        shakmaty::Role::Knight,
        shakmaty::Role::Pawn,
    ]
    .iter()
    .map(|r| format!("{}={}", letters[usize::from(*r) - 1], loc.piece(*r).display))
    .collect();
    let named = loc.message("ui.label.legend_letters", &[("pieces", &pieces.join(" "))]);
    format!("{named} {colours}")
}

fn legend(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    if area.width < 4 {
        return;
    }
    let text = legend_text(app);
    // As much as fits, counted in columns (Hangul letters take two).
    let room = area.width as usize - 2;
    let mut used = 0;
    let text: String = text
        .chars()
        .take_while(|c| {
            used += unicode_width::UnicodeWidthChar::width(*c).unwrap_or(0);
            used <= room
        })
        .collect();
    let r = Rect {
        x: area.x + 1,
        y: area.y,
        width: unicode_width::UnicodeWidthStr::width(text.as_str()) as u16,
        height: 1,
    };
    frame.render_widget(Paragraph::new(Line::styled(text, theme.title)), r);
}

fn compact(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let owner = app.current().turn();
    if area.width >= BOARD_W + 20 {
        let [top, input] =
            Layout::vertical([Constraint::Min(BOARD_H), Constraint::Length(3)]).areas(area);
        let [b, right] =
            Layout::horizontal([Constraint::Length(BOARD_W), Constraint::Min(20)]).areas(top);
        board(frame, app, theme, b, owner);
        let [c, m] = Layout::vertical([Constraint::Length(4), Constraint::Min(1)]).areas(right);
        clocks(frame, app, theme, c);
        message_log(frame, app, theme, m, true);
        input_line(frame, app, theme, input);
    } else {
        let [b, c, m, input] = Layout::vertical([
            Constraint::Length(BOARD_H),
            Constraint::Length(2),
            Constraint::Min(1),
            Constraint::Length(1),
        ])
        .areas(area);
        board(frame, app, theme, b, owner);
        let lines = clock_lines(app, theme);
        frame.render_widget(Paragraph::new(lines), c);
        message_log(frame, app, theme, m, false);
        bare_input(frame, app, theme, input);
    }
}

fn tiny(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let loc = app.vocab().locale();
    let w = FULL_MIN.0.to_string();
    let h = FULL_MIN.1.to_string();
    let note = loc.message("ui.too_small", &[("width", &w), ("height", &h)]);
    let rows = area.height;
    if rows == 0 {
        return;
    }
    let mut lines = vec![Line::styled(note, theme.title)];
    if let Some(last) = app.last_message() {
        lines.push(Line::from(app.vocab().for_display(&last.display)));
    }
    let msg_h = rows.saturating_sub(1);
    frame.render_widget(
        Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }),
        Rect {
            height: msg_h,
            ..area
        },
    );
    if rows >= 1 {
        bare_input(
            frame,
            app,
            theme,
            Rect {
                y: area.y + rows - 1,
                height: 1,
                ..area
            },
        );
    }
}

/// The letter shown for a piece ([`crate::locale::Locale::board_glyph`]).
pub fn piece_glyph(app: &App, piece: shakmaty::Piece) -> String {
    app.vocab().locale().board_glyph(piece)
}

/// The label of a file on the board's edge: the first letter of the
/// locale's file word, upper case ("A" for Anna).
pub fn file_label(app: &App, f: File) -> String {
    let w = &app.vocab().locale().file(f).display;
    w.chars()
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_else(|| f.char().to_string())
}

/// The text lines of a board seen from `owner`'s side (no block):
/// a file line, eight rank lines, a file line.
pub fn board_lines(app: &App, owner: Color) -> Vec<String> {
    let files: Vec<File> = match owner {
        Color::White => File::ALL.to_vec(),
        Color::Black => File::ALL.iter().rev().copied().collect(),
    };
    let ranks: Vec<Rank> = match owner {
        Color::White => Rank::ALL.iter().rev().copied().collect(),
        Color::Black => Rank::ALL.to_vec(),
    };
    let mut edge = String::from("  ");
    for f in &files {
        edge.push_str(&file_label(app, *f));
        edge.push(' ');
    }
    let edge = edge.trim_end().to_owned();
    let board = app.board(owner).position().board();
    let mut out = vec![edge.clone()];
    for r in ranks {
        let n = r.char();
        let mut line = format!("{n} ");
        for f in &files {
            match board.piece_at(Square::from_coords(*f, r)) {
                Some(p) => line.push_str(&piece_glyph(app, p)),
                None => line.push_str(". "),
            }
        }
        line.push(n);
        out.push(line);
    }
    out.push(edge);
    out
}

fn board(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, owner: Color) {
    let loc = app.vocab().locale();
    let side = app.vocab().side(owner).display;
    let title = loc.message("ui.label.board_of", &[("side", &side)]);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title, theme.title));
    let mine = app.board(owner);
    // Where the boards part, this board's move there is marked, and the
    // bottom edge says so in words.
    let parted = match app.mirror().mismatch() {
        Some(crate::mirror::Mismatch::Boards { ply, .. }) => Some(*ply),
        _ => None,
    };
    if let Some(ply) = parted {
        let (_, number) = app.mirror().ply_number(ply);
        block = block.title_bottom(Span::styled(format!("!= {number} !="), theme.mark));
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let last = match parted {
        Some(ply) => mine.moves().get(ply).copied(),
        None => mine.moves().last().copied(),
    };
    let marked: Vec<Square> = last
        .map(|m| {
            m.from()
                .into_iter()
                .chain(std::iter::once(m.to()))
                .collect()
        })
        .unwrap_or_default();
    let lines = board_lines(app, owner);
    let files: Vec<File> = match owner {
        Color::White => File::ALL.to_vec(),
        Color::Black => File::ALL.iter().rev().copied().collect(),
    };
    let ranks: Vec<Rank> = match owner {
        Color::White => Rank::ALL.iter().rev().copied().collect(),
        Color::Black => Rank::ALL.to_vec(),
    };
    let mut out: Vec<Line> = Vec::with_capacity(10);
    for (i, text) in lines.into_iter().enumerate() {
        if i == 0 || i == 9 {
            out.push(Line::styled(text, theme.title));
            continue;
        }
        let r = ranks[i - 1];
        let chars: Vec<char> = text.chars().collect();
        let mut spans = vec![Span::raw(chars[..2].iter().collect::<String>())];
        for (k, f) in files.iter().enumerate() {
            let cell: String = chars[2 + 2 * k..4 + 2 * k].iter().collect();
            let sq = Square::from_coords(*f, r);
            if marked.contains(&sq) {
                spans.push(Span::styled(cell, theme.mark));
            } else {
                spans.push(Span::raw(cell));
            }
        }
        spans.push(Span::raw(chars[18..].iter().collect::<String>()));
        out.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(out), inner);
}

/// The clock lines: side, remaining time, moves, state words.
fn clock_lines<'a>(app: &'a App, theme: &Theme) -> Vec<Line<'a>> {
    let loc = app.vocab().locale();
    let now = app.now();
    let clock = app.clock();
    let mut lines = Vec::new();
    for c in [Color::White, Color::Black] {
        let r = clock.reading(c, now);
        let side = app.vocab().side(c).display;
        let parts = r.remaining_parts();
        let moves = loc.message("ui.label.moves", &[]);
        let mut text = format!("{side:<7} {parts}  {moves} {}", r.moves);
        let mut style = theme.text;
        if r.running {
            text.push_str(&format!("  > {}", loc.message("ui.label.running", &[])));
            style = theme.mark;
        } else if clock.is_paused() && clock.to_move() == Some(c) {
            text.push_str(&format!("  {}", loc.message("ui.label.paused", &[])));
        }
        if let Some(u) = app.unpressed()
            && u.by == c
        {
            text.push_str(&format!(" ({})", loc.message("ui.label.unpressed", &[])));
        }
        lines.push(Line::styled(text, style));
    }
    lines
}

fn clocks(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let loc = app.vocab().locale();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(
            loc.message("ui.label.clock", &[]),
            theme.title,
        ));
    frame.render_widget(Paragraph::new(clock_lines(app, theme)).block(block), area);
}

/// A scoresheet as numbered lines ("1. e4 e5").
pub fn sheet_lines(app: &App, owner: Color) -> Vec<String> {
    let moves = app.sheet(owner);
    let start = app.current().start().fullmoves().get();
    let black_first = app.current().start().turn() == Color::Black;
    let mut out = Vec::new();
    let mut i = 0;
    let mut n = start;
    if black_first && !moves.is_empty() {
        out.push(format!("{n}. ... {}", moves[0]));
        i = 1;
        n += 1;
    }
    while i < moves.len() {
        let mut line = format!("{n}. {}", moves[i]);
        if let Some(b) = moves.get(i + 1) {
            line.push(' ');
            line.push_str(b);
        }
        out.push(line);
        i += 2;
        n += 1;
    }
    out
}

fn sheet(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, owner: Color) {
    let loc = app.vocab().locale();
    let side = app.vocab().side(owner).display;
    let title = format!("{} {side}", loc.message("ui.label.sheet", &[]));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title, theme.title));
    let rows = block.inner(area).height as usize;
    let lines = sheet_lines(app, owner);
    let skip = lines.len().saturating_sub(rows);
    let shown: Vec<Line> = lines.into_iter().skip(skip).map(Line::from).collect();
    frame.render_widget(Paragraph::new(shown).block(block), area);
}

fn message_log(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, bordered: bool) {
    let (inner, block) = if bordered {
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border);
        (block.inner(area), Some(block))
    } else {
        (area, None)
    };
    let width = inner.width as usize;
    let rows = inner.height as usize;
    let mut lines: Vec<Line> = Vec::new();
    // The newest entries, wrapped, newest at the bottom and emphasized.
    let n = app.log.len();
    for (i, u) in app.log.iter().enumerate().skip(n.saturating_sub(rows)) {
        let style = if i + 1 == n { theme.mark } else { theme.text };
        for l in wrap(&app.vocab().for_display(&u.display), width) {
            lines.push(Line::styled(l, style));
        }
    }
    let skip = lines.len().saturating_sub(rows);
    // Newest at the bottom row, always in the same place.
    let mut shown: Vec<Line> = vec![Line::default(); rows.saturating_sub(lines.len())];
    shown.extend(lines.into_iter().skip(skip));
    let p = Paragraph::new(shown);
    match block {
        Some(b) => frame.render_widget(p.block(b), area),
        None => frame.render_widget(p, area),
    }
}

fn input_line(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let loc = app.vocab().locale();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(
            loc.message("ui.label.input", &[]),
            theme.title,
        ));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    bare_input(frame, app, theme, inner);
}

fn bare_input(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    if area.width < 3 || area.height == 0 {
        return;
    }
    // The end of what is typed, as many columns as fit.
    let room = area.width as usize - 3;
    let mut used = 0;
    let mut shown: Vec<char> = app
        .input
        .chars()
        .rev()
        .take_while(|c| {
            used += unicode_width::UnicodeWidthChar::width(*c).unwrap_or(0);
            used <= room
        })
        .collect();
    shown.reverse();
    let shown: String = shown.into_iter().collect();
    let text = format!("> {shown}");
    let x = area.x + 2 + unicode_width::UnicodeWidthStr::width(shown.as_str()) as u16;
    frame.render_widget(Paragraph::new(Line::styled(text, theme.text)), area);
    frame.set_cursor_position(Position { x, y: area.y });
}

#[cfg(test)]
#[path = "render_tests.rs"]
mod tests;
