//! Mutation fuzz of announce and parse in every built-in locale (issue 20):
//! moves of random games are said in every way the locale accepts, then
//! mutated (another spelling, another square or piece, a word left out, an
//! ignored word put in, a change of case, notation with a letter changed).
//! An oracle that shares no code with the move reader says what each
//! phrase means and which legal moves fit it; the reader must give exactly
//! that move, or refuse (or ask) where no single move fits.
//!
//! Counted per locale: phrases, wrong moves (a move the phrase does not
//! mean, or a move where the phrase fits none or several), wrong refusals
//! (one move fits and the reader refuses), and phrases the locale's
//! notation itself reads two ways (the reader must ask).
//!
//! `cargo run --release --example locale_fuzz [POSITIONS] [SEED]`
//! (defaults 2000 positions, seed 2020; the test suite's property test
//! uses another seed). Prints one line per locale and a few examples of
//! each failure. Run it with `nice -n 19`.

use annabella::locale::{Locale, Word};
use annabella::vocab::{ParseError, Vocabulary};
use shakmaty::san::San;
use shakmaty::{CastlingMode, CastlingSide, Chess, File, Move, Position, Rank, Role, Square};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// What a phrase says, as the oracle understands it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Part {
    Piece(Role),
    File(File),
    Rank(Rank),
    Capture,
    Check,
    Mate,
    EnPassant,
    Promotion,
    Castle(CastlingSide),
    /// An ignored word.
    Nothing,
}

/// A move description (the oracle's own grammar, written from the README's
/// rules: piece, origin, capture, destination, en passant, promotion,
/// check; a king is never told apart by a file or rank alone; check and
/// mate words end a move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
struct Intent {
    castle: Option<CastlingSide>,
    role: Option<Role>,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Option<Square>,
    capture: bool,
    en_passant: bool,
    promotion: Option<Role>,
}

fn intent(parts: &[Part]) -> Option<Intent> {
    intent_with(parts, true)
}

/// [`intent`], with or without the rule that a king takes no from-file or
/// from-rank alone.
fn intent_with(parts: &[Part], king_rule: bool) -> Option<Intent> {
    // Ignored words carry no meaning at all.
    let parts: Vec<Part> = parts
        .iter()
        .copied()
        .filter(|p| *p != Part::Nothing)
        .collect();
    let mut i = Intent::default();
    // Files and ranks, a file followed by its rank being a square.
    let mut places: Vec<(Option<File>, Option<Rank>)> = Vec::new();
    let mut promo_word = false;
    let mut ended = false;
    let mut k = 0;
    while k < parts.len() {
        let p = parts[k];
        if ended && !matches!(p, Part::Check | Part::Mate | Part::EnPassant) {
            return None;
        }
        match p {
            Part::Nothing => {}
            Part::Castle(s) => {
                if i.castle.is_some() || i.role.is_some() || !places.is_empty() {
                    return None;
                }
                i.castle = Some(s);
            }
            Part::Piece(r) => {
                if i.castle.is_some() {
                    return None;
                }
                if places.is_empty() && !promo_word {
                    if i.role.is_some() {
                        return None;
                    }
                    i.role = Some(r);
                } else {
                    if i.promotion.is_some() {
                        return None;
                    }
                    i.promotion = Some(r);
                }
            }
            Part::File(f) => {
                if i.castle.is_some() || i.promotion.is_some() || promo_word {
                    return None;
                }
                if let Some(Part::Rank(r)) = parts.get(k + 1) {
                    places.push((Some(f), Some(*r)));
                    k += 1;
                } else {
                    places.push((Some(f), None));
                }
            }
            Part::Rank(r) => {
                if i.castle.is_some() || i.promotion.is_some() || promo_word {
                    return None;
                }
                places.push((None, Some(r)));
            }
            Part::Capture => i.capture = true,
            Part::EnPassant => i.en_passant = true,
            Part::Promotion => promo_word = true,
            Part::Check | Part::Mate => ended = true,
        }
        k += 1;
    }
    if i.castle.is_some() {
        return Some(i);
    }
    let Some((Some(f), Some(r))) = places.pop() else {
        return None;
    };
    i.to = Some(Square::from_coords(f, r));
    match places.as_slice() {
        [] => {}
        [(f, r)] => {
            i.from_file = *f;
            i.from_rank = *r;
        }
        _ => return None,
    }
    if king_rule && i.role == Some(Role::King) && i.from_file.is_some() != i.from_rank.is_some() {
        return None;
    }
    Some(i)
}

/// The legal moves `i` fits.
fn fits(pos: &Chess, i: &Intent) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|m| {
            if i.capture && !m.is_capture() {
                return false;
            }
            if i.en_passant && !m.is_en_passant() {
                return false;
            }
            if let Some(side) = i.castle {
                return m.castling_side() == Some(side);
            }
            let (Some(to), Some(from)) = (i.to, m.from()) else {
                return false;
            };
            if i.from_file.is_some_and(|f| f != from.file())
                || i.from_rank.is_some_and(|r| r != from.rank())
            {
                return false;
            }
            let whole_origin = i.from_file.is_some() && i.from_rank.is_some();
            let role = i
                .role
                .unwrap_or(if whole_origin { m.role() } else { Role::Pawn });
            if role != m.role() {
                return false;
            }
            if i.promotion.is_some() && i.promotion != m.promotion() {
                return false;
            }
            match m.castling_side() {
                Some(side) => {
                    let king_to = Square::from_coords(side.king_to_file(), from.rank());
                    to == king_to || Some(to) == m.to().into()
                }
                None => m.to() == to,
            }
        })
        .collect()
}

/// The parts of `m` in `pos`, long (piece, from, to) or short (SAN-shaped).
fn parts_of(pos: &Chess, m: Move, long: bool) -> Vec<Part> {
    let mut out = Vec::new();
    let mut after = pos.clone();
    after.play_unchecked(m);
    let suffix = if after.is_checkmate() {
        Some(Part::Mate)
    } else if after.is_check() {
        Some(Part::Check)
    } else {
        None
    };
    if let Some(side) = m.castling_side() {
        out.push(Part::Castle(side));
        out.extend(suffix);
        return out;
    }
    let from = m.from().unwrap();
    let (file, rank) = if long {
        (true, true)
    } else {
        match San::from_move(pos, m) {
            San::Normal { file, rank, .. } => (file.is_some(), rank.is_some()),
            _ => (false, false),
        }
    };
    if long || m.role() != Role::Pawn {
        out.push(Part::Piece(m.role()));
    }
    if file {
        out.push(Part::File(from.file()));
    }
    if rank {
        out.push(Part::Rank(from.rank()));
    }
    if m.is_capture() {
        out.push(Part::Capture);
    }
    out.push(Part::File(m.to().file()));
    out.push(Part::Rank(m.to().rank()));
    if m.is_en_passant() {
        out.push(Part::EnPassant);
    }
    if let Some(p) = m.promotion() {
        out.push(Part::Promotion);
        out.push(Part::Piece(p));
    }
    out.extend(suffix);
    out
}

fn word(l: &Locale, p: Part) -> Option<&Word> {
    let w = &l.words;
    Some(match p {
        Part::Piece(r) => l.piece(r),
        Part::File(f) => l.file(f),
        Part::Rank(r) => l.rank(r),
        Part::Capture => &w.capture,
        Part::Check => &w.check,
        Part::Mate => &w.mate,
        Part::EnPassant => &w.en_passant,
        Part::Promotion => &w.promotion,
        Part::Castle(CastlingSide::KingSide) => &w.castle_short,
        Part::Castle(CastlingSide::QueenSide) => &w.castle_long,
        Part::Nothing => return None,
    })
}

/// The locale's piece letters, as the README describes them: the notation's
/// letter, else the first letter of the piece's displayed word; the
/// standard letters K Q R B N where the locale has not used them.
fn letters(l: &Locale) -> Vec<(String, Role)> {
    let mut out: Vec<(String, Role)> = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
    ]
    .into_iter()
    .map(|r| (l.piece_letter(r), r))
    .collect();
    for (s, r) in [
        ("K", Role::King),
        ("Q", Role::Queen),
        ("R", Role::Rook),
        ("B", Role::Bishop),
        ("N", Role::Knight),
    ] {
        if !out.iter().any(|(x, _)| x == s) {
            out.push((s.to_owned(), r));
        }
    }
    out
}

/// The file letters of notation: Latin, and the locale's own.
fn file_letters(l: &Locale) -> Vec<(String, File)> {
    let mut out: Vec<(String, File)> = File::ALL
        .iter()
        .map(|f| (f.char().to_string(), *f))
        .collect();
    if let Some(own) = &l.notation.files {
        for (i, s) in own.iter().enumerate() {
            out.push((s.clone(), File::new(i as u32)));
        }
    }
    out
}

/// Every way the oracle can read one word of notation (exact letters, as
/// written): piece letters, file letters, ranks 1-8, x, =, +, #.
fn segmentations(l: &Locale, word: &str) -> Vec<Vec<Part>> {
    // Castling, with its check or mate mark.
    let bare = word.trim_end_matches(['+', '#']);
    let mark = match &word[bare.len()..] {
        "+" => vec![Part::Check],
        "#" => vec![Part::Mate],
        _ => vec![],
    };
    match bare {
        "O-O" | "0-0" => return vec![[vec![Part::Castle(CastlingSide::KingSide)], mark].concat()],
        "O-O-O" | "0-0-0" => {
            return vec![[vec![Part::Castle(CastlingSide::QueenSide)], mark].concat()];
        }
        _ => {}
    }
    // Coordinates with a promotion letter in lower case (UCI: e7e8q).
    if let Some(last) = word.chars().last()
        && let Some(role) = Role::from_char(last).filter(|r| !matches!(r, Role::Pawn | Role::King))
        && word[..word.len() - 1].ends_with(|c: char| c.is_ascii_digit())
        && last.is_ascii_lowercase()
    {
        let mut out = segmentations(l, &word[..word.len() - 1]);
        for r in &mut out {
            r.push(Part::Piece(role));
        }
        return out;
    }
    let mut units: Vec<(String, Part)> = Vec::new();
    for (s, r) in letters(l) {
        units.push((s, Part::Piece(r)));
    }
    for (s, f) in file_letters(l) {
        units.push((s, Part::File(f)));
    }
    for r in Rank::ALL {
        units.push((r.char().to_string(), Part::Rank(r)));
    }
    units.push(("x".into(), Part::Capture));
    units.push(("=".into(), Part::Promotion));
    units.push(("+".into(), Part::Check));
    units.push(("#".into(), Part::Mate));
    let mut out = Vec::new();
    let mut stack: Vec<(usize, Vec<Part>)> = vec![(0, Vec::new())];
    while let Some((at, parts)) = stack.pop() {
        if at == word.len() {
            out.push(parts);
            continue;
        }
        for (s, p) in &units {
            if word[at..].starts_with(s.as_str()) {
                let mut next = parts.clone();
                next.push(*p);
                stack.push((at + s.len(), next));
            }
        }
        if out.len() > 32 {
            break;
        }
    }
    out
}

/// A phrase and what it means: one meaning per word, or (for a word of
/// notation) the oracle's own reading of the letters.
#[derive(Clone)]
struct Phrase {
    text: String,
    /// The text of each word (a spelling may have several words).
    texts: Vec<String>,
    /// Each word's parts; several lists for a word of notation with
    /// several readings.
    words: Vec<Vec<Vec<Part>>>,
}

impl Phrase {
    fn said(l: &Locale, parts: &[Part], pick: &dyn Fn(usize, &Word) -> String) -> Phrase {
        let mut text = Vec::new();
        let mut words = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            if let Some(w) = word(l, *p) {
                text.push(pick(i, w));
                words.push(vec![vec![*p]]);
            }
        }
        Phrase {
            text: text.join(" "),
            texts: text,
            words,
        }
    }

    /// The phrase with an ignored word put in before word `at`.
    fn with_ignored(&self, at: usize, ignored: &str) -> Phrase {
        let mut p = self.clone();
        let at = at.min(p.words.len());
        p.texts.insert(at, ignored.to_owned());
        p.words.insert(at, vec![vec![Part::Nothing]]);
        p.text = p.texts.join(" ");
        p
    }

    fn notation(l: &Locale, text: String) -> Phrase {
        let texts: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        let words = texts.iter().map(|w| segmentations(l, w)).collect();
        Phrase { text, texts, words }
    }
}

#[derive(Default)]
struct Tally {
    phrases: usize,
    wrong_moves: usize,
    wrong_refusals: usize,
    asked: usize,
    examples: Vec<String>,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2020);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    // Positions of random games (captures, promotions and castling
    // preferred now and then).
    let mut positions: Vec<Chess> = Vec::new();
    while positions.len() < count {
        let mut pos = Chess::default();
        for _ in 0..(10 + rng.below(150)) {
            let moves = pos.legal_moves();
            if moves.is_empty() || positions.len() >= count {
                break;
            }
            positions.push(pos.clone());
            let special: Vec<&Move> = moves
                .iter()
                .filter(|m| m.is_capture() || m.is_promotion() || m.is_castle())
                .collect();
            let m = if !special.is_empty() && rng.below(3) == 0 {
                *special[rng.below(special.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.play_unchecked(m);
        }
    }
    println!(
        "{:6} {:>9} {:>12} {:>15} {:>7}",
        "locale", "phrases", "wrong moves", "wrong refusals", "asked"
    );
    let codes: Vec<&str> = annabella::locale::builtin_codes();
    let mut total = Tally::default();
    for code in codes {
        let v = match Vocabulary::builtin(code) {
            Ok(v) => v,
            Err(e) => {
                println!("{code}: does not load: {e}");
                continue;
            }
        };
        let l = v.locale();
        let mut t = Tally::default();
        for pos in &positions {
            let moves = pos.legal_moves();
            let m = moves[rng.below(moves.len())];
            for phrase in phrases(l, pos, m, &mut rng) {
                check(&v, pos, &phrase, &mut t);
            }
        }
        println!(
            "{:6} {:>9} {:>12} {:>15} {:>7}",
            code, t.phrases, t.wrong_moves, t.wrong_refusals, t.asked
        );
        for e in t.examples.iter().take(6) {
            println!("       {e}");
        }
        total.phrases += t.phrases;
        total.wrong_moves += t.wrong_moves;
        total.wrong_refusals += t.wrong_refusals;
        total.asked += t.asked;
    }
    println!(
        "{:6} {:>9} {:>12} {:>15} {:>7}",
        "all", total.phrases, total.wrong_moves, total.wrong_refusals, total.asked
    );
}

/// The phrases said for `m`, and their mutations.
fn phrases(l: &Locale, pos: &Chess, m: Move, rng: &mut Rng) -> Vec<Phrase> {
    let mut out = Vec::new();
    for long in [false, true] {
        let parts = parts_of(pos, m, long);
        let display = |_: usize, w: &Word| w.display.clone();
        out.push(Phrase::said(l, &parts, &display));
        out.push(Phrase::said(l, &parts, &|_, w: &Word| w.spoken.clone()));
        // Each word in each spelling.
        for slot in 0..parts.len() {
            if let Some(w) = word(l, parts[slot]) {
                for form in &w.accept {
                    let f = form.clone();
                    out.push(Phrase::said(l, &parts, &move |i, w: &Word| {
                        if i == slot {
                            f.clone()
                        } else {
                            w.display.clone()
                        }
                    }));
                }
            }
        }
        // Another file, rank or piece in one place.
        for slot in 0..parts.len() {
            let mut p = parts.clone();
            p[slot] = match parts[slot] {
                Part::File(_) => Part::File(File::new(rng.below(8) as u32)),
                Part::Rank(_) => Part::Rank(Rank::new(rng.below(8) as u32)),
                Part::Piece(_) => Part::Piece(Role::ALL[rng.below(6)]),
                _ => continue,
            };
            let pick = rng.next();
            out.push(Phrase::said(l, &p, &move |i, w: &Word| {
                w.accept[(pick as usize + i) % w.accept.len()].clone()
            }));
        }
        // A word left out.
        for slot in 0..parts.len() {
            let mut p = parts.clone();
            p.remove(slot);
            if p.is_empty() {
                continue;
            }
            out.push(Phrase::said(l, &p, &display));
        }
        // An ignored word put in.
        if !l.words.ignore.is_empty() {
            let base = Phrase::said(l, &parts, &display);
            let at = rng.below(base.words.len() + 1);
            let ignored = &l.words.ignore[rng.below(l.words.ignore.len())];
            out.push(base.with_ignored(at, ignored));
        }
        // Upper and lower case.
        let upper = Phrase::said(l, &parts, &|_, w: &Word| w.display.to_uppercase());
        if upper
            .text
            .split(' ')
            .all(|w| w.chars().count() > 1 || !w.chars().any(char::is_alphabetic))
        {
            out.push(upper);
        }
        out.push(Phrase::said(l, &parts, &|_, w: &Word| {
            w.display.to_lowercase()
        }));
    }
    // Notation: the scoresheet's, long algebraic with the locale's letters,
    // coordinates, and each with one letter changed.
    let san = San::from_move(pos, m).to_string();
    let sheet = l.display_san(&san);
    out.push(Phrase::notation(l, sheet.clone()));
    out.push(Phrase::notation(
        l,
        m.to_uci(CastlingMode::Standard).to_string(),
    ));
    if let (Some(from), false) = (m.from(), m.is_castle()) {
        let file = |f: File| {
            l.notation
                .files
                .as_ref()
                .map_or(f.char().to_string(), |own| own[usize::from(f)].clone())
        };
        let letter = if m.role() == Role::Pawn {
            String::new()
        } else {
            l.piece_letter(m.role())
        };
        let long = format!(
            "{letter}{}{}{}{}{}",
            file(from.file()),
            from.rank().char(),
            if m.is_capture() { "x" } else { "" },
            file(m.to().file()),
            m.to().rank().char()
        );
        out.push(Phrase::notation(l, long));
        // Another piece letter, or another destination.
        let ls = letters(l);
        let (other, _) = &ls[rng.below(ls.len())];
        if m.role() != Role::Pawn {
            let mutated = sheet.replacen(&l.piece_letter(m.role()), other, 1);
            out.push(Phrase::notation(l, mutated));
        }
        let to = format!("{}{}", file(m.to().file()), m.to().rank().char());
        let elsewhere = Square::new(rng.below(64) as u32);
        let there = format!("{}{}", file(elsewhere.file()), elsewhere.rank().char());
        out.push(Phrase::notation(l, sheet.replace(&to, &there)));
        out.push(Phrase::notation(l, sheet.replace('x', "")));
    }
    out
}

fn check(v: &Vocabulary, pos: &Chess, phrase: &Phrase, t: &mut Tally) {
    let mut expected: Vec<Move> = Vec::new();
    let mut per_intent: Vec<Vec<Move>> = Vec::new();
    // Every reading of the phrase: one per word, several for notation.
    let mut all: Vec<Vec<Part>> = vec![Vec::new()];
    for readings in &phrase.words {
        let mut next = Vec::new();
        for a in &all {
            for r in readings {
                let mut x = a.clone();
                x.extend(r);
                next.push(x);
            }
        }
        all = next;
        all.truncate(64);
    }
    let mut seen: Vec<Intent> = Vec::new();
    for parts in &all {
        if let Some(i) = intent(parts)
            && !seen.contains(&i)
        {
            seen.push(i);
            let f = fits(pos, &i);
            for m in &f {
                if !expected.contains(m) {
                    expected.push(*m);
                }
            }
            per_intent.push(f);
        }
    }
    // A king told apart by a file or rank alone ("King e d2") is no move
    // description of the grammar; whether a reader takes it is left out.
    if seen.is_empty() && all.iter().any(|p| intent_with(p, false).is_some()) {
        return;
    }
    t.phrases += 1;
    let got = v.parse(pos, CastlingMode::Standard, &phrase.text);
    let two_readings = seen.len() > 1 && !per_intent.iter().all(|f| *f == expected);
    if two_readings {
        t.asked += 1;
        if t.examples.len() < 12 {
            t.examples.push(format!(
                "asked: '{}' -> {:?}",
                phrase.text,
                got.as_ref()
                    .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            ));
        }
    }
    let problem = match (&got, expected.len()) {
        (Ok(m), 1) if !two_readings && *m == expected[0] => None,
        (Ok(_), _) => {
            t.wrong_moves += 1;
            Some("wrong move")
        }
        (Err(_), 1) if !two_readings => {
            t.wrong_refusals += 1;
            Some("wrong refusal")
        }
        (Err(ParseError::Ambiguous(_)), _) | (Err(_), _) => None,
    };
    if let Some(what) = problem
        && t.examples.len() < 12
    {
        t.examples.push(format!(
            "{what}: '{}' in {} -> {:?} (fits {:?})",
            phrase.text,
            shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal),
            got.map(|m| m.to_uci(CastlingMode::Standard).to_string()),
            expected
                .iter()
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect::<Vec<_>>()
        ));
    }
}
