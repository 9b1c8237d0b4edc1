//! Balanced random openings, for `ghast match`, `ghast openings` and the
//! tuner's self-play games: random legal plies from the start, kept when a
//! short search finds the result balanced.

use super::{Limits, Score, Settings, for_variant};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Hash of the balance search, MB.
const OPENING_HASH_MB: usize = 4;
/// Random games tried before settling for an unbalanced one.
const OPENING_TRIES: usize = 200;

/// Plays `plies` random legal moves from the start and keeps the result if
/// a search to `depth` finds it within `max_cp`; tries again otherwise.
pub fn random_opening(
    variant: &str,
    plies: u32,
    max_cp: i32,
    depth: u32,
    rng: &mut StdRng,
) -> Result<String, String> {
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let settings = Settings {
        hash_mb: OPENING_HASH_MB,
        ..Settings::default()
    };
    let mut engine = for_variant(variant, settings)?;
    let mut fallback = None;
    for _ in 0..OPENING_TRIES {
        let session = engine.session_mut();
        session.set_position(None, &[]).map_err(|e| e.to_string())?;
        let mut ok = true;
        for _ in 0..plies {
            let moves = session.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            let mv = &moves[rng.random_range(0..moves.len())];
            session.play_move(mv).map_err(|e| e.to_string())?;
        }
        if !ok || session.outcome().is_some() {
            continue;
        }
        let reply = engine.search(&limits, &|_| {});
        match reply.score {
            Score::Cp(cp) if cp.abs() <= max_cp => return Ok(engine.session().fen()),
            _ => fallback = Some(engine.session().fen()),
        }
    }
    fallback.ok_or_else(|| format!("could not find a random {variant} opening"))
}

/// `count` different balanced openings (`ghast openings`).
pub fn generate_openings(
    variant: &str,
    plies: u32,
    count: usize,
    max_cp: i32,
    depth: u32,
    seed: u64,
) -> Result<Vec<String>, String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 20 {
        tries += 1;
        let fen = random_opening(variant, plies, max_cp, depth, &mut rng)?;
        if seen.insert(fen.clone()) {
            out.push(fen);
        }
    }
    Ok(out)
}
