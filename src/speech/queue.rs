//! The speech queue (pure): what to say next, with priorities.
//!
//! Speech is slow compared with what happens on the board: a periodic time
//! announcement may still be playing when the next move must be heard. The
//! queue decides what is said, in which order, and what is dropped:
//!
//! - higher [`Priority`] first, first come first served within a priority;
//! - a [`Priority::Move`] or [`Priority::Critical`] item drops queued
//!   chatter and answers to requests (they are stale now) and interrupts
//!   them while they are being spoken;
//! - a [`Priority::Critical`] item (flag fall, penalty, result) is never
//!   dropped, never coalesced and interrupts everything below a move;
//! - items with the same coalescing key replace each other (a repeated
//!   request for the time gives one fresh answer, a countdown says only the
//!   latest number), and an item identical to the one being spoken is not
//!   queued again;
//! - the queue is bounded: beyond [`SpeechQueue::DEFAULT_CAPACITY`] the
//!   oldest item of the lowest priority is dropped, but never a move or a
//!   critical item.
//!
//! The printed lines are not queued: every state change is printed at once
//! and in full; the queue only governs what is spoken.

use std::collections::VecDeque;

pub use crate::vocab::{Item, Priority};

/// What the speaker must do after [`SpeechQueue::push`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pushed {
    /// Stop the utterance being spoken (it is stale now).
    pub interrupt: bool,
    /// How many queued items were dropped (stale or over capacity).
    pub dropped: usize,
    /// `false` when the item was not queued because the same item is being
    /// spoken or replaced a queued one (coalesced).
    pub queued: bool,
}

/// The queue. See the [module documentation](self) for the rules.
#[derive(Debug, Clone)]
pub struct SpeechQueue {
    items: VecDeque<Item>,
    speaking: Option<Item>,
    capacity: usize,
}

impl Default for SpeechQueue {
    fn default() -> Self {
        SpeechQueue::new(SpeechQueue::DEFAULT_CAPACITY)
    }
}

impl SpeechQueue {
    /// Items kept waiting at most (moves and critical items beyond it are
    /// kept anyway).
    pub const DEFAULT_CAPACITY: usize = 8;

    /// An empty queue holding at most `capacity` droppable items.
    pub fn new(capacity: usize) -> SpeechQueue {
        SpeechQueue {
            items: VecDeque::new(),
            speaking: None,
            capacity: capacity.max(1),
        }
    }

    /// Items waiting, in queue order (not speaking order).
    pub fn waiting(&self) -> impl Iterator<Item = &Item> {
        self.items.iter()
    }

    /// Number of items waiting.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// `true` when nothing waits.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The item being spoken, if any.
    pub fn speaking(&self) -> Option<&Item> {
        self.speaking.as_ref()
    }

    /// Adds `item`; the answer says whether the current utterance must be
    /// interrupted.
    pub fn push(&mut self, item: Item) -> Pushed {
        let mut out = Pushed::default();
        let urgent = item.priority >= Priority::Move;
        if urgent {
            let before = self.items.len();
            self.items.retain(|i| i.priority > Priority::Request);
            out.dropped += before - self.items.len();
        }
        if let Some(current) = &self.speaking {
            let limit = if item.priority == Priority::Critical {
                Priority::Move
            } else if urgent {
                Priority::Warning
            } else {
                Priority::Chatter
            };
            if current.priority < limit {
                out.interrupt = true;
                self.speaking = None;
            }
        }
        if let Some(key) = item.queue_key() {
            if let Some(current) = &self.speaking
                && current.queue_key() == Some(key)
                && current.utterance == item.utterance
            {
                return out;
            }
            if let Some(pos) = self.items.iter().position(|i| i.queue_key() == Some(key)) {
                let old = &mut self.items[pos];
                let priority = old.priority.max(item.priority);
                *old = Item { priority, ..item };
                return out;
            }
        }
        self.items.push_back(item);
        out.queued = true;
        while self.droppable_len() > self.capacity {
            if let Some(pos) = self.lowest_droppable() {
                self.items.remove(pos);
                out.dropped += 1;
            } else {
                break;
            }
        }
        out
    }

    fn droppable_len(&self) -> usize {
        self.items
            .iter()
            .filter(|i| i.priority < Priority::Move)
            .count()
    }

    /// The oldest item of the lowest droppable priority.
    fn lowest_droppable(&self) -> Option<usize> {
        let lowest = self
            .items
            .iter()
            .map(|i| i.priority)
            .filter(|p| *p < Priority::Move)
            .min()?;
        self.items.iter().position(|i| i.priority == lowest)
    }

    /// Takes the next item to speak (highest priority, oldest first) and
    /// records it as being spoken. `None` while something is being spoken
    /// or nothing waits.
    pub fn start_next(&mut self) -> Option<Item> {
        if self.speaking.is_some() {
            return None;
        }
        let top = self.items.iter().map(|i| i.priority).max()?;
        let pos = self.items.iter().position(|i| i.priority == top)?;
        let item = self.items.remove(pos)?;
        self.speaking = Some(item.clone());
        Some(item)
    }

    /// The utterance being spoken has ended (or was stopped).
    pub fn finished(&mut self) {
        self.speaking = None;
    }

    /// Drops everything waiting except critical items and moves (e.g. when
    /// the user silences the speech).
    pub fn clear_droppable(&mut self) -> usize {
        let before = self.items.len();
        self.items.retain(|i| i.priority >= Priority::Move);
        before - self.items.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Utterance;

    fn u(s: &str) -> Utterance {
        Utterance::plain(s)
    }

    fn said(q: &mut SpeechQueue) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(i) = q.start_next() {
            out.push(i.utterance.display.clone());
            q.finished();
        }
        out
    }

    #[test]
    fn higher_priority_first_then_fifo() {
        let mut q = SpeechQueue::default();
        q.push(Item::new(u("c1"), Priority::Chatter));
        q.push(Item::new(u("r1"), Priority::Request));
        q.push(Item::new(u("w1"), Priority::Warning));
        q.push(Item::new(u("r2"), Priority::Request));
        q.push(Item::new(u("w2"), Priority::Warning));
        assert_eq!(said(&mut q), ["w1", "w2", "r1", "r2", "c1"]);
        assert!(q.is_empty());
    }

    #[test]
    fn a_move_drops_queued_chatter_and_interrupts_it() {
        let mut q = SpeechQueue::default();
        q.push(Item::new(u("periodic"), Priority::Chatter));
        q.push(Item::new(u("old time answer"), Priority::Request));
        q.push(Item::new(u("warning"), Priority::Warning));
        // The periodic announcement is being spoken.
        assert_eq!(
            q.start_next().map(|i| i.utterance.display),
            Some("warning".into())
        );
        q.finished();
        assert_eq!(
            q.start_next().map(|i| i.utterance.display),
            Some("old time answer".into())
        );
        let p = q.push(Item::new(u("Nf3"), Priority::Move));
        assert!(p.interrupt, "a request being spoken is stale after a move");
        assert_eq!(p.dropped, 1, "the queued periodic announcement is dropped");
        assert_eq!(said(&mut q), ["Nf3"]);
    }

    #[test]
    fn a_move_does_not_interrupt_a_warning_or_another_move() {
        let mut q = SpeechQueue::default();
        q.push(Item::new(u("one minute left"), Priority::Warning));
        assert!(q.start_next().is_some());
        let p = q.push(Item::new(u("e4"), Priority::Move));
        assert!(!p.interrupt);
        q.finished();
        assert!(q.start_next().is_some());
        let p = q.push(Item::new(u("e5"), Priority::Move));
        assert!(!p.interrupt);
        q.finished();
        assert_eq!(said(&mut q), ["e5"]);
    }

    #[test]
    fn critical_items_are_never_dropped_nor_coalesced() {
        let mut q = SpeechQueue::new(2);
        for i in 0..5 {
            q.push(Item::keyed(
                u(&format!("flag {i}")),
                Priority::Critical,
                "same",
            ));
        }
        for i in 0..5 {
            q.push(Item::new(u(&format!("chatter {i}")), Priority::Chatter));
        }
        q.push(Item::new(u("move"), Priority::Move));
        let out = said(&mut q);
        assert_eq!(
            out,
            ["flag 0", "flag 1", "flag 2", "flag 3", "flag 4", "move"],
            "chatter is dropped by the move, criticals all stay"
        );
    }

    #[test]
    fn critical_interrupts_everything_below_a_move() {
        for (running, expect) in [
            (Priority::Chatter, true),
            (Priority::Request, true),
            (Priority::Warning, true),
            (Priority::Move, false),
            (Priority::Critical, false),
        ] {
            let mut q = SpeechQueue::default();
            q.push(Item::new(u("x"), running));
            assert!(q.start_next().is_some());
            let p = q.push(Item::new(u("flag"), Priority::Critical));
            assert_eq!(p.interrupt, expect, "{running:?}");
        }
    }

    #[test]
    fn chatter_never_interrupts() {
        let mut q = SpeechQueue::default();
        q.push(Item::new(u("a"), Priority::Chatter));
        assert!(q.start_next().is_some());
        let p = q.push(Item::new(u("b"), Priority::Request));
        assert!(!p.interrupt);
        let p = q.push(Item::new(u("c"), Priority::Warning));
        assert!(!p.interrupt);
    }

    #[test]
    fn repeated_requests_coalesce_into_the_latest() {
        let mut q = SpeechQueue::default();
        q.push(Item::new(u("something long"), Priority::Warning));
        assert!(q.start_next().is_some());
        for i in 0..6 {
            q.push(Item::keyed(
                u(&format!("time {i}")),
                Priority::Request,
                "time",
            ));
        }
        assert_eq!(q.len(), 1);
        q.finished();
        assert_eq!(said(&mut q), ["time 5"]);
    }

    #[test]
    fn countdown_keeps_only_the_latest_number() {
        let mut q = SpeechQueue::default();
        q.push(Item::keyed(u("10"), Priority::Warning, "countdown"));
        assert!(q.start_next().is_some()); // "10" is being spoken
        q.push(Item::keyed(u("9"), Priority::Warning, "countdown"));
        q.push(Item::keyed(u("8"), Priority::Warning, "countdown"));
        q.finished();
        assert_eq!(said(&mut q), ["8"]);
    }

    #[test]
    fn the_same_item_being_spoken_is_not_queued_again() {
        let mut q = SpeechQueue::default();
        q.push(Item::keyed(
            u("White: 5 minutes"),
            Priority::Request,
            "time",
        ));
        assert!(q.start_next().is_some());
        let p = q.push(Item::keyed(
            u("White: 5 minutes"),
            Priority::Request,
            "time",
        ));
        assert!(!p.queued);
        assert!(q.is_empty());
        // A different answer with the same key is queued.
        let p = q.push(Item::keyed(
            u("White: 4 minutes"),
            Priority::Request,
            "time",
        ));
        assert!(p.queued);
        assert_eq!(q.len(), 1);
    }

    #[test]
    fn coalescing_keeps_the_higher_priority() {
        let mut q = SpeechQueue::default();
        q.push(Item::keyed(u("a"), Priority::Warning, "k"));
        q.push(Item::keyed(u("b"), Priority::Chatter, "k"));
        let w: Vec<_> = q.waiting().cloned().collect();
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].priority, Priority::Warning);
        assert_eq!(w[0].utterance.display, "b");
    }

    #[test]
    fn capacity_drops_the_oldest_lowest_but_never_moves() {
        let mut q = SpeechQueue::new(3);
        q.push(Item::new(u("m1"), Priority::Move));
        q.push(Item::new(u("c1"), Priority::Chatter));
        q.push(Item::new(u("w1"), Priority::Warning));
        q.push(Item::new(u("c2"), Priority::Chatter));
        let p = q.push(Item::new(u("r1"), Priority::Request));
        assert_eq!(p.dropped, 1);
        assert_eq!(said(&mut q), ["m1", "w1", "r1", "c2"]);
    }

    #[test]
    fn next_waits_for_the_current_utterance() {
        let mut q = SpeechQueue::default();
        q.push(Item::new(u("a"), Priority::Chatter));
        q.push(Item::new(u("b"), Priority::Chatter));
        assert!(q.start_next().is_some());
        assert!(q.start_next().is_none());
        assert_eq!(
            q.speaking().map(|i| i.utterance.display.as_str()),
            Some("a")
        );
        q.finished();
        assert!(q.start_next().is_some());
    }

    #[test]
    fn clear_keeps_moves_and_criticals() {
        let mut q = SpeechQueue::default();
        q.push(Item::new(u("c"), Priority::Chatter));
        q.push(Item::new(u("w"), Priority::Warning));
        q.push(Item::new(u("f"), Priority::Critical));
        q.push(Item::new(u("m"), Priority::Move));
        assert_eq!(q.clear_droppable(), 1);
        assert_eq!(said(&mut q), ["f", "m"]);
    }
}
