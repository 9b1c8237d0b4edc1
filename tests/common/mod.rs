//! Helpers shared by the integration tests that drive the real `ghast`
//! binary over its standard input and output (`mod common;` in each test
//! file). Each test file compiles this module on its own, so items a file
//! does not use are marked `#[allow(dead_code)]`.
//!
//! - [`spawn_ghast`]: the binary over pipes, with a reader thread that
//!   stamps each stdout line with its arrival time, so every read can have
//!   a timeout and reply times are measured where they happen;
//! - [`Engine`]: a UCI session on top of it that logs what was sent and
//!   read (for failure messages) and quits the engine when dropped; each
//!   test file adds its own constructors and `go` in an `impl Engine`
//!   block of its own;
//! - [`HANG_GUARD`]: how long to wait for a reply before calling the
//!   engine stuck;
//! - [`timing`]: a lock for tests that run time-limited searches;
//! - [`field`], [`position_command`]: small protocol text helpers;
//! - the variant lists and start positions the tests check against.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Every variant, in the order the engine announces them.
#[allow(dead_code)]
pub const VARIANTS: [&str; 6] = [
    "nimrod",
    "nimrod-corner",
    "dragon-nimrod",
    "dragon-nimrod-corner",
    "vyremorn",
    "nemoroth",
];

/// The four Nimrod variants (the first four of [`VARIANTS`]).
#[allow(dead_code)]
pub const NIMROD_VARIANTS: [&str; 4] = [
    "nimrod",
    "nimrod-corner",
    "dragon-nimrod",
    "dragon-nimrod-corner",
];

/// Start position of the FIDE-orientation Nimrod variants.
#[allow(dead_code)]
pub const FIDE_START: &str = "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1";
/// Start position of the corner-orientation Nimrod variants.
#[allow(dead_code)]
pub const CORNER_START: &str = "kynhp3/qppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK w - - 0 1";

/// No single reply without a time limit should take anywhere near this
/// long ([`Engine::isready`], [`Engine::legal_moves`], fixed-node searches).
#[allow(dead_code)]
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(60);

/// Hang guard, not a latency bound: the wait for a prompt reply (timed searches: budget + this).
#[allow(dead_code)]
pub const HANG_GUARD: Duration = Duration::from_secs(10);

/// Tests that run time-limited searches run one at a time (within a test
/// file), so that they do not compete with each other for the CPU.
#[allow(dead_code)]
static TIMING: Mutex<()> = Mutex::new(());

/// Holds the timing lock (a test that panicked while holding it does not
/// poison it for the others).
#[allow(dead_code)]
pub fn timing() -> MutexGuard<'static, ()> {
    TIMING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts `ghast args...` with piped stdin and stdout. A reader thread
/// sends every stdout line, stamped with the time it arrived, to the
/// returned channel; the channel disconnects when stdout closes.
pub fn spawn_ghast(
    args: &[&str],
    stderr: Stdio,
) -> (Child, ChildStdin, Receiver<(Instant, String)>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ghast"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("spawn ghast");
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send((Instant::now(), line)).is_err() {
                break;
            }
        }
    });
    (child, stdin, lines)
}

/// The value after `key` in an `info` line.
#[allow(dead_code)]
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == key)?;
    words.next()
}

/// `position startpos`, followed by `moves ...` when there are any.
#[allow(dead_code)]
pub fn position_command(moves: &[String]) -> String {
    if moves.is_empty() {
        "position startpos".to_string()
    } else {
        format!("position startpos moves {}", moves.join(" "))
    }
}

/// A UCI session with `ghast` over pipes (see [`spawn_ghast`]). Dropping
/// it sends `quit` and kills the process if it has not exited within 5 s.
#[allow(dead_code)]
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
    /// Everything sent (`> line`) and read (`< line`) so far, for failure
    /// messages.
    pub log: Vec<String>,
}

#[allow(dead_code)]
impl Engine {
    /// `ghast` (the UCI dialect), its stderr passed through.
    pub fn start() -> Engine {
        let (child, stdin, lines) = spawn_ghast(&[], Stdio::inherit());
        Engine {
            child,
            stdin,
            lines,
            log: Vec::new(),
        }
    }

    /// Sends one line; returns the time it was sent.
    pub fn send(&mut self, line: &str) -> Instant {
        writeln!(self.stdin, "{line}").unwrap_or_else(|err| panic!("write '{line}': {err}"));
        self.stdin.flush().expect("flush to ghast");
        self.log.push(format!("> {line}"));
        Instant::now()
    }

    /// The end of the session for failure messages: from the last
    /// `position` command (at most 40 lines before the end), without perft
    /// divide lines.
    pub fn tail(&self) -> String {
        let last_position = self.log.iter().rposition(|l| l.starts_with("> position"));
        let from = last_position
            .unwrap_or(0)
            .min(self.log.len().saturating_sub(40));
        self.log[from..]
            .iter()
            .filter(|l| !(l.starts_with("< ") && l.ends_with(": 1")))
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The next line within `timeout`, if any.
    pub fn next_line(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok((at, line)) => {
                self.log.push(format!("< {line}"));
                Some((at, line))
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                panic!("ghast closed its output; session:\n{}", self.tail())
            }
        }
    }

    /// Lines up to and including the first that satisfies `done`, which
    /// must arrive within `timeout`; returns them and that line's time.
    pub fn until(
        &mut self,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> (Vec<String>, Instant) {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some((at, line)) => {
                    let stop = done(&line);
                    out.push(line);
                    if stop {
                        return (out, at);
                    }
                }
                None => panic!(
                    "no expected reply within {timeout:?}; session:\n{}",
                    self.tail()
                ),
            }
        }
    }

    /// No line at all for `wait` (lines that do come are returned).
    pub fn quiet_for(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut out = Vec::new();
        while let Some((_, line)) =
            self.next_line(deadline.saturating_duration_since(Instant::now()))
        {
            out.push(line);
        }
        out
    }

    pub fn assert_alive(&mut self) {
        if let Ok(Some(status)) = self.child.try_wait() {
            panic!("ghast exited ({status}); session:\n{}", self.tail());
        }
    }

    pub fn isready(&mut self) {
        self.send("isready");
        self.until(REPLY_TIMEOUT, |l| l == "readyok");
    }

    /// The legal moves of the current position (`go perft 1`).
    pub fn legal_moves(&mut self) -> Vec<String> {
        self.send("go perft 1");
        let (lines, _) = self.until(REPLY_TIMEOUT, |l| l.starts_with("Nodes searched"));
        let moves: Vec<String> = lines
            .iter()
            .filter(|l| !l.starts_with("Nodes searched"))
            .filter_map(|l| l.split_once(": ").map(|(m, _)| m.to_string()))
            .collect();
        let total: usize = lines
            .last()
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .expect("perft total");
        assert_eq!(moves.len(), total, "{}", self.tail());
        moves
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
