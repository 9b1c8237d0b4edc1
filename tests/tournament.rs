//! `ghast match` end to end: real short tournaments, broken external
//! engines, reproducibility, shards and merging.

use std::path::{Path, PathBuf};
use std::process::Command;

const GHAST: &str = env!("CARGO_BIN_EXE_ghast");

/// A Nimrod match between two built-in ghast players.
const TWO_NIMROD_GHASTS: [&str; 6] = [
    "--variant",
    "nimrod",
    "--engine",
    "name=a",
    "--engine",
    "name=b",
];

/// A scratch folder for one test, removed when the test ends (passed or
/// failed), so repeated runs leave nothing in the system's temp folder.
struct ScratchDir(PathBuf);

impl std::ops::Deref for ScratchDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> ScratchDir {
    let dir = std::env::temp_dir().join(format!("ghast-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    ScratchDir(dir)
}

fn ghast_match(args: &[&str]) -> (bool, String, String) {
    run(Command::new(GHAST).arg("match").args(args))
}

/// Success, stdout and stderr of a command.
fn run(command: &mut Command) -> (bool, String, String) {
    let out = command.output().expect("the command starts");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A fake engine as a shell script that does `on_go` when asked to move.
fn script_engine(dir: &Path, name: &str, on_go: &str) -> String {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
        ),
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn short_tournament_in_every_nimrod_variant() {
    for variant in [
        "nimrod",
        "nimrod-corner",
        "dragon-nimrod",
        "dragon-nimrod-corner",
    ] {
        let dir = temp_dir(variant);
        let pgn = dir.join("games.pgn");
        let results = dir.join("results.json");
        let (ok, stdout, stderr) = ghast_match(&[
            "--variant",
            variant,
            "--engine",
            "name=a",
            "--engine",
            "name=b option.Threads=1",
            "--games",
            "2",
            "--rounds",
            "1",
            "--tc",
            "nodes=3000",
            "--concurrency",
            "2",
            "--random-openings",
            "4",
            "--pgnout",
            pgn.to_str().unwrap(),
            "--results",
            results.to_str().unwrap(),
        ]);
        assert!(ok, "{variant}: {stderr}");
        assert!(stdout.contains("Results of a vs b"), "{stdout}");
        assert!(stderr.contains("[2/2]"), "progress lines: {stderr}");
        let r = json(&results);
        for key in [
            "games",
            "wins",
            "draws",
            "losses",
            "elo",
            "elo_error",
            "los",
            "terminations",
        ] {
            assert!(r.get(key).is_some(), "{variant}: {key} missing in {r}");
        }
        let games = r["games"].as_u64().unwrap();
        assert_eq!(games, 2);
        let sum = r["wins"].as_u64().unwrap()
            + r["draws"].as_u64().unwrap()
            + r["losses"].as_u64().unwrap();
        assert_eq!(sum, games);
        let terminations: u64 = r["terminations"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(terminations, games);
        for bad in ["illegal move", "crash", "time forfeit", "hang"] {
            assert!(r["terminations"].get(bad).is_none(), "{variant}: {r}");
        }
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(text.matches("[Variant \"").count(), 2);
        assert!(text.contains(&format!("[Variant \"{variant}\"]")));
        assert!(text.contains("[FEN \"") && text.contains("[Termination \""));
        assert!(text.contains("1. ") || text.contains("... "), "{text}");
    }
}

#[test]
fn external_engines_that_break_lose_and_the_run_goes_on() {
    let dir = temp_dir("broken");
    let illegal = script_engine(&dir, "illegal", "echo 'bestmove a1a1'");
    let crash = script_engine(&dir, "crash", "exit 3");
    let results = dir.join("results.json");
    let (ok, stdout, stderr) = ghast_match(&[
        "--variant",
        "nimrod",
        "--engine",
        "name=ghast",
        "--engine",
        &format!("name=illegal cmd={illegal}"),
        "--engine",
        &format!("name=crash cmd={crash}"),
        "--engine",
        &format!("name=self cmd={GHAST}"),
        "--gauntlet",
        "--games",
        "2",
        "--tc",
        "nodes=2000",
        "--concurrency",
        "2",
        "--results",
        results.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    let r = json(&results);
    assert_eq!(r["games"].as_u64(), Some(6), "{stdout}");
    assert_eq!(r["terminations"]["illegal move"].as_u64(), Some(2), "{r}");
    assert_eq!(r["terminations"]["crash"].as_u64(), Some(2), "{r}");
    let vs = &r["encounters"];
    assert_eq!(vs["illegal"]["wins"].as_u64(), Some(2), "{r}");
    assert_eq!(vs["crash"]["wins"].as_u64(), Some(2), "{r}");
    // The sound external engine (ghast itself) played normal games.
    assert_eq!(
        vs["self"]["wins"].as_u64().unwrap()
            + vs["self"]["draws"].as_u64().unwrap()
            + vs["self"]["losses"].as_u64().unwrap(),
        2
    );
}

#[test]
fn node_limited_matches_are_reproducible_and_shards_merge() {
    let dir = temp_dir("repro");
    let run = |name: &str, extra: &[&str]| -> (String, PathBuf) {
        let pgn = dir.join(format!("{name}.pgn"));
        let results = dir.join(format!("{name}.json"));
        let mut args = TWO_NIMROD_GHASTS.to_vec();
        args.extend([
            "--games",
            "2",
            "--rounds",
            "2",
            "--tc",
            "nodes=2500",
            "--random-openings",
            "6",
            "--seed",
            "7",
            "--quiet",
        ]);
        let pgn_s = pgn.to_str().unwrap().to_string();
        let res_s = results.to_str().unwrap().to_string();
        args.extend(["--pgnout", &pgn_s, "--results", &res_s]);
        args.extend(extra);
        let (ok, _, stderr) = ghast_match(&args);
        assert!(ok, "{stderr}");
        (std::fs::read_to_string(&pgn).unwrap(), results)
    };
    // Move times differ from run to run; compare the moves only.
    let moves_only = |pgn: &str| -> Vec<String> {
        pgn.split_whitespace()
            .filter(|w| !w.starts_with('{') && !w.ends_with('}') && !w.starts_with('['))
            .map(String::from)
            .collect()
    };
    let (first, all) = run("first", &[]);
    let (second, _) = run("second", &[]);
    assert_eq!(moves_only(&first), moves_only(&second));

    // Resuming at round 2 replays the second round's openings and games.
    let (resumed, resumed_results) = run("resumed", &["--first-round", "2"]);
    assert_eq!(json(&resumed_results)["games"].as_u64(), Some(2));
    let games =
        |pgn: &str| -> Vec<Vec<String>> { pgn.split("[Event ").skip(1).map(moves_only).collect() };
    assert_eq!(games(&resumed), games(&first)[2..].to_vec());

    let (_, s1) = run("shard1", &["--shard", "1/2"]);
    let (_, s2) = run("shard2", &["--shard", "2/2"]);
    assert_eq!(json(&s1)["games"].as_u64(), Some(2));
    let merged = dir.join("merged.json");
    let out = Command::new(GHAST)
        .args([
            "merge",
            s1.to_str().unwrap(),
            s2.to_str().unwrap(),
            "--results",
        ])
        .arg(&merged)
        .output()
        .unwrap();
    assert!(out.status.success());
    let (m, a) = (json(&merged), json(&all));
    for key in ["games", "wins", "draws", "losses"] {
        assert_eq!(m[key], a[key], "{key}: merged {m} vs whole {a}");
    }
}

#[test]
fn sprt_and_bad_arguments() {
    let dir = temp_dir("sprt");
    let results = dir.join("r.json");
    let (ok, stdout, stderr) = ghast_match(
        &[
            TWO_NIMROD_GHASTS.as_slice(),
            &[
                "--tc",
                "depth=2",
                "--sprt",
                "elo0=0 elo1=5 alpha=0.05 beta=0.05",
                "--results",
                results.to_str().unwrap(),
                "--quiet",
            ],
        ]
        .concat(),
    );
    assert!(ok, "{stderr}");
    assert!(stdout.contains("LLR:"), "{stdout}");
    let r = json(&results);
    for key in ["llr", "lower", "upper", "result"] {
        assert!(r["sprt"].get(key).is_some(), "{r}");
    }
    for bad in [
        vec!["--engine", "name=a"],
        vec!["--engine", "name=a", "--engine", "name=a"],
        vec!["--engine", "name=a", "--engine", "name=b", "--tc", "fast"],
        vec!["--engine", "name=a", "--engine", "bogus"],
        vec![
            "--engine", "name=a", "--engine", "name=b", "--sprt", "elo0=5",
        ],
        vec!["--engine", "name=a", "--engine", "name=b", "--shard", "3/2"],
        vec![
            "--engine",
            "name=a",
            "--engine",
            "name=b",
            "--first-round",
            "0",
        ],
        vec![
            "--engine",
            "name=a",
            "--engine",
            "name=b",
            "--rounds",
            "2",
            "--first-round",
            "3",
        ],
        vec![
            "--variant",
            "chess",
            "--engine",
            "name=a",
            "--engine",
            "name=b",
        ],
    ] {
        let (ok, _, stderr) = ghast_match(&bad);
        assert!(!ok, "{bad:?} should fail");
        assert!(stderr.contains("error"), "{bad:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{bad:?}: {stderr}");
    }
}

/// Runs the script `tuning/<name>` (Python 3, standard library; README,
/// Set-up).
fn tuning_script(name: &str, args: &[&str]) -> (bool, String, String) {
    let script = format!("{}/tuning/{name}", env!("CARGO_MANIFEST_DIR"));
    run(Command::new("python3").arg(script).args(args))
}

/// Two quick games between in-process players `a` and `b`, written as
/// PGN to `pgn`.
fn two_games_to(pgn: &str) {
    let two_games = "--variant nimrod --engine name=a --engine name=b --games 2 --rounds 1";
    let mut args: Vec<&str> = two_games.split_whitespace().collect();
    args.extend([
        "--tc",
        "nodes=2000",
        "--random-openings",
        "4",
        "--pgnout",
        pgn,
    ]);
    let (ok, _, stderr) = ghast_match(&args);
    assert!(ok, "{stderr}");
}

#[test]
fn move_costs_are_charged_by_the_judge() {
    let dir = temp_dir("move_cost");
    let pgn = dir.join("games.pgn").to_string_lossy().into_owned();
    two_games_to(&pgn);
    let judged_by = |judge: &'static str, plies: &'static str| {
        let args = ["--ghast", GHAST, "--judge", judge, "--plies", plies, &pgn];
        tuning_script("move_cost.py", &args)
    };
    // a judges b: b's moves, grouped by piece, and both views by plies.
    let (ok, stdout, stderr) = judged_by("a", "0:60");
    assert!(ok, "{stderr}");
    assert!(
        stdout.starts_with("b: ") && stdout.contains(" moves, mean cost "),
        "{stdout}"
    );
    assert!(
        !stdout.contains("\na: "),
        "only the judge's opponent is charged: {stdout}"
    );
    let kinds = stdout
        .lines()
        .filter(|l| l.contains(" mean ") && l.contains(" share "));
    assert!(kinds.count() >= 2, "{stdout}");
    assert!(stdout.contains("plies  0- 3"), "{stdout}");
    // A judge who played no game, a bad ply range and a bound that
    // admits no score are errors.
    let bad_within = ["--ghast", GHAST, "--judge", "a", "--within", "0", &pgn];
    for (what, (ok, _, stderr)) in [
        ("nobody", judged_by("nobody", "0:60")),
        ("9:3", judged_by("a", "9:3")),
        ("x", judged_by("a", "x")),
        ("--within 0", tuning_script("move_cost.py", &bad_within)),
    ] {
        assert!(!ok && stderr.contains("error"), "{what}: {stderr}");
        assert!(!stderr.contains("Traceback"), "{what}: {stderr}");
    }
}

fn pgn2data(args: &[&str]) -> (bool, String, String) {
    tuning_script("pgn2data.py", args)
}

#[test]
fn match_games_become_tuning_data() {
    let dir = temp_dir("pgn2data");
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let pgn = path("games.pgn");
    two_games_to(&pgn);
    let label_a = ["--ghast", GHAST, "--variant", "nimrod", "--label", "a"];
    let (a_data, b_data) = (path("a.data"), path("b.data"));
    let outputs = ["--out", &a_data, "--others", &b_data, &pgn];
    let (ok, stdout, stderr) = pgn2data(&[&label_a[..], &outputs].concat());
    assert!(ok, "{stderr}");
    assert!(stdout.contains("of 2 games"), "{stdout}");
    // Each file: the labelled lines of its player, a `# game` line a game.
    let a = std::fs::read_to_string(path("a.data")).unwrap();
    let b = std::fs::read_to_string(path("b.data")).unwrap();
    for text in [&a, &b] {
        assert_eq!(text.matches("# game ").count(), 2, "{text}");
    }
    let labelled: Vec<&str> = a.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!labelled.is_empty(), "{a}");
    for line in &labelled {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 4, "{line}");
        let target: f64 = fields[1].parse().unwrap();
        assert!((0.0..=1.0).contains(&target), "{line}");
        assert!(fields[3].starts_with("ref=") && fields[3].contains(" result="));
    }
    // Both files together are data `ghast tune` reads.
    let joined = format!("{a}{b}");
    std::fs::write(path("both.data"), joined).unwrap();
    let (ok, _, stderr) = run(Command::new(GHAST)
        .args([
            "tune",
            "--variant",
            "nimrod",
            "--epochs",
            "1",
            "--steps",
            "2",
        ])
        .args(["--validation", "0", "--data", &path("both.data")])
        .args(["--out", &path("tuned.params")]));
    assert!(ok, "{stderr}");

    // A game whose moves do not replay is an error, not a trace.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let mut movetext = text.split("\n\n").nth(1).unwrap().split_whitespace();
    let mv = movetext.find(|t| !t.ends_with('.')).unwrap();
    std::fs::write(path("bad.pgn"), text.replacen(mv, "a1a1", 1)).unwrap();
    let (bad_data, bad_pgn) = (path("bad.data"), path("bad.pgn"));
    let (ok, _, stderr) = pgn2data(&[&label_a[..], &["--out", &bad_data, &bad_pgn]].concat());
    assert!(!ok && stderr.contains("error"), "{stderr}");
    assert!(!stderr.contains("Traceback"), "{stderr}");
}

#[test]
fn a_stopped_match_leaves_the_results_of_its_finished_games() {
    use std::io::{BufRead, BufReader};
    let dir = temp_dir("stopped");
    let results = dir.join("r.json");
    let mut child = Command::new(GHAST)
        .arg("match")
        .args(TWO_NIMROD_GHASTS)
        .args([
            "--tc",
            "nodes=2000",
            "--rounds",
            "500",
            "--concurrency",
            "1",
            "--results",
        ])
        .arg(&results)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the match starts");
    let stderr = BufReader::new(child.stderr.take().unwrap());
    // The progress line of a game comes after its results are written.
    let mut finished = 0;
    for line in stderr.lines() {
        if line.unwrap().starts_with('[') {
            finished += 1;
            if finished == 2 {
                break;
            }
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(finished, 2, "the match stopped before two games");
    let r = json(&results);
    let games = r["games"].as_u64().unwrap();
    assert!((2..500).contains(&games), "{r}");
    let counted: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| r[k].as_u64().unwrap())
        .sum();
    assert_eq!(counted, games, "{r}");
}
