//! GUI-like sessions against the real binary over stdin/stdout: the search
//! side of the protocol (protocol.md) for every Nimrod variant — clocks,
//! `go infinite`/`stop`, pondering, fixed limits, reproducibility, MultiPV,
//! games that end, and bad input during a search.
//!
//! Timings are not asserted: on a noisy or loaded machine the wall time of
//! a search or a reply says nothing about the engine, so every wait is a
//! hang guard (budget plus [`HANG_GUARD`]) that only catches a dead or
//! stuck engine. The arithmetic of the time budgets is covered by the
//! deterministic unit tests in src/search/time.rs. What is asserted is the
//! behaviour: legal bestmoves, consistent info lines, no bestmove before
//! `stop` or `ponderhit`, and an engine still alive after each step.

mod common;

use common::{
    CORNER_START, Engine, FIDE_START, HANG_GUARD, NIMROD_VARIANTS as VARIANTS, field,
    position_command, timing,
};
use std::time::Duration;

/// Hang guard for replies without a time limit (depth/nodes searches).
const SLOW_REPLY: Duration = Duration::from_secs(30);
/// Default `Move Overhead` (protocol.md, options).
const MOVE_OVERHEAD_MS: f64 = 10.0;
/// The moves the Nimrod family plans its clock for (`tm_moves_to_go` 0,
/// the game's own plan; protocol.md, search parameters).
const CLOCK_MOVES: f64 = 20.0;

fn start_fen(variant: &str) -> &'static str {
    if variant.contains("corner") {
        CORNER_START
    } else {
        FIDE_START
    }
}

impl Engine {
    /// A started engine with `variant` chosen and `isready` answered.
    fn with_variant(variant: &str) -> Engine {
        let mut e = Engine::start();
        e.variant(variant);
        e
    }

    fn variant(&mut self, variant: &str) {
        self.send(&format!("setoption name UCI_Variant value {variant}"));
        let (lines, _) = self.until(SLOW_REPLY, |l| l.starts_with("info string variant"));
        let expected = format!(
            "info string variant {variant} files 8 ranks 8 startpos {}",
            start_fen(variant)
        );
        assert_eq!(lines.last().unwrap(), &expected, "{}", self.tail());
        self.isready();
    }

    /// Sends `go ...` and waits up to `timeout` for `bestmove`. Returns the
    /// search's lines, the best move (`(none)` included), and the time from
    /// sending `go` to receiving `bestmove`.
    fn go(&mut self, go: &str, timeout: Duration) -> Search {
        let sent = self.send(go);
        let (lines, at) = self.until(timeout, |l| l.starts_with("bestmove"));
        Search::new(lines, at.saturating_duration_since(sent))
    }
}

/// What one `go` printed.
struct Search {
    lines: Vec<String>,
    best: String,
    ponder: Option<String>,
    elapsed: Duration,
}

impl Search {
    fn new(lines: Vec<String>, elapsed: Duration) -> Search {
        let last: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
        let best = last.get(1).expect("bestmove has a move").to_string();
        let ponder = match last.get(2) {
            Some(&"ponder") => Some(last.get(3).expect("ponder move").to_string()),
            _ => None,
        };
        Search {
            lines,
            best,
            ponder,
            elapsed,
        }
    }

    /// The `info` lines that carry a score.
    fn infos(&self) -> impl Iterator<Item = &String> {
        self.lines
            .iter()
            .filter(|l| l.starts_with("info ") && l.contains(" score "))
    }

    fn last_info(&self) -> Option<&String> {
        self.infos().last()
    }
}

/// The hard time limit protocol.md promises for a clock search: four
/// budgets or 40% of the remaining time, whichever comes first, where a
/// budget is (remaining - overhead) / CLOCK_MOVES + 3/4 of the increment.
/// Only the base of a hang guard here, never asserted.
fn hard_limit(remaining_ms: f64, inc_ms: f64) -> Duration {
    let left = (remaining_ms - MOVE_OVERHEAD_MS).max(1.0);
    let soft = left / CLOCK_MOVES + 0.75 * inc_ms;
    let hard = (4.0 * soft).min(0.4 * left).max(1.0);
    Duration::from_secs_f64(hard / 1000.0)
}

/// Plays up to `plies` plies from the start position, the engine moving for
/// both sides on a clock of `clock_ms` + `inc_ms` per move. Before every
/// `go` the legal moves come from `go perft 1`; every bestmove must be one
/// of them. The clocks are charged the time measured here, but a clock
/// never goes below 1 ms (a loaded machine is not the engine losing on
/// time), so the engine must also answer legally on an almost empty clock.
/// Stops early when the side to move has no legal move.
fn play_clock_game(engine: &mut Engine, variant: &str, plies: usize, clock_ms: f64, inc_ms: f64) {
    engine.send("ucinewgame");
    engine.isready();
    let mut moves: Vec<String> = Vec::new();
    let mut clock = [clock_ms, clock_ms];
    let mut longest = Duration::ZERO;
    let mut clamped = 0;
    for ply in 0..plies {
        engine.send(&position_command(&moves));
        let legal = engine.legal_moves();
        let side = ply % 2;
        let go = format!(
            "go wtime {:.0} btime {:.0} winc {inc_ms:.0} binc {inc_ms:.0}",
            clock[0], clock[1]
        );
        let limit = hard_limit(clock[side], inc_ms);
        let search = engine.go(&go, limit + HANG_GUARD);
        let used = search.elapsed.as_secs_f64() * 1000.0;
        if legal.is_empty() {
            assert_eq!(search.best, "(none)", "{variant}: game over but moved");
            eprintln!("{variant}: game over after {ply} plies");
            break;
        }
        longest = longest.max(search.elapsed);
        assert!(
            legal.contains(&search.best),
            "{variant} ply {ply}: illegal bestmove {} (legal {legal:?})\n{}",
            search.best,
            engine.tail()
        );
        let left = clock[side] + inc_ms - used;
        if left < 1.0 {
            clamped += 1;
        }
        clock[side] = left.max(1.0);
        moves.push(search.best.clone());
        engine.assert_alive();
    }
    eprintln!(
        "{variant}: {} plies, longest go {longest:?}, clocks left {:.0}/{:.0} ms, \
         clamped to 1 ms {clamped} times",
        moves.len(),
        clock[0],
        clock[1]
    );
}

#[test]
fn handshake_and_variant_switch() {
    let mut e = Engine::start();
    e.send("uci");
    let (lines, _) = e.until(SLOW_REPLY, |l| l == "uciok");
    assert!(lines[0].starts_with("id name ghast"), "{lines:?}");
    let variants = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo"))
        .expect("UCI_Variant option");
    for v in VARIANTS {
        assert!(variants.contains(&format!(" var {v}")), "{v}: {variants}");
    }
    for option in ["MultiPV", "Move Overhead", "Ponder", "Threads", "Hash"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option}: {lines:?}"
        );
    }
    e.isready();
    // Every variant in turn, twice, each with its own start position.
    for v in VARIANTS.iter().chain(VARIANTS.iter().rev()) {
        e.variant(v);
        e.send("position startpos");
        let n = e.legal_moves().len();
        assert_eq!(n, if v.contains("corner") { 16 } else { 20 }, "{v}");
        let search = e.go("go depth 2", SLOW_REPLY);
        assert!(e.legal_moves().contains(&search.best), "{v}: {}", e.tail());
    }
    e.assert_alive();
}

#[test]
fn short_clock_game_every_variant() {
    let _serial = timing();
    for v in VARIANTS {
        let mut e = Engine::with_variant(v);
        play_clock_game(&mut e, v, 20, 2000.0, 10.0);
    }
}

#[test]
fn blitz_one_second_game_every_variant() {
    // 1 s + 10 ms per move, the engine playing both sides: 60 plies or the
    // end of the game, every move legal however little clock is left.
    // A host on a busy machine raises Move Overhead: with 10 ms increments
    // the pipe and scheduling delays (measured here, not by the engine) are
    // not small next to the default 10 ms.
    let _serial = timing();
    for v in VARIANTS {
        let mut e = Engine::with_variant(v);
        e.send("setoption name Move Overhead value 30");
        play_clock_game(&mut e, v, 60, 1000.0, 10.0);
    }
}

#[test]
fn infinite_search_answers_isready_and_ends_on_stop() {
    let _serial = timing();
    for v in VARIANTS {
        let mut e = Engine::with_variant(v);
        e.send("position startpos");
        e.send("go infinite");
        // Let it search for a while: no bestmove without `stop`.
        e.assert_no_bestmove_for(
            Duration::from_millis(300),
            &format!("{v}: bestmove during go infinite"),
        );
        e.send("isready");
        let (lines, _) = e.until(HANG_GUARD, |l| l == "readyok");
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{v}");
        e.send("stop");
        let (lines, _) = e.until(HANG_GUARD, |l| l.starts_with("bestmove"));
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        e.assert_alive();
        let legal = e.legal_moves();
        assert!(legal.iter().any(|m| m == best), "{v}: {best}\n{}", e.tail());
        // A second stop with no search running says nothing.
        e.send("stop");
        e.isready();
        e.assert_alive();
    }
}

#[test]
fn ponder_then_ponderhit_gives_bestmove() {
    let _serial = timing();
    for v in VARIANTS {
        let mut e = Engine::with_variant(v);
        e.send("position startpos");
        let first = e.go("go depth 3", SLOW_REPLY);
        // Ponder on the reply the engine expects, as a GUI does.
        let mut moves = vec![first.best.clone()];
        let predicted = first
            .ponder
            .clone()
            .unwrap_or_else(|| e.legal_moves_after(&moves)[0].clone());
        moves.push(predicted);
        e.send(&position_command(&moves));
        let legal = e.legal_moves();
        e.send("go ponder wtime 1000 btime 1000 winc 10 binc 10");
        e.assert_no_bestmove_for(
            Duration::from_millis(300),
            &format!("{v}: bestmove before ponderhit"),
        );
        let sent = e.send("ponderhit");
        let limit = hard_limit(1000.0, 10.0);
        let (lines, at) = e.until(limit + HANG_GUARD, |l| l.starts_with("bestmove"));
        let search = Search::new(lines, at - sent);
        assert!(legal.contains(&search.best), "{v}: {}", e.tail());
        // `go ponder` ended by `stop` (the opponent played another move).
        e.send("go ponder wtime 1000 btime 1000");
        e.assert_no_bestmove_for(
            Duration::from_millis(100),
            &format!("{v}: bestmove before stop while pondering"),
        );
        e.send("stop");
        let (lines, _) = e.until(HANG_GUARD, |l| l.starts_with("bestmove"));
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        assert!(legal.iter().any(|m| m == best), "{v}: {best}\n{}", e.tail());
        e.assert_alive();
    }
}

impl Engine {
    /// Nothing may end the search during `wait` (load can only delay a
    /// bestmove, so this cannot fail on a slow machine).
    fn assert_no_bestmove_for(&mut self, wait: Duration, context: &str) {
        let early = self.quiet_for(wait);
        assert!(
            !early.iter().any(|l| l.starts_with("bestmove")),
            "{context}\n{}",
            self.tail()
        );
    }

    fn legal_moves_after(&mut self, moves: &[String]) -> Vec<String> {
        self.send(&position_command(moves));
        self.legal_moves()
    }
}

#[test]
fn movetime_depth_and_nodes_limits() {
    let _serial = timing();
    for v in VARIANTS {
        let mut e = Engine::with_variant(v);
        e.send("position startpos");
        let legal = e.legal_moves();

        let s = e.go("go movetime 300", Duration::from_millis(300) + HANG_GUARD);
        // Only a lower bound: load can make a search late, never early.
        assert!(
            s.elapsed >= Duration::from_millis(150),
            "{v}: movetime 300 stopped after only {:?}",
            s.elapsed
        );
        assert!(legal.contains(&s.best), "{v}: {}", s.best);

        let s = e.go("go depth 3", SLOW_REPLY);
        assert!(legal.contains(&s.best), "{v}: {}", s.best);
        let depths: Vec<u32> = s
            .infos()
            .filter_map(|l| field(l, "depth")?.parse().ok())
            .collect();
        assert_eq!(depths.last(), Some(&3), "{v}: {:?}", s.lines);
        assert!(depths.iter().all(|&d| d <= 3), "{v}: {:?}", s.lines);

        let s = e.go("go nodes 5000", SLOW_REPLY);
        assert!(legal.contains(&s.best), "{v}: {}", s.best);
        let nodes: u64 = field(s.last_info().expect("an info line"), "nodes")
            .and_then(|n| n.parse().ok())
            .expect("nodes");
        // The last report comes from a finished iteration: within budget
        // (the check is every few hundred nodes).
        assert!(nodes <= 5000 + 1024, "{v}: {nodes} nodes");
        e.assert_alive();
    }
}

#[test]
fn node_limited_search_is_reproducible() {
    for v in VARIANTS {
        let mut e = Engine::with_variant(v);
        let moves: Vec<String> = if v.contains("corner") {
            vec!["g2g3".into(), "b7c7".into()]
        } else {
            vec!["e2e4".into(), "d7d5".into()]
        };
        let mut results = Vec::new();
        for _ in 0..2 {
            e.send("ucinewgame");
            e.send(&position_command(&moves));
            let s = e.go("go nodes 20000", SLOW_REPLY);
            let last = s.last_info().expect("an info line").clone();
            let nodes = field(&last, "nodes").unwrap().to_string();
            let pv = last.split(" pv ").nth(1).unwrap_or("").to_string();
            results.push((s.best, nodes, pv));
        }
        assert_eq!(results[0], results[1], "{v}: two runs differ");
    }
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    // Checkmate: play the mating move of a mate in one from the suite.
    let mates = [
        (
            "nimrod",
            "1h2k2u/3pap1p/p1w5/8/2P2NnP/5P2/P2PWP2/qQ2KA1U b Kk - 7 19",
            "a1b1",
        ),
        (
            "nimrod-corner",
            "8/2k5/8/8/4m3/8/h7/3y3K b - - 1 54",
            "e4e1",
        ),
        (
            "dragon-nimrod",
            "8/k1C5/1p6/p7/P1PK4/1P5p/4P2A/2H5 w - - 3 45",
            "c7b8",
        ),
        (
            "dragon-nimrod-corner",
            "k7/qp2p3/1pp1p3/1p4P1/6H1/Q3NP2/2P1P1P1/1A1M3K w - - 1 25",
            "d1d8+",
        ),
    ];
    // Stalemate: Black's King on h8 with White's Queen on f7 and King on g6
    // (the same in both orientations: Kings and Queens move alike).
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    for (v, fen, mv) in mates {
        let mut e = Engine::with_variant(v);
        e.send(&format!("position fen {fen} moves {mv}"));
        assert!(e.legal_moves().is_empty(), "{v}: not mate\n{}", e.tail());
        for go in [
            "go depth 5",
            "go nodes 1000",
            "go movetime 100",
            "go wtime 500 btime 500",
        ] {
            let s = e.go(go, HANG_GUARD);
            assert_eq!(s.best, "(none)", "{v} mated, {go}: {}", e.tail());
        }
        e.send(&format!("position fen {stalemate}"));
        assert!(
            e.legal_moves().is_empty(),
            "{v}: not stalemate\n{}",
            e.tail()
        );
        for go in ["go depth 5", "go movetime 100"] {
            let s = e.go(go, HANG_GUARD);
            assert_eq!(s.best, "(none)", "{v} stalemate, {go}: {}", e.tail());
        }
        // `go infinite` with no legal move still waits for `stop`.
        e.send("go infinite");
        e.assert_no_bestmove_for(
            Duration::from_millis(100),
            &format!("{v}: bestmove before stop in go infinite"),
        );
        e.send("stop");
        let (lines, _) = e.until(HANG_GUARD, |l| l.starts_with("bestmove"));
        assert_eq!(lines.last().unwrap(), "bestmove (none)", "{v}");
        e.assert_alive();
    }
}

#[test]
fn multipv_3_reports_three_lines() {
    for v in VARIANTS {
        let mut e = Engine::with_variant(v);
        e.send("setoption name MultiPV value 3");
        e.send("position startpos");
        let legal = e.legal_moves();
        let s = e.go("go depth 4", SLOW_REPLY);
        for depth in 1..=4 {
            let at_depth: Vec<&String> = s
                .infos()
                .filter(|l| field(l, "depth") == Some(&depth.to_string()))
                .collect();
            let mut multipv: Vec<&str> = at_depth
                .iter()
                .filter_map(|l| field(l, "multipv"))
                .collect();
            multipv.sort();
            assert_eq!(multipv, ["1", "2", "3"], "{v} depth {depth}: {:?}", s.lines);
            // Three different first moves, all legal; the first is the best.
            let mut firsts: Vec<&str> = at_depth
                .iter()
                .filter_map(|l| l.split(" pv ").nth(1)?.split_whitespace().next())
                .collect();
            assert!(firsts.iter().all(|m| legal.iter().any(|l| l == m)), "{v}");
            if depth == 4 {
                let best_line = at_depth
                    .iter()
                    .find(|l| field(l, "multipv") == Some("1"))
                    .unwrap();
                let first = best_line.split(" pv ").nth(1).unwrap();
                assert!(first.starts_with(&s.best), "{v}: {:?}", s.lines);
            }
            firsts.sort();
            firsts.dedup();
            assert_eq!(firsts.len(), 3, "{v} depth {depth}: {:?}", s.lines);
        }
        // Back to one line.
        e.send("setoption name MultiPV value 1");
        let s = e.go("go depth 3", SLOW_REPLY);
        assert!(s.infos().all(|l| field(l, "multipv") == Some("1")), "{v}");
        e.assert_alive();
    }
}

#[test]
fn malformed_input_during_search_is_reported_and_survived() {
    let _serial = timing();
    let bad = [
        "go wtime abc",
        "go depth",
        "go searchmoves e2e4",
        "position fen 8/8/8 w - - 0 1",
        "position startpos moves e2e5",
        "go perft x",
        "frobnicate",
        "position",
    ];
    for v in VARIANTS {
        let mut e = Engine::with_variant(v);
        e.send("position startpos");
        e.send("go infinite");
        e.quiet_for(Duration::from_millis(50));
        for line in bad {
            e.send(line);
        }
        e.send("isready");
        let (lines, _) = e.until(HANG_GUARD, |l| l == "readyok");
        let errors = lines
            .iter()
            .filter(|l| l.starts_with("info string error:"))
            .count();
        assert_eq!(errors, bad.len(), "{v}: {}", e.tail());
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{v}: bad input ended the search\n{}",
            e.tail()
        );
        e.assert_alive();
        e.send("stop");
        let (lines, _) = e.until(HANG_GUARD, |l| l.starts_with("bestmove"));
        // The position is still the start position: the move is legal there.
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        e.send("position startpos");
        assert!(e.legal_moves().iter().any(|m| m == best), "{v}: {best}");
        // And a normal search still works.
        let s = e.go("go depth 2", SLOW_REPLY);
        assert!(s.best != "(none)", "{v}");
        e.assert_alive();
    }
}
