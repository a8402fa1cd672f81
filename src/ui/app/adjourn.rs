//! Adjournment on the play screen (Guideline I): the sealer's press closes
//! the envelope; at the resumption the arbiter records who is present or
//! absent, excuses a late arrival and sets the default time. Each is one
//! command to the game layer, said in full.

use super::{App, Effect, Tell};
use crate::game::script::parse_duration;
use crate::game::{Command, Side};
use crate::locale::MsgKey;
use crate::ui::command::Cmd;
use crate::vocab::{Priority, Utterance};

impl App {
    /// The sealer stops the clock: the envelope is closed (I.1.1).
    pub(super) fn close_envelope(&mut self, fx: &mut Vec<Effect>) {
        self.act_say(Command::Press, Tell::All, fx);
    }

    /// A draw offer while the game is adjourned: into the envelope, or
    /// standing until answered (I.2.6, I.4), said in full.
    pub(super) fn offer_while_adjourned(&mut self, rest: &str, fx: &mut Vec<Effect>) {
        let (side, _) = self.words.strip_side(rest);
        let by = side.unwrap_or_else(|| self.clock_side());
        self.act_say(Command::OfferDraw { side: by.into() }, Tell::All, fx);
    }

    /// `present [SIDE]` (also on arrival), `absent SIDE`, `excuse SIDE`,
    /// `default TIME` (Guideline I.9, I.10).
    pub(super) fn attendance(&mut self, cmd: Cmd, rest: &str, fx: &mut Vec<Effect>) {
        let (side, rest) = self.words.strip_side(rest);
        let command = match (cmd, side) {
            (Cmd::Present, side) => Command::Present {
                side: side.map(Side::from),
            },
            (Cmd::Absent, Some(side)) => Command::Absent { side: side.into() },
            (Cmd::Excuse, Some(side)) => Command::Excuse { side: side.into() },
            (Cmd::Absent | Cmd::Excuse, None) => {
                let example = Utterance::plain(format!(
                    "{} {}",
                    self.words.shown(cmd),
                    self.vocab
                        .side(shakmaty::Color::White)
                        .display
                        .to_lowercase()
                ));
                let u = self
                    .vocab
                    .message(MsgKey::UiNeedSide, &[("example", &example)]);
                return self.say(fx, u, Priority::Request);
            }
            (Cmd::Default, _) => match rest.split_whitespace().next().and_then(parse_duration) {
                Some(d) => Command::DefaultTime {
                    ms: u64::try_from(d.as_millis()).unwrap_or(u64::MAX),
                },
                None => {
                    let example = Utterance::plain(format!("{} 30m", self.words.shown(cmd)));
                    let u = self
                        .vocab
                        .message(MsgKey::UiNeedTime, &[("example", &example)]);
                    return self.say(fx, u, Priority::Request);
                }
            },
            _ => return,
        };
        self.act_say(command, Tell::All, fx);
    }
}
