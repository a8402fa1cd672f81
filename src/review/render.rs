//! Rendering of the review screen (pure: from a [`Review`] to a ratatui
//! buffer). The board is seen from White's side with the locale's piece
//! letters (capital: White, small or with `'`: Black); the move list marks
//! the current move with `>`; the last lines said are in the message box;
//! the keys are listed in words. Nothing is shown by colour alone.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use shakmaty::{Color, Position};

use super::Review;
use crate::locale::MsgKey;
use crate::theme::{Theme, line};
use crate::vocab::Utterance;

/// The board's text lines: a file line, ranks 8 to 1, a file line (as
/// the play screen draws a board seen from White's side).
pub fn board_lines(review: &Review) -> Vec<String> {
    crate::ui::render::board_rows(
        review.vocab().locale(),
        review.position().board(),
        Color::White,
    )
}

/// The move list, one line per move number, the current move marked `>`;
/// the moves in the locale's letters with their check signs, as the play
/// screen's scoresheets show them.
pub fn move_lines(review: &Review) -> Vec<String> {
    let game = review.game();
    let loc = review.vocab().locale();
    let mut lines: Vec<String> = Vec::new();
    for (i, m) in game.moves.iter().enumerate() {
        let (color, number) = game.move_number(i);
        // The position the move was made in: the game's own history.
        let pos = game.position_at(i);
        let san = loc.display_san(&shakmaty::san::SanPlus::from_move(pos, *m).to_string());
        let mark = if i + 1 == review.ply() { ">" } else { " " };
        if color == Color::White || i == 0 {
            let dots = if color == Color::White { "." } else { "..." };
            lines.push(format!("{mark}{number}{dots} {san}"));
        } else if let Some(last) = lines.last_mut() {
            last.push_str(&format!(" {}{san}", mark.trim()));
        }
    }
    lines
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, review: &Review, theme: &Theme) {
    let area = frame.area();
    frame.render_widget(Block::default().style(theme.text), area);
    let v = review.vocab();
    let name = |s: &str, c: Color| {
        if s.is_empty() {
            v.side(c)
        } else {
            Utterance::plain(s)
        }
    };
    let title = v
        .message(
            MsgKey::ReviewLabelTitle,
            &[
                ("white", &name(&review.game().white, Color::White)),
                ("black", &name(&review.game().black, Color::Black)),
            ],
        )
        .display;
    let [title_area, top, messages, keys, input] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(12),
        Constraint::Min(3),
        Constraint::Length(3),
        Constraint::Length(3),
    ])
    .areas(area);
    let [board_area, moves_area] =
        Layout::horizontal([Constraint::Length(22), Constraint::Min(10)]).areas(top);
    let block = |t: String| {
        Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border)
            .title(line(t, theme.title))
    };
    frame.render_widget(Paragraph::new(line(title, theme.title)), title_area);
    let board: Vec<Line> = board_lines(review)
        .into_iter()
        .map(|l| line(l, theme.text))
        .collect();
    frame.render_widget(
        Paragraph::new(board).block(block(String::new())),
        board_area,
    );
    // The move list scrolled so the current move is in view.
    let moves = move_lines(review);
    let rows = usize::from(moves_area.height.saturating_sub(2)).max(1);
    let current = review.ply().saturating_sub(1) / 2;
    let skip = (current + 1).saturating_sub(rows);
    let list: Vec<Line> = moves
        .into_iter()
        .skip(skip)
        .map(|l| line(l, theme.text))
        .collect();
    let moves_title = v.message(MsgKey::ReviewLabelMoves, &[]).display;
    frame.render_widget(Paragraph::new(list).block(block(moves_title)), moves_area);
    message_box(frame, review, theme, messages);
    let keys_text = v.message(MsgKey::ReviewLabelKeys, &[]).display;
    frame.render_widget(
        Paragraph::new(keys_text)
            .style(theme.text)
            .wrap(Wrap { trim: true }),
        keys,
    );
    let label = v.message(MsgKey::ReviewLabelInput, &[]).display;
    frame.render_widget(
        Paragraph::new(line(format!("> {}", review.input), theme.text)).block(block(label)),
        input,
    );
}

/// The message box: the last lines said, and the board's legend whole on
/// its edges ([`crate::ui::render::legend_on_box`]).
fn message_box(frame: &mut Frame, review: &Review, theme: &Theme, area: Rect) {
    let rows = usize::from(area.height.saturating_sub(2));
    let width = usize::from(area.width.saturating_sub(2)).max(10);
    let mut lines: Vec<String> = Vec::new();
    for u in review.log.iter().rev() {
        let wrapped = crate::theme::wrap(&u.display, width);
        for l in wrapped.into_iter().rev() {
            lines.push(l);
        }
        if lines.len() >= rows {
            break;
        }
    }
    lines.truncate(rows);
    lines.reverse();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let legend = crate::ui::render::legend_rows(
        &crate::ui::render::board_legend(review.vocab().locale()),
        usize::from(area.width.saturating_sub(2)),
    );
    let pinned = crate::ui::render::legend_on_box(frame, &legend, theme.title, area);
    // The newest lines in the rows the legend leaves.
    let rows = usize::from(inner.height - pinned);
    let skip = lines.len().saturating_sub(rows);
    let text: Vec<Line> = lines
        .into_iter()
        .skip(skip)
        .map(|l| line(l, theme.text))
        .collect();
    frame.render_widget(
        Paragraph::new(text),
        Rect {
            y: inner.y + pinned,
            height: inner.height - pinned,
            ..inner
        },
    );
}
