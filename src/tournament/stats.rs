//! Match statistics: Elo with a 95% interval, normalised Elo, LOS, draw
//! ratio and the SPRT log-likelihood ratio.
//!
//! Scores are counted twice: per game (wins, draws, losses) and per game
//! pair on the same opening with colours swapped (the pentanomial counts of
//! pair scores 0, 0.5, 1, 1.5, 2). Pairs cancel most of the opening's bias,
//! so the interval and the SPRT use the pentanomial variance whenever there
//! are pairs, and the per-game variance otherwise.

use serde::{Deserialize, Serialize};

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Results from one player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Pairs scoring 0, 0.5, 1, 1.5 and 2 points.
    pub pentanomial: [u64; 5],
}

impl Tally {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn pairs(&self) -> u64 {
        self.pentanomial.iter().sum()
    }

    pub fn add(&mut self, other: &Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        for (a, b) in self.pentanomial.iter_mut().zip(other.pentanomial) {
            *a += b;
        }
    }

    /// Records one game worth 1, 0.5 or 0 points.
    pub fn add_game(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Records a finished pair worth 0 to 2 points.
    pub fn add_pair(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.pentanomial[i] += 1;
    }

    /// Mean score per game, 0 to 1.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Mean and variance of the score per unit (a pair, or a game), and the
    /// number of units.
    fn moments(&self) -> (f64, f64, f64) {
        if self.pairs() > 0 {
            let n = self.pairs() as f64;
            let values = [0.0, 0.25, 0.5, 0.75, 1.0];
            let mean: f64 = self
                .pentanomial
                .iter()
                .zip(values)
                .map(|(&c, v)| c as f64 * v)
                .sum::<f64>()
                / n;
            let var: f64 = self
                .pentanomial
                .iter()
                .zip(values)
                .map(|(&c, v)| c as f64 * (v - mean).powi(2))
                .sum::<f64>()
                / n;
            (mean, var, n)
        } else {
            let n = self.games() as f64;
            let mean = self.score();
            let var = (self.wins as f64 * (1.0 - mean).powi(2)
                + self.draws as f64 * (0.5 - mean).powi(2)
                + self.losses as f64 * mean.powi(2))
                / n.max(1.0);
            (mean, var, n)
        }
    }
}

/// Elo difference for a mean score (logistic model).
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn erf(x: f64) -> f64 {
    // Abramowitz-Stegun 7.1.26, |error| < 1.5e-7: plenty for a LOS.
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
}

/// Everything the summary prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub elo: f64,
    /// Half-width of the 95% interval (NaN, written `null` in JSON, until
    /// there are two pairs, or two games, with some spread).
    pub elo_error: f64,
    pub nelo: f64,
    pub nelo_error: f64,
    /// Likelihood of superiority, 0 to 1.
    pub los: f64,
    pub draw_ratio: f64,
    pub score: f64,
}

pub fn summarize(t: &Tally) -> Summary {
    // The score counts every game (a pair may still be half played); the
    // interval comes from the pair (or game) variance.
    let mean = t.score();
    let (_, var, n) = t.moments();
    let defined = n >= 2.0 && var > 0.0;
    let se = (var / n.max(1.0)).sqrt();
    let elo = elo_from_score(mean);
    let elo_error = if defined {
        let lo = elo_from_score(mean - Z95 * se);
        let hi = elo_from_score(mean + Z95 * se);
        ((hi - lo) / 2.0).abs()
    } else {
        f64::NAN
    };
    // Normalised Elo: the score excess in units of its per-game standard
    // deviation (a pair's variance counts for two games).
    let per_game_sd = if t.pairs() > 0 {
        (2.0 * var).sqrt()
    } else {
        var.sqrt()
    };
    let scale = 800.0 / std::f64::consts::LN_10;
    let (nelo, nelo_error) = if defined {
        let games = t.games().max(1) as f64;
        (
            (mean - 0.5) / per_game_sd * scale,
            Z95 / games.sqrt() * scale,
        )
    } else {
        (f64::NAN, f64::NAN)
    };
    let decisive = (t.wins + t.losses) as f64;
    let los = if decisive > 0.0 {
        0.5 * (1.0 + erf((t.wins as f64 - t.losses as f64) / (2.0 * decisive).sqrt()))
    } else {
        0.5
    };
    Summary {
        elo,
        elo_error,
        nelo,
        nelo_error,
        los,
        draw_ratio: t.draws as f64 / t.games().max(1) as f64,
        score: mean,
    }
}

/// A sequential probability ratio test between Elo `elo0` (H0) and `elo1`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtState {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// `H0` (not better by elo1), `H1` (better than elo0) or `continue`.
    pub result: String,
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; all four).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut values = [None; 4];
        for part in text.split_whitespace() {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("SPRT: '{part}' is not key=value"))?;
            let i = ["elo0", "elo1", "alpha", "beta"]
                .iter()
                .position(|&n| n == k)
                .ok_or_else(|| format!("SPRT: unknown key '{k}'"))?;
            values[i] = Some(
                v.parse::<f64>()
                    .map_err(|_| format!("SPRT: '{v}' is not a number"))?,
            );
        }
        let [Some(elo0), Some(elo1), Some(alpha), Some(beta)] = values else {
            return Err("SPRT needs elo0=, elo1=, alpha= and beta=".into());
        };
        if elo1 <= elo0 || elo1.is_nan() || elo0.is_nan() {
            return Err("SPRT needs elo1 > elo0".into());
        }
        if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
            return Err("SPRT needs 0 < alpha, beta < 0.5".into());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalised SPRT log-likelihood ratio (normal approximation):
    /// `n (s1 - s0) (2 m - s0 - s1) / (2 var)` with the mean `m` and
    /// variance `var` per pair (or per game without pairs).
    pub fn llr(&self, t: &Tally) -> f64 {
        let (mean, var, n) = t.moments();
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    pub fn state(&self, t: &Tally) -> SprtState {
        let llr = self.llr(t);
        let (lower, upper) = self.bounds();
        let result = if llr >= upper {
            "H1"
        } else if llr <= lower {
            "H0"
        } else {
            "continue"
        };
        SprtState {
            llr,
            lower,
            upper,
            result: result.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!((elo_from_score(0.75) - 190.848).abs() < 1e-3);
        assert!(elo_from_score(0.5).abs() < 1e-9);
        assert!((elo_from_score(0.25) + 190.848).abs() < 1e-3);
        assert!((score_from_elo(100.0) - 0.640_065).abs() < 1e-6);
    }

    #[test]
    fn summary_of_trinomial_counts() {
        // 60 wins, 20 draws, 20 losses: score 0.7, Elo 147.19.
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
            pentanomial: [0; 5],
        };
        let s = summarize(&t);
        assert!((s.elo - 147.19).abs() < 0.01, "{s:?}");
        // var = 0.6*0.09 + 0.2*0.04 + 0.2*0.49 = 0.16, se = 0.04:
        // Elo(0.7 -+ 0.0784) = 86.0 .. 218.0, half-width 66.0.
        assert!((s.elo_error - 66.0).abs() < 0.1, "{s:?}");
        // LOS = Phi((60 - 20) / sqrt(80)) = Phi(4.47) ~ 1.
        assert!(s.los > 0.9999);
        assert!((s.draw_ratio - 0.2).abs() < 1e-12);
    }

    #[test]
    fn sprt_worked_example() {
        // Pentanomial [10, 20, 40, 20, 10] over pair scores 0, 0.25, ..., 1
        // is symmetric: mean 0.5,
        // var = (2*10*0.25 + 2*20*0.0625) / 100 = 0.075.
        // s0 = 0.5, s1 = score_from_elo(5) = 0.507195...
        // LLR = 100 * 0.007195 * (1 - 0.5 - 0.507195) / (2 * 0.075)
        //     = -0.034517...
        let t = Tally {
            wins: 0,
            draws: 0,
            losses: 0,
            pentanomial: [10, 20, 40, 20, 10],
        };
        let sprt = Sprt::parse("elo0=0 elo1=5 alpha=0.05 beta=0.05").unwrap();
        let s1 = score_from_elo(5.0);
        let expected = 100.0 * (s1 - 0.5) * (1.0 - 0.5 - s1) / (2.0 * 0.075);
        assert!((sprt.llr(&t) - expected).abs() < 1e-12);
        assert!((sprt.llr(&t) + 0.034_517).abs() < 1e-5, "{}", sprt.llr(&t));
        let (lo, hi) = sprt.bounds();
        assert!((lo + 2.944_439).abs() < 1e-6 && (hi - 2.944_439).abs() < 1e-6);
        assert_eq!(sprt.state(&t).result, "continue");
    }

    #[test]
    fn sprt_accepts_clear_superiority() {
        let t = Tally {
            wins: 0,
            draws: 0,
            losses: 0,
            pentanomial: [0, 10, 100, 300, 90],
        };
        let sprt = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
        assert_eq!(sprt.state(&t).result, "H1");
        assert!(Sprt::parse("elo0=5 elo1=0 alpha=0.05 beta=0.05").is_err());
        assert!(Sprt::parse("elo0=0 elo1=5").is_err());
    }
}
