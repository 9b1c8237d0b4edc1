//! Every search tunable, defined once. The tuning work exposes these as
//! options (SPSA); nothing else in the search hard-codes a margin.

/// Search parameters for alpha-beta.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Half-width of the first aspiration window, centipawns.
    pub aspiration_window: i32,
    /// Aspiration starts from this depth.
    pub aspiration_min_depth: i32,
    /// Reverse futility: prune when eval - margin * depth >= beta.
    pub rfp_margin: i32,
    pub rfp_max_depth: i32,
    /// Null-move reduction: base + depth / divisor.
    pub nmp_min_depth: i32,
    pub nmp_base: i32,
    pub nmp_divisor: i32,
    /// Late move reductions: base + ln(depth) * ln(move number) / divisor.
    pub lmr_base: f64,
    pub lmr_divisor: f64,
    pub lmr_min_depth: i32,
    /// Moves searched at full depth before reductions start.
    pub lmr_full_moves: usize,
    /// Late move pruning: quiet moves skipped after base + depth^2 tries.
    pub lmp_base: usize,
    pub lmp_max_depth: i32,
    /// Futility pruning of quiet moves: eval + base + margin * depth <= alpha.
    pub futility_base: i32,
    pub futility_margin: i32,
    pub futility_max_depth: i32,
    /// Quiescence skips captures whose exchange loses more than this.
    pub qsearch_see_threshold: i32,
}

pub const DEFAULT_PARAMS: SearchParams = SearchParams {
    aspiration_window: 25,
    aspiration_min_depth: 5,
    rfp_margin: 80,
    rfp_max_depth: 7,
    nmp_min_depth: 3,
    nmp_base: 3,
    nmp_divisor: 4,
    lmr_base: 0.75,
    lmr_divisor: 2.25,
    lmr_min_depth: 3,
    lmr_full_moves: 3,
    lmp_base: 4,
    lmp_max_depth: 6,
    futility_base: 100,
    futility_margin: 90,
    futility_max_depth: 6,
    qsearch_see_threshold: 0,
};

impl Default for SearchParams {
    fn default() -> Self {
        DEFAULT_PARAMS
    }
}
