//! The UCI dialect (protocol.md), driven through the real binary: a script
//! goes to stdin, and the replies on stdout are checked line by line.

mod common;

use common::{CORNER_START, FIDE_START, VARIANTS};
use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Runs the engine on `script`. With `close_stdin` the input ends after the
/// script (EOF); otherwise stdin stays open, so the engine must leave on its
/// own (`quit`). Fails if it has not exited within a few seconds.
fn run_bytes(script: &[u8], close_stdin: bool) -> (String, ExitStatus) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ghast"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ghast");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stdout.read_to_end(&mut buf).unwrap();
        buf
    });
    let mut stdin = child.stdin.take().unwrap();
    // The engine may already have quit: a broken pipe is fine here.
    let _ = stdin.write_all(script);
    let _ = stdin.flush();
    let kept_open = if close_stdin {
        drop(stdin);
        None
    } else {
        Some(stdin)
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!(
                "ghast did not exit; script:\n{}",
                String::from_utf8_lossy(script)
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    drop(kept_open);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(!stderr.contains("panicked"), "engine panicked:\n{stderr}");
    let out = String::from_utf8(reader.join().unwrap()).expect("stdout is UTF-8");
    (out, status)
}

/// Runs `script` to EOF and checks for a clean exit.
fn run(script: &str) -> String {
    let (out, status) = run_bytes(script.as_bytes(), true);
    assert!(status.success(), "exit status {status}; output:\n{out}");
    out
}

/// A `go perft` reply: divide lines, an empty line, `Nodes searched: N`,
/// an empty line. Consumes it from `lines` and returns (divide, N).
fn take_perft<'a>(lines: &mut impl Iterator<Item = &'a str>) -> (Vec<(String, u64)>, u64) {
    let mut divide = Vec::new();
    for line in lines.by_ref() {
        if line.is_empty() {
            break;
        }
        let (mv, n) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("bad divide line {line:?}"));
        divide.push((mv.to_string(), n.parse().expect("count")));
    }
    let total_line = lines.next().expect("Nodes searched line");
    let total = total_line
        .strip_prefix("Nodes searched: ")
        .unwrap_or_else(|| panic!("expected 'Nodes searched: N', got {total_line:?}"))
        .parse()
        .expect("total");
    assert_eq!(lines.next(), Some(""), "empty line after the total");
    let mut sorted = divide.clone();
    sorted.sort();
    assert_eq!(divide, sorted, "divide is sorted by move");
    (divide, total)
}

/// The `Fen:` line of a `d` reply.
fn fen_of_display(out: &str) -> &str {
    out.lines()
        .find_map(|l| l.strip_prefix("Fen: "))
        .unwrap_or_else(|| panic!("no 'Fen:' line in:\n{out}"))
}

#[test]
fn handshake_and_isready() {
    let out = run("uci\nisready\n");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("id name ghast"), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")), "{out}");
    let option = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant "))
        .unwrap_or_else(|| panic!("no UCI_Variant option:\n{out}"));
    assert!(
        option.starts_with("option name UCI_Variant type combo default nimrod"),
        "{option}"
    );
    let vars: Vec<&str> = option
        .split(" var ")
        .skip(1)
        .map(|v| v.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(vars, VARIANTS, "{option}");
    let uciok = lines.iter().position(|&l| l == "uciok").expect("uciok");
    assert_eq!(&lines[uciok + 1..], ["readyok"], "{out}");
}

#[test]
fn variants_announce_and_perft_3() {
    let mut script = String::new();
    for v in &VARIANTS[..4] {
        script.push_str(&format!(
            "setoption name UCI_Variant value {v}\nposition startpos\ngo perft 3\n"
        ));
    }
    let out = run(&script);
    let mut lines = out.lines();
    for (variant, start, nodes, roots) in [
        ("nimrod", FIDE_START, 8920, 20),
        ("nimrod-corner", CORNER_START, 4797, 16),
        ("dragon-nimrod", FIDE_START, 8920, 20),
        ("dragon-nimrod-corner", CORNER_START, 4797, 16),
    ] {
        assert_eq!(
            lines.next(),
            Some(
                format!("info string variant {variant} files 8 ranks 8 startpos {start}").as_str()
            )
        );
        let (divide, total) = take_perft(&mut lines);
        assert_eq!(total, nodes, "{variant}");
        assert_eq!(divide.len(), roots, "{variant}");
        assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), nodes);
    }
    assert_eq!(lines.next(), None, "{out}");
}

#[test]
fn option_names_and_values_are_case_insensitive() {
    let out = run("setoption name uci_variant value Dragon-Nimrod-Corner\n");
    assert_eq!(
        out.trim_end(),
        format!("info string variant dragon-nimrod-corner files 8 ranks 8 startpos {CORNER_START}")
    );
}

#[test]
fn position_fen_and_moves() {
    // E5 castling, E7 en passant, E10 dragon promotion, each read back
    // with `d`.
    let out = run(concat!(
        "position fen w3k2u/8/8/8/8/8/8/W3K2U w KQkq - 0 1 moves e1g1\n",
        "d\n",
        "position startpos moves e2e4 a7a6 e4e5 d7d5\n",
        "d\n",
        "setoption name UCI_Variant value dragon-nimrod\n",
        "position startpos moves b2b3 g7g6 a1h8+\n",
        "d\n",
        "position fen whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1 moves b2b3 g7g6 a1h8\n",
        "d\n",
    ));
    let fens: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("Fen: "))
        .collect();
    assert_eq!(
        fens,
        [
            "w3k2u/8/8/8/8/8/8/W4UK1 b kq - 1 1",
            "whnqkanu/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/WHNQKANU w KQkq d6 0 3",
            "whnqkanJ/pppppp1p/6p1/8/8/1P6/P1PPPPPP/1HNQKANU b Kq - 0 2",
            "whnqkanJ/pppppp1p/6p1/8/8/1P6/P1PPPPPP/1HNQKANU b Kq - 0 2",
        ],
        "{out}"
    );
    assert!(!out.contains("error"), "{out}");

    // The perft after the E7 line contains the e.p. capture, the one of
    // E5 both castlings.
    let out = run(concat!(
        "position fen whnqkanu/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/WHNQKANU w KQkq d6 0 3\n",
        "go perft 1\n",
        "position fen w3k2u/8/8/8/8/8/8/W3K2U w KQkq - 0 1\n",
        "go perft 1\n",
    ));
    let mut lines = out.lines();
    let (divide, total) = take_perft(&mut lines);
    assert!(divide.contains(&("e5d6".to_string(), 1)), "{divide:?}");
    assert_eq!(total as usize, divide.len());
    let (divide, _) = take_perft(&mut lines);
    assert!(divide.contains(&("e1g1".to_string(), 1)), "{divide:?}");
    assert!(divide.contains(&("e1c1".to_string(), 1)), "{divide:?}");
    assert_eq!(lines.next(), None, "{out}");
}

#[test]
fn perft_depth_0_is_one_node() {
    // Rulebook 5.3: perft(P, 0) = 1, so the divide has no lines, and the
    // lines of a divide always add up to the total.
    let out = run("go perft 0\n");
    let mut lines = out.lines();
    let (divide, total) = take_perft(&mut lines);
    assert_eq!(total, 1);
    assert!(divide.is_empty(), "{out}");
}

#[test]
fn bad_lines_are_reported_and_change_nothing() {
    // Each bad line must get one `info string error: ...` and leave the
    // position after 1.e4 in place (Black to move, 20 replies).
    let bad: &[&[u8]] = &[
        b"position",
        b"position fen",
        b"position fen   ",
        b"position fen 8/8/8 w - - 0 1",
        b"position fen whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANX w KQkq - 0 1",
        b"position startpos moves e2e5",
        b"position startpos moves e2e4 e7e5 e4e5",
        b"position startpos moves e2",
        b"position startpos moves 0000",
        b"position startpos junk",
        b"position moves e2e4",
        b"setoption",
        b"setoption name",
        b"setoption name UCI_Variant",
        b"setoption name UCI_Variant value",
        b"setoption name Frobnication value 3",
        b"setoption value nimrod",
        b"setoption name UCI_Variant value chess",
        b"setoption name UCI_Variant value nemorothx",
        b"go perft",
        b"go perft x",
        b"go perft -1",
        b"go perft 1 2",
        b"frobnicate",
        b"\x01\x02\x03",
        b"\xff\xfe\x80 garbage",
        b"position startpos moves \xc3\x28",
        "position fen \u{265a}7/8/8/8/8/8/8/7\u{2654} w - - 0 1".as_bytes(),
    ];
    let mut script: Vec<u8> = b"position startpos moves e2e4\n".to_vec();
    for line in bad {
        script.extend_from_slice(line);
        script.extend_from_slice(b"\ngo perft 1\n");
    }
    // Blank lines are ignored without a reply. `isready` is answered at
    // once even during a perft; `ucinewgame` first waits for the count.
    script.extend_from_slice(b"\n   \nucinewgame\nisready\n");
    let (out, status) = run_bytes(&script, true);
    assert!(status.success(), "{status}\n{out}");
    let mut lines = out.lines();
    for line in bad {
        let shown = String::from_utf8_lossy(line);
        let reply = lines.next().unwrap_or_default();
        assert!(
            reply.starts_with("info string error: ") && reply.len() > 19,
            "{shown:?} got {reply:?}\n{out}"
        );
        let (divide, total) = take_perft(&mut lines);
        assert_eq!(total, 20, "position changed after {shown:?}\n{out}");
        assert!(divide.contains(&("a7a6".to_string(), 1)), "after {shown:?}");
    }
    assert_eq!(lines.next(), Some("readyok"));
    assert_eq!(lines.next(), None, "{out}");
}

#[test]
fn failed_variant_switch_keeps_variant() {
    // After a refused switch the corner variant is still in use.
    let out = run(concat!(
        "setoption name UCI_Variant value nimrod-corner\n",
        "setoption name UCI_Variant value shogi\n",
        "go perft 1\n",
    ));
    let mut lines = out.lines().skip(1);
    assert!(
        lines.next().unwrap().starts_with("info string error: "),
        "{out}"
    );
    assert_eq!(take_perft(&mut lines).1, 16, "{out}");
}

#[test]
fn ucinewgame_resets_position() {
    let out = run("position startpos moves e2e4\nucinewgame\ngo perft 1\n");
    let mut lines = out.lines();
    let (divide, total) = take_perft(&mut lines);
    assert_eq!(total, 20);
    assert!(divide.iter().any(|(m, _)| m == "e2e4"), "{out}");
}

#[test]
fn quit_exits_while_stdin_is_open() {
    let (out, status) = run_bytes(b"isready\nquit\nisready\n", false);
    assert!(status.success(), "{status}");
    // Nothing after quit is read.
    assert_eq!(out, "readyok\n");
}

#[test]
fn eof_exits_cleanly() {
    let (out, status) = run_bytes(b"isready", true);
    assert!(status.success(), "{status}");
    assert_eq!(out, "readyok\n");
    let (out, status) = run_bytes(b"", true);
    assert!(status.success(), "{status}");
    assert_eq!(out, "");
}

#[test]
fn display_matches_position() {
    let out = run("setoption name UCI_Variant value nimrod-corner\nd\n");
    assert_eq!(fen_of_display(&out), CORNER_START);
}

#[test]
fn vyremorn_through_the_protocol() {
    let start = "1pp1wrgmk/2dpnbecq/3dpnabf/9aner/P8dpnw/PD8dp1/1PD8dp/WNPD8p/RENA9/FBANPD3/QCEBNPD2/KMGRW1PP1 w g1h1f2g2e3f3c5d5m5b6c6l6m6a7b7k7l7a8j8k8h10i10g11h11f12g12 0 1";
    let out = run(concat!(
        "setoption name UCI_Variant value vyremorn\n",
        "position startpos\n",
        "go perft 2\n",
        "position startpos moves c4e5 i10i8 b7c8d\n",
        "go perft 1\n",
        "d\n",
        "position fen 8k/9/9/13/13/13/13/2N^10/13/9/9/K8 w c5 0 1 moves c5d6d\n",
        "d\n",
        "position fen 8k/9/9/13/13/13/13/2P^10/13/9/9/K8 w - 0 1\n",
        "position startpos moves e3e5\n",
    ));
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap(),
        format!("info string variant vyremorn files 13 ranks 12 startpos {start}")
    );
    let (divide, total) = take_perft(&mut lines);
    assert_eq!((divide.len(), total), (50, 2502));
    let (_, total) = take_perft(&mut lines);
    assert!(total > 0);
    let rest: Vec<&str> = lines.collect();
    let rest = rest.join("\n");
    assert!(
        rest.contains("Fen: 8k/9/9/13/13/13/3N^9/13/13/9/9/K8 b - 1 1"),
        "{rest}"
    );
    assert!(
        rest.contains("Fen: 1pp1wrgmk/2dpnbecq/3d1nabf/9aner/P1D5pdpnw/"),
        "{rest}"
    );
    let errors = rest
        .lines()
        .filter(|l| l.starts_with("info string error: "))
        .count();
    assert_eq!(errors, 2, "{rest}");
}

/// `eval` prints the static evaluation from the side to move's view, with
/// the `EvalFile` weights once they are loaded.
#[test]
fn eval_prints_the_static_evaluation() {
    let queen_up = "whn1kanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU";
    let weights = std::env::temp_dir().join(format!("ghast-eval-{}.params", std::process::id()));
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tuning/nimrod.params"))
            .expect("tuning/nimrod.params");
    // Every weight as shipped but the Queen's material, doubled.
    let heavier: String = text
        .lines()
        .map(|line| match line.strip_prefix("material.queen ") {
            Some(rest) => {
                let pair = rest.trim_start_matches([' ', '=']).split_whitespace();
                let doubled: Vec<String> = pair
                    .map(|v| (2 * v.parse::<i32>().expect("a weight")).to_string())
                    .collect();
                format!("material.queen = {}\n", doubled.join(" "))
            }
            None => format!("{line}\n"),
        })
        .collect();
    assert_ne!(
        heavier.trim_end(),
        text.trim_end(),
        "no material.queen line"
    );
    std::fs::write(&weights, heavier).expect("write the weights");
    let out = run(&format!(
        "setoption name UCI_Variant value nimrod\n\
         position fen {queen_up} w KQkq - 0 1\neval\n\
         position fen {queen_up} b KQkq - 0 1\neval\n\
         setoption name EvalFile value {}\n\
         position fen {queen_up} w KQkq - 0 1\neval\n",
        weights.display()
    ));
    std::fs::remove_file(&weights).ok();
    let scores: Vec<i32> = out
        .lines()
        .filter_map(|l| l.strip_prefix("Static evaluation: "))
        .map(|rest| {
            let cp = rest.split(" (").nth(1).and_then(|s| s.split(' ').next());
            cp.and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("{rest}"))
        })
        .collect();
    assert_eq!(scores.len(), 3, "{out}");
    assert!(scores[0] > 700, "{scores:?}");
    // The other side to move: the same position, less twice the tempo.
    assert!(
        scores[1] < -700 && (scores[0] + scores[1]).abs() <= 100,
        "{scores:?}"
    );
    assert!(scores[2] > scores[0] + 700, "{scores:?}");
}

/// In Nimrod `eval` first prints the evaluation split by term, whose
/// total is the static evaluation from White's view; Vyrémorn's and
/// Nemoroth's evaluators give the total only.
#[test]
fn eval_prints_the_terms_where_the_evaluator_splits_them() {
    let out = run("setoption name UCI_Variant value nimrod
         position fen whn1kanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU b KQkq - 0 1
eval
");
    let lines: Vec<&str> = out.lines().collect();
    let row = |name: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} row in {out}"))
    };
    for term in ["Material", "Mobility", "Threats", "King danger", "Tempo"] {
        assert_eq!(row(term).split('|').count(), 4, "{out}");
    }
    // White has the Queen: its material column is higher than Black's.
    let material: Vec<f64> = row("Material")
        .split(['|', ' '])
        .filter_map(|v| v.parse().ok())
        .collect();
    assert_eq!(material.len(), 6, "{out}");
    assert!(material[0] > material[2] + 7.0, "{material:?}");
    // The phase line's White view is the negated side-to-move score.
    let white: f64 = row("Phase ")
        .split(": ")
        .nth(1)
        .and_then(|v| v.split(' ').next())
        .and_then(|v| v.parse().ok())
        .expect("the phase line's score");
    let to_move: f64 = row("Static evaluation: ")
        .split(' ')
        .nth(2)
        .and_then(|v| v.parse().ok())
        .expect("the static evaluation");
    assert!(white > 7.0 && (white + to_move).abs() < 0.005, "{out}");
    let plain = run("setoption name UCI_Variant value vyremorn
position startpos
eval
");
    assert!(!plain.contains("Terms in pawns"), "{plain}");
    assert!(plain.contains("Static evaluation: "), "{plain}");
}
