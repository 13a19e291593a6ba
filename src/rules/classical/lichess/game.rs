//! The lichess rule sets as the replay and the query see them: [`GameRules`], [`RulesView`] and
//! [`PositionView`] for each, the board's pieces with the variant's moves, check and SAN.

use super::san::{play_san, write_san};
use super::{Antichess, Atomic, Horde, KingOfTheHill, RacingKings, RuleSet, ThreeCheck};
use crate::board::{Square, SquareSet};
use crate::notation::{MoveError, MoveErrorKind};
use crate::position::{Mark, MoveEffects, MoveFacts, Position, PositionView, RulesView};
use crate::rules::GameRules;
use crate::rules::classical::{Board, Move, MoveList, kept};
use crate::variant::{Color, Initial, Kind, KindSet, Piece, Variant};

/// The position a game of `variant` starts from: the FEN `setup`, else the variant's own.
fn start<R: RuleSet>(variant: &'static Variant, setup: Option<&str>) -> Result<R, String> {
    let text = match (setup, &variant.initial) {
        (Some(text), _) => text,
        (None, Initial::Fen(text)) => text,
        (None, _) => return Err(format!("{} has no initial FEN", variant.name)),
    };
    let rules = R::from_fen(text.trim()).map_err(|error| error.to_string())?;
    Ok(rules.named(variant))
}

/// The facts of the legal moves of `rules` that `within` accepts.
fn legal_facts<R: RuleSet>(rules: &R, within: impl Fn(&Move) -> bool, facts: &mut Vec<MoveFacts>) {
    let mut moves = MoveList::new();
    rules.legal_moves(&mut moves);
    let turn = rules.board().turn();
    facts.extend(moves.as_slice().iter().filter(|m| within(m)).filter_map(|&m| Board::facts_of(m, turn)));
}

macro_rules! lichess_rules {
    ($($rules:ty),*) => {$(
        impl PositionView<1> for $rules {
            fn variant(&self) -> &'static Variant {
                self.board().variant()
            }
            fn kind(&self, kind: Kind) -> SquareSet<1> {
                self.board().kind(kind)
            }
            fn color(&self, color: Color) -> SquareSet<1> {
                self.board().color(color)
            }
            fn pieces(&self, color: Color, kinds: KindSet) -> SquareSet<1> {
                PositionView::pieces(self.board(), color, kinds)
            }
            fn marked(&self, mark: Mark) -> SquareSet<1> {
                self.board().marked(mark)
            }
            fn in_backhand(&self, piece: Piece) -> u32 {
                self.board().in_backhand(piece)
            }
            fn backhand_kinds(&self, color: Color) -> KindSet {
                self.board().backhand_kinds(color)
            }
            fn turn(&self) -> Color {
                self.board().turn()
            }
            fn counter(&self, counter: u8, side: Color) -> i64 {
                self.counters().get(usize::from(counter)).map_or(0, |sides| i64::from(sides[side.index()]))
            }
        }

        impl RulesView<1> for $rules {
            fn position_string(&self) -> String {
                self.fen()
            }
            fn attacks_from(&self, square: Square) -> SquareSet<1> {
                RulesView::attacks_from(self.board(), square)
            }
            fn in_check(&self) -> bool {
                self.is_check()
            }
            fn legal_moves(&self, moves: &mut Vec<MoveFacts>) {
                legal_facts(self, |_| true, moves);
            }
            fn moves_within(
                &self,
                _pseudo: bool,
                from: Option<SquareSet<1>>,
                to: Option<SquareSet<1>>,
                moves: &mut Vec<MoveFacts>,
            ) {
                let (from, to) = (from.map(|set| set.words()[0]), to.map(|set| set.words()[0]));
                let within = |m: &Move| {
                    from.is_none_or(|from| m.from().is_some_and(|square| from & (1u64 << square) != 0))
                        && to.is_none_or(|to| m.to().is_some_and(|square| to & (1u64 << square) != 0))
                };
                legal_facts(self, within, moves);
            }
            fn has_legal_move(&self) -> bool {
                !self.has_no_move()
            }
            fn is_mate(&self) -> bool {
                self.is_checkmate()
            }
            fn is_stalemate(&self) -> bool {
                RuleSet::is_stalemate(self)
            }
            fn pins(&self, shielded: SquareSet<1>, pin: &mut dyn FnMut(Square, Square, Square)) {
                RulesView::pins(self.board(), shielded, pin);
            }
            fn move_number(&self) -> u32 {
                self.board().fullmoves()
            }
        }

        impl GameRules<1> for $rules {
            type Played = Move;

            fn start(variant: &'static Variant, setup: Option<&str>) -> Result<Self, String> {
                start(variant, setup)
            }

            fn from_position(position: &Position<1>) -> Result<Self, String> {
                let variant = position.setup().variant;
                Ok(<$rules>::from_board(Board::from_position(position)).with_counters(position.setup().counters).named(variant))
            }

            fn play_token(&mut self, token: &[u8], _reason: &mut Option<MoveError>) -> Result<Move, MoveErrorKind> {
                play_san(self, token)
            }

            fn facts(&self, played: Move) -> Option<MoveFacts> {
                self.board().facts_of_last(played, self.board().turn().other())
            }

            fn effects(&self, _played: Move) -> MoveEffects<1> {
                MoveEffects { removed: SquareSet::from_words([self.removed_by_last_move()]), displaced: None }
            }

            fn write_move(&self, played: &Move, after: &Self, goes_on: bool, out: &mut String) -> bool {
                out.push_str(write_san(self, *played, after, goes_on).as_str());
                true
            }

            fn keep(played: &Move) -> Option<u32> {
                Some(played.code())
            }

            fn play_kept(&mut self, kept: u32) -> Option<Move> {
                kept::play_kept(kept, |played| self.play(played))
            }

            fn write_position(&self, out: &mut String) {
                self.write_fen(out);
            }
        }
    )*};
}

lichess_rules!(Atomic, Antichess, Horde, KingOfTheHill, RacingKings, ThreeCheck);
