//! Positions of every variant: pieces by kind and colour, ownerless pieces, the backhand, the side
//! to move and the variant's state.
//!
//! A [`Setup`] is a position as read from text, not necessarily playable; [`Position::from_setup`]
//! is the one place that checks it. [`AnyPosition`] holds a position of any board size, for code
//! that learns the variant at run time.
//!
//! ```
//! use cqlq::position::AnyPosition;
//! use cqlq::{Color, Variant};
//!
//! let one = Variant::by_name("One").unwrap();
//! let position = AnyPosition::initial(one);
//! assert_eq!(position.variant().name, "One");
//! assert_eq!(position.turn(), Color::White);
//! // Figure rows (Stars included), two Pawn rows and 16 scout Pawns a side, and two Monoliths.
//! assert_eq!(position.piece_count(), 2 * (26 + 2 * 26 + 16) + 2);
//! ```

mod backhand;
pub mod drawing;
mod initial;
mod placement;
mod rules_view;

use std::fmt;

pub use crate::variant::vocabulary::Mark;
pub use backhand::Backhand;
pub use placement::Placement;
pub use rules_view::{MoveEffects, MoveFacts, RulesView, Wing};

use crate::board::{File, Geometry, Rank, Square, SquareName, SquareSet, Width};
use crate::variant::vocabulary::{self, MAX_COUNTERS, MarkOn};
use crate::variant::{CastlingRule, Color, Kind, KindSet, Kings, Piece, Role, Variant};

/// What a query needs to know of a position, whatever stores it.
///
/// [`Position`] and [`Setup`] implement it; a rules engine with its own board representation can
/// implement it too, so that compiled queries run on its positions directly.
pub trait PositionView<const W: usize> {
    /// The variant.
    fn variant(&self) -> &'static Variant;
    /// The squares holding pieces of a kind (both colours).
    fn kind(&self, kind: Kind) -> SquareSet<W>;
    /// The squares holding pieces of a colour.
    fn color(&self, color: Color) -> SquareSet<W>;
    /// The squares carrying a mark.
    fn marked(&self, mark: Mark) -> SquareSet<W>;
    /// How many of a piece are in the backhand.
    fn in_backhand(&self, piece: Piece) -> u32;
    /// The kinds of a colour present in the backhand.
    fn backhand_kinds(&self, color: Color) -> KindSet;
    /// The side to move.
    fn turn(&self) -> Color;

    /// The squares holding pieces of a colour and of some kinds.
    fn pieces(&self, color: Color, kinds: KindSet) -> SquareSet<W> {
        let mut of_kinds = SquareSet::EMPTY;
        for kind in kinds.iter() {
            of_kinds |= self.kind(kind);
        }
        of_kinds & self.color(color)
    }

    /// The value of a counter the variant keeps (an index into its vocabulary's counters)
    /// for a side; 0 for a counter it does not keep.
    fn counter(&self, counter: u8, side: Color) -> i64 {
        let _ = (counter, side);
        0
    }

    /// The squares holding any piece.
    fn occupied(&self) -> SquareSet<W> {
        self.color(Color::White) | self.color(Color::Black)
    }

    /// The squares whose pieces have a level (tier or orientation, 0 to 3).
    fn with_level(&self, level: u8) -> SquareSet<W> {
        let low = self.marked(Mark::LEVEL_LOW);
        let high = self.marked(Mark::LEVEL_HIGH);
        match level & 3 {
            0 => self.occupied() - low - high,
            1 => low - high,
            2 => high - low,
            _ => low & high,
        }
    }
}

/// A position as read from text: every field public, nothing checked.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup<const W: usize> {
    /// The variant.
    pub variant: &'static Variant,
    /// The pieces on the board.
    pub board: Placement<W>,
    /// The pieces beside the board.
    pub backhand: Backhand,
    /// The side to move.
    pub turn: Color,
    /// Classical chess: the square a pawn may capture onto en passant.
    pub en_passant: Option<Square>,
    /// Classical chess: plies since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// The move number, from 1.
    pub fullmove_number: u32,
    /// The counters the variant keeps for each side (its vocabulary names them): by counter,
    /// then by side, White first.
    pub counters: [[u16; 2]; MAX_COUNTERS],
}

impl<const W: usize> Setup<W> {
    /// An empty board of a variant, first player to move.
    #[must_use]
    pub fn empty(variant: &'static Variant) -> Setup<W> {
        Setup {
            variant,
            board: Placement::empty(variant.kinds()),
            backhand: Backhand::empty(variant.kinds()),
            turn: Color::White,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            counters: start_counters(variant),
        }
    }

    /// The initial position of a variant.
    #[must_use]
    pub fn initial(variant: &'static Variant) -> Setup<W> {
        initial::build(variant)
    }

    /// The board shape.
    #[must_use]
    pub fn geometry(&self) -> Geometry {
        self.variant.geometry
    }
}

impl<const W: usize> PositionView<W> for Setup<W> {
    fn variant(&self) -> &'static Variant {
        self.variant
    }
    #[inline]
    fn kind(&self, kind: Kind) -> SquareSet<W> {
        self.board.kind(kind)
    }
    #[inline]
    fn color(&self, color: Color) -> SquareSet<W> {
        self.board.color(color)
    }
    #[inline]
    fn marked(&self, mark: Mark) -> SquareSet<W> {
        self.board.marked(mark)
    }
    #[inline]
    fn in_backhand(&self, piece: Piece) -> u32 {
        self.backhand.count(piece)
    }
    fn backhand_kinds(&self, color: Color) -> KindSet {
        self.backhand.kinds(color)
    }
    #[inline]
    fn turn(&self) -> Color {
        self.turn
    }
    fn counter(&self, counter: u8, side: Color) -> i64 {
        self.counters.get(usize::from(counter)).map_or(0, |sides| i64::from(sides[side.index()]))
    }
}

/// The counters of a variant's initial position.
fn start_counters(variant: &Variant) -> [[u16; 2]; MAX_COUNTERS] {
    let mut counters = [[0; 2]; MAX_COUNTERS];
    for (values, counter) in counters.iter_mut().zip(variant.vocabulary().counters) {
        *values = [counter.start; 2];
    }
    counters
}

/// A checked position: the variant's royal pieces are there, marks sit where they belong, and
/// the en passant square and castling rights make sense. What only the variant's rules can
/// judge (a side not to move in check) is checked by [`crate::rules::check_position`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position<const W: usize> {
    setup: Setup<W>,
}

impl<const W: usize> Position<W> {
    /// Checks a setup.
    pub fn from_setup(setup: Setup<W>) -> Result<Position<W>, PositionError> {
        validate(&setup)?;
        Ok(Position { setup })
    }

    /// The initial position of a variant.
    #[must_use]
    pub fn initial(variant: &'static Variant) -> Position<W> {
        Position { setup: Setup::initial(variant) }
    }

    /// The position's fields.
    #[must_use]
    pub fn setup(&self) -> &Setup<W> {
        &self.setup
    }

    /// The position's fields, to change and check again.
    #[must_use]
    pub fn into_setup(self) -> Setup<W> {
        self.setup
    }

    /// The pieces on the board.
    #[must_use]
    pub fn board(&self) -> &Placement<W> {
        &self.setup.board
    }

    /// The pieces beside the board.
    #[must_use]
    pub fn backhand(&self) -> &Backhand {
        &self.setup.backhand
    }
}

impl<const W: usize> PositionView<W> for Position<W> {
    fn variant(&self) -> &'static Variant {
        self.setup.variant
    }
    #[inline]
    fn kind(&self, kind: Kind) -> SquareSet<W> {
        self.setup.board.kind(kind)
    }
    #[inline]
    fn color(&self, color: Color) -> SquareSet<W> {
        self.setup.board.color(color)
    }
    #[inline]
    fn marked(&self, mark: Mark) -> SquareSet<W> {
        self.setup.board.marked(mark)
    }
    #[inline]
    fn in_backhand(&self, piece: Piece) -> u32 {
        self.setup.backhand.count(piece)
    }
    fn backhand_kinds(&self, color: Color) -> KindSet {
        self.setup.backhand.kinds(color)
    }
    #[inline]
    fn turn(&self) -> Color {
        self.setup.turn
    }
    fn counter(&self, counter: u8, side: Color) -> i64 {
        self.setup.counter(counter, side)
    }
}

/// Why a setup is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no royal piece.
    MissingKing {
        /// The side, as the variant names it.
        player: &'static str,
    },
    /// A side has more than one royal piece.
    TooManyKings {
        /// The side, as the variant names it.
        player: &'static str,
    },
    /// The side not to move is in check (its king could be taken): refused by the rules of the
    /// variant, not by [`Position::from_setup`].
    WaitingSideInCheck {
        /// The side, as the variant names it.
        player: &'static str,
    },
    /// A pawn stands on the first or last rank.
    PawnOnBackRank(SquareName),
    /// The en passant square is not one a pawn just skipped.
    InvalidEnPassant(SquareName),
    /// A castling right names no rook that could castle with its king.
    InvalidCastling(SquareName),
    /// A mark (tier, orientation, promotion or Croatian tag) on a piece that cannot carry it.
    MisplacedMark {
        /// What the mark says.
        mark: &'static str,
        /// Where it is.
        square: SquareName,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingKing { player } => write!(f, "{player} has no king"),
            PositionError::TooManyKings { player } => write!(f, "{player} has more than one king"),
            PositionError::WaitingSideInCheck { player } => {
                write!(f, "{player} is in check with the other side to move")
            }
            PositionError::PawnOnBackRank(square) => write!(f, "pawn on the back rank at {square}"),
            PositionError::InvalidEnPassant(square) => {
                write!(f, "{square} is not an en passant square: no pawn has just skipped it")
            }
            PositionError::InvalidCastling(square) => {
                write!(f, "castling right for {square}, where no rook can castle with its king")
            }
            PositionError::MisplacedMark { mark, square } => {
                write!(f, "the piece on {square} cannot be {mark}")
            }
        }
    }
}

impl std::error::Error for PositionError {}

fn validate<const W: usize>(setup: &Setup<W>) -> Result<(), PositionError> {
    let variant = setup.variant;
    let geometry = variant.geometry;
    let name = |square: Square| geometry.square_name(square);
    let king = variant.kind_of_role(Role::King).expect("every variant has a king");
    for color in Color::ALL {
        let kings = setup.board.pieces(Piece { kind: king, color });
        let player = variant.player(color);
        match (kings.count(), variant.capabilities.kings) {
            (_, Kings::Any) | (1, _) | (0, Kings::AtMostOne) => {}
            (0, _) => return Err(PositionError::MissingKing { player }),
            _ => return Err(PositionError::TooManyKings { player }),
        }
    }
    let back_ranks = back_rank(setup, Color::White) | back_rank(setup, Color::Black);
    let pawns = kinds_with_role(variant, Role::Pawn);
    let pawn_squares = pieces_of_kinds(setup, pawns);
    if variant.capabilities.pawns_off_back_ranks
        && let Some(square) = (pawn_squares & back_ranks).first()
    {
        return Err(PositionError::PawnOnBackRank(name(square)));
    }
    // Marks for pawns fit every private (Croatian Chess's Scouts and Grenadiers rush too).
    check_marks(setup, pieces_of_kinds(setup, variant.kinds_where(|piece| piece.private)))?;
    check_castling(setup)?;
    if let Some(square) = setup.en_passant {
        check_en_passant(setup, square)?;
    }
    Ok(())
}

fn kinds_with_role(variant: &Variant, role: Role) -> KindSet {
    variant.kinds_where(|piece| piece.role == Some(role))
}

fn pieces_of_kinds<const W: usize>(setup: &Setup<W>, kinds: KindSet) -> SquareSet<W> {
    kinds.iter().fold(SquareSet::EMPTY, |set, kind| set | setup.board.kind(kind))
}

fn rank_set<const W: usize>(geometry: Geometry, rank: Rank) -> SquareSet<W> {
    geometry.all_squares().filter(|&square| geometry.rank_of(square) == rank).collect()
}

/// The first rank of a side: rank 1 for White, the last rank for Black.
fn back_rank<const W: usize>(setup: &Setup<W>, color: Color) -> SquareSet<W> {
    let geometry = setup.geometry();
    let rank = match color {
        Color::White => Rank::new(0).expect("rank 1"),
        Color::Black => geometry.last_rank(),
    };
    rank_set(geometry, rank)
}

fn check_marks<const W: usize>(setup: &Setup<W>, pawns: SquareSet<W>) -> Result<(), PositionError> {
    let variant = setup.variant;
    let board = &setup.board;
    let occupied = board.occupied();
    let royal_or_pawn = pawns | pieces_of_kinds(setup, kinds_with_role(variant, Role::King));
    let castlers = pieces_of_kinds(
        setup,
        kinds_with_role(variant, Role::Rook).union(if variant.castling == CastlingRule::Croatian {
            kinds_with_role(variant, Role::King)
        } else {
            KindSet::EMPTY
        }),
    );
    let allowed = |on: MarkOn| match on {
        MarkOn::Pieces => occupied,
        MarkOn::Promoted => occupied - royal_or_pawn,
        MarkOn::Castlers => castlers,
        MarkOn::Pawns => pawns,
    };
    for mark in Mark::ALL {
        let marked = board.marked(mark);
        if marked.is_empty() {
            continue;
        }
        // A mark the variant's pieces may not carry fits nowhere.
        let (fits, meaning) = match variant.vocabulary().mark(mark) {
            Some(def) => (allowed(def.on), def.meaning),
            None => (SquareSet::EMPTY, vocabulary::mark_meaning(mark)),
        };
        if let Some(square) = (marked - fits).first() {
            return Err(PositionError::MisplacedMark { mark: meaning, square: variant.geometry.square_name(square) });
        }
    }
    Ok(())
}

/// Castling rights sit on rooks (and, in Croatian Chess, on kings) standing on their own first
/// rank beside their king. Under [`CastlingRule::Standard`] the king stands on the e-file and the
/// rooks in the corners.
fn check_castling<const W: usize>(setup: &Setup<W>) -> Result<(), PositionError> {
    let variant = setup.variant;
    let geometry = variant.geometry;
    let Some(rook) = variant.kind_of_role(Role::Rook) else {
        return Ok(());
    };
    let king = variant.kind_of_role(Role::King).expect("every variant has a king");
    let fixed_start = variant.castling == CastlingRule::Standard;
    for color in Color::ALL {
        let home = back_rank(setup, color);
        let rights = setup.board.marked(Mark::CASTLE) & setup.board.color(color);
        let king_square = setup.board.pieces(Piece { kind: king, color }).first();
        for square in rights {
            let is_rook = setup.board.kind(rook).contains(square);
            let king_home = king_square.is_some_and(|k| home.contains(k));
            let standard_ok = !fixed_start || {
                let on_e_file = king_square.is_some_and(|k| Some(geometry.file_of(k)) == File::from_char('e'));
                let file = geometry.file_of(square);
                on_e_file && (file.index() == 0 || file == geometry.last_file())
            };
            let is_king = Some(square) == king_square;
            if !home.contains(square) || !king_home || !(is_rook && standard_ok || is_king) {
                return Err(PositionError::InvalidCastling(geometry.square_name(square)));
            }
        }
    }
    Ok(())
}

fn check_en_passant<const W: usize>(setup: &Setup<W>, square: Square) -> Result<(), PositionError> {
    let geometry = setup.geometry();
    let invalid = || PositionError::InvalidEnPassant(geometry.square_name(square));
    if !setup.variant.capabilities.en_passant {
        return Err(invalid());
    }
    let pawn = setup.variant.kind_of_role(Role::Pawn).ok_or_else(invalid)?;
    let file = i32::from(geometry.file_of(square).index());
    let rank = i32::from(geometry.rank_of(square).index());
    // The pawn that skipped the square moved away from its owner's side.
    let (expected_rank, forward) = match setup.turn {
        Color::White => (i32::from(geometry.ranks()) - 3, 1),
        Color::Black => (2, -1),
    };
    let pusher = Piece { kind: pawn, color: setup.turn.other() };
    let pushed_to = geometry.square_at(file, rank - forward);
    let came_from = geometry.square_at(file, rank + forward);
    let ok = rank == expected_rank
        && setup.board.piece_at(square).is_none()
        && came_from.is_some_and(|from| setup.board.piece_at(from).is_none())
        && pushed_to.is_some_and(|to| setup.board.piece_at(to) == Some(pusher));
    if ok { Ok(()) } else { Err(invalid()) }
}

/// A position of any board size.
///
/// Its size is that of the widest position: it dispatches one position at a time, while code
/// that runs per ply works on [`Position<W>`] directly.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyPosition {
    /// A board of at most 64 squares.
    W1(Position<1>),
    /// A board of at most 128 squares.
    W2(Position<2>),
    /// A board of at most 256 squares.
    W4(Position<4>),
    /// A board of at most 512 squares.
    W8(Position<8>),
    /// A board of at most 704 squares.
    W11(Position<11>),
}

/// Runs `body` on the position inside an [`AnyPosition`], bound to `p`.
#[macro_export]
macro_rules! each_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::position::AnyPosition::W1($p) => $body,
            $crate::position::AnyPosition::W2($p) => $body,
            $crate::position::AnyPosition::W4($p) => $body,
            $crate::position::AnyPosition::W8($p) => $body,
            $crate::position::AnyPosition::W11($p) => $body,
        }
    };
}

/// Builds an [`AnyPosition`] from a `Result<Position<W>, E>` computed with `W` fixed by the
/// variant's width.
#[macro_export]
macro_rules! build_position {
    ($variant:expr, $w:ident => $body:expr) => {
        match $variant.width() {
            $crate::board::Width::W1 => {
                const $w: usize = 1;
                ($body).map($crate::position::AnyPosition::W1)
            }
            $crate::board::Width::W2 => {
                const $w: usize = 2;
                ($body).map($crate::position::AnyPosition::W2)
            }
            $crate::board::Width::W4 => {
                const $w: usize = 4;
                ($body).map($crate::position::AnyPosition::W4)
            }
            $crate::board::Width::W8 => {
                const $w: usize = 8;
                ($body).map($crate::position::AnyPosition::W8)
            }
            $crate::board::Width::W11 => {
                const $w: usize = 11;
                ($body).map($crate::position::AnyPosition::W11)
            }
        }
    };
}

/// Wraps a position of a fixed width into an [`AnyPosition`].
pub trait IntoAny {
    /// The position, wrapped.
    fn into_any(self) -> AnyPosition;
}

macro_rules! into_any {
    ($($w:literal => $arm:ident),*) => {
        $(impl IntoAny for Position<$w> {
            fn into_any(self) -> AnyPosition {
                AnyPosition::$arm(self)
            }
        })*
    };
}

into_any!(1 => W1, 2 => W2, 4 => W4, 8 => W8, 11 => W11);

/// A position of one board width, taken out of an [`AnyPosition`].
pub trait FromAny {
    /// The position, if its square sets take this width.
    fn from_any(any: &AnyPosition) -> Option<&Self>;
}

macro_rules! from_any {
    ($($w:literal => $arm:ident),*) => {
        $(impl FromAny for Position<$w> {
            fn from_any(any: &AnyPosition) -> Option<&Position<$w>> {
                match any {
                    AnyPosition::$arm(position) => Some(position),
                    _ => None,
                }
            }
        })*
    };
}

from_any!(1 => W1, 2 => W2, 4 => W4, 8 => W8, 11 => W11);

impl<const W: usize> From<Position<W>> for AnyPosition
where
    Position<W>: IntoAny,
{
    fn from(position: Position<W>) -> AnyPosition {
        position.into_any()
    }
}

impl AnyPosition {
    /// The initial position of a variant.
    #[must_use]
    pub fn initial(variant: &'static Variant) -> AnyPosition {
        let built: Result<AnyPosition, std::convert::Infallible> =
            build_position!(variant, W => Ok(Position::<W>::initial(variant)));
        match built {
            Ok(position) => position,
        }
    }

    /// The variant.
    #[must_use]
    pub fn variant(&self) -> &'static Variant {
        each_position!(self, p => p.setup().variant)
    }

    /// The size class of the position's square sets.
    #[must_use]
    pub fn width(&self) -> Width {
        self.variant().width()
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        each_position!(self, p => p.setup().turn)
    }

    /// The piece on a square.
    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        each_position!(self, p => p.board().piece_at(square))
    }

    /// The number of pieces on the board.
    #[must_use]
    pub fn piece_count(&self) -> usize {
        each_position!(self, p => p.board().occupied().count())
    }

    /// The pieces beside the board.
    #[must_use]
    pub fn backhand(&self) -> &Backhand {
        each_position!(self, p => p.backhand())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_initial_position_is_valid() {
        for variant in Variant::all() {
            let position = AnyPosition::initial(variant);
            let checked = each_position!(&position, p => Position::from_setup(p.setup().clone()).map(|_| ()));
            assert_eq!(checked, Ok(()), "{}", variant.name);
        }
    }
}
