//! A game in progress, whatever the variant: the object-safe face of a
//! [`GameState<G>`] for everything that sets up positions and asks about
//! them without searching (referees, opening files, perft, protocols).

use crate::board_view::{BoardView, MoveView};
use crate::game::{Color, Game, GameError, GameState, MoveBuffer, Outcome};
use crate::perft::{self, DivideLine};
use std::sync::atomic::AtomicBool;

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
    fn board_view(&self) -> BoardView;
    /// The legal moves of the current position, described for drawing.
    fn move_views(&self) -> Vec<MoveView>;
    /// Perft divide of the current position; an error for a depth over
    /// [`perft::MAX_PERFT_DEPTH`] or once `cancel` is set.
    fn divide(
        &self,
        depth: u32,
        threads: usize,
        progress: &(dyn Fn(usize, usize, u64) + Sync),
        cancel: &AtomicBool,
    ) -> Result<Vec<DivideLine>, GameError>;
}

impl<G: Game> Session for GameState<G> {
    fn clone_box(&self) -> Box<dyn Session> {
        Box::new(self.clone())
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
    fn board_view(&self) -> BoardView {
        self.position.board_view()
    }
    fn move_views(&self) -> Vec<MoveView> {
        let moves = GameState::legal_moves(self);
        moves
            .as_slice()
            .iter()
            .map(|&m| self.position.move_view(m))
            .collect()
    }
    fn divide(
        &self,
        depth: u32,
        threads: usize,
        progress: &(dyn Fn(usize, usize, u64) + Sync),
        cancel: &AtomicBool,
    ) -> Result<Vec<DivideLine>, GameError> {
        perft::divide(
            &self.position,
            &self.history,
            depth,
            threads,
            progress,
            cancel,
        )
    }
}
