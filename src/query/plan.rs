//! The compiled form of a query for one variant: masks sized to its board, piece letters resolved
//! to kinds, transforms expanded, and nothing left to look up per position.

use std::sync::Arc;

use super::SortValue;
use super::ast::{
    AssignOp, AttackSide, BinaryOp, DashWhen, LineOptions, LoopOver, MoveSquare, MoveWhen, PinPart, SquareNumber,
};
use super::context::{Context, Frame, GameFacts, GameTest, TagSource};
use super::mate_shapes::MateShapeNode;
pub(crate) use super::path::PathNode;
use super::quick::QuickPrefix;
use super::similar::SimilarGames;
use super::state::{State, Value};
use super::texts::{Pattern, find};
use crate::board::{Masks, Square, SquareSet};
use crate::position::{MoveFacts, PositionView, RulesView, Wing};
use crate::variant::vocabulary::Mark;
use crate::variant::{Color, Kind, KindSet, Piece};

/// Pieces of some kinds of one colour, perhaps only at one level (tier or orientation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PieceClass {
    pub color: Color,
    pub kinds: KindSet,
    pub level: Option<u8>,
}

/// A value that is a set: squares of the board, and kinds of each colour in the backhand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SetValue<const W: usize> {
    pub squares: SquareSet<W>,
    pub backhand: [KindSet; 2],
}

impl<const W: usize> SetValue<W> {
    pub(crate) fn board(squares: SquareSet<W>) -> SetValue<W> {
        SetValue { squares, backhand: [KindSet::EMPTY; 2] }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.squares.is_empty() && self.backhand.iter().all(|kinds| kinds.is_empty())
    }

    pub(crate) fn count(&self, view: &impl PositionView<W>) -> i64 {
        let in_backhand: u32 = Color::ALL
            .into_iter()
            .flat_map(|color| self.backhand[color.index()].iter().map(move |kind| Piece { kind, color }))
            .map(|piece| view.in_backhand(piece))
            .sum();
        self.squares.count() as i64 + i64::from(in_backhand)
    }
}

/// A set expression.
/// How many steps a direction takes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum StepRange<const W: usize> {
    /// From the first number of steps to the second, or to the edge of the board; a negative
    /// number steps the other way.
    Fixed(i32, Option<i32>),
    /// Between two numbers found in each position (numeric variables), which must lie within
    /// the board.
    Valued(Box<(NumberNode<W>, NumberNode<W>)>),
}

/// The copies of a transformed node, in the order they are tried. Two are alike when they hold
/// the same copies in any order: a transform nested in another makes the same copies under
/// each map of the outer one, only in another order, and CQL 6.2 counts those maps as one.
#[derive(Clone, Debug)]
pub(crate) struct Copies<T>(pub(crate) Vec<T>);

impl<T> std::ops::Deref for Copies<T> {
    type Target = Vec<T>;

    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T> std::ops::DerefMut for Copies<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

impl<T: PartialEq> PartialEq for Copies<T> {
    fn eq(&self, other: &Self) -> bool {
        // Each list holds its copies once.
        self.0.len() == other.0.len() && self.0.iter().all(|copy| other.0.contains(copy))
    }
}

impl<T: Eq> Eq for Copies<T> {}

impl<T: std::hash::Hash> std::hash::Hash for Copies<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // A sum of the copies' own hashes does not depend on their order.
        let sum = self.0.iter().fold(0u64, |sum, copy| {
            let mut hasher = std::hash::DefaultHasher::new();
            copy.hash(&mut hasher);
            sum.wrapping_add(std::hash::Hasher::finish(&hasher))
        });
        state.write_usize(self.0.len());
        state.write_u64(sum);
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SetNode<const W: usize> {
    /// Squares fixed when the query was compiled, and backhand kinds (all of them, or none).
    Squares { squares: SquareSet<W>, backhand: [KindSet; 2] },
    /// The squares (and backhand slots) holding pieces of some classes, or empty squares.
    Pieces { classes: Vec<PieceClass>, empty: bool, squares: SquareSet<W>, backhand: bool },
    /// Either set.
    Union(Box<SetNode<W>>, Box<SetNode<W>>),
    /// The copies of a transformed set: their union.
    Orbit(Copies<SetNode<W>>),
    /// Both sets.
    Intersection(Box<SetNode<W>>, Box<SetNode<W>>),
    /// The board's squares not in the set, and with `backhand`, the backhand's pieces not in it.
    Complement { set: Box<SetNode<W>>, backhand: bool },
    /// The light (or dark) squares of a set. A transform that takes light squares to dark ones
    /// swaps the shade, as in CQL 6.2 (`flipcolor light B` is a white bishop on a light square
    /// or a black one on a dark square).
    Shade { light: bool, set: Box<SetNode<W>> },
    /// The squares `range` steps from a square of `set` along one of `steps` (files, ranks),
    /// whatever stands between.
    Direction { steps: Vec<(i32, i32)>, range: StepRange<W>, set: Box<SetNode<W>> },
    /// The square on a file and a rank counted from 1 (none off the board).
    MakeSquare(Box<NumberNode<W>>, Box<NumberNode<W>>),
    /// `makesquare T`: the square the text names.
    SquareNamed(Box<TextValue<W>>),
    /// The squares of `targets` attacked by a piece on `attackers`, or the squares of
    /// `attackers` whose piece attacks a square of `targets`, as `side` says.
    Attacks { attackers: Box<SetNode<W>>, targets: Box<SetNode<W>>, side: AttackSide },
    /// Where a queen, rook or bishop on the first set sees through a piece on each middle set
    /// to the last set: the first set's squares, or with `last`, the last set's.
    XRay(Box<XRayNode<W>>),
    /// The squares strictly between a square of each set on a line.
    Between(Box<SetNode<W>>, Box<SetNode<W>>),
    /// The squares of the last set that end a line through all sets, with only empty squares
    /// between consecutive ones.
    /// A ray along the steps (files, ranks) given, through the sets.
    Ray { steps: Vec<(i32, i32)>, sets: Vec<SetNode<W>> },
    /// Pinned pieces on `through`, pinned by a piece on `from` to a piece on `to` (or an empty
    /// square, as in CQL 6.2); the value is the part `value` names.
    Pin {
        from: Box<SetNode<W>>,
        through: Box<SetNode<W>>,
        to: Box<SetNode<W>>,
        value: PinPart,
        /// Whether the sets are worked out at every position, in turn (they comment, write or
        /// read variables), rather than once a pin is found.
        eager: bool,
        /// Whether `through` is plain pieces or squares ([`SetNode::is_plain`]), worked out
        /// at every position to leave out the sides it holds none of.
        plain_through: bool,
    },
    /// The squares of the moves that fit.
    Move(Box<MoveNode<W>>),
    /// The value of a set variable (for a piece variable, the square of its piece).
    Variable(usize),
    /// The set a dictionary holds for a key (empty where it holds none).
    Entry(Box<EntryNode<W>>),
    /// One set or the other, as a filter decides.
    If(Box<Conditional<SetNode<W>, W>>),
    /// The squares of a set for which a filter matches (`square X in S F`).
    Loop(Box<LoopNode<W>>),
    /// The set at another position (`P : S`); empty where there is no such position.
    At(Box<PositionNode<W>>, Box<SetNode<W>>),
    /// The set value of a dash's target after the move (empty where no move fits).
    Dash(Box<DashNode<W>>),
    /// A set that transforms leave as it is (the pawn structures: `passedpawns` is the same
    /// set in every copy of a transformed filter; `notransform`).
    Unmapped(Box<SetNode<W>>),
    /// `P & Q` of two positions: the squares whose contents agree in both (empty in both, or
    /// the same piece).
    SameContents(Box<(PositionNode<W>, PositionNode<W>)>),
    /// A set the variant's rules find, named by its vocabulary (Laser Chess's beams): the same
    /// in every copy of a transformed filter.
    Rules(u8),
    /// `puremate` and the other mate shapes: the pieces taking part (the same in every copy of
    /// a transformed filter, as the shape looks at both sides).
    MateShape(Box<MateShapeNode>),
    /// The squares of the pieces that carry a mark (Croatian Chess's tags), named by the
    /// variant's vocabulary.
    Marked(Mark),
    /// The last set of a block, empty where the filters before it do not all match.
    Block(Box<Sequence<SetNode<W>, W>>),
}

/// A position of the line being tested: its value is the index of its frame, if it exists.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PositionNode<const W: usize> {
    /// The position tested.
    Current,
    /// The game's first position.
    Initial,
    /// The position before.
    Parent,
    /// The position after, on the line (0) or in a variation (N).
    Child(u32),
    /// The value of a position variable.
    Variable(usize),
    /// The position a dictionary holds for a key.
    Entry(Box<EntryNode<W>>),
    /// The first position from this one on (or back) where a filter matches.
    Find(Box<FindNode<W>>),
    /// The last position both lines pass through.
    Lca(Box<PositionNode<W>>, Box<PositionNode<W>>),
    /// `position N`: the game's position numbered N (as `positionid` numbers them).
    Numbered(Box<NumberNode<W>>),
    /// `child(N)` with N worked out at the position.
    NumberedChild(Box<NumberNode<W>>),
    /// A position found from another position (`P : parent`).
    At(Box<PositionNode<W>>, Box<PositionNode<W>>),
    /// One position or the other, as a filter decides.
    If(Box<Conditional<PositionNode<W>, W>>),
    /// The last position of a block, where the filters before it all match.
    Block(Box<Sequence<PositionNode<W>, W>>),
    /// The last position a `line lastposition` (a [`FilterNode::Line`]) covers.
    Line(Box<FilterNode<W>>),
    /// The last position of the best run of a `path lastposition`.
    Path(Box<PathNode<W>>),
    /// `pathstart`: where the path around (or the game's last path) started.
    PathStart { inside: bool },
    /// `pathlastposition`: the last position of the best run so far of the path around (or of
    /// the game's last path).
    PathLast { inside: bool },
    /// `notransform P`: the same in every copy of a transform.
    Unmapped(Box<PositionNode<W>>),
}

/// `find all`, `find count`, `find N [M]`: how many positions match, when their number is
/// between the bounds (none: no bound on that side).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FindCount<const W: usize> {
    pub find: FindNode<W>,
    pub min: Option<NumberNode<W>>,
    pub max: Option<NumberNode<W>>,
}

/// The positions `find` looks at, and what it looks for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FindNode<const W: usize> {
    /// Back to the game's start rather than on to the line's end.
    pub backward: bool,
    /// No comments on the positions found.
    pub quiet: bool,
    /// The filter looks at nothing but the position it is tested at and the line (no variable,
    /// no comment): its answers at the positions of a line are found once for all searches.
    pub pure: bool,
    pub filter: FilterNode<W>,
}

/// How a commenting `consecutivemoves` comments the moves two lines share.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SharedMovesNotes {
    /// Its key among the program's commenting `consecutivemoves`.
    pub key: usize,
    /// The names of its two position variables, which the comments give.
    pub names: (String, String),
}

/// `{F1 ... Fn V}` where V has a value: the value of V where F1 to Fn match.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Sequence<T, const W: usize> {
    pub before: Vec<FilterNode<W>>,
    pub last: T,
}

/// The move dash, `X--Y`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct DashNode<const W: usize> {
    pub from: Option<SetNode<W>>,
    pub to: Option<SetNode<W>>,
    /// `[x]`: a capture, `to` being the captured piece's square.
    pub capture: bool,
    pub promote: Option<KindSet>,
    /// What holds after the move.
    pub target: Option<DashTarget<W>>,
    /// The move played next, the one that led here, or the count of the moves that fit.
    pub when: DashWhen,
}

impl<const W: usize> DashNode<W> {
    /// Whether any move fits the dash: `--` with nothing around it.
    pub(crate) fn is_bare(&self) -> bool {
        self.from.is_none() && self.to.is_none() && !self.capture && self.promote.is_none() && self.target.is_none()
    }
}

/// What a dash's target is: a filter, or a value (a number, a set).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum DashTarget<const W: usize> {
    Filter(FilterNode<W>),
    Number(NumberNode<W>),
    Set(SetNode<W>),
    Text(TextValue<W>),
}

/// An x-ray chain (`A -> B -> C`, `xray (A B C)`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct XRayNode<const W: usize> {
    /// The sets, from the piece that sees to what it sees.
    pub sets: Vec<SetNode<W>>,
    /// The value is the last set's squares rather than the first's.
    pub last: bool,
    /// The kinds that see along files and ranks, and those that see along diagonals.
    pub orthogonal: KindSet,
    pub diagonal: KindSet,
}

/// `if F then A else B` where A and B have values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Conditional<T, const W: usize> {
    pub condition: FilterNode<W>,
    pub then: T,
    pub otherwise: Option<T>,
}

/// A `square` or `piece` loop.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct LoopNode<const W: usize> {
    pub over: LoopOver,
    /// The variable that names each square or piece.
    pub slot: usize,
    pub set: SetNode<W>,
    pub body: FilterNode<W>,
}

/// The value an assignment gives.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ValueNode<const W: usize> {
    Number(NumberNode<W>),
    Set(SetNode<W>),
    Position(PositionNode<W>),
    Text(TextValue<W>),
}

/// A side of `equal(X Y)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum EqualSide<const W: usize> {
    /// A filter: whether it matched.
    Matched(FilterNode<W>),
    /// A value, where it has one.
    Value(ValueNode<W>),
}

/// The entry of a key in a dictionary.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct EntryNode<const W: usize> {
    /// The dictionary's slot.
    pub dictionary: usize,
    /// The key.
    pub key: ValueNode<W>,
}

/// `D[k] = v`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct StoreNode<const W: usize> {
    /// Where the value goes.
    pub entry: EntryNode<W>,
    /// The value.
    pub value: ValueNode<W>,
}

/// `x ∊ D F`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct WalkNode<const W: usize> {
    /// The dictionary's slot.
    pub dictionary: usize,
    /// The slot of the variable that takes each key.
    pub variable: usize,
    /// The filter tested with each key.
    pub body: FilterNode<W>,
}

/// A `move` filter.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct MoveNode<const W: usize> {
    pub when: MoveWhen,
    pub from: Option<SetNode<W>>,
    pub to: Option<SetNode<W>>,
    pub capture: Option<SetNode<W>>,
    pub promote: Option<Vec<PieceClass>>,
    pub en_passant: bool,
    /// The squares an en passant capture takes its pawn on (`enpassantsquare S`).
    pub en_passant_square: Option<SetNode<W>>,
    /// The comment each fitting move gives the position it leads to.
    pub comment: Option<Box<FilterNode<W>>>,
    pub castle: Option<Option<Wing>>,
    pub drop: bool,
    pub null: bool,
    pub branch: Option<bool>,
    /// The actions of the variant's moves asked for, one bit each (bit `i` the action its
    /// vocabulary lists `i`th).
    pub actions: u16,
    /// Whether the move alone decides the sets ([`MoveNode::decided_by_facts`]), found once.
    pub by_facts: bool,
    /// What the value is made of.
    pub value: MoveSquare,
    /// Whether a castling gives its rook's square too (`from` and `to` alone).
    pub castling_rook: bool,
    /// Whether the sets comment or read variables: they are then worked out before any move is
    /// looked at, as CQL 6.2 works them out, rather than when a move first needs them.
    pub eager: bool,
}

/// A number expression; `None` is a number without a value (a division by zero).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum NumberNode<const W: usize> {
    Constant(i64),
    Count(SetNode<W>),
    Negate(Box<NumberNode<W>>),
    Abs(Box<NumberNode<W>>),
    /// The whole square root; none of a negative number.
    Sqrt(Box<NumberNode<W>>),
    Arithmetic(BinaryOp, Box<NumberNode<W>>, Box<NumberNode<W>>),
    Extreme {
        max: bool,
        args: Vec<NumberNode<W>>,
    },
    /// Plies since the game's first position.
    Ply,
    /// The move number.
    MoveNumber,
    /// The material value of the pieces in the set.
    Power(SetNode<W>),
    /// The identity of the piece on the set's one square, counted from 0.
    PieceId(SetNode<W>),
    /// 1 when the first player is to move, -1 otherwise.
    SideToMove,
    /// A number about the one square of the set.
    Square {
        what: SquareNumber,
        set: SetNode<W>,
    },
    /// The value of a game test.
    Game(usize),
    /// How many copies of a transformed filter match (`flip count F`), where that many are
    /// between the bounds (`flip 2 8 F`; none: no bound on that side).
    OrbitCount {
        copies: Copies<FilterNode<W>>,
        min: Option<Box<NumberNode<W>>>,
        max: Option<Box<NumberNode<W>>>,
    },
    /// The copies of a transformed number: the largest value among them.
    OrbitMax(Copies<NumberNode<W>>),
    /// The value of a numeric variable.
    Variable(usize),
    /// The number a dictionary holds for a key.
    Entry(Box<EntryNode<W>>),
    /// How many keys a dictionary holds, by its slot.
    DictionarySize(usize),
    /// A counter the position keeps (named by the variant's vocabulary) for a side.
    Counter {
        /// The counter.
        counter: u8,
        /// The side.
        side: Color,
    },
    /// One number or the other, as a filter decides.
    If(Box<Conditional<NumberNode<W>, W>>),
    /// How many positions from this one on (or back) a filter matches, when that many do.
    FindCount(Box<FindCount<W>>),
    /// The number at another position (`P : N`).
    At(Box<PositionNode<W>>, Box<NumberNode<W>>),
    /// The game's number in the input.
    GameNumber,
    /// The number of the input's last game (`lastgamenumber`).
    LastGameNumber,
    /// `positionid`: the position's number in the game.
    PositionId,
    /// `depth`: how many variations deep the position lies.
    Depth,
    /// The largest value of a number at the other positions of the game (`echo`).
    Echo(Box<EchoNode<W>>),
    /// The last number of a block, where the filters before it all match.
    Block(Box<Sequence<NumberNode<W>, W>>),
    /// The value of a dash's target after the move, where the move fits (with `countmoves`,
    /// the number of moves that fit).
    Dash(Box<DashNode<W>>),
    /// `move legal count`: how many legal (or pseudo-legal) moves fit, a promotion's choices
    /// counted once.
    MoveCount(Box<MoveNode<W>>),
    /// A number that transforms leave as it is (`notransform`).
    Unmapped(Box<NumberNode<W>>),
    /// The number, kept as the game's value for the body's `sort` key `key` where it is the
    /// best so far: the smallest with `smallest`, else the largest (a key that several
    /// `sort` filters share, by their label, is kept by each one's own measure, as in CQL 6.2).
    Sorted {
        key: usize,
        smallest: bool,
        value: Box<NumberNode<W>>,
    },
    /// The plies between two positions.
    Distance(Box<PositionNode<W>>, Box<PositionNode<W>>),
    /// The moves in a row the lines to two positions share after they part, within a range;
    /// with `notes`, the longest share of the game is commented once the game is found.
    ConsecutiveMoves {
        positions: Box<(PositionNode<W>, PositionNode<W>)>,
        min: i64,
        max: Option<i64>,
        notes: Option<Box<SharedMovesNotes>>,
    },
    /// The left number of a comparison that holds (`3 < ply < 10` is `3 < (ply < 10)`).
    Compared(BinaryOp, Box<NumberNode<W>>, Box<NumberNode<W>>),
    /// `#T`: the length of a text, in bytes as CQL 6.2 counts it.
    TextLength(Box<TextValue<W>>),
    /// `int T`.
    TextToInt(Box<TextValue<W>>),
    /// `ascii T`: the code of the first character.
    Code(Box<TextValue<W>>),
    /// `indexof(T U)`.
    IndexOf(Box<(TextValue<W>, TextValue<W>)>),
    /// `\-N`: where group N of the last match begins (-1 when it matched nothing).
    GroupStart(u8),
    /// How many positions a `line` (a [`FilterNode::Line`]) covers, where it matches.
    Line(Box<FilterNode<W>>),
    /// How many moves the best run of a `path` counts (with `max`, the best value).
    Path(Box<PathNode<W>>),
    /// `pathcount`: the moves the path around has counted so far (or the game's last path).
    PathCount {
        inside: bool,
    },
}

/// One constituent of a `line`: what it matches, between `min` and `max` times in a row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Step<const W: usize> {
    pub body: StepBody<W>,
    pub min: u32,
    pub max: Option<u32>,
}

/// How the filters of a `line` are tested, by what they look at and do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum LineTests {
    /// They look at nothing but the positions: the run from a position is the same whenever
    /// it is asked, and is found once a line of positions.
    Positions,
    /// They use no variable, but look at more than the positions (`find`'s comments, a path):
    /// whether the line matches is found for every position at once, its run each time.
    Plain,
    /// They use variables: they are tested position after position, in the order of the line,
    /// each time the `line` is (their answers depend on the values).
    InOrder,
    /// They write (print, comment, give values): they are tested as often and in the order
    /// CQL 6.2 tests them ([`DepthFirst`](super::line_depth::DepthFirst)).
    AsCql,
}

/// What a [`Step`] matches each time.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum StepBody<const W: usize> {
    /// One position that matches the filter.
    Filter(FilterNode<W>),
    /// Positions that match the steps in turn.
    Group(Vec<Step<W>>),
}

impl<const W: usize> Step<W> {
    /// The filter of a step that is one (not a group).
    pub fn filter(&self) -> Option<&FilterNode<W>> {
        match &self.body {
            StepBody::Filter(filter) => Some(filter),
            StepBody::Group(_) => None,
        }
    }

    /// The filter of a step of a line whose steps are all filters ([`flat`]).
    pub fn flat_filter(&self) -> &FilterNode<W> {
        self.filter().unwrap_or_else(|| unreachable!("a line with groups is matched by its sets of ends"))
    }
}

/// Whether a line's steps are all filters, and some step must match a position: then the
/// linear matchers answer it; otherwise the sets of ends do (`line_sets`).
pub(crate) fn flat<const W: usize>(steps: &[Step<W>]) -> bool {
    steps.iter().all(|step| step.filter().is_some()) && steps.iter().any(|step| step.min > 0)
}

/// A filter.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum FilterNode<const W: usize> {
    /// Matches when the set is not empty.
    NotEmpty(SetNode<W>),
    /// Matches when the set, which holds no backhand slot, has a square.
    HasSquare(SetNode<W>),
    /// Matches when a piece stands on one of the squares (the commonest designator, `Ra-h7`,
    /// evaluated without a walk of the set tree).
    PieceOn {
        piece: Piece,
        squares: SquareSet<W>,
    },
    /// Matches when the number has a value.
    HasValue(NumberNode<W>),
    /// Compares two numbers.
    Compare(BinaryOp, NumberNode<W>, NumberNode<W>),
    /// Two sets hold the same squares.
    SameSquares(SetNode<W>, SetNode<W>),
    /// Compares two texts (in the order of their characters).
    CompareTexts(BinaryOp, TextValue<W>, TextValue<W>),
    /// `T in U`: U holds T.
    TextIn(TextValue<W>, TextValue<W>),
    /// `writefile(F T)`.
    WriteFile(TextValue<W>, TextValue<W>),
    /// The move that led to the position has this annotation glyph (`hascomment "!"`).
    Glyph(u8),
    /// `removecomment`: the position's comment is left out of the game written; matches.
    RemoveComment,
    /// `similarposition`: the position is one of the file's; each sighting is written as a
    /// comment, and the least game number found goes into the slot.
    Similar {
        games: Arc<SimilarGames>,
        slot: usize,
    },
    /// `assert F`: F, which where it fails stops the run, saying where (the place in the query
    /// given).
    Assert(Box<(FilterNode<W>, String)>),
    /// `settag("Name" T)`: the game is written with the tag valued T; matches where T has a
    /// value.
    SetTag(Box<(String, TextValue<W>)>),
    /// The text has a value.
    HasText(TextValue<W>),
    /// Compares two positions: `==` for the same one, the others by their order in the line.
    ComparePositions(BinaryOp, PositionNode<W>, PositionNode<W>),
    /// `ancestor`, `[<]` and the like: the first position lies on the line to the second,
    /// before it (or is it, where not `strict`).
    Descends {
        ancestor: PositionNode<W>,
        descendant: PositionNode<W>,
        strict: bool,
        later_first: bool,
        /// Whether the comments its positions made are kept when it fails (`ancestor(...)`).
        keeps_notes: bool,
    },
    /// Every square and backhand slot of the left set is in the right one.
    Subset(SetNode<W>, SetNode<W>),
    All(Vec<FilterNode<W>>),
    Any(Vec<FilterNode<W>>),
    /// The copies of a transformed filter: matches where one does. Each copy is tested where
    /// `exhaustive` (its filter makes comments or gives values), as in CQL 6.2; else up to the
    /// first that matches.
    Orbit {
        copies: Copies<FilterNode<W>>,
        exhaustive: bool,
    },
    Not(Box<FilterNode<W>>),
    /// A filter that looks at nothing but the positions and does nothing else, whose answer at
    /// each frame is kept while the frames stay the same (a path tests it again and again).
    Memo(Box<FilterNode<W>>),
    /// Always or never.
    Constant(bool),
    /// A value that CQL 6.2 refuses to test as a filter (a number alone): testing it stops the
    /// run, for the reason given.
    Refused(Arc<str>),
    /// The side to move.
    Turn(Color),
    /// The side to move is in check.
    Check,
    /// The side to move is mated (with `true`) or stalemated.
    NoMove {
        check: bool,
    },
    /// The game's first position.
    Initial,
    /// The line's last position.
    Terminal,
    /// The board holds exactly these pieces: the squares of each piece of the variant.
    Placement(Vec<(Piece, SquareSet<W>)>),
    /// A game test passes.
    Game(usize),
    /// Consecutive positions from this one match the steps in turn. `slot` numbers the `line`
    /// filters of a program (each transformed copy has its own), to keep their answers over one
    /// line of positions in a [`LineCache`](super::line::LineCache).
    Line {
        steps: Vec<Step<W>>,
        slot: usize,
        /// How the steps are tested.
        tests: LineTests,
        options: LineOptions,
        /// The range `N M` where it names variables, found at the run's first position.
        bounds: Option<Box<(NumberNode<W>, NumberNode<W>)>>,
    },
    /// A `path` from this position matches.
    Path(Box<PathNode<W>>),
    /// `pathdebug`: prints where the path around stands.
    PathDebug,
    /// Gives a variable a value.
    Assign {
        slot: usize,
        op: AssignOp,
        value: ValueNode<W>,
    },
    /// `equal(X Y)`: both sides give the same value (see [`EqualSide`]).
    Equal(Box<[EqualSide<W>; 2]>),
    /// The dictionary holds a value for the key.
    HasEntry(Box<EntryNode<W>>),
    /// Gives a dictionary's key a value; matches when both exist.
    Store(Box<StoreNode<W>>),
    /// Forgets the entry of a key (or, with none, every entry) of a dictionary; matches when
    /// the key exists.
    Forget {
        dictionary: usize,
        key: Option<Box<ValueNode<W>>>,
    },
    /// A filter tested with a variable each key of a dictionary in turn; matches.
    Walk(Box<WalkNode<W>>),
    /// The variable of the slot holds a value.
    IsBound(usize),
    /// The variable of the slot loses its value; matches.
    Unbind(usize),
    /// One filter or another, as a filter decides.
    If(Box<Conditional<FilterNode<W>, W>>),
    /// Every square (or piece) of a set passes a filter (`square all X in S F`).
    LoopAll(Box<LoopNode<W>>),
    /// The position exists.
    HasPosition(PositionNode<W>),
    /// The filter matches at another position (`P : F`).
    At(PositionNode<W>, Box<FilterNode<W>>),
    /// The position is on the main line (with `true`) or in a variation.
    Mainline(bool),
    /// `virtualmainline`: each move back to the game's start is the main continuation, or a
    /// variation of a move of the second player, and none is a null move.
    VirtualMainline,
    /// The move that led here begins a variation (with `true`: `secondary`) or is the main
    /// continuation of the position before (`primary`).
    Branch(bool),
    /// `cql_hhdbhascook`: the game's text holds `<cook`.
    HasCook,
    /// A filter that transforms leave as it is (`notransform`).
    Unmapped(Box<FilterNode<W>>),
    /// Writes a comment at the position, or prints a message; always matches.
    Comment(Box<CommentNode<W>>),
    /// The move played from the position fits the dash (and its target holds after it).
    Dash(Box<DashNode<W>>),
    /// `loop F` (no test) or `while (T) F`.
    Repeat(Option<Box<FilterNode<W>>>, Box<FilterNode<W>>),
    /// A filter matches at another position of the game, the two named (`echo`).
    Echo(Box<EchoNode<W>>),
}

/// `echo (S T) [in all] F`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct EchoNode<const W: usize> {
    /// The slots of S and T, and their names (for the comments about the pairs found).
    pub source: (usize, String),
    pub target: (usize, String),
    pub all: bool,
    pub quiet: bool,
    pub body: EchoBody<W>,
}

/// What `echo` tests at each target: a filter, or a number (whose largest value over the
/// targets is the value of the `echo`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum EchoBody<const W: usize> {
    Filter(FilterNode<W>),
    Number(NumberNode<W>),
}

/// `comment(...)` or `message(...)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CommentNode<const W: usize> {
    pub message: bool,
    pub quiet: bool,
    pub parts: Vec<TextNode<W>>,
}

/// The names of the transforms that made a copy of a filter, the innermost first. They do not
/// tell copies apart: as in CQL 6.2, copies alike but for them count once.
#[derive(Clone, Debug, Default)]
pub(crate) struct TransformNames(pub Vec<String>);

impl PartialEq for TransformNames {
    fn eq(&self, _: &TransformNames) -> bool {
        true
    }
}

impl Eq for TransformNames {}

impl std::hash::Hash for TransformNames {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl TransformNames {
    /// The text CQL 6.2 gives: the names, the outermost first, between `<` and `>`.
    pub(crate) fn text(&self) -> String {
        let names: Vec<&str> = self.0.iter().rev().map(String::as_str).filter(|name| !name.is_empty()).collect();
        format!("<{}>", names.join(" "))
    }
}

/// A text value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TextValue<const W: usize> {
    Literal(Arc<str>),
    /// The text of a dash's target, after the first move that fits.
    Dash(Box<DashNode<W>>),
    /// The letter of the piece on the one square of the set (`_` on an empty square), upper
    /// case (`typename`) or in its colour's case (`piecename`).
    PieceLetter {
        set: SetNode<W>,
        colored: bool,
    },
    /// A tag's text, by the slot of its game test.
    Game(usize),
    Variable(usize),
    /// The text a dictionary holds for a key.
    Entry(Box<EntryNode<W>>),
    Concat(Box<TextValue<W>>, Box<TextValue<W>>),
    /// `T == U`, `T < U`, ...: T, where the comparison holds.
    Compared(BinaryOp, Box<TextValue<W>>, Box<TextValue<W>>),
    /// `uppercase T` (`upper`), `lowercase T`.
    Case {
        upper: bool,
        text: Box<TextValue<W>>,
    },
    ReadFile(Box<TextValue<W>>),
    Substring(Box<SubstringNode<W>>),
    /// `T ~~ "re"`: the part matched.
    Match(Box<TextValue<W>>, Pattern),
    /// `\N`: what group N of the last match matched.
    Group(u8),
    /// `str(...)`: the parts written as `message` writes them.
    Str(Vec<TextNode<W>>),
    /// `ascii N`: the character of a code.
    Character(Box<NumberNode<W>>),
    /// `max(T U ...)`, `min(T U ...)`: the last (or first) in the order of their bytes.
    Extreme {
        max: bool,
        args: Vec<TextValue<W>>,
    },
    /// `fen`: the position's FEN.
    Fen,
    /// `currenttransform`: the names of the transforms that made the copy, the innermost first.
    Transform(TransformNames),
    /// `originalcomment`: the comment of the move that led to the position.
    OriginalComment,
    If(Box<Conditional<TextValue<W>, W>>),
    At(Box<PositionNode<W>>, Box<TextValue<W>>),
    Block(Box<Sequence<TextValue<W>, W>>),
    /// `notransform T`: the same in every copy of a transform.
    Unmapped(Box<TextValue<W>>),
    /// The text, kept as the game's value for the body's `sort` key `key` where it is the
    /// best so far: the smallest with `smallest`, else the largest (a key that several
    /// `sort` filters share, by their label, is kept by each one's own measure, as in CQL 6.2).
    Sorted {
        key: usize,
        smallest: bool,
        value: Box<TextValue<W>>,
    },
}

/// `T[i]`, `T[i:j]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SubstringNode<const W: usize> {
    pub text: TextValue<W>,
    pub start: Option<NumberNode<W>>,
    pub end: Option<NumberNode<W>>,
    /// `[i:j]` rather than `[i]`.
    pub range: bool,
}

/// A part of a comment's text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TextNode<const W: usize> {
    Text(String),
    /// A variable: its value, or that it has none.
    Variable {
        slot: usize,
        name: String,
    },
    Number(NumberNode<W>),
    Set(SetNode<W>),
    Position(PositionNode<W>),
    TextValue(TextValue<W>),
    Filter(FilterNode<W>),
}

/// What a program needs from the replay besides each position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// The move that led to each position (`move previous`).
    pub previous_move: bool,
    /// The position before each one, where the sets of a `move previous` are looked for,
    /// unless the move alone decides them (squares, and the pieces that move and are taken).
    pub parent: bool,
    /// The positions after each one (`line`, `terminal`): a line is tested once it is complete.
    pub lookahead: bool,
    /// The identities of the pieces of each position, followed from the first (`piece x in S`).
    pub identities: bool,
    /// What the game's text says about each move (its comment and glyphs: `hascomment`); as
    /// a comment follows its move, each position is tested once its line is read.
    pub remarks: bool,
    /// Whether the game's text holds `<cook` (`cql_hhdbhascook`): known once the game is
    /// read, so positions are tested then.
    pub game_text: bool,
    /// Only a position without a legal move can match (`mate` or `stalemate` must hold, and
    /// nothing in the query writes), so a position with a move after it in its line need not
    /// be tested: a replay may test only where each line ends, and before each null move.
    pub terminal: bool,
    /// Only the game's first position can match (`initial` is the filter tested first, and
    /// nothing beside the filters writes): the positions after it need not be tested.
    pub first_only: bool,
}

/// The `sort` value of a query's header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SortKey<const W: usize> {
    pub value: NumberNode<W>,
    pub min: bool,
}

/// A query compiled for boards whose square sets take `W` words.
#[derive(Clone, Debug)]
pub struct Program<const W: usize> {
    pub(crate) masks: Masks<W>,
    pub(crate) filters: Vec<FilterNode<W>>,
    /// The `power` value of each kind.
    pub(crate) values: Vec<i64>,
    pub(crate) game_tests: Vec<GameTest>,
    /// The header's `sort`, valued at the matching positions.
    pub(crate) sort: Option<SortKey<W>>,
    /// The `sort` keys of the body, by key: whether each takes the smallest value as the best.
    pub(crate) body_sorts: Vec<bool>,
    /// How many `consecutivemoves` comment the moves they find.
    pub(crate) shared_moves: usize,
    pub(crate) needs: Needs,
    /// Whether the program writes comments (then those of failing filters are dropped).
    pub(crate) makes_notes: bool,
    /// Whether no comment is written at all (`silent`).
    pub(crate) silent: bool,
    /// Whether the program removes positions' comments from the game written (`removecomment`).
    pub(crate) removes_comments: bool,
    /// The variables' names, by slot.
    pub(crate) variable_names: Vec<String>,
    /// The variables, by slot: whether each lasts from game to game.
    pub(crate) persistent: Vec<Option<Value<W>>>,
    /// The persistent variables printed at the end of a run (not `quiet`), with their slots.
    pub(crate) printed: Vec<(String, usize)>,
    /// The dictionaries, by slot: whether each lasts from game to game.
    pub(crate) dictionaries: Vec<bool>,
    /// The leading filters that are plain piece tests, tested without walking their nodes.
    pub(crate) quick: QuickPrefix<W>,
    /// Whether each filter of the body writes what outlasts the game (a persistent variable,
    /// a message) or what the game is written with whatever its positions (a sort's value):
    /// the tags never decide past such a filter, whose effects need the positions.
    pub(crate) lasting: Vec<bool>,
}

impl<const W: usize> Program<W> {
    /// Whether the query looks at no position at all (an empty body, or game filters alone):
    /// then the first position of a game decides it, and its moves need not be replayed.
    #[must_use]
    pub fn is_game_level(&self) -> bool {
        self.filters.iter().all(FilterNode::is_game_level) && self.sort.is_none()
    }

    /// The board the program's square sets are of.
    #[must_use]
    pub fn geometry(&self) -> crate::board::Geometry {
        self.masks.geometry()
    }

    /// What the program needs from the replay.
    #[must_use]
    pub fn needs(&self) -> Needs {
        self.needs
    }

    /// A fresh state for evaluating the program: its variables without values.
    #[must_use]
    pub fn new_state(&self) -> State<W> {
        State::new(self.persistent.clone(), &self.dictionaries, &self.body_sorts, self.shared_moves, self.silent)
    }

    /// Whether the query sorts the games it finds, by its header's `sort` or by a `sort` of
    /// its body.
    #[must_use]
    pub fn sorts(&self) -> bool {
        self.sort.is_some() || !self.body_sorts.is_empty()
    }

    /// Whether the header's `sort` (valued at the matching positions) takes the smallest
    /// value as the best, if the header has one.
    #[must_use]
    pub fn header_sort(&self) -> Option<bool> {
        self.sort.as_ref().map(|sort| sort.min)
    }

    /// The values of the game filters for a game with these tags.
    #[must_use]
    pub fn game_facts(&self, tags: &impl TagSource) -> GameFacts {
        GameFacts {
            values: self.game_tests.iter().map(|test| test.value(tags)).collect(),
            texts: self.game_tests.iter().map(|test| test.text(tags)).collect(),
            number: 0,
            last_number: 0,
            variations: false,
            has_cook: false,
        }
    }

    /// What the tags alone decide: `Some(false)` when no position of the game can match,
    /// `Some(true)` when every position matches whatever it holds, `None` when it depends.
    #[must_use]
    pub fn decide(&self, game: &GameFacts) -> Option<bool> {
        // The filters are tested in order up to the first that fails, as in CQL 6.2: those
        // before a filter that writes what outlasts the game decide alone.
        let mut value = Some(true);
        for (filter, &lasting) in self.filters.iter().zip(&self.lasting) {
            if lasting {
                return None;
            }
            match filter.decide(game) {
                Some(false) => return Some(false),
                Some(true) => {}
                None => value = None,
            }
        }
        value
    }

    /// Whether every filter of the body matches a position that stands alone (a game of one
    /// position, whose ply comes from its move counters).
    #[must_use]
    pub fn matches<P: RulesView<W>>(&self, position: &P) -> bool {
        let frames = [Frame::new(position, position.ply_from_counters(), None)];
        let game = GameFacts {
            values: vec![None; self.game_tests.len()],
            texts: vec![None; self.game_tests.len()],
            number: 0,
            last_number: 0,
            variations: false,
            has_cook: false,
        };
        let state = self.new_state();
        self.matches_at(&Context::alone(&frames, &game, &state), 0)
    }

    /// Whether every filter of the body matches the position `at` of the context's line.
    #[inline]
    pub fn matches_at<P: RulesView<W>>(&self, context: &Context<'_, P, W>, at: usize) -> bool {
        self.quick.passes(self, context, at)
            && self.filters[self.quick.filters..].iter().all(|filter| self.filter(filter, context, at))
    }

    /// The value of the header's `sort` at the position `at`, if it has one there.
    #[must_use]
    pub fn sort_value<P: RulesView<W>>(&self, context: &Context<'_, P, W>, at: usize) -> Option<i64> {
        self.number(&self.sort.as_ref()?.value, context, at)
    }

    /// Whether a filter matches at `at`. The comments made while a filter fails are dropped,
    /// as CQL 6.2 drops them, even when the position matches in the end; but for `P : F`, `if`,
    /// `find`, `equal`, sets (`move`, `between`, `&`...) and `ancestor`/`descendant`, which keep them as
    /// CQL 6.2 keeps them (for a filter around to drop, if it fails).
    #[inline]
    pub(crate) fn filter<P: RulesView<W>>(&self, node: &FilterNode<W>, context: &Context<'_, P, W>, at: usize) -> bool {
        if !self.makes_notes {
            return self.filter_here(node, context, at);
        }
        let before = context.state.notes_len();
        let matched = self.filter_here(node, context, at);
        let keeps_notes = match node {
            // A set keeps them, but for those CQL 6.2 drops them in: transforms, dashes, loops
            // and blocks.
            FilterNode::HasSquare(set) | FilterNode::NotEmpty(set) => {
                !matches!(set, SetNode::Orbit(_) | SetNode::Dash(_) | SetNode::Loop(_) | SetNode::Block(_))
            }
            node => matches!(
                node,
                FilterNode::At(..)
                    | FilterNode::Descends { keeps_notes: true, .. }
                    | FilterNode::If(_)
                    | FilterNode::Unmapped(_)
                    | FilterNode::Memo(_)
                    | FilterNode::Equal(_)
                    | FilterNode::HasValue(NumberNode::FindCount(_) | NumberNode::At(..))
                    | FilterNode::HasPosition(PositionNode::Find(_) | PositionNode::At(..))
            ),
        };
        if !matched && !keeps_notes {
            context.state.truncate_notes(before);
        }
        matched
    }

    /// `test`, with the comments it makes taken back.
    pub(super) fn without_notes<P: RulesView<W>>(
        &self,
        context: &Context<'_, P, W>,
        test: impl FnOnce() -> bool,
    ) -> bool {
        let before = context.state.notes_len();
        let holds = test();
        context.state.truncate_notes(before);
        holds
    }

    fn filter_here<P: RulesView<W>>(&self, node: &FilterNode<W>, context: &Context<'_, P, W>, at: usize) -> bool {
        let frame = &context.frames[at];
        let view = &frame.position;
        match node {
            // A move played here that fits, told by its facts alone, is all a filter asks for:
            // the set of its squares is not built.
            FilterNode::HasSquare(SetNode::Move(node)) | FilterNode::NotEmpty(SetNode::Move(node))
                if node.told_by_a_move_made() =>
            {
                self.some_move_made_fits(node, context, at)
            }
            FilterNode::NotEmpty(set) => !self.set(set, context, at).is_empty(),
            FilterNode::HasSquare(set) => !self.squares(set, context, at).is_empty(),
            FilterNode::PieceOn { piece, squares } => {
                (view.kind(piece.kind) & view.color(piece.color) & *squares).any()
            }
            FilterNode::HasValue(number) => self.number(number, context, at).is_some(),
            // CQL 6.2's `x != y` of numbers or texts is `not (x == y)`: no comment made on
            // the way is kept.
            // As in CQL 6.2, two numbers or texts differ where either has no value. The right
            // side of a comparison is looked at only where the left one has a value.
            FilterNode::Compare(BinaryOp::Ne, left, right) => self.without_notes(context, || {
                let Some(left) = self.number(left, context, at) else { return true };
                self.number(right, context, at).is_none_or(|right| left != right)
            }),
            FilterNode::CompareTexts(BinaryOp::Ne, left, right) => self.without_notes(context, || {
                let Some(left) = self.text(left, context, at) else { return true };
                self.text(right, context, at).is_none_or(|right| compare_texts(BinaryOp::Ne, &left, &right))
            }),
            // CQL 6.2 reads `a != b` as `not a == b`: a side without a value makes it so.
            FilterNode::Compare(op, left, right) => {
                let Some(left) = self.number(left, context, at) else { return *op == BinaryOp::Ne };
                self.number(right, context, at).map_or(*op == BinaryOp::Ne, |right| compare(*op, left, right))
            }
            FilterNode::SameSquares(left, right) => self.squares(left, context, at) == self.squares(right, context, at),
            FilterNode::CompareTexts(op, left, right) => {
                let Some(left) = self.text(left, context, at) else { return *op == BinaryOp::Ne };
                self.text(right, context, at).map_or(*op == BinaryOp::Ne, |right| compare_texts(*op, &left, &right))
            }
            FilterNode::HasText(text) => self.text(text, context, at).is_some(),
            FilterNode::TextIn(needle, haystack) => {
                let Some(needle) = self.text(needle, context, at) else { return false };
                self.text(haystack, context, at)
                    .is_some_and(|haystack| find(haystack.as_bytes(), needle.as_bytes()).is_some())
            }
            FilterNode::WriteFile(file, text) => self.write_file(file, text, context, at),
            FilterNode::Glyph(glyph) => context.remarks.get(at).is_some_and(|remark| remark.glyphs.contains(glyph)),
            FilterNode::RemoveComment => {
                context.state.remove_comment(at);
                true
            }
            FilterNode::Similar { games, slot } => self.similar(games, *slot, context, at),
            FilterNode::Assert(assertion) => {
                let (filter, place) = &**assertion;
                if self.filter(filter, context, at) {
                    return true;
                }
                let (game, id) = (context.game.number, context.frames[at].id);
                context.state.refuse(&format!("the assertion at {place} failed in game {game}, at positionid {id}"));
                false
            }
            FilterNode::SetTag(tag) => {
                let Some(value) = self.text(&tag.1, context, at) else { return false };
                context.state.set_tag(&tag.0, &value);
                true
            }
            FilterNode::Descends { ancestor, descendant, strict, later_first, .. } => {
                // As in CQL 6.2, the second evaluated is not where the first has no value.
                let (first, second) = if *later_first { (descendant, ancestor) } else { (ancestor, descendant) };
                let Some(first) = self.position(first, context, at) else { return false };
                let Some(second) = self.position(second, context, at) else { return false };
                let (ancestor, descendant) = if *later_first { (second, first) } else { (first, second) };
                context.subtree(ancestor).contains(&descendant) && (!strict || ancestor != descendant)
            }
            FilterNode::ComparePositions(op, left, right) => {
                let Some(left) = self.position(left, context, at) else { return false };
                self.position(right, context, at).is_some_and(|right| compare(*op, left as i64, right as i64))
            }
            FilterNode::Subset(left, right) => {
                let left = self.set(left, context, at);
                let right = self.set(right, context, at);
                left.squares.is_subset(right.squares)
                    && (0..2).all(|c| left.backhand[c].difference(right.backhand[c]).is_empty())
            }
            FilterNode::All(filters) => filters.iter().all(|filter| self.filter(filter, context, at)),
            FilterNode::Any(filters) => filters.iter().any(|filter| self.filter(filter, context, at)),
            FilterNode::Orbit { copies, exhaustive: false } => {
                copies.iter().any(|filter| self.filter(filter, context, at))
            }
            FilterNode::Orbit { copies, exhaustive: true } => {
                copies.iter().filter(|filter| self.filter(filter, context, at)).count() > 0
            }
            // CQL 6.2 drops what `not F` comments, whether F matches or not.
            FilterNode::Not(filter) => !self.without_notes(context, || self.filter(filter, context, at)),
            FilterNode::Memo(filter) => match context.lines {
                Some(cache) => cache.filter_at(std::ptr::from_ref(&**filter) as usize, context, at, || {
                    self.filter(filter, context, at)
                }),
                None => self.filter(filter, context, at),
            },
            FilterNode::Constant(value) => *value,
            FilterNode::Refused(reason) => {
                context.state.refuse(reason);
                false
            }
            FilterNode::Turn(color) => view.turn() == *color,
            FilterNode::Check => view.in_check(),
            FilterNode::NoMove { check: true } => view.is_mate(),
            FilterNode::NoMove { check: false } => view.is_stalemate(),
            FilterNode::Initial => frame.ply == 0,
            FilterNode::Terminal => context.is_terminal(at),
            FilterNode::Placement(pieces) => {
                pieces.iter().all(|(piece, squares)| view.kind(piece.kind) & view.color(piece.color) == *squares)
            }
            FilterNode::Game(slot) => context.game.values.get(*slot).copied().flatten().is_some(),
            FilterNode::Line { .. } => self.line_match(node, context, at).is_some(),
            FilterNode::Path(path) => self.path_match(path, context, at).is_some(),
            FilterNode::PathDebug => {
                self.path_debug(context, at);
                true
            }
            FilterNode::Assign { slot, op, value } => self.assign(*slot, *op, value, context, at),
            FilterNode::Equal(sides) => self.equal(sides, context, at),
            FilterNode::HasEntry(entry) => self.entry(entry, context, at).is_some(),
            FilterNode::Store(store) => self.store(store, context, at),
            FilterNode::Forget { dictionary, key } => self.forget(*dictionary, key.as_deref(), context, at),
            FilterNode::Walk(walk) => self.walk(walk, context, at),
            FilterNode::IsBound(slot) => context.state.get(*slot) != Value::Unset,
            FilterNode::Unbind(slot) => {
                context.state.set(*slot, Value::Unset);
                true
            }
            FilterNode::If(conditional) => {
                self.choose(conditional, context, at).is_none_or(|chosen| self.filter(chosen, context, at))
            }
            FilterNode::LoopAll(node) => self.loop_all(node, context, at),
            FilterNode::HasPosition(position) => self.position(position, context, at).is_some(),
            FilterNode::At(position, filter) => {
                self.position(position, context, at).is_some_and(|there| self.filter(filter, context, there))
            }
            FilterNode::Mainline(on_it) => frame.mainline == *on_it,
            FilterNode::HasCook => context.game.has_cook,
            FilterNode::VirtualMainline => context.ancestry(at).all(|there| {
                let Some(parent) = context.parent(there) else { return true };
                let moved = &context.frames[there];
                let defence = context.frames[parent].position.turn() != Color::White;
                !moved.previous.is_some_and(MoveFacts::is_null) && (!moved.branch || defence)
            }),
            FilterNode::Branch(begins) => frame.ply > 0 && frame.branch == *begins,
            FilterNode::Unmapped(filter) => self.filter(filter, context, at),
            FilterNode::Comment(node) => {
                self.comment(node, context, at);
                true
            }
            FilterNode::Echo(node) => self.echo(node, context, at).is_some(),
            FilterNode::Repeat(test, body) => self.repeat(test.as_deref(), body, context, at),
            FilterNode::Dash(node) => node.when == DashWhen::Count || self.dash_matches(node, context, at),
        }
    }

    pub(super) fn number<P: RulesView<W>>(
        &self,
        node: &NumberNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<i64> {
        let frame = &context.frames[at];
        match node {
            NumberNode::Constant(value) => Some(*value),
            // Pieces on the board alone are counted without looking at the backhand.
            NumberNode::Count(set @ (SetNode::Pieces { backhand: false, .. } | SetNode::Shade { .. })) => {
                Some(self.squares(set, context, at).count() as i64)
            }
            NumberNode::Count(set) => Some(self.set(set, context, at).count(&frame.position)),
            NumberNode::Negate(value) => self.number(value, context, at)?.checked_neg(),
            NumberNode::Abs(value) => self.number(value, context, at)?.checked_abs(),
            NumberNode::Sqrt(value) => whole_sqrt(self.number(value, context, at)?),
            NumberNode::Arithmetic(op, left, right) => {
                let left = self.number(left, context, at)?;
                let right = self.number(right, context, at)?;
                match op {
                    BinaryOp::Add => left.checked_add(right),
                    BinaryOp::Sub => left.checked_sub(right),
                    BinaryOp::Mul => left.checked_mul(right),
                    BinaryOp::Div => left.checked_div(right),
                    BinaryOp::Rem => left.checked_rem(right),
                    _ => unreachable!("compile: {op:?} is no arithmetic"),
                }
            }
            NumberNode::Extreme { max, args } => {
                extreme(*max, args.iter().map(|arg| move || self.number(arg, context, at)), context.state)
            }
            NumberNode::Ply => Some(i64::from(frame.ply)),
            NumberNode::MoveNumber => Some(i64::from(frame.position.move_number())),
            NumberNode::Power(set) => Some(self.power(&self.set(set, context, at), &frame.position)),
            NumberNode::PieceId(set) => {
                let squares = self.squares(set, context, at);
                let mut squares = squares.iter();
                let (Some(square), None) = (squares.next(), squares.next()) else { return None };
                let id = context.pieces.get(at)?.at(square)?;
                Some(i64::from(id) - 1)
            }
            NumberNode::SideToMove => Some(if frame.position.turn() == Color::White { 1 } else { -1 }),
            NumberNode::Square { what, set } => {
                self.square_number(*what, self.squares(set, context, at), &frame.position)
            }
            NumberNode::Game(slot) => context.game.values.get(*slot).copied().flatten(),
            NumberNode::OrbitCount { copies, min, max } => {
                let bound = |bound: &Option<Box<NumberNode<W>>>| match bound {
                    Some(bound) => self.number(bound, context, at).map(Some),
                    None => Some(None),
                };
                let (min, max) = (bound(min)?, bound(max)?);
                let matching = copies.iter().filter(|filter| self.filter(filter, context, at)).count() as i64;
                (min.is_none_or(|min| matching >= min) && max.is_none_or(|max| matching <= max)).then_some(matching)
            }
            NumberNode::OrbitMax(copies) => copies.iter().filter_map(|copy| self.number(copy, context, at)).max(),
            NumberNode::Variable(slot) => self.number_variable(*slot, context, at),
            NumberNode::Entry(entry) => match self.entry(entry, context, at) {
                Some(Value::Number(number)) => Some(number),
                _ => None,
            },
            NumberNode::DictionarySize(dictionary) => i64::try_from(context.state.dictionary_len(*dictionary)).ok(),
            NumberNode::Counter { counter, side } => Some(frame.position.counter(*counter, *side)),
            NumberNode::If(conditional) => self.number(self.choose(conditional, context, at)?, context, at),
            NumberNode::FindCount(count) => {
                let bound = |bound: &Option<NumberNode<W>>| match bound {
                    Some(bound) => self.number(bound, context, at).map(Some),
                    None => Some(None),
                };
                let (min, max) = (bound(&count.min)?, bound(&count.max)?);
                let within = |found: i64| min.is_none_or(|min| found >= min) && max.is_none_or(|max| found <= max);
                self.find_count(&count.find, context, at, within)
            }
            NumberNode::At(position, number) => self.number(number, context, self.position(position, context, at)?),
            NumberNode::GameNumber => i64::try_from(context.game.number).ok(),
            NumberNode::LastGameNumber => i64::try_from(context.game.last_number).ok().filter(|&last| last > 0),
            NumberNode::PositionId => Self::position_id(context, at),
            NumberNode::Depth => Some(i64::from(context.frames[at].depth)),
            NumberNode::Echo(node) => self.echo(node, context, at).flatten(),
            NumberNode::Dash(node) => match &node.target {
                _ if node.when == DashWhen::Count => Some(self.dash_count(node, context, at)),
                Some(DashTarget::Number(number)) => {
                    let mut value = None;
                    self.dash_find(node, context, at, |after| {
                        value = self.number(number, context, after);
                        value.is_some()
                    });
                    value
                }
                _ => None,
            },
            NumberNode::MoveCount(node) => Some(self.move_count(node, context, at)),
            NumberNode::Unmapped(number) => self.number(number, context, at),
            NumberNode::Sorted { key, smallest, value } => {
                let mark = context.state.notes_len();
                let Some(value) = self.number(value, context, at) else {
                    context.state.truncate_notes(mark);
                    return None;
                };
                context.state.record_sort((*key, *smallest), SortValue::Number(value), mark);
                Some(value)
            }
            NumberNode::Distance(first, second) => {
                // The plies from each back to where their lines part, as CQL 6.2 counts them.
                let first = self.position(first, context, at)?;
                let second = self.position(second, context, at)?;
                let ply = |frame: usize| context.frames[frame].ply;
                let meeting = ply(context.lca(first, second)?);
                Some(i64::from(ply(first) - meeting + ply(second) - meeting))
            }
            NumberNode::ConsecutiveMoves { positions, min, max, notes } => {
                let first = self.position(&positions.0, context, at)?;
                let second = self.position(&positions.1, context, at)?;
                let pairs = context.shared_moves(first, second);
                let length = pairs.len() as i64;
                if length == 0 || length < *min || max.is_some_and(|max| length > max) {
                    return None;
                }
                if let Some(notes) = notes {
                    let names = (notes.names.0.as_str(), notes.names.1.as_str());
                    context.state.record_shared_moves(notes.key, &pairs, names);
                }
                Some(length)
            }
            NumberNode::Compared(op, left, right) => {
                let (left, right) = (self.number(left, context, at)?, self.number(right, context, at)?);
                compare(*op, left, right).then_some(left)
            }
            NumberNode::Line(line) => self.line_match(line, context, at).map(|run| run.length as i64),
            NumberNode::Path(path) => {
                self.path_match(path, context, at).map(|found| found.max.unwrap_or(i64::from(found.count)))
            }
            NumberNode::PathCount { inside } => {
                let count = match context.state.path_status(*inside) {
                    Some(status) => status.count,
                    None => context.state.earlier_path(*inside)?.count,
                };
                (*inside || count > 0).then_some(i64::from(count))
            }
            NumberNode::Block(block) => {
                let matched = block.before.iter().all(|filter| self.filter(filter, context, at));
                if matched { self.number(&block.last, context, at) } else { None }
            }
            NumberNode::TextLength(_)
            | NumberNode::TextToInt(_)
            | NumberNode::Code(_)
            | NumberNode::IndexOf(_)
            | NumberNode::GroupStart(_) => self.text_number(node, context, at),
        }
    }

    /// The material value of the pieces of a set, on the board and in the backhand.
    fn power(&self, set: &SetValue<W>, view: &impl PositionView<W>) -> i64 {
        let mut total = 0;
        for (index, value) in self.values.iter().enumerate().filter(|(_, value)| **value != 0) {
            let kind = Kind::new(index as u8);
            total += value * (view.kind(kind) & set.squares).count() as i64;
            for color in Color::ALL {
                if set.backhand[color.index()].contains(kind) {
                    total += value * i64::from(view.in_backhand(Piece { kind, color }));
                }
            }
        }
        total
    }

    /// The squares of a set: `self.set(node, ..).squares`, without the backhand's part. Plain
    /// squares and pieces, the commonest sets, are found where they are asked for.
    #[inline(always)]
    pub(super) fn squares<P: RulesView<W>>(
        &self,
        node: &SetNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> SquareSet<W> {
        match node {
            SetNode::Squares { squares, .. } => *squares,
            SetNode::Pieces { classes, empty, squares, .. } => {
                self.on_board(classes, *empty, &context.frames[at].position) & *squares
            }
            SetNode::Move(node) => self.moves(node, context, at),
            SetNode::Rules(set) => context.frames[at].position.rules_set(*set),
            SetNode::MateShape(node) => node.participants(&context.frames[at].position, &self.masks),
            SetNode::Marked(mark) => context.frames[at].position.marked(*mark),
            _ => self.composite_squares(node, context, at),
        }
    }

    /// [`Program::squares`] of the sets made of others, and of those found by the rules.
    fn composite_squares<P: RulesView<W>>(
        &self,
        node: &SetNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> SquareSet<W> {
        let view = &context.frames[at].position;
        match node {
            // Plain squares, pieces and moves are the wrapper's.
            SetNode::Union(left, right) => self.squares(left, context, at) | self.squares(right, context, at),
            SetNode::Intersection(left, right) => self.squares(left, context, at) & self.squares(right, context, at),
            SetNode::SameContents(positions) => {
                // As in CQL 6.2, the second is not looked for where the first is not found.
                let Some(first) = self.position(&positions.0, context, at) else { return SquareSet::EMPTY };
                let Some(second) = self.position(&positions.1, context, at) else { return SquareSet::EMPTY };
                let (first, second) = (&context.frames[first].position, &context.frames[second].position);
                let mut differ = SquareSet::EMPTY;
                for color in Color::ALL {
                    differ |= first.color(color) ^ second.color(color);
                }
                for kind in first.variant().all_kinds().iter() {
                    differ |= first.kind(kind) ^ second.kind(kind);
                }
                self.masks.complement(differ)
            }
            SetNode::Complement { set, .. } => self.masks.complement(self.squares(set, context, at)),
            SetNode::Shade { light, set } => self.shade(*light) & self.squares(set, context, at),
            SetNode::Direction { steps, range, set } => {
                let (min, max) = match range {
                    StepRange::Fixed(min, max) => (*min, *max),
                    StepRange::Valued(bounds) => match self.step_bounds(&bounds.0, &bounds.1, context, at) {
                        Some(bounds) => bounds,
                        None => return SquareSet::EMPTY,
                    },
                };
                self.direction(steps, min, max, self.squares(set, context, at))
            }
            SetNode::SquareNamed(name) => {
                let name = self.text(name, context, at);
                let square = name.and_then(|name| self.masks.geometry().parse_square(&name).ok());
                square.map_or(SquareSet::EMPTY, |square| SquareSet::EMPTY.with(square))
            }
            SetNode::MakeSquare(file, rank) => {
                let coordinate = |number: &NumberNode<W>| {
                    self.number(number, context, at).and_then(|value| i32::try_from(value - 1).ok())
                };
                // The rank is not looked at when the file has no value, as in CQL 6.2 (its
                // comments are not made).
                let square = coordinate(file)
                    .and_then(|file| coordinate(rank).map(|rank| (file, rank)))
                    .and_then(|(file, rank)| self.masks.geometry().square_at(file, rank));
                square.map_or(SquareSet::EMPTY, |square| SquareSet::EMPTY.with(square))
            }
            SetNode::Attacks { attackers, targets, side } => {
                let attackers = self.squares(attackers, context, at) & view.occupied();
                let targets = self.squares(targets, context, at);
                let mut found = SquareSet::EMPTY;
                for square in attackers.iter() {
                    let attacked = view.attacks_from(square) & targets;
                    match side {
                        AttackSide::Targets => found |= attacked,
                        AttackSide::Attackers if !attacked.is_empty() => {
                            found.add(square);
                        }
                        AttackSide::Attackers => {}
                    }
                }
                found
            }
            SetNode::Between(first, second) => {
                let second = self.squares(second, context, at);
                let mut between = SquareSet::EMPTY;
                for a in self.squares(first, context, at).iter() {
                    for b in second.iter() {
                        between |= self.masks.between(a, b);
                    }
                }
                between
            }
            SetNode::Ray { steps, sets } => self.ray(steps, sets, context, at),
            SetNode::XRay(node) => self.xray(node, context, at),
            SetNode::Pin { from, through, to, value, eager, plain_through } => {
                // Most positions have no pin at all: the pinners and the pinned are looked for
                // once one is found, unless they are plain pieces or squares. A pinned piece
                // shields a piece of its own side: a side with none of its pieces on `through`
                // shields nothing.
                let (mut pinners, mut pinnable) = (None, None);
                if *eager {
                    // As CQL 6.2 works them out: from, through, to.
                    pinners = Some(self.squares(from, context, at));
                    pinnable = Some(self.squares(through, context, at));
                }
                let mut shielded = self.squares(to, context, at);
                if *plain_through {
                    let through = match pinnable {
                        Some(through) => through,
                        None => *pinnable.insert(self.squares(through, context, at)),
                    };
                    for color in Color::ALL {
                        let side = view.color(color);
                        if (through & side).is_empty() {
                            shielded -= side;
                        }
                    }
                }
                if shielded.is_empty() {
                    return SquareSet::EMPTY;
                }
                let mut found = SquareSet::EMPTY;
                view.pins(shielded, &mut |pinner, piece, target| {
                    if pinners.get_or_insert_with(|| self.squares(from, context, at)).contains(pinner)
                        && pinnable.get_or_insert_with(|| self.squares(through, context, at)).contains(piece)
                    {
                        found.add(match value {
                            PinPart::From => pinner,
                            PinPart::Through => piece,
                            PinPart::To => target,
                        });
                    }
                });
                found
            }
            SetNode::Loop(node) => self.loop_squares(node, context, at),
            _ => self.set(node, context, at).squares,
        }
    }

    /// The light or the dark squares of the board.
    fn shade(&self, light: bool) -> SquareSet<W> {
        if light { self.masks.light() } else { self.masks.dark() }
    }

    /// The squares holding pieces of the classes (and the empty squares, with `empty`).
    #[inline]
    fn on_board(&self, classes: &[PieceClass], empty: bool, view: &impl PositionView<W>) -> SquareSet<W> {
        // Most sets are pieces of one class (`N`, `[Qq]` is two): no loop.
        if let ([class], false) = (classes, empty)
            && class.level.is_none()
        {
            return view.pieces(class.color, class.kinds);
        }
        let mut on_board = if empty { self.masks.complement(view.occupied()) } else { SquareSet::EMPTY };
        for class in classes {
            let mut pieces = view.pieces(class.color, class.kinds);
            if let Some(level) = class.level {
                pieces &= view.with_level(level);
            }
            on_board |= pieces;
        }
        on_board
    }

    pub(crate) fn set<P: RulesView<W>>(
        &self,
        node: &SetNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> SetValue<W> {
        let view = &context.frames[at].position;
        match node {
            SetNode::Squares { squares, backhand } => SetValue {
                squares: *squares,
                backhand: Color::ALL.map(|color| {
                    let kinds = backhand[color.index()];
                    if kinds.is_empty() { kinds } else { kinds.intersection(view.backhand_kinds(color)) }
                }),
            },
            SetNode::Pieces { classes, empty, squares, backhand } => {
                let on_board = self.on_board(classes, *empty, view);
                let mut in_backhand = [KindSet::EMPTY; 2];
                for class in classes {
                    if *backhand && class.level.is_none() {
                        let held = class.kinds.intersection(view.backhand_kinds(class.color));
                        in_backhand[class.color.index()] = in_backhand[class.color.index()].union(held);
                    }
                }
                SetValue { squares: on_board & *squares, backhand: in_backhand }
            }
            SetNode::Union(left, right) => union(self.set(left, context, at), self.set(right, context, at)),
            SetNode::Orbit(sets) => {
                sets.iter().map(|set| self.set(set, context, at)).fold(SetValue::board(SquareSet::EMPTY), union)
            }
            SetNode::Intersection(left, right) => {
                let left = self.set(left, context, at);
                let right = self.set(right, context, at);
                SetValue {
                    squares: left.squares & right.squares,
                    backhand: [0, 1].map(|c| left.backhand[c].intersection(right.backhand[c])),
                }
            }
            SetNode::Complement { set, backhand } => {
                let inner = self.set(set, context, at);
                let others = |color: Color| {
                    if *backhand {
                        view.backhand_kinds(color).difference(inner.backhand[color.index()])
                    } else {
                        KindSet::EMPTY
                    }
                };
                SetValue { squares: self.masks.complement(inner.squares), backhand: Color::ALL.map(others) }
            }
            SetNode::Shade { light, set } => SetValue::board(self.shade(*light) & self.squares(set, context, at)),
            SetNode::Direction { .. }
            | SetNode::SameContents(..)
            | SetNode::MakeSquare(..)
            | SetNode::SquareNamed(..)
            | SetNode::Attacks { .. }
            | SetNode::Between(..)
            | SetNode::Ray { .. }
            | SetNode::XRay(..)
            | SetNode::Pin { .. }
            | SetNode::Move(..)
            | SetNode::Rules(..)
            | SetNode::MateShape(..)
            | SetNode::Marked(..)
            | SetNode::Loop(..) => SetValue::board(self.squares(node, context, at)),
            SetNode::Variable(slot) => self.set_variable(*slot, context, at),
            SetNode::Entry(entry) => match self.entry(entry, context, at) {
                Some(Value::Set(set)) => set,
                _ => SetValue::board(SquareSet::EMPTY),
            },
            SetNode::If(conditional) => match self.choose(conditional, context, at) {
                Some(chosen) => self.set(chosen, context, at),
                None => SetValue::board(SquareSet::EMPTY),
            },
            SetNode::Unmapped(set) => self.set(set, context, at),
            SetNode::Dash(node) => match (self.dash_target(node, context, at), &node.target) {
                (Some(after), Some(DashTarget::Set(set))) => self.set(set, context, after),
                _ => SetValue::board(SquareSet::EMPTY),
            },
            SetNode::Block(block) => {
                if block.before.iter().all(|filter| self.filter(filter, context, at)) {
                    self.set(&block.last, context, at)
                } else {
                    SetValue::board(SquareSet::EMPTY)
                }
            }
            SetNode::At(position, set) => match self.position(position, context, at) {
                Some(there) => self.set(set, context, there),
                None => SetValue::board(SquareSet::EMPTY),
            },
        }
    }

    /// A number about the one square of `squares`; none unless it holds exactly one.
    fn square_number<P: RulesView<W>>(&self, what: SquareNumber, squares: SquareSet<W>, view: &P) -> Option<i64> {
        let mut iter = squares.iter();
        let (Some(square), None) = (iter.next(), iter.next()) else { return None };
        let geometry = self.masks.geometry();
        let kind_number = || {
            let variant = view.variant();
            (0..variant.kinds())
                .find(|&index| view.kind(Kind::new(index as u8)).contains(square))
                .map_or(0, |index| index as i64 + 1)
        };
        Some(match what {
            SquareNumber::Rank => i64::from(geometry.rank_of(square).index()) + 1,
            SquareNumber::File => i64::from(geometry.file_of(square).index()) + 1,
            SquareNumber::Type => kind_number(),
            SquareNumber::ColorType if view.color(Color::Black).contains(square) => -kind_number(),
            SquareNumber::ColorType => kind_number(),
        })
    }

    /// The squares `min` to `max` steps from a square of `from` along one of `steps`.
    fn direction(&self, steps: &[(i32, i32)], min: i32, max: Option<i32>, from: SquareSet<W>) -> SquareSet<W> {
        let geometry = self.masks.geometry();
        // No range reaches the edge; a range reaches no further than the longest line.
        let longest = i32::from(geometry.longest_step());
        let max = max.unwrap_or(longest).min(longest);
        let mut reached = SquareSet::EMPTY;
        for start in from.iter() {
            let (file, rank) = self.masks.place(start);
            for &(files, ranks) in steps {
                for step in min.max(-longest)..=max {
                    if let Some(square) = geometry.square_at(file + files * step, rank + ranks * step) {
                        reached.add(square);
                    }
                }
            }
        }
        reached
    }

    /// The bounds of a direction's range in this position: none where a bound has no value or
    /// either reaches beyond the board, which stops the run, as in CQL 6.2.
    fn step_bounds<P: RulesView<W>>(
        &self,
        min: &NumberNode<W>,
        max: &NumberNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<(i32, Option<i32>)> {
        let geometry = self.masks.geometry();
        let longest = i64::from(geometry.longest_step());
        let (Some(low), Some(high)) = (self.number(min, context, at), self.number(max, context, at)) else {
            context.state.refuse("a direction's range uses a variable that has no value");
            return None;
        };
        if low.abs() > longest || high.abs() > longest || low > high {
            context.state.refuse(&format!(
                "a direction's range {low} {high} is not within -{longest} to {longest}, smaller first"
            ));
            return None;
        }
        Some((i32::try_from(low).ok()?, Some(i32::try_from(high).ok()?)))
    }

    /// The last squares of the rays through the sets: a square of each set in turn along one
    /// line, only empty squares between consecutive ones.
    ///
    /// Along each line from a square of the first set, the squares are walked once, keeping every
    /// stage a ray may have reached: a square of the next set may end the stage (whether it is
    /// empty or not), and an empty square lets each stage go on. So `ray (a1 [a2,a3] a4)` is found
    /// through a3 when a2 is empty and a3 is not, and `ray (a1 [a3,a5])` ends on both squares
    /// when the file is empty.
    fn ray<P: RulesView<W>>(
        &self,
        steps: &[(i32, i32)],
        sets: &[SetNode<W>],
        context: &Context<'_, P, W>,
        at: usize,
    ) -> SquareSet<W> {
        let occupied = context.frames[at].position.occupied();
        let geometry = self.masks.geometry();
        let sets: Vec<SquareSet<W>> = sets.iter().map(|set| self.squares(set, context, at)).collect();
        let Some((first, rest)) = sets.split_first() else { return SquareSet::EMPTY };
        if rest.is_empty() {
            return SquareSet::EMPTY;
        }
        let mut ends = SquareSet::EMPTY;
        // reached[k]: a ray through the first set and the k sets after it is open at this square.
        let mut reached = vec![false; rest.len()];
        let mut next = vec![false; rest.len()];
        for start in first.iter() {
            let (start_file, start_rank) = self.masks.place(start);
            for &(file_step, rank_step) in steps {
                reached.fill(false);
                reached[0] = true;
                let (mut file, mut rank) = (start_file, start_rank);
                loop {
                    file += file_step;
                    rank += rank_step;
                    let Some(square) = geometry.square_at(file, rank) else { break };
                    let empty = !occupied.contains(square);
                    next.fill(false);
                    for (stage, _) in reached.iter().enumerate().filter(|(_, open)| **open) {
                        if rest[stage].contains(square) {
                            match next.get_mut(stage + 1) {
                                Some(later) => *later = true,
                                None => ends = ends.with(square),
                            }
                        }
                        if empty {
                            next[stage] = true;
                        }
                    }
                    std::mem::swap(&mut reached, &mut next);
                    if !reached.contains(&true) {
                        break;
                    }
                }
            }
        }
        ends
    }

    /// The from-squares (with `to`, the to-squares) of the moves that fit.
    fn moves<P: RulesView<W>>(&self, node: &MoveNode<W>, context: &Context<'_, P, W>, at: usize) -> SquareSet<W> {
        let mut value = SquareSet::EMPTY;
        // The positions the moves that fit lead to, where the comment goes.
        let mut targets: Vec<usize> = Vec::new();
        self.each_fitting_move(node, context, at, &mut |m, captured, after| {
            if node.comment.is_some() && targets.last() != Some(&after) {
                targets.push(after);
            }
            value = value.with(node.square_of(m));
            if node.castling_rook
                && m.castle().is_some()
                && let Some(rook) = self.castling_rook(node.value == MoveSquare::From, m, context, after)
            {
                value = value.with(rook);
            }
            if node.value == MoveSquare::Capture {
                value |= captured;
            }
        });
        if let Some(comment) = &node.comment {
            for target in targets {
                self.filter(comment, context, target);
            }
        }
        value
    }

    /// The square a castling's rook leaves (with `from`) or lands on: beside the king's
    /// square, on the centre's side. It leaves the square of its side the move emptied, or
    /// the one the king lands on (where it is not the square it lands on itself).
    fn castling_rook<P: RulesView<W>>(
        &self,
        from: bool,
        m: MoveFacts,
        context: &Context<'_, P, W>,
        after: usize,
    ) -> Option<Square> {
        let (file, rank) = self.masks.place(m.to());
        let toward_centre = if m.castle()? == Wing::King { -1 } else { 1 };
        let lands = self.masks.geometry().square_at(file + toward_centre, rank)?;
        if !from {
            return Some(lands);
        }
        let color = m.mover().color;
        let before = context.frames[context.parent(after)?].position.color(color);
        let now = context.frames[after].position.color(color);
        let emptied = before - now - SquareSet::from_square(m.from()?);
        Some(emptied.first().unwrap_or(if before.contains(m.to()) { m.to() } else { lands }))
    }

    /// How many moves fit, those between the same two squares (a promotion's choices) counted
    /// once, as CQL 6.2 counts them.
    fn move_count<P: RulesView<W>>(&self, node: &MoveNode<W>, context: &Context<'_, P, W>, at: usize) -> i64 {
        let mut pairs: Vec<(Option<Square>, Square)> = Vec::new();
        self.each_fitting_move(node, context, at, &mut |m, _, _| {
            if !pairs.contains(&(m.from(), m.to())) {
                pairs.push((m.from(), m.to()));
            }
        });
        pairs.len() as i64
    }

    /// Whether a move made fits a filter of moves played or of the previous move whose sets
    /// the move alone decides and that comments on nothing: a move played in the position
    /// `at` (into the main line or a variation), or the move that led to it. The filter's
    /// value is then not empty.
    pub(super) fn some_move_made_fits<P: RulesView<W>>(
        &self,
        node: &MoveNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> bool {
        if node.when == MoveWhen::Previous {
            return context.move_before(at, node.branch).is_some_and(|previous| self.fits_by_facts(node, previous));
        }
        context.moves_played(at, node.branch).any(|(played, _)| self.fits_by_facts(node, played))
    }

    /// Calls `visit` with each move that fits the filter, the squares it captured on, and the
    /// frame of the position it leads to (for a move not played, the next position's, or this
    /// one's at the end of the line).
    fn each_fitting_move<P: RulesView<W>>(
        &self,
        node: &MoveNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
        visit: &mut dyn FnMut(MoveFacts, SquareSet<W>, usize),
    ) {
        let frame = &context.frames[at];
        match node.when {
            MoveWhen::Previous => {
                // The move was made in the position before this one.
                let Some(previous) = context.move_before(at, node.branch) else { return };
                if node.by_facts {
                    if self.fits_by_facts(node, previous) {
                        visit(previous, SquareSet::EMPTY, at);
                    }
                    return;
                }
                let Some(parent) = context.parent(at) else { return };
                let listed = Listed { removed: frame.removed, ..Listed::default() };
                self.fitting(node, std::slice::from_ref(&previous), context, parent, listed, &mut |m, captured| {
                    visit(m, captured, at);
                });
            }
            MoveWhen::Played => {
                // The moves that led to the next positions (in variations too) were made here.
                for (played, after) in context.moves_played(at, node.branch) {
                    if node.by_facts {
                        if self.fits_by_facts(node, played) {
                            visit(played, SquareSet::EMPTY, after);
                        }
                        continue;
                    }
                    let listed = Listed { removed: context.frames[after].removed, ..Listed::default() };
                    self.fitting(node, std::slice::from_ref(&played), context, at, listed, &mut |m, captured| {
                        visit(m, captured, after);
                    });
                }
            }
            MoveWhen::Legal | MoveWhen::PseudoLegal => {
                // Only the moves between the squares asked for are listed, into the thread's
                // list, taken while in use (a set inside may list moves too).
                let from = node.from.as_ref().map(|set| self.squares(set, context, at));
                let to = node.to.as_ref().map(|set| self.squares(set, context, at));
                let mut legal = MOVE_LISTS.with(|lists| lists.borrow_mut().pop()).unwrap_or_default();
                legal.clear();
                frame.position.moves_within(node.when == MoveWhen::PseudoLegal, from, to, &mut legal);
                let after = context.main_child(at).unwrap_or(at);
                self.fitting(node, &legal, context, at, Listed { from, to, removed: SquareSet::EMPTY }, &mut |m, c| {
                    visit(m, c, after);
                });
                MOVE_LISTS.with(|lists| lists.borrow_mut().push(legal));
            }
        }
    }

    /// Calls `visit` with each of the moves, made in the position `reference`, that fit the
    /// filter, and the squares it captured on; `listed` holds the filter's from and to sets
    /// where they are already known, and the squares of the pieces the move removed besides
    /// its capture (which count as captured).
    fn fitting<P: RulesView<W>>(
        &self,
        node: &MoveNode<W>,
        moves: &[MoveFacts],
        context: &Context<'_, P, W>,
        reference: usize,
        listed: Listed<W>,
        visit: &mut dyn FnMut(MoveFacts, SquareSet<W>),
    ) {
        // The sets are worked out when a move first needs them (most moves fail sooner), and
        // kept, in these slots.
        const FROM: usize = 0;
        const TO: usize = 1;
        const CAPTURE: usize = 2;
        const EN_PASSANT: usize = 3;
        let mut sets = [listed.from, listed.to, None, None];
        let mut squares_of = |slot: usize, set: &SetNode<W>| {
            *sets[slot].get_or_insert_with(|| match set {
                SetNode::Squares { squares, .. } => *squares,
                set => self.squares(set, context, reference),
            })
        };
        if node.eager {
            let parts =
                [(FROM, &node.from), (TO, &node.to), (CAPTURE, &node.capture), (EN_PASSANT, &node.en_passant_square)];
            for (slot, set) in parts {
                if let Some(set) = set {
                    squares_of(slot, set);
                }
            }
        }
        for &m in moves {
            let mut within = |slot: usize, set: &Option<SetNode<W>>, square: Option<Square>| match (set, square) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(set), Some(square)) => squares_of(slot, set).contains(square),
            };
            let fits = node.fits_kind(m)
                && within(TO, &node.to, Some(m.to()))
                && within(FROM, &node.from, m.from())
                && within(EN_PASSANT, &node.en_passant_square, m.capture());
            if !fits {
                continue;
            }
            let captured = match &node.capture {
                None => SquareSet::EMPTY,
                Some(_) if m.capture().is_none() => continue,
                // Every piece the move removed counts as captured.
                Some(set) => {
                    let captured = listed.removed.with(m.capture().expect("a capture")) & squares_of(CAPTURE, set);
                    if captured.is_empty() {
                        continue;
                    }
                    captured
                }
            };
            visit(m, captured);
        }
    }

    /// Whether a move fits a filter whose sets the move alone decides
    /// ([`MoveNode::decided_by_facts`]).
    fn fits_by_facts(&self, node: &MoveNode<W>, m: MoveFacts) -> bool {
        let within = |set: &Option<SetNode<W>>, square: Option<Square>, piece: Option<Piece>| {
            set.as_ref().is_none_or(|set| square.is_some_and(|square| self.holds_by_facts(set, square, piece)))
        };
        node.fits_kind(m)
            && within(&node.to, Some(m.to()), None)
            && within(&node.from, m.from(), Some(m.mover()))
            && within(&node.capture, m.capture(), m.captured())
            && within(&node.en_passant_square, m.capture(), None)
    }

    /// Whether a set that squares and pieces make holds `square`, where `piece` stood before
    /// the move. Plain squares and pieces are looked at where they are asked for.
    #[inline(always)]
    fn holds_by_facts(&self, set: &SetNode<W>, square: Square, piece: Option<Piece>) -> bool {
        match set {
            SetNode::Squares { squares, .. } => squares.contains(square),
            SetNode::Pieces { classes, squares, .. } => {
                squares.contains(square)
                    && piece.is_some_and(|piece| {
                        classes.iter().any(|class| class.color == piece.color && class.kinds.contains(piece.kind))
                    })
            }
            set => self.composite_holds_by_facts(set, square, piece),
        }
    }

    /// [`Program::holds_by_facts`] of the sets made of others.
    fn composite_holds_by_facts(&self, set: &SetNode<W>, square: Square, piece: Option<Piece>) -> bool {
        match set {
            SetNode::Union(left, right) => {
                self.holds_by_facts(left, square, piece) || self.holds_by_facts(right, square, piece)
            }
            SetNode::Intersection(left, right) => {
                self.holds_by_facts(left, square, piece) && self.holds_by_facts(right, square, piece)
            }
            SetNode::Complement { set, .. } => !self.holds_by_facts(set, square, piece),
            SetNode::Shade { light, set } => {
                self.shade(*light).contains(square) && self.holds_by_facts(set, square, piece)
            }
            _ => {
                debug_assert!(false, "only sets the move decides are looked at");
                false
            }
        }
    }
}

/// What [`Program::fitting`] knows before it looks at the moves: the from and to sets where
/// they are known, and the squares of the pieces the move removed besides its capture.
#[derive(Clone, Copy, Default)]
struct Listed<const W: usize> {
    from: Option<SquareSet<W>>,
    to: Option<SquareSet<W>>,
    removed: SquareSet<W>,
}

thread_local! {
    /// Lists of moves kept for [`Program::moves`], so that listing the legal moves of each
    /// position allocates nothing.
    static MOVE_LISTS: std::cell::RefCell<Vec<Vec<MoveFacts>>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn union<const W: usize>(left: SetValue<W>, right: SetValue<W>) -> SetValue<W> {
    SetValue {
        squares: left.squares | right.squares,
        backhand: [0, 1].map(|c| left.backhand[c].union(right.backhand[c])),
    }
}

pub(super) fn compare_texts(op: BinaryOp, left: &str, right: &str) -> bool {
    let order = left.cmp(right);
    match op {
        BinaryOp::Eq => order.is_eq(),
        BinaryOp::Ne => order.is_ne(),
        BinaryOp::Lt => order.is_lt(),
        BinaryOp::Le => order.is_le(),
        BinaryOp::Gt => order.is_gt(),
        BinaryOp::Ge => order.is_ge(),
        _ => unreachable!("compile: {op:?} is no comparison"),
    }
}

pub(super) fn compare(op: BinaryOp, left: i64, right: i64) -> bool {
    match op {
        BinaryOp::Eq => left == right,
        BinaryOp::Ne => left != right,
        BinaryOp::Lt => left < right,
        BinaryOp::Le => left <= right,
        BinaryOp::Gt => left > right,
        BinaryOp::Ge => left >= right,
        _ => unreachable!("compile: {op:?} is no comparison"),
    }
}

/// What the game tests decide about all of the filters (see [`Program::decide`]).
fn decide_all<'a, const W: usize>(filters: impl Iterator<Item = &'a FilterNode<W>>, game: &GameFacts) -> Option<bool> {
    decide_each(filters, game, false)
}

/// What the game tests decide about filters, tested in turn, of which one with the value
/// `decisive` decides them all (`false` for all of them, `true` for any of them). A filter
/// the game tests do not decide is tested at each position before those after it, with what
/// it does there (its comments, its variables): nothing after it decides the filters alone.
fn decide_each<'a, const W: usize>(
    filters: impl Iterator<Item = &'a FilterNode<W>>,
    game: &GameFacts,
    decisive: bool,
) -> Option<bool> {
    for filter in filters {
        match filter.decide(game)? {
            decided if decided == decisive => return Some(decisive),
            _ => {}
        }
    }
    Some(!decisive)
}

impl<const W: usize> FilterNode<W> {
    /// Whether the filter looks at no position.
    fn is_game_level(&self) -> bool {
        match self {
            FilterNode::Constant(_) | FilterNode::Game(_) => true,
            FilterNode::All(filters) | FilterNode::Any(filters) | FilterNode::Orbit { copies: Copies(filters), .. } => {
                filters.iter().all(FilterNode::is_game_level)
            }
            FilterNode::Not(filter) | FilterNode::Memo(filter) => filter.is_game_level(),
            FilterNode::Compare(_, left, right) => left.is_game_level() && right.is_game_level(),
            FilterNode::HasValue(number) => number.is_game_level(),
            _ => false,
        }
    }

    /// The filter's value where the game tests alone decide it.
    fn decide(&self, game: &GameFacts) -> Option<bool> {
        match self {
            FilterNode::Constant(value) => Some(*value),
            FilterNode::Game(slot) => Some(game.values.get(*slot).copied().flatten().is_some()),
            FilterNode::All(filters) => decide_all(filters.iter(), game),
            FilterNode::Any(filters) | FilterNode::Orbit { copies: Copies(filters), .. } => {
                decide_each(filters.iter(), game, true)
            }
            FilterNode::Not(filter) => filter.decide(game).map(|value| !value),
            FilterNode::Memo(filter) => filter.decide(game),
            FilterNode::Compare(op, left, right) if self.is_game_level() => {
                Some(match (left.game_value(game), right.game_value(game)) {
                    (Some(left), Some(right)) => compare(*op, left, right),
                    // CQL 6.2 reads `a != b` as `not a == b`: a side without a value makes it so.
                    _ => *op == BinaryOp::Ne,
                })
            }
            FilterNode::HasValue(number) if number.is_game_level() => Some(number.game_value(game).is_some()),
            _ => None,
        }
    }
}

impl<const W: usize> MoveNode<W> {
    /// Whether, as a filter, it is told by the moves made here (or the one that led here) and
    /// their facts alone, with no comment to make: [`Program::some_move_made_fits`].
    pub(crate) fn told_by_a_move_made(&self) -> bool {
        matches!(self.when, MoveWhen::Played | MoveWhen::Previous) && self.by_facts && self.comment.is_none()
    }

    /// Whether the move alone decides the filter's sets, without the position it was made in:
    /// they are made of squares, and (for the squares it leaves and captures on) of the pieces
    /// that stood there, which the move knows. The square it lands on may hold anything.
    pub(crate) fn decided_by_facts(&self) -> bool {
        self.to.as_ref().is_none_or(|set| set.decided_by_facts(false))
            && self.from.as_ref().is_none_or(|set| set.decided_by_facts(true))
            && self.capture.as_ref().is_none_or(|set| set.decided_by_facts(true))
            && self.en_passant_square.as_ref().is_none_or(|set| matches!(set, SetNode::Squares { .. }))
    }

    /// Whether a move is of the kind the filter asks for: promoting, en passant, castling, a
    /// drop.
    fn fits_kind(&self, m: MoveFacts) -> bool {
        self.promote.as_ref().is_none_or(|classes| {
            // Promotion takes piece kinds whatever their colour, as in CQL 6.2.
            m.promotion().is_some_and(|kind| classes.iter().any(|class| class.kinds.contains(kind)))
        }) && (!self.en_passant || m.is_en_passant())
            && self.castle.is_none_or(|wing| m.castle().is_some() && wing.is_none_or(|wing| m.castle() == Some(wing)))
            && (!self.drop || m.is_drop())
            && (!self.null || m.is_null())
            && m.actions() & self.actions == self.actions
    }

    /// The square a fitting move gives: where it lands when the filter names that, else where
    /// it comes from.
    fn square_of(&self, m: MoveFacts) -> Square {
        match self.value {
            MoveSquare::From => m.from().unwrap_or(m.to()),
            MoveSquare::To => m.to(),
            MoveSquare::Capture => m.capture().unwrap_or(m.to()),
        }
    }
}

impl<const W: usize> SetNode<W> {
    /// Whether the set is made of squares and, with `pieces`, of pieces of some classes (with
    /// no level), so that whether it holds a square is known from the piece that stood there.
    fn decided_by_facts(&self, pieces: bool) -> bool {
        match self {
            SetNode::Squares { .. } => true,
            SetNode::Pieces { classes, empty, .. } => pieces && !*empty && classes.iter().all(|c| c.level.is_none()),
            SetNode::Union(left, right) | SetNode::Intersection(left, right) => {
                left.decided_by_facts(pieces) && right.decided_by_facts(pieces)
            }
            SetNode::Complement { set, .. } | SetNode::Shade { set, .. } => set.decided_by_facts(pieces),
            _ => false,
        }
    }

    /// Whether the set is squares and pieces only, found at once without looking further than
    /// the board.
    pub(super) fn is_plain(&self) -> bool {
        match self {
            SetNode::Squares { .. } | SetNode::Pieces { .. } => true,
            SetNode::Union(left, right) | SetNode::Intersection(left, right) => left.is_plain() && right.is_plain(),
            SetNode::Complement { set, .. } | SetNode::Shade { set, .. } => set.is_plain(),
            _ => false,
        }
    }
}

impl<const W: usize> NumberNode<W> {
    fn is_game_level(&self) -> bool {
        match self {
            NumberNode::Constant(_) | NumberNode::Game(_) => true,
            NumberNode::Negate(value) | NumberNode::Abs(value) | NumberNode::Sqrt(value) => value.is_game_level(),
            NumberNode::Arithmetic(_, left, right) => left.is_game_level() && right.is_game_level(),
            NumberNode::Extreme { args, .. } | NumberNode::OrbitMax(Copies(args)) => {
                args.iter().all(NumberNode::is_game_level)
            }
            _ => false,
        }
    }

    /// The value of a number that looks at no position.
    fn game_value(&self, game: &GameFacts) -> Option<i64> {
        match self {
            NumberNode::Constant(value) => Some(*value),
            NumberNode::Game(slot) => game.values.get(*slot).copied().flatten(),
            NumberNode::Negate(value) => value.game_value(game)?.checked_neg(),
            NumberNode::Abs(value) => value.game_value(game)?.checked_abs(),
            NumberNode::Sqrt(value) => whole_sqrt(value.game_value(game)?),
            NumberNode::Arithmetic(op, left, right) => {
                let (left, right) = (left.game_value(game)?, right.game_value(game)?);
                match op {
                    BinaryOp::Add => left.checked_add(right),
                    BinaryOp::Sub => left.checked_sub(right),
                    BinaryOp::Mul => left.checked_mul(right),
                    BinaryOp::Div => left.checked_div(right),
                    _ => left.checked_rem(right),
                }
            }
            NumberNode::Extreme { max, args } => {
                let values = args.iter().filter_map(|arg| arg.game_value(game));
                if *max { values.max() } else { values.min() }
            }
            NumberNode::OrbitMax(copies) => copies.iter().filter_map(|copy| copy.game_value(game)).max(),
            _ => None,
        }
    }
}

/// The whole square root of a number (`sqrt 10` is 3); a negative number has none.
fn whole_sqrt(value: i64) -> Option<i64> {
    u64::try_from(value).ok().map(|value| value.isqrt() as i64)
}

/// `max(...)` or `min(...)` of the values of `args`, evaluated in order (none when none has a
/// value). The comments an argument makes stay only while its value is the best so far, as in
/// CQL 6.2: a better value forgets those of the arguments before it, a worse one its own, an
/// equal one keeps both, and an argument with no value keeps its own.
pub(super) fn extreme<T: Ord, const W: usize>(
    max: bool,
    args: impl Iterator<Item = impl FnOnce() -> Option<T>>,
    state: &State<W>,
) -> Option<T> {
    let first = state.notes_len();
    let mut best: Option<T> = None;
    for arg in args {
        let before = state.notes_len();
        let Some(value) = arg() else { continue };
        match &best {
            None => best = Some(value),
            Some(so_far) if (value > *so_far) == max && value != *so_far => {
                state.forget_notes(first..before);
                best = Some(value);
            }
            Some(so_far) if value != *so_far => state.truncate_notes(before),
            Some(_) => {}
        }
    }
    best
}
