//! `cqlq filter` over the 6,838 positions of the perft suite `random.perft`, against shakmaty.
//!
//! Each query's count of matching positions from the command is compared with the count of an
//! independent implementation on shakmaty's bitboards. Needs `../shared/data`; run with
//! `cargo test --release -- --ignored`.

use std::path::PathBuf;
use std::process::Command;

use shakmaty::fen::{Epd, Fen};
use shakmaty::{Bitboard, Board, Color, Piece, Rank, Role, Square};

fn data(path: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data").join(path);
    assert!(path.exists(), "{} is missing: the corpus tests need ../shared/data", path.display());
    path
}

fn boards() -> Vec<Board> {
    let text = std::fs::read_to_string(data("perft/random.perft")).unwrap();
    text.lines()
        .filter_map(|line| line.strip_prefix("epd "))
        .map(|epd| {
            let setup = match Fen::from_ascii(epd.as_bytes()) {
                Ok(fen) => fen.into_setup(),
                Err(_) => Epd::from_ascii(epd.as_bytes()).unwrap().into_setup(),
            };
            setup.board
        })
        .collect()
}

fn cqlq_count(query: &str) -> usize {
    let output = Command::new(env!("CARGO_BIN_EXE_cqlq"))
        .args(["filter", "-q", "--count", "-c", query])
        .arg(data("perft/random.perft"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.is_empty(), "{query}: {stderr}");
    leading_number(&output.stdout)
}

/// The number a `--count` sentence starts with.
fn leading_number(stdout: &[u8]) -> usize {
    let text = String::from_utf8_lossy(stdout);
    text.split_whitespace().next().and_then(|number| number.parse().ok()).unwrap_or_else(|| panic!("{text}"))
}

fn pieces(board: &Board, color: Color, role: Role) -> Bitboard {
    board.by_piece(Piece { color, role })
}

fn squares(names: &[&str]) -> Bitboard {
    names.iter().map(|name| name.parse::<Square>().unwrap()).collect()
}

fn ranks(ranks: &[Rank]) -> Bitboard {
    ranks.iter().fold(Bitboard::EMPTY, |acc, rank| acc | Bitboard::from_rank(*rank))
}

type Predicate = fn(&Board) -> bool;

const QUERIES: &[(&str, Predicate)] = &[
    ("Qh7 kg8", |b| {
        pieces(b, Color::White, Role::Queen).contains(Square::H7)
            && pieces(b, Color::Black, Role::King).contains(Square::G8)
    }),
    ("#[Aa] <= 5", |b| b.occupied().count() <= 5),
    ("[Bb][L?]", |b| (b.bishops() & Bitboard::LIGHT_SQUARES).any()),
    ("Ra-h7 ka-h8", |b| {
        (pieces(b, Color::White, Role::Rook) & Bitboard::from_rank(Rank::Seventh)).any()
            && (pieces(b, Color::Black, Role::King) & Bitboard::from_rank(Rank::Eighth)).any()
    }),
    ("&R;[a-h1-2]", |b| (pieces(b, Color::White, Role::Rook) & ranks(&[Rank::First, Rank::Second])).any()),
    ("[&A;&r;][a-h1-2,a8,h8]", |b| {
        let set = ranks(&[Rank::First, Rank::Second]) | squares(&["a8", "h8"]);
        ((b.white() | pieces(b, Color::Black, Role::Rook)) & set).any()
    }),
    ("[&R;&B;&N;&Q;&P;][a1,h1,a8,h8]", |b| ((b.white() & !b.kings()) & squares(&["a1", "h1", "a8", "h8"])).any()),
    ("&I;[a-h1]", |b| ((b.white() & (b.bishops() | b.knights())) & Bitboard::from_rank(Rank::First)).any()),
    ("#P > #p", |b| pieces(b, Color::White, Role::Pawn).count() > pieces(b, Color::Black, Role::Pawn).count()),
    ("#Q == 0 and #q == 0", |b| b.queens().is_empty()),
    ("#_[d4,e4,d5,e5] == 4", |b| (b.occupied() & squares(&["d4", "e4", "d5", "e5"])).is_empty()),
    ("#(~U & [a-h3-6]) >= 28", |b| {
        (!b.occupied() & ranks(&[Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth])).count() >= 28
    }),
    ("#M >= 3", |b| (b.white() & (b.queens() | b.rooks())).count() >= 3),
    ("K[g-h1] k[g-h8]", |b| {
        pieces(b, Color::White, Role::King).intersects(squares(&["g1", "h1"]))
            && pieces(b, Color::Black, Role::King).intersects(squares(&["g8", "h8"]))
    }),
    ("n[D?] or N[L?]", |b| {
        (pieces(b, Color::Black, Role::Knight) & Bitboard::DARK_SQUARES).any()
            || (pieces(b, Color::White, Role::Knight) & Bitboard::LIGHT_SQUARES).any()
    }),
    ("not q and Q", |b| pieces(b, Color::Black, Role::Queen).is_empty() && pieces(b, Color::White, Role::Queen).any()),
    ("Pa-h7 or pa-h2", |b| {
        (pieces(b, Color::White, Role::Pawn) & Bitboard::from_rank(Rank::Seventh)).any()
            || (pieces(b, Color::Black, Role::Pawn) & Bitboard::from_rank(Rank::Second)).any()
    }),
    ("#(R | r) - #(B | b) >= 2 or [Qq] in [a-h1,a-h8]", |b| {
        let difference = b.rooks().count() as i64 - b.bishops().count() as i64;
        let back = ranks(&[Rank::First, Rank::Eighth]);
        difference >= 2 || (b.queens() & !back).is_empty()
    }),
];

#[test]
#[ignore = "needs ../shared/data"]
fn filter_counts_agree_with_shakmaty_on_random_perft() {
    let boards = boards();
    assert_eq!(boards.len(), 6838);
    let mut report = Vec::new();
    for (query, predicate) in QUERIES {
        let expected = boards.iter().filter(|board| predicate(board)).count();
        let counted = cqlq_count(query);
        report.push(format!("{counted:>5} {query}"));
        assert_eq!(counted, expected, "{query}");
    }
    println!("{}", report.join("\n"));
    assert!(QUERIES.len() >= 10);
}

#[test]
#[ignore = "needs ../shared/data"]
fn every_perft_position_of_the_classical_suites_reads() {
    for suite in ["random", "tricky", "chess960", "crazyhouse"] {
        let output = Command::new(env!("CARGO_BIN_EXE_cqlq"))
            .args(["filter", "-q", "--count", "-c", "[Aa]"])
            .arg(data(&format!("perft/{suite}.perft")))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.is_empty(), "{suite}: {stderr}");
        let count = leading_number(&output.stdout);
        let text = std::fs::read_to_string(data(&format!("perft/{suite}.perft"))).unwrap();
        assert_eq!(count, text.lines().filter(|line| line.starts_with("epd ")).count(), "{suite}");
    }
}
