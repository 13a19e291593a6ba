//! The first line of any input as a query, searched over a few fixed games (checks, captures,
//! castling both ways, en passant, promotions, a Crazyhouse drop, mate, stalemate, variations):
//! parsing, compiling and replaying with game context (`move previous`, `line`, `terminal`, game
//! filters, `sort`) must never panic, must not fail on the legal games, and the main line must
//! match the same positions whether variations are searched or not.
#![no_main]

use cqlq::search::{GameErrorKind, GameRecord, MatchedPly, Plans, ReplayOptions, replay_range};
use cqlq::{Query, Variant};
use libfuzzer_sys::fuzz_target;

mod common;
use common::{MAX_QUERY, blows_up, write_files_aside};

const GAMES: &str = r#"[Event "Fuzz Open"]
[Site "Basel SUI"]
[Date "1999.04.01"]
[Round "1"]
[White "Alpha, Ann"]
[Black "Beta, Bob"]
[Result "1-0"]
[WhiteElo "2410"]
[BlackElo "2385"]
[ECO "B01"]

1. e4 d5 2. e5 f5 3. exf6 {en passant} (3. d4 e6 4. Nf3 c5) 3... Nxf6 4. d4 Bf5
5. Nc3 Nc6 6. Bb5 Qd7 7. Nf3 O-O-O 8. O-O e6 9. Bxc6 Qxc6 10. Ne5 Qb6 (10... Qa6
11. Qf3) 11. Na4 Qa5 12. Nc6 bxc6 13. Bd2 Qxa4 1-0

[Event "Fuzz Open"]
[Site "Zug SUI"]
[Date "2001.??.??"]
[Round "2"]
[White "Gamma, Gil"]
[Black "Alpha, Ann"]
[Result "1-0"]
[BlackElo "2410"]
[SetUp "1"]
[FEN "k7/7P/1K6/8/8/8/6p1/8 b - - 0 1"]

1... g1=Q+ (1... g1=N 2. h8=Q#) 2. Kc6 Qc5+ 3. Kxc5 Kb7 4. h8=Q Kc7 5. Qe5+ Kd7
6. Kd5 Kd8 7. Kd6 Kc8 8. Qc5 Kb7 9. Qb5+ Ka7 10. Kc7 Ka8 11. Qb7# (11. Qb6 {stalemate}) 1-0

[Event "House party"]
[Site "Online"]
[Date "2023.12.31"]
[White "Beta, Bob"]
[Black "Gamma, Gil"]
[Result "*"]
[Variant "Crazyhouse"]

1. e4 d5 2. exd5 Qxd5 3. Nc3 Qd8 4. Bc4 Nc6 5. Qh5 Nf6 6. Qxf7+ Kd7 7. P@e6+ Kd6
8. P@c5+ Kxc5 9. Qf8+ (9. d4+ Nxd4) 9... Kd6 10. Nb5+ Ke5 11. Qxf6+ exf6 12. d4+ Kf5
13. Bd3+ P@e4 *
"#;

/// The number of games in [`GAMES`].
const GAME_COUNT: usize = 3;

fn replay(plans: &Plans, result: Option<&[u8]>, variations: bool) -> Vec<GameRecord> {
    let options = ReplayOptions {
        plans,
        container: cqlq::notation::Container::Pgn,
        default_variant: Variant::standard(),
        edition: None,
        variations,
        result,
        first_game: 1,
        last_game: 0,
        carried: None,
        keep_played: true,
        positions: None,
        ends_input: false,
        stop: None,
    };
    let records = replay_range(GAMES.as_bytes(), &options);
    assert_eq!(records.len(), GAME_COUNT, "every game is read");
    // The header's `sort` is valued at the matching positions only (the body's at any).
    let header_sort = plans.query().header().is_some_and(|header| header.sort.is_some());
    for record in &records {
        assert!(record.start <= record.movetext && record.movetext <= record.end && record.end <= GAMES.len());
        assert!(record.matched.iter().all(|ply| ply.offset <= GAMES.len()));
        if let Some(error) = &record.error {
            // The games are legal: only a query that does not fit a variant may stop a replay.
            assert!(
                matches!(error.kind, GameErrorKind::QueryDoesNotFit(_)),
                "game at {}: {error:?} ({})",
                record.start,
                error.kind
            );
        }
        if header_sort && record.sort.first().is_some_and(Option::is_some) {
            assert!(!record.matched.is_empty(), "the header's sort value comes from a matching position");
        }
    }
    records
}

fuzz_target!(|data: &[u8]| {
    write_files_aside();
    let line = data.split(|&byte| byte == b'\n').next().unwrap_or_default();
    if line.len() > MAX_QUERY {
        return;
    }
    let Ok(text) = std::str::from_utf8(line) else { return };
    if blows_up(text) {
        return;
    }
    let Ok(query) = Query::parse(text) else { return };
    let result = query.header().and_then(|header| header.result.clone());
    let plans = Plans::new(query);
    let result = result.as_deref().map(str::as_bytes);
    let main_only = replay(&plans, result, false);
    let with_variations = replay(&plans, result, true);
    for (main, all) in main_only.iter().zip(&with_variations) {
        assert_eq!((main.start, main.end, main.excluded), (all.start, all.end, all.excluded));
        if main.error.is_none() && all.error.is_none() {
            // The main line's positions are the same with or without its variations.
            let missing: Vec<&MatchedPly> = main.matched.iter().filter(|ply| !all.matched.contains(ply)).collect();
            assert!(missing.is_empty(), "game at {}: {missing:?} matched only without variations", main.start);
        }
    }
});
