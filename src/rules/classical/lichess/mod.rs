//! The rules of lichess's variants on the classical [`Board`]: [`Atomic`], [`Antichess`],
//! [`Horde`], [`KingOfTheHill`], [`RacingKings`] and [`ThreeCheck`].
//!
//! Each rule set is its own type implementing [`RuleSet`], so that code generic over a rule set
//! is compiled once per variant, with no dispatch per move. A position is read from a FEN:
//!
//! ```
//! use cqlq::rules::classical::lichess::{Atomic, RuleSet};
//!
//! let atomic = Atomic::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")?;
//! assert_eq!(atomic.perft(3), 8902);
//! # Ok::<_, cqlq::rules::classical::lichess::ParseFenError>(())
//! ```

mod antichess;
mod atomic;
mod fen;
mod game;
mod horde;
mod insufficient;
mod king_of_the_hill;
mod moves;
mod racing_kings;
mod san;
mod three_check;

pub use antichess::Antichess;
pub use atomic::Atomic;
pub use fen::ParseFenError;
pub use horde::Horde;
pub use king_of_the_hill::KingOfTheHill;
pub use racing_kings::RacingKings;
pub use three_check::ThreeCheck;

use super::attacks::Bitboard;
use super::board::{Board, Move, MoveList};
use crate::variant::vocabulary::MAX_COUNTERS;
use crate::variant::{Color, Variant};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Decisive {
        /// The winner.
        winner: Color,
    },
    /// Nobody won.
    Draw,
}

/// A rule set of the classical family: a position of its variant, its legal moves, their
/// effects and the ways its games end.
pub trait RuleSet: Sized + Clone {
    /// The variant's name, as lichess writes it.
    const NAME: &'static str;

    /// Whether the variant's legal moves are standard chess's until its own end has come
    /// (King of the Hill, Three-check): its SAN is then found by the board's own reader.
    const STANDARD_MOVES: bool = false;

    /// Reads a position from a FEN (or an EPD, without the move counters).
    ///
    /// # Errors
    ///
    /// If the text is no FEN, or the position is not one of the variant.
    fn from_fen(text: &str) -> Result<Self, ParseFenError>;

    /// The position of a board (its pieces, side to move, castling rights, en passant square
    /// and clocks), the variant's own state at its start (Three-check's checks).
    fn from_board(board: Board) -> Self;

    /// The position, its board naming `variant` as its game's.
    #[must_use]
    fn named(mut self, variant: &'static Variant) -> Self {
        let board = *self.board();
        *self.board_mut() = board.named(variant);
        self
    }

    /// The squares whose pieces the last move removed besides the one it captured (Atomic's
    /// explosions); none by default.
    fn removed_by_last_move(&self) -> Bitboard {
        0
    }

    /// The counters the variant keeps beside the board (Three-check's checks given), by
    /// counter as its vocabulary lists them, then by side.
    fn counters(&self) -> [[u16; 2]; MAX_COUNTERS] {
        [[0; 2]; MAX_COUNTERS]
    }

    /// The position with the counters of a setup (as [`RuleSet::counters`] gives them).
    #[must_use]
    fn with_counters(self, counters: [[u16; 2]; MAX_COUNTERS]) -> Self {
        let _ = counters;
        self
    }

    /// The pieces, the side to move, the castling rights, the en passant square and the clocks.
    ///
    /// The board's own move generation and check follow standard rules: ask the rule set, not
    /// the board, for moves, check and the end of the game.
    fn board(&self) -> &Board;

    /// The board, to play on.
    fn board_mut(&mut self) -> &mut Board;

    /// Appends every legal move to `moves`: the candidates that
    /// [`RuleSet::is_legal_candidate`] keeps.
    fn legal_moves(&self, moves: &mut MoveList) {
        let start = moves.len();
        self.candidate_moves(moves);
        moves.retain_from(start, |m| self.is_legal_candidate(m));
    }

    /// Appends moves among which are all the legal ones, quick to list: by default standard
    /// chess's pseudo-legal moves and legal castlings, none once the variant's own end has come.
    /// A move read from a record is looked for among these, and only the ones it may name are
    /// tested further.
    fn candidate_moves(&self, moves: &mut MoveList) {
        if self.variant_outcome().is_none() {
            moves::standard_candidates(self.board(), moves);
        }
    }

    /// Whether a move of [`RuleSet::candidate_moves`] is legal: by default, whether it leaves
    /// the mover's king (if it has one) unattacked.
    fn is_legal_candidate(&self, m: Move) -> bool {
        moves::keeps_king_safe(self.board(), m)
    }

    /// Plays a move, which must be legal, with all its effects (by default a standard move's).
    fn play(&mut self, m: Move) {
        moves::play_standard(self.board_mut(), m);
    }

    /// Whether the side to move is in check, as the variant means it (never in Antichess; by
    /// default, its king attacked).
    fn is_check(&self) -> bool {
        moves::king_attacked(self.board(), self.board().turn())
    }

    /// The end of the game that is particular to the variant (an exploded king, a king on the
    /// hill, a third check, ...), if it has come.
    fn variant_outcome(&self) -> Option<Outcome>;

    /// Appends the position's FEN, as shakmaty and lichess write it.
    fn write_fen(&self, out: &mut String) {
        fen::write(self.board(), self.legal_en_passant(), None, out);
    }

    /// The en passant square, if a pawn of the side to move can legally take there.
    fn legal_en_passant(&self) -> Option<u8> {
        self.board().en_passant_target()?;
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.as_slice().iter().find_map(|m| match m {
            Move::EnPassant { to, .. } => Some(*to),
            _ => None,
        })
    }

    /// The position's FEN.
    fn fen(&self) -> String {
        let mut out = String::new();
        self.write_fen(&mut out);
        out
    }

    /// Whether the side to move has no legal move.
    fn has_no_move(&self) -> bool {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.is_empty()
    }

    /// Whether the side to move is checkmated: in check, without a legal move.
    fn is_checkmate(&self) -> bool {
        self.is_check() && self.has_no_move()
    }

    /// Whether the side to move is stalemated: not in check and without a legal move, the game
    /// not over otherwise.
    fn is_stalemate(&self) -> bool {
        !self.is_check() && self.variant_outcome().is_none() && self.has_no_move()
    }

    /// Whether `color` can no longer win, whatever the moves, as lichess judges it (by default
    /// it always can).
    fn has_insufficient_material(&self, _color: Color) -> bool {
        false
    }

    /// Whether neither side can win any more.
    fn is_insufficient_material(&self) -> bool {
        Color::ALL.into_iter().all(|color| self.has_insufficient_material(color))
    }

    /// How the game has ended, if it has: by the variant's own end, by mate (the side that
    /// cannot move loses), by stalemate (a draw, unless the variant says otherwise), or drawn
    /// for want of material.
    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.variant_outcome() {
            return Some(outcome);
        }
        if !self.has_no_move() {
            return self.is_insufficient_material().then_some(Outcome::Draw);
        }
        Some(if self.is_check() { Outcome::Decisive { winner: self.board().turn().other() } } else { Outcome::Draw })
    }

    /// The number of leaf positions `depth` plies from here.
    fn perft(&self, depth: u32) -> u64 {
        super::board::perft(
            self,
            depth,
            |rules: &Self, moves| rules.legal_moves(moves),
            |rules: &mut Self, m| rules.play(m),
        )
    }
}
