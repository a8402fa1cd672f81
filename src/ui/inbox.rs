//! The front ends' one channel: every input — keys or typed lines, spoken
//! decisions, the engine's replies, speech progress, a termination signal —
//! arrives here as one [`Event`], and the loop blocks on it until
//! something arrives or its next deadline (the talking clock's next
//! announcement, a flag, the next change of the clock's display). There
//! is no polling interval: an idle game does not wake up.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

use crate::engine::EngineError;
use crate::input::Line;
use crate::review::ReviewMsg;
use crate::voice::live::VoiceEvent;
use crate::wake::{Post, Waker};

/// Something for the loop.
#[derive(Debug)]
pub enum Event {
    /// A key or a resize (the full screen).
    Term(crossterm::event::Event),
    /// The terminal could not be read (the full screen ends with the
    /// system's error, worded where it is shown).
    TermFailed(std::io::Error),
    /// A typed line (`--plain`); `None` when the input has ended.
    Line(Option<Line>),
    /// Spoken input reported, with the serial of the position it was
    /// decided in.
    Voice(u64, VoiceEvent),
    /// The engine's reply.
    Engine(Result<shakmaty::uci::UciMove, EngineError>),
    /// The review's engine answered.
    Analysis(ReviewMsg),
    /// Speech made progress (an utterance ended, the speaker opened): the
    /// loop lets it go on.
    Speech,
    /// SIGTERM, SIGINT or SIGHUP arrived.
    Terminate,
}

/// The loop's channel.
#[derive(Debug)]
pub struct Inbox {
    tx: Sender<Event>,
    rx: Receiver<Event>,
}

impl Default for Inbox {
    fn default() -> Inbox {
        Inbox::new()
    }
}

impl Inbox {
    /// An empty inbox.
    pub fn new() -> Inbox {
        let (tx, rx) = channel();
        Inbox { tx, rx }
    }

    /// Where a part posts its messages, each wrapped by `wrap`.
    pub fn post<T: Send + 'static>(&self, wrap: fn(T) -> Event) -> Post<T> {
        let tx = self.tx.clone();
        Post::new(move |m| tx.send(wrap(m)).is_ok())
    }

    /// Spoken input's messages.
    pub fn voice(&self) -> Post<(u64, VoiceEvent)> {
        self.post(|(serial, e)| Event::Voice(serial, e))
    }

    /// The engine's replies.
    pub fn engine(&self) -> Post<Result<shakmaty::uci::UciMove, EngineError>> {
        self.post(Event::Engine)
    }

    /// Speech progress.
    pub fn speech(&self) -> Waker {
        let tx = self.tx.clone();
        Waker::new(move || {
            let _ = tx.send(Event::Speech);
        })
    }

    /// Puts `event` in the inbox.
    pub fn send(&self, event: Event) {
        let _ = self.tx.send(event);
    }

    /// The next event, waiting until `deadline` at most (for ever
    /// without one); `None` at the deadline.
    pub fn next(&self, deadline: Option<Instant>) -> Option<Event> {
        match deadline {
            None => self.rx.recv().ok(),
            Some(d) => {
                let wait = d.saturating_duration_since(Instant::now());
                self.rx.recv_timeout(wait).ok()
            }
        }
    }

    /// An event that is already there.
    pub fn ready(&self) -> Option<Event> {
        self.rx.try_recv().ok()
    }
}
