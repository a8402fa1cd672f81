//! Korean numbers as a careful speaker writes and says them (issue 20).
//!
//! The counters 번 (times), 시간 (hours), 수 (moves) and 개 (things) take
//! the native numbers (한 번, 두 시간, 세 수, 반수 네 개) and 번째 the
//! native ordinals (첫 번째, 두 번째); 분 and 초 take the Sino-Korean
//! numbers, which the digits are read as. espeak-ng reads digits
//! Sino-Korean (`2번` as 이 번, "number two"), so below 100 the number is
//! written out in words, in the text and in what is spoken; from 100 on
//! speakers use Sino-Korean numbers, and the digits stay.
//!
//! Every expected text below is written by hand.

use std::time::Duration;

use annabella_core::clock::talk::{Phrasebook, Unit, Verbosity, plural_key};
use annabella_core::locale::{self, Locale, MsgKey, PluralStem};

fn ko() -> Locale {
    locale::builtin("ko").expect("the built-in Korean locale loads")
}

fn book() -> Phrasebook {
    Phrasebook::new(ko())
}

/// `n` of `stem` as the game's wording fills it (display, spoken).
fn count(stem: PluralStem, n: u64) -> (String, String) {
    let l = ko();
    let key = plural_key(&l, stem, n);
    let digits = n.to_string();
    let spoken = l.numbers.get(&digits).cloned().unwrap_or(digits.clone());
    (
        l.message(key, &[("n", &digits)]),
        l.message(key, &[("n", &spoken)]),
    )
}

/// Display and spoken of a talking-clock count.
fn clock_count(unit: Unit, n: u64) -> (String, String) {
    let u = book().count(unit, n);
    (u.display, u.spoken)
}

fn both(text: &str) -> (String, String) {
    (text.to_owned(), text.to_owned())
}

#[test]
fn hours_take_native_numbers() {
    for (n, text) in [
        (1, "한 시간"),
        (2, "두 시간"),
        (3, "세 시간"),
        (4, "네 시간"),
        (5, "다섯 시간"),
        (11, "열한 시간"),
        (12, "열두 시간"),
        (20, "스무 시간"),
        (21, "스물한 시간"),
        (22, "스물두 시간"),
        (25, "스물다섯 시간"),
        (99, "아흔아홉 시간"),
    ] {
        assert_eq!(clock_count(Unit::Hours, n), both(text), "{n} hours");
    }
}

#[test]
fn moves_take_native_numbers() {
    for (n, text) in [
        (1, "한 수"),
        (2, "두 수"),
        (3, "세 수"),
        (4, "네 수"),
        (5, "다섯 수"),
        (11, "열한 수"),
        (12, "열두 수"),
        (21, "스물한 수"),
        (22, "스물두 수"),
        (25, "스물다섯 수"),
        (40, "마흔 수"),
    ] {
        assert_eq!(clock_count(Unit::Moves, n), both(text), "{n} moves");
    }
}

#[test]
fn times_and_half_moves_take_native_numbers() {
    for (n, times, halfmoves) in [
        (1, "한 번", "반수 한 개"),
        (2, "두 번", "반수 두 개"),
        (3, "세 번", "반수 세 개"),
        (4, "네 번", "반수 네 개"),
        (5, "다섯 번", "반수 다섯 개"),
        (11, "열한 번", "반수 열한 개"),
        (12, "열두 번", "반수 열두 개"),
        (21, "스물한 번", "반수 스물한 개"),
        (22, "스물두 번", "반수 스물두 개"),
        (25, "스물다섯 번", "반수 스물다섯 개"),
        (50, "쉰 번", "반수 쉰 개"),
    ] {
        assert_eq!(count(PluralStem::CountTimes, n), both(times), "{n} times");
        assert_eq!(
            count(PluralStem::CountHalfmoves, n),
            both(halfmoves),
            "{n} half-moves"
        );
    }
    // From 100 on a speaker says the Sino-Korean number: the digits stay.
    assert_eq!(count(PluralStem::CountHalfmoves, 101), both("반수 101개"));
}

#[test]
fn a_time_in_words_has_native_hours_and_sino_korean_minutes() {
    let b = book();
    let t = |secs: u64| b.duration(Duration::from_secs(secs), Verbosity::Full);
    let u = t(3600 + 40 * 60);
    assert_eq!((u.display, u.spoken), both("한 시간 40분"));
    let u = t(2 * 3600 + 5 * 60);
    assert_eq!((u.display, u.spoken), both("두 시간 5분"));
    let u = t(12 * 3600 + 3);
    assert_eq!((u.display, u.spoken), both("열두 시간 3초"));
}

#[test]
fn particles_follow_the_native_number() {
    let l = ko();
    let b = book();
    let hour = b.duration(Duration::from_secs(3600), Verbosity::Full);
    assert_eq!(
        l.message(
            MsgKey::ClockTimeUsed,
            &[("side", "백"), ("time", &hour.display)]
        ),
        "백은 한 시간을 썼습니다."
    );
    let two = b.duration(Duration::from_secs(2 * 3600), Verbosity::Full);
    assert_eq!(
        l.message(
            MsgKey::ClockPeriodReached,
            &[("side", "백"), ("time", &two.spoken)]
        ),
        "백: 시간 통제에 도달해 두 시간이 추가되었습니다."
    );
    let (times, _) = count(PluralStem::CountTimes, 2);
    let (halfmoves, _) = count(PluralStem::CountHalfmoves, 3);
    let (minutes, _) = count(PluralStem::TimeMinutes, 2);
    assert_eq!(
        l.message(
            MsgKey::UiClaimRejected,
            &[
                ("side", "백"),
                ("opponent", "흑"),
                ("repetitions", &times),
                ("halfmoves", &halfmoves),
                ("minutes", &minutes),
            ]
        ),
        "백의 무승부 주장 기각: 국면이 두 번 나타났고, \
         마지막 폰 이동이나 잡기 이후 반수 세 개가 두어졌습니다. \
         흑에게 2분이 추가됩니다."
    );
    let (one_move, _) = clock_count(Unit::Moves, 1);
    assert_eq!(
        l.message(MsgKey::ClockMovesToControl, &[("moves", &one_move)]),
        "시간 통제까지 한 수."
    );
}

#[test]
fn bare_counts_before_a_native_counter_are_native() {
    let l = ko();
    let m = |key: MsgKey, args: &[(&str, &str)]| l.message(key, args);
    assert_eq!(
        m(
            MsgKey::ReviewRecent,
            &[("count", "3"), ("moves", "e4 e5 Nf3")]
        ),
        "마지막 수 세 개: e4 e5 Nf3."
    );
    assert_eq!(
        m(MsgKey::ReviewScoreMate, &[("side", "백"), ("moves", "2")]),
        "백이 두 수 만에 체크메이트합니다"
    );
    assert!(
        m(MsgKey::ReviewOpened, &[("count", "22")]).contains("반수 스물두 개,"),
        "{}",
        m(MsgKey::ReviewOpened, &[("count", "22")])
    );
    assert_eq!(
        m(
            MsgKey::ReviewNoSuchGame,
            &[("file", "a.pgn"), ("count", "2"), ("game", "5")]
        ),
        "a.pgn에는 대국이 두 개뿐이라 5번 대국은 없습니다: --game에 1부터 2까지 주세요."
    );
    assert_eq!(
        m(
            MsgKey::ErrorPgnUnterminated,
            &[("file", "a.pgn"), ("game", "1"), ("moves", "12")]
        ),
        "a.pgn, 첫 번째 대국: 끝에 결과가 없어 파일이 잘렸을 수 있습니다. 열두 수를 읽었습니다."
    );
    assert_eq!(
        m(
            MsgKey::DurationTooLong,
            &[("position", "4"), ("hours", "24")]
        ),
        "위치 4부터의 시간이 annabella가 받는 최대치인 스물네 시간보다 깁니다"
    );
    assert_eq!(
        m(
            MsgKey::ControlPeriodTooLong,
            &[("period", "2"), ("hours", "24")]
        ),
        "두 번째 구간이 스물네 시간보다 깁니다"
    );
    assert_eq!(
        m(
            MsgKey::ControlTooManyPeriods,
            &[("count", "11"), ("max", "10")]
        ),
        "구간이 너무 많습니다(열한 개). 최대 열 개까지 허용됩니다"
    );
    assert_eq!(
        m(
            MsgKey::JournalResumed,
            &[("file", "a.jsonl"), ("events", "5"), ("state", "")]
        ),
        "a.jsonl에서 재개했습니다: 사건 다섯 개를 다시 적용했습니다. "
    );
    assert_eq!(
        m(MsgKey::WavChannels, &[("channels", "6"), ("max", "2")]),
        "채널이 여섯 개인데 annabella는 1~2개만 읽습니다"
    );
}

#[test]
fn ordinals_with_beonjjae_are_native() {
    let l = ko();
    for (n, text) in [
        ("1", "백의 첫 번째 수"),
        ("2", "백의 두 번째 수"),
        ("3", "백의 세 번째 수"),
        ("4", "백의 네 번째 수"),
        ("5", "백의 다섯 번째 수"),
        ("11", "백의 열한 번째 수"),
        ("12", "백의 열두 번째 수"),
        ("20", "백의 스무 번째 수"),
        ("21", "백의 스물한 번째 수"),
        ("22", "백의 스물두 번째 수"),
        ("25", "백의 스물다섯 번째 수"),
    ] {
        assert_eq!(
            l.message(MsgKey::MirrorUpTo, &[("side", "백"), ("number", n)]),
            text
        );
    }
    assert_eq!(
        l.message(
            MsgKey::ReviewClock,
            &[("number", "31"), ("side", "흑"), ("time", "5분")]
        ),
        "서른한 번째 수 뒤 흑의 시계: 5분."
    );
}

/// A line, a column or a place in a text is a label read Sino-Korean
/// (2행, 위치 4: 이 행, 위치 사), not "the 2nd line" with digits that
/// espeak-ng reads 이 번째.
#[test]
fn lines_and_positions_are_sino_korean_labels() {
    let l = ko();
    assert_eq!(
        l.message(MsgKey::PlayLineError, &[("line", "2"), ("error", "x")]),
        "2행: x"
    );
    assert_eq!(
        l.message(
            MsgKey::LocaleSyntax,
            &[("file", "ko.toml"), ("line", "12"), ("column", "3")]
        ),
        "ko.toml, 12행, 3열: 올바른 TOML이 아닙니다. 그곳의 따옴표, 괄호, = 기호를 확인하세요. 형식은 locales/en.toml에 있습니다."
    );
    assert_eq!(
        l.message(
            MsgKey::JournalTornRead,
            &[("file", "a.jsonl"), ("line", "7"), ("last", "e4")]
        ),
        "저널 a.jsonl이 끝나지 않은 7행으로 끝납니다(쓰는 도중에 프로그램이 멈췄습니다). \
         그 줄은 무시합니다. 마지막 정상 수: e4. 대국을 계속하려면 실행하세요: annabella resume a.jsonl"
    );
    assert_eq!(
        l.message(MsgKey::DurationUnitOrder, &[("position", "5")]),
        "위치 5의 단위가 반복되었거나 순서가 틀렸습니다. 1h30m처럼 시간부터 밀리초까지 한 번씩 쓰세요"
    );
}

/// Liveness: what was right stays right (these pass before the change
/// too): Sino-Korean 분/초, 0 and numbers from 100 on, labels with 번.
#[test]
fn sino_korean_numbers_and_labels_keep_their_digits() {
    assert_eq!(clock_count(Unit::Minutes, 2), both("2분"));
    assert_eq!(clock_count(Unit::Seconds, 21), both("21초"));
    assert_eq!(clock_count(Unit::Hours, 101), both("101시간"));
    assert_eq!(clock_count(Unit::Moves, 100), both("100수"));
    assert_eq!(clock_count(Unit::Moves, 0), both("0수"));
    assert_eq!(count(PluralStem::CountTimes, 101), both("101번"));
    let l = ko();
    assert_eq!(
        l.message(MsgKey::MirrorUpTo, &[("side", "흑"), ("number", "101")]),
        "흑의 101번째 수"
    );
    assert_eq!(
        l.message(MsgKey::UiBadChoice, &[("number", "2"), ("max", "3")]),
        "2번 선택지는 없습니다. 1부터 3까지의 번호를 입력하거나 수를 다시 입력하세요."
    );
    assert_eq!(
        l.message(
            MsgKey::ReviewScoreAhead,
            &[("side", "백"), ("pawns", "1.5")]
        ),
        "백이 폰 1.5개만큼 앞섭니다"
    );
}
