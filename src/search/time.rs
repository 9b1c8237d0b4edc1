//! Time management: how long a `go` may think.
//!
//! Two budgets: the *soft* one is checked between iterations (no new
//! iteration starts past `tm_iteration_start_x100` percent of it, since it
//! would not finish; that share is scaled by [`soft_scale`] from the
//! search's signals), the *hard* one inside the search every few hundred
//! nodes. While pondering or in `go infinite` neither applies; on
//! `ponderhit` the clock starts then.

use super::Limits;
use super::params::SearchParams;
use crate::game::Color;
use std::time::Duration;

/// Never plan for more moves than this (without `movestogo` the plan is
/// `tm_moves_to_go`, or the game's `clock_moves` where that is 0).
const MAX_MOVES_TO_GO: u64 = 50;
/// Share of the increment spent on each move.
const INCREMENT_SHARE: f64 = 0.75;
/// The hard limit is at most this many soft budgets...
const HARD_PER_SOFT: u64 = 4;
/// ...and at most this share of the remaining time.
const HARD_SHARE_OF_REMAINING: f64 = 0.4;
/// The soft budget never exceeds this share of the remaining time, so a low
/// clock is rebuilt from the increment instead of being spent.
const SOFT_SHARE_OF_REMAINING: f64 = 0.25;

/// What the last iterations say about how settled the search is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchSignals {
    /// Iterations in a row that ended with the same best move (0: it just
    /// changed).
    pub stable_iterations: u32,
    /// The score fell by this much since the iteration before (negative:
    /// it rose), centipawns.
    pub score_drop: i32,
    /// The best move's share of the last iteration's nodes, 0 to 1.
    pub best_move_node_share: f64,
}

/// The soft-budget scales stay in this range.
const SOFT_SCALE_RANGE: (f64, f64) = (0.3, 3.0);
/// With a settled best move, the stability factor falls to this.
const SETTLED_STABILITY_FACTOR: f64 = 0.75;
/// Score drops count at most this much either way, centipawns.
const SCORE_DROP_RANGE: (i32, i32) = (-50, 100);

/// How much of the soft budget to use this time: more when the best move
/// keeps changing, when the score falls, and when the best move has not
/// taken most of the effort (the alternatives were hard to refute).
pub fn soft_scale(params: &SearchParams, signals: &SearchSignals) -> f64 {
    let instability = params.tm_instability_x100 as f64 / 100.0
        * 0.5f64.powi(signals.stable_iterations.min(16) as i32);
    let stability = SETTLED_STABILITY_FACTOR + instability;
    let drop = signals
        .score_drop
        .clamp(SCORE_DROP_RANGE.0, SCORE_DROP_RANGE.1) as f64;
    let falling = 1.0 + drop * params.tm_score_drop_x100 as f64 / 10_000.0;
    let share = signals.best_move_node_share.clamp(0.0, 1.0);
    let effort = 1.0 + (0.5 - share) * params.tm_node_share_x100 as f64 / 100.0;
    (stability * falling.max(0.5) * effort.max(0.25)).clamp(SOFT_SCALE_RANGE.0, SOFT_SCALE_RANGE.1)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
    /// Whether the search's signals may scale the soft budget: a clock's
    /// budget is a plan, a `movetime` is exact.
    pub flexible: bool,
}

/// The budget for this move, or `None` when only depth/nodes/stop end it.
/// `clock_moves` is the game's plan ([`crate::game::Game::CLOCK_MOVES`]);
/// `moves_played` counts the side's moves since the game's first position.
pub fn budget(
    limits: &Limits,
    side: Color,
    move_overhead: Duration,
    params: &SearchParams,
    clock_moves: u32,
    moves_played: u32,
) -> Option<Budget> {
    if let Some(ms) = limits.movetime {
        let t = Duration::from_millis(ms)
            .saturating_sub(move_overhead)
            .max(Duration::from_millis(1));
        return Some(Budget {
            soft: t,
            hard: t,
            flexible: false,
        });
    }
    let remaining = limits.time[side.index()]?;
    let remaining = Duration::from_millis(remaining)
        .saturating_sub(move_overhead)
        .max(Duration::from_millis(1));
    let inc = Duration::from_millis(limits.inc[side.index()]);
    let moves_to_go = limits
        .movestogo
        .map(u64::from)
        .unwrap_or_else(|| planned_moves(params, clock_moves, moves_played))
        .clamp(1, MAX_MOVES_TO_GO);
    let mut soft = remaining / moves_to_go as u32 + inc.mul_f64(INCREMENT_SHARE);
    let hard_cap = if moves_to_go == 1 {
        remaining.mul_f64(0.9)
    } else {
        remaining.mul_f64(HARD_SHARE_OF_REMAINING)
    };
    if moves_to_go > 1 {
        soft = soft.min(remaining.mul_f64(SOFT_SHARE_OF_REMAINING));
    }
    let hard = (soft * HARD_PER_SOFT as u32).min(hard_cap);
    soft = soft.min(hard);
    Some(Budget {
        soft: soft.max(Duration::from_millis(1)),
        hard: hard.max(Duration::from_millis(1)),
        flexible: true,
    })
}

/// The side to move's moves since the game's first position, as the
/// history of positions before the root counts them (a host that sends
/// only the current position gets the plan of a game's first move).
pub fn moves_played<G: crate::game::Game>(root: &crate::game::GameState<G>) -> u32 {
    (root.history.len() / 2).try_into().unwrap_or(u32::MAX)
}

/// The moves the clock is planned for without `movestogo`: the plan
/// (`tm_moves_to_go`, or the game's), shortened by `tm_plan_drop_x100`
/// hundredths for each move played, never below `tm_moves_to_go_min`.
fn planned_moves(params: &SearchParams, clock_moves: u32, moves_played: u32) -> u64 {
    let plan = match params.tm_moves_to_go {
        0 => clock_moves as i64,
        planned => planned as i64,
    };
    let drop = moves_played as i64 * params.tm_plan_drop_x100 as i64 / 100;
    let floor = (params.tm_moves_to_go_min as i64).min(plan);
    (plan - drop).max(floor).max(1) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let limits = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let b = budget(
            &limits,
            Color::White,
            Duration::from_millis(30),
            &SearchParams::default(),
            30,
            0,
        )
        .unwrap();
        assert_eq!(b.soft, Duration::from_millis(970));
        assert_eq!(b.hard, Duration::from_millis(970));
    }

    #[test]
    fn short_clock_stays_well_inside_remaining_time() {
        // 1 s + 10 ms games: even with 50 ms left, never plan past it.
        for left in [1000u64, 200, 50, 5] {
            let limits = Limits {
                time: [Some(left), Some(left)],
                inc: [10, 10],
                ..Limits::default()
            };
            let b = budget(
                &limits,
                Color::Black,
                Duration::from_millis(10),
                &SearchParams::default(),
                30,
                0,
            )
            .unwrap();
            assert!(b.hard.as_millis() as u64 <= left.max(2), "{left}: {b:?}");
            assert!(b.soft <= b.hard);
        }
    }

    #[test]
    fn unsettled_searches_get_more_time() {
        let p = SearchParams::default();
        let settled = SearchSignals {
            stable_iterations: 8,
            score_drop: 0,
            best_move_node_share: 0.9,
        };
        let changed = SearchSignals {
            stable_iterations: 0,
            ..settled
        };
        let falling = SearchSignals {
            score_drop: 60,
            ..settled
        };
        let contested = SearchSignals {
            best_move_node_share: 0.2,
            ..settled
        };
        let base = soft_scale(&p, &settled);
        assert!(base < 1.0, "{base}");
        for s in [changed, falling, contested] {
            assert!(soft_scale(&p, &s) > base, "{s:?}");
        }
        let extreme = SearchSignals {
            stable_iterations: 0,
            score_drop: 10_000,
            best_move_node_share: 0.0,
        };
        assert!(soft_scale(&p, &extreme) <= SOFT_SCALE_RANGE.1);
    }

    #[test]
    fn fewer_planned_moves_spend_more_of_the_clock() {
        let limits = Limits {
            time: [Some(5000), Some(5000)],
            inc: [50, 50],
            ..Limits::default()
        };
        let soft_for = |moves_to_go, clock_moves| {
            let params = SearchParams {
                tm_moves_to_go: moves_to_go,
                ..SearchParams::default()
            };
            budget(
                &limits,
                Color::White,
                Duration::ZERO,
                &params,
                clock_moves,
                0,
            )
            .unwrap()
            .soft
        };
        // 5000 / 30 + 0.75 * 50 ms, and 5000 / 20 + 37.5 ms.
        assert_eq!(soft_for(30, 20).as_micros(), 204_166);
        assert_eq!(soft_for(20, 30).as_micros(), 287_500);
        // 0: the game's plan.
        assert_eq!(soft_for(0, 30).as_micros(), 204_166);
        assert_eq!(soft_for(0, 20).as_micros(), 287_500);
        // A host's movestogo wins over either plan.
        let with_mtg = Limits {
            movestogo: Some(10),
            ..limits.clone()
        };
        let b = budget(
            &with_mtg,
            Color::White,
            Duration::ZERO,
            &SearchParams::default(),
            20,
            0,
        )
        .unwrap();
        assert_eq!(b.soft.as_micros(), 537_500);
    }

    #[test]
    fn a_dropping_plan_spends_more_as_the_game_goes_on() {
        let limits = Limits {
            time: [Some(5000), Some(5000)],
            inc: [50, 50],
            ..Limits::default()
        };
        let params = SearchParams {
            tm_plan_drop_x100: 40,
            tm_moves_to_go_min: 6,
            ..SearchParams::default()
        };
        let soft_after = |moves_played, params: &SearchParams| {
            budget(
                &limits,
                Color::White,
                Duration::ZERO,
                params,
                20,
                moves_played,
            )
            .unwrap()
            .soft
            .as_micros()
        };
        // 20 moves at first, 20 - 0.4 * 10 = 16 after ten, the floor of 6
        // from move 35 on: 5000 / N + 37.5 ms.
        assert_eq!(soft_after(0, &params), 287_500);
        assert_eq!(soft_after(10, &params), 350_000);
        assert_eq!(soft_after(35, &params), soft_after(80, &params));
        assert_eq!(soft_after(80, &params), 870_833);
        // The default keeps the plan fixed.
        let fixed = SearchParams::default();
        assert_eq!(soft_after(0, &fixed), soft_after(80, &fixed));
        // A floor above the plan leaves the plan as it is.
        let high_floor = SearchParams {
            tm_moves_to_go_min: 30,
            ..params
        };
        assert_eq!(soft_after(0, &high_floor), 287_500);
    }

    #[test]
    fn no_clock_means_no_budget() {
        assert!(
            budget(
                &Limits::default(),
                Color::White,
                Duration::ZERO,
                &SearchParams::default(),
                30,
                0
            )
            .is_none()
        );
    }
}
