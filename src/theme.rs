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

/// Splits `text` into lines of at most `width` characters at spaces.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};
    let width = width.max(1);
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let wlen = word.width();
        let llen = line.width();
        if llen > 0 && llen + 1 + wlen > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        // A word wider than the line: cut between letters, by columns.
        while line.width() > width {
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
