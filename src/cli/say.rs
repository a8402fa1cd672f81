//! `annabella say`: speak a text or moves, to check voices and locales.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use shakmaty::{CastlingMode, Chess, Position};

use super::clock::SpeechArgs;
use super::{CliError, io_error, load_locale};
use crate::clock::talk::Phrasebook;
use crate::locale::MsgKey;
use crate::speech::{self, Announcer, Item, Output, Priority, Speaker, espeak};
use crate::vocab::{Style, Utterance};

/// Options of `annabella say`.
#[derive(Debug, Args)]
pub struct SayArgs {
    /// Locale: the language of the voice and, with --move, of the words.
    #[arg(long, short, default_value = "fide")]
    pub(super) locale: String,
    #[command(flatten)]
    pub(super) speech: SpeechArgs,
    /// Only print (no speech).
    #[arg(long, conflicts_with_all = ["speak", "speak_to"])]
    pub(super) plain: bool,
    /// The arguments are moves (algebraic notation, coordinates or words),
    /// played from the start position (or --fen) and announced one by one.
    #[arg(long = "move")]
    pub(super) moves: bool,
    /// Start position for --move, in FEN.
    #[arg(long, requires = "moves")]
    pub(super) fen: Option<String>,
    /// short or long announcements of moves.
    #[arg(long, default_value = "short")]
    pub(super) style: Style,
    // An option is read as an option (`--voice-name x` is refused, not
    // said); a number (`-5 Grad`) is text as before; any other text that
    // starts with `-` comes after `--`.
    /// The text (several arguments are joined by spaces), or the moves.
    #[arg(value_name = "TEXT", allow_negative_numbers = true)]
    pub(super) text: Vec<String>,
}

/// `annabella say`.
pub fn run(out: &mut impl Write, args: &SayArgs) -> Result<ExitCode, CliError> {
    let vocab = load_locale(&args.locale)?;
    let book = Phrasebook::for_locale(vocab.locale())
        .map_err(|e| CliError::Locale(e).worded_in(vocab.locale()))?;
    let mut inputs = crate::output::Inputs::new();
    inputs.add_locale(&args.locale);
    args.speech.check_output(&inputs, book.locale())?;
    let mut said = Vec::new();
    if args.moves {
        let mode = CastlingMode::Standard;
        let mut pos = match &args.fen {
            Some(fen) => crate::pgn::read_fen(fen, mode).map_err(|error| {
                CliError::msg(MsgKey::ErrorBadFen)
                    .cause("error", error)
                    .arg("example", crate::pgn::START_FEN)
                    .worded_in(vocab.locale())
            })?,
            None => Chess::default(),
        };
        for (i, text) in args.text.iter().enumerate() {
            let m = vocab
                .parse(&pos, mode, text)
                .map_err(|error| super::moves::bad_move(&vocab, i, text, &pos, error))?;
            said.push(vocab.announce(&pos, m, args.style));
            pos.play_unchecked(m);
        }
    } else {
        let text = args.text.join(" ");
        if !text.trim().is_empty() {
            said.push(Utterance::plain(text));
        }
    }
    if said.is_empty() {
        return Err(CliError::msg(MsgKey::SayEmpty).worded_in(book.locale()));
    }
    for u in &said {
        writeln!(out, "{}", u.display).map_err(io_error)?;
    }
    out.flush().map_err(io_error)?;
    // The words of moves are in the vocabulary's language (fide: German).
    let voice = args.speech.voice(&vocab.locale().language);
    let locale = book.locale();
    match args.speech.output(args.plain) {
        Output::File(path) => {
            let (engine, missing) = espeak::EspeakNg::probe(&voice)
                .map_err(|e| CliError::typed(e).worded_in(locale))?;
            if let Some(e) = missing {
                eprintln!("{}", e.describe(locale));
            }
            let mut file = espeak::WavFileSpeaker::create(engine, &path)
                .map_err(|e| CliError::typed(e).worded_in(locale))?;
            for u in &said {
                file.speak(u, Priority::Move)
                    .map_err(|e| CliError::typed(e).worded_in(locale))?;
            }
            // Whole tenths of a second (a WAV of a few seconds).
            let seconds = locale.tenths((file.seconds() * 10.0).round().max(0.0) as u64);
            file.finish()
                .map_err(|e| CliError::typed(e).worded_in(locale))?;
            eprintln!(
                "{}",
                locale.message(
                    MsgKey::SpeechFileWritten,
                    &[("file", &path.display().to_string()), ("seconds", &seconds)],
                )
            );
        }
        output => {
            let mut notices = Vec::new();
            let speaker = speech::open(&output, &voice, locale, &mut notices);
            for n in &notices {
                eprintln!("{n}");
            }
            let mut announcer = Announcer::new(speaker);
            for u in said {
                if let Err(e) = announcer.say(Item::new(u, Priority::Move)) {
                    eprintln!("{}", e.describe(locale));
                    if announcer.failed() {
                        break;
                    }
                }
            }
            for e in announcer.drain(std::time::Duration::from_secs(60)) {
                eprintln!("{}", e.describe(locale));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
