//! Applying moves: voluntary moves (3.10), pushes and screams (3.8), the
//! local petrification pass (3.9) and the end-of-ply ichor countdown (3.6).
//!
//! Every change is local: a voluntary move touches its origin, the squares
//! a Wounded Fiend crosses and its destination; a push touches its origin
//! and destination. Petrification only needs checking where pieces landed
//! and around a Basilisk that landed, because a legal position never has a
//! mobile non-Zombie piece on a seen square and removing pieces never
//! creates gaze.
//!
//! A [`Tracker`] follows chosen piece instances (the compelled pieces of the
//! mover and the enemy Ghasts) through the move, so the response predicates
//! of 3.12 can be judged afterwards. With no entries it costs nothing.

use super::board::*;
use crate::bitboard::bit;

/// Marks an entry that is being carried (mover in hand, pushed group).
pub const IN_FLIGHT: u8 = 64;

pub const TRACK_CAP: usize = MAX_PIECES;

/// Piece instances followed through one move.
#[derive(Clone, Copy)]
pub struct Tracker {
    pub n: usize,
    pub sq: [u8; TRACK_CAP],
    pub code: [u8; TRACK_CAP],
    /// Bit i set: entry i still exists.
    pub alive: u64,
}

impl Tracker {
    pub const fn new() -> Self {
        Tracker {
            n: 0,
            sq: [0; TRACK_CAP],
            code: [0; TRACK_CAP],
            alive: 0,
        }
    }

    pub fn add(&mut self, sq: usize, code: u8) -> usize {
        let i = self.n;
        self.sq[i] = sq as u8;
        self.code[i] = code;
        self.alive |= 1 << i;
        self.n += 1;
        i
    }

    #[inline(always)]
    pub fn is_alive(&self, i: usize) -> bool {
        self.alive >> i & 1 != 0
    }

    /// Live entries on `sq`.
    #[inline(always)]
    fn on(&self, sq: u8) -> u64 {
        let mut m = 0;
        let mut a = self.alive;
        while a != 0 {
            let i = a.trailing_zeros() as usize;
            a &= a - 1;
            if self.sq[i] == sq {
                m |= 1 << i;
            }
        }
        m
    }

    #[inline(always)]
    fn kill(&mut self, mask: u64) {
        self.alive &= !mask;
    }

    #[inline(always)]
    fn each(&mut self, mut mask: u64, mut f: impl FnMut(&mut u8, &mut u8)) {
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            f(&mut self.sq[i], &mut self.code[i]);
        }
    }
}

impl Default for Tracker {
    fn default() -> Self {
        Self::new()
    }
}

impl Nemoroth {
    /// Petrifies every mobile non-Zombie piece on `sq`.
    #[inline]
    fn petrify_square(&mut self, sq: usize, tr: &mut Tracker) {
        let n = self.count(sq);
        let mut changed = false;
        for i in 0..n {
            let c = self.cells[sq][i];
            if petrifiable(c) {
                self.cells[sq][i] = c + STATUE;
                changed = true;
            }
        }
        if changed {
            self.cells[sq][..n].sort_unstable();
            self.refresh(sq);
            if tr.n > 0 {
                let m = tr.on(sq as u8);
                tr.each(m, |_, c| {
                    if petrifiable(*c) {
                        *c += STATUE;
                    }
                });
            }
        }
    }

    /// The local petrification pass after pieces landed on `t`.
    #[inline]
    fn gaze_after_landing(&mut self, t: usize, tr: &mut Tracker) {
        if self.occ & bit(t as u8) == 0 {
            return;
        }
        if self.is_seen(t) {
            self.petrify_square(t, tr);
        }
        for o in 0..2 {
            if self.kinds[o][K_B as usize] & bit(t as u8) != 0 {
                let mut b = T.sees[o][t] & self.occ;
                while b != 0 {
                    let s = b.trailing_zeros() as usize;
                    b &= b - 1;
                    self.petrify_square(s, tr);
                }
            }
        }
    }

    #[inline]
    fn set_ichor(&mut self, sq: usize, deposited: &mut u64) {
        self.ichor[sq] = 10;
        self.ichor_bb |= bit(sq as u8);
        *deposited |= bit(sq as u8);
    }

    #[inline]
    fn clear_ichor(&mut self, sq: usize) {
        self.ichor[sq] = 0;
        self.ichor_bb &= !bit(sq as u8);
    }

    /// End of ply: ichor not deposited during the ply counts down.
    #[inline]
    fn countdown(&mut self, deposited: u64) {
        let mut b = self.ichor_bb & !deposited;
        while b != 0 {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            self.ichor[s] -= 1;
            if self.ichor[s] == 0 {
                self.ichor_bb &= !bit(s as u8);
            }
        }
    }

    #[inline]
    fn end_ply(&mut self, deposited: u64) {
        self.countdown(deposited);
        self.side = self.side.flip();
        self.ply += 1;
    }

    /// Destroys every piece on `sq`.
    #[inline]
    fn destroy_all(&mut self, sq: usize, tr: &mut Tracker) {
        if self.occ & bit(sq as u8) != 0 {
            self.clear_raw(sq);
            self.refresh(sq);
            if tr.n > 0 {
                let m = tr.on(sq as u8);
                tr.kill(m);
            }
        }
    }

    /// A voluntary move of the piece `code` from `from` to `to` (3.10).
    pub fn apply_step(&mut self, from: usize, to: usize, code: u8, tr: &mut Tracker) {
        let mut deposited = 0u64;
        self.remove_one_raw(from, code);
        self.refresh(from);
        // Follow one instance of the mover, if tracked.
        let mut mover = None;
        if tr.n > 0 {
            let m = tr.on(from as u8);
            let mut a = m;
            while a != 0 {
                let i = a.trailing_zeros() as usize;
                a &= a - 1;
                if tr.code[i] == code {
                    tr.sq[i] = IN_FLIGHT;
                    mover = Some(i);
                    break;
                }
            }
        }
        let k = kind(code);
        let own = owner(code);
        let mut c = code;
        if k == K_W {
            let (dx, dy) = ((fx(to) - fx(from)).signum(), (fy(to) - fy(from)).signum());
            let mut s = from;
            while s != to {
                self.set_ichor(s, &mut deposited);
                s = sq_at(fx(s) + dx, fy(s) + dy).unwrap();
            }
            if self.kinds[own][K_Z as usize] & bit(from as u8) != 0
                || self.kinds[1 - own][K_Z as usize] & bit(from as u8) != 0
            {
                // N24: Zombies left behind and the new ichor destroy each other.
                let n = self.count(from);
                let mut i = 0;
                let mut len = n;
                while i < len {
                    if kind(self.cells[from][i]) == K_Z {
                        self.remove_at_raw(from, i);
                        len -= 1;
                    } else {
                        i += 1;
                    }
                }
                self.refresh(from);
                self.clear_ichor(from);
                if tr.n > 0 {
                    let m = tr.on(from as u8);
                    let mut dead = 0;
                    let mut a = m;
                    while a != 0 {
                        let i = a.trailing_zeros() as usize;
                        a &= a - 1;
                        if kind(tr.code[i]) == K_Z {
                            dead |= 1 << i;
                        }
                    }
                    tr.kill(dead);
                }
            }
        } else if k == K_L && is_digesting(code) {
            self.insert_raw(from, MUMMY);
            self.refresh(from);
            c = code & !DIGEST;
        }
        match k {
            K_Z => {
                self.destroy_all(to, tr);
                if self.ichor_bb & bit(to as u8) != 0 {
                    self.clear_ichor(to);
                    if let Some(i) = mover {
                        tr.kill(1 << i);
                    }
                    self.end_ply(deposited);
                    return;
                }
            }
            K_L if self.occ & bit(to as u8) != 0 => {
                self.destroy_all(to, tr);
                c |= DIGEST;
            }
            K_H if fy(to) == last_rank(own) => {
                c = make(own, K_Z, false);
            }
            _ => {}
        }
        self.insert_raw(to, c);
        self.refresh(to);
        if let Some(i) = mover {
            tr.sq[i] = to as u8;
            tr.code[i] = c;
        }
        self.gaze_after_landing(to, tr);
        self.end_ply(deposited);
    }

    /// One push of the group on `s` in direction `dir` (N37).
    pub fn push_group(&mut self, s: usize, dir: usize, tr: &mut Tracker, deposited: &mut u64) {
        let n = self.count(s);
        if n == 0 {
            return;
        }
        let mut group = self.cells[s];
        self.clear_raw(s);
        self.refresh(s);
        let flying = if tr.n > 0 { tr.on(s as u8) } else { 0 };
        tr.each(flying, |q, _| *q = IN_FLIGHT);
        // 1. Lift: a Wounded Fiend (mobile or statue) drips on s.
        if group[..n].iter().any(|&c| kind(c) == K_W) {
            self.set_ichor(s, deposited);
        }
        // 2. Off board.
        let (dx, dy) = DIRS[dir];
        let Some(t) = sq_at(fx(s) + dx, fy(s) + dy) else {
            tr.kill(flying);
            return;
        };
        // 3. Promotion.
        let promote = |c: &mut u8| {
            if *c != MUMMY && kind(*c) == K_H && fy(t) == last_rank(owner(*c)) {
                *c = make(owner(*c), K_Z, false);
            }
        };
        for c in group[..n].iter_mut() {
            promote(c);
        }
        tr.each(flying, |_, c| promote(c));
        // 4. Zombies pushed onto ichor.
        let mut len = n;
        if self.ichor_bb & bit(t as u8) != 0 && group[..n].iter().any(|&c| kind(c) == K_Z) {
            let mut j = 0;
            for i in 0..n {
                if kind(group[i]) != K_Z {
                    group[j] = group[i];
                    j += 1;
                }
            }
            for g in group[j..n].iter_mut() {
                *g = 0;
            }
            len = j;
            self.clear_ichor(t);
            let mut dead = 0;
            let mut a = flying;
            while a != 0 {
                let i = a.trailing_zeros() as usize;
                a &= a - 1;
                if kind(tr.code[i]) == K_Z {
                    dead |= 1 << i;
                }
            }
            tr.kill(dead);
        }
        let flying = flying & tr.alive;
        if len == 0 {
            return;
        }
        // 5. Landing.
        let tb = bit(t as u8);
        if kind(group[0]) == K_L {
            let mut l = group[0];
            if self.occ & tb != 0 {
                self.destroy_all(t, tr);
                l |= DIGEST;
            }
            self.insert_raw(t, l);
            self.refresh(t);
            tr.each(flying, |q, c| {
                *q = t as u8;
                *c = l;
            });
        } else if self.leafs() & tb != 0 {
            // The Leaf Pile on t engulfs the group.
            tr.kill(flying);
            self.cells[t][0] |= DIGEST;
            return;
        } else {
            for &c in &group[..len] {
                // 6. Mummies merge on insertion.
                self.insert_raw(t, c);
            }
            self.refresh(t);
            tr.each(flying, |q, _| *q = t as u8);
        }
        // 7. Gaze.
        self.gaze_after_landing(t, tr);
    }

    /// A scream of the Go Away on `g`, pushing the groups in `order`
    /// (direction indices), then the end of the ply.
    pub fn apply_scream(&mut self, g: usize, order: &[u8], tr: &mut Tracker) {
        let mut deposited = 0;
        for &d in order {
            let (dx, dy) = DIRS[d as usize];
            let s = sq_at(fx(g) + dx, fy(g) + dy).expect("scream neighbour on board");
            self.push_group(s, d as usize, tr, &mut deposited);
        }
        self.end_ply(deposited);
    }
}
