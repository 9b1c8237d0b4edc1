//! The layering rules of issue 13, checked on the source text: outside
//! test code,
//! - `src/variants/` (the rules) uses nothing above the game trait: no
//!   search, engine, registry, protocol, tournament or tuner;
//! - `src/search/` names no game and no protocol: no `variants`,
//!   `registry`, `engine` or `protocol`;
//! - `src/protocol/` reaches everything through the engine layer: it uses
//!   only `engine`, `registry` and `board_view`.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The crate modules a file's non-test code names (`crate::X`), with the
/// line of each use. Test files and everything from `#[cfg(test)]` on are
/// left out: tests may use anything.
fn crate_modules(path: &Path) -> Vec<(usize, String)> {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return Vec::new();
    }
    let text = std::fs::read_to_string(path).unwrap();
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        for (at, _) in code.match_indices("crate::") {
            let module: String = code[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            found.push((i + 1, module));
        }
    }
    found
}

/// Fails with every use in `dir` of a module `allowed` refuses.
fn check(dir: &str, allowed: impl Fn(&str) -> bool) {
    let mut bad = Vec::new();
    for file in rust_files(&Path::new(ROOT).join(dir)) {
        for (line, module) in crate_modules(&file) {
            if !allowed(&module) {
                bad.push(format!("{}:{line}: crate::{module}", file.display()));
            }
        }
    }
    assert!(bad.is_empty(), "{dir} must not use:\n{}", bad.join("\n"));
}

#[test]
fn the_rules_use_nothing_above_the_game_trait() {
    check("src/variants", |m| {
        !matches!(
            m,
            "search" | "engine" | "registry" | "protocol" | "tournament" | "tune" | "commands"
        )
    });
}

#[test]
fn the_search_names_no_game_and_no_protocol() {
    check("src/search", |m| {
        !matches!(
            m,
            "variants" | "registry" | "engine" | "protocol" | "tournament" | "tune"
        )
    });
}

#[test]
fn the_protocols_reach_everything_through_the_engine_layer() {
    check("src/protocol", |m| {
        matches!(m, "engine" | "registry" | "board_view" | "protocol")
    });
}

/// The scan sees real uses (a check that cannot fail would prove nothing).
#[test]
fn the_scan_finds_uses() {
    let uci = Path::new(ROOT).join("src/protocol/uci.rs");
    assert!(crate_modules(&uci).iter().any(|(_, m)| m == "engine"));
}
