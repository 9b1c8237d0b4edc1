//! Players: in-process ghast searchers and external engines speaking the
//! UCI dialect over pipes. A fresh player is made for every game, so a
//! crashed engine is simply started again for the next one.

use crate::engine::{self, Engine, Limits, Score, Settings};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long an external engine may take to answer `uci` and `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How much a player may think per move.
#[derive(Clone, Debug, PartialEq)]
pub enum Limit {
    /// `moves/base+inc` or `base+inc`, milliseconds.
    Clock {
        moves: Option<u32>,
        base_ms: u64,
        inc_ms: u64,
    },
    MoveTime(u64),
    Nodes(u64),
    Depth(u32),
}

impl Limit {
    /// Parses `40/60+0.6`, `10+0.1`, `5` (seconds), `st=0.5`, `nodes=N`,
    /// `depth=N`.
    pub fn parse(text: &str) -> Result<Limit, String> {
        let secs = |t: &str| -> Result<u64, String> {
            let v: f64 = t
                .parse()
                .map_err(|_| format!("time control: '{t}' is not a number of seconds"))?;
            if !(0.0..1e7).contains(&v) {
                return Err(format!("time control: '{t}' is out of range"));
            }
            Ok((v * 1000.0).round() as u64)
        };
        if let Some(v) = text.strip_prefix("st=") {
            return Ok(Limit::MoveTime(secs(v)?.max(1)));
        }
        if let Some(v) = text.strip_prefix("nodes=") {
            return v
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .map(Limit::Nodes)
                .ok_or_else(|| format!("nodes: '{v}' is not a positive number"));
        }
        if let Some(v) = text.strip_prefix("depth=") {
            return v
                .parse()
                .ok()
                .filter(|&d| d > 0)
                .map(Limit::Depth)
                .ok_or_else(|| format!("depth: '{v}' is not a positive number"));
        }
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (
                Some(
                    m.parse::<u32>()
                        .ok()
                        .filter(|&m| m > 0)
                        .ok_or_else(|| format!("time control: '{m}' is not a move count"))?,
                ),
                r,
            ),
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (secs(b)?, secs(i)?),
            None => (secs(rest)?, 0),
        };
        if base == 0 {
            return Err(format!("time control '{text}' has no time"));
        }
        Ok(Limit::Clock {
            moves,
            base_ms: base,
            inc_ms: inc,
        })
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = |ms: u64| format!("{}", ms as f64 / 1000.0);
        match self {
            Limit::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", s(*base_ms))?;
                if *inc_ms > 0 {
                    write!(f, "+{}", s(*inc_ms))?;
                }
                Ok(())
            }
            Limit::MoveTime(ms) => write!(f, "st={}", s(*ms)),
            Limit::Nodes(n) => write!(f, "nodes={n}"),
            Limit::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

/// Who a player is, as given by `--engine`.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    pub name: String,
    /// `None`: an in-process ghast searcher; `Some`: a command to start.
    pub command: Option<Vec<String>>,
    pub dir: Option<PathBuf>,
    /// Options in the order given (`option.Hash=64`).
    pub options: Vec<(String, String)>,
    /// Overrides the match's time control.
    pub limit: Option<Limit>,
    /// The name to send as `UCI_Variant`, if the engine calls the variant
    /// differently (Fairy-Stockfish: `nimrodcorner`).
    pub variant_alias: Option<String>,
}

impl PlayerSpec {
    /// Parses `name=a cmd=PATH arg=X dir=D option.Hash=64 tc=1+0.01
    /// variant=nimrodcorner`. A word without `=` continues the previous
    /// value (`cmd=engine --flag`), and an `option.` key may hold spaces
    /// (`option.Move Overhead=20`).
    pub fn parse(text: &str) -> Result<PlayerSpec, String> {
        let mut pairs: Vec<String> = Vec::new();
        for word in text.split_whitespace() {
            match pairs.last_mut() {
                // Completing a key with a space (`option.Move Overhead=20`).
                Some(last) if !last.contains('=') => {
                    last.push(' ');
                    last.push_str(word);
                }
                _ if word.contains('=') || word.starts_with("option.") => {
                    pairs.push(word.to_string())
                }
                // A value with spaces (`cmd=fsf --flag`, an option value).
                Some(last) => {
                    last.push(' ');
                    last.push_str(word);
                }
                None => pairs.push(word.to_string()),
            }
        }
        let mut spec = PlayerSpec {
            name: String::new(),
            command: None,
            dir: None,
            options: Vec::new(),
            limit: None,
            variant_alias: None,
        };
        let mut args = Vec::new();
        for pair in pairs {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("engine: '{pair}' is not key=value"))?;
            match key {
                "name" => spec.name = value.to_string(),
                "cmd" => spec.command = Some(value.split_whitespace().map(String::from).collect()),
                "arg" => args.push(value.to_string()),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "variant" => spec.variant_alias = Some(value.to_string()),
                "tc" => spec.limit = Some(Limit::parse(value)?),
                "st" | "nodes" | "depth" => spec.limit = Some(Limit::parse(&pair)?),
                k if k.starts_with("option.") => spec
                    .options
                    .push((k["option.".len()..].to_string(), value.to_string())),
                other => return Err(format!("engine: unknown key '{other}'")),
            }
        }
        if let Some(cmd) = spec.command.as_mut() {
            if cmd.is_empty() {
                return Err("engine: empty cmd=".into());
            }
            cmd.extend(args);
        } else if !args.is_empty() {
            return Err("engine: arg= needs cmd=".into());
        }
        if spec.name.is_empty() {
            return Err(format!("engine: missing name= in '{text}'"));
        }
        Ok(spec)
    }
}

/// A move and what the player said about it.
#[derive(Clone, Debug)]
pub struct Reply {
    /// `None` for `bestmove (none)`.
    pub mv: Option<String>,
    pub score: Option<Score>,
    pub depth: u32,
    pub elapsed: Duration,
}

/// Why a player failed to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process died or closed its output.
    Crash(String),
    /// No answer before the deadline.
    Hang,
    /// The engine refused the setup (an error it printed, a bad option).
    Setup(String),
}

pub trait Player: Send {
    /// Thinks about `fen` + `moves` within `limits`; gives up at `deadline`.
    fn think(
        &mut self,
        fen: &str,
        moves: &[String],
        limits: &Limits,
        deadline: Duration,
    ) -> Result<Reply, Failure>;
}

/// Starts a player for one game of `variant`.
pub fn start(spec: &PlayerSpec, variant: &str) -> Result<Box<dyn Player>, Failure> {
    match &spec.command {
        None => Ok(Box::new(Internal::new(spec, variant)?)),
        Some(cmd) => Ok(Box::new(External::start(spec, cmd, variant)?)),
    }
}

/// ghast's own search, in this process.
pub struct Internal {
    engine: Box<dyn Engine>,
}

impl Internal {
    /// An engine of `variant` with the spec's options, set through the
    /// option table as `setoption` would set them.
    fn new(spec: &PlayerSpec, variant: &str) -> Result<Internal, Failure> {
        let mut settings = Settings::default();
        for (name, value) in &spec.options {
            if name.eq_ignore_ascii_case("UCI_Variant") {
                return Err(Failure::Setup(
                    "option UCI_Variant: the match decides the variant".into(),
                ));
            }
            settings
                .set(name, Some(value))
                .map_err(|e| Failure::Setup(format!("option {e}")))?;
        }
        let engine = engine::for_variant(variant, settings)
            .map_err(|e| Failure::Setup(format!("option {e}")))?;
        Ok(Internal { engine })
    }
}

impl Player for Internal {
    fn think(
        &mut self,
        fen: &str,
        moves: &[String],
        limits: &Limits,
        _deadline: Duration,
    ) -> Result<Reply, Failure> {
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        self.engine
            .session_mut()
            .set_position(Some(fen), &moves)
            .map_err(|e| Failure::Setup(e.to_string()))?;
        let start = Instant::now();
        let reply = self.engine.search(limits, &|_| {});
        if let Some(error) = reply.error {
            return Err(Failure::Crash(error));
        }
        Ok(Reply {
            mv: reply.best,
            score: Some(reply.score),
            depth: reply.depth,
            elapsed: start.elapsed(),
        })
    }
}

/// An engine process speaking the UCI dialect.
pub struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl External {
    fn start(spec: &PlayerSpec, cmd: &[String], variant: &str) -> Result<External, Failure> {
        let mut command = Command::new(&cmd[0]);
        command
            .args(&cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Failure::Crash(format!("cannot start '{}': {e}", cmd[0])))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = External {
            child,
            stdin,
            lines: rx,
        };
        engine.send("uci")?;
        engine.wait_for("uciok", HANDSHAKE_TIMEOUT)?;
        for (name, value) in &spec.options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        let variant_name = spec.variant_alias.as_deref().unwrap_or(variant);
        engine.send(&format!("setoption name UCI_Variant value {variant_name}"))?;
        engine.send("ucinewgame")?;
        engine.send("isready")?;
        let seen = engine.wait_for("readyok", HANDSHAKE_TIMEOUT)?;
        if let Some(error) = seen.iter().find(|l| l.contains("error")) {
            return Err(Failure::Setup(error.clone()));
        }
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Failure::Crash(format!("write failed: {e}")))
    }

    /// Reads lines until one equals `token`; returns the lines before it.
    fn wait_for(&mut self, token: &str, timeout: Duration) -> Result<Vec<String>, Failure> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.trim() == token => return Ok(seen),
                Ok(line) => seen.push(line),
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Hang),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Crash("engine closed its output".into()));
                }
            }
        }
    }
}

/// Reads `score cp N` / `score mate N` and `depth N` from an info line.
fn parse_info(line: &str, score: &mut Option<Score>, depth: &mut u32) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    for (i, t) in tokens.iter().enumerate() {
        match *t {
            "depth" => {
                if let Some(d) = tokens.get(i + 1).and_then(|d| d.parse().ok()) {
                    *depth = d;
                }
            }
            "score" => match (
                tokens.get(i + 1),
                tokens.get(i + 2).and_then(|v| v.parse().ok()),
            ) {
                (Some(&"cp"), Some(v)) => *score = Some(Score::Cp(v)),
                (Some(&"mate"), Some(v)) => *score = Some(Score::Mate(v)),
                _ => {}
            },
            _ => {}
        }
    }
}

/// The `go` line for `limits`.
pub fn go_command(limits: &Limits) -> String {
    let mut go = String::from("go");
    for (name, value) in [
        ("wtime", limits.time[0]),
        ("btime", limits.time[1]),
        ("winc", limits.time[0].map(|_| limits.inc[0])),
        ("binc", limits.time[1].map(|_| limits.inc[1])),
        ("movestogo", limits.movestogo.map(u64::from)),
        ("movetime", limits.movetime),
        ("nodes", limits.nodes),
        ("depth", limits.depth.map(u64::from)),
    ] {
        if let Some(v) = value {
            go.push_str(&format!(" {name} {v}"));
        }
    }
    go
}

impl Player for External {
    fn think(
        &mut self,
        fen: &str,
        moves: &[String],
        limits: &Limits,
        deadline: Duration,
    ) -> Result<Reply, Failure> {
        let mut position = format!("position fen {fen}");
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position)?;
        let start = Instant::now();
        self.send(&go_command(limits))?;
        let mut score = None;
        let mut depth = 0;
        loop {
            let left = deadline.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if line.starts_with("info") {
                        parse_info(&line, &mut score, &mut depth);
                    } else if let Some(rest) = line.strip_prefix("bestmove") {
                        let mv = rest.split_whitespace().next().unwrap_or("(none)");
                        return Ok(Reply {
                            mv: (mv != "(none)").then(|| mv.to_string()),
                            score,
                            depth,
                            elapsed: start.elapsed(),
                        });
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Hang),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Crash("engine closed its output".into()));
                }
            }
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // Give it a moment to leave by itself, then make sure it is gone.
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_parse() {
        assert_eq!(
            Limit::parse("1+0.01"),
            Ok(Limit::Clock {
                moves: None,
                base_ms: 1000,
                inc_ms: 10
            })
        );
        assert_eq!(
            Limit::parse("40/60"),
            Ok(Limit::Clock {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 0
            })
        );
        assert_eq!(Limit::parse("st=0.5"), Ok(Limit::MoveTime(500)));
        assert_eq!(Limit::parse("nodes=1000"), Ok(Limit::Nodes(1000)));
        assert_eq!(Limit::parse("depth=7"), Ok(Limit::Depth(7)));
        for bad in ["", "x", "1+", "0", "-1", "nodes=0", "depth=x", "0/5"] {
            assert!(Limit::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Limit::parse("1+0.01").unwrap().to_string(), "1+0.01");
    }

    #[test]
    fn internal_player_eval_file() {
        let path = std::env::temp_dir().join(format!("ghast-player-{}.params", std::process::id()));
        let path = path.to_str().unwrap().to_string();
        let text = crate::variants::nimrod::eval::default_params().to_text();
        std::fs::write(&path, &text).unwrap();
        let spec = PlayerSpec::parse(&format!("name=t option.EvalFile={path}")).unwrap();
        assert!(start(&spec, "nimrod").is_ok());
        std::fs::write(&path, text.replace("tempo ", "tempx ")).unwrap();
        match start(&spec, "nimrod") {
            Err(Failure::Setup(e)) => assert!(
                e.contains("option EvalFile:") && e.contains("unknown parameter 'tempx'"),
                "{e}"
            ),
            _ => panic!("a malformed EvalFile must be refused"),
        }
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn player_specs_parse() {
        let s = PlayerSpec::parse("name=ext cmd=/bin/fsf option.Hash=64 option.Move Overhead=20 variant=nimrodcorner tc=2+0.02").unwrap();
        assert_eq!(s.name, "ext");
        assert_eq!(s.command, Some(vec!["/bin/fsf".to_string()]));
        assert_eq!(
            s.options,
            vec![
                ("Hash".into(), "64".into()),
                ("Move Overhead".into(), "20".into())
            ]
        );
        assert_eq!(s.variant_alias.as_deref(), Some("nimrodcorner"));
        assert!(s.limit.is_some());
        assert!(PlayerSpec::parse("cmd=x").is_err());
        assert!(PlayerSpec::parse("name=a bogus=1").is_err());
        assert!(PlayerSpec::parse("name=a arg=1").is_err());
    }

    #[test]
    fn info_lines_parse() {
        let (mut s, mut d) = (None, 0);
        parse_info(
            "info depth 7 seldepth 9 score cp -31 nodes 5 pv e2e4",
            &mut s,
            &mut d,
        );
        assert_eq!((s, d), (Some(Score::Cp(-31)), 7));
        parse_info("info depth 9 score mate -2 pv e2e4", &mut s, &mut d);
        assert_eq!((s, d), (Some(Score::Mate(-2)), 9));
    }
}
