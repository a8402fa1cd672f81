//! Board queries (pure): what stands on a square, where the pieces of a
//! kind are, a file or rank scanned, all pieces of a side, the legal moves
//! of a piece, the last move. The play screen and the review of a game ask
//! them of a position, in the locale's words.

use shakmaty::{Color, Move, Position, Role, Square};

use crate::commands::{Cmd, CommandWords};
use crate::rules::Match;
use crate::vocab::lex::{Dictionary, Token};
use crate::vocab::{Style, Utterance, Vocabulary};

/// Asks board questions of one game position.
#[derive(Debug, Clone, Copy)]
pub struct Queries<'a> {
    /// The words.
    pub vocab: &'a Vocabulary,
    /// The command words (for examples in the answers).
    pub words: &'a CommandWords,
    /// The lexer of the locale's words (squares, pieces, files, ranks).
    pub dict: &'a Dictionary,
    /// How moves are worded.
    pub style: Style,
    /// The game asked about: its current position and last move.
    pub game: &'a Match,
}

impl Queries<'_> {
    /// The tokens of `text`: of the readings the lexer offers, the first
    /// with a square (so "b1" is the square, not bishop and rank).
    fn tokens(&self, text: &str) -> Vec<Token> {
        let lexed = self.dict.tokenize(text);
        let with_square = lexed
            .alternatives
            .iter()
            .position(|alt| alt.iter().any(|t| matches!(t, Token::Square(_))));
        let i = with_square.unwrap_or(0);
        lexed
            .alternatives
            .into_iter()
            .nth(i)
            .map(|t| t.into_vec())
            .unwrap_or_default()
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

    /// The answer to a board query (`what`, `where`, `file`, `rank`,
    /// `pieces`, `legal`; `rest` is the rest of the typed line).
    pub fn answer(&self, cmd: Cmd, rest: &str) -> Utterance {
        let (side, rest) = self.words.strip_side(rest);
        let tokens = self.tokens(rest);
        let board = self.game.position().board().clone();
        let square = tokens.iter().find_map(|t| match t {
            Token::Square(s) => Some(*s),
            _ => None,
        });
        match cmd {
            Cmd::What => match square {
                Some(sq) => match board.piece_at(sq) {
                    Some(p) => {
                        let (s, r) = self.piece_words(p.color, p.role);
                        self.vocab.message(
                            "ui.square_piece",
                            &[
                                ("square", &self.vocab.square(sq)),
                                ("side", &s),
                                ("piece", &r),
                            ],
                        )
                    }
                    None => self
                        .vocab
                        .message("ui.square_empty", &[("square", &self.vocab.square(sq))]),
                },
                None => self
                    .vocab
                    .message("ui.need_square", &[("example", &self.example_square())]),
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
                                "ui.no_legal_moves",
                                &[("piece", &piece), ("square", &self.vocab.square(sq))],
                            )
                        } else {
                            let list = join(
                                moves
                                    .iter()
                                    .map(|m| self.vocab.announce(pos, *m, self.style)),
                            );
                            self.vocab.message(
                                "ui.legal_moves",
                                &[
                                    ("piece", &piece),
                                    ("square", &self.vocab.square(sq)),
                                    ("moves", &list),
                                ],
                            )
                        }
                    }
                    None => self.vocab.message(
                        "ui.no_piece_there",
                        &[
                            ("square", &self.vocab.square(sq)),
                            ("example", &self.vocab.square(self.example_piece_square())),
                        ],
                    ),
                },
                None => self.vocab.message(
                    "ui.need_square",
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
                        "ui.need_piece",
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
                            .message("ui.where_none", &[("side", &s), ("piece", &r)])
                    } else {
                        let list = join(squares.iter().map(|sq| self.vocab.square(*sq)));
                        self.vocab.message(
                            "ui.where",
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
                    return self.vocab.message("ui.need_line", &[("example", &example)]);
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
                    self.vocab.message("ui.line_empty", &[("line", &line)])
                } else {
                    self.vocab.message(
                        "ui.line",
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
                    "ui.pieces_of",
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
            return self.vocab.message("ui.no_last_move", &[]);
        };
        let pos = game.position_at(before.len()).unwrap_or(game.start());
        let words = self.vocab.announce(pos, *last, self.style);
        self.vocab.message(
            "ui.last_move",
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
