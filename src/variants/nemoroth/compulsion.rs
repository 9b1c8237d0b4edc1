//! Compulsion elements (3.12) and the response predicates.
//!
//! The elements of the side to move are kept as tracked piece instances:
//! every compelled mobile piece (one entry per instance, so two identical
//! Humans in a stack are two entries) with its MO/ICH flags, and every
//! enemy Ghast instance that gives flight to one of them. An FL(p, E)
//! element exists for each pair with p not a Zombie and cheb(p, E) ≤ 2 at
//! the start of the turn; its d0 is recomputed from the start squares.
//! After the move the [`Tracker`] says where each instance went, whether it
//! still exists and whether it is now a statue or a Zombie.

use super::apply::Tracker;
use super::board::*;
use crate::bitboard::bit;

pub const F_MO: u8 = 1;
pub const F_ICH: u8 = 2;
pub const F_FL: u8 = 4;

/// The compulsion set of the side to move.
#[derive(Clone, Copy)]
pub struct Compulsions {
    /// Entries 0..n_pieces are compelled pieces; the rest are enemy Ghasts.
    pub tracker: Tracker,
    pub n_pieces: usize,
    pub start_sq: [u8; super::apply::TRACK_CAP],
    pub flags: [u8; super::apply::TRACK_CAP],
}

impl Compulsions {
    pub fn is_empty(&self) -> bool {
        self.n_pieces == 0
    }

    /// Whether the move that turned `self.tracker` into `after` (applied to
    /// the board giving `pos`) responds to at least one element.
    pub fn answered(&self, after: &Tracker, pos: &Nemoroth) -> bool {
        for i in 0..self.n_pieces {
            if !after.is_alive(i) || is_statue(after.code[i]) {
                return true;
            }
            let f = self.flags[i];
            let sq = after.sq[i] as usize;
            if f & F_MO != 0 && pos.count(sq) == 1 {
                return true;
            }
            if f & F_ICH != 0 && pos.ichor_bb & bit(sq as u8) == 0 {
                return true;
            }
            if f & F_FL != 0 {
                let p0 = self.start_sq[i] as usize;
                for e in self.n_pieces..self.tracker.n {
                    let e0 = self.start_sq[e] as usize;
                    if T.field[e0] & bit(p0 as u8) == 0 {
                        continue;
                    }
                    if kind(after.code[i]) == K_Z || !after.is_alive(e) {
                        return true;
                    }
                    let d0 = T.d2[p0][e0];
                    if T.d2[sq][after.sq[e] as usize] > d0 {
                        return true;
                    }
                }
            }
        }
        false
    }
}

impl Nemoroth {
    /// The compulsion elements of the side to move.
    pub fn compulsions(&self) -> Compulsions {
        let us = self.side.index();
        let them = 1 - us;
        let mut c = Compulsions {
            tracker: Tracker::new(),
            n_pieces: 0,
            start_sq: [0; super::apply::TRACK_CAP],
            flags: [0; super::apply::TRACK_CAP],
        };
        let enemy_ghasts = self.kinds[them][K_G as usize];
        let mut fields = 0u64;
        let mut g = enemy_ghasts;
        while g != 0 {
            let s = g.trailing_zeros() as usize;
            g &= g - 1;
            fields |= T.field[s];
        }
        // Candidate squares: stacks, ichor (≥ 2), enemy fields.
        let mut cand = self.mobile[us];
        let mut stacked = 0u64;
        let mut b = cand;
        while b != 0 {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            if self.cells[s][1] != 0 {
                stacked |= bit(s as u8);
            }
        }
        let mut live_ichor = 0u64;
        let mut ib = self.ichor_bb;
        while ib != 0 {
            let s = ib.trailing_zeros() as usize;
            ib &= ib - 1;
            if self.ichor[s] >= 2 {
                live_ichor |= bit(s as u8);
            }
        }
        cand &= stacked | live_ichor | fields;
        if cand == 0 {
            return c;
        }
        let mut used_fields = false;
        let mut b = cand;
        while b != 0 {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            let n = self.count(s);
            for i in 0..n {
                let code = self.cells[s][i];
                if !is_mobile(code) || owner(code) != us {
                    continue;
                }
                let mut f = 0;
                if n >= 2 {
                    f |= F_MO;
                }
                if kind(code) != K_Z {
                    if live_ichor & bit(s as u8) != 0 {
                        f |= F_ICH;
                    }
                    if fields & bit(s as u8) != 0 {
                        f |= F_FL;
                        used_fields = true;
                    }
                }
                if f != 0 {
                    let k = c.tracker.add(s, code);
                    c.start_sq[k] = s as u8;
                    c.flags[k] = f;
                }
            }
        }
        c.n_pieces = c.tracker.n;
        if used_fields {
            let mut g = enemy_ghasts;
            while g != 0 {
                let s = g.trailing_zeros() as usize;
                g &= g - 1;
                for i in 0..self.count(s) {
                    let code = self.cells[s][i];
                    if code != MUMMY && owner(code) == them && kind(code) == K_G {
                        let k = c.tracker.add(s, code);
                        c.start_sq[k] = s as u8;
                    }
                }
            }
        }
        c
    }
}
