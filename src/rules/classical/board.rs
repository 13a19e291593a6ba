//! [`Board`]: a position of Standard chess, Chess960 or Crazyhouse on `u64` bitboards, with move
//! application and legal move generation.

use std::fmt;
use std::sync::OnceLock;

use arrayvec::ArrayVec;

use super::attacks::{self, Bitboard};
use crate::board::{File, Rank, Square, SquareSet, Width};
use crate::position::{Mark, Position, PositionView, Setup};
use crate::variant::{BackhandRule, CastlingRule, Color, Kind, KindSet, Piece, Role, Variant};

/// The rules a board follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Standard chess (and X-Decor's).
    Standard,
    /// Chess960: castling with rooks anywhere on the first rank.
    Chess960,
    /// Crazyhouse: captured pieces change colour and may be dropped.
    Crazyhouse,
}

impl Rules {
    /// The rules of a variant of the classical family.
    #[must_use]
    pub fn of(variant: &Variant) -> Rules {
        if variant.backhand == BackhandRule::Drops {
            Rules::Crazyhouse
        } else if variant.castling == CastlingRule::Free {
            Rules::Chess960
        } else {
            Rules::Standard
        }
    }
}

/// A move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece moves (and perhaps captures, or promotes).
    Normal {
        /// The piece's role.
        role: Role,
        /// Where from.
        from: u8,
        /// Where to.
        to: u8,
        /// The role of the piece captured, if any.
        capture: Option<Role>,
        /// The role a pawn promotes to.
        promotion: Option<Role>,
    },
    /// A pawn captures en passant.
    EnPassant {
        /// Where from.
        from: u8,
        /// The square it lands on.
        to: u8,
    },
    /// The king castles with a rook.
    Castle {
        /// The king's square.
        king: u8,
        /// The rook's square.
        rook: u8,
    },
    /// A piece from the hand is put on the board.
    Drop {
        /// The piece's role.
        role: Role,
        /// Where.
        to: u8,
    },
    /// The side to move passes (`--` in analysis files).
    Null,
}

impl Move {
    /// The square the move lands on, where it has one.
    #[must_use]
    pub fn to(self) -> Option<u8> {
        match self {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } | Move::Drop { to, .. } => Some(to),
            Move::Castle { king, rook } => Some(castled_king(king, rook)),
            Move::Null => None,
        }
    }

    /// The square the move leaves, where it has one.
    #[must_use]
    pub fn from(self) -> Option<u8> {
        match self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => Some(from),
            Move::Castle { king, .. } => Some(king),
            Move::Drop { .. } | Move::Null => None,
        }
    }
}

/// Where a king castling with a rook lands: the g-file on the king's side, the c-file on the
/// queen's.
fn castled_king(king: u8, rook: u8) -> u8 {
    let rank = king & !7;
    if rook > king { rank + 6 } else { rank + 2 }
}

/// Where the rook lands: the f-file or the d-file.
fn castled_rook(king: u8, rook: u8) -> u8 {
    let rank = king & !7;
    if rook > king { rank + 5 } else { rank + 3 }
}

/// The index of a square on the board (a1 = 0, b1 = 1, ..., h8 = 63), if it is on it.
#[must_use]
pub const fn square_index(file: File, rank: Rank) -> Option<u8> {
    if file.index() < 8 && rank.index() < 8 { Some(rank.index() * 8 + file.index()) } else { None }
}

/// The file and rank of a square's index, if it is one.
#[must_use]
pub const fn file_and_rank(index: u8) -> Option<(File, Rank)> {
    match (File::new(index % 8), Rank::new(index / 8)) {
        (Some(file), Some(rank)) if index < 64 => Some((file, rank)),
        _ => None,
    }
}

/// A list of moves without allocation (and without filling its room when it is made).
#[derive(Clone, Debug)]
pub struct MoveList {
    moves: ArrayVec<Move, 512>,
}

impl MoveList {
    /// An empty list.
    #[must_use]
    pub fn new() -> MoveList {
        MoveList { moves: ArrayVec::new() }
    }

    pub(super) fn push(&mut self, m: Move) {
        // No position has more moves than there is room for; one that had would lose the rest.
        let _ = self.moves.try_push(m);
    }

    /// Keeps, of the moves from index `start` on, those that pass `keep`.
    pub(super) fn retain_from(&mut self, start: usize, mut keep: impl FnMut(Move) -> bool) {
        let mut index = start;
        while index < self.moves.len() {
            if keep(self.moves[index]) {
                index += 1;
            } else {
                self.moves.remove(index);
            }
        }
    }

    /// The moves.
    #[must_use]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// The number of moves.
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

/// The six roles of the classical family, in the order of their indices.
pub(super) const ROLES: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

/// A position of the classical family, with what replay needs.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    variant: &'static Variant,
    rules: Rules,
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    turn: Color,
    /// The rooks that keep a castling right.
    castling: Bitboard,
    /// The square a pawn skipped on the last move.
    en_passant: Option<u8>,
    halfmoves: u32,
    fullmoves: u32,
    /// Pieces beside the board, by colour and role: the hands in Crazyhouse, the captured pieces
    /// in their own colour elsewhere.
    backhand: [[u8; 6]; 2],
    /// Crazyhouse: pieces that were pawns.
    promoted: Bitboard,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", crate::notation::fen::write(&self.to_setup(), Default::default()))
    }
}

impl Board {
    /// The board of a checked position of a classical variant.
    ///
    /// # Panics
    ///
    /// If the variant is not of the classical family (8x8, alphabet P N B R Q K).
    #[must_use]
    pub fn from_position(position: &Position<1>) -> Board {
        Board::from_setup(position.setup())
    }

    /// Whether the side not to move is in check in a setup with one king a side: a position no
    /// game can reach, where the side to move could take the king.
    #[must_use]
    pub(crate) fn waiting_side_in_check(setup: &Setup<1>) -> bool {
        let board = Board::from_setup(setup);
        let waiting = board.turn.other();
        board.attackers(board.king(waiting), board.turn, board.occupied()) != 0
    }

    /// Whether a variant's positions fit the board: 8x8, the six classical pieces.
    fn plays(variant: &Variant) -> bool {
        variant.width() == Width::W1
            && variant.geometry.files() == 8
            && variant.geometry.ranks() == 8
            && variant.pieces.len() == 6
    }

    fn from_setup(setup: &Setup<1>) -> Board {
        let variant = setup.variant;
        assert_eq!(variant.pieces.len(), 6, "a classical variant");
        let mut board = Board {
            variant,
            rules: Rules::of(variant),
            by_role: [0; 6],
            by_color: [0; 2],
            turn: setup.turn,
            castling: word(setup.board.marked(Mark::CASTLE)),
            en_passant: setup.en_passant.map(|square| square.index() as u8),
            halfmoves: setup.halfmove_clock,
            fullmoves: setup.fullmove_number,
            backhand: [[0; 6]; 2],
            promoted: word(setup.board.marked(Mark::PROMOTED)),
        };
        for (index, role) in ROLES.iter().enumerate() {
            let kind = Kind::new(index as u8);
            debug_assert_eq!(variant.piece_type(kind).role, Some(*role));
            board.by_role[index] = word(setup.board.kind(kind));
            for color in Color::ALL {
                board.backhand[color.index()][index] =
                    setup.backhand.count(Piece { kind, color }).min(u32::from(u8::MAX)) as u8;
            }
        }
        for color in Color::ALL {
            board.by_color[color.index()] = word(setup.board.color(color));
        }
        board
    }

    /// The initial position of a classical variant.
    #[must_use]
    pub fn initial(variant: &'static Variant) -> Board {
        // Built once per variant: games start from it by the hundred thousand.
        static INITIAL: OnceLock<Vec<Option<Board>>> = OnceLock::new();
        let boards = INITIAL.get_or_init(|| {
            Variant::all()
                .iter()
                .map(|variant| Board::plays(variant).then(|| Board::from_position(&Position::initial(variant))))
                .collect()
        });
        match &boards[variant.index()] {
            Some(board) => *board,
            None => Board::from_position(&Position::initial(variant)),
        }
    }

    /// The position as a setup, to write or to check.
    #[must_use]
    pub fn to_setup(&self) -> Setup<1> {
        let mut setup = Setup::empty(self.variant);
        for (index, _) in ROLES.iter().enumerate() {
            for color in Color::ALL {
                let piece = Piece { kind: Kind::new(index as u8), color };
                for square in bits(self.by_role[index] & self.by_color[color.index()]) {
                    setup.board.put(Square::from_index(square as u16), piece);
                }
                setup.backhand.set(piece, u16::from(self.backhand[color.index()][index]));
            }
        }
        for square in bits(self.castling) {
            setup.board.set_mark(Mark::CASTLE, Square::from_index(square as u16), true);
        }
        for square in bits(self.promoted) {
            setup.board.set_mark(Mark::PROMOTED, Square::from_index(square as u16), true);
        }
        setup.turn = self.turn;
        setup.en_passant = self.legal_en_passant().map(|square| Square::from_index(u16::from(square)));
        setup.halfmove_clock = self.halfmoves;
        setup.fullmove_number = self.fullmoves;
        setup
    }

    /// The variant.
    #[must_use]
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The move number.
    #[must_use]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Plies since the last capture or pawn move.
    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The squares of a colour's pieces of a role.
    #[inline]
    #[must_use]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_role[role as usize] & self.by_color[color.index()]
    }

    /// The squares of a colour's pieces.
    #[inline]
    #[must_use]
    pub fn side(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The occupied squares.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The role of the piece on a square.
    #[inline]
    #[must_use]
    pub fn role_at(&self, square: u8) -> Option<Role> {
        let bit = 1u64 << square;
        if self.occupied() & bit == 0 {
            return None;
        }
        ROLES.into_iter().find(|role| self.by_role[*role as usize] & bit != 0)
    }

    /// How many of a role a colour holds beside the board.
    #[must_use]
    pub fn in_hand(&self, color: Color, role: Role) -> u8 {
        self.backhand[color.index()][role as usize]
    }

    /// The square a pawn skipped on the last move (whether or not it can be taken there).
    #[must_use]
    pub fn en_passant_target(&self) -> Option<u8> {
        self.en_passant
    }

    /// The rooks that keep castling rights.
    #[must_use]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// The king's square of a colour.
    #[inline]
    #[must_use]
    pub fn king(&self, color: Color) -> u8 {
        self.pieces(color, Role::King).trailing_zeros() as u8
    }

    /// The pieces of `color` that attack `square`, with `occupied` as the board's occupancy.
    #[inline]
    #[must_use]
    pub fn attackers(&self, square: u8, color: Color, occupied: Bitboard) -> Bitboard {
        let square = usize::from(square);
        let them = self.by_color[color.index()];
        let rooks = self.by_role[Role::Rook as usize] | self.by_role[Role::Queen as usize];
        let bishops = self.by_role[Role::Bishop as usize] | self.by_role[Role::Queen as usize];
        them & ((attacks::knight(square) & self.by_role[Role::Knight as usize])
            | (attacks::king(square) & self.by_role[Role::King as usize])
            | (attacks::pawn(color.other().index(), square) & self.by_role[Role::Pawn as usize])
            | (attacks::rook(square, occupied) & rooks)
            | (attacks::bishop(square, occupied) & bishops))
    }

    /// The pieces giving check to the side to move.
    #[must_use]
    pub fn checkers(&self) -> Bitboard {
        self.attackers(self.king(self.turn), self.turn.other(), self.occupied())
    }

    /// Whether the side to move is in check: as [`Board::checkers`] finds it, the lines of the
    /// king traced only where an enemy slider stands on one.
    #[must_use]
    #[inline]
    pub fn is_check(&self) -> bool {
        self.king_attacked_by(self.by_color[self.turn.other().index()], self.occupied())
    }

    /// Whether some of `them` (pieces of the side not to move) attack the side to move's king,
    /// with `occupied` as the board's occupancy: the leapers first, then the king's lines,
    /// traced only where a slider of `them` stands on one.
    #[inline(always)]
    fn king_attacked_by(&self, them: Bitboard, occupied: Bitboard) -> bool {
        let king = usize::from(self.king(self.turn));
        let leapers = (attacks::knight(king) & self.by_role[Role::Knight as usize])
            | (attacks::pawn(self.turn.index(), king) & self.by_role[Role::Pawn as usize])
            | (attacks::king(king) & self.by_role[Role::King as usize]);
        if leapers & them != 0 {
            return true;
        }
        let queens = self.by_role[Role::Queen as usize];
        let rooks = (self.by_role[Role::Rook as usize] | queens) & them & attacks::rook_rays(king);
        let bishops = (self.by_role[Role::Bishop as usize] | queens) & them & attacks::bishop_rays(king);
        (rooks != 0 && attacks::rook(king, occupied) & rooks != 0)
            || (bishops != 0 && attacks::bishop(king, occupied) & bishops != 0)
    }

    /// The squares a piece of `role` and `color` on `square` attacks.
    #[must_use]
    #[inline]
    pub fn attacks_from(&self, role: Role, color: Color, square: u8, occupied: Bitboard) -> Bitboard {
        let square = usize::from(square);
        match role {
            Role::Pawn => attacks::pawn(color.index(), square),
            Role::Knight => attacks::knight(square),
            Role::Bishop => attacks::bishop(square, occupied),
            Role::Rook => attacks::rook(square, occupied),
            Role::Queen => attacks::queen(square, occupied),
            Role::King => attacks::king(square),
        }
    }

    /// The en passant square, if a pawn of the side to move can take there legally.
    #[must_use]
    pub fn legal_en_passant(&self) -> Option<u8> {
        let to = self.en_passant?;
        let candidates = self.pieces(self.turn, Role::Pawn) & attacks::pawn(self.turn.other().index(), usize::from(to));
        bits(candidates).any(|from| self.is_legal(Move::EnPassant { from: from as u8, to })).then_some(to)
    }

    /// Plays a move, which must be legal.
    #[inline]
    pub fn play(&mut self, m: Move) {
        self.play_inline(m);
    }

    /// [`Board::play`], made part of its caller: for replaying games, where it is called once
    /// a move.
    #[inline(always)]
    pub(super) fn play_inline(&mut self, m: Move) {
        let us = self.turn;
        let them = us.other();
        self.halfmoves = self.halfmoves.saturating_add(1);
        let mut en_passant = None;
        match m {
            Move::Normal { role, from, to, capture, promotion } => {
                let from_bit = 1u64 << from;
                let to_bit = 1u64 << to;
                if let Some(captured) = capture {
                    self.capture(to, captured, them);
                    self.halfmoves = 0;
                }
                let was_promoted = self.promoted & from_bit != 0;
                self.remove(from, role, us);
                self.promoted &= !from_bit;
                let landing = promotion.unwrap_or(role);
                self.put(to, landing, us);
                if self.rules == Rules::Crazyhouse && (promotion.is_some() || was_promoted) {
                    self.promoted |= to_bit;
                }
                if role == Role::Pawn {
                    self.halfmoves = 0;
                    if from.abs_diff(to) == 16 {
                        en_passant = Some((from + to) / 2);
                    }
                } else if role == Role::King {
                    self.castling &= !self.home_rank(us);
                }
                self.castling &= !(from_bit | to_bit);
            }
            Move::EnPassant { from, to } => {
                let victim = if us == Color::White { to - 8 } else { to + 8 };
                self.capture(victim, Role::Pawn, them);
                self.remove(from, Role::Pawn, us);
                self.put(to, Role::Pawn, us);
                self.halfmoves = 0;
            }
            Move::Castle { king, rook } => {
                self.remove(king, Role::King, us);
                self.remove(rook, Role::Rook, us);
                self.put(castled_king(king, rook), Role::King, us);
                self.put(castled_rook(king, rook), Role::Rook, us);
                self.castling &= !self.home_rank(us);
            }
            Move::Drop { role, to } => {
                self.backhand[us.index()][role as usize] -= 1;
                self.put(to, role, us);
                if role == Role::Pawn {
                    self.halfmoves = 0;
                }
            }
            Move::Null => {}
        }
        self.en_passant = en_passant;
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = them;
    }

    fn home_rank(&self, color: Color) -> Bitboard {
        if color == Color::White { attacks::RANK_1 } else { attacks::RANK_1 << 56 }
    }

    #[inline]
    fn put(&mut self, square: u8, role: Role, color: Color) {
        let bit = 1u64 << square;
        self.by_role[role as usize] |= bit;
        self.by_color[color.index()] |= bit;
    }

    #[inline]
    fn remove(&mut self, square: u8, role: Role, color: Color) {
        let bit = !(1u64 << square);
        self.by_role[role as usize] &= bit;
        self.by_color[color.index()] &= bit;
    }

    /// Takes a piece of `color` off `square` into the backhand.
    fn capture(&mut self, square: u8, role: Role, color: Color) {
        let bit = 1u64 << square;
        self.remove(square, role, color);
        self.castling &= !bit;
        match self.rules {
            Rules::Crazyhouse => {
                let returned = if self.promoted & bit != 0 { Role::Pawn } else { role };
                let hand = &mut self.backhand[color.other().index()][returned as usize];
                *hand = hand.saturating_add(1);
            }
            _ => {
                let pile = &mut self.backhand[color.index()][role as usize];
                *pile = pile.saturating_add(1);
            }
        }
        self.promoted &= !bit;
    }

    /// Whether a move is legal here.
    #[must_use]
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        match m {
            Move::Castle { king, rook } => self.may_castle(king, rook),
            Move::Null => !self.is_check(),
            Move::Normal { role, from, to, .. } => self.leaves_king_safe(role, from, to),
            Move::Drop { to, .. } => {
                let us = self.turn;
                self.attackers(self.king(us), us.other(), self.occupied() | (1u64 << to)) == 0
            }
            Move::EnPassant { .. } => {
                let us = self.turn;
                let mut after = *self;
                after.play(m);
                after.attackers(after.king(us), us.other(), after.occupied()) == 0
            }
        }
    }

    /// Whether a pseudo-legal piece move (not en passant, not castling) leaves the mover's king
    /// unattacked, found without playing it.
    #[inline(always)]
    pub(super) fn leaves_king_safe(&self, role: Role, from: u8, to: u8) -> bool {
        let us = self.turn;
        let them = us.other();
        let from_bit = 1u64 << from;
        let to_bit = 1u64 << to;
        if role == Role::King {
            return self.attackers(to, them, self.occupied() & !from_bit) == 0;
        }
        // A piece taken on `to` attacks nothing any more.
        !self.king_attacked_by(self.by_color[them.index()] & !to_bit, (self.occupied() & !from_bit) | to_bit)
    }

    /// Every pseudo-legal move: the moves of the pieces as they move, whether or not the mover's
    /// king is in check before or after, and castling as it is legal (as CQL 6.2 counts them).
    pub fn pseudo_legal_moves(&self, moves: &mut MoveList) {
        self.pseudo_legal_moves_from(!0, moves);
    }

    /// The pseudo-legal moves that leave a square of `origins` (drops leave none: they come
    /// only when every square is an origin).
    pub fn pseudo_legal_moves_from(&self, origins: Bitboard, moves: &mut MoveList) {
        let us = self.turn;
        let occupied = self.occupied();
        let ours = self.side(us);
        for role in [Role::King, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in bits(self.pieces(us, role) & origins) {
                for to in bits(self.attacks_from(role, us, from as u8, occupied) & !ours) {
                    let capture = self.role_at(to as u8);
                    moves.push(Move::Normal { role, from: from as u8, to: to as u8, capture, promotion: None });
                }
            }
        }
        self.pawn_moves(moves, origins, !ours, 0, self.king(us), Safety::Pseudo);
        // Castling stays what it is: never out of, through or into check.
        if origins & (1u64 << self.king(us)) != 0 {
            self.castling_moves(moves);
        }
        if self.rules == Rules::Crazyhouse && origins == !0 {
            for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                if self.in_hand(us, role) == 0 {
                    continue;
                }
                let back_ranks = if role == Role::Pawn { attacks::RANK_1 | attacks::RANK_1 << 56 } else { 0 };
                for to in bits(!occupied & !back_ranks) {
                    moves.push(Move::Drop { role, to: to as u8 });
                }
            }
        }
    }

    /// Every legal move.
    pub fn legal_moves(&self, moves: &mut MoveList) {
        self.legal_moves_from(!0, moves);
    }

    /// The legal moves that leave a square of `origins` (drops leave none: they come only when
    /// every square is an origin).
    pub fn legal_moves_from(&self, origins: Bitboard, moves: &mut MoveList) {
        let us = self.turn;
        let them = us.other();
        let king = self.king(us);
        let occupied = self.occupied();
        let ours = self.side(us);
        let checkers = self.attackers(king, them, occupied);
        let without_king = occupied & !(1u64 << king);
        let king_moves = if origins & (1u64 << king) != 0 { attacks::king(usize::from(king)) & !ours } else { 0 };
        for to in bits(king_moves) {
            if self.attackers(to as u8, them, without_king) == 0 {
                let capture = self.role_at(to as u8);
                moves.push(Move::Normal { role: Role::King, from: king, to: to as u8, capture, promotion: None });
            }
        }
        if checkers.count_ones() > 1 {
            return;
        }
        let targets = if checkers != 0 {
            let checker = checkers.trailing_zeros() as usize;
            attacks::between(usize::from(king), checker) | checkers
        } else {
            !ours
        };
        let pinned = self.pinned(us);
        let pin_line = |from: usize| {
            if pinned & (1u64 << from) != 0 { attacks::line(usize::from(king), from) } else { u64::MAX }
        };
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in bits(self.pieces(us, role) & origins) {
                let reach = self.attacks_from(role, us, from as u8, occupied) & targets & pin_line(from);
                for to in bits(reach) {
                    let capture = self.role_at(to as u8);
                    moves.push(Move::Normal { role, from: from as u8, to: to as u8, capture, promotion: None });
                }
            }
        }
        self.pawn_moves(moves, origins, targets, pinned, king, Safety::Legal);
        if checkers == 0 && origins & (1u64 << king) != 0 {
            self.castling_moves(moves);
        }
        if self.rules == Rules::Crazyhouse && origins == !0 {
            let drop_targets = !occupied & if checkers != 0 { targets & !checkers } else { u64::MAX };
            for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                if self.in_hand(us, role) == 0 {
                    continue;
                }
                let allowed = if role == Role::Pawn {
                    drop_targets & !(attacks::RANK_1 | attacks::RANK_1 << 56)
                } else {
                    drop_targets
                };
                for to in bits(allowed) {
                    moves.push(Move::Drop { role, to: to as u8 });
                }
            }
        }
    }

    /// The pieces of `color` pinned to their king.
    fn pinned(&self, color: Color) -> Bitboard {
        let king = usize::from(self.king(color));
        let them = color.other();
        let snipers = (attacks::rook(king, 0) & (self.pieces(them, Role::Rook) | self.pieces(them, Role::Queen)))
            | (attacks::bishop(king, 0) & (self.pieces(them, Role::Bishop) | self.pieces(them, Role::Queen)));
        let occupied = self.occupied();
        let mut pinned = 0;
        for sniper in bits(snipers) {
            let blockers = attacks::between(king, sniper) & occupied;
            if blockers.count_ones() == 1 {
                pinned |= blockers & self.side(color);
            }
        }
        pinned
    }

    fn pawn_moves(
        &self,
        moves: &mut MoveList,
        origins: Bitboard,
        targets: Bitboard,
        pinned: Bitboard,
        king: u8,
        safety: Safety,
    ) {
        let us = self.turn;
        let them = us.other();
        let occupied = self.occupied();
        let enemies = self.side(them);
        let last_rank = if us == Color::White { attacks::RANK_1 << 56 } else { attacks::RANK_1 };
        let start_rank = if us == Color::White { attacks::RANK_1 << 8 } else { attacks::RANK_1 << 48 };
        for from in bits(self.pieces(us, Role::Pawn) & origins) {
            let from = from as u8;
            let allowed = targets
                & if pinned & (1u64 << from) != 0 {
                    attacks::line(usize::from(king), usize::from(from))
                } else {
                    u64::MAX
                };
            let forward = |square: u8| if us == Color::White { square.checked_add(8) } else { square.checked_sub(8) };
            let mut destinations = attacks::pawn(us.index(), usize::from(from)) & enemies;
            if let Some(one) = forward(from).filter(|s| occupied & (1u64 << s) == 0) {
                destinations |= 1u64 << one;
                if start_rank & (1u64 << from) != 0
                    && let Some(two) = forward(one).filter(|s| occupied & (1u64 << s) == 0)
                {
                    destinations |= 1u64 << two;
                }
            }
            for to in bits(destinations & allowed) {
                let to = to as u8;
                let capture = self.role_at(to);
                if last_rank & (1u64 << to) != 0 {
                    for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        moves.push(Move::Normal { role: Role::Pawn, from, to, capture, promotion: Some(promotion) });
                    }
                } else {
                    moves.push(Move::Normal { role: Role::Pawn, from, to, capture, promotion: None });
                }
            }
            if let Some(to) = self.en_passant
                && attacks::pawn(us.index(), usize::from(from)) & (1u64 << to) != 0
                && (safety == Safety::Pseudo || self.is_legal(Move::EnPassant { from, to }))
            {
                moves.push(Move::EnPassant { from, to });
            }
        }
    }

    fn castling_moves(&self, moves: &mut MoveList) {
        let us = self.turn;
        let king = self.king(us);
        for rook in bits(self.castling & self.pieces(us, Role::Rook) & self.home_rank(us)) {
            if self.may_castle(king, rook as u8) {
                moves.push(Move::Castle { king, rook: rook as u8 });
            }
        }
    }

    /// Whether the side to move may castle with the king on `king` and the rook on `rook`.
    fn may_castle(&self, king: u8, rook: u8) -> bool {
        let us = self.turn;
        let them = us.other();
        let home = self.home_rank(us);
        let rooks = self.castling & self.pieces(us, Role::Rook) & home;
        if king != self.king(us) || (1u64 << king) & home == 0 || rooks & (1u64 << rook) == 0 || self.is_check() {
            return false;
        }
        let occupied = self.occupied();
        let king_to = castled_king(king, rook);
        let rook_to = castled_rook(king, rook);
        let king_path = attacks::between(usize::from(king), usize::from(king_to)) | (1u64 << king_to);
        let rook_path = attacks::between(usize::from(rook), usize::from(rook_to)) | (1u64 << rook_to);
        let movers = (1u64 << king) | (1u64 << rook);
        if (king_path | rook_path) & occupied & !movers != 0 {
            return false;
        }
        let without_king = occupied & !(1u64 << king);
        if bits(king_path).any(|square| self.attackers(square as u8, them, without_king) != 0) {
            return false;
        }
        // The king must not stand in check once the rook has moved (Chess960 corner cases).
        let after = (occupied & !movers) | (1u64 << king_to) | (1u64 << rook_to);
        self.attackers(king_to, them, after) == 0
    }

    /// Whether the side to move has a legal move (a king's step is tried first).
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        let us = self.turn;
        let king = self.king(us);
        let without_king = self.occupied() & !(1u64 << king);
        let steps = attacks::king(usize::from(king)) & !self.side(us);
        if bits(steps).any(|to| self.attackers(to as u8, us.other(), without_king) == 0) {
            return true;
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        !moves.is_empty()
    }

    /// The number of leaf positions `depth` plies from here.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        perft(self, depth, Board::legal_moves, Board::play)
    }
}

/// The edits the lichess rule sets make beyond [`Board::play`]: they keep their own rules over
/// the same placement, and read their own FEN.
/// The number of leaf positions `depth` plies from `position`, whose legal moves `legal`
/// lists and `play` plays: one count for the classical board and every lichess rule set.
pub(super) fn perft<P: Clone>(
    position: &P,
    depth: u32,
    legal: impl Fn(&P, &mut MoveList) + Copy,
    play: impl Fn(&mut P, Move) + Copy,
) -> u64 {
    let mut moves = MoveList::new();
    legal(position, &mut moves);
    if depth <= 1 {
        return if depth == 0 { 1 } else { moves.len() as u64 };
    }
    moves
        .as_slice()
        .iter()
        .map(|&m| {
            let mut next = position.clone();
            play(&mut next, m);
            perft(&next, depth - 1, legal, play)
        })
        .sum()
}

impl Board {
    /// The board, named a game of `variant` (whose moves its rule set plays; the board's own
    /// move generation stays standard).
    pub(super) fn named(mut self, variant: &'static Variant) -> Board {
        self.variant = variant;
        self
    }

    /// A board of Standard chess's catalogue entry with the given placement and state (a rule
    /// set of lichess names its own variant with [`Board::named`]).
    pub(super) fn from_parts(
        by_role: [Bitboard; 6],
        by_color: [Bitboard; 2],
        turn: Color,
        castling: Bitboard,
        en_passant: Option<u8>,
        halfmoves: u32,
        fullmoves: u32,
    ) -> Board {
        Board {
            variant: Variant::standard(),
            rules: Rules::Standard,
            by_role,
            by_color,
            turn,
            castling,
            en_passant,
            halfmoves,
            fullmoves,
            backhand: [[0; 6]; 2],
            promoted: 0,
        }
    }

    /// Takes whatever piece stands on `square` off the board, with a castling right there.
    pub(super) fn take_off(&mut self, square: u8) {
        let bit = !(1u64 << square);
        for bitboard in self.by_role.iter_mut().chain(self.by_color.iter_mut()) {
            *bitboard &= bit;
        }
        self.castling &= bit;
    }

    /// Sets the square a pawn skipped on the last move.
    pub(super) fn set_en_passant(&mut self, square: Option<u8>) {
        self.en_passant = square;
    }

    /// Takes a colour's castling rights away.
    pub(super) fn discard_castling(&mut self, color: Color) {
        self.castling &= !self.home_rank(color);
    }
}

/// The squares of a bitboard, lowest first.
#[inline]
pub fn bits(mut bitboard: Bitboard) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if bitboard == 0 {
            return None;
        }
        let square = bitboard.trailing_zeros() as usize;
        bitboard &= bitboard - 1;
        Some(square)
    })
}

fn word(set: SquareSet<1>) -> Bitboard {
    set.words()[0]
}

fn set(bitboard: Bitboard) -> SquareSet<1> {
    SquareSet::from_words([bitboard])
}

impl PositionView<1> for Board {
    fn variant(&self) -> &'static Variant {
        self.variant
    }
    #[inline]
    fn kind(&self, kind: Kind) -> SquareSet<1> {
        set(self.by_role.get(kind.index()).copied().unwrap_or(0))
    }
    #[inline]
    fn color(&self, color: Color) -> SquareSet<1> {
        set(self.by_color[color.index()])
    }
    #[inline]
    fn pieces(&self, color: Color, kinds: KindSet) -> SquareSet<1> {
        let kinds = kinds.to_bits();
        if kinds.is_power_of_two() {
            let role = kinds.trailing_zeros() as usize;
            return set(self.by_role.get(role).map_or(0, |bitboard| bitboard & self.by_color[color.index()]));
        }
        let mut of_kinds = 0;
        for (index, bitboard) in self.by_role.iter().enumerate() {
            // All ones when the kind is in the set, else zero: no branch.
            of_kinds |= bitboard & 0u64.wrapping_sub(((kinds >> index) & 1) as u64);
        }
        set(of_kinds & self.by_color[color.index()])
    }
    #[inline]
    fn marked(&self, mark: Mark) -> SquareSet<1> {
        match mark {
            Mark::CASTLE => set(self.castling),
            Mark::PROMOTED => set(self.promoted),
            _ => SquareSet::EMPTY,
        }
    }
    #[inline]
    fn in_backhand(&self, piece: Piece) -> u32 {
        u32::from(self.backhand[piece.color.index()].get(piece.kind.index()).copied().unwrap_or(0))
    }
    fn backhand_kinds(&self, color: Color) -> KindSet {
        self.backhand[color.index()]
            .iter()
            .enumerate()
            .filter(|(_, count)| **count > 0)
            .map(|(index, _)| Kind::new(index as u8))
            .collect()
    }
    #[inline]
    fn turn(&self) -> Color {
        self.turn
    }
    #[inline]
    fn occupied(&self) -> SquareSet<1> {
        set(self.occupied())
    }
}

/// Whether moves are generated legal, or as the pieces move whatever the king's safety.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Safety {
    Legal,
    Pseudo,
}
