//! Board geometry of Vyrémorn, computed once: existence, regions, neighbour
//! steps, slide rays (cut at holes and by the Field-crossing rule), jump
//! tables with their paths (holes excluded), and the reverse tables the
//! attack test walks.
//!
//! Square index: `y * 13 + x` over the 13 x 12 bounding box (0..156); holes
//! have indices too but `exists` is false for them and no table ever
//! produces one.
//!
//! The reverse tables are built by generating every pattern *forward* from
//! each attacker square and inverting the result, so one-way jumps next to
//! the holes come out right without any symmetry argument.

use std::sync::LazyLock;

pub const FILES: i32 = 13;
pub const RANKS: i32 = 12;
pub const NSQ: usize = 156;
/// "No square" in the tables.
pub const NONE: u8 = 255;

pub type Sq = u8;

/// Regions (also the index of the Court's owner times two).
pub const WHITE_COURT: u8 = 0;
pub const FIELD: u8 = 1;
pub const BLACK_COURT: u8 = 2;
pub const HOLE: u8 = 3;

/// Unit directions: 0..4 are the flats (E N W S), 4..8 the points
/// (NE NW SW SE). `d ^ 2` is the opposite direction.
pub const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (-1, 0),
    (0, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
    (1, -1),
];

/// Forward point of each colour (White NE, Black SW).
pub const FWD_POINT: [usize; 2] = [4, 6];
/// Forward flats of each colour.
pub const FWD_FLATS: [[usize; 2]; 2] = [[0, 1], [2, 3]];
/// Backward flats of each colour.
pub const BACK_FLATS: [[usize; 2]; 2] = [[2, 3], [0, 1]];
/// Backward point of each colour.
pub const BACK_POINT: [usize; 2] = [6, 4];
/// Left/right points (the same two directions for both colours).
pub const SIDE_POINTS: [usize; 2] = [5, 7];

#[inline(always)]
pub const fn sq_of(x: i32, y: i32) -> Sq {
    (y * FILES + x) as Sq
}

#[inline(always)]
pub const fn x_of(s: Sq) -> i32 {
    s as i32 % FILES
}

#[inline(always)]
pub const fn y_of(s: Sq) -> i32 {
    s as i32 / FILES
}

/// Whether (x, y) is a square of the board.
pub const fn exists_xy(x: i32, y: i32) -> bool {
    x >= 0 && y >= 0 && x < FILES && y < RANKS && ((x <= 8 && y <= 8) || (x >= 4 && y >= 3))
}

pub const fn region_xy(x: i32, y: i32) -> u8 {
    if !exists_xy(x, y) {
        HOLE
    } else if x >= 4 && x <= 8 && y >= 3 && y <= 8 {
        FIELD
    } else if x <= 8 && y <= 8 {
        WHITE_COURT
    } else {
        BLACK_COURT
    }
}

/// `"a1"` .. `"m12"`.
pub fn square_name(s: Sq) -> String {
    format!("{}{}", (b'a' + x_of(s) as u8) as char, y_of(s) + 1)
}

/// Parses a square name; `None` unless it names an existing square.
pub fn parse_square(text: &str) -> Option<Sq> {
    let b = text.as_bytes();
    if b.len() < 2 || b.len() > 3 || !(b'a'..=b'm').contains(&b[0]) {
        return None;
    }
    let digits = &text[1..];
    if !digits.bytes().all(|c| c.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    let rank: i32 = digits.parse().ok()?;
    let (x, y) = ((b[0] - b'a') as i32, rank - 1);
    exists_xy(x, y).then(|| sq_of(x, y))
}

/// The Field-crossing rule (rulebook 3.3) for a non-exempt move from `from`
/// to `to` over `between`: illegal iff the ends lie in the two different
/// Courts and some intermediate square is in the Field.
pub fn crosses_field(from: Sq, to: Sq, between: &[Sq]) -> bool {
    let (r0, r1) = (
        region_xy(x_of(from), y_of(from)),
        region_xy(x_of(to), y_of(to)),
    );
    r0 != FIELD
        && r1 != FIELD
        && r0 != r1
        && between
            .iter()
            .any(|&s| region_xy(x_of(s), y_of(s)) == FIELD)
}

/// A list of up to 12 squares (a ray).
#[derive(Clone, Copy, Debug, Default)]
pub struct Ray {
    pub len: u8,
    pub sq: [Sq; 12],
}

impl Ray {
    #[inline(always)]
    pub fn as_slice(&self) -> &[Sq] {
        &self.sq[..self.len as usize]
    }
    fn push(&mut self, s: Sq) {
        self.sq[self.len as usize] = s;
        self.len += 1;
    }
}

/// A jump: target (or, in reverse tables, the attacker's square) and one or
/// two alternative paths of `plen` squares each. The move is possible when
/// some path holds no opposing Citadel (holes were excluded when building).
#[derive(Clone, Copy, Debug)]
pub struct Jump {
    pub to: Sq,
    pub plen: u8,
    pub npaths: u8,
    pub paths: [[Sq; 3]; 2],
}

/// Jump families with tables.
pub const J_KNIGHT: usize = 0;
pub const J_WING: usize = 1;
pub const J_MAGUS: usize = 2;
pub const J_ELEPHANT: usize = 3;

pub struct Geometry {
    pub exists: [bool; NSQ],
    pub region: [u8; NSQ],
    /// Neighbour in each direction, or `NONE`.
    pub nb: [[Sq; 8]; NSQ],
    /// Slide rays, cut at holes and by the Field-crossing rule.
    pub ray: [[Ray; 8]; NSQ],
    /// `rev_ray[t][d]`: the squares s, nearest first, with t on `ray[s][d]`.
    pub rev_ray: [[Ray; 8]; NSQ],
    /// `jumps[family][s]`: jump moves from s (Magus: no Field targets).
    pub jumps: [Vec<Vec<Jump>>; 4],
    /// `rev_jumps[family][t]`: entries whose `to` is an attacker square.
    pub rev_jumps: [Vec<Vec<Jump>>; 4],
    /// Disk opening move `[colour][s]` = (middle, target), or NONE.
    pub disk_open: [[(Sq, Sq); NSQ]; 2],
    /// Pawn opening moves `[colour][s][flat]` = (middle, target), or NONE.
    pub pawn_open: [[[(Sq, Sq); 2]; NSQ]; 2],
    /// Every existing square, in index order.
    pub squares: Vec<Sq>,
}

fn step(s: Sq, dx: i32, dy: i32) -> Option<Sq> {
    let (x, y) = (x_of(s) + dx, y_of(s) + dy);
    exists_xy(x, y).then(|| sq_of(x, y))
}

/// A jump from s through the offsets of `path` to `target`, if every path
/// square and the target exist.
fn path_of(s: Sq, path: &[(i32, i32)]) -> Option<[Sq; 3]> {
    let mut out = [NONE; 3];
    for (i, &(dx, dy)) in path.iter().enumerate() {
        out[i] = step(s, dx, dy)?;
    }
    Some(out)
}

fn build() -> Geometry {
    let mut exists = [false; NSQ];
    let mut region = [HOLE; NSQ];
    let mut squares = Vec::new();
    for s in 0..NSQ as Sq {
        let (x, y) = (x_of(s), y_of(s));
        exists[s as usize] = exists_xy(x, y);
        region[s as usize] = region_xy(x, y);
        if exists[s as usize] {
            squares.push(s);
        }
    }
    let mut nb = [[NONE; 8]; NSQ];
    let mut ray = [[Ray::default(); 8]; NSQ];
    for &s in &squares {
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            nb[s as usize][d] = step(s, dx, dy).unwrap_or(NONE);
            let mut r = Ray::default();
            let mut between: Vec<Sq> = Vec::new();
            let mut cur = s;
            while let Some(t) = step(cur, dx, dy) {
                if crosses_field(s, t, &between) {
                    break;
                }
                r.push(t);
                between.push(t);
                cur = t;
            }
            ray[s as usize][d] = r;
        }
    }
    // Reverse rays: every s whose ray d contains t, ordered by distance.
    let mut rev_ray = [[Ray::default(); 8]; NSQ];
    for &t in &squares {
        for d in 0..8 {
            let mut found: Vec<(usize, Sq)> = Vec::new();
            for &s in &squares {
                if let Some(pos) = ray[s as usize][d].as_slice().iter().position(|&q| q == t) {
                    found.push((pos, s));
                }
            }
            found.sort();
            let mut r = Ray::default();
            for (_, s) in found {
                r.push(s);
            }
            rev_ray[t as usize][d] = r;
        }
    }

    // Jump patterns as (target offset, alternative paths of offsets).
    type Pattern = ((i32, i32), Vec<Vec<(i32, i32)>>);
    let mut patterns: [Vec<Pattern>; 4] = Default::default();
    for a in [1, -1] {
        for b in [1, -1] {
            // Knight: two out, then one over.
            patterns[J_KNIGHT].push(((2 * a, b), vec![vec![(a, 0), (2 * a, 0)]]));
            patterns[J_KNIGHT].push(((a, 2 * b), vec![vec![(0, b), (0, 2 * b)]]));
            // Wing: three out, then one over; and (2, 2) with two paths.
            patterns[J_WING].push(((3 * a, b), vec![vec![(a, 0), (2 * a, 0), (3 * a, 0)]]));
            patterns[J_WING].push(((a, 3 * b), vec![vec![(0, b), (0, 2 * b), (0, 3 * b)]]));
            patterns[J_WING].push((
                (2 * a, 2 * b),
                vec![
                    vec![(a, 0), (2 * a, 0), (2 * a, b)],
                    vec![(0, b), (0, 2 * b), (a, 2 * b)],
                ],
            ));
        }
    }
    for &(dx, dy) in &DIRS {
        for k in 1..=3 {
            let path = (1..k).map(|i| (dx * i, dy * i)).collect();
            patterns[J_MAGUS].push(((dx * k, dy * k), vec![path]));
        }
    }
    for &(dx, dy) in &DIRS[..4] {
        patterns[J_ELEPHANT].push(((2 * dx, 2 * dy), vec![vec![(dx, dy)]]));
    }
    let mut jumps: [Vec<Vec<Jump>>; 4] = Default::default();
    let mut rev_jumps: [Vec<Vec<Jump>>; 4] = Default::default();
    for fam in 0..4 {
        jumps[fam] = vec![Vec::new(); NSQ];
        rev_jumps[fam] = vec![Vec::new(); NSQ];
        for &s in &squares {
            for ((tx, ty), paths) in &patterns[fam] {
                let Some(t) = step(s, *tx, *ty) else { continue };
                if fam == J_MAGUS && region[t as usize] == FIELD {
                    continue; // the Magus never ends a move in the Field
                }
                let mut j = Jump {
                    to: t,
                    plen: paths[0].len() as u8,
                    npaths: 0,
                    paths: [[NONE; 3]; 2],
                };
                for p in paths {
                    if let Some(sqs) = path_of(s, p) {
                        // The Elephant is not exempt from the Field rule
                        // (it can never cross anyway; applied for uniformity).
                        if fam == J_ELEPHANT && crosses_field(s, t, &sqs[..p.len()]) {
                            continue;
                        }
                        j.paths[j.npaths as usize] = sqs;
                        j.npaths += 1;
                    }
                }
                if j.npaths == 0 {
                    continue; // every path leaves the board
                }
                jumps[fam][s as usize].push(j);
                rev_jumps[fam][t as usize].push(Jump { to: s, ..j });
            }
        }
    }

    let mut disk_open = [[(NONE, NONE); NSQ]; 2];
    let mut pawn_open = [[[(NONE, NONE); 2]; NSQ]; 2];
    for c in 0..2 {
        for &s in &squares {
            let (dx, dy) = DIRS[FWD_POINT[c]];
            if let (Some(m), Some(t)) = (step(s, dx, dy), step(s, 2 * dx, 2 * dy))
                && !crosses_field(s, t, &[m])
            {
                disk_open[c][s as usize] = (m, t);
            }
            for (i, &d) in FWD_FLATS[c].iter().enumerate() {
                let (dx, dy) = DIRS[d];
                if let (Some(m), Some(t)) = (step(s, dx, dy), step(s, 2 * dx, 2 * dy))
                    && !crosses_field(s, t, &[m])
                {
                    pawn_open[c][s as usize][i] = (m, t);
                }
            }
        }
    }
    Geometry {
        exists,
        region,
        nb,
        ray,
        rev_ray,
        jumps,
        rev_jumps,
        disk_open,
        pawn_open,
        squares,
    }
}

static GEOMETRY: LazyLock<Box<Geometry>> = LazyLock::new(|| Box::new(build()));

/// The shared tables (built on first use).
#[inline(always)]
pub fn geo() -> &'static Geometry {
    &GEOMETRY
}
