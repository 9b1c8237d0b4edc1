//! Static evaluation for Vyrémorn.
//!
//! - **One parameter set, one file.** Every weight lives in [`EvalParams`],
//!   whose single source is `tuning/vyremorn.params` (format:
//!   `tuning/README.md`), compiled in with `include_str!` and parsed once.
//!   [`EvalParams::parse`] names the line of any error;
//!   [`EvalParams::to_text`] writes the canonical form and round-trips.
//! - **Terms.** Material (values measured, see `measure_piece_mobility`
//!   and `tuning/README.md`); mobility per kind; Pawn and Arbalest
//!   promotion state (outside the own Court) and advance of Pawns and
//!   Disks; Disk riders (a mounted piece is shielded: capturing it turns
//!   the Disk); king safety: attack units on the King zone, the Citadel
//!   next to the King and still present (castling), a Magus able to
//!   Extricate, own Disks shielding the King, open diagonals toward the King
//!   with an enemy diagonal slider on them; control of the Field and of the
//!   two bypass diagonals; tempo.
//! - **Symmetric.** Every term is computed per colour with that colour's
//!   forward direction and Court, so the 180° rotation with colours swapped
//!   evaluates the same from each side's view (tested).
//! - Tapered midgame/endgame by a phase from the non-Pawn material.

use super::geometry::*;
use super::position::*;
use crate::params_file::{self, ParamSet, Visitor};
use std::sync::LazyLock;

/// Static evaluations are clamped to this magnitude (far below mates).
pub const EVAL_LIMIT: i32 = 10_000;
pub use crate::params_file::PARAM_LIMIT;

/// Kinds in the params file: the 13 piece kinds (index kind - 1), then the
/// Disk (index 13).
pub const NKINDS: usize = 14;
pub const DISK_INDEX: usize = 13;
pub const KIND_NAMES: [&str; NKINDS] = [
    "king",
    "queen",
    "magus",
    "citadel",
    "grandbard",
    "flamen",
    "bard",
    "wing",
    "knight",
    "rook",
    "arbalest",
    "elephant",
    "pawn",
    "disk",
];

pub type Score = [i32; 2];

/// Every evaluation weight (values in `tuning/vyremorn.params`, format:
/// [`crate::params_file`]). `Default` is all zeros.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalParams {
    /// Material per kind (the King and the uncapturable Citadel: 0).
    pub material: [Score; NKINDS],
    /// Weight of each kind in the game phase; `phase_total` = start array.
    pub phase_weight: [i32; NKINDS],
    pub phase_total: i32,
    /// Per attacked square (not own-occupied) above `mobility_center`.
    pub mobility: [Score; NKINDS],
    pub mobility_center: [i32; NKINDS],
    /// Pawn / Arbalest standing outside its own Court (promoted).
    pub promoted_pawn: Score,
    pub promoted_arbalest: Score,
    /// Per step of advance (x + y for White) of Pawns and Disks.
    pub pawn_advance: Score,
    pub disk_advance: Score,
    /// A piece riding an own Disk.
    pub rider: Score,
    /// Attack units per King-zone square a piece of the kind attacks;
    /// danger = min(units² / div, cap), midgame, and `eg_percent` of it in
    /// the endgame.
    pub king_attack_weight: [i32; NKINDS],
    pub king_danger_div: i32,
    pub king_danger_cap: i32,
    pub king_danger_eg_percent: i32,
    /// The own Citadel still on the board (castling available).
    pub citadel_present: Score,
    /// The own Citadel next to the King.
    pub citadel_near_king: Score,
    /// An own Magus whose jump reaches the King (Extricating possible).
    pub magus_guard: Score,
    /// Own Disk on a square next to the King on its forward side.
    pub disk_shield: Score,
    /// Diagonal from the King with no own piece before the first enemy
    /// piece, which slides along it toward the King.
    pub open_diagonal: Score,
    /// Per Field square attacked.
    pub field_control: Score,
    /// Per bypass-diagonal square attacked.
    pub bypass_control: Score,
    pub tempo: Score,
}

impl ParamSet for EvalParams {
    const HEADER: &'static str = "# ghast: Vyremorn evaluation parameters (format: tuning/README.md).\n\
                                  # Pairs are 'midgame endgame'; values in centipawns.\n";
    const NAME_WIDTH: usize = 29;

    fn visit(&mut self, v: &mut Visitor<'_>) {
        let k = &KIND_NAMES;
        v.section("Material per kind (midgame endgame).").per_kind(
            "material",
            k,
            &mut self.material,
        );
        v.section("Game phase: weight per kind; phase_total = start array.")
            .per_kind("phase_weight", k, &mut self.phase_weight)
            .positive("phase_total", &mut self.phase_total);
        v.section("Mobility: per attacked square not held by an own piece, above the centre.")
            .per_kind("mobility", k, &mut self.mobility);
        v.section("Typical mobility per kind (measured in random games).")
            .per_kind("mobility_center", k, &mut self.mobility_center);
        v.section("Pawns, Arbalests, Disks: promotion state, advance, riders.")
            .param("promoted_pawn", &mut self.promoted_pawn)
            .param("promoted_arbalest", &mut self.promoted_arbalest)
            .param("pawn_advance", &mut self.pawn_advance)
            .param("disk_advance", &mut self.disk_advance)
            .param("rider", &mut self.rider);
        v.section("King safety: attack units per zone square; danger = min(units^2/div, cap).")
            .per_kind("king_attack_weight", k, &mut self.king_attack_weight)
            .positive("king_danger_div", &mut self.king_danger_div)
            .param("king_danger_cap", &mut self.king_danger_cap)
            .param("king_danger_eg_percent", &mut self.king_danger_eg_percent);
        v.section("King defence: Citadel, Magus, Disk shield, open diagonals.")
            .param("citadel_present", &mut self.citadel_present)
            .param("citadel_near_king", &mut self.citadel_near_king)
            .param("magus_guard", &mut self.magus_guard)
            .param("disk_shield", &mut self.disk_shield)
            .param("open_diagonal", &mut self.open_diagonal);
        v.section("Control of the Field and the bypass diagonals, per attacked square.")
            .param("field_control", &mut self.field_control)
            .param("bypass_control", &mut self.bypass_control);
        v.section("Side to move.").param("tempo", &mut self.tempo);
    }
}

params_file::param_set_methods!(EvalParams);

static DEFAULT: LazyLock<EvalParams> = LazyLock::new(|| {
    EvalParams::parse(include_str!("../../../tuning/vyremorn.params"))
        .unwrap_or_else(|e| panic!("tuning/vyremorn.params: {e}"))
});

/// The built-in parameters, parsed once from `tuning/vyremorn.params`.
pub fn default_params() -> &'static EvalParams {
    &DEFAULT
}

/// Calls `f` with every square the piece of `kind` and `color` on `s`
/// attacks (capture patterns, as the attack test sees them).
#[inline]
pub fn piece_attacks(p: &Position, s: Sq, kind: u8, color: usize, f: &mut impl FnMut(Sq)) {
    let g = geo();
    let si = s as usize;
    let slide = |d: usize, f: &mut dyn FnMut(Sq)| {
        for &t in g.ray[si][d].as_slice() {
            f(t);
            if p.board[t as usize] != EMPTY {
                break;
            }
        }
    };
    let step = |d: usize, f: &mut dyn FnMut(Sq)| {
        let t = g.nb[si][d];
        if t != NONE {
            f(t);
        }
    };
    let jumps = |fam: usize, f: &mut dyn FnMut(Sq)| {
        for j in &g.jumps[fam][si] {
            if p.path_clear(j, color) {
                f(j.to);
            }
        }
    };
    match kind {
        KING => (0..8).for_each(|d| step(d, f)),
        QUEEN => (0..8).for_each(|d| slide(d, f)),
        ROOK => (0..4).for_each(|d| slide(d, f)),
        BARD => (4..8).for_each(|d| slide(d, f)),
        GRAND_BARD => {
            (4..8).for_each(|d| slide(d, f));
            (0..4).for_each(|d| step(d, f));
        }
        FLAMEN => {
            (0..4).for_each(|d| slide(d, f));
            (4..8).for_each(|d| step(d, f));
        }
        MAGUS => jumps(J_MAGUS, f),
        KNIGHT => jumps(J_KNIGHT, f),
        WING => jumps(J_WING, f),
        ELEPHANT => {
            (4..8).for_each(|d| step(d, f));
            jumps(J_ELEPHANT, f);
        }
        ARBALEST => {
            slide(FWD_POINT[color], f);
            FWD_FLATS[color].iter().for_each(|&d| step(d, f));
        }
        PAWN => {
            step(FWD_POINT[color], f);
            if Position::promoted(color, s) {
                SIDE_POINTS.iter().for_each(|&d| step(d, f));
            }
        }
        _ => {} // Citadel
    }
}

/// Material value (midgame) of what stands on a cell, for move ordering.
pub fn cell_value(c: Cell) -> i32 {
    cell_value_in(default_params(), c)
}

/// [`cell_value`] with the weights `p` (an `EvalFile`).
pub fn cell_value_in(p: &EvalParams, c: Cell) -> i32 {
    let mut v = 0;
    if kind_of(c) != 0 {
        v += p.material[kind_of(c) as usize - 1][0];
    }
    if disk_of(c) != 0 {
        v += p.material[DISK_INDEX][0];
    }
    v
}

/// Values of what `mv` captures and of what captures it (a Disk moving on
/// its own counts as a Disk), with the weights `params`.
fn capture_values(params: &EvalParams, p: &Position, mv: Move) -> (i32, i32) {
    let victim = cell_value_in(params, p.board[mv.to() as usize]);
    let attacker = if mv.has(F_DISK) {
        params.material[DISK_INDEX][0]
    } else {
        cell_value_in(params, p.board[mv.from() as usize] & 31)
    };
    (victim, attacker)
}

/// MVV-LVA: the victim's value first, the cheaper attacker breaks ties.
pub fn mvv_lva(p: &Position, mv: Move) -> i32 {
    let (victim, attacker) = capture_values(default_params(), p, mv);
    victim * 16 - attacker / 16
}

/// What a capture wins if the opponent recaptures once on the target when
/// it can (x-rays, pins and the rest of the exchange are ignored): the
/// victim's value, minus the capturer's when the target is attacked.
pub fn capture_gain_estimate(p: &Position, mv: Move) -> i32 {
    capture_gain_estimate_in(default_params(), p, mv)
}

/// [`capture_gain_estimate`] with the piece values of `params`.
pub fn capture_gain_estimate_in(params: &EvalParams, p: &Position, mv: Move) -> i32 {
    let (victim, attacker) = capture_values(params, p, mv);
    if p.attacked(mv.to(), p.side.index() ^ 1) {
        victim - attacker
    } else {
        victim
    }
}

/// Whether `color` has a piece other than King, Pawns, Disks and Citadel
/// (the null-move condition).
pub fn has_piece_material(p: &Position, color: usize) -> bool {
    geo().squares.iter().any(|&s| {
        let c = p.board[s as usize];
        let k = kind_of(c);
        k != 0 && pcolor(c) == color && !matches!(k, KING | PAWN | CITADEL)
    })
}

/// The bypass diagonals (x - y = -5 and x - y = 6).
#[inline(always)]
fn on_bypass(s: Sq) -> bool {
    let d = x_of(s) - y_of(s);
    d == -5 || d == 6
}

/// Static evaluation with the built-in parameters, side to move's view.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, default_params())
}

/// Static evaluation with the given parameters, side to move's view.
pub fn evaluate_with(pos: &Position, p: &EvalParams) -> i32 {
    let g = geo();
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut phase = 0;
    // Attack units on each colour's King zone (the King and neighbours).
    let mut units = [0i32; 2];
    let mut in_zone = [[false; NSQ]; 2];
    for (zone, &k) in in_zone.iter_mut().zip(&pos.king) {
        zone[k as usize] = true;
        for &t in &g.nb[k as usize] {
            if t != NONE {
                zone[t as usize] = true;
            }
        }
    }
    let add = |c: usize, s: Score, mg: &mut [i32; 2], eg: &mut [i32; 2]| {
        mg[c] += s[0];
        eg[c] += s[1];
    };
    let mut citadel = [NONE; 2];
    for &s in &g.squares {
        let cell = pos.board[s as usize];
        if cell == EMPTY {
            continue;
        }
        let si = s as usize;
        let adv = |c: usize| {
            if c == 0 {
                x_of(s) + y_of(s)
            } else {
                23 - x_of(s) - y_of(s)
            }
        };
        if disk_of(cell) != 0 {
            let c = disk_of(cell) as usize - 1;
            add(c, p.material[DISK_INDEX], &mut mg, &mut eg);
            phase += p.phase_weight[DISK_INDEX];
            let a = adv(c);
            mg[c] += p.disk_advance[0] * a;
            eg[c] += p.disk_advance[1] * a;
            if kind_of(cell) != 0 {
                add(c, p.rider, &mut mg, &mut eg);
            }
            // Disk attacks: forward flats.
            for d in FWD_FLATS[c] {
                let t = g.nb[si][d];
                if t != NONE && in_zone[c ^ 1][t as usize] {
                    units[c ^ 1] += p.king_attack_weight[DISK_INDEX];
                }
            }
            // Shield: an own Disk next to the King on its forward side.
            let k = pos.king[c];
            let (kx, ky) = (x_of(k), y_of(k));
            let (dx, dy) = (x_of(s) - kx, y_of(s) - ky);
            let fwd = if c == 0 { dx + dy } else { -dx - dy };
            if dx.abs() <= 1 && dy.abs() <= 1 && fwd > 0 {
                add(c, p.disk_shield, &mut mg, &mut eg);
            }
        }
        let kind = kind_of(cell);
        if kind == 0 {
            continue;
        }
        let c = pcolor(cell);
        let ki = kind as usize - 1;
        add(c, p.material[ki], &mut mg, &mut eg);
        phase += p.phase_weight[ki];
        match kind {
            PAWN => {
                let a = adv(c);
                mg[c] += p.pawn_advance[0] * a;
                eg[c] += p.pawn_advance[1] * a;
                if Position::promoted(c, s) {
                    add(c, p.promoted_pawn, &mut mg, &mut eg);
                }
            }
            ARBALEST if Position::promoted(c, s) => add(c, p.promoted_arbalest, &mut mg, &mut eg),
            CITADEL => citadel[c] = s,
            _ => {}
        }
        if kind == KING || kind == CITADEL {
            continue;
        }
        let mut mob = 0;
        let mut zone = 0;
        let mut field = 0;
        let mut bypass = 0;
        piece_attacks(pos, s, kind, c, &mut |t| {
            let tc = pos.board[t as usize];
            if owner(tc) != Some(c) {
                mob += 1;
            }
            if in_zone[c ^ 1][t as usize] {
                zone += 1;
            }
            match g.region[t as usize] {
                FIELD => field += 1,
                _ if on_bypass(t) => bypass += 1,
                _ => {}
            }
        });
        let m = mob - p.mobility_center[ki];
        mg[c] += p.mobility[ki][0] * m;
        eg[c] += p.mobility[ki][1] * m;
        units[c ^ 1] += zone * p.king_attack_weight[ki];
        mg[c] += p.field_control[0] * field + p.bypass_control[0] * bypass;
        eg[c] += p.field_control[1] * field + p.bypass_control[1] * bypass;
        // A Magus able to Extricate its King.
        if kind == MAGUS {
            let k = pos.king[c];
            if g.region[k as usize] != FIELD
                && g.rev_jumps[J_MAGUS][k as usize]
                    .iter()
                    .any(|j| j.to == s && pos.path_clear(j, c))
            {
                add(c, p.magus_guard, &mut mg, &mut eg);
            }
        }
    }
    for c in 0..2 {
        let k = pos.king[c];
        if citadel[c] != NONE {
            add(c, p.citadel_present, &mut mg, &mut eg);
            let (dx, dy) = (x_of(citadel[c]) - x_of(k), y_of(citadel[c]) - y_of(k));
            if dx.abs() <= 1 && dy.abs() <= 1 {
                add(c, p.citadel_near_king, &mut mg, &mut eg);
            }
        }
        // Open diagonals toward the King.
        for d in 4..8 {
            for &t in g.ray[k as usize][d].as_slice() {
                let tc = pos.board[t as usize];
                if tc == EMPTY {
                    continue;
                }
                let kk = kind_of(tc);
                let enemy_slider = kk != 0
                    && pcolor(tc) != c
                    && (matches!(kk, QUEEN | BARD | GRAND_BARD)
                        || (kk == ARBALEST && d ^ 2 == FWD_POINT[c ^ 1]));
                if enemy_slider {
                    mg[c] -= p.open_diagonal[0];
                    eg[c] -= p.open_diagonal[1];
                }
                break;
            }
        }
        let u = units[c];
        let danger = (u * u / p.king_danger_div).min(p.king_danger_cap);
        mg[c] -= danger;
        eg[c] -= danger * p.king_danger_eg_percent / 100;
    }
    let us = pos.side.index();
    mg[us] += p.tempo[0];
    eg[us] += p.tempo[1];
    let phase = phase.clamp(0, p.phase_total);
    let mgs = mg[0] - mg[1];
    let egs = eg[0] - eg[1];
    let white = (mgs * phase + egs * (p.phase_total - phase)) / p.phase_total;
    let score = if us == 0 { white } else { -white };
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{Rng, random_position, rotate};
    use super::*;
    use crate::game::{Game, MoveBuffer};

    #[test]
    fn default_file_parses_and_round_trips() {
        let p = default_params().clone();
        assert_eq!(EvalParams::parse(&p.to_text()), Ok(p));
    }

    #[test]
    #[ignore]
    fn print_default_params() {
        print!("{}", default_params().to_text());
    }

    #[test]
    fn malformed_files_name_the_line() {
        let text = default_params().to_text();
        let bad = text.replace("material.knight", "material.knigt");
        assert!(
            EvalParams::parse(&bad)
                .unwrap_err()
                .contains("unknown parameter 'material.knigt'")
        );
        let line = text.lines().position(|l| l.starts_with("tempo")).unwrap() + 1;
        let bad: String = text
            .lines()
            .map(|l| {
                if l.starts_with("tempo") {
                    "tempo = 5 x"
                } else {
                    l
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(
            EvalParams::parse(&bad).unwrap_err(),
            format!("line {line}: value 'x' of 'tempo' is not an integer")
        );
        let bad: String = text
            .lines()
            .filter(|l| !l.starts_with("tempo"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            EvalParams::parse(&bad)
                .unwrap_err()
                .contains("missing parameter tempo")
        );
        let bad = format!("{text}\ntempo = 1 1\n");
        assert!(EvalParams::parse(&bad).unwrap_err().contains("given twice"));
        let bad = text.replace("rider ", "rider = 1\n#");
        assert!(EvalParams::parse(&bad).is_err());
    }

    #[test]
    fn rotation_symmetry() {
        let mut rng = Rng::new(99);
        let mut n = 0;
        while n < 300 {
            let Some(p) = random_position(&mut rng) else {
                continue;
            };
            n += 1;
            let r = rotate(&p);
            assert_eq!(
                evaluate(&p),
                evaluate(&r),
                "{} vs {}",
                p.to_fen(),
                r.to_fen()
            );
        }
        let s = Position::startpos();
        assert_eq!(evaluate(&s), evaluate(&rotate(&s)));
    }

    #[test]
    fn sanity() {
        let start = Position::startpos();
        assert!(evaluate(&start).abs() < 60, "{}", evaluate(&start));
        // White without its Queen is losing.
        let no_queen = Position::from_fen(
            &crate::variants::vyremorn::START_FEN.replace("QCEBNPD2", "1CEBNPD2"),
        )
        .unwrap();
        assert!(evaluate(&no_queen) < -600, "{}", evaluate(&no_queen));
        // A promoted Pawn is worth more than the same Pawn at home.
        let home = Position::from_fen("8k/9/9/13/13/13/13/13/2P10/9/9/K8 w - 0 1").unwrap();
        let out = Position::from_fen("8k/9/9/13/13/13/13/13/4P8/9/9/K8 w - 0 1").unwrap();
        assert!(evaluate(&out) > evaluate(&home));
        assert!(evaluate(&start).abs() < EVAL_LIMIT);
        let _ = start.outcome(&crate::game::History::new());
    }

    /// Average number of destinations (move or capture patterns) of each
    /// kind over random fillings of the board, and the value the chess
    /// anchors give it. `cargo test --release measure_piece_mobility --
    /// --ignored --nocapture`.
    #[test]
    #[ignore]
    fn measure_piece_mobility() {
        let g = geo();
        let mut rng = Rng::new(5);
        let samples = 200_000;
        let mut avg = [0f64; 14];
        for kind in 1..=13u8 {
            let mut total = 0u64;
            for _ in 0..samples {
                let mut p = Position::from_fen("8k/9/9/13/13/13/13/13/13/9/9/K8 w - 0 1").unwrap();
                p.board = [EMPTY; NSQ];
                let s = loop {
                    let s = g.squares[rng.below(g.squares.len())];
                    let r = g.region[s as usize];
                    let excluded =
                        (kind == MAGUS && r == FIELD) || (kind == CITADEL && r != WHITE_COURT);
                    if !excluded {
                        break s;
                    }
                };
                p.board[s as usize] = make_piece(kind, 0);
                p.king = [s, s];
                let blockers = 10 + rng.below(51);
                for _ in 0..blockers {
                    let t = g.squares[rng.below(g.squares.len())];
                    if t != s {
                        p.board[t as usize] = make_piece(PAWN, 1);
                    }
                }
                let mut moves = crate::variants::vyremorn::Moves::new();
                p.pseudo_moves(&mut moves, false);
                total += moves.as_slice().iter().filter(|m| m.from() == s).count() as u64;
            }
            avg[kind as usize] = total as f64 / samples as f64;
        }
        let (n, r, q) = (
            avg[KNIGHT as usize],
            avg[ROOK as usize],
            avg[QUEEN as usize],
        );
        let value = |m: f64| {
            if m <= r {
                320.0 + (m - n) * (500.0 - 320.0) / (r - n)
            } else {
                500.0 + (m - r) * (950.0 - 500.0) / (q - r)
            }
        };
        for kind in 1..=13usize {
            println!(
                "{:<10} mobility {:6.2} value {:5.0}",
                KIND_NAMES[kind - 1],
                avg[kind],
                value(avg[kind])
            );
        }
    }
}
