//! NFEN (5.1) and NMN (5.2): parsing, canonical printing, validation, and
//! the `d` drawing.

use super::apply::Tracker;
use super::board::*;
use super::movegen::NMove;
use crate::game::{Color, GameError, History, err, parse_move_counter};

pub const START_NFEN: &str = "walgblaw/hhhhhhhh/8/8/8/8/HHHHHHHH/WALGBLAW a - 0";

fn sq_name(sq: usize) -> String {
    crate::bitboard::square_name(sq as u8)
}

fn parse_sq(text: &str) -> Option<usize> {
    crate::bitboard::parse_square(text).map(|s| s as usize)
}

/// The NFEN token of one piece.
pub fn token(c: u8) -> String {
    if c == MUMMY {
        return "M".into();
    }
    let mut s = String::new();
    if is_statue(c) {
        s.push('p');
    }
    if is_digesting(c) {
        s.push('d');
    }
    let l = KIND_LETTERS[kind(c) as usize] as char;
    s.push(if owner(c) == 0 {
        l
    } else {
        l.to_ascii_lowercase()
    });
    s
}

/// The NFEN text of one square's cell (empty string for an empty square).
pub fn cell_text(cell: &[u8]) -> String {
    match cell.len() {
        0 => String::new(),
        1 => token(cell[0]),
        _ => {
            let mut s = String::from("(");
            for &c in cell {
                s.push_str(&token(c));
            }
            s.push(')');
            s
        }
    }
}

impl Nemoroth {
    pub fn to_nfen(&self) -> String {
        let mut s = String::new();
        for y in (0..8).rev() {
            let mut empty = 0;
            for x in 0..8 {
                let sq = y * 8 + x;
                let p = self.pieces(sq);
                if p.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(&cell_text(p));
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if y > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.side == Color::White { 'a' } else { 'o' });
        s.push(' ');
        // Ichor sorted by square name (file, then rank).
        let mut entries: Vec<usize> = (0..64).filter(|&q| self.ichor[q] > 0).collect();
        entries.sort_by_key(|&q| (fx(q), fy(q)));
        if entries.is_empty() {
            s.push('-');
        } else {
            let parts: Vec<String> = entries
                .iter()
                .map(|&q| format!("{}={}", sq_name(q), self.ichor[q]))
                .collect();
            s.push_str(&parts.join(","));
        }
        s.push_str(&format!(" {}", self.ply));
        s
    }

    pub fn from_nfen(text: &str) -> Result<Nemoroth, GameError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 3 || fields.len() > 4 {
            return err(format!(
                "NFEN needs 3 or 4 fields (board, side, ichor [, plies]), found {}",
                fields.len()
            ));
        }
        let mut pos = Nemoroth::empty();
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return err(format!("the board has {} ranks, expected 8", ranks.len()));
        }
        let mut total = 0;
        for (ri, rank) in ranks.iter().enumerate() {
            let y = 7 - ri as i32;
            let rank_no = 8 - ri;
            let b = rank.as_bytes();
            let mut x = 0i32;
            let mut i = 0;
            while i < b.len() {
                let ch = b[i];
                if (b'1'..=b'8').contains(&ch) {
                    x += (ch - b'0') as i32;
                    i += 1;
                    if x > 8 {
                        return err(format!("rank {rank_no} covers more than 8 squares"));
                    }
                    continue;
                }
                if x >= 8 {
                    return err(format!("rank {rank_no} covers more than 8 squares"));
                }
                let sq = sq_at(x, y).unwrap();
                let mut codes: Vec<u8> = Vec::new();
                if ch == b'(' {
                    i += 1;
                    loop {
                        if i >= b.len() {
                            return err(format!("unclosed '(' on rank {rank_no}"));
                        }
                        if b[i] == b')' {
                            i += 1;
                            break;
                        }
                        if b[i].is_ascii_digit() || b[i] == b'(' {
                            return err(format!("unclosed '(' on rank {rank_no}"));
                        }
                        let (c, used) = parse_token(&b[i..], rank_no)?;
                        codes.push(c);
                        i += used;
                    }
                    if codes.len() < 2 {
                        return err(format!(
                            "a stack on {} must hold at least two pieces",
                            sq_name(sq)
                        ));
                    }
                } else {
                    let (c, used) = parse_token(&b[i..], rank_no)?;
                    codes.push(c);
                    i += used;
                }
                if codes.len() > STACK_CAP {
                    return err(format!(
                        "{} holds {} pieces; this engine allows at most {STACK_CAP} per square",
                        sq_name(sq),
                        codes.len()
                    ));
                }
                if codes.iter().filter(|&&c| c == MUMMY).count() > 1 {
                    return err(format!("{} holds two Mummies", sq_name(sq)));
                }
                if codes.len() > 1 && codes.iter().any(|&c| c != MUMMY && kind(c) == K_L) {
                    return err(format!(
                        "a Leaf Pile shares {} with other pieces",
                        sq_name(sq)
                    ));
                }
                total += codes.len();
                for c in codes {
                    pos.insert_raw(sq, c);
                }
                pos.refresh(sq);
                x += 1;
            }
            if x != 8 {
                return err(format!("rank {rank_no} covers {x} squares, expected 8"));
            }
        }
        if total > MAX_PIECES {
            return err(format!(
                "{total} pieces; this engine allows at most {MAX_PIECES}"
            ));
        }
        pos.side = match fields[1] {
            "a" => Color::White,
            "o" => Color::Black,
            other => return err(format!("side to move must be 'a' or 'o', found '{other}'")),
        };
        if fields[2] != "-" {
            for entry in fields[2].split(',') {
                let Some((sq, n)) = entry.split_once('=') else {
                    return err(format!("ichor entry '{entry}' is not SQ=N"));
                };
                let Some(sq) = parse_sq(sq) else {
                    return err(format!("ichor entry '{entry}': bad square '{sq}'"));
                };
                let n: u8 = match n.parse() {
                    Ok(v) if (1..=10).contains(&v) => v,
                    _ => {
                        return err(format!(
                            "ichor entry '{entry}': remaining plies must be 1..10"
                        ));
                    }
                };
                if pos.ichor[sq] != 0 {
                    return err(format!("ichor on {} is given twice", sq_name(sq)));
                }
                pos.ichor[sq] = n;
                pos.ichor_bb |= 1u64 << sq;
            }
        }
        if let Some(p) = fields.get(3) {
            pos.ply = parse_move_counter("plies", p, 0)?;
        }
        // Positions that cannot arise.
        for sq in 0..64 {
            for &c in pos.pieces(sq) {
                if c == MUMMY {
                    continue;
                }
                if kind(c) == K_Z && pos.ichor[sq] != 0 {
                    return err(format!("a Zombie stands on ichor on {}", sq_name(sq)));
                }
                if kind(c) == K_H && fy(sq) == last_rank(owner(c)) {
                    return err(format!(
                        "a Human stands on its own last rank on {}",
                        sq_name(sq)
                    ));
                }
                if petrifiable(c) && pos.is_seen(sq) {
                    return err(format!(
                        "a mobile piece stands on {}, which a Basilisk sees (it would be a statue)",
                        sq_name(sq)
                    ));
                }
            }
        }
        Ok(pos)
    }

    /// Canonical NMN.
    pub fn move_text(&self, mv: NMove) -> String {
        if mv.is_scream() {
            let (order, n) = mv.order();
            let g = mv.from();
            let mut s = sq_name(g);
            s.push('@');
            for &d in &order[..n] {
                let (dx, dy) = DIRS[d as usize];
                s.push_str(&sq_name(sq_at(fx(g) + dx, fy(g) + dy).unwrap()));
            }
            return s;
        }
        let mut s = sq_name(mv.from());
        s.push_str(&sq_name(mv.to()));
        let us = self.side.index();
        let mut kinds = 0u8;
        for &c in self.pieces(mv.from()) {
            if is_mobile(c) && owner(c) == us {
                kinds |= 1 << kind(c);
            }
        }
        if kinds.count_ones() >= 2 {
            s.push(KIND_LETTERS[mv.kind() as usize] as char);
        }
        s
    }

    /// Parses NMN and checks legality.
    pub fn parse_nmn(&self, history: &History, text: &str) -> Result<NMove, GameError> {
        let text = text.trim();
        let mut legal: Vec<(NMove, Nemoroth)> = Vec::new();
        self.generate(history, &mut |m, c| legal.push((m, c.clone())));
        let us = self.side.index();
        if let Some((g, rest)) = text.split_once('@') {
            let Some(g) = parse_sq(&g.to_ascii_lowercase()) else {
                return err(format!("scream '{text}': '{g}' is not a square"));
            };
            let has_goaway = self
                .pieces(g)
                .iter()
                .any(|&c| is_mobile(c) && owner(c) == us && kind(c) == K_A);
            if !has_goaway {
                return err(format!(
                    "scream '{text}': no mobile Go Away of the side to move on {}",
                    sq_name(g)
                ));
            }
            let rest = rest.to_ascii_lowercase();
            if !rest.is_ascii() || rest.len() % 2 != 0 {
                return err(format!(
                    "scream '{text}': the push order must be a list of squares"
                ));
            }
            let mut occupied = Vec::new();
            for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                if let Some(s) = sq_at(fx(g) + dx, fy(g) + dy)
                    && self.count(s) > 0
                {
                    occupied.push(d as u8);
                }
            }
            if occupied.is_empty() {
                return err(format!(
                    "scream '{text}': no neighbour of {} is occupied",
                    sq_name(g)
                ));
            }
            let mut order: Vec<u8> = Vec::new();
            if rest.is_empty() {
                order = occupied.clone();
            } else {
                for i in (0..rest.len()).step_by(2) {
                    let name = &rest[i..i + 2];
                    let Some(s) = parse_sq(name) else {
                        return err(format!("scream '{text}': '{name}' is not a square"));
                    };
                    let (dx, dy) = (fx(s) - fx(g), fy(s) - fy(g));
                    let Some(d) = DIRS.iter().position(|&v| v == (dx, dy)) else {
                        return err(format!(
                            "scream '{text}': {name} is not adjacent to {}",
                            sq_name(g)
                        ));
                    };
                    if self.count(s) == 0 {
                        return err(format!("scream '{text}': {name} is empty"));
                    }
                    if order.contains(&(d as u8)) {
                        return err(format!("scream '{text}': {name} is listed twice"));
                    }
                    order.push(d as u8);
                }
                if order.len() != occupied.len() {
                    let missing: Vec<String> = occupied
                        .iter()
                        .filter(|d| !order.contains(d))
                        .map(|&d| {
                            let (dx, dy) = DIRS[d as usize];
                            sq_name(sq_at(fx(g) + dx, fy(g) + dy).unwrap())
                        })
                        .collect();
                    return err(format!(
                        "scream '{text}': the order misses occupied neighbour(s) {}",
                        missing.join(", ")
                    ));
                }
            }
            let mut result = self.clone();
            result.apply_scream(g, &order, &mut Tracker::new());
            for (m, child) in &legal {
                if m.is_scream() && m.from() == g && child.same_state(&result) {
                    return Ok(*m);
                }
            }
            return err(format!("illegal move '{text}' in {}", self.to_nfen()));
        }
        let b = text.as_bytes();
        if !(b.len() == 4 || b.len() == 5) || !text.is_ascii() {
            return err(format!(
                "cannot parse move '{text}': expected from-square, to-square and an optional kind letter, or a scream 'SQ@SQ...'"
            ));
        }
        let lower = text.to_ascii_lowercase();
        let (Some(from), Some(to)) = (parse_sq(&lower[0..2]), parse_sq(&lower[2..4])) else {
            return err(format!("cannot parse move '{text}': bad square"));
        };
        let kind_wanted = if b.len() == 5 {
            let l = b[4].to_ascii_uppercase();
            let Some(k) = KIND_LETTERS.iter().position(|&x| x == l) else {
                return err(format!(
                    "move '{text}': unknown kind letter '{}'",
                    b[4] as char
                ));
            };
            let present = self
                .pieces(from)
                .iter()
                .any(|&c| is_mobile(c) && owner(c) == us && kind(c) == k as u8);
            if !present {
                return err(format!(
                    "move '{text}': no mobile {} of the side to move on {}",
                    l as char,
                    sq_name(from)
                ));
            }
            Some(k as u8)
        } else {
            None
        };
        let matches: Vec<NMove> = legal
            .iter()
            .map(|(m, _)| *m)
            .filter(|m| {
                !m.is_scream()
                    && m.from() == from
                    && m.to() == to
                    && kind_wanted.is_none_or(|k| m.kind() == k)
            })
            .collect();
        match matches.len() {
            0 => err(format!("illegal move '{text}' in {}", self.to_nfen())),
            1 => Ok(matches[0]),
            _ => err(format!(
                "move '{text}' is ambiguous: add the kind letter ({})",
                matches
                    .iter()
                    .map(|m| self.move_text(*m))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// Human-readable list of the compulsions of the side to move.
    pub fn compulsion_lines(&self) -> Vec<String> {
        let c = self.compulsions();
        let mut lines = Vec::new();
        for i in 0..c.n_pieces {
            let sq = c.start_sq[i] as usize;
            let code = c.tracker.code[i];
            let mut why = Vec::new();
            if c.flags[i] & super::compulsion::F_MO != 0 {
                why.push("MO (shares its square)".to_string());
            }
            if c.flags[i] & super::compulsion::F_ICH != 0 {
                why.push(format!("ICH (ichor, {} plies left)", self.ichor[sq]));
            }
            if c.flags[i] & super::compulsion::F_FL != 0 {
                for e in c.n_pieces..c.tracker.n {
                    let es = c.start_sq[e] as usize;
                    if T.field[es] & (1u64 << sq) != 0 {
                        why.push(format!(
                            "FL from {} on {} (d²={}, must get farther)",
                            token(c.tracker.code[e]),
                            sq_name(es),
                            T.d2[sq][es]
                        ));
                    }
                }
            }
            lines.push(format!(
                "{} {}: {}",
                token(code),
                sq_name(sq),
                why.join("; ")
            ));
        }
        lines
    }

    /// The drawing for the `d` command.
    pub fn diagram(&self) -> String {
        let mut texts = vec![String::new(); 64];
        let mut width = 3;
        for (sq, t) in texts.iter_mut().enumerate() {
            let mut s = cell_text(self.pieces(sq));
            if s.is_empty() {
                s.push('.');
            }
            if self.ichor[sq] > 0 {
                s.push_str(&format!("~{}", self.ichor[sq]));
            }
            width = width.max(s.len());
            *t = s;
        }
        let mut out = String::new();
        for y in (0..8).rev() {
            out.push_str(&format!(" {} ", y + 1));
            for x in 0..8 {
                out.push_str(&format!(" {:>w$}", texts[y * 8 + x], w = width));
            }
            out.push('\n');
        }
        out.push_str("   ");
        for x in 0..8 {
            out.push_str(&format!(" {:>w$}", (b'a' + x) as char, w = width));
        }
        out.push('\n');
        out.push_str(
            "Legend: upper case Alabaster, lower case Obsidian, M Mummy, p statue, d digesting, (..) stack, ~N ichor with N plies left\n",
        );
        out
    }
}

/// Parses one NFEN token at the start of `b`; returns the code and length.
fn parse_token(b: &[u8], rank_no: usize) -> Result<(u8, usize), GameError> {
    let mut i = 0;
    let mut statue = false;
    let mut digest = false;
    if i < b.len() && b[i] == b'p' {
        statue = true;
        i += 1;
    }
    if i < b.len() && b[i] == b'd' {
        digest = true;
        i += 1;
    }
    let Some(&l) = b.get(i) else {
        return err(format!("rank {rank_no}: a prefix without a piece letter"));
    };
    i += 1;
    if l == b'M' {
        if statue || digest {
            return err(format!("rank {rank_no}: 'p' or 'd' on a Mummy"));
        }
        return Ok((MUMMY, i));
    }
    let upper = l.to_ascii_uppercase();
    let Some(k) = KIND_LETTERS.iter().position(|&x| x == upper) else {
        // `b` starts at a character and its bytes before `l` are ASCII, so
        // `l` starts a character too.
        let text = String::from_utf8_lossy(&b[i - 1..]);
        let ch = text.chars().next().unwrap_or('?');
        return err(format!("rank {rank_no}: unknown piece letter '{ch}'"));
    };
    let own = if l.is_ascii_uppercase() { 0 } else { 1 };
    if digest && k as u8 != K_L {
        return err(format!(
            "rank {rank_no}: 'd' (digesting) on a piece other than a Leaf Pile"
        ));
    }
    if statue && k as u8 == K_Z {
        return err(format!(
            "rank {rank_no}: 'pZ': a Zombie can never be a statue"
        ));
    }
    let mut c = make(own, k as u8, statue);
    if digest {
        c |= DIGEST;
    }
    Ok((c, i))
}
