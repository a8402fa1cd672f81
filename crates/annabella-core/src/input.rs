//! Limits on text input (pure core, plus a line reader over any
//! `BufRead`): every typed line, script line, `parse` argument and
//! `parse --tsv` line is at most [`MAX_LINE_CHARS`] characters, and every
//! word of a move phrase at most [`MAX_WORD_CHARS`]. Longer input is refused
//! with one clear line (see [`TooLong`]); nothing else is lost, and the
//! program goes on with the next line.
//!
//! [`read_line`] reads one line without ever holding more than the limit in
//! memory (the rest of a longer line is skipped), and turns bytes that are
//! not UTF-8 into replacement characters instead of failing, so that binary
//! input gets a "not understood" answer per line rather than ending the
//! program.

use crate::locale::Locale;
use crate::locale::MsgKey;
use std::io::{self, BufRead};

/// The most characters of one line of input (a move, a command, a script
/// line, a `FEN<TAB>PHRASE` line).
pub const MAX_LINE_CHARS: usize = 1000;

/// The most characters of one word of a move phrase (the longest word of a
/// locale has fewer than 30).
pub const MAX_WORD_CHARS: usize = 100;

/// The most bytes of one line: [`MAX_LINE_CHARS`] characters of up to four
/// bytes each, and a line ending.
pub const MAX_LINE_BYTES: usize = MAX_LINE_CHARS * 4 + 2;

/// Which limit a text passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TooLong {
    /// More than [`MAX_LINE_CHARS`] characters.
    Line,
    /// A word of more than [`MAX_WORD_CHARS`] characters; its first
    /// characters, to name it.
    Word {
        /// The start of the word (at most 20 characters).
        start: String,
    },
}

impl TooLong {
    /// The limit that was passed, in characters.
    pub fn limit(&self) -> usize {
        match self {
            TooLong::Line => MAX_LINE_CHARS,
            TooLong::Word { .. } => MAX_WORD_CHARS,
        }
    }

    /// The message key that explains it (placeholders `{limit}` and, for a
    /// word, `{word}`).
    pub fn message_key(&self) -> MsgKey {
        match self {
            TooLong::Line => MsgKey::InputLineTooLong,
            TooLong::Word { .. } => MsgKey::InputWordTooLong,
        }
    }

    /// The message in `locale`'s words.
    pub fn describe(&self, locale: &crate::locale::Locale) -> String {
        let limit = self.limit().to_string();
        match self {
            TooLong::Line => locale.message(self.message_key(), &[("limit", &limit)]),
            TooLong::Word { start } => {
                let word = format!("{start}…");
                locale.message(self.message_key(), &[("limit", &limit), ("word", &word)])
            }
        }
    }
}

/// A character as it is, in quotes (`'é'`), or by its code where it would
/// not be seen (`U+030C` for a combining mark, `U+0007` for a control
/// character, `U+200F` for a direction mark): never a Rust escape.
pub fn show_char(c: char) -> String {
    let unseen = c.is_control()
        || c.is_whitespace()
        || unicode_normalization::char::is_combining_mark(c)
        || crate::locale::is_invisible(c)
        || ('\u{2060}'..='\u{206F}').contains(&c)
        || ('\u{E000}'..='\u{F8FF}').contains(&c)
        || ('\u{FFF0}'..='\u{FFFF}').contains(&c);
    if unseen {
        format!("U+{:04X}", u32::from(c))
    } else {
        format!("'{c}'")
    }
}

/// What a reader found where it expected something else: a character (see
/// [`show_char`]) or, for `None`, the end of the text in `locale`'s words.
pub fn show_found(locale: &crate::locale::Locale, found: Option<char>) -> String {
    match found {
        Some(c) => show_char(c),
        None => locale.message(MsgKey::InputEndOfText, &[]),
    }
}

/// An input/output error in `locale`'s words: by its kind (no such file,
/// no permission, a folder, not UTF-8 text, …) from locale data, an error
/// of the system of no known kind by its number; the error's own text
/// (English, from the system or a reader) never.
pub fn describe_io_error(locale: &crate::locale::Locale, e: &io::Error) -> String {
    // A file refused before reading (a FIFO, a device, over its size cap).
    if let Some(refused) = e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<InputError>())
    {
        return refused.describe(locale);
    }
    if let Some(key) = io_kind_key(e.kind()) {
        return locale.message(key, &[]);
    }
    let key = match e.raw_os_error() {
        Some(36) => MsgKey::IoNameTooLong,
        Some(40) => MsgKey::IoLinkLoop,
        Some(5) => MsgKey::IoDeviceError,
        // Any other error of the system by its number: the system's own
        // text is English whatever the player's language.
        Some(code) => {
            return locale.message(MsgKey::IoSystemError, &[("code", &code.to_string())]);
        }
        // A reader's own error (`io::Error::other`): its text is English
        // (or anything at all), never shown.
        None => MsgKey::IoOther,
    };
    locale.message(key, &[])
}

/// The message of an error of `kind`: every kind the standard library
/// names has one; `None` for `Other` and kinds it does not name yet
/// (worded by the system's number, if any).
fn io_kind_key(kind: io::ErrorKind) -> Option<MsgKey> {
    use io::ErrorKind as K;
    Some(match kind {
        K::NotFound => MsgKey::IoNotFound,
        K::PermissionDenied => MsgKey::IoPermission,
        K::IsADirectory => MsgKey::IoIsDirectory,
        K::InvalidData => MsgKey::IoNotUtf8,
        K::InvalidFilename => MsgKey::IoNameTooLong,
        K::NotADirectory => MsgKey::IoNotADirectory,
        K::ReadOnlyFilesystem => MsgKey::IoReadOnly,
        K::StorageFull | K::QuotaExceeded => MsgKey::IoNoSpace,
        K::AlreadyExists => MsgKey::IoExists,
        K::FileTooLarge => MsgKey::IoTooLarge,
        K::ResourceBusy | K::ExecutableFileBusy => MsgKey::IoBusy,
        K::ConnectionRefused
        | K::ConnectionReset
        | K::HostUnreachable
        | K::NetworkUnreachable
        | K::ConnectionAborted
        | K::NotConnected
        | K::AddrInUse
        | K::AddrNotAvailable
        | K::NetworkDown
        | K::StaleNetworkFileHandle => MsgKey::IoNetwork,
        K::BrokenPipe => MsgKey::IoBrokenPipe,
        K::WouldBlock => MsgKey::IoNotReady,
        K::Interrupted => MsgKey::IoInterrupted,
        K::TimedOut => MsgKey::IoTimedOut,
        K::InvalidInput => MsgKey::IoInvalidInput,
        K::WriteZero => MsgKey::IoWriteZero,
        K::UnexpectedEof => MsgKey::IoUnexpectedEof,
        K::Unsupported | K::NotSeekable => MsgKey::IoUnsupported,
        K::OutOfMemory => MsgKey::IoOutOfMemory,
        K::DirectoryNotEmpty => MsgKey::IoDirectoryNotEmpty,
        K::CrossesDevices => MsgKey::IoCrossesDevices,
        K::TooManyLinks => MsgKey::IoTooManyLinks,
        K::Deadlock => MsgKey::IoDeadlock,
        K::ArgumentListTooLong => MsgKey::IoArgumentListTooLong,
        _ => return None,
    })
}

/// An error of the system (a file, a program that cannot be run) kept as
/// what describes it in any language, its kind and number: the system's
/// own text is English whatever the player's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SystemError {
    kind: io::ErrorKind,
    os: Option<i32>,
}

impl From<&io::Error> for SystemError {
    fn from(e: &io::Error) -> SystemError {
        SystemError {
            kind: e.kind(),
            os: e.raw_os_error(),
        }
    }
}

impl From<io::Error> for SystemError {
    fn from(e: io::Error) -> SystemError {
        SystemError::from(&e)
    }
}

impl SystemError {
    /// The error in `locale`'s words ([`describe_io_error`]).
    pub fn describe(&self, locale: &crate::locale::Locale) -> String {
        let e = match self.os {
            Some(code) => io::Error::from_raw_os_error(code),
            None => io::Error::from(self.kind),
        };
        describe_io_error(locale, &e)
    }
}

impl std::fmt::Display for SystemError {
    /// The error in the base locale's words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::locale::in_base(|l| self.describe(l)))
    }
}

/// Whether `c` separates the words of a move phrase.
pub fn is_word_separator(c: char) -> bool {
    c.is_whitespace() || c == ',' || c == ';'
}

/// Checks a move phrase (or any one line of input) against both limits, in
/// one pass over its characters.
pub fn check_phrase(text: &str) -> Result<(), TooLong> {
    // No character is shorter than a byte: a short text passes both.
    if text.len() <= MAX_WORD_CHARS {
        return Ok(());
    }
    let mut chars = 0usize;
    let mut word_start: Option<usize> = None;
    let mut word_chars = 0usize;
    for (i, c) in text.char_indices() {
        chars += 1;
        if chars > MAX_LINE_CHARS {
            return Err(TooLong::Line);
        }
        if is_word_separator(c) {
            word_start = None;
            word_chars = 0;
            continue;
        }
        let start = *word_start.get_or_insert(i);
        word_chars += 1;
        if word_chars > MAX_WORD_CHARS {
            let word: String = text[start..].chars().take(20).collect();
            return Err(TooLong::Word { start: word });
        }
    }
    Ok(())
}

/// One line read by [`read_line`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A line within the limit, without its line ending (`\n` or `\r\n`).
    Text(String),
    /// A line longer than [`MAX_LINE_CHARS`]: skipped up to its end.
    TooLong,
}

/// Reads one line of at most [`MAX_LINE_CHARS`] characters; `None` at the
/// end of the input. Never holds more than [`MAX_LINE_BYTES`] of a line: a
/// longer line is read to its end and dropped ([`Line::TooLong`]). Bytes
/// that are not UTF-8 become U+FFFD.
///
/// # Errors
///
/// Only errors of the reader itself.
pub fn read_line(input: &mut dyn BufRead) -> io::Result<Option<Line>> {
    let mut bytes: Vec<u8> = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        any = true;
        let (chunk, found_end) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        if !too_long {
            if bytes.len() + chunk.len() > MAX_LINE_BYTES {
                too_long = true;
                bytes = Vec::new();
            } else {
                bytes.extend_from_slice(chunk);
            }
        }
        let used = found_end.unwrap_or(available.len());
        input.consume(used);
        if found_end.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(Line::TooLong));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    let text = match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    if text.chars().count() > MAX_LINE_CHARS {
        return Ok(Some(Line::TooLong));
    }
    Ok(Some(Line::Text(text)))
}

/// Every line of `input` as [`Line`]s (see [`read_line`]); stops at the end
/// or at the first read error.
pub fn lines(mut input: impl BufRead) -> impl Iterator<Item = io::Result<Line>> {
    std::iter::from_fn(move || read_line(&mut input).transpose())
}

/// What a path that is not a regular file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A directory.
    Directory,
    /// A named pipe (FIFO): reading it waits for a writer.
    Fifo,
    /// A character or block device (`/dev/zero`, a terminal, a disk).
    Device,
    /// A Unix socket.
    Socket,
    /// Anything else.
    Other,
}

impl FileKind {
    /// Its message key.
    pub fn key(self) -> MsgKey {
        match self {
            FileKind::Directory => MsgKey::FileKindDirectory,
            FileKind::Fifo => MsgKey::FileKindFifo,
            FileKind::Device => MsgKey::FileKindDevice,
            FileKind::Socket => MsgKey::FileKindSocket,
            FileKind::Other => MsgKey::FileKindOther,
        }
    }
}

/// Why an input file was not read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// Not a regular file.
    #[error("not a regular file ({0:?})")]
    NotRegular(FileKind),
    /// Larger than the cap.
    #[error("larger than {limit} bytes")]
    TooLarge {
        /// The cap, in bytes.
        limit: u64,
    },
    /// The text is not UTF-8.
    #[error("not UTF-8 text")]
    NotText,
    /// The system refused (no such file, no permission, …).
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl InputError {
    /// One localized phrase for a message's `{error}` ("it is a named
    /// pipe, not a regular file").
    pub fn describe(&self, locale: &Locale) -> String {
        match self {
            InputError::NotRegular(kind) => {
                let kind = locale.message(kind.key(), &[]);
                locale.message(MsgKey::FileNotRegular, &[("kind", &kind)])
            }
            InputError::TooLarge { limit } => {
                locale.message(MsgKey::FileTooLarge, &[("limit", &megabytes(*limit))])
            }
            InputError::NotText => locale.message(MsgKey::IoNotUtf8, &[]),
            InputError::Io(e) => describe_io_error(locale, e),
        }
    }
}

impl From<InputError> for io::Error {
    fn from(e: InputError) -> io::Error {
        match e {
            InputError::Io(e) => e,
            InputError::NotRegular(_) | InputError::TooLarge { .. } | InputError::NotText => {
                io::Error::new(io::ErrorKind::InvalidInput, e)
            }
        }
    }
}

/// `limit` bytes as "64 MB" (or "1 MB"): caps are whole mebibytes.
fn megabytes(limit: u64) -> String {
    format!("{} MB", limit.div_ceil(1 << 20))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of `io::ErrorKind` stable today.
    const KINDS: [io::ErrorKind; 39] = {
        use io::ErrorKind as K;
        [
            K::NotFound,
            K::PermissionDenied,
            K::ConnectionRefused,
            K::ConnectionReset,
            K::HostUnreachable,
            K::NetworkUnreachable,
            K::ConnectionAborted,
            K::NotConnected,
            K::AddrInUse,
            K::AddrNotAvailable,
            K::NetworkDown,
            K::BrokenPipe,
            K::AlreadyExists,
            K::WouldBlock,
            K::NotADirectory,
            K::IsADirectory,
            K::DirectoryNotEmpty,
            K::ReadOnlyFilesystem,
            K::StaleNetworkFileHandle,
            K::InvalidInput,
            K::InvalidData,
            K::TimedOut,
            K::WriteZero,
            K::StorageFull,
            K::NotSeekable,
            K::QuotaExceeded,
            K::FileTooLarge,
            K::ResourceBusy,
            K::ExecutableFileBusy,
            K::Deadlock,
            K::CrossesDevices,
            K::TooManyLinks,
            K::InvalidFilename,
            K::ArgumentListTooLong,
            K::Interrupted,
            K::Unsupported,
            K::UnexpectedEof,
            K::OutOfMemory,
            K::Other,
        ]
    };

    /// Errors of the system keep their words: by kind where the standard
    /// library names one, by the few numbers it does not, else by number.
    #[test]
    fn errors_of_the_system_are_worded_by_kind_then_by_number() {
        let en = crate::locale::builtin("en").unwrap();
        let say = |code: i32| describe_io_error(&en, &io::Error::from_raw_os_error(code));
        assert_eq!(say(2), en.message(MsgKey::IoNotFound, &[]));
        assert_eq!(say(28), en.message(MsgKey::IoNoSpace, &[]));
        assert_eq!(say(32), en.message(MsgKey::IoBrokenPipe, &[]));
        assert_eq!(say(36), en.message(MsgKey::IoNameTooLong, &[]));
        assert_eq!(say(40), en.message(MsgKey::IoLinkLoop, &[]));
        assert_eq!(say(5), en.message(MsgKey::IoDeviceError, &[]));
        assert_eq!(
            say(4000),
            en.message(MsgKey::IoSystemError, &[("code", "4000")])
        );
        assert_eq!(
            describe_io_error(&en, &io::Error::other("x")),
            en.message(MsgKey::IoOther, &[])
        );
    }

    /// An error without a number of the system (`io::Error::other`, a
    /// reader's own) pasted its English text ("the system says: SECRET"):
    /// every kind is worded from locale data in every locale, the inner
    /// text never, and every kind but `Other` says more than "an error".
    #[test]
    fn every_kind_of_io_error_is_worded_in_every_locale_without_its_text() {
        let en = crate::locale::builtin("en").unwrap();
        for code in crate::locale::builtin_codes() {
            let l = crate::locale::builtin(code).unwrap();
            let other = describe_io_error(&l, &io::Error::other("x"));
            for kind in KINDS {
                for e in [
                    io::Error::new(kind, "SECRET english words"),
                    io::Error::from(kind),
                ] {
                    let t = describe_io_error(&l, &e);
                    assert!(
                        !t.is_empty() && !t.contains("SECRET") && !t.contains('{'),
                        "{code} {kind:?}: {t}"
                    );
                    if l.language != "en" {
                        assert!(
                            !t.contains(&io::Error::from(kind).to_string()),
                            "{code} {kind:?}: {t}"
                        );
                        assert_ne!(t, describe_io_error(&en, &e), "{code} {kind:?}");
                    }
                    if kind != io::ErrorKind::Other {
                        assert_ne!(t, other, "{code} {kind:?}: no message of its own");
                    }
                }
            }
        }
    }

    fn all(bytes: &[u8]) -> Vec<Line> {
        lines(bytes).map(Result::unwrap).collect()
    }

    fn text(s: &str) -> Line {
        Line::Text(s.to_owned())
    }

    #[test]
    fn lines_with_and_without_endings() {
        assert_eq!(all(b""), vec![]);
        assert_eq!(
            all(b"a\nb\r\n\nc"),
            vec![text("a"), text("b"), text(""), text("c")]
        );
        assert_eq!(all(b"\n"), vec![text("")]);
    }

    #[test]
    fn a_long_line_is_dropped_and_the_next_one_read() {
        let mut input = vec![b'x'; MAX_LINE_BYTES * 3];
        input.extend_from_slice(b"\nnext\n");
        assert_eq!(all(&input), vec![Line::TooLong, text("next")]);
        // Exactly the limit in characters is fine; one more is not.
        let ok = "ä".repeat(MAX_LINE_CHARS);
        assert_eq!(all(ok.as_bytes()), vec![text(&ok)]);
        let over = "ä".repeat(MAX_LINE_CHARS + 1);
        assert_eq!(all(over.as_bytes()), vec![Line::TooLong]);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_replaced() {
        assert_eq!(all(b"e4\xff\xfe\n"), vec![text("e4\u{fffd}\u{fffd}")]);
    }

    #[test]
    fn characters_are_shown_as_they_are_or_by_code() {
        assert_eq!(show_char('é'), "'é'");
        assert_eq!(show_char('מ'), "'מ'");
        assert_eq!(show_char('\u{30c}'), "U+030C");
        assert_eq!(show_char('\u{7}'), "U+0007");
        assert_eq!(show_char('\u{200f}'), "U+200F");
        assert_eq!(show_char(' '), "U+0020");
    }

    #[test]
    fn phrases_within_and_beyond_the_limits() {
        assert_eq!(check_phrase("Springer Gustav eins Felix drei"), Ok(()));
        assert_eq!(check_phrase(&"e4 ".repeat(MAX_LINE_CHARS / 3)), Ok(()));
        assert_eq!(
            check_phrase(&"e4 ".repeat(MAX_LINE_CHARS)),
            Err(TooLong::Line)
        );
        let word = "e4".repeat(MAX_WORD_CHARS);
        assert_eq!(
            check_phrase(&format!("Springer {word}")),
            Err(TooLong::Word {
                start: "e4".repeat(10)
            })
        );
        assert_eq!(check_phrase(&"x".repeat(MAX_WORD_CHARS)), Ok(()));
    }
}
