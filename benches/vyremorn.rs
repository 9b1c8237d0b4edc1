//! Vyrémorn speed: legal move generation, perft 3 from the start position
//! (bulk counting at the last ply) and the static evaluation.

use criterion::{Criterion, criterion_group, criterion_main};
use ghast::game::{Game, History, MoveBuffer};
use ghast::perft::perft;
use ghast::variants::vyremorn::{Moves, Vyremorn, eval::evaluate};
use std::hint::black_box;

/// The start position and two positions from seeded random games.
const FENS: [&str; 3] = [
    ghast::variants::vyremorn::START_FEN,
    "p4rgmk/1pdp1b1cq/3dpnwbf/6e3ne1/P9pnr/PD8d2/1P1W8p/11pp/RENN5d3/FQG1PD3/1A1B2DP1/1MK1R1P1P w g1g2e3f3m5b6m6a7b7k7a8k8h10i10g11h11 5 21",
    "1pp1wrgmk/2dpnb2q/3dpe1bf/11er/P1D6d1nw/P6p2dn1/1PD1D7p/WA4ND2p2/RE6R2p1/FBB6/Q1E1NP1P1/K1M1W2P1 w f2b6c6m6a7k7a8j8h10i10g11h11f12g12 1 26",
];

fn benches(c: &mut Criterion) {
    let positions: Vec<Vyremorn> = FENS
        .iter()
        .map(|f| Vyremorn::from_fen(f).unwrap())
        .collect();
    let history = History::new();
    c.bench_function("vyremorn/legal_moves", |b| {
        let mut moves = Moves::new();
        b.iter(|| {
            for p in &positions {
                p.legal_moves(&history, &mut moves);
                black_box(moves.len());
            }
        })
    });
    let start = Vyremorn::startpos();
    let mut group = c.benchmark_group("vyremorn");
    group.sample_size(10);
    group.bench_function("perft/3", |b| {
        b.iter(|| black_box(perft(&start, &mut History::new(), 3)))
    });
    group.finish();
    black_box(evaluate(&start));
    c.bench_function("vyremorn/eval", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(evaluate(black_box(p)));
            }
        })
    });
}

criterion_group!(vyremorn, benches);
criterion_main!(vyremorn);
