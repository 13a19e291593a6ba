//! [`LaserBoard`]: a Laser Chess position as its rules play it: the pieces with their
//! orientations, the side to move, the pieces the beams removed, the last shot and the winner.

use super::beam::{BEAM_TABLE, Effect, LaserKind, Travel};
use super::layout::{Layout, LayoutError, MAX_SQUARES};
use crate::board::SquareSet;
use crate::position::{Mark, MoveFacts, PositionView, RulesView, Setup};
use crate::rules::laser::LaserMove;
use crate::variant::{Color, Kind, KindSet, Piece, Variant, laser};

/// A piece as the rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaserPiece {
    /// What it is.
    pub kind: LaserKind,
    /// Whose it is.
    pub color: Color,
    /// Quarter turns clockwise from its base orientation, 0 to 3.
    pub orientation: u8,
}

/// Where a laser's beam went: the squares it entered, and the piece it removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Shot {
    /// The squares the beam entered, the laser's own square left out, the square where it
    /// ended included.
    pub path: u128,
    /// The square of the piece the beam removed, and the piece.
    pub hit: Option<(u8, LaserPiece)>,
    /// The last square the beam entered (none when it left the board at once).
    pub end: Option<u8>,
}

/// A Laser Chess position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LaserBoard {
    layout: &'static Layout,
    /// Each square's piece, coded by [`code`] (0 for none).
    cells: [u8; MAX_SQUARES],
    kinds: [u128; 5],
    colors: [u128; 2],
    /// The two bits of each piece's orientation.
    turned: [u128; 2],
    turn: Color,
    /// The turns played since the first with the first player to move (from the setup's move
    /// number).
    ply: u32,
    /// The pieces the beams removed, by owner and kind.
    removed: [[u8; 5]; 2],
    winner: Option<Color>,
    last_shot: Shot,
}

/// Why a setup is no Laser Chess position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaserSetupError {
    /// The variant's data.
    Layout(LayoutError),
    /// A piece stands where its side may not.
    Barred(String),
    /// A side's laser is not on its square.
    NoLaser(Color),
}

impl std::fmt::Display for LaserSetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LaserSetupError::Layout(error) => error.fmt(f),
            LaserSetupError::Barred(square) => write!(f, "a piece on {square}, where its side may not stand"),
            LaserSetupError::NoLaser(color) => write!(f, "{color:?}'s laser is not on its square"),
        }
    }
}

impl std::error::Error for LaserSetupError {}

/// The code of a piece in [`LaserBoard::cells`]: never 0.
const fn code(piece: LaserPiece) -> u8 {
    1 + (piece.color as u8) * 20 + (piece.kind as u8) * 4 + (piece.orientation & 3)
}

/// The piece of a code that is not 0.
const fn decode(code: u8) -> LaserPiece {
    let value = code - 1;
    let color = if value >= 20 { Color::Black } else { Color::White };
    LaserPiece { kind: LaserKind::ALL[((value % 20) / 4) as usize], color, orientation: value % 4 }
}

impl LaserBoard {
    /// An empty board of a Laser Chess variant, the first player to move.
    pub fn empty(variant: &'static Variant) -> Result<LaserBoard, LayoutError> {
        Ok(LaserBoard {
            layout: Layout::of(variant)?,
            cells: [0; MAX_SQUARES],
            kinds: [0; 5],
            colors: [0; 2],
            turned: [0; 2],
            turn: Color::White,
            ply: 0,
            removed: [[0; 5]; 2],
            winner: None,
            last_shot: Shot::default(),
        })
    }

    /// The initial position of a Laser Chess variant: its first named setup, the first player
    /// to move.
    pub fn initial(variant: &'static Variant) -> Result<LaserBoard, LaserSetupError> {
        LaserBoard::from_setup(&Setup::<2>::initial(variant))
    }

    /// The position of a setup (its pieces, orientations and side to move), checked: every
    /// piece where its side may stand, each laser on its square.
    pub fn from_setup<const W: usize>(setup: &Setup<W>) -> Result<LaserBoard, LaserSetupError> {
        let mut board = LaserBoard::empty(setup.variant).map_err(LaserSetupError::Layout)?;
        let layout = board.layout;
        for square in 0..layout.squares() as u8 {
            let Some(piece) = setup.board.piece_at(crate::board::Square::from_index(u16::from(square))) else {
                continue;
            };
            let Some(kind) = layout.laser_kind(piece.kind) else { continue };
            let at = crate::board::Square::from_index(u16::from(square));
            let orientation = u8::from(setup.board.marked(Mark::LEVEL_LOW).contains(at))
                | u8::from(setup.board.marked(Mark::LEVEL_HIGH).contains(at)) << 1;
            board.put(square, LaserPiece { kind, color: piece.color, orientation });
        }
        board.turn = setup.turn;
        let black = u32::from(setup.turn == Color::Black);
        board.ply = setup.fullmove_number.saturating_sub(1).saturating_mul(2).saturating_add(black);
        board.validate()?;
        // A side without its King lost it to a beam: the game is over.
        let kings = board.of_kind(LaserKind::King);
        let has_king = |color: Color| kings & board.side(color) != 0;
        board.winner = match (has_king(Color::White), has_king(Color::Black)) {
            (true, false) => Some(Color::White),
            (false, true) => Some(Color::Black),
            _ => None,
        };
        Ok(board)
    }

    /// Checks where the pieces stand: each laser on its square, every other piece where its
    /// side may stand.
    pub fn validate(&self) -> Result<(), LaserSetupError> {
        for color in [Color::White, Color::Black] {
            let laser = self.layout.lasers[color.index()];
            let on_square = self.piece_at(laser).is_some_and(|p| p.kind == LaserKind::Laser && p.color == color);
            if !on_square {
                return Err(LaserSetupError::NoLaser(color));
            }
            let lasers = self.kinds[LaserKind::Laser as usize] & self.colors[color.index()];
            let misplaced = (self.colors[color.index()] & !lasers & self.layout.barred[color.index()])
                | (lasers & !(1u128 << laser));
            if misplaced != 0 {
                return Err(LaserSetupError::Barred(self.layout.name(misplaced.trailing_zeros() as u8)));
            }
        }
        Ok(())
    }

    /// The board's layout: its shape, lasers and reserved squares.
    #[must_use]
    pub fn layout(&self) -> &'static Layout {
        self.layout
    }

    /// The piece on a square.
    #[must_use]
    #[inline]
    pub fn piece_at(&self, square: u8) -> Option<LaserPiece> {
        match self.cells.get(usize::from(square)) {
            Some(&code) if code != 0 => Some(decode(code)),
            _ => None,
        }
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The side whose beam removed the other's King (or whose King its own beam removed: the
    /// other side wins), once the game is over.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// The shot of the last turn.
    #[must_use]
    pub fn last_shot(&self) -> Shot {
        self.last_shot
    }

    /// How many of a side's pieces of a kind the beams removed.
    #[must_use]
    pub fn removed(&self, color: Color, kind: LaserKind) -> u8 {
        self.removed[color.index()][kind as usize]
    }

    /// The squares of a side's pieces.
    #[must_use]
    pub fn side(&self, color: Color) -> u128 {
        self.colors[color.index()]
    }

    /// The squares of the pieces of a kind.
    #[must_use]
    pub fn of_kind(&self, kind: LaserKind) -> u128 {
        self.kinds[kind as usize]
    }

    /// The squares with a piece.
    #[must_use]
    pub fn occupied(&self) -> u128 {
        self.colors[0] | self.colors[1]
    }

    /// Puts a piece on an empty square.
    pub(super) fn put(&mut self, square: u8, piece: LaserPiece) {
        let bit = 1u128 << square;
        self.cells[usize::from(square)] = code(piece);
        self.kinds[piece.kind as usize] |= bit;
        self.colors[piece.color.index()] |= bit;
        for (level, mask) in self.turned.iter_mut().enumerate() {
            if piece.orientation >> level & 1 != 0 {
                *mask |= bit;
            }
        }
    }

    /// Takes the piece off a square.
    pub(super) fn take(&mut self, square: u8) -> Option<LaserPiece> {
        let piece = self.piece_at(square)?;
        let keep = !(1u128 << square);
        self.cells[usize::from(square)] = 0;
        self.kinds[piece.kind as usize] &= keep;
        self.colors[piece.color.index()] &= keep;
        self.turned[0] &= keep;
        self.turned[1] &= keep;
        Some(piece)
    }

    /// Ends the turn: the side to move changes.
    fn pass_turn(&mut self) {
        self.turn = self.turn.other();
        self.ply = self.ply.saturating_add(1);
    }

    /// The turns played since the first with the first player to move.
    #[must_use]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Makes `color` the side to move in move `fullmove` (from 1).
    pub fn set_turn(&mut self, color: Color, fullmove: u32) {
        self.turn = color;
        let second = u32::from(color == Color::Black);
        self.ply = fullmove.saturating_sub(1).saturating_mul(2).saturating_add(second);
    }

    /// The position as a setup of its variant: the pieces with their orientations, the side to
    /// move and the move number.
    #[must_use]
    pub fn to_setup(&self) -> Setup<2> {
        let mut setup = Setup::empty(self.layout.variant);
        let mut occupied = self.occupied();
        while occupied != 0 {
            let at = occupied.trailing_zeros() as u8;
            occupied &= occupied - 1;
            let Some(piece) = self.piece_at(at) else { continue };
            let square = crate::board::Square::from_index(u16::from(at));
            setup.board.put(square, Piece { kind: self.kind_of(piece.kind), color: piece.color });
            setup.board.set_mark(Mark::LEVEL_LOW, square, piece.orientation & 1 != 0);
            setup.board.set_mark(Mark::LEVEL_HIGH, square, piece.orientation & 2 != 0);
        }
        setup.turn = self.turn;
        setup.fullmove_number = self.ply / 2 + 1;
        setup
    }

    /// Where `color`'s laser would send its beam now, and what it would remove; the board is
    /// not changed.
    #[must_use]
    pub fn aim(&self, color: Color) -> Shot {
        self.trace(color, |_, _| {})
    }

    /// [`LaserBoard::aim`], telling `entered` each square the beam enters and which way it
    /// travels as it enters.
    pub fn trace(&self, color: Color, mut entered: impl FnMut(u8, Travel)) -> Shot {
        let start = self.layout.lasers[color.index()];
        let Some(laser) = self.piece_at(start).filter(|p| p.kind == LaserKind::Laser) else { return Shot::default() };
        let mut shot = Shot::default();
        let mut travel = Travel::fired(laser.orientation);
        let mut at = start;
        // A beam never passes a square twice the same way; the bound only keeps that so.
        for _ in 0..4 * self.layout.squares() {
            let Some(next) = self.layout.step(at, travel.step()) else { break };
            at = next;
            entered(at, travel);
            shot.path |= 1u128 << at;
            shot.end = Some(at);
            let Some(piece) = self.piece_at(at) else { continue };
            match BEAM_TABLE.effect(piece.kind, piece.orientation, travel) {
                Effect::Go(way) => travel = way,
                Effect::Stop => break,
                Effect::Kill => {
                    shot.hit = Some((at, piece));
                    break;
                }
            }
        }
        shot
    }

    /// Ends the turn with the side to move's shot, aimed on this board: removes what it kills,
    /// ends the game when that is a King, and passes the turn.
    pub(super) fn fire(&mut self, shot: Shot) {
        if let Some((square, piece)) = shot.hit {
            self.take(square);
            self.removed[piece.color.index()][piece.kind as usize] += 1;
            if piece.kind == LaserKind::King {
                self.winner = Some(piece.color.other());
            }
        }
        self.last_shot = shot;
        self.pass_turn();
    }

    /// The board's squares as a square set of the positions.
    fn set(mask: u128) -> SquareSet<2> {
        SquareSet::from_words([mask as u64, (mask >> 64) as u64])
    }

    /// The variant's kind of a Laser kind.
    fn kind_of(&self, kind: LaserKind) -> Kind {
        self.layout.kinds[kind as usize]
    }
}

impl RulesView<2> for LaserBoard {
    fn position_string(&self) -> String {
        crate::notation::position_string::write(&self.to_setup())
    }
    /// A laser attacks the piece its beam would remove if it fired now; no other piece attacks.
    fn attacks_from(&self, square: crate::board::Square) -> SquareSet<2> {
        let Some(laser) = u8::try_from(square.index()).ok().and_then(|at| self.piece_at(at)) else {
            return SquareSet::EMPTY;
        };
        if laser.kind != LaserKind::Laser {
            return SquareSet::EMPTY;
        }
        match self.aim(laser.color).hit {
            Some((hit, _)) => LaserBoard::set(1u128 << hit),
            None => SquareSet::EMPTY,
        }
    }

    /// Every legal turn, with the piece its shot would remove as the capture.
    fn legal_moves(&self, moves: &mut Vec<MoveFacts>) {
        let mut turns = Vec::new();
        self.legal_turns(&mut turns);
        let mut scratch = self.clone();
        moves.extend(turns.into_iter().filter_map(|m| self.facts_on(&mut scratch, m)));
    }

    fn rules_set(&self, set: u8) -> SquareSet<2> {
        match set {
            laser::BEAM => LaserBoard::set(self.last_shot.path),
            laser::NEXT_BEAM => LaserBoard::set(self.aim(self.turn).path),
            laser::HIT => LaserBoard::set(self.last_shot.hit.map_or(0, |(square, _)| 1u128 << square)),
            _ => SquareSet::EMPTY,
        }
    }

    fn move_number(&self) -> u32 {
        self.ply / 2 + 1
    }
}

impl LaserBoard {
    /// What queries see of a legal turn played from this position: the piece that moves (or
    /// turns, or swaps), its squares, and the piece the shot after it removes.
    #[must_use]
    pub fn facts_of(&self, m: LaserMove) -> Option<MoveFacts> {
        self.check_move(m).ok()?;
        self.facts_on(&mut self.clone(), m)
    }

    /// [`LaserBoard::facts_of`] for a legal turn, aimed on `scratch`, a copy of this board that
    /// is left as it was.
    fn facts_on(&self, scratch: &mut LaserBoard, m: LaserMove) -> Option<MoveFacts> {
        let square = |at: u8| crate::board::Square::from_index(u16::from(at));
        let piece = |p: LaserPiece| Piece { kind: self.kind_of(p.kind), color: p.color };
        scratch.arrange(m);
        let shot = scratch.aim(self.turn);
        scratch.unarrange(m);
        let facts = match m {
            LaserMove::Step { from, to } => MoveFacts::new(Some(square(from)), square(to), piece(self.piece_at(from)?)),
            LaserMove::Rotate { square: at, .. } => {
                MoveFacts::new(Some(square(at)), square(at), piece(self.piece_at(at)?)).acting(laser::ROTATE)
            }
            LaserMove::Swap { switch, with } => {
                MoveFacts::new(Some(square(switch)), square(with), piece(self.piece_at(switch)?)).acting(laser::SWAP)
            }
        };
        Some(match shot.hit {
            Some((hit, removed)) => facts.capturing(square(hit), piece(removed)),
            None => facts,
        })
    }
}

impl PositionView<2> for LaserBoard {
    fn variant(&self) -> &'static Variant {
        self.layout.variant
    }

    #[inline]
    fn kind(&self, kind: Kind) -> SquareSet<2> {
        match self.layout.laser_kind(kind) {
            Some(laser_kind) => LaserBoard::set(self.kinds[laser_kind as usize]),
            None => SquareSet::EMPTY,
        }
    }

    #[inline]
    fn color(&self, color: Color) -> SquareSet<2> {
        LaserBoard::set(self.colors[color.index()])
    }

    #[inline]
    fn marked(&self, mark: Mark) -> SquareSet<2> {
        match mark {
            Mark::LEVEL_LOW => LaserBoard::set(self.turned[0]),
            Mark::LEVEL_HIGH => LaserBoard::set(self.turned[1]),
            _ => SquareSet::EMPTY,
        }
    }

    fn in_backhand(&self, piece: Piece) -> u32 {
        self.layout.laser_kind(piece.kind).map_or(0, |kind| u32::from(self.removed(piece.color, kind)))
    }

    fn backhand_kinds(&self, color: Color) -> KindSet {
        LaserKind::ALL
            .into_iter()
            .filter(|&kind| self.removed(color, kind) > 0)
            .fold(KindSet::EMPTY, |set, kind| set.union(KindSet::single(self.kind_of(kind))))
    }

    #[inline]
    fn turn(&self) -> Color {
        self.turn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::laser::setup_notation;
    use crate::rules::laser::LaserMove;
    use crate::variant::Initial;

    fn laser() -> &'static Variant {
        Variant::by_name("Laser Chess").unwrap()
    }

    /// The squares of names.
    fn squares(board: &LaserBoard, names: &str) -> u128 {
        names.split_whitespace().map(|name| 1u128 << board.layout().square(name).unwrap()).fold(0, |a, b| a | b)
    }

    #[test]
    fn the_beams_of_the_first_position_are_those_of_the_spec() {
        let board = LaserBoard::initial(laser()).unwrap();
        let blue = board.aim(Color::White);
        assert_eq!(blue.path, squares(&board, "j2 j3 j4 i4 h4 h5 i5 j5 j6 j7 j8"));
        assert_eq!(blue.hit, None);
        let red = board.aim(Color::Black);
        assert_eq!(red.path, squares(&board, "a7 a6 a5 b5 c5 c4 b4 a4 a3 a2 a1"));
        assert_eq!(red.hit, None);
    }

    #[test]
    fn the_example_step_removes_nothing_and_the_example_swap_is_legal() {
        let mut board = LaserBoard::initial(laser()).unwrap();
        let layout = board.layout();
        let square = |name: &str| layout.square(name).unwrap();
        let (j4, j3, f4, g3) = (square("j4"), square("j3"), square("f4"), square("g3"));
        assert_eq!(board.check_move(LaserMove::Swap { switch: f4, with: g3 }), Ok(()));
        let shot = board.play(LaserMove::Step { from: j4, to: j3 }).unwrap();
        // Turned left at j3, down at g3's red Deflector, off the board: `j4j3xg3` is wrong.
        assert_eq!(shot.path, squares(&board, "j2 j3 i3 h3 g3 g2 g1"));
        assert_eq!(shot.hit, None);
        assert_eq!(board.turn(), Color::Black);
    }

    #[test]
    fn every_named_setup_holds_each_army_and_is_a_position() {
        let Initial::Laser(setups) = &laser().initial else { panic!("Laser Chess has setups") };
        assert_eq!(setups.setups.len(), 5);
        for (name, text) in setups.setups {
            let setup = setup_notation::read::<2>(laser(), text).unwrap();
            let board = LaserBoard::from_setup(&setup).unwrap_or_else(|error| panic!("{name}: {error}"));
            for color in [Color::White, Color::Black] {
                let counts: Vec<u32> =
                    LaserKind::ALL.iter().map(|&kind| (board.of_kind(kind) & board.side(color)).count_ones()).collect();
                assert_eq!(counts, [1, 2, 2, 7, 1], "{name} {color:?}");
            }
        }
        assert!(setups.named("grail").is_some() && setups.named("Nowhere").is_none());
    }

    #[test]
    fn the_board_shows_the_queries_what_the_setup_holds() {
        let Initial::Laser(setups) = &laser().initial else { panic!("Laser Chess has setups") };
        for (name, text) in setups.setups {
            let setup = setup_notation::read::<2>(laser(), text).unwrap();
            let board = LaserBoard::from_setup(&setup).unwrap();
            let position = crate::Position::from_setup(setup).unwrap();
            for kind in 0..laser().kinds() {
                let kind = Kind::new(kind as u8);
                assert_eq!(board.kind(kind), position.kind(kind), "{name}");
            }
            for color in [Color::White, Color::Black] {
                assert_eq!(PositionView::color(&board, color), position.color(color), "{name}");
            }
            for mark in Mark::ALL {
                assert_eq!(board.marked(mark), position.marked(mark), "{name} {mark:?}");
            }
            assert_eq!(PositionView::turn(&board), position.turn());
        }
    }

    #[test]
    fn queries_see_the_turns_and_what_the_lasers_would_remove() {
        let setup = setup_notation::read::<2>(laser(), "l++1K7/*/*/4k4B/*/*/*/9L").unwrap();
        let board = LaserBoard::from_setup(&setup).unwrap();
        let layout = board.layout();
        let square = |name: &str| crate::board::Square::from_index(u16::from(layout.square(name).unwrap()));
        // Blue's laser would remove Red's King through the Deflector on j5; Red's hits nothing.
        assert_eq!(board.attacks_from(square("j1")), SquareSet::from_square(square("e5")));
        assert!(board.attacks_from(square("a8")).is_empty());
        assert!(board.attacks_from(square("j5")).is_empty());
        let mut facts = Vec::new();
        RulesView::legal_moves(&board, &mut facts);
        let mut turns = Vec::new();
        board.legal_turns(&mut turns);
        assert_eq!(facts.len(), turns.len());
        let rotations = facts.iter().filter(|m| m.actions() == 1 << laser::ROTATE).count();
        assert_eq!(rotations, 6);
        // A turn of Blue's King leaves the beam on Red's King.
        let piece = |kind: LaserKind, color| Piece { kind: layout.kinds[kind as usize], color };
        let (king_turns, others): (Vec<&MoveFacts>, Vec<&MoveFacts>) =
            facts.iter().partition(|m| m.mover() == piece(LaserKind::King, Color::White));
        assert!(!king_turns.is_empty());
        assert!(king_turns.iter().all(|m| m.captured() == Some(piece(LaserKind::King, Color::Black))));
        // The others move or turn the laser or the Deflector, so Red's King is safe; turned
        // clockwise, the Deflector shows the beam its back.
        let deflector = piece(LaserKind::Deflector, Color::White);
        let captures: Vec<&MoveFacts> = others.into_iter().filter(|m| m.captured().is_some()).collect();
        assert_eq!(captures.len(), 1);
        assert_eq!((captures[0].actions(), captures[0].captured()), (1 << laser::ROTATE, Some(deflector)));
        assert_eq!(board.move_number(), 1);
    }

    #[test]
    fn illegal_turns_say_why() {
        use crate::rules::laser::IllegalLaserMove as Illegal;
        let board = LaserBoard::initial(laser()).unwrap();
        let layout = board.layout();
        let square = |name: &str| layout.square(name).unwrap();
        let step = |from, to| board.check_move(LaserMove::Step { from: square(from), to: square(to) });
        // Onto the other side's reserved squares, onto a piece, from an empty square, too far.
        assert_eq!(step("c1", "b1"), Ok(()));
        let red = |from: &str, to: &str| {
            let mut red = board.clone();
            red.pass_turn();
            red.check_move(LaserMove::Step { from: square(from), to: square(to) })
        };
        assert_eq!(red("a5", "b1").err(), Some(Illegal::NotAdjacent));
        assert_eq!(red("h8", "i8"), Ok(()));
        assert_eq!(red("c7", "b8"), Err(Illegal::Barred(square("b8"))));
        assert_eq!(step("c1", "d1"), Err(Illegal::Occupied(square("d1"))));
        assert_eq!(step("c2", "c3"), Err(Illegal::NotYours(square("c2"))));
        assert_eq!(step("c1", "c3"), Err(Illegal::NotAdjacent));
        assert_eq!(step("j1", "i1"), Err(Illegal::LaserMoves));
        // A Switch swaps with Deflectors and Defenders only.
        let swap = |switch, with| board.check_move(LaserMove::Swap { switch: square(switch), with: square(with) });
        assert_eq!(swap("e4", "e5"), Err(Illegal::CannotSwap(square("e5"))));
        assert_eq!(swap("f4", "e4"), Err(Illegal::CannotSwap(square("e4"))));
        assert_eq!(swap("c4", "c5"), Err(Illegal::NotASwitch(square("c4"))));
    }

    #[test]
    fn a_king_hit_ends_the_game_and_its_owner_loses() {
        // Blue's beam goes up the j-file into Blue's own King.
        let setup = setup_notation::read::<2>(laser(), "l++4k4/9K/*/*/*/*/*/9L").unwrap();
        let mut board = LaserBoard::from_setup(&setup).unwrap();
        let layout = board.layout();
        let square = |name: &str| layout.square(name).unwrap();
        let shot = board.play(LaserMove::Rotate { square: square("j1"), clockwise: true }).unwrap();
        // Turned, the laser fires right, off the board.
        assert_eq!(shot.hit, None);
        let _ = board.play(LaserMove::Step { from: square("f8"), to: square("f7") }).unwrap();
        let shot = board.play(LaserMove::Rotate { square: square("j1"), clockwise: false }).unwrap();
        assert_eq!(
            shot.hit.map(|(at, piece)| (at, piece.kind, piece.color)),
            Some((square("j7"), LaserKind::King, Color::White))
        );
        assert_eq!(board.winner(), Some(Color::Black));
        assert_eq!(board.removed(Color::White, LaserKind::King), 1);
        let mut moves = Vec::new();
        board.legal_turns(&mut moves);
        assert!(moves.is_empty());
    }
}
