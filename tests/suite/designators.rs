//! The designator examples of Scidb's CQL documentation (seed 002), pasted as written there, and
//! the examples of query-language.md §10 that need only designators, sets and counts.

use crate::common;

use common::{backhand, matches, names, plan, squares};
use cqlq::Query;

// ----- Seed 002: compound square designators ----------------------------------------------------

#[test]
fn seed_file_range() {
    assert_eq!(squares("[a-c1]", "Standard"), names("a1 b1 c1"));
}

#[test]
fn seed_rank_range() {
    assert_eq!(squares("[b3-5]", "Standard"), names("b3 b4 b5"));
}

#[test]
fn seed_rectangle() {
    assert_eq!(squares("[f-h6-8]", "Standard"), names("f6 g6 h6 f7 g7 h7 f8 g8 h8"));
}

#[test]
fn seed_list() {
    assert_eq!(squares("[a1,c4]", "Standard"), names("a1 c4"));
}

#[test]
fn seed_first_two_ranks_and_two_corners() {
    let mut expected: Vec<String> = "abcdefgh".chars().flat_map(|f| [format!("{f}1"), format!("{f}2")]).collect();
    expected.extend(names("a8 h8"));
    expected.sort_by_key(|name| (name[1..].parse::<u32>().unwrap(), name.as_bytes()[0]));
    assert_eq!(squares("[a-h1-2,a8,h8]", "Standard"), expected);
}

#[test]
fn seed_light_squares() {
    let light = squares("[&L;?]", "Standard");
    assert_eq!(light.len(), 32);
    assert!(light.contains(&"h1".to_owned()) && light.contains(&"a8".to_owned()));
    assert!(!light.contains(&"a1".to_owned()) && !light.contains(&"h8".to_owned()));
}

#[test]
fn seed_dark_squares_of_rank_one() {
    assert_eq!(squares("[&D;1]", "Standard"), names("a1 c1 e1 g1"));
}

#[test]
fn seed_backhand() {
    assert_eq!(squares("[+]", "Crazyhouse"), Vec::<String>::new());
    assert_eq!(backhand("[+]", "Crazyhouse"), names("P N B R Q K p n b r q k"));
}

#[test]
fn seed_backhand_and_a1() {
    assert_eq!(squares("[+,a1]", "Crazyhouse"), names("a1"));
    assert_eq!(backhand("[+,a1]", "Crazyhouse").len(), 12);
}

#[test]
fn seed_board_and_backhand() {
    assert_eq!(squares("[*]", "Crazyhouse").len(), 64);
    assert_eq!(backhand("[*]", "Crazyhouse").len(), 12);
}

#[test]
fn seed_no_squares_with_a_thin_space() {
    assert_eq!(squares("[&thinsp;]", "Standard"), Vec::<String>::new());
    assert_eq!(squares("[\u{2009}]", "Standard"), Vec::<String>::new());
    assert_eq!(squares("[ ]", "Standard"), Vec::<String>::new());
    assert_eq!(squares("[]", "Standard"), Vec::<String>::new());
}

#[test]
fn empty_designator_and_the_whole_board_differ_from_no_squares() {
    assert_eq!(squares("R", "Standard").len(), 64);
    assert_eq!(squares("??", "Standard").len(), 64);
    assert_eq!(squares(".", "Standard").len(), 64);
    assert!(backhand("??", "Crazyhouse").is_empty(), "?? does not include the backhand");
}

// ----- Seed 002: piece designators --------------------------------------------------------------

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn seed_white_minor_piece_on_a1() {
    assert!(matches("&I;a1", "Standard", "4k3/8/8/8/8/8/8/B3K3 w - - 0 1"));
    assert!(matches("&I;a1", "Standard", "4k3/8/8/8/8/8/8/N3K3 w - - 0 1"));
    assert!(!matches("&I;a1", "Standard", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
    assert!(!matches("&I;a1", "Standard", "4k3/8/8/8/8/8/8/n3K3 w - - 0 1"));
}

#[test]
fn seed_white_rook_on_the_first_two_ranks() {
    assert!(matches("&R;[a-h1-2]", "Standard", START));
    assert!(matches("&R;[a-h1-2]", "Standard", "4k3/8/8/8/8/8/5R2/4K3 w - - 0 1"));
    assert!(!matches("&R;[a-h1-2]", "Standard", "4k3/8/8/8/8/5R2/8/4K3 w - - 0 1"));
    assert!(!matches("&R;[a-h1-2]", "Standard", "4k3/8/8/8/8/8/5r2/4K3 w - - 0 1"));
}

#[test]
fn seed_white_piece_or_black_rook_on_the_first_ranks_or_corners() {
    let query = "[&A;&r;][a-h1-2,a8,h8]";
    assert!(matches(query, "Standard", "7r/8/8/8/8/8/8/k6K w - - 0 1"), "a white king on h1");
    assert!(matches(query, "Standard", "r6K/8/8/8/8/8/8/7k w - - 0 1"), "a black rook on a8");
    assert!(
        !matches(query, "Standard", "3r4/8/8/8/8/4K3/8/7k w - - 0 1"),
        "d8 and e3 are outside; h1 holds a black king"
    );
    assert!(matches(query, "Standard", "8/8/8/8/8/4k3/8/3K4 w - - 0 1"), "a white king on d1");
}

#[test]
fn seed_white_non_king_piece_in_a_corner() {
    let query = "[&R;&B;&N;&Q;&P;][a1,h1,a8,h8]";
    assert!(matches(query, "Standard", START));
    assert!(!matches(query, "Standard", "K6k/8/8/8/8/8/8/8 w - - 0 1"), "a king is no non-king piece");
    assert!(matches(query, "Standard", "K6k/8/8/8/8/8/8/7Q b - - 0 1"));
    assert!(!matches(query, "Standard", "K6k/8/8/8/8/8/8/7q w - - 0 1"));
}

#[test]
fn seed_light_squared_bishop() {
    let query = "[&B;&b;]&L;?";
    assert!(matches(query, "Standard", START), "f1 and c8 are light");
    assert!(!matches(query, "Standard", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"), "f8 and c1 are dark");
    assert!(matches(query, "Standard", "2b1k3/8/8/8/8/8/8/4K3 w - - 0 1"), "c8 is light");
}

#[test]
fn seed_white_knight_in_the_backhand() {
    assert!(matches("&N;[+]", "Crazyhouse", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1"));
    assert!(!matches("&N;[+]", "Crazyhouse", "4k3/8/8/8/8/8/8/4K3[n] w - - 0 1"));
    assert!(!matches("&N;[+]", "Crazyhouse", "4k3/8/8/8/8/8/8/3NK3[] w - - 0 1"), "on the board is not in the hand");
}

#[test]
fn seed_bishop_on_no_squares_never_matches() {
    for position in [START, "4k3/8/8/8/8/8/8/BBBBKBBB w - - 0 1"] {
        assert!(!matches("&B;[&thinsp;]", "Standard", position));
    }
}

// ----- query-language.md §10 ----------------------------------------------------------------

#[test]
fn three_spellings_of_white_rooks_on_ranks_one_and_two() {
    let reference = squares("R[a-h1-2]", "Standard");
    assert_eq!(reference.len(), 16);
    for spelling in ["&R;[a-h1-2]", "Ra-h1-2"] {
        assert_eq!(squares(spelling, "Standard"), reference, "{spelling}");
        for position in [START, "4k3/8/8/8/8/5R2/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/5r2/4K3 w - - 0 1"] {
            assert_eq!(
                matches(spelling, "Standard", position),
                matches("R[a-h1-2]", "Standard", position),
                "{spelling} on {position}"
            );
        }
    }
}

#[test]
fn two_spellings_of_bishops_on_light_squares() {
    assert_eq!(squares("[Bb][L?]", "Standard"), squares("[&B;&b;]&L;?", "Standard"));
    assert!(matches("[Bb][L?]", "Standard", START));
    assert!(!matches("[Bb][L?]", "Standard", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"));
}

#[test]
fn dark_squares_of_rank_one_in_croatian_ties() {
    assert_eq!(squares("[D1]", "Croatian Ties"), names("a1 c1 e1 g1 i1"));
}

#[test]
fn light_squares_of_one() {
    let light = squares("[L?]", "One");
    assert_eq!(light.len(), 338);
    assert!(light.contains(&"z1".to_owned()) && light.contains(&"a26".to_owned()));
    assert!(!light.contains(&"a1".to_owned()) && !light.contains(&"z26".to_owned()));
}

#[test]
fn a_is_the_pyramid_in_mayan_ascendancy() {
    let pyramid = "Ma Ka1,Af6,ke12";
    assert!(matches("Af6", "Mayan Ascendancy", pyramid));
    assert!(!matches("Aa1", "Mayan Ascendancy", pyramid), "a king is no Pyramid");
    assert!(matches("Aa1", "Mayan Ascendancy", "Ma Aa1,Kf1,ke12"));
    assert!(!matches("Aa1", "Mayan Ascendancy", "Ma aa1,Kf1,ke12"), "a dark Pyramid");
}

#[test]
fn any_light_piece_on_rank_one_in_mayan_ascendancy() {
    assert_eq!(squares("&A;[a-l1]", "Mayan Ascendancy").len(), 12);
    assert!(matches("&A;[a-l1]", "Mayan Ascendancy", "Ma Kf1,ke12"));
    assert!(!matches("&A;[a-l1]", "Mayan Ascendancy", "Ma Kf2,kf1"));
    assert!(matches("&A;[a-l1]", "Mayan Ascendancy", "Ma Kf2,Al1,ke12"), "a Pyramid is a light piece too");
}

#[test]
fn squares_off_the_board_are_errors() {
    let query = Query::parse("[k-m10-12]").unwrap();
    let error = query.compile(common::variant("Classical Chess")).unwrap_err();
    let text = error.to_string();
    assert!(text.contains("file k is outside the 8x8 board of Classical Chess (files a-h)"), "{text}");
    assert!(text.contains("rank 10 is outside the 8x8 board of Classical Chess (ranks 1-8)"), "{text}");
    assert!(query.compile(common::variant("Age of Aquarius")).is_ok(), "k-m10-12 lies on 14x14");
}

#[test]
fn five_pieces_or_fewer() {
    assert!(!matches("#[Aa] <= 5", "Standard", START));
    assert!(matches("#[Aa] <= 5", "Standard", "4k3/8/8/8/8/8/8/R2QK2R w KQ - 0 1"));
    assert!(!matches("#[Aa] <= 5", "Standard", "4k3/8/8/8/8/8/P7/R2QK2R w KQ - 0 1"));
}

// ----- More of §2 and §3 --------------------------------------------------------------------

#[test]
fn classes_and_empty_squares() {
    assert!(matches("M[a1,h1]", "Standard", START), "white major pieces on a1 and h1");
    assert!(!matches("m[a1,h1]", "Standard", START));
    assert!(matches("#i == 4", "Standard", START), "four black minor pieces");
    assert!(matches("#U == 32", "Standard", START));
    assert!(matches("#_ == 32", "Standard", START));
    assert!(matches("_e4 and [K_]e1 and [K_]e4", "Standard", START));
    assert!(matches("#[Aa] == 32 and #[Aa] == #U", "Standard", START));
}

#[test]
fn figurines_are_pieces() {
    assert!(matches("♔e1 ♚e8 ♙e2 △a1 ▲a8 □e4", "Standard", START));
    assert!(!matches("♕e1", "Standard", START));
}

#[test]
fn cql6_compound_designators_without_brackets() {
    assert_eq!(squares("Pb2-7", "Standard"), names("b2 b3 b4 b5 b6 b7"));
    assert_eq!(squares("ke-f7-8", "Standard"), names("e7 f7 e8 f8"));
    assert_eq!(squares("b10-12", "Mayan Ascendancy"), names("b10 b11 b12"));
    assert_eq!(squares("Ra-h7", "Standard"), squares("R[a-h7]", "Standard"));
}

#[test]
fn sets_operators_and_counts() {
    assert!(matches("R & [a1,h1]", "Standard", START));
    assert!(matches("#(R | r) == 4", "Standard", START));
    assert!(matches("#~U == 32", "Standard", START), "the complement is within the board");
    assert!(matches("R in [a-h1]", "Standard", START));
    assert!(!matches("R in [a1]", "Standard", START));
    assert!(matches("r >= 2", "Standard", START), "a set compared with a number stands for its size");
    assert!(matches("#P - #p == 0 and #P * 2 == 16 and #P / 3 == 2 and #P % 3 == 2", "Standard", START));
    assert!(matches("abs(#p - 10) == 2 and -#P == -8", "Standard", START));
    assert!(matches("min(#P, #N, 5) == 2 and max(#P #N) == 8", "Standard", START));
    assert!(!matches("#P / 0 == 0", "Standard", START), "a division by zero has no value");
    assert!(matches("not Qh7 and (Qd1 or Qh7)", "Standard", START));
    assert!(matches("{ Ke1 ke8 } Qd1", "Standard", START));
    assert!(!matches("{ Ke1 ke7 }", "Standard", START));
}

#[test]
fn backhand_counts_piece_by_piece() {
    let zh = "4k3/8/8/8/8/8/8/4K3[NNpq] w - - 0 1";
    assert!(matches("#N[+] == 2", "Crazyhouse", zh));
    assert!(matches("#[+] == 4", "Crazyhouse", zh));
    assert!(matches("#[*] == 64 + 4", "Crazyhouse", zh), "the board's squares and the hands' pieces");
    assert!(matches("#U[*] == 6", "Crazyhouse", zh), "pieces on the board and in the hands");
    assert!(matches("#n[+] == 0 and #p[+] == 1", "Crazyhouse", zh));
    assert!(matches("#~N[+] == 64 + 2", "Crazyhouse", zh), "the complement covers the other backhand pieces");
    assert!(matches("q[+]", "Standard", "4k3/8/8/8/8/8/8/4K3[q] w - - 0 1"), "captured pieces elsewhere");
}

#[test]
fn plans_are_per_variant() {
    let query = Query::parse("Gc3").unwrap();
    assert!(query.compile(common::variant("Croatian Ties")).is_ok());
    let error = query.compile(common::variant("Standard")).unwrap_err().to_string();
    assert!(error.contains("'G' is no piece of Standard (pieces: P N B R Q K"), "{error}");
    let _ = plan("Ra1", "One");
}
