//! The syntax tree of a query. Every node carries the byte range of the text it was read from.
//!
//! The tree says what was written, not what it means: a piece letter stays a letter until the
//! query is compiled for a variant, where `A` may be a Pyramid or the class of all white pieces.

use std::fmt;
use std::sync::Arc;

use super::similar::SimilarGames;

/// A byte range of the query text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The range `start..end`.
    #[must_use]
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest range covering both.
    #[must_use]
    pub fn join(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    /// The text of the range.
    #[must_use]
    pub fn text(self, source: &str) -> &str {
        source.get(self.start..self.end).unwrap_or("")
    }
}

/// A parsed query: the optional `cql(...)` header and the body's filters, all of which must match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryAst {
    /// The header, if the query has one.
    pub header: Option<Header>,
    /// The filters of the body.
    pub body: Vec<Expr>,
    /// `cql_assertvariations "T"`: the query is meant for games searched with their
    /// variations, and stops with T otherwise.
    pub asserted_variations: Option<String>,
}

/// The `cql(...)` header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// `input F`: the files to search.
    pub input: Option<String>,
    /// `output F`: where matching games go.
    pub output: Option<String>,
    /// `matchcount N [M]`: how many positions must match, from N to M (exactly N when M is not
    /// given, as in CQL 6.2).
    pub matchcount: Option<(u64, Option<u64>)>,
    /// `gamenumber N [M]`: the games to look at.
    pub gamenumber: Option<(u64, Option<u64>)>,
    /// `result R`: only games with this result.
    pub result: Option<String>,
    /// `variations`: search the positions of variations too.
    pub variations: bool,
    /// `matchstring "text"`: the comment marking matched positions.
    pub matchstring: Option<String>,
    /// `variant "name"`: the variant of the positions.
    pub variant: Option<(String, Span)>,
    /// `sort [min|max] "label" EXPR`: order games by a value.
    pub sort: Option<Sort>,
    /// `sort matchcount N M`: games with N to M matching positions, the most first.
    pub sort_matchcount: bool,
    /// `quiet`: no marks on the matching positions, and no comments but the query's own.
    pub quiet: bool,
    /// `silent`: no comments at all.
    pub silent: bool,
    /// Where the header is.
    pub span: Span,
}

/// The `sort` parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sort {
    /// Smallest first instead of largest first.
    pub min: bool,
    /// The label written into the output.
    pub label: Option<String>,
    /// The value to sort by.
    pub expr: Expr,
}

/// An expression: a filter, a set or a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

impl Expr {
    /// The expressions directly inside this one, in the order written.
    #[must_use]
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Number(_)
            | ExprKind::Squares(_)
            | ExprKind::Pieces(_)
            | ExprKind::Word(_)
            | ExprKind::MateShape { .. }
            | ExprKind::Fen(..)
            | ExprKind::Game(_)
            | ExprKind::Variable { .. }
            | ExprKind::FamilyWord(_)
            | ExprKind::PathWord(_)
            | ExprKind::Position(_)
            | ExprKind::Text(_)
            | ExprKind::Tag(_)
            | ExprKind::RegexGroup { .. }
            | ExprKind::IsBound { .. }
            | ExprKind::Unbind(_)
            | ExprKind::CurrentFen
            | ExprKind::OriginalComment
            | ExprKind::Glyph(_)
            | ExprKind::RemoveComment
            | ExprKind::SimilarPosition { .. }
            | ExprKind::Abort => Vec::new(),
            ExprKind::Assert(filter) => vec![filter],
            ExprKind::SetTag(_, value) => vec![value],
            ExprKind::Dictionary { op, .. } => match op {
                DictionaryOp::Declare | DictionaryOp::Count | DictionaryOp::Forget(None) => Vec::new(),
                DictionaryOp::Entry { key, .. } | DictionaryOp::Forget(Some(key)) => vec![key],
                DictionaryOp::Store { key, value } => vec![key, value],
                DictionaryOp::Walk { body, .. } => vec![body],
            },
            ExprKind::TextFunction { arg: operand, .. }
            | ExprKind::RegexMatch { text: operand, .. }
            | ExprKind::PieceName(operand)
            | ExprKind::SquareNamed(operand)
            | ExprKind::NoTransform(operand) => vec![operand],
            ExprKind::Substring { text, start, end, .. } => {
                std::iter::once(&**text).chain(start.as_deref()).chain(end.as_deref()).collect()
            }
            ExprKind::Unary(_, operand)
            | ExprKind::Shade { set: operand, .. }
            | ExprKind::SquareNumber { set: operand, .. }
            | ExprKind::Power(operand)
            | ExprKind::PieceId(operand)
            | ExprKind::TypeName(operand)
            | ExprKind::Assign { value: operand, .. } => vec![operand],
            ExprKind::If { condition, then, otherwise } => {
                let mut children = vec![&**condition, &**then];
                children.extend(otherwise.as_deref());
                children
            }
            ExprKind::Loop { set, body, .. } => vec![set, body],
            ExprKind::Sort { value, .. } => vec![value],
            ExprKind::Repeat { test, body } => {
                test.iter().map(|test| &**test).chain(std::iter::once(&**body)).collect()
            }
            ExprKind::Dash { from, to, promote, target, .. } => boxed([from, to, promote, target]),
            ExprKind::Find { bounds, body, .. }
            | ExprKind::Transform { bounds, body, .. }
            | ExprKind::Direction { bounds, set: body, .. } => bounds.iter().chain(std::iter::once(&**body)).collect(),
            ExprKind::Echo { body, .. } => vec![body],
            ExprKind::Comment { parts, .. } | ExprKind::Str(parts) => parts
                .iter()
                .filter_map(|part| match part {
                    TextPart::Value(expr) => Some(expr),
                    TextPart::Text(_) => None,
                })
                .collect(),
            ExprKind::Lca(first, second) => vec![first, second],
            ExprKind::Descends { ancestor, descendant, .. } => vec![ancestor, descendant],
            ExprKind::NumberedPosition(number) | ExprKind::NumberedChild(number) => vec![number],
            ExprKind::At { position, body } => vec![position, body],
            ExprKind::Binary(_, left, right)
            | ExprKind::Between(left, right)
            | ExprKind::IndexOf(left, right)
            | ExprKind::WriteFile(left, right)
            | ExprKind::MakeSquare(left, right)
            | ExprKind::Distance(left, right)
            | ExprKind::Equal(left, right) => {
                vec![left, right]
            }
            ExprKind::ConsecutiveMoves { positions, .. } => vec![&positions.0, &positions.1],
            ExprKind::Attacks { attackers, targets, .. } => vec![attackers, targets],
            ExprKind::Extreme { args, .. }
            | ExprKind::Block(args)
            | ExprKind::Ray { sets: args, .. }
            | ExprKind::Arrows { sets: args, .. }
            | ExprKind::XRay(args) => args.iter().collect(),
            ExprKind::Pin { from, through, to, .. } => boxed([from, through, to]),
            ExprKind::Move(filter) => boxed([
                &filter.from,
                &filter.to,
                &filter.capture,
                &filter.promote,
                &filter.en_passant_square,
                &filter.comment,
            ]),
            ExprKind::Line { constituents, .. } => constituents.iter().flat_map(Constituent::filters).collect(),
            ExprKind::Path(path) => path.exprs(),
        }
    }

    /// Whether this expression or one inside it satisfies the test.
    pub fn any(&self, test: &impl Fn(&Expr) -> bool) -> bool {
        test(self) || self.children().into_iter().any(|child| child.any(test))
    }

    /// Whether this expression or one inside it reads a file (`readfile`).
    #[must_use]
    pub fn reads_file(&self) -> bool {
        self.any(&|expr| matches!(expr.kind, ExprKind::TextFunction { function: TextFunction::ReadFile, .. }))
    }

    /// The operands of the chain of `op` this expression heads, in the order written, however
    /// the chain is grouped: `a and b and c` gives `a`, `b` and `c`. An expression that is not
    /// `op` gives itself.
    #[must_use]
    pub fn operands(&self, op: BinaryOp) -> Vec<&Expr> {
        let mut operands = Vec::new();
        let mut pending = vec![self];
        while let Some(expr) = pending.pop() {
            match &expr.kind {
                ExprKind::Binary(inner, left, right) if *inner == op => {
                    pending.push(right);
                    pending.push(left);
                }
                _ => operands.push(expr),
            }
        }
        operands
    }
}

/// The expressions present among optional parts.
fn boxed<const N: usize>(parts: [&Option<Box<Expr>>; N]) -> Vec<&Expr> {
    parts.into_iter().flatten().map(|expr| &**expr).collect()
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// An integer.
    Number(i64),
    /// A square designator on its own.
    Squares(SquareDesignator),
    /// A piece designator.
    Pieces(PieceDesignator),
    /// An operator applied to one operand.
    Unary(UnaryOp, Box<Expr>),
    /// An operator between two operands.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `min(...)` or `max(...)`.
    Extreme {
        /// `max` rather than `min`.
        max: bool,
        /// The values.
        args: Vec<Expr>,
    },
    /// `{ ... }`: filters that must all match.
    Block(Vec<Expr>),
    /// A word about the position: `wtm`, `check`, `ply`, ...
    Word(Word),
    /// `S attacks T`: the squares of S whose piece attacks a square of T; `T attackedby S`: the
    /// squares of T attacked from S.
    Attacks {
        /// Where the attackers stand.
        attackers: Box<Expr>,
        /// The squares attacked.
        targets: Box<Expr>,
        /// Which of the two the value is.
        side: AttackSide,
    },
    /// `A -> B` (attackers, as `attacks`), `A <- B` (targets, as `attackedby`), and the chains of
    /// three sets or more: a queen, rook or bishop on the first set of a `->` chain sees through
    /// a piece on each middle set to the last set (`<-` chains run the other way). A chain's
    /// value is its first set's squares.
    Arrows {
        /// `->` rather than `<-`.
        forward: bool,
        /// The sets, as written.
        sets: Vec<Expr>,
    },
    /// `xray (A B ... Z)`: as the chain `A -> B -> ... -> Z`, but its value is Z's squares.
    XRay(Vec<Expr>),
    /// `distance(P Q)`: how many plies lie between two positions, through where their lines
    /// meet.
    Distance(Box<Expr>, Box<Expr>),
    /// `equal(X Y)`: whether two filters give the same value, as CQL 6.2 compares them: a
    /// filter that is no value gives whether it matched, a value that is not there counts as
    /// not matched, and values of two kinds differ.
    Equal(Box<Expr>, Box<Expr>),
    /// `consecutivemoves [N [M]] (x y)`: how many moves in a row the lines from the last
    /// position of both to the positions of two variables have in common; none when one
    /// position lies on the line to the other. With a range, only values within it (one number:
    /// that value alone).
    ConsecutiveMoves {
        /// The two position variables.
        positions: Box<(Expr, Expr)>,
        /// The least value that matches.
        min: i64,
        /// The greatest value that matches, if any.
        max: Option<i64>,
        /// `quiet`: no comments on the moves the lines share.
        quiet: bool,
    },
    /// `puremate`, `modelmate`, `idealmate` and their stalemate twins: the pieces taking part
    /// in such a mate of the side to move (none when the position is not one).
    MateShape {
        /// Which shape.
        shape: MateShape,
        /// A stalemate rather than a mate.
        stalemate: bool,
    },
    /// `typename S`: the upper-case letter of the piece on the one square of S (`_` when it is
    /// empty), a text.
    TypeName(Box<Expr>),
    /// A text, as written between quotes (or `\n`, `\t`, `\r`, `\"`, `\\` outside them).
    Text(String),
    /// A tag of the game, as a text.
    Tag(TagWord),
    /// `lowercase T` and the other functions of one text.
    TextFunction {
        /// Which function.
        function: TextFunction,
        /// Its argument.
        arg: Box<Expr>,
    },
    /// `str(...)`: the parts written one after the other, as `message` writes them.
    Str(Vec<TextPart>),
    /// `indexof(T U)`: where T first stands in U, from 0 (-1 when it does not).
    IndexOf(Box<Expr>, Box<Expr>),
    /// `T[i]`, `T[i:j]`, `T[:j]`, `T[i:]`: a character of the text, or the characters from i
    /// up to j (negative counts from the end).
    Substring {
        /// The text.
        text: Box<Expr>,
        /// i (0 when not written).
        start: Option<Box<Expr>>,
        /// j (the end when not written).
        end: Option<Box<Expr>>,
        /// `[i:j]` rather than `[i]`.
        range: bool,
    },
    /// `T ~~ "re"`: the first part of T the regular expression matches.
    RegexMatch {
        /// The text searched.
        text: Box<Expr>,
        /// The regular expression.
        pattern: String,
    },
    /// `\N` (a text: what group N of the last `~~` matched) and `\-N` (a number: where it
    /// begins).
    RegexGroup {
        /// The group.
        group: u8,
        /// `\-N`: where the group begins.
        start: bool,
    },
    /// `fen` alone: the FEN of the position.
    CurrentFen,
    /// `piecename S`: the letter of the piece on the one square of S (`_` when empty), in the
    /// case of its colour.
    PieceName(Box<Expr>),
    /// `writefile(F T)`: T added at the end of the file F.
    WriteFile(Box<Expr>, Box<Expr>),
    /// `hascomment`, `originalcomment`: the text of the comment after the move that led to the
    /// position (before the first move, at the first position), as the game has it.
    OriginalComment,
    /// `hascomment "!"`, `hascomment "$14"`: the move that led to the position has this numeric
    /// annotation glyph.
    Glyph(u8),
    /// `removecomment`: the game is written without the position's own comment; matches.
    RemoveComment,
    /// `settag("Name" T)`: the game is written with the tag `Name` valued T; matches where T
    /// has a value.
    SetTag(String, Box<Expr>),
    /// `assert F`: F matches, or the run stops there, saying where (its span is the word's).
    Assert(Box<Expr>),
    /// `cql_abort`: the run stops there, saying where.
    Abort,
    /// `makesquare T`: the square the text names.
    SquareNamed(Box<Expr>),
    /// `between(S T)`: the squares strictly between a square of S and one of T on a line.
    Between(Box<Expr>, Box<Expr>),
    /// `ray [DIRECTION...] (S1 S2 ...)`: lines through the sets with empty squares between.
    Ray {
        /// The directions the lines go from the first set (`up`, `diagonal`...); none: all eight.
        directions: Vec<Direction>,
        /// The sets, in order along the line (two at least).
        sets: Vec<Expr>,
    },
    /// `pin [from S] [through S] [to S]`: the pinned pieces, or (as the part written first
    /// says, as in CQL 6.2) their pinners or what they shield.
    Pin {
        /// The pinners.
        from: Option<Box<Expr>>,
        /// The pinned pieces.
        through: Option<Box<Expr>>,
        /// What the pinned pieces shield (the kings when not given).
        to: Option<Box<Expr>>,
        /// Which of the three sets is the value.
        value: PinPart,
    },
    /// `up [N [M]] S` and the other directions: the squares N to M steps (1 to the edge when no
    /// range is given; a negative number steps the other way) from a square of S in one of the
    /// directions, whatever stands between.
    Direction {
        /// The direction word.
        direction: Direction,
        /// The range's bounds: none, one (N steps) or two; numbers or numeric variables.
        bounds: Vec<Expr>,
        /// The squares to step from.
        set: Box<Expr>,
    },
    /// `rank S`, `file S`, `type S`, `colortype S`: a number about the one square of S (none
    /// when S does not hold exactly one square).
    SquareNumber {
        /// Which number.
        what: SquareNumber,
        /// The set of one square.
        set: Box<Expr>,
    },
    /// `makesquare(F R)`: the square on file F and rank R, counted from 1 (none off the board).
    MakeSquare(Box<Expr>, Box<Expr>),
    /// `light S` or `dark S`: the light (or dark) squares of S.
    Shade {
        /// Light rather than dark.
        light: bool,
        /// The set.
        set: Box<Expr>,
    },
    /// `fen "board"`: the board part of a FEN, and where the text is.
    Fen(String, Span),
    /// `power S`: the material value of the pieces in S.
    Power(Box<Expr>),
    /// `pieceid S`: the identity of the piece on S, which must be one square; 0 for the piece
    /// of the first position's first occupied square, then on in the order of the squares.
    PieceId(Box<Expr>),
    /// `move ...`: a move of the position, or the one that led to it.
    Move(MoveFilter),
    /// `flip F` and the other transforms; `T count F` counts the copies that match, and
    /// `T N [M] F` counts them where they are N (N to M).
    Transform {
        /// Which transform.
        transform: TransformKind,
        /// `count` or a range: the number of matching copies rather than their union.
        count: bool,
        /// The bounds N and M of the range: numbers or numeric variables (none for `count`).
        bounds: Vec<Expr>,
        /// The filter transformed.
        body: Box<Expr>,
    },
    /// `notransform F`: F as written, in every copy of a transform around it.
    NoTransform(Box<Expr>),
    /// `line [options] --> F1 --> F2 ...`: consecutive positions matching the constituents in
    /// turn; its value is how many positions the longest such run covers.
    Line {
        /// How the positions are walked and what the line says.
        options: LineOptions,
        /// The constituents, in order.
        constituents: Vec<Constituent>,
        /// The range `N [M]` where it names a variable (a range of numbers is in the options).
        bounds: Vec<Expr>,
    },
    /// `path [options] constituents`: the runs of moves from the position, through its
    /// variations too, that match the constituents in turn; its value is how many moves the
    /// best run makes (or, with `max`, the best value of that filter at a run's end).
    Path(Box<PathExpr>),
    /// `pathcount`, `pathstart`, `pathlastposition`, `pathdebug`: the path around the word, or
    /// outside every path, the last path that matched in the game.
    PathWord(PathWord),
    /// A filter on the game's tags.
    Game(GameFilter),
    /// A word of some variants' vocabularies (`hill`, `whitechecks`, `beam`), resolved against
    /// the vocabulary of the variant the query is compiled for.
    FamilyWord(String),
    /// A variable, by name, with the type of the values it holds.
    Variable {
        /// Its name.
        name: String,
        /// What it holds.
        ty: Type,
    },
    /// `x = F`, `x += F` and the other assignments: the variable takes the value of F (or of
    /// its old value and F) when F has one.
    Assign {
        /// The variable's name.
        name: String,
        /// How the value is given.
        op: AssignOp,
        /// The value.
        value: Box<Expr>,
        /// How long the value lasts: the game, or (`persistent`) the whole run.
        lasting: Lasting,
    },
    /// `if F then G [else H]`: G where F matches, else H.
    If {
        /// The condition.
        condition: Box<Expr>,
        /// What is tested where the condition matches.
        then: Box<Expr>,
        /// What is tested where it does not.
        otherwise: Option<Box<Expr>>,
    },
    /// A position named by a word: `currentposition`, `initialposition`, `parent`, `child`.
    Position(PositionWord),
    /// `find [all | N [M]] [<--] F`: the positions from this one on (back to the first with
    /// `<--`) where F matches.
    Find {
        /// What is wanted of them.
        quantity: FindQuantity,
        /// Back towards the game's start rather than on towards its end.
        backward: bool,
        /// `quiet`: no comments on the positions found.
        quiet: bool,
        /// The bounds N and M of `find N [M]`: numbers or numeric variables.
        bounds: Vec<Expr>,
        /// The filter looked for.
        body: Box<Expr>,
    },
    /// `lca(P Q)`: the last position both lines to P and to Q pass through.
    Lca(Box<Expr>, Box<Expr>),
    /// `ancestor(P Q)`, `descendant(Q P)`, `P [<] Q`, `P [<=] Q` (and `[>]`, `[>=]` the other
    /// way): P lies on the line to Q, before it (or is Q, where not `strict`).
    Descends {
        /// The earlier position.
        ancestor: Box<Expr>,
        /// The later one.
        descendant: Box<Expr>,
        /// Whether they must differ.
        strict: bool,
        /// Whether the later is evaluated first (as CQL 6.2 does for `ancestor`,
        /// `descendant`, `[>]` and `[>=]`): where it has no value, the earlier is not evaluated.
        later_first: bool,
        /// Written `ancestor(...)` or `descendant(...)`, which keep the comments their
        /// positions made when they fail (CQL 6.2's `[<]` and the like drop them).
        keeps_notes: bool,
    },
    /// `position N`: the game's position numbered N, as `positionid` numbers them.
    NumberedPosition(Box<Expr>),
    /// `child(N)` with N worked out at each position: the child that begins the variation
    /// numbered N (0 the main line).
    NumberedChild(Box<Expr>),
    /// `P : F`: F at the position P.
    At {
        /// The position.
        position: Box<Expr>,
        /// What is evaluated there.
        body: Box<Expr>,
    },
    /// `echo (S T) [in all] F`: F at each other position T of the game (with `in all`, at
    /// every position), S naming the position tested.
    Echo {
        /// The name of the position tested.
        source: String,
        /// The name of each position F is tested at.
        target: String,
        /// `in all`: the position tested is among the targets.
        all: bool,
        /// `quiet`: no comments about the pairs found.
        quiet: bool,
        /// The filter.
        body: Box<Expr>,
    },
    /// The move dash, `X--Y`: the move played from the position goes from X to Y (with `[x]`,
    /// captures on Y), promotes as given, and the target filters hold after it. Its value is
    /// the target's there.
    Dash {
        /// The squares the move leaves.
        from: Option<Box<Expr>>,
        /// The squares it reaches (with `capture`, the captured piece's).
        to: Option<Box<Expr>>,
        /// `[x]`: a capture.
        capture: bool,
        /// `=Q`: the pieces it promotes to.
        promote: Option<Box<Expr>>,
        /// What holds after the move (a block), if given.
        target: Option<Box<Expr>>,
        /// Which move it is about, and whether it counts the moves that fit.
        when: DashWhen,
    },
    /// `loop F` (F again and again while it matches; matches when it matched once) and `while
    /// (T) F` (F again and again while T matches; always matches).
    Repeat {
        /// T, for `while`.
        test: Option<Box<Expr>>,
        /// F.
        body: Box<Expr>,
    },
    /// `sort [quiet] ["label"] F`: F's value, by which the games found are ordered (the best
    /// value over each game's matching positions).
    Sort {
        /// The smallest value first.
        min: bool,
        /// The label of the value in the output.
        label: Option<String>,
        /// `quiet`: the value is not written into the output.
        quiet: bool,
        /// The value.
        value: Box<Expr>,
    },
    /// `comment(...)` and `message(...)`: a text made of the parts, written into the game at the
    /// position (a comment) or printed (a message). Always matches.
    Comment {
        /// Printed rather than written into the game.
        message: bool,
        /// `quiet`: a message without the game and position before it.
        quiet: bool,
        /// The parts, in order.
        parts: Vec<TextPart>,
    },
    /// `square [all] X in S F` and `piece [all] X in S F`: F tested with X each square (or the
    /// piece on each square) of S.
    Loop {
        /// Over squares or over pieces.
        over: LoopOver,
        /// `all`: every square (or piece) of S must pass.
        all: bool,
        /// The name X.
        name: String,
        /// The squares S.
        set: Box<Expr>,
        /// The filter F.
        body: Box<Expr>,
    },
    /// A dictionary's use: declared, read, written, counted, emptied or walked.
    Dictionary {
        /// The dictionary's name.
        name: String,
        /// Whether its entries last from game to game (it is not `local`).
        persistent: bool,
        /// What is done with it.
        op: DictionaryOp,
    },
    /// `isbound x` (`bound`) and `isunbound x`: whether a variable holds a value.
    IsBound {
        /// The variable's name (a name no variable has is never bound).
        name: String,
        /// `isbound` rather than `isunbound`.
        bound: bool,
    },
    /// `unbind x`: the variable loses its value; matches.
    Unbind(String),
    /// `similarposition [notransform] "F.pgn"`: the position (its pieces and side to move) is one
    /// of the file's, as it stands or under a symmetry; each sighting is written as a comment,
    /// and the least game number found goes into `variable` (a name no query can write, which
    /// the `sort` that follows unless `nosort` reads).
    SimilarPosition {
        /// The file's games.
        games: Arc<SimilarGames>,
        /// The variable given the least game number.
        variable: String,
    },
}

impl ExprKind {
    /// Whether this node reads or writes a variable or a dictionary.
    #[must_use]
    pub fn uses_variables(&self) -> bool {
        matches!(
            self,
            ExprKind::Variable { .. }
                | ExprKind::Assign { .. }
                | ExprKind::Dictionary { .. }
                | ExprKind::IsBound { .. }
                | ExprKind::Unbind(_)
                | ExprKind::SimilarPosition { .. }
        )
    }
}

/// What a query does with a dictionary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DictionaryOp {
    /// `[local | persistent] dictionary D`, or `D` alone: matches.
    Declare,
    /// `D[k]`: the value held for the key (of type `value`); as a filter, whether there is one.
    Entry {
        /// The key.
        key: Box<Expr>,
        /// The type of the dictionary's values (a filter where the text gave it none before).
        value: Type,
    },
    /// `D[k] = v`: holds `v` for `k`; matches when both have a value.
    Store {
        /// The key.
        key: Box<Expr>,
        /// The value.
        value: Box<Expr>,
    },
    /// `#D`: how many keys it holds.
    Count,
    /// `unbind D[k]` (the key's entry) and `unbind D` (every entry); matches.
    Forget(Option<Box<Expr>>),
    /// `x ∊ D F`: F with `x` each key in turn, in the keys' order; matches.
    Walk {
        /// The variable that takes each key.
        variable: String,
        /// The filter F.
        body: Box<Expr>,
    },
}

/// A part of the text of a comment or a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextPart {
    /// Text as written.
    Text(String),
    /// A value, written as CQL 6.2 writes it: a number, squares (`e4`, `[a1,h8]`), a piece and
    /// its square, a position (`move 12(btm)`), `<true>` or `<false>`.
    Value(Expr),
}

/// The positions named by words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionWord {
    /// `currentposition`: the position tested.
    Current,
    /// `initialposition`: the game's first position.
    Initial,
    /// `parent`: the position before this one.
    Parent,
    /// `child`, `child(N)`: the position after this one on the line (N: in the Nth variation;
    /// 0, the default, is the line itself).
    Child(u32),
}

/// What `find` wants of the positions where its filter matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FindQuantity {
    /// The first of them (a position).
    First,
    /// `all`: how many they are (a number), when there is one at least.
    All,
    /// `count`: how many they are, none at all included.
    Count,
    /// `N [M]`: how many they are, when exactly N (or N to M); the bounds are the find's.
    Range,
}

/// What a loop goes over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoopOver {
    /// `square`: the squares of the set, each bound as a set of one square.
    Squares,
    /// `piece`: the pieces on the squares of the set, each followed wherever it goes.
    Pieces,
}

/// The ways of giving a variable a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AssignOp {
    /// `=`: the value.
    Set,
    /// `=?`: the value, or no value at all when it has none.
    SetOrUnset,
    /// `+=`, `-=`, `*=`, `/=`, `%=`: the old value and the new one combined.
    Arithmetic(BinaryOp),
    /// `|=`: the union with the old set.
    Union,
    /// `&=`: the intersection with the old set.
    Intersection,
    /// `piece x = S`: the piece on the one occupied square of S, followed wherever it goes.
    Piece,
}

/// The type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// Matches or not.
    Filter,
    /// A set of squares and backhand slots.
    Set,
    /// An integer (which may have no value, as after a division by zero).
    Number,
    /// A position of the game.
    Position,
    /// A text.
    Text,
}

/// The words that test or measure a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Word {
    /// The first player is to move.
    Wtm,
    /// The second player is to move.
    Btm,
    /// The side to move is in check.
    Check,
    /// The side to move is mated.
    Mate,
    /// The side to move is stalemated.
    Stalemate,
    /// The first position of the game.
    Initial,
    /// The last position of the game (or of a variation).
    Terminal,
    /// The number of plies played since the game's first position.
    Ply,
    /// The number of the move, as a FEN counts it.
    MoveNumber,
    /// `true`: matches every position.
    True,
    /// `false`: matches no position.
    False,
    /// `sidetomove`: 1 when the first player is to move, -1 otherwise (as CQL 6.2 counts).
    SideToMove,
    /// `white`: the number 1, the first player (as `sidetomove` counts).
    White,
    /// `black`: the number -1, the second player.
    Black,
    /// `mainline`: the position is on the game's main line.
    Mainline,
    /// `variation`: the position is in a variation.
    Variation,
    /// `virtualmainline`: every move that led here is the main continuation, or a variation
    /// of a move of the second player (a defence), and none is a null move.
    VirtualMainline,
    /// `primary`: the move that led here is the main continuation of the position before.
    Primary,
    /// `secondary`: the move that led here begins a variation.
    Secondary,
    /// `cql_hhdbhascook`: the game's text holds `<cook` (in the Heijden study database, a
    /// study shown unsound).
    HasCook,
    /// `gamenumber`: the game's number in the input, from 1.
    GameNumber,
    /// `lastgamenumber`: the number of the input's last game, as CQL 6.2 estimates it before
    /// the search (the games' `[White ` tags counted, at most the last game asked for).
    LastGameNumber,
    /// `passedpawns`: the pawns of either side with no enemy pawn ahead on their file or the
    /// files beside it.
    PassedPawns,
    /// `isolatedpawns`: the pawns with no pawn of their side on the files beside theirs.
    IsolatedPawns,
    /// `doubledpawns`: the pawns with a pawn of their side on their file.
    DoubledPawns,
    /// `connectedpawns`: the pawns with a pawn of their side on a file beside theirs.
    ConnectedPawns,
    /// `positionid`: the position's number in the game: the main line's from 0, then those of
    /// the variations.
    PositionId,
    /// `depth`: how many variations deep the position lies (0 on the main line).
    Depth,
    /// `currenttransform`: the name of the transformed copy being tested, as CQL 6.2 writes
    /// it (`<>` outside a transform, `<invertcolor reflect_h>` in `flipcolor`'s other copy).
    CurrentTransform,
}

impl Word {
    /// The word as written.
    #[must_use]
    pub const fn text(self) -> &'static str {
        match self {
            Word::Wtm => "wtm",
            Word::Btm => "btm",
            Word::Check => "check",
            Word::Mate => "mate",
            Word::Stalemate => "stalemate",
            Word::Initial => "initial",
            Word::Terminal => "terminal",
            Word::Ply => "ply",
            Word::MoveNumber => "movenumber",
            Word::True => "true",
            Word::False => "false",
            Word::SideToMove => "sidetomove",
            Word::White => "white",
            Word::Black => "black",
            Word::Mainline => "mainline",
            Word::Variation => "variation",
            Word::VirtualMainline => "virtualmainline",
            Word::Primary => "primary",
            Word::Secondary => "secondary",
            Word::HasCook => "cql_hhdbhascook",
            Word::GameNumber => "gamenumber",
            Word::LastGameNumber => "lastgamenumber",
            Word::PassedPawns => "passedpawns",
            Word::IsolatedPawns => "isolatedpawns",
            Word::DoubledPawns => "doubledpawns",
            Word::ConnectedPawns => "connectedpawns",
            Word::PositionId => "positionid",
            Word::Depth => "depth",
            Word::CurrentTransform => "currenttransform",
        }
    }

    /// What the word gives: a number (`ply`, `positionid`, `white`), a set (`passedpawns`),
    /// or a filter (the others).
    #[must_use]
    pub const fn value_type(self) -> Type {
        match self {
            Word::Ply
            | Word::MoveNumber
            | Word::SideToMove
            | Word::White
            | Word::Black
            | Word::GameNumber
            | Word::LastGameNumber
            | Word::PositionId
            | Word::Depth => Type::Number,
            Word::PassedPawns | Word::IsolatedPawns | Word::DoubledPawns | Word::ConnectedPawns => Type::Set,
            Word::CurrentTransform => Type::Text,
            _ => Type::Filter,
        }
    }

    /// Whether the word needs the variant's rules of attack.
    #[must_use]
    pub const fn needs_check(self) -> bool {
        matches!(self, Word::Check | Word::Mate | Word::Stalemate)
    }
}

/// The parts of a pin, one of which is its value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PinPart {
    /// `from`: the pinning pieces.
    From,
    /// `through`: the pinned pieces (the value when `pin` does not start with `from` or `to`).
    #[default]
    Through,
    /// `to`: what the pinned pieces shield.
    To,
}

/// The squares of a move that a `move` filter's value is made of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoveSquare {
    /// The squares the moves leave.
    #[default]
    From,
    /// The squares they reach.
    To,
    /// The squares of the pieces they take.
    Capture,
}

/// The parts of a `move` filter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveFilter {
    /// Which moves: the one played next (the default), the one that led here, or any legal or
    /// pseudo-legal one.
    pub when: MoveWhen,
    /// `from S`.
    pub from: Option<Box<Expr>>,
    /// `to S`.
    pub to: Option<Box<Expr>>,
    /// `capture S`: the captured piece's square.
    pub capture: Option<Box<Expr>>,
    /// `promote P`: the piece promoted to.
    pub promote: Option<Box<Expr>>,
    /// `enpassant`.
    pub en_passant: bool,
    /// `enpassantsquare S`: an en passant capture of the pawn on S (S is found where the
    /// filter is tested).
    pub en_passant_square: Option<Box<Expr>>,
    /// `comment (...)` written last (not with `legal` or `pseudolegal`): each move that fits
    /// comments the position it leads to.
    pub comment: Option<Box<Expr>>,
    /// `castle`, `o-o`, `o-o-o`.
    pub castle: Option<Castle>,
    /// `drop`: a piece put on the board from the hand.
    pub drop: bool,
    /// `null`: a null move.
    pub null: bool,
    /// `primary` (false) or `secondary` (true): the move is the main continuation of its
    /// position, or begins a variation.
    pub branch: Option<bool>,
    /// The actions of the variant's moves asked for (`rotate`, `swap` in Laser Chess), each
    /// with where it is written.
    pub actions: Vec<(String, Span)>,
    /// What the value is made of: the part of `from`, `to` and `capture` written first (the
    /// from-squares when none is).
    pub value: MoveSquare,
    /// `count` (with `legal` or `pseudolegal`): the value is the number of moves that fit, a
    /// promotion's choices counted once; it always matches.
    pub count: bool,
    /// Whether CQL 6.2 gives the filter a set as its value too: a `move` whose first part
    /// written is `from`, `to` or `capture`, `from`, `to` and `enpassantsquare` alone, and the
    /// dashes after `legal` and `pseudolegal` (cqlq gives every `move` one).
    pub set_in_cql: bool,
    /// `from` or `to` alone: a castling gives its rook's square too, as CQL 6.2's do.
    pub castling_rook: bool,
}

impl MoveFilter {
    /// Any move of the kind `when`: no part asked for, the from-squares as the value.
    #[must_use]
    pub fn any(when: MoveWhen) -> MoveFilter {
        MoveFilter {
            when,
            from: None,
            to: None,
            capture: None,
            promote: None,
            en_passant: false,
            en_passant_square: None,
            comment: None,
            castle: None,
            drop: false,
            null: false,
            branch: None,
            actions: Vec::new(),
            value: MoveSquare::From,
            count: false,
            set_in_cql: false,
            castling_rook: false,
        }
    }
}

/// Which move a dash is about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DashWhen {
    /// `X--Y`: the move played next from this position.
    #[default]
    Next,
    /// `currentmove X--Y` (or `previous X--Y`): the move that led to this position, its target
    /// tested here.
    Previous,
    /// `countmoves X--Y`: the number of moves played from this position that fit (it always
    /// matches).
    Count,
}

/// How long a variable's value lasts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lasting {
    /// Until the game ends (every variable is without a value when the next game begins).
    #[default]
    Game,
    /// `persistent`: from game to game, to the end of the run, when its value is printed.
    Run,
    /// `persistent quiet`: from game to game, its value not printed at the end.
    RunQuietly,
}

impl Lasting {
    /// Whether the value lasts from game to game.
    #[must_use]
    pub fn is_persistent(self) -> bool {
        self != Lasting::Game
    }
}

/// Which moves a `move` filter looks at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoveWhen {
    /// The move played next in the game from this position (none at the last position).
    #[default]
    Played,
    /// `previous`: the move that led to this position.
    Previous,
    /// `legal`: any legal move of this position.
    Legal,
    /// `pseudolegal`: any move of this position that would be legal but for leaving or putting
    /// the mover's king in check.
    PseudoLegal,
}

/// Which castling a move filter asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Castle {
    /// Either side.
    Any,
    /// `o-o`: on the king's side.
    KingSide,
    /// `o-o-o`: on the queen's side.
    QueenSide,
}

/// The transforms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TransformKind {
    /// `flip`: every symmetry of the board.
    Flip,
    /// `flipvertical`: mirror about the vertical middle line (the files: `a1` to `h1`).
    FlipVertical,
    /// `fliphorizontal`: mirror about the horizontal middle line (the ranks: `a1` to `a8`).
    FlipHorizontal,
    /// `flipdiagonal`: mirror about the a1 diagonal (square boards).
    FlipDiagonal,
    /// `flipoffdiagonal`: mirror about the other long diagonal (square boards).
    FlipOffDiagonal,
    /// `flipcolor`: swap the colours and mirror the ranks.
    FlipColor,
    /// `rotate90`: the quarter turns (square boards).
    Rotate90,
    /// `rotate45`: the eighth turns of the filter's directions (for filters of no particular
    /// square).
    Rotate45,
    /// `reversecolor`: colours swapped and ranks mirrored, without the original.
    ReverseColor,
    /// `shift`: every translation.
    Shift,
    /// `shifthorizontal`: translations along the ranks.
    ShiftHorizontal,
    /// `shiftvertical`: translations along the files.
    ShiftVertical,
}

impl TransformKind {
    /// The transform as written.
    #[must_use]
    pub const fn text(self) -> &'static str {
        match self {
            TransformKind::Flip => "flip",
            TransformKind::FlipVertical => "flipvertical",
            TransformKind::FlipHorizontal => "fliphorizontal",
            TransformKind::FlipDiagonal => "flipdiagonal",
            TransformKind::FlipOffDiagonal => "flipoffdiagonal",
            TransformKind::FlipColor => "flipcolor",
            TransformKind::Rotate90 => "rotate90",
            TransformKind::Rotate45 => "rotate45",
            TransformKind::ReverseColor => "reversecolor",
            TransformKind::Shift => "shift",
            TransformKind::ShiftHorizontal => "shifthorizontal",
            TransformKind::ShiftVertical => "shiftvertical",
        }
    }
}

/// A `path` filter: its options and constituents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathExpr {
    /// How the path is searched and what it says.
    pub options: PathOptions,
    /// The constituents, in order.
    pub steps: Vec<PathStep>,
    /// The variables declared `atomic` so far: a path gives them back their values when it
    /// turns back from a move, and leaves them as its best run left them.
    pub atomics: Vec<String>,
    /// The targets of dashes right after a dash, which CQL 6.2 reads twice (first as a dash
    /// filter of the dash before): each `sort` in them has a second key, which never has a value.
    pub reread: Vec<Span>,
}

/// The options of a `path`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathOptions {
    /// `N [M]`: the best run's count (or its `max` value) must be N (N to M).
    pub range: Option<(u32, Option<u32>)>,
    /// A range that names a numeric variable (`path x 5`), instead of `range`: its bounds,
    /// read once the best run is found.
    pub bounds: Vec<Expr>,
    /// `quiet`: no comments about where the path starts and ends.
    pub quiet: bool,
    /// `nestban`: no path starts where one this filter found before in the game went through.
    pub nestban: bool,
    /// `firstmatch`: the first run found, not the longest.
    pub firstmatch: bool,
    /// `primary`: only the main continuation of each position.
    pub primary: bool,
    /// `lastposition`: the value is the best run's last position.
    pub lastposition: bool,
    /// `verbose`: each move of the best run is commented with its number.
    pub verbose: bool,
    /// `keepallbest`: every run as good as the best is kept, not only the first found.
    pub keepallbest: bool,
    /// `piecepath`: the start is commented with the moves of the pieces in focus.
    pub piecepath: bool,
    /// `title "T"`: the start is commented with T.
    pub title: Option<String>,
    /// `focus S`, `focus capture S`, `singlecolor`: the moves that count.
    pub focus: Option<PathFocus>,
    /// `max F`: runs are compared by F's value at their ends, not by their counts.
    pub max: Option<Box<Expr>>,
}

/// The pieces a `path` follows: only their moves are matched by dashes and counted; the
/// others are stepped over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathFocus {
    /// `focus S` (`focus capture S`: their captures by others count too): the pieces on the
    /// squares of S at the path's start.
    Pieces {
        /// S.
        set: Box<Expr>,
        /// `capture`.
        capture: bool,
    },
    /// `singlecolor`: the pieces of the side to move at the path's start.
    SideToMove,
}

/// One constituent of a `path`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathStep {
    /// A filter the position must match.
    Filter(Expr),
    /// A move dash (an [`ExprKind::Dash`]): a move that fits it is played, then the filters
    /// after it (its target) must match.
    Move(Expr),
    /// `( ... )`: constituents in turn.
    Group(Vec<PathStep>),
    /// A dash or group repeated: `*`, `+`, `?`, `{m,n}`.
    Repeat {
        /// What is repeated.
        step: Box<PathStep>,
        /// The fewest times.
        min: u32,
        /// The most times (None: no limit).
        max: Option<u32>,
    },
}

impl PathStep {
    /// The expressions of the step, however deep.
    fn exprs<'e>(&'e self, exprs: &mut Vec<&'e Expr>) {
        match self {
            PathStep::Filter(expr) | PathStep::Move(expr) => exprs.push(expr),
            PathStep::Group(steps) => steps.iter().for_each(|step| step.exprs(exprs)),
            PathStep::Repeat { step, .. } => step.exprs(exprs),
        }
    }

    /// The move dashes of the step, however deep.
    pub fn dashes(&self) -> Vec<&Expr> {
        match self {
            PathStep::Filter(_) => Vec::new(),
            PathStep::Move(expr) => vec![expr],
            PathStep::Group(steps) => steps.iter().flat_map(PathStep::dashes).collect(),
            PathStep::Repeat { step, .. } => step.dashes(),
        }
    }

    /// Whether every way through the step plays a move.
    #[must_use]
    pub fn always_moves(&self) -> bool {
        match self {
            PathStep::Filter(_) => false,
            PathStep::Move(_) => true,
            PathStep::Group(steps) => steps.iter().any(PathStep::always_moves),
            PathStep::Repeat { step, min, .. } => *min > 0 && step.always_moves(),
        }
    }
}

impl PathExpr {
    /// The expressions of the path: the focus, `max`, and those of the constituents.
    #[must_use]
    pub fn exprs(&self) -> Vec<&Expr> {
        let mut exprs = Vec::new();
        if let Some(PathFocus::Pieces { set, .. }) = &self.options.focus {
            exprs.push(&**set);
        }
        exprs.extend(self.options.max.as_deref());
        exprs.extend(&self.options.bounds);
        self.steps.iter().for_each(|step| step.exprs(&mut exprs));
        exprs
    }
}

/// A word about the path around it (or the last path that matched).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathWord {
    /// `pathcount`: the moves counted so far (outside: the last path's count).
    Count,
    /// `pathstart`: the position the path started from.
    Start,
    /// `pathlastposition`: the last position of the best run so far (outside: of the last
    /// path's).
    LastPosition,
    /// `pathdebug`: prints where the path stands; always matches.
    Debug,
}

/// The options of a `line`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LineOptions {
    /// `<--`: from the position back towards the game's start.
    pub backward: bool,
    /// `quiet`: no comments about the line found.
    pub quiet: bool,
    /// `nestban`: no line starts inside a line this filter found before in the game.
    pub nestban: bool,
    /// `firstmatch`: the first run found (the shortest) rather than the longest.
    pub firstmatch: bool,
    /// `singlecolor`: only the positions with the same side to move as the first.
    pub singlecolor: bool,
    /// `lastposition`: the value is the run's last position rather than its length.
    pub lastposition: bool,
    /// `N [M]`: the run's length must be N (N to M).
    pub range: Option<(u32, Option<u32>)>,
    /// `primary`, `secondary`: the moves a run may follow.
    pub moves: LineMoves,
}

/// The moves a `line` follows from one position to the next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LineMoves {
    /// Any: the main continuation and the first moves of variations.
    #[default]
    Any,
    /// `primary`: only the main continuation of each position.
    Primary,
    /// `secondary`: only the first moves of its variations.
    Secondary,
}

/// One constituent of a `line`: a filter, or constituents in turn, and how many times in a row
/// it matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constituent {
    /// What matches each time.
    pub body: ConstituentBody,
    /// The fewest times.
    pub min: u32,
    /// The most times (None: no limit).
    pub max: Option<u32>,
}

/// What a [`Constituent`] of a `line` matches each time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstituentBody {
    /// A filter: one position that matches it.
    Filter(Expr),
    /// `( C1 --> C2 ... )`: positions that match the constituents in turn.
    Group(Vec<Constituent>),
}

impl Constituent {
    /// The filters of the constituent, in order.
    pub fn filters(&self) -> Vec<&Expr> {
        match &self.body {
            ConstituentBody::Filter(filter) => vec![filter],
            ConstituentBody::Group(group) => group.iter().flat_map(Constituent::filters).collect(),
        }
    }

    /// Whether it may match no position at all.
    #[must_use]
    pub fn matches_nothing(&self) -> bool {
        self.min == 0
            || matches!(&self.body, ConstituentBody::Group(group) if group.iter().all(Constituent::matches_nothing))
    }
}

/// The awards `hhdb` looks for: a filter that matches where the study won one, and a number,
/// its rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Award {
    /// The kind of award.
    pub kind: AwardKind,
    /// `special`: only a special award, ranked; without it a special award matches but has no
    /// rank.
    pub special: bool,
    /// `max`: the rank is the last of a shared range (`1/3`: 3), rather than the first.
    pub max: bool,
}

/// A kind of award of a study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AwardKind {
    /// `award`: any of the three.
    Any,
    /// `prize`: a prize (`.p`).
    Prize,
    /// `hm`: an honourable mention (`.hm`).
    HonourableMention,
    /// `commendation`: a commendation (`.c`).
    Commendation,
}

/// The rank a study has with no rank written: after every written one.
const UNRANKED: i64 = 10_000;

impl Award {
    /// The study's rank, where its `Event` tag says it won this award: 0 for a special award
    /// that is not asked for (it matches, and has no rank).
    #[must_use]
    pub fn rank(&self, event: &str) -> Option<i64> {
        let mut rest = event;
        let ranks = match leading_rank(&mut rest) {
            None => None,
            Some(first) => match rest.strip_prefix('/') {
                None => Some((first, first)),
                Some(after) => {
                    rest = after;
                    let last = leading_rank(&mut rest).filter(|&last| last > first)?;
                    Some((first, last))
                }
            },
        };
        let special_mark = if ranks.is_some() { ".sp" } else { "sp" };
        let special = match rest.strip_prefix(special_mark) {
            Some(after) => {
                rest = after;
                true
            }
            None => false,
        };
        let kind = if rest.starts_with(".p") {
            AwardKind::Prize
        } else if rest.starts_with(".hm") {
            AwardKind::HonourableMention
        } else if rest.starts_with(".c") {
            AwardKind::Commendation
        } else {
            return None;
        };
        if (self.kind != AwardKind::Any && self.kind != kind) || (self.special && !special) {
            return None;
        }
        if special && !self.special {
            return Some(0);
        }
        let (first, last) = ranks.unwrap_or((1, UNRANKED));
        Some(if self.max { last } else { first })
    }
}

/// A rank at the start of `text`, which then begins after it: digits, from 1 to 100,000,000.
fn leading_rank(text: &mut &str) -> Option<i64> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let rank = text[..digits].parse::<i64>().ok().filter(|rank| (1..=100_000_000).contains(rank))?;
    *text = &text[digits..];
    Some(rank)
}

/// A side named in a game filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// `white`: the first player.
    White,
    /// `black`: the second player.
    Black,
}

/// The filters on a game's tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameFilter {
    /// `result 1-0`: the `Result` tag.
    Result(String),
    /// `elo [white|black]`: a rating (the higher of both without a side).
    Elo(Option<Side>),
    /// `year`: the year of the `Date` tag.
    Year,
    /// `variant "name"`: the game's variant.
    Variant(String),
    /// `hhdb prize` and the other awards: the award of a study, as the Heijden database
    /// writes it at the start of the `Event` tag (`2.p`, `1/3.sp.hm`, `c`).
    Award(Award),
    /// `event "text"`, `player white "text"` and the other tag words followed by a text: the
    /// tag's value holds the text.
    Holds {
        /// The tag.
        tag: TagWord,
        /// The text looked for.
        text: String,
    },
}

/// A tag of the game, as a text: the value CQL 6.2 reads from the tag (dates and ECO codes in
/// their normal form, players' names trimmed, `?` for a missing event, site or player).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TagWord {
    /// `event`
    Event,
    /// `site`
    Site,
    /// `date`
    Date,
    /// `eventdate`
    EventDate,
    /// `eco`
    Eco,
    /// `player white`, `player black`; `player`: both names, on two lines.
    Player(Option<Side>),
    /// `tag "Name"`
    Named(String),
}

/// The functions from a text (or to one) that take one argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextFunction {
    /// `lowercase T`
    Lowercase,
    /// `uppercase T`
    Uppercase,
    /// `int T`: the number the text writes.
    Int,
    /// `ascii T`: the code of the first character; `ascii N`: the character of a code.
    Ascii,
    /// `readfile T`: the contents of the file named.
    ReadFile,
}

impl TextFunction {
    /// The function's name in a query.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TextFunction::Lowercase => "lowercase",
            TextFunction::Uppercase => "uppercase",
            TextFunction::Int => "int",
            TextFunction::Ascii => "ascii",
            TextFunction::ReadFile => "readfile",
        }
    }
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `not F`
    Not,
    /// `~S`: the squares not in S.
    Complement,
    /// `#S`: the number of squares (and backhand pieces) in S.
    Count,
    /// `-N`
    Negate,
    /// `abs N`
    Abs,
    /// `sqrt N`: the whole square root (no value for a negative number).
    Sqrt,
}

/// Infix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `or`
    Or,
    /// `and`
    And,
    /// `S in T`: every square of S is in T.
    In,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `|`: union of sets.
    Union,
    /// `&`: intersection of sets.
    Intersection,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
}

impl BinaryOp {
    /// The operator as written.
    #[must_use]
    pub const fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::In => "in",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Union => "|",
            BinaryOp::Intersection => "&",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
        }
    }

    /// Whether the operator compares two numbers.
    #[must_use]
    pub const fn is_comparison(self) -> bool {
        matches!(self, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge)
    }

    /// Whether the operator computes a number.
    #[must_use]
    pub const fn is_arithmetic(self) -> bool {
        matches!(self, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem)
    }

    /// Whether a chain of the operator means the same however it is grouped, and is evaluated
    /// in the same order: `and`, `or`, `|` and `&` (not `+`, whose overflow depends on the
    /// grouping).
    #[must_use]
    pub const fn is_associative(self) -> bool {
        matches!(self, BinaryOp::And | BinaryOp::Or | BinaryOp::Union | BinaryOp::Intersection)
    }
}

impl UnaryOp {
    /// The operator as written.
    #[must_use]
    pub const fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Not => "not",
            UnaryOp::Complement => "~",
            UnaryOp::Count => "#",
            UnaryOp::Negate => "-",
            UnaryOp::Abs => "abs",
            UnaryOp::Sqrt => "sqrt",
        }
    }
}

/// A square designator: one or more parts, united.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareDesignator {
    /// The parts (`[a1,c4]` has two; `e4` one; `[]` none).
    pub parts: Vec<SquarePart>,
    /// Where it is.
    pub span: Span,
}

/// One part of a square designator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquarePart {
    /// Files by ranks, such as `e4`, `a-h1-2`, `L?`.
    Region(Region),
    /// `+`: the backhand.
    Backhand(Span),
    /// `*`: the board and the backhand.
    BoardAndBackhand(Span),
    /// `.`: every square of the board.
    AllBoard(Span),
}

/// A rectangle of files and ranks, or the light or dark squares of some files or ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// The file part.
    pub files: Coordinate,
    /// The rank part.
    pub ranks: Coordinate,
    /// Where it is.
    pub span: Span,
}

/// The file part or the rank part of a region. Files and ranks count from 0 (`a`, rank `1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coordinate {
    /// `?`: all of them.
    Any,
    /// `L`, `&L;`: the light squares.
    Light,
    /// `D`, `&D;`: the dark squares.
    Dark,
    /// One file or rank.
    One(u8),
    /// A range, as written (it may run the wrong way; the checker says so).
    Range(u8, u8),
}

/// A piece designator: what pieces, on what squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDesignator {
    /// The piece part.
    pub piece: PiecePart,
    /// The square designator, if one was written (none means every square of the board).
    pub squares: Option<SquareDesignator>,
    /// Where it is.
    pub span: Span,
}

/// The piece part of a piece designator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PiecePart {
    /// The pieces listed (one unless written in brackets).
    pub atoms: Vec<PieceAtom>,
    /// Whether it was a bracketed list, `[QR]`.
    pub list: bool,
    /// Where it is.
    pub span: Span,
}

/// One entry of a piece part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceAtom {
    /// What was written.
    pub kind: PieceAtomKind,
    /// Where it is.
    pub span: Span,
}

/// The ways of writing a piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceAtomKind {
    /// Letters (one symbol unless in a list, where they may be several, `[QR]`), with the level
    /// (`+` signs) of the last symbol.
    Letters {
        /// The letters.
        text: String,
        /// The number of `+` signs after them.
        level: u8,
    },
    /// Scidb's `&X;` spelling of the letter X.
    Entity(char),
    /// A CQL 6.2 figurine.
    Figurine(char),
    /// `_`: an empty square.
    Empty,
}

impl fmt::Display for Coordinate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Coordinate::Any => f.write_str("?"),
            Coordinate::Light => f.write_str("L"),
            Coordinate::Dark => f.write_str("D"),
            Coordinate::One(index) => write!(f, "#{index}"),
            Coordinate::Range(low, high) => write!(f, "#{low}-#{high}"),
        }
    }
}

/// Which squares an attack relation gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttackSide {
    /// `S attacks T`: the squares of S whose piece attacks T.
    Attackers,
    /// `T attackedby S`: the squares of T attacked from S.
    Targets,
}

/// The directions of CQL's direction filters; up is towards the last rank, right towards the
/// last file, whoever is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// `up`.
    Up,
    /// `down`.
    Down,
    /// `left`.
    Left,
    /// `right`.
    Right,
    /// `northeast`: up and right.
    NorthEast,
    /// `northwest`: up and left.
    NorthWest,
    /// `southeast`: down and right.
    SouthEast,
    /// `southwest`: down and left.
    SouthWest,
    /// `horizontal`: left and right.
    Horizontal,
    /// `vertical`: up and down.
    Vertical,
    /// `orthogonal`: up, down, left and right.
    Orthogonal,
    /// `diagonal`: the four diagonal directions.
    Diagonal,
    /// `anydirection`: all eight.
    Any,
    /// `maindiagonal`: up and right, down and left (the a1-h8 diagonal's way).
    MainDiagonal,
    /// `offdiagonal`: up and left, down and right (the h1-a8 diagonal's way).
    OffDiagonal,
}

impl Direction {
    /// The direction of a word, if it is one.
    #[must_use]
    pub fn from_word(word: &str) -> Option<Direction> {
        Some(match word {
            "up" => Direction::Up,
            "down" => Direction::Down,
            "left" => Direction::Left,
            "right" => Direction::Right,
            "northeast" => Direction::NorthEast,
            "northwest" => Direction::NorthWest,
            "southeast" => Direction::SouthEast,
            "southwest" => Direction::SouthWest,
            "horizontal" => Direction::Horizontal,
            "vertical" => Direction::Vertical,
            "orthogonal" => Direction::Orthogonal,
            "diagonal" => Direction::Diagonal,
            "anydirection" => Direction::Any,
            "maindiagonal" => Direction::MainDiagonal,
            "offdiagonal" => Direction::OffDiagonal,
            _ => return None,
        })
    }

    /// The steps (files, ranks) of the direction: one, two, four or eight.
    #[must_use]
    pub fn steps(self) -> &'static [(i32, i32)] {
        const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (0, -1), (-1, 0), (1, 0)];
        const DIAGONAL: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
        const ANY: [(i32, i32); 8] = [(0, 1), (0, -1), (-1, 0), (1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)];
        const MAIN_DIAGONAL: [(i32, i32); 2] = [(1, 1), (-1, -1)];
        const OFF_DIAGONAL: [(i32, i32); 2] = [(-1, 1), (1, -1)];
        match self {
            Direction::Up => &ORTHOGONAL[0..1],
            Direction::Down => &ORTHOGONAL[1..2],
            Direction::Left => &ORTHOGONAL[2..3],
            Direction::Right => &ORTHOGONAL[3..4],
            Direction::NorthEast => &DIAGONAL[0..1],
            Direction::NorthWest => &DIAGONAL[1..2],
            Direction::SouthEast => &DIAGONAL[2..3],
            Direction::SouthWest => &DIAGONAL[3..4],
            Direction::Vertical => &ORTHOGONAL[0..2],
            Direction::Horizontal => &ORTHOGONAL[2..4],
            Direction::Orthogonal => &ORTHOGONAL,
            Direction::Diagonal => &DIAGONAL,
            Direction::Any => &ANY,
            Direction::MainDiagonal => &MAIN_DIAGONAL,
            Direction::OffDiagonal => &OFF_DIAGONAL,
        }
    }
}

/// The numbers a square gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareNumber {
    /// `rank`: its rank, from 1.
    Rank,
    /// `file`: its file, from 1 (a is 1).
    File,
    /// `type`: its piece's place in the variant's list of pieces, from 1 (Pawn 1, Knight 2,
    /// Bishop 3, Rook 4, Queen 5, King 6 in chess), 0 when it is empty.
    Type,
    /// `colortype`: the `type`, negative for a piece of the second player.
    ColorType,
}

impl SquareNumber {
    /// The word as written.
    #[must_use]
    pub const fn text(self) -> &'static str {
        match self {
            SquareNumber::Rank => "rank",
            SquareNumber::File => "file",
            SquareNumber::Type => "type",
            SquareNumber::ColorType => "colortype",
        }
    }
}

/// The shapes of mate of problem chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MateShape {
    /// Each square around the king denied once, the king's own pieces beside it unguarded.
    Pure,
    /// A pure mate in which every piece of the mating side but its king and pawns takes part.
    Model,
    /// A pure mate in which every piece of both sides takes part.
    Ideal,
}
