//! Time management: how long a `go` may think.
//!
//! Two budgets: the *soft* one is checked between iterations (no new
//! iteration starts past about 60% of it, since it would not finish), the
//! *hard* one inside the search every few hundred nodes. While pondering or
//! in `go infinite` neither applies; on `ponderhit` the clock starts then.

use super::Limits;
use crate::game::Color;
use std::time::Duration;

/// Without `movestogo`, plan as if this many moves remain.
const DEFAULT_MOVES_TO_GO: u64 = 30;
/// Never plan for more moves than this.
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
/// No iteration starts after this share of the soft budget.
pub const ITERATION_START_SHARE: f64 = 0.6;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
}

/// The budget for this move, or `None` when only depth/nodes/stop end it.
pub fn budget(limits: &Limits, side: Color, move_overhead: Duration) -> Option<Budget> {
    if let Some(ms) = limits.movetime {
        let t = Duration::from_millis(ms)
            .saturating_sub(move_overhead)
            .max(Duration::from_millis(1));
        return Some(Budget { soft: t, hard: t });
    }
    let remaining = limits.time[side.index()]?;
    let remaining = Duration::from_millis(remaining)
        .saturating_sub(move_overhead)
        .max(Duration::from_millis(1));
    let inc = Duration::from_millis(limits.inc[side.index()]);
    let moves_to_go = limits
        .movestogo
        .map(|m| (m as u64).clamp(1, MAX_MOVES_TO_GO))
        .unwrap_or(DEFAULT_MOVES_TO_GO);
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
    })
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
        let b = budget(&limits, Color::White, Duration::from_millis(30)).unwrap();
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
            let b = budget(&limits, Color::Black, Duration::from_millis(10)).unwrap();
            assert!(b.hard.as_millis() as u64 <= left.max(2), "{left}: {b:?}");
            assert!(b.soft <= b.hard);
        }
    }

    #[test]
    fn no_clock_means_no_budget() {
        assert!(budget(&Limits::default(), Color::White, Duration::ZERO).is_none());
    }
}
