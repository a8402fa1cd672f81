//! Locale data: the words of a language for squares, pieces and moves, and
//! the messages shown and spoken to the user (pure core, no I/O).
//!
//! A locale is written in TOML (see `locales/*.toml`). Parsing and validation
//! work on text, so the caller decides where the text comes from: the locales
//! built into the binary ([`builtin`]) or files a user adds.
//!
//! Every word has three spellings: what is **displayed**, what is **spoken**
//! (given to the speech synthesizer), and every form **accepted** when typed
//! or heard. Validation rejects a locale in which one accepted spelling would
//! mean two different things.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use crate::plural::{PluralCategory, plural_category};
use shakmaty::{File, Rank, Role};

include!(concat!(env!("OUT_DIR"), "/message_keys.rs"));

impl fmt::Display for MsgKey {
    /// The key as written in locale files.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PluralStem {
    /// The stem's message for `category`.
    pub const fn form(self, category: crate::plural::PluralCategory) -> MsgKey {
        use crate::plural::PluralCategory as C;
        let forms = self.forms();
        match category {
            C::Zero => forms[0],
            C::One => forms[1],
            C::Two => forms[2],
            C::Few => forms[3],
            C::Many => forms[4],
            C::Other => forms[5],
        }
    }
}

/// Which way a language is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// Left to right.
    #[default]
    Ltr,
    /// Right to left (Hebrew, Arabic).
    Rtl,
}

/// One word (or short phrase) in its three spellings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// What is printed.
    pub display: String,
    /// What the speech synthesizer is given.
    pub spoken: String,
    /// Every form understood when typed or heard, display and spoken first.
    pub accept: Vec<String>,
}

impl Word {
    fn from_raw(raw: RawWord) -> Word {
        let (display, spoken, extra) = match raw {
            RawWord::Plain(s) => (s.clone(), s, Vec::new()),
            RawWord::Full {
                display,
                spoken,
                accept,
            } => {
                let spoken = spoken.unwrap_or_else(|| display.clone());
                (display, spoken, accept)
            }
        };
        let mut accept = vec![display.clone()];
        for form in std::iter::once(spoken.clone()).chain(extra) {
            if !accept.contains(&form) {
                accept.push(form);
            }
        }
        Word {
            display,
            spoken,
            accept,
        }
    }
}

/// A word as written in a locale file: a text, or a table with
/// `display`, `spoken` and `accept`.
#[derive(Debug)]
enum RawWord {
    Plain(String),
    Full {
        display: String,
        spoken: Option<String>,
        accept: Vec<String>,
    },
}

#[derive(Debug)]
struct RawLocale {
    meta: RawMeta,
    files: BTreeMap<String, RawWord>,
    ranks: BTreeMap<String, RawWord>,
    pieces: RawPieces,
    words: RawWords,
    notation: RawNotation,
    fold: BTreeMap<String, String>,
    numbers: BTreeMap<String, String>,
    messages: BTreeMap<String, String>,
    cases: BTreeMap<String, BTreeMap<String, String>>,
    particles: Vec<String>,
}

#[derive(Debug)]
struct RawMeta {
    code: String,
    name: String,
    language: String,
    direction: Direction,
    square_separator: String,
    fallback: Option<String>,
}

#[derive(Debug)]
struct RawPieces {
    king: RawWord,
    queen: RawWord,
    rook: RawWord,
    bishop: RawWord,
    knight: RawWord,
    pawn: RawWord,
}

#[derive(Debug)]
struct RawWords {
    capture: RawWord,
    check: RawWord,
    mate: RawWord,
    en_passant: RawWord,
    promotion: RawWord,
    castle_short: RawWord,
    castle_long: RawWord,
    to: Option<RawWord>,
    ignore: Vec<String>,
}

#[derive(Debug, Default)]
struct RawNotation {
    king: Option<String>,
    queen: Option<String>,
    rook: Option<String>,
    bishop: Option<String>,
    knight: Option<String>,
    files: Option<Vec<String>>,
}

/// Reads the tables of a locale file by hand (not with serde), so that
/// every problem names the file, the dotted key and what is allowed there,
/// in locale words, never a type of the program.
struct TomlReader<'a> {
    file: &'a str,
}

const TOP_KEYS: &[&str] = &[
    "meta", "files", "ranks", "pieces", "words", "notation", "fold", "numbers", "messages",
    "cases", "grammar",
];
const GRAMMAR_KEYS: &[&str] = &["particles"];
const META_KEYS: &[&str] = &[
    "code",
    "name",
    "language",
    "direction",
    "square_separator",
    "fallback",
];
const PIECE_KEYS: &[&str] = &["king", "queen", "rook", "bishop", "knight", "pawn"];
const WORD_KEYS: &[&str] = &[
    "capture",
    "check",
    "mate",
    "en_passant",
    "promotion",
    "castle_short",
    "castle_long",
    "to",
    "ignore",
];
const NOTATION_KEYS: &[&str] = &["king", "queen", "rook", "bishop", "knight", "files"];
const WORD_TABLE_KEYS: &[&str] = &["display", "spoken", "accept"];

impl TomlReader<'_> {
    fn fail(&self, key: &str, problem: LocaleProblem) -> LocaleError {
        LocaleError::Invalid {
            file: self.file.to_owned(),
            key: key.to_owned(),
            problem,
        }
    }

    fn join(path: &str, key: &str) -> String {
        if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path}.{key}")
        }
    }

    /// Refuses keys of `table` outside `allowed`.
    fn only(&self, table: &toml::Table, path: &str, allowed: &[&str]) -> Result<(), LocaleError> {
        match table.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(k) => Err(self.fail(
                &Self::join(path, k),
                LocaleProblem::UnknownKey {
                    allowed: allowed.join(", "),
                },
            )),
            None => Ok(()),
        }
    }

    fn table(&self, value: toml::Value, path: &str) -> Result<toml::Table, LocaleError> {
        match value {
            toml::Value::Table(t) => Ok(t),
            _ => Err(self.fail(path, LocaleProblem::ExpectedTable)),
        }
    }

    /// A required sub-table.
    fn section(&self, table: &mut toml::Table, key: &str) -> Result<toml::Table, LocaleError> {
        let value = table
            .remove(key)
            .ok_or_else(|| self.fail(key, LocaleProblem::Missing))?;
        self.table(value, key)
    }

    /// An optional sub-table (empty when absent).
    fn optional_section(
        &self,
        table: &mut toml::Table,
        key: &str,
    ) -> Result<toml::Table, LocaleError> {
        match table.remove(key) {
            Some(v) => self.table(v, key),
            None => Ok(toml::Table::new()),
        }
    }

    fn text(&self, value: toml::Value, path: &str) -> Result<String, LocaleError> {
        match value {
            toml::Value::String(s) => Ok(s),
            _ => Err(self.fail(path, LocaleProblem::ExpectedText)),
        }
    }

    fn required_text(
        &self,
        table: &mut toml::Table,
        path: &str,
        key: &str,
    ) -> Result<String, LocaleError> {
        let full = Self::join(path, key);
        let value = table
            .remove(key)
            .ok_or_else(|| self.fail(&full, LocaleProblem::Missing))?;
        self.text(value, &full)
    }

    fn optional_text(
        &self,
        table: &mut toml::Table,
        path: &str,
        key: &str,
    ) -> Result<Option<String>, LocaleError> {
        table
            .remove(key)
            .map(|v| self.text(v, &Self::join(path, key)))
            .transpose()
    }

    fn texts(&self, value: toml::Value, path: &str) -> Result<Vec<String>, LocaleError> {
        let toml::Value::Array(items) = value else {
            return Err(self.fail(path, LocaleProblem::ExpectedList));
        };
        items
            .into_iter()
            .map(|v| match v {
                toml::Value::String(s) => Ok(s),
                _ => Err(self.fail(path, LocaleProblem::ExpectedList)),
            })
            .collect()
    }

    fn word(&self, value: toml::Value, path: &str) -> Result<RawWord, LocaleError> {
        match value {
            toml::Value::String(s) => Ok(RawWord::Plain(s)),
            toml::Value::Table(mut t) => {
                self.only(&t, path, WORD_TABLE_KEYS)?;
                let display = match t.remove("display") {
                    Some(toml::Value::String(s)) => s,
                    _ => return Err(self.fail(path, LocaleProblem::ExpectedWord)),
                };
                let spoken = self.optional_text(&mut t, path, "spoken")?;
                let accept = match t.remove("accept") {
                    Some(v) => self.texts(v, &Self::join(path, "accept"))?,
                    None => Vec::new(),
                };
                Ok(RawWord::Full {
                    display,
                    spoken,
                    accept,
                })
            }
            _ => Err(self.fail(path, LocaleProblem::ExpectedWord)),
        }
    }

    fn required_word(
        &self,
        table: &mut toml::Table,
        path: &str,
        key: &str,
    ) -> Result<RawWord, LocaleError> {
        let full = Self::join(path, key);
        let value = table
            .remove(key)
            .ok_or_else(|| self.fail(&full, LocaleProblem::Missing))?;
        self.word(value, &full)
    }

    fn words(
        &self,
        table: toml::Table,
        path: &str,
    ) -> Result<BTreeMap<String, RawWord>, LocaleError> {
        table
            .into_iter()
            .map(|(k, v)| {
                let w = self.word(v, &Self::join(path, &k))?;
                Ok((k, w))
            })
            .collect()
    }

    fn text_table(
        &self,
        table: toml::Table,
        path: &str,
    ) -> Result<BTreeMap<String, String>, LocaleError> {
        table
            .into_iter()
            .map(|(k, v)| {
                let t = self.text(v, &Self::join(path, &k))?;
                Ok((k, t))
            })
            .collect()
    }

    fn locale(&self, mut top: toml::Table) -> Result<RawLocale, LocaleError> {
        self.only(&top, "", TOP_KEYS)?;
        let mut meta = self.section(&mut top, "meta")?;
        self.only(&meta, "meta", META_KEYS)?;
        let direction = match self
            .optional_text(&mut meta, "meta", "direction")?
            .as_deref()
        {
            None | Some("ltr") => Direction::Ltr,
            Some("rtl") => Direction::Rtl,
            Some(_) => return Err(self.fail("meta.direction", LocaleProblem::ExpectedDirection)),
        };
        let meta = RawMeta {
            code: self.required_text(&mut meta, "meta", "code")?,
            name: self.required_text(&mut meta, "meta", "name")?,
            language: self.required_text(&mut meta, "meta", "language")?,
            direction,
            square_separator: self
                .optional_text(&mut meta, "meta", "square_separator")?
                .unwrap_or_else(|| " ".to_owned()),
            fallback: self.optional_text(&mut meta, "meta", "fallback")?,
        };
        let files = self.section(&mut top, "files")?;
        let files = self.words(files, "files")?;
        let ranks = self.section(&mut top, "ranks")?;
        let ranks = self.words(ranks, "ranks")?;
        let mut p = self.section(&mut top, "pieces")?;
        self.only(&p, "pieces", PIECE_KEYS)?;
        let pieces = RawPieces {
            king: self.required_word(&mut p, "pieces", "king")?,
            queen: self.required_word(&mut p, "pieces", "queen")?,
            rook: self.required_word(&mut p, "pieces", "rook")?,
            bishop: self.required_word(&mut p, "pieces", "bishop")?,
            knight: self.required_word(&mut p, "pieces", "knight")?,
            pawn: self.required_word(&mut p, "pieces", "pawn")?,
        };
        let mut w = self.section(&mut top, "words")?;
        self.only(&w, "words", WORD_KEYS)?;
        let words = RawWords {
            capture: self.required_word(&mut w, "words", "capture")?,
            check: self.required_word(&mut w, "words", "check")?,
            mate: self.required_word(&mut w, "words", "mate")?,
            en_passant: self.required_word(&mut w, "words", "en_passant")?,
            promotion: self.required_word(&mut w, "words", "promotion")?,
            castle_short: self.required_word(&mut w, "words", "castle_short")?,
            castle_long: self.required_word(&mut w, "words", "castle_long")?,
            to: w
                .remove("to")
                .map(|v| self.word(v, "words.to"))
                .transpose()?,
            ignore: match w.remove("ignore") {
                Some(v) => self.texts(v, "words.ignore")?,
                None => Vec::new(),
            },
        };
        let mut n = self.optional_section(&mut top, "notation")?;
        self.only(&n, "notation", NOTATION_KEYS)?;
        let notation = RawNotation {
            king: self.optional_text(&mut n, "notation", "king")?,
            queen: self.optional_text(&mut n, "notation", "queen")?,
            rook: self.optional_text(&mut n, "notation", "rook")?,
            bishop: self.optional_text(&mut n, "notation", "bishop")?,
            knight: self.optional_text(&mut n, "notation", "knight")?,
            files: n
                .remove("files")
                .map(|v| self.texts(v, "notation.files"))
                .transpose()?,
        };
        let fold = self.optional_section(&mut top, "fold")?;
        let numbers = self.optional_section(&mut top, "numbers")?;
        let messages = self.optional_section(&mut top, "messages")?;
        let mut cases = BTreeMap::new();
        for (case, forms) in self.optional_section(&mut top, "cases")? {
            let path = Self::join("cases", &case);
            let forms = self.table(forms, &path)?;
            cases.insert(case, self.text_table(forms, &path)?);
        }
        let mut grammar = self.optional_section(&mut top, "grammar")?;
        self.only(&grammar, "grammar", GRAMMAR_KEYS)?;
        let particles = match grammar.remove("particles") {
            Some(v) => self.texts(v, "grammar.particles")?,
            None => Vec::new(),
        };
        if let Some(bad) = particles.iter().find(|p| particle_pair(p).is_none()) {
            return Err(self.fail(
                "grammar.particles",
                LocaleProblem::NotParticle {
                    particle: bad.clone(),
                },
            ));
        }
        Ok(RawLocale {
            meta,
            files,
            ranks,
            pieces,
            words,
            notation,
            fold: self.text_table(fold, "fold")?,
            numbers: self.text_table(numbers, "numbers")?,
            messages: self.text_table(messages, "messages")?,
            cases,
            particles,
        })
    }
}

/// The connecting and signal words of moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveWords {
    /// Said between the piece and the square it captures on.
    pub capture: Word,
    /// Said after a move that gives check.
    pub check: Word,
    /// Said after a move that gives checkmate.
    pub mate: Word,
    /// Said after an en passant capture.
    pub en_passant: Word,
    /// Said before the piece a pawn is promoted to.
    pub promotion: Word,
    /// Kingside castling (FIDE: "Kurze Rochade").
    pub castle_short: Word,
    /// Queenside castling (FIDE: "Lange Rochade").
    pub castle_long: Word,
    /// An optional connector between the from-square and the to-square.
    pub to: Option<Word>,
    /// Filler words that are accepted and carry no meaning.
    pub ignore: Vec<String>,
}

/// Letters of the locale's algebraic notation (FIDE Appendix C allows
/// national letters), used for typed short notation such as `Sf3`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Notation {
    /// Letter (or letters) for each piece except the pawn, by role.
    pub pieces: Vec<(Role, String)>,
    /// National file letters a–h, if the locale has its own (Greek α–θ).
    pub files: Option<[String; 8]>,
}

/// A validated locale.
#[derive(Debug, Clone)]
pub struct Locale {
    /// Short code, e.g. `fide`, `en`, `he`.
    pub code: String,
    /// Human-readable name.
    pub name: String,
    /// BCP 47 language tag for speech synthesis.
    pub language: String,
    /// Writing direction.
    pub direction: Direction,
    /// Put between the file and rank word of a displayed square ("Gustav
    /// eins", "g1"); spoken squares always have a space.
    pub square_separator: String,
    /// Locale whose messages fill the gaps in this one.
    pub fallback: Option<String>,
    files: [Word; 8],
    ranks: [Word; 8],
    pieces: [Word; 6],
    /// Move words.
    pub words: MoveWords,
    /// Notation letters.
    pub notation: Notation,
    /// Normalization: after lowercasing, these letters are replaced before
    /// words are compared (e.g. `ä` → `ae`).
    pub fold: Vec<(char, String)>,
    /// Number words for speaking times and counts (`0`..`59` and more),
    /// where a locale provides them.
    pub numbers: BTreeMap<String, String>,
    messages: BTreeMap<MsgKey, String>,
    /// Grammatical cases: for each case (`gen`, `acc`), the form of words
    /// and counts in that case by their plain form ("Białe" → "Białych"),
    /// used by placeholders `{side:gen}`.
    cases: BTreeMap<String, BTreeMap<String, String>>,
    /// Particles chosen by the sound before them, written "with(without)"
    /// for a final consonant or none: Korean `을(를)`, `은(는)`, `이(가)`,
    /// `과(와)`, `으로(로)`.
    particles: Vec<String>,
}

/// What went wrong with a locale file: always names the file, and the key
/// and what is allowed there. [`LocaleError::describe`] words it in a
/// locale; `Display` in the base locale's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocaleError {
    /// The text is not TOML.
    Syntax {
        /// File the text came from.
        file: String,
        /// Line of the problem (from 1).
        line: usize,
        /// Column of the problem (from 1, in characters).
        column: usize,
    },
    /// A key is missing, extra or has a bad value.
    Invalid {
        /// File the text came from.
        file: String,
        /// Dotted key, e.g. `files.c`.
        key: String,
        /// What is wrong, and what is expected.
        problem: LocaleProblem,
    },
}

/// What is wrong with one key of a locale file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocaleProblem {
    /// The key is needed.
    Missing,
    /// The key is not one of these.
    UnknownKey {
        /// The keys allowed there, comma-separated.
        allowed: String,
    },
    /// Text in quotes is needed.
    ExpectedText,
    /// A word is needed: text, or a table with display, spoken, accept.
    ExpectedWord,
    /// A list of texts is needed.
    ExpectedList,
    /// A table is needed.
    ExpectedTable,
    /// `ltr` or `rtl`.
    ExpectedDirection,
    /// A spelling is empty.
    EmptySpelling,
    /// A notation letter must be letters without spaces.
    NotLetters,
    /// A particle of `[grammar]` not written "with(without)".
    NotParticle {
        /// The particle as written.
        particle: String,
    },
    /// `notation.files` needs eight letters.
    EightFiles {
        /// How many there are.
        found: usize,
    },
    /// A file letter that is not one letter.
    NotOneLetter {
        /// The text given.
        letter: String,
    },
    /// A fold key that is not one character.
    FoldKey,
    /// A message key that does not exist.
    UnknownMessage,
    /// `meta.code` must be ASCII letters, digits and `-`.
    BadCode,
    /// One spelling means two things.
    Duplicate {
        /// The spelling.
        form: String,
        /// The other key that has it.
        other: String,
    },
    /// An ignored word is also a spelling of a word.
    IgnoredDuplicate {
        /// The spelling.
        form: String,
        /// The key that has it.
        other: String,
    },
    /// Two spellings can be read the same way with different meanings
    /// (see [`crate::vocab::check`]): the key is the one that wins.
    Collision {
        /// The spelling that wins.
        form: Box<str>,
        /// The spelling it hides.
        other: Box<str>,
        /// Where the locale has that one.
        other_key: Box<str>,
        /// Words that could mean either.
        example: Box<str>,
    },
    /// No built-in locale with this code (`meta.fallback`, or a built-in
    /// asked for).
    NoBuiltin {
        /// The code given.
        code: String,
        /// The codes there are, comma-separated.
        known: String,
    },
    /// A `{name}` in a message that the message is never given.
    UnknownPlaceholder {
        /// The name between the braces.
        name: String,
        /// The names the message can use, comma-separated.
        allowed: String,
    },
    /// A choice by number (`{n|one:…|other:…}`) with a category that is
    /// not a CLDR one, or without `other`.
    BadChoice {
        /// The choice, as far as it is wrong.
        choice: String,
    },
    /// A cost (voice costs file) that is not a number from 0 to 10.
    BadCost,
    /// The file is larger than [`MAX_LOCALE_BYTES`].
    TooLarge,
}

impl LocaleProblem {
    /// The problem in `locale`'s words.
    pub fn describe(&self, locale: &Locale) -> String {
        use LocaleProblem as P;
        match self {
            P::Missing => locale.message(MsgKey::LocaleMissing, &[]),
            P::UnknownKey { allowed } => {
                locale.message(MsgKey::LocaleUnknownKey, &[("allowed", allowed)])
            }
            P::ExpectedText => locale.message(MsgKey::LocaleExpectedText, &[]),
            P::ExpectedWord => locale.message(MsgKey::LocaleExpectedWord, &[]),
            P::ExpectedList => locale.message(MsgKey::LocaleExpectedList, &[]),
            P::ExpectedTable => locale.message(MsgKey::LocaleExpectedTable, &[]),
            P::ExpectedDirection => locale.message(MsgKey::LocaleExpectedDirection, &[]),
            P::EmptySpelling => locale.message(MsgKey::LocaleEmptySpelling, &[]),
            P::NotLetters => locale.message(MsgKey::LocaleNotLetters, &[]),
            P::NotParticle { particle } => {
                locale.message(MsgKey::LocaleNotParticle, &[("particle", particle)])
            }
            P::EightFiles { found } => {
                locale.message(MsgKey::LocaleEightFiles, &[("found", &found.to_string())])
            }
            P::NotOneLetter { letter } => {
                locale.message(MsgKey::LocaleNotOneLetter, &[("letter", letter)])
            }
            P::FoldKey => locale.message(MsgKey::LocaleFoldKey, &[]),
            P::UnknownMessage => locale.message(MsgKey::LocaleUnknownMessage, &[]),
            P::BadCode => locale.message(MsgKey::LocaleBadCode, &[]),
            P::Duplicate { form, other } => {
                locale.message(MsgKey::LocaleDuplicate, &[("form", form), ("other", other)])
            }
            P::IgnoredDuplicate { form, other } => locale.message(
                MsgKey::LocaleIgnoredDuplicate,
                &[("form", form), ("other", other)],
            ),
            P::Collision {
                form,
                other,
                other_key,
                example,
            } => locale.message(
                MsgKey::LocaleCollision,
                &[
                    ("form", form),
                    ("other", other),
                    ("other_key", other_key),
                    ("example", example),
                ],
            ),
            P::NoBuiltin { code, known } => {
                locale.message(MsgKey::LocaleNoBuiltin, &[("code", code), ("known", known)])
            }
            P::UnknownPlaceholder { name, allowed } if allowed.is_empty() => {
                locale.message(MsgKey::LocaleNoPlaceholders, &[("name", name)])
            }
            P::UnknownPlaceholder { name, allowed } => locale.message(
                MsgKey::LocaleUnknownPlaceholder,
                &[("name", name), ("allowed", allowed)],
            ),
            P::BadChoice { choice } => {
                locale.message(MsgKey::LocaleBadChoice, &[("choice", choice)])
            }
            P::BadCost => locale.message(MsgKey::LocaleBadCost, &[]),
            P::TooLarge => locale.message(
                MsgKey::LocaleTooLarge,
                &[("limit", &(MAX_LOCALE_BYTES / 1024).to_string())],
            ),
        }
    }
}

impl LocaleError {
    /// The error in `locale`'s words: the file, the place and the problem.
    pub fn describe(&self, locale: &Locale) -> String {
        match self {
            LocaleError::Syntax { file, line, column } => locale.message(
                MsgKey::LocaleSyntax,
                &[
                    ("file", file),
                    ("line", &line.to_string()),
                    ("column", &column.to_string()),
                ],
            ),
            LocaleError::Invalid { file, key, problem } => locale.message(
                MsgKey::LocaleInvalid,
                &[
                    ("file", file),
                    ("key", key),
                    ("problem", &problem.describe(locale)),
                ],
            ),
        }
    }
}

impl fmt::Display for LocaleError {
    /// The error in the base locale's words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&in_base(|l| self.describe(l)))
    }
}

impl std::error::Error for LocaleError {}

fn invalid(file: &str, key: impl Into<String>, problem: LocaleProblem) -> LocaleError {
    LocaleError::Invalid {
        file: file.to_owned(),
        key: key.into(),
        problem,
    }
}

const FILE_KEYS: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];
const RANK_KEYS: [&str; 8] = ["1", "2", "3", "4", "5", "6", "7", "8"];

fn eight_words(
    file: &str,
    section: &str,
    keys: [&str; 8],
    mut raw: BTreeMap<String, RawWord>,
) -> Result<[Word; 8], LocaleError> {
    let mut words = Vec::with_capacity(8);
    for key in keys {
        let w = raw
            .remove(key)
            .ok_or_else(|| invalid(file, format!("{section}.{key}"), LocaleProblem::Missing))?;
        words.push(Word::from_raw(w));
    }
    if let Some(extra) = raw.keys().next() {
        return Err(invalid(
            file,
            format!("{section}.{extra}"),
            LocaleProblem::UnknownKey {
                allowed: keys.join(", "),
            },
        ));
    }
    words
        .try_into()
        .map_err(|_| invalid(file, section, LocaleProblem::ExpectedTable))
}

impl Locale {
    /// Parses and validates a locale from TOML text. `file` names the source
    /// in error messages.
    pub fn from_toml(file: &str, text: &str) -> Result<Locale, LocaleError> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            let at = e.span().map_or(0, |s| s.start).min(text.len());
            let before = text.get(..at).unwrap_or("");
            LocaleError::Syntax {
                file: file.to_owned(),
                line: before.matches('\n').count() + 1,
                column: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
            }
        })?;
        let raw = TomlReader { file }.locale(table)?;
        let files = eight_words(file, "files", FILE_KEYS, raw.files)?;
        let ranks = eight_words(file, "ranks", RANK_KEYS, raw.ranks)?;
        let p = raw.pieces;
        let pieces = [p.pawn, p.knight, p.bishop, p.rook, p.queen, p.king].map(Word::from_raw);
        let w = raw.words;
        let words = MoveWords {
            capture: Word::from_raw(w.capture),
            check: Word::from_raw(w.check),
            mate: Word::from_raw(w.mate),
            en_passant: Word::from_raw(w.en_passant),
            promotion: Word::from_raw(w.promotion),
            castle_short: Word::from_raw(w.castle_short),
            castle_long: Word::from_raw(w.castle_long),
            to: w.to.map(Word::from_raw),
            ignore: w.ignore,
        };
        let n = raw.notation;
        let mut letters = Vec::new();
        for (role, key, letter) in [
            (Role::King, "king", n.king),
            (Role::Queen, "queen", n.queen),
            (Role::Rook, "rook", n.rook),
            (Role::Bishop, "bishop", n.bishop),
            (Role::Knight, "knight", n.knight),
        ] {
            if let Some(letter) = letter {
                if letter.trim().is_empty() || letter.chars().any(char::is_whitespace) {
                    return Err(invalid(
                        file,
                        format!("notation.{key}"),
                        LocaleProblem::NotLetters,
                    ));
                }
                letters.push((role, letter));
            }
        }
        let national_files = match n.files {
            None => None,
            Some(list) => {
                let count = list.len();
                let arr: [String; 8] = list.try_into().map_err(|_| {
                    invalid(
                        file,
                        "notation.files",
                        LocaleProblem::EightFiles { found: count },
                    )
                })?;
                if let Some(bad) = arr.iter().find(|l| l.chars().count() != 1) {
                    return Err(invalid(
                        file,
                        "notation.files",
                        LocaleProblem::NotOneLetter {
                            letter: bad.clone(),
                        },
                    ));
                }
                Some(arr)
            }
        };
        let mut fold = Vec::new();
        for (from, to) in raw.fold {
            let lower = from.to_lowercase();
            let mut chars = lower.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => fold.push((c, to.to_lowercase())),
                _ => {
                    return Err(invalid(
                        file,
                        format!("fold.{from}"),
                        LocaleProblem::FoldKey,
                    ));
                }
            }
        }
        let mut messages = BTreeMap::new();
        for (key, text) in raw.messages {
            let Some(typed) = MsgKey::from_key(&key) else {
                return Err(invalid(
                    file,
                    format!("messages.{key}"),
                    LocaleProblem::UnknownMessage,
                ));
            };
            messages.insert(typed, text);
        }
        let meta = raw.meta;
        if meta.code.is_empty()
            || !meta
                .code
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            return Err(invalid(file, "meta.code", LocaleProblem::BadCode));
        }
        let locale = Locale {
            code: meta.code,
            name: meta.name,
            language: meta.language,
            direction: meta.direction,
            square_separator: meta.square_separator,
            fallback: meta.fallback,
            files,
            ranks,
            pieces,
            words,
            notation: Notation {
                pieces: letters,
                files: national_files,
            },
            fold,
            numbers: raw.numbers,
            messages,
            cases: raw.cases,
            particles: raw.particles,
        };
        locale.check_unique_spellings(file)?;
        Ok(locale)
    }

    /// Every accepted spelling must have one meaning.
    fn check_unique_spellings(&self, file: &str) -> Result<(), LocaleError> {
        let mut seen: HashMap<String, String> = HashMap::new();
        for (key, word) in self.keyed_words() {
            for form in &word.accept {
                let norm = self.normalize(form);
                if norm.trim().is_empty() {
                    return Err(invalid(file, key, LocaleProblem::EmptySpelling));
                }
                if let Some(other) = seen.get(&norm).filter(|other| **other != key) {
                    return Err(invalid(
                        file,
                        key,
                        LocaleProblem::Duplicate {
                            form: form.clone(),
                            other: other.clone(),
                        },
                    ));
                }
                seen.insert(norm, key.clone());
            }
        }
        for form in &self.words.ignore {
            let norm = self.normalize(form);
            if let Some(other) = seen.get(&norm) {
                return Err(invalid(
                    file,
                    "words.ignore",
                    LocaleProblem::IgnoredDuplicate {
                        form: form.clone(),
                        other: other.clone(),
                    },
                ));
            }
        }
        Ok(())
    }

    /// All words with their dotted keys, for validation and listings.
    pub fn keyed_words(&self) -> Vec<(String, &Word)> {
        let mut out = Vec::new();
        for (i, w) in self.files.iter().enumerate() {
            out.push((format!("files.{}", FILE_KEYS[i]), w));
        }
        for (i, w) in self.ranks.iter().enumerate() {
            out.push((format!("ranks.{}", RANK_KEYS[i]), w));
        }
        for role in Role::ALL {
            out.push((format!("pieces.{}", role_key(role)), self.piece(role)));
        }
        let w = &self.words;
        for (k, word) in [
            ("capture", &w.capture),
            ("check", &w.check),
            ("mate", &w.mate),
            ("en_passant", &w.en_passant),
            ("promotion", &w.promotion),
            ("castle_short", &w.castle_short),
            ("castle_long", &w.castle_long),
        ] {
            out.push((format!("words.{k}"), word));
        }
        if let Some(to) = &w.to {
            out.push(("words.to".to_owned(), to));
        }
        out
    }

    /// Fills messages this locale lacks from `fallback`.
    pub fn fill_messages_from(&mut self, fallback: &Locale) {
        for (k, v) in &fallback.messages {
            self.messages.entry(*k).or_insert_with(|| v.clone());
        }
    }

    /// Whether the locale (with what its fallback filled in) has `key`.
    pub fn has_message(&self, key: MsgKey) -> bool {
        self.messages.contains_key(&key)
    }

    /// Message keys from [`MsgKey::ALL`] this locale does not have.
    pub fn missing_messages(&self) -> Vec<MsgKey> {
        MsgKey::ALL
            .iter()
            .copied()
            .filter(|k| !self.messages.contains_key(k))
            .collect()
    }

    /// The word for a file.
    pub fn file(&self, file: File) -> &Word {
        &self.files[usize::from(file)]
    }

    /// The word for a rank.
    pub fn rank(&self, rank: Rank) -> &Word {
        &self.ranks[usize::from(rank)]
    }

    /// The word for a piece.
    pub fn piece(&self, role: Role) -> &Word {
        &self.pieces[usize::from(role) - 1]
    }

    /// The letter of a piece on boards and scoresheets: the locale's
    /// notation letter, else the first letter of its displayed name (the
    /// pawn: the first letter of the pawn's name). The move reader accepts
    /// these letters in short notation, so what is shown can be typed.
    pub fn piece_letter(&self, role: Role) -> String {
        if let Some((_, l)) = self.notation.pieces.iter().find(|(r, _)| *r == role) {
            return l.clone();
        }
        self.piece(role)
            .display
            .chars()
            .next()
            .map(|c| c.to_uppercase().collect())
            .unwrap_or_else(|| role.upper_char().to_string())
    }

    /// The six letters a board shows (pawn, knight, bishop, rook, queen,
    /// king): the first letter of each [`Locale::piece_letter`] where these
    /// are six different letters one column wide; else (Hebrew רגלי and
    /// רץ both begin with ר, Korean letters are two columns wide) the
    /// standard letters `P N B R Q K`, which the legend names.
    pub fn board_letters(&self) -> [char; 6] {
        self.own_board_letters()
            .unwrap_or(['P', 'N', 'B', 'R', 'Q', 'K'])
    }

    /// `true` when the board shows the locale's own letters, `false` when
    /// it shows the standard ones (which the legend then names).
    pub fn board_letters_are_own(&self) -> bool {
        self.own_board_letters().is_some()
    }

    /// The first letter of each [`Locale::piece_letter`], if these are six
    /// different letters one column wide.
    fn own_board_letters(&self) -> Option<[char; 6]> {
        let mut out = ['P'; 6];
        for (slot, role) in out.iter_mut().zip(Role::ALL) {
            let c = self.piece_letter(role).chars().next()?;
            if unicode_width::UnicodeWidthChar::width(c) != Some(1) {
                return None;
            }
            *slot = c;
        }
        let distinct = out.iter().enumerate().all(|(i, c)| {
            // Compared as shown: upper case for White, lower for Black.
            let shown = |x: &char| (x.to_uppercase().to_string(), x.to_lowercase().to_string());
            out[i + 1..].iter().all(|d| shown(d) != shown(c))
        });
        distinct.then_some(out)
    }

    /// `true` when the board's letters have upper and lower case (White
    /// upper, Black lower); else Black's letters are marked with `'`.
    pub fn board_has_case(&self) -> bool {
        self.board_letters()
            .iter()
            .all(|c| c.to_uppercase().ne(c.to_lowercase()))
    }

    /// A piece on a board: two columns, its letter ([`Locale::board_letters`])
    /// upper case for White, lower case for Black; where the letters have no
    /// case, Black's letter is followed by `'`.
    pub fn board_glyph(&self, piece: shakmaty::Piece) -> String {
        let c = self.board_letters()[usize::from(piece.role) - 1];
        let upper: String = c.to_uppercase().collect();
        let lower: String = c.to_lowercase().collect();
        match piece.color {
            shakmaty::Color::White if self.board_has_case() => format!("{upper} "),
            shakmaty::Color::White => format!("{c} "),
            shakmaty::Color::Black if self.board_has_case() => format!("{lower} "),
            shakmaty::Color::Black => format!("{c}'"),
        }
    }

    /// Standard algebraic notation (`Qh4#`) with the locale's piece
    /// letters and, where it has its own, its file letters (`Dh4#`,
    /// Hebrew `מהד2`, Greek `Βζ3`), as scoresheets show it: one script, the
    /// letters the announcements use.
    pub fn display_san(&self, san: &str) -> String {
        if san.starts_with("O-O") || san.starts_with("0-0") {
            return san.to_owned();
        }
        let mut out = String::with_capacity(san.len() + 4);
        for c in san.chars() {
            match c {
                'K' | 'Q' | 'R' | 'B' | 'N' => match Role::from_char(c.to_ascii_lowercase()) {
                    Some(role) => out.push_str(&self.piece_letter(role)),
                    None => out.push(c),
                },
                'a'..='h' => match &self.notation.files {
                    Some(files) => out.push_str(&files[usize::from(c as u8 - b'a')]),
                    None => out.push(c),
                },
                _ => out.push(c),
            }
        }
        out
    }

    /// A message with `{name}` placeholders filled in. An unknown key yields
    /// the key itself, so a gap is visible but never fatal.
    ///
    /// A placeholder may name a grammatical case, `{side:gen}`, or choose a
    /// text by the plural category of a value, `{time|one:…|other:…}` (see
    /// [`crate::template`]). Particles of `[grammar]` are then chosen by
    /// the sound before them ([`choose_particles`]).
    pub fn message(&self, key: MsgKey, args: &[(&str, &str)]) -> String {
        let template = self.messages.get(&key).map_or(key.as_str(), String::as_str);
        let text = crate::template::fill(template, args, self);
        if self.particles.is_empty() {
            text
        } else {
            choose_particles(&text, &self.particles)
        }
    }

    /// How the number `n` is given to the synthesizer: its word of
    /// `[numbers]` where the locale has one (espeak-ng's Hebrew voice reads
    /// no digits; its Greek one reads them in the neuter), else digits.
    pub fn spoken_number(&self, n: impl fmt::Display) -> String {
        let digits = n.to_string();
        self.numbers.get(&digits).cloned().unwrap_or(digits)
    }

    /// `tenths` tenths as a decimal number with one place, written with
    /// the locale's decimal separator (`number.decimal_separator`): "1.5"
    /// in English, "1,5" in German, which espeak-ng reads "eins Komma
    /// fünf" (it reads "1.5" as "eins Punkt fünf").
    pub fn tenths(&self, tenths: u64) -> String {
        let sep = self.message(MsgKey::NumberDecimalSeparator, &[]);
        format!("{}{sep}{}", tenths / 10, tenths % 10)
    }

    /// Lowercases, applies the locale's folds, removes accents and other
    /// combining marks and invisible direction marks: the form in which
    /// words are compared. `König`, `Koenig` and `KOENIG` become `koenig`.
    pub fn normalize(&self, text: &str) -> String {
        normalize_with(&self.fold, text)
    }
}

/// The key of a role in locale files.
pub fn role_key(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// Replaces `{name}` in `template` by the value of `name` in `args`;
/// unknown placeholders stay as they are (no cases, every choice takes
/// `other`: for text that is not a locale's message).
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    crate::template::fill(template, args, &crate::template::NoGrammar)
}

impl crate::template::Grammar for Locale {
    fn cases(&self) -> &crate::template::Cases {
        &self.cases
    }

    /// Digits, a number word of `[numbers]`, or a counted phrase of the
    /// locale's own plural forms (`time.minutes.few` = "{n} minuty" reads
    /// "2 minuty" and "dwie minuty" as `few`; "jedna minuta" as `one`). A
    /// time of several units, or anything else, is `other`.
    fn category_of(&self, value: &str) -> PluralCategory {
        let value = value.trim_matches(|c: char| c.is_whitespace() || is_invisible(c));
        let number = |text: &str| -> Option<u64> {
            text.parse::<u64>().ok().or_else(|| {
                self.numbers
                    .iter()
                    .find(|(_, word)| word.as_str() == text)
                    .and_then(|(digits, _)| digits.parse().ok())
            })
        };
        if let Some(n) = number(value) {
            return plural_category(&self.language, n);
        }
        const CATEGORIES: [PluralCategory; 6] = [
            PluralCategory::Zero,
            PluralCategory::One,
            PluralCategory::Two,
            PluralCategory::Few,
            PluralCategory::Many,
            PluralCategory::Other,
        ];
        for stem in PluralStem::ALL {
            for category in CATEGORIES {
                let Some(form) = self.messages.get(&stem.form(category)) else {
                    continue;
                };
                let Some(start) = form.find('{') else {
                    if form == value {
                        return category;
                    }
                    continue;
                };
                let Some(len) = form[start..].find('}') else {
                    continue;
                };
                let (prefix, suffix) = (&form[..start], &form[start + len + 1..]);
                if let Some(middle) = value
                    .strip_prefix(prefix)
                    .and_then(|v| v.strip_suffix(suffix))
                    .filter(|m| !m.is_empty())
                {
                    return number(middle).map_or(category, |n| plural_category(&self.language, n));
                }
            }
        }
        PluralCategory::Other
    }
}

/// The two forms of a particle written "with(without)": the form after a
/// final consonant and the form after a vowel (`을(를)` → `을`, `를`).
fn particle_pair(p: &str) -> Option<(&str, &str)> {
    let (with, rest) = p.split_once('(')?;
    let without = rest.strip_suffix(')')?;
    (!with.is_empty() && !without.is_empty() && !without.contains(['(', ')']))
        .then_some((with, without))
}

/// How the end of a word sounds in Korean: `None` when it ends in a vowel,
/// `Some(true)` in ㄹ, `Some(false)` in another final consonant; `None` too
/// for what cannot be read. Digits and Latin letters are read as a Korean
/// speaker reads them (3 삼, 4 사, 10 십; m 엠, l 엘, e 이).
pub fn korean_final(word: &str) -> Option<bool> {
    let c = word.chars().rev().find(|c| c.is_alphanumeric())?;
    match c {
        '\u{AC00}'..='\u{D7A3}' => match (u32::from(c) - 0xAC00) % 28 {
            0 => None,
            8 => Some(true),
            _ => Some(false),
        },
        // 일, 칠, 팔; 삼, 육, 영/십/백/천/만; 이, 사, 오, 구.
        '1' | '7' | '8' => Some(true),
        '0' | '3' | '6' => Some(false),
        'l' | 'L' | 'r' | 'R' => Some(true),
        'm' | 'M' | 'n' | 'N' => Some(false),
        _ => None,
    }
}

/// Chooses each Korean particle written "with(without)" (`을(를)`) in
/// `text` by the word before it: `흑은(는)` → `흑은`, `백은(는)` → `백은`,
/// `e4을(를)` → `e4를`, `59초을(를)` → `59초를`. `으로(로)` takes 로 after a
/// vowel and after ㄹ. A particle at the start of the text keeps the second
/// form.
pub fn choose_particles(text: &str, particles: &[String]) -> String {
    let pairs: Vec<(&str, &str, &str)> = particles
        .iter()
        .filter_map(|p| particle_pair(p).map(|(w, wo)| (p.as_str(), w, wo)))
        .collect();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'outer: while !rest.is_empty() {
        for (full, with, without) in &pairs {
            if let Some(after) = rest.strip_prefix(full) {
                let before = korean_final(&out);
                let rieul_is_vowel = *with == "으로";
                let consonant = match before {
                    None => false,
                    Some(true) => !rieul_is_vowel,
                    Some(false) => true,
                };
                out.push_str(if consonant { with } else { without });
                rest = after;
                continue 'outer;
            }
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}

/// Characters that carry no letters: direction marks, zero-width joiners,
/// the byte-order mark, soft hyphen and the Arabic tatweel.
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{061C}'
            | '\u{0640}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// See [`Locale::normalize`].
pub fn normalize_with(fold: &[(char, String)], text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    normalize_into(fold, text, &mut out);
    out
}

/// Appends the normalized form of `text` to `out` (see
/// [`Locale::normalize`]). Works character by character: lowercase, fold,
/// then canonical decomposition with the combining marks dropped.
pub fn normalize_into(fold: &[(char, String)], text: &str, out: &mut String) {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::{decompose_canonical, is_combining_mark};
    if text.is_ascii() && fold.iter().all(|(k, _)| !k.is_ascii()) {
        let start = out.len();
        out.push_str(text);
        out.as_mut_str()[start..].make_ascii_lowercase();
        return;
    }
    // Decomposed input ("a" + combining diaeresis) is composed first, so
    // that folds written for composed letters apply.
    let composed: std::borrow::Cow<'_, str> = if text.chars().any(is_combining_mark) {
        std::borrow::Cow::Owned(text.nfc().collect())
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    for c in composed.chars() {
        if is_invisible(c) || is_combining_mark(c) {
            continue;
        }
        for lc in c.to_lowercase() {
            if let Some((_, to)) = fold.iter().find(|(k, _)| *k == lc) {
                out.push_str(to);
            } else if lc.is_ascii() {
                out.push(lc);
            } else {
                decompose_canonical(lc, |d| {
                    if !is_combining_mark(d) {
                        out.push(d);
                    }
                });
            }
        }
    }
}

impl fmt::Display for Locale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.code, self.name)
    }
}

/// The locales built into the binary: `(code, TOML text)`.
pub const BUILTIN: &[(&str, &str)] = &[
    ("fide", include_str!("../../../locales/fide.toml")),
    ("en", include_str!("../../../locales/en.toml")),
    ("de", include_str!("../../../locales/de.toml")),
    ("pl", include_str!("../../../locales/pl.toml")),
    ("he", include_str!("../../../locales/he.toml")),
    ("ar", include_str!("../../../locales/ar.toml")),
    ("el", include_str!("../../../locales/el.toml")),
    ("ko", include_str!("../../../locales/ko.toml")),
];

/// The code of the locale whose messages complete every other locale.
pub const BASE_LOCALE: &str = "en";

/// The base locale, loaded once: the words of error types' `Display`
/// (callers with a locale use their `describe`).
pub fn base() -> Option<&'static Locale> {
    static BASE: std::sync::OnceLock<Option<Locale>> = std::sync::OnceLock::new();
    // Read without the locale checker (which reads the base locale's
    // command words itself); the unit tests check the base locale.
    BASE.get_or_init(|| {
        let (_, text) = BUILTIN.iter().find(|(c, _)| *c == BASE_LOCALE)?;
        Locale::from_toml(&format!("locales/{BASE_LOCALE}.toml"), text).ok()
    })
    .as_ref()
}

/// `f` applied to the base locale (an empty text if it could not load,
/// which a unit test rules out).
pub fn in_base(f: impl FnOnce(&Locale) -> String) -> String {
    base().map(f).unwrap_or_default()
}

/// Loads a built-in locale by code, with its messages completed from its
/// fallback (or [`BASE_LOCALE`]).
pub fn builtin(code: &str) -> Result<Locale, LocaleError> {
    let file = format!("locales/{code}.toml");
    let text = BUILTIN
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            invalid(
                &file,
                "meta.code",
                LocaleProblem::NoBuiltin {
                    code: code.to_owned(),
                    known: builtin_codes().join(", "),
                },
            )
        })?;
    let mut locale = Locale::from_toml(&file, text)?;
    if code != BASE_LOCALE {
        complete_named(&mut locale, &file)?;
    }
    Ok(locale)
}

/// The largest locale file read (the built-in ones have under 50 KB).
pub const MAX_LOCALE_BYTES: u64 = 1024 * 1024;

/// A locale from the text of a file of the user's: parsed, validated,
/// completed from its fallback chain and the base locale, and its messages
/// checked to use only the placeholders each message is given. `file`
/// names it in errors. (Its words are checked for readings that collide
/// when it becomes a vocabulary: [`crate::vocab::Vocabulary::from_file_text`].)
///
/// # Errors
///
/// The first problem, naming the file, the key and what is allowed.
pub fn from_file_text(file: &str, text: &str) -> Result<Locale, LocaleError> {
    let mut locale = Locale::from_toml(file, text)?;
    complete_named(&mut locale, file)?;
    check_placeholders(&locale, file)?;
    Ok(locale)
}

/// Completes `locale`'s messages from its fallback chain of built-in locales.
pub fn complete(locale: &mut Locale) -> Result<(), LocaleError> {
    let file = format!("locales/{}.toml", locale.code);
    complete_named(locale, &file)
}

/// Completes `locale`'s messages from its fallback chain, which always ends
/// with the base locale (also for a file of the user's whose code is the
/// base locale's, which would otherwise show message keys).
fn complete_named(locale: &mut Locale, file: &str) -> Result<(), LocaleError> {
    let mut seen: Vec<String> = Vec::new();
    let mut next = Some(
        locale
            .fallback
            .clone()
            .unwrap_or_else(|| BASE_LOCALE.to_owned()),
    );
    while let Some(code) = next {
        if seen.contains(&code) {
            break;
        }
        let Some((_, text)) = BUILTIN.iter().find(|(c, _)| *c == code) else {
            return Err(invalid(
                file,
                "meta.fallback",
                LocaleProblem::NoBuiltin {
                    code,
                    known: builtin_codes().join(", "),
                },
            ));
        };
        let fb = Locale::from_toml(&format!("locales/{code}.toml"), text)?;
        locale.fill_messages_from(&fb);
        seen.push(code);
        next = Some(
            fb.fallback
                .clone()
                .unwrap_or_else(|| BASE_LOCALE.to_owned()),
        );
    }
    Ok(())
}

/// The `{name}` placeholders of a message template (a case or a choice
/// reads the value of `name`: `{side:gen}`, `{time|one:…|other:…}`).
fn placeholder_names(text: &str) -> impl Iterator<Item = &str> {
    crate::template::placeholders(text)
        .into_iter()
        .map(|p| p.name())
}

/// Every `{name}` in `locale`'s messages must be one the base locale's
/// message of that key has: no other is ever given, and it would be shown
/// as it is.
fn check_placeholders(locale: &Locale, file: &str) -> Result<(), LocaleError> {
    let Some(base) = base() else { return Ok(()) };
    for key in locale.messages.keys() {
        let allowed: Vec<&str> = base
            .messages
            .get(key)
            .map(|t| placeholder_names(t).collect())
            .unwrap_or_default();
        if let Some(choice) = crate::template::select_problem(&locale.messages[key]) {
            return Err(invalid(
                file,
                format!("messages.{key}"),
                LocaleProblem::BadChoice { choice },
            ));
        }
        if let Some(name) = placeholder_names(&locale.messages[key]).find(|n| !allowed.contains(n))
        {
            return Err(invalid(
                file,
                format!("messages.{key}"),
                LocaleProblem::UnknownPlaceholder {
                    name: name.to_owned(),
                    allowed: allowed.join(", "),
                },
            ));
        }
    }
    Ok(())
}

/// Codes of the built-in locales.
pub fn builtin_codes() -> Vec<&'static str> {
    BUILTIN.iter().map(|(c, _)| *c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_locale_loads_and_is_complete() {
        for code in builtin_codes() {
            let l = builtin(code).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(l.code, code, "meta.code must match the file name");
            assert!(
                l.missing_messages().is_empty(),
                "{code} lacks messages {:?}",
                l.missing_messages()
            );
        }
    }

    #[test]
    fn message_keys_are_the_base_locales_one_variant_each() {
        // The generated keys are en.toml's [messages], each once, and a
        // key's text leads back to its variant.
        let table: toml::Table = include_str!("../../../locales/en.toml").parse().unwrap();
        let en_keys: Vec<&str> = table["messages"]
            .as_table()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let ours: Vec<&str> = MsgKey::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(ours, en_keys);
        for (i, &key) in MsgKey::ALL.iter().enumerate() {
            assert_eq!(MsgKey::from_key(key.as_str()), Some(key));
            assert_eq!(key.index(), i);
            assert_eq!(key.to_string(), key.as_str());
        }
        for near in [
            "",
            "voice",
            "voice.not_built ",
            "Voice.not_built",
            "voice.not_biult",
        ] {
            assert_eq!(MsgKey::from_key(near), None, "{near:?}");
        }
        // (Written in two parts: scripts/msgkey_convert.py turns a whole
        // key in quotes into its variant.)
        assert_eq!(
            MsgKey::VoiceNotBuilt.as_str(),
            ["voice", "not_built"].join(".")
        );
        // Plural stems: six forms each, in category order.
        for stem in PluralStem::ALL {
            let forms = stem.forms();
            let stem_text = forms[5].as_str().strip_suffix(".other").unwrap();
            for (form, cat) in forms
                .iter()
                .zip(["zero", "one", "two", "few", "many", "other"])
            {
                assert_eq!(form.as_str(), format!("{stem_text}.{cat}"));
            }
        }
        assert_eq!(
            PluralStem::TimeMinutes.form(crate::plural::PluralCategory::Few),
            MsgKey::TimeMinutesFew
        );
    }

    #[test]
    fn a_user_locale_with_an_unknown_message_key_is_reported_by_its_key() {
        // A typo in a user's file is refused with the file, the key and
        // what the keys are; the same file without it loads.
        let good = minimal("");
        let typo = format!("{good}\n[messages]\n\"voice.not_biult\" = \"x\"\n");
        let err = from_file_text("mine.toml", &typo).unwrap_err();
        assert_eq!(
            err,
            LocaleError::Invalid {
                file: "mine.toml".into(),
                key: "messages.voice.not_biult".into(),
                problem: LocaleProblem::UnknownMessage,
            }
        );
        let text = err.to_string();
        assert!(text.contains("messages.voice.not_biult"), "{text}");
        assert!(text.contains("locales/en.toml"), "{text}");
        let right = format!("{good}\n[messages]\n\"voice.not_built\" = \"x\"\n");
        let l = from_file_text("mine.toml", &right).unwrap();
        assert_eq!(l.message(MsgKey::VoiceNotBuilt, &[]), "x");
        // Completed from the base locale: every key.
        assert!(
            l.missing_messages().is_empty(),
            "{:?}",
            l.missing_messages()
        );
    }

    #[test]
    fn normalization_folds_case_umlauts_and_accents() {
        let fide = builtin("fide").unwrap();
        assert_eq!(fide.normalize("König"), "koenig");
        assert_eq!(fide.normalize("KOENIG"), "koenig");
        assert_eq!(fide.normalize("Läufer"), "laeufer");
        assert_eq!(fide.normalize("fünf"), "fuenf");
        // Without a fold, accents are dropped.
        assert_eq!(normalize_with(&[], "Βασιλιάς"), "βασιλιας");
        assert_eq!(normalize_with(&[], "Wieża"), "wieza");
        // Direction marks vanish.
        assert_eq!(normalize_with(&[], "\u{2067}abc\u{2069}"), "abc");
    }

    #[test]
    fn scoresheets_write_one_script() {
        // Issue 20: the Hebrew sheet wrote מהd2 (Hebrew letter, Latin
        // file) while the announcements say ד2.
        let he = builtin("he").unwrap();
        assert_eq!(he.display_san("Qd2"), "מהד2");
        assert_eq!(he.display_san("exd5"), "הxד5");
        assert_eq!(he.display_san("e8=Q+"), "ה8=מה+");
        assert_eq!(he.display_san("Nbd2"), "פבד2");
        assert_eq!(he.display_san("O-O-O"), "O-O-O");
        let el = builtin("el").unwrap();
        assert_eq!(el.display_san("Nf3"), "Ιζ3");
        // Korean files are Latin, and so are its piece letters.
        let ko = builtin("ko").unwrap();
        assert_eq!(ko.display_san("Bxc4"), "Bxc4");
        assert_eq!(builtin("de").unwrap().display_san("Qh4#"), "Dh4#");
        assert_eq!(builtin("en").unwrap().display_san("exd8=N"), "exd8=N");
    }

    #[test]
    fn fill_replaces_known_placeholders_only() {
        assert_eq!(fill("a {x} b {y} c {", &[("x", "1")]), "a 1 b {y} c {");
    }

    /// A scoresheet's notation in the locale's letters: the moving piece
    /// and the promotion piece; check and mate signs stay (a sheet once
    /// showed `15. Sxe7` for Nxe7+).
    #[test]
    fn display_san_keeps_signs_and_writes_promotions_in_the_locales_letters() {
        let de = builtin("de").unwrap();
        assert_eq!(de.display_san("Nxe7+"), "Sxe7+");
        assert_eq!(de.display_san("Qh4#"), "Dh4#");
        assert_eq!(de.display_san("e8=Q+"), "e8=D+");
        assert_eq!(de.display_san("fxg1=N"), "fxg1=S");
        assert_eq!(de.display_san("O-O-O+"), "O-O-O+");
        assert_eq!(de.display_san("e4"), "e4");
        let en = builtin("en").unwrap();
        assert_eq!(en.display_san("bxa8=R#"), "bxa8=R#");
        let ko = builtin("ko").unwrap();
        let queen = ko.piece_letter(Role::Queen);
        assert_eq!(ko.display_san("e8=Q+"), format!("e8={queen}+"));
    }

    #[test]
    fn fide_words_have_three_spellings() {
        let fide = builtin("fide").unwrap();
        let c = fide.file(File::C);
        assert_eq!(c.display, "Cesar");
        assert_eq!(c.spoken, "Zäsar");
        assert!(c.accept.iter().any(|a| a == "Cesar"));
        assert!(fide.file(File::E).accept.iter().any(|a| a == "Eve"));
        assert_eq!(fide.rank(Rank::Fifth).spoken, "fünf");
        assert_eq!(fide.piece(Role::King).display, "Koenig");
    }

    fn minimal(extra: &str) -> String {
        format!(
            r#"
[meta]
code = "t"
name = "test"
language = "en"
[files]
a = "alpha"
b = "b"
c = "c"
d = "d"
e = "e"
f = "f"
g = "g"
h = "h"
[ranks]
1 = "one"
2 = "two"
3 = "three"
4 = "four"
5 = "five"
6 = "six"
7 = "seven"
8 = "eight"
[pieces]
king = "king"
queen = "queen"
rook = "rook"
bishop = "bishop"
knight = "knight"
pawn = "pawn"
[notation]
knight = "N"
[words]
capture = "takes"
check = "check"
mate = "mate"
en_passant = "en passant"
promotion = "promotes to"
castle_short = "short castle"
castle_long = "long castle"
{extra}
"#
        )
    }

    #[test]
    fn errors_name_the_file_and_key() {
        assert!(Locale::from_toml("t.toml", &minimal("")).is_ok());
        let bad = minimal("").replace("h = \"h\"\n", "");
        let err = Locale::from_toml("t.toml", &bad).unwrap_err().to_string();
        assert!(err.starts_with("t.toml: files.h:"), "{err}");

        let dup = minimal("").replace("knight = \"knight\"", "knight = \"rook\"");
        let err = Locale::from_toml("t.toml", &dup).unwrap_err().to_string();
        assert!(err.contains("'rook'"), "{err}");

        let typo = minimal("[messages]\n\"parse.emptyy\" = \"x\"");
        let err = Locale::from_toml("t.toml", &typo).unwrap_err().to_string();
        assert!(err.contains("messages.parse.emptyy"), "{err}");

        let err = Locale::from_toml("t.toml", "not toml [").unwrap_err();
        assert!(matches!(err, LocaleError::Syntax { .. }));
    }

    /// Built-in locales that may leave messages to another locale, and the
    /// locale they take them from: fide has only the Appendix D words, and
    /// its messages are German like its words.
    const ALLOWED_FALLBACK: &[(&str, &str)] = &[("fide", "de")];

    /// The `{name}` placeholders of a message.
    fn placeholders(text: &str) -> std::collections::BTreeSet<&str> {
        placeholder_names(text).collect()
    }

    /// Whether `key` is a plural form (`time.minutes.few`) of a category
    /// that `language` never uses: such a form need not be written. The
    /// catch-all `other` is always needed.
    fn unused_plural_form(language: &str, key: MsgKey) -> bool {
        use crate::plural::{PluralCategory as C, plural_category};
        let categories = [C::Zero, C::One, C::Two, C::Few, C::Many, C::Other];
        let Some(category) = PluralStem::ALL
            .iter()
            .find_map(|s| categories.into_iter().find(|&c| s.form(c) == key))
        else {
            return false;
        };
        category != C::Other && !(0..=1000u64).any(|n| plural_category(language, n) == category)
    }

    #[test]
    fn every_locale_translates_every_message_with_the_base_placeholders() {
        let (_, en_text) = BUILTIN.iter().find(|(c, _)| *c == BASE_LOCALE).unwrap();
        let en = Locale::from_toml("locales/en.toml", en_text).unwrap();
        let mut missing_by_locale = Vec::new();
        let mut bad_placeholders = Vec::new();
        for (code, text) in BUILTIN {
            // The locale's own messages, before any fallback fills gaps.
            let own = Locale::from_toml(&format!("locales/{code}.toml"), text).unwrap();
            if let Some((_, from)) = ALLOWED_FALLBACK.iter().find(|(c, _)| c == code) {
                assert_eq!(
                    own.fallback.as_deref(),
                    Some(*from),
                    "{code}: meta.fallback"
                );
            } else {
                let missing: Vec<&str> = MsgKey::ALL
                    .iter()
                    .copied()
                    .filter(|k| !own.messages.contains_key(k))
                    .filter(|&k| !unused_plural_form(&own.language, k))
                    // The manual page is generated in English only.
                    .map(MsgKey::as_str)
                    .filter(|k| !k.starts_with("man."))
                    .collect();
                if !missing.is_empty() {
                    missing_by_locale.push(format!(
                        "{code} lacks {} message(s): {}",
                        missing.len(),
                        missing.join(", ")
                    ));
                }
            }
            for (key, text) in &own.messages {
                let got = placeholders(text);
                let mut want = placeholders(en.messages.get(key).map_or("", String::as_str));
                // A plural form for zero, one or two may leave out the
                // number when the word says it (Hebrew "שעתיים", two hours).
                if [".zero", ".one", ".two"]
                    .iter()
                    .any(|s| key.as_str().ends_with(s))
                    && !got.contains("n")
                {
                    want.remove("n");
                }
                if got != want {
                    bad_placeholders.push(format!(
                        "{code} {key}: placeholders {got:?}, but en has {want:?}"
                    ));
                }
            }
        }
        assert!(
            missing_by_locale.is_empty() && bad_placeholders.is_empty(),
            "translate these keys (en.toml has them) and keep en's placeholders:\n{}\n{}",
            missing_by_locale.join("\n"),
            bad_placeholders.join("\n")
        );
    }

    #[test]
    fn fide_speaks_german_on_the_play_screen_and_the_standalone_clock() {
        use crate::clock::talk::{Phrasebook, Unit};
        let fide = builtin("fide").unwrap();
        let de = builtin("de").unwrap();
        // The play screen talks with the locale it plays in; `annabella
        // clock` looks the talking locale up (fide -> de).
        let screen = Phrasebook::new(fide.clone());
        let clock = Phrasebook::for_locale(&fide).unwrap();
        assert_eq!(screen.language(), "de");
        assert_eq!(clock.language(), "de");
        let (_, text) = BUILTIN.iter().find(|(c, _)| *c == "fide").unwrap();
        let own = Locale::from_toml("locales/fide.toml", text).unwrap();
        for &key in MsgKey::ALL {
            // Every message of fide is de's, except its own (voice words).
            if !own.messages.contains_key(&key) {
                assert_eq!(fide.message(key, &[]), de.message(key, &[]), "{key}");
            }
            if ["clock.", "time.", "count."]
                .iter()
                .any(|p| key.as_str().starts_with(p))
            {
                assert_eq!(screen.message(key), clock.message(key), "{key}");
            }
        }
        for n in 0..=130 {
            for unit in [Unit::Hours, Unit::Minutes, Unit::Seconds, Unit::Moves] {
                assert_eq!(screen.count(unit, n), clock.count(unit, n), "{unit:?} {n}");
            }
        }
    }

    #[test]
    fn the_translation_check_sees_a_gap_and_a_wrong_placeholder() {
        // The helpers of the test above on known inputs.
        assert_eq!(
            placeholders("{side}: {time} left {"),
            ["side", "time"].into_iter().collect()
        );
        assert!(unused_plural_form("de", MsgKey::TimeMinutesFew));
        assert!(!unused_plural_form("de", MsgKey::TimeMinutesOne));
        assert!(!unused_plural_form("pl", MsgKey::TimeMinutesFew));
        assert!(!unused_plural_form("pl", MsgKey::TimeMinutesOther));
        assert!(!unused_plural_form("ar", MsgKey::CountMovesZero));
        assert!(unused_plural_form("he", MsgKey::CountMovesFew));
        assert!(!unused_plural_form("ko", MsgKey::ClockTurn));
    }

    #[test]
    fn file_errors_name_the_key_and_what_is_allowed_never_a_type() {
        // Issue 13: "data did not match any variant of untagged enum
        // RawWord" and the like.
        let good = minimal("");
        for (broken, key, allowed) in [
            (good.replace("c = \"c\"", "c = 5"), "files.c", "display"),
            (
                good.replace("c = \"c\"", "c = { display = 3 }"),
                "files.c",
                "display",
            ),
            (
                good.replace("c = \"c\"", "c = { shown = \"c\" }"),
                "files.c.shown",
                "display, spoken, accept",
            ),
            (good.replace("code = \"t\"", "code = []"), "meta.code", "\""),
            (good.replace("[pieces]", "[piece]"), "piece", "meta, files"),
            (
                good.replace("language = \"en\"", "language = \"en\"\ndirection = \"up\""),
                "meta.direction",
                "rtl",
            ),
            (minimal("ignore = \"x\""), "words.ignore", "[\""),
            (good.replace("[ranks]", "ranks = 3\n[x]"), "", ""),
        ] {
            let err = Locale::from_toml("t.toml", &broken).unwrap_err();
            let text = err.to_string();
            assert!(text.starts_with("t.toml"), "{text}");
            if !key.is_empty() {
                assert!(text.contains(&format!(": {key}:")), "{key}: {text}");
                assert!(text.contains(allowed), "{key}: {text}");
            }
            for bad in ["Raw", "untagged", "invalid type", "locale."] {
                assert!(!text.contains(bad), "{text}");
            }
        }
        let err = Locale::from_toml("t.toml", "[meta]\ncode = \"t\n").unwrap_err();
        assert_eq!(
            err,
            LocaleError::Syntax {
                file: "t.toml".into(),
                line: 2,
                column: 10
            }
        );
        assert!(err.to_string().contains('2'), "{err}");
    }

    #[test]
    fn a_file_with_the_base_code_is_completed_and_placeholders_are_checked() {
        // Issue 13: a locale file with code "en" and messages left out
        // showed raw keys such as parse.not_understood.
        let mine = minimal("").replace("code = \"t\"", "code = \"en\"");
        let l = from_file_text("mine.toml", &mine).unwrap();
        let en = builtin("en").unwrap();
        assert!(l.missing_messages().is_empty());
        assert_eq!(
            l.message(MsgKey::ParseEmpty, &[]),
            en.message(MsgKey::ParseEmpty, &[])
        );
        // A placeholder that is never filled in is refused by name.
        let typo = minimal("[messages]\n\"parse.empty\" = \"Nothing, try {exmple}\"");
        let err = from_file_text("mine.toml", &typo).unwrap_err();
        assert!(
            matches!(&err, LocaleError::Invalid { key, problem: LocaleProblem::UnknownPlaceholder { name, allowed }, .. }
                if key == "messages.parse.empty" && name == "exmple" && allowed == "example"),
            "{err:?}"
        );
        let text = err.to_string();
        assert!(
            text.contains("exmple") && text.contains("example"),
            "{text}"
        );
        let ok = minimal("[messages]\n\"parse.empty\" = \"Nothing: try {example}\"");
        assert!(from_file_text("mine.toml", &ok).is_ok());
        // A choice by number needs known categories and `other`; the name it
        // reads is checked like any placeholder.
        let choice = |c: &str| minimal(&format!("[messages]\n\"clock.moves\" = \"{c}\""));
        let err = from_file_text("mine.toml", &choice("{moves|one:a|few:b}")).unwrap_err();
        assert!(
            matches!(&err, LocaleError::Invalid { key, problem: LocaleProblem::BadChoice { choice }, .. }
                if key == "messages.clock.moves" && choice == "{moves|…|other:…}"),
            "{err:?}"
        );
        assert!(err.to_string().contains("{moves|…|other:…}"), "{err}");
        // Choices nested without end (a hostile file) are refused in one line,
        // never a crash.
        let deep = format!("{}x{}", "{moves|other:".repeat(50_000), "}".repeat(50_000));
        let err = from_file_text("mine.toml", &choice(&deep)).unwrap_err();
        assert!(
            matches!(
                &err,
                LocaleError::Invalid {
                    problem: LocaleProblem::BadChoice { .. },
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(err.to_string().lines().count() == 1, "{err}");
        let err = from_file_text("mine.toml", &choice("{mvs|one:a|other:b}")).unwrap_err();
        assert!(
            matches!(&err, LocaleError::Invalid { problem: LocaleProblem::UnknownPlaceholder { name, .. }, .. } if name == "mvs"),
            "{err:?}"
        );
        let ok = from_file_text(
            "mine.toml",
            &choice("{side}: {moves|one:one move|other:{moves}}"),
        )
        .unwrap();
        assert_eq!(
            ok.message(MsgKey::ClockMoves, &[("side", "W"), ("moves", "1")]),
            "W: one move"
        );
        assert_eq!(
            ok.message(MsgKey::ClockMoves, &[("side", "W"), ("moves", "7")]),
            "W: 7"
        );
        // A fallback that does not exist names the file given.
        let err = from_file_text(
            "mine.toml",
            &mine.replace("language = \"en\"", "language = \"en\"\nfallback = \"xx\""),
        )
        .unwrap_err();
        assert!(
            err.to_string().starts_with("mine.toml: meta.fallback:"),
            "{err}"
        );
    }

    /// A user's locale that takes its messages from Polish, Greek or
    /// Arabic (`{side:gen}`, `{side:li}`: a name in a grammatical case) was
    /// refused: "'side:gen' in braces is never filled in".
    #[test]
    fn a_user_locale_may_take_its_messages_from_any_built_in_locale() {
        for code in builtin_codes() {
            let mine = minimal("").replace(
                "language = \"en\"",
                &format!("language = \"en\"\nfallback = \"{code}\""),
            );
            let l = from_file_text("mine.toml", &mine);
            assert!(l.is_ok(), "{code}: {l:?}");
        }
        // A case of a name that is given is one; of an unknown one, not.
        let ok = minimal("[messages]\n\"game.clock.flag_fallen\" = \"{side:gen}\"");
        assert!(from_file_text("mine.toml", &ok).is_ok());
        let typo = minimal("[messages]\n\"game.clock.flag_fallen\" = \"{sid:gen}\"");
        assert!(from_file_text("mine.toml", &typo).is_err());
    }

    #[test]
    fn every_locale_problem_is_worded_in_every_locale() {
        use LocaleProblem as P;
        let problems = [
            P::Missing,
            P::UnknownKey {
                allowed: "a, b".into(),
            },
            P::ExpectedText,
            P::ExpectedWord,
            P::ExpectedList,
            P::ExpectedTable,
            P::ExpectedDirection,
            P::EmptySpelling,
            P::NotLetters,
            P::NotParticle {
                particle: "을".into(),
            },
            P::EightFiles { found: 3 },
            P::NotOneLetter {
                letter: "xy".into(),
            },
            P::FoldKey,
            P::UnknownMessage,
            P::BadCode,
            P::Duplicate {
                form: "f".into(),
                other: "files.a".into(),
            },
            P::IgnoredDuplicate {
                form: "f".into(),
                other: "files.a".into(),
            },
            P::NoBuiltin {
                code: "xx".into(),
                known: "en".into(),
            },
            P::UnknownPlaceholder {
                name: "n".into(),
                allowed: "a".into(),
            },
            P::UnknownPlaceholder {
                name: "n".into(),
                allowed: String::new(),
            },
        ];
        for code in builtin_codes() {
            let l = builtin(code).unwrap();
            for p in &problems {
                let e = LocaleError::Invalid {
                    file: "f.toml".into(),
                    key: "k.k".into(),
                    problem: p.clone(),
                };
                let text = e.describe(&l);
                assert!(
                    text.contains("f.toml") && text.contains("k.k"),
                    "{code}: {text}"
                );
                assert!(!text.contains("locale."), "{code}: {text}");
            }
        }
    }
}

#[cfg(test)]
mod grammar_tests {
    use super::*;

    fn ko() -> Vec<String> {
        [
            "을(를)",
            "은(는)",
            "이(가)",
            "과(와)",
            "으로(로)",
            "이라고(라고)",
        ]
        .map(String::from)
        .to_vec()
    }

    #[test]
    fn korean_particles_follow_the_sound_before_them() {
        let p = ko();
        for (text, want) in [
            ("흑은(는) 둡니다", "흑은 둡니다"),
            ("백이(가) 눌렀습니다", "백이 눌렀습니다"),
            ("e4을(를) 두세요", "e4를 두세요"),
            ("Nf3을(를) 두세요", "Nf3을 두세요"),
            ("59초을(를) 뺐습니다", "59초를 뺐습니다"),
            ("5초이(가) 추가", "5초가 추가"),
            ("2분이(가) 추가", "2분이 추가"),
            ("10초이(가)", "10초가"),
            ("10이(가)", "10이"),
            ("e3으로(로)", "e3으로"),
            ("e1으로(로)", "e1로"),
            ("e4으로(로)", "e4로"),
            ("서울으로(로)", "서울로"),
            ("'비숍'이라고(라고)", "'비숍'이라고"),
            ("'나이트'이라고(라고)", "'나이트'라고"),
            ("폰과(와) 룩", "폰과 룩"),
            ("룩과(와) 폰", "룩과 폰"),
            ("비숍과(와)", "비숍과"),
            ("퀸과(와)", "퀸과"),
            ("나이트과(와)", "나이트와"),
            ("Rm이(가)", "Rm이"),
        ] {
            assert_eq!(choose_particles(text, &p), want, "{text}");
        }
        // Text that only looks like a particle stays.
        assert_eq!(choose_particles("(이미지)", &p), "(이미지)");
    }

    #[test]
    fn decimals_take_the_locales_separator() {
        let tenths = |code: &str, n: u64| builtin(code).unwrap().tenths(n);
        assert_eq!(tenths("en", 15), "1.5");
        assert_eq!(tenths("de", 15), "1,5");
        assert_eq!(tenths("fide", 123), "12,3");
        assert_eq!(tenths("pl", 5), "0,5");
        assert_eq!(tenths("el", 20), "2,0");
        assert_eq!(tenths("ko", 15), "1.5");
    }

    #[test]
    fn cases_come_from_the_locale_data() {
        let mut locale = builtin("pl").unwrap();
        locale.cases = BTreeMap::from([(
            "gen".to_owned(),
            BTreeMap::from([("Białe".to_owned(), "Białych".to_owned())]),
        )]);
        let args = [("side", "Białe"), ("other", "Czarne")];
        assert_eq!(
            crate::template::fill(
                "Reklamacja {side:gen}, {other:gen}, {side}, {x:gen}",
                &args,
                &locale
            ),
            "Reklamacja Białych, Czarne, Białe, {x:gen}"
        );
    }

    #[test]
    fn the_number_a_value_carries_is_read_from_the_locales_own_forms() {
        use crate::template::Grammar;
        let pl = builtin("pl").unwrap();
        let one = |stem: PluralStem| pl.message(stem.form(PluralCategory::One), &[("n", "1")]);
        let few = |stem: PluralStem| pl.message(stem.form(PluralCategory::Few), &[("n", "3")]);
        let many = |stem: PluralStem| pl.message(stem.form(PluralCategory::Many), &[("n", "5")]);
        for stem in PluralStem::ALL {
            assert_eq!(pl.category_of(&one(*stem)), PluralCategory::One, "{stem:?}");
            assert_eq!(pl.category_of(&few(*stem)), PluralCategory::Few, "{stem:?}");
            assert_eq!(
                pl.category_of(&many(*stem)),
                PluralCategory::Many,
                "{stem:?}"
            );
        }
        assert_eq!(pl.category_of("22"), PluralCategory::Few);
        assert_eq!(pl.category_of("12"), PluralCategory::Many);
        assert_eq!(pl.category_of("Białe"), PluralCategory::Other);
        // Number words of [numbers] count too (Hebrew "שתיים" is two).
        let he = builtin("he").unwrap();
        assert_eq!(he.category_of("שתיים"), PluralCategory::Two);
        assert_eq!(he.category_of("\u{2067}אחת\u{2069}"), PluralCategory::One);
        assert_eq!(he.category_of("ארבעים"), PluralCategory::Other);
    }

    #[test]
    fn no_built_in_message_keeps_a_written_particle_pair_or_an_unknown_case() {
        let mut problems = Vec::new();
        for code in builtin_codes() {
            let l = builtin(code).unwrap();
            for &key in MsgKey::ALL {
                let text = l.message(key, &[]);
                for pair in [
                    "을(를)",
                    "를(을)",
                    "은(는)",
                    "는(은)",
                    "이(가)",
                    "가(이)",
                    "과(와)",
                    "(으)로",
                    "(이)라고",
                ] {
                    if text.contains(pair) && key != MsgKey::LocaleNotParticle {
                        problems.push(format!("{code} {key}: {pair}"));
                    }
                }
                let template = l.messages.get(&key).map(String::as_str).unwrap_or("");
                for p in crate::template::placeholders(template) {
                    if let crate::template::Placeholder::Value {
                        case: Some(case), ..
                    } = p
                        && !l.cases.contains_key(case)
                    {
                        problems.push(format!("{code} {key}: no [cases.{case}]"));
                    }
                }
                if let Some(choice) = crate::template::select_problem(template) {
                    problems.push(format!("{code} {key}: choice {choice}"));
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn a_bad_particle_is_refused_in_one_line() {
        let text = include_str!("../../../locales/ko.toml")
            .replace("particles = [\"을(를)\"", "particles = [\"을\"");
        let e = Locale::from_toml("ko.toml", &text).unwrap_err();
        assert!(e.to_string().contains("grammar.particles"), "{e}");
    }
}
