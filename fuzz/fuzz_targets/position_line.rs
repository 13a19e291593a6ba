//! Any line given as a position: reading it (sniffed, or as each variant) must never panic; the
//! FEN cqlq writes for a position must read back (to the same position where FEN can say all of
//! it, and to the same FEN everywhere).
#![no_main]

use cqlq::Variant;
use cqlq::each_position;
use cqlq::notation::fen::{self, CastlingStyle};
use cqlq::notation::sniff::read_position;
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
            assert_eq!(fen::write(&again, CastlingStyle::XFen), text);
            if setup.variant.code.is_none() && setup.variant.geometry.files() <= 10 {
                assert_eq!(&again, setup, "{text}");
            }
        });
    }
});
