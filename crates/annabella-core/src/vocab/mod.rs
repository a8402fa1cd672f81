//! Vocabulary engine (pure core): announce moves as words, and parse words
//! back into the one legal move they mean — driven only by locale data.
//!
//! ```
//! use annabella_core::vocab::{Style, Vocabulary};
//! use shakmaty::{CastlingMode, Chess, Position, san::San};
//!
//! let vocab = Vocabulary::builtin("fide").unwrap();
//! let pos = Chess::default();
//! let m = San::from_ascii(b"Nf3").unwrap().to_move(&pos).unwrap();
//! let said = vocab.announce(&pos, m, Style::Long);
//! assert_eq!(said.display, "Springer Gustav eins Felix drei");
//! assert_eq!(vocab.parse(&pos, CastlingMode::Standard, &said.display), Ok(m));
//! ```

pub mod check;
pub mod lex;
pub mod parse;
mod priority;

use std::fmt;
use std::sync::Arc;

use shakmaty::san::San;
use shakmaty::{CastlingMode, CastlingSide, Chess, Color, Move, Position, Role, Square};

use crate::locale::MsgKey;
use crate::locale::{self, Direction, Locale, LocaleError, Word};
use crate::rules::{GameResult, Termination};
use lex::{Dictionary, Token};
pub use parse::{Illegal, MoveSpec};
pub use priority::{Item, Priority};

/// How much an announcement says.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// Shaped like SAN: piece, disambiguation only when needed, capture
    /// word, destination, promotion piece, check or mate word.
    #[default]
    Short,
    /// Piece, from-square, (capture word), to-square, promotion piece.
    Long,
}

impl std::str::FromStr for Style {
    type Err = UnknownStyle;
    fn from_str(s: &str) -> Result<Style, UnknownStyle> {
        match s.to_ascii_lowercase().as_str() {
            "short" => Ok(Style::Short),
            "long" => Ok(Style::Long),
            other => Err(UnknownStyle(other.to_owned())),
        }
    }
}

/// A style that is neither `short` nor `long` (as written, lower-cased).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownStyle(pub String);

impl UnknownStyle {
    /// What is wrong and what to write, in `locale`'s words.
    pub fn describe(&self, locale: &Locale) -> String {
        locale.message(MsgKey::StyleUnknown, &[("style", &self.0)])
    }
}

impl std::fmt::Display for UnknownStyle {
    /// In the base locale's words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::locale::in_base(|l| self.describe(l)))
    }
}

impl std::error::Error for UnknownStyle {}

/// Text in its two forms: what is shown and what is spoken.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Utterance {
    /// For the screen and braille displays.
    pub display: String,
    /// For the speech synthesizer.
    pub spoken: String,
}

impl Utterance {
    /// The same text for both forms.
    pub fn plain(text: impl Into<String>) -> Utterance {
        let display = text.into();
        Utterance {
            spoken: display.clone(),
            display,
        }
    }

    fn push_word(&mut self, w: &Word) {
        self.push_parts(&w.display, &w.spoken);
    }

    fn push_parts(&mut self, display: &str, spoken: &str) {
        if !self.display.is_empty() {
            self.display.push(' ');
        }
        if !self.spoken.is_empty() {
            self.spoken.push(' ');
        }
        self.display.push_str(display);
        self.spoken.push_str(spoken);
    }

    fn push(&mut self, other: &Utterance) {
        self.push_parts(&other.display, &other.spoken);
    }
}

impl fmt::Display for Utterance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display)
    }
}

/// Which parts of the from-square short (SAN-shaped) style says: pawn
/// captures name the file; a piece names file and/or rank only when another
/// piece of its kind can legally go to the same square. The cheap attack
/// test decides most moves without generating legal moves.
fn short_disambiguation(pos: &Chess, m: Move) -> (bool, bool) {
    use shakmaty::attacks;
    let (Some(from), role, to) = (m.from(), m.role(), m.to()) else {
        return (false, false);
    };
    let occupied = pos.board().occupied();
    let reach = match role {
        Role::Pawn => return (m.is_capture(), false),
        Role::King => return (false, false),
        Role::Knight => attacks::knight_attacks(to),
        Role::Bishop => attacks::bishop_attacks(to, occupied),
        Role::Rook => attacks::rook_attacks(to, occupied),
        Role::Queen => attacks::queen_attacks(to, occupied),
    };
    let mut rivals = reach & pos.our(role);
    rivals.discard(from);
    if rivals.is_empty() {
        return (false, false);
    }
    match San::from_move(pos, m) {
        San::Normal { file, rank, .. } => (file.is_some(), rank.is_some()),
        _ => (false, false),
    }
}

/// Why a phrase did not give one legal move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing was said or typed.
    Empty,
    /// Some words are not in the vocabulary (original spellings).
    NotUnderstood {
        /// The unknown words.
        unknown: Vec<String>,
    },
    /// The words were understood but do not describe a whole move.
    Incomplete {
        /// What was understood.
        heard: Vec<Token>,
    },
    /// A complete description that fits no legal move.
    Illegal(Illegal),
    /// Several legal moves fit: the player must choose (never guessed).
    Ambiguous(Vec<Move>),
    /// The phrase, or one of its words, is longer than any move (see
    /// [`crate::input`]): refused before it is read.
    TooLong(crate::input::TooLong),
}

/// A locale compiled for announcing and parsing.
///
/// Cloning is cheap (the compiled data is shared), so a game state that
/// holds one can be copied for undo without copying the locale.
#[derive(Debug, Clone)]
pub struct Vocabulary {
    locale: Arc<Locale>,
    dict: Arc<Dictionary>,
}

impl Vocabulary {
    /// Compiles a validated locale.
    pub fn new(locale: Locale) -> Vocabulary {
        let dict = Arc::new(Dictionary::new(&locale));
        Vocabulary {
            locale: Arc::new(locale),
            dict,
        }
    }

    /// A built-in locale by code (`fide`, `en`, `de`, …), passed by the
    /// locale checker ([`check`]).
    pub fn builtin(code: &str) -> Result<Vocabulary, LocaleError> {
        let locale = locale::builtin(code)?;
        check::builtin_verdict(&locale)?;
        Ok(Vocabulary::new(locale))
    }

    /// A locale from the text of a user's file ([`locale::from_file_text`])
    /// whose words the locale checker ([`check`]) passes: a file in which
    /// some words can be read as two different moves without the question
    /// "which move?" is refused, naming both spellings. `file` names it in
    /// errors.
    pub fn from_file_text(file: &str, text: &str) -> Result<Vocabulary, LocaleError> {
        let locale = locale::from_file_text(file, text)?;
        check::verdict(&locale, file)?;
        Ok(Vocabulary::new(locale))
    }

    /// The locale behind this vocabulary.
    pub fn locale(&self) -> &Locale {
        &self.locale
    }

    /// The square as words ("Gustav eins").
    pub fn square(&self, sq: Square) -> Utterance {
        let mut out = Utterance::default();
        self.push_square(&mut out, sq);
        out
    }

    fn push_square(&self, out: &mut Utterance, sq: Square) {
        let f = self.locale.file(sq.file());
        let r = self.locale.rank(sq.rank());
        out.push_parts(&f.display, &f.spoken);
        out.display.push_str(&self.locale.square_separator);
        out.display.push_str(&r.display);
        out.spoken.push(' ');
        out.spoken.push_str(&r.spoken);
    }

    /// A piece name.
    pub fn piece(&self, role: Role) -> Utterance {
        let w = self.locale.piece(role);
        Utterance {
            display: w.display.clone(),
            spoken: w.spoken.clone(),
        }
    }

    /// The name of a side ("White").
    pub fn side(&self, color: Color) -> Utterance {
        Utterance::plain(self.locale.message(
            match color {
                Color::White => MsgKey::SideWhite,
                Color::Black => MsgKey::SideBlack,
            },
            &[],
        ))
    }

    /// A number (a move number, a choice, a count): digits on screen, the
    /// locale's number word when spoken, where the locale has one (the
    /// Hebrew voice of espeak-ng reads no digits at all).
    pub fn number(&self, n: impl std::fmt::Display) -> Utterance {
        Utterance {
            display: n.to_string(),
            spoken: self.locale.spoken_number(n),
        }
    }

    /// Announces legal move `m` in position `pos`.
    pub fn announce(&self, pos: &Chess, m: Move, style: Style) -> Utterance {
        let mut out = Utterance {
            display: String::with_capacity(48),
            spoken: String::with_capacity(48),
        };
        let w = &self.locale.words;
        match m {
            Move::Castle { king, rook } => {
                out.push_word(if king < rook {
                    &w.castle_short
                } else {
                    &w.castle_long
                });
            }
            _ => {
                let role = m.role();
                let capture = m.is_capture();
                let (from_file, from_rank) = match style {
                    Style::Long => (true, true),
                    Style::Short => short_disambiguation(pos, m),
                };
                if role != Role::Pawn || style == Style::Long {
                    out.push_word(self.locale.piece(role));
                }
                if let Some(from) = m.from() {
                    match (from_file, from_rank) {
                        (true, true) => self.push_square(&mut out, from),
                        (true, false) => out.push_word(self.locale.file(from.file())),
                        (false, true) => out.push_word(self.locale.rank(from.rank())),
                        (false, false) => {}
                    }
                }
                if capture {
                    out.push_word(&w.capture);
                }
                self.push_square(&mut out, m.to());
                if m.is_en_passant() {
                    out.push_word(&w.en_passant);
                }
                if let Some(p) = m.promotion() {
                    out.push_word(&w.promotion);
                    out.push_word(self.locale.piece(p));
                }
            }
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        if after.is_check() {
            out.push_word(if after.is_checkmate() {
                &w.mate
            } else {
                &w.check
            });
        }
        out
    }

    /// Parses `phrase` into the one legal move it means in `pos`.
    pub fn parse(&self, pos: &Chess, mode: CastlingMode, phrase: &str) -> Result<Move, ParseError> {
        crate::input::check_phrase(phrase).map_err(ParseError::TooLong)?;
        let lexed = self.dict.tokenize(phrase);
        if lexed.words == 0 {
            return Err(ParseError::Empty);
        }
        if !lexed.unknown.is_empty() {
            return Err(ParseError::NotUnderstood {
                unknown: lexed.unknown,
            });
        }
        let chess960 = mode == CastlingMode::Chess960;
        // The different move descriptions the phrase can be read as (a
        // word of compact notation may have several readings), and the
        // legal moves each one fits.
        let mut specs: smallvec::SmallVec<[(MoveSpec, smallvec::SmallVec<[Move; 2]>); 2]> =
            smallvec::SmallVec::new();
        for alt in &lexed.alternatives {
            let Ok(spec) = parse::spec_from_tokens(alt) else {
                continue;
            };
            if specs.iter().any(|(s, _)| *s == spec) {
                continue;
            }
            let fits = parse::candidates(pos, &spec)
                .into_iter()
                .filter(|m| parse::matches(&spec, *m, chess960))
                .collect();
            specs.push((spec, fits));
        }
        let mut found: smallvec::SmallVec<[Move; 4]> = smallvec::SmallVec::new();
        for m in specs.iter().flat_map(|(_, fits)| fits) {
            if !found.contains(m) {
                found.push(*m);
            }
        }
        // One move, and every reading of the words means that move (or all
        // readings are the same description). Words that can be read as two
        // different moves are never settled by which one happens to be
        // legal: the player is asked (Hebrew מה1ד2 is the king from e1, or
        // the queen from the first rank).
        let agreed = specs
            .iter()
            .all(|(_, fits)| fits.as_slice() == found.as_slice());
        match (found.len(), specs.first()) {
            (_, None) => Err(ParseError::Incomplete {
                heard: lexed
                    .alternatives
                    .into_iter()
                    .next()
                    .map(|t| t.into_vec())
                    .unwrap_or_default(),
            }),
            (0, Some((spec, _))) => Err(ParseError::Illegal(parse::diagnose(pos, spec))),
            (1, _) if agreed => Ok(found[0]),
            // Readings that differ, settled only by the notation itself:
            // the one move whose scoresheet form is the phrase (a claim on
            // a written move, 9.2.1.1, reads the sheet's own entry).
            _ => match self.shown_as(pos, phrase, &found) {
                Some(m) => Ok(m),
                None => Err(ParseError::Ambiguous(found.into_vec())),
            },
        }
    }

    /// What was done on the board when `phrase` describes a move that is
    /// not legal in `pos` (an illegal move, Art. 7.5): the piece of the
    /// side to move that went from its square to the destination, when the
    /// phrase names it (a from-square, or the only piece of its kind that
    /// fits the file or rank given). `None` when the phrase is a legal
    /// move, is not a complete move, names castling, or does not say which
    /// piece moved. The move is not checked against the rules: it is what
    /// the player did.
    pub fn as_described(&self, pos: &Chess, phrase: &str) -> Option<Move> {
        if crate::input::check_phrase(phrase).is_err() {
            return None;
        }
        let lexed = self.dict.tokenize(phrase);
        if lexed.words == 0 || !lexed.unknown.is_empty() {
            return None;
        }
        let us = pos.turn();
        let board = pos.board();
        let mut found: Option<Move> = None;
        for alt in &lexed.alternatives {
            let Ok(spec) = parse::spec_from_tokens(alt) else {
                continue;
            };
            if spec.castle.is_some() {
                return None;
            }
            let to = spec.to?;
            let origin = match (spec.from_file, spec.from_rank) {
                (Some(f), Some(r)) => Some(Square::from_coords(f, r)),
                _ => None,
            };
            let role = spec.role.or(if origin.is_some() {
                None
            } else {
                Some(Role::Pawn)
            });
            let fits = |sq: Square| {
                board.piece_at(sq).is_some_and(|p| {
                    p.color == us
                        && role.is_none_or(|r| r == p.role)
                        && spec.from_file.is_none_or(|f| f == sq.file())
                        && spec.from_rank.is_none_or(|r| r == sq.rank())
                })
            };
            let mut froms = board.by_color(us).into_iter().filter(|sq| fits(*sq));
            let (Some(from), None) = (froms.next(), froms.next()) else {
                continue;
            };
            let piece = board.piece_at(from)?;
            if from == to || board.color_at(to) == Some(us) {
                continue;
            }
            let m = Move::Normal {
                role: piece.role,
                from,
                capture: board.piece_at(to).map(|p| p.role),
                to,
                promotion: spec.promotion,
            };
            match found {
                Some(f) if f != m => return None,
                _ => found = Some(m),
            }
        }
        found.filter(|m| !pos.is_legal(*m))
    }

    /// Of several readings, the one move whose scoresheet form (standard
    /// notation with the locale's letters, [`crate::locale::Locale::display_san`])
    /// is `phrase` itself: Hebrew `מהd2` is the queen's move the scoresheet
    /// shows, not the king from the e-file (ה), which no scoresheet writes so.
    fn shown_as(&self, pos: &Chess, phrase: &str, found: &[Move]) -> Option<Move> {
        let phrase = phrase.trim();
        let mut shown = found.iter().filter(|m| {
            let san = shakmaty::san::SanPlus::from_move(pos.clone(), **m);
            self.locale.display_san(&san.to_string()) == phrase
                || self.locale.display_san(&san.san.to_string()) == phrase
        });
        match (shown.next(), shown.next()) {
            (Some(m), None) => Some(*m),
            _ => None,
        }
    }

    /// A message of the locale, with arguments in both forms.
    pub fn message(&self, key: MsgKey, args: &[(&str, &Utterance)]) -> Utterance {
        let display: Vec<(&str, &str)> =
            args.iter().map(|(k, v)| (*k, v.display.as_str())).collect();
        let spoken: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.spoken.as_str())).collect();
        Utterance {
            display: self.locale.message(key, &display),
            spoken: self.locale.message(key, &spoken),
        }
    }

    /// A legal move of `pos` in long style, to show what can be said.
    pub fn example(&self, pos: &Chess) -> Utterance {
        let moves = pos.legal_moves();
        // Prefer a piece move: it shows piece, from-square and to-square.
        let m = moves
            .iter()
            .find(|m| m.role() == Role::Knight)
            .or_else(|| moves.first())
            .copied();
        match m {
            Some(m) => self.announce(pos, m, Style::Long),
            None => self.castling(CastlingSide::KingSide),
        }
    }

    fn castling(&self, side: CastlingSide) -> Utterance {
        let w = match side {
            CastlingSide::KingSide => &self.locale.words.castle_short,
            CastlingSide::QueenSide => &self.locale.words.castle_long,
        };
        Utterance {
            display: w.display.clone(),
            spoken: w.spoken.clone(),
        }
    }

    fn token_words(&self, t: Token) -> Utterance {
        let w = &self.locale.words;
        let word = |w: &Word| Utterance {
            display: w.display.clone(),
            spoken: w.spoken.clone(),
        };
        match t {
            Token::Piece(r) => self.piece(r),
            Token::File(f) => word(self.locale.file(f)),
            Token::Rank(r) => word(self.locale.rank(r)),
            Token::Square(s) => self.square(s),
            Token::Capture => word(&w.capture),
            Token::Check => word(&w.check),
            Token::Mate => word(&w.mate),
            Token::EnPassant => word(&w.en_passant),
            Token::Promotion => word(&w.promotion),
            Token::Castle(side) => self.castling(side),
            Token::To => w.to.as_ref().map(word).unwrap_or_default(),
        }
    }

    /// Explains a parse error in the locale's words, saying what to do.
    pub fn describe_error(&self, pos: &Chess, err: &ParseError) -> Utterance {
        let example = self.example(pos);
        let side = self.side(pos.turn());
        match err {
            ParseError::Empty => self.message(MsgKey::ParseEmpty, &[("example", &example)]),
            ParseError::NotUnderstood { unknown } => {
                let words = Utterance::plain(
                    unknown
                        .iter()
                        .map(|w| format!("'{w}'"))
                        .collect::<Vec<_>>()
                        .join(", "),
                );
                let locale = Utterance::plain(self.locale.name.clone());
                self.message(
                    MsgKey::ParseNotUnderstood,
                    &[
                        ("words", &words),
                        ("locale", &locale),
                        ("example", &example),
                    ],
                )
            }
            ParseError::Incomplete { heard } => {
                let mut h = Utterance::default();
                for t in heard {
                    h.push(&self.token_words(*t));
                }
                self.message(
                    MsgKey::ParseIncomplete,
                    &[("heard", &h), ("example", &example)],
                )
            }
            ParseError::Ambiguous(moves) => {
                let or = self.locale.message(MsgKey::ParseOr, &[]);
                let mut list = Utterance::default();
                for (i, m) in moves.iter().enumerate() {
                    if i > 0 {
                        list.push_parts(&or, &or);
                    }
                    list.push(&self.announce(pos, *m, Style::Long));
                }
                self.message(MsgKey::ParseAmbiguous, &[("candidates", &list)])
            }
            ParseError::Illegal(why) => self.describe_illegal(pos, *why, &side),
            ParseError::TooLong(too_long) => Utterance::plain(too_long.describe(&self.locale)),
        }
    }

    fn describe_illegal(&self, pos: &Chess, why: Illegal, side: &Utterance) -> Utterance {
        match why {
            Illegal::GameOver => {
                let result = match crate::rules::Match::new(
                    pos.clone(),
                    CastlingMode::Standard,
                    crate::rules::GameKind::Standard,
                )
                .result()
                {
                    Some(r) => self.describe_result(&r),
                    None => Utterance::default(),
                };
                self.message(MsgKey::IllegalGameOver, &[("result", &result)])
            }
            Illegal::Castling(s) => {
                self.message(MsgKey::IllegalCastling, &[("castling", &self.castling(s))])
            }
            Illegal::NoSuchPiece(role) => self.message(
                MsgKey::IllegalNoSuchPiece,
                &[("side", side), ("piece", &self.piece(role))],
            ),
            Illegal::NoPieceOn { role, square } => match role {
                Some(role) => self.message(
                    MsgKey::IllegalNoPieceOn,
                    &[
                        ("side", side),
                        ("piece", &self.piece(role)),
                        ("square", &self.square(square)),
                    ],
                ),
                None => self.message(
                    MsgKey::IllegalNothingOn,
                    &[("side", side), ("square", &self.square(square))],
                ),
            },
            Illegal::OwnPieceOn(sq) => self.message(
                MsgKey::IllegalOwnPieceOn,
                &[("side", side), ("square", &self.square(sq))],
            ),
            Illegal::NothingToCapture(sq) => self.message(
                MsgKey::IllegalNothingToCapture,
                &[("square", &self.square(sq))],
            ),
            Illegal::CannotReach { role, to, in_check } => {
                let mut msg = self.message(
                    MsgKey::IllegalCannotReach,
                    &[
                        ("side", side),
                        ("piece", &self.piece(role)),
                        ("square", &self.square(to)),
                    ],
                );
                if in_check {
                    let check = self.message(MsgKey::IllegalInCheck, &[("side", side)]);
                    msg.push(&check);
                }
                msg
            }
        }
    }

    /// Says how a game ended.
    pub fn describe_result(&self, r: &GameResult) -> Utterance {
        let by = r.by.map(|c| self.side(c)).unwrap_or_default();
        // In a draw after a flag fall or illegal moves, "winner" names the
        // opponent (the one who cannot mate).
        let winner = r
            .winner
            .or(r.by.map(|b| !b))
            .map(|c| self.side(c))
            .unwrap_or_default();
        let loser =
            r.by.or(r.winner.map(|w| !w))
                .map(|c| self.side(c))
                .unwrap_or_default();
        let args: [(&str, &Utterance); 4] = [
            ("winner", &winner),
            ("loser", &loser),
            ("side", &by),
            ("by", &by),
        ];
        let key = match (r.termination, r.winner) {
            (Termination::Checkmate, _) => MsgKey::ResultCheckmate,
            (Termination::Stalemate, _) => MsgKey::ResultStalemate,
            (Termination::DeadPosition, _) => MsgKey::ResultDeadPosition,
            (Termination::FivefoldRepetition, _) => MsgKey::ResultFivefold,
            (Termination::SeventyFiveMoves, _) => MsgKey::ResultSeventyFiveMoves,
            (Termination::ThreefoldRepetition, _) => MsgKey::ResultThreefold,
            (Termination::FiftyMoves, _) => MsgKey::ResultFiftyMoves,
            (Termination::Resignation, _) => MsgKey::ResultResignation,
            (Termination::Agreement, _) => MsgKey::ResultAgreement,
            (Termination::IllegalMoves, Some(_)) => MsgKey::ResultIllegalMoves,
            (Termination::IllegalMoves, None) => MsgKey::ResultIllegalMovesDraw,
            (Termination::IllegalMoveClaimed, Some(_)) => MsgKey::ResultIllegalMoveClaimed,
            (Termination::IllegalMoveClaimed, None) => MsgKey::ResultIllegalMoveClaimedDraw,
            (Termination::Time, Some(_)) => MsgKey::ResultTime,
            (Termination::Time, None) => MsgKey::ResultTimeDraw,
            (Termination::QuickplayClaim, _) => MsgKey::ResultQuickplayClaim,
            (Termination::QuickplayFlag, _) => MsgKey::ResultQuickplayFlag,
            (Termination::QuickplayReferred, _) => MsgKey::ResultQuickplayReferred,
            (Termination::SealedMove, Some(_)) => MsgKey::ResultSealedMove,
            (Termination::SealedMove, None) => MsgKey::ResultSealedMoveDraw,
            (Termination::Absence, _) => MsgKey::ResultAbsence,
        };
        self.message(key, &args)
    }

    /// Wraps text for display in the locale's writing direction: right-to-left
    /// text is put in a Unicode right-to-left isolate so that terminals and
    /// screen readers that implement the bidirectional algorithm show it in
    /// the right order, with squares and numbers inside it intact. The marks
    /// are invisible and ignored by [`Vocabulary::parse`].
    pub fn for_display(&self, text: &str) -> String {
        match self.locale.direction {
            Direction::Ltr => text.to_owned(),
            Direction::Rtl => format!("\u{2067}{text}\u{2069}"),
        }
    }
}

#[cfg(test)]
mod forms_tests;
#[cfg(test)]
pub(crate) mod fuzz;
#[cfg(test)]
mod tests;
