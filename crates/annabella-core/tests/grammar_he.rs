//! Hebrew grammar of every message with a number (issue 20): the forms a
//! native speaker writes and says, written out by hand below.
//!
//! - Spoken numbers are feminine words (`[numbers]`: שלוש, עשרים ושתיים),
//!   right for דקות, שניות, שעות, פעמים; a masculine noun (מסע, חצי מסע,
//!   משחק, אירוע) takes the masculine number: שלושה מסעים, עשרים ושניים
//!   מסעים, אחד עשר מסעים. Digits on screen stay digits.
//! - Two before a noun is שתי / שני (שתי שניות), never שתיים שניות; one
//!   is a singular noun (שנייה אחת), never "1 שניות".
//! - A verb agrees with one unit: נותרה דקה אחת, הושלם מסע אחד; נותרו
//!   שתי דקות.
//! - The prefixes ב, מ, ל are written with a hyphen only before digits or
//!   Latin text; before a Hebrew word they are attached (בדקה אחת), so no
//!   message puts a time in words after "ב-".
//!
//! Messages are filled the way their callers fill them: a time in words
//! (`Phrasebook::duration`), a plural phrase (`Phrasebook::count`,
//! `count.halfmoves.*`) or a bare number (digits on screen, the number
//! word when spoken).

use std::time::Duration;

use annabella_core::clock::talk::{Phrasebook, Unit, Verbosity, counted};
use annabella_core::locale::{Locale, MsgKey, PluralStem, builtin};
use annabella_core::vocab::Utterance;

struct He {
    locale: Locale,
    book: Phrasebook,
}

fn he() -> He {
    let locale = builtin("he").expect("the built-in Hebrew locale loads");
    let book = Phrasebook::new(locale.clone());
    He { locale, book }
}

impl He {
    /// A bare number: digits on screen, the number word when spoken.
    fn bare(&self, n: u64) -> Utterance {
        Utterance {
            display: n.to_string(),
            spoken: self.book.spoken_number(n),
        }
    }

    fn minutes(&self, n: u64) -> Utterance {
        self.book
            .duration(Duration::from_secs(60 * n), Verbosity::Full)
    }

    fn seconds(&self, n: u64) -> Utterance {
        self.book.duration(Duration::from_secs(n), Verbosity::Full)
    }

    fn moves(&self, n: u64) -> Utterance {
        self.book.count(Unit::Moves, n)
    }

    fn stem(&self, stem: PluralStem, n: u64) -> Utterance {
        counted(&self.locale, stem, n)
    }

    fn plain(text: &str) -> Utterance {
        Utterance::plain(text)
    }

    /// `key` filled with `args`, White as `{side}` and Black as
    /// `{opponent}`: (display, spoken).
    fn say(&self, key: MsgKey, args: &[(&str, Utterance)]) -> (String, String) {
        let white = Self::plain("לבן");
        let black = Self::plain("שחור");
        let mut all: Vec<(&str, &Utterance)> = vec![("side", &white), ("opponent", &black)];
        all.extend(args.iter().map(|(k, v)| (*k, v)));
        let display: Vec<(&str, &str)> =
            all.iter().map(|(k, v)| (*k, v.display.as_str())).collect();
        let spoken: Vec<(&str, &str)> = all.iter().map(|(k, v)| (*k, v.spoken.as_str())).collect();
        (
            self.locale.message(key, &display),
            self.locale.message(key, &spoken),
        )
    }

    fn spoken(&self, key: MsgKey, args: &[(&str, Utterance)]) -> String {
        self.say(key, args).1
    }

    fn display(&self, key: MsgKey, args: &[(&str, Utterance)]) -> String {
        self.say(key, args).0
    }
}

/// The masculine number word of `n` (1–199), spelled out here by hand
/// from the grammar, not from the locale: שלושה, אחד עשר, עשרים ושניים,
/// מאה ועשרה, מאה עשרים ואחד.
fn masculine(n: u64) -> String {
    const UNITS: [&str; 10] = [
        "",
        "אחד",
        "שניים",
        "שלושה",
        "ארבעה",
        "חמישה",
        "שישה",
        "שבעה",
        "שמונה",
        "תשעה",
    ];
    const TEENS: [&str; 10] = [
        "עשרה",
        "אחד עשר",
        "שנים עשר",
        "שלושה עשר",
        "ארבעה עשר",
        "חמישה עשר",
        "שישה עשר",
        "שבעה עשר",
        "שמונה עשר",
        "תשעה עשר",
    ];
    const TENS: [&str; 10] = [
        "",
        "",
        "עשרים",
        "שלושים",
        "ארבעים",
        "חמישים",
        "שישים",
        "שבעים",
        "שמונים",
        "תשעים",
    ];
    fn below_100(n: u64) -> String {
        let (t, u) = ((n / 10) as usize, (n % 10) as usize);
        match (t, u) {
            (0, u) => UNITS[u].to_owned(),
            (1, u) => TEENS[u].to_owned(),
            (t, 0) => TENS[t].to_owned(),
            (t, u) => format!("{} ו{}", TENS[t], UNITS[u]),
        }
    }
    match n {
        1..=99 => below_100(n),
        100 => "מאה".to_owned(),
        101..=199 => {
            let rest = n - 100;
            // One word after מאה takes the ו: מאה ועשרה, מאה ושנים עשר
            // (one number), מאה ועשרים; two words, on the last: מאה עשרים
            // ואחד.
            if rest < 20 || rest.is_multiple_of(10) {
                format!("מאה ו{}", below_100(rest))
            } else {
                format!("מאה {}", below_100(rest))
            }
        }
        _ => panic!("no word for {n}"),
    }
}

#[test]
fn the_masculine_speller_of_this_test_is_right() {
    // The oracle itself, against forms from a grammar book.
    assert_eq!(masculine(3), "שלושה");
    assert_eq!(masculine(10), "עשרה");
    assert_eq!(masculine(11), "אחד עשר");
    assert_eq!(masculine(12), "שנים עשר");
    assert_eq!(masculine(22), "עשרים ושניים");
    assert_eq!(masculine(25), "עשרים וחמישה");
    assert_eq!(masculine(101), "מאה ואחד");
    assert_eq!(masculine(112), "מאה ושנים עשר");
    assert_eq!(masculine(120), "מאה ועשרים");
    assert_eq!(masculine(121), "מאה עשרים ואחד");
}

#[test]
fn moves_are_counted_with_masculine_numbers_when_spoken() {
    let h = he();
    let said = |n| h.moves(n).spoken;
    assert_eq!(said(3), "שלושה מסעים");
    assert_eq!(said(4), "ארבעה מסעים");
    assert_eq!(said(5), "חמישה מסעים");
    assert_eq!(said(10), "עשרה מסעים");
    assert_eq!(said(11), "אחד עשר מסעים");
    assert_eq!(said(12), "שנים עשר מסעים");
    assert_eq!(said(13), "שלושה עשר מסעים");
    assert_eq!(said(21), "עשרים ואחד מסעים");
    assert_eq!(said(22), "עשרים ושניים מסעים");
    assert_eq!(said(25), "עשרים וחמישה מסעים");
    assert_eq!(said(101), "מאה ואחד מסעים");
    assert_eq!(said(102), "מאה ושניים מסעים");
    assert_eq!(said(110), "מאה ועשרה מסעים");
    assert_eq!(said(111), "מאה ואחד עשר מסעים");
    assert_eq!(said(113), "מאה ושלושה עשר מסעים");
    assert_eq!(said(125), "מאה עשרים וחמישה מסעים");
    // Every count from 3 to 199.
    for n in 3..=199 {
        assert_eq!(said(n), format!("{} מסעים", masculine(n)), "n = {n}");
    }
}

#[test]
fn what_was_right_in_counted_phrases_stays_right() {
    let h = he();
    // One and two, and numbers that are the same in both genders.
    assert_eq!(h.moves(0).spoken, "אפס מסעים");
    assert_eq!(h.moves(1).spoken, "מסע אחד");
    assert_eq!(h.moves(2).spoken, "שני מסעים");
    assert_eq!(h.moves(8).spoken, "שמונה מסעים");
    assert_eq!(h.moves(40).spoken, "ארבעים מסעים");
    assert_eq!(h.moves(100).spoken, "מאה מסעים");
    // The screen keeps its digits.
    assert_eq!(h.moves(3).display, "3 מסעים");
    assert_eq!(h.moves(22).display, "22 מסעים");
    assert_eq!(h.moves(101).display, "101 מסעים");
    // Feminine nouns keep the feminine numbers.
    let minutes = |n| h.book.count(Unit::Minutes, n).spoken;
    assert_eq!(minutes(3), "שלוש דקות");
    assert_eq!(minutes(11), "אחת עשרה דקות");
    assert_eq!(minutes(22), "עשרים ושתיים דקות");
    assert_eq!(minutes(101), "מאה ואחת דקות");
    assert_eq!(h.book.count(Unit::Seconds, 12).spoken, "שתים עשרה שניות");
    assert_eq!(h.book.count(Unit::Hours, 5).spoken, "חמש שעות");
    let times = |n| h.stem(PluralStem::CountTimes, n).spoken;
    assert_eq!(times(3), "שלוש פעמים");
    assert_eq!(times(2), "פעמיים");
    assert_eq!(times(1), "פעם אחת");
}

#[test]
fn half_moves_are_counted_with_masculine_numbers_when_spoken() {
    let h = he();
    let said = |n| h.stem(PluralStem::CountHalfmoves, n).spoken;
    assert_eq!(said(1), "חצי מסע אחד");
    assert_eq!(said(2), "שני חצאי מסעים");
    assert_eq!(said(3), "שלושה חצאי מסעים");
    assert_eq!(said(11), "אחד עשר חצאי מסעים");
    assert_eq!(said(22), "עשרים ושניים חצאי מסעים");
    assert_eq!(said(101), "מאה ואחד חצאי מסעים");
    assert_eq!(
        h.stem(PluralStem::CountHalfmoves, 5).display,
        "5 חצאי מסעים"
    );
    // In a message: the claim of the 50-move rule.
    let (display, spoken) = h.say(
        MsgKey::UiClaimRejected,
        &[
            ("repetitions", h.stem(PluralStem::CountTimes, 3)),
            ("halfmoves", h.stem(PluralStem::CountHalfmoves, 12)),
            ("minutes", h.book.count(Unit::Minutes, 2)),
        ],
    );
    assert_eq!(
        spoken,
        "דרישת התיקו של לבן נדחתה: העמדה הופיעה שלוש פעמים; מאז מסע הרגלי או ההכאה האחרונים: שנים עשר חצאי מסעים. שחור מקבל עוד שתי דקות."
    );
    assert_eq!(
        display,
        "דרישת התיקו של לבן נדחתה: העמדה הופיעה 3 פעמים; מאז מסע הרגלי או ההכאה האחרונים: 12 חצאי מסעים. שחור מקבל עוד שתי דקות."
    );
}

#[test]
fn the_moves_of_the_clock_agree_in_number_and_gender() {
    let h = he();
    let completed = |n| h.say(MsgKey::ClockMoves, &[("moves", h.moves(n))]);
    assert_eq!(
        completed(1),
        ("לבן: הושלם מסע אחד.".into(), "לבן: הושלם מסע אחד.".into())
    );
    assert_eq!(completed(2).1, "לבן: הושלמו שני מסעים.");
    assert_eq!(
        completed(3),
        (
            "לבן: הושלמו 3 מסעים.".into(),
            "לבן: הושלמו שלושה מסעים.".into()
        )
    );
    assert_eq!(completed(21).1, "לבן: הושלמו עשרים ואחד מסעים.");
    assert_eq!(
        h.spoken(MsgKey::ClockMovesToControl, &[("moves", h.moves(12))]),
        "עד בקרת הזמן: שנים עשר מסעים."
    );
    assert_eq!(
        h.spoken(
            MsgKey::MirrorClockReading,
            &[
                ("white", h.minutes(5)),
                ("black", h.minutes(4)),
                ("white_moves", h.moves(5)),
                ("black_moves", h.moves(4)),
            ],
        ),
        "שעון: לבן חמש דקות (חמישה מסעים), שחור ארבע דקות (ארבעה מסעים)."
    );
}

#[test]
fn a_verb_agrees_with_one_unit_of_time() {
    let h = he();
    let left = |t: Utterance| h.say(MsgKey::ClockTimeLeft, &[("time", t)]);
    assert_eq!(left(h.minutes(1)).0, "לבן: נותרה דקה אחת.");
    assert_eq!(left(h.seconds(1)).1, "לבן: נותרה שנייה אחת.");
    assert_eq!(left(h.minutes(60)).0, "לבן: נותרה שעה אחת.");
    // Liveness: two and more, and a time of several units, are plural.
    assert_eq!(left(h.minutes(2)).0, "לבן: נותרו שתי דקות.");
    assert_eq!(
        left(h.minutes(3)),
        ("לבן: נותרו 3 דקות.".into(), "לבן: נותרו שלוש דקות.".into())
    );
    assert_eq!(left(h.minutes(61)).0, "לבן: נותרו שעה אחת ודקה אחת.");
    assert_eq!(left(h.minutes(101)).0, "לבן: נותרו שעה אחת ו-41 דקות.");

    assert_eq!(
        h.display(MsgKey::ClockLowTime, &[("time", h.seconds(1))]),
        "לבן: נותרה רק שנייה אחת!"
    );
    assert_eq!(
        h.display(MsgKey::ClockLowTime, &[("time", h.seconds(22))]),
        "לבן: נותרו רק 22 שניות!"
    );
    assert_eq!(
        h.display(MsgKey::ClockPeriodReached, &[("time", h.minutes(1))]),
        "לבן: הגיע לבקרת הזמן, נוספה דקה אחת."
    );
    assert_eq!(
        h.spoken(MsgKey::ClockPeriodReached, &[("time", h.minutes(30))]),
        "לבן: הגיע לבקרת הזמן, נוספו שלושים דקות."
    );
    assert_eq!(
        h.display(MsgKey::ClockTimeRemoved, &[("time", h.minutes(1))]),
        "הופחתה דקה אחת מלבן."
    );
    assert_eq!(
        h.display(MsgKey::ClockTimeRemoved, &[("time", h.minutes(5))]),
        "הופחתו 5 דקות מלבן."
    );
    assert_eq!(
        h.display(
            MsgKey::ClockCannotTake,
            &[("time", h.minutes(2)), ("left", h.minutes(1))]
        ),
        "לא ניתן להפחית שתי דקות מלבן: נותרה רק דקה אחת. הפחיתו פחות, לכל היותר את הזמן שנותר."
    );
    assert_eq!(
        h.display(
            MsgKey::GameClockCannotTake,
            &[("time", h.minutes(2)), ("left", h.seconds(1))]
        ),
        "אי אפשר להוריד ללבן שתי דקות: נותרה רק שנייה אחת. הורידו פחות, לכל היותר את הזמן שנותר."
    );
    assert_eq!(
        h.display(
            MsgKey::MirrorPressed,
            &[("time", h.minutes(1)), ("move", Utterance::plain("ה4"))]
        ),
        "לבן לחץ על השעון (נותרה דקה אחת). שחור: חזרו על ה4 ובצעו אותו על הלוח של שחור."
    );
    assert_eq!(
        h.display(
            MsgKey::MirrorAdjustRemove,
            &[("time", h.minutes(1)), ("remaining", h.minutes(1))]
        ),
        "בורר: הופחתה דקה אחת מלבן; ללבן יש עכשיו דקה אחת."
    );
    assert_eq!(
        h.display(MsgKey::QuickplayErrTimeLeft, &[("time", h.seconds(1))]),
        "ללבן נותרה שנייה אחת: זה אפשרי רק כשנותרו פחות משתי דקות בשעון."
    );
    assert_eq!(
        h.display(MsgKey::QuickplayErrTimeLeft, &[("time", h.seconds(3))]),
        "ללבן נותרו 3 שניות: זה אפשרי רק כשנותרו פחות משתי דקות בשעון."
    );
}

#[test]
fn no_prefix_is_written_with_a_hyphen_before_a_time_in_words() {
    let h = he();
    assert_eq!(
        h.say(MsgKey::ClockTimeUsed, &[("time", h.minutes(1))]).0,
        "לבן ניצל דקה אחת מזמנו."
    );
    assert_eq!(
        h.say(MsgKey::ClockTimeUsed, &[("time", h.minutes(3))]),
        (
            "לבן ניצל 3 דקות מזמנו.".into(),
            "לבן ניצל שלוש דקות מזמנו.".into()
        )
    );
    assert_eq!(
        h.say(
            MsgKey::ReviewMoveTime,
            &[("time", h.seconds(2)), ("number", h.bare(12))]
        )
        .0,
        "לבן השקיע שתי שניות במסע 12."
    );
    // No message of the review table puts ב-, מ- or ל- before a number
    // word or a time in words.
    let prefixed = |text: &str| {
        let chars: Vec<char> = text.chars().collect();
        chars.windows(3).enumerate().any(|(i, w)| {
            "במל".contains(w[0])
                && w[1] == '-'
                && ('\u{05D0}'..='\u{05EA}').contains(&w[2])
                && (i == 0 || !('\u{05D0}'..='\u{05EA}').contains(&chars[i - 1]))
        })
    };
    let checks: &[(MsgKey, &str)] = &[
        (MsgKey::ClockTimeUsed, "time"),
        (MsgKey::ReviewMoveTime, "time"),
        (MsgKey::DurationTooLong, "hours"),
        (MsgKey::ControlPeriodTooLong, "hours"),
        (MsgKey::ControlTooManyMoves, "moves"),
        (MsgKey::ControlIncrementTooLong, "minutes"),
        (MsgKey::WavTooLong, "seconds"),
    ];
    for &(key, name) in checks {
        for n in [1, 2, 3, 5, 11, 12, 21, 22, 25, 101] {
            for value in [h.bare(n), h.minutes(n), h.seconds(n)] {
                let (display, spoken) = h.say(key, &[(name, value)]);
                assert!(!prefixed(&display), "{key:?}: {display}");
                assert!(!prefixed(&spoken), "{key:?}: {spoken}");
            }
        }
    }
}

#[test]
fn a_bare_number_before_a_noun_takes_the_form_of_the_noun() {
    let h = he();
    let added = |n| h.say(MsgKey::UiTimeAdded, &[("seconds", h.bare(n))]);
    assert_eq!(
        added(1),
        (
            "בורר: לבן מקבל שנייה אחת.".into(),
            "בורר: לבן מקבל שנייה אחת.".into()
        )
    );
    assert_eq!(added(2).1, "בורר: לבן מקבל שתי שניות.");
    assert_eq!(
        added(3),
        (
            "בורר: לבן מקבל 3 שניות.".into(),
            "בורר: לבן מקבל שלוש שניות.".into()
        )
    );
    let removed = |n| h.say(MsgKey::UiTimeRemoved, &[("seconds", h.bare(n))]);
    assert_eq!(removed(1).0, "בורר: הופחתה שנייה אחת מלבן.");
    assert_eq!(removed(2).1, "בורר: הופחתו שתי שניות מלבן.");
    assert_eq!(removed(30).1, "בורר: הופחתו שלושים שניות מלבן.");

    let claim = |n| {
        h.say(
            MsgKey::ClaimRejected,
            &[("minutes", h.bare(n)), ("reason", Utterance::plain("X"))],
        )
    };
    assert_eq!(
        claim(2).1,
        "דרישת התיקו של לבן נדחתה: X. שחור מקבל עוד שתי דקות."
    );
    assert_eq!(
        claim(1).0,
        "דרישת התיקו של לבן נדחתה: X. שחור מקבל עוד דקה אחת."
    );
    assert_eq!(
        claim(5).0,
        "דרישת התיקו של לבן נדחתה: X. שחור מקבל עוד 5 דקות."
    );

    for key in [
        MsgKey::EngineNoUciok,
        MsgKey::EngineNoReadyok,
        MsgKey::EngineNoBestmove,
        MsgKey::SpeechNoAnswer,
        MsgKey::SpeechStuck,
    ] {
        let (d1, s1) = h.say(key, &[("seconds", h.bare(1))]);
        assert!(d1.contains("בתוך שנייה אחת"), "{key:?}: {d1}");
        assert!(s1.contains("בתוך שנייה אחת"), "{key:?}: {s1}");
        let s2 = h.spoken(key, &[("seconds", h.bare(2))]);
        assert!(s2.contains("בתוך שתי שניות"), "{key:?}: {s2}");
        let (d10, s10) = h.say(key, &[("seconds", h.bare(10))]);
        assert!(d10.contains("בתוך 10 שניות"), "{key:?}: {d10}");
        assert!(s10.contains("בתוך עשר שניות"), "{key:?}: {s10}");
    }
    assert_eq!(
        h.say(MsgKey::WavTooLong, &[("seconds", h.bare(1))]).0,
        "אורכו עולה על שנייה אחת, המרב למסע אחד מדובר"
    );
    assert_eq!(
        h.say(MsgKey::WavTooLong, &[("seconds", h.bare(30))]),
        (
            "אורכו עולה על 30 שניות, המרב למסע אחד מדובר".into(),
            "אורכו עולה על שלושים שניות, המרב למסע אחד מדובר".into()
        )
    );
    let position = Utterance::plain("7");
    assert_eq!(
        h.say(
            MsgKey::DurationTooLong,
            &[("hours", h.bare(1)), ("position", position.clone())]
        )
        .0,
        "הזמן ממקום 7 עולה על שעה אחת, המרב ש-annabella מקבלת"
    );
    assert_eq!(
        h.say(
            MsgKey::DurationTooLong,
            &[("hours", h.bare(2)), ("position", position.clone())]
        )
        .1,
        "הזמן ממקום 7 עולה על שעתיים, המרב ש-annabella מקבלת"
    );
    assert_eq!(
        h.say(
            MsgKey::DurationTooLong,
            &[("hours", h.bare(24)), ("position", position)]
        ),
        (
            "הזמן ממקום 7 עולה על 24 שעות, המרב ש-annabella מקבלת".into(),
            "הזמן ממקום 7 עולה על עשרים וארבע שעות, המרב ש-annabella מקבלת".into()
        )
    );
    let period = Utterance::plain("2");
    assert_eq!(
        h.say(
            MsgKey::ControlPeriodTooLong,
            &[("hours", h.bare(1)), ("period", period.clone())]
        )
        .0,
        "משך תקופה 2 עולה על שעה אחת"
    );
    assert_eq!(
        h.say(MsgKey::ControlIncrementTooLong, &[("minutes", h.bare(1))])
            .0,
        "התוספת או ההשהיה עולה על דקה אחת"
    );
    assert_eq!(
        h.say(MsgKey::ControlIncrementTooLong, &[("minutes", h.bare(11))])
            .1,
        "התוספת או ההשהיה עולה על אחת עשרה דקות"
    );
    let max = h.bare(99);
    assert_eq!(
        h.say(
            MsgKey::ControlTooManyMoves,
            &[
                ("moves", h.bare(3)),
                ("period", period.clone()),
                ("max", max.clone())
            ]
        ),
        (
            "בתקופה 2 יש 3 מסעים; מותרים לכל היותר 99".into(),
            "בתקופה 2 יש שלושה מסעים; מותרים לכל היותר תשעים ותשעה".into()
        )
    );
    assert_eq!(
        h.say(
            MsgKey::ControlTooManyMoves,
            &[("moves", h.bare(1)), ("period", period), ("max", max)]
        )
        .0,
        "בתקופה 2 יש מסע אחד; מותרים לכל היותר 99"
    );
    assert_eq!(
        h.say(MsgKey::SpeechFileWritten, &[("seconds", h.bare(1))])
            .0,
        "השמע נכתב אל \u{2068}{file}\u{2069} (שנייה אחת)."
    );
    assert_eq!(
        h.say(
            MsgKey::SpeechFileWritten,
            &[("seconds", Utterance::plain("2.5"))]
        )
        .0,
        "השמע נכתב אל \u{2068}{file}\u{2069} (2.5 שניות)."
    );
}

#[test]
fn counts_of_masculine_things_from_a_bare_number() {
    let h = he();
    let opened = |n| h.spoken(MsgKey::ReviewOpened, &[("count", h.bare(n))]);
    assert!(opened(1).contains(", חצי מסע אחד,"), "{}", opened(1));
    assert!(opened(2).contains(", שני חצאי מסעים,"), "{}", opened(2));
    assert!(opened(3).contains(", שלושה חצאי מסעים,"), "{}", opened(3));
    assert!(
        opened(22).contains(", עשרים ושניים חצאי מסעים,"),
        "{}",
        opened(22)
    );
    assert!(
        opened(101).contains(", מאה ואחד חצאי מסעים,"),
        "{}",
        opened(101)
    );
    let opened_display = h.display(MsgKey::ReviewOpened, &[("count", h.bare(97))]);
    assert!(
        opened_display.contains(", 97 חצאי מסעים,"),
        "{opened_display}"
    );

    let mate = |n| h.say(MsgKey::ReviewScoreMate, &[("moves", h.bare(n))]);
    assert_eq!(
        mate(1),
        (
            "לבן נותן מט בעוד מסע אחד".into(),
            "לבן נותן מט בעוד מסע אחד".into()
        )
    );
    assert_eq!(mate(2).1, "לבן נותן מט בעוד שני מסעים");
    assert_eq!(
        mate(3),
        (
            "לבן נותן מט בעוד 3 מסעים".into(),
            "לבן נותן מט בעוד שלושה מסעים".into()
        )
    );
    assert_eq!(mate(12).1, "לבן נותן מט בעוד שנים עשר מסעים");

    let list = Utterance::plain("ה4, ה5");
    let recent = |n| {
        h.say(
            MsgKey::ReviewRecent,
            &[("count", h.bare(n)), ("moves", list.clone())],
        )
    };
    assert_eq!(recent(1).0, "המסע האחרון: ה4, ה5.");
    assert_eq!(
        recent(5),
        (
            "המסעים האחרונים (5): ה4, ה5.".into(),
            "המסעים האחרונים (חמישה): ה4, ה5.".into()
        )
    );

    let read = |n| h.say(MsgKey::ErrorPgnUnterminated, &[("moves", h.bare(n))]);
    assert!(read(1).0.ends_with("; נקרא מסע אחד."), "{}", read(1).0);
    assert!(read(2).1.ends_with("; נקראו שני מסעים."), "{}", read(2).1);
    assert!(read(3).1.ends_with("; נקראו שלושה מסעים."), "{}", read(3).1);
    assert!(read(3).0.ends_with("; נקראו 3 מסעים."), "{}", read(3).0);

    let dropped = h.spoken(MsgKey::PlayPgnNullMove, &[("count", h.bare(11))]);
    assert!(
        dropped.ends_with("מסעים שהושמטו מהמסע הריק והלאה: אחד עשר."),
        "{dropped}"
    );
    let to_control = h.spoken(MsgKey::QuickplayErrNotFinalPeriod, &[("moves", h.bare(4))]);
    assert!(
        to_control.ends_with("(מסעים עד בקרת הזמן: ארבעה)."),
        "{to_control}"
    );

    let games = |n| h.display(MsgKey::OutputOtherGames, &[("games", h.bare(n))]);
    assert!(
        games(1).contains(" מכיל משחק אחד שאינו המשחק הזה:"),
        "{}",
        games(1)
    );
    assert!(
        games(2).contains(" מכיל שני משחקים שאינם המשחק הזה:"),
        "{}",
        games(2)
    );
    assert!(
        games(7).contains(" מכיל 7 משחקים שאינם המשחק הזה:"),
        "{}",
        games(7)
    );
    assert!(
        h.spoken(MsgKey::OutputOtherGames, &[("games", h.bare(7))])
            .contains(" מכיל שבעה משחקים שאינם המשחק הזה:")
    );

    let resumed = |n| h.say(MsgKey::JournalResumed, &[("events", h.bare(n))]);
    assert!(
        resumed(1).0.contains(": אירוע אחד שוחזר."),
        "{}",
        resumed(1).0
    );
    assert!(
        resumed(2).1.contains(": שני אירועים שוחזרו."),
        "{}",
        resumed(2).1
    );
    assert!(
        resumed(40).0.contains(": 40 אירועים שוחזרו."),
        "{}",
        resumed(40).0
    );
    assert!(
        resumed(3).1.contains(": שלושה אירועים שוחזרו."),
        "{}",
        resumed(3).1
    );
    let salvaged = h.display(MsgKey::JournalSalvaged, &[("events", h.bare(1))]);
    assert!(salvaged.contains("(אירוע אחד הועתק)"), "{salvaged}");
    let salvaged = h.spoken(MsgKey::JournalSalvaged, &[("events", h.bare(5))]);
    assert!(salvaged.contains("(חמישה אירועים הועתקו)"), "{salvaged}");

    let corrupt = h.display(
        MsgKey::JournalCorrupt,
        &[("events", h.bare(1)), ("later", h.bare(1))],
    );
    assert!(
        corrupt.contains("(רשומה אחת); רשומה אחת מאוחרת יותר אינה ניתנת לחיבור אליו."),
        "{corrupt}"
    );
    assert!(corrupt.contains("כדי לעבור עליה עם השופט"), "{corrupt}");
    assert!(corrupt.contains("כדי להמשיך בלעדיה:"), "{corrupt}");
    let corrupt = h.display(
        MsgKey::JournalCorrupt,
        &[("events", h.bare(30)), ("later", h.bare(4))],
    );
    assert!(
        corrupt.contains("(30 רשומות); 4 רשומות מאוחרות יותר אינן ניתנות לחיבור אליו."),
        "{corrupt}"
    );
    assert!(corrupt.contains("כדי לעבור עליהן עם השופט"), "{corrupt}");
    assert!(corrupt.contains("כדי להמשיך בלעדיהן:"), "{corrupt}");
}

#[test]
fn the_alarm_settings_agree_with_the_amount() {
    let h = he();
    let counted = |n| {
        h.say(
            MsgKey::UiAlarmCounted,
            &[("seconds", h.book.count(Unit::Seconds, n))],
        )
    };
    assert_eq!(counted(1).0, "ספירה בקול של השנייה האחרונה");
    assert_eq!(
        counted(10),
        (
            "ספירה בקול של 10 שניות אחרונות".into(),
            "ספירה בקול של עשר שניות אחרונות".into()
        )
    );
    assert_eq!(counted(2).1, "ספירה בקול של שתי שניות אחרונות");
    // A warning time: the feminine units agree with the verb.
    let one_minute = Utterance {
        display: "1:00".into(),
        spoken: "דקה אחת".into(),
    };
    assert_eq!(
        h.say(MsgKey::UiAlarmWarnings, &[("times", one_minute)]),
        ("אזהרה כשנותרות 1:00".into(), "אזהרה כשנותרת דקה אחת".into())
    );
    let several = Utterance {
        display: "5:00, 1:00".into(),
        spoken: "חמש דקות, דקה אחת".into(),
    };
    assert_eq!(
        h.spoken(MsgKey::UiAlarmWarnings, &[("times", several)]),
        "אזהרה כשנותרות חמש דקות, דקה אחת"
    );
}

#[test]
fn the_units_of_a_time_are_joined_with_vav() {
    let h = he();
    let time = |secs: u64| {
        let u = h.book.duration(Duration::from_secs(secs), Verbosity::Full);
        (u.display, u.spoken)
    };
    let pair = |d: &str, s: &str| (d.to_owned(), s.to_owned());
    assert_eq!(time(3660), pair("שעה אחת ודקה אחת", "שעה אחת ודקה אחת"));
    assert_eq!(
        time(60 * 101),
        pair("שעה אחת ו-41 דקות", "שעה אחת וארבעים ואחת דקות")
    );
    assert_eq!(time(62), pair("דקה אחת ושתי שניות", "דקה אחת ושתי שניות"));
    assert_eq!(
        time(133),
        pair("שתי דקות ו-13 שניות", "שתי דקות ושלוש עשרה שניות")
    );
    assert_eq!(
        time(671),
        pair("11 דקות ו-11 שניות", "אחת עשרה דקות ואחת עשרה שניות")
    );
    assert_eq!(
        time(1330),
        pair("22 דקות ו-10 שניות", "עשרים ושתיים דקות ועשר שניות")
    );
    assert_eq!(
        time(350),
        pair("5 דקות ו-50 שניות", "חמש דקות וחמישים שניות")
    );
    assert_eq!(
        time(7200 + 120 + 3),
        pair("שעתיים ושתי דקות ו-3 שניות", "שעתיים ושתי דקות ושלוש שניות")
    );
    assert_eq!(
        time(3600 + 59),
        pair("שעה אחת ו-59 שניות", "שעה אחת וחמישים ותשע שניות")
    );
    // Every time of two units up to an hour: one ו, before the second unit
    // only, and never a comma.
    for secs in 61..3600 {
        let (display, spoken) = time(secs);
        if secs % 60 == 0 {
            continue;
        }
        for text in [&display, &spoken] {
            assert!(!text.contains(','), "{secs}: {text}");
            let unit = if secs / 60 == 1 {
                "דקה אחת"
            } else if secs / 60 == 2 {
                "שתי דקות"
            } else {
                "דקות"
            };
            let (_, after) = text.split_once(unit).expect("minutes first");
            assert!(after.starts_with(" ו"), "{secs}: {text}");
        }
    }
    // In a message: the verb is plural for a time of two units.
    assert_eq!(
        h.say(MsgKey::ClockTimeLeft, &[("time", h.seconds(62))]).1,
        "לבן: נותרו דקה אחת ושתי שניות."
    );
}
