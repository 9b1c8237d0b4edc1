//! The board view of a Vyrémorn position (see [`crate::board_view`]): the
//! 132 squares drawn diagonally as the rulebook plays them (2.1: screen
//! column x − y, screen row x + y, White at the bottom), each cell marked
//! with its region; a Disk and its rider are two occupants.

use super::geometry::*;
use super::position::*;
use crate::board_view::{
    BoardView, CellShape, CellView, Effect, Geometry as Layout, MoveView, Occupant, PieceInfo,
    Shade, Side,
};

// Stable kind names: the params file's (`tuning/vyremorn.params`), by
// kind − 1, the Disk last.
use super::eval::KIND_NAMES;
const DISK: usize = 13;

/// Display names by kind (index 0 unused), rulebook 3.2.
const NAMES: [&str; 14] = [
    "",
    "King",
    "Queen",
    "Magus",
    "Citadel",
    "Grand Bard",
    "Flamen",
    "Bard",
    "Wing",
    "Knight",
    "Rook",
    "Arbalest",
    "Elephant",
    "Pawn",
];
const MOVES: [&str; 14] = [
    "",
    "steps to all 8 neighbours; castles onto its Citadel; extricates with its Magus",
    "slides in all 8 directions",
    "jumps 1, 2 or 3 squares in 8 directions; never stands in the Field",
    "steps to the flats in its own Court without capturing; cannot be captured",
    "slides diagonally, steps orthogonally (Bishop + Wazir)",
    "slides orthogonally, steps diagonally (Rook + Ferz)",
    "slides diagonally",
    "(3,1) and (2,2) jumps; steps orthogonally without capturing",
    "(2,1) jumps",
    "slides orthogonally",
    "slides along its forward point; steps to the flats; promoted outside its Court",
    "steps diagonally, jumps two squares orthogonally",
    "steps forward to the flats, captures on the forward point; promoted outside its Court",
];
const DISK_MOVES: &str =
    "steps to the forward point, captures on the forward flats; carries one rider";
/// Shift that makes the smallest screen column (a9, x − y = −8) zero.
const COLUMN_SHIFT: i32 = 8;
/// Largest screen column (m4) and row (m12) after the shift.
const WIDTH: i32 = 17;
const HEIGHT: i32 = 23;
/// The bypass diagonals beside the Field (rulebook 2.1), as x − y.
const BYPASS: [i32; 2] = [-5, 6];

fn region_name(region: u8) -> &'static str {
    match region {
        WHITE_COURT => "white-court",
        FIELD => "field",
        _ => "black-court",
    }
}

fn side_letter(letter: u8, color: usize) -> char {
    let l = letter as char;
    if color == 0 {
        l
    } else {
        l.to_ascii_lowercase()
    }
}

impl Position {
    /// Occupants bottom to top: the Disk, then the piece (its rider).
    fn occupants(&self, s: Sq) -> Vec<Occupant> {
        let c = self.board[s as usize];
        let (kind, disk) = (kind_of(c), disk_of(c));
        let mut out = Vec::new();
        if disk != 0 {
            let color = disk as usize - 1;
            let mut flags = Vec::new();
            if kind != 0 {
                flags.push("mounted");
            }
            if self.has_right(s) {
                flags.push("opening-right");
            }
            out.push(Occupant {
                kind: KIND_NAMES[DISK],
                letter: side_letter(b'D', color),
                color: Some(Side::from_index(color)),
                flags,
            });
        }
        if kind != 0 {
            let color = pcolor(c);
            let mut flags = Vec::new();
            if disk != 0 {
                flags.push("rider");
            }
            if (kind == PAWN || kind == ARBALEST) && Position::promoted(color, s) {
                flags.push("promoted");
            }
            if kind == PAWN && self.has_right(s) {
                flags.push("opening-right");
            }
            out.push(Occupant {
                kind: KIND_NAMES[kind as usize - 1],
                letter: side_letter(LETTERS[kind as usize], color),
                color: Some(Side::from_index(color)),
                flags,
            });
        }
        out
    }

    fn cell_view(&self, s: Sq) -> CellView {
        let (x, y) = (x_of(s), y_of(s));
        let mut regions = vec![region_name(geo().region[s as usize])];
        if BYPASS.contains(&(x - y)) {
            regions.push("bypass");
        }
        CellView {
            name: square_name(s),
            x,
            y,
            draw_x: x - y + COLUMN_SHIFT,
            draw_y: x + y,
            // a1 is light (rulebook V2).
            shade: if (x + y) % 2 == 0 {
                Shade::Light
            } else {
                Shade::Dark
            },
            regions,
            occupants: self.occupants(s),
            ichor: None,
        }
    }

    /// The position described for drawing.
    pub fn view(&self) -> BoardView {
        let cells = geo().squares.iter().map(|&s| self.cell_view(s)).collect();
        let mut effects = Vec::new();
        let checkers = self.checkers();
        if !checkers.is_empty() {
            effects.push(Effect::Check {
                king: square_name(self.king[self.side.index()]),
                checkers: checkers.into_iter().map(square_name).collect(),
            });
        }
        let mut pieces: Vec<PieceInfo> = (1..NAMES.len())
            .map(|k| PieceInfo::named(KIND_NAMES[k - 1], LETTERS[k] as char, NAMES[k], MOVES[k]))
            .collect();
        pieces.push(PieceInfo::named(KIND_NAMES[DISK], 'D', "Disk", DISK_MOVES));
        BoardView {
            variant: "vyremorn",
            geometry: Layout {
                files: FILES as u32,
                ranks: RANKS as u32,
                cell_shape: CellShape::Diamond,
                width: WIDTH,
                height: HEIGHT,
                // Column x − y, row x + y.
                file_step: [1, 1],
                rank_step: [-1, 1],
            },
            side_names: ["White", "Black"],
            side_to_move: self.side.into(),
            cells,
            effects,
            pieces,
        }
    }

    /// A legal move described for drawing; the label tells a Disk move from
    /// its rider's move between the same squares.
    pub fn describe(&self, mv: Move, notation: String) -> MoveView {
        let from = self.board[mv.from() as usize];
        let to = self.board[mv.to() as usize];
        let piece = NAMES[kind_of(from) as usize];
        let captures = mv.has(F_CAPTURE);
        let (kind, label) = if mv.has(F_CASTLE) {
            (
                "castle",
                "castle: the King takes the Citadel's square".to_string(),
            )
        } else if mv.has(F_EXTRICATE) {
            (
                "extricate",
                "extricate: the King and the Magus swap".to_string(),
            )
        } else if mv.has(F_DISK) {
            let mut label = "the Disk moves".to_string();
            if kind_of(from) != 0 {
                label.push_str(&format!(", carrying the {piece}"));
            }
            if captures {
                label.push_str(" and captures");
            }
            ("disk", label)
        } else {
            let dismounts = disk_of(from) != 0;
            let verb = if dismounts { " dismounts" } else { " moves" };
            let mut label = format!("the {piece}{verb}");
            let kind = if captures {
                // A mounted enemy Disk turns unless a Pawn takes it (3.6).
                let turns = kind_of(to) != 0 && disk_of(to) != 0 && kind_of(from) != PAWN;
                if turns {
                    label.push_str(", takes the rider and turns the Disk");
                    "turn"
                } else {
                    label.push_str(" and captures");
                    "capture"
                }
            } else if disk_of(to) != 0 {
                label.push_str(" onto the Disk");
                "mount"
            } else {
                "move"
            };
            (kind, label)
        };
        MoveView::step(
            notation,
            square_name(mv.from()),
            square_name(mv.to()),
            kind,
            label,
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::board_view::*;
    use crate::game::{Game, History, MoveBuffer};
    use crate::variants::vyremorn::Vyremorn;

    fn kinds(view: &BoardView, square: &str) -> Vec<&'static str> {
        view.cell(square)
            .unwrap()
            .occupants
            .iter()
            .map(|o| o.kind)
            .collect()
    }

    #[test]
    fn start_has_132_squares_and_the_rulebook_array() {
        let view = Vyremorn::startpos().board_view();
        assert_eq!(view.cells.len(), 132);
        assert_eq!(view.geometry.cell_shape, CellShape::Diamond);
        let count = |region: &str| {
            view.cells
                .iter()
                .filter(|c| c.regions.contains(&region))
                .count()
        };
        assert_eq!(count("field"), 30);
        assert_eq!(count("white-court"), 51);
        assert_eq!(count("black-court"), 51);
        // Holes are not cells.
        assert!(view.cell("j1").is_none() && view.cell("a10").is_none());
        assert_eq!(kinds(&view, "a1"), ["king"]);
        assert_eq!(kinds(&view, "b2"), ["citadel"]);
        assert_eq!(kinds(&view, "c1"), ["grandbard"]);
        assert_eq!(kinds(&view, "m12"), ["king"]);
        let disk = &view.cell("b7").unwrap().occupants[0];
        assert_eq!((disk.kind, disk.letter), ("disk", 'D'));
        assert_eq!(disk.flags, ["opening-right"]);
        assert_eq!(view.cell("g11").unwrap().occupants[0].letter, 'd');
        let pieces: usize = view.cells.iter().map(|c| c.occupants.len()).sum();
        assert_eq!(pieces, 66);
        // Played diagonally: a1 at the bottom, m12 at the top.
        let a1 = view.cell("a1").unwrap();
        assert_eq!((a1.draw_y, a1.shade), (0, Shade::Light));
        assert_eq!(view.cell("m12").unwrap().draw_y, 23);
        assert!(view.cells.iter().all(|c| c.draw_x >= 0
            && c.draw_x <= view.geometry.width
            && c.draw_y <= view.geometry.height));
    }

    #[test]
    fn rider_promotion_and_disk_moves() {
        // A Knight on its own unmoved Disk at c5 (rulebook example).
        let pos = Vyremorn::from_fen("8k/9/9/13/13/13/13/2N^10/13/9/9/K8 w c5 0 1").unwrap();
        let view = pos.board_view();
        let c5 = &view.cell("c5").unwrap().occupants;
        assert_eq!(c5.len(), 2);
        assert_eq!(
            (c5[0].kind, &c5[0].flags),
            ("disk", &vec!["mounted", "opening-right"])
        );
        assert_eq!((c5[1].kind, &c5[1].flags), ("knight", &vec!["rider"]));
        let mut moves = <Vyremorn as Game>::Moves::default();
        pos.legal_moves(&History::new(), &mut moves);
        let views: Vec<MoveView> = moves.as_slice().iter().map(|&m| pos.move_view(m)).collect();
        let disk = views.iter().find(|v| v.notation == "c5d6d").unwrap();
        assert_eq!(disk.kind, "disk");
        assert_eq!(disk.label, "the Disk moves, carrying the Knight");
        let off = views.iter().find(|v| v.notation == "c5d7").unwrap();
        assert_eq!(off.label, "the Knight dismounts");
        // A promoted Pawn in the Field (f5).
        let field = Vyremorn::from_fen("8k/9/9/13/13/13/4n1n6/5P7/6n6/9/9/K8 w - 0 1").unwrap();
        let view = field.board_view();
        let f5 = &view.cell("f5").unwrap().occupants[0];
        assert_eq!((f5.kind, &f5.flags), ("pawn", &vec!["promoted"]));
    }

    #[test]
    fn check_and_extricating() {
        let pos = Vyremorn::from_fen("8k/9/9/r12/13/13/13/13/13/9/1P7/K2M5 w - 0 1").unwrap();
        let view = pos.board_view();
        assert!(view.effects.contains(&Effect::Check {
            king: "a1".into(),
            checkers: vec!["a9".into()],
        }));
        let mut moves = <Vyremorn as Game>::Moves::default();
        pos.legal_moves(&History::new(), &mut moves);
        let swap = moves
            .as_slice()
            .iter()
            .map(|&m| pos.move_view(m))
            .find(|v| v.notation == "a1d1")
            .unwrap();
        assert_eq!(swap.kind, "extricate");
    }
}
