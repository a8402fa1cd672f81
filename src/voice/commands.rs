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
pub enum SpokenCommand {
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

impl SpokenCommand {
    /// Every command, in help order.
    pub const ALL: [SpokenCommand; 13] = [
        SpokenCommand::Yes,
        SpokenCommand::No,
        SpokenCommand::Cancel,
        SpokenCommand::Repeat,
        SpokenCommand::Time,
        SpokenCommand::Moves,
        SpokenCommand::Help,
        SpokenCommand::Clock,
        SpokenCommand::Resign,
        SpokenCommand::OfferDraw,
        SpokenCommand::AcceptDraw,
        SpokenCommand::DeclineDraw,
        SpokenCommand::Claim,
    ];

    /// The name used in message keys and output (`voice.cmd.yes`).
    pub fn key(self) -> &'static str {
        match self {
            SpokenCommand::Yes => "yes",
            SpokenCommand::No => "no",
            SpokenCommand::Cancel => "cancel",
            SpokenCommand::Repeat => "repeat",
            SpokenCommand::Time => "time",
            SpokenCommand::Moves => "moves",
            SpokenCommand::Help => "help",
            SpokenCommand::Clock => "clock",
            SpokenCommand::Resign => "resign",
            SpokenCommand::OfferDraw => "draw",
            SpokenCommand::AcceptDraw => "accept",
            SpokenCommand::DeclineDraw => "decline",
            SpokenCommand::Claim => "claim",
        }
    }

    /// The message key holding the command's spellings.
    pub fn message_key(self) -> &'static str {
        match self {
            SpokenCommand::Yes => "voice.cmd.yes",
            SpokenCommand::No => "voice.cmd.no",
            SpokenCommand::Cancel => "voice.cmd.cancel",
            SpokenCommand::Repeat => "voice.cmd.repeat",
            SpokenCommand::Time => "voice.cmd.time",
            SpokenCommand::Moves => "voice.cmd.moves",
            SpokenCommand::Help => "voice.cmd.help",
            SpokenCommand::Clock => "voice.cmd.clock",
            SpokenCommand::Resign => "voice.cmd.resign",
            SpokenCommand::OfferDraw => "voice.cmd.draw",
            SpokenCommand::AcceptDraw => "voice.cmd.accept",
            SpokenCommand::DeclineDraw => "voice.cmd.decline",
            SpokenCommand::Claim => "voice.cmd.claim",
        }
    }
}

/// The accepted spellings of every command in one locale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpokenCommandWords {
    words: Vec<(SpokenCommand, Vec<String>)>,
}

impl SpokenCommandWords {
    /// Reads the command words from the locale's messages (with their
    /// fallback). A key the locale chain lacks gives no spellings.
    pub fn from_vocab(vocab: &Vocabulary) -> SpokenCommandWords {
        let loc = vocab.locale();
        let words = SpokenCommand::ALL
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
        SpokenCommandWords { words }
    }

    /// Each command with its spellings.
    pub fn iter(&self) -> impl Iterator<Item = (SpokenCommand, &[String])> {
        self.words.iter().map(|(c, f)| (*c, f.as_slice()))
    }

    /// The command a phrase is, compared in the locale's normal form.
    pub fn find(&self, vocab: &Vocabulary, phrase: &str) -> Option<SpokenCommand> {
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
            let cw = SpokenCommandWords::from_vocab(&vocab);
            let mut seen: Vec<(String, SpokenCommand)> = Vec::new();
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
        let cw = SpokenCommandWords::from_vocab(&vocab);
        assert_eq!(cw.find(&vocab, "  YES "), Some(SpokenCommand::Yes));
        assert_eq!(cw.find(&vocab, "knight f three"), None);
        assert_eq!(cw.find(&vocab, ""), None);
    }
}
