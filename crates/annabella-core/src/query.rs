//! Board queries (pure): what stands on a square, where the pieces of a
//! kind are, a file, rank or diagonal scanned, a ray from a square up to
//! the first piece, what a piece attacks and what attacks or defends a
//! square, all pieces of a side, the legal moves of a piece, the position
//! in FEN, the last move and the last five. The play screen and the review
//! of a game ask them of a position, in the locale's words; the base
//! locale's (English) piece, file and rank words are understood too, as
//! its command words are.

use shakmaty::fen::Fen;
use shakmaty::{Bitboard, Color, EnPassantMode, Move, Position, Role, Square};

use crate::commands::{Cmd, CommandWords};
use crate::locale::MsgKey;
use crate::rules::Match;
use crate::vocab::lex::{Dictionary, Token};
use crate::vocab::{Style, Utterance, Vocabulary};

/// How many moves [`Queries::last_moves`] reads.
pub const LAST_MOVES: usize = 5;

/// The eight directions from a square (file step, rank step): up the
/// board first, then clockwise.
const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The square `steps` steps from `sq` in direction `d`, if on the board.
fn step(sq: Square, d: (i8, i8), steps: i8) -> Option<Square> {
    let f = i8::try_from(u32::from(sq.file())).ok()? + d.0 * steps;
    let r = i8::try_from(u32::from(sq.rank())).ok()? + d.1 * steps;
    let ok = |x: i8| (0..8).contains(&x);
    (ok(f) && ok(r)).then(|| {
        Square::from_coords(
            shakmaty::File::new(u32::try_from(f).unwrap_or(0)),
            shakmaty::Rank::new(u32::try_from(r).unwrap_or(0)),
        )
    })
}

/// The squares from `sq` (not included) in direction `d` to the edge.
fn ray_squares(sq: Square, d: (i8, i8)) -> Vec<Square> {
    (1..8).map_while(|n| step(sq, d, n)).collect()
}

/// The direction from `from` to `to` when they share a rank, file or
/// diagonal.
fn direction(from: Square, to: Square) -> Option<(i8, i8)> {
    DIRECTIONS
        .iter()
        .copied()
        .find(|d| ray_squares(from, *d).contains(&to))
}

/// The base locale's dictionary, for board questions in a locale that is
/// not the base one (built once).
pub fn base_dictionary(loc: &crate::locale::Locale) -> Option<&'static Dictionary> {
    static BASE: std::sync::OnceLock<Option<Dictionary>> = std::sync::OnceLock::new();
    if loc.code == crate::locale::BASE_LOCALE {
        return None;
    }
    BASE.get_or_init(|| crate::locale::base().map(Dictionary::new))
        .as_ref()
}

/// Asks board questions of one game position.
#[derive(Debug, Clone, Copy)]
pub struct Queries<'a> {
    /// The words.
    pub vocab: &'a Vocabulary,
    /// The command words (for examples in the answers).
    pub words: &'a CommandWords,
    /// The lexer of the locale's words (squares, pieces, files, ranks).
    pub dict: &'a Dictionary,
    /// The lexer of the base locale's (English) words, for a locale of
    /// another language: words the locale does not know are read there.
    pub base: Option<&'a Dictionary>,
    /// How moves are worded.
    pub style: Style,
    /// The game asked about: its current position and last move.
    pub game: &'a Match,
}

impl Queries<'_> {
    /// The commands answered by [`Queries::answer`].
    pub fn handles(cmd: Cmd) -> bool {
        matches!(
            cmd,
            Cmd::What
                | Cmd::Where
                | Cmd::File
                | Cmd::Rank
                | Cmd::Pieces
                | Cmd::Legal
                | Cmd::Diagonal
                | Cmd::Ray
                | Cmd::Attacks
                | Cmd::Attackers
                | Cmd::Defenders
                | Cmd::Fen
                | Cmd::Last
                | Cmd::LastFive
        )
    }

    /// The first reading of `text` in `dict` with a square (so "b1" is
    /// the square, not bishop and rank), and the words it did not know.
    fn read(dict: &Dictionary, text: &str) -> (Vec<Token>, Vec<String>) {
        let lexed = dict.tokenize(text);
        let with_square = lexed
            .alternatives
            .iter()
            .position(|alt| alt.iter().any(|t| matches!(t, Token::Square(_))));
        let i = with_square.unwrap_or(0);
        let tokens = lexed
            .alternatives
            .into_iter()
            .nth(i)
            .map(|t| t.into_vec())
            .unwrap_or_default();
        (tokens, lexed.unknown)
    }

    /// The tokens of `text`: the locale's words, and the base locale's
    /// for words the locale does not know ("where knight" in German).
    fn tokens(&self, text: &str) -> Vec<Token> {
        let (mut tokens, unknown) = Self::read(self.dict, text);
        if let Some(base) = self.base
            && !unknown.is_empty()
        {
            tokens.extend(Self::read(base, &unknown.join(" ")).0);
        }
        tokens
    }

    /// The squares named in `text`, in order.
    fn squares(&self, text: &str) -> Vec<Square> {
        self.tokens(text)
            .iter()
            .filter_map(|t| match t {
                Token::Square(s) => Some(*s),
                _ => None,
            })
            .collect()
    }

    /// A square holding a piece of the side to move that has a legal move.
    fn example_piece_square(&self) -> Square {
        let pos = self.game.position();
        pos.legal_moves()
            .iter()
            .find_map(|m| m.from())
            .unwrap_or(Square::E1)
    }

    fn piece_words(&self, color: Color, role: Role) -> (Utterance, Utterance) {
        (self.vocab.side(color), self.vocab.piece(role))
    }

    fn example_square(&self) -> Utterance {
        self.vocab.square(Square::E4)
    }

    /// "Say which square, for example: diagonal e4" (the command's word
    /// and a square).
    fn need_square(&self, cmd: Cmd, sq: Square) -> Utterance {
        let s = self.vocab.square(sq);
        let example = Utterance {
            display: format!("{} {}", self.words.shown(cmd), s.display),
            spoken: format!("{} {}", self.words.shown(cmd), s.spoken),
        };
        self.vocab
            .message(MsgKey::UiNeedSquare, &[("example", &example)])
    }

    /// "White Knight f3": a piece and its square, as a scan names it.
    fn piece_on(&self, sq: Square) -> Utterance {
        let board = self.game.position().board();
        match board.piece_at(sq) {
            Some(p) => {
                let (s, r) = self.piece_words(p.color, p.role);
                let mut u = s;
                append(&mut u, &r);
                append(&mut u, &self.vocab.square(sq));
                u
            }
            None => self.vocab.square(sq),
        }
    }

    /// "Knight f3, Bishop c4": pieces (of one side) by kind and square.
    fn pieces_list(&self, squares: Bitboard) -> Utterance {
        let board = self.game.position().board();
        join(squares.into_iter().filter_map(|sq| {
            board.piece_at(sq).map(|p| {
                let mut u = self.vocab.piece(p.role);
                append(&mut u, &self.vocab.square(sq));
                u
            })
        }))
    }

    /// "{line}: pieces." or "{line}: empty." for the squares of a line.
    fn scan(&self, line: &Utterance, squares: &[Square]) -> Utterance {
        let board = self.game.position().board();
        let pieces: Vec<Utterance> = squares
            .iter()
            .filter(|sq| board.piece_at(**sq).is_some())
            .map(|sq| self.piece_on(*sq))
            .collect();
        if pieces.is_empty() {
            self.vocab.message(MsgKey::UiLineEmpty, &[("line", line)])
        } else {
            self.vocab.message(
                MsgKey::UiLine,
                &[("line", line), ("pieces", &join(pieces.into_iter()))],
            )
        }
    }

    /// The two diagonals through `sq`, each from its end on the lower
    /// rank to its end on the higher one (a diagonal of one square is
    /// left out).
    fn diagonals(&self, sq: Square) -> Utterance {
        let mut out = Utterance::default();
        for (down, up) in [((-1, -1), (1, 1)), ((1, -1), (-1, 1))] {
            let mut squares: Vec<Square> = ray_squares(sq, down);
            squares.reverse();
            squares.push(sq);
            squares.extend(ray_squares(sq, up));
            let (Some(first), Some(last)) = (squares.first(), squares.last()) else {
                continue;
            };
            if squares.len() < 2 {
                continue;
            }
            let line = self.vocab.message(
                MsgKey::UiDiagonalName,
                &[
                    ("from", &self.vocab.square(*first)),
                    ("to", &self.vocab.square(*last)),
                ],
            );
            append(&mut out, &self.scan(&line, &squares));
        }
        out
    }

    /// From `sq` in direction `d` up to the first piece: "From e4 towards
    /// h7: free f5, g6; then Black Pawn h7." `None` at the board's edge.
    fn ray(&self, sq: Square, d: (i8, i8)) -> Option<Utterance> {
        let squares = ray_squares(sq, d);
        let towards = *squares.last()?;
        let board = self.game.position().board();
        let stop = squares.iter().position(|s| board.piece_at(*s).is_some());
        let free = join(
            squares[..stop.unwrap_or(squares.len())]
                .iter()
                .map(|s| self.vocab.square(*s)),
        );
        let from = self.vocab.square(sq);
        let towards = self.vocab.square(towards);
        let args = |piece: &Utterance, key: MsgKey| {
            self.vocab.message(
                key,
                &[
                    ("from", &from),
                    ("towards", &towards),
                    ("free", &free),
                    ("piece", piece),
                ],
            )
        };
        Some(match stop {
            None => args(&Utterance::default(), MsgKey::UiRayOpen),
            Some(0) => args(&self.piece_on(squares[0]), MsgKey::UiRayNext),
            Some(i) => args(&self.piece_on(squares[i]), MsgKey::UiRayBlocked),
        })
    }

    /// `ray SQUARE [SQUARE]`: one direction (towards the second square),
    /// or all eight.
    fn rays(&self, squares: &[Square]) -> Utterance {
        let Some(from) = squares.first().copied() else {
            return self.need_square(Cmd::Ray, Square::E4);
        };
        if let Some(to) = squares.get(1).copied() {
            return match direction(from, to) {
                Some(d) => self.ray(from, d).unwrap_or_default(),
                None => {
                    let example = step(from, (1, 1), 1)
                        .or_else(|| step(from, (-1, -1), 1))
                        .unwrap_or(Square::E4);
                    self.vocab.message(
                        MsgKey::UiRayNotInLine,
                        &[
                            ("from", &self.vocab.square(from)),
                            ("to", &self.vocab.square(to)),
                            (
                                "example",
                                &Utterance::plain(format!(
                                    "{} {} {}",
                                    self.words.shown(Cmd::Ray),
                                    self.vocab.square(from).display,
                                    self.vocab.square(example).display
                                )),
                            ),
                        ],
                    )
                }
            };
        }
        let mut out = Utterance::default();
        for d in DIRECTIONS {
            if let Some(u) = self.ray(from, d) {
                append(&mut out, &u);
            }
        }
        out
    }

    /// What the piece on `sq` attacks, or what attacks or defends `sq`.
    fn attack(&self, cmd: Cmd, sq: Square) -> Utterance {
        let board = self.game.position().board();
        let occupied = board.occupied();
        let square = self.vocab.square(sq);
        let Some(piece) = board.piece_at(sq) else {
            if cmd != Cmd::Attackers {
                return self.vocab.message(
                    MsgKey::UiNoPieceThere,
                    &[
                        ("square", &square),
                        ("example", &self.vocab.square(self.example_piece_square())),
                    ],
                );
            }
            // An empty square: who controls it, each side.
            let mut out = Utterance::default();
            for c in [Color::White, Color::Black] {
                let by = board.attacks_to(sq, c, occupied);
                let side = self.vocab.side(c);
                let u = if by.is_empty() {
                    self.vocab.message(
                        MsgKey::UiSquareNotAttackedBy,
                        &[("square", &square), ("side", &side)],
                    )
                } else {
                    self.vocab.message(
                        MsgKey::UiSquareAttackedBy,
                        &[
                            ("square", &square),
                            ("side", &side),
                            ("pieces", &self.pieces_list(by)),
                        ],
                    )
                };
                append(&mut out, &u);
            }
            return out;
        };
        let (side, role) = self.piece_words(piece.color, piece.role);
        let args = |list: &Utterance| {
            [
                ("square", square.clone()),
                ("side", side.clone()),
                ("piece", role.clone()),
                ("list", list.clone()),
            ]
        };
        let say = |key: MsgKey, list: &Utterance| {
            let a = args(list);
            let refs: Vec<(&str, &Utterance)> = a.iter().map(|(k, v)| (*k, v)).collect();
            self.vocab.message(key, &refs)
        };
        match cmd {
            Cmd::Attacks => {
                let targets = shakmaty::attacks::attacks(sq, piece, occupied);
                if targets.is_empty() {
                    return say(MsgKey::UiAttacksNone, &Utterance::default());
                }
                let list = join(targets.into_iter().map(|t| match board.piece_at(t) {
                    Some(p) => {
                        let (s, r) = self.piece_words(p.color, p.role);
                        self.vocab.message(
                            MsgKey::UiSquareWith,
                            &[
                                ("square", &self.vocab.square(t)),
                                ("side", &s),
                                ("piece", &r),
                            ],
                        )
                    }
                    None => self.vocab.square(t),
                }));
                say(MsgKey::UiAttacks, &list)
            }
            Cmd::Attackers => {
                let by = board.attacks_to(sq, !piece.color, occupied);
                if by.is_empty() {
                    say(MsgKey::UiAttackersNone, &Utterance::default())
                } else {
                    let list = self.pieces_list(by);
                    let mut u = self.vocab.side(!piece.color);
                    append(&mut u, &list);
                    say(MsgKey::UiAttackers, &u)
                }
            }
            _ => {
                let by = board.attacks_to(sq, piece.color, occupied) & !Bitboard::from_square(sq);
                if by.is_empty() {
                    say(MsgKey::UiDefendersNone, &Utterance::default())
                } else {
                    say(MsgKey::UiDefenders, &self.pieces_list(by))
                }
            }
        }
    }

    /// The position in FEN: shown (and on the full screen copied), not
    /// read letter by letter: the spoken line says where it is.
    pub fn fen(&self) -> Utterance {
        let fen = Fen::from_position(self.game.position(), EnPassantMode::Legal).to_string();
        let text = Utterance {
            display: fen,
            spoken: self.vocab.message(MsgKey::UiFenShown, &[]).spoken,
        };
        self.vocab.message(MsgKey::UiFen, &[("fen", &text)])
    }

    /// The last [`LAST_MOVES`] moves of the game, numbered, in words.
    pub fn last_moves(&self) -> Utterance {
        let moves = self.game.moves();
        if moves.is_empty() {
            return self.vocab.message(MsgKey::UiNoLastMove, &[]);
        }
        let from = moves.len().saturating_sub(LAST_MOVES);
        let said = (from..moves.len()).filter_map(|i| {
            let pos = self.game.position_at(i)?;
            let number = Utterance::plain(pos.fullmoves().to_string());
            let words = self.vocab.announce(pos, moves[i], self.style);
            Some(self.vocab.message(
                MsgKey::ReviewMove,
                &[
                    ("number", &number),
                    ("side", &self.vocab.side(pos.turn())),
                    ("move", &words),
                ],
            ))
        });
        self.vocab
            .message(MsgKey::UiLastMoves, &[("moves", &join(said))])
    }

    /// The answer to a board query (`what`, `where`, `file`, `rank`,
    /// `pieces`, `legal`; `rest` is the rest of the typed line).
    pub fn answer(&self, cmd: Cmd, rest: &str) -> Utterance {
        // Only "where" and "pieces" take a side, named anywhere ("where
        // pawn black"); elsewhere "b" is a file.
        let (side, rest) = if matches!(cmd, Cmd::Where | Cmd::Pieces) {
            self.words.find_side(rest)
        } else {
            (None, rest.to_owned())
        };
        let tokens = self.tokens(&rest);
        let board = self.game.position().board().clone();
        let square = tokens.iter().find_map(|t| match t {
            Token::Square(s) => Some(*s),
            _ => None,
        });
        match cmd {
            Cmd::Diagonal => match square {
                Some(sq) => self.diagonals(sq),
                None => self.need_square(cmd, Square::E4),
            },
            Cmd::Ray => self.rays(&self.squares(&rest)),
            Cmd::Attacks | Cmd::Defenders => match square {
                Some(sq) => self.attack(cmd, sq),
                None => self.need_square(cmd, self.example_piece_square()),
            },
            Cmd::Attackers => match square {
                Some(sq) => self.attack(cmd, sq),
                None => self.need_square(cmd, Square::E4),
            },
            Cmd::Fen => self.fen(),
            Cmd::Last => self.last_move(),
            Cmd::LastFive => self.last_moves(),
            Cmd::What => match square {
                Some(sq) => match board.piece_at(sq) {
                    Some(p) => {
                        let (s, r) = self.piece_words(p.color, p.role);
                        self.vocab.message(
                            MsgKey::UiSquarePiece,
                            &[
                                ("square", &self.vocab.square(sq)),
                                ("side", &s),
                                ("piece", &r),
                            ],
                        )
                    }
                    None => self
                        .vocab
                        .message(MsgKey::UiSquareEmpty, &[("square", &self.vocab.square(sq))]),
                },
                None => self
                    .vocab
                    .message(MsgKey::UiNeedSquare, &[("example", &self.example_square())]),
            },
            Cmd::Legal => match square {
                Some(sq) => match board.piece_at(sq) {
                    Some(p) => {
                        // The opponent's piece: its moves as if it were
                        // its turn.
                        let swapped;
                        let pos = if p.color == self.game.turn() {
                            self.game.position()
                        } else {
                            match self.game.position().clone().swap_turn() {
                                Ok(s) => {
                                    swapped = s;
                                    &swapped
                                }
                                Err(_) => self.game.position(),
                            }
                        };
                        let moves: Vec<Move> = pos
                            .legal_moves()
                            .into_iter()
                            .filter(|m| m.from() == Some(sq))
                            .collect();
                        let piece = self.vocab.piece(p.role);
                        if moves.is_empty() {
                            self.vocab.message(
                                MsgKey::UiNoLegalMoves,
                                &[("piece", &piece), ("square", &self.vocab.square(sq))],
                            )
                        } else {
                            let list = join(
                                moves
                                    .iter()
                                    .map(|m| self.vocab.announce(pos, *m, self.style)),
                            );
                            self.vocab.message(
                                MsgKey::UiLegalMoves,
                                &[
                                    ("piece", &piece),
                                    ("square", &self.vocab.square(sq)),
                                    ("moves", &list),
                                ],
                            )
                        }
                    }
                    None => self.vocab.message(
                        MsgKey::UiNoPieceThere,
                        &[
                            ("square", &self.vocab.square(sq)),
                            ("example", &self.vocab.square(self.example_piece_square())),
                        ],
                    ),
                },
                None => self.vocab.message(
                    MsgKey::UiNeedSquare,
                    &[("example", &self.vocab.square(self.example_piece_square()))],
                ),
            },
            Cmd::Where => {
                let role = tokens.iter().find_map(|t| match t {
                    Token::Piece(r) => Some(*r),
                    _ => None,
                });
                let Some(role) = role else {
                    return self.vocab.message(
                        MsgKey::UiNeedPiece,
                        &[("example", &self.vocab.piece(Role::Knight))],
                    );
                };
                let colors: Vec<Color> = match side {
                    Some(c) => vec![c],
                    None => vec![Color::White, Color::Black],
                };
                let mut out = Utterance::default();
                for c in colors {
                    let squares: Vec<Square> = (board.by_color(c) & board.by_role(role))
                        .into_iter()
                        .collect();
                    let (s, r) = self.piece_words(c, role);
                    let u = if squares.is_empty() {
                        self.vocab
                            .message(MsgKey::UiWhereNone, &[("side", &s), ("piece", &r)])
                    } else {
                        let list = join(squares.iter().map(|sq| self.vocab.square(*sq)));
                        self.vocab.message(
                            MsgKey::UiWhere,
                            &[("side", &s), ("piece", &r), ("squares", &list)],
                        )
                    };
                    append(&mut out, &u);
                }
                out
            }
            Cmd::File | Cmd::Rank => {
                let word = |w: &crate::locale::Word| Utterance {
                    display: w.display.clone(),
                    spoken: w.spoken.clone(),
                };
                let squares: Option<(Utterance, Vec<Square>)> = if cmd == Cmd::File {
                    tokens
                        .iter()
                        .find_map(|t| match t {
                            Token::File(f) => Some(*f),
                            Token::Square(s) => Some(s.file()),
                            _ => None,
                        })
                        .map(|f| {
                            let sq = Square::ALL.iter().copied().filter(|s| s.file() == f);
                            (word(self.vocab.locale().file(f)), sq.collect())
                        })
                } else {
                    tokens
                        .iter()
                        .find_map(|t| match t {
                            Token::Rank(r) => Some(*r),
                            Token::Square(s) => Some(s.rank()),
                            _ => None,
                        })
                        .map(|r| {
                            let sq = Square::ALL.iter().copied().filter(|s| s.rank() == r);
                            (word(self.vocab.locale().rank(r)), sq.collect())
                        })
                };
                let Some((line, squares)) = squares else {
                    let example = if cmd == Cmd::File {
                        let w = self.vocab.locale().file(shakmaty::File::E);
                        Utterance {
                            display: format!("{} {}", self.words.shown(cmd), w.display),
                            spoken: format!("{} {}", self.words.shown(cmd), w.spoken),
                        }
                    } else {
                        let w = self.vocab.locale().rank(shakmaty::Rank::Second);
                        Utterance {
                            display: format!("{} {}", self.words.shown(cmd), w.display),
                            spoken: format!("{} {}", self.words.shown(cmd), w.spoken),
                        }
                    };
                    return self
                        .vocab
                        .message(MsgKey::UiNeedLine, &[("example", &example)]);
                };
                let pieces: Vec<Utterance> = squares
                    .iter()
                    .filter_map(|sq| {
                        board.piece_at(*sq).map(|p| {
                            let (s, r) = self.piece_words(p.color, p.role);
                            let mut u = s;
                            append(&mut u, &r);
                            append(&mut u, &self.vocab.square(*sq));
                            u
                        })
                    })
                    .collect();
                if pieces.is_empty() {
                    self.vocab.message(MsgKey::UiLineEmpty, &[("line", &line)])
                } else {
                    self.vocab.message(
                        MsgKey::UiLine,
                        &[("line", &line), ("pieces", &join(pieces.into_iter()))],
                    )
                }
            }
            Cmd::Pieces => {
                let c = side.unwrap_or_else(|| self.game.turn());
                let mut list = Vec::new();
                for role in [
                    Role::King,
                    Role::Queen,
                    Role::Rook,
                    Role::Bishop,
                    Role::Knight,
                    Role::Pawn,
                ] {
                    for sq in board.by_color(c) & board.by_role(role) {
                        let mut u = self.vocab.piece(role);
                        append(&mut u, &self.vocab.square(sq));
                        list.push(u);
                    }
                }
                self.vocab.message(
                    MsgKey::UiPiecesOf,
                    &[
                        ("side", &self.vocab.side(c)),
                        ("pieces", &join(list.into_iter())),
                    ],
                )
            }
            _ => Utterance::default(),
        }
    }

    /// The last move of the game, in words.
    pub fn last_move(&self) -> Utterance {
        let game = self.game;
        let moves = game.moves();
        let Some((last, before)) = moves.split_last() else {
            return self.vocab.message(MsgKey::UiNoLastMove, &[]);
        };
        let pos = game.position_at(before.len()).unwrap_or(game.start());
        let words = self.vocab.announce(pos, *last, self.style);
        self.vocab.message(
            MsgKey::UiLastMove,
            &[("side", &self.vocab.side(pos.turn())), ("move", &words)],
        )
    }
}

pub fn append(u: &mut Utterance, other: &Utterance) {
    if other.display.is_empty() {
        return;
    }
    if !u.display.is_empty() {
        u.display.push(' ');
        u.spoken.push(' ');
    }
    u.display.push_str(&other.display);
    u.spoken.push_str(&other.spoken);
}

pub fn join(items: impl Iterator<Item = Utterance>) -> Utterance {
    let mut out = Utterance::default();
    for (i, u) in items.enumerate() {
        if i > 0 {
            out.display.push_str(", ");
            out.spoken.push_str(", ");
        }
        out.display.push_str(&u.display);
        out.spoken.push_str(&u.spoken);
    }
    out
}
