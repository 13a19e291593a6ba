//! Any text given as a query: parsing, checking, compiling for boards of every size class, and
//! matching the initial positions must never panic.
#![no_main]

use cqlq::position::AnyPosition;
use cqlq::query::explain;
use cqlq::{Query, Variant};
use libfuzzer_sys::fuzz_target;

mod common;
use common::{BIG_BOARD, MAX_QUERY, blows_up, heavy_on_big_boards};

/// Boards of every size class: 8x8 (with and without a backhand), 10x8, 10x10, 26x26, and a
/// variant without check.
const VARIANTS: [&str; 8] = [
    "Standard",
    "Crazyhouse",
    "Laser Chess",
    "Croatian Ties",
    "Mayan Ascendancy",
    "Nineteen",
    "One",
    "Chess Evolved Online",
];

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_QUERY {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else { return };
    if blows_up(text) {
        return;
    }
    let query = match Query::parse(text) {
        Ok(query) => query,
        Err(error) => {
            let _ = error.to_string();
            // With the mistakes that compiling the sound filters finds (a header's variant is
            // used by `parse` already).
            if let Err(error) = Query::parse_for(text, Some(Variant::standard())) {
                let _ = error.to_string();
            }
            return;
        }
    };
    let _ = query.variant();
    let heavy = heavy_on_big_boards(text);
    for name in VARIANTS {
        let variant = Variant::by_name(name).expect("catalogue variant");
        if heavy && variant.geometry.squares() > BIG_BOARD {
            continue;
        }
        match query.compile(variant) {
            Ok(plan) => {
                assert_eq!(plan.variant().name, variant.name);
                let _ = plan.matches(&AnyPosition::initial(variant));
                let _ = plan.designators();
                let _ = explain::text(&query, &plan);
                let _ = explain::json(&plan);
            }
            Err(error) => {
                let _ = error.to_string();
            }
        }
    }
});
