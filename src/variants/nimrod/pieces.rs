//! Piece kinds of the Nimrod family and their movement tables.
//!
//! Every piece is defined relative to its side's forward vector F (rulebook
//! 3.1): a direction d is forward if d·F > 0, backward if d·F < 0, sideways
//! if d·F = 0. Building the tables from that one definition gives both
//! orientations and both colours without writing any piece twice.
//!
//! Attacks of a piece of kind k and colour c on square s, with occupancy o:
//!
//! ```text
//! steps[c][k][s] | rook(s, o) & rook_rays[c][k][s] | bishop(s, o) & bishop_rays[c][k][s]
//! ```
//!
//! where `rook`/`bishop` are magic lookups (all four rays up to the first
//! blocker) and the masks keep only the piece's own directions. Black's
//! vectors are White's negated in both orientations, so the pieces of colour
//! `c` that attack `s` are found with the tables of colour `!c` from `s`.

use crate::bitboard::{
    BISHOP_DIRECTIONS, Bitboard, DIRECTIONS, GEOMETRY, ROOK_DIRECTIONS, Square, bit, offset,
    parse_square,
};
use std::sync::LazyLock;

pub const PAWN: usize = 0;
pub const KNIGHT: usize = 1;
pub const HUNTER: usize = 2;
pub const HAWKER: usize = 3;
/// Huntress (FIDE orientation) / Huntsman (corner): Hunter + sideways.
pub const HUNTER5: usize = 4;
/// Hawkress (FIDE orientation) / Hawksman (corner): Hawker + sideways.
pub const HAWKER5: usize = 5;
pub const QUEEN: usize = 6;
pub const KING: usize = 7;
pub const ACELANDER: usize = 8;
pub const DRAGONHUNTER: usize = 9;
pub const DRAGONHAWKER: usize = 10;
pub const DRAGONHUNTER5: usize = 11;
pub const DRAGONHAWKER5: usize = 12;
pub const KIND_COUNT: usize = 13;

/// The dragon form of a kind that has one (Knight to 5-way hunters).
#[inline(always)]
pub const fn dragon_of(kind: usize) -> Option<usize> {
    if kind >= KNIGHT && kind <= HAWKER5 {
        Some(kind + 7)
    } else {
        None
    }
}

/// Piece letters (upper case, White) by kind, per orientation (rulebook 5.1).
pub const FIDE_LETTERS: [u8; KIND_COUNT] = *b"PNHAUWQKCDFGJ";
pub const CORNER_LETTERS: [u8; KIND_COUNT] = *b"PNHAMYQKCDFOZ";

/// Pawn promotion choices (rulebook M9).
pub const PLAIN_PROMOTIONS: [usize; 6] = [QUEEN, KNIGHT, HUNTER, HAWKER, HUNTER5, HAWKER5];
pub const DRAGON_PROMOTIONS: [usize; 6] = [
    QUEEN,
    ACELANDER,
    DRAGONHUNTER,
    DRAGONHAWKER,
    DRAGONHUNTER5,
    DRAGONHAWKER5,
];

/// Movement tables for one orientation.
pub struct Tables {
    /// Leaps and single steps, `[colour][kind][square]`.
    pub steps: [[[Bitboard; 64]; KIND_COUNT]; 2],
    /// Union of the kind's rook-direction rays from the square.
    pub rook_rays: [[[Bitboard; 64]; KIND_COUNT]; 2],
    /// Union of the kind's bishop-direction rays from the square.
    pub bishop_rays: [[[Bitboard; 64]; KIND_COUNT]; 2],
    /// Bit d set if the kind slides in direction d, `[colour][kind]`.
    pub slide_dirs: [[u8; KIND_COUNT]; 2],
    /// Pawn non-capturing single steps, `[colour][square]`.
    pub pawn_push: [[Bitboard; 64]; 2],
    /// Pawn capture steps, `[colour][square]`.
    pub pawn_capture: [[Bitboard; 64]; 2],
    /// Bit d set if a colour's Pawns capture in direction d.
    pub pawn_capture_dirs: [u8; 2],
    /// Bit d set if a colour's Pawns step in direction d.
    pub pawn_push_dirs: [u8; 2],
    /// The squares where a colour's men promote (rulebook 3.4).
    pub promotion: [Bitboard; 2],
    /// Squares from which a Pawn may double-step (FIDE orientation only).
    pub double_step_rank: [Bitboard; 2],
}

pub static FIDE_TABLES: LazyLock<Box<Tables>> = LazyLock::new(|| build(false));
pub static CORNER_TABLES: LazyLock<Box<Tables>> = LazyLock::new(|| build(true));

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Forward,
    Backward,
    Sideways,
}

fn class(dir: usize, forward: (i32, i32)) -> Class {
    let (dx, dy) = DIRECTIONS[dir];
    let dot = dx * forward.0 + dy * forward.1;
    match dot.signum() {
        1 => Class::Forward,
        -1 => Class::Backward,
        _ => Class::Sideways,
    }
}

/// Slide directions of a kind, as a bit set over direction indices.
fn slides(kind: usize, forward: (i32, i32)) -> u8 {
    let pick = |dirs: &[usize], c: Class| -> u8 {
        dirs.iter()
            .filter(|&&d| class(d, forward) == c)
            .fold(0, |acc, &d| acc | 1 << d)
    };
    let sideways =
        pick(&ROOK_DIRECTIONS, Class::Sideways) | pick(&BISHOP_DIRECTIONS, Class::Sideways);
    let hunter = pick(&ROOK_DIRECTIONS, Class::Forward) | pick(&BISHOP_DIRECTIONS, Class::Backward);
    let hawker = pick(&BISHOP_DIRECTIONS, Class::Forward) | pick(&ROOK_DIRECTIONS, Class::Backward);
    match kind {
        HUNTER | DRAGONHUNTER => hunter,
        HAWKER | DRAGONHAWKER => hawker,
        HUNTER5 | DRAGONHUNTER5 => hunter | sideways,
        HAWKER5 | DRAGONHAWKER5 => hawker | sideways,
        QUEEN => 0xff,
        _ => 0,
    }
}

const KNIGHT_LEAPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Leap and step vectors of a kind. A dragon form steps in every King
/// direction its base form does not slide in.
fn steps(kind: usize, slide_set: u8) -> Vec<(i32, i32)> {
    let king_steps_except = |set: u8| -> Vec<(i32, i32)> {
        (0..8)
            .filter(|d| set & (1 << d) == 0)
            .map(|d| DIRECTIONS[d])
            .collect()
    };
    match kind {
        KNIGHT => KNIGHT_LEAPS.to_vec(),
        KING => king_steps_except(0),
        ACELANDER => {
            let mut v = KNIGHT_LEAPS.to_vec();
            v.extend(king_steps_except(0));
            v
        }
        DRAGONHUNTER | DRAGONHAWKER | DRAGONHUNTER5 | DRAGONHAWKER5 => king_steps_except(slide_set),
        _ => Vec::new(),
    }
}

fn squares_bb(names: &[&str]) -> Bitboard {
    names
        .iter()
        .map(|n| bit(parse_square(n).expect("valid square")))
        .fold(0, |a, b| a | b)
}

/// The corner variants' promotion squares: the starting squares of the enemy
/// non-Pawns in the start array (rulebook 2.2, 3.4). Data tied to the array.
pub const CORNER_PROMOTION_WHITE: [&str; 8] = ["a8", "b8", "c8", "d8", "a7", "a6", "a5", "a4"];
pub const CORNER_PROMOTION_BLACK: [&str; 8] = ["h1", "g1", "f1", "e1", "d1", "h2", "h3", "h4"];

fn build(corner: bool) -> Box<Tables> {
    let geometry = &*GEOMETRY;
    let mut t = Box::new(Tables {
        steps: [[[0; 64]; KIND_COUNT]; 2],
        rook_rays: [[[0; 64]; KIND_COUNT]; 2],
        bishop_rays: [[[0; 64]; KIND_COUNT]; 2],
        slide_dirs: [[0; KIND_COUNT]; 2],
        pawn_push: [[0; 64]; 2],
        pawn_capture: [[0; 64]; 2],
        pawn_capture_dirs: [0; 2],
        pawn_push_dirs: [0; 2],
        promotion: [0; 2],
        double_step_rank: [0; 2],
    });
    for color in 0..2 {
        let s = if color == 0 { 1 } else { -1 };
        let forward = if corner { (-s, s) } else { (0, s) };
        for kind in 0..KIND_COUNT {
            let set = slides(kind, forward);
            t.slide_dirs[color][kind] = set;
            let vectors = steps(kind, set);
            for sq in 0..64u8 {
                for &(dx, dy) in &vectors {
                    if let Some(to) = offset(sq, dx, dy) {
                        t.steps[color][kind][sq as usize] |= bit(to);
                    }
                }
                for d in 0..8 {
                    if set & (1 << d) != 0 {
                        let ray = geometry.ray[d][sq as usize];
                        if d % 2 == 0 {
                            t.rook_rays[color][kind][sq as usize] |= ray;
                        } else {
                            t.bishop_rays[color][kind][sq as usize] |= ray;
                        }
                    }
                }
            }
        }
        for d in 0..8 {
            if class(d, forward) == Class::Forward {
                let dirs = if d % 2 == 0 {
                    &mut t.pawn_push_dirs[color]
                } else {
                    &mut t.pawn_capture_dirs[color]
                };
                *dirs |= 1 << d;
            }
        }
        for sq in 0..64u8 {
            for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                if class(d, forward) != Class::Forward {
                    continue;
                }
                if let Some(to) = offset(sq, dx, dy) {
                    if d % 2 == 0 {
                        t.pawn_push[color][sq as usize] |= bit(to);
                    } else {
                        t.pawn_capture[color][sq as usize] |= bit(to);
                    }
                }
            }
        }
    }
    if corner {
        t.promotion = [
            squares_bb(&CORNER_PROMOTION_WHITE),
            squares_bb(&CORNER_PROMOTION_BLACK),
        ];
    } else {
        t.promotion = [crate::bitboard::RANK_8, crate::bitboard::RANK_1];
        t.double_step_rank = [crate::bitboard::RANK_1 << 8, crate::bitboard::RANK_1 << 48];
    }
    t
}

/// A piece on a square of the mailbox: kind in the low 4 bits, colour in
/// bit 4. `EMPTY` marks an empty square.
pub type Piece = u8;
pub const EMPTY: Piece = 0xff;

#[inline(always)]
pub const fn make_piece(color: usize, kind: usize) -> Piece {
    (kind | (color << 4)) as Piece
}

#[inline(always)]
pub const fn piece_kind(p: Piece) -> usize {
    (p & 0x0f) as usize
}

#[inline(always)]
pub const fn piece_color(p: Piece) -> usize {
    (p >> 4) as usize
}

/// Attacks of a kind/colour from `sq` with occupancy `occ` (not pawns).
#[inline(always)]
pub fn attacks(t: &Tables, color: usize, kind: usize, sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq as usize;
    let sliders = &*crate::bitboard::SLIDERS;
    let mut att = t.steps[color][kind][s];
    let rr = t.rook_rays[color][kind][s];
    if rr != 0 {
        att |= sliders.rook(sq, occ) & rr;
    }
    let br = t.bishop_rays[color][kind][s];
    if br != 0 {
        att |= sliders.bishop(sq, occ) & br;
    }
    att
}

/// The squares the pawns `pawns` of `color` attack: the whole set
/// shifted along each capture direction, with no loop over the Pawns.
#[inline(always)]
pub fn pawn_attacks(t: &Tables, color: usize, pawns: Bitboard) -> Bitboard {
    shift_along(pawns, t.pawn_capture_dirs[color])
}

/// The squares one step ahead of the pawns `pawns` of `color`, empty or
/// not.
#[inline(always)]
pub fn pawn_steps(t: &Tables, color: usize, pawns: Bitboard) -> Bitboard {
    shift_along(pawns, t.pawn_push_dirs[color])
}

/// `bb` shifted one step along each direction of the set `dirs`, joined.
#[inline(always)]
fn shift_along(bb: Bitboard, dirs: u8) -> Bitboard {
    let mut out = 0;
    for d in 0..DIRECTIONS.len() {
        if dirs & (1 << d) != 0 {
            out |= crate::bitboard::shift(bb, d);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fide_hunter_directions() {
        // White Hunter: forward rook N, backward bishops SE and SW.
        let t = &*FIDE_TABLES;
        assert_eq!(t.slide_dirs[0][HUNTER], 1 << 0 | 1 << 3 | 1 << 5);
        // Black Hunter: S, NE, NW.
        assert_eq!(t.slide_dirs[1][HUNTER], 1 << 4 | 1 << 1 | 1 << 7);
        // Huntress adds E and W.
        assert_eq!(
            t.slide_dirs[0][HUNTER5],
            t.slide_dirs[0][HUNTER] | 1 << 2 | 1 << 6
        );
    }

    #[test]
    fn pawn_shifts_match_the_tables() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for t in [&*FIDE_TABLES, &*CORNER_TABLES] {
            for color in 0..2 {
                for _ in 0..200 {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let pawns = seed & seed.rotate_left(17);
                    let union = |table: &[[Bitboard; 64]; 2]| {
                        crate::bitboard::squares(pawns).fold(0, |a, s| a | table[color][s as usize])
                    };
                    assert_eq!(pawn_attacks(t, color, pawns), union(&t.pawn_capture));
                    assert_eq!(pawn_steps(t, color, pawns), union(&t.pawn_push));
                }
            }
        }
    }

    #[test]
    fn corner_huntsman_directions() {
        // White Huntsman: rook N, W; bishops SE, NE, SW (rulebook 3.2).
        let t = &*CORNER_TABLES;
        assert_eq!(
            t.slide_dirs[0][HUNTER5],
            1 << 0 | 1 << 6 | 1 << 3 | 1 << 1 | 1 << 5
        );
        // White Dragonhuntsman steps S, E, NW.
        let d4 = parse_square("d4").unwrap() as usize;
        assert_eq!(
            t.steps[0][DRAGONHUNTER5][d4],
            squares_bb(&["d3", "e4", "c5"])
        );
    }
}
