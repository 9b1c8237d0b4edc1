//! `ghast bench`, `ghast analyse` and `ghast perft`: the command-line tools
//! on top of the engine layer. Each writes its report to a writer (standard
//! output from `main`), so tests can read it.

use crate::engine::{self, Engine, Info, Limits, Score, Settings};
use crate::registry;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Depth of `ghast bench` unless a line or the caller says otherwise.
pub const BENCH_DEPTH: u32 = 11;
/// The bench positions, compiled in so the binary needs no files.
pub const BENCH_POSITIONS: &str = include_str!("../positions/bench.txt");
/// Analysis time when neither depth nor time is given.
pub const DEFAULT_ANALYSIS_MS: u64 = 5000;

/// One line of `positions/bench.txt`: `<variant> [depth=N] <FEN>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    pub variant: &'static str,
    pub depth: u32,
    pub fen: &'static str,
}

/// The bench positions of known variants, at `depth` when given.
pub fn bench_positions(depth: Option<u32>) -> Vec<BenchPosition> {
    let mut positions = Vec::new();
    for line in BENCH_POSITIONS.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((variant, rest)) = line.split_once(' ') else {
            continue;
        };
        let (line_depth, fen) = match rest
            .strip_prefix("depth=")
            .and_then(|r| r.split_once(' '))
            .and_then(|(d, f)| Some((d.parse::<u32>().ok()?, f)))
        {
            Some((d, f)) => (d, f),
            None => (BENCH_DEPTH, rest),
        };
        if let Some(game) = registry::find(variant) {
            positions.push(BenchPosition {
                variant: game.name,
                depth: depth.unwrap_or(line_depth).max(1),
                fen,
            });
        }
    }
    positions
}

/// What `ghast bench` measured.
#[derive(Clone, Debug)]
pub struct BenchReport {
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Searches every bench position with one thread, in one transposition
/// table of `hash_mb` for all of them (the node count is the behaviour
/// signature of a build). Consecutive positions of one variant share an
/// engine, as the moves of a game do, so what a search hands to the next
/// (`history_carry_x100`) is part of the signature. One line per position
/// goes to `log`.
pub fn bench(
    depth: Option<u32>,
    hash_mb: usize,
    log: &mut dyn Write,
) -> Result<BenchReport, String> {
    let positions = bench_positions(depth);
    let settings = Settings {
        hash_mb,
        search: Some(engine::SearchKind::AlphaBeta),
        ..Settings::default()
    };
    let mut table = None;
    let start = Instant::now();
    let mut nodes = 0;
    let mut current: Option<(&str, Box<dyn Engine>)> = None;
    for (i, p) in positions.iter().enumerate() {
        let (_, engine) = match current.take() {
            Some((variant, engine)) if variant == p.variant => current.insert((variant, engine)),
            _ => {
                let mut engine = engine::for_variant(p.variant, settings.clone())?;
                match &table {
                    Some(t) => engine.use_table(std::sync::Arc::clone(t))?,
                    None => table = engine.table(),
                }
                current.insert((p.variant, engine))
            }
        };
        engine
            .session_mut()
            .set_position(Some(p.fen), &[])
            .map_err(|e| format!("bench position {}: {e}", i + 1))?;
        let limits = Limits {
            depth: Some(p.depth),
            ..Limits::default()
        };
        let reply = engine.search(&limits, &|_| {});
        if let Some(e) = reply.error {
            return Err(format!("bench position {}: {e}", i + 1));
        }
        nodes += reply.nodes;
        writeln!(
            log,
            "position {}/{} ({}): {} nodes, bestmove {}",
            i + 1,
            positions.len(),
            p.variant,
            reply.nodes,
            reply.best.as_deref().unwrap_or("(none)")
        )
        .map_err(|e| format!("i/o: {e}"))?;
    }
    Ok(BenchReport {
        nodes,
        elapsed: start.elapsed(),
    })
}

/// An engine of `variant` at `fen` (or the start) after `moves`; moves may
/// also come as one space-separated argument.
pub fn setup(
    variant: &str,
    fen: Option<&str>,
    moves: &[String],
    settings: Settings,
) -> Result<Box<dyn Engine>, String> {
    let mut engine = engine::for_variant(variant, settings)?;
    let moves: Vec<&str> = moves.iter().flat_map(|m| m.split_whitespace()).collect();
    engine
        .session_mut()
        .set_position(fen, &moves)
        .map_err(|e| e.to_string())?;
    Ok(engine)
}

/// A score for people: `+0.31`, `#3`, `#-2`.
pub fn format_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(m) if m > 0 => format!("#{m}"),
        Score::Mate(m) => format!("#-{}", -m),
    }
}

/// `ghast analyse`: the board, one line per iteration (written as it
/// comes: an analysis can take minutes), then a summary.
pub fn analyse(
    engine: &mut dyn Engine,
    limits: &Limits,
    out: &mut (dyn Write + Send),
) -> Result<(), String> {
    let io = |e: std::io::Error| format!("i/o: {e}");
    writeln!(out, "{}", engine.session().display().trim_end()).map_err(io)?;
    if let Some(outcome) = engine.session().outcome() {
        writeln!(out, "\nThe game is over: {outcome:?}").map_err(io)?;
        return Ok(());
    }
    writeln!(out).map_err(io)?;
    writeln!(
        out,
        "{:>5} {:>7} {:>11} {:>9} {:>8}  pv",
        "depth", "score", "nodes", "nps", "time"
    )
    .map_err(io)?;
    let multipv = engine.settings().config.multipv;
    let shared_out = std::sync::Mutex::new(&mut *out);
    let report = |info: &Info| {
        let prefix = if multipv > 1 {
            format!("{}.", info.multipv)
        } else {
            String::new()
        };
        let mut o = shared_out.lock().unwrap_or_else(|e| e.into_inner());
        // A closed output leaves nobody to tell; the summary reports it.
        let _ = writeln!(
            o,
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
    let reply = engine.search(limits, &report);
    let elapsed = start.elapsed().as_secs_f64();
    writeln!(out).map_err(io)?;
    if let Some(e) = &reply.error {
        writeln!(out, "error: {e}").map_err(io)?;
    }
    match &reply.best {
        Some(best) => writeln!(
            out,
            "best move {best}, score {} at depth {}, {} nodes in {elapsed:.2} s ({:.0} nodes/s)",
            format_score(reply.score),
            reply.depth,
            reply.nodes,
            reply.nodes as f64 / elapsed.max(1e-9)
        ),
        None => writeln!(out, "no legal move"),
    }
    .map_err(io)
}

/// What `ghast perft` counted.
#[derive(Clone, Debug)]
pub struct PerftReport {
    pub lines: Vec<engine::DivideLine>,
    pub total: u64,
    pub elapsed: Duration,
}

/// `ghast perft`: a divide of the engine's position with `threads` workers;
/// `progress` sees (root moves done, root moves, nodes so far).
pub fn perft(
    engine: &dyn Engine,
    depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize, usize, u64) + Sync),
) -> Result<PerftReport, String> {
    let start = Instant::now();
    let lines = engine
        .session()
        .divide(depth, threads.max(1), progress, &AtomicBool::new(false))
        .map_err(|e| e.to_string())?;
    let total = if depth == 0 {
        1
    } else {
        lines.iter().map(|l| l.nodes).sum()
    };
    Ok(PerftReport {
        lines,
        total,
        elapsed: start.elapsed(),
    })
}

/// The report `ghast perft` prints.
pub fn write_perft(report: &PerftReport, out: &mut dyn Write) -> std::io::Result<()> {
    for line in &report.lines {
        writeln!(out, "{}: {}", line.mv, line.nodes)?;
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {}", report.total)?;
    writeln!(out, "Time: {:.3} s", report.elapsed.as_secs_f64())?;
    let nps = report.total as f64 / report.elapsed.as_secs_f64().max(1e-9);
    writeln!(out, "Nodes/second: {nps:.0}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_line_is_a_known_game_and_a_legal_position() {
        let positions = bench_positions(Some(1));
        let lines = BENCH_POSITIONS
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        assert_eq!(positions.len(), lines);
        for p in &positions {
            assert_eq!(p.depth, 1);
            setup(p.variant, Some(p.fen), &[], Settings::default()).unwrap();
        }
    }

    /// A shallow bench is deterministic: the same count twice, and one
    /// line per position.
    #[test]
    fn bench_counts_are_reproducible() {
        let mut log = Vec::new();
        let a = bench(Some(2), 1, &mut log).unwrap();
        let b = bench(Some(2), 1, &mut Vec::new()).unwrap();
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 0);
        let text = String::from_utf8(log).unwrap();
        assert_eq!(text.lines().count(), bench_positions(None).len());
    }

    #[test]
    fn analyse_prints_iterations_and_a_summary() {
        let settings = Settings::default();
        let mut e = setup("nimrod", None, &["e2e4".into()], settings).unwrap();
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let mut out = Vec::new();
        analyse(e.as_mut(), &limits, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\n  3/"), "{text}");
        assert!(text.contains("best move "), "{text}");
        assert!(setup("nimrod", None, &["e2e5".into()], Settings::default()).is_err());
        assert!(setup("chess", None, &[], Settings::default()).is_err());
    }

    #[test]
    fn perft_counts_the_start_position() {
        let e = setup("nimrod", None, &[], Settings::default()).unwrap();
        let report = perft(e.as_ref(), 2, 2, &|_, _, _| {}).unwrap();
        assert_eq!(report.total, 400);
        assert_eq!(perft(e.as_ref(), 0, 1, &|_, _, _| {}).unwrap().total, 1);
        assert!(perft(e.as_ref(), 100_000, 1, &|_, _, _| {}).is_err());
        let mut out = Vec::new();
        write_perft(&report, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("c1b3: 20\n") && text.contains("Nodes searched: 400"));
    }
}
