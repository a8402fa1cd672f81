//! Spoken input on the play screen: a decision of the recognizer becomes a
//! move made and said back (the clock is not pressed: a slip is corrected
//! by saying the move again, D.2.8), a question, a command, or "not
//! understood". Nothing is ever played on a guess.

use shakmaty::{Move, Position};

use super::prompt::Prompt;
use super::{App, Effect};
use crate::game::Command;
use crate::locale::MsgKey;
use crate::ui::command::Cmd;
use crate::vocab::{Priority, Style, Utterance};
use crate::voice::Decision;

impl App {
    /// played on a guess.
    pub(super) fn heard(&mut self, d: Decision, fx: &mut Vec<Effect>) {
        match d {
            Decision::Move { mv, .. } => {
                self.drop_question(fx);
                if let Some(r) = self.game.mirror().result()
                    && self.to_execute().is_none()
                {
                    return self.announce_result(r, fx);
                }
                self.prompt = Prompt::Game;
                // Said again before the press: the new move replaces it.
                if self.unpressed().is_some() {
                    if self.hearing_position_after_takeback_has(mv) {
                        let _ = self.act(Command::TakeBack);
                    } else {
                        return self.typed_move("", fx);
                    }
                }
                if self.engine_to_move() {
                    let side = self.vocab.side(self.game.mirror().mover());
                    let u = self.vocab.message(MsgKey::UiEngineTurn, &[("side", &side)]);
                    return self.say(fx, u, Priority::Request);
                }
                if self.hearing_position().is_legal(mv) {
                    self.chosen(mv, fx);
                }
            }
            Decision::Ask { candidates, .. } => {
                self.drop_question(fx);
                let pos = self.hearing_position();
                let legal: Vec<Move> = candidates
                    .into_iter()
                    .filter(|m| pos.is_legal(*m))
                    .collect();
                let words: Vec<Utterance> = legal
                    .iter()
                    .map(|m| self.vocab.announce(&pos, *m, Style::Long))
                    .collect();
                let u = match words.as_slice() {
                    [] => self.vocab.message(MsgKey::VoiceNothingHeard, &[]),
                    [one] => {
                        let yes = self.spoken_word(Cmd::Yes);
                        let no = self.spoken_word(Cmd::No);
                        self.vocab.message(
                            MsgKey::VoiceConfirm,
                            &[("move", one), ("yes", &yes), ("no", &no)],
                        )
                    }
                    _ => {
                        let list = self.numbered(&words);
                        self.vocab
                            .message(MsgKey::VoiceAskWhich, &[("candidates", &list)])
                    }
                };
                self.say(fx, u, Priority::Request);
                if !legal.is_empty() {
                    self.prompt = Prompt::Choice(legal);
                }
            }
            Decision::DidYouMean { candidates, heard } => {
                self.drop_question(fx);
                self.did_you_mean(candidates, &heard, fx);
            }
            Decision::Number { number, heard } => self.numbered_answer(number, &heard, fx),
            Decision::Command { command, .. } => match command {
                Cmd::Yes => match std::mem::take(&mut self.prompt) {
                    Prompt::Choice(moves) if moves.len() == 1 => self.chosen(moves[0], fx),
                    Prompt::Guess(moves) if !moves.is_empty() => self.chosen(moves[0], fx),
                    Prompt::ConfirmQuit => self.quit_now(fx),
                    Prompt::Confirm(p) => self.confirmed(p, fx),
                    other => self.prompt = other,
                },
                Cmd::No | Cmd::Cancel => {
                    if matches!(self.prompt, Prompt::Choice(_) | Prompt::Guess(_)) {
                        self.prompt = Prompt::Game;
                        let u = self.vocab.message(MsgKey::UiVoiceCancelled, &[]);
                        self.say(fx, u, Priority::Request);
                    } else if self.prompt == Prompt::ConfirmQuit {
                        self.prompt = Prompt::Game;
                        let u = self.vocab.message(MsgKey::UiQuitCancelled, &[]);
                        self.say(fx, u, Priority::Request);
                    } else if matches!(self.prompt, Prompt::Confirm(_)) {
                        self.prompt = Prompt::Game;
                        let u = self.vocab.message(MsgKey::UiNotConfirmed, &[]);
                        self.say(fx, u, Priority::Request);
                    }
                }
                Cmd::Help => self.help(fx),
                // Any other command is no answer to a question: the
                // question is dropped (said), and the command carried out.
                Cmd::Press => {
                    self.drop_question(fx);
                    self.press(fx);
                }
                // A draw offer heard is said back first (the table's
                // confirmation rule for spoken draw offers).
                Cmd::Draw => {
                    self.drop_question(fx);
                    self.offer_draw_spoken(fx);
                }
                // Everything else as typed: what cannot be undone is said
                // back and waits for yes (the same game layer commands).
                other => {
                    self.drop_question(fx);
                    self.command(other, "", fx);
                }
            },
            Decision::NotUnderstood { heard } => {
                let u = if heard.trim().is_empty() {
                    self.vocab.message(MsgKey::VoiceNothingHeard, &[])
                } else {
                    self.vocab.message(
                        MsgKey::VoiceNotUnderstood,
                        &[("heard", &Utterance::plain(heard))],
                    )
                };
                self.say(fx, u, Priority::Request);
            }
        }
    }

    /// A near miss: "did you mean 1: …, or 2: …?" (best first). Nothing is
    /// played until the player answers with the number, yes (the first)
    /// or no.
    fn did_you_mean(&mut self, candidates: Vec<Move>, heard: &str, fx: &mut Vec<Effect>) {
        let pos = self.hearing_position();
        let legal: Vec<Move> = candidates
            .into_iter()
            .filter(|m| pos.is_legal(*m))
            .collect();
        if legal.is_empty() {
            let u = self.vocab.message(
                MsgKey::VoiceNotUnderstood,
                &[("heard", &Utterance::plain(heard.to_owned()))],
            );
            return self.say(fx, u, Priority::Request);
        }
        let words: Vec<Utterance> = legal
            .iter()
            .map(|m| self.vocab.announce(&pos, *m, Style::Long))
            .collect();
        let list = self.numbered(&words);
        let yes = self.spoken_word(Cmd::Yes);
        let no = self.spoken_word(Cmd::No);
        let u = self.vocab.message(
            MsgKey::VoiceDidYouMean,
            &[("candidates", &list), ("yes", &yes), ("no", &no)],
        );
        self.say(fx, u, Priority::Request);
        self.prompt = Prompt::Guess(legal);
    }

    /// A number said: the answer to a numbered question; with no question
    /// open it means nothing.
    fn numbered_answer(&mut self, number: usize, heard: &str, fx: &mut Vec<Effect>) {
        let prompt = std::mem::take(&mut self.prompt);
        let moves = match &prompt {
            Prompt::Choice(m) | Prompt::Guess(m) => Some(m.clone()),
            _ => None,
        };
        match moves {
            Some(moves) if (1..=moves.len()).contains(&number) => {
                let mv = moves[number - 1];
                if self.hearing_position().is_legal(mv) {
                    self.chosen(mv, fx);
                }
            }
            Some(moves) => {
                self.prompt = prompt;
                let n = self.vocab.number(number);
                let max = self.vocab.number(moves.len());
                let u = self
                    .vocab
                    .message(MsgKey::UiBadChoice, &[("number", &n), ("max", &max)]);
                self.say(fx, u, Priority::Request);
            }
            None => {
                self.prompt = prompt;
                let u = self.vocab.message(
                    MsgKey::VoiceNotUnderstood,
                    &[("heard", &Utterance::plain(heard.to_owned()))],
                );
                self.say(fx, u, Priority::Request);
            }
        }
    }

    /// `true` when `mv` would be legal on the mover's board with the move
    /// made but not pressed taken back (a spoken correction, D.2.8).
    pub(super) fn hearing_position_after_takeback_has(&self, mv: Move) -> bool {
        self.unpressed().is_some_and(|u| u.before.is_legal(mv))
    }

    /// The first spelling of a voice command word.
    pub(super) fn spoken_word(&self, c: Cmd) -> Utterance {
        let text = c
            .row()
            .spoken
            .map(|key| self.vocab.locale().message(key, &[]))
            .unwrap_or_default();
        Utterance::plain(text.split('|').next().unwrap_or_default().to_owned())
    }
}
