//! `gnuchess-book` damaged on purpose: one byte in 10,000 flipped at a fixed seed, and the file
//! cut at ten points, plain, as zstd and as gzip. Nothing is lost: every game whose bytes were
//! not touched gives exactly what it gives in the clean file, and every damaged game is read or
//! reported. The book in hostile forms (lines ended by a lone `\r`, the whole file on one line,
//! its tags taken out) reads game for game as the clean file. Needs `../shared/data`; `.ci/run`
//! runs it (`--ignored`).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};
use std::ops::Range;
use std::path::Path;

use cqlq::Query;
use cqlq::notation::pgn::Splitter;
use cqlq::search::{Found, Input, Problem, Search, SearchError, SearchOptions, Sink, Summary};

const CORPUS: &str = "../shared/data/pgn/gnuchess-book.pgn.zst";

/// A query that matches somewhere in most games (a check), so that matches compare replays.
const QUERY: &str = "check or Ra-h7";

fn corpus() -> Option<Vec<u8>> {
    if !Path::new(CORPUS).exists() {
        eprintln!("skipped: {CORPUS} is not here");
        return None;
    }
    Some(zstd::decode_all(std::fs::File::open(CORPUS).unwrap()).unwrap())
}

/// What a search saw: every game read (by its offset) with its matched plies, and the offsets
/// of the problems reported.
#[derive(Default)]
struct Seen {
    games: BTreeMap<u64, Vec<u32>>,
    problems: BTreeSet<u64>,
}

impl Sink for Seen {
    fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
        self.games.insert(game.offset, game.matched.iter().map(|ply| ply.ply).collect());
        Ok(())
    }

    fn problem(&mut self, problem: &Problem<'_>) -> io::Result<()> {
        self.problems.insert(problem.offset);
        Ok(())
    }
}

/// Searches an input; every game read is found (`matchcount` from 0). Returns what was seen,
/// and whether the input failed part way.
fn search(mut input: Input) -> (Seen, Summary, bool) {
    let options = SearchOptions { matchcount: (0, None), ..SearchOptions::default() };
    let search = Search::new(Query::parse(QUERY).unwrap(), options).unwrap();
    let mut seen = Seen::default();
    let mut summary = Summary::default();
    let failed = match search.run(&mut input, &mut seen, &mut summary) {
        Ok(_) => false,
        Err(SearchError::Input(_)) => true,
        Err(error) => panic!("{error}"),
    };
    (seen, summary, failed)
}

/// The byte ranges of the clean file's games: each from its start to the next one's.
fn game_ranges(text: &[u8]) -> Vec<Range<u64>> {
    let starts = Splitter::starts(text);
    let mut bounds: Vec<u64> = starts.iter().map(|&start| start as u64).collect();
    bounds.push(text.len() as u64);
    bounds.windows(2).map(|pair| pair[0]..pair[1]).collect()
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Checks what was seen in a damaged copy against the clean file, for the games within
/// `readable` bytes: untouched games exactly as in the clean file, damaged ones read or
/// reported. Returns the number of damaged games.
fn compare(
    clean: &Seen,
    ranges: &[Range<u64>],
    damaged: &BTreeSet<u64>,
    seen: &Seen,
    readable: u64,
    what: &str,
) -> usize {
    let mut damaged_games = 0;
    for range in ranges.iter().filter(|range| range.start < readable) {
        let touched = range.end > readable || damaged.range(range.clone()).next().is_some();
        if !touched {
            assert_eq!(
                seen.games.get(&range.start),
                clean.games.get(&range.start),
                "{what}: the untouched game at byte {} is read as in the clean file",
                range.start
            );
            continue;
        }
        damaged_games += 1;
        let read = seen.games.range(range.clone()).next().is_some();
        let reported = seen.problems.range(range.clone()).next().is_some();
        assert!(read || reported, "{what}: the damaged game at bytes {range:?} is read or reported");
    }
    damaged_games
}

#[test]
#[ignore = "needs ../shared/data"]
fn one_byte_in_ten_thousand_flipped() {
    let Some(text) = corpus() else { return };
    let ranges = game_ranges(&text);
    let (clean, clean_summary, failed) = search(Input::from_bytes("clean", text.clone()));
    assert!(!failed);
    assert_eq!((clean_summary.games, clean_summary.errors), (145_716, 0));
    assert_eq!(clean.games.len(), ranges.len(), "every game start of the clean file is a game read");

    let mut rng = Rng(20_261_123);
    let mut damaged_text = text.clone();
    let mut damaged = BTreeSet::new();
    for _ in 0..text.len() / 10_000 {
        let at = rng.below(text.len() as u64);
        damaged_text[at as usize] ^= 1 << rng.below(8);
        damaged.insert(at);
    }
    let (seen, summary, failed) = search(Input::from_bytes("flipped", damaged_text));
    assert!(!failed);
    let damaged_games = compare(&clean, &ranges, &damaged, &seen, text.len() as u64, "flipped");
    println!(
        "{} flips, {damaged_games} damaged games; read {} games, {} with errors (clean: {})",
        damaged.len(),
        summary.games,
        summary.errors,
        clean_summary.games
    );
    assert!(summary.errors > 0 && damaged_games > 0);
}

/// Ten cut points, spread over the text.
fn cuts(length: usize) -> Vec<usize> {
    let mut rng = Rng(7);
    (0..10).map(|i| length / 10 * i + rng.below(length as u64 / 10) as usize).collect()
}

#[test]
#[ignore = "needs ../shared/data"]
fn cut_at_ten_points_plain_zstd_and_gzip() {
    let Some(text) = corpus() else { return };
    let ranges = game_ranges(&text);
    let (clean, _, _) = search(Input::from_bytes("clean", text.clone()));
    let none = BTreeSet::new();

    for cut in cuts(text.len()) {
        let (seen, _, failed) = search(Input::from_bytes("cut", text[..cut].to_vec()));
        assert!(!failed, "a plain file that ends early has no error of its own");
        compare(&clean, &ranges, &none, &seen, cut as u64, &format!("plain cut at {cut}"));
    }

    let zstd = zstd::encode_all(&text[..], 3).unwrap();
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gzip.write_all(&text).unwrap();
    let gzip = gzip.finish().unwrap();
    for (format, data) in [("zstd", zstd), ("gzip", gzip)] {
        for cut in cuts(data.len()) {
            let decoded = decoded_length(format, &data[..cut]);
            let (seen, summary, failed) = search(Input::from_bytes(format, data[..cut].to_vec()));
            assert!(failed, "{format} cut at {cut}: the cut is reported");
            assert!(summary.bytes <= decoded as u64);
            let readable = decoded.min(summary.bytes as usize) as u64;
            let what = format!("{format} cut at {cut} of {} ({decoded} bytes decoded)", data.len());
            compare(&clean, &ranges, &none, &seen, readable, &what);
            let complete = ranges.iter().filter(|range| range.end <= readable).count();
            assert!(seen.games.len() >= complete, "{what}: every complete game decoded is searched");
        }
    }
}

/// How many bytes a cut stream decodes to before its error.
fn decoded_length(format: &str, data: &[u8]) -> usize {
    let mut reader: Box<dyn io::Read> = match format {
        "zstd" => Box::new(zstd::stream::read::Decoder::new(data).unwrap()),
        _ => Box::new(flate2::read::MultiGzDecoder::new(data)),
    };
    let mut total = 0;
    let mut buffer = vec![0; 1 << 16];
    loop {
        match reader.read(&mut buffer) {
            Ok(0) | Err(_) => return total,
            Ok(read) => total += read,
        }
    }
}

/// The corpus without its tags: only movetext, games one after another, each ended by its
/// result (and the blank lines that stood around the tags).
fn without_tags(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for line in text.split_inclusive(|&byte| byte == b'\n') {
        if !line.starts_with(b"[") {
            out.extend_from_slice(line);
        }
    }
    out
}

/// The matched plies of every game seen, in the order of the games.
fn plies_in_order(seen: &Seen) -> Vec<&Vec<u32>> {
    seen.games.values().collect()
}

#[test]
#[ignore = "needs ../shared/data"]
fn lone_cr_line_ends_one_line_and_no_tags_read_as_the_clean_file() {
    let Some(text) = corpus() else { return };
    let (clean, clean_summary, _) = search(Input::from_bytes("clean", text.clone()));
    assert_eq!((clean_summary.games, clean_summary.errors), (145_716, 0));

    // Line ends a lone `\r`, or every line end a space (the file on one line, mapped): the
    // games stand at the same offsets.
    let dir = std::env::temp_dir().join(format!("cqlq-corpus-forms-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let one_line = dir.join("one-line.pgn");
    let spaced: Vec<u8> = text.iter().map(|&byte| if byte == b'\n' { b' ' } else { byte }).collect();
    std::fs::write(&one_line, &spaced).unwrap();
    drop(spaced);
    let cr: Vec<u8> = text.iter().map(|&byte| if byte == b'\n' { b'\r' } else { byte }).collect();
    for (form, input) in [("lone CR", Input::from_bytes("cr", cr)), ("one line", Input::open(&one_line).unwrap())] {
        let (seen, summary, failed) = search(input);
        assert!(!failed, "{form}");
        assert_eq!((summary.games, summary.errors), (145_716, 0), "{form}");
        assert!(seen.games == clean.games, "{form}: every game is read as in the clean file");
    }
    std::fs::remove_dir_all(dir).unwrap();

    // Without tags: games found at their results, in the same order.
    let (seen, summary, failed) = search(Input::from_bytes("no tags", without_tags(&text)));
    assert!(!failed);
    assert_eq!((summary.games, summary.errors), (145_716, 0), "without tags");
    assert!(plies_in_order(&seen) == plies_in_order(&clean), "without tags: every game is read as in the clean file");
}
