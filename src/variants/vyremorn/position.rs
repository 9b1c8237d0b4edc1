//! The Vyrémorn position (copy-make mailbox), the move type, the position
//! string (rulebook 5.3), making moves and the attack test.

use super::geometry::*;
use crate::game::{Color, GameError, err, hash_words, parse_move_counter};

// ---- Pieces and cells ----

/// Piece kinds (non-Disk), 1..=13; 0 = none.
pub const KING: u8 = 1;
pub const QUEEN: u8 = 2;
pub const MAGUS: u8 = 3;
pub const CITADEL: u8 = 4;
pub const GRAND_BARD: u8 = 5;
pub const FLAMEN: u8 = 6;
pub const BARD: u8 = 7;
pub const WING: u8 = 8;
pub const KNIGHT: u8 = 9;
pub const ROOK: u8 = 10;
pub const ARBALEST: u8 = 11;
pub const ELEPHANT: u8 = 12;
pub const PAWN: u8 = 13;
/// Letters by kind (index 0 unused); the Disk is `D`.
pub const LETTERS: &[u8; 14] = b".KQMCGFBWNRAEP";

/// One square: bits 0-3 the non-Disk piece's kind (0 = none), bit 4 its
/// colour (1 = Black), bits 5-6 the Disk (0 none, 1 White, 2 Black). A
/// rider always has its Disk's colour.
pub type Cell = u8;
pub const EMPTY: Cell = 0;

#[inline(always)]
pub const fn kind_of(c: Cell) -> u8 {
    c & 15
}
#[inline(always)]
pub const fn pcolor(c: Cell) -> usize {
    ((c >> 4) & 1) as usize
}
/// 0 = no Disk, 1 = White Disk, 2 = Black Disk.
#[inline(always)]
pub const fn disk_of(c: Cell) -> u8 {
    (c >> 5) & 3
}
#[inline(always)]
pub const fn make_piece(kind: u8, color: usize) -> Cell {
    kind | (color as u8) << 4
}
#[inline(always)]
pub const fn make_disk(color: usize) -> Cell {
    (color as u8 + 1) << 5
}
/// Whether the cell holds a non-Disk piece of `color`.
#[inline(always)]
pub const fn is_piece(c: Cell, kind: u8, color: usize) -> bool {
    c & 31 == make_piece(kind, color)
}
/// The owner of whatever stands on the cell (piece or Disk), if anything.
#[inline(always)]
pub const fn owner(c: Cell) -> Option<usize> {
    if kind_of(c) != 0 {
        Some(pcolor(c))
    } else if disk_of(c) != 0 {
        Some(disk_of(c) as usize - 1)
    } else {
        None
    }
}

// ---- Moves ----

/// A move: from (bits 0-7), to (bits 8-15), flags (bits 16-19).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

/// The Disk on `from` moves (carrying its rider).
pub const F_DISK: u32 = 1 << 16;
/// Castling: King to the own Citadel's square.
pub const F_CASTLE: u32 = 2 << 16;
/// Extricating: King and Magus swap.
pub const F_EXTRICATE: u32 = 4 << 16;
/// The move captures (or turns) something on `to`.
pub const F_CAPTURE: u32 = 8 << 16;

impl Move {
    #[inline(always)]
    pub const fn new(from: Sq, to: Sq, flags: u32) -> Move {
        Move(from as u32 | (to as u32) << 8 | flags)
    }
    #[inline(always)]
    pub const fn from(self) -> Sq {
        self.0 as u8
    }
    #[inline(always)]
    pub const fn to(self) -> Sq {
        (self.0 >> 8) as u8
    }
    #[inline(always)]
    pub const fn has(self, flag: u32) -> bool {
        self.0 & flag != 0
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}{}{}{}{}{}",
            square_name(self.from()),
            square_name(self.to()),
            if self.has(F_DISK) { "d" } else { "" },
            if self.has(F_CASTLE) { "/castle" } else { "" },
            if self.has(F_EXTRICATE) {
                "/extricate"
            } else {
                ""
            },
            if self.has(F_CAPTURE) { "/x" } else { "" },
        )
    }
}

// ---- Position ----

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_fen())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub board: [Cell; NSQ],
    /// Opening-move rights, one bit per square (the Pawn or Disk there).
    pub rights: [u64; 3],
    pub king: [Sq; 2],
    pub side: Color,
    /// Plies since the last capture (V27).
    pub clock: u32,
    pub fullmove: u32,
}

pub const START_FEN: &str = "1pp1wrgmk/2dpnbecq/3dpnabf/9aner/P8dpnw/PD8dp1/1PD8dp/WNPD8p/RENA9/FBANPD3/QCEBNPD2/KMGRW1PP1 w g1h1f2g2e3f3c5d5m5b6c6l6m6a7b7k7l7a8j8k8h10i10g11h11f12g12 0 1";

/// Files of the squares listed on each rank of the position string.
fn rank_files(y: i32) -> std::ops::Range<i32> {
    if y <= 2 {
        0..9
    } else if y <= 8 {
        0..13
    } else {
        4..13
    }
}

impl Position {
    #[inline(always)]
    pub fn has_right(&self, s: Sq) -> bool {
        self.rights[s as usize >> 6] >> (s & 63) & 1 != 0
    }
    #[inline(always)]
    pub fn set_right(&mut self, s: Sq) {
        self.rights[s as usize >> 6] |= 1 << (s & 63);
    }
    #[inline(always)]
    pub fn clear_right(&mut self, s: Sq) {
        self.rights[s as usize >> 6] &= !(1 << (s & 63));
    }

    /// Whether a Pawn or Arbalest of `color` on `s` is promoted (outside its
    /// own Court).
    #[inline(always)]
    pub fn promoted(color: usize, s: Sq) -> bool {
        geo().region[s as usize] != 2 * color as u8
    }

    pub fn from_fen(fen: &str) -> Result<Position, GameError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 5 {
            return err(format!(
                "position string needs 5 fields (placement side opening-rights capture-clock fullmove), found {}",
                fields.len()
            ));
        }
        let mut p = Position {
            board: [EMPTY; NSQ],
            rights: [0; 3],
            king: [NONE; 2],
            side: Color::White,
            clock: 0,
            fullmove: 1,
        };
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 12 {
            return err(format!(
                "placement needs 12 ranks separated by '/', found {}",
                ranks.len()
            ));
        }
        let mut kings = [0; 2];
        let mut citadels = [0; 2];
        for (i, text) in ranks.iter().enumerate() {
            let y = 11 - i as i32;
            let files = rank_files(y);
            let width = files.len() as i32;
            let mut x = files.start;
            let bytes = text.as_bytes();
            let mut j = 0;
            let rank_name = y + 1;
            while j < bytes.len() {
                let c = bytes[j];
                if c.is_ascii_digit() {
                    let mut n = (c - b'0') as i32;
                    if j + 1 < bytes.len() && bytes[j + 1].is_ascii_digit() {
                        n = n * 10 + (bytes[j + 1] - b'0') as i32;
                        j += 1;
                    }
                    if n == 0 {
                        return err(format!("rank {rank_name}: empty-square count 0"));
                    }
                    x += n;
                    j += 1;
                    if x > files.end {
                        return err(format!(
                            "rank {rank_name} '{text}' describes more than its {width} squares"
                        ));
                    }
                    continue;
                }
                if !c.is_ascii() {
                    // Every byte before j was ASCII, so j starts a character.
                    let ch = text[j..].chars().next().unwrap_or('?');
                    return err(format!("rank {rank_name}: unknown piece letter '{ch}'"));
                }
                let rider = bytes.get(j + 1) == Some(&b'^');
                if x >= files.end {
                    return err(format!(
                        "rank {rank_name} '{text}' describes more than its {width} squares"
                    ));
                }
                let color = if c.is_ascii_uppercase() { 0 } else { 1 };
                let up = c.to_ascii_uppercase();
                let s = sq_of(x, y);
                let cell = if up == b'D' {
                    if rider {
                        return err(format!(
                            "rank {rank_name}: '^' may not follow a Disk ('{}')",
                            c as char
                        ));
                    }
                    make_disk(color)
                } else if let Some(k) = LETTERS[1..].iter().position(|&l| l == up) {
                    let kind = k as u8 + 1;
                    if rider && (kind == PAWN || kind == CITADEL) {
                        return err(format!(
                            "rank {rank_name}: '^' may not follow '{}' (Pawns and Citadels cannot ride Disks)",
                            c as char
                        ));
                    }
                    if kind == KING {
                        kings[color] += 1;
                        p.king[color] = s;
                    }
                    if kind == CITADEL {
                        citadels[color] += 1;
                        if geo().region[s as usize] != 2 * color as u8 {
                            return err(format!(
                                "the {} Citadel on {} is outside its own Court",
                                if color == 0 { "White" } else { "Black" },
                                square_name(s)
                            ));
                        }
                    }
                    if kind == MAGUS && geo().region[s as usize] == FIELD {
                        return err(format!("a Magus on {} stands in the Field", square_name(s)));
                    }
                    let mut cell = make_piece(kind, color);
                    if rider {
                        cell |= make_disk(color);
                    }
                    cell
                } else {
                    return err(format!(
                        "rank {rank_name}: unknown piece letter '{}'",
                        c as char
                    ));
                };
                p.board[s as usize] = cell;
                x += 1;
                j += if rider { 2 } else { 1 };
            }
            if x != files.end {
                return err(format!(
                    "rank {rank_name} '{text}' describes {} squares, needs {width}",
                    x - files.start
                ));
            }
        }
        for (c, name) in [(0, "White"), (1, "Black")] {
            if kings[c] != 1 {
                return err(format!("{name} needs exactly one King, found {}", kings[c]));
            }
            if citadels[c] > 1 {
                return err(format!("{name} has {} Citadels (at most one)", citadels[c]));
            }
        }
        p.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return err(format!("side to move must be 'w' or 'b', found '{other}'")),
        };
        if fields[2] != "-" {
            p.parse_rights(fields[2])?;
        }
        p.clock = parse_move_counter("capture clock", fields[3], 0)?;
        p.fullmove = parse_move_counter("fullmove number", fields[4], 1)?;
        let them = p.side.flip().index();
        if p.attacked(p.king[them], p.side.index()) {
            return err("the side not to move is in check");
        }
        Ok(p)
    }

    /// Parses the opening-rights field (not `-`): square names written
    /// together, each a file letter and its rank's digits.
    fn parse_rights(&mut self, text: &str) -> Result<(), GameError> {
        let mut rest = text;
        while let Some(first) = rest.chars().next() {
            // A square ends where the next one's file letter begins.
            let len = first.len_utf8()
                + rest[first.len_utf8()..]
                    .bytes()
                    .take_while(u8::is_ascii_digit)
                    .count();
            let (name, tail) = rest.split_at(len);
            let Some(s) = parse_square(name) else {
                return err(format!("opening rights: '{name}' is not a square"));
            };
            let c = self.board[s as usize];
            if kind_of(c) != PAWN && disk_of(c) == 0 {
                return err(format!(
                    "opening right on {name}, which holds no Pawn or Disk"
                ));
            }
            if self.has_right(s) {
                return err(format!("opening right on {name} listed twice"));
            }
            self.set_right(s);
            rest = tail;
        }
        Ok(())
    }

    /// The letters of one square (`.`-free): "", "N", "N^", "d", ...
    pub fn cell_text(c: Cell) -> String {
        let mut s = String::new();
        let k = kind_of(c);
        if k != 0 {
            let l = LETTERS[k as usize] as char;
            s.push(if pcolor(c) == 0 {
                l
            } else {
                l.to_ascii_lowercase()
            });
            if disk_of(c) != 0 {
                s.push('^');
            }
        } else if disk_of(c) != 0 {
            s.push(if disk_of(c) == 1 { 'D' } else { 'd' });
        }
        s
    }

    pub fn placement(&self) -> String {
        let mut out = String::new();
        for y in (0..12).rev() {
            let mut empty = 0;
            for x in rank_files(y) {
                let c = self.board[sq_of(x, y) as usize];
                if c == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push_str(&Self::cell_text(c));
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if y > 0 {
                out.push('/');
            }
        }
        out
    }

    pub fn rights_text(&self) -> String {
        let mut out = String::new();
        for &s in &geo().squares {
            if self.has_right(s) {
                out.push_str(&square_name(s));
            }
        }
        if out.is_empty() {
            out.push('-');
        }
        out
    }

    pub fn to_fen(&self) -> String {
        format!(
            "{} {} {} {} {}",
            self.placement(),
            if self.side == Color::White { 'w' } else { 'b' },
            self.rights_text(),
            self.clock,
            self.fullmove
        )
    }

    /// Hash of placement, side and opening rights (the repetition key's
    /// fields; the clocks are left out so the table shares entries).
    pub fn hash(&self) -> u64 {
        let mut words = [0u64; 24];
        for (i, chunk) in self.board.chunks(8).enumerate() {
            let mut w = 0u64;
            for (j, &c) in chunk.iter().enumerate() {
                w |= (c as u64) << (8 * j);
            }
            words[i] = w;
        }
        words[20] = self.rights[0];
        words[21] = self.rights[1];
        words[22] = self.rights[2];
        words[23] = self.side as u64;
        hash_words(&words)
    }

    /// Whether square `t` is attacked by `by` (rulebook 3.11): every capture
    /// pattern of `by`'s pieces and Disks, with holes, Citadels and the
    /// Field-crossing rule; the Magus attacks no Field square. The contents
    /// of `t` are ignored.
    pub fn attacked(&self, t: Sq, by: usize) -> bool {
        let g = geo();
        let b = &self.board;
        let ti = t as usize;
        // Steps: the attacker stands on t - v.
        for d in 0..8 {
            let s = g.nb[ti][d ^ 2];
            if s == NONE {
                continue;
            }
            let c = b[s as usize];
            if c == EMPTY {
                continue;
            }
            // d is the direction from s to t.
            if kind_of(c) != 0 && pcolor(c) == by {
                let k = kind_of(c);
                let hit = match k {
                    KING => true,
                    GRAND_BARD => d < 4,
                    FLAMEN | ELEPHANT => d >= 4,
                    PAWN => {
                        d == FWD_POINT[by]
                            || ((d == SIDE_POINTS[0] || d == SIDE_POINTS[1])
                                && Self::promoted(by, s))
                    }
                    ARBALEST => d == FWD_FLATS[by][0] || d == FWD_FLATS[by][1],
                    _ => false,
                };
                if hit {
                    return true;
                }
            }
            if disk_of(c) == by as u8 + 1 && (d == FWD_FLATS[by][0] || d == FWD_FLATS[by][1]) {
                return true;
            }
        }
        // Slides.
        for d in 0..8 {
            for &s in g.rev_ray[ti][d].as_slice() {
                let c = b[s as usize];
                if c == EMPTY {
                    continue;
                }
                if kind_of(c) != 0 && pcolor(c) == by {
                    let hit = match kind_of(c) {
                        QUEEN => true,
                        ROOK | FLAMEN => d < 4,
                        BARD | GRAND_BARD => d >= 4,
                        ARBALEST => d == FWD_POINT[by],
                        _ => false,
                    };
                    if hit {
                        return true;
                    }
                }
                break;
            }
        }
        // Jumps.
        for (fam, kind) in [
            (J_KNIGHT, KNIGHT),
            (J_WING, WING),
            (J_MAGUS, MAGUS),
            (J_ELEPHANT, ELEPHANT),
        ] {
            for j in &g.rev_jumps[fam][ti] {
                if is_piece(b[j.to as usize], kind, by) && self.path_clear(j, by) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether some path of jump `j` holds no Citadel opposing `mover`.
    #[inline(always)]
    pub fn path_clear(&self, j: &Jump, mover: usize) -> bool {
        let enemy_citadel = make_piece(CITADEL, mover ^ 1);
        (0..j.npaths as usize).any(|p| {
            j.paths[p][..j.plen as usize]
                .iter()
                .all(|&s| self.board[s as usize] & 31 != enemy_citadel)
        })
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        let us = self.side.index();
        self.attacked(self.king[us], us ^ 1)
    }

    /// Squares of enemy pieces or Disks attacking the side to move's King.
    pub fn checkers(&self) -> Vec<Sq> {
        let us = self.side.index();
        let k = self.king[us];
        let mut out = Vec::new();
        for &s in &geo().squares {
            let c = self.board[s as usize];
            if owner(c) != Some(us ^ 1) {
                continue;
            }
            // Test this attacker alone: every other enemy piece or Disk
            // becomes a neutral blocker (a Pawn of the attacked side, which
            // neither attacks for the enemy nor blocks its jumps).
            let mut only = *self;
            for &q in &geo().squares {
                let cq = only.board[q as usize];
                if q != s && owner(cq) == Some(us ^ 1) && kind_of(cq) != CITADEL {
                    only.board[q as usize] = make_piece(PAWN, us);
                }
            }
            if only.attacked(k, us ^ 1) {
                out.push(s);
            }
        }
        out
    }

    /// Whether a move of the mover onto `t` captures something there.
    #[inline(always)]
    pub fn is_capture_target(&self, t: Sq, us: usize) -> bool {
        owner(self.board[t as usize]) == Some(us ^ 1)
    }

    /// The position after `mv` (legal here).
    pub fn play(&self, mv: Move) -> Position {
        let mut p = *self;
        let us = self.side.index();
        let (from, to) = (mv.from() as usize, mv.to() as usize);
        if mv.has(F_CASTLE) {
            p.board[from] &= !31; // the King leaves; a Disk stays
            p.board[to] = make_piece(KING, us);
            p.king[us] = to as Sq;
        } else if mv.has(F_EXTRICATE) {
            let king = p.board[from] & 31;
            let magus = p.board[to] & 31;
            p.board[from] = (p.board[from] & !31) | magus;
            p.board[to] = (p.board[to] & !31) | king;
            p.king[us] = to as Sq;
        } else if mv.has(F_DISK) {
            let moving = p.board[from];
            p.board[from] = EMPTY;
            p.clear_right(from as Sq);
            // A capturing Disk removes whatever stands on the target,
            // rider and Disk alike (V25).
            p.clear_right(to as Sq);
            p.board[to] = moving;
            if kind_of(moving) == KING {
                p.king[us] = to as Sq;
            }
        } else {
            let piece = p.board[from] & 31;
            p.board[from] &= !31;
            let kind = kind_of(piece);
            if kind == PAWN {
                p.clear_right(from as Sq);
            }
            let target = p.board[to];
            if owner(target) == Some(us ^ 1) {
                p.clear_right(to as Sq);
                if disk_of(target) != 0 && kind_of(target) != 0 && kind != PAWN {
                    // Turning: the rider is captured, the Disk changes sides
                    // and carries the captor.
                    p.board[to] = make_disk(us) | piece;
                } else {
                    p.board[to] = piece;
                }
            } else {
                // Empty, or an own unmounted Disk to mount.
                p.board[to] = (target & !31) | piece;
            }
            if kind == KING {
                p.king[us] = to as Sq;
            }
        }
        if mv.has(F_CAPTURE) {
            p.clock = 0;
        } else {
            p.clock = self.clock + 1;
        }
        if us == 1 {
            p.fullmove += 1;
        }
        p.side = self.side.flip();
        p
    }

    /// The position with the turn passed (null move).
    pub fn pass(&self) -> Position {
        let mut p = *self;
        p.side = self.side.flip();
        p.clock += 1;
        if self.side == Color::Black {
            p.fullmove += 1;
        }
        p
    }

    /// Neither side has anything but its King, possibly its Citadel, and
    /// unmounted Pawns and Disks stuck on the opponent's corner (3.12).
    pub fn insufficient_material(&self) -> bool {
        let a1 = sq_of(0, 0);
        let m12 = sq_of(12, 11);
        for &s in &geo().squares {
            let c = self.board[s as usize];
            if c == EMPTY {
                continue;
            }
            let k = kind_of(c);
            let dead_corner = |color: usize| if color == 0 { m12 } else { a1 };
            if k == KING || k == CITADEL {
                continue;
            }
            if k == PAWN && s == dead_corner(pcolor(c)) {
                continue;
            }
            if k == 0 && s == dead_corner(disk_of(c) as usize - 1) {
                continue;
            }
            return false;
        }
        true
    }
}
