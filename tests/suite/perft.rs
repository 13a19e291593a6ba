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

// ---------------------------------------------------------------------------------------------
// The lichess variants.

use cqlq::rules::classical::lichess::{Antichess, Atomic, Horde, KingOfTheHill, RacingKings, RuleSet, ThreeCheck};

fn position<R: RuleSet>(fen: &str) -> R {
    R::from_fen(fen).unwrap_or_else(|e| panic!("{}: {fen}: {e}", R::NAME))
}

/// Runs a lichess perft file: for each `epd` line, every `perft D N` line up to `max_depth`.
fn run_lichess_suite<R: RuleSet>(file: &str, max_depth: u32) -> Suite {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/perft").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut suite = Suite { positions: 0, nodes: 0 };
    let mut current: Option<(String, R)> = None;
    for line in text.lines() {
        if let Some(epd) = line.strip_prefix("epd ") {
            current = Some((epd.to_owned(), position(epd)));
            suite.positions += 1;
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut words = rest.split_whitespace();
            let depth: u32 = words.next().unwrap().parse().unwrap();
            let expected: u64 = words.next().unwrap().parse().unwrap();
            if depth <= max_depth {
                let (epd, position) = current.as_ref().expect("perft after epd");
                assert_eq!(position.perft(depth), expected, "{file}: {epd} at depth {depth}");
                suite.nodes += expected;
            }
        }
    }
    suite
}

#[test]
fn lichess_variants_small_counts() {
    let atomic: Atomic = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!((atomic.perft(1), atomic.perft(2), atomic.perft(3)), (20, 400, 8902));
    // Kings side by side: neither is in check, and the white king may not take.
    let touching: Atomic = position("8/8/8/3kK3/8/8/8/8 w - - 0 1");
    assert_eq!(touching.perft(1), 7);
    let pawns: Antichess = position("8/1p6/8/8/8/8/P7/8 w - - 0 1");
    assert_eq!((pawns.perft(1), pawns.perft(2), pawns.perft(3)), (2, 4, 4));
    // A capture is compulsory: the knight must take on e5.
    let forced: Antichess = position("8/8/8/4p3/8/5N2/8/8 w - - 0 1");
    assert_eq!(forced.perft(1), 1);
    let horde: Horde = position("rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1");
    assert_eq!((horde.perft(1), horde.perft(2), horde.perft(3)), (8, 128, 1274));
    // A white pawn on the first rank may step two squares.
    let first_rank: Horde = position("4k3/8/8/8/8/8/8/P7 w - - 0 1");
    assert_eq!(first_rank.perft(1), 2);
    let hill: KingOfTheHill = position("8/8/8/8/8/4K3/8/k7 w - - 0 1");
    assert_eq!(hill.perft(1), 8);
    let on_hill: KingOfTheHill = position("8/8/8/8/4K3/8/8/k7 b - - 0 1");
    assert_eq!(on_hill.perft(1), 0);
    let race: RacingKings = position("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1");
    assert_eq!((race.perft(1), race.perft(2)), (21, 421));
    let checks: ThreeCheck = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+1 0 1");
    assert_eq!((checks.perft(1), checks.perft(2)), (26, 562));
}

#[test]
#[ignore = "needs ../shared/data"]
fn suite_atomic() {
    let suite = run_lichess_suite::<Atomic>("atomic.perft", 5);
    println!("atomic: {} positions, {} nodes", suite.positions, suite.nodes);
}

#[test]
#[ignore = "needs ../shared/data"]
fn suite_antichess() {
    let suite = run_lichess_suite::<Antichess>("giveaway.perft", 13);
    println!("antichess: {} positions, {} nodes", suite.positions, suite.nodes);
}

#[test]
#[ignore = "needs ../shared/data"]
fn suite_horde() {
    let suite = run_lichess_suite::<Horde>("horde.perft", 4);
    println!("horde: {} positions, {} nodes", suite.positions, suite.nodes);
}

#[test]
#[ignore = "needs ../shared/data"]
fn suite_racing_kings() {
    let suite = run_lichess_suite::<RacingKings>("racingkings.perft", 6);
    println!("racing kings: {} positions, {} nodes", suite.positions, suite.nodes);
}

#[test]
#[ignore = "needs ../shared/data"]
fn suite_three_check() {
    let suite = run_lichess_suite::<ThreeCheck>("3check.perft", 3);
    println!("three-check: {} positions, {} nodes", suite.positions, suite.nodes);
}
