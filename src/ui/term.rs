//! The full-screen terminal adapter (crossterm): raw mode and the alternate
//! screen, restored on every way out — normal exit, error, panic (panic
//! hook), SIGTERM, SIGINT and SIGHUP (a flag checked by the event loop) —
//! and, for the ways out no handler can catch (abort, stack overflow,
//! SIGSEGV, SIGKILL), by a restoring parent process ([`supervisor`]).
//! The loop blocks on input with a timeout (the clock display's tick); it
//! never spins.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::render::{self, Theme};
use super::{App, Effect, Msg, Runner};
use crate::vocab::Utterance;

pub mod supervisor;

pub use supervisor::{Supervision, supervise};

/// The display tick: the clock is redrawn this often while idle.
pub const TICK: Duration = Duration::from_millis(250);

static TERMINATE: AtomicBool = AtomicBool::new(false);

/// `true` after SIGTERM, SIGINT or SIGHUP arrived.
pub fn terminate_requested() -> bool {
    TERMINATE.load(Ordering::Relaxed)
}

#[cfg(unix)]
mod signals {
    use super::{Ordering, TERMINATE};

    unsafe extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }

    extern "C" fn on_signal(_sig: i32) {
        // Only an atomic store: async-signal-safe.
        TERMINATE.store(true, Ordering::Relaxed);
    }

    /// SIGHUP, SIGINT, SIGTERM set the flag instead of killing the process.
    pub fn install() {
        let handler = on_signal as extern "C" fn(i32) as usize;
        for sig in [1, 2, 15] {
            // SAFETY: `signal` from the C library, with a handler that only
            // stores to an atomic.
            unsafe {
                signal(sig, handler);
            }
        }
    }
}

/// Installs the signal handlers (SIGTERM, SIGINT, SIGHUP set a flag that
/// the loops check).
pub fn install_signal_handlers() {
    #[cfg(unix)]
    signals::install();
}

/// Ends the program if the loop cannot: when the terminal is gone
/// (hang-up, the parent shell killed), the terminal library can be stuck
/// reading a dead terminal. After a termination signal that the loop has
/// not acted on within two seconds, or when the process has been orphaned,
/// the terminal is restored as far as possible and the program exits.
/// Nothing is lost: every event is already in the journal.
fn spawn_watchdog() {
    #[cfg(unix)]
    let parent = std::os::unix::process::parent_id();
    let _ = std::thread::Builder::new()
        .name("annabella-watchdog".to_owned())
        .spawn(move || {
            let mut since: Option<std::time::Instant> = None;
            loop {
                std::thread::sleep(Duration::from_millis(500));
                #[cfg(unix)]
                let orphaned = std::os::unix::process::parent_id() != parent;
                #[cfg(not(unix))]
                let orphaned = false;
                if terminate_requested() || orphaned {
                    let t = *since.get_or_insert_with(std::time::Instant::now);
                    if orphaned {
                        // The terminal went with the parent: nothing to
                        // restore.
                        crate::voice::recognizer::abandon(129);
                    }
                    if t.elapsed() >= Duration::from_secs(2) {
                        // Restoring can block on a dead terminal: give it
                        // half a second.
                        let _ = std::thread::Builder::new().spawn(restore);
                        std::thread::sleep(Duration::from_millis(500));
                        crate::voice::recognizer::abandon(129);
                    }
                }
            }
        });
}

/// Puts the terminal back: raw mode off, main screen, cursor shown.
pub fn restore() {
    let _ = terminal::disable_raw_mode();
    let mut out = std::io::stdout();
    let _ = execute!(out, LeaveAlternateScreen, cursor::Show);
    let _ = out.flush();
}

struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

fn key_msg(app: &mut App, key: KeyEvent) -> Option<Msg> {
    if key.kind != KeyEventKind::Press {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('c') | KeyCode::Char('d') if ctrl => {
            // Ctrl+C: the quit question (answered like any other).
            app.input.clear();
            let word = app_quit_word(app);
            Some(Msg::Line(word))
        }
        KeyCode::Char('u') if ctrl => {
            app.input.clear();
            None
        }
        KeyCode::F(1) => Some(Msg::HelpKey),
        KeyCode::Char('?') if app.input.is_empty() => Some(Msg::HelpKey),
        KeyCode::Char(c) => {
            app.input.push(c);
            None
        }
        KeyCode::Backspace => {
            app.input.pop();
            None
        }
        KeyCode::Esc => {
            app.input.clear();
            None
        }
        KeyCode::Enter => Some(Msg::Line(std::mem::take(&mut app.input))),
        // Back and forth through everything said.
        KeyCode::PageUp => {
            app.page_messages(super::app::Page::Older);
            None
        }
        KeyCode::PageDown => {
            app.page_messages(super::app::Page::Newer);
            None
        }
        _ => None,
    }
}

fn app_quit_word(app: &App) -> String {
    super::command::CommandWords::new(app.vocab().locale())
        .shown(super::command::Cmd::Quit)
        .to_owned()
}

/// Runs the full-screen loop until the user quits or a signal arrives.
///
/// # Errors
///
/// When the terminal cannot be used.
/// Goes through the game by ear on the same screen (the review's keys),
/// until the review ends; then the game's screen is back.
fn review_here(
    term: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
    app: &mut App,
    runner: &mut Runner,
    game: crate::review::ReviewGame,
    theme: &Theme,
    show: &mut dyn FnMut(&Utterance),
) -> std::io::Result<()> {
    let (mut review, mut rr, first) = runner.start_review(app, game);
    rr.apply(&mut review, first, show);
    loop {
        term.draw(|f| crate::review::render::draw(f, &review, theme))?;
        if review.should_quit() || terminate_requested() {
            break;
        }
        if event::poll(TICK)? {
            match event::read()? {
                Event::Key(k) => {
                    if let Some(msg) = crate::review::front::key_command(&mut review, k) {
                        let fx = review.update(msg);
                        rr.apply(&mut review, fx, show);
                    }
                }
                Event::Resize(_, _) => term.autoresize()?,
                _ => {}
            }
        }
        rr.poll(&mut review, Duration::ZERO, show);
        rr.pump();
    }
    runner.end_review(app, rr, show);
    Ok(())
}

pub fn run(
    mut app: App,
    first: Vec<Effect>,
    runner: &mut Runner,
    theme: Theme,
) -> std::io::Result<()> {
    install_signal_handlers();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    terminal::enable_raw_mode()?;
    let _guard = Guard;
    spawn_watchdog();
    execute!(std::io::stdout(), EnterAlternateScreen)?;
    let mut term = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    term.clear()?;
    let mut show = |_u: &Utterance| {};
    runner.apply(&mut app, first, &mut show);
    let mut first_frame = true;
    loop {
        term.draw(|f| render::draw(f, &app, &theme))?;
        if std::mem::take(&mut first_frame) {
            // Test only (ANNABELLA_TEST_ABORT): a crash no handler catches.
            supervisor::test_abort();
        }
        if app.should_quit() || terminate_requested() {
            break;
        }
        let wait = if app.engine_busy() {
            Duration::from_millis(50)
        } else {
            TICK
        };
        if event::poll(wait)? {
            match event::read()? {
                Event::Key(k) if k.code == KeyCode::F(2) && k.kind == KeyEventKind::Press => {
                    runner.toggle_talk();
                }
                Event::Key(k) if k.code == KeyCode::F(3) && k.kind == KeyEventKind::Press => {
                    runner.stop_speech();
                }
                Event::Key(k) => {
                    if let Some(msg) = key_msg(&mut app, k) {
                        let fx = app.update(msg, runner.now());
                        runner.apply(&mut app, fx, &mut show);
                    }
                    if let Some(game) = runner.review.take() {
                        review_here(&mut term, &mut app, runner, *game, &theme, &mut show)?;
                    }
                }
                Event::Resize(_, _) => term.autoresize()?,
                _ => {}
            }
        }
        runner.poll_engine(&mut app, &mut show);
        runner.poll_voice(&mut app, &mut show);
        let fx = app.update(Msg::Tick, runner.now());
        runner.apply(&mut app, fx, &mut show);
        runner.pump(&mut app, &mut show);
    }
    drop(term);
    Ok(())
}
