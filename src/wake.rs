//! How the parts that work on threads of their own (the keyboard, spoken
//! input, the engine, speech output) reach a front end's loop, which
//! blocks on one channel until something arrives or its next deadline:
//!
//! - a [`Post`] puts a typed message on the loop's channel (each part's
//!   messages wrapped in the loop's own event type);
//! - a [`Waker`] only says "look again" (speech made progress: an
//!   utterance ended, the speaker is ready);
//! - a [`Relay`] lets a real-time thread (an audio callback) wake a
//!   [`Waker`] without allocating or taking a lock: it sets a flag and
//!   unparks a thread of its own, which does the rest.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::thread::Thread;
use std::time::Duration;

/// Where a part's messages go. Cloning shares the destination.
pub struct Post<T> {
    send: Arc<dyn Fn(T) -> bool + Send + Sync>,
}

impl<T> Clone for Post<T> {
    fn clone(&self) -> Post<T> {
        Post {
            send: Arc::clone(&self.send),
        }
    }
}

impl<T> std::fmt::Debug for Post<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Post")
    }
}

impl<T: Send + 'static> Post<T> {
    /// Messages go to `send`, which returns `false` once nobody listens.
    pub fn new(send: impl Fn(T) -> bool + Send + Sync + 'static) -> Post<T> {
        Post {
            send: Arc::new(send),
        }
    }

    /// A channel of its own (for a part used without a front end's loop:
    /// the command-line tools, tests).
    pub fn channel() -> (Post<T>, Receiver<T>) {
        let (tx, rx) = channel();
        (Post::new(move |m| tx.send(m).is_ok()), rx)
    }

    /// Sends `msg`; `false` when nobody listens any more.
    pub fn send(&self, msg: T) -> bool {
        (self.send)(msg)
    }
}

/// Says "look again" to a loop. The default wakes nobody.
#[derive(Clone, Default)]
pub struct Waker {
    wake: Option<Arc<dyn Fn() + Send + Sync>>,
}

impl std::fmt::Debug for Waker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Waker")
            .field("set", &self.wake.is_some())
            .finish()
    }
}

impl Waker {
    /// Wakes by calling `wake`.
    pub fn new(wake: impl Fn() + Send + Sync + 'static) -> Waker {
        Waker {
            wake: Some(Arc::new(wake)),
        }
    }

    /// Wakes the loop (nothing for the default).
    pub fn wake(&self) {
        if let Some(w) = &self.wake {
            w();
        }
    }

    /// `true` when it wakes somebody.
    pub fn is_set(&self) -> bool {
        self.wake.is_some()
    }
}

#[derive(Debug, Default)]
struct Flags {
    pending: AtomicBool,
    closed: AtomicBool,
}

/// A thread that wakes a [`Waker`] when pinged from a real-time thread.
/// Dropping it ends the thread.
#[derive(Debug)]
pub struct Relay {
    ping: Ping,
    waker: Arc<std::sync::Mutex<Waker>>,
}

/// The real-time side of a [`Relay`]: [`Ping::ping`] neither allocates nor
/// locks (an atomic store and an unpark).
#[derive(Debug, Clone)]
pub struct Ping {
    flags: Arc<Flags>,
    thread: Option<Thread>,
}

impl Ping {
    /// Wakes the relay's thread (at most one wake per ping burst).
    pub fn ping(&self) {
        if let Some(t) = &self.thread
            && !self.flags.pending.swap(true, Ordering::AcqRel)
        {
            t.unpark();
        }
    }

    /// A ping that wakes nobody.
    pub fn none() -> Ping {
        Ping {
            flags: Arc::default(),
            thread: None,
        }
    }
}

impl Relay {
    /// Starts the relay's thread; pings wake `waker` from there. Without
    /// a thread (the system refused one) pings do nothing.
    pub fn spawn(waker: Waker) -> Relay {
        let flags = Arc::new(Flags::default());
        let mine = Arc::clone(&flags);
        let waker = Arc::new(std::sync::Mutex::new(waker));
        let theirs = Arc::clone(&waker);
        let thread = std::thread::Builder::new()
            .name("annabella-relay".to_owned())
            .spawn(move || {
                while !mine.closed.load(Ordering::Acquire) {
                    // Parked until pinged; the timeout only lets a relay
                    // whose owner vanished without dropping it end.
                    std::thread::park_timeout(Duration::from_secs(60));
                    if mine.pending.swap(false, Ordering::AcqRel) {
                        theirs
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .wake();
                    }
                }
            })
            .ok()
            .map(|h| h.thread().clone());
        Relay {
            ping: Ping { flags, thread },
            waker,
        }
    }

    /// Pings wake `waker` from now on.
    pub fn set_waker(&self, waker: Waker) {
        *self
            .waker
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = waker;
    }

    /// The handle for the real-time thread.
    pub fn ping(&self) -> Ping {
        self.ping.clone()
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.ping.flags.closed.store(true, Ordering::Release);
        if let Some(t) = &self.ping.thread {
            t.unpark();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_post_delivers_and_knows_when_nobody_listens() {
        let (post, rx) = Post::<u32>::channel();
        assert!(post.send(7));
        assert_eq!(rx.recv().ok(), Some(7));
        drop(rx);
        assert!(!post.send(8));
    }

    #[test]
    fn a_relay_wakes_from_a_ping() {
        let (tx, rx) = channel();
        let relay = Relay::spawn(Waker::new(move || {
            let _ = tx.send(());
        }));
        let ping = relay.ping();
        ping.ping();
        assert!(rx.recv_timeout(Duration::from_secs(10)).is_ok());
        // A burst of pings before the thread runs wakes at least once.
        for _ in 0..100 {
            ping.ping();
        }
        assert!(rx.recv_timeout(Duration::from_secs(10)).is_ok());
        drop(relay);
        Ping::none().ping();
    }
}
