//! `annabella resume [JOURNAL]`: restores both boards, both scoresheets and
//! the clock from a journal and continues the game.
//!
//! A torn last line (a crash while writing) is reported and ignored; the old
//! file is never written again: the game continues in a new journal next to
//! it that names the old one (see [`crate::journal`]). Damage in the middle,
//! or records that do not replay, are reported with the last good move;
//! nothing changes unless `--from-good` is given.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::play::{Session, script_error};
use super::{UserError, load_locale, session};

/// Options of `annabella resume`.
#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// The journal; by default the most recent one in
    /// DATA_DIR/annabella/games/.
    #[arg(value_name = "JOURNAL")]
    pub journal: Option<PathBuf>,
    /// The journal is damaged: continue from the last event that replays,
    /// in a new journal (the old file is kept unchanged).
    #[arg(long)]
    pub from_good: bool,
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
pub fn run(out: &mut dyn Write, args: &ResumeArgs) -> Result<std::process::ExitCode, UserError> {
    let ui = load_locale(&args.locale).or_else(|_| load_locale("fide"))?;
    let path = match &args.journal {
        Some(p) => p.clone(),
        None => session::latest(&ui)?,
    };
    let c = session::resume(&path, args.from_good, &ui)?;
    let vocab = c.game.mirror().vocab().clone();
    for u in &c.said {
        writeln!(out, "{}", vocab.for_display(&u.display)).map_err(super::io_error)?;
    }
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
                    .map_err(|e| script_error(&ui, file, &e.into()))?;
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
