use super::*;
use crate::game::{Game, GameState, History};
use crate::perft::perft;

#[test]
fn start_perft() {
    let p = Nemoroth::startpos();
    let mut h = History::new();
    for (d, n) in [(1, 33u64), (2, 1089), (3, 34124)] {
        assert_eq!(perft(&p, &mut h, d), n, "depth {d}");
    }
    let _ = GameState::new(p);
}
