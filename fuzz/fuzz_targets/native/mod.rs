//! What the targets of the notations' own formats share: any bytes read as a file of games of
//! one format must never panic; the splitter must find the games the reader reads, whether it
//! reads or skips their moves; every game read whole, written again in its format, must read
//! back to the same moves.

use std::ops::ControlFlow;
use std::sync::OnceLock;

use cqlq::notation::pgn::Visitor;
use cqlq::notation::{Container, NativeFormat};
use cqlq::rules::classical::xdecor::{Outcome, Style, write_raw, write_table};
use cqlq::rules::classical::{Board, Move};
use cqlq::search::{Plans, PositionsFormat, ReplayOptions, read_main_line, replay_range};
use cqlq::{Query, Variant};

struct Reader {
    skip: bool,
}

impl Visitor<'_> for Reader {
    fn begin_movetext(&mut self, _start: usize) -> ControlFlow<()> {
        if self.skip { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }
}

fn spans(format: &dyn NativeFormat, text: &[u8], skip: bool) -> Vec<(usize, usize)> {
    let mut at = 0;
    let mut reader = Reader { skip };
    std::iter::from_fn(|| format.next_game(text, &mut at, &mut reader)).map(|span| (span.start, span.end)).collect()
}

fn plans() -> &'static Plans {
    static PLANS: OnceLock<Plans> = OnceLock::new();
    PLANS.get_or_init(|| Plans::new(Query::parse("Ra-h7 or move previous from K or [Nn] in [a-h1-2]").expect("query")))
}

fn outcome(result: &[u8]) -> Option<Outcome> {
    match result {
        b"1-0" => Some(Outcome::WhiteWins),
        b"0-1" => Some(Outcome::BlackWins),
        b"1/2-1/2" => Some(Outcome::Draw),
        _ => None,
    }
}

/// Checks the format on `data`; `raw` when it is the `moves_raw` format (else the table).
pub fn check(format: &'static dyn NativeFormat, raw: bool, data: &[u8]) {
    let mut starts = Vec::new();
    let mut splitter = format.splitter();
    splitter.scan(data, 0, true, &mut starts);
    let read = spans(format, data, false);
    assert_eq!(read, spans(format, data, true), "skipping and reading end games at the same bytes");
    let read_starts: Vec<usize> = read.iter().map(|span| span.0).collect();
    assert!(starts.iter().all(|start| read_starts.contains(start)), "every start found is a game the reader reads");
    if data.len() <= 4096 {
        // Lines this short are judged whole: the splitter finds every game.
        assert_eq!(starts, read_starts, "the splitter finds the games the reader reads");
    }
    let options = ReplayOptions {
        container: Container::Native(format),
        default_variant: format.variant(),
        keep_played: true,
        positions: Some(PositionsFormat::Tsv),
        ..ReplayOptions::main_lines(plans())
    };
    for record in replay_range(data, &options) {
        assert!(record.start <= record.end && record.end <= data.len());
        let text = &data[record.start..record.end];
        let Some(line) = read_main_line(text, Container::Native(format), format.variant(), None) else { continue };
        assert_eq!(line.error.is_none(), record.error.is_none(), "replay and the main line agree on errors");
        if line.error.is_some() {
            continue;
        }
        let mut again = Vec::new();
        let outcome = line.outcome.and_then(outcome);
        // Native games start from the first position: their moves are the kept ones.
        let initial = Board::initial(format.variant());
        let moves: Vec<Move> = line.kept.iter().map(|&kept| Move::from_code(kept).expect("a kept move")).collect();
        assert_eq!(moves.len(), line.moves.len(), "every move is kept");
        let written = if raw {
            write_raw(&initial, &moves, outcome, &mut again)
        } else {
            write_table(&initial, &moves, outcome, Style::Strict, &mut again)
        };
        written.expect("a game read from the start writes");
        let Some(back) = read_main_line(&again, Container::Native(format), Variant::standard(), None) else {
            // A game of no move and no result (a lone `*`) writes as nothing.
            assert!(line.moves.is_empty() && outcome.is_none(), "a written game reads");
            continue;
        };
        assert_eq!(back.moves, line.moves, "a game written again reads back to its moves");
        assert_eq!(back.kept, line.kept);
        assert!(back.error.is_none());
    }
}
