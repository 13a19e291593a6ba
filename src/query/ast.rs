//! The syntax tree of a query. Every node carries the byte range of the text it was read from.
//!
//! The tree says what was written, not what it means: a piece letter stays a letter until the
//! query is compiled for a variant, where `A` may be a Pyramid or the class of all white pieces.

use std::fmt;

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
}

/// The `cql(...)` header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// `input F`: the files to search.
    pub input: Option<String>,
    /// `output F`: where matching games go.
    pub output: Option<String>,
    /// `matchcount N [M]`: how many positions must match.
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
