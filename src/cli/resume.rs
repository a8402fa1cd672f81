//! `annabella resume [JOURNAL]`: restores both boards, both scoresheets and
//! the clock from a journal and continues the game.
//!
//! A torn last line (a crash while writing) is reported and ignored; the old
//! file is never written again: the game continues in a new journal next to
//! it that names the old one (see [`crate::journal`]). Damage in the middle
//! is reported with the last good move; nothing changes unless
//! `--from-good` is given.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::play::{Session, create_writer, last_move, state_line};
use super::{UserError, load_locale};
use crate::journal::{self, Continues, Loaded, ReadError, Writer};
use crate::mirror::Mirror;
use crate::vocab::{Utterance, Vocabulary};

/// Options of `annabella resume`.
#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// The journal; by default the most recent one in
    /// DATA_DIR/annabella/games/.
    #[arg(value_name = "JOURNAL")]
    pub journal: Option<PathBuf>,
    /// The journal is damaged in the middle: continue from its last good
    /// event in a new journal (the old file is kept unchanged).
    #[arg(long)]
    pub from_good: bool,
    /// Continue with events from FILE (or `-`), as `play --script`.
    #[arg(long, value_name = "FILE")]
    pub script: Option<String>,
    /// Language of the messages before the journal is read.
    #[arg(long, short, default_value = "en")]
    pub locale: String,
    /// Speech: by default spoken in a terminal, printed only with --script.
    #[command(flatten)]
    pub speech: super::clock::SpeechArgs,
}

fn plain(s: impl Into<String>) -> Utterance {
    Utterance::plain(s)
}

fn file_arg(p: &Path) -> Utterance {
    plain(p.display().to_string())
}

/// Reads a journal for reading only (export): the good part, and a notice
/// about damage, if any.
pub fn read_for_export(
    path: &Path,
    ui: &Vocabulary,
) -> Result<(Loaded, Mirror, Option<String>), UserError> {
    let (loaded, damage) = match journal::read(path) {
        Ok(l) => (l, None),
        Err(ReadError::Corrupt {
            line,
            checksum,
            good,
        }) => {
            let reason = reason_key(checksum);
            (*good, Some((line, reason)))
        }
        Err(e) => return Err(read_error(path, e, ui)),
    };
    let mirror = replay(path, &loaded)?;
    let note = match (damage, loaded.torn) {
        (Some((line, reason)), _) => Some(corrupt_message(path, line, reason, &mirror).display),
        (None, Some(line)) => Some(
            mirror
                .vocab()
                .message(
                    "journal.torn_read",
                    &[
                        ("file", &file_arg(path)),
                        ("line", &plain(line.to_string())),
                        ("last", &last_move(&mirror)),
                    ],
                )
                .display,
        ),
        (None, None) => None,
    };
    Ok((loaded, mirror, note))
}

fn reason_key(checksum: bool) -> &'static str {
    if checksum {
        "journal.reason.checksum"
    } else {
        "journal.reason.syntax"
    }
}

fn corrupt_message(path: &Path, line: usize, reason: &str, mirror: &Mirror) -> Utterance {
    let v = mirror.vocab();
    v.message(
        "journal.corrupt",
        &[
            ("file", &file_arg(path)),
            ("line", &plain(line.to_string())),
            ("reason", &v.message(reason, &[])),
            ("last", &last_move(mirror)),
        ],
    )
}

fn read_error(path: &Path, e: ReadError, ui: &Vocabulary) -> UserError {
    let file = file_arg(path);
    let text = match e {
        ReadError::Io(err) => ui.message(
            "journal.open_failed",
            &[("file", &file), ("error", &plain(err.to_string()))],
        ),
        ReadError::Empty => ui.message(
            "journal.not_journal",
            &[
                ("file", &file),
                ("reason", &ui.message("journal.reason.empty", &[])),
            ],
        ),
        ReadError::NotJournal => ui.message(
            "journal.not_journal",
            &[
                ("file", &file),
                ("reason", &ui.message("journal.reason.header", &[])),
            ],
        ),
        ReadError::BadVersion(found) => ui.message(
            "journal.bad_version",
            &[
                ("file", &file),
                ("found", &plain(found.to_string())),
                ("expected", &plain(journal::VERSION.to_string())),
            ],
        ),
        ReadError::Corrupt { .. } => ui.message("journal.reason.syntax", &[]),
    };
    UserError(text.display)
}

/// Replays a journal's records through the core.
pub fn replay(path: &Path, loaded: &Loaded) -> Result<Mirror, UserError> {
    let vocab = load_locale(&loaded.header.locale)?;
    let config = journal::config_of(&loaded.header).map_err(UserError)?;
    journal::replay(vocab.clone(), config, &loaded.records).map_err(|(i, e)| {
        let m = Mirror::new(vocab.clone(), Default::default(), Default::default());
        UserError(
            vocab
                .message(
                    "journal.replay_failed",
                    &[
                        ("file", &file_arg(path)),
                        ("line", &plain((i + 2).to_string())),
                        ("error", &m.describe_error(&e)),
                    ],
                )
                .display,
        )
    })
}

/// Opens an existing journal to continue the game in it (or in a new
/// continuation journal after a torn line or with `from_good`).
pub fn open(
    out: &mut dyn Write,
    path: &Path,
    from_good: bool,
    ui_locale: &str,
) -> Result<Session, UserError> {
    let ui = load_locale(ui_locale).or_else(|_| load_locale("en"))?;
    let (loaded, damaged) = match journal::read(path) {
        Ok(l) => (l, None),
        Err(ReadError::Corrupt {
            line,
            checksum,
            good,
        }) => {
            let mirror = replay(path, &good)?;
            if !from_good {
                return Err(UserError(
                    corrupt_message(path, line, reason_key(checksum), &mirror).display,
                ));
            }
            (*good, Some(line))
        }
        Err(e) => return Err(read_error(path, e, &ui)),
    };
    let mirror = replay(path, &loaded)?;
    let done_line = loaded
        .records
        .iter()
        .filter_map(|r| r.line)
        .max()
        .unwrap_or(0);
    let say = |out: &mut dyn Write, t: &Utterance| -> Result<(), UserError> {
        writeln!(out, "{}", mirror.vocab().for_display(&t.display)).map_err(super::io_error)
    };
    let writer = if loaded.torn.is_some() || damaged.is_some() {
        let new = journal::continuation_path(path);
        let mut header = loaded.header.clone();
        header.continues = Some(Continues {
            file: path.display().to_string(),
            records: loaded.records.len(),
        });
        let w = create_writer(mirror.vocab(), &new, &header, &loaded.records)?;
        let text = match (loaded.torn, damaged) {
            (Some(line), None) => mirror.vocab().message(
                "journal.torn_tail",
                &[
                    ("file", &file_arg(path)),
                    ("line", &plain(line.to_string())),
                    ("last", &last_move(&mirror)),
                    ("new", &file_arg(&new)),
                ],
            ),
            _ => mirror.vocab().message(
                "journal.salvaged",
                &[
                    ("file", &file_arg(path)),
                    ("new", &file_arg(&new)),
                    ("events", &plain(loaded.records.len().to_string())),
                ],
            ),
        };
        say(out, &text)?;
        w
    } else {
        Writer::append_to(path).map_err(|e| {
            UserError(
                ui.message(
                    "journal.open_failed",
                    &[("file", &file_arg(path)), ("error", &plain(e.to_string()))],
                )
                .display,
            )
        })?
    };
    let text = mirror.vocab().message(
        "journal.resumed",
        &[
            ("file", &file_arg(writer.path())),
            ("events", &plain(loaded.records.len().to_string())),
            ("state", &state_line(&mirror)),
        ],
    );
    say(out, &text)?;
    Ok(Session::new(mirror, writer, done_line))
}

/// `annabella resume`.
pub fn run(out: &mut dyn Write, args: &ResumeArgs) -> Result<std::process::ExitCode, UserError> {
    let ui = load_locale(&args.locale).or_else(|_| load_locale("en"))?;
    let path = match &args.journal {
        Some(p) => p.clone(),
        None => {
            let dir = journal::default_dir().unwrap_or_default();
            journal::latest_in(&dir).ok_or_else(|| {
                UserError(
                    ui.message("play.no_journal", &[("folder", &file_arg(&dir))])
                        .display,
                )
            })?
        }
    };
    let mut session = open(out, &path, args.from_good, &args.locale)?;
    session.open_speech(out, &args.speech, args.script.is_some());
    match args.script.as_deref() {
        Some("-") => {
            let stdin = std::io::stdin();
            session.run(out, &mut stdin.lock(), true)?;
        }
        Some(file) => {
            let f =
                std::fs::File::open(file).map_err(|e| super::play::script_error(&ui, file, &e))?;
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
