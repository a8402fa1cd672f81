//! The review table of issue 20: every message of pl, ar, el, ko and he
//! that carries a number, as the user meets it, for the numbers whose
//! plural forms differ (0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 100, 101,
//! 102). Prints Markdown (key | n | text | spoken, when it differs).
//!
//! `cargo run -p annabella-core --example number_messages > benches/results/number_messages_after.md`
//!
//! The plural phrases come from the core's own functions (`counted`,
//! `Phrasebook::count`, `Phrasebook::duration`); the messages with a count
//! or a time are filled the way their callers fill them (a plural phrase,
//! a time in words, or bare digits), with White as `{side}` and Black as
//! `{opponent}`; other placeholders (`{move}`, `{reason}`) are left as
//! they are.

use std::time::Duration;

use annabella_core::clock::talk::{Phrasebook, Verbosity, counted};
use annabella_core::locale::{self, Locale, MsgKey, PluralStem};
use annabella_core::vocab::Utterance;
use shakmaty::Color;

const LOCALES: &[&str] = &["pl", "ar", "el", "ko", "he"];
const NUMBERS: &[u64] = &[0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 100, 101, 102];

/// How a caller fills a placeholder with the number `n`.
#[derive(Clone, Copy)]
enum Fill {
    /// `n` things, the plural phrase of the stem (`count.moves`).
    Phrase(&'static str),
    /// `n` minutes as a time, every unit in words.
    Minutes,
    /// `n` seconds as a time, every unit in words.
    Seconds,
    /// The bare number (digits; the number word when spoken).
    Digits,
}

use Fill::{Digits, Minutes, Phrase, Seconds};

/// The messages with a count or a time, and how each placeholder is filled
/// (from the code that builds them: core `clock::talk`, `game::words`,
/// `game::words::quickplay`; the adapter's review, settings and errors).
const MESSAGES: &[(&str, &[(&str, Fill)])] = &[
    ("clock.time", &[("time", Minutes)]),
    ("clock.time_used", &[("time", Minutes)]),
    ("clock.time_left", &[("time", Minutes)]),
    ("clock.low_time", &[("time", Seconds)]),
    ("clock.countdown", &[("n", Digits)]),
    ("clock.countdown_spoken", &[("n", Digits)]),
    ("clock.moves", &[("moves", Phrase("count.moves"))]),
    (
        "clock.moves_to_control",
        &[("moves", Phrase("count.moves"))],
    ),
    ("clock.period_reached", &[("time", Minutes)]),
    ("clock.time_added", &[("time", Minutes)]),
    ("clock.time_removed", &[("time", Minutes)]),
    ("clock.cannot_take", &[("time", Minutes), ("left", Minutes)]),
    ("clock.increment_added", &[("time", Seconds)]),
    ("clock.increment_already", &[("time", Seconds)]),
    ("mirror.pressed", &[("time", Minutes)]),
    ("mirror.period_reached", &[("time", Minutes)]),
    (
        "mirror.clock_reading",
        &[
            ("white", Minutes),
            ("black", Minutes),
            ("white_moves", Phrase("count.moves")),
            ("black_moves", Phrase("count.moves")),
        ],
    ),
    (
        "mirror.adjust_add",
        &[("time", Minutes), ("remaining", Minutes)],
    ),
    (
        "mirror.adjust_remove",
        &[("time", Minutes), ("remaining", Minutes)],
    ),
    ("mirror.err.time_backwards", &[("time", Minutes)]),
    ("mirror.player_absent", &[("time", Minutes)]),
    ("mirror.player_absent_clock", &[("time", Minutes)]),
    ("mirror.default_time", &[("time", Minutes)]),
    (
        "penalty.illegal_move",
        &[("minutes", Phrase("time.minutes"))],
    ),
    ("claim.rejected", &[("minutes", Digits)]),
    (
        "ui.claim_rejected",
        &[
            ("repetitions", Phrase("count.times")),
            ("halfmoves", Phrase("count.halfmoves")),
            ("minutes", Phrase("time.minutes")),
        ],
    ),
    ("ui.time_added", &[("seconds", Digits)]),
    ("ui.time_removed", &[("seconds", Digits)]),
    ("ui.alarm_counted", &[("seconds", Phrase("time.seconds"))]),
    (
        "game.clock.cannot_take",
        &[("time", Minutes), ("left", Minutes)],
    ),
    (
        "quickplay.increment_requested",
        &[("seconds", Phrase("time.seconds"))],
    ),
    (
        "quickplay.increment_granted",
        &[
            ("seconds", Phrase("time.seconds")),
            ("minutes", Phrase("time.minutes")),
        ],
    ),
    (
        "quickplay.postponed",
        &[("minutes", Phrase("time.minutes"))],
    ),
    ("quickplay.rejected", &[("minutes", Phrase("time.minutes"))]),
    ("quickplay.err.not_final_period", &[("moves", Digits)]),
    ("quickplay.err.time_left", &[("time", Seconds)]),
    ("review.opened", &[("count", Digits)]),
    ("review.recent", &[("count", Digits)]),
    ("review.clock", &[("time", Minutes)]),
    ("review.move_time", &[("time", Seconds)]),
    ("review.engine_thinking", &[("time", Seconds)]),
    ("review.score_mate", &[("moves", Digits)]),
    ("review.position", &[("ply", Digits), ("plies", Digits)]),
    ("review.no_such_game", &[("count", Digits)]),
    ("error.pgn_unterminated", &[("moves", Digits)]),
    ("play.pgn_null_move", &[("count", Digits)]),
    ("duration.too_long", &[("hours", Digits)]),
    ("control.too_many_periods", &[("count", Digits)]),
    ("control.period_too_long", &[("hours", Digits)]),
    ("control.too_many_moves", &[("moves", Digits)]),
    ("control.increment_too_long", &[("minutes", Digits)]),
    ("speech.file_written", &[("seconds", Digits)]),
    ("wav.too_long", &[("seconds", Digits)]),
    ("engine.no_uciok", &[("seconds", Digits)]),
    ("engine.no_readyok", &[("seconds", Digits)]),
    ("engine.no_bestmove", &[("seconds", Digits)]),
    ("speech.no_answer", &[("seconds", Digits)]),
    ("speech.stuck", &[("seconds", Digits)]),
];

/// One locale's words, through the core's API.
struct Words {
    locale: Locale,
    book: Phrasebook,
}

impl Words {
    fn new(code: &str) -> Words {
        let locale = match locale::builtin(code) {
            Ok(l) => l,
            Err(e) => panic!("built-in locale {code}: {e}"),
        };
        let book = Phrasebook::new(locale.clone());
        Words { locale, book }
    }

    /// The plural stems of the locale data.
    fn stems(&self) -> Vec<String> {
        PluralStem::ALL
            .iter()
            .map(|s| {
                let other = s.form(annabella_core::plural::PluralCategory::Other);
                other.as_str().trim_end_matches(".other").to_owned()
            })
            .collect()
    }

    /// `n` of `stem` ("5 minut"), as the core counts it.
    fn phrase(&self, stem: &str, n: u64) -> Utterance {
        let Some(stem) = PluralStem::ALL.iter().copied().find(|s| {
            s.form(annabella_core::plural::PluralCategory::Other)
                .as_str()
                .trim_end_matches(".other")
                == stem
        }) else {
            return Utterance::plain(format!("<no stem {stem}>"));
        };
        counted(&self.locale, stem, n)
    }

    fn fill(&self, fill: Fill, n: u64) -> Utterance {
        match fill {
            Phrase(stem) => self.phrase(stem, n),
            Minutes => self
                .book
                .duration(Duration::from_secs(60 * n), Verbosity::Full),
            Seconds => self.book.duration(Duration::from_secs(n), Verbosity::Full),
            Digits => Utterance {
                display: n.to_string(),
                spoken: self.book.spoken_number(n),
            },
        }
    }

    fn side(&self, color: Color) -> Utterance {
        self.book.side(color)
    }

    /// The message `key` with `args`; `None` when the core has no such key.
    fn message(&self, key: &str, args: &[(&str, Utterance)]) -> Option<Utterance> {
        let key = MsgKey::from_key(key)?;
        let display: Vec<(&str, &str)> =
            args.iter().map(|(k, v)| (*k, v.display.as_str())).collect();
        let spoken: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.spoken.as_str())).collect();
        Some(Utterance {
            display: self.locale.message(key, &display),
            spoken: self.locale.message(key, &spoken),
        })
    }
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn row(key: &str, n: u64, u: &Utterance) {
    let spoken = if u.spoken == u.display {
        String::new()
    } else {
        cell(&u.spoken)
    };
    println!("| {key} | {n} | {} | {spoken} |", cell(&u.display));
}

fn main() {
    println!("# Messages with a number: after (issue 20)");
    println!();
    println!(
        "Generated by `cargo run -p annabella-core --example number_messages` \
         (crates/annabella-core/examples/number_messages.rs). Plural phrases \
         from the core's `counted`; times from `Phrasebook::duration` \
         (Verbosity::Full: `n` minutes or `n` seconds); messages filled as \
         their callers fill them, `{{side}}` = White, `{{opponent}}` = Black; \
         other placeholders left as written. `spoken` only when it differs \
         from the text."
    );
    for code in LOCALES {
        let w = Words::new(code);
        println!();
        println!("## {code}");
        println!();
        println!("| key | n | text | spoken |");
        println!("|---|---|---|---|");
        for stem in w.stems() {
            for &n in NUMBERS {
                row(&stem, n, &w.phrase(&stem, n));
            }
        }
        for (key, fills) in MESSAGES {
            for &n in NUMBERS {
                let mut args: Vec<(&str, Utterance)> = vec![
                    ("side", w.side(Color::White)),
                    ("opponent", w.side(Color::Black)),
                ];
                for (name, fill) in fills.iter() {
                    args.push((name, w.fill(*fill, n)));
                }
                match w.message(key, &args) {
                    Some(u) => row(key, n, &u),
                    None => {
                        println!("| {key} | {n} | (no such message) | |");
                        break;
                    }
                }
            }
        }
    }
}
