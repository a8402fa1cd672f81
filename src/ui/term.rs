//! The full-screen terminal adapter (crossterm): raw mode and the alternate
//! screen, restored on every way out — normal exit, error, panic (panic
//! hook), SIGTERM, SIGINT and SIGHUP (a flag checked by the event loop) —
//! and, for the ways out no handler can catch (abort, stack overflow,
//! SIGSEGV, SIGKILL), by a restoring parent process ([`supervisor`]).
//! The loop blocks on its one channel ([`super::inbox`]): keys (read on a
//! thread of their own), spoken input, the engine, speech progress and
//! signals arrive there; it wakes by itself only at its next deadline
//! (the clock's display changes, the talking clock speaks, a flag falls).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::inbox::{Event as LoopEvent, Inbox};
use super::render::{self, Theme};
use super::{App, Effect, Msg, Runner};
use crate::vocab::Utterance;

pub mod supervisor;

pub use supervisor::{Supervision, supervise};

static TERMINATE: AtomicBool = AtomicBool::new(false);

/// `true` after SIGTERM, SIGINT or SIGHUP arrived.
pub fn terminate_requested() -> bool {
    TERMINATE.load(Ordering::Relaxed)
}

#[cfg(unix)]
mod signals {
    use std::sync::atomic::AtomicI32;

    use super::{Ordering, TERMINATE};

    /// The write end of the pipe the handler wakes the loop through (-1:
    /// none yet).
    static PIPE: AtomicI32 = AtomicI32::new(-1);
    /// Its read end.
    static READ: AtomicI32 = AtomicI32::new(-1);

    extern "C" fn on_signal(_sig: i32) {
        // Only an atomic store and write(2): async-signal-safe.
        TERMINATE.store(true, Ordering::Relaxed);
        let fd = PIPE.load(Ordering::Relaxed);
        if fd >= 0 {
            let byte = 1u8;
            // SAFETY: write(2) of one byte from a valid buffer to our pipe.
            unsafe {
                libc::write(fd, (&raw const byte).cast(), 1);
            }
        }
    }

    /// SIGHUP, SIGINT, SIGTERM set the flag (and wake the loop through a
    /// pipe) instead of killing the process.
    pub fn install() {
        if PIPE.load(Ordering::SeqCst) < 0 {
            let mut fds = [-1i32; 2];
            // SAFETY: pipe(2) with a valid two-element array.
            if unsafe { libc::pipe(fds.as_mut_ptr()) } == 0 {
                READ.store(fds[0], Ordering::SeqCst);
                PIPE.store(fds[1], Ordering::SeqCst);
            }
        }
        let handler = on_signal as extern "C" fn(i32) as libc::sighandler_t;
        for sig in [libc::SIGHUP, libc::SIGINT, libc::SIGTERM] {
            // SAFETY: signal(2) with a handler that only stores to an
            // atomic and writes to a pipe.
            unsafe {
                libc::signal(sig, handler);
            }
        }
    }

    /// Blocks until a signal arrived (for ever without the pipe).
    pub fn wait() {
        let fd = READ.load(Ordering::SeqCst);
        if fd < 0 {
            loop {
                std::thread::park();
            }
        }
        let mut byte = 0u8;
        loop {
            // SAFETY: read(2) of one byte into a valid buffer.
            let n = unsafe { libc::read(fd, (&raw mut byte).cast(), 1) };
            if n == 1 || super::terminate_requested() {
                return;
            }
        }
    }
}

/// Installs the signal handlers (SIGTERM, SIGINT, SIGHUP set a flag that
/// the loops check, and wake the loop that [`watch_signals`] serves).
pub fn install_signal_handlers() {
    #[cfg(unix)]
    signals::install();
}

/// A termination signal is an [`LoopEvent::Terminate`] in `inbox`.
pub fn watch_signals(inbox: &Inbox) {
    let post = inbox.post(|()| LoopEvent::Terminate);
    if terminate_requested() {
        post.send(());
        return;
    }
    let _ = std::thread::Builder::new()
        .name("annabella-signals".to_owned())
        .spawn(move || {
            #[cfg(unix)]
            signals::wait();
            #[cfg(not(unix))]
            std::thread::park();
            post.send(());
        });
}

/// Keys and resizes, read on a thread of their own, are
/// [`LoopEvent::Term`]s in `inbox` (a read error ends it with
/// [`LoopEvent::TermFailed`]). Start it after the last query of the
/// terminal that reads an answer (e.g. [`Terminal::clear`], which asks
/// for the cursor position).
pub fn read_keys(inbox: &Inbox) {
    let post = inbox.post(|r: std::io::Result<Event>| match r {
        Ok(e) => LoopEvent::Term(e),
        Err(e) => LoopEvent::TermFailed(e),
    });
    let _ = std::thread::Builder::new()
        .name("annabella-keys".to_owned())
        .spawn(move || {
            loop {
                match event::read() {
                    Ok(e) => {
                        if !post.send(Ok(e)) {
                            return;
                        }
                    }
                    Err(e) => {
                        post.send(Err(e));
                        return;
                    }
                }
            }
        });
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

/// Goes through the game by ear on the same screen (the review's keys),
/// until the review ends; then the game's screen is back. What arrives
/// for the game meanwhile (spoken input, the engine) is handled then.
fn review_here(
    term: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
    app: &mut App,
    runner: &mut Runner,
    game: crate::review::ReviewGame,
    theme: &Theme,
    show: &mut dyn FnMut(&Utterance),
    inbox: &Inbox,
) -> std::io::Result<()> {
    let answers = inbox.post(LoopEvent::Analysis);
    let (mut review, mut rr, first) = runner.start_review(app, game, answers);
    rr.apply(&mut review, first, show);
    let mut later = Vec::new();
    let mut result = Ok(());
    loop {
        rr.pump();
        if let Err(e) = term.draw(|f| crate::review::render::draw(f, &review, theme)) {
            result = Err(e);
            break;
        }
        if review.should_quit() || terminate_requested() {
            break;
        }
        let deadline = rr.deadline();
        match inbox.next(deadline) {
            Some(LoopEvent::Term(Event::Key(k))) => {
                if let Some(msg) = crate::review::front::key_command(&mut review, k) {
                    let fx = review.update(msg);
                    rr.apply(&mut review, fx, show);
                }
            }
            Some(LoopEvent::Term(Event::Resize(_, _))) => {
                if let Err(e) = term.autoresize() {
                    result = Err(e);
                    break;
                }
            }
            Some(LoopEvent::Term(_) | LoopEvent::Speech) | None => {}
            Some(LoopEvent::Analysis(msg)) => rr.answer(&mut review, msg, show),
            Some(LoopEvent::TermFailed(e)) => {
                result = Err(e);
                break;
            }
            Some(LoopEvent::Terminate) => break,
            Some(other) => later.push(other),
        }
    }
    runner.end_review(app, rr, show);
    for e in later {
        let _ = runner.handle(app, e, show);
    }
    result
}

/// Runs the full-screen loop until the user quits or a signal arrives.
/// `inbox` is the loop's channel, where spoken input and the engine
/// already post.
///
/// # Errors
///
/// When the terminal cannot be used.
pub fn run(
    mut app: App,
    first: Vec<Effect>,
    runner: &mut Runner,
    theme: Theme,
    inbox: Inbox,
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
    read_keys(&inbox);
    watch_signals(&inbox);
    runner.set_speech_waker(inbox.speech());
    let mut show = |_u: &Utterance| {};
    runner.apply(&mut app, first, &mut show);
    term.draw(|f| render::draw(f, &app, &theme))?;
    // The clock runs from the first frame on.
    runner.start_clock();
    crate::trace::event("frame", "first");
    // Test only (ANNABELLA_TEST_ABORT): a crash no handler catches.
    supervisor::test_abort();
    runner.tick(&mut app, &mut show);
    let mut traced: Option<String> = None;
    loop {
        term.draw(|f| render::draw(f, &app, &theme))?;
        if crate::trace::on() {
            // Test only: when the newest line reached the screen.
            let last = app.last_message().map(|u| u.display.clone());
            if last != traced {
                crate::trace::event("shown", last.as_deref().unwrap_or(""));
                traced = last;
            }
        }
        if app.should_quit() || terminate_requested() {
            break;
        }
        let display = app.next_display_change().and_then(|t| runner.instant_of(t));
        let deadline = [runner.deadline(&app), display].into_iter().flatten().min();
        let Some(event) = inbox.next(deadline) else {
            runner.tick(&mut app, &mut show);
            continue;
        };
        match event {
            LoopEvent::Term(Event::Key(k))
                if k.code == KeyCode::F(2) && k.kind == KeyEventKind::Press =>
            {
                runner.toggle_talk();
            }
            LoopEvent::Term(Event::Key(k))
                if k.code == KeyCode::F(3) && k.kind == KeyEventKind::Press =>
            {
                runner.stop_speech();
            }
            LoopEvent::Term(Event::Key(k)) => {
                if let Some(msg) = key_msg(&mut app, k) {
                    let fx = app.update(msg, runner.now());
                    runner.apply(&mut app, fx, &mut show);
                }
                if let Some(game) = runner.review.take() {
                    review_here(
                        &mut term, &mut app, runner, *game, &theme, &mut show, &inbox,
                    )?;
                }
            }
            LoopEvent::Term(Event::Resize(_, _)) => term.autoresize()?,
            LoopEvent::Term(_) => {}
            LoopEvent::TermFailed(e) => return Err(e),
            LoopEvent::Terminate => break,
            other => {
                let _ = runner.handle(&mut app, other, &mut show);
            }
        }
        runner.tick(&mut app, &mut show);
    }
    drop(term);
    Ok(())
}
