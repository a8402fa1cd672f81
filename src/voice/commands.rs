//! Voice commands besides moves (pure core): yes, no, cancel, repeat, time,
//! moves, help, clock, and what cannot be undone (resign, offer or accept
//! a draw, claim), which the play screen says back for a yes first.
//!
//! Their words live in the locale data, as message keys `voice.cmd.NAME`
//! holding the accepted spellings separated by `|` (first = the one shown
//! in help), so every locale can give its own words without a change to
//! the locale format.

use crate::vocab::Vocabulary;

/// A spoken command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Command {
    /// Confirms the move just heard.
    Yes,
    /// Rejects the move just heard.
    No,
    /// Drops what was heard; nothing is played.
    Cancel,
    /// Says the last announcement again.
    Repeat,
    /// Says both clocks.
    Time,
    /// Says the moves played so far.
    Moves,
    /// Says what can be said.
    Help,
    /// Presses the clock (completes the move).
    Clock,
    /// Resigns (said back, acts only after yes).
    Resign,
    /// Offers a draw (said back, acts only after yes).
    OfferDraw,
    /// Accepts the draw offered (said back, acts only after yes).
    AcceptDraw,
    /// Declines the draw offered.
    DeclineDraw,
    /// Claims (a draw, or the win for an illegal move; said back, acts
    /// only after yes).
    Claim,
}

impl Command {
    /// Every command, in help order.
    pub const ALL: [Command; 13] = [
        Command::Yes,
        Command::No,
        Command::Cancel,
        Command::Repeat,
        Command::Time,
        Command::Moves,
        Command::Help,
        Command::Clock,
        Command::Resign,
        Command::OfferDraw,
        Command::AcceptDraw,
        Command::DeclineDraw,
        Command::Claim,
    ];

    /// The name used in message keys and output (`voice.cmd.yes`).
    pub fn key(self) -> &'static str {
        match self {
            Command::Yes => "yes",
            Command::No => "no",
            Command::Cancel => "cancel",
            Command::Repeat => "repeat",
            Command::Time => "time",
            Command::Moves => "moves",
            Command::Help => "help",
            Command::Clock => "clock",
            Command::Resign => "resign",
            Command::OfferDraw => "draw",
            Command::AcceptDraw => "accept",
            Command::DeclineDraw => "decline",
            Command::Claim => "claim",
        }
    }

    /// The message key holding the command's spellings.
    pub fn message_key(self) -> &'static str {
        match self {
            Command::Yes => "voice.cmd.yes",
            Command::No => "voice.cmd.no",
            Command::Cancel => "voice.cmd.cancel",
            Command::Repeat => "voice.cmd.repeat",
            Command::Time => "voice.cmd.time",
            Command::Moves => "voice.cmd.moves",
            Command::Help => "voice.cmd.help",
            Command::Clock => "voice.cmd.clock",
            Command::Resign => "voice.cmd.resign",
            Command::OfferDraw => "voice.cmd.draw",
            Command::AcceptDraw => "voice.cmd.accept",
            Command::DeclineDraw => "voice.cmd.decline",
            Command::Claim => "voice.cmd.claim",
        }
    }
}

/// The accepted spellings of every command in one locale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandWords {
    words: Vec<(Command, Vec<String>)>,
}

impl CommandWords {
    /// Reads the command words from the locale's messages (with their
    /// fallback). A key the locale chain lacks gives no spellings.
    pub fn from_vocab(vocab: &Vocabulary) -> CommandWords {
        let loc = vocab.locale();
        let words = Command::ALL
            .iter()
            .map(|&c| {
                let key = c.message_key();
                let text = loc.message(key, &[]);
                let forms = if text == key {
                    Vec::new()
                } else {
                    text.split('|')
                        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
                        .filter(|s| !s.is_empty())
                        .collect()
                };
                (c, forms)
            })
            .collect();
        CommandWords { words }
    }

    /// Each command with its spellings.
    pub fn iter(&self) -> impl Iterator<Item = (Command, &[String])> {
        self.words.iter().map(|(c, f)| (*c, f.as_slice()))
    }

    /// The command a phrase is, compared in the locale's normal form.
    pub fn find(&self, vocab: &Vocabulary, phrase: &str) -> Option<Command> {
        find_whole_phrase(&self.words, vocab, phrase)
    }
}

/// The entry of `table` one of whose spellings is the whole `phrase`,
/// compared in the locale's normal form (case, accents, spacing).
pub(crate) fn find_whole_phrase<T: Copy>(
    table: &[(T, Vec<String>)],
    vocab: &Vocabulary,
    phrase: &str,
) -> Option<T> {
    let loc = vocab.locale();
    let norm = |s: &str| {
        loc.normalize(s)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let said = norm(phrase);
    if said.is_empty() {
        return None;
    }
    table
        .iter()
        .find(|(_, forms)| forms.iter().any(|f| norm(f) == said))
        .map(|(c, _)| *c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_locale_has_every_command_without_clashes() {
        for code in crate::locale::builtin_codes() {
            let vocab = Vocabulary::builtin(code).unwrap();
            let cw = CommandWords::from_vocab(&vocab);
            let mut seen: Vec<(String, Command)> = Vec::new();
            for (c, forms) in cw.iter() {
                assert!(!forms.is_empty(), "{code}: no words for {}", c.key());
                for f in forms {
                    let n = vocab.locale().normalize(f);
                    if let Some((_, other)) = seen.iter().find(|(s, _)| *s == n) {
                        assert_eq!(other, &c, "{code}: '{f}' means two commands");
                    }
                    seen.push((n, c));
                    // A command word must not read as a move word.
                    assert!(
                        !matches!(
                            vocab.parse(
                                &shakmaty::Chess::default(),
                                shakmaty::CastlingMode::Standard,
                                f
                            ),
                            Ok(_) | Err(crate::vocab::ParseError::Ambiguous(_))
                        ),
                        "{code}: command '{f}' is also a move word"
                    );
                }
            }
        }
    }

    #[test]
    fn find_compares_in_normal_form() {
        let vocab = Vocabulary::builtin("en").unwrap();
        let cw = CommandWords::from_vocab(&vocab);
        assert_eq!(cw.find(&vocab, "  YES "), Some(Command::Yes));
        assert_eq!(cw.find(&vocab, "knight f three"), None);
        assert_eq!(cw.find(&vocab, ""), None);
    }
}
