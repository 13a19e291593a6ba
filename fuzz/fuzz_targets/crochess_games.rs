//! Any bytes as a Croatian Chess game: the first byte picks a variant of either edition, a
//! first line holding a setup string of it sets the board, and every word after it is played as
//! a move. No panic, no runaway; a move refused leaves the board as it was.
#![no_main]

use cqlq::rules::GameRules;
use cqlq::rules::crochess::CroatianBoard;
use cqlq::{Variant, with_width};
use libfuzzer_sys::fuzz_target;

fn position<const W: usize>(board: &CroatianBoard<W>) -> String {
    let mut out = String::new();
    board.write_position(&mut out);
    out
}

fn play<const W: usize>(variant: &'static Variant, text: &str) {
    let (setup, moves) = match text.split_once('\n') {
        Some((first, rest)) if variant.code.is_some_and(|code| first.to_ascii_lowercase().starts_with(code)) => {
            (Some(first), rest)
        }
        _ => (None, text),
    };
    let Ok(mut board) = CroatianBoard::<W>::start(variant, setup) else { return };
    for word in moves.split_whitespace().take(300) {
        let before = position(&board);
        let mut reason = None;
        match board.play_token(word.as_bytes(), &mut reason) {
            Ok(played) => {
                let _ = (board.facts(played), board.effects(played));
            }
            Err(_) => assert_eq!(position(&board), before, "{word:?} changed the board"),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let variants: Vec<&'static Variant> = Variant::all().iter().filter(|variant| variant.edition().is_some()).collect();
    let variant = variants[usize::from(selector) % variants.len()];
    let text = String::from_utf8_lossy(rest);
    with_width!(variant.width(), W => play::<W>(variant, &text));
});
