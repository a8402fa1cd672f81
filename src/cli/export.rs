//! `annabella export`: a journal as PGN (a board or a scoresheet) or as a
//! JSON state dump (both boards, both scoresheets, both clocks).
//!
//! Reads only; with `--output` the file is written atomically (temporary
//! file, fsync, rename), so a crash never leaves half a file.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use shakmaty::Color;

use super::{UserError, session};
use crate::fsutil;
use crate::game::clock_ms;
use crate::game::script::ScriptVerbs;
use crate::game::words::Wording;
use crate::mirror::{Mirror, PgnSource, Stage};
use crate::vocab::Utterance;

/// A side on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<SideArg> for Color {
    fn from(s: SideArg) -> Color {
        match s {
            SideArg::White => Color::White,
            SideArg::Black => Color::Black,
        }
    }
}

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// PGN with clock times, draw offers and the arbiter's corrections.
    Pgn,
    /// The whole state as JSON (boards, scoresheets, clocks).
    Json,
}

/// Options of `annabella export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Export the moves as executed on this player's board (default: White's).
    #[arg(long, conflicts_with = "sheet")]
    pub board: Option<SideArg>,
    /// Export this player's scoresheet instead.
    #[arg(long)]
    pub sheet: Option<SideArg>,
    /// pgn or json.
    #[arg(long, value_enum, default_value = "pgn")]
    pub format: Format,
    /// Write to this file (atomically) instead of standard output. An
    /// existing file is not replaced without --force; the journal itself
    /// never is.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace the output file if it exists.
    #[arg(long, requires = "output")]
    pub force: bool,
    /// The journal.
    #[arg(value_name = "JOURNAL")]
    pub journal: PathBuf,
    /// Language of the messages before the journal is read.
    #[arg(long, short, default_value = "en")]
    pub locale: String,
}

/// The state as JSON: what the crash tests compare.
pub fn state_json(m: &Mirror) -> serde_json::Value {
    let verbs = ScriptVerbs;
    let words = Wording::of(m, &verbs);
    let line = |c: Color| {
        m.board(c)
            .moves()
            .iter()
            .map(|mv| m.uci(*mv))
            .collect::<Vec<_>>()
    };
    let sheet = |c: Color| {
        m.sheet(c)
            .entries()
            .iter()
            .map(|e| {
                let mut t = e.text.clone();
                if e.draw_offer {
                    t.push_str(" (=)");
                }
                t
            })
            .collect::<Vec<_>>()
    };
    let ms = clock_ms(m);
    let stage = match m.stage() {
        Stage::Idle => "idle",
        Stage::Made { .. } => "made",
        Stage::Announced { .. } => "announced",
        Stage::Pressed { .. } => "pressed",
        Stage::Adjourned { .. } => "adjourned",
        Stage::Over(_) => "over",
    };
    serde_json::json!({
        "white_board": line(Color::White),
        "black_board": line(Color::Black),
        "white_fen": m.fen(Color::White),
        "black_fen": m.fen(Color::Black),
        "white_sheet": sheet(Color::White),
        "black_sheet": sheet(Color::Black),
        "clock_ms": { "white": ms[0], "black": ms[1] },
        "moves": {
            "white": m.clock().moves(Color::White),
            "black": m.clock().moves(Color::Black),
        },
        "game_time_ms": u64::try_from(m.now().as_millis()).unwrap_or(u64::MAX),
        "stage": stage,
        "illegal_moves": {
            "white": m.board(Color::White).illegal_moves(Color::White),
            "black": m.board(Color::White).illegal_moves(Color::Black),
        },
        "result": m.result().map(|r| m.vocab().describe_result(&r).display),
        "arbiter": m
            .arbiter_record()
            .iter()
            .map(|r| words.event(&r.event).display)
            .collect::<Vec<_>>(),
    })
}

/// Checks that `export` may write `output`: never the journal itself (by
/// file identity, so neither through a symlink, a hard link nor another
/// spelling of its path), never anything but a regular file, and an
/// existing file only with `force`.
fn check_output(
    ui: &crate::vocab::Vocabulary,
    journal: &Path,
    output: &Path,
    force: bool,
) -> Result<(), UserError> {
    let file = Utterance::plain(output.display().to_string());
    let refuse = |key: &str, error: Option<String>| {
        let error = Utterance::plain(error.unwrap_or_default());
        UserError(
            ui.message(key, &[("file", &file), ("error", &error)])
                .display,
        )
    };
    let existing = match std::fs::metadata(output) {
        Ok(m) => m,
        // A dangling symlink is there too.
        Err(_) if std::fs::symlink_metadata(output).is_ok() && !force => {
            return Err(refuse("export.exists", None));
        }
        Err(_) => return Ok(()),
    };
    if std::fs::metadata(journal).is_ok_and(|j| fsutil::same_file(&j, &existing)) {
        return Err(refuse("export.same_file", None));
    }
    if !existing.is_file() {
        let why = fsutil::InputError::NotRegular(fsutil::file_kind(existing.file_type()));
        return Err(refuse("export.not_a_file", Some(why.describe(ui.locale()))));
    }
    if !force {
        return Err(refuse("export.exists", None));
    }
    Ok(())
}

/// `annabella export`.
pub fn run(out: &mut dyn Write, args: &ExportArgs) -> Result<std::process::ExitCode, UserError> {
    let ui = super::load_locale(&args.locale).or_else(|_| super::load_locale("en"))?;
    if let Some(output) = &args.output {
        // Before anything is read: nothing happens to a refused file.
        check_output(&ui, &args.journal, output, args.force)?;
    }
    let session::Read {
        loaded, game, note, ..
    } = session::read(&args.journal, &ui)?;
    if let Some(n) = note {
        eprintln!("{}", n.display);
    }
    let mirror = game.mirror();
    let text = match args.format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&state_json(mirror))
                .map_err(|e| UserError(e.to_string()))?;
            s.push('\n');
            s
        }
        Format::Pgn => {
            let source = match (args.board, args.sheet) {
                (_, Some(s)) => PgnSource::Sheet(s.into()),
                (Some(b), None) => PgnSource::Board(b.into()),
                (None, None) => PgnSource::Board(Color::White),
            };
            let date = loaded
                .header
                .created
                .get(..10)
                .map(|d| d.replace('-', "."))
                .unwrap_or_default();
            let verbs = ScriptVerbs;
            let notes = Wording::of(mirror, &verbs);
            mirror.pgn(
                source,
                &loaded.header.event,
                &loaded.header.site,
                &date,
                &notes,
            )
        }
    };
    match &args.output {
        None => out.write_all(text.as_bytes()).map_err(super::io_error)?,
        Some(p) => fsutil::write_atomic(p, text.as_bytes(), args.force).map_err(|e| {
            let key = if e.kind() == std::io::ErrorKind::AlreadyExists {
                "export.exists"
            } else {
                "export.write_failed"
            };
            UserError(
                ui.message(
                    key,
                    &[
                        ("file", &Utterance::plain(p.display().to_string())),
                        (
                            "error",
                            &Utterance::plain(crate::input::describe_io_error(ui.locale(), &e)),
                        ),
                    ],
                )
                .display,
            )
        })?,
    }
    Ok(std::process::ExitCode::SUCCESS)
}
