//! Vyrémorn Chess (Nathan McDonald), exactly as `shared/rules/vyremorn.md`
//! defines it.
//!
//! # Board and encoding
//!
//! Two overlapping 9x9 squares inside a 13 x 12 box; square index
//! `y * 13 + x` (a1 = 0, m12 = 155). Holes (j1-m3, a10-d12) have indices but
//! never appear in a table. W = White Court, F = Field, B = Black Court,
//! `*` = bypass diagonal:
//!
//! ```text
//!         a   b   c   d   e   f   g   h   i   j   k   l   m
//!   12                    B   B  B*   B   B   B   B   B   B
//!   11                    B  B*   B   B   B   B   B   B   B
//!   10                   B*   B   B   B   B   B   B   B   B
//!    9    W   W   W  W*   F   F   F   F   F   B   B   B   B
//!    8    W   W  W*   W   F   F   F   F   F   B   B   B   B
//!    7    W  W*   W   W   F   F   F   F   F   B   B   B  B*
//!    6   W*   W   W   W   F   F   F   F   F   B   B  B*   B
//!    5    W   W   W   W   F   F   F   F   F   B  B*   B   B
//!    4    W   W   W   W   F   F   F   F   F  B*   B   B   B
//!    3    W   W   W   W   W   W   W   W  W*
//!    2    W   W   W   W   W   W   W  W*   W
//!    1    W   W   W   W   W   W  W*   W   W
//! ```
//!
//! Played diagonally: screen row = x + y, screen column = x - y, White at
//! the bottom (see [`Position::diagram`]).
//!
//! # Representation
//!
//! A mailbox (no padding: off-board steps come from tables) of 156 one-byte cells ([`position::Cell`]: piece
//! kind, its colour, and the Disk under it), plus the opening rights as a
//! 156-bit set, copied whole by `play` (about 190 bytes). All geometry is
//! precomputed in [`geometry`]: slide rays already cut at holes and by the
//! Field-crossing rule, jump targets with their alternative paths (holes
//! excluded, so one-way jumps are one-way), and reverse tables (built by
//! inverting the forward patterns) for the attack test. Legality is
//! copy-make plus the attack test on the mover's King.
//!
//! Bitboards over the box would need u128 or `[u64; 3]` with holes masked
//! and the Field rule and jump paths still table-driven. No bitboard
//! version was built to measure against: the mailbox keeps every rule in one
//! obvious place, and reaches about 7.6 M perft leaves/s (README, Speed).

pub mod eval;
pub mod geometry;
pub mod movegen;
pub mod position;
mod view;

use crate::game::{Color, Game, GameError, History, MoveBuffer, Outcome, Termination, err};
use geometry::*;
pub use movegen::{MAX_MOVES, Moves};
use position::*;
pub use position::{Move, Position, START_FEN};

/// The game type.
pub type Vyremorn = Position;

impl Position {
    /// The repetition key: hash of placement, side and opening rights, with
    /// bit 0 = side to move in check and bit 1 = side to move. Both are
    /// functions of those three fields, so the key still identifies exactly
    /// the rulebook's "position"; the bits let the endless-check rule read
    /// from the history which earlier positions were checks.
    pub fn rep_key(&self) -> u64 {
        (self.hash() & !3) | (self.side as u64) << 1 | self.in_check() as u64
    }

    /// Endless check over the positions after `keys[first]` up to this one:
    /// every position with one side to move is a check.
    fn endless_check_since(&self, keys: &[u64], first: usize) -> bool {
        let now = self.rep_key();
        let later = keys[first + 1..].iter().copied().chain([now]);
        (0..2u64).any(|side| {
            let mut seen = false;
            for k in later.clone() {
                if (k >> 1) & 1 == side {
                    seen = true;
                    if k & 1 == 0 {
                        return false;
                    }
                }
            }
            seen
        })
    }

    /// The rotated ("played diagonally") drawing: row = x + y, column =
    /// x - y, White at the bottom. Field squares are drawn with `:` when
    /// empty and a `'` after the piece; riders as `N^`.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for row in (0..=23).rev() {
            let mut line = format!("{row:>3} ");
            for col in -11..=12i32 {
                if (row + col) % 2 != 0 {
                    line.push_str("  ");
                    continue;
                }
                let (x, y) = ((row + col) / 2, (row - col) / 2);
                if !exists_xy(x, y) {
                    line.push_str("  ");
                    continue;
                }
                let c = self.board[sq_of(x, y) as usize];
                let field = region_xy(x, y) == FIELD;
                let mut t = Self::cell_text(c);
                if t.is_empty() {
                    t.push(if field { ':' } else { '.' });
                }
                if field && t.len() == 1 && c != EMPTY {
                    t.push('\'');
                }
                line.push_str(&format!("{t:<2}"));
            }
            s.push_str(line.trim_end());
            s.push('\n');
        }
        s.push_str(
            "    (row = file + rank, column = file - rank; a1 bottom, m12 top;\n     \
             ':' empty Field square, X' piece in the Field, X^ rider on its Disk)\n",
        );
        s
    }
}

impl Game for Position {
    type Move = Move;
    type Moves = Moves;

    const VARIANT: &'static str = "vyremorn";
    const LEGALITY_USES_HISTORY: bool = false;
    const FILES: u32 = 13;
    const RANKS: u32 = 12;

    fn startpos() -> Self {
        Position::from_fen(START_FEN).expect("the start position is valid")
    }

    fn from_fen(fen: &str) -> Result<Self, GameError> {
        Position::from_fen(fen)
    }

    fn to_fen(&self) -> String {
        Position::to_fen(self)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    fn legal_moves(&self, _history: &History, out: &mut Moves) {
        out.clear();
        self.generate(out);
    }

    #[inline]
    fn count_legal_moves(&self, _history: &History) -> u64 {
        self.count_moves()
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        Position::play(self, mv)
    }

    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    fn repetition_key(&self) -> u64 {
        self.rep_key()
    }

    fn outcome(&self, history: &History) -> Option<Outcome> {
        if self.count_moves() == 0 {
            return Some(if self.in_check() {
                Outcome::Win(self.side.flip(), Termination::Checkmate)
            } else {
                Outcome::Draw(Termination::Stalemate)
            });
        }
        if self.clock >= 100 {
            return Some(Outcome::Draw(Termination::FiftyMoves));
        }
        if self.insufficient_material() {
            return Some(Outcome::Draw(Termination::InsufficientMaterial));
        }
        let key = self.rep_key();
        if history.count(key) >= 2 {
            let keys = history.keys();
            let first = keys.iter().position(|&k| k == key).expect("counted");
            if self.endless_check_since(keys, first) {
                return Some(Outcome::Draw(Termination::Repetition));
            }
        }
        None
    }

    fn move_to_string(&self, mv: Move) -> String {
        let mut s = square_name(mv.from());
        s.push_str(&square_name(mv.to()));
        if mv.has(F_DISK) {
            s.push('d');
        }
        s
    }

    fn parse_move(&self, history: &History, text: &str) -> Result<Move, GameError> {
        let text = text.trim();
        if text == "0000" {
            return err("the null move 0000 is not a legal move");
        }
        let lower = text.to_ascii_lowercase();
        let (body, disk) = match lower.strip_suffix('d') {
            Some(b) => (b, true),
            None => (lower.as_str(), false),
        };
        // Split "from to" where each square is a letter and 1-2 digits.
        let split = body
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c.is_ascii_alphabetic())
            .map(|(i, _)| i);
        let squares =
            split.and_then(|i| Some((parse_square(&body[..i])?, parse_square(&body[i..])?)));
        let Some((from, to)) = squares else {
            return err(format!(
                "cannot parse move '{text}': expected <from><to>[d] with squares a1..m12 that exist on the board"
            ));
        };
        let mut moves = Moves::new();
        self.legal_moves(history, &mut moves);
        let riderless_disk =
            disk_of(self.board[from as usize]) != 0 && kind_of(self.board[from as usize]) == 0;
        for &mv in moves.as_slice() {
            if mv.from() == from
                && mv.to() == to
                && (mv.has(F_DISK) == disk || (riderless_disk && mv.has(F_DISK)))
            {
                return Ok(mv);
            }
        }
        err(format!("illegal move '{text}' in {}", self.to_fen()))
    }

    const HISTORY_SIZE: usize = NSQ * NSQ;

    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    #[inline]
    fn is_tactical(&self, mv: Move) -> bool {
        mv.has(F_CAPTURE)
    }

    #[inline]
    fn tactical_score(&self, mv: Move) -> i32 {
        eval::mvv_lva(self, mv)
    }

    /// A one-recapture exchange estimate: the victim, minus the capturer
    /// when the opponent attacks the target square. Without it the
    /// quiescence search tried every capture, however losing, and a depth-1
    /// search could take 60,000 nodes.
    fn see_at_least(&self, mv: Move, threshold: i32) -> bool {
        eval::capture_gain_estimate(self, mv) >= threshold
    }

    fn see_at_least_with(&self, params: &eval::EvalParams, mv: Move, threshold: i32) -> bool {
        eval::capture_gain_estimate_in(params, self, mv) >= threshold
    }

    type EvalParams = eval::EvalParams;

    fn default_eval_params() -> &'static eval::EvalParams {
        eval::default_params()
    }

    fn parse_eval_params(text: &str) -> Result<eval::EvalParams, String> {
        eval::EvalParams::parse(text)
    }

    #[inline]
    fn evaluate_with(&self, params: &eval::EvalParams) -> i32 {
        eval::evaluate_with(self, params)
    }

    fn null_move(&self) -> Option<Self> {
        // Zugzwang is likely when the mover has only King, Pawns, Disks
        // and Citadel.
        if self.in_check() || !eval::has_piece_material(self, self.side.index()) {
            return None;
        }
        Some(self.pass())
    }

    fn no_moves_loses(&self) -> bool {
        Position::in_check(self)
    }

    fn is_rule_draw(&self, history: &History, key: u64) -> bool {
        if self.clock >= 100 || self.insufficient_material() {
            return true;
        }
        // A repetition is a draw only as endless check (3.12(4)); in the
        // search one earlier occurrence counts.
        if history.contains(key) {
            let keys = history.keys();
            let last = keys.iter().rposition(|&k| k == key).expect("contained");
            return self.endless_check_since(keys, last);
        }
        false
    }

    type Threats = ();

    fn threats(&self) {}

    type CheckInfo = ();

    fn check_info(&self) {}

    #[inline(always)]
    fn encode_move(mv: Move) -> u32 {
        // from != to in every move, so the code is never 0.
        mv.0
    }

    #[inline(always)]
    fn history_index(&self, mv: Move) -> usize {
        mv.from() as usize * NSQ + mv.to() as usize
    }

    fn board_view(&self) -> crate::board_view::BoardView {
        self.view()
    }

    fn move_view(&self, mv: Move) -> crate::board_view::MoveView {
        self.describe(mv, self.move_to_string(mv))
    }

    fn display(&self) -> String {
        let mut s = self.diagram();
        s.push_str(&format!("\nFen: {}\n", self.to_fen()));
        s.push_str(&format!("Key: {:016X}\n", self.hash()));
        let checkers: Vec<String> = self.checkers().into_iter().map(square_name).collect();
        s.push_str(&format!("Checkers: {}\n", checkers.join(" ")));
        s
    }
}

#[cfg(test)]
mod tests;
