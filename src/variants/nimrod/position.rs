//! The Nimrod position: bitboards plus a mailbox, copy-make.
//!
//! Layout (about 200 bytes, copied whole by `play`):
//! - `by_kind[k]`: squares of kind k, both colours; `by_color[c]`: squares
//!   of colour c; `board[sq]`: the piece on each square (kind | colour << 4)
//!   or `EMPTY`. The three always agree.
//! - `castling`: bit 0 White O-O, bit 1 White O-O-O, bit 2 Black O-O,
//!   bit 3 Black O-O-O.
//! - `ep`: the square passed over by the last double step, or `NO_SQUARE`.

use super::Flavor;
use super::pieces::*;
use crate::bitboard::{
    Bitboard, GEOMETRY, RANK_1, RANK_8, Square, bit, file_of, parse_square, rank_of, square,
    square_name, squares,
};
use crate::game::{Color, GameError, err, hash_words, parse_move_counter};
use std::marker::PhantomData;

pub const NO_SQUARE: Square = 64;

pub const WHITE_OO: u8 = 1;
pub const WHITE_OOO: u8 = 2;
pub const BLACK_OO: u8 = 4;
pub const BLACK_OOO: u8 = 8;

/// Castling geometry (FIDE orientation): right, King from/to, corner piece
/// kind and from/to, squares that must be empty, squares that must not be
/// attacked.
pub struct Castle {
    pub right: u8,
    pub king_from: Square,
    pub king_to: Square,
    pub corner_kind: usize,
    pub corner_from: Square,
    pub corner_to: Square,
    pub empty: Bitboard,
    pub safe: Bitboard,
}

const fn sq(name: &[u8; 2]) -> Square {
    square((name[0] - b'a') as i32, (name[1] - b'1') as i32)
}

const fn bits(names: &[[u8; 2]]) -> Bitboard {
    let mut b = 0;
    let mut i = 0;
    while i < names.len() {
        b |= 1u64 << sq(&names[i]);
        i += 1;
    }
    b
}

/// `CASTLES[colour]`: king side first, then queen side.
pub const CASTLES: [[Castle; 2]; 2] = [
    [
        Castle {
            right: WHITE_OO,
            king_from: sq(b"e1"),
            king_to: sq(b"g1"),
            corner_kind: HUNTER5,
            corner_from: sq(b"h1"),
            corner_to: sq(b"f1"),
            empty: bits(&[*b"f1", *b"g1"]),
            safe: bits(&[*b"e1", *b"f1", *b"g1"]),
        },
        Castle {
            right: WHITE_OOO,
            king_from: sq(b"e1"),
            king_to: sq(b"c1"),
            corner_kind: HAWKER5,
            corner_from: sq(b"a1"),
            corner_to: sq(b"d1"),
            empty: bits(&[*b"b1", *b"c1", *b"d1"]),
            safe: bits(&[*b"e1", *b"d1", *b"c1"]),
        },
    ],
    [
        Castle {
            right: BLACK_OO,
            king_from: sq(b"e8"),
            king_to: sq(b"g8"),
            corner_kind: HUNTER5,
            corner_from: sq(b"h8"),
            corner_to: sq(b"f8"),
            empty: bits(&[*b"f8", *b"g8"]),
            safe: bits(&[*b"e8", *b"f8", *b"g8"]),
        },
        Castle {
            right: BLACK_OOO,
            king_from: sq(b"e8"),
            king_to: sq(b"c8"),
            corner_kind: HAWKER5,
            corner_from: sq(b"a8"),
            corner_to: sq(b"d8"),
            empty: bits(&[*b"b8", *b"c8", *b"d8"]),
            safe: bits(&[*b"e8", *b"d8", *b"c8"]),
        },
    ],
];

/// Castling rights that survive a move touching each square.
const fn castle_keep_table() -> [u8; 64] {
    let mut t = [0x0f; 64];
    t[sq(b"e1") as usize] = !(WHITE_OO | WHITE_OOO) & 0x0f;
    t[sq(b"h1") as usize] = !WHITE_OO & 0x0f;
    t[sq(b"a1") as usize] = !WHITE_OOO & 0x0f;
    t[sq(b"e8") as usize] = !(BLACK_OO | BLACK_OOO) & 0x0f;
    t[sq(b"h8") as usize] = !BLACK_OO & 0x0f;
    t[sq(b"a8") as usize] = !BLACK_OOO & 0x0f;
    t
}
const CASTLE_KEEP: [u8; 64] = castle_keep_table();

/// A move: from (bits 0-5), to (bits 6-11), flag (bits 12-15).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

pub const FLAG_NORMAL: u16 = 0;
pub const FLAG_DOUBLE: u16 = 1;
pub const FLAG_EP: u16 = 2;
pub const FLAG_CASTLE: u16 = 3;
/// A Knight or hunter arriving on a promotion square turns into its dragon
/// form (Dragon variants).
pub const FLAG_DRAGON: u16 = 4;
/// Flags 5..=15: a Pawn promotes to `PROMO_KINDS[flag - 5]`.
pub const FLAG_PROMO: u16 = 5;
pub const PROMO_KINDS: [usize; 11] = [
    QUEEN,
    KNIGHT,
    HUNTER,
    HAWKER,
    HUNTER5,
    HAWKER5,
    ACELANDER,
    DRAGONHUNTER,
    DRAGONHAWKER,
    DRAGONHUNTER5,
    DRAGONHAWKER5,
];

/// The move flag that promotes a Pawn to `kind`.
pub const fn promo_flag(kind: usize) -> u16 {
    let mut i = 0;
    while i < PROMO_KINDS.len() {
        if PROMO_KINDS[i] == kind {
            return FLAG_PROMO + i as u16;
        }
        i += 1;
    }
    panic!("not a promotion kind")
}

impl Move {
    #[inline(always)]
    pub const fn new(from: Square, to: Square, flag: u16) -> Move {
        Move(from as u16 | (to as u16) << 6 | flag << 12)
    }
    #[inline(always)]
    pub const fn from(self) -> Square {
        (self.0 & 63) as Square
    }
    #[inline(always)]
    pub const fn to(self) -> Square {
        ((self.0 >> 6) & 63) as Square
    }
    #[inline(always)]
    pub const fn flag(self) -> u16 {
        self.0 >> 12
    }
    /// The kind a Pawn promotes to, if this is a Pawn promotion.
    #[inline(always)]
    pub const fn promotion(self) -> Option<usize> {
        if self.flag() >= FLAG_PROMO {
            Some(PROMO_KINDS[(self.flag() - FLAG_PROMO) as usize])
        } else {
            None
        }
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}{}/{}",
            square_name(self.from()),
            square_name(self.to()),
            self.flag()
        )
    }
}

/// What [`Position::check_info`] finds.
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// Per kind, the squares from which a piece of the side to move of
    /// that kind checks the enemy King.
    squares: [Bitboard; KIND_COUNT],
    /// The side to move's pieces that uncover a check when they leave
    /// their line to the enemy King.
    discoverers: Bitboard,
    king: Square,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position<F: Flavor> {
    pub by_kind: [Bitboard; KIND_COUNT],
    pub by_color: [Bitboard; 2],
    pub board: [Piece; 64],
    pub king: [Square; 2],
    pub side: Color,
    pub castling: u8,
    pub ep: Square,
    pub halfmove: u32,
    pub fullmove: u32,
    _flavor: PhantomData<F>,
}

impl<F: Flavor> std::fmt::Debug for Position<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl<F: Flavor> Position<F> {
    #[inline(always)]
    pub fn tables() -> &'static Tables {
        if F::CORNER {
            &CORNER_TABLES
        } else {
            &FIDE_TABLES
        }
    }

    pub fn letters() -> &'static [u8; KIND_COUNT] {
        if F::CORNER {
            &CORNER_LETTERS
        } else {
            &FIDE_LETTERS
        }
    }

    fn empty() -> Self {
        Position {
            by_kind: [0; KIND_COUNT],
            by_color: [0; 2],
            board: [EMPTY; 64],
            king: [NO_SQUARE; 2],
            side: Color::White,
            castling: 0,
            ep: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            _flavor: PhantomData,
        }
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub fn pieces(&self, color: usize, kind: usize) -> Bitboard {
        self.by_kind[kind] & self.by_color[color]
    }

    #[inline(always)]
    fn put(&mut self, sq: Square, color: usize, kind: usize) {
        let b = bit(sq);
        self.by_kind[kind] |= b;
        self.by_color[color] |= b;
        self.board[sq as usize] = make_piece(color, kind);
        if kind == KING {
            self.king[color] = sq;
        }
    }

    #[inline(always)]
    fn remove(&mut self, sq: Square) {
        let p = self.board[sq as usize];
        let b = bit(sq);
        self.by_kind[piece_kind(p)] ^= b;
        self.by_color[piece_color(p)] ^= b;
        self.board[sq as usize] = EMPTY;
    }

    /// The pieces of `by` attacking `sq` with occupancy `occ`.
    ///
    /// Kinds that slide along the same lines are looked up together (a
    /// Dragon form slides as its base form), so the work does not grow
    /// with the number of kinds; only Dragon steps need a kind each.
    pub fn attackers(&self, sq: Square, by: usize, occ: Bitboard) -> Bitboard {
        let t = Self::tables();
        let sliders = &*crate::bitboard::SLIDERS;
        let rook = sliders.rook(sq, occ);
        let bishop = sliders.bishop(sq, occ);
        // Black's vectors are White's negated, so the tables of the other
        // colour, read from `sq`, reach the attackers of colour `by`.
        let rev = by ^ 1;
        let s = sq as usize;
        let k = &self.by_kind;
        let lines = |kind: usize, pieces: Bitboard| {
            (rook & t.rook_rays[rev][kind][s] | bishop & t.bishop_rays[rev][kind][s]) & pieces
        };
        let mut att = t.pawn_capture[rev][s] & k[PAWN]
            | t.steps[rev][KNIGHT][s] & k[KNIGHT]
            | t.steps[rev][KING][s] & k[KING]
            | (rook | bishop) & k[QUEEN]
            | lines(HUNTER, k[HUNTER] | k[DRAGONHUNTER])
            | lines(HAWKER, k[HAWKER] | k[DRAGONHAWKER])
            | lines(HUNTER5, k[HUNTER5] | k[DRAGONHUNTER5])
            | lines(HAWKER5, k[HAWKER5] | k[DRAGONHAWKER5]);
        let dragons =
            k[ACELANDER] | k[DRAGONHUNTER] | k[DRAGONHAWKER] | k[DRAGONHUNTER5] | k[DRAGONHAWKER5];
        if dragons & self.by_color[by] != 0 {
            for (kind, &pieces) in k.iter().enumerate().skip(ACELANDER) {
                att |= t.steps[rev][kind][s] & pieces;
            }
        }
        att & self.by_color[by]
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        let us = self.side.index();
        self.attackers(self.king[us], us ^ 1, self.occupied()) != 0
    }

    /// Where each kind of the side to move would check the enemy King
    /// from, and which of its pieces uncover a check by leaving their line.
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side.index();
        let them = us ^ 1;
        let king = self.king[them];
        let occ = self.occupied();
        let t = Self::tables();
        let mut squares = [0; KIND_COUNT];
        // Black's vectors are White's negated: the King's colour's moves
        // from the King reach the squares a piece of ours checks from.
        squares[PAWN] = t.pawn_capture[them][king as usize];
        for (kind, checks) in squares.iter_mut().enumerate().skip(KNIGHT) {
            if self.pieces(us, kind) != 0 {
                *checks = attacks(t, them, kind, king, occ);
            }
        }
        // Our pieces that would attack the King on an empty board and are
        // held back by exactly one piece, ours: it uncovers the check.
        let mut discoverers = 0;
        for sniper in crate::bitboard::squares(self.attackers(king, us, 0)) {
            let between = GEOMETRY.between[sniper as usize][king as usize] & occ;
            if between.count_ones() == 1 {
                discoverers |= between & self.by_color[us];
            }
        }
        CheckInfo {
            squares,
            discoverers,
            king,
        }
    }

    /// Whether the legal move `mv` checks the opponent, by the lookups of
    /// `info` (this position's [`Position::check_info`]): the moved piece
    /// from its new square, or a piece it uncovers. Castling, e.p.,
    /// promotions and dragon moves change more than one square or the
    /// piece, so they are played.
    #[inline]
    pub fn gives_check_with(&self, info: &CheckInfo, mv: Move) -> bool {
        if mv.flag() != FLAG_NORMAL && mv.flag() != FLAG_DOUBLE {
            return self.play(mv).in_check();
        }
        let (from, to) = (mv.from(), mv.to());
        // A piece that checks from `to` did not check through `from`
        // before (the King was not in check), so the squares found with
        // the piece still on `from` are exact.
        let kind = piece_kind(self.board[from as usize]);
        info.squares[kind] & bit(to) != 0
            || info.discoverers & bit(from) != 0
                && GEOMETRY.line[info.king as usize][from as usize] & bit(to) == 0
    }

    /// The e.p. square if a Pawn of the side to move attacks it (the
    /// canonical form written in FEN and used for repetition).
    pub fn canonical_ep(&self) -> Option<Square> {
        if self.ep == NO_SQUARE {
            return None;
        }
        let us = self.side.index();
        let t = Self::tables();
        if t.pawn_capture[us ^ 1][self.ep as usize] & self.pieces(us, PAWN) != 0 {
            Some(self.ep)
        } else {
            None
        }
    }

    /// The position after `mv` (copy-make). `mv` must be legal.
    #[inline]
    pub fn play(&self, mv: Move) -> Self {
        let mut p = *self;
        let us = self.side.index();
        let from = mv.from();
        let to = mv.to();
        let moving = self.board[from as usize];
        let kind = piece_kind(moving);
        let captured = self.board[to as usize];
        let flag = mv.flag();

        p.remove(from);
        if captured != EMPTY {
            p.remove(to);
        }
        let new_kind = match flag {
            FLAG_EP => {
                // The captured Pawn stands beside the from-square, on the
                // to-square's file.
                p.remove(square(file_of(to), rank_of(from)));
                kind
            }
            FLAG_CASTLE => {
                let castle = if file_of(to) == 6 {
                    &CASTLES[us][0]
                } else {
                    &CASTLES[us][1]
                };
                p.remove(castle.corner_from);
                p.put(castle.corner_to, us, castle.corner_kind);
                kind
            }
            FLAG_DRAGON => dragon_of(kind).unwrap_or(kind),
            f if f >= FLAG_PROMO => PROMO_KINDS[(f - FLAG_PROMO) as usize],
            _ => kind,
        };
        p.put(to, us, new_kind);

        p.castling &= CASTLE_KEEP[from as usize] & CASTLE_KEEP[to as usize];
        p.ep = if flag == FLAG_DOUBLE {
            square(file_of(from), (rank_of(from) + rank_of(to)) / 2)
        } else {
            NO_SQUARE
        };
        if kind == PAWN || captured != EMPTY || flag == FLAG_EP {
            p.halfmove = 0;
        } else {
            p.halfmove = self.halfmove + 1;
        }
        if us == 1 {
            p.fullmove = self.fullmove + 1;
        }
        p.side = self.side.flip();
        p
    }

    /// Hash of the canonical encoding: placement, side, castling rights and
    /// canonical e.p. square (the repetition identity, rulebook M11).
    pub fn hash(&self) -> u64 {
        let mut words = [0u64; 9];
        for (i, chunk) in self.board.chunks_exact(8).enumerate() {
            words[i] = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        }
        words[8] = self.side as u64
            | (self.castling as u64) << 1
            | (self.canonical_ep().unwrap_or(NO_SQUARE) as u64) << 8
            | (F::ID as u64) << 16;
        hash_words(&words)
    }

    /// Parses a FEN (rulebook 5.2), rejecting positions that cannot arise.
    pub fn from_fen(fen: &str) -> Result<Self, GameError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 2 {
            return err(format!(
                "FEN needs at least placement and side to move, got '{fen}'"
            ));
        }
        if fields.len() > 6 {
            return err(format!(
                "FEN has {} fields, at most 6 allowed",
                fields.len()
            ));
        }
        let mut p = Self::empty();
        p.parse_placement(fields[0])?;
        p.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return err(format!("side to move must be 'w' or 'b', got '{other}'")),
        };
        p.parse_castling(fields.get(2).copied().unwrap_or("-"))?;
        p.parse_ep(fields.get(3).copied().unwrap_or("-"))?;
        if let Some(h) = fields.get(4) {
            p.halfmove = parse_move_counter("halfmove clock", h, 0)?;
        }
        if let Some(f) = fields.get(5) {
            p.fullmove = parse_move_counter("fullmove number", f, 1)?;
        }
        p.validate()?;
        Ok(p)
    }

    fn parse_placement(&mut self, placement: &str) -> Result<(), GameError> {
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return err(format!("placement has {} ranks, expected 8", ranks.len()));
        }
        let letters = Self::letters();
        for (i, text) in ranks.iter().enumerate() {
            let rank = 7 - i as i32;
            let mut file = 0i32;
            let mut promoted = false;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if promoted || d == 0 || d > 8 {
                        return err(format!("bad empty-square count '{c}' in rank {}", rank + 1));
                    }
                    file += d as i32;
                    continue;
                }
                if c == '+' {
                    if promoted {
                        return err(format!("'++' in rank {}", rank + 1));
                    }
                    promoted = true;
                    continue;
                }
                let upper = c.to_ascii_uppercase() as u8;
                let Some(mut kind) = letters
                    .iter()
                    .position(|&l| l == upper && c.is_ascii_alphabetic())
                else {
                    return err(format!(
                        "unknown piece letter '{c}' in rank {} for {}",
                        rank + 1,
                        F::NAME
                    ));
                };
                if promoted {
                    kind = dragon_of(kind).ok_or_else(|| {
                        GameError(format!(
                            "'+{c}': only N, H, A and the 5-way hunters have a dragon form"
                        ))
                    })?;
                    promoted = false;
                }
                if kind >= ACELANDER && !F::DRAGON {
                    return err(format!(
                        "dragon piece '{c}' is only valid in the Dragon variants"
                    ));
                }
                if file >= 8 {
                    return err(format!("rank {} has more than 8 squares", rank + 1));
                }
                let color = if c.is_ascii_uppercase() { 0 } else { 1 };
                self.put(square(file, rank), color, kind);
                file += 1;
            }
            if promoted {
                return err(format!("'+' without a piece in rank {}", rank + 1));
            }
            if file != 8 {
                return err(format!(
                    "rank {} covers {} squares, expected 8",
                    rank + 1,
                    file
                ));
            }
        }
        Ok(())
    }

    fn parse_castling(&mut self, text: &str) -> Result<(), GameError> {
        if text == "-" {
            return Ok(());
        }
        if F::CORNER {
            return err("the corner variants have no castling; the castling field must be '-'");
        }
        for c in text.chars() {
            let right = match c {
                'K' | 'H' => WHITE_OO,
                'Q' | 'A' => WHITE_OOO,
                'k' | 'h' => BLACK_OO,
                'q' | 'a' => BLACK_OOO,
                _ => return err(format!("bad castling character '{c}'")),
            };
            if self.castling & right != 0 {
                return err(format!("castling right '{c}' given twice"));
            }
            self.castling |= right;
        }
        for (color, castles) in CASTLES.iter().enumerate() {
            for castle in castles {
                if self.castling & castle.right == 0 {
                    continue;
                }
                let king_ok = self.board[castle.king_from as usize] == make_piece(color, KING);
                let corner_ok = self.board[castle.corner_from as usize]
                    == make_piece(color, castle.corner_kind);
                if !king_ok || !corner_ok {
                    let name = if castle.corner_kind == HUNTER5 {
                        "Huntress"
                    } else {
                        "Hawkress"
                    };
                    return err(format!(
                        "castling right needs the King on {} and the {} on {}",
                        square_name(castle.king_from),
                        name,
                        square_name(castle.corner_from)
                    ));
                }
            }
        }
        Ok(())
    }

    fn parse_ep(&mut self, text: &str) -> Result<(), GameError> {
        if text == "-" {
            return Ok(());
        }
        let Some(ep) = parse_square(text) else {
            return err(format!("bad en passant square '{text}'"));
        };
        if F::CORNER {
            return err("the corner variants have no en passant; the e.p. field must be '-'");
        }
        // The opponent just double-stepped over `ep`.
        let (ep_rank, dir) = if self.side == Color::White {
            (5, -1)
        } else {
            (2, 1)
        };
        let them = self.side.flip().index();
        let pawn_sq = square(file_of(ep), rank_of(ep) + dir);
        let origin = square(file_of(ep), rank_of(ep) - dir);
        if rank_of(ep) != ep_rank
            || self.board[pawn_sq as usize] != make_piece(them, PAWN)
            || self.board[ep as usize] != EMPTY
            || self.board[origin as usize] != EMPTY
        {
            return err(format!(
                "en passant square {text} does not follow a double step just made"
            ));
        }
        self.ep = ep;
        Ok(())
    }

    fn validate(&self) -> Result<(), GameError> {
        for (color, name) in [(0, "White"), (1, "Black")] {
            let kings = self.pieces(color, KING).count_ones();
            if kings != 1 {
                return err(format!("{name} has {kings} kings, expected exactly 1"));
            }
        }
        let t = Self::tables();
        for color in 0..2 {
            let pawns = self.pieces(color, PAWN);
            // FIDE orientation: a Pawn never stands on its own first rank.
            let first_rank = if F::CORNER {
                0
            } else if color == 0 {
                RANK_1
            } else {
                RANK_8
            };
            if let Some(s) = squares(pawns & (t.promotion[color] | first_rank)).next() {
                return err(format!(
                    "a {} Pawn stands on {}, where no Pawn can stand",
                    if color == 0 { "White" } else { "Black" },
                    square_name(s)
                ));
            }
        }
        let them = self.side.flip().index();
        if self.attackers(self.king[them], them ^ 1, self.occupied()) != 0 {
            return err("the side not to move is in check");
        }
        Ok(())
    }

    /// Canonical FEN (rulebook 5.2).
    pub fn to_fen(&self) -> String {
        let letters = Self::letters();
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let p = self.board[square(file, rank) as usize];
                if p == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push((b'0' + empty) as char);
                    empty = 0;
                }
                let c = letters[piece_kind(p)] as char;
                s.push(if piece_color(p) == 0 {
                    c
                } else {
                    c.to_ascii_lowercase()
                });
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.side == Color::White { 'w' } else { 'b' });
        s.push(' ');
        if self.castling == 0 {
            s.push('-');
        } else {
            for (right, c) in [
                (WHITE_OO, 'K'),
                (WHITE_OOO, 'Q'),
                (BLACK_OO, 'k'),
                (BLACK_OOO, 'q'),
            ] {
                if self.castling & right != 0 {
                    s.push(c);
                }
            }
        }
        s.push(' ');
        match self.canonical_ep() {
            Some(ep) => s.push_str(&square_name(ep)),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    /// A drawing of the board, White at the bottom.
    pub fn diagram(&self) -> String {
        let letters = Self::letters();
        let mut s = String::new();
        s.push_str(" +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8).rev() {
            for file in 0..8 {
                let p = self.board[square(file, rank) as usize];
                let c = if p == EMPTY {
                    ' '
                } else {
                    let c = letters[piece_kind(p)] as char;
                    if piece_color(p) == 0 {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    }
                };
                s.push_str(&format!(" | {c}"));
            }
            s.push_str(&format!(
                " | {}\n +---+---+---+---+---+---+---+---+\n",
                rank + 1
            ));
        }
        s.push_str("   a   b   c   d   e   f   g   h\n");
        s
    }

    /// Squares of pieces giving check.
    pub fn checkers(&self) -> Bitboard {
        let us = self.side.index();
        self.attackers(self.king[us], us ^ 1, self.occupied())
    }

    /// Whether the board holds only the two Kings (rulebook M13).
    pub fn bare_kings(&self) -> bool {
        self.occupied().count_ones() == 2
    }
}
