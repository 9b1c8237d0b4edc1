//! The Nemoroth position: stacks of pieces per square, the ichor map, the
//! side to move; piece codes; geometry tables.
//!
//! **Piece codes.** A piece is one byte, never 0:
//! `code = 1 + kind + 8·statue + 16·owner`, kind 0..6 = B G L A W H Z,
//! owner 0 = Alabaster, 1 = Obsidian; the Mummy is [`MUMMY`]; bit
//! [`DIGEST`] marks a digesting Leaf Pile. Ascending codes are exactly the
//! canonical NFEN order inside a stack (Alabaster, Obsidian, `M`; mobile
//! before statues; B G L A W H Z), and a Leaf Pile is always alone, so the
//! digesting bit never disturbs the order.
//!
//! **Cells.** Each square holds a sorted array of up to [`STACK_CAP`] codes
//! (zero-terminated). A sorted cell *is* the canonical multiset, so the
//! configuration key hashes the cells directly. In play no square can ever
//! hold more than 16 pieces without 17 of the at most 32 objects of a game
//! (engulfing removes at least one object for every Mummy it later
//! releases) having been pushed together onto it; NFEN input is limited to [`STACK_CAP`] pieces per square
//! and [`MAX_PIECES`] in all (engine limits, stated in protocol.md).
//!
//! **Summary bitboards** (kept in step with the cells by [`Nemoroth::refresh`]
//! after every change of a square): occupancy, per owner and kind, mobile
//! pieces per owner, and squares holding an immobile piece (statue or Mummy).

use crate::bitboard::{Bitboard, bit};
use crate::game::Color;

pub const STACK_CAP: usize = 16;
pub const MAX_PIECES: usize = 64;

pub type Cell = [u8; STACK_CAP];

const WORDS: usize = 4 + 64 * STACK_CAP / 8 + 8;

pub const K_B: u8 = 0;
pub const K_G: u8 = 1;
pub const K_L: u8 = 2;
pub const K_A: u8 = 3;
pub const K_W: u8 = 4;
pub const K_H: u8 = 5;
pub const K_Z: u8 = 6;
/// Kind number used for the Mummy in tables indexed by kind.
pub const K_M: u8 = 7;

pub const STATUE: u8 = 8;
pub const OBSIDIAN: u8 = 16;
pub const DIGEST: u8 = 0x40;
pub const MUMMY: u8 = 0x21;

/// Kind letters in kind order (Alabaster case).
pub const KIND_LETTERS: [u8; 7] = *b"BGLAWHZ";

#[inline(always)]
pub const fn make(owner: usize, kind: u8, statue: bool) -> u8 {
    1 + kind + if statue { STATUE } else { 0 } + (owner as u8) * OBSIDIAN
}
#[inline(always)]
pub const fn is_mummy(c: u8) -> bool {
    c == MUMMY
}
/// Kind 0..6, or [`K_M`] for the Mummy.
#[inline(always)]
pub const fn kind(c: u8) -> u8 {
    if c == MUMMY {
        K_M
    } else {
        ((c & 0x3f) - 1) & 7
    }
}
#[inline(always)]
pub const fn owner(c: u8) -> usize {
    (((c & 0x3f) - 1) >> 4) as usize & 1
}
#[inline(always)]
pub const fn is_statue(c: u8) -> bool {
    c != MUMMY && ((c & 0x3f) - 1) & STATUE != 0
}
#[inline(always)]
pub const fn is_digesting(c: u8) -> bool {
    c & DIGEST != 0
}
/// Owned and not a statue.
#[inline(always)]
pub const fn is_mobile(c: u8) -> bool {
    c != MUMMY && !is_statue(c)
}
/// Can be petrified: mobile and not a Zombie.
#[inline(always)]
pub const fn petrifiable(c: u8) -> bool {
    is_mobile(c) && kind(c) != K_Z
}

#[inline(always)]
pub const fn fx(sq: usize) -> i32 {
    (sq & 7) as i32
}
#[inline(always)]
pub const fn fy(sq: usize) -> i32 {
    (sq >> 3) as i32
}
#[inline(always)]
pub const fn sq_at(x: i32, y: i32) -> Option<usize> {
    if x >= 0 && x < 8 && y >= 0 && y < 8 {
        Some((y * 8 + x) as usize)
    } else {
        None
    }
}

/// Forward sign: +1 for Alabaster, −1 for Obsidian.
#[inline(always)]
pub const fn forward(owner: usize) -> i32 {
    if owner == 0 { 1 } else { -1 }
}
/// Last rank (y) of an owner.
#[inline(always)]
pub const fn last_rank(owner: usize) -> i32 {
    if owner == 0 { 7 } else { 0 }
}

/// The 8 neighbour directions, ordered by (dx, dy): ascending direction
/// index is ascending square name among the neighbours of a square.
pub const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

pub struct Tables {
    /// Squares with Chebyshev distance ≤ 2 (a Ghast's field), incl. itself.
    pub field: [Bitboard; 64],
    /// The 8 neighbours.
    pub king: [Bitboard; 64],
    /// `sees[owner][sq]`: squares a Basilisk of `owner` on `sq` sees.
    pub sees: [[Bitboard; 64]; 2],
    /// `seen_from[owner][sq]`: squares from which a Basilisk of `owner` sees `sq`.
    pub seen_from: [[Bitboard; 64]; 2],
    /// Squared Euclidean distance.
    pub d2: [[u8; 64]; 64],
    /// Human steps per owner.
    pub human: [[Bitboard; 64]; 2],
    /// Go Away moves (diagonal steps, orthogonal 2-leaps).
    pub goaway: [Bitboard; 64],
    /// Ghast leaps.
    pub ghast: [Bitboard; 64],
    /// Basilisk moves per owner (equal to its seen squares).
    pub basilisk: [[Bitboard; 64]; 2],
}

const fn offsets_bb(sq: usize, v: &[(i32, i32)]) -> Bitboard {
    let mut bb = 0;
    let mut i = 0;
    while i < v.len() {
        if let Some(t) = sq_at(fx(sq) + v[i].0, fy(sq) + v[i].1) {
            bb |= 1u64 << t;
        }
        i += 1;
    }
    bb
}

const fn build() -> Tables {
    let mut t = Tables {
        field: [0; 64],
        king: [0; 64],
        sees: [[0; 64]; 2],
        seen_from: [[0; 64]; 2],
        d2: [[0; 64]; 64],
        human: [[0; 64]; 2],
        goaway: [0; 64],
        ghast: [0; 64],
        basilisk: [[0; 64]; 2],
    };
    let mut sq = 0;
    while sq < 64 {
        let mut o = 0;
        while o < 64 {
            let dx = fx(sq) - fx(o);
            let dy = fy(sq) - fy(o);
            t.d2[sq][o] = (dx * dx + dy * dy) as u8;
            let adx = if dx < 0 { -dx } else { dx };
            let ady = if dy < 0 { -dy } else { dy };
            if adx <= 2 && ady <= 2 {
                t.field[sq] |= 1u64 << o;
            }
            o += 1;
        }
        t.king[sq] = offsets_bb(sq, &DIRS);
        t.goaway[sq] = offsets_bb(
            sq,
            &[
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
                (2, 0),
                (-2, 0),
                (0, 2),
                (0, -2),
            ],
        );
        t.ghast[sq] = offsets_bb(sq, &[(2, 2), (2, -2), (-2, 2), (-2, -2)]);
        let mut own = 0;
        while own < 2 {
            let s = forward(own);
            t.human[own][sq] = offsets_bb(sq, &[(0, s), (1, s), (-1, s), (1, 0), (-1, 0)]);
            let b = offsets_bb(sq, &[(1, 2 * s), (-1, 2 * s), (1, -s), (-1, -s)]);
            t.basilisk[own][sq] = b;
            t.sees[own][sq] = b;
            own += 1;
        }
        sq += 1;
    }
    let mut own = 0;
    while own < 2 {
        let mut sq = 0;
        while sq < 64 {
            let mut b = t.sees[own][sq];
            while b != 0 {
                let v = b.trailing_zeros() as usize;
                t.seen_from[own][v] |= 1u64 << sq;
                b &= b - 1;
            }
            sq += 1;
        }
        own += 1;
    }
    t
}

pub static T: Tables = build();

/// A Nemoroth position (without its history).
#[derive(Clone, PartialEq, Eq)]
pub struct Nemoroth {
    pub(crate) cells: [Cell; 64],
    pub(crate) occ: Bitboard,
    /// `kinds[owner][kind]`: squares holding such a piece (mobile or statue).
    pub(crate) kinds: [[Bitboard; 7]; 2],
    /// Squares holding a mobile piece of each owner.
    pub(crate) mobile: [Bitboard; 2],
    /// Squares holding a statue or a Mummy.
    pub(crate) immobile: Bitboard,
    /// Remaining plies of ichor per square (0 = none).
    pub(crate) ichor: [u8; 64],
    pub(crate) ichor_bb: Bitboard,
    pub(crate) side: Color,
    pub(crate) ply: u32,
}

impl std::fmt::Debug for Nemoroth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Nemoroth({})", self.to_nfen())
    }
}

impl Nemoroth {
    pub fn empty() -> Self {
        Nemoroth {
            cells: [[0; STACK_CAP]; 64],
            occ: 0,
            kinds: [[0; 7]; 2],
            mobile: [0; 2],
            immobile: 0,
            ichor: [0; 64],
            ichor_bb: 0,
            side: Color::White,
            ply: 0,
        }
    }

    #[inline(always)]
    pub fn count(&self, sq: usize) -> usize {
        if self.occ & bit(sq as u8) == 0 {
            return 0;
        }
        let c = &self.cells[sq];
        let mut n = 0;
        while n < STACK_CAP && c[n] != 0 {
            n += 1;
        }
        n
    }

    #[inline(always)]
    pub fn pieces(&self, sq: usize) -> &[u8] {
        let n = self.count(sq);
        &self.cells[sq][..n]
    }

    /// Recomputes the summary bitboards of one square from its cell.
    #[inline]
    pub(crate) fn refresh(&mut self, sq: usize) {
        let b = 1u64 << sq;
        let nb = !b;
        self.occ &= nb;
        for o in 0..2 {
            for k in 0..7 {
                self.kinds[o][k] &= nb;
            }
            self.mobile[o] &= nb;
        }
        self.immobile &= nb;
        for i in 0..STACK_CAP {
            let c = self.cells[sq][i];
            if c == 0 {
                break;
            }
            self.occ |= b;
            if c == MUMMY {
                self.immobile |= b;
                continue;
            }
            self.kinds[owner(c)][kind(c) as usize] |= b;
            if is_statue(c) {
                self.immobile |= b;
            } else {
                self.mobile[owner(c)] |= b;
            }
        }
    }

    /// Inserts a code keeping the cell sorted (no refresh). A second Mummy
    /// merges into the first.
    #[inline]
    pub(crate) fn insert_raw(&mut self, sq: usize, code: u8) {
        let cell = &mut self.cells[sq];
        let mut n = 0;
        while n < STACK_CAP && cell[n] != 0 {
            if code == MUMMY && cell[n] == MUMMY {
                return;
            }
            n += 1;
        }
        assert!(n < STACK_CAP, "more than {STACK_CAP} pieces on one square");
        let mut i = n;
        while i > 0 && cell[i - 1] > code {
            cell[i] = cell[i - 1];
            i -= 1;
        }
        cell[i] = code;
        self.occ |= 1u64 << sq;
    }

    /// Removes the piece at index `i` of the cell (no refresh).
    #[inline]
    pub(crate) fn remove_at_raw(&mut self, sq: usize, i: usize) {
        let cell = &mut self.cells[sq];
        let mut j = i;
        while j + 1 < STACK_CAP && cell[j + 1] != 0 {
            cell[j] = cell[j + 1];
            j += 1;
        }
        cell[j] = 0;
    }

    /// Removes one piece with this code (no refresh).
    #[inline]
    pub(crate) fn remove_one_raw(&mut self, sq: usize, code: u8) {
        let n = self.count(sq);
        if let Some(i) = self.cells[sq][..n].iter().position(|&c| c == code) {
            self.remove_at_raw(sq, i);
        }
    }

    #[inline]
    pub(crate) fn clear_raw(&mut self, sq: usize) {
        self.cells[sq] = [0; STACK_CAP];
    }

    #[inline(always)]
    pub fn ghasts(&self) -> Bitboard {
        self.kinds[0][K_G as usize] | self.kinds[1][K_G as usize]
    }
    #[inline(always)]
    pub fn leafs(&self) -> Bitboard {
        self.kinds[0][K_L as usize] | self.kinds[1][K_L as usize]
    }
    #[inline(always)]
    pub fn basilisks(&self) -> Bitboard {
        self.kinds[0][K_B as usize] | self.kinds[1][K_B as usize]
    }

    /// Whether any Basilisk sees `sq`.
    #[inline(always)]
    pub fn is_seen(&self, sq: usize) -> bool {
        (self.kinds[0][K_B as usize] & T.seen_from[0][sq])
            | (self.kinds[1][K_B as usize] & T.seen_from[1][sq])
            != 0
    }

    /// Every square seen by some Basilisk.
    pub fn seen_map(&self) -> Bitboard {
        let mut m = 0;
        for o in 0..2 {
            let mut b = self.kinds[o][K_B as usize];
            while b != 0 {
                let s = b.trailing_zeros() as usize;
                m |= T.sees[o][s];
                b &= b - 1;
            }
        }
        m
    }

    /// Canonical configuration words: occupancy, then each occupied cell.
    #[inline]
    fn config_words(&self, words: &mut [u64; WORDS]) -> usize {
        words[0] = self.occ;
        let mut n = 1;
        let mut b = self.occ;
        while b != 0 {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            let cell = &self.cells[s];
            let mut i = 0;
            loop {
                let w = u64::from_le_bytes(cell[i..i + 8].try_into().unwrap());
                words[n] = w;
                n += 1;
                i += 8;
                if i >= STACK_CAP || cell[i] == 0 {
                    break;
                }
            }
        }
        n
    }

    /// Key of the configuration (3.13): placement with flags; no ichor,
    /// no side to move.
    pub fn config_key(&self) -> u64 {
        let mut words = [0u64; WORDS];
        let n = self.config_words(&mut words);
        crate::game::hash_words(&words[..n])
    }

    /// Full state key: configuration, ichor with remaining values, side.
    pub fn state_key(&self) -> u64 {
        let mut words = [0u64; WORDS];
        let mut n = self.config_words(&mut words);
        words[n] = self.ichor_bb;
        n += 1;
        let mut b = self.ichor_bb;
        let mut acc = 0u64;
        let mut k = 0;
        while b != 0 {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            acc |= (self.ichor[s] as u64) << (8 * k);
            k += 1;
            if k == 8 {
                words[n] = acc;
                n += 1;
                acc = 0;
                k = 0;
            }
        }
        words[n] = acc;
        n += 1;
        words[n] = self.side as u64 + 0x5a5a_0000;
        n += 1;
        crate::game::hash_words(&words[..n])
    }

    /// Same board and ichor (the result of a move, ignoring the ply count).
    pub fn same_state(&self, other: &Nemoroth) -> bool {
        self.cells == other.cells && self.ichor == other.ichor && self.side == other.side
    }
}
