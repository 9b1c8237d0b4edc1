//! Static evaluation for the Nimrod family, in both orientations.
//!
//! Design:
//! - **One parameter set, one file.** Every weight lives in [`EvalParams`],
//!   whose single source of truth is `tuning/nimrod.params` (parsed once into
//!   [`default_params`]). The text format is documented in
//!   `tuning/README.md`; [`EvalParams::parse`] and [`EvalParams::to_text`]
//!   round-trip, so a tuner can write files the engine loads at run time.
//! - **Orientation-free terms.** Nothing is written per orientation or per
//!   colour. Square terms use two coordinates that mean the same in both
//!   orientations: *advance* (progress along the side's forward vector F,
//!   0 at home, 7 at the far side) and *centrality* (ring 0 at the edge to 3
//!   in the centre). Pawn-structure and king-safety masks are derived once
//!   per orientation from the movement tables of [`super::pieces`]: a
//!   passed pawn's front span comes from the pawn's own push and capture
//!   directions, the king zone and pawn shield from the forward steps, and
//!   the open-line test from each enemy kind's slide directions (a Hunter
//!   slides only along some lines, so a line toward the King is dangerous
//!   only if an enemy kind slides along it *toward* the King).
//! - **Tapered.** Every term is a midgame/endgame pair; the two totals are
//!   blended by a phase computed from the non-Pawn material on the board.
//! - **Fast.** One pass over the pieces with table lookups and the shared
//!   magic attacks; no allocation. Material values were measured (mobility
//!   of each kind over random fillings and random games, fitted to the chess
//!   anchors); the ignored test `measure_piece_mobility` reprints the table.
//!
//! The result is in centipawns from the side to move's point of view,
//! clamped to ±[`EVAL_LIMIT`] so it never reaches mate scores.

use super::Flavor;
use super::pieces::*;
use super::position::Position;
use crate::bitboard::{Bitboard, GEOMETRY, SLIDERS, bit, file_of, rank_of, squares};
use crate::game::{EvalTrace, TraceTerm, taper};
use crate::params_file::{self, ParamSet, Visitor};
use std::sync::LazyLock;

/// Static evaluations are clamped to this magnitude (far below mate scores).
pub const EVAL_LIMIT: i32 = 10_000;

pub use crate::params_file::PARAM_LIMIT;

/// Passed-pawn bonuses are indexed by steps to promotion 1..=this (further
/// pawns use the last entry).
pub const PASSED_STEPS: usize = 8;

/// `king_file` entries: a file's distance from the nearer edge, 0..=3.
pub const KING_FILES: usize = 4;

/// `pawn_square` rows: a Pawn's advance 1..=6 (its second to seventh rank).
pub const PAWN_ROWS: usize = 6;
/// `pawn_square` columns: the files a..h (absolute: both Kings start on e).
pub const PAWN_FILES: usize = 8;

/// `piece_square` tables: the plain non-Pawn kinds, Knight to King (the
/// Dragon kinds, which self-play data of `nimrod` never holds, have none).
pub const SQUARE_KINDS: std::ops::RangeInclusive<usize> = KNIGHT..=KING;
/// Number of `piece_square` tables.
pub const SQUARE_KIND_COUNT: usize = KING - KNIGHT + 1;

/// A square table, `[mg/eg][rank from its own side][file]`.
pub type SquareTable = [[[i32; 8]; 8]; 2];

/// `mobility_table` tables: the plain mobile kinds, Knight to Queen (the
/// King's and the Dragon kinds' mobility has no table).
pub const MOBILITY_KINDS: std::ops::RangeInclusive<usize> = KNIGHT..=QUEEN;
/// Number of `mobility_table` tables.
pub const MOBILITY_KIND_COUNT: usize = QUEEN - KNIGHT + 1;
/// Entries per `mobility_table`: safe mobility 0..=27, the Queen's most
/// (a larger count, which no plain kind reaches, would read the last).
pub const MOBILITY_STEPS: usize = 28;

/// A mobility table, `[mg/eg][safe attacked squares]`.
pub type MobilityTable = [[i32; MOBILITY_STEPS]; 2];

/// `enemy_king_offset` tables: the plain kinds that attack a King, Pawn to
/// Queen.
pub const OFFSET_KINDS: std::ops::RangeInclusive<usize> = PAWN..=QUEEN;
/// Number of `enemy_king_offset` tables.
pub const OFFSET_KIND_COUNT: usize = QUEEN - PAWN + 1;
/// Rows of an `enemy_king_offset` table: how far the piece stands from the
/// enemy King along its own forward direction, from seven ranks short of
/// it to [`OFFSET_MAX_BEYOND`] or more beyond it (a King rarely stands
/// far from its home, so further rows would hardly occur).
pub const OFFSET_ROWS: usize = 9;
/// The last row counts pieces this many ranks beyond the enemy King, or more.
pub const OFFSET_MAX_BEYOND: i32 = 1;

/// An `enemy_king_offset` table, `[mg/eg][row][file distance 0..=7]`.
pub type KingOffsetTable = [[[i32; 8]; OFFSET_ROWS]; 2];

/// The `enemy_king_offset` row of a piece this many ranks ahead of the
/// enemy King along its own forward direction (negative: short of it).
const fn offset_row(ranks_ahead: i32) -> usize {
    let ahead = if ranks_ahead > OFFSET_MAX_BEYOND {
        OFFSET_MAX_BEYOND
    } else {
        ranks_ahead
    };
    (ahead + OFFSET_ROWS as i32 - 1 - OFFSET_MAX_BEYOND) as usize
}

/// The first row of an `own_king_offset` table counts pieces this many ranks
/// behind their own King, or more (the rows run to seven ranks ahead, the
/// same nine rows as [`OFFSET_ROWS`]).
pub const OWN_OFFSET_MAX_BEHIND: i32 = 1;

/// The `own_king_offset` row of a piece this many ranks ahead of its own
/// King along its forward direction (negative: behind it).
const fn own_offset_row(ranks_ahead: i32) -> usize {
    let ahead = if ranks_ahead < -OWN_OFFSET_MAX_BEHIND {
        -OWN_OFFSET_MAX_BEHIND
    } else {
        ranks_ahead
    };
    (ahead + OWN_OFFSET_MAX_BEHIND) as usize
}

/// `threat_table` rows: the cheapest plain kind of ours that attacks an
/// enemy piece, Pawn to King in kind order (about value order; the three
/// minor kinds are worth about the same, so their order matters little).
pub const THREAT_ATTACKERS: std::ops::RangeInclusive<usize> = PAWN..=KING;
/// Number of `threat_table` rows.
pub const THREAT_ATTACKER_COUNT: usize = KING - PAWN + 1;
/// `threat_table` columns: the attacked piece, Pawn to Queen.
pub const THREAT_VICTIM_COUNT: usize = QUEEN - PAWN + 1;
/// A threat table, `[mg/eg][cheapest attacker][victim]`.
pub type ThreatTable = [[[i32; THREAT_VICTIM_COUNT]; THREAT_ATTACKER_COUNT]; 2];
/// The two threat tables: the victim undefended (0) or defended (1).
const THREAT_DEFENCE_NAMES: [&str; 2] = ["loose", "defended"];

/// `imbalance` kinds: Pawn to Queen, whose counts the term multiplies.
pub const IMBALANCE_KINDS: std::ops::RangeInclusive<usize> = PAWN..=QUEEN;
// The counts and the tables index these kinds by the kind itself.
const _: () = assert!(PAWN == 0);
/// Number of `imbalance` kinds.
pub const IMBALANCE_KIND_COUNT: usize = QUEEN - PAWN + 1;
/// `[kind][partner]`, centipawns per product of the two counts; only the
/// partners of [`imbalance_partners`] are read (a triangle: with our own
/// kinds the diagonal too, with the enemy's only below it).
pub type ImbalanceTable = [[i32; IMBALANCE_KIND_COUNT]; IMBALANCE_KIND_COUNT];
/// The two imbalance tables: the partner ours (0) or the enemy's (1).
const IMBALANCE_SIDE_NAMES: [&str; 2] = ["ours", "theirs"];

/// The partners an `imbalance` row of `kind` reads: with our own pieces,
/// every kind up to `kind` itself (Pawn with Pawn excepted: a product up to
/// 64 would move in steps of 64 cp, and Pawn material already counts them);
/// with the enemy's, every kind below it (a product of one kind with the
/// same enemy kind cancels between the two sides).
const fn imbalance_partners(kind: usize, side: usize) -> usize {
    let count = kind - PAWN + 1;
    if side == 0 {
        if kind == PAWN { 0 } else { count }
    } else {
        count - 1
    }
}

/// Names a family of King offset tables for the params file: one line of
/// file distances per kind, phase and row, the row called by its rank
/// difference (`first_rank` for row 0).
fn visit_offset_tables(
    v: &mut Visitor<'_>,
    family: &str,
    first_rank: i32,
    tables: &mut [KingOffsetTable; OFFSET_KIND_COUNT],
) {
    for (kind, table) in OFFSET_KINDS.zip(tables.iter_mut()) {
        for (phase, rows) in ["mg", "eg"].iter().zip(table.iter_mut()) {
            for (row, dists) in rows.iter_mut().enumerate() {
                let ranks = first_rank + row as i32;
                let name = format!("{family}.{}.{phase}.rank{ranks:+}", KIND_NAMES[kind]);
                v.param(&name, dists);
            }
        }
    }
}

/// Names of the kinds in the params file, in kind order (see `pieces.rs`).
/// `hunter5`/`hawker5` are the 5-way hunters (Huntress/Huntsman,
/// Hawkress/Hawksman).
pub const KIND_NAMES: [&str; KIND_COUNT] = [
    "pawn",
    "knight",
    "hunter",
    "hawker",
    "hunter5",
    "hawker5",
    "queen",
    "king",
    "acelander",
    "dragonhunter",
    "dragonhawker",
    "dragonhunter5",
    "dragonhawker5",
];

/// A midgame/endgame pair.
pub type Score = [i32; 2];

/// Kinds worth less than this (midgame material) attack as minor pieces
/// in the threat terms: Knight, Hunter, Hawker.
pub const MINOR_VALUE_LIMIT: i32 = 450;
/// Kinds worth less than this and not minor attack as major pieces: the
/// five-way hunters and the Dragon kinds; the Queen is neither.
pub const MAJOR_VALUE_LIMIT: i32 = 800;

/// One colour's attacks, gathered in the piece pass for the threat and
/// safe-check terms.
#[derive(Default)]
struct AttackMaps {
    /// Squares attacked by any piece, Pawns and King included.
    all: Bitboard,
    /// Squares attacked at least twice.
    twice: Bitboard,
    minor: Bitboard,
    major: Bitboard,
    king: Bitboard,
    by_kind: [Bitboard; KIND_COUNT],
}

impl AttackMaps {
    #[inline]
    fn add(&mut self, att: Bitboard) {
        self.twice |= self.all & att;
        self.all |= att;
    }
}

/// The groups of terms that `eval` reports separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Term {
    Material,
    /// Advance, centrality and the square tables (`pawn_square`, `piece_square`).
    Squares,
    Mobility,
    Outposts,
    Threats,
    /// Doubled and isolated Pawns.
    PawnStructure,
    PassedPawns,
    /// The King's file, its Pawn shield and the open lines toward it.
    KingShelter,
    /// The attack on the King: the danger from attack units and the
    /// attackers' places (`enemy_king_offset`).
    KingDanger,
    Tempo,
}

const TERM_COUNT: usize = 10;

/// [`Term`] names as `eval` prints them, in the enum's order.
const TERM_NAMES: [&str; TERM_COUNT] = [
    "Material",
    "Squares",
    "Mobility",
    "Outposts",
    "Threats",
    "Pawn structure",
    "Passed Pawns",
    "King shelter",
    "King danger",
    "Tempo",
];

/// Where the evaluation's terms go: summed for the search, or kept per
/// term for `eval`. One generic pass serves both, so the trace always
/// adds up to the evaluation the search uses.
trait TermSink {
    /// Adds a term's midgame and endgame score for colour `c`, from
    /// `c`'s view.
    fn add(&mut self, term: Term, c: usize, mg: i32, eg: i32);
}

/// Midgame and endgame totals per colour: the search's sink.
#[derive(Default)]
struct Totals {
    mg: [i32; 2],
    eg: [i32; 2],
}

impl TermSink for Totals {
    #[inline(always)]
    fn add(&mut self, _term: Term, c: usize, mg: i32, eg: i32) {
        self.mg[c] += mg;
        self.eg[c] += eg;
    }
}

/// Scores per term and colour: `eval`'s sink.
#[derive(Default)]
struct PerTerm {
    scores: [[Score; 2]; TERM_COUNT],
}

impl TermSink for PerTerm {
    fn add(&mut self, term: Term, c: usize, mg: i32, eg: i32) {
        let s = &mut self.scores[term as usize][c];
        s[0] += mg;
        s[1] += eg;
    }
}

/// Every evaluation weight. Field docs say what each term measures; the
/// values live in `tuning/nimrod.params`, whose format (shared with the
/// other evaluators) is [`crate::params_file`]. `Default` is all zeros.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalParams {
    /// Material per kind, FIDE orientation (`nimrod`, `dragon-nimrod`).
    pub material: [Score; KIND_COUNT],
    /// Material per kind, corner orientation: the hunters' mobility differs
    /// with the orientation, so their measured values do too.
    pub material_corner: [Score; KIND_COUNT],
    /// Contribution of each kind to the game phase (non-Pawn material).
    pub phase_weight: [i32; KIND_COUNT],
    /// Phase of the full start array; at or above it the midgame score is
    /// used alone, at 0 the endgame score.
    pub phase_total: i32,
    /// Per kind, per step of advance along the forward vector (0..=7).
    pub advance: [Score; KIND_COUNT],
    /// Per kind, per ring of centrality (edge 0 .. centre 3).
    pub centrality: [Score; KIND_COUNT],
    /// Midgame, the King by its file's distance from the nearer edge
    /// (0: a/h, 1: b/g, 2: c/f, 3: d/e): a castled King beats one left
    /// in the centre. FIDE orientation only: the corner orientation's
    /// King starts in its own corner.
    pub king_file: [i32; KING_FILES],
    /// Per Pawn square, `[mg/eg][advance - 1][file]`, on top of the
    /// Pawn's advance and centrality: Nimrod's files differ (a Pawn may
    /// shut in a piece that slides forward, or guard the King's side).
    /// FIDE orientation only, like `king_file`.
    pub pawn_square: [[[i32; PAWN_FILES]; PAWN_ROWS]; 2],
    /// Per square of the plain non-Pawn kinds ([`SQUARE_KINDS`], indexed
    /// from the Knight), `[mg/eg][rank from its own side][file]`, on top of
    /// the kind's advance and centrality: a King that keeps its home
    /// square, a Hunter developed from behind the b-Pawn. FIDE orientation
    /// only, like `king_file`.
    pub piece_square: [SquareTable; SQUARE_KIND_COUNT],
    /// Per kind, per safe attacked square above `mobility_center`.
    pub mobility: [Score; KIND_COUNT],
    /// Per kind, the typical safe mobility (measured); the mobility term is
    /// zero there so material keeps its meaning.
    pub mobility_center: [i32; KIND_COUNT],
    /// Per plain mobile kind ([`MOBILITY_KINDS`], indexed from the Knight),
    /// `[mg/eg][safe mobility]`, on top of the linear term, so the worth of
    /// a count need not lie on the line (fitted values: a shut-in Knight
    /// loses more in the endgame). FIDE orientation only, like `king_file`.
    pub mobility_table: [MobilityTable; MOBILITY_KIND_COUNT],
    /// Per plain kind Pawn to Queen ([`OFFSET_KINDS`]), by where the piece
    /// stands from the enemy King, `[mg/eg][row][file distance]`: the
    /// row is the rank difference along the piece's forward direction
    /// (see [`OFFSET_ROWS`]). Pieces and Pawns close to the enemy King
    /// attack it; the worth of each place is learned rather than counted in
    /// attacked zone squares. FIDE orientation only, like `king_file`.
    pub enemy_king_offset: [KingOffsetTable; OFFSET_KIND_COUNT],
    /// Per plain kind Pawn to Queen, by where the piece stands from its own
    /// King, `[mg/eg][row][file distance]`: the row is the rank difference
    /// along the piece's forward direction (see [`own_offset_row`]). Pawns
    /// and pieces in front of their King shelter it; the worth of each place
    /// is learned. FIDE orientation only, like `king_file`.
    pub own_king_offset: [KingOffsetTable; OFFSET_KIND_COUNT],
    /// By the cheapest plain kind of ours that attacks an enemy Pawn or
    /// plain piece and by that piece's kind, `[undefended/defended][mg/eg]
    /// [attacker][victim]`, on top of the hand-set threat terms: what an
    /// attack is worth, learned per pair of kinds. `nimrod` only: not the
    /// corner orientation, nor `dragon-nimrod`, whose games no fit has seen.
    pub threat_table: [ThreatTable; 2],
    /// Material imbalance, `[ours/theirs][kind][partner]`: each pair of a
    /// kind of ours and a partner kind (ours or the enemy's, Pawn to
    /// Queen) adds this many centipawns per product of their counts, in
    /// both phases, as Stockfish's quadratic imbalance does: what a
    /// piece is worth depends on what else is on the board. Only the
    /// partners of [`imbalance_partners`] are read. `nimrod` only, like
    /// `threat_table`.
    pub imbalance: [ImbalanceTable; 2],
    /// Per kind, attack units per attacked square of the enemy king zone.
    pub king_attack_weight: [i32; KIND_COUNT],
    /// Danger is applied only with at least this many non-Pawn attackers.
    pub king_danger_min_attackers: i32,
    /// Danger = min(units² / div, cap), subtracted (midgame, endgame).
    pub king_danger_div: i32,
    pub king_danger_cap: i32,
    /// Percentage of the danger that also applies in the endgame.
    pub king_danger_eg_percent: i32,
    /// Own Pawn one forward step from the King.
    pub shield_near: Score,
    /// Own Pawn two forward steps from the King.
    pub shield_far: Score,
    /// A line from the King without own Pawn, along which an enemy kind on
    /// the board slides toward the King.
    pub open_line: Score,
    /// Pawn behind an own Pawn on its (single) push line.
    pub doubled_pawn: Score,
    /// Pawn that no own Pawn can ever defend or be defended by.
    pub isolated_pawn: Score,
    /// Passed-pawn bonus by steps to promotion, `[mg/eg][steps - 1]`.
    pub passed_pawn: [[i32; PASSED_STEPS]; 2],
    /// Endgame, per step of King distance (Chebyshev) to a passed Pawn's
    /// next square, by steps to promotion: the enemy King's distance
    /// (a bonus) and our own King's (a cost).
    pub passed_enemy_king: [i32; PASSED_STEPS],
    pub passed_own_king: [i32; PASSED_STEPS],
    /// Per kind: on an outpost, a square an own Pawn defends and no enemy
    /// Pawn can ever attack.
    pub outpost: [Score; KIND_COUNT],
    /// An enemy non-Pawn piece that a safe single push of our Pawn would
    /// attack.
    pub threat_by_pawn_push: Score,
    /// Attack units added to the danger of a King that a kind of the
    /// enemy can check from a square we do not attack.
    pub safe_check: [i32; KIND_COUNT],
    /// An enemy non-Pawn piece attacked by a Pawn that is safe (not
    /// attacked, or defended).
    pub threat_by_safe_pawn: Score,
    /// Per victim kind: attacked by a minor piece (a kind worth less than
    /// [`MINOR_VALUE_LIMIT`]), the victim being weak or a defended piece.
    pub threat_by_minor: [Score; KIND_COUNT],
    /// Per victim kind: a weak piece attacked by a major piece (worth less
    /// than [`MAJOR_VALUE_LIMIT`], not a minor: the five-way hunters).
    pub threat_by_major: [Score; KIND_COUNT],
    /// A weak piece attacked by the King.
    pub threat_by_king: Score,
    /// A weak piece that is undefended, or a non-Pawn attacked twice.
    pub hanging: Score,
    /// Side to move.
    pub tempo: Score,
}

impl ParamSet for EvalParams {
    const HEADER: &'static str = "# ghast: Nimrod evaluation parameters (format: tuning/README.md).\n\
                                  # Pairs are 'midgame endgame'; values in centipawns.\n";
    const NAME_WIDTH: usize = 29;

    fn visit(&mut self, v: &mut Visitor<'_>) {
        let k = &KIND_NAMES;
        v.section("Material per kind, FIDE orientation (midgame endgame).")
            .per_kind("material", k, &mut self.material);
        v.section("Material per kind, corner orientation (midgame endgame).")
            .per_kind("material_corner", k, &mut self.material_corner);
        v.section("Game phase: weight per kind of non-Pawn material; phase_total = start array.")
            .per_kind("phase_weight", k, &mut self.phase_weight)
            .positive("phase_total", &mut self.phase_total);
        v.section(
            "Advance along the forward vector (0 home .. 7 far side), per step (midgame endgame).",
        )
        .per_kind("advance", k, &mut self.advance);
        v.section("Centrality (ring 0 edge .. 3 centre), per ring (midgame endgame).")
            .per_kind("centrality", k, &mut self.centrality);
        v.section(
            "Midgame King by its file's distance from the nearer edge (a/h b/g c/f d/e); FIDE orientation.",
        )
        .param("king_file", &mut self.king_file);
        v.section(
            "Pawn by square, on top of its advance and centrality: files a..h per rank; FIDE orientation.",
        );
        for (phase, rows) in ["mg", "eg"].iter().zip(self.pawn_square.iter_mut()) {
            for (row, files) in rows.iter_mut().enumerate() {
                v.param(&format!("pawn_square.{phase}.rank{}", row + 2), files);
            }
        }
        v.section(
            "Plain pieces by square, on top of advance and centrality: files a..h per rank; FIDE orientation.",
        );
        for (kind, table) in SQUARE_KINDS.zip(self.piece_square.iter_mut()) {
            for (phase, rows) in ["mg", "eg"].iter().zip(table.iter_mut()) {
                for (rank, files) in rows.iter_mut().enumerate() {
                    let name =
                        format!("piece_square.{}.{phase}.rank{}", KIND_NAMES[kind], rank + 1);
                    v.param(&name, files);
                }
            }
        }
        v.section(
            "Mobility: per safe attacked square (not own piece, not enemy-Pawn attacked) above the centre.",
        )
        .per_kind("mobility", k, &mut self.mobility);
        v.section("Typical safe mobility per kind (measured in random games).")
            .per_kind("mobility_center", k, &mut self.mobility_center);
        v.section(
            "Mobility by count, on top of the linear term: safe squares 0..27 per kind; FIDE orientation.",
        );
        for (kind, table) in MOBILITY_KINDS.zip(self.mobility_table.iter_mut()) {
            for (phase, counts) in ["mg", "eg"].iter().zip(table.iter_mut()) {
                v.param(
                    &format!("mobility_table.{}.{phase}", KIND_NAMES[kind]),
                    counts,
                );
            }
        }
        v.section(
            "Plain kinds by rank difference to the enemy King (-7 short of it .. +1 beyond), file distance 0..7 per row; FIDE orientation.",
        );
        let first_rank = OFFSET_MAX_BEYOND + 1 - OFFSET_ROWS as i32;
        visit_offset_tables(
            v,
            "enemy_king_offset",
            first_rank,
            &mut self.enemy_king_offset,
        );
        v.section(
            "Plain kinds by rank difference to their own King (-1 or more behind it .. +7 ahead), file distance 0..7 per row; FIDE orientation.",
        );
        let first_rank = -OWN_OFFSET_MAX_BEHIND;
        visit_offset_tables(v, "own_king_offset", first_rank, &mut self.own_king_offset);
        v.section(
            "Threats by the cheapest plain attacker (row) and the victim Pawn..Queen (7 values); nimrod only.",
        );
        for (defence, tables) in THREAT_DEFENCE_NAMES
            .iter()
            .zip(self.threat_table.iter_mut())
        {
            for (phase, rows) in ["mg", "eg"].iter().zip(tables.iter_mut()) {
                for (kind, victims) in THREAT_ATTACKERS.zip(rows.iter_mut()) {
                    let name = format!("threat_table.{defence}.{}.{phase}", KIND_NAMES[kind]);
                    v.param(&name, victims);
                }
            }
        }
        v.section(
            "Imbalance, cp per product of counts: each kind Pawn..Queen with our kinds up to it, or the enemy's below it; nimrod only.",
        );
        for (side, tables) in self.imbalance.iter_mut().enumerate() {
            for (kind, partners) in IMBALANCE_KINDS.zip(tables.iter_mut()) {
                let read = imbalance_partners(kind, side);
                if read > 0 {
                    let name = format!(
                        "imbalance.{}.{}",
                        IMBALANCE_SIDE_NAMES[side], KIND_NAMES[kind]
                    );
                    v.param(&name, &mut partners[..read]);
                }
            }
        }
        v.section(
            "King safety: attack units per zone square attacked; danger = min(units^2/div, cap).",
        )
        .per_kind("king_attack_weight", k, &mut self.king_attack_weight)
        .param(
            "king_danger_min_attackers",
            &mut self.king_danger_min_attackers,
        )
        .positive("king_danger_div", &mut self.king_danger_div)
        .param("king_danger_cap", &mut self.king_danger_cap)
        .param("king_danger_eg_percent", &mut self.king_danger_eg_percent);
        v.section("Pawn shield and open lines toward the King (midgame endgame).")
            .param("shield_near", &mut self.shield_near)
            .param("shield_far", &mut self.shield_far)
            .param("open_line", &mut self.open_line);
        let [mg, eg] = &mut self.passed_pawn;
        v.section("Pawn structure (midgame endgame); passed_pawn by steps to promotion 1..8.")
            .param("doubled_pawn", &mut self.doubled_pawn)
            .param("isolated_pawn", &mut self.isolated_pawn)
            .param("passed_pawn.mg", mg)
            .param("passed_pawn.eg", eg);
        v.section(
            "Passed Pawns, endgame, per step of King distance to the next square, by steps to promotion.",
        )
        .param("passed_enemy_king", &mut self.passed_enemy_king)
        .param("passed_own_king", &mut self.passed_own_king);
        v.section("Outposts: per kind on a Pawn-defended square no enemy Pawn can attack (midgame endgame).")
            .per_kind("outpost", k, &mut self.outpost);
        v.section(
            "Safe checks: attack units per enemy kind that can check from an unattacked square.",
        )
        .per_kind("safe_check", k, &mut self.safe_check);
        v.section("Threats (midgame endgame): weak = attacked by us and not strongly protected.")
            .param("threat_by_safe_pawn", &mut self.threat_by_safe_pawn)
            .per_kind("threat_by_minor", k, &mut self.threat_by_minor)
            .per_kind("threat_by_major", k, &mut self.threat_by_major)
            .param("threat_by_king", &mut self.threat_by_king)
            .param("threat_by_pawn_push", &mut self.threat_by_pawn_push)
            .param("hanging", &mut self.hanging);
        v.section("Side to move (midgame endgame).")
            .param("tempo", &mut self.tempo);
    }
}

params_file::param_set_methods!(EvalParams);

static DEFAULT: LazyLock<EvalParams> = LazyLock::new(|| {
    EvalParams::parse(include_str!("../../../tuning/nimrod.params"))
        .unwrap_or_else(|e| panic!("tuning/nimrod.params: {e}"))
});

/// The built-in parameters, parsed once from `tuning/nimrod.params`.
pub fn default_params() -> &'static EvalParams {
    &DEFAULT
}

/// Orientation-dependent masks and coordinates, derived once from the
/// movement tables.
struct Geo {
    /// Advance along the forward vector, `[colour][square]`, 0..=7.
    advance: [[u8; 64]; 2],
    /// 0 on the edge ring .. 3 on the four centre squares.
    centrality: [u8; 64],
    /// Fewest Pawn pushes to a promotion square, `[colour][square]`.
    promo_steps: [[u8; 64]; 2],
    /// Squares where an enemy Pawn stops a Pawn from being passed.
    passed_span: [[Bitboard; 64]; 2],
    /// Squares of own Pawns that could ever defend or be defended by it.
    support: [[Bitboard; 64]; 2],
    /// Squares ahead on the Pawn's push line, when it has only one.
    doubled: [[Bitboard; 64]; 2],
    /// King zone: the King's square, its neighbours, one more step forward.
    king_zone: [[Bitboard; 64]; 2],
    /// Squares one and two forward steps from the King.
    shield_near: [[Bitboard; 64]; 2],
    shield_far: [[Bitboard; 64]; 2],
    /// Squares a Pawn on the square can ever attack, pushed as far as it
    /// goes.
    attack_span: [[Bitboard; 64]; 2],
    /// Squares where an outpost counts: advance 3 to 5.
    outpost_zone: [Bitboard; 2],
}

static FIDE_GEO: LazyLock<Box<Geo>> = LazyLock::new(|| build_geo(&FIDE_TABLES, false));
static CORNER_GEO: LazyLock<Box<Geo>> = LazyLock::new(|| build_geo(&CORNER_TABLES, true));

/// Outposts count on these steps of advance (the fourth to sixth rank).
const OUTPOST_ADVANCE: std::ops::RangeInclusive<u8> = 3..=5;

/// King distance (Chebyshev) between two squares.
fn distance(a: u8, b: u8) -> i32 {
    let dx = (file_of(a) - file_of(b)).abs();
    let dy = (rank_of(a) - rank_of(b)).abs();
    dx.max(dy)
}

/// Advance of a square along colour `c`'s forward vector, 0..=7.
fn advance_of(corner: bool, c: usize, sq: u8) -> u8 {
    let (x, y) = (file_of(sq), rank_of(sq));
    let a = match (corner, c) {
        (false, 0) => y,
        (false, _) => 7 - y,
        // Progress along (-1,+1) is y - x (-7..=7); halve it onto 0..=7.
        (true, 0) => (y - x + 7) / 2,
        (true, _) => (x - y + 7) / 2,
    };
    a as u8
}

fn build_geo(t: &Tables, corner: bool) -> Box<Geo> {
    let mut g = Box::new(Geo {
        advance: [[0; 64]; 2],
        centrality: [0; 64],
        promo_steps: [[u8::MAX; 64]; 2],
        passed_span: [[0; 64]; 2],
        support: [[0; 64]; 2],
        doubled: [[0; 64]; 2],
        king_zone: [[0; 64]; 2],
        shield_near: [[0; 64]; 2],
        shield_far: [[0; 64]; 2],
        attack_span: [[0; 64]; 2],
        outpost_zone: [0; 2],
    });
    let forward = |c: usize, s: u8| t.pawn_push[c][s as usize] | t.pawn_capture[c][s as usize];
    let spread = |bb: Bitboard, f: &dyn Fn(u8) -> Bitboard| squares(bb).fold(0, |a, s| a | f(s));
    // cone[c][s]: every square a Pawn on s can reach by pushes (excluding s).
    let mut cone = [[0u64; 64]; 2];
    for (c, cone_c) in cone.iter_mut().enumerate() {
        for s in 0..64u8 {
            let mut reach = 0;
            let mut frontier = t.pawn_push[c][s as usize];
            while frontier & !reach != 0 {
                reach |= frontier;
                frontier = spread(frontier, &|q| t.pawn_push[c][q as usize]);
            }
            cone_c[s as usize] = reach;
        }
    }
    for s in 0..64u8 {
        let (x, y) = (file_of(s), rank_of(s));
        let dx = (3 - x).max(x - 4);
        let dy = (3 - y).max(y - 4);
        g.centrality[s as usize] = (3 - dx.max(dy)) as u8;
    }
    for c in 0..2 {
        let them = c ^ 1;
        for s in 0..64u8 {
            let si = s as usize;
            g.advance[c][si] = advance_of(corner, c, s);
            if OUTPOST_ADVANCE.contains(&g.advance[c][si]) {
                g.outpost_zone[c] |= bit(s);
            }
            // Promotion distance: breadth-first over pushes.
            let mut frontier = bit(s);
            let mut seen = 0;
            for d in 0..16u8 {
                if frontier & t.promotion[c] != 0 {
                    g.promo_steps[c][si] = d;
                    break;
                }
                seen |= frontier;
                frontier = spread(frontier, &|q| t.pawn_push[c][q as usize]) & !seen;
            }
            // The squares the Pawn walks over, its own included.
            let path = bit(s) | cone[c][si];
            // An enemy Pawn standing on q stops us if anywhere along its own
            // walk it stands on our path or attacks a square of it.
            let path_attacks =
                |set: Bitboard, color: usize| spread(set, &|q| t.pawn_capture[color][q as usize]);
            for q in 0..64u8 {
                let walk = bit(q) | cone[them][q as usize];
                if walk & path != 0 || path_attacks(walk, them) & path != 0 {
                    g.passed_span[c][si] |= bit(q);
                }
            }
            g.attack_span[c][si] = path_attacks(path, c);
            // Own Pawn on q supports ours if one can ever defend the other.
            for q in 0..64u8 {
                if q == s {
                    continue;
                }
                let other = bit(q) | cone[c][q as usize];
                if path_attacks(other, c) & path != 0 || path_attacks(path, c) & other != 0 {
                    g.support[c][si] |= bit(q);
                }
            }
            if t.pawn_push[c][27].count_ones() == 1 {
                g.doubled[c][si] = cone[c][si];
            }
            let ring = bit(s) | t.steps[c][KING][si];
            g.king_zone[c][si] = ring | spread(ring, &|q| forward(c, q));
            g.shield_near[c][si] = forward(c, s);
            g.shield_far[c][si] =
                spread(g.shield_near[c][si], &|q| forward(c, q)) & !g.shield_near[c][si] & !ring;
        }
    }
    g
}

/// Colour `c`'s threats against the enemy pieces; `their_pawn_att` is
/// the enemy Pawns' attacks.
fn threats<F: Flavor>(
    pos: &Position<F>,
    p: &EvalParams,
    maps: &[AttackMaps; 2],
    their_pawn_att: Bitboard,
    c: usize,
) -> Score {
    let them = c ^ 1;
    let (ours, theirs) = (&maps[c], &maps[them]);
    let enemies = pos.by_color[them] & !bit(pos.king[them]);
    let non_pawn = enemies & !pos.pieces(them, PAWN);
    let strongly_protected = their_pawn_att | (theirs.twice & !ours.twice);
    let weak = enemies & !strongly_protected & ours.all;
    let kind_at = |s: u8| piece_kind(pos.board[s as usize]);
    let mut score = [0, 0];
    let mut add = |v: Score, n: i32| {
        score[0] += v[0] * n;
        score[1] += v[1] * n;
    };
    for s in squares((weak | (non_pawn & strongly_protected)) & ours.minor) {
        add(p.threat_by_minor[kind_at(s)], 1);
    }
    for s in squares(weak & ours.major) {
        add(p.threat_by_major[kind_at(s)], 1);
    }
    if weak & ours.king != 0 {
        add(p.threat_by_king, 1);
    }
    let loose = !theirs.all | (non_pawn & ours.twice);
    add(p.hanging, (weak & loose).count_ones() as i32);
    let t = Position::<F>::tables();
    let safe_pawns = pos.pieces(c, PAWN) & (!theirs.all | ours.all);
    let safe_pawn_att = pawn_attacks(t, c, safe_pawns);
    add(
        p.threat_by_safe_pawn,
        (safe_pawn_att & non_pawn).count_ones() as i32,
    );
    let pushes = pawn_steps(t, c, pos.pieces(c, PAWN))
        & !pos.occupied()
        & !their_pawn_att
        & (!theirs.all | ours.all);
    let push_att = pawn_attacks(t, c, pushes);
    add(
        p.threat_by_pawn_push,
        (push_att & non_pawn).count_ones() as i32,
    );
    score
}

/// Colour `c`'s `threat_table` score: each enemy Pawn or plain piece that
/// `c` attacks, by `c`'s cheapest plain attacker of it and whether the enemy
/// defends it. `our_pawn_att` is `c`'s Pawn attacks.
fn threat_table_score<F: Flavor>(
    pos: &Position<F>,
    p: &EvalParams,
    maps: &[AttackMaps; 2],
    our_pawn_att: Bitboard,
    c: usize,
) -> Score {
    let them = c ^ 1;
    let ours = &maps[c];
    let victims = (PAWN..=QUEEN).fold(0, |a, k| a | pos.pieces(them, k));
    let mut scored = 0;
    let mut score = [0, 0];
    for attacker in THREAT_ATTACKERS {
        let att = match attacker {
            PAWN => our_pawn_att,
            KING => ours.king,
            kind => ours.by_kind[kind],
        };
        let hit = att & victims & !scored;
        scored |= hit;
        for s in squares(hit) {
            let victim = piece_kind(pos.board[s as usize]);
            let defended = (maps[them].all >> s) as usize & 1;
            let [mg, eg] = &p.threat_table[defended];
            score[0] += mg[attacker][victim];
            score[1] += eg[attacker][victim];
        }
    }
    score
}

/// Colour `c`'s `imbalance` score from the counts of Pawn..Queen of both
/// colours (`counts[colour][kind]`).
fn imbalance_score(p: &EvalParams, counts: &[[i32; IMBALANCE_KIND_COUNT]; 2], c: usize) -> i32 {
    let [ours, theirs] = &p.imbalance;
    let (own, enemy) = (&counts[c], &counts[c ^ 1]);
    let mut score = 0;
    for kind in IMBALANCE_KINDS {
        let n = own[kind];
        if n == 0 {
            continue;
        }
        let with_ours = (0..imbalance_partners(kind, 0)).map(|k| ours[kind][k] * own[k]);
        let with_theirs = (0..imbalance_partners(kind, 1)).map(|k| theirs[kind][k] * enemy[k]);
        score += n * (with_ours.sum::<i32>() + with_theirs.sum::<i32>());
    }
    score
}

/// Attack units against colour `c`'s King for every enemy kind that can
/// give check from a square `c` does not attack.
fn safe_check_units<F: Flavor>(
    pos: &Position<F>,
    p: &EvalParams,
    maps: &[AttackMaps; 2],
    c: usize,
) -> i32 {
    let them = c ^ 1;
    let t = Position::<F>::tables();
    let occ = pos.occupied();
    let king = pos.king[c];
    let safe = !maps[c].all & !pos.by_color[them];
    let k = king as usize;
    // The King's lines, looked up once for every kind.
    let sliders = &*crate::bitboard::SLIDERS;
    let (rook, bishop) = (sliders.rook(king, occ), sliders.bishop(king, occ));
    let mut units = 0;
    for kind in KNIGHT..KIND_COUNT {
        if kind == KING || p.safe_check[kind] == 0 || pos.pieces(them, kind) == 0 {
            continue;
        }
        // Black's vectors are White's negated: colour c's moves from the
        // King reach the squares an enemy piece of this kind checks from.
        let checks = t.steps[c][kind][k]
            | rook & t.rook_rays[c][kind][k]
            | bishop & t.bishop_rays[c][kind][k];
        if checks & maps[them].by_kind[kind] & safe != 0 {
            units += p.safe_check[kind];
        }
    }
    units
}

/// Static evaluation with the built-in parameters, in centipawns from the
/// side to move's point of view.
pub fn evaluate<F: Flavor>(pos: &Position<F>) -> i32 {
    evaluate_with(pos, default_params())
}

/// Static evaluation with the given parameters, in centipawns from the side
/// to move's point of view.
pub fn evaluate_with<F: Flavor>(pos: &Position<F>, p: &EvalParams) -> i32 {
    let mut totals = Totals::default();
    let phase = add_terms(pos, p, &mut totals);
    let us = pos.side.index();
    let mgs = totals.mg[us] - totals.mg[us ^ 1];
    let egs = totals.eg[us] - totals.eg[us ^ 1];
    taper(mgs, egs, phase, p.phase_total).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The static evaluation split by term (`eval`): each term's midgame and
/// endgame score for White and for Black, each from its own side's view.
pub fn trace_with<F: Flavor>(pos: &Position<F>, p: &EvalParams) -> EvalTrace {
    let mut per_term = PerTerm::default();
    let phase = add_terms(pos, p, &mut per_term);
    let terms = TERM_NAMES
        .iter()
        .zip(per_term.scores)
        .map(|(name, [white, black])| TraceTerm { name, white, black })
        .collect();
    EvalTrace {
        terms,
        phase: phase.clamp(0, p.phase_total),
        phase_total: p.phase_total,
    }
}

/// Hands every term of the evaluation to `sink`, per colour from that
/// colour's view, and returns the game phase (the non-Pawn material).
/// Always inlined: left to the compiler, the search's totals went through
/// memory and the evaluation took 2 to 5 % longer (`cargo bench --bench eval`).
#[inline(always)]
fn add_terms<F: Flavor, S: TermSink>(pos: &Position<F>, p: &EvalParams, sink: &mut S) -> i32 {
    let t = Position::<F>::tables();
    let g: &Geo = if F::CORNER { &CORNER_GEO } else { &FIDE_GEO };
    let rays = &GEOMETRY.ray;
    let sliders = &*SLIDERS;
    let occ = pos.occupied();
    let pawns = [pos.pieces(0, PAWN), pos.pieces(1, PAWN)];
    let pawn_att = [pawn_attacks(t, 0, pawns[0]), pawn_attacks(t, 1, pawns[1])];
    let zone = [
        g.king_zone[0][pos.king[0] as usize],
        g.king_zone[1][pos.king[1] as usize],
    ];
    // `units[c]` and `attackers[c]` measure the attack on colour c's King.
    let mut units = [0i32; 2];
    let mut attackers = [0i32; 2];
    let mut phase = 0i32;
    let mut slide_dirs = [0u8; 2];
    let mut maps = [AttackMaps::default(), AttackMaps::default()];
    // Pawn..Queen counts per colour, for `imbalance`.
    let mut counts = [[0i32; IMBALANCE_KIND_COUNT]; 2];
    // Each colour's view of the enemy King's advance (`enemy_king_offset`).
    let enemy_king_advance = [
        g.advance[0][pos.king[1] as usize] as i32,
        g.advance[1][pos.king[0] as usize] as i32,
    ];
    // Each colour's view of its own King's advance (`own_king_offset`).
    let own_king_advance = [
        g.advance[0][pos.king[0] as usize] as i32,
        g.advance[1][pos.king[1] as usize] as i32,
    ];

    for c in 0..2 {
        let them = c ^ 1;
        let safe = !pos.by_color[c] & !pawn_att[them];
        let enemy_pawn_reach =
            squares(pawns[them]).fold(0, |a, q| a | g.attack_span[them][q as usize]);
        let outposts = pawn_att[c] & !enemy_pawn_reach & g.outpost_zone[c];
        for kind in 0..KIND_COUNT {
            let bb = pos.pieces(c, kind);
            if bb == 0 {
                continue;
            }
            let n = bb.count_ones() as i32;
            if let Some(count) = counts[c].get_mut(kind) {
                *count = n;
            }
            phase += p.phase_weight[kind] * n;
            let mat = if F::CORNER {
                p.material_corner[kind]
            } else {
                p.material[kind]
            };
            let (adv, cen) = (p.advance[kind], p.centrality[kind]);
            let (square_table, mobility_table, offset_tables) = match F::CORNER {
                false => (
                    p.piece_square.get(kind.wrapping_sub(KNIGHT)),
                    p.mobility_table.get(kind.wrapping_sub(KNIGHT)),
                    p.enemy_king_offset
                        .get(kind)
                        .zip(p.own_king_offset.get(kind)),
                ),
                true => (None, None, None),
            };
            sink.add(Term::Material, c, mat[0] * n, mat[1] * n);
            let on_outposts = (bb & outposts).count_ones() as i32;
            let [out_mg, out_eg] = p.outpost[kind];
            sink.add(
                Term::Outposts,
                c,
                out_mg * on_outposts,
                out_eg * on_outposts,
            );
            slide_dirs[c] |= t.slide_dirs[c][kind];
            let mobile = kind != PAWN && kind != KING;
            let (mob, center, weight) = (
                p.mobility[kind],
                p.mobility_center[kind],
                p.king_attack_weight[kind],
            );
            for s in squares(bb) {
                let si = s as usize;
                let a = g.advance[c][si] as i32;
                let ce = g.centrality[si] as i32;
                let [mut sq_mg, mut sq_eg] = [adv[0] * a + cen[0] * ce, adv[1] * a + cen[1] * ce];
                if let Some([mg, eg]) = square_table {
                    let (rank, file) = (a as usize, file_of(s) as usize);
                    sq_mg += mg[rank][file];
                    sq_eg += eg[rank][file];
                }
                sink.add(Term::Squares, c, sq_mg, sq_eg);
                if let Some(([mg, eg], [own_mg, own_eg])) = offset_tables {
                    let row = offset_row(a - enemy_king_advance[c]);
                    let dist = file_of(s).abs_diff(file_of(pos.king[them])) as usize;
                    sink.add(Term::KingDanger, c, mg[row][dist], eg[row][dist]);
                    let row = own_offset_row(a - own_king_advance[c]);
                    let dist = file_of(s).abs_diff(file_of(pos.king[c])) as usize;
                    sink.add(Term::KingShelter, c, own_mg[row][dist], own_eg[row][dist]);
                }
                if mobile {
                    let mut att = t.steps[c][kind][si];
                    let (rr, br) = (t.rook_rays[c][kind][si], t.bishop_rays[c][kind][si]);
                    if rr != 0 {
                        att |= sliders.rook(s, occ) & rr;
                    }
                    if br != 0 {
                        att |= sliders.bishop(s, occ) & br;
                    }
                    let map = &mut maps[c];
                    map.add(att);
                    map.by_kind[kind] |= att;
                    if mat[0] < MINOR_VALUE_LIMIT {
                        map.minor |= att;
                    } else if mat[0] < MAJOR_VALUE_LIMIT {
                        map.major |= att;
                    }
                    let count = (att & safe).count_ones() as usize;
                    let m = count as i32 - center;
                    let [mut mob_mg, mut mob_eg] = [mob[0] * m, mob[1] * m];
                    if let Some([mg, eg]) = mobility_table {
                        let i = count.min(MOBILITY_STEPS - 1);
                        mob_mg += mg[i];
                        mob_eg += eg[i];
                    }
                    sink.add(Term::Mobility, c, mob_mg, mob_eg);
                    let hits = att & zone[them];
                    if hits != 0 {
                        units[them] += weight * hits.count_ones() as i32;
                        attackers[them] += 1;
                    }
                }
            }
        }
        // Pawns attacking the enemy king zone add units but do not count as
        // attackers.
        units[them] += p.king_attack_weight[PAWN] * (pawn_att[c] & zone[them]).count_ones() as i32;
        let king_att = t.steps[c][KING][pos.king[c] as usize];
        maps[c].add(pawn_att[c]);
        maps[c].add(king_att);
        maps[c].king = king_att;
    }

    for c in 0..2 {
        let [tmg, teg] = threats(pos, p, &maps, pawn_att[c ^ 1], c);
        sink.add(Term::Threats, c, tmg, teg);
        if !F::CORNER && !F::DRAGON {
            let [tmg, teg] = threat_table_score(pos, p, &maps, pawn_att[c], c);
            sink.add(Term::Threats, c, tmg, teg);
            let imbalance = imbalance_score(p, &counts, c);
            sink.add(Term::Material, c, imbalance, imbalance);
        }
        units[c] += safe_check_units(pos, p, &maps, c);
    }

    for c in 0..2 {
        let them = c ^ 1;
        if !F::CORNER {
            let x = file_of(pos.king[c]);
            sink.add(Term::KingShelter, c, p.king_file[x.min(7 - x) as usize], 0);
        }
        // Pawn structure.
        for s in squares(pawns[c]) {
            let si = s as usize;
            if !F::CORNER {
                let row = (g.advance[c][si] as usize).clamp(1, PAWN_ROWS) - 1;
                let file = file_of(s) as usize;
                let [mg, eg] = &p.pawn_square;
                sink.add(Term::Squares, c, mg[row][file], eg[row][file]);
            }
            if pawns[c] & g.doubled[c][si] != 0 {
                let [d_mg, d_eg] = p.doubled_pawn;
                sink.add(Term::PawnStructure, c, d_mg, d_eg);
            }
            if pawns[c] & g.support[c][si] == 0 {
                let [i_mg, i_eg] = p.isolated_pawn;
                sink.add(Term::PawnStructure, c, i_mg, i_eg);
            }
            if pawns[them] & g.passed_span[c][si] == 0 {
                let i = (g.promo_steps[c][si] as usize).clamp(1, PASSED_STEPS) - 1;
                let mut passed_eg = p.passed_pawn[1][i];
                let push = t.pawn_push[c][si];
                if push != 0 {
                    let next = push.trailing_zeros() as u8;
                    passed_eg += p.passed_enemy_king[i] * distance(pos.king[them], next)
                        + p.passed_own_king[i] * distance(pos.king[c], next);
                }
                sink.add(Term::PassedPawns, c, p.passed_pawn[0][i], passed_eg);
            }
        }
        // King safety.
        let k = pos.king[c] as usize;
        let near = (pawns[c] & g.shield_near[c][k]).count_ones() as i32;
        let far = (pawns[c] & g.shield_far[c][k]).count_ones() as i32;
        sink.add(
            Term::KingShelter,
            c,
            p.shield_near[0] * near + p.shield_far[0] * far,
            p.shield_near[1] * near + p.shield_far[1] * far,
        );
        let mut open = 0;
        for (d, ray) in rays.iter().enumerate() {
            // An enemy slider on the ray in direction d reaches the King by
            // moving in the opposite direction d ^ 4.
            let ray = ray[k];
            if slide_dirs[them] & (1 << (d ^ 4)) != 0
                && ray.count_ones() >= 2
                && ray & pawns[c] == 0
            {
                open += 1;
            }
        }
        sink.add(
            Term::KingShelter,
            c,
            p.open_line[0] * open,
            p.open_line[1] * open,
        );
        if attackers[c] >= p.king_danger_min_attackers {
            let u = units[c].max(0) as i64;
            let danger = (u * u / p.king_danger_div as i64).min(p.king_danger_cap as i64) as i32;
            let danger_eg = danger * p.king_danger_eg_percent / 100;
            sink.add(Term::KingDanger, c, -danger, -danger_eg);
        }
    }

    let [tempo_mg, tempo_eg] = p.tempo;
    sink.add(Term::Tempo, pos.side.index(), tempo_mg, tempo_eg);
    phase
}

#[cfg(test)]
mod tests {
    use super::super::{Corner, DragonCorner, DragonFide, Fide};
    use super::*;
    use crate::game::{Game, History, MoveBuffer};

    fn pos<F: Flavor>(fen: &str) -> Position<F> {
        Position::<F>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn default_file_parses_and_round_trips() {
        let p = default_params();
        let text = p.to_text();
        assert_eq!(EvalParams::parse(&text).as_ref(), Ok(p));
        // A perturbed set round-trips too.
        let mut q = p.clone();
        q.material[HUNTER][0] += 7;
        q.passed_pawn[1][3] = -12;
        q.tempo = [-3, 4];
        assert_eq!(EvalParams::parse(&q.to_text()), Ok(q));
    }

    /// Prints the canonical text of the built-in parameters.
    #[test]
    #[ignore]
    fn print_default_params() {
        print!("{}", default_params().to_text());
    }

    fn replace_line(text: &str, name: &str, new: &str) -> String {
        text.lines()
            .map(|l| {
                if l.split('=').next().unwrap().trim() == name {
                    new.to_string()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn line_of(text: &str, name: &str) -> usize {
        text.lines()
            .position(|l| l.split('=').next().unwrap().trim() == name)
            .unwrap()
            + 1
    }

    #[test]
    fn malformed_files_name_the_line() {
        let good = default_params().to_text();
        let n = line_of(&good, "material.knight");
        let cases = [
            (
                "material.knight = 320",
                "needs 2 values (midgame endgame), found 1",
            ),
            (
                "material.knight = 320 abc",
                "'abc' of 'material.knight' is not an integer",
            ),
            ("material.knight = 320 300 1", "found 3"),
            ("material.knight 320 300", "expected 'name = value ...'"),
            (
                "material.knigt = 320 300",
                "unknown parameter 'material.knigt'",
            ),
            (" = 1 2", "no parameter name"),
            ("material.knight = 320 99999999", "outside"),
        ];
        for (line, want) in cases {
            let text = replace_line(&good, "material.knight", line);
            let e = EvalParams::parse(&text).unwrap_err();
            assert!(e.starts_with(&format!("line {n}: ")), "{e}");
            assert!(e.contains(want), "{line}: {e}");
        }
        // Duplicates, missing entries and invalid values.
        let dup = format!("{good}\nmaterial.queen = 1 2\n");
        let e = EvalParams::parse(&dup).unwrap_err();
        assert!(e.contains("given twice"), "{e}");
        let missing = replace_line(&good, "tempo", "# no tempo");
        let e = EvalParams::parse(&missing).unwrap_err();
        assert!(e.contains("missing parameter tempo"), "{e}");
        let zero = replace_line(&good, "phase_total", "phase_total = 0");
        let e = EvalParams::parse(&zero).unwrap_err();
        assert!(e.contains("'phase_total' must be positive"), "{e}");
        assert!(
            EvalParams::parse("")
                .unwrap_err()
                .contains("missing parameters")
        );
        // Comments and blank lines are fine anywhere.
        let commented = good.replace('\n', "   # note\n\n");
        assert_eq!(EvalParams::parse(&commented).as_ref(), Ok(default_params()));
    }

    /// FIDE colour mirror: reflect the ranks and swap the case.
    fn mirror_fide(fen: &str) -> String {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let swap = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let placement: Vec<String> = f[0].split('/').rev().map(swap).collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        let mut castling: Vec<char> = swap(f[2]).chars().collect();
        castling.sort_by_key(|c| "KQkq-".find(*c));
        let castling: String = castling.into_iter().collect();
        let ep = if f[3] == "-" {
            "-".to_string()
        } else {
            let b = f[3].as_bytes();
            format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
        };
        format!("{} {side} {castling} {ep} 0 1", placement.join("/"))
    }

    /// Corner colour swap (rulebook 2.2): reflect (x,y) -> (y,x), swap case.
    fn mirror_corner(fen: &str) -> String {
        let p = pos::<DragonCorner>(fen);
        let mut rows = Vec::new();
        for y in (0..8).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for x in 0..8 {
                let piece = p.board[crate::bitboard::square(y, x) as usize];
                if piece == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                let l = CORNER_LETTERS[piece_kind(piece)] as char;
                row.push(if piece_color(piece) == 0 {
                    l.to_ascii_lowercase()
                } else {
                    l
                });
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let side = if p.side.index() == 0 { "b" } else { "w" };
        format!("{} {side} - - 0 1", rows.join("/"))
    }

    #[test]
    fn hand_mirrored_pairs_evaluate_equal() {
        // FIDE orientation: ranks mirrored, colours swapped (written by hand).
        let fide = [
            (
                "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1",
                "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU b KQkq - 0 1",
            ),
            (
                "2kq3u/1pp2ppp/p1n5/4p3/2P1P1n1/1P1P1N2/P3QPPP/1H2K2U w K - 2 12",
                "1h2k2u/p3qppp/1p1p1n2/2p1p1N1/4P3/P1N5/1PP2PPP/2KQ3U b k - 2 12",
            ),
            (
                "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1",
                "4k3/8/8/8/3p4/8/8/4K3 b - - 0 1",
            ),
        ];
        for (a, b) in fide {
            assert_eq!(mirror_fide(a).split(' ').next(), b.split(' ').next());
            assert_eq!(evaluate(&pos::<Fide>(a)), evaluate(&pos::<Fide>(b)), "{a}");
        }
        // Corner orientation: reflected in the a1-h8 diagonal.
        let corner = [
            (
                "kynhp3/qppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK w - - 0 1",
                "kynhp3/qppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK b - - 0 1",
            ),
            (
                "k7/8/8/3h4/4H3/8/8/7K w - - 0 1",
                "k7/8/8/3h4/4H3/8/8/7K b - - 0 1",
            ),
            (
                "k7/8/2P5/8/8/8/5q2/7K w - - 0 1",
                "k7/8/1Q6/8/8/5p2/8/7K b - - 0 1",
            ),
        ];
        for (a, b) in corner {
            assert_eq!(mirror_corner(a), {
                let f: Vec<&str> = b.split(' ').collect();
                format!("{} {} - - 0 1", f[0], f[1])
            });
            assert_eq!(
                evaluate(&pos::<Corner>(a)),
                evaluate(&pos::<Corner>(b)),
                "{a}"
            );
        }
    }

    /// Random playout positions and their colour-swapped twins.
    fn random_positions<F: Flavor>(seed: u64, count: usize) -> Vec<Position<F>> {
        let mut rng = seed;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let history = History::new();
        let mut out = Vec::new();
        let mut moves = <Position<F> as Game>::Moves::default();
        while out.len() < count {
            let mut p = <Position<F> as Game>::startpos();
            let plies = 4 + next() % 80;
            for _ in 0..plies {
                p.legal_moves(&history, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves.as_slice()[(next() % moves.len() as u64) as usize];
                p = Game::play(&p, mv);
                out.push(p);
            }
        }
        out
    }

    fn check_symmetry<F: Flavor>(mirror: fn(&str) -> String) {
        for p in random_positions::<F>(0x1234_5678 + F::ID as u64, 3000) {
            let fen = p.to_fen();
            let m = pos::<F>(&mirror(&fen));
            assert_eq!(evaluate(&p), evaluate(&m), "{fen} vs {}", m.to_fen());
        }
    }

    /// The search's null move reads what passing costs as the sum of
    /// the evaluations before and after the pass
    /// (`nmp_eval_after_pass`): in Nimrod that must be twice the tempo
    /// bonus, blended by phase, and nothing else.
    #[test]
    fn passing_costs_twice_the_tempo() {
        let [mg, eg] = default_params().tempo;
        let (low, high) = (2 * mg.min(eg) - 2, 2 * mg.max(eg) + 2);
        for p in random_positions::<Fide>(0x5eed_0016, 2000) {
            let Some(passed) = p.null_move() else {
                continue;
            };
            let cost = evaluate(&p) + evaluate(&passed);
            assert!((low..=high).contains(&cost), "{}: {cost}", p.to_fen());
        }
    }

    #[test]
    fn colour_mirror_symmetry_on_random_positions() {
        check_symmetry::<Fide>(mirror_fide);
        check_symmetry::<DragonFide>(mirror_fide);
        check_symmetry::<Corner>(mirror_corner);
        check_symmetry::<DragonCorner>(mirror_corner);
    }

    /// The trace `eval` prints adds up, term by term, to the evaluation
    /// the search uses, in every flavour and with either side to move.
    fn check_trace_sums<F: Flavor>() {
        for p in random_positions::<F>(0x7ace + F::ID as u64, 1000) {
            let trace = trace_with(&p, default_params());
            assert_eq!(trace.terms.len(), TERM_COUNT);
            let white = trace.white_score().clamp(-EVAL_LIMIT, EVAL_LIMIT);
            let from_side = if p.side.index() == 0 { white } else { -white };
            assert_eq!(from_side, evaluate(&p), "{}", p.to_fen());
        }
    }

    #[test]
    fn trace_adds_up_to_the_evaluation() {
        check_trace_sums::<Fide>();
        check_trace_sums::<DragonFide>();
        check_trace_sums::<Corner>();
        check_trace_sums::<DragonCorner>();
        // Each term lands in its own line: the tempo on the side to move.
        let trace = trace_with(&pos::<Fide>(Fide::START_FEN), default_params());
        let tempo = trace
            .terms
            .iter()
            .find(|t| t.name == "Tempo")
            .expect("Tempo");
        assert_eq!((tempo.white, tempo.black), (default_params().tempo, [0, 0]));
    }

    #[test]
    fn start_positions_are_about_even() {
        let tempo = default_params().tempo;
        for v in [
            evaluate(&<Position<Fide> as Game>::startpos()),
            evaluate(&<Position<Corner> as Game>::startpos()),
            evaluate(&<Position<DragonFide> as Game>::startpos()),
            evaluate(&<Position<DragonCorner> as Game>::startpos()),
        ] {
            // Symmetric arrays: only the tempo bonus remains, and the
            // move is worth less than a Pawn.
            assert_eq!(v, tempo[0], "start eval {v}");
            assert!(v.abs() < default_params().material[PAWN][0]);
        }
    }

    #[test]
    fn queen_up_is_winning() {
        let fide = "whn1kanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1";
        assert!(evaluate(&pos::<Fide>(fide)) > 700);
        let fide_b = "whn1kanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU b KQkq - 0 1";
        assert!(evaluate(&pos::<Fide>(fide_b)) < -700);
        let corner = "kynhp3/1ppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK w - - 0 1";
        assert!(evaluate(&pos::<Corner>(corner)) > 700);
        let corner_b = "kynhp3/1ppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK b - - 0 1";
        assert!(evaluate(&pos::<Corner>(corner_b)) < -700);
    }

    #[test]
    fn terms_point_the_right_way() {
        // A passed pawn far advanced beats one at home.
        let adv = evaluate(&pos::<Fide>("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"));
        let home = evaluate(&pos::<Fide>("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1"));
        assert!(adv > home + 50, "{adv} {home}");
        // Corner: a White Pawn next to its promotion squares is passed.
        let g = &*CORNER_GEO;
        let b7 = crate::bitboard::parse_square("b7").unwrap() as usize;
        assert_eq!(g.promo_steps[0][b7], 1);
        // FIDE spans are the classical ones: e4's span is d5-f8 (plus e4).
        let f = &*FIDE_GEO;
        let e4 = crate::bitboard::parse_square("e4").unwrap() as usize;
        assert_eq!(f.passed_span[0][e4].count_ones(), 3 * 4 + 1);
        assert_eq!(f.support[0][e4].count_ones(), 16);
        assert_eq!(f.promo_steps[0][e4], 4);
    }

    /// A King castled to a wing beats one left in the centre, in the
    /// FIDE orientation; the corner orientation has no such term.
    #[test]
    fn king_file_rewards_a_wing_king() {
        let castled = "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQ1UK1 w kq - 0 1";
        let central = "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKU2 w kq - 0 1";
        let mut zero = default_params().clone();
        zero.king_file = [0; KING_FILES];
        let gain = |p: &EvalParams| {
            evaluate_with(&pos::<Fide>(castled), p) - evaluate_with(&pos::<Fide>(central), p)
        };
        // The full midgame: the file term is added whole.
        let p = default_params();
        assert_eq!(gain(p) - gain(&zero), p.king_file[1] - p.king_file[3]);
        assert!(p.king_file[1] > p.king_file[3]);
        let corner = "kynhp3/1ppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK w - - 0 1";
        let c = pos::<Corner>(corner);
        assert_eq!(evaluate_with(&c, p), evaluate_with(&c, &zero));
    }

    /// The evaluation's change, from the side to move's view, with `p`
    /// instead of the default weights in the `nimrod` position `fen`.
    fn fide_change(p: &EvalParams, fen: &str) -> i32 {
        let position = pos::<Fide>(fen);
        evaluate_with(&position, p) - evaluate_with(&position, default_params())
    }

    /// Whether a corner-orientation position evaluates alike with `p` and
    /// with the default weights.
    fn corner_unchanged(p: &EvalParams) -> bool {
        let c = pos::<Corner>("kynhp3/1ppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK w - - 0 1");
        evaluate_with(&c, p) == evaluate_with(&c, default_params())
    }

    /// A Pawn's square term is read by its own rank and the absolute file,
    /// for both colours (Black's g6 is White's g3); the corner orientation
    /// has no such term.
    #[test]
    fn pawn_square_reads_rank_and_file() {
        let mut p = default_params().clone();
        // White's g3 and Black's g6 are row 1 (the third rank), file g.
        p.pawn_square[0][1][6] += 40;
        // Full midgame material, so the midgame value counts whole.
        let start = "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1";
        let white_g3 = "whnqkanu/pppppppp/8/8/8/6P1/PPPPPP1P/WHNQKANU b KQkq - 0 1";
        let black_g6 = "whnqkanu/pppppp1p/6p1/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1";
        assert_eq!(fide_change(&p, start), 0);
        // White's view after Black's reply: Black to move sees -40.
        assert_eq!(fide_change(&p, white_g3), -40);
        assert_eq!(fide_change(&p, black_g6), -40);
        p.pawn_square = [[[25; PAWN_FILES]; PAWN_ROWS]; 2];
        assert!(corner_unchanged(&p));
    }

    /// A piece's square term is read by its kind, its own rank and the
    /// absolute file, for both colours (Black's Knight on f6 reads White's
    /// f3 entry); the corner orientation has no such term.
    #[test]
    fn piece_square_reads_kind_rank_and_file() {
        let mut p = default_params().clone();
        // The Knight's f3 entry (third rank, file f), midgame.
        p.piece_square[KNIGHT - KNIGHT][0][2][5] += 30;
        // The King's g1 entry: a castled King.
        p.piece_square[KING - KNIGHT][0][0][6] += 20;
        let start = "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1";
        let white_nf3 = "whnqkanu/pppppppp/8/8/8/5N2/PPPPPPPP/WH1QKANU b KQkq - 0 1";
        let black_nf6 = "wh1qkanu/pppppppp/5n2/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1";
        let white_castled = "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQ1UK1 b kq - 0 1";
        let both_castled = "whnq1uk1/pppppppp/8/8/8/8/PPPPPPPP/WHNQ1UK1 w - - 0 1";
        assert_eq!(fide_change(&p, start), 0);
        // Black to move sees White's gain as -30, and White Black's.
        assert_eq!(fide_change(&p, white_nf3), -30);
        assert_eq!(fide_change(&p, black_nf6), -30);
        assert_eq!(fide_change(&p, white_castled), -20);
        assert_eq!(fide_change(&p, both_castled), 0);
        p.piece_square = [[[[25; 8]; 8]; 2]; SQUARE_KIND_COUNT];
        assert!(corner_unchanged(&p));
    }

    /// A piece's `enemy_king_offset` entry is read by its kind, its rank
    /// difference to the enemy King along its own forward direction and
    /// the file distance, for both colours; rows past the last count as
    /// the last; the corner orientation has no such term.
    #[test]
    fn enemy_king_offset_reads_rank_difference_and_file_distance() {
        let mut p = default_params().clone();
        // A Knight three ranks short of the enemy King, two files away.
        p.enemy_king_offset[KNIGHT - PAWN][0][offset_row(-3)][2] += 30;
        let start = "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1";
        let white_ng5 = "whnqkanu/pppppppp/8/6N1/8/8/PPPPPPPP/WH1QKANU b KQkq - 0 1";
        let black_ng4 = "wh1qkanu/pppppppp/8/8/6n1/8/PPPPPPPP/WHNQKANU w KQkq - 0 1";
        let white_nc5 = "whnqkanu/pppppppp/8/2N5/8/8/PPPPPPPP/WH1QKANU b KQkq - 0 1";
        let white_nf5 = "whnqkanu/pppppppp/8/5N2/8/8/PPPPPPPP/WH1QKANU b KQkq - 0 1";
        assert_eq!(fide_change(&p, start), 0);
        assert_eq!(fide_change(&p, white_ng5), -30);
        assert_eq!(fide_change(&p, black_ng4), -30);
        // The same distance on the other wing; one file nearer is another entry.
        assert_eq!(fide_change(&p, white_nc5), -30);
        assert_eq!(fide_change(&p, white_nf5), 0);
        // Four ranks beyond a King that walked up reads the last row.
        let mut q = default_params().clone();
        assert_eq!(offset_row(4), OFFSET_ROWS - 1);
        q.enemy_king_offset[QUEEN - PAWN][0][offset_row(4)][1] += 30;
        let short = "whnq1anu/pppppppp/8/8/4k3/8/PPPQPPPP/WHN1KANU w - - 0 1";
        let far_beyond = "whnQ1anu/pppppppp/2q5/8/4k3/8/PPPPPPPP/WHN1KANU w - - 0 1";
        assert_eq!(fide_change(&q, short), 0);
        assert_eq!(fide_change(&q, far_beyond), 30);
        p.enemy_king_offset = [[[[25; 8]; OFFSET_ROWS]; 2]; OFFSET_KIND_COUNT];
        assert!(corner_unchanged(&p));
    }

    /// A piece's `own_king_offset` entry is read by its kind, its rank
    /// difference to its own King along its forward direction and the file
    /// distance, for both colours; rows before the first count as the
    /// first; the corner orientation has no such term.
    #[test]
    fn own_king_offset_reads_rank_difference_and_file_distance() {
        let mut p = default_params().clone();
        // A Knight two ranks in front of its own King, on the King's file.
        p.own_king_offset[KNIGHT - PAWN][0][own_offset_row(2)][0] += 30;
        let start = "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1";
        let white_ne3 = "whnqkanu/pppppppp/8/8/8/4N3/PPPPPPPP/WHNQKA1U b KQkq - 0 1";
        let black_ne6 = "whnqka1u/pppppppp/4n3/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1";
        let white_nd3 = "whnqkanu/pppppppp/8/8/8/3N4/PPPPPPPP/WHNQKA1U b KQkq - 0 1";
        assert_eq!(fide_change(&p, start), 0);
        assert_eq!(fide_change(&p, white_ne3), -30);
        assert_eq!(fide_change(&p, black_ne6), -30);
        // One file away is another entry.
        assert_eq!(fide_change(&p, white_nd3), 0);
        // Two ranks behind a King that walked up reads the first row.
        let mut q = default_params().clone();
        assert_eq!(own_offset_row(-2), 0);
        q.own_king_offset[QUEEN - PAWN][0][own_offset_row(-1)][1] += 30;
        let beside = "whnqkanu/pppppppp/8/8/8/3QK3/PPPPPPPP/WHN2ANU w - - 0 1";
        let far_behind = "whnqkanu/pppppppp/8/8/8/4K3/PPPPPPPP/WHNQ1ANU w - - 0 1";
        assert_eq!(fide_change(&q, beside), 0);
        assert_eq!(fide_change(&q, far_behind), 30);
        p.own_king_offset = [[[[25; 8]; OFFSET_ROWS]; 2]; OFFSET_KIND_COUNT];
        assert!(corner_unchanged(&p));
    }

    /// A piece's mobility table is read by its kind and its count of safe
    /// squares (a Knight on d4 behind the start Pawns has four: b3, f3,
    /// b5, f5; c6 and e6 are guarded by Pawns); the corner orientation has
    /// no such term.
    #[test]
    fn mobility_table_reads_kind_and_safe_count() {
        let knight_d4 = "whnqkanu/pppppppp/8/8/3N4/8/PPPPPPPP/WH1QKANU w KQkq - 0 1";
        let knight = KNIGHT - KNIGHT;
        let mut p = default_params().clone();
        p.mobility_table[knight][0][3] += 30;
        assert_eq!(fide_change(&p, knight_d4), 0);
        // The other Knights have two safe squares each: one White, two
        // Black.
        let mut p = default_params().clone();
        p.mobility_table[knight][0][2] += 30;
        assert_eq!(fide_change(&p, knight_d4), -30);
        let mut p = default_params().clone();
        p.mobility_table[knight][0][4] += 30;
        assert_eq!(fide_change(&p, knight_d4), 30);
        p.mobility_table[QUEEN - KNIGHT][0][4] += 30;
        assert_eq!(fide_change(&p, knight_d4), 30);
        p.mobility_table = [[[25; MOBILITY_STEPS]; 2]; MOBILITY_KIND_COUNT];
        assert!(corner_unchanged(&p));
    }

    /// A `threat_table` entry is read by the cheapest plain attacker, the
    /// victim's kind and whether the victim is defended, for both colours;
    /// the corner orientation and `dragon-nimrod` have no such term.
    #[test]
    fn threat_table_reads_cheapest_attacker_and_defence() {
        let (loose, defended) = (0, 1);
        let bump = |defence: usize, attacker: usize, victim: usize| {
            let mut p = default_params().clone();
            for phase in 0..2 {
                p.threat_table[defence][phase][attacker][victim] += 30;
            }
            p
        };
        let pawn_takes_knight = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        let pawn_takes_guarded = "4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1";
        let queen_and_pawn = "4k3/8/8/3n4/4P3/8/8/3QK3 w - - 0 1";
        let queen_alone = "4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1";
        let black_pawn_takes = "4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1";
        let p = bump(loose, PAWN, KNIGHT);
        assert_eq!(fide_change(&p, pawn_takes_knight), 30);
        assert_eq!(fide_change(&p, pawn_takes_guarded), 0);
        assert_eq!(fide_change(&p, queen_and_pawn), 30);
        // Tapering rounds toward zero, so Black's side may lose a unit.
        assert!((fide_change(&p, black_pawn_takes) + 30).abs() <= 1);
        let p = bump(defended, PAWN, KNIGHT);
        assert_eq!(fide_change(&p, pawn_takes_guarded), 30);
        assert_eq!(fide_change(&p, pawn_takes_knight), 0);
        // Only the cheapest attacker counts.
        let p = bump(loose, QUEEN, KNIGHT);
        assert_eq!(fide_change(&p, queen_and_pawn), 0);
        assert_eq!(fide_change(&p, queen_alone), 30);
        let mut p = default_params().clone();
        p.threat_table = [[[[25; THREAT_VICTIM_COUNT]; THREAT_ATTACKER_COUNT]; 2]; 2];
        assert!(corner_unchanged(&p));
        let dragon = pos::<DragonFide>(pawn_takes_knight);
        assert_eq!(
            evaluate_with(&dragon, &p),
            evaluate_with(&dragon, default_params())
        );
    }

    /// An `imbalance` entry adds its value per product of the two counts,
    /// with our own kinds or the enemy's, for both colours; the corner
    /// orientation and `dragon-nimrod` have no such term.
    #[test]
    fn imbalance_multiplies_counts() {
        let (ours, theirs) = (0, 1);
        let bump = |side: usize, kind: usize, partner: usize| {
            let mut p = default_params().clone();
            p.imbalance[side][kind][partner] += 5;
            p
        };
        // White: two Knights, three Pawns; Black: one Hunter, one Pawn.
        let fen = "4k3/7p/8/2h5/8/8/PPP5/1N2K1N1 w - - 0 1";
        assert_eq!(fide_change(&bump(ours, KNIGHT, PAWN), fen), 5 * 2 * 3);
        assert_eq!(fide_change(&bump(ours, KNIGHT, KNIGHT), fen), 5 * 2 * 2);
        // Black's Hunter with its Pawn counts against White.
        assert_eq!(fide_change(&bump(ours, HUNTER, PAWN), fen), -5);
        // Black's Hunter against White's two Knights.
        assert_eq!(fide_change(&bump(theirs, HUNTER, KNIGHT), fen), -5 * 2);
        assert_eq!(fide_change(&bump(theirs, HUNTER, PAWN), fen), -5 * 3);
        // Entries outside the triangle are never read.
        assert_eq!(fide_change(&bump(ours, KNIGHT, HUNTER), fen), 0);
        assert_eq!(fide_change(&bump(ours, PAWN, PAWN), fen), 0);
        assert_eq!(fide_change(&bump(theirs, HUNTER, HUNTER), fen), 0);
        let mut p = default_params().clone();
        p.imbalance = [[[7; IMBALANCE_KIND_COUNT]; IMBALANCE_KIND_COUNT]; 2];
        assert!(corner_unchanged(&p));
        let dragon = pos::<DragonFide>(fen);
        assert_eq!(
            evaluate_with(&dragon, &p),
            evaluate_with(&dragon, default_params())
        );
    }

    /// The threat terms count what they name, and a safe check adds to
    /// the danger of the King it reaches.
    #[test]
    fn threats_and_safe_checks_count() {
        let base = default_params();
        // The evaluation change, White's view, when `bump` raises a term.
        let delta = |fen: &str, bump: &dyn Fn(&mut EvalParams)| {
            let mut p = base.clone();
            bump(&mut p);
            let position = pos::<Fide>(fen);
            evaluate_with(&position, &p) - evaluate_with(&position, base)
        };
        let plus = |s: &mut Score| *s = [s[0] + 100, s[1] + 100];
        // A Knight attacked by a safe Black Pawn.
        let pawn_threat = "4k3/8/3p4/4N3/8/8/8/4K3 w - - 0 1";
        // The taper divides toward zero, so each of the two evaluations
        // may lose a centipawn.
        let threatened = delta(pawn_threat, &|p| plus(&mut p.threat_by_safe_pawn));
        assert!((threatened + 100).abs() <= 1, "{threatened}");
        // An undefended Hunter attacked by the Black Queen.
        let hanging = "4k3/8/8/7H/8/K7/8/7q w - - 0 1";
        assert_eq!(delta(hanging, &|p| plus(&mut p.hanging)), -100);
        // The same Hunter defended by its King is not hanging.
        let defended = "4k3/8/8/7H/6K1/8/8/7q w - - 0 1";
        assert_eq!(delta(defended, &|p| plus(&mut p.hanging)), 0);
        // Black's Knight checks safely from f3 while the Queen eyes f2.
        let check = "4k3/8/8/6n1/3q4/6P1/5P1P/6K1 w - - 0 1";
        assert!(delta(check, &|p| p.safe_check[KNIGHT] += 20) < 0);
        // With g2 covering f3 and h3 the check is not safe.
        let covered = "4k3/8/8/6n1/3q4/8/5PPP/6K1 w - - 0 1";
        assert_eq!(delta(covered, &|p| p.safe_check[KNIGHT] += 20), 0);
        // A safe push d4-d5 would attack the Knight on e6.
        let push = "4k3/8/4n3/8/3P4/8/8/4K3 w - - 0 1";
        let pushed = delta(push, &|p| plus(&mut p.threat_by_pawn_push));
        assert!((pushed - 100).abs() <= 1, "{pushed}");
        // A Knight on e5 defended by d4: an outpost while no Black Pawn
        // can ever attack e5, and not with one on f7.
        let outpost = "4k3/8/8/4N3/3P4/8/8/4K3 w - - 0 1";
        assert_eq!(delta(outpost, &|p| plus(&mut p.outpost[KNIGHT])), 100);
        let chased = "4k3/5p2/8/4N3/3P4/8/8/4K3 w - - 0 1";
        assert_eq!(delta(chased, &|p| plus(&mut p.outpost[KNIGHT])), 0);
        // A Pawn on b7, the Black King seven steps from b8 (a bare
        // endgame, so the endgame weight counts in full).
        let race = "8/1P6/8/8/8/8/8/K6k w - - 0 1";
        assert_eq!(delta(race, &|p| p.passed_enemy_king[0] += 10), 70);
        assert_eq!(delta(race, &|p| p.passed_own_king[0] -= 10), -70);
    }

    #[test]
    fn dragon_pieces_outvalue_plain_ones() {
        let p = default_params();
        for m in [&p.material, &p.material_corner] {
            for k in [KNIGHT, HUNTER, HAWKER, HUNTER5, HAWKER5] {
                let d = dragon_of(k).unwrap();
                assert!(m[d][0] > m[k][0], "{}", KIND_NAMES[k]);
            }
            assert!(m[HUNTER5][0] > m[HUNTER][0]);
            assert!(m[QUEEN][0] > m[DRAGONHUNTER5][0]);
        }
    }

    /// Prints the mobility measurements behind the material values
    /// (tuning/README.md): `cargo test --release measure_piece_mobility -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn measure_piece_mobility() {
        let sliders = &*crate::bitboard::SLIDERS;
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        const SAMPLES: usize = 400_000;
        // (a) Random fillings: the piece on a random square, 4..=28 other
        // pieces on random squares; count attacked squares.
        let mut fill = |f: &mut dyn FnMut(u8, Bitboard) -> Bitboard| -> f64 {
            let mut total = 0u64;
            for _ in 0..SAMPLES {
                let sq = (next() % 64) as u8;
                let n = 4 + next() % 25;
                let mut occ = 0u64;
                while (occ.count_ones() as u64) < n {
                    let q = (next() % 64) as u8;
                    if q != sq {
                        occ |= bit(q);
                    }
                }
                total += f(sq, occ).count_ones() as u64;
            }
            total as f64 / SAMPLES as f64
        };
        println!("(a) random fillings, average attacked squares");
        let chess = [
            (
                "chess knight",
                fill(&mut |s, _| FIDE_TABLES.steps[0][KNIGHT][s as usize]),
            ),
            ("chess bishop", fill(&mut |s, o| sliders.bishop(s, o))),
            ("chess rook", fill(&mut |s, o| sliders.rook(s, o))),
            (
                "chess queen",
                fill(&mut |s, o| sliders.rook(s, o) | sliders.bishop(s, o)),
            ),
        ];
        for (name, m) in chess {
            println!("{name:<16} {m:6.2}");
        }
        for (label, t) in [("fide", &*FIDE_TABLES), ("corner", &*CORNER_TABLES)] {
            for (kind, name) in KIND_NAMES.iter().enumerate().skip(KNIGHT) {
                let m = fill(&mut |s, o| attacks(t, 0, kind, s, o));
                println!("{label:<7} {name:<14} {m:6.2}");
            }
        }
        // (b) Random games: safe mobility as the evaluation counts it.
        fn games<F: Flavor>(label: &str) {
            let t = Position::<F>::tables();
            let mut sum = [0u64; KIND_COUNT];
            let mut cnt = [0u64; KIND_COUNT];
            let mut all = [0u64; KIND_COUNT];
            for p in random_positions::<F>(77, 200_000) {
                let occ = p.occupied();
                for c in 0..2 {
                    let mut enemy_pawn_att = 0;
                    for s in squares(p.pieces(c ^ 1, PAWN)) {
                        enemy_pawn_att |= t.pawn_capture[c ^ 1][s as usize];
                    }
                    for kind in KNIGHT..KIND_COUNT {
                        for s in squares(p.pieces(c, kind)) {
                            let a = attacks(t, c, kind, s, occ);
                            all[kind] += a.count_ones() as u64;
                            sum[kind] += (a & !p.by_color[c] & !enemy_pawn_att).count_ones() as u64;
                            cnt[kind] += 1;
                        }
                    }
                }
            }
            for kind in KNIGHT..KIND_COUNT {
                if cnt[kind] > 0 {
                    println!(
                        "{label:<22} {:<14} attacked {:6.2}  safe {:6.2}  (n={})",
                        KIND_NAMES[kind],
                        all[kind] as f64 / cnt[kind] as f64,
                        sum[kind] as f64 / cnt[kind] as f64,
                        cnt[kind]
                    );
                }
            }
        }
        println!("(b) random games (4..84 plies)");
        games::<Fide>("nimrod");
        games::<Corner>("nimrod-corner");
        games::<DragonFide>("dragon-nimrod");
        games::<DragonCorner>("dragon-nimrod-corner");
    }
}
