//! `ghast tune`: Texel tuning of every evaluator weight.
//!
//! The loss is the mean squared error between the game result r (White's
//! view, 1 / 0.5 / 0) and sigmoid(K * eval), eval in centipawns from
//! White's view. K is fitted first (golden-section search on ln K) with the
//! starting weights, then kept.
//!
//! The evaluators are integer code and not linear in every weight (the
//! king-danger curve, the phase taper), so the gradient is numeric:
//!
//! 1. **Linearise.** At the current (rounded) weights w0, every position's
//!    evaluation and its central difference in every weight,
//!    `(eval(w0 + e_j) - eval(w0 - e_j)) / 2`, are computed (in parallel with
//!    rayon; the 2n perturbed weight sets are built once per epoch and
//!    shared). The coefficients are stored sparsely: a position depends on
//!    a few dozen of the weights. Weights whose difference is zero in every
//!    position of the first epoch (the corner material in a FIDE data set,
//!    pieces that never occur) are left alone afterwards.
//! 2. **Descend.** `steps` Adam steps on the linear model
//!    `eval(w) ~ eval(w0) + sum_j c_j (w_j - w0_j)`, full batch, the
//!    gradient summed in parallel over positions. For the weights the
//!    evaluator uses linearly (most of them) this model is exact up to
//!    integer rounding.
//! 3. **Repeat**: round, re-linearise, print the true loss of the rounded
//!    weights. An epoch is one linearisation plus its Adam steps.
//!
//! Adam's state carries over between epochs; `lr` is in centipawns per
//! step (about the largest change one step makes to a weight).

use super::{Sample, Tunable};
use rayon::prelude::*;

/// Tuner settings.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    pub epochs: usize,
    /// Adam step size, centipawns.
    pub lr: f64,
    /// Adam steps on each linearisation.
    pub steps: usize,
    /// Fixed K instead of fitting it.
    pub k: Option<f64>,
    /// Tune only the weights whose name starts with one of these (all when
    /// empty).
    pub only: Vec<String>,
    /// Never tune the weights whose name starts with one of these.
    pub freeze: Vec<String>,
    /// L2 pull toward the starting weights, measured in evaluation: `reg`
    /// times the sum over the tuned weights of ((w - w0) * c / 100)^2, c
    /// the RMS coefficient of the weight over the positions it affects (so
    /// (w - w0) * c is the typical change of the evaluation in centipawns,
    /// whether the weight counts pieces or mobility squares), is added to
    /// the loss the steps minimise. Weights the data says little about
    /// (rare terms, terms collinear with others) then stay near their
    /// starting values instead of drifting wherever the noise pushes them.
    pub reg: f64,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            epochs: 10,
            lr: 0.5,
            steps: 100,
            k: None,
            only: Vec::new(),
            freeze: Vec::new(),
            reg: 0.0,
        }
    }
}

/// What a tuning run did.
#[derive(Clone, Debug)]
pub struct TuneReport {
    pub k: f64,
    /// Loss of the starting weights, then after each epoch.
    pub losses: Vec<f64>,
    /// Held-out loss at the same points (empty without a validation set).
    pub validation_losses: Vec<f64>,
    /// The epoch whose weights were returned (0 = the starting weights).
    pub best_epoch: usize,
    pub positions: usize,
    /// Held-out positions.
    pub validation_positions: usize,
    /// Weights tuned (nonzero difference somewhere, selected by `only`).
    pub tuned: usize,
    pub total: usize,
}

#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of sigmoid(k * eval) against the results.
pub fn mse(evals: &[f64], results: &[f64], k: f64) -> f64 {
    let sum: f64 = evals
        .par_iter()
        .zip(results.par_iter())
        .map(|(&e, &r)| {
            let d = sigmoid(k * e) - r;
            d * d
        })
        .sum();
    sum / evals.len().max(1) as f64
}

/// The K that minimises [`mse`], by golden-section search on ln K over
/// [1e-4, 0.1] (K per centipawn; 0.0057 is the classic 10^(x/400)).
pub fn fit_k(evals: &[f64], results: &[f64]) -> f64 {
    let f = |lnk: f64| mse(evals, results, lnk.exp());
    let (mut a, mut b) = ((1e-4f64).ln(), (0.1f64).ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// A position's evaluation and its sparse coefficients at one point.
struct Linear {
    base: f64,
    idx: Vec<u32>,
    coef: Vec<f32>,
    /// Per coefficient: |(up - e0) - (e0 - down)|, the second difference
    /// (0 where the evaluation is linear in the weight, up to rounding).
    curve: Vec<f32>,
}

/// Every position's evaluation at `flat` and its sparse central
/// differences in the `active` weights; `log` gets a progress line every
/// half minute of a long run.
fn linearise<G: Tunable>(
    positions: &[G],
    base: &G::EvalParams,
    flat: &[i32],
    active: &[bool],
    log: &mut dyn FnMut(&str),
) -> Vec<Linear> {
    let active_idx: Vec<usize> = (0..flat.len()).filter(|&j| active[j]).collect();
    let perturbed: Vec<(G::EvalParams, G::EvalParams)> = active_idx
        .par_iter()
        .map(|&j| {
            let mut up = flat.to_vec();
            let mut down = flat.to_vec();
            up[j] += 1;
            down[j] -= 1;
            (
                G::params_from_flat(base, &up),
                G::params_from_flat(base, &down),
            )
        })
        .collect();
    let at = G::params_from_flat(base, flat);
    let started = std::time::Instant::now();
    let mut last_line = started;
    let mut lin = Vec::with_capacity(positions.len());
    // In chunks, so that a long linearisation (an hour for a few thousand
    // weights on a million positions) can say how far it is.
    for chunk in positions.chunks(LINEARISE_CHUNK) {
        lin.par_extend(
            chunk
                .par_iter()
                .map(|pos| linear_of(pos, &at, &perturbed, &active_idx)),
        );
        if last_line.elapsed().as_secs() >= PROGRESS_LINE_SECS {
            last_line = std::time::Instant::now();
            let done = lin.len();
            let left =
                started.elapsed().as_secs_f64() * (positions.len() - done) as f64 / done as f64;
            log(&format!(
                "linearising {} weights: {done} of {} positions, about {left:.0} s left",
                active_idx.len(),
                positions.len()
            ));
        }
    }
    lin
}

/// Positions linearised between two looks at the clock.
const LINEARISE_CHUNK: usize = 16_384;
/// Seconds between two progress lines of a long linearisation.
const PROGRESS_LINE_SECS: u64 = 30;

/// One position's evaluation and its central differences in the weights
/// `active_idx` (perturbed up and down in `perturbed`), kept where nonzero.
fn linear_of<G: Tunable>(
    pos: &G,
    at: &G::EvalParams,
    perturbed: &[(G::EvalParams, G::EvalParams)],
    active_idx: &[usize],
) -> Linear {
    let e0 = pos.white_eval(at);
    let mut idx = Vec::new();
    let mut coef = Vec::new();
    let mut curve = Vec::new();
    for (k, (up, down)) in perturbed.iter().enumerate() {
        let (u, d) = (pos.white_eval(up), pos.white_eval(down));
        if u != d {
            idx.push(active_idx[k] as u32);
            coef.push((u - d) as f32 / 2.0);
            curve.push(((u - e0) - (e0 - d)).abs() as f32);
        }
    }
    Linear {
        base: e0 as f64,
        idx,
        coef,
        curve,
    }
}

/// Held-out positions and their results, never fitted.
pub struct Validation<'a, G> {
    pub positions: &'a [G],
    pub results: &'a [f64],
}

/// Tunes `start` on `positions` with their results (White's view, any value
/// in 0..=1). `log` receives the progress lines. Returns the tuned weights:
/// those after the last epoch, or with a validation set, those of the epoch
/// with the lowest held-out loss.
pub fn tune<G: Tunable>(
    positions: &[G],
    results: &[f64],
    validation: Option<Validation<'_, G>>,
    start: &G::EvalParams,
    opts: &TuneOptions,
    log: &mut dyn FnMut(&str),
) -> (G::EvalParams, TuneReport) {
    assert_eq!(positions.len(), results.len());
    let validation = validation.filter(|v| !v.positions.is_empty());
    let validation_loss = |flat: &[i32], k: f64| -> Option<f64> {
        let v = validation.as_ref()?;
        let at = G::params_from_flat(start, flat);
        let evals: Vec<f64> = v
            .positions
            .par_iter()
            .map(|p| p.white_eval(&at) as f64)
            .collect();
        Some(mse(&evals, v.results, k))
    };
    let names = G::param_names(start);
    let n = names.len();
    let mut flat = G::params_to_flat(start);
    let origin: Vec<f64> = flat.iter().map(|&v| v as f64).collect();
    let mut theta = origin.clone();
    let mut active: Vec<bool> = names
        .iter()
        .map(|name| {
            (opts.only.is_empty() || opts.only.iter().any(|p| name.starts_with(p)))
                && !opts.freeze.iter().any(|p| name.starts_with(p))
        })
        .collect();
    let (mut m, mut v) = (vec![0.0f64; n], vec![0.0f64; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut t = 0i32;
    let mut report = TuneReport {
        k: 0.0,
        losses: Vec::new(),
        validation_losses: Vec::new(),
        best_epoch: 0,
        positions: positions.len(),
        validation_positions: validation.as_ref().map_or(0, |v| v.positions.len()),
        tuned: 0,
        total: n,
    };
    let count = positions.len().max(1) as f64;
    let mut lr = opts.lr;
    let mut scale = vec![1.0f64; n];
    // Per weight: mean squared coefficient where it is nonzero (epoch 0).
    let mut coef_square = vec![0.0f64; n];
    let mut best: Option<(f64, Vec<i32>)> = None;
    for epoch in 0..=opts.epochs {
        let started = std::time::Instant::now();
        // The true loss of the rounded weights (the last epoch needs no
        // coefficients).
        let lin = if epoch < opts.epochs {
            linearise::<G>(positions, start, &flat, &active, log)
        } else {
            linearise::<G>(positions, start, &flat, &vec![false; n], log)
        };
        let evals: Vec<f64> = lin.iter().map(|l| l.base).collect();
        if epoch == 0 {
            report.k = opts.k.unwrap_or_else(|| fit_k(&evals, results));
            // Weights no position depends on stay as they are.
            let mut used = vec![false; n];
            for l in &lin {
                for &j in &l.idx {
                    used[j as usize] = true;
                }
            }
            for j in 0..n {
                active[j] &= used[j];
            }
            report.tuned = active.iter().filter(|&&a| a).count();
            // Weights the evaluation is clearly not linear in (the second
            // difference is above rounding noise: the king-danger curve,
            // the phase total) take a tenth of the step.
            let (mut slope, mut curve, mut hits) =
                (vec![0.0f64; n], vec![0.0f64; n], vec![0.0f64; n]);
            for l in &lin {
                for ((&j, &c), &q) in l.idx.iter().zip(&l.coef).zip(&l.curve) {
                    slope[j as usize] += c.abs() as f64;
                    curve[j as usize] += q as f64;
                    hits[j as usize] += 1.0;
                }
            }
            for l in &lin {
                for (&j, &c) in l.idx.iter().zip(&l.coef) {
                    coef_square[j as usize] += (c * c) as f64;
                }
            }
            for j in 0..n {
                coef_square[j] /= hits[j].max(1.0);
            }
            let mut nonlinear = Vec::new();
            for j in 0..n {
                if active[j] && curve[j] / hits[j] > (2.0f64).max(0.2 * slope[j] / hits[j]) {
                    scale[j] = 0.1;
                    nonlinear.push(names[j].as_str());
                }
            }
            if !nonlinear.is_empty() {
                log(&format!(
                    "nonlinear (a tenth of the step): {}",
                    nonlinear.join(" ")
                ));
            }
            log(&format!(
                "{} positions, {} weights, {} tuned (the others no position depends on, or not selected); K = {:.6} per cp",
                positions.len(),
                n,
                report.tuned,
                report.k
            ));
        }
        let k = report.k;
        let loss = mse(&evals, results, k);
        let penalty = |w: &[i32]| -> f64 {
            (0..n)
                .filter(|&j| active[j])
                .map(|j| (w[j] as f64 - origin[j]).powi(2) * coef_square[j] / (100.0 * 100.0))
                .sum::<f64>()
                * opts.reg
        };
        let objective = loss + penalty(&flat);
        report.losses.push(loss);
        let held_out = match validation_loss(&flat, k) {
            Some(vl) => {
                report.validation_losses.push(vl);
                if best.as_ref().is_none_or(|(b, _)| vl < *b) {
                    best = Some((vl, flat.clone()));
                    report.best_epoch = epoch;
                }
                format!("  held-out {vl:.6}")
            }
            None => String::new(),
        };
        if epoch == 0 {
            log(&format!("start    loss {loss:.6}{held_out}"));
        } else {
            log(&format!(
                "epoch {epoch:>3} loss {loss:.6}{held_out}  ({:.1} s)",
                started.elapsed().as_secs_f64()
            ));
        }
        if epoch == opts.epochs {
            break;
        }
        // A trust region: when the true loss of the new rounded weights is
        // not lower, the steps are retried from the same linearisation
        // with half the step size (and fresh Adam moments).
        let theta0 = theta.clone();
        for attempt in 0..4 {
            for _ in 0..opts.steps {
                let grad = lin
                    .par_iter()
                    .zip(results.par_iter())
                    .fold(
                        || vec![0.0f64; n],
                        |mut g, (l, &r)| {
                            let mut e = l.base;
                            for (&j, &c) in l.idx.iter().zip(&l.coef) {
                                e += c as f64 * (theta[j as usize] - theta0[j as usize]);
                            }
                            let s = sigmoid(k * e);
                            let d = 2.0 * (s - r) * s * (1.0 - s) * k;
                            for (&j, &c) in l.idx.iter().zip(&l.coef) {
                                g[j as usize] += d * c as f64;
                            }
                            g
                        },
                    )
                    .reduce(
                        || vec![0.0f64; n],
                        |mut a, b| {
                            for (x, y) in a.iter_mut().zip(b) {
                                *x += y;
                            }
                            a
                        },
                    );
                t += 1;
                for j in 0..n {
                    if !active[j] {
                        continue;
                    }
                    let g =
                        grad[j] / count + 2.0 * opts.reg * (theta[j] - origin[j]) / (100.0 * 100.0);
                    m[j] = b1 * m[j] + (1.0 - b1) * g;
                    v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                    let mh = m[j] / (1.0 - b1.powi(t));
                    let vh = v[j] / (1.0 - b2.powi(t));
                    theta[j] -= lr * scale[j] * mh / (vh.sqrt() + eps);
                }
            }
            let rounded: Vec<i32> = theta.iter().map(|x| x.round() as i32).collect();
            // Clamp to what the params file accepts and keep theta in step.
            let candidate = G::params_to_flat(&G::params_from_flat(start, &rounded));
            for j in 0..n {
                if candidate[j] != rounded[j] {
                    theta[j] = candidate[j] as f64;
                }
            }
            let at = G::params_from_flat(start, &candidate);
            let evals: Vec<f64> = positions
                .par_iter()
                .map(|p| p.white_eval(&at) as f64)
                .collect();
            let new_loss = mse(&evals, results, k);
            let new_objective = new_loss + penalty(&candidate);
            if new_objective < objective || attempt == 3 {
                if new_objective < objective {
                    flat = candidate;
                } else {
                    theta = theta0.clone();
                }
                break;
            }
            lr *= 0.5;
            log(&format!(
                "          loss would rise to {new_loss:.6} (with the pull {new_objective:.6}); retrying with lr {lr}"
            ));
            theta = theta0.clone();
            (m, v) = (vec![0.0; n], vec![0.0; n]);
            t = 0;
        }
    }
    if let Some((_, best_flat)) = best {
        if report.best_epoch != opts.epochs {
            log(&format!(
                "held-out loss was lowest after epoch {}; keeping those weights",
                report.best_epoch
            ));
        }
        flat = best_flat;
    } else {
        report.best_epoch = opts.epochs;
    }
    (G::params_from_flat(start, &flat), report)
}

/// Positions and their results (White's view).
pub struct DataSet<G> {
    pub positions: Vec<G>,
    pub results: Vec<f64>,
}

/// Whether game `game` (its index in the file) is held out when
/// `percent` % of the games are: an even spread, whole games, so that no
/// held-out position has a sibling from the same game in the training set.
fn held_out(game: usize, percent: u32) -> bool {
    (game as u64 * percent as u64) % 100 < percent as u64
}

/// Which games of a data file are read.
#[derive(Clone, Copy, Debug, Default)]
pub struct DataFilter {
    /// Percentage of the games held out (see [`held_out`]).
    pub validation_percent: u32,
    /// Skip games that ended by datagen's ply limit (`max plies`): they
    /// were not finished, and their draw says little about the positions.
    pub exclude_unfinished: bool,
}

/// Reads a data file into training and held-out positions (whole games,
/// split at the `# game` lines). `limit` caps the training positions,
/// spread evenly over the file.
pub fn load<G: Tunable>(
    path: &str,
    limit: Option<usize>,
    filter: DataFilter,
) -> Result<(DataSet<G>, DataSet<G>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let mut train = DataSet {
        positions: Vec::new(),
        results: Vec::new(),
    };
    let mut valid = DataSet {
        positions: Vec::new(),
        results: Vec::new(),
    };
    let mut game = 0usize;
    // The positions of the game being read, kept until its `# game` line
    // says how it ended.
    let mut pending: Vec<(G, f64)> = Vec::new();
    let mut flush = |pending: &mut Vec<(G, f64)>, game: usize| {
        let set = if held_out(game, filter.validation_percent) {
            &mut valid
        } else {
            &mut train
        };
        for (pos, result) in pending.drain(..) {
            set.positions.push(pos);
            set.results.push(result);
        }
    };
    for (i, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("# game ") {
            if filter.exclude_unfinished && rest.ends_with("max plies") {
                pending.clear();
            } else {
                flush(&mut pending, game);
            }
            game += 1;
            continue;
        }
        let Some(sample) = Sample::parse(line) else {
            continue;
        };
        let sample = sample.map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        let pos = G::from_fen(&sample.fen).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        pending.push((pos, sample.result));
    }
    // Positions after the last `# game` line (a file not from datagen).
    flush(&mut pending, game);
    if let Some(limit) = limit.filter(|&l| l < train.positions.len()) {
        // An even spread over the file rather than its first games.
        let step = train.positions.len() as f64 / limit as f64;
        let keep: Vec<usize> = (0..limit).map(|i| (i as f64 * step) as usize).collect();
        train.positions = keep.iter().map(|&i| train.positions[i].clone()).collect();
        train.results = keep.iter().map(|&i| train.results[i]).collect();
    }
    if train.positions.is_empty() {
        return Err(format!("{path}: no positions"));
    }
    Ok((train, valid))
}

/// `ghast tune`: load, tune from the compiled-in weights (or `init`),
/// print the loss, write the params file.
pub fn run<G: Tunable>(
    data: &str,
    out: &str,
    init: Option<&str>,
    limit: Option<usize>,
    filter: DataFilter,
    opts: &TuneOptions,
) -> Result<TuneReport, String> {
    let started = std::time::Instant::now();
    let (train, valid) = load::<G>(data, limit, filter)?;
    let start = match init {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
            G::parse_eval_params(&text).map_err(|e| format!("{path}: {e}"))?
        }
        None => {
            let text = G::params_to_text(G::default_eval_params());
            G::parse_eval_params(&text)?
        }
    };
    println!(
        "{} training positions, {} held out ({} % of the games){}",
        train.positions.len(),
        valid.positions.len(),
        filter.validation_percent,
        if filter.exclude_unfinished {
            "; games ended by the ply limit left out"
        } else {
            ""
        }
    );
    let validation = Validation {
        positions: &valid.positions,
        results: &valid.results,
    };
    let (tuned, report) = tune::<G>(
        &train.positions,
        &train.results,
        Some(validation),
        &start,
        opts,
        &mut |line| println!("{line}"),
    );
    // The largest changes, for the log.
    let names = G::param_names(&start);
    let (a, b) = (G::params_to_flat(&start), G::params_to_flat(&tuned));
    let mut changes: Vec<(i32, &String, i32, i32)> = (0..names.len())
        .filter(|&j| a[j] != b[j])
        .map(|j| ((b[j] - a[j]).abs(), &names[j], a[j], b[j]))
        .collect();
    changes.sort_by_key(|c| std::cmp::Reverse(c.0));
    println!("{} weights changed; the largest:", changes.len());
    for (_, name, from, to) in changes.iter().take(15) {
        println!("  {name:<32} {from:>6} -> {to}");
    }
    let held_out = match (
        report.validation_losses.first(),
        report.validation_losses.get(report.best_epoch),
    ) {
        (Some(a), Some(b)) => format!(
            "# held-out loss {a:.6} -> {b:.6} on {} positions ({} % of the games).\n",
            report.validation_positions, filter.validation_percent
        ),
        _ => String::new(),
    };
    let header = format!(
        "# Tuned by `ghast tune` ({} {}): {} positions from {data}, K = {:.6},\n\
         # loss {:.6} -> {:.6} after epoch {} of {} (lr {}, {} Adam steps per epoch).\n{held_out}",
        G::VARIANT,
        env!("CARGO_PKG_VERSION"),
        report.positions,
        report.k,
        report.losses.first().copied().unwrap_or(0.0),
        report.losses.get(report.best_epoch).copied().unwrap_or(0.0),
        report.best_epoch,
        opts.epochs,
        opts.lr,
        opts.steps
    );
    let text = format!("{header}{}", G::params_to_text(&tuned));
    std::fs::write(out, text).map_err(|e| format!("cannot write '{out}': {e}"))?;
    println!(
        "wrote {out} ({:.1} s in all)",
        started.elapsed().as_secs_f64()
    );
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, History, MoveBuffer};
    use crate::variants::nimrod::Nimrod;

    /// Positions from random playouts (deterministic).
    fn random_positions(count: usize) -> Vec<Nimrod> {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let history = History::new();
        let mut moves = <Nimrod as Game>::Moves::default();
        let mut out = Vec::new();
        while out.len() < count {
            let mut p = Nimrod::startpos();
            let plies = 10 + next() % 70;
            for _ in 0..plies {
                p.legal_moves(&history, &mut moves);
                if moves.is_empty() {
                    break;
                }
                p = p.play(moves.as_slice()[(next() % moves.len() as u64) as usize]);
            }
            if p.count_legal_moves(&history) > 0 {
                out.push(p);
            }
        }
        out
    }

    /// Results generated from known weights are fitted: the loss falls and
    /// the perturbed weights come back close to the known ones.
    #[test]
    fn recovers_known_weights_on_synthetic_data() {
        let start = Nimrod::default_eval_params().clone();
        let names = Nimrod::param_names(&start);
        let at = |name: &str| names.iter().position(|n| n == name).unwrap();
        // The "true" weights: the start set with some material changed.
        let mut truth_flat = Nimrod::params_to_flat(&start);
        let changes = [
            ("material.knight.mg", 80),
            ("material.hunter.mg", -60),
            ("material.queen.mg", 120),
            ("material.pawn.mg", 30),
        ];
        for (name, d) in changes {
            truth_flat[at(name)] += d;
        }
        let truth = Nimrod::params_from_flat(&start, &truth_flat);
        let positions = random_positions(4000);
        // Soft results: the expected score under the true weights.
        let k_true = 0.004;
        let results: Vec<f64> = positions
            .iter()
            .map(|p| sigmoid(k_true * p.white_eval(&truth) as f64))
            .collect();
        let opts = TuneOptions {
            epochs: 10,
            lr: 3.0,
            steps: 100,
            k: Some(k_true),
            only: vec!["material.".into()],
            freeze: Vec::new(),
            reg: 0.0,
        };
        let mut lines = Vec::new();
        let (tuned, report) = tune::<Nimrod>(&positions, &results, None, &start, &opts, &mut |l| {
            lines.push(l.to_string())
        });
        assert_eq!(report.losses.len(), 11, "{lines:?}");
        let (first, last) = (report.losses[0], *report.losses.last().unwrap());
        assert!(last < first / 10.0, "loss {first} -> {last}: {lines:?}");
        let tuned_flat = Nimrod::params_to_flat(&tuned);
        for (name, _) in changes {
            let (got, want) = (tuned_flat[at(name)], truth_flat[at(name)]);
            assert!(
                (got - want).abs() <= 15,
                "{name}: {got} vs {want}; {lines:?}"
            );
        }
        // Fitting K from the same data finds about the true scale.
        let evals: Vec<f64> = positions
            .iter()
            .map(|p| p.white_eval(&truth) as f64)
            .collect();
        let k = fit_k(&evals, &results);
        assert!((k - k_true).abs() < 0.0002, "K {k}");
    }

    /// Tuning every weight against hard 1 / 0.5 / 0 results lowers the loss.
    #[test]
    fn all_weights_loss_falls() {
        let positions = random_positions(1500);
        let start = Nimrod::default_eval_params().clone();
        let results: Vec<f64> = positions
            .iter()
            .map(|p| {
                let e = p.white_eval(&start);
                if e > 150 {
                    1.0
                } else if e < -150 {
                    0.0
                } else {
                    0.5
                }
            })
            .collect();
        let opts = TuneOptions {
            epochs: 3,
            steps: 50,
            ..TuneOptions::default()
        };
        let (_, report) = tune::<Nimrod>(&positions, &results, None, &start, &opts, &mut |_| {});
        assert!(report.tuned > 50, "{report:?}");
        for w in report.losses.windows(2) {
            assert!(w[1] <= w[0] * 1.001, "{:?}", report.losses);
        }
        assert!(report.losses[3] < report.losses[0]);
    }

    /// With a held-out set, its loss is reported every epoch, falls on
    /// data from the same weights, and the returned weights are those of
    /// the best held-out epoch.
    #[test]
    fn held_out_loss_is_reported_and_selects_the_epoch() {
        let start = Nimrod::default_eval_params().clone();
        let names = Nimrod::param_names(&start);
        let mut truth_flat = Nimrod::params_to_flat(&start);
        let knight = names
            .iter()
            .position(|n| n == "material.knight.mg")
            .unwrap();
        truth_flat[knight] += 100;
        let truth = Nimrod::params_from_flat(&start, &truth_flat);
        let all = random_positions(3000);
        let (train, valid) = all.split_at(2400);
        let soft = |ps: &[Nimrod]| -> Vec<f64> {
            ps.iter()
                .map(|p| sigmoid(0.004 * p.white_eval(&truth) as f64))
                .collect()
        };
        let (train_r, valid_r) = (soft(train), soft(valid));
        let opts = TuneOptions {
            epochs: 4,
            lr: 3.0,
            steps: 60,
            k: Some(0.004),
            only: vec!["material.".into()],
            ..TuneOptions::default()
        };
        let validation = Validation {
            positions: valid,
            results: &valid_r,
        };
        let (tuned, report) = tune::<Nimrod>(
            train,
            &train_r,
            Some(validation),
            &start,
            &opts,
            &mut |_| {},
        );
        assert_eq!(report.validation_losses.len(), 5, "{report:?}");
        assert_eq!(report.validation_positions, 600);
        let best = report.validation_losses[report.best_epoch];
        assert!(
            report.validation_losses.iter().all(|&l| best <= l),
            "{report:?}"
        );
        assert!(best < report.validation_losses[0] / 2.0, "{report:?}");
        // The returned weights are the best epoch's: their held-out loss.
        let evals: Vec<f64> = valid.iter().map(|p| p.white_eval(&tuned) as f64).collect();
        assert!((mse(&evals, &valid_r, 0.004) - best).abs() < 1e-12);
    }

    /// The held-out split takes whole games, the given share of them.
    #[test]
    fn load_holds_out_whole_games() {
        let positions = random_positions(40);
        let mut text = String::from("# header\n");
        for (g, chunk) in positions.chunks(2).enumerate() {
            for p in chunk {
                text += &format!("{} | 1.0 | 0\n", p.to_fen());
            }
            text += &format!("# game {g} 1.0 10 mate\n");
        }
        let path = std::env::temp_dir().join(format!("ghast-load-{}.data", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap().to_string();
        let split = |validation_percent, exclude_unfinished| DataFilter {
            validation_percent,
            exclude_unfinished,
        };
        let (train, valid) = load::<Nimrod>(&path, None, split(10, false)).unwrap();
        assert_eq!((train.positions.len(), valid.positions.len()), (36, 4));
        // Games 0 and 10 (positions 0, 1, 20, 21) are held out.
        assert_eq!(valid.positions[0].to_fen(), positions[0].to_fen());
        assert_eq!(valid.positions[2].to_fen(), positions[20].to_fen());
        let (train, valid) = load::<Nimrod>(&path, Some(9), split(0, false)).unwrap();
        assert_eq!((train.positions.len(), valid.positions.len()), (9, 0));
        // Games 3 and 7 ended by the ply limit: left out on request.
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("# game 3 1.0 10 mate", "# game 3 0.5 300 max plies")
            .replace("# game 7 1.0 10 mate", "# game 7 0.5 300 max plies");
        std::fs::write(&path, text).unwrap();
        let (train, valid) = load::<Nimrod>(&path, None, split(10, true)).unwrap();
        assert_eq!((train.positions.len(), valid.positions.len()), (32, 4));
        assert!(train.results.iter().all(|&r| r == 1.0));
        std::fs::remove_file(&path).unwrap();
    }

    /// The pull toward the starting weights keeps them closer: the same
    /// fit with `reg` moves the changed weights less far.
    #[test]
    fn regularisation_pulls_toward_the_start() {
        let start = Nimrod::default_eval_params().clone();
        let names = Nimrod::param_names(&start);
        let knight = names
            .iter()
            .position(|n| n == "material.knight.mg")
            .unwrap();
        let mut truth_flat = Nimrod::params_to_flat(&start);
        truth_flat[knight] += 120;
        let truth = Nimrod::params_from_flat(&start, &truth_flat);
        let positions = random_positions(2000);
        let results: Vec<f64> = positions
            .iter()
            .map(|p| sigmoid(0.004 * p.white_eval(&truth) as f64))
            .collect();
        let run = |reg: f64| {
            let opts = TuneOptions {
                epochs: 4,
                lr: 3.0,
                steps: 60,
                k: Some(0.004),
                only: vec!["material.knight".into()],
                reg,
                ..TuneOptions::default()
            };
            let (tuned, _) = tune::<Nimrod>(&positions, &results, None, &start, &opts, &mut |_| {});
            Nimrod::params_to_flat(&tuned)[knight] - Nimrod::params_to_flat(&start)[knight]
        };
        let (free, pulled) = (run(0.0), run(0.05));
        assert!(free > 80, "unregularised change {free}");
        assert!(pulled > 0 && pulled < free / 2, "{pulled} vs {free}");
    }
}
