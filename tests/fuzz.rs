//! Fuzz harness (issue 14): hostile input for the real binary, seeded and
//! deterministic in what it sends.
//!
//! - UCI: one `ghast` process per variant gets mutated `position`, `go`,
//!   `setoption` (every option of the `uci` listing, with in-range,
//!   boundary and out-of-range values), perft and garbage lines, raw bytes
//!   and overlong lines included. After each input it sends `isready` and
//!   needs `readyok` within [`ANSWER_TIMEOUT`]; a `go` must be answered by
//!   `bestmove` (after `stop`) or by an `info string error`.
//! - CECP: the same for `ghast xboard` (and plain `ghast` with a first line
//!   `xboard`) in every variant it plays, with `ping`/`pong` after each
//!   command and a `move`, result or error after every `go`.
//! - Position parsers on the command line: `ghast perft --fen` with mutated
//!   position strings must exit 0 or 1 with no panic.
//!
//! Every process must stay alive and never print a panic on stderr. The
//! positions come from `positions/*.perft` and `positions/*.openings`, the
//! moves from random legal playouts (the rules library).
//!
//! Scale: `GHAST_FUZZ_ITERATIONS` (default 1) multiplies the number of
//! inputs, `GHAST_FUZZ_SEED` picks another seed (default
//! [`DEFAULT_SEED`]); README, "Reliability", has the pre-release command.
//! A failure message names the seed, the session and its last inputs.
//!
//! `Hash` and `memory` values between [`SMALL_HASH_MB`] and the maximum
//! are sent only with `GHAST_FUZZ_LARGE_HASH=1`: they may allocate that
//! much memory. The maximum itself and everything above are always sent
//! (issue 14, F5: an allocation that fails must be an error).

mod common;

use common::{VARIANTS, spawn_ghast};
use ghast::engine::Session;
use ghast::protocol::xboard_variants::xb_variant;
use ghast::registry as variants;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Seed of the CI run.
const DEFAULT_SEED: u64 = 14;
/// Inputs per protocol session at `GHAST_FUZZ_ITERATIONS=1`.
const INPUTS_PER_SESSION: usize = 150;
/// `ghast perft --fen` runs per variant at `GHAST_FUZZ_ITERATIONS=1`.
const CLI_RUNS_PER_VARIANT: usize = 10;
/// A hang detector, not a timing assertion: every answer must come within
/// this (a loaded machine answers in milliseconds).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a `go` with small limits may run before it is stopped.
const NATURAL_FINISH: Duration = Duration::from_millis(100);
/// CECP inputs after `analyze` before the harness sends `exit` (analysis
/// would run on the CPU until then).
const ANALYSIS_INPUTS: usize = 3;
/// Lines of the session log shown in a failure message.
const LOG_TAIL: usize = 400;

/// Numbers at the edges of every integer type a parser might use.
const BOUNDARY_NUMBERS: [&str; 24] = [
    "0",
    "1",
    "-1",
    "2",
    "-0",
    "+3",
    "127",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999",
    "1.5",
    "1e9",
    "NaN",
    "x",
];

/// Characters mutations insert: board notation of every variant, separators
/// and a few non-ASCII and control characters.
const MUTATION_CHARS: &str = "pnhauwmyqkcdfgjozbrlePNHAUWMYQKCDFGJOZBRLE0123456789/ -+^()@=,.;:wbao\u{e9}\u{2654}\u{1f47b}\t\0";

/// Hash sizes the CI run allocates at most (`GHAST_FUZZ_LARGE_HASH=1`
/// lifts it).
const SMALL_HASH_MB: u64 = 64;
/// The largest `Hash` (and CECP `memory`) ghast offers.
const MAX_HASH_MB: u64 = 65_536;

struct Settings {
    seed: u64,
    iterations: usize,
    large_hash: bool,
}

fn settings() -> Settings {
    let var = |name: &str| std::env::var(name).ok();
    let seed = var("GHAST_FUZZ_SEED")
        .map(|s| s.parse().expect("GHAST_FUZZ_SEED must be a number"))
        .unwrap_or(DEFAULT_SEED);
    let iterations = var("GHAST_FUZZ_ITERATIONS")
        .map(|s| s.parse().expect("GHAST_FUZZ_ITERATIONS must be a number"))
        .unwrap_or(1);
    Settings {
        seed,
        iterations,
        large_hash: var("GHAST_FUZZ_LARGE_HASH").is_some_and(|v| v == "1"),
    }
}

/// A seed per (test, variant), so each session is reproducible alone.
fn session_seed(seed: u64, test: u64, variant: &str) -> u64 {
    let index = VARIANTS.iter().position(|&v| v == variant).unwrap() as u64;
    seed.wrapping_mul(1_000_003)
        .wrapping_add(test * 101)
        .wrapping_add(index)
}

// ---------------------------------------------------------------------------
// The process under test
// ---------------------------------------------------------------------------

/// `ghast` over pipes, with its stderr collected, and the log of the
/// session for failure messages.
struct Proc {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
    stderr: Arc<Mutex<Vec<u8>>>,
    log: Vec<String>,
    /// Seed and session, for the failure message.
    context: String,
    /// `isready` lines sent whose `readyok` has not been read yet (fuzzed
    /// inputs may be `isready` too).
    readyok_due: usize,
}

impl Proc {
    fn start(args: &[&str], context: String) -> Proc {
        let (mut child, stdin, lines) = spawn_ghast(args, Stdio::piped());
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut pipe = child.stderr.take().expect("stderr piped");
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Proc {
            child,
            stdin,
            lines,
            stderr,
            log: Vec::new(),
            context,
            readyok_due: 0,
        }
    }

    fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    fn fail(&mut self, what: &str) -> ! {
        let from = self.log.len().saturating_sub(LOG_TAIL);
        let tail = self.log[from..].join("\n");
        let _ = self.child.kill();
        panic!(
            "fuzz failure: {what}\n{}\nlast inputs and replies:\n{tail}\nstderr:\n{}",
            self.context,
            self.stderr_text()
        );
    }

    fn send(&mut self, line: &[u8]) {
        let shown = String::from_utf8_lossy(line);
        let shown: String = shown.chars().take(200).collect();
        self.log.push(format!("> {shown}"));
        self.readyok_due += line
            .split(|&b| b == b'\n')
            .filter(|l| {
                std::str::from_utf8(l).is_ok_and(|l| l.split_whitespace().next() == Some("isready"))
            })
            .count();
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        if self
            .stdin
            .write_all(&bytes)
            .and(self.stdin.flush())
            .is_err()
        {
            self.fail("the engine stopped reading its input");
        }
    }

    fn send_str(&mut self, line: &str) {
        self.send(line.as_bytes());
    }

    /// Alive, and no panic on stderr.
    fn check_healthy(&mut self) {
        if let Ok(Some(status)) = self.child.try_wait() {
            self.fail(&format!("the engine exited ({status})"));
        }
        if self.stderr_text().contains("panicked") {
            self.fail("the engine printed a panic");
        }
    }

    /// Lines up to and including the first that satisfies `done`, which must
    /// come within `timeout`.
    fn read_until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((_, line)) => {
                    self.log.push(format!("< {line}"));
                    let stop = done(&line);
                    out.push(line);
                    if stop {
                        return out;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.fail(&format!("no answer within {timeout:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => self.fail("the engine closed its output"),
            }
        }
    }

    /// Lines that arrive within `wait`, stopping early at one that
    /// satisfies `done` (which is then the last).
    fn read_for(&mut self, wait: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut out = Vec::new();
        while let Ok((_, line)) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.log.push(format!("< {line}"));
            let stop = done(&line);
            out.push(line);
            if stop {
                break;
            }
        }
        out
    }

    /// Sends `quit`; the engine must exit cleanly and without a panic.
    fn finish(mut self, quit: &str) {
        self.send_str(quit);
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) if status.success() => break,
                Ok(Some(status)) => self.fail(&format!("exit status {status} after '{quit}'")),
                _ if Instant::now() > deadline => self.fail(&format!("no exit after '{quit}'")),
                _ => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        // The stderr reader may still be draining the pipe.
        std::thread::sleep(Duration::from_millis(20));
        if self.stderr_text().contains("panicked") {
            self.fail("the engine printed a panic");
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------

/// The positions of a variant's suites: perft FENs and openings.
fn corpus(variant: &str) -> Vec<String> {
    let mut out = Vec::new();
    for ext in ["perft", "openings"] {
        let path = format!("{}/positions/{variant}.{ext}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines() {
            let fen = line.split(';').next().unwrap_or("").trim();
            if !fen.is_empty() && !fen.starts_with('#') {
                out.push(fen.to_string());
            }
        }
    }
    assert!(!out.is_empty(), "{variant}: no positions");
    out
}

/// One spin option of the `uci` listing, or another kind.
#[derive(Clone, Debug)]
struct UciOption {
    name: String,
    kind: String,
    min: i64,
    max: i64,
    vars: Vec<String>,
}

fn parse_options(lines: &[String]) -> Vec<UciOption> {
    let mut out = Vec::new();
    for line in lines {
        let Some(rest) = line.strip_prefix("option name ") else {
            continue;
        };
        let Some((name, rest)) = rest.split_once(" type ") else {
            continue;
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        let after = |key: &str| -> Option<&str> {
            let i = words.iter().position(|&w| w == key)?;
            words.get(i + 1).copied()
        };
        let vars = words
            .windows(2)
            .filter(|w| w[0] == "var")
            .map(|w| w[1].to_string())
            .collect();
        out.push(UciOption {
            name: name.to_string(),
            kind: words.first().copied().unwrap_or("").to_string(),
            min: after("min").and_then(|v| v.parse().ok()).unwrap_or(0),
            max: after("max").and_then(|v| v.parse().ok()).unwrap_or(0),
            vars,
        });
    }
    out
}

/// Random choices over the inputs of one session.
struct Gen {
    rng: StdRng,
    variant: &'static str,
    corpus: Vec<String>,
    large_hash: bool,
    /// A scratch file with a malformed parameter list, for `EvalFile`.
    garbage_file: String,
}

impl Gen {
    fn new(seed: u64, variant: &'static str, large_hash: bool) -> Gen {
        let garbage_file = format!(
            "{}/fuzz-evalfile-{variant}.params",
            env!("CARGO_TARGET_TMPDIR")
        );
        std::fs::write(&garbage_file, "knight = 300\n\u{2654} = = 1\nmaterial 7\n")
            .expect("write scratch EvalFile");
        Gen {
            rng: StdRng::seed_from_u64(seed),
            variant,
            corpus: corpus(variant),
            large_hash,
            garbage_file,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n)
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn boundary(&mut self) -> String {
        self.pick(&BOUNDARY_NUMBERS).to_string()
    }

    /// A random number within `lo..=hi`.
    fn number(&mut self, lo: i64, hi: i64) -> String {
        self.rng.random_range(lo..=hi).to_string()
    }

    /// 1-3 character edits: replace, delete, insert, duplicate a slice, cut.
    fn mutate_text(&mut self, text: &str) -> String {
        let alphabet: Vec<char> = MUTATION_CHARS.chars().collect();
        let mut chars: Vec<char> = text.chars().collect();
        for _ in 0..1 + self.below(3) {
            let i = self.below(chars.len() + 1);
            let c = *self.pick(&alphabet);
            match self.below(5) {
                0 if i < chars.len() => chars[i] = c,
                1 if i < chars.len() => {
                    chars.remove(i);
                }
                2 => {
                    let j = (i + self.below(12)).min(chars.len());
                    let copy: Vec<char> = chars[i.min(j)..j].to_vec();
                    chars.splice(i..i, copy);
                }
                3 if self.chance(20) => chars.truncate(i),
                _ => chars.insert(i, c),
            }
        }
        chars.into_iter().collect()
    }

    /// 1-2 word edits: drop, duplicate, swap, a boundary number, a stray word.
    fn mutate_words(&mut self, line: &str) -> String {
        let mut words: Vec<String> = line.split(' ').map(String::from).collect();
        for _ in 0..1 + self.below(2) {
            let i = self.below(words.len());
            match self.below(6) {
                0 if words.len() > 1 => {
                    words.remove(i);
                }
                1 => {
                    let w = words[i].clone();
                    words.insert(i, w);
                }
                2 => {
                    let j = self.below(words.len());
                    words.swap(i, j);
                }
                3 => words[i] = self.boundary(),
                4 => {
                    let stray = self
                        .pick(&[
                            "moves", "fen", "startpos", "value", "name", "", "go", "\u{2654}",
                        ])
                        .to_string();
                    words.insert(i, stray);
                }
                _ => words[i] = self.mutate_text(&words[i]),
            }
        }
        words.join(" ")
    }

    /// A position of the corpus, sometimes mutated.
    fn fen(&mut self) -> String {
        let fen = self.pick(&self.corpus.clone()).clone();
        if self.chance(40) {
            self.mutate_text(&fen)
        } else {
            fen
        }
    }

    /// A legal playout of up to `max` plies from `fen` (or the start), in
    /// the game's notation.
    fn playout(&mut self, fen: Option<&str>, max: usize) -> Vec<String> {
        let Ok(mut session) = variants::new_session(self.variant) else {
            return Vec::new();
        };
        if session.set_position(fen, &[]).is_err() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        for _ in 0..self.below(max + 1) {
            let legal = session.legal_moves();
            if legal.is_empty() || session.outcome().is_some() {
                break;
            }
            let mv = self.pick(&legal).clone();
            session.play_move(&mv).expect("a legal move plays");
            moves.push(mv);
        }
        moves
    }

    /// A raw line: garbage bytes, invalid UTF-8, control characters, an
    /// overlong line, nothing.
    fn garbage(&mut self) -> Vec<u8> {
        match self.below(6) {
            0 => (0..self.below(80))
                .map(|_| self.rng.random::<u8>())
                .collect(),
            1 => vec![0xff, 0xfe, b'g', b'o', 0xc3],
            2 => Vec::new(),
            3 => " \t \r".as_bytes().to_vec(),
            4 => {
                let word =
                    self.pick(&["go ", "position fen ", "a", "setoption name Hash value 1 "]);
                word.repeat(20_000 / word.len()).into_bytes()
            }
            _ => {
                // Not `quit`: an edit may leave a word as it was.
                let word = *self.pick(&["uci", "isready", "go", "stop", "ponderhit"]);
                self.mutate_text(word).into_bytes()
            }
        }
    }
}

// ---------------------------------------------------------------------------
// UCI
// ---------------------------------------------------------------------------

/// What the harness must see after one UCI input.
enum UciExpect {
    /// `readyok` after `isready`.
    Ready,
    /// A search: `bestmove` or `info string error`, then `readyok`.
    Search { cheap: bool },
    /// Perft: `Nodes searched` or `info string error`, then `readyok`.
    Perft,
}

impl Gen {
    fn uci_position(&mut self) -> String {
        let startpos = self.chance(30);
        let fen = (!startpos).then(|| self.fen());
        let mut moves = self.playout(fen.as_deref(), 8);
        if !moves.is_empty() && self.chance(25) {
            let i = self.below(moves.len());
            moves[i] = self.mutate_text(&moves[i]);
        }
        let mut line = match &fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() || self.chance(10) {
            line.push_str(" moves ");
            line.push_str(&moves.join(" "));
        }
        if self.chance(15) {
            line = self.mutate_words(&line);
        }
        line
    }

    /// A `go`, mostly with small limits. Returns the line and whether it
    /// ends by itself quickly.
    fn uci_go(&mut self, legal: &[String]) -> (String, bool) {
        let mut words = vec!["go".to_string()];
        let mut cheap = false;
        for _ in 0..self.below(4) {
            let small = self.chance(80);
            let (key, value) = match self.below(10) {
                0 | 1 => ("depth", self.number(0, 3)),
                2 | 3 => ("nodes", self.number(0, 3000)),
                4 => ("movetime", self.number(0, 30)),
                5 => (*self.pick(&["wtime", "btime"]), self.number(-50, 300)),
                6 => (*self.pick(&["winc", "binc"]), self.number(-10, 20)),
                7 => ("movestogo", self.number(0, 40)),
                8 => ("mate", self.number(0, 3)),
                _ => (*self.pick(&["infinite", "ponder"]), String::new()),
            };
            cheap |= small && matches!(key, "depth" | "nodes" | "movetime");
            words.push(key.to_string());
            if !value.is_empty() {
                words.push(if small { value } else { self.boundary() });
            }
        }
        if !legal.is_empty() && self.chance(15) {
            words.push("searchmoves".into());
            for _ in 0..1 + self.below(3) {
                words.push(self.pick(legal).clone());
            }
        }
        let mut line = words.join(" ");
        if self.chance(15) {
            line = self.mutate_words(&line);
            cheap = false;
        }
        let infinite = line.contains("infinite") || line.contains("ponder");
        (line, cheap && !infinite)
    }

    fn uci_setoption(&mut self, options: &[UciOption]) -> String {
        let option = self.pick(options).clone();
        let value = match option.kind.as_str() {
            "spin" => self.spin_value(&option),
            "check" => self
                .pick(&["true", "false", "TRUE", "1", "yes", ""])
                .to_string(),
            "combo" if option.name == "UCI_Variant" => {
                // Mostly this session's variant: another one would make the
                // generated positions the wrong game's.
                match self.below(5) {
                    0 => self.mutate_text(self.variant),
                    1 => self.boundary(),
                    _ => self.variant.to_string(),
                }
            }
            "combo" => {
                if self.chance(70) {
                    self.pick(&option.vars).clone()
                } else {
                    self.mutate_text(&option.vars[0])
                }
            }
            "string" => self.eval_file(),
            _ => String::new(),
        };
        let mut line = format!("setoption name {} value {value}", option.name);
        if option.kind == "button" || self.chance(5) {
            line = format!("setoption name {}", option.name);
        }
        if self.chance(10) {
            line = self.mutate_words(&line);
        }
        line
    }

    fn spin_value(&mut self, option: &UciOption) -> String {
        let value = match self.below(8) {
            0 => option.min.to_string(),
            1 => option.max.to_string(),
            2 => (option.min - 1).to_string(),
            3 => (option.max + 1).to_string(),
            4 => self.boundary(),
            _ => self.number(option.min, option.max),
        };
        if option.name == "Hash" {
            return self.hash_size(value);
        }
        value
    }

    fn eval_file(&mut self) -> String {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut choices = vec![
            "<default>".to_string(),
            String::new(),
            "/nonexistent/ghast.params".to_string(),
            env!("CARGO_TARGET_TMPDIR").to_string(),
            "/dev/null".to_string(),
            self.garbage_file.clone(),
            format!("{root}/tuning/nimrod.params"),
            format!("{root}/tuning/vyremorn.params"),
            format!("{root}/tuning/nemoroth.params"),
        ];
        choices.extend(["/dev/zero", "/dev/urandom", "/dev/stdin"].map(String::from));
        self.pick(&choices).clone()
    }

    /// `value` for a hash size, with sizes the machine would really
    /// allocate capped at [`SMALL_HASH_MB`] unless allowed.
    fn hash_size(&self, value: String) -> String {
        let large = value
            .parse::<u64>()
            .is_ok_and(|mb| mb > SMALL_HASH_MB && mb < MAX_HASH_MB);
        if large && !self.large_hash {
            SMALL_HASH_MB.to_string()
        } else {
            value
        }
    }

    fn uci_perft(&mut self) -> String {
        let depth = match self.below(4) {
            0 | 1 => self.number(0, 2),
            2 => self
                .pick(&["33", "65536", "100000", "4294967295"])
                .to_string(),
            _ => self.boundary(),
        };
        if self.chance(10) {
            self.mutate_words(&format!("go perft {depth}"))
        } else {
            format!("go perft {depth}")
        }
    }

    /// The next UCI input and what it must be answered with.
    fn uci_input(&mut self, options: &[UciOption], legal: &[String]) -> (Vec<u8>, UciExpect) {
        let (line, expect) = match self.below(20) {
            0..=4 => (self.uci_position(), UciExpect::Ready),
            5..=9 => {
                let (line, cheap) = self.uci_go(legal);
                (line, UciExpect::Search { cheap })
            }
            10..=13 => (self.uci_setoption(options), UciExpect::Ready),
            14 => (self.uci_perft(), UciExpect::Perft),
            15 | 16 => {
                let words = [
                    "ucinewgame",
                    "stop",
                    "ponderhit",
                    "d",
                    "eval",
                    "isready",
                    "uci",
                    "debug on",
                    "register later",
                    "position",
                    "position fen",
                    "position startpos moves",
                    "setoption",
                    "setoption name",
                    "go perft",
                ];
                (self.pick(&words).to_string(), UciExpect::Ready)
            }
            _ => return (self.garbage(), UciExpect::Ready),
        };
        let expect = match expect {
            // Mutations may turn a `go` into something else, or a line into
            // a `go`: the first word decides.
            _ if line.split_whitespace().next() != Some("go") => UciExpect::Ready,
            _ if line.split_whitespace().nth(1) == Some("perft") => UciExpect::Perft,
            UciExpect::Search { cheap } => UciExpect::Search { cheap },
            _ => UciExpect::Search { cheap: false },
        };
        (line.into_bytes(), expect)
    }
}

/// Sends `isready` and waits for `readyok`; returns the lines before it.
fn uci_sync(p: &mut Proc) -> Vec<String> {
    p.check_healthy();
    p.send_str("isready");
    let mut lines = Vec::new();
    while p.readyok_due > 0 {
        lines.extend(p.read_until(ANSWER_TIMEOUT, |l| l == "readyok"));
        p.readyok_due -= 1;
    }
    p.check_healthy();
    lines
}

fn fuzz_uci_session(variant: &'static str, settings: &Settings) {
    let seed = session_seed(settings.seed, 1, variant);
    let context = format!(
        "UCI, variant {variant}; reproduce with GHAST_FUZZ_SEED={} GHAST_FUZZ_ITERATIONS={} (session seed {seed})",
        settings.seed, settings.iterations
    );
    let mut p = Proc::start(&[], context);
    let mut inputs = Gen::new(seed, variant, settings.large_hash);
    p.send_str("uci");
    let listing = p.read_until(ANSWER_TIMEOUT, |l| l == "uciok");
    let options = parse_options(&listing);
    assert!(
        options.len() > 10,
        "uci listed too few options: {listing:?}"
    );
    p.send_str(&format!("setoption name UCI_Variant value {variant}"));
    uci_sync(&mut p);
    let mut legal = inputs.playout(None, 0);
    for _ in 0..INPUTS_PER_SESSION * settings.iterations {
        let (input, expect) = inputs.uci_input(&options, &legal);
        let text = String::from_utf8_lossy(&input).into_owned();
        if text.starts_with("position") {
            legal = legal_after(variant, &text);
        }
        p.send(&input);
        match expect {
            UciExpect::Ready => {
                uci_sync(&mut p);
            }
            UciExpect::Perft => {
                // A perft counted on a thread of its own may answer after
                // `readyok`.
                let is_answer =
                    |l: &str| l.starts_with("Nodes searched") || l.starts_with("info string error");
                let lines = uci_sync(&mut p);
                if !lines.iter().any(|l| is_answer(l)) {
                    p.read_until(ANSWER_TIMEOUT, is_answer);
                }
            }
            UciExpect::Search { cheap } => {
                let mut lines = Vec::new();
                if cheap {
                    lines = p.read_for(NATURAL_FINISH, |l| l.starts_with("bestmove"));
                }
                p.send_str("stop");
                lines.extend(uci_sync(&mut p));
                let answered = lines
                    .iter()
                    .any(|l| l.starts_with("bestmove") || l.starts_with("info string error"));
                if !answered {
                    p.fail("go got neither bestmove nor an error");
                }
            }
        }
    }
    p.finish("quit");
}

/// The legal moves after a `position` line, when the rules library accepts
/// it (for `searchmoves`); empty otherwise.
fn legal_after(variant: &str, line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let split = words.iter().position(|&w| w == "moves");
    let (head, moves) = match split {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    let fen = match head {
        ["position", "startpos"] => None,
        ["position", "fen", rest @ ..] => Some(rest.join(" ")),
        _ => return Vec::new(),
    };
    let mut session = variants::new_session(variant).unwrap();
    match session.set_position(fen.as_deref(), moves) {
        Ok(()) => session.legal_moves(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn uci_loop_survives_fuzzed_input_in_every_variant() {
    let settings = settings();
    for variant in VARIANTS {
        fuzz_uci_session(variant, &settings);
    }
}

// ---------------------------------------------------------------------------
// CECP
// ---------------------------------------------------------------------------

/// The variants `ghast xboard` plays (Nemoroth is refused there).
const CECP_VARIANTS: [&str; 5] = [
    "nimrod",
    "nimrod-corner",
    "dragon-nimrod",
    "dragon-nimrod-corner",
    "vyremorn",
];

/// A result line of CECP (`1-0 {...}`, `0-1 {...}`, `1/2-1/2 {...}`).
fn is_result(line: &str) -> bool {
    ["1-0", "0-1", "1/2-1/2"]
        .iter()
        .any(|r| line.starts_with(r))
}

/// Whether a CECP line answers a `go`: a move, a result or an error.
fn answers_go(line: &str) -> bool {
    line.starts_with("move ")
        || is_result(line)
        || line.starts_with("Error")
        || line.starts_with("Illegal")
        || line.starts_with("tellusererror")
}

/// The rules-library game behind a CECP session: what the engine was told,
/// to generate legal moves in XBoard's notation.
struct CecpModel {
    variant: &'static str,
    session: Box<dyn Session>,
}

impl CecpModel {
    fn new(variant: &'static str) -> CecpModel {
        CecpModel {
            variant,
            session: variants::new_session(variant).unwrap(),
        }
    }

    fn xb_moves(&self) -> Vec<String> {
        let xb = xb_variant(self.variant).expect("CECP variant");
        self.session
            .legal_moves()
            .iter()
            .map(|m| xb.move_to_xboard(self.session.as_ref(), m))
            .collect()
    }

    /// Plays an XBoard move if it is legal here (the engine's or ours).
    fn follow(&mut self, xb_move: &str) {
        let xb = xb_variant(self.variant).expect("CECP variant");
        if let Some(mv) = xb.move_from_xboard(self.session.as_ref(), xb_move) {
            let _ = self.session.play_move(&mv);
        }
    }

    fn set_fen(&mut self, fen: &str) {
        if self.session.set_position(Some(fen), &[]).is_err() {
            let _ = self.session.set_position(None, &[]);
        }
    }
}

impl Gen {
    fn cecp_number(&mut self, lo: i64, hi: i64) -> String {
        if self.chance(20) {
            self.boundary()
        } else {
            self.number(lo, hi)
        }
    }

    /// A `memory` value: small, the maximum, or a boundary number.
    fn cecp_memory(&mut self) -> String {
        let value = match self.below(6) {
            0 => MAX_HASH_MB.to_string(),
            _ => self.cecp_number(1, SMALL_HASH_MB as i64),
        };
        self.hash_size(value)
    }

    /// The next CECP line, and whether it asks the engine for a move.
    fn cecp_input(&mut self, model: &mut CecpModel) -> (Vec<u8>, bool) {
        let xb = xb_variant(self.variant).expect("CECP variant");
        let line = match self.below(24) {
            0..=3 => {
                let moves = model.xb_moves();
                if moves.is_empty() {
                    "usermove a1a1".to_string()
                } else {
                    let mv = self.pick(&moves).clone();
                    model.follow(&mv);
                    match self.below(10) {
                        0 => self.mutate_text(&mv),
                        1 => mv,
                        _ => format!("usermove {mv}"),
                    }
                }
            }
            4 | 5 => {
                let fen = self.pick(&self.corpus.clone()).clone();
                model.set_fen(&fen);
                let xb_fen = xb.board_text(model.session.as_ref());
                if self.chance(35) {
                    format!("setboard {}", self.mutate_text(&xb_fen))
                } else {
                    format!("setboard {xb_fen}")
                }
            }
            6 | 7 => "go".to_string(),
            8 => "force".to_string(),
            9 => {
                model.set_fen(&model.session.start_fen());
                "new".to_string()
            }
            10 => {
                let mps = self.cecp_number(0, 40);
                let base = match self.below(3) {
                    0 => format!("0:{:02}", self.below(60)),
                    _ => self.cecp_number(0, 2),
                };
                let inc = self.cecp_number(0, 1);
                format!("level {mps} {base} {inc}")
            }
            11 => format!("st {}", self.cecp_number(0, 1)),
            12 => format!("sd {}", self.cecp_number(0, 3)),
            13 => format!(
                "{} {}",
                self.pick(&["time", "otim"]),
                self.cecp_number(-100, 3000)
            ),
            14 => format!("memory {}", self.cecp_memory()),
            15 => format!("cores {}", self.cecp_number(1, 4)),
            16 => {
                let moves = model.xb_moves();
                let square = moves
                    .first()
                    .map(|m| m.chars().take(2).collect::<String>())
                    .unwrap_or_else(|| "e2".into());
                format!("{} {square}", self.pick(&["lift", "put", "hover"]))
            }
            17 => {
                let other = *self.pick(&VARIANTS);
                if other == self.variant || self.chance(50) {
                    model.set_fen(&model.session.start_fen());
                    format!("variant {}", self.variant)
                } else {
                    // Another variant (or Nemoroth, refused): back to ours next.
                    model.set_fen(&model.session.start_fen());
                    format!("variant {other}\nvariant {}", self.variant)
                }
            }
            18 => self
                .pick(&[
                    "?",
                    "post",
                    "nopost",
                    "undo",
                    "remove",
                    "playother",
                    "white",
                    "black",
                    "analyze",
                    "exit",
                    "hint",
                    "bk",
                    "draw",
                    "d",
                    "eval",
                    "random",
                    "computer",
                    "result 1-0 {fuzz}",
                    "easy",
                    "hard",
                    ".",
                    "protover 2",
                    "xboard",
                ])
                .to_string(),
            19 => format!("ping {}", self.boundary()),
            20 | 21 => {
                let base = self.pick(&[
                    "usermove e2e4",
                    "setboard 8/8/8/8 w",
                    "level 40 5 0",
                    "st 1",
                ]);
                self.mutate_words(base)
            }
            _ => return (self.garbage(), false),
        };
        let thinks = matches!(
            line.split_whitespace().next(),
            Some("go" | "playother" | "usermove" | "white" | "black" | "analyze")
        );
        (line.into_bytes(), thinks)
    }
}

/// What the harness knows of a CECP session's mode, to tell when a `go`
/// must be answered: not in analysis (`go` and `?` do not end it), and not
/// after the game ended (ghast then stays silent until `new`, `variant`,
/// `setboard` or `undo`; see the report of issue 14).
#[derive(Default)]
struct CecpState {
    /// Inputs since `analyze`; `None` when not analysing.
    analysing: Option<usize>,
    over: bool,
}

impl CecpState {
    fn sent(&mut self, input: &[u8]) {
        for line in input.split(|&b| b == b'\n') {
            let line = String::from_utf8_lossy(line);
            match line.split_whitespace().next() {
                Some("analyze") => self.analysing = Some(0),
                Some("exit") => self.analysing = None,
                Some("new") => {
                    self.analysing = None;
                    self.over = false;
                }
                Some("result") => self.over = true,
                _ => {}
            }
        }
        if let Some(n) = self.analysing.as_mut() {
            *n += 1;
        }
    }

    /// Replies to `input`: a result ends the game; a new position that was
    /// not refused starts one.
    fn read(&mut self, lines: &[String], input: &[u8]) {
        let refused = lines.iter().any(|l| {
            l.starts_with("Error") || l.starts_with("tellusererror") || l.starts_with("Illegal")
        });
        let text = String::from_utf8_lossy(input);
        let restarts = text.lines().count() == 1
            && matches!(
                text.split_whitespace().next(),
                Some("setboard" | "variant" | "undo" | "remove")
            );
        if restarts && !refused {
            self.over = false;
        }
        if lines.iter().any(|l| is_result(l)) {
            self.over = true;
        }
    }

    fn go_must_answer(&self) -> bool {
        self.analysing.is_none() && !self.over
    }

    fn analysis_long_enough(&self) -> bool {
        self.analysing.is_some_and(|n| n > ANALYSIS_INPUTS)
    }
}

/// `ping N` and its `pong N`; follows any engine move in `model`.
fn cecp_sync(p: &mut Proc, model: &mut CecpModel, n: &mut u64) -> Vec<String> {
    p.check_healthy();
    *n += 1;
    let pong = format!("pong {n}");
    p.send_str(&format!("ping {n}"));
    let lines = p.read_until(ANSWER_TIMEOUT, |l| l == pong);
    for line in &lines {
        if let Some(mv) = line.strip_prefix("move ") {
            model.follow(mv);
        }
    }
    p.check_healthy();
    lines
}

fn fuzz_cecp_session(variant: &'static str, settings: &Settings, first_line: bool) {
    let seed = session_seed(settings.seed, 2, variant);
    let context = format!(
        "CECP, variant {variant}; reproduce with GHAST_FUZZ_SEED={} GHAST_FUZZ_ITERATIONS={} (session seed {seed})",
        settings.seed, settings.iterations
    );
    let mut p = if first_line {
        let mut p = Proc::start(&[], context);
        p.send_str("xboard");
        p
    } else {
        Proc::start(&["xboard"], context)
    };
    let mut inputs = Gen::new(seed, variant, settings.large_hash);
    let mut model = CecpModel::new(variant);
    p.send_str("protover 2");
    p.read_until(ANSWER_TIMEOUT, |l| l == "feature done=1");
    p.send_str(&format!("variant {variant}"));
    // Far from the fuzzed `ping` arguments, so no stray `pong` matches.
    let mut pings = 1_000_000_000;
    cecp_sync(&mut p, &mut model, &mut pings);
    let mut state = CecpState::default();
    for _ in 0..INPUTS_PER_SESSION * settings.iterations {
        let (input, thinks) = inputs.cecp_input(&mut model);
        p.send(&input);
        state.sent(&input);
        if input == b"go" && state.go_must_answer() {
            // Some searches end by themselves; `?` ends the rest, and the
            // engine must answer with a move, a result or an error.
            let mut lines = p.read_for(NATURAL_FINISH, answers_go);
            if !lines.iter().any(|l| answers_go(l)) {
                p.send_str("?");
                lines.extend(p.read_until(ANSWER_TIMEOUT, answers_go));
            }
            state.read(&lines, &[]);
            for line in &lines {
                if let Some(mv) = line.strip_prefix("move ") {
                    model.follow(mv);
                }
            }
        } else if thinks && inputs.chance(50) {
            p.send_str("?");
        }
        if state.analysis_long_enough() {
            p.send_str("exit");
            state.analysing = None;
        }
        let lines = cecp_sync(&mut p, &mut model, &mut pings);
        state.read(&lines, &input);
    }
    p.finish("quit");
}

#[test]
fn cecp_loop_survives_fuzzed_input_in_every_variant() {
    let settings = settings();
    for (i, variant) in CECP_VARIANTS.into_iter().enumerate() {
        // Both ways in: `ghast xboard`, and a first line `xboard`.
        fuzz_cecp_session(variant, &settings, i % 2 == 1);
    }
}

// ---------------------------------------------------------------------------
// Position parsers on the command line
// ---------------------------------------------------------------------------

/// `ghast perft --variant V --fen FEN DEPTH`: exit 0 (a count) or 1 or 2
/// (an error message), within the timeout, without a panic.
fn perft_cli(variant: &str, fen: &str, depth: &str, context: &str) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ghast"))
        .args([
            "perft",
            "--variant",
            variant,
            &format!("--fen={fen}"),
            depth,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ghast perft");
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + ANSWER_TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!(
                "fuzz failure: ghast perft did not finish\n{context}\nfen: {fen:?} depth {depth}"
            );
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let (out, err) = (out.join().unwrap(), err.join().unwrap());
    let ok = match status.code() {
        Some(0) => out.contains("Nodes searched"),
        // 1: refused position or depth; 2: clap refused the arguments.
        Some(1 | 2) => err.starts_with("error: ") && !err.contains("panicked"),
        _ => false,
    };
    assert!(
        ok,
        "fuzz failure: ghast perft exited {status}\n{context}\nfen: {fen:?} depth {depth}\nstdout:\n{out}\nstderr:\n{err}"
    );
}

#[test]
fn perft_command_line_refuses_bad_positions_cleanly() {
    let settings = settings();
    for variant in VARIANTS {
        let seed = session_seed(settings.seed, 3, variant);
        let context = format!(
            "ghast perft, variant {variant}; reproduce with GHAST_FUZZ_SEED={} GHAST_FUZZ_ITERATIONS={}",
            settings.seed, settings.iterations
        );
        let mut inputs = Gen::new(seed, variant, settings.large_hash);
        for _ in 0..CLI_RUNS_PER_VARIANT * settings.iterations {
            // A command-line argument cannot hold a NUL byte.
            let fen = inputs.fen().replace('\0', "");
            let depth = match inputs.below(4) {
                0 => "100000".to_string(),
                1 => inputs.boundary(),
                _ => inputs.number(0, 2),
            };
            perft_cli(variant, &fen, &depth, &context);
        }
    }
}
