//! Commands of the play screen (pure core): what a typed (or, later,
//! spoken) line means. Command words come from the locale, as message keys
//! `ui.cmd.NAME` holding the accepted spellings separated by `|` (the first
//! is the one shown in help); the base locale's words are accepted too.

use crate::game::words::{Verb, Verbs};
use crate::locale::{self, Locale};
use crate::vocab::Utterance;
use shakmaty::Color;

/// A command of the play screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cmd {
    /// Lists what can be typed now.
    Help,
    /// Presses the clock: completes the move just made.
    Press,
    /// Takes back the move just made, before the clock is pressed (D.2.8).
    TakeBack,
    /// Both players' times.
    Time,
    /// The time of the player to move (or of the named side).
    MyTime,
    /// Moves completed by both players.
    Count,
    /// Says the last announcement again.
    Repeat,
    /// Stops annabella's speech at once (the F3 key of the full screen).
    Quiet,
    /// What is on a square.
    What,
    /// Where the pieces of a kind are.
    Where,
    /// Scans a file.
    File,
    /// Scans a rank.
    Rank,
    /// Lists all pieces of a side.
    Pieces,
    /// The last move.
    Last,
    /// Legal moves of the piece on a square.
    Legal,
    /// The scoresheet so far.
    Sheet,
    /// Offers a draw.
    Draw,
    /// Accepts a draw offer.
    Accept,
    /// Declines a draw offer.
    Decline,
    /// Claims a draw (threefold repetition, 50 moves).
    Claim,
    /// The player to move resigns (or the named side).
    Resign,
    /// Opens the arbiter menu.
    Arbiter,
    /// Arbiter: pause the clock.
    Pause,
    /// Arbiter: resume the clock.
    Resume,
    /// Arbiter: add time to a side.
    Add,
    /// Arbiter: remove time from a side.
    Remove,
    /// Arbiter: an illegal move penalty against a side (Art. 7.5).
    Penalty,
    /// Arbiter: correct the boards and scoresheets (D.2.9).
    Correct,
    /// Arbiter: set a side's remaining time.
    Set,
    /// Adjournment: the player to move seals his move (Guideline I).
    Seal,
    /// At resumption: the sealer's opponent is present.
    Present,
    /// At resumption: the sealed move is opened and played.
    OpenSeal,
    /// At resumption: a player is absent (Guideline I.9).
    Absent,
    /// Arbiter: the event's default time (Guideline I.10).
    Default,
    /// Arbiter: a player may arrive after the default time (I.10).
    Excuse,
    /// The assistant reports that the sighted player touched a piece
    /// (D.2.10.5; Art. 4.3).
    Touch,
    /// Arbiter: back to the game.
    Back,
    /// Saves the game as PGN.
    Save,
    /// The speech rate, voice and verbosity: said, changed, saved.
    Settings,
    /// Goes through the game by ear once it is over.
    Review,
    /// Quits (after confirmation).
    Quit,
    /// Yes (confirmation).
    Yes,
    /// No (confirmation).
    No,
    /// Guideline III.4: the player having the move asks for an increment
    /// of five seconds for both players (also a draw offer).
    RequestIncrement,
    /// Guideline III.5/III.6: a draw claim, the opponent cannot win by
    /// normal means.
    ClaimCannotWin,
    /// Guideline III.5/III.6: a draw claim, the opponent makes no effort
    /// to win by normal means.
    ClaimNoEffort,
    /// Arbiter, Guideline III.4: grant the increment.
    GrantIncrement,
    /// Arbiter, Guideline III.4: refuse the increment.
    RefuseIncrement,
    /// Arbiter, Guideline III.5.1: agree with the draw claim.
    Agree,
    /// Arbiter, Guideline III.5.2: postpone the decision.
    Postpone,
    /// Arbiter, Guideline III.5.3: reject the draw claim.
    Reject,
    /// Arbiter, Guideline III.5.2: a draw after a flag fall.
    DecideDraw,
    /// Arbiter, Guideline III.5.2: the flag fall stands.
    DecideLoss,
}

impl Cmd {
    /// Every command, in help order: the game's commands, the arbiter's,
    /// then the confirmation words.
    pub fn all() -> impl Iterator<Item = Cmd> {
        Cmd::GAME
            .into_iter()
            .chain(Cmd::ARBITER.into_iter().filter(|c| *c != Cmd::Help))
            .chain([Cmd::Yes, Cmd::No])
    }

    /// Commands listed in the game's help.
    pub const GAME: [Cmd; 29] = [
        Cmd::Help,
        Cmd::Press,
        Cmd::TakeBack,
        Cmd::Time,
        Cmd::MyTime,
        Cmd::Count,
        Cmd::Repeat,
        Cmd::Quiet,
        Cmd::What,
        Cmd::Where,
        Cmd::File,
        Cmd::Rank,
        Cmd::Pieces,
        Cmd::Last,
        Cmd::Legal,
        Cmd::Sheet,
        Cmd::Draw,
        Cmd::Accept,
        Cmd::Decline,
        Cmd::Claim,
        Cmd::RequestIncrement,
        Cmd::ClaimCannotWin,
        Cmd::ClaimNoEffort,
        Cmd::Resign,
        Cmd::Arbiter,
        Cmd::Save,
        Cmd::Settings,
        Cmd::Review,
        Cmd::Quit,
    ];

    /// Commands listed in the arbiter menu.
    pub const ARBITER: [Cmd; 23] = [
        Cmd::Correct,
        Cmd::Pause,
        Cmd::Resume,
        Cmd::Add,
        Cmd::Remove,
        Cmd::Set,
        Cmd::Penalty,
        Cmd::Touch,
        Cmd::Seal,
        Cmd::Present,
        Cmd::OpenSeal,
        Cmd::GrantIncrement,
        Cmd::RefuseIncrement,
        Cmd::Agree,
        Cmd::Postpone,
        Cmd::Reject,
        Cmd::DecideDraw,
        Cmd::DecideLoss,
        Cmd::Absent,
        Cmd::Default,
        Cmd::Excuse,
        Cmd::Back,
        Cmd::Help,
    ];

    /// The message key holding the command's spellings.
    pub fn message_key(self) -> &'static str {
        match self {
            Cmd::Help => "ui.cmd.help",
            Cmd::Press => "ui.cmd.press",
            Cmd::TakeBack => "ui.cmd.takeback",
            Cmd::Time => "ui.cmd.time",
            Cmd::MyTime => "ui.cmd.mytime",
            Cmd::Count => "ui.cmd.count",
            Cmd::Repeat => "ui.cmd.repeat",
            Cmd::Quiet => "ui.cmd.quiet",
            Cmd::What => "ui.cmd.what",
            Cmd::Where => "ui.cmd.where",
            Cmd::File => "ui.cmd.file",
            Cmd::Rank => "ui.cmd.rank",
            Cmd::Pieces => "ui.cmd.pieces",
            Cmd::Last => "ui.cmd.last",
            Cmd::Legal => "ui.cmd.legal",
            Cmd::Sheet => "ui.cmd.sheet",
            Cmd::Draw => "ui.cmd.draw",
            Cmd::Accept => "ui.cmd.accept",
            Cmd::Decline => "ui.cmd.decline",
            Cmd::Claim => "ui.cmd.claim",
            Cmd::Resign => "ui.cmd.resign",
            Cmd::Arbiter => "ui.cmd.arbiter",
            Cmd::Pause => "ui.cmd.pause",
            Cmd::Resume => "ui.cmd.resume",
            Cmd::Add => "ui.cmd.add",
            Cmd::Remove => "ui.cmd.remove",
            Cmd::Penalty => "ui.cmd.penalty",
            Cmd::Correct => "ui.cmd.correct",
            Cmd::Set => "ui.cmd.set",
            Cmd::Seal => "ui.cmd.seal",
            Cmd::Present => "ui.cmd.present",
            Cmd::OpenSeal => "ui.cmd.open_seal",
            Cmd::Absent => "ui.cmd.absent",
            Cmd::Default => "ui.cmd.default",
            Cmd::Excuse => "ui.cmd.excuse",
            Cmd::Touch => "ui.cmd.touch",
            Cmd::Back => "ui.cmd.back",
            Cmd::Save => "ui.cmd.save",
            Cmd::Settings => "ui.cmd.settings",
            Cmd::Review => "ui.cmd.review",
            Cmd::Quit => "ui.cmd.quit",
            Cmd::Yes => "ui.cmd.yes",
            Cmd::No => "ui.cmd.no",
            Cmd::RequestIncrement => "ui.cmd.request_increment",
            Cmd::ClaimCannotWin => "ui.cmd.claim_cannot_win",
            Cmd::ClaimNoEffort => "ui.cmd.claim_no_effort",
            Cmd::GrantIncrement => "ui.cmd.grant_increment",
            Cmd::RefuseIncrement => "ui.cmd.refuse_increment",
            Cmd::Agree => "ui.cmd.agree",
            Cmd::Postpone => "ui.cmd.postpone",
            Cmd::Reject => "ui.cmd.reject",
            Cmd::DecideDraw => "ui.cmd.decide_draw",
            Cmd::DecideLoss => "ui.cmd.decide_loss",
        }
    }
}

/// What a typed line is, before the game state is consulted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Nothing typed.
    Empty,
    /// A number (picks a candidate move).
    Number(usize),
    /// A command and the rest of the line.
    Command(Cmd, String),
    /// Anything else: read as a move.
    Move(String),
}

/// The command words of a locale (and of the base locale).
#[derive(Debug, Clone)]
pub struct CommandWords {
    /// (normalized spelling, command), longest spellings first.
    words: Vec<(String, Cmd)>,
    /// The shown spelling of each command.
    shown: Vec<(Cmd, String)>,
    /// The words for White and Black.
    sides: Vec<(String, Color)>,
    locale: Locale,
}

fn spellings(loc: &Locale, key: &str) -> Vec<String> {
    let text = loc.message(key, &[]);
    if text == key || text.trim().is_empty() {
        return Vec::new();
    }
    text.split('|')
        .map(|w| w.trim().to_owned())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Spellings (normalized) with their commands, and each command's shown
/// spelling.
pub type WordTable<C> = (Vec<(String, C)>, Vec<(C, String)>);

/// The spellings of `commands` (each with the message key holding its
/// spellings) in `sources`, normalized as `loc` does: (spelling, command)
/// pairs, a spelling given to the first command that has it, and the
/// shown (first) spelling of each command. Shared with the review's words.
pub fn word_table<C: Copy + std::fmt::Debug>(
    loc: &Locale,
    commands: impl Iterator<Item = (C, &'static str)>,
    sources: &[&Locale],
) -> WordTable<C> {
    let mut words: Vec<(String, C)> = Vec::new();
    let mut shown = Vec::new();
    for (cmd, key) in commands {
        let mut first = None;
        for src in sources {
            for w in spellings(src, key) {
                first.get_or_insert_with(|| w.clone());
                let n = loc.normalize(&w);
                if !words.iter().any(|(x, _)| *x == n) {
                    words.push((n, cmd));
                }
            }
        }
        shown.push((
            cmd,
            first.unwrap_or_else(|| format!("{cmd:?}").to_lowercase()),
        ));
    }
    (words, shown)
}

impl CommandWords {
    /// The command words of `loc`, with the base locale's English words
    /// accepted after them.
    pub fn new(loc: &Locale) -> CommandWords {
        let base = locale::builtin(locale::BASE_LOCALE).ok();
        let mut sides = Vec::new();
        let sources: Vec<&Locale> = std::iter::once(loc).chain(base.as_ref()).collect();
        let (mut words, shown) =
            word_table(loc, Cmd::all().map(|c| (c, c.message_key())), &sources);
        for (key, color) in [
            ("ui.cmd.white", Color::White),
            ("ui.cmd.black", Color::Black),
        ] {
            for src in &sources {
                for w in spellings(src, key) {
                    sides.push((loc.normalize(&w), color));
                }
            }
            for side_key in ["side.white", "side.black"] {
                let w = loc.message(side_key, &[]);
                let c = if side_key == "side.white" {
                    Color::White
                } else {
                    Color::Black
                };
                sides.push((loc.normalize(&w), c));
            }
        }
        // Longest first, so "take back" wins over "take".
        words.sort_by_key(|(w, _)| std::cmp::Reverse(w.chars().count()));
        CommandWords {
            words,
            shown,
            sides,
            locale: loc.clone(),
        }
    }

    /// The spelling of `cmd` shown in help.
    pub fn shown(&self, cmd: Cmd) -> &str {
        self.shown
            .iter()
            .find(|(c, _)| *c == cmd)
            .map(|(_, w)| w.as_str())
            .unwrap_or("")
    }

    /// Reads a typed line.
    pub fn read(&self, line: &str) -> Input {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            return Input::Empty;
        }
        if let Ok(n) = trimmed.parse::<usize>() {
            return Input::Number(n);
        }
        let norm = self.locale.normalize(trimmed);
        let norm = norm.trim();
        for (w, cmd) in &self.words {
            if let Some(rest) = norm.strip_prefix(w.as_str())
                && (rest.is_empty() || rest.starts_with(' '))
            {
                // The rest in the original spelling: skip as many words.
                let skip = w.split_whitespace().count();
                let rest: Vec<&str> = trimmed.split_whitespace().skip(skip).collect();
                return Input::Command(*cmd, rest.join(" "));
            }
        }
        Input::Move(trimmed.to_owned())
    }

    /// The side named in `text` (first word), if any.
    pub fn side(&self, text: &str) -> Option<Color> {
        let norm = self.locale.normalize(text);
        let first = norm.split_whitespace().next()?;
        self.sides.iter().find(|(w, _)| w == first).map(|(_, c)| *c)
    }

    /// `text` without its first word when that names a side.
    pub fn strip_side<'a>(&self, text: &'a str) -> (Option<Color>, &'a str) {
        match self.side(text) {
            Some(c) => {
                let t = text.trim_start();
                let rest = t.split_once(char::is_whitespace).map(|x| x.1).unwrap_or("");
                (Some(c), rest.trim())
            }
            None => (None, text.trim()),
        }
    }
}

/// The play screen names its commands in messages by the locale's command
/// words (arbiter commands work from the game prompt too).
impl Verbs for CommandWords {
    fn verb(&self, verb: Verb) -> Utterance {
        let w = |c: Cmd| self.shown(c).to_owned();
        Utterance::plain(match verb {
            Verb::Announce | Verb::Press => w(Cmd::Press),
            Verb::TakeBack => w(Cmd::TakeBack),
            Verb::Correct => w(Cmd::Correct),
            Verb::AddTime => format!(
                "{} {} 2m",
                w(Cmd::Add),
                self.locale.message("side.white", &[]).to_lowercase()
            ),
            Verb::Present => w(Cmd::Present),
            Verb::OpenSeal => w(Cmd::OpenSeal),
            Verb::Seal => w(Cmd::Seal),
            Verb::Resume => w(Cmd::Resume),
            Verb::Accept => w(Cmd::Accept),
            Verb::Decline => w(Cmd::Decline),
            Verb::Claim => w(Cmd::Claim),
            Verb::RequestIncrement => w(Cmd::RequestIncrement),
            Verb::GrantIncrement => w(Cmd::GrantIncrement),
            Verb::RefuseIncrement => w(Cmd::RefuseIncrement),
            Verb::Agree => w(Cmd::Agree),
            Verb::Postpone => format!("{} 2m", w(Cmd::Postpone)),
            Verb::Reject => w(Cmd::Reject),
            Verb::DecideDraw => w(Cmd::DecideDraw),
            Verb::DecideLoss => w(Cmd::DecideLoss),
        })
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn all_lists_every_command_once() {
        let all: Vec<Cmd> = Cmd::all().collect();
        // The enum has 53 commands: 29 of the game, 22 more of the arbiter
        // (Help is in both menus), yes and no.
        assert_eq!(all.len(), 53);
        for (i, c) in all.iter().enumerate() {
            assert!(!all[i + 1..].contains(c), "{c:?} listed twice");
        }
        for c in Cmd::GAME.iter().chain(&Cmd::ARBITER) {
            assert!(all.contains(c), "{c:?} missing");
        }
    }
    use super::*;

    fn words(code: &str) -> CommandWords {
        CommandWords::new(&locale::builtin(code).unwrap())
    }

    #[test]
    fn english_commands_and_moves() {
        let w = words("en");
        assert_eq!(w.read("  "), Input::Empty);
        assert_eq!(w.read("2"), Input::Number(2));
        assert_eq!(w.read("resign"), Input::Command(Cmd::Resign, String::new()));
        assert_eq!(
            w.read("take back"),
            Input::Command(Cmd::TakeBack, String::new())
        );
        assert_eq!(w.read("What e4"), Input::Command(Cmd::What, "e4".into()));
        assert_eq!(
            w.read("where knight"),
            Input::Command(Cmd::Where, "knight".into())
        );
        assert_eq!(w.read("Nf3"), Input::Move("Nf3".into()));
        assert_eq!(w.read("knight g1 f3"), Input::Move("knight g1 f3".into()));
        assert_eq!(w.shown(Cmd::Press), "press");
    }

    #[test]
    fn sides_in_both_forms() {
        let w = words("en");
        assert_eq!(w.side("white 60"), Some(Color::White));
        assert_eq!(w.strip_side("Black 30"), (Some(Color::Black), "30"));
        assert_eq!(w.strip_side("30"), (None, "30"));
    }

    #[test]
    fn german_words_and_english_fallback() {
        let w = words("de");
        // German spelling (see locales/de.toml) and the English one.
        assert_eq!(
            w.read("aufgeben"),
            Input::Command(Cmd::Resign, String::new())
        );
        assert_eq!(w.read("resign"), Input::Command(Cmd::Resign, String::new()));
        assert_eq!(
            w.read("Springer g1 f3"),
            Input::Move("Springer g1 f3".into())
        );
    }

    #[test]
    fn fide_moves_are_not_commands() {
        let w = words("fide");
        for phrase in [
            "Springer Gustav eins Felix drei",
            "Eva zwei Eva vier",
            "Kurze Rochade",
            "Bauer Bella drei",
        ] {
            assert_eq!(w.read(phrase), Input::Move(phrase.into()), "{phrase}");
        }
    }

    #[test]
    fn no_move_of_any_locale_reads_as_a_command() {
        use crate::vocab::{Style, Vocabulary};
        use shakmaty::{Chess, Position, san::San};
        for code in locale::builtin_codes() {
            let vocab = Vocabulary::builtin(code).unwrap();
            let w = CommandWords::new(vocab.locale());
            let mut pos = Chess::default();
            for san in [
                "e4", "d5", "exd5", "Nf6", "Bb5+", "c6", "dxc6", "Qa5", "Nc3", "Qxb5",
            ] {
                for m in pos.legal_moves() {
                    for style in [Style::Short, Style::Long] {
                        let said = vocab.announce(&pos, m, style);
                        for text in [&said.display, &said.spoken] {
                            assert!(
                                matches!(w.read(text), Input::Move(_)),
                                "{code}: move {text:?} reads as {:?}",
                                w.read(text)
                            );
                        }
                    }
                }
                let m = San::from_ascii(san.as_bytes())
                    .unwrap()
                    .to_move(&pos)
                    .unwrap();
                pos.play_unchecked(m);
            }
        }
    }

    #[test]
    fn every_locale_has_a_word_for_every_command() {
        for code in locale::builtin_codes() {
            let w = words(code);
            for cmd in Cmd::all() {
                let shown = w.shown(cmd).to_owned();
                assert!(!shown.is_empty(), "{code}: {cmd:?}");
                assert_eq!(
                    w.read(&shown),
                    Input::Command(cmd, String::new()),
                    "{code}: {shown}"
                );
            }
        }
    }
}
