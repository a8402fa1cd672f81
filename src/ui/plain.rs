//! Plain mode for screen readers and braille displays: no full-screen
//! drawing; every event is one line of text (the words that are spoken),
//! input is read line by line from standard input. Fully scriptable.

use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::time::Duration;

use super::{App, Msg, Runner};
use crate::input::Line;
use crate::vocab::Utterance;

/// How often the clock is looked at while waiting for input.
const TICK: Duration = Duration::from_millis(250);

/// Runs the plain loop until the user quits, the input ends (and no engine
/// move is awaited), or the game ends with input closed.
pub fn run(
    mut app: App,
    first: Vec<super::Effect>,
    runner: &mut Runner,
    input: impl BufRead + Send + 'static,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut failed: Option<std::io::Error> = None;
    let mut show = |u: &Utterance| {
        if failed.is_none()
            && let Err(e) = writeln!(out, "{}", u.display).and_then(|()| out.flush())
        {
            failed = Some(e);
        }
    };
    runner.apply(&mut app, first, &mut show);
    let (tx, rx) = mpsc::channel::<Option<Line>>();
    std::thread::spawn(move || {
        for line in crate::input::lines(input) {
            match line {
                Ok(l) => {
                    if tx.send(Some(l)).is_err() {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        let _ = tx.send(None);
    });
    let mut input_open = true;
    let words = super::command::CommandWords::new(app.vocab().locale());
    let mut quitting = false;
    loop {
        if app.should_quit() {
            break;
        }
        let wait = if app.engine_busy() {
            Duration::from_millis(20)
        } else {
            TICK
        };
        if input_open {
            match rx.recv_timeout(wait) {
                Ok(Some(Line::TooLong)) => {
                    // One line for the player; the game goes on.
                    let text = crate::input::TooLong::Line.describe(app.vocab().locale());
                    let item = crate::speech::Item::new(
                        Utterance::plain(text),
                        crate::speech::Priority::Request,
                    );
                    let fx = vec![super::Effect::Say(item)];
                    runner.apply(&mut app, fx, &mut show);
                }
                Ok(Some(Line::Text(line))) => {
                    // Wait for an engine move in progress, so a script's
                    // next line meets the position it was written for;
                    // but quitting (and its confirmation) never waits.
                    let quit = matches!(
                        words.read(&line),
                        super::command::Input::Command(super::command::Cmd::Quit, _)
                    );
                    let waits = !(quit || quitting);
                    quitting = quit;
                    while waits && app.waiting_for_engine() && runner.engine.is_some() {
                        runner.poll_engine(&mut app, &mut show);
                        if app.waiting_for_engine() {
                            std::thread::sleep(Duration::from_millis(10));
                        }
                    }
                    let fx = app.update(Msg::Line(line), runner.now());
                    runner.apply(&mut app, fx, &mut show);
                    if let Some(game) = runner.review.take()
                        && !review_here(&mut app, runner, *game, &rx, &mut show)
                    {
                        input_open = false;
                    }
                }
                Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => input_open = false,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
        } else if (app.waiting_for_engine() && runner.engine.is_some()) || runner.voice_pending() {
            std::thread::sleep(wait);
        } else {
            break;
        }
        runner.poll_engine(&mut app, &mut show);
        runner.poll_voice(&mut app, &mut show);
        let fx = app.update(Msg::Tick, runner.now());
        runner.apply(&mut app, fx, &mut show);
        runner.pump(&mut app, &mut show);
        if super::term::terminate_requested() {
            break;
        }
    }
    match failed {
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e),
        _ => Ok(()),
    }
}

/// Goes through the game by ear with the following input lines, until the
/// review ends; `false` when the input ended during it.
fn review_here(
    app: &mut App,
    runner: &mut Runner,
    game: crate::review::ReviewGame,
    rx: &mpsc::Receiver<Option<Line>>,
    show: &mut dyn FnMut(&Utterance),
) -> bool {
    let (mut review, mut rr, first) = runner.start_review(app, game);
    rr.apply(&mut review, first, show);
    let mut open = true;
    while !review.should_quit() && !super::term::terminate_requested() {
        match rx.recv() {
            Ok(Some(Line::TooLong)) => {
                let text = crate::input::TooLong::Line.describe(app.vocab().locale());
                show(&Utterance::plain(text));
            }
            Ok(Some(Line::Text(line))) => {
                let fx = review.update(crate::review::ReviewMsg::Line(line));
                rr.apply(&mut review, fx, show);
                while rr.pending > 0 {
                    rr.poll(&mut review, Duration::from_millis(100), show);
                    rr.pump();
                }
                rr.pump();
            }
            Ok(None) | Err(_) => {
                open = false;
                break;
            }
        }
    }
    runner.end_review(app, rr, show);
    open
}
