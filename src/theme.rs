//! Colours, emphasis and line wrapping shared by every terminal screen
//! (the play screen and the review). Colour never carries meaning alone.

use ratatui::style::{Color as Tint, Modifier, Style};

/// Colours and emphasis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Ordinary text.
    pub text: Style,
    /// Block titles.
    pub title: Style,
    /// The squares of the last move, the running clock.
    pub mark: Style,
    /// Borders.
    pub border: Style,
}

/// Which theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ThemeKind {
    /// Gentle colours (never needed to understand anything).
    #[default]
    Default,
    /// White on black, bold, marks reversed.
    HighContrast,
    /// No colour at all; marks reversed.
    Monochrome,
}

impl Theme {
    /// The theme of a kind.
    pub fn of(kind: ThemeKind) -> Theme {
        match kind {
            ThemeKind::Default => Theme {
                text: Style::default(),
                title: Style::default().fg(Tint::Cyan).add_modifier(Modifier::BOLD),
                mark: Style::default()
                    .fg(Tint::Yellow)
                    .add_modifier(Modifier::BOLD),
                border: Style::default().fg(Tint::DarkGray),
            },
            ThemeKind::HighContrast => Theme {
                text: Style::default()
                    .fg(Tint::White)
                    .bg(Tint::Black)
                    .add_modifier(Modifier::BOLD),
                title: Style::default()
                    .fg(Tint::White)
                    .bg(Tint::Black)
                    .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
                mark: Style::default()
                    .fg(Tint::Black)
                    .bg(Tint::White)
                    .add_modifier(Modifier::BOLD),
                border: Style::default().fg(Tint::White).bg(Tint::Black),
            },
            ThemeKind::Monochrome => Theme {
                text: Style::default(),
                title: Style::default().add_modifier(Modifier::BOLD),
                mark: Style::default().add_modifier(Modifier::REVERSED),
                border: Style::default(),
            },
        }
    }
}

/// The columns `text` takes on a terminal: the sum of its characters'
/// widths (a Hangul letter takes two, a combining mark none). A terminal
/// gives every character its own cells: it never joins an Arabic lam and
/// alef into one, as `unicode-width` does when it measures a whole string
/// (`"الأبيض"` is 6 columns on the screen, 5 for `str::width`).
pub fn columns(text: &str) -> usize {
    use unicode_width::UnicodeWidthChar;
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// `text` as a line to draw, in spans whose measured widths add up to the
/// columns the terminal gives them ([`columns`]): where measuring the
/// string as a whole would count a pair of letters as one column (an
/// Arabic lam before an alef), the span is split between them. Drawn as
/// one span, such a text loses its last letters: ratatui gives a span the
/// string's measured width and cuts what does not fit (a board titled
/// "رقعة الأبيض" showed "رقعة الأبي").
pub fn line(text: impl Into<String>, style: ratatui::style::Style) -> ratatui::text::Line<'static> {
    use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};
    let text: String = text.into();
    let mut spans = Vec::new();
    let mut part = String::new();
    let mut counted = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        part.push(c);
        if part.width() != counted + w {
            part.pop();
            spans.push(ratatui::text::Span::styled(
                std::mem::take(&mut part),
                style,
            ));
            part.push(c);
            counted = 0;
        }
        counted += w;
    }
    if !part.is_empty() || spans.is_empty() {
        spans.push(ratatui::text::Span::styled(part, style));
    }
    ratatui::text::Line::from(spans)
}

/// Splits `text` into lines of at most `width` columns ([`columns`]) at
/// spaces.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    use unicode_width::UnicodeWidthChar;
    let width = width.max(1);
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let wlen = columns(word);
        let llen = columns(&line);
        if llen > 0 && llen + 1 + wlen > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        // A word wider than the line: cut between letters, by columns.
        while columns(&line) > width {
            let mut used = 0;
            let cut = line
                .char_indices()
                .find(|(_, c)| {
                    used += c.width().unwrap_or(0);
                    used > width
                })
                .map_or(line.len(), |(i, _)| {
                    i.max(line.chars().next().map_or(1, char::len_utf8))
                });
            let tail = line.split_off(cut);
            out.push(std::mem::replace(&mut line, tail));
        }
    }
    if !line.is_empty() || out.is_empty() {
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arabic lam-alef pairs: every letter has its column, on the screen
    /// and in the spans drawn.
    #[test]
    fn lam_alef_letters_keep_their_columns() {
        use unicode_width::UnicodeWidthStr;
        let white = "رقعة الأبيض";
        assert_eq!(columns(white), 11);
        // What the string measures as a whole: one column less.
        assert_eq!(white.width(), 10);
        let l = line(white, ratatui::style::Style::default());
        assert_eq!(l.width(), 11);
        let back: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(back, white);
        // Hangul: two columns a letter, one span.
        let l = line("백의 보드", ratatui::style::Style::default());
        assert_eq!((l.width(), l.spans.len()), (9, 1));
        assert_eq!(line("", ratatui::style::Style::default()).width(), 0);
    }

    #[test]
    fn wrap_measures_lam_alef_by_letters() {
        // 11 letters: a line of 10 columns cannot hold them.
        let lines = wrap("رقعة الأبيض", 10);
        assert_eq!(lines, ["رقعة", "الأبيض"]);
    }
}
