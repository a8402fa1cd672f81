//! Plain mode for screen readers and braille displays: no full-screen
//! drawing; every event is one line of text (the words that are spoken),
//! input is read line by line from standard input. Fully scriptable.
//!
//! The loop blocks on its one channel ([`super::inbox`]): typed lines (read
//! on a thread of their own), spoken input, the engine, speech progress
//! and signals arrive there; it wakes by itself only at its next deadline
//! (the talking clock speaks, a flag falls).

use std::collections::VecDeque;
use std::io::{BufRead, Write};

use super::command::{Cmd, CommandWords, Input};
use super::inbox::{Event, Inbox};
use super::{App, Msg, Runner};
use crate::input::Line;
use crate::vocab::Utterance;

/// Runs the plain loop until the user quits, the input ends (and no engine
/// move is awaited), or the game ends with input closed. `inbox` is the
/// loop's channel, where spoken input and the engine already post.
pub fn run(
    mut app: App,
    first: Vec<super::Effect>,
    runner: &mut Runner,
    input: impl BufRead + Send + 'static,
    out: &mut dyn Write,
    inbox: Inbox,
) -> std::io::Result<()> {
    let mut failed: Option<std::io::Error> = None;
    let mut show = |u: &Utterance| {
        if failed.is_none()
            && let Err(e) = writeln!(out, "{}", u.display).and_then(|()| out.flush())
        {
            failed = Some(e);
        }
    };
    runner.set_speech_waker(inbox.speech());
    runner.apply(&mut app, first, &mut show);
    // The clock runs from the first lines on.
    runner.start_clock();
    runner.tick(&mut app, &mut show);
    let lines = inbox.post(Event::Line);
    std::thread::spawn(move || {
        for line in crate::input::lines(input) {
            match line {
                Ok(l) => {
                    if !lines.send(Some(l)) {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        lines.send(None);
    });
    super::term::watch_signals(&inbox);
    let mut input_open = true;
    let words = CommandWords::new(app.vocab().locale());
    // Lines typed while the engine thinks: a script's next line meets the
    // position it was written for.
    let mut held: VecDeque<Line> = VecDeque::new();
    let mut quitting = false;
    loop {
        // Held lines go on once the engine has answered; quitting (and
        // its confirmation) never waits.
        while let Some(line) = held.front() {
            let read = match line {
                Line::Text(t) => Some(words.read(t)),
                _ => None,
            };
            let quit = matches!(read, Some(Input::Command(Cmd::Quit, _)));
            // A question about the game (the time, the board, help) is
            // answered while the engine thinks (D.2.6: on request); a move
            // or anything that changes the game waits for its reply.
            let question = matches!(read, Some(Input::Command(c, _)) if c.row().question);
            let waits = !(quit || quitting || question);
            if waits && app.waiting_for_engine() && runner.engine.is_some() {
                break;
            }
            quitting = quit;
            let Some(line) = held.pop_front() else { break };
            if !typed(&mut app, runner, line, &mut show) {
                continue;
            }
            if let Some(game) = runner.review.take()
                && !review_here(&mut app, runner, *game, &inbox, &mut held, &mut show)
            {
                input_open = false;
            }
            if app.should_quit() {
                break;
            }
        }
        if app.should_quit() || super::term::terminate_requested() {
            break;
        }
        let engine = app.waiting_for_engine() && runner.engine.is_some();
        if !input_open && held.is_empty() && !engine && !runner.voice_pending() {
            break;
        }
        let deadline = runner.deadline(&app);
        match inbox.next(deadline) {
            Some(Event::Line(Some(line))) => held.push_back(line),
            Some(Event::Line(None)) => input_open = false,
            Some(Event::Terminate) => break,
            Some(other) => {
                let _ = runner.handle(&mut app, other, &mut show);
            }
            None => {}
        }
        runner.tick(&mut app, &mut show);
    }
    match failed {
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e),
        _ => Ok(()),
    }
}

/// A typed line for the game; `false` for a line too long (said, and
/// nothing else).
fn typed(app: &mut App, runner: &mut Runner, line: Line, show: &mut dyn FnMut(&Utterance)) -> bool {
    match line {
        Line::TooLong => {
            // One line for the player; the game goes on.
            let text = crate::input::TooLong::Line.describe(app.vocab().locale());
            let item =
                crate::speech::Item::new(Utterance::plain(text), crate::speech::Priority::Request);
            runner.apply(app, vec![super::Effect::Say(item)], show);
            false
        }
        Line::Text(line) => {
            let fx = app.update(Msg::Line(line), runner.now());
            runner.apply(app, fx, show);
            true
        }
    }
}

/// Goes through the game by ear with the following input lines (those
/// already `held` first), until the review ends; `false` when the input
/// ended during it. Each line waits for the evaluations the one before
/// asked for. What arrives for the game meanwhile is handled then.
fn review_here(
    app: &mut App,
    runner: &mut Runner,
    game: crate::review::ReviewGame,
    inbox: &Inbox,
    held: &mut VecDeque<Line>,
    show: &mut dyn FnMut(&Utterance),
) -> bool {
    let answers = inbox.post(Event::Analysis);
    let (mut review, mut rr, first) = runner.start_review(app, game, answers);
    rr.apply(&mut review, first, show);
    let mut open = true;
    let mut later = Vec::new();
    while !review.should_quit() && !super::term::terminate_requested() {
        rr.pump();
        if rr.pending == 0
            && let Some(line) = held.pop_front()
        {
            match line {
                Line::TooLong => {
                    let text = crate::input::TooLong::Line.describe(app.vocab().locale());
                    show(&Utterance::plain(text));
                }
                Line::Text(line) => {
                    let fx = review.update(crate::review::ReviewMsg::Line(line));
                    rr.apply(&mut review, fx, show);
                }
            }
            continue;
        }
        if !open && rr.pending == 0 {
            break;
        }
        let deadline = rr.deadline();
        match inbox.next(deadline) {
            Some(Event::Line(Some(line))) => held.push_back(line),
            Some(Event::Line(None)) => open = false,
            Some(Event::Analysis(msg)) => rr.answer(&mut review, msg, show),
            Some(Event::Speech) | None => {}
            Some(Event::Terminate) => break,
            Some(other) => later.push(other),
        }
    }
    rr.pump();
    runner.end_review(app, rr, show);
    for e in later {
        let _ = runner.handle(app, e, show);
    }
    open
}
