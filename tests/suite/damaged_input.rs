//! Damaged files, foreign files and everyday shell habits: nothing lost, nothing crashes,
//! nothing misleads.

use crate::common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn cqlq(args: &[&str], stdin: &[u8]) -> Output {
    common::run_cqlq(args, stdin)
}

use common::text;
use cqlq::Query;
use cqlq::search::{Input, Search, SearchOptions, Summary};

/// A folder of its own for a test's files.
fn scratch(name: &str) -> common::TempDir {
    common::temp_dir(&format!("damaged-{name}"))
}

fn path(dir: &std::path::Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_owned()
}

#[test]
fn a_comment_never_closed_hides_no_later_game() {
    let pgn = b"[Event \"a\"]\n\n1. e4 {oops e5 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n";
    let output = cqlq(&["search", "--count", "-c", "Pd4", "-"], pgn);
    assert_eq!(text(&output.stdout), "1 game matched (2 positions) of 2 games read, 1 with errors\n");
    let errors = text(&output.stderr);
    assert!(errors.contains("<stdin>:3: game 1, ply 1, move '{': a comment '{' that is never closed"), "{errors}");
}

#[test]
fn a_blank_line_inside_tags_keeps_one_game() {
    let pgn =
        b"[Event \"AlphaZero vs. Stockfish\"]\n\n[White \"Stockfish 8\"]\n[Black \"AlphaZero\"]\n\n1. e4 e5 0-1\n";
    let output = cqlq(&["search", "-c", "player black \"AlphaZero\" Pe4", "-"], pgn);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let games = text(&output.stdout);
    assert_eq!(
        games,
        "[Event \"AlphaZero vs. Stockfish\"]\n\n[White \"Stockfish 8\"]\n[Black \"AlphaZero\"]\n\n1. e4 {CQL} e5 {CQL} 0-1\n\n"
    );
}

#[test]
fn names_in_old_code_pages_match_and_are_written_right() {
    let pgn =
        b"[White \"Schottl\xE4nder A\"]\n[Black \"Bird\"]\n\n1. e4 *\n\n[White \"Schottl\x84nder B\"]\n\n1. d4 *\n";
    let output = cqlq(&["search", "--format", "jsonl", "-c", "player white \"Schottländer\"", "-"], pgn);
    let lines = text(&output.stdout);
    assert_eq!(lines.lines().count(), 2, "{lines}");
    assert!(lines.contains("\"white\":\"Schottländer A\"") && lines.contains("\"white\":\"Schottländer B\""));
    let output = cqlq(&["search", "-c", "player white \"Schottländer A\"", "-"], pgn);
    assert!(output.stdout.starts_with(b"[White \"Schottl\xE4nder A\"]"), "PGN output keeps the bytes");
}

#[test]
fn the_output_cannot_be_an_input() {
    let dir = scratch("same");
    let games = path(&dir, "games.pgn");
    std::fs::copy("samples/games/classics.pgn", &games).unwrap();
    let before = std::fs::read(&games).unwrap();
    let output = cqlq(&["search", "-c", "check", &games, "-o", &games], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("is an input"), "{}", text(&output.stderr));
    let link = path(&dir, "link.pgn");
    std::fs::hard_link(&games, &link).unwrap();
    let output = cqlq(&["search", "-c", "check", &games, "-o", &link], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("is the same file as the input"), "{}", text(&output.stderr));
    let output = cqlq(&["search", "-c", "check", &games, "--errors", &games], b"");
    assert_eq!(output.status.code(), Some(2));
    let twice = path(&dir, "twice.pgn");
    let output = cqlq(&["search", "-c", "check", &games, "-o", &twice, "--errors", &twice], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("is written twice"), "{}", text(&output.stderr));
    assert_eq!(std::fs::read(&games).unwrap(), before, "the input is untouched");
    // A good run leaves the output under its name and nothing else beside it.
    let out = path(&dir, "out.pgn");
    let output = cqlq(&["search", "-c", "check", &games, "-o", &out], b"");
    assert_eq!(output.status.code(), Some(0));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["games.pgn", "link.pgn", "out.pgn"]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_closed_pipe_ends_quietly() {
    for args in [
        &["search", "--count", "-c", "K", "samples/games/random-standard.pgn"][..],
        &["search", "-c", "K", "samples/games/random-standard.pgn", "samples/games/random-standard.pgn"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cqlq"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}: {}", text(&output.stderr));
        assert!(!text(&output.stderr).contains("panicked"), "{}", text(&output.stderr));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error_naming_the_output() {
    let output = cqlq(&["search", "-c", "K", "samples/games/classics.pgn", "-o", "/dev/full"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("cannot write /dev/full: no space left on the device"),
        "{}",
        text(&output.stderr)
    );
    let pgn = b"[Event \"a\"]\n\n1. e4 Ke3 *\n";
    let output = cqlq(&["search", "-c", "K", "--errors", "/dev/full", "-"], pgn);
    assert_eq!(output.status.code(), Some(2));
    let errors = text(&output.stderr);
    assert!(errors.contains("cannot write /dev/full") && !errors.contains("<stdin>: "), "{errors}");
}

#[test]
fn zero_means_zero_or_is_refused() {
    for (option, value, says) in [
        ("--limit", "0", "would write nothing"),
        ("-g", "0", "games are numbered from 1"),
        ("-g", "0-3", "games are numbered from 1"),
        ("-j", "0", "at least 1 thread"),
    ] {
        let output = cqlq(&["search", option, value, "-c", "K", "samples/games/classics.pgn"], b"");
        assert_eq!(output.status.code(), Some(2), "{option} {value}");
        assert!(text(&output.stderr).contains(says), "{option} {value}: {}", text(&output.stderr));
    }
    for query in ["cql(gamenumber 0) K", "cql(matchcount 1 2 gamenumber 3 1) K"] {
        let output = cqlq(&["search", "-c", query, "samples/games/classics.pgn"], b"");
        assert_eq!(output.status.code(), Some(2), "{query}");
        let says = if query.contains(" 0)") { "games are numbered from 1" } else { "the range 3 1 runs backwards" };
        assert!(text(&output.stderr).contains(says), "{query}: {}", text(&output.stderr));
    }
    let count = |matchcount: &str| {
        let output = cqlq(
            &["search", "--count", "--matchcount", matchcount, "-c", "Ra-h7 ka-h8", "samples/games/classics.pgn"],
            b"",
        );
        text(&output.stdout)
    };
    assert_eq!(count("1"), "2 games matched (2 positions) of 4 games read, 0 with errors\n");
    assert_eq!(count("0"), "4 games matched (2 positions) of 4 games read, 0 with errors\n");
    assert_eq!(count("0-0"), "2 games matched (0 positions) of 4 games read, 0 with errors\n");
    let dir = scratch("count");
    let out = path(&dir, "count.txt");
    let output = cqlq(&["search", "--count", "-c", "K", "samples/games/classics.pgn", "-o", &out], b"");
    assert_eq!(output.stdout, b"");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "4 games matched (211 positions) of 4 games read, 0 with errors\n"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn more_threads_than_cores_are_bounded_with_a_note() {
    let output = cqlq(&["search", "-j", "100000", "--count", "-c", "K", "samples/games/classics.pgn"], b"");
    assert_eq!(output.status.code(), Some(0));
    assert!(text(&output.stderr).contains("-j 100000: this machine has"), "{}", text(&output.stderr));
}

#[test]
fn input_that_is_no_pgn_is_refused_with_what_it_looks_like() {
    for (file, says) in [
        ("README.md", "does not look like PGN"),
        ("samples/positions/classical.epd", "use `cqlq filter`"),
        ("Cargo.lock", "does not look like PGN"),
    ] {
        let output = cqlq(&["search", "--count", "-c", "K", file], b"");
        assert_eq!(output.status.code(), Some(2), "{file}");
        assert!(text(&output.stderr).contains(says), "{file}: {}", text(&output.stderr));
    }
    let output = cqlq(&["search", "--count", "-c", "K", "-"], b"\x00\x01\x02binary\x00");
    assert!(text(&output.stderr).contains("binary data"), "{}", text(&output.stderr));
    let output = cqlq(&["search", "--count", "-c", "K", "-"], b"BZh91AY&SY");
    assert!(text(&output.stderr).contains("bzip2"), "{}", text(&output.stderr));
}

/// Generated games, more than a few blocks of zstd.
fn games() -> Vec<u8> {
    common::games::random_games("Standard", 1500, 17).into_bytes()
}

/// [`games`], compressed.
fn compressed(format: &str) -> Vec<u8> {
    let pgn = games();
    match format {
        "zst" => zstd::encode_all(&pgn[..], 3).unwrap(),
        _ => {
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            encoder.write_all(&pgn).unwrap();
            encoder.finish().unwrap()
        }
    }
}

#[test]
fn compressed_input_is_known_by_its_bytes_also_on_standard_input() {
    let plain = cqlq(&["search", "--count", "-c", "Ra-h7", "-"], &games());
    for format in ["zst", "gz"] {
        let output = cqlq(&["search", "--count", "-c", "Ra-h7", "-"], &compressed(format));
        assert_eq!(output.stdout, plain.stdout, "{format}");
        assert_eq!(output.status.code(), Some(0));
    }
}

#[test]
fn a_cut_compressed_stream_gives_its_games_then_an_error() {
    let all = cqlq(&["search", "--format", "jsonl", "-c", "Ra-h7", "-"], &games());
    for format in ["zst", "gz"] {
        let data = compressed(format);
        let output = cqlq(&["search", "--format", "jsonl", "-c", "Ra-h7", "-"], &data[..data.len() / 2]);
        assert_eq!(output.status.code(), Some(2), "{format}");
        assert!(text(&output.stderr).contains("cut short or damaged"), "{format}: {}", text(&output.stderr));
        let found = text(&output.stdout);
        assert!(found.lines().count() > 3, "{format}: games before the cut are searched: {found}");
        // Every game found but the last (which may be cut) is found in the whole file too.
        let whole = text(&all.stdout);
        for line in found.lines().rev().skip(1) {
            assert!(whole.contains(line), "{format}: {line}");
        }
    }
}

#[test]
fn every_game_failing_is_no_plain_nothing_matched() {
    let pgn = b"[Event \"a\"]\n\n1. Ke3 *\n\n[Event \"b\"]\n\n1. Qh9 *\n";
    let output = cqlq(&["search", "--count", "-c", "Qa1", "-"], pgn);
    assert_eq!(output.status.code(), Some(2), "no game could be read");
    let pgn = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. Qh9 *\n";
    let output = cqlq(&["search", "--count", "-c", "Qa1", "-"], pgn);
    assert_eq!(output.status.code(), Some(1), "one game read, nothing matched");
}

#[test]
fn messages_cut_long_tokens_and_escape_control_bytes() {
    let mut pgn = b"[Event \"a\"]\n\n1. e4 ".to_vec();
    pgn.extend(std::iter::repeat_n(b'x', 1 << 20));
    pgn.extend_from_slice(b" e5 *\n\n[Event \"b\"]\n\n1. e4 \x1b[2J\x00 *\n");
    let dir = scratch("tokens");
    let errors = path(&dir, "errors.jsonl");
    let output = cqlq(&["search", "--count", "-c", "K", "--errors", &errors, "-"], &pgn);
    let stderr = text(&output.stderr);
    assert!(stderr.len() < 1000, "{} bytes on standard error", stderr.len());
    assert!(stderr.contains(&format!("move '{}…': not a move", "x".repeat(cqlq::search::TOKEN_CHARS))), "{stderr}");
    assert!(stderr.contains("move '\\x1b': not a move"), "{stderr}");
    assert!(!stderr.contains('\u{1b}') && !stderr.contains('\0'));
    let log = std::fs::read_to_string(&errors).unwrap();
    assert!(log.len() < 1000, "{} bytes in the errors log", log.len());
    std::fs::remove_dir_all(dir).unwrap();
}

/// What is found on a stream that stays open is written out while it is open, not at its end.
#[test]
fn a_slow_stream_shows_its_games_as_they_come() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cqlq"))
        .args(["search", "-q", "-c", "Pe4", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(b"[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4").unwrap();
    input.flush().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut first = vec![0; 11];
        let read = stdout.read_exact(&mut first).map(|()| first);
        let _ = sender.send(read);
    });
    // Generous: the first game comes within about two seconds; the stream is still open.
    let first = receiver.recv_timeout(std::time::Duration::from_secs(30));
    drop(input);
    let _ = child.wait();
    assert_eq!(first.expect("the first game came while the stream was open").unwrap(), b"[Event \"a\"]");
}

/// `bytes` with every line end a lone `\r`.
fn cr_only(bytes: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(bytes).replace("\r\n", "\r").replace('\n', "\r").into_bytes()
}

#[test]
fn native_formats_and_positions_with_lone_cr_line_ends_lose_nothing() {
    for (file, query) in [
        ("samples/games/xdecor-moves-raw.txt", "K"),
        ("samples/games/xdecor-table.txt", "K"),
        ("samples/games/xdecor-tolerant.txt", "K"),
        ("samples/games/laser-moves.txt", "K or k"),
    ] {
        let bytes = std::fs::read(file).unwrap();
        let plain = cqlq(&["search", "--count", "-c", query, "-"], &bytes);
        let cr = cqlq(&["search", "--count", "-c", query, "-"], &cr_only(&bytes));
        assert_eq!(text(&cr.stdout), text(&plain.stdout), "{file}: {}", text(&cr.stderr));
        assert!(!text(&plain.stdout).starts_with("0 "), "{file}");
    }
    let positions = std::fs::read("samples/positions/classical.epd").unwrap();
    let plain = cqlq(&["filter", "--count", "-c", "K", "-"], &positions);
    let cr = cqlq(&["filter", "--count", "-c", "K", "-"], &cr_only(&positions));
    assert_eq!(text(&cr.stdout), text(&plain.stdout), "{}", text(&cr.stderr));
    assert!(text(&cr.stdout).ends_with(" 0 lines not positions\n"), "{}", text(&cr.stderr));
}

#[test]
fn a_move_table_without_result_rows_or_blank_lines_keeps_every_game() {
    let table = std::fs::read_to_string("samples/games/xdecor-table.txt").unwrap();
    let bare: String = table
        .lines()
        .filter(|line| !line.trim().is_empty() && !["1–0", "0–1", "½–½"].contains(&line.trim()))
        .map(|line| format!("{line}\n"))
        .collect();
    let whole = cqlq(&["search", "--count", "-c", "K", "-"], table.as_bytes());
    for (what, bytes) in [("bare", bare.clone().into_bytes()), ("bare, lone CR", cr_only(bare.as_bytes()))] {
        let output = cqlq(&["search", "--count", "-c", "K", "-"], &bytes);
        assert_eq!(text(&output.stdout), text(&whole.stdout), "{what}: {}", text(&output.stderr));
    }
    assert_eq!(text(&whole.stdout), "4 games matched (211 positions) of 4 games read, 0 with errors\n");
}

#[test]
fn a_comment_quoting_a_game_keeps_its_game_whole() {
    let pgn = "[Event \"a\"]\n\n1. e4 {as in the game\n[Event \"London 1851\"]\n[Site \"?\"]\n1. d4} e5 2. Nf3 *\n\n\
               [Event \"b\"]\n\n1. d4 {oops d5 *\n\n[Event \"c\"]\n\n1. c4 e5 *\n";
    for (what, bytes) in [("LF", pgn.as_bytes().to_vec()), ("lone CR", cr_only(pgn.as_bytes()))] {
        let output = cqlq(&["search", "--count", "-c", "Nf3", "-"], &bytes);
        // The first game reaches Nf3 after its comment; the comment never closed ends where
        // the third game starts.
        assert_eq!(
            text(&output.stdout),
            "1 game matched (1 position) of 3 games read, 1 with errors\n",
            "{what}: {}",
            text(&output.stderr)
        );
        assert!(text(&output.stderr).contains(":10: game 2, ply 1, move '{'"), "{what}: {}", text(&output.stderr));
    }
}

/// Three games, with tags, comments and results, one with its result on a line of its own.
const THREE_GAMES: &str = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
    [Event \"b\"]\n[Result \"1/2-1/2\"]\n\n1. d4 {a comment} d5 2. c4 (2. Nf3) e6\n1/2-1/2\n\n\
    [Event \"c\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";

#[test]
fn a_pgn_cut_anywhere_gives_its_last_game_whole_or_reports_it_cut_short() {
    let options = || SearchOptions { matchcount: (0, None), ..SearchOptions::default() };
    let search = Search::new(Query::parse("K").unwrap(), options()).unwrap();
    let run = |bytes: &[u8]| {
        let mut record = common::Record::default();
        let mut summary = Summary::default();
        if let Err(error) = search.run(&mut Input::from_bytes("cut", bytes.to_vec()), &mut record, &mut summary) {
            // Refused whole: reported too.
            record.problems.push(error.to_string());
        }
        (record, summary)
    };
    let (whole, _) = run(THREE_GAMES.as_bytes());
    assert_eq!(whole.games.len(), 3);
    assert!(whole.problems.is_empty());
    // Where each game's text ends: after its result.
    let ends: Vec<usize> = ["4. Qxf7# 1-0", "1/2-1/2\n\n[Event \"c\"", "Qh4# 0-1"]
        .iter()
        .map(|at| THREE_GAMES.find(at).unwrap())
        .collect();
    let ends = [ends[0] + 12, ends[1] + 7, ends[2] + 8];
    let starts = [0, THREE_GAMES.find("[Event \"b\"]").unwrap(), THREE_GAMES.find("[Event \"c\"]").unwrap()];
    for cut in 1..THREE_GAMES.len() {
        let (record, _) = run(&THREE_GAMES.as_bytes()[..cut]);
        let complete = ends.iter().filter(|&&end| end <= cut).count();
        let begun = starts.iter().filter(|&&start| start < cut).count();
        if record.problems.first().is_some_and(|problem| problem.starts_with("this does not look like PGN")) {
            // Too little is left to tell (`[Ev`): the input is refused, which is said too.
            assert!(complete == 0 && cut < 10, "cut at {cut}: {:?}", record.problems);
            continue;
        }
        assert_eq!(record.games[..complete], whole.games[..complete], "cut at {cut}: the games before are whole");
        if begun > complete {
            // The last game is cut: it is reported, on the line of the cut.
            let line = THREE_GAMES[..cut].trim_end().lines().count();
            assert_eq!(record.problems.len(), 1, "cut at {cut}: {:?}", record.problems);
            assert!(record.problems[0].contains(&format!(" line {line} ")), "cut at {cut}: {:?}", record.problems);
        } else {
            assert!(record.problems.is_empty(), "cut at {cut}: {:?}", record.problems);
        }
    }
}

#[test]
fn a_last_game_without_a_result_is_cut_short_unless_it_reads_whole() {
    let problems = |pgn: &str| {
        let output = cqlq(&["search", "--count", "-c", "Pe4", "-"], pgn.as_bytes());
        (text(&output.stdout), text(&output.stderr))
    };
    // A list of moves without tags, its last line ended: a whole game, as PGN readers take it.
    let (count, errors) = problems("1. e4 e5 2. Nf3\n");
    assert_eq!(count, "1 game matched (3 positions) of 1 game read, 0 with errors\n", "{errors}");
    // Its last line not ended, a Result tag its movetext lacks, or tags only: cut short.
    for pgn in
        ["1. e4 e5 2. Nf3", "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3\n", "[Event \"a\"]\n[Site \"b\"]\n", "[Event \"a"]
    {
        let (count, errors) = problems(pgn);
        assert!(count.ends_with("1 with errors\n"), "{pgn:?}: {count}");
        assert!(errors.contains("cut short: the input ends before the game does"), "{pgn:?}: {errors}");
    }
    // In the middle of the input, a game without a result is whole.
    let (count, errors) = problems("[Event \"a\"]\n\n1. e4 e5\n\n[Event \"b\"]\n\n1. e4 *\n");
    assert_eq!(count, "2 games matched (3 positions) of 2 games read, 0 with errors\n", "{errors}");
}

#[test]
fn a_tag_without_its_closing_bracket_is_reported_and_its_game_searched() {
    let pgn = b"[Event \"a\"\n[Site \"b\"]\n\n1. e4 e5 *\n";
    let output = cqlq(&["search", "--count", "-c", "Pe4", "-"], pgn);
    assert_eq!(text(&output.stdout), "1 game matched (2 positions) of 1 game read, 0 with errors\n");
    assert!(
        text(&output.stderr).contains("<stdin>:1: warning: game 1: a tag without its closing ']'"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn one_stray_byte_does_not_make_a_pgn_file_binary() {
    let mut pgn = games();
    // A NUL in the first game's movetext, about 2,000 bytes in: that game is reported, every
    // other one read.
    let at = pgn.windows(3).position(|window| window == b"\n1.").unwrap() + 5;
    pgn[at] = 0;
    let output = cqlq(&["search", "--count", "-c", "K", "-"], &pgn);
    assert!(text(&output.stdout).ends_with(" of 1500 games read, 1 with errors\n"), "{}", text(&output.stderr));
    // Mostly control bytes: binary, said with what was seen.
    let output = cqlq(&["search", "--count", "-c", "K", "-"], &[0u8, 1, 2, 3, 4, 5, 6, 7, b'x'].repeat(100));
    let errors = text(&output.stderr);
    assert!(errors.contains("binary data, not text: 800 of its first 900 bytes are control bytes"), "{errors}");
    assert!(errors.contains("--notation (pgn, xdecor-raw, xdecor, laser)"), "{errors}");
}

#[test]
fn a_preamble_of_escape_and_comment_lines_is_read_past() {
    let games = games();
    for (line, count) in [("% generated by a program", 100), ("; a comment line", 300)] {
        let mut pgn = format!("{line}\n").repeat(count).into_bytes();
        pgn.extend_from_slice(&games);
        for (how, bytes) in [("LF", pgn.clone()), ("lone CR", cr_only(&pgn))] {
            let output = cqlq(&["search", "--count", "-c", "K", "-"], &bytes);
            assert!(
                text(&output.stdout).ends_with(" of 1500 games read, 0 with errors\n"),
                "{line} x {count}, {how}: {}",
                text(&output.stderr)
            );
        }
    }
}

#[test]
fn native_files_with_a_byte_order_mark_or_a_title_are_known() {
    let table = std::fs::read("samples/games/xdecor-table.txt").unwrap();
    let raw = std::fs::read("samples/games/xdecor-moves-raw.txt").unwrap();
    let laser = std::fs::read("samples/games/laser-moves.txt").unwrap();
    let with = |head: &[u8], body: &[u8]| [head, body].concat();
    for (what, bytes, says) in [
        (
            "table, BOM",
            with(b"\xEF\xBB\xBF", &table),
            "4 games matched (211 positions) of 4 games read, 0 with errors\n",
        ),
        (
            "table, title",
            with(b"Games at the club, May 2025\n\n", &table),
            "4 games matched (211 positions) of 4 games read, 0 with errors\n",
        ),
        (
            "table, BOM and title",
            with(b"\xEF\xBB\xBFClub games\n", &table),
            "4 games matched (211 positions) of 4 games read, 0 with errors\n",
        ),
        (
            "moves_raw, BOM",
            with(b"\xEF\xBB\xBF", &raw),
            "24 games matched (1600 positions) of 24 games read, 0 with errors\n",
        ),
    ] {
        let output = cqlq(&["search", "--count", "-c", "K", "-"], &bytes);
        assert_eq!(text(&output.stdout), says, "{what}: {}", text(&output.stderr));
    }
    let output =
        cqlq(&["search", "--count", "--notation", "laser", "-c", "K or k", "-"], &with(b"\xEF\xBB\xBF", &laser));
    assert_eq!(text(&output.stdout), "3 games matched (52 positions) of 3 games read, 0 with errors\n");
}

#[test]
fn text_that_is_no_notation_is_refused_with_what_it_begins_with() {
    let output = cqlq(&["search", "--count", "-c", "K", "-"], b"Shopping list\n\n- bread\n- milk\n");
    let errors = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2));
    assert!(errors.contains("begin with \"Shopping list\""), "{errors}");
    assert!(errors.contains("say in which notation with --notation (pgn, xdecor-raw, xdecor, laser)"), "{errors}");
}

#[test]
fn zstd_with_a_long_window_or_a_skippable_frame_is_read() {
    let pgn = games();
    let plain = cqlq(&["search", "--count", "-c", "Ra-h7", "-"], &pgn);
    // As `zstd --long=30` writes it: a frame asking for a window of 1 GiB.
    let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    encoder.long_distance_matching(true).unwrap();
    encoder.window_log(30).unwrap();
    encoder.write_all(&pgn).unwrap();
    let long = encoder.finish().unwrap();
    let mut decoder = zstd::stream::read::Decoder::new(&long[..]).unwrap();
    let mut sink = Vec::new();
    assert!(std::io::Read::read_to_end(&mut decoder, &mut sink).is_err(), "the default limit refuses it");
    // A skippable frame (magic 0x184D2A5x, its length, anything) before the data.
    let mut skippable = vec![0x53, 0x2A, 0x4D, 0x18, 5, 0, 0, 0];
    skippable.extend_from_slice(b"notes");
    skippable.extend_from_slice(&compressed("zst"));
    let dir = scratch("zstd");
    for (what, data) in [("long window", long), ("skippable frame", skippable)] {
        let file = path(&dir, "games.pgn.zst");
        std::fs::write(&file, &data).unwrap();
        for (how, output) in [
            ("stream", cqlq(&["search", "--count", "-c", "Ra-h7", "-"], &data)),
            ("file", cqlq(&["search", "--count", "-c", "Ra-h7", &file], b"")),
        ] {
            assert_eq!(output.stdout, plain.stdout, "{what} from a {how}: {}", text(&output.stderr));
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn damaged_gzip_is_reported_where_decoding_failed_in_decompressed_bytes() {
    let pgn = games();
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
    encoder.write_all(&pgn).unwrap();
    let stored = encoder.finish().unwrap();
    // Stored blocks after the 10-byte header: a block's header byte, its length, the length's
    // complement, its bytes. The second block's lengths made to disagree: decoding fails
    // after the first block.
    let first = usize::from(u16::from_le_bytes([stored[11], stored[12]]));
    let mut damaged = stored.clone();
    damaged[10 + 5 + first + 3] ^= 0xFF;
    let output = cqlq(&["search", "--count", "-c", "Ra-h7", "-"], &damaged);
    let errors = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{errors}");
    let said = "the gzip data is cut short or damaged: decoding failed after ";
    let after = errors.find(said).map(|at| &errors[at + said.len()..]).unwrap_or_else(|| panic!("{errors}"));
    assert!(after.contains(" bytes of decompressed data (corrupt deflate stream)"), "{errors}");
    let decoded: usize = after.split(' ').next().unwrap().parse().unwrap();
    // Not the end of the data: where the decoder failed (which reads its input ahead, and
    // fails as soon as it reads the damaged bytes).
    assert!(decoded <= first, "{decoded} bytes told, {first} sound: {errors}");
    // Damage that only its checksum tells is said so, at the end of the data.
    let mut crc = stored;
    let at = crc.len() - 8;
    crc[at] ^= 1;
    let output = cqlq(&["search", "--count", "-c", "Ra-h7", "-"], &crc);
    let errors = text(&output.stderr);
    assert!(
        errors.contains(&format!("the gzip data fails its checksum after {} bytes of decompressed data", pgn.len())),
        "{errors}"
    );
}
