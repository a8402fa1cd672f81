//! The UCI engine's turn on the play screen: asked for a move when it is
//! to move; its move is made, announced and pressed like any other.

use shakmaty::EnPassantMode;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;

use shakmaty::Color;

use super::{App, Effect, EngineSide};
use crate::engine::EngineError;
use crate::locale::MsgKey;
use crate::mirror::Stage;
use crate::vocab::{Priority, Utterance};

impl App {
    /// `true` when the engine is to move now.
    pub(super) fn engine_to_move(&self) -> bool {
        let m = self.game.mirror();
        self.engine_on
            && m.result().is_none()
            && *m.stage() == Stage::Idle
            && m.mismatch().is_none()
            && m.sealed().is_none()
            && self.settings.engine_side.plays(m.mover())
    }

    pub(super) fn maybe_ask_engine(&mut self, fx: &mut Vec<Effect>) {
        if self.engine_to_move() && !self.engine_busy {
            self.engine_busy = true;
            let game = self.current();
            let fen = Fen::from_position(game.start(), EnPassantMode::Legal).to_string();
            let moves = game.moves().iter().map(|m| m.to_uci(game.mode())).collect();
            fx.push(Effect::AskEngine { fen, moves });
        }
    }

    pub(super) fn engine_move(&mut self, uci: &UciMove, fx: &mut Vec<Effect>) {
        self.engine_busy = false;
        if !self.engine_to_move() {
            return;
        }
        match uci.to_move(self.current().position()).ok() {
            Some(m) => {
                self.make_move(m, fx);
                if self.unpressed().is_some() {
                    self.press(fx);
                }
            }
            None => self.engine_failed(&EngineError::Illegal(*uci), fx),
        }
    }

    /// The engine cannot be used: said (in this screen's words), and its
    /// side's moves are typed from now on.
    pub(super) fn engine_failed(&mut self, error: &EngineError, fx: &mut Vec<Effect>) {
        self.engine_busy = false;
        let at_start = error.at_start();
        if self.engine_on {
            self.engine_on = false;
            // The side whose moves are typed now: the engine's.
            let engine_side = match self.settings.engine_side {
                EngineSide::White => Color::White,
                EngineSide::Black => Color::Black,
                EngineSide::Both => self.game.mirror().mover(),
            };
            let side = self.vocab.side(engine_side);
            let error = Utterance::plain(error.describe(self.vocab.locale()));
            let key = if at_start {
                MsgKey::UiEngineMissing
            } else {
                MsgKey::UiEngineFailed
            };
            let u = self
                .vocab
                .message(key, &[("error", &error), ("side", &side)]);
            self.say(fx, u, Priority::Critical);
        }
    }
}
