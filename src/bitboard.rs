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
//! Sliding attacks use "fancy" magic bitboards. The magic multipliers were
//! found by a seeded search (kept in the tests) and are stored as constants,
//! so start-up only fills the tables.

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
/// The two rook directions along a rank (east, west).
const RANK_DIRECTIONS: [usize; 2] = [2, 6];
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

/// Sliding attacks: bishops by magic lookup (a 42 KB table), rooks by
/// subtraction along the file and a small table along the rank.
pub struct Sliders {
    bishop: Vec<Magic>,
    table: Vec<Bitboard>,
    /// The file through each square, the square itself left out.
    file_without: [Bitboard; 64],
    /// Attacks along the first rank from each file, by the occupancy of
    /// the six inner squares of that rank.
    rank_attacks: [[u8; 64]; 8],
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

/// Every subset of `mask` (Carry-Rippler enumeration) with its attacks.
fn subsets(sq: Square, mask: Bitboard, dirs: &[usize]) -> Vec<(Bitboard, Bitboard)> {
    let mut occs = Vec::with_capacity(1 << mask.count_ones());
    let mut subset: Bitboard = 0;
    loop {
        occs.push((subset, slide(sq, subset, dirs)));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    occs
}

/// Fills the attack table for the given magics.
fn build_magics(dirs: &[usize], magics: &[u64; 64], table: &mut Vec<Bitboard>) -> Vec<Magic> {
    (0..64u8)
        .map(|sq| {
            let mask = relevant_mask(sq, dirs);
            let bits = mask.count_ones();
            let offset = table.len();
            table.resize(offset + (1usize << bits), 0);
            let magic = magics[sq as usize];
            for (occ, att) in subsets(sq, mask, dirs) {
                let idx = (occ.wrapping_mul(magic) >> (64 - bits)) as usize;
                // A collision must map to the same attacks (tested below).
                debug_assert!(table[offset + idx] == 0 || table[offset + idx] == att);
                table[offset + idx] = att;
            }
            Magic {
                mask,
                magic,
                shift: 64 - bits,
                offset,
            }
        })
        .collect()
}

/// Magic multipliers for bishops, found by the seeded search in the
/// tests (`cargo test --release print_magics -- --ignored --nocapture`).
#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0xa010041108003100,
    0x006082020a002900,
    0x6810010619200000,
    0x08281a0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040a0210245280,
    0x000200210808a402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202c0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208b0542109008a2,
    0x0080084a08040204,
    0x0040e2a80811244c,
    0x2505022008008108,
    0x0430220100420040,
    0x010a040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000a62048043004,
    0x280120048a015004,
    0x006090002a020814,
    0x44042000240800d0,
    0x01102800040a4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500c05021,
    0x0088611002080200,
    0x0116080a00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002e00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221c0400,
    0x0422014022009020,
    0x0210046102100c00,
    0xc004008082029102,
    0x00aa461801101200,
    0x0404080080201108,
    0x020542108c205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400c0,
    0x0200100410a42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800c262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012a02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

pub static SLIDERS: LazyLock<Sliders> = LazyLock::new(|| {
    let mut table = Vec::with_capacity(5_248);
    let bishop = build_magics(&BISHOP_DIRECTIONS, &BISHOP_MAGICS, &mut table);
    let mut file_without = [0; 64];
    for (sq, mask) in file_without.iter_mut().enumerate() {
        *mask = (FILE_A << (sq % 8)) & !bit(sq as Square);
    }
    let mut rank_attacks = [[0u8; 64]; 8];
    for (file, row) in rank_attacks.iter_mut().enumerate() {
        for (inner, att) in row.iter_mut().enumerate() {
            let occ = (inner as Bitboard) << 1;
            *att = slide(file as Square, occ, &RANK_DIRECTIONS) as u8;
        }
    }
    Sliders {
        bishop,
        table,
        file_without,
        rank_attacks,
    }
});

impl Sliders {
    /// Rook attacks without a large table: the file by subtraction from
    /// both ends (a byte swap mirrors the ranks), the rank from a
    /// 512-byte table. The magic table for rooks (800 KB) missed the
    /// cache on most lookups.
    #[inline(always)]
    pub fn rook(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let s = sq as usize;
        let mask = self.file_without[s];
        let b = bit(sq);
        let o = occ & mask;
        let up = o.wrapping_sub(b << 1);
        let down = o
            .swap_bytes()
            .wrapping_sub(b.swap_bytes() << 1)
            .swap_bytes();
        let file = (up ^ down) & mask;
        let shift = s & !7;
        let inner = ((occ >> (shift + 1)) & 63) as usize;
        file | Bitboard::from(self.rank_attacks[s & 7][inner]) << shift
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
            let occs = subsets(sq, mask, dirs);
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

    #[test]
    fn sliding_attacks_match_slow_slides() {
        let mut rng = 12345u64;
        for _ in 0..2000 {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let sparse = rng & (rng >> 7) & (rng << 3);
            for occ in [sparse, rng, !sparse] {
                for sq in 0..64u8 {
                    assert_eq!(SLIDERS.rook(sq, occ), slide(sq, occ, &ROOK_DIRECTIONS));
                    assert_eq!(SLIDERS.bishop(sq, occ), slide(sq, occ, &BISHOP_DIRECTIONS));
                }
            }
        }
    }

    #[test]
    #[ignore = "prints freshly searched magics for pasting into BISHOP_MAGICS"]
    fn print_magics() {
        let mut table = Vec::new();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for (name, dirs) in [("BISHOP", &BISHOP_DIRECTIONS)] {
            let magics = find_magics(dirs, &mut table, &mut rng);
            println!("const {name}_MAGICS: [u64; 64] = [");
            for m in magics {
                println!("    {:#018x},", m.magic);
            }
            println!("];");
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
