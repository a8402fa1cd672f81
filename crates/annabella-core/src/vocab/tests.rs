//! Parser and announcer unit tests. Expected moves are written by hand in
//! SAN and checked with shakmaty's own SAN reader, never produced by the
//! code under test.

use crate::locale::MsgKey;
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, CastlingSide, Chess, Move, Role, Square};

use super::*;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// White to move: pawn e5 can take d6 en passant, knights b1 and f3 can
/// both go to d2, pawn b7 ready to promote on a8 by capture or on b8.
const TACTICS: &str = "r3k2r/1P6/8/3pP3/8/5N2/8/RN2K2R w KQkq d6 0 1";

fn pos(fen: &str, mode: CastlingMode) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(mode).unwrap()
}

fn san(p: &Chess, s: &str) -> Move {
    San::from_ascii(s.as_bytes()).unwrap().to_move(p).unwrap()
}

fn vocab(code: &str) -> Vocabulary {
    Vocabulary::builtin(code).unwrap()
}

#[track_caller]
fn parses(code: &str, fen: &str, phrase: &str, expected_san: &str) {
    let p = pos(fen, CastlingMode::Standard);
    let got = vocab(code).parse(&p, CastlingMode::Standard, phrase);
    assert_eq!(got, Ok(san(&p, expected_san)), "{code}: '{phrase}'");
}

#[test]
fn fide_words_in_every_accepted_spelling() {
    for phrase in [
        "Springer Gustav eins Felix drei",
        "springer gustav eins felix drei",
        "SPRINGER GUSTAV EINS FELIX DREI",
        "Springer Felix drei",
        "Springer nach Felix drei",
        "Springer Gustav eins - Felix drei",
    ] {
        parses("fide", START, phrase, "Nf3");
    }
    parses("fide", START, "Eva vier", "e4");
    parses("fide", START, "Eve vier", "e4");
    parses("fide", START, "Bauer Eva zwei Eva vier", "e4");
    parses("fide", START, "Cäsar vier", "c4");
    parses("fide", START, "Zäsar vier", "c4");
}

#[test]
fn umlaut_and_ae_spellings_are_the_same_word() {
    let fen = "4k3/8/8/8/8/8/8/4K1B1 w - - 0 1";
    for phrase in [
        "Läufer Eva drei",
        "Laeufer Eva drei",
        "LAEUFER eva drei",
        "Laufer Eva drei",
    ] {
        parses("fide", fen, phrase, "Be3");
    }
    let five = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    parses("fide", five, "Koenig David eins", "Kd1");
    parses("fide", five, "König David eins", "Kd1");
    let up = "4k3/8/8/4P3/8/8/8/4K3 w - - 0 1";
    parses("fide", up, "Eva sechs", "e6");
    let e4 = "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1";
    parses("fide", e4, "Eva fünf", "e5");
    parses("fide", e4, "Eva fuenf", "e5");
}

#[test]
fn notation_san_national_letters_and_coordinates() {
    parses("fide", START, "Nf3", "Nf3");
    parses("fide", START, "Sf3", "Nf3");
    parses("fide", START, "g1f3", "Nf3");
    parses("fide", START, "g1-f3", "Nf3");
    parses("fide", START, "e2e4", "e4");
    parses("en", START, "Nf3", "Nf3");
    parses("en", START, "nf3", "Nf3");
    parses("en", START, "knight f3", "Nf3");
    parses("en", START, "Knight gee one to f three", "Nf3");
    let ital = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    parses("fide", ital, "O-O", "O-O");
    parses("fide", ital, "0-0", "O-O");
    parses("fide", ital, "Kurze Rochade", "O-O");
    parses("fide", ital, "kurze rochade", "O-O");
    parses("fide", ital, "Lf7+", "Bxf7+");
    parses("fide", ital, "Lxf7+", "Bxf7+");
    parses(
        "fide",
        ital,
        "Laeufer schlaegt Felix sieben Schach",
        "Bxf7+",
    );
    parses("fide", ital, "Läufer schlägt Felix sieben", "Bxf7+");
}

#[test]
fn captures_en_passant_and_promotion() {
    let exd5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
    parses("fide", exd5, "exd5", "exd5");
    parses("fide", exd5, "Eva schlaegt David fuenf", "exd5");
    parses("fide", exd5, "Eva David fuenf", "exd5");
    parses("fide", TACTICS, "exd6", "exd6");
    parses(
        "fide",
        TACTICS,
        "Eva schlaegt David sechs en passant",
        "exd6",
    );
    parses("fide", TACTICS, "e5d6", "exd6");
    parses("fide", TACTICS, "Bella acht Umwandlung in Dame", "b8=Q");
    parses("fide", TACTICS, "Bella acht Dame", "b8=Q");
    parses("fide", TACTICS, "b8=Q", "b8=Q");
    parses("fide", TACTICS, "b8Q", "b8=Q");
    parses("fide", TACTICS, "b7b8q", "b8=Q");
    parses("fide", TACTICS, "bxa8=S", "bxa8=N");
    parses(
        "fide",
        TACTICS,
        "Bella schlaegt Anna acht Springer",
        "bxa8=N",
    );
}

#[test]
fn ambiguity_is_reported_with_every_candidate_never_guessed() {
    let p = pos(TACTICS, CastlingMode::Standard);
    let v = vocab("fide");
    // Two knights can reach d2.
    match v.parse(&p, CastlingMode::Standard, "Springer David zwei") {
        Err(ParseError::Ambiguous(c)) => {
            let mut got: Vec<Square> = c.iter().filter_map(|m| m.from()).collect();
            got.sort();
            assert_eq!(got, vec![Square::B1, Square::F3]);
        }
        other => panic!("expected ambiguous, got {other:?}"),
    }
    // With the file it is one move.
    assert_eq!(
        v.parse(&p, CastlingMode::Standard, "Springer Bella David zwei"),
        Ok(san(&p, "Nbd2"))
    );
    // A promotion without the piece: four candidates, all announced.
    match v.parse(&p, CastlingMode::Standard, "Bella acht") {
        Err(ParseError::Ambiguous(c)) => {
            assert_eq!(c.len(), 4);
            let text = v.describe_error(&p, &ParseError::Ambiguous(c)).display;
            for piece in ["Dame", "Turm", "Laeufer", "Springer"] {
                assert!(text.contains(piece), "{text}");
            }
        }
        other => panic!("expected ambiguous, got {other:?}"),
    }
    // English lower-case b: bishop or b-file; here only a pawn exists.
    let bx = "4k3/8/8/8/2p5/1P6/8/4K3 w - - 0 1";
    parses("en", bx, "bxc4", "bxc4");
    // As in SAN, a lower-case file letter is the file even where the
    // bishop could take too; the bishop is upper-case B.
    let both = "4k3/8/8/8/2p5/1P6/4B3/4K3 w - - 0 1";
    let p = pos(both, CastlingMode::Standard);
    assert_eq!(
        vocab("en").parse(&p, CastlingMode::Standard, "bxc4"),
        Ok(san(&p, "bxc4"))
    );
    // German: d is the d-file, D the queen (Dame).
    let dx = "4k3/8/8/4p3/3P4/8/8/3QK3 w - - 0 1";
    parses("fide", dx, "dxe5", "dxe5");
    let qx = "4k3/8/8/8/8/8/4p3/3QK3 w - - 0 1";
    parses("fide", qx, "Dxe2", "Qxe2");
    assert_eq!(
        vocab("en").parse(&p, CastlingMode::Standard, "Bxc4"),
        Ok(san(&p, "Bxc4"))
    );
}

#[test]
fn typed_errors_say_what_was_wrong() {
    let p = pos(START, CastlingMode::Standard);
    let v = vocab("fide");
    let parse = |s: &str| v.parse(&p, CastlingMode::Standard, s);
    assert_eq!(parse(""), Err(ParseError::Empty));
    assert_eq!(parse("   "), Err(ParseError::Empty));
    assert_eq!(
        parse("Springer Gustaf eins Felix drei"),
        Err(ParseError::NotUnderstood {
            unknown: vec!["Gustaf".into()]
        })
    );
    // An English phrase in the FIDE locale.
    assert!(matches!(
        parse("knight to f3"),
        Err(ParseError::NotUnderstood { unknown }) if unknown == vec!["knight".to_string(), "to".to_string()]
    ));
    assert!(matches!(
        parse("Springer"),
        Err(ParseError::Incomplete { .. })
    ));
    assert!(matches!(
        parse("Schach"),
        Err(ParseError::Incomplete { .. })
    ));
    assert_eq!(
        parse("Springer Eva vier"),
        Err(ParseError::Illegal(Illegal::CannotReach {
            role: Role::Knight,
            to: Square::E4,
            in_check: false
        }))
    );
    assert_eq!(
        parse("Kurze Rochade"),
        Err(ParseError::Illegal(Illegal::Castling(
            CastlingSide::KingSide
        )))
    );
    assert_eq!(
        parse("Turm Anna eins Anna zwei"),
        Err(ParseError::Illegal(Illegal::OwnPieceOn(Square::A2)))
    );
    assert_eq!(
        parse("Springer Cesar drei Eva vier"),
        Err(ParseError::Illegal(Illegal::NoPieceOn {
            role: Some(Role::Knight),
            square: Square::C3
        }))
    );
    assert_eq!(
        parse("Eva schlaegt Eva vier"),
        Err(ParseError::Illegal(Illegal::NothingToCapture(Square::E4)))
    );
    // Each error reads as a sentence in the locale's words.
    for e in [
        parse(""),
        parse("Springer Gustaf"),
        parse("Springer"),
        parse("Springer Eva vier"),
        parse("Kurze Rochade"),
    ] {
        let text = v.describe_error(&p, &e.unwrap_err()).display;
        assert!(!text.contains('{'), "unfilled placeholder: {text}");
        assert!(text.len() > 20, "{text}");
    }
}

#[test]
fn no_moves_means_game_over() {
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let p = pos(mate, CastlingMode::Standard);
    let v = vocab("fide");
    let e = v.parse(&p, CastlingMode::Standard, "Eva vier").unwrap_err();
    assert_eq!(e, ParseError::Illegal(Illegal::GameOver));
    // fide speaks German (its messages come from de): the result is the
    // German checkmate sentence naming Black.
    let de = crate::locale::builtin("de").unwrap();
    let black = de.message(MsgKey::SideBlack, &[]);
    let mate = de.message(MsgKey::ResultCheckmate, &[("winner", &black)]);
    let said = v.describe_error(&p, &e).display;
    assert!(said.contains(&mate), "{said}");
}

#[test]
fn chess960_castling_words_and_king_takes_rook() {
    // King on b1, rooks on a1 and h1 (Chess960 start-like).
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
    let p = pos(fen, CastlingMode::Chess960);
    let v = vocab("fide");
    let long = v
        .parse(&p, CastlingMode::Chess960, "Lange Rochade")
        .unwrap();
    assert_eq!(
        long,
        Move::Castle {
            king: Square::B1,
            rook: Square::A1
        }
    );
    assert_eq!(v.parse(&p, CastlingMode::Chess960, "b1a1"), Ok(long));
    assert_eq!(v.parse(&p, CastlingMode::Chess960, "O-O-O"), Ok(long));
    assert_eq!(v.announce(&p, long, Style::Short).display, "Lange Rochade");
    assert_eq!(v.announce(&p, long, Style::Long).display, "Lange Rochade");
}

#[test]
fn announcements_have_display_and_spoken_spellings() {
    let p = pos(START, CastlingMode::Standard);
    let v = vocab("fide");
    let c4 = san(&p, "c4");
    let said = v.announce(&p, c4, Style::Short);
    assert_eq!(said.display, "Cesar vier");
    assert_eq!(said.spoken, "Zäsar vier");
    let p = pos("4k3/8/8/8/8/8/8/4K1B1 w - - 0 1", CastlingMode::Standard);
    let said = v.announce(&p, san(&p, "Bc5"), Style::Long);
    assert_eq!(said.display, "Laeufer Gustav eins Cesar fuenf");
    assert_eq!(said.spoken, "Läufer Gustav eins Zäsar fünf");
}

#[test]
fn short_style_disambiguates_like_san() {
    let p = pos(TACTICS, CastlingMode::Standard);
    let v = vocab("fide");
    assert_eq!(
        v.announce(&p, san(&p, "Nbd2"), Style::Short).display,
        "Springer Bella David zwei"
    );
    assert_eq!(
        v.announce(&p, san(&p, "exd6"), Style::Short).display,
        "Eva schlaegt David sechs en passant"
    );
    assert_eq!(
        v.announce(&p, san(&p, "bxa8=Q"), Style::Short).display,
        "Bella schlaegt Anna acht Umwandlung in Dame Schach"
    );
}

#[test]
fn right_to_left_display_is_isolated_and_still_parses() {
    let v = vocab("fide");
    assert_eq!(v.for_display("x"), "x");
    let p = pos(START, CastlingMode::Standard);
    let wrapped = format!("\u{2067}{}\u{2069}", "Eva vier");
    assert_eq!(
        v.parse(&p, CastlingMode::Standard, &wrapped),
        Ok(san(&p, "e4"))
    );
}

#[test]
fn multi_letter_piece_letters_are_each_a_reading() {
    // Hebrew notation (Appendix C2, C5): מ is the king, מה the queen, ה the
    // e-file.
    let kings = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    parses("he", kings, "מה2", "Ke2");
    let queen = "4k3/8/8/8/8/8/8/4KQ2 w - - 0 1";
    // The queen reading of מה2 names no square, so it is the king.
    parses("he", queen, "מה2", "Ke2");
    // מהה2 is the queen to e2: a king takes no from-file (it is never told
    // apart from another king), so it is not the king from the e-file.
    parses("he", queen, "מהה2", "Qe2");
    // The king's long form, with the letter as a word of its own.
    parses("he", kings, "מ ה1ה2", "Ke2");
}

#[test]
fn hebrew_queen_moves_are_never_king_moves() {
    // Issue 20: "מהו3" was the king from the e-file to f3 although no queen
    // can reach f3; it is refused.
    let v = vocab("he");
    let p = pos(
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR w kq - 2 3",
        CastlingMode::Standard,
    );
    assert!(
        matches!(
            v.parse(&p, CastlingMode::Standard, "מהו3"),
            Err(ParseError::Illegal(_))
        ),
        "{:?}",
        v.parse(&p, CastlingMode::Standard, "מהו3")
    );
    // Its liveness twin: the king's own move, in words and in notation.
    parses(
        "he",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR w kq - 2 3",
        "מו3",
        "Kf3",
    );
    // "מהד2" after 1.e4 e5 2.d4 d5 is the queen, without a question.
    parses(
        "he",
        "rnbqkbnr/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3",
        "מהד2",
        "Qd2",
    );
}

#[test]
fn words_read_as_two_different_moves_are_asked_whatever_is_legal() {
    // מה1ד2 is the king from e1 (long form, C9) or the queen from the
    // first rank (C10): with only the king able to go, the player is still
    // asked, never given the king's move for the queen he may have meant.
    let v = vocab("he");
    let kings = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard);
    assert_eq!(
        v.parse(&kings, CastlingMode::Standard, "מה1ד2"),
        Err(ParseError::Ambiguous(vec![san(&kings, "Kd2")]))
    );
    let both = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", CastlingMode::Standard);
    assert!(matches!(
        v.parse(&both, CastlingMode::Standard, "מה1ד2"),
        Err(ParseError::Ambiguous(c)) if c.len() == 2
    ));
}

#[test]
fn check_words_end_a_move() {
    // Arabic كش ملك is check; a king after a check word is no reading.
    parses("ar", START, "e4 كش ملك", "e4");
    let p = pos(START, CastlingMode::Standard);
    assert!(
        vocab("en")
            .parse(&p, CastlingMode::Standard, "check knight f3")
            .is_err()
    );
    parses("en", START, "knight f3 check", "Nf3");
    parses("en", TACTICS, "e5 takes d6 check en passant", "exd6");
}

#[test]
fn a_lone_upper_case_piece_letter_is_the_piece() {
    let fen = "4k3/8/8/8/8/8/1B6/4K3 w - - 0 1";
    parses("en", fen, "B d4", "Bd4");
    parses("en", fen, "b2 d4", "Bd4");
}

#[test]
fn folded_characters_inside_notation() {
    // Arabic-Indic digit four.
    parses("ar", START, "e\u{0664}", "e4");
    parses("ar", START, "e \u{0664}", "e4");
}

#[test]
fn no_piece_named_reads_without_a_gap() {
    let p = pos(START, CastlingMode::Standard);
    let v = vocab("en");
    let e = v.parse(&p, CastlingMode::Standard, "e3e4").unwrap_err();
    assert_eq!(
        e,
        ParseError::Illegal(Illegal::NoPieceOn {
            role: None,
            square: Square::E3
        })
    );
    assert_eq!(
        v.describe_error(&p, &e).display,
        "Illegal: White has no piece on e3."
    );
}

/// Every built-in locale.
fn every_locale() -> Vec<Vocabulary> {
    crate::locale::builtin_codes()
        .into_iter()
        .map(vocab)
        .collect()
}

#[test]
fn one_long_word_is_read_without_deep_recursion() {
    // Issue 13: a word of ~33,000 characters overflowed the stack in the
    // recursive notation reader. The reader itself takes any length (a
    // test thread has a small stack); the parser refuses such a word.
    let v = vocab("fide");
    let word = "e4".repeat(50_000);
    let lexed = v.dict.tokenize(&word);
    assert_eq!(lexed.words, 1);
    assert!(lexed.unknown.is_empty());
    let p = pos(START, CastlingMode::Standard);
    for v in every_locale() {
        let e = v
            .parse(&p, CastlingMode::Standard, &"e4".repeat(17_000))
            .unwrap_err();
        assert!(
            matches!(&e, ParseError::TooLong(crate::input::TooLong::Word { start }) if start == &"e4".repeat(10)),
            "{e:?}"
        );
        let said = v.describe_error(&p, &e).display;
        let limit = crate::input::MAX_WORD_CHARS.to_string();
        assert!(said.contains(&limit), "{said}");
        assert!(!said.contains("input."), "{said}");
    }
}

#[test]
fn a_long_phrase_is_refused_with_the_line_limit() {
    let p = pos(START, CastlingMode::Standard);
    let phrase = "Eva vier ".repeat(200);
    for v in every_locale() {
        let e = v.parse(&p, CastlingMode::Standard, &phrase).unwrap_err();
        assert_eq!(e, ParseError::TooLong(crate::input::TooLong::Line));
        let said = v.describe_error(&p, &e).display;
        let limit = crate::input::MAX_LINE_CHARS.to_string();
        assert!(said.contains(&limit), "{said}");
    }
}

#[test]
fn reading_notation_takes_linear_work_in_every_locale() {
    // Issue 13: "מה" repeated and an unreadable last character made the
    // Hebrew reader try every split of the word (2^n). The work counted by
    // the reader (positions looked at plus tokens written) must grow
    // linearly with the word.
    for v in every_locale() {
        for unit in ["מה", "e4", "ab", "Ζ", "מהה2", "x"] {
            for tail in ["§", "", "e4"] {
                let work = |n: usize| {
                    let word = format!("{}{tail}", unit.repeat(n));
                    v.dict.lex_compact_counted(&word).1
                };
                let (small, large) = (work(20), work(200));
                let bound = 40 * unit.len() * 200 + 40 * 20;
                assert!(
                    large <= bound,
                    "{}: {unit}x200{tail}: work {large} (x20: {small}), bound {bound}",
                    v.locale().code
                );
            }
        }
    }
    // Within the word limit, the parser answers the phrase.
    let p = pos(START, CastlingMode::Standard);
    let phrase = format!("{}§", "מה".repeat(40));
    let e = vocab("he")
        .parse(&p, CastlingMode::Standard, &phrase)
        .unwrap_err();
    assert!(matches!(e, ParseError::NotUnderstood { .. }), "{e:?}");
}

#[test]
fn many_words_with_several_readings_stay_linear() {
    // Hebrew מהה2 is the queen to e2 or the king from the e-file to e2: a
    // phrase of n such words has 2^n readings, of which the parser keeps
    // the first few.
    let v = vocab("he");
    let phrase = "מהה2 ".repeat(300);
    let lexed = v.dict.tokenize(&phrase);
    assert!(lexed.alternatives.len() <= 16);
    assert!(lexed.alternatives.len() > 1);
    assert!(lexed.alternatives.iter().all(|a| a.len() >= 300));
}

#[test]
fn uci_promotion_to_a_bishop_in_every_locale() {
    // Issue 13: c7c8b read "b" as the file b (Bella) and refused the move
    // as incomplete.
    let white = "8/2P5/8/8/8/8/8/k6K w - - 0 1";
    let black = "8/8/8/8/8/8/p7/1N1K3k b - - 0 1";
    for code in crate::locale::builtin_codes() {
        for (fen, uci, expected) in [
            (white, "c7c8b", "c8=B"),
            (white, "c7c8B", "c8=B"),
            (white, "c7-c8b", "c8=B"),
            (white, "c7c8n", "c8=N"),
            (white, "c7c8q", "c8=Q"),
            (white, "c7c8r", "c8=R"),
            (black, "a2b1b", "axb1=B"),
            (black, "a2b1q", "axb1=Q"),
        ] {
            parses(code, fen, uci, expected);
        }
    }
    // The locale's own promotion letter (German L for Läufer, D for Dame,
    // where d is also a file).
    parses("de", white, "c7c8l", "c8=B");
    parses("de", white, "c7c8d", "c8=Q");
    parses("de", white, "c8=d", "c8=Q");
}

/// What a board or scoresheet shows must read back: every legal move of
/// positions with every piece able to move, written in standard notation
/// with the locale's displayed piece letters (`Locale::display_san`, with
/// and without the check mark), is read as that very move in every
/// built-in locale; and the five piece letters are distinct.
#[test]
fn every_displayed_scoresheet_move_reads_back_in_every_locale() {
    use shakmaty::Position;
    use shakmaty::san::SanPlus;
    let fens = [
        START,
        TACTICS,
        // Middle game: every piece has moves, captures and checks.
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 0 5",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R b KQkq - 0 5",
        // Two rooks and two knights that can reach the same squares.
        "4k3/8/8/2N1N3/8/R6R/8/4K3 w - - 0 1",
        // Promotions, by a move and by a capture, some with check.
        "1n2k3/2P5/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/5p2/3K2N1 b - - 0 1",
    ];
    for code in crate::locale::builtin_codes() {
        let v = vocab(code);
        // The pawn has no letter in notation.
        let letters: Vec<String> = Role::ALL[1..]
            .iter()
            .map(|r| v.locale().piece_letter(*r))
            .collect();
        for (i, l) in letters.iter().enumerate() {
            assert!(
                !letters[i + 1..].contains(l),
                "{code}: the letter {l} stands for two pieces: {letters:?}"
            );
        }
        for fen in fens {
            let p = pos(fen, CastlingMode::Standard);
            for m in p.legal_moves() {
                let plain = v.locale().display_san(&San::from_move(&p, m).to_string());
                let plus = v
                    .locale()
                    .display_san(&SanPlus::from_move(p.clone(), m).to_string());
                for shown in [plain, plus] {
                    assert_eq!(
                        v.parse(&p, CastlingMode::Standard, &shown).ok(),
                        Some(m),
                        "{code}: '{shown}' in {fen}"
                    );
                }
            }
        }
    }
}

#[test]
fn an_illegal_move_is_read_as_what_was_done_when_the_words_say_which_piece() {
    let v = vocab("fide");
    let start = Chess::default();
    let normal = |role, from, to, capture| Move::Normal {
        role,
        from,
        capture,
        to,
        promotion: None,
    };
    // Coordinates, long words, and the only piece of its kind.
    assert_eq!(
        v.as_described(&start, "e2e5"),
        Some(normal(Role::Pawn, Square::E2, Square::E5, None))
    );
    assert_eq!(
        v.as_described(&start, "Bauer Eva zwei Eva fuenf"),
        Some(normal(Role::Pawn, Square::E2, Square::E5, None))
    );
    assert_eq!(
        v.as_described(&start, "Kd3"),
        Some(normal(Role::King, Square::E1, Square::D3, None))
    );
    // A capture of what stands there.
    assert_eq!(
        v.as_described(&start, "Dd1d7"),
        Some(normal(
            Role::Queen,
            Square::D1,
            Square::D7,
            Some(Role::Pawn)
        ))
    );
    // Not said which piece (two knights, eight pawns), a legal move, an
    // own piece on the square, castling, words that are no move: nothing.
    for phrase in [
        "Sd4",
        "Bauer Eva fuenf",
        "e4",
        "Sf3",
        "Dd1d2",
        "O-O",
        "blah",
    ] {
        assert_eq!(v.as_described(&start, phrase), None, "{phrase}");
    }
}
