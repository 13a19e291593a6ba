//! The move words of CQL 6.2 beside `move`: `legal X--Y` and `pseudolegal X--Y`, `countmoves`,
//! `currentmove X--Y` (and `previous X--Y`), `move legal count`, `from`, `to`,
//! `enpassantsquare`, null moves (`nullmove`, `move null`), `primary` and `secondary`; with
//! `notransform`, `P & Q` of two positions, `◭` piece variables and `comment F`. The answers
//! here were worked out by hand; `cql_reference.rs` runs the same kinds of query beside CQL 6.2.

use cqlq::Query;

use cqlq::search::SearchOptions;

use crate::common::{found, found_with};

/// The plies of the first game that match.
fn plies(query: &str, pgn: &str) -> Vec<u32> {
    found(query, pgn).into_iter().filter(|(game, _)| *game == 1).flat_map(|(_, plies)| plies).collect()
}

/// The mistake a query is refused for.
fn error(query: &str) -> String {
    Query::parse(query).expect_err(query).to_string()
}

const OPEN: &str = "[Event \"open\"]\n\n1. e4 e5 2. Nf3 *\n";

#[test]
fn legal_dashes_give_the_squares_reached_and_count_the_moves() {
    // The knights reach a3, c3, f3 and h3 at first; after 1.e4 e5 also e2.
    assert_eq!(plies("# legal N-- == 4", OPEN), vec![0]);
    assert_eq!(plies("# legal N-- == 5", OPEN), vec![2]);
    // Black's knights only when Black is to move.
    assert_eq!(plies("legal n--", OPEN), vec![1, 3]);
    // Twenty moves for either side at first; 29 for White after 1.e4 e5, and for Black after
    // 2.Nf3 (its e-pawn blocked, its knight, queen, bishop and king freed).
    assert_eq!(plies("countmoves legal -- == 20", OPEN), vec![0, 1]);
    assert_eq!(plies("move legal count == 29", OPEN), vec![2, 3]);
    assert_eq!(plies("countmoves pseudolegal P-- == 16", OPEN), vec![0]);
    // A promotion's four choices are one move.
    let promotion = "[Event \"p\"]\n[SetUp \"1\"]\n[FEN \"7k/P7/8/8/8/8/8/K7 w - - 0 1\"]\n\n1. a8=Q+ *\n";
    assert_eq!(plies("move legal count == 4", promotion), vec![0]);
    assert_eq!(plies("countmoves legal P-- == 1", promotion), vec![0]);
}

#[test]
fn legal_dashes_take_castling_and_en_passant_as_their_target() {
    let castles = "[Event \"c\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. Kf1 *\n";
    assert_eq!(plies("legal K--( o-o )", castles), vec![0]);
    assert_eq!(plies("legal K--( o-o-o )", castles), Vec::<u32>::new());
    let passant = "[Event \"e\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1\"]\n\n1. d4 exd3 *\n";
    assert_eq!(plies("legal p--( enpassant )", passant), vec![1]);
    assert_eq!(plies("enpassantsquare & d4", passant), vec![2]);
}

#[test]
fn currentmove_and_countmoves_are_about_the_moves_of_the_game() {
    assert_eq!(plies("currentmove N--", OPEN), vec![3]);
    assert_eq!(plies("previous --e5", OPEN), vec![2]);
    assert_eq!(plies("currentmove P--( btm )", OPEN), vec![1]);
    // countmoves always matches; its value is how many moves played from here fit.
    assert_eq!(plies("countmoves N--", OPEN), vec![0, 1, 2, 3]);
    assert_eq!(plies("countmoves N-- == 1", OPEN), vec![2]);
    assert_eq!(plies("countmoves -- == 0", OPEN), vec![3]);
}

#[test]
fn null_moves_are_the_kings_standing_still() {
    let null = "[Event \"null\"]\n\n1. e4 -- 2. d4 *\n";
    assert_eq!(plies("nullmove", null), vec![2]);
    assert_eq!(plies("move null", null), vec![1]);
    assert_eq!(plies("from & e8", null), vec![2]);
    assert_eq!(plies("to == e8", null), vec![2]);
    assert_eq!(plies("currentmove k--", null), vec![2]);
    assert_eq!(plies("move from k", null), vec![1]);
}

#[test]
fn primary_and_secondary_tell_the_main_continuation_from_a_variation() {
    let game = "[Event \"v\"]\n\n1. e4 (1. d4 d5) e5 *\n";
    let with_variations = |query: &str| -> Vec<u32> {
        let options = SearchOptions { variations: true, ..SearchOptions::default() };
        found_with(query, game, options).into_iter().flat_map(|(_, plies)| plies).collect()
    };
    // 1.d4 begins a variation; 1.e4, 1...d5 inside it, and 1...e5 continue their positions.
    assert_eq!(with_variations("secondary"), vec![1]);
    assert_eq!(with_variations("secondary Pd4"), vec![1]);
    assert_eq!(with_variations("primary").len(), 3);
    assert_eq!(with_variations("move previous secondary from d2"), vec![1]);
    assert_eq!(plies("primary", game), vec![1, 2]);
    assert_eq!(plies("move primary to e5", game), vec![1]);
    assert!(error("move legal primary").contains("take no 'null', 'primary' or 'secondary'"));
}

/// A `move` played or `previous`, alone as a filter (told without making its set of squares), matches
/// exactly where its set, made and met with every square, is not empty: in the main line and
/// in variations, with `primary` and `secondary`, the pieces, squares and captures asked for.
#[test]
fn a_move_made_matches_where_its_squares_are_not_empty() {
    let game = "[Event \"v\"]\n\n1. e4 (1. d4 d5 (1... Nf6 2. c4 e6) 2. c4 dxc4) e5 2. Nf3 (2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#) \
                Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O *\n";
    let with_variations = |query: &str| -> Vec<(u64, Vec<u32>)> {
        let options = SearchOptions { variations: true, ..SearchOptions::default() };
        found_with(query, game, options)
    };
    let filters = [
        "move from P",
        "move to f3",
        "move from N to f6",
        "move from [Nn] primary",
        "move to [c4,d5,c6] secondary",
        "move from B capture n",
        "move from Q to f7",
        "move from K to g1",
        "move capture [pn]",
        "move from p to [a6,e5,e6] primary",
    ];
    // The move that led to a position, as a filter alone, is told the same way.
    let previous = filters.map(|filter| format!("{filter} previous"));
    let mut matched = 0;
    for filter in filters.iter().copied().chain(previous.iter().map(String::as_str)) {
        let alone = with_variations(filter);
        assert_eq!(alone, with_variations(&format!("({filter}) & .")), "{filter}");
        assert_eq!(plies(filter, game), plies(&format!("({filter}) & ."), game), "{filter}");
        matched += alone.iter().map(|(_, plies)| plies.len()).sum::<usize>();
    }
    assert!(matched > 30, "{matched} positions matched");
}

#[test]
fn positions_meet_in_the_squares_whose_contents_agree() {
    assert_eq!(plies("# (parent & currentposition) == 62", OPEN), vec![1, 2, 3]);
    assert_eq!(plies("# (initialposition & currentposition) == 60", OPEN), vec![2]);
    assert_eq!(plies("e2 & (initialposition & currentposition)", OPEN), vec![0]);
}

#[test]
fn notransform_keeps_its_filter_as_written_in_every_copy() {
    assert_eq!(plies("flipcolor { Ke1 wtm }", OPEN), vec![0, 1, 2, 3]);
    assert_eq!(plies("flipcolor { Ke1 notransform wtm }", OPEN), vec![0, 2]);
    // The copies are the same filter, counted once as CQL 6.2 counts them.
    assert_eq!(plies("(flipcolor count notransform btm) == 1", OPEN), vec![1, 3]);
}

#[test]
fn piece_variables_may_carry_their_sign() {
    // After 2.Nf3 the knight on f3 attacks e5; ◭x and [Aa]x name a piece as `piece x` does.
    assert_eq!(plies("◭x ∊ N  x attacks e5", OPEN), vec![3]);
    assert_eq!(plies("[Aa]x [element] N  x attacks e5", OPEN), vec![3]);
    assert_eq!(plies("◭x = e5  x & p", OPEN), vec![2, 3]);
    assert_eq!(plies("∀◭x∊ N  x attacks [a-h3]", OPEN), vec![0, 1, 2]);
}

#[test]
fn comment_and_message_take_one_filter_without_parentheses() {
    assert_eq!(plies("comment \"here\" Nf3", OPEN), vec![3]);
    assert_eq!(plies("message quiet 1 + 1 == 2", OPEN), vec![0, 1, 2, 3]);
    assert_eq!(plies("comment (\"a\" ~~ \"a\")", OPEN), vec![0, 1, 2, 3]);
}

#[test]
fn the_mistakes_of_the_move_words() {
    assert!(error("pin from").contains("expected a set of squares such as e4 or R after 'pin from'"));
    assert!(error("move to").contains("after 'move to'"));
    assert!(error("legal N[x]q").contains("take a '--' dash, not a capture"));
    assert!(error("legal N--=Q").contains("no promotion"));
    assert!(error("legal N--( check )").contains("'o-o', 'o-o-o', 'castle' and 'enpassant'"));
    assert!(error("move count").contains("write 'move legal count'"));
}
