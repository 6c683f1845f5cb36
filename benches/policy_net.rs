//! The policy network's cost per position (criterion), batch 1 on one thread: the
//! shipped 19×19 net (`crates/knowledge/data/policy-19.safetensors`) on `BenchPosition::midgame19`,
//! whole (`evaluate`: the planes, the forward pass, the softmax) and the forward pass
//! alone (`logits_of_planes` on the same position's planes).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;
use tengen_board::Move;
use tengen_engine::bench::BenchPosition;
use tengen_knowledge::move_model::features::History;
use tengen_knowledge::{NetScratch, PLANE_COUNT, PlaneEncoder, PolicyNet, plane_bytes};

fn policy_net(c: &mut Criterion) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/knowledge/data/policy-19.safetensors");
    let net = PolicyNet::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut scratch = NetScratch::new(&net);
    let mid = BenchPosition::midgame19();
    let history = History {
        last: mid.last.map(Move::Play),
        before: None,
    };
    let out = net
        .evaluate(&mid.board, mid.to_move, &history, &mut scratch)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.top(1).len(), 1);
    c.bench_function("policy_net/evaluate/19x19/midgame19", |b| {
        b.iter(|| net.evaluate(black_box(&mid.board), mid.to_move, &history, &mut scratch))
    });
    let mut planes = vec![0; PLANE_COUNT * plane_bytes(19)];
    PlaneEncoder::new().encode(&mid.board, mid.to_move, &history, &mut planes);
    c.bench_function("policy_net/forward/19x19/midgame19", |b| {
        b.iter(|| {
            net.logits_of_planes(black_box(&planes), &mut scratch)
                .map(|l| l[0])
        })
    });
}

criterion_group!(benches, policy_net);
criterion_main!(benches);
