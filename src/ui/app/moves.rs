//! Moves and procedures on the play screen, each one typed command to the
//! game layer: a move made (and announced), the press, the opponent's
//! execution on his board, take-back, draw offers and answers, claims,
//! resignation, and the arbiter's commands.

use shakmaty::san::San;
use shakmaty::{Chess, Color, Move, Position, Square};

use super::prompt::{Pending, Prompt};
use super::{App, Effect, Mode, Tell, Unpressed};
use crate::game::script::parse_duration;
use crate::game::{Command, Side};
use crate::locale::MsgKey;
use crate::mirror::{GameError, Stage};
use crate::ui::command::Cmd;
use crate::vocab::lex::Token;
use crate::vocab::{ParseError, Priority, Style, Utterance};

fn side_of(c: Color) -> Side {
    Side::from(c)
}

impl App {
    /// "Press the clock or take the move back" for a move not yet pressed.
    pub(super) fn press_first(&self, u: &Unpressed) -> Utterance {
        let side = self.vocab.side(u.by);
        let press = self.cmd_word(Cmd::Press);
        let takeback = self.cmd_word(Cmd::TakeBack);
        self.vocab.message(
            MsgKey::UiPressFirst,
            &[
                ("side", &side),
                ("move", &u.words),
                ("press", &press),
                ("takeback", &takeback),
            ],
        )
    }

    /// The board the next typed move is made on, and whether it is the
    /// execution of the opponent's move.
    pub(super) fn target_board(&self) -> (Color, bool) {
        let m = self.game.mirror();
        match m.stage() {
            Stage::Pressed { .. } => (!m.mover(), true),
            _ => (m.mover(), false),
        }
    }

    /// Candidates numbered for a choice: "1: …, or 2: …".
    pub(super) fn numbered(&self, words: &[Utterance]) -> Utterance {
        let or = self.vocab.locale().message(MsgKey::ParseOr, &[]);
        let mut list = Utterance::default();
        for (i, w) in words.iter().enumerate() {
            let sep = if i == 0 {
                String::new()
            } else {
                format!(" {or} ")
            };
            let n = self.vocab.number(i + 1);
            list.display
                .push_str(&format!("{sep}{}: {}", n.display, w.display));
            list.spoken
                .push_str(&format!("{sep}{}: {}", n.spoken, w.spoken));
        }
        list
    }

    /// Asks which of several moves was meant, numbered, best first.
    fn ask_choice(&mut self, pos: &Chess, moves: Vec<Move>, fx: &mut Vec<Effect>) {
        let words: Vec<Utterance> = moves
            .iter()
            .map(|m| self.vocab.announce(pos, *m, Style::Long))
            .collect();
        let list = self.numbered(&words);
        let u = self
            .vocab
            .message(MsgKey::UiChoose, &[("candidates", &list)]);
        self.say(fx, u, Priority::Request);
        self.prompt = Prompt::Choice(moves);
    }

    pub(super) fn typed_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        // A game that is over takes one move more: the opponent makes the
        // move that ended it on his board, and the boards are compared.
        if let Some(r) = self.game.mirror().result()
            && self.to_execute().is_none()
        {
            return self.announce_result(r, fx);
        }
        if let Some(u) = self.unpressed() {
            let msg = self.press_first(&u);
            return self.say(fx, msg, Priority::Request);
        }
        if self.engine_to_move() {
            let side = self.vocab.side(self.game.mirror().mover());
            let u = self.vocab.message(MsgKey::UiEngineTurn, &[("side", &side)]);
            return self.say(fx, u, Priority::Request);
        }
        let (board, executing) = self.target_board();
        let pos = self.game.mirror().board(board).position().clone();
        match self.vocab.parse(&pos, self.castling_mode(), text) {
            Ok(m) => self.chosen(m, fx),
            Err(ParseError::Illegal(_)) if !executing && !self.settings.practice => {
                // A tournament game: nothing about the legality of his own
                // move before the press (11.3). It is made and announced
                // as given; the press counts it (7.5).
                self.make_as_given(board, text, fx);
            }
            Err(ParseError::Ambiguous(moves)) if !executing && only_promotions(&moves) => {
                // A pawn to the last rank without a piece: it is made so
                // (in practice 7.5.2 warns what a press would do), and the
                // piece asked.
                self.replace_unlegal();
                let command = Command::Board {
                    side: side_of(board),
                    text: text.to_owned(),
                    uci: None,
                };
                if self.act_say(command, Tell::Warnings, fx) {
                    self.act_say(Command::Announce { text: None }, Tell::All, fx);
                }
                self.ask_choice(&pos, moves, fx);
            }
            Err(ParseError::Ambiguous(moves)) => {
                self.ask_choice(&pos, moves, fx);
            }
            Err(e) if executing => {
                // Not a move on this board: the game layer tells whether it
                // is the player's own next move, made without executing the
                // opponent's first.
                let command = Command::Board {
                    side: side_of(board),
                    text: text.to_owned(),
                    uci: None,
                };
                match self.act(command) {
                    Err(GameError::BadMove { .. }) => {
                        let u = self.vocab.describe_error(&pos, &e);
                        self.unknown(u, fx);
                    }
                    Err(other) => self.refused(&other, fx),
                    Ok(said) => self.tell(said, Tell::All, fx),
                }
            }
            Err(e) => {
                let u = self.vocab.describe_error(&pos, &e);
                self.unknown(u, fx);
            }
        }
    }

    /// A move that is not legal, made on the mover's board and announced
    /// as given (a tournament game): the press completes it (7.5).
    fn make_as_given(&mut self, board: Color, text: &str, fx: &mut Vec<Effect>) {
        self.replace_unlegal();
        let command = Command::Board {
            side: side_of(board),
            text: text.to_owned(),
            uci: None,
        };
        if self.act_say(command, Tell::Warnings, fx) {
            self.act_say(Command::Announce { text: None }, Tell::All, fx);
        }
    }

    /// A move not completed that is no legal move (an illegal one, or a
    /// pawn on the last rank without a piece) is replaced by the next one
    /// the player makes: it is taken off his board first.
    fn replace_unlegal(&mut self) {
        if matches!(
            self.game.mirror().stage(),
            Stage::Made { mv: None, .. } | Stage::Announced { mv: None, .. }
        ) {
            let _ = self.act(Command::TakeBack);
        }
    }

    /// A move chosen for the board the next move is made on.
    pub(super) fn chosen(&mut self, m: Move, fx: &mut Vec<Effect>) {
        // The piece for a pawn left without one, or a move replacing an
        // illegal one not yet completed: that move replaces it.
        self.replace_unlegal();
        match self.target_board() {
            (board, true) => self.execute(board, m, fx),
            (_, false) => self.make_move(m, fx),
        }
    }

    fn board_command(&self, board: Color, m: Move) -> Command {
        let pos = self.game.mirror().board(board).position();
        Command::Board {
            side: side_of(board),
            text: self.entry_text(pos, m),
            uci: Some(self.game.mirror().uci(m)),
        }
    }

    /// A move as the scoresheet writes it: standard notation in the
    /// locale's letters, or the squares for a move that is not legal but
    /// stands (A.5.2).
    fn entry_text(&self, pos: &Chess, m: Move) -> String {
        if pos.is_legal(m) {
            self.local_san(&San::from_move(pos, m).to_string())
        } else {
            self.game.mirror().uci(m)
        }
    }

    /// Makes a legal move on the mover's board and announces it (the clock
    /// is not yet pressed, D.2.8). A move that ends the game is complete
    /// then (5.1.1, 5.2): it goes on the scoresheets at once.
    pub(super) fn make_move(&mut self, m: Move, fx: &mut Vec<Effect>) {
        let mover = self.game.mirror().mover();
        let before = self.game.mirror().board(mover).position().clone();
        let made = Unpressed {
            mv: m,
            by: mover,
            words: self.vocab.announce(&before, m, self.settings.style),
            before,
        };
        let command = self.board_command(mover, m);
        if self.act_say(command, Tell::Warnings, fx) {
            // The sighted player's move that ends the game ends it when it
            // is made on his board (D.2.5): nothing is left to announce.
            if self.game.mirror().result().is_none() {
                self.act_say(Command::Announce { text: None }, Tell::All, fx);
            }
            if self.game.mirror().result().is_some() {
                self.complete(&made, fx);
            }
        }
    }

    /// A completed move on both scoresheets (with the draw-offer mark,
    /// 8.1.5) and, where one person keeps both boards, on the other board.
    fn complete(&mut self, u: &Unpressed, fx: &mut Vec<Effect>) {
        let mut entry = self.entry_text(&u.before, u.mv);
        if self
            .game
            .mirror()
            .draw_offers()
            .get(self.ply_of(u))
            .copied()
            == Some(true)
        {
            entry.push_str(" (=)");
        }
        for c in [Color::White, Color::Black] {
            let command = Command::Sheet {
                side: side_of(c),
                text: entry.clone(),
            };
            self.act_say(command, Tell::Warnings, fx);
        }
        if self.settings.mode != Mode::Board {
            // One person (or the engine) keeps both boards: the move is
            // made on the other board at once.
            let command = self.board_command(!u.by, u.mv);
            if let Ok(said) = self.act(command) {
                self.tell(said, Tell::Warnings, fx);
            }
        }
    }

    /// After the press of a move that was no legal move, the move it left
    /// on the board (a queen, 7.5.2; an illegal move that stands, A.5.2)
    /// goes on both scoresheets and, where one person keeps both boards,
    /// on the other board.
    fn complete_pressed(&mut self, fx: &mut Vec<Effect>) {
        let m = self.game.mirror();
        let Stage::Pressed { mv, .. } = *m.stage() else {
            return;
        };
        let by = m.mover();
        // The position the move was made in: the board's own history.
        let before = m.board(by).position_before_last().clone();
        let u = Unpressed {
            mv,
            by,
            words: Utterance::default(),
            before,
        };
        self.complete(&u, fx);
    }

    /// The ply of the move `u` (its index in the game).
    fn ply_of(&self, u: &Unpressed) -> usize {
        self.game
            .mirror()
            .board(u.by)
            .moves()
            .len()
            .saturating_sub(1)
    }

    /// The opponent makes the pressed move on his board (two-board mode).
    fn execute(&mut self, board: Color, m: Move, fx: &mut Vec<Effect>) {
        let command = self.board_command(board, m);
        // The save is White's board: it has Black's move only now.
        if self.act_say(command, Tell::All, fx) && board == Color::White {
            self.autosave(fx);
        }
        let g = self.game.mirror();
        if g.stage() == &Stage::Idle && g.mismatch().is_none() {
            self.maybe_ask_engine(fx);
        }
    }

    pub(super) fn press(&mut self, fx: &mut Vec<Effect>) {
        if self.game.mirror().is_sealing() {
            return self.close_envelope(fx);
        }
        let Some(u) = self.unpressed() else {
            let m = self.game.mirror();
            if let Some(r) = m.result() {
                return self.announce_result(r, fx);
            }
            if let Some(e) = m.await_execution() {
                return self.refused(&e, fx);
            }
            return match m.stage() {
                // A move that is no legal move: the press completes it
                // (7.5): a pawn on the last rank without a piece becomes a
                // queen (7.5.2), an illegal move is taken back (7.5.1) or,
                // without an arbiter, stands (A.5.2).
                Stage::Made { .. } | Stage::Announced { .. } => {
                    if self.act_say(Command::Press, Tell::All, fx) {
                        self.complete_pressed(fx);
                    }
                }
                // No move made: pressing is an illegal move (7.5.3), so it
                // is said back first.
                _ => self.ask_confirmation(Pending::PressWithoutMove(m.mover()), fx),
            };
        };
        let two_boards = self.settings.mode == Mode::Board;
        let tell = if two_boards {
            Tell::All
        } else {
            Tell::Warnings
        };
        if !self.act_say(Command::Press, tell, fx) {
            return;
        }
        self.complete(&u, fx);
        if self.game.mirror().result().is_some() {
            return;
        }
        if !two_boards {
            let side = self.vocab.side(u.by);
            let next = self.vocab.side(!u.by);
            let msg = self
                .vocab
                .message(MsgKey::UiPressed, &[("side", &side), ("next", &next)]);
            self.say(fx, msg, Priority::Move);
        }
        self.autosave(fx);
        self.talk(fx);
        self.maybe_ask_engine(fx);
    }

    pub(super) fn take_back(&mut self, fx: &mut Vec<Effect>) {
        match self.unpressed() {
            Some(u) => match self.act(Command::TakeBack) {
                Ok(_) => {
                    let side = self.vocab.side(u.by);
                    let msg = self
                        .vocab
                        .message(MsgKey::UiTakenBack, &[("move", &u.words), ("side", &side)]);
                    self.say(fx, msg, Priority::Move);
                }
                Err(e) => self.refused(&e, fx),
            },
            None if matches!(
                self.game.mirror().stage(),
                Stage::Made { .. } | Stage::Announced { .. }
            ) =>
            {
                // A move that is no legal move, not yet completed.
                self.act_say(Command::TakeBack, Tell::All, fx);
            }
            None => {
                let msg = self.vocab.message(MsgKey::UiNothingToTakeBack, &[]);
                self.say(fx, msg, Priority::Request);
            }
        }
    }

    pub(super) fn offer_draw(&mut self, rest: &str, fx: &mut Vec<Effect>) {
        if let Some(r) = self.game.mirror().result() {
            return self.announce_result(r, fx);
        }
        if self.game.mirror().sealed().is_some() {
            return self.offer_while_adjourned(rest, fx);
        }
        let (side, _) = self.words.strip_side(rest);
        let by = side.unwrap_or_else(|| self.clock_side());
        // An offer cannot be withdrawn (9.1.2.1): said back first, as
        // every irreversible action.
        self.ask_confirmation(Pending::OfferDraw(by), fx);
    }

    /// A draw offer said by voice: said back first, made after yes
    /// ([`Pending::OfferDraw`]).
    pub(super) fn offer_draw_spoken(&mut self, fx: &mut Vec<Effect>) {
        if let Some(r) = self.game.mirror().result() {
            return self.announce_result(r, fx);
        }
        if self.game.mirror().sealed().is_some() {
            return self.offer_while_adjourned("", fx);
        }
        let by = self.clock_side();
        self.ask_confirmation(Pending::OfferDraw(by), fx);
    }

    /// `by` offers a draw, through the game layer.
    fn make_offer(&mut self, by: Color, fx: &mut Vec<Effect>) {
        if self.act_say(Command::OfferDraw { side: side_of(by) }, Tell::Warnings, fx) {
            let u = self.vocab.message(
                MsgKey::UiDrawOffered,
                &[
                    ("side", &self.vocab.side(by)),
                    ("opponent", &self.vocab.side(!by)),
                    ("accept", &self.cmd_word(Cmd::Accept)),
                    ("decline", &self.cmd_word(Cmd::Decline)),
                ],
            );
            self.say(fx, u, Priority::Move);
        }
    }

    pub(super) fn answer_draw(&mut self, accept: bool, rest: &str, fx: &mut Vec<Effect>) {
        let Some(offerer) = self.game.mirror().draw_offer() else {
            let u = self.vocab.message(
                MsgKey::UiNoDrawOffer,
                &[("draw", &self.cmd_word(Cmd::Draw))],
            );
            return self.say(fx, u, Priority::Request);
        };
        let (side, _) = self.words.strip_side(rest);
        let by = side.unwrap_or(!offerer);
        if by == offerer {
            let u = self.vocab.message(
                MsgKey::UiOwnDrawOffer,
                &[
                    ("side", &self.vocab.side(by)),
                    ("opponent", &self.vocab.side(!by)),
                ],
            );
            return self.say(fx, u, Priority::Request);
        }
        if accept {
            return self.ask_confirmation(Pending::AcceptDraw(by), fx);
        }
        let command = Command::AnswerDraw {
            side: side_of(by),
            accept,
        };
        self.act_say(command, Tell::All, fx);
    }

    /// A claim: by the named side, else by the player to move (a draw
    /// claim) or, in unsupervised play, by the player who may claim the
    /// win for an illegal move. Said back for confirmation first.
    pub(super) fn claim(&mut self, rest: &str, fx: &mut Vec<Effect>) {
        let (side, written) = self.words.strip_side(rest);
        let m = self.game.mirror();
        let by = side
            .or_else(|| m.win_claimable_by())
            .unwrap_or_else(|| m.mover());
        // `claim MOVE`: the move he wrote on his scoresheet and intends to
        // make, without making it (9.2.1.1, 9.3.1).
        let written = (!written.is_empty()).then(|| written.to_owned());
        if let Some(text) = &written {
            let pos = self.game.mirror().board(by).position().clone();
            if let Err(
                e @ (ParseError::Empty
                | ParseError::NotUnderstood { .. }
                | ParseError::Incomplete { .. }
                | ParseError::TooLong(_)),
            ) = self.vocab.parse(&pos, self.castling_mode(), text)
            {
                let u = self.vocab.describe_error(&pos, &e);
                return self.unknown(u, fx);
            }
        }
        self.ask_confirmation(Pending::Claim(by, written), fx);
    }

    pub(super) fn resign(&mut self, rest: &str, fx: &mut Vec<Effect>) {
        let (side, _) = self.words.strip_side(rest);
        let by = side.unwrap_or_else(|| self.clock_side());
        if let Some(r) = self.game.mirror().result() {
            return self.announce_result(r, fx);
        }
        self.ask_confirmation(Pending::Resign(by), fx);
    }

    /// Says back what cannot be undone, naming the side, and waits for
    /// yes or no (typed or spoken).
    pub(super) fn ask_confirmation(&mut self, p: Pending, fx: &mut Vec<Effect>) {
        let (key, side) = match &p {
            Pending::Resign(c) => (MsgKey::UiConfirmResign, *c),
            Pending::AcceptDraw(c) => (MsgKey::UiConfirmAccept, *c),
            Pending::OfferDraw(c) => (MsgKey::UiConfirmOffer, *c),
            Pending::Claim(c, None) => (MsgKey::UiConfirmClaim, *c),
            Pending::Claim(c, Some(_)) => (MsgKey::UiConfirmClaimMove, *c),
            Pending::PressWithoutMove(c) => (MsgKey::UiConfirmPress, *c),
            Pending::QuickplayClaim(c, _) => (self.quickplay_confirmation(), *c),
        };
        let yes = self.cmd_word(Cmd::Yes);
        let no = self.cmd_word(Cmd::No);
        let written = match &p {
            Pending::Claim(c, Some(text)) => {
                let pos = self.game.mirror().board(*c).position().clone();
                match self.vocab.parse(&pos, self.castling_mode(), text) {
                    Ok(m) => self.vocab.announce(&pos, m, self.settings.style),
                    Err(_) => Utterance::plain(text.clone()),
                }
            }
            _ => Utterance::default(),
        };
        let u = self.vocab.message(
            key,
            &[
                ("side", &self.vocab.side(side)),
                ("opponent", &self.vocab.side(!side)),
                ("move", &written),
                ("yes", &yes),
                ("no", &no),
            ],
        );
        self.prompt = Prompt::Confirm(p);
        self.say(fx, u, Priority::Critical);
    }

    /// The confirmed action, through the game layer.
    pub(super) fn confirmed(&mut self, p: Pending, fx: &mut Vec<Effect>) {
        let command = match p {
            Pending::OfferDraw(c) => return self.make_offer(c, fx),
            Pending::Resign(c) => Command::Resign { side: side_of(c) },
            Pending::AcceptDraw(c) => Command::AnswerDraw {
                side: side_of(c),
                accept: true,
            },
            Pending::Claim(c, text) => Command::Claim {
                side: side_of(c),
                text,
            },
            Pending::PressWithoutMove(_) => Command::Press,
            Pending::QuickplayClaim(c, grounds) => Command::ClaimQuickplay {
                side: side_of(c),
                grounds,
            },
        };
        self.act_say(command, Tell::All, fx);
    }

    /// An arbiter's command (from the menu or the game prompt).
    pub(super) fn arbiter(&mut self, cmd: Cmd, rest: &str, fx: &mut Vec<Effect>) {
        let example = |app: &App, tail: &str| {
            Utterance::plain(format!(
                "{} {}{tail}",
                app.words.shown(cmd),
                app.vocab.side(Color::White).display.to_lowercase()
            ))
        };
        let command = match cmd {
            Cmd::Pause => Command::Pause,
            Cmd::Resume => Command::Resume,
            Cmd::Correct => Command::Correct,
            Cmd::Present | Cmd::Absent | Cmd::Excuse | Cmd::Default => {
                return self.attendance(cmd, rest, fx);
            }
            Cmd::OpenSeal => Command::OpenSeal,
            Cmd::Add | Cmd::Remove | Cmd::Set => {
                let (side, rest) = self.words.strip_side(rest);
                let amount = rest.split_whitespace().next().and_then(parse_duration);
                let (Some(side), Some(amount)) = (side, amount) else {
                    let example = example(self, " 60");
                    let u = self
                        .vocab
                        .message(MsgKey::UiNeedTime, &[("example", &example)]);
                    return self.say(fx, u, Priority::Request);
                };
                let ms = u64::try_from(amount.as_millis()).unwrap_or(u64::MAX);
                match cmd {
                    Cmd::Set => Command::SetTime {
                        side: side_of(side),
                        ms,
                    },
                    _ => Command::Adjust {
                        side: side_of(side),
                        ms,
                        add: cmd == Cmd::Add,
                    },
                }
            }
            Cmd::Penalty => {
                let (side, _) = self.words.strip_side(rest);
                let Some(side) = side else {
                    let example = example(self, "");
                    let u = self
                        .vocab
                        .message(MsgKey::UiNeedSide, &[("example", &example)]);
                    return self.say(fx, u, Priority::Request);
                };
                Command::Penalty {
                    side: side_of(side),
                }
            }
            Cmd::Touch => {
                let square = self.square_in(rest);
                let (side, _) = self.words.strip_side(rest);
                let (Some(square), side) = (square, side) else {
                    let example = Utterance::plain(format!(
                        "{} {}",
                        self.words.shown(cmd),
                        self.vocab.square(Square::G1).display
                    ));
                    let u = self
                        .vocab
                        .message(MsgKey::UiNeedSquare, &[("example", &example)]);
                    return self.say(fx, u, Priority::Request);
                };
                let side = side.unwrap_or_else(|| self.game.mirror().mover());
                Command::Touch {
                    side: side_of(side),
                    square: square.to_string(),
                }
            }
            Cmd::Seal => {
                let (mv, when) = match rest.split_once('@') {
                    Some((m, w)) => (m.trim(), w.trim()),
                    None => (rest.trim(), ""),
                };
                if mv.is_empty() {
                    let example = Utterance::plain(format!(
                        "{} {} @ …",
                        self.words.shown(cmd),
                        self.vocab.example(self.current().position()).display
                    ));
                    let u = self
                        .vocab
                        .message(MsgKey::UiNeedMove, &[("example", &example)]);
                    return self.say(fx, u, Priority::Request);
                }
                Command::Seal {
                    text: mv.to_owned(),
                    resumption: when.to_owned(),
                }
            }
            _ => return,
        };
        let correct = command == Command::Correct;
        let opened = command == Command::OpenSeal;
        self.act_say(command, Tell::All, fx);
        if (correct && self.game.mirror().mismatch().is_none()) || opened {
            self.maybe_ask_engine(fx);
        }
    }

    /// The first square named in `text`.
    fn square_in(&self, text: &str) -> Option<Square> {
        let lexed = self.dict.tokenize(text);
        lexed.alternatives.iter().find_map(|alt| {
            alt.iter().find_map(|t| match t {
                Token::Square(s) => Some(*s),
                _ => None,
            })
        })
    }
}

/// The moves differ only in the piece a pawn becomes (a pawn to the last
/// rank with no piece named).
fn only_promotions(moves: &[Move]) -> bool {
    moves.first().is_some_and(|f| {
        moves
            .iter()
            .all(|m| m.is_promotion() && m.from() == f.from() && m.to() == f.to())
    })
}
