//! Perft: the number of leaves of the legal-move tree, generic over [`Game`].
//!
//! Leaves are counted in bulk: at depth 1 the game counts its legal moves
//! without making them. Draw rules never end the tree; the history grows
//! along each path only for games whose legality depends on it.

use crate::game::{Game, GameError, History, MoveBuffer, err};
use std::sync::atomic::{AtomicBool, Ordering};

/// The deepest perft the API accepts. Each level of the tree is a stack
/// frame holding a move list (up to ~20 KB in Nemoroth), so this bounds the
/// stack a perft needs to well under a thread's default 2 MiB; no perft
/// this deep could finish anyway.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// Refuses depths beyond [`MAX_PERFT_DEPTH`] (callers that count on
/// another thread can check before they start it).
pub fn check_depth(depth: u32) -> Result<(), GameError> {
    if depth > MAX_PERFT_DEPTH {
        return err(format!(
            "perft depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
        ));
    }
    Ok(())
}

/// perft(pos, depth) with `history` holding the positions before `pos`;
/// an error for a depth over [`MAX_PERFT_DEPTH`].
pub fn perft<G: Game>(pos: &G, history: &mut History, depth: u32) -> Result<u64, GameError> {
    check_depth(depth)?;
    Ok(count_leaves(pos, history, depth, &AtomicBool::new(false)))
}

/// The perft recursion (depth already checked). Once `cancel` is set it
/// returns at once, with a partial count the caller throws away.
fn count_leaves<G: Game>(pos: &G, history: &mut History, depth: u32, cancel: &AtomicBool) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(history),
        _ if cancel.load(Ordering::Relaxed) => 0,
        _ => {
            let mut moves = G::Moves::default();
            pos.legal_moves(history, &mut moves);
            let mut total = 0;
            for &mv in moves.as_slice() {
                let child = pos.play(mv);
                if G::LEGALITY_USES_HISTORY {
                    history.push(pos.repetition_key());
                    total += count_leaves(&child, history, depth - 1, cancel);
                    history.pop();
                } else {
                    total += count_leaves(&child, history, depth - 1, cancel);
                }
            }
            total
        }
    }
}

/// One line of a perft divide: a root move and the leaves below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivideLine {
    pub mv: String,
    pub nodes: u64,
}

/// The perft of every root move, sorted by move text (none at depth 0,
/// where perft is 1 without any move).
///
/// `threads > 1` spreads the root moves over a rayon pool. `progress` is
/// called after each root move with (moves done, moves in all, nodes so far).
/// An error for a depth over [`MAX_PERFT_DEPTH`], and when `cancel` is set
/// before the count ends (`stop` during `go perft`).
pub fn divide<G: Game>(
    pos: &G,
    history: &History,
    depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize, usize, u64) + Sync),
    cancel: &AtomicBool,
) -> Result<Vec<DivideLine>, GameError> {
    check_depth(depth)?;
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut moves = G::Moves::default();
    pos.legal_moves(history, &mut moves);
    let root: Vec<G::Move> = moves.as_slice().to_vec();
    let total_moves = root.len();
    let count_one = |mv: G::Move| -> DivideLine {
        let child = pos.play(mv);
        let nodes = if depth <= 1 {
            1
        } else {
            let mut h = history.clone();
            h.push(pos.repetition_key());
            count_leaves(&child, &mut h, depth - 1, cancel)
        };
        DivideLine {
            mv: pos.move_to_string(mv),
            nodes,
        }
    };
    let mut lines: Vec<DivideLine> = if threads > 1 && depth > 2 {
        use rayon::prelude::*;
        let done = std::sync::atomic::AtomicUsize::new(0);
        let nodes = std::sync::atomic::AtomicU64::new(0);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("rayon pool");
        pool.install(|| {
            root.par_iter()
                .map(|&mv| {
                    let line = count_one(mv);
                    let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    let n = nodes.fetch_add(line.nodes, std::sync::atomic::Ordering::Relaxed)
                        + line.nodes;
                    progress(d, total_moves, n);
                    line
                })
                .collect()
        })
    } else {
        let mut nodes = 0;
        root.iter()
            .enumerate()
            .map(|(i, &mv)| {
                let line = count_one(mv);
                nodes += line.nodes;
                progress(i + 1, total_moves, nodes);
                line
            })
            .collect()
    };
    if cancel.load(Ordering::Relaxed) {
        return err("perft stopped");
    }
    lines.sort_by(|a, b| a.mv.cmp(&b.mv));
    Ok(lines)
}
