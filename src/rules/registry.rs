//! The one place that knows which rule set plays a variant: each rule family registers its
//! rule sets with every board width it uses, and work that needs a variant's rules (replaying
//! its games, testing a position that stands alone, explaining one) runs monomorphised on them
//! through [`with_rules`].

use super::GameRules;
use super::classical::Board;
use super::classical::lichess::{Antichess, Atomic, Horde, KingOfTheHill, RacingKings, ThreeCheck};
use super::crochess::CroatianBoard;
use super::laser::LaserBoard;
use crate::board::Width;
use crate::notation::sniff::{ReadPositionError, read_position_checked};
use crate::position::{AnyPosition, FromAny, Position, PositionError};
use crate::query::{FromPlan, Plan, Program};
use crate::variant::{RuleSetId, Variant};

/// Work to run with the rules of one rule set on boards of `W` words.
pub trait WithRules {
    /// What the work gives.
    type Output;

    /// Runs the work with the rule set `R`; `typed` takes values of its width out of the
    /// containers that hold any width.
    fn run<R: GameRules<W>, const W: usize>(self, typed: Typed<W>) -> Self::Output;
}

/// Which rule set the work runs with, and how values of its board width are taken out of the
/// containers that hold any width.
#[derive(Clone, Copy)]
pub struct Typed<const W: usize> {
    /// The rule set.
    pub rules: RuleSetKey,
    /// A plan's program, where it takes `W` words.
    pub program: fn(&Plan) -> Option<&Program<W>>,
    /// A position, where it takes `W` words.
    pub position: fn(&AnyPosition) -> Option<&Position<W>>,
}

impl<const W: usize> Typed<W>
where
    Program<W>: FromPlan,
    Position<W>: FromAny,
{
    fn new(rules: RuleSetKey) -> Typed<W> {
        Typed { rules, program: Program::<W>::from_plan, position: Position::<W>::from_any }
    }
}

/// Which registered rule set plays a variant, on boards of which width: equal for variants
/// whose games one replayer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSetKey {
    id: RuleSetId,
    width: Width,
}

impl RuleSetKey {
    const fn new(id: RuleSetId, width: Width) -> RuleSetKey {
        RuleSetKey { id, width }
    }
}

/// The registered rule sets, each with every board width it registers.
const REGISTERED: [RuleSetKey; 13] = [
    RuleSetKey::new(RuleSetId::Classical, Width::W1),
    RuleSetKey::new(RuleSetId::Atomic, Width::W1),
    RuleSetKey::new(RuleSetId::Antichess, Width::W1),
    RuleSetKey::new(RuleSetId::Horde, Width::W1),
    RuleSetKey::new(RuleSetId::KingOfTheHill, Width::W1),
    RuleSetKey::new(RuleSetId::RacingKings, Width::W1),
    RuleSetKey::new(RuleSetId::ThreeCheck, Width::W1),
    RuleSetKey::new(RuleSetId::Laser, Width::W2),
    RuleSetKey::new(RuleSetId::Croatian, Width::W1),
    RuleSetKey::new(RuleSetId::Croatian, Width::W2),
    RuleSetKey::new(RuleSetId::Croatian, Width::W4),
    RuleSetKey::new(RuleSetId::Croatian, Width::W8),
    RuleSetKey::new(RuleSetId::Croatian, Width::W11),
];

/// The rule set that plays `variant`, if cqlq plays it.
#[must_use]
pub fn rule_set(variant: &Variant) -> Option<RuleSetKey> {
    let key = RuleSetKey::new(variant.rule_set, variant.width());
    REGISTERED.contains(&key).then_some(key)
}

/// Runs `work` with the rules of `variant`; gives the work back where cqlq does not play them.
pub fn with_rules<T: WithRules>(variant: &Variant, work: T) -> Result<T::Output, T> {
    let Some(key) = rule_set(variant) else { return Err(work) };
    match (key.id, key.width) {
        (RuleSetId::Classical, Width::W1) => Ok(work.run::<Board, 1>(Typed::new(key))),
        (RuleSetId::Atomic, Width::W1) => Ok(work.run::<Atomic, 1>(Typed::new(key))),
        (RuleSetId::Antichess, Width::W1) => Ok(work.run::<Antichess, 1>(Typed::new(key))),
        (RuleSetId::Horde, Width::W1) => Ok(work.run::<Horde, 1>(Typed::new(key))),
        (RuleSetId::KingOfTheHill, Width::W1) => Ok(work.run::<KingOfTheHill, 1>(Typed::new(key))),
        (RuleSetId::RacingKings, Width::W1) => Ok(work.run::<RacingKings, 1>(Typed::new(key))),
        (RuleSetId::ThreeCheck, Width::W1) => Ok(work.run::<ThreeCheck, 1>(Typed::new(key))),
        (RuleSetId::Laser, Width::W2) => Ok(work.run::<LaserBoard, 2>(Typed::new(key))),
        (RuleSetId::Croatian, Width::W1) => Ok(work.run::<CroatianBoard<1>, 1>(Typed::new(key))),
        (RuleSetId::Croatian, Width::W2) => Ok(work.run::<CroatianBoard<2>, 2>(Typed::new(key))),
        (RuleSetId::Croatian, Width::W4) => Ok(work.run::<CroatianBoard<4>, 4>(Typed::new(key))),
        (RuleSetId::Croatian, Width::W8) => Ok(work.run::<CroatianBoard<8>, 8>(Typed::new(key))),
        (RuleSetId::Croatian, Width::W11) => Ok(work.run::<CroatianBoard<11>, 11>(Typed::new(key))),
        _ => Err(work),
    }
}

/// Reads a position from a line, of the given variant or of a sniffed one, as
/// [`read_position`](crate::notation::sniff::read_position) does, and checked by the rules of
/// its variant too ([`check_position`]).
///
/// # Errors
///
/// Why the line is no position a game can reach.
pub fn read_position(line: &str, variant: Option<&'static Variant>) -> Result<AnyPosition, ReadPositionError> {
    read_position_checked(line, variant, |position| check_position(position).map_err(|error| error.to_string()))
}

/// Checks what the rules of a position's variant refuse beyond [`Position::from_setup`] (a
/// side not to move in check); a position of a variant cqlq does not play passes.
///
/// # Errors
///
/// Why no game of the variant can reach the position.
pub fn check_position(position: &AnyPosition) -> Result<(), PositionError> {
    with_rules(position.variant(), Check(position)).unwrap_or(Ok(()))
}

struct Check<'a>(&'a AnyPosition);

impl WithRules for Check<'_> {
    type Output = Result<(), PositionError>;

    fn run<R: GameRules<W>, const W: usize>(self, typed: Typed<W>) -> Self::Output {
        (typed.position)(self.0).map_or(Ok(()), R::check_position)
    }
}
