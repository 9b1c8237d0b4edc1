//! Static evaluation (placeholder, replaced below).
use super::geometry::*;
use super::position::*;

const VALUES: [i32; 14] = [0, 0, 950, 500, 0, 600, 600, 330, 450, 320, 500, 350, 300, 100];
const DISK: i32 = 90;

pub fn value(c: Cell) -> i32 {
    VALUES[kind_of(c) as usize] + if disk_of(c) != 0 { DISK } else { 0 }
}

pub fn mvv_lva(p: &Position, mv: Move) -> i32 {
    value(p.board[mv.to() as usize]) * 16 - VALUES[kind_of(p.board[mv.from() as usize]) as usize] / 16
}

pub fn has_piece_material(p: &Position, color: usize) -> bool {
    geo().squares.iter().any(|&s| {
        let c = p.board[s as usize];
        let k = kind_of(c);
        k != 0 && pcolor(c) == color && !matches!(k, KING | PAWN | CITADEL)
    })
}

pub fn evaluate(p: &Position) -> i32 {
    let mut score = 0;
    for &s in &geo().squares {
        let c = p.board[s as usize];
        if let Some(o) = owner(c) {
            let v = value(c);
            score += if o == 0 { v } else { -v };
        }
    }
    if p.side.index() == 0 { score } else { -score }
}
