//! The `ghast` command line. With no subcommand it speaks the UCI dialect
//! on stdin/stdout, as GUI hosts expect.

use clap::{Parser, Subcommand};
use ghast::protocol::Uci;
use ghast::search::{self, Config, Info, Limits, Score, Shared};
use ghast::variants::{self, Session, VARIANTS};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

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
        /// Variant name: nimrod, nimrod-corner, dragon-nimrod, dragon-nimrod-corner, nemoroth.
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
    /// Search a fixed set of positions (positions/bench.txt, compiled in)
    /// with one thread and print the node count and speed.
    ///
    /// The node count is deterministic: it is the behaviour signature of a
    /// build. The last line reads `N nodes X nps`.
    Bench {
        /// Search depth per position.
        #[arg(long, short, default_value_t = BENCH_DEPTH)]
        depth: u32,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
    /// Analyse a position: the board, then each iteration's depth, score
    /// and principal variation, then a summary.
    ///
    /// Example: ghast analyse --variant nimrod --moves e2e4 e7e5 --depth 12
    #[command(alias = "analyze")]
    Analyse {
        /// Variant name.
        #[arg(long, short, default_value = variants::DEFAULT_VARIANT)]
        variant: String,
        /// Start from this position instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, in the variant's move notation.
        #[arg(long, num_args = 1.., value_name = "MOVE")]
        moves: Vec<String>,
        /// Search to this depth.
        #[arg(long, short, conflicts_with = "movetime")]
        depth: Option<u32>,
        /// Search for this many milliseconds (default 5000 without --depth).
        #[arg(long)]
        movetime: Option<u64>,
        /// Show the best K lines.
        #[arg(long, default_value_t = 1)]
        multipv: usize,
        /// Search threads.
        #[arg(long, short, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
}

/// Depth of `ghast bench` unless told otherwise.
const BENCH_DEPTH: u32 = 9;
/// The bench positions, compiled in so the binary needs no files.
const BENCH_POSITIONS: &str = include_str!("../positions/bench.txt");
/// Analysis time when neither depth nor time is given.
const DEFAULT_ANALYSIS_MS: u64 = 5000;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None | Some(Command::Uci) => run_uci(),
        Some(Command::Bench { depth, hash }) => bench(depth, hash),
        Some(Command::Analyse {
            variant,
            fen,
            moves,
            depth,
            movetime,
            multipv,
            threads,
            hash,
        }) => {
            let limits = Limits {
                depth,
                movetime: if depth.is_none() {
                    Some(movetime.unwrap_or(DEFAULT_ANALYSIS_MS))
                } else {
                    None
                },
                ..Limits::default()
            };
            let config = Config {
                threads: threads.clamp(1, search::MAX_THREADS),
                multipv: multipv.clamp(1, search::MAX_MULTIPV),
                move_overhead: Duration::ZERO,
                ..Config::default()
            };
            analyse(&variant, fen.as_deref(), &moves, &limits, &config, hash)
        }
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
    Uci::new(std::io::stdout())
        .run(std::io::stdin().lock())
        .map_err(|e| format!("i/o: {e}"))
}

/// A session of `variant` at `fen` (or the start) after `moves`.
fn setup(variant: &str, fen: Option<&str>, moves: &[String]) -> Result<Box<dyn Session>, String> {
    let mut session = variants::new_session(variant)
        .map_err(|e| format!("{e} (variants: {})", VARIANTS.join(", ")))?;
    // Moves may also be given as one quoted, space-separated argument.
    let moves: Vec<&str> = moves.iter().flat_map(|m| m.split_whitespace()).collect();
    session
        .set_position(fen, &moves)
        .map_err(|e| e.to_string())?;
    Ok(session)
}

fn bench(depth: u32, hash: usize) -> Result<(), String> {
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let config = Config::default();
    let shared = Shared::new(hash);
    let positions: Vec<(&str, &str)> = BENCH_POSITIONS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(' '))
        .filter(|(v, _)| variants::new_session(v).is_ok())
        .collect();
    let start = Instant::now();
    let mut nodes = 0;
    for (i, (variant, fen)) in positions.iter().enumerate() {
        let session = setup(variant, Some(fen), &[])?;
        shared.prepare(&limits);
        let reply = session.search(&limits, &config, &shared, &|_| {});
        nodes += reply.nodes;
        eprintln!(
            "position {}/{} ({variant}): {} nodes, bestmove {}",
            i + 1,
            positions.len(),
            reply.nodes,
            reply.best.as_deref().unwrap_or("(none)")
        );
    }
    let elapsed = start.elapsed().as_secs_f64().max(1e-9);
    println!("{nodes} nodes {:.0} nps", nodes as f64 / elapsed);
    Ok(())
}

fn format_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(m) if m > 0 => format!("#{m}"),
        Score::Mate(m) => format!("#-{}", -m),
    }
}

fn analyse(
    variant: &str,
    fen: Option<&str>,
    moves: &[String],
    limits: &Limits,
    config: &Config,
    hash: usize,
) -> Result<(), String> {
    let session = setup(variant, fen, moves)?;
    println!("{}", session.display().trim_end());
    if let Some(outcome) = session.outcome() {
        println!("\nThe game is over: {outcome:?}");
        return Ok(());
    }
    println!();
    println!(
        "{:>5} {:>7} {:>11} {:>9} {:>8}  pv",
        "depth", "score", "nodes", "nps", "time"
    );
    let shared = Shared::new(hash);
    shared.prepare(limits);
    let report = |info: &Info| {
        let prefix = if config.multipv > 1 {
            format!("{}.", info.multipv)
        } else {
            String::new()
        };
        println!(
            "{prefix}{:>5} {:>7} {:>11} {:>9} {:>7.2}s  {}",
            format!("{}/{}", info.depth, info.seldepth),
            format_score(info.score),
            info.nodes,
            info.nps,
            info.time_ms as f64 / 1000.0,
            info.pv.join(" ")
        );
    };
    let start = Instant::now();
    let reply = session.search(limits, config, &shared, &report);
    let elapsed = start.elapsed().as_secs_f64();
    println!();
    match &reply.best {
        Some(best) => println!(
            "best move {best}, score {} at depth {}, {} nodes in {elapsed:.2} s ({:.0} nodes/s)",
            format_score(reply.score),
            reply.depth,
            reply.nodes,
            reply.nodes as f64 / elapsed.max(1e-9)
        ),
        None => println!("no legal move"),
    }
    Ok(())
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
