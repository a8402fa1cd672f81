//! Rendering of the play screen as pure widgets: from an [`App`] to a
//! ratatui buffer, nothing else. Colour never carries meaning alone: piece
//! colour is in the letter case (or a `'` marker where the script has no
//! case), the running clock is marked with a word, the last move is in the
//! message line.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use shakmaty::{Board, Color, File, Position as _, Rank, Square};

use super::app::App;
use crate::locale::Locale;
use crate::locale::MsgKey;

pub use crate::theme::{Theme, ThemeKind, columns, line, wrap};

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
    let clock_h = clock_height(app, usize::from(right.width.saturating_sub(2)));
    let [clock_area, sheets] =
        Layout::vertical([Constraint::Length(clock_h + 2), Constraint::Min(3)]).areas(right);
    clocks(frame, app, theme, clock_area);
    let [ws, bs] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(sheets);
    sheet(frame, app, theme, ws, Color::White);
    sheet(frame, app, theme, bs, Color::Black);
    let legend = legend_rows(
        &legend_text(app),
        usize::from(messages.width.saturating_sub(2)),
    );
    let hint = message_log(frame, app, theme, messages, true, &legend);
    input_line(frame, app, theme, input, hint);
}

/// The legend: how colour is shown without colour, and the file
/// letters' words (where the boards differ, the move where they part
/// instead).
pub fn legend_text(app: &App) -> String {
    let loc = app.vocab().locale();
    if let Some(crate::mirror::Mismatch::Boards { ply, .. }) = app.mirror().mismatch() {
        let (_, number) = app.mirror().ply_number(*ply);
        return loc.message(MsgKey::UiLabelMismatch, &[("number", &number.to_string())]);
    }
    board_legend(loc)
}

/// The legend of a board in locale `loc`: letters that are not the
/// locale's own named first, how Black's pieces are told from White's,
/// the files' words.
pub fn board_legend(loc: &Locale) -> String {
    let files: Vec<String> = File::ALL
        .iter()
        .map(|f| format!("{}={}", file_label(loc, *f), loc.file(*f).display))
        .collect();
    let key = if loc.board_has_case() {
        MsgKey::UiLabelLegend
    } else {
        MsgKey::UiLabelLegendMarked
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
    let named = loc.message(
        MsgKey::UiLabelLegendLetters,
        &[("pieces", &pieces.join(" "))],
    );
    format!("{named} {colours}")
}

/// The legend in rows of at most `width` columns, whole sentences kept
/// together where they fit (a sentence wider than a row is wrapped at
/// spaces): nothing is cut off.
pub fn legend_rows(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    for sentence in text.split_inclusive(". ").map(str::trim) {
        if sentence.is_empty() {
            continue;
        }
        let joined = if row.is_empty() {
            sentence.to_owned()
        } else {
            format!("{row} {sentence}")
        };
        if columns(&joined) <= width {
            row = joined;
            continue;
        }
        if !row.is_empty() {
            rows.push(std::mem::take(&mut row));
        }
        let mut parts = wrap(sentence, width);
        row = parts.pop().unwrap_or_default();
        rows.extend(parts);
    }
    if !row.is_empty() {
        rows.push(row);
    }
    rows
}

/// Writes `text` on a box's edge (row `y`, from column `x`), as far as
/// `room` columns.
fn on_edge(frame: &mut Frame, text: &str, style: ratatui::style::Style, x: u16, y: u16, room: u16) {
    let w = u16::try_from(columns(text)).unwrap_or(u16::MAX).min(room);
    if w == 0 {
        return;
    }
    frame.render_widget(
        Paragraph::new(line(text, style)),
        Rect {
            x,
            y,
            width: w,
            height: 1,
        },
    );
}

/// Writes the legend's `rows` ([`legend_rows`]) on the framed box at
/// `area`, in reading order: the first on its top edge, the last on its
/// bottom edge, any between inside at the top (at least one row is left
/// inside). Returns how many rows inside it took.
pub fn legend_on_box(
    frame: &mut Frame,
    rows: &[String],
    style: ratatui::style::Style,
    area: Rect,
) -> u16 {
    if area.width <= 2 || area.height < 2 || rows.is_empty() {
        return 0;
    }
    let room = area.width - 2;
    let x = area.x + 1;
    on_edge(frame, &rows[0], style, x, area.y, room);
    if rows.len() == 1 {
        return 0;
    }
    let last = rows.len() - 1;
    on_edge(frame, &rows[last], style, x, area.bottom() - 1, room);
    let inside = area.height.saturating_sub(3);
    let mut taken = 0;
    for (i, row) in rows[1..last].iter().enumerate().take(usize::from(inside)) {
        on_edge(frame, row, style, x, area.y + 1 + i as u16, room);
        taken += 1;
    }
    taken
}

fn compact(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let owner = app.current().turn();
    if area.width >= BOARD_W + 20 {
        let [top, input] =
            Layout::vertical([Constraint::Min(BOARD_H), Constraint::Length(3)]).areas(area);
        let [b, right] =
            Layout::horizontal([Constraint::Length(BOARD_W), Constraint::Min(20)]).areas(top);
        board(frame, app, theme, b, owner);
        let clock_h = clock_height(app, usize::from(right.width.saturating_sub(2)));
        let [c, m] =
            Layout::vertical([Constraint::Length(clock_h + 2), Constraint::Min(1)]).areas(right);
        clocks(frame, app, theme, c);
        let hint = message_log(frame, app, theme, m, true, &[]);
        input_line(frame, app, theme, input, hint);
    } else {
        let [b, c, m, input] = Layout::vertical([
            Constraint::Length(BOARD_H),
            Constraint::Length(2),
            Constraint::Min(1),
            Constraint::Length(1),
        ])
        .areas(area);
        board(frame, app, theme, b, owner);
        let lines = clock_lines(app, theme, None);
        frame.render_widget(Paragraph::new(lines), c);
        message_log(frame, app, theme, m, false, &[]);
        bare_input(frame, app, theme, input);
    }
}

fn tiny(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let loc = app.vocab().locale();
    let w = FULL_MIN.0.to_string();
    let h = FULL_MIN.1.to_string();
    let note = loc.message(MsgKey::UiTooSmall, &[("width", &w), ("height", &h)]);
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
pub fn file_label(loc: &Locale, f: File) -> String {
    let w = &loc.file(f).display;
    w.chars()
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_else(|| f.char().to_string())
}

/// The text lines of a board seen from `owner`'s side (no block):
/// a file line, eight rank lines, a file line.
pub fn board_lines(app: &App, owner: Color) -> Vec<String> {
    board_rows(
        app.vocab().locale(),
        app.board(owner).position().board(),
        owner,
    )
}

/// The text lines of `board` in locale `loc` seen from `owner`'s side: a
/// file line, eight rank lines (the rank number, eight squares of two
/// columns, the rank number), a file line. Where Black's letters are
/// marked with `'` (no letter case), that mark fills a square's second
/// column, so a free column is kept before the closing rank number.
pub fn board_rows(loc: &Locale, board: &Board, owner: Color) -> Vec<String> {
    let files: Vec<File> = match owner {
        Color::White => File::ALL.to_vec(),
        Color::Black => File::ALL.iter().rev().copied().collect(),
    };
    let ranks: Vec<Rank> = match owner {
        Color::White => Rank::ALL.iter().rev().copied().collect(),
        Color::Black => Rank::ALL.to_vec(),
    };
    let marked = !loc.board_has_case();
    let mut edge = String::from("  ");
    for f in &files {
        edge.push_str(&file_label(loc, *f));
        edge.push(' ');
    }
    let edge = edge.trim_end().to_owned();
    let mut out = vec![edge.clone()];
    for r in ranks {
        let n = r.char();
        let mut line = format!("{n} ");
        for f in &files {
            match board.piece_at(Square::from_coords(*f, r)) {
                Some(p) => line.push_str(&loc.board_glyph(p)),
                None => line.push_str(". "),
            }
        }
        if marked {
            line.push(' ');
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
    let title = loc.message(MsgKey::UiLabelBoardOf, &[("side", &side)]);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(line(title, theme.title));
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

/// One side's clock: its reading (side, remaining time, moves) and its
/// state words (running, paused, not pressed), and whether it runs.
fn clock_parts(app: &App, c: Color, pad: usize) -> (String, Vec<String>, bool) {
    let loc = app.vocab().locale();
    let clock = app.clock();
    let r = clock.reading(c, app.now());
    let side = app.vocab().side(c).display;
    let fill = " ".repeat(pad.saturating_sub(columns(&side)));
    let moves = loc.message(MsgKey::UiLabelMoves, &[]);
    let reading = format!("{side}{fill} {}  {moves} {}", r.remaining_parts(), r.moves);
    let mut states = Vec::new();
    if r.running {
        states.push(format!("> {}", loc.message(MsgKey::UiLabelRunning, &[])));
    } else if clock.is_paused() && clock.to_move() == Some(c) {
        states.push(loc.message(MsgKey::UiLabelPaused, &[]));
    }
    if let Some(u) = app.unpressed()
        && u.by == c
    {
        states.push(format!("({})", loc.message(MsgKey::UiLabelUnpressed, &[])));
    }
    (reading, states, r.running)
}

/// The column the clock readings start their time at: the wider side
/// name, at least 7 columns.
fn clock_pad(app: &App) -> usize {
    [Color::White, Color::Black]
        .iter()
        .map(|c| columns(&app.vocab().side(*c).display))
        .max()
        .unwrap_or(0)
        .max(7)
}

/// A side's clock in rows of at most `width` columns (`None`: one row):
/// the reading and the state words on one row where they fit, else the
/// state words on the rows below, indented under the time.
fn clock_side_rows(
    reading: &str,
    states: &[String],
    pad: usize,
    width: Option<usize>,
) -> Vec<String> {
    let full = if states.is_empty() {
        reading.to_owned()
    } else {
        format!("{reading}  {}", states.join(" "))
    };
    let Some(width) = width else {
        return vec![full];
    };
    if columns(&full) <= width {
        return vec![full];
    }
    let mut rows = wrap(reading, width);
    if !states.is_empty() {
        let indent = if pad + 1 + 8 <= width { pad + 1 } else { 0 };
        rows.extend(
            wrap(&states.join(" "), width - indent)
                .into_iter()
                .map(|l| format!("{}{l}", " ".repeat(indent))),
        );
    }
    rows
}

/// The clock lines (side, remaining time, moves, state words), each
/// side's in as many rows of `width` columns as it needs (`None`: one
/// row each).
fn clock_lines<'a>(app: &'a App, theme: &Theme, width: Option<usize>) -> Vec<Line<'a>> {
    let pad = clock_pad(app);
    let mut lines = Vec::new();
    for c in [Color::White, Color::Black] {
        let (reading, states, running) = clock_parts(app, c, pad);
        let style = if running { theme.mark } else { theme.text };
        for row in clock_side_rows(&reading, &states, pad, width) {
            lines.push(line(row, style));
        }
    }
    lines
}

/// The rows the clock needs at `width` columns: what it shows now, and
/// at least what the longest state it can be in needs (the running side
/// with its move not pressed), so the panels below do not jump.
fn clock_height(app: &App, width: usize) -> u16 {
    let pad = clock_pad(app);
    let loc = app.vocab().locale();
    let longest = [
        format!("> {}", loc.message(MsgKey::UiLabelRunning, &[])),
        format!("({})", loc.message(MsgKey::UiLabelUnpressed, &[])),
    ];
    let mut now = 0;
    let mut most = 0;
    let mut least = usize::MAX;
    for c in [Color::White, Color::Black] {
        let (reading, states, _) = clock_parts(app, c, pad);
        now += clock_side_rows(&reading, &states, pad, Some(width)).len();
        let worst = clock_side_rows(&reading, &longest, pad, Some(width)).len();
        let plain = clock_side_rows(&reading, &[], pad, Some(width)).len();
        most = most.max(worst);
        least = least.min(plain);
    }
    let reserve = most + least.min(most);
    u16::try_from(now.max(reserve)).unwrap_or(u16::MAX)
}

fn clocks(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let loc = app.vocab().locale();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(line(loc.message(MsgKey::UiLabelClock, &[]), theme.title));
    let width = usize::from(block.inner(area).width);
    frame.render_widget(
        Paragraph::new(clock_lines(app, theme, Some(width))).block(block),
        area,
    );
}

/// A scoresheet as numbered lines ("1. e4 e5").
pub fn sheet_lines(app: &App, owner: Color) -> Vec<String> {
    app.mirror()
        .sheet_rows(owner)
        .into_iter()
        .map(|r| {
            let white = r.white.as_deref().unwrap_or("...");
            match r.black {
                Some(b) => format!("{}. {white} {b}", r.number),
                None => format!("{}. {white}", r.number),
            }
        })
        .collect()
}

/// A scoresheet's lines at `width` columns: a numbered line that does
/// not fit goes on under its number (Black's move, a draw-offer mark).
pub fn sheet_rows(app: &App, owner: Color, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for l in sheet_lines(app, owner) {
        if columns(&l) <= width {
            out.push(l);
            continue;
        }
        let indent = l.find(". ").map_or(0, |i| columns(&l[..i + 2]));
        let indent = if indent + 4 <= width { indent } else { 0 };
        let mut parts = wrap(&l, width).into_iter();
        out.extend(parts.next());
        for rest in parts.flat_map(|p| wrap(&p, width - indent)) {
            out.push(format!("{}{rest}", " ".repeat(indent)));
        }
    }
    out
}

/// A scoresheet's title: "Scoresheet White" where it fits in `width`
/// columns, else the side alone, so the two sheets are told apart at any
/// width (in Arabic both titles were once cut to the same letters).
pub fn sheet_title(app: &App, owner: Color, width: usize) -> String {
    let loc = app.vocab().locale();
    let side = app.vocab().side(owner).display;
    let full = format!("{} {side}", loc.message(MsgKey::UiLabelSheet, &[]));
    if columns(&full) <= width { full } else { side }
}

fn sheet(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, owner: Color) {
    let width = usize::from(area.width.saturating_sub(2));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(line(sheet_title(app, owner, width), theme.title));
    let rows = block.inner(area).height as usize;
    let lines = sheet_rows(app, owner, width);
    let skip = lines.len().saturating_sub(rows);
    let shown: Vec<Line> = lines
        .into_iter()
        .skip(skip)
        .map(|l| line(l, theme.text))
        .collect();
    frame.render_widget(Paragraph::new(shown).block(block), area);
}

/// The message box: the legend's rows on its edges ([`legend_on_box`]),
/// and the lines said, the newest at the bottom row unless paged back
/// ([`App::page_messages`]). Returns what to say about lines out of view
/// (older ones above, newer ones below), for the input line's edge.
fn message_log(
    frame: &mut Frame,
    app: &App,
    theme: &Theme,
    area: Rect,
    bordered: bool,
    legend: &[String],
) -> Option<String> {
    let (inner, block) = if bordered {
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border);
        (block.inner(area), Some(block))
    } else {
        (area, None)
    };
    let mut pinned = 0;
    if let Some(b) = block {
        frame.render_widget(b, area);
        pinned = legend_on_box(frame, legend, theme.title, area);
    }
    let inner = Rect {
        y: inner.y + pinned,
        height: inner.height - pinned,
        ..inner
    };
    let width = usize::from(inner.width);
    let rows = usize::from(inner.height);
    app.note_message_box(rows, width);
    // The newest lines, wrapped, newest at the bottom and emphasized: as
    // many as fill the box paged back as far as asked.
    let back = app.messages_back();
    let want = rows + back;
    let n = app.log.len();
    let mut lines: Vec<Line> = Vec::new();
    let mut older_hidden = false;
    for (i, u) in app.log.iter().enumerate().rev() {
        if lines.len() >= want {
            older_hidden = true;
            break;
        }
        let style = if i + 1 == n { theme.mark } else { theme.text };
        for l in wrap(&app.vocab().for_display(&u.display), width)
            .into_iter()
            .rev()
        {
            lines.push(line(l, style));
        }
    }
    lines.reverse();
    // Paged back at most to the oldest line.
    let back = back.min(lines.len().saturating_sub(rows));
    let end = lines.len() - back;
    let start = end.saturating_sub(rows);
    older_hidden |= start > 0;
    // Newest at the bottom row, always in the same place.
    let mut shown: Vec<Line> = vec![Line::default(); rows.saturating_sub(end - start)];
    shown.extend(lines.drain(start..end));
    frame.render_widget(Paragraph::new(shown), inner);
    let loc = app.vocab().locale();
    if back > 0 {
        Some(loc.message(MsgKey::UiLabelScrollNewer, &[]))
    } else if older_hidden {
        Some(loc.message(MsgKey::UiLabelScrollOlder, &[]))
    } else {
        None
    }
}

/// The input line's box: its title, and on the right of its top edge
/// `hint` (about messages out of view) where both fit.
fn input_line(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, hint: Option<String>) {
    let loc = app.vocab().locale();
    let title = loc.message(MsgKey::UiLabelInput, &[]);
    let room = usize::from(area.width.saturating_sub(2));
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(line(title.clone(), theme.title));
    if let Some(h) = hint
        && columns(&title) + 2 + columns(&h) <= room
    {
        block = block.title(line(h, theme.title).right_aligned());
    }
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
    let x = area.x + 2 + columns(&shown) as u16;
    frame.render_widget(Paragraph::new(line(text, theme.text)), area);
    frame.set_cursor_position(Position { x, y: area.y });
}

#[cfg(test)]
#[path = "render_tests.rs"]
mod tests;
