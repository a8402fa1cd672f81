//! Games and their journals, for every front end: a new game with a new
//! journal (one naming rule, never two games in one file), and a game
//! continued from its journal (replayed through the game layer, damage
//! reported, the old file never written again after damage). `play`,
//! `resume`, `export` and the play screen all come here.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::error::Arg;
use super::{CliError, load_locale};
use crate::commands::{Cmd, CommandWords};
use crate::game::Game;
use crate::game::script::ScriptVerbs;
use crate::journal::{
    self, Continues, Damage, Header, Loaded, Mend, ReadError, StoreError, Writer,
};
use crate::locale;
use crate::locale::MsgKey;
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
pub fn locale_for_journal(spec: &str) -> Result<(Vocabulary, Option<String>), CliError> {
    super::load_locale_keeping_text(spec)
}

/// The words of a journal: its embedded locale file, else its built-in
/// locale.
pub fn vocabulary_of(
    header: &Header,
    path: &Path,
    ui: &Vocabulary,
) -> Result<Vocabulary, CliError> {
    match &header.locale_file {
        Some(text) => {
            let name = format!("{} ({})", header.locale, path.display());
            // The journal's own locale is read as it was written (its
            // game stays readable and exportable even if the locale
            // checker of a later version would refuse the file).
            let loc = locale::from_file_text(&name, text)
                .map_err(|e| CliError::LocaleFile(e).worded_in(ui.locale()))?;
            Ok(Vocabulary::new(loc))
        }
        None if locale::builtin_codes().contains(&header.locale.as_str()) => {
            load_locale(&header.locale)
        }
        None => Err(CliError::msg(MsgKey::JournalUnknownLocale)
            .arg("file", path.display().to_string())
            .arg("locale", header.locale.as_str())
            .worded_in(ui.locale())),
    }
}

/// The words of a journal-store refusal.
pub fn store_error(v: &Vocabulary, path: &Path, e: StoreError) -> CliError {
    let message = |key: MsgKey| CliError::msg(key).arg("file", path.display().to_string());
    let refused = match e {
        StoreError::Io(err) => message(MsgKey::JournalOpenFailed).cause("error", err),
        StoreError::Exists => message(MsgKey::JournalExists),
        StoreError::Changed => message(MsgKey::JournalChanged),
        StoreError::Locked { pid } => message(MsgKey::JournalLocked).arg(
            "pid",
            pid.map(|p| p.to_string()).unwrap_or_else(|| "?".into()),
        ),
    };
    refused.worded_in(v.locale())
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
pub fn start(spec: &NewGame, journal: Option<&Path>) -> Result<(Game, Writer), CliError> {
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
    let config: Config =
        journal::config_of(&header).map_err(|e| CliError::typed(e).worded_in(vocab.locale()))?;
    let writer = match journal {
        Some(p) => Writer::create(p, &header, &[]).map_err(|e| store_error(&vocab, p, e))?,
        None => {
            let dir = journal::default_dir()
                .ok_or_else(|| CliError::msg(MsgKey::PlayNoDataDir).worded_in(vocab.locale()))?;
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
            // Long names (two players' of 58 Greek letters) must not make
            // the file name longer than a file system allows.
            let stem = journal::cut_to_bytes(&stem, journal::NAME_MAX - journal::STEM_ROOM);
            Writer::create_unique(&dir, stem, &header, &[])
                .map_err(|e| store_error(&vocab, &dir, e))?
        }
    };
    Ok((Game::new(vocab, config, Duration::ZERO), writer))
}

/// A journal read and replayed, for reading only (export, review).
#[derive(Debug)]
pub struct Read {
    /// What the file holds (what could be recovered, and what was wrong).
    pub loaded: Loaded,
    /// The replayed game.
    pub game: Game,
    /// What to tell about the file: lines mended, where the game stops, a
    /// torn last line (empty for an intact journal).
    pub notes: Vec<Utterance>,
    /// How many records replayed (all of `loaded.records` unless the notes
    /// say otherwise).
    pub replayed: usize,
    /// Records of the file are not in the game (damage, or records that do
    /// not replay); a torn last line, never announced, does not count.
    pub drops: bool,
}

fn reason(v: &Vocabulary, damage: Damage) -> Utterance {
    let key = match damage {
        Damage::Checksum => MsgKey::JournalReasonChecksum,
        Damage::Syntax => MsgKey::JournalReasonSyntax,
        Damage::Chain => MsgKey::JournalReasonChain,
    };
    v.message(key, &[])
}

fn read_error(path: &Path, e: ReadError, ui: &Vocabulary) -> CliError {
    let message = |key: MsgKey| CliError::msg(key).arg("file", path.display().to_string());
    let not_journal = |reason: MsgKey| {
        message(MsgKey::JournalNotJournal).arg("reason", Arg::Message(reason, Vec::new()))
    };
    let refused = match e {
        ReadError::Io(err) => message(MsgKey::JournalOpenFailed).cause("error", err),
        ReadError::Empty => not_journal(MsgKey::JournalReasonEmpty),
        ReadError::NotJournal => not_journal(MsgKey::JournalReasonHeader),
        ReadError::BadVersion(found) => message(MsgKey::JournalBadVersion)
            .arg("found", found.to_string())
            .arg("expected", journal::VERSION.to_string()),
    };
    refused.worded_in(ui.locale())
}

/// One line saying which lines were mended and how (`None`: none were).
fn mended_note(v: &Vocabulary, path: &Path, l: &Loaded) -> Option<Utterance> {
    let mut parts: Vec<String> = l
        .mended
        .iter()
        .map(|m| {
            let key = match m.how {
                Mend::Restored => MsgKey::JournalMendRestored,
                Mend::Duplicate => MsgKey::JournalMendDuplicate,
                Mend::Moved => MsgKey::JournalMendMoved,
            };
            v.message(key, &[("line", &plain(m.line.to_string()))])
                .display
        })
        .collect();
    // Unreadable lines the game did not need (extra lines between whole
    // records).
    let end = l.gap.map_or(usize::MAX, |g| g.line);
    parts.extend(l.unreadable.iter().filter(|d| d.line < end).map(|d| {
        v.message(
            MsgKey::JournalMendUnreadable,
            &[
                ("line", &plain(d.line.to_string())),
                ("reason", &reason(v, d.damage)),
            ],
        )
        .display
    }));
    if parts.is_empty() {
        return None;
    }
    Some(v.message(
        MsgKey::JournalMended,
        &[
            ("file", &file_arg(path)),
            ("lines", &plain(parts.join("; "))),
        ],
    ))
}

/// Reads a journal and replays as much of it as replays: the records
/// recovered (see [`journal::parse`]), and of those the records up to the
/// first that the game refuses (time going backwards, an illegal move, …).
/// What was mended or cut off is said in the notes; nothing on disk
/// changes.
pub fn read(path: &Path, ui: &Vocabulary) -> Result<Read, CliError> {
    let loaded = journal::read(path).map_err(|e| read_error(path, e, ui))?;
    let vocab = vocabulary_of(&loaded.header, path, ui)?;
    let config = journal::config_of(&loaded.header).map_err(|e| {
        CliError::msg(MsgKey::JournalBadHeader)
            .arg("file", path.display().to_string())
            .cause("error", e)
            .worded_in(vocab.locale())
    })?;
    let (game, replayed, stopped) =
        match Game::replay(vocab.clone(), config.clone(), &loaded.records) {
            Ok(g) => (g, loaded.records.len(), None),
            Err((i, e)) => {
                let good =
                    Game::replay(vocab.clone(), config, &loaded.records[..i]).map_err(|_| {
                        CliError::msg(MsgKey::JournalReasonSyntax).worded_in(vocab.locale())
                    })?;
                (good, i, Some((i, e)))
            }
        };
    let verbs = ScriptVerbs;
    let words = game.wording(&verbs);
    let last = words.last_move(game.mirror());
    let mut notes: Vec<Utterance> = mended_note(&vocab, path, &loaded).into_iter().collect();
    let file = file_arg(path);
    let later = plain(loaded.later.len().to_string());
    let drops = stopped.is_some() || loaded.drops_records();
    match (stopped, loaded.gap, loaded.torn) {
        (Some((i, e)), _, _) => notes.push(vocab.message(
            MsgKey::JournalReplayFailed,
            &[
                ("file", &file),
                (
                    "line",
                    &plain(loaded.lines.get(i).copied().unwrap_or(i + 2).to_string()),
                ),
                ("error", &words.error(&e)),
                ("last", &last),
            ],
        )),
        (None, Some(gap), _) => notes.push(vocab.message(
            MsgKey::JournalCorrupt,
            &[
                ("file", &file),
                ("line", &plain(gap.line.to_string())),
                ("reason", &reason(&vocab, gap.damage)),
                ("last", &last),
                ("events", &plain(replayed.to_string())),
                ("later", &later),
            ],
        )),
        (None, None, Some(line)) => notes.push(vocab.message(
            MsgKey::JournalTornRead,
            &[
                ("file", &file),
                ("line", &plain(line.to_string())),
                ("last", &last),
            ],
        )),
        (None, None, None) => {}
    }
    Ok(Read {
        loaded,
        game,
        notes,
        replayed,
        drops,
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

/// How a journal is continued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume {
    /// As it is: damage that loses records stops, with what to do.
    Strict,
    /// From everything recovered, without the records that cannot be
    /// linked (`--from-good`).
    FromGood,
    /// From everything recovered, offering every later record to the
    /// arbiter (`--repair`).
    Repair,
}

/// The arbiter, in `resume --repair`: told what happens, asked about
/// each record that could be taken.
pub trait Arbiter {
    /// Tells a line.
    fn tell(&mut self, line: &Utterance);
    /// Asks about a record, in `vocab`'s words.
    fn ask(&mut self, question: &Utterance, vocab: &Vocabulary) -> Answer;
}

/// No arbiter to ask: nothing is told, every record is left out.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoArbiter;

impl Arbiter for NoArbiter {
    fn tell(&mut self, _line: &Utterance) {}
    fn ask(&mut self, _question: &Utterance, _vocab: &Vocabulary) -> Answer {
        Answer::Stop
    }
}

/// The arbiter's answer to a record offered in `resume --repair`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Take it into the game.
    Take,
    /// Leave it out.
    Leave,
    /// Leave it and every one after it out.
    Stop,
}

/// One record offered to the arbiter: the 1-based line, the record, and
/// whether it is still to be replayed (`false`: already refused).
fn describe_record(game: &Game, said: &[crate::mirror::GameEvent], r: &journal::Record) -> String {
    let words = game.wording(&ScriptVerbs);
    let mut parts: Vec<String> = said
        .iter()
        .map(|e| words.event(e).display)
        .filter(|t| !t.is_empty())
        .collect();
    if parts.is_empty() {
        parts = r.said.clone();
    }
    if parts.is_empty() {
        parts.push(
            game.mirror()
                .vocab()
                .message(
                    MsgKey::JournalRepairTime,
                    &[(
                        "time",
                        &plain(crate::mirror::hms(std::time::Duration::from_millis(
                            r.at_ms,
                        ))),
                    )],
                )
                .display,
        );
    }
    parts.join(" ")
}

/// Offers the records of `r` that are not in the game (those that did not
/// replay, then the later ones) to the arbiter, one by one, each one that
/// fits the game as it is then; returns the game with the records taken
/// and the records.
fn offer(r: &Read, path: &Path, arbiter: &mut dyn Arbiter) -> (Game, Vec<journal::Record>) {
    let vocab = r.game.mirror().vocab().clone();
    let words = CommandWords::new(vocab.locale());
    let mut game = r.game.clone();
    let mut kept: Vec<journal::Record> = r.loaded.records[..r.replayed].to_vec();
    let mut offered: Vec<(Option<usize>, &journal::Record)> = r.loaded.records[r.replayed..]
        .iter()
        .enumerate()
        .map(|(k, x)| (r.loaded.lines.get(r.replayed + k).copied(), x))
        .collect();
    offered.extend(r.loaded.later.iter().map(|l| (Some(l.line), &l.record)));
    let total = offered.len();
    let mut taken = 0;
    let mut stopped = false;
    for (n, (line, record)) in offered.into_iter().enumerate() {
        let line = plain(line.map_or_else(|| "?".to_owned(), |l| l.to_string()));
        let number = plain((n + 1).to_string());
        let of = plain(total.to_string());
        if stopped {
            break;
        }
        let mut trial = game.clone();
        match trial.replay_record(record) {
            Err(e) => {
                let what = describe_record(&game, &[], record);
                let error = game.wording(&ScriptVerbs).error(&e);
                arbiter.tell(&vocab.message(
                    MsgKey::JournalRepairRefused,
                    &[
                        ("number", &number),
                        ("of", &of),
                        ("line", &line),
                        ("what", &plain(what)),
                        ("error", &error),
                    ],
                ));
            }
            Ok(events) => {
                let what = describe_record(&trial, &events, record);
                let question = vocab.message(
                    MsgKey::JournalRepairOffer,
                    &[
                        ("number", &number),
                        ("of", &of),
                        ("line", &line),
                        ("what", &plain(what)),
                        ("yes", &plain(words.shown(Cmd::Yes))),
                        ("no", &plain(words.shown(Cmd::No))),
                        ("quit", &plain(words.shown(Cmd::Quit))),
                    ],
                );
                match arbiter.ask(&question, &vocab) {
                    Answer::Take => {
                        game = trial;
                        kept.push(record.clone());
                        taken += 1;
                    }
                    Answer::Leave => {}
                    Answer::Stop => stopped = true,
                }
            }
        }
    }
    arbiter.tell(&vocab.message(
        MsgKey::JournalRepairDone,
        &[
            ("taken", &plain(taken.to_string())),
            ("offered", &plain(total.to_string())),
            ("file", &file_arg(path)),
        ],
    ));
    (game, kept)
}

/// Continues the game in the journal `path`. An intact journal goes on in
/// the same file. Otherwise the old file is never written again: the game
/// goes on in a new journal next to it, with everything recovered, when
/// nothing was lost (a torn last line, lines mended), or when `how` says
/// so after damage that loses records ([`Resume::FromGood`]: without
/// them, [`Resume::Repair`]: with those the `arbiter` takes).
/// [`Resume::Strict`] stops at such damage with what to do.
pub fn resume(
    path: &Path,
    how: Resume,
    ui: &Vocabulary,
    arbiter: &mut dyn Arbiter,
) -> Result<Continued, CliError> {
    let r = read(path, ui)?;
    let vocab = r.game.mirror().vocab().clone();
    let mut said = Vec::new();
    if r.drops && how == Resume::Strict {
        return Err(CliError::Said(r.notes));
    }
    let (game, records) = if how == Resume::Repair {
        for n in &r.notes {
            arbiter.tell(n);
        }
        offer(&r, path, arbiter)
    } else {
        // What was mended (a torn line is said below); after damage that
        // loses records, what was left out.
        if r.drops {
            said.extend(r.notes.iter().cloned());
        } else {
            said.extend(mended_note(&vocab, path, &r.loaded));
        }
        (r.game.clone(), r.loaded.records[..r.replayed].to_vec())
    };
    let writer = if r.loaded.is_intact() && !r.drops {
        Writer::append_to(path, &r.loaded).map_err(|e| store_error(&vocab, path, e))?
    } else {
        let new = journal::continuation_path(path);
        let mut header = r.loaded.header.clone();
        header.version = journal::VERSION;
        header.continues = Some(Continues {
            file: path.display().to_string(),
            records: records.len(),
        });
        let w =
            Writer::create(&new, &header, &records).map_err(|e| store_error(&vocab, &new, e))?;
        let last = game.wording(&ScriptVerbs).last_move(game.mirror());
        said.push(match (r.drops, r.loaded.torn) {
            (false, Some(line)) => vocab.message(
                MsgKey::JournalTornTail,
                &[
                    ("file", &file_arg(path)),
                    ("line", &plain(line.to_string())),
                    ("last", &last),
                    ("new", &file_arg(&new)),
                ],
            ),
            _ => vocab.message(
                MsgKey::JournalSalvaged,
                &[
                    ("file", &file_arg(path)),
                    ("new", &file_arg(&new)),
                    ("events", &plain(records.len().to_string())),
                ],
            ),
        });
        w
    };
    let done_line = records.iter().filter_map(|r| r.line).max().unwrap_or(0);
    let state = game.wording(&ScriptVerbs).state_line(game.mirror());
    said.push(vocab.message(
        MsgKey::JournalResumed,
        &[
            ("file", &file_arg(writer.path())),
            ("events", &plain(records.len().to_string())),
            ("state", &state),
        ],
    ));
    Ok(Continued {
        game,
        writer,
        done_line,
        said,
    })
}

/// The journal to continue by default: the most recent one in the data
/// folder.
pub fn latest(ui: &Vocabulary) -> Result<PathBuf, CliError> {
    let dir = journal::default_dir()
        .ok_or_else(|| CliError::msg(MsgKey::PlayNoDataDir).worded_in(ui.locale()))?;
    journal::latest_in(&dir).ok_or_else(|| {
        CliError::msg(MsgKey::PlayNoJournal)
            .arg("folder", file_arg(&dir).display)
            .worded_in(ui.locale())
    })
}
