//! Round trip over every legal move of every position of the real games in
//! `../shared/pgn/`, in every built-in locale and both styles:
//! `parse(announce(m)) == m`.

use std::path::PathBuf;

use annabella::locale::builtin_codes;
use annabella::pgn::read_games;
use annabella::vocab::{Style, Vocabulary};
use shakmaty::{CastlingMode, Chess, Position};

fn pgn_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pgn")
}

/// Every position of every game in the shared PGN files, with its mode.
fn positions() -> Vec<(Chess, CastlingMode)> {
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(pgn_dir())
        .expect("../shared/pgn must exist beside the project")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    entries.sort();
    assert!(entries.len() >= 6, "expected the six shared PGN files");
    for path in entries {
        let file = std::fs::File::open(&path).expect("readable PGN");
        for game in read_games(file).expect("PGN reads") {
            let r = game.replay().expect("start position");
            for (pos, _) in r.steps() {
                out.push((pos, r.mode));
            }
        }
    }
    out
}

#[test]
fn every_legal_move_round_trips_in_every_locale_and_style() {
    let positions = positions();
    assert!(positions.len() > 1000, "only {} positions", positions.len());
    let mut checked = 0usize;
    let mut failures = Vec::new();
    for code in builtin_codes() {
        let vocab = Vocabulary::builtin(code).expect("built-in locale");
        for (pos, mode) in &positions {
            for m in pos.legal_moves() {
                for style in [Style::Short, Style::Long] {
                    let said = vocab.announce(pos, m, style);
                    checked += 1;
                    for text in [&said.display, &said.spoken] {
                        let back = vocab.parse(pos, *mode, text);
                        if back != Ok(m) && failures.len() < 20 {
                            failures.push(format!(
                                "{code} {style:?} {}: {m:?} -> '{text}' -> {back:?}",
                                shakmaty::fen::Fen::from_position(
                                    pos,
                                    shakmaty::EnPassantMode::Legal
                                )
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} checked, failures:\n{}",
        checked,
        failures.join("\n")
    );
    eprintln!("round trip: {checked} announcements checked");
}

/// The position after `sans` (standard SAN) from `fen`.
fn position(fen: &str, sans: &[&str]) -> Chess {
    let mut pos: Chess = shakmaty::fen::Fen::from_ascii(fen.as_bytes())
        .expect("FEN")
        .into_position(CastlingMode::Standard)
        .expect("legal position");
    for san in sans {
        let m = shakmaty::san::San::from_ascii(san.as_bytes())
            .expect("SAN")
            .to_move(&pos)
            .expect("legal SAN");
        pos.play_unchecked(m);
    }
    pos
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const CASTLE: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
const PROMOTE: &str = "7k/4P3/8/8/8/8/8/K7 w - - 0 1";

/// Typed and spoken phrases of each national locale, each with the standard
/// SAN of the one move it must mean.
#[test]
fn national_locales_understand_typed_phrases() {
    // After 1.e4 e5 2.Bc4 Nf6 White can play Bxf7+.
    let italian: &[&str] = &["e4", "e5", "Bc4", "Nf6"];
    let cases: &[(&str, &str, &[&str], &str, &str)] = &[
        ("de", START, &[], "Sf3", "Nf3"),
        ("de", START, &[], "sf3", "Nf3"),
        ("de", START, &[], "Springer g1 f3", "Nf3"),
        ("de", START, &[], "Springer von g1 nach f3", "Nf3"),
        ("de", START, &[], "Springer ge eins ef drei", "Nf3"),
        ("de", START, &[], "Springer Gustav eins Felix drei", "Nf3"),
        ("de", START, &[], "e2-e4", "e4"),
        ("de", START, &[], "Bauer e zwo e vier", "e4"),
        ("de", START, italian, "Läufer schlägt f7 Schach", "Bxf7+"),
        ("de", START, italian, "LAEUFER SCHLAEGT F7 SCHACH", "Bxf7+"),
        ("de", START, italian, "Laufer schlagt f7", "Bxf7+"),
        ("de", START, italian, "Lxf7+", "Bxf7+"),
        ("de", CASTLE, &[], "kurze Rochade", "O-O"),
        ("de", CASTLE, &[], "große Rochade", "O-O-O"),
        ("de", CASTLE, &[], "0-0-0", "O-O-O"),
        ("de", PROMOTE, &[], "e8 Umwandlung in Dame", "e8=Q+"),
        ("de", PROMOTE, &[], "e8D", "e8=Q+"),
        ("de", PROMOTE, &[], "e8 wird Springer", "e8=N"),
        ("pl", START, &[], "Sf3", "Nf3"),
        ("pl", START, &[], "skoczek z g1 na f3", "Nf3"),
        ("pl", START, &[], "Skoczek gie jeden ef trzy", "Nf3"),
        ("pl", START, &[], "koń g1 f3", "Nf3"),
        ("pl", START, &[], "pion e2 e4", "e4"),
        ("pl", START, italian, "goniec bije f7 szach", "Bxf7+"),
        ("pl", START, italian, "Gxf7+", "Bxf7+"),
        ("pl", CASTLE, &[], "krótka roszada", "O-O"),
        ("pl", CASTLE, &[], "dluga roszada", "O-O-O"),
        ("pl", CASTLE, &[], "Wieża a1 d1", "Rd1"),
        ("pl", CASTLE, &[], "wieza a1 d1", "Rd1"),
        ("pl", PROMOTE, &[], "e8 promocja na hetmana", "e8=Q+"),
        ("pl", PROMOTE, &[], "e8H", "e8=Q+"),
        ("pl", PROMOTE, &[], "e8 promocja: wieża", "e8=R"),
        ("he", START, &[], "פו3", "Nf3"),
        ("he", START, &[], "פז1ו3", "Nf3"),
        ("he", START, &[], "פרש ז1 ו3", "Nf3"),
        ("he", START, &[], "הפרש ז1 אל ו3", "Nf3"),
        ("he", START, &[], "פרש זיין אחת וו שלוש", "Nf3"),
        ("he", START, &[], "ה4", "e4"),
        ("he", START, &[], "ה2-ה4", "e4"),
        ("he", START, &[], "e4", "e4"),
        ("he", START, italian, "רxו7+", "Bxf7+"),
        ("he", START, italian, "רץ מכה ו7 שח", "Bxf7+"),
        ("he", CASTLE, &[], "הצרחה קטנה", "O-O"),
        ("he", CASTLE, &[], "הצרחה גדולה", "O-O-O"),
        ("he", CASTLE, &[], "צא1ד1", "Rd1"),
        ("he", PROMOTE, &[], "ה8מה", "e8=Q+"),
        ("he", PROMOTE, &[], "ה8 הכתרה למלכה", "e8=Q+"),
        ("ar", START, &[], "Nf3", "Nf3"),
        ("ar", START, &[], "حصان g1 f3", "Nf3"),
        ("ar", START, &[], "الحصان من g1 إلى f3", "Nf3"),
        ("ar", START, &[], "حصان جي واحد إف ثلاثة", "Nf3"),
        ("ar", START, &[], "حصان جوستاف أينس فيلكس دراي", "Nf3"),
        ("ar", START, &[], "بيدق e ٢ e ٤", "e4"),
        ("ar", START, italian, "فيل يأسر f7 كش ملك", "Bxf7+"),
        ("ar", START, italian, "الفيل ياسر f7 كش", "Bxf7+"),
        ("ar", CASTLE, &[], "تبييت قصير", "O-O"),
        ("ar", CASTLE, &[], "كورزي روشادي", "O-O"),
        ("ar", CASTLE, &[], "لانج روشادي", "O-O-O"),
        ("ar", CASTLE, &[], "قلعة a1 d1", "Rd1"),
        ("ar", PROMOTE, &[], "e8 ترقية إلى وزير", "e8=Q+"),
        ("ar", PROMOTE, &[], "e8 ترقيه الي حصان", "e8=N"),
        ("el", START, &[], "Ιζ3", "Nf3"),
        ("el", START, &[], "Ιη1ζ3", "Nf3"),
        ("el", START, &[], "Ίππος η1 ζ3", "Nf3"),
        ("el", START, &[], "Ίππος ήτα ένα ζήτα τρία", "Nf3"),
        ("el", START, &[], "ΙΠΠΟΣ η1 ζ3", "Nf3"),
        ("el", START, &[], "ο Ίππος από το η1 στο ζ3", "Nf3"),
        ("el", START, &[], "ε4", "e4"),
        ("el", START, &[], "ε2ε4", "e4"),
        ("el", START, &[], "e2-e4", "e4"),
        ("el", START, italian, "Αxζ7+", "Bxf7+"),
        ("el", START, italian, "Αξιωματικός παίρνει ζ7 σαχ", "Bxf7+"),
        ("el", START, italian, "ΑΞΙΩΜΑΤΙΚΟΣ ΠΑΙΡΝΕΙ ζ7 ΣΑΧ", "Bxf7+"),
        ("el", CASTLE, &[], "μικρό ροκέ", "O-O"),
        ("el", CASTLE, &[], "ΜΕΓΑΛΟ ΡΟΚΕ", "O-O-O"),
        ("el", CASTLE, &[], "Πα1δ1", "Rd1"),
        ("el", PROMOTE, &[], "ε8Β", "e8=Q+"),
        ("el", PROMOTE, &[], "ε8 γίνεται Ίππος", "e8=N"),
        ("el", PROMOTE, &[], "ε8 προαγωγή σε Πύργο", "e8=R"),
    ];
    let mut failures = Vec::new();
    for (code, fen, before, phrase, san) in cases {
        let vocab = Vocabulary::builtin(code).expect("built-in locale");
        let pos = position(fen, before);
        let want = shakmaty::san::San::from_ascii(san.trim_end_matches('+').as_bytes())
            .expect("SAN")
            .to_move(&pos)
            .expect("legal SAN");
        let got = vocab.parse(&pos, CastlingMode::Standard, phrase);
        if got != Ok(want) {
            failures.push(format!("{code}: '{phrase}' -> {got:?}, expected {san}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Right-to-left locales store their words in logical (reading) order: the
/// piece comes first in the string, as it is said first.
#[test]
fn right_to_left_announcements_are_in_logical_order() {
    let pos = position(START, &[]);
    let m = shakmaty::san::San::from_ascii(b"Nf3")
        .expect("SAN")
        .to_move(&pos)
        .expect("legal");
    let he = Vocabulary::builtin("he").expect("he");
    let said = he.announce(&pos, m, Style::Long);
    assert_eq!(said.display, "פרש ז1 ו3");
    assert_eq!(said.spoken, "פרש זיין אחת וו שלוש");
    assert!(said.display.starts_with('פ'));
    let ar = Vocabulary::builtin("ar").expect("ar");
    let said = ar.announce(&pos, m, Style::Long);
    assert_eq!(said.display, "حصان g1 f3");
    assert_eq!(said.spoken, "حصان جي واحد إف ثلاثة");
    assert!(said.display.starts_with('ح'));
    let el = Vocabulary::builtin("el").expect("el");
    assert_eq!(el.announce(&pos, m, Style::Short).display, "Ίππος ζ3");
}

/// Every message of every built-in locale uses the same placeholders as the
/// base locale's message (each at least once), so no value is lost and none
/// is left unfilled. One grammatical exception: a plural form for zero, one
/// or two may leave out the number `{n}` when the word itself says it
/// (Hebrew "שעתיים", two hours; Arabic "ساعتان").
#[test]
fn messages_keep_the_base_placeholders() {
    use std::collections::BTreeSet;
    fn placeholders(text: &str) -> BTreeSet<String> {
        text.split('{')
            .skip(1)
            // `{side:gen}` is `side` in a grammatical case, `{n|one:…}` a
            // choice by the number of `n`.
            .filter_map(|s| s.split_once('}').map(|(name, _)| name))
            .map(|name| name.split([':', '|']).next().unwrap_or(name).to_owned())
            .collect()
    }
    let base = annabella::locale::builtin(annabella::locale::BASE_LOCALE).expect("base");
    let mut failures = Vec::new();
    for code in builtin_codes() {
        let l = annabella::locale::builtin(code).expect("locale");
        for &key in annabella::locale::MsgKey::ALL {
            let mut want = placeholders(&base.message(key, &[]));
            let got = placeholders(&l.message(key, &[]));
            let number_implied = [".zero", ".one", ".two"]
                .iter()
                .any(|s| key.as_str().ends_with(s));
            if number_implied && !got.contains("n") {
                want.remove("n");
            }
            if want != got {
                failures.push(format!("{code} {key}: {got:?}, expected {want:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

mod random_playouts {
    //! Property: the round trip holds in positions reached by random legal
    //! play from the standard start and from Chess960 starts, which reach
    //! promotions, under-promotions, en passant and unusual castling far
    //! more often than real games do.

    use annabella::locale::builtin_codes;
    use annabella::rules::chess960_start;
    use annabella::vocab::{Style, Vocabulary};
    use proptest::prelude::*;
    use shakmaty::{CastlingMode, Chess, Position};

    fn check_game(vocabs: &[Vocabulary], start: Chess, mode: CastlingMode, picks: &[u16]) {
        let mut pos = start;
        for pick in picks {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for m in &moves {
                for v in vocabs {
                    for style in [Style::Short, Style::Long] {
                        let said = v.announce(&pos, *m, style);
                        for text in [&said.display, &said.spoken] {
                            assert_eq!(
                                v.parse(&pos, mode, text),
                                Ok(*m),
                                "{} {style:?} '{text}' in {}",
                                v.locale().code,
                                shakmaty::fen::Fen::from_position(
                                    &pos,
                                    shakmaty::EnPassantMode::Legal
                                )
                            );
                        }
                    }
                }
            }
            // Prefer pawn pushes a little, so promotions happen often.
            let pawn_moves: Vec<_> = moves
                .iter()
                .filter(|m| m.role() == shakmaty::Role::Pawn)
                .collect();
            let m = if pick % 3 == 0 && !pawn_moves.is_empty() {
                *pawn_moves[usize::from(*pick) % pawn_moves.len()]
            } else {
                moves[usize::from(*pick) % moves.len()]
            };
            pos.play_unchecked(m);
        }
    }

    fn vocabs() -> Vec<Vocabulary> {
        builtin_codes()
            .into_iter()
            .map(|c| Vocabulary::builtin(c).expect("built-in locale"))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn standard_random_games(picks in prop::collection::vec(any::<u16>(), 120)) {
            check_game(&vocabs(), Chess::default(), CastlingMode::Standard, &picks);
        }

        #[test]
        fn chess960_random_games(id in 0u16..960, picks in prop::collection::vec(any::<u16>(), 100)) {
            let start = chess960_start(id).expect("0..960 is valid");
            check_game(&vocabs(), start, CastlingMode::Chess960, &picks);
        }
    }
}
