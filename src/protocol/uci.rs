//! The UCI dialect of Fairy-Stockfish (`UCI_Variant`), documented in
//! `protocol.md`.
//!
//! The loop is an adapter around an [`Engine`]: it parses lines, calls the
//! engine and prints replies. `go` starts a search on the engine's thread,
//! which prints `info` lines and finally `bestmove`, and `go perft` a count
//! on a thread of its own; meanwhile the loop keeps reading, so `isready`
//! is answered at once and `stop`/`ponderhit`/`quit` reach the search at
//! once. Every malformed line gets `info string error: ...` and leaves the
//! engine state as it was; nothing a GUI sends stops the loop except
//! `quit` or the end of input.

use crate::engine::options::{self, OptionKind, OptionSpec};
use crate::engine::{self, Applied, DivideLine, Engine, Info, Limits, SearchReply, Settings};
use crate::registry::DEFAULT_VARIANT;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

pub const ENGINE_NAME: &str = concat!("ghast ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the ghast developers";

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

/// The `option` line of one row of the option table.
pub fn option_line(spec: &OptionSpec) -> String {
    let name = spec.name;
    match spec.kind {
        OptionKind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionKind::Check { default } => format!("option name {name} type check default {default}"),
        OptionKind::Combo { default, values } => {
            let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        }
        OptionKind::Text { default } => format!("option name {name} type string default {default}"),
        OptionKind::Button => format!("option name {name} type button"),
    }
}

/// The perft divide text: one line per root move, then the total.
pub fn format_divide(lines: &[DivideLine], depth: u32) -> String {
    let mut text = String::new();
    for line in lines {
        text.push_str(&format!("{}: {}\n", line.mv, line.nodes));
    }
    let total: u64 = if depth == 0 {
        1
    } else {
        lines.iter().map(|l| l.nodes).sum()
    };
    text.push_str(&format!("\nNodes searched: {total}\n"));
    text
}

fn write_line<W: Write>(out: &Mutex<W>, line: &str) {
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    // A closed stdout leaves nobody to talk to; nothing useful to do.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The protocol state: the engine and where replies go.
pub struct Uci<W: Write + Send + 'static> {
    engine: Box<dyn Engine>,
    out: Arc<Mutex<W>>,
}

impl<W: Write + Send + 'static> Uci<W> {
    pub fn new(out: W) -> Self {
        let engine = engine::for_variant(DEFAULT_VARIANT, Settings::default())
            .expect("the default engine fits in memory");
        Uci {
            engine,
            out: Arc::new(Mutex::new(out)),
        }
    }

    /// Reads commands until `quit` or end of input. At the end of input a
    /// running search is stopped and a running perft finishes; `quit`
    /// stops either and leaves at once.
    pub fn run(&mut self, input: impl BufRead) -> std::io::Result<()> {
        for line in input.lines() {
            let line = match line {
                Ok(l) => l,
                // Invalid UTF-8 is bad input, not a reason to stop.
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    self.engine.wait_perft();
                    self.error("input line is not valid UTF-8");
                    continue;
                }
                Err(e) => return Err(e),
            };
            if self.handle(&line) == Flow::Quit {
                return Ok(());
            }
        }
        self.engine.wait_perft();
        self.engine.stop();
        Ok(())
    }

    fn say(&self, line: &str) {
        write_line(&self.out, line);
    }

    pub(crate) fn error(&self, message: &str) {
        self.say(&format!("info string error: {message}"));
    }

    /// Handles one line of input.
    pub fn handle(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return Flow::Continue;
        };
        // During a perft only these are answered at once; anything else
        // waits for the count, so replies keep the order of the commands.
        if !matches!(command, "isready" | "stop" | "quit") {
            self.engine.wait_perft();
        }
        match command {
            "uci" => self.uci(),
            "isready" => self.say("readyok"),
            "ucinewgame" => self.engine.new_game(),
            "setoption" => self.setoption(args),
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.engine.stop(),
            "ponderhit" => self.engine.ponderhit(),
            "d" => {
                let text = self.engine.session().display();
                self.say(text.trim_end());
            }
            "eval" => {
                if let Some(trace) = self.engine.eval_trace() {
                    for line in super::eval_trace_lines(&trace) {
                        self.say(&line);
                    }
                }
                self.say(&super::static_eval_text(self.engine.static_eval()));
            }
            "quit" => {
                self.engine.stop();
                return Flow::Quit;
            }
            other => self.error(&format!("unknown command '{other}'")),
        }
        Flow::Continue
    }

    fn uci(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say(&format!("id author {ENGINE_AUTHOR}"));
        for spec in options::table() {
            self.say(&option_line(&spec));
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
        match engine::set_option(&mut self.engine, &name, value.as_deref()) {
            Ok(Applied::Done) => {}
            Ok(Applied::Note(note)) => self.say(&format!("info string {note}")),
            Ok(Applied::Variant { warning }) => {
                let session = self.engine.session();
                self.say(&format!(
                    "info string variant {} files {} ranks {} startpos {}",
                    session.variant(),
                    session.files(),
                    session.ranks(),
                    session.start_fen()
                ));
                if let Some(w) = warning {
                    self.error(&w);
                }
            }
            Err(e) if e.starts_with("unknown option") => self.error(&format!("setoption: {e}")),
            Err(e) => self.error(&format!("setoption {e}")),
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
        if let Err(e) = self
            .engine
            .session_mut()
            .set_position(fen.as_deref(), moves)
        {
            self.error(&format!("position: {e}"));
        }
    }

    fn go(&mut self, args: &[&str]) {
        if args.first() == Some(&"perft") {
            return match args {
                ["perft", depth] => match depth.parse::<u32>() {
                    Ok(d) => self.perft(d),
                    Err(_) => self.error(&format!("go perft: '{depth}' is not a depth")),
                },
                _ => self.error("go perft: expected 'go perft <depth>'"),
            };
        }
        let limits = match parse_go(args) {
            Ok(l) => l,
            Err(e) => return self.error(&format!("go: {e}")),
        };
        let info_out = Arc::clone(&self.out);
        let done_out = Arc::clone(&self.out);
        let started = self.engine.go(
            limits,
            Box::new(move |info: &Info| write_line(&info_out, &format_info(info))),
            Box::new(move |reply: SearchReply| {
                if let Some(e) = &reply.error {
                    write_line(&done_out, &format!("info string error: {e}"));
                }
                write_line(&done_out, &format_bestmove(&reply));
            }),
        );
        if let Err(e) = started {
            self.error(&format!("go: {e}"));
            self.say("bestmove (none)");
        }
    }

    /// `go perft`: counted on a thread, so the loop keeps answering.
    fn perft(&mut self, depth: u32) {
        self.engine.stop();
        let out = Arc::clone(&self.out);
        let started = self.engine.go_perft(
            depth,
            Box::new(move |result| match result {
                Ok(lines) => write_line(&out, &format_divide(&lines, depth)),
                Err(e) => write_line(&out, &format!("info string error: go perft: {e}")),
            }),
        );
        if let Err(e) = started {
            self.error(&format!("go perft: {e}"));
        }
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
        uci.engine.wait_perft();
        // Let a limited search end by itself before reading the output.
        uci.engine.wait();
        String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn handshake_lists_all_variants_and_options() {
        let out = run(&["uci"]);
        assert!(out.starts_with("id name ghast"));
        for v in crate::registry::NAMES {
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
