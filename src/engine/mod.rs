//! Chess engines over UCI (adapter): one small trait, [`Engine`], with the
//! real implementation [`Uci`] (a child process such as Stockfish) and a
//! test double [`Scripted`].
//!
//! An engine is an untrusted program: every answer is awaited with a time
//! limit ([`Limits`]: the `uci`/`uciok` and `isready`/`readyok` handshake,
//! and each move: its thinking time plus a margin), lines are read on a
//! thread of their own with a length cap, and an engine that passes a
//! limit is killed with its whole process group. [`Worker::start`] does
//! the handshake on the worker thread, so the game starts at once whatever
//! the engine does; a failure arrives through [`Worker::poll`] and is
//! described in the player's language by [`EngineError::describe`].

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;

use crate::locale::Locale;
use crate::locale::MsgKey;

/// Where Debian and Ubuntu install Stockfish.
pub const DEFAULT_ENGINE: &str = "/usr/games/stockfish";

/// The longest line read from an engine (a longer one is cut there).
const MAX_LINE: u64 = 64 << 10;

/// The stage of talking to an engine at which it failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UciStage {
    /// Waiting for `uciok` after `uci`.
    Uci,
    /// Waiting for `readyok` after `isready`.
    Ready,
    /// Waiting for `bestmove` after `go`.
    Move,
}

/// Why the engine gave no move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error("{path}: {kind}")]
    Start {
        /// The program.
        path: PathBuf,
        /// What the system said.
        kind: std::io::ErrorKind,
        /// The system's error number, if any.
        code: Option<i32>,
    },
    /// No answer within the time limit: the engine was stopped.
    #[error("no answer within {after:?} ({stage:?})")]
    Timeout {
        /// What was awaited.
        stage: UciStage,
        /// The limit.
        after: Duration,
    },
    /// The engine ended (or closed its output) while an answer was awaited.
    #[error("the engine has ended ({0:?})")]
    Ended(UciStage),
    /// The engine answered `bestmove` without a move (the line as read).
    #[error("no move: {0}")]
    NoMove(String),
    /// The engine's move is not legal in the position it was asked about.
    #[error("illegal move {0}")]
    Illegal(UciMove),
    /// The engine's `bestmove` names no move UCI can write (the word as
    /// read): said as an illegal move, with the word.
    #[error("not a move: {0}")]
    NotAMove(String),
    /// The engine cannot be talked to (no pipes, no thread, the worker
    /// gone).
    #[error("{0:?}")]
    Protocol(Broken),
}

/// What broke between annabella and the engine ([`EngineError::Protocol`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Broken {
    /// The engine's input or output could not be connected.
    NoPipes,
    /// No thread could be started to read the engine's output.
    NoReaderThread,
    /// No thread could be started to talk to the engine.
    NoEngineThread,
    /// The thread that talks to the engine has ended.
    ThreadEnded,
    /// A scripted engine (a test double) has no more moves.
    ScriptEnded,
}

impl EngineError {
    /// `true` when the engine never became usable (it could not be
    /// started or did not finish the handshake).
    pub fn at_start(&self) -> bool {
        match self {
            EngineError::Start { .. } => true,
            EngineError::Timeout { stage, .. } | EngineError::Ended(stage) => {
                *stage != UciStage::Move
            }
            EngineError::NoMove(_)
            | EngineError::Illegal(_)
            | EngineError::NotAMove(_)
            | EngineError::Protocol(_) => false,
        }
    }

    /// One localized phrase for the `{error}` of `ui.engine_missing` and
    /// `ui.engine_failed`.
    pub fn describe(&self, locale: &Locale) -> String {
        match self {
            EngineError::Start { path, kind, code } => {
                let path = path.display().to_string();
                if *kind == std::io::ErrorKind::NotFound {
                    return locale.message(MsgKey::EngineNotFound, &[("path", &path)]);
                }
                let e = match code {
                    Some(c) => std::io::Error::from_raw_os_error(*c),
                    None => std::io::Error::from(*kind),
                };
                let error = crate::input::describe_io_error(locale, &e);
                locale.message(
                    MsgKey::EngineCannotRun,
                    &[("path", &path), ("error", &error)],
                )
            }
            EngineError::Timeout { stage, after } => {
                let key = match stage {
                    UciStage::Uci => MsgKey::EngineNoUciok,
                    UciStage::Ready => MsgKey::EngineNoReadyok,
                    UciStage::Move => MsgKey::EngineNoBestmove,
                };
                let seconds = after.as_millis().div_ceil(1000).to_string();
                locale.message(key, &[("seconds", &seconds)])
            }
            EngineError::Ended(_) => locale.message(MsgKey::EngineEnded, &[]),
            EngineError::NoMove(_) => locale.message(MsgKey::EngineNoMove, &[]),
            EngineError::Illegal(m) => {
                locale.message(MsgKey::EngineIllegalMove, &[("move", &m.to_string())])
            }
            EngineError::NotAMove(word) => {
                locale.message(MsgKey::EngineIllegalMove, &[("move", word)])
            }
            EngineError::Protocol(_) => locale.message(MsgKey::EngineBroken, &[]),
        }
    }
}

/// How strongly and how long the engine plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strength {
    /// UCI "Skill Level" 0–20 (Stockfish), `None` = engine default.
    pub skill: Option<u8>,
    /// Thinking time per move.
    pub movetime: Duration,
}

impl Default for Strength {
    fn default() -> Strength {
        Strength {
            skill: None,
            movetime: Duration::from_millis(1000),
        }
    }
}

/// How long an engine may take to answer before it is stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// From `uci` to `uciok`.
    pub uciok: Duration,
    /// From `isready` to `readyok` (an engine may load its network here).
    pub readyok: Duration,
    /// Added to the thinking time for `bestmove`.
    pub move_margin: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            uciok: Duration::from_secs(5),
            readyok: Duration::from_secs(10),
            move_margin: Duration::from_secs(5),
        }
    }
}

/// Something that chooses moves.
pub trait Engine: Send {
    /// The best move in the position reached from `fen` by `moves`.
    ///
    /// # Errors
    ///
    /// When the engine does not answer with a move.
    fn best_move(&mut self, fen: &str, moves: &[UciMove]) -> Result<UciMove, EngineError>;
    /// The engine's name ("Stockfish 16").
    fn name(&self) -> &str;
}

/// The engine's process group while it runs (`None` once it has been
/// reaped, so a late kill never meets another process).
/// An engine's process group, shared with whoever must be able to stop
/// it (`None` once it is gone).
pub(crate) type Group = Arc<Mutex<Option<i32>>>;

/// Stops the engine's whole process group (it and every helper it
/// started), if it runs.
pub(crate) fn kill_group(group: &Group) {
    let held = group
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(pgid) = *held {
        #[cfg(unix)]
        // SAFETY: kill(2) on the engine's own process group, which has not
        // been reaped (the lock is held).
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
        #[cfg(not(unix))]
        let _ = pgid;
    }
}

/// A UCI engine in a child process.
#[derive(Debug)]
pub struct Uci {
    child: Child,
    group: Group,
    stdin: ChildStdin,
    lines: Receiver<String>,
    name: String,
    strength: Strength,
    limits: Limits,
}

/// Reads the engine's lines (each at most [`MAX_LINE`] bytes) into a
/// bounded channel until its output ends.
fn read_lines(out: impl Read, tx: &SyncSender<String>) {
    let mut r = BufReader::new(out);
    loop {
        let mut buf = Vec::new();
        match (&mut r).take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).into_owned();
                if tx.send(line).is_err() {
                    return;
                }
            }
        }
    }
}

impl Uci {
    /// Starts the engine at `path` and sets it up (`uci`, options,
    /// `isready`), waiting at most `limits` for its answers.
    ///
    /// # Errors
    ///
    /// When the program cannot be started or does not speak UCI in time
    /// (it is then stopped).
    pub fn start(path: &Path, strength: Strength, limits: Limits) -> Result<Uci, EngineError> {
        Uci::start_in(path, strength, limits, Group::default())
    }

    /// [`Uci::start`], with the process group recorded in `group` from
    /// the moment the engine runs (so another thread can stop it even
    /// during the handshake).
    pub(crate) fn start_in(
        path: &Path,
        strength: Strength,
        limits: Limits,
        group: Group,
    ) -> Result<Uci, EngineError> {
        // A folder is refused by the system as "permission denied", which
        // sends the user to the file's rights: say it is a folder.
        if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            return Err(EngineError::Start {
                path: path.to_owned(),
                kind: std::io::ErrorKind::IsADirectory,
                code: None,
            });
        }
        let mut command = Command::new(path);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            // Its own process group: it and any children it starts are
            // stopped together, and the terminal's Ctrl+C is not theirs.
            use std::os::unix::process::CommandExt;
            command.process_group(0);
            // SAFETY: prctl(2) and getppid(2) only, between fork and exec:
            // the engine is killed if annabella dies without stopping it
            // (SIGKILL). If annabella ended between the fork and the prctl
            // (a quit while the engine was starting), the death signal would
            // never come: the engine is not started then.
            let parent = std::process::id();
            unsafe {
                command.pre_exec(move || {
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    if u32::try_from(libc::getppid()).ok() != Some(parent) {
                        return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                    }
                    Ok(())
                });
            }
        }
        let mut child = command.spawn().map_err(|e| EngineError::Start {
            path: path.to_owned(),
            kind: e.kind(),
            code: e.raw_os_error(),
        })?;
        *group
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = i32::try_from(child.id()).ok();
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            kill_group(&group);
            let _ = child.wait();
            return Err(EngineError::Protocol(Broken::NoPipes));
        };
        let (tx, lines) = sync_channel(1024);
        let reader = std::thread::Builder::new()
            .name("annabella-engine-out".to_owned())
            .spawn(move || read_lines(stdout, &tx));
        let mut uci = Uci {
            child,
            group,
            stdin,
            lines,
            name: path.display().to_string(),
            strength,
            limits,
        };
        if reader.is_err() {
            return Err(EngineError::Protocol(Broken::NoReaderThread));
        }
        uci.send("uci", UciStage::Uci)?;
        let deadline = Instant::now() + limits.uciok;
        loop {
            let line = uci.read_line(UciStage::Uci, limits.uciok, deadline)?;
            if let Some(name) = line.strip_prefix("id name ") {
                uci.name = name.trim().to_owned();
            }
            if line.trim() == "uciok" {
                break;
            }
        }
        if let Some(skill) = strength.skill {
            uci.send(
                &format!("setoption name Skill Level value {}", skill.min(20)),
                UciStage::Ready,
            )?;
        }
        uci.send("ucinewgame", UciStage::Ready)?;
        uci.send("isready", UciStage::Ready)?;
        let deadline = Instant::now() + limits.readyok;
        while uci
            .read_line(UciStage::Ready, limits.readyok, deadline)?
            .trim()
            != "readyok"
        {}
        Ok(uci)
    }

    /// Sends `position` and `go movetime`; returns how long the engine
    /// may take for its `bestmove` (the thinking time and the margin) and
    /// the moment that ends.
    fn go(
        &mut self,
        position: &str,
        movetime: Duration,
    ) -> Result<(Duration, Instant), EngineError> {
        let movetime = movetime.max(Duration::from_millis(1));
        self.send(position, UciStage::Move)?;
        self.send(
            &format!("go movetime {}", movetime.as_millis()),
            UciStage::Move,
        )?;
        let limit = movetime.saturating_add(self.limits.move_margin);
        Ok((limit, Instant::now() + limit))
    }

    /// Writes a line; an engine that cannot be written to has ended.
    fn send(&mut self, line: &str, stage: UciStage) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Ended(stage))
    }

    /// The next line, if it comes before `deadline`; otherwise the engine
    /// is stopped.
    fn read_line(
        &mut self,
        stage: UciStage,
        limit: Duration,
        deadline: Instant,
    ) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                kill_group(&self.group);
                Err(EngineError::Timeout {
                    stage,
                    after: limit,
                })
            }
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Ended(stage)),
        }
    }
}

impl Engine for Uci {
    fn best_move(&mut self, fen: &str, moves: &[UciMove]) -> Result<UciMove, EngineError> {
        let mut pos = format!("position fen {fen}");
        if !moves.is_empty() {
            pos.push_str(" moves");
            for m in moves {
                pos.push(' ');
                pos.push_str(&m.to_string());
            }
        }
        let (limit, deadline) = self.go(&pos, self.strength.movetime)?;
        loop {
            let line = self.read_line(UciStage::Move, limit, deadline)?;
            if let Some(rest) = line.strip_prefix("bestmove") {
                return best_of(rest, &line);
            }
        }
    }

    fn name(&self) -> &str {
        &self.name
    }
}

/// The move of a `bestmove` line (`rest`: what follows the word); none
/// (`(none)`, the null move `0000`, or no move at all) is
/// [`EngineError::NoMove`] with the `line`; a word that is no move in UCI
/// is [`EngineError::NotAMove`].
fn best_of(rest: &str, line: &str) -> Result<UciMove, EngineError> {
    let no_move = || EngineError::NoMove(line.trim().to_owned());
    let word = rest.split_whitespace().next().ok_or_else(no_move)?;
    if word == "(none)" {
        return Err(no_move());
    }
    match UciMove::from_ascii(word.as_bytes()) {
        Ok(UciMove::Null) => Err(no_move()),
        Ok(m) => Ok(m),
        Err(_) => Err(EngineError::NotAMove(
            word.chars().filter(|c| !c.is_control()).take(16).collect(),
        )),
    }
}

/// An engine's judgement of a position, from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Advantage in hundredths of a pawn (negative: the side to move is
    /// behind).
    Centipawns(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

/// The engine's best move and score for a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The best move.
    pub best: UciMove,
    /// The score of the deepest search line, if the engine gave one.
    pub score: Option<Score>,
}

/// The score in a UCI `info` line (`... score cp 34 ...`,
/// `... score mate -3 ...`).
pub fn parse_score(info: &str) -> Option<Score> {
    let mut words = info.split_whitespace();
    while let Some(w) = words.next() {
        if w == "score" {
            let kind = words.next()?;
            let n: i32 = words.next()?.parse().ok()?;
            return match kind {
                "cp" => Some(Score::Centipawns(n)),
                "mate" => Some(Score::Mate(n)),
                _ => None,
            };
        }
    }
    None
}

impl Uci {
    /// Searches `fen` for `movetime` and returns the best move with the
    /// last score the engine reported.
    ///
    /// # Errors
    ///
    /// When the engine does not answer with a move.
    pub fn analyse(&mut self, fen: &str, movetime: Duration) -> Result<Analysis, EngineError> {
        let (limit, deadline) = self.go(&format!("position fen {fen}"), movetime)?;
        let mut score = None;
        loop {
            let line = self.read_line(UciStage::Move, limit, deadline)?;
            if line.starts_with("info")
                && !line.contains(" upperbound")
                && !line.contains(" lowerbound")
            {
                score = parse_score(&line).or(score);
            }
            if let Some(rest) = line.strip_prefix("bestmove") {
                let best = best_of(rest, &line)?;
                return Ok(Analysis { best, score });
            }
        }
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.send("quit", UciStage::Move);
        // Give it a moment to leave on its own, then make sure (its whole
        // process group: an engine may have started helpers).
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let mut held = self
            .group
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(pgid) = held.take() {
            #[cfg(unix)]
            // SAFETY: kill(2) on the engine's process group, not yet
            // reaped while the lock is held.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
            #[cfg(not(unix))]
            let _ = (pgid, self.child.kill());
        }
        let _ = self.child.wait();
    }
}

/// Test double: plays the given moves in order, then fails.
#[derive(Debug, Clone, Default)]
pub struct Scripted {
    /// Moves still to play, first next.
    pub moves: Vec<UciMove>,
    /// Positions asked about: (fen, moves).
    pub asked: Vec<(String, Vec<UciMove>)>,
}

impl Engine for Scripted {
    fn best_move(&mut self, fen: &str, moves: &[UciMove]) -> Result<UciMove, EngineError> {
        self.asked.push((fen.to_owned(), moves.to_vec()));
        if self.moves.is_empty() {
            return Err(EngineError::Protocol(Broken::ScriptEnded));
        }
        Ok(self.moves.remove(0))
    }

    fn name(&self) -> &str {
        "scripted"
    }
}

/// An engine on its own thread: requests go in, answers come out, so the
/// user interface never waits for it. Dropping it stops the engine at
/// once, even in the middle of a move.
#[derive(Debug)]
pub struct Worker {
    tx: std::sync::mpsc::Sender<(String, Vec<UciMove>)>,
    /// Its own channel ([`Worker::poll`]); `None` when the answers go to
    /// a front end's loop.
    rx: Option<std::sync::mpsc::Receiver<Result<UciMove, EngineError>>>,
    /// The engine's process group ([`Worker::start`]).
    group: Option<Group>,
}

/// Where the answers go.
pub type Answers = crate::wake::Post<Result<UciMove, EngineError>>;

fn serve(
    engine: &mut dyn Engine,
    req_rx: &std::sync::mpsc::Receiver<(String, Vec<UciMove>)>,
    res: &Answers,
) {
    while let Ok((fen, moves)) = req_rx.recv() {
        let r = engine.best_move(&fen, &moves);
        let failed = r.is_err();
        if !res.send(r) || failed {
            break;
        }
    }
}

impl Worker {
    /// Runs `engine` on a new thread.
    pub fn spawn(engine: Box<dyn Engine>) -> Worker {
        let (post, rx) = Answers::channel();
        let mut w = Worker::spawn_posting(engine, post);
        w.rx = Some(rx);
        w
    }

    /// As [`spawn`](Self::spawn), the answers going to `post`.
    pub fn spawn_posting(mut engine: Box<dyn Engine>, post: Answers) -> Worker {
        let (tx, req_rx) = std::sync::mpsc::channel::<(String, Vec<UciMove>)>();
        std::thread::spawn(move || serve(engine.as_mut(), &req_rx, &post));
        Worker {
            tx,
            rx: None,
            group: None,
        }
    }

    /// Starts the UCI engine at `path` on a new thread and serves it there:
    /// returns at once. A failure to start (no program, no handshake in
    /// time) is the first answer [`poll`](Self::poll) gives, whether or
    /// not a move was asked for.
    pub fn start(path: PathBuf, strength: Strength, limits: Limits) -> Worker {
        let (post, rx) = Answers::channel();
        let mut w = Worker::start_posting(path, strength, limits, post);
        w.rx = Some(rx);
        w
    }

    /// As [`start`](Self::start), the answers (and a failure to start)
    /// going to `post`, a front end's loop.
    pub fn start_posting(
        path: PathBuf,
        strength: Strength,
        limits: Limits,
        post: Answers,
    ) -> Worker {
        let (tx, req_rx) = std::sync::mpsc::channel::<(String, Vec<UciMove>)>();
        let group = Group::default();
        let engine_group = group.clone();
        let failed = post.clone();
        let spawned = std::thread::Builder::new()
            .name("annabella-engine".to_owned())
            .spawn(
                move || match Uci::start_in(&path, strength, limits, engine_group) {
                    Ok(mut uci) => serve(&mut uci, &req_rx, &post),
                    Err(e) => {
                        post.send(Err(e));
                        // Requests still come until the failure is polled.
                        while req_rx.recv().is_ok() {}
                    }
                },
            );
        if spawned.is_err() {
            failed.send(Err(EngineError::Protocol(Broken::NoEngineThread)));
            return Worker {
                tx,
                rx: None,
                group: None,
            };
        }
        Worker {
            tx,
            rx: None,
            group: Some(group),
        }
    }

    /// Asks for a move; the answer comes from [`Worker::poll`] (or goes
    /// to the loop it posts to).
    pub fn ask(&self, fen: String, moves: Vec<UciMove>) -> Result<(), EngineError> {
        self.tx
            .send((fen, moves))
            .map_err(|_| EngineError::Protocol(Broken::ThreadEnded))
    }

    /// The answer, if one has arrived (its own channel only).
    pub fn poll(&self) -> Option<Result<UciMove, EngineError>> {
        match self.rx.as_ref()?.try_recv() {
            Ok(r) => Some(r),
            Err(std::sync::mpsc::TryRecvError::Empty) => None,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                Some(Err(EngineError::Protocol(Broken::ThreadEnded)))
            }
        }
    }

    /// Waits up to `timeout` for the answer (its own channel only).
    pub fn wait(&self, timeout: Duration) -> Option<Result<UciMove, EngineError>> {
        match self.rx.as_ref()?.recv_timeout(timeout) {
            Ok(r) => Some(r),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                Some(Err(EngineError::Protocol(Broken::ThreadEnded)))
            }
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // The engine may be thinking, or stuck: it is stopped now, not at
        // its time limit; its thread then ends on its own.
        if let Some(g) = &self.group {
            kill_group(g);
        }
    }
}

#[cfg(test)]
mod tests {
    fn uci(text: &str) -> UciMove {
        text.parse().expect("a UCI move")
    }

    use super::*;

    #[test]
    fn scripted_plays_in_order_then_fails() {
        let mut e = Scripted {
            moves: vec![uci("e2e4")],
            ..Scripted::default()
        };
        assert_eq!(e.best_move("fen", &[]), Ok(uci("e2e4")));
        assert!(e.best_move("fen", &[uci("e2e4")]).is_err());
        assert_eq!(e.asked.len(), 2);
        assert_eq!(e.asked[1].1, vec![uci("e2e4")]);
    }

    #[test]
    fn missing_program_is_a_start_error() {
        let r = Uci::start(
            Path::new("/nonexistent/engine"),
            Strength::default(),
            Limits::default(),
        );
        assert!(matches!(r, Err(EngineError::Start { .. })), "{r:?}");
    }

    #[test]
    fn a_folder_is_said_to_be_a_folder_not_a_permission_problem() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let r = Uci::start(dir.path(), Strength::default(), Limits::default());
        let Err(e) = r else {
            panic!("a folder started as an engine")
        };
        let en = crate::locale::builtin("en").expect("en");
        let said = e.describe(&en);
        let folder = en.message(MsgKey::IoIsDirectory, &[]);
        let denied = en.message(MsgKey::IoPermission, &[("error", "")]);
        assert!(said.contains(&folder), "{said}");
        assert!(!said.contains(denied.trim()), "{said}");
        // Liveness: a missing program is still "not found".
        let r = Uci::start(
            &dir.path().join("nope"),
            Strength::default(),
            Limits::default(),
        );
        let Err(e) = r else {
            panic!("a missing engine started")
        };
        assert_eq!(
            e.describe(&en),
            en.message(
                MsgKey::EngineNotFound,
                &[("path", &dir.path().join("nope").display().to_string())]
            )
        );
    }

    #[test]
    fn scores_are_read_from_info_lines() {
        assert_eq!(
            parse_score("info depth 12 seldepth 20 score cp -34 nodes 1000 pv e2e4"),
            Some(Score::Centipawns(-34))
        );
        assert_eq!(
            parse_score("info depth 30 score mate 3 pv d1h5"),
            Some(Score::Mate(3))
        );
        assert_eq!(parse_score("info string NNUE enabled"), None);
    }

    #[test]
    fn stockfish_finds_a_mate_in_one() {
        let path = Path::new(DEFAULT_ENGINE);
        if !path.exists() {
            crate::test_skip::skip(&format!(
                "Stockfish is missing at {DEFAULT_ENGINE} (apt-get install stockfish)"
            ));
            return;
        }
        let mut e = Uci::start(path, Strength::default(), Limits::default()).unwrap();
        // White: Qh5 and Bc4 against f7 (scholar's mate).
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
        let a = e.analyse(fen, Duration::from_millis(300)).unwrap();
        assert_eq!(a.best, uci("h5f7"));
        assert_eq!(a.score, Some(Score::Mate(1)));
    }

    #[test]
    fn worker_passes_answers_back() {
        let w = Worker::spawn(Box::new(Scripted {
            moves: vec![uci("g1f3")],
            ..Scripted::default()
        }));
        w.ask("fen".into(), vec![]).unwrap();
        assert_eq!(w.wait(Duration::from_secs(5)), Some(Ok(uci("g1f3"))));
    }
}
