//! The UCI dialect of Fairy-Stockfish (`UCI_Variant`), documented in
//! `protocol.md`.
//!
//! The loop owns the current game (a [`Session`]) and the engine options.
//! `go` clones the session into a search thread that prints `info` lines
//! and finally `bestmove`; meanwhile the loop keeps reading, so `isready`
//! is answered at once and `stop`/`ponderhit` reach the search through the
//! shared flags. Every malformed line gets `info string error: ...` and
//! leaves the engine state as it was; nothing a GUI sends stops the loop
//! except `quit` or the end of input.

use crate::search::{
    Config, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, Info, Limits, MAX_HASH_MB, MAX_MULTIPV,
    MAX_THREADS, SEARCH_STACK_BYTES, SearchKind, Shared,
};
use crate::variants::{
    self, DEFAULT_VARIANT, SearchReply, Session, VARIANTS, is_default_eval_file,
};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub const ENGINE_NAME: &str = concat!("ghast ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the ghast developers";

/// The search algorithms the `Search` option offers.
pub const SEARCH_KINDS: [&str; 2] = SearchKind::NAMES;
const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// What the loop should do after a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Formats one `info` line as UCI hosts expect.
pub fn format_info(info: &Info) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth, info.seldepth, info.multipv, info.score
    );
    if let Some(b) = info.bound {
        s.push(' ');
        s.push_str(b);
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} time {} pv {}",
        info.nodes,
        info.nps,
        info.hashfull,
        info.time_ms,
        info.pv.join(" ")
    ));
    s
}

/// Formats the final `bestmove` line.
pub fn format_bestmove(reply: &SearchReply) -> String {
    match (&reply.best, &reply.ponder) {
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
        (Some(b), None) => format!("bestmove {b}"),
        (None, _) => "bestmove (none)".to_string(),
    }
}

struct RunningSearch {
    handle: JoinHandle<()>,
    started: Instant,
}

/// The protocol state: the current game, the options and where replies go.
pub struct Uci<W: Write + Send + 'static> {
    session: Box<dyn Session>,
    out: Arc<Mutex<W>>,
    config: Config,
    hash_mb: usize,
    ponder_option: bool,
    /// The `EvalFile` path in force (`None`: compiled-in weights).
    eval_file: Option<String>,
    shared: Arc<Shared>,
    running: Option<RunningSearch>,
}

impl<W: Write + Send + 'static> Uci<W> {
    pub fn new(out: W) -> Self {
        let session = variants::new_session(DEFAULT_VARIANT).expect("default variant exists");
        Uci {
            session,
            out: Arc::new(Mutex::new(out)),
            config: Config::default(),
            hash_mb: DEFAULT_HASH_MB,
            ponder_option: false,
            eval_file: None,
            shared: Arc::new(Shared::new(DEFAULT_HASH_MB)),
            running: None,
        }
    }

    /// Reads commands until `quit` or end of input, then ends any search.
    pub fn run(&mut self, input: impl BufRead) -> std::io::Result<()> {
        for line in input.lines() {
            let line = match line {
                Ok(l) => l,
                // Invalid UTF-8 is bad input, not a reason to stop.
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    self.error("input line is not valid UTF-8");
                    continue;
                }
                Err(e) => return Err(e),
            };
            if self.handle(&line) == Flow::Quit {
                break;
            }
        }
        self.finish_search();
        Ok(())
    }

    fn say(&self, line: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        // A closed stdout leaves nobody to talk to; nothing useful to do.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    pub(crate) fn error(&self, message: &str) {
        self.say(&format!("info string error: {message}"));
    }

    /// Stops a running search and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some(run) = self.running.take() {
            self.shared.request_stop();
            let _ = run.handle.join();
        }
    }

    fn searching(&mut self) -> bool {
        match &self.running {
            Some(run) if run.handle.is_finished() => {
                self.finish_search();
                false
            }
            Some(_) => true,
            None => false,
        }
    }

    /// Handles one line of input.
    pub fn handle(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return Flow::Continue;
        };
        match command {
            "uci" => self.uci(),
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.finish_search();
                self.session =
                    variants::new_session(self.session.variant()).expect("current variant exists");
                self.shared.clear();
            }
            "setoption" => {
                self.finish_search();
                self.setoption(args)
            }
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => {
                if self.searching() {
                    self.finish_search();
                }
            }
            "ponderhit" => {
                if let Some(run) = &self.running {
                    self.shared.ponderhit(run.started.elapsed());
                }
            }
            "d" => {
                let text = self.session.display();
                self.say(text.trim_end());
            }
            "quit" => {
                self.finish_search();
                return Flow::Quit;
            }
            other => self.error(&format!("unknown command '{other}'")),
        }
        Flow::Continue
    }

    fn uci(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say(&format!("id author {ENGINE_AUTHOR}"));
        let vars: String = VARIANTS.iter().map(|v| format!(" var {v}")).collect();
        self.say(&format!(
            "option name UCI_Variant type combo default {DEFAULT_VARIANT}{vars}"
        ));
        self.say(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        self.say("option name Clear Hash type button");
        self.say(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        self.say(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        self.say(&format!(
            "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
        ));
        self.say("option name Ponder type check default false");
        self.say("option name EvalFile type string default <default>");
        let kinds: String = SEARCH_KINDS.iter().map(|k| format!(" var {k}")).collect();
        self.say(&format!(
            "option name Search type combo default {}{kinds}",
            SEARCH_KINDS[0]
        ));
        for spec in crate::search::params::PARAM_SPECS {
            self.say(&format!(
                "option name {} type spin default {} min {} max {}",
                spec.name,
                self.config.params.get(spec),
                spec.min,
                spec.max
            ));
        }
        self.say("uciok");
    }

    fn setoption(&mut self, args: &[&str]) {
        // setoption name <id...> [value <x...>]; option names may hold spaces.
        if args.first() != Some(&"name") {
            return self.error("setoption: expected 'setoption name <id> [value <x>]'");
        }
        let value_at = args.iter().position(|&t| t == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map(|i| args[i + 1..].join(" "));
        if name.is_empty() {
            return self.error("setoption: missing option name");
        }
        let lower = name.to_ascii_lowercase();
        if lower == "clear hash" {
            self.shared.clear();
            return;
        }
        let Some(value) = value.filter(|v| !v.is_empty()) else {
            return self.error(&format!("setoption {name}: missing value"));
        };
        let spin = |min: u64, max: u64| -> Result<u64, String> {
            match value.parse::<u64>() {
                Ok(v) if (min..=max).contains(&v) => Ok(v),
                _ => Err(format!(
                    "setoption {name}: '{value}' is not a number from {min} to {max}"
                )),
            }
        };
        let result = match lower.as_str() {
            "uci_variant" => match variants::new_session(&value.to_ascii_lowercase()) {
                Ok(session) => {
                    self.session = session;
                    self.say(&format!(
                        "info string variant {} files {} ranks {} startpos {}",
                        self.session.variant(),
                        self.session.files(),
                        self.session.ranks(),
                        self.session.start_fen()
                    ));
                    // A loaded params file must fit the new variant too.
                    self.config.eval = None;
                    match self.eval_file.take() {
                        Some(path) => {
                            match variants::load_eval_file(self.session.as_ref(), &path) {
                                Ok(set) => {
                                    self.config.eval = Some(set);
                                    self.eval_file = Some(path);
                                    Ok(())
                                }
                                Err(e) => Err(format!("EvalFile: {e}; using the built-in weights")),
                            }
                        }
                        None => Ok(()),
                    }
                }
                Err(e) => Err(format!("setoption UCI_Variant: {e}")),
            },
            "hash" => spin(1, MAX_HASH_MB as u64).map(|mb| {
                self.hash_mb = mb as usize;
                self.shared = Arc::new(Shared::new(self.hash_mb));
            }),
            "threads" => spin(1, MAX_THREADS as u64).map(|t| self.config.threads = t as usize),
            "multipv" => spin(1, MAX_MULTIPV as u64).map(|m| self.config.multipv = m as usize),
            "move overhead" => spin(0, MAX_MOVE_OVERHEAD_MS)
                .map(|ms| self.config.move_overhead = Duration::from_millis(ms)),
            "ponder" => match value.to_ascii_lowercase().as_str() {
                v @ ("true" | "false") => {
                    self.ponder_option = v == "true";
                    Ok(())
                }
                _ => Err(format!("setoption Ponder: '{value}' is not true or false")),
            },
            "evalfile" => {
                if is_default_eval_file(&value) {
                    self.config.eval = None;
                    self.eval_file = None;
                    Ok(())
                } else {
                    // On error the previous weights stay in force.
                    variants::load_eval_file(self.session.as_ref(), &value)
                        .map(|set| {
                            self.config.eval = Some(set);
                            self.eval_file = Some(value.clone());
                            self.say(&format!(
                                "info string EvalFile {value} loaded for {}",
                                self.session.variant()
                            ));
                        })
                        .map_err(|e| format!("setoption EvalFile: {e}"))
                }
            }
            "search" => match SearchKind::parse(&value) {
                Some(k) => {
                    self.config.search = Some(k);
                    Ok(())
                }
                None => Err(format!(
                    "setoption Search: '{value}' is not one of {}",
                    SEARCH_KINDS.join(", ")
                )),
            },
            _ => match self.config.params.set(&name, &value) {
                Ok(true) => Ok(()),
                Ok(false) => Err(format!("setoption: unknown option '{name}'")),
                Err(e) => Err(format!("setoption {e}")),
            },
        };
        if let Err(e) = result {
            self.error(&e);
        }
    }

    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let fen = match setup.split_first() {
            Some((&"startpos", [])) => None,
            Some((&"startpos", extra)) => {
                return self.error(&format!(
                    "position: unexpected '{}' after startpos",
                    extra.join(" ")
                ));
            }
            Some((&"fen", [])) => return self.error("position fen: missing FEN"),
            Some((&"fen", fields)) => Some(fields.join(" ")),
            _ => return self.error("position: expected 'startpos' or 'fen <FEN>'"),
        };
        if let Err(e) = self.session.set_position(fen.as_deref(), moves) {
            self.error(&format!("position: {e}"));
        }
    }

    fn go(&mut self, args: &[&str]) {
        if args.first() == Some(&"perft") {
            return match args {
                ["perft", depth] => match depth.parse::<u32>() {
                    Ok(d) => {
                        self.finish_search();
                        self.perft(d)
                    }
                    Err(_) => self.error(&format!("go perft: '{depth}' is not a depth")),
                },
                _ => self.error("go perft: expected 'go perft <depth>'"),
            };
        }
        let limits = match parse_go(args) {
            Ok(l) => l,
            Err(e) => return self.error(&format!("go: {e}")),
        };
        self.finish_search();
        let session = self.session.clone_box();
        let config = self.config.clone();
        let shared = Arc::clone(&self.shared);
        let out = Arc::clone(&self.out);
        // Before the thread starts, so a `stop` or `ponderhit` right after
        // `go` is not lost.
        shared.prepare(&limits);
        let started = Instant::now();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let report = |info: &Info| {
                    let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
                    let _ = writeln!(o, "{}", format_info(info));
                    let _ = o.flush();
                };
                let reply = session.search(&limits, &config, &shared, &report);
                let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
                let _ = writeln!(o, "{}", format_bestmove(&reply));
                let _ = o.flush();
            })
            .expect("spawn search thread");
        self.running = Some(RunningSearch { handle, started });
    }

    fn perft(&self, depth: u32) {
        let lines = match self.session.divide(depth, 1, &|_, _, _| {}) {
            Ok(lines) => lines,
            Err(e) => return self.error(&format!("go perft: {e}")),
        };
        let mut text = String::new();
        let mut total = 0;
        for line in &lines {
            text.push_str(&format!("{}: {}\n", line.mv, line.nodes));
            total += line.nodes;
        }
        if depth == 0 {
            total = 1;
        }
        text.push_str(&format!("\nNodes searched: {total}\n"));
        self.say(&text);
    }
}

/// Parses the parameters of `go` (everything but `perft`).
pub fn parse_go(args: &[&str]) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let mut number = || -> Result<i64, String> {
            i += 1;
            let v = args
                .get(i)
                .ok_or_else(|| format!("'{key}' needs a value"))?;
            v.parse::<i64>()
                .map_err(|_| format!("'{key}' value '{v}' is not a number"))
        };
        match key {
            // Clocks can go negative in some hosts after a flag fall.
            "wtime" => limits.time[0] = Some(number()?.max(0) as u64),
            "btime" => limits.time[1] = Some(number()?.max(0) as u64),
            "winc" => limits.inc[0] = number()?.max(0) as u64,
            "binc" => limits.inc[1] = number()?.max(0) as u64,
            "movestogo" => limits.movestogo = Some(number()?.clamp(1, 1000) as u32),
            "depth" => limits.depth = Some(number()?.clamp(1, 1000) as u32),
            "nodes" => limits.nodes = Some(number()?.max(1) as u64),
            "mate" => limits.mate = Some(number()?.clamp(1, 1000) as u32),
            "movetime" => limits.movetime = Some(number()?.max(1) as u64),
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                return Err("'searchmoves' is not supported".into());
            }
            other => return Err(format!("unknown parameter '{other}'")),
        }
        i += 1;
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose contents the test can read while the loop holds it.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn run(lines: &[&str]) -> String {
        let buffer = Buffer::default();
        let mut uci = Uci::new(buffer.clone());
        for line in lines {
            if uci.handle(line) == Flow::Quit {
                break;
            }
        }
        // Let a limited search end by itself before reading the output.
        let deadline = Instant::now() + Duration::from_secs(60);
        while uci.searching() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        uci.finish_search();
        String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn handshake_lists_all_variants_and_options() {
        let out = run(&["uci"]);
        assert!(out.starts_with("id name ghast"));
        for v in VARIANTS {
            assert!(out.contains(&format!("var {v}")), "{v} missing in {out}");
        }
        for o in [
            "Hash",
            "Threads",
            "MultiPV",
            "Move Overhead",
            "Search",
            "EvalFile",
        ] {
            assert!(out.contains(&format!("option name {o} type")), "{o}: {out}");
        }
        assert!(out.trim_end().ends_with("uciok"));
    }

    /// `EvalFile` loads a params file for the current variant; a malformed
    /// file is refused with the parser's line-numbered message and the
    /// weights in force stay.
    #[test]
    fn eval_file_loads_and_refuses_malformed_files() {
        let dir = std::env::temp_dir();
        let id = std::process::id();
        let good = dir.join(format!("ghast-evalfile-good-{id}.params"));
        let bad = dir.join(format!("ghast-evalfile-bad-{id}.params"));
        let text = crate::variants::nimrod::eval::default_params().to_text();
        // `text` with the line of parameter `name` replaced.
        let with_line = |name: &str, line: &str| -> String {
            text.lines()
                .map(|l| {
                    if l.starts_with(&format!("{name} ")) {
                        line
                    } else {
                        l
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        let tempo = with_line("tempo", "tempo = 3000 3000");
        std::fs::write(&good, &tempo).unwrap();
        let knight_line = text
            .lines()
            .position(|l| l.starts_with("material.knight "))
            .unwrap()
            + 1;
        // The Knight line with one value instead of two.
        let broken = with_line("material.knight", "material.knight = 320");
        assert_ne!(broken, text);
        std::fs::write(&bad, broken).unwrap();
        let (good, bad) = (good.to_str().unwrap(), bad.to_str().unwrap());
        let score = |out: &str| -> i32 {
            let line = out.lines().rfind(|l| l.contains(" score cp ")).unwrap();
            let w: Vec<&str> = line.split_whitespace().collect();
            let i = w.iter().position(|&t| t == "cp").unwrap();
            w[i + 1].parse().unwrap()
        };
        let plain = run(&["position startpos", "go depth 1"]);
        let loaded = run(&[
            &format!("setoption name EvalFile value {good}"),
            "position startpos",
            "go depth 1",
        ]);
        assert!(loaded.contains(&format!("info string EvalFile {good} loaded for nimrod")));
        // After White's move Black has the (huge) tempo.
        assert!(score(&loaded) < score(&plain) - 1000, "{plain}\n{loaded}");
        let out = run(&[
            &format!("setoption name EvalFile value {good}"),
            &format!("setoption name EvalFile value {bad}"),
            "setoption name EvalFile value /nonexistent/x.params",
            "position startpos",
            "go depth 1",
        ]);
        assert!(
            out.contains(&format!(
                "info string error: setoption EvalFile: '{bad}' is not a nimrod params file: line {knight_line}: 'material.knight' needs 2 values (midgame endgame), found 1"
            )),
            "{out}"
        );
        assert!(out.contains(
            "info string error: setoption EvalFile: cannot read '/nonexistent/x.params'"
        ));
        assert_eq!(score(&out), score(&loaded), "the good file stays in force");
        // Another variant refuses a Nimrod file and falls back to its own
        // weights; <default> restores the built-in set.
        let out = run(&[
            &format!("setoption name EvalFile value {good}"),
            "setoption name UCI_Variant value vyremorn",
        ]);
        assert!(out.contains("is not a vyremorn params file: line"), "{out}");
        let out = run(&[
            &format!("setoption name EvalFile value {good}"),
            "setoption name EvalFile value <default>",
            "position startpos",
            "go depth 1",
        ]);
        assert_eq!(score(&out), score(&plain));
        let _ = std::fs::remove_file(good);
        let _ = std::fs::remove_file(bad);
    }

    #[test]
    fn perft_divide_format() {
        let out = run(&["position startpos", "go perft 2"]);
        assert!(out.contains("c1b3: 20\n"), "{out}");
        assert!(out.contains("\n\nNodes searched: 400\n"), "{out}");
    }

    #[test]
    fn bad_input_keeps_state() {
        let out = run(&[
            "position startpos moves e2e4",
            "position fen 8/8/8 w - - 0 1",
            "position startpos moves e2e5",
            "setoption name Foo value 1",
            "setoption name UCI_Variant value chess",
            "setoption name UCI_Variant value nemorothx",
            "setoption name Hash value lots",
            "position",
            "go perft x",
            "go depth",
            "go wtime abc",
            "frobnicate",
            "go perft 1",
        ]);
        let errors = out.matches("info string error:").count();
        assert_eq!(errors, 11, "{out}");
        // Still the position after e2e4, Black to move: 20 replies.
        assert!(out.contains("Nodes searched: 20"), "{out}");
        assert!(out.contains("a7a6: 1"), "{out}");
    }

    #[test]
    fn variant_switch_announces_board() {
        let out = run(&[
            "setoption name UCI_Variant value nimrod-corner",
            "go perft 1",
        ]);
        assert!(
            out.contains(
                "info string variant nimrod-corner files 8 ranks 8 startpos kynhp3/qppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK w - - 0 1"
            ),
            "{out}"
        );
        assert!(out.contains("Nodes searched: 16"), "{out}");
    }

    #[test]
    fn go_depth_reports_and_moves() {
        let out = run(&["position startpos", "go depth 4"]);
        assert!(out.contains("info depth 4 "), "{out}");
        let last = out.lines().last().unwrap();
        assert!(last.starts_with("bestmove "), "{out}");
    }

    #[test]
    fn go_parameters_parse() {
        let l = parse_go(&[
            "wtime",
            "1000",
            "btime",
            "-5",
            "winc",
            "10",
            "movestogo",
            "3",
        ])
        .unwrap();
        assert_eq!(l.time, [Some(1000), Some(0)]);
        assert_eq!(l.inc, [10, 0]);
        assert_eq!(l.movestogo, Some(3));
        assert!(parse_go(&["depth"]).is_err());
        assert!(parse_go(&["bogus"]).is_err());
    }
}
