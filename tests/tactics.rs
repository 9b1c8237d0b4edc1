//! The tactical suite `positions/tactics.txt`, searched by the real binary.
//!
//! One engine process per variant; every entry gets `ucinewgame`,
//! `position fen`, `go nodes NODES` (one thread, so the result is
//! reproducible) and must answer with a best move from the entry's `bm`
//! list and, for mates, a final `score mate M` with M <= the given distance.
//! The entries were verified with Fairy-Stockfish when the suite was made
//! (see the file's header and tests/oracle/make_tactics.py).

mod common;

use common::{Engine, NIMROD_VARIANTS as VARIANTS, REPLY_TIMEOUT};

/// Node budget per entry: the suite takes a few seconds on two cores.
const NODES: u64 = 200_000;

#[derive(Clone, Debug)]
struct Entry {
    line: usize,
    variant: String,
    fen: String,
    bm: Vec<String>,
    mate: Option<i32>,
    id: String,
}

impl Entry {
    fn name(&self) -> String {
        format!("{} (line {}, {})", self.id, self.line, self.variant)
    }
}

fn suite() -> Vec<Entry> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/tactics.txt");
    let text = std::fs::read_to_string(path).expect("read positions/tactics.txt");
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert!(fields.len() >= 3, "line {}: too few fields: {raw}", i + 1);
        let mut entry = Entry {
            line: i + 1,
            variant: fields[0].to_string(),
            fen: fields[1].to_string(),
            bm: Vec::new(),
            mate: None,
            id: format!("line{}", i + 1),
        };
        for field in &fields[2..] {
            let mut words = field.split_whitespace();
            match words.next() {
                Some("bm") => entry.bm = words.map(String::from).collect(),
                Some("mate") => {
                    let n = words.next().and_then(|w| w.parse().ok());
                    assert!(n.is_some_and(|n| n > 0), "line {}: bad mate: {raw}", i + 1);
                    entry.mate = n;
                }
                Some("id") => entry.id = words.collect::<Vec<_>>().join(" "),
                None => {}
                Some(other) => panic!("line {}: unknown field '{other}': {raw}", i + 1),
            }
        }
        assert!(
            VARIANTS.contains(&entry.variant.as_str()),
            "line {}: unknown variant: {raw}",
            i + 1
        );
        assert!(!entry.bm.is_empty(), "line {}: no bm: {raw}", i + 1);
        entries.push(entry);
    }
    entries
}

impl Engine {
    /// A started engine with `variant` chosen and `isready` answered.
    fn start_variant(variant: &str) -> Engine {
        let mut engine = Engine::start();
        engine.send(&format!("setoption name UCI_Variant value {variant}"));
        engine.isready();
        engine
    }

    /// Runs `go`; returns the bestmove and the last `info ... score` line's
    /// score as ("cp"|"mate", value).
    fn go(&mut self, go: &str) -> (String, Option<(String, i32)>) {
        self.send(go);
        let (lines, _) = self.until(REPLY_TIMEOUT, |l| l.starts_with("bestmove"));
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or("")
            .to_string();
        let score = lines.iter().rev().find_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            if t.first() != Some(&"info") {
                return None;
            }
            let i = t.iter().position(|&w| w == "score")?;
            Some((t.get(i + 1)?.to_string(), t.get(i + 2)?.parse().ok()?))
        });
        (best, score)
    }
}

/// Runs `check` on every entry of each variant (one engine per variant, in
/// parallel) and returns the failure messages.
fn run_groups(
    entries: &[Entry],
    check: fn(&mut Engine, &Entry) -> Result<(), String>,
) -> Vec<String> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = VARIANTS
            .iter()
            .map(|&variant| {
                let group: Vec<&Entry> = entries.iter().filter(|e| e.variant == variant).collect();
                scope.spawn(move || {
                    let mut engine = Engine::start_variant(variant);
                    group
                        .into_iter()
                        .filter_map(|e| check(&mut engine, e).err())
                        .collect::<Vec<String>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("variant group thread"))
            .collect()
    })
}

fn set_up(engine: &mut Engine, e: &Entry) -> Result<(), String> {
    engine.send("ucinewgame");
    engine.send(&format!("position fen {}", e.fen));
    let legal = engine.legal_moves();
    for m in &e.bm {
        if !legal.contains(m) {
            return Err(format!(
                "{}: bm {m} is not legal here (legal: {legal:?})",
                e.name()
            ));
        }
    }
    Ok(())
}

fn check_entry(engine: &mut Engine, e: &Entry, go: &str) -> Result<(), String> {
    set_up(engine, e)?;
    let (best, score) = engine.go(go);
    let mut problems = Vec::new();
    if !e.bm.contains(&best) {
        problems.push(format!("bestmove {best}, expected one of {:?}", e.bm));
    }
    if let Some(n) = e.mate {
        match &score {
            Some((kind, m)) if kind == "mate" && *m >= 1 && *m <= n => {}
            other => problems.push(format!("final score {other:?}, expected mate <= {n}")),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{} [{}]: {}", e.name(), e.fen, problems.join("; ")))
    }
}

#[test]
fn suite_is_well_formed_and_covers_every_variant() {
    let entries = suite();
    assert!(entries.len() >= 40, "only {} entries", entries.len());
    for v in VARIANTS {
        let n = entries.iter().filter(|e| e.variant == v).count();
        assert!(n >= 6, "{v}: only {n} entries");
    }
    for n in 1..=3 {
        assert!(
            entries.iter().any(|e| e.mate == Some(n)),
            "no mate in {n} in the suite"
        );
    }
    assert!(entries.iter().any(|e| e.mate.is_none()), "no material wins");
    let mut ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), entries.len(), "duplicate ids");
}

#[test]
fn tactics_found_within_node_budget() {
    let entries = suite();
    let failures = run_groups(&entries, |engine, e| {
        check_entry(engine, e, &format!("go nodes {NODES}"))
    });
    assert!(
        failures.is_empty(),
        "{} of {} tactics failed with go nodes {NODES}:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
}

#[test]
fn mates_in_one_found_at_depth_2() {
    let entries: Vec<Entry> = suite().into_iter().filter(|e| e.mate == Some(1)).collect();
    assert!(!entries.is_empty());
    let failures = run_groups(&entries, |engine, e| check_entry(engine, e, "go depth 2"));
    assert!(
        failures.is_empty(),
        "{} of {} mates in one failed with go depth 2:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
}
