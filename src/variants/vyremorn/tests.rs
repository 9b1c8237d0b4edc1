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
    assert_eq!(perft(&p, &mut h, 1).unwrap(), 50);
    assert_eq!(perft(&p, &mut h, 2).unwrap(), 2502);
    assert_eq!(perft(&p, &mut h, 3).unwrap(), 132_839);
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
        after("8k/9/9/13/5b7/13/13/2R^10/13/9/9/K8 b c5 0 1", &["f8c5"]),
        "8k/9/9/13/13/13/13/2b^10/13/9/9/K8 w - 0 2"
    );
    assert_eq!(
        after("8k/9/9/13/13/13/3p9/2R^10/13/9/9/K8 b - 0 1", &["d6c5"]),
        "8k/9/9/13/13/13/13/2p10/13/9/9/K8 w - 0 2"
    );
}

// ---------------------------------------------------------------------------
// Reference implementation
// ---------------------------------------------------------------------------

/// A deliberately simple second implementation of the rulebook, used only
/// to check the engine. It shares nothing with the engine but the position
/// string parser (positions are read from a parsed [`Position`] square by
/// square): its own coordinates, region tests, patterns written as vectors
/// straight from rulebook 3.2, move application and an attack test that
/// lists every enemy piece's captures from the piece's own square.
pub mod reference {
    use super::super::position::{LETTERS, Position, disk_of, kind_of, pcolor};

    #[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
    pub struct Square {
        /// Upper-case letter of the non-Disk piece and its colour.
        pub piece: Option<(u8, usize)>,
        /// Colour of the Disk.
        pub disk: Option<usize>,
    }

    #[derive(Clone, PartialEq, Eq, Debug)]
    pub struct Ref {
        pub grid: [[Square; 12]; 13],
        pub rights: [[bool; 12]; 13],
        pub side: usize,
        pub clock: u32,
        pub fullmove: u32,
    }

    pub fn on_board(x: i32, y: i32) -> bool {
        (0..13).contains(&x) && (0..12).contains(&y) && ((x <= 8 && y <= 8) || (x >= 4 && y >= 3))
    }

    /// 'W' White Court, 'F' Field, 'B' Black Court.
    pub fn region(x: i32, y: i32) -> char {
        if (4..=8).contains(&x) && (3..=8).contains(&y) {
            'F'
        } else if x <= 8 && y <= 8 {
            'W'
        } else {
            'B'
        }
    }

    fn own_court(c: usize) -> char {
        if c == 0 { 'W' } else { 'B' }
    }

    fn name(x: i32, y: i32) -> String {
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    /// Field-crossing rule on the squares of a path.
    fn crosses(from: (i32, i32), to: (i32, i32), mids: &[(i32, i32)]) -> bool {
        let (a, b) = (region(from.0, from.1), region(to.0, to.1));
        a != 'F' && b != 'F' && a != b && mids.iter().any(|&(x, y)| region(x, y) == 'F')
    }

    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct RMove {
        pub from: (i32, i32),
        pub to: (i32, i32),
        pub disk: bool,
        pub kind: u8, // b'n' normal, b'c' castle, b'x' extricate
    }

    impl RMove {
        pub fn text(&self) -> String {
            format!(
                "{}{}{}",
                name(self.from.0, self.from.1),
                name(self.to.0, self.to.1),
                if self.disk { "d" } else { "" }
            )
        }
    }

    /// One pattern of a non-Disk piece: how it travels and whether it may
    /// move (m) and capture (c).
    enum Pat {
        Step((i32, i32)),
        Slide((i32, i32)),
        /// Target offset and alternative paths (offsets from the start).
        Jump((i32, i32), Vec<Vec<(i32, i32)>>),
    }

    struct P {
        how: Pat,
        m: bool,
        c: bool,
        /// Subject to the Field-crossing rule.
        field_rule: bool,
    }

    type JumpSpec = ((i32, i32), Vec<Vec<(i32, i32)>>);

    const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    const DIAG: [(i32, i32); 4] = [(1, 1), (-1, -1), (1, -1), (-1, 1)];

    fn patterns(letter: u8, color: usize, promoted: bool) -> Vec<P> {
        let f = if color == 0 { 1 } else { -1 };
        let mut v = Vec::new();
        let mc = |how| P {
            how,
            m: true,
            c: true,
            field_rule: true,
        };
        let m_only = |how| P {
            how,
            m: true,
            c: false,
            field_rule: true,
        };
        match letter {
            b'K' => {
                for d in ORTH.iter().chain(DIAG.iter()) {
                    v.push(mc(Pat::Step(*d)));
                }
            }
            b'Q' => {
                for d in ORTH.iter().chain(DIAG.iter()) {
                    v.push(mc(Pat::Slide(*d)));
                }
            }
            b'R' => ORTH.iter().for_each(|d| v.push(mc(Pat::Slide(*d)))),
            b'B' => DIAG.iter().for_each(|d| v.push(mc(Pat::Slide(*d)))),
            b'G' => {
                DIAG.iter().for_each(|d| v.push(mc(Pat::Slide(*d))));
                ORTH.iter().for_each(|d| v.push(mc(Pat::Step(*d))));
            }
            b'F' => {
                ORTH.iter().for_each(|d| v.push(mc(Pat::Slide(*d))));
                DIAG.iter().for_each(|d| v.push(mc(Pat::Step(*d))));
            }
            b'E' => {
                DIAG.iter().for_each(|d| v.push(mc(Pat::Step(*d))));
                for (dx, dy) in ORTH {
                    v.push(mc(Pat::Jump((2 * dx, 2 * dy), vec![vec![(dx, dy)]])));
                }
            }
            b'M' => {
                for (dx, dy) in ORTH.iter().chain(DIAG.iter()) {
                    for k in 1..=3 {
                        let path = (1..k).map(|i| (dx * i, dy * i)).collect();
                        v.push(P {
                            how: Pat::Jump((dx * k, dy * k), vec![path]),
                            m: true,
                            c: true,
                            field_rule: false,
                        });
                    }
                }
            }
            b'N' | b'W' => {
                for a in [1, -1] {
                    for b in [1, -1] {
                        let jumps: Vec<JumpSpec> = if letter == b'N' {
                            vec![
                                ((2 * a, b), vec![vec![(a, 0), (2 * a, 0)]]),
                                ((a, 2 * b), vec![vec![(0, b), (0, 2 * b)]]),
                            ]
                        } else {
                            vec![
                                ((3 * a, b), vec![vec![(a, 0), (2 * a, 0), (3 * a, 0)]]),
                                ((a, 3 * b), vec![vec![(0, b), (0, 2 * b), (0, 3 * b)]]),
                                (
                                    (2 * a, 2 * b),
                                    vec![
                                        vec![(a, 0), (2 * a, 0), (2 * a, b)],
                                        vec![(0, b), (0, 2 * b), (a, 2 * b)],
                                    ],
                                ),
                            ]
                        };
                        for (t, paths) in jumps {
                            v.push(P {
                                how: Pat::Jump(t, paths),
                                m: true,
                                c: true,
                                field_rule: false,
                            });
                        }
                    }
                }
                if letter == b'W' {
                    ORTH.iter().for_each(|d| v.push(m_only(Pat::Step(*d))));
                }
            }
            b'A' => {
                v.push(mc(Pat::Slide((f, f))));
                v.push(mc(Pat::Step((f, 0))));
                v.push(mc(Pat::Step((0, f))));
                v.push(m_only(Pat::Step((-f, 0))));
                v.push(m_only(Pat::Step((0, -f))));
                v.push(m_only(Pat::Step((-f, -f))));
                if promoted {
                    v.push(m_only(Pat::Step((f, -f))));
                    v.push(m_only(Pat::Step((-f, f))));
                }
            }
            b'P' => {
                v.push(m_only(Pat::Step((f, 0))));
                v.push(m_only(Pat::Step((0, f))));
                v.push(P {
                    how: Pat::Step((f, f)),
                    m: false,
                    c: true,
                    field_rule: true,
                });
                if promoted {
                    v.push(P {
                        how: Pat::Step((f, -f)),
                        m: false,
                        c: true,
                        field_rule: true,
                    });
                    v.push(P {
                        how: Pat::Step((-f, f)),
                        m: false,
                        c: true,
                        field_rule: true,
                    });
                }
            }
            _ => {} // Citadel: handled apart; it attacks nothing.
        }
        v
    }

    impl Ref {
        pub fn from_engine(p: &Position) -> Ref {
            let mut r = Ref {
                grid: [[Square::default(); 12]; 13],
                rights: [[false; 12]; 13],
                side: p.side.index(),
                clock: p.clock,
                fullmove: p.fullmove,
            };
            for x in 0..13 {
                for y in 0..12 {
                    if !on_board(x, y) {
                        continue;
                    }
                    let i = (y * 13 + x) as usize;
                    let c = p.board[i];
                    if kind_of(c) != 0 {
                        r.grid[x as usize][y as usize].piece =
                            Some((LETTERS[kind_of(c) as usize], pcolor(c)));
                    }
                    if disk_of(c) != 0 {
                        r.grid[x as usize][y as usize].disk = Some(disk_of(c) as usize - 1);
                    }
                    r.rights[x as usize][y as usize] = (p.rights[i / 64] >> (i % 64)) & 1 == 1;
                }
            }
            r
        }

        pub fn at(&self, x: i32, y: i32) -> Square {
            self.grid[x as usize][y as usize]
        }

        fn empty(&self, x: i32, y: i32) -> bool {
            let s = self.at(x, y);
            s.piece.is_none() && s.disk.is_none()
        }

        fn promoted(color: usize, x: i32, y: i32) -> bool {
            region(x, y) != own_court(color)
        }

        /// Jump path test: every square exists and holds no Citadel
        /// opposing `mover`.
        fn path_ok(&self, from: (i32, i32), path: &[(i32, i32)], mover: usize) -> bool {
            path.iter().all(|&(dx, dy)| {
                let (x, y) = (from.0 + dx, from.1 + dy);
                on_board(x, y) && self.at(x, y).piece != Some((b'C', 1 - mover))
            })
        }

        /// Destinations of the non-Disk piece on `from`: (square, may move,
        /// may capture), before looking at what stands there (slides stop at
        /// the first occupied square, which is included).
        fn reach(
            &self,
            from: (i32, i32),
            letter: u8,
            color: usize,
        ) -> Vec<((i32, i32), bool, bool)> {
            let mut out = Vec::new();
            for pat in patterns(letter, color, Self::promoted(color, from.0, from.1)) {
                match pat.how {
                    Pat::Step((dx, dy)) => {
                        let t = (from.0 + dx, from.1 + dy);
                        if on_board(t.0, t.1) {
                            out.push((t, pat.m, pat.c));
                        }
                    }
                    Pat::Slide((dx, dy)) => {
                        let mut mids = Vec::new();
                        let mut t = (from.0 + dx, from.1 + dy);
                        while on_board(t.0, t.1) {
                            if !(pat.field_rule && crosses(from, t, &mids)) {
                                out.push((t, pat.m, pat.c));
                            }
                            if !self.empty(t.0, t.1) {
                                break;
                            }
                            mids.push(t);
                            t = (t.0 + dx, t.1 + dy);
                        }
                    }
                    Pat::Jump((dx, dy), paths) => {
                        let t = (from.0 + dx, from.1 + dy);
                        if !on_board(t.0, t.1) {
                            continue;
                        }
                        if letter == b'M' && region(t.0, t.1) == 'F' {
                            continue;
                        }
                        let ok = paths.iter().any(|p| {
                            let mids: Vec<(i32, i32)> =
                                p.iter().map(|&(a, b)| (from.0 + a, from.1 + b)).collect();
                            self.path_ok(from, p, color)
                                && !(pat.field_rule && crosses(from, t, &mids))
                        });
                        if ok {
                            out.push((t, pat.m, pat.c));
                        }
                    }
                }
            }
            out
        }

        /// Squares attacked by whatever stands on (x, y) (rider and Disk).
        pub fn attacks_from(&self, x: i32, y: i32) -> Vec<(i32, i32)> {
            let s = self.at(x, y);
            let mut out = Vec::new();
            if let Some((letter, color)) = s.piece
                && letter != b'C'
            {
                for (t, _, c) in self.reach((x, y), letter, color) {
                    if c {
                        out.push(t);
                    }
                }
            }
            if let Some(color) = s.disk {
                let f = if color == 0 { 1 } else { -1 };
                for (dx, dy) in [(f, 0), (0, f)] {
                    if on_board(x + dx, y + dy) {
                        out.push((x + dx, y + dy));
                    }
                }
            }
            out
        }

        pub fn attacked(&self, t: (i32, i32), by: usize) -> bool {
            for x in 0..13 {
                for y in 0..12 {
                    if !on_board(x, y) {
                        continue;
                    }
                    let s = self.at(x, y);
                    let mine = s.piece.map(|p| p.1) == Some(by) || s.disk == Some(by);
                    if mine && self.attacks_from(x, y).contains(&t) {
                        return true;
                    }
                }
            }
            false
        }

        fn find(&self, letter: u8, color: usize) -> Vec<(i32, i32)> {
            let mut v = Vec::new();
            for x in 0..13 {
                for y in 0..12 {
                    if on_board(x, y) && self.at(x, y).piece == Some((letter, color)) {
                        v.push((x, y));
                    }
                }
            }
            v
        }

        pub fn in_check(&self) -> bool {
            let k = self.find(b'K', self.side)[0];
            self.attacked(k, 1 - self.side)
        }

        fn pseudo(&self) -> Vec<RMove> {
            let us = self.side;
            let mut out = Vec::new();
            let mv = |from, to, disk, kind| RMove {
                from,
                to,
                disk,
                kind,
            };
            for x in 0..13 {
                for y in 0..12 {
                    if !on_board(x, y) {
                        continue;
                    }
                    let s = self.at(x, y);
                    let from = (x, y);
                    if let Some((letter, color)) = s.piece
                        && color == us
                    {
                        if letter == b'C' {
                            for (dx, dy) in ORTH {
                                let t = (x + dx, y + dy);
                                if on_board(t.0, t.1)
                                    && self.empty(t.0, t.1)
                                    && region(t.0, t.1) == own_court(us)
                                {
                                    out.push(mv(from, t, false, b'n'));
                                }
                            }
                        }
                        for (t, m, c) in self.reach(from, letter, us) {
                            let d = self.at(t.0, t.1);
                            let ok = match (d.piece, d.disk) {
                                (None, None) => m,
                                (None, Some(dc)) if dc == us => m && letter != b'P',
                                (Some((pl, pc)), _) if pc != us => c && pl != b'C',
                                (None, Some(_)) => c,
                                _ => false,
                            };
                            if ok && !(letter == b'M' && region(t.0, t.1) == 'F') {
                                out.push(mv(from, t, false, b'n'));
                            }
                        }
                        if letter == b'P' && self.rights[x as usize][y as usize] {
                            let f = if us == 0 { 1 } else { -1 };
                            for (dx, dy) in [(f, 0), (0, f)] {
                                let mid = (x + dx, y + dy);
                                let t = (x + 2 * dx, y + 2 * dy);
                                if !on_board(t.0, t.1) || !on_board(mid.0, mid.1) {
                                    continue;
                                }
                                let ms = self.at(mid.0, mid.1);
                                let mid_ok = ms.piece.is_none()
                                    && (ms.disk.is_none() || ms.disk == Some(us));
                                if self.empty(t.0, t.1)
                                    && mid_ok
                                    && !crosses(from, t, &[mid])
                                    && !self.attacked(mid, 1 - us)
                                {
                                    out.push(mv(from, t, false, b'n'));
                                }
                            }
                        }
                        if letter == b'K' {
                            let in_check = self.attacked(from, 1 - us);
                            if !in_check && region(x, y) == own_court(us) {
                                for c in self.find(b'C', us) {
                                    out.push(mv(from, c, false, b'c'));
                                }
                            }
                            if in_check && region(x, y) != 'F' {
                                for m in self.find(b'M', us) {
                                    if self.reach(m, b'M', us).iter().any(|r| r.0 == from) {
                                        out.push(mv(from, m, false, b'x'));
                                    }
                                }
                            }
                        }
                    }
                    if s.disk == Some(us) {
                        let f = if us == 0 { 1 } else { -1 };
                        let magus = s.piece.map(|p| p.0) == Some(b'M');
                        let fine = |t: (i32, i32)| !(magus && region(t.0, t.1) == 'F');
                        let t = (x + f, y + f);
                        if on_board(t.0, t.1) && self.empty(t.0, t.1) && fine(t) {
                            out.push(mv(from, t, true, b'n'));
                        }
                        for t in [(x + f, y), (x, y + f)] {
                            if !on_board(t.0, t.1) || !fine(t) {
                                continue;
                            }
                            let d = self.at(t.0, t.1);
                            let enemy = match d.piece {
                                Some((l, c)) => c != us && l != b'C',
                                None => d.disk.is_some_and(|c| c != us),
                            };
                            if enemy {
                                out.push(mv(from, t, true, b'n'));
                            }
                        }
                        if self.rights[x as usize][y as usize] {
                            let mid = (x + f, y + f);
                            let t = (x + 2 * f, y + 2 * f);
                            if on_board(t.0, t.1)
                                && on_board(mid.0, mid.1)
                                && self.empty(mid.0, mid.1)
                                && self.empty(t.0, t.1)
                                && !crosses(from, t, &[mid])
                                && fine(t)
                            {
                                out.push(mv(from, t, true, b'n'));
                            }
                        }
                    }
                }
            }
            out
        }

        pub fn apply(&self, m: &RMove) -> Ref {
            let mut r = self.clone();
            let us = self.side;
            let (fx, fy) = (m.from.0 as usize, m.from.1 as usize);
            let (tx, ty) = (m.to.0 as usize, m.to.1 as usize);
            let target = self.grid[tx][ty];
            let enemy_there =
                target.piece.is_some_and(|p| p.1 != us) || target.disk.is_some_and(|c| c != us);
            let capture = m.kind == b'n' && enemy_there;
            match m.kind {
                b'c' => {
                    r.grid[tx][ty].piece = Some((b'K', us));
                    r.grid[fx][fy].piece = None;
                }
                b'x' => {
                    let k = r.grid[fx][fy].piece;
                    r.grid[fx][fy].piece = r.grid[tx][ty].piece;
                    r.grid[tx][ty].piece = k;
                }
                _ => {
                    if m.disk {
                        r.grid[tx][ty] = self.grid[fx][fy];
                        r.grid[fx][fy] = Square::default();
                        r.rights[fx][fy] = false;
                        r.rights[tx][ty] = false;
                    } else {
                        let piece = self.grid[fx][fy].piece;
                        r.grid[fx][fy].piece = None;
                        let pawn = piece.map(|p| p.0) == Some(b'P');
                        if pawn {
                            r.rights[fx][fy] = false;
                        }
                        if capture {
                            r.rights[tx][ty] = false;
                            let mounted = target.disk.is_some() && target.piece.is_some();
                            r.grid[tx][ty] = if mounted && !pawn {
                                Square {
                                    piece,
                                    disk: Some(us),
                                }
                            } else {
                                Square { piece, disk: None }
                            };
                        } else {
                            r.grid[tx][ty].piece = piece;
                        }
                    }
                }
            }
            r.clock = if capture { 0 } else { self.clock + 1 };
            if us == 1 {
                r.fullmove += 1;
            }
            r.side = 1 - us;
            r
        }

        pub fn legal(&self) -> Vec<(RMove, Ref)> {
            let us = self.side;
            self.pseudo()
                .into_iter()
                .filter_map(|m| {
                    let child = self.apply(&m);
                    let k = child.find(b'K', us)[0];
                    (!child.attacked(k, 1 - us)).then_some((m, child))
                })
                .collect()
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = self.legal();
            if depth == 1 {
                return moves.len() as u64;
            }
            moves.iter().map(|(_, c)| c.perft(depth - 1)).sum()
        }

        /// A position string written by the reference itself (for random
        /// positions; the engine parses it).
        pub fn to_fen(&self) -> String {
            let mut s = String::new();
            for y in (0..12).rev() {
                let mut empty = 0;
                for x in 0..13 {
                    if !on_board(x, y) {
                        continue;
                    }
                    let q = self.at(x, y);
                    let text = match (q.piece, q.disk) {
                        (None, None) => {
                            empty += 1;
                            continue;
                        }
                        (None, Some(c)) => {
                            if c == 0 {
                                "D".to_string()
                            } else {
                                "d".to_string()
                            }
                        }
                        (Some((l, c)), d) => {
                            let ch = if c == 0 {
                                l as char
                            } else {
                                (l as char).to_ascii_lowercase()
                            };
                            format!("{ch}{}", if d.is_some() { "^" } else { "" })
                        }
                    };
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(&text);
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                if y > 0 {
                    s.push('/');
                }
            }
            let mut rights = String::new();
            for y in 0..12 {
                for x in 0..13 {
                    if on_board(x, y) && self.rights[x as usize][y as usize] {
                        rights.push_str(&name(x, y));
                    }
                }
            }
            if rights.is_empty() {
                rights.push('-');
            }
            format!(
                "{s} {} {rights} {} {}",
                if self.side == 0 { 'w' } else { 'b' },
                self.clock,
                self.fullmove
            )
        }
    }
}

use reference::Ref;

pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
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
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Compares the engine with the reference on one position: legal move
/// texts, check status, and every child position. Returns the children.
fn compare(p: &Position) -> Vec<Position> {
    let r = Ref::from_engine(p);
    assert_eq!(r.to_fen(), p.to_fen(), "reference writer");
    let mut ref_moves: Vec<(String, Ref)> =
        r.legal().into_iter().map(|(m, c)| (m.text(), c)).collect();
    ref_moves.sort_by(|a, b| a.0.cmp(&b.0));
    let mut eng: Vec<(String, Position)> = legal(p)
        .into_iter()
        .map(|m| (p.move_to_string(m), p.play(m)))
        .collect();
    eng.sort_by(|a, b| a.0.cmp(&b.0));
    let e_names: Vec<&str> = eng.iter().map(|m| m.0.as_str()).collect();
    let r_names: Vec<&str> = ref_moves.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(e_names, r_names, "legal moves differ in {}", p.to_fen());
    assert_eq!(
        p.in_check(),
        r.in_check(),
        "check differs in {}",
        p.to_fen()
    );
    for ((name, child), (_, rchild)) in eng.iter().zip(&ref_moves) {
        assert_eq!(
            child.to_fen(),
            rchild.to_fen(),
            "after {name} in {}",
            p.to_fen()
        );
    }
    eng.into_iter().map(|e| e.1).collect()
}

#[test]
fn reference_agrees_on_start_perft() {
    let p = Position::startpos();
    let r = Ref::from_engine(&p);
    assert_eq!(r.perft(1), 50);
    assert_eq!(r.perft(2), 2502);
}

/// A random position the rulebook allows: every kind, riders, rights.
pub(crate) fn random_position(rng: &mut Rng) -> Option<Position> {
    use reference::{Square, on_board, region};
    let mut r = Ref {
        grid: [[Square::default(); 12]; 13],
        rights: [[false; 12]; 13],
        side: rng.below(2),
        clock: rng.below(60) as u32,
        fullmove: 1 + rng.below(40) as u32,
    };
    let squares: Vec<(i32, i32)> = (0..13)
        .flat_map(|x| (0..12).map(move |y| (x, y)))
        .filter(|&(x, y)| on_board(x, y))
        .collect();
    let mut free = squares.clone();
    let mut take = |rng: &mut Rng, ok: &dyn Fn((i32, i32)) -> bool| -> Option<(i32, i32)> {
        for _ in 0..50 {
            let i = rng.below(free.len());
            if ok(free[i]) {
                return Some(free.swap_remove(i));
            }
        }
        None
    };
    for c in 0..2 {
        let k = take(rng, &|_| true)?;
        r.grid[k.0 as usize][k.1 as usize].piece = Some((b'K', c));
        if rng.below(3) > 0 {
            let court = if c == 0 { 'W' } else { 'B' };
            let s = take(rng, &|(x, y)| region(x, y) == court)?;
            r.grid[s.0 as usize][s.1 as usize].piece = Some((b'C', c));
        }
    }
    let n = 2 + rng.below(22);
    for _ in 0..n {
        let c = rng.below(2);
        let letters = b"QMGFBWNRAEPPPDDD";
        let l = letters[rng.below(letters.len())];
        let s = if l == b'M' {
            take(rng, &|(x, y)| region(x, y) != 'F')?
        } else {
            take(rng, &|_| true)?
        };
        let q = &mut r.grid[s.0 as usize][s.1 as usize];
        if l == b'D' {
            q.disk = Some(c);
            if rng.below(3) == 0 {
                let riders = b"QGFBWNRAEM";
                let rl = riders[rng.below(riders.len())];
                if !(rl == b'M' && region(s.0, s.1) == 'F') {
                    q.piece = Some((rl, c));
                }
            }
        } else {
            q.piece = Some((l, c));
        }
        if (l == b'D' || l == b'P') && rng.below(2) == 0 {
            r.rights[s.0 as usize][s.1 as usize] = true;
        }
    }
    // Kings on Disks sometimes.
    for c in 0..2 {
        for &(x, y) in &squares {
            if r.grid[x as usize][y as usize].piece == Some((b'K', c)) && rng.below(6) == 0 {
                r.grid[x as usize][y as usize].disk = Some(c);
            }
        }
    }
    Position::from_fen(&r.to_fen()).ok()
}

fn scale(n: usize) -> usize {
    if cfg!(debug_assertions) {
        n / 10 + 1
    } else {
        n
    }
}

#[test]
fn reference_agrees_on_random_play() {
    let mut rng = Rng::new(7);
    let mut checked = 0;
    // Random games from the start position.
    for _ in 0..scale(12) {
        let mut p = Position::startpos();
        for _ in 0..120 {
            let children = compare(&p);
            checked += 1;
            if children.is_empty() {
                break;
            }
            p = children[rng.below(children.len())];
        }
    }
    // Random positions, each followed by a short random walk.
    let mut made = 0;
    while made < scale(500) {
        let Some(mut p) = random_position(&mut rng) else {
            continue;
        };
        made += 1;
        for _ in 0..6 {
            let children = compare(&p);
            checked += 1;
            if children.is_empty() {
                break;
            }
            p = children[rng.below(children.len())];
        }
    }
    assert!(checked > scale(3000));
}

/// Prints positions from seeded random games (used to extend the suite).
#[test]
#[ignore]
fn print_random_game_positions() {
    for seed in 1..=6u64 {
        let mut rng = Rng::new(seed);
        let mut p = Position::startpos();
        for ply in 0..(20 + 10 * seed as usize) {
            let moves = legal(&p);
            if moves.is_empty() {
                break;
            }
            // Prefer captures half of the time, to reach Turnings.
            let caps: Vec<Move> = moves.iter().copied().filter(|m| m.has(F_CAPTURE)).collect();
            let mv = if !caps.is_empty() && rng.below(2) == 0 {
                caps[rng.below(caps.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p = p.play(mv);
            let _ = ply;
        }
        println!("{}", p.to_fen());
    }
}

/// The suite's counts at the shallow depths, recomputed by the reference;
/// each suite position and its children are compared move by move.
#[test]
fn reference_agrees_on_suite() {
    let text = include_str!("../../../positions/vyremorn.perft");
    let mut lines = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let p = Position::from_fen(fen).unwrap();
        for child in compare(&p) {
            compare(&child);
        }
        let r = Ref::from_engine(&p);
        for part in parts {
            let (d, n) = part.trim().split_once(' ').unwrap();
            let depth: u32 = d[1..].parse().unwrap();
            let n: u64 = n.parse().unwrap();
            if depth <= 2 || (depth == 3 && n <= 30_000) {
                assert_eq!(r.perft(depth), n, "{fen} depth {depth}");
            }
        }
        lines += 1;
    }
    assert!(lines >= 25);
}

/// The 180° rotation with colours swapped: the same game from the other
/// side.
pub(crate) fn rotate(p: &Position) -> Position {
    let mut r = *p;
    r.board = [position::EMPTY; NSQ];
    r.rights = [0; 3];
    for &s in &geo().squares {
        let (x, y) = (x_of(s), y_of(s));
        let t = sq_of(12 - x, 11 - y);
        let c = p.board[s as usize];
        let mut n = 0;
        if kind_of(c) != 0 {
            n |= make_piece(kind_of(c), pcolor(c) ^ 1);
        }
        if disk_of(c) != 0 {
            n |= make_disk(2 - disk_of(c) as usize);
        }
        r.board[t as usize] = n;
        if p.has_right(s) {
            r.set_right(t);
        }
    }
    r.king = [
        sq_of(12 - x_of(p.king[1]), 11 - y_of(p.king[1])),
        sq_of(12 - x_of(p.king[0]), 11 - y_of(p.king[0])),
    ];
    r.side = p.side.flip();
    r
}

#[test]
fn rotation_preserves_move_counts() {
    let mut rng = Rng::new(3);
    let mut n = 0;
    while n < 200 {
        let Some(p) = random_position(&mut rng) else {
            continue;
        };
        n += 1;
        let r = rotate(&p);
        assert_eq!(legal(&p).len(), legal(&r).len(), "{}", p.to_fen());
        assert_eq!(Position::from_fen(&r.to_fen()).unwrap(), r);
    }
}

/// Fast self-play with the search; every position and move is checked
/// against the reference.
#[test]
fn self_play_games_follow_the_rules() {
    use crate::game::GameState;
    use crate::search::{Limits, Memory, SearchKind, search_with_defaults};
    let mut table = Memory::new(SearchKind::AlphaBeta, 4).unwrap();
    let limits = Limits {
        nodes: Some(2000),
        ..Limits::default()
    };
    let mut rng = Rng::new(11);
    for game in 0..scale(3) {
        let mut state = GameState::new(Position::startpos());
        // A few random opening moves so the games differ.
        for _ in 0..2 + game {
            let moves = legal(&state.position);
            let mv = moves[rng.below(moves.len())];
            state.play(mv);
        }
        for _ in 0..scale(80) {
            if state.outcome().is_some() {
                break;
            }
            compare(&state.position);
            let out = search_with_defaults(&state, &limits, &mut table);
            let mv = out.best.expect("a legal move exists");
            let text = state.position.move_to_string(mv);
            let r = Ref::from_engine(&state.position);
            assert!(
                r.legal().iter().any(|(m, _)| m.text() == text),
                "search played {text} in {}",
                state.position.to_fen()
            );
            assert_eq!(state.position.parse_move(&state.history, &text), Ok(mv));
            state.play(mv);
        }
    }
}

#[test]
fn notation_round_trips_and_disk_suffix() {
    let mut rng = Rng::new(21);
    let mut n = 0;
    while n < 300 {
        let Some(p) = random_position(&mut rng) else {
            continue;
        };
        n += 1;
        assert_eq!(Position::from_fen(&p.to_fen()).unwrap(), p);
        for mv in legal(&p) {
            let text = p.move_to_string(mv);
            assert_eq!(
                p.parse_move(&History::new(), &text),
                Ok(mv),
                "{text} in {p:?}"
            );
            // Riderless Disk moves may omit the suffix.
            if mv.has(F_DISK) && kind_of(p.board[mv.from() as usize]) == 0 {
                let short = &text[..text.len() - 1];
                assert_eq!(p.parse_move(&History::new(), short), Ok(mv));
            }
        }
    }
    // A mounted Disk: with 'd' the Disk moves, without it the rider.
    let p = Position::from_fen("8k/9/9/13/13/13/13/2N^10/13/9/9/K8 w c5 0 1").unwrap();
    let h = History::new();
    assert!(p.parse_move(&h, "c5d6d").unwrap().has(F_DISK));
    assert!(p.parse_move(&h, "c5d6").is_err());
    assert!(!p.parse_move(&h, "c5d7").unwrap().has(F_DISK));
    assert!(p.parse_move(&h, "c5d7d").is_err());
}

#[test]
fn bad_input_is_rejected_with_a_reason() {
    let cases: &[(&str, &str)] = &[
        ("8k/9/9/13/13/13/13/13/13/9/9/K7 w - 0 1", "needs 9"),
        ("8k/9/9/13/13/13/13/13/13/9/9/K9 w - 0 1", "more than"),
        ("8k/9/9/13/13/13/13/13/9/9/K8 w - 0 1", "12 ranks"),
        (
            "8k/9/9/13/13/13/13/2P^10/13/9/9/K8 w - 0 1",
            "'^' may not follow 'P'",
        ),
        (
            "8k/9/9/13/13/13/13/2D^10/13/9/9/K8 w - 0 1",
            "'^' may not follow a Disk",
        ),
        (
            "8k/9/9/13/13/13/13/2C^10/13/9/9/K8 w - 0 1",
            "'^' may not follow 'C'",
        ),
        ("8k/9/9/13/13/13/4M8/13/13/9/9/K8 w - 0 1", "Field"),
        ("8k/9/9/13/13/13/4M^8/13/13/9/9/K8 w - 0 1", "Field"),
        (
            "8k/9/9/13/13/13/4C8/13/13/9/9/K8 w - 0 1",
            "outside its own Court",
        ),
        ("8k/9/9/13/13/13/13/13/13/9/C7C/K8 w - 0 1", "Citadels"),
        ("8k/9/9/13/13/13/13/13/13/9/9/9 w - 0 1", "exactly one King"),
        (
            "8k/9/9/13/13/13/13/13/13/9/K8/K8 w - 0 1",
            "exactly one King",
        ),
        (
            "8k/9/9/13/13/13/13/13/13/9/9/K7q b - 0 1",
            "not to move is in check",
        ),
        (
            "8k/9/9/13/13/13/13/13/13/9/9/K8 w c5 0 1",
            "no Pawn or Disk",
        ),
        ("8k/9/9/13/13/13/13/13/13/9/9/K8 w j1 0 1", "not a square"),
        ("8k/9/9/13/13/13/13/13/13/9/9/K8 x - 0 1", "side to move"),
        ("8k/9/9/13/13/13/13/13/13/9/9/K8 w - z 1", "capture clock"),
        ("8k/9/9/13/13/13/13/13/13/9/9/K8 w - 0 0", "fullmove"),
        ("8k/9/9/13/13/13/13/13/13/9/9/K8 w - 0", "5 fields"),
        (
            "8k/9/9/13/13/13/13/13/13/9/9/X8 w - 0 1",
            "unknown piece letter",
        ),
        ("", "5 fields"),
    ];
    for (fen, reason) in cases {
        match Position::from_fen(fen) {
            Ok(_) => panic!("accepted {fen}"),
            Err(e) => assert!(e.0.contains(reason), "{fen}: {e} (expected '{reason}')"),
        }
    }
    let p = Position::startpos();
    let h = History::new();
    for bad in [
        "",
        "e3",
        "e3e",
        "z1a1",
        "a1j1",
        "e3e5",
        "e3e4x",
        "a10a1",
        "0000",
        "€€€€",
    ] {
        assert!(p.parse_move(&h, bad).is_err(), "{bad}");
    }
}

#[test]
fn outcomes_and_draw_rules() {
    let h = History::new();
    let bare = Position::from_fen("8k/9/9/13/13/13/13/13/13/9/1C7/K8 w - 0 1").unwrap();
    assert_eq!(
        bare.outcome(&h),
        Some(Outcome::Draw(Termination::InsufficientMaterial))
    );
    let dead = Position::from_fen("7kD/9/9/13/13/13/13/13/13/9/9/K8 w - 0 1").unwrap();
    assert!(dead.insufficient_material());
    let fifty = Position::from_fen("8k/9/9/13/13/13/13/13/13/9/R8/K8 w - 100 80").unwrap();
    assert_eq!(
        fifty.outcome(&h),
        Some(Outcome::Draw(Termination::FiftyMoves))
    );
    let m = Position::from_fen("8k/9/9/13/13/13/13/13/13/9/1q7/K1q6 w - 0 1").unwrap();
    assert_eq!(
        m.outcome(&h),
        Some(Outcome::Win(Color::Black, Termination::Checkmate))
    );
    // Plain repetition is no draw; endless check is.
    let state = crate::game::GameState::<Position>::from_setup(
        Some("8k/9/9/13/13/13/13/13/13/9/R8/K8 w - 0 1"),
        &[
            "a2b2", "m12l12", "b2a2", "l12m12", "a2b2", "m12l12", "b2a2", "l12m12",
        ],
    )
    .unwrap();
    assert_eq!(state.outcome(), None);
    assert!(
        !state
            .position
            .is_rule_draw(&state.history, state.position.repetition_key())
    );
    // Endless check: Black, to move, was in check in every position with
    // Black to move since the first occurrence.
    let checked = Position::from_fen("6m1k/9/7N^1/13/13/13/13/13/13/9/9/K8 b - 0 1").unwrap();
    assert!(checked.in_check());
    let other = Position::startpos();
    let mut h = History::new();
    for _ in 0..2 {
        h.push(checked.rep_key());
        h.push(other.rep_key());
    }
    assert_eq!(
        checked.outcome(&h),
        Some(Outcome::Draw(Termination::Repetition))
    );
    assert!(checked.is_rule_draw(&h, checked.repetition_key()));
    let quiet = Position::from_fen("6m1k/9/9/13/13/13/13/13/13/9/9/K8 b - 0 1").unwrap();
    let mut h = History::new();
    for _ in 0..2 {
        h.push(quiet.rep_key());
        h.push(other.rep_key());
    }
    assert_eq!(quiet.outcome(&h), None);
    assert!(!quiet.is_rule_draw(&h, quiet.repetition_key()));
}

/// A middlegame from a 1+0.01 match where the engine lost on time: a
/// depth-1 search took 60,606 nodes (seldepth 29) because the quiescence
/// search tried every capture, however losing.
const CAPTURE_RICH: &str = "1pp1wrgmk/2dpnbecq/3dpnabf/9aner/P8dpn1/PD7pd1w/1PD8dp/WNPDN8/RE1A8p/FBANPDWP1/QCEBNPD2/KMGR2P2 w g1f2g2e3f3c5d5b6c6l6m6a7b7k7a8j8k8h10i10g11h11f12g12 6 4";
const CAPTURE_RICH_MOVES: &str = "g3i5 j9i9 e5f3 l8k6 i5k7 i9h9 d4d5 m7j8 d5f7d m9m7 k7i9 i10g10 b5d6 h9f7 d6f7 j7j6 c3f6 k10g6 f6e7 m7h7 i9j6 h7h3 e2g3 j11g8 b3e6 i12h9 a2d5 j10i8 j6i9";

fn capture_rich() -> crate::game::GameState<Position> {
    let moves: Vec<&str> = CAPTURE_RICH_MOVES.split_whitespace().collect();
    crate::game::GameState::<Position>::from_setup(Some(CAPTURE_RICH), &moves).unwrap()
}

/// One-thread alpha-beta search of [`capture_rich`] with `limits`.
fn search_capture_rich(limits: crate::search::Limits) -> crate::search::Outcome<Move> {
    use crate::search::{Memory, SearchKind, search_with_defaults};
    let mut table = Memory::new(SearchKind::AlphaBeta, 1).unwrap();
    search_with_defaults(&capture_rich(), &limits, &mut table)
}

#[test]
fn capture_estimate_subtracts_the_capturer_only_on_attacked_squares() {
    let moves: Vec<&str> = CAPTURE_RICH_MOVES.split_whitespace().collect();
    let (mut attacked, mut free) = (0, 0);
    for n in 0..=moves.len() {
        let state = crate::game::GameState::<Position>::from_setup(Some(CAPTURE_RICH), &moves[..n])
            .unwrap();
        let p = &state.position;
        let them = p.side.index() ^ 1;
        for mv in legal(p).into_iter().filter(|&m| p.is_tactical(m)) {
            let victim = eval::cell_value(p.board[mv.to() as usize]);
            let gain = eval::capture_gain_estimate(p, mv);
            if p.attacked(mv.to(), them) {
                attacked += 1;
                assert!(gain < victim, "{}", p.move_to_string(mv));
            } else {
                free += 1;
                assert_eq!(gain, victim, "{}", p.move_to_string(mv));
                assert!(p.see_at_least(mv, 0));
            }
        }
    }
    assert!(attacked > 0 && free > 0, "{attacked} {free}");
}

#[test]
fn depth_one_search_stays_small_in_a_capture_rich_middlegame() {
    let out = search_capture_rich(crate::search::Limits {
        depth: Some(1),
        ..Default::default()
    });
    assert!(out.best.is_some());
    assert!(out.nodes < 5_000, "depth 1 took {} nodes", out.nodes);
}

/// Stopped inside the first iteration (here by a node limit; on a clock
/// it is the hard limit), the search still answers with a legal move.
#[test]
fn search_stopped_inside_depth_one_plays_a_legal_move() {
    let out = search_capture_rich(crate::search::Limits {
        nodes: Some(40),
        ..Default::default()
    });
    let best = out.best.expect("a move");
    assert!(legal(&capture_rich().position).contains(&best));
    assert_eq!(out.depth, 0);
}
