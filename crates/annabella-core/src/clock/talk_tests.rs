//! Unit tests of the talking clock: words per locale (expected text written
//! by hand) and every schedule with injected time.

use std::time::Duration;

use shakmaty::Color::{Black, White};

use super::*;
use crate::clock::{Adjustment, Clock};

const T0: Duration = Duration::from_secs(50_000);

const fn sec(n: u64) -> Duration {
    Duration::from_secs(n)
}

const fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

const fn min(n: u64) -> Duration {
    Duration::from_secs(n * 60)
}

fn book(code: &str) -> Phrasebook {
    Phrasebook::builtin(code).unwrap()
}

// --- plural rules -----------------------------------------------------

#[test]
fn plural_categories_follow_cldr() {
    use PluralCategory::*;
    for lang in ["en", "de", "el", "en-US", "de_AT"] {
        assert_eq!(plural_category(lang, 0), Other, "{lang}");
        assert_eq!(plural_category(lang, 1), One, "{lang}");
        assert_eq!(plural_category(lang, 2), Other, "{lang}");
        assert_eq!(plural_category(lang, 21), Other, "{lang}");
    }
    let pl = |n| plural_category("pl", n);
    assert_eq!(pl(1), One);
    for n in [2, 3, 4, 22, 23, 24, 102, 1004] {
        assert_eq!(pl(n), Few, "pl {n}");
    }
    for n in [0, 5, 9, 10, 11, 12, 13, 14, 15, 20, 21, 25, 111, 112, 1000] {
        assert_eq!(pl(n), Many, "pl {n}");
    }
    let he = |n| plural_category("he", n);
    assert_eq!(he(1), One);
    assert_eq!(he(2), Two);
    for n in [0, 3, 10, 11, 20, 100] {
        assert_eq!(he(n), Other, "he {n}");
    }
    let ar = |n| plural_category("ar", n);
    assert_eq!(ar(0), Zero);
    assert_eq!(ar(1), One);
    assert_eq!(ar(2), Two);
    for n in [3, 7, 10, 103, 110, 1003] {
        assert_eq!(ar(n), Few, "ar {n}");
    }
    for n in [11, 26, 99, 111, 199, 1011] {
        assert_eq!(ar(n), Many, "ar {n}");
    }
    for n in [100, 101, 102, 200, 1000] {
        assert_eq!(ar(n), Other, "ar {n}");
    }
}

/// CLDR, not a hand-written table: Korean has only `other` (1 was `One`),
/// and languages of users' locale files get their own rules (Russian and
/// Czech got English rules); a tag CLDR cannot read gets the root rules.
#[test]
fn plural_categories_of_every_cldr_language() {
    use PluralCategory::*;
    for n in [0, 1, 2, 5, 21, 100] {
        assert_eq!(plural_category("ko", n), Other, "ko {n}");
    }
    let ru = |n| plural_category("ru", n);
    assert_eq!(
        (ru(1), ru(21), ru(2), ru(24), ru(5), ru(11), ru(0)),
        (One, One, Few, Few, Many, Many, Many)
    );
    let cs = |n| plural_category("cs", n);
    assert_eq!(
        (cs(1), cs(2), cs(4), cs(5), cs(0)),
        (One, Few, Few, Other, Other)
    );
    assert_eq!(plural_category("not a tag!", 1), Other);
    assert_eq!(plural_category("he-IL", 2), Two);
}

// --- words ------------------------------------------------------------

#[test]
fn counts_have_the_right_plural_form_in_every_language() {
    let cases: &[(&str, Unit, u64, &str)] = &[
        ("en", Unit::Minutes, 1, "1 minute"),
        ("en", Unit::Minutes, 2, "2 minutes"),
        ("en", Unit::Moves, 0, "0 moves"),
        ("de", Unit::Minutes, 1, "eine Minute"),
        ("de", Unit::Minutes, 12, "12 Minuten"),
        ("de", Unit::Hours, 1, "eine Stunde"),
        ("de", Unit::Moves, 1, "ein Zug"),
        ("de", Unit::Moves, 40, "40 Züge"),
        ("fide", Unit::Seconds, 1, "eine Sekunde"),
        ("fide", Unit::Seconds, 30, "30 Sekunden"),
        ("pl", Unit::Minutes, 1, "jedna minuta"),
        ("pl", Unit::Minutes, 2, "2 minuty"),
        ("pl", Unit::Minutes, 5, "5 minut"),
        ("pl", Unit::Minutes, 12, "12 minut"),
        ("pl", Unit::Minutes, 22, "22 minuty"),
        ("pl", Unit::Moves, 25, "25 ruchów"),
        ("pl", Unit::Moves, 3, "3 ruchy"),
        ("he", Unit::Minutes, 1, "דקה אחת"),
        ("he", Unit::Minutes, 2, "שתי דקות"),
        ("he", Unit::Minutes, 5, "5 דקות"),
        ("he", Unit::Hours, 2, "שעתיים"),
        ("ar", Unit::Minutes, 1, "دقيقة واحدة"),
        ("ar", Unit::Minutes, 2, "دقيقتان"),
        ("ar", Unit::Minutes, 5, "5 دقائق"),
        ("ar", Unit::Minutes, 15, "15 دقيقة"),
        ("ar", Unit::Minutes, 100, "100 دقيقة"),
        ("el", Unit::Minutes, 1, "ένα λεπτό"),
        ("el", Unit::Minutes, 3, "3 λεπτά"),
        ("el", Unit::Seconds, 10, "10 δευτερόλεπτα"),
    ];
    for (code, unit, n, want) in cases {
        let got = book(code).count(*unit, *n);
        assert_eq!(got.display, *want, "{code} {unit:?} {n}");
        // Hebrew and Greek speak numbers as words of [numbers] (espeak-ng
        // reads no Hebrew digits, and Greek digits only in the neuter);
        // their spoken forms are tested in tests/grammar_{he,el}.rs.
        if !["he", "el"].contains(code) {
            assert_eq!(got.spoken, *want, "{code} {unit:?} {n}");
        }
    }
}

#[test]
fn hebrew_numbers_are_spoken_as_words() {
    // espeak-ng's Hebrew voice skips digits: the spoken form has words.
    let he = book("he");
    let c = he.count(Unit::Minutes, 5);
    assert_eq!(
        (c.display.as_str(), c.spoken.as_str()),
        ("5 דקות", "חמש דקות")
    );
    assert_eq!(he.count(Unit::Seconds, 27).spoken, "עשרים ושבע שניות");
    assert_eq!(he.count(Unit::Minutes, 12).spoken, "שתים עשרה דקות");
    assert_eq!(he.count(Unit::Moves, 125).spoken, "מאה עשרים וחמישה מסעים");
    let d = he.announcement(
        &Announcement::Countdown {
            color: White,
            seconds: 7,
        },
        Verbosity::Brief,
    );
    assert_eq!((d.display.as_str(), d.spoken.as_str()), ("לבן: 7", "שבע"));
    // Every number a clock says below 200 has a word; no digit is left.
    for n in 0..200 {
        let s = he.spoken_number(n);
        assert!(!s.chars().any(|ch| ch.is_ascii_digit()), "{n}: {s}");
    }
    // Other languages keep digits (espeak-ng reads them).
    assert_eq!(book("de").spoken_number(12), "12");
}

#[test]
fn fide_talks_german() {
    let b = book("fide");
    assert_eq!(b.language(), "de");
    assert_eq!(b.side(White).display, "Weiß");
    let fide = crate::locale::builtin("fide").unwrap();
    let b = Phrasebook::for_locale(&fide).unwrap();
    assert_eq!(b.turn(Black).display, "Schwarz am Zug.");
}

#[test]
fn brief_and_full_durations() {
    let de = book("de");
    let d = sec(3600 + 12 * 60 + 5);
    let brief = de.duration(d, Verbosity::Brief);
    assert_eq!(brief.display, "1:12:05");
    assert_eq!(brief.spoken, "eine Stunde 12 Minuten");
    let full = de.duration(d, Verbosity::Full);
    assert_eq!(full.display, "eine Stunde 12 Minuten 5 Sekunden");
    assert_eq!(full.spoken, full.display);

    let en = book("en");
    let cases: &[(Duration, &str, &str, &str)] = &[
        (
            sec(245),
            "4:05",
            "4 minutes 5 seconds",
            "4 minutes 5 seconds",
        ),
        (sec(3600), "1:00:00", "1 hour", "1 hour"),
        (sec(3605), "1:00:05", "1 hour", "1 hour 5 seconds"),
        (sec(60), "1:00", "1 minute", "1 minute"),
        (ms(9_500), "0:09.5", "9 seconds", "9 seconds"),
        (ms(59_999), "0:59", "59 seconds", "59 seconds"),
        (Duration::ZERO, "0:00.0", "0 seconds", "0 seconds"),
        (
            sec(2 * 3600 + 60),
            "2:01:00",
            "2 hours 1 minute",
            "2 hours 1 minute",
        ),
    ];
    for (d, display, brief_spoken, full) in cases {
        let b = en.duration(*d, Verbosity::Brief);
        assert_eq!(b.display, *display, "{d:?}");
        assert_eq!(b.spoken, *brief_spoken, "{d:?}");
        assert_eq!(en.duration(*d, Verbosity::Full).display, *full, "{d:?}");
    }
    // Joined with the locale's word.
    assert_eq!(
        book("ar").duration(sec(121), Verbosity::Full).display,
        "دقيقتان وثانية واحدة"
    );
    assert_eq!(
        book("pl")
            .duration(sec(22 * 60 + 5), Verbosity::Brief)
            .spoken,
        "22 minuty 5 sekund"
    );
}

#[test]
fn on_request_time_moves_and_turn() {
    let mut c = Clock::new("90m/40+30m+30s".parse().unwrap());
    c.start(T0, White).unwrap();
    c.press(T0 + sec(65)).unwrap();
    let now = T0 + sec(65) + sec(20);
    let en = book("en");
    let w = c.reading(White, now);
    let b = c.reading(Black, now);
    // 90:00 - 1:05 + 0:30.
    assert_eq!(en.time(&w, Verbosity::Brief).display, "White: 1:29:25.");
    assert_eq!(
        en.time(&w, Verbosity::Brief).spoken,
        "White: 1 hour 29 minutes."
    );
    assert_eq!(
        en.times(&w, &b, Verbosity::Brief).display,
        "White: 1:29:25. Black: 1:29:40."
    );
    assert_eq!(
        en.moves(&w).display,
        "White: 1 move completed. 39 moves to the time control."
    );
    assert_eq!(
        en.moves(&b).display,
        "Black: 0 moves completed. 40 moves to the time control."
    );
    assert_eq!(en.turn(Black).display, "Black to move.");
    assert_eq!(
        en.time_used(&w, Verbosity::Full).display,
        "White has used 1 minute 5 seconds."
    );
    let de = book("de");
    assert_eq!(
        de.moves(&w).display,
        "Weiß: ein Zug gespielt. Noch 39 Züge bis zur Zeitkontrolle."
    );
    // In the last period there is no control to count to.
    let mut c = Clock::new("5m+3s".parse().unwrap());
    c.start(T0, White).unwrap();
    assert_eq!(
        en.moves(&c.reading(White, T0)).display,
        "White: 0 moves completed."
    );
}

#[test]
fn announcements_in_words() {
    let en = book("en");
    let v = Verbosity::Brief;
    let say = |a: Announcement| en.announcement(&a, v);
    assert_eq!(
        say(Announcement::Periodic {
            color: White,
            remaining: min(80)
        })
        .display,
        "White: 1:20:00 left."
    );
    assert_eq!(
        say(Announcement::LowTime {
            color: Black,
            remaining: min(1)
        })
        .spoken,
        "Black: only 1 minute left!"
    );
    let c = say(Announcement::Countdown {
        color: White,
        seconds: 7,
    });
    assert_eq!((c.display.as_str(), c.spoken.as_str()), ("White: 7", "7"));
    assert_eq!(
        say(Announcement::PeriodReached {
            color: White,
            added: min(30)
        })
        .display,
        "White: time control reached, 30 minutes added."
    );
    assert_eq!(
        say(Announcement::FlagFell { color: Black }).display,
        "Black's flag has fallen: Black's time is up."
    );
    assert_eq!(
        say(Announcement::Adjusted {
            color: Black,
            adjustment: Adjustment::Add(min(2))
        })
        .display,
        "Black receives 2 minutes."
    );
    assert_eq!(
        say(Announcement::Adjusted {
            color: White,
            adjustment: Adjustment::Remove(sec(90))
        })
        .display,
        "1 minute 30 seconds taken from White."
    );
    let de = book("de");
    assert_eq!(
        de.announcement(
            &Announcement::PeriodReached {
                color: White,
                added: min(30)
            },
            v
        )
        .display,
        "Weiß: Zeitkontrolle erreicht, 30 Minuten hinzugefügt."
    );
}

#[test]
fn every_locale_has_every_clock_message() {
    for code in crate::locale::builtin_codes() {
        let b = book(code);
        for &key in crate::locale::MsgKey::ALL.iter().filter(|k| {
            let k = k.as_str();
            k.starts_with("clock.") || k.starts_with("time.") || k.starts_with("count.")
        }) {
            assert!(b.locale().has_message(key), "{code} lacks {key}");
        }
        // Every category the language uses exists in the locale itself for
        // the languages with their own words (not the English fallback).
        if ["de", "pl", "he", "ar", "el"].contains(&b.language()) {
            let en = book("en");
            for n in 0..=120u64 {
                for unit in [Unit::Hours, Unit::Minutes, Unit::Seconds, Unit::Moves] {
                    let got = b.count(unit, n);
                    assert_ne!(
                        got.display,
                        en.count(unit, n).display,
                        "{code} {unit:?} {n}"
                    );
                }
            }
        }
    }
}

// --- schedules ----------------------------------------------------------

/// A clock started for White at T0 and a talker that has seen it.
fn setup(control: &str, schedule: Schedule) -> (Clock, Talker) {
    let mut c = Clock::new(control.parse().unwrap());
    c.start(T0, White).unwrap();
    let mut t = Talker::new(schedule);
    assert_eq!(t.observe(&c, T0, &[]), []);
    (c, t)
}

/// Observes every `step` from `from` to `to` (inclusive) and returns what
/// was announced with the instant.
fn run(
    c: &mut Clock,
    t: &mut Talker,
    from: Duration,
    to: Duration,
    step: Duration,
) -> Vec<(Duration, Announcement)> {
    let mut out = Vec::new();
    let mut now = from;
    while now <= to {
        let events: Vec<TalkEvent> = c.update(now).unwrap().into_iter().map(Into::into).collect();
        for a in t.observe(c, now, &events) {
            out.push((now - T0, a));
        }
        now += step;
    }
    out
}

fn only_periodic() -> Schedule {
    Schedule {
        warnings: Vec::new(),
        countdown: 0,
        turn: false,
        ..Schedule::default()
    }
}

#[test]
fn periodic_every_ten_minutes_of_the_running_players_time() {
    let (mut c, mut t) = setup("90m", only_periodic());
    let said = run(&mut c, &mut t, T0 + sec(1), T0 + min(35), ms(100));
    assert_eq!(
        said,
        vec![
            (
                min(10),
                Announcement::Periodic {
                    color: White,
                    remaining: min(80)
                }
            ),
            (
                min(20),
                Announcement::Periodic {
                    color: White,
                    remaining: min(70)
                }
            ),
            (
                min(30),
                Announcement::Periodic {
                    color: White,
                    remaining: min(60)
                }
            ),
        ]
    );
}

#[test]
fn periodic_interval_is_configurable_and_per_player() {
    let (mut c, mut t) = setup(
        "15m",
        Schedule {
            every: Some(min(5)),
            ..only_periodic()
        },
    );
    let mut said = run(&mut c, &mut t, T0 + sec(1), T0 + min(6), sec(1));
    c.press(T0 + min(6)).unwrap();
    said.extend(run(&mut c, &mut t, T0 + min(6), T0 + min(12), sec(1)));
    assert_eq!(
        said,
        vec![
            (
                min(5),
                Announcement::Periodic {
                    color: White,
                    remaining: min(10)
                }
            ),
            (
                min(11),
                Announcement::Periodic {
                    color: Black,
                    remaining: min(10)
                }
            ),
        ]
    );
}

#[test]
fn a_late_observation_says_the_reading_once() {
    let (c, mut t) = setup("90m", only_periodic());
    // Nothing observed for 25 minutes: one announcement of the true time.
    let said = t.observe(&c, T0 + min(25) + sec(3), &[]);
    assert_eq!(
        said,
        [Announcement::Periodic {
            color: White,
            remaining: min(65) - sec(3)
        }]
    );
    assert_eq!(t.observe(&c, T0 + min(29), &[]), []);
    assert_eq!(
        t.observe(&c, T0 + min(30) + ms(200), &[]),
        [Announcement::Periodic {
            color: White,
            remaining: min(60)
        }]
    );
}

#[test]
fn increments_around_a_mark_do_not_repeat_it() {
    // 10m+5s: White's clock hovers around 10:00 and 9:59.
    let (mut c, mut t) = setup("10m+5s", only_periodic());
    let mut said = Vec::new();
    let mut now = T0;
    for _ in 0..20 {
        // White thinks 3 s, Black 3 s: White gains 2 s per move.
        said.extend(run(&mut c, &mut t, now, now + sec(3), ms(100)));
        now += sec(3);
        c.press(now).unwrap();
        now += sec(3);
        c.press(now).unwrap();
    }
    assert_eq!(said, [], "10:00 is never passed downwards after the start");

    let (mut c, mut t) = setup("20m+5s", only_periodic());
    said = run(&mut c, &mut t, T0, T0 + sec(601), ms(100));
    assert_eq!(
        said,
        [(
            min(10),
            Announcement::Periodic {
                color: White,
                remaining: min(10)
            }
        )]
    );
    let mut now = T0 + sec(601);
    for _ in 0..5 {
        c.press(now).unwrap(); // back above 10:00 with the increment
        now += sec(1);
        c.press(now).unwrap();
        said = run(&mut c, &mut t, now, now + sec(6), ms(100));
        now += sec(6);
        assert_eq!(said, [], "10:00 is said once, not at every dip");
    }
}

#[test]
fn a_new_period_re_arms_the_marks() {
    let (mut c, mut t) = setup("25m/1+30m", only_periodic());
    let said = run(&mut c, &mut t, T0, T0 + min(16), sec(1));
    assert_eq!(
        said,
        [
            (
                min(5),
                Announcement::Periodic {
                    color: White,
                    remaining: min(20)
                }
            ),
            (
                min(15),
                Announcement::Periodic {
                    color: White,
                    remaining: min(10)
                }
            ),
        ]
    );
    // White completes the period: 9:00 + 30:00 = 39:00.
    let events: Vec<TalkEvent> = c
        .press(T0 + min(16))
        .unwrap()
        .into_iter()
        .map(Into::into)
        .collect();
    let said = t.observe(&c, T0 + min(16), &events);
    assert_eq!(
        said,
        [Announcement::PeriodReached {
            color: White,
            added: min(30)
        }]
    );
    c.press(T0 + min(16) + sec(1)).unwrap();
    let said = run(
        &mut c,
        &mut t,
        T0 + min(16) + sec(1),
        T0 + min(26) + sec(2),
        sec(1),
    );
    assert_eq!(
        said,
        [(
            min(25) + sec(1),
            Announcement::Periodic {
                color: White,
                remaining: min(30)
            }
        )]
    );
}

#[test]
fn low_time_warnings_at_five_one_and_half_a_minute() {
    let schedule = Schedule {
        every: None,
        countdown: 0,
        turn: false,
        ..Schedule::default()
    };
    let (mut c, mut t) = setup("6m", schedule);
    let said = run(&mut c, &mut t, T0, T0 + min(7), ms(100));
    assert_eq!(
        said,
        [
            (
                min(1),
                Announcement::LowTime {
                    color: White,
                    remaining: min(5)
                }
            ),
            (
                min(5),
                Announcement::LowTime {
                    color: White,
                    remaining: min(1)
                }
            ),
            (
                min(5) + sec(30),
                Announcement::LowTime {
                    color: White,
                    remaining: sec(30)
                }
            ),
            (min(6), Announcement::FlagFell { color: White }),
        ]
    );
}

#[test]
fn warnings_are_not_given_for_time_one_started_below() {
    // Blitz 3 minutes: no 5-minute warning at the start.
    let (mut c, mut t) = setup(
        "3m",
        Schedule {
            every: None,
            countdown: 0,
            turn: false,
            ..Schedule::default()
        },
    );
    let said = run(&mut c, &mut t, T0, T0 + min(2) + sec(31), ms(500));
    assert_eq!(
        said,
        [
            (
                min(2),
                Announcement::LowTime {
                    color: White,
                    remaining: min(1)
                }
            ),
            (
                min(2) + sec(30),
                Announcement::LowTime {
                    color: White,
                    remaining: sec(30)
                }
            ),
        ]
    );
}

#[test]
fn warnings_re_arm_only_after_a_real_gain() {
    let schedule = Schedule {
        every: None,
        warnings: vec![sec(30)],
        countdown: 0,
        turn: false,
        ..Schedule::default()
    };
    let (mut c, mut t) = setup("1m", schedule);
    let said = run(&mut c, &mut t, T0, T0 + sec(31), ms(100));
    assert_eq!(
        said,
        [(
            sec(30),
            Announcement::LowTime {
                color: White,
                remaining: sec(30)
            }
        )]
    );
    // The arbiter gives 10 s: 39 s is not twice the threshold, no re-arm.
    c.adjust(T0 + sec(31), White, Adjustment::Add(sec(10)))
        .unwrap();
    let said = run(&mut c, &mut t, T0 + sec(31), T0 + sec(45), ms(100));
    assert_eq!(said, []);
    // Another 60 s: now well above, so the warning comes again.
    c.adjust(T0 + sec(45), White, Adjustment::Add(sec(60)))
        .unwrap();
    let said = run(&mut c, &mut t, T0 + sec(45), T0 + sec(100), ms(100));
    assert_eq!(
        said,
        [(
            sec(45) + sec(55),
            Announcement::LowTime {
                color: White,
                remaining: sec(30)
            }
        )]
    );
}

#[test]
fn countdown_of_the_last_ten_seconds() {
    let schedule = Schedule {
        every: None,
        warnings: Vec::new(),
        turn: false,
        ..Schedule::default()
    };
    let (mut c, mut t) = setup("15s", schedule);
    let said = run(&mut c, &mut t, T0, T0 + sec(16), ms(100));
    let mut want: Vec<(Duration, Announcement)> = (1..=10u32)
        .rev()
        .map(|n| {
            (
                sec(15 - u64::from(n)),
                Announcement::Countdown {
                    color: White,
                    seconds: n,
                },
            )
        })
        .collect();
    want.push((sec(15), Announcement::FlagFell { color: White }));
    assert_eq!(said, want);
}

#[test]
fn countdown_restarts_after_an_increment_and_skips_missed_numbers() {
    let schedule = Schedule {
        every: None,
        warnings: Vec::new(),
        countdown: 5,
        turn: false,
        ..Schedule::default()
    };
    let (mut c, mut t) = setup("6s+3s", schedule);
    let said = run(&mut c, &mut t, T0, T0 + sec(3), ms(100));
    let nums: Vec<u32> = said
        .iter()
        .map(|(_, a)| match a {
            Announcement::Countdown { seconds, .. } => *seconds,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(nums, [5, 4, 3]);
    // White presses at 3 s left: 3 + 3 = 6 s for the next move.
    c.press(T0 + sec(3)).unwrap();
    c.press(T0 + sec(4)).unwrap(); // Black at once
    assert_eq!(t.observe(&c, T0 + sec(4), &[]), []);
    // A coarse observation: 6 s → 2.5 s jumps over 5, 4, 3: says 3 once.
    assert_eq!(
        t.observe(&c, T0 + sec(7) + ms(500), &[]),
        [Announcement::Countdown {
            color: White,
            seconds: 3
        }]
    );
    assert_eq!(
        t.observe(&c, T0 + sec(8) + ms(100), &[]),
        [Announcement::Countdown {
            color: White,
            seconds: 2
        }]
    );
}

#[test]
fn events_period_flag_penalty_turn_start_pause() {
    let (mut c, mut t) = setup("90m/1+30m", Schedule::default());
    let ev: Vec<TalkEvent> = c
        .press(T0 + sec(5))
        .unwrap()
        .into_iter()
        .map(Into::into)
        .collect();
    assert_eq!(
        t.observe(&c, T0 + sec(5), &ev),
        [
            Announcement::PeriodReached {
                color: White,
                added: min(30)
            },
            Announcement::Turn { color: Black },
        ]
    );
    let penalty = TalkEvent::Adjusted {
        color: White,
        adjustment: Adjustment::Add(min(2)),
    };
    c.adjust(T0 + sec(6), White, Adjustment::Add(min(2)))
        .unwrap();
    let more = [
        penalty,
        TalkEvent::Paused { color: Black },
        TalkEvent::Resumed { color: Black },
        TalkEvent::Started { color: White },
    ];
    assert_eq!(
        t.observe(&c, T0 + sec(6), &more),
        [
            Announcement::Adjusted {
                color: White,
                adjustment: Adjustment::Add(min(2))
            },
            Announcement::Paused { color: Black },
            Announcement::Resumed { color: Black },
            Announcement::Started { color: White },
        ]
    );
    // Switched off.
    let mut quiet = Talker::new(Schedule {
        period_change: false,
        adjustments: false,
        flag_fall: false,
        ..Schedule::quiet()
    });
    let ev = [
        TalkEvent::Clock(ClockEvent::PeriodReached {
            color: White,
            period: 1,
            added: min(30),
        }),
        TalkEvent::Clock(ClockEvent::FlagFell {
            color: White,
            at: T0,
        }),
        TalkEvent::Clock(ClockEvent::Switched { color: Black }),
        penalty,
    ];
    assert_eq!(quiet.observe(&c, T0 + sec(6), &ev), []);
}

#[test]
fn default_schedule_over_a_whole_blitz_game_side() {
    // 5m+3s, Black never presses: everything White hears about Black after
    // White's first move, in order.
    let (mut c, mut t) = setup("5m+3s", Schedule::default());
    let ev: Vec<TalkEvent> = c
        .press(T0 + sec(2))
        .unwrap()
        .into_iter()
        .map(Into::into)
        .collect();
    assert_eq!(
        t.observe(&c, T0 + sec(2), &ev),
        [Announcement::Turn { color: Black }]
    );
    let said = run(&mut c, &mut t, T0 + sec(2), T0 + sec(303), ms(100));
    let mut want = vec![
        (
            sec(2 + 240),
            Announcement::LowTime {
                color: Black,
                remaining: min(1),
            },
        ),
        (
            sec(2 + 270),
            Announcement::LowTime {
                color: Black,
                remaining: sec(30),
            },
        ),
    ];
    for n in (1..=10u32).rev() {
        want.push((
            sec(302 - u64::from(n)),
            Announcement::Countdown {
                color: Black,
                seconds: n,
            },
        ));
    }
    want.push((sec(302), Announcement::FlagFell { color: Black }));
    assert_eq!(said, want);
}

#[test]
fn only_the_chosen_players_time_is_announced() {
    let schedule = Schedule {
        players: ByColor {
            white: false,
            black: true,
        },
        warnings: Vec::new(),
        countdown: 0,
        every: Some(min(1)),
        turn: false,
        ..Schedule::default()
    };
    let (mut c, mut t) = setup("3m", schedule);
    let mut said = run(&mut c, &mut t, T0, T0 + sec(70), sec(1));
    c.press(T0 + sec(70)).unwrap();
    said.extend(run(&mut c, &mut t, T0 + sec(70), T0 + sec(140), sec(1)));
    assert_eq!(
        said,
        [(
            sec(130),
            Announcement::Periodic {
                color: Black,
                remaining: min(2)
            }
        )]
    );
}

#[test]
fn priorities_and_coalescing_keys() {
    use crate::vocab::Priority;
    assert_eq!(
        Announcement::FlagFell { color: White }.priority(),
        Priority::Critical
    );
    assert_eq!(
        Announcement::Adjusted {
            color: White,
            adjustment: Adjustment::Add(min(2))
        }
        .priority(),
        Priority::Critical
    );
    assert_eq!(
        Announcement::Countdown {
            color: White,
            seconds: 3
        }
        .priority(),
        Priority::Warning
    );
    assert_eq!(
        Announcement::Periodic {
            color: White,
            remaining: min(10)
        }
        .priority(),
        Priority::Chatter
    );
    assert_eq!(
        Announcement::Countdown {
            color: White,
            seconds: 3
        }
        .coalesce_key(),
        Announcement::LowTime {
            color: White,
            remaining: sec(30)
        }
        .coalesce_key()
    );
    assert_ne!(
        Announcement::Countdown {
            color: White,
            seconds: 3
        }
        .coalesce_key(),
        Announcement::Countdown {
            color: Black,
            seconds: 3
        }
        .coalesce_key()
    );
    assert_eq!(Announcement::FlagFell { color: White }.coalesce_key(), None);
}

#[test]
fn verbosity_parses() {
    assert_eq!("brief".parse(), Ok(Verbosity::Brief));
    assert_eq!("FULL".parse(), Ok(Verbosity::Full));
    assert!("loud".parse::<Verbosity>().is_err());
}

mod properties {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Over any game with increments, observed every 100 ms: at most one
        /// time announcement per player and observation; a warning is
        /// repeated only after the player's time rose above twice its
        /// threshold; countdown numbers fall within one turn; periodic
        /// marks are never repeated without time added above them.
        #[test]
        fn schedules_never_chatter(
            minutes in 1u64..4,
            inc in 0u64..6,
            thinks in proptest::collection::vec(0u64..90_000, 1..30),
        ) {
            let control = format!("{minutes}m+{inc}s");
            let mut c = Clock::new(control.parse().unwrap());
            c.start(T0, White).unwrap();
            let mut t = Talker::new(Schedule {
                every: Some(sec(30)),
                ..Schedule::default()
            });
            t.observe(&c, T0, &[]);
            let mut now = T0;
            // Per player: (threshold, said and not re-armed).
            let mut warned: Vec<(Color, Duration)> = Vec::new();
            let mut periodic_said: Vec<(Color, Duration)> = Vec::new();
            'game: for think in thinks {
                let mover = c.running().unwrap();
                let end = now + ms(think);
                let mut last_count: Option<u32> = None;
                while now < end {
                    now += ms(100);
                    let events: Vec<TalkEvent> =
                        c.update(now).unwrap().into_iter().map(Into::into).collect();
                    let said = t.observe(&c, now, &events);
                    let timed: Vec<_> = said
                        .iter()
                        .filter(|a| matches!(a, Announcement::Periodic { .. } | Announcement::LowTime { .. } | Announcement::Countdown { .. }))
                        .collect();
                    prop_assert!(timed.len() <= 1, "{said:?}");
                    for a in &said {
                        match *a {
                            Announcement::Countdown { color, seconds } => {
                                prop_assert_eq!(color, mover);
                                if let Some(prev) = last_count {
                                    prop_assert!(seconds < prev, "{prev} then {seconds}");
                                }
                                last_count = Some(seconds);
                            }
                            Announcement::LowTime { color, remaining } => {
                                prop_assert!(
                                    !warned.contains(&(color, remaining)),
                                    "warning {remaining:?} repeated for {color:?}"
                                );
                                warned.push((color, remaining));
                            }
                            Announcement::Periodic { color, remaining } => {
                                prop_assert!(
                                    !periodic_said.contains(&(color, remaining)),
                                    "mark {remaining:?} repeated for {color:?}"
                                );
                                periodic_said.push((color, remaining));
                            }
                            Announcement::FlagFell { color } => {
                                prop_assert_eq!(color, mover);
                                break 'game;
                            }
                            _ => {}
                        }
                    }
                }
                let events: Vec<TalkEvent> = match c.press(now) {
                    Ok(e) => e.into_iter().map(Into::into).collect(),
                    Err(_) => break,
                };
                t.observe(&c, now, &events);
                // Time gained: forget what may legitimately be said again.
                for color in Color::ALL {
                    let r = c.remaining(color, now);
                    warned.retain(|(c2, w)| *c2 != color || r <= *w * 2);
                    periodic_said.retain(|(c2, m)| *c2 != color || r < *m + sec(60));
                }
            }
        }
    }
}
