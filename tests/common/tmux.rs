//! A tmux session for the full-screen tests (a plain bash; 100×30, or the
//! size a test asks for, such as the 80×24 of a standard terminal).

use std::process::Command;
use std::time::{Duration, Instant};

use super::screen::Grid;

/// Whether tmux is there; if not, the test is reported skipped (a failure
/// under ANNABELLA_REQUIRE_E2E=1).
pub fn tmux_available() -> bool {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    super::tool_present(ok, "tmux (apt-get install tmux)")
}

/// A detached tmux session, killed when dropped.
pub struct Session(pub String);

impl Session {
    /// Starts a session named after `tag`, 100×30.
    pub fn start(tag: &str) -> Session {
        Session::start_sized(tag, 100, 30)
    }

    /// Starts a session named after `tag`, `width`×`height`.
    pub fn start_sized(tag: &str, width: u16, height: u16) -> Session {
        let name = format!("annabella-{tag}-{}", std::process::id());
        let (w, h) = (width.to_string(), height.to_string());
        // The tmux server ends when its last session does; a session
        // started by a test running in parallel at that moment is refused
        // ("server exited unexpectedly"): tried again, a few times.
        let mut tries = 0;
        loop {
            let st = Command::new("tmux")
                .args(["new-session", "-d", "-x", &w, "-y", &h, "-s", &name])
                .args(["env", "PS1=$ ", "bash", "--norc", "--noprofile"])
                .status()
                .unwrap();
            tries += 1;
            if st.success() {
                break;
            }
            assert!(tries < 5, "tmux new-session failed {tries} times");
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        Session(name)
    }

    /// Types `text` and Enter.
    pub fn keys(&self, text: &str) {
        let st = Command::new("tmux")
            .args(["send-keys", "-t", &self.0, "-l", text])
            .status()
            .unwrap();
        assert!(st.success());
        let st = Command::new("tmux")
            .args(["send-keys", "-t", &self.0, "Enter"])
            .status()
            .unwrap();
        assert!(st.success());
    }

    /// Sends a key by its tmux name (`F2`, `Enter`, `C-c`).
    pub fn key(&self, name: &str) {
        let st = Command::new("tmux")
            .args(["send-keys", "-t", &self.0, name])
            .status()
            .unwrap();
        assert!(st.success());
    }

    /// Types `text` without Enter.
    pub fn type_text(&self, text: &str) {
        let st = Command::new("tmux")
            .args(["send-keys", "-t", &self.0, "-l", text])
            .status()
            .unwrap();
        assert!(st.success());
    }

    /// From now on, everything the pane's program writes (raw, with its
    /// escape sequences) is appended to `path`.
    pub fn record(&self, path: &std::path::Path) {
        let st = Command::new("tmux")
            .args(["pipe-pane", "-o", "-t", &self.0])
            .arg(format!("cat >> '{}'", path.display()))
            .status()
            .unwrap();
        assert!(st.success());
    }

    /// The pid of the program the program in the pane's shell started
    /// (the full screen runs as a child of its restoring parent).
    pub fn grandchild_pid(&self) -> Option<u32> {
        let parent = self.child_pid()?;
        let tasks = std::fs::read_dir(format!("/proc/{parent}/task")).ok()?;
        for t in tasks.flatten() {
            let children = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
            if let Some(pid) = children.split_whitespace().next() {
                return pid.parse().ok();
            }
        }
        None
    }

    /// The visible screen.
    pub fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.0])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The screen with wrapped lines joined.
    pub fn screen_joined(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-J", "-t", &self.0])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Whether the pane shows the alternate screen.
    pub fn alternate_on(&self) -> bool {
        let out = Command::new("tmux")
            .args(["display", "-p", "-t", &self.0, "#{alternate_on}"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim() == "1"
    }

    /// The line discipline's canonical mode and echo as `stty -a` shows
    /// them in the pane (typed into its shell): "icanon echo" when the
    /// terminal is usable.
    pub fn line_settings(&self) -> String {
        self.keys("stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo :ST''TY");
        let screen = self.wait_for(":STTY\n");
        screen
            .lines()
            .rev()
            .find(|l| l.ends_with(":STTY"))
            .unwrap_or_default()
            .trim_end_matches(":STTY")
            .trim()
            .to_owned()
    }

    /// Waits until the screen contains `text`; returns the screen.
    pub fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "waited for {text:?}; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until `ready` holds for the screen (as a grid of cells) and
    /// returns that grid; after `deadline`, `Err` with the last screen.
    pub fn wait_until(
        &self,
        deadline: Duration,
        mut ready: impl FnMut(&Grid) -> bool,
    ) -> Result<Grid, String> {
        let start = Instant::now();
        loop {
            let s = self.screen();
            let grid = Grid::parse(&s);
            if ready(&grid) {
                return Ok(grid);
            }
            if start.elapsed() >= deadline {
                return Err(s);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The pid of the program running in the pane's shell.
    pub fn child_pid(&self) -> Option<u32> {
        let out = Command::new("tmux")
            .args(["display", "-p", "-t", &self.0, "#{pane_pid}"])
            .output()
            .ok()?;
        let shell = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        let tasks = std::fs::read_dir(format!("/proc/{shell}/task")).ok()?;
        for t in tasks.flatten() {
            let children = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
            if let Some(pid) = children.split_whitespace().next() {
                return pid.parse().ok();
            }
        }
        None
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.0])
            .status();
    }
}
