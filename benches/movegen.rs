//! Move generation speed: listing and counting the legal moves of typical
//! positions, and making every move (copy-make).

use criterion::{Criterion, criterion_group, criterion_main};
use ghast::game::{Game, History, MoveBuffer};
use ghast::variants::nimrod::{DragonNimrodCorner, Nimrod, NimrodCorner};
use std::hint::black_box;

/// Middlegame-like positions reached from the start arrays.
const NIMROD: [&str; 3] = [
    "whnqkanu/pppppppp/8/8/8/8/PPPPPPPP/WHNQKANU w KQkq - 0 1",
    "w1nqk1nu/1pp2ppp/p2p4/4p3/2P1P3/1P1P4/P4PPP/WH1QKANU w KQkq - 0 6",
    "2kq3u/1pp2ppp/p1n5/4p3/2P1P1n1/1P1P1N2/P3QPPP/1H2K2U w K - 2 12",
];
const CORNER: &str = "kynhp3/qppp4/mp6/ap5P/np4PH/p5PN/3PPPPY/2PNAMQK w - - 0 1";

fn bench_list<G: Game>(c: &mut Criterion, name: &str, fens: &[&str]) {
    let positions: Vec<G> = fens.iter().map(|f| G::from_fen(f).unwrap()).collect();
    let history = History::new();
    c.bench_function(&format!("{name}/legal_moves"), |b| {
        let mut moves = G::Moves::default();
        b.iter(|| {
            for p in &positions {
                p.legal_moves(&history, &mut moves);
                black_box(moves.len());
            }
        })
    });
    c.bench_function(&format!("{name}/count_legal_moves"), |b| {
        b.iter(|| {
            for p in &positions {
                black_box(p.count_legal_moves(&history));
            }
        })
    });
    c.bench_function(&format!("{name}/play_all"), |b| {
        let mut moves = G::Moves::default();
        b.iter(|| {
            for p in &positions {
                p.legal_moves(&history, &mut moves);
                for &m in moves.as_slice() {
                    black_box(p.play(m));
                }
            }
        })
    });
    c.bench_function(&format!("{name}/hash"), |b| {
        b.iter(|| {
            for p in &positions {
                black_box(p.hash());
            }
        })
    });
}

fn movegen(c: &mut Criterion) {
    bench_list::<Nimrod>(c, "nimrod", &NIMROD);
    bench_list::<NimrodCorner>(c, "nimrod-corner", &[CORNER]);
    bench_list::<DragonNimrodCorner>(c, "dragon-nimrod-corner", &[CORNER]);
}

criterion_group!(benches, movegen);
criterion_main!(benches);
