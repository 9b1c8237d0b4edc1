//! Text protocols around the engine. The protocol is an adapter: it parses
//! lines, calls an [`Engine`](crate::engine::Engine) and prints replies;
//! the rules and the search never know which protocol is talking.
//!
//! Two protocols: the UCI dialect of Fairy-Stockfish ([`Uci`], the default)
//! and XBoard/WinBoard's CECP with engine-defined variants ([`XBoard`]).
//! [`run_stdio`] lets the first line decide: `xboard` selects CECP.

pub mod uci;
pub mod xboard;
pub mod xboard_variants;

pub use uci::Uci;
pub use xboard::XBoard;

use std::io::{BufRead, Write};

/// The reply to `eval` (both protocols): the static evaluation in pawns
/// and in centipawns, from the side to move's view.
pub fn static_eval_text(cp: i32) -> String {
    format!(
        "Static evaluation: {:+.2} ({cp} cp, from the side to move's view)",
        f64::from(cp) / 100.0
    )
}

/// Serves one protocol on `input`/`output`: CECP when the first non-empty
/// line is `xboard`, UCI otherwise.
pub fn run_auto<W: Write + Send + 'static>(
    mut input: impl BufRead,
    output: W,
) -> std::io::Result<()> {
    let mut first = Vec::new();
    loop {
        first.clear();
        if input.read_until(b'\n', &mut first)? == 0 {
            return Ok(());
        }
        if !first.iter().all(|b| b.is_ascii_whitespace()) {
            break;
        }
    }
    let text = String::from_utf8_lossy(&first).trim().to_string();
    if text == "xboard" {
        let mut xb = XBoard::new(output);
        xb.handle(&text);
        xb.run(input)
    } else {
        let mut uci = Uci::new(output);
        if std::str::from_utf8(&first).is_err() {
            uci.error("input line is not valid UTF-8");
        } else if uci.handle(&text) == uci::Flow::Quit {
            return Ok(());
        }
        uci.run(input)
    }
}

/// [`run_auto`] on standard input and output.
pub fn run_stdio() -> std::io::Result<()> {
    run_auto(std::io::stdin().lock(), std::io::stdout())
}
