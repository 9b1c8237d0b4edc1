//! Perft speed from the start positions (bulk counting at the last ply).

use criterion::{Criterion, criterion_group, criterion_main};
use ghast::game::{Game, History};
use ghast::perft::perft;
use ghast::variants::nimrod::{DragonNimrod, DragonNimrodCorner, Nimrod, NimrodCorner};
use std::hint::black_box;

fn bench_perft<G: Game>(c: &mut Criterion, depth: u32) {
    let start = G::startpos();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function(format!("{}/{depth}", G::VARIANT), |b| {
        b.iter(|| black_box(perft(&start, &mut History::new(), depth).unwrap()))
    });
    group.finish();
}

fn perft_benches(c: &mut Criterion) {
    bench_perft::<Nimrod>(c, 4);
    bench_perft::<DragonNimrod>(c, 4);
    bench_perft::<NimrodCorner>(c, 4);
    bench_perft::<DragonNimrodCorner>(c, 4);
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
