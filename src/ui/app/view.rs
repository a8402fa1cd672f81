//! What the full screen's message box shows of everything said: the
//! newest lines, or older ones the user paged back to (PgUp, PgDn). Only
//! the view: [`App::log`] keeps what was said either way.

use std::cell::Cell;
use std::time::Duration;

use super::{App, Effect, Msg};
use crate::theme::wrap;
use crate::vocab::Utterance;

/// Which way to page through the messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// Back to older lines (PgUp).
    Older,
    /// Forward to newer lines (PgDn).
    Newer,
    /// To the newest line.
    Newest,
}

/// How far the message box is paged back, and its size when last drawn
/// (the renderer notes it: a page is the box's height).
#[derive(Debug, Clone, Default)]
pub struct MessageView {
    /// Wrapped lines between the newest line and the box's bottom row
    /// (0: the newest line is shown).
    back: usize,
    /// Rows and columns of the box's inside when last drawn.
    size: Cell<(usize, usize)>,
}

impl App {
    /// Pages the message box (PgUp, PgDn): by its height less one line,
    /// so one line of the page before stays in view.
    pub fn page_messages(&mut self, page: Page) {
        let (rows, width) = self.view.size.get();
        let step = rows.saturating_sub(1).max(1);
        self.view.back = match page {
            Page::Older => {
                let most = self.message_lines(width).saturating_sub(rows);
                (self.view.back + step).min(most)
            }
            Page::Newer => self.view.back.saturating_sub(step),
            Page::Newest => 0,
        };
    }

    /// How many wrapped lines the message box is paged back (0: it shows
    /// the newest).
    pub fn messages_back(&self) -> usize {
        self.view.back
    }

    /// The renderer notes the size of the message box's inside.
    pub fn note_message_box(&self, rows: usize, width: usize) {
        self.view.size.set((rows, width));
    }

    /// Everything said, as the message box wraps it at `width` columns.
    pub fn message_lines(&self, width: usize) -> usize {
        self.log
            .iter()
            .map(|u| wrap(&self.vocab.for_display(&u.display), width.max(1)).len())
            .sum()
    }

    /// A line was said: a box paged back stays on what it shows (the new
    /// line comes in below, out of view).
    pub(super) fn keep_view(&mut self, u: &Utterance) {
        if self.view.back > 0 {
            let width = self.view.size.get().1.max(1);
            self.view.back += wrap(&self.vocab.for_display(&u.display), width).len();
        }
    }

    /// Set-up lines (the journal notice, speech fallbacks, a resumed
    /// game's summary) said before the welcome: they come first in the
    /// log too, as they are spoken and printed first, so the welcome (the
    /// mode, the time control, whose move it is) is the newest line on the
    /// screen and is never pushed off it before the first move.
    pub fn set_up(
        &mut self,
        notices: impl IntoIterator<Item = Utterance>,
        now: Duration,
    ) -> Vec<Effect> {
        let before = self.log.len();
        let mut fx = Vec::new();
        for u in notices {
            fx.extend(self.update(Msg::Notice(u), now));
        }
        let added = self.log.len().saturating_sub(before);
        self.log.rotate_right(added);
        fx
    }
}
