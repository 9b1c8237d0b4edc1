//! The XBoard/WinBoard protocol (CECP v2, protocol.md "CECP"), driven
//! through the real binary as XBoard drives it: line by line, waiting for
//! the replies that matter.

mod common;

use common::spawn_ghast;
use std::io::Write;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
    /// Every line read so far.
    seen: Vec<String>,
}

impl Engine {
    /// `ghast xboard`, or plain `ghast` (the first line selects CECP).
    fn start(subcommand: bool) -> Engine {
        let args: &[&str] = if subcommand { &["xboard"] } else { &[] };
        let (child, stdin, lines) = spawn_ghast(args, Stdio::null());
        Engine {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads until a line satisfies `pred`; returns the lines read.
    fn until(&mut self, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((_, line)) => {
                    self.seen.push(line.clone());
                    let done = pred(&line);
                    got.push(line);
                    if done {
                        return got;
                    }
                }
                Err(_) => panic!("timed out; read so far:\n{}", self.seen.join("\n")),
            }
        }
    }

    /// `ping N` / `pong N`: everything before has been handled.
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let want = format!("pong {n}");
        self.until(|l| l == want)
    }

    fn handshake(&mut self) -> Vec<String> {
        self.send("xboard");
        self.send("protover 2");
        self.until(|l| l.contains("done=1"))
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "ghast did not quit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

#[test]
fn feature_handshake() {
    for subcommand in [true, false] {
        let mut e = Engine::start(subcommand);
        let lines = e.handshake();
        let features = lines.join(" ");
        for f in [
            "myname=\"ghast",
            "variants=\"nimrod,nimrod-corner,dragon-nimrod,dragon-nimrod-corner,vyremorn,nemoroth\"",
            "setboard=1",
            "usermove=1",
            "ping=1",
            "memory=1",
            "smp=1",
            "colors=0",
            "sigint=0",
            "sigterm=0",
            "highlight=1",
            "analyze=1",
            "done=1",
        ] {
            assert!(features.contains(f), "{f} missing in {features}");
        }
        for l in &lines {
            assert!(l.starts_with("feature "), "{l}");
        }
        e.quit();
    }
}

#[test]
fn setup_and_piece_commands_per_variant() {
    let cases: [(&str, &str, &[&str]); 5] = [
        (
            "nimrod",
            "setup (PNAHQ..WU............Kpnahq..wu............k) 8x8+0_fairy whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1",
            &[
                "piece H& fRbB",
                "piece A& fBbR",
                "piece U& fsRbB",
                "piece W& bsRfB",
                "piece K& KisO2",
            ],
        ),
        (
            "nimrod-corner",
            "setup (PNAHQ..YM............Kpnahq..ym............k) 8x8+0_fairy kynhp3/qppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK w - - 0 1",
            &[
                "piece P& mflWcflF",
                "piece H& flRbrB",
                "piece A& flBbrR",
                "piece M& flRfrBbB",
                "piece Y& fBblBbrR",
                "piece K& K",
            ],
        ),
        (
            "dragon-nimrod",
            "setup (PNAHQ..WU...CFD...JG.Kpnahq..wu...cfd...jg.k) 8x8+0_fairy whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1",
            &[
                "piece C& KN",
                "piece D& fRbBbsWfF",
                "piece F& fBbRfsWbF",
                "piece G& fsRbBbWfF",
                "piece J& bsRfBfWbF",
            ],
        ),
        (
            "dragon-nimrod-corner",
            "setup (PNAHQ..YM...CFD...ZO.Kpnahq..ym...cfd...zo.k) 8x8+0_fairy kynhp3/qppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK w - - 0 1",
            &[
                "piece C& KN",
                "piece D& flRbrBbrWfFblF",
                "piece F& flBbrRflWfrFbF",
                "piece O& flRfrBbBbrWflF",
                "piece Z& fBblBbrRflWbrF",
            ],
        ),
        (
            "vyremorn",
            "setup (PNBRQFEACWMGD........Kpnbrqfeacwmgd........k) 13x12+0_fairy ****1pp1wrgmk/****2dpnbecq/****3dpnabf/9aner/P8dpnw/PD8dp1/1PD8dp/WNPD8p/RENA9/FBANPD3****/QCEBNPD2****/KMGRW1PP1**** w - - 0 1",
            &[],
        ),
    ];
    let mut e = Engine::start(true);
    e.handshake();
    for (i, (variant, setup, pieces)) in cases.iter().enumerate() {
        e.send("new");
        e.send(&format!("variant {variant}"));
        let lines = e.sync(i as u32);
        assert!(lines.iter().any(|l| l == setup), "{variant}: {lines:?}");
        for p in *pieces {
            assert!(lines.iter().any(|l| l == p), "{variant}: {p} in {lines:?}");
        }
        if pieces.is_empty() {
            assert!(!lines.iter().any(|l| l.starts_with("piece ")), "{lines:?}");
        }
    }
    // Nemoroth cannot be shown: refused with a reason, engine still alive.
    e.send("variant nemoroth");
    let lines = e.sync(99);
    assert!(
        lines.iter().any(|l| l.starts_with("telluser ")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Error (variant not playable in XBoard)")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn force_mode_game_then_go() {
    let mut e = Engine::start(true);
    e.handshake();
    e.send("new");
    e.send("variant dragon-nimrod");
    e.send("force");
    // 1.b3 g6 2.Wxh8 (compulsory dragon promotion, XBoard writes a1h8j).
    for m in ["b2b3", "g7g6", "a1h8j"] {
        e.send(&format!("usermove {m}"));
    }
    let lines = e.sync(1);
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("Illegal") || l.starts_with("move ")),
        "{lines:?}"
    );
    e.send("d");
    let lines = e.sync(2);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Fen: whnqkanJ/pppppp1p/6p1/8/8/1P6/P1PPPPPP/1HNQKANU b Kq - 0 2")),
        "{lines:?}"
    );
    // Now ghast plays Black.
    e.send("level 40 1 0");
    e.send("time 1000");
    e.send("otim 1000");
    e.send("go");
    let lines = e.until(|l| l.starts_with("move "));
    let mv = lines.last().unwrap()["move ".len()..].to_string();
    assert!(mv.len() >= 4, "{mv}");
    // It is White's turn: the engine waits for a user move.
    e.send("usermove e2e3");
    let lines = e.until(|l| l.starts_with("move ") || l.starts_with("Illegal"));
    assert!(lines.last().unwrap().starts_with("move "), "{lines:?}");
    e.quit();
}

#[test]
fn engine_plays_a_whole_game_to_a_result() {
    // Fool's-mate-like position: Black mates at once.
    let mut e = Engine::start(true);
    e.handshake();
    e.send("new");
    e.send("variant nimrod");
    e.send("force");
    e.send("setboard 7k/8/8/8/8/8/q4PPP/6K1 b - - 0 1");
    e.send("sd 3");
    e.send("go");
    let lines = e.until(|l| l.starts_with("0-1") || l.starts_with("1-0") || l.starts_with("1/2"));
    let n = lines.len();
    assert!(lines[n - 2].starts_with("move "), "{lines:?}");
    assert_eq!(lines[n - 1], "0-1 {Black mates}");
    // Game over: further moves are refused, go plays nothing.
    e.send("usermove g1f1");
    let lines = e.sync(7);
    assert!(
        lines.iter().any(|l| l.starts_with("Illegal move")),
        "{lines:?}"
    );
    e.send("go");
    let lines = e.sync(8);
    assert!(
        lines.iter().any(|l| l == "Error (game is over): go"),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn analysis_mode_thinks_and_follows_moves() {
    let mut e = Engine::start(true);
    e.handshake();
    e.send("new");
    e.send("variant nimrod-corner");
    e.send("post");
    e.send("analyze");
    // Thinking output: ply score time nodes pv.
    let lines = e.until(|l| l.starts_with("3 "));
    let fields: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert!(fields.len() >= 5, "{lines:?}");
    for f in &fields[1..4] {
        assert!(f.parse::<i64>().is_ok(), "{lines:?}");
    }
    e.send("usermove e2e3");
    e.send("undo");
    e.send("usermove h3f4");
    e.send(".");
    let lines = e.sync(3);
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("move ") || l.starts_with("Error")),
        "{lines:?}"
    );
    e.send("exit");
    e.send("d");
    let lines = e.sync(4);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Fen:") && l.contains(" b - ")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn undo_remove_and_ping() {
    let mut e = Engine::start(false);
    e.handshake();
    e.send("new");
    e.send("variant nimrod");
    e.send("force");
    for m in ["e2e4", "e7e5", "g1f3", "g8f6"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("remove");
    e.send("undo");
    e.send("d");
    let lines = e.sync(5);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Fen: whnqkanu/pppppppp/8/8/4P3/8/PPPP1PPP/WHNQKANU b KQkq - 0 1")),
        "{lines:?}"
    );
    e.send("undo");
    e.send("undo");
    e.send("undo");
    let lines = e.sync(6);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Error (no move to undo)")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn highlights_and_promotion_choices() {
    let mut e = Engine::start(true);
    e.handshake();
    e.send("new");
    e.send("variant nimrod");
    e.send("force");
    e.send("setboard w3k2u/1P4P1/8/8/8/8/1p4p1/W3K2U w - - 0 1");
    e.send("lift b7");
    e.send("put b8");
    let lines = e.sync(1);
    assert!(
        lines.iter().any(|l| l == "highlight MM6/8/8/8/8/8/8/8"),
        "{lines:?}"
    );
    let choice = lines
        .iter()
        .find(|l| l.starts_with("choice "))
        .expect("choice");
    assert!(choice.starts_with("choice Q"), "{choice}");
    for c in ['A', 'H', 'N', 'U', 'W'] {
        assert!(choice.contains(c), "{choice}");
    }
    e.send("usermove b7b8u");
    e.send("d");
    let lines = e.sync(2);
    assert!(
        lines.iter().any(|l| l.contains("Fen: wU2k2u/6P1/")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn bad_input_never_stops_the_engine() {
    let mut e = Engine::start(true);
    e.handshake();
    e.send("new");
    e.send("variant nimrod");
    e.send("force");
    for bad in [
        "frobnicate",
        "usermove",
        "usermove e2e5",
        "usermove zz",
        "usermove e2",
        "variant chess",
        "setboard 8/8/8 w - - 0 1",
        "setboard",
        "level x y z",
        "st -1",
        "sd abc",
        "time",
        "memory 0",
        "cores x",
        "lift z9",
        "put",
        "undo",
        "",
        "   ",
    ] {
        e.send(bad);
    }
    e.send_bytes(b"\xff\xfe garbage\n");
    let lines = e.sync(9);
    assert!(
        lines
            .iter()
            .any(|l| l == "Error (unknown command): frobnicate"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Illegal move (") && l.ends_with(": e2e5")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("tellusererror Illegal position")),
        "{lines:?}"
    );
    // Still alive and still in the start position.
    e.send("usermove e2e4");
    e.send("d");
    let lines = e.sync(10);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Fen: whnqkanu/pppppppp/8/8/4P3/")),
        "{lines:?}"
    );
    e.quit();
}

/// `eval` answers with the static evaluation as a comment line, from the
/// side to move's view.
#[test]
fn eval_is_a_comment_line() {
    let mut e = Engine::start(false);
    e.handshake();
    e.send("new");
    e.send("variant nimrod");
    e.send("force");
    e.send("setboard whn1kanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1");
    e.send("eval");
    let lines = e.sync(7);
    let line = lines
        .iter()
        .find_map(|l| l.strip_prefix("# Static evaluation: "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    let pawns: f64 = line
        .split(' ')
        .next()
        .and_then(|v| v.parse().ok())
        .expect(line);
    assert!(pawns > 7.0, "{line}");
    // The term table before it is made of comment lines too.
    assert!(
        lines.iter().any(|l| l.starts_with("# King danger")),
        "{lines:?}"
    );
    e.quit();
}
