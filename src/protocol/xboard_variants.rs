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
    pub kind: Kind,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Nimrod,
    Vyremorn,
    Nemoroth,
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
    kind: Kind::Nimrod,
};
pub const NIMROD_CORNER: XbVariant = XbVariant {
    files: 8,
    ranks: 8,
    slots: CORNER_SLOTS,
    pieces: CORNER_PIECES,
    dragons: &[],
    kind: Kind::Nimrod,
};
pub const DRAGON_NIMROD: XbVariant = XbVariant {
    files: 8,
    ranks: 8,
    slots: DRAGON_NIMROD_SLOTS,
    pieces: FIDE_DRAGON_PIECES,
    dragons: FIDE_DRAGONS,
    kind: Kind::Nimrod,
};
pub const DRAGON_NIMROD_CORNER: XbVariant = XbVariant {
    files: 8,
    ranks: 8,
    slots: DRAGON_CORNER_SLOTS,
    pieces: CORNER_DRAGON_PIECES,
    dragons: CORNER_DRAGONS,
    kind: Kind::Nimrod,
};
pub const VYREMORN: XbVariant = XbVariant {
    files: 13,
    ranks: 12,
    slots: VYREMORN_SLOTS,
    pieces: &[],
    dragons: &[],
    kind: Kind::Vyremorn,
};
pub const NEMOROTH: XbVariant = XbVariant {
    files: 8,
    ranks: 8,
    slots: NEMOROTH_SLOTS,
    pieces: &[],
    dragons: &[],
    kind: Kind::Nemoroth,
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

    /// The `setup` command for a game starting at `ghast_fen`.
    pub fn setup_command(&self, ghast_fen: &str) -> String {
        format!(
            "setup ({}) {}x{}+0_fairy {}",
            self.piece_to_char(),
            self.files,
            self.ranks,
            self.fen_to_xboard(ghast_fen)
        )
    }

    /// The `piece` commands, one per non-standard piece.
    pub fn piece_commands(&self) -> Vec<String> {
        self.pieces
            .iter()
            .map(|(c, betza)| format!("piece {c}& {betza}"))
            .collect()
    }

    /// Converts a ghast position to the FEN XBoard reads.
    pub fn fen_to_xboard(&self, fen: &str) -> String {
        match self.kind {
            Kind::Nimrod => fen.to_string(),
            Kind::Vyremorn => {
                let mut fields = fen.split_whitespace();
                let placement = fields.next().unwrap_or("");
                let side = fields.next().unwrap_or("w");
                let ranks: Vec<String> = placement
                    .split('/')
                    .enumerate()
                    .map(|(i, rank)| {
                        // Ranks 12..10 lack files a-d; ranks 3..1 lack j-m.
                        let rank = rank.replace('^', "");
                        match i {
                            0..=2 => format!("****{rank}"),
                            9..=11 => format!("{rank}****"),
                            _ => rank,
                        }
                    })
                    .collect();
                format!("{} {side} - - 0 1", ranks.join("/"))
            }
            Kind::Nemoroth => {
                // Only the top piece of each stack can be drawn.
                let mut fields = fen.split_whitespace();
                let placement = fields.next().unwrap_or("");
                let side = if fields.next() == Some("o") { "b" } else { "w" };
                let mut out = String::new();
                let mut chars = placement.chars().peekable();
                while let Some(c) = chars.next() {
                    if c == '(' {
                        let mut top = None;
                        for s in chars.by_ref() {
                            if s == ')' {
                                break;
                            }
                            if s.is_ascii_alphabetic() {
                                top = Some(s);
                            }
                        }
                        out.push(top.map_or('1', nemoroth_letter));
                    } else if c.is_ascii_alphabetic() {
                        out.push(nemoroth_letter(c));
                    } else {
                        out.push(c);
                    }
                }
                format!("{out} {side} - - 0 1")
            }
        }
    }

    /// Converts a FEN from XBoard (`setboard`) to ghast's notation, where
    /// that can be done. `current` is ghast's FEN of the current position:
    /// when XBoard echoes its own rendering of it, that position is kept.
    pub fn fen_from_xboard(&self, fen: &str, current: &str) -> Option<String> {
        if same_fen(fen, &self.fen_to_xboard(current)) {
            return Some(current.to_string());
        }
        match self.kind {
            Kind::Nimrod => Some(fen.to_string()),
            // Mounted Disks, opening rights and stacks are not in XBoard's
            // FEN; only the echo of ghast's own position can be used.
            Kind::Vyremorn | Kind::Nemoroth => None,
        }
    }

    /// The dragon letter a piece promotes to with `+`.
    pub fn dragon_of(&self, piece: char) -> Option<char> {
        let upper = piece.to_ascii_uppercase();
        self.dragons
            .iter()
            .find(|(p, _)| *p == upper)
            .map(|&(_, d)| d)
    }

    /// ghast's move `mv` in the position `fen`, as XBoard writes it.
    pub fn move_to_xboard(&self, fen: &str, mv: &str) -> String {
        match self.kind {
            Kind::Nimrod => {
                if let Some(base) = mv.strip_suffix('+') {
                    // Compulsory dragon promotion: XBoard's promotion
                    // suffix is the letter of the new piece.
                    let piece = square_range(base)
                        .and_then(|(from, _)| nimrod_piece_at(fen, from))
                        .and_then(|p| self.dragon_of(p));
                    match piece {
                        Some(d) => format!("{base}{}", d.to_ascii_lowercase()),
                        None => base.to_string(),
                    }
                } else if let Some((from, to)) = square_range(mv)
                    && mv.len() == 4
                    && let Some(p @ ('P' | 'p')) = nimrod_piece_at(fen, from)
                    && to.1 == if p == 'P' { 7 } else { 0 }
                {
                    // A corner Pawn reaching the last rank off the
                    // promotion squares stays a Pawn; XBoard would make
                    // it a Queen unless told `p`.
                    format!("{mv}p")
                } else {
                    mv.to_string()
                }
            }
            // The Disk suffix `d` would read as a promotion to a Disk.
            Kind::Vyremorn => mv.strip_suffix('d').unwrap_or(mv).to_string(),
            Kind::Nemoroth => mv.to_string(),
        }
    }

    /// Finds the legal ghast move XBoard means by `text`.
    pub fn move_from_xboard(&self, fen: &str, legal: &[String], text: &str) -> Option<String> {
        let text = text.trim();
        if let Some(m) = legal.iter().find(|m| m.as_str() == text) {
            return Some(m.clone());
        }
        let lower = text.to_ascii_lowercase();
        legal
            .iter()
            .find(|m| self.move_to_xboard(fen, m).to_ascii_lowercase() == lower)
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

fn nemoroth_letter(c: char) -> char {
    // NFEN letters that XBoard cannot show as such are drawn as the
    // nearest piece: statues and digesting piles as their owner colour.
    match c {
        'p' | 'd' => 'x',
        'M' => 'K',
        'm' => 'k',
        other => other,
    }
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

/// The letter on `sq` of a Nimrod FEN (8x8).
fn nimrod_piece_at(fen: &str, (file, rank): (u32, u32)) -> Option<char> {
    let placement = fen.split_whitespace().next()?;
    let row = placement
        .split('/')
        .nth(7usize.checked_sub(rank as usize)?)?;
    let mut f = 0;
    for c in row.chars() {
        if let Some(d) = c.to_digit(10) {
            f += d;
            continue;
        }
        if c == '+' {
            continue;
        }
        if f == file {
            return Some(c);
        }
        f += 1;
    }
    None
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

    #[test]
    fn dragon_promotion_maps_to_letter() {
        let v = xb_variant("dragon-nimrod").unwrap();
        let fen = "whnqkanu/pppppp1p/6p1/8/8/1P6/P1PPPPPP/WHNQKANU w KQkq - 0 2";
        assert_eq!(v.move_to_xboard(fen, "a1h8+"), "a1h8j");
        let legal = vec!["a1h8+".to_string(), "a1g7".to_string()];
        assert_eq!(v.move_from_xboard(fen, &legal, "a1h8j").unwrap(), "a1h8+");
        assert_eq!(v.move_from_xboard(fen, &legal, "a1h8").unwrap(), "a1h8+");
        assert_eq!(v.move_from_xboard(fen, &legal, "a1h8+").unwrap(), "a1h8+");
        assert!(v.move_from_xboard(fen, &legal, "a1h7").is_none());
    }

    #[test]
    fn corner_pawn_on_last_rank_stays_a_pawn() {
        let v = xb_variant("nimrod-corner").unwrap();
        let fen = "k7/5P2/8/8/8/8/8/7K w - - 0 1";
        assert_eq!(v.move_to_xboard(fen, "f7f8"), "f7f8p");
        assert_eq!(v.move_to_xboard(fen, "f7e7"), "f7e7");
        let legal = vec!["f7f8".to_string(), "f7e7".to_string()];
        assert_eq!(v.move_from_xboard(fen, &legal, "f7f8p").unwrap(), "f7f8");
        assert_eq!(v.move_from_xboard(fen, &legal, "f7f8q").unwrap(), "f7f8");
        let promo = vec!["b7b8q".to_string(), "b7b8n".to_string()];
        assert!(v.move_from_xboard(fen, &promo, "b7b8p").is_none());
    }

    #[test]
    fn vyremorn_fen_has_holes() {
        let v = xb_variant("vyremorn").unwrap();
        let fen = "8k/9/9/13/13/13/13/2N^10/13/9/9/K8 w c5 0 1";
        let x = v.fen_to_xboard(fen);
        assert_eq!(
            x,
            "****8k/****9/****9/13/13/13/13/2N10/13/9****/9****/K8**** w - - 0 1"
        );
        assert_eq!(v.fen_from_xboard(&x, fen).unwrap(), fen);
    }

    #[test]
    fn squares_parse() {
        assert_eq!(square_range("b7c8d"), Some(((1, 6), (2, 7))));
        assert_eq!(square_range("a10m12"), Some(((0, 9), (12, 11))));
        assert_eq!(square_range("x"), None);
    }
}
