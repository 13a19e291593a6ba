//! The query language: parse once, compile per variant, match positions.
//!
//! ```
//! use cqlq::notation::fen;
//! use cqlq::{Position, Query, Variant};
//!
//! // A white queen on h7 with the black king on g8.
//! let query = Query::parse("Qh7 kg8")?;
//! let plan = query.compile(Variant::standard())?;
//!
//! let setup = fen::read::<1>(Variant::standard(), "6k1/7Q/8/8/8/8/8/6K1 b - - 0 1")?;
//! let position = Position::from_setup(setup)?;
//! assert!(plan.matches(&position.into()));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! The pipeline: `grammar.pest` and `parse.rs` (the only file that knows pest) turn text into an
//! [`ast`] with spans; `check.rs` finds the mistakes that need no variant; `compile.rs`
//! resolves squares and letters for one variant into a [`Program`]; [`explain`] shows what a
//! query came to.

pub mod ast;
mod beyond_cql;
mod check;
mod comments;
mod compile;
pub mod context;
pub mod diagnostic;
mod dictionaries;
pub mod explain;
mod flow;
mod line;
mod line_depth;
mod line_run;
mod line_sets;
mod mate_shapes;
pub mod note_text;
mod parse;
mod path;
mod plan;
mod pointwise;
mod positions;
mod prefilter;
mod quick;
mod refusals;
mod similar;
mod simplify;
pub mod state;
mod suggest;
mod tags;
mod texts;
mod transform;
pub mod tree;
mod walk;
mod xray;

use std::sync::Arc;

pub use compile::DesignatorReport;
pub use context::{Context, Frame, GameFacts, Remark, TagSource};
pub use diagnostic::{Diagnostic, QueryError, QueryWarnings};
pub use line::LineCache;
#[cfg(test)]
pub(crate) use line::work as line_work;
pub use plan::{Needs, Program};
pub use similar::{SimilarGames, SimilarIndex};
pub use state::{Identities, Persistent, State};
pub use tree::GameTree;

use crate::board::Width;
use crate::variant::Variant;
use ast::{ExprKind, Header, QueryAst, TextFunction};

/// The fewest loops nested in one another that [`Query::warnings`] speaks of.
const SLOW_LOOPS: usize = 4;

/// Warns of each outermost loop with [`SLOW_LOOPS`] loops or more nested in it (itself counted).
fn nested_loops(expr: &ast::Expr, diagnostics: &mut Vec<Diagnostic>) {
    fn depth(expr: &ast::Expr) -> usize {
        let inner = expr.children().into_iter().map(depth).max().unwrap_or(0);
        inner + usize::from(matches!(expr.kind, ExprKind::Loop { .. }))
    }
    if matches!(expr.kind, ExprKind::Loop { .. }) {
        let loops = depth(expr);
        if loops >= SLOW_LOOPS {
            let combinations = 16u64.saturating_pow(u32::try_from(loops).unwrap_or(u32::MAX));
            let message = format!(
                "{loops} loops nested in one another test the filter inside once for each combination of their \
                 squares, at every position (over the 16 pieces of a side: {combinations} times): this query may \
                 run for minutes over a large database"
            );
            diagnostics.push(Diagnostic::new(expr.span, message));
        }
        return;
    }
    for child in expr.children() {
        nested_loops(child, diagnostics);
    }
}

/// The keys of the `sort` filters of a query's body (and of its header's `sort` value), in the
/// order CQL 6.2 registers them (a filter's inner ones before it, then in the order written),
/// each label once.
pub(crate) fn body_sort_keys<'e>(filters: impl IntoIterator<Item = &'e ast::Expr>) -> Vec<SortSpec> {
    let mut keys = Vec::new();
    let mut rereads = Vec::new();
    for filter in filters {
        add_sort_keys(filter, &mut keys, &mut rereads);
    }
    keys
}

/// Adds the keys of the `sort`s in `expr`; `rereads` are the path targets that CQL 6.2 reads
/// twice, whose `sort`s it registers a first time with no value (an unlabeled one with a
/// number of its own).
fn add_sort_keys(expr: &ast::Expr, keys: &mut Vec<SortSpec>, rereads: &mut Vec<ast::Span>) {
    if let ExprKind::Path(path) = &expr.kind {
        rereads.extend_from_slice(&path.reread);
    }
    if rereads.contains(&expr.span) {
        let mut read = Vec::new();
        add_sort_keys(expr, &mut read, &mut Vec::new());
        let unlabeled = read.iter().filter(|key| unlabeled_sort_number(&key.label).is_some()).count();
        for mut key in read {
            // (A label written as one of CQL 6.2's own names stays as written.)
            if let Some(number) = unlabeled_sort_number(&key.label).and_then(|number| number.checked_sub(unlabeled)) {
                key.label = unlabeled_sort_label(number);
            }
            add_sort_key(keys, key);
        }
    }
    for child in expr.children() {
        add_sort_keys(child, keys, rereads);
    }
    if let ExprKind::Sort { min, label, quiet, .. } = &expr.kind {
        add_sort_key(keys, SortSpec { min: *min, label: label.clone().unwrap_or_default(), quiet: *quiet });
    }
}

fn add_sort_key(keys: &mut Vec<SortSpec>, key: SortSpec) {
    if !keys.iter().any(|known| known.label == key.label) {
        keys.push(key);
    }
}

/// The label of the `number`th `sort` without one, as CQL 6.2 names it.
pub(crate) fn unlabeled_sort_label(number: usize) -> String {
    format!("<sort-id-{number}>")
}

/// The number of an unlabeled `sort`, from its label.
fn unlabeled_sort_number(label: &str) -> Option<usize> {
    label.strip_prefix("<sort-id-")?.strip_suffix('>')?.parse().ok()
}

/// The label of the number of a game's matching positions as a sort key (`sort matchcount`).
pub const MATCHCOUNT: &str = "matchcount";

/// One of the keys a query orders the games it finds by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortSpec {
    /// The smallest value first (else the largest).
    pub min: bool,
    /// The label each game's value is written with (`matchcount` for the number of its
    /// matching positions).
    pub label: String,
    /// Whether the value is left out of the output (`sort quiet`).
    pub quiet: bool,
}

/// The value a game has for one of the keys it is sorted by.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SortValue {
    /// A number (`sort #A`).
    Number(i64),
    /// A text, ordered by its bytes (`sort player white`).
    Text(Arc<str>),
}

impl std::fmt::Display for SortValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SortValue::Number(number) => write!(f, "{number}"),
            SortValue::Text(text) => f.write_str(text),
        }
    }
}

impl SortValue {
    /// The order of two games' values for one sort key, as CQL 6.2 orders them: the best value
    /// first (the smallest with `min`, else the largest), a game without a value after every
    /// game with one.
    #[must_use]
    pub fn order(min: bool, a: Option<&SortValue>, b: Option<&SortValue>) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        match (a, b) {
            (Some(a), Some(b)) if min => a.cmp(b),
            (Some(a), Some(b)) => b.cmp(a),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        }
    }
}

/// A test that every game a query finds passes ([`Query::game_prefilter`]).
#[derive(Clone, Debug)]
pub struct GamePrefilter {
    /// The test, a query of its own.
    pub test: Query,
    /// At how many positions of the main line, one after another, a game passes the test at
    /// least.
    pub run: u32,
    /// How far apart those positions are: 1 for consecutive positions, 2 for those of the same
    /// side to move.
    pub stride: u32,
}

impl GamePrefilter {
    /// Whether a game whose main line passes the test at the positions of `plies` (in any
    /// order) passes the prefilter: at `run` plies [`stride`](GamePrefilter::stride) apart.
    #[must_use]
    pub fn passed_at(&self, plies: impl IntoIterator<Item = u32>) -> bool {
        passes_run(plies, self.run, self.stride)
    }
}

/// Whether `plies` hold `run` plies, each `stride` after the one before.
fn passes_run(plies: impl IntoIterator<Item = u32>, run: u32, stride: u32) -> bool {
    let mut plies = plies.into_iter();
    if run <= 1 {
        return run == 0 || plies.next().is_some();
    }
    let mut plies: Vec<u32> = plies.collect();
    plies.sort_unstable();
    plies.dedup();
    // The length of the run ending at each ply, in the order of the plies.
    let mut lengths: Vec<u32> = Vec::with_capacity(plies.len());
    for (index, &ply) in plies.iter().enumerate() {
        let before = ply.checked_sub(stride).and_then(|before| plies[..index].binary_search(&before).ok());
        let length = before.map_or(1, |before| lengths[before] + 1);
        if length >= run {
            return true;
        }
        lengths.push(length);
    }
    false
}

/// A parsed and checked query, ready to compile for any variant.
#[derive(Clone, Debug)]
pub struct Query {
    source: Arc<str>,
    ast: QueryAst,
}

impl Query {
    /// Parses and checks a query. Every mistake is reported, each with its place in the text.
    pub fn parse(text: &str) -> Result<Query, QueryError> {
        Query::parse_for(text, None)
    }

    /// Parses and checks a query; when it has mistakes and a variant is known (given here, or
    /// named in the header), the mistakes that compiling for that variant finds in the sound
    /// filters are reported with them, so that one run shows them all.
    pub fn parse_for(text: &str, variant: Option<&'static Variant>) -> Result<Query, QueryError> {
        let source: Arc<str> = Arc::from(text);
        let (ast, mut diagnostics) = parse::parse(text);
        diagnostics.extend(check::check(&ast, text));
        if diagnostics.is_empty() {
            return Ok(Query { source, ast });
        }
        let named =
            ast.header.as_ref().and_then(|h| h.variant.as_ref()).and_then(|(name, _)| Variant::by_name(name).ok());
        if let Some(variant) = variant.or(named) {
            // A filter that a mistake follows at once is likely part of it (`x =` with no value
            // after it): only the others are compiled.
            let followed_by_mistake = |filter: &ast::Expr| {
                diagnostics.iter().any(|diagnostic| {
                    text.get(filter.span.end..diagnostic.span.start).is_some_and(|between| between.trim().is_empty())
                })
            };
            let sound: Vec<ast::Expr> = ast
                .body
                .iter()
                .filter(|filter| check::check_filter(filter, text).is_empty() && !followed_by_mistake(filter))
                .cloned()
                .collect();
            if let Err(more) = compile_any(variant, &sound, None, Quiet::default(), text) {
                diagnostics.extend(more);
            }
        }
        Err(QueryError::new(diagnostics, source))
    }

    /// The text of the query.
    #[must_use]
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The syntax tree.
    #[must_use]
    pub fn ast(&self) -> &QueryAst {
        &self.ast
    }

    /// The `cql(...)` header, if there is one.
    #[must_use]
    pub fn header(&self) -> Option<&Header> {
        self.ast.header.as_ref()
    }

    /// The query with the level of comments set from outside its header (CQL 6.2's `-quiet`
    /// and `-silent` options), which then wins over the header's `quiet` and `silent`.
    #[must_use]
    pub fn with_comment_level(mut self, quiet: bool, silent: bool) -> Query {
        if quiet || silent {
            let header = self.ast.header.get_or_insert_with(Header::default);
            header.quiet = quiet && !silent;
            header.silent = silent;
        }
        self
    }

    /// The keys the games found are ordered by, first key first (none: they are not sorted):
    /// the header's `sort`, the body's `sort` filters by label in the order CQL 6.2 takes
    /// them, then (`sort matchcount` in the header) the number of matching positions.
    #[must_use]
    pub fn sort_keys(&self) -> Vec<SortSpec> {
        let header = self.header();
        let mut keys = Vec::new();
        if let Some(sort) = header.and_then(|header| header.sort.as_ref()) {
            keys.push(SortSpec { min: sort.min, label: sort.label.clone().unwrap_or_default(), quiet: false });
        }
        let header_value = header.and_then(|header| header.sort.as_ref()).map(|sort| &sort.expr);
        keys.extend(body_sort_keys(header_value.into_iter().chain(&self.ast.body)));
        if header.is_some_and(|header| header.sort_matchcount) {
            keys.push(SortSpec { min: false, label: MATCHCOUNT.to_owned(), quiet: false });
        }
        keys
    }

    /// Whether a variable or a dictionary of the query lasts from game to game (`persistent`,
    /// and dictionaries not `local`): then the games must be searched one after another, in
    /// order, as CQL 6.2 does.
    #[must_use]
    pub fn has_persistent(&self) -> bool {
        self.ast.body.iter().any(|filter| {
            filter.any(&|expr| match &expr.kind {
                ExprKind::Assign { lasting, .. } => lasting.is_persistent(),
                ExprKind::Dictionary { persistent, .. } => *persistent,
                _ => false,
            })
        })
    }

    /// A test that every game this one finds passes at some position of its main line (at some
    /// run of consecutive positions, where [`GamePrefilter::run`] is more than 1), and that says
    /// everything where it does not: in such a game this query is false at every position and
    /// does nothing else, so a search may replay each game with the test first, and with this
    /// query only where it passes. `None` for most queries, and for those whose games are
    /// searched in order or sorted (what one game leaves, the next reads).
    #[must_use]
    pub fn game_prefilter(&self) -> Option<GamePrefilter> {
        let body = &self.ast.body;
        let sorts_or_pairs = body.iter().any(|filter| {
            filter.any(&|expr| matches!(expr.kind, ExprKind::Sort { .. } | ExprKind::ConsecutiveMoves { .. }))
        });
        if sorts_or_pairs
            || self.runs_in_order()
            || self.removes_comments()
            || self.reads_earlier_paths()
            || self.ast.asserted_variations.is_some()
        {
            return None;
        }
        let (test, run, stride) = prefilter::leading_test(body)?;
        if run == 1 && body.len() == 1 && std::ptr::eq(test, &body[0]) {
            // The query is its own prefilter.
            return None;
        }
        let ast = QueryAst { header: self.ast.header.clone(), body: vec![test.clone()], asserted_variations: None };
        Some(GamePrefilter { test: Query { source: Arc::clone(&self.source), ast }, run, stride })
    }

    /// Whether the query runs `removecomment` somewhere: CQL 6.2 then removes the comment of the
    /// position of the same number in every later game it writes too, so the games are searched
    /// one after another, in order.
    #[must_use]
    pub fn removes_comments(&self) -> bool {
        self.ast.body.iter().any(|filter| filter.any(&|expr| matches!(expr.kind, ExprKind::RemoveComment)))
    }

    /// Whether a word about the last path that matched (`pathcount`, `pathstart`,
    /// `pathlastposition`), outside every path, may be read where no path has matched in the
    /// game yet: CQL 6.2 then reads the last path of a game before, so the games are searched
    /// one after another, in order. Not so where the word follows a path that must match
    /// first (`{path --{2} check} pathcount == 2`).
    #[must_use]
    pub fn reads_earlier_paths(&self) -> bool {
        unguarded_path_word(self.ast.body.iter(), false)
    }

    /// Whether the games must be searched one after another, in order, as CQL 6.2 searches
    /// them: for variables that last from game to game (`persistent`), and for files read and
    /// written (`readfile`, `writefile`), whose order would change on several threads.
    #[must_use]
    pub fn runs_in_order(&self) -> bool {
        self.has_persistent()
            || self.ast.body.iter().any(|filter| {
                filter.any(&|expr| {
                    matches!(
                        &expr.kind,
                        ExprKind::WriteFile(..) | ExprKind::TextFunction { function: TextFunction::ReadFile, .. }
                    )
                })
            })
    }

    /// The files of games the query's `similarposition` filters compare positions with, each
    /// once, in the order of the text (CQL 6.2 reads one file a query).
    #[must_use]
    pub fn similar_games(&self) -> Vec<Arc<SimilarGames>> {
        fn gather(expr: &ast::Expr, found: &mut Vec<Arc<SimilarGames>>) {
            if let ExprKind::SimilarPosition { games, .. } = &expr.kind
                && !found.iter().any(|known| Arc::ptr_eq(known, games))
            {
                found.push(games.clone());
            }
            for child in expr.children() {
                gather(child, found);
            }
        }
        let mut found = Vec::new();
        for filter in &self.ast.body {
            gather(filter, &mut found);
        }
        found
    }

    /// The text of `cql_assertvariations "T"`, if the query has one: it is meant for games
    /// searched with their variations, and a search without them stops with T.
    #[must_use]
    pub fn asserted_variations(&self) -> Option<&str> {
        self.ast.asserted_variations.as_deref()
    }

    /// Whether the query uses `lastgamenumber`, whose value the search must be given
    /// ([`SearchOptions::last_game_number`](crate::search::SearchOptions::last_game_number)).
    #[must_use]
    pub fn uses_last_game_number(&self) -> bool {
        self.ast
            .body
            .iter()
            .any(|filter| filter.any(&|expr| matches!(expr.kind, ExprKind::Word(ast::Word::LastGameNumber))))
    }

    /// What may make the query slow, if anything: loops nested four deep or more, whose inner
    /// filter is tested once for each combination of their squares at every position.
    #[must_use]
    pub fn warnings(&self) -> Option<QueryWarnings> {
        let mut diagnostics = Vec::new();
        for filter in &self.ast.body {
            nested_loops(filter, &mut diagnostics);
        }
        (!diagnostics.is_empty()).then(|| QueryWarnings::new(diagnostics, self.source.clone()))
    }

    /// The constructs of the query that cqlq reads and CQL 6.2 refuses (`move legal capture
    /// S`), as errors: the CQL command line refuses them on chess, as CQL 6.2 does.
    pub fn within_cql(&self) -> Result<(), QueryError> {
        let found = beyond_cql::beyond_cql(&self.ast.body, &self.source);
        if found.is_empty() { Ok(()) } else { Err(QueryError::new(found, self.source.clone())) }
    }

    /// The variant named in the header (`variant "One"`), if any.
    #[must_use]
    pub fn variant(&self) -> Option<&'static Variant> {
        let (name, _) = self.header()?.variant.as_ref()?;
        Variant::by_name(name).ok()
    }

    /// Compiles the query for a variant: masks sized to its board, letters resolved to its pieces.
    pub fn compile(&self, variant: &'static Variant) -> Result<Plan, QueryError> {
        let header = self.header();
        let quiet = Quiet {
            automatic: header.is_some_and(|header| header.quiet || header.silent),
            comments: header.is_some_and(|header| header.silent),
        };
        match compile_any(variant, &self.ast.body, header.and_then(|h| h.sort.as_ref()), quiet, &self.source) {
            Ok((program, designators)) => Ok(Plan { variant, program, designators }),
            Err(diagnostics) => Err(QueryError::new(diagnostics, self.source.clone())),
        }
    }
}

type Compiled = (AnyProgram, Vec<DesignatorReport>);

/// What the header's `quiet` and `silent` leave out of the comments a query makes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Quiet {
    /// The comments `find`, `line` and `echo` make.
    pub automatic: bool,
    /// The query's own `comment(...)`s.
    pub comments: bool,
}

fn compile_any(
    variant: &'static Variant,
    filters: &[ast::Expr],
    sort: Option<&ast::Sort>,
    quiet: Quiet,
    source: &str,
) -> Result<Compiled, Vec<Diagnostic>> {
    match variant.width() {
        Width::W1 => {
            compile::compile::<1>(variant, filters, sort, quiet, source).map(|(p, r)| (AnyProgram::W1(Box::new(p)), r))
        }
        Width::W2 => {
            compile::compile::<2>(variant, filters, sort, quiet, source).map(|(p, r)| (AnyProgram::W2(Box::new(p)), r))
        }
        Width::W4 => {
            compile::compile::<4>(variant, filters, sort, quiet, source).map(|(p, r)| (AnyProgram::W4(Box::new(p)), r))
        }
        Width::W8 => {
            compile::compile::<8>(variant, filters, sort, quiet, source).map(|(p, r)| (AnyProgram::W8(Box::new(p)), r))
        }
        Width::W11 => compile::compile::<11>(variant, filters, sort, quiet, source)
            .map(|(p, r)| (AnyProgram::W11(Box::new(p)), r)),
    }
}

/// A query compiled for one variant.
#[derive(Clone, Debug)]
pub struct Plan {
    variant: &'static Variant,
    program: AnyProgram,
    designators: Vec<DesignatorReport>,
}

#[derive(Clone, Debug)]
enum AnyProgram {
    W1(Box<Program<1>>),
    W2(Box<Program<2>>),
    W4(Box<Program<4>>),
    W8(Box<Program<8>>),
    W11(Box<Program<11>>),
}

/// A compiled program of one board width, taken out of the plan that holds it: implemented
/// for every width a variant's square sets may take.
pub trait FromPlan {
    /// The plan's program, if its square sets take this width.
    fn from_plan(plan: &Plan) -> Option<&Self>;
}

macro_rules! from_plan {
    ($($w:literal => $arm:ident),*) => {
        $(impl FromPlan for Program<$w> {
            fn from_plan(plan: &Plan) -> Option<&Program<$w>> {
                match &plan.program {
                    AnyProgram::$arm(program) => Some(program),
                    _ => None,
                }
            }
        })*
    };
}

from_plan!(1 => W1, 2 => W2, 4 => W4, 8 => W8, 11 => W11);

impl Plan {
    /// The variant the plan was compiled for.
    #[must_use]
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The compiled program, if the variant's square sets take `W` words; run it on any
    /// [`PositionView`](crate::position::PositionView) of the plan's variant. (Whether a position that stands alone matches,
    /// with its variant's rules, is [`Plan::matches`], which the rule registry gives.)
    #[must_use]
    pub fn program<const W: usize>(&self) -> Option<&Program<W>>
    where
        Program<W>: FromPlan,
    {
        Program::<W>::from_plan(self)
    }

    /// What each designator of the query came to in this variant.
    #[must_use]
    pub fn designators(&self) -> &[DesignatorReport] {
        &self.designators
    }
}

/// Whether one of `filters`, tested in turn, holds a word about the last path that matched,
/// outside every path, that may be read where no path has matched in the game (`guarded`:
/// one matched before them).
fn unguarded_path_word<'e>(filters: impl Iterator<Item = &'e ast::Expr>, mut guarded: bool) -> bool {
    for filter in filters {
        if path_word_unguarded(filter, guarded) {
            return true;
        }
        guarded |= needs_a_path(filter);
    }
    false
}

fn path_word_unguarded(expr: &ast::Expr, guarded: bool) -> bool {
    match &expr.kind {
        // Inside a path, the words are about that path.
        ExprKind::Path(_) => false,
        ExprKind::PathWord(word) => !guarded && *word != ast::PathWord::Debug,
        ExprKind::Block(filters) => unguarded_path_word(filters.iter(), guarded),
        ExprKind::Binary(ast::BinaryOp::And, ..) => {
            unguarded_path_word(expr.operands(ast::BinaryOp::And).into_iter(), guarded)
        }
        _ => expr.children().into_iter().any(|child| path_word_unguarded(child, guarded)),
    }
}

/// Whether a filter matches only where a path in it matched.
fn needs_a_path(expr: &ast::Expr) -> bool {
    match &expr.kind {
        ExprKind::Path(_) => true,
        ExprKind::Block(filters) => filters.iter().any(needs_a_path),
        ExprKind::Binary(ast::BinaryOp::And, ..) => expr.operands(ast::BinaryOp::And).into_iter().any(needs_a_path),
        ExprKind::At { position, body } => needs_a_path(position) || needs_a_path(body),
        _ => false,
    }
}
