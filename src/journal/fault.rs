//! Test double of the journal store's [`Sink`]: a disk in memory that
//! fails when told to (the Nth write finds the disk full, a write is cut
//! short, `fsync` fails, cutting back fails), and keeps apart what was
//! written from what is durable (synced), with a log of every operation
//! in order, which the front end's output can join, so a test sees what
//! was said before what was on disk.

use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use super::Sink;

/// One operation, in the order it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// Bytes written (not yet durable).
    Write(usize),
    /// A write refused.
    WriteFailed,
    /// Everything written so far is durable.
    Sync,
    /// `fsync` failed.
    SyncFailed,
    /// Cut back to this length.
    Cut(u64),
    /// Cutting back failed.
    CutFailed,
    /// Something the front end said (joined by the test).
    Said(String),
}

/// What fails, counted from 1.
#[derive(Debug, Clone, Copy, Default)]
pub struct Faults {
    /// This write call finds the disk full (ENOSPC).
    pub full_at_write: Option<usize>,
    /// This write call takes only this many bytes (a short write); the
    /// next one finds the disk full.
    pub short_write: Option<(usize, usize)>,
    /// This `sync_data` call fails (EIO).
    pub fail_sync: Option<usize>,
    /// Cutting back fails.
    pub fail_cut: bool,
}

/// The disk's state, shared by the sink and the test.
#[derive(Debug, Default)]
pub struct State {
    /// The file's bytes as the program sees them.
    pub bytes: Vec<u8>,
    /// The bytes as of the last successful sync (what survives a power
    /// cut).
    pub durable: Vec<u8>,
    /// Every operation, in order.
    pub log: Vec<Op>,
    /// What fails.
    pub faults: Faults,
    writes: usize,
    syncs: usize,
    full: bool,
}

/// A disk in memory.
#[derive(Debug, Clone, Default)]
pub struct Disk(pub Arc<Mutex<State>>);

impl Disk {
    /// A disk holding `bytes` (durable), failing as `faults` says.
    pub fn new(bytes: &[u8], faults: Faults) -> Disk {
        Disk(Arc::new(Mutex::new(State {
            bytes: bytes.to_vec(),
            durable: bytes.to_vec(),
            faults,
            ..State::default()
        })))
    }

    /// The state.
    pub fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The disk works again (space freed, the fault gone).
    pub fn heal(&self) {
        let mut s = self.state();
        s.faults = Faults::default();
        s.full = false;
    }

    /// Notes something said by the front end.
    pub fn said(&self, text: &str) {
        self.state().log.push(Op::Said(text.to_owned()));
    }
}

fn enospc() -> io::Error {
    io::Error::from_raw_os_error(libc::ENOSPC)
}

impl io::Write for Disk {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut s = self.state();
        s.writes += 1;
        let n = s.writes;
        if s.full || s.faults.full_at_write == Some(n) {
            s.log.push(Op::WriteFailed);
            return Err(enospc());
        }
        let take = match s.faults.short_write {
            Some((at, bytes)) if at == n => {
                s.full = true;
                bytes.min(buf.len())
            }
            _ => buf.len(),
        };
        s.bytes.extend_from_slice(&buf[..take]);
        s.log.push(Op::Write(take));
        Ok(take)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Sink for Disk {
    fn sync_data(&mut self) -> io::Result<()> {
        let mut s = self.state();
        s.syncs += 1;
        if s.faults.fail_sync == Some(s.syncs) {
            s.log.push(Op::SyncFailed);
            return Err(io::Error::from_raw_os_error(libc::EIO));
        }
        s.durable = s.bytes.clone();
        s.log.push(Op::Sync);
        Ok(())
    }

    fn size(&mut self) -> io::Result<u64> {
        Ok(self.state().bytes.len() as u64)
    }

    fn set_len(&mut self, len: u64) -> io::Result<()> {
        let mut s = self.state();
        if s.faults.fail_cut {
            s.log.push(Op::CutFailed);
            return Err(io::Error::from_raw_os_error(libc::EIO));
        }
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        s.bytes.resize(len, 0);
        s.log.push(Op::Cut(len as u64));
        Ok(())
    }
}
