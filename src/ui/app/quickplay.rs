//! Guideline III on the play screen (games without increment): the player
//! having the move asks for the 5-second increment or claims a draw, and
//! the arbiter decides. Each is one typed command to the game layer, which
//! refuses it with a reason when the guideline does not apply.

use super::prompt::Pending;
use super::{App, Effect, Tell};
use crate::game::script::parse_duration;
use crate::game::{Command, Side};
use crate::locale::MsgKey;
use crate::mirror::{ClaimGrounds, QUICKPLAY_OPPONENT_TIME};
use crate::ui::command::{Cmd, Input, Menu};
use crate::vocab::{Priority, Utterance};

impl App {
    /// A player's Guideline III command: the request for the increment
    /// (III.4) or a draw claim (III.5, III.6). A side may follow the
    /// command; otherwise it is the player whose clock runs. After one
    /// claim word the other may follow (both grounds). A claim that the
    /// game would accept is said back for a yes first: it cannot be
    /// withdrawn, and without an arbiter it ends the game.
    pub(super) fn quickplay_command(&mut self, cmd: Cmd, rest: &str, fx: &mut Vec<Effect>) {
        if let Some(r) = self.game.mirror().result() {
            return self.announce_result(r, fx);
        }
        let (side, rest) = self.words.strip_side(rest);
        let by = side.unwrap_or_else(|| self.clock_side());
        let side = Side::from(by);
        let also = match self.words.read(rest) {
            Input::Command(c, _) => Some(c),
            _ => None,
        };
        let command = match (cmd, also) {
            (Cmd::ClaimCannotWin, Some(Cmd::ClaimNoEffort))
            | (Cmd::ClaimNoEffort, Some(Cmd::ClaimCannotWin)) => Command::ClaimQuickplay {
                side,
                grounds: ClaimGrounds::Both,
            },
            (Cmd::ClaimCannotWin, _) => Command::ClaimQuickplay {
                side,
                grounds: ClaimGrounds::CannotWin,
            },
            (Cmd::ClaimNoEffort, _) => Command::ClaimQuickplay {
                side,
                grounds: ClaimGrounds::NoEffort,
            },
            _ => Command::RequestIncrement { side },
        };
        if let Command::ClaimQuickplay { grounds, .. } = command {
            return match self.game.mirror().may_claim_quickplay(self.now, by) {
                Ok(()) => self.ask_confirmation(Pending::QuickplayClaim(by, grounds), fx),
                Err(e) => self.refused(&e, fx),
            };
        }
        self.act_say(command, Tell::All, fx);
    }

    /// The commands of a help list, without those of Guideline III when
    /// the game did not announce it (they would only be refused).
    pub(super) fn quickplay_listed(&self, menu: Menu) -> Vec<Cmd> {
        let announced = self.game.mirror().config().quickplay;
        Cmd::listed(menu)
            .filter(|c| announced || !c.is_quickplay())
            .collect()
    }

    /// The confirmation question for a Guideline III claim: under an
    /// arbiter (III.5) or without one (III.6, the claim ends the game).
    pub(super) fn quickplay_confirmation(&self) -> MsgKey {
        if self.game.mirror().config().unsupervised {
            MsgKey::UiConfirmQuickplayReferred
        } else {
            MsgKey::UiConfirmQuickplayClaim
        }
    }

    /// The arbiter's Guideline III decisions (from the menu or the game
    /// prompt).
    pub(super) fn quickplay_arbiter(&mut self, cmd: Cmd, rest: &str, fx: &mut Vec<Effect>) {
        let command = match cmd {
            Cmd::GrantIncrement => Command::DecideIncrement { grant: true },
            Cmd::RefuseIncrement => Command::DecideIncrement { grant: false },
            Cmd::Agree => Command::UpholdClaim,
            Cmd::Reject => Command::RejectClaim,
            Cmd::DecideDraw => Command::DecideAfterFlag { draw: true },
            Cmd::DecideLoss => Command::DecideAfterFlag { draw: false },
            Cmd::Postpone => match rest.split_whitespace().next() {
                None => Command::PostponeClaim { two_minutes: false },
                Some(t) if parse_duration(t) == Some(QUICKPLAY_OPPONENT_TIME) => {
                    Command::PostponeClaim { two_minutes: true }
                }
                Some(_) => {
                    let postpone = self.cmd_word(Cmd::Postpone);
                    let example = Utterance::plain(format!("{} 2m", postpone.display));
                    let u = self.vocab.message(
                        MsgKey::UiNeedTwoMinutes,
                        &[("example", &example), ("postpone", &postpone)],
                    );
                    return self.say(fx, u, Priority::Request);
                }
            },
            _ => return,
        };
        self.act_say(command, Tell::All, fx);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::ui::app::{App, Effect, Msg, Settings};
    use crate::vocab::Vocabulary;

    fn said(app: &mut App, line: &str) -> Vec<String> {
        app.update(Msg::Line(line.to_owned()), Duration::ZERO)
            .into_iter()
            .filter_map(|e| match e {
                Effect::Say(i) => Some(i.utterance.display),
                _ => None,
            })
            .collect()
    }

    fn app(quickplay: bool) -> App {
        let settings = Settings {
            control: "15m".parse().unwrap(),
            quickplay,
            ..Settings::default()
        };
        App::new(Vocabulary::builtin("en").unwrap(), settings, Duration::ZERO).0
    }

    #[test]
    fn help_lists_guideline_iii_only_when_announced() {
        let without = said(&mut app(false), "help").join(" ");
        assert!(!without.contains("claim no effort"), "{without}");
        let with = said(&mut app(true), "help").join(" ");
        assert!(with.contains("claim no effort"), "{with}");
        let menu = said(&mut app(true), "arbiter").join(" ");
        assert!(menu.contains("grant increment"), "{menu}");
        let menu = said(&mut app(false), "arbiter").join(" ");
        assert!(!menu.contains("grant increment"), "{menu}");
    }

    #[test]
    fn a_refused_claim_is_not_asked_about() {
        // Fifteen minutes left: refused at once, no yes/no question.
        let mut a = app(true);
        let out = said(&mut a, "claim no effort");
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].contains("less than two minutes"), "{out:?}");
        // The next line is an ordinary command again.
        let out = said(&mut a, "yes");
        assert!(!out.iter().any(|l| l.contains("claims a draw")), "{out:?}");
    }

    /// White below two minutes asks for the increment; Black declines
    /// the draw it includes and the arbiter refuses it: III.4 is not
    /// applied, so III.5 may.
    fn increment_refused(a: &mut App) {
        said(a, "set white 1:30");
        said(a, "increment");
        said(a, "decline");
        said(a, "refuse increment");
    }

    #[test]
    fn a_claim_waits_for_the_increment_to_be_refused() {
        let mut a = app(true);
        said(&mut a, "set white 1:30");
        let out = said(&mut a, "claim cannot win");
        assert!(out.iter().any(|l| l.contains("III.4")), "{out:?}");
        assert!(
            !out.iter().any(|l| l.contains("cannot be withdrawn")),
            "{out:?}"
        );
    }

    #[test]
    fn a_claim_is_confirmed_then_taken() {
        let mut a = app(true);
        increment_refused(&mut a);
        let asked = said(&mut a, "claim cannot win");
        assert!(
            asked.iter().any(|l| l.contains("cannot be withdrawn")),
            "{asked:?}"
        );
        assert!(a.mirror().quickplay_pending().is_none());
        let out = said(&mut a, "yes");
        assert!(out.iter().any(|l| l.contains("claims a draw")), "{out:?}");
        assert!(a.mirror().quickplay_pending().is_some());
        // "no" leaves everything as it was.
        let mut b = app(true);
        increment_refused(&mut b);
        said(&mut b, "claim no effort");
        said(&mut b, "no");
        assert!(b.mirror().quickplay_pending().is_none());
    }
}
