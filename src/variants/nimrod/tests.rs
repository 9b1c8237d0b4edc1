//! Tests of the Nimrod family against `shared/rules/nimrod.md`.
//!
//! - `e1_*` .. `e16_*`: every worked example of rulebook section 6.
//! - `reference`: an independent, deliberately slow mailbox move generator
//!   written from the rulebook's vector tables (3.2-3.5), compared with the
//!   engine on thousands of positions from seeded random play.
//! - Property tests on random playouts, outcome tests, and bad-input tests
//!   (including fuzzing) that must give a clear `Err`, never a panic.

use super::*;
use crate::bitboard::{parse_square, square_name, squares};
use crate::game::{Color, Game, GameState, History, MoveBuffer, Outcome, Termination};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// A tiny deterministic PRNG (xorshift64), so every run sees the same games.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with probability `num / den`.
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }
}

/// Runs the scaled-down version of the slow tests in debug builds.
fn scale(n: usize) -> usize {
    if cfg!(debug_assertions) {
        n.div_ceil(8)
    } else {
        n
    }
}

/// All legal moves of a state, as canonical strings.
fn move_strings<G: Game>(state: &GameState<G>) -> Vec<String> {
    state
        .legal_moves()
        .as_slice()
        .iter()
        .map(|&m| state.position.move_to_string(m))
        .collect()
}

/// The sorted legal moves starting at square `from`.
fn moves_from<G: Game>(state: &GameState<G>, from: &str) -> Vec<String> {
    let mut v: Vec<String> = move_strings(state)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect();
    v.sort();
    v
}

fn setup<G: Game>(fen: Option<&str>, moves: &[&str]) -> GameState<G> {
    GameState::from_setup(fen, moves)
        .unwrap_or_else(|e| panic!("{} setup {fen:?} {moves:?}: {e}", G::VARIANT))
}

/// "moves of X" in a position: compares with the rulebook's sorted list.
fn assert_moves_of<G: Game>(fen: &str, from: &str, expected: &str) {
    let state = setup::<G>(Some(fen), &[]);
    let want: Vec<&str> = expected.split_whitespace().collect();
    assert_eq!(
        moves_from(&state, from),
        want,
        "{}: moves of {from} in {fen}",
        G::VARIANT
    );
}

/// "→ FEN": plays `moves` from `fen` (or the start) and compares the FEN.
fn assert_fen_after<G: Game>(fen: Option<&str>, moves: &[&str], expected: &str) {
    let state = setup::<G>(fen, moves);
    assert_eq!(
        state.position.to_fen(),
        expected,
        "{}: {fen:?} + {moves:?}",
        G::VARIANT
    );
}

fn sq(name: &str) -> u8 {
    parse_square(name).unwrap()
}

// ---------------------------------------------------------------------------
// Rulebook section 6: worked examples
// ---------------------------------------------------------------------------

#[test]
fn e1_fide_start_position() {
    // Only four piece moves: the Knights'.
    let state = GameState::new(Nimrod::startpos());
    // The Pawns are all on rank 2, so the piece moves start elsewhere.
    let mut pieces: Vec<String> = move_strings(&state)
        .into_iter()
        .filter(|m| &m[1..2] != "2")
        .collect();
    pieces.sort();
    assert_eq!(pieces, ["c1b3", "c1d3", "g1f3", "g1h3"]);
    assert_eq!(move_strings(&state).len(), 20);

    // Every Pawn is guarded, by the pieces the rulebook lists. The rulebook
    // omits Nc1 among e2's guards, but c1-e2 is a Knight leap, so it is
    // listed here too.
    let pos = &state.position;
    let guards = [
        ("a2", "c1"),
        ("b2", "a1 b1"),
        ("c2", "d1"),
        ("d2", "d1 e1"),
        ("e2", "c1 d1 e1 f1 g1"),
        ("f2", "e1"),
        ("g2", "f1"),
        ("h2", "h1"),
    ];
    for (pawn, by) in guards {
        let mut got: Vec<String> = squares(pos.attackers(sq(pawn), 0, pos.occupied()))
            .map(square_name)
            .collect();
        got.sort();
        let want: Vec<&str> = by.split_whitespace().collect();
        assert_eq!(got, want, "guards of {pawn}");
    }
}

#[test]
fn e2_fide_pieces() {
    type G = Nimrod;
    assert_moves_of::<G>(
        "k7/8/8/8/3H4/8/8/7K w - - 0 1",
        "d4",
        "d4a1 d4b2 d4c3 d4d5 d4d6 d4d7 d4d8 d4e3 d4f2 d4g1",
    );
    assert_moves_of::<G>(
        "k7/8/8/8/3A4/8/8/7K w - - 0 1",
        "d4",
        "d4a7 d4b6 d4c5 d4d1 d4d2 d4d3 d4e5 d4f6 d4g7 d4h8",
    );
    assert_moves_of::<G>(
        "k7/8/8/8/3U4/8/8/7K w - - 0 1",
        "d4",
        "d4a1 d4a4 d4b2 d4b4 d4c3 d4c4 d4d5 d4d6 d4d7 d4d8 d4e3 d4e4 d4f2 d4f4 d4g1 d4g4 d4h4",
    );
    assert_moves_of::<G>(
        "k7/8/8/8/3W4/8/8/7K w - - 0 1",
        "d4",
        "d4a4 d4a7 d4b4 d4b6 d4c4 d4c5 d4d1 d4d2 d4d3 d4e4 d4e5 d4f4 d4f6 d4g4 d4g7 d4h4 d4h8",
    );
    assert_moves_of::<G>(
        "k7/8/8/8/3h4/8/8/7K b - - 0 1",
        "d4",
        "d4a7 d4b6 d4c5 d4d1 d4d2 d4d3 d4e5 d4f6 d4g7 d4h8",
    );
}

#[test]
fn e3_fide_dragon_forms() {
    type G = DragonNimrod;
    assert_moves_of::<G>(
        "k7/8/8/8/3D4/8/8/7K w - - 0 1",
        "d4",
        "d4a1 d4b2 d4c3 d4c4 d4c5 d4d3 d4d5 d4d6 d4d7 d4d8 d4e3 d4e4 d4e5 d4f2 d4g1",
    );
    assert_moves_of::<G>(
        "k7/8/8/8/3C4/8/8/7K w - - 0 1",
        "d4",
        "d4b3 d4b5 d4c2 d4c3 d4c4 d4c5 d4c6 d4d3 d4d5 d4e2 d4e3 d4e4 d4e5 d4e6 d4f3 d4f5",
    );
}

#[test]
fn e4_corner_pieces() {
    type G = NimrodCorner;
    assert_moves_of::<G>(
        "k7/8/8/8/3H4/8/8/7K w - - 0 1",
        "d4",
        "d4a4 d4b4 d4c4 d4d5 d4d6 d4d7 d4d8 d4e3 d4f2 d4g1",
    );
    assert_moves_of::<G>(
        "k7/8/8/8/3A4/8/8/7K w - - 0 1",
        "d4",
        "d4a7 d4b6 d4c5 d4d1 d4d2 d4d3 d4e4 d4f4 d4g4 d4h4",
    );
    assert_moves_of::<G>(
        "k7/8/8/8/3M4/8/8/7K w - - 0 1",
        "d4",
        "d4a1 d4a4 d4b2 d4b4 d4c3 d4c4 d4d5 d4d6 d4d7 d4d8 d4e3 d4e5 d4f2 d4f6 d4g1 d4g7 d4h8",
    );
    assert_moves_of::<G>(
        "k7/8/8/8/3Y4/8/8/7K w - - 0 1",
        "d4",
        "d4a1 d4a7 d4b2 d4b6 d4c3 d4c5 d4d1 d4d2 d4d3 d4e4 d4e5 d4f4 d4f6 d4g4 d4g7 d4h4 d4h8",
    );
    assert_moves_of::<G>(
        "k7/8/8/8/3h4/8/8/7K b - - 0 1",
        "d4",
        "d4a7 d4b6 d4c5 d4d1 d4d2 d4d3 d4e4 d4f4 d4g4 d4h4",
    );
    assert_moves_of::<G>("k7/8/8/8/3P4/8/8/7K w - - 0 1", "d4", "d4c4 d4d5");
    assert_moves_of::<G>("k7/8/8/8/3p4/8/8/7K b - - 0 1", "d4", "d4d3 d4e4");
    assert_moves_of::<G>("k7/8/2p5/3P4/8/8/8/7K w - - 0 1", "d5", "d5c5 d5c6 d5d6");
    assert_moves_of::<DragonNimrodCorner>(
        "k7/8/8/8/3O4/8/8/7K w - - 0 1",
        "d4",
        "d4a1 d4a4 d4b2 d4b4 d4c3 d4c4 d4c5 d4d3 d4d5 d4d6 d4d7 d4d8 d4e3 d4e4 d4e5 d4f2 d4f6 \
         d4g1 d4g7 d4h8",
    );
}

#[test]
fn e5_castling_both_ways() {
    type G = Nimrod;
    let fen = "w3k2u/8/8/8/8/8/8/W3K2U w KQkq - 0 1";
    assert_moves_of::<G>(fen, "e1", "e1c1 e1d1 e1d2 e1e2 e1f1 e1f2 e1g1");
    assert_fen_after::<G>(Some(fen), &["e1g1"], "w3k2u/8/8/8/8/8/8/W4UK1 b kq - 1 1");
    assert_fen_after::<G>(Some(fen), &["e1c1"], "w3k2u/8/8/8/8/8/8/2KW3U b kq - 1 1");
    // Castling is the same in Dragon Nimrod (M10).
    assert_moves_of::<DragonNimrod>(fen, "e1", "e1c1 e1d1 e1d2 e1e2 e1f1 e1f2 e1g1");
}

#[test]
fn e6_no_castling_through_attacked_square() {
    assert_moves_of::<Nimrod>(
        "w3k2u/8/8/8/8/8/5h2/W3K2U w KQkq - 0 1",
        "e1",
        "e1c1 e1d1 e1d2 e1e2 e1f2",
    );
}

#[test]
fn e7_en_passant_and_ep_field() {
    type G = Nimrod;
    assert_fen_after::<G>(
        None,
        &["e2e4"],
        "whnqkanu/pppppppp/8/8/4P3/8/PPPP1PPP/WHNQKANU b KQkq - 0 1",
    );
    let line = ["e2e4", "a7a6", "e4e5", "d7d5"];
    assert_fen_after::<G>(
        None,
        &line,
        "whnqkanu/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/WHNQKANU w KQkq d6 0 3",
    );
    let state = setup::<G>(None, &line);
    assert_eq!(moves_from(&state, "e5"), ["e5d6", "e5e6"]);
    assert_fen_after::<G>(
        None,
        &["e2e4", "a7a6", "e4e5", "d7d5", "e5d6"],
        "whnqkanu/1pp1pppp/p2P4/8/8/8/PPPP1PPP/WHNQKANU b KQkq - 0 3",
    );
}

#[test]
fn e8_en_passant_exposing_king_is_illegal() {
    assert_moves_of::<Nimrod>("8/8/8/K2pP2u/8/8/8/4k3 w - d6 0 1", "e5", "e5e6");
}

#[test]
fn e9_pawn_promotion_choices() {
    let fen = "w3k2u/1P4P1/8/8/8/8/1p4p1/W3K2U w - - 0 1";
    assert_moves_of::<Nimrod>(
        fen,
        "b7",
        "b7a8a b7a8h b7a8n b7a8q b7a8u b7a8w b7b8a b7b8h b7b8n b7b8q b7b8u b7b8w",
    );
    assert_moves_of::<DragonNimrod>(
        fen,
        "b7",
        "b7a8c b7a8d b7a8f b7a8g b7a8j b7a8q b7b8c b7b8d b7b8f b7b8g b7b8j b7b8q",
    );
}

#[test]
fn e10_dragon_hawkress_promotes_on_h8() {
    let opening = ["b2b3", "g7g6"];
    let state = setup::<DragonNimrod>(None, &opening);
    assert_eq!(
        moves_from(&state, "a1"),
        ["a1b2", "a1c3", "a1d4", "a1e5", "a1f6", "a1g7", "a1h8+"]
    );
    let dragon_fen = "whnqkanJ/pppppp1p/6p1/8/8/1P6/P1PPPPPP/1HNQKANU b Kq - 0 2";
    assert_fen_after::<DragonNimrod>(None, &["b2b3", "g7g6", "a1h8+"], dragon_fen);
    // Input accepts the dragon promotion without '+'.
    assert_fen_after::<DragonNimrod>(None, &["b2b3", "g7g6", "a1h8"], dragon_fen);
    // In plain Nimrod the same move is written a1h8 and does not promote.
    assert_fen_after::<Nimrod>(
        None,
        &["b2b3", "g7g6", "a1h8"],
        "whnqkanW/pppppp1p/6p1/8/8/1P6/P1PPPPPP/1HNQKANU b Kq - 0 2",
    );
}

#[test]
fn e11_dragon_promotions_white() {
    type G = DragonNimrod;
    let fen = "n3k3/8/1N6/8/8/1H1A4/8/U3K2W w - - 0 1";
    assert_moves_of::<G>(fen, "b6", "b6a4 b6a8+ b6c4 b6c8+ b6d5 b6d7");
    assert_moves_of::<G>(
        fen,
        "a1",
        "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8+ a1b1 a1c1 a1d1",
    );
    assert_moves_of::<G>(fen, "h1", "h1a8+ h1b7 h1c6 h1d5 h1e4 h1f1 h1f3 h1g1 h1g2");
}

#[test]
fn e12_dragon_promotions_black() {
    type G = DragonNimrod;
    let fen = "4k3/8/8/8/8/8/1n4h1/4K3 b - - 0 1";
    assert_moves_of::<G>(fen, "b2", "b2a4 b2c4 b2d1+ b2d3");
    assert_moves_of::<G>(fen, "g2", "g2a8 g2b7 g2c6 g2d5 g2e4 g2f3 g2g1+ g2h3");
}

#[test]
fn e13_dragons_do_not_promote_again() {
    type G = DragonNimrod;
    let fen = "c3k2j/8/8/8/8/8/8/D3K2G w - - 0 1";
    assert_moves_of::<G>(fen, "a1", "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1b2");
    assert_moves_of::<G>(
        fen,
        "h1",
        "h1f1 h1g1 h1g2 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8",
    );
}

#[test]
fn e14_corner_promotions() {
    let white = "8/1P6/2k5/8/8/5K2/6p1/8 w - - 0 1";
    assert_moves_of::<NimrodCorner>(
        white,
        "b7",
        "b7a7a b7a7h b7a7m b7a7n b7a7q b7a7y b7b8a b7b8h b7b8m b7b8n b7b8q b7b8y",
    );
    assert_moves_of::<DragonNimrodCorner>(
        white,
        "b7",
        "b7a7c b7a7d b7a7f b7a7o b7a7q b7a7z b7b8c b7b8d b7b8f b7b8o b7b8q b7b8z",
    );
    assert_moves_of::<NimrodCorner>(
        "8/1P6/2k5/8/8/5K2/6p1/8 b - - 0 1",
        "g2",
        "g2g1a g2g1h g2g1m g2g1n g2g1q g2g1y g2h2a g2h2h g2h2m g2h2n g2h2q g2h2y",
    );
}

#[test]
fn e15_corner_pins_on_long_diagonal() {
    type G = NimrodCorner;
    // The Black Hunter only attacks NW: no pin.
    assert_moves_of::<G>(
        "k7/8/8/3h4/4H3/8/8/7K w - - 0 1",
        "e4",
        "e4a4 e4b4 e4c4 e4d4 e4e5 e4e6 e4e7 e4e8 e4f3 e4g2",
    );
    // The Black Hawksman attacks SE and pins the Huntsman.
    assert_moves_of::<G>("k7/8/8/3y4/4M3/8/8/7K w - - 0 1", "e4", "e4f3 e4g2");
    // The Black Huntsman attacks NW: the Hawksman is free and may capture.
    assert_moves_of::<G>(
        "k7/8/8/3m4/4Y3/8/8/7K w - - 0 1",
        "e4",
        "e4b1 e4c2 e4d3 e4d5 e4e1 e4e2 e4e3 e4f4 e4f5 e4g4 e4g6 e4h4 e4h7",
    );
}

#[test]
fn e16_corner_dragon_promotions() {
    type G = DragonNimrodCorner;
    let fen = "1k6/8/8/8/1N2A3/8/5h2/7K w - - 0 1";
    assert_moves_of::<G>(fen, "b4", "b4a2 b4a6+ b4c2 b4c6 b4d3 b4d5");
    assert_moves_of::<G>(
        fen,
        "e4",
        "e4a8+ e4b7 e4c6 e4d5 e4e1 e4e2 e4e3 e4f4 e4g4 e4h4",
    );
}

#[test]
fn start_position_perft_small_depths() {
    // Rulebook 5.3, depths 1-3 (the deeper counts live in the perft suite).
    fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
        crate::perft::perft(pos, &mut History::new(), depth).unwrap()
    }
    for (d, n) in [(1, 20), (2, 400), (3, 8920)] {
        assert_eq!(perft(&Nimrod::startpos(), d), n);
        assert_eq!(perft(&DragonNimrod::startpos(), d), n);
    }
    for (d, n) in [(1, 16), (2, 258), (3, 4797)] {
        assert_eq!(perft(&NimrodCorner::startpos(), d), n);
        assert_eq!(perft(&DragonNimrodCorner::startpos(), d), n);
    }
}

// ---------------------------------------------------------------------------
// The independent reference generator
// ---------------------------------------------------------------------------

/// A slow mailbox move generator written from the rulebook's tables alone
/// (3.2 vector tables, 3.3 Pawns, 3.4 promotion, 3.5 castling, 5.2 FEN,
/// 5.3 move notation). It shares no code or tables with the engine: it reads
/// FEN text and produces move strings and child FENs.
mod reference {
    #[derive(Clone, Copy, Debug)]
    pub struct Rules {
        pub corner: bool,
        pub dragon: bool,
    }

    impl Rules {
        pub fn of(variant: &str) -> Rules {
            match variant {
                "nimrod" => Rules {
                    corner: false,
                    dragon: false,
                },
                "nimrod-corner" => Rules {
                    corner: true,
                    dragon: false,
                },
                "dragon-nimrod" => Rules {
                    corner: false,
                    dragon: true,
                },
                "dragon-nimrod-corner" => Rules {
                    corner: true,
                    dragon: true,
                },
                other => panic!("not a Nimrod variant: {other}"),
            }
        }

        /// Upper-case letters of every non-King piece of the variant (5.1).
        pub fn piece_letters(&self) -> &'static [u8] {
            match (self.corner, self.dragon) {
                (false, false) => b"PNHAUWQ",
                (true, false) => b"PNHAMYQ",
                (false, true) => b"PNHAUWQCDFGJ",
                (true, true) => b"PNHAMYQCDFOZ",
            }
        }

        /// Pawn promotion choices (3.4, M9), as move suffixes.
        pub fn promotion_choices(&self) -> &'static [u8] {
            match (self.corner, self.dragon) {
                (false, false) => b"qnhauw",
                (true, false) => b"qnhamy",
                (false, true) => b"qcdfgj",
                (true, true) => b"qcdfoz",
            }
        }

        /// The dragon form of a piece letter (upper case), if it has one.
        pub fn dragon_of(&self, letter: u8) -> Option<u8> {
            if !self.dragon {
                return None;
            }
            match (letter, self.corner) {
                (b'N', _) => Some(b'C'),
                (b'H', _) => Some(b'D'),
                (b'A', _) => Some(b'F'),
                (b'U', false) => Some(b'G'),
                (b'W', false) => Some(b'J'),
                (b'M', true) => Some(b'O'),
                (b'Y', true) => Some(b'Z'),
                _ => None,
            }
        }

        /// Whether `white`'s men promote on (x, y) (3.4 table).
        pub fn promotes_on(&self, white: bool, x: i32, y: i32) -> bool {
            let name = square_name(x, y);
            if !self.corner {
                return y == if white { 7 } else { 0 };
            }
            let list: &[&str] = if white {
                &["a8", "b8", "c8", "d8", "a7", "a6", "a5", "a4"]
            } else {
                &["h1", "g1", "f1", "e1", "d1", "h2", "h3", "h4"]
            };
            list.contains(&name.as_str())
        }

        /// Pawn non-capturing steps and capturing steps (3.2, 3.3).
        fn pawn_vectors(&self, white: bool) -> (Vectors, Vectors) {
            let s = if white { 1 } else { -1 };
            if !self.corner {
                (vec![(0, s)], vec![(1, s), (-1, s)])
            } else if white {
                (compass("N W"), compass("NW"))
            } else {
                (compass("S E"), compass("SE"))
            }
        }

        /// (slide directions, single steps or leaps) of a non-Pawn piece,
        /// from the rulebook's "FIDE orientation vectors" and "Corner
        /// orientation vectors" tables.
        fn piece_vectors(&self, letter: u8, white: bool) -> (Vectors, Vectors) {
            let all8 = compass("N NE E SE S SW W NW");
            let knight = vec![
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ];
            match letter {
                b'K' => return (vec![], all8),
                b'Q' => return (all8, vec![]),
                b'N' => return (vec![], knight),
                b'C' => return (vec![], [knight, all8].concat()),
                _ => {}
            }
            if !self.corner {
                let s = if white { 1 } else { -1 };
                let hunter = vec![(0, s), (1, -s), (-1, -s)];
                let hawker = vec![(1, s), (-1, s), (0, -s)];
                let huntress = vec![(0, s), (1, 0), (-1, 0), (1, -s), (-1, -s)];
                let hawkress = vec![(1, s), (-1, s), (1, 0), (-1, 0), (0, -s)];
                match letter {
                    b'H' => (hunter, vec![]),
                    b'D' => (hunter, vec![(1, 0), (-1, 0), (0, -s), (1, s), (-1, s)]),
                    b'A' => (hawker, vec![]),
                    b'F' => (hawker, vec![(1, 0), (-1, 0), (0, s), (1, -s), (-1, -s)]),
                    b'U' => (huntress, vec![]),
                    b'G' => (huntress, vec![(0, -s), (1, s), (-1, s)]),
                    b'W' => (hawkress, vec![]),
                    b'J' => (hawkress, vec![(0, s), (1, -s), (-1, -s)]),
                    _ => panic!("no FIDE piece '{}'", letter as char),
                }
            } else {
                // (White, Black) columns of the corner table.
                let (slides, steps) = match letter {
                    b'H' => (("N W SE", "S E NW"), ("", "")),
                    b'A' => (("NW S E", "SE N W"), ("", "")),
                    b'M' => (("N W SE NE SW", "S E NW NE SW"), ("", "")),
                    b'Y' => (("NW NE SW S E", "SE NE SW N W"), ("", "")),
                    b'D' => (("N W SE", "S E NW"), ("S E NW NE SW", "N W SE NE SW")),
                    b'F' => (("NW S E", "SE N W"), ("N W SE NE SW", "S E NW NE SW")),
                    b'O' => (("N W SE NE SW", "S E NW NE SW"), ("S E NW", "N W SE")),
                    b'Z' => (("NW NE SW S E", "SE NE SW N W"), ("N W SE", "S E NW")),
                    _ => panic!("no corner piece '{}'", letter as char),
                };
                if white {
                    (compass(slides.0), compass(steps.0))
                } else {
                    (compass(slides.1), compass(steps.1))
                }
            }
        }
    }

    /// A list of (dx, dy) vectors.
    type Vectors = Vec<(i32, i32)>;

    /// Compass names to vectors: N = (0,+1), E = (+1,0), ...
    fn compass(names: &str) -> Vectors {
        names
            .split_whitespace()
            .map(|n| match n {
                "N" => (0, 1),
                "S" => (0, -1),
                "E" => (1, 0),
                "W" => (-1, 0),
                "NE" => (1, 1),
                "NW" => (-1, 1),
                "SE" => (1, -1),
                "SW" => (-1, -1),
                _ => panic!("bad compass name {n}"),
            })
            .collect()
    }

    pub fn square_name(x: i32, y: i32) -> String {
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    fn on_board(x: i32, y: i32) -> bool {
        (0..8).contains(&x) && (0..8).contains(&y)
    }

    /// A position: `cells[y][x]` is b'.' or a piece letter (upper = White).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Board {
        pub cells: [[u8; 8]; 8],
        pub white: bool,
        /// K, Q, k, q.
        pub castling: [bool; 4],
        pub ep: Option<(i32, i32)>,
        pub half: u32,
        pub full: u32,
    }

    /// One legal move: its text and the position after it.
    pub struct RefMove {
        pub text: String,
        pub child: Board,
        pub castle: bool,
        pub ep: bool,
        pub promotion: bool,
        pub dragon: bool,
    }

    fn is_white(c: u8) -> bool {
        c.is_ascii_uppercase()
    }

    impl Board {
        pub fn empty() -> Board {
            Board {
                cells: [[b'.'; 8]; 8],
                white: true,
                castling: [false; 4],
                ep: None,
                half: 0,
                full: 1,
            }
        }

        pub fn at(&self, x: i32, y: i32) -> u8 {
            self.cells[y as usize][x as usize]
        }

        fn set(&mut self, x: i32, y: i32, c: u8) {
            self.cells[y as usize][x as usize] = c;
        }

        /// Parses a well-formed six-field FEN with canonical letters.
        pub fn parse(fen: &str) -> Board {
            let f: Vec<&str> = fen.split(' ').collect();
            assert_eq!(f.len(), 6, "reference parser wants six fields: {fen}");
            let mut b = Board::empty();
            for (i, row) in f[0].split('/').enumerate() {
                let y = 7 - i as i32;
                let mut x = 0;
                for c in row.bytes() {
                    if c.is_ascii_digit() {
                        x += (c - b'0') as i32;
                    } else {
                        b.set(x, y, c);
                        x += 1;
                    }
                }
                assert_eq!(x, 8, "{fen}");
            }
            b.white = f[1] == "w";
            for c in f[2].chars() {
                match c {
                    'K' => b.castling[0] = true,
                    'Q' => b.castling[1] = true,
                    'k' => b.castling[2] = true,
                    'q' => b.castling[3] = true,
                    _ => {}
                }
            }
            if f[3] != "-" {
                let e = f[3].as_bytes();
                b.ep = Some(((e[0] - b'a') as i32, (e[1] - b'1') as i32));
            }
            b.half = f[4].parse().unwrap();
            b.full = f[5].parse().unwrap();
            b
        }

        /// Canonical FEN (5.2): e.p. only if a Pawn of the side to move
        /// attacks it.
        pub fn fen(&self, rules: Rules) -> String {
            let mut s = String::new();
            for y in (0..8).rev() {
                let mut empty = 0;
                for x in 0..8 {
                    let c = self.at(x, y);
                    if c == b'.' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(c as char);
                    }
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                if y > 0 {
                    s.push('/');
                }
            }
            s.push_str(if self.white { " w " } else { " b " });
            let rights: String = "KQkq"
                .chars()
                .zip(self.castling)
                .filter(|&(_, on)| on)
                .map(|(c, _)| c)
                .collect();
            s.push_str(if rights.is_empty() { "-" } else { &rights });
            s.push(' ');
            match self.ep.filter(|&(x, y)| self.pawn_attacks_ep(rules, x, y)) {
                Some((x, y)) => s.push_str(&square_name(x, y)),
                None => s.push('-'),
            }
            s.push_str(&format!(" {} {}", self.half, self.full));
            s
        }

        fn pawn_attacks_ep(&self, rules: Rules, x: i32, y: i32) -> bool {
            let pawn = if self.white { b'P' } else { b'p' };
            let (_, caps) = rules.pawn_vectors(self.white);
            caps.iter()
                .any(|&(dx, dy)| on_board(x - dx, y - dy) && self.at(x - dx, y - dy) == pawn)
        }

        /// Squares attacked by the piece on (x, y).
        fn attacks_from(&self, rules: Rules, x: i32, y: i32) -> Vec<(i32, i32)> {
            let c = self.at(x, y);
            let white = is_white(c);
            let upper = c.to_ascii_uppercase();
            let mut out = Vec::new();
            if upper == b'P' {
                for (dx, dy) in rules.pawn_vectors(white).1 {
                    if on_board(x + dx, y + dy) {
                        out.push((x + dx, y + dy));
                    }
                }
                return out;
            }
            let (slides, steps) = rules.piece_vectors(upper, white);
            for (dx, dy) in steps {
                if on_board(x + dx, y + dy) {
                    out.push((x + dx, y + dy));
                }
            }
            for (dx, dy) in slides {
                let (mut tx, mut ty) = (x + dx, y + dy);
                while on_board(tx, ty) {
                    out.push((tx, ty));
                    if self.at(tx, ty) != b'.' {
                        break;
                    }
                    tx += dx;
                    ty += dy;
                }
            }
            out
        }

        /// Whether (x, y) is attacked by a piece of the given colour.
        pub fn attacked(&self, rules: Rules, x: i32, y: i32, by_white: bool) -> bool {
            for py in 0..8 {
                for px in 0..8 {
                    let c = self.at(px, py);
                    if c != b'.'
                        && is_white(c) == by_white
                        && self.attacks_from(rules, px, py).contains(&(x, y))
                    {
                        return true;
                    }
                }
            }
            false
        }

        pub fn king(&self, white: bool) -> (i32, i32) {
            let k = if white { b'K' } else { b'k' };
            for y in 0..8 {
                for x in 0..8 {
                    if self.at(x, y) == k {
                        return (x, y);
                    }
                }
            }
            panic!("no king in {self:?}")
        }

        pub fn in_check(&self, rules: Rules, white: bool) -> bool {
            let (x, y) = self.king(white);
            self.attacked(rules, x, y, !white)
        }

        /// Plays a move: the piece on `from` becomes `placed` on `to`.
        fn make(
            &self,
            from: (i32, i32),
            to: (i32, i32),
            placed: u8,
            ep_victim: Option<(i32, i32)>,
            corner_move: Option<((i32, i32), (i32, i32))>,
            new_ep: Option<(i32, i32)>,
        ) -> Board {
            let mut n = self.clone();
            let pawn = self.at(from.0, from.1).eq_ignore_ascii_case(&b'P');
            let capture = self.at(to.0, to.1) != b'.' || ep_victim.is_some();
            n.set(from.0, from.1, b'.');
            n.set(to.0, to.1, placed);
            if let Some((x, y)) = ep_victim {
                n.set(x, y, b'.');
            }
            if let Some((a, b)) = corner_move {
                let piece = n.at(a.0, a.1);
                n.set(a.0, a.1, b'.');
                n.set(b.0, b.1, piece);
            }
            // 3.5: a right is lost when the King or that corner piece moves,
            // or when anything is captured on that corner.
            for sq in [from, to] {
                match square_name(sq.0, sq.1).as_str() {
                    "e1" => n.castling[0..2].fill(false),
                    "h1" => n.castling[0] = false,
                    "a1" => n.castling[1] = false,
                    "e8" => n.castling[2..4].fill(false),
                    "h8" => n.castling[2] = false,
                    "a8" => n.castling[3] = false,
                    _ => {}
                }
            }
            n.ep = new_ep;
            n.half = if pawn || capture { 0 } else { self.half + 1 };
            if !self.white {
                n.full += 1;
            }
            n.white = !self.white;
            n
        }

        /// Every legal move: pseudo-legal moves, then "own King not
        /// attacked afterwards".
        pub fn legal_moves(&self, rules: Rules) -> Vec<RefMove> {
            let us = self.white;
            let mine = |c: u8| c != b'.' && is_white(c) == us;
            let theirs = |c: u8| c != b'.' && is_white(c) != us;
            let case = |c: u8| {
                if us {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                }
            };
            let mut out = Vec::new();
            let mut push = |text: String, child: Board, flags: [bool; 4]| {
                out.push(RefMove {
                    text,
                    child,
                    castle: flags[0],
                    ep: flags[1],
                    promotion: flags[2],
                    dragon: flags[3],
                });
            };
            for y in 0..8 {
                for x in 0..8 {
                    let c = self.at(x, y);
                    if !mine(c) {
                        continue;
                    }
                    let from = (x, y);
                    let name = |to: (i32, i32)| {
                        format!("{}{}", square_name(x, y), square_name(to.0, to.1))
                    };
                    if c.eq_ignore_ascii_case(&b'P') {
                        let (pushes, caps) = rules.pawn_vectors(us);
                        let mut targets = Vec::new();
                        for (dx, dy) in pushes {
                            let to = (x + dx, y + dy);
                            if on_board(to.0, to.1) && self.at(to.0, to.1) == b'.' {
                                targets.push(to);
                                // FIDE double step from the Pawn's 2nd rank.
                                let second = if us { 1 } else { 6 };
                                let to2 = (x + 2 * dx, y + 2 * dy);
                                if !rules.corner && y == second && self.at(to2.0, to2.1) == b'.' {
                                    let child = self.make(from, to2, c, None, None, Some(to));
                                    push(name(to2), child, [false; 4]);
                                }
                            }
                        }
                        for (dx, dy) in caps {
                            let to = (x + dx, y + dy);
                            if !on_board(to.0, to.1) {
                                continue;
                            }
                            if theirs(self.at(to.0, to.1)) {
                                targets.push(to);
                            } else if !rules.corner && self.ep == Some(to) {
                                let victim = (to.0, y);
                                let child = self.make(from, to, c, Some(victim), None, None);
                                push(name(to), child, [false, true, false, false]);
                            }
                        }
                        for to in targets {
                            if rules.promotes_on(us, to.0, to.1) {
                                for &p in rules.promotion_choices() {
                                    let child = self.make(from, to, case(p), None, None, None);
                                    let text = format!("{}{}", name(to), p as char);
                                    push(text, child, [false, false, true, false]);
                                }
                            } else {
                                let child = self.make(from, to, c, None, None, None);
                                push(name(to), child, [false; 4]);
                            }
                        }
                        continue;
                    }
                    for to in self.attacks_from(rules, x, y) {
                        if mine(self.at(to.0, to.1)) {
                            continue;
                        }
                        let upper = c.to_ascii_uppercase();
                        match rules
                            .dragon_of(upper)
                            .filter(|_| rules.promotes_on(us, to.0, to.1))
                        {
                            Some(d) => {
                                let child = self.make(from, to, case(d), None, None, None);
                                push(format!("{}+", name(to)), child, [false, false, false, true]);
                            }
                            None => {
                                let child = self.make(from, to, c, None, None, None);
                                push(name(to), child, [false; 4]);
                            }
                        }
                    }
                }
            }
            // 3.5 castling, FIDE orientation only.
            if !rules.corner {
                let y = if us { 0 } else { 7 };
                let base = if us { 0 } else { 2 };
                // (right index, corner piece, corner file, King to, piece to,
                //  squares that must be empty, squares not attacked)
                let castles = [
                    (base, b'U', 7, 6, 5, &[5, 6][..], &[4, 5, 6][..]),
                    (base + 1, b'W', 0, 2, 3, &[1, 2, 3][..], &[4, 3, 2][..]),
                ];
                for (right, piece, cx, kx, px, empty, safe) in castles {
                    if self.castling[right]
                        && self.at(4, y) == case(b'K')
                        && self.at(cx, y) == case(piece)
                        && empty.iter().all(|&ex| self.at(ex, y) == b'.')
                        && safe.iter().all(|&sx| !self.attacked(rules, sx, y, !us))
                    {
                        let child = self.make(
                            (4, y),
                            (kx, y),
                            case(b'K'),
                            None,
                            Some(((cx, y), (px, y))),
                            None,
                        );
                        let text = format!("{}{}", square_name(4, y), square_name(kx, y));
                        push(text, child, [true, false, false, false]);
                    }
                }
            }
            out.retain(|m| !m.child.in_check(rules, us));
            out
        }
    }

    /// A random position that the rulebook allows (one King each, no Pawn
    /// where it cannot stand, the side not to move not in check, castling
    /// rights and e.p. consistent with the pieces), or `None` if the draw
    /// happened to leave the side not to move in check.
    pub fn random_board(rules: Rules, rng: &mut super::Rng) -> Option<Board> {
        let mut b = Board::empty();
        b.white = rng.chance(1, 2);
        // FIDE: often set up an e.p. capture: a Pawn of the side not to move
        // that has just double-stepped, next to a Pawn of the side to move.
        let mut ep_file = None;
        if !rules.corner && rng.chance(1, 3) {
            let (x, y) = (rng.below(8) as i32, if b.white { 4 } else { 3 });
            let side = if rng.chance(1, 2) { 1 } else { -1 };
            if (0..8).contains(&(x + side)) {
                b.set(x, y, if b.white { b'p' } else { b'P' });
                b.set(x + side, y, if b.white { b'P' } else { b'p' });
                ep_file = Some(x);
            }
        }
        let empty_square = |b: &Board, rng: &mut super::Rng| loop {
            let (x, y) = (rng.below(8) as i32, rng.below(8) as i32);
            if b.at(x, y) == b'.' {
                return (x, y);
            }
        };
        // FIDE: often put the castling pieces home.
        if !rules.corner {
            for (y, lower) in [(0, false), (7, true)] {
                let c = |l: u8| if lower { l.to_ascii_lowercase() } else { l };
                if rng.chance(1, 2) {
                    b.set(4, y, c(b'K'));
                    for (x, p) in [(0, b'W'), (7, b'U')] {
                        if rng.chance(2, 3) {
                            b.set(x, y, c(p));
                        }
                    }
                }
            }
        }
        for king in [b'K', b'k'] {
            if !b.cells.iter().flatten().any(|&c| c == king) {
                let (x, y) = empty_square(&b, rng);
                b.set(x, y, king);
            }
        }
        let letters = rules.piece_letters();
        let extra = rng.below(20);
        for _ in 0..extra {
            let (x, y) = empty_square(&b, rng);
            let white = rng.chance(1, 2);
            let letter = if rng.chance(1, 3) {
                b'P'
            } else {
                letters[rng.below(letters.len())]
            };
            if letter == b'P' {
                let first_rank = !rules.corner && y == if white { 0 } else { 7 };
                if first_rank || rules.promotes_on(white, x, y) {
                    continue;
                }
            }
            // Keep the squares the e.p. set-up needs empty.
            let passed = if b.white { [5, 6] } else { [2, 1] };
            if ep_file == Some(x) && passed.contains(&y) {
                continue;
            }
            b.set(
                x,
                y,
                if white {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                },
            );
        }
        if !rules.corner {
            let home = [
                (b'K', 7, b'U'),
                (b'K', 0, b'W'),
                (b'k', 7, b'u'),
                (b'k', 0, b'w'),
            ];
            for (i, &(k, cx, p)) in home.iter().enumerate() {
                let y = if i < 2 { 0 } else { 7 };
                b.castling[i] = b.at(4, y) == k && b.at(cx, y) == p && rng.chance(3, 4);
            }
            // e.p.: a Pawn of the side not to move that may just have
            // double-stepped.
            let (pawn, y, dy) = if b.white { (b'p', 4, 1) } else { (b'P', 3, -1) };
            let candidates: Vec<i32> = (0..8)
                .filter(|&x| {
                    b.at(x, y) == pawn && b.at(x, y + dy) == b'.' && b.at(x, y + 2 * dy) == b'.'
                })
                .collect();
            if !candidates.is_empty() && rng.chance(2, 3) {
                let x = candidates[rng.below(candidates.len())];
                b.ep = Some((x, y + dy));
            }
        }
        b.half = rng.below(90) as u32;
        b.full = 1 + rng.below(60) as u32;
        if b.in_check(rules, !b.white) {
            return None;
        }
        Some(b)
    }
}

use reference::{Board, Rules};

/// What the cross-check saw, to make sure the special moves were exercised.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    moves: usize,
    castles: usize,
    en_passant: usize,
    promotions: usize,
    dragons: usize,
    in_check: usize,
}

/// Compares the engine's legal moves and child positions with the
/// reference in `pos`; returns the engine's moves.
fn cross_check<F: Flavor>(pos: &Position<F>, cov: &mut Coverage) -> Vec<Move> {
    let rules = Rules::of(F::NAME);
    let fen = pos.to_fen();
    let board = Board::parse(&fen);
    let reference = board.legal_moves(rules);
    let mut engine = <Position<F> as Game>::Moves::default();
    pos.legal_moves(&History::new(), &mut engine);

    let mut got: Vec<String> = engine
        .as_slice()
        .iter()
        .map(|&m| pos.move_to_string(m))
        .collect();
    let mut want: Vec<String> = reference.iter().map(|m| m.text.clone()).collect();
    got.sort();
    want.sort();
    assert_eq!(got, want, "{}: legal moves differ in {fen}", F::NAME);

    let check_info = pos.check_info();
    for &m in engine.as_slice() {
        let text = pos.move_to_string(m);
        let r = reference.iter().find(|r| r.text == text).unwrap();
        assert_eq!(
            pos.gives_check_with(&check_info, m),
            r.child.in_check(rules, r.child.white),
            "{}: whether {text} gives check, in {fen}",
            F::NAME
        );
        assert_eq!(
            pos.play(m).to_fen(),
            r.child.fen(rules),
            "{}: position after {text} differs in {fen}",
            F::NAME
        );
    }
    cov.positions += 1;
    cov.moves += reference.len();
    cov.castles += reference.iter().filter(|m| m.castle).count();
    cov.en_passant += reference.iter().filter(|m| m.ep).count();
    cov.promotions += reference.iter().filter(|m| m.promotion).count();
    cov.dragons += reference.iter().filter(|m| m.dragon).count();
    cov.in_check += usize::from(board.in_check(rules, board.white));
    engine.as_slice().to_vec()
}

/// Random games from the start position, then random rulebook-legal
/// positions each followed by a short random walk.
fn cross_check_variant<F: Flavor>(seed: u64) -> Coverage {
    let rules = Rules::of(F::NAME);
    let mut rng = Rng::new(seed);
    let mut cov = Coverage::default();
    let walk = |mut pos: Position<F>, plies: usize, rng: &mut Rng, cov: &mut Coverage| {
        for _ in 0..plies {
            let moves = cross_check(&pos, cov);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    };
    for _ in 0..scale(12) {
        walk(Position::<F>::startpos(), 150, &mut rng, &mut cov);
    }
    let mut started = 0;
    while started < scale(1000) {
        let Some(board) = reference::random_board(rules, &mut rng) else {
            continue;
        };
        started += 1;
        let fen = board.fen(rules);
        let pos = Position::<F>::from_fen(&fen)
            .unwrap_or_else(|e| panic!("{}: a legal position was rejected: {fen}: {e}", F::NAME));
        assert_eq!(pos.to_fen(), fen, "{}: canonical FEN", F::NAME);
        walk(pos, 6, &mut rng, &mut cov);
    }
    cov
}

#[test]
fn reference_nimrod() {
    let cov = cross_check_variant::<Fide>(1);
    assert!(cov.positions > scale(3000), "{cov:?}");
    assert!(
        cov.castles > scale(100) && cov.en_passant > scale(100),
        "{cov:?}"
    );
    assert!(
        cov.promotions > scale(100) && cov.in_check > scale(100),
        "{cov:?}"
    );
}

#[test]
fn reference_dragon_nimrod() {
    let cov = cross_check_variant::<DragonFide>(2);
    assert!(cov.positions > scale(3000), "{cov:?}");
    assert!(
        cov.castles > scale(100) && cov.en_passant > scale(100),
        "{cov:?}"
    );
    assert!(
        cov.promotions > scale(100) && cov.dragons > scale(100),
        "{cov:?}"
    );
}

#[test]
fn reference_nimrod_corner() {
    let cov = cross_check_variant::<Corner>(3);
    assert!(cov.positions > scale(3000), "{cov:?}");
    assert!(
        cov.promotions > scale(100) && cov.in_check > scale(100),
        "{cov:?}"
    );
}

#[test]
fn reference_dragon_nimrod_corner() {
    let cov = cross_check_variant::<DragonCorner>(4);
    assert!(cov.positions > scale(3000), "{cov:?}");
    assert!(
        cov.promotions > scale(100) && cov.dragons > scale(100),
        "{cov:?}"
    );
}

#[test]
fn reference_agrees_with_start_perft() {
    // The reference itself reproduces the rulebook's depth-3 counts, so a
    // disagreement elsewhere points at the engine, not the reference.
    fn perft(rules: Rules, b: &Board, depth: u32) -> u64 {
        let moves = b.legal_moves(rules);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| perft(rules, &m.child, depth - 1))
            .sum()
    }
    let depth = if cfg!(debug_assertions) { 2 } else { 3 };
    for (variant, fen, counts) in [
        ("nimrod", Nimrod::startpos().to_fen(), [20, 400, 8920]),
        (
            "dragon-nimrod",
            DragonNimrod::startpos().to_fen(),
            [20, 400, 8920],
        ),
        (
            "nimrod-corner",
            NimrodCorner::startpos().to_fen(),
            [16, 258, 4797],
        ),
        (
            "dragon-nimrod-corner",
            DragonNimrodCorner::startpos().to_fen(),
            [16, 258, 4797],
        ),
    ] {
        let b = Board::parse(&fen);
        for d in 1..=depth {
            assert_eq!(
                perft(Rules::of(variant), &b, d),
                counts[d as usize - 1],
                "{variant} depth {d}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Properties on random playouts
// ---------------------------------------------------------------------------

/// Checks the invariants of one position and all its legal moves.
/// `attackers`, which looks kinds up by the lines they share, finds
/// exactly the pieces whose own attacks reach each square.
fn assert_attackers_match_moves<F: Flavor>(pos: &Position<F>) {
    let t = Position::<F>::tables();
    let occ = pos.occupied();
    for by in 0..2 {
        let mut reach_of = Vec::new();
        for from in squares(pos.by_color[by]) {
            let kind = pieces::piece_kind(pos.board[from as usize]);
            let reach = if kind == pieces::PAWN {
                t.pawn_capture[by][from as usize]
            } else {
                pieces::attacks(t, by, kind, from, occ)
            };
            reach_of.push((from, reach));
        }
        for sq in 0..64u8 {
            let want = reach_of
                .iter()
                .filter(|(_, reach)| reach & (1u64 << sq) != 0)
                .fold(0u64, |acc, (from, _)| acc | 1u64 << from);
            assert_eq!(
                pos.attackers(sq, by, occ),
                want,
                "attackers of {} by colour {by} in {}",
                square_name(sq),
                pos.to_fen()
            );
        }
    }
}

fn check_properties<F: Flavor>(state: &GameState<Position<F>>) {
    let pos = &state.position;
    let fen = pos.to_fen();
    // FEN round trip, and the reparsed position hashes the same.
    let reparsed = Position::<F>::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(reparsed.to_fen(), fen);
    assert_eq!(reparsed.hash(), pos.hash(), "hash after reparse: {fen}");

    assert_attackers_match_moves(pos);

    let moves = state.legal_moves();
    assert_eq!(
        pos.count_legal_moves(&state.history),
        moves.len() as u64,
        "count_legal_moves: {fen}"
    );
    let mover = pos.side.index();
    for &m in moves.as_slice() {
        let text = pos.move_to_string(m);
        // The canonical text parses back to the same move.
        assert_eq!(
            pos.parse_move(&state.history, &text),
            Ok(m),
            "{text} in {fen}"
        );
        // A dragon promotion parses with and without '+'.
        if let Some(bare) = text.strip_suffix('+') {
            assert!(
                F::DRAGON,
                "'+' outside the Dragon variants: {text} in {fen}"
            );
            assert_eq!(
                pos.parse_move(&state.history, bare),
                Ok(m),
                "{bare} in {fen}"
            );
        }
        // Playing is deterministic.
        let child = pos.play(m);
        assert_eq!(child.hash(), pos.play(m).hash(), "{text} in {fen}");
        // The mover's King is never left attacked.
        let king = child.king[mover];
        assert_eq!(
            child.attackers(king, mover ^ 1, child.occupied()),
            0,
            "{text} leaves the King attacked in {fen}"
        );
    }
}

fn properties_variant<F: Flavor>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut dragon_seen = 0;
    for _ in 0..scale(10) {
        let mut state = GameState::new(Position::<F>::startpos());
        let mut played: Vec<String> = Vec::new();
        for _ in 0..200 {
            check_properties(&state);
            let moves = state.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            let text = state.position.move_to_string(m);
            dragon_seen += usize::from(text.ends_with('+'));
            played.push(text);
            state.play(m);
        }
        // Replaying the game text gives the same position and history.
        let texts: Vec<&str> = played.iter().map(String::as_str).collect();
        let replay = GameState::<Position<F>>::from_setup(None, &texts).unwrap();
        assert_eq!(replay.position.to_fen(), state.position.to_fen());
        assert_eq!(replay.position.hash(), state.position.hash());
        assert_eq!(replay.history.keys(), state.history.keys());
    }
    if F::DRAGON {
        assert!(dragon_seen > 0, "no dragon promotion was played");
    }
}

#[test]
fn properties_nimrod() {
    properties_variant::<Fide>(11);
}

#[test]
fn properties_dragon_nimrod() {
    properties_variant::<DragonFide>(12);
}

#[test]
fn properties_nimrod_corner() {
    properties_variant::<Corner>(13);
}

#[test]
fn properties_dragon_nimrod_corner() {
    properties_variant::<DragonCorner>(14);
}

#[test]
fn plus_notation_in_fen_means_dragon() {
    // 5.2: '+X' is accepted on input and written back with the dragon letter.
    let p = DragonNimrod::from_fen("+n3k3/8/8/8/8/8/8/+H+A+U+WK3 w - - 0 1").unwrap();
    assert_eq!(p.to_fen(), "c3k3/8/8/8/8/8/8/DFGJK3 w - - 0 1");
    let p = DragonNimrodCorner::from_fen("k7/8/8/8/8/8/8/5+M+YK w - - 0 1").unwrap();
    assert_eq!(p.to_fen(), "k7/8/8/8/8/8/8/5OZK w - - 0 1");
    // X-FEN file letters are castling synonyms.
    let p = Nimrod::from_fen("w3k2u/8/8/8/8/8/8/W3K2U w HAha - 0 1").unwrap();
    assert_eq!(p.to_fen(), "w3k2u/8/8/8/8/8/8/W3K2U w KQkq - 0 1");
}

#[test]
fn repetition_ignores_unusable_ep_square() {
    // After e2e4 no Black Pawn attacks e3: the position equals the same
    // placement given with '-' (M11 compares the canonical e.p. field).
    let a = setup::<Nimrod>(None, &["e2e4"]).position;
    let b =
        Nimrod::from_fen("whnqkanu/pppppppp/8/8/4P3/8/PPPP1PPP/WHNQKANU b KQkq e3 0 1").unwrap();
    let c = Nimrod::from_fen("whnqkanu/pppppppp/8/8/4P3/8/PPPP1PPP/WHNQKANU b KQkq - 0 1").unwrap();
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a.hash(), c.hash());
    // Different variants hash differently.
    assert_ne!(Nimrod::startpos().hash(), DragonNimrod::startpos().hash());
}

// ---------------------------------------------------------------------------
// Outcomes
// ---------------------------------------------------------------------------

fn outcome_of<G: Game>(fen: Option<&str>, moves: &[&str]) -> Option<Outcome> {
    setup::<G>(fen, moves).outcome()
}

#[test]
fn outcome_checkmate() {
    // Queen b7 guarded by the King on b6.
    assert_eq!(
        outcome_of::<Nimrod>(Some("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"), &[]),
        Some(Outcome::Win(Color::White, Termination::Checkmate))
    );
    // Mate delivered by a move, in the corner orientation.
    let fen = "k7/8/1K6/8/8/8/7Q/8 w - - 0 1";
    assert_eq!(outcome_of::<NimrodCorner>(Some(fen), &[]), None);
    assert_eq!(
        outcome_of::<NimrodCorner>(Some(fen), &["h2h8"]),
        Some(Outcome::Win(Color::White, Termination::Checkmate))
    );
    // A mate on the 100th ply still counts as mate.
    assert_eq!(
        outcome_of::<Nimrod>(Some("k7/1Q6/1K6/8/8/8/8/8 b - - 100 80"), &[]),
        Some(Outcome::Win(Color::White, Termination::Checkmate))
    );
    // Black mates White: Queen g2 guarded by the King on g3.
    assert_eq!(
        outcome_of::<DragonNimrod>(Some("8/8/8/8/8/6k1/5q2/7K b - - 0 1"), &["f2g2"]),
        Some(Outcome::Win(Color::Black, Termination::Checkmate))
    );
}

#[test]
fn outcome_stalemate() {
    assert_eq!(
        outcome_of::<Nimrod>(Some("k7/8/1Q6/8/8/8/8/7K b - - 0 1"), &[]),
        Some(Outcome::Draw(Termination::Stalemate))
    );
    assert_eq!(
        outcome_of::<NimrodCorner>(Some("k7/8/1Q6/8/8/8/8/7K b - - 0 1"), &[]),
        Some(Outcome::Draw(Termination::Stalemate))
    );
}

#[test]
fn outcome_fifty_moves() {
    let fen = "k7/8/8/8/8/8/8/1Q5K w - - 99 70";
    assert_eq!(outcome_of::<Nimrod>(Some(fen), &[]), None);
    // One more quiet move makes 100 plies.
    assert_eq!(
        outcome_of::<Nimrod>(Some(fen), &["h1g1"]),
        Some(Outcome::Draw(Termination::FiftyMoves))
    );
    // A Pawn move resets the clock.
    assert_eq!(
        outcome_of::<Nimrod>(Some("k7/8/8/8/8/8/P7/1Q5K w - - 99 70"), &["a2a3"]),
        None
    );
    assert_eq!(
        outcome_of::<NimrodCorner>(Some("k7/8/8/8/8/8/8/1Q5K b - - 100 70"), &[]),
        Some(Outcome::Draw(Termination::FiftyMoves))
    );
}

#[test]
fn outcome_threefold_repetition() {
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let twice: Vec<&str> = shuffle.iter().chain(&shuffle).copied().collect();
    // The start position occurs for the second time: not yet a draw.
    assert_eq!(outcome_of::<Nimrod>(None, &shuffle), None);
    assert_eq!(outcome_of::<Nimrod>(None, &twice[..7]), None);
    // Third occurrence.
    assert_eq!(
        outcome_of::<Nimrod>(None, &twice),
        Some(Outcome::Draw(Termination::Repetition))
    );
    assert_eq!(
        outcome_of::<DragonNimrod>(None, &twice),
        Some(Outcome::Draw(Termination::Repetition))
    );
    // Corner: the Knights h3 and a4 shuffle to g5 and c5 and back.
    let corner = ["h3g5", "a4c5", "g5h3", "c5a4"];
    let corner2: Vec<&str> = corner.iter().chain(&corner).copied().collect();
    assert_eq!(
        outcome_of::<NimrodCorner>(None, &corner2),
        Some(Outcome::Draw(Termination::Repetition))
    );
    // Castling rights are part of the position: moving the King out and back
    // does not repeat the start position.
    let king = ["e1f1", "e8f8", "f1e1", "f8e8"];
    let fen = "w3k2u/8/8/8/8/8/8/W3K2U w KQkq - 0 1";
    let king3: Vec<&str> = king.iter().chain(&king).copied().collect();
    assert_eq!(outcome_of::<Nimrod>(Some(fen), &king3), None);
}

#[test]
fn outcome_bare_kings() {
    assert_eq!(
        outcome_of::<Nimrod>(Some("k7/8/8/8/8/8/8/7K w - - 0 1"), &[]),
        Some(Outcome::Draw(Termination::InsufficientMaterial))
    );
    // The King captures the last piece.
    assert_eq!(
        outcome_of::<DragonNimrodCorner>(Some("k7/8/8/8/8/8/6q1/7K w - - 0 1"), &["h1g2"]),
        Some(Outcome::Draw(Termination::InsufficientMaterial))
    );
    // King and any other piece is not drawn automatically (M13).
    assert_eq!(
        outcome_of::<Nimrod>(Some("k7/8/8/8/8/8/8/6HK w - - 0 1"), &[]),
        None
    );
}

// ---------------------------------------------------------------------------
// Bad input: always a clear Err, never a panic
// ---------------------------------------------------------------------------

fn assert_bad_fen<G: Game>(fen: &str) {
    match G::from_fen(fen) {
        Ok(p) => panic!("{}: accepted bad FEN {fen:?} as {}", G::VARIANT, p.to_fen()),
        Err(e) => assert!(!e.0.is_empty(), "empty error message for {fen:?}"),
    }
}

#[test]
fn bad_fens_are_rejected() {
    type N = Nimrod;
    let bad = [
        // Rank too long / too short, bad counts.
        "whnqkanuu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1",
        "whnqkan/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1",
        "whnqkanu/pppppppp/9/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1",
        "whnqkanu/pppppppp/08/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1",
        "whnqkanu/pppppppp/7/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1",
        // 7 or 9 ranks.
        "whnqkanu/pppppppp/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1",
        "whnqkanu/pppppppp/8/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1",
        "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU/ w KQkq - 0 1",
        // Unknown letters: chess Rooks and Bishops, corner letters.
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "k7/8/8/8/3M4/8/8/7K w - - 0 1",
        "k7/8/8/8/3x4/8/8/7K w - - 0 1",
        "k7/8/8/8/3?4/8/8/7K w - - 0 1",
        // Dragon letters and '+' in a non-dragon variant.
        "k7/8/8/8/3D4/8/8/7K w - - 0 1",
        "k7/8/8/8/3c4/8/8/7K w - - 0 1",
        "k7/8/8/8/3+N4/8/8/7K w - - 0 1",
        // No King, two Kings.
        "8/8/8/8/8/8/8/7K w - - 0 1",
        "k7/8/8/8/8/8/8/8 w - - 0 1",
        "kk6/8/8/8/8/8/8/7K w - - 0 1",
        "k7/8/8/8/8/8/8/6KK w - - 0 1",
        // Pawns where they cannot stand.
        "P6k/8/8/8/8/8/8/7K w - - 0 1",
        "k7/8/8/8/8/8/8/p6K w - - 0 1",
        "k7/8/8/8/8/8/8/P6K w - - 0 1",
        "k6p/8/8/8/8/8/8/7K w - - 0 1",
        // Castling rights without the pieces.
        "w3k2u/8/8/8/8/8/8/W3K3 w K - 0 1",
        "w3k2u/8/8/8/8/8/8/4K2U w Q - 0 1",
        "w3k2u/8/8/8/8/8/8/W2K3U w K - 0 1",
        "w3k3/8/8/8/8/8/8/W3K2U w k - 0 1",
        "w3k2u/8/8/8/8/8/8/H3K2U w Q - 0 1",
        "w3k2u/8/8/8/8/8/8/W3K2U w KK - 0 1",
        "w3k2u/8/8/8/8/8/8/W3K2U w X - 0 1",
        // Bad e.p. squares.
        "whnqkanu/pppppppp/8/8/4P3/8/PPPP1PPP/WHNQKANU b KQkq e6 0 1",
        "whnqkanu/pppppppp/8/8/4P3/8/PPPP1PPP/WHNQKANU w KQkq e3 0 1",
        "whnqkanu/pppppppp/8/8/4P3/8/PPPP1PPP/WHNQKANU b KQkq d3 0 1",
        "whnqkanu/pppppppp/8/8/4P3/8/PPPP1PPP/WHNQKANU b KQkq e9 0 1",
        "whnqkanu/pppppppp/8/8/4P3/8/PPPP1PPP/WHNQKANU b KQkq z3 0 1",
        "whnqkanu/pppppppp/8/8/4P3/8/PPPP1PPP/WHNQKANU b KQkq e 0 1",
        "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq e8 0 1",
        "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq a1 0 1",
        // Side to move.
        "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU x KQkq - 0 1",
        "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU W KQkq - 0 1",
        // Garbage numbers, too many fields.
        "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - x 1",
        "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - -1 1",
        "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1.5",
        "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 99999999999 1",
        "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1 extra",
        // The side not to move is in check.
        "k7/8/8/8/8/8/8/Q6K w - - 0 1",
        // Empty, whitespace, unicode junk.
        "",
        "   ",
        "w",
        "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU",
        "♚7/8/8/8/8/8/8/7♔ w - - 0 1",
        "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANÜ w KQkq - 0 1",
        "k7/8/8/8/8/8/8/7K w KQkq – 0 1",
        "k7/8/8/8/8/8/8/7K w - - 0 １",
        "\u{0}\u{1}\u{ffff}",
    ];
    for fen in bad {
        assert_bad_fen::<N>(fen);
    }
    // '+' on pieces without a dragon form, in a Dragon variant.
    for fen in [
        "k7/8/8/8/3+Q4/8/8/7K w - - 0 1",
        "k7/8/8/8/3+P4/8/8/7K w - - 0 1",
        "k7/8/8/8/3+D4/8/8/7K w - - 0 1",
        "k7/8/8/8/3++N4/8/8/7K w - - 0 1",
        "k6+/8/8/8/8/8/8/7K w - - 0 1",
        "+k7/8/8/8/8/8/8/7K w - - 0 1",
        "k7/8/8/8/3+4/8/8/7K w - - 0 1",
        // Corner letters in the FIDE orientation.
        "k7/8/8/8/3O4/8/8/7K w - - 0 1",
    ] {
        assert_bad_fen::<DragonNimrod>(fen);
    }
    // FIDE letters in the corner orientation; castling and e.p. in corner.
    let corner_start = NimrodCorner::startpos().to_fen();
    for fen in [
        "k7/8/8/8/3U4/8/8/7K w - - 0 1".to_string(),
        "k7/8/8/8/3G4/8/8/7K w - - 0 1".to_string(),
        corner_start.replace(" w - ", " w KQkq "),
        corner_start.replace(" w - ", " w K "),
        "k7/8/8/8/8/8/8/7K w - e6 0 1".to_string(),
        // Corner Pawns on their promotion squares.
        "k7/8/8/8/P7/8/8/7K w - - 0 1".to_string(),
        "k7/8/8/8/8/8/8/3p3K w - - 0 1".to_string(),
        "k7/8/8/8/8/8/7p/7K w - - 0 1".to_string(),
    ] {
        assert_bad_fen::<NimrodCorner>(&fen);
        assert_bad_fen::<DragonNimrodCorner>(&fen);
    }
    // The Dragon letters are fine in the Dragon variant.
    assert!(DragonNimrod::from_fen("k7/8/8/8/3D4/8/8/7K w - - 0 1").is_ok());
    // Fields after the side to move may be omitted.
    assert_eq!(
        Nimrod::from_fen("k7/8/8/8/8/8/8/7K w").unwrap().to_fen(),
        "k7/8/8/8/8/8/8/7K w - - 0 1"
    );
    // Corner Pawns may stand on their first rank (the start array has c1).
    assert!(NimrodCorner::from_fen("k7/8/8/8/8/8/8/P6K w - - 0 1").is_ok());
}

#[test]
fn bad_moves_are_rejected() {
    let start = Nimrod::startpos();
    let h = History::new();
    for text in [
        "e2e5",
        "e1e2",
        "c1c3",
        "a1a2",
        "e7e5",
        "e2",
        "e2e9",
        "i2i4",
        "zz",
        "e7e8k",
        "e2e4q",
        "e2e4+",
        "0000",
        "",
        " ",
        "e2-e4",
        "e2e4e4",
        "é2e4",
        "e2é4",
        "e2e4é",
        "E2E5",
        "a1h8+",
        "h1h1",
        "\u{0}\u{0}\u{0}\u{0}",
    ] {
        let r = start.parse_move(&h, text);
        assert!(r.is_err(), "accepted {text:?} as {:?}", r);
        assert!(!r.unwrap_err().0.is_empty());
    }
    // Case and surrounding whitespace are forgiven.
    assert!(start.parse_move(&h, " E2E4 ").is_ok());

    // A promotion needs a letter, and one of the variant's choices.
    let fen = "w3k2u/1P4P1/8/8/8/8/1p4p1/W3K2U w - - 0 1";
    let p = Nimrod::from_fen(fen).unwrap();
    let e = p.parse_move(&h, "b7b8").unwrap_err();
    assert!(e.0.contains("promotion"), "{e}");
    for text in ["b7b8k", "b7b8p", "b7b8d", "b7b8m", "b7b8+", "b7b8x"] {
        assert!(p.parse_move(&h, text).is_err(), "{text}");
    }
    let d = DragonNimrod::from_fen(fen).unwrap();
    assert!(d.parse_move(&h, "b7b8").is_err());
    assert!(
        d.parse_move(&h, "b7b8n").is_err(),
        "plain Knight in Dragon Nimrod"
    );
    assert!(d.parse_move(&h, "b7b8c").is_ok());

    // GameState::from_setup reports the failing move and keeps nothing.
    let e = GameState::<Nimrod>::from_setup(None, &["e2e4", "e7e5", "e4e5"]).unwrap_err();
    assert!(e.0.contains("move 3"), "{e}");
}

#[test]
fn fuzz_from_fen_random_bytes() {
    let mut rng = Rng::new(99);
    for _ in 0..scale(3000) {
        let len = rng.below(90);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        fuzz_fen_all(&text);
    }
}

/// Feeds `text` to every variant's parser; an accepted position must
/// round-trip and generate moves without panicking.
fn fuzz_fen_all(text: &str) {
    fn one<G: Game>(text: &str) {
        let result = std::panic::catch_unwind(|| {
            if let Ok(p) = G::from_fen(text) {
                let fen = p.to_fen();
                assert_eq!(G::from_fen(&fen).map(|q| q.to_fen()), Ok(fen.clone()));
                let h = History::new();
                let mut moves = G::Moves::default();
                p.legal_moves(&h, &mut moves);
                assert_eq!(p.count_legal_moves(&h), moves.len() as u64);
                for &m in moves.as_slice() {
                    let child = p.play(m);
                    let _ = child.to_fen();
                    let _ = child.outcome(&h);
                }
            }
        });
        assert!(result.is_ok(), "{}: panic on FEN {text:?}", G::VARIANT);
    }
    one::<Nimrod>(text);
    one::<NimrodCorner>(text);
    one::<DragonNimrod>(text);
    one::<DragonNimrodCorner>(text);
}

#[test]
fn fuzz_from_fen_mutations() {
    let seeds = [
        "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1",
        "kynhp3/qppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK w - - 0 1",
        "whnqkanu/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/WHNQKANU w KQkq d6 0 3",
        "n3k3/8/1N6/8/8/1H1A4/8/U3K2W w - - 0 1",
        "w3k2u/1P4P1/8/8/8/8/1p4p1/W3K2U w - - 0 1",
        "1k6/8/8/8/1N2A3/8/5h2/7K w - - 0 1",
        "c3k2j/8/8/8/8/8/8/D3K2G w - - 0 1",
    ];
    let alphabet: Vec<char> =
        "pnhauwmyqkcdfgjozPNHAUWMYQKCDFGJOZ0123456789/ -+wbKQkqae3618x\u{e9}\u{2654}"
            .chars()
            .collect();
    let mut rng = Rng::new(7);
    let mut accepted = 0;
    for _ in 0..scale(3000) {
        let mut chars: Vec<char> = seeds[rng.below(seeds.len())].chars().collect();
        for _ in 0..1 + rng.below(3) {
            let i = rng.below(chars.len() + 1);
            let c = alphabet[rng.below(alphabet.len())];
            match rng.below(4) {
                0 if i < chars.len() => chars[i] = c,
                1 if i < chars.len() => {
                    chars.remove(i);
                }
                2 => {
                    let j = rng.below(chars.len() + 1).max(i);
                    let piece: Vec<char> = chars[i.min(chars.len())..j.min(chars.len())].to_vec();
                    chars.splice(i..i, piece);
                }
                _ => chars.insert(i, c),
            }
        }
        let text: String = chars.into_iter().collect();
        accepted += usize::from(
            Nimrod::from_fen(&text).is_ok() || DragonNimrodCorner::from_fen(&text).is_ok(),
        );
        fuzz_fen_all(&text);
    }
    // Some mutations are still valid positions, so movegen was exercised.
    assert!(accepted > 0);
}

#[test]
fn fuzz_parse_move() {
    let positions = [
        Nimrod::startpos().to_fen(),
        "w3k2u/1P4P1/8/8/8/8/1p4p1/W3K2U w KQkq - 0 1".to_string(),
    ];
    let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz012345678+- \u{e9}\u{2654}"
        .chars()
        .collect();
    let mut rng = Rng::new(5);
    let h = History::new();
    for fen in &positions {
        let n = Nimrod::from_fen(fen).unwrap();
        let d = DragonNimrod::from_fen(fen).unwrap();
        for _ in 0..scale(3000) {
            let len = rng.below(8);
            let text: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            // Whatever is accepted is a legal move that round-trips.
            if let Ok(m) = n.parse_move(&h, &text) {
                assert_eq!(n.parse_move(&h, &n.move_to_string(m)), Ok(m), "{text:?}");
            }
            if let Ok(m) = d.parse_move(&h, &text) {
                assert_eq!(d.parse_move(&h, &d.move_to_string(m)), Ok(m), "{text:?}");
            }
            let bytes: Vec<u8> = (0..rng.below(8)).map(|_| rng.next() as u8).collect();
            let _ = n.parse_move(&h, &String::from_utf8_lossy(&bytes));
        }
    }
}

/// The static exchange evaluation uses the piece values it is given (an
/// `EvalFile`'s): a Knight taking a Pawn defended by a Pawn loses with the
/// compiled-in values and wins when Pawns are made worth more than Knights.
#[test]
fn see_uses_the_given_piece_values() {
    use crate::game::Game;
    let p = Nimrod::from_fen("4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1").unwrap();
    let mv = p.parse_move(&crate::game::History::new(), "e3d5").unwrap();
    assert!(p.see(mv) < 0);
    assert!(!p.see_at_least(mv, 0));
    let mut pawns_dear = Nimrod::default_eval_params().clone();
    pawns_dear.material[super::pieces::PAWN][0] = 1_000;
    assert!(p.see_in(&pawns_dear, mv) > 0);
    assert!(p.see_at_least_with(&pawns_dear, mv, 0));
}

/// The threshold test's shortcuts (the first victim bounds the exchange
/// from above, the first victim less the capturer from below) answer as
/// the full swap list does, for every legal move of random games and
/// thresholds on both sides of zero.
#[test]
fn see_threshold_test_agrees_with_the_swap_list() {
    fn walk<F: Flavor>(seed: u64) {
        let params = super::eval::default_params();
        let mut rng = Rng::new(seed);
        let h = History::new();
        for _ in 0..scale(20) {
            let mut pos = Position::<F>::startpos();
            for _ in 0..120 {
                let mut moves = <Position<F> as Game>::Moves::default();
                pos.legal_moves(&h, &mut moves);
                if moves.is_empty() {
                    break;
                }
                for &mv in moves.as_slice() {
                    let see = pos.see_in(params, mv);
                    for threshold in [-1000, -300, -100, -1, 0, 1, 60, 100, 300, 1000] {
                        assert_eq!(
                            pos.see_at_least_in(params, mv, threshold),
                            see >= threshold,
                            "{} threshold {threshold} in {}",
                            pos.move_to_string(mv),
                            pos.to_fen()
                        );
                    }
                }
                pos = pos.play(moves.as_slice()[rng.below(moves.len())]);
            }
        }
    }
    walk::<super::Fide>(17);
    walk::<super::Corner>(18);
    walk::<super::DragonFide>(19);
}

/// Quiet-move ordering's threat hint: a piece leaving a square a pawn
/// attacks for a safe one scores 1, a piece stepping into a pawn's attack
/// -1, and pawn and King moves 0; in the corner orientation too, whose
/// pawns capture along other lines.
#[test]
fn threat_order_reads_the_opponents_pawn_attacks() {
    fn order<G: Game>(fen: &str, text: &str) -> i32 {
        let p = G::from_fen(fen).unwrap();
        let mv = p.parse_move(&History::new(), text).unwrap();
        p.threat_order(&p.threats(), mv)
    }
    let fen = "4k3/8/8/4p3/3N4/8/6N1/4K3 w - - 0 1";
    assert_eq!(order::<Nimrod>(fen, "d4f3"), 1);
    assert_eq!(order::<Nimrod>(fen, "g2f4"), -1);
    assert_eq!(order::<Nimrod>(fen, "g2h4"), 0);
    assert_eq!(order::<Nimrod>(fen, "e1d2"), 0);
    // Black to move: White's pawn on c3 attacks b4 and d4.
    let fen = "4k3/8/8/8/3n4/2P5/8/4K3 b - - 0 1";
    assert_eq!(order::<Nimrod>(fen, "d4e6"), 1);
    let corner = NimrodCorner::from_fen(fen).unwrap();
    let attacked = corner.threats();
    let c3 = parse_square("c3").unwrap();
    let pawn_capture = &Position::<Corner>::tables().pawn_capture[Color::White.index()];
    assert_eq!(attacked, pawn_capture[c3 as usize]);
}
