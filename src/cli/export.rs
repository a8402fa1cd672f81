//! `annabella export`: a journal as PGN (a board or a scoresheet) or as a
//! JSON state dump (both boards, both scoresheets, both clocks).
//!
//! Reads only; with `--output` the file is written atomically (temporary
//! file, fsync, rename), so a crash never leaves half a file.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use shakmaty::Color;

use super::UserError;
use super::play::remaining_ms;
use super::resume::read_for_export;
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
    /// Write to this file (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The journal.
    #[arg(value_name = "JOURNAL")]
    pub journal: PathBuf,
    /// Language of the messages before the journal is read.
    #[arg(long, short, default_value = "en")]
    pub locale: String,
}

/// The state as JSON: what the crash tests compare.
pub fn state_json(m: &Mirror) -> serde_json::Value {
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
    let ms = remaining_ms(m);
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
        "arbiter": m.arbiter_record().iter().map(|r| r.text.display.clone()).collect::<Vec<_>>(),
    })
}

/// Writes `text` to `path` atomically: temporary file, fsync, rename.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// `annabella export`.
pub fn run(out: &mut dyn Write, args: &ExportArgs) -> Result<std::process::ExitCode, UserError> {
    let ui = super::load_locale(&args.locale).or_else(|_| super::load_locale("en"))?;
    let (loaded, mirror, note) = read_for_export(&args.journal, &ui)?;
    if let Some(n) = note {
        eprintln!("{n}");
    }
    let text = match args.format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&state_json(&mirror))
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
            mirror.pgn(source, &loaded.header.event, &loaded.header.site, &date)
        }
    };
    match &args.output {
        None => out.write_all(text.as_bytes()).map_err(super::io_error)?,
        Some(p) => write_atomic(p, &text).map_err(|e| {
            UserError(
                ui.message(
                    "export.write_failed",
                    &[
                        ("file", &Utterance::plain(p.display().to_string())),
                        ("error", &Utterance::plain(e.to_string())),
                    ],
                )
                .display,
            )
        })?,
    }
    Ok(std::process::ExitCode::SUCCESS)
}
