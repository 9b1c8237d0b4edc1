//! The games, and the boundary where a variant name becomes a type.
//!
//! Everything outside this module that needs a game without knowing which
//! one talks to a [`Session`]: an object-safe handle over a
//! [`GameState<G>`](crate::game::GameState). The dynamic dispatch happens
//! once per command; everything inside (move generation, perft, search) is
//! monomorphised for the concrete game.

pub mod nemoroth;
pub mod nimrod;
pub mod vyremorn;

use crate::game::{Color, Game, GameError, GameState, MoveBuffer, Outcome};
use crate::perft::{self, DivideLine};
use crate::search::{self, Config, Info, Limits, Shared};

/// What a search returns, in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReply {
    pub best: Option<String>,
    pub ponder: Option<String>,
    pub score: search::Score,
    pub depth: u32,
    pub nodes: u64,
}

/// Every variant name the engine knows, in the order `uci` lists them.
pub const VARIANTS: [&str; 6] = [
    "nimrod",
    "nimrod-corner",
    "dragon-nimrod",
    "dragon-nimrod-corner",
    "vyremorn",
    "nemoroth",
];

/// The variant played when none is chosen.
pub const DEFAULT_VARIANT: &str = "nimrod";

/// A game in progress, whatever the variant.
pub trait Session: Send + Sync {
    fn clone_box(&self) -> Box<dyn Session>;
    fn variant(&self) -> &'static str;
    /// Board size and start position, for `info string variant ...`.
    fn files(&self) -> u32;
    fn ranks(&self) -> u32;
    fn start_fen(&self) -> String;
    /// Replaces the game by `fen` (or the start position) plus `moves`.
    /// On error the session is unchanged.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), GameError>;
    fn fen(&self) -> String;
    fn side_to_move(&self) -> Color;
    /// Plays one move given in the game's notation after checking that it
    /// is legal; returns it in canonical notation. On error nothing changes.
    fn play_move(&mut self, text: &str) -> Result<String, GameError>;
    /// Legal moves of the current position, in canonical notation.
    fn legal_moves(&self) -> Vec<String>;
    fn outcome(&self) -> Option<Outcome>;
    fn display(&self) -> String;
    /// The current position described for drawing.
    fn board_view(&self) -> crate::board_view::BoardView;
    /// The legal moves of the current position, described for drawing.
    fn move_views(&self) -> Vec<crate::board_view::MoveView>;
    /// Searches the current position (see [`search::search`]).
    fn search(
        &self,
        limits: &Limits,
        config: &Config,
        shared: &Shared,
        report: &(dyn Fn(&Info) + Sync),
    ) -> SearchReply;
    /// Parses a params file for this variant's evaluator (the `EvalFile`
    /// option), ready for [`Config::eval`]; errors name the line.
    fn parse_eval_params(&self, text: &str) -> Result<search::EvalSet, String>;
    /// Perft divide of the current position; an error for a depth over
    /// [`perft::MAX_PERFT_DEPTH`].
    fn divide(
        &self,
        depth: u32,
        threads: usize,
        progress: &(dyn Fn(usize, usize, u64) + Sync),
    ) -> Result<Vec<DivideLine>, GameError>;
}

impl<G: Game> Session for GameState<G> {
    fn clone_box(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }
    fn search(
        &self,
        limits: &Limits,
        config: &Config,
        shared: &Shared,
        report: &(dyn Fn(&Info) + Sync),
    ) -> SearchReply {
        let outcome = search::search(self, limits, config, shared, report);
        let best = outcome.best.map(|m| self.position.move_to_string(m));
        let ponder = match (outcome.best, outcome.ponder) {
            (Some(b), Some(p)) => Some(self.position.play(b).move_to_string(p)),
            _ => None,
        };
        SearchReply {
            best,
            ponder,
            score: search::Score::from_internal(outcome.score),
            depth: outcome.depth,
            nodes: outcome.nodes,
        }
    }
    fn variant(&self) -> &'static str {
        G::VARIANT
    }
    fn files(&self) -> u32 {
        G::FILES
    }
    fn ranks(&self) -> u32 {
        G::RANKS
    }
    fn start_fen(&self) -> String {
        G::startpos().to_fen()
    }
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), GameError> {
        *self = GameState::from_setup(fen, moves)?;
        Ok(())
    }
    fn fen(&self) -> String {
        self.position.to_fen()
    }
    fn side_to_move(&self) -> Color {
        self.position.side_to_move()
    }
    fn play_move(&mut self, text: &str) -> Result<String, GameError> {
        let mv = self.position.parse_move(&self.history, text)?;
        let canonical = self.position.move_to_string(mv);
        GameState::play(self, mv);
        Ok(canonical)
    }
    fn legal_moves(&self) -> Vec<String> {
        let moves = GameState::legal_moves(self);
        moves
            .as_slice()
            .iter()
            .map(|&m| self.position.move_to_string(m))
            .collect()
    }
    fn outcome(&self) -> Option<Outcome> {
        GameState::outcome(self)
    }
    fn display(&self) -> String {
        self.position.display()
    }
    fn board_view(&self) -> crate::board_view::BoardView {
        self.position.board_view()
    }
    fn move_views(&self) -> Vec<crate::board_view::MoveView> {
        let moves = GameState::legal_moves(self);
        moves
            .as_slice()
            .iter()
            .map(|&m| self.position.move_view(m))
            .collect()
    }
    fn parse_eval_params(&self, text: &str) -> Result<search::EvalSet, String> {
        Ok(std::sync::Arc::new(G::parse_eval_params(text)?))
    }
    fn divide(
        &self,
        depth: u32,
        threads: usize,
        progress: &(dyn Fn(usize, usize, u64) + Sync),
    ) -> Result<Vec<DivideLine>, GameError> {
        perft::divide(&self.position, &self.history, depth, threads, progress)
    }
}

fn session<G: Game>() -> Box<dyn Session> {
    Box::new(GameState::new(G::startpos()))
}

/// `EvalFile` values that mean the compiled-in weights.
pub fn is_default_eval_file(value: &str) -> bool {
    let v = value.trim();
    v.is_empty() || v == "<default>" || v.eq_ignore_ascii_case("default")
}

/// Reads and parses the params file `path` for `session`'s variant (the
/// `EvalFile` option). The error names the file, and the line for a
/// malformed file.
pub fn load_eval_file(session: &dyn Session, path: &str) -> Result<search::EvalSet, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    session
        .parse_eval_params(&text)
        .map_err(|e| format!("'{path}' is not a {} params file: {e}", session.variant()))
}

/// A new game of the named variant at its start position.
pub fn new_session(variant: &str) -> Result<Box<dyn Session>, GameError> {
    match variant {
        "nimrod" => Ok(session::<nimrod::Nimrod>()),
        "nimrod-corner" => Ok(session::<nimrod::NimrodCorner>()),
        "dragon-nimrod" => Ok(session::<nimrod::DragonNimrod>()),
        "dragon-nimrod-corner" => Ok(session::<nimrod::DragonNimrodCorner>()),
        "vyremorn" => Ok(session::<vyremorn::Vyremorn>()),
        "nemoroth" => Ok(session::<nemoroth::Nemoroth>()),
        other => Err(GameError(format!(
            "unknown variant '{other}'; known variants: {}",
            VARIANTS.join(", ")
        ))),
    }
}
