//! Any line given as a position: reading it (sniffed, or as each variant) must never panic, and a
//! position read from FEN must read back from the FEN cqlq writes for it.
#![no_main]

use cqlq::each_position;
use cqlq::notation::fen::{self, CastlingStyle};
use cqlq::notation::sniff::read_position;
use cqlq::Variant;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else { return };
    let sniffed = read_position(line, None);
    for variant in Variant::all().iter().map(Some).chain([None]) {
        let Ok(position) = (if variant.is_none() { sniffed.clone() } else { read_position(line, variant) }) else {
            continue;
        };
        each_position!(&position, p => {
            let setup = p.setup();
            let text = fen::write(setup, CastlingStyle::XFen);
            let again = fen::read(setup.variant, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
            if setup.variant.code.is_none() {
                assert_eq!(&again, setup, "{text}");
            }
        });
    }
});
