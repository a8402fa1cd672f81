//! Greek grammar of the messages that carry a number (issue 20): the verb
//! agrees with the amount ("απομένει ένα λεπτό", "απομένουν 2 λεπτά"), a
//! bare number takes the singular noun for one ("ένα δευτερόλεπτο", "μία
//! ώρα"), and a measure after a noun is in the genitive ("προσαύξηση ενός
//! δευτερολέπτου", "30 δευτερολέπτων"). Every expected text is written out
//! by hand, as a Greek speaker writes it.

use std::time::Duration;

use annabella_core::clock::talk::{Phrasebook, Unit, Verbosity};
use annabella_core::locale::{self, Locale, MsgKey};
use annabella_core::vocab::Utterance;

fn el() -> Locale {
    locale::builtin("el").expect("built-in el")
}

fn book() -> Phrasebook {
    Phrasebook::new(el())
}

/// `n` seconds as a time, every unit in words (as the clock says it).
fn secs(n: u64) -> Utterance {
    book().duration(Duration::from_secs(n), Verbosity::Full)
}

/// `n` minutes as a time, every unit in words.
fn mins(n: u64) -> Utterance {
    secs(60 * n)
}

/// A bare number as callers give it: digits on the screen, the
/// phrasebook's number when spoken.
fn num(n: u64) -> Utterance {
    Utterance {
        display: n.to_string(),
        spoken: book().spoken_number(n),
    }
}

fn white() -> Utterance {
    book().side(shakmaty::Color::White)
}

/// `key` filled with `args`, display and spoken apart (as the callers do).
fn msg(key: MsgKey, args: &[(&str, Utterance)]) -> Utterance {
    let l = el();
    let display: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.display.as_str())).collect();
    let spoken: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.spoken.as_str())).collect();
    Utterance {
        display: l.message(key, &display),
        spoken: l.message(key, &spoken),
    }
}

/// The displayed text of `key` for a side (White) and one argument.
fn shown(key: MsgKey, name: &str, value: Utterance) -> String {
    msg(key, &[("side", white()), (name, value)]).display
}

#[test]
fn a_verb_before_one_unit_is_singular_and_plural_before_more() {
    use MsgKey as K;
    let cases: &[(MsgKey, &str, Utterance, &str)] = &[
        (
            K::ClockTimeLeft,
            "time",
            mins(1),
            "Λευκά: απομένει ένα λεπτό.",
        ),
        (
            K::ClockTimeLeft,
            "time",
            secs(1),
            "Λευκά: απομένει ένα δευτερόλεπτο.",
        ),
        (
            K::ClockTimeLeft,
            "time",
            mins(60),
            "Λευκά: απομένει μία ώρα.",
        ),
        (
            K::ClockTimeLeft,
            "time",
            mins(2),
            "Λευκά: απομένουν 2 λεπτά.",
        ),
        (
            K::ClockTimeLeft,
            "time",
            mins(21),
            "Λευκά: απομένουν 21 λεπτά.",
        ),
        (
            K::ClockTimeLeft,
            "time",
            secs(0),
            "Λευκά: απομένουν 0 δευτερόλεπτα.",
        ),
        (
            K::ClockTimeLeft,
            "time",
            mins(61),
            "Λευκά: απομένουν μία ώρα και ένα λεπτό.",
        ),
        (
            K::ClockTimeUsed,
            "time",
            mins(1),
            "Λευκά: χρησιμοποιήθηκε ένα λεπτό.",
        ),
        (
            K::ClockTimeUsed,
            "time",
            mins(5),
            "Λευκά: χρησιμοποιήθηκαν 5 λεπτά.",
        ),
        (
            K::ClockLowTime,
            "time",
            secs(1),
            "Λευκά: απομένει μόνο ένα δευτερόλεπτο!",
        ),
        (
            K::ClockLowTime,
            "time",
            secs(11),
            "Λευκά: απομένουν μόνο 11 δευτερόλεπτα!",
        ),
        (
            K::ClockPeriodReached,
            "time",
            mins(1),
            "Λευκά: έλεγχος χρόνου, προστέθηκε ένα λεπτό.",
        ),
        (
            K::ClockPeriodReached,
            "time",
            mins(30),
            "Λευκά: έλεγχος χρόνου, προστέθηκαν 30 λεπτά.",
        ),
        (
            K::ClockTimeRemoved,
            "time",
            mins(1),
            "Αφαιρέθηκε ένα λεπτό από τα Λευκά.",
        ),
        (
            K::ClockTimeRemoved,
            "time",
            mins(3),
            "Αφαιρέθηκαν 3 λεπτά από τα Λευκά.",
        ),
    ];
    for (key, name, value, want) in cases {
        assert_eq!(shown(*key, name, value.clone()), *want, "{key:?}");
    }
    // The number of moves made.
    let moves = |n| book().count(Unit::Moves, n);
    assert_eq!(
        shown(K::ClockMoves, "moves", moves(1)),
        "Λευκά: ολοκληρώθηκε μία κίνηση."
    );
    assert_eq!(
        shown(K::ClockMoves, "moves", moves(12)),
        "Λευκά: ολοκληρώθηκαν 12 κινήσεις."
    );
    // The spoken text agrees too ("ένα λεπτό" is said as it is written).
    assert_eq!(
        msg(K::ClockTimeLeft, &[("side", white()), ("time", mins(1))]).spoken,
        "Λευκά: απομένει ένα λεπτό."
    );
}

#[test]
fn a_verb_agrees_in_the_mirror_and_the_arbiter_messages() {
    use MsgKey as K;
    let pressed = |t| {
        msg(
            K::MirrorPressed,
            &[
                ("side", white()),
                ("opponent", book().side(shakmaty::Color::Black)),
                ("time", t),
            ],
        )
        .display
    };
    assert!(
        pressed(mins(1)).starts_with("Τα Λευκά πάτησαν το ρολόι (απομένει ένα λεπτό). Μαύρα:"),
        "{}",
        pressed(mins(1))
    );
    assert!(
        pressed(mins(22)).starts_with("Τα Λευκά πάτησαν το ρολόι (απομένουν 22 λεπτά). Μαύρα:"),
        "{}",
        pressed(mins(22))
    );
    let removed = |t, left| {
        msg(
            K::MirrorAdjustRemove,
            &[("side", white()), ("time", t), ("remaining", left)],
        )
        .display
    };
    assert_eq!(
        removed(mins(1), mins(1)),
        "Διαιτητής: αφαιρέθηκε ένα λεπτό από τα Λευκά· τα Λευκά έχουν τώρα ένα λεπτό."
    );
    assert_eq!(
        removed(mins(2), mins(25)),
        "Διαιτητής: αφαιρέθηκαν 2 λεπτά από τα Λευκά· τα Λευκά έχουν τώρα 25 λεπτά."
    );
    for key in [K::ClockCannotTake, K::GameClockCannotTake] {
        let cannot = |t, left| msg(key, &[("side", white()), ("time", t), ("left", left)]).display;
        assert_eq!(
            cannot(mins(1), secs(1)),
            "Δεν μπορεί να αφαιρεθεί ένα λεπτό από τα Λευκά: απομένει μόνο ένα δευτερόλεπτο. \
             Αφαιρέστε λιγότερο, το πολύ τον χρόνο που απομένει.",
            "{key:?}"
        );
        assert_eq!(
            cannot(mins(5), mins(4)),
            "Δεν μπορούν να αφαιρεθούν 5 λεπτά από τα Λευκά: απομένουν μόνο 4 λεπτά. \
             Αφαιρέστε λιγότερο, το πολύ τον χρόνο που απομένει.",
            "{key:?}"
        );
    }
    // The arbiter's seconds, given as a bare number.
    assert_eq!(
        shown(K::UiTimeAdded, "seconds", num(1)),
        "Διαιτητής: τα Λευκά παίρνουν ένα δευτερόλεπτο."
    );
    assert_eq!(
        shown(K::UiTimeAdded, "seconds", num(21)),
        "Διαιτητής: τα Λευκά παίρνουν 21 δευτερόλεπτα."
    );
    assert_eq!(
        shown(K::UiTimeRemoved, "seconds", num(1)),
        "Διαιτητής: αφαιρέθηκε ένα δευτερόλεπτο από τα Λευκά."
    );
    assert_eq!(
        shown(K::UiTimeRemoved, "seconds", num(0)),
        "Διαιτητής: αφαιρέθηκαν 0 δευτερόλεπτα από τα Λευκά."
    );
    assert_eq!(
        shown(K::UiTimeRemoved, "seconds", num(2)),
        "Διαιτητής: αφαιρέθηκαν 2 δευτερόλεπτα από τα Λευκά."
    );
}

#[test]
fn a_bare_number_takes_the_singular_noun_for_one() {
    use MsgKey as K;
    let one = |key: MsgKey, name: &str, n: u64| el().message(key, &[(name, &n.to_string())]);
    let seconds_keys = [
        (
            K::EngineNoUciok,
            "δεν απάντησε στον χαιρετισμό UCI μέσα σε ένα δευτερόλεπτο και σταμάτησε",
            "δεν απάντησε στον χαιρετισμό UCI μέσα σε 5 δευτερόλεπτα και σταμάτησε",
        ),
        (
            K::EngineNoReadyok,
            "δεν δήλωσε έτοιμο μέσα σε ένα δευτερόλεπτο και σταμάτησε",
            "δεν δήλωσε έτοιμο μέσα σε 5 δευτερόλεπτα και σταμάτησε",
        ),
        (
            K::EngineNoBestmove,
            "δεν έδωσε κίνηση μέσα σε ένα δευτερόλεπτο και σταμάτησε",
            "δεν έδωσε κίνηση μέσα σε 5 δευτερόλεπτα και σταμάτησε",
        ),
        (
            K::SpeechNoAnswer,
            "δεν απάντησε μέσα σε ένα δευτερόλεπτο",
            "δεν απάντησε μέσα σε 5 δευτερόλεπτα",
        ),
        (
            K::WavTooLong,
            "διαρκεί πάνω από ένα δευτερόλεπτο, το μέγιστο για μία προφορική κίνηση",
            "διαρκεί πάνω από 5 δευτερόλεπτα, το μέγιστο για μία προφορική κίνηση",
        ),
    ];
    for (key, at_one, at_five) in seconds_keys {
        assert_eq!(one(key, "seconds", 1), at_one, "{key:?}");
        assert_eq!(one(key, "seconds", 5), at_five, "{key:?}");
    }
    assert_eq!(
        el().message(K::SpeechStuck, &[("engine", "espeak-ng"), ("seconds", "1")]),
        "το espeak-ng δεν τελείωσε την ομιλία μέσα σε ένα δευτερόλεπτο και σταμάτησε"
    );
    assert_eq!(
        one(K::ControlIncrementTooLong, "minutes", 1),
        "η προσαύξηση ή η καθυστέρηση είναι μεγαλύτερη από ένα λεπτό"
    );
    assert_eq!(
        one(K::ControlIncrementTooLong, "minutes", 2),
        "η προσαύξηση ή η καθυστέρηση είναι μεγαλύτερη από 2 λεπτά"
    );
    let hours =
        |key, n: &str| el().message(key, &[("period", "2"), ("position", "4"), ("hours", n)]);
    assert_eq!(
        hours(K::ControlPeriodTooLong, "1"),
        "η περίοδος 2 είναι μεγαλύτερη από μία ώρα"
    );
    assert_eq!(
        hours(K::ControlPeriodTooLong, "24"),
        "η περίοδος 2 είναι μεγαλύτερη από 24 ώρες"
    );
    assert_eq!(
        hours(K::DurationTooLong, "1"),
        "ο χρόνος από τη θέση 4 και μετά είναι μεγαλύτερος από μία ώρα, \
         το μέγιστο που δέχεται η annabella"
    );
    let moves = |n: &str| {
        el().message(
            K::ControlTooManyMoves,
            &[("period", "1"), ("moves", n), ("max", "1000")],
        )
    };
    assert_eq!(
        moves("1"),
        "η περίοδος 1 είναι για μία κίνηση· επιτρέπονται το πολύ 1000"
    );
    assert_eq!(
        moves("1001"),
        "η περίοδος 1 είναι για 1001 κινήσεις· επιτρέπονται το πολύ 1000"
    );
    assert_eq!(
        one(K::WavCutShort, "samples", 1),
        "κόβεται μετά από ένα δείγμα"
    );
    assert_eq!(
        one(K::WavCutShort, "samples", 3),
        "κόβεται μετά από 3 δείγματα"
    );
    assert_eq!(
        one(K::LocaleEightFiles, "found", 1),
        "χρειάζονται οκτώ γράμματα στηλών, βρέθηκε 1"
    );
    assert_eq!(
        one(K::LocaleEightFiles, "found", 7),
        "χρειάζονται οκτώ γράμματα στηλών, βρέθηκαν 7"
    );
}

#[test]
fn counts_in_review_pgn_and_claims_are_sentences_not_labels() {
    use MsgKey as K;
    let l = el();
    let unterminated = |n: &str| {
        l.message(
            K::ErrorPgnUnterminated,
            &[("file", "a.pgn"), ("game", "2"), ("moves", n)],
        )
    };
    assert_eq!(
        unterminated("1"),
        "a.pgn, παρτίδα 2: η παρτίδα δεν έχει αποτέλεσμα στο τέλος της, άρα το αρχείο \
         ίσως είναι κομμένο· διαβάστηκε μία κίνηση."
    );
    assert_eq!(
        unterminated("12"),
        "a.pgn, παρτίδα 2: η παρτίδα δεν έχει αποτέλεσμα στο τέλος της, άρα το αρχείο \
         ίσως είναι κομμένο· διαβάστηκαν 12 κινήσεις."
    );
    let null = |n: &str| {
        l.message(
            K::PlayPgnNullMove,
            &[("number", "7"), ("last", "6... Ιζ6"), ("count", n)],
        )
    };
    assert!(
        null("1").ends_with("Από την κενή κίνηση και μετά παραλείφθηκε μία κίνηση."),
        "{}",
        null("1")
    );
    assert!(
        null("25").ends_with("Από την κενή κίνηση και μετά παραλείφθηκαν 25 κινήσεις."),
        "{}",
        null("25")
    );
    let opened = |n: &str| {
        l.message(
            K::ReviewOpened,
            &[
                ("white", "Α"),
                ("black", "Β"),
                ("count", n),
                ("side", "Λευκά"),
            ],
        )
    };
    assert!(
        opened("1").starts_with("Ανασκόπηση: Α εναντίον Β, μία μισή κίνηση, "),
        "{}",
        opened("1")
    );
    assert!(
        opened("101").starts_with("Ανασκόπηση: Α εναντίον Β, 101 μισές κινήσεις, "),
        "{}",
        opened("101")
    );
    let mate = |n: &str| l.message(K::ReviewScoreMate, &[("side", "Λευκά"), ("moves", n)]);
    assert_eq!(mate("1"), "τα Λευκά κάνουν ματ σε μία κίνηση");
    assert_eq!(mate("3"), "τα Λευκά κάνουν ματ σε 3 κινήσεις");
    let rejected = |n: &str| {
        l.message(
            K::ClaimRejected,
            &[
                ("side", "Λευκά"),
                ("opponent", "Μαύρα"),
                ("reason", "δεν υπάρχει τριπλή επανάληψη"),
                ("minutes", n),
            ],
        )
    };
    assert_eq!(
        rejected("1"),
        "Η διεκδίκηση ισοπαλίας από τα Λευκά απορρίπτεται: δεν υπάρχει τριπλή επανάληψη. \
         Τα Μαύρα λαμβάνουν επιπλέον ένα λεπτό."
    );
    assert_eq!(
        rejected("2"),
        "Η διεκδίκηση ισοπαλίας από τα Λευκά απορρίπτεται: δεν υπάρχει τριπλή επανάληψη. \
         Τα Μαύρα λαμβάνουν επιπλέον 2 λεπτά."
    );
    let other_games = |n: &str| l.message(K::OutputOtherGames, &[("file", "a.pgn"), ("games", n)]);
    assert!(
        other_games("1").starts_with("Το a.pgn περιέχει μία παρτίδα που δεν είναι αυτή η παρτίδα:"),
        "{}",
        other_games("1")
    );
    assert!(
        other_games("3").starts_with("Το a.pgn περιέχει 3 παρτίδες που δεν είναι αυτή η παρτίδα:"),
        "{}",
        other_games("3")
    );
    let done = |taken: &str, offered: &str| {
        l.message(
            K::JournalRepairDone,
            &[("taken", taken), ("offered", offered), ("file", "p.jsonl")],
        )
    };
    assert_eq!(
        done("1", "4"),
        "1 από 4 εγγραφές μπήκε στην παρτίδα· το p.jsonl μένει αμετάβλητο."
    );
    assert_eq!(
        done("3", "4"),
        "3 από 4 εγγραφές μπήκαν στην παρτίδα· το p.jsonl μένει αμετάβλητο."
    );
    assert_eq!(
        done("1", "1"),
        "1 από 1 εγγραφή μπήκε στην παρτίδα· το p.jsonl μένει αμετάβλητο."
    );
    let resumed = |n: &str| {
        l.message(
            K::JournalResumed,
            &[("file", "p.jsonl"), ("events", n), ("state", "")],
        )
    };
    assert_eq!(
        resumed("1"),
        "Συνέχιση από το p.jsonl: αναπαράχθηκε ένα γεγονός. "
    );
    assert_eq!(
        resumed("40"),
        "Συνέχιση από το p.jsonl: αναπαράχθηκαν 40 γεγονότα. "
    );
    let corrupt = |events: &str, later: &str| {
        l.message(
            K::JournalCorrupt,
            &[
                ("file", "p.jsonl"),
                ("line", "9"),
                ("reason", "x"),
                ("last", "5. ε4"),
                ("events", events),
                ("later", later),
            ],
        )
    };
    assert!(
        corrupt("1", "1").contains(
            "Η παρτίδα διαβάστηκε έως 5. ε4 (μία εγγραφή)· μία μεταγενέστερη εγγραφή \
             δεν συνδέεται με αυτήν."
        ),
        "{}",
        corrupt("1", "1")
    );
    assert!(
        corrupt("12", "2").contains(
            "Η παρτίδα διαβάστηκε έως 5. ε4 (12 εγγραφές)· 2 μεταγενέστερες εγγραφές \
             δεν συνδέονται με αυτήν."
        ),
        "{}",
        corrupt("12", "2")
    );
}

#[test]
fn a_measure_after_a_noun_is_in_the_genitive() {
    use MsgKey as K;
    let requested = |s: Utterance| {
        msg(
            K::QuickplayIncrementRequested,
            &[
                ("side", white()),
                ("opponent", book().side(shakmaty::Color::Black)),
                ("seconds", s),
            ],
        )
        .display
    };
    let seconds = |n| book().count(Unit::Seconds, n);
    assert!(
        requested(seconds(1)).contains("ζητούν προσαύξηση ενός δευτερολέπτου ανά κίνηση"),
        "{}",
        requested(seconds(1))
    );
    assert!(
        requested(seconds(5)).contains("ζητούν προσαύξηση 5 δευτερολέπτων ανά κίνηση"),
        "{}",
        requested(seconds(5))
    );
    let already = |t| msg(K::ClockIncrementAlready, &[("time", t)]).display;
    assert_eq!(
        already(secs(1)),
        "Το ρολόι έχει ήδη προσαύξηση ή καθυστέρηση ενός δευτερολέπτου ανά κίνηση· \
         τίποτε δεν άλλαξε."
    );
    assert_eq!(
        already(secs(30)),
        "Το ρολόι έχει ήδη προσαύξηση ή καθυστέρηση 30 δευτερολέπτων ανά κίνηση· \
         τίποτε δεν άλλαξε."
    );
    assert_eq!(
        already(secs(61)),
        "Το ρολόι έχει ήδη προσαύξηση ή καθυστέρηση ενός λεπτού και ενός δευτερολέπτου \
         ανά κίνηση· τίποτε δεν άλλαξε."
    );
    // "longer than the default time of 15 minutes": από + the time itself.
    let absent = |t| msg(K::MirrorPlayerAbsent, &[("side", white()), ("time", t)]).display;
    assert_eq!(
        absent(mins(1)),
        "Ο παίκτης με τα Λευκά απουσιάζει κατά τη συνέχιση. Όποιος απουσιάζει περισσότερο \
         από ένα λεπτό, τον επιτρεπόμενο χρόνο άφιξης, χάνει την παρτίδα (Οδηγία I.10)."
    );
}

#[test]
fn messages_that_were_right_stay_right() {
    use MsgKey as K;
    // The subject is the side (τα Λευκά, plural): the verb stays plural
    // whatever the time.
    assert_eq!(
        shown(K::ClockTimeAdded, "time", mins(1)),
        "Τα Λευκά παίρνουν ένα λεπτό."
    );
    assert_eq!(
        msg(
            K::ReviewMoveTime,
            &[("side", white()), ("time", secs(1)), ("number", num(12))]
        )
        .display,
        "Τα Λευκά χρειάστηκαν ένα δευτερόλεπτο για την κίνηση 12."
    );
    assert_eq!(
        msg(
            K::ReviewClock,
            &[("side", white()), ("time", mins(101)), ("number", num(3))]
        )
        .display,
        "Ρολόι των Λευκών μετά την κίνηση 3: μία ώρα και 41 λεπτά."
    );
    // The plural phrases on the screen keep their digits.
    let b = book();
    assert_eq!(b.count(Unit::Moves, 1).display, "μία κίνηση");
    assert_eq!(b.count(Unit::Moves, 21).display, "21 κινήσεις");
    assert_eq!(b.count(Unit::Hours, 3).display, "3 ώρες");
    assert_eq!(b.count(Unit::Minutes, 1).display, "ένα λεπτό");
    assert_eq!(b.count(Unit::Seconds, 101).display, "101 δευτερόλεπτα");
    // The sides in the genitive.
    assert_eq!(
        el().message(K::UiSheet, &[("sheet", "Μαύρα"), ("moves", "1. ε4")]),
        "Φύλλο αγώνα των Μαύρων: 1. ε4."
    );
    // A count in a label stays a digit.
    assert_eq!(
        el().message(K::ReviewRecent, &[("count", "1"), ("moves", "ε4")]),
        "Οι τελευταίες κινήσεις (1): ε4."
    );
}

// --- spoken numbers ----------------------------------------------------
//
// espeak-ng reads Greek digits in the neuter ("3 ώρες" → "τρία ώρες"), so
// the spoken text has the number words, feminine before a feminine noun
// and in the genitive after a noun that needs it.

#[test]
fn a_number_before_a_feminine_noun_is_said_in_the_feminine() {
    let b = book();
    let said = |unit, n| b.count(unit, n).spoken;
    // κίνηση, ώρα, φορά are feminine.
    let moves: &[(u64, &str)] = &[
        (0, "μηδέν κινήσεις"),
        (1, "μία κίνηση"),
        (2, "δύο κινήσεις"),
        (3, "τρεις κινήσεις"),
        (4, "τέσσερις κινήσεις"),
        (5, "πέντε κινήσεις"),
        (11, "έντεκα κινήσεις"),
        (12, "δώδεκα κινήσεις"),
        (13, "δεκατρείς κινήσεις"),
        (14, "δεκατέσσερις κινήσεις"),
        (21, "είκοσι μία κινήσεις"),
        (22, "είκοσι δύο κινήσεις"),
        (23, "είκοσι τρεις κινήσεις"),
        (25, "είκοσι πέντε κινήσεις"),
        (101, "εκατόν μία κινήσεις"),
        (134, "εκατόν τριάντα τέσσερις κινήσεις"),
        (200, "διακόσιες κινήσεις"),
        (313, "τριακόσιες δεκατρείς κινήσεις"),
    ];
    for (n, want) in moves {
        assert_eq!(said(Unit::Moves, *n), *want, "{n}");
        // The screen keeps the digits.
        if *n != 1 {
            assert_eq!(b.count(Unit::Moves, *n).display, format!("{n} κινήσεις"));
        }
    }
    assert_eq!(said(Unit::Hours, 3), "τρεις ώρες");
    assert_eq!(said(Unit::Hours, 4), "τέσσερις ώρες");
    assert_eq!(said(Unit::Hours, 21), "είκοσι μία ώρες");
    // λεπτό and δευτερόλεπτο are neuter: the counting form stays.
    assert_eq!(said(Unit::Minutes, 3), "τρία λεπτά");
    assert_eq!(said(Unit::Minutes, 21), "είκοσι ένα λεπτά");
    assert_eq!(said(Unit::Seconds, 14), "δεκατέσσερα δευτερόλεπτα");
    assert_eq!(said(Unit::Seconds, 101), "εκατόν ένα δευτερόλεπτα");
    // A time of several units.
    assert_eq!(mins(101).spoken, "μία ώρα και σαράντα ένα λεπτά");
    assert_eq!(mins(101).display, "μία ώρα και 41 λεπτά");
    assert_eq!(mins(3 * 60 + 4).spoken, "τρεις ώρες και τέσσερα λεπτά");
    // In a whole message: the verb and the number agree.
    let left = |t| msg(MsgKey::ClockTimeLeft, &[("side", white()), ("time", t)]).spoken;
    assert_eq!(left(mins(21)), "Λευκά: απομένουν είκοσι ένα λεπτά.");
    assert_eq!(left(mins(0)), "Λευκά: απομένουν μηδέν δευτερόλεπτα.");
    let to_control = |n| {
        msg(
            MsgKey::ClockMovesToControl,
            &[("moves", book().count(Unit::Moves, n))],
        )
        .spoken
    };
    assert_eq!(to_control(3), "Μέχρι τον έλεγχο χρόνου: τρεις κινήσεις.");
    assert_eq!(to_control(1), "Μέχρι τον έλεγχο χρόνου: μία κίνηση.");
    // A bare count before a feminine noun, spoken.
    let mate = |n| {
        msg(
            MsgKey::ReviewScoreMate,
            &[("side", white()), ("moves", num(n))],
        )
    };
    assert_eq!(mate(3).spoken, "τα Λευκά κάνουν ματ σε τρεις κινήσεις");
    assert_eq!(mate(3).display, "τα Λευκά κάνουν ματ σε 3 κινήσεις");
    let recent = |n| {
        msg(
            MsgKey::ReviewRecent,
            &[("count", num(n)), ("moves", num(0))],
        )
    };
    assert_eq!(recent(3).spoken, "Οι τελευταίες κινήσεις (τρεις): μηδέν.");
    assert_eq!(
        recent(21).spoken,
        "Οι τελευταίες κινήσεις (είκοσι μία): μηδέν."
    );
    assert_eq!(recent(21).display, "Οι τελευταίες κινήσεις (21): 0.");
}

#[test]
fn a_measure_in_the_genitive_is_said_in_the_genitive() {
    let requested = |n| {
        msg(
            MsgKey::QuickplayIncrementRequested,
            &[
                ("side", white()),
                ("opponent", book().side(shakmaty::Color::Black)),
                ("seconds", book().count(Unit::Seconds, n)),
            ],
        )
        .spoken
    };
    for (n, want) in [
        (1, "προσαύξηση ενός δευτερολέπτου ανά κίνηση"),
        (3, "προσαύξηση τριών δευτερολέπτων ανά κίνηση"),
        (14, "προσαύξηση δεκατεσσάρων δευτερολέπτων ανά κίνηση"),
        (21, "προσαύξηση είκοσι ενός δευτερολέπτων ανά κίνηση"),
        (30, "προσαύξηση τριάντα δευτερολέπτων ανά κίνηση"),
    ] {
        assert!(requested(n).contains(want), "{n}: {}", requested(n));
    }
}

#[test]
fn every_number_up_to_999_is_spoken_as_greek_words() {
    let b = book();
    for n in 0..1000 {
        let s = b.spoken_number(n);
        assert!(!s.chars().any(|c| c.is_ascii_digit()), "{n}: {s}");
    }
    assert_eq!(b.spoken_number(0), "μηδέν");
    assert_eq!(b.spoken_number(100), "εκατό");
    assert_eq!(b.spoken_number(117), "εκατόν δεκαεπτά");
    assert_eq!(b.spoken_number(999), "εννιακόσια ενενήντα εννέα");
}
