//! Legal move generation (3.2): candidate voluntary moves under R1–R3 and
//! screams with their distinct push orders, each applied completely, then
//! filtered by the compulsion rule and the repetition rule.
//!
//! **Screams.** Groups on the distance-1 ring land on the distance-2 ring,
//! so two adjacent pushes of groups without a Basilisk commute: the seen
//! squares do not change between them and their squares are disjoint. The
//! lexicographically smallest order of any equivalence class therefore has
//! the non-Basilisk groups ascending between consecutive Basilisk groups.
//! With k Basilisk groups and m others it suffices to try every
//! permutation of the k groups times every assignment of the m others to
//! the k + 1 gaps (k!·(k+1)^m orders; one order when k = 0), keep the
//! smallest order per distinct resulting state (configuration and ichor,
//! compared by a 64-bit state hash) and emit those.
//!
//! **Move list bound.** A side never gains pieces (promotion converts), so
//! a game has at most 16 mobile pieces per side, at most 2 Go Aways and
//! 2 Basilisks. A Wounded Fiend has at most 14 destinations, every other
//! piece at most 8, so steps ≤ 16·14 = 224. A Go Away tries at most
//! max(1, 1·2^7, 2!·3^6) = 1458 orders, so screams ≤ 2·1458 = 2916, and
//! every reachable position has fewer than 224 + 2916 = 3140 <
//! [`MAX_MOVES`] legal moves. (Set-up positions beyond these counts are
//! accepted; should one ever exceed the capacity, further moves are
//! dropped rather than written out of bounds.)

use super::apply::Tracker;
use super::board::*;
use super::compulsion::Compulsions;
use crate::bitboard::bit;
use crate::game::History;

pub const MAX_MOVES: usize = 4096;

/// A move. Steps: bits 0–5 from, bit 6 = 0, bits 7–12 to, bits 13–15 kind.
/// Screams: bits 0–5 the Go Away's square, bit 6 = 1, bits 7–27 the first
/// seven directions of the push order (3 bits each; the eighth, when all
/// eight neighbours are occupied, is the one left over), bits 28–31 the
/// number of groups. Nonzero: a step has from ≠ to, a scream has bit 6.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct NMove(pub u32);

impl NMove {
    pub fn step(from: usize, to: usize, kind: u8) -> NMove {
        NMove(from as u32 | (to as u32) << 7 | (kind as u32) << 13)
    }
    pub fn scream(from: usize, order: &[u8]) -> NMove {
        let mut v = from as u32 | 1 << 6 | (order.len() as u32) << 28;
        for (i, &d) in order.iter().take(7).enumerate() {
            v |= (d as u32) << (7 + 3 * i);
        }
        NMove(v)
    }
    #[inline(always)]
    pub fn is_scream(self) -> bool {
        self.0 & 1 << 6 != 0
    }
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 63) as usize
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        (self.0 >> 7 & 63) as usize
    }
    #[inline(always)]
    pub fn kind(self) -> u8 {
        (self.0 >> 13 & 7) as u8
    }
    /// The push order of a scream (direction indices) and its length.
    pub fn order(self) -> ([u8; 8], usize) {
        let n = (self.0 >> 28) as usize;
        let mut o = [0u8; 8];
        let mut used = 0u8;
        for (i, slot) in o.iter_mut().enumerate().take(n.min(7)) {
            *slot = (self.0 >> (7 + 3 * i) & 7) as u8;
            used |= 1 << *slot;
        }
        if n == 8 {
            o[7] = (!used).trailing_zeros() as u8;
        }
        (o, n)
    }
}

#[inline(always)]
fn r2_ok(ghasts: u64, prev: usize, next: usize) -> bool {
    let mut g = ghasts & T.field[next];
    while g != 0 {
        let s = g.trailing_zeros() as usize;
        g &= g - 1;
        if T.d2[next][s] <= T.d2[prev][s] {
            return false;
        }
    }
    true
}

/// Packs an order MSB-first so integer order is lexicographic order.
fn pack(order: &[u8]) -> u32 {
    let mut v = 0;
    for (i, &d) in order.iter().enumerate() {
        v |= (d as u32) << (3 * (7 - i));
    }
    v
}

fn unpack(v: u32, n: usize) -> [u8; 8] {
    let mut o = [0u8; 8];
    for (i, slot) in o.iter_mut().enumerate().take(n) {
        *slot = (v >> (3 * (7 - i)) & 7) as u8;
    }
    o
}

fn next_permutation(a: &mut [u8]) -> bool {
    if a.len() < 2 {
        return false;
    }
    let mut i = a.len() - 1;
    while i > 0 && a[i - 1] >= a[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = a.len() - 1;
    while a[j] <= a[i - 1] {
        j -= 1;
    }
    a.swap(i - 1, j);
    a[i..].reverse();
    true
}

const DEDUP_CAP: usize = 2048;

impl Nemoroth {
    /// Distinct screams of the Go Away on `g`: calls `f` with each
    /// canonical order (direction indices).
    #[allow(clippy::needless_range_loop)]
    pub fn scream_orders(&self, g: usize, f: &mut dyn FnMut(&[u8])) {
        let mut dirs = [0u8; 8];
        let mut n = 0;
        let mut bs = [0u8; 8];
        let mut k = 0;
        let mut xs = [0u8; 8];
        let mut m = 0;
        let bas = self.basilisks();
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            if let Some(s) = sq_at(fx(g) + dx, fy(g) + dy)
                && self.occ & bit(s as u8) != 0
            {
                dirs[n] = d as u8;
                n += 1;
                if bas & bit(s as u8) != 0 {
                    bs[k] = d as u8;
                    k += 1;
                } else {
                    xs[m] = d as u8;
                    m += 1;
                }
            }
        }
        if n == 0 {
            return;
        }
        if k == 0 {
            f(&dirs[..n]);
            return;
        }
        let mut small = [(0u64, 0u32); DEDUP_CAP];
        let mut big: Vec<(u64, u32)> = Vec::new();
        let total = (1..=k).product::<usize>() * (k + 1).pow(m as u32);
        let use_big = total > DEDUP_CAP;
        let mut found = 0usize;
        let mut perm = bs;
        loop {
            let assignments = (k + 1).pow(m as u32);
            for a in 0..assignments {
                let mut gap = [0u8; 8];
                let mut v = a;
                for slot in gap.iter_mut().take(m) {
                    *slot = (v % (k + 1)) as u8;
                    v /= k + 1;
                }
                let mut order = [0u8; 8];
                let mut len = 0;
                for b in 0..=k {
                    for i in 0..m {
                        if gap[i] as usize == b {
                            order[len] = xs[i];
                            len += 1;
                        }
                    }
                    if b < k {
                        order[len] = perm[b];
                        len += 1;
                    }
                }
                let mut child = self.clone();
                let mut tr = Tracker::new();
                child.apply_scream(g, &order[..n], &mut tr);
                let h = child.state_key();
                let p = pack(&order[..n]);
                let table: &mut [(u64, u32)] = if use_big {
                    &mut big
                } else {
                    &mut small[..found]
                };
                if let Some(e) = table.iter_mut().find(|e| e.0 == h) {
                    if p < e.1 {
                        e.1 = p;
                    }
                } else if use_big {
                    big.push((h, p));
                } else {
                    small[found] = (h, p);
                    found += 1;
                }
            }
            if !next_permutation(&mut perm[..k]) {
                break;
            }
        }
        let table: &mut [(u64, u32)] = if use_big {
            &mut big
        } else {
            &mut small[..found]
        };
        table.sort_unstable_by_key(|e| e.1);
        for e in table.iter() {
            let o = unpack(e.1, n);
            f(&o[..n]);
        }
    }

    /// Generates every legal move, calling `emit` with the move and the
    /// resulting position.
    pub fn generate(&self, history: &History, emit: &mut dyn FnMut(NMove, &Nemoroth)) {
        let us = self.side.index();
        let comp = self.compulsions();
        let cur_key = self.config_key();
        let ghasts = self.ghasts();
        let seen = self.seen_map();
        let free = !self.occ & !self.ichor_bb;
        let mut check = |mv: NMove, child: &Nemoroth, tr: &Tracker, comp: &Compulsions| {
            if !comp.is_empty() && !comp.answered(tr, child) {
                return;
            }
            let key = child.config_key();
            if key == cur_key || history.contains(key) {
                return;
            }
            emit(mv, child);
        };
        let step =
            |from: usize,
             to: usize,
             code: u8,
             check: &mut dyn FnMut(NMove, &Nemoroth, &Tracker, &Compulsions)| {
                let mut child = self.clone();
                let mut tr = comp.tracker;
                child.apply_step(from, to, code, &mut tr);
                check(NMove::step(from, to, kind(code)), &child, &tr, &comp);
            };
        let mut sqs = self.mobile[us];
        while sqs != 0 {
            let s = sqs.trailing_zeros() as usize;
            sqs &= sqs - 1;
            let n = self.count(s);
            let mut prev = 0u8;
            for i in 0..n {
                let code = self.cells[s][i];
                if code == prev || !is_mobile(code) || owner(code) != us {
                    continue;
                }
                prev = code;
                match kind(code) {
                    K_H => {
                        let mut t = T.human[us][s] & free;
                        while t != 0 {
                            let to = t.trailing_zeros() as usize;
                            t &= t - 1;
                            let mut gh = ghasts;
                            if fy(to) == last_rank(us) {
                                // Exempt from enemy Ghasts whose field it starts in;
                                // a square also holding a friendly Ghast still restricts.
                                gh &= !(self.kinds[1 - us][K_G as usize]
                                    & T.field[s]
                                    & !self.kinds[us][K_G as usize]);
                            }
                            if r2_ok(gh, s, to) {
                                step(s, to, code, &mut check);
                            }
                        }
                    }
                    K_Z => {
                        let mut t = T.king[s] & !self.leafs();
                        while t != 0 {
                            let to = t.trailing_zeros() as usize;
                            t &= t - 1;
                            step(s, to, code, &mut check);
                        }
                    }
                    K_W => {
                        for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                            let mut prev_sq = s;
                            while let Some(next) = sq_at(fx(prev_sq) + dx, fy(prev_sq) + dy) {
                                if free & bit(next as u8) == 0 || !r2_ok(ghasts, prev_sq, next) {
                                    break;
                                }
                                step(s, next, code, &mut check);
                                if seen & bit(next as u8) != 0 {
                                    break;
                                }
                                prev_sq = next;
                            }
                        }
                    }
                    K_A => {
                        let mut t = T.goaway[s] & free;
                        while t != 0 {
                            let to = t.trailing_zeros() as usize;
                            t &= t - 1;
                            if r2_ok(ghasts, s, to) {
                                step(s, to, code, &mut check);
                            }
                        }
                        if T.king[s] & self.occ != 0 {
                            self.scream_orders(s, &mut |order| {
                                let mut child = self.clone();
                                let mut tr = comp.tracker;
                                child.apply_scream(s, order, &mut tr);
                                check(NMove::scream(s, order), &child, &tr, &comp);
                            });
                        }
                    }
                    K_L => {
                        let mut t = T.king[s] & !self.ichor_bb & !self.immobile;
                        while t != 0 {
                            let to = t.trailing_zeros() as usize;
                            t &= t - 1;
                            if r2_ok(ghasts & !bit(to as u8), s, to) {
                                step(s, to, code, &mut check);
                            }
                        }
                    }
                    K_G => {
                        let mut t = T.ghast[s] & free;
                        while t != 0 {
                            let to = t.trailing_zeros() as usize;
                            t &= t - 1;
                            if r2_ok(ghasts & !bit(s as u8), s, to) {
                                step(s, to, code, &mut check);
                            }
                        }
                    }
                    K_B => {
                        let mut t = T.basilisk[us][s] & free;
                        while t != 0 {
                            let to = t.trailing_zeros() as usize;
                            t &= t - 1;
                            if r2_ok(ghasts, s, to) {
                                step(s, to, code, &mut check);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}
