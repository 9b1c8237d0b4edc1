//! Every call the web board makes into the engine, in one place: a game
//! set up and played through the engine's handle, its queries (board view,
//! legal moves, outcome) and searches on their own threads.

use crate::board_view::{BoardView, MoveView};
use crate::game::{Color, Outcome};
use crate::search::{self, Config, Info, Limits, Shared};
use crate::variants::{self, Session};
use serde::Serialize;
use std::sync::Arc;
use tokio::sync::oneshot;

/// Transposition table of one game's searches, allocated at its first
/// search (the store holds many games; most never search).
const HASH_MB: usize = 16;

/// A variant the server offers.
#[derive(Clone, Debug, Serialize)]
pub struct VariantInfo {
    pub name: &'static str,
    pub start_position: String,
    pub files: u32,
    pub ranks: u32,
}

/// Every variant, in the engine's order.
pub fn variants() -> Vec<VariantInfo> {
    variants::VARIANTS
        .iter()
        .filter_map(|&name| variants::new_session(name).ok())
        .map(|s| VariantInfo {
            name: s.variant(),
            start_position: s.start_fen(),
            files: s.files(),
            ranks: s.ranks(),
        })
        .collect()
}

/// A score as the page shows it, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoreView {
    Cp(i32),
    Mate(i32),
}

impl From<search::Score> for ScoreView {
    fn from(s: search::Score) -> ScoreView {
        match s {
            search::Score::Cp(c) => ScoreView::Cp(c),
            search::Score::Mate(m) => ScoreView::Mate(m),
        }
    }
}

/// One line of search progress, with its PV described move by move.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisLine {
    /// The position searched (lines of an older search can still arrive).
    pub position: String,
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: ScoreView,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<&'static str>,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub pv: Vec<String>,
    /// `pv[i]` described in the position it is played in.
    pub pv_moves: Vec<MoveView>,
}

/// What a finished search found.
#[derive(Clone, Debug, Serialize)]
pub struct SearchResult {
    pub best: Option<String>,
    pub score: ScoreView,
    pub depth: u32,
    pub nodes: u64,
}

/// How a search is bounded (all optional: none means until stopped).
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchLimits {
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub multipv: usize,
}

/// Stops a running search; the search then reports what it has.
#[derive(Clone)]
pub struct StopHandle(Arc<Shared>);

impl StopHandle {
    pub fn stop(&self) {
        self.0.request_stop();
    }
}

/// One game and its engine.
pub struct Engine {
    session: Box<dyn Session>,
    shared: Option<Arc<Shared>>,
}

impl Engine {
    /// A game of `variant` from `position` (or the start position) plus
    /// `moves`.
    pub fn new(variant: &str, position: Option<&str>, moves: &[&str]) -> Result<Engine, String> {
        let mut session = variants::new_session(variant).map_err(|e| e.to_string())?;
        session
            .set_position(position, moves)
            .map_err(|e| format!("bad position: {e}"))?;
        Ok(Engine {
            session,
            shared: None,
        })
    }

    /// Replaces the game by `position` plus `moves`; unchanged on error.
    pub fn set_up(&mut self, position: Option<&str>, moves: &[&str]) -> Result<(), String> {
        self.session
            .set_position(position, moves)
            .map_err(|e| e.to_string())
    }

    pub fn variant(&self) -> &'static str {
        self.session.variant()
    }

    pub fn position(&self) -> String {
        self.session.fen()
    }

    pub fn side_to_move(&self) -> Color {
        self.session.side_to_move()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.session.outcome()
    }

    pub fn board(&self) -> BoardView {
        self.session.board_view()
    }

    pub fn legal_moves(&self) -> Vec<MoveView> {
        self.session.move_views()
    }

    /// Plays a move given in the game's notation; returns it canonical.
    pub fn play(&mut self, text: &str) -> Result<String, String> {
        self.session.play_move(text).map_err(|e| e.to_string())
    }

    /// Starts searching the current position on a thread of its own.
    /// `on_line` receives each line of progress; the receiver gets the
    /// result once the search ends (by a limit or by the stop handle).
    pub fn search(
        &mut self,
        limits: SearchLimits,
        on_line: impl Fn(AnalysisLine) + Send + Sync + 'static,
    ) -> Result<(StopHandle, oneshot::Receiver<SearchResult>), String> {
        let shared = self
            .shared
            .get_or_insert_with(|| Arc::new(Shared::new(HASH_MB)))
            .clone();
        let limits_in = Limits {
            depth: limits.depth,
            nodes: limits.nodes,
            movetime: limits.movetime_ms,
            infinite: limits.movetime_ms.is_none()
                && limits.depth.is_none()
                && limits.nodes.is_none(),
            ..Limits::default()
        };
        let config = Config {
            multipv: limits.multipv.clamp(1, search::MAX_MULTIPV),
            ..Config::default()
        };
        let root = self.session.clone_box();
        let (reply_to, reply) = oneshot::channel();
        let thread_shared = shared.clone();
        std::thread::Builder::new()
            .name("ghast-web-search".into())
            .stack_size(search::SEARCH_STACK_BYTES)
            .spawn(move || {
                thread_shared.prepare(&limits_in);
                let report = |info: &Info| on_line(describe_line(root.as_ref(), info));
                let found = root.search(&limits_in, &config, &thread_shared, &report);
                // The receiver may have gone (the request was dropped).
                let _ = reply_to.send(SearchResult {
                    best: found.best,
                    score: found.score.into(),
                    depth: found.depth,
                    nodes: found.nodes,
                });
            })
            .map_err(|e| format!("cannot start a search thread: {e}"))?;
        Ok((StopHandle(shared), reply))
    }
}

/// A progress line with its PV described by replaying it from the root.
fn describe_line(root: &dyn Session, info: &Info) -> AnalysisLine {
    let mut game = root.clone_box();
    let mut pv_moves = Vec::with_capacity(info.pv.len());
    for text in &info.pv {
        let Some(view) = game.move_views().into_iter().find(|v| &v.notation == text) else {
            break;
        };
        if game.play_move(text).is_err() {
            break;
        }
        pv_moves.push(view);
    }
    AnalysisLine {
        position: root.fen(),
        depth: info.depth,
        seldepth: info.seldepth,
        multipv: info.multipv,
        score: info.score.into(),
        bound: info.bound,
        nodes: info.nodes,
        nps: info.nps,
        time_ms: info.time_ms,
        pv: info.pv.clone(),
        pv_moves,
    }
}
