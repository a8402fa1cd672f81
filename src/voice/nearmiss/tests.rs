//! Scoring, candidate order, the cap at three, far-off hearings, and the
//! costs file's checks.

use super::*;
use crate::vocab::Vocabulary;
use crate::voice::commands::SpokenCommandWords;
use crate::voice::decide::{Alternative, HeardWord};
use crate::voice::grammar::Spellings;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess};

fn hearing(texts: &[&str]) -> Hearing {
    Hearing {
        alternatives: texts
            .iter()
            .map(|t| Alternative {
                text: (*t).to_owned(),
                confidence: None,
                words: t
                    .split_whitespace()
                    .map(|w| HeardWord {
                        word: w.to_owned(),
                        conf: None,
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn ko_grammar(fen: &str) -> (Chess, Grammar) {
    let vocab = Vocabulary::builtin("ko").unwrap();
    let commands = SpokenCommandWords::from_vocab(&vocab);
    let mut knows = |w: &str| !w.is_ascii();
    let sp = Spellings::choose(&vocab, &commands, &mut knows);
    let pos = crate::pgn::position_from_fen(fen, CastlingMode::Standard).unwrap();
    let g = Grammar::build(&vocab, &sp, &pos, CastlingMode::Standard);
    (pos, g)
}

fn mv(pos: &Chess, uci: &str) -> Move {
    uci.parse::<UciMove>().unwrap().to_move(pos).unwrap()
}

const ROOKS: &str = "4k3/8/8/8/8/R7/8/4K3 w - - 0 1";

#[test]
fn distance_counts_weighted_word_edits() {
    let uniform = WordCosts::default();
    assert_eq!(
        uniform.distance(&["룩", "델타", "삼"], &["룩", "델타", "삼"]),
        0.0
    );
    assert_eq!(
        uniform.distance(&["룩", "델타", "삼"], &["룩", "사", "삼"]),
        1.0
    );
    assert_eq!(uniform.distance(&["룩", "델타", "삼"], &["룩", "삼"]), 1.0);
    assert_eq!(
        uniform.distance(&["에코", "사"], &["이", "에코", "사"]),
        1.0
    );
    assert_eq!(uniform.distance(&["룩", "델타", "삼"], &[]), 3.0);
    assert_eq!(uniform.distance(&[], &["사"]), 1.0);
    let learned = WordCosts::from_toml(
        "t.costs.toml",
        r#"
default_substitute = 1.2
substitute = [{ said = "델타", heard = "사", cost = 0.3 }]
insert = [{ heard = "이", cost = 0.2 }]
delete = [{ said = "델타", cost = 0.4 }]
"#,
    )
    .unwrap();
    assert!((learned.distance(&["룩", "델타", "삼"], &["룩", "사", "삼"]) - 0.3).abs() < 1e-6);
    // Not symmetric: hearing "델타" where "사" was said is not listed.
    assert!((learned.distance(&["룩", "사", "삼"], &["룩", "델타", "삼"]) - 1.2).abs() < 1e-6);
    assert!((learned.distance(&["에코", "사"], &["이", "에코", "사"]) - 0.2).abs() < 1e-6);
    assert!((learned.distance(&["룩", "델타", "삼"], &["룩", "삼"]) - 0.4).abs() < 1e-6);
}

#[test]
fn one_word_off_is_asked_about_with_the_closest_move_first() {
    let (pos, g) = ko_grammar(ROOKS);
    let phrases = PhraseWords::new(&g);
    let costs = WordCosts::from_toml(
        "t.costs.toml",
        r#"substitute = [{ said = "델타", heard = "사", cost = 0.3 }, { said = "찰리", heard = "사", cost = 0.6 }]"#,
    )
    .unwrap();
    // Said "룩 델타 삼" (Rd3), heard "룩 사 삼": no move; Rd3 is closest,
    // then Rc3.
    let got = near_misses(
        &costs,
        &phrases,
        &hearing(&["룩 사 삼"]),
        &NearMissRules::default(),
    );
    assert_eq!(got, vec![mv(&pos, "a3d3"), mv(&pos, "a3c3")]);
}

#[test]
fn candidates_are_capped_at_three_best_first() {
    let (pos, g) = ko_grammar(ROOKS);
    let phrases = PhraseWords::new(&g);
    let costs = WordCosts::from_toml(
        "t.costs.toml",
        r#"substitute = [
  { said = "델타", heard = "사", cost = 0.1 },
  { said = "찰리", heard = "사", cost = 0.2 },
  { said = "브라보", heard = "사", cost = 0.3 },
  { said = "에코", heard = "사", cost = 0.4 },
]"#,
    )
    .unwrap();
    let got = near_misses(
        &costs,
        &phrases,
        &hearing(&["룩 사 삼"]),
        &NearMissRules::default(),
    );
    assert_eq!(
        got,
        vec![mv(&pos, "a3d3"), mv(&pos, "a3c3"), mv(&pos, "a3b3")]
    );
    // Ordering over all meanings, best first.
    let scored = rank(&costs, &phrases, &hearing(&["룩 사 삼"]), 0.1);
    assert!(scored.windows(2).all(|w| w[0].cost <= w[1].cost));
    assert_eq!(scored[0].meaning, PhraseMeaning::Move(mv(&pos, "a3d3")));
}

#[test]
fn too_many_equally_close_moves_are_not_a_question() {
    let (_, g) = ko_grammar(ROOKS);
    let phrases = PhraseWords::new(&g);
    // Uniform costs: "룩 사 삼" is one word off Ra3, Rb3, Rc3, Rd3 (and
    // more): no move stands out, so nothing is asked.
    let got = near_misses(
        &WordCosts::default(),
        &phrases,
        &hearing(&["룩 사 삼"]),
        &NearMissRules::default(),
    );
    assert!(got.is_empty(), "{got:?}");
}

#[test]
fn a_far_off_hearing_is_no_question() {
    let (_, g) = ko_grammar("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let phrases = PhraseWords::new(&g);
    let costs = WordCosts::builtin("ko");
    for far in [
        "시간 시간 시간 다시",
        "<UNK> <UNK> <UNK>",
        "퀸 퀸 퀸 퀸 퀸",
        "프로모션 체크 앙파상",
    ] {
        let got = near_misses(
            &costs,
            &phrases,
            &hearing(&[far]),
            &NearMissRules::default(),
        );
        assert!(got.is_empty(), "{far}: {got:?}");
    }
}

#[test]
fn a_single_heard_word_is_no_question() {
    // Noise is often heard as one word ("브라보"), near many moves.
    let (_, g) = ko_grammar("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let phrases = PhraseWords::new(&g);
    for one in ["브라보", "삼", "룩"] {
        let got = near_misses(
            &WordCosts::builtin("ko"),
            &phrases,
            &hearing(&[one]),
            &NearMissRules::default(),
        );
        assert!(got.is_empty(), "{one}: {got:?}");
    }
}

#[test]
fn a_command_as_close_as_any_move_is_no_question() {
    let (_, g) = ko_grammar(ROOKS);
    let phrases = PhraseWords::new(&g);
    // "시간" (time) is a command phrase: exact, cost 0.
    let got = near_misses(
        &WordCosts::default(),
        &phrases,
        &hearing(&["시간"]),
        &NearMissRules::default(),
    );
    assert!(got.is_empty(), "{got:?}");
}

#[test]
fn later_alternatives_count_with_a_rank_penalty() {
    let (pos, g) = ko_grammar(ROOKS);
    let phrases = PhraseWords::new(&g);
    // The second alternative is exactly Rd3; the first is far off.
    let got = near_misses(
        &WordCosts::default(),
        &phrases,
        &hearing(&["시간 시간 시간", "룩 델타 삼"]),
        &NearMissRules::default(),
    );
    assert_eq!(got.first(), Some(&mv(&pos, "a3d3")));
    let scored = rank(
        &WordCosts::default(),
        &phrases,
        &hearing(&["시간 시간 시간", "룩 델타 삼"]),
        0.1,
    );
    assert!((scored[0].cost - 0.1).abs() < 1e-6);
}

#[test]
fn a_word_heard_as_two_costs_its_learned_split() {
    let costs = WordCosts::from_toml(
        "t.costs.toml",
        r#"
split = [{ said = "호텔", first = "에코", second = "퀸", cost = 0.3 }]
"#,
    )
    .unwrap();
    // "룩 호텔 육" heard as "룩 에코 퀸 육": the split, not a substitution
    // and an insertion (2).
    assert!(
        (costs.distance(&["룩", "호텔", "육"], &["룩", "에코", "퀸", "육"]) - 0.3).abs() < 1e-6
    );
    // Only the listed pair, in its order.
    assert_eq!(
        costs.distance(&["룩", "호텔", "육"], &["룩", "퀸", "에코", "육"]),
        2.0
    );
    // A word without a listed split: a substitution and an insertion.
    assert_eq!(
        costs.distance(&["룩", "델타", "육"], &["룩", "에코", "퀸", "육"]),
        2.0
    );
    assert!((costs.split("호텔", "에코", "퀸") - 0.3).abs() < 1e-6);
    assert_eq!(costs.split("호텔", "퀸", "에코"), 2.0);
    // Never dearer than the plain edits.
    assert_eq!(costs.split("호텔", "호텔", "퀸"), 1.0);
}

#[test]
fn the_right_move_comes_first_when_its_word_was_heard_as_two() {
    // h8h6 said ("룩 호텔 육"), heard "룩 에코 퀸 육": without the split
    // other moves are as near (a substitution and an insertion away).
    let (pos, g) = ko_grammar("7r/8/8/8/8/8/8/K1k5 b - - 0 1");
    let costs = |split: &str| {
        WordCosts::from_toml(
            "t.costs.toml",
            &format!("substitute = [{{ said = \"육\", heard = \"오\", cost = 0.3 }}]\n{split}"),
        )
        .unwrap()
    };
    let phrases = PhraseWords::new(&g);
    let heard = hearing(&["룩 에코 퀸 육"]);
    let rules = NearMissRules::default();
    let with = near_misses(
        &costs(r#"split = [{ said = "호텔", first = "에코", second = "퀸", cost = 0.3 }]"#),
        &phrases,
        &heard,
        &rules,
    );
    assert_eq!(with.first(), Some(&mv(&pos, "h8h6")));
    let without = rank(&costs(""), &phrases, &heard, 0.0);
    assert!(without[1].cost <= without[0].cost, "{without:?}");
}

#[test]
fn costs_files_are_checked_like_locale_files() {
    let err = |text: &str| WordCosts::from_toml("x.costs.toml", text).unwrap_err();
    let key = |e: LocaleError| match e {
        LocaleError::Invalid { key, problem, .. } => (key, problem),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        key(err("default_insert = -1")),
        ("default_insert".to_owned(), LocaleProblem::BadCost)
    );
    assert_eq!(
        key(err("default_insert = nan")),
        ("default_insert".to_owned(), LocaleProblem::BadCost)
    );
    assert_eq!(
        key(err("default_insert = \"x\"")),
        ("default_insert".to_owned(), LocaleProblem::BadCost)
    );
    assert_eq!(
        key(err(
            r#"substitute = [{ said = "a", heard = "b", cost = 11 }]"#
        )),
        ("substitute[0].cost".to_owned(), LocaleProblem::BadCost)
    );
    assert_eq!(
        key(err(r#"substitute = [{ said = "a", cost = 1 }]"#)),
        ("substitute[0].heard".to_owned(), LocaleProblem::Missing)
    );
    assert_eq!(
        key(err(r#"insert = [{ heard = " ", cost = 1 }]"#)),
        ("insert[0].heard".to_owned(), LocaleProblem::EmptySpelling)
    );
    assert!(matches!(
        key(err(r#"delete = [{ said = "a", cost = 1, why = 2 }]"#)),
        (k, LocaleProblem::UnknownKey { .. }) if k == "delete[0].why"
    ));
    assert_eq!(
        key(err(r#"split = [{ said = "a", first = "b", cost = 1 }]"#)),
        ("split[0].second".to_owned(), LocaleProblem::Missing)
    );
    assert!(matches!(
        key(err("colour = 1")),
        (k, LocaleProblem::UnknownKey { .. }) if k == "colour"
    ));
    assert!(matches!(
        WordCosts::from_toml("x.costs.toml", "substitute = ["),
        Err(LocaleError::Syntax { .. })
    ));
    let big = format!("# {}", "x".repeat(crate::locale::MAX_LOCALE_BYTES as usize));
    assert_eq!(key(err(&big)).1, LocaleProblem::TooLarge);
}

#[test]
fn every_builtin_costs_file_reads_and_names_only_locale_words() {
    for (code, text) in BUILTIN {
        let file = format!("locales/{code}.costs.toml");
        let costs = WordCosts::from_toml(&file, text).unwrap_or_else(|e| panic!("{file}: {e:?}"));
        let vocab = Vocabulary::builtin(code).unwrap();
        let commands = SpokenCommandWords::from_vocab(&vocab);
        let mut knows = |w: &str| !w.is_ascii();
        let sp = Spellings::choose(&vocab, &commands, &mut knows);
        let words = sp.all_words();
        let known =
            |w: &str| words.iter().any(|x| x == w) || w.starts_with('<') || w.starts_with('[');
        for (said, heard) in &costs.substitute {
            assert!(known(said), "{file}: {said}");
            for h in heard.keys() {
                assert!(known(h), "{file}: {h}");
            }
        }
        for (said, firsts) in &costs.split {
            assert!(known(said), "{file}: {said}");
            for (first, seconds) in firsts {
                assert!(known(first), "{file}: {first}");
                for second in seconds.keys() {
                    assert!(known(second), "{file}: {second}");
                }
            }
        }
        for w in costs.insert.keys().chain(costs.delete.keys()) {
            assert!(known(w), "{file}: {w}");
        }
    }
}
