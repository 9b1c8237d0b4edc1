//! The `ghast perft` command line: output format, options, and errors.

use std::process::{Command, Output};

fn ghast(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ghast"))
        .args(args)
        .output()
        .expect("run ghast")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Splits perft output into its divide lines and the node total, checking
/// the layout: `move: count` lines sorted by move, an empty line,
/// `Nodes searched: N`, then a nodes-per-second line.
fn parse_perft(text: &str) -> (Vec<(String, u64)>, u64) {
    let lines: Vec<&str> = text.lines().collect();
    let blank = lines
        .iter()
        .position(|l| l.is_empty())
        .unwrap_or_else(|| panic!("no empty line in:\n{text}"));
    let divide: Vec<(String, u64)> = lines[..blank]
        .iter()
        .map(|l| {
            let (mv, n) = l
                .split_once(": ")
                .unwrap_or_else(|| panic!("bad divide line {l:?}"));
            (mv.to_string(), n.parse().expect("count"))
        })
        .collect();
    let mut sorted = divide.clone();
    sorted.sort();
    assert_eq!(divide, sorted, "divide lines are sorted by move");
    let total: u64 = lines[blank + 1]
        .strip_prefix("Nodes searched: ")
        .unwrap_or_else(|| panic!("no 'Nodes searched' after the empty line:\n{text}"))
        .parse()
        .expect("total");
    assert!(
        lines[blank + 2..]
            .iter()
            .any(|l| l.to_ascii_lowercase().starts_with("nodes/second")),
        "no nodes/second line:\n{text}"
    );
    (divide, total)
}

/// Runs a command that must fail: non-zero exit, a message on stderr, and no
/// panic.
fn assert_fails(args: &[&str]) {
    let out = ghast(args);
    let err = stderr(&out);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(!err.trim().is_empty(), "{args:?}: no message on stderr");
    assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    assert!(
        !stdout(&out).contains("Nodes searched"),
        "{args:?} printed a result"
    );
}

#[test]
fn perft_start_position_depth_3() {
    let out = ghast(&["perft", "--variant", "nimrod", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (divide, total) = parse_perft(&stdout(&out));
    assert_eq!(divide.len(), 20);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 8920);
    assert_eq!(total, 8920);
    // Sixteen Pawn moves and four Knight moves (rulebook E1).
    let mut want: Vec<String> = ["c1b3", "c1d3", "g1f3", "g1h3"]
        .iter()
        .map(|m| m.to_string())
        .collect();
    for file in 'a'..='h' {
        want.push(format!("{file}2{file}3"));
        want.push(format!("{file}2{file}4"));
    }
    want.sort();
    let moves: Vec<String> = divide.iter().map(|(m, _)| m.clone()).collect();
    assert_eq!(moves, want);
}

#[test]
fn perft_all_variants_depth_2() {
    for (variant, nodes) in [
        ("nimrod", 400),
        ("nimrod-corner", 258),
        ("dragon-nimrod", 400),
        ("dragon-nimrod-corner", 258),
    ] {
        let out = ghast(&["perft", "--variant", variant, "2"]);
        assert!(out.status.success(), "{variant}: {}", stderr(&out));
        assert_eq!(parse_perft(&stdout(&out)).1, nodes, "{variant}");
    }
}

#[test]
fn perft_with_fen() {
    // E5: castling both ways; the King has 7 moves, the Hawkress and the
    // Huntress the rest.
    let fen = "w3k2u/8/8/8/8/8/8/W3K2U w KQkq - 0 1";
    let out = ghast(&["perft", "--variant", "nimrod", "--fen", fen, "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (divide, total) = parse_perft(&stdout(&out));
    assert_eq!(total as usize, divide.len());
    let king: Vec<&str> = divide
        .iter()
        .map(|(m, _)| m.as_str())
        .filter(|m| m.starts_with("e1"))
        .collect();
    assert_eq!(
        king,
        ["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"]
    );
}

#[test]
fn perft_with_moves_then_depth() {
    // The depth comes after the moves; it counts from the position after them.
    let out = ghast(&[
        "perft",
        "--variant",
        "nimrod",
        "--moves",
        "e2e4",
        "e7e5",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (divide, total) = parse_perft(&stdout(&out));
    // White to move: the e-Pawn is blocked, the e1 King may step to e2.
    assert!(divide.iter().any(|(m, _)| m == "e1e2"), "{divide:?}");
    assert!(
        !divide.iter().any(|(m, _)| m.starts_with("e4")),
        "{divide:?}"
    );
    // Depth 1 after the same moves equals the number of divide lines.
    let out1 = ghast(&[
        "perft",
        "--variant",
        "nimrod",
        "--moves",
        "e2e4",
        "e7e5",
        "1",
    ]);
    let (divide1, total1) = parse_perft(&stdout(&out1));
    assert_eq!(total1 as usize, divide1.len());
    assert_eq!(divide1.len(), divide.len());
    assert!(total > total1);
    // A depth given as a separate option-free argument before --moves works too.
    let out2 = ghast(&[
        "perft",
        "2",
        "--variant",
        "nimrod",
        "--moves",
        "e2e4",
        "e7e5",
    ]);
    assert!(out2.status.success(), "{}", stderr(&out2));
    assert_eq!(parse_perft(&stdout(&out2)).1, total);
}

#[test]
fn perft_errors() {
    // Bad FEN (9 ranks), illegal move, unknown variant, missing depth.
    assert_fails(&["perft", "--fen", "8/8/8/8/8/8/8/8/8 w - - 0 1", "2"]);
    assert_fails(&["perft", "--variant", "nimrod", "--fen", "garbage", "1"]);
    assert_fails(&["perft", "--variant", "nimrod", "--moves", "e2e5", "2"]);
    assert_fails(&[
        "perft",
        "--variant",
        "nimrod",
        "--moves",
        "e2e4",
        "e2e4",
        "2",
    ]);
    assert_fails(&["perft", "--variant", "chess", "2"]);
    assert_fails(&["perft", "--variant", "nemoroth", "--fen", "8/8 a - 0", "2"]);
    assert_fails(&["perft", "--variant", "nimrod"]);
    assert_fails(&["perft", "--variant", "nimrod", "--moves", "e2e4"]);
    assert_fails(&["perft", "--variant", "nimrod", "x"]);
    assert_fails(&["perft", "--variant", "nimrod", "-3"]);
}

#[test]
fn perft_depth_0_is_one_node() {
    // Rulebook 5.3: perft(P, 0) = 1; the divide lines add up to the total.
    let out = ghast(&["perft", "--variant", "nimrod", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (divide, total) = parse_perft(&stdout(&out));
    assert_eq!(total, 1);
    assert!(divide.is_empty(), "{divide:?}");
}

#[test]
fn tune_rejects_bad_options_and_missing_data() {
    assert_fails(&["tune", "--data", "x.data", "--out", "y.params", "--reg=-1"]);
    assert_fails(&[
        "tune", "--data", "x.data", "--out", "y.params", "--reg", "abc",
    ]);
    assert_fails(&[
        "tune",
        "--data",
        "x.data",
        "--out",
        "y.params",
        "--validation",
        "80",
    ]);
    assert_fails(&[
        "tune",
        "--data",
        "/nonexistent/ghast.data",
        "--out",
        "y.params",
    ]);
}

/// An unknown variant is named once, with the known ones listed once.
#[test]
fn unknown_variant_lists_the_variants_once() {
    let out = ghast(&["perft", "--variant", "chess", "1"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.matches("known variants").count(), 1, "{err}");
    assert_eq!(err.matches("nemoroth").count(), 1, "{err}");
}

/// `--hash`, `--threads` and `--multipv` take the option table's bounds.
#[test]
fn search_flags_take_the_option_bounds() {
    for args in [
        &["analyse", "--depth", "1", "--hash", "0"][..],
        &["analyse", "--depth", "1", "--hash", "1000000"],
        &["analyse", "--depth", "1", "--threads", "0"],
        &["analyse", "--depth", "1", "--multipv", "65"],
        &["bench", "--depth", "1", "--hash", "0"],
    ] {
        let out = ghast(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = stderr(&out);
        assert!(err.contains("is not a number from"), "{args:?}: {err}");
    }
}

#[test]
fn spsa_refuses_bad_input_and_prints_tuned_options() {
    assert_fails(&["spsa", "--param", "no_such_param:3"]);
    assert_fails(&["spsa", "--param", "rfp_margin"]);
    assert_fails(&["spsa", "--param", "rfp_margin:8", "--option", "Hash=x"]);
    assert_fails(&["spsa", "--param", "rfp_margin:8", "--option", "Bogus=1"]);
    assert_fails(&["spsa", "--param", "rfp_margin:8", "--r-end", "0"]);
    assert_fails(&["spsa", "--param", "rfp_margin:8", "--tc", "fast"]);
    let dir = std::env::temp_dir().join(format!("ghast-spsa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let state = dir.join("spsa.state");
    let state = state.to_str().expect("utf-8 path");
    std::fs::write(state, "done=1\nrfp_margin=80\n").expect("write state");
    // A state without every tuned parameter cannot be resumed.
    assert_fails(&[
        "spsa",
        "--param",
        "rfp_margin:8",
        "--param",
        "lmp_base:1",
        "--out",
        state,
        "--resume",
    ]);
    let args = [
        "spsa",
        "--param",
        "rfp_margin:8",
        "--param",
        "lmp_base:1",
        "--iterations",
        "2",
        "--tc",
        "nodes=200",
        "--out",
        state,
        "--quiet",
    ];
    let out = ghast(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("pairs 2"), "{text}");
    assert!(text.contains("option.rfp_margin="), "{text}");
    let saved = std::fs::read_to_string(state).expect("state written");
    assert!(saved.contains("done=2"), "{saved}");
    let mut resumed = args.to_vec();
    resumed[6] = "3";
    resumed.push("--resume");
    let out = ghast(&resumed);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("pairs 3"), "{}", stdout(&out));
    std::fs::remove_dir_all(&dir).ok();
}
