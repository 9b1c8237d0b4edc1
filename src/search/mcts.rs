//! PUCT Monte Carlo tree search for any [`Game`] (`Search` = `mcts`).
//!
//! - **Tree.** Every expanded position is one [`Node`] in a concurrent map
//!   (`dashmap`) keyed by [`Game::hash`], so transpositions share one node
//!   (its moves, priors and statistics). A node owns its edges; an edge
//!   caches a pointer to its child node once the child exists. Visit counts
//!   and value sums live on the edges (per path) and on the nodes (over all
//!   paths); selection reads the edges.
//! - **Selection** is PUCT: `Q + cpuct * P * sqrt(N) / (1 + n)`, with
//!   virtual loss for visits in flight (several threads share one tree), and
//!   first-play urgency `Q(parent) - fpu` for unvisited moves.
//! - **Leaves** are valued by a small quiescence search (at most
//!   `mcts_qsearch_nodes` nodes; 0 = the static evaluation alone), mapped to
//!   `2 / (1 + exp(-cp / mcts_value_scale)) - 1` in [-1, 1]. No playouts.
//! - **Priors** are a softmax (temperature `mcts_prior_temp_x100`) of move
//!   ordering logits: a bonus for tactical moves that do not lose material
//!   (ranked by the game's `tactical_score`), and the one-ply static
//!   evaluation of the move (`mcts_prior_eval_x100` per pawn).
//! - **Proofs.** A node without legal moves is a proven loss (or draw, when
//!   the game says so); a node with a child proven lost for the opponent is
//!   a proven win, and one whose children are all proven takes the best of
//!   them. Proofs carry the distance in plies, so the root reports
//!   `score mate N`. Rule draws (`is_rule_draw`, which reads the path) end a
//!   playout as a draw but are never stored, since they depend on the path.
//! - **History.** Each playout keeps a [`History`] of its path. In games
//!   whose legality reads the history (Nemoroth: no configuration may
//!   repeat), the value and the proof of a position depend on the path to
//!   it, so a node is keyed by the position's hash plus the set of earlier
//!   positions ([`HistorySum`]) and its moves are the legal ones on that
//!   path; every child is tested for having no legal reply when it is
//!   expanded, so that mates that rest on the repetition rule are proven.
//!   Edges still remember their child's repetition key, and selection
//!   skips edges whose key already occurred on the path.
//! - **Reuse.** The tree is kept (in the engine's [`super::Memory`]) between the searches of a
//!   game. A new search whose root is the old root or a node one or two
//!   plies below it keeps that node's subtree (everything reachable from
//!   it); any other root starts a fresh tree. `ucinewgame` clears it.
//! - **Memory.** The tree may use `Hash` MB (nodes and edges counted in
//!   bytes). When full, no node is added: playouts go on through the
//!   existing tree and value the leaf they reach without storing it. So a
//!   long `go infinite` keeps improving the statistics in constant memory.
//!   `hashfull` reports the share of the budget in use.

use super::time::{self, Budget};
use super::{
    Config, HistorySum, Info, Limits, MATE, MATE_BOUND, MAX_PLY, Outcome, Resources,
    SEARCH_STACK_BYTES, Score, Shared,
};
use crate::game::{Game, GameState, History, MoveBuffer};
use dashmap::DashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, AtomicPtr, AtomicU32, AtomicU64};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Fixed-point unit of value sums (a value of 1.0).
const VALUE_ONE: f64 = 65_536.0;
/// No proof yet.
const UNPROVEN: i32 = i32::MIN;
/// Playouts never go deeper than this (cycles in games without a
/// repetition rule, very long forced lines).
const MAX_DEPTH: usize = MAX_PLY - 8;
/// Bytes a map entry costs besides the node and its edges (estimate).
const MAP_ENTRY_BYTES: usize = 32;
/// How often the main thread reports without a change of depth.
const REPORT_INTERVAL: Duration = Duration::from_secs(1);

/// One move of a node (24 bytes for a 4-byte move).
///
/// Virtual loss is folded into the statistics: a playout in flight adds
/// `mcts_virtual_loss` visits of value -1 on the way down and replaces
/// them by its real visit on the way up.
struct Edge<M> {
    child: AtomicPtr<Node<M>>,
    visits: AtomicU32,
    /// Sum of values from the mover's view, an `f32` in its bits.
    value: AtomicU32,
    prior: f32,
    mv: M,
}

impl<M> Edge<M> {
    fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    fn value_sum(&self) -> f64 {
        f32::from_bits(self.value.load(Relaxed)) as f64
    }

    fn add_value(&self, delta: f64) {
        let _ = self.value.fetch_update(Relaxed, Relaxed, |bits| {
            Some((f32::from_bits(bits) + delta as f32).to_bits())
        });
    }

    /// Mean value from the mover's view (visits > 0).
    fn q(&self) -> f64 {
        self.value_sum() / self.visits().max(1) as f64
    }
}

/// One expanded position.
struct Node<M> {
    key: u64,
    visits: AtomicU32,
    /// Sum of values from the side to move's view, fixed point.
    value: AtomicI64,
    /// `UNPROVEN`, or a proven score in plies (`MATE - k`: win in k plies,
    /// `-(MATE - k)`: loss, 0: draw), from the side to move's view.
    proof: AtomicI32,
    edges: Box<[Edge<M>]>,
    /// Repetition keys of the children, per edge; only for games whose
    /// legality reads the history (empty otherwise).
    child_keys: Box<[u64]>,
}

impl<M> Node<M> {
    /// A node with no edges: a proven end (mated, no moves) or a placeholder.
    fn leaf(key: u64, proof: i32) -> Self {
        Self::new(key, proof, Box::new([]), Box::new([]))
    }

    fn new(key: u64, proof: i32, edges: Box<[Edge<M>]>, child_keys: Box<[u64]>) -> Self {
        Node {
            key,
            visits: AtomicU32::new(0),
            value: AtomicI64::new(0),
            proof: AtomicI32::new(proof),
            edges,
            child_keys,
        }
    }

    fn q(&self) -> f64 {
        let n = self.visits.load(Relaxed);
        if n == 0 {
            0.0
        } else {
            self.value.load(Relaxed) as f64 / VALUE_ONE / n as f64
        }
    }

    fn bytes(&self) -> usize {
        std::mem::size_of::<Node<M>>()
            + self.edges.len() * std::mem::size_of::<Edge<M>>()
            + self.child_keys.len() * 8
            + MAP_ENTRY_BYTES
    }
}

/// The keys are already hashes: use them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

type NodeMap<M> = DashMap<u64, Box<Node<M>>, BuildHasherDefault<KeyHasher>>;

/// The search tree of one game type, kept between searches.
///
/// Nodes are boxed and only removed between searches (by [`Tree::reroot`]
/// or by dropping the tree), and then only together with every node that
/// can reach them, so the raw child pointers in the edges stay valid while
/// any search runs.
pub struct Tree<G: Game> {
    map: NodeMap<G::Move>,
    bytes: AtomicUsize,
    budget: usize,
    root: Option<u64>,
    _game: PhantomData<G>,
}

impl<G: Game> Tree<G> {
    pub fn new(budget_bytes: usize) -> Self {
        Tree {
            map: DashMap::with_hasher(BuildHasherDefault::default()),
            bytes: AtomicUsize::new(0),
            budget: budget_bytes,
            root: None,
            _game: PhantomData,
        }
    }

    /// Number of nodes in the tree.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Bytes in use (estimate) and the budget.
    pub fn memory(&self) -> (usize, usize) {
        (self.bytes.load(Relaxed), self.budget)
    }

    fn get(&self, key: u64) -> Option<*mut Node<G::Move>> {
        self.map
            .get(&key)
            .map(|n| &**n as *const Node<G::Move> as *mut Node<G::Move>)
    }

    fn has_room(&self) -> bool {
        self.bytes.load(Relaxed) < self.budget
    }

    /// Inserts `node` unless its key is there already; returns the node in
    /// the tree.
    fn insert(&self, node: Box<Node<G::Move>>) -> *mut Node<G::Move> {
        let bytes = node.bytes();
        let entry = self.map.entry(node.key).or_insert_with(|| {
            self.bytes.fetch_add(bytes, Relaxed);
            node
        });
        &**entry as *const Node<G::Move> as *mut Node<G::Move>
    }

    /// Keeps the subtree of `new_root` when it is the old root or one or
    /// two plies below it; otherwise empties the tree.
    fn reroot(&mut self, new_root: u64, budget: usize) {
        let old = self.root.replace(new_root);
        if budget != self.budget {
            self.budget = budget;
            self.clear();
            return;
        }
        let Some(old) = old else {
            self.clear();
            return;
        };
        if old == new_root {
            return;
        }
        let near = self.get(old).is_some_and(|r| {
            // Safety: no search runs; nodes are alive while in the map.
            let r = unsafe { &*r };
            children(r).any(|c| c.key == new_root || children(c).any(|g| g.key == new_root))
        });
        if !near {
            self.clear();
            return;
        }
        // Move every node reachable from the new root into a new map; the
        // rest is dropped with the old one.
        let kept: NodeMap<G::Move> = DashMap::with_hasher(BuildHasherDefault::default());
        let mut stack = vec![new_root];
        let mut bytes = 0;
        while let Some(key) = stack.pop() {
            if kept.contains_key(&key) {
                continue;
            }
            let Some((_, node)) = self.map.remove(&key) else {
                continue;
            };
            stack.extend(children(&node).map(|c| c.key));
            bytes += node.bytes();
            kept.insert(key, node);
        }
        self.map = kept;
        self.bytes.store(bytes, Relaxed);
    }

    fn clear(&mut self) {
        self.map.clear();
        self.bytes.store(0, Relaxed);
    }
}

/// The child nodes a node links to.
fn children<M>(node: &Node<M>) -> impl Iterator<Item = &Node<M>> {
    node.edges.iter().filter_map(|e| {
        let p = e.child.load(Relaxed);
        // Safety: a linked child is in the same tree as its parent.
        (!p.is_null()).then(|| unsafe { &*p })
    })
}

/// Win probability mapped to [-1, 1].
fn cp_to_value(cp: i32, scale: f64) -> f64 {
    if cp >= MATE_BOUND {
        return 1.0;
    }
    if cp <= -MATE_BOUND {
        return -1.0;
    }
    2.0 / (1.0 + (-(cp as f64) / scale).exp()) - 1.0
}

/// The inverse of [`cp_to_value`], clamped below mate scores.
fn value_to_cp(v: f64, scale: f64) -> i32 {
    let v = v.clamp(-0.999_999, 0.999_999);
    let cp = scale * ((1.0 + v) / (1.0 - v)).ln();
    cp.round()
        .clamp(-(MATE_BOUND - 1) as f64, (MATE_BOUND - 1) as f64) as i32
}

fn proof_value(proof: i32) -> f64 {
    match proof {
        0 => 0.0,
        p if p > 0 => 1.0,
        _ => -1.0,
    }
}

/// A child's proof seen from the parent, one ply further.
fn parent_proof(child: i32) -> i32 {
    match -child {
        0 => 0,
        p if p > 0 => p - 1,
        p => p + 1,
    }
}

/// Everything a worker thread reads.
struct Context<'a, G: Game> {
    tree: &'a Tree<G>,
    root: &'a GameState<G>,
    root_node: &'a Node<G::Move>,
    config: &'a Config,
    /// The evaluation weights in force (`EvalFile`, else compiled in).
    eval: &'a G::EvalParams,
    shared: &'a Shared,
    playouts: AtomicU64,
    depth_sum: AtomicU64,
    max_depth: AtomicUsize,
    /// Set by the main thread when the search ends (also on `stop`).
    done: AtomicBool,
}

/// One thread's scratch space.
struct Worker<G: Game> {
    history: History,
    /// `history` summed, for the node keys ([`HistorySum`]).
    history_sum: HistorySum,
    path: Vec<(*const Node<G::Move>, usize)>,
}

impl<'a, G: Game> Context<'a, G> {
    fn new(
        tree: &'a Tree<G>,
        root: &'a GameState<G>,
        root_node: &'a Node<G::Move>,
        resources: Resources<'a, G>,
    ) -> Self {
        let Resources {
            config,
            eval,
            shared,
        } = resources;
        Context {
            tree,
            root,
            root_node,
            config,
            eval,
            shared,
            playouts: AtomicU64::new(0),
            depth_sum: AtomicU64::new(0),
            max_depth: AtomicUsize::new(0),
            done: AtomicBool::new(false),
        }
    }

    fn cpuct(&self) -> f64 {
        self.config.params.mcts_cpuct_x100 as f64 / 100.0
    }

    fn scale(&self) -> f64 {
        self.config.params.mcts_value_scale as f64
    }

    /// The move list a node is built from: the legal moves on the path
    /// (nodes of history-dependent games are keyed by path, see "History").
    fn moves(&self, pos: &G, worker: &Worker<G>) -> G::Moves {
        let mut moves = G::Moves::default();
        pos.legal_moves(&worker.history, &mut moves);
        moves
    }

    /// Builds the node of `pos` and values it; `history` is the path.
    fn expand(&self, pos: &G, worker: &mut Worker<G>) -> (Box<Node<G::Move>>, f64) {
        let moves = self.moves(pos, worker);
        let key = worker.history_sum.key(pos);
        if moves.is_empty() {
            let proof = if pos.no_moves_loses() { -MATE } else { 0 };
            return (Box::new(Node::leaf(key, proof)), proof_value(proof));
        }
        let value = self.leaf_value(pos, worker);
        let p = &self.config.params;
        let tactical_bonus = p.mcts_prior_tactical_x100 as f64 / 100.0;
        let eval_weight = p.mcts_prior_eval_x100 as f64 / 100.0 / 100.0;
        let temp = p.mcts_prior_temp_x100 as f64 / 100.0;
        let check_bonus = p.mcts_prior_check_x100 as f64 / 100.0;
        let parent_eval = if eval_weight > 0.0 {
            pos.evaluate_with(self.eval)
        } else {
            0
        };
        // Good tactical moves ranked by the game's ordering score.
        let mut tactical: Vec<(i32, usize)> = Vec::new();
        let mut logits: Vec<f64> = Vec::with_capacity(moves.len());
        let mut keys: Vec<u64> = Vec::with_capacity(moves.len());
        // Children found mated (or stalemated) at once: (edge, node).
        let mut finished: Vec<(usize, Box<Node<G::Move>>)> = Vec::new();
        for (i, &mv) in moves.as_slice().iter().enumerate() {
            let mut logit = 0.0;
            if pos.is_tactical(mv) && pos.see_at_least_with(self.eval, mv, 0) {
                tactical.push((pos.tactical_score(mv), i));
                logit += tactical_bonus;
            }
            let child = pos.play(mv);
            let child_key = if G::LEGALITY_USES_HISTORY {
                child.repetition_key()
            } else {
                0
            };
            if eval_weight > 0.0 {
                let gain = (-child.evaluate_with(self.eval) - parent_eval).clamp(-300, 300);
                logit += gain as f64 * eval_weight;
            }
            let gives_check = child.in_check();
            if gives_check {
                logit += check_bonus;
            }
            // A check may mate, and where legality reads the history any
            // move may leave no legal reply: look now (checks are few), so
            // that mates in one are never hidden behind a low prior.
            if gives_check || G::LEGALITY_USES_HISTORY {
                let here = pos.repetition_key();
                worker.history.push(here);
                let replies = child.count_legal_moves(&worker.history);
                worker.history.pop();
                if replies == 0 {
                    let mut path = worker.history_sum;
                    if G::LEGALITY_USES_HISTORY {
                        path.add(here);
                    }
                    let proof = if child.no_moves_loses() { -MATE } else { 0 };
                    finished.push((i, Box::new(Node::leaf(path.key(&child), proof))));
                }
            }
            logits.push(logit);
            keys.push(child_key);
        }
        tactical.sort_by_key(|&(s, i)| (std::cmp::Reverse(s), i));
        let n = tactical.len().max(1) as f64;
        for (rank, &(_, i)) in tactical.iter().enumerate() {
            logits[i] += 0.5 * tactical_bonus * (1.0 - rank as f64 / n);
        }
        let top = logits.iter().cloned().fold(f64::MIN, f64::max);
        let weights: Vec<f64> = logits.iter().map(|l| ((l - top) / temp).exp()).collect();
        let total: f64 = weights.iter().sum();
        let edges: Box<[Edge<G::Move>]> = moves
            .as_slice()
            .iter()
            .enumerate()
            .map(|(i, &mv)| Edge {
                mv,
                prior: (weights[i] / total) as f32,
                visits: AtomicU32::new(0),
                value: AtomicU32::new(0f32.to_bits()),
                child: AtomicPtr::new(std::ptr::null_mut()),
            })
            .collect();
        let child_keys = if G::LEGALITY_USES_HISTORY {
            keys.into_boxed_slice()
        } else {
            Box::new([])
        };
        let mut proof = UNPROVEN;
        for (i, child) in finished {
            let mine = parent_proof(child.proof.load(Relaxed));
            proof = proof.max(mine);
            let c = self.tree.insert(child);
            edges[i].child.store(c, Relaxed);
        }
        // A mate in one decides the node; a stalemating check does not.
        let proof = if proof > 0 { proof } else { UNPROVEN };
        let node = Node::new(key, proof, edges, child_keys);
        let value = if proof > 0 { 1.0 } else { value };
        (Box::new(node), value)
    }

    /// Value of a position that is not stored (tree full, depth cap).
    fn leaf_only(&self, pos: &G, worker: &mut Worker<G>) -> f64 {
        let mut moves = G::Moves::default();
        pos.legal_moves(&worker.history, &mut moves);
        if moves.is_empty() {
            return if pos.no_moves_loses() { -1.0 } else { 0.0 };
        }
        self.leaf_value(pos, worker)
    }

    /// The leaf value from the side to move's view.
    fn leaf_value(&self, pos: &G, worker: &mut Worker<G>) -> f64 {
        let budget = self.config.params.mcts_qsearch_nodes;
        let cp = if budget > 0 {
            let mut left = budget as u32;
            qsearch(
                pos,
                -MATE,
                MATE,
                0,
                &mut worker.history,
                &mut left,
                &LeafEval {
                    see_threshold: self.config.params.qsearch_see_threshold,
                    eval: self.eval,
                },
            )
        } else {
            pos.evaluate_with(self.eval)
        };
        cp_to_value(cp, self.scale())
    }

    /// Picks the edge to follow at `node`, or `None` when no move is legal
    /// on this path.
    fn select(&self, node: &Node<G::Move>, worker: &Worker<G>) -> Option<usize> {
        let fpu = node.q() - self.config.params.mcts_fpu_x100 as f64 / 100.0;
        let parent_visits: u64 = node.edges.iter().map(|e| e.visits() as u64).sum();
        let sqrt_n = (parent_visits.max(1) as f64).sqrt();
        let cpuct = self.cpuct();
        let mut best: Option<(f64, usize)> = None;
        for (i, e) in node.edges.iter().enumerate() {
            if G::LEGALITY_USES_HISTORY && worker.history.contains(node.child_keys[i]) {
                continue;
            }
            let proof = child_proof(e);
            let n = e.visits() as f64;
            let u = cpuct * e.prior as f64 * sqrt_n / (1.0 + n);
            let score = if proof != UNPROVEN {
                // A proven child counts with its exact value; playouts go
                // on below it, so that faster mates are found.
                proof_value(parent_proof(proof)) + u
            } else if n == 0.0 {
                fpu + u
            } else {
                e.q() + u
            };
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, i));
            }
        }
        best.map(|(_, i)| i)
    }

    /// Sets the node's proof from its children where they decide it: a
    /// child lost for the opponent makes a win (the fastest such child
    /// counts), all children proven make the best of them. Returns whether
    /// the node's proof changed.
    fn try_prove(&self, node: &Node<G::Move>) -> bool {
        let old = node.proof.load(Relaxed);
        let mut best = i32::MIN;
        let mut all = true;
        for e in node.edges.iter() {
            let proof = child_proof(e);
            if proof == UNPROVEN {
                all = false;
            } else {
                best = best.max(parent_proof(proof));
            }
        }
        let new = if best > 0 || (all && best != i32::MIN) {
            best
        } else {
            return false;
        };
        if new != old {
            node.proof.store(new, Relaxed);
            return true;
        }
        false
    }

    /// Whether playouts through a node with `proof` may still change it:
    /// unproven nodes, wins in more than one ply (a faster win may exist)
    /// and losses (their length depends on the wins below); not draws,
    /// wins in one ply, or terminal positions.
    fn open(proof: i32) -> bool {
        proof == UNPROVEN || (proof > 0 && MATE - proof > 1) || (proof < 0 && proof != -MATE)
    }

    /// One playout from the root; returns its depth.
    fn playout(&self, worker: &mut Worker<G>) -> usize {
        worker.path.clear();
        let vl = self.config.params.mcts_virtual_loss as u32;
        let base = worker.history.len();
        let mut pos = self.root.position.clone();
        let mut node: &Node<G::Move> = self.root_node;
        // The value from the view of the side to move at the end, and the
        // node there (if the playout ended on a stored node).
        let (value, end): (f64, Option<&Node<G::Move>>) = loop {
            let proof = node.proof.load(Relaxed);
            if !Self::open(proof) || node.edges.is_empty() {
                break (proof_value(proof), Some(node));
            }
            let Some(i) = self.select(node, worker) else {
                // Every move repeats a configuration on this path.
                break (if pos.no_moves_loses() { -1.0 } else { 0.0 }, None);
            };
            let edge = &node.edges[i];
            if vl > 0 {
                edge.visits.fetch_add(vl, Relaxed);
                edge.add_value(-(vl as f64));
            }
            worker.path.push((node as *const _, i));
            worker.history.push(pos.repetition_key());
            if G::LEGALITY_USES_HISTORY {
                worker.history_sum.add(pos.repetition_key());
            }
            pos = pos.play(edge.mv);
            if pos.is_rule_draw(&worker.history, pos.repetition_key()) {
                break (0.0, None);
            }
            if worker.path.len() >= MAX_DEPTH {
                break (self.leaf_only(&pos, worker), None);
            }
            let mut child = edge.child.load(Relaxed);
            if child.is_null() {
                if let Some(c) = self.tree.get(worker.history_sum.key(&pos)) {
                    // A transposition: continue through the shared node.
                    edge.child.store(c, Relaxed);
                    child = c;
                } else if self.tree.has_room() {
                    let (new, v) = self.expand(&pos, worker);
                    let c = self.tree.insert(new);
                    edge.child.store(c, Relaxed);
                    // Safety: nodes live as long as the tree.
                    break (v, Some(unsafe { &*c }));
                } else {
                    break (self.leaf_only(&pos, worker), None);
                }
            }
            // Safety: linked children live as long as the tree.
            node = unsafe { &*child };
        };
        let depth = worker.path.len();
        let mut v = value;
        let mut proven = false;
        if let Some(n) = end {
            n.visits.fetch_add(1, Relaxed);
            n.value.fetch_add((v * VALUE_ONE) as i64, Relaxed);
            // Proofs are set at expansion, or improved by this playout.
            proven = n.proof.load(Relaxed) != UNPROVEN;
        }
        for &(parent, i) in worker.path.iter().rev() {
            // Safety: path nodes are in the tree.
            let parent = unsafe { &*parent };
            v = -v;
            if proven {
                proven = self.try_prove(parent);
            }
            // Below a proven node only its proof counts.
            let proof = parent.proof.load(Relaxed);
            if proof != UNPROVEN {
                v = proof_value(proof);
            }
            let e = &parent.edges[i];
            e.visits.fetch_add(1u32.wrapping_sub(vl), Relaxed);
            e.add_value(v + vl as f64);
            parent.visits.fetch_add(1, Relaxed);
            parent.value.fetch_add((v * VALUE_ONE) as i64, Relaxed);
        }
        while worker.history.len() > base {
            if let Some(key) = worker.history.pop()
                && G::LEGALITY_USES_HISTORY
            {
                worker.history_sum.remove(key);
            }
        }
        depth
    }

    /// Playouts until the main thread says done.
    fn run_helper(&self) {
        let mut worker = self.worker();
        while !self.done.load(Relaxed) && !self.shared.stop.load(Relaxed) {
            let d = self.playout(&mut worker);
            self.count(d);
        }
    }

    fn worker(&self) -> Worker<G> {
        Worker {
            history: self.root.history.clone(),
            history_sum: HistorySum::of(&self.root.history),
            path: Vec::with_capacity(MAX_PLY),
        }
    }

    fn count(&self, depth: usize) {
        self.playouts.fetch_add(1, Relaxed);
        self.depth_sum.fetch_add(depth as u64, Relaxed);
        self.max_depth.fetch_max(depth, Relaxed);
    }

    fn average_depth(&self) -> u32 {
        let n = self.playouts.load(Relaxed).max(1);
        (self.depth_sum.load(Relaxed) as f64 / n as f64).round() as u32
    }

    /// Root edges that are legal here, as indices.
    fn root_edges(&self) -> Vec<usize> {
        (0..self.root_node.edges.len())
            .filter(|&i| {
                !G::LEGALITY_USES_HISTORY
                    || !self.root.history.contains(self.root_node.child_keys[i])
            })
            .collect()
    }

    /// Root moves in order of preference: proven wins (fastest first),
    /// then by visits and value, proven losses last.
    fn ranked(&self) -> Vec<usize> {
        let mut idx = self.root_edges();
        idx.sort_by(|&a, &b| {
            edge_rank(&self.root_node.edges[b])
                .partial_cmp(&edge_rank(&self.root_node.edges[a]))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.cmp(&b))
        });
        idx
    }

    /// The score of a root edge, internal units (cp or mate in plies).
    fn edge_score(&self, e: &Edge<G::Move>) -> i32 {
        let proof = child_proof(e);
        if proof != UNPROVEN {
            return parent_proof(proof);
        }
        if e.visits() == 0 {
            return 0;
        }
        value_to_cp(e.q(), self.scale())
    }

    /// The most visited line from edge `i` of the root.
    fn pv(&self, i: usize) -> Vec<G::Move> {
        let mut line = vec![self.root_node.edges[i].mv];
        let mut child = self.root_node.edges[i].child.load(Relaxed);
        let mut history = self.root.history.clone();
        let mut pos = self.root.position.play(line[0]);
        history.push(self.root.position.repetition_key());
        while !child.is_null() && line.len() < MAX_PLY {
            // Safety: linked children live as long as the tree.
            let node = unsafe { &*child };
            let best = node
                .edges
                .iter()
                .enumerate()
                .filter(|&(i, _)| {
                    !G::LEGALITY_USES_HISTORY || !history.contains(node.child_keys[i])
                })
                .map(|(_, e)| e)
                .filter(|e| e.visits() > 0 || child_proof(e) != UNPROVEN)
                .max_by(|a, b| {
                    edge_rank(a)
                        .partial_cmp(&edge_rank(b))
                        .unwrap_or(std::cmp::Ordering::Equal)
                });
            let Some(e) = best else { break };
            line.push(e.mv);
            history.push(pos.repetition_key());
            pos = pos.play(e.mv);
            child = e.child.load(Relaxed);
        }
        line
    }

    fn report(&self, start: Instant, report: &(dyn Fn(&Info) + Sync)) {
        let elapsed = start.elapsed();
        let nodes = self.playouts.load(Relaxed);
        let (bytes, budget) = self.tree.memory();
        let multipv = self.config.multipv.max(1);
        for (k, &i) in self.ranked().iter().take(multipv).enumerate() {
            let e = &self.root_node.edges[i];
            if k > 0 && e.visits() == 0 {
                break;
            }
            let mut pos = self.root.position.clone();
            let pv = self
                .pv(i)
                .into_iter()
                .map(|m| {
                    let s = pos.move_to_string(m);
                    pos = pos.play(m);
                    s
                })
                .collect();
            report(&Info {
                depth: self.average_depth().max(1),
                seldepth: self.max_depth.load(Relaxed).max(1) as u32,
                multipv: k + 1,
                score: Score::from_internal(self.edge_score(e)),
                bound: None,
                nodes,
                nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64,
                hashfull: ((bytes as u128 * 1000) / budget.max(1) as u128).min(1000) as u32,
                time_ms: elapsed.as_millis() as u64,
                pv,
            });
        }
    }
}

fn child_proof<M>(e: &Edge<M>) -> i32 {
    let child = e.child.load(Relaxed);
    if child.is_null() {
        UNPROVEN
    } else {
        // Safety: linked children live as long as the tree.
        unsafe { &*child }.proof.load(Relaxed)
    }
}

/// Proven wins rank above, and proven losses below, every visit count.
/// Small enough that `PROVEN_RANK + mate score` stays an exact integer in
/// an f64 (at 1e18 the spacing is 128, and mates of different lengths
/// tied), large enough to exceed any visit count (at most `u32::MAX`).
const PROVEN_RANK: f64 = 1e12;

/// Preference between sibling edges for the final move and the PV.
fn edge_rank<M>(e: &Edge<M>) -> (f64, f64) {
    let proof = child_proof(e);
    let n = e.visits() as f64;
    let q = if n > 0.0 { e.q() } else { -2.0 };
    if proof != UNPROVEN {
        let mine = parent_proof(proof);
        if mine > 0 {
            return (PROVEN_RANK + mine as f64, 0.0);
        }
        if mine < 0 {
            return (-PROVEN_RANK + mine as f64, q);
        }
    }
    (n, q)
}

/// What the leaf quiescence search evaluates with.
struct LeafEval<'a, G: Game> {
    /// Captures must win at least this much (SEE).
    see_threshold: i32,
    /// The evaluation weights in force.
    eval: &'a G::EvalParams,
}

/// Alpha-beta over the game's tactical moves (all moves in check), at most
/// `left` nodes: the leaf value in centipawns.
fn qsearch<G: Game>(
    pos: &G,
    mut alpha: i32,
    beta: i32,
    ply: usize,
    history: &mut History,
    left: &mut u32,
    leaf: &LeafEval<'_, G>,
) -> i32 {
    let (see_threshold, eval) = (leaf.see_threshold, leaf.eval);
    let in_check = pos.in_check();
    if *left == 0 || ply >= 16 {
        return pos.evaluate_with(eval);
    }
    *left -= 1;
    let mut moves = G::Moves::default();
    if in_check {
        pos.legal_moves(history, &mut moves);
        if moves.is_empty() {
            return if pos.no_moves_loses() {
                -MATE + ply as i32
            } else {
                0
            };
        }
    } else {
        pos.tactical_moves(history, &mut moves);
    }
    let mut best = if in_check {
        -MATE
    } else {
        pos.evaluate_with(eval)
    };
    if best >= beta {
        return best;
    }
    alpha = alpha.max(best);
    let mut order: Vec<(i32, G::Move)> = moves
        .as_slice()
        .iter()
        .filter(|&&m| in_check || pos.see_at_least_with(eval, m, see_threshold))
        .map(|&m| {
            let s = if pos.is_tactical(m) {
                1_000_000 + pos.tactical_score(m)
            } else {
                0
            };
            (s, m)
        })
        .collect();
    order.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
    for (_, mv) in order {
        let child = pos.play(mv);
        if G::LEGALITY_USES_HISTORY {
            history.push(pos.repetition_key());
        }
        let score = -qsearch(&child, -beta, -alpha, ply + 1, history, left, leaf);
        if G::LEGALITY_USES_HISTORY {
            history.pop();
        }
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        if *left == 0 {
            break;
        }
    }
    best
}

/// Searches `state` with MCTS; the same contract as [`super::search`].
pub fn search<G: Game>(
    state: &GameState<G>,
    limits: &Limits,
    resources: Resources<'_, G>,
    tree: &mut Tree<G>,
    report: &(dyn Fn(&Info) + Sync),
) -> Outcome<G::Move> {
    let start = Instant::now();
    resources.shared.nodes.store(0, Relaxed);
    let budget = tree.budget;
    let root_key = HistorySum::of(&state.history).key(&state.position);
    tree.reroot(root_key, budget);
    run(tree, state, limits, resources, report, start)
}

fn run<G: Game>(
    tree: &Tree<G>,
    state: &GameState<G>,
    limits: &Limits,
    resources: Resources<'_, G>,
    report: &(dyn Fn(&Info) + Sync),
    start: Instant,
) -> Outcome<G::Move> {
    let Resources { config, shared, .. } = resources;
    let mut scratch = Worker {
        history: state.history.clone(),
        history_sum: HistorySum::of(&state.history),
        path: Vec::new(),
    };
    let root_ptr = match tree.get(HistorySum::of(&state.history).key(&state.position)) {
        Some(p) => p,
        None => {
            // The root is stored whatever the budget.
            let placeholder = Node::leaf(0, UNPROVEN);
            let (node, _) = Context::new(tree, state, &placeholder, resources)
                .expand(&state.position, &mut scratch);
            tree.insert(node)
        }
    };
    // Safety: the root is in the tree for the whole search.
    let root_node = unsafe { &*root_ptr };
    let ctx = Context::new(tree, state, root_node, resources);
    let legal = ctx.root_edges();
    if legal.is_empty() {
        while shared.pondering.load(Relaxed) && !shared.stop.load(Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        shared.stop.store(true, Relaxed);
        return Outcome {
            best: None,
            ponder: None,
            score: if state.position.no_moves_loses() {
                -MATE
            } else {
                0
            },
            depth: 0,
            nodes: 0,
        };
    }
    let budget = time::budget(
        limits,
        state.position.side_to_move(),
        config.move_overhead,
        &config.params,
        G::CLOCK_MOVES,
        time::moves_played(state),
    );
    let threads = config.threads.clamp(1, super::MAX_THREADS);
    std::thread::scope(|scope| {
        for id in 1..threads {
            let ctx = &ctx;
            std::thread::Builder::new()
                .name(format!("mcts-{id}"))
                .stack_size(SEARCH_STACK_BYTES / 4)
                .spawn_scoped(scope, move || ctx.run_helper())
                .expect("spawn search thread");
        }
        let _stop_helpers = super::StopOnUnwind(shared);
        main_loop(&ctx, limits, budget, legal.len(), start, report);
        ctx.done.store(true, Relaxed);
    });
    // A finished `go infinite` or ponder search waits for the GUI.
    while shared.pondering.load(Relaxed) && !shared.stop.load(Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
    shared.stop.store(true, Relaxed);
    ctx.report(start, report);
    let ranked = ctx.ranked();
    let best = ranked[0];
    let pv = ctx.pv(best);
    let nodes = ctx.playouts.load(Relaxed);
    shared.nodes.store(nodes, Relaxed);
    Outcome {
        best: Some(pv[0]),
        ponder: pv.get(1).copied(),
        score: ctx.edge_score(&root_node.edges[best]),
        depth: ctx.average_depth(),
        nodes,
    }
}

/// The main thread: playouts, limits and reports.
fn main_loop<G: Game>(
    ctx: &Context<'_, G>,
    limits: &Limits,
    budget: Option<Budget>,
    root_moves: usize,
    start: Instant,
    report: &(dyn Fn(&Info) + Sync),
) {
    let shared = ctx.shared;
    let mut worker = ctx.worker();
    let mut last_report = Instant::now();
    let mut reported_depth = 0;
    let mut own_playouts = 0u64;
    let single_thread = ctx.config.threads <= 1;
    loop {
        if shared.stop.load(Relaxed) {
            return;
        }
        let proof = ctx.root_node.proof.load(Relaxed);
        // Decided: a draw, a loss, or a mate in one ply; a longer win goes
        // on looking for a faster one.
        let decided = proof != UNPROVEN && (proof <= 0 || MATE - proof <= 1);
        if !decided {
            let d = ctx.playout(&mut worker);
            ctx.count(d);
            own_playouts += 1;
        }
        // Limits. With one thread the node count is this thread's own, so
        // node-limited searches are reproducible.
        let playouts = if single_thread {
            own_playouts
        } else {
            ctx.playouts.load(Relaxed)
        };
        let depth = ctx.average_depth();
        if depth > reported_depth || last_report.elapsed() >= REPORT_INTERVAL {
            if playouts > 0 {
                ctx.report(start, report);
            }
            reported_depth = depth;
            last_report = Instant::now();
        }
        let mut stop =
            limits.nodes.is_some_and(|n| playouts >= n) || limits.depth.is_some_and(|d| depth >= d);
        // A decided root needs no more playouts (a GUI waiting for `stop`
        // is answered by the caller), nor does a mate within `go mate`.
        let mate_found = limits
            .mate
            .is_some_and(|m| proof > 0 && (MATE - proof + 1) / 2 <= m as i32);
        if decided || mate_found {
            stop = true;
        }
        if !stop
            && !shared.pondering.load(Relaxed)
            && let Some(b) = budget
        {
            let since_start = start.elapsed();
            let ponderhit = Duration::from_millis(shared.ponderhit_ms.load(Relaxed));
            let elapsed = since_start.saturating_sub(ponderhit);
            if elapsed >= b.soft || (root_moves == 1 && playouts >= 1) {
                stop = true;
            }
        }
        if stop {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::nimrod::Nimrod;

    /// MCTS evaluates with the weights it is given (`EvalFile`):
    /// with every material weight doubled the same node-limited search
    /// reports another score.
    #[test]
    fn eval_file_weights_reach_the_leaves() {
        let state = GameState::<Nimrod>::from_setup(None, &["e2e4", "d7d5"]).unwrap();
        let limits = Limits {
            nodes: Some(3_000),
            ..Limits::default()
        };
        let run = |eval: &<Nimrod as Game>::EvalParams| {
            let shared = Shared::new();
            shared.prepare(&limits);
            let mut tree = Tree::new(1 << 20);
            search(
                &state,
                &limits,
                resources(eval, &shared),
                &mut tree,
                &|_| {},
            )
            .score
        };
        let default = run(Nimrod::default_eval_params());
        let mut heavy = Nimrod::default_eval_params().clone();
        for row in heavy.material.iter_mut() {
            row[0] *= 2;
            row[1] *= 2;
        }
        assert_ne!(run(&heavy), default);
    }

    #[test]
    fn value_mapping_round_trips() {
        for cp in [-900, -200, -1, 0, 1, 37, 200, 1500] {
            let v = cp_to_value(cp, 200.0);
            assert!((-1.0..=1.0).contains(&v));
            assert!((value_to_cp(v, 200.0) - cp).abs() <= 1, "{cp}");
        }
        assert_eq!(cp_to_value(MATE - 3, 200.0), 1.0);
    }

    /// An edge to a stored child with `proof` (from the child's view),
    /// visited `visits` times.
    fn proven_edge(proof: i32, visits: u32) -> (Box<Node<()>>, Edge<()>) {
        let mut child = Box::new(Node::leaf(0, proof));
        let edge = Edge {
            child: AtomicPtr::new(&mut *child),
            visits: AtomicU32::new(visits),
            value: AtomicU32::new(0f32.to_bits()),
            prior: 0.0,
            mv: (),
        };
        (child, edge)
    }

    #[test]
    fn shorter_mates_rank_first_whatever_the_visits() {
        // Mate in 2 (3 plies) against mate in 4 (7 plies) and a much
        // visited unproven move; once ranked the same, as f64 rounding
        // tied the two mates and the first in move order was played.
        let (_c2, mate2) = proven_edge(-(MATE - 2), 10);
        let (_c4, mate4) = proven_edge(-(MATE - 6), 90_000);
        let (_cu, open) = proven_edge(UNPROVEN, u32::MAX);
        let (_cl, lost) = proven_edge(MATE - 1, 5);
        let (_cl, lost_later) = proven_edge(MATE - 5, 5);
        assert!(edge_rank(&mate2) > edge_rank(&mate4));
        assert!(edge_rank(&mate4) > edge_rank(&open));
        assert!(edge_rank(&open) > edge_rank(&lost_later));
        assert!(edge_rank(&lost_later) > edge_rank(&lost));
    }

    #[test]
    fn proofs_move_one_ply_up() {
        // Mated here (no move): the parent mates in one ply.
        assert_eq!(parent_proof(-MATE), MATE - 1);
        assert_eq!(parent_proof(MATE - 1), -(MATE - 2));
        assert_eq!(parent_proof(0), 0);
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
    }

    const CONFIG: Config = Config {
        threads: 1,
        multipv: 1,
        move_overhead: Duration::from_millis(super::super::DEFAULT_MOVE_OVERHEAD_MS),
        params: super::super::DEFAULT_PARAMS,
    };

    fn resources<'a>(
        eval: &'a <Nimrod as Game>::EvalParams,
        shared: &'a Shared,
    ) -> Resources<'a, Nimrod> {
        Resources {
            config: &CONFIG,
            eval,
            shared,
        }
    }

    /// Issue 15: in Nemoroth a repeated configuration is illegal, so a
    /// proof depends on the path. Alabaster mates in 3 with e3f2 because
    /// Obsidian's Go Away may not return to h2; the proof must see it.
    #[test]
    fn path_dependent_mate_in_three_is_proven() {
        use crate::variants::nemoroth::Nemoroth;
        let state =
            GameState::new(Nemoroth::from_fen("w1M5/h7/1gphpH1G2/8/8/4A3/7a/4A3 a - 350").unwrap());
        let shared = Shared::new();
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        shared.prepare(&limits);
        let mut tree = Tree::new(16 << 20);
        let resources = Resources {
            config: &CONFIG,
            eval: Nemoroth::default_eval_params(),
            shared: &shared,
        };
        let out = search(&state, &limits, resources, &mut tree, &|_| {});
        let best = out.best.map(|m| state.position.move_to_string(m));
        assert_eq!(best.as_deref(), Some("e3f2"));
        assert_eq!(Score::from_internal(out.score), Score::Mate(3));
    }

    #[test]
    fn tree_stays_within_a_tiny_budget() {
        let state = GameState::new(Nimrod::startpos());
        let shared = Shared::new();
        let limits = Limits {
            nodes: Some(60_000),
            ..Limits::default()
        };
        shared.prepare(&limits);
        let mut tree = Tree::new(1 << 20);
        let eval = Nimrod::default_eval_params();
        let out = search(
            &state,
            &limits,
            resources(eval, &shared),
            &mut tree,
            &|_| {},
        );
        assert!(out.best.is_some());
        assert_eq!(out.nodes, 60_000);
        let (bytes, budget) = tree.memory();
        assert_eq!(budget, 1 << 20);
        // Full, but never more than one node over.
        assert!(bytes <= budget + 64 * 1024, "{bytes} > {budget}");
        assert!(bytes >= budget, "the tree should have filled: {bytes}");
    }

    #[test]
    fn subtree_is_kept_one_and_two_plies_down() {
        let mut state = GameState::new(Nimrod::startpos());
        let shared = Shared::new();
        let limits = Limits {
            nodes: Some(3000),
            ..Limits::default()
        };
        shared.prepare(&limits);
        let mut t = Tree::new(16 << 20);
        let eval = Nimrod::default_eval_params();
        let out = search(&state, &limits, resources(eval, &shared), &mut t, &|_| {});
        let (best, reply) = (out.best.unwrap(), out.ponder.unwrap());
        let before = t.len();
        state.play(best);
        state.play(reply);
        shared.prepare(&limits);
        search(&state, &limits, resources(eval, &shared), &mut t, &|_| {});
        // The kept subtree plus 3000 new playouts, less than both trees.
        assert!(t.len() < before + 3000, "{} vs {before}", t.len());
        let root = t.get(state.position.hash()).unwrap();
        let root = unsafe { &*root };
        assert!(root.visits.load(Relaxed) > 3000);
    }
}
