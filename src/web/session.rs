//! Every call the web board makes into the engine, in one place: a game
//! set up and played through the engine layer's handle ([`crate::engine`],
//! the same one the protocols use), its queries (board view, legal moves,
//! outcome) and its searches on the engine's own thread.

use crate::board_view::{BoardView, MoveView};
use crate::engine::{self, Color, Info, Limits, Outcome, Score, Session, Settings};
use crate::registry;
use serde::Serialize;
use tokio::sync::oneshot;

/// Transposition table of each game's engine (the store holds many games).
const HASH_MB: usize = 8;

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
    registry::GAMES
        .iter()
        .map(|g| (g.new_session)())
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

impl From<ScoreView> for Score {
    fn from(s: ScoreView) -> Score {
        match s {
            ScoreView::Cp(c) => Score::Cp(c),
            ScoreView::Mate(m) => Score::Mate(m),
        }
    }
}

impl From<Score> for ScoreView {
    fn from(s: Score) -> ScoreView {
        match s {
            Score::Cp(c) => ScoreView::Cp(c),
            Score::Mate(m) => ScoreView::Mate(m),
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

/// Whether `variant` names a game.
pub fn is_variant(variant: &str) -> bool {
    registry::find(variant).is_some()
}

/// Every variant name, for messages.
pub fn variant_names() -> String {
    registry::NAMES.join(", ")
}

/// Largest MultiPV a search takes, from the engine's option table.
pub fn max_multipv() -> usize {
    match engine::options::find("MultiPV").map(|o| o.kind) {
        Some(engine::OptionKind::Spin { max, .. }) => max as usize,
        _ => 1,
    }
}

/// One game and its engine.
pub struct Engine {
    engine: Box<dyn engine::Engine>,
}

impl Engine {
    /// A game of `variant` from `position` (or the start position) plus
    /// `moves`.
    pub fn new(variant: &str, position: Option<&str>, moves: &[&str]) -> Result<Engine, String> {
        let settings = Settings {
            hash_mb: HASH_MB,
            ..Settings::default()
        };
        let mut engine = engine::for_variant(variant, settings)?;
        engine
            .session_mut()
            .set_position(position, moves)
            .map_err(|e| format!("bad position: {e}"))?;
        Ok(Engine { engine })
    }

    fn session(&self) -> &dyn Session {
        self.engine.session()
    }

    /// Replaces the game by `position` plus `moves`; unchanged on error.
    pub fn set_up(&mut self, position: Option<&str>, moves: &[&str]) -> Result<(), String> {
        self.engine.stop();
        self.engine
            .session_mut()
            .set_position(position, moves)
            .map_err(|e| e.to_string())
    }

    pub fn variant(&self) -> &'static str {
        self.session().variant()
    }

    /// The variant's start position.
    pub fn start_position(&self) -> String {
        self.session().start_fen()
    }

    pub fn position(&self) -> String {
        self.session().fen()
    }

    pub fn side_to_move(&self) -> Color {
        self.session().side_to_move()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.session().outcome()
    }

    pub fn board(&self) -> BoardView {
        self.session().board_view()
    }

    pub fn legal_moves(&self) -> Vec<MoveView> {
        self.session().move_views()
    }

    /// Plays a move given in the game's notation; returns it canonical.
    pub fn play(&mut self, text: &str) -> Result<String, String> {
        self.engine
            .session_mut()
            .play_move(text)
            .map_err(|e| e.to_string())
    }

    /// Starts searching the current position on the engine's thread.
    /// `on_line` receives each line of progress; the receiver gets the
    /// result once the search ends (by a limit or by [`Engine::stop`]).
    pub fn search(
        &mut self,
        limits: SearchLimits,
        on_line: impl Fn(AnalysisLine) + Send + Sync + 'static,
    ) -> Result<oneshot::Receiver<SearchResult>, String> {
        self.engine.stop();
        let multipv = limits.multipv.clamp(1, max_multipv());
        if self.engine.settings().config.multipv != multipv {
            let mut settings = self.engine.settings().clone();
            let change = settings.set("MultiPV", Some(&multipv.to_string()))?;
            self.engine.apply(settings, &change)?;
        }
        let limits = Limits {
            depth: limits.depth,
            nodes: limits.nodes,
            movetime: limits.movetime_ms,
            infinite: limits.movetime_ms.is_none()
                && limits.depth.is_none()
                && limits.nodes.is_none(),
            ..Limits::default()
        };
        let root = self.session().clone_box();
        let (reply_to, reply) = oneshot::channel();
        self.engine.go(
            limits,
            Box::new(move |info: &Info| on_line(describe_line(root.as_ref(), info))),
            Box::new(move |found| {
                // The receiver may have gone (the game was dropped).
                let _ = reply_to.send(SearchResult {
                    best: found.best,
                    score: found.score.into(),
                    depth: found.depth,
                    nodes: found.nodes,
                });
            }),
        )?;
        Ok(reply)
    }

    /// Ends a running search; its result is delivered before this returns.
    pub fn stop(&mut self) {
        self.engine.stop();
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
