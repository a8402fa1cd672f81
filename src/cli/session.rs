//! Games and their journals, for every front end: a new game with a new
//! journal (one naming rule, never two games in one file), and a game
//! continued from its journal (replayed through the game layer, damage
//! reported, the old file never written again after damage). `play`,
//! `resume`, `export` and the play screen all come here.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::{UserError, load_locale};
use crate::game::Game;
use crate::game::script::ScriptVerbs;
use crate::journal::{self, Continues, Damage, Header, Loaded, ReadError, StoreError, Writer};
use crate::locale;
use crate::mirror::Config;
use crate::vocab::{Utterance, Vocabulary};

fn plain(s: impl Into<String>) -> Utterance {
    Utterance::plain(s)
}

fn file_arg(p: &Path) -> Utterance {
    plain(p.display().to_string())
}

/// "2026-11-21T22:15:00Z" now.
pub fn now_utc() -> String {
    let since = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    journal::utc_stamp(since).0
}

/// The locale a game is played in, as the journal keeps it: a built-in
/// code, or a locale file's text (carried in the journal, so the game can
/// be replayed wherever the journal goes).
pub fn locale_for_journal(spec: &str) -> Result<(Vocabulary, Option<String>), UserError> {
    super::load_locale_keeping_text(spec)
}

/// The words of a journal: its embedded locale file, else its built-in
/// locale.
pub fn vocabulary_of(
    header: &Header,
    path: &Path,
    ui: &Vocabulary,
) -> Result<Vocabulary, UserError> {
    match &header.locale_file {
        Some(text) => {
            let name = format!("{} ({})", header.locale, path.display());
            let loc = locale::from_file_text(&name, text)
                .map_err(|e| UserError(e.describe(ui.locale())))?;
            Ok(Vocabulary::new(loc))
        }
        None if locale::builtin_codes().contains(&header.locale.as_str()) => {
            load_locale(&header.locale)
        }
        None => Err(UserError(
            ui.message(
                "journal.unknown_locale",
                &[
                    ("file", &file_arg(path)),
                    ("locale", &plain(header.locale.clone())),
                ],
            )
            .display,
        )),
    }
}

/// The words of a journal-store refusal.
pub fn store_error(v: &Vocabulary, path: &Path, e: &StoreError) -> UserError {
    let file = file_arg(path);
    let text = match e {
        StoreError::Io(err) => v.message(
            "journal.open_failed",
            &[
                ("file", &file),
                (
                    "error",
                    &plain(crate::input::describe_io_error(v.locale(), err)),
                ),
            ],
        ),
        StoreError::Exists => v.message("journal.exists", &[("file", &file)]),
        StoreError::Locked { pid } => v.message(
            "journal.locked",
            &[
                ("file", &file),
                (
                    "pid",
                    &plain(pid.map(|p| p.to_string()).unwrap_or_else(|| "?".into())),
                ),
            ],
        ),
    };
    UserError(text.display)
}

/// Everything a new game's journal header needs.
#[derive(Debug, Clone, Default)]
pub struct NewGame {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The time control (annabella's text form).
    pub control: String,
    /// A start position, if not the standard one.
    pub fen: Option<String>,
    /// Chess960.
    pub chess960: bool,
    /// The locale as given (a code or a file).
    pub locale: String,
    /// The announcement style.
    pub style: crate::vocab::Style,
    /// PGN event.
    pub event: String,
    /// PGN site.
    pub site: String,
    /// Guideline III announced for this game.
    pub quickplay: bool,
    /// Rapid or blitz without adequate supervision (A.5.2, B.3).
    /// (Also Guideline III.6: a draw claim concludes the game.)
    pub unsupervised: bool,
    /// Practice: the legality of a player's own move is told before the
    /// press (a tournament game by default).
    pub practice: bool,
    /// The sighted player (D.2.5), if named.
    pub sighted: Option<crate::game::Side>,
}

/// A new game and its new journal: `journal` if given (never an existing
/// file), else a fresh name in the data folder.
pub fn start(spec: &NewGame, journal: Option<&Path>) -> Result<(Game, Writer), UserError> {
    let (vocab, locale_file) = locale_for_journal(&spec.locale)?;
    let created = now_utc();
    let header = Header {
        format: journal::FORMAT.to_owned(),
        version: journal::VERSION,
        created: created.clone(),
        white: spec.white.clone(),
        black: spec.black.clone(),
        control: spec.control.clone(),
        fen: spec.fen.clone(),
        chess960: spec.chess960,
        locale: vocab.locale().code.clone(),
        locale_file,
        style: spec.style,
        event: spec.event.clone(),
        site: spec.site.clone(),
        continues: None,
        quickplay: spec.quickplay,
        unsupervised: spec.unsupervised,
        practice: spec.practice,
        sighted: spec.sighted,
    };
    let config: Config = journal::config_of(&header).map_err(UserError)?;
    let writer = match journal {
        Some(p) => Writer::create(p, &header, &[]).map_err(|e| store_error(&vocab, p, &e))?,
        None => {
            let dir = journal::default_dir()
                .ok_or_else(|| UserError(vocab.message("play.no_data_dir", &[]).display))?;
            let clean = |s: &str| {
                s.chars()
                    .map(|c| if c.is_alphanumeric() { c } else { '_' })
                    .collect::<String>()
            };
            let mut stem = created
                .replace([':', '-'], "")
                .replace('T', "-")
                .replace('Z', "");
            for n in [&spec.white, &spec.black] {
                if !n.is_empty() {
                    stem.push('-');
                    stem.push_str(&clean(n));
                }
            }
            Writer::create_unique(&dir, &stem, &header, &[])
                .map_err(|e| store_error(&vocab, &dir, &e))?
        }
    };
    Ok((Game::new(vocab, config, Duration::ZERO), writer))
}

/// A journal read and replayed, for reading only (export, review).
#[derive(Debug)]
pub struct Read {
    /// What the file holds (the good part).
    pub loaded: Loaded,
    /// The replayed game.
    pub game: Game,
    /// A note about damage (a torn last line, a damaged line in the
    /// middle, records that do not replay), if any.
    pub note: Option<Utterance>,
    /// How many records replayed (all of `loaded.records` unless the note
    /// says otherwise).
    pub replayed: usize,
    /// Where the first damage is: the 1-based line, if any.
    damaged_at: Option<usize>,
}

fn reason(v: &Vocabulary, damage: Damage) -> Utterance {
    let key = match damage {
        Damage::Checksum => "journal.reason.checksum",
        Damage::Syntax => "journal.reason.syntax",
        Damage::Chain => "journal.reason.chain",
    };
    v.message(key, &[])
}

fn read_error(path: &Path, e: ReadError, ui: &Vocabulary) -> UserError {
    let file = file_arg(path);
    let text = match e {
        ReadError::Io(err) => ui.message(
            "journal.open_failed",
            &[
                ("file", &file),
                (
                    "error",
                    &plain(crate::input::describe_io_error(ui.locale(), &err)),
                ),
            ],
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
        ReadError::Corrupt { damage, .. } => reason(ui, damage),
    };
    UserError(text.display)
}

/// Reads a journal and replays as much of it as replays: the good lines
/// (up to damage), and of those the records up to the first that the game
/// refuses (time going backwards, an illegal move, …). What was cut off is
/// said in the note; nothing on disk changes.
pub fn read(path: &Path, ui: &Vocabulary) -> Result<Read, UserError> {
    let (loaded, damage) = match journal::read(path) {
        Ok(l) => (l, None),
        Err(ReadError::Corrupt { line, damage, good }) => (*good, Some((line, damage))),
        Err(e) => return Err(read_error(path, e, ui)),
    };
    let vocab = vocabulary_of(&loaded.header, path, ui)?;
    let config = journal::config_of(&loaded.header).map_err(|e| {
        UserError(
            vocab
                .message(
                    "journal.bad_header",
                    &[("file", &file_arg(path)), ("error", &plain(e))],
                )
                .display,
        )
    })?;
    let (game, replayed, stopped) =
        match Game::replay(vocab.clone(), config.clone(), &loaded.records) {
            Ok(g) => (g, loaded.records.len(), None),
            Err((i, e)) => {
                let good = Game::replay(vocab.clone(), config, &loaded.records[..i])
                    .map_err(|_| UserError(vocab.message("journal.reason.syntax", &[]).display))?;
                (good, i, Some((i, e)))
            }
        };
    let verbs = ScriptVerbs;
    let words = game.wording(&verbs);
    let last = words.last_move(game.mirror());
    // Record i is on line i + 2 (the header is line 1).
    let (note, damaged_at) = match (stopped, damage, loaded.torn) {
        (Some((i, e)), _, _) => (
            Some(vocab.message(
                "journal.replay_failed",
                &[
                    ("file", &file_arg(path)),
                    ("line", &plain((i + 2).to_string())),
                    ("error", &words.error(&e)),
                    ("last", &last),
                ],
            )),
            Some(i + 2),
        ),
        (None, Some((line, damage)), _) => (
            Some(vocab.message(
                "journal.corrupt",
                &[
                    ("file", &file_arg(path)),
                    ("line", &plain(line.to_string())),
                    ("reason", &reason(&vocab, damage)),
                    ("last", &last),
                ],
            )),
            Some(line),
        ),
        (None, None, Some(line)) => (
            Some(vocab.message(
                "journal.torn_read",
                &[
                    ("file", &file_arg(path)),
                    ("line", &plain(line.to_string())),
                    ("last", &last),
                ],
            )),
            None,
        ),
        (None, None, None) => (None, None),
    };
    Ok(Read {
        loaded,
        game,
        note,
        replayed,
        damaged_at,
    })
}

/// A game continued from its journal.
#[derive(Debug)]
pub struct Continued {
    /// The game, replayed.
    pub game: Game,
    /// Where it goes on: the same journal, or a new one after damage.
    pub writer: Writer,
    /// The last script line already in the journal.
    pub done_line: u64,
    /// What to say first (damage and where the game goes on, then the
    /// state), in the journal's words.
    pub said: Vec<Utterance>,
}

/// Continues the game in the journal `path`. A torn last line is dropped
/// and the game goes on in a new journal next to it; damage in the middle,
/// or records that do not replay, stop with the last good move, unless
/// `from_good`: then the game goes on from the last record that replays,
/// in a new journal. The old file is never written again after damage.
pub fn resume(path: &Path, from_good: bool, ui: &Vocabulary) -> Result<Continued, UserError> {
    let r = read(path, ui)?;
    let vocab = r.game.mirror().vocab().clone();
    let mut said = Vec::new();
    let damaged = r.damaged_at.is_some();
    if damaged && !from_good {
        return Err(UserError(r.note.map(|n| n.display).unwrap_or_default()));
    }
    let records = &r.loaded.records[..r.replayed];
    let writer = if damaged || r.loaded.torn.is_some() {
        let new = journal::continuation_path(path);
        let mut header = r.loaded.header.clone();
        header.version = journal::VERSION;
        header.continues = Some(Continues {
            file: path.display().to_string(),
            records: records.len(),
        });
        let w =
            Writer::create(&new, &header, records).map_err(|e| store_error(&vocab, &new, &e))?;
        let last = r.game.wording(&ScriptVerbs).last_move(r.game.mirror());
        said.push(match (r.damaged_at, r.loaded.torn) {
            (None, Some(line)) => vocab.message(
                "journal.torn_tail",
                &[
                    ("file", &file_arg(path)),
                    ("line", &plain(line.to_string())),
                    ("last", &last),
                    ("new", &file_arg(&new)),
                ],
            ),
            _ => vocab.message(
                "journal.salvaged",
                &[
                    ("file", &file_arg(path)),
                    ("new", &file_arg(&new)),
                    ("events", &plain(records.len().to_string())),
                ],
            ),
        });
        w
    } else {
        Writer::append_to(path, &r.loaded).map_err(|e| store_error(&vocab, path, &e))?
    };
    let done_line = records.iter().filter_map(|r| r.line).max().unwrap_or(0);
    let state = r.game.wording(&ScriptVerbs).state_line(r.game.mirror());
    said.push(vocab.message(
        "journal.resumed",
        &[
            ("file", &file_arg(writer.path())),
            ("events", &plain(records.len().to_string())),
            ("state", &state),
        ],
    ));
    Ok(Continued {
        game: r.game,
        writer,
        done_line,
        said,
    })
}

/// The journal to continue by default: the most recent one in the data
/// folder.
pub fn latest(ui: &Vocabulary) -> Result<PathBuf, UserError> {
    let dir = journal::default_dir()
        .ok_or_else(|| UserError(ui.message("play.no_data_dir", &[]).display))?;
    journal::latest_in(&dir).ok_or_else(|| {
        UserError(
            ui.message("play.no_journal", &[("folder", &file_arg(&dir))])
                .display,
        )
    })
}
