//! Square-set operations on 8x8 (one word) against plain `u64` arithmetic, with 26x26 (eleven
//! words) beside them. Each benchmark runs over the same 1024 random pairs of sets.
//!
//! `cargo bench --bench masks`

use std::hint::black_box;

use cqlq::board::{Direction, Geometry, Masks, Square, SquareSet};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const PAIRS: usize = 1024;

fn random_words(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

fn u64_pairs() -> Vec<(u64, u64)> {
    let mut seed = 0x9E37_79B9_7F4A_7C15;
    (0..PAIRS).map(|_| (random_words(&mut seed) & random_words(&mut seed), random_words(&mut seed))).collect()
}

fn set_pairs<const W: usize>(geometry: Geometry) -> Vec<(SquareSet<W>, SquareSet<W>)> {
    let masks = Masks::<W>::new(geometry).unwrap();
    let mut seed = 0x9E37_79B9_7F4A_7C15;
    let mut random_set = || {
        let mut words = [0u64; W];
        for word in &mut words {
            *word = random_words(&mut seed) & random_words(&mut seed);
        }
        SquareSet::from_words(words) & masks.full()
    };
    (0..PAIRS).map(|_| (random_set(), random_set())).collect()
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

fn boolean_algebra(c: &mut Criterion) {
    let mut group = c.benchmark_group("and-or-andnot-count");
    group.throughput(Throughput::Elements(PAIRS as u64));
    let plain = u64_pairs();
    group.bench_function("u64", |b| {
        b.iter(|| black_box(&plain).iter().map(|&(x, y)| ((x & y) | (x & !y)).count_ones() as usize).sum::<usize>())
    });
    let small = set_pairs::<1>(Geometry::new(8, 8).unwrap());
    group.bench_function("SquareSet 8x8", |b| {
        b.iter(|| black_box(&small).iter().map(|&(x, y)| ((x & y) | (x - y)).count()).sum::<usize>())
    });
    let big = set_pairs::<11>(Geometry::new(26, 26).unwrap());
    group.bench_function("SquareSet 26x26", |b| {
        b.iter(|| black_box(&big).iter().map(|&(x, y)| ((x & y) | (x - y)).count()).sum::<usize>())
    });
    group.finish();
}

fn iteration(c: &mut Criterion) {
    let mut group = c.benchmark_group("iterate-squares");
    group.throughput(Throughput::Elements(PAIRS as u64));
    let plain = u64_pairs();
    group.bench_function("u64", |b| {
        b.iter(|| {
            let mut sum = 0usize;
            for &(mut x, _) in black_box(&plain) {
                while x != 0 {
                    sum += x.trailing_zeros() as usize;
                    x &= x - 1;
                }
            }
            sum
        })
    });
    let small = set_pairs::<1>(Geometry::new(8, 8).unwrap());
    group.bench_function("SquareSet 8x8", |b| {
        b.iter(|| black_box(&small).iter().flat_map(|(x, _)| x.iter()).map(Square::index).sum::<usize>())
    });
    let big = set_pairs::<11>(Geometry::new(26, 26).unwrap());
    group.bench_function("SquareSet 26x26", |b| {
        b.iter(|| black_box(&big).iter().flat_map(|(x, _)| x.iter()).map(Square::index).sum::<usize>())
    });
    group.finish();
}

fn shifts(c: &mut Criterion) {
    let mut group = c.benchmark_group("shift-north-east-complement");
    group.throughput(Throughput::Elements(PAIRS as u64));
    let plain = u64_pairs();
    group.bench_function("u64", |b| {
        b.iter(|| {
            black_box(&plain)
                .iter()
                .map(|&(x, _)| (!((x << 8) | ((x << 1) & !FILE_A))).count_ones() as usize)
                .sum::<usize>()
        })
    });
    let geometry = Geometry::new(8, 8).unwrap();
    let masks = Masks::<1>::new(geometry).unwrap();
    let small = set_pairs::<1>(geometry);
    group.bench_function("SquareSet 8x8", |b| {
        b.iter(|| {
            black_box(&small)
                .iter()
                .map(|&(x, _)| {
                    masks.complement(masks.shift(x, Direction::North) | masks.shift(x, Direction::East)).count()
                })
                .sum::<usize>()
        })
    });
    let geometry = Geometry::new(26, 26).unwrap();
    let masks = Masks::<11>::new(geometry).unwrap();
    let big = set_pairs::<11>(geometry);
    group.bench_function("SquareSet 26x26", |b| {
        b.iter(|| {
            black_box(&big)
                .iter()
                .map(|&(x, _)| {
                    masks.complement(masks.shift(x, Direction::North) | masks.shift(x, Direction::East)).count()
                })
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50).measurement_time(std::time::Duration::from_secs(3));
    targets = boolean_algebra, iteration, shifts
}
criterion_main!(benches);
