//! `annabella` with no subcommand: the play screen (full-screen terminal,
//! or plain lines with `--plain`, when standard output is not a terminal,
//! or when TERM=dumb).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use std::time::SystemTime;

use clap::Args;

use super::{UserError, load_locale};
use crate::clock::TimeControl;
use crate::engine::{DEFAULT_ENGINE, Strength, Uci, Worker};
use crate::journal::{self, Header, Writer};
use crate::speech::{self, Announcer, Output, Voice};
use crate::ui::render::{Theme, ThemeKind};
use crate::ui::{App, EngineSide, Mode, Msg, Runner, Settings};
use crate::vocab::Style;
use crate::vocab::{Utterance, Vocabulary};
use crate::voice::DecisionSettings;
use crate::voice::live::{self, LiveVoice, VoiceSource};

/// Options of the play screen (used when no subcommand is given).
#[derive(Debug, Args, Clone)]
pub struct PlayArgs {
    /// Plain lines instead of the full screen (for screen readers and
    /// braille displays; chosen by itself when output is not a terminal
    /// or TERM=dumb). Input is read line by line from standard input.
    #[arg(long)]
    pub plain: bool,
    /// Locale of the words and messages (see `annabella locales`), or a
    /// path to a locale file (.toml).
    #[arg(long, short = 'l', default_value = "fide")]
    pub locale: String,
    /// Time control, e.g. `90m/40+30m+30s`, `15m+10s`, `5m+3s`.
    #[arg(long, value_name = "CONTROL")]
    pub control: Option<String>,
    /// How the program is used: board (two players, each types their own
    /// moves), assistant (D.2.10: one operator enters both sides' moves),
    /// engine (against a UCI engine), hotseat (two players, one keyboard).
    #[arg(long, value_enum, default_value = "board")]
    pub mode: Mode,
    /// The UCI engine program (engine mode); default /usr/games/stockfish.
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// Which side the engine plays.
    #[arg(long, value_enum, default_value = "black")]
    pub engine_side: EngineSide,
    /// Engine strength 0 (weakest) to 20 (strongest).
    #[arg(long, value_name = "0-20", value_parser = clap::value_parser!(u8).range(0..=20))]
    pub engine_skill: Option<u8>,
    /// Engine thinking time per move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub engine_movetime: u64,
    /// No colours at all.
    #[arg(long, conflicts_with = "high_contrast")]
    pub monochrome: bool,
    /// High-contrast colours.
    #[arg(long)]
    pub high_contrast: bool,
    /// Announcement style: short (like algebraic notation) or long (always
    /// from-square and to-square).
    #[arg(long, default_value = "short")]
    pub style: Style,
    /// Where `save` writes the game (PGN). When given, the game is also
    /// written there after every completed move, so nothing is lost.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Speak announcements aloud (default in the full screen; plain mode
    /// leaves speaking to the screen reader).
    #[arg(long, conflicts_with = "silent")]
    pub speak: bool,
    /// Do not speak aloud.
    #[arg(long)]
    pub silent: bool,
    /// The game's journal: every event is saved there at once (synced to
    /// disk), so nothing is lost on a crash or power cut. An existing
    /// journal is continued. Default: a new file in
    /// DATA_DIR/annabella/games/.
    #[arg(long, value_name = "PATH", conflicts_with = "resume")]
    pub journal: Option<PathBuf>,
    /// Continue the most recent game in DATA_DIR/annabella/games/.
    #[arg(long)]
    pub resume: bool,
    /// Spoken moves from the microphone, hands-free (an utterance ends
    /// after a short silence). Needs a speech model for the locale (see
    /// `annabella models`).
    #[arg(long)]
    pub voice: bool,
    /// Spoken moves from the microphone with push-to-talk: F2 starts an
    /// utterance, F2 again ends it.
    #[arg(long, conflicts_with = "voice")]
    pub push_to_talk: bool,
    /// Spoken moves from WAV recordings, played in real time as if spoken
    /// into the microphone (for demonstrations and tests).
    #[arg(long, value_name = "FILE.wav", conflicts_with_all = ["voice", "push_to_talk"])]
    pub voice_wav: Vec<PathBuf>,
    /// The speech model's folder (default: env ANNABELLA_MODEL, else the
    /// installed model for the locale).
    #[arg(long, value_name = "DIR")]
    pub model: Option<PathBuf>,
    /// Silence that ends a spoken move (hands-free), in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 300)]
    pub silence_ms: u32,
    /// Ask before playing every spoken move, even a clearly heard one.
    #[arg(long)]
    pub always_confirm: bool,
    /// Name of White.
    #[arg(long, default_value = "")]
    pub white: String,
    /// Name of Black.
    #[arg(long, default_value = "")]
    pub black: String,
}

/// The journal to continue, if any: `--resume` (the latest one) or an
/// existing `--journal` file.
fn journal_to_continue(args: &PlayArgs, vocab: &Vocabulary) -> Result<Option<PathBuf>, UserError> {
    if let Some(p) = &args.journal {
        return Ok(p.exists().then(|| p.clone()));
    }
    if !args.resume {
        return Ok(None);
    }
    let Some(dir) = journal::default_dir() else {
        return Err(UserError(vocab.message("play.no_data_dir", &[]).display));
    };
    match journal::latest_in(&dir) {
        Some(p) => Ok(Some(p)),
        None => Err(UserError(
            vocab
                .message(
                    "play.no_journal",
                    &[("folder", &Utterance::plain(dir.display().to_string()))],
                )
                .display,
        )),
    }
}

/// A new journal for a new game: `--journal` or a fresh name in the data
/// folder.
fn new_journal(
    args: &PlayArgs,
    vocab: &Vocabulary,
    settings: &Settings,
) -> Result<Writer, UserError> {
    let since = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let (created, _) = journal::utc_stamp(since);
    let path = match &args.journal {
        Some(p) => p.clone(),
        None => {
            let dir = journal::default_dir()
                .ok_or_else(|| UserError(vocab.message("play.no_data_dir", &[]).display))?;
            let stamp = created
                .replace([':', '-'], "")
                .replace('T', "-")
                .replace('Z', "");
            // Two games started in the same second get distinct files.
            let mut path = dir.join(format!("{stamp}.jsonl"));
            let mut n = 1;
            while path.exists() {
                n += 1;
                path = dir.join(format!("{stamp}-{n}.jsonl"));
            }
            path
        }
    };
    let header = Header {
        format: journal::FORMAT.to_owned(),
        version: journal::VERSION,
        created,
        white: settings.white.clone(),
        black: settings.black.clone(),
        control: settings.control.to_string(),
        fen: None,
        chess960: false,
        locale: vocab.locale().code.clone(),
        style: settings.style,
        event: String::new(),
        site: String::new(),
        continues: None,
    };
    super::play::create_writer(vocab, &path, &header, &[])
}

/// Runs the play screen.
pub fn run(args: PlayArgs) -> Result<ExitCode, UserError> {
    let mut vocab = load_locale(&args.locale)?;
    let control = match &args.control {
        Some(text) => text.parse::<TimeControl>().map_err(|e| {
            UserError(vocab.locale().message(
                "clock.bad_control",
                &[("control", text), ("error", &e.to_string())],
            ))
        })?,
        None => TimeControl::default(),
    };
    let plain = args.plain
        || !std::io::stdout().is_terminal()
        || std::env::var("TERM").is_ok_and(|t| t == "dumb");
    let mut settings = Settings {
        mode: args.mode,
        engine_side: args.engine_side,
        control,
        style: args.style,
        save_path: args
            .save
            .clone()
            .unwrap_or_else(|| PathBuf::from("annabella-game.pgn")),
        autosave: args.save.is_some(),
        white: args.white.clone(),
        black: args.black.clone(),
        journal_path: None,
    };
    // A game to continue: its journal decides the words, the time control
    // and the style.
    let mut resumed = None;
    let mut said_first = Vec::new();
    if let Some(path) = journal_to_continue(&args, &vocab)? {
        let mut out = Vec::new();
        let session = super::resume::open(&mut out, &path, false, &args.locale)?;
        said_first.extend(String::from_utf8_lossy(&out).lines().map(Utterance::plain));
        vocab = session.mirror.vocab().clone();
        settings.control = session.mirror.config().control.clone();
        settings.style = session.mirror.config().style;
        settings.white = session.mirror.config().white.clone();
        settings.black = session.mirror.config().black.clone();
        settings.journal_path = Some(session.writer.path().to_owned());
        resumed = Some(session);
    }
    let writer = match resumed.as_ref() {
        Some(_) => None,
        None => {
            let w = new_journal(&args, &vocab, &settings)?;
            let file = Utterance::plain(w.path().display().to_string());
            said_first.push(vocab.message("ui.journal_created", &[("file", &file)]));
            settings.journal_path = Some(w.path().to_owned());
            Some(w)
        }
    };
    let mut engine_error = None;
    let engine = if args.mode == Mode::Engine {
        let path = args
            .engine
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_ENGINE));
        let strength = Strength {
            skill: args.engine_skill,
            movetime: Duration::from_millis(args.engine_movetime),
        };
        match Uci::start(&path, strength) {
            Ok(e) => Some(Worker::spawn(Box::new(e))),
            Err(e) => {
                engine_error = Some(e.to_string());
                None
            }
        }
    } else {
        None
    };
    let speak = if plain { args.speak } else { !args.silent };
    let mut notices = Vec::new();
    let speech = speak.then(|| {
        let voice = Voice {
            language: vocab.locale().language.clone(),
            ..Voice::default()
        };
        Announcer::new(speech::open(
            &Output::Speak,
            &voice,
            vocab.locale(),
            &mut notices,
        ))
    });
    let runner = Runner::new(engine, speech);
    let (mut runner, mut app, mut first) = match resumed {
        Some(session) => {
            let offset = session.mirror.now();
            let runner = runner.with_journal(Some(session.writer), offset);
            let (app, fx) = App::resume(vocab, settings, session.mirror);
            (runner, app, fx)
        }
        None => {
            let runner = runner.with_journal(writer, Duration::ZERO);
            let (app, fx) = App::new(vocab, settings, runner.now());
            (runner, app, fx)
        }
    };
    // Spoken moves: the model loads in the background.
    let source = if !args.voice_wav.is_empty() {
        Some(VoiceSource::Files {
            paths: args.voice_wav.clone(),
            silence_ms: args.silence_ms,
            gap_ms: 1000,
        })
    } else if args.push_to_talk {
        Some(VoiceSource::PushToTalk)
    } else if args.voice {
        Some(VoiceSource::Microphone {
            silence_ms: args.silence_ms,
        })
    } else {
        None
    };
    if let Some(source) = source {
        match live::model_dir(app.vocab(), args.model.as_deref()) {
            Ok(dir) => {
                let decide = DecisionSettings {
                    always_confirm: args.always_confirm,
                    ..DecisionSettings::default()
                };
                runner.push_to_talk = source == VoiceSource::PushToTalk;
                runner.voice = Some(LiveVoice::start(
                    dir,
                    app.vocab().clone(),
                    decide,
                    source,
                    app.castling_mode(),
                ));
            }
            Err(line) => said_first.push(Utterance::plain(line)),
        }
    }
    // Set-up lines (journal, speech fallbacks) come before the rest.
    let mut head = Vec::new();
    for u in said_first
        .into_iter()
        .chain(notices.into_iter().map(Utterance::plain))
    {
        head.extend(app.update(Msg::Notice(u), runner.now()));
    }
    head.append(&mut first);
    first = head;
    if let Some(error) = engine_error {
        first.extend(app.update(
            Msg::EngineFailed {
                error,
                at_start: true,
            },
            runner.now(),
        ));
    }
    let result = if plain {
        crate::ui::term::install_signal_handlers();
        let stdin = std::io::BufReader::new(std::io::stdin());
        let mut out = std::io::stdout();
        crate::ui::plain::run(app, first, &mut runner, stdin, &mut out)
    } else {
        let kind = if args.monochrome {
            ThemeKind::Monochrome
        } else if args.high_contrast {
            ThemeKind::HighContrast
        } else {
            ThemeKind::Default
        };
        crate::ui::term::run(app, first, &mut runner, Theme::of(kind))
    };
    if let Err(e) = result {
        let loc = crate::locale::builtin(crate::locale::BASE_LOCALE).ok();
        let error = e.to_string();
        let msg = match loc {
            Some(l) => l.message("ui.terminal_error", &[("error", &error)]),
            None => error,
        };
        return Err(UserError(msg));
    }
    Ok(ExitCode::SUCCESS)
}
