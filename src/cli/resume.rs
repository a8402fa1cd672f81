//! `annabella resume [JOURNAL]`: restores both boards, both scoresheets and
//! the clock from a journal and continues the game.
//!
//! A torn last line (a crash while writing) is reported and ignored, lines
//! the reader could mend (a duplicate, a line out of order, a damaged byte
//! restored from its checksum) are named; the old file is never written
//! again: the game continues in a new journal next to it that names the
//! old one (see [`crate::journal`]). Damage that loses records (a missing
//! line, a line beyond repair, records that do not replay) is reported
//! with the last good move; nothing changes unless `--from-good` (go on
//! without those records) or `--repair` (offer each of them to the
//! arbiter) is given.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use clap::Args;

use super::play::{Session, script_error};
use super::session::{Answer, Resume};
use super::{CliError, load_locale, session};
use crate::commands::{Cmd, CommandWords, Input};
use crate::locale::MsgKey;
use crate::vocab::{Utterance, Vocabulary};

/// Options of `annabella resume`.
#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// The journal; by default the most recent one in
    /// DATA_DIR/annabella/games/.
    #[arg(value_name = "JOURNAL")]
    pub journal: Option<PathBuf>,
    /// The journal is damaged: continue with everything that could be
    /// recovered, without the records after the damage, in a new journal
    /// (the old file is kept unchanged).
    #[arg(long, conflicts_with = "repair")]
    pub from_good: bool,
    /// The journal is damaged: continue with everything that could be
    /// recovered, and offer every record after the damage to the arbiter
    /// one by one (answers yes or no on standard input; the end of input
    /// leaves the rest out), in a new journal (the old file is kept
    /// unchanged).
    #[arg(long)]
    pub repair: bool,
    /// Continue with events from FILE (or `-`), as `play --script`.
    #[arg(long, value_name = "FILE")]
    pub script: Option<String>,
    /// Language of the messages before the journal is read (a locale code
    /// or a path to a locale file); by default the settings file's, else
    /// fide.
    #[arg(long, short, default_value = "fide")]
    pub locale: String,
    /// Speech: by default spoken in a terminal, printed only with --script.
    #[command(flatten)]
    pub speech: super::clock::SpeechArgs,
}

/// `annabella resume`.
pub fn run(out: &mut dyn Write, args: &ResumeArgs) -> Result<std::process::ExitCode, CliError> {
    let ui = load_locale(&args.locale).or_else(|_| load_locale("fide"))?;
    let path = match &args.journal {
        Some(p) => p.clone(),
        None => session::latest(&ui)?,
    };
    // The files of this run, which --speak-to never writes over.
    let mut inputs = crate::output::Inputs::new();
    inputs.add(&path);
    if let Some(s) = args.script.as_deref().filter(|s| *s != "-") {
        inputs.add(std::path::Path::new(s));
    }
    args.speech.check_output(&inputs, ui.locale())?;
    let how = if args.repair {
        Resume::Repair
    } else if args.from_good {
        Resume::FromGood
    } else {
        Resume::Strict
    };
    let stdin = std::io::stdin();
    let mut arbiter = Typed {
        out: &mut *out,
        input: stdin.lock(),
        ui: &ui,
        failed: None,
    };
    let c = session::resume(&path, how, &ui, &mut arbiter)?;
    if let Some(e) = arbiter.failed.take() {
        return Err(super::io_error(e));
    }
    drop(arbiter);
    let vocab = c.game.mirror().vocab().clone();
    for u in &c.said {
        writeln!(out, "{}", vocab.for_display(&u.display)).map_err(super::io_error)?;
    }
    // What waits: a move to execute, a mismatch, a draw offer to answer.
    let verbs = crate::game::script::ScriptVerbs;
    if c.game.mirror().result().is_none()
        && let Some(u) = c.game.wording(&verbs).waiting(c.game.mirror())
    {
        writeln!(out, "{}", vocab.for_display(&u.display)).map_err(super::io_error)?;
    }
    inputs.add(c.writer.path());
    args.speech.check_output(&inputs, vocab.locale())?;
    let mut session = Session::new(c.game, c.writer, c.done_line);
    session.open_speech(out, &args.speech, args.script.is_some());
    match args.script.as_deref() {
        Some("-") => {
            let stdin = std::io::stdin();
            session.run(out, &mut stdin.lock(), true)?;
        }
        Some(file) => {
            let f =
                crate::fsutil::open_stream(std::path::Path::new(file), crate::fsutil::SCRIPT_LIMIT)
                    .map_err(|e| script_error(&ui, file, e.into()))?;
            session.run(out, &mut std::io::BufReader::new(f), true)?;
        }
        None => {
            let stdin = std::io::stdin();
            session.run(out, &mut stdin.lock(), false)?;
        }
    }
    session.finish_speech();
    Ok(std::process::ExitCode::SUCCESS)
}

/// The arbiter at the keyboard: lines on `out`, answers from `input`
/// (the locale's yes or no, or quit to leave the rest out; the end of
/// input leaves the rest out too).
struct Typed<'a, R: BufRead> {
    out: &'a mut dyn Write,
    input: R,
    ui: &'a Vocabulary,
    failed: Option<std::io::Error>,
}

impl<R: BufRead> Typed<'_, R> {
    fn line(&mut self, text: &str) -> bool {
        match writeln!(self.out, "{text}").and_then(|()| self.out.flush()) {
            Ok(()) => true,
            Err(e) => {
                self.failed.get_or_insert(e);
                false
            }
        }
    }
}

impl<R: BufRead> session::Arbiter for Typed<'_, R> {
    fn tell(&mut self, line: &Utterance) {
        let text = self.ui.for_display(&line.display);
        self.line(&text);
    }

    fn ask(&mut self, question: &Utterance, vocab: &Vocabulary) -> Answer {
        let words = CommandWords::new(vocab.locale());
        let mut text = vocab.for_display(&question.display);
        loop {
            if !self.line(&text) {
                return Answer::Stop;
            }
            let line = match crate::input::read_line(&mut self.input) {
                Ok(Some(crate::input::Line::Text(t))) => t,
                Ok(Some(crate::input::Line::TooLong)) => String::new(),
                Ok(None) | Err(_) => return Answer::Stop,
            };
            match words.read(&line) {
                Input::Command(Cmd::Yes, _) => return Answer::Take,
                Input::Command(Cmd::No, _) => return Answer::Leave,
                Input::Command(Cmd::Quit, _) => return Answer::Stop,
                _ => {
                    let word = |c| Utterance::plain(words.shown(c));
                    text = vocab
                        .message(
                            MsgKey::JournalRepairAnswer,
                            &[
                                ("yes", &word(Cmd::Yes)),
                                ("no", &word(Cmd::No)),
                                ("quit", &word(Cmd::Quit)),
                            ],
                        )
                        .display;
                    text = vocab.for_display(&text);
                }
            }
        }
    }
}
