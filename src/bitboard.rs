//! 8x8 bitboards shared by the 8x8 games.
//!
//! ```text
//! bit = 8 * rank + file          rank 8 | 56 57 58 59 60 61 62 63
//!                                       | ...
//! a1 = bit 0, h1 = bit 7,        rank 2 |  8  9 10 11 12 13 14 15
//! a8 = bit 56, h8 = bit 63       rank 1 |  0  1  2  3  4  5  6  7
//!                                          a  b  c  d  e  f  g  h
//! ```
//!
//! Directions are numbered clockwise from north; rook directions are even,
//! bishop directions odd, and `d ^ 4` is the opposite of `d`:
//!
//! ```text
//!   7 0 1      NW N NE
//!   6 . 2      W  .  E
//!   5 4 3      SW S SE
//! ```
//!
//! Sliding attacks use "fancy" magic bitboards. The magics are found at
//! first use by a seeded search (a few milliseconds), so every run builds
//! identical tables.

use std::sync::LazyLock;

pub type Bitboard = u64;
pub type Square = u8;

/// (dx, dy) of each direction index.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

pub const ROOK_DIRECTIONS: [usize; 4] = [0, 2, 4, 6];
pub const BISHOP_DIRECTIONS: [usize; 4] = [1, 3, 5, 7];

pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
pub const FILE_H: Bitboard = FILE_A << 7;
pub const RANK_1: Bitboard = 0xff;
pub const RANK_8: Bitboard = RANK_1 << 56;

#[inline(always)]
pub const fn square(file: i32, rank: i32) -> Square {
    (rank * 8 + file) as Square
}

#[inline(always)]
pub const fn file_of(sq: Square) -> i32 {
    (sq & 7) as i32
}

#[inline(always)]
pub const fn rank_of(sq: Square) -> i32 {
    (sq >> 3) as i32
}

#[inline(always)]
pub const fn bit(sq: Square) -> Bitboard {
    1u64 << sq
}

/// The square `(file + dx, rank + dy)` if it is on the board.
#[inline]
pub const fn offset(sq: Square, dx: i32, dy: i32) -> Option<Square> {
    let f = file_of(sq) + dx;
    let r = rank_of(sq) + dy;
    if f >= 0 && f < 8 && r >= 0 && r < 8 {
        Some(square(f, r))
    } else {
        None
    }
}

/// Shifts every bit one step in direction `dir`, dropping bits that leave
/// the board.
#[inline(always)]
pub const fn shift(bb: Bitboard, dir: usize) -> Bitboard {
    match dir {
        0 => bb << 8,
        1 => (bb & !FILE_H) << 9,
        2 => (bb & !FILE_H) << 1,
        3 => (bb & !FILE_H) >> 7,
        4 => bb >> 8,
        5 => (bb & !FILE_A) >> 9,
        6 => (bb & !FILE_A) >> 1,
        _ => (bb & !FILE_A) << 7,
    }
}

/// Iterates over the squares of a bitboard, lowest first.
#[inline(always)]
pub fn squares(mut bb: Bitboard) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bb == 0 {
            None
        } else {
            let sq = bb.trailing_zeros() as Square;
            bb &= bb - 1;
            Some(sq)
        }
    })
}

/// Square name, e.g. `e4`.
pub fn square_name(sq: Square) -> String {
    let mut s = String::with_capacity(2);
    s.push((b'a' + file_of(sq) as u8) as char);
    s.push((b'1' + rank_of(sq) as u8) as char);
    s
}

/// Parses a square name like `e4`.
pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(square((b[0] - b'a') as i32, (b[1] - b'1') as i32))
}

/// Geometry tables: rays, the squares between two squares, and lines.
pub struct Geometry {
    /// `ray[dir][sq]`: every square from `sq` (exclusive) to the edge.
    pub ray: [[Bitboard; 64]; 8],
    /// `between[a][b]`: squares strictly between two aligned squares, else 0.
    pub between: [[Bitboard; 64]; 64],
    /// `line[a][b]`: the whole line through two aligned squares, else 0.
    pub line: [[Bitboard; 64]; 64],
}

pub static GEOMETRY: LazyLock<Box<Geometry>> = LazyLock::new(|| {
    let mut g = Box::new(Geometry {
        ray: [[0; 64]; 8],
        between: [[0; 64]; 64],
        line: [[0; 64]; 64],
    });
    for sq in 0..64u8 {
        for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            let mut cur = sq;
            while let Some(next) = offset(cur, dx, dy) {
                g.ray[d][sq as usize] |= bit(next);
                cur = next;
            }
        }
    }
    for a in 0..64usize {
        for d in 0..8 {
            for b in squares(g.ray[d][a]) {
                let b = b as usize;
                g.between[a][b] = g.ray[d][a] & g.ray[d ^ 4][b];
                g.line[a][b] = g.ray[d][a] | g.ray[d ^ 4][a] | bit(a as Square);
            }
        }
    }
    g
});

struct Magic {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Magic tables for rook and bishop attacks.
pub struct Sliders {
    rook: Vec<Magic>,
    bishop: Vec<Magic>,
    table: Vec<Bitboard>,
}

fn slide(sq: Square, occ: Bitboard, dirs: &[usize]) -> Bitboard {
    let mut att = 0;
    for &d in dirs {
        let (dx, dy) = DIRECTIONS[d];
        let mut cur = sq;
        while let Some(next) = offset(cur, dx, dy) {
            att |= bit(next);
            if occ & bit(next) != 0 {
                break;
            }
            cur = next;
        }
    }
    att
}

/// The relevant-occupancy mask: the attack rays without their last square.
fn relevant_mask(sq: Square, dirs: &[usize]) -> Bitboard {
    let mut mask = 0;
    for &d in dirs {
        let (dx, dy) = DIRECTIONS[d];
        let mut cur = sq;
        while let Some(next) = offset(cur, dx, dy) {
            if offset(next, dx, dy).is_none() {
                break;
            }
            mask |= bit(next);
            cur = next;
        }
    }
    mask
}

fn find_magics(dirs: &[usize], table: &mut Vec<Bitboard>, rng: &mut u64) -> Vec<Magic> {
    let mut next = || {
        // xorshift64*: a fixed-seed generator so the tables are the same on
        // every run.
        *rng ^= *rng >> 12;
        *rng ^= *rng << 25;
        *rng ^= *rng >> 27;
        rng.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let mut magics = Vec::with_capacity(64);
    for sq in 0..64u8 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        // Every subset of the mask (Carry-Rippler enumeration) and its attacks.
        let mut occs = Vec::with_capacity(size);
        let mut subset: Bitboard = 0;
        loop {
            occs.push((subset, slide(sq, subset, dirs)));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let offset = table.len();
        table.resize(offset + size, 0);
        let mut epoch = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            let candidate = next() & next() & next();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let mut ok = true;
            for &(occ, att) in &occs {
                let idx = (occ.wrapping_mul(candidate) >> (64 - bits)) as usize;
                if epoch[idx] != attempt {
                    epoch[idx] = attempt;
                    table[offset + idx] = att;
                } else if table[offset + idx] != att {
                    ok = false;
                    break;
                }
            }
            if ok {
                break candidate;
            }
        };
        magics.push(Magic {
            mask,
            magic,
            shift: 64 - bits,
            offset,
        });
    }
    magics
}

pub static SLIDERS: LazyLock<Sliders> = LazyLock::new(|| {
    let mut table = Vec::with_capacity(102_400 + 5_248);
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let rook = find_magics(&ROOK_DIRECTIONS, &mut table, &mut rng);
    let bishop = find_magics(&BISHOP_DIRECTIONS, &mut table, &mut rng);
    Sliders {
        rook,
        bishop,
        table,
    }
});

impl Sliders {
    #[inline(always)]
    pub fn rook(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &self.rook[sq as usize];
        let idx = ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
        self.table[m.offset + idx]
    }

    #[inline(always)]
    pub fn bishop(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &self.bishop[sq as usize];
        let idx = ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
        self.table[m.offset + idx]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_attacks_match_slow_slides() {
        let mut rng = 12345u64;
        for _ in 0..2000 {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let occ = rng & (rng >> 7) & (rng << 3);
            for sq in 0..64u8 {
                assert_eq!(SLIDERS.rook(sq, occ), slide(sq, occ, &ROOK_DIRECTIONS));
                assert_eq!(SLIDERS.bishop(sq, occ), slide(sq, occ, &BISHOP_DIRECTIONS));
            }
        }
    }

    #[test]
    fn geometry_between_and_line() {
        let g = &*GEOMETRY;
        let a1 = square(0, 0);
        let h8 = square(7, 7);
        let c3 = square(2, 2);
        assert_eq!(g.between[a1 as usize][h8 as usize].count_ones(), 6);
        assert!(g.between[a1 as usize][h8 as usize] & bit(c3) != 0);
        assert_eq!(g.line[a1 as usize][c3 as usize].count_ones(), 8);
        assert_eq!(g.between[a1 as usize][square(1, 2) as usize], 0);
        assert_eq!(parse_square("e4"), Some(square(4, 3)));
        assert_eq!(square_name(square(4, 3)), "e4");
        assert_eq!(parse_square("i1"), None);
    }
}
