//! X-Decor games end to end: the examples of the seed and of the spec read as stated (or fail
//! where they must), games convert to the move table, the tolerant table and `moves_raw` and
//! back to the same positions, and `cqlq positions` gives shakmaty's FEN after every ply.
//!
//! The tests on `gnuchess-book` need `../shared/data`; run them with
//! `cargo test --release -- --ignored`.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::ops::ControlFlow;
use std::path::PathBuf;

use cqlq::notation::Container;
use cqlq::rules::classical::xdecor::{RAW_FORMAT, TABLE_FORMAT};
use cqlq::search::{
    Converter, Found, Input, LineOutcome, PositionFilter, PositionsFormat, Problem, Render, Search, SearchOptions,
    Sink, Summary, Target,
};
use cqlq::{Query, Variant};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _, fen::Fen};

/// What a run over some games gave: each game's position lines, and its problems as
/// `game:ply:token:message`.
#[derive(Default)]
struct Collected {
    positions: Vec<(u64, Vec<u8>)>,
    problems: Vec<String>,
    converter: Option<Converter>,
    converted: Vec<u8>,
}

impl Sink for Collected {
    fn renderer(&self) -> Option<std::sync::Arc<dyn Render>> {
        self.converter.map(|converter| std::sync::Arc::new(converter) as std::sync::Arc<dyn Render>)
    }

    fn found(&mut self, game: &Found<'_>) -> std::io::Result<()> {
        self.positions.push((game.number, game.positions.to_vec()));
        if let Some(rendered) = game.rendered {
            assert!(Converter::not_converted(rendered).is_none(), "game {} not converted", game.number);
            self.converted.extend_from_slice(rendered);
        }
        Ok(())
    }

    fn problem(&mut self, problem: &Problem<'_>) -> std::io::Result<()> {
        self.problems.push(format!("{}:{}:{}:{}", problem.game, problem.ply, problem.token, problem.message));
        Ok(())
    }
}

/// Runs every position of the games of `text` through the pipeline, as `cqlq positions` does.
fn run(text: &[u8], container: Option<Container>, target: Option<Target>) -> Collected {
    let options = SearchOptions { positions: Some(PositionsFormat::Tsv), threads: 2, ..SearchOptions::default() };
    let search = Search::new(Query::parse("true").unwrap(), options).unwrap();
    let converter = target.map(|target| Converter {
        target,
        default_variant: Variant::standard(),
        edition: None,
        to_edition: None,
    });
    let mut collected = Collected { converter, ..Collected::default() };
    let mut input = Input::from_bytes("test", text.to_vec()).with_container(container);
    let _ = search.run(&mut input, &mut collected, &mut Summary::default()).unwrap();
    collected
}

/// The FENs of each game, in order.
fn fens(collected: &Collected) -> Vec<Vec<String>> {
    collected
        .positions
        .iter()
        .map(|(_, lines)| {
            String::from_utf8_lossy(lines).lines().map(|line| line.splitn(3, '\t').nth(2).unwrap().to_owned()).collect()
        })
        .collect()
}

/// The FENs after every ply of a game in SAN.
fn fens_of_san(movetext: &str) -> Vec<Vec<String>> {
    fens(&run(movetext.as_bytes(), None, None))
}

#[test]
fn the_example_of_the_spec_reads_as_the_game_it_is() {
    let table = "1.   e2–e4     e7–e5\n2.  ♘g1–f3    ♞b8–c6\n3.  ♗f1–c4    ♝f8–c5\n4.   0–0      ♞g8–f6\n\
                 5.  ♖f1–e1     0–0\n";
    let read = run(table.as_bytes(), None, None);
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    assert_eq!(fens(&read), fens_of_san("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Re1 O-O *"));
}

#[test]
fn the_other_exact_forms_of_the_spec_read() {
    // `e5×d6 e.p.`, `♕d1×d8`, `g7×h8♕` (with a capture), a quiet promotion written with `×`,
    // `0–0–0`, and each result row.
    let table = "1. e2–e4 ♞g8–f6\n2. e4–e5 d7–d5\n3. e5×d6 e.p. ♛d8×d6\n4. ♕d1–g4 ♝c8×g4\n5. d2–d4 ♞b8–c6\n\
                 6. ♗c1–e3 ♛d6–d7\n7. ♘b1–c3 0–0–0\n½–½\n\n\
                 1. h2–h4 g7–g5\n2. h4×g5 ♞g8–f6\n3. g5–g6 ♞f6–g8\n4. g6–g7 ♞b8–c6\n5. g7×h8♕ a7–a5\n6. ♕h8×g8 a5–a4\n\
                 7. b2–b4 a4×b3 e.p.\n8. a2–a4 b3–b2\n9. a4–a5 b2×a1♛\n1–0\n\n\
                 1. b2–b4 a7–a5\n2. b4×a5 ♜a8–a6\n3. ♘b1–c3 ♜a6–b6\n4. a5–a6 ♜b6–h6\n5. a6–a7 e7–e6\n\
                 6. a7×a8♕ e6–e5\n0–1\n";
    let read = run(table.as_bytes(), None, None);
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    let san = "1. e4 Nf6 2. e5 d5 3. exd6 Qxd6 4. Qg4 Bxg4 5. d4 Nc6 6. Be3 Qd7 7. Nc3 O-O-O 1/2-1/2\n\n\
               1. h4 g5 2. hxg5 Nf6 3. g6 Ng8 4. g7 Nc6 5. gxh8=Q a5 6. Qxg8 a4 7. b4 axb3 8. a4 b2 9. a5 bxa1=Q 1-0\n\n\
               1. b4 a5 2. bxa5 Ra6 3. Nc3 Rb6 4. a6 Rh6 5. a7 e6 6. a8=Q e5 0-1\n";
    assert_eq!(fens(&read), fens_of_san(san));
    // The same games as `moves_raw` records and in letters read the same.
    for target in [Target::XDecorRaw, Target::XDecorLetters, Target::XDecor] {
        let converted = run(table.as_bytes(), None, Some(target)).converted;
        let container = match target {
            Target::XDecorRaw => Container::Native(&RAW_FORMAT),
            _ => Container::Native(&TABLE_FORMAT),
        };
        let again = run(&converted, Some(container), None);
        assert!(again.problems.is_empty(), "{target:?}: {:?}", again.problems);
        assert_eq!(fens(&again), fens(&read), "{target:?}:\n{}", String::from_utf8_lossy(&converted));
    }
}

#[test]
fn the_example_record_of_the_spec_reads() {
    let record = "realchess:pawn_white_1,,53,37,;realchess:pawn_black_1,,13,29,;realchess:knight_white_1,,63,46,\n";
    let read = run(record.as_bytes(), None, None);
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    assert_eq!(fens(&read), fens_of_san("1. e4 e5 2. Nf3 *"));
}

#[test]
fn the_readme_example_fails_where_moves_are_left_out() {
    // The seed's example, with its mixed dashes and TAB: moves 4 to 7 are left out.
    let readme = "    1.  d2—d4    e7—e6\n    2. ♔e1–d2   ♛d8–h4\n    3.  d4–d5    e6×d5\n    ...\n    \
                  8. d8×d8♖   ♞b8-c6\n    9. e2–e4\t d4×e3 e.p.\n";
    let read = run(readme.as_bytes(), None, None);
    assert_eq!(read.problems, ["1:7:...:not a move: moves are left out here (after move 3)"]);
    // The positions before the gap are searched: the six moves read.
    assert_eq!(fens(&read), fens_of_san("1. d4 e6 2. Kd2 Qh4 3. d5 exd5 *"));
    // Without the ellipsis the jump of the move numbers says so; with move 4 written as
    // move 8, the typo `d8×d8♖` (d7 was meant) is an illegal move at ply 7.
    let jumped = readme.replace("    ...\n", "");
    let read = run(jumped.as_bytes(), None, None);
    assert_eq!(read.problems, ["1:7:8.:not a move: move 8 where move 4 is due: moves are left out or repeated"]);
    let typo = jumped.replace("8. d8", "4. d8");
    let read = run(typo.as_bytes(), None, None);
    assert_eq!(read.problems, ["1:7:d8×d8♖:illegal move: d8 is empty"]);
}

#[test]
fn bad_moves_are_reported_at_their_ply_and_the_next_game_is_read() {
    let table = "1. e2–e4 e7–e5\n2. ♗g1–f3\n\n\
                 1. e2–e4 d7–d5\n2. e4–d5\n\n\
                 1. ♘b1–c3 e7–e5\n2. ♘c3×d5\n\n\
                 1. e3–e4\n\n\
                 1. d2–d4 d7–d5\n1–0\n";
    let read = run(table.as_bytes(), None, None);
    assert_eq!(
        read.problems,
        [
            "1:3:♗g1–f3:illegal move: the figurine names a bishop, but a knight stands on g1",
            "2:3:e4–d5:illegal move: a capture written with a dash: the move takes the pawn on d5",
            "3:3:♘c3×d5:illegal move: '×' onto d5, where there is nothing to take",
            "4:1:e3–e4:illegal move: e3 is empty",
        ]
    );
    let plies: Vec<usize> = fens(&read).iter().map(Vec::len).collect();
    assert_eq!(plies, [3, 3, 3, 1, 3]);
    let raw = "realchess:pawn_white_5,,53,37,;realchess:pawn_black_5,,13,29,;realchess:knight_white_2,,62,46,\n\
               realchess:pawn_white_5,,53,37,;realchess:pawn_black_5,realchess:pawn_white_1,13,29,\n\
               realchess:pawn_white_5,,53,37,;,,,,whiteWon\n";
    let read = run(raw.as_bytes(), None, None);
    assert_eq!(
        read.problems,
        [
            "1:3:realchess:knight_white_2,,62,46,:illegal move: the record moves a White knight, but a White bishop \
         stands on f1",
            "2:2:realchess:pawn_black_5,realchess:pawn_white_1,13,29,:illegal move: the record takes a White pawn on \
         e5, where nothing stands",
        ]
    );
    assert_eq!(fens(&read).iter().map(Vec::len).collect::<Vec<_>>(), [3, 2, 2]);
}

#[test]
fn pgn_games_of_the_variant_have_their_movetext_in_table_form() {
    for name in ["X-Decor", "xdecor", "X-Decor-libre", "realchess"] {
        let pgn = format!(
            "[Event \"a\"]\n[Variant \"{name}\"]\n\n1. e2–e4 e7–e5 2. ♘g1–f3 ♞b8–c6\n1–0\n\n\
             [Event \"b\"]\n\n1. d4 d5 *\n"
        );
        let read = run(pgn.as_bytes(), None, None);
        assert!(read.problems.is_empty(), "{name}: {:?}", read.problems);
        assert_eq!(fens(&read), fens_of_san("1. e4 e5 2. Nf3 Nc6 1-0\n\n1. d4 d5 *"), "{name}");
    }
}

#[test]
fn the_samples_are_the_classical_games_they_were_converted_from() {
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/games");
    let read = |name: &str| std::fs::read(samples.join(name)).unwrap();
    let classics = fens(&run(&read("classics.pgn"), None, None));
    let table = run(&read("xdecor-table.txt"), None, None);
    assert!(table.problems.is_empty(), "{:?}", table.problems);
    assert_eq!(fens(&table), classics);
    let tolerant = fens(&run(&read("xdecor-tolerant.txt"), None, None));
    assert_eq!(tolerant[..2], [classics[0].clone(), classics[2].clone()]);
    let random = fens(&run(&read("random-standard.pgn"), None, None));
    assert_eq!(tolerant[2][..], random[22][..tolerant[2].len()]);
    let raw = fens(&run(&read("xdecor-moves-raw.txt"), None, None));
    let expected: Vec<Vec<String>> = classics.iter().chain(&random).take(24).cloned().collect();
    assert_eq!(raw, expected);
}

/// The FENs shakmaty gives after every ply of every game of a PGN text.
struct Shakmaty {
    games: Vec<Vec<String>>,
}

impl Visitor for Shakmaty {
    type Tags = Option<Chess>;
    type Movetext = (Chess, Vec<String>);
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            let fen: Fen = value.decode_utf8_lossy().parse().unwrap();
            *tags = Some(fen.into_position(CastlingMode::Standard).unwrap());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let position = tags.unwrap_or_default();
        let fen = Fen::from_position(&position, EnPassantMode::Legal).to_string();
        ControlFlow::Continue((position, vec![fen]))
    }

    fn san(&mut self, movetext: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let (position, fens) = movetext;
        match san_plus.san.to_move(position) {
            Ok(m) => {
                position.play_unchecked(m);
                fens.push(Fen::from_position(position, EnPassantMode::Legal).to_string());
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(()),
        }
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        self.games.push(movetext.1);
    }
}

fn shakmaty_fens(text: &[u8]) -> Vec<Vec<String>> {
    let mut visitor = Shakmaty { games: Vec::new() };
    let mut reader = Reader::new(text);
    while reader.read_game(&mut visitor).unwrap().is_some() {}
    visitor.games
}

#[test]
fn positions_are_shakmatys_fens_after_every_ply_of_the_samples() {
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/games");
    for name in ["classics.pgn", "random-standard.pgn", "short-games.pgn", "themes.pgn", "near-misses.pgn"] {
        let text = std::fs::read(samples.join(name)).unwrap();
        assert_eq!(fens(&run(&text, None, None)), shakmaty_fens(&text), "{name}");
    }
}

/// Checks that the EPD `cqlq positions` writes of `text` is its positions, one a line, each
/// with its `id`, and that the filter reads every line back; gives the number of lines.
fn check_epd_reads_back(text: &[u8]) -> usize {
    let options = SearchOptions { positions: Some(PositionsFormat::Epd), ..SearchOptions::default() };
    let search = Search::new(Query::parse("true").unwrap(), options).unwrap();
    let mut collected = Collected::default();
    let mut input = Input::from_bytes("games", text.to_vec());
    let _ = search.run(&mut input, &mut collected, &mut Summary::default()).unwrap();
    let epd: Vec<u8> = collected.positions.iter().flat_map(|(_, lines)| lines.clone()).collect();
    let epd = String::from_utf8(epd).unwrap();
    let fens: Vec<String> = fens(&run(text, None, None)).concat();
    assert_eq!(epd.lines().count(), fens.len());
    // Each EPD line is its position: the first four fields of its FEN, and the filter reads it.
    let filter = PositionFilter::new(Query::parse("true").unwrap(), None);
    for (line, fen) in epd.lines().zip(&fens) {
        let four: Vec<&str> = fen.split(' ').take(4).collect();
        assert!(line.starts_with(&four.join(" ")), "{line}");
        assert!(line.contains(" id \"game "), "{line}");
        assert!(matches!(filter.line(line), LineOutcome::Matched), "{line}");
    }
    fens.len()
}

#[test]
fn epd_lines_read_back_as_the_same_positions() {
    let text = std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/games/classics.pgn")).unwrap();
    assert!(check_epd_reads_back(&text) > 0);
}

#[test]
#[ignore = "needs ../shared/data"]
fn epd_of_gnuchess_book_reads_back_in_the_filter() {
    assert_eq!(check_epd_reads_back(&corpus()), 11_410_552);
}

fn corpus() -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pgn/gnuchess-book.pgn.zst");
    assert!(path.exists(), "{} is missing: the corpus tests need ../shared/data", path.display());
    let mut bytes = Vec::new();
    zstd::stream::read::Decoder::new(std::fs::File::open(path).unwrap()).unwrap().read_to_end(&mut bytes).unwrap();
    bytes
}

/// A digest of each game's positions.
fn digests(games: &[Vec<String>]) -> Vec<u64> {
    games
        .iter()
        .map(|fens| {
            let mut hasher = DefaultHasher::new();
            fens.hash(&mut hasher);
            hasher.finish()
        })
        .collect()
}

#[test]
#[ignore = "needs ../shared/data"]
fn positions_of_gnuchess_book_are_shakmatys_fens() {
    let text = corpus();
    let ours = fens(&run(&text, None, None));
    let theirs = shakmaty_fens(&text);
    assert_eq!(ours.len(), 145_716);
    assert_eq!(ours.len(), theirs.len());
    for (number, (ours, theirs)) in ours.iter().zip(&theirs).enumerate() {
        assert_eq!(ours, theirs, "game {}", number + 1);
    }
    eprintln!("{} positions equal", ours.iter().map(Vec::len).sum::<usize>());
}

#[test]
#[ignore = "needs ../shared/data"]
fn gnuchess_book_converted_to_every_xdecor_form_replays_to_the_same_positions() {
    let text = corpus();
    let original = run(&text, None, Some(Target::XDecor));
    let expected = digests(&fens(&original));
    assert_eq!(expected.len(), 145_716);
    for (target, container) in [
        (Target::XDecor, Container::Native(&TABLE_FORMAT)),
        (Target::XDecorLetters, Container::Native(&TABLE_FORMAT)),
        (Target::XDecorRaw, Container::Native(&RAW_FORMAT)),
    ] {
        let converted = if target == Target::XDecor {
            original.converted.clone()
        } else {
            run(&text, None, Some(target)).converted
        };
        let again = run(&converted, Some(container), None);
        assert!(again.problems.is_empty(), "{target:?}: {:?}", &again.problems[..again.problems.len().min(5)]);
        let digests = digests(&fens(&again));
        assert_eq!(digests.len(), expected.len(), "{target:?}");
        if let Some(game) = digests.iter().zip(&expected).position(|(a, b)| a != b) {
            panic!("{target:?}: game {} differs", game + 1);
        }
    }
}
