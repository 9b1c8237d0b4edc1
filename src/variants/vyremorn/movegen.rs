//! Move generation: pseudo-legal moves from the tables of
//! [`super::geometry`], then the legality filter (copy-make and the attack
//! test on the mover's King).

use super::geometry::*;
use super::position::*;
use crate::game::{MoveBuffer, MoveList};

/// Upper bound of the moves of one position, pseudo-legal or legal.
///
/// Per piece, the most targets its patterns can reach on this board:
/// Queen 45 (a rank has at most 13 squares, a file 12, a diagonal 12),
/// Rook 23, Bard 22, Grand Bard 26, Flamen 27, Magus 24, Wing 16, Knight 8,
/// Arbalest 18, Elephant 8, King 8 + castling + Extricating, Citadel 4,
/// Pawn 7, Disk 4 (its rider's moves are counted with the rider). Nothing
/// creates pieces; Turning only converts Disks, so a side has at most its
/// 33 pieces plus the 5 enemy Disks: 1 K 10, Q 45, M 24, C 4, G 26, F 27,
/// 2 B 44, 2 W 32, 4 N 32, 2 R 46, 2 A 36, 2 E 16, 8 P 56, 10 D 40 = 438.
pub const MAX_MOVES: usize = 448;

pub type Moves = MoveList<Move, MAX_MOVES>;

impl Position {
    /// Handles a non-Disk mover of `kind` reaching `t` with a pattern that
    /// may move (`m`) and/or capture (`c`). Returns false when `t` stops a
    /// slide (anything stands there).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn target<B: MoveBuffer<Move>>(
        &self,
        out: &mut B,
        from: Sq,
        t: Sq,
        kind: u8,
        us: usize,
        m: bool,
        c: bool,
    ) -> bool {
        let cell = self.board[t as usize];
        if cell == EMPTY {
            if m {
                out.push(Move::new(from, t, 0));
            }
            return true;
        }
        let k = kind_of(cell);
        if k != 0 {
            if pcolor(cell) != us && k != CITADEL && c {
                out.push(Move::new(from, t, F_CAPTURE));
            }
        } else if disk_of(cell) as usize == us + 1 {
            // An own unmounted Disk: mount it with a moving pattern.
            if m && kind != CITADEL && kind != PAWN {
                out.push(Move::new(from, t, 0));
            }
        } else if c {
            out.push(Move::new(from, t, F_CAPTURE));
        }
        false
    }

    #[inline(always)]
    fn slide<B: MoveBuffer<Move>>(&self, out: &mut B, from: Sq, d: usize, kind: u8, us: usize) {
        for &t in geo().ray[from as usize][d].as_slice() {
            if !self.target(out, from, t, kind, us, true, true) {
                break;
            }
        }
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn step<B: MoveBuffer<Move>>(
        &self,
        out: &mut B,
        from: Sq,
        d: usize,
        kind: u8,
        us: usize,
        m: bool,
        c: bool,
    ) {
        let t = geo().nb[from as usize][d];
        if t != NONE {
            self.target(out, from, t, kind, us, m, c);
        }
    }

    fn jumps<B: MoveBuffer<Move>>(&self, out: &mut B, from: Sq, fam: usize, kind: u8, us: usize) {
        for j in &geo().jumps[fam][from as usize] {
            if self.path_clear(j, us) {
                self.target(out, from, j.to, kind, us, true, true);
            }
        }
    }

    /// Every pseudo-legal move (all rules except the mover's King safety;
    /// castling's "not in check" and Extricating's "in check" need
    /// `in_check`).
    pub fn pseudo_moves<B: MoveBuffer<Move>>(&self, out: &mut B, in_check: bool) {
        let g = geo();
        let us = self.side.index();
        let them = us ^ 1;
        let mut citadel = NONE;
        for &s in &g.squares {
            let cell = self.board[s as usize];
            if cell == EMPTY {
                continue;
            }
            let kind = kind_of(cell);
            if kind != 0 && pcolor(cell) == us {
                match kind {
                    KING => {
                        for d in 0..8 {
                            self.step(out, s, d, kind, us, true, true);
                        }
                    }
                    QUEEN => {
                        for d in 0..8 {
                            self.slide(out, s, d, kind, us);
                        }
                    }
                    ROOK => {
                        for d in 0..4 {
                            self.slide(out, s, d, kind, us);
                        }
                    }
                    BARD => {
                        for d in 4..8 {
                            self.slide(out, s, d, kind, us);
                        }
                    }
                    GRAND_BARD => {
                        for d in 4..8 {
                            self.slide(out, s, d, kind, us);
                        }
                        for d in 0..4 {
                            self.step(out, s, d, kind, us, true, true);
                        }
                    }
                    FLAMEN => {
                        for d in 0..4 {
                            self.slide(out, s, d, kind, us);
                        }
                        for d in 4..8 {
                            self.step(out, s, d, kind, us, true, true);
                        }
                    }
                    MAGUS => self.jumps(out, s, J_MAGUS, kind, us),
                    KNIGHT => self.jumps(out, s, J_KNIGHT, kind, us),
                    WING => {
                        for d in 0..4 {
                            self.step(out, s, d, kind, us, true, false);
                        }
                        self.jumps(out, s, J_WING, kind, us);
                    }
                    ELEPHANT => {
                        for d in 4..8 {
                            self.step(out, s, d, kind, us, true, true);
                        }
                        self.jumps(out, s, J_ELEPHANT, kind, us);
                    }
                    ARBALEST => {
                        self.slide(out, s, FWD_POINT[us], kind, us);
                        for d in FWD_FLATS[us] {
                            self.step(out, s, d, kind, us, true, true);
                        }
                        for d in BACK_FLATS[us] {
                            self.step(out, s, d, kind, us, true, false);
                        }
                        self.step(out, s, BACK_POINT[us], kind, us, true, false);
                        if Self::promoted(us, s) {
                            for d in SIDE_POINTS {
                                self.step(out, s, d, kind, us, true, false);
                            }
                        }
                    }
                    CITADEL => {
                        citadel = s;
                        for d in 0..4 {
                            let t = g.nb[s as usize][d];
                            if t != NONE
                                && self.board[t as usize] == EMPTY
                                && g.region[t as usize] == 2 * us as u8
                            {
                                out.push(Move::new(s, t, 0));
                            }
                        }
                    }
                    PAWN => self.pawn_moves(out, s, us, them),
                    _ => {}
                }
            }
            if disk_of(cell) as usize == us + 1 {
                self.disk_moves(out, s, cell, us);
            }
        }
        let king = self.king[us];
        if citadel != NONE && !in_check && g.region[king as usize] == 2 * us as u8 {
            out.push(Move::new(king, citadel, F_CASTLE));
        }
        if in_check && g.region[king as usize] != FIELD {
            // Extricating: an own Magus whose jump reaches the King.
            for j in &g.rev_jumps[J_MAGUS][king as usize] {
                if is_piece(self.board[j.to as usize], MAGUS, us) && self.path_clear(j, us) {
                    out.push(Move::new(king, j.to, F_EXTRICATE));
                }
            }
        }
    }

    fn pawn_moves<B: MoveBuffer<Move>>(&self, out: &mut B, s: Sq, us: usize, them: usize) {
        let g = geo();
        for d in FWD_FLATS[us] {
            let t = g.nb[s as usize][d];
            if t != NONE && self.board[t as usize] == EMPTY {
                out.push(Move::new(s, t, 0));
            }
        }
        let fp = g.nb[s as usize][FWD_POINT[us]];
        if fp != NONE
            && self.is_capture_target(fp, us)
            && kind_of(self.board[fp as usize]) != CITADEL
        {
            out.push(Move::new(s, fp, F_CAPTURE));
        }
        if Self::promoted(us, s) {
            for d in SIDE_POINTS {
                let t = g.nb[s as usize][d];
                if t != NONE
                    && self.is_capture_target(t, us)
                    && kind_of(self.board[t as usize]) != CITADEL
                {
                    out.push(Move::new(s, t, F_CAPTURE));
                }
            }
        }
        if self.has_right(s) {
            for &(mid, t) in &g.pawn_open[us][s as usize] {
                if t == NONE || self.board[t as usize] != EMPTY {
                    continue;
                }
                let mc = self.board[mid as usize];
                if mc != EMPTY && mc != make_disk(us) {
                    continue;
                }
                if !self.attacked(mid, them) {
                    out.push(Move::new(s, t, 0));
                }
            }
        }
    }

    fn disk_moves<B: MoveBuffer<Move>>(&self, out: &mut B, s: Sq, cell: Cell, us: usize) {
        let g = geo();
        let magus = kind_of(cell) == MAGUS;
        let allowed = |t: Sq| !(magus && g.region[t as usize] == FIELD);
        let fp = g.nb[s as usize][FWD_POINT[us]];
        if fp != NONE && self.board[fp as usize] == EMPTY && allowed(fp) {
            out.push(Move::new(s, fp, F_DISK));
        }
        for d in FWD_FLATS[us] {
            let t = g.nb[s as usize][d];
            if t != NONE
                && self.is_capture_target(t, us)
                && kind_of(self.board[t as usize]) != CITADEL
                && allowed(t)
            {
                out.push(Move::new(s, t, F_DISK | F_CAPTURE));
            }
        }
        if self.has_right(s) {
            let (mid, t) = g.disk_open[us][s as usize];
            if t != NONE
                && self.board[mid as usize] == EMPTY
                && self.board[t as usize] == EMPTY
                && allowed(t)
            {
                out.push(Move::new(s, t, F_DISK));
            }
        }
    }

    /// Every legal move.
    pub fn generate<B: MoveBuffer<Move>>(&self, out: &mut B) {
        let in_check = self.in_check();
        let mut pseudo = Moves::new();
        self.pseudo_moves(&mut pseudo, in_check);
        let us = self.side.index();
        for &mv in pseudo.as_slice() {
            let child = self.play(mv);
            if !child.attacked(child.king[us], us ^ 1) {
                out.push(mv);
            }
        }
    }

    /// The number of legal moves.
    pub fn count_moves(&self) -> u64 {
        let in_check = self.in_check();
        let mut pseudo = Moves::new();
        self.pseudo_moves(&mut pseudo, in_check);
        let us = self.side.index();
        pseudo
            .as_slice()
            .iter()
            .filter(|&&mv| {
                let child = self.play(mv);
                !child.attacked(child.king[us], us ^ 1)
            })
            .count() as u64
    }
}
