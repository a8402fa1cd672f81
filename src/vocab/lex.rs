//! Turning a phrase into tokens: words of the locale's dictionary (matched
//! after normalization, longest phrase first) and compact notation such as
//! `Nf3`, `exd5`, `e8=Q`, `O-O`, `g1f3`, `g1-f3` or German `Sf3`.

use rustc_hash::FxHashMap;

use shakmaty::{CastlingSide, File, Rank, Role, Square};

use crate::locale::Locale;

/// One unit of meaning in a move phrase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Token {
    /// A piece name or letter.
    Piece(Role),
    /// A file (Anna … Hector, a … h).
    File(File),
    /// A rank (eins … acht, 1 … 8).
    Rank(Rank),
    /// A square, from compact notation or a file followed by a rank.
    Square(Square),
    /// "schlägt", "takes", `x`, `:`.
    Capture,
    /// "Schach", `+`.
    Check,
    /// "Matt", `#`.
    Mate,
    /// "en passant", `e.p.`.
    EnPassant,
    /// "Umwandlung in", `=`.
    Promotion,
    /// "Kurze Rochade", "Lange Rochade", `O-O`, `O-O-O`.
    Castle(CastlingSide),
    /// A connector between from-square and to-square ("nach", `-`).
    To,
}

/// The locale's words compiled for fast lookup.
#[derive(Debug, Clone)]
pub struct Dictionary {
    /// Normalized phrase (words joined by one space) → its meaning; `None`
    /// marks filler words that are accepted and ignored.
    phrases: FxHashMap<Box<str>, Option<Token>>,
    /// The longest phrase, in words.
    max_words: usize,
    /// Notation letters: (letter as written, role), longest first.
    piece_letters: Vec<(String, Role)>,
    /// National file letters, if the locale has them.
    file_letters: Option<[char; 8]>,
    fold: Vec<(char, String)>,
}

/// Standard (English) letters of algebraic notation, accepted in every
/// locale unless the locale gives the letter another meaning.
const STANDARD_LETTERS: [(&str, Role); 5] = [
    ("K", Role::King),
    ("Q", Role::Queen),
    ("R", Role::Rook),
    ("B", Role::Bishop),
    ("N", Role::Knight),
];

impl Dictionary {
    /// Compiles the words of `locale`.
    pub fn new(locale: &Locale) -> Dictionary {
        let mut phrases = FxHashMap::default();
        let mut max_words = 1;
        let mut add = |form: &str, token: Option<Token>| {
            let norm = locale.normalize(form);
            let key = norm.split_whitespace().collect::<Vec<_>>().join(" ");
            if key.is_empty() {
                return;
            }
            max_words = max_words.max(key.split(' ').count());
            phrases.entry(key.into_boxed_str()).or_insert(token);
        };
        for file in File::ALL {
            for form in &locale.file(file).accept {
                add(form, Some(Token::File(file)));
            }
        }
        for rank in Rank::ALL {
            for form in &locale.rank(rank).accept {
                add(form, Some(Token::Rank(rank)));
            }
        }
        for role in Role::ALL {
            for form in &locale.piece(role).accept {
                add(form, Some(Token::Piece(role)));
            }
        }
        let w = &locale.words;
        for (word, token) in [
            (&w.capture, Token::Capture),
            (&w.check, Token::Check),
            (&w.mate, Token::Mate),
            (&w.en_passant, Token::EnPassant),
            (&w.promotion, Token::Promotion),
            (&w.castle_short, Token::Castle(CastlingSide::KingSide)),
            (&w.castle_long, Token::Castle(CastlingSide::QueenSide)),
        ] {
            for form in &word.accept {
                add(form, Some(token));
            }
        }
        if let Some(to) = &w.to {
            for form in &to.accept {
                add(form, Some(Token::To));
            }
        }
        for form in &w.ignore {
            add(form, None);
        }
        let mut piece_letters: Vec<(String, Role)> = locale
            .notation
            .pieces
            .iter()
            .map(|(role, letter)| (letter.clone(), *role))
            .collect();
        for (letter, role) in STANDARD_LETTERS {
            if !piece_letters.iter().any(|(l, _)| l == letter) {
                piece_letters.push((letter.to_owned(), role));
            }
        }
        piece_letters.sort_by(|a, b| b.0.chars().count().cmp(&a.0.chars().count()));
        let file_letters = locale.notation.files.as_ref().map(|files| {
            let mut out = ['a'; 8];
            for (slot, letter) in out.iter_mut().zip(files) {
                *slot = letter
                    .chars()
                    .next()
                    .map(|c| c.to_lowercase().next().unwrap_or(c))
                    .unwrap_or('a');
            }
            out
        });
        Dictionary {
            phrases,
            max_words,
            piece_letters,
            file_letters,
            fold: locale.fold.clone(),
        }
    }

    /// Splits `phrase` into alternatives of token sequences. Each word is
    /// looked up in the dictionary (longest phrase first), else read as
    /// compact notation. Words that are neither are returned as unknown, in
    /// their original spelling.
    pub fn tokenize(&self, phrase: &str) -> Lexed {
        // Raw words and their normalized forms, the latter joined by single
        // spaces in one buffer so that a run of words is one slice of it.
        let is_sep = |c: char| c.is_whitespace() || c == ',' || c == ';';
        let mut raw: Vec<&str> = Vec::with_capacity(8);
        let mut spans: Vec<(usize, usize)> = Vec::with_capacity(8);
        let mut norm = String::with_capacity(phrase.len() + 8);
        for word in phrase.split(is_sep).filter(|w| !w.is_empty()) {
            let mark = norm.len();
            if !norm.is_empty() {
                norm.push(' ');
            }
            let start = norm.len();
            crate::locale::normalize_into(&self.fold, word, &mut norm);
            if norm.len() == start {
                // Only invisible characters: not a word.
                norm.truncate(mark);
                continue;
            }
            raw.push(word);
            spans.push((start, norm.len()));
        }
        let mut alternatives: Vec<Vec<Token>> = vec![Vec::with_capacity(8)];
        let mut unknown = Vec::new();
        let mut i = 0;
        while i < raw.len() {
            // Longest dictionary phrase starting here.
            let mut matched = None;
            for n in (1..=self.max_words.min(raw.len() - i)).rev() {
                let key = &norm[spans[i].0..spans[i + n - 1].1];
                let hit = self.phrases.get(key).or_else(|| {
                    // Allow trailing punctuation on the last word ("Matt!").
                    let trimmed = key.trim_end_matches(['.', '!', '?', ':']);
                    (trimmed.len() != key.len())
                        .then(|| self.phrases.get(trimmed))
                        .flatten()
                });
                if let Some(meaning) = hit {
                    matched = Some((n, *meaning));
                    break;
                }
            }
            if let Some((n, meaning)) = matched {
                if let Some(token) = meaning {
                    for alt in &mut alternatives {
                        alt.push(token);
                    }
                }
                i += n;
                continue;
            }
            let compact = self.lex_compact(raw[i]);
            if compact.is_empty() {
                unknown.push(raw[i].to_owned());
            } else if compact.len() == 1 {
                for alt in &mut alternatives {
                    alt.extend_from_slice(&compact[0]);
                }
            } else {
                let mut next = Vec::new();
                for alt in &alternatives {
                    for c in &compact {
                        if next.len() >= MAX_ALTERNATIVES {
                            break;
                        }
                        let mut a = alt.clone();
                        a.extend_from_slice(c);
                        next.push(a);
                    }
                }
                alternatives = next;
            }
            i += 1;
        }
        for alt in &mut alternatives {
            pair_squares(alt);
        }
        Lexed {
            alternatives,
            unknown,
            words: raw.len(),
        }
    }

    fn file_of(&self, c: char) -> Option<File> {
        let lower = c.to_lowercase().next().unwrap_or(c);
        if let Some(letters) = &self.file_letters {
            if let Some(i) = letters.iter().position(|l| *l == lower) {
                return Some(File::new(i as u32));
            }
        }
        match lower {
            'a'..='h' => Some(File::new(lower as u32 - 'a' as u32)),
            _ => None,
        }
    }

    /// Piece letters that `rest` starts with (case-insensitive), as (role,
    /// length in bytes, written in upper case?).
    fn piece_at(&self, rest: &str) -> Option<(Role, usize, bool)> {
        for (letter, role) in &self.piece_letters {
            let n = letter.len();
            if rest.len() >= n && rest.is_char_boundary(n) {
                let head = &rest[..n];
                if head == letter {
                    return Some((*role, n, true));
                }
                if head.to_lowercase() == letter.to_lowercase() {
                    return Some((*role, n, false));
                }
            }
        }
        None
    }

    /// Reads one word of compact notation. Returns every way to read it
    /// (usually one; a lower-case letter that is both a file and a piece
    /// letter at the start of a word gives two), or none.
    fn lex_compact(&self, word: &str) -> Vec<Vec<Token>> {
        let w = word.trim_end_matches(['!', '?']);
        if w.is_empty() {
            return Vec::new();
        }
        let castle_form = w.trim_end_matches(['+', '#']).to_ascii_lowercase();
        let castle_form = castle_form.replace('0', "o").replace('-', "");
        if castle_form == "oo" {
            return vec![suffix_tokens(w, Token::Castle(CastlingSide::KingSide))];
        }
        if castle_form == "ooo" {
            return vec![suffix_tokens(w, Token::Castle(CastlingSide::QueenSide))];
        }
        let mut out = Vec::new();
        self.lex_at(w, 0, &mut Vec::new(), &mut out);
        out
    }

    fn lex_at(&self, w: &str, pos: usize, prefix: &mut Vec<Token>, out: &mut Vec<Vec<Token>>) {
        if out.len() >= MAX_ALTERNATIVES {
            return;
        }
        let rest = &w[pos..];
        if rest.is_empty() {
            out.push(prefix.clone());
            return;
        }
        for (token, len) in self.readings_at(rest, pos == 0) {
            prefix.push(token);
            self.lex_at(w, pos + len, prefix, out);
            prefix.pop();
        }
    }

    /// The ways the start of `rest` can be read, with the bytes each takes.
    fn readings_at(&self, rest: &str, first: bool) -> Vec<(Token, usize)> {
        let Some(c) = rest.chars().next() else {
            return Vec::new();
        };
        let clen = c.len_utf8();
        if rest.starts_with("e.p.") {
            return vec![(Token::EnPassant, 4)];
        }
        if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
            return vec![(Token::Rank(Rank::new(d - 1)), 1)];
        }
        match c {
            'x' | 'X' | ':' | '×' => return vec![(Token::Capture, clen)],
            '-' | '–' => return vec![(Token::To, clen)],
            '=' | '/' => return vec![(Token::Promotion, clen)],
            '+' => return vec![(Token::Check, 1)],
            '#' => return vec![(Token::Mate, 1)],
            _ => {}
        }
        match (self.piece_at(rest), self.file_of(c)) {
            // Written exactly as the piece letter (upper case): a piece.
            (Some((role, n, true)), _) => vec![(Token::Piece(role), n)],
            // A lower-case letter that is both: a file, and at the start of
            // a word possibly a piece (`bxc4`, `nf3`).
            (Some((role, n, false)), Some(f)) => {
                if first && c.is_lowercase() {
                    vec![(Token::File(f), clen), (Token::Piece(role), n)]
                } else {
                    vec![(Token::File(f), clen)]
                }
            }
            (Some((role, n, false)), None) => vec![(Token::Piece(role), n)],
            (None, Some(f)) => vec![(Token::File(f), clen)],
            (None, None) => Vec::new(),
        }
    }
}

fn suffix_tokens(w: &str, castle: Token) -> Vec<Token> {
    let mut v = vec![castle];
    if w.ends_with('#') {
        v.push(Token::Mate);
    } else if w.ends_with('+') {
        v.push(Token::Check);
    }
    v
}

/// Caps the number of readings of one phrase.
const MAX_ALTERNATIVES: usize = 16;

/// A file immediately followed by a rank is a square (in place).
fn pair_squares(tokens: &mut Vec<Token>) {
    let (mut read, mut write) = (0, 0);
    while read < tokens.len() {
        match (tokens[read], tokens.get(read + 1)) {
            (Token::File(f), Some(&Token::Rank(r))) => {
                tokens[write] = Token::Square(Square::from_coords(f, r));
                read += 2;
            }
            (t, _) => {
                tokens[write] = t;
                read += 1;
            }
        }
        write += 1;
    }
    tokens.truncate(write);
}

/// The result of [`Dictionary::tokenize`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lexed {
    /// Every reading of the phrase (at least one; empty when nothing was
    /// understood).
    pub alternatives: Vec<Vec<Token>>,
    /// Words that are neither in the dictionary nor notation.
    pub unknown: Vec<String>,
    /// How many words the phrase had.
    pub words: usize,
}
