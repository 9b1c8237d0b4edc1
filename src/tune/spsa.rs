//! SPSA tuning of the search parameters (`ghast spsa`).
//!
//! Simultaneous perturbation stochastic approximation as fishtest runs it:
//! each iteration perturbs every tuned parameter at once by ±c_k (the
//! signs random), plays one game pair (same opening, colours swapped)
//! between the `+` and `-` settings as in-process players, and moves every
//! parameter by a_k / c_k times the `+` side's net result times its sign.
//! The gains follow fishtest's schedule: c_k = c / k^γ and a_k = a / (A +
//! k)^α with γ = 0.101, α = 0.602, A = N / 10, chosen so that c_N is the
//! given `c_end` and a_N / c_N² is `r_end` (fishtest's default 0.002).
//!
//! Workers play pairs concurrently from the current values (updates are
//! applied as pairs finish, as fishtest's workers do), so a clock-limited
//! run is not reproducible; the perturbation signs and openings of
//! iteration k come from the seed alone. The state is written to `--out`
//! after every pair and a run resumes from it.

use crate::search::params::{PARAM_SPECS, ParamSpec};
use crate::tournament::game::{self, Adjudication, GameSetup};
use crate::tournament::player::{self, Failure, Limit, PlayerSpec};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// fishtest's exponents and stability constant share.
const GAMMA: f64 = 0.101;
const ALPHA: f64 = 0.602;
const STABILITY_SHARE: f64 = 0.1;

/// One tuned parameter.
#[derive(Clone, Copy)]
pub struct TunedParam {
    pub spec: &'static ParamSpec,
    /// Value to start from.
    pub start: f64,
    /// Perturbation size at the last iteration, in the parameter's units.
    pub c_end: f64,
}

impl TunedParam {
    /// Parses `NAME:C_END` (from the default) or `NAME=START:C_END`.
    pub fn parse(text: &str) -> Result<TunedParam, String> {
        let (head, c_end) = text
            .rsplit_once(':')
            .ok_or_else(|| format!("--param '{text}': expected NAME:C_END or NAME=START:C_END"))?;
        let (name, start) = match head.split_once('=') {
            Some((n, s)) => (n, Some(s)),
            None => (head, None),
        };
        let spec = PARAM_SPECS
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| format!("--param '{text}': no search parameter '{name}'"))?;
        let number = |what: &str, v: &str| -> Result<f64, String> {
            v.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("--param '{text}': {what} '{v}' is not a number"))
        };
        let start = match start {
            Some(s) => number("start", s)?,
            None => crate::search::params::DEFAULT_PARAMS.get(spec) as f64,
        };
        if start < spec.min as f64 || start > spec.max as f64 {
            return Err(format!(
                "--param '{text}': start {start} is outside {}..{}",
                spec.min, spec.max
            ));
        }
        let c_end = number("c_end", c_end)?;
        if c_end <= 0.0 {
            return Err(format!("--param '{text}': c_end must be positive"));
        }
        Ok(TunedParam { spec, start, c_end })
    }

    fn clamp(&self, v: f64) -> f64 {
        v.clamp(self.spec.min as f64, self.spec.max as f64)
    }
}

/// Everything `ghast spsa` was told.
#[derive(Clone)]
pub struct SpsaConfig {
    pub variant: String,
    pub params: Vec<TunedParam>,
    /// Game pairs (N).
    pub iterations: u32,
    /// a_N / c_N², the last step's learning rate.
    pub r_end: f64,
    pub limit: Limit,
    /// Options both players get (`Hash=16`).
    pub options: Vec<(String, String)>,
    /// Opening positions; iteration k plays one drawn by the seed.
    pub openings: Vec<String>,
    pub concurrency: usize,
    pub seed: u64,
    pub time_margin: Duration,
    pub adjudication: Adjudication,
    /// State file, rewritten after every pair; read back to resume.
    pub out: Option<String>,
    pub quiet: bool,
}

/// Where a run is.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaState {
    /// Pairs finished.
    pub done: u32,
    pub theta: Vec<f64>,
    /// The `+` side's game results over all pairs.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// The gain schedule of a run of `n` iterations.
#[derive(Clone, Copy, Debug)]
struct Gains {
    n: f64,
    stability: f64,
}

impl Gains {
    fn new(n: u32) -> Gains {
        let n = n.max(1) as f64;
        Gains {
            n,
            stability: STABILITY_SHARE * n,
        }
    }

    /// c_k for a parameter whose c_N is `c_end` (k from 1).
    fn c(&self, c_end: f64, k: u32) -> f64 {
        c_end * (self.n / k as f64).powf(GAMMA)
    }

    /// a_k for a parameter whose a_N / c_N² is `r_end`.
    fn a(&self, c_end: f64, r_end: f64, k: u32) -> f64 {
        let a_end = r_end * c_end * c_end;
        a_end * ((self.stability + self.n) / (self.stability + k as f64)).powf(ALPHA)
    }
}

/// Iteration k's perturbation signs and opening index, from the seed alone.
fn draw(seed: u64, k: u32, params: usize, openings: usize) -> (Vec<f64>, usize) {
    let mut rng = StdRng::seed_from_u64(seed ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let signs = (0..params)
        .map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 })
        .collect();
    (signs, rng.random_range(0..openings.max(1)))
}

/// The new values after a pair that the `+` side won by `net` points
/// (−2 to 2).
fn update(
    config: &SpsaConfig,
    gains: &Gains,
    theta: &[f64],
    signs: &[f64],
    k: u32,
    net: f64,
) -> Vec<f64> {
    config
        .params
        .iter()
        .zip(theta.iter().zip(signs))
        .map(|(p, (&t, &s))| {
            let step = gains.a(p.c_end, config.r_end, k) / gains.c(p.c_end, k) * net * s;
            p.clamp(t + step)
        })
        .collect()
}

fn player_spec(config: &SpsaConfig, name: &str, values: &[f64]) -> PlayerSpec {
    let mut options = config.options.clone();
    for (p, v) in config.params.iter().zip(values) {
        options.push((p.spec.name.to_string(), format!("{}", v.round() as i64)));
    }
    PlayerSpec {
        name: name.to_string(),
        command: None,
        dir: None,
        options,
        limit: None,
        variant_alias: None,
    }
}

/// Starts a player with the starting values once, so that a bad
/// `--option` is refused before any game.
fn check_players(config: &SpsaConfig) -> Result<(), String> {
    let start: Vec<f64> = config.params.iter().map(|p| p.start).collect();
    match player::start(&player_spec(config, "check", &start), &config.variant) {
        Ok(_) => Ok(()),
        Err(Failure::Setup(m) | Failure::Crash(m)) => Err(format!("spsa: {m}")),
        Err(Failure::Hang) => Err("spsa: the player did not start".into()),
    }
}

/// Plays iteration k from `theta`; returns the `+` side's points in each
/// game.
fn play_pair(config: &SpsaConfig, gains: &Gains, theta: &[f64], k: u32) -> ([f64; 2], Vec<f64>) {
    let (signs, opening) = draw(config.seed, k, config.params.len(), config.openings.len());
    let shifted = |dir: f64| -> Vec<f64> {
        config
            .params
            .iter()
            .zip(theta.iter().zip(&signs))
            .map(|(p, (&t, &s))| p.clamp(t + dir * s * gains.c(p.c_end, k)))
            .collect()
    };
    let plus = player_spec(config, "plus", &shifted(1.0));
    let minus = player_spec(config, "minus", &shifted(-1.0));
    let mut points = [0.0; 2];
    for (g, point) in points.iter_mut().enumerate() {
        let (white, black) = if g == 0 {
            (plus.clone(), minus.clone())
        } else {
            (minus.clone(), plus.clone())
        };
        let record = game::play(&GameSetup {
            variant: config.variant.clone(),
            start_fen: config.openings[opening].clone(),
            white,
            black,
            limits: [config.limit.clone(), config.limit.clone()],
            time_margin: config.time_margin,
            move_timeout: game::DEFAULT_MOVE_TIMEOUT,
            adjudication: config.adjudication.clone(),
        });
        *point = if g == 0 {
            record.white_points
        } else {
            1.0 - record.white_points
        };
    }
    (points, signs)
}

/// The state file: a comment line, the counts, then `name=value` lines.
pub fn format_state(config: &SpsaConfig, state: &SpsaState) -> String {
    let mut s = format!(
        "# ghast spsa {}: {} of {} pairs\ndone={}\nwins={}\ndraws={}\nlosses={}\n",
        config.variant,
        state.done,
        config.iterations,
        state.done,
        state.wins,
        state.draws,
        state.losses
    );
    for (p, v) in config.params.iter().zip(&state.theta) {
        s.push_str(&format!("{}={v:.4}\n", p.spec.name));
    }
    s
}

/// Reads a state file written for the same parameters.
pub fn parse_state(config: &SpsaConfig, text: &str) -> Result<SpsaState, String> {
    let mut state = initial_state(config);
    let mut seen = vec![false; config.params.len()];
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| format!("state line '{line}' is not key=value"))?;
        let bad = || format!("state line '{line}': '{value}' is not a number");
        match key {
            "done" => state.done = value.parse().map_err(|_| bad())?,
            "wins" => state.wins = value.parse().map_err(|_| bad())?,
            "draws" => state.draws = value.parse().map_err(|_| bad())?,
            "losses" => state.losses = value.parse().map_err(|_| bad())?,
            name => {
                let i = config
                    .params
                    .iter()
                    .position(|p| p.spec.name == name)
                    .ok_or_else(|| format!("state names '{name}', which is not tuned now"))?;
                let v: f64 = value.parse().map_err(|_| bad())?;
                state.theta[i] = config.params[i].clamp(v);
                seen[i] = true;
            }
        }
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(format!(
            "state has no value for '{}'",
            config.params[i].spec.name
        ));
    }
    Ok(state)
}

fn initial_state(config: &SpsaConfig) -> SpsaState {
    SpsaState {
        done: 0,
        theta: config.params.iter().map(|p| p.start).collect(),
        wins: 0,
        draws: 0,
        losses: 0,
    }
}

/// The options that set the tuned values, for `ghast match --engine`.
pub fn option_words(config: &SpsaConfig, theta: &[f64]) -> String {
    config
        .params
        .iter()
        .zip(theta)
        .map(|(p, v)| format!("option.{}={}", p.spec.name, v.round() as i64))
        .collect::<Vec<_>>()
        .join(" ")
}

fn progress_line(config: &SpsaConfig, state: &SpsaState, points: [f64; 2]) -> String {
    let values = config
        .params
        .iter()
        .zip(&state.theta)
        .map(|(p, v)| format!("{}={v:.1}", p.spec.name))
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        "[{}/{}] plus {}-{} | +{} ={} -{} | {values}",
        state.done,
        config.iterations,
        points[0] + points[1],
        2.0 - points[0] - points[1],
        state.wins,
        state.draws,
        state.losses
    )
}

fn record_pair(state: &mut SpsaState, points: [f64; 2]) {
    for p in points {
        match p {
            p if p > 0.75 => state.wins += 1,
            p if p > 0.25 => state.draws += 1,
            _ => state.losses += 1,
        }
    }
}

/// Runs (or resumes) the tuning; returns the final state.
pub fn run(config: &SpsaConfig, resume: Option<SpsaState>) -> Result<SpsaState, String> {
    if config.params.is_empty() {
        return Err("spsa: give at least one --param".into());
    }
    if config.openings.is_empty() {
        return Err("spsa: no openings".into());
    }
    check_players(config)?;
    let gains = Gains::new(config.iterations);
    let state = Mutex::new(resume.unwrap_or_else(|| initial_state(config)));
    let next = Mutex::new(state.lock().map_err(|_| "spsa: state lock")?.done + 1);
    let started = Instant::now();
    let write_error = Mutex::new(None::<String>);
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, 256) {
            scope.spawn(|| {
                worker(config, &gains, &state, &next, &write_error);
            });
        }
    });
    if let Some(e) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let state = state.into_inner().unwrap_or_else(|e| e.into_inner());
    if !config.quiet {
        eprintln!(
            "ghast spsa: {} pairs in {:.0} s",
            state.done,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(state)
}

fn worker(
    config: &SpsaConfig,
    gains: &Gains,
    state: &Mutex<SpsaState>,
    next: &Mutex<u32>,
    write_error: &Mutex<Option<String>>,
) {
    loop {
        let k = {
            let mut n = next.lock().unwrap_or_else(|e| e.into_inner());
            if *n > config.iterations || write_error.lock().map(|e| e.is_some()).unwrap_or(true) {
                return;
            }
            *n += 1;
            *n - 1
        };
        let theta = state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .theta
            .clone();
        let (points, signs) = play_pair(config, gains, &theta, k);
        let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
        let net = points[0] + points[1] - 1.0;
        s.theta = update(config, gains, &s.theta, &signs, k, 2.0 * net);
        s.done += 1;
        record_pair(&mut s, points);
        if !config.quiet {
            eprintln!("{}", progress_line(config, &s, points));
        }
        if let Some(path) = &config.out
            && let Err(e) = std::fs::write(path, format_state(config, &s))
        {
            *write_error.lock().unwrap_or_else(|e| e.into_inner()) =
                Some(format!("spsa: writing {path}: {e}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(params: &[&str], iterations: u32) -> SpsaConfig {
        SpsaConfig {
            variant: "nimrod".into(),
            params: params
                .iter()
                .map(|p| TunedParam::parse(p).unwrap())
                .collect(),
            iterations,
            r_end: 0.002,
            limit: Limit::Nodes(200),
            options: vec![("Hash".into(), "1".into())],
            openings: vec![crate::registry::new_session("nimrod").unwrap().fen()],
            concurrency: 2,
            seed: 7,
            time_margin: Duration::from_millis(100),
            adjudication: Adjudication::default_for("nimrod").unwrap(),
            out: None,
            quiet: true,
        }
    }

    #[test]
    fn params_parse_with_and_without_a_start() {
        let p = TunedParam::parse("rfp_margin:8").unwrap();
        assert_eq!((p.spec.name, p.start, p.c_end), ("rfp_margin", 80.0, 8.0));
        let p = TunedParam::parse("LMR_BASE_X100=90:5").unwrap();
        assert_eq!((p.spec.name, p.start), ("lmr_base_x100", 90.0));
        for bad in [
            "rfp_margin",
            "nope:3",
            "rfp_margin:0",
            "rfp_margin=x:3",
            "rfp_margin=5000:3",
            "rfp_margin:-1",
        ] {
            assert!(TunedParam::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn gains_end_where_asked() {
        let g = Gains::new(1000);
        assert!((g.c(4.0, 1000) - 4.0).abs() < 1e-9);
        assert!(g.c(4.0, 1) > g.c(4.0, 500));
        // a_N / c_N^2 = r_end.
        assert!((g.a(4.0, 0.002, 1000) / 16.0 - 0.002).abs() < 1e-12);
    }

    #[test]
    fn a_won_pair_moves_each_parameter_toward_its_plus_side() {
        let c = config(&["rfp_margin:8", "futility_margin:9"], 100);
        let g = Gains::new(100);
        let theta = vec![80.0, 90.0];
        let up = update(&c, &g, &theta, &[1.0, -1.0], 1, 2.0);
        assert!(up[0] > 80.0 && up[1] < 90.0, "{up:?}");
        let same = update(&c, &g, &theta, &[1.0, -1.0], 1, 0.0);
        assert_eq!(same, theta);
        // Clamped to the parameter's range.
        let c = config(&["rfp_margin=1:8"], 100);
        let down = update(&c, &g, &[0.5], &[-1.0], 1, 2.0e6);
        assert_eq!(down, vec![0.0]);
    }

    #[test]
    fn draws_depend_on_seed_and_iteration_only() {
        assert_eq!(draw(3, 5, 4, 10), draw(3, 5, 4, 10));
        let many: Vec<_> = (1..50).map(|k| draw(3, k, 4, 10)).collect();
        assert!(many.iter().any(|d| d != &many[0]));
    }

    #[test]
    fn state_round_trips_and_bad_state_is_refused() {
        let c = config(&["rfp_margin:8", "lmp_base:1"], 10);
        let s = SpsaState {
            done: 4,
            theta: vec![83.25, 4.5],
            wins: 3,
            draws: 2,
            losses: 3,
        };
        assert_eq!(parse_state(&c, &format_state(&c, &s)), Ok(s));
        assert!(parse_state(&c, "done=1\nrfp_margin=80\n").is_err());
        assert!(parse_state(&c, "done=x\nrfp_margin=80\nlmp_base=4\n").is_err());
        assert!(parse_state(&c, "nmp_base=3\nrfp_margin=80\nlmp_base=4\n").is_err());
    }

    #[test]
    fn a_short_node_limited_run_plays_every_pair() {
        let c = config(&["rfp_margin:8"], 4);
        let s = run(&c, None).unwrap();
        assert_eq!(s.done, 4);
        assert_eq!(s.wins + s.draws + s.losses, 8);
        assert!((0.0..=1000.0).contains(&s.theta[0]));
        assert_eq!(option_words(&c, &[81.6]), "option.rfp_margin=82");
    }
}
