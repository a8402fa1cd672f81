//! Messages with a number, through the real binary (issue 20): the talking
//! clock's lines in Polish, Arabic, Greek, Hebrew and Korean agree with the
//! count (case, verb, native numbers), as a native speaker writes them. The
//! expected phrases are written out by hand; the old text is named for each
//! ("dodano jedna minuta", "ολοκληρώθηκαν μία κίνηση", "הושלמו מסע אחד",
//! "1수"), and the liveness side is in the same lines (the count is there,
//! in the right form).

mod common;

/// One move each side's clock is pressed for, a minute added to White, two
/// taken from Black, and the move count asked for, in `locale`.
fn clock_lines(locale: &str) -> String {
    let (lines, _) = common::run_with_input(
        &["clock", "--plain", "--locale", locale, "--control", "3m"],
        "press\npress\nadd white 1m\ntake black 2m\nmoves\nquit\n",
    );
    lines.join("\n")
}

fn check(locale: &str, right: &[&str], wrong: &[&str]) {
    let out = clock_lines(locale);
    for r in right {
        assert!(out.contains(r), "{locale}: '{r}' is missing in:\n{out}");
    }
    for w in wrong {
        assert!(!out.contains(w), "{locale}: '{w}' is in:\n{out}");
    }
}

#[test]
fn polish_takes_the_accusative_and_the_verb_agrees_with_the_side() {
    check(
        "pl",
        &[
            "dodano jedną minutę",
            "odjęto 2 minuty",
            "Białe wykonały jeden ruch",
            "Czarne wykonały 0 ruchów",
        ],
        &["jedna minuta", "wykonane"],
    );
}

#[test]
fn arabic_verbs_agree_with_the_count() {
    check(
        "ar",
        &["على دقيقة واحدة", "خُصمت دقيقتان", "أكمل نقلة واحدة"],
        &["خُصم دقيقتان"],
    );
}

#[test]
fn greek_verbs_are_singular_for_one() {
    check(
        "el",
        &[
            "παίρνουν ένα λεπτό",
            "Αφαιρέθηκαν 2 λεπτά",
            "ολοκληρώθηκε μία κίνηση",
            "ολοκληρώθηκαν 0 κινήσεις",
        ],
        &["ολοκληρώθηκαν μία"],
    );
}

#[test]
fn hebrew_verbs_agree_with_one_move() {
    check(
        "he",
        &[
            "מקבל דקה אחת",
            "הופחתו שתי דקות",
            "הושלם מסע אחד",
            "הושלמו 0 מסעים",
        ],
        &["הושלמו מסע אחד"],
    );
}

#[test]
fn korean_counts_moves_with_native_numbers() {
    check("ko", &["한 수 완료", "0수 완료", "1분", "2분"], &["1수"]);
}
