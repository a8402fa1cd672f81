//! One rule for every file annabella writes (`--speak-to`, `--save` and
//! the play screen's save, `export -o`, `config set`): never a file this
//! run reads or writes (the game's journal, a script, a PGN, a locale or
//! the settings file: judged by file identity, so neither another
//! spelling, a symlink nor a hard link gets past), never a named pipe, a
//! device or a folder, never an existing file that is not of the kind
//! being written unless the user says `--force`; and what is written goes
//! to a temporary file in the same folder, synced, then renamed into place,
//! so a crash leaves the old file or the new one, never half of one.
//!
//! Refusals are values ([`OutputError`]), worded in the locale by
//! [`OutputError::describe`] in one line that says what to do.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::fsutil::{self, FileKind, InputError};
use crate::locale::Locale;
use crate::locale::MsgKey;

/// What is written, which decides what an existing file must be to be
/// replaced without `--force`.
#[derive(Debug, Clone, Copy)]
pub enum Kind<'a> {
    /// Speech rendered to audio: an existing WAV file (or an empty file)
    /// may be replaced.
    Wav,
    /// A game saved as PGN (`text`): an existing file may be replaced when
    /// it is empty or holds only an earlier save of this game (one game,
    /// the same players, its moves the start of this one's).
    GameSave(&'a str),
    /// An export: every existing file needs `--force`.
    Export,
    /// The settings file, annabella's own: replaced.
    Settings,
}

/// Why a file may not be written. Nothing was written.
#[derive(Debug)]
pub enum OutputError {
    /// It is a file this run uses.
    IsInput {
        /// The input, as it was given.
        input: PathBuf,
    },
    /// It is a named pipe, a device, a folder, …
    NotRegular(FileKind),
    /// It exists and is not of the kind being written.
    OtherKind,
    /// It exists and holds other games (PGN).
    OtherGames {
        /// How many.
        games: usize,
    },
    /// It exists (an export needs `--force`).
    Exists,
    /// The system refused.
    Io(std::io::Error),
}

impl OutputError {
    /// One line, in `loc`'s words, naming `file` and what to do.
    pub fn describe(&self, loc: &Locale, file: &Path) -> String {
        let f = file.display().to_string();
        match self {
            OutputError::IsInput { input } => loc.message(
                MsgKey::OutputIsInput,
                &[("file", &f), ("input", &input.display().to_string())],
            ),
            OutputError::NotRegular(kind) => loc.message(
                MsgKey::OutputNotRegular,
                &[
                    ("file", &f),
                    ("error", &InputError::NotRegular(*kind).describe(loc)),
                ],
            ),
            OutputError::OtherKind => loc.message(MsgKey::OutputOtherKind, &[("file", &f)]),
            OutputError::OtherGames { games } => loc.message(
                MsgKey::OutputOtherGames,
                &[("file", &f), ("games", &games.to_string())],
            ),
            OutputError::Exists => loc.message(MsgKey::OutputExists, &[("file", &f)]),
            OutputError::Io(e) => loc.message(
                MsgKey::OutputWriteFailed,
                &[
                    ("file", &f),
                    ("error", &crate::input::describe_io_error(loc, e)),
                ],
            ),
        }
    }
}

/// The files a run uses, which it never writes over.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    files: Vec<(PathBuf, std::fs::Metadata)>,
}

impl Inputs {
    /// The settings file (an input of every run), if it exists.
    pub fn new() -> Inputs {
        let mut i = Inputs::default();
        if let Some(p) = crate::places::settings_file() {
            i.add(&p);
        }
        i
    }

    /// Adds `path` (nothing if it does not exist).
    pub fn add(&mut self, path: &Path) -> &mut Inputs {
        if let Ok(m) = std::fs::metadata(path) {
            self.files.push((path.to_owned(), m));
        }
        self
    }

    /// Adds a locale given as a file (a built-in code is no file).
    pub fn add_locale(&mut self, spec: &str) -> &mut Inputs {
        if spec.ends_with(".toml") || spec.contains('/') {
            self.add(Path::new(spec));
        }
        self
    }

    /// The input that `meta` is, if any.
    fn find(&self, meta: &std::fs::Metadata) -> Option<&Path> {
        self.files
            .iter()
            .find(|(_, m)| fsutil::same_file(m, meta))
            .map(|(p, _)| p.as_path())
    }
}

/// Checks that `path` may be written as `kind` (see the module
/// documentation).
///
/// # Errors
///
/// The refusal.
pub fn check(path: &Path, kind: Kind<'_>, inputs: &Inputs, force: bool) -> Result<(), OutputError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        // A dangling symlink: something is there.
        Err(_) if std::fs::symlink_metadata(path).is_ok() => {
            return if force {
                Ok(())
            } else {
                Err(OutputError::OtherKind)
            };
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(OutputError::Io(e)),
    };
    if let Some(input) = inputs.find(&meta) {
        return Err(OutputError::IsInput {
            input: input.to_owned(),
        });
    }
    if !meta.is_file() {
        return Err(OutputError::NotRegular(fsutil::file_kind(meta.file_type())));
    }
    if force || meta.len() == 0 {
        return Ok(());
    }
    match kind {
        Kind::Settings => Ok(()),
        Kind::Export => Err(OutputError::Exists),
        Kind::Wav => {
            let mut head = [0u8; 12];
            let ok = fsutil::open_regular(path)
                .ok()
                .and_then(|mut f| f.read_exact(&mut head).ok())
                .is_some_and(|()| &head[..4] == b"RIFF" && &head[8..] == b"WAVE");
            if ok {
                Ok(())
            } else {
                Err(OutputError::OtherKind)
            }
        }
        Kind::GameSave(text) => earlier_save(path, text),
    }
}

/// `Ok` when the PGN file at `path` holds only an earlier save of the
/// game in `text`.
fn earlier_save(path: &Path, text: &str) -> Result<(), OutputError> {
    let old = fsutil::open_regular(path)
        .ok()
        .and_then(|f| crate::pgn::read_games(f).ok())
        .unwrap_or_default();
    let new = crate::pgn::read_games(text.as_bytes()).unwrap_or_default();
    let tag = |g: &crate::pgn::PgnGame, name: &str| {
        g.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    match (old.as_slice(), new.first()) {
        ([], _) => Err(OutputError::OtherKind),
        ([o], Some(n))
            if tag(o, "White") == tag(n, "White")
                && tag(o, "Black") == tag(n, "Black")
                && o.sans.len() <= n.sans.len()
                && o.sans.iter().zip(&n.sans).all(|(a, b)| a == b) =>
        {
            Ok(())
        }
        (games, _) => Err(OutputError::OtherGames { games: games.len() }),
    }
}

/// Writes `bytes` to `path` as `kind` after [`check`]: a temporary file
/// in the same folder, synced, renamed into place.
///
/// # Errors
///
/// The refusal, or the system's error.
pub fn write(
    path: &Path,
    bytes: &[u8],
    kind: Kind<'_>,
    inputs: &Inputs,
    force: bool,
) -> Result<(), OutputError> {
    check(path, kind, inputs, force)?;
    fsutil::write_atomic(path, bytes, true).map_err(OutputError::Io)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN1: &str = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 *\n";
    const PGN2: &str = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 *\n";

    #[test]
    fn an_input_is_never_written_whatever_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let j = dir.path().join("g.jsonl");
        std::fs::write(&j, "journal").unwrap();
        let hard = dir.path().join("hard");
        std::fs::hard_link(&j, &hard).unwrap();
        let sym = dir.path().join("sym");
        std::os::unix::fs::symlink(&j, &sym).unwrap();
        let mut inputs = Inputs::default();
        inputs.add(&j);
        for p in [&j, &hard, &sym] {
            for kind in [Kind::Wav, Kind::GameSave(PGN1), Kind::Export] {
                assert!(matches!(
                    write(p, b"x", kind, &inputs, true),
                    Err(OutputError::IsInput { .. })
                ));
            }
        }
        assert_eq!(std::fs::read_to_string(&j).unwrap(), "journal");
    }

    #[test]
    fn only_a_file_of_the_kind_is_replaced_without_force() {
        let dir = tempfile::tempdir().unwrap();
        let none = Inputs::default();
        let text = dir.path().join("notes.txt");
        std::fs::write(&text, "keep").unwrap();
        assert!(matches!(
            check(&text, Kind::Wav, &none, false),
            Err(OutputError::OtherKind)
        ));
        assert!(check(&text, Kind::Wav, &none, true).is_ok());
        let wav = dir.path().join("a.wav");
        std::fs::write(&wav, b"RIFF\0\0\0\0WAVEfmt ").unwrap();
        assert!(check(&wav, Kind::Wav, &none, false).is_ok());
        let empty = dir.path().join("empty");
        std::fs::write(&empty, b"").unwrap();
        assert!(check(&empty, Kind::Wav, &none, false).is_ok());
        assert!(matches!(
            check(&wav, Kind::Export, &none, false),
            Err(OutputError::Exists)
        ));
        assert!(check(&dir.path().join("new"), Kind::Export, &none, false).is_ok());
    }

    #[test]
    fn a_save_replaces_only_an_earlier_save_of_the_same_game() {
        let dir = tempfile::tempdir().unwrap();
        let none = Inputs::default();
        let p = dir.path().join("k.pgn");
        std::fs::write(&p, PGN1).unwrap();
        assert!(check(&p, Kind::GameSave(PGN2), &none, false).is_ok());
        // Not a prefix, other players, more games: refused.
        assert!(
            check(
                &p,
                Kind::GameSave("[White \"A\"]\n[Black \"B\"]\n\n1. d4 *\n"),
                &none,
                false
            )
            .is_err()
        );
        assert!(
            check(
                &p,
                Kind::GameSave("[White \"X\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 *\n"),
                &none,
                false
            )
            .is_err()
        );
        std::fs::write(&p, format!("{PGN1}\n{PGN1}")).unwrap();
        assert!(matches!(
            check(&p, Kind::GameSave(PGN2), &none, false),
            Err(OutputError::OtherGames { games: 2 })
        ));
        std::fs::write(&p, "{\"sum\":\"x\"}\n").unwrap();
        assert!(check(&p, Kind::GameSave(PGN2), &none, false).is_err());
    }

    #[test]
    fn pipes_devices_and_folders_are_refused_even_with_force() {
        let dir = tempfile::tempdir().unwrap();
        let none = Inputs::default();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        for (p, kind) in [
            (fifo.as_path(), FileKind::Fifo),
            (Path::new("/dev/null"), FileKind::Device),
            (dir.path(), FileKind::Directory),
        ] {
            match check(p, Kind::Wav, &none, true) {
                Err(OutputError::NotRegular(k)) => assert_eq!(k, kind),
                other => panic!("{}: {other:?}", p.display()),
            }
        }
    }
}
