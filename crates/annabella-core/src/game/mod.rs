//! The game layer (pure): one [`Game`] that every front end drives — the
//! `play` script, the play screen (full screen and `--plain`), spoken
//! commands and the engine. It takes typed [`Command`]s and returns typed
//! outcomes (`Result<Vec<GameEvent>, GameError>`); it owns the two-board
//! core ([`Mirror`]), the journal records not yet saved, and the undo that
//! restores the game when they cannot be saved.
//!
//! - [`command`]: the commands, stored as they are in the journal;
//! - [`script`]: the text form of commands (the `play` script's lines);
//! - [`words`]: the one place where events and refusals become words, in
//!   the locale's messages and the front end's command names.
//!
//! The same command gives the same outcome and the same journal record
//! whichever front end sent it. Nothing here does I/O: a front end hands the
//! records from [`Game::take_records`] to the journal store *before* it
//! says anything, and calls [`Game::rollback`] if they could not be saved.

pub mod command;
pub mod script;
pub mod words;

use std::time::Duration;

use shakmaty::{Chess, Color, Square};

pub use crate::commands::Verbs;
pub use command::{Command, Side};
pub use words::Wording;

use crate::mirror::{Config, GameError, Mirror, MoveInput, Said};
use crate::vocab::Vocabulary;
use serde::{Deserialize, Serialize};

/// What the game keeps of one accepted command: one journal line after
/// the header (the journal format, [`crate::journal`], writes and reads it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Sequence number, 1 for the first record (set by the journal store).
    #[serde(default)]
    pub seq: u64,
    /// The checksum of the line before (the header's for the first record;
    /// set by the journal store).
    #[serde(default)]
    pub prev: String,
    /// Game time in milliseconds (injected time of the core).
    pub at_ms: u64,
    /// Line of the script that gave the event, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// The command.
    pub event: Command,
    /// What was announced (display form), for people reading the file.
    #[serde(default)]
    pub said: Vec<String>,
    /// Both players' remaining time afterwards, in ms (White, Black).
    #[serde(default)]
    pub clock_ms: [u64; 2],
}

/// A game in progress: the two-board core, the journal records not yet
/// saved, and the state to go back to if saving them fails.
#[derive(Debug, Clone)]
pub struct Game {
    mirror: Mirror,
    pending: Vec<Record>,
    /// The game before the first pending record.
    undo: Option<Box<Mirror>>,
    /// The game before the records last handed out, until they are known
    /// to be saved (the next command) or not ([`Game::rollback`]).
    handed: Option<Box<Mirror>>,
}

impl Game {
    /// A new game at game time `now`.
    pub fn new(vocab: Vocabulary, config: Config, now: Duration) -> Game {
        Game::from_mirror(Mirror::new(vocab, config, now))
    }

    /// A game continued from a core state (a replayed journal).
    pub fn from_mirror(mirror: Mirror) -> Game {
        Game {
            mirror,
            pending: Vec::new(),
            undo: None,
            handed: None,
        }
    }

    /// Replays journal records from a fresh game: the exact state after the
    /// last one. On failure: the 0-based index of the record and why.
    pub fn replay(
        vocab: Vocabulary,
        config: Config,
        records: &[Record],
    ) -> Result<Game, (usize, GameError)> {
        let mut mirror = Mirror::new(vocab, config, Duration::ZERO);
        for (i, r) in records.iter().enumerate() {
            dispatch(&mut mirror, Duration::from_millis(r.at_ms), &r.event).map_err(|e| (i, e))?;
        }
        Ok(Game::from_mirror(mirror))
    }

    /// Replays one more journal record on top of the game, at its
    /// recorded time (a record the arbiter takes when a journal is
    /// repaired): as [`Game::replay`] does, no new record is made.
    /// Returns what happened; refused, the game is unchanged.
    pub fn replay_record(&mut self, record: &Record) -> Result<Said, GameError> {
        let mut mirror = self.mirror.clone();
        let said = dispatch(
            &mut mirror,
            Duration::from_millis(record.at_ms),
            &record.event,
        )?;
        self.mirror = mirror;
        Ok(said)
    }

    /// The two-board core (boards, scoresheets, clock, record).
    pub fn mirror(&self) -> &Mirror {
        &self.mirror
    }

    /// The game's words, for the front end whose commands `verbs` names.
    pub fn wording<'a>(&'a self, verbs: &'a dyn Verbs) -> Wording<'a> {
        Wording::of(&self.mirror, verbs)
    }

    /// Applies `command` at game time `now` (`line`: the script line that
    /// gave it, kept in the journal). Accepted, it returns what happened
    /// and adds a journal record; refused, it changes nothing.
    pub fn apply(
        &mut self,
        now: Duration,
        command: Command,
        line: Option<u64>,
    ) -> Result<Said, GameError> {
        let before = self.mirror.clone();
        let mut command = command;
        match dispatch(&mut self.mirror, now, &command) {
            Err(e) => {
                self.mirror = before;
                Err(e)
            }
            Ok(said) => {
                resolve_board_move(&before, &self.mirror, &mut command);
                if self.pending.is_empty() {
                    self.handed = None;
                    self.undo = Some(Box::new(before));
                }
                let verbs = script::ScriptVerbs;
                let words = Wording::of(&self.mirror, &verbs);
                self.pending.push(Record {
                    seq: 0,
                    prev: String::new(),
                    at_ms: u64::try_from(now.as_millis()).unwrap_or(u64::MAX),
                    line,
                    event: command,
                    said: said.iter().map(|e| words.event(e).display).collect(),
                    clock_ms: clock_ms(&self.mirror),
                });
                Ok(said)
            }
        }
    }

    /// Game time passes to `now`. Nothing is recorded unless something
    /// happens (a flag falls); then that is recorded as a command.
    pub fn tick(&mut self, now: Duration) -> Said {
        let m = &self.mirror;
        if m.result().is_some() || now < m.now() {
            return Said::new();
        }
        let clock = m.clock();
        let due = clock.flagged().is_none()
            && clock
                .running()
                .is_some_and(|c| clock.remaining(c, now).is_zero())
            || m.absence_due(now).is_some();
        if due {
            self.apply(now, Command::Tick, None).unwrap_or_default()
        } else {
            self.mirror.tick(now).unwrap_or_default()
        }
    }

    /// `true` when records wait to be saved.
    pub fn has_records(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Hands the records of the commands since the last call to the front
    /// end, to be saved (synced) before anything is said. Until the next
    /// command, [`Game::rollback`] can undo them.
    pub fn take_records(&mut self) -> Vec<Record> {
        if !self.pending.is_empty() {
            self.handed = self.undo.take();
        }
        std::mem::take(&mut self.pending)
    }

    /// The records last handed out could not be saved: the game goes back
    /// to where it was before them. `false` if there was nothing to undo.
    pub fn rollback(&mut self) -> bool {
        self.pending.clear();
        self.undo = None;
        match self.handed.take() {
            Some(m) => {
                self.mirror = *m;
                true
            }
            None => false,
        }
    }
}

/// Applies one command to the core at `now`.
fn dispatch(mirror: &mut Mirror, now: Duration, command: &Command) -> Result<Said, GameError> {
    match command {
        // Adjournment (Guideline I): the press while sealing stops the
        // clock; draws and resignation before the resumption (I.4, I.6).
        Command::Press if mirror.is_sealing() => mirror.close_envelope(now),
        Command::OfferDraw { side } if mirror.sealed().is_some() => {
            mirror.adjourned_offer(now, (*side).into())
        }
        Command::AnswerDraw { side, accept } if mirror.sealed().is_some() => {
            mirror.adjourned_answer(now, (*side).into(), *accept)
        }
        Command::Resign { side } if mirror.sealed().is_some() => {
            mirror.adjourned_resign(now, (*side).into())
        }
        Command::Board { side, text, uci } => {
            let c = Color::from(*side);
            let pos = mirror.board(c).position().clone();
            let inp = input(mirror, Some(&pos), text, uci.as_deref());
            mirror.board_move(now, c, &inp)
        }
        Command::Announce { text } => {
            let inp = text.as_deref().map(MoveInput::from);
            mirror.announce(now, inp.as_ref())
        }
        Command::TakeBack => mirror.take_back(now),
        Command::Press => mirror.press(now),
        Command::Repeat { text } => {
            let inp = text.as_deref().map(MoveInput::from);
            mirror.repeat(now, inp.as_ref())
        }
        Command::Sheet { side, text } => {
            mirror.sheet_entry(now, (*side).into(), &MoveInput::from(text.as_str()))
        }
        Command::OfferDraw { side } => mirror.offer_draw(now, (*side).into()),
        Command::AnswerDraw { side, accept } => mirror.answer_draw(now, (*side).into(), *accept),
        Command::Resign { side } => mirror.resign(now, (*side).into()),
        Command::Tick => mirror.tick(now),
        Command::Adjust { side, ms, add } => {
            mirror.arbiter_adjust(now, (*side).into(), Duration::from_millis(*ms), *add)
        }
        Command::SetTime { side, ms } => {
            mirror.arbiter_set(now, (*side).into(), Duration::from_millis(*ms))
        }
        Command::Correct => mirror.arbiter_correct(now).map(|(_, s)| s),
        Command::Pause => mirror.arbiter_pause(now),
        Command::Resume => mirror.arbiter_resume(now),
        Command::Penalty { side } => mirror.arbiter_penalty(now, (*side).into()),
        Command::Claim { side, text } => {
            let written = text.as_deref().map(MoveInput::from);
            mirror.claim_draw(now, (*side).into(), written.as_ref())
        }
        Command::Seal { text, resumption } => {
            mirror.seal(now, &MoveInput::from(text.as_str()), resumption)
        }
        Command::Present { side } => mirror.attend(now, side.map(Color::from), true),
        Command::Absent { side } => mirror.attend(now, Some((*side).into()), false),
        Command::DefaultTime { ms } => mirror.set_default_time(now, Duration::from_millis(*ms)),
        Command::Excuse { side } => mirror.excuse(now, (*side).into()),
        Command::OpenSeal => mirror.open_seal(now),
        Command::Touch { side, square } => match square.parse::<Square>() {
            Ok(sq) => mirror.report_touch(now, (*side).into(), sq),
            Err(_) => Err(GameError::BadSquare(square.clone())),
        },
        Command::PgnNotes { clocks, comments } => {
            let clocks: Vec<Option<Duration>> = clocks
                .iter()
                .map(|c| c.map(Duration::from_millis))
                .collect();
            mirror.import_notes(now, &clocks, comments)
        }
        Command::RequestIncrement { side } => mirror.request_increment(now, (*side).into()),
        Command::DecideIncrement { grant } => mirror.decide_increment(now, *grant),
        Command::ClaimQuickplay { side, grounds } => {
            mirror.claim_quickplay(now, (*side).into(), *grounds)
        }
        Command::UpholdClaim => mirror.uphold_claim(now),
        Command::PostponeClaim { two_minutes } => mirror.postpone_claim(now, *two_minutes),
        Command::RejectClaim => mirror.reject_claim(now),
        Command::DecideAfterFlag { draw } => mirror.decide_after_flag(now, *draw),
    }
}

/// A board move as given: its resolved move first (replay does not depend
/// on reading the words again), else its text.
fn input(mirror: &Mirror, pos: Option<&Chess>, text: &str, uci: Option<&str>) -> MoveInput {
    if let (Some(pos), Some(u)) = (pos, uci)
        && let Some(m) = mirror.from_uci(pos, u)
    {
        return MoveInput::Move(m);
    }
    MoveInput::Text(text.to_owned())
}

/// Fills in the resolved move of a board command after it was applied.
fn resolve_board_move(before: &Mirror, after: &Mirror, command: &mut Command) {
    if let Command::Board { side, uci, .. } = command {
        let c = Color::from(*side);
        let (b, a) = (before.board(c).moves(), after.board(c).moves());
        if a.len() == b.len() + 1 {
            *uci = a.last().map(|m| after.uci(*m));
        }
    }
}

/// Both remaining times in ms at the core's current time (White, Black).
pub fn clock_ms(mirror: &Mirror) -> [u64; 2] {
    let ms = |c: Color| {
        u64::try_from(mirror.clock().remaining(c, mirror.now()).as_millis()).unwrap_or(u64::MAX)
    };
    [ms(Color::White), ms(Color::Black)]
}

#[cfg(test)]
mod tests;
