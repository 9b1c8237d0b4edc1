//! A rules-level description of a position for anything that draws it: the
//! web board (`ghast serve`) and the CECP adapter's board text.
//!
//! Each game fills these plain types from its own position
//! ([`Game::board_view`](crate::game::Game::board_view),
//! [`Game::move_view`](crate::game::Game::move_view)); effects such as Ghast
//! fields or compulsions come from the rules' own functions, so a front end
//! never needs a second copy of the rules. Nothing here depends on the
//! search or the engine.

use crate::game::Color;
use serde::Serialize;

/// A side, as the views name it: `"white"` / `"black"` (Nemoroth's
/// Alabaster / Obsidian are `"white"` / `"black"` too, see
/// [`BoardView::side_names`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

impl Side {
    /// The side of colour index 0 (White) or 1 (Black).
    pub fn from_index(index: usize) -> Side {
        if index == 0 { Side::White } else { Side::Black }
    }
}

/// How cells are drawn: axis-aligned squares, or diamonds (a board turned
/// by 45°, as Vyrémorn is played and as Nimrod's corner orientation sits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CellShape {
    Square,
    Diamond,
}

/// The board's extent and drawing layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Geometry {
    /// Files and ranks of the game's coordinates (the bounding box).
    pub files: u32,
    pub ranks: u32,
    pub cell_shape: CellShape,
    /// Extent of the drawing coordinates: every cell centre has
    /// `0 <= draw_x <= width` and `0 <= draw_y <= height`; a cell spans
    /// one unit either side of its centre for diamonds and half a unit for
    /// squares. `draw_y` grows upwards, towards the second player.
    pub width: i32,
    pub height: i32,
    /// Drawing vectors of one step along a file (x + 1) and along a rank
    /// (y + 1), to draw game-frame vectors such as [`PieceInfo::rays`].
    pub file_step: [i32; 2],
    pub rank_step: [i32; 2],
}

/// A square's shade on a physical board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Shade {
    Light,
    Dark,
}

/// One piece on a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Occupant {
    /// Stable lowercase name of the kind: `"hunter"`, `"disk"`, `"leaf-pile"`.
    pub kind: &'static str,
    /// The letter the game's position string uses (case gives the colour),
    /// e.g. `'U'`, `'d'`, `'M'`.
    pub letter: char,
    /// `None` for neutral pieces (Nemoroth's Mummy).
    pub color: Option<Side>,
    /// State of this piece, in a stable order: `"statue"`, `"digesting"`,
    /// `"promoted"`, `"rider"` (stands on the Disk listed before it),
    /// `"mounted"` (a Disk carrying a rider), `"opening-right"`.
    pub flags: Vec<&'static str>,
}

/// One square of the board (holes are not cells).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CellView {
    /// The square's name in the game's notation.
    pub name: String,
    /// Game coordinates: file (0 = a) and rank (0 = rank 1).
    pub x: i32,
    pub y: i32,
    /// Drawing coordinates of the cell centre (see [`Geometry`]).
    pub draw_x: i32,
    pub draw_y: i32,
    pub shade: Shade,
    /// Regions and marks: `"white-court"`, `"field"`, `"black-court"`,
    /// `"promotion-white"`, `"promotion-black"`, `"en-passant"`.
    pub regions: Vec<&'static str>,
    /// Occupants bottom to top (a Disk before its rider; a Nemoroth stack
    /// in its canonical order).
    pub occupants: Vec<Occupant>,
    /// Remaining plies of ichor on the square (Nemoroth), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ichor: Option<u32>,
}

/// Why a Nemoroth piece is compelled (rulebook 3.12).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Compulsion {
    /// MO: shares its square.
    Mo,
    /// ICH: on ichor with `plies` remaining (at least 2).
    Ich { plies: u32 },
    /// FL: inside the field of the enemy Ghast on `ghast`, at squared
    /// distance `d2`; it must get strictly farther.
    Fl { ghast: String, d2: u32 },
}

/// Forces the position exerts that a physical board does not show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Effect {
    /// A Ghast's field (every square within Chebyshev distance 2).
    GhastField {
        ghast: String,
        owner: Side,
        statue: bool,
        squares: Vec<String>,
    },
    /// The squares a Basilisk sees (and petrifies).
    BasiliskGaze {
        basilisk: String,
        owner: Side,
        statue: bool,
        squares: Vec<String>,
    },
    /// A compelled piece of the side to move: the occupant at `index` of
    /// the cell `square`, with every reason.
    Compelled {
        square: String,
        index: usize,
        letter: char,
        reasons: Vec<Compulsion>,
    },
    /// The side to move's King is attacked by the pieces on `checkers`.
    Check { king: String, checkers: Vec<String> },
}

/// A kind of piece the variant uses, for a legend.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceInfo {
    pub kind: &'static str,
    /// White's (Alabaster's) letter; the neutral Mummy's is `'M'`.
    pub letter: char,
    /// The rulebook's name, e.g. "Huntress", "Grand Bard".
    pub name: &'static str,
    /// How it moves, in a few words.
    pub moves: &'static str,
    /// White's slide directions as (dx, dy) in game coordinates (Black's
    /// are negated), where the game draws pieces by their movement.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rays: Vec<[i32; 2]>,
    /// White's single steps and leaps (moving and capturing).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<[i32; 2]>,
    /// White's capture-only steps (a Pawn's), where they differ.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub captures: Vec<[i32; 2]>,
}

impl PieceInfo {
    /// A kind described by name and words only.
    pub fn named(
        kind: &'static str,
        letter: char,
        name: &'static str,
        moves: &'static str,
    ) -> PieceInfo {
        PieceInfo {
            kind,
            letter,
            name,
            moves,
            rays: Vec::new(),
            steps: Vec::new(),
            captures: Vec::new(),
        }
    }
}

/// Everything needed to draw a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    pub variant: &'static str,
    pub geometry: Geometry,
    /// How the game names its two sides, e.g. `["White", "Black"]` or
    /// `["Alabaster", "Obsidian"]`.
    pub side_names: [&'static str; 2],
    pub side_to_move: Side,
    pub cells: Vec<CellView>,
    pub effects: Vec<Effect>,
    /// Every kind of the variant, in the game's own order.
    pub pieces: Vec<PieceInfo>,
}

impl BoardView {
    /// The cell of the named square.
    pub fn cell(&self, name: &str) -> Option<&CellView> {
        self.cells.iter().find(|c| c.name == name)
    }
}

/// One legal move, described for a front end that must not parse the
/// game's notation: where it starts and ends, and what distinguishes it
/// from other moves between the same squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveView {
    /// The move in canonical notation.
    pub notation: String,
    pub from: String,
    /// Equal to `from` for moves that stay (a Nemoroth scream).
    pub to: String,
    /// `"move"`, `"capture"`, `"promotion"`, `"castle"`, `"en-passant"`,
    /// `"disk"`, `"mount"`, `"turn"`, `"extricate"`, `"scream"`.
    pub kind: &'static str,
    /// A short description that tells apart moves sharing from and to,
    /// e.g. "promote to Hawkress", "the Disk moves, carrying the Knight",
    /// "scream: push d5, then e5".
    pub label: String,
    /// Further squares the move acts on, in order (a scream's pushed
    /// squares).
    pub squares: Vec<String>,
}

impl MoveView {
    /// A move from one square to another that acts on no further squares.
    pub fn step(
        notation: String,
        from: String,
        to: String,
        kind: &'static str,
        label: String,
    ) -> MoveView {
        MoveView {
            notation,
            from,
            to,
            kind,
            label,
            squares: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Game;
    use crate::variants::nemoroth::Nemoroth;

    #[test]
    fn serialises_with_stable_names() {
        let pos = Nemoroth::from_fen("8/8/8/8/4(HzM)3/8/H7/8 a - 0").unwrap();
        let json = serde_json::to_value(pos.board_view()).unwrap();
        assert_eq!(json["side_to_move"], "white");
        assert_eq!(json["geometry"]["cell_shape"], "square");
        let e4 = &json["cells"][28];
        assert_eq!(e4["name"], "e4");
        assert_eq!(e4["occupants"][1]["kind"], "zombie");
        assert_eq!(e4["occupants"][2]["color"], serde_json::Value::Null);
        assert!(e4.get("ichor").is_none());
        let compelled = &json["effects"][0];
        assert_eq!(compelled["type"], "compelled");
        assert_eq!(compelled["reasons"][0]["type"], "mo");
    }
}
