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

use crate::engine::EvalTrace;
use std::io::{BufRead, Write};

/// The reply to `eval` (both protocols): the static evaluation in pawns
/// and in centipawns, from the side to move's view.
pub fn static_eval_text(cp: i32) -> String {
    format!(
        "Static evaluation: {:+.2} ({cp} cp, from the side to move's view)",
        f64::from(cp) / 100.0
    )
}

/// The reply to `eval` before its last line, where the evaluator splits
/// its score by term: a table in pawns, each side's midgame and endgame
/// score from its own view, their difference (White's view) and the phase.
pub fn eval_trace_lines(trace: &EvalTrace) -> Vec<String> {
    let pawns = |cp: i32| format!("{:>6.2}", f64::from(cp) / 100.0);
    let pair = |[mg, eg]: [i32; 2]| format!("{} {}", pawns(mg), pawns(eg));
    let heads = format!("{:>6} {:>6}", "MG", "EG");
    let rule = format!("{:-<15}+{:-<15}+{:-<15}+{:-<14}", "", "", "", "");
    let mut lines = vec![
        "Terms in pawns, each side from its own view; Total is White's minus Black's".to_string(),
        format!(
            "{:<15}|{:^15}|{:^15}|{:^14}",
            "Term", "White", "Black", "Total"
        )
        .trim_end()
        .to_string(),
        format!("{:<15}| {} | {} | {}", "", heads, heads, heads),
        rule.clone(),
    ];
    for t in &trace.terms {
        let net = [t.white[0] - t.black[0], t.white[1] - t.black[1]];
        lines.push(format!(
            "{:<15}| {} | {} | {}",
            t.name,
            pair(t.white),
            pair(t.black),
            pair(net)
        ));
    }
    lines.push(rule);
    lines.push(format!(
        "{:<15}|{:15}|{:15}| {}",
        "Total",
        "",
        "",
        pair(trace.totals())
    ));
    let share = 100 * trace.phase / trace.phase_total.max(1);
    lines.push(format!(
        "Phase {} of {} ({share} % midgame): {} from White's view",
        trace.phase,
        trace.phase_total,
        pawns(trace.white_score()).trim_start()
    ));
    lines
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
