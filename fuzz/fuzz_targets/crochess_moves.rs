//! Any bytes as Croatian Chess moves, one a word, read with either edition's tables and as
//! Classical Chess moves: no panic, and an error points into the move it names.
#![no_main]

use cqlq::notation::crochess::dialect::Edition;
use cqlq::notation::crochess::moves::{read_classical_move, read_move};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for word in text.split_whitespace() {
        for edition in [Edition::Ed2020, Edition::Current] {
            for result in [read_move(word, edition), read_classical_move(word, edition)] {
                if let Err(error) = result {
                    assert!(error.column <= word.len() + 4, "{word:?}: {error}");
                }
            }
        }
    }
});
