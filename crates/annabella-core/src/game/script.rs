//! The `play` script: the text form of game commands, one per line, with
//! injected game time (`time 12.5`). Scripts drive the game exactly as the
//! other front ends do, which makes every game reproducible.

use std::time::Duration;

use super::{Command, Side, Verb, Verbs};
use crate::mirror::{ClaimGrounds, Mirror, QUICKPLAY_OPPONENT_TIME};
use crate::vocab::Utterance;

/// The line grammar, shown by `annabella play --help`.
pub const GRAMMAR: &str = "\
Script lines (one event per line; '#' starts a comment; MOVE is algebraic \
notation, coordinates or the locale's words):
  white board: MOVE       a move made on White's board (the mover's own move,
  black board: MOVE       or the repetition of the opponent's move)
  announce [: MOVE]       the mover announces (what was said, if it differs:
                          a slip of the tongue, corrected by announcing again)
  press                   the mover presses the clock (completes the move)
  [white|black] repeat [: MOVE]   the opponent repeats the move aloud
  takeback                the mover takes back a move not yet completed
  white sheet: ENTRY      an entry on White's scoresheet (next line; both
  black sheet: ENTRY      players' moves); end it with (=) for a draw offer
  [white|black] offer draw | accept draw | decline draw | resign
  [white|black] claim [: MOVE]   the player to move claims a draw (threefold
                          repetition, 50 moves; 9.2, 9.3); MOVE (or 'claim
                          MOVE'): the move he wrote on his scoresheet and
                          intends to make, not made (9.2.1.1, 9.3.1)
  time SECONDS | time +SECONDS    set / advance the game time (12.5, 2m, 1:30)
  sleep MILLISECONDS      pause (real time; not saved)
  clock | status          say the clocks / the state (not saved)
  arbiter: correct        correct boards and scoresheets (FIDE D.2.9)
  arbiter: add white 2m | arbiter: remove black 30s | arbiter: set white 1:10:00
  arbiter: pause | arbiter: resume     stop / restart the clock (6.11)
  arbiter: penalty white  an illegal move completed by White (7.5)
  [white|black] touch: SQUARE   the assistant reports that the player
                          touched the piece there (D.2.10.5, Art. 4.3)
Adjournment (FIDE Guideline I):
  seal: MOVE [@ date, time and place of resumption]   the player to move
                          writes his sealed move (secret); seal again to
                          change it; then 'press' stops the clock and closes
                          the envelope (I.1.1)
  [white|black] present   at resumption: present (no side: the player who
  arrived white|black     must answer the sealed move); 'arrived' after an
                          absence (I.9)
  absent white|black      at resumption: absent; his clock runs while he
                          must answer a sealed move (I.9.2; I.9.3: once the
                          reply to his sealed move is sealed)
  open seal               open the envelope and play the sealed move (I.7,
                          I.8, I.9)
  arbiter: default time 1h   the event's default time (zero unless set): a
                          player absent longer loses (I.10)
  arbiter: excuse white   the arbiter lets White arrive later (I.10)
  (offer draw, accept draw, decline draw and resign work while adjourned:
  I.4, I.6)
Guideline III (games without increment; announced with --quickplay, not in
blitz, in the last period, with less than two minutes left):
  [white|black] request increment   the player having the move asks for 5
                          seconds per move for both players (III.4); this is
                          also a draw offer: accept draw | decline draw
  arbiter: grant increment | arbiter: refuse increment   after the draw offer
                          was declined (granted: the opponent gets 2 minutes)
  [white|black] claim cannot win | claim no effort | claim cannot win and no effort
                          a draw claim by the player having the move (III.5);
                          the clock stops until the arbiter decides. With
                          --unsupervised it ends the game, result for the
                          appointed arbiter (III.6)
  arbiter: agree          III.5.1: the claim is right, the game is drawn
  arbiter: postpone [2m]  III.5.2: decide later (2m: the opponent gets two
                          minutes); the game goes on
  arbiter: reject         III.5.3: the opponent gets two minutes
  arbiter: decide draw | arbiter: decide loss   III.5.2: after a flag fell
                          with the claim pending, the arbiter's result";

/// One parsed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A game command (saved).
    Command(Command),
    /// Set or advance the game time.
    Time {
        /// The time or the amount.
        at: Duration,
        /// `+` form.
        relative: bool,
    },
    /// Real pause.
    Sleep(Duration),
    /// Say the clocks.
    Clock,
    /// Say the state.
    Status,
    /// Blank or comment.
    Empty,
}

/// How the script names its commands in messages (its own syntax).
#[derive(Debug, Clone, Copy, Default)]
pub struct ScriptVerbs;

impl Verbs for ScriptVerbs {
    fn verb(&self, verb: Verb) -> Utterance {
        Utterance::plain(match verb {
            Verb::Announce => "announce",
            Verb::Press => "press",
            Verb::TakeBack => "takeback",
            Verb::Correct => "arbiter: correct",
            Verb::AddTime => "arbiter: add white 2m",
            Verb::Present => "present",
            Verb::Seal => "seal: MOVE",
            Verb::OpenSeal => "open seal",
            Verb::Resume => "arbiter: resume",
            Verb::Accept => "accept draw",
            Verb::Decline => "decline draw",
            Verb::Claim => "claim",
            Verb::RequestIncrement => "request increment",
            Verb::GrantIncrement => "arbiter: grant increment",
            Verb::RefuseIncrement => "arbiter: refuse increment",
            Verb::Agree => "arbiter: agree",
            Verb::Postpone => "arbiter: postpone 2m",
            Verb::Reject => "arbiter: reject",
            Verb::DecideDraw => "arbiter: decide draw",
            Verb::DecideLoss => "arbiter: decide loss",
        })
    }
}

fn side_word(w: &str) -> Option<Side> {
    match w {
        "white" | "w" => Some(Side::White),
        "black" | "b" => Some(Side::Black),
        _ => None,
    }
}

/// The grounds of a Guideline III claim: `cannot win`, `no effort`, or
/// both (joined by `and` or a comma).
fn claim_grounds(words: &[&str]) -> Option<ClaimGrounds> {
    let text = words.join(" ").replace(',', " ");
    let cannot_win = text.contains("cannot win");
    let no_effort = text.contains("no effort");
    let rest = text
        .replace("cannot win", " ")
        .replace("no effort", " ")
        .replace(" and ", " ");
    if !rest.trim().is_empty() {
        return None;
    }
    match (cannot_win, no_effort) {
        (true, true) => Some(ClaimGrounds::Both),
        (true, false) => Some(ClaimGrounds::CannotWin),
        (false, true) => Some(ClaimGrounds::NoEffort),
        (false, false) => None,
    }
}

/// `text` describes a move (legal or not) in the game's position.
fn reads_as_move(mirror: &Mirror, text: &str) -> bool {
    use crate::vocab::ParseError;
    let pos = mirror.game().position();
    matches!(
        mirror.vocab().parse(pos, mirror.config().mode, text),
        Ok(_) | Err(ParseError::Illegal(_) | ParseError::Ambiguous(_))
    )
}

/// The move text after the word `claim` (or `claims`) of `line`, in its
/// own spelling.
fn written_after_claim(line: &str) -> Option<String> {
    let lower = line.to_lowercase();
    let at = ["claims ", "claim "]
        .iter()
        .find_map(|w| lower.find(w).map(|i| i + w.len()))?;
    let rest = line.get(at..)?.trim();
    (!rest.is_empty()).then(|| rest.to_owned())
}

/// Parses a duration: `12.5` (seconds), `500ms`, `30s`, `2m`, `1h30m`,
/// `1:30` (m:ss), `1:02:03` (h:mm:ss); at most 1000 hours. The one duration
/// grammar is [`crate::clock::parse_duration`], whose typed error says why.
pub fn parse_duration(s: &str) -> Option<Duration> {
    crate::clock::parse_duration(s).ok()
}

/// Parses one script line; the error is a message key for the reason.
pub fn parse_line(raw: &str, mirror: &Mirror) -> Result<Step, &'static str> {
    let line = raw.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return Ok(Step::Empty);
    }
    let (head, rest) = match line.split_once(':') {
        // "1:30" in "time 1:30" is not a head separator.
        Some((h, r))
            if !h.trim_start().starts_with("time") && !h.trim_start().starts_with("sleep") =>
        {
            (h.trim().to_lowercase(), Some(r.trim()))
        }
        _ => (line.to_lowercase(), None),
    };
    let words: Vec<&str> = head.split_whitespace().collect();
    let mover = Side::from(mirror.mover());
    // The player having the move: whose clock runs (after a press, the
    // opponent's, before he executes the move on his board).
    let to_move = mirror.clock().to_move().map_or(mover, Side::from);
    let text = || rest.filter(|r| !r.is_empty()).map(str::to_owned);
    let need = || text().ok_or("play.missing_move");
    let (side, cmd): (Option<Side>, &[&str]) = match words.split_first() {
        Some((w, more)) if side_word(w).is_some() && !more.is_empty() => (side_word(w), more),
        _ => (None, &words[..]),
    };
    let event = match (cmd, side) {
        (["board"], Some(s)) => Command::Board {
            side: s,
            text: need()?,
            uci: None,
        },
        (["sheet"], Some(s)) => Command::Sheet {
            side: s,
            text: need()?,
        },
        (["board"] | ["sheet"], None) => return Err("play.bad_side"),
        (["announce"], _) => Command::Announce { text: text() },
        (["press"], _) => Command::Press,
        (["repeat"], _) => Command::Repeat { text: text() },
        (["takeback"] | ["take", "back"], _) => Command::TakeBack,
        (["offer", "draw"] | ["offers", "draw"], s) => Command::OfferDraw {
            side: s.unwrap_or(mover),
        },
        (["accept", "draw"] | ["accepts", "draw"], s) => Command::AnswerDraw {
            side: s.unwrap_or_else(|| mirror.draw_offer().map(|c| Side::from(!c)).unwrap_or(mover)),
            accept: true,
        },
        (["decline", "draw"] | ["declines", "draw"], s) => Command::AnswerDraw {
            side: s.unwrap_or_else(|| mirror.draw_offer().map(|c| Side::from(!c)).unwrap_or(mover)),
            accept: false,
        },
        (["resign"] | ["resigns"], s) => Command::Resign {
            side: s.unwrap_or(mover),
        },
        (["claim"] | ["claims"] | ["claim", "draw"] | ["claims", "draw"], s) => Command::Claim {
            side: s.unwrap_or(mover),
            text: text(),
        },
        (["request" | "requests", "increment"], s) => Command::RequestIncrement {
            side: s.unwrap_or(to_move),
        },
        ([first, grounds @ ..], s) if matches!(*first, "claim" | "claims") => {
            match claim_grounds(grounds) {
                Some(grounds) => Command::ClaimQuickplay {
                    side: s.unwrap_or(to_move),
                    grounds,
                },
                // `claim MOVE`: a draw claim on the move written on the
                // scoresheet (9.2.1.1, 9.3.1), as `claim: MOVE`; words that
                // are no move are no command.
                None => Command::Claim {
                    side: s.unwrap_or(mover),
                    text: Some(
                        written_after_claim(line)
                            .filter(|t| reads_as_move(mirror, t))
                            .ok_or("play.unknown_command")?,
                    ),
                },
            }
        }
        (["present"] | ["arrived"], s) => Command::Present { side: s },
        (["present" | "arrived", w], None) => Command::Present {
            side: Some(side_word(w).ok_or("play.bad_side")?),
        },
        (["absent"], Some(s)) => Command::Absent { side: s },
        (["absent", w], None) => Command::Absent {
            side: side_word(w).ok_or("play.bad_side")?,
        },
        (["absent"], None) => return Err("play.bad_side"),
        (["touch"] | ["touches"], s) => Command::Touch {
            side: s.unwrap_or(mover),
            square: need()?.to_lowercase(),
        },
        (["open", "seal"], _) => Command::OpenSeal,
        (["seal"], _) => {
            let t = need()?;
            let (mv, when) = match t.split_once('@') {
                Some((m, w)) => (m.trim().to_owned(), w.trim().to_owned()),
                None => (t, String::new()),
            };
            Command::Seal {
                text: mv,
                resumption: when,
            }
        }
        (["arbiter"], None) => {
            let r = rest.unwrap_or("").to_lowercase();
            let parts: Vec<&str> = r.split_whitespace().collect();
            match parts.as_slice() {
                ["correct"] => Command::Correct,
                ["pause"] => Command::Pause,
                ["resume"] => Command::Resume,
                ["penalty", s] => Command::Penalty {
                    side: side_word(s).ok_or("play.bad_side")?,
                },
                [verb @ ("grant" | "refuse"), "increment"] => Command::DecideIncrement {
                    grant: *verb == "grant",
                },
                ["agree"] | ["agree", "claim"] => Command::UpholdClaim,
                ["reject"] | ["reject", "claim"] => Command::RejectClaim,
                ["postpone"] => Command::PostponeClaim { two_minutes: false },
                ["postpone", amount] => match parse_duration(amount) {
                    Some(d) if d == QUICKPLAY_OPPONENT_TIME => {
                        Command::PostponeClaim { two_minutes: true }
                    }
                    _ => return Err("play.quickplay_two_minutes"),
                },
                ["decide", verdict @ ("draw" | "loss")] => Command::DecideAfterFlag {
                    draw: *verdict == "draw",
                },
                ["excuse", s] => Command::Excuse {
                    side: side_word(s).ok_or("play.bad_side")?,
                },
                ["default", "time", amount] => Command::DefaultTime {
                    ms: parse_duration(amount)
                        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
                        .ok_or("play.bad_time")?,
                },
                [op @ ("add" | "remove" | "set"), s, amount] => {
                    let side = side_word(s).ok_or("play.bad_side")?;
                    let d = parse_duration(amount).ok_or("play.bad_time")?;
                    let ms = u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
                    match *op {
                        "set" => Command::SetTime { side, ms },
                        op => Command::Adjust {
                            side,
                            ms,
                            add: op == "add",
                        },
                    }
                }
                _ => return Err("play.unknown_command"),
            }
        }
        (["clock"], _) => return Ok(Step::Clock),
        (["status"], _) => return Ok(Step::Status),
        ([first, arg], None) if *first == "time" || *first == "sleep" => {
            let (relative, arg) = match arg.strip_prefix('+') {
                Some(a) => (true, a),
                None => (false, *arg),
            };
            if *first == "sleep" {
                let ms: u64 = arg.parse().map_err(|_| "play.bad_time")?;
                return Ok(Step::Sleep(Duration::from_millis(ms)));
            }
            let at = parse_duration(arg).ok_or("play.bad_time")?;
            return Ok(Step::Time { at, relative });
        }
        _ => return Err("play.unknown_command"),
    };
    Ok(Step::Command(event))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mirror::Config;
    use crate::vocab::Vocabulary;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("12.5"), Some(Duration::from_millis(12_500)));
        assert_eq!(parse_duration("2m"), Some(Duration::from_secs(120)));
        assert_eq!(parse_duration("1h30m"), Some(Duration::from_secs(5400)));
        assert_eq!(parse_duration("500ms"), Some(Duration::from_millis(500)));
        assert_eq!(parse_duration("1:30"), Some(Duration::from_secs(90)));
        assert_eq!(parse_duration("1:02:03"), Some(Duration::from_secs(3723)));
        assert_eq!(parse_duration("x"), None);
        assert_eq!(parse_duration("-3"), None);
        assert_eq!(parse_duration("3q"), None);
    }

    #[test]
    fn lines() {
        let vocab = Vocabulary::builtin("fide").unwrap();
        let m = Mirror::new(vocab, Config::default(), Duration::ZERO);
        let p = |s: &str| parse_line(s, &m);
        assert_eq!(
            p("white board: Springer Gustav eins Felix drei"),
            Ok(Step::Command(Command::Board {
                side: Side::White,
                text: "Springer Gustav eins Felix drei".into(),
                uci: None
            }))
        );
        assert_eq!(
            p("announce"),
            Ok(Step::Command(Command::Announce { text: None }))
        );
        assert_eq!(p("  # note"), Ok(Step::Empty));
        assert_eq!(
            p("time 1:30"),
            Ok(Step::Time {
                at: Duration::from_secs(90),
                relative: false
            })
        );
        assert_eq!(
            p("time +5"),
            Ok(Step::Time {
                at: Duration::from_secs(5),
                relative: true
            })
        );
        assert_eq!(
            p("arbiter: add white 2m"),
            Ok(Step::Command(Command::Adjust {
                side: Side::White,
                ms: 120_000,
                add: true
            }))
        );
        assert_eq!(
            p("seal: Nf3 @ 22 Nov 10:00, Hall B"),
            Ok(Step::Command(Command::Seal {
                text: "Nf3".into(),
                resumption: "22 Nov 10:00, Hall B".into()
            }))
        );
        assert_eq!(
            p("offer draw"),
            Ok(Step::Command(Command::OfferDraw { side: Side::White }))
        );
        assert_eq!(
            p("present"),
            Ok(Step::Command(Command::Present { side: None }))
        );
        for line in ["arrived black", "black arrived", "present black"] {
            assert_eq!(
                p(line),
                Ok(Step::Command(Command::Present {
                    side: Some(Side::Black)
                })),
                "{line}"
            );
        }
        for line in ["absent white", "white absent"] {
            assert_eq!(
                p(line),
                Ok(Step::Command(Command::Absent { side: Side::White })),
                "{line}"
            );
        }
        assert_eq!(p("absent"), Err("play.bad_side"));
        assert_eq!(p("absent green"), Err("play.bad_side"));
        assert_eq!(
            p("arbiter: default time 30m"),
            Ok(Step::Command(Command::DefaultTime { ms: 1_800_000 }))
        );
        assert_eq!(
            p("arbiter: excuse black"),
            Ok(Step::Command(Command::Excuse { side: Side::Black }))
        );
        assert_eq!(p("board: e4"), Err("play.bad_side"));
        assert_eq!(p("white board:"), Err("play.missing_move"));
        assert_eq!(p("dance"), Err("play.unknown_command"));
        assert_eq!(p("arbiter: add green 2m"), Err("play.bad_side"));
    }
}
