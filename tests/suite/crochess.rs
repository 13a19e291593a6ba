//! Croatian Chess end to end: random games of every variant in both editions, each move
//! written in the short and the long notation and read back to the same position; the bundled
//! records replayed; searches and position lists on them.

use cqlq::variant::Edition;
use cqlq::with_width;

use crate::common::crochess_games::{Form, croatian_variants, moves_every_piece, pgn, random_game};

/// Every variant of both editions: a random game whose moves, written short and long, give the
/// same positions when read back (the generator asserts it at every ply).
#[test]
fn short_and_long_notation_agree_on_random_games() {
    for edition in Edition::ALL {
        for variant in croatian_variants(edition) {
            let game = with_width!(variant.width(), W => random_game::<W>(variant, 7, 60));
            assert!(game.moves.len() >= 40, "{}: {} moves", variant.name, game.moves.len());
        }
    }
}

/// The same on more and longer games.
#[test]
#[ignore = "a longer run: cargo test --release -- --ignored"]
fn short_and_long_notation_agree_on_many_random_games() {
    for edition in Edition::ALL {
        for variant in croatian_variants(edition) {
            for seed in 0..20 {
                let game = with_width!(variant.width(), W => random_game::<W>(variant, seed, 200));
                assert!(game.moves.len() >= 100, "{}: {} moves", variant.name, game.moves.len());
            }
        }
    }
}

/// Writes the sample records `samples/games/crochess-2020.pgn` and `crochess-current.pgn` again
/// where `CQLQ_WRITE_SAMPLES` names the folder: for each variant of each edition, the first
/// random game of 110 plies (its seed in its `Round` tag) that moves every piece of its
/// variant.
#[test]
#[ignore = "writes the samples: CQLQ_WRITE_SAMPLES=samples/games cargo test --release -- --ignored write_samples"]
fn write_samples() {
    let Ok(folder) = std::env::var("CQLQ_WRITE_SAMPLES") else { return };
    let mut files: Vec<(String, String)> = Vec::new();
    for edition in Edition::ALL {
        let mut text = String::new();
        for variant in croatian_variants(edition) {
            let game = (0..3000)
                .map(|seed| (seed, with_width!(variant.width(), W => random_game::<W>(variant, seed, 110))))
                .find(|(_, game)| game.moves.len() >= 100 && moves_every_piece(game));
            let (seed, game) = game.unwrap_or_else(|| panic!("no game of {} moves every piece", variant.name));
            text.push_str(&pgn(&game, &format!("{} sample", variant.name), seed, Form::Mixed));
        }
        let name = match edition {
            Edition::Ed2020 => "crochess-2020.pgn",
            Edition::Current => "crochess-current.pgn",
        };
        files.push((name.to_owned(), text));
    }
    for (name, text) in files {
        std::fs::write(std::path::Path::new(&folder).join(name), text).unwrap();
    }
}

/// The sample records are what the generator makes from the seeds in their `Round` tags, and
/// each moves every piece of its variant.
#[test]
fn the_samples_are_the_generated_games() {
    for (file, edition) in [("crochess-2020.pgn", Edition::Ed2020), ("crochess-current.pgn", Edition::Current)] {
        let text = sample(file);
        let mut made = String::new();
        for record in text.split("[Event ").filter(|record| !record.is_empty()) {
            let tag = |name: &str| {
                let start = record.find(&format!("[{name} \"")).unwrap() + name.len() + 3;
                record[start..].split('"').next().unwrap().to_owned()
            };
            let seed: u64 = tag("Round").parse().unwrap();
            let variant = cqlq::Variant::by_name(&tag("Variant")).unwrap().in_edition(edition).unwrap();
            let game = with_width!(variant.width(), W => random_game::<W>(variant, seed, 110));
            assert!(moves_every_piece(&game) && game.moves.len() >= 100, "{}", variant.name);
            made.push_str(&pgn(&game, &format!("{} sample", variant.name), seed, Form::Mixed));
        }
        assert_eq!(made, text, "{file} differs from what the generator makes");
        assert!(search(&text, "true", None).problems.is_empty());
    }
}

/// Collects the position lines and problems of a search.
#[derive(Default)]
struct Collected {
    lines: String,
    problems: Vec<String>,
    matched: Vec<(u64, usize)>,
    /// What converts the games, and what it wrote: the games converted, or why not.
    converter: Option<cqlq::search::Converter>,
    converted: Vec<Result<String, String>>,
}

impl cqlq::search::Sink for Collected {
    fn renderer(&self) -> Option<std::sync::Arc<dyn cqlq::search::Render>> {
        self.converter.map(|converter| std::sync::Arc::new(converter) as std::sync::Arc<dyn cqlq::search::Render>)
    }

    fn found(&mut self, game: &cqlq::search::Found<'_>) -> std::io::Result<()> {
        self.lines.push_str(&String::from_utf8_lossy(game.positions));
        self.matched.push((game.number, game.matched.len()));
        if let Some(rendered) = game.rendered {
            self.converted.push(match cqlq::search::Converter::not_converted(rendered) {
                Some(why) => Err(why.into_owned()),
                None => Ok(String::from_utf8_lossy(rendered).into_owned()),
            });
        }
        Ok(())
    }

    fn problem(&mut self, problem: &cqlq::search::Problem<'_>) -> std::io::Result<()> {
        self.problems
            .push(format!("game {}, ply {}: {}: {}", problem.game, problem.ply, problem.token, problem.message));
        Ok(())
    }
}

/// Searches a text of games as `cqlq search` does (with position lines, as `cqlq positions`).
fn search(text: &str, query: &str, edition: Option<Edition>) -> Collected {
    use cqlq::search::{Input, PositionsFormat, Search, SearchOptions, Summary};
    let options =
        SearchOptions { positions: Some(PositionsFormat::Tsv), threads: 1, edition, ..SearchOptions::default() };
    let search = Search::new(cqlq::Query::parse(query).unwrap(), options).unwrap();
    let mut collected = Collected::default();
    let mut input = Input::from_bytes("test", text.as_bytes().to_vec());
    let _ = search.run(&mut input, &mut collected, &mut Summary::default()).unwrap();
    collected
}

/// Converts a text of games as `cqlq convert --to TARGET [--to-edition EDITION]` does.
fn convert(text: &str, target: cqlq::search::Target, to_edition: Option<Edition>) -> Vec<Result<String, String>> {
    use cqlq::search::{Converter, Input, Search, SearchOptions, Summary};
    let search = Search::new(cqlq::Query::parse("true").unwrap(), SearchOptions::default()).unwrap();
    let converter = Converter { target, default_variant: cqlq::Variant::standard(), edition: None, to_edition };
    let mut collected = Collected { converter: Some(converter), ..Collected::default() };
    let mut input = Input::from_bytes("test", text.as_bytes().to_vec());
    let _ = search.run(&mut input, &mut collected, &mut Summary::default()).unwrap();
    assert!(collected.problems.is_empty(), "{:?}", collected.problems);
    collected.converted
}

fn sample(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/games").join(name);
    std::fs::read_to_string(path).unwrap()
}

/// The positions of the effects sample, each worked out by hand from the book's rules: a
/// Pegasus's repeated jump, a rush and its en passant, a cascade of two Pyramids, a conversion,
/// castling with the Rook's file written, a delayed promotion, a teleport, a Centaur's path, a
/// Pawn-sacrifice, a trance-journey's displacements, a failed conversion, a Unicorn's long and
/// short jumps, a Monolith's knight steps, a Grenadier's and a Scout's lines.
#[test]
fn the_effects_sample_gives_the_positions_worked_out_by_hand() {
    let expected = "\
1\t0\tCt Ra1&,Ke1&,Gc2,Ph2|,pi4,ke10
1\t1\tct Ra1&,Ke1&,Ph2|,pi4,Gf8,ke10
1\t2\tCt Ra1&,Ke1&,Ph2|,pi4,Gf8,kd10
1\t3\tct Ra1&,Ke1&,pi4,Ph5:,Gf8,kd10
1\t4\tCt Ra1&,Ke1&,ph3,Gf8,kd10
1\t5\tct Ra1&,Ke1&,ph3,Gd4,kd10
1\t6\tCt Ra1&,Ke1&,ph3,Gd4,ke10
2\t0\tMa Ke1,Qk2,Af7,Ai7,ke12
2\t1\tma Ke1,Qf7,Ai7,Ai9,ke12
2\t2\tMa Ke1,Qf7,Ai7,Ai9,kd12
3\t0\tMa Ke1,Ad5,rh5,Bh9,ke12
3\t1\tma Ke1,Bd5,Rh5,ke12
3\t2\tMa Ke1,Bd5,Rh5,kd12
3\t3\tma Ke1,Bd5,kd12,Rh12
4\t0\tAoa Ra1&,Kh1&,Rn1&,kh14
4\t1\taoa Kd1,Re1,Rn1&,kh14
4\t2\tAoa Kd1,Re1,Rn1&,kg14
4\t3\taoa Kc1,Re1,Rn1&,kg14
5\t0\tAoa Ke1,Pl13,ka14
5\t1\taoa Ke1,ka14,Pl14=
5\t2\tAoa Ke1,kb14,Pl14=
5\t3\taoa Ke1,kb14,Ql14
6\t0\tN Ta1,Kj1,tr1,Bh11,ta18,kj18,Tr18
6\t1\tn Ta1,Kj1,tr1,ta18,kj18,Bq18,Tr18
6\t2\tN Ta1,Kj1,tr1,ta18,ki18,Bq18,Tr18
7\t0\tHd Kk1,Cd3,kk20
7\t1\thd Kk1,Cp15,kk20
7\t2\tHd Kk1,Cp15,kj20
8\t0\tTr Kl1,Pb2,Sc3,Ab4,pb6,kl22
8\t1\ttr Kl1,Ab2,Sb8,kl22
8\t2\tTr Kl1,Ab2,Sb8,kk22
9\t0\tCot Km1,Hf10,Wd11,Pm12,He13,Ne18,km24
9\t1\tcot Km1,Hd11,We13,Ni14,Pj17,Hg24,km24
9\t2\tCot Km1,Hd11,We13,Ni14,Pj17,Hg24,kl24
10\t0\tO Kn1,Bs16,ih23,Al23,kn26
10\t1\to Kn1,ih23,Bl23,kn26
10\t2\tO Kn1,ih23,Bl23,km26
11\t0\tAoa Ke1,Ud4,ke14
11\t1\taoa Ke1,Ue8,ke14
11\t2\tAoa Ke1,Ue8,ke13
11\t3\taoa Ke1,Uf10,ke13
12\t0\tD Km1,Mb7,km24
12\t1\td Km1,Mc9,km24
12\t2\tD Km1,Mc9,kl24
12\t3\td Km1,Md11,kl24
13\t0\tHd Kk1,Gc3|,Oc4|,kk20
13\t1\thd Kk1,Gf3,Oc4|,kk20
13\t2\tHd Kk1,Gf3,Oc4|,kj20
13\t3\thd Kk1,Gf3,Oh4,kj20
";
    let found = search(&sample("crochess-effects.pgn"), "true", None);
    assert!(found.problems.is_empty(), "{:?}", found.problems);
    assert_eq!(found.lines, expected);
}

/// The family's words in queries: move actions, tags as sets, the momentum, on boards of
/// every width.
#[test]
fn queries_see_the_moves_and_tags_of_croatian_chess() {
    let effects = sample("crochess-effects.pgn");
    let games = |query: &str| -> Vec<u64> {
        let found = search(&effects, query, None);
        assert!(found.problems.is_empty(), "{query}: {:?}", found.problems);
        found.matched.iter().map(|(game, _)| *game).collect()
    };
    assert_eq!(games("move previous cascade"), [2, 3, 8, 9, 10]);
    assert_eq!(games("move previous conversion"), [3, 10]);
    assert_eq!(games("move previous teleport"), [6]);
    assert_eq!(games("move previous displacement"), [9]);
    assert_eq!(games("move previous journey"), [9]);
    assert_eq!(games("move previous oblation"), [8, 10]);
    assert_eq!(games("move previous rush"), [1]);
    assert_eq!(games("move previous enpassant"), [1]);
    assert_eq!(games("move previous castle"), [4]);
    assert_eq!(games("move previous promotion"), [5]);
    // Where the move's piece came from, a short move's (`Gf8`) and a long one's (`Gf8-d4`).
    assert_eq!(games("move from c2 previous"), [1]);
    assert_eq!(games("move from f8 to d4 previous"), [1]);
    assert_eq!(games("tagged"), [5]);
    assert_eq!(games("rushed & h5"), [1]);
    assert_eq!(games("cancastle & a1"), [1, 4]);
    // Queen 5 fields, then Pyramids 3 and 2; Bishop 7, then Pyramid 4.
    assert_eq!(games("momentum == 10 and not move previous journey"), [2]);
    assert_eq!(games("momentum == 11"), [10]);
    // A Bishop's 4 and a Pyramid's 4; a Bishop's 7 and its emergence; a Centaur's eight
    // jumps (d3 c5 g6, then six more alternating the same two).
    assert_eq!(games("momentum == 8"), [3, 6, 7]);
    // A square range and a transform on 26x26.
    let found = search(&effects, "flipcolor {i & a-z23}", None);
    assert_eq!(found.matched, [(10, 3)]);
    assert!(found.problems.iter().all(|problem| problem.contains("does not compile")), "{:?}", found.problems);
    assert_eq!(games("Q"), [2, 5]);
}

/// An `Edition` tag, or the edition asked for, reads the current book's letters.
#[test]
fn the_edition_picks_the_letters() {
    let game = "[Variant \"Croatian Ties\"]\n[Edition \"current\"]\n\n1. Ec3 e7 *\n";
    assert!(search(game, "true", None).problems.is_empty());
    let untagged = "[Variant \"Croatian Ties\"]\n\n1. Ec3 e7 *\n";
    assert!(search(untagged, "true", Some(Edition::Current)).problems.is_empty());
    let refused = search(untagged, "true", None);
    assert_eq!(refused.problems.len(), 1, "{:?}", refused.problems);
    let unknown = search("[Variant \"One\"]\n[Edition \"1999\"]\n\n1. e4 *\n", "true", None);
    assert!(unknown.problems[0].contains("unknown edition '1999'"), "{:?}", unknown.problems);
}

/// `cqlq convert` writes every sample game in the short and in the long notation, moves of
/// every piece and effect, and the games read back give the same positions; the long form
/// writes every start; a game goes to the other edition where each of its moves means the same
/// there, its pieces by their names in that edition; and where it does not, says which move.
#[test]
fn games_convert_between_the_short_and_the_long_notation_and_the_editions() {
    use cqlq::search::Target;
    for name in ["crochess-effects.pgn", "crochess-2020.pgn", "crochess-current.pgn"] {
        let text = sample(name);
        let positions = search(&text, "true", None).lines;
        for target in [Target::Short, Target::Long] {
            let converted: String = convert(&text, target, None).into_iter().map(Result::unwrap).collect();
            assert_eq!(search(&converted, "true", None).lines, positions, "{name} {target:?}");
            let again: String = convert(&converted, target, None).into_iter().map(Result::unwrap).collect();
            assert_eq!(again, converted, "{name} {target:?}: converting twice changes nothing");
        }
    }
    let effects = sample("crochess-effects.pgn");
    let long: String = convert(&effects, Target::Long, None).into_iter().map(Result::unwrap).collect();
    assert!(long.contains("1. Gc2-f8 Ke10-d10 2. h2-h5 i4-h3: 3. Gf8-d4"), "{long}");
    assert!(long.contains("1. Qk2-f7~Af7-i7~Ai7-i9"), "{long}");
    // The 2020 edition's Pegasus `G` is `E` now, in the setup string as in the moves.
    let current: String =
        convert(&effects, Target::Long, Some(Edition::Current)).into_iter().map(Result::unwrap).collect();
    assert!(current.contains("[Edition \"current\"]\n[SetUp \"1\"]\n[FEN \"Ct Ra1&,Ke1&,Ec2,"), "{current}");
    assert!(current.contains("1. Ec2-f8 Ke10-d10"), "{current}");
    // Classical Chess's own forms become the book's: castling to the King's field, captures
    // marked where the piece lands.
    let classical = "[Variant \"Classical Chess\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Nxe5 *\n";
    let [Ok(long)] = &convert(classical, Target::Long, None)[..] else { panic!("one game converted") };
    assert!(long.contains("1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-c4 Bf8-c5 4. Ke1-g1& Ng8-f6 5. Nf3-e5* *"), "{long}");
    let [Ok(short)] = &convert(long, Target::Short, None)[..] else { panic!("one game converted") };
    assert!(short.contains("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Kg& Nf6 5. Ne5* *"), "{short}");
    // Back to 2020 but for the last game, of the current edition's Grenadier and Scout.
    let (back, refused): (Vec<_>, Vec<_>) =
        convert(&current, Target::Short, Some(Edition::Ed2020)).into_iter().partition(Result::is_ok);
    let refused: Vec<String> = refused.into_iter().filter_map(Result::err).collect();
    assert_eq!(refused, ["Hemera's Dawn has no Grenadier"]);
    let back: String = back.into_iter().map(Result::unwrap).collect();
    let before_last =
        |lines: String| lines.lines().filter(|line| !line.starts_with("13\t")).collect::<Vec<_>>().join("\n");
    assert_eq!(search(&back, "true", None).lines.trim_end(), before_last(search(&effects, "true", None).lines));
    // A move that means something else in the other edition is named.
    let refused: Vec<String> = convert(&sample("crochess-current.pgn"), Target::Short, Some(Edition::Ed2020))
        .into_iter()
        .filter_map(Result::err)
        .collect();
    assert!(refused.iter().any(|why| why.starts_with("move 20 ('Ro16-k16') cannot be written")), "{refused:?}");
}
