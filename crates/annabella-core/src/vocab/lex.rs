//! Turning a phrase into tokens: words of the locale's dictionary (matched
//! after normalization, longest phrase first) and compact notation such as
//! `Nf3`, `exd5`, `e8=Q`, `O-O`, `g1f3`, `g1-f3` or German `Sf3`.

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

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
    /// Normalized phrase (words joined by one space) → its entry.
    phrases: FxHashMap<Box<str>, Entry>,
    /// The same phrases exactly as the locale writes them (display, spoken
    /// and accepted spellings), so that canonical input — above all the
    /// announcements themselves — needs no normalization.
    exact: FxHashMap<Box<str>, Entry>,
    /// Notation letters: (letter as written, role), longest first.
    piece_letters: Vec<(String, Role)>,
    /// National file letters, if the locale has them.
    file_letters: Option<[char; 8]>,
    fold: Vec<(char, String)>,
}

/// What the dictionary knows about a normalized phrase.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    /// The phrase is a word of the locale: `Some(None)` for filler words
    /// that are accepted and ignored, `Some(Some(token))` for a meaning.
    meaning: Option<Option<Token>>,
    /// Length in words of the longest phrase that starts with this one
    /// (only kept on single words), so that longer look-ups are tried only
    /// where they can succeed.
    longest: u8,
}

/// Byte ranges of the words of a phrase in a text.
type Spans = SmallVec<[(usize, usize); 12]>;

/// A phrase's tokens: kept on the stack for ordinary phrases.
pub type Tokens = SmallVec<[Token; 12]>;

/// Standard (English) letters of algebraic notation, accepted in every
/// locale unless the locale gives the letter another meaning.
const STANDARD_LETTERS: [(&str, Role); 5] = [
    ("K", Role::King),
    ("Q", Role::Queen),
    ("R", Role::Rook),
    ("B", Role::Bishop),
    ("N", Role::Knight),
];

/// One accepted spelling of a locale: where it is written (`files.b`,
/// `words.ignore`, `notation` for the squares of notation), the text, and
/// what it means (`None` for a word that is accepted and ignored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocaleForm {
    /// The dotted key of the locale file (or `notation`).
    pub key: String,
    /// The spelling as written.
    pub text: String,
    /// Its meaning.
    pub token: Option<Token>,
}

/// Every spelling the dictionary knows, in the order it takes them (the
/// first meaning of a spelling wins): files, ranks, pieces, move words,
/// ignored words, then the squares of notation (`f3`, national `ζ3`).
pub fn locale_forms(locale: &Locale) -> Vec<LocaleForm> {
    let mut out = Vec::new();
    let mut push = |key: String, text: &str, token: Option<Token>| {
        out.push(LocaleForm {
            key,
            text: text.to_owned(),
            token,
        });
    };
    for file in File::ALL {
        for form in &locale.file(file).accept {
            push(
                format!("files.{}", file.char()),
                form,
                Some(Token::File(file)),
            );
        }
    }
    for rank in Rank::ALL {
        for form in &locale.rank(rank).accept {
            push(
                format!("ranks.{}", rank.char()),
                form,
                Some(Token::Rank(rank)),
            );
        }
    }
    for role in Role::ALL {
        for form in &locale.piece(role).accept {
            let key = format!("pieces.{}", crate::locale::role_key(role));
            push(key, form, Some(Token::Piece(role)));
        }
    }
    let w = &locale.words;
    for (key, word, token) in [
        ("capture", &w.capture, Token::Capture),
        ("check", &w.check, Token::Check),
        ("mate", &w.mate, Token::Mate),
        ("en_passant", &w.en_passant, Token::EnPassant),
        ("promotion", &w.promotion, Token::Promotion),
        (
            "castle_short",
            &w.castle_short,
            Token::Castle(CastlingSide::KingSide),
        ),
        (
            "castle_long",
            &w.castle_long,
            Token::Castle(CastlingSide::QueenSide),
        ),
    ] {
        for form in &word.accept {
            push(format!("words.{key}"), form, Some(token));
        }
    }
    if let Some(to) = &w.to {
        for form in &to.accept {
            push("words.to".to_owned(), form, Some(Token::To));
        }
    }
    for form in &w.ignore {
        push("words.ignore".to_owned(), form, None);
    }
    let national = locale.notation.files.clone();
    for file in File::ALL {
        for rank in Rank::ALL {
            let sq = Some(Token::Square(Square::from_coords(file, rank)));
            push(
                "notation".to_owned(),
                &format!("{}{}", file.char(), rank.char()),
                sq,
            );
            if let Some(letters) = &national {
                let text = format!("{}{}", letters[usize::from(file)], rank.char());
                push("notation.files".to_owned(), &text, sq);
            }
        }
    }
    out
}

/// The piece letters of notation the reader accepts, as (letter, role,
/// key): the letters boards and scoresheets show (`notation.ROLE`, else the
/// first letter of the piece's word, `pieces.ROLE`), then the standard
/// letters K Q R B N the locale does not use (`notation.ROLE`).
pub fn letters(locale: &Locale) -> Vec<(String, Role, String)> {
    let mut out: Vec<(String, Role, String)> = Role::ALL
        .into_iter()
        .filter(|r| *r != Role::Pawn)
        .map(|role| {
            let own = locale.notation.pieces.iter().any(|(r, _)| *r == role);
            let section = if own { "notation" } else { "pieces" };
            let key = format!("{section}.{}", crate::locale::role_key(role));
            (locale.piece_letter(role), role, key)
        })
        .collect();
    for (letter, role) in STANDARD_LETTERS {
        if !out.iter().any(|(l, _, _)| l == letter) {
            let key = format!("notation.{}", crate::locale::role_key(role));
            out.push((letter.to_owned(), role, key));
        }
    }
    out
}

impl Dictionary {
    /// Compiles the words of `locale`.
    pub fn new(locale: &Locale) -> Dictionary {
        let mut phrases: FxHashMap<Box<str>, Entry> = FxHashMap::default();
        let mut exact: FxHashMap<Box<str>, Entry> = FxHashMap::default();
        let mut add = |form: &str, token: Option<Token>| {
            fn insert(map: &mut FxHashMap<Box<str>, Entry>, words: &[&str], token: Option<Token>) {
                let Some(first) = words.first() else { return };
                let n = u8::try_from(words.len()).unwrap_or(u8::MAX);
                let entry = map.entry(words.join(" ").into_boxed_str()).or_default();
                if entry.meaning.is_none() {
                    entry.meaning = Some(token);
                }
                let head = map.entry((*first).into()).or_default();
                head.longest = head.longest.max(n);
            }
            let norm = locale.normalize(form);
            insert(
                &mut phrases,
                &norm.split_whitespace().collect::<Vec<_>>(),
                token,
            );
            insert(
                &mut exact,
                &form.split_whitespace().collect::<Vec<_>>(),
                token,
            );
        };
        for form in locale_forms(locale) {
            add(&form.text, form.token);
        }
        let mut piece_letters: Vec<(String, Role)> = letters(locale)
            .into_iter()
            .map(|(letter, role, _)| (letter, role))
            .collect();
        piece_letters.sort_by_key(|(letter, _)| std::cmp::Reverse(letter.chars().count()));
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
            exact,
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
        let is_sep = crate::input::is_word_separator;
        let mut raw: SmallVec<[&str; 12]> = SmallVec::new();
        let mut raw_spans: SmallVec<[(usize, usize); 12]> = SmallVec::new();
        for word in phrase.split(is_sep).filter(|w| !w.is_empty()) {
            let start = word.as_ptr() as usize - phrase.as_ptr() as usize;
            raw.push(word);
            raw_spans.push((start, start + word.len()));
        }
        // Normalized words, made only when a word is not written exactly as
        // the locale writes it: joined by single spaces in one buffer, so
        // that a run of words is one slice of it. An empty span is a word of
        // invisible characters only.
        let mut normalized: Option<(String, Spans)> = None;
        // Tokens every reading has, and the words read in several ways:
        // (where in `common` they go, their readings). The readings of the
        // phrase are combined at the end, so the work stays linear in the
        // phrase however many words have several readings.
        let mut common = Tokens::new();
        let mut choices: Vec<(usize, Vec<Tokens>)> = Vec::new();
        let mut unknown = Vec::new();
        let mut words = 0;
        let mut i = 0;
        while i < raw.len() {
            let mut hit = None;
            if let Some(role) = self.piece_letter_word(raw[i]) {
                hit = Some((1, Some(Token::Piece(role))));
            }
            if hit.is_none() {
                hit = Self::lookup_in(&self.exact, phrase, &raw_spans[i..], true);
            }
            if hit.is_none() {
                let (norm, spans) = normalized.get_or_insert_with(|| self.normalize_words(&raw));
                if spans[i].0 == spans[i].1 {
                    i += 1;
                    continue;
                }
                hit = Self::lookup_in(&self.phrases, norm, &spans[i..], false);
            }
            words += 1;
            if let Some((n, meaning)) = hit {
                if let Some(token) = meaning {
                    common.push(token);
                }
                i += n;
                continue;
            }
            let mut compact = self.lex_compact(raw[i]);
            if compact.is_empty() {
                unknown.push(raw[i].to_owned());
            } else if compact.len() == 1 {
                common.extend_from_slice(&compact[0]);
            } else {
                compact.truncate(MAX_ALTERNATIVES);
                choices.push((common.len(), compact));
            }
            i += 1;
        }
        let mut alternatives = combine(common, &choices);
        for alt in &mut alternatives {
            pair_squares(alt);
        }
        Lexed {
            alternatives,
            unknown,
            words,
        }
    }

    fn normalize_words(&self, raw: &[&str]) -> (String, Spans) {
        let mut norm = String::with_capacity(raw.iter().map(|w| w.len() + 1).sum());
        let mut spans = SmallVec::new();
        for word in raw {
            if !norm.is_empty() {
                norm.push(' ');
            }
            let start = norm.len();
            crate::locale::normalize_into(&self.fold, word, &mut norm);
            if norm.len() == start && start > 0 {
                // Keep the buffer free of double spaces.
                norm.pop();
                spans.push((norm.len(), norm.len()));
            } else {
                spans.push((start, norm.len()));
            }
        }
        (norm, spans)
    }

    /// The longest phrase of `map` at the start of `spans` (words of
    /// `text`): how many words it takes and what it means. With `strict`
    /// (exact spellings), a word that also starts a longer phrase counts only
    /// when that longer phrase is written exactly too; otherwise the
    /// normalized look-up decides, so "Umwandlung IN" still finds
    /// "umwandlung in".
    fn lookup_in(
        map: &FxHashMap<Box<str>, Entry>,
        text: &str,
        spans: &[(usize, usize)],
        strict: bool,
    ) -> Option<(usize, Option<Token>)> {
        let first = &text[spans[0].0..spans[0].1];
        let entry = match map.get(first) {
            Some(e) => *e,
            None if strict => return None,
            None => {
                // Allow trailing punctuation on a single word ("Matt!").
                let trimmed = first.trim_end_matches(['.', '!', '?', ':']);
                if trimmed.len() == first.len() || trimmed.is_empty() {
                    return None;
                }
                return map.get(trimmed).and_then(|e| e.meaning).map(|m| (1, m));
            }
        };
        let longest = usize::from(entry.longest).min(spans.len());
        for n in (2..=longest).rev() {
            let key = &text[spans[0].0..spans[n - 1].1];
            let hit = map.get(key).and_then(|e| e.meaning).or_else(|| {
                if strict {
                    return None;
                }
                let trimmed = key.trim_end_matches(['.', '!', '?', ':']);
                (trimmed.len() != key.len())
                    .then(|| map.get(trimmed).and_then(|e| e.meaning))
                    .flatten()
            });
            if let Some(meaning) = hit {
                return Some((n, meaning));
            }
        }
        if strict && entry.longest > 1 {
            return None;
        }
        entry.meaning.map(|m| (1, m))
    }

    fn file_of(&self, c: char) -> Option<File> {
        let lower = c.to_lowercase().next().unwrap_or(c);
        if let Some(i) = self
            .file_letters
            .as_ref()
            .and_then(|letters| letters.iter().position(|l| *l == lower))
        {
            return Some(File::new(i as u32));
        }
        match lower {
            'a'..='h' => Some(File::new(lower as u32 - 'a' as u32)),
            _ => None,
        }
    }

    /// Piece letters that `rest` starts with (case-insensitive), as (role,
    /// length in bytes, written exactly as the letter?), longest first.
    /// Several can match (Hebrew מ king and מה queen): each is a reading.
    fn pieces_at<'a>(&'a self, rest: &'a str) -> impl Iterator<Item = (Role, usize, bool)> + 'a {
        self.piece_letters.iter().filter_map(move |(letter, role)| {
            let n = letter.len();
            if rest.len() < n || !rest.is_char_boundary(n) {
                return None;
            }
            let head = &rest[..n];
            if head == letter {
                Some((*role, n, true))
            } else if head.to_lowercase() == letter.to_lowercase() {
                Some((*role, n, false))
            } else {
                None
            }
        })
    }

    /// A word that is exactly a piece letter of the notation, written as
    /// such (`B`, `S`, `Ι`, `מ`): the piece, not a file word.
    pub(crate) fn piece_letter_word(&self, word: &str) -> Option<Role> {
        if word.chars().any(char::is_lowercase) {
            return None;
        }
        self.piece_letters
            .iter()
            .find(|(letter, _)| letter == word)
            .map(|(_, role)| *role)
    }

    /// A single character read through the dictionary after folding
    /// (Arabic-Indic digits, a locale's capture letter such as Greek χ).
    fn char_via_dictionary(&self, c: char) -> Option<Token> {
        let mut buf = [0u8; 4];
        let norm = crate::locale::normalize_with(&self.fold, c.encode_utf8(&mut buf));
        if let Some(d) = norm.chars().next().and_then(|d| d.to_digit(10))
            && norm.chars().count() == 1
            && (1..=8).contains(&d)
        {
            return Some(Token::Rank(Rank::new(d - 1)));
        }
        match self.phrases.get(norm.as_str()).and_then(|e| e.meaning)? {
            Some(
                t @ (Token::Capture | Token::Check | Token::Mate | Token::Promotion | Token::To),
            ) => Some(t),
            _ => None,
        }
    }

    /// Reads one word of compact notation. Returns every way to read it
    /// (usually one; a letter of a caseless script that is both a file and
    /// a piece letter, or overlapping piece letters such as Hebrew מ and מה,
    /// give more), at most [`MAX_ALTERNATIVES`], or none.
    pub(crate) fn lex_compact(&self, word: &str) -> Vec<Tokens> {
        self.lex_compact_counted(word).0
    }

    /// [`Dictionary::lex_compact`], with the work it did: positions looked
    /// at plus tokens written. Dynamic programming over the positions of
    /// the word (which positions can be read to the end), then at most
    /// [`MAX_ALTERNATIVES`] readings taken depth-first along positions that
    /// lead to the end: the work is linear in the length of the word, and
    /// no recursion deepens with it.
    pub(crate) fn lex_compact_counted(&self, word: &str) -> (Vec<Tokens>, usize) {
        let w = word.trim_end_matches(['!', '?']);
        if w.is_empty() {
            return (Vec::new(), 0);
        }
        let castle_form = w.trim_end_matches(['+', '#']).to_ascii_lowercase();
        let castle_form = castle_form.replace('0', "o").replace('-', "");
        if castle_form == "oo" {
            return (
                vec![suffix_tokens(w, Token::Castle(CastlingSide::KingSide))],
                1,
            );
        }
        if castle_form == "ooo" {
            return (
                vec![suffix_tokens(w, Token::Castle(CastlingSide::QueenSide))],
                1,
            );
        }
        let n = w.len();
        let mut work = 0usize;
        // Readings at each byte position that can be reached from the start.
        let mut edges: Vec<Vec<(Token, usize)>> = vec![Vec::new(); n];
        let mut reached = vec![false; n + 1];
        reached[0] = true;
        let mut previous: Option<char> = None;
        for (pos, c) in w.char_indices() {
            if reached[pos] {
                work += 1;
                let mut readings = self.readings_at(&w[pos..]);
                self.add_promotion_letter(&w[pos..], previous, &mut readings);
                for &(_, len) in &readings {
                    reached[pos + len] = true;
                }
                edges[pos] = readings;
            }
            previous = Some(c);
        }
        // Which positions can be read to the end of the word.
        let mut ends = vec![false; n + 1];
        ends[n] = true;
        for pos in (0..n).rev() {
            ends[pos] = edges[pos].iter().any(|&(_, len)| ends[pos + len]);
        }
        let mut out = Vec::new();
        if !ends[0] {
            return (out, work);
        }
        // Depth first, in reading order, only along positions that lead to
        // the end: every step goes towards a complete reading.
        let mut prefix = Tokens::new();
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        while let Some(top) = stack.last_mut() {
            let (pos, next) = *top;
            if pos == n {
                work += prefix.len();
                out.push(prefix.clone());
                stack.pop();
                prefix.pop();
                if out.len() >= MAX_ALTERNATIVES {
                    break;
                }
                continue;
            }
            let found = edges[pos]
                .iter()
                .enumerate()
                .skip(next)
                .find(|(_, (_, len))| ends[pos + len]);
            match found {
                Some((i, &(token, len))) => {
                    work += 1;
                    top.1 = i + 1;
                    prefix.push(token);
                    stack.push((pos + len, 0));
                }
                None => {
                    stack.pop();
                    prefix.pop();
                }
            }
        }
        (out, work)
    }

    /// A piece letter that ends a word after a rank or `=` is also read as
    /// the promotion piece, even where it is a file letter too: `c7c8b`
    /// (UCI, bishop), `e7e8d` (German Dame), `e8=b`.
    fn add_promotion_letter(
        &self,
        rest: &str,
        previous: Option<char>,
        readings: &mut Vec<(Token, usize)>,
    ) {
        if !previous.is_some_and(|p| p.is_numeric() || p == '=' || p == '/') {
            return;
        }
        for (role, len, _) in self.pieces_at(rest) {
            if len == rest.len() && !readings.contains(&(Token::Piece(role), len)) {
                readings.push((Token::Piece(role), len));
            }
        }
    }

    /// The ways the start of `rest` can be read, with the bytes each takes.
    fn readings_at(&self, rest: &str) -> Vec<(Token, usize)> {
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
        let file = self.file_of(c);
        let mut out: Vec<(Token, usize)> = Vec::new();
        let mut exact_piece = false;
        for (role, n, exact) in self.pieces_at(rest) {
            if exact {
                exact_piece = true;
                out.push((Token::Piece(role), n));
            } else if file.is_none() {
                // A piece letter written in lower case that is no file
                // letter: a lazily typed piece (`nf3`). A lower-case file
                // letter stays a file, as in SAN (`dxe5`, `bxc4`).
                out.push((Token::Piece(role), n));
            }
        }
        if let Some(f) = file {
            // Written exactly as a piece letter in a cased script (`B`) it
            // is the piece; in a caseless script (Hebrew) both readings
            // stay, and legality decides.
            let cased = c.is_uppercase() || c.is_lowercase();
            if !(exact_piece && cased && c.is_uppercase()) {
                out.push((Token::File(f), clen));
            }
        }
        if out.is_empty()
            && let Some(t) = self.char_via_dictionary(c)
        {
            out.push((t, clen));
        }
        out
    }
}

fn suffix_tokens(w: &str, castle: Token) -> Tokens {
    let mut v = Tokens::new();
    v.push(castle);
    if w.ends_with('#') {
        v.push(Token::Mate);
    } else if w.ends_with('+') {
        v.push(Token::Check);
    }
    v
}

/// Caps the number of readings of one phrase.
const MAX_ALTERNATIVES: usize = 16;

/// The first [`MAX_ALTERNATIVES`] readings of a phrase, in the order of
/// its words' readings (the first word with several readings varies
/// slowest): `common` with one reading of each choice inserted at its
/// place. Each reading costs its length, so the work is linear.
fn combine(common: Tokens, choices: &[(usize, Vec<Tokens>)]) -> SmallVec<[Tokens; 1]> {
    let mut out: SmallVec<[Tokens; 1]> = SmallVec::new();
    if choices.is_empty() {
        out.push(common);
        return out;
    }
    let mut digits = vec![0usize; choices.len()];
    loop {
        let mut alt = Tokens::new();
        let mut at = 0;
        for ((place, readings), &d) in choices.iter().zip(&digits) {
            alt.extend_from_slice(&common[at..*place]);
            alt.extend_from_slice(&readings[d]);
            at = *place;
        }
        alt.extend_from_slice(&common[at..]);
        out.push(alt);
        if out.len() >= MAX_ALTERNATIVES {
            return out;
        }
        // The next combination: the last choice varies fastest.
        let mut k = choices.len();
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            digits[k] += 1;
            if digits[k] < choices[k].1.len() {
                break;
            }
            digits[k] = 0;
        }
    }
}

/// A file immediately followed by a rank is a square (in place).
pub(crate) fn pair_squares(tokens: &mut Tokens) {
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
    pub alternatives: SmallVec<[Tokens; 1]>,
    /// Words that are neither in the dictionary nor notation.
    pub unknown: Vec<String>,
    /// How many words the phrase had.
    pub words: usize,
}
