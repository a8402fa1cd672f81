//! The spoken forms of the commands that can be said (the rows of the
//! [command table](super::table) with a `voice.cmd.…` key), in one locale.

use super::Cmd;
use crate::locale::MsgKey;
use crate::vocab::Vocabulary;

/// The accepted spellings of every spoken command in one locale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpokenCommandWords {
    words: Vec<(Cmd, Vec<String>)>,
}

impl SpokenCommandWords {
    /// Reads the command words from the locale's messages (with their
    /// fallback). A key the locale chain lacks gives no spellings.
    pub fn from_vocab(vocab: &Vocabulary) -> SpokenCommandWords {
        let loc = vocab.locale();
        let words = Cmd::spoken()
            .map(|c| {
                let key = c.row().spoken;
                let text = key.map(|k| loc.message(k, &[])).unwrap_or_default();
                let forms = if !key.is_some_and(|k| loc.has_message(k)) {
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
    pub fn iter(&self) -> impl Iterator<Item = (Cmd, &[String])> {
        self.words.iter().map(|(c, f)| (*c, f.as_slice()))
    }

    /// The command a phrase is, compared in the locale's normal form.
    pub fn find(&self, vocab: &Vocabulary, phrase: &str) -> Option<Cmd> {
        find_whole_phrase(&self.words, vocab, phrase)
    }

    /// The first spelling of `cmd` (what a question tells the player to
    /// say), empty if it cannot be said.
    pub fn first(&self, cmd: Cmd) -> &str {
        self.words
            .iter()
            .find(|(c, _)| *c == cmd)
            .and_then(|(_, f)| f.first())
            .map_or("", String::as_str)
    }
}

/// The entry of `table` one of whose spellings is the whole `phrase`,
/// compared in the locale's normal form (case, accents, spacing).
pub fn find_whole_phrase<T: Copy>(
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

/// The spoken answers to a numbered question ("1: …, or 2: …"): the
/// locale's number words (`voice.number_1` … `voice.number_3`, spellings
/// separated by `|`) and the digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceNumbers {
    /// Each number with its spellings.
    words: Vec<(usize, Vec<String>)>,
}

/// The message keys of the number words, for 1, 2, 3.
pub const NUMBER_KEYS: [MsgKey; 3] = [
    MsgKey::VoiceNumber1,
    MsgKey::VoiceNumber2,
    MsgKey::VoiceNumber3,
];

impl ChoiceNumbers {
    /// Reads the number words of `vocab`'s locale (with its fallback); the
    /// digits are always accepted.
    pub fn from_vocab(vocab: &Vocabulary) -> ChoiceNumbers {
        let loc = vocab.locale();
        let words = NUMBER_KEYS
            .iter()
            .enumerate()
            .map(|(i, &key)| {
                let text = loc.message(key, &[]);
                let mut forms: Vec<String> = if !loc.has_message(key) {
                    Vec::new()
                } else {
                    text.split('|')
                        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
                        .filter(|s| !s.is_empty())
                        .collect()
                };
                let digit = (i + 1).to_string();
                if !forms.contains(&digit) {
                    forms.push(digit);
                }
                (i + 1, forms)
            })
            .collect();
        ChoiceNumbers { words }
    }

    /// Each number with its spellings.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &[String])> {
        self.words.iter().map(|(n, f)| (*n, f.as_slice()))
    }

    /// The number a whole phrase is, compared in the locale's normal form.
    pub fn find(&self, vocab: &Vocabulary, phrase: &str) -> Option<usize> {
        find_whole_phrase(&self.words, vocab, phrase)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_locale_has_every_command_without_clashes() {
        for code in crate::locale::builtin_codes() {
            let vocab = Vocabulary::builtin(code).unwrap();
            let cw = SpokenCommandWords::from_vocab(&vocab);
            let mut seen: Vec<(String, Cmd)> = Vec::new();
            for (c, forms) in cw.iter() {
                assert!(!forms.is_empty(), "{code}: no words for {}", c.name());
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
        assert_eq!(cw.find(&vocab, "  YES "), Some(Cmd::Yes));
        assert_eq!(cw.find(&vocab, "press clock"), Some(Cmd::Press));
        assert_eq!(cw.find(&vocab, "knight f three"), None);
        assert_eq!(cw.find(&vocab, ""), None);
        assert_eq!(cw.first(Cmd::Sheet), "moves");
    }
}
