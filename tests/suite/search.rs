//! `cqlq search` as a user runs it, and the search library: formats, options, inputs, errors,
//! and output that does not depend on the number of threads.

use crate::common;

use common::{Record, temp_dir, text};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

use cqlq::Query;
use cqlq::search::{Input, Search, SearchOptions, Summary};

fn cqlq(args: &[&str], stdin: &[u8]) -> Output {
    common::run_cqlq(args, stdin)
}

fn search(query: &str, pgn: &str, options: SearchOptions) -> (Record, Summary) {
    let search = Search::new(Query::parse(query).unwrap(), options).unwrap();
    let mut record = Record::default();
    let mut summary = Summary::default();
    let _ = search.run(&mut Input::from_bytes("test.pgn", pgn.as_bytes().to_vec()), &mut record, &mut summary).unwrap();
    (record, summary)
}

#[test]
fn counts_on_the_samples() {
    let output = cqlq(&["search", "-c", "Ra-h7 ka-h8", "--count", "samples/games/classics.pgn"], b"");
    assert_eq!(text(&output.stdout), "2 games matched (2 positions) of 4 games read, 0 with errors\n");
    assert_eq!(output.status.code(), Some(0));
    let output = cqlq(&["search", "-c", "Qa1 qa1", "--count", "samples/games/classics.pgn"], b"");
    assert_eq!(text(&output.stdout), "0 games matched (0 positions) of 4 games read, 0 with errors\n");
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn pgn_output_marks_matched_positions() {
    let output = cqlq(&["search", "-c", "Rd8 ke8", "samples/games/classics.pgn"], b"");
    let out = text(&output.stdout);
    assert!(out.starts_with("[Event \"Paris\"]\n"), "{out}");
    assert!(out.ends_with("16. Qb8+ Nxb8 17. Rd8# {CQL} 1-0\n\n"), "{out}");
    // The king stays home for plies 0 to 22 of game 3 (23 positions).
    let output = cqlq(
        &["search", "-c", "Ke1", "--matchstring", "home", "--matchcount", "20-30", "samples/games/classics.pgn"],
        b"",
    );
    let out = text(&output.stdout);
    assert!(out.starts_with("[Event \"Paris\"]"), "{out}");
    assert!(out.contains("\n\n{home} 1. e4 {home} e5 {home} 2. Nf3 {home} d6"), "{out}");
    assert!(out.contains("11. Bxb5+ {home} Nbd7 {home} 12. O-O-O Rd8"), "{out}");
    assert_eq!(out.matches("{home}").count(), 23);
}

#[test]
fn jsonl_output() {
    let output = cqlq(&["search", "-c", "Rd8 ke8", "--format", "jsonl", "samples/games/classics.pgn"], b"");
    assert_eq!(
        text(&output.stdout),
        "{\"game\":3,\"offset\":864,\"line\":29,\"plies\":[33],\"white\":\"Paul Morphy\",\"black\":\"Duke Karl / Count Isouard\",\"result\":\"1-0\",\"input\":\"samples/games/classics.pgn\"}\n"
    );
}

#[test]
fn one_thread_and_many_print_the_same_bytes() {
    let inputs = [
        "samples/games/random-standard.pgn",
        "samples/games/random-chess960.pgn",
        "samples/games/random-crazyhouse.pgn",
        "samples/games/classics.pgn",
    ];
    for format in ["pgn", "jsonl"] {
        let mut outputs = Vec::new();
        for threads in ["1", "2", "7"] {
            let mut args = vec!["search", "-c", "[Qq] & [a-h4-5]", "--variations", "--format", format, "-j", threads];
            args.extend(inputs);
            let output = cqlq(&args, b"");
            assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
            outputs.push(output.stdout);
        }
        assert!(outputs[0].len() > 1000);
        assert!(outputs.windows(2).all(|pair| pair[0] == pair[1]), "{format}");
    }
}

/// Corrupts one move in some games: those games report an error at that move (their positions
/// before it are still searched), and every other game matches exactly as before.
#[test]
fn a_corrupted_game_hides_no_other_match() {
    let pgn = common::games::random_games("Standard", 300, 99);
    let query = "[Rr] & [a-h4-5] or #[Qq] == 0";
    let (clean, clean_summary) = search(query, &pgn, SearchOptions::default());
    assert_eq!(clean_summary.errors, 0);
    // Corrupt the 10th move token of every 17th game: an illegal or unreadable move.
    let mut corrupted = String::new();
    let mut broken = Vec::new();
    for (index, game) in pgn.split("\n\n[Event").enumerate() {
        let game = if index == 0 { game.to_owned() } else { format!("[Event{game}") };
        let mut game = game;
        if index % 17 == 5 {
            let movetext_start = game.find("\n\n").unwrap() + 2;
            let (head, tail) = game.split_at(movetext_start);
            let mut words: Vec<String> = tail.split(' ').map(str::to_owned).collect();
            let is_move = |word: &str| {
                word.starts_with(|c: char| c.is_ascii_alphabetic()) && !word.ends_with('}') && !word.contains('.')
            };
            let moves: Vec<usize> = (0..words.len()).filter(|&i| is_move(&words[i])).collect();
            if let Some(&target) = moves.get(10) {
                words[target] = if index % 2 == 0 { "Qh9".to_owned() } else { "Ke4".to_owned() };
                broken.push(index as u64 + 1);
            }
            game = format!("{head}{}", words.join(" "));
        }
        if index > 0 {
            corrupted.push_str("\n\n");
        }
        corrupted.push_str(&game);
    }
    let (damaged, summary) = search(query, &corrupted, SearchOptions::default());
    assert_eq!(summary.games, 300);
    assert_eq!(summary.errors, broken.len() as u64);
    assert_eq!(damaged.problems.len(), broken.len());
    for (problem, game) in damaged.problems.iter().zip(&broken) {
        assert!(problem.starts_with(&format!("game {game} ")), "{problem}");
        assert!(problem.contains("ply 11 "), "{problem}");
    }
    let without = |record: &Record| -> Vec<(u64, Vec<u32>)> {
        record.games.iter().filter(|(number, _)| !broken.contains(number)).cloned().collect()
    };
    assert_eq!(without(&clean), without(&damaged), "every other game matches exactly as before");
    // In a broken game, the positions before the error were searched.
    for (number, plies) in damaged.games.iter().filter(|(number, _)| broken.contains(number)) {
        assert!(plies.iter().all(|&ply| ply <= 10), "game {number}: {plies:?}");
        let before: Vec<u32> = clean
            .games
            .iter()
            .find(|(n, _)| n == number)
            .map_or(Vec::new(), |(_, p)| p.iter().copied().filter(|&p| p <= 10).collect());
        assert_eq!(plies, &before);
    }
}

#[test]
fn errors_are_reported_and_listed() {
    let dir = temp_dir("errors");
    let pgn = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 Qh9 *\n\n[Event \"b\"]\n\n1. d4 d5 2. Ke4 *\n\n[Event \"c\"]\n\n1. c4 *\n";
    let path = dir.join("broken.pgn");
    std::fs::write(&path, pgn).unwrap();
    let errors = dir.join("errors.jsonl");
    let output =
        cqlq(&["search", "-c", "Pc4", "--count", "--errors", errors.to_str().unwrap(), path.to_str().unwrap()], b"");
    assert_eq!(text(&output.stdout), "1 game matched (1 position) of 3 games read, 2 with errors\n");
    let stderr = text(&output.stderr);
    assert!(stderr.contains(&format!("cqlq: {}:4: game 1, ply 6, move 'Qh9': not a move", path.display())), "{stderr}");
    assert!(
        stderr.contains(&format!("cqlq: {}:8: game 2, ply 3, move 'Ke4': illegal move", path.display())),
        "{stderr}"
    );
    let log = std::fs::read_to_string(&errors).unwrap();
    assert_eq!(log.lines().count(), 2);
    assert!(
        log.starts_with(&format!(
            "{{\"input\":\"{}\",\"game\":1,\"offset\":40,\"line\":4,\"ply\":6,\"move\":\"Qh9\",\"error\":\"not a move\",\"severity\":\"error\"}}",
            path.display()
        )),
        "{log}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn stdin_gzip_and_zstd_inputs() {
    let pgn =
        std::fs::read("samples/games/classics.pgn".replace('/', std::path::MAIN_SEPARATOR_STR)).unwrap_or_else(|_| {
            std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/games/classics.pgn")).unwrap()
        });
    let expected = "2 games matched (2 positions) of 4 games read, 0 with errors\n";
    let output = cqlq(&["search", "-c", "Ra-h7 ka-h8", "--count"], &pgn);
    assert_eq!(text(&output.stdout), expected);
    let output = cqlq(&["search", "-c", "Ra-h7 ka-h8", "--count", "-"], &pgn);
    assert_eq!(text(&output.stdout), expected);
    let dir = temp_dir("compressed");
    let gz = dir.join("games.pgn.gz");
    let mut encoder =
        flate2::write::GzEncoder::new(std::fs::File::create(&gz).unwrap(), flate2::Compression::default());
    encoder.write_all(&pgn).unwrap();
    encoder.finish().unwrap();
    let zst = dir.join("games.pgn.zst");
    std::fs::write(&zst, zstd::encode_all(&pgn[..], 3).unwrap()).unwrap();
    for path in [&gz, &zst] {
        let output = cqlq(&["search", "-c", "Ra-h7 ka-h8", "--count", path.to_str().unwrap()], b"");
        assert_eq!(text(&output.stdout), expected, "{}", path.display());
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn header_parameters_and_options() {
    let dir = temp_dir("header");
    let out = dir.join("hits.pgn");
    let query = dir.join("query.cql");
    std::fs::write(
        &query,
        format!(
            "cql(input samples/games/classics.pgn output {} matchstring \"seventh\" result 1-0)\nRa-h7 ka-h8\n",
            out.display()
        ),
    )
    .unwrap();
    let output = cqlq(&["search", query.to_str().unwrap()], b"");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let hits = std::fs::read_to_string(&out).unwrap();
    assert_eq!(hits.matches("{seventh}").count(), 2);
    // Command-line options win over the header.
    let output = cqlq(&["search", query.to_str().unwrap(), "--matchstring", "R7", "-o", "-"], b"");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout).matches("{R7}").count(), 2, "`-o -` writes to stdout");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), hits, "the header's output is not used");
    let output = cqlq(&["search", query.to_str().unwrap(), "--count", "--limit", "1", "-o", "-"], b"");
    assert_eq!(text(&output.stdout), "1 game matched (1 position) of 2 games read, 0 with errors\n");
    // The count goes where the games would: here, the header's output.
    let output = cqlq(&["search", query.to_str().unwrap(), "--count"], b"");
    assert_eq!(output.stdout, b"");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "2 games matched (2 positions) of 4 games read, 0 with errors\n"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn game_numbers_limits_and_matchcounts() {
    let pgn = common::games::random_games("Standard", 40, 5);
    let (all, _) = search("[Nn] & [a-h4-5]", &pgn, SearchOptions::default());
    let (some, summary) =
        search("[Nn] & [a-h4-5]", &pgn, SearchOptions { gamenumber: Some((10, Some(20))), ..SearchOptions::default() });
    let expected: Vec<_> = all.games.iter().filter(|(n, _)| (10..=20).contains(n)).cloned().collect();
    assert_eq!(some.games, expected);
    assert_eq!(summary.games, 20, "reading stops after the last game asked for");
    let (limited, summary) =
        search("[Nn] & [a-h4-5]", &pgn, SearchOptions { limit: Some(3), ..SearchOptions::default() });
    assert_eq!(limited.games, all.games[..3]);
    assert_eq!(summary.matched, 3);
    let (many, _) =
        search("[Nn] & [a-h4-5]", &pgn, SearchOptions { matchcount: (5, None), ..SearchOptions::default() });
    let expected: Vec<_> = all.games.iter().filter(|(_, plies)| plies.len() >= 5).cloned().collect();
    assert_eq!(many.games, expected);
}

/// Thousands of games, more than the search replays before it writes the first: every game is
/// found once and in order, whatever the threads, and limits stop at the game they name.
#[test]
fn many_games_come_out_in_order() {
    let games = 7000;
    let pgn: String = (1..=games)
        .map(|number| {
            // Every third game has its queen reach h5.
            let moves = if number % 3 == 0 { "1. e4 e5 2. Qh5 Nc6 *" } else { "1. d4 d5 2. c4 e6 *" };
            format!("[Event \"{number}\"]\n\n{moves}\n\n")
        })
        .collect();
    let expected: Vec<(u64, Vec<u32>)> = (1..=games).filter(|n| n % 3 == 0).map(|n| (n, vec![3, 4])).collect();
    for threads in [1, 3] {
        let options = SearchOptions { threads, ..SearchOptions::default() };
        let (all, summary) = search("Qh5", &pgn, options.clone());
        assert_eq!(all.games, expected, "{threads} threads");
        assert_eq!(summary.games, games);
        let (limited, _) = search("Qh5", &pgn, SearchOptions { limit: Some(1500), ..options.clone() });
        assert_eq!(limited.games, expected[..1500], "{threads} threads");
        let (some, _) = search("Qh5", &pgn, SearchOptions { gamenumber: Some((2000, Some(6500))), ..options });
        let within: Vec<_> = expected.iter().filter(|(n, _)| (2000..=6500).contains(n)).cloned().collect();
        assert_eq!(some.games, within, "{threads} threads");
    }
}

#[test]
fn variations_are_searched_on_request() {
    let pgn = "[Event \"v\"]\n\n1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 2. Nf3 *\n";
    let (main, _) = search("Pc4", pgn, SearchOptions::default());
    assert!(main.games.is_empty());
    let (all, _) = search("Pc4", pgn, SearchOptions { variations: true, ..SearchOptions::default() });
    assert_eq!(all.games, [(1, vec![3, 3])]);
    let output = cqlq(&["search", "-c", "Pc4", "--variations"], pgn.as_bytes());
    assert_eq!(
        text(&output.stdout),
        "[Event \"v\"]\n\n1. e4 (1. d4 d5 (1... Nf6 2. c4 {CQL}) 2. c4 {CQL}) 1... e5 2. Nf3 *\n\n"
    );
}

#[test]
fn a_bad_query_stops_before_any_game() {
    let output = cqlq(&["search", "-c", "Rk9", "samples/games/classics.pgn"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("rank 9 is outside the 8x8 board of Standard"));
    assert_eq!(output.stdout, b"");
    let output = cqlq(&["search", "-c", "K", "samples/games/missing.pgn", "samples/games/classics.pgn"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("samples/games/missing.pgn"));
    assert!(text(&output.stdout).contains("[Event \"Paris\"]"), "other inputs are still read");
}

/// The real data: the lichess sample and every edge file replay, with no error.
#[test]
#[ignore = "needs ../shared/data"]
fn real_files_replay() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pgn");
    let mut lines = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(data.join("edge")).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    paths.insert(0, data.join("lichess_db_1000k.pgn"));
    for path in paths {
        let output = cqlq(&["search", "-c", "[Aa]", "--count", "--variations", path.to_str().unwrap()], b"");
        let count = text(&output.stdout);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let errors = text(&output.stderr);
        // The Antichess games (lichess's, with promotions to a king) replay to their end too.
        assert!(count.ends_with(", 0 with errors\n"), "{name}: {count}{errors}");
        lines.push(format!("{name}: {}", count.trim()));
    }
    println!("{}", lines.join("\n"));
}

#[test]
fn no_progress_line_when_standard_error_is_no_terminal() {
    let output = cqlq(&["search", "-c", "Ra-h7 ka-h8", "samples/games/classics.pgn"], b"");
    assert_eq!(output.status.code(), Some(0));
    assert!(!output.stdout.is_empty());
    let summary = text(&output.stderr);
    assert!(!summary.contains('\r'), "no progress line on a piped standard error: {summary:?}");
    assert!(
        summary.starts_with("cqlq: 2 games matched (2 positions) of 4 games read, 0 with errors, in "),
        "{summary}"
    );
    assert_eq!(summary.lines().count(), 1);
    let output = cqlq(&["search", "-q", "-c", "Ra-h7 ka-h8", "samples/games/classics.pgn"], b"");
    assert_eq!(text(&output.stderr), "", "--quiet leaves errors alone on standard error");
}

/// Sorted games as a sink sees them: number, sort value, and the text's bytes.
#[derive(Default)]
struct Sorted(Vec<(u64, Option<i64>, Vec<u8>)>);

impl cqlq::search::Sink for Sorted {
    fn found(&mut self, game: &cqlq::search::Found<'_>) -> std::io::Result<()> {
        let sort = match game.sort.first() {
            Some(Some(cqlq::query::SortValue::Number(value))) => Some(*value),
            _ => None,
        };
        self.0.push((game.number, sort, game.text.to_vec()));
        Ok(())
    }
}

/// The games a sorting query finds in `pgn`, through a [`cqlq::search::SortedSink`].
fn sorted(query: &str, pgn: &[u8], limit: Option<u64>, spill_after: Option<u64>) -> Vec<(u64, Option<i64>, Vec<u8>)> {
    let search = Search::new(Query::parse(query).unwrap(), SearchOptions::default()).unwrap();
    let mut out = Sorted::default();
    let mut sink = cqlq::search::SortedSink::new(&mut out, search.sort_keys(), limit);
    if let Some(bytes) = spill_after {
        sink = sink.spill_after(bytes);
    }
    let mut summary = Summary::default();
    let _ = search.run(&mut Input::from_bytes("games.pgn", pgn.to_vec()), &mut sink, &mut summary).unwrap();
    // On Unix the spill file loses its name as it is made: nothing is left of it if the process
    // is killed.
    #[cfg(unix)]
    assert_eq!(spill_files(), Vec::<String>::new());
    sink.finish().unwrap();
    out.0
}

/// The names of this process's spill files of sorted games.
#[cfg(unix)]
fn spill_files() -> Vec<String> {
    let prefix = format!("cqlq-sort-{}-", std::process::id());
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.starts_with(&prefix))
        .collect()
}

#[test]
fn sorting_keeps_what_the_limit_needs_and_spills_the_rest() {
    let pgn = common::games::random_games("Standard", 300, 11).into_bytes();
    for query in [
        "cql(sort max \"material\" power A - power a) power A - power a >= 1",
        "cql(sort min \"pawns\" #P) #P <= 6",
        "cql(sort max \"rooks\" #R) Ra-h7 or #R == 0",
    ] {
        let all = sorted(query, &pgn, None, None);
        assert!(all.len() > 20, "{query}: {} games", all.len());
        // Best value first (smallest with min), no value last, ties in the order found.
        let keys: Vec<(bool, i64, u64)> = all
            .iter()
            .map(|(number, sort, _)| {
                let value = sort.map_or(0, |v| if query.contains("sort min") { v } else { -v });
                (sort.is_none(), value, *number)
            })
            .collect();
        assert!(keys.windows(2).all(|pair| pair[0] < pair[1]), "{query}: out of order");
        assert_eq!(sorted(query, &pgn, None, Some(0)), all, "{query}: spilled from the first game");
        assert_eq!(sorted(query, &pgn, None, Some(5_000)), all, "{query}: spilled part way");
        for limit in [1, 7, all.len() as u64, all.len() as u64 + 5] {
            let expected: Vec<_> = all.iter().take(limit as usize).cloned().collect();
            assert_eq!(sorted(query, &pgn, Some(limit), None), expected, "{query}: limit {limit}");
        }
    }
}

/// Every game found and every problem, as (byte offset, line) pairs.
#[derive(Default)]
struct Places(Vec<(u64, u64)>);

impl cqlq::search::Sink for Places {
    fn found(&mut self, game: &cqlq::search::Found<'_>) -> std::io::Result<()> {
        self.0.push((game.offset, game.line));
        Ok(())
    }

    fn problem(&mut self, problem: &cqlq::search::Problem<'_>) -> std::io::Result<()> {
        self.0.push((problem.offset, problem.line));
        Ok(())
    }
}

#[test]
fn line_numbers_of_games_and_problems_count_every_line_before_them() {
    // Many batches of games, every fifth with a move that is no move on a line of its own.
    let games = common::games::random_games("Standard", 400, 5);
    let mut pgn = String::new();
    for (index, game) in games.split_inclusive("\n\n[").enumerate() {
        pgn.push_str(&game.replacen(" 2. ", if index % 5 == 0 { " 2.\nZz9 " } else { " 2. " }, 1));
    }
    for threads in [1, 2] {
        let search = Search::new(Query::parse("K").unwrap(), SearchOptions { threads, ..SearchOptions::default() });
        let mut places = Places::default();
        let mut summary = Summary::default();
        let mut input = Input::from_bytes("games.pgn", pgn.clone().into_bytes());
        let _ = search.unwrap().run(&mut input, &mut places, &mut summary).unwrap();
        assert!(summary.errors >= 80, "{summary:?}");
        assert_eq!(places.0.len() as u64, summary.games + summary.errors);
        for (offset, line) in places.0 {
            let before = pgn.as_bytes()[..offset as usize].iter().filter(|&&b| b == b'\n').count() as u64;
            assert_eq!(line, before + 1, "the line of byte {offset}, on {threads} threads");
        }
    }
}

/// Evaluation symbols written apart from their move (`+-`, `=`, `∞`, `N`) are annotations, as in
/// CQL 6.2 and python-chess: the game goes on after them.
#[test]
fn evaluation_symbols_between_moves_do_not_stop_a_game() {
    let pgn = "[Event \"e\"]\n\n1. e4 = e5 +/= 2. Nf3 N Nc6 \u{221e} 3. Bb5 +- a6 -/+ 4. Ba4 -- 5. O-O *\n";
    let found = common::found("move previous from K", pgn);
    assert_eq!(found, [(1, vec![9])], "castling at ply 9 is reached");
}

/// A `move` (previous or played next) whose sets are squares and pieces is decided by the move
/// alone, without the position it was made in; the same filter with a set that needs that
/// position (an `if`) finds the same positions, in games with every kind of move, variations
/// included.
#[test]
fn moves_are_decided_by_what_moved_as_by_the_position_they_were_made_in() {
    // Each filter names where the move lands as `to S`, or names it nowhere.
    let filters = [
        "from B",
        "capture p",
        "to f7 from B capture p",
        "from ~K",
        "capture dark [pn]",
        "from [Nn] to e4",
        "from K castle",
        "from P enpassant",
        "from P promote Q",
        "from a-h2 capture (r | b) to ~a-h8",
        "from [Qq] capture A",
    ];
    let anywhere = "(if true then a-h1-8 else a-h1-8)";
    let mut matched = [false; 11];
    for (variant, seed) in [("Standard", 3), ("Chess960", 4), ("Crazyhouse", 5)] {
        let pgn = common::games::random_games(variant, 150, seed);
        for (index, when) in (0..filters.len()).flat_map(|index| [(index, "previous"), (index, "")]) {
            let filter = filters[index];
            let plain = format!("move {filter} {when}");
            let looked_up = match filter.split_once("to ") {
                Some((before, after)) => {
                    let (to, rest) = after.split_once(' ').unwrap_or((after, ""));
                    format!("move {before}to ({to} & {anywhere}) {rest} {when}")
                }
                None => format!("move {filter} to {anywhere} {when}"),
            };
            let (plain_plan, looked_up_plan) = (Query::parse(&plain).unwrap(), Query::parse(&looked_up).unwrap());
            let standard = cqlq::Variant::standard();
            let parent = |plan: Query| plan.compile(standard).unwrap().program::<1>().unwrap().needs().parent;
            assert_eq!((parent(plain_plan), parent(looked_up_plan)), (false, when == "previous"), "{plain}");
            for variations in [false, true] {
                let options = || SearchOptions { variations, ..SearchOptions::default() };
                let found = common::found_with(&plain, &pgn, options());
                assert_eq!(found, common::found_with(&looked_up, &pgn, options()), "{plain} in {variant}");
                matched[index] |= !found.is_empty();
            }
        }
    }
    // The games hold moves of every kind asked for.
    assert_eq!(matched, [true; 11]);
}

/// The games of a PGN text, each with its text.
fn split_games(pgn: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    for line in pgn.lines() {
        if line.starts_with("[Event ") || games.is_empty() {
            games.push(String::new());
        }
        let game = games.last_mut().expect("a game");
        game.push_str(line);
        game.push('\n');
    }
    games
}

/// A file mixing games of several rule sets (Standard, Chess960, Atomic, Laser Chess, and
/// Croatian Chess on four board widths), in runs of one to three games of a kind, a broken game
/// among them: each game is numbered, searched and reported as it is on its own, whatever the
/// threads, though the replayers of the rule sets hand the games over in runs.
#[test]
fn mixed_rule_sets_read_as_each_game_alone() {
    let files = ["classics.pgn", "laser-setups.pgn", "crochess-2020.pgn", "atomic.pgn", "random-chess960.pgn"];
    let mut sources: Vec<std::collections::VecDeque<String>> = files
        .iter()
        .map(|file| split_games(&std::fs::read_to_string(Path::new("samples/games").join(file)).unwrap()).into())
        .collect();
    sources[2].push_front("[Event \"broken\"]\n[Variant \"Classical Chess\"]\n\n1. e2-e4 Pe7-e9 *\n".to_owned());
    let mut order = Vec::new();
    for turn in 0.. {
        if sources.iter().all(std::collections::VecDeque::is_empty) {
            break;
        }
        let source = &mut sources[turn % files.len()];
        for _ in 0..=turn % 3 {
            order.extend(source.pop_front());
        }
    }
    let mut text = String::new();
    let mut expected = Record::default();
    for (index, game) in order.iter().enumerate() {
        let number = index as u64 + 1;
        let lines_before = text.lines().count();
        let (alone, _) = search("K", game, SearchOptions::default());
        expected.games.extend(alone.games.into_iter().map(|(_, plies)| (number, plies)));
        for problem in alone.problems {
            let (line, rest) = problem["game 1 line ".len()..].split_once(' ').unwrap();
            let line: usize = line.parse().unwrap();
            expected.problems.push(format!("game {number} line {} {rest}", line + lines_before));
        }
        text.push_str(game);
        text.push('\n');
    }
    assert_eq!(expected.problems.len(), 1, "{:?}", expected.problems);
    for threads in [1, 2] {
        let (whole, summary) = search("K", &text, SearchOptions { threads, ..SearchOptions::default() });
        assert_eq!(summary.games, order.len() as u64);
        assert_eq!(whole.games, expected.games, "{threads} threads");
        assert_eq!(whole.problems, expected.problems, "{threads} threads");
    }
    // The whole text as one range, as the library reads it: each game where it is in the text,
    // with its number on the lines of its positions.
    let records = common::replay_positions(&text, "K");
    assert_eq!(records.len(), order.len());
    let mut start = 0;
    for (index, (record, game)) in records.iter().zip(&order).enumerate() {
        let [alone] = &common::replay_positions(game, "K")[..] else { panic!("one game") };
        assert_eq!((record.start, record.movetext), (start, start + alone.movetext), "game {}", index + 1);
        let lines = String::from_utf8_lossy(&alone.positions).into_owned();
        let numbered: String = lines
            .lines()
            .map(|line| format!("{}\t{}\n", index + 1, line.strip_prefix("1\t").expect("game 1")))
            .collect();
        assert_eq!(String::from_utf8_lossy(&record.positions), numbered, "game {}", index + 1);
        start += game.len() + 1;
    }
}
