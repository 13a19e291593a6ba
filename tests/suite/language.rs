//! The acceptance tests of the query language (query-language.md): every example of §10 not
//! covered by `designators.rs`, and each position filter, move form, transform, sequence
//! quantifier, game filter and `sort`, on positions and games whose answers are worked out by
//! hand in the comments. Boards: 8x8, 10x10 (Croatian Ties), 10x8 (Laser Chess) and 26x26 (One).

use crate::common;

use common::{found, matches, names, number, run_cqlq, set_of};
use cqlq::Query;

// ----- Positions used in several tests ----------------------------------------------------------

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// Two kings on their home squares and nothing else.
const KINGS: &str = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
/// Croatian Ties (10x10), two kings: Ke1, ke10.
const CT_KINGS: &str = "Ct Ke1,ke10";
/// The initial position of Croatian Ties.
const CT_START: &str = "Ct Ra1&,Gb1,Nc1,Bd1,Qe1,Kf1&,Bg1,Nh1,Gi1,Rj1&,Pa2|,Pb2|,Pc2|,Pd2|,Pe2|,Pf2|,Pg2|,Ph2|,Pi2|,\
                        Pj2|,pa9|,pb9|,pc9|,pd9|,pe9|,pf9|,pg9|,ph9|,pi9|,pj9|,ra10&,gb10,nc10,bd10,qe10,kf10&,bg10,\
                        nh10,gi10,rj10&";
/// One (26x26), two kings: Kn1, kn26.
const ONE_KINGS: &str = "O Kn1,kn26";
/// Laser Chess (10x8) in Setup Notation, two kings: Ke1, ke8.
const LASER_KINGS: &str = "4k5/*/*/*/*/*/*/4K5";

/// The board part of a FEN of One with the kings on n1 and n26 (files a-m are 13 files, o-z 12).
fn one_kings_board() -> String {
    let mut ranks = vec!["13k12".to_owned()];
    ranks.extend(std::iter::repeat_n("26".to_owned(), 24));
    ranks.push("13K12".to_owned());
    ranks.join("/")
}

/// The value of a set as square names, for comparing with `set_of`.
fn squares(list: &str) -> Vec<String> {
    names(list)
}

// ===== §10: the examples not covered by designators.rs ========================================

/// `shift {ka1 Ka3}`: the white king two ranks straight above the black king, anywhere.
#[test]
fn section_10_shift_kings_two_ranks_apart() {
    let query = "shift {ka1 Ka3}";
    assert!(matches(query, "Standard", "8/8/8/3K4/8/3k4/8/8 w - - 0 1"), "kd3 Kd5");
    assert!(matches(query, "Standard", "7K/8/7k/8/8/8/8/8 w - - 0 1"), "kh6 Kh8, at the top edge");
    assert!(matches(query, "Standard", "8/8/8/8/8/K7/8/k7 w - - 0 1"), "ka1 Ka3, the pattern itself");
    assert!(!matches(query, "Standard", "8/8/8/4K3/8/3k4/8/8 w - - 0 1"), "kd3 Ke5 is not straight above");
    assert!(!matches(query, "Standard", "8/8/8/3k4/8/3K4/8/8 w - - 0 1"), "Kd3 kd5: the other way round");
    // Sized to the board: the pattern slides over 10x10 and 26x26 too.
    assert!(matches(query, "Croatian Ties", "Ct kj8,Kj10"));
    assert!(matches(query, "Croatian Ties", "Ct ke5,Ke7"));
    assert!(!matches(query, "Croatian Ties", "Ct ka1,Kb3"));
    assert!(matches(query, "One", "O kz24,Kz26"));
    assert!(matches(query, "One", "O km13,Km15"));
    assert!(!matches(query, "One", "O km13,Km16"));
}

/// `flip {Ka1 kh8}`: kings in opposite corners, in any of the four orientations.
#[test]
fn section_10_flip_kings_in_opposite_corners() {
    let query = "flip {Ka1 kh8}";
    for (position, what) in [
        ("7k/8/8/8/8/8/8/K7 w - - 0 1", "Ka1 kh8"),
        ("K7/8/8/8/8/8/8/7k w - - 0 1", "Ka8 kh1"),
        ("7K/8/8/8/8/8/8/k7 w - - 0 1", "Kh8 ka1"),
        ("k7/8/8/8/8/8/8/7K w - - 0 1", "Kh1 ka8"),
    ] {
        assert!(matches(query, "Standard", position), "{what}");
    }
    assert!(!matches(query, "Standard", "k7/8/8/8/8/8/8/K7 w - - 0 1"), "Ka1 ka8 are not opposite");
    assert!(!matches(query, "Standard", "6k1/8/8/8/8/8/8/K7 w - - 0 1"), "kg8 is no corner");
    // The eight symmetries of the square make four distinct copies of this pattern: the
    // diagonal flip, the off-diagonal flip and the quarter turns repeat the others.
    assert_eq!(number("flip count {Ka1 kh8}", "Standard", "7k/8/8/8/8/8/8/K7 w - - 0 1"), Some(1));
    assert_eq!(number("flip count ({Ka1 kh8} or not {Ka1 kh8})", "Standard", KINGS), Some(4));
}

/// `flipcolor {Qh7 kg8}`: Qh7 with kg8, or qh2 with Kg1.
#[test]
fn section_10_flipcolor_queen_and_king() {
    let query = "flipcolor {Qh7 kg8}";
    assert!(matches(query, "Standard", "6k1/7Q/8/8/8/8/8/6K1 b - - 0 1"));
    assert!(matches(query, "Standard", "6k1/8/8/8/8/8/7q/6K1 w - - 0 1"));
    assert!(!matches(query, "Standard", "6k1/8/8/8/8/8/7Q/6K1 w - - 0 1"), "a white queen on h2");
    assert!(!matches(query, "Standard", "6K1/7q/8/8/8/8/8/6k1 w - - 0 1"), "qh7 Kg8 is not the mirror");
}

/// `#[Aa] <= 5` beyond Classical Chess: in One, `A` and `a` are Pyramids (variant letters win), so
/// the classes are written `&A;` and `&a;`; Stars and Monoliths belong to no one.
#[test]
fn section_10_five_pieces_or_fewer_on_big_boards() {
    let one = "O Ta1,tz1,ta26,Tz26,Mb8,my19,Kn1,kn26,If13";
    assert!(matches("#[&A;&a;] <= 5", "One", one), "K k I: three pieces with an owner");
    assert!(matches("#[Aa] == 0", "One", one), "no Pyramid");
    assert!(!matches("#[&A;&a;] <= 5", "One", "O Kn1,kn26,If13,im14,Qm1,qm26"), "six pieces");
    assert!(matches("#[Aa] <= 5", "Croatian Ties", CT_KINGS));
    assert!(!matches("#[Aa] <= 5", "Croatian Ties", CT_START));
}

/// `R attacks k`: a white rook attacks the black king.
#[test]
fn section_10_rook_attacks_king() {
    assert!(matches("R attacks k", "Standard", "4k3/8/8/8/8/8/8/4RK2 b - - 0 1"));
    assert!(matches("k attackedby R", "Standard", "4k3/8/8/8/8/8/8/4RK2 b - - 0 1"));
    assert!(!matches("R attacks k", "Standard", "4k3/8/8/8/4p3/8/8/4RK2 w - - 0 1"), "e4 blocks the file");
    assert!(!matches("R attacks k", "Standard", "4k3/8/8/8/8/8/8/4rK2 w - - 0 1"), "a black rook");
    assert!(matches("r attacks K", "Standard", "4k3/8/8/8/8/8/8/4rK2 w - - 0 1"));
}

/// Games for `move previous promote`: an underpromotion by White at ply 1, a queen promotion, and
/// an underpromotion by Black at ply 1.
const PROMOTIONS: &str = r#"[Event "knight"]
[SetUp "1"]
[FEN "8/P6k/8/8/8/8/8/K7 w - - 0 1"]

1. a8=N Kg6 2. Nb6 *

[Event "queen"]
[SetUp "1"]
[FEN "8/P6k/8/8/8/8/8/K7 w - - 0 1"]

1. a8=Q Kg6 *

[Event "black bishop"]
[SetUp "1"]
[FEN "k7/8/8/8/8/8/p6K/8 b - - 0 1"]

1... a1=B 2. Kg3 *
"#;

/// `move previous promote [RBNrbn]`: the last move was an underpromotion.
#[test]
fn section_10_underpromotion() {
    assert_eq!(found("move previous promote [RBNrbn]", PROMOTIONS), [(1, vec![1]), (3, vec![1])]);
    assert_eq!(found("move previous promote [Qq]", PROMOTIONS), [(2, vec![1])]);
    // Piece kinds, whatever their colour (as in CQL 6.2): White's knight is `N` and `n`.
    assert_eq!(found("move previous promote N", PROMOTIONS), [(1, vec![1])]);
    assert_eq!(found("move previous promote n", PROMOTIONS), [(1, vec![1])]);
    assert_eq!(found("move previous promote b", PROMOTIONS), [(3, vec![1])]);
    // flipcolor swaps the colour of the piece promoted to.
    assert_eq!(found("flipcolor move previous promote B", PROMOTIONS), [(3, vec![1])]);
    assert_eq!(found("flipcolor move previous promote [NB] to [a1,a8]", PROMOTIONS), [(1, vec![1]), (3, vec![1])]);
}

/// Six checking moves in a row (found by a search over checking moves, each checked by hand),
/// from White Rb5 Ke2 Qg1, Black re7 qg7 ke4:
///
/// - 1. Qh1+ (h1-g2-f3-e4), Qg2+ (blocks the diagonal, checks e2 along the rank);
/// - 2. Qxg2+ (g2-f3-e4), Kd4+ (the king leaves the e-file: re7 checks e2);
/// - 3. Qe4+ (blocks the file, checks d4 along the rank), Rxe4+ (e4-e3-e2).
///
/// Positions 1 to 6 have the side to move in check; the initial one does not.
const CHECKS: &str = r#"[Event "six checks"]
[SetUp "1"]
[FEN "8/4r1q1/8/1R6/4k3/8/4K3/6Q1 w - - 0 1"]

1. Qh1+ Qg2+ 2. Qxg2+ Kd4+ 3. Qe4+ Rxe4+ *

[Event "five checks"]
[SetUp "1"]
[FEN "8/4r1q1/8/1R6/4k3/8/4K3/6Q1 w - - 0 1"]

1. Qh1+ Qg2+ 2. Qxg2+ Kd4+ 3. Qe4+ *
"#;

/// `line --> check{6,}`: six consecutive positions with the side to move in check.
#[test]
fn section_10_six_checks_in_a_row() {
    assert_eq!(found("check", CHECKS), [(1, vec![1, 2, 3, 4, 5, 6]), (2, vec![1, 2, 3, 4, 5])]);
    assert_eq!(found("line --> check{6,}", CHECKS), [(1, vec![1])]);
    assert_eq!(found("line --> check{5,}", CHECKS), [(1, vec![1, 2]), (2, vec![1])]);
    assert_eq!(found("line --> not check --> check{6}", CHECKS), [(1, vec![0])]);
}

// ===== Position filters =======================================================================

#[test]
fn side_to_move() {
    assert!(matches("wtm", "Standard", START) && !matches("btm", "Standard", START));
    assert!(matches("btm", "Standard", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
    assert!(matches("wtm", "Croatian Ties", "Ct Ke1,ke10") && !matches("btm", "Croatian Ties", "Ct Ke1,ke10"));
    assert!(matches("btm", "Croatian Ties", "ct Ke1,ke10") && !matches("wtm", "Croatian Ties", "ct Ke1,ke10"));
    assert!(matches("wtm", "One", "O Kn1,kn26") && matches("btm", "One", "o Kn1,kn26"));
    assert!(matches("wtm", "Laser Chess", LASER_KINGS), "Blue moves first: Setup Notation has no side field");
}

/// Fool's mate, a stalemate, a plain check, and a mate that a drop turns into a check.
#[test]
fn check_mate_and_stalemate() {
    let fools_mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    assert!(matches("check", "Standard", fools_mate));
    assert!(matches("mate", "Standard", fools_mate));
    assert!(!matches("stalemate", "Standard", fools_mate));
    // Black Kh8; Qf7 covers g8 and h7 and g7, Kg6 covers g7 and h7; h8 is not attacked.
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    assert!(matches("stalemate", "Standard", stalemate));
    assert!(!matches("check", "Standard", stalemate) && !matches("mate", "Standard", stalemate));
    let check = "4k3/8/8/8/8/8/8/4RK2 b - - 0 1";
    assert!(matches("check", "Standard", check));
    assert!(!matches("mate", "Standard", check) && !matches("stalemate", "Standard", check));
    assert!(!matches("check", "Standard", START));
    // A back-rank mate; in Crazyhouse a knight in hand can be dropped between.
    assert!(matches("mate", "Standard", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"));
    assert!(matches("check", "Crazyhouse", "R5k1/5ppp/8/8/8/8/8/6K1[n] b - - 0 1"));
    assert!(!matches("mate", "Crazyhouse", "R5k1/5ppp/8/8/8/8/8/6K1[n] b - - 0 1"));
}

#[test]
fn attacks_gives_the_attackers_and_attackedby_the_targets() {
    // Qd4 on a board with Ka8 and kh1: 7 on the file, 7 on the rank, 7 + 6 on the diagonals.
    let queen = "K7/8/8/8/3Q4/8/8/7k w - - 0 1";
    assert_eq!(number("#(. attackedby Q)", "Standard", queen), Some(27));
    assert_eq!(set_of("Q attacks .", "Standard", queen), squares("d4"), "the attacker");
    assert!(!matches("Q attacks k", "Standard", queen));
    assert_eq!(set_of(". attackedby Na1", "Standard", "4k3/8/8/8/8/8/8/N3K3 w - - 0 1"), squares("c2 b3"));
    assert_eq!(set_of(". attackedby P", "Standard", "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"), squares("d5 f5"));
    // Pins are ignored: the knight pinned by re8 still attacks its six squares.
    let pinned = "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1";
    assert_eq!(set_of(". attackedby N", "Standard", pinned), squares("c1 g1 c3 g3 d4 f4"));
    // The colour of the target does not matter: the rook attacks its own pawn, and not beyond it.
    let own = "4k3/8/8/8/4P3/8/8/4RK2 w - - 0 1";
    assert!(matches("R attacks P", "Standard", own));
    assert!(!matches("R attacks k", "Standard", own));
    assert_eq!(set_of(". attackedby R", "Standard", own), squares("a1 b1 c1 d1 f1 e2 e3 e4"));
    assert_eq!(set_of("[e4,e8,f1,h1] attackedby R", "Standard", own), squares("f1 e4"));
    assert_eq!(set_of("R attacks [e4,e8,f1,h1]", "Standard", own), squares("e1"));
    assert_eq!(set_of("[RK] attacks [e4,e8,f1,h1]", "Standard", own), squares("e1"), "Kf1 attacks none of them");
}

#[test]
fn attacks_binds_tighter_than_the_set_operators_and_the_prefixes() {
    // As in CQL 6.2: `Q attacks k | q` is `(Q attacks k) | q`, `#Q attacks k` is `#(Q attacks k)`.
    let check = "4k3/8/8/8/Q7/8/8/4K3 b - - 0 1";
    let quiet = "4k3/8/8/8/1Q6/8/8/4K3 b - - 0 1";
    assert_eq!(set_of("Q attacks k | K", "Standard", check), squares("e1 a4"));
    assert_eq!(number("#Q attacks k", "Standard", check), Some(1));
    assert_eq!(number("#Q attacks k", "Standard", quiet), Some(0));
    assert_eq!(set_of("Q attacks k & Q", "Standard", check), squares("a4"));
    // Chains group to the left: the queens that attack the king and attack a queen.
    assert!(!matches("Q attacks k attacks Q", "Standard", check));
}

#[test]
fn pins() {
    // Re8 pins Ne2 to Ke1.
    let pinned = "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1";
    assert_eq!(set_of("pin", "Standard", pinned), squares("e2"));
    // The part written first is the value, as in CQL 6.2: the pinners, the pinned, the shielded.
    assert_eq!(set_of("pin from r", "Standard", pinned), squares("e8"));
    assert_eq!(set_of("pin from b", "Standard", pinned), squares(""));
    assert_eq!(set_of("pin through N", "Standard", pinned), squares("e2"));
    assert_eq!(set_of("pin through N from r", "Standard", pinned), squares("e2"));
    assert_eq!(set_of("pin through B", "Standard", pinned), squares(""));
    assert_eq!(set_of("pin to K", "Standard", pinned), squares("e1"));
    assert_eq!(set_of("pin to K from r through N", "Standard", pinned), squares("e1"));
    assert_eq!(set_of("pin to k", "Standard", pinned), squares(""));
    // A pin to an empty square counts, as in CQL 6.2: Re8 pins Ne2 to e1 with no king there.
    assert_eq!(set_of("pin to e1", "Standard", "4r1k1/8/8/8/8/8/4N3/3K4 w - - 0 1"), squares("e1"));
    // Two pieces between: no pin.
    assert!(!matches("pin", "Standard", "4r1k1/8/8/8/4P3/8/4N3/4K3 w - - 0 1"));
    // A black knight between a black rook and the white king is no pin: it shields nothing of its own.
    assert!(!matches("pin", "Standard", "4r1k1/8/8/8/8/8/4n3/4K3 w - - 0 1"));
    // Pinned to the queen: only with `to`.
    let to_queen = "3r2k1/8/8/8/8/8/3B4/3QK3 w - - 0 1";
    assert!(!matches("pin", "Standard", to_queen));
    assert_eq!(set_of("pin through . to Q", "Standard", to_queen), squares("d2"));
    // Bishops pin on diagonals; a rook there does not.
    assert_eq!(set_of("pin", "Standard", "6k1/8/8/8/8/2b5/3N4/4K3 w - - 0 1"), squares("d2"));
    assert!(!matches("pin", "Standard", "6k1/8/8/8/8/2r5/3N4/4K3 w - - 0 1"));
    // Two pins at once: Ne2 by the rook, Nd2 by the bishop.
    let two = "4r1k1/8/8/8/8/2b5/3NN3/4K3 w - - 0 1";
    assert_eq!(number("#pin", "Standard", two), Some(2));
    assert_eq!(set_of("pin through N from b", "Standard", two), squares("d2"));
    assert_eq!(set_of("pin from b through N", "Standard", two), squares("c3"));
    assert_eq!(set_of("pin from r through Nd2", "Standard", two), squares(""));
}

#[test]
fn between_on_every_board() {
    assert_eq!(set_of("between(a1 h8)", "Standard", KINGS), squares("b2 c3 d4 e5 f6 g7"));
    assert_eq!(set_of("between(h8, a1)", "Standard", KINGS), squares("b2 c3 d4 e5 f6 g7"));
    assert_eq!(set_of("between(K k)", "Standard", KINGS), squares("e2 e3 e4 e5 e6 e7"));
    assert!(!matches("between(a1 b3)", "Standard", KINGS), "not on a line");
    assert!(!matches("between(a1 b2)", "Standard", KINGS), "next to each other");
    // a1-a8 and h1-a8: 6 + 6.
    assert_eq!(number("#between([a1,h1] a8)", "Standard", KINGS), Some(12));
    // 10x10.
    assert_eq!(number("#between(a1 j10)", "Croatian Ties", CT_KINGS), Some(8));
    assert_eq!(number("#between(a1 j1)", "Croatian Ties", CT_KINGS), Some(8));
    assert_eq!(set_of("between(a1 d4)", "Croatian Ties", CT_KINGS), squares("b2 c3"));
    assert_eq!(number("#between(a1 b3)", "Croatian Ties", CT_KINGS), Some(0));
    // 26x26: the two files and the two long diagonals (which share no square on an even board).
    assert_eq!(number("#between(a1 z26)", "One", ONE_KINGS), Some(24));
    assert_eq!(number("#between(z1 a26)", "One", ONE_KINGS), Some(24));
    assert_eq!(number("#between([a1,z1] [a26,z26])", "One", ONE_KINGS), Some(96));
    assert!(matches("[y25] in between(a1 z26)", "One", ONE_KINGS));
}

#[test]
fn rays() {
    let rook = "4k3/8/8/8/8/8/8/4RK2 b - - 0 1";
    assert_eq!(set_of("ray (R k)", "Standard", rook), squares("e8"));
    assert_eq!(set_of("ray orthogonal (R k)", "Standard", rook), squares("e8"));
    assert_eq!(set_of("ray diagonal (R k)", "Standard", rook), squares(""));
    assert!(!matches("ray (R k)", "Standard", "4k3/8/8/8/4p3/8/8/4RK2 w - - 0 1"), "e4 is in the way");
    let queen = "7k/8/8/8/8/8/8/Q3K3 b - - 0 1";
    assert_eq!(set_of("ray diagonal (Q k)", "Standard", queen), squares("h8"));
    assert_eq!(set_of("ray orthogonal (Q k)", "Standard", queen), squares(""));
    // Three sets: Re1, then the pawn on e4, then the king; only empty squares between.
    let through = "4k3/8/8/8/4P3/8/8/4RK2 w - - 0 1";
    assert_eq!(set_of("ray (R P k)", "Standard", through), squares("e8"));
    assert!(!matches("ray (R P k)", "Standard", "4k3/8/4p3/8/4P3/8/8/4RK2 w - - 0 1"), "e6 is in the way");
    // A set with several squares on the line: a ray may pass an empty square of it.
    // a1, then a2 or a3, then a4: with a2 empty and a3 occupied, the ray a1-a3-a4 exists.
    assert_eq!(set_of("ray (a1 [a2,a3] a4)", "Standard", "4k3/8/8/8/8/P7/8/4K3 w - - 0 1"), squares("a4"));
    // On an empty file both a3 and a5 end a ray from a1; a pawn on a4 hides a5.
    assert_eq!(set_of("ray (a1 [a3,a5])", "Standard", KINGS), squares("a3 a5"));
    assert_eq!(set_of("ray (a1 [a3,a5])", "Standard", "4k3/8/8/8/P7/8/8/4K3 w - - 0 1"), squares("a3"));
    // From h1 the diagonal reaches e4; a1-e4 is no line.
    assert_eq!(set_of("ray ([a1,h1] e4)", "Standard", KINGS), squares("e4"));
    // 10x10.
    assert_eq!(set_of("ray (a1 j10)", "Croatian Ties", CT_KINGS), squares("j10"));
    assert!(!matches("ray (a1 j10)", "Croatian Ties", "Ct Ke1,ke10,Pe5"), "e5 is in the way");
    assert!(!matches("ray orthogonal (a1 j10)", "Croatian Ties", CT_KINGS));
    // 26x26: from a1 to z26 and a26, from z1 to z26 and a26; a queen on m13 blocks one diagonal only.
    assert_eq!(number("#ray (a1 z26)", "One", ONE_KINGS), Some(1));
    assert_eq!(number("#ray (a1 z26)", "One", "O Kn1,kn26,Qm13"), Some(0));
    assert_eq!(number("#ray ([a1,z1] [a26,z26])", "One", ONE_KINGS), Some(2));
    assert_eq!(number("#ray ([a1,z1] [a26,z26])", "One", "O Kn1,kn26,Qm13"), Some(2));
}

#[test]
fn light_and_dark() {
    assert_eq!(set_of("light [a1,b1,a2]", "Standard", KINGS), squares("b1 a2"));
    assert_eq!(set_of("dark [a1,b1,a2]", "Standard", KINGS), squares("a1"));
    assert_eq!(number("#light .", "Standard", KINGS), Some(32));
    assert!(matches("dark K", "Standard", KINGS) && !matches("light K", "Standard", KINGS), "e1 is dark");
    assert!(matches("light k", "Standard", KINGS), "e8 is light");
    // 10x10: j10 is dark (9 + 9 is even).
    assert_eq!(number("#light .", "Croatian Ties", CT_KINGS), Some(50));
    assert_eq!(set_of("light [a-j1]", "Croatian Ties", CT_KINGS), squares("b1 d1 f1 h1 j1"));
    assert!(matches("dark j10", "Croatian Ties", CT_KINGS) && !matches("light j10", "Croatian Ties", CT_KINGS));
    // 26x26: z1 and a26 are light, z26 dark.
    assert_eq!(number("#light .", "One", ONE_KINGS), Some(338));
    assert!(matches("light z1 light a26 dark z26", "One", ONE_KINGS));
    assert!(!matches("light z26", "One", ONE_KINGS));
    // 10x8: j1 is light, j8 dark.
    assert_eq!(number("#dark .", "Laser Chess", LASER_KINGS), Some(40));
    assert!(matches("light j1 dark j8", "Laser Chess", LASER_KINGS));
}

/// A position alone is a game of one position: initial when its ply (from its move counters) is
/// 0, and always terminal.
#[test]
fn initial_terminal_ply_and_move_number_of_positions() {
    assert!(matches("initial terminal", "Standard", START));
    assert!(!matches("initial", "Standard", "4k3/8/8/8/8/8/8/4K3 b - - 0 1"), "ply 1");
    assert!(!matches("initial", "Standard", "4k3/8/8/8/8/8/8/4K3 w - - 0 2"), "ply 2");
    assert!(matches("terminal", "Standard", "4k3/8/8/8/8/8/8/4K3 b - - 0 40"));
    assert_eq!(number("ply", "Standard", "4k3/8/8/8/8/8/8/4K3 w - - 0 20"), Some(38));
    assert_eq!(number("ply", "Standard", "4k3/8/8/8/8/8/8/4K3 b - - 0 20"), Some(39));
    assert_eq!(number("movenumber", "Standard", "4k3/8/8/8/8/8/8/4K3 b - - 0 20"), Some(20));
    // Setup strings start at move 1: Light to move is ply 0, Dark to move ply 1.
    assert!(matches("initial", "Croatian Ties", "Ct Ke1,ke10"));
    assert_eq!(number("ply", "Croatian Ties", "ct Ke1,ke10"), Some(1));
    assert_eq!(number("ply", "Croatian Ties", "4k5/10/10/10/10/10/10/10/10/4K5 b - - 0 12"), Some(23));
    assert_eq!(number("movenumber", "Croatian Ties", "4k5/10/10/10/10/10/10/10/10/4K5 b - - 0 12"), Some(12));
    let one = format!("{} w - - 0 7", one_kings_board());
    assert_eq!(number("ply", "One", &one), Some(12));
    assert!(matches("movenumber == 7 wtm", "One", &one));
}

#[test]
fn initial_terminal_ply_and_move_number_in_games() {
    let pgn = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"b\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 30\"]\n\n30. Kf2 Kf7 31. Kg3 *\n";
    assert_eq!(found("initial", pgn), [(1, vec![0]), (2, vec![0])]);
    assert_eq!(found("terminal", pgn), [(1, vec![3]), (2, vec![3])]);
    assert_eq!(found("ply == 2", pgn), [(1, vec![2]), (2, vec![2])]);
    // After 1...e5 and 2. Nf3 the move number is 2; the second game starts at move 30.
    assert_eq!(found("movenumber == 2", pgn), [(1, vec![2, 3])]);
    assert_eq!(found("movenumber == 31", pgn), [(2, vec![2, 3])]);
    assert_eq!(found("initial movenumber == 30", pgn), [(2, vec![0])]);
}

#[test]
fn fen_compares_the_board() {
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    assert!(matches(&format!("fen \"{board}\""), "Standard", START));
    assert!(!matches(
        &format!("fen \"{board}\""),
        "Standard",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    ));
    // Only the board part counts: the side to move and the rest are ignored.
    assert!(matches(&format!("fen \"{START}\""), "Standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 5 9"));
    // 10x10 and 26x26.
    assert!(matches("fen \"4k5/10/10/10/10/10/10/10/10/4K5\"", "Croatian Ties", CT_KINGS));
    assert!(!matches("fen \"4k5/10/10/10/10/10/10/10/10/4K5\"", "Croatian Ties", "Ct Ke1,ke10,Gc3"));
    let one = format!("fen \"{}\"", one_kings_board());
    assert!(matches(&one, "One", ONE_KINGS));
    assert!(!matches(&one, "One", "O Kn1,kn26,Ta1"), "an ownerless Star is a piece of the board too");
    // Under flipcolor the board's colours swap and its ranks mirror.
    assert!(matches("flipcolor fen \"4k3/8/8/8/8/8/8/4K2R\"", "Standard", "4k2r/8/8/8/8/8/8/4K3 w - - 0 1"));
    assert!(!matches("fen \"4k3/8/8/8/8/8/8/4K2R\"", "Standard", "4k2r/8/8/8/8/8/8/4K3 w - - 0 1"));
}

#[test]
fn power_counts_material() {
    // P 8, N 6, B 6, R 10, Q 9, K 0.
    assert_eq!(number("power A", "Standard", START), Some(39));
    assert_eq!(number("power [Aa]", "Standard", START), Some(78));
    assert_eq!(number("power .", "Standard", START), Some(78));
    assert_eq!(number("power [Qq]", "Standard", START), Some(18));
    assert_eq!(number("power K", "Standard", START), Some(0));
    assert!(matches("power A == power a", "Standard", START));
    // The backhand counts piece by piece: two knights, a pawn and a queen.
    let zh = "4k3/8/8/8/8/8/8/4K3[NNpq] w - - 0 1";
    assert_eq!(number("power [+]", "Crazyhouse", zh), Some(16));
    assert_eq!(number("power N[+]", "Crazyhouse", zh), Some(6));
    assert_eq!(number("power [*]", "Crazyhouse", zh), Some(16));
    // Croatian Ties: the Pegasus has no value in the table; P 10, N 6, B 6, R 10, Q 9.
    assert_eq!(number("power A", "Croatian Ties", CT_START), Some(41));
    assert_eq!(number("power G", "Croatian Ties", CT_START), Some(0));
    // One: of the pieces here only the queen has a value (U is the Unicorn in One, &U; any piece).
    let one = "O Ta1,tz1,ta26,Tz26,Mb8,my19,Kn1,kn26,If13,im14,Qm1";
    assert_eq!(number("power &U;", "One", one), Some(9));
    assert_eq!(number("power .", "Laser Chess", LASER_KINGS), Some(0));
}

// ===== Moves ==================================================================================

#[test]
fn legal_moves_from_the_start() {
    // From-squares: eight pawns and two knights. To-squares: ranks 3 and 4.
    assert_eq!(number("#move legal", "Standard", START), Some(10));
    // Without `legal`, `move` is the move played next: a position alone has none.
    assert!(!matches("move", "Standard", START));
    assert_eq!(number("#move legal to .", "Standard", START), Some(16));
    assert_eq!(set_of("move legal from N", "Standard", START), squares("b1 g1"));
    // The part written first is the value: from-squares, or to-squares.
    assert_eq!(set_of("move legal to . from N", "Standard", START), squares("a3 c3 f3 h3"));
    assert_eq!(set_of("move legal from N to .", "Standard", START), squares("b1 g1"));
    assert_eq!(set_of("move legal to e4", "Standard", START), squares("e4"));
    assert_eq!(set_of("move legal from e2", "Standard", START), squares("e2"));
    assert!(!matches("move legal to e5", "Standard", START), "Black's moves are not legal now");
    let fools_mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    assert!(matches("not move legal", "Standard", fools_mate));
}

#[test]
fn legal_captures_en_passant_promotions_castling_and_drops() {
    let capture = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(set_of("move legal from . capture d5", "Standard", capture), squares("e4"));
    assert_eq!(set_of("move legal capture d5", "Standard", capture), squares("d5"));
    assert_eq!(set_of("move legal to . capture p", "Standard", capture), squares("d5"));
    assert_eq!(set_of("move legal capture p from .", "Standard", capture), squares("d5"), "the captured piece");
    assert!(!matches("move legal capture P", "Standard", capture));
    let en_passant = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    assert_eq!(set_of("move legal enpassant", "Standard", en_passant), squares("e5"));
    assert_eq!(set_of("move legal enpassant to .", "Standard", en_passant), squares("d6"));
    assert_eq!(set_of("move legal enpassant from . capture d5", "Standard", en_passant), squares("e5"));
    assert_eq!(set_of("move legal enpassant capture .", "Standard", en_passant), squares("d5"));
    assert!(!matches("move legal enpassant", "Standard", "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2"));
    let promotion = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(set_of("move legal promote Q", "Standard", promotion), squares("a7"));
    assert_eq!(set_of("move legal promote [RBN] to .", "Standard", promotion), squares("a8"));
    assert_eq!(set_of("move legal to . from P", "Standard", promotion), squares("a8"));
    // Piece kinds, whatever their colour, as in CQL 6.2.
    assert_eq!(set_of("move legal promote q", "Standard", promotion), squares("a7"));
    assert_eq!(set_of("move legal promote Q", "Standard", "4k3/8/8/8/8/8/p7/4K3 b - - 0 1"), squares("a2"));
    let castling = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(set_of("move legal castle", "Standard", castling), squares("e1"));
    assert_eq!(set_of("move legal castle to .", "Standard", castling), squares("c1 g1"));
    assert_eq!(set_of("move legal o-o to .", "Standard", castling), squares("g1"));
    assert_eq!(set_of("move legal O-O-O to .", "Standard", castling), squares("c1"));
    assert!(!matches("move legal o-o-o", "Standard", "r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1"), "no right");
    // Rf8 covers f1: White may castle long only.
    let covered = "r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1";
    assert!(!matches("move legal o-o", "Standard", covered));
    assert_eq!(set_of("move legal o-o-o", "Standard", covered), squares("e1"));
    // Drops: a knight on any of the 62 empty squares, a pawn on the 48 of ranks 2 to 7.
    let knight = "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1";
    assert_eq!(number("#move legal drop", "Crazyhouse", knight), Some(62));
    assert_eq!(number("#move legal drop to [a-h1]", "Crazyhouse", knight), Some(7));
    assert_eq!(set_of("move legal drop to e4", "Crazyhouse", knight), squares("e4"));
    assert_eq!(number("#move legal drop", "Crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1"), Some(48));
    assert_eq!(number("#move legal drop", "Standard", knight), Some(0), "captured pieces are not dropped");
}

#[test]
fn pseudo_legal_moves_ignore_the_kings_safety() {
    // Nd2 is pinned by Bb4, and Rf8 covers f1 and f2: pseudo-legal moves take no heed of either.
    let pinned = "4kr2/8/8/8/1b6/8/3N4/4K3 w - - 0 1";
    assert!(!matches("move legal from N", "Standard", pinned));
    assert_eq!(set_of("move pseudolegal to . from N", "Standard", pinned), squares("b1 f1 b3 f3 c4 e4"));
    assert_eq!(set_of("move legal to . from K", "Standard", pinned), squares("d1 e2"));
    assert_eq!(set_of("move pseudolegal to . from K", "Standard", pinned), squares("d1 f1 e2 f2"));
    // Castling stays legal castling: never out of check.
    let checked = "4k3/8/8/8/8/8/8/r3K2R w K - 0 1";
    assert!(!matches("move pseudolegal castle", "Standard", checked));
    assert!(matches("move pseudolegal castle", "Standard", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"));
}

#[test]
fn no_previous_move_for_a_position_alone() {
    assert!(!matches("move previous", "Standard", START));
    assert!(!matches("move previous", "Standard", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"));
    assert!(matches("not move previous", "Standard", START));
}

/// Plies: 1 e4, 2 e5, 3 Nf3, 4 Nc6, 5 Bb5, 6 a6, 7 Bxc6, 8 dxc6, 9 O-O.
const RUY_LOPEZ: &str = "[Event \"exchange\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O *\n";

#[test]
fn previous_moves_in_a_game() {
    let plies =
        |query: &str| -> Vec<u32> { found(query, RUY_LOPEZ).into_iter().flat_map(|(_, plies)| plies).collect() };
    assert_eq!(plies("move previous"), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert_eq!(plies("move previous from P"), [1]);
    assert_eq!(plies("move previous from [Pp]"), [1, 2, 6, 8]);
    // The sets are looked for in the position before the move: the bishop stood on f1, then b5.
    assert_eq!(plies("move previous from B"), [5, 7]);
    assert_eq!(plies("move previous from Bf1"), [5]);
    assert_eq!(plies("move previous from e2 to e4"), [1]);
    assert_eq!(plies("move previous to c6"), [4, 7, 8]);
    assert_eq!(plies("move previous capture [Aa]"), [7, 8]);
    assert_eq!(plies("move previous capture n"), [7]);
    assert_eq!(plies("move previous capture B"), [8]);
    assert_eq!(plies("move previous castle"), [9]);
    assert_eq!(plies("move previous o-o to g1 from Ke1"), [9]);
    assert_eq!(plies("move previous o-o-o"), Vec::<u32>::new());
    // The value: to-squares with `to`, from-squares without.
    assert_eq!(plies("move previous to . == 1 and [c6] in move previous to ."), [4, 7, 8]);
    assert_eq!(plies("[b5] in move previous"), [7]);
    // The move played next: Bf1-b5 is played after 2...Nc6. A legal one: after 1...e5 too.
    assert_eq!(plies("move from Bf1 to b5"), [4]);
    assert_eq!(plies("move legal from Bf1 to b5"), [2, 4]);
}

#[test]
fn previous_en_passant_and_drops_in_games() {
    let pgn = "[Event \"ep\"]\n\n1. e4 a6 2. e5 d5 3. exd6 *\n";
    let plies = |query: &str, pgn: &str| -> Vec<u32> { found(query, pgn).into_iter().flat_map(|(_, p)| p).collect() };
    assert_eq!(plies("move previous enpassant", pgn), [5]);
    assert_eq!(plies("move previous capture d5", pgn), [5], "the captured pawn's square");
    assert_eq!(plies("move previous enpassant to d6", pgn), [5]);
    assert_eq!(plies("move enpassant from e5 capture d5", pgn), [4]);
    // Crazyhouse: 4. P@d5 and 4... P@e4 are drops; they have no from-square.
    let zh = "[Event \"zh\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d5 P@e4 *\n";
    assert_eq!(plies("move previous drop", zh), [7, 8]);
    assert_eq!(plies("move previous drop to d5", zh), [7]);
    assert_eq!(plies("move previous from .", zh), [1, 2, 3, 4, 5, 6]);
    // The value: from-squares (3. exd5 left e4), and a drop's to-square (4... P@e4).
    assert_eq!(plies("[e4] in move previous", zh), [3, 8]);
}

// ===== Transforms =============================================================================

#[test]
fn flips_and_rotations() {
    // As in CQL 6.2: `fliphorizontal` mirrors across the horizontal middle line (a1 to a8),
    // `flipvertical` across the vertical one (a1 to h1).
    assert!(matches("fliphorizontal Ka1", "Standard", "K7/8/8/8/8/8/8/7k w - - 0 1"));
    assert!(!matches("flipvertical Ka1", "Standard", "K7/8/8/8/8/8/8/7k w - - 0 1"));
    assert!(matches("flipvertical Ka1", "Standard", "k7/8/8/8/8/8/8/7K w - - 0 1"));
    assert!(matches("fliphorizontal Ke8", "Standard", START), "the white king's starting square, mirrored");
    assert!(!matches("flipvertical Ke8", "Standard", START));
    // The diagonal flip swaps files and ranks: Rb1 becomes Ra2.
    let ka1_ra2 = "4k3/8/8/8/8/8/R7/K7 w - - 0 1";
    assert!(matches("flipdiagonal {Ka1 Rb1}", "Standard", ka1_ra2));
    assert!(!matches("flipvertical {Ka1 Rb1}", "Standard", ka1_ra2));
    // The other diagonal: h1 stays, h2 goes to g1.
    assert!(matches("flipoffdiagonal {Kh1 Rh2}", "Standard", "4k3/8/8/8/8/8/8/6RK w - - 0 1"));
    // Quarter turns take a1 to every corner, and nowhere else.
    assert!(matches("rotate90 Ka1", "Standard", "k7/8/8/8/8/8/8/7K w - - 0 1"));
    assert!(!matches("rotate90 Ka1", "Standard", "k7/8/8/8/8/8/8/1K6 w - - 0 1"));
    // flipcolor swaps the side to move: wtm Ka1 or btm ka8.
    assert!(matches("flipcolor {wtm Ka1}", "Standard", "k7/8/8/8/8/8/8/7K b - - 0 1"));
    assert!(!matches("flipcolor {wtm Ka1}", "Standard", "k7/8/8/8/8/8/8/7K w - - 0 1"));
}

#[test]
fn transformed_numbers_and_sets() {
    // Rooks on a8, g8, h8 and a1: three on rank 8, one on rank 1; the maximum is 3.
    let rooks = "R5RR/8/8/2k5/8/8/8/R3K3 w - - 0 1";
    assert_eq!(number("fliphorizontal #R[a-h1]", "Standard", rooks), Some(3));
    assert!(matches("fliphorizontal #R[a-h1] == 3", "Standard", rooks));
    // A transformed set is the union of its copies: Ra1 and Ra8.
    assert_eq!(number("#fliphorizontal R[a1]", "Standard", rooks), Some(2));
    assert_eq!(set_of("fliphorizontal Ra1", "Standard", rooks), squares("a1 a8"));
}

/// `light` and `dark` swap under a transform that takes light squares to dark ones, as in CQL
/// 6.2: the mirror of `light Ka8` across the ranks of 8x8 is `dark Ka1`.
#[test]
fn shades_swap_where_transforms_swap_the_squares_shades() {
    // Ka1: a1 is dark, and a8 light.
    let ka1 = "4k3/8/8/8/8/8/8/K7 w - - 0 1";
    assert!(matches("fliphorizontal light Ka8", "Standard", ka1));
    assert!(!matches("fliphorizontal dark Ka8", "Standard", ka1));
    // A half turn keeps the shades on 8x8, a step sideways swaps them.
    assert!(!matches("rotate90 light Kh8", "Standard", ka1) && matches("rotate90 dark Kh8", "Standard", ka1));
    assert!(matches("shifthorizontal light Kb1", "Standard", ka1));
    // flipcolor mirrors the ranks: a white bishop on a light square, or a black one on a dark one.
    assert!(!matches("flipcolor light B", "Standard", "2b1k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    assert!(matches("flipcolor light B", "Standard", "1b2k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    // CQL 6.2's counts: every placement of a1 and b1 has one square of each shade; the four
    // corners each hold the mirror of `dark a1`.
    assert_eq!(number("shift count (light [a1,b1])", "Standard", KINGS), Some(64));
    assert_eq!(number("flip count (dark a1)", "Standard", KINGS), Some(4));
    // On 10x10 as on 8x8, a mirror across the ranks takes the dark a1 to the light a10.
    assert!(matches("fliphorizontal light Ka10", "Croatian Ties", "Ct Ka1,ke10"));
    assert!(!matches("fliphorizontal dark Ka10", "Croatian Ties", "Ct Ka1,ke10"));
}

/// Copies written alike count once, as in CQL 6.2: under `flip`, `{Ra1 Rh8}` has the copies
/// `{Ra1 Rh8}`, `{Rh8 Ra1}`, `{Ra8 Rh1}` and `{Rh1 Ra8}` (the order of their parts is kept),
/// and the single set `R[a1,h8]` two.
#[test]
fn copies_written_alike_count_once() {
    let rooks = "R7/8/8/8/3k4/8/8/4K2R w - - 0 1";
    // The values are CQL 6.2's.
    assert_eq!(number("flip count {Ra1 Rh8}", "Standard", rooks), Some(2));
    assert_eq!(number("flip count (Ra1 | Rh8)", "Standard", rooks), Some(2));
    assert_eq!(number("flip count R[a1,h8]", "Standard", rooks), Some(1));
    assert_eq!(number("flip count ({Ra1 Rh8} or not {Ra1 Rh8})", "Standard", rooks), Some(4));
    assert_eq!(number("flip count (Ra1 and Rh8 or not (Ra1 and Rh8))", "Standard", rooks), Some(4));
    assert_eq!(number("flip count (#Ra1 == #Rh8)", "Standard", KINGS), Some(4));
    let always = "flip count ((Ra1 | Rd5 | Rh8) or not (Ra1 | Rd5 | Rh8))";
    assert_eq!(number(always, "Standard", KINGS), Some(8));
    let always = "flip count ((Ra1 & Rd5 & Rh8) or not (Ra1 & Rd5 & Rh8))";
    assert_eq!(number(always, "Standard", KINGS), Some(8));
    // In the initial position, {Ra1 Rh1} and its mirror {Rh1 Ra1} both match.
    assert_eq!(number("flip count {Ra1 Rh1}", "Standard", START), Some(2));
    assert!(matches("flip 2 {Ra1 Rh1}", "Standard", START) && !matches("flip 1 {Ra1 Rh1}", "Standard", START));
}

/// The number of copies a transform makes: each query's filter matches in every copy (a square
/// designator is never empty), so `T count F` is the number of distinct copies. As in CQL 6.2, a
/// shift keeps a copy while each designator keeps a square on the board, and a whole rank (file)
/// stays whole when it moves sideways (up or down). On 8x8 the counts are CQL 6.2's; on the other
/// boards, those of the same rules worked out square by square.
#[test]
fn copies_on_the_8x8_board() {
    let count = |query: &str| number(query, "Standard", KINGS);
    assert_eq!(count("shift count [a1]"), Some(64));
    assert_eq!(count("shift count [a1,b3]"), Some(82));
    assert_eq!(count("shifthorizontal count [a1,b3]"), Some(9));
    assert_eq!(count("shiftvertical count [a1,b3]"), Some(10));
    assert_eq!(count("shift count [a1,h8]"), Some(65));
    assert_eq!(count("shift count [a-h1]"), Some(8));
    assert_eq!(count("shift count [a-g1]"), Some(112));
    assert_eq!(count("shift count [a1-8,b5]"), Some(72));
    assert_eq!(count("shift count [a-h4,c1,d7]"), Some(122));
    // A designator covering the whole board (K, .) keeps every square: it is "anywhere".
    assert_eq!(count("shift count {[a1,b3] K .}"), Some(82));
    // {a1,b3} has eight distinct images; a corner four; {d4,e5} two (the flips through the
    // centre give {d5,e4}, the turns and diagonal flips repeat one of the two).
    assert_eq!(count("flip count [a1,b3]"), Some(8));
    assert_eq!(count("flip count [a1]"), Some(4));
    assert_eq!(count("flip count [d4,e5]"), Some(2));
    assert_eq!(count("rotate90 count [a1,b3]"), Some(4));
    assert_eq!(count("flipdiagonal count [a1,h8]"), Some(1));
    assert_eq!(count("flipcolor count [a1]"), Some(2));
    assert_eq!(count("flipcolor count [a4,a5]"), Some(1));
    // Both kings are there: K and its flipcolor copy k both match; wtm and btm one of two.
    assert_eq!(count("flipcolor count K"), Some(2));
    assert_eq!(count("flipcolor count wtm"), Some(1));
}

#[test]
fn copies_on_the_10x8_board_of_laser_chess() {
    let count = |query: &str| number(query, "Laser Chess", LASER_KINGS);
    // 10 files, 8 ranks: 80 squares.
    assert_eq!(count("shift count [a1]"), Some(80));
    assert_eq!(count("shift count [a1,b3]"), Some(102));
    assert_eq!(count("shifthorizontal count [a1,b3]"), Some(11));
    assert_eq!(count("shiftvertical count [a1,b3]"), Some(10));
    assert_eq!(count("shift count [a1,j8]"), Some(81));
    assert_eq!(count("shift count [a-j1]"), Some(8));
    // Four symmetries on 10x8: identity, the two flips and the half turn.
    assert_eq!(count("flip count [a1,b3]"), Some(4));
    assert_eq!(count("flip count [a1]"), Some(4));
    // {e4,f5} sits on the centre: both flips give {e5,f4}, the half turn gives it back.
    assert_eq!(count("flip count [e4,f5]"), Some(2));
    assert_eq!(count("flip count [a1,j8]"), Some(2));
    assert_eq!(count("flip count ."), Some(1));
    assert_eq!(count("fliphorizontal count [a1]"), Some(2));
    // The ranks 4 and 5 mirror each other, as do the files e and f.
    assert_eq!(count("fliphorizontal count [e4,e5]"), Some(1));
    assert_eq!(count("flipvertical count [e4,f4]"), Some(1));
    assert_eq!(count("flipvertical count [e4,e5]"), Some(2));
    assert_eq!(count("flipcolor count [a1]"), Some(2));
    assert_eq!(count("flipcolor count [a4,a5]"), Some(1));
    assert_eq!(count("flipcolor count K"), Some(2));
    // The kings of Laser Chess, slid: Ke1 matches one placement of Ka1 among the 80.
    assert_eq!(count("shift count Ka1"), Some(1));
    // Blocks: each square must stay on the board, 9 x 6 times.
    assert_eq!(count("shift count {a1 b3}"), Some(54));
    assert_eq!(count("flip count {a1 b3}"), Some(4));
    assert_eq!(count("flipcolor count {a1 b3}"), Some(2));
    // Both squares empty: of the 54 placements (files a-i, ranks 1-6 for a1), two put a king on
    // one of them: a1 on e1, and b3 on e8 (a1 on d6).
    assert_eq!(count("shift count {_a1 _b3}"), Some(52));
    // Of the 102 copies of one designator, two are a king's square alone: {e1} and {e8}.
    assert_eq!(count("shift count _[a1,b3]"), Some(100));
}

#[test]
fn copies_on_the_10x10_board_of_croatian_ties() {
    let count = |query: &str| number(query, "Croatian Ties", CT_KINGS);
    assert_eq!(count("shift count [a1]"), Some(100));
    assert_eq!(count("shift count [a1,b3]"), Some(124));
    assert_eq!(count("shift count {a1 b3}"), Some(9 * 8));
    assert_eq!(count("flip count [a1,b3]"), Some(8));
    assert_eq!(count("flip count [e5,f6]"), Some(2));
    assert_eq!(count("flipcolor count [a5,a6]"), Some(1));
    // Ke1 and ke10: flipcolor maps one onto the other.
    assert_eq!(count("flipcolor count Ke1"), Some(2));
}

#[test]
fn copies_on_the_26x26_board_of_one() {
    let count = |query: &str| number(query, "One", ONE_KINGS);
    assert_eq!(count("shift count [a1]"), Some(676));
    assert_eq!(count("shift count [a1,b3]"), Some(748));
    assert_eq!(count("shifthorizontal count [a1,b3]"), Some(27));
    assert_eq!(count("shiftvertical count [a1,b3]"), Some(28));
    assert_eq!(count("shift count [a1,z1]"), Some(702));
    assert_eq!(count("shift count [a-z1]"), Some(26));
    assert_eq!(count("flip count [a1,b3]"), Some(8));
    assert_eq!(count("flip count [a1]"), Some(4));
    assert_eq!(count("flip count [m13,n14]"), Some(2));
    assert_eq!(count("rotate90 count [a1,b3]"), Some(4));
    assert_eq!(count("flipdiagonal count [a1,b2]"), Some(1));
    assert_eq!(count("flipoffdiagonal count [a26,b25]"), Some(1));
    assert_eq!(count("flipcolor count [a1]"), Some(2));
    assert_eq!(count("flipcolor count [a13,a14]"), Some(1));
    // Copies that match depend on the board: Kn1 is one of the 676 placements of Ka1, and the
    // eight images of n1 (n26 m1 a14 z13 a13 m26 z14) hold no other white king.
    assert_eq!(count("shift count Ka1"), Some(1));
    assert_eq!(count("flip count Kn1"), Some(1));
    assert_eq!(count("flipcolor count Kn1"), Some(2), "Kn1 and kn26");
    assert_eq!(count("shift count {a1 b3}"), Some(600));
    assert_eq!(count("flip count {a1 b3}"), Some(8));
    assert_eq!(count("flipcolor count {a1 b3}"), Some(2));
    // Of the 600 placements, a1 on n1 and b3 on n26 (a1 on m24) hold a king.
    assert_eq!(count("shift count {_a1 _b3}"), Some(598));
    assert_eq!(count("shift count _[a1,b3]"), Some(746));
}

#[test]
fn sets_on_big_boards() {
    assert_eq!(number("#.", "One", ONE_KINGS), Some(676));
    assert_eq!(number("#~K", "One", ONE_KINGS), Some(675));
    assert_eq!(number("#(K | k | [a1,n1])", "One", ONE_KINGS), Some(3));
    assert_eq!(number("#([a-z1] & [n?])", "One", ONE_KINGS), Some(1));
    assert!(matches("[n1,n26] in [Kk] and #_ == 674", "One", ONE_KINGS));
    assert_eq!(number("#[j?]", "Croatian Ties", CT_KINGS), Some(10));
    assert_eq!(number("#~[a-j1-2,a-j9-10]", "Croatian Ties", CT_START), Some(60));
    assert!(matches("[a-j1-2,a-j9-10] in [&A;&a;_] and #[&A;&a;] == 40", "Croatian Ties", CT_START));
}

// ===== Sequences ==============================================================================

/// Positions: 0 start, 1 e4, 2 e5, 3 Ke2, 4 Ke7, 5 Ke1, 6 Ke8. The white king is on e1 at
/// 0, 1, 2, 5, 6 and on e2 at 3, 4.
const KING_WALK: &str = "[Event \"walk\"]\n\n1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 *\n";

#[test]
fn line_quantifiers() {
    let plies = |query: &str| -> Vec<u32> { found(query, KING_WALK).into_iter().flat_map(|(_, p)| p).collect() };
    assert_eq!(plies("line --> Ke1{3}"), [0]);
    assert_eq!(plies("line --> Ke1{2}"), [0, 1, 5]);
    assert_eq!(plies("line --> Ke1{2,}"), [0, 1, 5]);
    assert_eq!(plies("line --> Ke1{1,2} --> Ke2"), [1, 2]);
    assert_eq!(plies("line --> Ke1+ --> Ke2"), [0, 1, 2]);
    assert_eq!(plies("line --> Ke1* --> Ke2"), [0, 1, 2, 3, 4]);
    assert_eq!(plies("line --> Ke1? --> Ke2"), [2, 3, 4]);
    assert_eq!(plies("line --> Ke1* --> Ke2{2}"), [0, 1, 2, 3]);
    assert_eq!(plies("line --> Ke2 --> Ke1{2}"), [4]);
    assert_eq!(plies("line --> Ke1 --> Ke1 --> Ke1 --> Ke1"), Vec::<u32>::new());
    assert_eq!(plies("line --> Ke2{2} --> Ke1 --> terminal"), [3]);
    // A `+` or `?` right after a piece repeats the constituent, as in CQL 6.2: it is no tier
    // there, and `k?` no file.
    assert_eq!(plies("line --> K+ --> Ke2"), [0, 1, 2, 3]);
    assert_eq!(plies("line --> k? --> Ke2"), [2, 3, 4]);
    assert_eq!(plies("line --> (K+) --> Ke2"), [0, 1, 2, 3]);
}

#[test]
fn lines_of_a_position_alone() {
    assert!(matches("line --> wtm", "Standard", START));
    assert!(matches("line --> wtm --> btm*", "Standard", START));
    assert!(!matches("line --> wtm --> btm", "Standard", START), "no position follows");
    assert!(!matches("line --> wtm{2}", "Standard", START));
}

// ===== Game filters ===========================================================================

const TAGGED: &str = r#"[Event "Norway Chess"]
[Site "Stavanger NOR"]
[Date "2019.06.04"]
[White "Carlsen, Magnus"]
[Black "Caruana, Fabiano"]
[Result "1-0"]
[WhiteElo "2850"]
[BlackElo "2820"]
[ECO "C65"]
[Opening "Ruy Lopez"]

1. e4 e5 1-0

[Event "Tata Steel"]
[Site "Wijk aan Zee NED"]
[Date "2020.01.20"]
[White "Nakamura, Hikaru"]
[Black "Carlsen, Magnus"]
[Result "0-1"]
[WhiteElo "2750"]
[BlackElo "2860"]
[ECO "B90"]

1. e4 c5 0-1

[Event "World Blitz"]
[Date "????.??.??"]
[White "Carlsen, Magnus"]
[Black "Anand, Viswanathan"]
[Result "0-1"]
[BlackElo "2760"]
[ECO "A00"]

1. a3 e5 0-1
"#;

/// The numbers of the games that match.
fn games(query: &str, pgn: &str) -> Vec<u64> {
    found(query, pgn).into_iter().map(|(number, _)| number).collect()
}

#[test]
fn result_and_players() {
    assert_eq!(games("result 1-0", TAGGED), [1]);
    assert_eq!(games("result 0-1", TAGGED), [2, 3]);
    assert_eq!(games("result 1/2-1/2", TAGGED), Vec::<u64>::new());
    let draw = "[Event \"d\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n";
    assert_eq!(games("result 1/2", draw), [1], "1/2 is short for 1/2-1/2");
    assert_eq!(games("flipcolor result 1/2-1/2", draw), [1]);
    assert_eq!(games("player \"Carlsen\"", TAGGED), [1, 2, 3]);
    assert_eq!(games("player white \"Carlsen\"", TAGGED), [1, 3]);
    assert_eq!(games("player black \"Carlsen\"", TAGGED), [2]);
    assert_eq!(games("player \"carlsen\"", TAGGED), Vec::<u64>::new(), "case-sensitive");
    assert_eq!(games("player white \"Magnus\" result 0-1", TAGGED), [3]);
    // Game filters alone match every position of a game they match, as in CQL 6.2.
    assert_eq!(found("player black \"Carlsen\"", TAGGED), [(2, vec![0, 1, 2])]);
}

#[test]
fn ratings_and_years() {
    assert_eq!(games("elo white >= 2800", TAGGED), [1]);
    assert_eq!(games("elo black > 2850", TAGGED), [2]);
    // Without a side, the higher rating: 2850, 2860, and 2760 where only Black has one.
    assert_eq!(games("elo > 2840", TAGGED), [1, 2]);
    assert_eq!(games("elo < 2800", TAGGED), [3]);
    assert_eq!(games("elo white < 3000", TAGGED), [1, 2], "a missing rating has no value");
    assert_eq!(games("elo white", TAGGED), [1, 2]);
    assert_eq!(games("elo", TAGGED), [1, 2, 3]);
    assert_eq!(games("year == 2019", TAGGED), [1]);
    assert_eq!(games("year >= 2019", TAGGED), [1, 2]);
    assert_eq!(games("year", TAGGED), [1, 2], "an unknown date has no year");
}

#[test]
fn tags() {
    assert_eq!(games("event \"Chess\"", TAGGED), [1]);
    assert_eq!(games("site \"NED\"", TAGGED), [2]);
    assert_eq!(games("\"\" in site", TAGGED), [1, 2, 3], "game 3 has no Site tag: its site reads as ?");
    assert_eq!(games("site == \"?\"", TAGGED), [3]);
    assert_eq!(games("date \"2019\"", TAGGED), [1]);
    assert_eq!(games("eco \"C6\"", TAGGED), [1]);
    assert_eq!(games("eco \"c65\"", TAGGED), Vec::<u64>::new(), "case-sensitive");
    assert_eq!(games("\"Ruy\" in tag \"Opening\"", TAGGED), [1]);
    assert_eq!(games("tag \"Opening\"", TAGGED), [1]);
    assert_eq!(games("\"\" in tag \"Annotator\"", TAGGED), Vec::<u64>::new(), "a missing tag never matches");
    assert_eq!(games("tag \"White\" ~~ \"Naka\"", TAGGED), [2]);
}

#[test]
fn variant_of_the_game() {
    let pgn = format!("{TAGGED}\n[Event \"zh\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 e5 *\n");
    assert_eq!(games("variant \"Standard\"", &pgn), [1, 2, 3]);
    assert_eq!(games("variant \"Crazyhouse\"", &pgn), [4]);
    assert_eq!(games("variant \"zh\"", &pgn), [4], "an alias of the variant");
    assert_eq!(games("variant \"Chess960\"", &pgn), Vec::<u64>::new());
    assert!(matches("variant \"Croatian Ties\"", "Croatian Ties", CT_KINGS));
    assert!(!matches("variant \"Standard\"", "Croatian Ties", CT_KINGS));
}

/// `flipcolor {player white "Carlsen" result 1-0}`: Carlsen won, with either colour.
#[test]
fn flipcolor_swaps_players_and_results() {
    let pgn = r#"[Event "A"]
[White "Carlsen, Magnus"]
[Black "Caruana, Fabiano"]
[Result "1-0"]

1. e4 e5 1-0

[Event "B"]
[White "Nakamura, Hikaru"]
[Black "Carlsen, Magnus"]
[Result "0-1"]

1. e4 e5 0-1

[Event "C"]
[White "Carlsen, Magnus"]
[Black "Anand, Viswanathan"]
[Result "0-1"]

1. e4 e5 0-1

[Event "D"]
[White "Ding, Liren"]
[Black "Carlsen, Magnus"]
[Result "1-0"]

1. e4 e5 1-0
"#;
    assert_eq!(games("flipcolor {player white \"Carlsen\" result 1-0}", pgn), [1, 2]);
    assert_eq!(games("{player white \"Carlsen\" result 1-0}", pgn), [1]);
    assert_eq!(games("flipcolor count {player white \"Carlsen\" result 1-0} == 1", pgn), [1, 2]);
    // Tags named White and Black swap too.
    assert_eq!(games("flipcolor {\"Carlsen\" in tag \"White\"}", pgn), [1, 2, 3, 4]);
    assert_eq!(games("\"Carlsen\" in tag \"White\"", pgn), [1, 3]);
    // Ratings swap sides too.
    let rated = "[Event \"r\"]\n[WhiteElo \"2000\"]\n[BlackElo \"2700\"]\n\n1. e4 *\n";
    assert_eq!(games("flipcolor {elo white > 2500}", rated), [1]);
    assert_eq!(games("elo white > 2500", rated), Vec::<u64>::new());
}

// ===== sort ===================================================================================

/// White has a rook (5), a queen (9), a queen and a rook (14).
const MATERIAL: &str = r#"[Event "rook"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"]

1. Ra2 Kd8 *

[Event "queen"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"]

1. Qa2 Kd8 *

[Event "queen and rook"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/QR2K3 w - - 0 1"]

1. Qa2 Kd8 *
"#;

#[test]
fn sort_orders_games_by_value() {
    let output = run_cqlq(&["search", "-c", "cql(sort \"material\" power A) wtm"], MATERIAL.as_bytes());
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    let events: Vec<&str> = text.lines().filter(|line| line.starts_with("[Event ")).collect();
    assert_eq!(events, ["[Event \"queen and rook\"]", "[Event \"queen\"]", "[Event \"rook\"]"], "{text}");
    // The value before the first move, then the marks of the positions (White to move at 0 and 2).
    assert!(text.contains("\n\n{material 14} {CQL} 1. Qa2 Kd8 {CQL} *\n"), "{text}");
    assert!(text.contains("\n\n{material 9} {CQL} 1. Qa2 Kd8 {CQL} *\n"), "{text}");
    assert!(text.contains("\n\n{material 5} {CQL} 1. Ra2 Kd8 {CQL} *\n"), "{text}");

    let output = run_cqlq(&["search", "-c", "cql(sort min \"material\" power A) wtm"], MATERIAL.as_bytes());
    let text = String::from_utf8(output.stdout).unwrap();
    let events: Vec<&str> = text.lines().filter(|line| line.starts_with("[Event ")).collect();
    assert_eq!(events, ["[Event \"rook\"]", "[Event \"queen\"]", "[Event \"queen and rook\"]"], "{text}");

    let output =
        run_cqlq(&["search", "-c", "cql(sort \"material\" power A) wtm", "--format", "jsonl"], MATERIAL.as_bytes());
    let text = String::from_utf8(output.stdout).unwrap();
    let sorts: Vec<&str> = text.lines().map(|line| line.split("\"sort\":").nth(1).unwrap_or("")).collect();
    assert_eq!(sorts.len(), 3, "{text}");
    assert!(sorts[0].starts_with("14") && sorts[1].starts_with('9') && sorts[2].starts_with('5'), "{text}");
}

/// The value is the largest over the matching positions only (here the positions after a
/// capture of a white piece, where White has less).
#[test]
fn sort_takes_the_matching_positions_only() {
    let pgn = r#"[Event "gives the queen"]
[SetUp "1"]
[FEN "3qk3/8/8/8/8/8/8/QR2K3 b - - 0 1"]

1... Qd1+ 2. Kxd1 Kd7 *

[Event "keeps the queen"]
[SetUp "1"]
[FEN "3qk3/8/8/8/8/8/8/QR2K3 b - - 0 1"]

1... Kd7 2. Qa2 Ke7 *
"#;
    // Black's material is 9 until 2.Kxd1 takes the queen, then 0. The smallest over all
    // positions would be 0; over the matching ones (after 1...Qd1+, White in check) it is 9.
    let output = run_cqlq(&["search", "-c", "cql(sort min \"black\" power a) check"], pgn.as_bytes());
    let text = String::from_utf8(output.stdout).unwrap();
    // Only game 1 has a position with the side to move in check (after 1...Qd1+): value 9.
    assert!(text.starts_with("[Event \"gives the queen\"]"), "{text}");
    assert!(text.contains("{black 9} 1... Qd1+ {CQL} 2. Kxd1 Kd7 *"), "{text}");
    assert!(!text.contains("keeps the queen"), "{text}");
}

// ===== Errors =================================================================================

/// The text cqlq shows for a query with mistakes, in a variant.
fn error(query: &str, variant_name: &str) -> String {
    let variant = common::variant(variant_name);
    match Query::parse_for(query, Some(variant)) {
        Err(error) => error.to_string(),
        Ok(parsed) => match parsed.compile(variant) {
            Err(error) => error.to_string(),
            Ok(_) => panic!("{query} has no mistake in {variant_name}"),
        },
    }
}

/// One rendered mistake: the message, the place, the line and a caret under `width` characters.
fn shown(message: &str, source: &str, line: usize, column: usize, width: usize) -> String {
    let text = source.lines().nth(line - 1).unwrap();
    let gutter = " ".repeat(line.to_string().len());
    format!(
        "error: {message}\n{gutter}--> query:{line}:{column}\n{gutter} |\n{line} | {text}\n{gutter} | {}{}\n",
        " ".repeat(column - 1),
        "^".repeat(width)
    )
}

#[test]
fn squares_off_the_board_in_the_new_filters() {
    let query = "between(a1 k1)";
    let file_k = "file k is outside the 8x8 board of Standard (files a-h)";
    assert_eq!(error(query, "Standard"), shown(file_k, query, 1, 12, 2));
    let rank_9 = "rank 9 is outside the 8x8 board of Standard (ranks 1-8)";
    let query = "ray (a1 a9)";
    assert_eq!(error(query, "Standard"), shown(rank_9, query, 1, 9, 2));
    let query = "pin through a9";
    assert_eq!(error(query, "Standard"), shown(rank_9, query, 1, 13, 2));
    let query = "move from i2 to e4";
    let file_i = "file i is outside the 8x8 board of Standard (files a-h)";
    assert_eq!(error(query, "Standard"), shown(file_i, query, 1, 11, 2));
    let query = "dark k1";
    assert_eq!(error(query, "Standard"), shown(file_k, query, 1, 6, 2));
    let query = "R attacks ke9";
    assert_eq!(error(query, "Standard"), shown(rank_9, query, 1, 12, 2));
    // Every mistake at once, each in its place.
    let query = "between(a1 k1) ray (a1 a9)\nmove previous capture i1";
    assert_eq!(
        error(query, "Standard"),
        [shown(file_k, query, 1, 12, 2), shown(rank_9, query, 1, 24, 2), shown(file_i, query, 2, 23, 2)].join("\n")
    );
    // Sized to the variant: k1 is on the 10x10 board but k11 is not; z27 is off 26x26.
    assert!(Query::parse("between(a1 j10)").unwrap().compile(common::variant("Croatian Ties")).is_ok());
    let query = "ray (a1 k1)";
    let message = "file k is outside the 10x10 board of Croatian Ties (files a-j)";
    assert_eq!(error(query, "Croatian Ties"), shown(message, query, 1, 9, 2));
    let query = "between(a1 z27)";
    let message = "rank 27 is outside the 26x26 board of One (ranks 1-26)";
    assert_eq!(error(query, "One"), shown(message, query, 1, 12, 3));
}

#[test]
fn transforms_that_need_a_square_board() {
    for (query, word) in
        [("rotate90 K", "rotate90"), ("flipdiagonal K", "flipdiagonal"), ("flipoffdiagonal K", "flipoffdiagonal")]
    {
        let message = format!("'{word}' needs a square board, and the 10x8 board of Laser Chess is not square");
        assert_eq!(error(query, "Laser Chess"), shown(&message, query, 1, 1, query.len()));
    }
    let query = "K\nshift count rotate90 count [a1,b3] > 2";
    let message = "'rotate90' needs a square board, and the 10x8 board of Laser Chess is not square";
    // The transform takes the whole filter after it, the comparison too.
    assert_eq!(error(query, "Laser Chess"), shown(message, query, 2, 13, 26));
    // flip and the shifts exist on 10x8.
    for query in ["flip K", "flipcolor K", "shift K", "shifthorizontal K", "shiftvertical K", "flipvertical K"] {
        assert!(Query::parse(query).unwrap().compile(common::variant("Laser Chess")).is_ok(), "{query}");
    }
}

#[test]
fn filters_that_need_check() {
    let laser_why = ": a beam that reaches a King removes it, and the game ends";
    let ceo_why = ": a side loses when its morale runs out, and a King is captured like any unit";
    for (variant, king, why) in [("Laser Chess", "K", laser_why), ("Chess Evolved Online", "KK", ceo_why)] {
        let no_check = |word: &str| format!("'{word}' needs check, and {variant} has no check{why}");
        for (query, word, width) in [
            ("check".to_owned(), "check", 5),
            ("mate".to_owned(), "mate", 4),
            ("stalemate".to_owned(), "stalemate", 9),
            ("pin".to_owned(), "pin", 3),
            (format!("pin to {king}"), "pin", 4 + 3 + king.len()),
        ] {
            assert_eq!(error(&query, variant), shown(&no_check(word), &query, 1, 1, width), "{variant}: {query}");
        }
    }
    // Laser Chess has attacks (what a beam would remove) and moves; Chess Evolved Online's
    // cqlq does not play yet.
    let not_played = |word: &str| {
        format!("'{word}' needs the rules of attack and moves of Chess Evolved Online, which cqlq does not play yet")
    };
    for (query, word, width) in
        [("KK attacks a1", "attacks", 13), ("a1 attackedby KK", "attacks", 16), ("move to a1", "move", 10)]
    {
        assert_eq!(error(query, "Chess Evolved Online"), shown(&not_played(word), query, 1, 1, width), "{query}");
        let query = query.replace("KK", "L");
        assert!(Query::parse(&query).unwrap().compile(common::variant("Laser Chess")).is_ok(), "{query}");
    }
    // The move that reached a position needs the games replayed, not the legal moves: Croatian
    // Chess has it.
    let not_replayed = "'move previous' needs the games of Chess Evolved Online replayed, which cqlq does not do yet";
    assert_eq!(error("move previous", "Chess Evolved Online"), shown(not_replayed, "move previous", 1, 1, 13));
    assert!(Query::parse("move previous cascade").unwrap().compile(common::variant("One")).is_ok());
    let legal = "'move' needs the rules of attack and moves of One, which cqlq does not play yet";
    assert_eq!(error("move legal", "One"), shown(legal, "move legal", 1, 1, 10));
    // The words about lasers are Laser Chess's vocabulary.
    for (query, width) in [("beam", 4), ("nextbeam", 8), ("hit", 3)] {
        assert!(Query::parse(query).unwrap().compile(common::variant("Laser Chess")).is_ok(), "{query}");
        let message = format!("'{query}' is a word of Laser Chess, and Standard has no such word");
        assert_eq!(error(query, "Standard"), shown(&message, query, 1, 1, width), "{query}");
    }
    for action in ["rotate", "swap"] {
        let query = format!("move previous {action}");
        assert!(Query::parse(&query).unwrap().compile(common::variant("Laser Chess")).is_ok(), "{query}");
        let message =
            format!("'move {action}' is an action of the moves of Laser Chess, and Standard has no such action");
        assert_eq!(error(&query, "Standard"), shown(&message, &query, 1, 15, action.len()), "{query}");
    }
    // Croatian Chess has check, but cqlq does not play it yet.
    let query = "pin from R";
    let message = "'pin' needs the rules of attack and moves of Croatian Ties, which cqlq does not play yet";
    assert_eq!(error(query, "Croatian Ties"), shown(message, query, 1, 1, 10));
    let query = "mate";
    let message = "'mate' needs the rules of attack and moves of One, which cqlq does not play yet";
    assert_eq!(error(query, "One"), shown(message, query, 1, 1, 4));
    // The filters that need no rules are fine there.
    let empty = vec!["26"; 26].join("/");
    for query in
        [format!("between(a1 z26) ray (a1 z26) light . fen \"{empty}\""), "shift count flip count a1 > 3".to_owned()]
    {
        assert!(Query::parse(&query).unwrap().compile(common::variant("One")).is_ok(), "{query}");
    }
}

#[test]
fn mistakes_in_the_new_filters() {
    let cases: [(&str, &str, usize, usize); 20] = [
        ("variant \"Makruk\"", "", 1, 16),
        ("line --> check{3,1}", "the count {3,1} runs backwards: the fewest comes first, as in {1,3}", 15, 5),
        (
            "move previous promote Qa1",
            "'promote' takes pieces without squares, such as Q or [RBN], and 'Qa1' is not one",
            23,
            3,
        ),
        (
            "move promote [RB]e8",
            "'promote' takes pieces without squares, such as Q or [RBN], and '[RB]e8' is not one",
            14,
            6,
        ),
        ("fen \"rnbqkbnr/ppp\"", "'rnbqkbnr/ppp' is no board of Standard: 2 ranks where the board has 8", 5, 14),
        ("light 3", "'light' takes sets of squares, and '3' is a number", 7, 1),
        ("power check", "'power' takes sets of squares, and 'check' is a filter", 7, 5),
        ("between(check a1)", "'between' takes sets of squares, and 'check' is a filter", 9, 5),
        ("ray (a1 #R)", "'ray' takes sets of squares, and '#R' is a number", 9, 2),
        ("pin from wtm", "'pin' takes sets of squares, and 'wtm' is a filter", 10, 3),
        ("move to 3", "'move' takes sets of squares, and '3' is a number", 9, 1),
        ("tag \"\"", "a tag's name cannot be empty", 5, 2),
        ("\"a\" in 3", "'in' works on texts, and '3' is a number", 8, 1),
        ("result 2-0", "expected a result such as 1-0 after 'result'", 8, 3),
        ("pin from", "expected a set of squares such as e4 or R after 'pin from'", 9, 1),
        ("move promote", "expected a piece such as Q or [RBN] after 'move promote'", 13, 1),
        ("flipcolor", "expected a filter such as Qh7 after 'flipcolor'", 10, 1),
        ("between a1 h8", "expected '(' after 'between'", 9, 2),
        ("line check", "unexpected 'check' after 'line'", 6, 5),
        ("cql(sort \"x\" check) K", "'sort' works on numbers (or the sizes of sets), and 'check' is a filter", 14, 5),
    ];
    for (query, message, column, width) in cases {
        let shown_text = error(query, "Standard");
        if message.is_empty() {
            // The list of known variants is long: check its start and the place.
            assert!(
                shown_text.starts_with("error: unknown variant 'Makruk' (known: Standard, Chess960, "),
                "{shown_text}"
            );
            assert!(
                shown_text.contains("\n --> query:1:1\n  |\n1 | variant \"Makruk\"\n  | ^^^^^^^^^^^^^^^^\n"),
                "{shown_text}"
            );
            continue;
        }
        assert_eq!(shown_text, shown(message, query, 1, column, width), "{query}");
    }
    // An unknown variant is a mistake whatever the variant compiled for.
    assert!(Query::parse("variant \"Makruk\"").is_err());
    // The Croatian Ties board has ten ranks.
    let query = "fen \"4k3/8/8/8/8/8/8/4K3\"";
    let message = "'4k3/8/8/8/8/8/8/4K3' is no board of Croatian Ties: 8 ranks where the board has 10";
    assert_eq!(error(query, "Croatian Ties"), shown(message, query, 1, 5, 21));
}

// ===== Long and deep queries ==================================================================

/// 20,000 terms joined by `and` (or by `or`) are a long query, not a deep one: it reads,
/// compiles, explains and matches as a short chain does, the terms tested in the order written.
#[test]
fn long_chains_of_and_and_or() {
    let terms = 20_000;
    // Only the last term decides: it is read and tested with all the others.
    for (op, filler, last, expected) in [(" and\n", "Ke1", "Kd1", false), (" or ", "Kd1", "Ke1", true)] {
        let mut parts = vec![filler; terms - 1];
        parts.push(last);
        let query = parts.join(op);
        let parsed = Query::parse(&query).unwrap_or_else(|e| panic!("{op:?}: {}", e.diagnostics()[0].message));
        let plan = parsed.compile(common::variant("Standard")).unwrap_or_else(|e| panic!("{op:?}: {e}"));
        assert_eq!(plan.matches(&common::position("Standard", KINGS)), expected, "{op:?} ending in {last}");
        let explained = cqlq::query::explain::text(&parsed, &plan);
        assert_eq!(explained.lines().filter(|line| line.trim_start().starts_with("pieces K")).count(), terms);
    }
}

/// Filters nested almost as deep as allowed read, compile and match (here on threads of
/// 2 MiB, in a debug build); one level more is a mistake that says so.
#[test]
fn deep_queries_compile_and_match() {
    for (query, expected) in [
        (format!("{}K", "light ~".repeat(119)), true),
        (format!("{}K", "flipcolor ".repeat(127)), true),
        (format!("{}Ka1", "not ".repeat(64)), false),
    ] {
        assert_eq!(matches(&query, "Standard", KINGS), expected, "{}", &query[..20]);
    }
    let message = Query::parse(&format!("{}K", "flipcolor ".repeat(128))).unwrap_err().diagnostics()[0].message.clone();
    assert_eq!(message, "filters nest more than 128 deep here");
}

// ===== The bugs found by these tests ==========================================================

/// A FEN tag whose side not to move is in check: the replay accepts it, the king can be
/// captured, and the next `check` test looks for a king that is gone.
#[test]
fn a_game_from_an_impossible_position_does_not_crash_the_search() {
    let pgn = "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"8/8/7r/5K2/8/k4Q1R/4q3/8 w - - 0 1\"]\n\n1. Qxa3 Qe4+ *\n";
    let output = run_cqlq(&["search", "-c", "check", "--count"], pgn.as_bytes());
    assert_ne!(output.status.code(), Some(101), "cqlq panicked: {}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn directions_reach_the_edge_of_every_board() {
    // 10x10: nine squares above a1, eighteen on its file and rank, and a range of steps.
    assert_eq!(number("#up a1", "Croatian Ties", CT_KINGS), Some(9));
    assert_eq!(number("#orthogonal a1", "Croatian Ties", CT_KINGS), Some(18));
    assert_eq!(number("#northeast a1", "Croatian Ties", CT_KINGS), Some(9));
    assert_eq!(set_of("up 8 9 a1", "Croatian Ties", CT_KINGS), squares("a9 a10"));
    assert_eq!(set_of("up 0 a1 | right 9 a1", "Croatian Ties", CT_KINGS), squares("a1 j1"), "j1 is the last file");
    assert_eq!(set_of("right -1 1 b1", "Croatian Ties", CT_KINGS), squares("a1 b1 c1"));
    // Beyond the longest line of the board, as CQL 6.2 refuses `up 8` on 8x8.
    assert!(Query::parse("right 10 a1").unwrap().compile(common::variant("Croatian Ties")).is_err());
    // 8x8, with the pieces standing in the way taking no part.
    let position = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    assert_eq!(number("#up Ke1", "Standard", position), Some(7));
    assert_eq!(set_of("down 1 2 e4", "Standard", position), squares("e2 e3"));
    assert_eq!(set_of("flipcolor up 1 Ke1 & Pe2", "Standard", position), squares("e2"));
}

#[test]
fn numbers_of_a_square_on_every_board() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(number("type Ke1", "Standard", start), Some(6));
    assert_eq!(number("colortype qd8", "Standard", start), Some(-5));
    assert_eq!(number("type e4", "Standard", start), Some(0));
    assert_eq!(number("type [e2,e7]", "Standard", start), None, "two squares: no value");
    assert_eq!(number("file h2 + rank h2", "Standard", start), Some(10));
    assert_eq!(set_of("makesquare(file Ke1 rank qd8)", "Standard", start), squares("e8"));
    assert!(!matches("makesquare(9 1)", "Standard", start));
    assert_eq!(number("sidetomove", "Standard", start), Some(1));
    assert!(matches("sidetomove == white and true and not false", "Standard", start));
    // 10x10: the Pegasus is the seventh piece of Croatian Ties; j10 is file 10, rank 10.
    assert_eq!(number("type b1", "Croatian Ties", CT_START), Some(7));
    assert_eq!(number("file j10 * rank j10", "Croatian Ties", CT_START), Some(100));
    assert_eq!(set_of("makesquare(10 10)", "Croatian Ties", CT_START), squares("j10"));
}

#[test]
fn nested_transforms_are_bounded_by_the_copies_they_make_together() {
    let standard = common::variant("Standard");
    assert!(Query::parse("flip flip flip flip flip Ka1").unwrap().compile(standard).is_ok());
    assert!(Query::parse("shift shift {Ka1 kb3 Rc4}").unwrap().compile(standard).is_ok());
    assert!(Query::parse(&format!("{}K", "flipcolor ".repeat(100))).unwrap().compile(standard).is_ok());
    // Each copy of a block of shifts and flips holds copies of its own: the work multiplies.
    // Found by fuzzing: counting flips over blocks of flips, where the copies do not merge. It
    // took 700 MB and 6 s to compile; the work is now bounded.
    let heavy = String::from_utf8_lossy(include_bytes!("fuzzed/nested-transforms.cql")).into_owned();
    let Err(error) = Query::parse_for(&heavy, Some(standard)) else { panic!("the fuzzed query is read") };
    assert!(error.to_string().contains("make too many copies of it together"), "{error}");
}

/// A move number at the largest count a FEN may give goes on counting without overflowing.
#[test]
fn a_move_number_at_its_largest_count_does_not_overflow() {
    let pgn = "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 4294967295 4294967295\"]\n\n1... Kd7 2. Kd2 *\n";
    assert_eq!(found("movenumber > 0", pgn), [(1, vec![0, 1, 2])]);
}

/// A `find` whose filter looks at nothing but the positions is answered for a whole line at once
/// (a game of 100,000 plies is searched in linear time); it finds what the same `find` finds
/// position by position, forward and back, on every sample game.
#[test]
fn finds_answered_for_a_whole_line_find_the_same() {
    let games: String = ["random-standard.pgn", "classics.pgn", "themes.pgn", "short-games.pgn"]
        .iter()
        .map(|name| std::fs::read_to_string(format!("samples/games/{name}")).unwrap() + "\n")
        .collect();
    // A variable read in the filter makes the search go position by position.
    for (whole, stepwise) in [
        ("find check", "x = 1 find {x == 1 check}"),
        ("not find check", "x = 1 not find {x == 1 check}"),
        ("find <-- check", "x = 1 find <-- {x == 1 check}"),
        ("not find <-- mate", "x = 1 not find <-- {x == 1 mate}"),
        ("find quiet move previous capture q", "x = 1 find quiet {x == 1 move previous capture q}"),
        ("find {btm find <-- Q[a-h7]}", "x = 1 find {x == 1 btm find <-- Q[a-h7]}"),
        ("(find check) : move previous from k", "x = 1 (find {x == 1 check}) : move previous from k"),
    ] {
        assert_eq!(found(whole, &games), found(stepwise, &games), "{whole}");
    }
    assert!(!found("find check", &games).is_empty());
}

/// A text is a value wherever it stands: at another position, as a block's last filter, in
/// the branches of an `if` (a fuzzed query once reached the compiler with a text it could not
/// hold).
#[test]
fn texts_are_values_everywhere() {
    let pgn = "[Event \"t\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    assert_eq!(found("(child : {check \"abc\"}) == \"abc\"", pgn), found("child : check", pgn));
    assert_eq!(found("{check \"abc\"} == \"abc\"", pgn), found("check", pgn));
    assert_eq!(found("(if check then \"a\" else \"b\") == \"a\"", pgn), found("check", pgn));
    assert!(Query::parse("max(#Q #q) == 2 child : {move previous \"\"} == \"\"").is_ok());
}

/// `flipdihedral` and `dihedral` are CQL 6.2's other names of `flip`.
#[test]
fn flip_has_cql_6_2_s_other_names() {
    for name in ["flipdihedral", "dihedral"] {
        assert_eq!(number(&format!("{name} count [a1,b3]"), "Standard", KINGS), Some(8), "{name}");
        assert!(matches(&format!("{name} Ka8"), "Standard", "K7/8/8/8/8/8/8/7k w - - 0 1"), "{name}");
    }
}

/// `check`, `mate` and `stalemate` as each lichess variant means them, beside Standard's.
#[test]
fn check_mate_and_stalemate_take_each_variants_meaning() {
    // A rook checks the white king on e3, which touches the black king: in Atomic a king
    // touching the other is never in check.
    let touching = "4r3/8/8/8/8/3kK3/8/8 w - - 0 1";
    assert!(matches("check", "Standard", touching));
    assert!(!matches("check", "Atomic", touching));
    // The black king has reached the hill: the game is over, White has no move, and that is
    // no stalemate.
    let hill = "rnbq1bnr/pppppppp/8/8/3k4/8/PPPPPPPP/RNBQKBNR w KQ - 0 1";
    assert!(!matches("stalemate", "King of the Hill", hill));
    assert!(!matches("mate", "King of the Hill", hill));
    assert!(!matches("move legal from A", "King of the Hill", hill));
    // Antichess has no check: the query says so instead of never matching.
    let antichess = cqlq::Variant::by_name("Antichess").unwrap();
    for word in ["check", "mate"] {
        assert!(Query::parse(word).unwrap().compile(antichess).is_err(), "{word}");
    }
}

/// A variant's own words come from its vocabulary: the hill of King of the Hill, the checks of
/// Three-check (from the FEN's counters and from the game), an Atomic explosion's squares as
/// the last move's captures, and Antichess's stalemate.
#[test]
fn each_variant_brings_its_own_words() {
    // The hill is d4, e4, d5 and e5, wherever a transform would move other squares.
    assert_eq!(set_of("hill", "King of the Hill", START), names("d4 e4 d5 e5"));
    assert_eq!(set_of("shift hill", "King of the Hill", START), names("d4 e4 d5 e5"));
    assert!(matches("k & hill", "King of the Hill", "8/8/8/8/3k4/8/8/4K3 w - - 0 1"));
    let error = Query::parse("k & hill").unwrap().compile(common::variant("Standard")).unwrap_err().to_string();
    assert!(error.contains("'hill' is a word of King of the Hill, and Standard has no such word"), "{error}");

    // The checks given: what is left of three in the FEN (`1+3`), White's and Black's.
    let checked = "r1bqkbnr/pppp1Bpp/2n5/4p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1+3 0 3";
    assert_eq!(number("whitechecks", "Three-check", checked), Some(2));
    assert_eq!(number("blackchecks", "Three-check", checked), Some(0));
    assert!(matches("flipcolor {blackchecks == 2}", "Three-check", checked));
    assert!(!matches("blackchecks == 2", "Three-check", checked));
    // The counts after the clocks (`+2+0`) say the same.
    let counted = "r1bqkbnr/pppp1Bpp/2n5/4p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 0 3 +2+0";
    assert_eq!(number("whitechecks", "Three-check", counted), Some(2));
    // In a game, each check counts: the third ends it.
    let game = "[Variant \"Three-check\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 4. Qh5+ g6 5. Qxe5 Nf6 \
                6. Qf4 d6 7. Qxf6+ *\n";
    assert_eq!(found("whitechecks == 1", game), vec![(1, vec![5, 6])]);
    assert_eq!(found("whitechecks == 3 and blackchecks == 0", game), vec![(1, vec![13])]);

    // Atomic: the knight takes on d7, and the blast takes the queen, bishop and king beside it.
    let game = "[Variant \"Atomic\"]\n\n1. Nf3 d5 2. Ne5 Nd7 3. Nxd7 1-0\n";
    assert_eq!(found("move previous capture q", game), vec![(1, vec![5])]);
    assert_eq!(found("move previous capture k", game), vec![(1, vec![5])]);
    assert_eq!(found("move previous capture n", game), vec![(1, vec![5])]);
    assert_eq!(found("move previous capture p", game), Vec::new());
    assert_eq!(number("#(move previous capture [a-h8])", "Atomic", START), Some(0));
    let squares = "[Variant \"Atomic\"]\n\n1. Nf3 d5 2. Ne5 Nd7 3. Nxd7 { the blast } 1-0\n";
    assert_eq!(found("(move previous capture .) == [c8,d8,e8,d7]", squares), vec![(1, vec![5])]);
    // Where a move removes only what it captures, the value is the capture square alone.
    let plain = "[Variant \"Standard\"]\n\n1. Nf3 d5 2. Ne5 Nd7 3. Nxd7 *\n";
    assert_eq!(found("(move previous capture .) == d7", plain), vec![(1, vec![5])]);

    // Antichess: a side with pieces but no legal move is stalemated (and wins); one without a
    // piece has won already.
    assert!(matches("stalemate", "Antichess", "8/8/8/p7/P7/8/8/K7 b - - 0 1"));
    assert!(!matches("stalemate", "Antichess", "8/8/8/8/8/8/8/K7 b - - 0 1"));
    assert!(!matches("stalemate", "Antichess", START));
}

/// A word after `move` that no variant's moves do is the filter after the move, as CQL 6.2
/// reads it; an action is one only where no variable has its name.
#[test]
fn words_after_move_are_actions_or_the_next_filter() {
    let game = "[Variant \"Standard\"]\n\n1. e4 e5 2. Nf3 *\n";
    assert_eq!(found("x = K move legal x", game), found("x = K move legal", game));
    assert_eq!(found("x = 0 move legal x > 0", game), Vec::new());
    assert_eq!(found("x = 2 move previous from N\nx > 1", game), vec![(1, vec![3])]);
    assert!(Query::parse("move legal swap").unwrap().compile(common::variant("Laser Chess")).is_ok());
    // A variable named like an action stays a variable.
    assert!(Query::parse("swap = 1 move legal swap").unwrap().compile(common::variant("Standard")).is_ok());
}
