//! `ghast match`: a referee-backed tournament runner.
//!
//! - [`player`]: in-process searchers and external UCI engines;
//! - [`game`]: one refereed game (the rules library checks every move);
//! - [`stats`]: Elo, LOS, pentanomial counts and the SPRT;
//! - this module: the schedule (round-robin or gauntlet, game pairs on the
//!   same opening with colours swapped), openings, `--concurrency` workers,
//!   PGN and JSON output, shards and merging.
//!
//! Every random choice comes from one seed, so a run can be repeated;
//! node-limited games between in-process players are reproducible move for
//! move.

pub mod game;
pub mod player;
pub mod stats;

use crate::engine;
use crate::engine::openings::random_opening;
use crate::pgn;
use crate::registry;
use game::{Adjudication, GameRecord, GameSetup};
use player::{Limit, PlayerSpec};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};
use stats::{Sprt, SprtState, Summary, Tally};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where openings come from.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// The variant's start position.
    Start,
    /// A file of positions (FENs) or move lists from the start, one per line.
    File { path: String, random_order: bool },
    /// `plies` random moves from the start, rejecting lopsided results.
    Random { plies: u32, max_cp: i32, depth: u32 },
}

/// Everything `ghast match` was told.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub variant: String,
    pub players: Vec<PlayerSpec>,
    pub gauntlet: bool,
    /// Games per encounter per round (pairs when even).
    pub games: u32,
    pub rounds: u32,
    pub limit: Limit,
    pub time_margin: Duration,
    pub move_timeout: Duration,
    pub concurrency: usize,
    pub openings: OpeningSource,
    pub seed: u64,
    pub adjudication: Adjudication,
    pub sprt: Option<Sprt>,
    pub pgn_out: Option<String>,
    pub results_out: Option<String>,
    /// `(i, n)`: play only the games whose number is i modulo n.
    pub shard: Option<(u32, u32)>,
    /// Rounds before this one are scheduled but not played (resuming).
    pub first_round: u32,
    /// Quiet: no progress lines.
    pub quiet: bool,
}

/// One game to play.
#[derive(Clone, Debug)]
struct Job {
    number: u32,
    round: u32,
    white: usize,
    black: usize,
    /// Games of one pair share this.
    pair: u32,
    start_fen: String,
}

/// The JSON summary (`--results`), also the input of `ghast merge`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Results {
    pub variant: String,
    pub players: Vec<String>,
    pub games: u64,
    /// From the first player's side.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub pentanomial: [u64; 5],
    pub elo: f64,
    /// `null` while the interval is undefined (fewer than two pairs).
    pub elo_error: Option<f64>,
    pub nelo: Option<f64>,
    pub los: f64,
    pub draw_ratio: f64,
    pub terminations: BTreeMap<String, u64>,
    pub sprt: Option<SprtState>,
    pub sprt_bounds: Option<Sprt>,
    /// Per opponent of the first player: its tally against it.
    pub encounters: BTreeMap<String, Tally>,
    /// Points and games of every player.
    pub standings: BTreeMap<String, (f64, u64)>,
}

/// Running totals.
#[derive(Default)]
struct Totals {
    first: Tally,
    encounters: BTreeMap<String, Tally>,
    standings: BTreeMap<String, (f64, u64)>,
    terminations: BTreeMap<String, u64>,
    /// First game's points (for player 0's side) of half-finished pairs.
    open_pairs: BTreeMap<u32, f64>,
    played: u64,
}

/// Reads openings from a file: FENs, or move lists from the start.
pub fn read_openings(path: &str, variant: &str) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("openings {path}: {e}"))?;
    let mut fens = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut session = registry::new_session(variant)?;
        // A FEN if it parses as one, otherwise moves from the start.
        let as_fen = session.set_position(Some(line), &[]);
        if as_fen.is_err() {
            let moves: Vec<&str> = line.split_whitespace().collect();
            session.set_position(None, &moves).map_err(|e| {
                format!(
                    "openings {path} line {}: neither a position nor moves: {e}",
                    i + 1
                )
            })?;
        }
        fens.push(session.fen());
    }
    if fens.is_empty() {
        return Err(format!("openings {path}: no openings"));
    }
    Ok(fens)
}

fn schedule(
    config: &MatchConfig,
    openings: &mut dyn FnMut() -> Result<String, String>,
) -> Result<Vec<Job>, String> {
    let n = config.players.len();
    let encounters: Vec<(usize, usize)> = if config.gauntlet {
        (1..n).map(|j| (0, j)).collect()
    } else {
        (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect()
    };
    let mut jobs = Vec::new();
    let mut number = 0;
    let mut pair = 0;
    for round in 1..=config.rounds {
        for &(a, b) in &encounters {
            let fen = openings()?;
            for g in 0..config.games {
                if g % 2 == 0 {
                    pair += 1;
                }
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                number += 1;
                jobs.push(Job {
                    number,
                    round,
                    white,
                    black,
                    pair,
                    start_fen: fen.clone(),
                });
            }
        }
    }
    Ok(jobs)
}

fn pgn(config: &MatchConfig, job: &Job, record: &GameRecord, date: &str) -> String {
    let names = |i: usize| config.players[i].name.clone();
    let limit = |i: usize| {
        config.players[i]
            .limit
            .clone()
            .unwrap_or_else(|| config.limit.clone())
    };
    let mut s = String::new();
    let tag = pgn::tag;
    tag(&mut s, "Event", "ghast match");
    tag(&mut s, "Site", "?");
    tag(&mut s, "Date", date);
    tag(&mut s, "Round", &format!("{}.{}", job.round, job.number));
    tag(&mut s, "White", &names(job.white));
    tag(&mut s, "Black", &names(job.black));
    tag(&mut s, "Result", record.result_tag());
    tag(&mut s, "Variant", &config.variant);
    tag(&mut s, "FEN", &job.start_fen);
    tag(&mut s, "SetUp", "1");
    let (lw, lb) = (limit(job.white), limit(job.black));
    let tc = if lw == lb {
        lw.to_string()
    } else {
        format!("{lw} vs {lb}")
    };
    tag(&mut s, "TimeControl", &tc);
    tag(&mut s, "Termination", &record.termination);
    tag(&mut s, "PlyCount", &record.moves.len().to_string());
    if !record.detail.is_empty() {
        tag(&mut s, "Annotator", &record.detail);
    }
    s.push('\n');
    // Move numbers follow the start position's side to move and move
    // counter when the game's FEN has one.
    let black_first = job.start_fen.split_whitespace().nth(1) == Some("b")
        || job.start_fen.split_whitespace().nth(1) == Some("o");
    let number: u32 = job
        .start_fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let moves = record.moves.iter().enumerate().map(|(i, m)| pgn::MoveText {
        notation: &m.mv,
        by_white: (i % 2 == 0) != black_first,
        comment: Some(pgn::engine_comment(
            m.score,
            m.depth,
            m.elapsed.as_secs_f64(),
        )),
    });
    s.push_str(&pgn::movetext(moves, number, record.result_tag()));
    s.push_str("\n\n");
    s
}

impl Totals {
    fn record(&mut self, config: &MatchConfig, job: &Job, rec: &GameRecord) {
        self.played += 1;
        *self
            .terminations
            .entry(rec.termination.clone())
            .or_insert(0) += 1;
        let names = [
            &config.players[job.white].name,
            &config.players[job.black].name,
        ];
        for (i, &p) in names.iter().enumerate() {
            let pts = if i == 0 {
                rec.white_points
            } else {
                1.0 - rec.white_points
            };
            let e = self.standings.entry(p.clone()).or_insert((0.0, 0));
            e.0 += pts;
            e.1 += 1;
        }
        // The first player's view, for the headline numbers.
        let first_points = if job.white == 0 {
            Some(rec.white_points)
        } else if job.black == 0 {
            Some(1.0 - rec.white_points)
        } else {
            None
        };
        let opponent = if job.white == 0 { job.black } else { job.white };
        if let Some(points) = first_points {
            self.first.add_game(points);
            let enc = self
                .encounters
                .entry(config.players[opponent].name.clone())
                .or_default();
            enc.add_game(points);
            if config.games.is_multiple_of(2) {
                match self.open_pairs.remove(&job.pair) {
                    Some(other) => {
                        self.first.add_pair(points + other);
                        enc.add_pair(points + other);
                    }
                    None => {
                        self.open_pairs.insert(job.pair, points);
                    }
                }
            }
        }
    }

    fn results(&self, config: &MatchConfig) -> Results {
        let s: Summary = stats::summarize(&self.first);
        Results {
            variant: config.variant.clone(),
            players: config.players.iter().map(|p| p.name.clone()).collect(),
            games: self.first.games(),
            wins: self.first.wins,
            draws: self.first.draws,
            losses: self.first.losses,
            pentanomial: self.first.pentanomial,
            elo: s.elo,
            elo_error: finite(s.elo_error),
            nelo: finite(s.nelo),
            los: s.los,
            draw_ratio: s.draw_ratio,
            terminations: self.terminations.clone(),
            sprt: config.sprt.map(|p| p.state(&self.first)),
            sprt_bounds: config.sprt,
            encounters: self.encounters.clone(),
            standings: self.standings.clone(),
        }
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Prints the summary in fastchess's layout.
pub fn print_summary(r: &Results, title: &str) {
    let t = Tally {
        wins: r.wins,
        draws: r.draws,
        losses: r.losses,
        pentanomial: r.pentanomial,
    };
    let s = stats::summarize(&t);
    println!("--------------------------------------------------");
    println!("Results of {title}:");
    println!(
        "Elo: {:.2} +/- {:.2}, nElo: {:.2} +/- {:.2}",
        s.elo, s.elo_error, s.nelo, s.nelo_error
    );
    println!(
        "LOS: {:.2} %, DrawRatio: {:.2} %",
        s.los * 100.0,
        s.draw_ratio * 100.0
    );
    let points = r.wins as f64 + r.draws as f64 / 2.0;
    println!(
        "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)",
        r.games,
        r.wins,
        r.losses,
        r.draws,
        points,
        s.score * 100.0
    );
    let p = r.pentanomial;
    println!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}]",
        p[0], p[1], p[2], p[3], p[4]
    );
    if let (Some(state), Some(b)) = (&r.sprt, &r.sprt_bounds) {
        println!(
            "LLR: {:.2} ({:.2}, {:.2}) [{:.2}, {:.2}] {}",
            state.llr, state.lower, state.upper, b.elo0, b.elo1, state.result
        );
    }
    if r.players.len() > 2 {
        println!("Standings:");
        let mut rows: Vec<_> = r.standings.iter().collect();
        rows.sort_by(|a, b| b.1.0.total_cmp(&a.1.0));
        for (name, (pts, games)) in rows {
            println!("  {name:<20} {pts:>6.1} / {games}");
        }
    }
    println!("Terminations:");
    for (k, v) in &r.terminations {
        println!("  {k}: {v}");
    }
    println!("--------------------------------------------------");
}

/// Runs the match and returns its results.
pub fn run(config: &MatchConfig) -> Result<Results, String> {
    if config.players.len() < 2 {
        return Err("a match needs at least two --engine players".into());
    }
    let mut seen = std::collections::HashSet::new();
    for p in &config.players {
        if !seen.insert(&p.name) {
            return Err(format!("two players are named '{}'", p.name));
        }
    }
    let mut rng = StdRng::seed_from_u64(config.seed);
    let file_openings = match &config.openings {
        OpeningSource::File { path, random_order } => {
            let mut fens = read_openings(path, &config.variant)?;
            if *random_order {
                for i in (1..fens.len()).rev() {
                    fens.swap(i, rng.random_range(0..=i));
                }
            }
            fens
        }
        _ => Vec::new(),
    };
    let start_fen = registry::new_session(&config.variant)?.fen();
    let mut next_file = 0usize;
    let mut openings = || -> Result<String, String> {
        match &config.openings {
            OpeningSource::Start => Ok(start_fen.clone()),
            OpeningSource::File { .. } => {
                let fen = file_openings[next_file % file_openings.len()].clone();
                next_file += 1;
                Ok(fen)
            }
            OpeningSource::Random {
                plies,
                max_cp,
                depth,
            } => random_opening(&config.variant, *plies, *max_cp, *depth, &mut rng),
        }
    };
    let mut jobs = schedule(config, &mut openings)?;
    let total_scheduled = jobs.len();
    if let Some((i, n)) = config.shard {
        jobs.retain(|j| (j.number - 1) % n == i - 1);
    }
    jobs.retain(|j| j.round >= config.first_round);
    let total = jobs.len();
    let queue = Arc::new(Mutex::new(std::collections::VecDeque::from(jobs)));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel::<(Job, GameRecord)>();
    let workers = config.concurrency.clamp(1, 256);
    let mut pgn_file = match &config.pgn_out {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("pgn {path}: {e}"))?,
        ),
        None => None,
    };
    if !config.quiet {
        eprintln!(
            "ghast match: {} {} players, {} games{} ({} scheduled), {} at a time",
            config.variant,
            config.players.len(),
            total,
            config
                .shard
                .map(|(i, n)| format!(" in shard {i}/{n}"))
                .unwrap_or_default(),
            total_scheduled,
            workers
        );
    }
    let date = pgn::today();
    let mut totals = Totals::default();
    let started = Instant::now();
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..workers {
            let queue = Arc::clone(&queue);
            let stop = Arc::clone(&stop);
            let tx = tx.clone();
            std::thread::Builder::new()
                .stack_size(engine::SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let Some(job) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front()
                        else {
                            break;
                        };
                        let limit = |i: usize| {
                            config.players[i]
                                .limit
                                .clone()
                                .unwrap_or_else(|| config.limit.clone())
                        };
                        let setup = GameSetup {
                            variant: config.variant.clone(),
                            start_fen: job.start_fen.clone(),
                            white: config.players[job.white].clone(),
                            black: config.players[job.black].clone(),
                            limits: [limit(job.white), limit(job.black)],
                            time_margin: config.time_margin,
                            move_timeout: config.move_timeout,
                            adjudication: config.adjudication.clone(),
                        };
                        // A failure inside a game loses nothing but that
                        // game (players' own failures already lose it).
                        let record = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            game::play(&setup)
                        }))
                        .unwrap_or_else(|_| GameRecord {
                            moves: Vec::new(),
                            white_points: 0.5,
                            termination: "aborted".into(),
                            detail: "the game failed inside ghast".into(),
                        });
                        if tx.send((job, record)).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| format!("cannot start a worker: {e}"))?;
        }
        drop(tx);
        for (job, record) in rx {
            totals.record(config, &job, &record);
            if let Some(f) = pgn_file.as_mut() {
                f.write_all(pgn(config, &job, &record, &date).as_bytes())
                    .map_err(|e| format!("pgn: {e}"))?;
            }
            let results = totals.results(config);
            // Written after every game, so that a stopped run can still be merged.
            if let Some(path) = &config.results_out {
                write_results(path, &results)?;
            }
            if !config.quiet {
                let s = stats::summarize(&totals.first);
                eprintln!(
                    "[{}/{}] {} - {} {} ({}) | {} {:+.1} +/- {:.1} Elo, {}-{}-{}{}",
                    totals.played,
                    total,
                    config.players[job.white].name,
                    config.players[job.black].name,
                    record.result_tag(),
                    record.termination,
                    config.players[0].name,
                    s.elo,
                    s.elo_error,
                    totals.first.wins,
                    totals.first.losses,
                    totals.first.draws,
                    results
                        .sprt
                        .as_ref()
                        .map(|st| format!(", LLR {:.2} ({:.2}, {:.2})", st.llr, st.lower, st.upper))
                        .unwrap_or_default()
                );
            }
            if let Some(state) = &results.sprt
                && state.result != "continue"
                && !stop.load(Ordering::Relaxed)
            {
                if !config.quiet {
                    eprintln!(
                        "SPRT finished: {}; stopping after the games in progress",
                        state.result
                    );
                }
                stop.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    })?;
    let results = totals.results(config);
    if let Some(path) = &config.results_out {
        write_results(path, &results)?;
    }
    if !config.quiet {
        eprintln!(
            "finished {} games in {:.1} s",
            totals.played,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(results)
}

/// Replaces the results file whole: the new text goes to a sibling file
/// first, so a run killed mid-write leaves the previous complete file.
fn write_results(path: &str, results: &Results) -> Result<(), String> {
    let text = serde_json::to_string_pretty(results).map_err(|e| e.to_string())?;
    let partial = format!("{path}.partial");
    std::fs::write(&partial, text + "\n").map_err(|e| format!("results {partial}: {e}"))?;
    std::fs::rename(&partial, path).map_err(|e| format!("results {path}: {e}"))
}

/// Combines results files of shards of one run.
pub fn merge(files: &[String]) -> Result<Results, String> {
    let mut merged: Option<Results> = None;
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let r: Results = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
        merged = Some(match merged {
            None => r,
            Some(mut m) => {
                if m.variant != r.variant || m.players != r.players {
                    return Err(format!("{path}: a different match (variant or players)"));
                }
                m.games += r.games;
                m.wins += r.wins;
                m.draws += r.draws;
                m.losses += r.losses;
                for (a, b) in m.pentanomial.iter_mut().zip(r.pentanomial) {
                    *a += b;
                }
                for (k, v) in r.terminations {
                    *m.terminations.entry(k).or_insert(0) += v;
                }
                for (k, v) in r.encounters {
                    m.encounters.entry(k).or_default().add(&v);
                }
                for (k, (p, g)) in r.standings {
                    let e = m.standings.entry(k).or_insert((0.0, 0));
                    e.0 += p;
                    e.1 += g;
                }
                m
            }
        });
    }
    let mut m = merged.ok_or("merge needs at least one results file")?;
    let t = Tally {
        wins: m.wins,
        draws: m.draws,
        losses: m.losses,
        pentanomial: m.pentanomial,
    };
    let s = stats::summarize(&t);
    m.elo = s.elo;
    m.elo_error = finite(s.elo_error);
    m.nelo = finite(s.nelo);
    m.los = s.los;
    m.draw_ratio = s.draw_ratio;
    m.sprt = m.sprt_bounds.map(|b| b.state(&t));
    Ok(m)
}

/// A readable title for the summary.
pub fn title(config: &MatchConfig) -> String {
    let names: Vec<&str> = config.players.iter().map(|p| p.name.as_str()).collect();
    format!(
        "{} ({}, {})",
        names.join(" vs "),
        config.variant,
        config.limit
    )
}
