//! The `cqlq` command as a user runs it: output, errors and exit codes.

use crate::common;

use std::process::Output;

fn cqlq(args: &[&str], stdin: &str) -> Output {
    common::run_cqlq(args, stdin.as_bytes())
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

const POSITIONS: &str = "\
# two positions and a mistake
6k1/1R3ppp/8/8/8/8/5PPP/6K1 w - - 0 40
epd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -

this is no position
6k1/5ppQ/6N1/8/8/8/5PPP/6K1 b - - 0 30
";

#[test]
fn filter_prints_matching_lines_unchanged() {
    let output = cqlq(&["filter", "-c", "Ra-h7 ka-h8"], POSITIONS);
    assert_eq!(stdout(&output), "6k1/1R3ppp/8/8/8/8/5PPP/6K1 w - - 0 40\n");
    assert_eq!(output.status.code(), Some(0));
    let output = cqlq(&["filter", "-c", "[Aa] >= 32", "-"], POSITIONS);
    assert_eq!(stdout(&output), "epd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n");
}

#[test]
fn filter_reports_bad_lines_and_goes_on() {
    let output = cqlq(&["filter", "-c", "Qh7 kg8"], POSITIONS);
    assert_eq!(stdout(&output), "6k1/5ppQ/6N1/8/8/8/5PPP/6K1 b - - 0 30\n");
    let errors = stderr(&output);
    assert!(errors.starts_with("cqlq: <stdin>:5: not a Standard position (FEN): invalid board in fen:"), "{errors}");
    assert_eq!(errors.lines().count(), 2, "{errors}");
    assert!(errors.contains("\ncqlq: 1 position matched of 3 read, 1 line not a position, in "), "{errors}");
    assert_eq!(output.status.code(), Some(0), "a bad line does not change the exit status");
}

#[test]
fn filter_counts() {
    // As `cqlq search --count`: a sentence where the lines would go, and no summary.
    let output = cqlq(&["filter", "--count", "-c", "K"], POSITIONS);
    assert_eq!(stdout(&output), "3 positions matched of 3 read, 1 line not a position\n");
    assert!(!stderr(&output).contains("matched"), "{}", stderr(&output));
    let output = cqlq(&["filter", "--count", "-c", "Qa1"], POSITIONS);
    assert_eq!(stdout(&output), "0 positions matched of 3 read, 1 line not a position\n");
    assert_eq!(output.status.code(), Some(1), "nothing matched");
    let output = cqlq(&["filter", "--count", "-c", "Rb7"], POSITIONS);
    assert!(stdout(&output).starts_with("1 position matched of 3 read"), "{}", stdout(&output));
}

#[test]
fn filter_reads_query_files_and_several_inputs() {
    let output = cqlq(
        &[
            "filter",
            "queries/rook-on-the-seventh.cql",
            "samples/positions/classical.epd",
            "samples/positions/crazyhouse.fen",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output).lines().count(), 3);
}

#[test]
fn filter_sniffs_variants_line_by_line() {
    let output = cqlq(&["filter", "--count", "-c", "#&A; >= 2", "samples/positions/mixed.txt"], "");
    assert!(stdout(&output).starts_with("6 positions matched"), "{}", stderr(&output));
    let output = cqlq(&["filter", "-c", "Mb8", "samples/positions/mixed.txt"], "");
    assert_eq!(stdout(&output), "O Ta1,tz1,ta26,Tz26,Mb8,my19,Kn1,kn26,If13\n");
}

#[test]
fn filter_with_a_variant_reads_that_variant_only() {
    let output = cqlq(&["filter", "--variant", "croatian ties", "-c", "Gh6", "samples/positions/croatian.txt"], "");
    assert_eq!(stdout(&output).lines().count(), 1);
    assert!(
        stderr(&output).contains("not a Croatian Ties position (setup string): the setup string is of Classical Chess")
    );
    let output = cqlq(&["filter", "--variant", "Makruk", "-c", "K"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("unknown variant 'Makruk'"));
}

#[test]
fn a_query_that_does_not_compile_for_a_sniffed_variant_is_reported_once() {
    let output = cqlq(&["filter", "-c", "Qd1", "samples/positions/laser.sn"], "");
    let errors = stderr(&output);
    assert_eq!(errors.matches("does not compile").count(), 1, "{errors}");
    assert!(errors.contains("'Q' is no piece of Laser Chess (pieces: K S D B L"), "{errors}");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_bad_query_shows_every_mistake_with_a_caret() {
    let output = cqlq(&["filter", "-c", "R[ & Ra-z1 #5"], POSITIONS);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    let errors = stderr(&output);
    assert!(errors.contains("error: expected a square such as e4 or ']' after 'R['\n --> -c:1:4\n"), "{errors}");
    assert!(errors.contains("'#' counts the squares of a set, and '5' is a number"), "{errors}");
    assert!(errors.contains("file z is outside") || errors.contains("1 | R[ & Ra-z1 #5\n  |"), "{errors}");
}

#[test]
fn a_bad_query_file_names_the_file() {
    let dir = std::env::temp_dir().join(format!("cqlq-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.cql");
    std::fs::write(&file, "// a comment\nQh7 kh9\n").unwrap();
    // Fine on bigger boards: the mistake shows when a Standard position comes.
    let output = cqlq(&["filter", file.to_str().unwrap()], POSITIONS);
    let errors = stderr(&output);
    assert!(errors.contains("<stdin>:2: a Standard position, and the query does not compile for it:"), "{errors}");
    assert!(errors.contains(&format!("--> {}:2:6", file.display())), "{errors}");
    assert!(errors.contains("rank 9 is outside the 8x8 board of Standard (ranks 1-8)"), "{errors}");
    assert!(errors.contains("2 | Qh7 kh9\n  |      ^^"), "{errors}");
    assert_eq!(output.status.code(), Some(2));
    // Wrong on every board: refused before any position is read.
    std::fs::write(&file, "Qh7 kh99\n").unwrap();
    let output = cqlq(&["filter", file.to_str().unwrap()], POSITIONS);
    let errors = stderr(&output);
    assert!(errors.starts_with("error: rank 99 is outside the 8x8 board of Standard (ranks 1-8)"), "{errors}");
    assert_eq!(stdout(&output), "");
    assert_eq!(output.status.code(), Some(2));
    let missing = cqlq(&["filter", dir.join("missing.cql").to_str().unwrap()], "");
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("cannot read the query file"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_unreadable_input_is_an_error_but_others_are_read() {
    let output =
        cqlq(&["filter", "-c", "K", "samples/positions/nonexistent.epd", "samples/positions/classical.epd"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cqlq: samples/positions/nonexistent.epd:"));
    assert_eq!(stdout(&output).lines().count(), 19);
}

/// A fatal error on the only input is said in words, once, with no closing line of counts
/// after it; exit 2.
#[test]
fn a_fatal_input_error_stands_alone() {
    let dir = std::env::temp_dir().join(format!("cqlq-fatal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("binary.pgn"), (0..3000u32).map(|i| (i % 7) as u8).collect::<Vec<u8>>()).unwrap();
    let xz = [0xFD, b'7', b'z', b'X', b'Z', 0, 0, 4];
    std::fs::write(dir.join("games.pgn.xz"), xz).unwrap();
    let path = |name: &str| dir.join(name).display().to_string();
    let cases: [(&[&str], String, &str); 8] = [
        (&["search", "-c", "K"], "samples/games/".into(), "give the files in it, as samples/games/*.pgn (18 files)"),
        (&["search", "-c", "K", "--count"], "samples/".into(), "as samples/*/*.pgn"),
        (&["search", "-c", "K"], "samples/games/nonexistent.pgn".into(), "nonexistent.pgn: no such file or folder"),
        (&["search", "-c", "K"], path("binary.pgn"), "this is binary data, not text"),
        (&["search", "-c", "K"], path("games.pgn.xz"), "this is xz data"),
        (&["positions"], "samples/games".into(), "a folder, not a file"),
        (&["filter", "-c", "K", "--count"], "samples/games/classics.pgn".into(), "this is PGN, games rather than"),
        (&["filter", "-c", "K"], "samples/positions/nonexistent.epd".into(), "no such file or folder"),
    ];
    for (command, input, said) in cases {
        let mut args = command.to_vec();
        args.push(&input);
        let output = cqlq(&args, "");
        let errors = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {errors}");
        assert_eq!(errors.lines().count(), 1, "{args:?}: one line, no summary: {errors}");
        assert!(errors.contains(said), "{args:?}: {errors}");
        assert!(!errors.contains("os error"), "{args:?}: {errors}");
        assert_eq!(stdout(&output), "", "{args:?}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// `--notation` that the file's first bytes contradict refuses the file, naming the notation
/// they show, rather than reading every game as broken.
#[test]
fn a_notation_the_first_bytes_contradict_is_refused() {
    let cases = [
        (
            "xdecor",
            "samples/games/classics.pgn",
            "\"X-Decor move table\", but by its first bytes this is \"PGN\": give --notation pgn",
        ),
        ("laser", "samples/games/classics.pgn", "give --notation pgn"),
        ("xdecor", "samples/games/xdecor-moves-raw.txt", "give --notation xdecor-raw"),
        ("xdecor-raw", "samples/games/xdecor-table.txt", "give --notation xdecor,"),
        ("pgn", "samples/games/xdecor-table.txt", "give --notation xdecor,"),
    ];
    for (notation, input, said) in cases {
        let output = cqlq(&["search", "-c", "K", "--notation", notation, input], "");
        let errors = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{notation} {input}: {errors}");
        assert!(errors.contains(said) && errors.lines().count() == 1, "{notation} {input}: {errors}");
        assert_eq!(stdout(&output), "");
    }
    // The right notation, and a text whose first bytes do not tell (movetext without tags).
    let output = cqlq(&["search", "-c", "K", "--count", "--notation", "xdecor", "samples/games/xdecor-table.txt"], "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let output = cqlq(&["search", "-c", "K", "--count", "--notation", "pgn", "-"], "1. e4 e5 *\n");
    assert_eq!(stdout(&output), "1 game matched (3 positions) of 1 game read, 0 with errors\n");
}

#[test]
fn explain_draws_each_designator() {
    let output = cqlq(&["explain", "-c", "[D1]", "--variant", "Croatian Ties"], "");
    let text = stdout(&output);
    assert!(text.starts_with("variant: Croatian Ties (10x10, pieces P N B R Q K G)\n"), "{text}");
    assert!(text.contains(" 2 . . . . . . . . . .\n 1 x . x . x . x . x .\n   a b c d e f g h i j\n"), "{text}");
    let output = cqlq(&["explain", "-c", "Aa1 &A;[+]", "--variant", "Mayan Ascendancy"], "");
    let text = stdout(&output);
    assert!(text.contains("  A = Pyramid (Light)\n"), "{text}");
    assert!(text.contains("  &A; = any Light piece\n"), "{text}");
    assert!(text.contains("backhand: P N B R Q K G A\n"), "{text}");
}

#[test]
fn explain_json() {
    let output = cqlq(&["explain", "--json", "-c", "N[+,a1]", "--variant", "zh"], "");
    assert_eq!(
        stdout(&output),
        "{\"variant\":\"Crazyhouse\",\"designators\":[{\"text\":\"N[+,a1]\",\"squares\":[\"a1\"],\"backhand\":[\"N\"]}]}\n"
    );
    let output = cqlq(&["explain", "--json", "-c", "Nz9"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("file z is outside the 8x8 board of Standard (files a-h)"));
}

#[test]
fn explain_draws_the_lasers_beams() {
    // The worked example of laser.md: from Ace, Blue's beam goes j1-j4, left to h4, up to h5,
    // right to j5 and up off the board.
    let output = cqlq(&["explain", "-c", "nextbeam & j8", "--variant", "Laser Chess"], "");
    let text = stdout(&output);
    let start = "\
Blue's laser on j1 fires next: it leaves the board after j8, removing nothing
8 l . . . d k d b . |
7 . . b . . . . . . |
6 . . . B . . . . . |
5 b . B . s s . b - B
4 b . B . S S . b - B
3 . . . . . . b . . |
2 . . . . . . . B . |
1 . . B D K D . . . L
  a b c d e f g h i j
matches: yes
";
    assert!(text.ends_with(start), "{text}");
    // A step off f5 lets Red's beam run on to c4: the last shot and the next are drawn.
    let output = cqlq(&["explain", "-c", "hit & c4", "--variant", "Laser Chess", "--after", "c4- f5e6xc4"], "");
    let text = stdout(&output);
    assert!(text.contains("\nposition after c4- f5e6xc4: l++3d++kd++b+++2/"), "{text}");
    assert!(text.contains("Red's laser on a8 fired last: it removes Blue's Deflector on c4\n"), "{text}");
    assert!(text.contains("\n5 b - B . s . . b . B\n4 b . x . S S . b . B\n"), "{text}");
    assert!(text.ends_with("matches: yes\n"), "{text}");
    // A move the rules refuse is an error that names it.
    let output = cqlq(&["explain", "-c", "hit", "--variant", "Laser Chess", "--after", "j4j3 a5a4"], "");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stderr(&output), "error: move 2 'a5a4': illegal move: a4 is occupied\n");
    // Any variant shows a position on request, as JSON too.
    let output = cqlq(&["explain", "--json", "-c", "Nf3", "--after", "e4 e5 Nf3"], "");
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["position"]["written"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    assert_eq!(json["position"]["matches"], true);
}

#[test]
fn explain_uses_the_header_variant() {
    let output = cqlq(&["explain", "queries/pyramid-on-the-first-rank.cql"], "");
    assert!(stdout(&output).starts_with("variant: Mayan Ascendancy"), "{}", stderr(&output));
}

#[test]
fn variants_lists_the_catalogue() {
    let output = cqlq(&["variants"], "");
    let text = stdout(&output);
    let (table, words) = text.split_once("\nwords of their own\n").expect("the words follow the table");
    assert_eq!(table.lines().count(), 1 + 34);
    assert!(words.lines().any(|line| line.starts_with("King of the Hill") && line.contains("hill")), "{words}");
    assert!(words.lines().any(|line| line.starts_with("Laser Chess") && line.contains("move ... rotate")));
    let row = |name: &str| text.lines().find(|line| line.split("  ").next() == Some(name)).unwrap_or_default();
    assert!(row("One").contains(" 26x26  Light/Dark "), "{text}");
    assert!(row("One (current edition)").ends_with("P N B R Q K E A U W T C O G S H M I"), "{text}");
    assert!(row("Laser Chess").contains(" 10x8   Blue/Red "), "{text}");
    assert!(text.lines().any(|line| line.starts_with("Croatian Ties") && line.ends_with("P N B R Q K G")));
}

#[test]
fn manual_pages_and_completions_come_from_the_command_line() {
    let output = cqlq(&["man"], "");
    assert_eq!(output.status.code(), Some(0));
    let page = stdout(&output);
    assert!(page.contains(".TH cqlq 1") && page.contains("search"), "{page}");
    let output = cqlq(&["man", "search"], "");
    let page = stdout(&output);
    assert!(page.contains(".TH cqlq-search 1") && page.contains("matchcount") && page.contains("quiet"), "{page}");
    let output = cqlq(&["man", "nothing"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no manual page 'nothing': there are search, filter"), "{}", stderr(&output));
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = cqlq(&["completions", shell], "");
        assert_eq!(output.status.code(), Some(0), "{shell}");
        assert!(stdout(&output).contains("matchcount"), "{shell}");
    }
}

/// Every example query finds something in the bundled samples: games for the games of
/// `samples/games`, positions for the other variants.
#[test]
fn every_example_query_finds_something_in_the_samples() {
    let games: Vec<String> = sample_files("samples/games");
    let positions: Vec<String> = sample_files("samples/positions");
    for entry in std::fs::read_dir("queries").unwrap() {
        let query = entry.unwrap().path().display().to_string();
        let found_in = |command: &str, files: &[String]| {
            files.iter().any(|file| {
                let output = cqlq(&[command, "--count", &query, file], "");
                output.status.code() == Some(0)
            })
        };
        assert!(found_in("search", &games) || found_in("filter", &positions), "{query} finds nothing in samples/");
    }
}

fn sample_files(folder: &str) -> Vec<String> {
    let mut files: Vec<String> =
        std::fs::read_dir(folder).unwrap().map(|entry| entry.unwrap().path().display().to_string()).collect();
    files.sort();
    files
}

#[test]
fn filter_writes_files_stops_at_a_limit_and_lists_bad_lines() {
    let dir = common::temp_dir("filter-options");
    let out = dir.join("out.epd");
    let errors = dir.join("errors.jsonl");
    let mut lines = String::new();
    for index in 0..40 {
        lines.push_str(if index % 4 == 0 { "no position here\n" } else { "6k1/7Q/8/8/8/8/8/6K1 b - - 0 1\n" });
    }
    let (out_path, errors_path) = (out.to_str().unwrap(), errors.to_str().unwrap());
    let output = cqlq(&["filter", "-j", "2", "-c", "Qh7", "-o", out_path, "--errors", errors_path, "-"], &lines);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 30);
    let listed = std::fs::read_to_string(&errors).unwrap();
    assert_eq!(listed.lines().count(), 10);
    assert!(listed.starts_with("{\"input\":\"<stdin>\",\"line\":1,\"error\":\"not a Standard position"), "{listed}");
    let shown = stderr(&output);
    assert_eq!(shown.matches("cqlq: <stdin>:").count(), 5, "{shown}");
    assert!(shown.contains("10 lines are no positions (5 more not shown; all are listed in"), "{shown}");
    let output = cqlq(&["filter", "-q", "--limit", "3", "-c", "Qh7", "-"], &lines);
    assert_eq!(stdout(&output).lines().count(), 3);
    let output = cqlq(&["filter", "-q", "--limit", "0", "-c", "Qh7", "-"], &lines);
    assert_eq!(output.status.code(), Some(2));
    let output = cqlq(&["filter", "-q", "--count", "-c", "Qh7", "-o", out_path, "-"], &lines);
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(stdout(&output), "");
    assert!(written.starts_with("30 positions matched of "), "{written}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn filter_refuses_games_and_binary_data() {
    let output = cqlq(&["filter", "-c", "K", "samples/games/classics.pgn", "samples/positions/classical.epd"], "");
    assert_eq!(output.status.code(), Some(2), "an input could not be read");
    let errors = stderr(&output);
    assert!(errors.contains("classics.pgn: this is PGN, games rather than lines of positions: use `cqlq search`"));
    assert_eq!(errors.lines().count(), 2, "one line for the games, then the summary: {errors}");
    assert!(!stdout(&output).is_empty(), "the positions after it are filtered");
    let output = common::run_cqlq(&["filter", "-c", "K", "-"], b"\x00\x01binary\x00");
    assert!(stderr(&output).contains("binary data"), "{}", stderr(&output));
}

#[test]
fn filter_writes_the_same_bytes_on_any_thread_count() {
    // Enough lines that every thread gets some, of several variants, some no position.
    let mut lines = Vec::new();
    for file in sample_files("samples/positions") {
        lines.extend(std::fs::read_to_string(file).unwrap().lines().map(str::to_owned));
    }
    let text: String = (0..300).map(|round| format!("{}\n", lines[round * 7 % lines.len()])).collect();
    let one = cqlq(&["filter", "-q", "-j", "1", "-c", "Q or k", "-"], &text);
    let two = cqlq(&["filter", "-q", "-j", "2", "-c", "Q or k", "-"], &text);
    assert!(!one.stdout.is_empty(), "{}", stderr(&one));
    assert_eq!((one.stdout, one.status.code()), (two.stdout, two.status.code()));
    assert_eq!(one.stderr, two.stderr, "the same lines are reported, in the same order");
}

#[test]
fn filter_cuts_a_line_too_long_for_a_position_and_goes_on() {
    let mut text = "6k1/7Q/8/8/8/8/8/6K1 b - - 0 1\n".to_owned();
    text.push_str(&"x".repeat(5 << 20));
    text.push_str("\n6k1/7Q/8/8/8/8/8/6K2 b - - 0 1\n6k1/7Q/8/8/8/8/8/6K1 b - - 0 1\n");
    let output = cqlq(&["filter", "-c", "Qh7", "-"], &text);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output).lines().count(), 2, "the lines on both sides of it are read");
    let errors = stderr(&output);
    assert!(errors.contains("<stdin>:2: a line longer than 64 KiB: no position"), "{errors}");
    assert!(errors.contains("<stdin>:3: "), "line numbers go on after it: {errors}");
    assert!(errors.len() < 2000, "the long line is not echoed: {} bytes", errors.len());
}

#[test]
#[cfg(target_os = "linux")]
fn filter_names_an_output_it_cannot_write() {
    let output = cqlq(&["filter", "-c", "K", "-o", "/dev/full", "samples/positions/classical.epd"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cannot write /dev/full: no space left on the device"), "{}", stderr(&output));
}

#[test]
fn positions_lists_every_position_of_every_game() {
    let output = cqlq(&["positions", "samples/games/xdecor-table.txt"], "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(text.lines().next(), Some("1\t0\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    let pgn = stdout(&cqlq(&["positions", "samples/games/classics.pgn"], ""));
    assert_eq!(text, pgn, "the table gives the positions of the games it was made from");
    assert!(stderr(&output).contains(&format!("{} positions from 4 games read", pgn.lines().count())));
    let second = stdout(&cqlq(&["positions", "-g", "2", "samples/games/classics.pgn"], ""));
    assert!(!second.is_empty() && second.lines().all(|line| line.starts_with("2\t")), "{second}");
    let first = stdout(&cqlq(&["positions", "--limit", "1", "-j", "2", "samples/games/classics.pgn"], ""));
    assert!(!first.is_empty() && first.lines().all(|line| line.starts_with("1\t")), "{first}");
    let epd = stdout(&cqlq(&["positions", "--format", "epd", "samples/games/classics.pgn"], ""));
    assert_eq!(epd.lines().count(), pgn.lines().count());
    let output = cqlq(&["filter", "--count", "-c", "true", "-"], &epd);
    let matched = stdout(&output).split_whitespace().next().map(str::to_owned);
    assert_eq!(matched, Some(pgn.lines().count().to_string()), "{}", stderr(&output));
    let jsonl = stdout(&cqlq(&["positions", "--format", "jsonl", "samples/games/classics.pgn"], ""));
    let object: serde_json::Value = serde_json::from_str(jsonl.lines().nth(1).unwrap()).unwrap();
    assert_eq!((object["game"].as_u64(), object["ply"].as_u64()), (Some(1), Some(1)));
}

#[test]
fn positions_and_convert_end_quietly_when_their_reader_closes_the_pipe() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let dir = common::temp_dir("closed-pipe");
    // More than a pipe and the output's buffer hold: cqlq is still writing when the pipe closes.
    let many = dir.join("many.pgn");
    std::fs::write(&many, std::fs::read("samples/games/classics.pgn").unwrap().repeat(1000)).unwrap();
    let runs: [&[&str]; 7] = [
        &["positions"],
        &["positions", "--format", "jsonl"],
        &["positions", "--format", "epd"],
        &["convert", "--to", "pgn"],
        &["convert", "--to", "xdecor"],
        &["convert", "--to", "xdecor-letters"],
        &["convert", "--to", "xdecor-raw"],
    ];
    for args in runs {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cqlq"))
            .args(args)
            .arg("-q")
            .arg(&many)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // `| head -c 100`
        let mut start = [0u8; 100];
        child.stdout.take().unwrap().read_exact(&mut start).unwrap();
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}: {}", stderr(&output));
        assert_eq!(stderr(&output), "", "{args:?}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn convert_writes_pgn_and_x_decor_and_reads_them_back() {
    let pgn = cqlq(&["convert", "--to", "pgn", "samples/games/xdecor-moves-raw.txt"], "");
    assert_eq!(pgn.status.code(), Some(0), "{}", stderr(&pgn));
    let pgn = stdout(&pgn);
    assert_eq!(pgn.matches("[Event \"?\"]").count(), 24);
    assert!(pgn.contains(
        "[Annotator \"cqlq, from the X-Decor moves_raw record of samples/games/xdecor-moves-raw.txt at line 1\"]"
    ));
    assert!(!pgn.contains("[Variant"));
    for (to, notation) in [("xdecor", "xdecor"), ("xdecor-letters", "xdecor"), ("xdecor-raw", "xdecor-raw")] {
        let converted = stdout(&cqlq(&["convert", "--to", to, "samples/games/classics.pgn"], ""));
        let back = stdout(&cqlq(&["convert", "--to", "pgn", "--notation", notation, "-"], &converted));
        let again = stdout(&cqlq(&["positions", "-"], &back));
        let original = stdout(&cqlq(&["positions", "samples/games/classics.pgn"], ""));
        assert_eq!(again, original, "{to}");
    }
    // A Chess960 game has no X-Decor form: it is reported and left out.
    let output = cqlq(&["convert", "--to", "xdecor", "-g", "1", "samples/games/random-chess960.pgn"], "");
    assert!(stdout(&output).is_empty());
    assert!(stderr(&output).contains("game 1: not converted: X-Decor games start from the standard position"));
    // A game with a bad move is converted up to it, and the summary says so.
    let output = cqlq(&["convert", "--to", "pgn", "--notation", "xdecor", "-"], "1. e2-e4 e7-e5\n2. e4-e5\n");
    assert!(
        stdout(&output).contains("1. e4 e5 {the record goes on with 'e4-e5', which cqlq could"),
        "{}",
        stdout(&output)
    );
    let summary = stderr(&output);
    assert!(summary.contains("1 game converted from 1 game read, 1 with errors"), "{summary}");
    assert!(summary.contains("1 game with errors; each was converted up to its error, which a comment tells"));
    // Every game not converted is counted and listed, the first on standard error.
    let dir = common::temp_dir("not-converted");
    let errors = dir.join("errors.jsonl");
    let args = ["convert", "--to", "short", "--to-edition", "2020", "samples/games/crochess-current.pgn"];
    let output = cqlq(&[&args[..], &["--errors", errors.to_str().unwrap()]].concat(), "");
    let summary = stderr(&output);
    assert!(summary.contains("4 games converted from 11 games read, 7 not converted, 0 with errors"), "{summary}");
    assert!(summary.contains("game 7: not converted: Hemera's Dawn has no Grenadier"), "{summary}");
    assert!(summary.contains("and 2 more games not converted; all are listed in"), "{summary}");
    let listed = std::fs::read_to_string(&errors).unwrap();
    assert_eq!(listed.lines().filter(|line| line.contains("\"severity\":\"not converted\"")).count(), 7, "{listed}");
}

#[test]
fn x_decor_files_are_searched_and_their_games_written_as_pgn() {
    let output = cqlq(&["search", "-c", "Bc4", "samples/games/xdecor-tolerant.txt"], "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let found = stdout(&output);
    assert!(found.contains("3. Bc4 {CQL}"), "{found}");
    // A table in letters only is told apart by --notation.
    let letters = "1. e2-e4 e7-e5\n2. Bf1-c4 Ng8-f6\n";
    let output = cqlq(&["search", "--count", "--notation", "xdecor", "-c", "Bc4", "-"], letters);
    assert_eq!(stdout(&output).trim(), "1 game matched (2 positions) of 1 game read, 0 with errors");
    let output = cqlq(&["search", "--count", "--notation", "nothing", "-c", "Bc4", "-"], letters);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("[possible values: pgn, xdecor-raw, xdecor, laser]"), "{}", stderr(&output));
    // JSON lines carry the result the record ends with.
    let jsonl =
        stdout(&cqlq(&["search", "--format", "jsonl", "-c", "Ra-h7", "samples/games/xdecor-moves-raw.txt"], ""));
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!((first["game"].as_u64(), first["result"].as_str()), (Some(2), Some("1-0")), "{jsonl}");
    let output = cqlq(&["filter", "-c", "K", "samples/games/xdecor-table.txt"], "");
    assert!(stderr(&output).contains("this is a file of games (X-Decor move table)"), "{}", stderr(&output));
}

#[test]
fn laser_move_lists_are_written_as_pgn_that_reads_back() {
    let list = "samples/games/laser-moves.txt";
    let query = "move previous rotate or hit";
    let output = cqlq(&["search", "--variant", "Laser Chess", "-c", query, list], "");
    let pgn = stdout(&output);
    assert!(pgn.starts_with("[Event \"?\"]\n"), "{pgn}");
    assert!(pgn.contains("[Variant \"Laser Chess\"]\n[Annotator \"cqlq, from the Laser Chess move list of "), "{pgn}");
    assert!(pgn.contains("2. d6e6 e5+ {CQL} 3. e6f7"), "{pgn}");
    // The third game has no result: PGN ends its movetext with `*`.
    assert!(pgn.contains(" a5b4 *\n\n"), "{pgn}");
    // Read back as PGN, the games match at the same plies.
    let plies = |output: &Output| -> Vec<String> {
        stdout(output)
            .lines()
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["plies"].to_string())
            .collect()
    };
    let from_list = cqlq(&["search", "--variant", "Laser Chess", "--format", "jsonl", "-c", query, list], "");
    let from_pgn = cqlq(&["search", "--variant", "Laser Chess", "--format", "jsonl", "-c", query, "-"], &pgn);
    assert_eq!(plies(&from_pgn), plies(&from_list));
    assert_eq!(plies(&from_list).len(), 3, "{}", stderr(&from_list));
    assert!(stderr(&from_pgn).contains("3 games matched") && stderr(&from_pgn).contains("0 with errors"));
    // `convert --to pgn` writes them too, unmarked.
    let output = cqlq(&["convert", "--to", "pgn", "--variant", "Laser Chess", list], "");
    let converted = stdout(&output);
    assert_eq!(converted.matches("[Variant \"Laser Chess\"]").count(), 3, "{}", stderr(&output));
    assert!(!converted.contains("{CQL}"));
}

#[test]
fn laser_move_lists_are_written_in_cql_style_with_their_variant() {
    let dir = std::env::temp_dir().join(format!("cqlq-laser-cql-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let query = dir.join("hit.cql");
    std::fs::write(&query, "cql(variant \"Laser Chess\")\nhit\n").unwrap();
    let out = dir.join("out.pgn");
    let args = ["cql", "-i", "samples/games/laser-moves.txt", query.to_str().unwrap(), "-o", out.to_str().unwrap()];
    let output = cqlq(&args, "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(
        written
            .contains("[Result \"0-1\"]\n[Variant \"Laser Chess\"]\n[Annotator \"cqlq, from the Laser Chess move list"),
        "{written}"
    );
    assert!(written.contains("5.f7g6xg6 {CQL} 5...f5- 6.j1-xe1\n{CQL} 0-1"), "{written}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Game numbers past the last game, and a header's variant read into games that name none, are
/// said once the search is over; counts of one are in the singular.
#[test]
fn the_closing_notes_say_what_the_run_did_not_expect() {
    let output = cqlq(&["search", "--count", "-g", "500", "-c", "Ke1", "samples/games/classics.pgn"], "");
    assert_eq!(stdout(&output), "0 games matched (0 positions) of 4 games read, 0 with errors\n");
    assert!(stderr(&output).contains("-g 500: there is no game 500, the input holds 4 games"), "{}", stderr(&output));
    let output = cqlq(&["search", "-g", "3-9", "-c", "Ke1", "samples/games/classics.pgn"], "");
    let notes = stderr(&output);
    assert!(notes.contains("-g 3-9: the input holds 4 games, so the range ends past its last game"), "{notes}");
    assert!(notes.contains("cqlq: 2 games matched (58 positions) of 4 games read"), "{notes}");
    let output = cqlq(&["positions", "-g", "4-5", "samples/games/classics.pgn"], "");
    assert!(stderr(&output).contains("-g 4-5: the input holds 4 games"), "{}", stderr(&output));
    let output =
        cqlq(&["search", "--count", "-c", "cql(variant \"Crazyhouse\") N[+]", "samples/games/classics.pgn"], "");
    let notes = stderr(&output);
    assert!(
        notes.contains("4 games name no variant: read as Crazyhouse games, the variant the query's header names"),
        "{notes}"
    );
    let output = cqlq(&["search", "--count", "-c", "mate", "samples/games/short-games.pgn"], "");
    assert_eq!(stdout(&output), "1 game matched (1 position) of 2 games read, 0 with errors\n");
}

/// A query that does not compile for the variant of some games says why once, with the query's
/// place, and does not say that their positions were searched.
#[test]
fn games_of_a_variant_the_query_does_not_fit_are_said_once() {
    let files = ["samples/games/laser-captures.pgn", "samples/games/classics.pgn"];
    let output = cqlq(&["search", "-c", "check", files[0], files[1]], "");
    let notes = stderr(&output);
    assert_eq!(notes.matches("does not compile for Laser Chess").count(), 1, "{notes}");
    assert!(notes.contains("so its 5 games were not searched:\nerror: 'check' needs check"), "{notes}");
    assert!(!notes.contains("the positions before each error were searched"), "{notes}");
    assert_eq!(output.status.code(), Some(0));
    let output = cqlq(&["search", "-c", "check", files[0]], "");
    assert_eq!(output.status.code(), Some(2), "no game could be searched");
}

/// A query is compiled for each variant as its games come: a 10x8 query over Laser Chess games
/// needs no --variant, and over a mixed input the variants it does not fit are said once, the
/// rest searched.
#[test]
fn a_query_is_compiled_for_each_variant_its_games_are_of() {
    let laser = "samples/games/laser-setups.pgn";
    let without = cqlq(&["search", "-c", "B[j1-8]", "--count", laser], "");
    let with = cqlq(&["search", "-c", "B[j1-8]", "--count", "--variant", "Laser Chess", laser], "");
    assert_eq!(stdout(&without), stdout(&with), "{}", stderr(&without));
    assert_eq!(stdout(&without), "5 games matched (101 positions) of 5 games read, 0 with errors\n");
    // Standard, Laser Chess, Atomic and Chess960 games in one file.
    let dir = common::temp_dir("mixed-variants");
    let files = [laser, "samples/games/classics.pgn", "samples/games/atomic.pgn", "samples/games/random-chess960.pgn"];
    let text: String = files.iter().map(|file| std::fs::read_to_string(file).unwrap() + "\n").collect();
    let path = dir.join("mixed.pgn");
    std::fs::write(&path, text).unwrap();
    let mixed = cqlq(&["search", "-c", "B[j1-8]", "--count", path.to_str().unwrap()], "");
    let notes = stderr(&mixed);
    for (variant, games) in [("Standard", 4), ("Atomic", 6), ("Chess960", 30)] {
        let said = format!("the query does not compile for {variant}, so its {games} games were not searched");
        assert_eq!(notes.matches(&said).count(), 1, "{notes}");
    }
    assert_eq!(
        stdout(&mixed),
        "5 games matched (101 positions) of 45 games read, 0 with errors, 40 not searched (the query does not fit \
         their variant)\n"
    );
    assert_eq!(mixed.status.code(), Some(0));
    // A variant asked for must fit.
    let asked = cqlq(&["search", "-c", "B[j1-8]", "--variant", "Standard", laser], "");
    assert!(stderr(&asked).starts_with("error: file j is outside the 8x8 board of Standard"), "{}", stderr(&asked));
    assert_eq!(asked.status.code(), Some(2));
}

/// A file of games given where the query goes (the arguments swapped) is said in one line, not
/// as a mistake for every line of it.
#[test]
fn games_given_as_the_query_are_said_in_one_line() {
    let output = cqlq(&["search", "samples/games/classics.pgn", "queries/rook-on-the-seventh.cql"], "");
    let notes = stderr(&output);
    assert_eq!(notes.lines().count(), 1, "{notes}");
    assert!(notes.contains("samples/games/classics.pgn looks like a file of games, not a query"), "{notes}");
    assert_eq!(output.status.code(), Some(2));
    let output = cqlq(&["search", "samples/games/xdecor-table.txt", "queries/rook-on-the-seventh.cql"], "");
    assert_eq!(stderr(&output).lines().count(), 1, "{}", stderr(&output));
    let output = cqlq(&["filter", "-c", "[Event \"Paris\"]\n1. e4 e5", "samples/positions/classical.epd"], "");
    assert!(stderr(&output).contains("the text of -c looks like a file of games"), "{}", stderr(&output));
}

/// `explain --position` reads the variant of the line where nothing names it, as `filter` does.
#[test]
fn explain_reads_the_variant_of_a_position_line() {
    let lines = [
        ("Ct Ra1&,Kf1&,Gh6,Pe4,ke10", "Croatian Ties"),
        ("l++3d++kd++b+++2/2b7/3B+6/b++1B1ss+1b+++1B+/b+++1B+1S+S1b++1B/6b+++3/7B++2/2B+DKD3L", "Laser Chess"),
    ];
    for (line, variant) in lines {
        let output = cqlq(&["explain", "-c", "true", "--position", line], "");
        let shown = stdout(&output);
        assert!(shown.starts_with(&format!("variant: {variant} (")), "{line}: {shown}{}", stderr(&output));
        assert!(shown.contains("matches: yes"), "{shown}");
    }
}

/// With `--variations`, each JSON line says which variation each matched position lies in, so
/// that a ply of the main line and the same ply of a variation are told apart.
#[test]
fn json_lines_say_the_variation_of_each_matched_position() {
    let game = "[Event \"variations\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 (3... g6 4. Qf3 (4. Qxe5+ Qe7 (4... Be7 5. Qxh8) \
        5. Qxh8) 4... Nf6) 4. Qxf7# (4. Qxe5+ Be7 (4... Qe7 5. Qxe7+ Bxe7) 5. Qxe7#) 1-0\n";
    let output = cqlq(&["search", "--variations", "--format", "jsonl", "-c", "check", "-"], game);
    let object: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(object["plies"], serde_json::json!([7, 7, 7, 9, 9]));
    // 4. Qxe5+ in the variation of 4. Qf3 inside that of 3... Nf6; 4. Qxf7# on the main line;
    // 4. Qxe5+ in place of it; 5. Qxe7+ in place of 4... Be7 there; 5. Qxe7#.
    let variations = serde_json::json!([[[6, 1], [7, 1]], [], [[7, 1]], [[7, 1], [8, 1]], [[7, 1]]]);
    assert_eq!(object["variations"], variations);
    let output = cqlq(&["search", "--format", "jsonl", "-c", "check", "-"], game);
    let object: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert!(object.get("variations").is_none(), "the main line alone: {object}");
}

/// The manual pages carry the query language (the README's tour), the exit status, examples,
/// the environment and the files a command writes.
#[test]
fn manual_pages_hold_the_language_exit_status_and_examples() {
    let page = stdout(&cqlq(&["man"], ""));
    for section in ["QUERY LANGUAGE", "EXIT STATUS", "EXAMPLES", "ENVIRONMENT", "FILES", "SEE ALSO"] {
        assert!(page.contains(&format!(".SH \"{section}\"")) || page.contains(&format!(".SH {section}")), "{section}");
    }
    assert!(
        page.contains("A query is a list of filters; a position matches when all of them do."),
        "the README's tour"
    );
    let search = stdout(&cqlq(&["man", "search"], ""));
    assert!(search.contains(".SH \"EXIT STATUS\"") && search.contains("Nothing matched."), "{search}");
    let language = stdout(&cqlq(&["man", "language"], ""));
    assert!(language.starts_with(".TH cqlq\\-language 7"), "{language}");
    assert!(language.contains("\\fBflip F\\fR"), "{language}");
    let cql = stdout(&cqlq(&["man", "cql"], ""));
    assert!(cql.contains(".SH \"CQL OPTIONS\"") && cql.contains("QUERY\\-out.pgn"), "{cql}");
    let output = cqlq(&["man", "nothing"], "");
    assert!(stderr(&output).contains("there are search, filter"), "{}", stderr(&output));
}
