//! The locale checker (pure): no sequence of a locale's accepted forms may
//! be read two ways that give different moves without the question "which
//! move?".
//!
//! The move reader ([`super::lex`]) settles some readings by itself: a word
//! that is exactly a piece letter is the piece; a word of the dictionary is
//! that word (never notation); of several phrases the longest wins; a typed
//! line that starts with a command word is that command, and a spoken one
//! that is a command's words is the command. Wherever such a decision
//! hides another meaning of the same words, the player who meant the other
//! meaning gets a move (or a command) he did not say, without a question,
//! or his move is refused. The checker finds these overlaps by
//! construction, from the locale's forms (token classes: pieces, files,
//! ranks, squares, move words, ignored words, piece letters, commands):
//!
//! 1. a piece letter that is also a word of another meaning (Korean 비: the
//!    first letter of 비숍, the bishop, and a spelling of the file b), or the
//!    letter of two pieces;
//! 2. a phrase whose first words are a form of their own and whose other
//!    words start more forms (Arabic كش ملك, check, and كش, check, followed
//!    by ملك, king): the reading the reader takes and the reading meant are
//!    compared by the grammar ([`super::parse::spec_from_tokens`]) in every
//!    context a move can give them;
//! 3. a word whose reading as notation is a whole move other than its
//!    meaning as a word;
//! 4. a command word that starts a move (typed), or whose words are a
//!    whole move (spoken).
//!
//! A word of compact notation that can be read in several ways (Hebrew מה,
//! the queen, or מ and ה, the king and the e-file) is no collision: the
//! reader keeps every reading, and where two readings are different move
//! descriptions the player is asked, whatever is legal (see
//! [`super::Vocabulary::parse`]).

use rustc_hash::FxHashMap;
use shakmaty::{File, Rank, Role, Square};

use super::lex::{self, Dictionary, Token, Tokens};
use super::parse::{MoveSpec, spec_from_tokens};
use crate::locale::MsgKey;
use crate::locale::{Locale, LocaleError, LocaleProblem};

/// A spelling and where the locale has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Form {
    /// The spelling.
    pub text: String,
    /// Its key (`files.b`, `pieces.bishop`, `ui.cmd.quit`, …).
    pub key: String,
}

/// Two spellings whose words can be read the same way with different
/// meanings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collision {
    /// The spelling that wins when read (the phrase, the piece letter, the
    /// command word).
    pub form: Form,
    /// The spelling it hides.
    pub other: Form,
    /// Words that are read as `form` although they can mean `other`.
    pub example: String,
}

/// A form of the locale as the checker sees it.
#[derive(Debug, Clone)]
struct Entry {
    /// As written (what a player types).
    text: String,
    /// Normalized words (what phrases are matched by).
    words: Vec<String>,
    /// Its meaning (empty for an ignored word).
    tokens: Tokens,
    key: String,
}

/// Every collision of `locale` (empty when the locale passes).
pub fn collisions(locale: &Locale) -> Vec<Collision> {
    let dict = Dictionary::new(locale);
    let entries = entries(locale);
    let mut by_first: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for (i, e) in entries.iter().enumerate() {
        if let Some(w) = e.words.first() {
            by_first.entry(w.as_str()).or_default().push(i);
        }
    }
    let ctx = Checker {
        dict: &dict,
        entries: &entries,
        by_first,
    };
    let mut out = Vec::new();
    ctx.letters(locale, &mut out);
    ctx.phrases(&mut out);
    ctx.words_as_notation(&mut out);
    ctx.commands(locale, &mut out);
    out
}

/// The first collision of `locale`, if any.
pub fn check(locale: &Locale) -> Result<(), Collision> {
    match collisions(locale).into_iter().next() {
        Some(c) => Err(c),
        None => Ok(()),
    }
}

/// The checker's verdict on `locale` (read from `file`): the first
/// collision, as an error naming both spellings.
pub fn verdict(locale: &Locale, file: &str) -> Result<(), LocaleError> {
    match check(locale) {
        Ok(()) => Ok(()),
        Err(c) => Err(LocaleError::Invalid {
            file: file.to_owned(),
            key: c.form.key,
            problem: LocaleProblem::Collision {
                form: c.form.text.into(),
                other: c.other.text.into(),
                other_key: c.other.key.into(),
                example: c.example.into(),
            },
        }),
    }
}

/// [`verdict`] on a built-in locale, worked out once per process (its text
/// is part of the binary).
pub(crate) fn builtin_verdict(locale: &Locale) -> Result<(), LocaleError> {
    type Verdicts = std::sync::Mutex<Vec<(String, Result<(), LocaleError>)>>;
    static VERDICTS: std::sync::OnceLock<Verdicts> = std::sync::OnceLock::new();
    let verdicts = VERDICTS.get_or_init(Default::default);
    let known = verdicts.lock().ok().and_then(|v| {
        v.iter()
            .find(|(c, _)| *c == locale.code)
            .map(|(_, r)| r.clone())
    });
    if let Some(v) = known {
        return v;
    }
    let v = verdict(locale, &format!("locales/{}.toml", locale.code));
    if let Ok(mut all) = verdicts.lock() {
        all.push((locale.code.clone(), v.clone()));
    }
    v
}

fn entries(locale: &Locale) -> Vec<Entry> {
    let mut out: Vec<Entry> = lex::locale_forms(locale)
        .into_iter()
        .map(|f| Entry {
            words: locale
                .normalize(&f.text)
                .split_whitespace()
                .map(str::to_owned)
                .collect(),
            tokens: f.token.into_iter().collect(),
            text: f.text,
            key: f.key,
        })
        .collect();
    // Piece letters said as words of their own ("B d4", "비 잡고 …").
    for (letter, role, key) in lex::letters(locale) {
        out.push(Entry {
            words: vec![locale.normalize(&letter)],
            text: letter,
            tokens: std::iter::once(Token::Piece(role)).collect(),
            key,
        });
    }
    out
}

struct Checker<'a> {
    dict: &'a Dictionary,
    entries: &'a [Entry],
    by_first: FxHashMap<&'a str, Vec<usize>>,
}

/// Readings of a phrase are compared inside these words said before and
/// after them: every place a form can have in a move.
fn contexts() -> (Vec<Vec<Token>>, Vec<Vec<Token>>) {
    use Token as T;
    let n = T::Piece(Role::Knight);
    let q = T::Piece(Role::Queen);
    let b1 = T::Square(Square::B1);
    let e2 = T::Square(Square::E2);
    let e4 = T::Square(Square::E4);
    let e7 = T::Square(Square::E7);
    let e8 = T::Square(Square::E8);
    let fb = T::File(File::B);
    let r1 = T::Rank(Rank::First);
    let before = vec![
        vec![],
        vec![n],
        vec![q],
        vec![n, fb],
        vec![n, r1],
        vec![n, b1],
        vec![n, b1, T::Capture],
        vec![n, T::Capture],
        vec![e2],
        vec![T::File(File::E)],
        vec![T::File(File::E), T::Capture],
        vec![e7],
        vec![e7, e8],
        vec![e7, e8, T::Promotion],
        vec![e8, T::Promotion],
        vec![T::Rank(Rank::Second)],
    ];
    let after = vec![
        vec![],
        vec![e4],
        vec![T::Rank(Rank::Fourth)],
        vec![T::File(File::D), T::Rank(Rank::Fourth)],
        vec![T::Capture, e4],
        vec![e2, e4],
        vec![T::Promotion, q],
        vec![q],
        vec![T::Check],
        vec![e8, q],
        vec![T::EnPassant],
    ];
    (before, after)
}

/// The move description of `tokens` as the reader builds it (a file
/// followed by a rank is a square).
fn spec(tokens: &[Token]) -> Option<MoveSpec> {
    let mut t: Tokens = tokens.iter().copied().collect();
    lex::pair_squares(&mut t);
    spec_from_tokens(&t).ok()
}

/// Whether `meant` (the tokens a player means) and the reader's `readings`
/// of the same words differ without a question in some context: the player
/// means a move, and the reader gives one other move (or refuses).
fn differs(meant: &[Token], readings: Option<&[Tokens]>) -> bool {
    let (before, after) = contexts();
    for pre in &before {
        for post in &after {
            let join = |middle: &[Token]| -> Vec<Token> {
                pre.iter().chain(middle).chain(post).copied().collect()
            };
            let Some(want) = spec(&join(meant)) else {
                continue;
            };
            let mut got: Vec<MoveSpec> = Vec::new();
            for r in readings.unwrap_or(&[]) {
                if let Some(s) = spec(&join(r))
                    && !got.contains(&s)
                {
                    got.push(s);
                }
            }
            // Two different readings: the player is asked.
            if got.len() <= 1 && got.first() != Some(&want) {
                return true;
            }
        }
    }
    false
}

impl Checker<'_> {
    /// The readings the reader gives `text` (`None`: a word it does not
    /// know).
    fn read(&self, text: &str) -> Option<Vec<Tokens>> {
        let lexed = self.dict.tokenize(text);
        lexed
            .unknown
            .is_empty()
            .then(|| lexed.alternatives.into_vec())
    }

    /// Rule 1: piece letters.
    fn letters(&self, locale: &Locale, out: &mut Vec<Collision>) {
        let letters = lex::letters(locale);
        for (i, (letter, role, key)) in letters.iter().enumerate() {
            if let Some((_, _, other)) = letters[i + 1..]
                .iter()
                .find(|(l, r, _)| l == letter && r != role)
            {
                out.push(Collision {
                    form: Form {
                        text: letter.clone(),
                        key: key.clone(),
                    },
                    other: Form {
                        text: letter.clone(),
                        key: other.clone(),
                    },
                    example: letter.clone(),
                });
            }
        }
        for e in self.entries {
            if e.text.split_whitespace().count() != 1 {
                continue;
            }
            let Some(role) = self.dict.piece_letter_word(&e.text) else {
                continue;
            };
            if e.tokens.as_slice() == [Token::Piece(role)] {
                continue;
            }
            let key = letters
                .iter()
                .find(|(l, r, _)| *r == role && *l == e.text)
                .map(|(_, _, k)| k.clone())
                .unwrap_or_default();
            out.push(Collision {
                form: Form {
                    text: e.text.clone(),
                    key,
                },
                other: Form {
                    text: e.text.clone(),
                    key: e.key.clone(),
                },
                example: e.text.clone(),
            });
        }
    }

    /// The ways `words` (normalized) can be said as forms: each a list of
    /// entries covering the words, the last of which may go on beyond them.
    fn continuations(&self, words: &[String], depth: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        let Some(first) = words.first() else {
            return vec![Vec::new()];
        };
        if depth == 0 {
            return out;
        }
        for &g in self.by_first.get(first.as_str()).into_iter().flatten() {
            let gw = &self.entries[g].words;
            if gw.len() <= words.len() {
                if gw[..] == words[..gw.len()] {
                    for mut rest in self.continuations(&words[gw.len()..], depth - 1) {
                        rest.insert(0, g);
                        out.push(rest);
                    }
                }
            } else if gw[..words.len()] == *words {
                out.push(vec![g]);
            }
            if out.len() > 64 {
                break;
            }
        }
        out
    }

    /// The text and the meaning of forms said one after the other.
    fn said(&self, forms: &[usize]) -> (String, Vec<Token>) {
        let text = forms
            .iter()
            .map(|&i| self.entries[i].text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let tokens = forms
            .iter()
            .flat_map(|&i| self.entries[i].tokens.iter().copied())
            .collect();
        (text, tokens)
    }

    /// Rule 2: a phrase of several words read as one, where its words can
    /// also be forms of their own.
    fn phrases(&self, out: &mut Vec<Collision>) {
        for p in self.entries.iter().filter(|e| e.words.len() > 1) {
            for split in 1..p.words.len() {
                let head = &p.words[..split];
                for &f in self.by_first.get(head[0].as_str()).into_iter().flatten() {
                    if self.entries[f].words != head {
                        continue;
                    }
                    for cont in self.continuations(&p.words[split..], 3) {
                        let forms: Vec<usize> = std::iter::once(f).chain(cont).collect();
                        let (text, meant) = self.said(&forms);
                        if differs(&meant, self.read(&text).as_deref()) {
                            let other = &self.entries[f];
                            out.push(Collision {
                                form: Form {
                                    text: p.text.clone(),
                                    key: p.key.clone(),
                                },
                                other: Form {
                                    text: other.text.clone(),
                                    key: other.key.clone(),
                                },
                                example: text,
                            });
                        }
                    }
                }
            }
        }
    }

    /// Rule 3: a word of the dictionary that, read as notation, is a whole
    /// move of its own.
    fn words_as_notation(&self, out: &mut Vec<Collision>) {
        for e in self.entries.iter().filter(|e| e.words.len() == 1) {
            let mine = spec(&e.tokens);
            for reading in self.dict.lex_compact(&e.text) {
                let Some(s) = spec(&reading) else { continue };
                if Some(s) != mine {
                    out.push(Collision {
                        form: Form {
                            text: e.text.clone(),
                            key: e.key.clone(),
                        },
                        other: Form {
                            text: e.text.clone(),
                            key: "notation".to_owned(),
                        },
                        example: e.text.clone(),
                    });
                    break;
                }
            }
        }
    }

    /// Rule 4: command words. A typed line that starts with a command's
    /// words is the command; a spoken phrase that is a command's words is
    /// the command.
    fn commands(&self, locale: &Locale, out: &mut Vec<Collision>) {
        let base = crate::locale::base();
        let mut sources: Vec<&Locale> = vec![locale];
        sources.extend(base.filter(|b| b.code != locale.code));
        for (key, typed) in command_keys() {
            for src in &sources {
                if !src.has_message(key) {
                    continue;
                }
                let text = src.message(key, &[]);
                for spelling in text.split('|').map(str::trim).filter(|s| !s.is_empty()) {
                    let words: Vec<String> = locale
                        .normalize(spelling)
                        .split_whitespace()
                        .map(str::to_owned)
                        .collect();
                    if words.is_empty() {
                        continue;
                    }
                    let hit = self.continuations(&words, 4).into_iter().find(|forms| {
                        let (text, meant) = self.said(forms);
                        let whole = forms
                            .iter()
                            .map(|&i| self.entries[i].words.len())
                            .sum::<usize>()
                            == words.len();
                        if !typed && !whole {
                            return false;
                        }
                        // The words begin (typed) or are (spoken) a move.
                        let (_, after) = contexts();
                        let posts: &[Vec<Token>] = if typed { &after } else { &after[..1] };
                        posts.iter().any(|post| {
                            let t: Vec<Token> = meant.iter().chain(post).copied().collect();
                            spec(&t).is_some() && !text.is_empty()
                        })
                    });
                    if let Some(forms) = hit {
                        let first = &self.entries[forms[0]];
                        out.push(Collision {
                            form: Form {
                                text: spelling.to_owned(),
                                key: key.as_str().to_owned(),
                            },
                            other: Form {
                                text: first.text.clone(),
                                key: first.key.clone(),
                            },
                            example: self.said(&forms).0,
                        });
                    }
                }
            }
        }
    }
}

/// The message keys holding command words: (key, typed?) — the play
/// screen's typed commands (`ui.cmd.*`) and the spoken ones
/// (`voice.cmd.*`).
fn command_keys() -> Vec<(MsgKey, bool)> {
    MsgKey::ALL
        .iter()
        .filter_map(|&k| {
            let name = k.as_str();
            if name.starts_with("ui.cmd.") && k != MsgKey::UiCmdWhite && k != MsgKey::UiCmdBlack {
                Some((k, true))
            } else if name.starts_with("voice.cmd.") {
                Some((k, false))
            } else {
                None
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locale::{self, BUILTIN};

    /// A built-in locale's text, loaded without the checker.
    fn text(code: &str) -> &'static str {
        BUILTIN.iter().find(|(c, _)| *c == code).unwrap().1
    }

    fn unchecked(text: &str) -> Locale {
        let mut l = Locale::from_toml("t.toml", text).unwrap();
        locale::complete(&mut l).unwrap();
        l
    }

    /// A small English-like locale with `extra` lines added at the end of
    /// `[words]` (and beyond).
    fn mini(files_a: &str, extra: &str) -> String {
        format!(
            r#"
[meta]
code = "t"
name = "test"
language = "en"
[files]
a = {files_a}
b = "bravo"
c = "charlie"
d = "delta"
e = "echo"
f = "foxtrot"
g = "golf"
h = "hotel"
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
    fn every_builtin_locale_passes() {
        for code in locale::builtin_codes() {
            let found = collisions(&unchecked(text(code)));
            assert!(found.is_empty(), "{code}: {found:?}");
        }
    }

    #[test]
    fn korean_without_its_letters_has_bi_as_file_and_bishop() {
        // Before the fix: the bishop's letter was the first syllable of
        // 비숍, and 비 is also how the file b is said.
        let ko = text("ko");
        let start = ko.find("[notation]").unwrap();
        let end = start + ko[start..].find("[messages]").unwrap();
        let old = format!("{}{}", &ko[..start], &ko[end..]);
        let found = collisions(&unchecked(&old));
        assert!(
            found.iter().any(|c| c.form.text == "비"
                && c.form.key == "pieces.bishop"
                && c.other.text == "비"
                && c.other.key == "files.b"),
            "{found:?}"
        );
    }

    #[test]
    fn a_user_locale_with_a_file_that_is_a_piece_letter_is_refused_in_one_line() {
        let mine = mini(r#"{ display = "a", accept = ["K"] }"#, "");
        let err = super::super::Vocabulary::from_file_text("mine.toml", &mine).unwrap_err();
        assert!(
            matches!(&err, LocaleError::Invalid { key, problem: LocaleProblem::Collision { form, other, other_key, .. }, .. }
                if key == "pieces.king" && &**form == "K" && &**other == "K" && &**other_key == "files.a"),
            "{err:?}"
        );
        for code in locale::builtin_codes() {
            let l = locale::builtin(code).unwrap();
            let line = err.describe(&l);
            assert!(
                !line.contains('\n') && line.contains("mine.toml"),
                "{code}: {line}"
            );
            assert!(
                line.contains("files.a") && line.contains("K"),
                "{code}: {line}"
            );
        }
        // Its twin: the same locale without the collision loads.
        assert!(
            super::super::Vocabulary::from_file_text("mine.toml", &mini(r#""alpha""#, "")).is_ok()
        );
    }

    #[test]
    fn two_pieces_with_one_letter_collide() {
        // Without notation letters, king and knight both begin with K.
        let l = unchecked(&mini(r#""alpha""#, "").replace("knight = \"N\"\n", ""));
        assert!(
            collisions(&l).iter().any(|c| c.form.text == "K"
                && c.form.key == "pieces.knight"
                && c.other.key == "pieces.king"),
            "{:?}",
            collisions(&l)
        );
        let l = unchecked(&mini(r#""alpha""#, "").replace("knight = \"N\"", "knight = \"K\""));
        let found = collisions(&l);
        assert!(
            found
                .iter()
                .any(|c| c.form.text == "K" && c.other.text == "K"),
            "{found:?}"
        );
    }

    #[test]
    fn a_phrase_that_hides_its_own_words_collides() {
        // "alpha one" (file a) is read as one phrase, but "alpha" is the
        // file a and "one" the first rank: "knight alpha one" means a1.
        let l = unchecked(&mini(
            r#"{ display = "alpha", accept = ["alpha one"] }"#,
            "",
        ));
        let found = collisions(&l);
        assert!(
            found
                .iter()
                .any(|c| c.form.text == "alpha one" && c.other.text == "alpha"),
            "{found:?}"
        );
        // Phrases whose parts mean the same move do not: "check mate" is
        // "check" then "mate", "en passant takes" …
        let l = unchecked(
            &mini(
                r#""alpha""#,
                "to = { display = \"to\", accept = [\"-\"] }\nignore = [\"please\"]",
            )
            .replace(
                "mate = \"mate\"",
                "mate = { display = \"mate\", accept = [\"check mate\"] }",
            )
            .replace(
                "promotion = \"promotes to\"",
                "promotion = { display = \"promotes\", accept = [\"promotes to\"] }",
            ),
        );
        assert_eq!(collisions(&l), Vec::new());
    }

    #[test]
    fn a_check_word_made_of_check_and_a_piece_is_no_collision() {
        // Arabic كش ملك (check) is كش (check) and ملك (king): a check word
        // ends a move, so the king can never follow it.
        let ar = unchecked(text("ar"));
        assert!(ar.words.check.accept.iter().any(|a| a == "كش ملك"));
        assert_eq!(collisions(&ar), Vec::new());
    }

    #[test]
    fn a_word_that_is_a_move_in_notation_collides() {
        let l = unchecked(&mini(r#""alpha""#, "").replace(
            "4 = \"four\"",
            "4 = { display = \"four\", accept = [\"e4\"] }",
        ));
        let found = collisions(&l);
        assert!(
            found.iter().any(|c| c.form.text == "e4"
                && c.form.key == "ranks.4"
                && c.other.key == "notation"),
            "{found:?}"
        );
    }

    #[test]
    fn command_words_that_start_a_move_collide() {
        // Typed: "Q d4" was read as "q", quit.
        let typed = mini(r#""alpha""#, "[messages]\n\"ui.cmd.quit\" = \"quit|q\"");
        let found = collisions(&unchecked(&typed));
        assert!(
            found.iter().any(|c| c.form.text == "q"
                && c.form.key == MsgKey::UiCmdQuit.as_str()
                && c.other.text == "Q"),
            "{found:?}"
        );
        // Spoken: a command's words that are a whole move.
        let spoken = mini(
            r#""alpha""#,
            "[messages]\n\"voice.cmd.time\" = \"time|echo four\"",
        );
        let found = collisions(&unchecked(&spoken));
        assert!(
            found
                .iter()
                .any(|c| c.form.text == "echo four" && c.form.key == MsgKey::VoiceCmdTime.as_str()),
            "{found:?}"
        );
        // A spoken command that only starts a move is no move.
        let spoken = mini(
            r#""alpha""#,
            "[messages]\n\"voice.cmd.time\" = \"time|echo\"",
        );
        assert_eq!(collisions(&unchecked(&spoken)), Vec::new());
    }
}
