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
use super::error::PgnRefused;
use super::session::{self, NewGame};
use super::{CliError, load_locale};
use crate::clock::TimeControl;
use crate::game::script::{ScriptVerbs, Step, parse_line};
use crate::game::{Command, Game, Journaled, Side};
use crate::journal::Writer;
use crate::locale::MsgKey;
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
    /// Practice, not a rated game: the legality of a player's own move
    /// (an illegal move made, an illegal sealed move) is told at once. By
    /// default (a tournament game) nothing is said about it before the
    /// clock is pressed; the press then counts an illegal move (7.5).
    #[arg(long)]
    pub practice: bool,
    /// The sighted player (FIDE Appendix D.2.5): for him the ordinary
    /// rules apply, so his move counts when it is made on his board (a
    /// mate placed there ends the game at once) and a released piece
    /// stays where it is. Without it, both players' moves count when
    /// made and announced (D.2.3).
    #[arg(long, value_name = "white|black", value_parser = parse_side)]
    pub sighted: Option<Side>,
    /// Speech: by default spoken in a terminal, printed only with --script.
    #[command(flatten)]
    pub speech: SpeechArgs,
}

/// A game in progress with its journal: the `play` script's front end.
pub struct Session {
    /// The game and its journal, where its records go.
    pub game: Journaled<Writer>,
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
            game: Journaled::new(game, writer),
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
    ) -> Result<(), CliError> {
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
    ) -> Result<(), CliError> {
        match self.game.apply(now, command, line) {
            Err(e) => {
                let text = self.game.wording(&ScriptVerbs).error(&e);
                let text = match line {
                    Some(n) => self.vocab().message(
                        MsgKey::PlayLineError,
                        &[("line", &Utterance::plain(n.to_string())), ("error", &text)],
                    ),
                    None => text,
                };
                self.say(out, &text, Priority::Critical)
            }
            Ok(said) => {
                if let Err(failed) = self.game.save() {
                    return Err(CliError::msg(MsgKey::JournalWriteFailed)
                        .arg("file", self.game.store().path().display().to_string())
                        .cause("error", failed.error)
                        .worded_in(self.vocab().locale()));
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
    ) -> Result<(), CliError> {
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
                        MsgKey::PlayBadLine,
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
pub fn run(out: &mut dyn Write, args: &PlayArgs) -> Result<std::process::ExitCode, CliError> {
    let script = args.script.is_some();
    // The files of this run, which --speak-to never writes over.
    let mut inputs = crate::output::Inputs::new();
    inputs.add_locale(&args.locale);
    for p in [&args.journal, &args.from_pgn].into_iter().flatten() {
        inputs.add(p);
    }
    if let Some(s) = args.script.as_deref().filter(|s| *s != "-") {
        inputs.add(std::path::Path::new(s));
    }
    {
        let ui = load_locale(&args.locale).or_else(|_| load_locale("en"))?;
        args.speech.check_output(&inputs, ui.locale())?;
    }
    let mut session = match &args.journal {
        Some(p) if p.exists() => {
            let ui = load_locale(&args.locale).or_else(|_| load_locale("fide"))?;
            let c = session::resume(p, session::Resume::Strict, &ui, &mut session::NoArbiter)?;
            let vocab = c.game.mirror().vocab().clone();
            for u in &c.said {
                writeln!(out, "{}", vocab.for_display(&u.display)).map_err(super::io_error)?;
            }
            Session::new(c.game, c.writer, c.done_line)
        }
        _ => new_session(out, args)?,
    };
    inputs.add(session.game.store().path());
    args.speech
        .check_output(&inputs, session.vocab().locale())?;
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
                    .map_err(|e| script_error(session.vocab(), file, e.into()))?;
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
        .message(MsgKey::PlayFinished, &[("state", &state)]);
    session.say(out, &text, Priority::Request)?;
    session.finish_speech();
    Ok(std::process::ExitCode::SUCCESS)
}

fn new_session(out: &mut dyn Write, args: &PlayArgs) -> Result<Session, CliError> {
    let vocab = load_locale(&args.locale)?;
    let control: TimeControl =
        args.control
            .parse()
            .map_err(|e: crate::clock::ParseTimeControlError| {
                CliError::msg(MsgKey::PlayBadControl)
                    .arg("control", args.control.as_str())
                    .cause("error", e)
                    .worded_in(vocab.locale())
            })?;
    let mut chess960 = args.chess960;
    let mut fen = args.fen.clone();
    let mut imported = Vec::new();
    let mut pgn_game = None;
    if let Some(pgn) = &args.from_pgn {
        let name = pgn.display().to_string();
        let (game, replayed) = crate::pgn::continue_from(
            crate::fsutil::open_regular(pgn).map_err(std::io::Error::from),
        )
        .map_err(|error| {
            CliError::typed(PgnRefused { file: name, error })
                .isolated()
                .worded_in(vocab.locale())
        })?;
        chess960 |= replayed.mode == CastlingMode::Chess960;
        if game.header("FEN").is_some() {
            fen = game.header("FEN").map(str::to_owned);
        }
        imported = replayed.moves.iter().map_while(|m| *m).collect::<Vec<_>>();
        pgn_game = Some((game, replayed));
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
        practice: args.practice,
        sighted: args.sighted,
    };
    let (game, writer) = session::start(&spec, args.journal.as_deref())?;
    let mut session = Session::new(game, writer, 0);
    let file = Utterance::plain(session.game.store().path().display().to_string());
    let text = session
        .vocab()
        .message(MsgKey::JournalCreated, &[("file", &file)]);
    session.say(out, &text, Priority::Request)?;
    // A game continued from PGN: its moves on both boards and sheets.
    let mode = session.game.mirror().config().mode;
    let plies = imported.len();
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
    if let Some((game, replayed)) = pgn_game {
        import_notes(out, &mut session, &game, &replayed, plies)?;
    }
    // A start position (or the end of an imported game) that is mate,
    // stalemate or dead: the game is over at once (5.1.1, 5.2), and said
    // so before anything else.
    if let Some(r) = session.game.mirror().result() {
        let text = session
            .game
            .wording(&ScriptVerbs)
            .error(&crate::mirror::GameError::GameOver(r));
        session.say(out, &text, Priority::Critical)?;
    }
    Ok(session)
}

/// What a PGN says beyond its moves, for a game continued from it: the
/// clock times and comments are kept (the clocks set to the last times),
/// and what cannot be continued is said, never dropped silently: a null
/// move (no game on the board can pass its move) with the moves after it,
/// and a result the PGN gives for a game that is not over on the board.
fn import_notes(
    out: &mut dyn Write,
    session: &mut Session,
    game: &crate::pgn::PgnGame,
    replayed: &crate::pgn::ReplayedGame,
    plies: usize,
) -> Result<(), CliError> {
    let ms = |d: &Option<Duration>| d.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let clocks: Vec<Option<u64>> = game.clocks.iter().take(plies).map(ms).collect();
    let comments: Vec<String> = game.comments.iter().take(plies + 1).cloned().collect();
    if clocks.iter().any(Option::is_some) || comments.iter().any(|c| !c.is_empty()) {
        session.submit(
            out,
            Duration::ZERO,
            Command::PgnNotes { clocks, comments },
            None,
        )?;
    }
    let vocab = session.vocab().clone();
    if plies < replayed.moves.len() {
        let last = session
            .game
            .wording(&ScriptVerbs)
            .last_move(session.game.mirror());
        let text = vocab.message(
            MsgKey::PlayPgnNullMove,
            &[
                ("number", &Utterance::plain(replayed.move_number(plies))),
                ("last", &last),
                (
                    "count",
                    &Utterance::plain((replayed.moves.len() - plies).to_string()),
                ),
            ],
        );
        session.say(out, &text, Priority::Critical)?;
    }
    let result = game.header("Result").unwrap_or("*").trim();
    if result != "*" && !result.is_empty() && session.game.mirror().result().is_none() {
        let text = vocab.message(
            MsgKey::PlayPgnResultNotImported,
            &[("result", &Utterance::plain(result))],
        );
        session.say(out, &text, Priority::Critical)?;
    }
    Ok(())
}

/// A side as the command line and the settings file name it: `white` or
/// `black`.
///
/// # Errors
///
/// Neither: the settings' error for a bad `sighted` value.
pub fn parse_side(text: &str) -> Result<Side, crate::config::ConfigError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Side::White),
        "black" | "b" => Ok(Side::Black),
        _ => Err(crate::config::ConfigError::BadValue {
            key: crate::config::Key::Sighted,
            value: text.to_owned(),
        }),
    }
}

/// The message for a script that cannot be opened.
pub fn script_error(v: &Vocabulary, file: &str, e: std::io::Error) -> CliError {
    CliError::msg(MsgKey::PlayBadScript)
        .arg("file", file)
        .cause("error", e)
        .worded_in(v.locale())
}

#[cfg(test)]
mod tests {
    //! The `play` session over a journal store whose disk fails (issue
    //! 25): an event is said only after its record is durable; a failed
    //! save undoes the event and says so; what is on disk replays to
    //! exactly the events said.
    use super::*;
    use crate::journal::fault::{Disk, Faults, Op};
    use crate::journal::{self, Loaded};
    use std::path::Path;

    /// Standard output that writes every line it is given into the
    /// disk's log, after what the disk did so far.
    struct Screen {
        disk: Disk,
        line: Vec<u8>,
    }

    impl Write for Screen {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            for b in buf {
                if *b == b'\n' {
                    let text = String::from_utf8_lossy(&self.line).into_owned();
                    self.disk.said(&text);
                    self.line.clear();
                } else {
                    self.line.push(*b);
                }
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    const HEADER: &str = r#"{"format":"annabella-journal","version":2,"created":"2026-11-21T22:00:00Z","white":"Anna","black":"Bella","control":"90m/40+30m+30s","locale":"en"}"#;

    /// A session of a new game whose journal is on `disk`.
    fn session(faults: Faults) -> (Session, Disk, Vec<u8>) {
        let header: journal::Header = serde_json::from_str(HEADER).unwrap();
        let bytes = journal::encode_line(&header).unwrap().into_bytes();
        let loaded: Loaded = journal::parse(&bytes).unwrap();
        let disk = Disk::new(&bytes, faults);
        let writer = Writer::over(Box::new(disk.clone()), Path::new("g.jsonl"), &loaded);
        let vocab = load_locale("en").unwrap();
        let config = journal::config_of(&header).unwrap();
        let game = Game::new(vocab, config, Duration::ZERO);
        (Session::new(game, writer, 0), disk, bytes)
    }

    const LINES: [&str; 5] = [
        "white board: e4",
        "announce",
        "press",
        "black board: e4",
        "white sheet: e4",
    ];

    /// Feeds the lines one by one (game time 1 s apart) until one fails.
    fn play(s: &mut Session, out: &mut Screen) -> (usize, Option<String>) {
        for (i, line) in LINES.iter().enumerate() {
            let Ok(Step::Command(c)) = parse_line(line, s.game.mirror()) else {
                panic!("{line}: not a command");
            };
            let now = Duration::from_secs(i as u64 + 1);
            if let Err(e) = s.submit(out, now, c, None) {
                let en = crate::locale::builtin("en").unwrap();
                return (i, Some(e.describe(&en)));
            }
        }
        (LINES.len(), None)
    }

    /// Both front ends keep the game in the one save sequence: the `play`
    /// script's session holds a [`Journaled`] over the journal store (the
    /// play screen's is tested in `ui::app::tests`, over the same store).
    #[test]
    fn the_session_saves_through_the_one_save_sequence() {
        let (s, _, _) = session(Faults::default());
        let journaled: &Journaled<Writer> = &s.game;
        assert_eq!(journaled.store().path(), Path::new("g.jsonl"));
    }

    /// Every line said follows a successful sync: nothing is said while
    /// its record could still be lost.
    fn said_only_after_sync(log: &[Op]) {
        let mut synced = true;
        for op in log {
            match op {
                Op::Sync => synced = true,
                Op::Said(text) => assert!(
                    synced,
                    "said before its record was durable: {text} in {log:?}"
                ),
                _ => synced = false,
            }
        }
    }

    #[test]
    fn an_event_is_said_only_once_its_record_is_on_disk() {
        let (mut s, disk, _) = session(Faults::default());
        let mut out = Screen {
            disk: disk.clone(),
            line: Vec::new(),
        };
        assert_eq!(play(&mut s, &mut out), (LINES.len(), None));
        let state = disk.state();
        said_only_after_sync(&state.log);
        assert_eq!(
            state.log.iter().filter(|o| **o == Op::Sync).count(),
            LINES.len()
        );
        assert!(state.log.iter().any(|o| matches!(o, Op::Said(_))));
        let l = journal::parse(&state.durable).unwrap();
        assert_eq!(l.records.len(), LINES.len());
    }

    #[test]
    fn a_failed_save_undoes_the_event_says_so_and_the_disk_replays_what_was_said() {
        let en = |key: MsgKey, args: &[(&str, &str)]| {
            crate::locale::builtin("en").unwrap().message(key, args)
        };
        let cases = [
            (
                "disk full",
                Faults {
                    full_at_write: Some(3),
                    ..Faults::default()
                },
                en(MsgKey::IoNoSpace, &[]),
            ),
            (
                "short write",
                Faults {
                    short_write: Some((3, 25)),
                    ..Faults::default()
                },
                en(MsgKey::IoNoSpace, &[]),
            ),
            (
                "fsync fails",
                Faults {
                    fail_sync: Some(3),
                    ..Faults::default()
                },
                en(MsgKey::IoDeviceError, &[]),
            ),
            (
                "fsync and the cut fail",
                Faults {
                    fail_sync: Some(3),
                    fail_cut: true,
                    ..Faults::default()
                },
                en(MsgKey::IoDeviceError, &[]),
            ),
        ];
        for (what, faults, error) in cases {
            let (mut s, disk, _) = session(faults);
            let mut out = Screen {
                disk: disk.clone(),
                line: Vec::new(),
            };
            let before = {
                // The game as it will be after the two events that work.
                let (mut ok, _, _) = session(Faults::default());
                let mut o = Screen {
                    disk: Disk::default(),
                    line: Vec::new(),
                };
                for (i, line) in LINES[..2].iter().enumerate() {
                    let Ok(Step::Command(c)) = parse_line(line, ok.game.mirror()) else {
                        panic!()
                    };
                    ok.submit(&mut o, Duration::from_secs(i as u64 + 1), c, None)
                        .unwrap();
                }
                super::super::export::state_json(ok.game.mirror())
            };
            let (failed_at, message) = play(&mut s, &mut out);
            // The third event (press) is the one whose save fails.
            assert_eq!(failed_at, 2, "{what}");
            let expected = en(
                MsgKey::JournalWriteFailed,
                &[("file", "g.jsonl"), ("error", &error)],
            );
            assert_eq!(message.as_deref(), Some(expected.as_str()), "{what}");
            // Undone: the game is as after the events that were saved.
            assert_eq!(
                super::super::export::state_json(s.game.mirror()),
                before,
                "{what}"
            );
            let state = disk.state();
            said_only_after_sync(&state.log);
            // Nothing of the failed event was said.
            let said: Vec<&Op> = state
                .log
                .iter()
                .skip_while(|o| !matches!(o, Op::WriteFailed | Op::SyncFailed))
                .filter(|o| matches!(o, Op::Said(_)))
                .collect();
            assert!(said.is_empty(), "{what}: {said:?}");
            // What survives a power cut, and what the program would read
            // now: exactly the two events said, nothing half-written.
            for bytes in [&state.durable, &state.bytes] {
                let l = journal::parse(bytes).unwrap();
                if what == "fsync and the cut fail" && std::ptr::eq(bytes, &state.bytes) {
                    // The whole record is still in the page cache, never
                    // synced: the writer cuts it before anything else.
                    continue;
                }
                assert_eq!(l.records.len(), 2, "{what}");
                assert!(!l.drops_records(), "{what}");
                let replayed = Game::replay(
                    s.game.mirror().vocab().clone(),
                    s.game.mirror().config().clone(),
                    &l.records,
                )
                .unwrap();
                assert_eq!(
                    super::super::export::state_json(replayed.mirror()),
                    before,
                    "{what}"
                );
            }
        }
    }
}
