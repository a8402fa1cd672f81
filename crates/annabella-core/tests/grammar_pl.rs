//! Polish grammar of every message with a number (issue 20): the case a
//! verb or preposition governs (accusative after "otrzymują", "mają",
//! "zużyto", "wynosi", "przez"; genitive after a negated verb and after "w
//! ciągu"), the noun after a bare number (1 ruch, 2 ruchy, 5 ruchów), and
//! verbs that agree with the side ("Białe", "Czarne": plural,
//! non-masculine-personal). Every expected text is written out by hand as a
//! Polish speaker writes it; the values are filled as the callers fill them
//! (a plural phrase of the Phrasebook, a time in words, or bare digits).
//! Polish has no `[numbers]` table, so the spoken text is the displayed
//! text; both are checked.

use std::sync::OnceLock;
use std::time::Duration;

use annabella_core::clock::talk::{Phrasebook, Unit, Verbosity};
use annabella_core::locale::{self, Locale, MsgKey};
use annabella_core::vocab::Utterance;
use shakmaty::Color;

/// The Polish locale, loaded (and checked) once.
fn pl() -> &'static Locale {
    static PL: OnceLock<Locale> = OnceLock::new();
    PL.get_or_init(|| locale::builtin("pl").expect("the Polish locale loads"))
}

fn book() -> &'static Phrasebook {
    static BOOK: OnceLock<Phrasebook> = OnceLock::new();
    BOOK.get_or_init(|| Phrasebook::builtin("pl").expect("the Polish phrasebook loads"))
}

/// `key` filled with `args`, displayed and spoken, as the clock's messages
/// are filled.
fn fill(key: MsgKey, args: &[(&str, &Utterance)]) -> Utterance {
    let l = pl();
    let display: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.display.as_str())).collect();
    let spoken: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.spoken.as_str())).collect();
    Utterance {
        display: l.message(key, &display),
        spoken: l.message(key, &spoken),
    }
}

/// Asserts both the displayed and the spoken text.
fn same(u: &Utterance, expected: &str) {
    assert_eq!(u.display, expected, "displayed");
    assert_eq!(u.spoken, expected, "spoken");
}

fn white() -> Utterance {
    book().side(Color::White)
}

fn black() -> Utterance {
    book().side(Color::Black)
}

fn minutes(n: u64) -> Utterance {
    book().count(Unit::Minutes, n)
}

fn seconds(n: u64) -> Utterance {
    book().count(Unit::Seconds, n)
}

fn full(secs: u64) -> Utterance {
    book().duration(Duration::from_secs(secs), Verbosity::Full)
}

/// n minutes in the accusative, by hand.
const ACC_MINUTES: [(u64, &str); 12] = [
    (0, "0 minut"),
    (1, "jedną minutę"),
    (2, "2 minuty"),
    (3, "3 minuty"),
    (4, "4 minuty"),
    (5, "5 minut"),
    (11, "11 minut"),
    (12, "12 minut"),
    (21, "21 minut"),
    (22, "22 minuty"),
    (25, "25 minut"),
    (101, "101 minut"),
];

/// n seconds in the accusative, by hand.
const ACC_SECONDS: [(u64, &str); 12] = [
    (0, "0 sekund"),
    (1, "jedną sekundę"),
    (2, "2 sekundy"),
    (3, "3 sekundy"),
    (4, "4 sekundy"),
    (5, "5 sekund"),
    (11, "11 sekund"),
    (12, "12 sekund"),
    (21, "21 sekund"),
    (22, "22 sekundy"),
    (25, "25 sekund"),
    (101, "101 sekund"),
];

/// n minutes in the genitive, by hand.
const GEN_MINUTES: [(u64, &str); 12] = [
    (0, "0 minut"),
    (1, "jednej minuty"),
    (2, "2 minut"),
    (3, "3 minut"),
    (4, "4 minut"),
    (5, "5 minut"),
    (11, "11 minut"),
    (12, "12 minut"),
    (21, "21 minut"),
    (22, "22 minut"),
    (25, "25 minut"),
    (101, "101 minut"),
];

#[test]
fn remaining_time_is_had_in_the_accusative() {
    // "zostało 2 minuty", "zostało jedna minuta" were wrong.
    for (n, acc) in ACC_MINUTES {
        let u = fill(
            MsgKey::ClockTimeLeft,
            &[("side", &white()), ("time", &minutes(n))],
        );
        same(&u, &format!("Białe mają jeszcze {acc}."));
    }
    for (n, acc) in ACC_SECONDS {
        let u = fill(
            MsgKey::ClockLowTime,
            &[("side", &black()), ("time", &seconds(n))],
        );
        same(&u, &format!("Czarne mają już tylko {acc}!"));
    }
    // A time of several units: each unit in the accusative.
    let u = fill(
        MsgKey::ClockTimeLeft,
        &[("side", &white()), ("time", &full(3600 + 41 * 60))],
    );
    same(&u, "Białe mają jeszcze jedną godzinę 41 minut.");
    let u = fill(
        MsgKey::ClockLowTime,
        &[("side", &white()), ("time", &full(60 + 22))],
    );
    same(&u, "Białe mają już tylko jedną minutę 22 sekundy!");
    // Brief: digits shown, words spoken, both grammatical.
    let brief = book().duration(Duration::from_secs(4 * 60 + 1), Verbosity::Brief);
    let u = fill(
        MsgKey::ClockTimeLeft,
        &[("side", &white()), ("time", &brief)],
    );
    assert_eq!(u.display, "Białe mają jeszcze 4:01.");
    assert_eq!(u.spoken, "Białe mają jeszcze 4 minuty jedną sekundę.");
}

#[test]
fn time_given_taken_and_used_is_in_the_accusative() {
    let frames: [(MsgKey, &str); 8] = [
        (MsgKey::ClockTimeUsed, "Białe: zużyto {}."),
        (MsgKey::ClockTimeAdded, "Białe: dodano {}."),
        (MsgKey::ClockTimeRemoved, "Białe: odjęto {}."),
        (
            MsgKey::ClockPeriodReached,
            "Białe: kontrola czasu osiągnięta, dodano {}.",
        ),
        (
            MsgKey::MirrorPeriodReached,
            "Kontrola czasu osiągnięta: Białe otrzymują {}.",
        ),
        (
            MsgKey::MirrorErrTimeBackwards,
            "Czas nie może się cofać: czas partii wynosi już {}.",
        ),
        (
            MsgKey::MirrorDefaultTime,
            "Dopuszczalny czas spóźnienia wynosi {}: kto przy wznowieniu jest nieobecny dłużej, przegrywa partię (Wytyczne I.10).",
        ),
        (
            MsgKey::QuickplayErrTimeLeft,
            "Białe mają jeszcze {}: to możliwe tylko przy mniej niż dwóch minutach na zegarze.",
        ),
    ];
    for (key, frame) in frames {
        for (n, acc) in ACC_MINUTES {
            let u = fill(key, &[("side", &white()), ("time", &minutes(n))]);
            same(&u, &frame.replace("{}", acc));
        }
        let u = fill(key, &[("side", &white()), ("time", &full(3600 + 41 * 60))]);
        same(&u, &frame.replace("{}", "jedną godzinę 41 minut"));
    }
    for (n, acc) in ACC_MINUTES {
        let u = fill(
            MsgKey::MirrorAdjustAdd,
            &[
                ("side", &black()),
                ("time", &minutes(n)),
                ("remaining", &minutes(n)),
            ],
        );
        same(
            &u,
            &format!("Sędzia: Czarne otrzymują {acc}; Czarne mają teraz {acc}."),
        );
        let u = fill(
            MsgKey::MirrorAdjustRemove,
            &[
                ("side", &black()),
                ("time", &minutes(n)),
                ("remaining", &minutes(n)),
            ],
        );
        same(
            &u,
            &format!("Sędzia: Czarne tracą {acc}; Czarne mają teraz {acc}."),
        );
    }
    for (n, acc) in ACC_SECONDS {
        let u = fill(MsgKey::ClockIncrementAdded, &[("time", &seconds(n))]);
        same(
            &u,
            &format!("Od teraz obaj gracze otrzymują {acc} za ruch (Wytyczna III.4)."),
        );
        let u = fill(
            MsgKey::ReviewMoveTime,
            &[("side", &white()), ("time", &seconds(n))],
        );
        same(&u, &format!("Białe zużyły {acc} na ruch {{number}}."));
        let u = fill(MsgKey::ReviewEngineThinking, &[("time", &seconds(n))]);
        same(&u, &format!("Silnik myśli przez {acc}."));
        let u = fill(
            MsgKey::QuickplayIncrementGranted,
            &[
                ("side", &white()),
                ("opponent", &black()),
                ("seconds", &seconds(n)),
                ("minutes", &minutes(n)),
            ],
        );
        let acc_min = ACC_MINUTES.iter().find(|(m, _)| *m == n).expect("same n").1;
        same(
            &u,
            &format!(
                "Sędzia przyznaje prośbę (Białe): od teraz obaj gracze otrzymują {acc} za ruch, a Czarne otrzymują dodatkowo {acc_min} (Wytyczna III.4)."
            ),
        );
    }
    // The increment asked for is named in parentheses ("o dodatek jedna
    // sekunda" mixed the accusative and the nominative).
    let u = fill(
        MsgKey::QuickplayIncrementRequested,
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("seconds", &seconds(1)),
        ],
    );
    assert!(
        u.display.starts_with(
            "Białe mają mniej niż dwie minuty i proszą o dodatek (jedna sekunda za ruch) dla obu graczy (Wytyczna III.4); zegary są zatrzymane."
        ),
        "{}",
        u.display
    );
    assert_eq!(u.spoken, u.display);
    // The increment the clock already has is named after a colon.
    let u = fill(MsgKey::ClockIncrementAlready, &[("time", &seconds(1))]);
    same(
        &u,
        "Zegar ma już dodatek lub opóźnienie: jedna sekunda za ruch; nic nie zmieniono.",
    );
    // Liveness: the penalty messages that were right stay right.
    let u = fill(
        MsgKey::PenaltyIllegalMove,
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("minutes", &minutes(1)),
        ],
    );
    same(
        &u,
        "Białe wykonały nieprawidłowy ruch. Czarne otrzymują dodatkowo jedną minutę.",
    );
}

#[test]
fn time_that_cannot_be_taken_is_in_the_genitive() {
    // "Nie można odjąć jedna minuta" / "2 minuty" were wrong.
    for (n, genitive) in GEN_MINUTES {
        let acc = ACC_MINUTES.iter().find(|(m, _)| *m == n).expect("same n").1;
        let u = fill(
            MsgKey::ClockCannotTake,
            &[
                ("side", &white()),
                ("time", &minutes(n)),
                ("left", &minutes(n)),
            ],
        );
        same(
            &u,
            &format!(
                "Nie można odjąć {genitive}: Białe mają tylko {acc}. Odejmij mniej, najwyżej pozostały czas."
            ),
        );
        let u = fill(
            MsgKey::GameClockCannotTake,
            &[
                ("side", &black()),
                ("time", &minutes(n)),
                ("left", &minutes(n)),
            ],
        );
        same(
            &u,
            &format!(
                "Nie można odjąć Czarnym {genitive}: mają tylko {acc}. Odejmij mniej, najwyżej pozostały czas."
            ),
        );
    }
    let u = fill(
        MsgKey::ClockCannotTake,
        &[
            ("side", &white()),
            ("time", &full(2 * 3600 + 2 * 60)),
            ("left", &full(3600 + 22 * 60)),
        ],
    );
    same(
        &u,
        "Nie można odjąć 2 godzin 2 minut: Białe mają tylko jedną godzinę 22 minuty. Odejmij mniej, najwyżej pozostały czas.",
    );
    let u = fill(
        MsgKey::ClockCannotTake,
        &[
            ("side", &white()),
            ("time", &full(3600 + 60)),
            ("left", &full(3600)),
        ],
    );
    same(
        &u,
        "Nie można odjąć jednej godziny jednej minuty: Białe mają tylko jedną godzinę. Odejmij mniej, najwyżej pozostały czas.",
    );
}

#[test]
fn moves_made_agree_with_the_side() {
    let forms: [(u64, &str); 12] = [
        (0, "0 ruchów"),
        (1, "jeden ruch"),
        (2, "2 ruchy"),
        (3, "3 ruchy"),
        (4, "4 ruchy"),
        (5, "5 ruchów"),
        (11, "11 ruchów"),
        (12, "12 ruchów"),
        (21, "21 ruchów"),
        (22, "22 ruchy"),
        (25, "25 ruchów"),
        (101, "101 ruchów"),
    ];
    for (n, moves) in forms {
        let u = fill(
            MsgKey::ClockMoves,
            &[("side", &white()), ("moves", &book().count(Unit::Moves, n))],
        );
        same(&u, &format!("Białe wykonały {moves}."));
    }
}

/// The Polish noun after a bare number n: (n, one form for 1, 2-4 form, 5+
/// form) chosen by hand for the numbers of the review.
fn noun(n: u64, one: &str, few: &str, many: &str) -> String {
    let word = match n {
        1 => one,
        2..=4 | 22..=24 | 102..=104 => few,
        _ => many,
    };
    format!("{n} {word}")
}

const NS: [u64; 12] = [0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 101];

#[test]
fn a_bare_number_takes_the_noun_of_its_count() {
    let l = pl();
    for n in NS {
        let d = n.to_string();
        assert_eq!(
            l.message(MsgKey::ReviewOpened, &[("count", &d)]),
            format!(
                "Przegląd: {{white}} przeciw {{black}}, {}, {{result}} Pozycja początkowa, ruch: {{side}}. Wpisz {{next}}, aby zobaczyć następny ruch, albo {{help}}, aby poznać polecenia.",
                noun(n, "półruch", "półruchy", "półruchów")
            )
        );
        assert_eq!(
            l.message(MsgKey::DurationTooLong, &[("hours", &d)]),
            format!(
                "czas od pozycji {{position}} jest dłuższy niż {}, najwięcej, ile przyjmuje annabella",
                noun(n, "godzina", "godziny", "godzin")
            )
        );
        assert_eq!(
            l.message(MsgKey::ControlPeriodTooLong, &[("hours", &d)]),
            format!(
                "okres {{period}} jest dłuższy niż {}",
                noun(n, "godzina", "godziny", "godzin")
            )
        );
        assert_eq!(
            l.message(MsgKey::ControlTooManyMoves, &[("moves", &d)]),
            format!(
                "okres {{period}} obejmuje {}; dozwolonych jest najwyżej {{max}}",
                noun(n, "ruch", "ruchy", "ruchów")
            )
        );
        assert_eq!(
            l.message(MsgKey::ControlNumberTooLarge, &[("max", &d)]),
            format!(
                "liczba ruchów na pozycji {{position}} jest za duża; okres ma najwyżej {}",
                noun(n, "ruch", "ruchy", "ruchów")
            )
        );
        assert_eq!(
            l.message(MsgKey::ControlIncrementTooLong, &[("minutes", &d)]),
            format!(
                "dodatek lub opóźnienie jest dłuższe niż {}",
                noun(n, "minuta", "minuty", "minut")
            )
        );
        assert_eq!(
            l.message(MsgKey::WavTooLong, &[("seconds", &d)]),
            format!(
                "jest dłuższy niż {}, a tyle najwyżej trwa jeden wypowiedziany ruch",
                noun(n, "sekunda", "sekundy", "sekund")
            )
        );
        assert_eq!(
            l.message(MsgKey::WavChannels, &[("channels", &d), ("max", "2")]),
            format!(
                "ma {}, a annabella czyta od 1 do 2",
                noun(n, "kanał", "kanały", "kanałów")
            )
        );
        assert_eq!(
            l.message(MsgKey::InputLineTooLong, &[("limit", &d)]),
            format!(
                "Ten wiersz ma więcej niż {} i nie został odczytany. Wpisz krótszy wiersz.",
                noun(n, "znak", "znaki", "znaków")
            )
        );
        // "w ciągu" takes the genitive: 1 sekundy, 2 sekund, 5 sekund.
        let within = noun(n, "sekundy", "sekund", "sekund");
        assert_eq!(
            l.message(MsgKey::EngineNoUciok, &[("seconds", &d)]),
            format!("nie odpowiedział na powitanie UCI w ciągu {within} i został zatrzymany")
        );
        assert_eq!(
            l.message(MsgKey::EngineNoReadyok, &[("seconds", &d)]),
            format!("nie zgłosił gotowości w ciągu {within} i został zatrzymany")
        );
        assert_eq!(
            l.message(MsgKey::EngineNoBestmove, &[("seconds", &d)]),
            format!("nie podał ruchu w ciągu {within} i został zatrzymany")
        );
        assert_eq!(
            l.message(MsgKey::SpeechNoAnswer, &[("seconds", &d)]),
            format!("nie odpowiedział w ciągu {within}")
        );
        assert_eq!(
            l.message(
                MsgKey::SpeechStuck,
                &[("seconds", &d), ("engine", "espeak-ng")]
            ),
            format!("espeak-ng nie skończył mówić w ciągu {within} i został zatrzymany")
        );
        // Seconds and minutes given by the arbiter, in the accusative.
        assert_eq!(
            l.message(MsgKey::UiTimeAdded, &[("side", "Białe"), ("seconds", &d)]),
            format!(
                "Sędzia: Białe otrzymują dodatkowo {}.",
                noun(n, "sekundę", "sekundy", "sekund")
            )
        );
        assert_eq!(
            l.message(MsgKey::UiTimeRemoved, &[("side", "Białe"), ("seconds", &d)]),
            format!(
                "Sędzia: Białe tracą {}.",
                noun(n, "sekundę", "sekundy", "sekund")
            )
        );
        assert_eq!(
            l.message(
                MsgKey::ClaimRejected,
                &[
                    ("side", "Białe"),
                    ("opponent", "Czarne"),
                    ("reason", "pozycja wystąpiła 2 razy"),
                    ("minutes", &d)
                ]
            ),
            format!(
                "Żądanie remisu zgłoszone przez Białe odrzucone: pozycja wystąpiła 2 razy. Czarne otrzymują dodatkowo {}.",
                noun(n, "minutę", "minuty", "minut")
            )
        );
    }
}

#[test]
fn the_counted_seconds_of_the_alarm_are_in_the_genitive() {
    let forms: [(u64, &str); 11] = [
        (1, "odliczanie na głos ostatniej sekundy"),
        (2, "odliczanie na głos ostatnich 2 sekund"),
        (3, "odliczanie na głos ostatnich 3 sekund"),
        (4, "odliczanie na głos ostatnich 4 sekund"),
        (5, "odliczanie na głos ostatnich 5 sekund"),
        (11, "odliczanie na głos ostatnich 11 sekund"),
        (12, "odliczanie na głos ostatnich 12 sekund"),
        (21, "odliczanie na głos ostatnich 21 sekund"),
        (22, "odliczanie na głos ostatnich 22 sekund"),
        (25, "odliczanie na głos ostatnich 25 sekund"),
        (101, "odliczanie na głos ostatnich 101 sekund"),
    ];
    for (n, text) in forms {
        let u = fill(MsgKey::UiAlarmCounted, &[("seconds", &seconds(n))]);
        same(&u, text);
    }
}

#[test]
fn the_time_limit_of_absence_is_named_not_governed() {
    let u = fill(
        MsgKey::MirrorPlayerAbsent,
        &[("side", &white()), ("time", &minutes(1))],
    );
    same(
        &u,
        "Nieobecność przy wznowieniu: Białe. Kto jest nieobecny dłużej niż dopuszczalny czas spóźnienia (jedna minuta), przegrywa partię (Wytyczne I.10).",
    );
    let u = fill(
        MsgKey::MirrorPressed,
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("time", &minutes(2)),
            ("move", &Utterance::plain("e4".to_owned())),
        ],
    );
    same(
        &u,
        "Białe nacisnęły zegar (pozostały czas: 2 minuty). Czarne: powtórz e4 i wykonaj ten ruch na swojej szachownicy.",
    );
}

#[test]
fn verbs_agree_with_the_plural_side() {
    let u = fill(
        MsgKey::UiConfirmClaim,
        &[
            ("side", &white()),
            ("opponent", &black()),
            ("yes", &Utterance::plain("tak".to_owned())),
            ("no", &Utterance::plain("nie".to_owned())),
        ],
    );
    same(
        &u,
        "Białe zgłaszają reklamację? Reklamacji nie można wycofać (artykuł 9.5.1); nieprawidłowa reklamacja remisu daje Czarnym dodatkowy czas. Powiedz tak, aby reklamować, albo nie.",
    );
    let u = fill(
        MsgKey::MirrorWinClaimableStands,
        &[
            ("side", &black()),
            ("claim", &Utterance::plain("wygrana".to_owned())),
        ],
    );
    assert!(
        u.display
            .starts_with("Czarne mogą teraz, przed swoim ruchem, zażądać wygranej"),
        "{}",
        u.display
    );
}

#[test]
fn the_warning_times_of_the_alarm_are_listed_not_governed() {
    // "gdy zostanie 5 minut, jedna minuta, 30 sekund": one verb cannot agree
    // with every time of the list.
    let times = Utterance {
        display: "5:00, 1:00, 0:30".to_owned(),
        spoken: "5 minut, jedna minuta, 30 sekund".to_owned(),
    };
    let u = fill(MsgKey::UiAlarmWarnings, &[("times", &times)]);
    assert_eq!(
        u.display,
        "ostrzeżenie przy pozostałym czasie: 5:00, 1:00, 0:30"
    );
    assert_eq!(
        u.spoken,
        "ostrzeżenie przy pozostałym czasie: 5 minut, jedna minuta, 30 sekund"
    );
    // "do" takes the genitive: od 0 do 1 sekundy, do 2 sekund.
    for (max, upto) in [("1", "1 sekundy"), ("2", "2 sekund"), ("60", "60 sekund")] {
        let text = pl().message(
            MsgKey::UiAlarmRefused,
            &[
                ("text", "x"),
                ("example", "alarm 1m"),
                ("countdown", "alarm odliczanie 5"),
                ("max", max),
                ("off", "alarm wyłącz"),
            ],
        );
        assert_eq!(
            text,
            format!(
                "Nie rozumiem 'x': podaj czasy, na przykład alarm 1m, alarm odliczanie 5 (od 0 do {upto}) albo alarm wyłącz. Niczego nie zmieniono."
            )
        );
    }
}
