//! The Game of Nemoroth (Ralph Betza, 2002), exactly as
//! `shared/rules/nemoroth.md` defines it (rules 3.1–3.14, decisions
//! N1–N52, NFEN and NMN of section 5).
//!
//! Design:
//! - [`board`]: the position is a value (copy-make, like every game here):
//!   a sorted cell of piece codes per square (stacks are multisets, and a
//!   sorted cell is already the canonical multiset), summary bitboards kept
//!   in step square by square, the ichor map with remaining plies, the side
//!   to move. Seen squares and Ghast fields are derived on demand from the
//!   Basilisk/Ghast bitboards and precomputed tables — never stored.
//! - [`apply`]: move application touching only the squares a move affects
//!   (a local petrification pass suffices because a legal position never
//!   has a mobile non-Zombie piece on a seen square). A [`apply::Tracker`]
//!   follows the compelled piece instances and enemy Ghasts through a move.
//! - [`compulsion`]: MO / ICH / FL elements at the start of a turn and the
//!   response predicates of 3.12, judged on the state after the whole move
//!   including the ichor countdown.
//! - [`movegen`]: candidates under R1–R3, screams with every distinct push
//!   order (only orders that place Basilisk groups differently can differ),
//!   each candidate applied in full; kept if it answers a compulsion (when
//!   there is one) and does not recreate a configuration of the history.
//! - [`notation`]: NFEN and NMN, validation with reasons, the `d` drawing.
//! - [`eval`]: the evaluator; weights in `tuning/nemoroth.params`.
//!
//! Repetition: [`Game::repetition_key`] is the configuration key (placement
//! with statue/digesting flags, merged Mummies; no ichor, no side). The
//! history given to [`Game::legal_moves`] holds the keys of the positions
//! *before* this one; the current configuration counts as occurred too.

pub mod apply;
pub mod board;
pub mod compulsion;
pub mod eval;
pub mod movegen;
pub mod notation;
mod view;

pub use board::Nemoroth;
pub use movegen::{MAX_MOVES, NMove};

use crate::game::{Color, Game, GameError, History, MoveBuffer, MoveList, Outcome, Termination};
use board::*;

impl Game for Nemoroth {
    type Move = NMove;
    type Moves = MoveList<NMove, MAX_MOVES>;

    const VARIANT: &'static str = "nemoroth";
    const LEGALITY_USES_HISTORY: bool = true;
    const FILES: u32 = 8;
    const RANKS: u32 = 8;

    fn startpos() -> Self {
        Nemoroth::from_nfen(notation::START_NFEN).expect("the start position is valid")
    }

    fn from_fen(fen: &str) -> Result<Self, GameError> {
        Nemoroth::from_nfen(fen)
    }

    fn to_fen(&self) -> String {
        self.to_nfen()
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn legal_moves(&self, history: &History, out: &mut Self::Moves) {
        out.clear();
        self.generate(history, &mut |m, _| {
            if out.len() < MAX_MOVES {
                out.push(m);
            }
        });
    }

    fn count_legal_moves(&self, history: &History) -> u64 {
        let mut n = 0;
        self.generate(history, &mut |_, _| n += 1);
        n
    }

    fn play(&self, mv: NMove) -> Self {
        let mut child = self.clone();
        let mut tr = apply::Tracker::new();
        if mv.is_scream() {
            let (order, n) = mv.order();
            child.apply_scream(mv.from(), &order[..n], &mut tr);
        } else {
            let us = self.side.index();
            let code = self
                .pieces(mv.from())
                .iter()
                .copied()
                .find(|&c| is_mobile(c) && owner(c) == us && kind(c) == mv.kind())
                .expect("move from a square without the moving piece");
            child.apply_step(mv.from(), mv.to(), code, &mut tr);
        }
        child
    }

    fn hash(&self) -> u64 {
        self.state_key()
    }

    fn repetition_key(&self) -> u64 {
        self.config_key()
    }

    fn outcome(&self, history: &History) -> Option<Outcome> {
        if self.count_legal_moves(history) == 0 {
            Some(Outcome::Win(self.side.flip(), Termination::NoLegalMove))
        } else {
            None
        }
    }

    fn move_to_string(&self, mv: NMove) -> String {
        self.move_text(mv)
    }

    fn parse_move(&self, history: &History, text: &str) -> Result<NMove, GameError> {
        self.parse_nmn(history, text)
    }

    fn board_view(&self) -> crate::board_view::BoardView {
        self.view()
    }

    fn move_view(&self, mv: NMove) -> crate::board_view::MoveView {
        self.describe(mv, self.move_text(mv))
    }

    fn display(&self) -> String {
        let mut s = self.diagram();
        s.push_str(&format!("\nFen: {}\n", self.to_nfen()));
        s.push_str(&format!("Key: {:016X}\n", self.state_key()));
        s.push_str(&format!("Configuration key: {:016X}\n", self.config_key()));
        s.push_str(&format!(
            "Side to move: {}\n",
            if self.side == Color::White {
                "Alabaster"
            } else {
                "Obsidian"
            }
        ));
        let lines = self.compulsion_lines();
        if lines.is_empty() {
            s.push_str("Compelled: none\n");
        } else {
            s.push_str("Compelled (the move must answer at least one):\n");
            for l in lines {
                s.push_str(&format!("  {l}\n"));
            }
        }
        s
    }

    const HISTORY_SIZE: usize = 64 * 64;

    /// No royal piece, so no check.
    fn gives_check(&self, _mv: NMove) -> bool {
        false
    }

    /// Tactical: screams, Zombie and Leaf Pile moves onto occupied squares,
    /// Zombie moves onto ichor, promotions, and moves landing on a seen
    /// square or moving a Basilisk next to pieces (petrification). Cheap:
    /// only the move and the summary bitboards are read.
    fn is_tactical(&self, mv: NMove) -> bool {
        if mv.is_scream() {
            return true;
        }
        let (from, to) = (mv.from(), mv.to());
        let tb = 1u64 << to;
        match mv.kind() {
            K_Z => self.occ & tb != 0 || self.ichor_bb & tb != 0,
            K_L => self.occ & tb != 0,
            K_H => fy(to) == last_rank(self.side.index()) || self.is_seen(to),
            K_B => {
                T.sees[self.side.index()][to] & self.occ & !(1u64 << from) != 0 || self.is_seen(to)
            }
            _ => self.is_seen(to),
        }
    }

    fn tactical_score(&self, mv: NMove) -> i32 {
        if mv.is_scream() {
            return 10;
        }
        self.count(mv.to()) as i32 * 20
    }

    type EvalParams = eval::EvalParams;

    fn default_eval_params() -> &'static eval::EvalParams {
        eval::default_params()
    }

    fn parse_eval_params(text: &str) -> Result<eval::EvalParams, String> {
        eval::EvalParams::parse(text)
    }

    #[inline]
    fn evaluate_with(&self, params: &eval::EvalParams) -> i32 {
        eval::evaluate_with(self, params)
    }

    fn no_moves_loses(&self) -> bool {
        true
    }

    type Threats = ();

    fn threats(&self) {}

    type CheckInfo = ();

    fn check_info(&self) {}

    fn encode_move(mv: NMove) -> u32 {
        mv.0
    }

    fn history_index(&self, mv: NMove) -> usize {
        if mv.is_scream() {
            mv.from() * 65
        } else {
            mv.from() * 64 + mv.to()
        }
    }
}

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
