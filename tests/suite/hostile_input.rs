//! Input shaped to make a reader slow or greedy: lines ended by a lone `\r`, a whole file on one
//! line, games without tags, a comment of many megabytes. Each is read in time in proportion to
//! its size, gives the games its plain form gives, and is cut into windows of bounded size, so
//! that memory does not grow with it, from a file and from a stream, plain, zstd and gzip.

use std::io::Write;
use std::ops::ControlFlow;
use std::time::Instant;

use cqlq::Query;
use cqlq::notation::pgn::Splitter;
use cqlq::search::{Input, MAPPED_GROWTH, Search, SearchOptions, Summary, WINDOW_BYTES, WINDOW_GAMES};

use crate::common::{self, Record};

/// The shortest of a few runs of `work`, in seconds.
fn seconds(mut work: impl FnMut()) -> f64 {
    (0..5)
        .map(|_| {
            let started = Instant::now();
            work();
            started.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

/// Checks that work on four times the input takes about four times as long, not sixteen (with
/// room for a busy machine).
fn assert_linear(what: &str, small: f64, large: f64) {
    eprintln!("{what}: {small:.3} s, then {large:.3} s for four times as much");
    assert!(large < 10.0 * small + 0.1, "{what}: {small:.3} s, then {large:.3} s for four times as much");
}

/// Random games in PGN (tags, comments, variations, glyphs, lines of 79 columns).
fn games(count: usize, seed: u64) -> String {
    common::games::random_games("Standard", count, seed)
}

/// The forms of a text of games: its line ends as they are, as a lone `\r`, as `\r\n`, and
/// every line end a space (the whole text on one line).
fn forms(text: &str) -> [(&'static str, Vec<u8>); 4] {
    [
        ("LF", text.as_bytes().to_vec()),
        ("CR", text.replace('\n', "\r").into_bytes()),
        ("CRLF", text.replace('\n', "\r\n").into_bytes()),
        ("one line", text.replace('\n', " ").into_bytes()),
    ]
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).unwrap()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// Searches an input with a query that matches in most games, every game found.
fn search(mut input: Input) -> (Record, Summary) {
    let options = SearchOptions { matchcount: (0, None), ..SearchOptions::default() };
    let search = Search::new(Query::parse("check or Ra-h7").unwrap(), options).unwrap();
    let mut record = Record::default();
    let mut summary = Summary::default();
    let _ = search.run(&mut input, &mut record, &mut summary).unwrap();
    (record, summary)
}

/// The windows an input is cut into: the bytes of each and its number of game starts.
fn windows(mut input: Input) -> Vec<(usize, usize)> {
    let mut seen = Vec::new();
    input
        .windows(|window| {
            seen.push((window.text.len(), window.starts.len()));
            Ok(ControlFlow::Continue(()))
        })
        .unwrap();
    seen
}

/// Writes bytes to a file of the test's folder and opens it as an input.
fn file_input(dir: &std::path::Path, name: &str, bytes: &[u8]) -> Input {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    Input::open(&path).unwrap()
}

#[test]
fn lone_cr_line_ends_and_one_line_files_read_as_their_plain_form() {
    let text = games(400, 5);
    let dir = common::temp_dir("hostile-forms");
    let (plain, plain_summary) = search(Input::from_bytes("plain", text.clone().into_bytes()));
    assert_eq!((plain_summary.games, plain_summary.errors), (400, 0));
    for (form, bytes) in forms(&text) {
        for (packing, packed) in [("plain", bytes.clone()), ("zstd", zstd(&bytes)), ("gzip", gzip(&bytes))] {
            let name = format!("{form} {packing}").replace(' ', "-");
            for (how, input) in [
                ("stream", Input::from_bytes(name.clone(), packed.clone())),
                ("file", file_input(&dir, &name, &packed)),
            ] {
                let (record, summary) = search(input);
                let what = format!("{form}, {packing}, from a {how}");
                assert_eq!(record.problems, Vec::<String>::new(), "{what}");
                assert_eq!(record.games, plain.games, "{what}: the games of the plain form");
                assert_eq!(summary.games, 400, "{what}");
            }
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn errors_have_their_line_whatever_ends_lines() {
    let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n";
    for (form, bytes) in forms(text) {
        let search = Search::new(Query::parse("K").unwrap(), SearchOptions::default()).unwrap();
        let mut record = Record::default();
        let _ = search.run(&mut Input::from_bytes("lines", bytes), &mut record, &mut Summary::default()).unwrap();
        let line = if form == "one line" { 1 } else { 7 };
        assert_eq!(record.problems, [format!("game 2 line {line} ply 3 'Ke3': illegal move")], "{form}");
    }
}

#[test]
fn long_lines_are_split_in_time_in_proportion_to_their_length() {
    // 2 MB of games, the same few hundred again and again, and four times as much.
    let small = games(300, 11).repeat(12);
    let large = small.repeat(4);
    let expected = Splitter::starts(large.as_bytes());
    for ((form, small), (_, large)) in forms(&small).into_iter().zip(forms(&large)) {
        let found = Splitter::starts(&large);
        if form != "CRLF" {
            assert!(found == expected, "{form}: the games start where they do with line ends");
        }
        assert_eq!(found.len(), expected.len(), "{form}");
        let cut = windows(Input::from_bytes(form, large.clone()));
        assert_eq!(cut.iter().map(|window| window.1).sum::<usize>(), expected.len(), "{form}");
        assert!(cut.len() > 1, "{form}: a stream of one line is cut into windows");
        assert!(cut.iter().all(|window| window.0 < WINDOW_BYTES + (1 << 20)), "{form}: {cut:?}");
        let split_small = seconds(|| drop(Splitter::starts(&small)));
        let split_large = seconds(|| drop(Splitter::starts(&large)));
        assert_linear(&format!("{form}, split"), split_small, split_large);
        let cut_small = seconds(|| drop(windows(Input::from_bytes(form, small.clone()))));
        let cut_large = seconds(|| drop(windows(Input::from_bytes(form, large.clone()))));
        assert_linear(&format!("{form}, cut from a stream"), cut_small, cut_large);
    }
}

#[test]
fn a_comment_of_many_megabytes_on_a_stream_is_read_in_linear_time() {
    let pgn = |megabytes: usize| {
        let mut pgn = b"[Event \"a\"]\n\n1. e4 {".to_vec();
        pgn.extend(std::iter::repeat_n(b'x', megabytes << 20));
        pgn.extend_from_slice(b"} e5 *\n\n[Event \"b\"]\n\n1. d4 *\n");
        pgn
    };
    let (small, large) = (pgn(8), pgn(32));
    let cut = windows(Input::from_bytes("comment", large.clone()));
    assert_eq!(cut.iter().map(|window| window.1).sum::<usize>(), 2);
    let small = seconds(|| drop(windows(Input::from_bytes("comment", small.clone()))));
    let large = seconds(|| drop(windows(Input::from_bytes("comment", large.clone()))));
    assert_linear("a long comment from a stream", small, large);
}

#[test]
fn games_without_tags_are_cut_into_windows_of_bounded_size() {
    // Tiny games: the windows are bounded by their number of games.
    let tiny = "1. e4 e5 *\n".repeat(3 * WINDOW_GAMES);
    // Real games without their tags, and the same on one line.
    let untagged: String = games(300, 3).lines().filter(|line| !line.starts_with('[')).collect::<Vec<_>>().join("\n");
    let untagged = untagged.repeat(12);
    let one_line = untagged.replace('\n', " ");
    let dir = common::temp_dir("hostile-untagged");
    for (what, text, count) in
        [("tiny", &tiny, 3 * WINDOW_GAMES), ("untagged", &untagged, 3600), ("one line", &one_line, 3600)]
    {
        // A mapped file's windows may grow further: they hold no memory of their own.
        for (how, input, growth) in [
            ("stream", Input::from_bytes(what, text.as_bytes().to_vec()), 1),
            ("file", file_input(&dir, what, text.as_bytes()), MAPPED_GROWTH),
        ] {
            let cut = windows(input);
            let starts: usize = cut.iter().map(|window| window.1).sum();
            assert_eq!(starts, count, "{what} from a {how}: every game found");
            assert!(cut.iter().all(|window| window.1 <= growth * WINDOW_GAMES), "{what} from a {how}: {cut:?}");
            let bytes = growth * WINDOW_BYTES + (1 << 20);
            assert!(cut.iter().all(|window| window.0 <= bytes), "{what} from a {how}: {cut:?}");
        }
        let (record, summary) = search(Input::from_bytes(what, text.as_bytes().to_vec()));
        assert_eq!((summary.games, summary.errors), (count as u64, 0), "{what}: {:?}", record.problems.first());
    }
    std::fs::remove_dir_all(dir).unwrap();
}
