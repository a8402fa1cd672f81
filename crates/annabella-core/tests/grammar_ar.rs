//! Arabic messages with a number, as a careful writer of Modern Standard
//! Arabic writes them (issue 20): the dual takes the oblique ending -ayn
//! after a preposition, as an object and in idafa ("على دقيقتين", "استهلك
//! دقيقتين", "لمدة ثانيتين") and keeps -ān as a subject or predicate
//! ("بقيت دقيقتان", "قدره دقيقتان"); a verb before a time agrees with its
//! feminine units (ساعة، دقيقة، ثانية: "بقيت", "خُصمت", "أُضيفت"); a bare
//! number is followed by the counted noun in the form its category needs
//! (1 and 2 in words, 3–10 plural genitive, 11–99 singular accusative,
//! 100 and more singular genitive).
//!
//! Every expected text is written out here by hand. The Arabic locale has
//! no number words, so the spoken text is the displayed one, and both are
//! checked. The tests named `*_stays_*` are the liveness side: forms that
//! were right before must stay right.

use std::time::Duration;

use annabella_core::clock::talk::{Phrasebook, Unit, Verbosity, counted};
use annabella_core::locale::{self, Locale, MsgKey, PluralStem};
use annabella_core::vocab::Utterance;

/// The numbers whose Arabic forms differ (zero, one, two, few, many,
/// other).
const NS: [u64; 12] = [0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 101];

/// `n` minutes as the clock says them, in the nominative (by hand).
fn minutes_nom(n: u64) -> &'static str {
    match n {
        0 => "0 ثانية",
        1 => "دقيقة واحدة",
        2 => "دقيقتان",
        3 => "3 دقائق",
        4 => "4 دقائق",
        5 => "5 دقائق",
        11 => "11 دقيقة",
        12 => "12 دقيقة",
        21 => "21 دقيقة",
        22 => "22 دقيقة",
        25 => "25 دقيقة",
        101 => "ساعة واحدة و41 دقيقة",
        _ => panic!("no hand-written form for {n} minutes"),
    }
}

/// `n` seconds as the clock says them, in the nominative (by hand).
fn seconds_nom(n: u64) -> &'static str {
    match n {
        0 => "0 ثانية",
        1 => "ثانية واحدة",
        2 => "ثانيتان",
        3 => "3 ثوان",
        4 => "4 ثوان",
        5 => "5 ثوان",
        11 => "11 ثانية",
        12 => "12 ثانية",
        21 => "21 ثانية",
        22 => "22 ثانية",
        25 => "25 ثانية",
        101 => "دقيقة واحدة و41 ثانية",
        _ => panic!("no hand-written form for {n} seconds"),
    }
}

/// One message filled for one number, and the text a native writes.
type Case<'a> = (MsgKey, &'a [(&'a str, Fill)], u64, String);

/// How the caller fills a placeholder with the number `n`.
#[derive(Clone, Copy)]
enum Fill {
    /// `n` minutes as a time in words.
    Minutes,
    /// `n` seconds as a time in words.
    Seconds,
    /// `n` of a unit, the plural phrase.
    Count(Unit),
    /// `n` of a plural stem, the plural phrase.
    Stem(PluralStem),
    /// The bare number.
    Digits,
    /// A fixed text.
    Text(&'static str),
}

struct Ar {
    locale: Locale,
    book: Phrasebook,
}

impl Ar {
    fn new() -> Ar {
        let locale = locale::builtin("ar").expect("the built-in Arabic locale loads");
        let book = Phrasebook::new(locale.clone());
        Ar { locale, book }
    }

    fn value(&self, fill: Fill, n: u64) -> Utterance {
        match fill {
            Fill::Minutes => self
                .book
                .duration(Duration::from_secs(60 * n), Verbosity::Full),
            Fill::Seconds => self.book.duration(Duration::from_secs(n), Verbosity::Full),
            Fill::Count(unit) => self.book.count(unit, n),
            Fill::Stem(stem) => counted(&self.locale, stem, n),
            Fill::Digits => Utterance {
                display: n.to_string(),
                spoken: self.book.spoken_number(n),
            },
            Fill::Text(t) => Utterance::plain(t.to_owned()),
        }
    }

    /// The message `key` with every placeholder of `fills` filled for `n`,
    /// White as `{side}` and Black as `{opponent}`: display and spoken.
    fn message(&self, key: MsgKey, fills: &[(&str, Fill)], n: u64) -> (String, String) {
        let mut values: Vec<(&str, Utterance)> = vec![
            ("side", Utterance::plain("الأبيض".to_owned())),
            ("opponent", Utterance::plain("الأسود".to_owned())),
        ];
        for (name, fill) in fills {
            values.push((name, self.value(*fill, n)));
        }
        let display: Vec<(&str, &str)> = values
            .iter()
            .map(|(k, v)| (*k, v.display.as_str()))
            .collect();
        let spoken: Vec<(&str, &str)> = values
            .iter()
            .map(|(k, v)| (*k, v.spoken.as_str()))
            .collect();
        (
            self.locale.message(key, &display),
            self.locale.message(key, &spoken),
        )
    }
}

/// Every case whose display or spoken text is not the expected one.
fn mismatches(cases: &[Case<'_>]) -> Vec<String> {
    let ar = Ar::new();
    let mut out = Vec::new();
    for (key, fills, n, want) in cases {
        let (display, spoken) = ar.message(*key, fills, *n);
        if &display != want || &spoken != want {
            out.push(format!(
                "{key:?} n={n}\n  want    {want}\n  display {display}\n  spoken  {spoken}"
            ));
        }
    }
    out
}

fn assert_all(cases: &[Case<'_>]) {
    let wrong = mismatches(cases);
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

/// Like `assert_all`, for a part of a long message.
fn assert_contains(key: MsgKey, fills: &[(&str, Fill)], cases: &[(u64, &str)]) {
    let ar = Ar::new();
    let mut wrong = Vec::new();
    for (n, part) in cases {
        let (display, spoken) = ar.message(key, fills, *n);
        if !display.contains(part) || !spoken.contains(part) {
            wrong.push(format!(
                "{key:?} n={n}: no '{part}' in\n  {display}\n  {spoken}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

use Fill::{Count, Digits, Minutes, Seconds, Stem, Text};

#[test]
fn a_dual_after_a_preposition_an_object_or_in_idafa_is_oblique() {
    let s = |t: &str| t.to_owned();
    let cases: Vec<Case<'_>> = vec![
        // Object of a verb.
        (
            MsgKey::ClockTimeUsed,
            &[("time", Minutes)],
            2,
            s("استهلك الأبيض دقيقتين."),
        ),
        (
            MsgKey::ClockTimeUsed,
            &[("time", Minutes)],
            122,
            s("استهلك الأبيض ساعتين ودقيقتين."),
        ),
        (
            MsgKey::ClockMoves,
            &[("moves", Count(Unit::Moves))],
            2,
            s("الأبيض: أكمل نقلتين."),
        ),
        (
            MsgKey::ReviewMoveTime,
            &[("time", Seconds), ("number", Text("12"))],
            2,
            s("استغرق الأبيض ثانيتين للنقلة 12."),
        ),
        (
            MsgKey::MirrorErrTimeBackwards,
            &[("time", Minutes)],
            2,
            s("لا يمكن للوقت أن يعود إلى الوراء: وقت المباراة بلغ دقيقتين بالفعل."),
        ),
        // After على.
        (
            MsgKey::ClockTimeAdded,
            &[("time", Minutes)],
            2,
            s("يحصل الأبيض على دقيقتين."),
        ),
        (
            MsgKey::ClockTimeAdded,
            &[("time", Minutes)],
            120,
            s("يحصل الأبيض على ساعتين."),
        ),
        (
            MsgKey::ClockIncrementAdded,
            &[("time", Seconds)],
            2,
            s("من الآن يحصل كل لاعب على ثانيتين لكل نقلة (الإرشاد III.4)."),
        ),
        (
            MsgKey::MirrorPeriodReached,
            &[("time", Minutes)],
            2,
            s("بلغ مراقبة الوقت: يحصل الأبيض على دقيقتين."),
        ),
        (
            MsgKey::MirrorAdjustAdd,
            &[("time", Minutes), ("remaining", Minutes)],
            2,
            s("الحكم: يحصل الأبيض على دقيقتين؛ لدى الأبيض الآن دقيقتان."),
        ),
        (
            MsgKey::QuickplayIncrementGranted,
            &[
                ("seconds", Count(Unit::Seconds)),
                ("minutes", Count(Unit::Minutes)),
            ],
            2,
            s(
                "يوافق الحكم على طلب الأبيض: من الآن يحصل كل لاعب على ثانيتين لكل نقلة، ويحصل الأسود على وقت إضافي قدره دقيقتان (الإرشاد III.4).",
            ),
        ),
        // After من and أكثر من.
        (
            MsgKey::MirrorPlayerAbsent,
            &[("time", Minutes)],
            2,
            s(
                "الأبيض غائب عند الاستئناف. من يغيب أكثر من دقيقتين، وهو زمن الغياب المسموح، يخسر المباراة (الإرشاد I.10).",
            ),
        ),
        (
            MsgKey::MirrorPlayerAbsent,
            &[("time", Minutes)],
            25,
            s(
                "الأبيض غائب عند الاستئناف. من يغيب أكثر من 25 دقيقة، وهو زمن الغياب المسموح، يخسر المباراة (الإرشاد I.10).",
            ),
        ),
        // Idafa: a masdar, لمدة, آخر.
        (
            MsgKey::ClockCannotTake,
            &[("time", Minutes), ("left", Minutes)],
            2,
            s("لا يمكن خصم دقيقتين من الأبيض: بقيت دقيقتان فقط. اخصم أقل، على الأكثر ما تبقى."),
        ),
        (
            MsgKey::GameClockCannotTake,
            &[("time", Minutes), ("left", Minutes)],
            2,
            s(
                "لا يمكن خصم دقيقتين من الأبيض: لم يتبقَّ إلا دقيقتان. اخصم أقل، على الأكثر الوقت المتبقي.",
            ),
        ),
        (
            MsgKey::ReviewEngineThinking,
            &[("time", Seconds)],
            2,
            s("المحرك يفكر لمدة ثانيتين."),
        ),
        (
            MsgKey::UiAlarmCounted,
            &[("seconds", Count(Unit::Seconds))],
            2,
            s("عدّ آخر ثانيتين بصوت عالٍ"),
        ),
        (
            MsgKey::UiAlarmCounted,
            &[("seconds", Count(Unit::Seconds))],
            5,
            s("عدّ آخر 5 ثوان بصوت عالٍ"),
        ),
    ];
    assert_all(&cases);
    assert_contains(
        MsgKey::QuickplayIncrementRequested,
        &[("seconds", Count(Unit::Seconds))],
        &[(2, "ويطلب زيادة ثانيتين لكل نقلة")],
    );
}

#[test]
fn a_verb_before_a_time_agrees_with_its_feminine_units() {
    let mut cases: Vec<Case<'_>> = Vec::new();
    for n in NS {
        let m = minutes_nom(n);
        let sec = seconds_nom(n);
        cases.push((
            MsgKey::ClockTimeLeft,
            &[("time", Minutes)],
            n,
            format!("الأبيض: بقيت {m}."),
        ));
        cases.push((
            MsgKey::ClockLowTime,
            &[("time", Seconds)],
            n,
            format!("الأبيض: بقيت {sec} فقط!"),
        ));
        cases.push((
            MsgKey::ClockPeriodReached,
            &[("time", Minutes)],
            n,
            format!("الأبيض: بلغ مراقبة الوقت، أُضيفت {m}."),
        ));
        cases.push((
            MsgKey::ClockTimeRemoved,
            &[("time", Minutes)],
            n,
            format!("خُصمت {m} من الأبيض."),
        ));
        cases.push((
            MsgKey::MirrorAdjustRemove,
            &[("time", Minutes), ("remaining", Minutes)],
            n,
            format!("الحكم: خُصمت {m} من الأبيض؛ لدى الأبيض الآن {m}."),
        ));
        cases.push((
            MsgKey::MirrorPressed,
            &[("time", Minutes), ("move", Text("e4"))],
            n,
            format!("ضغط الأبيض على الساعة (بقيت {m}). الأسود: كرّر e4 ونفّذها على رقعة الأسود."),
        ));
        cases.push((
            MsgKey::QuickplayErrTimeLeft,
            &[("time", Seconds)],
            n,
            format!("بقيت للأبيض {sec}: هذا ممكن فقط مع أقل من دقيقتين على الساعة."),
        ));
    }
    assert_all(&cases);
}

/// The counted noun after a bare number, by hand: (n, text).
type Forms = &'static [(u64, &'static str)];

fn each(
    key: MsgKey,
    fills: &'static [(&'static str, Fill)],
    frame: &str,
    forms: Forms,
) -> Vec<Case<'static>> {
    forms
        .iter()
        .map(|(n, form)| (key, fills, *n, frame.replace("@", form)))
        .collect()
}

#[test]
fn a_bare_number_takes_the_counted_noun_its_category_needs() {
    let mut cases = Vec::new();
    // Genitive after a preposition (خلال، من، أطول من).
    let seconds_gen: Forms = &[
        (1, "ثانية واحدة"),
        (2, "ثانيتين"),
        (3, "3 ثوانٍ"),
        (4, "4 ثوانٍ"),
        (5, "5 ثوانٍ"),
    ];
    cases.extend(each(
        MsgKey::EngineNoUciok,
        &[("seconds", Digits)],
        "لم يرد على تحية UCI خلال @ فأُوقف",
        seconds_gen,
    ));
    cases.extend(each(
        MsgKey::SpeechNoAnswer,
        &[("seconds", Digits)],
        "لم يُجب خلال @",
        seconds_gen,
    ));
    cases.extend(each(
        MsgKey::WavTooLong,
        &[("seconds", Digits)],
        "مدته أطول من @، وهي أقصى مدة لنقلة منطوقة واحدة",
        seconds_gen,
    ));
    cases.extend(each(
        MsgKey::DurationTooLong,
        &[("hours", Digits), ("position", Text("4"))],
        "الوقت ابتداءً من الموضع 4 أطول من @، وهو أقصى ما تقبله annabella",
        &[
            (1, "ساعة واحدة"),
            (2, "ساعتين"),
            (3, "3 ساعات"),
            (5, "5 ساعات"),
        ],
    ));
    cases.extend(each(
        MsgKey::ControlIncrementTooLong,
        &[("minutes", Digits)],
        "الزيادة أو التأخير أطول من @",
        &[(1, "دقيقة واحدة"), (2, "دقيقتين"), (4, "4 دقائق")],
    ));
    // A masculine noun: accusative tamyiz 11–99 (حرفًا), genitive from 100.
    cases.extend(each(
        MsgKey::InputLineTooLong,
        &[("limit", Digits)],
        "هذا السطر أطول من @ ولم تتم قراءته. اكتب سطرًا أقصر.",
        &[
            (1, "حرف واحد"),
            (2, "حرفين"),
            (3, "3 أحرف"),
            (11, "11 حرفًا"),
            (12, "12 حرفًا"),
            (21, "21 حرفًا"),
            (22, "22 حرفًا"),
            (25, "25 حرفًا"),
        ],
    ));
    cases.extend(each(
        MsgKey::WavCutShort,
        &[("samples", Digits)],
        "ينقطع بعد @",
        &[(1, "عينة واحدة"), (2, "عينتين"), (3, "3 عينات")],
    ));
    // Nominative: a subject, a predicate, after قدره.
    cases.extend(each(
        MsgKey::ClaimRejected,
        &[("minutes", Digits), ("reason", Text("لم يتكرر الوضع"))],
        "رُفضت مطالبة الأبيض بالتعادل: لم يتكرر الوضع. يحصل الأسود على وقت إضافي قدره @.",
        &[
            (0, "0 دقيقة"),
            (1, "دقيقة واحدة"),
            (2, "دقيقتان"),
            (3, "3 دقائق"),
            (4, "4 دقائق"),
            (5, "5 دقائق"),
            (11, "11 دقيقة"),
            (12, "12 دقيقة"),
            (21, "21 دقيقة"),
            (22, "22 دقيقة"),
            (25, "25 دقيقة"),
            (101, "101 دقيقة"),
        ],
    ));
    cases.extend(each(
        MsgKey::UiTimeAdded,
        &[("seconds", Digits)],
        "الحكم: يحصل الأبيض على @.",
        &[
            (0, "0 ثانية"),
            (1, "ثانية واحدة"),
            (2, "ثانيتين"),
            (3, "3 ثوانٍ"),
            (11, "11 ثانية"),
            (25, "25 ثانية"),
            (101, "101 ثانية"),
        ],
    ));
    cases.extend(each(
        MsgKey::UiTimeRemoved,
        &[("seconds", Digits)],
        "الحكم: خُصمت من الأبيض @.",
        &[
            (0, "0 ثانية"),
            (1, "ثانية واحدة"),
            (2, "ثانيتان"),
            (5, "5 ثوانٍ"),
            (12, "12 ثانية"),
            (101, "101 ثانية"),
        ],
    ));
    cases.extend(each(
        MsgKey::WavChannels,
        &[("channels", Digits), ("max", Text("8"))],
        "فيه @، لكن annabella يقرأ من 1 إلى 8 فقط",
        &[(1, "قناة واحدة"), (2, "قناتان"), (12, "12 قناة")],
    ));
    // A verb before the count agrees with it; nothing read says so.
    cases.extend(each(
        MsgKey::ErrorPgnUnterminated,
        &[("moves", Digits), ("file", Text("g.pgn")), ("game", Text("3"))],
        "\u{2068}g.pgn\u{2069}، المباراة 3: لا توجد نتيجة في نهاية المباراة، فقد يكون الملف مبتوراً؛ @.",
        &[
            (0, "لم تُقرأ أي نقلة"),
            (1, "قُرئت نقلة واحدة"),
            (2, "قُرئت نقلتان"),
            (3, "قُرئت 3 نقلات"),
            (4, "قُرئت 4 نقلات"),
            (5, "قُرئت 5 نقلات"),
            (11, "قُرئت 11 نقلة"),
            (12, "قُرئت 12 نقلة"),
            (21, "قُرئت 21 نقلة"),
            (22, "قُرئت 22 نقلة"),
            (25, "قُرئت 25 نقلة"),
            (101, "قُرئت 101 نقلة"),
        ],
    ));
    cases.extend(each(
        MsgKey::ReviewScoreMate,
        &[("moves", Digits)],
        "الأبيض يكش مات في @",
        &[
            (1, "نقلة واحدة"),
            (2, "نقلتين"),
            (3, "3 نقلات"),
            (4, "4 نقلات"),
            (5, "5 نقلات"),
            (11, "11 نقلة"),
            (12, "12 نقلة"),
            (21, "21 نقلة"),
            (22, "22 نقلة"),
            (25, "25 نقلة"),
            (101, "101 نقلة"),
        ],
    ));
    cases.extend(each(
        MsgKey::OutputOtherGames,
        &[("games", Digits), ("file", Text("g.pgn"))],
        "\u{2068}g.pgn\u{2069} يحتوي على @ غير هذه المباراة: لن يُستبدل. اختر اسم ملف آخر، أو أضف \u{2066}--force\u{2069} لاستبداله.",
        &[
            (1, "مباراة واحدة"),
            (2, "مباراتين"),
            (3, "3 مباريات"),
            (11, "11 مباراة"),
            (101, "101 مباراة"),
        ],
    ));
    // A decimal score takes the singular, as CLDR's "other" does.
    cases.extend(each(
        MsgKey::ReviewScoreAhead,
        &[("pawns", Text("1.5"))],
        "الأبيض متقدم بمقدار @ بيدق",
        &[(0, "1.5")],
    ));
    assert_all(&cases);
    // Half-moves in the review's first line.
    assert_contains(
        MsgKey::ReviewOpened,
        &[("count", Digits), ("black", Text("Anand"))],
        &[
            (1, "Anand، نصف نقلة واحدة، "),
            (2, "Anand، نصفا نقلة، "),
            (3, "Anand، 3 أنصاف نقلات، "),
            (5, "Anand، 5 أنصاف نقلات، "),
        ],
    );
    // The longest countdown, after إلى.
    assert_contains(
        MsgKey::UiAlarmRefused,
        &[("max", Digits)],
        &[(2, "(من 0 إلى ثانيتين)"), (10, "(من 0 إلى 10 ثوانٍ)")],
    );
}

#[test]
fn counts_said_as_labels_need_no_counted_noun() {
    let mut cases = Vec::new();
    cases.extend(each(
        MsgKey::ControlTooManyMoves,
        &[
            ("moves", Digits),
            ("period", Text("2")),
            ("max", Text("1000")),
        ],
        "عدد نقلات الفترة 2 هو @؛ المسموح 1000 على الأكثر",
        &[(2, "2"), (5, "5"), (11, "11"), (1001, "1001")],
    ));
    cases.extend(each(
        MsgKey::JournalRepairDone,
        &[
            ("taken", Digits),
            ("offered", Text("3")),
            ("file", Text("g.jsonl")),
        ],
        "السجلات المضمومة إلى المباراة: @ من 3؛ ويبقى \u{2068}g.jsonl\u{2069} دون تغيير.",
        &[(1, "1"), (2, "2")],
    ));
    cases.extend(each(
        MsgKey::ControlNumberTooLarge,
        &[("max", Digits), ("position", Text("5"))],
        "عدد النقلات في الموضع 5 كبير جدًا؛ أقصى عدد نقلات للفترة هو @",
        &[(2, "2"), (1000, "1000")],
    ));
    assert_all(&cases);
}

#[test]
fn the_nominative_dual_and_the_right_forms_stay_as_they_were() {
    let mut cases: Vec<Case<'_>> = Vec::new();
    for n in NS {
        let m = minutes_nom(n);
        let sec = seconds_nom(n);
        cases.push((
            MsgKey::ClockTime,
            &[("time", Minutes)],
            n,
            format!("الأبيض: {m}."),
        ));
        cases.push((
            MsgKey::ClockIncrementAlready,
            &[("time", Seconds)],
            n,
            format!("للساعة بالفعل زيادة أو تأخير قدره {sec} لكل نقلة؛ لم يتغير شيء."),
        ));
        cases.push((
            MsgKey::MirrorDefaultTime,
            &[("time", Minutes)],
            n,
            format!(
                "زمن الغياب المسموح {m}: من يغيب أكثر منه عند الاستئناف يخسر المباراة (الإرشاد I.10)."
            ),
        ));
        cases.push((
            MsgKey::ReviewClock,
            &[("time", Minutes), ("number", Text("7"))],
            n,
            format!("ساعة الأبيض بعد النقلة 7: {m}."),
        ));
    }
    // The oblique forms change only the dual: the other counts stay.
    for (n, m) in [
        (0, "0 ثانية"),
        (1, "دقيقة واحدة"),
        (3, "3 دقائق"),
        (11, "11 دقيقة"),
        (101, "ساعة واحدة و41 دقيقة"),
    ] {
        cases.push((
            MsgKey::ClockTimeAdded,
            &[("time", Minutes)],
            n,
            format!("يحصل الأبيض على {m}."),
        ));
    }
    cases.push((
        MsgKey::PenaltyIllegalMove,
        &[("minutes", Count(Unit::Minutes))],
        2,
        "نقلة غير قانونية من الأبيض. يحصل الأسود على وقت إضافي قدره دقيقتان.".to_owned(),
    ));
    cases.push((
        MsgKey::ClockMovesToControl,
        &[("moves", Count(Unit::Moves))],
        2,
        "حتى مراقبة الوقت: نقلتان.".to_owned(),
    ));
    cases.push((
        MsgKey::MirrorClockReading,
        &[
            ("white", Minutes),
            ("black", Minutes),
            ("white_moves", Count(Unit::Moves)),
            ("black_moves", Count(Unit::Moves)),
        ],
        2,
        "الساعة: الأبيض دقيقتان (نقلتان)، الأسود دقيقتان (نقلتان).".to_owned(),
    ));
    // "ظهر الوضع مرتين" is adverbial (accusative); half-moves after the
    // colon and the minutes after قدره are nominative.
    cases.push((
        MsgKey::UiClaimRejected,
        &[
            ("repetitions", Stem(PluralStem::CountTimes)),
            ("halfmoves", Stem(PluralStem::CountHalfmoves)),
            ("minutes", Count(Unit::Minutes)),
        ],
        2,
        "رُفضت مطالبة الأبيض بالتعادل: ظهر الوضع مرتين؛ منذ آخر نقلة بيدق أو أسر: نصفا نقلة. يحصل الأسود على وقت إضافي قدره دقيقتان.".to_owned(),
    ));
    // The counted nouns that were right after a bare number stay.
    cases.extend(each(
        MsgKey::EngineNoUciok,
        &[("seconds", Digits)],
        "لم يرد على تحية UCI خلال @ فأُوقف",
        &[
            (0, "0 ثانية"),
            (11, "11 ثانية"),
            (12, "12 ثانية"),
            (21, "21 ثانية"),
            (22, "22 ثانية"),
            (25, "25 ثانية"),
            (101, "101 ثانية"),
        ],
    ));
    cases.extend(each(
        MsgKey::InputLineTooLong,
        &[("limit", Digits)],
        "هذا السطر أطول من @ ولم تتم قراءته. اكتب سطرًا أقصر.",
        &[(0, "0 حرف"), (101, "101 حرف")],
    ));
    cases.extend(each(
        MsgKey::WavChannels,
        &[("channels", Digits), ("max", Text("8"))],
        "فيه @، لكن annabella يقرأ من 1 إلى 8 فقط",
        &[(3, "3 قنوات"), (5, "5 قنوات")],
    ));
    assert_all(&cases);
    // The phrases themselves stay in the nominative.
    let book = Phrasebook::new(locale::builtin("ar").expect("ar loads"));
    assert_eq!(book.count(Unit::Minutes, 2).display, "دقيقتان");
    assert_eq!(book.count(Unit::Moves, 2).display, "نقلتان");
    assert_contains(
        MsgKey::ReviewOpened,
        &[("count", Digits), ("black", Text("Anand"))],
        &[
            (0, "Anand، 0 نصف نقلة، "),
            (11, "Anand، 11 نصف نقلة، "),
            (101, "Anand، 101 نصف نقلة، "),
        ],
    );
    assert_contains(
        MsgKey::UiAlarmRefused,
        &[("max", Digits)],
        &[(60, "(من 0 إلى 60 ثانية)")],
    );
}
