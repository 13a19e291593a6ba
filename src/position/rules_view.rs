//! [`RulesView`]: what the rules of a variant say about a position (attacks, check, legal
//! moves), for the query filters that need them; and [`MoveFacts`], a move as those filters see it.

use std::fmt;
use std::num::NonZeroU128;

use super::{Mark, Position, PositionView, Setup};
use crate::board::{Square, SquareSet};
use crate::variant::vocabulary::MAX_ACTIONS;
use crate::variant::{Color, Kind, KindSet, MAX_KINDS, Piece, Variant};

/// The side of the board a king castles to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wing {
    /// Towards the h-file (`O-O`).
    King,
    /// Towards the a-file (`O-O-O`).
    Queen,
}

/// A move as the query's move filters see it: where it goes from and to, which piece moves,
/// what it captures, what it promotes to, and whether it is en passant, castling or a drop.
///
/// It is packed into two words, so that it is made, kept with each position and copied in
/// registers, as each move of a game is replayed.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveFacts(NonZeroU128);

/// The fields of [`MoveFacts`]: the shift of each, its width, and the value that says "none".
mod packed {
    pub const FROM: u32 = 0;
    pub const TO: u32 = 10;
    pub const CAPTURE: u32 = 20;
    pub const SQUARE_BITS: u128 = 0x3ff;
    pub const PROMOTION: u32 = 30;
    pub const MOVER: u32 = 38;
    pub const CAPTURED: u32 = 46;
    pub const KIND_BITS: u128 = 0xff;
    pub const MOVER_BLACK: u128 = 1 << 54;
    pub const CAPTURED_BLACK: u128 = 1 << 55;
    pub const EN_PASSANT: u128 = 1 << 56;
    pub const KING_WING: u128 = 1 << 57;
    pub const QUEEN_WING: u128 = 1 << 58;
    pub const DROP: u128 = 1 << 59;
    pub const NULL: u128 = 1 << 60;
    /// Set in every value, so that none is zero.
    pub const PRESENT: u128 = 1 << 63;
    /// The actions of the variant's moves, one bit each (see `Vocabulary::actions`), in the
    /// second word.
    pub const ACTIONS: u32 = 64;
    pub const ACTION_BITS: u128 = 0xffff;
}

// Every square of the largest board, and every kind, fits its field, beside a value for none.
const _: () = assert!(26 * 26 < packed::SQUARE_BITS as usize && MAX_KINDS < packed::KIND_BITS as usize);
// Every action a vocabulary may list has its bit.
const _: () = assert!(packed::ACTION_BITS == (1 << MAX_ACTIONS) - 1);

impl MoveFacts {
    /// A move of `mover` from `from` (none for a drop) to `to`, capturing nothing, promoting
    /// to nothing.
    #[must_use]
    #[inline]
    pub fn new(from: Option<Square>, to: Square, mover: Piece) -> MoveFacts {
        let from = from.map_or(packed::SQUARE_BITS, |square| square.index() as u128);
        let black = if mover.color == Color::Black { packed::MOVER_BLACK } else { 0 };
        let bits = packed::PRESENT
            | black
            | from << packed::FROM
            | (to.index() as u128) << packed::TO
            | packed::SQUARE_BITS << packed::CAPTURE
            | packed::KIND_BITS << packed::PROMOTION
            | (mover.kind.index() as u128) << packed::MOVER
            | packed::KIND_BITS << packed::CAPTURED;
        MoveFacts(NonZeroU128::new(bits).expect("the present bit is set"))
    }

    /// The same move, capturing `captured` on `square`.
    #[must_use]
    #[inline]
    pub fn capturing(self, square: Square, captured: Piece) -> MoveFacts {
        let black = if captured.color == Color::Black { packed::CAPTURED_BLACK } else { 0 };
        self.with_field(packed::CAPTURE, packed::SQUARE_BITS, square.index() as u128)
            .with_field(packed::CAPTURED, packed::KIND_BITS, captured.kind.index() as u128)
            .with_flag(black)
    }

    /// The same move, promoting to `kind`.
    #[must_use]
    #[inline]
    pub fn promoting(self, kind: Kind) -> MoveFacts {
        self.with_field(packed::PROMOTION, packed::KIND_BITS, kind.index() as u128)
    }

    /// The same move, an en passant capture of `captured` on `square`.
    #[must_use]
    #[inline]
    pub fn en_passant_of(self, square: Square, captured: Piece) -> MoveFacts {
        self.capturing(square, captured).with_flag(packed::EN_PASSANT)
    }

    /// The same move, castling towards `wing`.
    #[must_use]
    #[inline]
    pub fn castling(self, wing: Wing) -> MoveFacts {
        self.with_flag(if wing == Wing::King { packed::KING_WING } else { packed::QUEEN_WING })
    }

    /// The same move, putting a piece from the hand on the board.
    #[must_use]
    #[inline]
    pub fn dropping(self) -> MoveFacts {
        self.with_flag(packed::DROP)
    }

    /// The same move, a null move: the side to move passes (its king standing still, as CQL
    /// 6.2 sees it, from its square to its square).
    #[must_use]
    #[inline]
    pub fn passing(self) -> MoveFacts {
        self.with_flag(packed::NULL)
    }

    /// The same move, doing the action its variant's vocabulary lists `action`th (a Laser
    /// Chess turn or swap).
    #[must_use]
    #[inline]
    pub fn acting(self, action: u8) -> MoveFacts {
        debug_assert!(usize::from(action) < MAX_ACTIONS, "a vocabulary lists at most {MAX_ACTIONS} actions");
        self.with_flag((1 << action & packed::ACTION_BITS) << packed::ACTIONS)
    }

    /// The actions the move does, one bit each (bit `i` the action its variant's vocabulary
    /// lists `i`th).
    #[must_use]
    #[inline]
    pub fn actions(self) -> u16 {
        self.field(packed::ACTIONS, packed::ACTION_BITS) as u16
    }

    /// The square the piece leaves (none for a drop).
    #[must_use]
    #[inline]
    pub fn from(self) -> Option<Square> {
        self.square(packed::FROM)
    }

    /// The square it lands on (the king's square, for castling).
    #[must_use]
    #[inline]
    pub fn to(self) -> Square {
        Square::from_index(self.field(packed::TO, packed::SQUARE_BITS) as u16)
    }

    /// The square of the piece captured, if any (for en passant, the captured pawn's square).
    #[must_use]
    #[inline]
    pub fn capture(self) -> Option<Square> {
        self.square(packed::CAPTURE)
    }

    /// The piece that moves, as it stood on the square it leaves (the king, for castling; the
    /// piece put, for a drop).
    #[must_use]
    #[inline]
    pub fn mover(self) -> Piece {
        let color = if self.0.get() & packed::MOVER_BLACK != 0 { Color::Black } else { Color::White };
        Piece { kind: Kind::new(self.field(packed::MOVER, packed::KIND_BITS) as u8), color }
    }

    /// The piece captured, if any.
    #[must_use]
    #[inline]
    pub fn captured(self) -> Option<Piece> {
        let color = if self.0.get() & packed::CAPTURED_BLACK != 0 { Color::Black } else { Color::White };
        self.kind(packed::CAPTURED).map(|kind| Piece { kind, color })
    }

    /// The kind a pawn promotes to, in the colour of the side that moved.
    #[must_use]
    #[inline]
    pub fn promotion(self) -> Option<Kind> {
        self.kind(packed::PROMOTION)
    }

    /// Whether it is an en passant capture.
    #[must_use]
    #[inline]
    pub fn is_en_passant(self) -> bool {
        self.0.get() & packed::EN_PASSANT != 0
    }

    /// The side castled to, for castling.
    #[must_use]
    #[inline]
    pub fn castle(self) -> Option<Wing> {
        let bits = self.0.get();
        if bits & packed::KING_WING != 0 {
            Some(Wing::King)
        } else if bits & packed::QUEEN_WING != 0 {
            Some(Wing::Queen)
        } else {
            None
        }
    }

    /// Whether a piece from the hand is put on the board.
    #[must_use]
    #[inline]
    pub fn is_drop(self) -> bool {
        self.0.get() & packed::DROP != 0
    }

    /// Whether it is a null move.
    #[must_use]
    #[inline]
    pub fn is_null(self) -> bool {
        self.0.get() & packed::NULL != 0
    }

    fn field(self, shift: u32, mask: u128) -> u128 {
        (self.0.get() >> shift) & mask
    }

    fn square(self, shift: u32) -> Option<Square> {
        let index = self.field(shift, packed::SQUARE_BITS);
        (index != packed::SQUARE_BITS).then(|| Square::from_index(index as u16))
    }

    fn kind(self, shift: u32) -> Option<Kind> {
        let index = self.field(shift, packed::KIND_BITS);
        (index != packed::KIND_BITS).then(|| Kind::new(index as u8))
    }

    fn with_field(self, shift: u32, mask: u128, value: u128) -> MoveFacts {
        let bits = (self.0.get() & !(mask << shift)) | (value & mask) << shift;
        MoveFacts(NonZeroU128::new(bits | packed::PRESENT).expect("the present bit is set"))
    }

    fn with_flag(self, flag: u128) -> MoveFacts {
        MoveFacts(self.0 | flag)
    }
}

impl fmt::Debug for MoveFacts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MoveFacts")
            .field("from", &self.from())
            .field("to", &self.to())
            .field("mover", &self.mover())
            .field("capture", &self.capture())
            .field("captured", &self.captured())
            .field("promotion", &self.promotion())
            .field("en_passant", &self.is_en_passant())
            .field("castle", &self.castle())
            .field("drop", &self.is_drop())
            .field("actions", &self.actions())
            .finish()
    }
}

/// What a move did besides what its [`MoveFacts`] hold: the open part of a move's facts, for
/// the rules whose moves do more than move one piece and capture one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEffects<const W: usize> {
    /// The squares whose pieces the move removed besides the one it captured (an Atomic
    /// explosion's).
    pub removed: SquareSet<W>,
    /// Another piece that changed squares, from and to (the piece a Laser Chess Switch took
    /// the place of).
    pub displaced: Option<(Square, Square)>,
}

impl<const W: usize> MoveEffects<W> {
    /// Nothing besides the facts.
    pub const NONE: MoveEffects<W> = MoveEffects { removed: SquareSet::EMPTY, displaced: None };
}

/// A position with the rules of its variant: what its pieces attack, whether the side to move
/// is in check, and its legal moves.
///
/// Views without rules (as [`Position`] of a variant cqlq does not play) keep the defaults; the
/// query compiler refuses the filters that need rules for such variants, so the defaults are
/// never consulted for them.
pub trait RulesView<const W: usize>: PositionView<W> {
    /// The squares the piece on `square` attacks (none for an empty square).
    fn attacks_from(&self, square: Square) -> SquareSet<W> {
        let _ = square;
        SquareSet::EMPTY
    }

    /// Whether the side to move is in check.
    fn in_check(&self) -> bool {
        false
    }

    /// Appends the legal moves of the side to move.
    fn legal_moves(&self, moves: &mut Vec<MoveFacts>) {
        let _ = moves;
    }

    /// Appends the pseudo-legal moves of the side to move: the legal ones, and those that would
    /// be legal but leave (or put) the mover's king in check. Views that know no more give the
    /// legal moves.
    fn pseudo_legal_moves(&self, moves: &mut Vec<MoveFacts>) {
        self.legal_moves(moves);
    }

    /// Appends the legal moves (with `pseudo`, the pseudo-legal ones) that leave a square of
    /// `from` and land on a square of `to`, where these are given (a drop leaves no square).
    fn moves_within(
        &self,
        pseudo: bool,
        from: Option<SquareSet<W>>,
        to: Option<SquareSet<W>>,
        moves: &mut Vec<MoveFacts>,
    ) {
        let mut all = Vec::new();
        if pseudo {
            self.pseudo_legal_moves(&mut all);
        } else {
            self.legal_moves(&mut all);
        }
        moves.extend(all.into_iter().filter(|m| {
            from.is_none_or(|from| m.from().is_some_and(|square| from.contains(square)))
                && to.is_none_or(|to| to.contains(m.to()))
        }));
    }

    /// Whether the side to move has a legal move.
    fn has_legal_move(&self) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        !moves.is_empty()
    }

    /// Whether the side to move is mated: in check, without a legal move (as the variant
    /// means check).
    fn is_mate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// Whether the side to move is stalemated: not in check, without a legal move, the game
    /// not ended otherwise by the variant's own rules.
    fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_move()
    }

    /// The pieces standing alone on a line between an enemy line piece and one of `shielded`
    /// (a piece of theirs, or an empty square, as CQL 6.2 counts pins), each given to `pin` as
    /// `(pinner, pinned, shielded)` squares.
    fn pins(&self, shielded: SquareSet<W>, pin: &mut dyn FnMut(Square, Square, Square)) {
        let _ = (shielded, pin);
    }

    /// A set of squares the variant's rules find, as its vocabulary names it
    /// ([`crate::variant::WordMeaning::RulesSet`]): Laser Chess's beams. None by default.
    fn rules_set(&self, set: u8) -> SquareSet<W> {
        let _ = set;
        SquareSet::EMPTY
    }

    /// The number of the move, as the FEN counts it (1 in the first move).
    fn move_number(&self) -> u32;

    /// The position in its variant's own string: a FEN for chess (CQL's `fen`).
    fn position_string(&self) -> String;

    /// The number of plies since move 1 with White to move, from the move number.
    fn ply_from_counters(&self) -> u32 {
        let black = u32::from(self.turn() == Color::Black);
        self.move_number().saturating_sub(1).saturating_mul(2).saturating_add(black)
    }
}

impl<const W: usize> RulesView<W> for Position<W> {
    fn move_number(&self) -> u32 {
        self.setup().fullmove_number
    }
    fn position_string(&self) -> String {
        crate::notation::position_string::write(self.setup())
    }
}

impl<const W: usize> RulesView<W> for Setup<W> {
    fn move_number(&self) -> u32 {
        self.fullmove_number
    }
    fn position_string(&self) -> String {
        crate::notation::position_string::write(self)
    }
}

// A borrowed position is a position: single positions are tested without a copy.
impl<const W: usize, T: PositionView<W>> PositionView<W> for &T {
    fn variant(&self) -> &'static Variant {
        (**self).variant()
    }
    #[inline]
    fn kind(&self, kind: Kind) -> SquareSet<W> {
        (**self).kind(kind)
    }
    #[inline]
    fn color(&self, color: Color) -> SquareSet<W> {
        (**self).color(color)
    }
    fn marked(&self, mark: Mark) -> SquareSet<W> {
        (**self).marked(mark)
    }
    fn in_backhand(&self, piece: Piece) -> u32 {
        (**self).in_backhand(piece)
    }
    fn backhand_kinds(&self, color: Color) -> KindSet {
        (**self).backhand_kinds(color)
    }
    fn turn(&self) -> Color {
        (**self).turn()
    }
    fn counter(&self, counter: u8, side: Color) -> i64 {
        (**self).counter(counter, side)
    }
    #[inline]
    fn pieces(&self, color: Color, kinds: KindSet) -> SquareSet<W> {
        (**self).pieces(color, kinds)
    }
    #[inline]
    fn occupied(&self) -> SquareSet<W> {
        (**self).occupied()
    }
    fn with_level(&self, level: u8) -> SquareSet<W> {
        (**self).with_level(level)
    }
}

impl<const W: usize, T: RulesView<W>> RulesView<W> for &T {
    fn attacks_from(&self, square: Square) -> SquareSet<W> {
        (**self).attacks_from(square)
    }
    fn in_check(&self) -> bool {
        (**self).in_check()
    }
    fn legal_moves(&self, moves: &mut Vec<MoveFacts>) {
        (**self).legal_moves(moves);
    }
    fn pseudo_legal_moves(&self, moves: &mut Vec<MoveFacts>) {
        (**self).pseudo_legal_moves(moves);
    }
    fn has_legal_move(&self) -> bool {
        (**self).has_legal_move()
    }
    fn is_mate(&self) -> bool {
        (**self).is_mate()
    }
    fn is_stalemate(&self) -> bool {
        (**self).is_stalemate()
    }
    fn pins(&self, shielded: SquareSet<W>, pin: &mut dyn FnMut(Square, Square, Square)) {
        (**self).pins(shielded, pin);
    }
    fn rules_set(&self, set: u8) -> SquareSet<W> {
        (**self).rules_set(set)
    }
    fn move_number(&self) -> u32 {
        (**self).move_number()
    }
    fn position_string(&self) -> String {
        (**self).position_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field comes back as put, on the largest board too, and the others stay empty.
    #[test]
    fn move_facts_keep_their_fields() {
        let last = Square::from_index(26 * 26 - 1);
        let (a1, b2) = (Square::from_index(0), Square::from_index(27));
        let knight = Piece { kind: Kind::new(1), color: Color::White };
        let rare = Piece { kind: Kind::new(127), color: Color::Black };
        let plain = MoveFacts::new(Some(a1), last, knight);
        assert_eq!((plain.from(), plain.to(), plain.mover()), (Some(a1), last, knight));
        assert_eq!((plain.capture(), plain.captured(), plain.promotion()), (None, None, None));
        assert!(!plain.is_en_passant() && plain.castle().is_none() && !plain.is_drop());

        let promotion = MoveFacts::new(Some(b2), a1, rare).capturing(a1, knight).promoting(Kind::new(127));
        assert_eq!((promotion.capture(), promotion.captured()), (Some(a1), Some(knight)));
        assert_eq!((promotion.from(), promotion.to(), promotion.mover()), (Some(b2), a1, rare));
        assert_eq!(promotion.promotion(), Some(Kind::new(127)));

        let en_passant = MoveFacts::new(Some(a1), b2, knight).en_passant_of(last, rare);
        assert_eq!(
            (en_passant.capture(), en_passant.captured(), en_passant.is_en_passant()),
            (Some(last), Some(rare), true)
        );

        for wing in [Wing::King, Wing::Queen] {
            assert_eq!(MoveFacts::new(Some(a1), b2, rare).castling(wing).castle(), Some(wing));
        }
        let drop = MoveFacts::new(None, last, rare).dropping();
        assert_eq!((drop.from(), drop.is_drop(), drop.capture(), drop.mover()), (None, true, None, rare));
        assert_eq!(std::mem::size_of::<Option<MoveFacts>>(), 16);
    }
}
