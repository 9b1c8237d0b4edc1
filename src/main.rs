//! The `ghast` command line. With no subcommand it speaks the UCI dialect
//! on stdin/stdout, as GUI hosts expect.

use clap::{Parser, Subcommand};
use ghast::protocol::Uci;
use ghast::variants::{self, VARIANTS};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

/// ghast: an engine for Nimrod Chess, Vyrémorn Chess and The Game of Nemoroth.
///
/// Run without a subcommand to speak the UCI dialect (Fairy-Stockfish's
/// UCI_Variant conventions) on standard input and output.
#[derive(Parser)]
#[command(name = "ghast", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the UCI dialect on stdin/stdout (the default).
    Uci,
    /// Count the leaves of the legal-move tree, divided by root move.
    ///
    /// Example: ghast perft --variant nimrod --moves e2e4 e7e5 4
    Perft {
        /// Variant name: nimrod, nimrod-corner, dragon-nimrod, dragon-nimrod-corner.
        #[arg(long, short, default_value = variants::DEFAULT_VARIANT)]
        variant: String,
        /// Start from this position instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, in the variant's move notation.
        #[arg(long, num_args = 1.., value_name = "MOVE")]
        moves: Vec<String>,
        /// Worker threads (root moves are shared out).
        #[arg(long, short, default_value_t = 1)]
        threads: usize,
        /// Depth in plies.
        depth: Option<u32>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None | Some(Command::Uci) => run_uci(),
        Some(Command::Perft {
            variant,
            fen,
            mut moves,
            threads,
            depth,
        }) => {
            // `--moves a b 4` leaves the depth among the moves; take it back.
            let depth = match depth {
                Some(d) => Some(d),
                None => moves.last().and_then(|m| m.parse().ok()).inspect(|_| {
                    moves.pop();
                }),
            };
            match depth {
                Some(depth) => perft(&variant, fen.as_deref(), &moves, threads, depth),
                None => Err("perft needs a DEPTH (e.g. 'ghast perft --variant nimrod 5')".into()),
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run_uci() -> Result<(), String> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    Uci::new(stdout.lock())
        .run(stdin.lock())
        .map_err(|e| format!("i/o: {e}"))
}

fn perft(
    variant: &str,
    fen: Option<&str>,
    moves: &[String],
    threads: usize,
    depth: u32,
) -> Result<(), String> {
    let mut session = variants::new_session(variant)
        .map_err(|e| format!("{e} (variants: {})", VARIANTS.join(", ")))?;
    // Moves may also be given as one quoted, space-separated argument.
    let moves: Vec<&str> = moves.iter().flat_map(|m| m.split_whitespace()).collect();
    session
        .set_position(fen, &moves)
        .map_err(|e| e.to_string())?;
    let show_progress = std::io::stderr().is_terminal();
    let progress = |done: usize, all: usize, nodes: u64| {
        if show_progress {
            eprint!("\rperft {depth}: {done}/{all} root moves, {nodes} nodes");
            if done == all {
                eprint!("\r\x1b[K");
            }
        }
    };
    let start = Instant::now();
    let lines = session.divide(depth, threads.max(1), &progress);
    let elapsed = start.elapsed();
    let total: u64 = if depth == 0 {
        1
    } else {
        lines.iter().map(|l| l.nodes).sum()
    };
    let mut out = std::io::stdout().lock();
    let mut write = || -> std::io::Result<()> {
        for line in &lines {
            writeln!(out, "{}: {}", line.mv, line.nodes)?;
        }
        writeln!(out)?;
        writeln!(out, "Nodes searched: {total}")?;
        writeln!(out, "Time: {:.3} s", elapsed.as_secs_f64())?;
        let nps = total as f64 / elapsed.as_secs_f64().max(1e-9);
        writeln!(out, "Nodes/second: {nps:.0}")
    };
    write().map_err(|e| format!("i/o: {e}"))
}
