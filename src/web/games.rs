//! The games the server holds: a bounded store (the oldest game is dropped
//! to make room), each game's record of moves, its running search and the
//! listeners of its event stream; the STATE every endpoint answers with,
//! and the PGN export.

use super::session::{Engine, ScoreView, SearchResult};
use crate::board_view::{BoardView, MoveView, Side};
use crate::game::{Color, Outcome};
use crate::pgn;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::mpsc;

/// Games held at once; creating one more drops the oldest.
pub const MAX_GAMES: usize = 64;

/// One move of a game's record.
#[derive(Clone, Debug, Serialize)]
pub struct Played {
    pub notation: String,
    pub side: Side,
    /// Present when the engine chose the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineNote>,
}

/// What the engine said about a move it played.
#[derive(Clone, Debug, Serialize)]
pub struct EngineNote {
    pub score: ScoreView,
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: u64,
}

/// Which kind of search is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchKind {
    /// `go`: the engine will play its move.
    Go,
    /// Analysis: lines only, no move.
    Analysis,
}

/// A search in progress.
pub struct Running {
    pub kind: SearchKind,
    /// For an analysis: the task that ends it (awaited before the position
    /// may change).
    pub task: Option<tokio::task::JoinHandle<()>>,
}

/// One event for the game's stream: an SSE event name and its JSON data.
#[derive(Clone, Debug)]
pub struct Event {
    pub name: &'static str,
    pub data: String,
}

/// A game in the store.
pub struct GameEntry {
    pub id: u64,
    pub engine: Engine,
    /// The position string given at creation (`None`: start position).
    pub start: Option<String>,
    pub record: Vec<Played>,
    pub running: Option<Running>,
    /// The event stream; searches report to it without locking the game.
    pub channel: Arc<Channel>,
}

/// A game's event stream and the PV of its latest search.
#[derive(Default)]
pub struct Channel {
    inner: Mutex<ChannelState>,
}

#[derive(Default)]
struct ChannelState {
    listeners: Vec<mpsc::UnboundedSender<Event>>,
    last_pv: Vec<String>,
}

impl Channel {
    fn state(&self) -> MutexGuard<'_, ChannelState> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn subscribe(&self) -> mpsc::UnboundedReceiver<Event> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.state().listeners.push(tx);
        rx
    }

    /// Sends an event to every listener, forgetting those that left.
    pub fn broadcast(&self, name: &'static str, data: &impl Serialize) {
        let data = serde_json::to_string(data).unwrap_or_else(|_| "null".into());
        self.state().listeners.retain(|l| {
            l.send(Event {
                name,
                data: data.clone(),
            })
            .is_ok()
        });
    }

    /// The event that ends a search, for the stream.
    pub fn search_done(&self, kind: SearchKind, result: &SearchResult) {
        #[derive(Serialize)]
        struct Done<'a> {
            kind: SearchKind,
            #[serde(flatten)]
            result: &'a SearchResult,
        }
        self.broadcast("done", &Done { kind, result });
    }

    pub fn set_last_pv(&self, pv: Vec<String>) {
        self.state().last_pv = pv;
    }

    pub fn last_pv(&self) -> Vec<String> {
        self.state().last_pv.clone()
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, Serialize)]
pub struct OutcomeView {
    /// PGN result: "1-0", "0-1" or "1/2-1/2".
    pub result: &'static str,
    /// `None` for a draw.
    pub winner: Option<Side>,
    pub reason: String,
}

impl From<Outcome> for OutcomeView {
    fn from(o: Outcome) -> OutcomeView {
        match o {
            Outcome::Win(c, why) => OutcomeView {
                result: if c == Color::White { "1-0" } else { "0-1" },
                winner: Some(c.into()),
                reason: why.to_string(),
            },
            Outcome::Draw(why) => OutcomeView {
                result: "1/2-1/2",
                winner: None,
                reason: why.to_string(),
            },
        }
    }
}

/// The state of a game, as every endpoint reports it.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    pub id: String,
    pub variant: &'static str,
    /// The current position string.
    pub position: String,
    /// The position the game started from.
    pub start_position: String,
    pub side_to_move: Side,
    /// Legal moves in the game's notation.
    pub legal_moves: Vec<String>,
    /// The same moves described (squares, kind, label).
    pub legal: Vec<MoveView>,
    pub moves: Vec<Played>,
    pub outcome: Option<OutcomeView>,
    /// The running search, if any.
    pub thinking: Option<SearchKind>,
    pub board: BoardView,
}

impl GameEntry {
    pub fn new(id: u64, engine: Engine, start: Option<String>) -> GameEntry {
        GameEntry {
            id,
            engine,
            start,
            record: Vec::new(),
            running: None,
            channel: Arc::default(),
        }
    }

    pub fn start_position(&self) -> String {
        match &self.start {
            Some(p) => p.clone(),
            None => self.engine.start_position(),
        }
    }

    pub fn state(&self) -> State {
        let legal = self.engine.legal_moves();
        State {
            id: self.id.to_string(),
            variant: self.engine.variant(),
            position: self.engine.position(),
            start_position: self.start_position(),
            side_to_move: self.engine.side_to_move().into(),
            legal_moves: legal.iter().map(|m| m.notation.clone()).collect(),
            legal,
            moves: self.record.clone(),
            outcome: self.engine.outcome().map(Into::into),
            thinking: self.running.as_ref().map(|r| r.kind),
            board: self.engine.board(),
        }
    }

    /// Plays a move and records who chose it.
    pub fn play(&mut self, text: &str, engine: Option<EngineNote>) -> Result<String, String> {
        let side = self.engine.side_to_move().into();
        let notation = self.engine.play(text)?;
        self.record.push(Played {
            notation: notation.clone(),
            side,
            engine,
        });
        Ok(notation)
    }

    /// Takes back the last `plies` moves (all of them if fewer).
    pub fn undo(&mut self, plies: usize) -> Result<(), String> {
        let keep = self.record.len().saturating_sub(plies);
        let moves: Vec<&str> = self.record[..keep]
            .iter()
            .map(|p| p.notation.as_str())
            .collect();
        self.engine.set_up(self.start.as_deref(), &moves)?;
        self.record.truncate(keep);
        Ok(())
    }

    /// The game as PGN, in the form `ghast match` writes.
    pub fn pgn(&self) -> String {
        let state_outcome = self.engine.outcome().map(OutcomeView::from);
        let result = state_outcome.as_ref().map_or("*", |o| o.result);
        let player = |side: Side| {
            let mine: Vec<&Played> = self.record.iter().filter(|p| p.side == side).collect();
            if mine.is_empty() {
                "?"
            } else if mine.iter().all(|p| p.engine.is_some()) {
                "ghast"
            } else if mine.iter().all(|p| p.engine.is_none()) {
                "Human"
            } else {
                "Human and ghast"
            }
        };
        let mut s = String::new();
        let mut tag = |k: &str, v: &str| pgn::tag(&mut s, k, v);
        tag("Event", "ghast serve");
        tag("Site", "?");
        tag("Date", &pgn::today());
        tag("Round", "-");
        tag("White", player(Side::White));
        tag("Black", player(Side::Black));
        tag("Result", result);
        tag("Variant", self.engine.variant());
        tag("FEN", &self.start_position());
        tag("SetUp", "1");
        if let Some(o) = &state_outcome {
            tag("Termination", &o.reason);
        }
        tag("PlyCount", &self.record.len().to_string());
        s.push('\n');
        s.push_str(&movetext(&self.record, result));
        s.push_str("\n\n");
        s
    }
}

/// Numbered moves, engine moves with `{score/depth time}` comments.
fn movetext(record: &[Played], result: &str) -> String {
    let moves = record.iter().map(|p| pgn::MoveText {
        notation: &p.notation,
        by_white: p.side == Side::White,
        comment: p.engine.as_ref().map(|note| {
            pgn::engine_comment(
                Some(note.score.into()),
                note.depth,
                note.time_ms as f64 / 1000.0,
            )
        }),
    });
    pgn::movetext(moves, 1, result)
}

/// The games, by id; ids count up from 1 and are never reused.
#[derive(Default)]
pub struct Store {
    next_id: u64,
    games: BTreeMap<u64, Arc<Mutex<GameEntry>>>,
}

impl Store {
    /// Adds a game, dropping the oldest (and stopping its search) when
    /// the store is full; returns the new game.
    pub fn insert(&mut self, engine: Engine, start: Option<String>) -> Arc<Mutex<GameEntry>> {
        while self.games.len() >= MAX_GAMES {
            let Some((_, oldest)) = self.games.pop_first() else {
                break;
            };
            lock(&oldest).engine.stop();
        }
        self.next_id += 1;
        let game = Arc::new(Mutex::new(GameEntry::new(self.next_id, engine, start)));
        self.games.insert(self.next_id, game.clone());
        game
    }

    pub fn get(&self, id: u64) -> Option<Arc<Mutex<GameEntry>>> {
        self.games.get(&id).cloned()
    }
}

/// Locks a game; a search thread that panicked while holding it leaves
/// the game usable (its state is only ever replaced whole).
pub fn lock(game: &Mutex<GameEntry>) -> MutexGuard<'_, GameEntry> {
    game.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
