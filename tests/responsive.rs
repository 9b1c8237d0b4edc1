//! The loop always listens (issue 14): during a long perft and after a
//! refused `EvalFile` or `Hash` the engine still answers at once, and
//! `quit` ends it.

mod common;

use common::{Engine, REPLY_TIMEOUT, spawn_ghast};
use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A perft that takes far longer than the test: it must not stop the loop.
const LONG_PERFT: &str = "go perft 9";

#[test]
fn isready_and_quit_are_answered_during_a_perft() {
    let (mut child, mut stdin, lines) = spawn_ghast(&[], Stdio::inherit());
    writeln!(stdin, "position startpos\n{LONG_PERFT}\nisready").unwrap();
    stdin.flush().unwrap();
    let (_, first) = lines.recv_timeout(REPLY_TIMEOUT).expect("a reply");
    assert_eq!(first, "readyok", "isready waits for nothing");
    // `stop` ends the count, which says so instead of giving a total.
    writeln!(stdin, "stop\nisready").unwrap();
    stdin.flush().unwrap();
    let (_, stopped) = lines.recv_timeout(REPLY_TIMEOUT).expect("a reply");
    assert_eq!(stopped, "info string error: go perft: perft stopped");
    let (_, ready) = lines.recv_timeout(REPLY_TIMEOUT).expect("a reply");
    assert_eq!(ready, "readyok");
    writeln!(stdin, "{LONG_PERFT}\nquit").unwrap();
    stdin.flush().unwrap();
    let deadline = Instant::now() + REPLY_TIMEOUT;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("quit was not honoured during a perft");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn refused_eval_files_and_tables_keep_the_engine_answering() {
    let mut e = Engine::start();
    for line in [
        "setoption name EvalFile value /dev/zero",
        "setoption name EvalFile value /dev/stdin",
        "setoption name Hash value 0",
        "setoption name Hash value 65537",
        "setoption name Threads value 0",
    ] {
        e.send(line);
        let (lines, _) = e.until(REPLY_TIMEOUT, |l| l.starts_with("info string error: "));
        assert_eq!(lines.len(), 1, "{line}: {lines:?}");
    }
    e.isready();
    e.send("go depth 2");
    e.until(REPLY_TIMEOUT, |l| l.starts_with("bestmove "));
    assert!(e.quiet_for(Duration::from_millis(100)).is_empty());
}

/// A perft depth out of range is refused before the next line is read, so
/// a `quit` straight after it cannot swallow the error.
#[test]
fn a_too_deep_perft_is_refused_at_once() {
    let (mut child, mut stdin, lines) = spawn_ghast(&[], Stdio::inherit());
    writeln!(stdin, "go perft 4294967295\nquit").unwrap();
    stdin.flush().unwrap();
    let (_, first) = lines.recv_timeout(REPLY_TIMEOUT).expect("a reply");
    assert!(
        first.starts_with("info string error: go perft: perft depth 4294967295 is too deep"),
        "{first}"
    );
    assert!(child.wait().unwrap().success());
}
