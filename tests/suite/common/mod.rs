//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use cqlq::notation::sniff::read_position;
use cqlq::position::RulesView;
use cqlq::query::{Context, Frame, GameFacts};
use cqlq::rules::classical::Board;
use cqlq::search::output::{CqlComments, CqlPrinter};
use cqlq::search::{Found, Input, Problem, Render, Search, SearchOptions, Sink, Summary};
use cqlq::variant::RuleSetId;
use cqlq::{AnyPosition, Plan, Query, Variant};

/// The variant with this name.
pub fn variant(name: &str) -> &'static Variant {
    Variant::by_name(name).unwrap_or_else(|e| panic!("{e}"))
}

/// A query compiled for a variant; panics with the rendered errors.
pub fn plan(query: &str, variant_name: &str) -> Plan {
    let query = Query::parse(query).unwrap_or_else(|e| panic!("{query}:\n{e}"));
    query.compile(variant(variant_name)).unwrap_or_else(|e| panic!("{variant_name}:\n{e}"))
}

/// The squares of the query's only designator, by name, in board order.
pub fn squares(query: &str, variant_name: &str) -> Vec<String> {
    let plan = plan(query, variant_name);
    assert_eq!(plan.designators().len(), 1, "{query} has one designator");
    let geometry = plan.variant().geometry;
    plan.designators()[0].squares.iter().map(|s| geometry.square_name(*s).to_string()).collect()
}

/// The backhand slots of the query's only designator.
pub fn backhand(query: &str, variant_name: &str) -> Vec<String> {
    plan(query, variant_name).designators()[0].backhand.clone()
}

/// A position of a variant from a FEN, setup string or Setup Notation.
pub fn position(variant_name: &str, text: &str) -> AnyPosition {
    read_position(text, Some(variant(variant_name))).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Whether a query matches a position of a variant.
pub fn matches(query: &str, variant_name: &str, text: &str) -> bool {
    plan(query, variant_name).matches(&position(variant_name, text))
}

/// The value of a number expression in a position of a variant (a game of one position, as
/// `cqlq filter` sees it); `None` when the number has no value. The expression is compiled as
/// the `sort` value of a query without a body.
pub fn number(expr: &str, variant_name: &str, text: &str) -> Option<i64> {
    let plan = plan(&format!("cql(sort \"value\" {expr})"), variant_name);
    match position(variant_name, text) {
        AnyPosition::W1(position) if plan.variant().rule_set == RuleSetId::Classical => {
            value_in(&plan, Board::from_position(&position))
        }
        AnyPosition::W1(position) => value_in::<1, _>(&plan, position),
        AnyPosition::W2(position) => value_in::<2, _>(&plan, position),
        AnyPosition::W4(position) => value_in::<4, _>(&plan, position),
        AnyPosition::W8(position) => value_in::<8, _>(&plan, position),
        AnyPosition::W11(position) => value_in::<11, _>(&plan, position),
    }
}

fn value_in<const W: usize, P: RulesView<W>>(plan: &Plan, position: P) -> Option<i64>
where
    cqlq::query::Program<W>: cqlq::query::FromPlan,
{
    let program = plan.program::<W>().expect("the plan's width");
    let ply = position.ply_from_counters();
    let frames = [Frame::new(position, ply, None)];
    let state = program.new_state();
    let game = GameFacts::default();
    program.sort_value(&Context::alone(&frames, &game, &state), 0)
}

/// The squares of the value of a set expression in a position, by name, in board order: each
/// square `s` of the board for which `[s] in (expr)` matches.
pub fn set_of(expr: &str, variant_name: &str, text: &str) -> Vec<String> {
    let geometry = variant(variant_name).geometry;
    let position = position(variant_name, text);
    geometry
        .all_squares()
        .map(|square| geometry.square_name(square).to_string())
        .filter(|name| plan(&format!("[{name}] in ({expr})"), variant_name).matches(&position))
        .collect()
}

/// The games of `pgn` that match a query, each with the plies of its matching positions; panics
/// when a game cannot be replayed to its end.
pub fn found(query: &str, pgn: &str) -> Vec<(u64, Vec<u32>)> {
    found_with(query, pgn, SearchOptions::default())
}

/// What a library search reports: the games found with their matching plies, and the games
/// with errors, one line each.
#[derive(Default)]
pub struct Record {
    /// Game numbers with the plies of their matching positions.
    pub games: Vec<(u64, Vec<u32>)>,
    /// `game G line L ply P 'move': error`.
    pub problems: Vec<String>,
}

impl Sink for Record {
    fn found(&mut self, game: &Found<'_>) -> std::io::Result<()> {
        self.games.push((game.number, game.matched.iter().map(|ply| ply.ply).collect()));
        Ok(())
    }

    fn problem(&mut self, problem: &Problem<'_>) -> std::io::Result<()> {
        self.problems.push(format!(
            "game {} line {} ply {} '{}': {}",
            problem.game, problem.line, problem.ply, problem.token, problem.message
        ));
        Ok(())
    }
}

/// [`found`] with search options.
pub fn found_with(query: &str, pgn: &str, options: SearchOptions) -> Vec<(u64, Vec<u32>)> {
    let query = Query::parse(query).unwrap_or_else(|e| panic!("{query}:\n{e}"));
    let search = Search::new(query, options).unwrap();
    let mut record = Record::default();
    let mut summary = Summary::default();
    let _ = search.run(&mut Input::from_bytes("test.pgn", pgn.as_bytes().to_vec()), &mut record, &mut summary).unwrap();
    assert_eq!(record.problems, Vec::<String>::new(), "every game replays");
    record.games
}

/// Square names from a space-separated list.
/// Replays PGN text with `query`, every position of each game's main line written.
pub fn replay_positions(text: &str, query: &str) -> Vec<cqlq::search::GameRecord> {
    replay(text, query, Some(cqlq::search::PositionsFormat::Tsv))
}

/// Replays PGN text with `query`, the positions of each game's main line written in `positions`
/// (none: not written).
pub fn replay(
    text: &str,
    query: &str,
    positions: Option<cqlq::search::PositionsFormat>,
) -> Vec<cqlq::search::GameRecord> {
    replay_lines(text, query, positions, false)
}

/// [`replay`], the positions of the variations searched too where `variations` says so.
pub fn replay_lines(
    text: &str,
    query: &str,
    positions: Option<cqlq::search::PositionsFormat>,
    variations: bool,
) -> Vec<cqlq::search::GameRecord> {
    let query = Query::parse(query).unwrap_or_else(|error| panic!("{query}:\n{error}"));
    let plans = cqlq::search::Plans::new(query);
    let options = cqlq::search::ReplayOptions {
        plans: &plans,
        container: cqlq::notation::Container::Pgn,
        default_variant: Variant::standard(),
        edition: None,
        variations,
        result: None,
        first_game: 1,
        last_game: 0,
        carried: None,
        keep_played: false,
        positions,
        ends_input: false,
        stop: None,
    };
    cqlq::search::replay_range(text.as_bytes(), &options)
}

pub fn names(list: &str) -> Vec<String> {
    list.split_whitespace().map(str::to_owned).collect()
}

pub mod crochess_games;
pub mod games;
pub mod laser_games;

/// Runs the `cqlq` command in the crate's folder with `stdin` as its standard input.
pub fn run_cqlq(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cqlq"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    // Written from another thread: a large input must not wait on a full output pipe.
    let writer = std::thread::spawn(move || input.write_all(&bytes));
    let output = child.wait_with_output().unwrap();
    let _ = writer.join();
    output
}

/// Bytes of output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A new, empty folder of a test's own for its files, removed with what it holds when the
/// value is dropped (at the end of the test, passed or failed).
pub fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("cqlq-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

/// A folder of a test's own: see [`temp_dir`].
pub struct TempDir(std::path::PathBuf);

impl std::ops::Deref for TempDir {
    type Target = std::path::Path;

    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for TempDir {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes the games found as `cqlq cql` does, rendered on the search's threads.
pub struct Printed(pub CqlPrinter<Vec<u8>>);

impl Sink for Printed {
    fn renderer(&self) -> Option<std::sync::Arc<dyn Render>> {
        Some(self.0.renderer())
    }

    fn found(&mut self, game: &Found<'_>) -> std::io::Result<()> {
        self.0.write(game).map(drop)
    }
}

/// What `cqlq cql` writes for `query` (a body, without its `cql(...)` header) over the games
/// of `pgn`: games numbered and marked `CQL`, variations searched where `variations`.
pub fn cql_written(query: &str, pgn: &str, variations: bool) -> String {
    let query = Query::parse(query).unwrap();
    let comments = CqlComments {
        matchstring: Some("CQL".to_owned()),
        game_numbers: true,
        sort_labels: query.sort_keys().iter().map(|key| (!key.quiet).then(|| key.label.clone())).collect(),
        variant: Variant::standard(),
        game_buffer: cqlq::notation::pgn::cql_style::GAME_BUFFER,
    };
    let mut printed = Printed(CqlPrinter::new(Vec::new(), comments));
    let header = SearchOptions::from_header(query.header());
    let options = SearchOptions { threads: 1, variations: variations || header.variations, ..header };
    let search = Search::new(query, options).unwrap();
    let mut summary = Summary::default();
    let input = &mut Input::from_bytes("games.pgn", pgn.as_bytes().to_vec());
    if search.sorts() {
        let mut sorted = cqlq::search::SortedSink::new(&mut printed, search.sort_keys(), None);
        let _ = search.run(input, &mut sorted, &mut summary).unwrap();
        sorted.finish().unwrap();
    } else {
        let _ = search.run(input, &mut printed, &mut summary).unwrap();
    }
    String::from_utf8_lossy(&printed.0.into_inner()).into_owned()
}

/// The comments `query` makes in the first game of `pgn`, with the plies they go to, in order.
pub fn notes(pgn: &str, query: &str) -> Vec<(u32, String)> {
    let records = replay(pgn, query, None);
    records[0].notes.iter().filter_map(|note| Some((note.ply, note.text.clone()?))).collect()
}
