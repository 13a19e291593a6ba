//! The lichess rule sets (`cqlq::rules::classical::lichess`) against shakmaty's variants, in
//! random games: at every ply the legal moves (from, to, promotion), the check, the outcome,
//! whether each side still has the material to win and the FEN must be the same. The games are
//! seeded, and their moves are drawn with a bias towards what makes each variant's rare rules
//! happen (captures, promotions, king moves, checks).
//!
//! Each game is also written as PGN in shakmaty's SAN, with its `Variant` tag, and replayed
//! through cqlq's reader of records: every position of the replay must be shakmaty's, and each
//! move cqlq writes must be shakmaty's SAN (a variant's own end written as a mate, `#`, as
//! lichess writes it).
//!
//! Horde's judgement of material is also compared in random positions of few pieces, and over
//! every small set of material.
//!
//! `cargo test --release -- --ignored lichess_vs_shakmaty`; the disagreements found are kept as
//! plain tests at the end.

use std::collections::{BTreeMap, BTreeSet};

use cqlq::Query;
use cqlq::rules::GameRules;
use cqlq::rules::classical::Move as OurMove;
use cqlq::rules::classical::MoveList;
use cqlq::rules::classical::lichess::{self as ours, Outcome, RuleSet};
use cqlq::search::{Plans, PositionsFormat, ReplayOptions, replay_range};
use cqlq::variant::Role as OurRole;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::variant as theirs;
use shakmaty::{CastlingMode, Color, EnPassantMode, FromSetup, KnownOutcome, Move, Position, PositionError, Role};

/// A move as both name it: from, to (the rook's square for castling) and promotion.
type Key = (u8, u8, Option<char>);

fn our_key(m: OurMove) -> Key {
    let letter = |role: OurRole| match role {
        OurRole::Pawn => 'p',
        OurRole::Knight => 'n',
        OurRole::Bishop => 'b',
        OurRole::Rook => 'r',
        OurRole::Queen => 'q',
        OurRole::King => 'k',
    };
    match m {
        OurMove::Normal { from, to, promotion, .. } => (from, to, promotion.map(letter)),
        OurMove::EnPassant { from, to } => (from, to, None),
        OurMove::Castle { king, rook } => (king, rook, None),
        other => panic!("no lichess move: {other:?}"),
    }
}

fn their_key(m: &Move) -> Key {
    let from = m.from().map_or(64, |square| square as u8);
    (from, m.to() as u8, m.promotion().map(Role::char))
}

fn our_moves<R: RuleSet>(position: &R) -> Vec<OurMove> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves.as_slice().to_vec()
}

fn their_outcome(outcome: shakmaty::Outcome) -> Option<Outcome> {
    match outcome {
        shakmaty::Outcome::Unknown => None,
        shakmaty::Outcome::Known(KnownOutcome::Draw) => Some(Outcome::Draw),
        shakmaty::Outcome::Known(KnownOutcome::Decisive { winner }) => Some(Outcome::Decisive {
            winner: if winner == Color::White { cqlq::Color::White } else { cqlq::Color::Black },
        }),
    }
}

/// A tiny seeded generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// What the games of a variant came to.
#[derive(Debug, Default)]
struct Tally {
    games: u64,
    plies: u64,
    /// Games that ended by the variant's own end, by mate or stalemate.
    ended: u64,
    /// Positions where a side can no longer win for want of material (both judge alike).
    insufficient: u64,
    /// How often each rare rule came into play.
    events: BTreeMap<&'static str, u64>,
}

impl Tally {
    fn count(&mut self, event: &'static str) {
        *self.events.entry(event).or_default() += 1;
    }

    /// Asserts that each of `events` happened.
    fn saw(&self, events: &[&str]) {
        for event in events {
            assert!(self.events.get(event).copied().unwrap_or(0) > 0, "never: {event} in {:?}", self.events);
        }
    }
}

/// Notes the rare rules a move brings into play.
fn note_move<S: Position>(tally: &mut Tally, before: &S, m: &Move, moves: &[Move]) {
    let board = before.board();
    if m.is_capture() && (shakmaty::attacks::king_attacks(m.to()) & board.kings()).any() {
        tally.count("capture next to a king");
    }
    if moves.len() > 1 && moves.iter().all(|m| m.is_capture()) {
        tally.count("only captures");
    }
    if m.promotion() == Some(Role::King) {
        tally.count("promotion to king");
    }
    let first_rank = m.from().is_some_and(|from| from.rank() == shakmaty::Rank::First);
    if m.role() == Role::Pawn && first_rank && m.to().rank() == shakmaty::Rank::Third {
        tally.count("double step from the first rank");
    }
    if m.is_castle() {
        tally.count("castling");
    }
    if m.is_en_passant() {
        tally.count("en passant");
    }
}

/// Notes how a game ended.
fn note_end<S: Position>(tally: &mut Tally, end: &S, outcome: Outcome) {
    let board = end.board();
    let goal = board.kings() & shakmaty::Rank::Eighth;
    let events = [
        ("variant end", end.is_variant_end()),
        ("white wiped out", board.white().is_empty()),
        ("king on the hill", (board.kings() & shakmaty::Bitboard::CENTER).any()),
        ("third check", end.remaining_checks().is_some_and(|checks| checks.iter().any(|c| c.is_zero()))),
        ("both kings home", goal.count() == 2),
        ("white home, black too late", goal.count() == 1 && (goal & board.white()).any() && end.turn() == Color::White),
        ("checkmate", end.is_checkmate()),
        ("stalemate", end.is_stalemate()),
        ("insufficient material", end.is_insufficient_material()),
        ("draw", outcome == Outcome::Draw),
    ];
    for (event, happened) in events {
        if happened {
            tally.count(event);
        }
    }
}

/// Compares one position; panics with the FEN on a disagreement.
fn compare<R: RuleSet, S: Position + Clone>(ours: &R, theirs: &S) -> Vec<Move> {
    let fen = Fen::from_position(theirs, EnPassantMode::Legal).to_string();
    assert_eq!(ours.fen(), fen, "{}: the FEN", R::NAME);
    let our_set: BTreeSet<Key> = our_moves(ours).into_iter().map(our_key).collect();
    let their_moves: Vec<Move> = theirs.legal_moves().into_iter().collect();
    let their_set: BTreeSet<Key> = their_moves.iter().map(their_key).collect();
    assert_eq!(
        our_set,
        their_set,
        "{}: {fen}: ours only {:?}, theirs only {:?}",
        R::NAME,
        our_set.difference(&their_set).collect::<Vec<_>>(),
        their_set.difference(&our_set).collect::<Vec<_>>()
    );
    assert_eq!(ours.is_check(), theirs.is_check(), "{}: {fen}: check", R::NAME);
    their_moves
}

/// Asserts that both judge each side's material alike; whether a side cannot win any more.
fn same_material_judgement<R: RuleSet, S: Position>(ours: &R, theirs: &S) -> bool {
    let mut any = false;
    for (our_color, their_color) in [(cqlq::Color::White, Color::White), (cqlq::Color::Black, Color::Black)] {
        let insufficient = ours.has_insufficient_material(our_color);
        assert_eq!(
            insufficient,
            theirs.has_insufficient_material(their_color),
            "{}: {}: {their_color:?}'s insufficient material",
            R::NAME,
            ours.fen()
        );
        any |= insufficient;
    }
    any
}

/// Plays `games` random games from each start, comparing every ply.
fn random_games<R, S>(starts: &[&str], games: u64, seed: u64) -> Tally
where
    R: RuleSet + GameRules<1, Played = OurMove>,
    S: Position + FromSetup + Clone,
{
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    let mut records = Records::default();
    for game in 0..games {
        let start = starts[(game % starts.len() as u64) as usize];
        let mut ours = R::from_fen(start).unwrap_or_else(|e| panic!("{}: {start}: {e}", R::NAME));
        let mut theirs: S = Fen::from_ascii(start.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .or_else(PositionError::ignore_impossible_check)
            .unwrap_or_else(|e| panic!("{start}: {e}"));
        tally.games += 1;
        records.begin(R::NAME, start, &theirs);
        for _ in 0..200 {
            let their_moves = compare(&ours, &theirs);
            let our_outcome = ours.outcome();
            assert_eq!(our_outcome, their_outcome(theirs.outcome()), "{}: {}: the outcome", R::NAME, ours.fen());
            tally.insufficient += u64::from(same_material_judgement(&ours, &theirs));
            if their_moves.is_empty() || our_outcome.is_some() {
                tally.ended += u64::from(our_outcome.is_some());
                if let Some(outcome) = our_outcome {
                    note_end(&mut tally, &theirs, outcome);
                }
                break;
            }
            // Captures, promotions, king moves and checks weigh more.
            let weights: Vec<u64> = their_moves
                .iter()
                .map(|m| {
                    1 + 4 * u64::from(m.is_capture())
                        + 6 * u64::from(m.is_promotion())
                        + 2 * u64::from(m.role() == Role::King)
                        + 4 * u64::from(gives_check(&theirs, m))
                })
                .collect();
            let mut pick = rng.below(weights.iter().sum());
            let index = weights.iter().position(|w| {
                if pick < *w {
                    true
                } else {
                    pick -= w;
                    false
                }
            });
            let chosen = their_moves[index.unwrap()];
            note_move(&mut tally, &theirs, &chosen, &their_moves);
            let key = their_key(&chosen);
            let our_move = our_moves(&ours).into_iter().find(|m| our_key(*m) == key).unwrap();
            let before = ours.clone();
            ours.play(our_move);
            let san = SanPlus::from_move_and_play_unchecked(&mut theirs, chosen);
            records.play(&before, our_move, &ours, san, &theirs);
            tally.plies += 1;
        }
    }
    records.replay_and_compare(R::NAME);
    println!("{}: {tally:?}", R::NAME);
    tally
}

/// The games played, written as PGN, and the position lines their replay must write.
#[derive(Default)]
struct Records {
    pgn: String,
    expected: String,
    games: u64,
    ply: u32,
}

impl Records {
    fn begin<S: Position>(&mut self, variant: &str, start: &str, theirs: &S) {
        if self.games > 0 {
            self.pgn.push_str("*\n\n");
        }
        self.games += 1;
        self.ply = 0;
        let fen = Fen::from_position(theirs, EnPassantMode::Legal).to_string();
        self.pgn.push_str(&format!("[Event \"{}\"]\n[Variant \"{variant}\"]\n[FEN \"{start}\"]\n\n", self.games));
        self.expected.push_str(&format!("{}\t0\t{fen}\n", self.games));
    }

    /// A move played: cqlq writes it as shakmaty does, and the record gains shakmaty's SAN.
    fn play<R: RuleSet + GameRules<1, Played = OurMove>, S: Position>(
        &mut self,
        before: &R,
        played: OurMove,
        after: &R,
        san: SanPlus,
        theirs: &S,
    ) {
        let mut written = String::new();
        assert!(before.write_move(&played, after, false, &mut written));
        let their_san = san.to_string();
        let ended = after.variant_outcome().is_some();
        let expected = if ended { format!("{}#", their_san.trim_end_matches(['+', '#'])) } else { their_san.clone() };
        assert_eq!(written, expected, "{}: {}: the SAN of {their_san}", R::NAME, before.fen());
        self.ply += 1;
        self.pgn.push_str(&their_san);
        self.pgn.push(' ');
        let fen = Fen::from_position(theirs, EnPassantMode::Legal).to_string();
        self.expected.push_str(&format!("{}\t{}\t{fen}\n", self.games, self.ply));
        if self.ply.is_multiple_of(200) {
            self.pgn.push('\n');
        }
    }

    /// Replays the records as `cqlq positions` does; every position line must be the expected.
    fn replay_and_compare(&mut self, variant: &str) {
        self.pgn.push_str("*\n\n");
        let plans = Plans::new(Query::parse("true").unwrap());
        let options = ReplayOptions {
            positions: Some(PositionsFormat::Tsv),
            ends_input: true,
            ..ReplayOptions::main_lines(&plans)
        };
        let pgn = std::mem::take(&mut self.pgn);
        let records = replay_range(pgn.as_bytes(), &options);
        let mut written = String::new();
        for record in &records {
            assert!(record.error.is_none(), "{variant}: {:?}", record.error);
            written.push_str(std::str::from_utf8(&record.positions).unwrap());
        }
        assert_eq!(records.len() as u64, self.games, "{variant}: the games read");
        for (line, (ours, theirs)) in written.lines().zip(self.expected.lines()).enumerate() {
            assert_eq!(ours, theirs, "{variant}: position line {}", line + 1);
        }
        assert_eq!(written.lines().count(), self.expected.lines().count(), "{variant}: the positions replayed");
    }
}

fn gives_check<S: Position + Clone>(position: &S, m: &Move) -> bool {
    let mut after = position.clone();
    after.play_unchecked(*m);
    after.is_check()
}

const STANDARD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Suite positions of every variant, as further starts.
fn suite_starts(file: &str) -> Vec<String> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/perft").join(file);
    std::fs::read_to_string(path)
        .map(|text| text.lines().filter_map(|l| l.strip_prefix("epd ")).map(str::to_owned).collect())
        .unwrap_or_default()
}

fn starts(first: &str, file: &str) -> Vec<String> {
    std::iter::once(first.to_owned()).chain(suite_starts(file)).collect()
}

const GAMES: u64 = 3000;

#[test]
#[ignore = "thousands of games: run in release"]
fn atomic() {
    let starts = starts(STANDARD, "atomic.perft");
    let starts: Vec<&str> = starts.iter().map(String::as_str).collect();
    random_games::<ours::Atomic, theirs::Atomic>(&starts, GAMES, 1).saw(&[
        "capture next to a king",
        "variant end",
        "checkmate",
        "castling",
        "en passant",
        "insufficient material",
    ]);
}

#[test]
#[ignore = "thousands of games: run in release"]
fn antichess() {
    let starts = starts("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "giveaway.perft");
    let starts: Vec<&str> = starts.iter().map(String::as_str).collect();
    random_games::<ours::Antichess, theirs::Antichess>(&starts, GAMES, 2).saw(&[
        "only captures",
        "promotion to king",
        "variant end",
        "stalemate",
        "insufficient material",
    ]);
}

#[test]
#[ignore = "thousands of games: run in release"]
fn horde() {
    let starts = starts("rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1", "horde.perft");
    let starts: Vec<&str> = starts.iter().map(String::as_str).collect();
    let tally = random_games::<ours::Horde, theirs::Horde>(&starts, GAMES, 3);
    tally.saw(&["double step from the first rank", "white wiped out", "checkmate", "castling", "en passant"]);
    assert!(tally.insufficient > 0, "the horde never ran short of material");
}

#[test]
#[ignore = "thousands of games: run in release"]
fn king_of_the_hill() {
    let starts = [STANDARD, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"];
    random_games::<ours::KingOfTheHill, theirs::KingOfTheHill>(&starts, GAMES, 4).saw(&[
        "king on the hill",
        "checkmate",
        "castling",
    ]);
}

#[test]
#[ignore = "thousands of games: run in release"]
fn racing_kings() {
    let starts = starts("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", "racingkings.perft");
    let starts: Vec<&str> = starts.iter().map(String::as_str).collect();
    random_games::<ours::RacingKings, theirs::RacingKings>(&starts, GAMES, 5).saw(&[
        "both kings home",
        "white home, black too late",
        "variant end",
    ]);
}

#[test]
#[ignore = "thousands of games: run in release"]
fn three_check() {
    let starts = starts("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1", "3check.perft");
    let starts: Vec<&str> = starts.iter().map(String::as_str).collect();
    random_games::<ours::ThreeCheck, theirs::ThreeCheck>(&starts, GAMES, 6).saw(&["third check", "castling"]);
}

/// A few games of each variant from its first position, for every `cargo test`: rules, SAN and
/// replay of the records.
#[test]
fn a_few_games_of_each_variant() {
    random_games::<ours::Atomic, theirs::Atomic>(&[STANDARD], 12, 11);
    random_games::<ours::Antichess, theirs::Antichess>(
        &["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"],
        12,
        12,
    );
    let horde = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1";
    random_games::<ours::Horde, theirs::Horde>(&[horde], 12, 13);
    random_games::<ours::KingOfTheHill, theirs::KingOfTheHill>(&[STANDARD], 12, 14);
    random_games::<ours::RacingKings, theirs::RacingKings>(&["8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"], 12, 15);
    random_games::<ours::ThreeCheck, theirs::ThreeCheck>(&[STANDARD], 12, 16);
}

// ---------------------------------------------------------------------------------------------
// Horde's judgement of material, in random positions of few pieces: a king with a few pieces
// against a horde of a few pieces, both sides to move, usually White's horde.

/// A piece to place: its FEN letter (upper case for White) and, for a bishop, whether it stands
/// on a light square.
type Piece = (char, Option<bool>);

/// A Horde position of few pieces.
#[derive(Clone)]
struct Sparse {
    squares: [Option<char>; 64],
    white_to_move: bool,
}

impl Sparse {
    fn fen(&self) -> String {
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.squares[rank * 8 + file] {
                    Some(letter) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(letter);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if self.white_to_move { " w - - 0 1" } else { " b - - 0 1" });
        fen
    }

    /// Places the pieces on random squares where they may stand: pawns off the back ranks,
    /// save the horde's on its own first rank.
    fn place(rng: &mut Rng, pieces: &[Piece], white_to_move: bool) -> Option<Sparse> {
        let horde_white = pieces.iter().all(|(letter, _)| *letter != 'K');
        let mut squares = [None; 64];
        for &(letter, light) in pieces {
            let white = letter.is_ascii_uppercase();
            let fits = |square: usize| {
                let (rank, file) = (square / 8, square % 8);
                let pawn_rank_ok = match (letter.eq_ignore_ascii_case(&'p'), white == horde_white) {
                    (false, _) => true,
                    (true, true) => rank != if white { 7 } else { 0 },
                    (true, false) => rank != 0 && rank != 7,
                };
                squares[square].is_none() && light.is_none_or(|light| light == ((rank + file) % 2 == 1)) && pawn_rank_ok
            };
            let free: Vec<usize> = (0..64).filter(|square| fits(*square)).collect();
            if free.is_empty() {
                return None;
            }
            squares[free[rng.below(free.len() as u64) as usize]] = Some(letter);
        }
        Some(Sparse { squares, white_to_move })
    }

    /// The position with one piece fewer, for each piece but the king.
    fn smaller(&self) -> Vec<Sparse> {
        (0..64)
            .filter(|square| matches!(self.squares[*square], Some(letter) if !letter.eq_ignore_ascii_case(&'k')))
            .map(|square| {
                let mut smaller = self.clone();
                smaller.squares[square] = None;
                smaller
            })
            .collect()
    }
}

/// The ways cqlq and shakmaty judge a Horde position differently (material of each side, the
/// outcome), or `None` if they agree or shakmaty rejects the position.
fn horde_disagreement(fen: &str) -> Option<Option<String>> {
    let theirs: theirs::Horde = Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .ok()?;
    let ours = ours::Horde::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut differences = Vec::new();
    for (our_color, their_color) in [(cqlq::Color::White, Color::White), (cqlq::Color::Black, Color::Black)] {
        let (ours, theirs) = (ours.has_insufficient_material(our_color), theirs.has_insufficient_material(their_color));
        if ours != theirs {
            differences.push(format!("{their_color:?} insufficient: ours {ours}, theirs {theirs}"));
        }
    }
    let (our_outcome, their) = (ours.outcome(), their_outcome(theirs.outcome()));
    if our_outcome != their {
        differences.push(format!("outcome: ours {our_outcome:?}, theirs {their:?}"));
    }
    Some((!differences.is_empty()).then(|| differences.join("; ")))
}

/// Compares a position; on a disagreement, removes pieces while they still disagree and panics
/// with the smallest position's FEN.
fn compare_sparse(position: &Sparse) -> bool {
    let Some(disagreement) = horde_disagreement(&position.fen()) else {
        return false;
    };
    let Some(mut why) = disagreement else {
        return true;
    };
    let mut smallest = position.clone();
    let still_disagrees = |smaller: Sparse| match horde_disagreement(&smaller.fen()) {
        Some(Some(why)) => Some((smaller, why)),
        _ => None,
    };
    while let Some(next) = smallest.smaller().into_iter().find_map(still_disagrees) {
        (smallest, why) = next;
    }
    panic!("Horde: {} (shrunk from {}): {why}", smallest.fen(), position.fen());
}

/// Draws a random set of material, places it and compares the position with both sides to
/// move; returns the number of positions compared.
fn random_sparse_hordes(positions: u64, seed: u64) -> u64 {
    const HORDE: [char; 12] = ['P', 'P', 'P', 'N', 'N', 'N', 'B', 'B', 'B', 'B', 'R', 'Q'];
    const ARMY: [char; 12] = ['P', 'P', 'P', 'N', 'N', 'B', 'B', 'B', 'R', 'R', 'Q', 'Q'];
    let mut rng = Rng(seed);
    let mut compared = 0;
    let mut insufficient = 0;
    while compared < positions {
        // One position in six, the horde is Black's.
        let horde_white = rng.below(6) != 0;
        let case = |letter: char, white: bool| if white { letter } else { letter.to_ascii_lowercase() };
        let mut pieces: Vec<Piece> = vec![(case('K', !horde_white), None)];
        for _ in 0..rng.below(6) {
            pieces.push((case(ARMY[rng.below(12) as usize], !horde_white), None));
        }
        for _ in 0..rng.below(5) {
            pieces.push((case(HORDE[rng.below(12) as usize], horde_white), None));
        }
        let Some(mut position) = Sparse::place(&mut rng, &pieces, true) else { continue };
        for white_to_move in [true, false] {
            position.white_to_move = white_to_move;
            if compared < positions && compare_sparse(&position) {
                compared += 1;
                let horde = if horde_white { cqlq::Color::White } else { cqlq::Color::Black };
                insufficient +=
                    u64::from(ours::Horde::from_fen(&position.fen()).unwrap().has_insufficient_material(horde));
            }
        }
    }
    println!("Horde: {compared} positions of few pieces, {insufficient} with the horde short of material");
    compared
}

/// Every set of material of a king with up to five pieces against White's horde of up to four
/// (bishops told apart by the colour of their squares), once each, placed at random.
fn every_sparse_material(seed: u64) -> u64 {
    const KINDS: [Piece; 6] =
        [('P', None), ('N', None), ('B', Some(true)), ('B', Some(false)), ('R', None), ('Q', None)];
    /// The multisets of kinds of up to `most` pieces.
    fn sets(most: usize) -> Vec<Vec<Piece>> {
        let mut sets = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..most {
            let mut next = Vec::new();
            for set in &last {
                let from = set.last().map_or(0, |piece| KINDS.iter().position(|kind| kind == piece).unwrap());
                for kind in &KINDS[from..] {
                    let mut bigger = set.clone();
                    bigger.push(*kind);
                    next.push(bigger);
                }
            }
            sets.extend(next.iter().cloned());
            last = next;
        }
        sets
    }
    let mut rng = Rng(seed);
    let mut compared = 0;
    let armies = sets(5);
    for horde in sets(4) {
        for army in &armies {
            let mut pieces: Vec<Piece> = vec![('k', None)];
            pieces.extend(army.iter().map(|(letter, light)| (letter.to_ascii_lowercase(), *light)));
            pieces.extend(horde.iter().copied());
            // A few tries at a placement shakmaty takes.
            for _ in 0..20 {
                let white_to_move = rng.below(2) == 0;
                let Some(position) = Sparse::place(&mut rng, &pieces, white_to_move) else { continue };
                if compare_sparse(&position) {
                    compared += 1;
                    break;
                }
            }
        }
    }
    println!("Horde: {compared} sets of material compared");
    compared
}

/// Random Horde positions of few pieces: cqlq judges each side's material as shakmaty does.
#[test]
fn horde_material_of_few_pieces() {
    assert_eq!(random_sparse_hordes(20_000, 21), 20_000);
}

#[test]
#[ignore = "millions of positions: run in release"]
fn horde_material_of_few_pieces_long() {
    random_sparse_hordes(2_000_000, 22);
}

#[test]
#[ignore = "a hundred thousand positions: run in release"]
fn horde_every_material_of_few_pieces() {
    assert_eq!(every_sparse_material(23), 210 * 462);
}

// ---------------------------------------------------------------------------------------------
// The disagreements the random games found, shrunk.

/// Compares one position of a variant with shakmaty's.
fn same_as_shakmaty<R: RuleSet, S: Position + FromSetup + Clone>(fen: &str) {
    let ours = R::from_fen(fen).unwrap();
    let theirs: S = Fen::from_ascii(fen.as_bytes()).unwrap().into_position(CastlingMode::Chess960).unwrap();
    compare(&ours, &theirs);
}

/// A pawn on the seventh rank has no double step (its square two ahead is off the board, and
/// once wrapped round to the first rank).
#[test]
fn pawn_on_the_seventh_rank_steps_once() {
    same_as_shakmaty::<ours::Horde, theirs::Horde>("4k3/2P5/8/8/8/8/8/P7 w - - 0 1");
    same_as_shakmaty::<ours::Antichess, theirs::Antichess>("8/P7/8/8/8/8/2p5/8 w - - 0 6");
    same_as_shakmaty::<ours::ThreeCheck, theirs::ThreeCheck>("4k3/2P5/8/8/8/8/8/4K3 w - - 3+3 0 1");
}

/// A castling rook is written `K` or `Q` when it is the outermost of its side's rooks, even
/// with an enemy rook further out.
#[test]
fn outermost_own_rook_castles_as_k_or_q() {
    same_as_shakmaty::<ours::Atomic, theirs::Atomic>("8/8/8/8/8/8/2k5/rR4KR w KQ - 0 1");
}

/// Three-check reads both forms of the checks and writes shakmaty's.
#[test]
fn three_check_fen_forms() {
    let lichess = ours::ThreeCheck::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +1+2").unwrap();
    assert_eq!(lichess.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+1 0 1");
    let shakmaty = ours::ThreeCheck::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+1 0 1").unwrap();
    assert_eq!(shakmaty, lichess);
}
