//! `annabella clock`: a standalone talking clock for a real board.
//!
//! In a terminal, single keys press the clock and ask for the time; with
//! `--plain` (or when standard input is not a terminal) one command per
//! line is read, so the clock can be scripted and tested. Every
//! announcement is printed as a plain line and, unless `--plain`, spoken.
//! The system's monotonic clock is the only time source; the pure core
//! ([`Clock`], [`Talker`]) is fed `now`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Args;
use shakmaty::{ByColor, Color};

use super::error::{Arg, OutputRefused};
use super::{CliError, io_error, load_locale};
use crate::clock::talk::{Announcement, Phrasebook, Schedule, TalkEvent, Talker, Verbosity};
use crate::clock::{
    Adjustment, Clock, ClockError, DurationError, Increment, QUICKPLAY_INCREMENT, TimeControl,
    parse_duration,
};
use crate::input::Line;
use crate::locale::Locale;
use crate::locale::MsgKey;
use crate::speech::{self, Announcer, Item, Output, Priority, Speaker};
use crate::vocab::Utterance;

/// How often the clock looks at the time (countdown precision).
const TICK: Duration = Duration::from_millis(50);

/// Options of `annabella clock`.
#[derive(Debug, Args)]
pub struct ClockArgs {
    /// Time control, e.g. 5m+3s, 15m+10s, 90m/40+30m+30s, "3m d2s".
    #[arg(long, short, default_value = "5m+3s")]
    pub(super) control: String,
    /// Language of the announcements (fide speaks German).
    #[arg(long, short, default_value = "fide")]
    pub(super) locale: String,
    #[command(flatten)]
    pub(super) speech: SpeechArgs,
    /// Read one command per line from standard input and only print (no
    /// speech): press, press white, press black, time, time white, time
    /// black, moves, pause, resume, help, quit.
    #[arg(long, conflicts_with_all = ["speak", "speak_to"])]
    pub(super) plain: bool,
    /// brief (1:12:05 shown, "1 hour 12 minutes" spoken) or full (every
    /// unit in words).
    #[arg(long, default_value = "brief")]
    pub(super) verbosity: Verbosity,
    /// Announce the time left every time a player's clock passes a multiple
    /// of this (e.g. 10m, 5m; "off" for never).
    #[arg(long, default_value = "10m")]
    pub(super) every: String,
    /// Low-time warnings, comma-separated (e.g. 5m,1m,30s; "off" for none).
    #[arg(long, default_value = "5m,1m,30s")]
    pub(super) warn: String,
    /// Count the last seconds aloud from this number (0: no countdown).
    #[arg(long, default_value_t = 10)]
    pub(super) countdown: u32,
    /// Whose time is announced automatically: white, black or both.
    #[arg(long, default_value = "both")]
    pub(super) announce_for: String,
    /// Which player sits on the left (the 'a' key): white or black.
    #[arg(long, default_value = "white")]
    pub(super) left: String,
}

/// Where speech goes, and how it sounds (shared with `annabella say`).
#[derive(Debug, Args)]
pub struct SpeechArgs {
    /// Speak through speech-dispatcher (your screen reader's voice and
    /// rate), or espeak-ng when it is missing. The default in a terminal.
    #[arg(long, conflicts_with = "speak_to")]
    pub speak: bool,
    /// Render the speech with espeak-ng into this WAV file (16 kHz mono).
    /// An existing WAV file is replaced; any other file only with --force;
    /// a file this run reads or writes never.
    #[arg(long, value_name = "FILE")]
    pub speak_to: Option<PathBuf>,
    /// Replace the --speak-to file even when it is not a WAV file.
    #[arg(long, requires = "speak_to")]
    pub force: bool,
    /// Speaking rate from -100 (slowest) to 100 (fastest); default: your
    /// setting.
    #[arg(long, allow_hyphen_values = true)]
    pub rate: Option<i32>,
    /// Voice name of the synthesizer; default: one for the language.
    #[arg(long)]
    pub voice: Option<String>,
    /// Speech is off (the settings file's `speech = "off"`): only
    /// printed unless --speak or --speak-to is given.
    #[arg(skip)]
    pub quiet: bool,
}

impl SpeechArgs {
    /// The output chosen: a file, speech, or (not in a terminal, or
    /// `plain`) text only.
    pub fn output(&self, plain: bool) -> Output {
        if let Some(p) = &self.speak_to {
            Output::File(p.clone())
        } else if self.speak || (!plain && !self.quiet && std::io::stdout().is_terminal()) {
            Output::Speak
        } else {
            Output::Text
        }
    }

    /// Checks the speech options as `config set` checks them (`--rate`),
    /// and that the `--speak-to` file may be written (see
    /// [`crate::output`]): never one of `inputs`, a pipe or a device, an
    /// existing file that is not a WAV file only with `--force`.
    ///
    /// # Errors
    ///
    /// The refusal in one line, in `locale`'s words.
    pub fn check_output(
        &self,
        inputs: &crate::output::Inputs,
        locale: &Locale,
    ) -> Result<(), CliError> {
        check_rate(self.rate, locale)?;
        match &self.speak_to {
            Some(p) => crate::output::check(p, crate::output::Kind::Wav, inputs, self.force)
                .map_err(|error| {
                    CliError::typed(OutputRefused {
                        file: p.clone(),
                        error,
                    })
                    .worded_in(locale)
                }),
            None => Ok(()),
        }
    }

    /// The voice settings for `language`.
    pub fn voice(&self, language: &str) -> speech::Voice {
        speech::Voice {
            language: language.to_owned(),
            rate: self.rate,
            name: self.voice.clone(),
        }
    }
}

/// A speaking rate given on the command line, checked as `config set
/// rate` checks it (the same words when it is refused).
///
/// # Errors
///
/// The refusal, in `locale`'s words.
pub fn check_rate(rate: Option<i32>, locale: &Locale) -> Result<(), CliError> {
    match rate {
        Some(r) => crate::config::validate(crate::config::Key::Rate, &r.to_string())
            .map(|_| ())
            .map_err(|e| CliError::typed(e).worded_in(locale)),
        None => Ok(()),
    }
}

fn parse_color(text: &str) -> Option<Color> {
    match text.trim().to_ascii_lowercase().as_str() {
        "white" | "w" => Some(Color::White),
        "black" | "b" => Some(Color::Black),
        _ => None,
    }
}

/// A refused option value, in `locale`'s words: `key` is
/// `clock.bad_every` or `clock.bad_warn` (with `("error", why)`), or
/// `clock.bad_choice` (with `("choices", list)`).
fn bad_option(
    locale: &Locale,
    key: MsgKey,
    option: &str,
    value: &str,
    why: (&'static str, Arg),
) -> CliError {
    CliError::msg(key)
        .arg("option", option)
        .arg("value", value)
        .arg(why.0, why.1)
        .worded_in(locale)
}

/// Builds the schedule from the options.
fn schedule(args: &ClockArgs, locale: &Locale) -> Result<Schedule, CliError> {
    let every = match args.every.trim() {
        "off" | "0" => None,
        t => Some(parse_duration(t).map_err(|e| {
            bad_option(
                locale,
                MsgKey::ClockBadEvery,
                "every",
                t,
                ("error", Arg::cause(e)),
            )
        })?),
    };
    let warnings = match args.warn.trim() {
        "off" | "" => Vec::new(),
        t => t
            .split(',')
            .map(|w| {
                parse_duration(w).map_err(|e| {
                    bad_option(
                        locale,
                        MsgKey::ClockBadWarn,
                        "warn",
                        t,
                        ("error", Arg::cause(e)),
                    )
                })
            })
            .collect::<Result<_, _>>()?,
    };
    let players = match args.announce_for.trim().to_ascii_lowercase().as_str() {
        "both" => ByColor {
            white: true,
            black: true,
        },
        other => match parse_color(other) {
            Some(c) => ByColor::new_with(|x| x == c),
            None => {
                return Err(bad_option(
                    locale,
                    MsgKey::ClockBadChoice,
                    "announce-for",
                    other,
                    ("choices", "white, black, both".into()),
                ));
            }
        },
    };
    Ok(Schedule {
        every,
        warnings,
        countdown: args.countdown,
        players,
        ..Schedule::default()
    })
}

/// What the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockCommand {
    /// A player pressed the clock (`None`: the player to move).
    Press(Option<Color>),
    /// The time of one player or both.
    Time(Option<Color>),
    /// Moves completed.
    Moves,
    /// Whose turn it is.
    Turn,
    /// The arbiter gives a player time (e.g. a penalty to the opponent).
    Add(Color, Duration),
    /// The arbiter takes time from a player.
    Take(Color, Duration),
    /// The arbiter adds an increment of five seconds per move for both
    /// players (Guideline III.4).
    Increment,
    /// Pause.
    Pause,
    /// Resume.
    Resume,
    /// Pause or resume.
    TogglePause,
    /// The list of keys or commands.
    Help,
    /// Stop the clock and end.
    Quit,
    /// `add` or `take` with a side and a time that is not one (the text
    /// as typed, and why).
    BadTime(String, DurationError),
    /// A line longer than [`crate::input::MAX_LINE_CHARS`].
    TooLong,
    /// Something else (the text as typed).
    Unknown(String),
    /// An empty line: nothing.
    Nothing,
}

/// Reads one command line (`press`, `press white`, `time black`, …).
pub fn parse_command(line: &str) -> ClockCommand {
    let words: Vec<String> = line
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let unknown = || ClockCommand::Unknown(line.trim().to_owned());
    match words.as_slice() {
        [] => ClockCommand::Nothing,
        ["press" | "p" | "move"] => ClockCommand::Press(None),
        ["press" | "p" | "move", side] => {
            parse_color(side).map_or_else(unknown, |c| ClockCommand::Press(Some(c)))
        }
        ["time" | "t" | "times"] => ClockCommand::Time(None),
        ["time" | "t", side] => {
            parse_color(side).map_or_else(unknown, |c| ClockCommand::Time(Some(c)))
        }
        ["moves" | "m"] => ClockCommand::Moves,
        ["turn" | "s"] => ClockCommand::Turn,
        [op @ ("add" | "give" | "take" | "remove"), side, time] => {
            match (parse_color(side), parse_duration(time)) {
                (Some(c), Ok(d)) if !d.is_zero() => {
                    if matches!(*op, "add" | "give") {
                        ClockCommand::Add(c, d)
                    } else {
                        ClockCommand::Take(c, d)
                    }
                }
                (Some(_), Err(e)) => ClockCommand::BadTime(line.trim().to_owned(), e),
                _ => unknown(),
            }
        }
        ["pause"] => ClockCommand::Pause,
        ["resume"] => ClockCommand::Resume,
        ["increment" | "inc" | "i"] => ClockCommand::Increment,
        ["help" | "h" | "?"] => ClockCommand::Help,
        ["quit" | "q" | "exit"] => ClockCommand::Quit,
        _ => unknown(),
    }
}

/// The clock, its talker and its outputs.
struct Session<'a> {
    clock: Clock,
    talker: Talker,
    book: Phrasebook,
    verbosity: Verbosity,
    speech: Announcer<Box<dyn Speaker>>,
    out: &'a mut dyn Write,
    /// Line ending: "\r\n" while the terminal is in raw mode.
    eol: &'static str,
    epoch: Instant,
    left: Color,
    interactive: bool,
}

impl Session<'_> {
    fn now(&self) -> Duration {
        self.epoch.elapsed()
    }

    fn print(&mut self, text: &str) -> Result<(), CliError> {
        write!(self.out, "{text}{}", self.eol)
            .and_then(|()| self.out.flush())
            .map_err(io_error)
    }

    /// Prints the display form at once and queues the spoken form.
    fn emit(
        &mut self,
        u: Utterance,
        priority: Priority,
        key: Option<String>,
    ) -> Result<(), CliError> {
        self.print(&u.display)?;
        let item = Item {
            utterance: u,
            priority,
            key,
        };
        if let Err(e) = self.speech.say(item) {
            let line = e.describe(self.book.locale());
            self.notice(&line);
        }
        Ok(())
    }

    fn notice(&mut self, line: &str) {
        eprint!("{line}{}", self.eol);
    }

    fn announce(&mut self, list: Vec<Announcement>) -> Result<(), CliError> {
        for a in list {
            let u = self.book.announcement(&a, self.verbosity);
            self.emit(u, a.priority(), a.coalesce_key())?;
        }
        Ok(())
    }

    fn observe(&mut self, events: &[TalkEvent]) -> Result<(), CliError> {
        let now = self.now();
        let list = self.talker.observe(&self.clock, now, events);
        self.announce(list)
    }

    fn tick(&mut self) -> Result<(), CliError> {
        let now = self.now();
        let events: Vec<TalkEvent> = match self.clock.update(now) {
            Ok(e) => e.into_iter().map(TalkEvent::from).collect(),
            Err(e) => {
                let msg = self.refusal(e);
                self.emit(msg, Priority::Request, None)?;
                Vec::new()
            }
        };
        self.observe(&events)?;
        if let Err(e) = self.speech.pump() {
            let line = e.describe(self.book.locale());
            self.notice(&line);
        }
        Ok(())
    }

    fn refusal(&self, e: ClockError) -> Utterance {
        let b = &self.book;
        match e {
            ClockError::NotStarted => b.message(MsgKey::ClockNotStarted),
            ClockError::Paused { .. } => b.message(MsgKey::ClockIsPaused),
            ClockError::NotPaused => b.message(MsgKey::ClockNotPaused),
            ClockError::AlreadyStarted => b.message(MsgKey::ClockAlreadyStarted),
            ClockError::FlagFallen { color, .. } => {
                b.announcement(&Announcement::FlagFell { color }, self.verbosity)
            }
            ClockError::RemovalExceedsRemaining {
                color,
                remaining,
                requested,
            } => {
                let side = b.side(color);
                let time = b.duration(requested, Verbosity::Full);
                let left = b.duration(remaining, Verbosity::Full);
                let fill = |pick: fn(&Utterance) -> &str| {
                    b.locale().message(
                        MsgKey::ClockCannotTake,
                        &[
                            ("side", pick(&side)),
                            ("time", pick(&time)),
                            ("left", pick(&left)),
                        ],
                    )
                };
                Utterance {
                    display: fill(|u| &u.display),
                    spoken: fill(|u| &u.spoken),
                }
            }
            other => b.message_with(MsgKey::ClockRefused, &[("reason", &other.to_string())]),
        }
    }

    fn refuse(&mut self, e: ClockError) -> Result<(), CliError> {
        let u = self.refusal(e);
        let priority = if matches!(e, ClockError::FlagFallen { .. }) {
            Priority::Critical
        } else {
            Priority::Request
        };
        self.emit(u, priority, None)
    }

    fn press(&mut self, side: Option<Color>) -> Result<(), CliError> {
        let now = self.now();
        if self.clock.state() == crate::clock::ClockState::NotStarted {
            // FIDE: White's clock is started first, whoever presses.
            return match self.clock.start(now, Color::White) {
                Ok(()) => self.observe(&[TalkEvent::Started {
                    color: Color::White,
                }]),
                Err(e) => self.refuse(e),
            };
        }
        if let (Some(side), Some(running)) = (side, self.clock.running())
            && side != running
        {
            let u = self.book.message_with(
                MsgKey::ClockNotToMove,
                &[("side", &self.book.side(side).display)],
            );
            let spoken = self.book.message_with(
                MsgKey::ClockNotToMove,
                &[("side", &self.book.side(side).spoken)],
            );
            return self.emit(
                Utterance {
                    display: u.display,
                    spoken: spoken.spoken,
                },
                Priority::Request,
                None,
            );
        }
        match self.clock.press(now) {
            Ok(events) => {
                let events: Vec<TalkEvent> = events.into_iter().map(TalkEvent::from).collect();
                self.observe(&events)
            }
            Err(e) => self.refuse(e),
        }
    }

    fn time(&mut self, side: Option<Color>) -> Result<(), CliError> {
        let now = self.now();
        let u = match side {
            Some(c) => self.book.time(&self.clock.reading(c, now), self.verbosity),
            None => self.book.times(
                &self.clock.reading(Color::White, now),
                &self.clock.reading(Color::Black, now),
                self.verbosity,
            ),
        };
        self.emit(u, Priority::Request, Some("time".to_owned()))
    }

    fn moves(&mut self) -> Result<(), CliError> {
        let now = self.now();
        let mut u = self.book.moves(&self.clock.reading(Color::White, now));
        let b = self.book.moves(&self.clock.reading(Color::Black, now));
        u.display.push(' ');
        u.display.push_str(&b.display);
        u.spoken.push(' ');
        u.spoken.push_str(&b.spoken);
        self.emit(u, Priority::Request, Some("moves".to_owned()))
    }

    fn turn(&mut self) -> Result<(), CliError> {
        let u = match self.clock.to_move() {
            Some(color) => self.book.turn(color),
            None => match self.clock.flagged() {
                Some(color) => self
                    .book
                    .announcement(&Announcement::FlagFell { color }, self.verbosity),
                None => self.book.message(MsgKey::ClockNotStarted),
            },
        };
        self.emit(u, Priority::Request, Some("turn".to_owned()))
    }

    /// The arbiter's change of a player's time (Art. 7.5.5: two minutes to
    /// the opponent of an illegal move).
    fn adjust(&mut self, color: Color, adjustment: Adjustment) -> Result<(), CliError> {
        let now = self.now();
        match self.clock.adjust(now, color, adjustment) {
            Ok(()) => {
                self.observe(&[TalkEvent::Adjusted { color, adjustment }])?;
                let reading = self.clock.reading(color, now);
                let u = self.book.time(&reading, self.verbosity);
                self.emit(u, Priority::Request, Some("time".to_owned()))
            }
            Err(e) => self.refuse(e),
        }
    }

    /// The arbiter's increment of five seconds per move for both players
    /// from now on (Guideline III.4; the two minutes for the opponent are
    /// `add`).
    fn increment(&mut self) -> Result<(), CliError> {
        let b = &self.book;
        let (key, amount) = match self.clock.add_increment_both(QUICKPLAY_INCREMENT) {
            Ok(()) => (MsgKey::ClockIncrementAdded, QUICKPLAY_INCREMENT),
            Err(ClockError::IncrementAlreadySet { increment }) => (
                MsgKey::ClockIncrementAlready,
                match increment {
                    Increment::Fischer(d) | Increment::SimpleDelay(d) | Increment::Bronstein(d) => {
                        d
                    }
                    Increment::None => Duration::ZERO,
                },
            ),
            Err(e) => return self.refuse(e),
        };
        let time = b.duration(amount, Verbosity::Full);
        let fill = |pick: fn(&Utterance) -> &str| b.locale().message(key, &[("time", pick(&time))]);
        let u = Utterance {
            display: fill(|u| &u.display),
            spoken: fill(|u| &u.spoken),
        };
        self.emit(u, Priority::Critical, None)
    }

    fn pause(&mut self) -> Result<(), CliError> {
        let now = self.now();
        match self.clock.pause(now) {
            Ok(()) => {
                let color = self.clock.to_move().unwrap_or(Color::White);
                self.observe(&[TalkEvent::Paused { color }])
            }
            Err(e) => self.refuse(e),
        }
    }

    fn resume(&mut self) -> Result<(), CliError> {
        let now = self.now();
        match self.clock.resume(now) {
            Ok(()) => {
                let color = self.clock.to_move().unwrap_or(Color::White);
                self.observe(&[TalkEvent::Resumed { color }])
            }
            Err(e) => self.refuse(e),
        }
    }

    fn help(&mut self) -> Result<(), CliError> {
        let u = if self.interactive {
            let left = self.book.side(self.left).display;
            let right = self.book.side(self.left.other()).display;
            self.book.message_with(
                MsgKey::ClockHelpKeys,
                &[
                    ("left", "a"),
                    ("right", "l"),
                    ("left_side", &left),
                    ("right_side", &right),
                ],
            )
        } else {
            self.book.message(MsgKey::ClockHelpCommands)
        };
        // Guideline III.4: the arbiter's increment.
        let extra = self.book.message(MsgKey::ClockHelpIncrement);
        let u = Utterance {
            display: format!("{} {}", u.display, extra.display),
            spoken: format!("{} {}", u.spoken, extra.spoken),
        };
        self.emit(u, Priority::Request, Some("help".to_owned()))
    }

    /// Stops: the final times and moves, printed and spoken.
    fn finish(&mut self) -> Result<(), CliError> {
        let now = self.now();
        let _ = self.clock.update(now);
        let w = self.clock.reading(Color::White, now);
        let b = self.clock.reading(Color::Black, now);
        let times = self.book.times(&w, &b, Verbosity::Brief);
        let mut moves = self.book.moves(&w);
        let mb = self.book.moves(&b);
        moves.display.push(' ');
        moves.display.push_str(&mb.display);
        moves.spoken.push(' ');
        moves.spoken.push_str(&mb.spoken);
        let end = self.book.message(MsgKey::ClockFinal);
        for u in [end, times, moves] {
            self.emit(u, Priority::Critical, None)?;
        }
        let _ = self.speech.drain(Duration::from_secs(20));
        Ok(())
    }

    /// Runs one command; `false` to end.
    fn run(&mut self, cmd: ClockCommand) -> Result<bool, CliError> {
        match cmd {
            ClockCommand::Press(side) => self.press(side)?,
            ClockCommand::Time(side) => self.time(side)?,
            ClockCommand::Moves => self.moves()?,
            ClockCommand::Turn => self.turn()?,
            ClockCommand::Add(color, d) => self.adjust(color, Adjustment::Add(d))?,
            ClockCommand::Take(color, d) => self.adjust(color, Adjustment::Remove(d))?,
            ClockCommand::Increment => self.increment()?,
            ClockCommand::Pause => self.pause()?,
            ClockCommand::Resume => self.resume()?,
            ClockCommand::TogglePause => {
                if self.clock.is_paused() {
                    self.resume()?;
                } else {
                    self.pause()?;
                }
            }
            ClockCommand::Help => self.help()?,
            ClockCommand::Quit => return Ok(false),
            ClockCommand::BadTime(text, e) => {
                let why = e.describe(self.book.locale());
                let u = self
                    .book
                    .message_with(MsgKey::ClockBadTime, &[("command", &text), ("error", &why)]);
                self.emit(u, Priority::Request, None)?;
            }
            ClockCommand::TooLong => {
                let text = crate::input::TooLong::Line.describe(self.book.locale());
                self.emit(Utterance::plain(text), Priority::Request, None)?;
            }
            ClockCommand::Unknown(text) => {
                let u = self
                    .book
                    .message_with(MsgKey::ClockUnknownCommand, &[("command", &text)]);
                self.emit(u, Priority::Request, None)?;
            }
            ClockCommand::Nothing => {}
        }
        Ok(true)
    }
}

/// `annabella clock`.
pub fn run(out: &mut impl Write, args: &ClockArgs) -> Result<ExitCode, CliError> {
    let vocab = load_locale(&args.locale)?;
    let book = Phrasebook::for_locale(vocab.locale())
        .map_err(|e| CliError::Locale(e).worded_in(vocab.locale()))?;
    let control: TimeControl =
        args.control
            .parse()
            .map_err(|e: crate::clock::ParseTimeControlError| {
                CliError::msg(MsgKey::ClockBadControl)
                    .arg("control", args.control.as_str())
                    .cause("error", e)
                    .worded_in(book.locale())
            })?;
    let schedule = schedule(args, book.locale())?;
    let left = parse_color(&args.left).ok_or_else(|| {
        bad_option(
            book.locale(),
            MsgKey::ClockBadChoice,
            "left",
            &args.left,
            ("choices", "white, black".into()),
        )
    })?;
    let mut inputs = crate::output::Inputs::new();
    inputs.add_locale(&args.locale);
    args.speech.check_output(&inputs, book.locale())?;
    let interactive =
        !args.plain && std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let output = args.speech.output(args.plain);
    let mut notices = Vec::new();
    let speaker = speech::open(
        &output,
        &args.speech.voice(book.language()),
        book.locale(),
        &mut notices,
    );
    for n in &notices {
        eprintln!("{n}");
    }
    let _ = out.flush();
    let mut session = Session {
        clock: Clock::new(control.clone()),
        talker: Talker::new(schedule),
        book,
        verbosity: args.verbosity,
        speech: Announcer::new(speaker),
        out,
        eol: "\n",
        epoch: Instant::now(),
        left,
        interactive,
    };
    let intro = session
        .book
        .message_with(MsgKey::ClockControl, &[("control", &control.to_string())]);
    session.emit(intro, Priority::Request, None)?;
    session.tick()?;
    session.help()?;
    if interactive {
        run_keys(&mut session)?;
    } else {
        run_lines(&mut session)?;
    }
    session.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// One command per line from standard input; the clock ticks meanwhile.
/// The end of the input quits.
fn run_lines(session: &mut Session<'_>) -> Result<(), CliError> {
    let (tx, rx) = mpsc::channel::<Line>();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in crate::input::lines(stdin.lock()) {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    loop {
        session.tick()?;
        match rx.recv_timeout(TICK) {
            Ok(line) => {
                let command = match line {
                    Line::Text(text) => parse_command(&text),
                    Line::TooLong => ClockCommand::TooLong,
                };
                if !session.run(command)? {
                    return Ok(());
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
        }
    }
}

/// Restores the terminal however the key loop ends.
struct RawMode {
    enhanced: bool,
}

impl Drop for RawMode {
    fn drop(&mut self) {
        if self.enhanced {
            let _ = crossterm::execute!(
                std::io::stdout(),
                crossterm::event::PopKeyboardEnhancementFlags
            );
        }
        let _ = crossterm::terminal::disable_raw_mode();
    }
}

/// Single keys in a terminal.
fn run_keys(session: &mut Session<'_>) -> Result<(), CliError> {
    use crossterm::event::{
        self, Event, KeyCode, KeyEventKind, KeyModifiers, KeyboardEnhancementFlags,
        ModifierKeyCode, PushKeyboardEnhancementFlags,
    };
    let loc = session.book.locale().clone();
    let no_keys = |e: std::io::Error| {
        CliError::msg(MsgKey::ClockNoKeys)
            .cause("error", e)
            .worded_in(&loc)
    };
    crossterm::terminal::enable_raw_mode().map_err(no_keys)?;
    let mut raw = RawMode { enhanced: false };
    // Terminals with the kitty keyboard protocol report the shift keys
    // alone: then left and right shift press the clock too.
    if crossterm::terminal::supports_keyboard_enhancement().unwrap_or(false) {
        raw.enhanced = crossterm::execute!(
            std::io::stdout(),
            PushKeyboardEnhancementFlags(
                KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES
                    | KeyboardEnhancementFlags::REPORT_ALL_KEYS_AS_ESCAPE_CODES
                    | KeyboardEnhancementFlags::REPORT_EVENT_TYPES
            )
        )
        .is_ok();
    }
    let _raw = raw;
    session.eol = "\r\n";
    let mut confirming = false;
    loop {
        session.tick()?;
        let ready = event::poll(TICK).map_err(no_keys)?;
        if !ready {
            continue;
        }
        let Event::Key(key) = event::read().map_err(no_keys)? else {
            continue;
        };
        if key.kind != KeyEventKind::Press {
            continue;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('c' | 'd'))
        {
            break;
        }
        if confirming {
            confirming = false;
            if matches!(key.code, KeyCode::Char('y' | 'Y' | 'j' | 'J')) {
                break;
            }
            // Any other key answers no; a key that is not n or Esc is
            // then carried out as if nothing had been asked.
            let u = session.book.message(MsgKey::ClockQuitCancelled);
            session.emit(u, Priority::Request, None)?;
            if matches!(key.code, KeyCode::Char('n' | 'N') | KeyCode::Esc) {
                continue;
            }
        }
        let cmd = match key.code {
            KeyCode::Char('a' | 'A') | KeyCode::Modifier(ModifierKeyCode::LeftShift) => {
                ClockCommand::Press(Some(session.left))
            }
            KeyCode::Char('l' | 'L') | KeyCode::Modifier(ModifierKeyCode::RightShift) => {
                ClockCommand::Press(Some(session.left.other()))
            }
            KeyCode::Char(' ') | KeyCode::Enter => ClockCommand::Press(None),
            KeyCode::Char('t' | 'T') => ClockCommand::Time(None),
            KeyCode::Char('w' | 'W') => ClockCommand::Time(Some(Color::White)),
            KeyCode::Char('b' | 'B') => ClockCommand::Time(Some(Color::Black)),
            KeyCode::Char('m' | 'M') => ClockCommand::Moves,
            KeyCode::Char('s' | 'S') => ClockCommand::Turn,
            KeyCode::Char('p' | 'P') => ClockCommand::TogglePause,
            KeyCode::Char('i' | 'I') => ClockCommand::Increment,
            KeyCode::Char('h' | 'H' | '?') | KeyCode::F(1) => ClockCommand::Help,
            KeyCode::Char('q' | 'Q') | KeyCode::Esc => {
                confirming = true;
                let u = session.book.message(MsgKey::ClockQuitConfirm);
                session.emit(u, Priority::Request, None)?;
                continue;
            }
            KeyCode::Char(c) => ClockCommand::Unknown(c.to_string()),
            _ => ClockCommand::Nothing,
        };
        if !session.run(cmd)? {
            break;
        }
    }
    session.eol = "\n";
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse_command("press"), ClockCommand::Press(None));
        assert_eq!(
            parse_command("  Press  White "),
            ClockCommand::Press(Some(Color::White))
        );
        assert_eq!(
            parse_command("press b"),
            ClockCommand::Press(Some(Color::Black))
        );
        assert_eq!(parse_command("time"), ClockCommand::Time(None));
        assert_eq!(
            parse_command("time black"),
            ClockCommand::Time(Some(Color::Black))
        );
        assert_eq!(parse_command("moves"), ClockCommand::Moves);
        assert_eq!(parse_command("turn"), ClockCommand::Turn);
        assert_eq!(
            parse_command("add black 2m"),
            ClockCommand::Add(Color::Black, Duration::from_secs(120))
        );
        assert_eq!(
            parse_command("take White 30s"),
            ClockCommand::Take(Color::White, Duration::from_secs(30))
        );
        assert_eq!(
            parse_command("add black 0s"),
            ClockCommand::Unknown("add black 0s".into())
        );
        assert_eq!(
            parse_command("add 2m"),
            ClockCommand::Unknown("add 2m".into())
        );
        assert_eq!(parse_command("pause"), ClockCommand::Pause);
        assert_eq!(parse_command("Increment"), ClockCommand::Increment);
        assert_eq!(parse_command("resume"), ClockCommand::Resume);
        assert_eq!(parse_command("?"), ClockCommand::Help);
        assert_eq!(parse_command("quit"), ClockCommand::Quit);
        assert_eq!(parse_command(""), ClockCommand::Nothing);
        assert_eq!(
            parse_command("press green"),
            ClockCommand::Unknown("press green".into())
        );
        assert_eq!(
            parse_command("dance"),
            ClockCommand::Unknown("dance".into())
        );
    }

    #[test]
    fn huge_or_bad_times_are_named_not_unknown() {
        // Issue 13: one duration grammar, overflow-safe, at most 1000 hours.
        assert_eq!(
            parse_command("add white 1h30m"),
            ClockCommand::Add(Color::White, Duration::from_secs(5400))
        );
        assert_eq!(
            parse_command("add white 90"),
            ClockCommand::Add(Color::White, Duration::from_secs(90))
        );
        let line = "add white 10000000000000000000s10000000000000000000s";
        assert_eq!(
            parse_command(line),
            ClockCommand::BadTime(line.to_owned(), DurationError::TooLong { position: 1 })
        );
        assert!(matches!(
            parse_command("take black 5x"),
            ClockCommand::BadTime(_, DurationError::UnknownUnit { .. })
        ));
    }
}
