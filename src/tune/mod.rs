//! Fitting the evaluators to game results, and the search parameters to
//! game play.
//!
//! - [`datagen`]: fast self-play games from random openings; quiet
//!   positions are written with the game's final result (the format below).
//! - [`texel`]: Texel tuning of every weight of a game's evaluator with
//!   Adam, parallel over positions with rayon.
//! - [`spsa`]: SPSA tuning of the search parameters by game pairs between
//!   perturbed settings.
//! - [`Tunable`]: what the tuner needs of a game: its weights as a flat
//!   vector of integers (and back), their names, and an evaluation with a
//!   given weight set (`Game::evaluate_with`).
//!
//! # Data format
//!
//! One position per line, `#` lines are comments:
//!
//! ```text
//! <fen> | <result> | <eval>
//! ```
//!
//! - `fen`: the game's own position notation (FEN, Vyrémorn position
//!   string, NFEN).
//! - `result`: the final result of the game from White's (Alabaster's)
//!   view: `1.0` win, `0.5` draw, `0.0` loss.
//! - `eval`: the static evaluation with the weights used for generation, in
//!   centipawns from White's view (for inspection; the tuner recomputes it).
//!
//! Datagen ends every game with a line `# game <n> <result> <plies>
//! <termination>`; a resumed run counts those lines, and drops any lines
//! after the last one (a game cut off by an interruption).

pub mod datagen;
pub mod spsa;
pub mod texel;

use crate::game::{Color, Game};
use crate::variants::{nemoroth, nimrod, vyremorn};

/// A game whose evaluator can be tuned.
pub trait Tunable: Game {
    /// Names of the flat weights (as in the params file, pairs split into
    /// `.mg` and `.eg`).
    fn param_names(p: &Self::EvalParams) -> Vec<String>;
    /// Every weight, in the order of [`Tunable::param_names`].
    fn params_to_flat(p: &Self::EvalParams) -> Vec<i32>;
    /// `base` with the weights of `flat` (clamped to valid values).
    fn params_from_flat(base: &Self::EvalParams, flat: &[i32]) -> Self::EvalParams;
    /// The params file text (`tuning/README.md`).
    fn params_to_text(p: &Self::EvalParams) -> String;

    /// Static evaluation with `p`, in centipawns from White's view.
    fn white_eval(&self, p: &Self::EvalParams) -> i32 {
        let v = self.evaluate_with(p);
        if self.side_to_move() == Color::White {
            v
        } else {
            -v
        }
    }
}

macro_rules! tunable {
    ($params:ty) => {
        fn param_names(p: &$params) -> Vec<String> {
            p.flat_names()
        }
        fn params_to_flat(p: &$params) -> Vec<i32> {
            p.to_flat()
        }
        fn params_from_flat(base: &$params, flat: &[i32]) -> $params {
            base.with_flat(flat)
        }
        fn params_to_text(p: &$params) -> String {
            p.to_text()
        }
    };
}

impl<F: nimrod::Flavor> Tunable for nimrod::Position<F> {
    tunable!(nimrod::eval::EvalParams);
}

impl Tunable for vyremorn::Vyremorn {
    tunable!(vyremorn::eval::EvalParams);
}

impl Tunable for nemoroth::Nemoroth {
    tunable!(nemoroth::eval::EvalParams);
}

/// One line of the data format.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub fen: String,
    /// The target from White's view: a game result (1.0 / 0.5 / 0.0) or a
    /// soft target in [0, 1], such as one blended with a reference engine's
    /// score.
    pub result: f64,
    /// Static evaluation at generation time, White's view.
    pub eval: i32,
}

impl Sample {
    pub fn to_line(&self) -> String {
        let is_game_result = (self.result * 2.0).fract() == 0.0;
        if is_game_result {
            format!("{} | {:.1} | {}", self.fen, self.result, self.eval)
        } else {
            format!("{} | {:.4} | {}", self.fen, self.result, self.eval)
        }
    }

    /// Parses one data line; `None` for blank and comment lines.
    pub fn parse(line: &str) -> Option<Result<Sample, String>> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        if fields.len() < 2 {
            return Some(Err(format!("expected '<fen> | <result> | <eval>': {line}")));
        }
        let result = match fields[1] {
            "1" | "1.0" | "1-0" => 1.0,
            "0.5" | "1/2-1/2" => 0.5,
            "0" | "0.0" | "0-1" => 0.0,
            other => match other.parse::<f64>() {
                Ok(soft) if (0.0..=1.0).contains(&soft) => soft,
                _ => {
                    let expected = "1.0, 0.5, 0.0 or a soft target in [0, 1]";
                    return Some(Err(format!("bad result '{other}' ({expected})")));
                }
            },
        };
        let eval = match fields.get(2) {
            Some(e) => match e.parse() {
                Ok(v) => v,
                Err(_) => return Some(Err(format!("bad eval '{e}'"))),
            },
            None => 0,
        };
        Some(Ok(Sample {
            fen: fields[0].to_string(),
            result,
            eval,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_lines_round_trip() {
        let s = Sample {
            fen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1".into(),
            result: 0.5,
            eval: -12,
        };
        assert_eq!(Sample::parse(&s.to_line()), Some(Ok(s.clone())));
        assert_eq!(Sample::parse("# game 1"), None);
        assert!(Sample::parse("x | 2 | 3").unwrap().is_err());
        assert!(Sample::parse("x | -0.1 | 3").unwrap().is_err());
        assert!(Sample::parse("x | NaN | 3").unwrap().is_err());
        let soft = Sample {
            result: 0.7421,
            ..s
        };
        assert_eq!(Sample::parse(&soft.to_line()), Some(Ok(soft)));
    }

    #[test]
    fn flat_params_round_trip() {
        fn check<G: Tunable>() {
            let p = G::default_eval_params();
            let flat = G::params_to_flat(p);
            assert_eq!(G::param_names(p).len(), flat.len());
            let q = G::params_from_flat(p, &flat);
            assert_eq!(G::params_to_flat(&q), flat);
            let text = G::params_to_text(&q);
            let r = G::parse_eval_params(&text).unwrap();
            assert_eq!(G::params_to_flat(&r), flat);
        }
        check::<nimrod::Nimrod>();
        check::<vyremorn::Vyremorn>();
        check::<nemoroth::Nemoroth>();
    }
}
