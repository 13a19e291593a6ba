//! The example queries of `queries/`: each finds its theme in the samples and passes over a
//! near miss of it. A case names a query file, the samples it is tried on, what it must find
//! there and the near misses it must not find; every file of `queries/` has a case of each
//! kind.
//!
//! Games are searched in this process with the options of the query's header, as `cqlq
//! search` does; a game is named by its `Event` tag (with its `Round` where several games
//! share one), or `game N` in a file without tags. Positions are tested as `cqlq filter` tests
//! them, each named by the comment above it.

use std::collections::BTreeSet;
use std::path::Path;

use cqlq::notation::sniff::read_position;
use cqlq::search::{Input, Search, SearchOptions, Summary};
use cqlq::{Plan, Query};

use crate::common::Record;

/// Where a case's games or positions come from.
#[derive(Clone, Copy, Debug)]
enum Sample {
    /// Files of `samples/games/`, searched as one input (so all in one notation).
    Games(&'static [&'static str]),
    /// A file of `samples/positions/`; its positions of the query's variant are tested.
    Positions(&'static str),
}

use Sample::{Games, Positions};

/// A query of `queries/`, tried on a sample: the games or positions it must find, and the near
/// misses it must not.
struct Case {
    /// The file of `queries/`.
    query: &'static str,
    /// Where it is tried.
    sample: Sample,
    /// The games or positions that show its theme.
    finds: &'static [&'static str],
    /// Its near misses.
    passes_over: &'static [&'static str],
}

/// The classical samples: famous games, short games, composed themes and their near misses.
const CLASSICS: &str = "classics.pgn";
const SHORT_GAMES: &str = "short-games.pgn";
const THEMES: &str = "themes.pgn";
const NEAR_MISSES: &str = "near-misses.pgn";

const CASES: &[Case] = &[
    Case {
        query: "back-rank-mate.cql",
        sample: Games(&[CLASSICS, THEMES]),
        finds: &["A Bristol clearance on the first rank"],
        // 17. Rd8#: the flight square e7 is covered by the bishop on g5, not blocked.
        passes_over: &["Paris"],
    },
    Case {
        query: "bristol-clearance.cql",
        sample: Games(&[THEMES, NEAR_MISSES]),
        finds: &["A Bristol clearance on the first rank"],
        passes_over: &["A rook clears the first rank, and the queen stops short of its square"],
    },
    Case {
        query: "checks-in-a-row.cql",
        sample: Games(&[THEMES, NEAR_MISSES]),
        finds: &["A check answered by a check"],
        passes_over: &["A check answered by a block that does not check"],
    },
    Case {
        query: "connected-passed-pawns.cql",
        sample: Games(&[THEMES, NEAR_MISSES]),
        finds: &["Connected passed pawns on the sixth rank"],
        passes_over: &["Passed pawns on the sixth rank, not side by side"],
    },
    Case {
        query: "discovered-check.cql",
        sample: Games(&[CLASSICS, SHORT_GAMES, NEAR_MISSES]),
        finds: &["Berlin", "New York", "Two discovered checks, the king does not come back"],
        passes_over: &["A check by castling", "A trap of the Blackburne Shilling gambit"],
    },
    Case {
        query: "double-check.cql",
        sample: Games(&[CLASSICS]),
        // 22. Bf5+, the bishop and the rook on d1.
        finds: &["Berlin"],
        // Discovered checks by a knight that gives no check itself.
        passes_over: &["New York"],
    },
    Case {
        query: "few-pieces.cql",
        sample: Games(&[SHORT_GAMES, NEAR_MISSES]),
        finds: &["King and pawn against king"],
        passes_over: &["Six pieces: rook and pawn against rook and pawn"],
    },
    Case {
        query: "greek-gift.cql",
        sample: Games(&[THEMES, NEAR_MISSES]),
        finds: &["A Greek gift in the French Defence"],
        passes_over: &["A Greek gift declined"],
    },
    Case {
        query: "king-walk.cql",
        sample: Games(&["xdecor-moves-raw.txt"]),
        finds: &["game 7", "game 9", "game 10", "game 11", "game 14", "game 15", "game 17", "game 19"],
        passes_over: &[],
    },
    Case {
        query: "king-walk.cql",
        sample: Games(&[NEAR_MISSES]),
        // 11...Kg7, the queens on the board.
        finds: &["A Greek gift declined"],
        passes_over: &["A king walk with the queens off"],
    },
    Case {
        query: "light-squared-bishops.cql",
        sample: Games(&[THEMES, NEAR_MISSES]),
        finds: &["Light-squared bishops only"],
        passes_over: &["A dark-squared bishop beside the light-squared ones"],
    },
    Case {
        query: "mate-without-the-queen.cql",
        sample: Games(&[CLASSICS, SHORT_GAMES]),
        finds: &["London", "Berlin", "Paris", "New York"],
        // 7...Nf3#, Black's queen on e4.
        passes_over: &["A trap of the Blackburne Shilling gambit"],
    },
    Case {
        query: "pinned-queen.cql",
        sample: Games(&[THEMES, NEAR_MISSES]),
        finds: &["A queen pinned against its king"],
        passes_over: &["A knight pinned against its queen"],
    },
    Case {
        query: "queen-on-h7.cql",
        sample: Games(&[THEMES, NEAR_MISSES]),
        finds: &["A Greek gift in the French Defence"],
        passes_over: &["A queen on h7, the king on f8"],
    },
    Case {
        query: "queen-sacrifice.cql",
        sample: Games(&[CLASSICS, NEAR_MISSES]),
        // 22. Qf6+, 21. Qxd7+ and 16. Qb8+.
        finds: &["London", "Berlin", "Paris"],
        passes_over: &["A queen trade, no sacrifice", "A queen given away in a game lost"],
    },
    Case {
        query: "rook-on-the-seventh.cql",
        sample: Games(&[CLASSICS]),
        finds: &["Berlin", "Paris"],
        // Black's rook on the second rank with White's king on the first: White's rooks only.
        passes_over: &["New York"],
    },
    Case {
        query: "royal-fork.cql",
        sample: Games(&[CLASSICS, THEMES]),
        // 17. Nf6+ and 1. e8=N+.
        finds: &["Berlin", "An underpromotion to a knight with check"],
        // 21. Nxg7+ attacks no queen.
        passes_over: &["London"],
    },
    Case {
        query: "scidb-corners.cql",
        sample: Games(&[CLASSICS, NEAR_MISSES]),
        finds: &["London", "Berlin", "Paris", "New York"],
        passes_over: &["The white king alone in a corner"],
    },
    Case {
        query: "smothered-mate.cql",
        sample: Games(&[SHORT_GAMES, NEAR_MISSES]),
        finds: &["A trap of the Blackburne Shilling gambit"],
        passes_over: &["A knight mate with a flight square covered by a bishop"],
    },
    Case {
        query: "turton-doubling.cql",
        sample: Games(&[THEMES, NEAR_MISSES]),
        finds: &["A Turton doubling on the long diagonal"],
        passes_over: &["A battery formed without a critical move"],
    },
    Case {
        query: "underpromotion.cql",
        sample: Games(&[SHORT_GAMES, THEMES]),
        finds: &["An underpromotion to a knight with check"],
        // 8. e8=Q.
        passes_over: &["King and pawn against king"],
    },
    Case {
        query: "windmill.cql",
        sample: Games(&[CLASSICS, NEAR_MISSES]),
        // 20...Nxd4+ 21. Kg1 Ne2+ 22. Kf1 Nc3+.
        finds: &["New York"],
        passes_over: &["Two discovered checks, the king does not come back"],
    },
    Case {
        query: "wins-by-material.cql",
        sample: Games(&[CLASSICS, SHORT_GAMES, THEMES]),
        finds: &[
            "A Turton doubling on the long diagonal",
            "A Bristol clearance on the first rank",
            "King and pawn against king",
        ],
        // White wins a piece down; Black's win.
        passes_over: &["London", "New York"],
    },
    Case {
        query: "knight-in-hand.cql",
        sample: Games(&["random-crazyhouse.pgn"]),
        finds: &["Random games Crazyhouse, round 7", "Random games Crazyhouse, round 29"],
        // White holds a knight and Black two pieces, but never at once.
        passes_over: &["Random games Crazyhouse, round 1"],
    },
    Case {
        query: "laser-beam-at-a-king.cql",
        sample: Games(&["laser-captures.pgn", "laser-setups.pgn"]),
        finds: &["Red hits Blue's King", "Mercury, twelve moves"],
        // Blue's beam reaches its King only after the turn that aims it.
        passes_over: &["A step opens the beam", "Blue hits its own King"],
    },
    Case {
        query: "laser-own-king.cql",
        sample: Games(&["laser-captures.pgn"]),
        finds: &["Blue hits its own King"],
        passes_over: &["Red hits Blue's King"],
    },
    Case {
        query: "laser-own-king.cql",
        sample: Games(&["laser-moves.txt"]),
        finds: &["game 1"],
        passes_over: &["game 2", "game 3"],
    },
    Case {
        query: "laser-swap-removes.cql",
        sample: Games(&["laser-captures.pgn"]),
        finds: &["A swap turns the beam"],
        // A rotation, not a swap, makes the beam remove a piece.
        passes_over: &["A rotation aims the beam"],
    },
    Case {
        query: "laser-deflectors.cql",
        sample: Positions("laser.sn"),
        finds: &["The Ace setup"],
        passes_over: &["An endgame: kings, lasers and two Deflectors"],
    },
    Case {
        query: "ceo-upgraded-knight.cql",
        sample: Positions("ceo.fen"),
        finds: &[
            "White with two Knights of tier + and a Wizard",
            "Mixed armies, Black to move: White has a Wizard and a Knight of tier +++",
            "An ending: a white Knight of tier + against a black Wizard",
        ],
        passes_over: &["The classic army on both sides: Knights of the base tier, no Wizard"],
    },
    Case {
        query: "monolith-and-starchild.cql",
        sample: Positions("croatian.txt"),
        finds: &["One: Monoliths, Stars and a Starchild"],
        passes_over: &["One: the Monolith on b8, the Starchildren far from the middle ranks"],
    },
    Case {
        query: "pyramid-on-the-first-rank.cql",
        sample: Positions("croatian.txt"),
        finds: &["Mayan Ascendancy: a light Pyramid on the first rank"],
        passes_over: &["Mayan Ascendancy, the initial position: as many light pieces as dark ones"],
    },
    Case {
        query: "antichess-forced-capture.cql",
        sample: Games(&["antichess.pgn"]),
        finds: &["Casual Antichess game, round 3", "Casual Antichess game, round 4", "Casual Antichess game, round 6"],
        passes_over: &[
            "Casual Antichess game, round 1",
            "Casual Antichess game, round 2",
            "Casual Antichess game, round 5",
        ],
    },
    Case {
        query: "atomic-explosion-next-to-king.cql",
        sample: Games(&["atomic.pgn"]),
        finds: &[
            "Casual Atomic game, round 2",
            "Casual Atomic game, round 3",
            "Casual Atomic game, round 4",
            "Casual Atomic game, round 6",
        ],
        passes_over: &["Casual Atomic game, round 1", "Casual Atomic game, round 5"],
    },
    Case {
        query: "horde-pawn-wall.cql",
        sample: Games(&["horde.pgn"]),
        finds: &["Casual Horde game, round 1", "Casual Horde game, round 3", "Casual Horde game, round 4"],
        passes_over: &["Casual Horde game, round 2", "Casual Horde game, round 5", "Casual Horde game, round 6"],
    },
    Case {
        query: "king-of-the-hill-centre.cql",
        sample: Games(&["king-of-the-hill.pgn"]),
        finds: &["Casual King of the Hill game, round 2", "Casual King of the Hill game, round 4"],
        passes_over: &[
            "Casual King of the Hill game, round 1",
            "Casual King of the Hill game, round 3",
            "Casual King of the Hill game, round 5",
            "Casual King of the Hill game, round 6",
        ],
    },
    Case {
        query: "racing-kings-race.cql",
        sample: Games(&["racing-kings.pgn"]),
        finds: &["Casual Racing Kings game, round 5"],
        passes_over: &[
            "Casual Racing Kings game, round 1",
            "Casual Racing Kings game, round 2",
            "Casual Racing Kings game, round 3",
            "Casual Racing Kings game, round 4",
            "Casual Racing Kings game, round 6",
        ],
    },
    Case {
        query: "three-check-checks.cql",
        sample: Games(&["three-check.pgn"]),
        finds: &[
            "Casual Three-check game, round 1",
            "Casual Three-check game, round 4",
            "Casual Three-check game, round 6",
        ],
        passes_over: &[
            "Casual Three-check game, round 2",
            "Casual Three-check game, round 3",
            "Casual Three-check game, round 5",
        ],
    },
];

/// A file of the crate, as text.
fn read(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// The value of a PGN tag line (`[Event "London"]`) with this name.
fn tag_value<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let rest = line.strip_prefix('[')?.strip_prefix(name)?.strip_prefix(" \"")?;
    rest.strip_suffix("\"]")
}

/// The names of the games of a text, in order: the `Event` tag, with `, round R` where several
/// games share the event; `game N` for the `count` games of a text without tags.
fn game_names(text: &str, count: u64) -> Vec<String> {
    let mut games: Vec<(String, Option<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(event) = tag_value(line, "Event") {
            games.push((event.to_owned(), None));
        } else if let (Some(round), Some(game)) = (tag_value(line, "Round"), games.last_mut()) {
            game.1 = Some(round.to_owned());
        }
    }
    if games.is_empty() {
        return (1..=count).map(|number| format!("game {number}")).collect();
    }
    assert_eq!(games.len() as u64, count, "every game read has an Event tag");
    let shared = |event: &str| games.iter().filter(|(other, _)| other == event).count() > 1;
    games
        .iter()
        .map(|(event, round)| match round {
            Some(round) if shared(event) => format!("{event}, round {round}"),
            _ => event.clone(),
        })
        .collect()
}

/// The names of the games of `text` that a query finds, searched as `cqlq search` does, and
/// the names of all its games.
fn games_found(query: Query, text: &str) -> (BTreeSet<String>, Vec<String>) {
    let options = SearchOptions { variant: query.variant(), threads: 1, ..SearchOptions::from_header(query.header()) };
    let search = Search::new(query, options).unwrap();
    let (mut record, mut summary) = (Record::default(), Summary::default());
    let mut input = Input::from_bytes("sample", text.as_bytes().to_vec());
    let _flow = search.run(&mut input, &mut record, &mut summary).unwrap();
    assert_eq!(record.problems, Vec::<String>::new(), "every game replays");
    let names = game_names(text, summary.games);
    let found = record.games.iter().map(|(number, _)| names[*number as usize - 1].clone()).collect();
    (found, names)
}

/// The positions of a positions file, each named by the comment line above it (without `# `
/// and a final `.` or `:`).
fn named_positions(text: &str) -> Vec<(String, &str)> {
    let mut name = String::new();
    let mut positions = Vec::new();
    for line in text.lines().map(str::trim).filter(|line| !line.is_empty()) {
        match line.strip_prefix('#') {
            Some(comment) => name = comment.trim().trim_end_matches(['.', ':']).to_owned(),
            None => positions.push((name.clone(), line)),
        }
    }
    positions
}

/// The names of the named positions of `text` that a query's plan finds, tested as `cqlq
/// filter` tests them, and the names of all its positions; each named position must be one
/// position of the plan's variant.
fn positions_found(plan: &Plan, text: &str, names: &[&str]) -> (BTreeSet<String>, Vec<String>) {
    let positions = named_positions(text);
    let mut found = BTreeSet::new();
    for name in names {
        let lines: Vec<&str> = positions.iter().filter(|(other, _)| other == name).map(|(_, line)| *line).collect();
        assert_eq!(lines.len(), 1, "'{name}' names one position");
        let position = read_position(lines[0], Some(plan.variant())).unwrap_or_else(|e| panic!("{name}: {e}"));
        if plan.matches(&position) {
            found.insert((*name).to_owned());
        }
    }
    (found, positions.into_iter().map(|(name, _)| name).collect())
}

/// What a case's query finds of the case's names, and every name of its sample.
fn run(case: &Case) -> (BTreeSet<String>, Vec<String>) {
    let query = Query::parse(&read(&format!("queries/{}", case.query))).unwrap_or_else(|e| panic!("{e}"));
    match case.sample {
        Games(files) => {
            let texts: Vec<String> = files.iter().map(|file| read(&format!("samples/games/{file}"))).collect();
            games_found(query, &texts.join("\n"))
        }
        Positions(file) => {
            let variant = query.variant().expect("a query of positions names its variant");
            let plan = query.compile(variant).unwrap_or_else(|e| panic!("{e}"));
            let names: Vec<&str> = case.finds.iter().chain(case.passes_over).copied().collect();
            positions_found(&plan, &read(&format!("samples/positions/{file}")), &names)
        }
    }
}

/// Each case's query finds what it must and none of its near misses, all of them named in the
/// case's sample.
#[test]
fn each_example_query_finds_its_theme_and_passes_over_a_near_miss() {
    let mut wrong = Vec::new();
    for case in CASES {
        let (found, names) = run(case);
        let what = format!("{} on {:?}", case.query, case.sample);
        for name in case.finds.iter().chain(case.passes_over) {
            assert!(names.iter().any(|other| other == name), "{what}: no game or position is named '{name}'");
        }
        wrong.extend(
            case.finds.iter().filter(|name| !found.contains(**name)).map(|name| format!("{what}: misses '{name}'")),
        );
        wrong.extend(
            case.passes_over.iter().filter(|name| found.contains(**name)).map(|name| format!("{what}: finds '{name}'")),
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every file of `queries/` has a case that finds its theme and one that passes over a near miss.
#[test]
fn every_example_query_has_a_theme_and_a_near_miss() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("queries");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let with =
        |file: &str, part: fn(&Case) -> &[&str]| CASES.iter().any(|case| case.query == file && !part(case).is_empty());
    let lacking: Vec<&String> =
        files.iter().filter(|file| !with(file, |case| case.finds) || !with(file, |case| case.passes_over)).collect();
    assert!(lacking.is_empty(), "example queries without a theme found and a near miss passed over: {lacking:?}");
    assert!(
        CASES.iter().all(|case| files.iter().any(|file| file == case.query)),
        "every case names a file of queries/"
    );
}

/// The queries of the README's tour of the language: each block of code holds queries parted
/// by blank lines, and each compiles for the variant its header names (Standard without one).
#[test]
fn the_readme_tour_s_examples_compile() {
    let readme = std::fs::read_to_string("README.md").expect("the README");
    let start = readme.find("## A tour of the query language").expect("the tour");
    let end = start + readme[start..].find("\n## Positions").expect("the section after the tour");
    let mut blocks = readme[start..end].split("```").skip(1).step_by(2);
    let mut compiled = 0;
    for block in blocks.by_ref() {
        for text in block.split("\n\n").filter(|text| text.lines().any(|line| !line.starts_with("//"))) {
            // A rendered mistake, shown as cqlq prints it, is no query.
            if text.trim_start().starts_with("error:") {
                continue;
            }
            let query = Query::parse(text).unwrap_or_else(|error| panic!("{text}\n{error}"));
            let variant = query.variant().unwrap_or_else(cqlq::Variant::standard);
            query.compile(variant).unwrap_or_else(|error| panic!("{text}\n{error}"));
            compiled += 1;
        }
    }
    assert!(compiled >= 8, "{compiled} examples");
}
