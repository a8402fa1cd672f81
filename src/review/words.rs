//! The review's command words (pure): message keys `review.cmd.NAME` hold
//! the accepted spellings separated by `|` (the first is shown in help);
//! the base locale's words are accepted too.

use crate::locale::MsgKey;
use crate::locale::{self, Locale};

/// A command of the review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReviewCmd {
    /// The next move.
    Next,
    /// One move back.
    Back,
    /// The start position.
    First,
    /// The last move.
    Last,
    /// Jump to a move number (`go 12`, `go 12 black`).
    Go,
    /// The last five moves up to here.
    Recent,
    /// The comment on the current move.
    Comment,
    /// The clock time recorded with the current move.
    Clock,
    /// The engine's evaluation and best move here.
    Eval,
    /// Where the review is.
    Position,
    /// The list of commands.
    Help,
    /// Leave the review.
    Quit,
}

impl ReviewCmd {
    /// Every command, in help order.
    pub const ALL: [ReviewCmd; 12] = [
        ReviewCmd::Next,
        ReviewCmd::Back,
        ReviewCmd::First,
        ReviewCmd::Last,
        ReviewCmd::Go,
        ReviewCmd::Recent,
        ReviewCmd::Comment,
        ReviewCmd::Clock,
        ReviewCmd::Eval,
        ReviewCmd::Position,
        ReviewCmd::Help,
        ReviewCmd::Quit,
    ];

    /// The message key holding its spellings.
    pub fn message_key(self) -> MsgKey {
        match self {
            ReviewCmd::Next => MsgKey::ReviewCmdNext,
            ReviewCmd::Back => MsgKey::ReviewCmdBack,
            ReviewCmd::First => MsgKey::ReviewCmdFirst,
            ReviewCmd::Last => MsgKey::ReviewCmdLast,
            ReviewCmd::Go => MsgKey::ReviewCmdGo,
            ReviewCmd::Recent => MsgKey::ReviewCmdRecent,
            ReviewCmd::Comment => MsgKey::ReviewCmdComment,
            ReviewCmd::Clock => MsgKey::ReviewCmdClock,
            ReviewCmd::Eval => MsgKey::ReviewCmdEval,
            ReviewCmd::Position => MsgKey::ReviewCmdPosition,
            ReviewCmd::Help => MsgKey::ReviewCmdHelp,
            ReviewCmd::Quit => MsgKey::ReviewCmdQuit,
        }
    }
}

/// The review's command words of one locale.
#[derive(Debug, Clone)]
pub struct ReviewWords {
    /// (normalized spelling, command), longest first.
    words: Vec<(String, ReviewCmd)>,
    /// The shown spelling of each command.
    shown: Vec<(ReviewCmd, String)>,
}

impl ReviewWords {
    /// The words of `loc`, then the base locale's.
    pub fn new(loc: &Locale) -> ReviewWords {
        let base = locale::builtin(locale::BASE_LOCALE).ok();
        let sources: Vec<&Locale> = std::iter::once(loc).chain(base.as_ref()).collect();
        let (mut words, shown) = crate::commands::word_table(
            loc,
            ReviewCmd::ALL.into_iter().map(|c| (c, c.message_key())),
            &sources,
        );
        words.sort_by_key(|(w, _)| std::cmp::Reverse(w.chars().count()));
        ReviewWords { words, shown }
    }

    /// The spelling shown for `cmd`.
    pub fn shown(&self, cmd: ReviewCmd) -> &str {
        self.shown
            .iter()
            .find(|(c, _)| *c == cmd)
            .map(|(_, w)| w.as_str())
            .unwrap_or("")
    }

    /// The command a line starts with, and the rest of the line.
    pub fn read(&self, loc: &Locale, line: &str) -> Option<(ReviewCmd, String)> {
        let trimmed = line.trim();
        let norm = loc.normalize(trimmed);
        let norm = norm.split_whitespace().collect::<Vec<_>>().join(" ");
        for (w, cmd) in &self.words {
            if let Some(rest) = norm.strip_prefix(w.as_str())
                && (rest.is_empty()
                    || rest.starts_with(' ')
                    || !w.chars().all(char::is_alphanumeric))
            {
                let skip = w.split_whitespace().count();
                let rest: Vec<&str> = trimmed.split_whitespace().skip(skip).collect();
                return Some((*cmd, rest.join(" ")));
            }
        }
        None
    }
}
