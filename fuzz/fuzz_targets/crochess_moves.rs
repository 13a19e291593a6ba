//! Any bytes as Croatian Chess moves, one a word, read with either edition's tables and as
//! Classical Chess moves: no panic; an error points into the move it names; a move read is
//! written back in its edition and reads again as the same move; a move the plain reader reads
//! is the move the full reader reads.
#![no_main]

use cqlq::notation::crochess::dialect::{Dialect, Edition};
use cqlq::notation::crochess::moves::{Move, read_classical_move, read_move};
use cqlq::notation::crochess::plain::read_plain;
use cqlq::notation::crochess::write::write_move;
use libfuzzer_sys::fuzz_target;

/// The move with every column set to 0, to compare moves read from other texts.
fn placeless(mut m: Move) -> Move {
    for ply in &mut m.plies {
        ply.column = 0;
    }
    m
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for word in text.split_whitespace() {
        for edition in [Edition::Ed2020, Edition::Current] {
            for classical in [false, true] {
                if let Some(plain) = read_plain(word.as_bytes(), Dialect::of(edition), classical) {
                    let full = if classical { read_classical_move(word, edition) } else { read_move(word, edition) };
                    assert_eq!(full, Ok(plain.to_move()), "{word:?}");
                }
            }
            for result in [read_move(word, edition), read_classical_move(word, edition)] {
                match result {
                    Ok(read) => {
                        let written = write_move(&read, edition).expect("a move writes in its own edition");
                        let again = read_move(&written, edition)
                            .unwrap_or_else(|error| panic!("{word:?} written as {written:?}: {error}"));
                        assert_eq!(placeless(again), placeless(read), "{word:?} written as {written:?}");
                    }
                    Err(error) => assert!(error.column <= word.len() + 4, "{word:?}: {error}"),
                }
            }
        }
    }
});
