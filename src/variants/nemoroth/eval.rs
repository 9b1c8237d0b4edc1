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
//! Every weight lives in `tuning/nemoroth.params` (compiled in, the format
//! of every evaluator: [`crate::params_file`]; [`EvalParams::parse`] and
//! [`EvalParams::to_text`] round-trip). Scores are centipawn-like, from the
//! side to move's view, clamped to ±[`EVAL_LIMIT`].

use super::board::*;
use crate::params_file::{self, ParamSet, Visitor};
use std::sync::LazyLock;

pub const EVAL_LIMIT: i32 = 10_000;
pub use crate::params_file::PARAM_LIMIT;

/// Kind names in kind order (B G L A W H Z).
pub const KIND_NAMES: [&str; 7] = [
    "basilisk", "ghast", "leaf", "goaway", "fiend", "human", "zombie",
];

/// Every evaluation weight (values in `tuning/nemoroth.params`, format:
/// [`crate::params_file`]). `Default` is all zeros.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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

impl ParamSet for EvalParams {
    const HEADER: &'static str =
        "# ghast: Nemoroth evaluation parameters (src/variants/nemoroth/eval.rs).\n";
    const NAME_WIDTH: usize = 24;

    fn visit(&mut self, v: &mut Visitor<'_>) {
        let k = &KIND_NAMES;
        v.section("Mobile pieces per kind.")
            .per_kind("material", k, &mut self.material);
        v.section("Statues per kind (passive powers remain).")
            .per_kind("statue", k, &mut self.statue);
        v.section(
            "Compulsions: per compelled element of a side's piece, and per compelled piece beyond the first.",
        )
        .param("compelled_mo", &mut self.compelled_mo)
        .param("compelled_ich", &mut self.compelled_ich)
        .param("compelled_fl", &mut self.compelled_fl)
        .param("compelled_extra", &mut self.compelled_extra);
        v.section("Mobility: per pseudo-legal destination, per kind.")
            .per_kind("mobility", k, &mut self.mobility);
        v.section("Ghast fields and Basilisk sight.")
            .param("field_enemy_half", &mut self.field_enemy_half)
            .param("ghast_advance", &mut self.ghast_advance)
            .param("gaze_enemy_half", &mut self.gaze_enemy_half)
            .param("gaze_threat", &mut self.gaze_threat);
        v.section("Ichor next to enemy mobile pieces; side to move.")
            .param("ichor_restrict", &mut self.ichor_restrict)
            .param("tempo", &mut self.tempo);
    }
}

params_file::param_set_methods!(EvalParams);

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
