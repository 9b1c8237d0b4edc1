//! What the search asks of a Nimrod position beyond the rules and the
//! evaluation: capture ordering (MVV-LVA), static exchange evaluation, and
//! the null move.

use super::Flavor;
use super::pieces::*;
use super::position::*;
use crate::bitboard::{Bitboard, Square, bit, file_of, rank_of, square, squares};

impl<F: Flavor> Position<F> {
    /// Exchange value of a kind: the compiled-in evaluator's midgame
    /// material, so the search and the evaluation agree on what a piece
    /// is worth.
    #[inline(always)]
    pub fn exchange_value(kind: usize) -> i32 {
        Self::exchange_value_in(super::eval::default_params(), kind)
    }

    /// Exchange value of a kind with the weights `p` (an `EvalFile`).
    #[inline(always)]
    pub fn exchange_value_in(p: &super::eval::EvalParams, kind: usize) -> i32 {
        if kind == KING {
            return 20_000;
        }
        let table = if F::CORNER {
            &p.material_corner
        } else {
            &p.material
        };
        table[kind][0]
    }

    /// Most valuable victim first, then least valuable attacker.
    #[inline]
    pub fn mvv_lva(&self, mv: Move) -> i32 {
        let victim = self.board[mv.to() as usize];
        let mut score = if victim != EMPTY {
            Self::exchange_value(piece_kind(victim)) * 8
        } else if mv.flag() == FLAG_EP {
            Self::exchange_value(PAWN) * 8
        } else {
            0
        };
        if let Some(kind) = mv.promotion() {
            score += Self::exchange_value(kind) * 8;
        }
        score - piece_kind(self.board[mv.from() as usize]) as i32
    }

    /// The material `mv` wins when both sides keep recapturing on its
    /// target with their least valuable attacker (pins are ignored), with
    /// the compiled-in piece values.
    pub fn see(&self, mv: Move) -> i32 {
        self.see_in(super::eval::default_params(), mv)
    }

    /// [`Position::see`] with the piece values of `p`.
    pub fn see_in(&self, p: &super::eval::EvalParams, mv: Move) -> i32 {
        if mv.flag() == FLAG_CASTLE {
            return 0;
        }
        let (gain, on_square, occ) = self.exchange_start(p, mv);
        self.swap_off(p, mv.to(), gain, on_square, occ)
    }

    /// Whether [`Position::see_in`] is at least `threshold`, deciding
    /// without the swap list where the first capture settles it: the
    /// exchange never wins more than the first victim, and never loses
    /// more than the capturer (its side may stop after one recapture).
    pub fn see_at_least_in(&self, p: &super::eval::EvalParams, mv: Move, threshold: i32) -> bool {
        if mv.flag() == FLAG_CASTLE {
            return 0 >= threshold;
        }
        let (gain, on_square, occ) = self.exchange_start(p, mv);
        if gain < threshold {
            return false;
        }
        if gain - on_square >= threshold {
            return true;
        }
        self.swap_off(p, mv.to(), gain, on_square, occ) >= threshold
    }

    /// The first capture of an exchange: what it wins, the value then on
    /// the target square, and the occupancy after it.
    #[inline(always)]
    fn exchange_start(&self, p: &super::eval::EvalParams, mv: Move) -> (i32, i32, Bitboard) {
        let from = mv.from();
        let to = mv.to();
        let mut occ = self.occupied() ^ bit(from);
        let mut gain = match self.board[to as usize] {
            EMPTY => 0,
            victim => Self::exchange_value_in(p, piece_kind(victim)),
        };
        if mv.flag() == FLAG_EP {
            gain = Self::exchange_value_in(p, PAWN);
            occ ^= bit(square(file_of(to), rank_of(from)));
        }
        let mut on_square = Self::exchange_value_in(p, piece_kind(self.board[from as usize]));
        if let Some(kind) = mv.promotion() {
            let promoted = Self::exchange_value_in(p, kind);
            gain += promoted - Self::exchange_value_in(p, PAWN);
            on_square = promoted;
        }
        (gain, on_square, occ)
    }

    /// The swap list on `to` after a first capture that won `first_gain`
    /// and left a piece worth `on_square` there.
    fn swap_off(
        &self,
        p: &super::eval::EvalParams,
        to: Square,
        first_gain: i32,
        mut on_square: i32,
        mut occ: Bitboard,
    ) -> i32 {
        let mut gain = [0i32; 40];
        gain[0] = first_gain;
        let mut side = self.side.index() ^ 1;
        let mut depth = 0;
        loop {
            let attackers = self.attackers(to, side, occ) & occ;
            if attackers == 0 {
                break;
            }
            // Least valuable attacker.
            let mut chosen = None;
            for sq in squares(attackers) {
                let v = Self::exchange_value_in(p, piece_kind(self.board[sq as usize]));
                if chosen.is_none_or(|(_, best)| v < best) {
                    chosen = Some((sq, v));
                }
            }
            let (sq, value) = chosen.expect("attackers is not empty");
            depth += 1;
            if depth >= gain.len() {
                break;
            }
            gain[depth] = on_square - gain[depth - 1];
            if gain[depth].max(-gain[depth - 1]) < 0 {
                break;
            }
            occ ^= bit(sq);
            on_square = value;
            side ^= 1;
        }
        // Each side may stop capturing when going on would lose.
        while depth > 0 {
            gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
            depth -= 1;
        }
        gain[0]
    }

    /// The position with the turn passed (a null move).
    pub fn pass(&self) -> Self {
        let mut p = *self;
        p.side = self.side.flip();
        p.ep = NO_SQUARE;
        p.halfmove = self.halfmove + 1;
        p
    }

    /// Whether `color` has a piece other than King and Pawns.
    pub fn has_non_pawn_material(&self, color: usize) -> bool {
        self.by_color[color] & !self.by_kind[PAWN] & !self.by_kind[KING] != 0
    }
}
