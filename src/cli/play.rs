//! `annabella play`: a game on two boards, driven by one command per line
//! (from a script file, standard input, or typed; see
//! [`crate::game::script`]), every command saved to the journal before it
//! is announced.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use shakmaty::CastlingMode;

use super::clock::SpeechArgs;
use super::session::{self, NewGame};
use super::{UserError, load_locale};
use crate::clock::TimeControl;
use crate::game::script::{ScriptVerbs, Step, parse_line};
use crate::game::{Command, Game, Side};
use crate::journal::Writer;
use crate::speech::{self, Announcer, Item, Speaker};
use crate::vocab::{Priority, Style, Utterance, Vocabulary};

/// The script's lines for `play --help`: the command table's script rows,
/// with their help in the base locale's words (the script's words are
/// English whatever the locale).
fn script_help() -> String {
    crate::locale::base()
        .map(crate::game::script::grammar)
        .unwrap_or_default()
}

/// Options of `annabella play`.
#[derive(Debug, Args)]
#[command(after_long_help = script_help())]
pub struct PlayArgs {
    /// Read events from FILE (or `-` for standard input) with injected game
    /// time (`time` lines): deterministic. Without it, lines are read from
    /// standard input and the game time is real time.
    #[arg(long, value_name = "FILE")]
    pub script: Option<String>,
    /// Time control, e.g. 90m/40+30m+30s or 5m+3s.
    #[arg(long, default_value = "90m/40+30m+30s")]
    pub control: String,
    /// Locale of the words (see `annabella locales`).
    #[arg(long, short, default_value = "fide")]
    pub locale: String,
    /// Journal file. A new game by default goes to
    /// DATA_DIR/annabella/games/; an existing journal is continued (script
    /// lines up to the last one recorded are skipped).
    #[arg(long, value_name = "PATH")]
    pub journal: Option<PathBuf>,
    /// Name of White.
    #[arg(long, default_value = "")]
    pub white: String,
    /// Name of Black.
    #[arg(long, default_value = "")]
    pub black: String,
    /// Start position (FEN).
    #[arg(long)]
    pub fen: Option<String>,
    /// Chess960.
    #[arg(long)]
    pub chess960: bool,
    /// Continue the first game of a PGN file: its moves are played on both
    /// boards and recorded on both scoresheets.
    #[arg(long, value_name = "GAME.pgn")]
    pub from_pgn: Option<PathBuf>,
    /// How moves are announced: short or long.
    #[arg(long, default_value = "long")]
    pub style: Style,
    /// Event name for PGN.
    #[arg(long, default_value = "")]
    pub event: String,
    /// Site for PGN.
    #[arg(long, default_value = "")]
    pub site: String,
    /// Guideline III is announced for this game (games without increment,
    /// quickplay finishes): with less than two minutes in the last period
    /// the player having the move may ask for an increment of 5 seconds or
    /// claim a draw (not in blitz, not with an increment or delay).
    #[arg(long)]
    pub quickplay: bool,
    /// Rapid or blitz played without adequate supervision (FIDE Appendix
    /// A.5, B.3, the event's choice): a completed illegal move loses when
    /// the opponent claims it before his next move, instead of the time
    /// penalty.
    /// Without an arbiter, a Guideline III draw claim concludes the game
    /// and goes to the appointed arbiter (III.6).
    #[arg(long)]
    pub unsupervised: bool,
    /// Speech: by default spoken in a terminal, printed only with --script.
    #[command(flatten)]
    pub speech: SpeechArgs,
}

/// A game in progress with its journal: the `play` script's front end.
pub struct Session {
    /// The game.
    pub game: Game,
    /// Where its records go.
    pub writer: Writer,
    /// Last script line already in the journal.
    pub done_line: u64,
    real_time: Option<(Instant, Duration)>,
    script_now: Duration,
    speech: Option<Announcer<Box<dyn Speaker>>>,
}

impl Session {
    /// A session over a game and its journal.
    pub fn new(game: Game, writer: Writer, done_line: u64) -> Session {
        let now = game.mirror().now();
        Session {
            game,
            writer,
            done_line,
            real_time: None,
            script_now: now,
            speech: None,
        }
    }

    fn now(&self) -> Duration {
        match self.real_time {
            Some((since, base)) => base.saturating_add(since.elapsed()),
            None => self.script_now,
        }
    }

    fn vocab(&self) -> &Vocabulary {
        self.game.mirror().vocab()
    }

    /// Speech for every announcement from now on (`plain`: only with
    /// --speak or --speak-to). Fallbacks are printed once.
    pub fn open_speech(&mut self, out: &mut dyn Write, args: &SpeechArgs, plain: bool) {
        let output = args.output(plain);
        if output == speech::Output::Text {
            return;
        }
        let mut notices = Vec::new();
        let voice = args.voice(&self.vocab().locale().language);
        let speaker = speech::open(&output, &voice, self.vocab().locale(), &mut notices);
        for n in notices {
            let _ = writeln!(out, "{n}");
        }
        self.speech = Some(Announcer::new(speaker));
    }

    /// Waits (a bounded time) until everything queued has been spoken.
    pub fn finish_speech(&mut self) {
        if let Some(s) = &mut self.speech {
            let _ = s.drain(Duration::from_secs(60));
        }
    }

    /// Prints `text` as one plain line and speaks it.
    pub fn say(
        &mut self,
        out: &mut dyn Write,
        text: &Utterance,
        priority: Priority,
    ) -> Result<(), UserError> {
        writeln!(out, "{}", self.vocab().for_display(&text.display)).map_err(super::io_error)?;
        out.flush().map_err(super::io_error)?;
        if let Some(s) = &mut self.speech
            && let Err(e) = s.say(Item::new(text.clone(), priority))
        {
            let line = e.describe(self.game.mirror().vocab().locale());
            writeln!(out, "{line}").map_err(super::io_error)?;
        }
        Ok(())
    }

    /// Applies a command, saves its record (synced to disk), then says
    /// what happened. A refused command is explained and not saved; a
    /// failed save undoes the command and stops.
    pub fn submit(
        &mut self,
        out: &mut dyn Write,
        now: Duration,
        command: Command,
        line: Option<u64>,
    ) -> Result<(), UserError> {
        match self.game.apply(now, command, line) {
            Err(e) => {
                let text = self.game.wording(&ScriptVerbs).error(&e);
                let text = match line {
                    Some(n) => self.vocab().message(
                        "play.line_error",
                        &[("line", &Utterance::plain(n.to_string())), ("error", &text)],
                    ),
                    None => text,
                };
                self.say(out, &text, Priority::Critical)
            }
            Ok(said) => {
                let records = self.game.take_records();
                if let Err(e) = self.writer.append_all(&records) {
                    self.game.rollback();
                    let file = Utterance::plain(self.writer.path().display().to_string());
                    return Err(UserError(
                        self.vocab()
                            .message(
                                "journal.write_failed",
                                &[("file", &file), ("error", &Utterance::plain(e.to_string()))],
                            )
                            .display,
                    ));
                }
                if let Some(n) = line {
                    self.done_line = self.done_line.max(n);
                }
                let texts: Vec<(Utterance, Priority)> = {
                    let words = self.game.wording(&ScriptVerbs);
                    said.iter()
                        .map(|e| (words.event(e), e.priority()))
                        .collect()
                };
                for (text, priority) in texts {
                    self.say(out, &text, priority)?;
                }
                Ok(())
            }
        }
    }

    /// Reads command lines until the end of input.
    pub fn run(
        &mut self,
        out: &mut dyn Write,
        input: &mut dyn BufRead,
        script: bool,
    ) -> Result<(), UserError> {
        if !script {
            self.real_time = Some((Instant::now(), self.game.mirror().now()));
        }
        let mut n: u64 = 0;
        // Lines of at most crate::input::MAX_LINE_CHARS (a longer one is
        // refused in one line); bytes that are not UTF-8 are replaced.
        while let Some(read) = crate::input::read_line(input).map_err(super::io_error)? {
            n += 1;
            if script && n <= self.done_line {
                continue;
            }
            let buf = match read {
                crate::input::Line::Text(text) => text,
                crate::input::Line::TooLong => {
                    let too_long = crate::input::TooLong::Line.describe(self.vocab().locale());
                    self.say(out, &Utterance::plain(too_long), Priority::Request)?;
                    continue;
                }
            };
            let line = script.then_some(n);
            let now = self.now();
            match parse_line(&buf, self.game.mirror()) {
                Err(reason) => {
                    let reason = self.vocab().message(reason, &[]);
                    let text = self.vocab().message(
                        "play.bad_line",
                        &[
                            ("line", &Utterance::plain(n.to_string())),
                            ("text", &Utterance::plain(buf.trim())),
                            ("reason", &reason),
                        ],
                    );
                    self.say(out, &text, Priority::Request)?;
                }
                Ok(Step::Empty) => {}
                Ok(Step::Sleep(d)) => std::thread::sleep(d),
                Ok(Step::Clock) => {
                    let m = self.game.mirror();
                    let text = self
                        .game
                        .wording(&ScriptVerbs)
                        .clock_reading(m, now.max(m.now()));
                    self.say(out, &text, Priority::Request)?;
                }
                Ok(Step::Status) => {
                    let text = self
                        .game
                        .wording(&ScriptVerbs)
                        .state_line(self.game.mirror());
                    self.say(out, &text, Priority::Request)?;
                }
                Ok(Step::Time { at, relative }) => {
                    let at = if relative {
                        self.script_now.saturating_add(at)
                    } else {
                        at
                    };
                    if script {
                        // A refused time (backwards) leaves the time as it is.
                        if at >= self.game.mirror().now() {
                            self.script_now = at;
                        }
                        self.submit(out, at, Command::Tick, line)?;
                    }
                }
                Ok(Step::Command(c)) => self.submit(out, now, c, line)?,
            }
        }
        Ok(())
    }
}

/// Starts a new game (or continues the journal if it exists).
pub fn run(out: &mut dyn Write, args: &PlayArgs) -> Result<std::process::ExitCode, UserError> {
    let script = args.script.is_some();
    let mut session = match &args.journal {
        Some(p) if p.exists() => {
            let ui = load_locale(&args.locale).or_else(|_| load_locale("en"))?;
            let c = session::resume(p, false, &ui)?;
            let vocab = c.game.mirror().vocab().clone();
            for u in &c.said {
                writeln!(out, "{}", vocab.for_display(&u.display)).map_err(super::io_error)?;
            }
            Session::new(c.game, c.writer, c.done_line)
        }
        _ => new_session(out, args)?,
    };
    session.open_speech(out, &args.speech, script);
    match args.script.as_deref() {
        Some("-") | None => {
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            session.run(out, &mut lock, script)?;
        }
        Some(file) => {
            let f =
                crate::fsutil::open_stream(std::path::Path::new(file), crate::fsutil::SCRIPT_LIMIT)
                    .map_err(|e| script_error(session.vocab(), file, &e.into()))?;
            let mut r = std::io::BufReader::new(f);
            session.run(out, &mut r, true)?;
        }
    }
    let state = session
        .game
        .wording(&ScriptVerbs)
        .state_line(session.game.mirror());
    let text = session
        .vocab()
        .message("play.finished", &[("state", &state)]);
    session.say(out, &text, Priority::Request)?;
    session.finish_speech();
    Ok(std::process::ExitCode::SUCCESS)
}

fn new_session(out: &mut dyn Write, args: &PlayArgs) -> Result<Session, UserError> {
    let vocab = load_locale(&args.locale)?;
    let control: TimeControl =
        args.control
            .parse()
            .map_err(|e: crate::clock::ParseTimeControlError| {
                UserError(
                    vocab
                        .message(
                            "play.bad_control",
                            &[
                                ("control", &Utterance::plain(args.control.clone())),
                                ("error", &Utterance::plain(e.describe(vocab.locale()))),
                            ],
                        )
                        .display,
                )
            })?;
    let mut chess960 = args.chess960;
    let mut fen = args.fen.clone();
    let mut imported = Vec::new();
    if let Some(pgn) = &args.from_pgn {
        let name = pgn.display().to_string();
        let (game, replayed) = crate::pgn::continue_from(
            &vocab,
            &name,
            crate::fsutil::open_regular(pgn).map_err(std::io::Error::from),
        )
        .map_err(|u| UserError(vocab.for_display(&u.display)))?;
        chess960 |= replayed.mode == CastlingMode::Chess960;
        if game.header("FEN").is_some() {
            fen = game.header("FEN").map(str::to_owned);
        }
        imported = replayed.moves.iter().map_while(|m| *m).collect::<Vec<_>>();
    }
    let spec = NewGame {
        white: args.white.clone(),
        black: args.black.clone(),
        control: control.to_string(),
        fen,
        chess960,
        locale: args.locale.clone(),
        style: args.style,
        event: args.event.clone(),
        site: args.site.clone(),
        quickplay: args.quickplay,
        unsupervised: args.unsupervised,
    };
    let (game, writer) = session::start(&spec, args.journal.as_deref())?;
    let mut session = Session::new(game, writer, 0);
    let file = Utterance::plain(session.writer.path().display().to_string());
    let text = session
        .vocab()
        .message("journal.created", &[("file", &file)]);
    session.say(out, &text, Priority::Request)?;
    // A game continued from PGN: its moves on both boards and sheets.
    let mode = session.game.mirror().config().mode;
    for m in imported {
        let uci = m.to_uci(mode).to_string();
        let mover = Side::from(session.game.mirror().mover());
        let other = if mover == Side::White {
            Side::Black
        } else {
            Side::White
        };
        let board = |side| Command::Board {
            side,
            text: uci.clone(),
            uci: Some(uci.clone()),
        };
        for c in [
            board(mover),
            Command::Announce { text: None },
            Command::Press,
            board(other),
            Command::Sheet {
                side: Side::White,
                text: uci.clone(),
            },
            Command::Sheet {
                side: Side::Black,
                text: uci.clone(),
            },
        ] {
            session.submit(&mut std::io::sink(), Duration::ZERO, c, None)?;
        }
    }
    Ok(session)
}

/// The message for a script that cannot be opened.
pub fn script_error(v: &Vocabulary, file: &str, e: &std::io::Error) -> UserError {
    UserError(
        v.message(
            "play.bad_script",
            &[
                ("file", &Utterance::plain(file)),
                (
                    "error",
                    &Utterance::plain(crate::input::describe_io_error(v.locale(), e)),
                ),
            ],
        )
        .display,
    )
}
