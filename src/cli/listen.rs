//! `annabella listen`: spoken moves from WAV files or the microphone.
//!
//! Per file one line: `FILE<TAB>move UCI SAN<TAB>message`,
//! `FILE<TAB>ask UCI SAN, UCI SAN<TAB>message` (a doubtful hearing),
//! `FILE<TAB>did-you-mean UCI SAN, UCI SAN<TAB>message` (a near miss, best
//! first: the player answers with the number, yes or no),
//! `FILE<TAB>number N<TAB>…`, `FILE<TAB>command NAME<TAB>…` or
//! `FILE<TAB>not-understood HEARD<TAB>message`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

use super::{CliError, io_error, load_locale};
use crate::locale::MsgKey;
use crate::vocab::{Style, Vocabulary};
use crate::voice::audio::{self, VadSettings, WavError};
use crate::voice::commands::SpokenCommandWords;
use crate::voice::decide::{Decision, DecisionSettings};
use crate::voice::listener::Listener;

/// Options of `annabella listen`.
#[derive(Debug, Args)]
pub struct ListenArgs {
    /// Locale of the words (see `annabella locales`).
    #[arg(long, short, default_value = "fide")]
    pub locale: String,
    /// Folder of the Vosk model (default: env ANNABELLA_MODEL, else the
    /// installed model for the locale, see `annabella models list`).
    #[arg(long, value_name = "DIR")]
    pub model: Option<PathBuf>,
    /// Position in FEN instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Chess960 castling rules.
    #[arg(long)]
    pub chess960: bool,
    /// Listen to the microphone (hands-free: an utterance ends after a
    /// short silence) instead of files.
    #[arg(long, conflicts_with = "files")]
    pub mic: bool,
    /// With --mic: push-to-talk instead of hands-free (hold Space while
    /// speaking where the terminal reports key releases, else press Space
    /// to start and again to finish).
    #[arg(long, requires = "mic")]
    pub push_to_talk: bool,
    /// Silence that ends an utterance with --mic, in milliseconds.
    #[arg(long, default_value_t = 300)]
    pub silence_ms: u32,
    /// Ask before every move, even a clearly heard one.
    #[arg(long)]
    pub always_confirm: bool,
    /// Ask when a word's confidence is below this (0–1; where the model
    /// gives word confidences).
    #[arg(long, default_value_t = DecisionSettings::default().min_word_confidence)]
    pub min_confidence: f32,
    /// Print Vosk's result JSON after each line (for recording fixtures).
    #[arg(long)]
    pub json: bool,
    /// WAV recordings, each one utterance.
    #[arg(value_name = "FILE.wav", required_unless_present = "mic")]
    pub files: Vec<PathBuf>,
}

fn msg(vocab: &Vocabulary, key: MsgKey, args: &[(&str, String)]) -> String {
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    vocab.locale().message(key, &args)
}

/// Finds the model folder: `--model`, env `ANNABELLA_MODEL`, or the
/// installed model for the locale.
pub fn resolve_model(vocab: &Vocabulary, arg: Option<&Path>) -> Result<PathBuf, CliError> {
    crate::voice::live::model_dir_or(vocab, arg, MsgKey::VoiceNoModelListen)
        .map_err(|e| CliError::typed(e).worded_in(vocab.locale()))
}

/// Loads the model and checks the locale's words against it: missing
/// words are reported on standard error (one line), a model for another
/// language is an error.
pub fn open_listener(
    vocab: Vocabulary,
    model_dir: &Path,
    settings: DecisionSettings,
) -> Result<Listener, CliError> {
    let words = vocab.locale().clone();
    let listener = crate::voice::live::load_listener(vocab, model_dir, settings)
        .map_err(|e| CliError::typed(e).worded_in(&words))?;
    let missing = crate::voice::live::missing_words(&listener);
    if !missing.is_empty() {
        eprintln!(
            "{}",
            msg(
                &listener.vocab,
                MsgKey::VoiceMissingWordsListen,
                &[("words", missing.join(", "))]
            )
        );
    }
    Ok(listener)
}

fn uci_san(pos: &Chess, m: Move, mode: CastlingMode) -> String {
    format!("{} {}", UciMove::from_move(m, mode), San::from_move(pos, m))
}

/// The output line of a decision (without the file name), and the message
/// for the player.
pub fn describe(
    vocab: &Vocabulary,
    commands: &SpokenCommandWords,
    pos: &Chess,
    mode: CastlingMode,
    d: &Decision,
) -> (String, String) {
    let word = |c: crate::commands::Cmd| {
        commands
            .iter()
            .find(|(x, _)| *x == c)
            .and_then(|(_, f)| f.first().cloned())
            .unwrap_or_else(|| c.name().to_owned())
    };
    match d {
        Decision::Move { mv, .. } => {
            let said = vocab.announce(pos, *mv, Style::Long);
            (
                format!("move {}", uci_san(pos, *mv, mode)),
                msg(
                    vocab,
                    MsgKey::VoiceHeardMove,
                    &[("move", vocab.for_display(&said.display))],
                ),
            )
        }
        Decision::Ask { candidates, .. } => {
            let list: Vec<String> = candidates.iter().map(|m| uci_san(pos, *m, mode)).collect();
            let words: Vec<String> = candidates
                .iter()
                .map(|m| vocab.for_display(&vocab.announce(pos, *m, Style::Long).display))
                .collect();
            let text = if candidates.len() == 1 {
                msg(
                    vocab,
                    MsgKey::VoiceConfirm,
                    &[
                        ("move", words.join("")),
                        ("yes", word(crate::commands::Cmd::Yes)),
                        ("no", word(crate::commands::Cmd::No)),
                    ],
                )
            } else {
                let or = format!(" {} ", vocab.locale().message(MsgKey::ParseOr, &[]));
                msg(
                    vocab,
                    MsgKey::VoiceAskWhich,
                    &[("candidates", words.join(&or))],
                )
            };
            (format!("ask {}", list.join(", ")), text)
        }
        Decision::DidYouMean { candidates, .. } => {
            let list: Vec<String> = candidates.iter().map(|m| uci_san(pos, *m, mode)).collect();
            let or = format!(" {} ", vocab.locale().message(MsgKey::ParseOr, &[]));
            let words: Vec<String> = candidates
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let w = vocab.for_display(&vocab.announce(pos, *m, Style::Long).display);
                    format!("{}: {w}", i + 1)
                })
                .collect();
            let text = msg(
                vocab,
                MsgKey::VoiceDidYouMean,
                &[
                    ("candidates", words.join(&or)),
                    ("yes", word(crate::commands::Cmd::Yes)),
                    ("no", word(crate::commands::Cmd::No)),
                ],
            );
            (format!("did-you-mean {}", list.join(", ")), text)
        }
        Decision::Number { number, heard } => (
            format!("number {number}"),
            msg(vocab, MsgKey::VoiceCommand, &[("command", heard.clone())]),
        ),
        Decision::Command { command, .. } => (
            format!("command {}", command.name()),
            msg(vocab, MsgKey::VoiceCommand, &[("command", word(*command))]),
        ),
        Decision::NotUnderstood { heard } => {
            let text = if heard.is_empty() {
                msg(vocab, MsgKey::VoiceNothingHeard, &[])
            } else {
                msg(
                    vocab,
                    MsgKey::VoiceNotUnderstood,
                    &[("heard", heard.clone())],
                )
            };
            (
                format!("not-understood {heard}").trim_end().to_owned(),
                text,
            )
        }
    }
}

/// `annabella listen`.
pub fn run(out: &mut impl Write, args: &ListenArgs) -> Result<ExitCode, CliError> {
    let vocab = load_locale(&args.locale)?;
    let mode = if args.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let pos = super::moves::start_position(&vocab, args.fen.as_deref(), mode)?;
    let model_dir = resolve_model(&vocab, args.model.as_deref())?;
    let settings = DecisionSettings {
        always_confirm: args.always_confirm,
        min_word_confidence: args.min_confidence,
        ..DecisionSettings::default()
    };
    if args.mic {
        return mic(out, vocab, &model_dir, settings, &pos, mode, args);
    }
    let listener = open_listener(vocab, &model_dir, settings)?;
    let mut code = ExitCode::SUCCESS;
    for file in &args.files {
        let name = file.display().to_string();
        let samples = match audio::read_wav(file) {
            Ok(s) => s,
            Err(e @ WavError::Truncated(_)) => {
                // A damaged recording is never guessed at.
                let why = e.line(listener.vocab.locale(), file);
                writeln!(out, "{name}\tnot-understood\t{why}").map_err(io_error)?;
                continue;
            }
            Err(e) => {
                eprintln!("{}", e.line(listener.vocab.locale(), file));
                code = ExitCode::FAILURE;
                continue;
            }
        };
        let decision = if !audio::has_speech(&samples, VadSettings::default()) {
            (
                Decision::NotUnderstood {
                    heard: String::new(),
                },
                None,
            )
        } else {
            match listener.hear(&pos, mode, &samples) {
                Some(h) => (h.decision, Some(h.json)),
                None => {
                    eprintln!(
                        "{}",
                        msg(&listener.vocab, MsgKey::VoiceRecognizerFailed, &[])
                    );
                    code = ExitCode::FAILURE;
                    continue;
                }
            }
        };
        let (line, text) = describe(&listener.vocab, &listener.commands, &pos, mode, &decision.0);
        writeln!(out, "{name}\t{line}\t{text}").map_err(io_error)?;
        if args.json
            && let Some(j) = decision.1
        {
            writeln!(out, "{name}\tjson {j}").map_err(io_error)?;
        }
    }
    Ok(code)
}

/// Live listening through the play screen's worker
/// ([`LiveVoice`](crate::voice::LiveVoice)): hands-free (an utterance ends
/// after `--silence-ms` of silence) or push-to-talk (Space held, or
/// pressed twice where the terminal reports no key release).
fn mic(
    out: &mut impl Write,
    vocab: Vocabulary,
    model_dir: &Path,
    settings: DecisionSettings,
    pos: &Chess,
    mode: CastlingMode,
    args: &ListenArgs,
) -> Result<ExitCode, CliError> {
    use crate::voice::live::{LiveVoice, VoiceEvent, VoiceSource};
    use crate::voice::stderr::write_terminal;
    let commands = SpokenCommandWords::from_vocab(&vocab);
    let source = if args.push_to_talk {
        VoiceSource::PushToTalk
    } else {
        VoiceSource::Microphone {
            silence_ms: args.silence_ms,
        }
    };
    let live = LiveVoice::start(model_dir.to_owned(), vocab.clone(), settings, source, mode);
    live.set_position(pos.clone(), mode);
    // The model loads (seconds), then the microphone opens.
    loop {
        match live.wait(std::time::Duration::from_secs(3600)) {
            Some(VoiceEvent::Ready { missing_words }) => {
                if !missing_words.is_empty() {
                    write_terminal(&msg(
                        &vocab,
                        MsgKey::VoiceMissingWordsListen,
                        &[("words", missing_words.join(", "))],
                    ));
                }
                break;
            }
            Some(VoiceEvent::Failed(failure)) => {
                // The worker stops after a failure: the line goes to the
                // terminal once its redirection of stderr has ended.
                drop(live);
                crate::voice::stderr::wait_restored(std::time::Duration::from_secs(2));
                return Err(CliError::typed(failure).worded_in(vocab.locale()));
            }
            Some(_) => {}
            None => return Ok(ExitCode::FAILURE),
        }
    }
    let mut keys = if args.push_to_talk {
        Some(PushToTalkKeys::start().map_err(|e| {
            CliError::msg(MsgKey::VoicePttNoTerminal)
                .cause("error", e)
                .worded_in(vocab.locale())
        })?)
    } else {
        None
    };
    let line = match &keys {
        Some(k) if k.releases => msg(&vocab, MsgKey::VoicePttHold, &[]),
        Some(_) => msg(&vocab, MsgKey::VoicePttToggle, &[]),
        None => msg(&vocab, MsgKey::VoiceListeningMic, &[]),
    };
    let eol = if keys.is_some() { "\r" } else { "" };
    write_terminal(&format!("{line}{eol}"));
    loop {
        if let Some(k) = keys.as_mut() {
            match k.next(std::time::Duration::from_millis(10)) {
                Some(KeyAction::Talk(down)) => live.push_to_talk(down),
                Some(KeyAction::Quit) => break,
                None => {}
            }
        } else {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        while let Some(event) = live.poll() {
            match event {
                VoiceEvent::Heard(h) => {
                    let (line, text) = describe(&vocab, &commands, pos, mode, &h.decision);
                    writeln!(out, "mic\t{line}\t{text}{eol}").map_err(io_error)?;
                    let _ = out.flush();
                }
                VoiceEvent::Failed(failure) => {
                    let line = failure.describe(vocab.locale());
                    write_terminal(&format!("{line}{eol}"));
                }
                VoiceEvent::Ready { .. }
                | VoiceEvent::Finished
                | VoiceEvent::BargeIn
                | VoiceEvent::TalkKey(_)
                | VoiceEvent::Stopped => {}
            }
        }
    }
    drop(keys);
    Ok(ExitCode::SUCCESS)
}

/// What a key press means in push-to-talk.
enum KeyAction {
    Talk(bool),
    Quit,
}

/// The terminal in raw mode, reporting key releases where it can (kitty
/// keyboard protocol); else Space toggles talking.
struct PushToTalkKeys {
    releases: bool,
    talking: bool,
}

impl PushToTalkKeys {
    fn start() -> std::io::Result<PushToTalkKeys> {
        use crossterm::event::{KeyboardEnhancementFlags, PushKeyboardEnhancementFlags};
        crossterm::terminal::enable_raw_mode()?;
        let releases = crossterm::terminal::supports_keyboard_enhancement().unwrap_or(false)
            && crossterm::execute!(
                std::io::stdout(),
                PushKeyboardEnhancementFlags(KeyboardEnhancementFlags::REPORT_EVENT_TYPES)
            )
            .is_ok();
        Ok(PushToTalkKeys {
            releases,
            talking: false,
        })
    }

    fn next(&mut self, wait: std::time::Duration) -> Option<KeyAction> {
        use crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers};
        if !crossterm::event::poll(wait).ok()? {
            return None;
        }
        let Event::Key(k) = crossterm::event::read().ok()? else {
            return None;
        };
        let ctrl_c = k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl_c || matches!(k.code, KeyCode::Esc | KeyCode::Char('q')) {
            return (k.kind == KeyEventKind::Press).then_some(KeyAction::Quit);
        }
        if k.code != KeyCode::Char(' ') {
            return None;
        }
        let down = match (self.releases, k.kind) {
            (true, KeyEventKind::Press) => true,
            (true, KeyEventKind::Release) => false,
            (false, KeyEventKind::Press) => !self.talking,
            _ => return None,
        };
        if down == self.talking {
            return None;
        }
        self.talking = down;
        Some(KeyAction::Talk(down))
    }
}

impl Drop for PushToTalkKeys {
    fn drop(&mut self) {
        if self.releases {
            let _ = crossterm::execute!(
                std::io::stdout(),
                crossterm::event::PopKeyboardEnhancementFlags
            );
        }
        let _ = crossterm::terminal::disable_raw_mode();
    }
}
