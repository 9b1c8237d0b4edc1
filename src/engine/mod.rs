//! The engine layer: the one thing every front end (UCI, CECP, `ghast
//! match`'s in-process players, the command line) talks to.
//!
//! - [`TypedEngine<G>`] owns one game's [`GameState<G>`], its evaluation
//!   weights (typed), its search memory (the transposition table or the
//!   MCTS tree, only the one in use), the flags shared with its search
//!   thread and that thread.
//! - [`Engine`] is the object-safe handle over it; [`new_engine`] (through
//!   [`crate::registry`]) makes one per variant name.
//! - [`options`] is the option table every front end reads; [`Session`]
//!   is a game without a search (referees, opening files).
//!
//! A search runs either on a thread of the engine ([`Engine::go`], the
//! protocols: the loop keeps reading) or on the caller's thread
//! ([`Engine::search`]). Either way a search that fails (a panic anywhere
//! in it) still gives a move: the best one reported so far, else a legal
//! one, else none; the reply says what went wrong.

pub mod openings;
pub mod options;
pub mod session;

pub use crate::game::{Color, EvalTrace, GameError, Outcome, Termination};
pub use crate::perft::DivideLine;
pub use crate::search::{Info, Limits, SEARCH_STACK_BYTES, Score, SearchKind};
pub use options::{Change, OptionKind, OptionSpec, Settings};
pub use session::Session;

use crate::game::{Game, GameState, MoveBuffer};
use crate::registry;
use crate::search::{self, Config, Memory, Resources, Shared, TranspositionTable};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Instant;

/// Largest params file `EvalFile` reads: the real ones are a few KiB.
pub const MAX_EVAL_FILE_BYTES: u64 = 1 << 20;

/// What a search returns, in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReply {
    pub best: Option<String>,
    pub ponder: Option<String>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    /// Set when the search failed; `best` is then the fallback move.
    pub error: Option<String>,
}

/// Where a running search sends its progress.
pub type InfoSink = Box<dyn Fn(&Info) + Send + Sync>;
/// Where a search thread sends its result, once.
pub type DoneSink = Box<dyn FnOnce(SearchReply) + Send>;
/// Where a perft thread sends its result (or why there is none).
pub type PerftSink = Box<dyn FnOnce(Result<Vec<DivideLine>, String>) + Send>;

/// One game's engine, whatever the game.
pub trait Engine: Send {
    /// The game: position set-up and queries.
    fn session(&self) -> &dyn Session;
    fn session_mut(&mut self) -> &mut dyn Session;
    fn settings(&self) -> &Settings;
    /// The search the engine runs (the `Search` option or the game's own).
    fn search_kind(&self) -> SearchKind;
    /// Takes `settings` after `change` (see [`set_option`]); on error
    /// nothing changes. May return a note for the host.
    fn apply(&mut self, settings: Settings, change: &Change) -> Result<Option<String>, String>;
    /// The start position, and everything learned forgotten.
    fn new_game(&mut self);
    /// Starts a search of the current position on a thread and returns at
    /// once; `on_done` gets the result. A running search is stopped first.
    fn go(&mut self, limits: Limits, on_info: InfoSink, on_done: DoneSink) -> Result<(), String>;
    /// Searches the current position on the caller's thread.
    fn search(&mut self, limits: &Limits, on_info: &(dyn Fn(&Info) + Sync)) -> SearchReply;
    /// Ends a running search or perft and waits until its `on_done` has
    /// run (a stopped perft reports the error "perft stopped").
    fn stop(&mut self);
    /// The pondered move was played: the clock runs from now.
    fn ponderhit(&self);
    /// Whether a search thread is still running.
    fn is_searching(&mut self) -> bool;
    /// Waits for a running search to end by itself.
    fn wait(&mut self);
    /// Starts a perft divide of the current position on a thread.
    fn go_perft(&mut self, depth: u32, on_done: PerftSink) -> Result<(), String>;
    /// Whether a perft thread is still running.
    fn is_counting(&mut self) -> bool;
    /// The static evaluation of the current position with the weights the
    /// search uses (`EvalFile`, or the compiled-in ones), in centipawns
    /// from the side to move's view.
    fn static_eval(&self) -> i32;
    /// The same evaluation split by term, where the evaluator can.
    fn eval_trace(&self) -> Option<EvalTrace>;
    /// The transposition table, when the engine searches with one.
    fn table(&self) -> Option<Arc<TranspositionTable>>;
    /// Searches with `table` from now on (a table another engine used:
    /// `ghast bench` runs every game in one). An MCTS engine refuses.
    fn use_table(&mut self, table: Arc<TranspositionTable>) -> Result<(), String>;
    /// Waits for a running perft to end.
    fn wait_perft(&mut self);
}

/// What the host is told after [`set_option`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Applied {
    Done,
    /// Something to tell the host (`EvalFile ... loaded`).
    Note(String),
    /// Another game now; `warning` if its settings could not all carry over.
    Variant {
        warning: Option<String>,
    },
}

/// Sets option `name` (the option table's names, case-insensitive). A
/// running search is stopped first. `UCI_Variant` replaces the engine by
/// one of the new game with the same settings. On error the engine is
/// unchanged and the message starts with the option's name.
pub fn set_option(
    engine: &mut Box<dyn Engine>,
    name: &str,
    value: Option<&str>,
) -> Result<Applied, String> {
    engine.stop();
    let mut settings = engine.settings().clone();
    let change = settings.set(name, value)?;
    if let Change::Variant(variant) = change {
        let (next, warning) = switch_variant(variant, settings)?;
        *engine = next;
        return Ok(Applied::Variant { warning });
    }
    Ok(match engine.apply(settings, &change)? {
        Some(note) => Applied::Note(note),
        None => Applied::Done,
    })
}

/// An engine of `variant` with `settings`; a params file that does not
/// fit the new game is dropped with a warning.
fn switch_variant(
    variant: &str,
    settings: Settings,
) -> Result<(Box<dyn Engine>, Option<String>), String> {
    let entry = registry::get(variant)?;
    match (entry.new_engine)(settings.clone()) {
        Ok(e) => Ok((e, None)),
        Err(e) if settings.eval_file.is_some() => {
            let plain = Settings {
                eval_file: None,
                ..settings
            };
            let warning = format!("{e}; using the built-in weights");
            Ok(((entry.new_engine)(plain)?, Some(warning)))
        }
        Err(e) => Err(e),
    }
}

/// An engine of the named variant at its start position.
pub fn for_variant(variant: &str, settings: Settings) -> Result<Box<dyn Engine>, String> {
    (registry::get(variant)?.new_engine)(settings)
}

/// An engine of game `G` at its start position: its memory allocated and
/// its params file (if any) loaded, or an error.
pub fn new_engine<G: Game>(settings: Settings) -> Result<Box<dyn Engine>, String> {
    Ok(Box::new(TypedEngine::<G>::new(settings)?))
}

/// Reads and parses the params file `path` for game `G` (the `EvalFile`
/// option). Only a regular file of at most [`MAX_EVAL_FILE_BYTES`] is read,
/// so a device or a pipe cannot block the engine. Errors name the file,
/// and the line for a malformed file.
pub fn load_eval_file<G: Game>(path: &str) -> Result<G::EvalParams, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    if !meta.is_file() {
        return Err(format!("'{path}' is not a regular file"));
    }
    if meta.len() > MAX_EVAL_FILE_BYTES {
        return Err(format!(
            "'{path}' is larger than {MAX_EVAL_FILE_BYTES} bytes; a params file is a few KiB"
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    G::parse_eval_params(&text)
        .map_err(|e| format!("'{path}' is not a {} params file: {e}", G::VARIANT))
}

struct Running {
    handle: JoinHandle<()>,
    started: Instant,
}

/// The engine of one game (see the module documentation).
pub struct TypedEngine<G: Game> {
    state: GameState<G>,
    settings: Settings,
    /// The `EvalFile` weights; `None`: the compiled-in ones.
    eval: Option<Arc<G::EvalParams>>,
    memory: Arc<Mutex<Memory<G>>>,
    shared: Arc<Shared>,
    running: Option<Running>,
    perft: Option<Counting>,
}

/// A perft on its thread, and the flag that stops it.
struct Counting {
    handle: JoinHandle<()>,
    cancel: Arc<AtomicBool>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The search `settings` ask for in game `G`.
fn kind_for<G: Game>(settings: &Settings) -> SearchKind {
    settings.search.unwrap_or_else(|| {
        registry::find(G::VARIANT).map_or(SearchKind::AlphaBeta, |g| g.default_search)
    })
}

fn load_weights<G: Game>(settings: &Settings) -> Result<Option<Arc<G::EvalParams>>, String> {
    match &settings.eval_file {
        None => Ok(None),
        Some(path) => Ok(Some(Arc::new(load_eval_file::<G>(path)?))),
    }
}

impl<G: Game> TypedEngine<G> {
    /// The weights the search evaluates with: `EvalFile`'s, or the
    /// compiled-in ones.
    fn eval_weights(&self) -> &G::EvalParams {
        self.eval
            .as_deref()
            .unwrap_or_else(|| G::default_eval_params())
    }

    pub fn new(settings: Settings) -> Result<Self, String> {
        let memory = Memory::new(kind_for::<G>(&settings), settings.hash_mb)
            .map_err(|e| format!("Hash: {e}"))?;
        let eval = load_weights::<G>(&settings).map_err(|e| format!("EvalFile: {e}"))?;
        Ok(TypedEngine {
            state: GameState::new(G::startpos()),
            settings,
            eval,
            memory: Arc::new(Mutex::new(memory)),
            shared: Arc::new(Shared::new()),
            running: None,
            perft: None,
        })
    }
}

/// Runs one search of `state`, catching a failure (see the module
/// documentation). After a failure the memory is cleared: a half-written
/// tree must not be searched again.
fn run_search<G: Game>(
    state: &GameState<G>,
    limits: &Limits,
    config: &Config,
    eval: Option<&G::EvalParams>,
    memory: &Mutex<Memory<G>>,
    shared: &Shared,
    on_info: &(dyn Fn(&Info) + Sync),
) -> SearchReply {
    let mut memory = lock(memory);
    let reported_best: Mutex<Option<String>> = Mutex::new(None);
    let report = |info: &Info| {
        if let Some(mv) = info.pv.first() {
            *lock(&reported_best) = Some(mv.clone());
        }
        on_info(info);
    };
    let resources = Resources {
        config,
        eval: eval.unwrap_or_else(|| G::default_eval_params()),
        shared,
    };
    let result = catch_unwind(AssertUnwindSafe(|| {
        search::search(state, limits, resources, &mut memory, &report)
    }));
    match result {
        Ok(outcome) => {
            let best = outcome.best.map(|m| state.position.move_to_string(m));
            let ponder = match (outcome.best, outcome.ponder) {
                (Some(b), Some(p)) => Some(state.position.play(b).move_to_string(p)),
                _ => None,
            };
            SearchReply {
                best,
                ponder,
                score: Score::from_internal(outcome.score),
                depth: outcome.depth,
                nodes: outcome.nodes,
                error: None,
            }
        }
        Err(panic) => {
            memory.clear();
            shared.request_stop();
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown failure".into());
            let best = lock(&reported_best).take().or_else(|| {
                let moves = state.legal_moves();
                moves
                    .as_slice()
                    .first()
                    .map(|&m| state.position.move_to_string(m))
            });
            SearchReply {
                best,
                ponder: None,
                score: Score::Cp(0),
                depth: 0,
                nodes: 0,
                error: Some(format!("search failed: {message}")),
            }
        }
    }
}

impl<G: Game> Engine for TypedEngine<G> {
    fn session(&self) -> &dyn Session {
        &self.state
    }

    fn session_mut(&mut self) -> &mut dyn Session {
        &mut self.state
    }

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn search_kind(&self) -> SearchKind {
        lock(&self.memory).kind()
    }

    fn static_eval(&self) -> i32 {
        self.state.position.evaluate_with(self.eval_weights())
    }

    fn eval_trace(&self) -> Option<EvalTrace> {
        self.state.position.eval_trace(self.eval_weights())
    }

    fn apply(&mut self, settings: Settings, change: &Change) -> Result<Option<String>, String> {
        self.stop();
        let mut note = None;
        match change {
            Change::Value | Change::Variant(_) => {}
            Change::Memory => {
                let kind = kind_for::<G>(&settings);
                let same = kind == self.search_kind() && settings.hash_mb == self.settings.hash_mb;
                if !same {
                    // The old memory stays until the new one exists.
                    let fresh = Memory::new(kind, settings.hash_mb)
                        .map_err(|e| format!("Hash: {e}; the previous table is kept"))?;
                    *lock(&self.memory) = fresh;
                }
            }
            Change::ClearMemory => lock(&self.memory).clear(),
            Change::EvalFile => {
                self.eval = load_weights::<G>(&settings).map_err(|e| format!("EvalFile: {e}"))?;
                // The table keeps static evaluations of the old weights.
                lock(&self.memory).clear();
                if let Some(path) = &settings.eval_file {
                    note = Some(format!("EvalFile {path} loaded for {}", G::VARIANT));
                }
            }
        }
        self.settings = settings;
        Ok(note)
    }

    fn new_game(&mut self) {
        self.stop();
        self.state = GameState::new(G::startpos());
        lock(&self.memory).clear();
    }

    fn go(&mut self, limits: Limits, on_info: InfoSink, on_done: DoneSink) -> Result<(), String> {
        self.stop();
        let state = self.state.clone();
        let config = self.settings.config.clone();
        let eval = self.eval.clone();
        let memory = Arc::clone(&self.memory);
        let shared = Arc::clone(&self.shared);
        // Before the thread starts, so a `stop` or `ponderhit` right after
        // `go` is not lost.
        shared.prepare(&limits);
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let reply = run_search(
                    &state,
                    &limits,
                    &config,
                    eval.as_deref(),
                    &memory,
                    &shared,
                    &*on_info,
                );
                on_done(reply);
            })
            .map_err(|e| format!("cannot start a search thread: {e}"))?;
        self.running = Some(Running {
            handle,
            started: Instant::now(),
        });
        Ok(())
    }

    fn search(&mut self, limits: &Limits, on_info: &(dyn Fn(&Info) + Sync)) -> SearchReply {
        self.stop();
        self.shared.prepare(limits);
        run_search(
            &self.state,
            limits,
            &self.settings.config,
            self.eval.as_deref(),
            &self.memory,
            &self.shared,
            on_info,
        )
    }

    fn stop(&mut self) {
        if let Some(counting) = &self.perft {
            counting.cancel.store(true, Ordering::Relaxed);
            self.wait_perft();
        }
        if let Some(run) = self.running.take() {
            self.shared.request_stop();
            // The thread catches search failures; a failure in `on_done`
            // itself leaves nothing more to deliver.
            let _ = run.handle.join();
        }
    }

    fn ponderhit(&self) {
        if let Some(run) = &self.running {
            self.shared.ponderhit(run.started.elapsed());
        }
    }

    fn is_searching(&mut self) -> bool {
        match &self.running {
            Some(run) if run.handle.is_finished() => {
                self.stop();
                false
            }
            Some(_) => true,
            None => false,
        }
    }

    fn wait(&mut self) {
        if let Some(run) = self.running.take() {
            let _ = run.handle.join();
        }
    }

    fn go_perft(&mut self, depth: u32, on_done: PerftSink) -> Result<(), String> {
        if self.is_counting() {
            return Err("a perft is still running".into());
        }
        // A bad depth is answered now, before the loop reads on (a `quit`
        // right after must not swallow the error).
        crate::perft::check_depth(depth).map_err(|e| e.to_string())?;
        let state = self.state.clone();
        let cancel = Arc::new(AtomicBool::new(false));
        let cancelled = Arc::clone(&cancel);
        let handle = std::thread::Builder::new()
            .name("perft".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                on_done(
                    state
                        .divide(depth, 1, &|_, _, _| {}, &cancelled)
                        .map_err(|e| e.to_string()),
                )
            })
            .map_err(|e| format!("cannot start a perft thread: {e}"))?;
        self.perft = Some(Counting { handle, cancel });
        Ok(())
    }

    fn is_counting(&mut self) -> bool {
        match &self.perft {
            Some(c) if c.handle.is_finished() => {
                self.wait_perft();
                false
            }
            Some(_) => true,
            None => false,
        }
    }

    fn wait_perft(&mut self) {
        if let Some(c) = self.perft.take() {
            let _ = c.handle.join();
        }
    }

    fn table(&self) -> Option<Arc<TranspositionTable>> {
        match &*lock(&self.memory) {
            Memory::Table(tt, _) => Some(Arc::clone(tt)),
            Memory::Tree(_) => None,
        }
    }

    fn use_table(&mut self, table: Arc<TranspositionTable>) -> Result<(), String> {
        self.stop();
        let mut memory = lock(&self.memory);
        match &mut *memory {
            Memory::Table(tt, _) => {
                *tt = table;
                Ok(())
            }
            Memory::Tree(_) => Err("an MCTS engine has no transposition table".into()),
        }
    }
}

impl<G: Game> Drop for TypedEngine<G> {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nimrod() -> Box<dyn Engine> {
        for_variant("nimrod", Settings::default()).unwrap()
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Issue 14: a search that fails (here its progress callback) still
    /// answers with a legal move and says why, on the engine's thread and
    /// on the caller's, and the engine searches normally afterwards.
    #[test]
    fn a_failing_search_still_gives_a_legal_move() {
        let mut engine = nimrod();
        let legal = engine.session().legal_moves();
        let failing: InfoSink = Box::new(|_: &Info| panic!("the host went away"));
        let (tx, rx) = std::sync::mpsc::channel();
        engine
            .go(depth(3), failing, Box::new(move |r| tx.send(r).unwrap()))
            .unwrap();
        let reply = rx.recv().unwrap();
        let error = reply.error.expect("the failure is reported");
        assert!(error.contains("the host went away"), "{error}");
        assert!(legal.contains(&reply.best.unwrap()));

        let reply = engine.search(&depth(2), &|_| panic!("again"));
        assert!(reply.error.is_some());
        assert!(legal.contains(&reply.best.unwrap()));

        let reply = engine.search(&depth(3), &|_| {});
        assert_eq!(reply.error, None);
        assert!(legal.contains(&reply.best.unwrap()));
        assert!(reply.depth >= 3);
    }

    /// A failing main thread stops its helpers too (else a `go infinite`
    /// search would never end), in both searches.
    #[test]
    fn a_failing_search_with_helpers_ends() {
        for kind in ["alphabeta", "mcts"] {
            let mut engine = nimrod();
            set_option(&mut engine, "Threads", Some("2")).unwrap();
            set_option(&mut engine, "Search", Some(kind)).unwrap();
            let infinite = Limits {
                infinite: true,
                ..Limits::default()
            };
            let reply = engine.search(&infinite, &|_| panic!("the host went away"));
            assert!(reply.error.is_some(), "{kind}");
            assert!(reply.best.is_some(), "{kind}");
        }
    }

    /// Issue 14, F7: `EvalFile` reads only regular files of sane size; a
    /// refused file leaves the weights in force.
    #[test]
    fn eval_file_refuses_devices_and_huge_files() {
        let mut engine = nimrod();
        for device in ["/dev/zero", "/dev/stdin", "/"] {
            let e = set_option(&mut engine, "EvalFile", Some(device)).unwrap_err();
            assert!(e.contains("is not a regular file"), "{device}: {e}");
        }
        let huge = std::env::temp_dir().join(format!("ghast-huge-{}.params", std::process::id()));
        let file = std::fs::File::create(&huge).unwrap();
        file.set_len(MAX_EVAL_FILE_BYTES + 1).unwrap();
        let path = huge.to_str().unwrap();
        let e = set_option(&mut engine, "EvalFile", Some(path)).unwrap_err();
        assert!(e.contains("is larger than"), "{e}");
        let _ = std::fs::remove_file(&huge);
        assert_eq!(engine.settings().eval_file, None);
    }

    /// Issue 14, F5: a table that cannot be allocated is an error, and the
    /// engine keeps searching with the table it had.
    #[test]
    fn a_table_too_large_is_an_error_and_the_old_one_stays() {
        assert!(TranspositionTable::try_new(1 << 30).is_err());
        let mut engine = nimrod();
        let before = engine.table().unwrap();
        assert!(set_option(&mut engine, "Hash", Some("0")).is_err());
        assert!(set_option(&mut engine, "Hash", Some("65537")).is_err());
        assert!(Arc::ptr_eq(&before, &engine.table().unwrap()));
        assert_eq!(engine.settings().hash_mb, crate::search::DEFAULT_HASH_MB);
        assert_eq!(before.megabytes(), crate::search::DEFAULT_HASH_MB);
        assert!(engine.search(&depth(2), &|_| {}).best.is_some());
    }

    /// `Search=mcts` keeps a tree and no transposition table; switching
    /// back brings a table of the `Hash` size.
    #[test]
    fn only_the_memory_in_use_exists() {
        let mut engine = nimrod();
        assert_eq!(engine.search_kind(), SearchKind::AlphaBeta);
        set_option(&mut engine, "Search", Some("mcts")).unwrap();
        assert_eq!(engine.search_kind(), SearchKind::Mcts);
        assert!(engine.table().is_none());
        let limits = Limits {
            nodes: Some(500),
            ..Limits::default()
        };
        assert!(engine.search(&limits, &|_| {}).best.is_some());
        set_option(&mut engine, "Search", Some("alphabeta")).unwrap();
        assert!(engine.table().is_some());
    }

    /// Options and the variant carry over when the game changes.
    #[test]
    fn a_variant_switch_keeps_the_settings() {
        let mut engine = nimrod();
        set_option(&mut engine, "Threads", Some("2")).unwrap();
        let applied = set_option(&mut engine, "UCI_Variant", Some("vyremorn")).unwrap();
        assert_eq!(applied, Applied::Variant { warning: None });
        assert_eq!(engine.session().variant(), "vyremorn");
        assert_eq!(engine.settings().config.threads, 2);
        assert!(set_option(&mut engine, "UCI_Variant", Some("chess")).is_err());
        assert_eq!(engine.session().variant(), "vyremorn");
    }
}
