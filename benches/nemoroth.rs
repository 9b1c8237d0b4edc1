//! Nemoroth speed: listing the legal moves (every candidate is applied in
//! full), perft 3 from the start position, and the static evaluation.

use criterion::{Criterion, criterion_group, criterion_main};
use ghast::game::{Game, History, MoveBuffer};
use ghast::perft::perft;
use ghast::variants::nemoroth::{Nemoroth, eval::evaluate};
use std::hint::black_box;

const POSITIONS: [&str; 3] = [
    "walgblaw/hhhhhhhh/8/8/8/8/HHHHHHHH/WALGBLAW a - 0",
    "w1lgb1aw/hh2hhhh/2(Hh)pl4/3A4/4z3/2dL3Z1/HH1HH1HH/W2GB1AW a a3=10,g2=2 14",
    "2lgbl1w/1hhh1hhh/a3A3/3(Wz)4/1H2Z3/3M1pa2/H1HH1HpHH/W1LGB1A1 o b2=7 21",
];

fn benches(c: &mut Criterion) {
    let positions: Vec<Nemoroth> = POSITIONS
        .iter()
        .map(|f| Nemoroth::from_fen(f).unwrap())
        .collect();
    let history = History::new();
    c.bench_function("nemoroth/legal_moves", |b| {
        let mut moves = <Nemoroth as Game>::Moves::default();
        b.iter(|| {
            for p in &positions {
                p.legal_moves(&history, &mut moves);
                black_box(moves.len());
            }
        })
    });
    c.bench_function("nemoroth/perft3_start", |b| {
        let start = Nemoroth::startpos();
        b.iter(|| black_box(perft(&start, &mut History::new(), 3).unwrap()))
    });
    c.bench_function("nemoroth/eval", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(evaluate(black_box(p)));
            }
        })
    });
}

criterion_group!(nemoroth, benches);
criterion_main!(nemoroth);
