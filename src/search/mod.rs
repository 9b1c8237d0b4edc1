//! The search, generic over [`Game`]: one alpha-beta for every variant.
//!
//! [`search`] runs Lazy SMP: `threads` workers search the same root with a
//! shared transposition table and stop flag, and nothing else shared. The
//! first worker keeps time and reports; when it stops, the others are told
//! to stop and the best move is chosen by a depth-weighted vote.
//!
//! The search never knows which protocol is talking: it reports through a
//! callback with game-independent [`Info`] values (moves already written in
//! the game's notation).

pub mod alphabeta;
pub mod mcts;
pub mod params;
pub mod time;
pub mod tt;

use crate::game::{Game, GameState};
pub use params::{DEFAULT_PARAMS, SearchParams};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
pub use tt::TranspositionTable;

/// Spreads a repetition key before it joins a history sum.
fn mix_history_key(key: u64) -> u64 {
    (key ^ (key >> 31))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(23)
}

/// Where legality reads the history (Nemoroth: no configuration may
/// repeat), the same position below two paths can have different moves and
/// values. Both searches then key a position by its hash plus an
/// order-independent sum over the positions before it, so that a result is
/// shared only between paths through the same positions. These helpers
/// keep that sum as positions join and leave the path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct HistorySum(u64);

impl HistorySum {
    pub(crate) fn of(history: &crate::game::History) -> Self {
        HistorySum(
            history
                .keys()
                .iter()
                .fold(0u64, |s, &k| s.wrapping_add(mix_history_key(k))),
        )
    }

    pub(crate) fn add(&mut self, key: u64) {
        self.0 = self.0.wrapping_add(mix_history_key(key));
    }

    pub(crate) fn remove(&mut self, key: u64) {
        self.0 = self.0.wrapping_sub(mix_history_key(key));
    }

    /// The key of `pos` after the positions summed here: its hash, plus
    /// the sum in games whose legality reads the history.
    #[inline]
    pub(crate) fn key<G: Game>(self, pos: &G) -> u64 {
        self.key_from_hash::<G>(pos.hash())
    }

    /// [`HistorySum::key`] from the position's hash.
    #[inline]
    pub(crate) fn key_from_hash<G: Game>(self, hash: u64) -> u64 {
        if G::LEGALITY_USES_HISTORY {
            hash ^ self.0
        } else {
            hash
        }
    }
}

/// Scores are centipawns; mates count plies from the root.
pub const MATE: i32 = 32_000;
pub const MAX_PLY: usize = 128;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const INFINITY: i32 = MATE + 1;

/// What ends a search (all optional; none means until `stop`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Milliseconds for this move.
    pub movetime: Option<u64>,
    /// Remaining clock per colour, milliseconds.
    pub time: [Option<u64>; 2],
    /// Increment per colour, milliseconds.
    pub inc: [u64; 2],
    pub movestogo: Option<u32>,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
}

/// Which search algorithm runs (`Search` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    AlphaBeta,
    Mcts,
}

impl SearchKind {
    /// Option values, in the order `uci` lists them.
    pub const NAMES: [&'static str; 2] = ["alphabeta", "mcts"];

    pub fn name(self) -> &'static str {
        match self {
            SearchKind::AlphaBeta => "alphabeta",
            SearchKind::Mcts => "mcts",
        }
    }

    pub fn parse(text: &str) -> Option<SearchKind> {
        match text.trim().to_ascii_lowercase().as_str() {
            "alphabeta" => Some(SearchKind::AlphaBeta),
            "mcts" => Some(SearchKind::Mcts),
            _ => None,
        }
    }
}

/// Settings that outlive one search (the engine options).
#[derive(Clone, Debug)]
pub struct Config {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: Duration,
    pub params: SearchParams,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            params: DEFAULT_PARAMS,
        }
    }
}

/// Host and pipe latency assumed per move. Larger than Stockfish's 10 ms
/// because hosts on a loaded machine were measured to lose 20-30 ms per move
/// in 1 s + 10 ms games.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;
pub const DEFAULT_HASH_MB: usize = 16;
pub const MAX_HASH_MB: usize = 65_536;
pub const MAX_THREADS: usize = 256;
pub const MAX_MULTIPV: usize = 64;
/// Stack for a searching thread: move lists live on it, one per ply.
pub const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Everything a search of game `G` reads besides the position and the
/// limits: the settings, the evaluation weights in force (typed: the
/// engine owns them) and the flags shared with the protocol thread.
pub struct Resources<'a, G: Game> {
    pub config: &'a Config,
    pub eval: &'a G::EvalParams,
    pub shared: &'a Shared,
}

impl<G: Game> Clone for Resources<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Resources<'_, G> {}

/// What the searches of one game keep between moves: the alpha-beta
/// transposition table or the MCTS tree, only the one in use.
pub enum Memory<G: Game> {
    /// The table, and each alpha-beta thread's move-ordering histories
    /// (their memory; each search starts them afresh).
    /// Shareable: `ghast bench` searches every game in one table.
    Table(
        std::sync::Arc<TranspositionTable>,
        Vec<alphabeta::Histories>,
    ),
    Tree(Box<mcts::Tree<G>>),
}

impl<G: Game> Memory<G> {
    /// Memory for `kind` within `hash_mb` megabytes; an allocation that
    /// fails is an error, not an abort.
    pub fn new(kind: SearchKind, hash_mb: usize) -> Result<Self, String> {
        match kind {
            SearchKind::AlphaBeta => Ok(Memory::Table(
                std::sync::Arc::new(TranspositionTable::try_new(hash_mb)?),
                Vec::new(),
            )),
            SearchKind::Mcts => Ok(Memory::Tree(Box::new(mcts::Tree::new(
                hash_mb.max(1) << 20,
            )))),
        }
    }

    /// The search this memory serves.
    pub fn kind(&self) -> SearchKind {
        match self {
            Memory::Table(..) => SearchKind::AlphaBeta,
            Memory::Tree(_) => SearchKind::Mcts,
        }
    }

    /// Forgets everything learned (`ucinewgame`, `Clear Hash`).
    pub fn clear(&mut self) {
        match self {
            // A fresh zeroed table rather than writing every entry: the
            // system hands out the pages as they are used, so clearing a
            // large table is instant and never commits all its memory.
            Memory::Table(tt, histories) => {
                histories.clear();
                match TranspositionTable::try_new(tt.megabytes()) {
                    Ok(fresh) => *tt = std::sync::Arc::new(fresh),
                    Err(_) => tt.clear(),
                }
            }
            Memory::Tree(tree) => **tree = mcts::Tree::new(tree.memory().1),
        }
    }
}

/// Flags shared by the searching threads and the protocol thread.
pub struct Shared {
    /// Set by `stop` (or by the time keeper): every worker unwinds.
    pub stop: AtomicBool,
    /// True while pondering: no time limit applies until `ponderhit`.
    pub pondering: AtomicBool,
    /// Milliseconds after the start at which `ponderhit` came.
    ponderhit_ms: AtomicU64,
    nodes: AtomicU64,
}

impl Default for Shared {
    fn default() -> Self {
        Shared::new()
    }
}

impl Shared {
    pub fn new() -> Self {
        Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            ponderhit_ms: AtomicU64::new(0),
            nodes: AtomicU64::new(0),
        }
    }

    /// Resets the flags for a new search with `limits`.
    pub fn prepare(&self, limits: &Limits) {
        self.stop.store(false, Ordering::Release);
        self.ponderhit_ms.store(0, Ordering::Relaxed);
        self.pondering
            .store(limits.ponder || limits.infinite, Ordering::Release);
    }

    /// The GUI says the pondered move was played: time counts from now.
    pub fn ponderhit(&self, elapsed_since_start: Duration) {
        self.ponderhit_ms
            .store(elapsed_since_start.as_millis() as u64, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Release);
    }

    pub fn request_stop(&self) {
        self.pondering.store(false, Ordering::Release);
        self.stop.store(true, Ordering::Release);
    }
}

/// Tells every worker to stop when the thread holding it fails, so that
/// a failing main thread does not leave its helpers (and the scope that
/// waits for them) running until `stop`.
pub(crate) struct StopOnUnwind<'a>(pub &'a Shared);

impl Drop for StopOnUnwind<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.request_stop();
        }
    }
}

/// A score as reported: centipawns or moves to mate (negative: mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

impl Score {
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-((MATE + score + 1) / 2))
        } else {
            Score::Cp(score)
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    /// `Some("lowerbound")`/`Some("upperbound")` for a failed window.
    pub bound: Option<&'static str>,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<String>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome<M> {
    pub best: Option<M>,
    pub ponder: Option<M>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

/// Searches `state` within `limits`, reporting each iteration to `report`;
/// the memory decides the algorithm (alpha-beta with a table, MCTS with a
/// tree). Returns when a limit is reached or `shared.stop` is set; with
/// `infinite` or `ponder` it waits for `stop` (or `ponderhit`) before
/// returning. The caller calls [`Shared::prepare`] first, before any thread
/// that may send `stop` or `ponderhit` can see the search.
pub fn search<G: Game>(
    state: &GameState<G>,
    limits: &Limits,
    resources: Resources<'_, G>,
    memory: &mut Memory<G>,
    report: &(dyn Fn(&Info) + Sync),
) -> Outcome<G::Move> {
    match memory {
        Memory::Table(tt, histories) => {
            alphabeta_search(state, limits, resources, tt, histories, report)
        }
        Memory::Tree(tree) => mcts::search(state, limits, resources, tree, report),
    }
}

/// [`search`] with the default settings and the compiled-in weights, for
/// tools and tests that own no engine.
pub fn search_with_defaults<G: Game>(
    state: &GameState<G>,
    limits: &Limits,
    memory: &mut Memory<G>,
) -> Outcome<G::Move> {
    let shared = Shared::new();
    shared.prepare(limits);
    let resources = Resources {
        config: &Config::default(),
        eval: G::default_eval_params(),
        shared: &shared,
    };
    search(state, limits, resources, memory, &|_| {})
}

/// Lazy SMP alpha-beta (see the module documentation).
fn alphabeta_search<G: Game>(
    state: &GameState<G>,
    limits: &Limits,
    resources: Resources<'_, G>,
    tt: &TranspositionTable,
    histories: &mut Vec<alphabeta::Histories>,
    report: &(dyn Fn(&Info) + Sync),
) -> Outcome<G::Move> {
    let start = Instant::now();
    let Resources { config, shared, .. } = resources;
    shared.nodes.store(0, Ordering::Relaxed);
    tt.new_search();

    let threads = config.threads.clamp(1, MAX_THREADS);
    histories.resize_with(threads, alphabeta::Histories::new::<G>);
    let (main_histories, helper_histories) = histories.split_first_mut().expect("one thread");
    let outcomes: Vec<(Outcome<G::Move>, u32)> = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .zip(helper_histories.iter_mut())
            .map(|(id, histories)| {
                std::thread::Builder::new()
                    .name(format!("search-{id}"))
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut w = alphabeta::Worker::new(
                            state, limits, resources, tt, histories, start, id,
                        );
                        let o = w.iterate(&|_| {});
                        (o, w.completed_depth())
                    })
                    .expect("spawn search thread")
            })
            .collect();
        let _stop_helpers = StopOnUnwind(shared);
        let mut main =
            alphabeta::Worker::new(state, limits, resources, tt, main_histories, start, 0);
        let main_outcome = main.iterate(report);
        let main_depth = main.completed_depth();
        // A finished `go infinite` or ponder search waits for the GUI.
        while shared.pondering.load(Ordering::Acquire) && !shared.stop.load(Ordering::Acquire) {
            std::thread::sleep(Duration::from_millis(1));
        }
        shared.stop.store(true, Ordering::Release);
        let mut all = vec![(main_outcome, main_depth)];
        for h in helpers {
            if let Ok(o) = h.join() {
                all.push(o);
            }
        }
        all
    });
    choose(outcomes)
}

/// Lazy SMP vote: each thread's move collects weight for its depth and
/// score; the deepest thread with the winning move supplies the PV. A
/// proven mate outranks any vote. Ties go to the main thread.
fn choose<M: Copy + Eq>(outcomes: Vec<(Outcome<M>, u32)>) -> Outcome<M> {
    let nodes: u64 = outcomes.iter().map(|(o, _)| o.nodes).sum();
    let min_score = outcomes.iter().map(|(o, _)| o.score).min().unwrap_or(0);
    let votes = |mv: M| -> i64 {
        outcomes
            .iter()
            .filter(|(o, _)| o.best == Some(mv))
            .map(|(o, depth)| (o.score - min_score + 10) as i64 * (*depth as i64 + 1))
            .sum()
    };
    let mut best = 0;
    for (i, (o, depth)) in outcomes.iter().enumerate().skip(1) {
        let Some(mv) = o.best else { continue };
        let (current, current_depth) = &outcomes[best];
        let better = if o.score >= MATE_BOUND || current.score >= MATE_BOUND {
            o.score > current.score
        } else if current.best == Some(mv) {
            depth > current_depth
        } else {
            current.best.is_none_or(|c| votes(mv) > votes(c))
        };
        if better {
            best = i;
        }
    }
    let mut chosen = outcomes.into_iter().nth(best).expect("one outcome").0;
    chosen.nodes = nodes;
    chosen
}
