//! `annabella export`: a journal as PGN (a board or a scoresheet) or as a
//! JSON state dump (both boards, both scoresheets, both clocks).
//!
//! Reads only; with `--output` the file is written atomically (temporary
//! file, fsync, rename), so a crash never leaves half a file.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use shakmaty::Color;

use super::error::OutputRefused;
use super::{CliError, session};
use crate::fsutil;
use crate::game::clock_ms;
use crate::game::script::ScriptVerbs;
use crate::game::words::Wording;
use crate::locale::MsgKey;
use crate::mirror::{Mirror, PgnSource, Stage};

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
    /// Language of the messages before the journal is read (a locale code
    /// or a path to a locale file); by default the settings file's, else
    /// fide.
    #[arg(long, short, default_value = "fide")]
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
        "result_code": crate::mirror::result_token(m.result()),
        "arbiter": m
            .arbiter_record()
            .iter()
            .map(|r| words.event(&r.event).display)
            .collect::<Vec<_>>(),
    })
}

/// Why `export` may not write `output`, in its own words (the rule is
/// [`crate::output`]'s: never the journal, by file identity, nor any
/// other file this run uses; never anything but a regular file; an
/// existing file only with `force`).
fn output_refused(
    ui: &crate::vocab::Vocabulary,
    journal: &Path,
    output: &Path,
    e: crate::output::OutputError,
) -> CliError {
    use crate::output::OutputError;
    let say = |key: MsgKey| CliError::msg(key).arg("file", output.display().to_string());
    let refused = match e {
        OutputError::IsInput { input } if input == journal => {
            say(MsgKey::ExportSameFile).arg("error", "")
        }
        error @ OutputError::IsInput { .. } => CliError::typed(OutputRefused {
            file: output.to_owned(),
            error,
        }),
        OutputError::NotRegular(kind) => {
            say(MsgKey::ExportNotAFile).cause("error", fsutil::InputError::NotRegular(kind))
        }
        OutputError::Exists | OutputError::OtherKind | OutputError::OtherGames { .. } => {
            say(MsgKey::ExportExists).arg("error", "")
        }
        OutputError::Io(err) => say(MsgKey::ExportWriteFailed).cause("error", err),
    };
    refused.worded_in(ui.locale())
}

/// `annabella export`.
pub fn run(out: &mut dyn Write, args: &ExportArgs) -> Result<std::process::ExitCode, CliError> {
    let ui = super::load_locale(&args.locale).or_else(|_| super::load_locale("fide"))?;
    let mut inputs = crate::output::Inputs::new();
    inputs.add(&args.journal);
    if let Some(output) = &args.output {
        // Before anything is read: nothing happens to a refused file.
        crate::output::check(output, crate::output::Kind::Export, &inputs, args.force)
            .map_err(|e| output_refused(&ui, &args.journal, output, e))?;
    }
    let session::Read {
        loaded,
        game,
        notes,
        drops,
        ..
    } = session::read(&args.journal, &ui)?;
    for n in &notes {
        eprintln!("{}", n.display);
    }
    let mirror = game.mirror();
    let text = match args.format {
        Format::Json => {
            let mut s =
                serde_json::to_string_pretty(&state_json(mirror)).map_err(CliError::Json)?;
            s.push('\n');
            s
        }
        Format::Pgn => {
            let source = match (args.board, args.sheet) {
                (_, Some(s)) => PgnSource::Sheet(s.into()),
                (Some(b), None) => PgnSource::Board(b.into()),
                (None, None) => PgnSource::Board(mirror.game_board()),
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
        Some(p) => crate::output::write(
            p,
            text.as_bytes(),
            crate::output::Kind::Export,
            &inputs,
            args.force,
        )
        .map_err(|e| output_refused(&ui, &args.journal, p, e))?,
    }
    // Moves of the file are not in what was exported: the caller must
    // know (the notes above say which and what to do).
    Ok(if drops {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    })
}
