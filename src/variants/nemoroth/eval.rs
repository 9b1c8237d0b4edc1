//! Static evaluation for Nemoroth.
//!
//! Nemoroth is won by leaving the opponent without a legal move, mostly by
//! compelling several of their pieces at once, so the terms are:
//! - **compulsions**: for each side, its mobile pieces that are (or would
//!   be, on its turn) compelled, by type (MO, ICH, FL), plus a penalty for
//!   every compelled piece beyond the first (one move answers one element);
//! - **mobility**: a cheap count of each mobile piece's pseudo-legal
//!   destinations (empty, non-ichorous, outside foreign Ghast fields), since
//!   a side with no legal move loses;
//! - **Ghast fields**: squares of a side's Ghast fields in the enemy half
//!   and the Ghast's advance;
//! - **material**: mobile pieces per kind, and statues per kind (a statue
//!   keeps its passive power: a statue Ghast still compels, a statue
//!   Basilisk still gazes);
//! - **Basilisk sight**: seen squares in the enemy half, and enemy mobile
//!   pieces next to a seen square (one push petrifies them);
//! - **ichor**: live ichor next to enemy mobile pieces (it blocks their
//!   steps), minus the same next to own pieces;
//! - **tempo**.
//!
//! Every weight lives in `tuning/nemoroth.params` (compiled in, same format
//! as `tuning/nimrod.params`; [`EvalParams::parse`] and
//! [`EvalParams::to_text`] round-trip). Scores are centipawn-like, from the
//! side to move's view, clamped to ±[`EVAL_LIMIT`].

use super::board::*;
use std::collections::HashMap;
use std::sync::LazyLock;

pub const EVAL_LIMIT: i32 = 10_000;
pub const PARAM_LIMIT: i32 = 30_000;

/// Kind names in kind order (B G L A W H Z).
pub const KIND_NAMES: [&str; 7] = [
    "basilisk", "ghast", "leaf", "goaway", "fiend", "human", "zombie",
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Mobile piece per kind.
    pub material: [i32; 7],
    /// Statue per kind.
    pub statue: [i32; 7],
    /// Per compelled element of a side's piece: MO, ICH, FL.
    pub compelled_mo: i32,
    pub compelled_ich: i32,
    pub compelled_fl: i32,
    /// Per compelled piece beyond the first.
    pub compelled_extra: i32,
    /// Per pseudo-legal destination, per kind.
    pub mobility: [i32; 7],
    /// Per square of a side's Ghast fields in the enemy half.
    pub field_enemy_half: i32,
    /// Per rank a mobile Ghast has advanced from its home rank.
    pub ghast_advance: i32,
    /// Per square seen by a side's Basilisks in the enemy half.
    pub gaze_enemy_half: i32,
    /// Per enemy mobile non-Zombie piece next to a square a side's
    /// Basilisk sees.
    pub gaze_threat: i32,
    /// Per (live ichor square, adjacent enemy mobile non-Zombie piece).
    pub ichor_restrict: i32,
    /// Side to move.
    pub tempo: i32,
}

impl EvalParams {
    fn zeroed() -> Self {
        EvalParams {
            material: [0; 7],
            statue: [0; 7],
            compelled_mo: 0,
            compelled_ich: 0,
            compelled_fl: 0,
            compelled_extra: 0,
            mobility: [0; 7],
            field_enemy_half: 0,
            ghast_advance: 0,
            gaze_enemy_half: 0,
            gaze_threat: 0,
            ichor_restrict: 0,
            tempo: 0,
        }
    }

    /// Every parameter in file order: (section comment, name, value).
    fn visit(&mut self, f: &mut dyn FnMut(&'static str, String, &mut i32)) {
        for (k, v) in self.material.iter_mut().enumerate() {
            f(
                "Mobile pieces per kind.",
                format!("material.{}", KIND_NAMES[k]),
                v,
            );
        }
        for (k, v) in self.statue.iter_mut().enumerate() {
            f(
                "Statues per kind (passive powers remain).",
                format!("statue.{}", KIND_NAMES[k]),
                v,
            );
        }
        const C: &str = "Compulsions: per compelled element of a side's piece, and per compelled piece beyond the first.";
        f(C, "compelled_mo".into(), &mut self.compelled_mo);
        f(C, "compelled_ich".into(), &mut self.compelled_ich);
        f(C, "compelled_fl".into(), &mut self.compelled_fl);
        f(C, "compelled_extra".into(), &mut self.compelled_extra);
        for (k, v) in self.mobility.iter_mut().enumerate() {
            f(
                "Mobility: per pseudo-legal destination, per kind.",
                format!("mobility.{}", KIND_NAMES[k]),
                v,
            );
        }
        const G: &str = "Ghast fields and Basilisk sight.";
        f(G, "field_enemy_half".into(), &mut self.field_enemy_half);
        f(G, "ghast_advance".into(), &mut self.ghast_advance);
        f(G, "gaze_enemy_half".into(), &mut self.gaze_enemy_half);
        f(G, "gaze_threat".into(), &mut self.gaze_threat);
        const I: &str = "Ichor next to enemy mobile pieces; side to move.";
        f(I, "ichor_restrict".into(), &mut self.ichor_restrict);
        f(I, "tempo".into(), &mut self.tempo);
    }

    /// Parses the params format; every parameter exactly once, errors name
    /// the line.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut p = Self::zeroed();
        let mut order: Vec<String> = Vec::new();
        p.visit(&mut |_, name, _| order.push(name));
        let mut given: HashMap<String, (usize, i32)> = HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let Some((name, rest)) = line.split_once('=') else {
                return Err(format!(
                    "line {line_no}: expected 'name = value', found '{line}'"
                ));
            };
            let name = name.trim();
            if !order.iter().any(|n| n == name) {
                return Err(format!("line {line_no}: unknown parameter '{name}'"));
            }
            let vals: Vec<&str> = rest.split_whitespace().collect();
            if vals.len() != 1 {
                return Err(format!(
                    "line {line_no}: '{name}' needs 1 value, found {}",
                    vals.len()
                ));
            }
            let v: i32 = vals[0].parse().map_err(|_| {
                format!(
                    "line {line_no}: value '{}' of '{name}' is not an integer",
                    vals[0]
                )
            })?;
            if v.abs() > PARAM_LIMIT {
                return Err(format!(
                    "line {line_no}: value {v} of '{name}' is outside -{PARAM_LIMIT}..={PARAM_LIMIT}"
                ));
            }
            if let Some((first, _)) = given.get(name) {
                return Err(format!(
                    "line {line_no}: '{name}' given twice (first on line {first})"
                ));
            }
            given.insert(name.to_string(), (line_no, v));
        }
        let missing: Vec<&String> = order.iter().filter(|n| !given.contains_key(*n)).collect();
        if let Some(m) = missing.first() {
            return Err(format!(
                "missing parameter '{m}'{}",
                if missing.len() > 1 {
                    format!(" and {} more", missing.len() - 1)
                } else {
                    String::new()
                }
            ));
        }
        p.visit(&mut |_, name, v| *v = given[&name].1);
        Ok(p)
    }

    /// The tuner's view: every weight in file order, by name.
    pub fn flat_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.clone().visit(&mut |_, name, _| out.push(name));
        out
    }

    /// Every weight in the order of [`EvalParams::flat_names`].
    pub fn to_flat(&self) -> Vec<i32> {
        let mut out = Vec::new();
        self.clone().visit(&mut |_, _, v| out.push(*v));
        out
    }

    /// A copy with the weights of `flat`, clamped to the accepted range.
    pub fn with_flat(&self, flat: &[i32]) -> Self {
        let mut p = self.clone();
        let mut i = 0;
        p.visit(&mut |_, _, v| {
            *v = flat[i].clamp(-PARAM_LIMIT, PARAM_LIMIT);
            i += 1;
        });
        assert_eq!(i, flat.len(), "flat parameter count");
        p
    }

    /// The params file text (parses back to `self`).
    pub fn to_text(&self) -> String {
        let mut out = String::from(
            "# ghast: Nemoroth evaluation parameters (src/variants/nemoroth/eval.rs).\n",
        );
        let mut last = "";
        let mut copy = self.clone();
        copy.visit(&mut |section, name, v| {
            if section != last {
                out.push_str(&format!("\n# {section}\n"));
                last = section;
            }
            out.push_str(&format!("{name:<24} = {v}\n"));
        });
        out
    }
}

/// The compiled-in parameters.
pub fn default_params() -> &'static EvalParams {
    static P: LazyLock<EvalParams> = LazyLock::new(|| {
        EvalParams::parse(include_str!("../../../tuning/nemoroth.params"))
            .expect("tuning/nemoroth.params is valid")
    });
    &P
}

pub fn evaluate(pos: &Nemoroth) -> i32 {
    evaluate_with(pos, default_params())
}

/// Rank of `sq` counted from `owner`'s home side (0..7).
#[inline(always)]
fn rel_rank(owner: usize, sq: usize) -> i32 {
    if owner == 0 { fy(sq) } else { 7 - fy(sq) }
}

const HALF: [u64; 2] = [0xffff_ffff_0000_0000, 0x0000_0000_ffff_ffff];

fn side_score(pos: &Nemoroth, c: usize, p: &EvalParams) -> i32 {
    let them = 1 - c;
    let mut s = 0;
    let ghasts = pos.ghasts();
    let mut enemy_fields = 0u64;
    let mut own_fields = 0u64;
    let mut g = ghasts;
    while g != 0 {
        let q = g.trailing_zeros() as usize;
        g &= g - 1;
        if pos.kinds[them][K_G as usize] & (1u64 << q) != 0 {
            enemy_fields |= T.field[q];
        }
        if pos.kinds[c][K_G as usize] & (1u64 << q) != 0 {
            own_fields |= T.field[q];
        }
    }
    let free = !pos.occ & !pos.ichor_bb;
    let mut compelled_pieces = 0;
    let mut b = pos.occ;
    while b != 0 {
        let q = b.trailing_zeros() as usize;
        b &= b - 1;
        let n = pos.count(q);
        let qb = 1u64 << q;
        for i in 0..n {
            let code = pos.cells[q][i];
            if code == MUMMY || owner(code) != c {
                continue;
            }
            let k = kind(code) as usize;
            if is_statue(code) {
                s += p.statue[k];
                continue;
            }
            s += p.material[k];
            // Compulsions.
            let mut compelled = false;
            if n >= 2 {
                s -= p.compelled_mo;
                compelled = true;
            }
            if k != K_Z as usize {
                if pos.ichor[q] >= 2 {
                    s -= p.compelled_ich;
                    compelled = true;
                }
                if enemy_fields & qb != 0 {
                    s -= p.compelled_fl;
                    compelled = true;
                }
            }
            if compelled {
                compelled_pieces += 1;
            }
            // Mobility (pseudo-legal, foreign fields excluded for non-Zombies).
            let blocked = ghasts & !qb;
            let no_field = if blocked == 0 {
                !0
            } else {
                let mut f = 0u64;
                let mut gg = blocked;
                while gg != 0 {
                    let x = gg.trailing_zeros() as usize;
                    gg &= gg - 1;
                    f |= T.field[x];
                }
                !f | T.field[q]
            };
            let targets = match k as u8 {
                K_H => T.human[c][q] & free,
                K_Z => T.king[q] & !pos.leafs(),
                K_L => T.king[q] & !pos.ichor_bb & !pos.immobile,
                K_A => T.goaway[q] & free,
                K_G => T.ghast[q] & free,
                K_B => T.basilisk[c][q] & free,
                _ => {
                    // Wounded Fiend: orthogonal runs of free squares.
                    let mut t = 0u64;
                    for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                        let mut cur = q;
                        while let Some(nx) = sq_at(fx(cur) + dx, fy(cur) + dy) {
                            if free & (1u64 << nx) == 0 {
                                break;
                            }
                            t |= 1u64 << nx;
                            cur = nx;
                        }
                    }
                    t
                }
            };
            let targets = if k as u8 == K_Z {
                targets
            } else {
                targets & no_field
            };
            s += p.mobility[k] * targets.count_ones() as i32;
            if k as u8 == K_G {
                s += p.ghast_advance * rel_rank(c, q);
            }
        }
    }
    if compelled_pieces > 1 {
        s -= p.compelled_extra * (compelled_pieces - 1);
    }
    s += p.field_enemy_half * (own_fields & HALF[c]).count_ones() as i32;
    // Basilisk sight.
    let mut seen = 0u64;
    let mut bb = pos.kinds[c][K_B as usize];
    while bb != 0 {
        let q = bb.trailing_zeros() as usize;
        bb &= bb - 1;
        seen |= T.sees[c][q];
    }
    s += p.gaze_enemy_half * (seen & HALF[c]).count_ones() as i32;
    let mut near_seen = 0u64;
    let mut sb = seen;
    while sb != 0 {
        let q = sb.trailing_zeros() as usize;
        sb &= sb - 1;
        near_seen |= T.king[q];
    }
    let enemy_mobile = pos.mobile[them] & !non_zombie_free(pos, them);
    s += p.gaze_threat * (near_seen & enemy_mobile).count_ones() as i32;
    // Ichor next to enemy / own mobile pieces.
    let mut ib = pos.ichor_bb;
    let own_mobile = pos.mobile[c] & !non_zombie_free(pos, c);
    while ib != 0 {
        let q = ib.trailing_zeros() as usize;
        ib &= ib - 1;
        if pos.ichor[q] >= 2 {
            s += p.ichor_restrict
                * ((T.king[q] & enemy_mobile).count_ones() as i32
                    - (T.king[q] & own_mobile).count_ones() as i32);
        }
    }
    s
}

/// Squares whose only mobile pieces of `c` are Zombies.
fn non_zombie_free(pos: &Nemoroth, c: usize) -> u64 {
    let z = pos.kinds[c][K_Z as usize] & pos.mobile[c];
    let mut out = 0;
    let mut b = z;
    while b != 0 {
        let q = b.trailing_zeros() as usize;
        b &= b - 1;
        if pos
            .pieces(q)
            .iter()
            .all(|&x| x == MUMMY || owner(x) != c || is_statue(x) || kind(x) == K_Z)
        {
            out |= 1u64 << q;
        }
    }
    out
}

pub fn evaluate_with(pos: &Nemoroth, p: &EvalParams) -> i32 {
    let us = pos.side.index();
    let v = side_score(pos, us, p) - side_score(pos, 1 - us, p) + p.tempo;
    v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
