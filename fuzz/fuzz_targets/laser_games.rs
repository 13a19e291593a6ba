//! Any bytes as Laser Chess games, replayed with a query about beams: a PGN movetext (after a
//! `Variant` tag and, as the first byte says, a named setup in the `FEN` tag) or a file of bare
//! move lists. No panic; the move lists' splitter finds the games the reader reads; every
//! record's offsets lie in the text, its warnings' turns before its error (but for one never
//! closed, told where it opened); a game replayed to its end
//! writes one position a ply.
#![no_main]

use std::sync::OnceLock;

use cqlq::notation::pgn::{Damage, Visitor};
use cqlq::notation::{Container, NativeFormat};
use cqlq::rules::laser::notation::LIST_FORMAT;
use cqlq::search::{GameError, GameErrorKind, Plans, PositionsFormat, ReplayOptions, replay_range};
use cqlq::variant::Initial;
use cqlq::{Query, Variant};
use libfuzzer_sys::fuzz_target;

fn laser() -> &'static Variant {
    Variant::by_name("Laser Chess").expect("Laser Chess is in the catalogue")
}

fn plans() -> &'static Plans {
    static PLANS: OnceLock<Plans> = OnceLock::new();
    PLANS.get_or_init(|| {
        let query = "cql(variant \"Laser Chess\") beam next & K or hit or move previous swap or L attacks [Kk]";
        Plans::new(Query::parse(query).expect("query"))
    })
}

struct Spans;

impl Visitor<'_> for Spans {}

fn check(text: &[u8], container: Container) {
    let options = ReplayOptions {
        plans: plans(),
        container,
        default_variant: laser(),
        edition: None,
        variations: true,
        result: None,
        first_game: 1,
        last_game: 0,
        carried: None,
        keep_played: true,
        positions: Some(PositionsFormat::Tsv),
        ends_input: false,
        stop: None,
    };
    for record in replay_range(text, &options) {
        assert!(record.start <= record.movetext && record.movetext <= record.end && record.end <= text.len());
        // A variation or comment never closed is told where it opened, once the game's end
        // shows it: the turns inside it were played, and may have warnings after that offset.
        let error_offset = match &record.error {
            Some(GameError {
                kind: GameErrorKind::Damaged(Damage::UnclosedVariation | Damage::UnclosedComment),
                ..
            }) => usize::MAX,
            Some(error) => error.offset,
            None => usize::MAX,
        };
        for warning in &record.warnings {
            assert!(record.start <= warning.offset && warning.offset < record.end);
            // The turn of a warning comes before the error in the text; its ply may not (an
            // error in a variation that leaves the main line before the turn).
            assert!(warning.offset < error_offset, "a warning comes before the error");
        }
        if record.error.is_none() {
            let lines = record.positions.iter().filter(|&&byte| byte == b'\n').count();
            assert_eq!(lines as u32, record.plies + 1, "one position a ply, and the first");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, body)) = data.split_first() else { return };
    if mode & 1 == 0 {
        let mut text = b"[Variant \"Laser Chess\"]\n".to_vec();
        if let Initial::Laser(setups) = &laser().initial
            && mode & 2 != 0
        {
            let (name, _) = setups.setups[usize::from(mode >> 2) % setups.setups.len()];
            text.extend_from_slice(format!("[FEN \"{name}\"]\n").as_bytes());
        }
        text.push(b'\n');
        text.extend_from_slice(body);
        check(&text, Container::Pgn);
    } else {
        let mut starts = Vec::new();
        LIST_FORMAT.splitter().scan(body, 0, true, &mut starts);
        let mut at = 0;
        let read: Vec<usize> =
            std::iter::from_fn(|| LIST_FORMAT.next_game(body, &mut at, &mut Spans)).map(|span| span.start).collect();
        assert_eq!(starts, read, "the splitter finds the games the reader reads");
        check(body, Container::Native(&LIST_FORMAT));
    }
});
