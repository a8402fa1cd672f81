//! Commands: the one table of every front end's commands ([`table`]), and
//! what a typed line means on the play screen. Command words come from the
//! locale, as message keys `ui.cmd.NAME` holding the accepted spellings
//! separated by `|` (the first is the one shown in help); the base
//! locale's words are accepted too. Spoken forms are in [`spoken`].

pub mod spoken;
pub mod table;

pub use table::{Cmd, Confirm, Example, Menu, Row, TABLE};

use crate::locale::MsgKey;
use crate::locale::{self, Locale};
use crate::vocab::Utterance;
use shakmaty::Color;

/// How one front end names its commands in messages that tell the user
/// what to do (the script's `arbiter: correct`, the play screen's
/// `korrigieren`).
pub trait Verbs {
    /// The command as the user of this front end gives it.
    fn verb(&self, cmd: Cmd) -> Utterance;
}

/// What a typed line is, before the game state is consulted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Nothing typed.
    Empty,
    /// A number (picks a candidate move).
    Number(usize),
    /// A command and the rest of the line.
    Command(Cmd, String),
    /// Anything else: read as a move.
    Move(String),
}

/// The command words of a locale (and of the base locale).
#[derive(Debug, Clone)]
pub struct CommandWords {
    /// (normalized spelling, command), longest spellings first.
    words: Vec<(String, Cmd)>,
    /// The shown spelling of each command.
    shown: Vec<(Cmd, String)>,
    /// The words for White and Black.
    sides: Vec<(String, Color)>,
    locale: Locale,
}

fn spellings(loc: &Locale, key: MsgKey) -> Vec<String> {
    let text = loc.message(key, &[]);
    if !loc.has_message(key) || text.trim().is_empty() {
        return Vec::new();
    }
    text.split('|')
        .map(|w| w.trim().to_owned())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Spellings (normalized) with their commands, and each command's shown
/// spelling.
pub type WordTable<C> = (Vec<(String, C)>, Vec<(C, String)>);

/// The spellings of `commands` (each with the message key holding its
/// spellings) in `sources`, normalized as `loc` does: (spelling, command)
/// pairs, a spelling given to the first command that has it, and the
/// shown (first) spelling of each command. Shared with the review's words.
pub fn word_table<C: Copy + std::fmt::Debug>(
    loc: &Locale,
    commands: impl Iterator<Item = (C, MsgKey)>,
    sources: &[&Locale],
) -> WordTable<C> {
    let mut words: Vec<(String, C)> = Vec::new();
    let mut shown = Vec::new();
    for (cmd, key) in commands {
        let mut first = None;
        for src in sources {
            for w in spellings(src, key) {
                first.get_or_insert_with(|| w.clone());
                let n = loc.normalize(&w);
                if !words.iter().any(|(x, _)| *x == n) {
                    words.push((n, cmd));
                }
            }
        }
        shown.push((
            cmd,
            first.unwrap_or_else(|| format!("{cmd:?}").to_lowercase()),
        ));
    }
    (words, shown)
}

impl CommandWords {
    /// The command words of `loc`, with the base locale's English words
    /// accepted after them.
    pub fn new(loc: &Locale) -> CommandWords {
        let base = locale::builtin(locale::BASE_LOCALE).ok();
        let mut sides = Vec::new();
        let sources: Vec<&Locale> = std::iter::once(loc).chain(base.as_ref()).collect();
        let (mut words, shown) = word_table(
            loc,
            Cmd::typed().filter_map(|c| c.message_key().map(|k| (c, k))),
            &sources,
        );
        for (key, color) in [
            (MsgKey::UiCmdWhite, Color::White),
            (MsgKey::UiCmdBlack, Color::Black),
        ] {
            for src in &sources {
                for w in spellings(src, key) {
                    sides.push((loc.normalize(&w), color));
                }
            }
            for side_key in [MsgKey::SideWhite, MsgKey::SideBlack] {
                let w = loc.message(side_key, &[]);
                let c = if side_key == MsgKey::SideWhite {
                    Color::White
                } else {
                    Color::Black
                };
                sides.push((loc.normalize(&w), c));
            }
        }
        // Longest first, so "take back" wins over "take".
        words.sort_by_key(|(w, _)| std::cmp::Reverse(w.chars().count()));
        CommandWords {
            words,
            shown,
            sides,
            locale: loc.clone(),
        }
    }

    /// The spelling of `cmd` shown in help.
    pub fn shown(&self, cmd: Cmd) -> &str {
        self.shown
            .iter()
            .find(|(c, _)| *c == cmd)
            .map(|(_, w)| w.as_str())
            .unwrap_or("")
    }

    /// Reads a typed line.
    pub fn read(&self, line: &str) -> Input {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            return Input::Empty;
        }
        if let Ok(n) = trimmed.parse::<usize>() {
            return Input::Number(n);
        }
        let norm = self.locale.normalize(trimmed);
        let norm = norm.trim();
        for (w, cmd) in &self.words {
            if let Some(rest) = norm.strip_prefix(w.as_str())
                && (rest.is_empty() || rest.starts_with(' '))
            {
                // The rest in the original spelling: skip as many words.
                let skip = w.split_whitespace().count();
                let rest: Vec<&str> = trimmed.split_whitespace().skip(skip).collect();
                return Input::Command(*cmd, rest.join(" "));
            }
        }
        Input::Move(trimmed.to_owned())
    }

    /// The side named in `text` (first word), if any.
    pub fn side(&self, text: &str) -> Option<Color> {
        let norm = self.locale.normalize(text);
        let first = norm.split_whitespace().next()?;
        self.sides.iter().find(|(w, _)| w == first).map(|(_, c)| *c)
    }

    /// The side named by any word of `text` ("where pawn black" as well
    /// as "where black pawn"), and `text` without that word. A side word
    /// of one letter ("b", "w") counts only as the first word: elsewhere
    /// it may be a file.
    pub fn find_side(&self, text: &str) -> (Option<Color>, String) {
        let words: Vec<&str> = text.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            if i > 0 && w.chars().count() < 2 {
                continue;
            }
            let norm = self.locale.normalize(w);
            if let Some((_, c)) = self.sides.iter().find(|(s, _)| *s == norm) {
                let rest: Vec<&str> = words
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, w)| *w)
                    .collect();
                return (Some(*c), rest.join(" "));
            }
        }
        (None, words.join(" "))
    }

    /// `text` without its first word when that names a side.
    pub fn strip_side<'a>(&self, text: &'a str) -> (Option<Color>, &'a str) {
        match self.side(text) {
            Some(c) => {
                let t = text.trim_start();
                let rest = t.split_once(char::is_whitespace).map(|x| x.1).unwrap_or("");
                (Some(c), rest.trim())
            }
            None => (None, text.trim()),
        }
    }
}

/// The play screen names its commands in messages by the locale's command
/// words, with the table's example arguments ("add white 2m"); the
/// arbiter's own decisions with the arbiter menu's word first ("arbiter
/// correct"), which works as one line at the game prompt and names the
/// menu where the arbiter finds the rest.
impl Verbs for CommandWords {
    fn verb(&self, cmd: Cmd) -> Utterance {
        // The screen announces by pressing: the script's `announce` is its
        // `press`.
        let cmd = if cmd.row().typed.is_none() && cmd == Cmd::Announce {
            Cmd::Press
        } else {
            cmd
        };
        let mut words = Vec::new();
        if cmd.row().is_arbiters_own() {
            words.push(self.shown(Cmd::Arbiter).to_owned());
        }
        words.push(self.shown(cmd).to_owned());
        for arg in cmd.row().example {
            match arg {
                Example::White => {
                    words.push(self.locale.message(MsgKey::SideWhite, &[]).to_lowercase());
                }
                Example::TwoMinutes => words.push("2m".to_owned()),
                // The screen takes the move after the word: its name is
                // enough.
                Example::Move => {}
            }
        }
        Utterance::plain(words.join(" "))
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    fn words(code: &str) -> CommandWords {
        CommandWords::new(&locale::builtin(code).unwrap())
    }

    #[test]
    fn english_commands_and_moves() {
        let w = words("en");
        assert_eq!(w.read("  "), Input::Empty);
        assert_eq!(w.read("2"), Input::Number(2));
        assert_eq!(w.read("resign"), Input::Command(Cmd::Resign, String::new()));
        assert_eq!(
            w.read("take back"),
            Input::Command(Cmd::TakeBack, String::new())
        );
        assert_eq!(w.read("What e4"), Input::Command(Cmd::What, "e4".into()));
        assert_eq!(
            w.read("where knight"),
            Input::Command(Cmd::Where, "knight".into())
        );
        assert_eq!(w.read("Nf3"), Input::Move("Nf3".into()));
        assert_eq!(w.read("knight g1 f3"), Input::Move("knight g1 f3".into()));
        assert_eq!(w.shown(Cmd::Press), "press");
    }

    #[test]
    fn sides_in_both_forms() {
        let w = words("en");
        assert_eq!(w.side("white 60"), Some(Color::White));
        assert_eq!(w.strip_side("Black 30"), (Some(Color::Black), "30"));
        assert_eq!(w.strip_side("30"), (None, "30"));
    }

    #[test]
    fn german_words_and_english_fallback() {
        let w = words("de");
        // German spelling (see locales/de.toml) and the English one.
        assert_eq!(
            w.read("aufgeben"),
            Input::Command(Cmd::Resign, String::new())
        );
        assert_eq!(w.read("resign"), Input::Command(Cmd::Resign, String::new()));
        assert_eq!(
            w.read("Springer g1 f3"),
            Input::Move("Springer g1 f3".into())
        );
    }

    #[test]
    fn fide_moves_are_not_commands() {
        let w = words("fide");
        for phrase in [
            "Springer Gustav eins Felix drei",
            "Eva zwei Eva vier",
            "Kurze Rochade",
            "Bauer Bella drei",
        ] {
            assert_eq!(w.read(phrase), Input::Move(phrase.into()), "{phrase}");
        }
    }

    #[test]
    fn no_move_of_any_locale_reads_as_a_command() {
        use crate::vocab::{Style, Vocabulary};
        use shakmaty::{Chess, Position, san::San};
        for code in locale::builtin_codes() {
            let vocab = Vocabulary::builtin(code).unwrap();
            let w = CommandWords::new(vocab.locale());
            let mut pos = Chess::default();
            for san in [
                "e4", "d5", "exd5", "Nf6", "Bb5+", "c6", "dxc6", "Qa5", "Nc3", "Qxb5",
            ] {
                for m in pos.legal_moves() {
                    for style in [Style::Short, Style::Long] {
                        let said = vocab.announce(&pos, m, style);
                        for text in [&said.display, &said.spoken] {
                            assert!(
                                matches!(w.read(text), Input::Move(_)),
                                "{code}: move {text:?} reads as {:?}",
                                w.read(text)
                            );
                        }
                    }
                }
                let m = San::from_ascii(san.as_bytes())
                    .unwrap()
                    .to_move(&pos)
                    .unwrap();
                pos.play_unchecked(m);
            }
        }
    }

    #[test]
    fn every_locale_has_a_word_for_every_command() {
        for code in locale::builtin_codes() {
            let w = words(code);
            for cmd in Cmd::typed() {
                let shown = w.shown(cmd).to_owned();
                assert!(!shown.is_empty(), "{code}: {cmd:?}");
                assert_eq!(
                    w.read(&shown),
                    Input::Command(cmd, String::new()),
                    "{code}: {shown}"
                );
            }
        }
    }
}
