//! Nimrod Chess (Charles Gilman) in its four forms, exactly as
//! `shared/rules/nimrod.md` defines them.
//!
//! One generic position type, [`Position<F>`], serves all four variants; the
//! [`Flavor`] parameter fixes the orientation (FIDE or corner) and whether
//! the Dragon promotion rules apply, so every branch on them is resolved at
//! compile time. Piece movement is derived from each side's forward vector
//! in [`pieces`]; [`movegen`] generates strictly legal moves.

pub mod eval;
pub mod movegen;
pub mod pieces;
pub mod position;
mod tactics;
mod view;

use crate::bitboard::{parse_square, square_name, squares};
use crate::game::{
    Color, Game, GameError, History, MoveBuffer, MoveList, Outcome, Termination, err,
};
pub use position::{Move, Position};

/// Compile-time description of one Nimrod variant.
pub trait Flavor: Copy + Clone + Send + Sync + PartialEq + Eq + std::fmt::Debug + 'static {
    const NAME: &'static str;
    /// Corner orientation: forward is towards a8 for White.
    const CORNER: bool;
    /// Dragon Nimrod promotion rules.
    const DRAGON: bool;
    /// Distinguishes the variants in the position hash.
    const ID: u8;
    const START_FEN: &'static str;
}

const FIDE_START: &str = "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1";
/// Reconstructed corner array (rulebook 2.2, M2).
const CORNER_START: &str = "kynhp3/qppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK w - - 0 1";

macro_rules! flavor {
    ($ty:ident, $name:literal, $corner:literal, $dragon:literal, $id:literal, $start:expr) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $ty;
        impl Flavor for $ty {
            const NAME: &'static str = $name;
            const CORNER: bool = $corner;
            const DRAGON: bool = $dragon;
            const ID: u8 = $id;
            const START_FEN: &'static str = $start;
        }
    };
}

flavor!(Fide, "nimrod", false, false, 0, FIDE_START);
flavor!(Corner, "nimrod-corner", true, false, 1, CORNER_START);
flavor!(DragonFide, "dragon-nimrod", false, true, 2, FIDE_START);
flavor!(
    DragonCorner,
    "dragon-nimrod-corner",
    true,
    true,
    3,
    CORNER_START
);

pub type Nimrod = Position<Fide>;
pub type NimrodCorner = Position<Corner>;
pub type DragonNimrod = Position<DragonFide>;
pub type DragonNimrodCorner = Position<DragonCorner>;

/// More than the legal moves of any reachable Nimrod position.
pub const MAX_MOVES: usize = 320;

impl<F: Flavor> Game for Position<F> {
    type Move = Move;
    type Moves = MoveList<Move, MAX_MOVES>;

    const VARIANT: &'static str = F::NAME;
    const LEGALITY_USES_HISTORY: bool = false;
    const FILES: u32 = 8;
    const RANKS: u32 = 8;
    /// More of the clock early: +17 Elo over 3,300 games at 1+0.01
    /// against 30 (README, "Strength", session 13).
    const CLOCK_MOVES: u32 = 20;

    fn startpos() -> Self {
        Self::from_fen(F::START_FEN).expect("the start position is valid")
    }

    fn from_fen(fen: &str) -> Result<Self, GameError> {
        Position::from_fen(fen)
    }

    fn to_fen(&self) -> String {
        Position::to_fen(self)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    fn legal_moves(&self, _history: &History, out: &mut Self::Moves) {
        out.clear();
        self.generate(out);
    }

    #[inline]
    fn count_legal_moves(&self, _history: &History) -> u64 {
        let mut counter = movegen::Counter(0);
        self.generate(&mut counter);
        counter.0
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        Position::play(self, mv)
    }

    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    fn outcome(&self, history: &History) -> Option<Outcome> {
        if self.count_legal_moves(history) == 0 {
            return Some(if self.in_check() {
                Outcome::Win(self.side.flip(), Termination::Checkmate)
            } else {
                Outcome::Draw(Termination::Stalemate)
            });
        }
        if self.halfmove >= 100 {
            return Some(Outcome::Draw(Termination::FiftyMoves));
        }
        // This position plus two earlier occurrences make three.
        if history.count(self.hash()) >= 2 {
            return Some(Outcome::Draw(Termination::Repetition));
        }
        if self.bare_kings() {
            return Some(Outcome::Draw(Termination::InsufficientMaterial));
        }
        None
    }

    fn move_to_string(&self, mv: Move) -> String {
        let mut s = square_name(mv.from());
        s.push_str(&square_name(mv.to()));
        if let Some(kind) = mv.promotion() {
            s.push(Self::letters()[kind].to_ascii_lowercase() as char);
        } else if mv.flag() == position::FLAG_DRAGON {
            s.push('+');
        }
        s
    }

    fn parse_move(&self, history: &History, text: &str) -> Result<Move, GameError> {
        let text = text.trim();
        if text == "0000" {
            return err("the null move 0000 is not a legal move");
        }
        let lower = text.to_ascii_lowercase();
        let valid_shape = lower.len() >= 4
            && lower.len() <= 5
            && lower.is_char_boundary(2)
            && lower.is_char_boundary(4)
            && parse_square(&lower[0..2]).is_some()
            && parse_square(&lower[2..4]).is_some();
        if !valid_shape {
            return err(format!(
                "cannot parse move '{text}': expected from-square, to-square and an optional promotion letter or '+'"
            ));
        }
        let suffix = lower[4..].chars().next();
        if let Some(c) = suffix {
            let known = c == '+'
                || Self::letters()
                    .iter()
                    .any(|&l| l.to_ascii_lowercase() as char == c);
            if !known {
                return err(format!("unknown promotion suffix '{c}' in '{text}'"));
            }
        }
        let mut moves = Self::Moves::default();
        self.legal_moves(history, &mut moves);
        for &mv in moves.as_slice() {
            let canonical = self.move_to_string(mv);
            // Dragon promotions may be written with or without '+'.
            if canonical == lower
                || (suffix.is_none() && canonical.ends_with('+') && canonical[..4] == lower)
            {
                return Ok(mv);
            }
        }
        let needs_promotion = suffix.is_none()
            && moves
                .as_slice()
                .iter()
                .any(|&m| m.promotion().is_some() && self.move_to_string(m)[..4] == lower);
        if needs_promotion {
            return err(format!(
                "move '{text}' needs a promotion letter (e.g. '{text}q')"
            ));
        }
        err(format!("illegal move '{text}' in {}", self.to_fen()))
    }

    const HISTORY_SIZE: usize = 64 * 64;

    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    fn gives_check(&self, mv: Move) -> bool {
        Position::gives_check_with(self, &self.check_info(), mv)
    }

    type CheckInfo = position::CheckInfo;

    fn check_info(&self) -> Self::CheckInfo {
        Position::check_info(self)
    }

    #[inline]
    fn gives_check_with(&self, info: &Self::CheckInfo, mv: Move) -> bool {
        Position::gives_check_with(self, info, mv)
    }

    #[inline]
    fn is_tactical(&self, mv: Move) -> bool {
        self.board[mv.to() as usize] != pieces::EMPTY
            || mv.flag() == position::FLAG_EP
            || mv.flag() == position::FLAG_DRAGON
            || mv.promotion().is_some()
    }

    #[inline]
    fn tactical_moves(&self, _history: &History, out: &mut Self::Moves) {
        out.clear();
        self.generate_tactical(out);
    }

    #[inline]
    fn tactical_score(&self, mv: Move) -> i32 {
        self.mvv_lva(mv)
    }

    /// The swap-list exchange of `tactics.rs`.
    const SEE_IS_EXACT: bool = true;

    /// `Position::gives_check_with` answers by two lookups in the
    /// position's check information.
    const CHECK_TEST_IS_CHEAP: bool = true;

    fn see_at_least(&self, mv: Move, threshold: i32) -> bool {
        self.see_at_least_in(eval::default_params(), mv, threshold)
    }

    fn see_at_least_with(&self, params: &eval::EvalParams, mv: Move, threshold: i32) -> bool {
        self.see_at_least_in(params, mv, threshold)
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

    fn eval_trace(&self, params: &eval::EvalParams) -> Option<crate::game::EvalTrace> {
        Some(eval::trace_with(self, params))
    }

    /// The pawns of both sides.
    fn structure_key(&self) -> Option<u64> {
        Some(crate::game::hash_words(&[
            self.pieces(0, pieces::PAWN),
            self.pieces(1, pieces::PAWN),
        ]))
    }

    fn null_move(&self) -> Option<Self> {
        // Zugzwang is likely when the mover has only King and Pawns.
        if self.in_check() || !self.has_non_pawn_material(self.side.index()) {
            return None;
        }
        Some(self.pass())
    }

    fn no_moves_loses(&self) -> bool {
        Position::in_check(self)
    }

    fn is_rule_draw(&self, history: &History, repetition_key: u64) -> bool {
        self.halfmove >= 100 || self.bare_kings() || history.contains(repetition_key)
    }

    fn hash_and_repetition_key(&self) -> (u64, u64) {
        let hash = self.hash();
        (hash, hash)
    }

    #[inline(always)]
    fn encode_move(mv: Move) -> u32 {
        // a1a1 is never a move, so real moves encode as nonzero.
        mv.0 as u32
    }

    #[inline(always)]
    fn history_index(&self, mv: Move) -> usize {
        (mv.0 & 0x0fff) as usize
    }

    const PIECE_TO_SIZE: usize = 2 * pieces::KIND_COUNT * 64;

    #[inline(always)]
    fn piece_to_index(&self, mv: Move) -> usize {
        let piece = self.board[mv.from() as usize];
        let colored_kind =
            pieces::piece_color(piece) * pieces::KIND_COUNT + pieces::piece_kind(piece);
        colored_kind * 64 + mv.to() as usize
    }

    /// The squares the opponent's pawns attack: a piece there can be
    /// taken by a pawn.
    type Threats = crate::bitboard::Bitboard;

    fn threats(&self) -> Self::Threats {
        let them = self.side.index() ^ 1;
        pieces::pawn_attacks(Self::tables(), them, self.pieces(them, pieces::PAWN))
    }

    #[inline]
    fn threat_order(&self, pawn_attacks: &Self::Threats, mv: Move) -> i32 {
        let kind = pieces::piece_kind(self.board[mv.from() as usize]);
        if kind == pieces::PAWN || kind == pieces::KING {
            return 0;
        }
        let attacked = |sq: u8| pawn_attacks & crate::bitboard::bit(sq) != 0;
        attacked(mv.from()) as i32 - attacked(mv.to()) as i32
    }

    fn board_view(&self) -> crate::board_view::BoardView {
        self.view()
    }

    fn move_view(&self, mv: Move) -> crate::board_view::MoveView {
        self.describe(mv, self.move_to_string(mv))
    }

    fn display(&self) -> String {
        let mut s = self.diagram();
        s.push_str(&format!("\nFen: {}\n", self.to_fen()));
        s.push_str(&format!("Key: {:016X}\n", self.hash()));
        let checkers: Vec<String> = squares(self.checkers()).map(square_name).collect();
        s.push_str(&format!("Checkers: {}\n", checkers.join(" ")));
        s
    }
}

#[cfg(test)]
mod tests;
