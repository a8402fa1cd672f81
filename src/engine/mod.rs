//! Chess engines over UCI (adapter): one small trait, [`Engine`], with the
//! real implementation [`Uci`] (a child process such as Stockfish) and a
//! test double [`Scripted`].

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

/// Where Debian and Ubuntu install Stockfish.
pub const DEFAULT_ENGINE: &str = "/usr/games/stockfish";

/// Why the engine gave no move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error("{path}: {error}")]
    Start {
        /// The program.
        path: PathBuf,
        /// What the system said.
        error: String,
    },
    /// The engine stopped or wrote something unexpected.
    #[error("{0}")]
    Protocol(String),
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

/// Something that chooses moves.
pub trait Engine: Send {
    /// The best move (UCI text) in the position reached from `fen` by
    /// `moves` (UCI).
    ///
    /// # Errors
    ///
    /// When the engine does not answer with a move.
    fn best_move(&mut self, fen: &str, moves: &[String]) -> Result<String, EngineError>;
    /// The engine's name ("Stockfish 16").
    fn name(&self) -> &str;
}

/// A UCI engine in a child process.
#[derive(Debug)]
pub struct Uci {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    name: String,
    strength: Strength,
}

impl Uci {
    /// Starts the engine at `path` and sets it up (`uci`, options,
    /// `isready`).
    ///
    /// # Errors
    ///
    /// When the program cannot be started or does not speak UCI.
    pub fn start(path: &Path, strength: Strength) -> Result<Uci, EngineError> {
        let start_err = |e: String| EngineError::Start {
            path: path.to_owned(),
            error: e,
        };
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| start_err(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(start_err("no pipes".into()));
        };
        let mut uci = Uci {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            name: path.display().to_string(),
            strength,
        };
        uci.send("uci")?;
        let mut lines = 0;
        loop {
            let line = uci.read_line()?;
            if let Some(name) = line.strip_prefix("id name ") {
                uci.name = name.trim().to_owned();
            }
            if line.trim() == "uciok" {
                break;
            }
            lines += 1;
            if lines > 10_000 {
                return Err(start_err("no uciok".into()));
            }
        }
        if let Some(skill) = strength.skill {
            uci.send(&format!(
                "setoption name Skill Level value {}",
                skill.min(20)
            ))?;
        }
        uci.send("ucinewgame")?;
        uci.send("isready")?;
        while uci.read_line()?.trim() != "readyok" {}
        Ok(uci)
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| EngineError::Protocol(format!("cannot write to the engine: {e}")))
    }

    fn read_line(&mut self) -> Result<String, EngineError> {
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(0) => Err(EngineError::Protocol("the engine has ended".into())),
            Ok(_) => Ok(line),
            Err(e) => Err(EngineError::Protocol(format!(
                "cannot read from the engine: {e}"
            ))),
        }
    }
}

impl Engine for Uci {
    fn best_move(&mut self, fen: &str, moves: &[String]) -> Result<String, EngineError> {
        let mut pos = format!("position fen {fen}");
        if !moves.is_empty() {
            pos.push_str(" moves ");
            pos.push_str(&moves.join(" "));
        }
        self.send(&pos)?;
        self.send(&format!(
            "go movetime {}",
            self.strength.movetime.as_millis().max(1)
        ))?;
        loop {
            let line = self.read_line()?;
            if let Some(rest) = line.strip_prefix("bestmove") {
                return rest
                    .split_whitespace()
                    .next()
                    .filter(|m| *m != "(none)" && *m != "0000")
                    .map(str::to_owned)
                    .ok_or_else(|| EngineError::Protocol(format!("no move: {}", line.trim())));
            }
        }
    }

    fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // Give it a moment to leave on its own, then make sure.
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Test double: plays the given moves in order, then fails.
#[derive(Debug, Clone, Default)]
pub struct Scripted {
    /// Moves still to play (UCI), first next.
    pub moves: Vec<String>,
    /// Positions asked about: (fen, moves).
    pub asked: Vec<(String, Vec<String>)>,
}

impl Engine for Scripted {
    fn best_move(&mut self, fen: &str, moves: &[String]) -> Result<String, EngineError> {
        self.asked.push((fen.to_owned(), moves.to_vec()));
        if self.moves.is_empty() {
            return Err(EngineError::Protocol("no more scripted moves".into()));
        }
        Ok(self.moves.remove(0))
    }

    fn name(&self) -> &str {
        "scripted"
    }
}

/// An engine on its own thread: requests go in, answers come out, so the
/// user interface never waits for it.
#[derive(Debug)]
pub struct Worker {
    tx: std::sync::mpsc::Sender<(String, Vec<String>)>,
    rx: std::sync::mpsc::Receiver<Result<String, EngineError>>,
}

impl Worker {
    /// Runs `engine` on a new thread.
    pub fn spawn(mut engine: Box<dyn Engine>) -> Worker {
        let (tx, req_rx) = std::sync::mpsc::channel::<(String, Vec<String>)>();
        let (res_tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            while let Ok((fen, moves)) = req_rx.recv() {
                let r = engine.best_move(&fen, &moves);
                if res_tx.send(r).is_err() {
                    break;
                }
            }
        });
        Worker { tx, rx }
    }

    /// Asks for a move; the answer comes from [`Worker::poll`].
    pub fn ask(&self, fen: String, moves: Vec<String>) -> Result<(), EngineError> {
        self.tx
            .send((fen, moves))
            .map_err(|_| EngineError::Protocol("the engine thread has ended".into()))
    }

    /// The answer, if one has arrived.
    pub fn poll(&self) -> Option<Result<String, EngineError>> {
        match self.rx.try_recv() {
            Ok(r) => Some(r),
            Err(std::sync::mpsc::TryRecvError::Empty) => None,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => Some(Err(EngineError::Protocol(
                "the engine thread has ended".into(),
            ))),
        }
    }

    /// Waits up to `timeout` for the answer.
    pub fn wait(&self, timeout: Duration) -> Option<Result<String, EngineError>> {
        match self.rx.recv_timeout(timeout) {
            Ok(r) => Some(r),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => None,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Some(Err(
                EngineError::Protocol("the engine thread has ended".into()),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_plays_in_order_then_fails() {
        let mut e = Scripted {
            moves: vec!["e2e4".into()],
            ..Scripted::default()
        };
        assert_eq!(e.best_move("fen", &[]), Ok("e2e4".into()));
        assert!(e.best_move("fen", &["e2e4".into()]).is_err());
        assert_eq!(e.asked.len(), 2);
        assert_eq!(e.asked[1].1, vec!["e2e4".to_string()]);
    }

    #[test]
    fn missing_program_is_a_start_error() {
        let r = Uci::start(Path::new("/nonexistent/engine"), Strength::default());
        assert!(matches!(r, Err(EngineError::Start { .. })), "{r:?}");
    }

    #[test]
    fn worker_passes_answers_back() {
        let w = Worker::spawn(Box::new(Scripted {
            moves: vec!["g1f3".into()],
            ..Scripted::default()
        }));
        w.ask("fen".into(), vec![]).unwrap();
        assert_eq!(w.wait(Duration::from_secs(5)), Some(Ok("g1f3".into())));
    }
}
