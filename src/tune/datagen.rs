//! `ghast datagen`: self-play games for the tuner.
//!
//! Each game starts from a random opening (`random_plies` random legal
//! moves, kept when a depth-4 search finds the position within 200 cp, as
//! `ghast match --random-openings` does) and is played by ghast's search
//! with a fixed depth or node limit, one thread per game; `threads` games
//! run at once. A position is kept when it is *quiet*: the side to move is
//! not in check, the chosen move is not tactical, the score is not a mate,
//! and at least `min_ply` plies were played since the opening. Games end by
//! the rules, or are adjudicated: a mate score or |score| >= 1500 cp for 6
//! plies in a row is a win, `max_plies` plies a draw.
//!
//! Game `i` (counted over the whole file) uses the seed `seed + i`, and
//! node- or depth-limited single-thread searches are deterministic, so a
//! resumed run plays the same games as an uninterrupted one.

use super::{Sample, Tunable};
use crate::engine::openings::random_opening;
use crate::game::{Color, GameState, Outcome};
use crate::search::{self, Config, Limits, MATE_BOUND, Memory, Resources, SearchKind, Shared};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, IsTerminal, Seek, SeekFrom, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Settings of a datagen run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    pub variant: String,
    /// Games wanted in the file (games already there count).
    pub games: u64,
    pub out: String,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub threads: usize,
    pub random_plies: u32,
    pub seed: u64,
    /// Positions before this many plies after the opening are not kept.
    pub min_ply: u32,
    pub max_plies: u32,
    /// Hash per game, MB.
    pub hash_mb: usize,
}

impl Default for DatagenConfig {
    fn default() -> Self {
        DatagenConfig {
            variant: "nimrod".into(),
            games: 100,
            out: "data.txt".into(),
            depth: None,
            nodes: None,
            threads: 1,
            random_plies: 8,
            seed: 1,
            min_ply: 4,
            max_plies: 300,
            hash_mb: 8,
        }
    }
}

/// Score (side to move) at or beyond which a game is adjudicated.
const RESIGN_CP: i32 = 1500;
const RESIGN_PLIES: u32 = 6;

/// One finished game: its kept positions and result.
struct Played {
    samples: Vec<Sample>,
    /// White's score.
    result: f64,
    plies: u32,
    how: &'static str,
}

/// Counts the finished games in `path` and cuts off anything after the last
/// one (a game interrupted while being written). Returns (games, positions).
fn resume(path: &str) -> Result<(u64, u64), String> {
    let Ok(file) = std::fs::File::open(path) else {
        return Ok((0, 0));
    };
    let mut reader = BufReader::new(file);
    let (mut games, mut positions, mut pending) = (0u64, 0u64, 0u64);
    let (mut offset, mut keep) = (0u64, 0u64);
    let mut line = String::new();
    loop {
        line.clear();
        let n = reader
            .read_line(&mut line)
            .map_err(|e| format!("{path}: {e}"))?;
        if n == 0 {
            break;
        }
        offset += n as u64;
        if line.starts_with("# game ") && line.ends_with('\n') {
            games += 1;
            positions += pending;
            pending = 0;
            keep = offset;
        } else if !line.starts_with('#') && !line.trim().is_empty() {
            pending += 1;
        }
    }
    if keep < offset {
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{path}: {e}"))?;
        f.set_len(keep).map_err(|e| format!("{path}: {e}"))?;
        eprintln!(
            "datagen: dropped {} bytes of an unfinished game at the end of {path}",
            offset - keep
        );
    }
    Ok((games, positions))
}

fn play_game<G: Tunable>(
    cfg: &DatagenConfig,
    index: u64,
    table: &mut Memory<G>,
) -> Result<Played, String> {
    let mut rng = StdRng::seed_from_u64(cfg.seed.wrapping_add(index));
    let fen = random_opening(&cfg.variant, cfg.random_plies, 200, 4, &mut rng)?;
    let mut state = GameState::<G>::from_setup(Some(&fen), &[]).map_err(|e| e.to_string())?;
    let limits = Limits {
        depth: cfg.depth,
        nodes: cfg.nodes,
        ..Limits::default()
    };
    let config = Config::default();
    let shared = Shared::new();
    table.clear();
    let params = G::default_eval_params();
    let resources = Resources {
        config: &config,
        eval: params,
        shared: &shared,
    };
    let mut pending: Vec<Sample> = Vec::new();
    let mut streak: (i32, u32) = (0, 0); // (sign for White, plies)
    let mut plies = 0u32;
    let (result, how) = loop {
        if let Some(outcome) = state.outcome() {
            break match outcome {
                Outcome::Win(Color::White, _) => (1.0, "rules"),
                Outcome::Win(Color::Black, _) => (0.0, "rules"),
                Outcome::Draw(_) => (0.5, "rules"),
            };
        }
        if plies >= cfg.max_plies {
            break (0.5, "max plies");
        }
        shared.prepare(&limits);
        let out = search::search(&state, &limits, resources, table, &|_| {});
        let Some(best) = out.best else {
            return Err(format!("no move in {}", state.position.to_fen()));
        };
        let white = state.position.side_to_move() == Color::White;
        let white_score = if white { out.score } else { -out.score };
        if out.score.abs() >= MATE_BOUND {
            break (if white_score > 0 { 1.0 } else { 0.0 }, "mate score");
        }
        let sign = if white_score >= RESIGN_CP {
            1
        } else if white_score <= -RESIGN_CP {
            -1
        } else {
            0
        };
        streak = if sign != 0 && sign == streak.0 {
            (sign, streak.1 + 1)
        } else {
            (sign, u32::from(sign != 0))
        };
        if streak.1 >= RESIGN_PLIES {
            break (if sign > 0 { 1.0 } else { 0.0 }, "adjudicated");
        }
        let pos = &state.position;
        if plies >= cfg.min_ply && !pos.in_check() && !pos.is_tactical(best) {
            pending.push(Sample {
                fen: pos.to_fen(),
                result: 0.0,
                eval: pos.white_eval(params),
            });
        }
        state.play(best);
        plies += 1;
    };
    for s in &mut pending {
        s.result = result;
    }
    Ok(Played {
        samples: pending,
        result,
        plies,
        how,
    })
}

/// Plays games until the file holds `cfg.games`; prints progress on stderr
/// and a summary at the end.
pub fn run<G: Tunable>(cfg: &DatagenConfig) -> Result<(), String> {
    if cfg.depth.is_none() && cfg.nodes.is_none() {
        return Err("datagen: give --depth or --nodes".into());
    }
    let (done, old_positions) = resume(&cfg.out)?;
    if done > 0 {
        eprintln!(
            "datagen: {} already holds {done} games, {old_positions} positions; resuming",
            cfg.out
        );
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cfg.out)
        .map_err(|e| format!("{}: {e}", cfg.out))?;
    file.seek(SeekFrom::End(0))
        .map_err(|e| format!("{}: {e}", cfg.out))?;
    if done == 0 {
        let limit = match (cfg.depth, cfg.nodes) {
            (Some(d), _) => format!("depth {d}"),
            (None, Some(n)) => format!("nodes {n}"),
            _ => unreachable!(),
        };
        writeln!(
            file,
            "# ghast datagen: variant {} {limit} random-plies {} seed {}\n\
             # <fen> | <result from White's view> | <static eval, White's view>",
            cfg.variant, cfg.random_plies, cfg.seed
        )
        .map_err(|e| format!("{}: {e}", cfg.out))?;
    }
    let next = AtomicU64::new(done);
    let out = Mutex::new((file, done, 0u64, [0u64; 3]));
    let start = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let error: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            std::thread::Builder::new()
                .stack_size(search::SEARCH_STACK_BYTES)
                .spawn_scoped(scope, || {
                    let mut table = match Memory::<G>::new(SearchKind::AlphaBeta, cfg.hash_mb) {
                        Ok(t) => t,
                        Err(e) => {
                            *error.lock().unwrap() = Some(e);
                            return;
                        }
                    };
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= cfg.games || error.lock().unwrap().is_some() {
                            break;
                        }
                        let played = match play_game::<G>(cfg, index, &mut table) {
                            Ok(p) => p,
                            Err(e) => {
                                *error.lock().unwrap() = Some(e);
                                break;
                            }
                        };
                        let mut text = String::new();
                        for s in &played.samples {
                            text.push_str(&s.to_line());
                            text.push('\n');
                        }
                        text.push_str(&format!(
                            "# game {index} {:.1} {} {}\n",
                            played.result, played.plies, played.how
                        ));
                        let mut guard = out.lock().unwrap();
                        let (file, games, positions, wdl) = &mut *guard;
                        if let Err(e) = file.write_all(text.as_bytes()).and_then(|_| file.flush()) {
                            *error.lock().unwrap() = Some(format!("{}: {e}", cfg.out));
                            break;
                        }
                        *games += 1;
                        *positions += played.samples.len() as u64;
                        wdl[(2.0 - played.result * 2.0) as usize] += 1;
                        let new = *games - done;
                        let secs = start.elapsed().as_secs_f64();
                        let rate = new as f64 / secs.max(1e-9);
                        let eta = (cfg.games - *games) as f64 / rate.max(1e-9);
                        let line = format!(
                            "games {}/{} positions {} (+{}) W/D/L {}/{}/{} {:.2} games/s eta {:.0}s",
                            games, cfg.games, old_positions + *positions, positions,
                            wdl[0], wdl[1], wdl[2], rate, eta
                        );
                        if tty {
                            eprint!("\r{line}   ");
                        } else if new % 50 == 0 || *games == cfg.games {
                            eprintln!("{line}");
                        }
                    }
                })
                .expect("spawn datagen thread");
        }
    });
    if tty {
        eprintln!();
    }
    if let Some(e) = error.into_inner().unwrap() {
        return Err(e);
    }
    let (_, games, positions, wdl) = out.into_inner().unwrap();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "datagen {}: {} new games ({} white wins, {} draws, {} black wins), {} new positions in {:.1} s; {} now holds {} games, {} positions",
        cfg.variant,
        games - done,
        wdl[0],
        wdl[1],
        wdl[2],
        positions,
        secs,
        cfg.out,
        games,
        old_positions + positions
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::nimrod::Nimrod;

    #[test]
    fn datagen_writes_and_resumes() {
        let path = std::env::temp_dir().join(format!("ghast-datagen-{}.txt", std::process::id()));
        let path = path.to_str().unwrap().to_string();
        let _ = std::fs::remove_file(&path);
        let mut cfg = DatagenConfig {
            games: 2,
            out: path.clone(),
            depth: Some(2),
            max_plies: 40,
            threads: 2,
            ..DatagenConfig::default()
        };
        run::<Nimrod>(&cfg).unwrap();
        assert_eq!(resume(&path).unwrap().0, 2);
        // An interrupted game at the end is dropped; then two more games.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        writeln!(
            f,
            "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1 | 0.5 | 0"
        )
        .unwrap();
        cfg.games = 4;
        run::<Nimrod>(&cfg).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().filter(|l| l.starts_with("# game ")).count(), 4);
        for line in text.lines() {
            if let Some(s) = Sample::parse(line) {
                let s = s.unwrap();
                assert!(Nimrod::from_fen(&s.fen).is_ok());
            }
        }
        assert!(text.ends_with('\n'));
        let _ = std::fs::remove_file(&path);
    }
}
