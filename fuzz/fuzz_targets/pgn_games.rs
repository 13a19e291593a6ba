//! Any bytes as PGN: splitting, reading and replaying them must never panic; skipping the moves
//! must end every game where reading them does; every game start the splitter finds is a game
//! the lexer reads (so that no window cut hides a game), whatever precedes it; a game of moves
//! only is written as CQL writes it from its moves as from its text; every matched game is
//! written as PGN (marked) and as a JSON line (one line, whatever its text holds).
#![no_main]

use std::ops::ControlFlow;
use std::sync::OnceLock;

use cqlq::Query;
use cqlq::Variant;
use cqlq::notation::pgn::cql_style::GAME_BUFFER;
use cqlq::notation::pgn::{Lexer, Splitter, Visitor};
use cqlq::search::output::{CqlComments, CqlPrinter, JsonlPrinter, PgnPrinter};
use cqlq::search::{Found, Plans, Render, ReplayOptions, replay_range};
use libfuzzer_sys::fuzz_target;

struct Reader {
    skip: bool,
}

impl Visitor<'_> for Reader {
    fn begin_movetext(&mut self, _start: usize) -> ControlFlow<()> {
        if self.skip { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }
    fn begin_variation(&mut self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

fn spans(text: &[u8], skip: bool) -> Vec<(usize, usize)> {
    let mut lexer = Lexer::new(text);
    let mut reader = Reader { skip };
    std::iter::from_fn(|| lexer.next_game(&mut reader)).map(|span| (span.start, span.end)).collect()
}

/// The query every game is searched with: piece tests, and the words that read the game's
/// comments and glyphs and change how it is written.
const QUERY: &str = r#"{removecomment settag("Found" originalcomment) false} or hascomment "!" or Ra-h7 or #[Qq] >= 1 or [Nn] in [a-h1-2]"#;

fn plans() -> &'static Plans {
    static PLANS: OnceLock<Plans> = OnceLock::new();
    PLANS.get_or_init(|| Plans::new(Query::parse(QUERY).expect("query")))
}

fuzz_target!(|data: &[u8]| {
    let starts = Splitter::starts(data);
    assert!(starts.windows(2).all(|pair| pair[0] < pair[1]), "game starts in order");
    let skipped = spans(data, true);
    let mut read = Lexer::new(data);
    let mut ends = Vec::new();
    while let Some(span) = read.next_game(&mut Reader { skip: false }) {
        ends.push((span.start, span.end));
    }
    assert_eq!(skipped, ends, "skipping and reading end games at the same bytes");
    for start in &starts {
        assert!(ends.iter().any(|(game, _)| game == start), "the splitter's start {start} is a game the lexer reads");
    }
    for variations in [false, true] {
        let options = ReplayOptions {
            plans: plans(),
            container: cqlq::notation::Container::Pgn,
            default_variant: Variant::standard(),
            edition: None,
            variations,
            result: None,
            first_game: 1,
            last_game: 0,
            carried: None,
            keep_played: true,
            positions: None,
            ends_input: true,
            stop: None,
        };
        for record in replay_range(data, &options) {
            assert!(record.start <= record.movetext && record.movetext <= record.end && record.end <= data.len());
            assert!(record.matched.iter().all(|ply| ply.offset <= data.len()));
            assert!(record.variations.is_empty() || record.variations.len() == record.matched.len());
            let found = Found {
                input: "fuzz",
                number: 1,
                offset: 0,
                line: 1,
                text: &data[record.start..record.end],
                movetext: record.movetext - record.start,
                matched: &record.matched,
                variations: &record.variations,
                notes: &record.notes,
                sort: &[],
                played: &record.played,
                moves_only: record.moves_only,
                outcome: record.outcome,
                positions: &[],
                container: cqlq::notation::Container::Pgn,
                rendered: None,
                said: None,
                said_when_found: false,
                edits: &record.edits,
            };
            if !record.matched.is_empty() {
                let mut pgn = PgnPrinter::new(Vec::new(), "CQL}{");
                pgn.write(&Found { moves_only: false, ..found }).expect("writing to memory");
                let mut jsonl = JsonlPrinter::new(Vec::new());
                jsonl.write(&Found { moves_only: false, ..found }).expect("writing to memory");
                let line = jsonl.into_inner();
                assert!(
                    line.ends_with(b"\n") && line.iter().filter(|&&byte| byte == b'\n').count() == 1,
                    "one JSON line"
                );
            }
            if record.moves_only && !record.played.is_empty() {
                let comments = CqlComments {
                    matchstring: Some("CQL".into()),
                    game_numbers: true,
                    sort_labels: Vec::new(),
                    variant: Variant::standard(),
                    game_buffer: GAME_BUFFER,
                };
                let printer = CqlPrinter::new(Vec::new(), comments);
                let (mut from_moves, mut from_text) = (Vec::new(), Vec::new());
                let said = printer.renderer().render(&found, &mut from_moves);
                let said_from_text = printer.renderer().render(&Found { moves_only: false, ..found }, &mut from_text);
                assert_eq!(from_moves, from_text, "a game of moves only is written from its moves as from its text");
                assert_eq!(said, said_from_text, "and told the same");
            }
        }
    }
});
