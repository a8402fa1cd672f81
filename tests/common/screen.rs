//! A captured terminal screen read as a grid of cells, and the framed
//! boxes on it (`┌title──┐ … └──┘`), so a test can read a panel's title,
//! its rows and what is written on its bottom edge, whole, as a person
//! reads them at that size.

use unicode_width::UnicodeWidthChar;

/// The screen as cells: a letter two columns wide (Hangul) fills its first
/// cell and leaves the second empty; a mark of no width (Arabic vowel
/// signs) joins the letter before it.
#[derive(Debug, Clone)]
pub struct Grid {
    /// The rows of cells.
    pub rows: Vec<Vec<String>>,
}

/// A framed box on the screen.
#[derive(Debug, Clone)]
pub struct Frame {
    /// Column of the top left corner.
    pub x: usize,
    /// Row of the top left corner.
    pub y: usize,
    /// Width in columns, corners included.
    pub w: usize,
    /// Height in rows, corners included.
    pub h: usize,
    /// What is written on the top edge (its title, or the legend),
    /// without the line drawing, spaces collapsed.
    pub top: String,
    /// What is written on the bottom edge, likewise.
    pub bottom: String,
    /// The rows inside, trailing spaces removed.
    pub rows: Vec<String>,
}

impl Frame {
    /// The rows inside joined into one text, spaces collapsed (a message
    /// wrapped over several rows reads as it was written).
    pub fn text(&self) -> String {
        norm(&self.rows.join(" "))
    }
}

impl Grid {
    /// Reads a `tmux capture-pane -p` text.
    pub fn parse(text: &str) -> Grid {
        let rows = text
            .lines()
            .map(|line| {
                let mut cells: Vec<String> = Vec::new();
                for c in line.chars() {
                    match c.width().unwrap_or(0) {
                        0 => match cells.last_mut() {
                            Some(last) => last.push(c),
                            None => cells.push(c.to_string()),
                        },
                        2 => {
                            cells.push(c.to_string());
                            cells.push(String::new());
                        }
                        _ => cells.push(c.to_string()),
                    }
                }
                cells
            })
            .collect();
        Grid { rows }
    }

    /// The cell at column `x` of row `y` ("" outside the screen).
    pub fn cell(&self, x: usize, y: usize) -> &str {
        self.rows
            .get(y)
            .and_then(|r| r.get(x))
            .map_or("", String::as_str)
    }

    /// Columns `x0..x1` of row `y` as text.
    pub fn text(&self, y: usize, x0: usize, x1: usize) -> String {
        (x0..x1).map(|x| self.cell(x, y)).collect()
    }

    /// Every framed box, in reading order (top to bottom, left to right).
    pub fn frames(&self) -> Vec<Frame> {
        let mut out = Vec::new();
        for y in 0..self.rows.len() {
            for x in 0..self.rows[y].len() {
                if self.cell(x, y) != "┌" {
                    continue;
                }
                let Some(x2) = (x + 1..self.rows[y].len()).find(|&i| self.cell(i, y) == "┐")
                else {
                    continue;
                };
                let Some(y2) = (y + 1..self.rows.len()).find(|&j| self.cell(x, j) == "└") else {
                    continue;
                };
                if self.cell(x2, y2) != "┘" {
                    continue;
                }
                let edge = |row: usize| norm(&self.text(row, x + 1, x2).replace('─', " "));
                out.push(Frame {
                    x,
                    y,
                    w: x2 - x + 1,
                    h: y2 - y + 1,
                    top: edge(y),
                    bottom: edge(y2),
                    rows: (y + 1..y2)
                        .map(|j| self.text(j, x + 1, x2).trim_end().to_owned())
                        .collect(),
                });
            }
        }
        out
    }

    /// The box whose top edge reads `title` (whole).
    pub fn frame(&self, title: &str) -> Option<Frame> {
        self.frames().into_iter().find(|f| f.top == norm(title))
    }
}

/// Whitespace collapsed to single spaces, trimmed.
pub fn norm(text: &str) -> String {
    // Direction marks, embeddings and isolates take no cell on a
    // terminal: the screen never holds them.
    let text: String = text
        .chars()
        .filter(|c| {
            !matches!(
                c,
                '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
            )
        })
        .collect();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `text` holds the message `template` whole, its `{placeholders}`
/// filled in somehow: its literal parts appear in order, each directly
/// after the filled-in text before it, the first where the message
/// starts and nothing of the message is cut off at the end. Spaces are
/// compared collapsed.
pub fn holds(text: &str, template: &str) -> bool {
    let text = norm(text);
    let template = norm(template);
    let mut parts = Vec::new();
    let mut rest = template.as_str();
    while let Some(open) = rest.find('{') {
        parts.push(&rest[..open]);
        rest = rest[open..].split_once('}').map_or("", |(_, r)| r);
    }
    parts.push(rest);
    let first = parts[0];
    // Every place the message could start.
    let mut from = 0;
    while let Some(k) = text[from..].find(first) {
        let start = from + k;
        let mut at = start + first.len();
        let mut ok = true;
        for p in &parts[1..] {
            match text[at..].find(p) {
                Some(i) => at += i + p.len(),
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if ok {
            return true;
        }
        from = start + first.len().max(1);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        if from >= text.len() {
            break;
        }
    }
    false
}
