//! Evaluation speed: the static evaluation of the start positions of
//! `nimrod` and `nimrod-corner` and of a middlegame position.

use criterion::{Criterion, criterion_group, criterion_main};
use ghast::game::Game;
use ghast::variants::nimrod::eval::evaluate;
use ghast::variants::nimrod::{Flavor, Nimrod, NimrodCorner, Position};
use std::hint::black_box;

const MIDDLEGAME: &str = "2kq3u/1pp2ppp/p1n5/4p3/2P1P1n1/1P1P1N2/P3QPPP/1H2K2U w K - 2 12";

fn bench_one<F: Flavor>(c: &mut Criterion, name: &str, pos: Position<F>) {
    // Build the lazily initialised tables before timing.
    black_box(evaluate(&pos));
    c.bench_function(name, |b| b.iter(|| evaluate(black_box(&pos))));
}

fn benches(c: &mut Criterion) {
    bench_one(c, "eval/nimrod/startpos", Nimrod::startpos());
    bench_one(c, "eval/nimrod-corner/startpos", NimrodCorner::startpos());
    bench_one(
        c,
        "eval/nimrod/middlegame",
        <Nimrod as Game>::from_fen(MIDDLEGAME).unwrap(),
    );
}

criterion_group!(eval, benches);
criterion_main!(eval);
