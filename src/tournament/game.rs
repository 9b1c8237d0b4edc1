//! One refereed game between two players.
//!
//! The rules library is the referee: every move a player sends is parsed
//! and checked by the game's own rules, and every game end (mate,
//! stalemate, repetition, move counters, no legal move) is detected by the
//! game's `outcome`. Illegal moves, crashes, hangs and time forfeits lose.

use super::player::{self, Failure, Limit, PlayerSpec, Reply};
use crate::engine::{Limits, Score};
use crate::game::{Color, Outcome, Termination};
use crate::registry;
use std::time::Duration;

/// Extra wait for an answer past the player's own budget before the game
/// is declared a hang (covers process start-up and a loaded machine).
const HANG_GRACE: Duration = Duration::from_secs(2);
/// Per-move wait for players limited by nodes or depth only.
pub const DEFAULT_MOVE_TIMEOUT: Duration = Duration::from_secs(120);

/// Draw and resignation adjudication (cutechess-style).
#[derive(Clone, Debug, PartialEq)]
pub struct Adjudication {
    /// Draw when both sides report |score| <= draw_score for draw_count
    /// consecutive moves each, from full move draw_from on.
    pub draw: Option<(u32, u32, i32)>,
    /// Resign when one side reports <= -score and the other >= score for
    /// resign_count consecutive moves each.
    pub resign: Option<(u32, i32)>,
    /// Draw after this many plies.
    pub max_plies: u32,
}

impl Adjudication {
    /// The game's defaults, from the registry.
    pub fn default_for(variant: &str) -> Result<Adjudication, String> {
        Ok(registry::get(variant)?.adjudication.clone())
    }
}

/// What a game needs to be played.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub variant: String,
    /// The position the game starts from (after the opening).
    pub start_fen: String,
    pub white: PlayerSpec,
    pub black: PlayerSpec,
    pub limits: [Limit; 2],
    pub time_margin: Duration,
    pub move_timeout: Duration,
    pub adjudication: Adjudication,
}

/// One recorded move.
#[derive(Clone, Debug)]
pub struct MoveRecord {
    pub mv: String,
    pub score: Option<Score>,
    pub depth: u32,
    pub elapsed: Duration,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub moves: Vec<MoveRecord>,
    /// Points for White: 1, 0.5 or 0.
    pub white_points: f64,
    /// Why it ended, e.g. `checkmate`, `time forfeit`, `illegal move`.
    pub termination: String,
    /// Detail for the PGN (e.g. which move was illegal).
    pub detail: String,
}

impl GameRecord {
    pub fn result_tag(&self) -> &'static str {
        if self.white_points > 0.75 {
            "1-0"
        } else if self.white_points > 0.25 {
            "1/2-1/2"
        } else {
            "0-1"
        }
    }
}

fn score_cp(score: Option<Score>) -> Option<i32> {
    match score? {
        Score::Cp(c) => Some(c),
        Score::Mate(m) if m > 0 => Some(30_000),
        Score::Mate(_) => Some(-30_000),
    }
}

/// Plays one game to its end.
pub fn play(setup: &GameSetup) -> GameRecord {
    let mut moves: Vec<MoveRecord> = Vec::new();
    let end =
        |moves: Vec<MoveRecord>, white_points: f64, termination: &str, detail: String| GameRecord {
            moves,
            white_points,
            termination: termination.to_string(),
            detail,
        };
    let loss_for = |c: Color| if c == Color::White { 0.0 } else { 1.0 };

    let mut referee = match registry::new_session(&setup.variant) {
        Ok(s) => s,
        Err(e) => return end(moves, 0.5, "aborted", e.to_string()),
    };
    if let Err(e) = referee.set_position(Some(&setup.start_fen), &[]) {
        return end(moves, 0.5, "aborted", format!("bad opening: {e}"));
    }
    let first = referee.side_to_move();
    let specs = [&setup.white, &setup.black];
    let mut players = Vec::with_capacity(2);
    for (i, spec) in specs.iter().enumerate() {
        let color = if i == 0 { Color::White } else { Color::Black };
        match player::start(spec, &setup.variant) {
            Ok(p) => players.push(p),
            Err(f) => {
                let (reason, detail) = describe(&f, spec);
                return end(moves, loss_for(color), reason, detail);
            }
        }
    }

    // Clocks in milliseconds, and moves made by each side.
    let mut clock = [0i64; 2];
    for (i, limit) in setup.limits.iter().enumerate() {
        if let Limit::Clock { base_ms, .. } = limit {
            clock[i] = *base_ms as i64;
        }
    }
    let mut made = [0u32; 2];
    let mut history: Vec<String> = Vec::new();
    let mut scores: [Vec<i32>; 2] = [Vec::new(), Vec::new()];

    loop {
        if let Some(outcome) = referee.outcome() {
            let (points, reason) = match outcome {
                Outcome::Win(c, t) => (if c == Color::White { 1.0 } else { 0.0 }, t),
                Outcome::Draw(t) => (0.5, t),
            };
            return end(moves, points, termination_name(reason), String::new());
        }
        if history.len() as u32 >= setup.adjudication.max_plies {
            return end(moves, 0.5, "max length", String::new());
        }
        let side = referee.side_to_move();
        let s = side.index();
        let (limits, budget) = limits_for(setup, side, &clock, made[s]);
        let deadline = budget + setup.time_margin + HANG_GRACE;
        let reply: Reply = match players[s].think(&setup.start_fen, &history, &limits, deadline) {
            Ok(r) => r,
            Err(f) => {
                let (reason, detail) = describe(&f, specs[s]);
                let reason = if f == Failure::Hang
                    && matches!(setup.limits[s], Limit::Clock { .. } | Limit::MoveTime(_))
                {
                    "time forfeit"
                } else {
                    reason
                };
                return end(moves, loss_for(side), reason, detail);
            }
        };
        let used = reply.elapsed.as_millis() as i64;
        match &setup.limits[s] {
            Limit::Clock {
                moves: per,
                base_ms,
                inc_ms,
            } => {
                clock[s] -= used;
                if clock[s] < -(setup.time_margin.as_millis() as i64) {
                    return end(
                        moves,
                        loss_for(side),
                        "time forfeit",
                        format!("{} lost on time ({} ms over)", specs[s].name, -clock[s]),
                    );
                }
                clock[s] += *inc_ms as i64;
                if let Some(per) = per
                    && (made[s] + 1) % per == 0
                {
                    clock[s] += *base_ms as i64;
                }
            }
            Limit::MoveTime(ms) if used > (*ms + setup.time_margin.as_millis() as u64) as i64 => {
                return end(
                    moves,
                    loss_for(side),
                    "time forfeit",
                    format!("{} used {used} ms of {ms}", specs[s].name),
                );
            }
            _ => {}
        }
        let Some(text) = reply.mv else {
            return end(
                moves,
                loss_for(side),
                "illegal move",
                format!(
                    "{} answered bestmove (none) with legal moves left",
                    specs[s].name
                ),
            );
        };
        let canonical = match referee.play_move(&text) {
            Ok(c) => c,
            Err(e) => {
                return end(
                    moves,
                    loss_for(side),
                    "illegal move",
                    format!("{} played {text}: {e}", specs[s].name),
                );
            }
        };
        made[s] += 1;
        history.push(canonical.clone());
        moves.push(MoveRecord {
            mv: canonical,
            score: reply.score,
            depth: reply.depth,
            elapsed: reply.elapsed,
        });
        if let Some(cp) = score_cp(reply.score) {
            scores[s].push(cp);
        } else {
            scores[s].clear();
        }
        if let Some(points) = adjudicate(setup, &scores, side, moves.len(), first) {
            let reason = if points == 0.5 {
                "adjudication: draw"
            } else {
                "adjudication: resign"
            };
            return end(moves, points, reason, String::new());
        }
    }
}

/// Limits for the side to move and how long it may take at most.
fn limits_for(setup: &GameSetup, side: Color, clock: &[i64; 2], made: u32) -> (Limits, Duration) {
    let s = side.index();
    let mut limits = Limits::default();
    let budget = match &setup.limits[s] {
        Limit::Clock { moves, .. } => {
            // Both clocks are sent, each in its side's own control.
            for (i, limit) in setup.limits.iter().enumerate() {
                if let Limit::Clock { inc_ms, .. } = limit {
                    limits.time[i] = Some(clock[i].max(0) as u64);
                    limits.inc[i] = *inc_ms;
                }
            }
            limits.movestogo = moves.map(|m| m - made % m);
            Duration::from_millis(clock[s].max(0) as u64)
        }
        Limit::MoveTime(ms) => {
            limits.movetime = Some(*ms);
            Duration::from_millis(*ms)
        }
        Limit::Nodes(n) => {
            limits.nodes = Some(*n);
            setup.move_timeout
        }
        Limit::Depth(d) => {
            limits.depth = Some(*d);
            setup.move_timeout
        }
    };
    (limits, budget)
}

/// Checks the adjudication rules after a move by `mover`.
fn adjudicate(
    setup: &GameSetup,
    scores: &[Vec<i32>; 2],
    mover: Color,
    plies: usize,
    first: Color,
) -> Option<f64> {
    let a = &setup.adjudication;
    let me = &scores[mover.index()];
    let them = &scores[mover.flip().index()];
    let tail_all = |v: &Vec<i32>, n: u32, f: &dyn Fn(i32) -> bool| {
        v.len() >= n as usize && v[v.len() - n as usize..].iter().all(|&x| f(x))
    };
    if let Some((count, score)) = a.resign
        && tail_all(me, count, &|x| x <= -score)
        && tail_all(them, count, &|x| x >= score)
    {
        return Some(if mover == Color::White { 0.0 } else { 1.0 });
    }
    if let Some((from_move, count, score)) = a.draw {
        // Full moves played, counted from the game's first move.
        let full_moves = (plies + (first == Color::Black) as usize) / 2;
        if full_moves >= from_move as usize
            && tail_all(me, count, &|x| x.abs() <= score)
            && tail_all(them, count, &|x| x.abs() <= score)
        {
            return Some(0.5);
        }
    }
    None
}

fn termination_name(t: Termination) -> &'static str {
    match t {
        Termination::Checkmate => "checkmate",
        Termination::Stalemate => "stalemate",
        Termination::NoLegalMove => "no legal move",
        Termination::FiftyMoves => "50-move rule",
        Termination::Repetition => "threefold repetition",
        Termination::InsufficientMaterial => "insufficient material",
    }
}

fn describe(f: &Failure, spec: &PlayerSpec) -> (&'static str, String) {
    match f {
        Failure::Crash(e) => ("crash", format!("{}: {e}", spec.name)),
        Failure::Hang => ("hang", format!("{} did not answer", spec.name)),
        Failure::Setup(e) => ("setup failure", format!("{}: {e}", spec.name)),
    }
}
