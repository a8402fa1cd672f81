//! The `play` script: the text form of game commands, one per line, with
//! injected game time (`time 12.5`). Scripts drive the game exactly as the
//! other front ends do, which makes every game reproducible.

use std::time::Duration;

use super::{Command, Side};
use crate::commands::{Cmd, Example, TABLE, Verbs};
use crate::locale::Locale;
use crate::locale::MsgKey;
use crate::mirror::{ClaimGrounds, Mirror, QUICKPLAY_OPPONENT_TIME};
use crate::vocab::Utterance;

/// The line grammar, shown by `annabella play --help`: every script row
/// of the [command table](crate::commands::table), with its help line in
/// `locale`'s words.
pub fn grammar(locale: &Locale) -> String {
    let mut out = locale.message(MsgKey::ScriptGrammarIntro, &[]);
    for row in TABLE.iter().filter(|r| r.in_script()) {
        let (before, after) = row.script_args;
        let syntax = row
            .script
            .iter()
            .map(|s| format!("{before}{s}{after}"))
            .collect::<Vec<_>>()
            .join(" | ");
        let help = locale.message(row.help, &[]);
        if syntax.chars().count() < 30 {
            out.push_str(&format!("\n  {syntax:<30}{help}"));
        } else {
            out.push_str(&format!("\n  {syntax}\n  {:<30}{help}", ""));
        }
    }
    out
}

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

/// How the script names its commands in messages (its own syntax: the
/// table's first script spelling, with the table's example arguments).
#[derive(Debug, Clone, Copy, Default)]
pub struct ScriptVerbs;

impl Verbs for ScriptVerbs {
    fn verb(&self, cmd: Cmd) -> Utterance {
        let row = cmd.row();
        let mut text = row.script.first().copied().unwrap_or(row.name).to_owned();
        for arg in row.example {
            text.push_str(match arg {
                Example::White => " white",
                Example::TwoMinutes => " 2m",
                Example::Move => ": MOVE",
            });
        }
        Utterance::plain(text)
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

/// The script command a line's words start with (the longest script
/// spelling of the table that the words begin with) and how many words it
/// takes.
fn find(words: &[&str]) -> Option<(Cmd, usize)> {
    TABLE
        .iter()
        .flat_map(|r| r.script.iter().map(move |s| (r.cmd, s)))
        .filter_map(|(cmd, s)| {
            let spelled: Vec<&str> = s.split_whitespace().collect();
            words.starts_with(&spelled).then_some((cmd, spelled.len()))
        })
        .max_by_key(|(_, n)| *n)
}

/// Parses one script line; the error is a message key for the reason.
///
/// A line is `[white|black] SPELLING [ARGS] [: TEXT]` or `arbiter:
/// SPELLING ARGS`, where SPELLING is a script spelling of the command
/// table; what each command takes after it is read here.
pub fn parse_line(raw: &str, mirror: &Mirror) -> Result<Step, MsgKey> {
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
    // The arbiter's lines: "arbiter: VERB ARGS" (the rest is words, not text).
    let (lowered, rest) = match rest {
        Some(r) if head == "arbiter" => (format!("arbiter: {}", r.to_lowercase()), None),
        _ => (head, rest),
    };
    let words: Vec<&str> = lowered.split_whitespace().collect();
    let (side, words): (Option<Side>, &[&str]) = match words.split_first() {
        Some((w, more)) if side_word(w).is_some() && !more.is_empty() => (side_word(w), more),
        _ => (None, &words[..]),
    };
    let (cmd, n) = find(words).ok_or(MsgKey::PlayUnknownCommand)?;
    if cmd == Cmd::Claim && words.len() > n && rest.is_none() {
        // `claim MOVE`, as `claim: MOVE`: the move he wrote on his
        // scoresheet and intends to make (9.2.1.1, 9.3.1), in its own
        // spelling; words that are no move are no command.
        let written = written_after_claim(line)
            .filter(|t| reads_as_move(mirror, t))
            .ok_or(MsgKey::PlayUnknownCommand)?;
        return command(cmd, side, &[], Some(&written), mirror);
    }
    command(cmd, side, &words[n..], rest, mirror)
}

/// The step of script command `cmd` given with `side`, the words after its
/// spelling (`args`) and the text after the colon (`rest`).
fn command(
    cmd: Cmd,
    side: Option<Side>,
    args: &[&str],
    rest: Option<&str>,
    mirror: &Mirror,
) -> Result<Step, MsgKey> {
    let mover = Side::from(mirror.mover());
    // The player having the move: whose clock runs (after a press, the
    // opponent's, before he executes the move on his board).
    let to_move = mirror.clock().to_move().map_or(mover, Side::from);
    let text = || rest.filter(|r| !r.is_empty()).map(str::to_owned);
    let need = || text().ok_or(MsgKey::PlayMissingMove);
    let none = |args: &[&str]| {
        if args.is_empty() {
            Ok(())
        } else {
            Err(MsgKey::PlayUnknownCommand)
        }
    };
    let arg_side = |w: Option<&&str>| w.and_then(|w| side_word(w)).ok_or(MsgKey::PlayBadSide);
    let answerer =
        || side.unwrap_or_else(|| mirror.draw_offer().map(|c| Side::from(!c)).unwrap_or(mover));
    let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    let event = match cmd {
        Cmd::Board | Cmd::Write => {
            none(args)?;
            let side = side.ok_or(MsgKey::PlayBadSide)?;
            let text = need()?;
            if cmd == Cmd::Board {
                Command::Board {
                    side,
                    text,
                    uci: None,
                }
            } else {
                Command::Sheet { side, text }
            }
        }
        Cmd::Announce => {
            none(args)?;
            Command::Announce { text: text() }
        }
        Cmd::Press => {
            none(args)?;
            Command::Press
        }
        Cmd::RepeatMove => {
            none(args)?;
            Command::Repeat { text: text() }
        }
        Cmd::TakeBack => {
            none(args)?;
            Command::TakeBack
        }
        Cmd::Draw => {
            none(args)?;
            Command::OfferDraw {
                side: side.unwrap_or(mover),
            }
        }
        Cmd::Accept | Cmd::Decline => {
            none(args)?;
            Command::AnswerDraw {
                side: answerer(),
                accept: cmd == Cmd::Accept,
            }
        }
        Cmd::Resign => {
            none(args)?;
            Command::Resign {
                side: side.unwrap_or(mover),
            }
        }
        Cmd::Claim => {
            none(args)?;
            Command::Claim {
                side: side.unwrap_or(mover),
                text: text(),
            }
        }
        Cmd::RequestIncrement => {
            none(args)?;
            Command::RequestIncrement {
                side: side.unwrap_or(to_move),
            }
        }
        Cmd::ClaimCannotWin | Cmd::ClaimNoEffort => {
            let first = if cmd == Cmd::ClaimCannotWin {
                "cannot win"
            } else {
                "no effort"
            };
            let mut grounds = vec![first];
            grounds.extend_from_slice(args);
            Command::ClaimQuickplay {
                side: side.unwrap_or(to_move),
                grounds: claim_grounds(&grounds).ok_or(MsgKey::PlayUnknownCommand)?,
            }
        }
        Cmd::Present => match (side, args) {
            (s, []) => Command::Present { side: s },
            (None, [w]) => Command::Present {
                side: Some(arg_side(Some(w))?),
            },
            _ => return Err(MsgKey::PlayUnknownCommand),
        },
        Cmd::Absent => match (side, args) {
            (Some(s), []) => Command::Absent { side: s },
            (None, [w]) => Command::Absent {
                side: arg_side(Some(w))?,
            },
            (None, []) => return Err(MsgKey::PlayBadSide),
            _ => return Err(MsgKey::PlayUnknownCommand),
        },
        Cmd::Touch => {
            none(args)?;
            Command::Touch {
                side: side.unwrap_or(mover),
                square: need()?.to_lowercase(),
            }
        }
        Cmd::OpenSeal => {
            none(args)?;
            Command::OpenSeal
        }
        Cmd::Seal => {
            none(args)?;
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
        Cmd::Correct => {
            none(args)?;
            Command::Correct
        }
        Cmd::Pause => {
            none(args)?;
            Command::Pause
        }
        Cmd::Resume => {
            none(args)?;
            Command::Resume
        }
        Cmd::Penalty => match args {
            [s] => Command::Penalty {
                side: arg_side(Some(s))?,
            },
            _ => return Err(MsgKey::PlayUnknownCommand),
        },
        Cmd::GrantIncrement | Cmd::RefuseIncrement => {
            none(args)?;
            Command::DecideIncrement {
                grant: cmd == Cmd::GrantIncrement,
            }
        }
        Cmd::Agree => {
            none(args)?;
            Command::UpholdClaim
        }
        Cmd::Reject => {
            none(args)?;
            Command::RejectClaim
        }
        Cmd::Postpone => match args {
            [] => Command::PostponeClaim { two_minutes: false },
            [amount] => match parse_duration(amount) {
                Some(d) if d == QUICKPLAY_OPPONENT_TIME => {
                    Command::PostponeClaim { two_minutes: true }
                }
                _ => return Err(MsgKey::PlayQuickplayTwoMinutes),
            },
            _ => return Err(MsgKey::PlayUnknownCommand),
        },
        Cmd::DecideDraw | Cmd::DecideLoss => {
            none(args)?;
            Command::DecideAfterFlag {
                draw: cmd == Cmd::DecideDraw,
            }
        }
        Cmd::Excuse => match args {
            [s] => Command::Excuse {
                side: arg_side(Some(s))?,
            },
            _ => return Err(MsgKey::PlayUnknownCommand),
        },
        Cmd::Default => match args {
            [amount] => Command::DefaultTime {
                ms: parse_duration(amount)
                    .map(millis)
                    .ok_or(MsgKey::PlayBadTime)?,
            },
            _ => return Err(MsgKey::PlayUnknownCommand),
        },
        Cmd::Add | Cmd::Remove | Cmd::Set => match args {
            [s, amount] => {
                let side = arg_side(Some(s))?;
                let ms = parse_duration(amount)
                    .map(millis)
                    .ok_or(MsgKey::PlayBadTime)?;
                match cmd {
                    Cmd::Set => Command::SetTime { side, ms },
                    _ => Command::Adjust {
                        side,
                        ms,
                        add: cmd == Cmd::Add,
                    },
                }
            }
            _ => return Err(MsgKey::PlayUnknownCommand),
        },
        Cmd::Time => {
            none(args)?;
            return Ok(Step::Clock);
        }
        Cmd::Status => {
            none(args)?;
            return Ok(Step::Status);
        }
        Cmd::GameTime | Cmd::Sleep => {
            let ([arg], None) = (args, side) else {
                return Err(MsgKey::PlayUnknownCommand);
            };
            let (relative, arg) = match arg.strip_prefix('+') {
                Some(a) => (true, a),
                None => (false, *arg),
            };
            if cmd == Cmd::Sleep {
                let ms: u64 = arg.parse().map_err(|_| MsgKey::PlayBadTime)?;
                return Ok(Step::Sleep(Duration::from_millis(ms)));
            }
            let at = parse_duration(arg).ok_or(MsgKey::PlayBadTime)?;
            return Ok(Step::Time { at, relative });
        }
        // Commands of the play screen and of the voice only.
        _ => return Err(MsgKey::PlayUnknownCommand),
    };
    Ok(Step::Command(event))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mirror::Config;
    use crate::vocab::Vocabulary;

    /// The command a parsed script line gives.
    fn cmd_of(step: &Step) -> Option<Cmd> {
        match step {
            Step::Command(c) => c.cmd(),
            Step::Clock => Some(Cmd::Time),
            Step::Status => Some(Cmd::Status),
            Step::Time { .. } => Some(Cmd::GameTime),
            Step::Sleep(_) => Some(Cmd::Sleep),
            Step::Empty => None,
        }
    }

    /// Every spelling of every script row of the command table, with
    /// sample arguments for its pattern, is read as that command: what the
    /// script's help lists, the script understands.
    #[test]
    fn every_script_row_of_the_table_is_understood_as_itself() {
        let vocab = Vocabulary::builtin("en").unwrap();
        let m = Mirror::new(vocab, Config::default(), Duration::ZERO);
        let sample = |pattern: &str| {
            pattern
                .replace("[white|black] ", "")
                .replace("white|black ", "white ")
                .replace(" white|black TIME", " white 2m")
                .replace(" white|black", " white")
                .replace(": MOVE [@ date, time and place]", ": e4")
                .replace(" [: MOVE]", "")
                .replace(": MOVE", ": e4")
                .replace(": SQUARE", ": e2")
                .replace(": ENTRY", ": e4")
                .replace(" [and no effort]", "")
                .replace(" [2m]", "")
                .replace(" SECONDS|+SECONDS", " 5")
                .replace(" MILLISECONDS", " 1")
                .replace(" TIME", " 30m")
        };
        let mut rows = 0;
        for row in TABLE.iter().filter(|r| r.in_script()) {
            rows += 1;
            for spelling in row.script {
                let (before, after) = row.script_args;
                let line = sample(&format!("{before}{spelling}{after}"));
                assert!(!line.contains(['[', '|']), "no sample for {line:?}");
                let step = parse_line(&line, &m);
                assert_eq!(
                    step.as_ref().ok().and_then(cmd_of),
                    Some(row.cmd),
                    "{line:?} gave {step:?}"
                );
            }
        }
        assert!(rows > 30, "{rows} script rows");
        // The script's help lists every script row, and only those.
        let en = crate::locale::builtin("en").unwrap();
        let help = grammar(&en);
        for row in TABLE {
            let line = en.message(row.help, &[]);
            assert_eq!(
                help.contains(&line),
                row.in_script(),
                "{:?} in the script's help",
                row.cmd
            );
            assert!(row.script.iter().all(|s| help.contains(s)), "{:?}", row.cmd);
        }
    }

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
        assert_eq!(p("absent"), Err(MsgKey::PlayBadSide));
        assert_eq!(p("absent green"), Err(MsgKey::PlayBadSide));
        assert_eq!(
            p("arbiter: default time 30m"),
            Ok(Step::Command(Command::DefaultTime { ms: 1_800_000 }))
        );
        assert_eq!(
            p("arbiter: excuse black"),
            Ok(Step::Command(Command::Excuse { side: Side::Black }))
        );
        assert_eq!(p("board: e4"), Err(MsgKey::PlayBadSide));
        assert_eq!(p("white board:"), Err(MsgKey::PlayMissingMove));
        assert_eq!(p("dance"), Err(MsgKey::PlayUnknownCommand));
        assert_eq!(p("arbiter: add green 2m"), Err(MsgKey::PlayBadSide));
    }
}
