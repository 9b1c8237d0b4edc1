//! Position strings of every variant through the library: bad input of
//! every kind gets a reason and never a panic (issue 14: F1, the move
//! counters, F3's perft depth), the counters follow one rule in every
//! variant (protocol.md, "Positions and moves"), and every string a parser
//! accepts (mutations of the suites' positions, random legal playouts)
//! prints back to the same position and searches to depth 1.

use ghast::game::{Game, GameState, History, MAX_MOVE_COUNTER, MoveBuffer};
use ghast::perft::{self, MAX_PERFT_DEPTH};
use ghast::search::{self, Limits, Memory, SEARCH_STACK_BYTES, SearchKind};
use ghast::variants::nemoroth::Nemoroth;
use ghast::variants::nimrod::{DragonNimrod, DragonNimrodCorner, Nimrod, NimrodCorner};
use ghast::variants::vyremorn::Vyremorn;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::sync::atomic::AtomicBool;

/// A Vyrémorn position with nothing but the Kings.
const VYREMORN_KINGS: &str = "8k/9/9/13/13/13/13/13/13/9/9/K8 w - 0 1";
/// A Nimrod position with nothing but the Kings.
const NIMROD_KINGS: &str = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
/// A Nemoroth position with one Human each.
const NEMOROTH_HUMANS: &str = "8/3h4/8/8/8/8/3H4/8 a - 0";

fn reason<G: Game>(text: &str) -> String {
    match G::from_fen(text) {
        Ok(p) => panic!("{}: accepted {text:?} as {}", G::VARIANT, p.to_fen()),
        Err(e) => e.0,
    }
}

fn assert_refused<G: Game>(text: &str, expected: &str) {
    let got = reason::<G>(text);
    assert!(
        got.contains(expected),
        "{}: {text:?}: '{got}' does not say '{expected}'",
        G::VARIANT
    );
}

/// `fen` with its last `n` fields replaced by `fields`.
fn with_tail(fen: &str, n: usize, fields: &[&str]) -> String {
    let mut words: Vec<&str> = fen.split_whitespace().collect();
    words.truncate(words.len() - n);
    words.extend_from_slice(fields);
    words.join(" ")
}

#[test]
fn vyremorn_rights_starting_with_a_wide_character_are_refused() {
    // F1: the rights field was sliced by bytes.
    for rights in [
        "\u{2654}",
        "\u{e9}",
        "b1\u{2654}",
        "\u{2654}\u{2654}\u{2654}",
        "b\u{2654}",
    ] {
        let fen = format!("8k/9/9/13/13/13/13/13/13/9/9/KP7 w {rights} 0 1");
        assert_refused::<Vyremorn>(&fen, "is not a square");
    }
    // The placement names a wide character as it is, not by its first byte.
    assert_refused::<Vyremorn>(
        "8k/9/9/13/13/13/13/13/13/9/9/\u{2654}8 w - 0 1",
        "unknown piece letter '\u{2654}'",
    );
    assert_refused::<Nemoroth>(
        "8/3h4/8/8/8/8/3H4/\u{2654}7 a - 0",
        "unknown piece letter '\u{2654}'",
    );
    assert_refused::<Nemoroth>(
        "8/3h4/8/8/8/8/3H4/(H\u{2654})7 a - 0",
        "unknown piece letter '\u{2654}'",
    );
}

#[test]
fn vyremorn_rights_with_two_digit_ranks_still_parse() {
    let p = Vyremorn::startpos();
    let again = Vyremorn::from_fen(&p.to_fen()).unwrap();
    assert_eq!(again, p);
    assert!(p.to_fen().contains("h10i10"), "{}", p.to_fen());
}

/// Every variant's counters: `counters(clock, fullmove)` gives the tail of
/// a position string, `fields` how many fields it replaces.
fn check_counters<G: Game>(base: &str, fields: usize, fullmove_min: u32, names: [&str; 2]) {
    let tail = |clock: &str, fullmove: &str| -> String {
        if fields == 2 {
            with_tail(base, 2, &[clock, fullmove])
        } else {
            with_tail(base, 1, &[fullmove])
        }
    };
    let max = MAX_MOVE_COUNTER.to_string();
    let over = (MAX_MOVE_COUNTER as u64 + 1).to_string();
    let huge = "4294967295";
    let below = (fullmove_min as i64 - 1).to_string();
    // Out of range: said so, naming the field.
    for bad in [over.as_str(), huge, "99999999999999999999999"] {
        assert_refused::<G>(
            &tail("0", bad),
            &format!("{} '{bad}' is out of range", names[1]),
        );
        if fields == 2 {
            assert_refused::<G>(
                &tail(bad, "1"),
                &format!("{} '{bad}' is out of range", names[0]),
            );
        }
    }
    if fullmove_min > 0 {
        assert_refused::<G>(&tail("0", &below), "is out of range");
    }
    // Not numbers.
    for bad in ["-1", "+5", "x", "1.5", "\u{661}"] {
        assert_refused::<G>(
            &tail("0", bad),
            &format!("{} '{bad}' is not a number", names[1]),
        );
    }
    // Large but in range: kept exactly, and counting goes on past 65535.
    let p = G::from_fen(&tail("0", &max)).unwrap();
    assert_eq!(G::from_fen(&p.to_fen()).unwrap().to_fen(), p.to_fen());
    assert!(p.to_fen().ends_with(&max), "{}", p.to_fen());
    let mut position = G::from_fen(&tail("0", "65535")).unwrap();
    // Two plies: every counter (fullmove after Black, plies after each) moves.
    for _ in 0..2 {
        let mut moves = G::Moves::default();
        position.legal_moves(&History::new(), &mut moves);
        let mv = moves.as_slice()[0];
        position = position.play(mv);
    }
    let fen = position.to_fen();
    let last: u32 = fen.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(
        last > 65535,
        "{}: counter did not move on: {fen}",
        G::VARIANT
    );
}

#[test]
fn move_counters_follow_one_rule_in_every_variant() {
    let names = ["halfmove clock", "fullmove number"];
    check_counters::<Nimrod>(NIMROD_KINGS, 2, 1, names);
    check_counters::<DragonNimrod>(NIMROD_KINGS, 2, 1, names);
    check_counters::<NimrodCorner>(NIMROD_KINGS, 2, 1, names);
    check_counters::<DragonNimrodCorner>(NIMROD_KINGS, 2, 1, names);
    check_counters::<Vyremorn>(VYREMORN_KINGS, 2, 1, ["capture clock", "fullmove number"]);
    check_counters::<Nemoroth>(NEMOROTH_HUMANS, 1, 0, ["plies", "plies"]);
}

#[test]
fn fullmove_zero_is_refused_everywhere() {
    assert_refused::<Nimrod>(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
        "fullmove number '0' is out of range",
    );
    assert_refused::<Vyremorn>(
        "8k/9/9/13/13/13/13/13/13/9/9/K8 w - 0 0",
        "fullmove number '0' is out of range",
    );
}

fn check_perft_depth<G: Game>() {
    let p = G::startpos();
    for depth in [MAX_PERFT_DEPTH + 1, 65_536, 100_000, u32::MAX] {
        let e = perft::perft(&p, &mut History::new(), depth).unwrap_err();
        assert!(e.0.contains("too deep"), "{}: {e}", G::VARIANT);
        let e = perft::divide(
            &p,
            &History::new(),
            depth,
            1,
            &|_, _, _| {},
            &AtomicBool::new(false),
        )
        .unwrap_err();
        assert!(
            e.0.contains(&format!("at most {MAX_PERFT_DEPTH}")),
            "{}: {e}",
            G::VARIANT
        );
    }
    assert_eq!(
        perft::perft(&p, &mut History::new(), 1).unwrap(),
        p.count_legal_moves(&History::new())
    );
}

#[test]
fn perft_refuses_depths_beyond_its_maximum() {
    // F3: `go perft 100000` overflowed the stack.
    check_perft_depth::<Nimrod>();
    check_perft_depth::<NimrodCorner>();
    check_perft_depth::<DragonNimrod>();
    check_perft_depth::<DragonNimrodCorner>();
    check_perft_depth::<Vyremorn>();
    check_perft_depth::<Nemoroth>();
}

#[test]
fn perft_at_the_maximum_depth_runs_where_it_ends_quickly() {
    // Checkmate: no moves at the root, so the deepest allowed perft is instant.
    let mated = Nimrod::from_fen("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(
        perft::perft(&mated, &mut History::new(), MAX_PERFT_DEPTH).unwrap(),
        0
    );
}

// ---------------------------------------------------------------------------
// Properties of every accepted position string
// ---------------------------------------------------------------------------

/// Mutated positions tried per variant (most are refused).
const MUTATIONS_PER_VARIANT: usize = 600;
/// Random legal playouts per variant, and their longest length.
const PLAYOUTS_PER_VARIANT: usize = 12;
const PLAYOUT_PLIES: usize = 40;
/// A hang guard for the depth-1 search, far above what depth 1 needs in
/// any position of the suites.
const DEPTH_ONE_NODE_GUARD: u64 = 5_000_000;
/// Characters the mutations insert.
const MUTATION_CHARS: &str =
    "pnhauwmyqkcdfgjozbrlePNHAUWMYQKCDFGJOZBRLE0123456789/ -+^()@=,wbao\u{e9}\u{2654}";

/// The positions of a variant's perft suite and openings file.
fn suite_positions(variant: &str) -> Vec<String> {
    let mut out = Vec::new();
    for ext in ["perft", "openings"] {
        let path = format!("{}/positions/{variant}.{ext}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        out.extend(
            text.lines()
                .map(|l| l.split(';').next().unwrap_or("").trim().to_string())
                .filter(|l| !l.is_empty() && !l.starts_with('#')),
        );
    }
    out
}

/// 1-3 character edits of `text`.
fn mutate(rng: &mut StdRng, text: &str) -> String {
    let alphabet: Vec<char> = MUTATION_CHARS.chars().collect();
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..=3) {
        let i = rng.random_range(0..=chars.len());
        let c = alphabet[rng.random_range(0..alphabet.len())];
        match rng.random_range(0..3) {
            0 if i < chars.len() => chars[i] = c,
            1 if i < chars.len() => {
                chars.remove(i);
            }
            _ => chars.insert(i, c),
        }
    }
    chars.into_iter().collect()
}

/// An accepted position prints back to itself (same value, same hash) and
/// a depth-1 search of it completes with a legal move when there is one.
/// A position reached by play (`parsed` false) may carry state the string
/// leaves out on purpose (Nimrod keeps an e.p. square no Pawn can use), so
/// there the string and the hash must agree, and the parsed copy must be
/// a fixed point.
fn check_accepted<G: Game + PartialEq + std::fmt::Debug>(p: &G, source: &str, parsed: bool) {
    let fen = p.to_fen();
    let again = G::from_fen(&fen)
        .unwrap_or_else(|e| panic!("{}: {fen:?} (from {source:?}) is refused: {e}", G::VARIANT));
    if parsed {
        assert_eq!(&again, p, "{}: {source:?} does not round-trip", G::VARIANT);
    } else {
        let fixed = G::from_fen(&again.to_fen());
        assert_eq!(fixed.as_ref(), Ok(&again), "{}: {fen}", G::VARIANT);
    }
    assert_eq!(
        again.hash(),
        p.hash(),
        "{}: {source:?}: hash changes",
        G::VARIANT
    );
    assert_eq!(again.to_fen(), fen);

    let state = GameState::<G>::from_setup(Some(&fen), &[]).unwrap();
    let limits = Limits {
        depth: Some(1),
        nodes: Some(DEPTH_ONE_NODE_GUARD),
        ..Limits::default()
    };
    let mut table = Memory::new(SearchKind::AlphaBeta, 1).unwrap();
    let outcome = search::search_with_defaults(&state, &limits, &mut table);
    let mut legal = G::Moves::default();
    state.position.legal_moves(&state.history, &mut legal);
    if legal.is_empty() {
        assert!(
            outcome.best.is_none(),
            "{}: {fen}: a move without legal moves",
            G::VARIANT
        );
        return;
    }
    assert!(
        outcome.nodes < DEPTH_ONE_NODE_GUARD && outcome.depth >= 1,
        "{}: depth 1 did not complete on {fen} ({} nodes, depth {})",
        G::VARIANT,
        outcome.nodes,
        outcome.depth
    );
    let best = outcome
        .best
        .unwrap_or_else(|| panic!("{}: no move on {fen}", G::VARIANT));
    assert!(
        legal.as_slice().contains(&best),
        "{}: illegal best move on {fen}",
        G::VARIANT
    );
}

fn check_properties<G: Game + PartialEq + std::fmt::Debug>(seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let positions = suite_positions(G::VARIANT);
    let mut accepted = 0;
    for _ in 0..MUTATIONS_PER_VARIANT {
        let base = &positions[rng.random_range(0..positions.len())];
        let text = mutate(&mut rng, base);
        if let Ok(p) = G::from_fen(&text) {
            accepted += 1;
            check_accepted(&p, &text, true);
        }
    }
    for _ in 0..PLAYOUTS_PER_VARIANT {
        let base = &positions[rng.random_range(0..positions.len())];
        let mut p = G::from_fen(base).unwrap();
        let mut history = History::new();
        for _ in 0..PLAYOUT_PLIES {
            let mut moves = G::Moves::default();
            p.legal_moves(&history, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[rng.random_range(0..moves.len())];
            history.push(p.repetition_key());
            p = p.play(mv);
            accepted += 1;
            check_accepted(&p, base, false);
        }
    }
    accepted
}

/// Runs `f` on a thread with the search's stack, as the engine does.
fn on_search_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(SEARCH_STACK_BYTES)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

#[test]
fn accepted_positions_round_trip_and_search_to_depth_one() {
    on_search_stack(|| {
        let counts = [
            check_properties::<Nimrod>(1),
            check_properties::<NimrodCorner>(2),
            check_properties::<DragonNimrod>(3),
            check_properties::<DragonNimrodCorner>(4),
            check_properties::<Vyremorn>(5),
            check_properties::<Nemoroth>(6),
        ];
        // Mutations and playouts reach many positions in every variant.
        for (variant, n) in ghast::registry::NAMES.iter().zip(counts) {
            assert!(n > 100, "{variant}: only {n} positions checked");
        }
    });
}

/// Issue 14, F6 (search, H2): legal but crowded positions whose depth-1
/// search exploded in quiescence (now bounded, `qsearch_max_depth` and
/// `qsearch_max_moves`).
#[test]
fn crowded_positions_search_to_depth_one() {
    on_search_stack(|| {
        let nimrod = "qqqqkqqq/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQKQQQ w - - 0 1";
        check_accepted(&Nimrod::from_fen(nimrod).unwrap(), nimrod, true);
        for zombies in [
            "zzzzzzzz/zzzzzzzz/zzzzzzzz/zzzzzzzz/ZZZZZZZZ/ZZZZZZZZ/ZZZZZZZZ/ZZZZZZZZ a - 0",
            "llllllll/llllllll/llllllll/llllllll/LLLLLLLL/LLLLLLLL/LLLLLLLL/LLLLLLLL a - 0",
        ] {
            check_accepted(&Nemoroth::from_fen(zombies).unwrap(), zombies, true);
        }
    });
}
