//! cqlq beside CQL 6.2, the reference of the language: every query of `tests/cql/queries` finds,
//! in `tests/cql/games.pgn.zst` (the first 2,000 games of gnuchess-book), the games and the
//! matched positions CQL 6.2 finds there, as stored in `tests/cql/expected`.
//!
//! `tests/cql/unicode` holds the same queries in CQL 6.2's Unicode spelling (`♖a-h7 ♚a-h8`,
//! `∪`, `→`, `⬓`...), as CQL 6.2's own converter (`cql -u`) writes them: they find the same.
//!
//! `cargo test --test cql_reference -- --ignored` runs CQL 6.2 itself
//! (`../shared/tools/cql6/cql`) on every query and compares it with cqlq live, and checks the
//! Unicode spellings against its converter; with `CQLQ_BLESS=1` it also writes what CQL 6.2
//! found into `tests/cql/expected` and its conversions into `tests/cql/unicode`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::Command;

use cqlq::Query;
use cqlq::notation::pgn::{Lexer, Visitor};
use cqlq::search::{Input, Search, SearchOptions, Summary};

use crate::common::Record;

/// The games the queries are run on.
const GAMES: &str = "tests/cql/games.pgn.zst";
const QUERIES: &str = "tests/cql/queries";
const UNICODE: &str = "tests/cql/unicode";
const EXPECTED: &str = "tests/cql/expected";
const CQL: &str = "../shared/tools/cql6/cql";

/// The matched games: game number, and the plies of the matched positions (0: the initial one).
type Matches = BTreeMap<u64, Vec<u32>>;

/// The query files of a folder, by name, but those whose header leaves the marks out of CQL
/// 6.2's output (`quiet`, `silent`): what they find is compared with CQL 6.2's output as a
/// whole by `cql_command.rs`.
fn query_files(folder: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .expect("a folder of queries")
        .map(|entry| entry.expect("a query file").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "cql") && !marks_hidden(path))
        .collect();
    files.sort();
    files
}

/// Whether the query's header is `quiet` or `silent`.
fn marks_hidden(query: &Path) -> bool {
    let text = std::fs::read_to_string(query).expect("a query file");
    let header = text.lines().find(|line| !line.starts_with("//")).unwrap_or_default();
    let header = header.split("//").next().unwrap_or_default();
    header.starts_with("cql(")
        && header.split(|c: char| !c.is_ascii_alphanumeric()).any(|word| word == "quiet" || word == "silent")
}

fn expected_path(query: &Path) -> PathBuf {
    Path::new(EXPECTED).join(query.file_stem().expect("a file name")).with_extension("txt")
}

/// What cqlq finds, as `cqlq search` finds it (the options of the query's header and all), run
/// in this process.
fn cqlq_matches(query: &Path, games: &[u8]) -> Result<Matches, String> {
    let text = std::fs::read_to_string(query).map_err(|error| error.to_string())?;
    let query = Query::parse(&text).map_err(|error| error.to_string())?;
    let options = SearchOptions { threads: 1, ..SearchOptions::from_header(query.header()) };
    let search = Search::new(query, options).map_err(|error| error.to_string())?;
    let mut record = Record::default();
    let mut summary = Summary::default();
    let mut input = Input::from_bytes("games.pgn", games.to_vec());
    let _flow = search.run(&mut input, &mut record, &mut summary).map_err(|error| error.to_string())?;
    Ok(record.games.into_iter().collect())
}

/// One line per game: `N: ply ply ...`.
fn format_matches(matches: &Matches) -> String {
    let mut text = String::new();
    for (game, plies) in matches {
        let plies: Vec<String> = plies.iter().map(u32::to_string).collect();
        let _ = writeln!(text, "{game}: {}", plies.join(" "));
    }
    text
}

fn parse_matches(text: &str) -> Matches {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (game, plies) = line.split_once(':').expect("`N: plies`");
            let plies = plies.split_whitespace().map(|ply| ply.parse().expect("a ply")).collect();
            (game.trim().parse().expect("a game number"), plies)
        })
        .collect()
}

/// The differences of two findings, game by game, for a message.
fn differences(reference: &Matches, found: &Matches) -> Vec<String> {
    let games: std::collections::BTreeSet<u64> = reference.keys().chain(found.keys()).copied().collect();
    games
        .into_iter()
        .filter(|game| reference.get(game) != found.get(game))
        .map(|game| format!("game {game}: CQL 6.2 {:?}, cqlq {:?}", reference.get(&game), found.get(&game)))
        .collect()
}

/// Compares each query's findings with `reference`; panics listing every query that differs.
fn compare_all(queries: &[PathBuf], reference: impl Fn(&Path) -> Result<Matches, String>, games: &[u8]) {
    let mut failures = Vec::new();
    for query in queries {
        let name = query.display();
        let (expected, found) = match (reference(query), cqlq_matches(query, games)) {
            (Ok(expected), Ok(found)) => (expected, found),
            (Err(error), _) => {
                failures.push(format!("{name}: no reference: {error}"));
                continue;
            }
            (_, Err(error)) => {
                failures.push(format!("{name}: cqlq failed: {error}"));
                continue;
            }
        };
        let diffs = differences(&expected, &found);
        if !diffs.is_empty() {
            let shown: Vec<&str> = diffs.iter().take(5).map(String::as_str).collect();
            failures.push(format!("{name}: {} games differ\n    {}", diffs.len(), shown.join("\n    ")));
        }
    }
    assert!(failures.is_empty(), "{} of {} queries differ:\n{}", failures.len(), queries.len(), failures.join("\n"));
}

/// What CQL 6.2 found for a query, as stored.
fn stored_matches(query: &Path) -> Result<Matches, String> {
    let path = expected_path(query);
    std::fs::read_to_string(&path)
        .map(|text| parse_matches(&text))
        .map_err(|error| format!("{}: {error}", path.display()))
}

/// The games the queries are run on, decompressed.
fn games() -> Vec<u8> {
    let compressed = std::fs::File::open(GAMES).expect("the games");
    zstd::decode_all(compressed).expect("zstd")
}

#[test]
fn cqlq_finds_what_cql_6_2_found() {
    let queries = query_files(QUERIES);
    assert!(queries.len() >= 120);
    compare_all(&queries, stored_matches, &games());
}

#[test]
fn the_unicode_spellings_find_the_same() {
    let queries = query_files(UNICODE);
    assert_eq!(queries.len(), query_files(QUERIES).len(), "every query has its Unicode spelling");
    compare_all(&queries, stored_matches, &games());
}

/// A query in CQL 6.2's Unicode spelling, as its converter writes it.
fn unicode_spelling(cql: &Path, query: &Path, scratch: &Path) -> Result<String, String> {
    let copy = scratch.join(query.file_name().expect("a file name"));
    std::fs::copy(query, &copy).map_err(|error| error.to_string())?;
    let output = Command::new(cql).arg("-u").arg(&copy).output().map_err(|error| error.to_string())?;
    if !output.status.success() {
        return Err(format!("cql -u failed: {}", String::from_utf8_lossy(&output.stdout)));
    }
    std::fs::read_to_string(&copy).map_err(|error| error.to_string())
}

/// Reads the positions CQL marked in its output: the plies after which its match string stands
/// as a comment, in the game its `{Game number N}` comment names.
#[derive(Default)]
struct Marks {
    matchstring: String,
    game: Option<u64>,
    ply: u32,
    plies: Vec<u32>,
    found: Matches,
}

impl Marks {
    fn finish(&mut self) {
        if let Some(game) = self.game.take() {
            self.found.insert(game, std::mem::take(&mut self.plies));
        }
    }
}

impl<'a> Visitor<'a> for Marks {
    fn begin_game(&mut self, _start: usize) {
        self.finish();
        self.ply = 0;
        self.plies.clear();
    }

    fn move_token(&mut self, _token: &'a [u8], _end: usize) -> ControlFlow<()> {
        self.ply += 1;
        ControlFlow::Continue(())
    }

    fn comment(&mut self, text: &'a [u8]) {
        let text = String::from_utf8_lossy(text);
        let text = text.trim();
        // The match string is a word of the comment that marks a position: alone, after the
        // game number (a match at the initial position) or what the query says there, or
        // before what later positions say of this one (`echo`) and a `sort` value.
        if let Some(number) = text.strip_prefix("Game number ") {
            self.game = number.split_whitespace().next().and_then(|number| number.parse().ok());
        }
        let marked = text.split_whitespace().any(|word| word == self.matchstring);
        if marked && self.plies.last() != Some(&self.ply) {
            self.plies.push(self.ply);
        }
    }
}

/// What CQL 6.2 finds, from its output file.
fn cql_matches(cql: &Path, query: &Path, games: &Path, scratch: &Path) -> Result<Matches, String> {
    let out = scratch.join(query.file_stem().expect("a file name")).with_extension("pgn");
    let output = Command::new(cql)
        .arg("-i")
        .arg(games)
        .arg("-o")
        .arg(&out)
        .arg(query)
        .output()
        .map_err(|error| error.to_string())?;
    if !output.status.success() || !out.exists() {
        return Err(format!(
            "CQL 6.2 failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let text = std::fs::read(&out).map_err(|error| error.to_string())?;
    let mut marks = Marks { matchstring: "CQL".to_owned(), ..Marks::default() };
    let mut lexer = Lexer::new(&text);
    while lexer.next_game(&mut marks).is_some() {}
    marks.finish();
    Ok(marks.found)
}

#[test]
#[ignore = "needs ../shared/tools/cql6"]
fn cqlq_finds_what_cql_6_2_finds_live() {
    let cql = Path::new(CQL);
    if Command::new(cql).arg("-version").output().is_err() {
        println!("skipped: {CQL} does not run here");
        return;
    }
    let scratch = std::env::temp_dir().join(format!("cqlq-cql-reference-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("a scratch folder");
    let games = scratch.join("games.pgn");
    let text = self::games();
    std::fs::write(&games, &text).expect("the games, decompressed");
    let bless = std::env::var_os("CQLQ_BLESS").is_some();
    let mut stale = Vec::new();
    for query in query_files(QUERIES) {
        let converted = unicode_spelling(cql, &query, &scratch).expect("CQL 6.2 converts its queries");
        let stored = Path::new(UNICODE).join(query.file_name().expect("a file name"));
        if bless {
            std::fs::write(&stored, &converted).expect("tests/cql/unicode");
        } else if std::fs::read_to_string(&stored).ok().as_deref() != Some(converted.as_str()) {
            stale.push(stored.display().to_string());
        }
    }
    assert!(stale.is_empty(), "not as CQL 6.2 spells them in Unicode now:\n{}", stale.join("\n"));
    compare_all(
        &query_files(QUERIES),
        |query| {
            let found = cql_matches(cql, query, &games, &scratch)?;
            if bless {
                let header = "# CQL 6.2 (build 9.493) on tests/cql/games.pgn.zst: game: plies matched\n";
                std::fs::write(expected_path(query), format!("{header}{}", format_matches(&found)))
                    .map_err(|error| error.to_string())?;
            }
            Ok(found)
        },
        &text,
    );
    std::fs::remove_dir_all(&scratch).expect("the scratch folder");
}
