//! Fuzzing the move parser in every built-in locale (property tests): random
//! strings, token soups of the locale's own words, long inputs. Nothing
//! panics, errors are values worded from locale data, and the notation
//! reader's work (counted by the reader) is bounded by the input's size.
//!
//! `make test` runs a few hundred cases; `make fuzz` many more (the number
//! comes from `PROPTEST_CASES`).

use proptest::prelude::*;
use shakmaty::{CastlingMode, Chess, Position};

use super::*;

/// Cases per property: `PROPTEST_CASES`, or `default` (kept small for
/// `make test`).
pub(crate) fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases: n,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Every built-in locale, compiled once.
fn vocabularies() -> &'static [Vocabulary] {
    static ALL: std::sync::OnceLock<Vec<Vocabulary>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        crate::locale::builtin_codes()
            .into_iter()
            .filter_map(|c| Vocabulary::builtin(c).ok())
            .collect()
    })
}

/// Positions to parse in: the start, a promotion race, a middle game.
fn positions() -> Vec<Chess> {
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8/2P5/8/8/8/8/p7/k6K w - - 0 1",
        "r3k2r/1P6/8/3pP3/8/5N2/8/RN2K2R w KQkq d6 0 1",
    ]
    .iter()
    .filter_map(|f| crate::pgn::read_fen(f, CastlingMode::Standard).ok())
    .collect()
}

/// Every accepted spelling of a locale's words, its notation letters and
/// some notation.
fn soup_words(v: &Vocabulary) -> Vec<String> {
    let l = v.locale();
    let mut out: Vec<String> = l
        .keyed_words()
        .into_iter()
        .flat_map(|(_, w)| w.accept.clone())
        .collect();
    out.extend(l.words.ignore.iter().cloned());
    out.extend(l.notation.pieces.iter().map(|(_, letter)| letter.clone()));
    out.extend(l.notation.files.iter().flatten().cloned());
    for s in [
        "e4", "x", "=", "+", "#", "-", "O-O", "0-0-0", "e.p.", "1", "8", "§",
    ] {
        out.push(s.to_owned());
    }
    out
}

/// The work of reading every word of `phrase` as notation, and the bound
/// it must stay under: linear in the phrase's length.
fn work_and_bound(v: &Vocabulary, phrase: &str) -> (usize, usize) {
    let work: usize = phrase
        .split(crate::input::is_word_separator)
        .map(|w| v.dict.lex_compact_counted(w).1)
        .sum();
    (work, 64 * (phrase.len() + 1))
}

/// Parses `phrase` in every locale and position; checks the error is a
/// value worded from locale data and the work is linear.
fn check_phrase(phrase: &str) -> Result<(), TestCaseError> {
    for v in vocabularies() {
        let (work, bound) = work_and_bound(v, phrase);
        prop_assert!(work <= bound, "{}: work {work} > {bound}", v.locale().code);
        let lexed = v.dict.tokenize(phrase);
        prop_assert!(lexed.alternatives.len() <= 16);
        for pos in positions() {
            if let Err(e) = v.parse(&pos, CastlingMode::Standard, phrase) {
                let said = v.describe_error(&pos, &e);
                prop_assert!(!said.display.is_empty());
                for key in ["parse.", "illegal.", "input."] {
                    prop_assert!(
                        !said.display.contains(key) || phrase.contains(key),
                        "{}: raw key in {}",
                        v.locale().code,
                        said.display
                    );
                }
            }
            let _ = pos.legal_moves();
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn random_text_never_panics(phrase in "\\PC{0,60}") {
        check_phrase(&phrase)?;
    }

    #[test]
    fn random_bytes_as_text_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..80)) {
        check_phrase(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn soups_of_the_locales_own_words(
        picks in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4), 1..14),
        locale in any::<prop::sample::Index>(),
    ) {
        let all = vocabularies();
        let v = &all[locale.index(all.len())];
        let words = soup_words(v);
        let mut phrase = String::new();
        for (pick, join) in picks {
            phrase.push_str(&words[pick.index(words.len())]);
            // Mostly spaces, sometimes glued into one long word.
            if join != 0 {
                phrase.push(' ');
            }
        }
        check_phrase(&phrase)?;
    }

    #[test]
    fn long_inputs_are_refused_or_read_in_linear_work(
        unit in prop::sample::select(vec!["מה", "e4", "ab", "Ζ", "מהה2 ", "x", "Springer ", "e4 "]),
        tail in prop::sample::select(vec!["", "§", "e4", " "]),
        n in 1usize..1500,
    ) {
        let phrase = format!("{}{tail}", unit.repeat(n));
        check_phrase(&phrase)?;
        if phrase.chars().count() > crate::input::MAX_LINE_CHARS {
            let pos = Chess::default();
            let v = &vocabularies()[0];
            prop_assert!(matches!(
                v.parse(&pos, CastlingMode::Standard, &phrase),
                Err(ParseError::TooLong(_))
            ));
        }
    }
}
