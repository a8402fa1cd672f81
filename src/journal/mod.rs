//! The journal store (persistence adapter): creating a journal (under a
//! name no other game has, even for two games started in the same second),
//! appending to it while holding an exclusive lock (a second writer is
//! refused, naming the holder), and reading it back. The format itself
//! (lines, checksums, the chain, damage) is the core's
//! [`annabella_core::journal`], re-exported here.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub use annabella_core::journal::*;

/// Reads and checks a journal file.
pub fn read(path: &Path) -> Result<Loaded, ReadError> {
    let bytes = crate::fsutil::read_capped(path, crate::fsutil::JOURNAL_LIMIT)
        .map_err(|e| ReadError::Io(e.into()))?;
    parse(&bytes)
}

/// Why the journal store could not create or open a journal for writing.
#[derive(Debug)]
pub enum StoreError {
    /// The system refused (disk full, no permission, …).
    Io(io::Error),
    /// A file of that name exists already (a new journal never replaces
    /// one).
    Exists,
    /// Another annabella is writing this journal.
    Locked {
        /// Its process id, when it could be read.
        pid: Option<u32>,
    },
}

impl From<io::Error> for StoreError {
    fn from(e: io::Error) -> StoreError {
        StoreError::Io(e)
    }
}

/// The exclusive right to write one journal: a lock on a hidden file next
/// to it (`.NAME.jsonl.lock`) that holds the writer's process id. The
/// operating system releases it when the process ends, even on a crash.
#[derive(Debug)]
struct Lock {
    file: File,
    path: PathBuf,
}

impl Lock {
    fn acquire(journal: &Path) -> Result<Lock, StoreError> {
        let name = journal
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let path = journal.with_file_name(format!(".{name}.lock"));
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)?;
        match file.try_lock() {
            Ok(()) => {
                file.set_len(0)?;
                write!(file, "{}", std::process::id())?;
                Ok(Lock { file, path })
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = io::Read::read_to_string(&mut file, &mut text);
                Err(StoreError::Locked {
                    pid: text.trim().parse().ok(),
                })
            }
            Err(std::fs::TryLockError::Error(e)) => Err(StoreError::Io(e)),
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Still holding the lock: nobody else can be using the file.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Appends records to a journal file, syncing each to disk; holds the
/// journal's lock while it lives.
#[derive(Debug)]
pub struct Writer {
    file: File,
    path: PathBuf,
    /// Records in the file.
    seq: u64,
    /// The checksum of the file's last line.
    last_sum: String,
    _lock: Lock,
}

fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        // Best effort: makes the new directory entry durable.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

impl Writer {
    /// Creates a new journal (never overwrites an existing file) with
    /// `header` and `records`, synced to disk, and holds its lock. The file
    /// appears complete or not at all: it is written under a temporary
    /// name, synced, then linked to `path` (which fails if `path` exists).
    pub fn create(path: &Path, header: &Header, records: &[Record]) -> Result<Writer, StoreError> {
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir)?;
        }
        if path.exists() {
            return Err(StoreError::Exists);
        }
        let lock = Lock::acquire(path)?;
        let (header_sum, mut text) = encode(header).map_err(io::Error::other)?;
        let (body, seq, last_sum) = chain(records, 0, header_sum)?;
        text.push_str(&body);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = path.with_file_name(format!(".{name}.tmp{}", std::process::id()));
        let written = (|| {
            let mut f = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(&tmp)?;
            f.write_all(text.as_bytes())?;
            f.sync_all()?;
            match std::fs::hard_link(&tmp, path) {
                // A file system without hard links: rename (the existence
                // check above keeps an old journal safe).
                Err(e) if e.kind() != io::ErrorKind::AlreadyExists && !path.exists() => {
                    std::fs::rename(&tmp, path)
                }
                other => other,
            }
        })();
        let _ = std::fs::remove_file(&tmp);
        if let Err(e) = written {
            return Err(if e.kind() == io::ErrorKind::AlreadyExists {
                StoreError::Exists
            } else {
                StoreError::Io(e)
            });
        }
        sync_dir(path);
        let file = OpenOptions::new().append(true).open(path)?;
        Ok(Writer {
            file,
            path: path.to_owned(),
            seq,
            last_sum,
            _lock: lock,
        })
    }

    /// Creates a new journal in `dir` named `STEM.jsonl`, or `STEM-2.jsonl`,
    /// `STEM-3.jsonl`, … when that exists (two games started in the same
    /// second by two processes each get their own).
    pub fn create_unique(
        dir: &Path,
        stem: &str,
        header: &Header,
        records: &[Record],
    ) -> Result<Writer, StoreError> {
        let mut last = StoreError::Exists;
        for n in 1..=1000u32 {
            let name = if n == 1 {
                format!("{stem}.jsonl")
            } else {
                format!("{stem}-{n}.jsonl")
            };
            match Writer::create(&dir.join(name), header, records) {
                Err(e @ (StoreError::Exists | StoreError::Locked { .. })) => last = e,
                other => return other,
            }
        }
        Err(last)
    }

    /// Opens an existing, intact journal (as read into `loaded`) for
    /// appending, and holds its lock.
    pub fn append_to(path: &Path, loaded: &Loaded) -> Result<Writer, StoreError> {
        let lock = Lock::acquire(path)?;
        // Read again under the lock: another writer may have appended
        // between the caller's read and now.
        let now = read(path).map_err(|e| match e {
            ReadError::Io(e) => StoreError::Io(e),
            _ => StoreError::Io(io::Error::other("the journal changed")),
        })?;
        if now.records.len() != loaded.records.len() || now.last_sum != loaded.last_sum {
            return Err(StoreError::Io(io::Error::other("the journal changed")));
        }
        let file = OpenOptions::new().append(true).open(path)?;
        Ok(Writer {
            file,
            path: path.to_owned(),
            seq: loaded.records.len() as u64,
            last_sum: loaded.last_sum.clone(),
            _lock: lock,
        })
    }

    /// Appends `records` as one unit, synced to disk: either all of them
    /// are in the file afterwards, or (on an error, such as a full disk)
    /// none, the file being cut back to its length before.
    pub fn append_all(&mut self, records: &[Record]) -> io::Result<()> {
        if records.is_empty() {
            return Ok(());
        }
        let (text, seq, last_sum) = chain(records, self.seq, self.last_sum.clone())?;
        let len = self.file.metadata()?.len();
        let written = self
            .file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_data());
        if let Err(e) = written {
            // Best effort: leave no partial line behind.
            if self.file.set_len(len).is_ok() {
                let _ = self.file.sync_data();
            }
            return Err(e);
        }
        self.seq = seq;
        self.last_sum = last_sum;
        Ok(())
    }

    /// The file written.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A free name next to `old` for a continuation journal:
/// `NAME-cont1.jsonl`, `NAME-cont2.jsonl`, …
pub fn continuation_path(old: &Path) -> PathBuf {
    let stem = old
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".to_owned());
    // Continue numbering rather than nesting "-cont1-cont1".
    let base = match stem.rsplit_once("-cont") {
        Some((b, n)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => b.to_owned(),
        _ => stem,
    };
    let dir = old.parent().unwrap_or(Path::new(""));
    (1u32..)
        .map(|n| dir.join(format!("{base}-cont{n}.jsonl")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join(format!("{base}-cont.jsonl")))
}

/// The default folder for journals: `data_dir()/annabella/games`.
pub fn default_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("annabella").join("games"))
}

/// The most recently modified journal in `dir`.
pub fn latest_in(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max()
        .map(|(_, p)| p)
}

#[cfg(test)]
mod tests;
