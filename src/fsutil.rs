//! Input files, opened safely (adapter): only regular files are read — a
//! FIFO, a device such as `/dev/zero`, a socket or a directory is refused
//! at once instead of blocking or never ending — and never more than a
//! size cap, so no file can make the program hang or exhaust memory.
//!
//! Errors are values ([`InputError`]); they convert into [`std::io::Error`]
//! (for callers whose error type wraps one), and
//! [`crate::input::describe_io_error`] turns any such error back into one
//! localized phrase for a message's `{error}`.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The most bytes read from a journal.
pub const JOURNAL_LIMIT: u64 = 64 << 20;
/// The most bytes read from a script file (a named pipe has no limit: it
/// is a stream).
pub const SCRIPT_LIMIT: u64 = 64 << 20;

pub use annabella_core::input::{FileKind, InputError};

/// The kind of a file type (for a path that is not a regular file).
pub fn file_kind(t: std::fs::FileType) -> FileKind {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return FileKind::Fifo;
        }
        if t.is_char_device() || t.is_block_device() {
            return FileKind::Device;
        }
        if t.is_socket() {
            return FileKind::Socket;
        }
    }
    if t.is_dir() {
        FileKind::Directory
    } else {
        FileKind::Other
    }
}

/// Opens `path` for reading if it is a regular file. A FIFO is opened
/// without waiting for a writer, then refused, like a device, a socket or
/// a directory.
///
/// # Errors
///
/// [`InputError::NotRegular`], or the system's error.
pub fn open_regular(path: &Path) -> Result<File, InputError> {
    // Looked at before it is opened: opening a FIFO, even without
    // waiting, would connect to a writer that comes just then, and its
    // lines would be lost when it is closed again.
    if let Ok(meta) = std::fs::metadata(path)
        && !meta.file_type().is_file()
    {
        return Err(InputError::NotRegular(file_kind(meta.file_type())));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Non-blocking: opening a FIFO does not wait for a writer; no
        // controlling terminal from a terminal device.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.file_type().is_file() {
        return Err(InputError::NotRegular(file_kind(meta.file_type())));
    }
    #[cfg(unix)]
    clear_nonblocking(&file)?;
    Ok(file)
}

#[cfg(unix)]
fn clear_nonblocking(file: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a file descriptor this function's caller owns.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Opens a regular file no larger than `limit` bytes (by its size now; the
/// readers below also stop at the cap, should it grow).
///
/// # Errors
///
/// As [`open_regular`], and [`InputError::TooLarge`].
pub fn open_capped(path: &Path, limit: u64) -> Result<File, InputError> {
    let file = open_regular(path)?;
    if file.metadata()?.len() > limit {
        return Err(InputError::TooLarge { limit });
    }
    Ok(file)
}

/// A regular file of at most `limit` bytes, as a reader that also stops
/// at the cap (for streaming parsers such as the PGN reader).
///
/// # Errors
///
/// As [`open_capped`].
pub fn open_limited(path: &Path, limit: u64) -> Result<io::Take<File>, InputError> {
    Ok(open_capped(path, limit)?.take(limit))
}

/// A source of lines: a regular file of at most `limit` bytes, a named
/// pipe (a stream: waiting for its writer, like any reader of a pipe), or
/// a character device (`/dev/null`, a terminal) read as a stream of at
/// most `limit` bytes, so `/dev/zero` ends too. A folder, a socket or a
/// disk is refused.
///
/// # Errors
///
/// [`InputError::NotRegular`], [`InputError::TooLarge`], or the system's
/// error.
pub fn open_stream(path: &Path, limit: u64) -> Result<io::Take<File>, InputError> {
    match open_limited(path, limit) {
        Err(InputError::NotRegular(FileKind::Fifo)) => Ok(File::open(path)?.take(u64::MAX)),
        Err(InputError::NotRegular(FileKind::Device)) if is_char_device(path) => {
            Ok(File::open(path)?.take(limit))
        }
        other => other,
    }
}

fn is_char_device(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|m| m.file_type().is_char_device())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// The whole of a regular file of at most `limit` bytes.
///
/// # Errors
///
/// As [`open_capped`].
pub fn read_capped(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let file = open_capped(path, limit)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(InputError::TooLarge { limit });
    }
    Ok(bytes)
}

/// Are these the same file (the same device and inode: also through a
/// symlink, a hard link or another spelling of the path)?
pub fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        false
    }
}

/// Writes `bytes` to `path` atomically: a temporary file next to it,
/// synced, then put in place, so a crash never leaves half a file. An
/// existing `path` is replaced only when `replace` is set (otherwise
/// [`io::ErrorKind::AlreadyExists`], checked by the file system itself).
///
/// # Errors
///
/// The system's error.
pub fn write_atomic(path: &Path, bytes: &[u8], replace: bool) -> io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // A short name of its own (however long the file's name is, and
    // whichever thread of this process writes).
    static COUNT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".annabella-{}-{n}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        if replace {
            std::fs::rename(&tmp, path)?;
        } else {
            match std::fs::hard_link(&tmp, path) {
                // A file system without hard links: rename, after looking.
                Err(e) if e.kind() != io::ErrorKind::AlreadyExists && !path.exists() => {
                    std::fs::rename(&tmp, path)?;
                }
                other => other?,
            }
        }
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    let _ = std::fs::remove_file(&tmp);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locale::Locale;
    use crate::locale::MsgKey;

    fn en() -> Locale {
        crate::locale::builtin("en").unwrap()
    }

    #[test]
    fn a_regular_file_is_read_up_to_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        std::fs::write(&p, "hello").unwrap();
        assert_eq!(read_capped(&p, 5).unwrap(), b"hello");
        let e = read_capped(&p, 4).unwrap_err();
        assert!(matches!(e, InputError::TooLarge { limit: 4 }), "{e:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("fifo");
        let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // On main this blocked for ever (a test thread would hang): run it
        // on a thread and give it a second.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(read_capped(&p, 100).map(|_| ()).map_err(|e| e.to_string()));
        });
        let r = rx
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("opening a FIFO returns at once");
        assert_eq!(r, Err(InputError::NotRegular(FileKind::Fifo).to_string()));
    }

    #[test]
    fn devices_and_directories_are_refused() {
        let e = read_capped(Path::new("/dev/zero"), 100).unwrap_err();
        assert!(
            matches!(e, InputError::NotRegular(FileKind::Device)),
            "{e:?}"
        );
        let dir = tempfile::tempdir().unwrap();
        let e = read_capped(dir.path(), 100).unwrap_err();
        assert!(
            matches!(e, InputError::NotRegular(FileKind::Directory)),
            "{e:?}"
        );
    }

    #[test]
    fn errors_are_described_in_the_locale_also_inside_an_io_error() {
        let loc = en();
        let fifo = InputError::NotRegular(FileKind::Fifo);
        let expected = loc.message(
            MsgKey::FileNotRegular,
            &[("kind", &loc.message(MsgKey::FileKindFifo, &[]))],
        );
        assert_eq!(fifo.describe(&loc), expected);
        let wrapped: io::Error = InputError::NotRegular(FileKind::Fifo).into();
        assert_eq!(crate::input::describe_io_error(&loc, &wrapped), expected);
        let missing = read_capped(Path::new("/nonexistent/x"), 1).unwrap_err();
        assert_eq!(missing.describe(&loc), loc.message(MsgKey::IoNotFound, &[]));
        let big = InputError::TooLarge { limit: 64 << 20 }.describe(&loc);
        assert!(big.contains("64 MB"), "{big}");
    }
}
