//! The MCTS search (`setoption name Search value mcts`) through the
//! protocol, against the real binary: mates with `score mate`, legal moves
//! in every variant under every `go` limit, prompt `stop`, reproducible
//! node-limited searches, and a bounded tree under `go infinite`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

const VARIANTS: [&str; 6] = [
    "nimrod",
    "nimrod-corner",
    "dragon-nimrod",
    "dragon-nimrod-corner",
    "vyremorn",
    "nemoroth",
];
const SLOW: Duration = Duration::from_secs(60);

/// Timing tests run one at a time.
static TIMING: Mutex<()> = Mutex::new(());

fn timing() -> MutexGuard<'static, ()> {
    TIMING.lock().unwrap_or_else(|e| e.into_inner())
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
    log: Vec<String>,
}

impl Engine {
    /// A started engine with MCTS selected and `variant` chosen.
    fn mcts(variant: &str, options: &[(&str, &str)]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ghast"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
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
        let mut e = Engine {
            child,
            stdin,
            lines,
            log: Vec::new(),
        };
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send("setoption name Search value mcts");
        for (name, value) in options {
            e.send(&format!("setoption name {name} value {value}"));
        }
        e.isready();
        assert!(
            !e.log.iter().any(|l| l.contains("error")),
            "{}",
            e.log.join("\n")
        );
        e
    }

    fn send(&mut self, line: &str) -> Instant {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        self.log.push(format!("> {line}"));
        Instant::now()
    }

    fn tail(&self) -> String {
        let from = self.log.len().saturating_sub(30);
        self.log[from..].join("\n")
    }

    fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> (Vec<String>, Instant) {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((at, line)) => {
                    self.log.push(format!("< {line}"));
                    let stop = done(&line);
                    out.push(line);
                    if stop {
                        return (out, at);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no reply within {timeout:?}:\n{}", self.tail())
                }
                Err(RecvTimeoutError::Disconnected) => panic!("ghast exited:\n{}", self.tail()),
            }
        }
    }

    fn isready(&mut self) {
        self.send("isready");
        self.until(SLOW, |l| l == "readyok");
    }

    fn legal_moves(&mut self) -> Vec<String> {
        self.send("go perft 1");
        let (lines, _) = self.until(SLOW, |l| l.starts_with("Nodes searched"));
        lines
            .iter()
            .filter_map(|l| l.split_once(": ").map(|(m, _)| m.to_string()))
            .filter(|m| !m.starts_with("Nodes"))
            .collect()
    }

    /// `go ...` until `bestmove`: the lines and the best move.
    fn go(&mut self, go: &str, timeout: Duration) -> (Vec<String>, String) {
        self.send(go);
        let (lines, _) = self.until(timeout, |l| l.starts_with("bestmove"));
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        (lines, best)
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

fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == key)?;
    words.next()
}

fn last_info(lines: &[String]) -> &String {
    lines
        .iter()
        .rfind(|l| l.starts_with("info ") && l.contains(" score "))
        .expect("an info line with a score")
}

/// Sane info lines: depth <= seldepth, nodes and nps present, a PV that
/// starts with the reported best move (for the last line).
fn check_infos(lines: &[String], best: &str, context: &str) {
    for l in lines.iter().filter(|l| l.contains(" score ")) {
        let depth: u32 = field(l, "depth").unwrap().parse().unwrap();
        let seldepth: u32 = field(l, "seldepth").unwrap().parse().unwrap();
        assert!(depth >= 1 && depth <= seldepth, "{context}: {l}");
        let hashfull: u32 = field(l, "hashfull").unwrap().parse().unwrap();
        assert!(hashfull <= 1000, "{context}: {l}");
        assert!(field(l, "nps").is_some() && field(l, "nodes").is_some());
        assert!(l.contains(" pv "), "{context}: {l}");
    }
    let last = last_info(lines);
    assert_eq!(
        last.split(" pv ").nth(1).unwrap().split_whitespace().next(),
        Some(best),
        "{context}: {last}"
    );
}

/// (variant, FEN, best move, mate in N) from positions/tactics.txt.
fn mates(max: u32) -> Vec<(String, String, String, u32)> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/tactics.txt"
    ))
    .unwrap();
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let Some(n) = fields
            .iter()
            .find_map(|f| f.strip_prefix("mate "))
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if n > max {
            continue;
        }
        let bm = fields[2].strip_prefix("bm ").unwrap().to_string();
        out.push((fields[0].to_string(), fields[1].to_string(), bm, n));
    }
    out
}

#[test]
fn finds_mates_in_one_and_two_with_score_mate() {
    let suite = mates(2);
    assert!(suite.len() >= 12, "{} entries", suite.len());
    for (variant, fen, bm, n) in suite {
        let mut e = Engine::mcts(&variant, &[]);
        e.send(&format!("position fen {fen}"));
        let (lines, best) = e.go("go nodes 60000", SLOW);
        assert!(
            bm.split_whitespace().any(|m| m == best),
            "{variant} {fen}: played {best}, expected {bm}\n{}",
            e.tail()
        );
        let last = last_info(&lines);
        let mate: i32 = match (field(last, "score"), last.split(" score mate ").nth(1)) {
            (Some("mate"), Some(rest)) => rest.split_whitespace().next().unwrap().parse().unwrap(),
            _ => panic!("{variant} {fen}: no mate score: {last}"),
        };
        assert!(mate > 0 && mate <= n as i32, "{variant} {fen}: {last}");
    }
}

#[test]
fn node_limited_search_is_reproducible() {
    for v in VARIANTS {
        let mut e = Engine::mcts(v, &[]);
        let mut results = Vec::new();
        for _ in 0..2 {
            e.send("ucinewgame");
            e.send("position startpos");
            let (lines, best) = e.go("go nodes 3000", SLOW);
            let last = last_info(&lines).clone();
            let nodes = field(&last, "nodes").unwrap().to_string();
            assert_eq!(nodes, "3000", "{v}: {last}");
            let pv = last.split(" pv ").nth(1).unwrap().to_string();
            results.push((best, nodes, pv));
        }
        assert_eq!(results[0], results[1], "{v}: two runs differ");
    }
}

#[test]
fn every_variant_plays_legal_moves_under_every_limit() {
    let _t = timing();
    for v in VARIANTS {
        for threads in ["1", "2"] {
            let mut e = Engine::mcts(v, &[("Threads", threads)]);
            let mut moves: Vec<String> = Vec::new();
            let limits = [
                "go nodes 300",
                "go depth 3",
                "go movetime 150",
                "go wtime 2000 btime 2000 winc 20 binc 20",
                "go wtime 500 btime 500 movestogo 3",
                "go mate 2 movetime 100",
            ];
            for go in limits {
                let position = if moves.is_empty() {
                    "position startpos".to_string()
                } else {
                    format!("position startpos moves {}", moves.join(" "))
                };
                e.send(&position);
                let legal = e.legal_moves();
                let started = Instant::now();
                let (lines, best) = e.go(go, Duration::from_secs(30));
                let took = started.elapsed();
                let context = format!("{v} threads {threads} '{go}'");
                assert!(legal.contains(&best), "{context}: {best} not in {legal:?}");
                check_infos(&lines, &best, &context);
                if go.contains("movetime") {
                    assert!(
                        took < Duration::from_millis(150 + 250),
                        "{context}: {took:?}"
                    );
                }
                if go.contains("wtime") {
                    assert!(took < Duration::from_millis(500), "{context}: {took:?}");
                }
                moves.push(best);
            }
        }
    }
}

#[test]
fn infinite_and_ponder_stop_promptly() {
    let _t = timing();
    for v in VARIANTS {
        let mut e = Engine::mcts(v, &[("Threads", "2")]);
        e.send("position startpos");
        let legal = e.legal_moves();
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        e.send("isready");
        e.until(Duration::from_millis(200), |l| l == "readyok");
        let sent = e.send("stop");
        let (lines, at) = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
        let took = at.saturating_duration_since(sent);
        // 50 ms promised; slack for a loaded machine.
        assert!(took < Duration::from_millis(150), "{v}: stop took {took:?}");
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        assert!(legal.iter().any(|m| m == best), "{v}: {best}");

        // Ponder: no bestmove before ponderhit, then one within the budget.
        e.send("go ponder wtime 1000 btime 1000");
        std::thread::sleep(Duration::from_millis(300));
        e.send("isready");
        let (lines, _) = e.until(Duration::from_millis(200), |l| l == "readyok");
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{v}");
        e.send("ponderhit");
        let (lines, _) = e.until(Duration::from_millis(600), |l| l.starts_with("bestmove"));
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        assert!(legal.iter().any(|m| m == best), "{v}: {best}");
    }
}

#[test]
fn long_infinite_search_stays_within_a_tiny_hash() {
    let _t = timing();
    let mut e = Engine::mcts("nimrod", &[("Hash", "1")]);
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(2500));
    e.send("stop");
    let (lines, _) = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    let last = infos.last().unwrap();
    let hashfull: u32 = field(last, "hashfull").unwrap().parse().unwrap();
    assert!(hashfull <= 1000, "{last}");
    // Full long before the end, and the search went on visiting.
    assert!(hashfull >= 990, "{last}");
    let nodes: u64 = field(last, "nodes").unwrap().parse().unwrap();
    assert!(nodes > 5_000, "{last}");
}
