//! Recognizer vocabulary and per-position grammars (pure core).
//!
//! A speech model knows a fixed list of words. [`Spellings`] picks, for every
//! word the active locale needs (files, ranks, pieces, move words and the
//! voice commands), the first accepted spelling the model knows; words with
//! no known spelling are reported as missing (typed input still works for
//! them). [`Grammar::build`] then lists every phrase that means a legal move
//! of a position — in short and long style, with and without the capture and
//! check words — plus the voice commands, as the phrase list a Vosk
//! recognizer takes. Every move phrase is checked with
//! [`Vocabulary::parse`]: a phrase enters the grammar only if it reads back
//! as exactly its move.

use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, File, Move, Position, Rank, Role, Square};

use crate::locale::Word;
use crate::vocab::Vocabulary;

use super::commands::SpokenCommandWords;
use crate::commands::Cmd;

/// What a model knows of the words: `true` if the model can recognize the
/// word (Vosk words are lower-case).
pub trait WordList {
    /// Does the model know this single word?
    fn knows(&mut self, word: &str) -> bool;
}

impl<F: FnMut(&str) -> bool> WordList for F {
    fn knows(&mut self, word: &str) -> bool {
        self(word)
    }
}

/// A word of the locale for which the model knows no accepted spelling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingWord {
    /// Dotted key, e.g. `files.a` or `commands.yes`.
    pub key: String,
    /// The displayed spelling (what the user reads).
    pub display: String,
}

/// The spellings a recognizer listens for, one per word of the locale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spellings {
    files: [Option<String>; 8],
    ranks: [Option<String>; 8],
    /// By `Role` index − 1 (pawn … king).
    pieces: [Option<String>; 6],
    capture: Option<String>,
    check: Option<String>,
    mate: Option<String>,
    en_passant: Option<String>,
    promotion: Option<String>,
    castle_short: Option<String>,
    castle_long: Option<String>,
    /// Every known spelling of every command.
    commands: Vec<(Cmd, String)>,
    /// Every known spelling of the answers 1, 2, 3 to a numbered question.
    numbers: Vec<(usize, String)>,
    /// Words the model lacks.
    pub missing: Vec<MissingWord>,
}

/// Lower-cases a phrase and collapses its spaces: the form a Vosk model
/// stores and outputs.
pub fn model_form(phrase: &str) -> String {
    phrase
        .split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

fn known_phrase(words: &mut impl WordList, phrase: &str) -> Option<String> {
    let form = model_form(phrase);
    if form.is_empty() {
        return None;
    }
    form.split(' ').all(|w| words.knows(w)).then_some(form)
}

impl Spellings {
    /// Chooses the spellings of `vocab`'s locale that `words` knows; when
    /// `words` knows everything (typed text, tests), the first accepted
    /// spelling of each word is chosen.
    pub fn choose(
        vocab: &Vocabulary,
        commands: &SpokenCommandWords,
        words: &mut impl WordList,
    ) -> Spellings {
        let loc = vocab.locale();
        let mut missing = Vec::new();
        let mut pick = |key: String, w: &Word| -> Option<String> {
            let found = w.accept.iter().find_map(|form| known_phrase(words, form));
            if found.is_none() {
                missing.push(MissingWord {
                    key,
                    display: w.display.clone(),
                });
            }
            found
        };
        let files = File::ALL.map(|f| pick(format!("files.{}", f.char()), loc.file(f)));
        let ranks = Rank::ALL.map(|r| pick(format!("ranks.{}", r.char()), loc.rank(r)));
        let pieces = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ]
        .map(|r| {
            pick(
                format!("pieces.{}", crate::locale::role_key(r)),
                loc.piece(r),
            )
        });
        let w = &loc.words;
        let capture = pick("words.capture".into(), &w.capture);
        let check = pick("words.check".into(), &w.check);
        let mate = pick("words.mate".into(), &w.mate);
        let en_passant = pick("words.en_passant".into(), &w.en_passant);
        let promotion = pick("words.promotion".into(), &w.promotion);
        let castle_short = pick("words.castle_short".into(), &w.castle_short);
        let castle_long = pick("words.castle_long".into(), &w.castle_long);
        let mut command_spellings = Vec::new();
        for (cmd, forms) in commands.iter() {
            let mut any = false;
            for form in forms {
                if let Some(s) = known_phrase(words, form) {
                    if !command_spellings.iter().any(|(_, x)| *x == s) {
                        command_spellings.push((cmd, s));
                    }
                    any = true;
                }
            }
            if !any {
                missing.push(MissingWord {
                    key: cmd
                        .row()
                        .spoken
                        .map(|k| k.as_str().to_owned())
                        .unwrap_or_default(),
                    display: forms.first().cloned().unwrap_or_default(),
                });
            }
        }
        let mut numbers = Vec::new();
        for (n, forms) in super::commands::ChoiceNumbers::from_vocab(vocab).iter() {
            for form in forms {
                if let Some(s) = known_phrase(words, form)
                    && !numbers.iter().any(|(_, x)| *x == s)
                {
                    numbers.push((n, s));
                }
            }
        }
        Spellings {
            files,
            ranks,
            pieces,
            capture,
            check,
            mate,
            en_passant,
            promotion,
            castle_short,
            castle_long,
            commands: command_spellings,
            numbers,
            missing,
        }
    }

    /// The spelling of a piece, if the model knows one.
    pub fn piece(&self, role: Role) -> Option<&str> {
        self.pieces[usize::from(role) - 1].as_deref()
    }

    /// The spelling of a square ("에코 사"), if the model knows both words.
    pub fn square(&self, sq: Square) -> Option<String> {
        let f = self.files[usize::from(sq.file())].as_deref()?;
        let r = self.ranks[usize::from(sq.rank())].as_deref()?;
        Some(format!("{f} {r}"))
    }

    /// Known command spellings.
    pub fn commands(&self) -> &[(Cmd, String)] {
        &self.commands
    }

    /// Known spellings of the answers to a numbered question.
    pub fn numbers(&self) -> &[(usize, String)] {
        &self.numbers
    }

    /// Every distinct single word the grammar can contain.
    pub fn all_words(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let singles = self
            .files
            .iter()
            .chain(&self.ranks)
            .chain(&self.pieces)
            .chain([
                &self.capture,
                &self.check,
                &self.mate,
                &self.en_passant,
                &self.promotion,
                &self.castle_short,
                &self.castle_long,
            ])
            .flatten()
            .map(String::as_str)
            .chain(self.commands.iter().map(|(_, s)| s.as_str()))
            .chain(self.numbers.iter().map(|(_, s)| s.as_str()));
        for phrase in singles {
            for w in phrase.split(' ') {
                if !out.iter().any(|x| x == w) {
                    out.push(w.to_owned());
                }
            }
        }
        out
    }

    /// The spoken phrases of one move in the model's spellings: short and
    /// long style, with and without the capture word, the en passant word
    /// and the check or mate word. Unchecked: see [`Grammar::build`].
    pub fn move_phrases(&self, pos: &Chess, m: Move) -> Vec<String> {
        let mut out = Vec::new();
        let suffix = {
            let mut after = pos.clone();
            after.play_unchecked(m);
            if after.is_checkmate() {
                self.mate.as_deref()
            } else if after.is_check() {
                self.check.as_deref()
            } else {
                None
            }
        };
        let mut bodies: Vec<Vec<String>> = Vec::new();
        if let Move::Castle { king, rook } = m {
            let w = if king < rook {
                &self.castle_short
            } else {
                &self.castle_long
            };
            if let Some(w) = w {
                bodies.push(vec![w.clone()]);
            }
        } else {
            let Some(to) = self.square(m.to()) else {
                return out;
            };
            let from = m.from();
            let (dis_file, dis_rank) = match San::from_move(pos, m) {
                San::Normal { file, rank, .. } => (file.is_some(), rank.is_some()),
                _ => (false, false),
            };
            let mut tail: Vec<Vec<String>> = vec![vec![to]];
            if m.is_en_passant()
                && let Some(ep) = &self.en_passant
            {
                let mut with = tail[0].clone();
                with.push(ep.clone());
                tail.push(with);
            }
            if let Some(p) = m.promotion() {
                let (Some(word), Some(piece)) = (self.promotion.as_deref(), self.piece(p)) else {
                    return out;
                };
                for t in &mut tail {
                    t.push(word.to_owned());
                    t.push(piece.to_owned());
                }
            }
            let captures: Vec<Option<&str>> = if m.is_capture() {
                match self.capture.as_deref() {
                    Some(c) => vec![Some(c), None],
                    None => vec![None],
                }
            } else {
                vec![None]
            };
            let piece = self.piece(m.role());
            // Short style.
            let mut short_head: Vec<String> = Vec::new();
            let mut short_ok = true;
            if m.role() != Role::Pawn {
                match piece {
                    Some(p) => short_head.push(p.to_owned()),
                    None => short_ok = false,
                }
            }
            if let Some(from) = from {
                let f = self.files[usize::from(from.file())].clone();
                let r = self.ranks[usize::from(from.rank())].clone();
                match (dis_file, dis_rank) {
                    (true, true) => match self.square(from) {
                        Some(s) => short_head.push(s),
                        None => short_ok = false,
                    },
                    (true, false) => match f {
                        Some(f) => short_head.push(f),
                        None => short_ok = false,
                    },
                    (false, true) => match r {
                        Some(r) => short_head.push(r),
                        None => short_ok = false,
                    },
                    (false, false) => {}
                }
            }
            // Long style: piece (pawns too), from-square.
            let long_head: Option<Vec<String>> = match (piece, from.and_then(|f| self.square(f))) {
                (Some(p), Some(f)) => Some(vec![p.to_owned(), f]),
                _ => None,
            };
            for head in [short_ok.then_some(short_head), long_head]
                .into_iter()
                .flatten()
            {
                for cap in &captures {
                    for t in &tail {
                        let mut words = head.clone();
                        if let Some(c) = cap {
                            words.push((*c).to_owned());
                        }
                        words.extend(t.iter().cloned());
                        bodies.push(words);
                    }
                }
            }
        }
        for body in bodies {
            let plain = body.join(" ");
            if let Some(s) = suffix {
                out.push(format!("{plain} {s}"));
            }
            out.push(plain);
        }
        out.dedup();
        out
    }
}

/// The phrases a recognizer listens for in one position.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Grammar {
    /// Phrases of legal moves, each with its move.
    pub moves: Vec<(String, Move)>,
    /// Phrases of voice commands.
    pub commands: Vec<(String, Cmd)>,
    /// Phrases of the answers to a numbered question (1, 2, 3).
    pub numbers: Vec<(String, usize)>,
    /// Every single word of the locale the model knows: the "word loop"
    /// a second, freer decoding uses to check the first.
    pub words: Vec<String>,
}

impl Grammar {
    /// Every phrase that means a legal move of `pos` (checked with
    /// [`Vocabulary::parse`]), plus the voice commands.
    pub fn build(
        vocab: &Vocabulary,
        spellings: &Spellings,
        pos: &Chess,
        mode: CastlingMode,
    ) -> Grammar {
        let mut moves = Vec::new();
        for m in pos.legal_moves() {
            for phrase in spellings.move_phrases(pos, m) {
                if vocab.parse(pos, mode, &phrase) == Ok(m)
                    && !moves.iter().any(|(p, _): &(String, Move)| *p == phrase)
                {
                    moves.push((phrase, m));
                }
            }
        }
        let commands = spellings
            .commands()
            .iter()
            .map(|(c, s)| (s.clone(), *c))
            .collect();
        let numbers = spellings
            .numbers()
            .iter()
            .map(|(n, s)| (s.clone(), *n))
            .collect();
        Grammar {
            moves,
            commands,
            numbers,
            words: spellings.all_words(),
        }
    }

    /// The phrase list for `vosk::Recognizer::new_with_grammar`: every
    /// phrase once, then `unk` (the model's word for "something else", if
    /// it has one), so that speech outside the grammar can come out as
    /// unknown instead of as the nearest move.
    pub fn phrases(&self, unk: Option<&str>) -> Vec<String> {
        let mut out: Vec<String> =
            Vec::with_capacity(self.moves.len() + self.commands.len() + self.numbers.len() + 1);
        for (p, _) in &self.moves {
            out.push(p.clone());
        }
        for p in self
            .commands
            .iter()
            .map(|(p, _)| p)
            .chain(self.numbers.iter().map(|(p, _)| p))
        {
            if !out.contains(p) {
                out.push(p.clone());
            }
        }
        if let Some(u) = unk {
            out.push(u.to_owned());
        }
        out
    }

    /// The word-loop phrase list: every word on its own, then `unk`.
    pub fn word_loop(&self, unk: Option<&str>) -> Vec<String> {
        let mut out = self.words.clone();
        if let Some(u) = unk {
            out.push(u.to_owned());
        }
        out
    }

    /// `true` when `heard` (in the model's form) is a whole phrase of the
    /// grammar — a legal move, a command or a number — that no other
    /// phrase goes on from: nothing the player could still be saying
    /// would make it another phrase (not "e4" while "e4 check" or, in long
    /// style, "e4 e5" is legal too). Hands-free, such an utterance is
    /// decided after a shorter silence.
    pub fn closes(&self, heard: &str) -> bool {
        let heard = model_form(heard);
        if heard.is_empty() {
            return false;
        }
        let all = || {
            self.moves
                .iter()
                .map(|(p, _)| p.as_str())
                .chain(self.commands.iter().map(|(p, _)| p.as_str()))
                .chain(self.numbers.iter().map(|(p, _)| p.as_str()))
        };
        all().any(|p| p == heard)
            && !all().any(|p| {
                p.len() > heard.len() && p.starts_with(&heard) && p.as_bytes()[heard.len()] == b' '
            })
    }

    /// `true` when the words heard so far (in the model's form) may be the
    /// player's phrase unfinished. Whatever came before may be misheard
    /// (the piece word of "pawn e2 e4" heard as another word), so every
    /// ending of them is tried; it may go on when
    /// - an ending is the beginning of a longer phrase ("eva vier" while
    ///   "eva vier eva fuenf" is legal; the draw offer while "draw
    ///   accepted" is a command too);
    /// - an ending of two words or more is found inside a phrase with
    ///   more words after it ("e2" heard after a misheard piece word, as
    ///   in "pawn e2 e4": a square a piece stands on, never a destination);
    /// - the last word ends no phrase (a file, a piece, the capture word).
    pub fn may_go_on(&self, heard: &str) -> bool {
        let heard = model_form(heard);
        let words: Vec<&str> = heard.split(' ').filter(|w| !w.is_empty()).collect();
        let Some(last) = words.last() else {
            return false;
        };
        let phrases: Vec<Vec<&str>> = self
            .moves
            .iter()
            .map(|(p, _)| p.as_str())
            .chain(self.commands.iter().map(|(p, _)| p.as_str()))
            .chain(self.numbers.iter().map(|(p, _)| p.as_str()))
            .map(|p| p.split(' ').filter(|w| !w.is_empty()).collect())
            .collect();
        if !phrases.iter().any(|p| p.last() == Some(last)) {
            return true;
        }
        (0..words.len()).any(|from| {
            let tail = &words[from..];
            phrases.iter().any(|p| {
                let inside = if tail.len() >= 2 {
                    p.len().saturating_sub(1)
                } else {
                    1
                };
                (0..inside.min(p.len()))
                    .any(|at| p.len() > at + tail.len() && p[at..at + tail.len()] == *tail)
            })
        })
    }

    /// The grammar as the JSON array Vosk takes.
    pub fn to_json(&self, unk: Option<&str>) -> String {
        serde_json::to_string(&self.phrases(unk)).unwrap_or_else(|_| "[]".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;

    fn all_known(_: &str) -> bool {
        true
    }

    fn setup(code: &str) -> (Vocabulary, Spellings) {
        let vocab = Vocabulary::builtin(code).unwrap();
        let cmds = SpokenCommandWords::from_vocab(&vocab);
        let mut k = all_known;
        let sp = Spellings::choose(&vocab, &cmds, &mut k);
        (vocab, sp)
    }

    fn uci(pos: &Chess, s: &str) -> Move {
        s.parse::<UciMove>().unwrap().to_move(pos).unwrap()
    }

    #[test]
    fn start_position_grammar_has_short_and_long_phrases_of_every_move() {
        let (vocab, sp) = setup("fide");
        let pos = Chess::default();
        let g = Grammar::build(&vocab, &sp, &pos, CastlingMode::Standard);
        let nf3 = uci(&pos, "g1f3");
        let phrases: Vec<&str> = g
            .moves
            .iter()
            .filter(|(_, m)| *m == nf3)
            .map(|(p, _)| p.as_str())
            .collect();
        assert!(phrases.contains(&"springer felix drei"), "{phrases:?}");
        assert!(
            phrases.contains(&"springer gustav eins felix drei"),
            "{phrases:?}"
        );
        // All 20 legal moves are sayable.
        let mut moves: Vec<Move> = g.moves.iter().map(|(_, m)| *m).collect();
        moves.dedup();
        moves.sort_by_key(|m| format!("{m:?}"));
        moves.dedup();
        assert_eq!(moves.len(), 20);
        assert!(g.commands.iter().any(|(_, c)| *c == Cmd::Yes));
    }

    #[test]
    fn every_phrase_reads_back_as_its_move_in_every_locale() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            // Captures, en passant, castling both sides, promotion with capture.
            "r3k2r/1P4P1/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
            // Knights that need disambiguation, check.
            "4k3/8/8/8/8/2N1N3/8/4K3 w - - 0 1",
        ];
        for code in crate::locale::builtin_codes() {
            let (vocab, sp) = setup(code);
            for fen in fens {
                let pos = crate::pgn::position_from_fen(fen, CastlingMode::Standard).unwrap();
                let g = Grammar::build(&vocab, &sp, &pos, CastlingMode::Standard);
                let legal = pos.legal_moves();
                for m in &legal {
                    assert!(
                        g.moves.iter().any(|(_, x)| x == m),
                        "{code}: no phrase for {m:?} in {fen}"
                    );
                }
                for (p, m) in &g.moves {
                    assert_eq!(
                        vocab.parse(&pos, CastlingMode::Standard, p),
                        Ok(*m),
                        "{code}: {p}"
                    );
                }
            }
        }
    }

    #[test]
    fn capture_and_check_words_are_optional_variants() {
        let vocab = Vocabulary::builtin("en").unwrap();
        let cmds = SpokenCommandWords::from_vocab(&vocab);
        // A model that knows words, not digits.
        let mut knows = |w: &str| !w.chars().any(|c| c.is_ascii_digit());
        let sp = Spellings::choose(&vocab, &cmds, &mut knows);
        let pos = crate::pgn::position_from_fen(
            "4k3/8/8/3p4/4P3/8/8/4K2R w K - 0 1",
            CastlingMode::Standard,
        )
        .unwrap();
        let exd5 = uci(&pos, "e4d5");
        let phrases = sp.move_phrases(&pos, exd5);
        assert!(
            phrases.contains(&"e takes d five".to_owned()),
            "{phrases:?}"
        );
        assert!(phrases.contains(&"e d five".to_owned()), "{phrases:?}");
        assert!(
            phrases.contains(&"pawn e four takes d five".to_owned()),
            "{phrases:?}"
        );
        let rh8 = uci(&pos, "h1h8");
        let phrases = sp.move_phrases(&pos, rh8);
        assert!(
            phrases.contains(&"rook h eight check".to_owned()),
            "{phrases:?}"
        );
        assert!(phrases.contains(&"rook h eight".to_owned()), "{phrases:?}");
    }

    #[test]
    fn unknown_words_are_reported_and_their_moves_left_out() {
        let vocab = Vocabulary::builtin("ko").unwrap();
        let cmds = SpokenCommandWords::from_vocab(&vocab);
        // A model without the word for the knight and without file a.
        let mut knows = |w: &str| {
            !w.is_ascii() && w != "나이트" && w != "기사" && w != "말" && w != "알파" && w != "에이"
        };
        let sp = Spellings::choose(&vocab, &cmds, &mut knows);
        let keys: Vec<&str> = sp.missing.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["files.a", "pieces.knight"]);
        let pos = Chess::default();
        let g = Grammar::build(&vocab, &sp, &pos, CastlingMode::Standard);
        assert!(g.moves.iter().all(|(_, m)| m.role() != Role::Knight));
        assert!(g.moves.iter().all(|(_, m)| m.to().file() != File::A));
        assert!(g.moves.iter().any(|(_, m)| m.role() == Role::Pawn));
    }

    #[test]
    fn a_phrase_that_another_goes_on_from_does_not_close_an_utterance() {
        // A locale whose long style leaves the pawn out: "Eva vier" (e2-e4
        // in short style) while "Eva vier Eva fünf" (e4-e5 in long style,
        // another pawn) is legal too.
        let pos = crate::pgn::position_from_fen(
            "4k3/8/8/8/4P3/8/3P4/4K3 w - - 0 1",
            CastlingMode::Standard,
        )
        .unwrap();
        let g = Grammar {
            moves: vec![
                ("eva vier eva fuenf".to_owned(), uci(&pos, "e4e5")),
                ("david vier".to_owned(), uci(&pos, "d2d4")),
                ("eva fuenf".to_owned(), uci(&pos, "e4e5")),
            ],
            ..Grammar::default()
        };
        let mut g2 = g.clone();
        g2.moves.push(("eva vier".to_owned(), uci(&pos, "e4e5")));
        assert!(!g2.closes("eva vier"), "the player may go on: e5");
        assert!(g2.closes("eva vier eva fuenf"));
        assert!(g2.closes("Eva  Vier Eva Fuenf"), "in any spelling form");
        assert!(g2.closes("david vier"));
        // Not a phrase, or only the start of one.
        assert!(!g.closes("eva vier"));
        assert!(!g.closes("eva"));
        assert!(!g.closes("zebra"));
        assert!(!g.closes(""));
        // The words heard so far may be a phrase unfinished: any ending
        // of them that begins a longer phrase.
        assert!(g2.may_go_on("eva vier"));
        assert!(g2.may_go_on("zebra eva vier"), "after misheard words");
        assert!(g2.may_go_on("eva"));
        assert!(g.may_go_on("david"));
        assert!(!g2.may_go_on("eva vier eva fuenf"));
        assert!(!g2.may_go_on("zebra david vier"));
        assert!(!g2.may_go_on("vier"));
        assert!(!g2.may_go_on(""));
        // Inside a phrase: a square a piece stands on, after misheard words.
        assert!(g2.may_go_on("zebra eva vier"));
        assert!(!g2.may_go_on("zebra eva fuenf"), "a destination");
        // A last word that ends no phrase.
        assert!(g2.may_go_on("david vier eva"));
        assert!(g2.may_go_on("zebra"));

        // A real grammar: a move that gives check may be said with the
        // check word after it.
        let (vocab, sp) = setup("fide");
        let pos =
            crate::pgn::position_from_fen("1k6/8/8/8/8/8/8/K3R3 w - - 0 1", CastlingMode::Standard)
                .unwrap();
        let g = Grammar::build(&vocab, &sp, &pos, CastlingMode::Standard);
        let has = |p: &str| g.moves.iter().any(|(x, _)| x == p);
        assert!(has("turm eva acht schach") && has("turm eva acht"));
        assert!(!g.closes("turm eva acht"), "check may follow");
        assert!(g.closes("turm eva acht schach"));
        assert!(g.closes("turm eva eins eva acht schach"));
        assert!(g.closes("turm eva zwei"), "no check on e2");
        // Commands close unless another command goes on from them.
        for (c, _) in &g.commands {
            let extended = g
                .commands
                .iter()
                .any(|(p, _)| p.starts_with(&format!("{c} ")));
            assert_eq!(g.closes(c), !extended, "{c}");
        }
    }

    #[test]
    fn ko_picks_known_spellings_in_order() {
        let vocab = Vocabulary::builtin("ko").unwrap();
        let cmds = SpokenCommandWords::from_vocab(&vocab);
        // The first accepted spelling ("a", the display) is not a model word.
        let mut knows = |w: &str| !w.is_ascii();
        let sp = Spellings::choose(&vocab, &cmds, &mut knows);
        assert_eq!(sp.square(Square::A1).as_deref(), Some("알파 일"));
        assert_eq!(sp.square(Square::E2).as_deref(), Some("에코 이"));
        assert!(sp.missing.is_empty(), "{:?}", sp.missing);
        let json = Grammar::build(&vocab, &sp, &Chess::default(), CastlingMode::Standard)
            .to_json(Some("[unk]"));
        assert!(json.starts_with("[\""), "{json}");
        assert!(json.contains("\"나이트 골프 일 폭스트롯 삼\""), "{json}");
        assert!(json.ends_with("\"[unk]\"]"), "{json}");
    }
}
