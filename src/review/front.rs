//! The review's adapter parts shared by its front ends (`annabella review`
//! and the play screen after a game): the engine on its own thread, speech,
//! and the keys of the full screen. The model is [`super::Review`].

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use super::{Review, ReviewCmd, ReviewEffect, ReviewGame, ReviewMsg};
use crate::engine::{Group, Limits, Strength, Uci, kill_group};
use crate::speech::{Announcer, Speaker};
use crate::vocab::{Item, Priority, Style, Utterance, Vocabulary};
use crate::wake::Post;

/// The engine on its own thread: one request at a time; its answers go
/// to the front end's loop. The engine runs in its own process group,
/// which is stopped (it and every helper it started) when the analyst
/// goes, even in the middle of a search.
pub(crate) struct Analyst {
    tx: mpsc::Sender<(usize, String, Duration)>,
    group: Group,
}

impl Drop for Analyst {
    fn drop(&mut self) {
        kill_group(&self.group);
    }
}

impl Analyst {
    pub(crate) fn start(path: PathBuf, out: Post<ReviewMsg>) -> Analyst {
        let (tx, req) = mpsc::channel::<(usize, String, Duration)>();
        let group = Group::default();
        let engine_group = group.clone();
        std::thread::spawn(move || {
            let mut engine: Option<Uci> = None;
            while let Ok((ply, fen, movetime)) = req.recv() {
                if engine.is_none() {
                    match Uci::start_in(
                        &path,
                        Strength::default(),
                        Limits::default(),
                        engine_group.clone(),
                    ) {
                        Ok(e) => engine = Some(e),
                        Err(e) => {
                            if !out.send(ReviewMsg::NoEngine(e)) {
                                return;
                            }
                            continue;
                        }
                    }
                }
                let result = match engine.as_mut() {
                    Some(e) => e.analyse(&fen, movetime),
                    None => continue,
                };
                if result.is_err() {
                    engine = None;
                }
                if !out.send(ReviewMsg::Evaluated { ply, result }) {
                    return;
                }
            }
        });
        Analyst { tx, group }
    }
}

/// Carries out the effects: say (print and speak), ask the engine.
pub struct ReviewRunner {
    /// Speech output, when on.
    pub speech: Option<Announcer<Box<dyn Speaker>>>,
    analyst: Analyst,
    /// Evaluations asked for and not yet answered.
    pub pending: usize,
}

impl ReviewRunner {
    /// Carries out `fx`: says (printed through `show`), asks the engine.
    pub fn apply(
        &mut self,
        review: &mut Review,
        fx: Vec<ReviewEffect>,
        show: &mut dyn FnMut(&Utterance),
    ) {
        for e in fx {
            match e {
                ReviewEffect::Say(u) => {
                    show(&u);
                    if let Some(s) = &mut self.speech
                        && let Err(err) = s.say(Item::new(u, Priority::Move))
                    {
                        let line = Utterance::plain(err.describe(review.vocab().locale()));
                        review.log.push(line.clone());
                        show(&line);
                        self.speech = None;
                    }
                }
                ReviewEffect::Evaluate { ply, fen, movetime } => {
                    if self.analyst.tx.send((ply, fen, movetime)).is_ok() {
                        self.pending += 1;
                    }
                }
                ReviewEffect::Quit => {}
            }
        }
    }

    /// Feeds the engine's answer (or its failure to start) in.
    pub fn answer(
        &mut self,
        review: &mut Review,
        msg: ReviewMsg,
        show: &mut dyn FnMut(&Utterance),
    ) {
        self.pending = self.pending.saturating_sub(1);
        let fx = review.update(msg);
        self.apply(review, fx, show);
    }

    /// When speech must be looked at again at the latest (its time
    /// limits), though nothing woke the loop.
    pub fn deadline(&mut self) -> Option<std::time::Instant> {
        self.speech.as_mut().and_then(Announcer::deadline)
    }

    /// Keeps speech going.
    pub fn pump(&mut self) {
        if let Some(s) = &mut self.speech
            && s.pump().is_err()
        {
            self.speech = None;
        }
    }
}

/// The key a full-screen key press means, or `None` (typing).
pub fn key_command(review: &mut Review, key: crossterm::event::KeyEvent) -> Option<ReviewMsg> {
    use crossterm::event::{KeyCode, KeyEventKind, KeyModifiers};
    if key.kind != KeyEventKind::Press {
        return None;
    }
    let cmd = match key.code {
        KeyCode::Right | KeyCode::Down => ReviewCmd::Next,
        KeyCode::Left | KeyCode::Up => ReviewCmd::Back,
        KeyCode::Home => ReviewCmd::First,
        KeyCode::End => ReviewCmd::Last,
        KeyCode::F(1) => ReviewCmd::Help,
        KeyCode::F(2) => ReviewCmd::Recent,
        KeyCode::F(3) => ReviewCmd::Comment,
        KeyCode::F(4) => ReviewCmd::Clock,
        KeyCode::F(5) => ReviewCmd::Eval,
        KeyCode::Esc => ReviewCmd::Quit,
        KeyCode::Char('c' | 'd') if key.modifiers.contains(KeyModifiers::CONTROL) => {
            ReviewCmd::Quit
        }
        KeyCode::Char(c) => {
            review.input.push(c);
            return None;
        }
        KeyCode::Backspace => {
            review.input.pop();
            return None;
        }
        KeyCode::Enter => return Some(ReviewMsg::Line(std::mem::take(&mut review.input))),
        _ => return None,
    };
    Some(ReviewMsg::Key(cmd))
}

impl ReviewRunner {
    /// A runner with `speech` and the engine at `engine` (started when
    /// first asked); the engine's answers go to `answers`, the front
    /// end's loop, which hands them to [`ReviewRunner::answer`].
    pub fn new(
        speech: Option<Announcer<Box<dyn Speaker>>>,
        engine: PathBuf,
        answers: Post<ReviewMsg>,
    ) -> ReviewRunner {
        ReviewRunner {
            speech,
            analyst: Analyst::start(engine, answers),
            pending: 0,
        }
    }
}

/// A review started from a game just played (the play screen after the
/// game): the model and its first effects.
pub fn start(
    vocab: Vocabulary,
    game: ReviewGame,
    style: Style,
    movetime: Duration,
) -> (Review, Vec<ReviewEffect>) {
    let (mut review, first) = Review::new(vocab, game, style);
    review.set_movetime(movetime);
    (review, first)
}
