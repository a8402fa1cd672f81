//! `annabella listen`: spoken moves from WAV files or the microphone.
//!
//! Per file one line: `FILE<TAB>move UCI SAN<TAB>message`,
//! `FILE<TAB>ask UCI SAN, UCI SAN<TAB>message`, `FILE<TAB>command NAME<TAB>…`
//! or `FILE<TAB>not-understood HEARD<TAB>message`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

use super::{UserError, io_error, load_locale};
use crate::vocab::{Style, Utterance, Vocabulary};
use crate::voice::audio::{self, VadEvent, VadSettings, WavError};
use crate::voice::decide::{Decision, DecisionSettings};
use crate::voice::listener::Listener;
use crate::voice::models::{self, Manifest};
use crate::voice::recognizer::VoskModel;

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

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

fn position(vocab: &Vocabulary, fen: Option<&str>, mode: CastlingMode) -> Result<Chess, UserError> {
    match fen {
        None => Ok(Chess::default()),
        Some(f) => crate::pgn::position_from_fen(f, mode).map_err(|error| {
            UserError(
                vocab
                    .message(
                        "error.bad_fen",
                        &[
                            ("error", &Utterance::plain(error)),
                            ("example", &Utterance::plain(START_FEN)),
                        ],
                    )
                    .display,
            )
        }),
    }
}

fn msg(vocab: &Vocabulary, key: &str, args: &[(&str, String)]) -> String {
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    vocab.locale().message(key, &args)
}

/// Finds the model folder: `--model`, env `ANNABELLA_MODEL`, or the
/// installed model for the locale.
pub fn resolve_model(vocab: &Vocabulary, arg: Option<&Path>) -> Result<PathBuf, UserError> {
    if let Some(p) = arg {
        return Ok(p.to_owned());
    }
    if let Some(p) = std::env::var_os("ANNABELLA_MODEL").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    let manifest = Manifest::builtin();
    let code = vocab.locale().code.clone();
    if let Some(dir) = models::models_dir()
        && let Some(p) = models::model_for_locale(&manifest, &dir, &code)
    {
        return Ok(p);
    }
    let name = manifest
        .for_locale(&code)
        .first()
        .map(|m| m.name.clone())
        .unwrap_or_else(|| "NAME".to_owned());
    Err(UserError(msg(
        vocab,
        "voice.no_model",
        &[("locale", vocab.locale().name.clone()), ("name", name)],
    )))
}

/// Loads the model and checks the locale's words against it: missing
/// words are reported on standard error (one line), a model for another
/// language is an error.
pub fn open_listener(
    vocab: Vocabulary,
    model_dir: &Path,
    settings: DecisionSettings,
) -> Result<Listener, UserError> {
    crate::voice::stderr::quiet_vosk(true);
    // libvosk's own lines go to the log; the user gets one clear line.
    let quiet = crate::voice::stderr::StderrRedirect::to_log().ok();
    let loaded = VoskModel::load(model_dir);
    drop(quiet);
    let model = loaded.map_err(|e| {
        UserError(msg(
            &vocab,
            "voice.model_error",
            &[("error", e.to_string())],
        ))
    })?;
    let listener = Listener::new(model, vocab, settings);
    let missing: Vec<String> = listener
        .missing_words()
        .iter()
        .map(|m| format!("{} ({})", m.display, m.key))
        .collect();
    if listener.wrong_language() {
        return Err(UserError(msg(
            &listener.vocab,
            "voice.wrong_language",
            &[
                ("path", model_dir.display().to_string()),
                ("locale", listener.vocab.locale().name.clone()),
                ("words", missing.join(", ")),
            ],
        )));
    }
    if !missing.is_empty() {
        eprintln!(
            "{}",
            msg(
                &listener.vocab,
                "voice.missing_words",
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
    listener: &Listener,
    pos: &Chess,
    mode: CastlingMode,
    d: &Decision,
) -> (String, String) {
    let vocab = &listener.vocab;
    let word = |c: crate::voice::Command| {
        listener
            .commands
            .iter()
            .find(|(x, _)| *x == c)
            .and_then(|(_, f)| f.first().cloned())
            .unwrap_or_else(|| c.key().to_owned())
    };
    match d {
        Decision::Move { mv, .. } => {
            let said = vocab.announce(pos, *mv, Style::Long);
            (
                format!("move {}", uci_san(pos, *mv, mode)),
                msg(
                    vocab,
                    "voice.heard_move",
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
                    "voice.confirm",
                    &[
                        ("move", words.join("")),
                        ("yes", word(crate::voice::Command::Yes)),
                        ("no", word(crate::voice::Command::No)),
                    ],
                )
            } else {
                let or = format!(" {} ", vocab.locale().message("parse.or", &[]));
                msg(vocab, "voice.ask_which", &[("candidates", words.join(&or))])
            };
            (format!("ask {}", list.join(", ")), text)
        }
        Decision::Command { command, .. } => (
            format!("command {}", command.key()),
            msg(vocab, "voice.command", &[("command", word(*command))]),
        ),
        Decision::NotUnderstood { heard } => {
            let text = if heard.is_empty() {
                msg(vocab, "voice.nothing_heard", &[])
            } else {
                msg(vocab, "voice.not_understood", &[("heard", heard.clone())])
            };
            (
                format!("not-understood {heard}").trim_end().to_owned(),
                text,
            )
        }
    }
}

/// `annabella listen`.
pub fn run(out: &mut impl Write, args: &ListenArgs) -> Result<ExitCode, UserError> {
    let vocab = load_locale(&args.locale)?;
    let mode = if args.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let pos = position(&vocab, args.fen.as_deref(), mode)?;
    let model_dir = resolve_model(&vocab, args.model.as_deref())?;
    let settings = DecisionSettings {
        always_confirm: args.always_confirm,
        min_word_confidence: args.min_confidence,
        ..DecisionSettings::default()
    };
    let listener = open_listener(vocab, &model_dir, settings)?;
    if args.mic {
        return mic(out, &listener, &pos, mode, args);
    }
    let mut code = ExitCode::SUCCESS;
    for file in &args.files {
        let name = file.display().to_string();
        let samples = match audio::read_wav(file) {
            Ok(s) => s,
            Err(WavError::Truncated(n)) => {
                // A damaged recording is never guessed at.
                let why = msg(
                    &listener.vocab,
                    "voice.wav_error",
                    &[
                        ("file", name.clone()),
                        ("error", WavError::Truncated(n).to_string()),
                    ],
                );
                writeln!(out, "{name}\tnot-understood\t{why}").map_err(io_error)?;
                continue;
            }
            Err(e) => {
                eprintln!(
                    "{}",
                    msg(
                        &listener.vocab,
                        "voice.wav_error",
                        &[("file", name.clone()), ("error", e.to_string())]
                    )
                );
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
                    eprintln!("{}", msg(&listener.vocab, "voice.recognizer_failed", &[]));
                    code = ExitCode::FAILURE;
                    continue;
                }
            }
        };
        let (line, text) = describe(&listener, &pos, mode, &decision.0);
        writeln!(out, "{name}\t{line}\t{text}").map_err(io_error)?;
        if args.json
            && let Some(j) = decision.1
        {
            writeln!(out, "{name}\tjson {j}").map_err(io_error)?;
        }
    }
    Ok(code)
}

/// Live listening, hands-free: the detector finds the end of each
/// utterance (after `--silence-ms`), then the recognizer's final result is
/// decided on at once.
fn mic(
    out: &mut impl Write,
    listener: &Listener,
    pos: &Chess,
    mode: CastlingMode,
    args: &ListenArgs,
) -> Result<ExitCode, UserError> {
    // ALSA's complaints go to the log.
    let quiet = crate::voice::stderr::StderrRedirect::to_log().ok();
    let opened = crate::voice::mic::Microphone::open();
    drop(quiet);
    let microphone = opened.map_err(|e| {
        UserError(msg(
            &listener.vocab,
            "voice.no_microphone",
            &[("error", e.to_string())],
        ))
    })?;
    eprintln!(
        "{}",
        msg(
            &listener.vocab,
            "voice.listening",
            &[("device", microphone.name.clone())]
        )
    );
    let grammar = listener.grammar(pos, mode);
    let vad_settings = VadSettings {
        silence_ms: args.silence_ms,
        ..VadSettings::default()
    };
    let mut vad = audio::Vad::new(vad_settings);
    // The last 300 ms before speech starts go to the recognizer too.
    let preroll_len = 300 * 16;
    let mut preroll: std::collections::VecDeque<i16> = std::collections::VecDeque::new();
    let mut current = None;
    while let Ok(chunk) = microphone.samples.recv() {
        let events = vad.push(&chunk);
        for e in &events {
            match e {
                VadEvent::SpeechStart(_) => {
                    let mut u = listener.model.recognizer(&grammar).ok_or_else(|| {
                        UserError(msg(&listener.vocab, "voice.recognizer_failed", &[]))
                    })?;
                    let pre: Vec<i16> = preroll.iter().copied().collect();
                    u.feed(&pre);
                    u.feed(&chunk);
                    current = Some(u);
                }
                VadEvent::SpeechEnd(_) => {
                    if let Some(mut u) = current.take() {
                        u.feed(&chunk);
                        let (hearing, _) = u.finish();
                        let d = listener.decide(pos, mode, &grammar, &hearing);
                        let (line, text) = describe(listener, pos, mode, &d);
                        writeln!(out, "mic\t{line}\t{text}").map_err(io_error)?;
                        let _ = out.flush();
                    }
                }
            }
        }
        if let Some(u) = current.as_mut()
            && !events.iter().any(|e| matches!(e, VadEvent::SpeechStart(_)))
        {
            u.feed(&chunk);
        }
        preroll.extend(chunk.iter().copied());
        while preroll.len() > preroll_len {
            preroll.pop_front();
        }
    }
    Ok(ExitCode::SUCCESS)
}
