//! Writing a position and reading it back gives the same position, for every variant and format:
//! FEN (all variants), Croatian Chess setup strings, and Laser Chess Setup Notation.

use crate::common;

use cqlq::board::Square;
use cqlq::notation::crochess::setup_string;
use cqlq::notation::fen::{self, CastlingStyle};
use cqlq::notation::laser::setup_notation;
use cqlq::position::{IntoAny, Mark, Position, PositionError, Setup};
use cqlq::variant::{BackhandRule, CastlingRule, Color, Edition, Family, Kind, Piece, Role};
use cqlq::{Variant, with_width};
use proptest::prelude::*;

/// A small deterministic generator, so that one proptest seed describes a whole position.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// What a format can say about a position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Fen,
    SetupString,
    SetupNotation,
}

fn home_rank(variant: &Variant, color: Color) -> u8 {
    if color == Color::White { 0 } else { variant.geometry.ranks() - 1 }
}

/// A random valid position of a variant, holding only what `format` can write.
fn random_setup<const W: usize>(variant: &'static Variant, rng: &mut Rng, format: Format) -> Setup<W> {
    let geometry = variant.geometry;
    let mut setup = Setup::<W>::empty(variant);
    let king = variant.kind_of_role(Role::King).unwrap();
    let pawn = variant.kind_of_role(Role::Pawn);
    let mut free: Vec<Square> = geometry.all_squares().collect();
    for color in Color::ALL {
        // Kings on their home rank half the time (on the e-file under standard castling), so that
        // castling rights can be given.
        let home = i32::from(home_rank(variant, color));
        let e_file = geometry.square_at(4, home);
        let square = match (variant.castling, rng.chance(50)) {
            (_, false) => take(&mut free, rng, &|_| true),
            (CastlingRule::Standard, true) => {
                take(&mut free, rng, &|s| Some(s) == e_file).or_else(|| take(&mut free, rng, &|_| true))
            }
            (_, true) => take(&mut free, rng, &|s| i32::from(geometry.rank_of(s).index()) == home),
        };
        setup.board.put(square.unwrap(), Piece { kind: king, color });
    }
    let pieces = rng.below(geometry.squares().min(40));
    let back_ranks = |s: Square| {
        let rank = geometry.rank_of(s).index();
        rank == 0 || rank == geometry.ranks() - 1
    };
    let pawn_barred = matches!(variant.family, Family::Classical | Family::ChessEvolved);
    for _ in 0..pieces {
        let kind = Kind::new(rng.below(variant.kinds()) as u8);
        if kind == king {
            continue;
        }
        let color = if rng.chance(50) { Color::White } else { Color::Black };
        let is_pawn = Some(kind) == pawn;
        let Some(square) = take(&mut free, rng, &|s| !(is_pawn && pawn_barred && back_ranks(s))) else { break };
        setup.board.put(square, Piece { kind, color });
        let role = variant.piece_type(kind).role;
        if matches!(variant.family, Family::ChessEvolved | Family::Laser) {
            setup.board.set_level(square, rng.below(4) as u8);
        }
        if variant.backhand == BackhandRule::Drops && !matches!(role, Some(Role::Pawn | Role::King)) && rng.chance(30) {
            setup.board.set_mark(Mark::PROMOTED, square, true);
        }
        if variant.family == Family::Croatian && variant.piece_type(kind).private && format == Format::SetupString {
            for mark in [Mark::RUSH, Mark::PROMOTION_TAG, Mark::RUSHED, Mark::RUSHING] {
                if rng.chance(20) {
                    setup.board.set_mark(mark, square, true);
                }
            }
        }
    }
    give_castling_rights(&mut setup, rng, format);
    if variant.family == Family::Croatian && format == Format::Fen {
        // FEN says nothing of Croatian rush tags: they are derived from the initial setup.
        let initial = Setup::<W>::initial(variant);
        for kind in variant.kinds_where(|piece| piece.private).iter() {
            for color in Color::ALL {
                let piece = Piece { kind, color };
                for square in setup.board.pieces(piece) & initial.board.pieces(piece) {
                    setup.board.set_mark(Mark::RUSH, square, true);
                }
            }
        }
    }
    if format != Format::SetupNotation {
        setup.turn = if rng.chance(50) { Color::White } else { Color::Black };
        if format == Format::Fen && (rng.chance(50) || variant.backhand == BackhandRule::Drops) {
            for _ in 0..rng.below(6) {
                let kind = Kind::new(rng.below(variant.kinds()) as u8);
                let color = if rng.chance(50) { Color::White } else { Color::Black };
                setup.backhand.add(Piece { kind, color });
            }
        }
    }
    if format == Format::Fen {
        setup.halfmove_clock = rng.below(100) as u32;
        setup.fullmove_number = 1 + rng.below(300) as u32;
    }
    setup
}

/// A random square of `free` that `allowed` accepts, taken out of it.
fn take(free: &mut Vec<Square>, rng: &mut Rng, allowed: &dyn Fn(Square) -> bool) -> Option<Square> {
    let candidates: Vec<usize> = (0..free.len()).filter(|&i| allowed(free[i])).collect();
    (!candidates.is_empty()).then(|| free.swap_remove(candidates[rng.below(candidates.len())]))
}

/// Castling rights on rooks beside a king on its home rank: the outermost rook of a side (which
/// every FEN style writes unambiguously), and in setup strings any of them.
fn give_castling_rights<const W: usize>(setup: &mut Setup<W>, rng: &mut Rng, format: Format) {
    let variant = setup.variant;
    let geometry = variant.geometry;
    let (Some(rook), Some(king)) = (variant.kind_of_role(Role::Rook), variant.kind_of_role(Role::King)) else {
        return;
    };
    if variant.castling == CastlingRule::None {
        return;
    }
    for color in Color::ALL {
        let home = home_rank(variant, color);
        let king_square = setup.board.pieces(Piece { kind: king, color }).first().unwrap();
        if geometry.rank_of(king_square).index() != home {
            continue;
        }
        if variant.castling == CastlingRule::Standard && geometry.file_of(king_square).index() != 4 {
            continue;
        }
        let king_file = geometry.file_of(king_square);
        let rooks: Vec<Square> = setup
            .board
            .pieces(Piece { kind: rook, color })
            .iter()
            .filter(|s| geometry.rank_of(*s).index() == home)
            .collect();
        let outermost = [
            rooks.iter().copied().find(|s| geometry.file_of(*s) < king_file),
            rooks.iter().copied().rev().find(|s| geometry.file_of(*s) > king_file),
        ];
        for square in rooks.iter().copied() {
            let standard_corner = [0, 7].contains(&geometry.file_of(square).index());
            let allowed = match format {
                Format::SetupString => true,
                _ if variant.castling == CastlingRule::Standard => standard_corner,
                _ => outermost.contains(&Some(square)),
            };
            if allowed && rng.chance(60) {
                setup.board.set_mark(Mark::CASTLE, square, true);
                if variant.castling == CastlingRule::Croatian {
                    setup.board.set_mark(Mark::CASTLE, king_square, true);
                }
            }
        }
    }
}

/// The setup as a position checked by its variant's rules too.
fn checked<const W: usize>(setup: &Setup<W>) -> Result<Position<W>, PositionError>
where
    Position<W>: IntoAny,
{
    let position = Position::from_setup(setup.clone())?;
    cqlq::rules::check_position(&position.clone().into_any())?;
    Ok(position)
}

fn round_trip<const W: usize>(variant: &'static Variant, seed: u64) -> Result<(), TestCaseError>
where
    Position<W>: IntoAny,
{
    let mut rng = Rng(seed | 1);
    // FEN, for every variant.
    let mut setup = random_setup::<W>(variant, &mut rng, Format::Fen);
    if let Err(PositionError::WaitingSideInCheck { .. }) = checked(&setup) {
        // Random pieces may attack the king of the side not to move: let that side move, and
        // leave out the setups where both kings are attacked.
        setup.turn = setup.turn.other();
        setup.en_passant = None;
        if checked(&setup).is_err() {
            return Ok(());
        }
    }
    prop_assert!(checked(&setup).is_ok(), "{}", fen::write(&setup, CastlingStyle::XFen));
    for style in [CastlingStyle::XFen, CastlingStyle::Shredder] {
        if style == CastlingStyle::Shredder && variant.geometry.files() > 10 {
            continue; // File letters k and q read as K and Q on the widest boards.
        }
        let text = fen::write(&setup, style);
        let read = fen::read::<W>(variant, &text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&read, &setup, "{}", text);
    }
    // Setup strings, for Croatian Chess.
    if variant.family == Family::Croatian {
        let setup = random_setup::<W>(variant, &mut rng, Format::SetupString);
        prop_assert!(Position::from_setup(setup.clone()).is_ok());
        let text = setup_string::write(&setup);
        let read =
            setup_string::read_of::<W>(variant, &text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&read, &setup, "{}", text);
        // A string names its variant by code, in the 2020 edition unless told otherwise.
        if variant.edition() == Some(Edition::Ed2020) {
            prop_assert_eq!(setup_string::read::<W>(&text).map(|(named, _)| named), Ok(variant));
        }
    }
    // Setup Notation, for Laser Chess.
    if variant.family == Family::Laser {
        let setup = random_setup::<W>(variant, &mut rng, Format::SetupNotation);
        let text = setup_notation::write(&setup);
        let read =
            setup_notation::read::<W>(variant, &text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&read, &setup, "{}", text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_variant_round_trips(seed in any::<u64>()) {
        for variant in Variant::all() {
            with_width!(variant.width(), W => round_trip::<W>(variant, seed))?;
        }
    }
}

/// Seeds that found bugs: a Chess Evolved Online rank whose letters split two ways (`PSP`).
#[test]
fn round_trips_that_failed_once() {
    for seed in [10_389_551_495_173_981_176] {
        for variant in Variant::all() {
            with_width!(variant.width(), W => round_trip::<W>(variant, seed)).unwrap();
        }
    }
}

#[test]
fn initial_positions_round_trip_through_fen() {
    for variant in Variant::all() {
        with_width!(variant.width(), W => {
            let setup = Setup::<W>::initial(variant);
            let text = fen::write(&setup, CastlingStyle::XFen);
            assert_eq!(fen::read::<W>(variant, &text).unwrap(), setup, "{}: {text}", variant.name);
        });
    }
}

#[test]
fn initial_croatian_setups_match_the_book() {
    let one = common::position("One", &{
        let variant = common::variant("One");
        with_width!(variant.width(), W => setup_string::write(&Setup::<W>::initial(variant)))
    });
    let geometry = one.variant().geometry;
    let at = |name: &str| one.piece_at(geometry.parse_square(name).unwrap()).map(|p| one.variant().symbol(p));
    let row: String = "abcdefghijklmnopqrstuvwxyz".chars().map(|f| at(&format!("{f}1")).unwrap()).collect();
    assert_eq!(row, "TRNBSICUGWAHQKHAWGUCISBNRt");
    let top: String = "abcdefghijklmnopqrstuvwxyz".chars().map(|f| at(&format!("{f}26")).unwrap()).collect();
    assert_eq!(top, "trnbsicugwahqkhawgucisbnrT");
    assert_eq!(at("b8").as_deref(), Some("M"));
    assert_eq!(at("y19").as_deref(), Some("m"));
    assert_eq!(at("e4").as_deref(), Some("P"));
    assert_eq!(at("e23").as_deref(), Some("p"), "rank 4 mirrors to rank 23");
    assert_eq!(at("f22").as_deref(), Some("p"), "rank 5 mirrors to rank 22");
    let discovery = common::variant("Discovery");
    let setup = with_width!(discovery.width(), W => setup_string::write(&Setup::<W>::initial(discovery)));
    assert!(setup.contains(",Mb7,") && setup.contains(",mw18,"), "{setup}");
    let ties = with_width!(common::variant("ct").width(), W => setup_string::write(&Setup::<W>::initial(common::variant("ct"))));
    assert!(ties.starts_with("Ct Ra1&,Gb1,Nc1,Bd1,Qe1,Kf1&,Bg1,Nh1,Gi1,Rj1&,Pa2|"), "{ties}");
}
