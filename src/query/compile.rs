//! A checked query to a [`Program`] for one variant: square designators become masks of its
//! board, piece letters become kinds of its alphabet. Mistakes that depend on the variant (a
//! square off its board, a letter it does not have) are collected here.

use super::ast::{
    AssignOp, AttackSide, BinaryOp, Castle, Constituent, ConstituentBody, Coordinate, DashWhen, DictionaryOp, Expr,
    ExprKind, FindQuantity, GameFilter, Lasting, LineOptions, LoopOver, MateShape, MoveFilter, MoveWhen, PathExpr,
    PathFocus, PathStep, PathWord, PieceAtomKind, PieceDesignator, PositionWord, Region, Sort, Span, SquareDesignator,
    SquarePart, TextFunction, TextPart, TransformKind, UnaryOp, Word,
};
use super::check::{Type, numeric_in_name, type_of};
use super::context::GameTest;
use super::diagnostic::{Diagnostic, or_list, quoted, unknown_variant};
use super::mate_shapes::MateShapeNode;
use super::path::{FocusNode, PathFlags, PathNode, PathPlanStep};
use super::plan::{
    CommentNode, Conditional, DashNode, DashTarget, EchoBody, EchoNode, EntryNode, EqualSide, FilterNode, FindCount,
    FindNode, LineTests, LoopNode, MoveNode, Needs, NumberNode, PieceClass, PositionNode, Program, Sequence, SetNode,
    SetValue, SharedMovesNotes, SortKey, Step, StepBody, StepRange, StoreNode, SubstringNode, TextNode, TextValue,
    TransformNames, ValueNode, WalkNode, XRayNode,
};
use super::texts::Pattern;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::quick::{QuickPrefix, quick_prefix};
use super::refusals::refused_as_filter;
use super::simplify::simplify;
use super::state::Value;
use super::walk::{Walk, number_lines};
use super::{Quiet, SortSpec, body_sort_keys};

use crate::board::{File, Masks, Rank, Square, SquareSet};
use crate::position::{PositionView, Wing};
use crate::variant::vocabulary::{self, WordMeaning};
use crate::variant::{Color, KindSet, Piece, Role, Variant};

/// What a designator came to in a variant, for `cqlq explain`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesignatorReport {
    /// The designator as written.
    pub text: String,
    /// Where it is in the query.
    pub span: Span,
    /// The squares of its square designator (for a piece designator, where the pieces are looked
    /// for).
    pub squares: Vec<Square>,
    /// The backhand slots it covers, as piece symbols (`N`, `q`).
    pub backhand: Vec<String>,
    /// How each piece letter resolved: the letter as written and what it means here.
    pub letters: Vec<(String, String)>,
}

/// Compiles checked filters (and the header's `sort` value) for a variant.
pub(crate) fn compile<const W: usize>(
    variant: &'static Variant,
    filters: &[Expr],
    sort: Option<&Sort>,
    quiet: Quiet,
    source: &str,
) -> Result<(Program<W>, Vec<DesignatorReport>), Vec<Diagnostic>> {
    let masks = Masks::<W>::new(variant.geometry).expect("the variant's width holds its board");
    let mut compiler = Compiler {
        variant,
        masks,
        source,
        diagnostics: Vec::new(),
        reports: Vec::new(),
        game_tests: Vec::new(),
        mapping_work: 0,
        rotate45_squares: false,
        quiet,
        slots: HashMap::new(),
        persistent: Vec::new(),
        printed: Vec::new(),
        needs_parent: false,
        dictionary_slots: HashMap::new(),
        dictionaries: Vec::new(),
        dictionary_names: filters.iter().flat_map(dictionary_names).collect(),
        path_depth: 0,
        loop_slots: Vec::new(),
        sort_keys: body_sort_keys(sort.map(|sort| &sort.expr).into_iter().chain(filters)),
        shared_moves: 0,
    };
    let mut compiled: Vec<FilterNode<W>> = filters.iter().map(|filter| compiler.filter(filter)).collect();
    let mut exprs: Vec<&Expr> = filters.iter().collect();
    exprs.extend(sort.map(|sort| &sort.expr));
    let mut sort = sort.map(|sort| SortKey { value: compiler.number(&sort.expr), min: sort.min });
    let mut nodes: Vec<&mut dyn Walk<W>> = compiled.iter_mut().map(|filter| filter as &mut dyn Walk<W>).collect();
    nodes.extend(sort.as_mut().map(|sort| &mut sort.value as &mut dyn Walk<W>));
    number_lines(&mut nodes);
    for node in &mut nodes {
        simplify(*node, &compiler.masks);
    }
    if !compiler.diagnostics.is_empty() {
        return Err(compiler.diagnostics);
    }
    let removes_comments = exprs.iter().any(|expr| expr.any(&|expr| matches!(expr.kind, ExprKind::RemoveComment)));
    // Where `removecomment` ran in a game before, the position of that number loses its comment
    // in every later game, whether or not the query is tested there: every position is visited.
    let terminal = !removes_comments && only_terminal(filters, &exprs);
    let first_only = !removes_comments && only_first(filters, &exprs);
    let needs = Needs { terminal, first_only, parent: compiler.needs_parent, ..needs(&exprs) };
    let values = (0..variant.kinds())
        .map(|index| i64::from(variant.piece_type(crate::variant::Kind::new(index as u8)).value.unwrap_or(0)))
        .collect();
    let makes_notes = exprs.iter().any(|expr| {
        expr.any(&|expr| match &expr.kind {
            // A message names its position, which in a variation CQL 6.2 also writes there; so
            // does `str` of a position.
            ExprKind::Comment { .. }
            | ExprKind::SimilarPosition { .. }
            | ExprKind::Line { .. }
            | ExprKind::Path(_)
            | ExprKind::Echo { quiet: false, .. }
            | ExprKind::Find { quiet: false, .. }
            | ExprKind::ConsecutiveMoves { quiet: false, .. } => true,
            ExprKind::Str(parts) => {
                parts.iter().any(|part| matches!(part, TextPart::Value(value) if type_of(value) == Type::Position))
            }
            _ => false,
        })
    });
    let body_sorts: Vec<bool> = compiler.sort_keys.iter().map(|key| key.min).collect();
    let quick = if sort.is_none() && body_sorts.is_empty() { quick_prefix(&compiled) } else { QuickPrefix::default() };
    // A file read is said on the console, in the order of the games: it outlasts the game too.
    // A sort's value is written with the game whether its positions match or not.
    let lasting = compiled
        .iter()
        .zip(filters)
        .map(|(filter, expr)| {
            compiler.writes(filter).lasting
                || expr.reads_file()
                || expr.any(&|expr| matches!(expr.kind, ExprKind::Sort { .. }))
        })
        .collect();
    let program = Program {
        makes_notes,
        silent: quiet.comments,
        removes_comments,
        quick,
        lasting,
        masks: compiler.masks,
        filters: compiled,
        values,
        game_tests: compiler.game_tests,
        sort,
        body_sorts,
        shared_moves: compiler.shared_moves,
        needs,
        variable_names: variable_names(&compiler.slots),
        persistent: compiler.persistent,
        printed: compiler.printed,
        dictionaries: compiler.dictionaries,
    };
    Ok((program, compiler.reports))
}

/// The name of each variable, by slot.
fn variable_names(slots: &HashMap<String, usize>) -> Vec<String> {
    let mut names = vec![String::new(); slots.len()];
    for (name, &slot) in slots {
        names[slot] = name.clone();
    }
    names
}

/// The names of the dictionaries an expression uses.
fn dictionary_names(expr: &Expr) -> Vec<String> {
    let mut names = Vec::new();
    if let ExprKind::Dictionary { name, .. } = &expr.kind {
        names.push(name.clone());
    }
    names.extend(expr.children().into_iter().flat_map(dictionary_names));
    names
}

/// Whether only a position without a legal move can match the body, and the positions that
/// are not tested would have made no difference: either one of its filters (or of their `and`
/// chains) is `mate` or `stalemate` and no part of the query writes or reads anything
/// (variables, comments, messages, `sort` values, files) or repeats; or the first filter
/// tested is `mate` or `stalemate` (nothing after it is tested elsewhere) and the rest of the
/// query (a `sort` of the header) writes nothing.
fn only_terminal(filters: &[Expr], exprs: &[&Expr]) -> bool {
    let needs_no_move = |filter: &Expr| matches!(filter.kind, ExprKind::Word(Word::Mate | Word::Stalemate));
    let requires_no_move = filters.iter().flat_map(|filter| filter.operands(BinaryOp::And)).any(needs_no_move);
    if tested_first(filters).is_some_and(needs_no_move) && !writes_beside_filters(filters, exprs) {
        return true;
    }
    requires_no_move && !exprs.iter().any(|expr| expr.any(&writes))
}

/// Whether only the game's first position can match the body: the first filter tested is
/// `initial` (nothing after it is tested elsewhere), and the rest of the query (a `sort` of the
/// header) writes nothing.
fn only_first(filters: &[Expr], exprs: &[&Expr]) -> bool {
    tested_first(filters).is_some_and(|first| matches!(first.kind, ExprKind::Word(Word::Initial)))
        && !writes_beside_filters(filters, exprs)
}

/// The filter of the body tested first: the first operand of the first filter's `and` chain.
fn tested_first(filters: &[Expr]) -> Option<&Expr> {
    filters.first().and_then(|first| first.operands(BinaryOp::And).first().copied())
}

/// Whether a part of the query beside its filters (a `sort` of the header) writes anything.
fn writes_beside_filters(filters: &[Expr], exprs: &[&Expr]) -> bool {
    exprs.get(filters.len()..).unwrap_or_default().iter().any(|expr| expr.any(&writes))
}

/// Whether an expression writes or reads something beyond its position (variables, comments,
/// messages, `sort` values, files), or repeats.
fn writes(expr: &Expr) -> bool {
    effect(expr)
        || matches!(
            expr.kind,
            ExprKind::Assign { .. }
                | ExprKind::Comment { .. }
                | ExprKind::Sort { .. }
                | ExprKind::Repeat { .. }
                | ExprKind::Path(_)
                | ExprKind::Unbind(_)
                | ExprKind::Dictionary {
                    op: DictionaryOp::Store { .. } | DictionaryOp::Forget(_) | DictionaryOp::Walk { .. },
                    ..
                }
        )
}

/// Whether a filter looks at nothing but the position it is tested at and the line around it:
/// no variable (read or given), no comment, message or value to sort by. Its answer at a
/// position is then the same whenever it is asked.
fn looks_at_positions_only(filter: &Expr) -> bool {
    !filter.any(&|expr| {
        expr.kind.uses_variables()
            || matches!(
                expr.kind,
                ExprKind::Comment { .. }
                    | ExprKind::Sort { .. }
                    | ExprKind::Loop { .. }
                    | ExprKind::Echo { .. }
                    | ExprKind::Find { quiet: false, .. }
                    | ExprKind::Line { .. }
                    | ExprKind::Path(_)
                    | ExprKind::PathWord(_)
                    | ExprKind::Repeat { .. }
            )
    })
}

/// The filter whose value a block gives (its last), or the filter itself.
fn last_filter(expr: &Expr) -> Option<&Expr> {
    match &expr.kind {
        ExprKind::Block(filters) => filters.last(),
        _ => Some(expr),
    }
}

/// Whether a filter does anything beside its answer: writes, prints, reads a file, changes a
/// tag or a comment, or stops the run.
fn has_effects(filter: &Expr) -> bool {
    filter.any(&effect)
}

/// Whether an expression itself (not its parts) does something beside its answer.
fn effect(expr: &Expr) -> bool {
    matches!(
        expr.kind,
        ExprKind::WriteFile(..)
            | ExprKind::RemoveComment
            | ExprKind::SetTag(..)
            | ExprKind::Assert(_)
            | ExprKind::Abort
            | ExprKind::SimilarPosition { .. }
            | ExprKind::TextFunction { function: TextFunction::ReadFile, .. }
            | ExprKind::PathWord(_)
    )
}

/// Whether an expression inside a `piece` loop's body looks at the position the loop binds its
/// piece in and at nothing else, and makes no text, key or copy of a variable's value: where
/// the whole body does, the piece is on the square it was found on whenever it is read, and
/// the loop binds the square (no identity is followed from move to move).
fn stays_where_bound(expr: &Expr) -> bool {
    matches!(
        expr.kind,
        ExprKind::Number(_)
            | ExprKind::Squares(_)
            | ExprKind::Pieces(_)
            | ExprKind::Unary(..)
            | ExprKind::Binary(..)
            | ExprKind::Block(_)
            | ExprKind::Word(_)
            | ExprKind::Attacks { .. }
            | ExprKind::Between(..)
            | ExprKind::Pin { .. }
            | ExprKind::Shade { .. }
            | ExprKind::Power(_)
            | ExprKind::Variable { .. }
            | ExprKind::Loop { .. }
            | ExprKind::Assign { op: AssignOp::Arithmetic(_), .. }
    )
}

/// What the filters need from the replay.
fn needs(filters: &[&Expr]) -> Needs {
    let any = |test: &dyn Fn(&Expr) -> bool| filters.iter().any(|filter| filter.any(&|expr| test(expr)));
    let remarks = any(&|expr| matches!(expr.kind, ExprKind::OriginalComment | ExprKind::Glyph(_)));
    let game_text = any(&|expr| matches!(expr.kind, ExprKind::Word(Word::HasCook)));
    Needs {
        // The move played next is the one that led to the next position.
        previous_move: any(&|expr| {
            matches!(&expr.kind, ExprKind::Move(filter) if matches!(filter.when, MoveWhen::Previous | MoveWhen::Played))
                || matches!(
                    expr.kind,
                    ExprKind::Dash { .. }
                        | ExprKind::Word(Word::VirtualMainline)
                        | ExprKind::CurrentFen
                        | ExprKind::ConsecutiveMoves { .. }
                )
        }),
        // A comment follows its move, and the game's text is known once it is read: positions
        // are tested once their line is read.
        lookahead: remarks
            || game_text
            || any(&|expr| {
                matches!(
                    &expr.kind,
                    ExprKind::Line { .. }
                        | ExprKind::Path(_)
                        | ExprKind::PathWord(_)
                        | ExprKind::Word(Word::Terminal | Word::VirtualMainline)
                        | ExprKind::CurrentFen
                        | ExprKind::Find { .. }
                        | ExprKind::Position(_)
                        | ExprKind::Lca(..)
                        | ExprKind::Descends { .. }
                        | ExprKind::NumberedPosition(_)
                        | ExprKind::NumberedChild(_)
                        | ExprKind::At { .. }
                        | ExprKind::Echo { .. }
                        | ExprKind::Dash { .. }
                        | ExprKind::Variable { ty: Type::Position, .. }
                        | ExprKind::Dictionary { op: DictionaryOp::Entry { value: Type::Position, .. }, .. }
                        | ExprKind::Move(MoveFilter { when: MoveWhen::Played, .. })
                )
            }),
        identities: any(&|expr| {
            matches!(&expr.kind, ExprKind::Assign { op: AssignOp::Piece, .. } | ExprKind::PieceId(_))
                || matches!(&expr.kind, ExprKind::Path(path) if path.options.focus.is_some())
                || matches!(
                    &expr.kind,
                    ExprKind::Loop { over: LoopOver::Pieces, body, .. } if body.any(&|inner| !stays_where_bound(inner))
                )
        }),
        remarks,
        game_text,
        terminal: false,
        first_only: false,
        parent: false,
    }
}

pub(super) struct Compiler<'a, const W: usize> {
    pub(super) variant: &'static Variant,
    pub(super) masks: Masks<W>,
    source: &'a str,
    pub(super) diagnostics: Vec<Diagnostic>,
    reports: Vec<DesignatorReport>,
    game_tests: Vec<GameTest>,
    /// How many parts of filters the transforms' copies have mapped so far.
    pub(super) mapping_work: usize,
    /// Whether a `rotate45` met a particular square (which no eighth turn maps).
    pub(super) rotate45_squares: bool,
    /// What the header leaves out of the comments.
    quiet: Quiet,
    /// The slot of each variable.
    slots: HashMap<String, usize>,
    /// Whether the variable of each slot lasts from game to game.
    persistent: Vec<Option<Value<W>>>,
    /// The persistent variables printed at the end, in the order declared, with their slots.
    printed: Vec<(String, usize)>,
    /// Whether a `move previous` looks for its sets in the position before the move.
    needs_parent: bool,
    /// The slot of each dictionary.
    dictionary_slots: HashMap<String, usize>,
    /// Whether the dictionary of each slot lasts from game to game.
    dictionaries: Vec<bool>,
    /// The names of the query's dictionaries (which are always bound).
    dictionary_names: HashSet<String>,
    /// How many `path` filters hold the expression being compiled: the words about a path
    /// inside one are about it.
    path_depth: u32,
    /// The keys of the body's `sort` filters, in the order of their values.
    sort_keys: Vec<SortSpec>,
    /// How many `consecutivemoves` comment the moves they find.
    shared_moves: usize,
    /// The variables of the `square` and `piece` loops around the expression being compiled.
    loop_slots: Vec<usize>,
}

/// What a piece letter stands for.
enum Meaning {
    Pieces(PieceClass),
    Empty,
}

impl<const W: usize> Compiler<'_, W> {
    /// Where a byte offset lies in the query: `line L, column C`.
    fn location(&self, offset: usize) -> String {
        let (line, column) = super::diagnostic::line_column(self.source, offset);
        format!("line {line}, column {column}")
    }

    fn filter(&mut self, expr: &Expr) -> FilterNode<W> {
        if let Some(reason) = refused_as_filter(expr) {
            return FilterNode::Refused(reason.into());
        }
        // `P : F` refuses what F alone refuses, where P is found.
        if let ExprKind::At { position, body } = &expr.kind
            && let Some(reason) = refused_as_filter(body)
        {
            return FilterNode::At(self.position(position), Box::new(FilterNode::Refused(reason.into())));
        }
        // A dash tested as a filter tests its target as one, as CQL 6.2 does, though the target
        // is a set (`--(x & y)`, squares of two positions).
        if let ExprKind::Dash { target: Some(target), .. } = &expr.kind
            && type_of(target) == Type::Set
            && let Some(reason) = last_filter(target).and_then(refused_as_filter)
        {
            return FilterNode::Refused(reason.into());
        }
        // CQL 6.2 never matches `lowercase T` or `uppercase T` tested as a filter (whatever T).
        if let ExprKind::TextFunction { function: TextFunction::Lowercase | TextFunction::Uppercase, .. } = expr.kind {
            return FilterNode::Constant(false);
        }
        match &expr.kind {
            ExprKind::Unary(UnaryOp::Not, operand) => FilterNode::Not(Box::new(self.filter(operand))),
            // A chain of `and` (or of `or`) is one node, its filters tested in the order written.
            ExprKind::Binary(BinaryOp::And, ..) => {
                FilterNode::All(expr.operands(BinaryOp::And).into_iter().map(|operand| self.filter(operand)).collect())
            }
            ExprKind::Binary(BinaryOp::Or, ..) => {
                FilterNode::Any(expr.operands(BinaryOp::Or).into_iter().map(|operand| self.filter(operand)).collect())
            }
            ExprKind::Binary(BinaryOp::In, left, right) if type_of(left) == Type::Text => {
                FilterNode::TextIn(self.text(left), self.text(right))
            }
            ExprKind::Binary(BinaryOp::In, left, right) => FilterNode::Subset(self.set(left), self.set(right)),
            ExprKind::WriteFile(file, text) => FilterNode::WriteFile(self.text(file), self.text(text)),
            ExprKind::Glyph(glyph) => FilterNode::Glyph(*glyph),
            ExprKind::RemoveComment => FilterNode::RemoveComment,
            ExprKind::SimilarPosition { games, variable } => {
                FilterNode::Similar { games: games.clone(), slot: self.slot(variable, Lasting::Game) }
            }
            ExprKind::SetTag(name, value) => FilterNode::SetTag(Box::new((name.clone(), self.text(value)))),
            ExprKind::Assert(filter) => {
                FilterNode::Assert(Box::new((self.filter(filter), self.location(expr.span.start))))
            }
            ExprKind::Abort => {
                FilterNode::Refused(format!("cql_abort at {} stopped the run", self.location(expr.span.start)).into())
            }
            ExprKind::Binary(op, left, right) if op.is_comparison() => match (type_of(left), type_of(right)) {
                (Type::Set, Type::Set) if matches!(op, BinaryOp::Eq | BinaryOp::Ne) => {
                    let same = FilterNode::SameSquares(self.set(left), self.set(right));
                    if *op == BinaryOp::Eq { same } else { FilterNode::Not(Box::new(same)) }
                }
                (Type::Position, _) => FilterNode::ComparePositions(*op, self.position(left), self.position(right)),
                (Type::Text, _) => FilterNode::CompareTexts(*op, self.text(left), self.text(right)),
                _ => FilterNode::Compare(*op, self.number(left), self.number(right)),
            },
            // As in CQL 6.2, a block of one filter is that filter (which matters for the comments
            // it keeps when it fails), but for a line, a path or a variable.
            ExprKind::Block(filters) => match filters.as_slice() {
                [only]
                    if !matches!(only.kind, ExprKind::Line { .. } | ExprKind::Path(_) | ExprKind::Variable { .. }) =>
                {
                    self.filter(only)
                }
                _ => FilterNode::All(filters.iter().map(|filter| self.filter(filter)).collect()),
            },
            ExprKind::Word(word) if type_of(expr) == Type::Filter => self.word(*word, expr.span),
            ExprKind::Fen(text, span) => self.placement(text, *span),
            ExprKind::Path(path) => FilterNode::Path(Box::new(self.path(path))),
            ExprKind::Descends { ancestor, descendant, strict, later_first, keeps_notes } => FilterNode::Descends {
                ancestor: self.position(ancestor),
                descendant: self.position(descendant),
                strict: *strict,
                later_first: *later_first,
                keeps_notes: *keeps_notes,
            },
            ExprKind::PathWord(PathWord::Debug) => FilterNode::PathDebug,
            ExprKind::Line { options, constituents, bounds } => {
                let steps = self.steps(constituents);
                // Filters that change or print something are tested as CQL tests them: once
                // where the run it chooses reaches, in its order.
                let mut filters = constituents.iter().flat_map(Constituent::filters);
                let tests = if steps.iter().any(|step| self.step_writes(step)) {
                    LineTests::AsCql
                } else if filters.clone().any(|filter| {
                    filter.any(&|expr| {
                        expr.kind.uses_variables()
                            || matches!(expr.kind, ExprKind::TextFunction { function: TextFunction::ReadFile, .. })
                    })
                }) {
                    LineTests::InOrder
                } else if !options.nestban
                    && bounds.is_empty()
                    && filters.all(|filter| looks_at_positions_only(filter) && !has_effects(filter))
                {
                    LineTests::Positions
                } else {
                    LineTests::Plain
                };
                FilterNode::Line {
                    options: LineOptions { quiet: options.quiet || self.quiet.automatic, ..*options },
                    steps,
                    slot: 0,
                    tests,
                    bounds: match &bounds[..] {
                        [] => None,
                        [only] => Some(Box::new((self.number(only), self.number(only)))),
                        [low, high, ..] => Some(Box::new((self.number(low), self.number(high)))),
                    },
                }
            }
            ExprKind::Game(game) if type_of(expr) == Type::Filter => self.game(game, expr.span),
            // A special award not asked for matches, though it has no rank.
            ExprKind::Game(GameFilter::Award(award)) => FilterNode::Game(self.game_slot(GameTest::Awarded(*award))),
            // As a filter, a transform without `count` matches where a copy matches, whatever
            // the value of its body: the comments of the copies that fail are dropped, as CQL
            // 6.2 drops them.
            ExprKind::Transform { .. } if type_of(expr) == Type::Filter || transform_chain(expr).count.is_none() => {
                let TransformChain { transforms, body, .. } = transform_chain(expr);
                let copies = self.copies(&transforms, |compiler| compiler.filter(body));
                // A `find` that comments on the positions it finds writes too, and so does a
                // `sort` that keeps the game's best value: CQL 6.2 tries every copy.
                let records =
                    body.any(&|expr| matches!(expr.kind, ExprKind::Find { quiet: false, .. } | ExprKind::Sort { .. }));
                let exhaustive = records || copies.iter().any(|copy| self.writes(copy).any);
                FilterNode::Orbit { copies, exhaustive }
            }
            ExprKind::Assign { name, op, value, lasting } => {
                let slot = self.slot(name, *lasting);
                let holds_set = matches!(op, AssignOp::Union | AssignOp::Intersection) || type_of(value) == Type::Set;
                if lasting.is_persistent() && holds_set {
                    self.persistent[slot] = Some(Value::Set(SetValue::board(SquareSet::EMPTY)));
                }
                if lasting.is_persistent() && type_of(value) == Type::Text {
                    self.persistent[slot] = Some(Value::Text("".into()));
                }
                let value = match (op, type_of(value)) {
                    (_, Type::Position) => ValueNode::Position(self.position(value)),
                    (_, Type::Text) => ValueNode::Text(self.text(value)),
                    (
                        AssignOp::Set
                        | AssignOp::SetOrUnset
                        | AssignOp::Union
                        | AssignOp::Intersection
                        | AssignOp::Piece,
                        Type::Set,
                    ) => ValueNode::Set(self.set(value)),
                    _ => ValueNode::Number(self.number(value)),
                };
                FilterNode::Assign { slot, op: *op, value }
            }
            ExprKind::Dictionary { name, persistent, op } => self.dictionary_filter(name, *persistent, op),
            ExprKind::IsBound { name, bound } => {
                let holds = if self.dictionary_names.contains(name) {
                    FilterNode::Constant(true)
                } else {
                    FilterNode::IsBound(self.slot(name, Lasting::Game))
                };
                if *bound { holds } else { FilterNode::Not(Box::new(holds)) }
            }
            ExprKind::Unbind(name) => FilterNode::Unbind(self.slot(name, Lasting::Game)),
            // Tested as a filter, the branch that applies is tested as one, whatever its value
            // (as in CQL 6.2, which refuses `if check then 1 else 2` there).
            ExprKind::If { condition, then, otherwise } => FilterNode::If(Box::new(Conditional {
                condition: self.filter(condition),
                then: self.filter(then),
                otherwise: otherwise.as_ref().map(|otherwise| self.filter(otherwise)),
            })),
            ExprKind::Loop { all: true, .. } => FilterNode::LoopAll(Box::new(self.loop_node(expr))),
            ExprKind::Echo { .. } => FilterNode::Echo(Box::new(self.echo(expr))),
            ExprKind::Repeat { test, body } => {
                FilterNode::Repeat(test.as_ref().map(|test| Box::new(self.filter(test))), Box::new(self.filter(body)))
            }
            ExprKind::Dash { .. } if type_of(expr) == Type::Filter => FilterNode::Dash(Box::new(self.dash(expr))),
            ExprKind::NoTransform(body) if type_of(body) == Type::Filter => {
                FilterNode::Unmapped(Box::new(self.filter(body)))
            }
            ExprKind::Equal(first, second) => {
                FilterNode::Equal(Box::new([self.equal_side(first), self.equal_side(second)]))
            }
            ExprKind::Comment { message, quiet, parts } => FilterNode::Comment(Box::new(CommentNode {
                message: *message,
                quiet: *quiet,
                parts: parts.iter().map(|part| self.text_part(part)).collect(),
            })),
            ExprKind::At { position, body } if matches!(type_of(body), Type::Filter | Type::Text) => {
                FilterNode::At(self.position(position), Box::new(self.filter(body)))
            }
            _ => match type_of(expr) {
                Type::Set => set_filter(self.set(expr)),
                Type::Number => FilterNode::HasValue(self.number(expr)),
                Type::Position => FilterNode::HasPosition(self.position(expr)),
                Type::Text => FilterNode::HasText(self.text(expr)),
                Type::Filter => unreachable!("check: every filter form is handled above"),
            },
        }
    }

    /// How far a direction reaches: 1 to the edge without bounds; numbers checked against the
    /// board here, variables in each position.
    fn step_range(&mut self, bounds: &[Expr], span: Span) -> StepRange<W> {
        let constant = |bound: &Expr| match bound.kind {
            ExprKind::Number(value) => Some(value),
            _ => None,
        };
        let (low, high) = match bounds {
            [] => return StepRange::Fixed(1, None),
            [only] => (only, only),
            [low, high, ..] => (low, high),
        };
        let (Some(min), Some(max)) = (constant(low), constant(high)) else {
            return StepRange::Valued(Box::new((self.number(low), self.number(high))));
        };
        let geometry = self.masks.geometry();
        let longest = i64::from(geometry.longest_step());
        if min.abs() > longest || max.abs() > longest {
            let message = format!("a direction reaches at most {longest} steps either way on this board");
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        let clamp = |steps: i64| i32::try_from(steps.clamp(-longest, longest)).unwrap_or(0);
        StepRange::Fixed(clamp(min), Some(clamp(max)))
    }

    fn number(&mut self, expr: &Expr) -> NumberNode<W> {
        if numeric_in_name(expr) {
            let word = if expr.span.text(self.source).starts_with('d') { "descendant" } else { "ancestor" };
            let reason = format!(
                "'{word}(...)' at {} is a filter and has no numeric value (CQL 6.2 stops here too)",
                self.location(expr.span.start)
            );
            return NumberNode::Block(Box::new(Sequence {
                before: vec![FilterNode::Refused(reason.into())],
                last: NumberNode::Constant(0),
            }));
        }
        match &expr.kind {
            ExprKind::Number(value) => NumberNode::Constant(*value),
            ExprKind::Unary(UnaryOp::Count, text) if type_of(text) == Type::Text => {
                NumberNode::TextLength(Box::new(self.text(text)))
            }
            ExprKind::Unary(UnaryOp::Count, set) => NumberNode::Count(self.set(set)),
            ExprKind::TextFunction { function: TextFunction::Int, arg } => {
                NumberNode::TextToInt(Box::new(self.text(arg)))
            }
            ExprKind::TextFunction { function: TextFunction::Ascii, arg } => NumberNode::Code(Box::new(self.text(arg))),
            ExprKind::IndexOf(needle, haystack) => {
                NumberNode::IndexOf(Box::new((self.text(needle), self.text(haystack))))
            }
            ExprKind::RegexGroup { group, .. } => NumberNode::GroupStart(*group),
            ExprKind::Unary(UnaryOp::Negate, value) => NumberNode::Negate(Box::new(self.number(value))),
            ExprKind::Unary(UnaryOp::Abs, value) => NumberNode::Abs(Box::new(self.number(value))),
            ExprKind::Unary(UnaryOp::Sqrt, value) => NumberNode::Sqrt(Box::new(self.number(value))),
            ExprKind::Binary(op, left, right) if op.is_arithmetic() => {
                NumberNode::Arithmetic(*op, Box::new(self.number(left)), Box::new(self.number(right)))
            }
            ExprKind::Extreme { max, args } => {
                NumberNode::Extreme { max: *max, args: args.iter().map(|arg| self.number(arg)).collect() }
            }
            ExprKind::Word(Word::Ply) => NumberNode::Ply,
            ExprKind::Word(Word::MoveNumber) => NumberNode::MoveNumber,
            ExprKind::Word(Word::SideToMove) => NumberNode::SideToMove,
            ExprKind::Word(Word::White) => NumberNode::Constant(1),
            ExprKind::Word(Word::Black) => NumberNode::Constant(-1),
            ExprKind::Word(Word::GameNumber) => NumberNode::GameNumber,
            ExprKind::Word(Word::LastGameNumber) => NumberNode::LastGameNumber,
            ExprKind::Word(Word::PositionId) => NumberNode::PositionId,
            ExprKind::Word(Word::Depth) => NumberNode::Depth,
            ExprKind::FamilyWord(name) => match self.family_word(name, expr.span) {
                Some(WordMeaning::Counter { counter, side }) => NumberNode::Counter { counter, side },
                _ => NumberNode::Constant(0),
            },
            ExprKind::Sort { label, value, min, .. } => {
                NumberNode::Sorted { key: self.sort_key(label), smallest: *min, value: Box::new(self.number(value)) }
            }
            ExprKind::Distance(first, second) => {
                NumberNode::Distance(Box::new(self.position(first)), Box::new(self.position(second)))
            }
            ExprKind::ConsecutiveMoves { positions, min, max, quiet } => {
                let notes = self.shared_moves_notes(positions, *quiet);
                let positions = Box::new((self.position(&positions.0), self.position(&positions.1)));
                NumberNode::ConsecutiveMoves { positions, min: *min, max: *max, notes }
            }
            ExprKind::Binary(op, left, right) if op.is_comparison() => {
                NumberNode::Compared(*op, Box::new(self.number(left)), Box::new(self.number(right)))
            }
            ExprKind::Line { .. } => NumberNode::Line(Box::new(self.filter(expr))),
            ExprKind::Path(path) => NumberNode::Path(Box::new(self.path(path))),
            ExprKind::PathWord(PathWord::Count) => NumberNode::PathCount { inside: self.path_depth > 0 },
            ExprKind::Block(filters) if type_of(expr) == Type::Number => {
                NumberNode::Block(Box::new(self.sequence(filters, Self::number)))
            }
            ExprKind::Echo { .. } => NumberNode::Echo(Box::new(self.echo(expr))),
            ExprKind::Dash { .. } => NumberNode::Dash(Box::new(self.dash(expr))),
            ExprKind::NoTransform(body) => NumberNode::Unmapped(Box::new(self.number(body))),
            // `from` and `to` alone are sets in CQL 6.2, counted as sets are (a castling's two).
            ExprKind::Move(filter) if filter.castling_rook => NumberNode::Count(self.set(expr)),
            ExprKind::Move(filter) => match self.move_filter(filter, expr.span) {
                SetNode::Move(node) => NumberNode::MoveCount(node),
                _ => unreachable!("compile: a move filter is a move node"),
            },
            ExprKind::Find { quantity, backward, quiet, bounds, body } => {
                let (min, max) = match (quantity, &bounds[..]) {
                    (FindQuantity::Range, [low, high]) => (Some(self.number(low)), Some(self.number(high))),
                    (FindQuantity::Range, [exactly]) => (Some(self.number(exactly)), Some(self.number(exactly))),
                    (FindQuantity::Count, _) => (None, None),
                    _ => (Some(NumberNode::Constant(1)), None),
                };
                let find = FindNode {
                    backward: *backward,
                    quiet: *quiet || self.quiet.automatic,
                    pure: looks_at_positions_only(body) && !has_effects(body),
                    filter: self.filter(body),
                };
                NumberNode::FindCount(Box::new(FindCount { find, min, max }))
            }
            ExprKind::At { position, body } if type_of(body) == Type::Number => {
                NumberNode::At(Box::new(self.position(position)), Box::new(self.number(body)))
            }
            ExprKind::SquareNumber { what, set } => NumberNode::Square { what: *what, set: self.set(set) },
            ExprKind::Power(set) => NumberNode::Power(self.set(set)),
            ExprKind::PieceId(set) => NumberNode::PieceId(self.set(set)),
            ExprKind::Game(game) => match self.game(game, expr.span) {
                FilterNode::Game(slot) => NumberNode::Game(slot),
                _ => NumberNode::Constant(0),
            },
            ExprKind::Transform { .. } => match transform_chain(expr) {
                TransformChain { transforms, count: Some(bounds), body } => {
                    let copies = self.copies(&transforms, |compiler| compiler.filter(body));
                    let (min, max) = match bounds {
                        [low, high] => (Some(self.number(low)), Some(self.number(high))),
                        [exactly] => (Some(self.number(exactly)), Some(self.number(exactly))),
                        _ => (None, None),
                    };
                    NumberNode::OrbitCount { copies, min: min.map(Box::new), max: max.map(Box::new) }
                }
                TransformChain { transforms, count: None, body } => {
                    NumberNode::OrbitMax(self.copies(&transforms, |compiler| compiler.number(body)))
                }
            },
            ExprKind::Variable { name, ty: Type::Number } => NumberNode::Variable(self.slot(name, Lasting::Game)),
            ExprKind::Dictionary { name, persistent, op: DictionaryOp::Count } => {
                NumberNode::DictionarySize(self.dictionary_slot(name, *persistent))
            }
            ExprKind::Dictionary { name, persistent, op: DictionaryOp::Entry { key, value: Type::Number } } => {
                NumberNode::Entry(Box::new(self.entry(name, *persistent, key)))
            }
            ExprKind::If { condition, then, otherwise } if type_of(expr) == Type::Number => {
                NumberNode::If(Box::new(Conditional {
                    condition: self.filter(condition),
                    then: self.number(then),
                    otherwise: otherwise.as_ref().map(|otherwise| self.number(otherwise)),
                }))
            }
            // A set where a number is wanted stands for its size.
            _ => NumberNode::Count(self.set(expr)),
        }
    }

    fn set(&mut self, expr: &Expr) -> SetNode<W> {
        match &expr.kind {
            ExprKind::Squares(designator) => {
                let (squares, backhand) = self.squares(designator);
                let kinds = if backhand { self.variant.all_kinds() } else { KindSet::EMPTY };
                self.report(
                    designator.span,
                    squares,
                    if backhand { self.all_backhand_slots() } else { Vec::new() },
                    Vec::new(),
                );
                SetNode::Squares { squares, backhand: [kinds, kinds] }
            }
            ExprKind::Pieces(designator) => self.pieces(designator),
            ExprKind::Binary(BinaryOp::Union, left, right) => {
                SetNode::Union(Box::new(self.set(left)), Box::new(self.set(right)))
            }
            ExprKind::Binary(BinaryOp::Intersection, left, right) if type_of(left) == Type::Position => {
                SetNode::SameContents(Box::new((self.position(left), self.position(right))))
            }
            ExprKind::Binary(BinaryOp::Intersection, left, right) => {
                SetNode::Intersection(Box::new(self.set(left)), Box::new(self.set(right)))
            }
            ExprKind::Unary(UnaryOp::Complement, operand) => {
                let set = self.set(operand);
                let backhand = may_hold_backhand(&set);
                SetNode::Complement { set: Box::new(set), backhand }
            }
            ExprKind::Attacks { attackers, targets, side } => {
                self.need_rules(expr.span, "attacks", false);
                SetNode::Attacks {
                    attackers: Box::new(self.set(attackers)),
                    targets: Box::new(self.set(targets)),
                    side: *side,
                }
            }
            ExprKind::Between(first, second) => SetNode::Between(Box::new(self.set(first)), Box::new(self.set(second))),
            ExprKind::MateShape { shape, stalemate } => self.mate_shape(*shape, *stalemate, expr.span),
            ExprKind::FamilyWord(name) => self.family_set(name, expr.span),
            ExprKind::Word(word) => SetNode::Unmapped(Box::new(self.pawn_structure(*word))),
            ExprKind::Arrows { forward, sets } if sets.len() == 2 => {
                self.need_rules(expr.span, "->", false);
                let (left, right) = (Box::new(self.set(&sets[0])), Box::new(self.set(&sets[1])));
                if *forward {
                    SetNode::Attacks { attackers: left, targets: right, side: AttackSide::Attackers }
                } else {
                    SetNode::Attacks { attackers: right, targets: left, side: AttackSide::Targets }
                }
            }
            ExprKind::Arrows { forward: true, sets } => self.xray(sets.iter(), false),
            // A chain to the left is the chain to the right read backwards; its value is still
            // the squares of the set written first.
            ExprKind::Arrows { forward: false, sets } => self.xray(sets.iter().rev(), true),
            ExprKind::XRay(sets) => self.xray(sets.iter(), true),
            ExprKind::Ray { directions, sets } => {
                let all = [super::ast::Direction::Any];
                let directions = if directions.is_empty() { &all[..] } else { &directions[..] };
                let mut steps: Vec<(i32, i32)> = Vec::new();
                for step in directions.iter().flat_map(|direction| direction.steps()) {
                    if !steps.contains(step) {
                        steps.push(*step);
                    }
                }
                SetNode::Ray { steps, sets: sets.iter().map(|set| self.set(set)).collect() }
            }
            ExprKind::Pin { from, through, to, value } => {
                self.need_rules(expr.span, "pin", true);
                let everywhere = SetNode::Squares { squares: self.masks.full(), backhand: [KindSet::EMPTY; 2] };
                let kings = self.kings();
                let mut optional = |set: &Option<Box<Expr>>, default: SetNode<W>| {
                    Box::new(set.as_ref().map_or(default, |set| self.set(set)))
                };
                let eager = [from, through, to]
                    .into_iter()
                    .flatten()
                    .any(|set| !looks_at_positions_only(set) || has_effects(set));
                let from = optional(from, everywhere.clone());
                let through = optional(through, everywhere);
                SetNode::Pin {
                    from,
                    plain_through: through.is_plain(),
                    through,
                    to: optional(to, kings),
                    value: *value,
                    eager,
                }
            }
            ExprKind::Shade { light, set } => SetNode::Shade { light: *light, set: Box::new(self.set(set)) },
            ExprKind::MakeSquare(file, rank) => {
                SetNode::MakeSquare(Box::new(self.number(file)), Box::new(self.number(rank)))
            }
            ExprKind::SquareNamed(name) => SetNode::SquareNamed(Box::new(self.text(name))),
            ExprKind::Direction { direction, bounds, set } => SetNode::Direction {
                steps: direction.steps().to_vec(),
                range: self.step_range(bounds, expr.span),
                set: Box::new(self.set(set)),
            },
            ExprKind::Move(filter) => self.move_filter(filter, expr.span),
            ExprKind::Transform { .. } => {
                let TransformChain { transforms, body, .. } = transform_chain(expr);
                SetNode::Orbit(self.copies(&transforms, |compiler| compiler.set(body)))
            }
            ExprKind::Variable { name, .. } => SetNode::Variable(self.slot(name, Lasting::Game)),
            ExprKind::Dictionary { name, persistent, op: DictionaryOp::Entry { key, .. } } => {
                SetNode::Entry(Box::new(self.entry(name, *persistent, key)))
            }
            ExprKind::If { condition, then, otherwise } => SetNode::If(Box::new(Conditional {
                condition: self.filter(condition),
                then: self.set(then),
                otherwise: otherwise.as_ref().map(|otherwise| self.set(otherwise)),
            })),
            ExprKind::Loop { .. } => SetNode::Loop(Box::new(self.loop_node(expr))),
            ExprKind::At { position, body } => SetNode::At(Box::new(self.position(position)), Box::new(self.set(body))),
            ExprKind::Block(filters) => SetNode::Block(Box::new(self.sequence(filters, Self::set))),
            ExprKind::Dash { .. } => SetNode::Dash(Box::new(self.dash(expr))),
            ExprKind::NoTransform(body) => SetNode::Unmapped(Box::new(self.set(body))),
            _ => unreachable!("check: only sets reach here"),
        }
    }

    // ----- Variables and loops ------------------------------------------------------------------

    /// The slot of a variable, given on first use; `persistent` marks it as lasting from game
    /// to game (a number starting from 0 unless it holds a set), printed at the end unless quiet.
    fn slot(&mut self, name: &str, lasting: Lasting) -> usize {
        let next = self.slots.len();
        let slot = *self.slots.entry(name.to_owned()).or_insert(next);
        if slot == self.persistent.len() {
            self.persistent.push(None);
        }
        if lasting.is_persistent() && self.persistent[slot].is_none() {
            self.persistent[slot] = Some(Value::Number(0));
            if lasting == Lasting::Run {
                self.printed.push((name.to_owned(), slot));
            }
        }
        slot
    }

    /// The slot of a dictionary, given on first use.
    fn dictionary_slot(&mut self, name: &str, persistent: bool) -> usize {
        let next = self.dictionary_slots.len();
        let slot = *self.dictionary_slots.entry(name.to_owned()).or_insert(next);
        if slot == self.dictionaries.len() {
            self.dictionaries.push(persistent);
        }
        slot
    }

    /// The entry of a key in a dictionary.
    fn entry(&mut self, name: &str, persistent: bool, key: &Expr) -> EntryNode<W> {
        EntryNode { dictionary: self.dictionary_slot(name, persistent), key: self.value(key) }
    }

    /// A side of `equal(X Y)`: a filter (which gives whether it matched) or a value.
    fn equal_side(&mut self, expr: &Expr) -> EqualSide<W> {
        match type_of(expr) {
            Type::Filter => EqualSide::Matched(self.filter(expr)),
            _ => EqualSide::Value(self.value(expr)),
        }
    }

    /// A value to keep, of its own type.
    fn value(&mut self, expr: &Expr) -> ValueNode<W> {
        match type_of(expr) {
            Type::Position => ValueNode::Position(self.position(expr)),
            Type::Text => ValueNode::Text(self.text(expr)),
            Type::Set => ValueNode::Set(self.set(expr)),
            _ => ValueNode::Number(self.number(expr)),
        }
    }

    /// A dictionary's use as a filter.
    fn dictionary_filter(&mut self, name: &str, persistent: bool, op: &DictionaryOp) -> FilterNode<W> {
        let dictionary = self.dictionary_slot(name, persistent);
        match op {
            DictionaryOp::Declare => FilterNode::Constant(true),
            DictionaryOp::Entry { key, .. } => FilterNode::HasEntry(Box::new(self.entry(name, persistent, key))),
            DictionaryOp::Store { key, value } => FilterNode::Store(Box::new(StoreNode {
                entry: self.entry(name, persistent, key),
                value: self.value(value),
            })),
            // CQL 6.2 stops the run where a count's value is dropped.
            DictionaryOp::Count => FilterNode::Refused(
                format!(
                    "#{name} alone counts the dictionary's keys and drops the count: compare it, as in #{name} > 2"
                )
                .into(),
            ),
            DictionaryOp::Forget(key) => {
                FilterNode::Forget { dictionary, key: key.as_ref().map(|key| Box::new(self.value(key))) }
            }
            DictionaryOp::Walk { variable, body } => FilterNode::Walk(Box::new(WalkNode {
                dictionary,
                variable: self.slot(variable, Lasting::Game),
                body: self.filter(body),
            })),
        }
    }

    /// A block whose last filter has a value: the filters before it, and that value.
    fn sequence<T>(&mut self, filters: &[Expr], last: impl FnOnce(&mut Self, &Expr) -> T) -> Sequence<T, W> {
        let (final_filter, before) = filters.split_last().expect("a block with a value has a last filter");
        Sequence { before: before.iter().map(|filter| self.filter(filter)).collect(), last: last(self, final_filter) }
    }

    /// The pawns of a pawn structure word, of both sides, as CQL 6.2 defines them from
    /// directions: passed `P & ~down (horizontal 0 1 p)`, connected `P & horizontal 1 (vertical
    /// P)`, doubled `P & vertical P` (and the same for black), isolated the pawns not connected.
    fn pawn_structure(&mut self, word: Word) -> SetNode<W> {
        let pawns = |color: Color| {
            let kinds = self.variant.kind_of_role(Role::Pawn).map_or(KindSet::EMPTY, KindSet::single);
            SetNode::Pieces {
                classes: vec![PieceClass { color, kinds, level: None }],
                empty: false,
                squares: self.masks.full(),
                backhand: false,
            }
        };
        let direction = |steps: &[(i32, i32)], min: i32, max: Option<i32>, set: SetNode<W>| SetNode::Direction {
            steps: steps.to_vec(),
            range: StepRange::Fixed(min, max),
            set: Box::new(set),
        };
        let and = |left: SetNode<W>, right: SetNode<W>| SetNode::Intersection(Box::new(left), Box::new(right));
        let not = |set: SetNode<W>| SetNode::Complement { set: Box::new(set), backhand: false };
        let (horizontal, vertical) = ([(-1, 0), (1, 0)], [(0, 1), (0, -1)]);
        let connected = |color: Color| {
            and(pawns(color), direction(&horizontal, 1, Some(1), direction(&vertical, 0, None, pawns(color))))
        };
        let both = |side: &dyn Fn(Color) -> SetNode<W>| {
            SetNode::Union(Box::new(side(Color::White)), Box::new(side(Color::Black)))
        };
        match word {
            Word::PassedPawns => both(&|color: Color| {
                // The squares behind the enemy pawns (and beside those) are not passed.
                let behind_enemy = if color == Color::White { [(0, -1)] } else { [(0, 1)] };
                let enemy_files = direction(&horizontal, 0, Some(1), pawns(color.other()));
                and(pawns(color), not(direction(&behind_enemy, 1, None, enemy_files)))
            }),
            Word::ConnectedPawns => both(&connected),
            Word::DoubledPawns => both(&|color: Color| and(pawns(color), direction(&vertical, 1, None, pawns(color)))),
            _ => and(both(&pawns), not(both(&connected))),
        }
    }

    /// The variant's kinds of pieces that play the roles.
    fn kinds_of_roles(&self, roles: &[Role]) -> KindSet {
        roles
            .iter()
            .filter_map(|&role| self.variant.kind_of_role(role))
            .fold(KindSet::EMPTY, |kinds, kind| kinds.union(KindSet::single(kind)))
    }

    /// An x-ray chain through the sets, in order; its value is the last set's squares (with
    /// `last`) or the first's.
    fn xray<'e>(&mut self, sets: impl Iterator<Item = &'e Expr>, last: bool) -> SetNode<W> {
        let sets = sets.map(|set| self.set(set)).collect();
        let kinds = |roles: &[Role]| self.kinds_of_roles(roles);
        SetNode::XRay(Box::new(XRayNode {
            sets,
            last,
            orthogonal: kinds(&[Role::Rook, Role::Queen]),
            diagonal: kinds(&[Role::Bishop, Role::Queen]),
        }))
    }

    /// A text.
    fn text(&mut self, expr: &Expr) -> TextValue<W> {
        match &expr.kind {
            ExprKind::TypeName(set) => TextValue::PieceLetter { set: self.set(set), colored: false },
            ExprKind::PieceName(set) => TextValue::PieceLetter { set: self.set(set), colored: true },
            ExprKind::Text(text) => TextValue::Literal(text.as_str().into()),
            ExprKind::Tag(tag) => TextValue::Game(self.game_slot(GameTest::Text(tag.clone()))),
            ExprKind::Variable { name, .. } => TextValue::Variable(self.slot(name, Lasting::Game)),
            ExprKind::Dictionary { name, persistent, op: DictionaryOp::Entry { key, .. } } => {
                TextValue::Entry(Box::new(self.entry(name, *persistent, key)))
            }
            ExprKind::Binary(op, left, right) if op.is_comparison() => {
                TextValue::Compared(*op, Box::new(self.text(left)), Box::new(self.text(right)))
            }
            ExprKind::Binary(_, left, right) => {
                TextValue::Concat(Box::new(self.text(left)), Box::new(self.text(right)))
            }
            ExprKind::TextFunction { function, arg } => match function {
                TextFunction::Ascii => TextValue::Character(Box::new(self.number(arg))),
                TextFunction::ReadFile => TextValue::ReadFile(Box::new(self.text(arg))),
                function => {
                    TextValue::Case { upper: *function == TextFunction::Uppercase, text: Box::new(self.text(arg)) }
                }
            },
            ExprKind::Str(parts) => TextValue::Str(parts.iter().map(|part| self.text_part(part)).collect()),
            ExprKind::Substring { text, start, end, range } => TextValue::Substring(Box::new(SubstringNode {
                text: self.text(text),
                start: start.as_ref().map(|start| self.number(start)),
                end: end.as_ref().map(|end| self.number(end)),
                range: *range,
            })),
            ExprKind::RegexMatch { text, pattern } => match Pattern::new(pattern) {
                Ok(pattern) => TextValue::Match(Box::new(self.text(text)), pattern),
                Err(_) => TextValue::Literal("".into()),
            },
            ExprKind::RegexGroup { group, .. } => TextValue::Group(*group),
            ExprKind::CurrentFen => TextValue::Fen,
            ExprKind::Word(Word::CurrentTransform) => TextValue::Transform(TransformNames::default()),
            ExprKind::OriginalComment => TextValue::OriginalComment,
            ExprKind::Extreme { max, args } => {
                TextValue::Extreme { max: *max, args: args.iter().map(|arg| self.text(arg)).collect() }
            }
            ExprKind::At { position, body } => {
                TextValue::At(Box::new(self.position(position)), Box::new(self.text(body)))
            }
            ExprKind::Block(filters) => TextValue::Block(Box::new(self.sequence(filters, Self::text))),
            ExprKind::NoTransform(body) => TextValue::Unmapped(Box::new(self.text(body))),
            ExprKind::Dash { .. } => TextValue::Dash(Box::new(self.dash(expr))),
            ExprKind::Sort { label, value, min, .. } => {
                TextValue::Sorted { key: self.sort_key(label), smallest: *min, value: Box::new(self.text(value)) }
            }
            ExprKind::If { condition, then, otherwise } => TextValue::If(Box::new(Conditional {
                condition: self.filter(condition),
                then: self.text(then),
                otherwise: otherwise.as_ref().map(|otherwise| self.text(otherwise)),
            })),
            _ => unreachable!("check: only texts reach here"),
        }
    }

    /// How a `consecutivemoves` of these two position variables comments the moves it finds,
    /// unless it is `quiet` or the query writes no such comments.
    fn shared_moves_notes(&mut self, positions: &(Expr, Expr), quiet: bool) -> Option<Box<SharedMovesNotes>> {
        let name = |expr: &Expr| match &expr.kind {
            ExprKind::Variable { name, .. } => Some(name.clone()),
            _ => None,
        };
        let names = (name(&positions.0)?, name(&positions.1)?);
        if quiet || self.quiet.automatic || self.quiet.comments {
            return None;
        }
        self.shared_moves += 1;
        Some(Box::new(SharedMovesNotes { key: self.shared_moves - 1, names }))
    }

    /// The key of the body's `sort` filter with this label.
    fn sort_key(&self, label: &Option<String>) -> usize {
        let label = label.as_deref().unwrap_or_default();
        self.sort_keys.iter().position(|key| key.label == label).expect("every sort of the body has a key")
    }

    /// A position.
    fn position(&mut self, expr: &Expr) -> PositionNode<W> {
        match &expr.kind {
            ExprKind::Position(word) => match word {
                PositionWord::Current => PositionNode::Current,
                PositionWord::Initial => PositionNode::Initial,
                PositionWord::Parent => PositionNode::Parent,
                PositionWord::Child(variation) => PositionNode::Child(*variation),
            },
            ExprKind::Variable { name, .. } => PositionNode::Variable(self.slot(name, Lasting::Game)),
            ExprKind::Dictionary { name, persistent, op: DictionaryOp::Entry { key, .. } } => {
                PositionNode::Entry(Box::new(self.entry(name, *persistent, key)))
            }
            ExprKind::Find { backward, quiet, body, .. } => {
                let quiet = *quiet || self.quiet.automatic;
                let pure = looks_at_positions_only(body) && !has_effects(body);
                PositionNode::Find(Box::new(FindNode { backward: *backward, quiet, pure, filter: self.filter(body) }))
            }
            ExprKind::Lca(first, second) => {
                PositionNode::Lca(Box::new(self.position(first)), Box::new(self.position(second)))
            }
            ExprKind::NumberedPosition(number) => PositionNode::Numbered(Box::new(self.number(number))),
            ExprKind::NumberedChild(number) => PositionNode::NumberedChild(Box::new(self.number(number))),
            ExprKind::At { position, body } => {
                PositionNode::At(Box::new(self.position(position)), Box::new(self.position(body)))
            }
            ExprKind::Block(filters) => PositionNode::Block(Box::new(self.sequence(filters, Self::position))),
            ExprKind::NoTransform(body) => PositionNode::Unmapped(Box::new(self.position(body))),
            ExprKind::Line { .. } => PositionNode::Line(Box::new(self.filter(expr))),
            ExprKind::Path(path) => PositionNode::Path(Box::new(self.path(path))),
            ExprKind::PathWord(PathWord::Start) => PositionNode::PathStart { inside: self.path_depth > 0 },
            ExprKind::PathWord(PathWord::LastPosition) => PositionNode::PathLast { inside: self.path_depth > 0 },
            ExprKind::If { condition, then, otherwise } => PositionNode::If(Box::new(Conditional {
                condition: self.filter(condition),
                then: self.position(then),
                otherwise: otherwise.as_ref().map(|otherwise| self.position(otherwise)),
            })),
            // The side written on the left, where the two are so related.
            ExprKind::Descends { ancestor, descendant, later_first, .. } => {
                let left = if *later_first { descendant } else { ancestor };
                PositionNode::If(Box::new(Conditional {
                    condition: self.filter(expr),
                    then: self.position(left),
                    otherwise: None,
                }))
            }
            _ => unreachable!("check: only positions reach here"),
        }
    }

    /// A `path`: its options, focus, `max` and constituents.
    fn path(&mut self, path: &PathExpr) -> PathNode<W> {
        let options = &path.options;
        self.path_depth += 1;
        let focus = match &options.focus {
            Some(PathFocus::Pieces { set, capture }) => {
                Some(FocusNode::Pieces { set: self.set(set), capture: *capture })
            }
            Some(PathFocus::SideToMove) => Some(FocusNode::SideToMove),
            None => None,
        };
        let max = options.max.as_ref().map(|max| self.number(max));
        let bounds = match &options.bounds[..] {
            [] => None,
            [low] => Some(Box::new((self.number(low), None))),
            [low, high, ..] => Some(Box::new((self.number(low), Some(self.number(high))))),
        };
        let steps = path.steps.iter().map(|step| self.path_step(step)).collect();
        self.path_depth -= 1;
        let flags = PathFlags {
            range: options.range,
            quiet: options.quiet,
            quiet_header: self.quiet.automatic,
            silent: self.quiet.comments,
            nestban: options.nestban,
            firstmatch: options.firstmatch,
            primary: options.primary,
            verbose: options.verbose,
            keepallbest: options.keepallbest,
            piecepath: options.piecepath,
            title: options.title.as_deref().map(Arc::from),
        };
        let atomics = path.atomics.iter().map(|name| self.slot(name, Lasting::Game)).collect();
        // A move tested ahead of the search must look at the positions only and do nothing else.
        let pure_dashes = path
            .steps
            .iter()
            .flat_map(PathStep::dashes)
            .all(|dash| looks_at_positions_only(dash) && !has_effects(dash));
        PathNode { steps, focus, max, bounds, flags, atomics, slot: 0, guard: None }.guarded(pure_dashes)
    }

    /// A constituent of a path; a dash's target is a filter there, whatever its last value.
    fn path_step(&mut self, step: &PathStep) -> PathPlanStep<W> {
        match step {
            PathStep::Filter(filter) => PathPlanStep::Filter(self.memo_filter(filter)),
            PathStep::Move(dash) => {
                let ExprKind::Dash { from, to, capture, promote, target, when } = &dash.kind else {
                    unreachable!("parse: a path's move is a dash")
                };
                let bare = ExprKind::Dash {
                    from: from.clone(),
                    to: to.clone(),
                    capture: *capture,
                    promote: promote.clone(),
                    target: None,
                    when: *when,
                };
                let mut node = self.dash(&Expr { kind: bare, span: dash.span });
                node.target = target.as_ref().map(|target| DashTarget::Filter(self.memo_filter(target)));
                PathPlanStep::Move(node)
            }
            PathStep::Group(steps) => PathPlanStep::Group(steps.iter().map(|step| self.path_step(step)).collect()),
            PathStep::Repeat { step, min, max } => {
                PathPlanStep::Repeat { step: Box::new(self.path_step(step)), min: *min, max: *max }
            }
        }
    }

    /// A filter tested again and again at the same positions (a path's constituent): its
    /// answers are kept when it looks at nothing but the positions and does nothing else.
    fn memo_filter(&mut self, filter: &Expr) -> FilterNode<W> {
        let node = self.filter(filter);
        if looks_at_positions_only(filter) && !has_effects(filter) { FilterNode::Memo(Box::new(node)) } else { node }
    }

    /// A move dash.
    fn dash(&mut self, expr: &Expr) -> DashNode<W> {
        let ExprKind::Dash { from, to, capture, promote, target, when } = &expr.kind else {
            unreachable!("compile: a dash node from a dash")
        };
        let promote = promote.as_ref().map(|promote| match self.set(promote) {
            SetNode::Pieces { classes, .. } => {
                classes.iter().fold(KindSet::EMPTY, |kinds, class| kinds.union(class.kinds))
            }
            _ => KindSet::EMPTY,
        });
        let target = target.as_ref().map(|target| match type_of(target) {
            Type::Number => DashTarget::Number(self.number(target)),
            Type::Set => DashTarget::Set(self.set(target)),
            Type::Text => DashTarget::Text(self.text(target)),
            _ => DashTarget::Filter(self.filter(target)),
        });
        if *when == DashWhen::Previous {
            self.needs_parent = true;
        }
        DashNode {
            from: from.as_ref().map(|from| self.set(from)),
            to: to.as_ref().map(|to| self.set(to)),
            capture: *capture,
            promote,
            target,
            when: *when,
        }
    }

    /// An `echo`.
    fn echo(&mut self, expr: &Expr) -> EchoNode<W> {
        let ExprKind::Echo { source, target, all, quiet, body } = &expr.kind else {
            unreachable!("compile: an echo node from an echo")
        };
        EchoNode {
            source: (self.slot(source, Lasting::Game), source.clone()),
            target: (self.slot(target, Lasting::Game), target.clone()),
            all: *all,
            quiet: *quiet || self.quiet.automatic,
            body: if type_of(body) == Type::Number {
                EchoBody::Number(self.number(body))
            } else {
                EchoBody::Filter(self.filter(body))
            },
        }
    }

    /// A part of a comment's text.
    fn text_part(&mut self, part: &TextPart) -> TextNode<W> {
        let TextPart::Value(expr) = part else {
            let TextPart::Text(text) = part else { unreachable!("a text part is text or a value") };
            return TextNode::Text(text.clone());
        };
        match (&expr.kind, type_of(expr)) {
            (ExprKind::Variable { name, .. }, _) => {
                TextNode::Variable { slot: self.slot(name, Lasting::Game), name: name.clone() }
            }
            (_, Type::Number) => TextNode::Number(self.number(expr)),
            (_, Type::Set) => TextNode::Set(self.set(expr)),
            (_, Type::Position) => TextNode::Position(self.position(expr)),
            (_, Type::Text) => TextNode::TextValue(self.text(expr)),
            (_, Type::Filter) => TextNode::Filter(self.filter(expr)),
        }
    }

    /// A `square` or `piece` loop.
    fn loop_node(&mut self, expr: &Expr) -> LoopNode<W> {
        let ExprKind::Loop { over, name, set, body, .. } = &expr.kind else {
            unreachable!("compile: a loop node from a loop")
        };
        let slot = self.slot(name, Lasting::Game);
        let mut set = self.set(set);
        if self.loop_slots.contains(&slot) {
            // CQL 6.2 stops the run where a loop's variable is bound already, by a loop around.
            let reason = format!(
                "the loop on {name} is inside another loop on {name}, which gives {name} its value: \
                 name the inner loop's variable otherwise"
            );
            set = SetNode::Block(Box::new(Sequence { before: vec![FilterNode::Refused(reason.into())], last: set }));
        }
        self.loop_slots.push(slot);
        let body = self.filter(body);
        self.loop_slots.pop();
        LoopNode { over: *over, slot, set, body }
    }

    // ----- Positions, moves and games ------------------------------------------------------------

    /// Reports a filter that needs rules of attack and moves (and with `check`, check) that
    /// the variant lacks, or cqlq does not have for it.
    fn need_rules(&mut self, span: Span, what: &str, check: bool) {
        let (variant, capabilities) = (self.variant, self.variant.capabilities);
        let message = if check && !capabilities.check {
            let why = capabilities.instead_of_check.map(|why| format!(": {why}")).unwrap_or_default();
            format!("'{what}' needs check, and {} has no check{why}", variant.name)
        } else if !capabilities.played {
            format!("'{what}' needs the rules of attack and moves of {}, which cqlq does not play yet", variant.name)
        } else {
            return;
        };
        self.diagnostics.push(Diagnostic::new(span, message));
    }

    /// What a word of the variants' vocabularies means in this variant, reporting a word it
    /// lacks.
    fn family_word(&mut self, name: &str, span: Span) -> Option<WordMeaning> {
        if let Some(word) = self.variant.vocabulary().word(name) {
            return Some(word.meaning);
        }
        let message = format!(
            "{} is a word of {}, and {} has no such word",
            quoted(name),
            or_list(&vocabulary::variants_knowing(name)),
            self.variant.name
        );
        self.diagnostics.push(Diagnostic::new(span, message));
        None
    }

    /// A set word of the variant's vocabulary: fixed squares (which transforms leave where
    /// they are), or a set its rules find.
    fn family_set(&mut self, name: &str, span: Span) -> SetNode<W> {
        match self.family_word(name, span) {
            Some(WordMeaning::Squares(names)) => {
                let geometry = &self.variant.geometry;
                let squares = names
                    .iter()
                    .filter_map(|name| geometry.parse_square(name).ok())
                    .fold(SquareSet::EMPTY, SquareSet::with);
                SetNode::Unmapped(Box::new(SetNode::Squares { squares, backhand: [KindSet::EMPTY; 2] }))
            }
            Some(WordMeaning::RulesSet(set)) => SetNode::Rules(set),
            Some(WordMeaning::Marked(mark)) => SetNode::Marked(mark),
            _ => SetNode::Squares { squares: SquareSet::EMPTY, backhand: [KindSet::EMPTY; 2] },
        }
    }

    fn word(&mut self, word: Word, span: Span) -> FilterNode<W> {
        if word.needs_check() {
            let check = word != Word::Stalemate || !self.variant.capabilities.stalemate_without_check;
            self.need_rules(span, word.text(), check);
        }
        match word {
            Word::Wtm => FilterNode::Turn(Color::White),
            Word::Btm => FilterNode::Turn(Color::Black),
            Word::Check => FilterNode::Check,
            Word::Mate => FilterNode::NoMove { check: true },
            Word::Stalemate => FilterNode::NoMove { check: false },
            Word::Initial => FilterNode::Initial,
            Word::Terminal => FilterNode::Terminal,
            Word::True => FilterNode::Constant(true),
            Word::False => FilterNode::Constant(false),
            Word::Mainline => FilterNode::Mainline(true),
            Word::Variation => FilterNode::Mainline(false),
            Word::VirtualMainline => FilterNode::VirtualMainline,
            Word::Primary => FilterNode::Branch(false),
            Word::Secondary => FilterNode::Branch(true),
            Word::HasCook => FilterNode::HasCook,
            // Numbers and sets are compiled as values (Word::value_type).
            _ => unreachable!("check: {} is a {:?}", word.text(), word.value_type()),
        }
    }

    /// The kings of both sides (where the variant has a royal piece).
    fn kings(&self) -> SetNode<W> {
        let classes = match self.variant.kind_of_role(Role::King) {
            Some(king) => Color::ALL
                .into_iter()
                .map(|color| PieceClass { color, kinds: KindSet::single(king), level: None })
                .collect(),
            None => Vec::new(),
        };
        SetNode::Pieces { classes, empty: false, squares: self.masks.full(), backhand: false }
    }

    /// `puremate` and the other mate shapes, with the variant's pieces they look at.
    fn mate_shape(&mut self, shape: MateShape, stalemate: bool, span: Span) -> SetNode<W> {
        let word = span.text(self.source).to_owned();
        self.need_rules(span, &word, true);
        if self.variant.kind_of_role(Role::King).is_none() {
            let message = format!("'{word}' looks around a king, and {} has none", self.variant.name);
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        let kinds = |roles: &[Role]| self.kinds_of_roles(roles);
        SetNode::MateShape(Box::new(MateShapeNode {
            shape,
            stalemate,
            king: kinds(&[Role::King]),
            orthogonal: kinds(&[Role::Rook, Role::Queen]),
            diagonal: kinds(&[Role::Bishop, Role::Queen]),
            officers: kinds(&[Role::Rook, Role::Knight, Role::Bishop, Role::Queen]),
        }))
    }

    /// `fen "board"`: the squares of every piece of the variant in that board.
    fn placement(&mut self, text: &str, span: Span) -> FilterNode<W> {
        let Some(board) = text.split_whitespace().next() else {
            let message =
                "'fen' takes the board part of a FEN, such as \"4k3/8/8/8/8/8/8/4K3\", and this text is empty";
            self.diagnostics.push(Diagnostic::new(span, message));
            return FilterNode::Constant(false);
        };
        match crate::notation::fen::read::<W>(self.variant, &format!("{board} w - - 0 1")) {
            Ok(setup) => FilterNode::Placement(
                Color::ALL
                    .into_iter()
                    .flat_map(|color| self.variant.all_kinds().iter().map(move |kind| Piece { kind, color }))
                    .map(|piece| (piece, setup.kind(piece.kind) & setup.color(piece.color)))
                    .collect(),
            ),
            Err(error) => {
                let reason = match error {
                    crate::notation::fen::ParseFenError::Board(error) => error.to_string(),
                    error => error.to_string(),
                };
                let message = format!("{} is no board of {}: {reason}", quoted(board), self.variant.name);
                self.diagnostics.push(Diagnostic::new(span, message));
                FilterNode::Constant(false)
            }
        }
    }

    fn game(&mut self, filter: &GameFilter, span: Span) -> FilterNode<W> {
        if let GameFilter::Variant(name) = filter {
            return match Variant::by_name(name) {
                Ok(variant) => FilterNode::Constant(std::ptr::eq(variant, self.variant)),
                Err(_) => {
                    self.diagnostics.push(Diagnostic::new(span, unknown_variant(name)));
                    FilterNode::Constant(false)
                }
            };
        }
        let test = GameTest::of(filter).expect("variant filters are handled above");
        FilterNode::Game(self.game_slot(test))
    }

    /// The game test in a slot.
    pub(super) fn game_test(&self, slot: usize) -> GameTest {
        self.game_tests[slot].clone()
    }

    /// The slot of a game test, shared by equal tests.
    pub(super) fn game_slot(&mut self, test: GameTest) -> usize {
        match self.game_tests.iter().position(|known| *known == test) {
            Some(slot) => slot,
            None => {
                self.game_tests.push(test);
                self.game_tests.len() - 1
            }
        }
    }

    fn move_filter(&mut self, filter: &MoveFilter, span: Span) -> SetNode<W> {
        if filter.when == MoveWhen::Previous {
            // The move that reached a position is known wherever games are replayed.
            if !self.variant.capabilities.replayed {
                let message = format!(
                    "'move previous' needs the games of {} replayed, which cqlq does not do yet",
                    self.variant.name
                );
                self.diagnostics.push(Diagnostic::new(span, message));
            }
        } else {
            self.need_rules(span, "move", false);
        }
        let mut actions = 0u16;
        for (name, span) in &filter.actions {
            match self.variant.vocabulary().action(name) {
                Some(action) => actions |= 1 << action,
                None => {
                    let message = format!(
                        "{} is an action of the moves of {}, and {} has no such action",
                        quoted(&format!("move {name}")),
                        or_list(&vocabulary::variants_knowing(name)),
                        self.variant.name
                    );
                    self.diagnostics.push(Diagnostic::new(*span, message));
                }
            }
        }
        let promote = filter.promote.as_ref().map(|promote| match self.set(promote) {
            SetNode::Pieces { classes, .. } => classes,
            _ => Vec::new(),
        });
        let castle = filter.castle.map(|castle| match castle {
            Castle::Any => None,
            Castle::KingSide => Some(Wing::King),
            Castle::QueenSide => Some(Wing::Queen),
        });
        let mut set = |part: &Option<Box<Expr>>| part.as_ref().map(|part| self.set(part));
        let node = MoveNode {
            when: filter.when,
            from: set(&filter.from),
            to: set(&filter.to),
            capture: set(&filter.capture),
            promote,
            en_passant: filter.en_passant || filter.en_passant_square.is_some(),
            en_passant_square: set(&filter.en_passant_square),
            comment: filter.comment.as_ref().map(|comment| Box::new(self.filter(comment))),
            castle,
            drop: filter.drop,
            null: filter.null,
            branch: filter.branch,
            actions,
            by_facts: false,
            value: filter.value,
            castling_rook: filter.castling_rook,
            eager: [&filter.from, &filter.to, &filter.capture, &filter.en_passant_square]
                .into_iter()
                .flatten()
                .any(|set| !looks_at_positions_only(set) || has_effects(set)),
        };
        // Transforms and simplification keep squares and pieces what they are: a move the
        // facts decide here is decided by them in every copy.
        // Where a move may remove pieces besides the one it captures, what stood on those
        // squares is looked for in the position before it.
        let removals = node.capture.is_some() && self.variant.capabilities.removals;
        let node = MoveNode { by_facts: !removals && node.decided_by_facts(), ..node };
        if node.when == MoveWhen::Previous && (!node.by_facts || node.castling_rook) {
            self.needs_parent = true;
        }
        SetNode::Move(Box::new(node))
    }

    fn pieces(&mut self, designator: &PieceDesignator) -> SetNode<W> {
        let (squares, backhand) = match &designator.squares {
            Some(squares) => self.squares(squares),
            None => (self.masks.full(), false),
        };
        let mut classes: Vec<PieceClass> = Vec::new();
        let mut empty = false;
        let mut letters = Vec::new();
        for atom in &designator.piece.atoms {
            for (written, meaning) in self.meanings(&atom.kind, atom.span, designator.piece.list) {
                letters.push((written, self.describe(&meaning)));
                match meaning {
                    Meaning::Empty => empty = true,
                    Meaning::Pieces(class) => merge(&mut classes, class),
                }
            }
        }
        let slots = if backhand {
            classes
                .iter()
                .filter(|class| class.level.is_none())
                .flat_map(|class| {
                    class.kinds.iter().map(|kind| self.variant.symbol(Piece { kind, color: class.color }))
                })
                .collect()
        } else {
            Vec::new()
        };
        self.report(designator.span, squares, slots, letters);
        SetNode::Pieces { classes, empty, squares, backhand }
    }

    fn report(&mut self, span: Span, squares: SquareSet<W>, backhand: Vec<String>, letters: Vec<(String, String)>) {
        self.reports.push(DesignatorReport {
            text: span.text(self.source).to_owned(),
            span,
            squares: squares.iter().collect(),
            backhand,
            letters,
        });
    }

    fn all_backhand_slots(&self) -> Vec<String> {
        Color::ALL
            .into_iter()
            .flat_map(|color| self.variant.all_kinds().iter().map(move |kind| Piece { kind, color }))
            .map(|piece| self.variant.symbol(piece))
            .collect()
    }

    // ----- Squares --------------------------------------------------------------------------

    fn squares(&mut self, designator: &SquareDesignator) -> (SquareSet<W>, bool) {
        let mut squares = SquareSet::EMPTY;
        let mut backhand = false;
        for part in &designator.parts {
            match part {
                SquarePart::Region(region) => squares |= self.region(region),
                SquarePart::Backhand(_) => backhand = true,
                SquarePart::BoardAndBackhand(_) => {
                    squares = self.masks.full();
                    backhand = true;
                }
                SquarePart::AllBoard(_) => squares = self.masks.full(),
            }
        }
        (squares, backhand)
    }

    fn region(&mut self, region: &Region) -> SquareSet<W> {
        let files = self.axis(region.files, region.span, true);
        let ranks = self.axis(region.ranks, region.span, false);
        files & ranks
    }

    /// The squares of a file part (`is_file`) or a rank part; reports parts off the board.
    fn axis(&mut self, coordinate: Coordinate, span: Span, is_file: bool) -> SquareSet<W> {
        let geometry = self.variant.geometry;
        let size = if is_file { geometry.files() } else { geometry.ranks() };
        let (low, high) = match coordinate {
            Coordinate::Any => return self.masks.full(),
            Coordinate::Light => return self.masks.light(),
            Coordinate::Dark => return self.masks.dark(),
            Coordinate::One(index) => (index, index),
            Coordinate::Range(low, high) => (low, high),
        };
        if let Some(outside) = [low, high].into_iter().find(|&index| index >= size) {
            let written = if is_file { char::from(b'a' + outside).to_string() } else { (outside + 1).to_string() };
            self.off_board(span, is_file, &written);
            return SquareSet::EMPTY;
        }
        (low..=high).fold(SquareSet::EMPTY, |set, index| {
            set | if is_file {
                self.masks.file(File::new(index).expect("checked against the board"))
            } else {
                self.masks.rank(Rank::new(index).expect("checked against the board"))
            }
        })
    }

    fn off_board(&mut self, span: Span, is_file: bool, written: &str) {
        let geometry = self.variant.geometry;
        let message = if is_file {
            format!(
                "file {written} is outside the {} board of {} (files a-{})",
                geometry,
                self.variant.name,
                geometry.last_file()
            )
        } else {
            format!(
                "rank {written} is outside the {} board of {} (ranks 1-{})",
                geometry,
                self.variant.name,
                geometry.last_rank()
            )
        };
        self.diagnostics.push(Diagnostic::new(span, message));
    }

    // ----- Pieces ---------------------------------------------------------------------------

    /// What a piece atom stands for in the variant, with the text of each symbol; reports
    /// letters the variant does not have.
    fn meanings(&mut self, atom: &PieceAtomKind, span: Span, list: bool) -> Vec<(String, Meaning)> {
        let written = span.text(self.source).to_owned();
        let whole = |meanings: Vec<Meaning>| meanings.into_iter().map(|m| (written.clone(), m)).collect();
        match atom {
            PieceAtomKind::Empty => whole(vec![Meaning::Empty]),
            PieceAtomKind::Entity(letter) => match class(*letter, self.variant) {
                Some(classes) => whole(classes.into_iter().map(Meaning::Pieces).collect()),
                None => whole(self.letters(&letter.to_string(), 0, span, false).into_iter().map(|(_, m)| m).collect()),
            },
            PieceAtomKind::Figurine(figurine) => whole(self.figurine(*figurine, span)),
            PieceAtomKind::Letters { text, level } => self.letters(text, *level, span, list),
        }
    }

    /// Letters: one symbol, or in a list several; a bare letter the variant does not use as a
    /// piece may be a class (`A`, `U`, `M`, `I`).
    fn letters(&mut self, text: &str, level: u8, span: Span, list: bool) -> Vec<(String, Meaning)> {
        let variant = self.variant;
        let lookup = |symbol: &str| -> Option<Vec<PieceClass>> {
            if let Some(piece) = variant.piece_by_symbol(symbol) {
                return Some(vec![PieceClass { color: piece.color, kinds: KindSet::single(piece.kind), level: None }]);
            }
            let mut chars = symbol.chars();
            match (chars.next(), chars.next()) {
                (Some(letter), None) => class(letter, variant),
                _ => None,
            }
        };
        let split = if list {
            crate::variant::split_by(text, variant.longest_symbol(), lookup)
        } else {
            lookup(text).map(|classes| vec![(0, classes)]).ok_or(0)
        };
        let mut classes = match split {
            Ok(classes) => classes,
            Err(at) => {
                let bad =
                    if list { text[at..].chars().next().map_or(text, |c| &text[at..at + c.len_utf8()]) } else { text };
                let hint = if !list && text.len() > 1 && variant.split_symbols(text).is_ok() {
                    format!("; to list pieces write [{text}]")
                } else {
                    String::new()
                };
                self.diagnostics.push(Diagnostic::new(
                    span,
                    format!(
                        "{} is no piece of {} (pieces: {}; classes: {}){hint}",
                        quoted(bad),
                        variant.name,
                        variant.letters(),
                        class_letters(variant)
                    ),
                ));
                return Vec::new();
            }
        };
        let split_starts: Vec<usize> = classes.iter().map(|(start, _)| *start).collect();
        if level > 0 {
            if !variant.capabilities.levels {
                self.diagnostics.push(Diagnostic::new(
                    span,
                    format!(
                        "'+' marks a Chess Evolved Online tier or a Laser Chess orientation; {} has neither",
                        variant.name
                    ),
                ));
            } else if let Some((_, last)) = classes.last_mut() {
                for class in last {
                    class.level = Some(level);
                }
            }
        }
        let mut out = Vec::new();
        for (index, (start, classes)) in classes.iter().enumerate() {
            let end = classes_end(&split_starts, index, text.len());
            let written = &text[*start..end];
            let pluses = if index + 1 == split_starts.len() { "+".repeat(usize::from(level)) } else { String::new() };
            out.extend(classes.iter().cloned().map(|class| (format!("{written}{pluses}"), Meaning::Pieces(class))));
        }
        out
    }

    fn figurine(&mut self, figurine: char, span: Span) -> Vec<Meaning> {
        let (color, role) = match figurine {
            '△' => return class('A', self.variant).unwrap_or_default().into_iter().map(Meaning::Pieces).collect(),
            '▲' => return class('a', self.variant).unwrap_or_default().into_iter().map(Meaning::Pieces).collect(),
            '◭' => {
                let pieces = ['A', 'a'].into_iter().flat_map(|letter| class(letter, self.variant).unwrap_or_default());
                return pieces.map(Meaning::Pieces).collect();
            }
            '□' => return vec![Meaning::Empty],
            '♔' => (Color::White, Role::King),
            '♕' => (Color::White, Role::Queen),
            '♖' => (Color::White, Role::Rook),
            '♗' => (Color::White, Role::Bishop),
            '♘' => (Color::White, Role::Knight),
            '♙' => (Color::White, Role::Pawn),
            '♚' => (Color::Black, Role::King),
            '♛' => (Color::Black, Role::Queen),
            '♜' => (Color::Black, Role::Rook),
            '♝' => (Color::Black, Role::Bishop),
            '♞' => (Color::Black, Role::Knight),
            _ => (Color::Black, Role::Pawn),
        };
        match self.variant.kind_of_role(role) {
            Some(kind) => vec![Meaning::Pieces(PieceClass { color, kinds: KindSet::single(kind), level: None })],
            None => {
                let role = format!("{role:?}").to_lowercase();
                self.diagnostics.push(Diagnostic::new(
                    span,
                    format!("{figurine} stands for the {role}, and {} has no {role}", self.variant.name),
                ));
                Vec::new()
            }
        }
    }

    fn describe(&self, meaning: &Meaning) -> String {
        let variant = self.variant;
        match meaning {
            Meaning::Empty => "an empty square".to_owned(),
            Meaning::Pieces(class) => {
                let player = variant.player(class.color);
                let level = class.level.map_or(String::new(), |level| format!(" at level {level}"));
                if class.kinds.len() == 1 {
                    let kind = class.kinds.iter().next().expect("one kind");
                    let piece = variant.piece_type(kind);
                    let owner = if piece.ownerless {
                        let shade = if class.color == Color::White { "bright/light-half" } else { "dim/dark-half" };
                        format!("{shade}, ownerless")
                    } else {
                        player.to_owned()
                    };
                    format!("{} ({owner}){level}", piece.name)
                } else if class.kinds == variant.all_kinds().difference(variant.ownerless_kinds()) {
                    format!("any {player} piece{level}")
                } else if class.kinds == variant.all_kinds() {
                    format!("any {player} piece, ownerless ones included{level}")
                } else {
                    let names: Vec<&str> = class.kinds.iter().map(|kind| variant.piece_type(kind).symbol).collect();
                    format!("any {player} piece of {}{level}", names.join(" "))
                }
            }
        }
    }
}

/// Where the symbol at `index` of a split ends.
fn classes_end(starts: &[usize], index: usize, len: usize) -> usize {
    starts.get(index + 1).copied().unwrap_or(len)
}

/// Adds a class, merging it with one of the same colour and level.
fn merge(classes: &mut Vec<PieceClass>, class: PieceClass) {
    match classes.iter_mut().find(|c| c.color == class.color && c.level == class.level) {
        Some(existing) => existing.kinds = existing.kinds.union(class.kinds),
        None => classes.push(class),
    }
}

/// The classes a class letter names: `A`/`a` any white/black piece (never an ownerless one),
/// `U` any piece at all (ownerless ones too), `M`/`m` major pieces, `I`/`i` minor pieces.
/// Callers look the letter up as a piece of the variant first: variant letters win, and
/// Scidb's `&X;` spelling always means the class.
fn class(letter: char, variant: &Variant) -> Option<Vec<PieceClass>> {
    let owned = variant.all_kinds().difference(variant.ownerless_kinds());
    let every = |color| PieceClass { color, kinds: variant.all_kinds(), level: None };
    let (color, kinds) = match letter {
        'U' => return Some(vec![every(Color::White), every(Color::Black)]),
        'A' => (Color::White, owned),
        'a' => (Color::Black, owned),
        'M' => (Color::White, variant.kinds_where(|p| p.role.is_some_and(Role::is_major))),
        'm' => (Color::Black, variant.kinds_where(|p| p.role.is_some_and(Role::is_major))),
        'I' => (Color::White, variant.kinds_where(|p| p.role.is_some_and(Role::is_minor))),
        'i' => (Color::Black, variant.kinds_where(|p| p.role.is_some_and(Role::is_minor))),
        _ => return None,
    };
    Some(vec![PieceClass { color, kinds, level: None }])
}

/// The class letters a variant leaves free, for messages.
fn class_letters(variant: &Variant) -> String {
    let free: Vec<String> = ["A", "a", "U", "M", "m", "I", "i"]
        .iter()
        .filter(|letter| variant.piece_by_symbol(letter).is_none())
        .map(|letter| (*letter).to_owned())
        .chain(["_".to_owned()])
        .collect();
    free.join(" ")
}

/// The filter that matches when a set is not empty, in the cheapest form that says so.
pub(super) fn set_filter<const W: usize>(set: SetNode<W>) -> FilterNode<W> {
    if may_hold_backhand(&set) {
        return FilterNode::NotEmpty(set);
    }
    match set {
        SetNode::Pieces { classes, empty: false, squares, .. }
            if classes.len() == 1 && classes[0].level.is_none() && classes[0].kinds.len() == 1 =>
        {
            let kind = classes[0].kinds.iter().next().expect("one kind");
            FilterNode::PieceOn { piece: Piece { kind, color: classes[0].color }, squares }
        }
        set => FilterNode::HasSquare(set),
    }
}

/// Whether a set may hold backhand slots (then its complement covers the backhand too).
fn may_hold_backhand<const W: usize>(set: &SetNode<W>) -> bool {
    match set {
        SetNode::Squares { backhand, .. } => backhand.iter().any(|kinds| !kinds.is_empty()),
        SetNode::Pieces { backhand, .. } => *backhand,
        SetNode::Union(left, right) => may_hold_backhand(left) || may_hold_backhand(right),
        SetNode::Intersection(left, right) => may_hold_backhand(left) && may_hold_backhand(right),
        SetNode::Complement { backhand, .. } => *backhand,
        SetNode::Orbit(sets) => sets.iter().any(may_hold_backhand),
        SetNode::Shade { .. }
        | SetNode::Direction { .. }
        | SetNode::MakeSquare(..)
        | SetNode::SquareNamed(..)
        | SetNode::Attacks { .. }
        | SetNode::Between(..)
        | SetNode::Ray { .. }
        | SetNode::XRay(_)
        | SetNode::Pin { .. }
        | SetNode::Move(_)
        | SetNode::SameContents(_)
        | SetNode::Variable(_)
        | SetNode::Entry(_)
        | SetNode::Rules(_)
        | SetNode::MateShape(_)
        | SetNode::Marked(_)
        | SetNode::Loop(_) => false,
        SetNode::At(_, set) => may_hold_backhand(set),
        SetNode::Unmapped(set) => may_hold_backhand(set),
        SetNode::Dash(_) => false,
        SetNode::Block(block) => may_hold_backhand(&block.last),
        SetNode::If(conditional) => {
            may_hold_backhand(&conditional.then) || conditional.otherwise.as_ref().is_some_and(may_hold_backhand)
        }
    }
}

/// Transforms written one inside the other with no count between them: they make one transform,
/// as in CQL 6.2.
struct TransformChain<'e> {
    /// The transforms, the outermost first.
    transforms: Vec<(TransformKind, Span)>,
    /// The bounds of the innermost one's count, where it counts.
    count: Option<&'e [Expr]>,
    /// The filter they transform.
    body: &'e Expr,
}

/// The chain of transforms that starts at `expr`.
fn transform_chain(expr: &Expr) -> TransformChain<'_> {
    let mut transforms = Vec::new();
    let mut expr = expr;
    while let ExprKind::Transform { transform, count, bounds, body } = &expr.kind {
        transforms.push((*transform, expr.span));
        if *count {
            return TransformChain { transforms, count: Some(bounds), body };
        }
        expr = body;
    }
    TransformChain { transforms, count: None, body: expr }
}

/// What a compiled filter writes as it is tested.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Writes {
    /// Something that outlasts the test of the position: a persistent variable's value, a message,
    /// a tag or a removed comment that the game is written with.
    pub lasting: bool,
    /// Anything: a variable's value, a comment, a message.
    pub any: bool,
}

impl<const W: usize> Compiler<'_, W> {
    /// The steps of a `line`'s constituents.
    fn steps(&mut self, constituents: &[Constituent]) -> Vec<Step<W>> {
        constituents
            .iter()
            .map(|constituent| {
                let body = match &constituent.body {
                    ConstituentBody::Filter(filter) => StepBody::Filter(self.filter(filter)),
                    ConstituentBody::Group(group) => StepBody::Group(self.steps(group)),
                };
                Step { body, min: constituent.min, max: constituent.max }
            })
            .collect()
    }

    /// Whether a step of a `line`, or a filter inside it, writes something.
    fn step_writes(&self, step: &Step<W>) -> bool {
        match &step.body {
            StepBody::Filter(filter) => self.writes(filter).any,
            StepBody::Group(steps) => steps.iter().any(|step| self.step_writes(step)),
        }
    }

    /// What a filter, or a filter inside it, writes.
    pub(super) fn writes(&self, filter: &FilterNode<W>) -> Writes {
        let persistent = |slot: usize| self.persistent.get(slot).is_some_and(Option::is_some);
        let lasting_dictionary = |slot: usize| self.dictionaries.get(slot).copied().unwrap_or(false);
        let mut found = Writes::default();
        filter.clone().each_filter(&mut |filter| match filter {
            FilterNode::Assign { slot, .. } => {
                found.any = true;
                found.lasting |= persistent(*slot);
            }
            FilterNode::Unbind(slot) => {
                found.any = true;
                found.lasting |= persistent(*slot);
            }
            FilterNode::Store(store) => {
                found.any = true;
                found.lasting |= lasting_dictionary(store.entry.dictionary);
            }
            FilterNode::Forget { dictionary, .. } => {
                found.any = true;
                found.lasting |= lasting_dictionary(*dictionary);
            }
            // The variable that goes through the keys is given values.
            FilterNode::Walk(_) => found.any = true,
            FilterNode::Comment(node) => {
                found.any = true;
                found.lasting |= node.message;
            }
            // What the game is written with: a game found with no position matched
            // (`matchcount 0`) is written with it too.
            FilterNode::RemoveComment | FilterNode::SetTag(_) => {
                found.any = true;
                found.lasting = true;
            }
            // Its sightings are comments, and it gives a variable a value.
            FilterNode::Similar { .. } => found.any = true,
            // A failed assertion stops the run.
            FilterNode::Assert(_) => {
                found.any = true;
                found.lasting = true;
            }
            // A file written, or a run stopped, outlasts the game.
            FilterNode::WriteFile(..) | FilterNode::Refused(_) => {
                found.any = true;
                found.lasting = true;
            }
            FilterNode::Line { options, .. } if !options.quiet => found.any = true,
            // A path comments, gives back atomic variables and records where it went.
            FilterNode::Path(_) => found.any = true,
            FilterNode::Echo(node) if !node.quiet => found.any = true,
            _ => {}
        });
        found
    }
}
