//! Any text given as a query: parsing, checking, compiling for boards of every size class, and
//! matching the initial positions must never panic.
#![no_main]

use cqlq::position::AnyPosition;
use cqlq::query::explain;
use cqlq::{Query, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let query = match Query::parse(text) {
        Ok(query) => query,
        Err(error) => {
            let _ = error.to_string();
            let _ = Query::parse_for(text, Some(Variant::standard()));
            return;
        }
    };
    for name in ["Standard", "Crazyhouse", "Croatian Ties", "Mayan Ascendancy", "Nineteen", "One", "Laser Chess", "Chess Evolved Online"] {
        let variant = Variant::by_name(name).expect("catalogue variant");
        match query.compile(variant) {
            Ok(plan) => {
                let _ = plan.matches(&AnyPosition::initial(variant));
                let _ = explain::text(&query, &plan);
                let _ = explain::json(&plan);
            }
            Err(error) => {
                let _ = error.to_string();
            }
        }
    }
});
