//! Command-line adapter: argument parsing (clap) and the commands. Reads
//! files and standard input, prints results; the rules and words come from
//! the pure core.

mod clock;
mod export;
mod listen;
mod models;
mod moves;
mod play;
mod resume;
mod say;
mod ui;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::locale::{self, Locale};
use crate::vocab::{Style, Vocabulary};

/// annabella: a talking chess client for over-the-board play between
/// sighted and visually impaired players (FIDE Laws of Chess, Appendix D).
///
/// It announces every move in words ("Springer Gustav eins Felix drei"),
/// understands moves typed or spoken in those words, in algebraic notation
/// or as coordinates, and keeps the rules.
#[derive(Debug, Parser)]
#[command(name = "annabella", version, about, long_about)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Without a subcommand: the play screen.
    #[command(flatten)]
    play: ui::PlayArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Say moves in words: plays the given moves from the start position
    /// (or --fen) and prints one line of words per move.
    ///
    /// Moves can be written in algebraic notation (Nf3, exd5, e8=Q, O-O),
    /// as coordinates (g1f3) or in the locale's words.
    ///
    /// Example: annabella announce e4 e5 Nf3
    Announce {
        #[command(flatten)]
        game: GameArgs,
        /// short: like algebraic notation; long: always from-square and
        /// to-square.
        #[arg(long, default_value = "short")]
        style: Style,
        /// Print the spoken spelling (what the speech synthesizer is given)
        /// instead of the displayed one.
        #[arg(long)]
        spoken: bool,
        /// The moves, in order.
        #[arg(required = true, value_name = "MOVE")]
        moves: Vec<String>,
    },
    /// Read a move from words: prints the move as "UCI SAN" and exits 0, or
    /// says why the words are not one legal move and exits 1.
    ///
    /// Example: annabella parse "Springer Gustav eins Felix drei"
    Parse {
        #[command(flatten)]
        game: GameArgs,
        /// Read "FEN<TAB>PHRASE" lines from standard input and print one
        /// result per line: the move in UCI, or "error: …".
        #[arg(long, conflicts_with = "phrase")]
        tsv: bool,
        /// The words of the move (several arguments are joined by spaces).
        #[arg(value_name = "PHRASE", required_unless_present = "tsv")]
        phrase: Vec<String>,
    },
    /// Print the announcements of every game in PGN files; with --check,
    /// read every announcement back and count the ones that do not give the
    /// same move.
    Replay {
        /// Locale of the words (see `annabella locales`), or a path to a
        /// locale file (.toml).
        #[arg(long, short, default_value = "fide")]
        locale: String,
        /// short or long.
        #[arg(long, default_value = "short")]
        style: Style,
        /// Parse every announcement back; end with a summary line
        /// "games G, moves M, round-trip failures F" (exit 1 if F > 0).
        #[arg(long)]
        check: bool,
        /// PGN files.
        #[arg(required = true, value_name = "GAME.pgn")]
        files: Vec<PathBuf>,
    },
    /// List the built-in locales.
    Locales,
    /// A talking chess clock for a real board (FIDE Appendix D.2.6):
    /// keys press the clock for either side and ask for the times and the
    /// number of moves; announcements are printed and spoken. With --plain
    /// (or input from a pipe) it reads one command per line: press, press
    /// white, press black, time, moves, pause, resume, help, quit.
    ///
    /// Example: annabella clock --control 90m/40+30m+30s --locale de
    Clock(clock::ClockArgs),
    /// Speak a text, or moves (--move), to check voices and locales; or
    /// render it to a WAV file (--speak-to).
    ///
    /// Example: annabella say --locale de --move e4 e5 Nf3
    Say(say::SayArgs),
    /// Hear spoken moves offline (Vosk): from WAV files, one utterance
    /// each, or live from the microphone (--mic). Prints per file
    /// "move UCI SAN", "ask CANDIDATES", "command NAME" or
    /// "not-understood HEARD", each followed by the message for the player.
    ///
    /// Example: annabella listen --locale ko --model DIR move.wav
    Listen(listen::ListenArgs),
    /// Speech models: list, install (NAME, URL, zip file or folder),
    /// verify, remove.
    Models {
        /// Language of the messages (a locale code).
        #[arg(long, short, default_value = "en")]
        locale: String,
        #[command(subcommand)]
        action: models::ModelsAction,
    },
    /// Play a game on two boards (FIDE Appendix D): each move is made,
    /// announced, the clock pressed, then repeated and made on the other
    /// board; both scoresheets are kept, differences are reported at once
    /// and the arbiter corrects them. One event per line (see below), every
    /// event saved to the journal before it is announced.
    ///
    /// Example: annabella play --script game.txt --journal game.jsonl
    Play(play::PlayArgs),
    /// Continue a game from its journal after a stop or a crash: both
    /// boards, both scoresheets and the clock are restored exactly.
    Resume(resume::ResumeArgs),
    /// Print a journal's game as PGN (a board or a scoresheet) or its state
    /// as JSON.
    ///
    /// Example: annabella export --board black game.jsonl > game.pgn
    Export(export::ExportArgs),
}

/// Options shared by commands that start from a position.
#[derive(Debug, Args)]
struct GameArgs {
    /// Locale of the words (see `annabella locales`), or a path to a locale
    /// file (.toml).
    #[arg(long, short, default_value = "fide")]
    locale: String,
    /// Start position in FEN instead of the normal start position.
    #[arg(long)]
    fen: Option<String>,
    /// Chess960 (Fischer random chess): castling as in Guideline II, and
    /// castling in UCI written king-takes-rook (e.g. b1a1).
    #[arg(long)]
    chess960: bool,
}

/// An error for the user: one clear line; the process exits with 1.
#[derive(Debug)]
pub struct UserError(pub String);

/// Loads a locale by built-in code or from a `.toml` file.
pub fn load_locale(spec: &str) -> Result<Vocabulary, UserError> {
    let is_path = spec.ends_with(".toml") || spec.contains('/') || spec.contains('\\');
    if is_path {
        let text = std::fs::read_to_string(spec)
            .map_err(|e| UserError(format!("Cannot read locale file {spec}: {e}")))?;
        let mut loc = Locale::from_toml(spec, &text).map_err(|e| UserError(e.to_string()))?;
        locale::complete(&mut loc).map_err(|e| UserError(e.to_string()))?;
        return Ok(Vocabulary::new(loc));
    }
    if !locale::builtin_codes().contains(&spec) {
        let base = locale::builtin(locale::BASE_LOCALE).map_err(|e| UserError(e.to_string()))?;
        return Err(UserError(base.message(
            "error.unknown_locale",
            &[
                ("locale", spec),
                ("known", &locale::builtin_codes().join(", ")),
            ],
        )));
    }
    Vocabulary::builtin(spec).map_err(|e| UserError(e.to_string()))
}

/// Parses the command line and runs the command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = std::io::stdout().lock();
    let Some(command) = cli.command else {
        return ui::run(cli.play).unwrap_or_else(|UserError(msg)| {
            eprintln!("{msg}");
            ExitCode::FAILURE
        });
    };
    let result = match command {
        Command::Announce {
            game,
            style,
            spoken,
            moves,
        } => moves::announce(&mut out, &game, style, spoken, &moves),
        Command::Parse { game, tsv, phrase } => {
            if tsv {
                moves::parse_tsv(&mut out, &game)
            } else {
                moves::parse(&mut out, &game, &phrase.join(" "))
            }
        }
        Command::Replay {
            locale,
            style,
            check,
            files,
        } => moves::replay(&mut out, &locale, style, check, &files),
        Command::Locales => list_locales(&mut out),
        Command::Clock(args) => clock::run(&mut out, &args),
        Command::Say(args) => say::run(&mut out, &args),
        Command::Play(args) => play::run(&mut out, &args),
        Command::Resume(args) => resume::run(&mut out, &args),
        Command::Export(args) => export::run(&mut out, &args),
        Command::Listen(args) => listen::run(&mut out, &args),
        Command::Models { locale, action } => models::run(&mut out, &locale, &action),
    };
    let _ = out.flush();
    match result {
        Ok(code) => code,
        Err(UserError(msg)) => {
            eprintln!("{msg}");
            ExitCode::FAILURE
        }
    }
}

fn list_locales(out: &mut impl Write) -> Result<ExitCode, UserError> {
    for code in locale::builtin_codes() {
        let loc = locale::builtin(code).map_err(|e| UserError(e.to_string()))?;
        let line = format!("{}\t{}\t{}", loc.code, loc.language, loc.name);
        writeln!(out, "{line}").map_err(io_error)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn io_error(e: std::io::Error) -> UserError {
    UserError(format!("Cannot write the output: {e}"))
}
