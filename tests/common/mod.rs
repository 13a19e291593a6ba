//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use cqlq::notation::sniff::read_position;
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

/// Square names from a space-separated list.
pub fn names(list: &str) -> Vec<String> {
    list.split_whitespace().map(str::to_owned).collect()
}

pub mod games;

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
