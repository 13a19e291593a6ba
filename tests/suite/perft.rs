//! Move generation against perft node counts: famous positions here, and the suites of
//! `../shared/data/perft` (`cargo test --release -- --ignored`).

use std::path::PathBuf;

use cqlq::each_position;
use cqlq::notation::sniff::read_position;
use cqlq::rules::classical::Board;
use cqlq::{AnyPosition, Variant};

fn board(line: &str, variant: Option<&'static Variant>) -> Board {
    let position = read_position(line, variant).unwrap_or_else(|e| panic!("{line}: {e}"));
    match &position {
        AnyPosition::W1(position) => Board::from_position(position),
        other => panic!("{line} is no 8x8 position: {}", each_position!(other, p => p.setup().variant.name)),
    }
}

#[test]
fn famous_positions() {
    let cases: &[(&str, &[u64])] = &[
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &[20, 400, 8902, 197_281]),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &[48, 2039, 97_862]),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &[14, 191, 2812, 43_238]),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", &[6, 264, 9467]),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", &[44, 1486, 62_379]),
        ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", &[46, 2079, 89_890]),
    ];
    for (fen, counts) in cases {
        let board = board(fen, None);
        for (depth, count) in counts.iter().enumerate() {
            assert_eq!(board.perft(depth as u32 + 1), *count, "{fen} at depth {}", depth + 1);
        }
    }
}

#[test]
fn chess960_and_crazyhouse() {
    let castles = board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", None);
    assert_eq!(castles.variant().name, "Chess960");
    assert_eq!((castles.perft(1), castles.perft(2), castles.perft(3)), (21, 528, 12_189));
    let drops = board("2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1", None);
    assert_eq!(drops.variant().name, "Crazyhouse");
    assert_eq!((drops.perft(1), drops.perft(2), drops.perft(3)), (67, 3083, 88_634));
}

struct Suite {
    positions: usize,
    nodes: u64,
}

/// Runs a perft file: for each `epd` line, every `perft D N` line up to `max_depth`.
fn run_suite(file: &str, variant: Option<&'static Variant>, max_depth: u32) -> Suite {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/perft").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut suite = Suite { positions: 0, nodes: 0 };
    let mut current: Option<(String, Board)> = None;
    for line in text.lines() {
        if let Some(epd) = line.strip_prefix("epd ") {
            current = Some((epd.to_owned(), board(epd, variant)));
            suite.positions += 1;
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut words = rest.split_whitespace();
            let depth: u32 = words.next().unwrap().parse().unwrap();
            let expected: u64 = words.next().unwrap().parse().unwrap();
            if depth <= max_depth {
                let (epd, board) = current.as_ref().expect("perft after epd");
                assert_eq!(board.perft(depth), expected, "{file}: {epd} at depth {depth}");
                suite.nodes += expected;
            }
        }
    }
    suite
}

#[test]
#[ignore = "needs ../shared/data"]
fn suite_random() {
    let suite = run_suite("random.perft", Some(Variant::standard()), 3);
    assert_eq!(suite.positions, 6838);
    println!("random: {} positions, {} nodes", suite.positions, suite.nodes);
}

#[test]
#[ignore = "needs ../shared/data"]
fn suite_tricky() {
    let suite = run_suite("tricky.perft", None, 4);
    println!("tricky: {} positions, {} nodes", suite.positions, suite.nodes);
}

#[test]
#[ignore = "needs ../shared/data"]
fn suite_chess960() {
    let suite = run_suite("chess960.perft", Some(Variant::by_name("Chess960").unwrap()), 3);
    assert_eq!(suite.positions, 960);
    println!("chess960: {} positions, {} nodes", suite.positions, suite.nodes);
}

#[test]
#[ignore = "needs ../shared/data"]
fn suite_crazyhouse() {
    let suite = run_suite("crazyhouse.perft", Some(Variant::by_name("Crazyhouse").unwrap()), 4);
    println!("crazyhouse: {} positions, {} nodes", suite.positions, suite.nodes);
}
