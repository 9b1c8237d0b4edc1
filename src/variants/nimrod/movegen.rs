//! Legal move generation for the Nimrod family.
//!
//! Fully legal, no make-and-test except for the rare en passant capture:
//! 1. One pass over the enemy pieces builds the squares they attack with our
//!    King removed (where the King may not go) and finds the checkers.
//! 2. Pins: along each of the 8 lines from our King, the first piece is
//!    pinned if it is ours and the next piece is an enemy that slides back
//!    along that line. Hunters slide in some directions only, so the test is
//!    per direction, not per line.
//! 3. In double check only the King moves; in single check the other pieces
//!    must capture the checker or block between it and the King.
//!
//! Moves go to a [`Sink`]: a list that stores them, or a counter that only
//! adds up popcounts (perft's bulk counting at the last ply).

use super::Flavor;
use super::pieces::*;
use super::position::*;
use crate::bitboard::{Bitboard, GEOMETRY, Square, bit, squares};

/// Where generated moves go.
pub trait Sink {
    /// Moves of a non-Pawn piece from `from` to each of `targets`; those on
    /// `dragon` squares are dragon promotions.
    fn piece_moves(&mut self, from: Square, targets: Bitboard, dragon: Bitboard);
    /// A Pawn move to `to`; `promote` lists the choices if it promotes.
    fn pawn_move(&mut self, from: Square, to: Square, flag: u16, promote: &[usize]);
    /// A single move with its flag (castling, en passant, double step).
    fn special(&mut self, mv: Move);
}

/// Counts moves without storing them.
pub struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece_moves(&mut self, _from: Square, targets: Bitboard, _dragon: Bitboard) {
        self.0 += targets.count_ones() as u64;
    }
    #[inline(always)]
    fn pawn_move(&mut self, _from: Square, _to: Square, _flag: u16, promote: &[usize]) {
        self.0 += promote.len().max(1) as u64;
    }
    #[inline(always)]
    fn special(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

impl<B: crate::game::MoveBuffer<Move>> Sink for B {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard, dragon: Bitboard) {
        for to in squares(targets) {
            let flag = if dragon & bit(to) != 0 {
                FLAG_DRAGON
            } else {
                FLAG_NORMAL
            };
            self.push(Move::new(from, to, flag));
        }
    }
    #[inline(always)]
    fn pawn_move(&mut self, from: Square, to: Square, flag: u16, promote: &[usize]) {
        if promote.is_empty() {
            self.push(Move::new(from, to, flag));
        } else {
            for &kind in promote {
                self.push(Move::new(from, to, promo_flag(kind)));
            }
        }
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// The first blocker along direction `dir` in `blockers` (nonzero).
#[inline(always)]
fn nearest(blockers: Bitboard, dir: usize) -> Square {
    // N, NE, E and NW raise the square index; the others lower it.
    if matches!(dir, 0 | 1 | 2 | 7) {
        blockers.trailing_zeros() as Square
    } else {
        63 - blockers.leading_zeros() as Square
    }
}

impl<F: Flavor> Position<F> {
    /// Generates every legal move into `sink`.
    #[inline]
    pub fn generate<S: Sink>(&self, sink: &mut S) {
        self.generate_moves::<S, false>(sink)
    }

    /// Generates the legal tactical moves only: captures, en passant, Pawn
    /// promotions and dragon promotions (what quiescence search tries).
    #[inline]
    pub fn generate_tactical<S: Sink>(&self, sink: &mut S) {
        self.generate_moves::<S, true>(sink)
    }

    #[inline]
    fn generate_moves<S: Sink, const TACTICAL: bool>(&self, sink: &mut S) {
        let t = Self::tables();
        let geo = &*GEOMETRY;
        let us = self.side.index();
        let them = us ^ 1;
        let occ = self.occupied();
        let own = self.by_color[us];
        let enemy = self.by_color[them];
        let ksq = self.king[us];
        let king_bb = bit(ksq);

        // 1. Enemy attacks with our King lifted, and the checkers.
        let occ_no_king = occ ^ king_bb;
        let mut danger = 0;
        let mut checkers = 0;
        let mut sliders_by_dir = [0 as Bitboard; 8];
        let pawns = self.pieces(them, PAWN);
        for sq in squares(pawns) {
            let att = t.pawn_capture[them][sq as usize];
            danger |= att;
            if att & king_bb != 0 {
                checkers |= bit(sq);
            }
        }
        for kind in KNIGHT..KIND_COUNT {
            let pcs = self.pieces(them, kind);
            if pcs == 0 {
                continue;
            }
            let dirs = t.slide_dirs[them][kind];
            for (d, slot) in sliders_by_dir.iter_mut().enumerate() {
                if dirs & (1 << d) != 0 {
                    *slot |= pcs;
                }
            }
            for sq in squares(pcs) {
                let att = attacks(t, them, kind, sq, occ_no_king);
                danger |= att;
                if att & king_bb != 0 {
                    checkers |= bit(sq);
                }
            }
        }

        // King moves.
        let mut king_targets = t.steps[us][KING][ksq as usize] & !own & !danger;
        if TACTICAL {
            king_targets &= enemy;
        }
        sink.piece_moves(ksq, king_targets, 0);
        if checkers & checkers.wrapping_sub(1) != 0 {
            return; // double check
        }

        // 2. Pins: our piece first along a line, then an enemy sliding back.
        let mut pinned = 0;
        for d in 0..8 {
            let toward_king = sliders_by_dir[d ^ 4];
            let ray = geo.ray[d][ksq as usize];
            if ray & toward_king == 0 {
                continue;
            }
            let blockers = ray & occ;
            if blockers == 0 {
                continue;
            }
            let first = nearest(blockers, d);
            if own & bit(first) == 0 {
                continue;
            }
            let rest = blockers ^ bit(first);
            if rest != 0 && toward_king & bit(nearest(rest, d)) != 0 {
                pinned |= bit(first);
            }
        }

        // 3. Where the other pieces may go.
        let target = if checkers != 0 {
            let checker = checkers.trailing_zeros() as usize;
            checkers | geo.between[ksq as usize][checker]
        } else {
            !0
        };
        let allowed = !own & target;
        let promo_sq = t.promotion[us];
        let dragon = if F::DRAGON { promo_sq } else { 0 };

        for kind in KNIGHT..KIND_COUNT {
            if kind == KING {
                continue;
            }
            let pcs = self.pieces(us, kind);
            if pcs == 0 {
                continue;
            }
            let dragon_here = if dragon_of(kind).is_some() { dragon } else { 0 };
            let allowed_here = if TACTICAL {
                allowed & (enemy | dragon_here)
            } else {
                allowed
            };
            for sq in squares(pcs) {
                let mut targets = attacks(t, us, kind, sq, occ) & allowed_here;
                if pinned & bit(sq) != 0 {
                    targets &= geo.line[ksq as usize][sq as usize];
                }
                if targets != 0 {
                    sink.piece_moves(sq, targets, dragon_here);
                }
            }
        }

        // Pawns.
        let choices: &[usize] = if F::DRAGON {
            &DRAGON_PROMOTIONS
        } else {
            &PLAIN_PROMOTIONS
        };
        let empty = !occ;
        for sq in squares(self.pieces(us, PAWN)) {
            let s = sq as usize;
            let pin_line = if pinned & bit(sq) != 0 {
                geo.line[ksq as usize][s]
            } else {
                !0
            };
            let pushes = t.pawn_push[us][s] & empty;
            let mut targets = (pushes | t.pawn_capture[us][s] & enemy) & target & pin_line;
            for to in squares(targets & promo_sq) {
                sink.pawn_move(sq, to, FLAG_NORMAL, choices);
            }
            targets &= !promo_sq;
            if TACTICAL {
                targets &= enemy;
            }
            if targets != 0 {
                sink.piece_moves(sq, targets, 0);
            }
            // Double step (FIDE orientation): both squares empty.
            if !TACTICAL && !F::CORNER && pushes != 0 && t.double_step_rank[us] & bit(sq) != 0 {
                let mid = pushes.trailing_zeros() as Square;
                let to2 = t.pawn_push[us][mid as usize] & empty & target & pin_line;
                if to2 != 0 {
                    sink.special(Move::new(sq, to2.trailing_zeros() as Square, FLAG_DOUBLE));
                }
            }
        }

        // En passant: rare, so tested by making it.
        if self.ep != NO_SQUARE {
            let ep = self.ep;
            for sq in squares(t.pawn_capture[them][ep as usize] & self.pieces(us, PAWN)) {
                let mv = Move::new(sq, ep, FLAG_EP);
                let child = self.play(mv);
                if child.attackers(ksq, them, child.occupied()) == 0 {
                    sink.special(mv);
                }
            }
        }

        // Castling (FIDE orientation; the rights imply the pieces are home).
        if !TACTICAL && !F::CORNER && checkers == 0 && self.castling != 0 {
            for castle in &CASTLES[us] {
                if self.castling & castle.right != 0
                    && occ & castle.empty == 0
                    && danger & castle.safe == 0
                {
                    sink.special(Move::new(castle.king_from, castle.king_to, FLAG_CASTLE));
                }
            }
        }
    }
}
