//! The UCI dialect of Fairy-Stockfish (`UCI_Variant`), documented in
//! `protocol.md`.
//!
//! Every malformed line gets `info string error: ...` and leaves the engine
//! state as it was; nothing a GUI sends can stop the loop except `quit` or
//! the end of input.

use crate::variants::{self, DEFAULT_VARIANT, Session, VARIANTS};
use std::io::{BufRead, Write};

pub const ENGINE_NAME: &str = concat!("ghast ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the ghast developers";

/// What the loop should do after a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The protocol state: the current game and where replies go.
pub struct Uci<W: Write> {
    session: Box<dyn Session>,
    out: W,
}

impl<W: Write> Uci<W> {
    pub fn new(out: W) -> Self {
        let session = variants::new_session(DEFAULT_VARIANT).expect("default variant exists");
        Uci { session, out }
    }

    /// Reads commands until `quit` or end of input.
    pub fn run(&mut self, input: impl BufRead) -> std::io::Result<()> {
        for line in input.lines() {
            let line = match line {
                Ok(l) => l,
                // Invalid UTF-8 is bad input, not a reason to stop.
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    self.error("input line is not valid UTF-8")?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            if self.handle(&line)? == Flow::Quit {
                break;
            }
        }
        Ok(())
    }

    /// Handles one line of input.
    pub fn handle(&mut self, line: &str) -> std::io::Result<Flow> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return Ok(Flow::Continue);
        };
        match command {
            "uci" => self.uci()?,
            "isready" => writeln!(self.out, "readyok")?,
            "ucinewgame" => {
                let fresh =
                    variants::new_session(self.session.variant()).expect("current variant exists");
                self.session = fresh;
            }
            "setoption" => self.setoption(args)?,
            "position" => self.position(args)?,
            "go" => self.go(args)?,
            "d" => {
                let text = self.session.display();
                write!(self.out, "{text}")?;
            }
            "quit" => return Ok(Flow::Quit),
            other => self.error(&format!("unknown command '{other}'"))?,
        }
        self.out.flush()?;
        Ok(Flow::Continue)
    }

    fn error(&mut self, message: &str) -> std::io::Result<()> {
        writeln!(self.out, "info string error: {message}")?;
        self.out.flush()
    }

    fn uci(&mut self) -> std::io::Result<()> {
        writeln!(self.out, "id name {ENGINE_NAME}")?;
        writeln!(self.out, "id author {ENGINE_AUTHOR}")?;
        let vars: String = VARIANTS.iter().map(|v| format!(" var {v}")).collect();
        writeln!(
            self.out,
            "option name UCI_Variant type combo default {DEFAULT_VARIANT}{vars}"
        )?;
        writeln!(self.out, "uciok")
    }

    fn setoption(&mut self, args: &[&str]) -> std::io::Result<()> {
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
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let Some(value) = value.filter(|v| !v.is_empty()) else {
                    return self.error("setoption UCI_Variant: missing value");
                };
                match variants::new_session(&value.to_ascii_lowercase()) {
                    Ok(session) => {
                        self.session = session;
                        writeln!(
                            self.out,
                            "info string variant {} files {} ranks {} startpos {}",
                            self.session.variant(),
                            self.session.files(),
                            self.session.ranks(),
                            self.session.start_fen()
                        )
                    }
                    Err(e) => self.error(&format!("setoption UCI_Variant: {e}")),
                }
            }
            _ => self.error(&format!("setoption: unknown option '{name}'")),
        }
    }

    fn position(&mut self, args: &[&str]) -> std::io::Result<()> {
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
            return self.error(&format!("position: {e}"));
        }
        Ok(())
    }

    fn go(&mut self, args: &[&str]) -> std::io::Result<()> {
        match args {
            ["perft", depth] => match depth.parse::<u32>() {
                Ok(d) => self.perft(d),
                Err(_) => self.error(&format!("go perft: '{depth}' is not a depth")),
            },
            ["perft", ..] => self.error("go perft: expected 'go perft <depth>'"),
            _ => self.error("go: only 'go perft <depth>' is available in this version"),
        }
    }

    fn perft(&mut self, depth: u32) -> std::io::Result<()> {
        let lines = self.session.divide(depth, 1, &|_, _, _| {});
        let mut total = 0;
        for line in &lines {
            writeln!(self.out, "{}: {}", line.mv, line.nodes)?;
            total += line.nodes;
        }
        if depth == 0 {
            total = 1;
        }
        writeln!(self.out)?;
        writeln!(self.out, "Nodes searched: {total}")?;
        writeln!(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(lines: &[&str]) -> String {
        let mut uci = Uci::new(Vec::new());
        for line in lines {
            if uci.handle(line).unwrap() == Flow::Quit {
                break;
            }
        }
        String::from_utf8(uci.out).unwrap()
    }

    #[test]
    fn handshake_lists_all_variants() {
        let out = run(&["uci"]);
        assert!(out.starts_with("id name ghast"));
        for v in VARIANTS {
            assert!(out.contains(&format!("var {v}")), "{v} missing in {out}");
        }
        assert!(out.trim_end().ends_with("uciok"));
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
            "setoption name UCI_Variant value nemoroth",
            "position",
            "go perft x",
            "go",
            "frobnicate",
            "go perft 1",
        ]);
        let errors = out.matches("info string error:").count();
        assert_eq!(errors, 9, "{out}");
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
        assert!(out.contains(
            "info string variant nimrod-corner files 8 ranks 8 startpos kynhp3/qppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK w - - 0 1"
        ), "{out}");
        assert!(out.contains("Nodes searched: 16"), "{out}");
    }
}
