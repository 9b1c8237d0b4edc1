//! Checks every perft suite in `positions/` (`<variant>.perft`).
//!
//! Format, one position per line: `<FEN> ;D1 <n> ;D2 <n> ...`; lines that
//! start with `#` and blank lines are ignored. Depths whose count exceeds
//! the budget below are skipped so CI stays fast; `GHAST_PERFT_BUDGET`
//! raises it for a deep run.

use ghast::registry::{self as variants, NAMES as VARIANTS};
use std::path::Path;
use std::sync::atomic::AtomicBool;

const DEFAULT_BUDGET: u64 = 20_000_000;

struct Entry {
    line: usize,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn parse_suite(text: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let counts = parts
            .map(|p| {
                let p = p.trim();
                let (d, n) = p
                    .split_once(char::is_whitespace)
                    .unwrap_or_else(|| panic!("line {}: bad field '{p}'", i + 1));
                let depth = d
                    .strip_prefix('D')
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_else(|| panic!("line {}: bad depth '{d}'", i + 1));
                let nodes = n
                    .trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("line {}: bad count '{n}'", i + 1));
                (depth, nodes)
            })
            .collect();
        entries.push(Entry {
            line: i + 1,
            fen,
            counts,
        });
    }
    entries
}

fn check_suite(variant: &str) -> Option<usize> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("positions")
        .join(format!("{variant}.perft"));
    let text = std::fs::read_to_string(&path).ok()?;
    let budget = std::env::var("GHAST_PERFT_BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(DEFAULT_BUDGET);
    let entries = parse_suite(&text);
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in &entries {
        let mut session = variants::new_session(variant).unwrap();
        if let Err(e) = session.set_position(Some(&entry.fen), &[]) {
            failures.push(format!("line {}: {} rejected: {e}", entry.line, entry.fen));
            continue;
        }
        for &(depth, expected) in &entry.counts {
            if expected > budget {
                continue;
            }
            let got: u64 = if depth == 0 {
                1
            } else {
                session
                    .divide(depth, 1, &|_, _, _| {}, &AtomicBool::new(false))
                    .unwrap()
                    .iter()
                    .map(|l| l.nodes)
                    .sum()
            };
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "line {}: {} depth {depth}: expected {expected}, got {got}",
                    entry.line, entry.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{variant}: {} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    Some(checked)
}

fn run(variant: &str) {
    let checked =
        check_suite(variant).unwrap_or_else(|| panic!("positions/{variant}.perft is missing"));
    assert!(checked >= 20, "{variant}: only {checked} counts checked");
}

#[test]
fn nimrod() {
    run("nimrod");
}

#[test]
fn nimrod_corner() {
    run("nimrod-corner");
}

#[test]
fn dragon_nimrod() {
    run("dragon-nimrod");
}

#[test]
fn dragon_nimrod_corner() {
    run("dragon-nimrod-corner");
}

#[test]
fn every_implemented_variant_has_a_suite() {
    for variant in VARIANTS {
        if variants::new_session(variant).is_ok() {
            assert!(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("positions")
                    .join(format!("{variant}.perft"))
                    .exists(),
                "positions/{variant}.perft is missing"
            );
        }
    }
}

#[test]
fn vyremorn() {
    run("vyremorn");
}

#[test]
fn nemoroth() {
    run("nemoroth");
}
