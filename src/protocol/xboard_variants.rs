//! How each variant is presented to XBoard/WinBoard: the `setup` and
//! `piece` commands of H.G. Muller's engine-defined variants, and the
//! translation of positions and moves between ghast's notation and the one
//! XBoard reads and writes. Documented in `protocol.md`, section "CECP".
//!
//! XBoard 4.9 knows 22 piece types per side, in this order (its default
//! piece-to-char table `PNBRQFEACWMOHIJGDVLSUK`): slots 0-10 are basic
//! types, slots 11-20 are by convention the promoted forms of slots 0-9,
//! slot 21 is the King. The image XBoard draws depends on the slot, the
//! letter on the table. ghast puts each dragon form in the promoted slot of
//! its base piece.

/// Number of piece slots per side in XBoard 4.9.
const SLOTS: usize = 22;
const KING_SLOT: usize = 21;

use crate::board_view::BoardView;
use crate::engine::Session;

/// One variant as XBoard sees it (the registry links each game to one).
pub struct XbVariant {
    pub files: u32,
    pub ranks: u32,
    /// (slot, white letter) pairs; the rest of the table is `.`.
    slots: &'static [(usize, char)],
    /// `piece` commands: white letter and Betza description (both colours).
    pub pieces: &'static [(char, &'static str)],
    /// Pieces that promote by `+` and the letter of their dragon form.
    pub dragons: &'static [(char, char)],
    /// XBoard reads and writes the game's own FEN and moves (Nimrod): the
    /// board text is the FEN, `setboard` takes any position, and only
    /// promotions need translating.
    pub own_fen: bool,
    /// Whether XBoard can show the game at all (Nemoroth's stacks, statues
    /// and screams it cannot).
    pub playable: bool,
    /// A move suffix XBoard would misread, left off (Vyrémorn's Disk `d`
    /// would read as a promotion to a Disk).
    pub dropped_suffix: Option<char>,
}

const NIMROD_SLOTS: &[(usize, char)] = &[
    (0, 'P'),
    (1, 'N'),
    (2, 'A'),
    (3, 'H'),
    (4, 'Q'),
    (7, 'W'),
    (8, 'U'),
    (KING_SLOT, 'K'),
];
const DRAGON_NIMROD_SLOTS: &[(usize, char)] = &[
    (0, 'P'),
    (1, 'N'),
    (2, 'A'),
    (3, 'H'),
    (4, 'Q'),
    (7, 'W'),
    (8, 'U'),
    (12, 'C'),
    (13, 'F'),
    (14, 'D'),
    (18, 'J'),
    (19, 'G'),
    (KING_SLOT, 'K'),
];
const CORNER_SLOTS: &[(usize, char)] = &[
    (0, 'P'),
    (1, 'N'),
    (2, 'A'),
    (3, 'H'),
    (4, 'Q'),
    (7, 'Y'),
    (8, 'M'),
    (KING_SLOT, 'K'),
];
const DRAGON_CORNER_SLOTS: &[(usize, char)] = &[
    (0, 'P'),
    (1, 'N'),
    (2, 'A'),
    (3, 'H'),
    (4, 'Q'),
    (7, 'Y'),
    (8, 'M'),
    (12, 'C'),
    (13, 'F'),
    (14, 'D'),
    (18, 'Z'),
    (19, 'O'),
    (KING_SLOT, 'K'),
];
const VYREMORN_SLOTS: &[(usize, char)] = &[
    (0, 'P'),
    (1, 'N'),
    (2, 'B'),
    (3, 'R'),
    (4, 'Q'),
    (5, 'F'),
    (6, 'E'),
    (7, 'A'),
    (8, 'C'),
    (9, 'W'),
    (10, 'M'),
    (11, 'G'),
    (12, 'D'),
    (KING_SLOT, 'K'),
];
const NEMOROTH_SLOTS: &[(usize, char)] = &[
    (1, 'H'),
    (2, 'B'),
    (3, 'W'),
    (4, 'G'),
    (5, 'A'),
    (6, 'L'),
    (KING_SLOT, 'K'),
];

// Betza, written from White's side (f = towards rank 8, l = towards the
// a-file). XBoard rotates a piece's moves by 180 degrees for Black, which is
// exactly Nimrod's rule for both orientations.
const FIDE_PIECES: &[(char, &str)] = &[
    ('H', "fRbB"),
    ('A', "fBbR"),
    ('U', "fsRbB"),
    ('W', "bsRfB"),
    // King steps plus castling: two steps towards either corner, the
    // virgin corner piece (a Huntress or Hawkress) swings round.
    ('K', "KisO2"),
];
const FIDE_DRAGON_PIECES: &[(char, &str)] = &[
    ('H', "fRbB"),
    ('A', "fBbR"),
    ('U', "fsRbB"),
    ('W', "bsRfB"),
    ('K', "KisO2"),
    ('C', "KN"),
    ('D', "fRbBbsWfF"),
    ('F', "fBbRfsWbF"),
    ('G', "fsRbBbWfF"),
    ('J', "bsRfBfWbF"),
];
const CORNER_PIECES: &[(char, &str)] = &[
    ('P', "mflWcflF"),
    ('H', "flRbrB"),
    ('A', "flBbrR"),
    ('M', "flRfrBbB"),
    ('Y', "fBblBbrR"),
    ('K', "K"),
];
const CORNER_DRAGON_PIECES: &[(char, &str)] = &[
    ('P', "mflWcflF"),
    ('H', "flRbrB"),
    ('A', "flBbrR"),
    ('M', "flRfrBbB"),
    ('Y', "fBblBbrR"),
    ('K', "K"),
    ('C', "KN"),
    ('D', "flRbrBbrWfFblF"),
    ('F', "flBbrRflWfrFbF"),
    ('O', "flRfrBbBbrWflF"),
    ('Z', "fBblBbrRflWbrF"),
];
const FIDE_DRAGONS: &[(char, char)] = &[('N', 'C'), ('H', 'D'), ('A', 'F'), ('U', 'G'), ('W', 'J')];
const CORNER_DRAGONS: &[(char, char)] =
    &[('N', 'C'), ('H', 'D'), ('A', 'F'), ('M', 'O'), ('Y', 'Z')];

pub const NIMROD: XbVariant = XbVariant {
    files: 8,
    ranks: 8,
    slots: NIMROD_SLOTS,
    pieces: FIDE_PIECES,
    dragons: &[],
    own_fen: true,
    playable: true,
    dropped_suffix: None,
};
pub const NIMROD_CORNER: XbVariant = XbVariant {
    files: 8,
    ranks: 8,
    slots: CORNER_SLOTS,
    pieces: CORNER_PIECES,
    dragons: &[],
    own_fen: true,
    playable: true,
    dropped_suffix: None,
};
pub const DRAGON_NIMROD: XbVariant = XbVariant {
    files: 8,
    ranks: 8,
    slots: DRAGON_NIMROD_SLOTS,
    pieces: FIDE_DRAGON_PIECES,
    dragons: FIDE_DRAGONS,
    own_fen: true,
    playable: true,
    dropped_suffix: None,
};
pub const DRAGON_NIMROD_CORNER: XbVariant = XbVariant {
    files: 8,
    ranks: 8,
    slots: DRAGON_CORNER_SLOTS,
    pieces: CORNER_DRAGON_PIECES,
    dragons: CORNER_DRAGONS,
    own_fen: true,
    playable: true,
    dropped_suffix: None,
};
pub const VYREMORN: XbVariant = XbVariant {
    files: 13,
    ranks: 12,
    slots: VYREMORN_SLOTS,
    pieces: &[],
    dragons: &[],
    own_fen: false,
    playable: true,
    dropped_suffix: Some('d'),
};
pub const NEMOROTH: XbVariant = XbVariant {
    files: 8,
    ranks: 8,
    slots: NEMOROTH_SLOTS,
    pieces: &[],
    dragons: &[],
    own_fen: false,
    playable: false,
    dropped_suffix: None,
};

/// The XBoard presentation of a ghast variant (from the registry).
pub fn xb_variant(name: &str) -> Option<&'static XbVariant> {
    crate::registry::find(name).map(|g| g.xboard)
}

impl XbVariant {
    /// The piece-to-char table: 22 white letters, then 22 black ones.
    pub fn piece_to_char(&self) -> String {
        let mut white = ['.'; SLOTS];
        for &(slot, c) in self.slots {
            white[slot] = c;
        }
        let black: String = white.iter().map(|c| c.to_ascii_lowercase()).collect();
        let white: String = white.iter().collect();
        format!("{white}{black}")
    }

    /// The `setup` command for a game starting at `position`.
    pub fn setup_command(&self, position: &dyn Session) -> String {
        format!(
            "setup ({}) {}x{}+0_fairy {}",
            self.piece_to_char(),
            self.files,
            self.ranks,
            self.board_text(position)
        )
    }

    /// The `piece` commands, one per non-standard piece.
    pub fn piece_commands(&self) -> Vec<String> {
        self.pieces
            .iter()
            .map(|(c, betza)| format!("piece {c}& {betza}"))
            .collect()
    }

    /// The position as the FEN XBoard reads: the game's own FEN where
    /// XBoard reads it, otherwise drawn from the game's board view: the
    /// top piece of each square, `*` for the holes of the bounding box.
    pub fn board_text(&self, position: &dyn Session) -> String {
        if self.own_fen {
            return position.fen();
        }
        let view = position.board_view();
        let ranks: Vec<String> = (0..view.geometry.ranks as i32)
            .rev()
            .map(|y| {
                fen_row((0..view.geometry.files as i32).map(|x| {
                    match view.cells.iter().find(|c| (c.x, c.y) == (x, y)) {
                        None => Some('*'),
                        Some(c) => c.occupants.last().map(|o| o.letter),
                    }
                }))
            })
            .collect();
        let side = if view.side_to_move == crate::board_view::Side::White {
            "w"
        } else {
            "b"
        };
        format!("{} {side} - - 0 1", ranks.join("/"))
    }

    /// Converts a FEN from XBoard (`setboard`) to ghast's notation, where
    /// that can be done. When XBoard echoes its own rendering of the
    /// current position, that position is kept.
    pub fn fen_from_xboard(&self, fen: &str, current: &dyn Session) -> Option<String> {
        if same_fen(fen, &self.board_text(current)) {
            return Some(current.fen());
        }
        // Otherwise only a game whose FEN XBoard writes: Mounted Disks,
        // opening rights and stacks are not in XBoard's FEN.
        self.own_fen.then(|| fen.to_string())
    }

    /// The dragon letter a piece promotes to with `+`.
    pub fn dragon_of(&self, piece: char) -> Option<char> {
        let upper = piece.to_ascii_uppercase();
        self.dragons
            .iter()
            .find(|(p, _)| *p == upper)
            .map(|&(_, d)| d)
    }

    /// ghast's move `mv` in `position`, as XBoard writes it.
    pub fn move_to_xboard(&self, position: &dyn Session, mv: &str) -> String {
        if !self.own_fen {
            return match self.dropped_suffix {
                Some(suffix) => mv.strip_suffix(suffix).unwrap_or(mv).to_string(),
                None => mv.to_string(),
            };
        }
        if let Some(base) = mv.strip_suffix('+') {
            // Compulsory dragon promotion: XBoard's promotion suffix is
            // the letter of the new piece.
            let view = position.board_view();
            let piece = square_range(base)
                .and_then(|(from, _)| piece_at(&view, from))
                .and_then(|p| self.dragon_of(p));
            match piece {
                Some(d) => format!("{base}{}", d.to_ascii_lowercase()),
                None => base.to_string(),
            }
        } else if let Some((from, to)) = square_range(mv)
            && mv.len() == 4
            && let Some(p @ ('P' | 'p')) = piece_at(&position.board_view(), from)
            && to.1 == if p == 'P' { self.ranks - 1 } else { 0 }
        {
            // A corner Pawn reaching the last rank off the promotion
            // squares stays a Pawn; XBoard would make it a Queen unless
            // told `p`.
            format!("{mv}p")
        } else {
            mv.to_string()
        }
    }

    /// Finds the legal ghast move XBoard means by `text` in `position`.
    pub fn move_from_xboard(&self, position: &dyn Session, text: &str) -> Option<String> {
        let legal = position.legal_moves();
        let text = text.trim();
        if let Some(m) = legal.iter().find(|m| m.as_str() == text) {
            return Some(m.clone());
        }
        let lower = text.to_ascii_lowercase();
        legal
            .iter()
            .find(|m| self.move_to_xboard(position, m).to_ascii_lowercase() == lower)
            .or_else(|| {
                // `f7f8p` or XBoard's default `f7f8q` for a Pawn that
                // reaches the last rank without promoting (corner).
                let bare = lower.strip_suffix(|c: char| c.is_ascii_lowercase())?;
                let no_promotion = !legal
                    .iter()
                    .any(|m| m.len() > bare.len() && m.starts_with(bare));
                legal.iter().find(|m| no_promotion && m.as_str() == bare)
            })
            .or_else(|| {
                // `a1h8` for the compulsory `a1h8+`, and `a1h8+`.
                legal.iter().find(|m| {
                    m.strip_suffix('+')
                        .is_some_and(|b| b == lower || format!("{b}+") == lower)
                })
            })
            .cloned()
    }
}

/// One FEN row: the marks in file order, runs of `None` as digits.
pub fn fen_row(marks: impl Iterator<Item = Option<char>>) -> String {
    let mut row = String::new();
    let mut empty = 0;
    for mark in marks {
        match mark {
            None => empty += 1,
            Some(m) => {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(m);
            }
        }
    }
    if empty > 0 {
        row.push_str(&empty.to_string());
    }
    row
}

/// The letter of the top piece on `(file, rank)`, from the game's view.
fn piece_at(view: &BoardView, (file, rank): (u32, u32)) -> Option<char> {
    let cell = view
        .cells
        .iter()
        .find(|c| (c.x, c.y) == (file as i32, rank as i32))?;
    cell.occupants.last().map(|o| o.letter)
}

fn same_fen(a: &str, b: &str) -> bool {
    // Compare placement and side only; XBoard rewrites the other fields.
    let key = |f: &str| f.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
    key(a) == key(b)
}

/// A square `a1`..`m12` as (file, rank), both from 0.
pub fn parse_square(s: &str) -> Option<(u32, u32)> {
    let mut chars = s.chars();
    let f = chars.next()?;
    if !f.is_ascii_lowercase() {
        return None;
    }
    let rank: u32 = chars.as_str().parse().ok()?;
    if rank == 0 {
        return None;
    }
    Some((f as u32 - 'a' as u32, rank - 1))
}

/// The from and to squares at the start of a coordinate move.
pub fn square_range(mv: &str) -> Option<((u32, u32), (u32, u32))> {
    let bytes = mv.as_bytes();
    let mut squares = Vec::new();
    let mut i = 0;
    while squares.len() < 2 && i < bytes.len() {
        if !bytes[i].is_ascii_lowercase() {
            return None;
        }
        let start = i;
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        squares.push(parse_square(&mv[start..i])?);
    }
    match squares[..] {
        [a, b] => Some((a, b)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_44_entries_and_king_last() {
        for g in &crate::registry::GAMES {
            let t = g.xboard.piece_to_char();
            assert_eq!(t.len(), 44, "{}", g.name);
            assert_eq!(&t[21..22], "K");
            assert_eq!(&t[43..44], "k");
        }
    }

    /// A game of `variant` at `fen`.
    fn at(variant: &str, fen: &str) -> Box<dyn Session> {
        let mut s = crate::registry::new_session(variant).unwrap();
        s.set_position(Some(fen), &[]).unwrap();
        s
    }

    #[test]
    fn dragon_promotion_maps_to_letter() {
        let v = xb_variant("dragon-nimrod").unwrap();
        let p = at(
            "dragon-nimrod",
            "whnqkanu/pppppp1p/6p1/8/8/1P6/P1PPPPPP/WHNQKANU w KQkq - 0 2",
        );
        assert!(p.legal_moves().contains(&"a1h8+".to_string()));
        assert_eq!(v.move_to_xboard(p.as_ref(), "a1h8+"), "a1h8j");
        assert_eq!(v.move_from_xboard(p.as_ref(), "a1h8j").unwrap(), "a1h8+");
        assert_eq!(v.move_from_xboard(p.as_ref(), "a1h8").unwrap(), "a1h8+");
        assert_eq!(v.move_from_xboard(p.as_ref(), "a1h8+").unwrap(), "a1h8+");
        assert!(v.move_from_xboard(p.as_ref(), "a1h7").is_none());
    }

    #[test]
    fn corner_pawn_on_last_rank_stays_a_pawn() {
        let v = xb_variant("nimrod-corner").unwrap();
        let p = at("nimrod-corner", "k7/5P2/8/8/8/8/8/7K w - - 0 1");
        let legal = p.legal_moves();
        assert!(legal.contains(&"f7f8".to_string()), "{legal:?}");
        assert_eq!(v.move_to_xboard(p.as_ref(), "f7f8"), "f7f8p");
        assert_eq!(v.move_to_xboard(p.as_ref(), "f7e7"), "f7e7");
        assert_eq!(v.move_from_xboard(p.as_ref(), "f7f8p").unwrap(), "f7f8");
        assert_eq!(v.move_from_xboard(p.as_ref(), "f7f8q").unwrap(), "f7f8");
    }

    /// XBoard's board text comes from the game's view: holes as `*`, the
    /// rider on a Disk; Nimrod's is its FEN.
    #[test]
    fn board_text_is_drawn_from_the_view() {
        let v = xb_variant("vyremorn").unwrap();
        let fen = "8k/9/9/13/13/13/13/2N^10/13/9/9/K8 w c5 0 1";
        let p = at("vyremorn", fen);
        let x = v.board_text(p.as_ref());
        assert_eq!(
            x,
            "****8k/****9/****9/13/13/13/13/2N10/13/9****/9****/K8**** w - - 0 1"
        );
        assert_eq!(v.fen_from_xboard(&x, p.as_ref()).unwrap(), p.fen());
        assert_eq!(
            v.fen_from_xboard("8k/9/9/13/13/13/13/13/13/9/9/K8 w - - 0 1", p.as_ref()),
            None
        );
        let n = at("nimrod", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let nimrod = xb_variant("nimrod").unwrap();
        assert_eq!(nimrod.board_text(n.as_ref()), n.fen());
    }

    #[test]
    fn squares_parse() {
        assert_eq!(square_range("b7c8d"), Some(((1, 6), (2, 7))));
        assert_eq!(square_range("a10m12"), Some(((0, 9), (12, 11))));
        assert_eq!(square_range("x"), None);
    }
}
