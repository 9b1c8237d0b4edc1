use super::*;
use crate::perft::perft;

fn moves_of(fen: &str) -> Vec<String> {
    let p = Position::from_fen(fen).unwrap();
    let mut m = Moves::new();
    p.legal_moves(&History::new(), &mut m);
    let mut v: Vec<String> = m.as_slice().iter().map(|&mv| p.move_to_string(mv)).collect();
    v.sort();
    v
}

#[test]
fn start_perft() {
    let p = Position::startpos();
    assert_eq!(p.to_fen(), START_FEN);
    let mut h = History::new();
    assert_eq!(perft(&p, &mut h, 1), 50);
    assert_eq!(perft(&p, &mut h, 2), 2502);
    assert_eq!(perft(&p, &mut h, 3), 132_839);
}
