//! Fuzzing the other text readers (property tests): time controls,
//! durations, PGN import and locale files. Nothing panics, errors are
//! values worded from locale data, and what is read back is within its
//! limits. The move parser is fuzzed in `vocab::fuzz`.
//!
//! `make test` runs a few hundred cases; `make fuzz` many more (the number
//! comes from `PROPTEST_CASES`).

use proptest::prelude::*;

use crate::clock::{MAX_DURATION, TimeControl, parse_duration};
use crate::locale::{self, Locale};
use crate::pgn::read_games;
use crate::vocab::{Vocabulary, fuzz::cases};

fn locales() -> &'static [Locale] {
    static ALL: std::sync::OnceLock<Vec<Locale>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        locale::builtin_codes()
            .into_iter()
            .filter_map(|c| locale::builtin(c).ok())
            .collect()
    })
}

/// A described error: not empty, no raw message key, no Rust escape.
fn worded(text: &str, input: &str) -> Result<(), TestCaseError> {
    prop_assert!(!text.is_empty());
    prop_assert!(!text.contains("\\u{") || input.contains("\\u{"), "{text}");
    for key in ["control.", "duration.", "input.", "pgn.", "fen.", "locale."] {
        prop_assert!(!text.contains(key) || input.contains(key), "{text}");
    }
    Ok(())
}

/// Text near the grammar of time controls and durations, with hostile
/// numbers and characters mixed in.
fn near_control() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("90".to_owned()),
        Just("m".to_owned()),
        Just("h".to_owned()),
        Just("s".to_owned()),
        Just("ms".to_owned()),
        Just("min".to_owned()),
        Just("/".to_owned()),
        Just("+".to_owned()),
        Just(",".to_owned()),
        Just(" ".to_owned()),
        Just("d".to_owned()),
        Just("b".to_owned()),
        Just(":".to_owned()),
        Just(".".to_owned()),
        Just("40".to_owned()),
        Just("99999999999999999999".to_owned()),
        Just("18446744073709551616".to_owned()),
        Just("\u{30c}".to_owned()),
        "[0-9]{1,25}",
        "\\PC",
    ];
    prop::collection::vec(piece, 0..16).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn time_controls_never_panic_and_errors_are_worded(text in prop_oneof![near_control(), "\\PC{0,40}"]) {
        match text.parse::<TimeControl>() {
            Ok(tc) => {
                prop_assert_eq!(tc.to_string().parse::<TimeControl>(), Ok(tc));
            }
            Err(e) => {
                for l in locales() {
                    worded(&e.describe(l), &text)?;
                }
            }
        }
    }

    #[test]
    fn durations_are_within_the_limit_or_an_error(text in prop_oneof![near_control(), "\\PC{0,40}"]) {
        match parse_duration(&text) {
            Ok(d) => prop_assert!(d <= MAX_DURATION),
            Err(e) => {
                for l in locales() {
                    worded(&e.describe(l), &text)?;
                }
            }
        }
    }

    #[test]
    fn durations_read_exactly(h in 0u64..1000, m in 0u64..60, s in 0u64..60, ms in 0u64..1000) {
        let expected = std::time::Duration::from_millis(((h * 60 + m) * 60 + s) * 1000 + ms);
        prop_assert_eq!(parse_duration(&format!("{h}h{m}m{s}s{ms}ms")), Ok(expected));
        prop_assert_eq!(parse_duration(&format!("{h}:{m:02}:{s:02}.{ms:03}")), Ok(expected));
    }
}

/// The shared real games, or one small game where they are not there.
fn pgn_texts() -> &'static [Vec<u8>] {
    static ALL: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/pgn");
        let mut out: Vec<Vec<u8>> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
            .filter_map(|p| std::fs::read(p).ok())
            .collect();
        out.push(b"[White \"A\"]\n\n1. e4 e5 2. Nf3 {c} Nc6 (2... d6) 3. Bb5 a6 1-0\n".to_vec());
        out
    })
}

/// A mutation of PGN bytes.
#[derive(Debug, Clone)]
enum Mutation {
    Truncate(prop::sample::Index),
    Flip(prop::sample::Index, u8),
    Insert(prop::sample::Index, &'static str),
    Delete(prop::sample::Index, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let junk = prop::sample::select(vec![
        "O-0", "Nf9", "e4x", "(", ")", "{", "}", "[", "]", "\"", ";", "%", "$", "1-0", "*", "--",
        "Z0", "\u{0}", "\u{ff}", "\n\n", "½-½", "0-0-0+", "e8=Q#", "\\",
    ]);
    prop_oneof![
        any::<prop::sample::Index>().prop_map(Mutation::Truncate),
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<prop::sample::Index>(), junk).prop_map(|(i, j)| Mutation::Insert(i, j)),
        (any::<prop::sample::Index>(), 0usize..200).prop_map(|(i, n)| Mutation::Delete(i, n)),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let len = bytes.len().max(1);
    match m {
        Mutation::Truncate(i) => bytes.truncate(i.index(len)),
        Mutation::Flip(i, b) => {
            if !bytes.is_empty() {
                let at = i.index(bytes.len());
                bytes[at] = *b;
            }
        }
        Mutation::Insert(i, junk) => {
            let at = i.index(len).min(bytes.len());
            bytes.splice(at..at, junk.bytes());
        }
        Mutation::Delete(i, n) => {
            let at = i.index(len).min(bytes.len());
            let end = at.saturating_add(*n).min(bytes.len());
            bytes.drain(at..end);
        }
    }
}

proptest! {
    #![proptest_config(cases(128))]

    #[test]
    fn mutated_pgn_never_panics_and_every_problem_is_worded(
        game in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 0..8),
    ) {
        let texts = pgn_texts();
        let mut bytes = texts[game.index(texts.len())].clone();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        let v = Vocabulary::builtin("de").map_err(|e| TestCaseError::fail(e.to_string()))?;
        match read_games(bytes.as_slice()) {
            Err(e) => worded(&e.describe(v.locale()), "")?,
            Ok(games) => {
                for (i, g) in games.iter().enumerate() {
                    match g.replay() {
                        Err(fen) => worded(&fen.describe(v.locale()), "")?,
                        Ok(r) => {
                            prop_assert!(r.moves.len() <= g.sans.len());
                            if let Some(msg) = r.describe_error(&v, "f.pgn", i + 1) {
                                prop_assert!(msg.display.starts_with("f.pgn"));
                                for library in ["illegal san", "ambiguous san"] {
                                    prop_assert!(!msg.display.contains(library), "{}", msg.display);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn random_bytes_as_pgn_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        if let Ok(games) = read_games(bytes.as_slice()) {
            for g in games {
                let _ = g.replay();
            }
        }
    }
}

/// A mutation of a locale file's text, line by line.
#[derive(Debug, Clone)]
enum TomlMutation {
    DeleteLine(prop::sample::Index),
    DuplicateLine(prop::sample::Index),
    Retype(prop::sample::Index, &'static str),
    Truncate(prop::sample::Index),
    Replace(&'static str, &'static str),
}

fn toml_mutation() -> impl Strategy<Value = TomlMutation> {
    let value = prop::sample::select(vec![
        "5",
        "true",
        "[]",
        "{}",
        "{ display = 3 }",
        "\"\"",
        "[1, 2]",
        "{ display = \"x\", y = 1 }",
        "\"{exmple}\"",
        "\"rtl\"",
        "\"up\"",
        "1979-05-27",
    ]);
    let replace = prop::sample::select(vec![
        ("code = \"", "code = \"en"),
        ("[messages]", "[messages]\n\"x.y\" = \"z\""),
        ("{", "{x"),
        ("[files]", "[files]\ni = \"india\""),
        ("[notation]", "[notation]\nfiles = [\"a\"]"),
        ("fallback", "fallback = \"xx\"\n#"),
        ("\"", "'"),
    ]);
    prop_oneof![
        any::<prop::sample::Index>().prop_map(TomlMutation::DeleteLine),
        any::<prop::sample::Index>().prop_map(TomlMutation::DuplicateLine),
        (any::<prop::sample::Index>(), value).prop_map(|(i, v)| TomlMutation::Retype(i, v)),
        any::<prop::sample::Index>().prop_map(TomlMutation::Truncate),
        replace.prop_map(|(a, b)| TomlMutation::Replace(a, b)),
    ]
}

fn mutate_toml(text: &str, m: &TomlMutation) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let n = lines.len().max(1);
    match m {
        TomlMutation::DeleteLine(i) => {
            if !lines.is_empty() {
                lines.remove(i.index(n));
            }
        }
        TomlMutation::DuplicateLine(i) => {
            if !lines.is_empty() {
                let at = i.index(n);
                let line = lines[at].clone();
                lines.insert(at, line);
            }
        }
        TomlMutation::Retype(i, v) => {
            if !lines.is_empty() {
                let at = i.index(n);
                if let Some((key, _)) = lines[at].split_once(" = ") {
                    lines[at] = format!("{key} = {v}");
                }
            }
        }
        TomlMutation::Truncate(i) => {
            let cut = i.index(text.len().max(1));
            let cut = (0..=cut)
                .rev()
                .find(|c| text.is_char_boundary(*c))
                .unwrap_or(0);
            return text[..cut].to_owned();
        }
        TomlMutation::Replace(a, b) => return text.replacen(a, b, 1),
    }
    lines.join("\n")
}

proptest! {
    #![proptest_config(cases(96))]

    #[test]
    fn mutated_locale_files_give_worded_errors_naming_the_file(
        base in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(toml_mutation(), 1..4),
    ) {
        let (_, text) = locale::BUILTIN[base.index(locale::BUILTIN.len())];
        let mut text = text.to_owned();
        for m in &mutations {
            text = mutate_toml(&text, m);
        }
        match locale::from_file_text("mine.toml", &text) {
            Ok(l) => {
                // A locale that loads can announce and parse.
                prop_assert!(l.missing_messages().is_empty());
                let v = Vocabulary::new(l);
                let _ = v.parse(&shakmaty::Chess::default(), shakmaty::CastlingMode::Standard, "e4");
            }
            Err(e) => {
                let said = e.to_string();
                prop_assert!(said.starts_with("mine.toml"), "{said}");
                // The message names the key, which may look like a key.
                let key = match &e {
                    locale::LocaleError::Invalid { key, .. } => key.clone(),
                    locale::LocaleError::Syntax { .. } => String::new(),
                };
                let rest = said.replacen(&key, "", 1);
                for bad in ["Raw", "untagged", "invalid type", "locale.", "TOML parse error"] {
                    prop_assert!(!rest.contains(bad), "{said}");
                }
                for l in locales() {
                    worded(&e.describe(l), &key)?;
                }
            }
        }
    }

    #[test]
    fn random_text_as_a_locale_file_is_an_error_value(text in "\\PC{0,300}") {
        let _ = locale::from_file_text("mine.toml", &text);
    }
}
