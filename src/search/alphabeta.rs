//! Principal variation search with iterative deepening, for any [`Game`].
//!
//! Per node: transposition table cutoffs, mate distance pruning, check
//! extension, reverse futility pruning, null-move pruning where the game
//! allows it, then the moves in order (table move, good tactical moves by
//! the game's ordering, killers, history, losing tactical moves) with late
//! move reductions, late move pruning and futility pruning of quiet moves.
//! Leaves go to a quiescence search over the moves the game calls tactical.

use super::params::SearchParams;
use super::time::{self, Budget, SearchSignals};
use super::tt::{Bound, Stored, TranspositionTable};
use super::{
    Config, HistorySum, INFINITY, Info, Limits, MATE, MATE_BOUND, MAX_PLY, Outcome, Resources,
    Score, Shared,
};
use crate::game::{Game, GameState, History, MoveBuffer};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Nodes between two looks at the clock and the shared node counter.
const CHECK_INTERVAL: u64 = 512;
/// Ordering bands; inside a band the finer score decides.
const TT_MOVE_SCORE: i32 = 1 << 30;
const GOOD_TACTICAL_SCORE: i32 = 1 << 28;
const KILLER_SCORE: i32 = 1 << 26;
/// Below the killers: the counter move of the move before.
const COUNTER_SCORE: i32 = KILLER_SCORE - 2;
/// Capture history orders tactical moves within their band by this
/// share of its value (MVV-LVA steps are in the hundreds).
const CAPTURE_HISTORY_ORDER_DIVISOR: i32 = 32;
const BAD_TACTICAL_SCORE: i32 = -(1 << 26);
/// A quiet check in quiescence: after every capture worth trying.
const QUIET_CHECK_SCORE: i32 = 1 << 20;
/// Marks, once picked, a move the node skipped (pruned, or the move a
/// singular test leaves out), so that no history malus reaches it.
const SKIPPED_SCORE: i32 = i32::MIN;
/// History values stay within +-HISTORY_MAX.
const HISTORY_MAX: i32 = 16_384;
/// ProbCut verifies with a search this many plies shallower.
const PROBCUT_REDUCTION: i32 = 4;
/// Marks a ply whose move has no piece-to slot (a null move).
const NO_PIECE_TO: usize = usize::MAX;
/// Continuation histories look this many plies back: at the opponent's
/// last move and at one's own move before it.
const CONTINUATION_PLIES: usize = 2;
/// Marks a ply whose move was not quiet (or a null move).
const NO_QUIET_SLOT: usize = usize::MAX;
/// The evaluation-difference history bonus stays within +-this.
const EVAL_DIFF_BONUS_MAX: i32 = 1000;
/// Null-move plies at most for the evaluation's margin over beta.
const NMP_MAX_EVAL_REDUCTION: i32 = 3;
/// History bonus of a cutoff at `depth`: per depth - offset, at most max.
const HISTORY_BONUS_PER_DEPTH: i32 = 200;
const HISTORY_BONUS_OFFSET: i32 = 150;
const HISTORY_BONUS_MAX: i32 = 1600;
/// `lmr_research_adjust`: a reduced move is searched again a ply deeper
/// when it beats the best score by more than base + per-depth * depth
/// centipawns (Stockfish's margins, about 25 + 5 per ply)...
const RESEARCH_DEEPER_BASE: i32 = 25;
const RESEARCH_DEEPER_PER_DEPTH: i32 = 5;
/// ...and a ply shallower when it beats it by less than this.
const RESEARCH_SHALLOWER_MARGIN: i32 = 5;
/// Reductions are computed in 1/REDUCTION_UNIT plies, so that history can
/// move them by less than a ply.
const REDUCTION_UNIT: i32 = 1024;
/// Nodes at most this deep neither join nor leave the principal
/// variations by their result (the leaves say too little).
const TT_PV_MIN_DEPTH: i32 = 3;
/// A relief (hundredths of a ply) at or above this means "never reduced".
const NEVER_REDUCED_RELIEF: i32 = 1000;

/// How a node is entered: whether a null move may be tried there (not
/// right after one, nor inside a singular test), and whether its parent
/// expects it to fail high (a cut node, reduced more).
#[derive(Clone, Copy)]
struct NodeKind {
    null_allowed: bool,
    cut_node: bool,
    /// Whether being in check here extends the search (not after a check
    /// that loses material, with `unsafe_checks_are_quiet`, nor after one
    /// made shallower than `check_extension_min_depth`).
    extend_check: bool,
}

impl NodeKind {
    /// A child reached by a real move.
    const fn after_move(cut_node: bool) -> Self {
        Self {
            null_allowed: true,
            cut_node,
            extend_check: true,
        }
    }

    /// The child, with its check extension withheld if `withheld`.
    const fn without_check_extension(self, withheld: bool) -> Self {
        Self {
            extend_check: !withheld,
            ..self
        }
    }
}

/// What the late move reduction of one move depends on.
struct LateMove {
    depth: i32,
    new_depth: i32,
    searched: usize,
    pv_node: bool,
    /// On a principal variation now or before, and not expected to fail
    /// low (reduced by `lmr_tt_pv_x100` less).
    tt_pv: bool,
    cut_node: bool,
    improving: bool,
    in_check: bool,
    gives_check: bool,
    quiet: bool,
    bad_tactical: bool,
    history: i32,
    /// `Game::threat_order` of the move: 1 escapes a cheap attack, -1
    /// enters one.
    threat: i32,
    /// The node's table move is tactical.
    tt_tactical: bool,
}

/// What late move and futility pruning of one move depend on.
struct QuietPruning {
    depth: i32,
    /// The depth futility reads ([`Worker::pruning_depth`]).
    prune_depth: i32,
    alpha: i32,
    eval: i32,
    quiets_tried: usize,
    /// Moves the node has come to before this one, searched or not.
    moves_seen: usize,
    improving: bool,
    pv_node: bool,
    quiet: bool,
}

/// Correction history slots per colour (a power of two).
const CORRECTION_SLOTS: usize = 1 << 14;
/// Corrections are kept in 1/CORRECTION_GRAIN centipawns.
const CORRECTION_GRAIN: i32 = 256;
/// Weights of a correction update are out of this.
const CORRECTION_WEIGHT_SCALE: i32 = 256;

/// A thread's statistics, kept with the table from one search to the next.
pub struct Histories {
    /// Butterfly history of quiet moves: [colour][`Game::history_index`];
    /// started afresh by each search unless `history_carry_x100`.
    quiet: Vec<i32>,
    /// Correction history: [colour][structure key slot], how far the
    /// static evaluation was off; kept for the whole game.
    correction: Vec<i32>,
    /// Capture history: [colour][`capture_slot`], which tactical moves
    /// cut off; the same.
    capture: Vec<i32>,
    /// Counter moves: [earlier move's piece-to] → the quiet reply that
    /// last cut off after it (`Game::encode_move`, 0: none); started
    /// afresh by each search unless `history_carry_x100`.
    counter: Vec<u32>,
    /// Continuation histories: [plies back - 1][earlier move's piece-to]
    /// [quiet move's piece-to] (`Game::piece_to_index`), how the quiet
    /// move fared after that earlier move (`cont_history_x100`); kept for
    /// the whole game, as the correction history is. A row is one earlier
    /// move, so a node reads two short rows.
    continuation: Vec<i16>,
}

/// The continuation tables' size for `G`.
fn continuation_slots<G: Game>() -> usize {
    CONTINUATION_PLIES * G::PIECE_TO_SIZE * G::PIECE_TO_SIZE
}

impl Histories {
    pub fn new<G: Game>() -> Self {
        Histories {
            quiet: vec![0; G::HISTORY_SIZE * 2],
            correction: vec![0; CORRECTION_SLOTS * 2],
            capture: vec![0; capture_slots::<G>() * 2],
            counter: vec![0; G::PIECE_TO_SIZE],
            continuation: vec![0; continuation_slots::<G>()],
        }
    }

    /// Ready for a search of `G`: the move histories carried over from
    /// the last search scaled by `carry_percent` (0: zeroed), the
    /// correction history kept. A table of another game's size is
    /// started afresh.
    fn prepare<G: Game>(&mut self, carry_percent: i32) {
        let same_game = self.quiet.len() == G::HISTORY_SIZE * 2
            && self.capture.len() == capture_slots::<G>() * 2
            && self.counter.len() == G::PIECE_TO_SIZE
            && self.continuation.len() == continuation_slots::<G>();
        if carry_percent > 0 && same_game {
            for v in self.quiet.iter_mut().chain(self.capture.iter_mut()) {
                *v = *v * carry_percent / 100;
            }
            return;
        }
        self.quiet.clear();
        self.quiet.resize(G::HISTORY_SIZE * 2, 0);
        self.capture.clear();
        self.capture.resize(capture_slots::<G>() * 2, 0);
        self.counter.clear();
        self.counter.resize(G::PIECE_TO_SIZE, 0);
        if !same_game {
            self.continuation.clear();
            self.continuation.resize(continuation_slots::<G>(), 0);
        }
    }
}

struct RootMove<M> {
    mv: M,
    score: i32,
    pv: Vec<M>,
    /// Nodes searched below this move in the current iteration.
    nodes: u64,
}

/// Time management reads the search's signals only from this depth on;
/// the first iterations are too shallow to say anything.
const TIME_SIGNALS_MIN_DEPTH: u32 = 4;

pub struct Worker<'a, G: Game> {
    root: &'a GameState<G>,
    limits: &'a Limits,
    params: &'a SearchParams,
    /// The evaluator's weights in force (`EvalFile`, else compiled in).
    eval: &'a G::EvalParams,
    config: &'a Config,
    shared: &'a Shared,
    tt: &'a TranspositionTable,
    start: Instant,
    id: usize,
    budget: Option<Budget>,
    /// Game history plus the positions on the current search path.
    history: History,
    /// The positions of `history`, summed for the table keys of games
    /// whose legality reads the history.
    history_sum: HistorySum,
    nodes: u64,
    unflushed_nodes: u64,
    seldepth: usize,
    stopped: bool,
    killers: Vec<[Option<G::Move>; 2]>,
    /// The piece-to slot of the move played at each ply of the path
    /// (`NO_PIECE_TO` for a null move), for counter moves.
    piece_to: Vec<usize>,
    /// The butterfly history slot of the quiet move played at each ply
    /// (`NO_QUIET_SLOT` for other moves), for `eval_diff_history` and
    /// `fail_low_prior_bonus`.
    quiet_slot: Vec<usize>,
    /// The move a singular-extension search leaves out, per ply.
    excluded: Vec<Option<G::Move>>,
    histories: &'a mut Histories,
    pv: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i32>>,
    eval_stack: Vec<i32>,
    /// Per ply: whether the node is or was on a principal variation
    /// (a PV node, or the table says so), reduced less.
    tt_pv: Vec<bool>,
    lmr: Vec<[i32; 64]>,
    root_moves: Vec<RootMove<G::Move>>,
    completed_depth: u32,
    /// Depth of the iteration in progress (bounds the check extensions).
    root_depth: i32,
    /// What the finished iterations say, for the time manager.
    signals: SearchSignals,
}

/// The moves a node took up before the one that cut off, with their
/// ordering scores (`SKIPPED_SCORE` where the node skipped the move).
#[derive(Clone, Copy)]
struct Tried<'a, M> {
    moves: &'a [M],
    scores: &'a [i32],
    /// Whether only the moves searched get the history malus
    /// (`history_malus_searched_only`), not those pruned or left out.
    only_searched: bool,
}

impl<M: Copy> Tried<'_, M> {
    fn moves(&self) -> impl Iterator<Item = M> + '_ {
        self.moves
            .iter()
            .zip(self.scores)
            .filter(|&(_, &s)| !self.only_searched || s != SKIPPED_SCORE)
            .map(|(&m, _)| m)
    }
}

/// Selection sort, one step: brings the best-scored remaining move to `i`.
/// Most nodes cut off after a few moves, so sorting all would waste work.
#[inline]
fn pick_best<M: Copy>(moves: &mut [M], scores: &mut [i32], i: usize) {
    // One scan keeping the first best: the comparison compiles to a
    // conditional move, where a search for the maximum's position
    // mispredicted.
    let Some(&first) = scores.get(i) else {
        return;
    };
    let (mut top, mut best) = (i, first);
    for (j, &s) in scores.iter().enumerate().skip(i + 1) {
        if s > best {
            (top, best) = (j, s);
        }
    }
    moves.swap(i, top);
    scores.swap(i, top);
}

/// Slots per colour of the capture history: piece-to where the game has
/// it, else the butterfly slots.
fn capture_slots<G: Game>() -> usize {
    if G::PIECE_TO_SIZE > 0 {
        G::PIECE_TO_SIZE
    } else {
        G::HISTORY_SIZE
    }
}

/// The history bonus of a cutoff at `depth`.
#[inline]
fn history_bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_PER_DEPTH * depth - HISTORY_BONUS_OFFSET).clamp(0, HISTORY_BONUS_MAX)
}

/// A history value moved by `delta`; gravity keeps it within
/// +-HISTORY_MAX and lets old lessons fade.
#[inline]
fn with_gravity(value: i32, delta: i32) -> i32 {
    value + delta - value * delta.abs() / HISTORY_MAX
}

/// Whether a table score `s` with `bound` settles a node searched with
/// the window (alpha, beta).
fn bound_settles(bound: Bound, s: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
        Bound::None => false,
    }
}

/// The static evaluation, or the table's score where its bound says the
/// true value lies beyond the evaluation on that side; mate scores are left
/// out, they are no estimate of the position.
fn refine_by_table(eval: i32, tt_score: i32, bound: Bound) -> i32 {
    let beyond = match bound {
        Bound::Exact => true,
        Bound::Lower => tt_score > eval,
        Bound::Upper => tt_score < eval,
        Bound::None => false,
    };
    if beyond && tt_score.abs() < MATE_BOUND {
        tt_score
    } else {
        eval
    }
}

/// The bound a search result proves within the window it was given.
fn result_bound(best: i32, original_alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > original_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<'a, G: Game> Worker<'a, G> {
    pub fn new(
        root: &'a GameState<G>,
        limits: &'a Limits,
        resources: Resources<'a, G>,
        tt: &'a TranspositionTable,
        histories: &'a mut Histories,
        start: Instant,
        id: usize,
    ) -> Self {
        let Resources {
            config,
            eval,
            shared,
        } = resources;
        let params = &config.params;
        histories.prepare::<G>(params.history_carry_x100);
        let lmr = (0..64)
            .map(|d| {
                let mut row = [0; 64];
                for (m, r) in row.iter_mut().enumerate() {
                    if d > 0 && m > 0 {
                        let base = params.lmr_base_x100 as f64 / 100.0;
                        let divisor = params.lmr_divisor_x100 as f64 / 100.0;
                        let x = base + (d as f64).ln() * (m as f64).ln() / divisor;
                        *r = (x.max(0.0) * REDUCTION_UNIT as f64) as i32;
                    }
                }
                row
            })
            .collect();
        Worker {
            root,
            limits,
            params,
            eval,
            config,
            shared,
            tt,
            start,
            id,
            budget: time::budget(
                limits,
                root.position.side_to_move(),
                config.move_overhead,
                params,
                G::CLOCK_MOVES,
                time::moves_played(root),
            ),
            history: root.history.clone(),
            history_sum: HistorySum::of(&root.history),
            nodes: 0,
            unflushed_nodes: 0,
            seldepth: 0,
            stopped: false,
            killers: vec![[None, None]; MAX_PLY + 2],
            excluded: vec![None; MAX_PLY + 2],
            piece_to: vec![NO_PIECE_TO; MAX_PLY + 2],
            quiet_slot: vec![NO_QUIET_SLOT; MAX_PLY + 2],
            histories,
            pv: (0..=MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            scores: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            eval_stack: vec![0; MAX_PLY + 2],
            tt_pv: vec![false; MAX_PLY + 2],
            lmr,
            root_moves: Vec::new(),
            completed_depth: 0,
            root_depth: 0,
            signals: SearchSignals {
                stable_iterations: 0,
                score_drop: 0,
                best_move_node_share: 0.0,
            },
        }
    }

    /// A position joins the path (its repetition key).
    #[inline]
    fn enter(&mut self, key: u64) {
        self.history.push(key);
        if G::LEGALITY_USES_HISTORY {
            self.history_sum.add(key);
        }
    }

    #[inline]
    fn leave(&mut self) {
        if let Some(key) = self.history.pop()
            && G::LEGALITY_USES_HISTORY
        {
            self.history_sum.remove(key);
        }
    }

    /// The table key of `pos` on the current path ([`HistorySum`]).
    #[inline]
    fn tt_key(&self, pos: &G) -> u64 {
        self.history_sum.key(pos)
    }

    pub fn completed_depth(&self) -> u32 {
        self.completed_depth
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.unflushed_nodes
    }

    fn elapsed_for_clock(&self) -> std::time::Duration {
        let since_start = self.start.elapsed();
        let ponderhit =
            std::time::Duration::from_millis(self.shared.ponderhit_ms.load(Ordering::Relaxed));
        since_start.saturating_sub(ponderhit)
    }

    /// Whether the search must unwind now.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.id == 0
            && let Some(limit) = self.limits.nodes
        {
            // One thread: the exact count, so node-limited searches are
            // reproducible.
            let n = if self.config.threads <= 1 {
                self.nodes
            } else {
                self.total_nodes()
            };
            if n >= limit {
                self.shared.stop.store(true, Ordering::Release);
            }
        }
        if self.unflushed_nodes >= CHECK_INTERVAL {
            self.shared
                .nodes
                .fetch_add(self.unflushed_nodes, Ordering::Relaxed);
            self.unflushed_nodes = 0;
            // The hard limit holds even inside the first iteration (a
            // slow depth 1 must not lose on time); the best root move
            // searched so far is played then.
            if self.id == 0
                && !self.shared.pondering.load(Ordering::Acquire)
                && let Some(b) = self.budget
                && self.elapsed_for_clock() >= b.hard
            {
                self.shared.stop.store(true, Ordering::Release);
            }
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Iterative deepening; returns the best move of the last finished
    /// iteration.
    pub fn iterate(&mut self, report: &(dyn Fn(&Info) + Sync)) -> Outcome<G::Move> {
        let root = self.root.position.clone();
        let mut moves = G::Moves::default();
        root.legal_moves(&self.history, &mut moves);
        if moves.is_empty() {
            return Outcome {
                best: None,
                ponder: None,
                score: if root.no_moves_loses() { -MATE } else { 0 },
                depth: 0,
                nodes: 0,
            };
        }
        // Table move first, then tactical moves, for the first iteration.
        let tt_move = self.tt.probe(self.tt_key(&root)).map(|e| e.mv).unwrap_or(0);
        let mut ordered: Vec<(i32, G::Move)> = moves
            .as_slice()
            .iter()
            .map(|&m| {
                let s = if G::encode_move(m) == tt_move {
                    TT_MOVE_SCORE
                } else if root.is_tactical(m) {
                    GOOD_TACTICAL_SCORE + root.tactical_score(m)
                } else {
                    0
                };
                (s, m)
            })
            .collect();
        ordered.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        self.root_moves = ordered
            .into_iter()
            .map(|(_, mv)| RootMove {
                mv,
                score: -INFINITY,
                pv: vec![mv],
                nodes: 0,
            })
            .collect();

        let max_depth = self
            .limits
            .depth
            .map(|d| d.clamp(1, MAX_PLY as u32 - 1))
            .unwrap_or(MAX_PLY as u32 - 1);
        let multipv = self.config.multipv.clamp(1, self.root_moves.len());
        let mut best = Outcome {
            best: Some(self.root_moves[0].mv),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        let mut previous_scores = vec![0; multipv];
        let mut depth = 1 + (self.id % 2) as u32;
        while depth <= max_depth {
            self.seldepth = 0;
            self.root_depth = depth as i32;
            let iteration_start_nodes = self.nodes;
            for rm in &mut self.root_moves {
                rm.nodes = 0;
            }
            for (pv_index, previous) in previous_scores.iter_mut().enumerate() {
                let score = self.aspiration(&root, depth as i32, *previous, pv_index);
                if self.stopped {
                    break;
                }
                *previous = score;
                // Bring the line just found to its place.
                self.root_moves[pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            if self.stopped && self.completed_depth > 0 {
                break;
            }
            if self.stopped {
                // Stopped inside the first iteration: the best root move
                // with a score so far, else the first in order.
                if let Some(r) = self
                    .root_moves
                    .iter()
                    .filter(|r| r.score > -INFINITY)
                    .max_by_key(|r| r.score)
                {
                    best.best = Some(r.mv);
                    best.score = r.score;
                }
                break;
            }
            self.completed_depth = depth;
            let first = &self.root_moves[0];
            self.signals = SearchSignals {
                stable_iterations: if best.best == Some(first.mv) {
                    self.signals.stable_iterations + 1
                } else {
                    0
                },
                score_drop: if best.depth > 0 {
                    best.score - first.score
                } else {
                    0
                },
                best_move_node_share: first.nodes as f64
                    / (self.nodes - iteration_start_nodes).max(1) as f64,
            };
            best = Outcome {
                best: Some(first.mv),
                ponder: first.pv.get(1).copied(),
                score: first.score,
                depth,
                nodes: 0,
            };
            if self.id == 0 {
                self.report_lines(&root, depth, multipv, report);
            }
            if self.stopped || self.iteration_limits_reached(best.score) {
                break;
            }
            depth += 1;
        }
        self.shared
            .nodes
            .fetch_add(self.unflushed_nodes, Ordering::Relaxed);
        self.unflushed_nodes = 0;
        if best.ponder.is_none()
            && let Some(mv) = best.best
        {
            best.ponder = self.ponder_from_tt(&root, mv);
        }
        best.nodes = self.nodes;
        best
    }

    /// After an iteration: stop for depth, mate, nodes or time?
    fn iteration_limits_reached(&mut self, score: i32) -> bool {
        if self.id != 0 {
            return false;
        }
        if let Some(m) = self.limits.mate
            && score >= MATE_BOUND
            && (MATE - score + 1) / 2 <= m as i32
        {
            return true;
        }
        if self.shared.pondering.load(Ordering::Acquire) {
            return false;
        }
        if let Some(b) = self.budget {
            let one_move = self.root_moves.len() == 1;
            let scale = if b.flexible && self.completed_depth >= TIME_SIGNALS_MIN_DEPTH {
                time::soft_scale(self.params, &self.signals)
            } else {
                1.0
            };
            let start_share = self.params.tm_iteration_start_x100 as f64 / 100.0;
            let start_limit = b.soft.mul_f64(start_share * scale);
            if one_move || self.elapsed_for_clock() >= start_limit {
                return true;
            }
        }
        false
    }

    fn ponder_from_tt(&mut self, root: &G, mv: G::Move) -> Option<G::Move> {
        let child = root.play(mv);
        self.enter(root.repetition_key());
        let entry = self.tt.probe(self.tt_key(&child));
        let history = self.history.clone();
        self.leave();
        let entry = entry?;
        let mut moves = G::Moves::default();
        child.legal_moves(&history, &mut moves);
        moves
            .as_slice()
            .iter()
            .copied()
            .find(|&m| G::encode_move(m) == entry.mv)
    }

    fn report_lines(&self, root: &G, depth: u32, multipv: usize, report: &(dyn Fn(&Info) + Sync)) {
        let elapsed = self.start.elapsed();
        let nodes = self.total_nodes();
        let ms = elapsed.as_millis() as u64;
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64;
        let hashfull = self.tt.hashfull();
        for (i, rm) in self.root_moves.iter().take(multipv).enumerate() {
            if rm.score == -INFINITY {
                continue;
            }
            let mut pos = root.clone();
            let pv = rm
                .pv
                .iter()
                .map(|&m| {
                    let s = pos.move_to_string(m);
                    pos = pos.play(m);
                    s
                })
                .collect();
            report(&Info {
                depth,
                seldepth: self.seldepth.max(depth as usize) as u32,
                multipv: i + 1,
                score: Score::from_internal(rm.score),
                bound: None,
                nodes,
                nps,
                hashfull,
                time_ms: ms,
                pv,
            });
        }
    }

    /// Searches the root with a window around the previous score, widening
    /// it on failure.
    fn aspiration(&mut self, root: &G, depth: i32, previous: i32, pv_index: usize) -> i32 {
        let mut delta = self.params.aspiration_window;
        let (mut alpha, mut beta) =
            if depth >= self.params.aspiration_min_depth && previous.abs() < MATE_BOUND {
                (previous - delta, previous + delta)
            } else {
                (-INFINITY, INFINITY)
            };
        let mut fail_highs = 0;
        loop {
            let search_depth = (depth - fail_highs).max(1);
            let score = self.search_root(root, search_depth, alpha, beta, pv_index);
            if self.stopped {
                return score;
            }
            if score <= alpha && alpha > -INFINITY {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                fail_highs = 0;
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
                fail_highs += self.params.aspiration_fail_high_reduce;
            } else {
                return score;
            }
            delta += delta;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn search_root(
        &mut self,
        root: &G,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        pv_index: usize,
    ) -> i32 {
        let mut best = -INFINITY;
        let key = root.repetition_key();
        self.tt_pv[0] = true;
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            self.piece_to[0] = self.move_slot(root, mv);
            self.quiet_slot[0] = self.quiet_slot_of(root, mv);
            let nodes_before = self.nodes;
            let child = root.play(mv);
            self.enter(key);
            let score = if i == pv_index {
                -self.negamax(
                    &child,
                    depth - 1,
                    -beta,
                    -alpha,
                    1,
                    NodeKind::after_move(false),
                )
            } else {
                let r = if self.params.lmr_at_root != 0 {
                    let gives_check = child.in_check();
                    let quiet = !root.is_tactical(mv);
                    self.late_move_reduction(LateMove {
                        depth,
                        new_depth: depth - 1,
                        searched: i - pv_index,
                        pv_node: true,
                        tt_pv: true,
                        cut_node: false,
                        improving: false,
                        in_check: root.in_check(),
                        gives_check,
                        quiet,
                        bad_tactical: false,
                        tt_tactical: false,
                        threat: 0,
                        history: if quiet {
                            self.quiet_history(root.side_to_move().index(), root, mv)
                        } else {
                            0
                        },
                    })
                } else {
                    0
                };
                let mut s = -self.negamax(
                    &child,
                    depth - 1 - r,
                    -alpha - 1,
                    -alpha,
                    1,
                    NodeKind::after_move(true),
                );
                if s > alpha && r > 0 {
                    s = -self.negamax(
                        &child,
                        depth - 1,
                        -alpha - 1,
                        -alpha,
                        1,
                        NodeKind::after_move(false),
                    );
                }
                if s > alpha && s < beta {
                    s = -self.negamax(
                        &child,
                        depth - 1,
                        -beta,
                        -alpha,
                        1,
                        NodeKind::after_move(false),
                    );
                }
                s
            };
            self.leave();
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            if i == pv_index || score > alpha {
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1]);
            } else {
                self.root_moves[i].score = -INFINITY;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    fn negamax(
        &mut self,
        pos: &G,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        kind: NodeKind,
    ) -> i32 {
        let NodeKind {
            null_allowed,
            cut_node,
            extend_check,
        } = kind;
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        if self.should_stop() {
            return 0;
        }
        let in_check = pos.in_check();
        // Check extensions stop at twice the iteration's depth: where
        // nearly every move checks (crowded boards) they would otherwise
        // keep the whole tree at full width.
        if in_check
            && extend_check
            && (ply as i32) < self.params.check_extension_ply_factor * self.root_depth
        {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.nodes += 1;
        self.unflushed_nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        let (hash, rep_key) = pos.hash_and_repetition_key();
        if pos.is_rule_draw(&self.history, rep_key) {
            return 0;
        }
        // Mate distance pruning: no line here beats a shorter mate found.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 1 {
            return pos.evaluate_with(self.eval);
        }

        let excluded = self.excluded[ply];
        let key = self.history_sum.key_from_hash::<G>(hash);
        let entry = self.tt.probe(key);
        let tt_move = entry.map(|e| e.mv).unwrap_or(0);
        // A singular test keeps the node's own flag.
        if excluded.is_none() {
            self.tt_pv[ply] = pv_node || entry.is_some_and(|e| e.pv);
        }
        self.tt_pv[ply + 1] = false;
        let likely_fail_low = pv_node
            && entry.is_some_and(|e| {
                e.mv != 0 && matches!(e.bound, Bound::Upper | Bound::Exact) && e.depth >= depth
            });
        if let Some(e) = entry {
            let s = score_from_tt(e.score, ply);
            if !pv_node
                && excluded.is_none()
                && e.depth >= depth
                && bound_settles(e.bound, s, alpha, beta)
            {
                return s;
            }
        }

        // Without a table move this node's ordering is a guess: spend
        // less on it (the next visit will have the move).
        if tt_move == 0
            && excluded.is_none()
            && depth >= self.params.iir_min_depth
            && self.iir_applies(pv_node, cut_node)
        {
            depth -= 1;
        }

        // The pawn key, hashed once for the correction read and write.
        let correction = if in_check {
            None
        } else {
            self.correction_slot(pos)
        };
        // The table keeps the evaluation: a position searched before is
        // not evaluated again.
        let (raw_eval, eval) = match entry.and_then(|e| e.eval) {
            _ if in_check => (-INFINITY, -INFINITY),
            Some(raw) => (raw, self.corrected_eval(correction, raw)),
            None => self.static_eval(pos, correction),
        };
        self.eval_stack[ply] = eval;
        if excluded.is_none() && !in_check {
            self.reward_eval_change(ply, depth, eval);
        }
        let improving = !in_check && ply >= 2 && eval > self.eval_stack[ply - 2];
        let p = self.params;
        let static_eval = eval;
        let eval = match entry {
            Some(e) if p.tt_refines_eval != 0 && !in_check => {
                refine_by_table(eval, score_from_tt(e.score, ply), e.bound)
            }
            _ => eval,
        };

        // Built at most once, for reverse futility and the null move.
        let null_cell = std::cell::OnceCell::new();
        let null_position = || null_cell.get_or_init(|| pos.null_move()).as_ref();
        if !pv_node && !in_check && excluded.is_none() {
            // Razoring: hopelessly below alpha, only tactics can help. Not
            // while a mate is the bound: the quiescence search has no
            // quiet checks, so it cannot see the mate the node may hold.
            if depth <= p.razor_max_depth
                && alpha.abs() < MATE_BOUND
                && eval + p.razor_base + p.razor_margin * depth * depth < alpha
            {
                let score = self.qsearch(pos, alpha - 1, alpha, ply, 0);
                if self.stopped {
                    return 0;
                }
                if score < alpha {
                    return score;
                }
            }
            // Reverse futility: far above beta, a quiet position stays there
            // (the null-move observation, so not where the game refuses
            // null moves for zugzwang: Nemoroth, where having to move can
            // be the loss).
            if depth <= p.rfp_max_depth
                && beta.abs() < MATE_BOUND
                && eval - p.rfp_margin * (depth - improving as i32) >= beta
                && null_position().is_some()
            {
                return eval;
            }
            // Null move, where the game says passing is safe to assume.
            if null_allowed
                && depth >= p.nmp_min_depth
                && eval >= beta + p.nmp_margin
                && let Some(null) = null_position()
                && eval - self.passing_cost(raw_eval, null) >= beta
            {
                let r = p.nmp_base
                    + depth / p.nmp_divisor
                    + ((eval - beta) / p.nmp_eval_divisor).min(NMP_MAX_EVAL_REDUCTION);
                self.enter(rep_key);
                self.piece_to[ply] = NO_PIECE_TO;
                self.quiet_slot[ply] = NO_QUIET_SLOT;
                let score = -self.negamax(
                    null,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    NodeKind {
                        null_allowed: false,
                        cut_node: !cut_node,
                        extend_check: true,
                    },
                );
                self.leave();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
            if depth >= p.probcut_min_depth
                && beta.abs() < MATE_BOUND
                && let Some(score) = self.probcut(pos, &entry, depth, beta, eval, ply)
            {
                return score;
            }
        }

        // The moves only now: the pruning above needs none. (It may so
        // misjudge a position without moves, which the game would score
        // as a draw or a loss: a stalemate is then valued as quiet.)
        let mut moves = G::Moves::default();
        pos.legal_moves(&self.history, &mut moves);
        if moves.is_empty() {
            return if pos.no_moves_loses() {
                -MATE + ply as i32
            } else {
                0
            };
        }

        // Move ordering scores.
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        let color = pos.side_to_move().index();
        let killers = self.killers[ply];
        let counter = self.counter_move(ply);
        let continuation = self.continuation_rows(ply);
        let mut tt_tactical = false;
        let threats = (p.threat_order_weight != 0 || p.lmr_threat_x100 != 0).then(|| pos.threats());
        // Found when the first prunable move needs it.
        let mut check_info = None;
        for &mv in moves.as_slice() {
            let s = if G::encode_move(mv) == tt_move {
                tt_tactical = pos.is_tactical(mv);
                TT_MOVE_SCORE
            } else if pos.is_tactical(mv) {
                let band = if pos.see_at_least_with(self.eval, mv, 0) {
                    GOOD_TACTICAL_SCORE
                } else {
                    BAD_TACTICAL_SCORE
                };
                band + pos.tactical_score(mv)
                    + self.capture_history(color, pos, mv) / CAPTURE_HISTORY_ORDER_DIVISOR
            } else if killers[0] == Some(mv) {
                KILLER_SCORE
            } else if killers[1] == Some(mv) {
                KILLER_SCORE - 1
            } else if counter == G::encode_move(mv) {
                COUNTER_SCORE
            } else {
                let threat = threats.map_or(0, |t| pos.threat_order(&t, mv));
                self.quiet_history(color, pos, mv)
                    + threat * p.threat_order_weight
                    + self.continuation_history(&continuation, pos, mv) * p.cont_history_x100 / 100
            };
            scores.push(s);
        }

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets_tried = 0usize;
        let n = moves.len();
        let list = moves.as_mut_slice();
        for i in 0..n {
            pick_best(list, &mut scores, i);
            let mv = list[i];
            if Some(mv) == excluded {
                scores[i] = SKIPPED_SCORE;
                continue;
            }
            let quiet = !pos.is_tactical(mv);
            // Moves that give check are never pruned (so the check test
            // waits until a move would be), and reduced only where
            // `lmr_check_relief_x100` allows it.
            let may_prune = !in_check && best_score > -MATE_BOUND;
            let prune_depth = self.pruning_depth(depth, i);
            let quiet_move = QuietPruning {
                depth,
                prune_depth,
                alpha,
                eval,
                quiets_tried,
                moves_seen: i,
                improving,
                pv_node,
                quiet,
            };
            let late = may_prune && self.late_move_pruned(&quiet_move);
            if late && p.lmp_prunes_checks != 0 {
                scores[i] = SKIPPED_SCORE;
                continue;
            }
            let prunable = late
                || may_prune
                    && (self.futility_pruned(&quiet_move)
                        || self.history_pruned(&quiet_move, || {
                            self.quiet_history(color, pos, mv)
                                + self.continuation_history(&continuation, pos, mv)
                                    * p.cont_history_x100
                                    / 100
                        })
                        || self.capture_futility_pruned(pos, mv, &quiet_move)
                        || self.prunes_by_exchange(pos, mv, quiet, depth, prune_depth));
            if prunable
                && !self.gives_safe_check(
                    pos,
                    check_info.get_or_insert_with(|| pos.check_info()),
                    mv,
                )
            {
                scores[i] = SKIPPED_SCORE;
                continue;
            }
            let child = pos.play(mv);
            // A move that pruning would skip got here only as a safe check.
            let child_in_check = child.in_check();
            let unsafe_check = !prunable && child_in_check && self.check_is_unsafe(pos, mv);
            let gives_check = child_in_check && !unsafe_check;

            let mut extension = 0;
            if let Some(e) = entry
                && G::encode_move(mv) == tt_move
                && self.singular_candidate(&e, depth, ply, excluded.is_some())
            {
                let tt_score = score_from_tt(e.score, ply);
                let singular_beta = tt_score - p.se_margin * depth;
                self.excluded[ply] = Some(mv);
                let s = self.negamax(
                    pos,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    NodeKind {
                        null_allowed: false,
                        cut_node,
                        extend_check: true,
                    },
                );
                self.excluded[ply] = None;
                if self.stopped {
                    self.scores[ply] = scores;
                    return 0;
                }
                if s < singular_beta {
                    // Only the table move holds: search it deeper.
                    extension = 1 + (!pv_node && s < singular_beta - p.se_double_margin) as i32;
                } else if singular_beta >= beta {
                    // Another move holds beta as well: multi-cut.
                    self.scores[ply] = scores;
                    return singular_beta;
                } else if tt_score >= beta {
                    // The table move is not the only good one: less of it.
                    extension = -1;
                }
            }

            // The reply to a check is extended only where the check was
            // made far enough from the leaves, and not after a losing one.
            let no_check_extension = unsafe_check || depth < p.check_extension_min_depth;
            self.enter(rep_key);
            self.piece_to[ply] = self.move_slot(pos, mv);
            self.quiet_slot[ply] = self.quiet_slot_of(pos, mv);
            let new_depth = depth - 1 + extension;
            let score = if searched == 0 {
                -self.negamax(
                    &child,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    NodeKind::after_move(!pv_node && !cut_node)
                        .without_check_extension(no_check_extension),
                )
            } else {
                let bad_tactical = !quiet && scores[i] < KILLER_SCORE;
                let r = self.late_move_reduction(LateMove {
                    depth,
                    new_depth,
                    searched,
                    pv_node,
                    tt_pv: self.tt_pv[ply] && !likely_fail_low,
                    cut_node,
                    improving,
                    in_check,
                    gives_check,
                    quiet,
                    bad_tactical,
                    history: if quiet {
                        self.quiet_history(color, pos, mv)
                    } else {
                        0
                    },
                    // Read only where the reductions use it.
                    threat: match threats {
                        Some(t) if quiet && p.lmr_threat_x100 != 0 => pos.threat_order(&t, mv),
                        _ => 0,
                    },
                    tt_tactical,
                });
                let mut s = -self.negamax(
                    &child,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    NodeKind::after_move(true).without_check_extension(no_check_extension),
                );
                if s > alpha && r > 0 {
                    let research_depth =
                        new_depth + self.research_depth_change(s, best_score, new_depth);
                    // A re-search no deeper than the reduced one would only repeat it.
                    if research_depth > new_depth - r {
                        s = -self.negamax(
                            &child,
                            research_depth,
                            -alpha - 1,
                            -alpha,
                            ply + 1,
                            NodeKind::after_move(!cut_node)
                                .without_check_extension(no_check_extension),
                        );
                    }
                }
                if s > alpha && s < beta {
                    s = -self.negamax(
                        &child,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        NodeKind::after_move(false).without_check_extension(no_check_extension),
                    );
                }
                s
            };
            self.leave();
            if self.stopped {
                self.scores[ply] = scores;
                return 0;
            }
            searched += 1;
            if quiet {
                quiets_tried += 1;
            }

            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(mv);
                    line.extend_from_slice(&tail[0]);
                    if score >= beta {
                        let tried = Tried {
                            moves: &list[..i],
                            scores: &scores[..i],
                            only_searched: p.history_malus_searched_only != 0,
                        };
                        if quiet {
                            self.reward_quiet(pos, ply, depth, mv, tried);
                        }
                        let tactical_best = (!quiet).then_some(mv);
                        self.reward_capture(pos, depth, tactical_best, tried);
                        break;
                    }
                }
            }
        }
        self.scores[ply] = scores;
        if excluded.is_some() {
            // A singular test: no other move, or none searched, fails low.
            return if best_score == -INFINITY {
                alpha
            } else {
                best_score
            };
        }

        let bound = result_bound(best_score, original_alpha, beta);
        // The result says how far the evaluation was off, where the bound
        // allows and no tactic made the score.
        if !in_check
            && best_move.is_none_or(|m| !pos.is_tactical(m))
            && best_score.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.learn_correction(correction, depth, raw_eval, best_score);
        }
        if bound == Bound::Upper {
            self.reward_refutation(ply, depth);
        }
        let mv_bits = match best_move {
            Some(_) if bound == Bound::Upper && p.tt_fail_low_keeps_move != 0 => 0,
            Some(m) => G::encode_move(m),
            None => 0,
        };
        let stored = Stored {
            depth,
            bound,
            eval: (!in_check).then_some(raw_eval),
            pv: self.stays_on_pv(ply, depth, bound),
        };
        self.tt
            .store(key, mv_bits, score_to_tt(best_score, ply), stored);
        best_score
    }

    /// Whether the node at `ply`, searched to `depth` with the result's
    /// `bound`, counts as on a principal variation from now on: a node
    /// that fails low below one that does joins it (the move into it is
    /// probably good), and a node refuted by a child that is not on one
    /// leaves it (the line ends here).
    fn stays_on_pv(&mut self, ply: usize, depth: i32, bound: Bound) -> bool {
        let parent_on_pv = ply > 0 && self.tt_pv[ply - 1];
        let child_on_pv = self.tt_pv[ply + 1];
        let on_pv = &mut self.tt_pv[ply];
        if bound == Bound::Upper {
            *on_pv |= parent_on_pv && depth > TT_PV_MIN_DEPTH;
        } else if depth > TT_PV_MIN_DEPTH {
            *on_pv &= child_on_pv;
        }
        *on_pv
    }

    /// Whether internal iterative reduction may reduce a node of this
    /// kind (`iir_scope`: 0 PV nodes, 1 also expected cut nodes, 2 all).
    fn iir_applies(&self, pv_node: bool, cut_node: bool) -> bool {
        match self.params.iir_scope {
            0 => pv_node,
            1 => pv_node || cut_node,
            _ => true,
        }
    }

    /// Whether late move pruning skips the move described by `m` (if it
    /// does not give check, unless `lmp_prunes_checks`).
    fn late_move_pruned(&self, m: &QuietPruning) -> bool {
        let p = self.params;
        // Half as many tries where the position is not improving.
        let lmp_limit = (p.lmp_base + m.depth * m.depth) / (2 - m.improving as i32);
        let tried = if p.lmp_counts_all_moves != 0 {
            m.moves_seen
        } else {
            m.quiets_tried
        };
        !m.pv_node && m.quiet && m.depth <= p.lmp_max_depth && tried >= lmp_limit as usize
    }

    /// Whether futility pruning skips the move described by `m` (if it
    /// does not give check).
    fn futility_pruned(&self, m: &QuietPruning) -> bool {
        let p = self.params;
        !m.pv_node
            && m.quiet
            && m.prune_depth <= p.futility_max_depth
            && m.eval + p.futility_base + p.futility_margin * m.prune_depth <= m.alpha
    }

    /// Whether history pruning skips the move described by `m` (if it
    /// does not give check); `history` is asked only when it could.
    fn history_pruned(&self, m: &QuietPruning, history: impl FnOnce() -> i32) -> bool {
        let p = self.params;
        p.history_prune_margin != 0
            && !m.pv_node
            && m.quiet
            && m.prune_depth <= p.history_prune_max_depth
            && history() < -p.history_prune_margin * m.prune_depth.max(1)
    }

    /// Whether futility pruning skips the tactical move `mv` described by
    /// `m`: even what its exchange wins leaves the node below alpha.
    fn capture_futility_pruned(&self, pos: &G, mv: G::Move, m: &QuietPruning) -> bool {
        let p = self.params;
        if !G::SEE_IS_EXACT
            || p.futility_capture_margin == 0
            || m.pv_node
            || m.quiet
            || m.prune_depth > p.futility_max_depth
        {
            return false;
        }
        let margin = p.futility_base + p.futility_capture_margin * m.prune_depth;
        !pos.see_at_least_with(self.eval, mv, m.alpha - m.eval - margin)
    }

    /// The depth futility and the quiet exchange test read for the move
    /// at `index` of a node at `depth`: the node's, or with
    /// `prune_by_reduced_depth` what the table's reduction would leave.
    fn pruning_depth(&self, depth: i32, index: usize) -> i32 {
        if self.params.prune_by_reduced_depth == 0 {
            return depth;
        }
        let r = self.lmr[(depth as usize).min(63)][index.min(63)] / REDUCTION_UNIT;
        (depth - 1 - r).max(0)
    }

    /// Whether exchange pruning near the leaves skips `mv`, a move that
    /// loses material by exchange (if it does not give check).
    fn prunes_by_exchange(
        &self,
        pos: &G,
        mv: G::Move,
        quiet: bool,
        depth: i32,
        prune_depth: i32,
    ) -> bool {
        let p = self.params;
        if !G::SEE_IS_EXACT || depth > p.see_prune_max_depth {
            return false;
        }
        let threshold = if quiet {
            -p.see_prune_quiet_margin * prune_depth * prune_depth
        } else {
            -p.see_prune_capture_margin * depth
        };
        !pos.see_at_least_with(self.eval, mv, threshold)
    }

    /// The late move reduction of one move, in whole plies: the table's
    /// value adjusted by the node and the move, never below depth 1 and
    /// never an extension (safe for any `lmr_min_depth`, even when
    /// `new_depth` is 0).
    fn late_move_reduction(&self, m: LateMove) -> i32 {
        let p = &self.params;
        let relief = if m.gives_check {
            p.lmr_check_relief_x100
        } else if m.quiet {
            0
        } else if m.bad_tactical {
            p.lmr_bad_tactical_relief_x100
        } else {
            return 0;
        };
        if relief >= NEVER_REDUCED_RELIEF
            || m.depth < p.lmr_min_depth
            || m.searched < p.lmr_full_moves as usize
            || m.in_check
        {
            return 0;
        }
        let mut r = self.lmr[(m.depth as usize).min(63)][m.searched.min(63)];
        r += REDUCTION_UNIT * (!m.pv_node as i32 - m.improving as i32);
        if m.tt_pv {
            r -= p.lmr_tt_pv_x100 * REDUCTION_UNIT / 100;
        }
        r += (p.lmr_cut_node_x100 * m.cut_node as i32 - relief) * REDUCTION_UNIT / 100;
        if m.quiet && m.tt_tactical {
            r += p.lmr_tt_tactical_x100 * REDUCTION_UNIT / 100;
        }
        r -= m.history * REDUCTION_UNIT / p.lmr_history_divisor;
        r -= m.threat * p.lmr_threat_x100 * REDUCTION_UNIT / 100;
        (r / REDUCTION_UNIT).min(m.new_depth - 1).max(0)
    }

    /// `lmr_research_adjust`: how many plies deeper (or, negative,
    /// shallower) than `new_depth` a reduced move that scored `score`, above
    /// alpha, is searched again, against the node's `best` so far.
    fn research_depth_change(&self, score: i32, best: i32, new_depth: i32) -> i32 {
        if self.params.lmr_research_adjust == 0 {
            return 0;
        }
        if score > best + RESEARCH_DEEPER_BASE + RESEARCH_DEEPER_PER_DEPTH * new_depth {
            1
        } else if score < best + RESEARCH_SHALLOWER_MARGIN {
            -1
        } else {
            0
        }
    }

    /// Whether `mv` gives check and, where unsafe checks count as quiet,
    /// does not lose material by exchange.
    fn gives_safe_check(&self, pos: &G, check_info: &G::CheckInfo, mv: G::Move) -> bool {
        pos.gives_check_with(check_info, mv) && !self.check_is_unsafe(pos, mv)
    }

    /// Whether the checking move `mv` counts as quiet because it loses
    /// material by exchange (`unsafe_checks_are_quiet`).
    fn check_is_unsafe(&self, pos: &G, mv: G::Move) -> bool {
        self.params.unsafe_checks_are_quiet != 0
            && G::SEE_IS_EXACT
            && !pos.see_at_least_with(self.eval, mv, 0)
    }

    /// ProbCut: a tactical move whose exchange gains enough, and which
    /// holds `beta + probcut_margin` in quiescence and then in a search 4
    /// plies shallower, very likely holds beta here: the node is cut
    /// (`Some(score)`, also stored in the table).
    fn probcut(
        &mut self,
        pos: &G,
        entry: &Option<super::tt::Entry>,
        depth: i32,
        beta: i32,
        eval: i32,
        ply: usize,
    ) -> Option<i32> {
        let probcut_beta = beta + self.params.probcut_margin;
        // A table result this deep already says the cut would fail.
        if let Some(e) = entry
            && e.depth > depth - PROBCUT_REDUCTION
            && score_from_tt(e.score, ply) < probcut_beta
        {
            return None;
        }
        let mut moves = G::Moves::default();
        pos.tactical_moves(&self.history, &mut moves);
        let rep_key = pos.repetition_key();
        for &mv in moves.as_slice() {
            if !pos.see_at_least_with(self.eval, mv, probcut_beta - eval) {
                continue;
            }
            let child = pos.play(mv);
            self.enter(rep_key);
            self.piece_to[ply] = self.move_slot(pos, mv);
            self.quiet_slot[ply] = NO_QUIET_SLOT;
            let mut score = -self.qsearch(&child, -probcut_beta, -probcut_beta + 1, ply + 1, 0);
            if score >= probcut_beta && !self.stopped {
                score = -self.negamax(
                    &child,
                    depth - PROBCUT_REDUCTION,
                    -probcut_beta,
                    -probcut_beta + 1,
                    ply + 1,
                    NodeKind::after_move(false),
                );
            }
            self.leave();
            if self.stopped {
                return Some(0);
            }
            if score >= probcut_beta {
                let key = self.tt_key(pos);
                let stored = score_to_tt(score, ply);
                let result = Stored {
                    depth: depth - PROBCUT_REDUCTION + 1,
                    bound: Bound::Lower,
                    eval: None,
                    pv: self.tt_pv[ply],
                };
                self.tt.store(key, G::encode_move(mv), stored, result);
                return Some(score);
            }
        }
        None
    }

    /// Whether the table entry `e` makes its move a singular-extension
    /// candidate here: deep enough and a lower bound or exact, not a
    /// mate, and not inside another singular test.
    fn singular_candidate(
        &self,
        e: &super::tt::Entry,
        depth: i32,
        ply: usize,
        excluding: bool,
    ) -> bool {
        !excluding
            && depth >= self.params.se_min_depth
            && (ply as i32) < 2 * self.root_depth
            && e.depth >= depth - 3
            && matches!(e.bound, Bound::Lower | Bound::Exact)
            && e.score.abs() < MATE_BOUND
    }

    /// The correction history slot of `pos`, if its game has a structure.
    #[inline]
    fn correction_slot(&self, pos: &G) -> Option<usize> {
        if self.params.correction_max_cp == 0 {
            return None;
        }
        let key = pos.structure_key()?;
        Some(
            pos.side_to_move().index() * CORRECTION_SLOTS + (key as usize & (CORRECTION_SLOTS - 1)),
        )
    }

    /// The static evaluation as it stands, and corrected by what the
    /// search learned about positions of the same structure.
    /// `correction` is the position's slot ([`Worker::correction_slot`]).
    fn static_eval(&self, pos: &G, correction: Option<usize>) -> (i32, i32) {
        let raw = pos.evaluate_with(self.eval);
        (raw, self.corrected_eval(correction, raw))
    }

    /// What passing costs in evaluation (`nmp_eval_after_pass`): the raw
    /// evaluations of the node and of its null-move child, summed, leave
    /// only the terms that favour whoever is to move (a tempo bonus).
    /// Where they are large, a null move below beta plus them fails.
    fn passing_cost(&self, raw_eval: i32, null: &G) -> i32 {
        if self.params.nmp_eval_after_pass == 0 {
            return 0;
        }
        (raw_eval + null.evaluate_with(self.eval)).max(0)
    }

    /// The evaluation `raw` corrected by the correction history's slot.
    fn corrected_eval(&self, correction: Option<usize>, raw: i32) -> i32 {
        let corrected = match correction {
            Some(slot) => raw + self.histories.correction[slot] / CORRECTION_GRAIN,
            None => raw,
        };
        corrected.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// A search result `score` at `depth` says the raw evaluation `raw`
    /// was off by `score - raw`: move the correction towards it.
    fn learn_correction(&mut self, correction: Option<usize>, depth: i32, raw: i32, score: i32) {
        let Some(slot) = correction else {
            return;
        };
        let weight = (depth + 1).min(self.params.correction_max_weight);
        let limit = self.params.correction_max_cp * CORRECTION_GRAIN;
        let target = ((score - raw) * CORRECTION_GRAIN).clamp(-limit, limit);
        let entry = &mut self.histories.correction[slot];
        *entry = ((*entry as i64 * (CORRECTION_WEIGHT_SCALE - weight) as i64
            + target as i64 * weight as i64)
            / CORRECTION_WEIGHT_SCALE as i64) as i32;
    }

    /// The piece-to slot of `mv` (none if the game has no such slots).
    #[inline]
    fn move_slot(&self, pos: &G, mv: G::Move) -> usize {
        if G::PIECE_TO_SIZE == 0 {
            NO_PIECE_TO
        } else {
            pos.piece_to_index(mv)
        }
    }

    /// The butterfly history slot of `mv` if it is quiet.
    #[inline]
    fn quiet_slot_of(&self, pos: &G, mv: G::Move) -> usize {
        if pos.is_tactical(mv) {
            NO_QUIET_SLOT
        } else {
            pos.side_to_move().index() * G::HISTORY_SIZE + pos.history_index(mv)
        }
    }

    /// `eval_diff_history`: the quiet move into the node at `ply` is
    /// rewarded by how much its mover's static evaluation rose, the node's
    /// `eval` (its opponent's view) against the parent's. A parent in check
    /// has no evaluation, and the root's is not kept.
    fn reward_eval_change(&mut self, ply: usize, depth: i32, eval: i32) {
        let weight = self.params.eval_diff_history;
        if weight == 0 || ply < 2 {
            return;
        }
        let slot = self.quiet_slot[ply - 1];
        let before = self.eval_stack[ply - 1];
        if slot == NO_QUIET_SLOT || before == -INFINITY {
            return;
        }
        let bonus =
            (-(before + eval) * depth * weight).clamp(-EVAL_DIFF_BONUS_MAX, EVAL_DIFF_BONUS_MAX);
        self.histories.quiet[slot] = with_gravity(self.histories.quiet[slot], bonus);
    }

    /// `fail_low_prior_bonus`: every reply to the quiet move into the node
    /// at `ply`, searched to `depth`, failed low, so that move gets part of
    /// a cutoff's bonus.
    fn reward_refutation(&mut self, ply: usize, depth: i32) {
        let percent = self.params.fail_low_prior_bonus;
        if percent == 0 || ply == 0 {
            return;
        }
        let slot = self.quiet_slot[ply - 1];
        if slot == NO_QUIET_SLOT {
            return;
        }
        let bonus = history_bonus(depth) * percent / 100;
        self.histories.quiet[slot] = with_gravity(self.histories.quiet[slot], bonus);
    }

    #[inline]
    fn quiet_history(&self, color: usize, pos: &G, mv: G::Move) -> i32 {
        self.histories.quiet[color * G::HISTORY_SIZE + pos.history_index(mv)]
    }

    /// The quiet reply that last cut off after the move into this node
    /// (encoded; 0: none).
    #[inline]
    fn counter_move(&self, ply: usize) -> u32 {
        match ply.checked_sub(1).map(|p| self.piece_to[p]) {
            Some(prev) if prev != NO_PIECE_TO => self.histories.counter[prev],
            _ => 0,
        }
    }

    #[inline]
    fn capture_slot(&self, color: usize, pos: &G, mv: G::Move) -> usize {
        let slot = if G::PIECE_TO_SIZE > 0 {
            pos.piece_to_index(mv)
        } else {
            pos.history_index(mv)
        };
        color * capture_slots::<G>() + slot
    }

    #[inline]
    fn capture_history(&self, color: usize, pos: &G, mv: G::Move) -> i32 {
        self.histories.capture[self.capture_slot(color, pos, mv)]
    }

    /// A cutoff: a bonus for the tactical move that made it (`best`, if it
    /// was tactical) and a malus for the tactical moves tried before it.
    fn reward_capture(
        &mut self,
        pos: &G,
        depth: i32,
        best: Option<G::Move>,
        before: Tried<G::Move>,
    ) {
        let color = pos.side_to_move().index();
        let bonus = history_bonus(depth);
        if let Some(mv) = best {
            let slot = self.capture_slot(color, pos, mv);
            self.histories.capture[slot] = with_gravity(self.histories.capture[slot], bonus);
        }
        for m in before.moves() {
            if pos.is_tactical(m) {
                let slot = self.capture_slot(color, pos, m);
                self.histories.capture[slot] = with_gravity(self.histories.capture[slot], -bonus);
            }
        }
    }

    /// A quiet move caused a cutoff: killer, history bonus, and a malus for
    /// the quiet moves tried before it.
    fn reward_quiet(
        &mut self,
        pos: &G,
        ply: usize,
        depth: i32,
        mv: G::Move,
        before: Tried<G::Move>,
    ) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        if ply > 0 && self.piece_to[ply - 1] != NO_PIECE_TO {
            self.histories.counter[self.piece_to[ply - 1]] = G::encode_move(mv);
        }
        let color = pos.side_to_move().index();
        let bonus = history_bonus(depth);
        let mut update = |m: G::Move, delta: i32| {
            let slot = &mut self.histories.quiet[color * G::HISTORY_SIZE + pos.history_index(m)];
            *slot = with_gravity(*slot, delta);
        };
        update(mv, bonus);
        for m in before.moves() {
            if !pos.is_tactical(m) {
                update(m, -bonus);
            }
        }
        self.reward_continuation(pos, ply, bonus, mv, before);
    }

    /// The rows of the continuation tables for a node at `ply`: one per
    /// earlier move that has a piece-to slot (none while
    /// `cont_history_x100` is 0).
    fn continuation_rows(&self, ply: usize) -> [Option<usize>; CONTINUATION_PLIES] {
        std::array::from_fn(|i| {
            let back = i + 1;
            let earlier = *self.piece_to.get(ply.checked_sub(back)?)?;
            (self.params.cont_history_x100 != 0 && earlier != NO_PIECE_TO)
                .then(|| (i * G::PIECE_TO_SIZE + earlier) * G::PIECE_TO_SIZE)
        })
    }

    /// The continuation histories of the quiet move `mv`, summed over `rows`.
    #[inline]
    fn continuation_history(
        &self,
        rows: &[Option<usize>; CONTINUATION_PLIES],
        pos: &G,
        mv: G::Move,
    ) -> i32 {
        if rows.iter().all(Option::is_none) {
            return 0;
        }
        let slot = pos.piece_to_index(mv);
        rows.iter()
            .flatten()
            .map(|row| self.histories.continuation[row + slot] as i32)
            .sum()
    }

    /// A quiet cutoff by `mv`: its continuation histories get `bonus`,
    /// the quiet moves tried before it as much malus.
    fn reward_continuation(
        &mut self,
        pos: &G,
        ply: usize,
        bonus: i32,
        mv: G::Move,
        before: Tried<G::Move>,
    ) {
        let rows = self.continuation_rows(ply);
        if rows.iter().all(Option::is_none) {
            return;
        }
        let tried_quiets = before.moves().filter(|&m| !pos.is_tactical(m));
        for (m, delta) in std::iter::once((mv, bonus)).chain(tried_quiets.map(|m| (m, -bonus))) {
            let slot = pos.piece_to_index(m);
            for row in rows.iter().flatten() {
                let cell = &mut self.histories.continuation[row + slot];
                // Gravity keeps the value within +-HISTORY_MAX, inside i16.
                *cell = with_gravity(*cell as i32, delta) as i16;
            }
        }
    }

    /// Whether this quiescence ply tries quiet checks (out of check; only
    /// in games that tell checks cheaply).
    fn tries_quiet_checks(&self, qs_depth: i32) -> bool {
        G::CHECK_TEST_IS_CHEAP && qs_depth == 0 && self.params.qsearch_checks != 0
    }

    /// Quiescence search; `qs_depth` counts its plies, so that it ends
    /// within `qsearch_max_depth` plies and `qsearch_max_moves` moves per
    /// node even where captures never run out (crowded boards).
    fn qsearch(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize, qs_depth: i32) -> i32 {
        self.pv[ply].clear();
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        self.unflushed_nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        if ply >= MAX_PLY - 1 || qs_depth >= self.params.qsearch_max_depth {
            return pos.evaluate_with(self.eval);
        }
        // The table: a bound that settles the node cuts it (at null-window
        // nodes), its move goes first, and its evaluation and bound serve
        // as stand pat. Quiescence's own entries have depth 0, and do not
        // cut where quiet checks would be tried.
        let writes_table = self.params.qsearch_tt_store != 0;
        let (hash, rep_key) = pos.hash_and_repetition_key();
        let key = (writes_table || self.params.qsearch_tt_probe != 0)
            .then(|| self.history_sum.key_from_hash::<G>(hash));
        let entry = key.and_then(|k| self.tt.probe(k));
        let min_cut_depth = i32::from(self.tries_quiet_checks(qs_depth));
        if let Some(e) = entry {
            let s = score_from_tt(e.score, ply);
            if beta - alpha == 1
                && e.depth >= min_cut_depth
                && bound_settles(e.bound, s, alpha, beta)
            {
                return s;
            }
        }
        let tt_move = entry.map_or(0, |e| e.mv);
        // In check every evasion is tried (and mate is seen); otherwise only
        // tactical moves, and stalemates are left to the main search.
        let in_check = pos.in_check();
        let mut moves = G::Moves::default();
        let mut raw_eval = None;
        let mut best = if in_check {
            pos.legal_moves(&self.history, &mut moves);
            if moves.is_empty() {
                return if pos.no_moves_loses() {
                    -MATE + ply as i32
                } else {
                    0
                };
            }
            -INFINITY
        } else {
            // Stand pat first: a cutoff needs no moves.
            let correction = self.correction_slot(pos);
            let (raw, eval) = match entry.and_then(|e| e.eval) {
                Some(raw) => (raw, self.corrected_eval(correction, raw)),
                None => self.static_eval(pos, correction),
            };
            raw_eval = Some(raw);
            let stand_pat = match entry {
                Some(e) => refine_by_table(eval, score_from_tt(e.score, ply), e.bound),
                None => eval,
            };
            if stand_pat >= beta {
                if writes_table && let Some(k) = key {
                    self.store_quiescence(k, 0, stand_pat, Bound::Lower, raw_eval, ply);
                }
                return stand_pat;
            }
            if self.tries_quiet_checks(qs_depth) {
                pos.legal_moves(&self.history, &mut moves);
            } else {
                pos.tactical_moves(&self.history, &mut moves);
            }
            stand_pat
        };
        let original_alpha = alpha;
        alpha = alpha.max(best);

        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        // A capture must not lose material, and where the exchange is
        // exact it must also gain enough to bring stand pat near alpha.
        let mut see_threshold = self.params.qsearch_see_threshold;
        // Not while alpha is a mate score: a checking capture may still mate.
        if G::SEE_IS_EXACT && !in_check && alpha.abs() < MATE_BOUND {
            see_threshold = see_threshold.max(alpha - best - self.params.qsearch_delta_margin);
        }
        let check_info = (!in_check && self.tries_quiet_checks(qs_depth)).then(|| pos.check_info());
        for &mv in moves.as_slice() {
            // Out of check every move is tried; otherwise the game's
            // tactical moves that pass the exchange test.
            let s = if tt_move != 0
                && G::encode_move(mv) == tt_move
                && (in_check || pos.is_tactical(mv))
            {
                TT_MOVE_SCORE
            } else if pos.is_tactical(mv) {
                if in_check || pos.see_at_least_with(self.eval, mv, see_threshold) {
                    GOOD_TACTICAL_SCORE + pos.tactical_score(mv)
                } else {
                    i32::MIN
                }
            } else if in_check {
                0
            } else if let Some(info) = &check_info
                && pos.gives_check_with(info, mv)
                && pos.see_at_least_with(self.eval, mv, 0)
            {
                QUIET_CHECK_SCORE
            } else {
                i32::MIN
            };
            scores.push(s);
        }
        let n = moves.len();
        let list = moves.as_mut_slice();
        for i in 0..n {
            pick_best(list, &mut scores, i);
            if scores[i] == i32::MIN {
                break;
            }
            // The best few moves by ordering; one reply at least, so that
            // a mate is still seen.
            if i as i32 >= self.params.qsearch_max_moves
                && best > -MATE_BOUND
                && scores[i] != QUIET_CHECK_SCORE
            {
                if in_check || !self.tries_quiet_checks(qs_depth) {
                    break;
                }
                // The quiet checks come after the captures left out.
                continue;
            }
            let mv = list[i];
            let child = pos.play(mv);
            self.enter(rep_key);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, qs_depth + 1);
            self.leave();
            if self.stopped {
                self.scores[ply] = scores;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(mv);
                    line.extend_from_slice(&tail[0]);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.scores[ply] = scores;
        if writes_table && let Some(k) = key {
            let bound = result_bound(best, original_alpha, beta);
            let mv = match (bound, self.pv[ply].first()) {
                (Bound::Upper, _) | (_, None) => 0,
                (_, Some(&mv)) => G::encode_move(mv),
            };
            self.store_quiescence(k, mv, best, bound, raw_eval, ply);
        }
        best
    }

    /// Stores a quiescence result at depth 0.
    fn store_quiescence(
        &self,
        key: u64,
        mv: u32,
        score: i32,
        bound: Bound,
        eval: Option<i32>,
        ply: usize,
    ) {
        let result = Stored {
            depth: 0,
            bound,
            eval,
            pv: false,
        };
        self.tt.store(key, mv, score_to_tt(score, ply), result);
    }
}

#[cfg(test)]
mod tests {
    use super::super::params::PARAM_SPECS;
    use super::super::{Config, Limits, Memory, Resources, Score, SearchKind, Shared, search};
    use crate::game::{Game, GameState, MoveBuffer};
    use crate::variants::nemoroth::Nemoroth;
    use crate::variants::nimrod::Nimrod;

    /// A middle-game position with captures, checks and quiet moves, so
    /// that every pruning and reduction rule can fire.
    const MIDDLE_GAME: [&str; 8] = [
        "e2e4", "d7d5", "e4d5", "g8f6", "g1f3", "f6d5", "d2d4", "b7b6",
    ];

    /// Searches with `config` by `kind` and checks the answer is a legal
    /// move.
    fn searches_soundly(config: &Config, kind: SearchKind, limits: &Limits, what: &str) {
        let state = GameState::<Nimrod>::from_setup(None, &MIDDLE_GAME).unwrap();
        let shared = Shared::new();
        shared.prepare(limits);
        let mut memory = Memory::new(kind, 1).unwrap();
        let resources = Resources {
            config,
            eval: <Nimrod as crate::game::Game>::default_eval_params(),
            shared: &shared,
        };
        let outcome = search(&state, limits, resources, &mut memory, &|_| {});
        let best = outcome.best.unwrap_or_else(|| panic!("{what}: no move"));
        assert!(
            state.legal_moves().as_slice().contains(&best),
            "{what}: illegal best move"
        );
    }

    /// An alpha-beta search with the default options and weights.
    fn search_default<G: Game>(state: &GameState<G>, limits: &Limits) -> super::Outcome<G::Move> {
        search_with(&Config::default(), state, limits)
    }

    /// An alpha-beta search with `config` and the default weights.
    fn search_with<G: Game>(
        config: &Config,
        state: &GameState<G>,
        limits: &Limits,
    ) -> super::Outcome<G::Move> {
        let shared = Shared::new();
        shared.prepare(limits);
        let mut memory = Memory::new(SearchKind::AlphaBeta, 1).unwrap();
        let resources = Resources {
            config,
            eval: G::default_eval_params(),
            shared: &shared,
        };
        search(state, limits, resources, &mut memory, &|_| {})
    }

    /// Issue 14, F6: depth 1 completes within a modest node budget on
    /// crowded positions where every move captures or checks.
    #[test]
    fn depth_one_completes_on_crowded_boards() {
        fn completes<G: crate::game::Game>(fen: &str) {
            let state = GameState::new(G::from_fen(fen).unwrap());
            let limits = Limits {
                depth: Some(1),
                nodes: Some(CROWDED_NODE_BUDGET),
                ..Limits::default()
            };
            let outcome = search_default(&state, &limits);
            assert_eq!(outcome.depth, 1, "{fen}: {} nodes", outcome.nodes);
        }
        const CROWDED_NODE_BUDGET: u64 = 1_000_000;
        completes::<Nimrod>("qqqqkqqq/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQKQQQ w - - 0 1");
        completes::<Nemoroth>(
            "zzzzzzzz/zzzzzzzz/zzzzzzzz/zzzzzzzz/ZZZZZZZZ/ZZZZZZZZ/ZZZZZZZZ/ZZZZZZZZ a - 0",
        );
        completes::<Nemoroth>(
            "llllllll/zzzzzzzz/zzzzzzzz/zzzzzzzz/ZZZZZZZZ/ZZZZZZZZ/ZZZZZZZZ/LLLLLLLL a - 0",
        );
    }

    #[test]
    fn table_scores_refine_the_evaluation_only_beyond_it() {
        use super::{MATE, refine_by_table};
        use crate::search::tt::Bound;
        assert_eq!(refine_by_table(10, 50, Bound::Lower), 50);
        assert_eq!(refine_by_table(10, -50, Bound::Lower), 10);
        assert_eq!(refine_by_table(10, -50, Bound::Upper), -50);
        assert_eq!(refine_by_table(10, 50, Bound::Upper), 10);
        assert_eq!(refine_by_table(10, -3, Bound::Exact), -3);
        assert_eq!(refine_by_table(10, 99, Bound::None), 10);
        assert_eq!(refine_by_table(10, MATE - 5, Bound::Lower), 10);
    }

    /// Issue 15: in Nemoroth a repeated configuration is illegal, so a
    /// position's value depends on the path to it. Alabaster mates in 3
    /// with e3f2 because Obsidian's Go Away may not return to h2.
    #[test]
    fn path_dependent_mate_in_three_is_found() {
        let state =
            GameState::new(Nemoroth::from_fen("w1M5/h7/1gphpH1G2/8/8/4A3/7a/4A3 a - 350").unwrap());
        let limits = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        let outcome = search_default(&state, &limits);
        let best = outcome.best.map(|m| state.position.move_to_string(m));
        assert_eq!(best.as_deref(), Some("e3f2"));
        assert_eq!(Score::from_internal(outcome.score), Score::Mate(3));
    }

    /// Every Black move allows the quiet mate Qd8: a depth-1 search sees
    /// it only where quiescence tries quiet checks.
    #[test]
    fn quiescence_checks_see_a_quiet_mate_at_the_horizon() {
        let state = GameState::new(Nimrod::from_fen("7k/1p6/6K1/8/8/8/8/3Q4 b - - 0 1").unwrap());
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let score_with = |checks: &str| {
            let mut config = Config::default();
            config.params.set("qsearch_checks", checks).unwrap();
            Score::from_internal(search_with(&config, &state, &limits).score)
        };
        assert_eq!(score_with("1"), Score::Mate(-1));
        assert!(matches!(score_with("0"), Score::Cp(_)));
    }

    /// The ordering, pruning and reduction options of sessions 19 to 22
    /// and 43 (history pruning, the aspiration fail-high reduction) each
    /// change the tree, and a search with any of them stays reproducible.
    #[test]
    fn ordering_and_pruning_options_change_the_tree_reproducibly() {
        let state = GameState::<Nimrod>::from_setup(None, &MIDDLE_GAME).unwrap();
        let limits = Limits {
            depth: Some(10),
            ..Limits::default()
        };
        let default_nodes = search_default(&state, &limits).nodes;
        for (name, value) in [
            ("eval_diff_history", "8"),
            ("lmp_counts_all_moves", "1"),
            ("fail_low_prior_bonus", "100"),
            ("lmr_research_adjust", "1"),
            ("lmr_tt_tactical_x100", "100"),
            ("threat_order_weight", "0"),
            ("lmr_threat_x100", "100"),
            ("futility_capture_margin", "200"),
            ("cont_history_x100", "100"),
            ("history_prune_margin", "2000"),
            ("aspiration_fail_high_reduce", "1"),
        ] {
            let mut config = Config::default();
            config.params.set(name, value).unwrap();
            let first = search_with(&config, &state, &limits);
            let again = search_with(&config, &state, &limits);
            assert_eq!(
                (first.nodes, first.best),
                (again.nodes, again.best),
                "{name}"
            );
            assert_ne!(first.nodes, default_nodes, "{name} changes nothing");
        }
    }

    /// `history_carry_x100`: the histories one search leaves shape the
    /// next search in the same memory (the next move of a game), and
    /// the pair of searches stays reproducible; 0 starts them afresh.
    #[test]
    fn carried_histories_shape_the_next_search_reproducibly() {
        let first = GameState::<Nimrod>::from_setup(None, &MIDDLE_GAME).unwrap();
        let limits = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        let second_search_nodes = |carry: &str| {
            let mut config = Config::default();
            config.params.set("history_carry_x100", carry).unwrap();
            let shared = Shared::new();
            shared.prepare(&limits);
            let mut memory = Memory::new(SearchKind::AlphaBeta, 1).unwrap();
            let resources = || Resources {
                config: &config,
                eval: Nimrod::default_eval_params(),
                shared: &shared,
            };
            let outcome = search(&first, &limits, resources(), &mut memory, &|_| {});
            let mut next = first.clone();
            next.play(outcome.best.expect("a move"));
            shared.prepare(&limits);
            let reply = search(&next, &limits, resources(), &mut memory, &|_| {});
            (reply.nodes, reply.best)
        };
        let afresh = second_search_nodes("0");
        let carried = second_search_nodes("50");
        assert_eq!(carried, second_search_nodes("50"));
        assert_ne!(
            carried.0, afresh.0,
            "carrying the histories changes nothing"
        );
    }

    /// Issue 14, F2: every parameter at either end of its advertised range
    /// gives a sound search, in alpha-beta and in MCTS.
    #[test]
    fn every_parameter_is_safe_at_both_ends_of_its_range() {
        let alphabeta_limits = Limits {
            depth: Some(6),
            nodes: Some(30_000),
            ..Limits::default()
        };
        let mcts_limits = Limits {
            nodes: Some(300),
            ..Limits::default()
        };
        for spec in PARAM_SPECS {
            for value in [spec.min, spec.max] {
                let mut config = Config::default();
                config.params.set(spec.name, &value.to_string()).unwrap();
                let what = format!("{}={value}", spec.name);
                searches_soundly(&config, SearchKind::AlphaBeta, &alphabeta_limits, &what);
                searches_soundly(&config, SearchKind::Mcts, &mcts_limits, &what);
            }
        }
    }
}
