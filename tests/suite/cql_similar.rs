//! `similarposition "F.pgn"`: the positions of the games of a file found again, as they stand
//! or under the symmetries CQL 6.2 tries. The expected comments are CQL 6.2's own, for the same
//! queries over the same games.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use cqlq::Query;
use cqlq::search::load_similar_games;

use crate::common::{cql_written, temp_dir};
use crate::cql_command::cql6;

/// The games compared with: a rook ending (white to move), a pawn ending with black to move
/// first, the first moves of a Ruy Lopez, and a knight and bishop ending.
const PATTERNS: &str = r#"[Event "a"]
[FEN "7k/8/8/8/8/8/8/KR6 w - - 0 1"]
[SetUp "1"]

1. Rb7 Kg8 2. Rb6 Kf7 3. Kb2 Ke7 *

[Event "b"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"]
[SetUp "1"]

1... Kd7 2. e4 Ke6 3. Kd2 Ke5 *

[Event "c"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *

[Event "d"]
[FEN "8/8/3k4/8/8/3K4/8/2N1B3 w - - 0 1"]
[SetUp "1"]

1. Nb3 Kc6 2. Bb4 Kb5 *
"#;

/// Positions of [`PATTERNS`] moved by a symmetry, each a game of its own, then a game that
/// plays the Ruy Lopez on.
const SEARCHED: [&str; 12] = [
    "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
    "k7/8/8/8/8/8/8/6RK w - - 0 1",
    "8/5N2/2k5/5K2/7B/8/8/8 w - - 2 2",
    "8/8/2k5/8/2P5/8/1K6/8 b - - 0 1",
    "8/8/6k1/8/8/8/1K3R2/8 b - - 5 3",
    "8/8/1N1K4/1B6/8/2k5/8/8 b - - 3 2",
    "8/1K3R2/8/8/8/6k1/8/8 b - - 5 3",
    "6RK/8/8/8/8/8/8/k7 w - - 0 1",
    "k7/8/8/8/8/8/7R/7K w - - 0 1",
    "8/8/8/1k6/1P6/8/K7/8 w - - 0 1",
    "8/3k4/8/8/2P5/8/8/2K5 b - - 0 1",
    "8/3k4/8/8/2P5/8/8/2K5 w - - 0 1",
];

/// The games searched: [`SEARCHED`], then a Ruy Lopez.
fn searched() -> String {
    let mut games = String::new();
    for (index, fen) in SEARCHED.iter().enumerate() {
        games.push_str(&format!("[Event \"s{}\"]\n[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n*\n\n", index + 1));
    }
    games.push_str("[Event \"s13\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 *\n");
    games
}

/// The comments each game gains (the game's number first), in order, a game a line; the
/// file's name written `F`.
fn comments(query: &str, file: &Path) -> Vec<String> {
    let written = cql_written(query, &searched(), false).replace(&file.display().to_string(), "F");
    let words = written.split_whitespace().collect::<Vec<_>>().join(" ");
    words
        .split("{Game number ")
        .skip(1)
        .map(|game| {
            let mut said = Vec::new();
            let mut rest = game;
            while let Some(end) = rest.find('}') {
                said.push(rest[..end].to_owned());
                rest = match rest[end..].find('{') {
                    Some(open) => &rest[end + open + 1..],
                    None => "",
                };
            }
            said.join(" | ")
        })
        .collect()
}

#[test]
fn positions_are_found_as_they_stand_and_under_each_symmetry() {
    let dir = temp_dir("similar-symmetries");
    let file = dir.join("patterns.pgn");
    fs::write(&file, PATTERNS).unwrap();
    let found = comments(&format!("similarposition nosort \"{}\"", file.display()), &file);
    let expected = [
        "1 see F game: 2 at move: 1 btm CQL",
        "2 see F game: 1 at move: 1 wtm reflect_v CQL",
        "3 see F game: 4 at move: 2 wtm reflect_a8h1 CQL",
        "4 see F game: 2 at move: 3 btm left^2 CQL",
        "5 see F game: 1 at move: 3 btm reflect_a1h8 CQL",
        "6 see F game: 4 at move: 2 btm reflect_h CQL",
        "7 see F game: 1 at move: 3 btm clockwise90 CQL",
        "8 see F game: 1 at move: 1 wtm rotate180 CQL",
        "9 see F game: 1 at move: 1 wtm counterclockwise90 CQL",
        "10 see F game: 2 at move: 4 wtm left^3 CQL",
        "11 see F game: 2 at move: 2 btm reflect_v right^1 CQL",
        // Game 12 (white to move) is not found: the side to move counts.
        "13 see F game: 3 at move: 1 wtm CQL | see F game: 3 at move: 1 btm CQL | see F game: 3 at move: 2 wtm CQL \
         | see F game: 3 at move: 2 btm CQL | see F game: 3 at move: 3 wtm CQL | see F game: 3 at move: 3 btm CQL",
    ];
    assert_eq!(found, expected);
    // Each sighting's comment holds those before it: the starting position twice in the file.
    fs::write(&file, format!("{PATTERNS}\n[Event \"e\"]\n\n1. d4 *\n")).unwrap();
    let twice = comments(&format!("similarposition nosort \"{}\"", file.display()), &file);
    assert_eq!(
        twice.last().map(|game| game.split(" | ").next().unwrap_or_default()),
        Some("13 see F game: 3 at move: 1 wtm see F game: 3 at move: 1 wtm see F game: 5 at move: 1 wtm CQL")
    );
}

#[test]
fn notransform_finds_positions_as_they_stand_only() {
    let dir = temp_dir("similar-notransform");
    let file = dir.join("patterns.pgn");
    fs::write(&file, PATTERNS).unwrap();
    let found = comments(&format!("similarposition notransform nosort \"{}\"", file.display()), &file);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0], "1 see F game: 2 at move: 1 btm CQL");
    assert!(found[1].starts_with("13 see F game: 3 at move: 1 wtm CQL"));
}

#[test]
fn what_cql_refuses_is_refused_with_a_reason() {
    let refusals = [
        ("similarposition", "followed by the name of a file of games"),
        ("similarposition \"games.txt\"", "whose name ends in .pgn"),
        ("flipcolor similarposition \"a.pgn\"", "cannot stand inside a transform"),
        ("shift {notransform similarposition nosort \"a.pgn\"}", "cannot stand inside a transform"),
        ("similarposition \"a.pgn\" similarposition \"b.pgn\"", "\"a.pgn\" is named before \"b.pgn\""),
        ("similarposition \"a.pgn\" similarposition notransform \"a.pgn\"", "'notransform' is given to one"),
    ];
    for (query, reason) in refusals {
        let error = Query::parse(query).expect_err(query).to_string();
        assert!(error.contains(reason), "{query}: {error}");
    }
    // The same file twice is read once.
    let query = Query::parse("similarposition \"a.pgn\" or similarposition nosort \"a.pgn\"").unwrap();
    assert_eq!(query.similar_games().len(), 1);
    let missing = Query::parse("similarposition \"no/such/file.pgn\"").unwrap();
    let error = load_similar_games(&missing).unwrap_err().to_string();
    assert!(error.contains("no/such/file.pgn"), "{error}");
}

/// `cqlq cql` with `-similarposition` and with the filter in the query, sorted by the game of
/// the file where each game's positions were first found: CQL 6.2's output.
#[test]
fn the_cql_command_sorts_the_games_by_the_game_they_resemble() {
    let dir = temp_dir("similar-command");
    fs::write(dir.join("patterns.pgn"), PATTERNS).unwrap();
    fs::write(dir.join("searched.pgn"), searched()).unwrap();
    fs::write(dir.join("query.cql"), "cql(input searched.pgn output out.pgn)\ntrue\n").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_cqlq"))
        .args(["cql", "-similarposition", "patterns.pgn", "query.cql"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("Db: read 4 games from submission file: patterns.pgn"), "{stdout}");
    assert!(stdout.contains("12 matches of 13 games"), "{stdout}");
    let written = fs::read_to_string(dir.join("out.pgn")).unwrap();
    let order: Vec<&str> = written.lines().filter_map(|line| line.strip_prefix("[Event \"")).collect();
    let expected = ["s2\"]", "s5\"]", "s7\"]", "s8\"]", "s9\"]", "s1\"]", "s4\"]", "s10\"]", "s11\"]", "s13\"]"];
    assert_eq!(order[..expected.len()], expected);
    let words = written.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("{Game number 2 see patterns.pgn game: 1 at move: 1 wtm reflect_v CQL submission game: 1}"));
}

/// CQL 6.2 and `cqlq cql` write the same games, to the byte, for `similarposition` with each of
/// its options over the games above and over the reference corpus compared with its first games.
#[test]
#[ignore = "runs CQL 6.2 from ../shared/tools/cql6"]
fn similarposition_writes_what_cql_6_2_writes_live() {
    let Some(cql6) = cql6() else { return };
    let dir = temp_dir("similar-live");
    fs::write(dir.join("patterns.pgn"), PATTERNS).unwrap();
    fs::write(dir.join("searched.pgn"), searched()).unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cql/games.pgn.zst");
    let games = zstd::decode_all(fs::File::open(corpus).unwrap()).unwrap();
    let games = String::from_utf8_lossy(&games).into_owned();
    fs::write(dir.join("corpus.pgn"), &games).unwrap();
    let first: Vec<&str> = games.split("[Event ").take(41).collect();
    fs::write(dir.join("first.pgn"), first.join("[Event ")).unwrap();
    let mut compared = 0;
    for (patterns, input) in [("patterns.pgn", "searched.pgn"), ("first.pgn", "corpus.pgn")] {
        for options in ["", "nosort ", "notransform ", "nosort notransform "] {
            let query = format!("cql(input {input})\nsimilarposition {options}\"{patterns}\"\n");
            fs::write(dir.join("query.cql"), query.as_bytes()).unwrap();
            let run = |program: &Path, prefix: &[&str], out: &str| {
                let mut command = Command::new(program);
                command.args(prefix).args(["-o", out, "query.cql"]).current_dir(&dir).stdin(Stdio::null());
                let output = command.output().unwrap();
                let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
                let db = stdout.lines().find(|line| line.starts_with("Db: ")).unwrap_or_default().to_owned();
                (db, fs::read(dir.join(out)).unwrap_or_default())
            };
            let theirs = run(&cql6, &[], "theirs.pgn");
            let ours = run(Path::new(env!("CARGO_BIN_EXE_cqlq")), &["cql"], "ours.pgn");
            assert_eq!(ours.0, theirs.0, "{query}");
            assert!(ours.1 == theirs.1, "{query}: the games written differ");
            compared += 1;
        }
    }
    eprintln!("{compared} runs of similarposition agree with CQL 6.2 to the byte");
}
