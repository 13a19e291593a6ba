//! Laser Chess: random legal games from every named setup, written in Laser Algebraic Notation
//! and read back.

use crate::common;

use common::laser_games::{Game, Random, setups};
use cqlq::Variant;
use cqlq::notation::laser::setup_notation;
use cqlq::notation::sniff::read_position;
use cqlq::query::Query;
use cqlq::rules::laser::LaserBoard;
use cqlq::rules::laser::notation::Turn;
use cqlq::variant::Color;

#[test]
fn random_games_read_back_to_the_same_positions() {
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    let (mut games, mut plies, mut removals, mut kings) = (0, 0, 0, 0);
    for (name, start) in setups() {
        for _ in 0..1000 {
            let game = Game::random(name, &start, &mut random, 120, false);
            let (record, boards) = (&game.turns, &game.boards);
            let mut board = start.clone();
            for (ply, (text, expected)) in record.iter().zip(boards).enumerate() {
                let turn = Turn::parse(text.as_bytes()).unwrap();
                let played = board
                    .play_turn(&turn)
                    .unwrap_or_else(|error| panic!("{name}, ply {}: {text}: {}", ply + 1, error.describe(&board)));
                // The record writes every removal, so none is left out.
                assert!(!played.unwritten_removal, "{name}, ply {}", ply + 1);
                assert_eq!(&board, expected, "{name}, ply {}: {text}", ply + 1);
                removals += usize::from(played.shot.hit.is_some());
            }
            kings += usize::from(board.winner().is_some());
            games += 1;
            plies += record.len();
        }
    }
    eprintln!("{games} games, {plies} plies, {removals} removals, {kings} Kings hit");
    assert_eq!(games, 5000);
    // The games are games: pieces are removed and Kings are hit.
    assert!(removals > plies / 50 && kings > 100, "{plies} plies, {removals} removals, {kings} Kings hit");
}

/// The position lines a game's replay writes: its number, its ply, its Setup Notation and the
/// side to move.
fn expected_lines(number: usize, game: &Game) -> String {
    let line = |ply: usize, board: &LaserBoard| {
        let side = if board.turn() == Color::White { "w" } else { "b" };
        format!("{number}\t{ply}\t{} {side}\n", setup_notation::write(&board.to_setup()))
    };
    std::iter::once(&game.start).chain(&game.boards).enumerate().map(|(ply, board)| line(ply, board)).collect()
}

/// Random games of every named setup, some with Red moving first (`1...`), written as PGN
/// among standard games, replay to the positions they were played to, with no error or
/// warning, and the standard games around them replay too.
#[test]
fn pgn_games_replay_to_the_positions_they_were_played_to() {
    let mut random = Random(0x2545_f491_4f6c_dd1d);
    let mut text = String::new();
    let mut games = Vec::new();
    for (name, start) in setups() {
        for index in 0..60 {
            let game = Game::random(name, &start, &mut random, 80, index % 3 == 0);
            text.push_str(&game.pgn(&format!("{name} {index}")));
            games.push(Some(game));
            if index % 20 == 0 {
                text.push_str("[Event \"standard\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n");
                games.push(None);
            }
        }
    }
    let records = common::replay_positions(&text, "true");
    assert_eq!(records.len(), games.len());
    let (mut plies, mut red_first) = (0, 0);
    for (index, (record, game)) in records.iter().zip(&games).enumerate() {
        assert_eq!(record.error, None, "game {}", index + 1);
        assert!(record.warnings.is_empty(), "game {}: {:?}", index + 1, record.warnings);
        let written = String::from_utf8(record.positions.clone()).unwrap();
        match game {
            Some(game) => {
                assert_eq!(written, expected_lines(index + 1, game), "game {}", index + 1);
                assert_eq!(record.matched.len(), game.turns.len() + 1);
                plies += game.turns.len();
                red_first += usize::from(game.start.turn() == Color::Black);
            }
            None => assert_eq!(record.matched.len(), 5, "game {}", index + 1),
        }
    }
    eprintln!("{} games, {plies} plies, {red_first} with Red first", games.len());
    assert!(red_first >= 100);
}

/// A game of Ace in PGN.
fn ace(event: &str, movetext: &str) -> String {
    format!("[Event \"{event}\"]\n[Variant \"Laser Chess\"]\n\n{movetext}\n\n")
}

/// Each wrong turn is reported at its ply, with its token and why; a removal the record leaves
/// out is made and reported as a warning; the games around either replay as they do alone.
#[test]
fn wrong_turns_are_reported_at_their_ply_and_spare_the_games_around() {
    let good = ace("good", "1. c5b4 h5i4xc4 2. f1f2 h4+xb4 3. d6- f5e6 *");
    let alone = common::replay_positions(&good, "true");
    assert_eq!((alone[0].error.as_ref(), alone[0].matched.len()), (None, 7));
    let cases = [
        (
            "1. j4j3xg3 *",
            1,
            "j4j3xg3",
            "the record says the beam removes the piece on g3, but it leaves the board after g1, removing nothing",
        ),
        ("1. e4e3 h8+ 2. e3e2 h8- 3. e2ue1 *", 5, "e2ue1", "not with the King on e1"),
        ("1. h2i1 *", 1, "h2i1", "i1 is reserved for Red's pieces"),
        ("1. h2i2 h8+ 2. i2j1 *", 3, "i2j1", "j1 is a laser's square"),
        ("1. j4j5 *", 1, "j4j5", "j5 is occupied"),
        ("1. c5b4 h5i4xc5 *", 2, "h5i4xc5", "it removes Blue's Deflector on c4"),
        ("1. k1k2 *", 1, "k1k2", "k1 is not on the board"),
        ("1. j4 *", 1, "j4", "not a move"),
        ("1. j4j3 j4j3 *", 2, "j4j3", "no piece of the side to move on j4"),
    ];
    for (movetext, ply, token, reason) in cases {
        let text = [good.clone(), ace("bad", movetext), good.clone()].concat();
        let records = common::replay_positions(&text, "true");
        assert_eq!(records.len(), 3, "{movetext}");
        for neighbour in [&records[0], &records[2]] {
            assert_eq!((neighbour.error.as_ref(), neighbour.matched.len()), (None, 7), "{movetext}");
        }
        let error = records[1].error.as_ref().unwrap_or_else(|| panic!("{movetext}: no error"));
        let message = error.kind.to_string();
        assert_eq!((error.ply, error.token.as_str()), (ply, token), "{movetext}: {message}");
        assert!(message.contains(reason), "{movetext}: {message}");
        // The positions before the wrong turn were searched.
        assert_eq!(records[1].matched.len(), ply as usize, "{movetext}");
    }
    // A removal the record leaves out: made, and told as a warning; the game goes on.
    let text = [good.clone(), ace("unwritten", "1. c5b4 h5i4 2. f1f2 h4+xb4 *"), good.clone()].concat();
    let records = common::replay_positions(&text, "true");
    assert_eq!(records[1].error, None);
    assert_eq!(records[1].matched.len(), 5);
    let warnings = &records[1].warnings;
    assert_eq!(warnings.len(), 1);
    assert_eq!((warnings[0].ply, warnings[0].token.as_str()), (2, "h5i4"));
    assert_eq!(
        warnings[0].text,
        "the turn writes no removal, but the beam removes Blue's Deflector (h5i4xc4): removed all the same"
    );
    assert!(records[0].warnings.is_empty() && records[2].warnings.is_empty());
}

/// The positions a replay writes (Setup Notation and the side to move) read back as positions
/// standing alone, which a query about the rules (the next beam, what a laser would remove, the
/// legal swaps) answers as it did in the game.
#[test]
fn written_positions_read_back_and_match_as_in_their_games() {
    let query = "cql(variant \"Laser Chess\") nextbeam & [KSDB] or L attacks [ksdb] or move legal swap capture .";
    let mut random = Random(0x9e6c_63d0_676a_9a99);
    let mut text = String::new();
    for (name, start) in setups() {
        for index in 0..8 {
            text.push_str(&Game::random(name, &start, &mut random, 60, index % 2 == 1).pgn(name));
        }
    }
    let records = common::replay_positions(&text, query);
    let plan = Query::parse(query).unwrap().compile(common::laser_games::laser()).unwrap();
    let (mut positions, mut matched) = (0, 0);
    for record in &records {
        assert_eq!(record.error, None);
        let found: Vec<u32> = record.matched.iter().map(|matched| matched.ply).collect();
        for line in String::from_utf8(record.positions.clone()).unwrap().lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            let ply: u32 = fields[1].parse().unwrap();
            let position = read_position(fields[2], None).unwrap_or_else(|error| panic!("{line}: {error}"));
            assert_eq!(plan.matches(&position), found.contains(&ply), "{line}");
            positions += 1;
            matched += usize::from(found.contains(&ply));
        }
    }
    eprintln!("{positions} positions, {matched} matched");
    assert!(matched > positions / 10 && matched < positions, "{matched} of {positions}");
}

#[test]
fn transforms_move_the_squares_of_laser_queries_on_the_10x8_board() {
    let laser = Variant::by_name("Laser Chess").unwrap();
    let ace = "l++3d++kd++b+++2/2b7/3B+6/b++1B1ss+1b+++1B+/b+++1B+1S+S1b++1B/6b+++3/7B++2/2B+DKD3L w";
    let position = read_position(ace, Some(laser)).unwrap();
    let matches = |query: &str| Query::parse(query).unwrap().compile(laser).unwrap().matches(&position);
    // Blue's beam from Ace: j2-j4, i4, h4, h5, i5, j5-j8 (laser.md's worked example).
    assert!(matches("nextbeam & j8") && !matches("nextbeam & a8") && !matches("nextbeam & a1"));
    // `flipvertical` mirrors the files a-j, `fliphorizontal` the ranks 1-8, as in CQL 6.2; the
    // transforms move the query's squares, not the beam.
    assert!(matches("flipvertical {nextbeam & a8}"));
    assert!(matches("fliphorizontal {nextbeam & j1}"));
    assert!(!matches("fliphorizontal {nextbeam & a8}"));
    assert!(matches("shifthorizontal {nextbeam & a6}"));
    // The beam crosses 11 squares: as many copies of a lone square lie on it.
    assert!(matches("(shift count {nextbeam & a2}) == 11"));
    // Blue's Deflector on c4 faces one quarter turn: seen from h4 mirrored, from c5 flipped,
    // and as Red's on c5 with the colours flipped.
    assert!(matches("B+c4") && matches("flipvertical B+h4") && matches("fliphorizontal B+c5"));
    assert!(matches("flipcolor b+c5") && !matches("b+c5"));
}

/// The persistent variables of a query go on from game to game whatever their rule family: the
/// positions of the Laser Chess games are counted (125), then those of classical games after
/// them in the same run (211 more).
#[test]
fn persistent_variables_count_over_every_family() {
    use cqlq::search::{Input, Search, SearchOptions, Summary};
    let run = |files: &[&str]| {
        let search = Search::new(Query::parse("persistent plies += 1").unwrap(), SearchOptions::default()).unwrap();
        let (mut record, mut summary) = (common::Record::default(), Summary::default());
        for file in files {
            let mut input = Input::open(std::path::Path::new(file)).unwrap();
            let _flow = search.run(&mut input, &mut record, &mut summary).unwrap();
        }
        search.persistent_report()
    };
    assert_eq!(run(&["samples/games/laser-setups.pgn"]), ["plies: 125"]);
    assert_eq!(run(&["samples/games/classics.pgn"]), ["plies: 211"]);
    assert_eq!(run(&["samples/games/laser-setups.pgn", "samples/games/classics.pgn"]), ["plies: 336"]);
    assert_eq!(run(&["samples/games/classics.pgn", "samples/games/laser-setups.pgn"]), ["plies: 336"]);
}
