//! The filters that need the rules of chess (`check`, `mate`, `stalemate`, `move`, `pin`,
//! `attacks`, `line`, `initial`, `terminal`, `ply`) against independent implementations on
//! shakmaty, on real data:
//!
//! - every position of the classical perft suites (`random`, `tricky`, `chess960`,
//!   `crazyhouse`): the value of each set filter, square by square (`e4 & (S)` for each of the 64
//!   squares), and each filter that has no set;
//! - every position of every game of `gnuchess-book`, searched with [`Search`]: the plies that
//!   match each query, game by game, against a replay with pgn-reader and shakmaty.
//!
//! Needs `../shared/data`; run with `cargo test --release -- --ignored`.

use std::collections::HashSet;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::path::PathBuf;

use cqlq::notation::sniff::read_position;
use cqlq::search::{Found, Input, Problem, Search, SearchOptions, Sink, Summary};
use cqlq::{AnyPosition, Query, Variant};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use rayon::prelude::*;
use shakmaty::fen::{Epd, Fen};
use shakmaty::variant::{Variant as ShakmatyVariant, VariantPosition};
use shakmaty::{
    Bitboard, Board, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, FromSetup, Move, Position, PositionError,
    Rank, Role, Square, attacks,
};

fn data(path: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data").join(path);
    assert!(path.exists(), "{} is missing: the corpus tests need ../shared/data", path.display());
    path
}

// ---------------------------------------------------------------------------------------------
// The perft suites, position by position.

/// A position of a perft suite, read by both.
struct Sample {
    suite: &'static str,
    epd: String,
    ours: AnyPosition,
    theirs: VariantPosition,
}

fn samples() -> Vec<Sample> {
    let suites: [(&str, Option<&'static Variant>, ShakmatyVariant, usize); 4] = [
        ("random", Some(Variant::standard()), ShakmatyVariant::Chess, 6838),
        ("tricky", None, ShakmatyVariant::Chess, 19),
        ("chess960", Some(Variant::by_name("Chess960").unwrap()), ShakmatyVariant::Chess, 960),
        ("crazyhouse", Some(Variant::by_name("Crazyhouse").unwrap()), ShakmatyVariant::Crazyhouse, 5),
    ];
    let mut samples = Vec::new();
    for (suite, variant, their_variant, count) in suites {
        let text = std::fs::read_to_string(data(&format!("perft/{suite}.perft"))).unwrap();
        let before = samples.len();
        for epd in text.lines().filter_map(|line| line.strip_prefix("epd ")) {
            let ours = read_position(epd, variant).unwrap_or_else(|e| panic!("{suite}: {epd}: {e}"));
            let setup = match Fen::from_ascii(epd.as_bytes()) {
                Ok(fen) => fen.into_setup(),
                Err(_) => Epd::from_ascii(epd.as_bytes()).unwrap().into_setup(),
            };
            // Chess960 castling covers the standard positions too (same moves, same rights).
            // `tricky` has a double check shakmaty deems impossible: it is still a position.
            let theirs = VariantPosition::from_setup(their_variant, setup, CastlingMode::Chess960)
                .or_else(PositionError::ignore_impossible_check)
                .unwrap_or_else(|e| panic!("{suite}: {epd}: {e}"));
            samples.push(Sample { suite, epd: epd.to_owned(), ours, theirs });
        }
        assert_eq!(samples.len() - before, count, "{suite}");
    }
    samples
}

/// The square a move lands on as cqlq names it: the king's square for castling.
fn landing(m: Move, turn: Color) -> Square {
    match m.castling_side() {
        Some(side) => side.king_to(turn),
        None => m.to(),
    }
}

/// The squares of the legal moves that fit: to-squares with `to`, else from-squares (a drop has
/// no from-square: its to-square stands for it).
fn moves(p: &VariantPosition, to: bool, fits: impl Fn(Move) -> bool) -> Bitboard {
    let turn = p.turn();
    p.legal_moves()
        .iter()
        .filter(|m| fits(**m))
        .map(|m| if to { landing(*m, turn) } else { m.from().unwrap_or_else(|| m.to()) })
        .collect()
}

/// The squares of the pieces taken by the legal captures that fit (the passed pawn's square for
/// en passant): the value of a `move` whose first keyword is `capture`.
fn captured(p: &VariantPosition, fits: impl Fn(Move) -> bool) -> Bitboard {
    let turn = p.turn();
    p.legal_moves()
        .iter()
        .filter(|m| m.is_capture() && fits(**m))
        .map(|m| {
            if m.is_en_passant() {
                Square::from_coords(m.to().file(), m.from().unwrap().rank())
            } else {
                landing(*m, turn)
            }
        })
        .collect()
}

fn is_underpromotion(m: Move) -> bool {
    matches!(m.promotion(), Some(Role::Rook | Role::Bishop | Role::Knight))
}

/// The squares of `targets` attacked by a piece on `attackers`.
fn attacked(board: &Board, attackers: Bitboard, targets: Bitboard) -> Bitboard {
    let occupied = board.occupied();
    let mut all = Bitboard::EMPTY;
    for square in attackers & occupied {
        all |= attacks::attacks(square, board.piece_at(square).unwrap(), occupied);
    }
    all & targets
}

/// The pieces on `attackers` that attack a square of `targets`.
fn attackers(board: &Board, attackers: Bitboard, targets: Bitboard) -> Bitboard {
    let occupied = board.occupied();
    (attackers & occupied)
        .into_iter()
        .filter(|&square| (attacks::attacks(square, board.piece_at(square).unwrap(), occupied) & targets).any())
        .collect()
}

/// Which set of a pin a `pin` filter's value is: its first keyword's (`from`, `to`), else the
/// pinned pieces.
#[derive(Clone, Copy)]
enum PinPart {
    From,
    Through,
    To,
}

/// The pieces on `through` pinned to a piece on `shielded` by an enemy rook, bishop or queen on
/// `from` (one piece between, of the shielded piece's colour): the pinned pieces, the pinners or
/// the pieces shielded, as `part` says.
fn pinned(board: &Board, part: PinPart, from: Bitboard, through: Bitboard, shielded: Bitboard) -> Bitboard {
    let occupied = board.occupied();
    let mut pinned = Bitboard::EMPTY;
    for target in shielded & occupied {
        let ours = board.color_at(target).unwrap();
        let straight = attacks::rook_attacks(target, Bitboard::EMPTY) & (board.rooks() | board.queens());
        let diagonal = attacks::bishop_attacks(target, Bitboard::EMPTY) & (board.bishops() | board.queens());
        for sniper in (straight | diagonal) & board.by_color(!ours) & from {
            let between = attacks::between(target, sniper) & occupied;
            if between.count() == 1 && between.is_subset(board.by_color(ours)) && (between & through).any() {
                pinned |= match part {
                    PinPart::From => Bitboard::from_square(sniper),
                    PinPart::Through => between,
                    PinPart::To => Bitboard::from_square(target),
                };
            }
        }
    }
    pinned
}

type SetOf = fn(&VariantPosition) -> Bitboard;

/// Set filters, with their values computed on shakmaty.
const SETS: &[(&str, SetOf)] = &[
    ("move legal", |p| moves(p, false, |_| true)),
    ("move legal from .", |p| moves(p, false, |m| m.from().is_some())),
    ("move legal to .", |p| moves(p, true, |_| true)),
    ("move legal capture .", |p| captured(p, |_| true)),
    ("move legal castle", |p| moves(p, false, Move::is_castle)),
    ("move legal o-o to .", |p| moves(p, true, |m| m.castling_side() == Some(CastlingSide::KingSide))),
    ("move legal o-o-o to .", |p| moves(p, true, |m| m.castling_side() == Some(CastlingSide::QueenSide))),
    ("move legal enpassant to .", |p| moves(p, true, Move::is_en_passant)),
    ("move legal promote [Qq]", |p| moves(p, false, |m| m.promotion() == Some(Role::Queen))),
    ("move legal promote [RBNrbn] to .", |p| moves(p, true, is_underpromotion)),
    ("move legal capture [Qq] to .", |p| captured(p, |m| m.capture() == Some(Role::Queen))),
    ("move legal from . capture .", |p| moves(p, false, Move::is_capture)),
    // The first of `from`, `to` and `capture` names the value.
    ("move legal to . from [Kk]", |p| moves(p, true, |m| m.role() == Role::King)),
    ("move legal from [Kk] to .", |p| moves(p, false, |m| m.role() == Role::King)),
    ("move legal drop to .", |p| moves(p, true, Move::is_put)),
    // The first of `from`, `through` and `to` names the value; the pinned pieces where none.
    ("pin", |p| pinned(p.board(), PinPart::Through, Bitboard::FULL, Bitboard::FULL, p.board().kings())),
    ("pin to [Qq]", |p| pinned(p.board(), PinPart::To, Bitboard::FULL, Bitboard::FULL, p.board().queens())),
    ("pin through . to [Qq]", |p| {
        pinned(p.board(), PinPart::Through, Bitboard::FULL, Bitboard::FULL, p.board().queens())
    }),
    ("pin from [Bb]", |p| pinned(p.board(), PinPart::From, p.board().bishops(), Bitboard::FULL, p.board().kings())),
    ("pin through [Nn]", |p| {
        pinned(p.board(), PinPart::Through, Bitboard::FULL, p.board().knights(), p.board().kings())
    }),
    ("a attackedby A", |p| attacked(p.board(), p.board().white(), p.board().black())),
    ("A attackedby a", |p| attacked(p.board(), p.board().black(), p.board().white())),
    ("q attackedby K", |p| {
        let b = p.board();
        attacked(b, b.kings() & b.white(), b.queens() & b.black())
    }),
    ("[Kk] attackedby [Qq]", |p| attacked(p.board(), p.board().queens(), p.board().kings())),
    (". attackedby A", |p| attacked(p.board(), p.board().white(), Bitboard::FULL)),
    ("_ attackedby a", |p| attacked(p.board(), p.board().black(), !p.board().occupied())),
    (". attackedby [Pp]", |p| attacked(p.board(), p.board().pawns(), Bitboard::FULL)),
    // `attacks` gives the attackers.
    ("A attacks a", |p| attackers(p.board(), p.board().white(), p.board().black())),
    ("[Pp] attacks [Kk]", |p| attackers(p.board(), p.board().pawns(), p.board().kings())),
];

type Test = fn(&VariantPosition) -> bool;

/// Filters that match or not, with shakmaty's answers.
const TESTS: &[(&str, Test)] = &[
    ("check", |p| p.is_check()),
    ("mate", |p| p.is_checkmate()),
    ("stalemate", |p| p.is_stalemate()),
    ("move legal castle", |p| p.legal_moves().into_iter().any(Move::is_castle)),
    ("move legal o-o", |p| p.legal_moves().into_iter().any(|m| m.castling_side() == Some(CastlingSide::KingSide))),
    ("move legal o-o-o", |p| p.legal_moves().into_iter().any(|m| m.castling_side() == Some(CastlingSide::QueenSide))),
    ("move legal enpassant", |p| p.legal_moves().into_iter().any(Move::is_en_passant)),
    ("move legal promote [Qq]", |p| p.legal_moves().into_iter().any(|m| m.promotion() == Some(Role::Queen))),
    ("move legal promote [RBNrbn]", |p| p.legal_moves().into_iter().any(is_underpromotion)),
    ("move legal drop", |p| p.legal_moves().into_iter().any(Move::is_put)),
    ("pin", |p| pinned(p.board(), PinPart::Through, Bitboard::FULL, Bitboard::FULL, p.board().kings()).any()),
    ("#(move legal to .) >= 30", |p| moves(p, true, |_| true).count() >= 30),
    ("#(move legal from .) == 1", |p| moves(p, false, |m| m.from().is_some()).count() == 1),
    ("wtm and a attacks K", |p| p.turn() == Color::White && p.is_check()),
    ("not move legal and not check", |p| p.is_stalemate()),
];

/// Whether each sample matches a query, in the order of the samples.
fn matching(query: &str, samples: &[Sample]) -> Vec<bool> {
    let query = Query::parse(query).unwrap_or_else(|e| panic!("{query}:\n{e}"));
    let mut plans: Vec<(&'static Variant, cqlq::Plan)> = Vec::new();
    samples
        .iter()
        .map(|sample| {
            let variant = sample.ours.variant();
            let index = match plans.iter().position(|(v, _)| *v == variant) {
                Some(index) => index,
                None => {
                    let plan = query.compile(variant).unwrap_or_else(|e| panic!("{}:\n{e}", variant.name));
                    plans.push((variant, plan));
                    plans.len() - 1
                }
            };
            plans[index].1.matches(&sample.ours)
        })
        .collect()
}

/// cqlq's value of a set filter at each sample: 64 queries `sq & (S)`.
fn values(query: &str, samples: &[Sample]) -> Vec<Bitboard> {
    let columns: Vec<Vec<bool>> =
        Square::ALL.par_iter().map(|square| matching(&format!("{square} & ({query})"), samples)).collect();
    (0..samples.len())
        .map(|i| Square::ALL.iter().zip(&columns).filter(|(_, column)| column[i]).map(|(square, _)| *square).collect())
        .collect()
}

fn names(set: Bitboard) -> String {
    set.into_iter().map(|square| square.to_string()).collect::<Vec<_>>().join(" ")
}

#[test]
#[ignore = "needs ../shared/data"]
fn rule_filters_agree_with_shakmaty_on_the_perft_suites() {
    let samples = samples();
    let mut report =
        vec![format!("{} positions; for sets: positions with a non-empty value, squares in all", samples.len())];
    let mut disagreements = Vec::new();
    for (query, value) in SETS {
        let ours = values(query, &samples);
        let theirs: Vec<Bitboard> = samples.par_iter().map(|sample| value(&sample.theirs)).collect();
        let matched = matching(query, &samples);
        let count = |sets: &[Bitboard]| (sets.iter().filter(|s| s.any()).count(), sets.iter().map(|s| s.count()).sum());
        let ((positions, squares), (expected_positions, expected_squares)): ((usize, usize), (usize, usize)) =
            (count(&ours), count(&theirs));
        report.push(format!(
            "{query:<28} cqlq {positions:>5} positions {squares:>6} squares (matches {:>5}) | shakmaty {expected_positions:>5} {expected_squares:>6}",
            matched.iter().filter(|m| **m).count()
        ));
        for (i, sample) in samples.iter().enumerate() {
            if ours[i] != theirs[i] || matched[i] != theirs[i].any() {
                disagreements.push(format!(
                    "{query}: {} {}: cqlq [{}] (matches: {}), shakmaty [{}]",
                    sample.suite,
                    sample.epd,
                    names(ours[i]),
                    matched[i],
                    names(theirs[i])
                ));
            }
        }
    }
    for (query, test) in TESTS {
        let ours = matching(query, &samples);
        let theirs: Vec<bool> = samples.par_iter().map(|sample| test(&sample.theirs)).collect();
        let count = |v: &[bool]| v.iter().filter(|b| **b).count();
        report.push(format!("{query:<28} cqlq {:>5} | shakmaty {:>5}", count(&ours), count(&theirs)));
        for (i, sample) in samples.iter().enumerate().filter(|(i, _)| ours[*i] != theirs[*i]) {
            disagreements
                .push(format!("{query}: {} {}: cqlq {}, shakmaty {}", sample.suite, sample.epd, ours[i], theirs[i]));
        }
    }
    println!("{}", report.join("\n"));
    let shown = disagreements.iter().take(40).cloned().collect::<Vec<_>>().join("\n");
    assert!(disagreements.is_empty(), "{} disagreements:\n{shown}", disagreements.len());
}

// ---------------------------------------------------------------------------------------------
// The games of gnuchess-book, searched.

/// Queries over games, each with the bit of its flag in a replayed position.
const GAME_QUERIES: [&str; 12] = [
    "move previous castle",
    "move previous o-o-o",
    "move previous enpassant",
    "move previous promote [RBNrbn]",
    "move previous capture q",
    "move previous from [a-h7] to [a-h8]",
    "check",
    "mate",
    "terminal",
    "line --> check{3,}",
    "initial",
    "ply == 40",
];

/// The flags of a position reached by `played` (none for the initial position), before the ones
/// that depend on the rest of the game (`terminal`, `line`).
fn flags(before: Option<(&Chess, &Move)>, after: &Chess, ply: usize) -> u32 {
    let mut flags = 0u32;
    let mut set = |bit: usize, on: bool| flags |= u32::from(on) << bit;
    if let Some((position, m)) = before {
        let mover = position.turn();
        set(0, m.is_castle());
        set(1, m.castling_side() == Some(CastlingSide::QueenSide));
        set(2, m.is_en_passant());
        set(3, is_underpromotion(*m));
        set(4, mover == Color::White && m.capture() == Some(Role::Queen));
        set(5, m.from().is_some_and(|from| from.rank() == Rank::Seventh) && landing(*m, mover).rank() == Rank::Eighth);
    }
    set(6, after.is_check());
    set(7, after.is_checkmate());
    set(10, ply == 0);
    set(11, ply == 40);
    flags
}

/// A game replayed by pgn-reader and shakmaty: the flags of each position, the first error, and
/// the FEN of each position when asked.
struct Replay {
    fens: bool,
}

struct Game {
    flags: Vec<u32>,
    fens: Vec<String>,
    error: Option<String>,
}

impl Visitor for Replay {
    type Tags = Option<Fen>;
    type Movetext = (Chess, Game);
    type Output = Game;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            *tags = Some(Fen::from_ascii(value.as_bytes()).unwrap());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let position = match tags {
            Some(fen) => Chess::from_setup(fen.into_setup(), CastlingMode::Chess960).unwrap(),
            None => Chess::default(),
        };
        let mut game = Game { flags: vec![flags(None, &position, 0)], fens: Vec::new(), error: None };
        if self.fens {
            game.fens.push(Fen::from_position(&position, EnPassantMode::Legal).to_string());
        }
        ControlFlow::Continue((position, game))
    }

    fn san(&mut self, movetext: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let (position, game) = movetext;
        match san_plus.san.to_move(position) {
            Ok(m) => {
                let before = position.clone();
                position.play_unchecked(m);
                game.flags.push(flags(Some((&before, &m)), position, game.flags.len()));
                if self.fens {
                    game.fens.push(Fen::from_position(&*position, EnPassantMode::Legal).to_string());
                }
                ControlFlow::Continue(())
            }
            Err(error) => {
                game.error = Some(format!("{san_plus}: {error}"));
                ControlFlow::Break(std::mem::replace(game, Game { flags: vec![], fens: vec![], error: None }))
            }
        }
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        let mut game = movetext.1;
        let last = game.flags.len() - 1;
        game.flags[last] |= 1 << 8;
        for at in 0..game.flags.len().saturating_sub(2) {
            if game.flags[at..at + 3].iter().all(|f| f & (1 << 6) != 0) {
                game.flags[at] |= 1 << 9;
            }
        }
        game
    }
}

/// The plies that match, per game with a match: (game number from 1, plies).
type Matches = Vec<(u64, Vec<u32>)>;

#[derive(Default)]
struct Collect {
    matched: Matches,
    problems: Vec<u64>,
}

impl Sink for Collect {
    fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
        self.matched.push((game.number, game.matched.iter().map(|ply| ply.ply).collect()));
        Ok(())
    }

    fn problem(&mut self, problem: &Problem<'_>) -> io::Result<()> {
        self.problems.push(problem.game);
        Ok(())
    }
}

fn search(query: &str, bytes: &[u8]) -> (Collect, Summary) {
    let search =
        Search::new(Query::parse(query).unwrap_or_else(|e| panic!("{query}:\n{e}")), SearchOptions::default()).unwrap();
    let mut collect = Collect::default();
    let mut summary = Summary::default();
    let mut input = Input::from_bytes("gnuchess-book.pgn", bytes.to_vec());
    assert!(search.run(&mut input, &mut collect, &mut summary).unwrap().is_continue());
    (collect, summary)
}

/// The text cut into about `n` pieces of whole games, each cut before an `[Event ` tag at the
/// start of a line (every game of `gnuchess-book` begins with one), for replays on all cores.
fn chunks(bytes: &[u8], n: usize) -> Vec<&[u8]> {
    let mut cuts = vec![0];
    for i in 1..n {
        let from = (bytes.len() * i / n).max(*cuts.last().unwrap());
        if let Some(at) = memchr::memmem::find(&bytes[from..], b"\n[Event ") {
            cuts.push(from + at + 1);
        }
    }
    cuts.push(bytes.len());
    cuts.dedup();
    cuts.windows(2).map(|pair| &bytes[pair[0]..pair[1]]).collect()
}

/// The FEN of a position of a game, for reports.
fn fen_at(bytes: &[u8], number: u64, ply: u32) -> String {
    let mut reader = Reader::new(io::Cursor::new(bytes));
    for _ in 1..number {
        reader.skip_game().unwrap();
    }
    let game = reader.read_game(&mut Replay { fens: true }).unwrap().unwrap();
    game.fens.get(ply as usize).cloned().unwrap_or_else(|| format!("(no ply {ply})"))
}

#[test]
#[ignore = "needs ../shared/data"]
fn game_filters_agree_with_shakmaty_on_gnuchess_book() {
    let mut bytes = Vec::new();
    zstd::stream::read::Decoder::new(std::fs::File::open(data("pgn/gnuchess-book.pgn.zst")).unwrap())
        .unwrap()
        .read_to_end(&mut bytes)
        .unwrap();

    let games: Vec<Game> = chunks(&bytes, 64)
        .par_iter()
        .map(|chunk| {
            let mut reader = Reader::new(io::Cursor::new(chunk));
            let mut games = Vec::new();
            while let Some(game) = reader.read_game(&mut Replay { fens: false }).unwrap() {
                games.push(game);
            }
            games
        })
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect();
    assert_eq!(games.len(), 145_716);
    let mut excluded: HashSet<u64> = (1..).zip(&games).filter(|(_, g)| g.error.is_some()).map(|(n, _)| n).collect();
    let plies: usize = games.iter().map(|g| g.flags.len() - 1).sum();

    let mut report = Vec::new();
    let mut disagreements = Vec::new();
    for (bit, query) in GAME_QUERIES.iter().enumerate() {
        let (ours, summary) = search(query, &bytes);
        assert_eq!(summary.games, 145_716, "{query}");
        excluded.extend(&ours.problems);
        let theirs: Matches = (1..)
            .zip(&games)
            .filter_map(|(number, game)| {
                let plies: Vec<u32> =
                    (0..).zip(&game.flags).filter(|(_, f)| *f & (1 << bit) != 0).map(|(p, _)| p).collect();
                (!plies.is_empty()).then_some((number, plies))
            })
            .collect();
        let kept = |matches: &Matches| -> Matches {
            matches.iter().filter(|(number, _)| !excluded.contains(number)).cloned().collect()
        };
        let (ours, theirs) = (kept(&ours.matched), kept(&theirs));
        let total = |matches: &Matches| matches.iter().map(|(_, plies)| plies.len()).sum::<usize>();
        report.push(format!(
            "{query:<44} cqlq {:>7} positions in {:>6} games | shakmaty {:>7} in {:>6}",
            total(&ours),
            ours.len(),
            total(&theirs),
            theirs.len()
        ));
        // The first game and ply where they differ.
        let mut ours_at = ours.iter().flat_map(|(n, plies)| plies.iter().map(move |p| (*n, *p))).peekable();
        let mut theirs_at = theirs.iter().flat_map(|(n, plies)| plies.iter().map(move |p| (*n, *p))).peekable();
        let mut differ = 0;
        let mut first = None;
        loop {
            let (a, b) = (ours_at.peek().copied(), theirs_at.peek().copied());
            let (at, only_ours) = match (a, b) {
                (None, None) => break,
                (Some(a), Some(b)) if a == b => {
                    ours_at.next();
                    theirs_at.next();
                    continue;
                }
                (Some(a), Some(b)) if a < b => (a, true),
                (Some(a), None) => (a, true),
                (_, Some(b)) => (b, false),
            };
            if only_ours {
                ours_at.next();
            } else {
                theirs_at.next();
            }
            differ += 1;
            first.get_or_insert((at, only_ours));
        }
        if let Some(((number, ply), only_ours)) = first {
            disagreements.push(format!(
                "{query}: {differ} positions differ; first: game {number} ply {ply} ({}): cqlq {}, shakmaty {}",
                fen_at(&bytes, number, ply),
                only_ours,
                !only_ours
            ));
        }
    }
    println!("gnuchess-book: {} games, {plies} plies, {} excluded for errors", games.len(), excluded.len());
    println!("{}", report.join("\n"));
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    assert!(excluded.is_empty(), "games with errors: {excluded:?}");
}
