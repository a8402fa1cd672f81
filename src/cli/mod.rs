//! Command-line adapter: argument parsing (clap) and the commands. Reads
//! files and standard input, prints results; the rules and words come from
//! the pure core.

mod clock;
pub mod error;
pub(crate) mod export;
mod help;
mod listen;
mod man;
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

use crate::locale::MsgKey;
use crate::locale::{self, Locale};
use crate::vocab::{Style, Vocabulary};
use error::LocaleFileError;

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
        /// result per line: the move as "UCI SAN", or "error: …".
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
    /// each, or live from the microphone (--mic). Prints per file one
    /// verdict: "move UCI SAN" (a move heard clearly), "ask CANDIDATES"
    /// (doubtful: asked about), "did-you-mean CANDIDATES" (a near miss,
    /// best first, answered by number, yes or no), "number N", "command
    /// NAME" or "not-understood HEARD", each followed by the message for
    /// the player; CANDIDATES are "UCI SAN" separated by commas.
    ///
    /// Example: annabella listen --locale ko --model DIR move.wav
    Listen(listen::ListenArgs),
    /// Speech models: list, install (NAME, URL, zip file or folder),
    /// verify, remove.
    Models {
        /// Language of the messages (a locale code, or a path to a locale
        /// file); by default the settings file's, else fide.
        #[arg(long, short, default_value = "fide")]
        locale: String,
        #[command(subcommand)]
        action: models::ModelsAction,
    },
    /// Play a game on two boards (FIDE Appendix D): each move is made,
    /// announced, the clock pressed, then repeated and made on the other
    /// board; both scoresheets are kept, differences are reported at once
    /// and the arbiter corrects them. One event per line (`annabella play
    /// --help` lists them), every event saved to the journal before it is
    /// announced.
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

pub use error::CliError;

/// Loads a locale by built-in code or from a `.toml` file (at most
/// [`locale::MAX_LOCALE_BYTES`]). Problems with a file are worded by the
/// base locale (the file's own words are what failed), naming the file, the
/// key and what is allowed.
pub fn load_locale(spec: &str) -> Result<Vocabulary, CliError> {
    load_locale_keeping_text(spec).map(|(v, _)| v)
}

/// Loads a locale by built-in code or from a `.toml` file, and returns the
/// file's text too (a journal keeps it, so the game replays anywhere).
pub fn load_locale_keeping_text(spec: &str) -> Result<(Vocabulary, Option<String>), CliError> {
    load_locale_in(spec, None)
}

/// [`load_locale_keeping_text`], with problems worded in `words` (when
/// given: the language of the command that asks, as `config set locale`)
/// instead of the base locale.
pub fn load_locale_in(
    spec: &str,
    words: Option<&Locale>,
) -> Result<(Vocabulary, Option<String>), CliError> {
    let is_path = spec.ends_with(".toml") || spec.contains('/') || spec.contains('\\');
    // Worded by `words` when given, else by the base locale.
    let words = |e: CliError| match words {
        Some(l) => e.worded_in(l),
        None => e.in_base(),
    };
    if is_path {
        let text = read_locale_file(spec).map_err(|error| {
            words(CliError::LocaleRead {
                file: spec.to_owned(),
                error,
            })
        })?;
        let vocab =
            Vocabulary::from_file_text(spec, &text).map_err(|e| words(CliError::LocaleFile(e)))?;
        return Ok((vocab, Some(text)));
    }
    if !locale::builtin_codes().contains(&spec) {
        return Err(words(CliError::UnknownLocale {
            locale: spec.to_owned(),
        }));
    }
    Vocabulary::builtin(spec)
        .map(|v| (v, None))
        .map_err(CliError::Locale)
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

/// The locale of a command line (for clap's help and refusals, before
/// it is parsed): `--locale`/`-l` as written, else the settings file's,
/// else fide (the one locale rule).
fn locale_of_bad_command_line() -> Option<Locale> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut given = None;
    for (i, a) in args.iter().enumerate() {
        if let Some((value, _)) = locale_option(a, args.get(i + 1).map(String::as_str)) {
            given = value;
        }
    }
    let file = settings::file_locale();
    [given, file]
        .into_iter()
        .flatten()
        .find_map(|code| load_locale(&code).ok().map(|v| v.locale().clone()))
        .or_else(|| locale::builtin("fide").ok())
        .or_else(|| locale::base().cloned())
}

/// The command line without its locale option when it asks clap's
/// `help` subcommand (`annabella help clock -l de`, `annabella models help
/// install --locale ko`): the locale has chosen the words of the help
/// already (see [`locale_of_bad_command_line`]), and clap's `help` would
/// take `-l` for the name of a command. Any other command line is left as
/// it is (`annabella say help -l de` says the word in German).
fn without_locale_after_help(
    mut cmd: &clap::Command,
    args: Vec<std::ffi::OsString>,
) -> Vec<std::ffi::OsString> {
    let mut at = 1;
    while let Some(name) = args.get(at).and_then(|a| a.to_str()) {
        if name == "help" && cmd.has_subcommands() {
            break;
        }
        match cmd.find_subcommand(name) {
            Some(sub) => cmd = sub,
            None => return args,
        }
        at += 1;
    }
    if at >= args.len() {
        return args;
    }
    let mut out: Vec<std::ffi::OsString> = args[..=at].to_vec();
    let mut i = at + 1;
    while let Some(a) = args.get(i) {
        let next = args.get(i + 1).and_then(|n| n.to_str());
        match a.to_str().and_then(|a| locale_option(a, next)) {
            Some((_, taken)) => i += taken,
            None => {
                out.push(a.clone());
                i += 1;
            }
        }
    }
    out
}

/// The locale option at `arg` (`--locale X`, `-l X`, `--locale=X`,
/// `-lX`): its value and how many arguments it takes (`next` is the
/// argument after it); `None` for any other argument.
fn locale_option(arg: &str, next: Option<&str>) -> Option<(Option<String>, usize)> {
    if arg == "--locale" || arg == "-l" {
        return Some((next.map(str::to_owned), 2));
    }
    let joined = arg
        .strip_prefix("--locale=")
        .or_else(|| arg.strip_prefix("-l").filter(|v| !v.is_empty()))?;
    Some((Some(joined.trim_start_matches('=').to_owned()), 1))
}

/// Prints clap's refusal of the command line in the user's language (its
/// own text is English) and exits with clap's code; help and the version
/// are clap's.
fn exit_with_clap_error(e: clap::Error) -> ! {
    use clap::error::{ContextKind, ContextValue, ErrorKind as K};
    if matches!(
        e.kind(),
        K::DisplayHelp | K::DisplayVersion | K::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit()
    }
    let Some(loc) = locale_of_bad_command_line() else {
        e.exit()
    };
    let text = |kind: ContextKind| -> String {
        match e.get(kind) {
            Some(ContextValue::String(s)) => s.clone(),
            Some(ContextValue::Strings(v)) => v.join(", "),
            Some(ContextValue::StyledStr(s)) => s.to_string(),
            Some(ContextValue::StyledStrs(v)) => v
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            Some(ContextValue::Number(n)) => n.to_string(),
            _ => String::new(),
        }
    };
    let arg = text(ContextKind::InvalidArg);
    let command = text(ContextKind::InvalidSubcommand);
    let mut line = match e.kind() {
        // An option of the play screen before a command's name
        // (`annabella -l de announce e4`): where it goes.
        K::ArgumentConflict if arg.trim().is_empty() && !command.is_empty() => {
            if Cli::command().find_subcommand(&command).is_some() {
                loc.message(
                    MsgKey::CliOptionBeforeCommand,
                    &[
                        ("option", &text(ContextKind::PriorArg)),
                        ("command", &command),
                    ],
                )
            } else {
                loc.message(MsgKey::CliUnknownSubcommand, &[("arg", &command)])
            }
        }
        // Nothing to name: clap's context is empty.
        K::UnknownArgument
        | K::InvalidValue
        | K::ValueValidation
        | K::MissingRequiredArgument
        | K::ArgumentConflict
        | K::TooManyValues
        | K::WrongNumberOfValues
        | K::TooFewValues
        | K::NoEquals
            if arg.trim().is_empty() =>
        {
            loc.message(MsgKey::CliOther, &[])
        }
        K::UnknownArgument => loc.message(MsgKey::CliUnknownArgument, &[("arg", &arg)]),
        K::InvalidSubcommand => loc.message(
            MsgKey::CliUnknownSubcommand,
            &[("arg", &text(ContextKind::InvalidSubcommand))],
        ),
        K::InvalidValue | K::ValueValidation | K::InvalidUtf8 => loc.message(
            MsgKey::CliBadValue,
            &[
                ("arg", &arg),
                ("value", &text(ContextKind::InvalidValue)),
                ("valid", &text(ContextKind::ValidValue)),
            ],
        ),
        K::MissingRequiredArgument => loc.message(MsgKey::CliMissing, &[("arg", &arg)]),
        K::ArgumentConflict => loc.message(
            MsgKey::CliConflict,
            &[("arg", &arg), ("other", &text(ContextKind::PriorArg))],
        ),
        K::TooManyValues | K::WrongNumberOfValues | K::TooFewValues | K::NoEquals => {
            loc.message(MsgKey::CliValues, &[("arg", &arg)])
        }
        K::MissingSubcommand => loc.message(MsgKey::CliMissingSubcommand, &[]),
        _ => loc.message(MsgKey::CliOther, &[]),
    };
    let suggested = [ContextKind::SuggestedArg, ContextKind::SuggestedSubcommand]
        .into_iter()
        .map(text)
        .find(|s| !s.is_empty());
    if let Some(s) = suggested {
        line.push(' ');
        line.push_str(&loc.message(MsgKey::CliSuggested, &[("suggestion", &s)]));
    }
    line.push(' ');
    line.push_str(&loc.message(MsgKey::CliHelp, &[]));
    eprintln!("{line}");
    std::process::exit(e.exit_code())
}

/// Parses the command line, applies the settings file (options given on
/// the command line win) and runs the command.
pub fn main() -> ExitCode {
    // `--help` in the locale of the command line (--locale, else the
    // settings file's, else fide).
    let command = match locale_of_bad_command_line() {
        Some(loc) => help::localized(Cli::command(), &loc),
        None => Cli::command(),
    };
    let args = without_locale_after_help(&command, std::env::args_os().collect());
    let matches = match command.try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => exit_with_clap_error(e),
    };
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
        return ui::run(cli.play).unwrap_or_else(|e| fail(&e));
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
            // One locale rule for every command: --locale, else the
            // settings file's, else fide.
            Command::Announce { game, .. } | Command::Parse { game, .. } => {
                settings::apply_locale(&mut game.locale, cfg, m)
            }
            Command::Replay { locale, .. } | Command::Models { locale, .. } => {
                settings::apply_locale(locale, cfg, m)
            }
            Command::Resume(a) => settings::apply_locale(&mut a.locale, cfg, m),
            Command::Export(a) => settings::apply_locale(&mut a.locale, cfg, m),
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
        Err(e) => fail(&e),
    }
}

/// Says `e` on standard error in the message locale of the command line
/// (`--locale`, else the settings file's, else fide) and gives the exit
/// code of a failure.
fn fail(e: &CliError) -> ExitCode {
    match locale_of_bad_command_line() {
        Some(l) => eprintln!("{}", e.describe(&l)),
        // No locale loads at all (a broken build): the error as data.
        None => eprintln!("{e:?}"),
    }
    ExitCode::FAILURE
}

fn list_locales(out: &mut impl Write) -> Result<ExitCode, CliError> {
    for code in locale::builtin_codes() {
        let loc = locale::builtin(code).map_err(CliError::Locale)?;
        let line = format!("{}\t{}\t{}", loc.code, loc.language, loc.name);
        writeln!(out, "{line}").map_err(io_error)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The manual page (roff) or a completion script, from the clap
/// definitions.
fn generate(out: &mut impl Write, what: &str) -> Result<ExitCode, CliError> {
    use clap_complete::Shell;
    let cmd = Cli::command();
    match what {
        "man" => {
            let page = man::page().map_err(io_error)?;
            out.write_all(page.as_bytes()).map_err(io_error)?;
        }
        "commands" => {
            let en = crate::locale::base().ok_or(CliError::GenerateNoBase)?;
            out.write_all(crate::commands::table::markdown(en).as_bytes())
                .map_err(io_error)?;
        }
        shell => {
            let shell: Shell = shell.parse().map_err(|_| CliError::GenerateUnknown {
                what: shell.to_owned(),
            })?;
            let mut cmd = completion_command(cmd);
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut cmd, "annabella", &mut script);
            let mut script = String::from_utf8_lossy(&script).into_owned();
            if shell == Shell::Bash {
                script = bash_fixes(&script);
            }
            out.write_all(script.as_bytes()).map_err(io_error)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The command line as completions offer it: without the hidden options
/// and subcommands (tests and `generate`); the locale options offer the
/// built-in locale codes, `config set` and `config unset` the setting keys.
fn completion_command(cmd: clap::Command) -> clap::Command {
    use clap::builder::PossibleValuesParser;
    fn visible(mut cmd: clap::Command, path: &str) -> clap::Command {
        cmd.build();
        let mut out = clap::Command::new(cmd.get_name().to_owned())
            .disable_help_flag(true)
            .disable_version_flag(true)
            .disable_help_subcommand(true);
        if let Some(about) = cmd.get_about() {
            out = out.about(about.clone());
        }
        if let Some(v) = cmd.get_version() {
            out = out.version(v.to_owned());
        }
        for a in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            let mut a = a.clone();
            let path = format!("{path} {}", cmd.get_name());
            if a.get_id() == "locale" {
                a = a.value_parser(PossibleValuesParser::new(locale::builtin_codes()));
            }
            if a.get_id() == "key"
                && (path.ends_with("config set") || path.ends_with("config unset"))
            {
                a = a.value_parser(PossibleValuesParser::new(
                    crate::config::Key::ALL.map(crate::config::Key::name),
                ));
            }
            out = out.arg(a);
        }
        let path = format!("{path} {}", cmd.get_name());
        for s in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            out = out.subcommand(visible(s.clone(), &path));
        }
        out
    }
    visible(cmd, "")
}

/// clap's bash script, made to offer a locale file (`.toml`) as well as a
/// locale code.
fn bash_fixes(script: &str) -> String {
    let codes = locale::builtin_codes().join(" ");
    let locale_words = format!("$(compgen -W \"{codes}\" -- \"${{cur}}\")");
    let with_files = format!("{locale_words} $(compgen -f -X '!*.toml' -- \"${{cur}}\")");
    script.replace(&locale_words, &with_files)
}

fn io_error(e: std::io::Error) -> CliError {
    CliError::Output(e)
}
