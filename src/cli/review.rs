//! `annabella review GAME.pgn|GAME.jsonl`: a finished game gone through
//! by ear. The model is [`crate::review::Review`]; this adapter reads the
//! game, runs the engine on its own thread, speaks, and drives either the
//! full screen (keys) or plain lines (standard input).

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use super::clock::SpeechArgs;
use super::error::Cause;
use super::ui::ThemeArgs;
use super::{CliError, load_locale};
use crate::engine::DEFAULT_ENGINE;
use crate::locale::MsgKey;
use crate::review::front::{ReviewRunner, key_command};
use crate::review::{Review, ReviewEffect, ReviewGame, ReviewGameError, ReviewMsg};
use crate::speech::{self, Announcer};
use crate::ui::inbox::{Event as LoopEvent, Inbox};
use crate::ui::render::Theme;
use crate::vocab::{Style, Utterance, Vocabulary};

/// Options of `annabella review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// Locale of the words and messages (see `annabella locales`), or a
    /// path to a locale file (.toml).
    #[arg(long, short, default_value = "fide")]
    pub locale: String,
    /// How moves are announced: short or long.
    #[arg(long, default_value = "short")]
    pub style: Style,
    /// Plain lines instead of the full screen: commands are read line by
    /// line from standard input (chosen by itself when output is not a
    /// terminal).
    #[arg(long)]
    pub plain: bool,
    #[command(flatten)]
    pub speech: SpeechArgs,
    /// Do not speak aloud (the full screen speaks by default).
    #[arg(long, conflicts_with_all = ["speak", "speak_to"])]
    pub silent: bool,
    /// Which game of a PGN file (1 = the first).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub game: usize,
    /// The UCI engine for evaluations; default /usr/games/stockfish.
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// How long the engine thinks per evaluation, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub engine_movetime: u64,
    #[command(flatten)]
    pub theme: ThemeArgs,
    /// Lines to say at the start on the full screen (a settings file that
    /// could not be used); already printed on standard error.
    #[arg(skip)]
    pub notices: Vec<String>,
    /// The game: a PGN file, or a journal of annabella (.jsonl).
    #[arg(value_name = "GAME.pgn|GAME.jsonl")]
    pub file: PathBuf,
}

fn bad_file(vocab: &Vocabulary, path: &Path, error: impl Cause + 'static) -> CliError {
    CliError::msg(MsgKey::ReviewBadFile)
        .arg("file", path.display().to_string())
        .cause("error", error)
        .worded_in(vocab.locale())
}

/// Reads game number `n` (1-based) of a PGN file; a game cut short by an
/// illegal move is reviewed up to it, with a line saying so.
pub fn read_pgn(
    vocab: &Vocabulary,
    path: &Path,
    n: usize,
) -> Result<(ReviewGame, Option<Utterance>), CliError> {
    let file = crate::fsutil::open_regular(path)
        .map_err(|e| bad_file(vocab, path, std::io::Error::from(e)))?;
    let games = crate::pgn::read_games(file).map_err(|e| bad_file(vocab, path, e))?;
    let no_game = || {
        CliError::msg(MsgKey::ReviewNoGame)
            .arg("file", path.display().to_string())
            .worded_in(vocab.locale())
    };
    if games.is_empty() {
        return Err(no_game());
    }
    let count = games.len().to_string();
    let game = n.checked_sub(1).and_then(|i| games.get(i)).ok_or_else(|| {
        CliError::msg(MsgKey::ReviewNoSuchGame)
            .arg("file", path.display().to_string())
            .arg("count", count.clone())
            .arg("game", n.to_string())
            .worded_in(vocab.locale())
    })?;
    match ReviewGame::from_pgn(game) {
        Ok(g) => Ok((g, None)),
        Err(ReviewGameError::Headers(e)) => Err(bad_file(vocab, path, e)),
        Err(ReviewGameError::Illegal {
            number,
            san,
            error,
            before,
        }) => {
            let note = vocab.message(
                MsgKey::ReviewIllegal,
                &[
                    ("number", &Utterance::plain(number.to_string())),
                    ("san", &Utterance::plain(san)),
                    ("error", &Utterance::plain(error.describe(vocab.locale()))),
                ],
            );
            Ok((*before, Some(note)))
        }
    }
}

/// Reads a journal and replays it through the game layer (the same reading
/// as `resume` and `export`): the game as far as its good records go, and a
/// note about damage said first.
pub fn read_journal(vocab: &Vocabulary, path: &Path) -> Result<ReviewGame, CliError> {
    let read = super::session::read(path, vocab)?;
    for note in &read.notes {
        eprintln!("{}", note.display);
    }
    Ok(ReviewGame::from_mirror(read.game.mirror()))
}

/// `annabella review`.
pub fn run(out: &mut impl Write, args: &ReviewArgs) -> Result<ExitCode, CliError> {
    let vocab = load_locale(&args.locale)?;
    let mut inputs = crate::output::Inputs::new();
    inputs.add_locale(&args.locale).add(&args.file);
    args.speech.check_output(&inputs, vocab.locale())?;
    let is_journal = args
        .file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl"));
    let (game, note) = if is_journal {
        (read_journal(&vocab, &args.file)?, None)
    } else {
        read_pgn(&vocab, &args.file, args.game)?
    };
    review_game(out, args, vocab, game, note)
}

/// Reviews `game` (from [`ReviewGame::from_mirror`], [`read_pgn`] or
/// [`read_journal`]) with the options of `args` (its `file` and `game`
/// are not used); `note` is said first.
pub fn review_game(
    out: &mut impl Write,
    args: &ReviewArgs,
    vocab: Vocabulary,
    game: ReviewGame,
    note: Option<Utterance>,
) -> Result<ExitCode, CliError> {
    let plain =
        args.plain || !std::io::stdout().is_terminal() || crate::environment::get().term_dumb;
    let mut notices = Vec::new();
    let output = if args.silent {
        speech::Output::Text
    } else {
        args.speech.output(plain)
    };
    let speaker = speech::open(
        &output,
        &args.speech.voice(&vocab.locale().language),
        vocab.locale(),
        &mut notices,
    );
    let locale = vocab.locale().clone();
    // The terminal's errors in the player's words, not the base locale's.
    let words = locale.clone();
    let (mut review, mut first) = Review::new(vocab, game, args.style);
    review.set_movetime(Duration::from_millis(args.engine_movetime.max(1)));
    let engine = args
        .engine
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_ENGINE));
    // Keys or lines, the engine's answers, speech progress: one channel.
    let inbox = Inbox::new();
    let mut announcer = Announcer::new(speaker);
    announcer.set_waker(inbox.speech());
    let mut runner = ReviewRunner::new(Some(announcer), engine, inbox.post(LoopEvent::Analysis));
    // Set-up lines (speech fallbacks, a game cut short) come first.
    let shown_notices = if plain {
        Vec::new()
    } else {
        args.notices.clone()
    };
    let extra: Vec<Utterance> = shown_notices
        .into_iter()
        .chain(notices)
        .map(Utterance::plain)
        .chain(note)
        .collect();
    for (i, u) in extra.iter().enumerate() {
        review.log.insert(i, u.clone());
    }
    let mut head: Vec<ReviewEffect> = extra.into_iter().map(ReviewEffect::Say).collect();
    head.append(&mut first);
    if plain {
        crate::ui::term::install_signal_handlers();
        let stdin = std::io::BufReader::new(std::io::stdin());
        plain_loop(out, review, head, &mut runner, stdin, &inbox)?;
    } else {
        screen_loop(
            review,
            head,
            &mut runner,
            Theme::of(args.theme.kind()),
            &inbox,
        )
        .map_err(|e| {
            CliError::msg(MsgKey::UiTerminalError)
                .cause("error", e)
                .worded_in(&words)
        })?;
    }
    if let Some(s) = &mut runner.speech {
        let _ = s.drain(Duration::from_secs(5));
    }
    Ok(ExitCode::SUCCESS)
}

/// One line per command from `input`, one line per utterance out. An
/// evaluation asked for is waited for before the next line. The loop
/// blocks on `inbox` (lines read on a thread of their own, the engine's
/// answers, speech progress).
fn plain_loop(
    out: &mut impl Write,
    mut review: Review,
    first: Vec<ReviewEffect>,
    runner: &mut ReviewRunner,
    input: impl BufRead + Send + 'static,
    inbox: &Inbox,
) -> Result<(), CliError> {
    let mut failed = None;
    let mut show = |u: &Utterance| {
        if failed.is_none()
            && let Err(e) = writeln!(out, "{}", u.display).and_then(|()| out.flush())
        {
            failed = Some(e);
        }
    };
    runner.apply(&mut review, first, &mut show);
    let lines = inbox.post(LoopEvent::Line);
    std::thread::spawn(move || {
        for line in crate::input::lines(input) {
            let Ok(line) = line else { break };
            if !lines.send(Some(line)) {
                return;
            }
        }
        lines.send(None);
    });
    crate::ui::term::watch_signals(inbox);
    let mut held = std::collections::VecDeque::new();
    let mut open = true;
    while !review.should_quit() && !crate::ui::term::terminate_requested() {
        runner.pump();
        if runner.pending == 0
            && let Some(line) = held.pop_front()
        {
            match line {
                crate::input::Line::Text(text) => {
                    let fx = review.update(ReviewMsg::Line(text));
                    runner.apply(&mut review, fx, &mut show);
                }
                crate::input::Line::TooLong => {
                    let text = crate::input::TooLong::Line.describe(review.vocab().locale());
                    show(&Utterance::plain(text));
                }
            }
            continue;
        }
        if !open && runner.pending == 0 {
            break;
        }
        match inbox.next(runner.deadline()) {
            Some(LoopEvent::Line(Some(line))) => held.push_back(line),
            Some(LoopEvent::Line(None)) => open = false,
            Some(LoopEvent::Analysis(msg)) => runner.answer(&mut review, msg, &mut show),
            Some(LoopEvent::Terminate) => break,
            Some(_) | None => {}
        }
    }
    runner.pump();
    match failed {
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(super::io_error(e)),
        _ => Ok(()),
    }
}

/// The full screen: keys act at once, typed commands on Enter. The loop
/// blocks on `inbox` (keys read on a thread of their own, the engine's
/// answers, speech progress).
fn screen_loop(
    mut review: Review,
    first: Vec<ReviewEffect>,
    runner: &mut ReviewRunner,
    theme: Theme,
    inbox: &Inbox,
) -> std::io::Result<()> {
    use crossterm::event::Event;
    use crossterm::terminal::{self, EnterAlternateScreen};
    use ratatui::Terminal;
    use ratatui::backend::CrosstermBackend;

    struct Guard;
    impl Drop for Guard {
        fn drop(&mut self) {
            crate::ui::term::restore();
        }
    }
    crate::ui::term::install_signal_handlers();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        crate::ui::term::restore();
        previous(info);
    }));
    terminal::enable_raw_mode()?;
    let _guard = Guard;
    crossterm::execute!(std::io::stdout(), EnterAlternateScreen)?;
    let mut term = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    term.clear()?;
    crate::ui::term::read_keys(inbox);
    crate::ui::term::watch_signals(inbox);
    let mut show = |_u: &Utterance| {};
    runner.apply(&mut review, first, &mut show);
    loop {
        runner.pump();
        term.draw(|f| crate::review::render::draw(f, &review, &theme))?;
        if review.should_quit() || crate::ui::term::terminate_requested() {
            break;
        }
        match inbox.next(runner.deadline()) {
            Some(LoopEvent::Term(Event::Key(k))) => {
                if let Some(msg) = key_command(&mut review, k) {
                    let fx = review.update(msg);
                    runner.apply(&mut review, fx, &mut show);
                }
            }
            Some(LoopEvent::Term(Event::Resize(_, _))) => term.autoresize()?,
            Some(LoopEvent::Analysis(msg)) => runner.answer(&mut review, msg, &mut show),
            Some(LoopEvent::TermFailed(e)) => return Err(e),
            Some(LoopEvent::Terminate) => break,
            Some(_) | None => {}
        }
    }
    Ok(())
}
