//! Any bytes as Laser Chess turns, one a word, played from the named setup the first byte
//! picks: no panic; a turn read writes back to itself; a turn played leaves every piece where
//! its side may stand, and a turn refused leaves the board as it was.
#![no_main]

use cqlq::Variant;
use cqlq::notation::laser::setup_notation;
use cqlq::rules::laser::LaserBoard;
use cqlq::rules::laser::notation::Turn;
use cqlq::variant::Initial;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, text)) = data.split_first() else { return };
    let laser = Variant::by_name("Laser Chess").expect("Laser Chess is in the catalogue");
    let Initial::Laser(setups) = &laser.initial else { return };
    let (_, setup) = setups.setups[usize::from(pick) % setups.setups.len()];
    let setup = setup_notation::read::<2>(laser, setup).expect("the named setups read");
    let mut board = LaserBoard::from_setup(&setup).expect("the named setups are positions");
    for word in text.split(u8::is_ascii_whitespace).filter(|word| !word.is_empty()) {
        let Ok(turn) = Turn::parse(word) else { continue };
        let mut written = Vec::new();
        turn.write(&mut written);
        assert_eq!(Turn::parse(&written), Ok(turn));
        let before = board.clone();
        match board.play_turn(&turn) {
            Ok(_) => assert_eq!(board.validate(), Ok(())),
            Err(error) => {
                assert_eq!(board, before);
                let _ = error.describe(&board);
            }
        }
    }
});
