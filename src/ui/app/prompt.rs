//! What the next typed line answers (a move or command, a numbered choice,
//! a confirmation, the arbiter menu), the command dispatch, and help.

use shakmaty::{Color, Move};

use super::{App, Effect};
use crate::locale::MsgKey;
use crate::mirror::ClaimGrounds;
use crate::ui::command::{Cmd, Input, Menu};
use crate::vocab::{ParseError, Priority, Utterance};

/// What the next typed line answers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) enum Prompt {
    /// A move or command.
    #[default]
    Game,
    /// The number of one of these moves.
    Choice(Vec<Move>),
    /// Moves close to what was heard, best first ("did you mean 1: …, or
    /// 2: …?"): their number, yes for the first, or no.
    Guess(Vec<Move>),
    /// Quit: yes or no.
    ConfirmQuit,
    /// The arbiter menu.
    Arbiter,
    /// Something that cannot be undone, said back for a yes or no.
    Confirm(Pending),
}

impl Prompt {
    /// A question waits for its answer (yes or no, or a number).
    pub(super) fn is_question(&self) -> bool {
        matches!(
            self,
            Prompt::Choice(_) | Prompt::Guess(_) | Prompt::ConfirmQuit | Prompt::Confirm(_)
        )
    }
}

/// An irreversible action waiting for its confirmation (the side named).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Pending {
    /// This side resigns.
    Resign(Color),
    /// This side accepts the draw offer.
    AcceptDraw(Color),
    /// This side offers a draw (asked when said by voice).
    OfferDraw(Color),
    /// This side claims (a draw, or the win for an illegal move); with the
    /// move written on his scoresheet and not made (9.2.1.1, 9.3.1).
    Claim(Color, Option<String>),
    /// This side presses the clock without a move made (7.5.3).
    PressWithoutMove(Color),
    /// This side claims a draw under Guideline III (III.5, III.6).
    QuickplayClaim(Color, ClaimGrounds),
}

impl App {
    /// The answer to a numbered question: the move with that number, or
    /// the question again (`again`) when there is no such number.
    fn pick_numbered(
        &mut self,
        moves: Vec<Move>,
        n: usize,
        again: fn(Vec<Move>) -> Prompt,
        fx: &mut Vec<Effect>,
    ) {
        if let Some(mv) = n.checked_sub(1).and_then(|i| moves.get(i)) {
            return self.chosen(*mv, fx);
        }
        let number = self.vocab.number(n);
        let max = self.vocab.number(moves.len());
        let u = self
            .vocab
            .message(MsgKey::UiBadChoice, &[("number", &number), ("max", &max)]);
        self.say(fx, u, Priority::Request);
        self.prompt = again(moves);
    }

    pub(super) fn line(&mut self, line: &str, fx: &mut Vec<Effect>) {
        let input = self.words.read(line);
        // Help with a question open says the question again; an empty
        // line leaves it open.
        if self.prompt.is_question() {
            match &input {
                Input::Empty => return,
                Input::Command(Cmd::Help, rest) if rest.is_empty() => return self.help(fx),
                _ => {}
            }
        }
        match std::mem::take(&mut self.prompt) {
            Prompt::ConfirmQuit => match input {
                Input::Command(Cmd::Yes, _) => self.quit_now(fx),
                Input::Command(Cmd::No, _) => {
                    let u = self.vocab.message(MsgKey::UiQuitCancelled, &[]);
                    self.say(fx, u, Priority::Request);
                }
                other => self.not_an_answer(&Prompt::ConfirmQuit, other, fx),
            },
            Prompt::Choice(moves) => match input {
                Input::Number(n) => self.pick_numbered(moves, n, Prompt::Choice, fx),
                other => self.not_an_answer(&Prompt::Choice(moves), other, fx),
            },
            Prompt::Guess(moves) => match input {
                Input::Number(n) => self.pick_numbered(moves, n, Prompt::Guess, fx),
                Input::Command(Cmd::Yes, _) if !moves.is_empty() => self.chosen(moves[0], fx),
                Input::Command(Cmd::No, _) => {
                    let u = self.vocab.message(MsgKey::UiVoiceCancelled, &[]);
                    self.say(fx, u, Priority::Request);
                }
                other => self.not_an_answer(&Prompt::Guess(moves), other, fx),
            },
            Prompt::Arbiter => self.arbiter_input(input, fx),
            Prompt::Game => self.game_input(input, fx),
            Prompt::Confirm(p) => match input {
                Input::Command(Cmd::Yes, _) => self.confirmed(p, fx),
                Input::Command(Cmd::No, _) => {
                    let u = self.vocab.message(MsgKey::UiNotConfirmed, &[]);
                    self.say(fx, u, Priority::Request);
                }
                other => self.not_an_answer(&Prompt::Confirm(p), other, fx),
            },
        }
    }

    /// A line that does not answer the question `dropped`: the question
    /// is dropped, saying so (nothing it asked about was done), and the
    /// line is carried out as if no question had been asked.
    fn not_an_answer(&mut self, dropped: &Prompt, input: Input, fx: &mut Vec<Effect>) {
        self.say_dropped(dropped, fx);
        self.prompt = Prompt::Game;
        self.game_input(input, fx);
    }

    /// "No yes or no: the question is dropped, nothing was done."
    pub(super) fn say_dropped(&mut self, dropped: &Prompt, fx: &mut Vec<Effect>) {
        let u = match dropped {
            Prompt::Choice(_) => self.vocab.message(MsgKey::UiChoiceDropped, &[]),
            _ => {
                let yes = self.cmd_word(Cmd::Yes);
                let no = self.cmd_word(Cmd::No);
                self.vocab
                    .message(MsgKey::UiQuestionDropped, &[("yes", &yes), ("no", &no)])
            }
        };
        self.say(fx, u, Priority::Request);
    }

    /// Drops an open question (saying so) before something else is done:
    /// a spoken command or move that is no answer to it.
    pub(super) fn drop_question(&mut self, fx: &mut Vec<Effect>) {
        if self.prompt.is_question() {
            let dropped = std::mem::take(&mut self.prompt);
            self.say_dropped(&dropped, fx);
        }
    }

    /// Quits after the yes: says where the game is kept and how it goes
    /// on (the last line a player reads).
    pub(super) fn quit_now(&mut self, fx: &mut Vec<Effect>) {
        if let Some(path) = &self.settings.journal_path {
            let file = Utterance::plain(path.display().to_string());
            let u = self.vocab.message(MsgKey::UiQuitDone, &[("file", &file)]);
            self.say(fx, u, Priority::Critical);
        }
        self.quit = true;
        fx.push(Effect::Quit);
    }

    fn game_input(&mut self, input: Input, fx: &mut Vec<Effect>) {
        match input {
            Input::Empty => {}
            Input::Number(_) => {
                // A number alone is no move: explain like any bad move.
                let u = self
                    .vocab
                    .describe_error(self.current().position(), &ParseError::Empty);
                self.unknown(u, fx);
            }
            Input::Move(text) => self.typed_move(&text, fx),
            Input::Command(cmd, rest) => self.command(cmd, &rest, fx),
        }
    }

    pub(super) fn unknown(&mut self, error: Utterance, fx: &mut Vec<Effect>) {
        let help = self.cmd_word(Cmd::Help);
        let u = self
            .vocab
            .message(MsgKey::UiUnknown, &[("error", &error), ("help", &help)]);
        self.say(fx, u, Priority::Request);
    }

    pub(super) fn help(&mut self, fx: &mut Vec<Effect>) {
        let u = match &self.prompt {
            Prompt::Choice(_) | Prompt::Guess(_) => self.vocab.message(MsgKey::UiHelpChoice, &[]),
            Prompt::ConfirmQuit => {
                let yes = self.cmd_word(Cmd::Yes);
                let no = self.cmd_word(Cmd::No);
                self.vocab
                    .message(MsgKey::UiHelpConfirm, &[("yes", &yes), ("no", &no)])
            }
            Prompt::Confirm(p) => {
                // The question again, naming what waits for the yes.
                let p = p.clone();
                return self.ask_confirmation(p, fx);
            }
            Prompt::Arbiter => {
                let commands = self.command_list(&self.quickplay_listed(Menu::Arbiter));
                let add = self.cmd_word(Cmd::Add);
                let back = self.cmd_word(Cmd::Back);
                self.vocab.message(
                    MsgKey::UiHelpArbiter,
                    &[("commands", &commands), ("add", &add), ("back", &back)],
                )
            }
            Prompt::Game => {
                let commands = self.command_list(&self.quickplay_listed(Menu::Game));
                let example = self.vocab.example(&self.hearing_position());
                let press = self.cmd_word(Cmd::Press);
                let help = self.cmd_word(Cmd::Help);
                let mut u = self.vocab.message(
                    MsgKey::UiHelp,
                    &[
                        ("commands", &commands),
                        ("example", &example),
                        ("press", &press),
                        ("help", &help),
                    ],
                );
                // The stop word, in its own sentence; the keys only where
                // there are keys.
                let quiet = self.cmd_word(Cmd::Quiet);
                let mut more = vec![self.vocab.message(MsgKey::UiHelpStop, &[("quiet", &quiet)])];
                if self.settings.front == super::Front::Screen {
                    more.push(self.vocab.message(MsgKey::UiHelpKeys, &[]));
                }
                // What waits now (boards that differ: the arbiter's
                // command that corrects them).
                if self.game.mirror().result().is_none()
                    && let Some(w) = self.words().waiting(self.game.mirror())
                {
                    more.push(w);
                }
                for m in more {
                    u.display = format!("{} {}", u.display, m.display);
                    u.spoken = format!("{} {}", u.spoken, m.spoken);
                }
                // Boards that differ wait for the arbiter (D.2.9): his
                // commands, which work from here too.
                if matches!(
                    self.game.mirror().mismatch(),
                    Some(crate::mirror::Mismatch::Boards { .. })
                ) {
                    let commands = self.command_list(&[
                        Cmd::Correct,
                        Cmd::Add,
                        Cmd::Remove,
                        Cmd::Set,
                        Cmd::Pause,
                        Cmd::Resume,
                    ]);
                    let m = self.vocab.message(
                        MsgKey::UiHelpMismatch,
                        &[
                            ("correct", &self.cmd_word(Cmd::Correct)),
                            ("commands", &commands),
                        ],
                    );
                    crate::query::append(&mut u, &m);
                }
                u
            }
        };
        self.say(fx, u, Priority::Request);
    }

    /// One command's help line: "claim: claims a draw …".
    fn help_on(&mut self, cmd: Cmd, fx: &mut Vec<Effect>) {
        let word = self.cmd_word(cmd);
        let help = self.vocab.message(cmd.help_key(), &[]);
        let u = self
            .vocab
            .message(MsgKey::UiHelpOne, &[("word", &word), ("help", &help)]);
        self.say(fx, u, Priority::Request);
    }

    fn command_list(&self, cmds: &[Cmd]) -> Utterance {
        Utterance::plain(
            cmds.iter()
                .map(|c| self.words.shown(*c))
                .collect::<Vec<_>>()
                .join(", "),
        )
    }

    pub(super) fn command(&mut self, cmd: Cmd, rest: &str, fx: &mut Vec<Effect>) {
        // Words after a command that takes none are refused, not dropped:
        // `press e5` neither presses nor plays.
        if cmd.row().bare && !rest.trim().is_empty() {
            let word = self.cmd_word(cmd);
            let rest = Utterance::plain(rest.trim().to_owned());
            let u = self
                .vocab
                .message(MsgKey::UiTakesNothing, &[("word", &word), ("rest", &rest)]);
            self.say(fx, u, Priority::Request);
            return;
        }
        match cmd {
            Cmd::Help => match self.words.read(rest) {
                Input::Command(about, _) => self.help_on(about, fx),
                _ => self.help(fx),
            },
            Cmd::Press => self.press(fx),
            Cmd::TakeBack => self.take_back(fx),
            Cmd::Time => {
                // Time left, and (D.2.10.4) the time each has used.
                let clock = self.game.mirror().clock();
                let w = clock.reading(Color::White, self.now);
                let b = clock.reading(Color::Black, self.now);
                let mut u = self.phrases.times(&w, &b, self.verbosity());
                for r in [&w, &b] {
                    let used = self.phrases.time_used(r, self.verbosity());
                    crate::query::append(&mut u, &used);
                }
                self.say(fx, u, Priority::Request);
            }
            Cmd::MyTime => {
                let (side, _) = self.words.strip_side(rest);
                let side = side.unwrap_or_else(|| self.clock_side());
                let r = self.game.mirror().clock().reading(side, self.now);
                let u = self.phrases.time(&r, self.verbosity());
                self.say(fx, u, Priority::Request);
            }
            Cmd::Alarm => self.alarm_command(rest, fx),
            Cmd::Count => {
                let clock = self.game.mirror().clock();
                let w = self.phrases.moves(&clock.reading(Color::White, self.now));
                let b = self.phrases.moves(&clock.reading(Color::Black, self.now));
                let u = Utterance {
                    display: format!("{} {}", w.display, b.display),
                    spoken: format!("{} {}", w.spoken, b.spoken),
                };
                self.say(fx, u, Priority::Request);
            }
            Cmd::Status => {
                let m = self.game.mirror();
                let words = self.words();
                let mut u = words.state_line(m);
                // The state line already names a result.
                if m.result().is_none()
                    && let Some(w) = words.waiting(m)
                {
                    u.display = format!("{} {}", u.display, w.display);
                    u.spoken = format!("{} {}", u.spoken, w.spoken);
                }
                self.say(fx, u, Priority::Request);
            }
            Cmd::Quiet => {
                fx.push(Effect::StopSpeech);
                // Shown, never spoken (that is what was asked for).
                let u = self.vocab.message(MsgKey::UiQuietDone, &[]);
                self.show(fx, u);
            }
            Cmd::Repeat => {
                if let Some(u) = self.last_said.clone() {
                    self.log.push(u.clone());
                    fx.push(Effect::Say(crate::vocab::Item::keyed(
                        u,
                        Priority::Request,
                        "repeat",
                    )));
                }
            }
            // Article 11.3: in a tournament game the legal moves of a piece
            // are help with the player's own move; practice lists them.
            Cmd::Legal if !self.settings.practice && self.game.mirror().result().is_none() => {
                let u = self.vocab.message(MsgKey::UiLegalTournament, &[]);
                self.say(fx, u, Priority::Request);
            }
            Cmd::Fen => {
                let u = self.fen_line();
                self.say(fx, u, Priority::Request);
                if self.settings.front == super::Front::Screen {
                    let fen = shakmaty::fen::Fen::from_position(
                        self.current().position(),
                        shakmaty::EnPassantMode::Legal,
                    );
                    fx.push(Effect::Clipboard(fen.to_string()));
                }
            }
            Cmd::What
            | Cmd::Where
            | Cmd::File
            | Cmd::Rank
            | Cmd::Pieces
            | Cmd::Legal
            | Cmd::Diagonal
            | Cmd::Ray
            | Cmd::Attacks
            | Cmd::Attackers
            | Cmd::Defenders
            | Cmd::Last
            | Cmd::LastFive => {
                let u = self.queries().answer(cmd, rest);
                self.say(fx, u, Priority::Request);
            }
            Cmd::Sheet => self.read_sheet(rest, fx),
            Cmd::Settings => self.settings_command(rest, fx),
            Cmd::Review => match self.game.mirror().result() {
                Some(_) => fx.push(Effect::Review(Box::new(
                    crate::review::ReviewGame::from_mirror(self.game.mirror()),
                ))),
                None => {
                    let u = self.vocab.message(
                        MsgKey::UiReviewAfterGame,
                        &[("resign", &self.cmd_word(Cmd::Resign))],
                    );
                    self.say(fx, u, Priority::Request);
                }
            },
            Cmd::Draw => self.offer_draw(rest, fx),
            Cmd::Accept | Cmd::Decline => self.answer_draw(cmd == Cmd::Accept, rest, fx),
            Cmd::Claim => self.claim(rest, fx),
            Cmd::Resign => self.resign(rest, fx),
            Cmd::Arbiter => match self.words.read(rest) {
                // "arbiter correct": the arbiter's command at once, and
                // back to the game.
                Input::Command(c, more) if c.is_arbiter() || c == Cmd::Help => {
                    self.arbiter_input(Input::Command(c, more), fx);
                    if self.prompt == Prompt::Arbiter && c != Cmd::Help {
                        self.prompt = Prompt::Game;
                    }
                }
                Input::Empty => {
                    self.prompt = Prompt::Arbiter;
                    self.help(fx);
                }
                other => {
                    self.prompt = Prompt::Arbiter;
                    self.arbiter_input(other, fx);
                }
            },
            // `save FILE`: that file this once; `save`: the --save file.
            Cmd::Save => fx.push(Effect::Save {
                path: match save_file(rest) {
                    Some(file) => file,
                    None => self.settings.save_path.clone(),
                },
                text: self.pgn(),
            }),
            Cmd::Quit => {
                self.prompt = Prompt::ConfirmQuit;
                let yes = self.cmd_word(Cmd::Yes);
                let no = self.cmd_word(Cmd::No);
                let u = self
                    .vocab
                    .message(MsgKey::UiQuitConfirm, &[("yes", &yes), ("no", &no)]);
                self.say(fx, u, Priority::Request);
            }
            Cmd::Pause
            | Cmd::Resume
            | Cmd::Add
            | Cmd::Remove
            | Cmd::Set
            | Cmd::Penalty
            | Cmd::Correct
            | Cmd::Touch
            | Cmd::Seal
            | Cmd::Present
            | Cmd::OpenSeal
            | Cmd::Absent
            | Cmd::Default
            | Cmd::Excuse
            | Cmd::Back => {
                // Arbiter commands also work from the game prompt.
                self.arbiter_input(Input::Command(cmd, rest.to_owned()), fx);
                if cmd == Cmd::Back || self.prompt == Prompt::Arbiter {
                    self.prompt = Prompt::Game;
                }
            }
            Cmd::RequestIncrement | Cmd::ClaimCannotWin | Cmd::ClaimNoEffort => {
                self.quickplay_command(cmd, rest, fx);
            }
            Cmd::GrantIncrement
            | Cmd::RefuseIncrement
            | Cmd::Agree
            | Cmd::Postpone
            | Cmd::Reject
            | Cmd::DecideDraw
            | Cmd::DecideLoss => {
                // Arbiter commands also work from the game prompt.
                self.quickplay_arbiter(cmd, rest, fx);
            }
            // An answer with no question, and the script's own lines (never
            // typed: the screen has no words for them).
            Cmd::Yes
            | Cmd::No
            | Cmd::Cancel
            | Cmd::Board
            | Cmd::Write
            | Cmd::Announce
            | Cmd::RepeatMove
            | Cmd::GameTime
            | Cmd::Sleep => {
                let u = self
                    .vocab
                    .describe_error(self.current().position(), &ParseError::Empty);
                self.unknown(u, fx);
            }
        }
    }

    /// The position in FEN; while the boards differ, each board's.
    fn fen_line(&self) -> Utterance {
        let m = self.game.mirror();
        let differ = m
            .board(Color::White)
            .moves()
            .iter()
            .zip(m.board(Color::Black).moves())
            .any(|(a, b)| a != b);
        if !differ {
            return self.queries().fen();
        }
        let mut out = Utterance::default();
        for c in [Color::White, Color::Black] {
            let mut q = self.queries();
            q.game = m.board(c);
            let fen = q.fen();
            let u = self.vocab.message(
                MsgKey::UiFenBoard,
                &[("side", &self.vocab.side(c)), ("fen", &fen)],
            );
            crate::query::append(&mut out, &u);
        }
        out
    }

    /// A player's scoresheet read out, naming whose it is.
    fn read_sheet(&mut self, rest: &str, fx: &mut Vec<Effect>) {
        let (side, _) = self.words.strip_side(rest);
        let owner = side.unwrap_or(Color::White);
        let rows = self.game.mirror().sheet_rows(owner);
        let whose = self.vocab.side(owner);
        let u = if rows.is_empty() {
            self.vocab
                .message(MsgKey::UiSheetEmpty, &[("sheet", &whose)])
        } else {
            let parts: Vec<String> = rows
                .iter()
                .map(|r| match (&r.white, &r.black) {
                    (None, Some(b)) => format!("{}... {b}", r.number),
                    (Some(w), Some(b)) => format!("{}. {w} {b}", r.number),
                    (w, None) => format!("{}. {}", r.number, w.as_deref().unwrap_or_default()),
                })
                .collect();
            self.vocab.message(
                MsgKey::UiSheet,
                &[
                    ("sheet", &whose),
                    ("moves", &Utterance::plain(parts.join(" "))),
                ],
            )
        };
        self.say(fx, u, Priority::Request);
    }

    /// The side whose clock runs (the player who is to act).
    pub(super) fn clock_side(&self) -> Color {
        let m = self.game.mirror();
        m.clock().running().unwrap_or_else(|| m.mover())
    }

    pub(super) fn arbiter_input(&mut self, input: Input, fx: &mut Vec<Effect>) {
        self.prompt = Prompt::Arbiter;
        let Input::Command(cmd, rest) = input else {
            let text = match input {
                Input::Empty => return,
                Input::Number(n) => n.to_string(),
                Input::Move(t) => t,
                Input::Command(..) => String::new(),
            };
            // Not an arbiter's command: say so, and how to go on.
            let u = self.vocab.message(
                MsgKey::UiArbiterUnknown,
                &[
                    ("text", &Utterance::plain(text)),
                    ("help", &self.cmd_word(Cmd::Help)),
                    ("back", &self.cmd_word(Cmd::Back)),
                ],
            );
            return self.say(fx, u, Priority::Request);
        };
        // "Back" and "take back" share words in some languages (German
        // "zurück"): with no move to take back, it leaves the menu.
        let cmd = if cmd == Cmd::TakeBack && self.unpressed().is_none() {
            Cmd::Back
        } else {
            cmd
        };
        match cmd {
            Cmd::Back => {
                self.prompt = Prompt::Game;
                let u = self.vocab.message(MsgKey::UiArbiterBack, &[]);
                self.say(fx, u, Priority::Request);
            }
            Cmd::Help => self.help(fx),
            Cmd::Pause
            | Cmd::Resume
            | Cmd::Correct
            | Cmd::Add
            | Cmd::Remove
            | Cmd::Set
            | Cmd::Penalty
            | Cmd::Touch
            | Cmd::Seal
            | Cmd::Present
            | Cmd::OpenSeal
            | Cmd::Absent
            | Cmd::Default
            | Cmd::Excuse => self.arbiter(cmd, &rest, fx),
            cmd if cmd.is_quickplay() && cmd.is_arbiter() => {
                self.quickplay_arbiter(cmd, &rest, fx);
            }
            other => {
                // Game commands work inside the menu too.
                self.prompt = Prompt::Game;
                self.command(other, &rest, fx);
                if self.prompt == Prompt::Game {
                    self.prompt = Prompt::Arbiter;
                }
            }
        }
    }
}

/// The file named after `save`, if any: the rest of the line, without the
/// quotes a user may put around a name with spaces.
fn save_file(rest: &str) -> Option<std::path::PathBuf> {
    let rest = rest.trim();
    let unquoted = ['"', '\'']
        .iter()
        .find_map(|q| rest.strip_prefix(*q)?.strip_suffix(*q))
        .unwrap_or(rest)
        .trim();
    (!unquoted.is_empty()).then(|| std::path::PathBuf::from(unquoted))
}
