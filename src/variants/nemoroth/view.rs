//! The board view of a Nemoroth position (see [`crate::board_view`]):
//! every occupant of every stack, statues, digesting Leaf Piles, ichor with
//! its remaining plies, and the forces a physical board hides — Ghast
//! fields, Basilisk gaze and the compulsions of the side to move, taken from
//! the rules' own tables and [`Nemoroth::compulsions`].

use super::board::*;
use super::compulsion::{F_FL, F_ICH, F_MO};
use super::movegen::NMove;
use crate::bitboard::{Bitboard, square_name, squares};
use crate::board_view::*;

/// Names by kind (B G L A W H Z, then the Mummy), rulebook 3.1.
const KINDS: [&str; 8] = [
    "basilisk",
    "ghast",
    "leaf-pile",
    "go-away",
    "wounded-fiend",
    "human",
    "zombie",
    "mummy",
];
const NAMES: [&str; 8] = [
    "Basilisk",
    "Ghast",
    "Leaf Pile",
    "Go Away",
    "Wounded Fiend",
    "Human",
    "Zombie",
    "Mummy",
];
const MOVES: [&str; 8] = [
    "leaps (1,2) forward or steps diagonally back; petrifies what it sees",
    "leaps two squares diagonally; its field (distance 2) repels and compels",
    "steps in 8 directions; engulfs, digests, leaves a Mummy",
    "steps diagonally or leaps two orthogonally, or screams (pushes its neighbours)",
    "slides orthogonally, leaving ichor behind",
    "steps forward, diagonally forward or sideways; becomes a Zombie on the last rank",
    "steps in 8 directions, destroying everything there",
    "neutral and immobile",
];
/// Largest file or rank index.
const EDGE: i32 = 7;

fn sq_name(sq: usize) -> String {
    square_name(sq as u8)
}

fn names(bb: Bitboard) -> Vec<String> {
    squares(bb).map(square_name).collect()
}

fn occupant(code: u8) -> Occupant {
    let k = kind(code) as usize;
    if is_mummy(code) {
        return Occupant {
            kind: KINDS[k],
            letter: 'M',
            color: None,
            flags: Vec::new(),
        };
    }
    let mut flags = Vec::new();
    if is_statue(code) {
        flags.push("statue");
    }
    if is_digesting(code) {
        flags.push("digesting");
    }
    let l = KIND_LETTERS[k] as char;
    Occupant {
        kind: KINDS[k],
        letter: if owner(code) == 0 {
            l
        } else {
            l.to_ascii_lowercase()
        },
        color: Some(Side::from_index(owner(code))),
        flags,
    }
}

impl Nemoroth {
    fn cell_view(&self, sq: usize) -> CellView {
        let (x, y) = (fx(sq), fy(sq));
        CellView {
            name: sq_name(sq),
            x,
            y,
            draw_x: x,
            draw_y: y,
            shade: if (x + y) % 2 == 0 {
                Shade::Dark
            } else {
                Shade::Light
            },
            regions: Vec::new(),
            occupants: self.pieces(sq).iter().map(|&c| occupant(c)).collect(),
            ichor: (self.ichor[sq] > 0).then_some(self.ichor[sq] as u32),
        }
    }

    /// One effect per Ghast and per Basilisk instance (a stack may hold
    /// several).
    fn field_and_gaze(&self) -> Vec<Effect> {
        let mut effects = Vec::new();
        for sq in squares(self.ghasts() | self.basilisks()).map(|s| s as usize) {
            for &code in self.pieces(sq) {
                if is_mummy(code) {
                    continue;
                }
                let (who, statue) = (Side::from_index(owner(code)), is_statue(code));
                if kind(code) == K_G {
                    effects.push(Effect::GhastField {
                        ghast: sq_name(sq),
                        owner: who,
                        statue,
                        squares: names(T.field[sq]),
                    });
                } else if kind(code) == K_B {
                    effects.push(Effect::BasiliskGaze {
                        basilisk: sq_name(sq),
                        owner: who,
                        statue,
                        squares: names(T.sees[owner(code)][sq]),
                    });
                }
            }
        }
        effects
    }

    /// The compelled pieces of the side to move, by the rules' own
    /// compulsion set.
    fn compelled(&self) -> Vec<Effect> {
        let c = self.compulsions();
        let mut effects = Vec::new();
        for i in 0..c.n_pieces {
            let sq = c.start_sq[i] as usize;
            let code = c.tracker.code[i];
            // Identical pieces of one stack are separate entries: the k-th
            // entry for a code is the k-th such occupant.
            let earlier = (0..i)
                .filter(|&j| c.start_sq[j] as usize == sq && c.tracker.code[j] == code)
                .count();
            let index = self
                .pieces(sq)
                .iter()
                .enumerate()
                .filter(|&(_, &p)| p == code)
                .nth(earlier)
                .map_or(0, |(n, _)| n);
            let mut reasons = Vec::new();
            if c.flags[i] & F_MO != 0 {
                reasons.push(Compulsion::Mo);
            }
            if c.flags[i] & F_ICH != 0 {
                reasons.push(Compulsion::Ich {
                    plies: self.ichor[sq] as u32,
                });
            }
            if c.flags[i] & F_FL != 0 {
                for e in c.n_pieces..c.tracker.n {
                    let ghast = c.start_sq[e] as usize;
                    if T.field[ghast] & (1u64 << sq) != 0 {
                        reasons.push(Compulsion::Fl {
                            ghast: sq_name(ghast),
                            d2: T.d2[sq][ghast] as u32,
                        });
                    }
                }
            }
            effects.push(Effect::Compelled {
                square: sq_name(sq),
                index,
                letter: occupant(code).letter,
                reasons,
            });
        }
        effects
    }

    /// The position described for drawing.
    pub fn view(&self) -> BoardView {
        let mut cells = Vec::with_capacity(64);
        for y in 0..=EDGE {
            for x in 0..=EDGE {
                cells.push(self.cell_view((y * 8 + x) as usize));
            }
        }
        let mut effects = self.field_and_gaze();
        effects.extend(self.compelled());
        let pieces = (0..KINDS.len())
            .map(|k| {
                let letter = if k == K_M as usize {
                    'M'
                } else {
                    KIND_LETTERS[k] as char
                };
                PieceInfo::named(KINDS[k], letter, NAMES[k], MOVES[k])
            })
            .collect();
        BoardView {
            variant: "nemoroth",
            geometry: Geometry {
                files: 8,
                ranks: 8,
                cell_shape: CellShape::Square,
                width: EDGE,
                height: EDGE,
                file_step: [1, 0],
                rank_step: [0, 1],
            },
            side_names: ["Alabaster", "Obsidian"],
            side_to_move: self.side.into(),
            cells,
            effects,
            pieces,
        }
    }

    /// A legal move described for drawing: which occupant moves, or the
    /// scream's push order.
    pub fn describe(&self, mv: NMove, notation: String) -> MoveView {
        let from = mv.from();
        if mv.is_scream() {
            let (order, n) = mv.order();
            let pushed: Vec<String> = order[..n]
                .iter()
                .filter_map(|&d| {
                    let (dx, dy) = DIRS[d as usize];
                    sq_at(fx(from) + dx, fy(from) + dy).map(sq_name)
                })
                .collect();
            return MoveView {
                notation,
                from: sq_name(from),
                to: sq_name(from),
                kind: "scream",
                label: format!("scream: push {}", pushed.join(", then ")),
                squares: pushed,
            };
        }
        let mover = NAMES[mv.kind() as usize];
        let occupied = self.count(mv.to()) > 0;
        let (kind, label) = match (mv.kind(), occupied) {
            (K_Z, true) => ("capture", format!("the {mover} destroys everything there")),
            (K_L, true) => ("capture", format!("the {mover} engulfs")),
            _ => ("move", format!("the {mover} moves")),
        };
        MoveView::step(notation, sq_name(from), sq_name(mv.to()), kind, label)
    }
}

#[cfg(test)]
mod tests {
    use crate::board_view::*;
    use crate::game::{Game, GameState, MoveBuffer};
    use crate::variants::nemoroth::Nemoroth;

    #[test]
    fn start_position_cells_and_effects() {
        let view = Nemoroth::startpos().board_view();
        assert_eq!(view.cells.len(), 64);
        assert_eq!(view.side_names, ["Alabaster", "Obsidian"]);
        let kinds: Vec<&str> = ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]
            .iter()
            .map(|s| view.cell(s).unwrap().occupants[0].kind)
            .collect();
        assert_eq!(
            kinds,
            [
                "wounded-fiend",
                "go-away",
                "leaf-pile",
                "ghast",
                "basilisk",
                "leaf-pile",
                "go-away",
                "wounded-fiend"
            ]
        );
        assert_eq!(view.cell("d8").unwrap().occupants[0].letter, 'g');
        // Two Ghasts and two Basilisks; nobody compelled at the start.
        let fields = view
            .effects
            .iter()
            .filter(|e| matches!(e, Effect::GhastField { .. }))
            .count();
        assert_eq!(fields, 2);
        assert!(view.effects.contains(&Effect::BasiliskGaze {
            basilisk: "e1".into(),
            owner: Side::White,
            statue: false,
            squares: vec!["d3".into(), "f3".into()],
        }));
        assert!(
            !view
                .effects
                .iter()
                .any(|e| matches!(e, Effect::Compelled { .. }))
        );
    }

    #[test]
    fn ghast_basilisk_statues_and_compulsions() {
        // T1 after 2...Gd4: a statue Ghast on d4 compels b2, d2, f2 and the
        // Basilisk e5; d7 and f7 are statues.
        let state =
            GameState::<Nemoroth>::from_setup(None, &["e1d3", "d8b6", "d3e5", "b6d4"]).unwrap();
        let view = state.position.board_view();
        let d4 = &view.cell("d4").unwrap().occupants[0];
        assert_eq!((d4.kind, &d4.flags), ("ghast", &vec!["statue"]));
        assert_eq!(view.cell("d7").unwrap().occupants[0].flags, ["statue"]);
        let field = view
            .effects
            .iter()
            .find_map(|e| match e {
                Effect::GhastField {
                    ghast,
                    owner,
                    statue,
                    squares,
                } if ghast == "d4" => Some((*owner, *statue, squares.len())),
                _ => None,
            })
            .unwrap();
        assert_eq!(field, (Side::Black, true, 25));
        assert!(view.effects.contains(&Effect::BasiliskGaze {
            basilisk: "e5".into(),
            owner: Side::White,
            statue: false,
            squares: vec!["d4".into(), "f4".into(), "d7".into(), "f7".into()],
        }));
        let compelled: Vec<(String, Vec<Compulsion>)> = view
            .effects
            .iter()
            .filter_map(|e| match e {
                Effect::Compelled {
                    square, reasons, ..
                } => Some((square.clone(), reasons.clone())),
                _ => None,
            })
            .collect();
        let squares: Vec<&str> = compelled.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(squares, ["b2", "d2", "f2", "e5"]);
        assert_eq!(
            compelled[0].1,
            [Compulsion::Fl {
                ghast: "d4".into(),
                d2: 8
            }]
        );
    }

    #[test]
    fn stacks_ichor_and_screams() {
        // T2: a stack of a statue and a Mummy, a digesting Leaf Pile, ichor.
        let pos = Nemoroth::from_fen("8/8/3z4/1HH5/HA(phM)5/1dLH5/8/8 a b5=6,d2=6 0").unwrap();
        let view = pos.board_view();
        let c4: Vec<(&str, Vec<&str>)> = view
            .cell("c4")
            .unwrap()
            .occupants
            .iter()
            .map(|o| (o.kind, o.flags.clone()))
            .collect();
        assert_eq!(c4, [("human", vec!["statue"]), ("mummy", vec![])]);
        assert_eq!(view.cell("b3").unwrap().occupants[0].flags, ["digesting"]);
        assert_eq!(view.cell("b5").unwrap().ichor, Some(6));
        assert_eq!(view.cell("b6").unwrap().ichor, None);
        assert!(view.effects.contains(&Effect::Compelled {
            square: "b5".into(),
            index: 0,
            letter: 'H',
            reasons: vec![Compulsion::Ich { plies: 6 }],
        }));
        // T3: two screams of d6 differ only in their push order.
        let t3 =
            GameState::<Nemoroth>::from_setup(Some("8/8/3a4/3bW3/8/8/8/8 o - 0"), &[]).unwrap();
        let screams: Vec<MoveView> = t3
            .legal_moves()
            .as_slice()
            .iter()
            .map(|&m| t3.position.move_view(m))
            .filter(|v| v.kind == "scream")
            .collect();
        assert_eq!(screams.len(), 2);
        assert!(screams.iter().all(|v| v.from == "d6" && v.to == "d6"));
        assert!(
            screams
                .iter()
                .any(|v| v.label == "scream: push e5, then d5" && v.squares == ["e5", "d5"])
        );
    }
}
