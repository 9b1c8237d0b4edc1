//! The board view of a Nimrod position (see [`crate::board_view`]).
//!
//! The FIDE orientation is drawn as an upright 8x8 board; the corner
//! orientation as the same board turned by 45° so that each side's forward
//! vector points up the screen for White (h1 at the bottom, a8 at the top),
//! which is how the two players sit (rulebook 2.2, M12).

use super::Flavor;
use super::pieces::*;
use super::position::{FLAG_CASTLE, FLAG_DRAGON, FLAG_EP, Move, Position};
use crate::bitboard::{
    Bitboard, DIRECTIONS, Square, bit, file_of, rank_of, square, square_name, squares,
};
use crate::board_view::*;

/// Names by kind (rulebook 3.2, 5.1), per orientation.
const FIDE_KINDS: [&str; KIND_COUNT] = [
    "pawn",
    "knight",
    "hunter",
    "hawker",
    "huntress",
    "hawkress",
    "queen",
    "king",
    "acelander",
    "dragonhunter",
    "dragonhawker",
    "dragonhuntress",
    "dragonhawkress",
];
const CORNER_KINDS: [&str; KIND_COUNT] = [
    "pawn",
    "knight",
    "hunter",
    "hawker",
    "huntsman",
    "hawksman",
    "queen",
    "king",
    "acelander",
    "dragonhunter",
    "dragonhawker",
    "dragonhuntsman",
    "dragonhawksman",
];
const FIDE_NAMES: [&str; KIND_COUNT] = [
    "Pawn",
    "Knight",
    "Hunter",
    "Hawker",
    "Huntress",
    "Hawkress",
    "Queen",
    "King",
    "Acelander",
    "Dragonhunter",
    "Dragonhawker",
    "Dragonhuntress",
    "Dragonhawkress",
];
const CORNER_NAMES: [&str; KIND_COUNT] = [
    "Pawn",
    "Knight",
    "Hunter",
    "Hawker",
    "Huntsman",
    "Hawksman",
    "Queen",
    "King",
    "Acelander",
    "Dragonhunter",
    "Dragonhawker",
    "Dragonhuntsman",
    "Dragonhawksman",
];
const MOVES: [&str; KIND_COUNT] = [
    "steps forward (orthogonally), captures forward diagonally",
    "leaps (1,2)",
    "slides forward as a Rook, backward as a Bishop (3 directions)",
    "slides forward as a Bishop, backward as a Rook (3 directions)",
    "Hunter + slides sideways (5 directions)",
    "Hawker + slides sideways (5 directions)",
    "slides in all 8 directions",
    "steps in all 8 directions",
    "Knight + King (dragon Knight)",
    "Hunter + King steps it lacks (dragon)",
    "Hawker + King steps it lacks (dragon)",
    "5-way Hunter + King steps it lacks (dragon)",
    "5-way Hawker + King steps it lacks (dragon)",
];
/// The kinds a variant uses, in the order of the rulebook's tables.
const PLAIN_KINDS: [usize; 8] = [KING, QUEEN, KNIGHT, HUNTER, HAWKER, HUNTER5, HAWKER5, PAWN];
const DRAGON_KINDS: [usize; 5] = [
    ACELANDER,
    DRAGONHUNTER,
    DRAGONHAWKER,
    DRAGONHUNTER5,
    DRAGONHAWKER5,
];
/// Largest file or rank index.
const EDGE: i32 = 7;
/// d4: the square movement vectors are read from.
const CENTRE: (i32, i32) = (3, 3);

impl<F: Flavor> Position<F> {
    fn kind_name(kind: usize) -> &'static str {
        if F::CORNER {
            CORNER_KINDS[kind]
        } else {
            FIDE_KINDS[kind]
        }
    }

    fn display_name(kind: usize) -> &'static str {
        if F::CORNER {
            CORNER_NAMES[kind]
        } else {
            FIDE_NAMES[kind]
        }
    }

    fn letter_of(color: usize, kind: usize) -> char {
        let l = Self::letters()[kind] as char;
        if color == 0 {
            l
        } else {
            l.to_ascii_lowercase()
        }
    }

    /// A kind with White's movement vectors read from the rules' tables
    /// (from d4, where every step and leap stays on the board).
    fn piece_info(kind: usize) -> PieceInfo {
        let t = Self::tables();
        let centre = square(CENTRE.0, CENTRE.1);
        let vectors = |bb: Bitboard| -> Vec<[i32; 2]> {
            squares(bb)
                .map(|s| [file_of(s) - CENTRE.0, rank_of(s) - CENTRE.1])
                .collect()
        };
        let rays = (0..DIRECTIONS.len())
            .filter(|&d| t.slide_dirs[0][kind] & (1 << d) != 0)
            .map(|d| [DIRECTIONS[d].0, DIRECTIONS[d].1])
            .collect();
        let (steps, captures) = if kind == PAWN {
            (
                vectors(t.pawn_push[0][centre as usize]),
                vectors(t.pawn_capture[0][centre as usize]),
            )
        } else {
            (vectors(t.steps[0][kind][centre as usize]), Vec::new())
        };
        PieceInfo {
            kind: Self::kind_name(kind),
            letter: Self::letters()[kind] as char,
            name: Self::display_name(kind),
            moves: MOVES[kind],
            rays,
            steps,
            captures,
        }
    }

    /// Drawing coordinates: upright, or turned so White's forward (−1,+1)
    /// points up.
    fn draw_at(x: i32, y: i32) -> (i32, i32) {
        if F::CORNER {
            (x + y, y - x + EDGE)
        } else {
            (x, y)
        }
    }

    fn cell_view(&self, sq: Square) -> CellView {
        let (x, y) = (file_of(sq), rank_of(sq));
        let (draw_x, draw_y) = Self::draw_at(x, y);
        let t = Self::tables();
        let mut regions = Vec::new();
        if t.promotion[0] & bit(sq) != 0 {
            regions.push("promotion-white");
        }
        if t.promotion[1] & bit(sq) != 0 {
            regions.push("promotion-black");
        }
        if self.canonical_ep() == Some(sq) {
            regions.push("en-passant");
        }
        let p = self.board[sq as usize];
        let occupants = if p == EMPTY {
            Vec::new()
        } else {
            let (color, kind) = (piece_color(p), piece_kind(p));
            vec![Occupant {
                kind: Self::kind_name(kind),
                letter: Self::letter_of(color, kind),
                color: Some(Side::from_index(color)),
                flags: Vec::new(),
            }]
        };
        CellView {
            name: square_name(sq),
            x,
            y,
            draw_x,
            draw_y,
            // a1 is dark, as in chess.
            shade: if (x + y) % 2 == 0 {
                Shade::Dark
            } else {
                Shade::Light
            },
            regions,
            occupants,
            ichor: None,
        }
    }

    /// The position described for drawing.
    pub fn view(&self) -> BoardView {
        let mut cells = Vec::with_capacity(64);
        for y in 0..=EDGE {
            for x in 0..=EDGE {
                cells.push(self.cell_view(square(x, y)));
            }
        }
        let mut effects = Vec::new();
        let checkers = self.checkers();
        if checkers != 0 {
            effects.push(Effect::Check {
                king: square_name(self.king[self.side.index()]),
                checkers: squares(checkers).map(square_name).collect(),
            });
        }
        let dragon: &[usize] = if F::DRAGON { &DRAGON_KINDS } else { &[] };
        let pieces = PLAIN_KINDS
            .iter()
            .chain(dragon)
            .map(|&k| Self::piece_info(k))
            .collect();
        let extent = if F::CORNER { 2 * EDGE } else { EDGE };
        BoardView {
            variant: F::NAME,
            geometry: Geometry {
                files: 8,
                ranks: 8,
                cell_shape: if F::CORNER {
                    CellShape::Diamond
                } else {
                    CellShape::Square
                },
                width: extent,
                height: extent,
                file_step: if F::CORNER { [1, -1] } else { [1, 0] },
                rank_step: [F::CORNER as i32, 1],
            },
            side_names: ["White", "Black"],
            side_to_move: self.side.into(),
            cells,
            effects,
            pieces,
        }
    }

    /// A legal move described for drawing.
    pub fn describe(&self, mv: Move, notation: String) -> MoveView {
        let moving = self.board[mv.from() as usize];
        let captures = self.board[mv.to() as usize] != EMPTY;
        let (kind, label) = if let Some(promo) = mv.promotion() {
            (
                "promotion",
                format!("promote to {}", Self::display_name(promo)),
            )
        } else if mv.flag() == FLAG_DRAGON {
            let into = dragon_of(piece_kind(moving)).unwrap_or(piece_kind(moving));
            ("promotion", format!("becomes {}", Self::display_name(into)))
        } else if mv.flag() == FLAG_CASTLE {
            let side = if file_of(mv.to()) > file_of(mv.from()) {
                "O-O"
            } else {
                "O-O-O"
            };
            ("castle", format!("castle {side}"))
        } else if mv.flag() == FLAG_EP {
            ("en-passant", "capture en passant".to_string())
        } else if captures {
            ("capture", "capture".to_string())
        } else {
            ("move", "move".to_string())
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
    use crate::game::{Game, GameState, History, MoveBuffer};
    use crate::variants::nimrod::{DragonNimrod, Nimrod, NimrodCorner};

    fn occupant<'a>(view: &'a BoardView, square: &str) -> Option<&'a Occupant> {
        view.cell(square).and_then(|c| c.occupants.first())
    }

    #[test]
    fn fide_start_cells_and_pieces() {
        let view = Nimrod::startpos().board_view();
        assert_eq!(view.cells.len(), 64);
        assert_eq!(view.geometry.cell_shape, CellShape::Square);
        let a1 = occupant(&view, "a1").unwrap();
        assert_eq!(
            (a1.kind, a1.letter, a1.color),
            ("hawkress", 'W', Some(Side::White))
        );
        let h8 = occupant(&view, "h8").unwrap();
        assert_eq!(
            (h8.kind, h8.letter, h8.color),
            ("huntress", 'u', Some(Side::Black))
        );
        assert_eq!(occupant(&view, "f1").unwrap().kind, "hawker");
        assert_eq!(occupant(&view, "b1").unwrap().kind, "hunter");
        assert!(occupant(&view, "e4").is_none());
        let pieces: usize = view.cells.iter().map(|c| c.occupants.len()).sum();
        assert_eq!(pieces, 32);
        assert!(
            view.cell("e8")
                .unwrap()
                .regions
                .contains(&"promotion-white")
        );
        assert_eq!(view.cell("a1").unwrap().shade, Shade::Dark);
        // Movement from the rules' tables: the Hunter slides N, SE, SW.
        let hunter = view.pieces.iter().find(|p| p.kind == "hunter").unwrap();
        let mut rays = hunter.rays.clone();
        rays.sort();
        assert_eq!(rays, [[-1, -1], [0, 1], [1, -1]]);
        let knight = view.pieces.iter().find(|p| p.kind == "knight").unwrap();
        assert_eq!(knight.steps.len(), 8);
        // No dragon kinds in the legend of plain Nimrod; all five in Dragon.
        assert_eq!(view.pieces.len(), 8);
        assert_eq!(DragonNimrod::startpos().board_view().pieces.len(), 13);
    }

    #[test]
    fn corner_start_is_turned_with_corner_names() {
        let view = NimrodCorner::startpos().board_view();
        assert_eq!(view.geometry.cell_shape, CellShape::Diamond);
        let h1 = view.cell("h1").unwrap();
        assert_eq!(h1.occupants[0].kind, "king");
        // h1 at the bottom, a8 at the top.
        assert_eq!(h1.draw_y, 0);
        assert_eq!(view.cell("a8").unwrap().draw_y, 14);
        assert_eq!(occupant(&view, "f1").unwrap().kind, "huntsman");
        assert_eq!(occupant(&view, "h2").unwrap().kind, "hawksman");
        assert!(
            view.cell("a4")
                .unwrap()
                .regions
                .contains(&"promotion-white")
        );
        assert!(
            view.cell("h4")
                .unwrap()
                .regions
                .contains(&"promotion-black")
        );
    }

    #[test]
    fn check_and_move_descriptions() {
        // E9: six promotion choices share b7-b8.
        let fen = "w3k2u/1P4P1/8/8/8/8/1p4p1/W3K2U w - - 0 1";
        let pos = Nimrod::from_fen(fen).unwrap();
        let mut moves = <Nimrod as Game>::Moves::default();
        pos.legal_moves(&History::new(), &mut moves);
        let promos: Vec<MoveView> = moves
            .as_slice()
            .iter()
            .map(|&m| pos.move_view(m))
            .filter(|v| v.from == "b7" && v.to == "b8")
            .collect();
        assert_eq!(promos.len(), 6);
        assert!(promos.iter().all(|v| v.kind == "promotion"));
        assert!(promos.iter().any(|v| v.label == "promote to Hawkress"));
        // A Black Hunter slides forward (down the e-file) onto e1.
        let checked = Nimrod::from_fen("4k3/8/8/4h3/8/8/8/4K3 w - - 0 1").unwrap();
        let view = checked.board_view();
        assert!(view.effects.contains(&Effect::Check {
            king: "e1".into(),
            checkers: vec!["e5".into()],
        }));
        // Castling is labelled.
        let state =
            GameState::<Nimrod>::from_setup(Some("w3k2u/8/8/8/8/8/8/W3K2U w KQkq - 0 1"), &[])
                .unwrap();
        let castles: Vec<String> = state
            .legal_moves()
            .as_slice()
            .iter()
            .map(|&m| state.position.move_view(m))
            .filter(|v| v.kind == "castle")
            .map(|v| v.label)
            .collect();
        assert_eq!(castles.len(), 2);
        assert!(castles.contains(&"castle O-O-O".to_string()));
    }
}
