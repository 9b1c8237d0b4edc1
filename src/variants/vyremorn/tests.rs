//! Vyrémorn tests: the rulebook's worked examples (section 6), notation and
//! bad input, and the cross-check against an independent reference move
//! generator (`reference`) on the perft suite and random positions.

use super::*;
use crate::perft::perft;

fn legal(p: &Position) -> Vec<Move> {
    let mut m = Moves::new();
    p.legal_moves(&History::new(), &mut m);
    m.as_slice().to_vec()
}

/// Legal moves from `from` (or all when `None`), as sorted strings.
fn moves_of(fen: &str, from: Option<&str>) -> String {
    let p = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let from = from.map(|f| parse_square(f).unwrap());
    let mut v: Vec<String> = legal(&p)
        .into_iter()
        .filter(|mv| from.is_none_or(|f| mv.from() == f))
        .map(|mv| p.move_to_string(mv))
        .collect();
    v.sort();
    v.join(" ")
}

fn after(fen: &str, moves: &[&str]) -> String {
    let state = crate::game::GameState::<Position>::from_setup(Some(fen), moves).unwrap();
    state.position.to_fen()
}

fn check(fen: &str, from: Option<&str>, expected: &str) {
    let mut want: Vec<&str> = expected.split_whitespace().collect();
    want.sort();
    assert_eq!(moves_of(fen, from), want.join(" "), "{fen} {from:?}");
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

#[test]
fn example_start_position() {
    let start = Position::startpos();
    let h = History::new();
    assert!(start.parse_move(&h, "e3e5").is_err());
    assert!(start.parse_move(&h, "e3e4").is_ok());
    assert_eq!(
        after(START_FEN, &["c4e5"]),
        "1pp1wrgmk/2dpnbecq/3dpnabf/9aner/P8dpnw/PD8dp1/1PD8dp/WNPDN7p/RE1A9/FBANPD3/QCEBNPD2/KMGRW1PP1 b g1h1f2g2e3f3c5d5m5b6c6l6m6a7b7k7l7a8j8k8h10i10g11h11f12g12 1 1"
    );
    let p = start.play(start.parse_move(&h, "c4e5").unwrap());
    assert!(p.parse_move(&h, "i10i8").is_ok());
    // Before c4e5, i9 is attacked by the Arbalest d4.
    let black_first = Position::from_fen(&START_FEN.replace(" w ", " b ")).unwrap();
    assert!(black_first.parse_move(&h, "i10i8").is_err());
}

#[test]
fn example_rook_field_crossing() {
    check(
        "8k/9/9/13/13/13/3R9/13/13/9/9/K8 w - 0 1",
        Some("d6"),
        "d6a6 d6b6 d6c6 d6d1 d6d2 d6d3 d6d4 d6d5 d6d7 d6d8 d6d9 d6e6 d6f6 d6g6 d6h6 d6i6",
    );
    check(
        "8k/9/9/13/13/13/4R8/13/13/9/9/K8 w - 0 1",
        Some("e6"),
        "e6a6 e6b6 e6c6 e6d6 e6e1 e6e10 e6e11 e6e12 e6e2 e6e3 e6e4 e6e5 e6e7 e6e8 e6e9 e6f6 e6g6 e6h6 e6i6 e6j6 e6k6 e6l6 e6m6",
    );
}

#[test]
fn example_bards() {
    let fen = "8k/9/9/13/13/13/B2B9/13/13/9/9/K8 w - 0 1";
    check(
        fen,
        Some("a6"),
        "a6b5 a6b7 a6c4 a6c8 a6d3 a6d9 a6e10 a6e2 a6f1 a6f11 a6g12",
    );
    check(
        fen,
        Some("d6"),
        "d6a3 d6a9 d6b4 d6b8 d6c5 d6c7 d6e5 d6e7 d6f4 d6f8 d6g3 d6g9 d6h2 d6i1",
    );
}

#[test]
fn example_knight_and_wing_citadel() {
    check(
        "8k/9/9/13/13/13/13/13/13/2nC5/9/K8 b - 0 1",
        Some("c3"),
        "c3a2 c3a4 c3b1 c3b5 c3d1 c3d5",
    );
    check(
        "8k/9/9/13/13/13/13/13/13/2wC5/9/7K1 b - 0 1",
        Some("c3"),
        "c3a1 c3a5 c3b3 c3b6 c3c2 c3c4 c3d6 c3e1 c3e5",
    );
}

#[test]
fn example_knight_hole() {
    check(
        "8k/9/9/13/13/13/13/13/13/7N1/9/K8 w - 0 1",
        Some("h3"),
        "h3f2 h3f4 h3g1 h3g5 h3i1 h3i5",
    );
}

#[test]
fn example_magus() {
    check(
        "8k/9/9/13/3M9/13/13/13/13/9/9/K8 w - 0 1",
        Some("d8"),
        "d8a5 d8a8 d8b6 d8b8 d8c7 d8c8 d8c9 d8d5 d8d6 d8d7 d8d9 d8f10 d8g11",
    );
    check(
        "8k/9/9/13/13/13/13/13/13/9/7M1/K8 w - 0 1",
        Some("h2"),
        "h2e2 h2f2 h2g1 h2g2 h2g3 h2h1 h2h3 h2i1 h2i2 h2i3 h2j4 h2k5",
    );
}

#[test]
fn example_mounted_disk() {
    check(
        "8k/9/9/13/13/13/13/2N^10/13/9/9/K8 w c5 0 1",
        Some("c5"),
        "c5a4 c5a6 c5b3 c5b7 c5d3 c5d6d c5d7 c5e4 c5e6 c5e7d",
    );
}

#[test]
fn example_pawns() {
    check(
        "8k/9/9/13/13/13/13/2PD9/13/9/9/K8 w c5d5 0 1",
        Some("c5"),
        "c5c6 c5c7 c5e5",
    );
    check(
        "8k/9/9/3r9/13/13/13/2PD9/13/9/9/K8 w c5d5 0 1",
        Some("c5"),
        "c5c6 c5c7",
    );
    check(
        "8k/9/9/13/13/13/4n1n6/5P7/6n6/9/9/K8 w - 0 1",
        Some("f5"),
        "f5e6 f5f6 f5g4 f5g5 f5g6",
    );
    check(
        "8k/9/9/13/13/13/1n1n9/2P10/3n9/9/9/K8 w - 0 1",
        Some("c5"),
        "c5c6 c5d5 c5d6",
    );
}

#[test]
fn example_arbalests() {
    check(
        "8k/9/9/13/13/13/13/2A10/13/9/9/K8 w - 0 1",
        Some("c5"),
        "c5b4 c5b5 c5c4 c5c6 c5d5 c5d6 c5e7 c5f8 c5g9",
    );
    check(
        "8k/9/9/13/13/13/5A7/13/13/9/9/K8 w - 0 1",
        Some("f6"),
        "f6e5 f6e6 f6e7 f6f5 f6f7 f6g5 f6g6 f6g7 f6h8 f6i9 f6j10 f6k11 f6l12",
    );
}

#[test]
fn example_threat_tests() {
    check(
        "8k/9/9/13/13/13/4Q7p/13/13/9/9/K8 b m6 0 1",
        Some("m6"),
        "m6l6 m6m4 m6m5",
    );
    check(
        "8k/9/9/13/13/13/3d9/2P10/13/9/9/K8 w c5 0 1",
        Some("c5"),
        "c5c6 c5d5 c5d6",
    );
    check(
        "8k/9/9/13/13/13/3n^9/2P10/13/9/9/K8 w c5 0 1",
        Some("c5"),
        "c5c6 c5d5 c5d6",
    );
}

#[test]
fn example_magus_and_field() {
    check(
        "8k/9/9/13/13/13/13/13/4K8/9/9/4m4 w - 0 1",
        None,
        "e4d3 e4d4 e4d5 e4e5 e4f3 e4f4 e4f5",
    );
    check(
        "8k/9/9/13/13/13/13/13/3P9/9/9/K3m4 w d4 0 1",
        Some("d4"),
        "d4d5 d4d6 d4e4 d4f4",
    );
    check(
        "8k/5R3/9/13/13/13/13/8Km^3/13/9/9/9 w - 0 1",
        None,
        "i5h4 i5h5 i5h6 i5i4 i5i6 i5j5 j11j5",
    );
}

#[test]
fn example_castling_and_extricating() {
    check(
        "8k/9/9/13/13/13/13/13/13/9/1K7/8C w - 0 1",
        Some("b2"),
        "b2a1 b2a2 b2a3 b2b1 b2b3 b2c1 b2c2 b2c3 b2i1",
    );
    check(
        "8k/9/9/r12/13/13/13/13/13/9/1P7/K2M5 w - 0 1",
        None,
        "a1b1 a1d1 d1a4",
    );
    check(
        "8k/9/2M6/13/13/r2K9/13/13/13/9/9/9 w - 0 1",
        None,
        "d7c6 d7c8 d7d6 d7d8 d7e6 d7e8 d7g10",
    );
    assert_eq!(
        after("8k/9/9/r12/13/13/13/13/13/9/1P7/K2M5 w - 0 1", &["a1d1"]),
        "8k/9/9/r12/13/13/13/13/13/9/1P7/M2K5 b - 1 1"
    );
    assert_eq!(
        after("8k/9/9/13/13/13/13/13/13/9/1K7/8C w - 0 1", &["b2i1"]),
        "8k/9/9/13/13/13/13/13/13/9/9/8K b - 1 1"
    );
}

#[test]
fn example_turning() {
    let fen = "8k/9/9/13/5b7/13/13/2R^10/13/9/9/K8 b - 0 1";
    check(
        fen,
        Some("f8"),
        "f8c5 f8d6 f8e7 f8e9 f8g7 f8g9 f8h10 f8h6 f8i11 f8i5 f8j12 f8j4",
    );
    assert_eq!(
        after(fen, &["f8c5"]),
        "8k/9/9/13/13/13/13/2b^10/13/9/9/K8 w - 0 2"
    );
    assert_eq!(
        after(
            "8k/9/9/13/5b7/13/13/2R^10/13/9/9/K8 b c5 0 1",
            &["f8c5"]
        ),
        "8k/9/9/13/13/13/13/2b^10/13/9/9/K8 w - 0 2"
    );
    assert_eq!(
        after("8k/9/9/13/13/13/3p9/2R^10/13/9/9/K8 b - 0 1", &["d6c5"]),
        "8k/9/9/13/13/13/13/2p10/13/9/9/K8 w - 0 2"
    );
}
