//! `annabella` with no subcommand: the play screen (full-screen terminal,
//! or plain lines with `--plain`, when standard output is not a terminal,
//! or when TERM=dumb).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use super::error::OutputRefused;
use super::session::{self, NewGame};
use super::{CliError, load_locale};
use crate::clock::TimeControl;
use crate::engine::{DEFAULT_ENGINE, Limits, Strength, Worker};
use crate::locale::MsgKey;
use crate::speech::activity::{AudioClock, SpeechActivity};
use crate::speech::echo::Room;
use crate::speech::played::Played;
use crate::speech::{Announcer, Voice};
use crate::ui::app::{Alarm, SpeechChoice};
use crate::ui::inbox::Inbox;
use crate::ui::render::{Theme, ThemeKind};
use crate::ui::{App, EngineSide, Mode, Runner, Settings};
use crate::vocab::Style;
use crate::vocab::{Utterance, Vocabulary};
use crate::voice::DecisionSettings;
use crate::voice::live::{self, LiveVoice, Surroundings, VoiceSource};
use shakmaty::CastlingMode;

/// Options of the play screen (used when no subcommand is given).
#[derive(Debug, Args, Clone)]
pub struct ScreenArgs {
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
    #[command(flatten)]
    pub theme: ThemeArgs,
    /// Announcement style: short (like algebraic notation) or long (always
    /// from-square and to-square).
    #[arg(long, default_value = "short")]
    pub style: Style,
    /// Where `save` writes the game (PGN). When given, the game is also
    /// written there after every completed move, so nothing is lost. An
    /// existing file is replaced only when it holds an earlier save of
    /// this game (or with --force); a file this run uses, never.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Replace the --save file even when it holds other games.
    #[arg(long)]
    pub force: bool,
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
    /// utterance, F2 again ends it. With --voice-wav, each recording is
    /// said with the talk key held.
    #[arg(long, conflicts_with = "voice")]
    pub push_to_talk: bool,
    /// Spoken moves from WAV recordings, played in real time as if spoken
    /// into the microphone, each after annabella has finished speaking
    /// (for demonstrations and tests).
    #[arg(long, value_name = "FILE.wav", conflicts_with = "voice")]
    pub voice_wav: Vec<PathBuf>,
    /// Test only: `fast` plays the --voice-wav recordings as fast as
    /// listening and the screen follow, on the recordings' own timeline
    /// (a second of recording is a second for the mute, the detector and
    /// the echo canceller); `real` (the default) in real time. With speech
    /// on the sound card the clock stays real.
    #[arg(
        long,
        hide = true,
        value_name = "real|fast",
        default_value = "real",
        requires = "voice_wav"
    )]
    pub wav_clock: WavClock,
    /// Test only: with --voice-wav and --push-to-talk, the talk key goes
    /// up this many milliseconds after each recording's last sound.
    #[arg(long, hide = true, value_name = "MS", default_value_t = 0)]
    pub release_ms: u64,
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
    /// Spoken moves: how long the microphone stays deaf after annabella
    /// has finished speaking (the echo of her own voice), in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = crate::speech::activity::DEFAULT_TAIL_MS)]
    pub mute_tail_ms: u32,
    /// Test only: speech goes, rendered by espeak-ng, into the audio the
    /// WAV source (--voice-wav) plays, as a loudspeaker into a microphone.
    #[arg(long, hide = true, requires = "voice_wav")]
    pub room_echo: bool,
    /// Test only: each --voice-wav recording starts once annabella has
    /// been speaking this many milliseconds (the player talks over her).
    #[arg(long, hide = true, value_name = "MS", requires = "room_echo")]
    pub speak_over_ms: Option<u64>,
    /// Name of White.
    #[arg(long, default_value = "")]
    pub white: String,
    /// Name of Black.
    #[arg(long, default_value = "")]
    pub black: String,
    /// Start from this position (FEN) instead of the standard one.
    #[arg(long)]
    pub fen: Option<String>,
    /// Chess960 (Guideline II): castling from the start position's king and
    /// rook squares; with --fen, its castling rights are Chess960 ones.
    #[arg(long)]
    pub chess960: bool,
    /// Guideline III is announced for this game (games without increment,
    /// quickplay finishes): with less than two minutes in the last period
    /// the player having the move may ask for an increment of 5 seconds or
    /// claim a draw (not in blitz, not with an increment or delay).
    #[arg(long)]
    pub quickplay: bool,
    /// Rapid or blitz played without adequate supervision (FIDE Appendix
    /// A.5, B.3, the event's choice): a completed illegal move loses when
    /// the opponent claims it before his next move.
    /// Without an arbiter, a Guideline III draw claim concludes the game
    /// and goes to the appointed arbiter (III.6).
    #[arg(long)]
    pub unsupervised: bool,
    /// Practice, not a rated game: a typed move that is not legal is
    /// refused with the reason, and an illegal sealed move is warned of.
    /// By default (a tournament game) nothing is said about the legality
    /// of a player's own move before the clock is pressed; the press then
    /// counts an illegal move (7.5).
    #[arg(long)]
    pub practice: bool,
    /// The sighted player (FIDE Appendix D.2.5): for him the ordinary
    /// rules apply, so his move counts when it is made on his board (a
    /// mate ends the game at once) and a released piece stays where it
    /// is (no take-back). Without it, both players' moves count when made
    /// and announced (D.2.3).
    #[arg(long, value_name = "white|black", value_parser = super::play::parse_side)]
    pub sighted: Option<crate::game::Side>,
    /// Speaking rate from -100 (slowest) to 100 (fastest); default: your
    /// setting.
    #[arg(long, allow_hyphen_values = true, value_name = "-100..100")]
    pub rate: Option<i32>,
    /// Voice name of the speech synthesizer; default: one for the
    /// language.
    #[arg(long, value_name = "NAME")]
    pub voice_name: Option<String>,
    /// How much time read-outs say: brief (1:12:05 shown, "1 hour 12
    /// minutes" spoken) or full (every unit in words).
    #[arg(long, default_value = "brief")]
    pub verbosity: crate::clock::talk::Verbosity,
    /// The low-time alarm: warnings when a player's time falls to these,
    /// comma-separated (default 5m,1m,30s; "off" for none). The alarm
    /// command changes it during the game.
    #[arg(long, value_name = "TIMES")]
    pub warn: Option<String>,
    /// Count the last seconds aloud from this number (default 10; 0: no
    /// countdown).
    #[arg(long, value_name = "0-60", value_parser = clap::value_parser!(u32).range(0..=60))]
    pub countdown: Option<u32>,
    /// Lines to say at the start on the full screen (a settings file that
    /// could not be used); already printed on standard error.
    #[arg(skip)]
    pub notices: Vec<String>,
}

/// The journal to continue, if any: `--resume` (the latest one) or an
/// existing `--journal` file.
fn journal_to_continue(args: &ScreenArgs, vocab: &Vocabulary) -> Result<Option<PathBuf>, CliError> {
    if let Some(p) = &args.journal {
        return Ok(p.exists().then(|| p.clone()));
    }
    if !args.resume {
        return Ok(None);
    }
    session::latest(vocab).map(Some)
}

/// The game the play screen plays: continued from its journal, or new.
enum Begun {
    /// Continued from its journal.
    Continued(session::Continued),
    /// A new game with its new journal.
    New(crate::game::Game, crate::journal::Writer),
}

/// Refuses a `--save` file that may not be written (see
/// [`crate::output`]) before the game starts, so nothing is lost.
fn check_save(
    args: &ScreenArgs,
    text: &str,
    inputs: &crate::output::Inputs,
    vocab: &Vocabulary,
) -> Result<(), CliError> {
    match &args.save {
        Some(p) => crate::output::check(p, crate::output::Kind::GameSave(text), inputs, args.force)
            .map_err(|error| {
                CliError::typed(OutputRefused {
                    file: p.clone(),
                    error,
                })
                .worded_in(vocab.locale())
            }),
        None => Ok(()),
    }
}

/// How the program is used, as the command line names it.
impl clap::ValueEnum for Mode {
    fn value_variants<'a>() -> &'a [Self] {
        &[Mode::Board, Mode::Assistant, Mode::Engine, Mode::Hotseat]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(match self {
            Mode::Board => "board",
            Mode::Assistant => "assistant",
            Mode::Engine => "engine",
            Mode::Hotseat => "hotseat",
        }))
    }
}

/// Which sides the engine plays, as the command line names them.
impl clap::ValueEnum for EngineSide {
    fn value_variants<'a>() -> &'a [Self] {
        &[EngineSide::White, EngineSide::Black, EngineSide::Both]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(match self {
            EngineSide::White => "white",
            EngineSide::Black => "black",
            EngineSide::Both => "both",
        }))
    }
}

/// How fast `--voice-wav` recordings are played (test only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum WavClock {
    /// In real time, on the wall clock.
    #[default]
    Real,
    /// As fast as listening and the screen follow, on the recordings'
    /// own timeline.
    Fast,
}

/// Where spoken moves come from, if anywhere.
fn voice_source(args: &ScreenArgs) -> Option<VoiceSource> {
    if !args.voice_wav.is_empty() {
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
    }
}

/// Runs the play screen.
pub fn run(args: ScreenArgs) -> Result<ExitCode, CliError> {
    let mut vocab = load_locale(&args.locale)?;
    super::clock::check_rate(args.rate, vocab.locale())?;
    // The full screen runs in a child; this process restores the terminal
    // whatever ends it (see ui::term::supervisor).
    let supervision = crate::ui::term::Supervision {
        plain: args.plain,
        locale: vocab.locale(),
        journal: args.journal.as_deref(),
        speak: !args.silent,
    };
    if let Some(code) = crate::ui::term::supervise(&supervision) {
        return Ok(code);
    }
    let control = match &args.control {
        Some(text) => text.parse::<TimeControl>().map_err(|e| {
            CliError::msg(MsgKey::ClockBadControl)
                .arg("control", text.as_str())
                .cause("error", e)
                .worded_in(vocab.locale())
        })?,
        None => TimeControl::default(),
    };
    let plain =
        args.plain || !std::io::stdout().is_terminal() || crate::environment::get().term_dumb;
    let mut settings = Settings {
        mode: args.mode,
        front: if plain {
            crate::ui::app::Front::Plain
        } else {
            crate::ui::app::Front::Screen
        },
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
        start: None,
        chess960: false,
        quickplay: args.quickplay,
        unsupervised: args.unsupervised,
        practice: args.practice,
        sighted: args.sighted.map(shakmaty::Color::from),
        speech: SpeechChoice {
            rate: args.rate,
            voice: args.voice_name.clone(),
            verbosity: args.verbosity,
        },
        alarm: alarm(&args, vocab.locale())?,
    };
    // A game to continue: its journal decides the words, the time control
    // and the style.
    let mut said_first = Vec::new();
    if !plain {
        said_first.extend(args.notices.iter().map(Utterance::plain));
    }
    // The files of this run, which a save never writes over.
    let mut inputs = crate::output::Inputs::new();
    inputs.add_locale(&args.locale);
    for p in args
        .journal
        .iter()
        .chain(&args.voice_wav)
        .chain(&args.engine)
    {
        inputs.add(p);
    }
    let continued = journal_to_continue(&args, &vocab)?;
    if continued.is_none() {
        // A new game: its save is a game without moves yet.
        let text = format!(
            "[White \"{}\"]\n[Black \"{}\"]\n\n*\n",
            settings.white, settings.black
        );
        check_save(&args, &text, &inputs, &vocab)?;
    }
    let begun = if let Some(path) = continued {
        inputs.add(&path);
        let c = session::resume(
            &path,
            session::Resume::Strict,
            &vocab,
            &mut session::NoArbiter,
        )?;
        said_first.extend(c.said.iter().cloned());
        let config = c.game.mirror().config();
        vocab = c.game.mirror().vocab().clone();
        settings.control = config.control.clone();
        settings.style = config.style;
        settings.white = config.white.clone();
        settings.black = config.black.clone();
        settings.start = Some(config.start.clone());
        settings.chess960 = config.mode == CastlingMode::Chess960;
        settings.quickplay = config.quickplay;
        settings.unsupervised = config.unsupervised;
        settings.practice = config.practice;
        settings.sighted = config.sighted;
        settings.journal_path = Some(c.writer.path().to_owned());
        Begun::Continued(c)
    } else {
        let spec = NewGame {
            white: settings.white.clone(),
            black: settings.black.clone(),
            control: settings.control.to_string(),
            fen: args.fen.clone(),
            chess960: args.chess960,
            locale: args.locale.clone(),
            style: settings.style,
            event: String::new(),
            site: String::new(),
            quickplay: settings.quickplay,
            unsupervised: args.unsupervised,
            practice: args.practice,
            sighted: args.sighted,
        };
        let (game, writer) = session::start(&spec, args.journal.as_deref())?;
        let file = Utterance::plain(writer.path().display().to_string());
        said_first.push(vocab.message(MsgKey::UiJournalCreated, &[("file", &file)]));
        settings.journal_path = Some(writer.path().to_owned());
        let config = game.mirror().config();
        settings.start = Some(config.start.clone());
        settings.chess960 = config.mode == CastlingMode::Chess960;
        Begun::New(game, writer)
    };
    // Everything that happens reaches the loop through its one channel.
    let inbox = Inbox::new();
    // The engine starts on its own thread (with time limits): a failure
    // arrives in the loop's channel, the game starts at once.
    let engine = (args.mode == Mode::Engine).then(|| {
        let path = args
            .engine
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_ENGINE));
        let strength = Strength {
            skill: args.engine_skill,
            movetime: Duration::from_millis(args.engine_movetime),
        };
        Worker::start_posting(path, strength, Limits::default(), inbox.engine())
    });
    let speak = if plain { args.speak } else { !args.silent };
    let source = voice_source(&args);
    let room = args.room_echo.then(Room::new);
    // Recordings played fast run on their own timeline; speech on the
    // sound card runs on the wall clock, so then does everything.
    let clock = if args.wav_clock == WavClock::Fast && (!speak || room.is_some()) {
        AudioClock::timeline()
    } else {
        AudioClock::wall()
    };
    // With spoken input, speech tells it when annabella speaks.
    let activity = source.as_ref().map(|_| {
        SpeechActivity::from_env(Duration::from_millis(u64::from(args.mute_tail_ms)))
            .with_clock(clock.clone())
    });
    // Hands-free with speech: annabella plays her speech herself, so
    // that what she plays is the echo canceller's reference.
    // (Recordings stand for the microphone, hands-free or with the key.)
    let hands_free = matches!(
        source,
        Some(VoiceSource::Microphone { .. } | VoiceSource::Files { .. })
    );
    let played = (hands_free && speak && room.is_none()).then(Played::default);
    let mut notices = Vec::new();
    let speech = speak.then(|| {
        let voice = Voice {
            language: vocab.locale().language.clone(),
            rate: args.rate,
            name: args.voice_name.clone(),
        };
        Announcer::new(crate::ui::open_speaker(
            &voice,
            vocab.locale(),
            &mut notices,
            activity.as_ref(),
            room.as_ref(),
            played.as_ref(),
        ))
    });
    // No sound card to play on (headless): the usual speaker, muted.
    let played = played.filter(Played::is_live);
    let mut runner = Runner::new(engine, speech);
    runner.activity = activity.clone();
    runner.room = room.clone();
    runner.played = played.clone();
    if let Some(path) = &args.engine {
        runner.engine_path = path.clone();
    }
    let (mut runner, mut app, mut first) = match begun {
        Begun::Continued(c) => {
            let offset = c.game.mirror().now();
            inputs.add(c.writer.path());
            let runner = runner.starting_at(offset);
            let (app, fx) = App::resume(vocab, settings, c.game, Box::new(c.writer));
            (runner, app, fx)
        }
        Begun::New(game, writer) => {
            inputs.add(writer.path());
            let runner = runner.starting_at(Duration::ZERO);
            let (app, fx) = App::start(vocab, settings, game, Box::new(writer), runner.now());
            (runner, app, fx)
        }
    };
    check_save(&args, &app.pgn(), &inputs, app.vocab())?;
    runner.outputs = inputs;
    runner.force_save = args.force;
    // Spoken moves: the model loads in the background.
    if let Some(source) = source {
        match live::model_dir(app.vocab(), args.model.as_deref()) {
            Ok(dir) => {
                let decide = DecisionSettings {
                    always_confirm: args.always_confirm,
                    ..DecisionSettings::default()
                };
                let talk_key = (args.push_to_talk && !args.voice_wav.is_empty())
                    .then(|| Duration::from_millis(args.release_ms));
                runner.push_to_talk = source == VoiceSource::PushToTalk || talk_key.is_some();
                // Barge-in by voice needs what annabella played: the
                // simulated room, or her own output on the sound card;
                // without them she mutes the microphone while she
                // speaks, and says so.
                let known = room.is_some() || played.is_some();
                if matches!(source, VoiceSource::Microphone { .. }) && !known && speak {
                    said_first.push(app.vocab().message(MsgKey::UiVoiceNoBargeIn, &[]));
                }
                let around = Surroundings {
                    activity: activity.unwrap_or_default(),
                    room,
                    played,
                    barge_in: live::BargeInMode::from_env(),
                    speak_over: args.speak_over_ms.map(Duration::from_millis),
                    talk_key,
                };
                runner.voice = Some(LiveVoice::start_posting(
                    dir,
                    app.vocab().clone(),
                    decide,
                    source,
                    app.castling_mode(),
                    around,
                    inbox.voice(),
                ));
            }
            Err(e) => said_first.push(Utterance::plain(e.describe(app.vocab().locale()))),
        }
    }
    // Set-up lines (journal, speech fallbacks) come before the rest, on
    // the screen as in speech and plain lines.
    let mut head = app.set_up(
        said_first
            .into_iter()
            .chain(notices.into_iter().map(Utterance::plain)),
        runner.now(),
    );
    head.append(&mut first);
    first = head;
    // A failure of the terminal is told in the player's language.
    let ui_locale = app.vocab().locale().clone();
    let result = if plain {
        crate::ui::term::install_signal_handlers();
        let stdin = std::io::BufReader::new(std::io::stdin());
        let mut out = std::io::stdout();
        crate::ui::plain::run(app, first, &mut runner, stdin, &mut out, inbox)
    } else {
        crate::ui::term::run(app, first, &mut runner, Theme::of(args.theme.kind()), inbox)
    };
    if let Err(e) = result {
        return Err(CliError::msg(MsgKey::UiTerminalError)
            .cause("error", e)
            .worded_in(&ui_locale));
    }
    Ok(ExitCode::SUCCESS)
}

/// The low-time alarm of `--warn` and `--countdown` (the defaults where
/// not given).
fn alarm(args: &ScreenArgs, loc: &crate::locale::Locale) -> Result<Alarm, CliError> {
    let mut alarm = Alarm::default();
    if let Some(w) = &args.warn {
        alarm.warnings = crate::clock::parse_warnings(w)
            .filter(|w| w.iter().all(|d| !d.is_zero()))
            .ok_or_else(|| {
                let error = crate::config::ConfigError::BadValue {
                    key: crate::config::Key::Warn,
                    value: w.clone(),
                };
                CliError::msg(MsgKey::ClockBadWarn)
                    .arg("option", "warn")
                    .arg("value", w.as_str())
                    .cause("error", error)
                    .worded_in(loc)
            })?;
    }
    if let Some(c) = args.countdown {
        alarm.countdown = c;
    }
    Ok(alarm)
}

/// The screen's colours, for the play screen and the review screen.
#[derive(Args, Debug, Clone, Default)]
pub struct ThemeArgs {
    /// No colours at all.
    #[arg(long, conflicts_with = "high_contrast")]
    pub monochrome: bool,
    /// High-contrast colours.
    #[arg(long)]
    pub high_contrast: bool,
}

impl ThemeArgs {
    /// The colours chosen.
    pub fn kind(&self) -> ThemeKind {
        if self.monochrome {
            ThemeKind::Monochrome
        } else if self.high_contrast {
            ThemeKind::HighContrast
        } else {
            ThemeKind::Default
        }
    }

    /// Chooses the colours by their settings-file name (`monochrome`,
    /// `high-contrast`); other names leave the default.
    pub fn choose(&mut self, name: &str) {
        match name {
            "monochrome" => self.monochrome = true,
            "high-contrast" => self.high_contrast = true,
            _ => {}
        }
    }

    /// The settings-file name of the colours chosen.
    pub fn name(&self) -> &'static str {
        match self.kind() {
            ThemeKind::Monochrome => "monochrome",
            ThemeKind::HighContrast => "high-contrast",
            ThemeKind::Default => "default",
        }
    }
}
