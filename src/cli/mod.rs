//! Command-line adapter: argument parsing (clap) and the commands. Reads
//! files and standard input, prints results; the rules and words come from
//! the pure core.

mod clock;
pub(crate) mod export;
mod listen;
mod models;
mod moves;
mod play;
mod resume;
pub mod review;
mod say;
mod session;
pub mod settings;
mod ui;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};

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
    play: ui::ScreenArgs,
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
    /// Go through a finished game by ear (a PGN file or a journal): step
    /// forward and back, jump to a move, the last five moves, board
    /// questions, comments, clock times and an engine's evaluation. Keys
    /// on the full screen, one command per line with --plain.
    ///
    /// Example: annabella review --plain game.pgn
    Review(review::ReviewArgs),
    /// The settings file (~/.config/annabella/config.toml): without a
    /// subcommand, where it is, what is in force and where each value
    /// comes from (default, file, command line: give the play screen's
    /// options to see their effect); `set KEY VALUE`, `unset KEY`, `keys`.
    ///
    /// Example: annabella config set rate 20
    Config(settings::ConfigArgs),
    /// Writes the manual page or a shell completion script (used by
    /// `make install`), or the command table in Markdown (the README's).
    #[command(hide = true)]
    Generate {
        /// `man` (the page, to standard output), `commands` (the command
        /// table, Markdown), or a shell: bash, zsh, fish.
        what: String,
    },
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

/// Loads a locale by built-in code or from a `.toml` file (at most
/// [`locale::MAX_LOCALE_BYTES`]). Problems with a file are worded by the
/// base locale (the file's own words are what failed), naming the file, the
/// key and what is allowed.
pub fn load_locale(spec: &str) -> Result<Vocabulary, UserError> {
    load_locale_keeping_text(spec).map(|(v, _)| v)
}

/// Loads a locale by built-in code or from a `.toml` file, and returns the
/// file's text too (a journal keeps it, so the game replays anywhere).
pub fn load_locale_keeping_text(spec: &str) -> Result<(Vocabulary, Option<String>), UserError> {
    let is_path = spec.ends_with(".toml") || spec.contains('/') || spec.contains('\\');
    let base = || locale::base().ok_or_else(|| UserError(String::new()));
    if is_path {
        let text = read_locale_file(spec).map_err(|error| {
            base().map_or_else(
                |e| e,
                |l| {
                    UserError(l.message(
                        "locale.read_failed",
                        &[("file", spec), ("error", &error.describe(l))],
                    ))
                },
            )
        })?;
        let loc = locale::from_file_text(spec, &text)
            .map_err(|e| base().map_or_else(|e| e, |l| UserError(e.describe(l))))?;
        return Ok((Vocabulary::new(loc), Some(text)));
    }
    if !locale::builtin_codes().contains(&spec) {
        let base = base()?;
        return Err(UserError(base.message(
            "error.unknown_locale",
            &[
                ("locale", spec),
                ("known", &locale::builtin_codes().join(", ")),
            ],
        )));
    }
    Vocabulary::builtin(spec)
        .map(|v| (v, None))
        .map_err(|e| UserError(e.to_string()))
}

/// Why a locale file could not be read.
enum LocaleFileError {
    Io(std::io::Error),
    TooLarge,
}

impl LocaleFileError {
    fn describe(&self, l: &Locale) -> String {
        match self {
            LocaleFileError::Io(e) => crate::input::describe_io_error(l, e),
            LocaleFileError::TooLarge => l.message(
                "locale.too_large",
                &[("limit", &(locale::MAX_LOCALE_BYTES / 1024).to_string())],
            ),
        }
    }
}

/// The text of a locale file, read up to its size limit.
fn read_locale_file(path: &str) -> Result<String, LocaleFileError> {
    use std::io::Read;
    // Only a regular file: a FIFO or a device is refused at once.
    let file = crate::fsutil::open_regular(std::path::Path::new(path))
        .map_err(|e| LocaleFileError::Io(e.into()))?;
    let mut bytes = Vec::new();
    file.take(locale::MAX_LOCALE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(LocaleFileError::Io)?;
    if bytes.len() as u64 > locale::MAX_LOCALE_BYTES {
        return Err(LocaleFileError::TooLarge);
    }
    String::from_utf8(bytes)
        .map_err(|_| LocaleFileError::Io(std::io::Error::from(std::io::ErrorKind::InvalidData)))
}

/// Parses the command line, applies the settings file (options given on
/// the command line win) and runs the command.
pub fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    let sub: Option<&ArgMatches> = matches.subcommand().map(|(_, m)| m);
    let start = settings::startup(sub.or(Some(&matches)));
    if let Some(w) = &start.warning {
        eprintln!("{w}");
    }
    let cfg = &start.config;
    let mut out = std::io::stdout().lock();
    let notices: Vec<String> = start.warning.iter().cloned().collect();
    let Some(mut command) = cli.command.take() else {
        settings::apply_play_screen(&mut cli.play, cfg, &matches);
        cli.play.notices = notices;
        return ui::run(cli.play).unwrap_or_else(|UserError(msg)| {
            eprintln!("{msg}");
            ExitCode::FAILURE
        });
    };
    if let Some(m) = sub {
        match &mut command {
            Command::Clock(a) => settings::apply_clock(a, cfg, m),
            Command::Say(a) => settings::apply_say(a, cfg, m),
            Command::Play(a) => settings::apply_play(a, cfg, m),
            Command::Listen(a) => settings::apply_listen(a, cfg, m),
            Command::Review(a) => {
                settings::apply_review(a, cfg, m);
                a.notices = notices;
            }
            _ => {}
        }
    }
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
        Command::Review(args) => review::run(&mut out, &args),
        Command::Config(args) => match sub {
            Some(m) => settings::run(&mut out, &args, m, &start),
            None => Ok(ExitCode::FAILURE),
        },
        Command::Generate { what } => generate(&mut out, &what),
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

/// The manual page (roff) or a completion script, from the clap
/// definitions.
fn generate(out: &mut impl Write, what: &str) -> Result<ExitCode, UserError> {
    use clap_complete::Shell;
    let mut cmd = Cli::command();
    match what {
        "man" => {
            clap_mangen::Man::new(cmd).render(out).map_err(io_error)?;
            out.write_all(play_screen_section().as_bytes())
                .map_err(io_error)?;
        }
        "commands" => {
            let en = crate::locale::base()
                .ok_or_else(|| UserError("generate: the base locale does not load".to_owned()))?;
            out.write_all(crate::commands::table::markdown(en).as_bytes())
                .map_err(io_error)?;
        }
        shell => {
            let shell: Shell = shell
                .parse()
                .map_err(|_| UserError(format!("generate: man, bash, zsh or fish, not {shell}")))?;
            clap_complete::generate(shell, &mut cmd, "annabella", out);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The manual page's section on the play screen's commands: every typed
/// command of the command table with its English words and help line.
fn play_screen_section() -> String {
    use crate::commands::{Cmd, Menu};
    let Some(en) = crate::locale::base() else {
        return String::new();
    };
    let esc = |s: &str| s.replace('\\', "\\e").replace('-', "\\-");
    let mut out = String::from(".SH \"PLAY SCREEN COMMANDS\"\n");
    out.push_str(&esc(&en.message("man.commands_intro", &[])));
    out.push('\n');
    for (title, menu) in [
        ("man.commands_game", Menu::Game),
        ("man.commands_arbiter", Menu::Arbiter),
        ("man.commands_answers", Menu::Answer),
    ] {
        out.push_str(&format!(".SS \"{}\"\n", esc(&en.message(title, &[]))));
        for cmd in Cmd::listed(menu) {
            let words = en.message(cmd.message_key(), &[]).replace('|', ", ");
            out.push_str(&format!(
                ".TP\n\\fB{}\\fR\n{}\n",
                esc(&words),
                esc(&en.message(cmd.help_key(), &[]))
            ));
        }
    }
    out
}

fn io_error(e: std::io::Error) -> UserError {
    UserError(format!("Cannot write the output: {e}"))
}
