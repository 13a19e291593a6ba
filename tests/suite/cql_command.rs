//! `cqlq cql`: CQL 6.2's command line and output format. The expected outputs below are CQL
//! 6.2's own; the test marked `#[ignore]` runs CQL 6.2 beside cqlq when it is at
//! `../shared/tools/cql6/cql`.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

use common::{Printed, temp_dir, text};
use cqlq::search::output::{CqlComments, CqlPrinter};
use cqlq::search::{Input, Search, SearchOptions, Summary};
use cqlq::{Query, Variant};

/// A sample file of games, by its absolute path.
fn sample(name: &str) -> String {
    format!("{}/samples/games/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cqlq cql ARGS` in the folder `dir`.
fn cql(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cqlq"))
        .arg("cql")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A folder with the query file `query.cql` holding `query`.
fn folder(name: &str, query: &str) -> common::TempDir {
    let dir = temp_dir(&format!("cql-{name}"));
    fs::write(dir.join("query.cql"), query).unwrap();
    dir
}

/// Runs `cqlq cql` with `args` and the query `query` (a file of its own) on `input`, writing to
/// `out.pgn`; returns what was written, the closing line's counts (`N matches of M games`) and
/// the exit status.
fn search(name: &str, query: &str, input: &str, args: &[&str]) -> (String, String, Option<i32>) {
    let dir = folder(name, query);
    let mut all = vec!["-i", input, "-o", "out.pgn"];
    all.extend_from_slice(args);
    all.push("query.cql");
    let output = cql(&dir, &all);
    let stdout = text(&output.stdout);
    let closing = stdout.lines().last().unwrap_or_default();
    let counts = closing.split(" in ").next().unwrap_or_default().to_owned();
    let games = fs::read_to_string(dir.join("out.pgn")).unwrap_or_default();
    (games, counts, output.status.code())
}

/// The game numbers of the games written.
fn numbers(games: &str) -> Vec<u64> {
    games
        .lines()
        .filter_map(|line| line.strip_prefix("{Game number "))
        .filter_map(|rest| rest.split([' ', '}']).next()?.parse().ok())
        .collect()
}

const TRAP_TAGS: &str = "[Event \"A trap of the Blackburne Shilling gambit\"]\n[Site \"?\"]\n\
    [Date \"????.??.??\"]\n[Round \"?\"]\n[White \"White\"]\n[Black \"Black\"]\n[Result \"0-1\"]\n\n";

#[test]
fn games_are_written_as_cql_writes_them() {
    let (games, counts, status) = search("style", "cql()\ncheck\n", &sample("short-games.pgn"), &[]);
    let expected = format!(
        "{TRAP_TAGS}{{Game number 1}}\n1.e4 e5 2.Nf3 Nc6 3.Bc4 Nd4 4.Nxe5 Qg5 5.Nxf7 Qxg2 6.Rf1 Qxe4+ {{CQL}} \
         7.Be2 Nf3#\n{{CQL}} 0-1\n\n\n"
    );
    assert_eq!(games, expected);
    assert_eq!(counts, "1 matches of 2 games");
    assert_eq!(status, Some(0));
}

#[test]
fn noheader_silent_quiet_and_matchstring() {
    let moves = "1.e4 e5 2.Nf3 Nc6 3.Bc4 Nd4 4.Nxe5 Qg5 5.Nxf7 Qxg2 6.Rf1 Qxe4+";
    let cases = [
        ("-noheader", format!("{moves} {{CQL}} 7.Be2 Nf3#\n{{CQL}} 0-1\n")),
        ("-silent", format!("{moves} 7.Be2 Nf3# 0-1\n")),
        ("-quiet", format!("{{Game number 1}}\n{moves} 7.Be2 Nf3# 0-1\n")),
    ];
    for (option, movetext) in cases {
        let (games, _, _) = search(option, "cql()\ncheck\n", &sample("short-games.pgn"), &[option]);
        assert_eq!(games, format!("{TRAP_TAGS}{movetext}\n\n"), "{option}");
    }
    let (games, _, _) = search("matchstring", "cql()\ncheck\n", &sample("short-games.pgn"), &["-matchstring", "Check"]);
    let movetext = format!("{{Game number 1}}\n{moves} {{Check}} 7.Be2 \nNf3# {{Check}} 0-1\n");
    assert_eq!(games, format!("{TRAP_TAGS}{movetext}\n\n"));
}

#[test]
fn silent_leaves_out_the_query_own_comments_too() {
    let moves = "1.e4 e5 2.Nf3 Nc6 3.Bc4 Nd4 4.Nxe5 Qg5 5.Nxf7 Qxg2 6.Rf1";
    let end = "7.Be2 Nf3# 0-1\n\n\n";
    let commented = format!("{moves} Qxe4+ {{here}} 7.Be2 \nNf3# {{here}} 0-1\n\n\n");
    let cases = [
        ("cql()\ncheck comment(\"here\")\n", "-silent", format!("{TRAP_TAGS}{moves} Qxe4+ {end}")),
        ("cql()\ncheck comment(\"here\")\n", "-quiet", format!("{TRAP_TAGS}{{Game number 1}}\n{commented}")),
        // The first of the header's two sets the level, and the command line wins over both.
        ("cql(quiet silent)\ncheck comment(\"here\")\n", "-s", format!("{TRAP_TAGS}{{Game number 1}}\n{commented}")),
        ("cql(quiet)\ncheck comment(\"here\")\n", "-silent", format!("{TRAP_TAGS}{moves} Qxe4+ {end}")),
    ];
    for (query, option, expected) in cases {
        let (games, _, status) = search("silent-comments", query, &sample("short-games.pgn"), &[option]);
        assert_eq!((games, status), (expected, Some(0)), "{query} {option}");
    }
    let (_, _, status) = search("two-levels", "cql()\ncheck\n", &sample("short-games.pgn"), &["-quiet", "-silent"]);
    assert_eq!(status, Some(1), "-quiet with -silent is refused");
}

#[test]
fn comments_and_the_initial_position_are_marked_as_in_cql() {
    let (games, counts, _) =
        search("initial", "cql()\ninitial or mate\n", &sample("classics.pgn"), &["-gamenumber", "3"]);
    let expected = "[Event \"Paris\"]\n[Site \"Paris FRA\"]\n[Date \"1858.??.??\"]\n[Round \"?\"]\n\
        [White \"Paul Morphy\"]\n[Black \"Duke Karl / Count Isouard\"]\n[Result \"1-0\"]\n[ECO \"C41\"]\n\n\
        {Game number 3 CQL}\n\
        1.e4 e5 2.Nf3 d6 3.d4 Bg4 {This is a weak move already.} 4.dxe5 Bxf3 5.Qxf3 \n\
        dxe5 6.Bc4 Nf6 7.Qb3 Qe7 8.Nc3 c6 9.Bg5 b5 10.Nxb5 cxb5 11.Bxb5+ Nbd7 12.O-O-O \n\
        Rd8 13.Rxd7 Rxd7 14.Rd1 Qe6 15.Bxd7+ Nxd7 16.Qb8+ Nxb8 17.Rd8# {CQL} 1-0\n\n\n";
    assert_eq!(games, expected);
    // CQL reads the game after the last one asked for, and counts it.
    assert_eq!(counts, "1 matches of 4 games");
}

#[test]
fn the_default_output_is_named_after_the_query_in_the_current_folder() {
    let dir = temp_dir("cql-default-output");
    fs::create_dir_all(dir.join("queries")).unwrap();
    fs::write(dir.join("queries/mates.cql"), "cql()\nmate\n").unwrap();
    let output = cql(&dir, &["-i", &sample("classics.pgn"), "queries/mates"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("cqlq version "), "{stdout}");
    assert_eq!(lines[1], "");
    assert!(lines[2].starts_with("4 matches of 4 games in "), "{stdout}");
    assert!(lines[2].ends_with(" to mates-out.pgn"), "{stdout}");
    assert_eq!(numbers(&fs::read_to_string(dir.join("mates-out.pgn")).unwrap()), [1, 2, 3, 4]);
    // Without a query file, the filters of -cql are the query, written to cqldefault-out.pgn.
    let output = cql(&dir, &["-i", &sample("classics.pgn"), "-cql", "mate", "-cql", "wtm"]);
    assert!(text(&output.stdout).contains("1 matches of 4 games in "), "{}", text(&output.stdout));
    assert_eq!(numbers(&fs::read_to_string(dir.join("cqldefault-out.pgn")).unwrap()), [4]);
}

#[test]
fn game_filters_of_the_command_line() {
    let classics = sample("classics.pgn");
    let cases: [(&[&str], &[u64]); 11] = [
        (&["-player", "Fischer"], &[4]),
        (&["-player", "fischer"], &[]),
        (&["-white", "Anderssen"], &[1, 2]),
        (&["-black", "Fischer"], &[4]),
        (&["-event", "London"], &[1]),
        (&["-site", "Paris"], &[3]),
        (&["-year", "1852"], &[2]),
        (&["-year", "1850", "1860"], &[1, 2, 3]),
        (&["-result", "1-0"], &[1, 2, 3]),
        (&["-g", "2", "3"], &[2, 3]),
        (&["-cql", "mate btm"], &[1, 2, 3]),
    ];
    for (args, expected) in cases {
        let (games, _, status) = search("filters", "cql()\ncheck\n", &classics, args);
        assert_eq!(numbers(&games), expected, "{args:?}");
        assert_eq!(status, Some(0), "{args:?}: CQL exits 0 whether or not a game matched");
    }
}

#[test]
fn transforms_surround_the_body_and_the_filters() {
    let classics = sample("classics.pgn");
    let cases: [(&[&str], &[u64]); 5] = [
        (&["-cql", "Rd8"], &[3]),
        (&["-flipcolor", "-cql", "Rd8"], &[3]),
        (&["-cql", "Rd8", "-flip"], &[2, 3, 4]),
        (&["-shift", "-cql", "Rd8"], &[1, 2, 3, 4]),
        (&["-flipcolor", "-result", "0-1"], &[1, 2, 3, 4]),
    ];
    for (args, expected) in cases {
        let (games, _, _) = search("transforms", "cql()\ncheck\n", &classics, args);
        assert_eq!(numbers(&games), expected, "{args:?}");
    }
}

#[test]
fn fen_matchcount_and_variations() {
    let classics = sample("classics.pgn");
    // The board after 1.e4, whatever the FEN's other fields say.
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1";
    let (games, counts, _) = search("fen", "cql()\n", &classics, &["-fen", fen]);
    assert_eq!((numbers(&games), counts.as_str()), (vec![1, 2, 3], "3 matches of 4 games"));
    // One number is an exact count of positions, as in CQL; two are a range.
    let (games, _, status) = search("matchcount", "cql()\ncheck\n", &classics, &["-matchcount", "2"]);
    assert_eq!((numbers(&games), status), (vec![], Some(0)));
    let (games, _, _) = search("matchcount", "cql()\ncheck\n", &classics, &["-matchcount", "2", "5"]);
    assert_eq!(numbers(&games), [1, 3]);
    let dir = folder("variations", "cql(variations)\npc4\n");
    fs::write(dir.join("v.pgn"), "[Event \"v\"]\n[Result \"*\"]\n\n1. e4 (1. d4 d5 2. c4 dxc4) e5 *\n").unwrap();
    let output = cql(&dir, &["-i", "v.pgn", "query.cql"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let games = fs::read_to_string(dir.join("query-out.pgn")).unwrap();
    assert!(games.ends_with("{Game number 1}\n1.e4 ( 1.d4 d5 2.c4 dxc4 {CQL} ) 1...e5 *\n\n\n"), "{games}");
    let output = cql(&dir, &["-i", "v.pgn", "-mainline", "query.cql"]);
    assert_eq!(output.status.code(), Some(0));
    let games = fs::read_to_string(dir.join("query-out.pgn")).unwrap();
    assert!(!games.contains("{CQL}"), "-mainline wins over the header: {games}");
}

#[test]
fn games_in_another_notation_are_written_in_san_as_cql_writes_them() {
    // An X-Decor record is written as its conversion to PGN is.
    let dir = folder("xdecor", "cql()\nPe4\n");
    let raw = sample("xdecor-moves-raw.txt");
    let converted = Command::new(env!("CARGO_BIN_EXE_cqlq")).args(["convert", "--to", "pgn", &raw]).output().unwrap();
    fs::write(dir.join("converted.pgn"), &converted.stdout).unwrap();
    for (input, out) in [(raw.as_str(), "native.pgn"), ("converted.pgn", "pgn.pgn")] {
        let output = cql(&dir, &["-i", input, "-o", out, "query.cql"]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    }
    let native = fs::read_to_string(dir.join("native.pgn")).unwrap();
    assert_eq!(native, fs::read_to_string(dir.join("pgn.pgn")).unwrap());
    assert!(native.contains("[Annotator \"cqlq, from the X-Decor moves_raw record of "), "{native}");
    // A move that cannot be played ends the game as CQL ends a PGN game at one; a game of the
    // table inside PGN loses its `Variant`, its moves being written in SAN.
    fs::write(
        dir.join("bad.pgn"),
        "[Event \"x\"]\n[Variant \"X-Decor\"]\n\n1. e2\u{2013}e4 e7\u{2013}e5\n2. \u{2658}g1\u{2013}f3 \u{265e}b8\u{2013}h4\n*\n",
    )
    .unwrap();
    let output = cql(&dir, &["-i", "bad.pgn", "-o", "bad-out.pgn", "query.cql"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let games = fs::read_to_string(dir.join("bad-out.pgn")).unwrap();
    assert!(!games.contains("Variant"), "{games}");
    assert!(
        games.ends_with(
            "{Game number 1}\n1.e4 {CQL} 1...e5 {CQL} 2.Nf3 {CQL Error reading move: \u{265e}b8\u{2013}h4} *\n\n\n"
        ),
        "{games}"
    );
}

#[test]
fn options_win_over_the_header() {
    let classics = sample("classics.pgn");
    let dir = folder("header", &format!("cql(input \"{classics}\" output hdr.pgn matchstring \"HDR\")\nmate\n"));
    let output = cql(&dir, &["query.cql"]);
    assert!(text(&output.stdout).contains("4 matches of 4 games in "), "{}", text(&output.stdout));
    assert!(!text(&output.stdout).contains("Using command line argument"), "{}", text(&output.stdout));
    assert!(fs::read_to_string(dir.join("hdr.pgn")).unwrap().contains("{HDR}"));
    let output = cql(&dir, &["-i", &sample("short-games.pgn"), "-o", "cli.pgn", "-matchstring", "CLI", "query.cql"]);
    assert!(text(&output.stdout).contains("1 matches of 2 games in "), "{}", text(&output.stdout));
    // As CQL says when -o wins over the header's output (and says nothing of -i).
    let said = text(&output.stdout);
    assert_eq!(said.lines().nth(1), Some("Using command line argument for filename: cli.pgn"), "{said}");
    let games = fs::read_to_string(dir.join("cli.pgn")).unwrap();
    assert!(games.contains("{CLI}") && !games.contains("HDR"), "{games}");
}

#[test]
fn a_sorted_search_says_a_comment_is_too_long_when_the_game_is_found() {
    // CQL 6.2 says it after the game's messages, before the next game's, though it writes the
    // games later, in their order by the sort.
    let long = "y ".repeat(2390);
    let games = format!(
        "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 {{{long}}} e5 *\n\n[Event \"b\"]\n[Result \"*\"]\n\n1. d4 d5 *\n"
    );
    let dir = folder("long-comment", "cql()\nply == 1 message(\"at\") comment(\"xxxxxxxxxx\") sort \"n\" gamenumber\n");
    fs::write(dir.join("games.pgn"), games).unwrap();
    let output = cql(&dir, &["-i", "games.pgn", "-o", "out.pgn", "query.cql"]);
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().skip(1).take(4).collect();
    let expected = ["Game: 1 move 1(btm): at", "", "Ignoring long comment in game: 1", "Game: 2 move 1(btm): at"];
    assert_eq!(lines, expected, "{stdout}");
}

#[test]
fn a_line_of_one_position_is_noted_end_first() {
    // Where a line starts and ends on one position, CQL 6.2 writes its end before its start.
    let (games, counts, _) = search("line-notes", "cql()\nline --> mate\n", &sample("short-games.pgn"), &[]);
    assert_eq!(counts, "1 matches of 2 games");
    let expected =
        "7.Be2 Nf3# {End \nline of length 1 that starts at move 8(wtm) Start line that ends at move 8(wtm)\nCQL} 0-1";
    assert!(games.contains(expected), "{games}");
}

#[test]
fn the_console_shows_progress_and_matches() {
    let dir = folder("console", "cql()\nmate\n");
    let classics = sample("classics.pgn");
    let args = ["-i", &classics, "-lineincrement", "2", "-showmatches", "-threads", "1", "query.cql"];
    let output = cql(&dir, &args);
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[1..4], ["<1>[2]", "<2><3>[4]", "<4>"], "{stdout}");
    assert!(lines[4].starts_with("4 matches of 4 games in ") && lines[4].ends_with(" using 1 thread to query-out.pgn"));
    let output = cql(&dir, &["-i", &classics, "-s", "query.cql"]);
    assert!(text(&output.stdout).contains(" using 1 thread "), "{}", text(&output.stdout));
}

#[test]
fn games_to_standard_output_and_the_console_to_standard_error() {
    let dir = folder("stdout", "cql()\nmate\n");
    let output = cql(&dir, &["-i", &sample("short-games.pgn"), "-o", "-", "-noheader", "query.cql"]);
    let stdout = text(&output.stdout);
    assert!(stdout.starts_with(TRAP_TAGS) && stdout.ends_with("Nf3# {CQL}\n0-1\n\n\n"), "{stdout}");
    let stderr = text(&output.stderr);
    assert!(stderr.starts_with("cqlq version ") && stderr.contains("1 matches of 2 games in "), "{stderr}");
}

#[test]
fn help_version_and_harmless_options() {
    let dir = folder("help", "cql()\nmate\n");
    let help = text(&cql(&dir, &["-help"]).stdout);
    for option in ["-matchcount N [M]", "-lineincrement N", "-reversecolor", "-flipcolor"] {
        assert!(help.contains(option), "{option} in {help}");
    }
    assert!(text(&cql(&dir, &["-version"]).stdout).starts_with("cqlq version "));
    let page = Command::new(env!("CARGO_BIN_EXE_cqlq")).args(["man", "cql"]).output().unwrap();
    let page = text(&page.stdout);
    assert!(page.contains(".TH cqlq-cql 1") && page.contains("CQL OPTIONS"), "{page}");
    assert!(page.contains("\\fB\\-matchcount N [M]\\fR"), "{page}");
    let output = cql(&dir, &["-i", &sample("classics.pgn"), "-nosettag", "-noremovecomment", "query.cql"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}

#[test]
fn nosettag_and_noremovecomment_turn_the_edits_off() {
    let dir = folder("edits", "cql()\ninitial settag(\"Found\" \"yes\") removecomment\n");
    let game = "[Event \"e\"]\n[Result \"*\"]\n\n{before} 1. e4 e5 *\n";
    fs::write(dir.join("game.pgn"), game).unwrap();
    let written = |options: &[&str]| {
        let mut args = vec!["-i", "game.pgn", "-o", "out.pgn"];
        args.extend_from_slice(options);
        args.push("query.cql");
        let output = cql(&dir, &args);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        text(&fs::read(dir.join("out.pgn")).unwrap())
    };
    let edited = written(&[]);
    assert!(edited.contains("[Found \"yes\"]") && !edited.contains("before"), "{edited}");
    let kept = written(&["-nosettag", "-noremovecomment"]);
    assert!(!kept.contains("[Found ") && kept.contains("{before Game number 1 CQL}"), "{kept}");
}

#[test]
fn mistakes_are_named_and_stop_before_any_game() {
    let dir = folder("mistakes", "cql()\nmate\n");
    fs::write(dir.join("query.txt"), "cql()\nmate\n").unwrap();
    fs::write(dir.join("bad.cql"), "cql()\nR[\n").unwrap();
    let classics = sample("classics.pgn");
    let cases: [(&[&str], &str); 18] = [
        (&["-bogus", "query.cql"], "unknown option -bogus"),
        (&["-hhdb", "x", "query.cql"], "-hhdb is not supported"),
        (&["-html", "query.cql"], "-html is not supported"),
        (&["-a", "query.cql"], "-a is not supported"),
        (&["-u", "query.cql"], "-u is not supported"),
        (&["-vi", "query.cql"], "-vi is not supported"),
        (&["-parse", "query.cql"], "-parse is not supported"),
        (&["-similarposition", "x.txt", "query.cql"], "-similarposition x.txt: the name of a PGN file ends in .pgn"),
        (&["-reversecolor", "query.cql"], "-reversecolor is not supported"),
        (&["-threads", "0", "query.cql"], "-threads 0: not a number of 1 or more"),
        (&["-lineincrement", "x", "query.cql"], "-lineincrement x: not a number of 1 or more"),
        (&["-matchcount"], "-matchcount needs a number, or two"),
        (&["-result", "2-0", "query.cql"], "-result 2-0: a result is 1-0, 0-1 or 1/2-1/2"),
        (&["-white", "a", "-white", "b", "query.cql"], "-white is given twice"),
        (&["-o", "a.pgn", "-output", "b.pgn", "query.cql"], "-output is given twice"),
        (&["query.cql", "other.cql"], "two query files"),
        (&["query.txt"], "query.txt: a query file's name ends in .cql"),
        (&["-o", "query.cql", "query.cql"], "query.cql is an input"),
    ];
    for (args, message) in cases {
        let mut all = vec!["-i", classics.as_str()];
        all.extend_from_slice(args);
        let output = cql(&dir, &all);
        assert!(text(&output.stderr).contains(message), "{args:?}: {}", text(&output.stderr));
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(!text(&output.stdout).contains(" matches of "), "{args:?}");
    }
    let output = cql(&dir, &["query.cql"]);
    assert!(text(&output.stderr).contains("no input: give -i FILE"), "{}", text(&output.stderr));
    let output = cql(&dir, &["-i", &classics, "bad.cql"]);
    assert!(text(&output.stderr).contains("--> bad.cql:2:3"), "{}", text(&output.stderr));
    let output = cql(&dir, &["-i", &classics, "-cql", "Q["]);
    assert!(text(&output.stderr).contains("--> -cql:1:3"), "{}", text(&output.stderr));
    assert_eq!(output.status.code(), Some(1), "CQL's status for a query it refuses");
}

/// A game of `depth` variations, each inside the one before: `1. e4 ( 1. d4 ( 1. c4 ( ... ) ) )
/// e5 *`.
fn nested_game(depth: usize) -> String {
    let moves = ["d4", "c4", "Nf3", "e4"];
    let mut game = String::from("[Event \"deep\"]\n\n1. e4 ");
    for index in 0..depth {
        game.push_str(&format!("( 1. {} ", moves[index % moves.len()]));
    }
    game.push_str(&")".repeat(depth));
    game.push_str(" e5 *\n");
    game
}

#[test]
fn variations_nested_a_hundred_thousand_deep_are_written_whole() {
    const DEPTH: usize = 100_000;
    let opened = |written: &[u8]| written.iter().filter(|&&byte| byte == b'(').count();
    let comments = CqlComments {
        matchstring: Some("CQL".to_owned()),
        game_numbers: true,
        sort_labels: Vec::new(),
        variant: Variant::standard(),
        game_buffer: 100_000_000,
    };
    let mut printed = Printed(CqlPrinter::new(Vec::new(), comments));
    let search = Search::new(Query::parse("true").unwrap(), SearchOptions { threads: 2, ..SearchOptions::default() });
    let mut summary = Summary::default();
    let input = &mut Input::from_bytes("deep.pgn", nested_game(DEPTH).into_bytes());
    let _ = search.unwrap().run(input, &mut printed, &mut summary).unwrap();
    let written = printed.0.into_inner();
    assert_eq!(opened(&written), DEPTH);
    assert!(written.ends_with(b") ) ) 1...e5 {CQL} *\n\n\n"), "{}", text(&written[written.len() - 100..]));
    // The command ends well, and leaves nothing but its output.
    let dir = folder("deep", "");
    fs::write(dir.join("deep.pgn"), nested_game(DEPTH)).unwrap();
    let output = cql(&dir, &["-i", "deep.pgn", "-cql", "true", "-o", "out.pgn", "-outputbuffersize", "100000000"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(opened(&fs::read(dir.join("out.pgn")).unwrap()), DEPTH);
    let mut files: Vec<_> = fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().file_name()).collect();
    files.sort();
    assert_eq!(files, ["deep.pgn", "out.pgn", "query.cql"]);
    fs::remove_dir_all(dir).unwrap();
}

// ----- Beside CQL 6.2 ------------------------------------------------------------------------

/// CQL 6.2, when it is beside the project and runs; otherwise the test says it is skipped.
pub(crate) fn cql6() -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/tools/cql6/cql");
    let runs = Command::new(&path).arg("-version").output().is_ok_and(|output| output.status.success());
    if !runs {
        eprintln!("skipped: CQL 6.2 is not at ../shared/tools/cql6/cql, or does not run there");
    }
    runs.then_some(path)
}

/// The first `count` games of the gnuchess corpus, in a file of `dir`.
fn gnuchess_slice(dir: &Path, count: usize) -> Option<PathBuf> {
    use std::io::BufRead;
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pgn/gnuchess-book.pgn.zst");
    let mut lines = std::io::BufReader::new(zstd::Decoder::new(fs::File::open(corpus).ok()?).ok()?);
    let (mut slice, mut line, mut games) = (Vec::new(), Vec::new(), 0);
    loop {
        line.clear();
        if lines.read_until(b'\n', &mut line).ok()? == 0 {
            break;
        }
        if line.starts_with(b"[Event ") {
            games += 1;
            if games > count {
                break;
            }
        }
        slice.extend_from_slice(&line);
    }
    let path = dir.join("gnuchess-slice.pgn");
    fs::write(&path, slice).ok()?;
    Some(path)
}

/// Text with every run of blanks made one space: line breaks may fall elsewhere.
fn normalized(text: &[u8]) -> String {
    String::from_utf8_lossy(text).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The closing line's counts, `N matches of M games`.
fn closing_counts(stdout: &[u8]) -> String {
    let stdout = text(stdout);
    stdout
        .lines()
        .rev()
        .find(|line| line.contains(" matches of "))
        .unwrap_or_default()
        .split(" in ")
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// CQL 6.2 and `cqlq cql` with the same options, on the same query files and games, write the
/// same games with the same marks and comments (line breaks aside), and the same counts.
#[test]
#[ignore = "runs CQL 6.2 from ../shared/tools/cql6 on ../shared/data"]
fn cql_command_writes_what_cql6_writes() {
    let Some(cql6) = cql6() else { return };
    let started = Instant::now();
    let dir = temp_dir("cql-beside-cql6");
    let mut inputs = vec![sample("classics.pgn"), sample("short-games.pgn"), sample("random-standard.pgn")];
    match gnuchess_slice(&dir, 2000) {
        Some(slice) => inputs.push(slice.display().to_string()),
        None => eprintln!("the gnuchess corpus is not in ../shared/data: compared on the samples only"),
    }
    let queries = [
        "Ra-h7 ka-h8",
        "Qh7 kg8",
        "check",
        "mate",
        "btm check",
        "#P >= 7",
        "flipcolor {Qh7 kg8}",
        "initial",
        "player white \"Anderssen\" check",
        "check comment(\"here\")",
    ];
    let options: [&[&str]; 14] = [
        &[],
        &["-noheader"],
        &["-silent"],
        &["-quiet"],
        &["-matchstring", "Found it"],
        &["-gamenumber", "2", "90"],
        &["-matchcount", "2", "6"],
        &["-player", "Karpov"],
        &["-result", "1-0", "-year", "1850", "1990"],
        &["-flipcolor"],
        &["-flip", "-cql", "wtm"],
        &["-cql", "Qa-h1-8"],
        &["-fen", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"],
        &["-variations", "-s"],
    ];
    let (mut compared, mut same_bytes) = (0, 0);
    for (index, query) in queries.iter().enumerate() {
        let query_file = dir.join(format!("q{index}.cql"));
        fs::write(&query_file, format!("cql()\n{query}\n")).unwrap();
        for input in &inputs {
            // On the corpus, the first queries with every option, the others as they are.
            let on_corpus = inputs.len() == 4 && input == inputs.last().unwrap();
            let count = if on_corpus && index >= 3 { 1 } else { options.len() };
            for option in &options[..count] {
                let run = |program: &Path, prefix: &[&str], out: &str| {
                    let mut command = Command::new(program);
                    command.args(prefix).args(["-i", input, "-o", out]).args(*option).arg(&query_file);
                    command.current_dir(&dir).stdin(Stdio::null()).output().unwrap()
                };
                let theirs = run(&cql6, &[], "theirs.pgn");
                let ours = run(Path::new(env!("CARGO_BIN_EXE_cqlq")), &["cql"], "ours.pgn");
                let what = format!("{query} on {input} with {option:?}");
                assert_eq!(closing_counts(&ours.stdout), closing_counts(&theirs.stdout), "{what}");
                let theirs = fs::read(dir.join("theirs.pgn")).unwrap_or_default();
                let ours = fs::read(dir.join("ours.pgn")).unwrap_or_default();
                assert!(normalized(&ours) == normalized(&theirs), "{what}: the games written differ");
                same_bytes += usize::from(ours == theirs);
                let _ = fs::remove_file(dir.join("theirs.pgn"));
                let _ = fs::remove_file(dir.join("ours.pgn"));
                compared += 1;
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!("{compared} runs of CQL 6.2 and cqlq cql agree ({same_bytes} to the byte), in {seconds:.1} s");
}

/// The games of the reference corpus, `tests/cql/games.pgn.zst`, in a file of `dir`.
fn reference_games(dir: &Path) -> PathBuf {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cql/games.pgn.zst");
    let games = zstd::decode_all(fs::File::open(corpus).unwrap()).unwrap();
    let path = dir.join("games.pgn");
    fs::write(&path, games).unwrap();
    path
}

/// What a run printed besides its first line (the program's name) and its closing line: the
/// query's messages and the progress marks.
fn printed(stdout: &[u8]) -> Vec<String> {
    let stdout = text(stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let end = lines.iter().rposition(|line| line.contains(" matches of ")).unwrap_or(lines.len());
    // The messages before the closing line (the notice of running on one thread among them),
    // and the persistent variables after it.
    let messages = lines[1.min(end)..end].iter();
    messages.chain(lines.iter().skip(end + 1)).map(|line| (*line).to_owned()).collect()
}

/// Every query file of the reference corpus, run by CQL 6.2 and by `cqlq cql` on the corpus's
/// games: the same counts, the same messages, and the same games with the same marks and
/// comments (line breaks aside).
#[test]
#[ignore = "runs CQL 6.2 from ../shared/tools/cql6"]
fn every_corpus_query_writes_what_cql6_writes() {
    let Some(cql6) = cql6() else { return };
    let dir = temp_dir("cql-corpus-beside-cql6");
    let games = reference_games(&dir);
    let queries = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cql/queries");
    let mut files: Vec<PathBuf> = fs::read_dir(queries).unwrap().map(|entry| entry.unwrap().path()).collect();
    files.sort();
    let pairs: Vec<(PathBuf, PathBuf)> = files.iter().map(|file| (file.clone(), file.clone())).collect();
    let same_bytes = assert_same_output(&cql6, &pairs, &games, &dir);
    eprintln!("{} query files: CQL 6.2 and cqlq cql agree ({same_bytes} to the byte)", files.len());
}

/// The example queries of `queries/` for classical chess (a header that names no variant), run
/// by CQL 6.2 and by `cqlq cql` on the classical game samples: the same output. CQL 6.2 reads
/// each query in its own spelling (Scidb's `&R;` written `R`), cqlq reads the file as it is.
#[test]
#[ignore = "runs CQL 6.2 from ../shared/tools/cql6"]
fn example_queries_write_what_cql6_writes() {
    let Some(cql6) = cql6() else { return };
    let dir = temp_dir("cql-examples-beside-cql6");
    let games = dir.join("samples.pgn");
    let samples = ["classics.pgn", "short-games.pgn", "themes.pgn", "random-standard.pgn", "near-misses.pgn"];
    let text: Vec<String> = samples.iter().map(|name| fs::read_to_string(sample(name)).unwrap()).collect();
    fs::write(&games, text.join("\n")).unwrap();
    let queries = Path::new(env!("CARGO_MANIFEST_DIR")).join("queries");
    let mut files: Vec<PathBuf> = fs::read_dir(&queries).unwrap().map(|entry| entry.unwrap().path()).collect();
    files.sort();
    let mut pairs = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).unwrap();
        let header = header(&text).unwrap_or_else(|| panic!("{}: no cql(...) header", path.display()));
        if !header.contains("variant") {
            let theirs = dir.join(path.file_name().unwrap());
            fs::write(&theirs, in_cql6_spelling(&text)).unwrap();
            pairs.push((path, theirs));
        }
    }
    assert!(pairs.len() >= 20, "the classical themes of queries/ are written for CQL 6.2 too");
    let same_bytes = assert_same_output(&cql6, &pairs, &games, &dir);
    eprintln!("{} example queries: CQL 6.2 and cqlq cql agree ({same_bytes} to the byte)", pairs.len());
}

/// The header of a query file, `cql(...)`, when its first line that is not a comment is one.
fn header(text: &str) -> Option<&str> {
    let mut lines = text.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with("//"));
    lines.next().filter(|line| line.starts_with("cql("))
}

/// A query in CQL 6.2's spelling: Scidb's spelling of a piece letter (`&R;`) becomes the letter.
fn in_cql6_spelling(text: &str) -> String {
    let mut spelled = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        let (before, entity) = rest.split_at(at);
        spelled.push_str(before);
        let mut after = entity.chars().skip(1);
        match (after.next(), after.next()) {
            (Some(letter), Some(';')) if letter.is_ascii_alphabetic() => {
                spelled.push(letter);
                rest = &entity[3..];
            }
            _ => {
                spelled.push('&');
                rest = &entity[1..];
            }
        }
    }
    spelled.push_str(rest);
    spelled
}

/// Runs each pair of query files, the first by `cqlq cql` and the second by CQL 6.2, on
/// `games`, and asserts the same counts, messages, games, marks and comments (line breaks
/// aside); returns how many outputs are the same to the byte.
fn assert_same_output(cql6: &Path, files: &[(PathBuf, PathBuf)], games: &Path, dir: &Path) -> usize {
    let (mut differ, mut same_bytes) = (Vec::new(), 0);
    for (file, cql6_file) in files {
        let run = |program: &Path, prefix: &[&str], out: &str, query: &Path| {
            let mut command = Command::new(program);
            command.args(prefix).args(["-s", "-i"]).arg(games).args(["-o", out]).arg(query);
            command.current_dir(dir).stdin(Stdio::null()).output().unwrap()
        };
        let theirs = run(cql6, &[], "theirs.pgn", cql6_file);
        let ours = run(Path::new(env!("CARGO_BIN_EXE_cqlq")), &["cql"], "ours.pgn", file);
        let theirs_file = fs::read(dir.join("theirs.pgn")).unwrap_or_default();
        let ours_file = fs::read(dir.join("ours.pgn")).unwrap_or_default();
        let same = closing_counts(&ours.stdout) == closing_counts(&theirs.stdout)
            && printed(&ours.stdout) == printed(&theirs.stdout)
            && normalized(&ours_file) == normalized(&theirs_file);
        if same {
            same_bytes += usize::from(ours_file == theirs_file);
        } else {
            differ.push(file.display().to_string());
        }
        let _ = fs::remove_file(dir.join("theirs.pgn"));
        let _ = fs::remove_file(dir.join("ours.pgn"));
    }
    assert!(
        differ.is_empty(),
        "{} of {} query files give other output:\n{}",
        differ.len(),
        files.len(),
        differ.join("\n")
    );
    same_bytes
}

/// A game's first comment keeps its closing brace on its line where it takes the 80th column, as
/// CQL 6.2 writes it (comments after moves break before it).
#[test]
fn the_first_comment_keeps_its_brace_in_the_80th_column() {
    let game = format!(
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n\
         [Result \"*\"]\n\n{{{}}} 1. e4 e5 *\n",
        "x".repeat(60)
    );
    let dir = temp_dir("cql-first-comment-game");
    fs::write(dir.join("game.pgn"), game).unwrap();
    let (games, _, _) = search("first-comment", "cql()\ninitial\n", dir.join("game.pgn").to_str().unwrap(), &[]);
    let first = format!("{{{} Game number 1 CQL}}", "x".repeat(60));
    assert_eq!(first.len(), 80);
    assert!(games.contains(&format!("\n{first}\n1.e4 e5 *\n")), "{games}");
}
