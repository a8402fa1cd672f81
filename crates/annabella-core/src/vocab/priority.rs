//! What to say and how urgently (pure): chosen by the core and the game
//! layer, obeyed by the speech queue of the speech adapter.

use super::Utterance;

/// How important an utterance is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Priority {
    /// Periodic time announcements and other information: dropped when
    /// stale.
    #[default]
    Chatter,
    /// Answers to the user's requests (time, moves, help).
    Request,
    /// Low-time warnings and the countdown.
    Warning,
    /// Move announcements: interrupt stale chatter.
    Move,
    /// Flag fall, penalties, results: never dropped.
    Critical,
}

/// One thing to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// What to say.
    pub utterance: Utterance,
    /// How important it is.
    pub priority: Priority,
    /// Items with the same key replace each other (ignored for
    /// [`Priority::Critical`]).
    pub key: Option<String>,
}

impl Item {
    /// An item without a coalescing key.
    pub fn new(utterance: Utterance, priority: Priority) -> Item {
        Item {
            utterance,
            priority,
            key: None,
        }
    }

    /// An item that replaces queued items with the same `key`.
    pub fn keyed(utterance: Utterance, priority: Priority, key: impl Into<String>) -> Item {
        Item {
            utterance,
            priority,
            key: Some(key.into()),
        }
    }

    /// The key items replace each other by (none for critical items).
    pub fn queue_key(&self) -> Option<&str> {
        if self.priority == Priority::Critical {
            None
        } else {
            self.key.as_deref()
        }
    }
}
