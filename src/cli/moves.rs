//! `announce`, `parse` and `replay`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess};

use super::error::MoveRefused;
use super::{CliError, GameArgs, io_error, load_locale};
use crate::input::Line;
use crate::locale::MsgKey;
use crate::pgn::{PgnMoveError, PgnProblem, PgnReadError, START_FEN, read_fen, read_games};
use crate::rules::{GameKind, Match};
use crate::vocab::{ParseError, Style, Utterance, Vocabulary};

fn mode_of(chess960: bool) -> CastlingMode {
    if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

pub(super) fn start_position(
    vocab: &Vocabulary,
    fen: Option<&str>,
    mode: CastlingMode,
) -> Result<Chess, CliError> {
    match fen {
        None => Ok(Chess::default()),
        Some(fen) => read_fen(fen, mode).map_err(|error| {
            CliError::msg(MsgKey::ErrorBadFen)
                .cause("error", error)
                .arg("example", START_FEN)
                .worded_in(vocab.locale())
        }),
    }
}

/// Move `i` (0-based) of a command line, `text`, is not a legal move of
/// `position`: in the words of `vocab`.
pub fn bad_move(
    vocab: &Vocabulary,
    i: usize,
    text: &str,
    position: &Chess,
    error: ParseError,
) -> CliError {
    CliError::msg(MsgKey::ErrorBadMove)
        .arg("number", (i + 1).to_string())
        .arg("move", text)
        .cause(
            "reason",
            MoveRefused {
                position: position.clone(),
                error,
            },
        )
        .worded_in(vocab.locale())
}

fn line(out: &mut impl Write, text: &str) -> Result<(), CliError> {
    writeln!(out, "{text}").map_err(io_error)
}

/// `annabella announce`.
pub fn announce(
    out: &mut impl Write,
    game: &GameArgs,
    style: Style,
    spoken: bool,
    moves: &[String],
) -> Result<ExitCode, CliError> {
    let vocab = load_locale(&game.locale)?;
    let mode = mode_of(game.chess960);
    let start = start_position(&vocab, game.fen.as_deref(), mode)?;
    let mut play = Match::new(start, mode, GameKind::Standard);
    for (i, text) in moves.iter().enumerate() {
        let pos = play.position().clone();
        let m = vocab
            .parse(&pos, mode, text)
            .map_err(|error| bad_move(&vocab, i, text, &pos, error))?;
        let said = vocab.announce(&pos, m, style);
        let text = if spoken {
            said.spoken
        } else {
            vocab.for_display(&said.display)
        };
        line(out, &text)?;
        if let Ok(Some(result)) = play.play(m) {
            let r = vocab.describe_result(&result);
            line(
                out,
                &if spoken {
                    r.spoken
                } else {
                    vocab.for_display(&r.display)
                },
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn uci_and_san(pos: &Chess, m: shakmaty::Move, mode: CastlingMode) -> (String, String) {
    (
        m.to_uci(mode).to_string(),
        SanPlus::from_move(pos.clone(), m).to_string(),
    )
}

/// `annabella parse PHRASE`.
pub fn parse(out: &mut impl Write, game: &GameArgs, phrase: &str) -> Result<ExitCode, CliError> {
    let vocab = load_locale(&game.locale)?;
    let mode = mode_of(game.chess960);
    let pos = start_position(&vocab, game.fen.as_deref(), mode)?;
    match vocab.parse(&pos, mode, phrase) {
        Ok(m) => {
            let (uci, san) = uci_and_san(&pos, m, mode);
            line(out, &format!("{uci} {san}"))?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => Err(CliError::typed(MoveRefused {
            position: pos,
            error,
        })
        .isolated()
        .worded_in(vocab.locale())),
    }
}

/// `annabella parse --tsv`: `FEN<TAB>PHRASE` lines on standard input, one
/// result line per input line (also for a blank or too long one), so that
/// the output lines up with the input.
pub fn parse_tsv(out: &mut impl Write, game: &GameArgs) -> Result<ExitCode, CliError> {
    let vocab = load_locale(&game.locale)?;
    let mode = mode_of(game.chess960);
    let stdin = std::io::stdin();
    let start = Chess::default();
    for input in crate::input::lines(stdin.lock()) {
        let input = input.map_err(|e| {
            CliError::msg(MsgKey::InputReadFailed)
                .cause("error", e)
                .worded_in(vocab.locale())
        })?;
        let result = match input {
            Line::TooLong => crate::input::TooLong::Line.describe(vocab.locale()),
            Line::Text(text) if text.trim().is_empty() => {
                vocab.describe_error(&start, &ParseError::Empty).display
            }
            Line::Text(text) => match text.split_once('\t') {
                None => vocab.locale().message(MsgKey::TsvNoTab, &[]),
                Some((fen, phrase)) => match start_position(&vocab, Some(fen), mode) {
                    Err(e) => e.describe(vocab.locale()),
                    Ok(pos) => match vocab.parse(&pos, mode, phrase) {
                        Ok(m) => {
                            let (uci, san) = uci_and_san(&pos, m, mode);
                            line(out, &format!("{uci} {san}"))?;
                            continue;
                        }
                        Err(e) => vocab.describe_error(&pos, &e).display,
                    },
                },
            },
        };
        // A fixed, machine-readable prefix, the same in every locale.
        line(out, &format!("error: {result}"))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `annabella replay`.
pub fn replay(
    out: &mut impl Write,
    locale: &str,
    style: Style,
    check: bool,
    files: &[PathBuf],
) -> Result<ExitCode, CliError> {
    let vocab = load_locale(locale)?;
    let plain = |s: String| Utterance::plain(s);
    let (mut games, mut moves, mut failures, mut problems) = (0usize, 0usize, 0usize, 0usize);
    for path in files {
        let name = path.display().to_string();
        let read = crate::fsutil::open_regular(path)
            .map_err(|e| PgnReadError::Io(e.into()))
            .and_then(read_games);
        let pgn_games = match read {
            Ok(g) if g.is_empty() => {
                let msg = vocab.message(MsgKey::ErrorPgnNoGame, &[("file", &plain(name.clone()))]);
                eprintln!("{}", vocab.for_display(&msg.display));
                problems += 1;
                continue;
            }
            Ok(g) => g,
            Err(e) => {
                let msg = vocab.message(
                    MsgKey::ErrorPgnRead,
                    &[
                        ("file", &plain(name.clone())),
                        ("error", &plain(e.describe(vocab.locale()))),
                    ],
                );
                eprintln!("{}", vocab.for_display(&msg.display));
                problems += 1;
                continue;
            }
        };
        for game in pgn_games {
            games += 1;
            let header = |k: &str| plain(game.header(k).unwrap_or("?").to_owned());
            let title = vocab.message(
                MsgKey::ReplayGame,
                &[
                    ("game", &plain(games.to_string())),
                    ("white", &header("White")),
                    ("black", &header("Black")),
                ],
            );
            line(out, &vocab.for_display(&title.display))?;
            let replayed = match game.replay() {
                Ok(r) => r,
                Err(error) => {
                    let msg = vocab.message(
                        MsgKey::ErrorBadFen,
                        &[
                            ("error", &plain(error.describe(vocab.locale()))),
                            ("example", &plain(START_FEN.into())),
                        ],
                    );
                    eprintln!("{name}: {}", vocab.for_display(&msg.display));
                    problems += 1;
                    continue;
                }
            };
            for (i, (pos, m)) in replayed.steps().enumerate() {
                // Numbered from the start position, so that null moves
                // (which do not advance shakmaty's move counter) keep the
                // numbering.
                let number = replayed.move_number(i);
                let Some(m) = m else {
                    let msg = vocab.message(MsgKey::ReplayNullMove, &[("number", &plain(number))]);
                    line(out, &vocab.for_display(&msg.display))?;
                    continue;
                };
                let said = vocab.announce(&pos, m, style);
                line(
                    out,
                    &vocab.for_display(&format!("{number} {}", said.display)),
                )?;
                moves += 1;
                if check {
                    for text in [&said.display, &said.spoken] {
                        let back = vocab.parse(&pos, replayed.mode, text);
                        if back != Ok(m) {
                            failures += 1;
                            let got = match back {
                                Ok(other) => vocab.announce(&pos, other, Style::Long),
                                Err(e) => vocab.describe_error(&pos, &e),
                            };
                            let san = SanPlus::from_move(pos.clone(), m).to_string();
                            let msg = vocab.message(
                                MsgKey::ReplayRoundtripFailure,
                                &[
                                    ("game", &plain(games.to_string())),
                                    ("number", &plain((i + 1).to_string())),
                                    ("san", &plain(san)),
                                    ("words", &plain(text.clone())),
                                    ("got", &got),
                                ],
                            );
                            eprintln!("{}", msg.display);
                            break;
                        }
                    }
                }
            }
            // Cut short: no result marker, and nothing else stopped the
            // replay first (move text cut in half is unreadable too).
            let unreadable = |e: &PgnMoveError| e.problem == PgnProblem::Unreadable;
            if !game.terminated && replayed.error.as_ref().is_none_or(unreadable) {
                let msg = vocab.message(
                    MsgKey::ErrorPgnUnterminated,
                    &[
                        ("file", &plain(name.clone())),
                        ("game", &plain(games.to_string())),
                        ("moves", &plain(replayed.moves.len().to_string())),
                    ],
                );
                eprintln!("{}", vocab.for_display(&msg.display));
                problems += 1;
            }
            if let Some(msg) = replayed.describe_error(&vocab, &name, games) {
                eprintln!("{}", vocab.for_display(&msg.display));
                problems += 1;
            }
        }
    }
    if check {
        // A fixed, machine-readable line (like `UCI SAN` from `parse`), the
        // same in every locale.
        line(
            out,
            &format!("games {games}, moves {moves}, round-trip failures {failures}"),
        )?;
    }
    Ok(if failures > 0 || problems > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
