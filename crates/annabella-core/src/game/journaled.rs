//! The one save sequence of every front end: a [`Game`] with the journal
//! store its records go to. After each update a front end calls
//! [`Journaled::save`]: the records of the commands since the last save are
//! taken, appended to the store as one unit (durably), and acknowledged —
//! or, when the store fails, the game goes back to where it was before
//! them, and the failure is returned for the front end to say. Nothing is
//! announced before its records are saved.

use std::ops::Deref;
use std::time::Duration;

use super::{Command, Game, Record};
use crate::mirror::{GameError, Said};

/// Where a game's records are kept (the journal store is the real one):
/// `records` are appended as one unit and durable when it returns `Ok`,
/// or none of them is kept.
pub trait Store {
    /// Why records could not be kept.
    type Error;
    /// Appends `records` (never empty) as one unit, synced.
    fn append_all(&mut self, records: &[Record]) -> Result<(), Self::Error>;
}

impl<S: Store + ?Sized> Store for Box<S> {
    type Error = S::Error;
    fn append_all(&mut self, records: &[Record]) -> Result<(), S::Error> {
        (**self).append_all(records)
    }
}

/// Records that could not be saved: the game went back to where it was
/// before them.
#[derive(Debug)]
pub struct SaveFailed<E> {
    /// What the store said.
    pub error: E,
    /// `true` when commands were undone (`false`: there was nothing to
    /// undo, as for the records of a new game's first state).
    pub undone: bool,
}

/// A game and its journal store (see the module).
#[derive(Debug)]
pub struct Journaled<S> {
    game: Game,
    store: S,
}

impl<S: Store> Journaled<S> {
    /// `game`, whose records go to `store` from now on.
    pub fn new(game: Game, store: S) -> Journaled<S> {
        Journaled { game, store }
    }

    /// The game (read only: it changes through [`Journaled::apply`] and
    /// [`Journaled::tick`]).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The game and the store again.
    pub fn into_parts(self) -> (Game, S) {
        (self.game, self.store)
    }

    /// Applies a command ([`Game::apply`]); its record waits for
    /// [`Journaled::save`].
    pub fn apply(
        &mut self,
        now: Duration,
        command: Command,
        line: Option<u64>,
    ) -> Result<Said, GameError> {
        self.game.apply(now, command, line)
    }

    /// Time passes ([`Game::tick`]); a flag's record waits for
    /// [`Journaled::save`].
    pub fn tick(&mut self, now: Duration) -> Said {
        self.game.tick(now)
    }

    /// Takes the records not yet saved, appends them to the store, and
    /// acknowledges them; if the store fails, rolls the game back to
    /// before them and says so. Nothing to save is `Ok`.
    pub fn save(&mut self) -> Result<(), SaveFailed<S::Error>> {
        if !self.game.has_records() {
            return Ok(());
        }
        let records = self.game.take_records();
        match self.store.append_all(&records) {
            Ok(()) => {
                self.game.acknowledge();
                Ok(())
            }
            Err(error) => Err(SaveFailed {
                error,
                undone: self.game.rollback(),
            }),
        }
    }
}

impl<S> Deref for Journaled<S> {
    type Target = Game;
    fn deref(&self) -> &Game {
        &self.game
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;
    use crate::mirror::Config;
    use crate::vocab::Vocabulary;

    /// Keeps what it is given, or refuses while `fail` is set.
    #[derive(Default)]
    struct Shelf {
        kept: Vec<Record>,
        fail: bool,
    }

    impl Store for Shelf {
        type Error = &'static str;
        fn append_all(&mut self, records: &[Record]) -> Result<(), &'static str> {
            if self.fail {
                return Err("full");
            }
            self.kept.extend_from_slice(records);
            Ok(())
        }
    }

    fn game() -> Journaled<Shelf> {
        let vocab = Vocabulary::builtin("en").unwrap();
        let g = Game::new(vocab, Config::default(), Duration::ZERO);
        Journaled::new(g, Shelf::default())
    }

    fn e4(j: &mut Journaled<Shelf>) {
        j.apply(
            Duration::ZERO,
            Command::Board {
                side: Side::White,
                text: "e4".into(),
                uci: None,
            },
            None,
        )
        .expect("e4 is legal");
    }

    #[test]
    fn saved_records_are_kept_and_the_move_stays() {
        let mut j = game();
        e4(&mut j);
        assert!(j.save().is_ok());
        assert!(!j.store().kept.is_empty());
        assert_eq!(j.mirror().board(shakmaty::Color::White).moves().len(), 1);
        // Nothing new: nothing appended.
        let n = j.store().kept.len();
        assert!(j.save().is_ok());
        assert_eq!(j.store().kept.len(), n);
    }

    #[test]
    fn a_failed_save_undoes_the_command_and_says_so() {
        let mut j = game();
        j.store.fail = true;
        e4(&mut j);
        let e = j.save().expect_err("the store is full");
        assert_eq!(e.error, "full");
        assert!(e.undone);
        assert_eq!(j.mirror().board(shakmaty::Color::White).moves().len(), 0);
        assert!(j.store().kept.is_empty());
        // Entered again once the store works, it is kept.
        j.store.fail = false;
        e4(&mut j);
        assert!(j.save().is_ok());
        assert_eq!(j.mirror().board(shakmaty::Color::White).moves().len(), 1);
    }

    #[test]
    fn an_acknowledged_save_is_never_undone_by_a_later_failure() {
        let mut j = game();
        e4(&mut j);
        j.save().expect("saved");
        // A later failure with nothing new to save undoes nothing.
        j.store.fail = true;
        assert!(j.save().is_ok());
        assert_eq!(j.mirror().board(shakmaty::Color::White).moves().len(), 1);
    }
}
