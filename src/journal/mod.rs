//! The journal store (persistence adapter): creating a journal (under a
//! name no other game has, even for two games started in the same second),
//! appending to it while holding an exclusive lock on the file itself (a
//! second writer is refused, naming the holder, whatever name, link or
//! symlink it uses), and reading it back. The format itself (lines,
//! checksums, the chain, damage) is the core's [`annabella_core::journal`],
//! re-exported here.
//!
//! Appends go through a [`Sink`]: a [`File`] for real, or a test double
//! that fails (a full disk, a short write, a failing `fsync`) to prove
//! that a record counts only once it is on disk.

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
        /// Its process id, when it could be found.
        pid: Option<u32>,
    },
    /// The journal changed since it was read (another program wrote to
    /// it in between).
    Changed,
}

impl From<io::Error> for StoreError {
    fn from(e: io::Error) -> StoreError {
        StoreError::Io(e)
    }
}

/// The exclusive right to write one journal: an advisory lock (`flock`)
/// on the journal file itself, so every name of it (another spelling, a
/// symlink, a hard link) meets the same lock. The operating system
/// releases it when the process ends, even on a crash. For people and
/// for the refusal's message, the holder's process id is also written to
/// a note next to the file (`.NAME.lock`).
#[derive(Debug)]
struct Lock {
    /// An open file description of the journal, holding the lock.
    file: File,
    note: Option<PathBuf>,
}

impl Lock {
    /// Locks the file open in `file` (the journal at `path`).
    fn take(file: File, path: &Path) -> Result<Lock, StoreError> {
        match file.try_lock() {
            Ok(()) => {
                // Best effort (a full disk, a name too long): the lock
                // itself is what counts.
                let note = note_path(path);
                let note = match std::fs::write(&note, std::process::id().to_string()) {
                    Ok(()) => Some(note),
                    Err(_) => {
                        let _ = std::fs::remove_file(&note);
                        None
                    }
                };
                Ok(Lock { file, note })
            }
            Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Locked {
                pid: holder(&file, path),
            }),
            Err(std::fs::TryLockError::Error(e)) => Err(StoreError::Io(e)),
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Still holding the lock: the note is ours.
        if let Some(n) = &self.note {
            let _ = std::fs::remove_file(n);
        }
        let _ = self.file.unlock();
    }
}

/// `.NAME.lock` next to the journal (its real place, symlinks resolved).
fn note_path(journal: &Path) -> PathBuf {
    let real = std::fs::canonicalize(journal).unwrap_or_else(|_| journal.to_owned());
    let name = real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    real.with_file_name(format!(".{name}.lock"))
}

/// The process holding the lock on `file`: the kernel's table of locks
/// (by device and inode, whatever the name), else the note next to it.
fn holder(file: &File, path: &Path) -> Option<u32> {
    #[cfg(target_os = "linux")]
    if let Ok(meta) = file.metadata() {
        use std::os::unix::fs::MetadataExt;
        let dev = meta.dev();
        let id = format!(
            "{:02x}:{:02x}:{}",
            libc::major(dev),
            libc::minor(dev),
            meta.ino()
        );
        if let Ok(table) = std::fs::read_to_string("/proc/locks") {
            let pid = table.lines().find_map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                (f.get(1) == Some(&"FLOCK") && f.get(5) == Some(&id.as_str()))
                    .then(|| f.get(4)?.parse().ok())
                    .flatten()
            });
            if pid.is_some() {
                return pid;
            }
        }
    }
    let _ = file;
    std::fs::read_to_string(note_path(path))
        .ok()
        .and_then(|t| t.trim().parse().ok())
}

/// What the journal store appends to and syncs: a [`File`], or a test
/// double.
pub trait Sink: Write + Send + std::fmt::Debug {
    /// Makes everything written durable (`fsync` of the data).
    fn sync_data(&mut self) -> io::Result<()>;
    /// The size now, in bytes.
    fn size(&mut self) -> io::Result<u64>;
    /// Cuts back (or extends) to `len` bytes.
    fn set_len(&mut self, len: u64) -> io::Result<()>;
}

impl Sink for File {
    fn sync_data(&mut self) -> io::Result<()> {
        File::sync_data(self)
    }
    fn size(&mut self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }
    fn set_len(&mut self, len: u64) -> io::Result<()> {
        File::set_len(self, len)
    }
}

/// Appends records to a journal, syncing each to disk; holds the
/// journal's lock while it lives.
#[derive(Debug)]
pub struct Writer {
    sink: Box<dyn Sink>,
    path: PathBuf,
    /// Records in the file.
    seq: u64,
    /// The checksum of the file's last line.
    last_sum: String,
    /// After a failed append whose bytes could not be cut off: the length
    /// the file must be cut back to before anything else is written.
    cut_to: Option<u64>,
    _lock: Option<Lock>,
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

/// A short temporary name in `dir` (never longer than a file name may be,
/// however long the journal's own name).
fn temporary_in(dir: &Path) -> PathBuf {
    static COUNT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    dir.join(format!(".annabella-{}-{n}.tmp", std::process::id()))
}

/// The journal store of the one save sequence ([`crate::game::Journaled`]).
impl crate::game::Store for Writer {
    type Error = io::Error;
    fn append_all(&mut self, records: &[Record]) -> io::Result<()> {
        Writer::append_all(self, records)
    }
}

/// No journal (a game nobody keeps, as the play screen's in tests): every
/// record is acknowledged and dropped.
#[derive(Debug, Default, Clone, Copy)]
pub struct Nowhere;

impl crate::game::Store for Nowhere {
    type Error = io::Error;
    fn append_all(&mut self, _: &[Record]) -> io::Result<()> {
        Ok(())
    }
}

impl Writer {
    /// Creates a new journal (never overwrites an existing file) with
    /// `header` and `records`, synced to disk, and holds its lock. The file
    /// appears complete or not at all: it is written under a temporary
    /// name, synced and locked, then linked to `path` (which fails if
    /// `path` exists).
    pub fn create(path: &Path, header: &Header, records: &[Record]) -> Result<Writer, StoreError> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => {
                std::fs::create_dir_all(d)?;
                d
            }
            _ => Path::new("."),
        };
        if std::fs::symlink_metadata(path).is_ok() {
            return Err(StoreError::Exists);
        }
        let (header_sum, mut text) = encode(header).map_err(io::Error::other)?;
        let (body, seq, last_sum) = chain(records, 0, header_sum)?;
        text.push_str(&body);
        let tmp = temporary_in(dir);
        let written = (|| -> io::Result<File> {
            let mut f = OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&tmp)?;
            // Locked before it has its name: nobody can take it between.
            f.try_lock().map_err(io::Error::from)?;
            f.write_all(text.as_bytes())?;
            f.sync_all()?;
            match std::fs::hard_link(&tmp, path) {
                // A file system without hard links: rename (the existence
                // check above keeps an old journal safe).
                Err(e) if e.kind() != io::ErrorKind::AlreadyExists && !path.exists() => {
                    std::fs::rename(&tmp, path)?;
                }
                other => other?,
            }
            Ok(f)
        })();
        let _ = std::fs::remove_file(&tmp);
        let locked = match written {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                return Err(StoreError::Exists);
            }
            Err(e) => return Err(StoreError::Io(e)),
        };
        sync_dir(path);
        let lock = Lock::take(locked, path)?;
        let file = OpenOptions::new().append(true).open(path)?;
        Ok(Writer {
            sink: Box::new(file),
            path: path.to_owned(),
            seq,
            last_sum,
            cut_to: None,
            _lock: Some(lock),
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
    /// appending, and holds its lock (on the file, whatever its name).
    pub fn append_to(path: &Path, loaded: &Loaded) -> Result<Writer, StoreError> {
        let file = crate::fsutil::open_regular(path).map_err(|e| StoreError::Io(e.into()))?;
        let lock = Lock::take(file, path)?;
        let file = OpenOptions::new().append(true).open(path)?;
        // The same file as the one locked (not replaced in between).
        let (a, b) = (lock.file.metadata()?, file.metadata()?);
        if !crate::fsutil::same_file(&a, &b) {
            return Err(StoreError::Changed);
        }
        // Read again under the lock: another writer may have appended
        // between the caller's read and now.
        let now = read(path).map_err(|e| match e {
            ReadError::Io(e) => StoreError::Io(e),
            _ => StoreError::Changed,
        })?;
        if now.records.len() != loaded.records.len() || now.last_sum != loaded.last_sum {
            return Err(StoreError::Changed);
        }
        Ok(Writer {
            sink: Box::new(file),
            path: path.to_owned(),
            seq: loaded.records.len() as u64,
            last_sum: loaded.last_sum.clone(),
            cut_to: None,
            _lock: Some(lock),
        })
    }

    /// A writer appending to `sink` (which holds the journal `path` with
    /// `loaded`'s records), without a lock: for a test double.
    pub fn over(sink: Box<dyn Sink>, path: &Path, loaded: &Loaded) -> Writer {
        Writer {
            sink,
            path: path.to_owned(),
            seq: loaded.records.len() as u64,
            last_sum: loaded.last_sum.clone(),
            cut_to: None,
            _lock: None,
        }
    }

    /// Appends `records` as one unit, synced to disk: either all of them
    /// are in the file afterwards, or (on an error, such as a full disk)
    /// none, the file being cut back to its length before. Should even
    /// that fail, nothing more is written until it succeeds.
    pub fn append_all(&mut self, records: &[Record]) -> io::Result<()> {
        if records.is_empty() {
            return Ok(());
        }
        if let Some(len) = self.cut_to {
            self.sink.set_len(len)?;
            self.sink.sync_data()?;
            self.cut_to = None;
        }
        let (text, seq, last_sum) = chain(records, self.seq, self.last_sum.clone())?;
        let len = self.sink.size()?;
        let written = self
            .sink
            .write_all(text.as_bytes())
            .and_then(|()| self.sink.flush())
            .and_then(|()| self.sink.sync_data());
        if let Err(e) = written {
            // Leave no partial line behind.
            let cut = self.sink.set_len(len).and_then(|()| self.sink.sync_data());
            if cut.is_err() {
                self.cut_to = Some(len);
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

/// The most bytes of a file name (on Linux file systems and most others).
pub const NAME_MAX: usize = 255;

/// The bytes kept free after a default journal name's stem: room for
/// `-1000.jsonl` and, later, `-cont99.jsonl`.
pub const STEM_ROOM: usize = 32;

/// `stem` cut, on a character boundary, to at most `max` bytes.
pub fn cut_to_bytes(stem: &str, max: usize) -> &str {
    let mut end = stem.len().min(max);
    while !stem.is_char_boundary(end) {
        end -= 1;
    }
    &stem[..end]
}

/// A free name next to `old` for a continuation journal:
/// `NAME-cont1.jsonl`, `NAME-cont2.jsonl`, … (the name cut to fit
/// [`NAME_MAX`] bytes).
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
        .map(|n| {
            let suffix = format!("-cont{n}.jsonl");
            let base = cut_to_bytes(&base, NAME_MAX - suffix.len());
            dir.join(format!("{base}{suffix}"))
        })
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
pub(crate) mod fault;
#[cfg(test)]
mod tests;
