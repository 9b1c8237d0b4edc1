//! Every search tunable, defined once, with its range: the protocol lists
//! them as UCI spin options (for SPSA tuning and for measuring what each
//! search feature is worth), and nothing else in the search hard-codes a
//! margin. Setting a feature's depth limit to 0 (or its minimum depth above
//! any reachable depth) switches the feature off.

/// Search parameters for alpha-beta and MCTS; all integers so they can be
/// options.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Half-width of the first aspiration window, centipawns.
    pub aspiration_window: i32,
    /// Aspiration starts from this depth.
    pub aspiration_min_depth: i32,
    /// 1: each fail high of an iteration's aspiration loop searches the
    /// root a ply shallower than the last (the iteration's depth less the
    /// fail highs since the last fail low, at least 1), as Stockfish does:
    /// a move that beats the window is usually confirmed sooner; 0: every
    /// re-search at the iteration's depth.
    pub aspiration_fail_high_reduce: i32,
    /// A node in check is searched a ply deeper while its ply is below
    /// this many times the iteration's depth; 0 = no check extension.
    pub check_extension_ply_factor: i32,
    /// A check made at a node shallower than this many plies gives its
    /// reply no check extension (Stockfish-like searches extend checks
    /// only far from the leaves); 0 = every check is extended.
    pub check_extension_min_depth: i32,
    /// Reverse futility: prune when eval - margin * depth >= beta.
    pub rfp_margin: i32,
    pub rfp_max_depth: i32,
    /// Null-move pruning from this depth, reduction base + depth / divisor.
    pub nmp_min_depth: i32,
    pub nmp_base: i32,
    pub nmp_divisor: i32,
    /// ... plus one ply per this many centipawns the evaluation exceeds
    /// beta, at most three.
    pub nmp_eval_divisor: i32,
    /// The null move is tried only where the evaluation is this far above
    /// beta (a game with a large tempo bonus loses it by passing).
    pub nmp_margin: i32,
    /// 1: the null move is tried only where the evaluation, less what
    /// passing costs (the node's and the null child's raw evaluations
    /// summed: twice the game's tempo bonus), stays at beta.
    pub nmp_eval_after_pass: i32,
    /// Late move reductions: (base + ln(depth) ln(move number) / divisor),
    /// both in hundredths.
    pub lmr_base_x100: i32,
    pub lmr_divisor_x100: i32,
    pub lmr_min_depth: i32,
    /// Moves searched at full depth before reductions start.
    pub lmr_full_moves: i32,
    /// A quiet move's reduction shrinks by its history / this: a ply per
    /// this much history; negative history reduces more.
    pub lmr_history_divisor: i32,
    /// Extra reduction, hundredths of a ply, at expected cut nodes (a
    /// null-window node whose parent expects it to fail high).
    pub lmr_cut_node_x100: i32,
    /// Late checking moves are reduced too, by the table less this many
    /// hundredths of a ply; at or above 1000 they are never reduced.
    pub lmr_check_relief_x100: i32,
    /// Late tactical moves that lose material by exchange are reduced by
    /// the table less this many hundredths; at or above 1000, never.
    pub lmr_bad_tactical_relief_x100: i32,
    /// 1: a table score whose bound allows it replaces the static
    /// evaluation in the pruning decisions (not in `improving`).
    pub tt_refines_eval: i32,
    /// 1: a node that fails low stores no move, so the table keeps the
    /// move it had (the best of upper bounds says little); 0: it stores
    /// the move with the highest upper bound.
    pub tt_fail_low_keeps_move: i32,
    /// 1: at a cutoff only the moves searched before it get the history
    /// malus; 0: also those pruned or left out by a singular test.
    pub history_malus_searched_only: i32,
    /// The quiet move into a node gets a history bonus of this many units
    /// per ply of depth and centipawn its mover's evaluation gained (the
    /// node's static evaluation against its parent's, both from their
    /// mover's side; at most 1000 either way), as Stockfish does; 0: off.
    pub eval_diff_history: i32,
    /// A node that fails low gives the quiet move into it this many
    /// percent of a cutoff's history bonus at its depth (the move refuted
    /// every reply), as Stockfish does; 0: off.
    pub fail_low_prior_bonus: i32,
    /// 1: a reduced move that beats alpha is searched again one ply deeper
    /// where its score clearly beats the best so far, one ply shallower
    /// where it barely does, as Stockfish does; 0: at the unreduced depth.
    pub lmr_research_adjust: i32,
    /// Quiet late moves are reduced this many hundredths of a ply more
    /// where the table's move is tactical (the position is probably about
    /// that tactic), as Stockfish does.
    pub lmr_tt_tactical_x100: i32,
    /// Quiet moves are ordered this many history units higher where they
    /// take a piece out of a cheap attack (`Game::threat_order`: Nimrod's
    /// pawn attacks) to safety, as much lower where they put one into it.
    pub threat_order_weight: i32,
    /// Quiet late moves are reduced this many hundredths of a ply less
    /// where they take a piece out of a cheap attack, as many more where
    /// they put one into it (`Game::threat_order`), as Stockfish reduces
    /// moves that escape a capture less.
    pub lmr_threat_x100: i32,
    /// The quiet and capture histories and counter moves a search leaves
    /// are carried into the next one (the next move of the game), scaled
    /// to this percentage; 0: each search starts them afresh.
    pub history_carry_x100: i32,
    /// Quiet moves are ordered by their continuation histories too (how
    /// the move, by piece and destination, fared after the opponent's
    /// last move and after one's own move before it; kept for the game),
    /// at this many hundredths of their sum; 0: none kept (games without
    /// `Game::piece_to_index` keep none).
    pub cont_history_x100: i32,
    /// Late moves at a node that is or was on a principal variation (and
    /// not likely to fail low) are reduced this many hundredths of a ply
    /// less.
    pub lmr_tt_pv_x100: i32,
    /// 1: late root moves are reduced too (by the table, as at a PV node).
    pub lmr_at_root: i32,
    /// Razoring up to this depth: a node whose evaluation is below alpha -
    /// base - margin * depth^2 is settled by quiescence if that fails low.
    pub razor_max_depth: i32,
    pub razor_base: i32,
    pub razor_margin: i32,
    /// ProbCut from this depth: a tactical move that holds beta + margin
    /// in a search 4 plies shallower cuts the node.
    pub probcut_min_depth: i32,
    pub probcut_margin: i32,
    /// Singular extensions from this depth: the table move is extended
    /// when every other move fails below table score - margin * depth
    /// (searched at half depth); by two plies when they fail below it by
    /// double_margin more (not in PV nodes).
    pub se_min_depth: i32,
    pub se_margin: i32,
    pub se_double_margin: i32,
    /// Internal iterative reduction: from this depth, a node without a
    /// table move is searched one ply shallower.
    pub iir_min_depth: i32,
    /// The nodes internal iterative reduction may reduce: 0 PV nodes
    /// only, 1 PV and expected cut nodes, 2 every node.
    pub iir_scope: i32,
    /// Correction history: the static evaluation is corrected by at most
    /// this many centipawns, learned per structure key (0: off); a
    /// result at depth d weighs min(d + 1, correction_max_weight) / 256.
    pub correction_max_cp: i32,
    pub correction_max_weight: i32,
    /// Late move pruning: quiet moves skipped after (base + depth^2) tries,
    /// halved when the static evaluation is not improving.
    pub lmp_base: i32,
    pub lmp_max_depth: i32,
    /// 1: late move pruning skips quiet checking moves too (as the
    /// move-count pruning of Stockfish-like searches does); 0: checks are
    /// never pruned.
    pub lmp_prunes_checks: i32,
    /// 1: late move pruning counts every move the node has come to in
    /// its ordering (the table move, tactical moves, moves already
    /// pruned), as Stockfish's move count does; 0: only the quiet moves
    /// searched.
    pub lmp_counts_all_moves: i32,
    /// History pruning: a quiet move off the principal variation whose
    /// history (butterfly, plus the weighted continuation histories) is
    /// below -margin * depth is skipped up to `history_prune_max_depth`
    /// (the depth futility reads), as Stockfish does; 0: off.
    pub history_prune_margin: i32,
    pub history_prune_max_depth: i32,
    /// 1: a checking move that loses material by exchange is treated as
    /// if it gave no check: no check extension for its reply, and reduced
    /// and pruned as the same move without check would be (a quiet move
    /// as a quiet move, a capture as a losing capture), in games whose
    /// exchange test is exact.
    pub unsafe_checks_are_quiet: i32,
    /// 1: futility and the quiet exchange test read the depth the move's
    /// late move reduction would leave (the table's, by depth and move
    /// number), as Stockfish-like searches do; 0: the node's depth.
    pub prune_by_reduced_depth: i32,
    /// Futility pruning of quiet moves: eval + base + margin * depth <= alpha.
    pub futility_base: i32,
    pub futility_margin: i32,
    pub futility_max_depth: i32,
    /// Futility pruning of tactical moves too (0: off): a capture is
    /// skipped where even its exchange's gain leaves eval + futility_base +
    /// this * depth at or below alpha (games with an exact exchange test).
    pub futility_capture_margin: i32,
    /// Exchange pruning up to this depth: a tactical move whose exchange
    /// loses more than capture_margin * depth, or a quiet move that loses
    /// more than quiet_margin * depth^2, is skipped (in games whose
    /// exchange test is exact, `Game::SEE_IS_EXACT`).
    pub see_prune_max_depth: i32,
    pub see_prune_capture_margin: i32,
    pub see_prune_quiet_margin: i32,
    /// Quiescence skips captures whose exchange loses more than this.
    pub qsearch_see_threshold: i32,
    /// Delta pruning: where the exchange is exact, quiescence also skips a
    /// capture whose exchange cannot lift stand pat to within this many
    /// centipawns of alpha.
    pub qsearch_delta_margin: i32,
    /// 1: quiescence reads the transposition table (writes: `qsearch_tt_store`): a
    /// settling bound cuts a null-window node, the table move goes first,
    /// and the stored evaluation, refined by the bound, is stand pat.
    pub qsearch_tt_probe: i32,
    /// 1: quiescence also writes the table (depth 0: its score with the
    /// bound it proved, its best move, the static evaluation), and reads
    /// it as `qsearch_tt_probe` does; a node at the first quiescence ply,
    /// which tries quiet checks, is cut only by main-search entries.
    pub qsearch_tt_store: i32,
    /// 1: the first quiescence ply (out of check, where the game tells
    /// checks cheaply) also tries the quiet moves that give check and do
    /// not lose material by exchange; they are not counted against
    /// `qsearch_max_moves`.
    pub qsearch_checks: i32,
    /// Quiescence plies at most, and moves tried per quiescence node out
    /// of check at most (in check: once one evasion has a score).
    pub qsearch_max_depth: i32,
    pub qsearch_max_moves: i32,

    // ---- Time management (src/search/time.rs).
    /// Without `movestogo`, the clock is planned as if this many moves
    /// remain: the soft budget is the remaining time over this, plus most
    /// of the increment. 0: the game's own plan (`Game::CLOCK_MOVES`).
    pub tm_moves_to_go: i32,
    /// The plan shortens by this many hundredths of a move for each move
    /// the side has played since the game's first position, so that the
    /// base time is spent while the game is decided and the end lives on the
    /// increment; 0 keeps the plan fixed.
    pub tm_plan_drop_x100: i32,
    /// The plan never falls below this many moves.
    pub tm_moves_to_go_min: i32,
    /// No iteration starts past this share of the soft budget, hundredths
    /// (it would not finish).
    pub tm_iteration_start_x100: i32,
    /// Extra soft budget, hundredths, when the best move just changed; it
    /// halves with each iteration that keeps the move.
    pub tm_instability_x100: i32,
    /// Soft budget change per centipawn the score fell since the last
    /// iteration, hundredths of a percent.
    pub tm_score_drop_x100: i32,
    /// How much the best move's share of the iteration's nodes shortens
    /// the soft budget, hundredths.
    pub tm_node_share_x100: i32,

    // ---- Monte Carlo tree search (`Search` = `mcts`, src/search/mcts.rs).
    /// PUCT exploration constant, hundredths (values are in [-1, 1]).
    pub mcts_cpuct_x100: i32,
    /// First-play urgency: an unvisited move is valued at the parent's Q
    /// minus this, hundredths.
    pub mcts_fpu_x100: i32,
    /// Leaf value: win probability 1 / (1 + exp(-cp / scale)), centipawns.
    pub mcts_value_scale: i32,
    /// Softmax temperature of the priors, hundredths of a logit unit.
    pub mcts_prior_temp_x100: i32,
    /// Prior logit bonus of a tactical move that does not lose material,
    /// hundredths.
    pub mcts_prior_tactical_x100: i32,
    /// Weight of the one-ply static evaluation in the prior logits,
    /// hundredths per pawn (0: no child evaluations).
    pub mcts_prior_eval_x100: i32,
    /// Prior logit bonus of a checking move, hundredths.
    pub mcts_prior_check_x100: i32,
    /// Losses added per pending visit of an edge (virtual loss).
    pub mcts_virtual_loss: i32,
    /// Leaf values from a quiescence search of at most this many nodes
    /// (0: the static evaluation alone).
    pub mcts_qsearch_nodes: i32,
}

pub const DEFAULT_PARAMS: SearchParams = SearchParams {
    aspiration_window: 25,
    aspiration_min_depth: 5,
    aspiration_fail_high_reduce: 0,
    check_extension_ply_factor: 2,
    check_extension_min_depth: 0,
    rfp_margin: 80,
    rfp_max_depth: 7,
    nmp_min_depth: 3,
    nmp_base: 3,
    nmp_divisor: 4,
    nmp_eval_divisor: 200,
    nmp_margin: 0,
    nmp_eval_after_pass: 0,
    lmr_base_x100: 75,
    lmr_divisor_x100: 225,
    lmr_min_depth: 3,
    lmr_full_moves: 3,
    lmr_history_divisor: 8192,
    lmr_cut_node_x100: 0,
    lmr_check_relief_x100: 1000,
    lmr_bad_tactical_relief_x100: 1000,
    tt_refines_eval: 0,
    tt_fail_low_keeps_move: 1,
    history_malus_searched_only: 0,
    eval_diff_history: 0,
    fail_low_prior_bonus: 0,
    lmr_research_adjust: 0,
    lmr_tt_tactical_x100: 0,
    threat_order_weight: 8192,
    lmr_threat_x100: 0,
    history_carry_x100: 50,
    cont_history_x100: 0,
    lmr_tt_pv_x100: 0,
    lmr_at_root: 0,
    razor_max_depth: 3,
    razor_base: 400,
    razor_margin: 250,
    probcut_min_depth: 5,
    probcut_margin: 200,
    se_min_depth: 7,
    se_margin: 2,
    se_double_margin: 20,
    iir_min_depth: 4,
    iir_scope: 2,
    correction_max_cp: 64,
    correction_max_weight: 16,
    lmp_base: 4,
    lmp_max_depth: 6,
    lmp_prunes_checks: 0,
    lmp_counts_all_moves: 0,
    history_prune_margin: 0,
    history_prune_max_depth: 4,
    unsafe_checks_are_quiet: 1,
    prune_by_reduced_depth: 0,
    futility_base: 100,
    futility_margin: 90,
    futility_max_depth: 6,
    futility_capture_margin: 0,
    see_prune_max_depth: 8,
    see_prune_capture_margin: 120,
    see_prune_quiet_margin: 30,
    qsearch_see_threshold: 0,
    qsearch_delta_margin: 5000,
    qsearch_tt_probe: 0,
    qsearch_tt_store: 1,
    qsearch_checks: 1,
    qsearch_max_depth: 16,
    qsearch_max_moves: 3,
    tm_moves_to_go: 0,
    tm_plan_drop_x100: 0,
    tm_moves_to_go_min: 8,
    tm_iteration_start_x100: 60,
    tm_instability_x100: 100,
    tm_score_drop_x100: 100,
    tm_node_share_x100: 100,
    mcts_cpuct_x100: 200,
    mcts_fpu_x100: 30,
    mcts_value_scale: 200,
    mcts_prior_temp_x100: 100,
    mcts_prior_tactical_x100: 150,
    mcts_prior_eval_x100: 100,
    mcts_prior_check_x100: 200,
    mcts_virtual_loss: 1,
    mcts_qsearch_nodes: 0,
};

impl Default for SearchParams {
    fn default() -> Self {
        DEFAULT_PARAMS
    }
}

/// One tunable as an option: its name, range and field.
pub struct ParamSpec {
    pub name: &'static str,
    pub min: i32,
    pub max: i32,
    pub field: fn(&mut SearchParams) -> &mut i32,
}

macro_rules! specs {
    ($($field:ident: $min:expr, $max:expr;)*) => {
        /// Every search parameter, in the order `uci` lists them.
        pub const PARAM_SPECS: &[ParamSpec] = &[
            $(ParamSpec {
                name: stringify!($field),
                min: $min,
                max: $max,
                field: |p| &mut p.$field,
            },)*
        ];
    };
}

specs! {
    aspiration_window: 1, 1000;
    aspiration_min_depth: 1, 200;
    aspiration_fail_high_reduce: 0, 1;
    check_extension_ply_factor: 0, 8;
    check_extension_min_depth: 0, 200;
    rfp_margin: 0, 1000;
    rfp_max_depth: 0, 200;
    nmp_min_depth: 1, 200;
    nmp_base: 0, 20;
    nmp_divisor: 1, 100;
    nmp_eval_divisor: 1, 10_000;
    nmp_margin: 0, 1000;
    nmp_eval_after_pass: 0, 1;
    lmr_base_x100: 0, 1000;
    lmr_divisor_x100: 50, 2000;
    lmr_min_depth: 1, 200;
    lmr_full_moves: 1, 200;
    lmr_history_divisor: 1, 1_000_000;
    lmr_cut_node_x100: 0, 500;
    lmr_check_relief_x100: 0, 1000;
    lmr_bad_tactical_relief_x100: 0, 1000;
    tt_refines_eval: 0, 1;
    tt_fail_low_keeps_move: 0, 1;
    history_malus_searched_only: 0, 1;
    eval_diff_history: 0, 64;
    fail_low_prior_bonus: 0, 400;
    lmr_research_adjust: 0, 1;
    lmr_tt_tactical_x100: 0, 500;
    threat_order_weight: 0, 32_768;
    lmr_threat_x100: 0, 300;
    history_carry_x100: 0, 100;
    cont_history_x100: 0, 400;
    lmr_tt_pv_x100: 0, 500;
    lmr_at_root: 0, 1;
    razor_max_depth: 0, 200;
    razor_base: 0, 5000;
    razor_margin: 0, 5000;
    probcut_min_depth: 1, 200;
    probcut_margin: 0, 5000;
    se_min_depth: 1, 200;
    se_margin: 0, 100;
    se_double_margin: 0, 1000;
    iir_min_depth: 1, 200;
    iir_scope: 0, 2;
    correction_max_cp: 0, 1000;
    correction_max_weight: 1, 256;
    lmp_base: 0, 1000;
    lmp_max_depth: 0, 200;
    lmp_prunes_checks: 0, 1;
    lmp_counts_all_moves: 0, 1;
    history_prune_margin: 0, 16_384;
    history_prune_max_depth: 0, 200;
    unsafe_checks_are_quiet: 0, 1;
    prune_by_reduced_depth: 0, 1;
    futility_base: 0, 2000;
    futility_margin: 0, 2000;
    futility_max_depth: 0, 200;
    futility_capture_margin: 0, 2000;
    see_prune_max_depth: 0, 200;
    see_prune_capture_margin: 0, 2000;
    see_prune_quiet_margin: 0, 2000;
    qsearch_see_threshold: -2000, 2000;
    qsearch_delta_margin: 0, 5000;
    qsearch_tt_probe: 0, 1;
    qsearch_tt_store: 0, 1;
    qsearch_checks: 0, 1;
    qsearch_max_depth: 1, 100;
    qsearch_max_moves: 1, 1000;
    tm_moves_to_go: 0, 50;
    tm_plan_drop_x100: 0, 200;
    tm_moves_to_go_min: 1, 50;
    tm_iteration_start_x100: 10, 100;
    tm_instability_x100: 0, 1000;
    tm_score_drop_x100: 0, 1000;
    tm_node_share_x100: 0, 150;
    mcts_cpuct_x100: 1, 2000;
    mcts_fpu_x100: -200, 200;
    mcts_value_scale: 10, 5000;
    mcts_prior_temp_x100: 1, 10000;
    mcts_prior_tactical_x100: -1000, 1000;
    mcts_prior_eval_x100: 0, 1000;
    mcts_prior_check_x100: -1000, 1000;
    mcts_virtual_loss: 0, 100;
    mcts_qsearch_nodes: 0, 10000;
}

impl SearchParams {
    /// Sets a parameter by name (case-insensitive), checking its range.
    /// `Ok(false)` if no parameter has that name.
    pub fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let Some(spec) = PARAM_SPECS
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
        else {
            return Ok(false);
        };
        match value.trim().parse::<i32>() {
            Ok(v) if (spec.min..=spec.max).contains(&v) => {
                *(spec.field)(self) = v;
                Ok(true)
            }
            _ => Err(format!(
                "{}: '{value}' is not a number from {} to {}",
                spec.name, spec.min, spec.max
            )),
        }
    }

    pub fn get(&self, spec: &ParamSpec) -> i32 {
        *(spec.field)(&mut self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_is_in_range_and_settable() {
        let defaults = DEFAULT_PARAMS;
        for spec in PARAM_SPECS {
            let v = defaults.get(spec);
            assert!((spec.min..=spec.max).contains(&v), "{}", spec.name);
            let mut p = DEFAULT_PARAMS;
            assert_eq!(
                p.set(&spec.name.to_uppercase(), &spec.max.to_string()),
                Ok(true)
            );
            assert_eq!(p.get(spec), spec.max);
            assert!(
                p.set(spec.name, &(spec.max as i64 + 1).to_string())
                    .is_err()
            );
            assert!(p.set(spec.name, "x").is_err());
        }
        assert_eq!(DEFAULT_PARAMS.clone().set("no_such", "1"), Ok(false));
    }
}
