//! Probes of CQL 6.2's meaning that cqlq once answered wrongly in silence: flips and their
//! names, a transform's count range, what a shift keeps, transforms inside transforms, the value
//! of `pin` and `move` (their first keyword), `line secondary`, and side effects made before a
//! filter that fails. Each probe has CQL 6.2's answer on `lichess_db_1000k.pgn` (438 games) and
//! on the repository's 2,000 games (`tests/cql/games.pgn.zst`):
//!
//! - the plain tests check cqlq's answers on the repository's games against the stored ones;
//! - the ignored test runs CQL 6.2 beside cqlq on `../shared/data/pgn/lichess_db_1000k.pgn`
//!   and compares the games, the positions and what the persistent variables print.

use std::path::Path;
use std::process::Command;

use cqlq::Query;
use cqlq::search::{Input, Search, SearchOptions, Summary};

use crate::common::Record;

/// A probe: its query, and the games CQL 6.2 finds on lichess_db_1000k (438 games) and on the
/// repository's 2,000 games.
struct Probe {
    query: &'static str,
    lichess: u64,
    repository: u64,
}

const PROBES: &[Probe] = &[
    Probe { query: "initial fliphorizontal Ke8", lichess: 438, repository: 2000 },
    Probe { query: "initial flipvertical Ke8", lichess: 0, repository: 0 },
    Probe { query: "initial flipvertical Kd1", lichess: 438, repository: 2000 },
    Probe { query: "initial flip 2 8 {Ke1 Qd1}", lichess: 0, repository: 0 },
    Probe { query: "initial shift 2 100 {Ke1 Qd1}", lichess: 0, repository: 0 },
    Probe { query: "initial flip 2 {Ra1 Rh1}", lichess: 438, repository: 2000 },
    Probe { query: "initial shiftvertical {Bc4 Q[d4,d2]}", lichess: 438, repository: 2000 },
    Probe { query: "initial shift flipcolor {Kh8 Qg8}", lichess: 438, repository: 2000 },
    Probe { query: "(pin from Q through n) & ~n", lichess: 25, repository: 85 },
    Probe { query: "x = move from Q to _ #(x & Q) > 0", lichess: 351, repository: 1734 },
    Probe { query: "line secondary --> check --> check", lichess: 0, repository: 0 },
    Probe { query: "line --> check --> check", lichess: 10, repository: 24 },
    Probe { query: "puremate", lichess: 23, repository: 3 },
    Probe { query: "modelmate", lichess: 12, repository: 2 },
    Probe { query: "idealmate", lichess: 0, repository: 0 },
    Probe { query: "#puremate > 4", lichess: 6, repository: 2 },
    Probe { query: "purestalemate", lichess: 1, repository: 3 },
    Probe { query: "modelstalemate", lichess: 1, repository: 3 },
    Probe { query: "idealstalemate", lichess: 1, repository: 1 },
    Probe { query: "diagonal -1 1 K & Q", lichess: 90, repository: 429 },
    Probe { query: "x = 2 up x P & p", lichess: 377, repository: 1860 },
    Probe { query: "square x in Q true & a-h7", lichess: 100, repository: 365 },
    Probe { query: "piece x in N true -> k", lichess: 92, repository: 421 },
];

/// The games of a PGN text a query finds, with the plies of the positions that matched, and
/// what its persistent variables print at the end: cqlq's library, in this process.
fn cqlq(query: &str, games: &[u8]) -> (Vec<(u64, Vec<u32>)>, Vec<String>) {
    let query = Query::parse(query).unwrap_or_else(|error| panic!("{query}:\n{error}"));
    let options = SearchOptions { threads: 1, ..SearchOptions::from_header(query.header()) };
    let search = Search::new(query, options).unwrap();
    let mut record = Record::default();
    let mut summary = Summary::default();
    let mut input = Input::from_bytes("games.pgn", games.to_vec());
    let _flow = search.run(&mut input, &mut record, &mut summary).unwrap();
    (record.games, search.persistent_report())
}

fn repository_games() -> Vec<u8> {
    zstd::decode_all(std::fs::File::open("tests/cql/games.pgn.zst").unwrap()).unwrap()
}

#[test]
fn the_probes_find_what_cql_6_2_finds() {
    let games = repository_games();
    let wrong: Vec<String> = PROBES
        .iter()
        .filter_map(|probe| {
            let found = cqlq(probe.query, &games).0.len() as u64;
            (found != probe.repository).then(|| format!("{}: CQL 6.2 {}, cqlq {found}", probe.query, probe.repository))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Filters are tested in order up to the first that fails, and what the ones before it did
/// stands: the count of positions in check, though no position matches (CQL 6.2: 6734).
#[test]
fn side_effects_before_a_failing_filter_stand() {
    let games = repository_games();
    let (found, printed) = cqlq("check persistent cnt += 1 false", &games);
    assert!(found.is_empty());
    assert_eq!(printed, ["cnt: 6734"]);
    // A game filter after the effect does not stop it either; one before it does: then only
    // the checks of White's wins are counted (CQL 6.2: 2562).
    let (_, printed) = cqlq("check persistent cnt += 1 result 1-0 false", &games);
    assert_eq!(printed, ["cnt: 6734"]);
    let (_, printed) = cqlq("result 1-0 check persistent cnt += 1 false", &games);
    assert_eq!(printed, ["cnt: 2562"]);
}

/// The query does nothing in the games `gamenumber` leaves out: the persistent count covers
/// games 2 and 3 alone (CQL 6.2: 234 positions), or game 2 alone (119).
#[test]
fn games_left_out_by_gamenumber_are_not_searched() {
    let games = repository_games();
    assert_eq!(cqlq("cql(gamenumber 2 3) persistent x += 1", &games).1, ["x: 234"]);
    assert_eq!(cqlq("cql(gamenumber 2) persistent x += 1", &games).1, ["x: 119"]);
}

/// A comparison looks at its right side only where its left one has a value, as in CQL 6.2:
/// what the right side does is not done elsewhere (CQL 6.2: 0, 11 and 1, the count made at the
/// last position).
#[test]
fn a_comparison_looks_at_its_right_side_only_where_the_left_one_has_a_value() {
    let games = repository_games();
    assert_eq!(cqlq("persistent x = 0 pathcount > {x += 1 1}", &games).1, ["x: 0"]);
    assert_eq!(cqlq("persistent x = 0 pathcount != {x += 1 1}", &games).1, ["x: 0"]);
    assert_eq!(cqlq("persistent x = 0 {x += 1 0} < {x += 10 1}", &games).1, ["x: 11"]);
    assert_eq!(cqlq("persistent x = 0 {x += 1 originalcomment} in {x += 10 \"a\"}", &games).1, ["x: 1"]);
}

/// A transform that counts with a range (`flip N M F`): the copies that match, when they are
/// between N and M; its value is their number.
#[test]
fn transform_ranges_count_the_matching_copies() {
    let games = repository_games();
    let first = |query: &str| cqlq(query, &games).0.len();
    assert_eq!(first("initial flip 2 8 [Rr]a1"), 2000, "four corners hold rooks");
    assert_eq!(first("initial flip 5 8 [Rr]a1"), 0);
    assert_eq!(first("initial flip 4 [Rr]a1"), 2000);
    assert_eq!(first("initial x = flip 2 8 [Rr]a1 x == 4"), 2000);
}

const CQL: &str = "../shared/tools/cql6/cql";
const LICHESS: &str = "../shared/data/pgn/lichess_db_1000k.pgn";

/// What CQL 6.2 finds and prints: the number of games, and the lines after its closing line
/// (the persistent variables).
fn cql(query: &str, games: &Path, scratch: &Path) -> (u64, Vec<String>) {
    let file = scratch.join("probe.cql");
    std::fs::write(&file, format!("cql()\n{query}\n")).unwrap();
    let output =
        Command::new(CQL).arg("-s").arg("-i").arg(games).arg("-o").arg(scratch.join("out.pgn")).arg(&file).output();
    let stdout = String::from_utf8_lossy(&output.expect("CQL 6.2 runs").stdout).into_owned();
    let mut lines = stdout.lines().skip_while(|line| !line.contains(" matches of "));
    let closing = lines.next().unwrap_or_else(|| panic!("{query}: no closing line in\n{stdout}"));
    let games = closing.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap();
    (games, lines.map(str::to_owned).collect())
}

#[test]
#[ignore = "needs ../shared/tools/cql6 and ../shared/data"]
fn the_probes_find_what_cql_6_2_finds_live() {
    if Command::new(CQL).arg("-version").output().is_err() || !Path::new(LICHESS).exists() {
        println!("skipped: {CQL} or {LICHESS} is not here");
        return;
    }
    let scratch = crate::common::temp_dir("cql-probes");
    let lichess = std::fs::read(LICHESS).unwrap();
    let mut wrong = Vec::new();
    for probe in PROBES {
        let (cql_games, _) = cql(probe.query, Path::new(LICHESS), &scratch);
        let found = cqlq(probe.query, &lichess).0.len() as u64;
        if cql_games != probe.lichess || found != cql_games {
            wrong.push(format!("{}: recorded {}, CQL 6.2 {cql_games}, cqlq {found}", probe.query, probe.lichess));
        }
    }
    let effects = "check persistent cnt += 1 false";
    let (_, printed) = cql(effects, Path::new(LICHESS), &scratch);
    assert_eq!(printed, ["cnt: 2117"]);
    assert_eq!(cqlq(effects, &lichess).1, printed);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    std::fs::remove_dir_all(&scratch).unwrap();
}

/// A game with variations: 3...g6 and 4.Qxe5+ (twice) branch off the main line.
const VARIATIONS: &str = "[Event \"variations\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 (3... g6 4. Qf3 (4. Qxe5+ Qe7 \
    (4... Be7 5. Qxh8) 5. Qxh8) 4... Nf6) 4. Qxf7# (4. Qxe5+ Be7 (4... Qe7 5. Qxe7+ Bxe7) 5. Qxe7#) 1-0\n";

/// `line primary` follows main continuations only: from each check given in a variation to the
/// reply (CQL 6.2 marks the same three positions). Without variations, `line secondary` never
/// takes a step.
#[test]
fn lines_follow_primary_or_secondary_moves() {
    let plies = |query: &str| -> Vec<u32> {
        let query = format!("cql(variations) {query}");
        cqlq(&query, VARIATIONS.as_bytes()).0.into_iter().flat_map(|(_, plies)| plies).collect()
    };
    assert_eq!(plies("line primary --> check --> not check"), [7, 7, 9]);
    assert_eq!(plies("line --> check --> not check"), [7, 7, 9]);
    assert_eq!(plies("line primary --> . --> . --> check"), [5, 7]);
    let games = repository_games();
    assert!(cqlq("line secondary --> . --> .", &games).0.is_empty());
    assert_eq!(cqlq("line secondary --> .", &games).0.len(), 2000, "a run of one position takes no step");
}

/// Queries that look past the position tested, run with `cql(variations)` over games with many
/// variations: the moves from a position, its children, the positions after it, the runs of a
/// line or a path go into every variation, as in CQL 6.2.
const TREE_QUERIES: &[&str] = &[
    "child(1) : check",
    "move capture . comment(\"took\")",
    "virtualmainline",
    "find all check",
    "find <-- check",
    "echo (s t) descendant(s t) and t:check",
    "echo (s t) s [<] t and t:mate",
    "line --> check --> not check --> check",
    "line singlecolor --> check --> check",
    "line secondary --> true{2,}",
    "path --{2,} check",
    "path focus Q --{2}",
    "path piecepath focus [Nn] --{3}",
    "x = child(1) x : check",
    "terminal",
    "R--",
    "move to c3 comment(\"to c3\")",
];

/// `cql(variations)` searches a game's whole tree: the output of each tree query on games with
/// variations is the same, byte for byte, as CQL 6.2's.
#[test]
#[ignore = "needs ../shared/tools/cql6"]
fn the_game_tree_is_searched_as_cql_6_2_searches_it_live() {
    if Command::new(CQL).arg("-version").output().is_err() {
        println!("skipped: {CQL} is not here");
        return;
    }
    let scratch = crate::common::temp_dir("cql-tree");
    let games = Path::new("tests/cql_differential/annotated.pgn");
    let mut wrong = Vec::new();
    for query in TREE_QUERIES {
        let file = scratch.join("tree.cql");
        std::fs::write(&file, format!("cql(variations)\n{query}\n")).unwrap();
        let run = |program: &mut Command, output: &str| {
            let output = scratch.join(output);
            let ran = program.arg("-s").arg("-i").arg(games).arg("-o").arg(&output).arg(&file).output().unwrap();
            assert!(ran.status.success(), "{query}: {}", String::from_utf8_lossy(&ran.stderr));
            std::fs::read(&output).unwrap_or_default()
        };
        let theirs = run(&mut Command::new(CQL), "cql6.pgn");
        let ours = run(Command::new(env!("CARGO_BIN_EXE_cqlq")).arg("cql"), "cqlq.pgn");
        if theirs.is_empty() || theirs != ours {
            wrong.push(format!("{query}: CQL 6.2 wrote {} bytes, cqlq {} (or they differ)", theirs.len(), ours.len()));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    std::fs::remove_dir_all(&scratch).unwrap();
}
