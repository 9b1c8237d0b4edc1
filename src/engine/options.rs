//! The one table of engine options: name, type, default, bounds and what
//! each does. UCI's `option` lines and `setoption`, CECP's `memory` and
//! `cores`, `ghast match`'s `option.NAME=` for in-process players and the
//! command-line flags (`--hash`, `--threads`, `--multipv`) all read it, so
//! a bound is written once. The search parameters of
//! [`crate::search::params`] are rows of the table too, generated from
//! their single definition there.

use crate::registry;
use crate::search::params::PARAM_SPECS;
use crate::search::{
    Config, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, MAX_HASH_MB, MAX_MULTIPV, MAX_THREADS,
    SearchKind,
};
use std::time::Duration;

/// Largest `Move Overhead`, milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// `EvalFile` value that means the compiled-in weights.
pub const DEFAULT_EVAL_FILE: &str = "<default>";

/// An option's type, default and bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        default: &'static str,
        values: &'static [&'static str],
    },
    Text {
        default: &'static str,
    },
    Button,
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    pub help: &'static str,
}

/// The engine's own options, in the order `uci` lists them (the search
/// parameters follow, see [`table`]).
const ENGINE_OPTIONS: [OptionSpec; 9] = [
    OptionSpec {
        name: "UCI_Variant",
        kind: OptionKind::Combo {
            default: registry::DEFAULT_VARIANT,
            values: &registry::NAMES,
        },
        help: "the game played",
    },
    OptionSpec {
        name: "Hash",
        kind: OptionKind::Spin {
            default: DEFAULT_HASH_MB as i64,
            min: 1,
            max: MAX_HASH_MB as i64,
        },
        help: "memory of the search in MB (transposition table or MCTS tree)",
    },
    OptionSpec {
        name: "Clear Hash",
        kind: OptionKind::Button,
        help: "forgets what the search has learned",
    },
    OptionSpec {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as i64,
        },
        help: "search threads",
    },
    OptionSpec {
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV as i64,
        },
        help: "number of best lines reported",
    },
    OptionSpec {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS as i64,
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS as i64,
        },
        help: "milliseconds kept back per move for host and pipe latency",
    },
    OptionSpec {
        name: "Ponder",
        kind: OptionKind::Check { default: false },
        help: "the host may send 'go ponder'",
    },
    OptionSpec {
        name: "EvalFile",
        kind: OptionKind::Text {
            default: DEFAULT_EVAL_FILE,
        },
        help: "params file with evaluation weights (<default>: compiled in)",
    },
    OptionSpec {
        name: "Search",
        kind: OptionKind::Combo {
            default: SearchKind::NAMES[0],
            values: &SearchKind::NAMES,
        },
        help: "search algorithm (default: the game's own choice)",
    },
];

/// Every option: the engine's own, then one spin per search parameter.
pub fn table() -> Vec<OptionSpec> {
    let defaults = crate::search::DEFAULT_PARAMS;
    let params = PARAM_SPECS.iter().map(|spec| OptionSpec {
        name: spec.name,
        kind: OptionKind::Spin {
            default: defaults.get(spec) as i64,
            min: spec.min as i64,
            max: spec.max as i64,
        },
        help: "search parameter (src/search/params.rs)",
    });
    ENGINE_OPTIONS.iter().copied().chain(params).collect()
}

/// The row named `name` (case-insensitive).
pub fn find(name: &str) -> Option<OptionSpec> {
    table()
        .into_iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
}

impl OptionSpec {
    /// A spin value within the bounds; the error names them.
    pub fn spin(&self, value: &str) -> Result<i64, String> {
        let OptionKind::Spin { min, max, .. } = self.kind else {
            return Err(format!("{} is not a number option", self.name));
        };
        match value.trim().parse::<i64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(format!(
                "{}: '{value}' is not a number from {min} to {max}",
                self.name
            )),
        }
    }
}

/// A command-line flag's parser for the spin option `name`: the same
/// bounds and message as `setoption` (for clap's `value_parser`).
pub fn spin_parser<T: TryFrom<i64>>(
    name: &'static str,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |text: &str| {
        let spec = find(name).ok_or_else(|| format!("no option '{name}'"))?;
        let v = spec.spin(text)?;
        T::try_from(v).map_err(|_| format!("{name}: '{text}' is out of range"))
    }
}

/// What the engine must redo after an option changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Nothing beyond the new value.
    Value,
    /// The search memory (`Hash`, `Search`): allocate it anew.
    Memory,
    /// `Clear Hash`.
    ClearMemory,
    /// `EvalFile`: load the weights (or drop them for `<default>`).
    EvalFile,
    /// `UCI_Variant`: another game, with these settings.
    Variant(&'static str),
}

/// The values of every option but the variant (which picks the engine).
#[derive(Clone, Debug)]
pub struct Settings {
    pub hash_mb: usize,
    pub config: Config,
    pub ponder: bool,
    /// `None`: the game's default search (the registry's).
    pub search: Option<SearchKind>,
    /// The params file in force; `None`: the compiled-in weights.
    pub eval_file: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mb: DEFAULT_HASH_MB,
            config: Config::default(),
            ponder: false,
            search: None,
            eval_file: None,
        }
    }
}

/// `EvalFile` values that mean the compiled-in weights.
pub fn is_default_eval_file(value: &str) -> bool {
    let v = value.trim();
    v.is_empty() || v == DEFAULT_EVAL_FILE || v.eq_ignore_ascii_case("default")
}

impl Settings {
    /// Sets option `name` to `value` (checked against the table) and says
    /// what the engine must redo. On error nothing changes; the message
    /// starts with the option's name.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, String> {
        let spec = find(name).ok_or_else(|| format!("unknown option '{}'", name.trim()))?;
        if spec.kind == OptionKind::Button {
            return Ok(Change::ClearMemory);
        }
        let value = value
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| format!("{}: missing value", spec.name))?;
        match spec.name {
            "UCI_Variant" => registry::find(&value.to_ascii_lowercase())
                .map(|g| Change::Variant(g.name))
                .ok_or_else(|| format!("UCI_Variant: {}", registry::unknown(value))),
            "Hash" => {
                self.hash_mb = spec.spin(value)? as usize;
                Ok(Change::Memory)
            }
            "Threads" => {
                self.config.threads = spec.spin(value)? as usize;
                Ok(Change::Value)
            }
            "MultiPV" => {
                self.config.multipv = spec.spin(value)? as usize;
                Ok(Change::Value)
            }
            "Move Overhead" => {
                self.config.move_overhead = Duration::from_millis(spec.spin(value)? as u64);
                Ok(Change::Value)
            }
            "Ponder" => match value.to_ascii_lowercase().as_str() {
                v @ ("true" | "false") => {
                    self.ponder = v == "true";
                    Ok(Change::Value)
                }
                _ => Err(format!("Ponder: '{value}' is not true or false")),
            },
            "EvalFile" => {
                self.eval_file = (!is_default_eval_file(value)).then(|| value.to_string());
                Ok(Change::EvalFile)
            }
            "Search" => {
                let kind = SearchKind::parse(value).ok_or_else(|| {
                    format!(
                        "Search: '{value}' is not one of {}",
                        SearchKind::NAMES.join(", ")
                    )
                })?;
                self.search = Some(kind);
                Ok(Change::Memory)
            }
            _ => match self.config.params.set(spec.name, value) {
                Ok(true) => Ok(Change::Value),
                Ok(false) => Err(format!("unknown option '{name}'")),
                Err(e) => Err(e),
            },
        }
    }

    /// The current value of option `spec`, as `uci` would list it.
    pub fn value_text(&self, spec: &OptionSpec) -> String {
        match spec.name {
            "Hash" => self.hash_mb.to_string(),
            "Threads" => self.config.threads.to_string(),
            "MultiPV" => self.config.multipv.to_string(),
            "Move Overhead" => self.config.move_overhead.as_millis().to_string(),
            "Ponder" => self.ponder.to_string(),
            "EvalFile" => self
                .eval_file
                .clone()
                .unwrap_or_else(|| DEFAULT_EVAL_FILE.into()),
            "Search" => self
                .search
                .map_or(SearchKind::NAMES[0], |k| k.name())
                .into(),
            _ => match PARAM_SPECS.iter().find(|p| p.name == spec.name) {
                Some(p) => self.config.params.get(p).to_string(),
                None => String::new(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every spin's default is inside its bounds and both bounds are
    /// accepted; one past them is refused with the bounds in the message.
    #[test]
    fn every_spin_accepts_its_bounds_and_refuses_beyond() {
        for spec in table() {
            let OptionKind::Spin { default, min, max } = spec.kind else {
                continue;
            };
            assert!((min..=max).contains(&default), "{}", spec.name);
            for v in [min, max] {
                assert_eq!(spec.spin(&v.to_string()), Ok(v), "{}", spec.name);
            }
            let e = spec.spin(&(max + 1).to_string()).unwrap_err();
            assert!(e.contains(&format!("from {min} to {max}")), "{e}");
            assert!(spec.spin(&(min - 1).to_string()).is_err());
            assert!(spec.spin("x").is_err());
        }
    }

    #[test]
    fn settings_refuse_bad_values_and_keep_state() {
        let mut s = Settings::default();
        assert_eq!(s.set("hash", Some("64")), Ok(Change::Memory));
        assert_eq!(s.hash_mb, 64);
        assert!(s.set("Hash", Some("0")).is_err());
        assert!(s.set("Hash", None).is_err());
        assert!(s.set("Threads", Some("257")).is_err());
        assert!(s.set("Bogus", Some("1")).is_err());
        assert!(s.set("Ponder", Some("maybe")).is_err());
        assert!(s.set("UCI_Variant", Some("chess")).is_err());
        assert_eq!(s.hash_mb, 64);
        assert_eq!(s.config.threads, 1);
        assert_eq!(
            s.set("UCI_Variant", Some("Vyremorn")),
            Ok(Change::Variant("vyremorn"))
        );
        assert_eq!(s.set("Clear Hash", None), Ok(Change::ClearMemory));
        assert_eq!(s.set("lmr_min_depth", Some("3")), Ok(Change::Value));
        assert_eq!(s.config.params.lmr_min_depth, 3);
        assert_eq!(s.set("EvalFile", Some("<default>")), Ok(Change::EvalFile));
        assert_eq!(s.eval_file, None);
    }

    #[test]
    fn cli_flags_use_the_table_bounds() {
        let hash = spin_parser::<usize>("Hash");
        assert_eq!(hash("64"), Ok(64));
        assert!(hash("0").unwrap_err().contains("from 1 to"));
        assert!(hash("1000000").is_err());
        assert!(spin_parser::<usize>("Threads")("0").is_err());
    }
}
