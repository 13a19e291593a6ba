//! [`CroatianBoard`]: a Croatian Chess position as replay keeps it: the pieces with their tags,
//! the backhand of captured pieces, the side to move, and which piece of the book each kind of
//! the variant is.

use super::journal::Journal;
use crate::board::{Geometry, Square, SquareSet};
use crate::notation::crochess::dialect::Figure;
use crate::notation::crochess::moves::Move;
use crate::position::{Mark, PositionView, RulesView, Setup};
use crate::variant::{Color, Edition, Kind, KindSet, Piece, Variant, croatian};

/// Which piece of the book each kind of a variant's alphabet is, and back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alphabet {
    figures: [Option<Figure>; Figure::ALL.len()],
    kinds: [Option<Kind>; Figure::ALL.len()],
}

impl Alphabet {
    /// The alphabet of a variant, its pieces matched to the book's by name.
    #[must_use]
    pub fn of(variant: &Variant) -> Alphabet {
        let mut alphabet = Alphabet { figures: [None; Figure::ALL.len()], kinds: [None; Figure::ALL.len()] };
        for (index, piece) in variant.pieces.iter().enumerate().take(Figure::ALL.len()) {
            if let Some(figure) = Figure::ALL.into_iter().find(|figure| figure.name() == piece.name) {
                alphabet.figures[index] = Some(figure);
                alphabet.kinds[figure as usize] = Some(Kind::new(index as u8));
            }
        }
        alphabet
    }

    /// The piece of the book a kind is.
    #[must_use]
    pub fn figure(&self, kind: Kind) -> Option<Figure> {
        self.figures.get(kind.index()).copied().flatten()
    }

    /// The kind of the variant that is a piece of the book, if the variant has it.
    #[must_use]
    pub fn kind(&self, figure: Figure) -> Option<Kind> {
        self.kinds[figure as usize]
    }
}

/// A Croatian Chess position of a variant on boards of at most `64 * W` fields.
#[derive(Clone, Debug)]
pub struct CroatianBoard<const W: usize> {
    pub(super) setup: Setup<W>,
    pub(super) alphabet: Alphabet,
    pub(super) edition: Edition,
    /// What the move being played changed, empty between moves.
    pub(super) journal: Journal<W>,
    /// The storage a plain move is read into, reused from move to move.
    pub(super) plain: Scratch,
}

/// A move's storage, reused from move to move; a copy of the board starts its own, so that
/// keeping positions copies no more than they hold.
#[derive(Debug, Default)]
pub(super) struct Scratch(pub(super) Move);

impl Clone for Scratch {
    fn clone(&self) -> Scratch {
        Scratch::default()
    }
}

impl<const W: usize> CroatianBoard<W> {
    /// The board of a setup.
    #[must_use]
    pub fn from_setup(setup: Setup<W>) -> CroatianBoard<W> {
        let variant = setup.variant;
        CroatianBoard {
            alphabet: Alphabet::of(variant),
            edition: variant.edition().unwrap_or_default(),
            setup,
            journal: Journal::default(),
            plain: Scratch::default(),
        }
    }

    /// The position as a setup.
    #[must_use]
    pub fn setup(&self) -> &Setup<W> {
        &self.setup
    }

    /// The edition of the book the game follows.
    #[must_use]
    pub fn edition(&self) -> Edition {
        self.edition
    }

    /// The board's geometry.
    #[must_use]
    pub fn geometry(&self) -> Geometry {
        self.setup.variant.geometry
    }

    /// The piece on a field, with the book's name for it.
    #[must_use]
    pub fn figure_at(&self, square: Square) -> Option<(Piece, Figure)> {
        let piece = self.setup.board.piece_at(square)?;
        Some((piece, self.alphabet.figure(piece.kind)?))
    }

    /// The fields of a side's pieces of one kind of the book (for the ownerless Stars and
    /// Monoliths, `color` is their shade: both are asked for).
    pub(super) fn fields_of(&self, figure: Figure, color: Option<Color>) -> SquareSet<W> {
        let Some(kind) = self.alphabet.kind(figure) else { return SquareSet::EMPTY };
        let fields = self.setup.board.kind(kind);
        match color {
            Some(color) => fields & self.setup.board.color(color),
            None => fields,
        }
    }

    /// The marks a field carries, one bit per mark.
    pub(super) fn marks_at(&self, square: Square) -> u8 {
        Mark::ALL
            .iter()
            .fold(0, |bits, &mark| bits | u8::from(self.setup.board.marked(mark).contains(square)) << mark.index())
    }

    /// Puts back a field as it was: its piece and marks.
    pub(super) fn restore(&mut self, square: Square, piece: Option<Piece>, marks: u8) {
        self.setup.board.take(square);
        if let Some(piece) = piece {
            self.setup.board.put(square, piece);
        }
        for mark in Mark::ALL {
            self.setup.board.set_mark(mark, square, marks >> mark.index() & 1 == 1);
        }
    }

    /// Whether a field's colour is its owner's (a light piece on a light field): the Unicorn
    /// and Centaur then jump short.
    pub(super) fn on_own_colour(&self, square: Square, color: Color) -> bool {
        self.geometry().is_light(square) == (color == Color::White)
    }
}

impl<const W: usize> PositionView<W> for CroatianBoard<W> {
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
    fn marked(&self, mark: Mark) -> SquareSet<W> {
        self.setup.board.marked(mark)
    }
    fn in_backhand(&self, piece: Piece) -> u32 {
        self.setup.backhand.count(piece)
    }
    fn backhand_kinds(&self, color: Color) -> KindSet {
        self.setup.backhand.kinds(color)
    }
    fn turn(&self) -> Color {
        self.setup.turn
    }
    fn counter(&self, counter: u8, side: Color) -> i64 {
        self.setup.counter(counter, side)
    }
}

impl<const W: usize> RulesView<W> for CroatianBoard<W> {
    fn move_number(&self) -> u32 {
        self.setup.fullmove_number
    }
    fn position_string(&self) -> String {
        crate::notation::position_string::write(&self.setup)
    }
}

impl<const W: usize> CroatianBoard<W> {
    /// Keeps the momentum the last move spent, for both sides alike.
    pub(super) fn set_momentum(&mut self, momentum: u32) {
        let value = u16::try_from(momentum).unwrap_or(u16::MAX);
        self.setup.counters[usize::from(croatian::MOMENTUM)] = [value; 2];
    }
}
