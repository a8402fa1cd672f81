//! Property test of the locale checker's promise (issue 20): in at least
//! 5,000 positions, every accepted form of a move — the announcements in
//! both styles and both spellings, each word in each of its accepted
//! spellings, ignored words between the words, the scoresheet's notation
//! and coordinates — reads back as that move in every built-in locale.
//! The moves are chosen by the test and the forms built from the locale's
//! word lists, never by the reader under test.

use shakmaty::san::{San, SanPlus};
use shakmaty::{CastlingMode, CastlingSide, Chess, Move, Position, Role};

use super::lex::Token;
use super::{ParseError, Vocabulary};
use crate::locale::{Locale, Word};

/// xorshift64*: reproducible random numbers without a dependency.
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

/// `count` positions from random games: captures, promotions, castling
/// and en passant are preferred now and then, so every kind of move turns
/// up. Positions without a legal move are skipped.
pub(crate) fn positions(count: usize, seed: u64) -> Vec<Chess> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Chess::default();
        for _ in 0..(20 + rng.below(160)) {
            let moves = pos.legal_moves();
            if moves.is_empty() || out.len() >= count {
                break;
            }
            out.push(pos.clone());
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
    out
}

/// The word a token is said with.
fn word(l: &Locale, t: Token) -> Option<&Word> {
    let w = &l.words;
    Some(match t {
        Token::Piece(r) => l.piece(r),
        Token::File(f) => l.file(f),
        Token::Rank(r) => l.rank(r),
        Token::Capture => &w.capture,
        Token::Check => &w.check,
        Token::Mate => &w.mate,
        Token::EnPassant => &w.en_passant,
        Token::Promotion => &w.promotion,
        Token::Castle(CastlingSide::KingSide) => &w.castle_short,
        Token::Castle(CastlingSide::QueenSide) => &w.castle_long,
        Token::To => w.to.as_ref()?,
        Token::Square(_) => return None,
    })
}

/// The tokens of `m` in `pos`: long style (piece, from-square, to-square)
/// or short (SAN-shaped).
pub(crate) fn move_tokens(pos: &Chess, m: Move, long: bool) -> Vec<Token> {
    let mut t = Vec::new();
    let mut after = pos.clone();
    after.play_unchecked(m);
    let suffix = if after.is_checkmate() {
        Some(Token::Mate)
    } else if after.is_check() {
        Some(Token::Check)
    } else {
        None
    };
    if let Some(side) = m.castling_side() {
        t.push(Token::Castle(side));
        t.extend(suffix);
        return t;
    }
    let from = m.from().expect("a normal move has a from-square");
    let (file, rank) = if long {
        (true, true)
    } else {
        match San::from_move(pos, m) {
            San::Normal { file, rank, .. } => (file.is_some(), rank.is_some()),
            _ => (false, false),
        }
    };
    if long || m.role() != Role::Pawn {
        t.push(Token::Piece(m.role()));
    }
    if file {
        t.push(Token::File(from.file()));
    }
    if rank {
        t.push(Token::Rank(from.rank()));
    }
    if m.is_capture() {
        t.push(Token::Capture);
    }
    t.push(Token::File(m.to().file()));
    t.push(Token::Rank(m.to().rank()));
    if m.is_en_passant() {
        t.push(Token::EnPassant);
    }
    if let Some(p) = m.promotion() {
        t.push(Token::Promotion);
        t.push(Token::Piece(p));
    }
    t.extend(suffix);
    t
}

/// Every accepted form of the move whose tokens are `tokens`: all words
/// displayed, all spoken, and each word in each of its other spellings
/// (the rest displayed); ignored words put between them.
pub(crate) fn word_forms(l: &Locale, tokens: &[Token]) -> Vec<String> {
    let words: Vec<&Word> = tokens.iter().filter_map(|t| word(l, *t)).collect();
    let join = |pick: &dyn Fn(usize, &Word) -> String| -> String {
        words
            .iter()
            .enumerate()
            .map(|(i, w)| pick(i, w))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = vec![
        join(&|_, w| w.display.clone()),
        join(&|_, w| w.spoken.clone()),
    ];
    for (slot, w) in words.iter().enumerate() {
        for form in w.accept.iter().skip(1) {
            out.push(join(&|i, x| {
                if i == slot {
                    form.clone()
                } else {
                    x.display.clone()
                }
            }));
        }
    }
    for ignored in &l.words.ignore {
        out.push(format!("{ignored} {}", out[0]));
    }
    out
}

/// The forms of notation: the scoresheet's (with and without the check
/// mark), standard SAN and UCI.
pub(crate) fn notation_forms(l: &Locale, pos: &Chess, m: Move) -> Vec<String> {
    let san = San::from_move(pos, m).to_string();
    let plus = SanPlus::from_move(pos.clone(), m).to_string();
    let mut out = vec![
        l.display_san(&san),
        l.display_san(&plus),
        m.to_uci(CastlingMode::Standard).to_string(),
    ];
    // Standard SAN, where the locale reads every standard letter as its
    // piece.
    let letters = super::lex::letters(l);
    let standard = [
        ("K", Role::King),
        ("Q", Role::Queen),
        ("R", Role::Rook),
        ("B", Role::Bishop),
        ("N", Role::Knight),
    ];
    if standard
        .iter()
        .all(|(s, r)| letters.iter().any(|(x, y, _)| x == s && y == r))
    {
        out.push(san);
    }
    out
}

/// Whether `m`'s standard notation tells the piece apart by its rank only
/// (`Q1d2`): in Hebrew the queen's letter מה followed by a rank is also the
/// king's letter מ followed by a square of the e-file, and the player is
/// asked which move he means.
fn rank_only_disambiguation(pos: &Chess, m: Move) -> bool {
    matches!(
        San::from_move(pos, m),
        San::Normal {
            file: None,
            rank: Some(_),
            ..
        }
    )
}

#[test]
fn every_accepted_form_of_a_move_reads_back_in_every_locale() {
    let positions = positions(5_000, 0x5eed_2020);
    assert!(positions.len() >= 5_000);
    let mut rng = Rng(7);
    let mut checked = 0usize;
    let mut asked = 0usize;
    let mut failures = Vec::new();
    for code in crate::locale::builtin_codes() {
        let v = Vocabulary::builtin(code).unwrap();
        let l = v.locale();
        for pos in &positions {
            let moves = pos.legal_moves();
            // One move of each position, and every castling, en passant
            // and promotion there is.
            let mut chosen = vec![moves[rng.below(moves.len())]];
            chosen.extend(
                moves
                    .iter()
                    .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
                    .take(3),
            );
            for m in chosen {
                let mut forms = Vec::new();
                for long in [false, true] {
                    forms.extend(word_forms(l, &move_tokens(pos, m, long)));
                }
                let notation = notation_forms(l, pos, m);
                for (i, form) in forms.iter().chain(&notation).enumerate() {
                    checked += 1;
                    match v.parse(pos, CastlingMode::Standard, form) {
                        Ok(got) if got == m => {}
                        Err(ParseError::Ambiguous(c))
                            if i >= forms.len()
                                && c.contains(&m)
                                && rank_only_disambiguation(pos, m) =>
                        {
                            asked += 1;
                        }
                        other => failures.push(format!(
                            "{code}: '{form}' for {} in {}: {other:?}",
                            m.to_uci(CastlingMode::Standard),
                            shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                        )),
                    }
                }
            }
        }
    }
    eprintln!(
        "{checked} forms read, {asked} asked, {} wrong",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {checked} forms not read back:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

#[test]
fn the_positions_have_every_kind_of_move() {
    let positions = positions(5_000, 0x5eed_2020);
    let has = |f: &dyn Fn(&Move) -> bool| positions.iter().any(|p| p.legal_moves().iter().any(f));
    assert!(has(&|m| m.is_en_passant()));
    assert!(has(&|m| m.is_castle()));
    assert!(has(&|m| m.promotion() == Some(Role::Knight)));
    assert!(has(&|m| m.is_capture() && m.role() == Role::King));
}
