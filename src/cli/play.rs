//! `annabella play`: a game on two boards, driven by one event per line
//! (from a script file, standard input, or typed), every event saved to the
//! journal before it is announced.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use clap::Args;
use shakmaty::{CastlingMode, Color};

use super::clock::SpeechArgs;
use super::{UserError, load_locale};
use crate::clock::TimeControl;
use crate::journal::{self, Event, Header, Record, Side, Writer};
use crate::mirror::{Config, Level, Mirror, idx};
use crate::speech::{self, Announcer, Item, Priority, Speaker};
use crate::vocab::{Style, Utterance, Vocabulary};

/// The line grammar, shown by `annabella play --help`.
pub const GRAMMAR: &str = "\
Script lines (one event per line; '#' starts a comment; MOVE is algebraic \
notation, coordinates or the locale's words):
  white board: MOVE       a move made on White's board (the mover's own move,
  black board: MOVE       or the repetition of the opponent's move)
  announce [: MOVE]       the mover announces (what was said, if it differs:
                          a slip of the tongue, corrected by announcing again)
  press                   the mover presses the clock (completes the move)
  [white|black] repeat [: MOVE]   the opponent repeats the move aloud
  takeback                the mover takes back a move not yet completed
  white sheet: ENTRY      an entry on White's scoresheet (next line; both
  black sheet: ENTRY      players' moves); end it with (=) for a draw offer
  [white|black] offer draw | accept draw | decline draw | resign
  time SECONDS | time +SECONDS    set / advance the game time (12.5, 2m, 1:30)
  sleep MILLISECONDS      pause (real time; not saved)
  clock | status          say the clocks / the state (not saved)
  arbiter: correct        correct boards and scoresheets (FIDE D.2.9)
  arbiter: add white 2m | arbiter: remove black 30s | arbiter: set white 1:10:00
  seal: MOVE [@ date, time and place of resumption]   adjourn the game
  present                 at resumption: the sealer's opponent is present
  open seal               open the sealed move and play it";

/// Options of `annabella play`.
#[derive(Debug, Args)]
#[command(after_long_help = GRAMMAR)]
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
    /// Speech: by default spoken in a terminal, printed only with --script.
    #[command(flatten)]
    pub speech: SpeechArgs,
}

/// A game in progress with its journal.
pub struct Session {
    /// The pure core.
    pub mirror: Mirror,
    /// Where events go.
    pub writer: Writer,
    /// Last script line already in the journal.
    pub done_line: u64,
    real_time: Option<(Instant, Duration)>,
    script_now: Duration,
    speech: Option<Announcer<Box<dyn Speaker>>>,
}

impl Session {
    /// A session over a mirror and journal.
    pub fn new(mirror: Mirror, writer: Writer, done_line: u64) -> Session {
        let now = mirror.now();
        Session {
            mirror,
            writer,
            done_line,
            real_time: None,
            script_now: now,
            speech: None,
        }
    }

    fn now(&self) -> Duration {
        match self.real_time {
            Some((since, base)) => base + since.elapsed(),
            None => self.script_now,
        }
    }

    fn vocab(&self) -> &Vocabulary {
        self.mirror.vocab()
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

    fn say(&mut self, out: &mut dyn Write, text: &Utterance) -> Result<(), UserError> {
        self.say_at(out, text, Level::Info)
    }

    /// Prints `text` as one plain line and speaks it.
    fn say_at(
        &mut self,
        out: &mut dyn Write,
        text: &Utterance,
        level: Level,
    ) -> Result<(), UserError> {
        writeln!(out, "{}", self.vocab().for_display(&text.display)).map_err(super::io_error)?;
        out.flush().map_err(super::io_error)?;
        if let Some(s) = &mut self.speech {
            let priority = match level {
                Level::Info => Priority::Move,
                Level::Warning => Priority::Critical,
            };
            if let Err(e) = s.say(Item::new(text.clone(), priority)) {
                let line = e.describe(self.mirror.vocab().locale());
                writeln!(out, "{line}").map_err(super::io_error)?;
            }
        }
        Ok(())
    }

    /// Applies an event, saves it (flushed to disk), then prints what to
    /// announce. A refused event is explained and not saved; a failed save
    /// undoes the event and stops.
    pub fn submit(
        &mut self,
        out: &mut dyn Write,
        now: Duration,
        mut event: Event,
        line: Option<u64>,
    ) -> Result<(), UserError> {
        let before = self.mirror.clone();
        match journal::apply(&mut self.mirror, now, &event) {
            Err(e) => {
                let text = self.mirror.describe_error(&e);
                let text = match line {
                    Some(n) => self.vocab().message(
                        "play.line_error",
                        &[("line", &Utterance::plain(n.to_string())), ("error", &text)],
                    ),
                    None => text,
                };
                self.say_at(out, &text, Level::Warning)
            }
            Ok(said) => {
                journal::resolve_event(&before, &self.mirror, &mut event);
                let record = Record {
                    at_ms: u64::try_from(now.as_millis()).unwrap_or(u64::MAX),
                    line,
                    event,
                    said: said.iter().map(|n| n.text.display.clone()).collect(),
                    clock_ms: journal::clock_ms(&self.mirror),
                };
                if let Err(e) = self.writer.append(&record) {
                    self.mirror = before;
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
                for n in &said {
                    self.say_at(out, &n.text, n.level)?;
                }
                Ok(())
            }
        }
    }

    /// Reads event lines until the end of input.
    pub fn run(
        &mut self,
        out: &mut dyn Write,
        input: &mut dyn BufRead,
        script: bool,
    ) -> Result<(), UserError> {
        if !script {
            self.real_time = Some((Instant::now(), self.mirror.now()));
        }
        let mut n: u64 = 0;
        let mut buf = String::new();
        loop {
            buf.clear();
            let read = input.read_line(&mut buf).map_err(super::io_error)?;
            if read == 0 {
                break;
            }
            n += 1;
            if script && n <= self.done_line {
                continue;
            }
            let line = script.then_some(n);
            let now = self.now();
            match parse_line(&buf, &self.mirror) {
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
                    self.say(out, &text)?;
                }
                Ok(Step::Empty) => {}
                Ok(Step::Sleep(d)) => std::thread::sleep(d),
                Ok(Step::Clock) => {
                    let mut m = self.mirror.clone();
                    let _ = m.tick(now.max(m.now()));
                    self.say(out, &m.clock_reading())?;
                }
                Ok(Step::Status) => {
                    let text = state_line(&self.mirror);
                    self.say(out, &text)?;
                }
                Ok(Step::Time { at, relative }) => {
                    let at = if relative { self.script_now + at } else { at };
                    if script {
                        // A refused time (backwards) leaves the time as it is.
                        if at >= self.mirror.now() {
                            self.script_now = at;
                        }
                        self.submit(out, at, Event::Tick, line)?;
                    }
                }
                Ok(Step::Event(e)) => self.submit(out, now, e, line)?,
            }
        }
        Ok(())
    }
}

/// One parsed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A game event (saved).
    Event(Event),
    /// Set or advance the game time.
    Time {
        /// The time or the amount.
        at: Duration,
        /// `+` form.
        relative: bool,
    },
    /// Real pause.
    Sleep(Duration),
    /// Say the clocks.
    Clock,
    /// Say the state.
    Status,
    /// Blank or comment.
    Empty,
}

fn side_word(w: &str) -> Option<Side> {
    match w {
        "white" | "w" => Some(Side::White),
        "black" | "b" => Some(Side::Black),
        _ => None,
    }
}

/// Parses a duration: `12.5` (seconds), `500ms`, `30s`, `2m`, `1h30m`,
/// `1:30` (m:ss), `1:02:03` (h:mm:ss).
pub fn parse_duration(s: &str) -> Option<Duration> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    if s.contains(':') {
        let parts: Vec<&str> = s.split(':').collect();
        if parts.len() > 3 {
            return None;
        }
        let mut total = 0f64;
        for p in &parts {
            let v: f64 = p.parse().ok()?;
            if v.is_nan() || v < 0.0 {
                return None;
            }
            total = total * 60.0 + v;
        }
        return Duration::try_from_secs_f64(total).ok();
    }
    if let Ok(v) = s.parse::<f64>() {
        return (v >= 0.0)
            .then(|| Duration::try_from_secs_f64(v).ok())
            .flatten();
    }
    let mut total = Duration::ZERO;
    let mut num = String::new();
    let mut chars = s.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() || c == '.' {
            num.push(c);
            continue;
        }
        let v: f64 = num.parse().ok()?;
        num.clear();
        let unit = match c {
            'h' => 3600.0,
            'm' if chars.peek() == Some(&'s') => {
                chars.next();
                0.001
            }
            'm' => 60.0,
            's' => 1.0,
            _ => return None,
        };
        total += Duration::try_from_secs_f64(v * unit).ok()?;
        any = true;
    }
    (num.is_empty() && any).then_some(total)
}

/// Parses one script line; the error is a message key for the reason.
pub fn parse_line(raw: &str, mirror: &Mirror) -> Result<Step, &'static str> {
    let line = raw.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return Ok(Step::Empty);
    }
    let (head, rest) = match line.split_once(':') {
        // "1:30" in "time 1:30" is not a head separator.
        Some((h, r))
            if !h.trim_start().starts_with("time") && !h.trim_start().starts_with("sleep") =>
        {
            (h.trim().to_lowercase(), Some(r.trim()))
        }
        _ => (line.to_lowercase(), None),
    };
    let words: Vec<&str> = head.split_whitespace().collect();
    let mover = Side::from(mirror.mover());
    let text = || rest.filter(|r| !r.is_empty()).map(str::to_owned);
    let need = || text().ok_or("play.missing_move");
    let (side, cmd): (Option<Side>, &[&str]) = match words.split_first() {
        Some((w, more)) if side_word(w).is_some() && !more.is_empty() => (side_word(w), more),
        _ => (None, &words[..]),
    };
    let event = match (cmd, side) {
        (["board"], Some(s)) => Event::Board {
            side: s,
            text: need()?,
            uci: None,
        },
        (["sheet"], Some(s)) => Event::Sheet {
            side: s,
            text: need()?,
        },
        (["board"] | ["sheet"], None) => return Err("play.bad_side"),
        (["announce"], _) => Event::Announce { text: text() },
        (["press"], _) => Event::Press,
        (["repeat"], _) => Event::Repeat { text: text() },
        (["takeback"] | ["take", "back"], _) => Event::TakeBack,
        (["offer", "draw"] | ["offers", "draw"], s) => Event::OfferDraw {
            side: s.unwrap_or(mover),
        },
        (["accept", "draw"] | ["accepts", "draw"], s) => Event::AnswerDraw {
            side: s.unwrap_or_else(|| mirror.draw_offer().map(|c| Side::from(!c)).unwrap_or(mover)),
            accept: true,
        },
        (["decline", "draw"] | ["declines", "draw"], s) => Event::AnswerDraw {
            side: s.unwrap_or_else(|| mirror.draw_offer().map(|c| Side::from(!c)).unwrap_or(mover)),
            accept: false,
        },
        (["resign"] | ["resigns"], s) => Event::Resign {
            side: s.unwrap_or(mover),
        },
        (["present"], _) => Event::Present,
        (["open", "seal"], _) => Event::OpenSeal,
        (["seal"], _) => {
            let t = need()?;
            let (mv, when) = match t.split_once('@') {
                Some((m, w)) => (m.trim().to_owned(), w.trim().to_owned()),
                None => (t, String::new()),
            };
            Event::Seal {
                text: mv,
                resumption: when,
            }
        }
        (["arbiter"], None) => {
            let r = rest.unwrap_or("").to_lowercase();
            let parts: Vec<&str> = r.split_whitespace().collect();
            match parts.as_slice() {
                ["correct"] => Event::Correct,
                [op @ ("add" | "remove" | "set"), s, amount] => {
                    let side = side_word(s).ok_or("play.bad_side")?;
                    let d = parse_duration(amount).ok_or("play.bad_time")?;
                    let ms = u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
                    match *op {
                        "set" => Event::SetTime { side, ms },
                        op => Event::Adjust {
                            side,
                            ms,
                            add: op == "add",
                        },
                    }
                }
                _ => return Err("play.unknown_command"),
            }
        }
        (["clock"], _) => return Ok(Step::Clock),
        (["status"], _) => return Ok(Step::Status),
        ([first, arg], None) if *first == "time" || *first == "sleep" => {
            let (relative, arg) = match arg.strip_prefix('+') {
                Some(a) => (true, a),
                None => (false, *arg),
            };
            if *first == "sleep" {
                let ms: u64 = arg.parse().map_err(|_| "play.bad_time")?;
                return Ok(Step::Sleep(Duration::from_millis(ms)));
            }
            let at = parse_duration(arg).ok_or("play.bad_time")?;
            return Ok(Step::Time { at, relative });
        }
        _ => return Err("play.unknown_command"),
    };
    Ok(Step::Event(event))
}

/// "Move N, SIDE to move. White h:mm:ss, Black h:mm:ss."
pub fn state_line(m: &Mirror) -> Utterance {
    let (mover, number) = m.move_under_way();
    let t = |c: Color| Utterance::plain(crate::mirror::hms(m.clock().remaining(c, m.now())));
    let mut text = m.vocab().message(
        "journal.state",
        &[
            ("number", &Utterance::plain(number.to_string())),
            ("side", &m.vocab().side(mover)),
            ("white", &t(Color::White)),
            ("black", &t(Color::Black)),
        ],
    );
    if let Some(r) = m.result() {
        let r = m.vocab().describe_result(&r);
        text.display = format!("{} {}", r.display, text.display);
        text.spoken = format!("{} {}", r.spoken, text.spoken);
    }
    text
}

/// The last move on the boards, as "N. SAN", for messages.
pub fn last_move(m: &Mirror) -> Utterance {
    let b = if m.board(Color::Black).moves().len() > m.board(Color::White).moves().len() {
        m.board(Color::Black)
    } else {
        m.board(Color::White)
    };
    let moves = b.moves();
    match moves.split_last() {
        None => m.vocab().message("journal.no_moves", &[]),
        Some((last, before)) => {
            let (color, number) = m.ply_number(before.len());
            let dots = if color == Color::White { "." } else { "..." };
            Utterance::plain(format!("{number}{dots} {}", m.san(before, *last)))
        }
    }
}

fn new_journal_path(args: &PlayArgs, created: &str) -> Result<PathBuf, UserError> {
    if let Some(p) = &args.journal {
        return Ok(p.clone());
    }
    let dir = journal::default_dir().ok_or_else(|| {
        let v = load_locale(&args.locale).or_else(|_| load_locale("en"));
        UserError(match v {
            Ok(v) => v.message("play.no_data_dir", &[]).display,
            Err(e) => e.0,
        })
    })?;
    let clean = |s: &str| {
        s.chars()
            .map(|c| if c.is_alphanumeric() { c } else { '_' })
            .collect::<String>()
    };
    let stamp = created
        .replace([':', '-'], "")
        .replace('T', "-")
        .replace('Z', "");
    let mut name = stamp;
    for n in [&args.white, &args.black] {
        if !n.is_empty() {
            name.push('-');
            name.push_str(&clean(n));
        }
    }
    Ok(dir.join(format!("{name}.jsonl")))
}

fn now_utc() -> (String, String) {
    let since = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    journal::utc_stamp(since)
}

/// Starts a new game (or continues the journal if it exists).
pub fn run(out: &mut dyn Write, args: &PlayArgs) -> Result<std::process::ExitCode, UserError> {
    let script = args.script.is_some();
    let mut session = match &args.journal {
        Some(p) if p.exists() => super::resume::open(out, p, false, &args.locale)?,
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
                std::fs::File::open(file).map_err(|e| script_error(session.vocab(), file, &e))?;
            let mut r = std::io::BufReader::new(f);
            session.run(out, &mut r, true)?;
        }
    }
    let text = session
        .vocab()
        .message("play.finished", &[("state", &state_line(&session.mirror))]);
    session.say(out, &text)?;
    session.finish_speech();
    Ok(std::process::ExitCode::SUCCESS)
}

fn new_session(out: &mut dyn Write, args: &PlayArgs) -> Result<Session, UserError> {
    let vocab = load_locale(&args.locale)?;
    let control: TimeControl = args.control.parse().map_err(|e| {
        UserError(
            vocab
                .message(
                    "play.bad_control",
                    &[
                        ("control", &Utterance::plain(args.control.clone())),
                        ("error", &Utterance::plain(format!("{e}"))),
                    ],
                )
                .display,
        )
    })?;
    let mut chess960 = args.chess960;
    let mut fen = args.fen.clone();
    let mut imported = Vec::new();
    if let Some(pgn) = &args.from_pgn {
        let bad = |e: String| {
            UserError(
                vocab
                    .message(
                        "play.bad_pgn",
                        &[
                            ("file", &Utterance::plain(pgn.display().to_string())),
                            ("error", &Utterance::plain(e)),
                        ],
                    )
                    .display,
            )
        };
        let f = std::fs::File::open(pgn).map_err(|e| bad(e.to_string()))?;
        let games = crate::pgn::read_games(f).map_err(|e| bad(e.to_string()))?;
        let game = games.first().ok_or_else(|| bad("no game".into()))?;
        let replayed = game.replay().map_err(bad)?;
        if let Some((i, san, why)) = &replayed.error {
            return Err(bad(format!("move {}: {san}: {why}", i + 1)));
        }
        chess960 |= replayed.mode == CastlingMode::Chess960;
        if game.header("FEN").is_some() {
            fen = game.header("FEN").map(str::to_owned);
        }
        imported = replayed.moves.iter().map_while(|m| *m).collect::<Vec<_>>();
    }
    let (created, _) = now_utc();
    let header = Header {
        format: journal::FORMAT.to_owned(),
        version: journal::VERSION,
        created: created.clone(),
        white: args.white.clone(),
        black: args.black.clone(),
        control: control.to_string(),
        fen,
        chess960,
        locale: args.locale.clone(),
        style: args.style,
        event: args.event.clone(),
        site: args.site.clone(),
        continues: None,
    };
    let config: Config = journal::config_of(&header).map_err(UserError)?;
    let path = new_journal_path(args, &created)?;
    let writer = create_writer(&vocab, &path, &header, &[])?;
    let mirror = Mirror::new(vocab, config, Duration::ZERO);
    let mut session = Session::new(mirror, writer, 0);
    let file = Utterance::plain(path.display().to_string());
    let text = session
        .vocab()
        .message("journal.created", &[("file", &file)]);
    session.say(out, &text)?;
    // A game continued from PGN: its moves on both boards and sheets.
    let mode = session.mirror.config().mode;
    for m in imported {
        let uci = m.to_uci(mode).to_string();
        let mover = Side::from(session.mirror.mover());
        let other = if mover == Side::White {
            Side::Black
        } else {
            Side::White
        };
        let board = |side| Event::Board {
            side,
            text: uci.clone(),
            uci: Some(uci.clone()),
        };
        for e in [
            board(mover),
            Event::Announce { text: None },
            Event::Press,
            board(other),
            Event::Sheet {
                side: Side::White,
                text: uci.clone(),
            },
            Event::Sheet {
                side: Side::Black,
                text: uci.clone(),
            },
        ] {
            session.submit(&mut std::io::sink(), Duration::ZERO, e, None)?;
        }
    }
    Ok(session)
}

/// Creates a new journal file, with a clear message on failure.
pub fn create_writer(
    vocab: &Vocabulary,
    path: &Path,
    header: &Header,
    records: &[Record],
) -> Result<Writer, UserError> {
    Writer::create(path, header, records).map_err(|e| {
        UserError(
            vocab
                .message(
                    "journal.open_failed",
                    &[
                        ("file", &Utterance::plain(path.display().to_string())),
                        ("error", &Utterance::plain(e.to_string())),
                    ],
                )
                .display,
        )
    })
}

/// The message for a script that cannot be opened.
pub fn script_error(v: &Vocabulary, file: &str, e: &std::io::Error) -> UserError {
    UserError(
        v.message(
            "play.bad_script",
            &[
                ("file", &Utterance::plain(file)),
                ("error", &Utterance::plain(e.to_string())),
            ],
        )
        .display,
    )
}

/// Both remaining times, for tests and the state dump.
pub fn remaining_ms(m: &Mirror) -> [u64; 2] {
    let r = journal::clock_ms(m);
    [r[idx(Color::White)], r[idx(Color::Black)]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("12.5"), Some(Duration::from_millis(12_500)));
        assert_eq!(parse_duration("2m"), Some(Duration::from_secs(120)));
        assert_eq!(parse_duration("1h30m"), Some(Duration::from_secs(5400)));
        assert_eq!(parse_duration("500ms"), Some(Duration::from_millis(500)));
        assert_eq!(parse_duration("1:30"), Some(Duration::from_secs(90)));
        assert_eq!(parse_duration("1:02:03"), Some(Duration::from_secs(3723)));
        assert_eq!(parse_duration("x"), None);
        assert_eq!(parse_duration("-3"), None);
        assert_eq!(parse_duration("3q"), None);
    }

    #[test]
    fn lines() {
        let vocab = Vocabulary::builtin("fide").unwrap();
        let m = Mirror::new(vocab, Config::default(), Duration::ZERO);
        let p = |s: &str| parse_line(s, &m);
        assert_eq!(
            p("white board: Springer Gustav eins Felix drei"),
            Ok(Step::Event(Event::Board {
                side: Side::White,
                text: "Springer Gustav eins Felix drei".into(),
                uci: None
            }))
        );
        assert_eq!(
            p("announce"),
            Ok(Step::Event(Event::Announce { text: None }))
        );
        assert_eq!(p("  # note"), Ok(Step::Empty));
        assert_eq!(
            p("time 1:30"),
            Ok(Step::Time {
                at: Duration::from_secs(90),
                relative: false
            })
        );
        assert_eq!(
            p("time +5"),
            Ok(Step::Time {
                at: Duration::from_secs(5),
                relative: true
            })
        );
        assert_eq!(
            p("arbiter: add white 2m"),
            Ok(Step::Event(Event::Adjust {
                side: Side::White,
                ms: 120_000,
                add: true
            }))
        );
        assert_eq!(
            p("seal: Nf3 @ 22 Nov 10:00, Hall B"),
            Ok(Step::Event(Event::Seal {
                text: "Nf3".into(),
                resumption: "22 Nov 10:00, Hall B".into()
            }))
        );
        assert_eq!(
            p("offer draw"),
            Ok(Step::Event(Event::OfferDraw { side: Side::White }))
        );
        assert_eq!(p("board: e4"), Err("play.bad_side"));
        assert_eq!(p("white board:"), Err("play.missing_move"));
        assert_eq!(p("dance"), Err("play.unknown_command"));
        assert_eq!(p("arbiter: add green 2m"), Err("play.bad_side"));
    }
}
