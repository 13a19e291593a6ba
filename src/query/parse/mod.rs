//! Text to syntax tree. This is the only file that knows pest.
//!
//! The grammar accepts any text: what is no filter becomes `junk`, which is parsed again on its
//! own to find out exactly what was expected where. So every mistake is reported, each with a
//! sentence about the query rather than the name of a grammar rule.

mod annotations;
mod climb;
mod dash_sides;
mod dictionaries;
mod functions;
mod hhdb;
mod minus;
mod paths;
mod positions;
mod similar;
mod texts;
mod variables;

use positions::position_word;

use std::collections::{HashMap, HashSet};
use std::num::NonZeroUsize;
use std::sync::{Mutex, PoisonError};

use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::{Pair, Pairs};
use pest_derive::Parser;

use super::ast::{
    BinaryOp, Castle, Constituent, ConstituentBody, Coordinate, Direction, Expr, ExprKind, GameFilter, Header,
    LineMoves, LineOptions, MateShape, MoveFilter, MoveSquare, MoveWhen, PieceAtom, PieceAtomKind, PieceDesignator,
    PiecePart, PinPart, PositionWord, QueryAst, Region, Side, Sort, Span, SquareDesignator, SquareNumber, SquarePart,
    TransformKind, UnaryOp, Word,
};
use super::check::{Type, type_of};
use super::diagnostic::{Diagnostic, ending, quoted};
use super::suggest;
use crate::variant::{Variant, vocabulary};

#[derive(Parser)]
#[grammar = "query/grammar.pest"]
struct Grammar;

/// How deep brackets may nest.
const MAX_NESTING: usize = 64;
/// How many prefix operators may stand in a row.
const MAX_PREFIXES: usize = 64;
/// How deep the syntax tree of one filter may be (later passes recurse on it).
const MAX_DEPTH: u32 = 256;
/// How many filters may hold one another (`light light ... R`, `flip flip ... R`): building the
/// tree recurses once per filter, in far larger frames than the later passes.
const MAX_NESTED: u32 = 128;

/// The pest calls any parse may make. Queries use thousands; the budget only stops a
/// pathological text, should one still make the grammar backtrack wildly.
const CALL_BUDGET: usize = 5_000_000;
/// The pest calls a parse may make besides, per byte of its text. Plain queries take up to about
/// 140 calls a byte (`a a a ...`), so a long but simple query reads to its end, while
/// backtracking that grows faster than the text still runs out of calls.
const CALLS_PER_BYTE: usize = 512;

/// Parses text with a rule of the grammar, within a call budget scaled to the text's length.
fn parse_rule(rule: Rule, text: &str) -> Result<Pairs<'_, Rule>, pest::error::Error<Rule>> {
    // pest takes its call limit from a setting of the whole process when a parse starts, so
    // parses take turns, each with the budget of its own text.
    static TURN: Mutex<()> = Mutex::new(());
    let _turn = TURN.lock().unwrap_or_else(PoisonError::into_inner);
    let budget = CALL_BUDGET.saturating_add(text.len().saturating_mul(CALLS_PER_BYTE));
    pest::set_call_limit(NonZeroUsize::new(budget));
    Grammar::parse(rule, text)
}

/// The stack a parse runs on. The grammar recurses as deep as filters nest, and a transform
/// nests every transform after it in its filter (`flip R or flip R or ...`); the stack is
/// reserved, not used, unless a query nests that deep.
const PARSE_STACK: usize = 256 << 20;

/// The most transforms one query may hold (they may all nest in one another).
const MAX_TRANSFORMS: usize = 2_000;

/// Parses a query. Returns the tree of what could be read and every syntax mistake found.
pub(crate) fn parse(source: &str) -> (QueryAst, Vec<Diagnostic>) {
    let transforms =
        source.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|word| is_transform_word(word)).count();
    if transforms > MAX_TRANSFORMS {
        let message = format!("this query holds {transforms} transforms, more than {MAX_TRANSFORMS}");
        let ast = QueryAst { header: None, body: Vec::new(), asserted_variations: None };
        return (ast, vec![Diagnostic::new(Span::new(0, source.len().min(1)), message)]);
    }
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("query parser".to_owned())
            .stack_size(PARSE_STACK)
            .spawn_scoped(scope, || parse_on_this_thread(source))
            .map_or_else(
                |_| parse_on_this_thread(source),
                |parser| parser.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            )
    })
}

/// Whether a word is a transform's.
fn is_transform_word(word: &str) -> bool {
    matches!(
        word,
        "flip"
            | "flipdihedral"
            | "dihedral"
            | "flipvertical"
            | "fliphorizontal"
            | "flipdiagonal"
            | "flipoffdiagonal"
            | "flipcolor"
            | "rotate90"
            | "rotate45"
            | "reversecolor"
            | "shift"
            | "shifthorizontal"
            | "shiftvertical"
    )
}

/// [`parse`], on the calling thread's stack.
///
/// A word after `move`'s parameters may be an action of some variant's moves (`move previous
/// rotate`) or the filter after the move (`move legal x`, as CQL 6.2 reads it). It is read as
/// an action first; where the builder finds it is not one, the query is read again with a
/// `stop` in the space before it, until every such word is settled.
///
/// Where the query cannot be read so, a set variable read as a range's bound may have taken the
/// set its keyword needs (`offdiagonal piecea true` in a loop over piecea, which leaves the
/// loop without its filter): the query is read again with a stop before each such name, and
/// that reading is kept if it finds no mistake.
fn parse_on_this_thread(source: &str) -> (QueryAst, Vec<Diagnostic>) {
    let (ast, diagnostics, stops) = parse_on_stops(source, Vec::new());
    if diagnostics.is_empty() {
        return (ast, diagnostics);
    }
    let guesses = positions::set_variables_as_bounds(source);
    if guesses.iter().all(|at| stops.contains(at)) {
        return (ast, diagnostics);
    }
    let trial = parse_on_stops(source, stops.into_iter().chain(guesses).collect());
    if trial.1.is_empty() { (trial.0, trial.1) } else { (ast, diagnostics) }
}

/// [`parse_with_stops`] again and again, each time with the strays of the last reading added,
/// until no new one is found. Returns the last reading and the stops it was read with.
fn parse_on_stops(source: &str, mut stops: Vec<usize>) -> (QueryAst, Vec<Diagnostic>, Vec<usize>) {
    loop {
        let (ast, diagnostics, strays) = parse_with_stops(source, &stops);
        let new: Vec<usize> = strays.into_iter().filter(|at| !stops.contains(at)).collect();
        if new.is_empty() {
            return (ast, diagnostics, stops);
        }
        stops.extend(new);
    }
}

/// Parses a query with a `stop` before each word at `stops` (which must follow a space).
/// Returns the tree, the mistakes found, and where words after `move` were found that are no
/// action of any variant.
fn parse_with_stops(source: &str, stops: &[usize]) -> (QueryAst, Vec<Diagnostic>, Vec<usize>) {
    let (balanced, diagnostics) = balance(source);
    let mut marked = balanced.clone().into_bytes();
    functions::close_call_gaps(&mut marked);
    for &at in stops {
        if let Some(space) = at.checked_sub(1).and_then(|space| marked.get_mut(space)) {
            *space = STOP;
        }
    }
    let marked = String::from_utf8(marked).unwrap_or_else(|_| balanced.clone());
    let mut builder = Builder {
        source: balanced,
        diagnostics,
        functions: HashMap::new(),
        aliases: Vec::new(),
        calls: 0,
        variables: HashMap::new(),
        persistent: HashSet::new(),
        dictionaries: HashMap::new(),
        reported_until: 0,
        too_deep: false,
        in_path_parentheses: false,
        past_blank_line_in_path: false,
        nested: 0,
        strays: Vec::new(),
        unlabeled_sorts: 0,
        reread_target: None,
        path_rereads: Vec::new(),
        next_argument: climb::Argument::None,
        atomics: Vec::new(),
        asserted_variations: None,
        untaken: climb::Leftover::default(),
        following: Vec::new(),
        line_rest: None,
        assigning: None,
        similar: Vec::new(),
    };
    let mut ast = QueryAst { header: None, body: Vec::new(), asserted_variations: None };
    let mut pairs = match parse_rule(Rule::query, &marked) {
        Ok(pairs) => pairs,
        Err(error) => {
            builder.diagnostics.push(describe_error(&error, &builder.source, 0));
            return (ast, builder.diagnostics, Vec::new());
        }
    };
    let query = pairs.next().expect("grammar: a query");
    let mut items = Items::default();
    for pair in query.into_inner() {
        match pair.as_rule() {
            Rule::header => ast.header = Some(builder.header(pair)),
            _ => items.add(pair, &mut builder),
        }
        builder.too_deep = false;
    }
    ast.body = items.filters;
    ast.asserted_variations = builder.asserted_variations;
    (ast, builder.diagnostics, builder.strays)
}

/// The byte the grammar's `stop` is.
const STOP: u8 = 1;

/// Whether a `stop` may take the place of the byte before `at`: a space or tab, or the end of
/// a line that no `//` comment runs to.
pub(super) fn stop_fits(source: &str, at: usize) -> bool {
    let Some(before) = at.checked_sub(1) else { return false };
    let Some(&byte) = source.as_bytes().get(before) else { return false };
    match byte {
        b' ' | b'\t' => true,
        b'\n' => {
            let line_start = source[..before].rfind('\n').map_or(0, |newline| newline + 1);
            !source[line_start..before].contains("//")
        }
        _ => false,
    }
}

/// The values of a range's bounds when every one is a number written out (none when one names
/// a variable, or is negative).
pub(super) fn constant_bounds(bounds: &[Expr]) -> Option<Vec<u32>> {
    bounds
        .iter()
        .map(|bound| match bound.kind {
            ExprKind::Number(number) => u32::try_from(number).ok(),
            _ => None,
        })
        .collect()
}

/// The range of constant bounds as CQL 6.2 reads it: one number is that number alone.
pub(super) fn exact_or_range<T: Copy>(numbers: &[T]) -> (T, Option<T>) {
    (numbers[0], Some(numbers.get(1).copied().unwrap_or(numbers[0])))
}

/// Where a pair is, without the spaces a rule may end with (`pin ` before a filter that is not
/// its part), so that carets stop at the last character written.
/// Where a parenthesis opens right after `pair`, whitespace aside, if one does: a mistake after
/// a word whose parenthesis must touch it or hold only a number.
fn paren_after(pair: &Pair<'_, Rule>) -> Option<Span> {
    let after = &pair.get_input()[pair.as_span().end()..];
    let spaced = after.trim_start();
    spaced.starts_with('(').then(|| {
        let at = span_of(pair).start + pair.as_str().len() + (after.len() - spaced.len());
        Span::new(at, at + 1)
    })
}

fn span_of(pair: &Pair<'_, Rule>) -> Span {
    if let Some(pinned) = TEXT_PIN.get() {
        return pinned;
    }
    let start = pair.as_span().start() + TEXT_OFFSET.get();
    Span::new(start, start + pair.as_str().trim_end().len())
}

thread_local! {
    /// Where the text being parsed begins in the query: a function's body is parsed again at
    /// each call, from its own text, and its spans are the query's.
    static TEXT_OFFSET: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Where a text that is not the query's own is read as if it stood (what `hhdb` stands
    /// for): everything in it stands there.
    static TEXT_PIN: std::cell::Cell<Option<Span>> = const { std::cell::Cell::new(None) };
}

/// Pairs up `{ }` and `( )` outside comments and quoted texts, in one pass, and reports each
/// bracket without a partner. A closing one is blanked out, as is everything after a comment or
/// quoted text that is never closed (spans stay true); the missing closing brackets are added at
/// the end, so that what the unclosed ones hold is still read and checked.
fn balance(source: &str) -> (String, Vec<Diagnostic>) {
    let bytes = source.as_bytes();
    let mut text = bytes.to_vec();
    let mut diagnostics = Vec::new();
    // Open brackets: where, and whether it was dropped for nesting too deep.
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut dropped = 0usize;
    let blank_from = |text: &mut Vec<u8>, from: usize| text[from..].iter_mut().for_each(|b| *b = b' ');
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at = memchr_from(bytes, at, b'\n').unwrap_or(bytes.len());
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => match find(bytes, at + 2, b"*/") {
                Some(end) => at = end + 1,
                None => {
                    diagnostics
                        .push(Diagnostic::new(Span::new(at, at + 2), "this comment is never closed: end it with */"));
                    blank_from(&mut text, at);
                    break;
                }
            },
            // `\"` outside quotes is a text of one character, `"`.
            b'\\' => at += 1,
            b'"' => {
                let mut end = at + 1;
                while end < bytes.len() && !matches!(bytes[end], b'"' | b'\n') {
                    end += 1;
                }
                if end >= bytes.len() || bytes[end] == b'\n' {
                    diagnostics
                        .push(Diagnostic::new(Span::new(at, at + 1), "this text is never closed: end it with \""));
                    blank_from(&mut text, at);
                    break;
                }
                at = end;
            }
            b'{' | b'(' => {
                let too_deep = open.len() - dropped >= MAX_NESTING;
                if too_deep {
                    if dropped == 0 {
                        let message = format!("brackets nest more than {MAX_NESTING} deep here");
                        diagnostics.push(Diagnostic::new(Span::new(at, at + 1), message));
                    }
                    dropped += 1;
                    text[at] = b' ';
                }
                open.push((at, too_deep));
            }
            closer @ (b'}' | b')') => {
                let opener = if closer == b'}' { b'{' } else { b'(' };
                if open.last().is_some_and(|&(last, _)| bytes[last] == opener) {
                    if open.pop().is_some_and(|(_, too_deep)| too_deep) {
                        text[at] = b' ';
                        dropped -= 1;
                    }
                } else {
                    let message = format!("unexpected '{}' without a '{}' to close", closer as char, opener as char);
                    diagnostics.push(Diagnostic::new(Span::new(at, at + 1), message));
                    text[at] = b' ';
                }
            }
            _ => {}
        }
        at += 1;
    }
    if open.iter().any(|&(_, too_deep)| !too_deep) {
        // A line comment may run to the end: the closing brackets go on a line of their own.
        text.push(b'\n');
    }
    for &(at, too_deep) in open.iter().rev() {
        if too_deep {
            continue;
        }
        let closer = if bytes[at] == b'{' { b'}' } else { b')' };
        diagnostics.push(Diagnostic::new(
            Span::new(at, at + 1),
            format!("this '{}' is never closed: add a '{}'", bytes[at] as char, closer as char),
        ));
        text.push(closer);
    }
    (String::from_utf8(text).expect("only ASCII bytes were replaced or added"), diagnostics)
}

fn memchr_from(bytes: &[u8], from: usize, byte: u8) -> Option<usize> {
    bytes[from..].iter().position(|&b| b == byte).map(|i| from + i)
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes.get(from..)?.windows(needle.len()).position(|window| window == needle).map(|i| from + i)
}

// ----- Reporting ----------------------------------------------------------------------------

/// Builds the tree and collects mistakes.
struct Builder {
    /// The query's text, as parsed (its brackets balanced).
    source: String,
    diagnostics: Vec<Diagnostic>,
    /// The functions defined so far, by name.
    functions: HashMap<String, functions::Function>,
    /// For each function call being built, the names its parameters stand for.
    aliases: Vec<HashMap<String, String>>,
    /// How many function calls have been read in so far.
    calls: usize,
    /// The variables named so far, in the order of the text, with the type of their values.
    variables: HashMap<String, Type>,
    /// The variables declared `persistent`.
    persistent: HashSet<String>,
    /// The dictionaries declared so far, with what the text has shown of them.
    dictionaries: HashMap<String, dictionaries::DictionaryInfo>,
    /// Junk before this offset belongs to a mistake already reported.
    reported_until: usize,
    /// Whether a tree too deep was reported.
    too_deep: bool,
    /// Whether the filter being built is inside a path, within parentheses only: there CQL
    /// 6.2 reads `+` and `*` as repetitions, never as arithmetic.
    in_path_parentheses: bool,
    /// Whether a blank line came before the path constituent being built: CQL 6.2 ended the
    /// path there.
    past_blank_line_in_path: bool,
    /// How many filters hold the one being built (arguments, constituents, brackets).
    nested: u32,
    /// Where words after `move` were read as actions that no variant's moves do: the filters
    /// after the move, to read again as such.
    strays: Vec<usize>,
    /// The text of the first `cql_assertvariations`.
    asserted_variations: Option<String>,
    /// The variables declared `atomic` so far, in the order of the text.
    atomics: Vec<String>,
    /// The operators the last filter built did not take, for the filter around it.
    untaken: climb::Leftover,
    /// Filters the text of the last filter built holds but that follow it, as CQL 6.2 reads
    /// them: for the list of filters around it, after it.
    following: Vec<Expr>,
    /// The constituents after a line's constituent that left an operator untaken
    /// (`ra1-5 : mainline`): CQL 6.2 ends the line there, the operator takes the line, and
    /// these belong to the line around it.
    line_rest: Option<LineRest>,
    /// The variable whose first value is being built, with how many filters hold that value:
    /// an `and` or `or` ends the value (`x = "a" and x <= "a"`), and from there on the name
    /// is the variable, as CQL 6.2 reads it.
    assigning: Option<(variables::Assignment, u32)>,
    /// The `similarposition` filters read so far, in the order of the text: the file they
    /// share, and where the first named it.
    similar: Vec<(std::sync::Arc<super::similar::SimilarGames>, Span)>,
    /// How many `sort` filters without a label were read so far: each is named
    /// `<sort-id-N>` in turn, as CQL 6.2 names them.
    unlabeled_sorts: usize,
    /// Where the target of a path's dash begins that CQL 6.2 reads twice (a dash right after
    /// a dash): its sorts are registered twice, the first time with no value.
    reread_target: Option<usize>,
    /// The targets read twice in the path being built, as they were read (see `reread_target`).
    path_rereads: Vec<Span>,
    /// What the next filter climbed is an argument of: the set after `light`, `from`,
    /// `through` and the like takes no operator but `:` (what its operand leaves goes to the
    /// filter around, as CQL 6.2 reads it: `light find true & P` is `(light find true) & P`),
    /// and the number after `position` no comparison.
    next_argument: climb::Argument,
}

/// The constituents of a line after the one that ended it ([`Builder::line_rest`]).
struct LineRest {
    constituents: Vec<Constituent>,
    depth: u32,
    /// The arrow after the constituent that ended the line.
    arrow: Span,
}

/// The filters of a query, a block or parentheses, read one item at a time.
#[derive(Default)]
struct Items {
    filters: Vec<Expr>,
    /// Where the last item, if it was a filter, started.
    previous_filter: Option<usize>,
    /// Whether junk was met.
    junk: bool,
    /// The depth of the deepest filter.
    depth: u32,
    /// Where the last filter ended, when a `path` in it is still open there: CQL 6.2 reads
    /// what follows as the path's, up to a blank line or the end of the brackets around.
    path_open_until: Option<usize>,
}

impl Items {
    fn add(&mut self, pair: Pair<'_, Rule>, builder: &mut Builder) {
        match pair.as_rule() {
            Rule::filter => {
                let span = span_of(&pair);
                self.previous_filter = Some(span.start);
                let in_path = self.path_open_until.is_some_and(|end| {
                    builder.source.get(end..span.start).is_some_and(|between| !has_blank_line(between))
                });
                let in_path_parentheses = builder.in_path_parentheses;
                builder.in_path_parentheses |= in_path;
                let built = builder.operators(pair.into_inner());
                let (filter, depth) = builder.bind_untaken(built);
                builder.report_line_rest();
                builder.in_path_parentheses = in_path_parentheses;
                let ends_path = in_path
                    || (filter.any(&|expr| matches!(expr.kind, ExprKind::Path(_)))
                        && path_open_at_end(span.text(&builder.source)));
                self.path_open_until = ends_path.then_some(span.end);
                self.depth = self.depth.max(depth);
                self.filters.extend(minus::split_at_dangling_minus(filter, &builder.source));
                self.filters.append(&mut builder.following);
            }
            Rule::junk => {
                self.junk = true;
                let junk = span_of(&pair);
                if junk.start >= builder.reported_until {
                    let diagnostic = diagnose_junk(&builder.source, junk, self.previous_filter);
                    builder.reported_until = diagnostic.span.end.max(junk.end);
                    builder.diagnostics.push(diagnostic);
                }
                self.previous_filter = None;
            }
            _ => {}
        }
    }
}

/// Whether the last `path` of a filter's text is still open at its end: no bracket opened
/// before it closes after it.
fn path_open_at_end(text: &str) -> bool {
    let last_path = text
        .match_indices("path")
        .filter(|(at, _)| {
            let before = text[..*at].chars().next_back();
            let after = text[at + 4..].chars().next();
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .map(|(at, _)| at)
        .chain(text.match_indices('⊢').map(|(at, _)| at))
        .max();
    let Some(at) = last_path else { return false };
    if has_blank_line(&text[at..]) {
        return false;
    }
    let mut depth = 0i32;
    for c in text[at..].chars() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    true
}

/// Whether a text holds a line with nothing but spaces on it, between two line ends.
pub(super) fn has_blank_line(text: &str) -> bool {
    let (Some(first), Some(last)) = (text.find('\n'), text.rfind('\n')) else { return false };
    first < last && text[first + 1..last].split('\n').any(|line| line.trim_matches([' ', '\t', '\r']).is_empty())
}

/// Explains text that is no filter by parsing it again: as the continuation of the filter just
/// before it (`#R > >`, `Qh7 and`), or on its own.
fn diagnose_junk(source: &str, junk: Span, previous_filter: Option<usize>) -> Diagnostic {
    let token = junk.text(source);
    if token == "=" {
        let before = source[..junk.start].trim_end();
        let name = &before[before.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_').len()..];
        if !name.is_empty() && source[junk.end..].trim().is_empty() {
            return Diagnostic::new(junk, format!("the value is missing: write what '{name}' gets after '='"));
        }
        return Diagnostic::new(junk, "unexpected '=': to compare numbers write ==");
    }
    if token.starts_with('"') {
        return Diagnostic::new(junk, "unexpected quoted text: only header parameters take text here");
    }
    if let Some(start) = previous_filter
        && let Err(error) = parse_rule(Rule::filter_to_end, &source[start..])
        && error_position(&error) + start > junk.start
    {
        return describe_error(&error, source, start);
    }
    let rest = &source[junk.start..];
    let header = rest.strip_prefix("cql").is_some_and(|after| after.trim_start().starts_with('('));
    let rule = if header { Rule::header_only } else { Rule::filter_only };
    match parse_rule(rule, rest) {
        Err(error) => describe_error(&error, source, junk.start),
        Ok(pairs) if header => Diagnostic::new(
            Span::new(junk.start, junk.start + pairs.as_str().len()),
            "the header cql(...) must come first in a query",
        ),
        Ok(_) => Diagnostic::new(junk, format!("unexpected {}", quoted(token))),
    }
}

fn error_position(error: &pest::error::Error<Rule>) -> usize {
    match error.location {
        InputLocation::Pos(position) => position,
        InputLocation::Span((start, _)) => start,
    }
}
fn describe_error(error: &pest::error::Error<Rule>, source: &str, offset: usize) -> Diagnostic {
    let mut position = offset + error_position(error);
    if source[position..].trim().is_empty() {
        // At the end: point just after the last thing written.
        position = source[..position].trim_end().len().max(offset);
    }
    if let Some(word) = unknown_word(source, position) {
        return Diagnostic::new(word, unknown_word_message(word.text(source), &[]));
    }
    if let Some(keyword) = keyword_around(source, position) {
        // A keyword where a filter was expected: the mistake is the keyword, not its letters.
        let found = keyword.text(source);
        let message = match source[offset..keyword.start].trim() {
            "" => format!("expected a filter such as Qh7, found {}", quoted(found)),
            context => format!("unexpected {} after '{}'", quoted(found), shorten(context)),
        };
        return Diagnostic::new(keyword, message);
    }
    let found = word_at(source, position);
    let span = Span::new(position, position + found.len().max(1));
    let context = source[offset..position].trim();
    let found_text = if found.is_empty() { "the end of the query".to_owned() } else { quoted(found) };
    let message = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let expected = expectation(positives, context);
            match (expected, context.is_empty()) {
                (None, true) if found.is_empty() => "unexpected end of the query".to_owned(),
                (None, false) if found.is_empty() => format!("the query ends too soon after '{}'", shorten(context)),
                (None, true) => format!("unexpected {found_text}"),
                (None, false) => format!("unexpected {found_text} after '{}'", shorten(context)),
                (Some(expected), true) => format!("expected {expected}, found {found_text}"),
                (Some(expected), false) => format!("expected {expected} after '{}'", shorten(context)),
            }
        }
        ErrorVariant::CustomError { message } if message.contains("limit reached") => {
            "the query is too complex to read from here on".to_owned()
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    Diagnostic::new(span, message)
}

/// The word of three letters or more around a byte offset, if it is one: no designator is made of
/// letters alone, and no keyword fits there.
fn unknown_word(source: &str, position: usize) -> Option<Span> {
    let is_letter = |c: char| c.is_ascii_alphabetic();
    if !source[position..].starts_with(is_letter) {
        return None;
    }
    let start = source[..position]
        .char_indices()
        .rev()
        .find(|&(_, c)| !is_letter(c))
        .map_or(0, |(index, c)| index + c.len_utf8());
    let end = source[position..].find(|c: char| !is_letter(c)).map_or(source.len(), |i| position + i);
    let word = &source[start..end];
    let followed_by_designator = source[end..].starts_with(|c: char| c.is_ascii_digit() || "[?&_".contains(c));
    let keyword = parse_rule(Rule::keyword, word).is_ok_and(|pairs| pairs.as_str() == word);
    (word.len() >= 3 && !followed_by_designator && !keyword).then_some(Span::new(start, end))
}

/// The keyword whose letters after the first hold a byte offset, if one does.
fn keyword_around(source: &str, position: usize) -> Option<Span> {
    let is_letter = |c: char| c.is_ascii_alphabetic();
    if !source[position..].starts_with(is_letter) || !source[..position].ends_with(is_letter) {
        return None;
    }
    let start = source[..position]
        .char_indices()
        .rev()
        .find(|&(_, c)| !is_letter(c))
        .map_or(0, |(index, c)| index + c.len_utf8());
    let end = source[position..].find(|c: char| !is_letter(c)).map_or(source.len(), |i| position + i);
    let word = &source[start..end];
    parse_rule(Rule::keyword, word).is_ok_and(|pairs| pairs.as_str() == word).then_some(Span::new(start, end))
}

/// The word at a byte offset: up to the next space or bracket, at least one character.
fn word_at(source: &str, position: usize) -> &str {
    let rest = source.get(position..).unwrap_or("");
    let end = rest
        .char_indices()
        .find(|&(index, c)| c.is_whitespace() || (index > 0 && "{}()".contains(c)))
        .map_or(rest.len(), |(index, _)| index.max(rest.chars().next().map_or(0, char::len_utf8)));
    &rest[..end]
}

/// What comes before a mistake, as a message quotes it: its last characters, escaped.
fn shorten(context: &str) -> String {
    ending(context, 24)
}

/// The phrase for the argument of a word (`from S`, `light S`, `flip F`); [`argument_after`]
/// names it after the word before it.
const ARGUMENT: &str = "an argument";

/// What the word at the end of `context` takes as its argument.
fn argument_after(context: &str) -> &'static str {
    let last = context.rsplit(|c: char| c.is_whitespace() || "{}()".contains(c)).next().unwrap_or("");
    match last {
        "from" | "through" | "to" | "capture" | "light" | "dark" | "power" => "a set of squares such as e4 or R",
        "promote" => "a piece such as Q or [RBN]",
        _ => "a filter such as Qh7",
    }
}

/// The phrase for a quoted text; [`quoted_after`] gives an example that fits the word before it.
const QUOTED: &str = "a quoted text";

/// What kind of quoted text the word at the end of `context` takes.
fn quoted_after(context: &str) -> &'static str {
    let last = context.rsplit(|c: char| c.is_whitespace() || "{}()".contains(c)).next().unwrap_or("");
    match last {
        "variant" => "a quoted variant name such as \"One\"",
        "player" | "white" | "black" => "a quoted name such as \"Carlsen\"",
        "fen" => "a quoted board such as \"4k3/8/8/8/8/8/8/4K3\"",
        "tag" => "a quoted tag name such as \"Opening\"",
        "event" | "site" | "date" | "eco" => "a quoted text such as \"Wijk aan Zee\"",
        // `tag "Opening"`: the text looked for in the tag.
        name if name.ends_with('"') => "a quoted text such as \"Sicilian\"",
        _ => "a quoted text such as \"CQL\"",
    }
}

/// What the parser was looking for after `context`, in words; None when nothing useful can be
/// said.
fn expectation(positives: &[Rule], context: &str) -> Option<String> {
    let mut phrases: Vec<(u8, &str)> = positives
        .iter()
        .filter_map(|rule| phrase(*rule))
        .map(|(rank, words)| match words {
            ARGUMENT => (rank, argument_after(context)),
            QUOTED => (rank, quoted_after(context)),
            _ => (rank, words),
        })
        .collect();
    if phrases.iter().any(|(rank, _)| *rank == 4) {
        // A filter may be a number; naming both says nothing more.
        phrases.retain(|(_, words)| *words != "a number");
    }
    phrases.sort();
    phrases.dedup();
    let words: Vec<&str> = phrases.into_iter().map(|(_, words)| words).take(3).collect();
    match words.as_slice() {
        [] => None,
        [one] => Some((*one).to_owned()),
        [init @ .., last] => Some(format!("{} or {last}", init.join(", "))),
    }
}

/// The words for a grammar rule, with a rank: lower ranks are named first.
fn phrase(rule: Rule) -> Option<(u8, &'static str)> {
    Some(match rule {
        Rule::square_designator
        | Rule::square_list
        | Rule::region
        | Rule::file_part
        | Rule::file
        | Rule::file_range
        | Rule::any
        | Rule::light
        | Rule::dark
        | Rule::all_squares
        | Rule::backhand
        | Rule::board_and_backhand => (0, "a square such as e4"),
        Rule::rank_part | Rule::rank | Rule::rank_range => (0, "a rank such as 4"),
        Rule::close_bracket => (1, "']'"),
        Rule::comma => (2, "','"),
        Rule::close_paren => (1, "')'"),
        Rule::open_paren => (1, "'('"),
        Rule::arrow => (1, "'-->'"),
        Rule::argument | Rule::set_argument | Rule::promote_argument => (4, ARGUMENT),
        Rule::close_brace => (1, "'}'"),
        Rule::piece_list
        | Rule::piece_entity
        | Rule::figurine
        | Rule::figurines
        | Rule::empty_piece
        | Rule::list_letters => (3, "a piece such as R"),
        Rule::filter
        | Rule::filter_only
        | Rule::parenthesized
        | Rule::block
        | Rule::min_max
        | Rule::designator
        | Rule::piece_designator
        | Rule::letters1
        | Rule::letters2
        | Rule::op_not
        | Rule::op_abs
        | Rule::op_count
        | Rule::op_complement
        | Rule::op_negate => (4, "a filter such as Qh7"),
        Rule::number => (5, "a number"),
        Rule::string | Rule::string_text => (0, QUOTED),
        Rule::path | Rule::bare_path => (0, "a file name"),
        Rule::result_value => (0, "a result such as 1-0"),
        Rule::input_param
        | Rule::output_param
        | Rule::matchcount_param
        | Rule::gamenumber_param
        | Rule::result_param
        | Rule::variations_param
        | Rule::matchstring_param
        | Rule::variant_param
        | Rule::sort_param => (5, "a header parameter such as matchcount 2"),
        Rule::header | Rule::header_only | Rule::kw_cql => (5, "a header cql(...)"),
        _ => return None,
    })
}

/// An operand built so far: a tree with its depth, or the operands of a chain of one
/// associative operator, to be grouped once the chain is complete.
enum Built {
    Tree(Expr, u32),
    Chain(BinaryOp, Vec<(Expr, u32)>),
    /// A chain of attack arrows of one direction (`->` when true): `A -> B -> C` is one chain.
    Arrows(bool, Vec<(Expr, u32)>),
}

/// The precedence level of a binary operator, loosest first.
fn level(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Or => 0,
        BinaryOp::And => 1,
        BinaryOp::In | BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 2,
        BinaryOp::Add | BinaryOp::Sub => 3,
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 4,
        BinaryOp::Union => 5,
        BinaryOp::Intersection => 6,
    }
}

// ----- Header -------------------------------------------------------------------------------

impl Builder {
    fn header(&mut self, pair: Pair<'_, Rule>) -> Header {
        let mut header = Header { span: span_of(&pair), ..Header::default() };
        for parameter in pair.into_inner() {
            let span = span_of(&parameter);
            let name = parameter.as_str().split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("").to_owned();
            let rule = parameter.as_rule();
            let mut inner = parameter.into_inner().filter(|pair| !is_keyword(pair.as_rule()));
            let mut twice = false;
            match rule {
                Rule::input_param => twice = header.input.replace(path(inner.next())).is_some(),
                Rule::output_param => twice = header.output.replace(path(inner.next())).is_some(),
                Rule::matchcount_param | Rule::gamenumber_param => {
                    let low = self.header_number(inner.next());
                    let high = inner.next().map(|pair| self.header_number(Some(pair)));
                    twice = if rule == Rule::matchcount_param {
                        // One number is an exact count, as in CQL 6.2.
                        header.matchcount.replace((low, Some(high.unwrap_or(low)))).is_some()
                    } else {
                        header.gamenumber.replace((low, high)).is_some()
                    };
                }
                Rule::result_param => {
                    let value = inner.next().map(|pair| pair.as_str().to_owned()).unwrap_or_default();
                    twice = header.result.replace(value).is_some();
                }
                Rule::variations_param => {
                    twice = header.variations;
                    header.variations = true;
                }
                Rule::matchstring_param => twice = header.matchstring.replace(string(inner.next())).is_some(),
                Rule::variant_param => {
                    let value = inner.next();
                    let value_span = value.as_ref().map_or(span, span_of);
                    twice = header.variant.replace((string(value), value_span)).is_some();
                }
                Rule::sort_matchcount_param => {
                    let low = self.header_number(inner.next());
                    let high = self.header_number(inner.next());
                    twice = header.sort_matchcount;
                    header.sort_matchcount = true;
                    header.matchcount = Some((low, Some(high)));
                }
                // The first of `quiet` and `silent` sets the level of comments, as in CQL 6.2.
                Rule::quiet_param => {
                    twice = header.quiet;
                    header.quiet = !header.silent;
                }
                Rule::silent_param => {
                    twice = header.silent;
                    header.silent = !header.quiet;
                }
                Rule::sort_param => {
                    let mut sort = Sort { min: false, label: None, expr: placeholder(span) };
                    for part in inner {
                        match part.as_rule() {
                            Rule::sort_direction => sort.min = part.as_str().starts_with("min"),
                            Rule::string => sort.label = Some(string(Some(part))),
                            Rule::filter => sort.expr = self.filter(part),
                            _ => {}
                        }
                    }
                    twice = header.sort.replace(sort).is_some();
                }
                _ => {}
            }
            if twice {
                self.diagnostics.push(Diagnostic::new(span, format!("'{name}' is given twice in the header")));
            }
        }
        header
    }

    fn header_number(&mut self, pair: Option<Pair<'_, Rule>>) -> u64 {
        let Some(pair) = pair else { return 0 };
        pair.as_str().parse().unwrap_or_else(|_| {
            self.diagnostics.push(Diagnostic::new(span_of(&pair), "this number is too large"));
            0
        })
    }

    /// The two filters inside a filter of two arguments (`between(S T)`, `makesquare(F R)`), with
    /// the greater depth.
    fn two_filters(&mut self, pair: Pair<'_, Rule>) -> (Box<Expr>, Box<Expr>, u32) {
        let mut filters = self.filters(pair.into_inner());
        let (first, first_depth) = filters.remove(0);
        let (second, second_depth) = filters.remove(0);
        (Box::new(first), Box::new(second), first_depth.max(second_depth))
    }

    /// A count of steps or repetitions; a number too large is reported.
    fn small_number(&mut self, pair: &Pair<'_, Rule>) -> u32 {
        pair.as_str().parse().unwrap_or_else(|_| {
            self.diagnostics.push(Diagnostic::new(span_of(pair), "this number is too large"));
            0
        })
    }

    fn filter(&mut self, pair: Pair<'_, Rule>) -> Expr {
        self.operators(pair.into_inner()).0
    }

    /// A filter's operators and operands as a tree, with its depth. Long runs of prefixes and
    /// trees too deep are refused, so that no pass over the tree runs out of stack; a chain of
    /// one associative operator (`a and b and c ...`) is grouped as a balanced tree, whose
    /// depth grows with the logarithm of its length.
    fn operators(&mut self, pairs: Pairs<'_, Rule>) -> (Expr, u32) {
        let span = pairs.clone().next().map_or(Span::default(), |first| span_of(&first));
        let longest_run = pairs
            .clone()
            .map(|pair| is_prefix(pair.as_rule()))
            .fold((0, 0), |(run, longest), prefix| if prefix { (run + 1, longest.max(run + 1)) } else { (0, longest) })
            .1;
        if longest_run > MAX_PREFIXES {
            let message = format!("more than {MAX_PREFIXES} prefix operators in a row");
            self.diagnostics.push(Diagnostic::new(span, message));
            return (placeholder(span), 1);
        }
        if self.nested >= MAX_NESTED {
            // Refused before it is built: building recurses as deep as the filters nest.
            if !std::mem::replace(&mut self.too_deep, true) {
                let message = format!("filters nest more than {MAX_NESTED} deep here");
                self.diagnostics.push(Diagnostic::new(span, message));
            }
            return (placeholder(span), 1);
        }
        self.nested += 1;
        let built = self.climb_filter(pairs);
        self.nested -= 1;
        built
    }

    /// The tree of what was built.
    fn finish(&mut self, built: Built) -> (Expr, u32) {
        match built {
            Built::Tree(expr, depth) => (expr, depth),
            Built::Chain(op, operands) => {
                let count = operands.len();
                self.balanced(op, &mut operands.into_iter(), count)
            }
            Built::Arrows(forward, operands) => {
                let depth = operands.iter().map(|(_, depth)| *depth).max().unwrap_or(0) + 1;
                let sets: Vec<Expr> = operands.into_iter().map(|(expr, _)| expr).collect();
                let span = sets[0].span.join(sets[sets.len() - 1].span);
                self.bounded(Expr { kind: ExprKind::Arrows { forward, sets }, span }, depth, None)
            }
        }
    }

    /// The next `count` operands of a chain of `op`, joined in a balanced tree: in the order
    /// written (so `and` and `or` test them in that order), and as deep as the logarithm of
    /// their count.
    fn balanced(
        &mut self,
        op: BinaryOp,
        operands: &mut impl Iterator<Item = (Expr, u32)>,
        count: usize,
    ) -> (Expr, u32) {
        if count <= 1 {
            return operands.next().expect("parse: a chain has as many operands as counted");
        }
        let (left, left_depth) = self.balanced(op, operands, count / 2);
        let (right, right_depth) = self.balanced(op, operands, count - count / 2);
        let span = left.span.join(right.span);
        let kind = ExprKind::Binary(op, Box::new(left), Box::new(right));
        self.bounded(Expr { kind, span }, left_depth.max(right_depth) + 1, None)
    }

    /// The node, if the tree is not too deep; else a placeholder and (once) a mistake. `chain`
    /// is the operator when the node goes on a chain of operators of one level (`1 + 2 - 3`),
    /// which makes the tree deeper without any nesting in the text.
    fn bounded(&mut self, expr: Expr, depth: u32, chain: Option<BinaryOp>) -> (Expr, u32) {
        if depth <= MAX_DEPTH {
            return (expr, depth);
        }
        if !std::mem::replace(&mut self.too_deep, true) {
            let message = match chain {
                Some(op) => format!(
                    "this filter chains more than {MAX_DEPTH} operators such as '{}' in a row: group some of them in parentheses",
                    op.symbol()
                ),
                None => format!("this filter nests more than {MAX_DEPTH} levels deep"),
            };
            self.diagnostics.push(Diagnostic::new(expr.span, message));
        }
        (placeholder(expr.span), 1)
    }

    fn operand(&mut self, pair: Pair<'_, Rule>) -> (Expr, u32) {
        let span = span_of(&pair);
        let (kind, depth) = match pair.as_rule() {
            Rule::parenthesized => {
                let items = self.items(pair.into_inner());
                if items.filters.len() > 1 && !items.junk {
                    self.diagnostics.push(Diagnostic::new(
                        span,
                        "parentheses hold one filter: to require several, write them in { }",
                    ));
                }
                if items.filters.is_empty() && !items.junk {
                    self.diagnostics.push(Diagnostic::new(span, "empty parentheses: write a filter inside"));
                }
                return match items.filters.into_iter().next() {
                    Some(filter) => (Expr { span, ..filter }, items.depth),
                    None => (placeholder(span), 1),
                };
            }
            Rule::block => {
                if is_brace_repetition(pair.as_str()) {
                    let message = format!(
                        "{} is a repetition (braces around numbers without spaces repeat a constituent of a \
                         line or a path), not a filter, as CQL 6.2 reads it: for a filter in braces put spaces inside",
                        quoted(pair.as_str())
                    );
                    self.diagnostics.push(Diagnostic::new(span, message));
                }
                let items = self.outside_path_parentheses(|builder| builder.items(pair.into_inner()));
                if items.filters.is_empty() && !items.junk {
                    self.diagnostics
                        .push(Diagnostic::new(span, "braces must hold a filter (CQL 6.2 refuses '{}' too)"));
                }
                (ExprKind::Block(items.filters), items.depth + 1)
            }
            Rule::number => match pair.as_str().parse() {
                Ok(value) => (ExprKind::Number(value), 1),
                Err(_) => {
                    self.diagnostics.push(Diagnostic::new(span, "this number is too large"));
                    (ExprKind::Number(0), 1)
                }
            },
            Rule::min_max => {
                let mut inner = pair.into_inner();
                let max = inner.next().expect("grammar: min or max").as_rule() == Rule::kw_max;
                let items = self.items(inner);
                if items.filters.len() < 2 && !items.junk {
                    // As CQL 6.2 wants: of one value, the value itself is meant.
                    let name = if max { "max" } else { "min" };
                    self.diagnostics.push(Diagnostic::new(span, format!("{name}() needs at least two values")));
                }
                (ExprKind::Extreme { max, args: items.filters }, items.depth + 1)
            }
            Rule::function_def => self.function_def(pair),
            Rule::function_call => self.function_call(pair),
            Rule::designator if self.is_variable(pair.as_str()) => (self.variable(&pair), 1),
            Rule::variable => (self.variable(&pair), 1),
            Rule::subscripted => self.subscripted(pair),
            Rule::assignment => self.assignment(pair),
            Rule::dictionary_filter => self.dictionary_filter(pair),
            Rule::entry_store => self.entry_store(pair),
            Rule::unbind_filter => self.unbind_filter(pair),
            Rule::bound_filter => self.bound_filter(pair),
            Rule::if_filter => self.if_filter(pair),
            Rule::loop_filter => self.loop_filter(pair),
            Rule::find_filter => self.find_filter(pair, span.start),
            Rule::comment_filter => self.comment_filter(pair),
            Rule::repeat_filter | Rule::while_filter => {
                let mut filters = self.filters(pair.into_inner());
                let (body, body_depth) = filters.pop().expect("grammar: a loop has a body");
                let test = filters.pop();
                let depth = body_depth.max(test.as_ref().map_or(0, |(_, depth)| *depth));
                (ExprKind::Repeat { test: test.map(|(test, _)| Box::new(test)), body: Box::new(body) }, depth + 1)
            }
            Rule::unsupported => {
                let message = format!(
                    "{} is not supported yet: cqlq has CQL 6.2's language but for a few words",
                    quoted(pair.as_str())
                );
                self.diagnostics.push(Diagnostic::new(span, message));
                (ExprKind::Word(Word::True), 1)
            }
            Rule::piece_assignment => self.piece_assignment(pair),
            Rule::slash_comment => self.slash_comment(pair),
            Rule::dash_filter => self.dash_filter(pair),
            Rule::path_filter => self.path_filter(pair),
            Rule::path_word => self.path_word(&pair),
            Rule::legal_dash => self.legal_dash(pair, false),
            Rule::notransform => {
                let body = pair.into_inner().nth(1).expect("grammar: notransform takes a filter");
                let (body, depth) = self.operators(body.into_inner());
                (ExprKind::NoTransform(Box::new(body)), depth + 1)
            }
            Rule::previous_square => {
                // `from`, `to` and `enpassantsquare` alone are sets in CQL 6.2 too.
                let mut filter = MoveFilter { set_in_cql: true, ..MoveFilter::any(MoveWhen::Previous) };
                match pair.as_str() {
                    "from" => filter.castling_rook = true,
                    "to" => {
                        filter.castling_rook = true;
                        filter.value = MoveSquare::To;
                    }
                    _ => {
                        filter.en_passant = true;
                        filter.value = MoveSquare::Capture;
                    }
                }
                (ExprKind::Move(filter), 1)
            }
            Rule::countmoves => self.countmoves(pair),
            Rule::previous_dash => self.previous_dash(pair),
            Rule::sort_filter => {
                let sort_span = span_of(&pair);
                let (mut min, mut quiet, mut label, mut labeled) = (false, false, None, false);
                let mut value = None;
                for part in pair.into_inner() {
                    match part.as_rule() {
                        Rule::kw_quiet => quiet = true,
                        // CQL 6.2 sorts `max "label"` as it sorts `min "label"`.
                        Rule::sort_direction => min = true,
                        Rule::string => {
                            let text = string(Some(part));
                            labeled = !text.is_empty();
                            label = Some(text);
                        }
                        Rule::filter => {
                            // Named before its value is read, as CQL 6.2 numbers them.
                            if label.is_none() {
                                self.unlabeled_sorts += 1;
                                label = Some(crate::query::unlabeled_sort_label(self.unlabeled_sorts));
                            }
                            value = Some(self.operators(part.into_inner()));
                        }
                        _ => {}
                    }
                }
                let (value, depth) = value.expect("grammar: sort takes a value");
                if min && !labeled {
                    let message = "after 'sort min' or 'sort max' comes a label that is not empty, as in sort min \"pieces\" #A (CQL 6.2 asks for one, so that min and max are not read as the functions)";
                    self.diagnostics.push(Diagnostic::new(sort_span, message));
                } else if min && value.any(&|expr| matches!(expr.kind, ExprKind::Echo { .. })) {
                    let message = "'sort' with 'min' or 'max' cannot sort by an 'echo' (CQL 6.2 refuses it too): write 'sort' alone";
                    self.diagnostics.push(Diagnostic::new(sort_span, message));
                }
                (ExprKind::Sort { min, label, quiet, value: Box::new(value) }, depth + 1)
            }
            Rule::echo_filter => self.echo_filter(pair),
            Rule::position_word => (ExprKind::Position(position_word(pair.as_str())), 1),
            Rule::child_filter => {
                if let Some(number) = pair.clone().into_inner().find(|part| part.as_rule() == Rule::child_number) {
                    let filter = number.into_inner().next().expect("grammar: a child's number is a filter");
                    let (number, depth) = self.operators(filter.into_inner());
                    return self.bounded(
                        Expr { kind: ExprKind::NumberedChild(Box::new(number)), span },
                        depth + 1,
                        None,
                    );
                }
                let variation = pair.clone().into_inner().find(|part| part.as_rule() == Rule::number);
                // After `child(N)`, parentheses begin a filter of their own.
                if variation.is_none()
                    && let Some(paren) = paren_after(&pair)
                {
                    let message = "child takes the number of a variation in parentheses, as in child(1)";
                    self.diagnostics.push(Diagnostic::new(paren, message));
                }
                (ExprKind::Position(PositionWord::Child(variation.map_or(0, |n| self.small_number(&n)))), 1)
            }
            Rule::lca_filter => {
                let (first, second, depth) = self.two_filters(pair);
                (ExprKind::Lca(first, second), depth + 1)
            }
            Rule::descendant_filter => {
                let ancestor = pair.clone().into_inner().next().is_some_and(|word| word.as_rule() == Rule::kw_ancestor);
                let (first, second, depth) = self.two_filters(pair);
                let (ancestor, descendant) = if ancestor { (first, second) } else { (second, first) };
                let kind =
                    ExprKind::Descends { ancestor, descendant, strict: true, later_first: true, keeps_notes: true };
                (kind, depth + 1)
            }
            Rule::numbered_position => {
                let number = pair.into_inner().find(|part| part.as_rule() == Rule::position_number);
                self.next_argument = climb::Argument::Number;
                let (number, depth) = self.operators(number.expect("grammar: position takes a number").into_inner());
                self.next_argument = climb::Argument::None;
                (ExprKind::NumberedPosition(Box::new(number)), depth + 1)
            }
            Rule::designator => {
                let inner = pair.into_inner().next().expect("grammar: a designator has a kind");
                match inner.as_rule() {
                    Rule::square_designator => (ExprKind::Squares(build_squares(inner)), 1),
                    _ => {
                        self.refuse_short_dictionary_on_squares(&inner);
                        (ExprKind::Pieces(build_pieces(inner)), 1)
                    }
                }
            }
            Rule::word => (ExprKind::Word(word(pair.as_str())), 1),
            Rule::mate_shape => {
                let text = pair.as_str();
                let shape = match &text[..4] {
                    "pure" => MateShape::Pure,
                    "mode" => MateShape::Model,
                    _ => MateShape::Ideal,
                };
                (ExprKind::MateShape { shape, stalemate: text.contains("stalemate") }, 1)
            }
            Rule::between_filter => {
                let (first, second, depth) = self.two_filters(pair);
                (ExprKind::Between(first, second), depth + 1)
            }
            Rule::ray_filter => {
                let mut directions = Vec::new();
                let mut sets = Vec::new();
                let mut depth = 0;
                for part in pair.into_inner() {
                    match part.as_rule() {
                        Rule::direction_word => {
                            let direction = Direction::from_word(part.as_str()).expect("grammar: a direction");
                            let repeated = directions.iter().any(|given: &Direction| {
                                given.steps().iter().any(|step| direction.steps().contains(step))
                            });
                            if repeated {
                                let message =
                                    format!("{} repeats a direction given before in this ray", quoted(part.as_str()));
                                self.diagnostics.push(Diagnostic::new(span_of(&part), message));
                            }
                            directions.push(direction);
                        }
                        Rule::filter => {
                            let (set, set_depth) = self.enclosed_filter(part);
                            depth = depth.max(set_depth);
                            sets.push(set);
                        }
                        _ => {}
                    }
                }
                (ExprKind::Ray { directions, sets }, depth + 1)
            }
            Rule::equal_filter => {
                let (first, second, depth) = self.two_filters(pair);
                (ExprKind::Equal(first, second), depth + 1)
            }
            Rule::distance_filter => {
                let (first, second, depth) = self.two_filters(pair);
                (ExprKind::Distance(first, second), depth + 1)
            }
            Rule::consecutive_moves => (self.consecutive_moves(pair), 1),
            Rule::typename_filter => {
                let piece = pair.clone().into_inner().next().is_some_and(|word| word.as_rule() == Rule::kw_piecename);
                let (set, depth) = self.argument(pair).expect("grammar: typename takes a set");
                (if piece { ExprKind::PieceName(set) } else { ExprKind::TypeName(set) }, depth + 1)
            }
            Rule::text => (ExprKind::Text(string(Some(pair))), 1),
            Rule::text_escape => (texts::text_escape(pair.as_str()), 1),
            Rule::regex_group => (texts::regex_group(pair.as_str()), 1),
            Rule::text_function => self.text_function(pair),
            Rule::str_filter => self.str_filter(pair),
            Rule::indexof_filter => {
                let (first, second, depth) = self.two_filters(pair);
                (ExprKind::IndexOf(first, second), depth + 1)
            }
            Rule::original_comment => self.original_comment(pair),
            Rule::remove_comment => (ExprKind::RemoveComment, 1),
            Rule::set_tag => self.set_tag(pair),
            Rule::assert_filter => self.assert_filter(pair),
            Rule::abort_word => (ExprKind::Abort, 1),
            Rule::assert_variations => {
                // Matches; the search refuses to start without variations.
                let text = pair.into_inner().find(|part| part.as_rule() == Rule::string);
                let text = string(text);
                if text.is_empty() {
                    self.diagnostics.push(Diagnostic::new(span, "cql_assertvariations takes a text that is not empty"));
                }
                self.asserted_variations.get_or_insert(text);
                (ExprKind::Word(Word::True), 1)
            }
            Rule::try_word => annotations::try_word(span),
            Rule::writefile_filter => {
                let (first, second, depth) = self.two_filters(pair);
                (ExprKind::WriteFile(first, second), depth + 1)
            }
            Rule::xray_filter => {
                let sets: Vec<(Expr, u32)> = pair
                    .into_inner()
                    .filter(|part| part.as_rule() == Rule::filter)
                    .map(|part| self.enclosed_filter(part))
                    .collect();
                let depth = sets.iter().map(|(_, depth)| *depth).max().unwrap_or(0);
                (ExprKind::XRay(sets.into_iter().map(|(set, _)| set).collect()), depth + 1)
            }
            Rule::pin_filter => {
                let (mut from, mut through, mut to) = (None, None, None);
                let mut depth = 0;
                // The part written first is the value, as in CQL 6.2.
                let value = match pair.clone().into_inner().nth(1).map(|part| part.as_rule()) {
                    Some(Rule::pin_from) => PinPart::From,
                    Some(Rule::pin_to) => PinPart::To,
                    _ => PinPart::Through,
                };
                for part in pair.clone().into_inner() {
                    if self.parameters_end(&pair, &part) {
                        break;
                    }
                    let rule = part.as_rule();
                    if rule == Rule::pin_missing {
                        self.set_missing("pin", &part);
                        continue;
                    }
                    let Some((argument, argument_depth)) = self.argument(part) else { continue };
                    depth = depth.max(argument_depth);
                    let slot = match rule {
                        Rule::pin_from => &mut from,
                        Rule::pin_through => &mut through,
                        _ => &mut to,
                    };
                    self.once(slot, argument);
                }
                (ExprKind::Pin { from, through, to, value }, depth + 1)
            }
            Rule::square_number => {
                let what = match pair.clone().into_inner().next().map(|word| word.as_str()) {
                    Some("rank") => SquareNumber::Rank,
                    Some("file") => SquareNumber::File,
                    Some("type") => SquareNumber::Type,
                    _ => SquareNumber::ColorType,
                };
                let (set, depth) = self.argument(pair).expect("grammar: rank, file and type take a set");
                (ExprKind::SquareNumber { what, set }, depth + 1)
            }
            Rule::make_square => {
                if let Some(name) = pair.clone().into_inner().find(|part| part.as_rule() == Rule::text_operand) {
                    let (name, depth) = self.operators(name.into_inner());
                    (ExprKind::SquareNamed(Box::new(name)), depth + 1)
                } else {
                    let mut filters = self.filters(pair.into_inner());
                    let depth = filters.iter().map(|(_, depth)| *depth).max().unwrap_or(0);
                    let rank = filters.pop().expect("grammar: makesquare takes a filter").0;
                    match filters.pop() {
                        Some((file, _)) => (ExprKind::MakeSquare(Box::new(file), Box::new(rank)), depth + 1),
                        None => (ExprKind::SquareNamed(Box::new(rank)), depth + 1),
                    }
                }
            }
            Rule::direction_filter => {
                let parts: Vec<Pair<'_, Rule>> = pair.clone().into_inner().collect();
                let direction = Direction::from_word(parts[0].as_str()).expect("grammar: a direction word");
                let bounds: Vec<Expr> = parts
                    .iter()
                    .filter(|part| part.as_rule() == Rule::direction_bound)
                    .map(|part| self.range_bound(part.clone()))
                    .collect();
                if let [Expr { kind: ExprKind::Number(min), .. }, Expr { kind: ExprKind::Number(max), .. }] =
                    &bounds[..]
                    && max < min
                {
                    let message = format!("the range {min} {max} runs backwards: write the smaller number first");
                    self.diagnostics.push(Diagnostic::new(span, message));
                }
                let (set, depth) = self.argument(pair).expect("grammar: a direction takes a set");
                (ExprKind::Direction { direction, bounds, set }, depth + 1)
            }
            Rule::shade => {
                let light = pair.as_str().starts_with('l');
                let (set, depth) = self.argument(pair).expect("grammar: light and dark take a set");
                (ExprKind::Shade { light, set }, depth + 1)
            }
            Rule::power => {
                let (set, depth) = self.argument(pair).expect("grammar: power takes a set");
                (ExprKind::Power(set), depth + 1)
            }
            Rule::piece_id => {
                let (set, depth) = self.argument(pair).expect("grammar: pieceid takes a set");
                (ExprKind::PieceId(set), depth + 1)
            }
            Rule::fen_filter => match pair.into_inner().find(|part| part.as_rule() == Rule::string) {
                Some(text) => {
                    let text_span = span_of(&text);
                    (ExprKind::Fen(string(Some(text)), text_span), 1)
                }
                None => (ExprKind::CurrentFen, 1),
            },
            Rule::move_filter => self.move_filter(pair),
            Rule::played_word => {
                // `castle`, `o-o`, `o-o-o` and `enpassant` alone: the move that led here was one.
                let mut filter = MoveFilter::any(MoveWhen::Previous);
                match pair.as_str() {
                    "castle" => filter.castle = Some(Castle::Any),
                    "o-o" => filter.castle = Some(Castle::KingSide),
                    "o-o-o" => filter.castle = Some(Castle::QueenSide),
                    "nullmove" => filter.null = true,
                    _ => filter.en_passant = true,
                }
                (ExprKind::Move(filter), 1)
            }
            Rule::transform => {
                let parts: Vec<Pair<'_, Rule>> = pair.into_inner().collect();
                let transform = transform_kind(parts[0].as_str());
                let count = parts.iter().any(|part| matches!(part.as_rule(), Rule::kw_count | Rule::transform_range));
                let mut bounds = Vec::new();
                let mut body = None;
                for part in parts {
                    match part.as_rule() {
                        Rule::transform_range => bounds = self.count_range(part),
                        Rule::filter => body = Some(part),
                        _ => {}
                    }
                }
                let body = body.expect("grammar: a transform takes a filter");
                let (body, depth) = self.operators(body.into_inner());
                if count && transform == TransformKind::ReverseColor {
                    // One copy, the other colour's: nothing to count, as in CQL 6.2.
                    let message = "reversecolor makes one copy of its filter: it takes no count";
                    self.diagnostics.push(Diagnostic::new(span, message));
                }
                let counting = Counting { count, bounds };
                (transform_of(transform, &counting, body, span.start), depth + 1)
            }
            Rule::line_filter => {
                let mut constituents = Vec::new();
                let mut options = LineOptions::default();
                let mut bounds = Vec::new();
                let mut depth = 0;
                for option in pair.clone().into_inner().filter(|part| part.as_rule() == Rule::line_option) {
                    self.line_option(option, &mut options, &mut bounds);
                }
                options.backward = pair.clone().into_inner().any(|part| part.as_rule() == Rule::back_arrow);
                if options.backward && options.moves != LineMoves::Any {
                    let message = "'primary' and 'secondary' choose the moves a line follows forward: they cannot \
                                   be used with 'line <--'";
                    self.diagnostics.push(Diagnostic::new(span, message));
                }
                if options.backward && options.nestban {
                    let message = "'nestban' bans the positions of the lines found forward: it cannot be used with \
                                   'line <--' (CQL 6.2 refuses it too)";
                    self.diagnostics.push(Diagnostic::new(span, message));
                }
                let mut parts = pair.into_inner();
                while let Some(part) = parts.next() {
                    match part.as_rule() {
                        Rule::constituent => {
                            let (constituent, constituent_depth) = self.constituent(part, options.backward);
                            depth = depth.max(constituent_depth);
                            constituents.push(constituent);
                            if let Some(rest) = self.line_rest.take() {
                                // An inner line ended in this constituent: its last
                                // constituents go on this line.
                                depth = depth.max(rest.depth);
                                constituents.extend(rest.constituents);
                            }
                            if !self.untaken.items.is_empty() {
                                self.end_line_at_untaken(&mut parts, options.backward);
                                break;
                            }
                        }
                        Rule::stray_arrow | Rule::stray_back_arrow => self.wrong_way_arrow(&part),
                        _ => {}
                    }
                }
                (ExprKind::Line { options, constituents, bounds }, depth + 1)
            }
            Rule::hhdb_filter => self.hhdb_filter(pair),
            Rule::similar_filter => self.similar_filter(pair),
            Rule::game_filter => {
                let inner = pair.into_inner().next().expect("grammar: a game filter");
                if inner.as_rule() == Rule::tag_value {
                    let (kind, _) = self.tag_value(inner, true).swap_remove(0);
                    (kind, 1)
                } else {
                    (ExprKind::Game(game_filter(inner)), 1)
                }
            }
            rule => unreachable!("grammar: {rule:?} is no operand"),
        };
        self.bounded(dash_sides::dash_after_set_parameter(Expr { kind, span }), depth, None)
    }

    /// Whether the parameters of `filter` (a `pin` or a `move`) end before its `part`: an
    /// operator that the set of the parameter before left ends the filter, as CQL 6.2 reads
    /// it (`pin from F ∪ a1 to a1` is `(pin from F) ∪ a1`, then `to a1`). Then the text from
    /// `part` on is read as the filters that follow.
    fn parameters_end(&mut self, filter: &Pair<'_, Rule>, part: &Pair<'_, Rule>) -> bool {
        if self.untaken.items.is_empty() {
            return false;
        }
        let rest = &filter.as_str()[part.as_span().start() - filter.as_span().start()..];
        self.read_following(rest, span_of(part).start);
        true
    }

    /// Reads `text`, which begins at `start` in the query, as filters that follow the filter
    /// being built rather than belong to it (see [`Builder::following`]); the operators left
    /// over by the filter being built stay for the filter around it.
    fn read_following(&mut self, text: &str, start: usize) {
        let untaken = std::mem::take(&mut self.untaken);
        let outer = TEXT_OFFSET.replace(start);
        match parse_rule(Rule::query, text) {
            Ok(mut pairs) => {
                let items = self.items(pairs.next().expect("grammar: a query").into_inner());
                self.following.extend(items.filters);
            }
            Err(error) => {
                let diagnostic = describe_error(&error, &self.source, start);
                self.diagnostics.push(diagnostic);
            }
        }
        TEXT_OFFSET.set(outer);
        self.untaken = untaken;
    }

    /// The filters among the pairs, with their depths.
    fn filters(&mut self, pairs: Pairs<'_, Rule>) -> Vec<(Expr, u32)> {
        pairs.filter(|pair| pair.as_rule() == Rule::filter).map(|pair| self.operators(pair.into_inner())).collect()
    }

    /// A filter written inside parentheses among others (an argument of `ray`): what it leaves
    /// untaken stays inside them, bound to it or refused as CQL 6.2 refuses it.
    fn enclosed_filter(&mut self, pair: Pair<'_, Rule>) -> (Expr, u32) {
        let built = self.operators(pair.into_inner());
        self.bind_untaken(built)
    }

    /// The `argument` inside a pair (`from S`, `light S`, `flip F`), with its depth.
    fn argument(&mut self, pair: Pair<'_, Rule>) -> Option<(Box<Expr>, u32)> {
        let argument = pair
            .into_inner()
            .find(|part| matches!(part.as_rule(), Rule::argument | Rule::set_argument | Rule::promote_argument))?;
        self.next_argument = match argument.as_rule() {
            Rule::set_argument => climb::Argument::SetExpression,
            _ => climb::Argument::Set,
        };
        let (expr, depth) = self.operators(argument.into_inner());
        self.next_argument = climb::Argument::None;
        Some((Box::new(expr), depth))
    }

    /// Reports a part of `filter` (`from`, `to`...) written with no set after it.
    fn set_missing(&mut self, filter: &str, part: &Pair<'_, Rule>) {
        let end = span_of(part).end;
        let message = format!("expected a set of squares such as e4 or R after '{filter} {}'", part.as_str().trim());
        self.diagnostics.push(Diagnostic::new(Span::new(end, end + 1), message));
    }

    /// Reports `enpassant` or `enpassantsquare` after one of them was written already.
    fn en_passant_once(&mut self, written: &mut bool, part: &Pair<'_, Rule>) {
        if std::mem::replace(written, true) {
            let message = "a move takes one 'enpassant' or 'enpassantsquare', not two";
            self.diagnostics.push(Diagnostic::new(span_of(part), message));
        }
    }

    /// Fills a slot of a filter's parts, reporting a part given twice.
    fn once(&mut self, slot: &mut Option<Box<Expr>>, value: Box<Expr>) {
        let span = value.span;
        if slot.replace(value).is_some() {
            self.diagnostics.push(Diagnostic::new(span, "this part of the filter is given twice"));
        }
    }

    fn move_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let span = span_of(&pair);
        let mut filter = MoveFilter::any(MoveWhen::Played);
        let mut depth = 0;
        let mut valued = false;
        let mut when_written = None;
        let mut en_passant_written = false;
        let first_part = pair.clone().into_inner().map(|part| part.as_rule()).find(|rule| *rule != Rule::kw_move);
        filter.set_in_cql = matches!(first_part, Some(Rule::move_from | Rule::move_to | Rule::move_capture));
        for part in pair.clone().into_inner() {
            if self.parameters_end(&pair, &part) {
                break;
            }
            let rule = part.as_rule();
            if !valued && matches!(rule, Rule::move_from | Rule::move_to | Rule::move_capture) {
                // The first of the sets written is the value, as in CQL 6.2.
                valued = true;
                filter.value = match rule {
                    Rule::move_from => MoveSquare::From,
                    Rule::move_to => MoveSquare::To,
                    _ => MoveSquare::Capture,
                };
            }
            match rule {
                Rule::move_when => {
                    let when = match part.as_str() {
                        "previous" => MoveWhen::Previous,
                        "legal" => MoveWhen::Legal,
                        _ => MoveWhen::PseudoLegal,
                    };
                    if when_written.replace(when).is_some_and(|before| before != when) {
                        let message = "a move is one of 'previous', 'legal' and 'pseudolegal', not two of them";
                        self.diagnostics.push(Diagnostic::new(span_of(&part), message));
                    }
                    filter.when = when;
                }
                Rule::move_flag if part.as_str().eq_ignore_ascii_case("enpassant") => {
                    self.en_passant_once(&mut en_passant_written, &part);
                    filter.en_passant = true;
                }
                Rule::move_flag => match part.as_str().to_ascii_lowercase().as_str() {
                    "drop" => filter.drop = true,
                    "null" => filter.null = true,
                    "primary" => filter.branch = Some(false),
                    "secondary" => filter.branch = Some(true),
                    wing => {
                        if filter.castle.is_some() {
                            let message = "a move takes one of 'castle', 'o-o' and 'o-o-o', not two";
                            self.diagnostics.push(Diagnostic::new(span_of(&part), message));
                        }
                        filter.castle = Some(match wing {
                            "castle" => Castle::Any,
                            "o-o" => Castle::KingSide,
                            _ => Castle::QueenSide,
                        });
                    }
                },
                Rule::move_count => filter.count = true,
                Rule::set_missing => self.set_missing("move", &part),
                Rule::move_action => {
                    let span = span_of(&part);
                    let name = part.as_str();
                    if vocabulary::is_action(name) && !self.is_variable(name) {
                        filter.actions.push((name.to_owned(), span));
                    } else if stop_fits(&self.source, span.start) {
                        self.strays.push(span.start);
                    } else {
                        let message = format!(
                            "{} after 'move' is no action of any variant's moves; to test a filter after the \
                             move, write a space before it",
                            quoted(name)
                        );
                        self.diagnostics.push(Diagnostic::new(span, message));
                    }
                }
                Rule::move_comment => {
                    let Some(inner) = part.into_inner().next() else { continue };
                    if matches!(filter.when, MoveWhen::Legal | MoveWhen::PseudoLegal) {
                        // `move legal` takes no comment: one after it is the next filter.
                        let start = span_of(&inner).start;
                        if stop_fits(&self.source, start) {
                            self.strays.push(start);
                        } else {
                            let message = "'move legal' takes no comment: write a space before it to comment here";
                            self.diagnostics.push(Diagnostic::new(span_of(&inner), message));
                        }
                        continue;
                    }
                    let comment_span = span_of(&inner);
                    let (kind, comment_depth) = self.comment_filter(inner);
                    depth = depth.max(comment_depth);
                    filter.comment = Some(Box::new(Expr { kind, span: comment_span }));
                }
                Rule::move_from | Rule::move_to | Rule::move_capture | Rule::move_promote | Rule::move_ep_square => {
                    if rule == Rule::move_ep_square {
                        self.en_passant_once(&mut en_passant_written, &part);
                    }
                    let Some((argument, argument_depth)) = self.argument(part) else { continue };
                    depth = depth.max(argument_depth);
                    let slot = match rule {
                        Rule::move_from => &mut filter.from,
                        Rule::move_to => &mut filter.to,
                        // As in CQL 6.2, a `capture` given again replaces the one before.
                        Rule::move_capture => {
                            filter.capture = Some(argument);
                            continue;
                        }
                        Rule::move_ep_square => &mut filter.en_passant_square,
                        _ => &mut filter.promote,
                    };
                    self.once(slot, argument);
                }
                _ => {}
            }
        }
        let listed = matches!(filter.when, MoveWhen::Legal | MoveWhen::PseudoLegal);
        if listed && (filter.null || filter.branch.is_some()) {
            let message = "'move legal' and 'move pseudolegal' take no 'null', 'primary' or 'secondary'";
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        if (filter.en_passant || filter.en_passant_square.is_some()) && filter.promote.is_some() {
            let message = "a move cannot both capture en passant and promote";
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        if filter.null
            && (filter.en_passant || filter.en_passant_square.is_some() || filter.promote.is_some() || listed)
        {
            let message = "a null move takes no 'enpassant', 'enpassantsquare', 'promote', 'legal' or 'pseudolegal'";
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        if filter.count && !listed {
            let message = "'count' after 'move' counts legal or pseudolegal moves: write 'move legal count'";
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        if listed && let Some(comment) = filter.comment.take() {
            // CQL 6.2 reads the comment after `move legal` as a filter of its own.
            let move_span = Span::new(span.start, comment.span.start);
            let moves = Expr { kind: ExprKind::Move(filter), span: move_span };
            return (ExprKind::Block(vec![moves, *comment]), depth + 1);
        }
        (ExprKind::Move(filter), depth + 1)
    }

    /// A `line` option. A range that names a variable goes to `bounds`, as expressions found
    /// where the run is.
    fn line_option(&mut self, pair: Pair<'_, Rule>, options: &mut LineOptions, bounds: &mut Vec<Expr>) {
        let Some(option) = pair.into_inner().next() else { return };
        if option.as_rule() == Rule::line_bounds {
            let span = span_of(&option);
            let found: Vec<Expr> = option.into_inner().map(|bound| self.range_bound(bound)).collect();
            let Some(numbers) = constant_bounds(&found) else {
                *bounds = found;
                options.range = None;
                return;
            };
            bounds.clear();
            if let [low, high] = numbers[..]
                && high < low
            {
                let message = format!("the range {low} {high} runs backwards and matches nothing: write {high} {low}");
                self.diagnostics.push(Diagnostic::new(span, message));
            }
            // One number is that length alone, as CQL 6.2 reads it.
            options.range = Some(exact_or_range(&numbers));
            return;
        }
        match option.as_str() {
            "quiet" => options.quiet = true,
            // Any length: CQL 6.2 reads `count` as the widest range.
            "count" => {
                options.range = None;
                bounds.clear();
            }
            "nestban" => options.nestban = true,
            "firstmatch" => options.firstmatch = true,
            "singlecolor" => options.singlecolor = true,
            "lastposition" => options.lastposition = true,
            word => {
                let moves = if word == "primary" { LineMoves::Primary } else { LineMoves::Secondary };
                if options.moves != LineMoves::Any {
                    let message = "a line takes one of 'primary' and 'secondary', once";
                    self.diagnostics.push(Diagnostic::new(span_of(&option), message));
                }
                options.moves = moves;
            }
        }
    }

    /// An arrow of a line pointing the other way from its first.
    fn wrong_way_arrow(&mut self, arrow: &Pair<'_, Rule>) {
        let message = "the arrows of a line all point one way: --> or <--";
        self.diagnostics.push(Diagnostic::new(span_of(arrow), message));
    }

    /// A constituent of a `line` going forward or (`backward`) back, with its depth. Each
    /// quantifier after the first repeats what stands before it (`(check --> true){2}`
    /// written `check --> true{1}{2}` reads so too); those that would repeat what may match no
    /// position are refused, as CQL 6.2 refuses them.
    fn constituent(&mut self, pair: Pair<'_, Rule>, backward: bool) -> (Constituent, u32) {
        let mut inner = pair.into_inner();
        let first = inner.next().expect("grammar: a constituent has a filter or a group");
        let (body, mut depth) = if first.as_rule() == Rule::line_group {
            let mut group = Vec::new();
            let mut depth = 0;
            for part in first.into_inner() {
                match part.as_rule() {
                    Rule::constituent => {
                        let (constituent, constituent_depth) = self.constituent(part, backward);
                        depth = depth.max(constituent_depth);
                        group.push(constituent);
                    }
                    Rule::arrow | Rule::back_arrow if (part.as_rule() == Rule::back_arrow) != backward => {
                        self.wrong_way_arrow(&part);
                    }
                    _ => {}
                }
            }
            (ConstituentBody::Group(group), depth + 1)
        } else {
            let (filter, depth) = self.operators(first.into_inner());
            // An inner line that ended here is taken whole by the operator it left.
            let (filter, depth) =
                if self.line_rest.is_some() { self.bind_untaken((filter, depth)) } else { (filter, depth) };
            self.untaken_repetition();
            if let Some(what) = paths::lone_number(&filter) {
                let message = format!(
                    "a line constituent cannot be {what} alone (a range goes right after 'line'; '+' and '*' after \
                     a constituent repeat it): put the filter in braces (CQL 6.2 refuses it too)"
                );
                self.diagnostics.push(Diagnostic::new(filter.span, message));
            }
            (ConstituentBody::Filter(filter), depth)
        };
        let mut constituent = Constituent { body, min: 1, max: Some(1) };
        let mut quantified = false;
        let mut plus = false;
        for quantifier in inner {
            let (min, max) = self.quantifier(&quantifier);
            let text = quantifier.as_str();
            let is_plus = matches!(text, "+" | "{+}");
            if constituent.matches_nothing() || (plus && (is_plus || text.starts_with('{') && text != "{*}")) {
                let message = format!(
                    "'{text}' cannot repeat what may match no position, nor '{{...}}' or '+' a '+' (CQL 6.2 \
                     refuses it too)"
                );
                self.diagnostics.push(Diagnostic::new(span_of(&quantifier), message));
            }
            if quantified {
                constituent = Constituent { body: ConstituentBody::Group(vec![constituent]), min: 1, max: Some(1) };
                depth += 1;
            }
            constituent.min = min;
            constituent.max = max;
            quantified = true;
            plus = is_plus;
        }
        (constituent, depth)
    }

    /// Ends a line at a constituent that left an operator untaken (`--> ra1-5 : mainline`),
    /// as CQL 6.2 ends it: the operator is left for the line as a whole, and the constituents
    /// after it, built now, wait in [`Builder::line_rest`] for a line around to take them.
    fn end_line_at_untaken(&mut self, parts: &mut Pairs<'_, Rule>, backward: bool) {
        let mut rest = LineRest { constituents: Vec::new(), depth: 0, arrow: Span::default() };
        let leftover = std::mem::take(&mut self.untaken);
        for part in parts.by_ref() {
            match part.as_rule() {
                Rule::constituent => {
                    let (constituent, depth) = self.constituent(part, backward);
                    rest.depth = rest.depth.max(depth);
                    rest.constituents.push(constituent);
                }
                Rule::arrow | Rule::back_arrow if rest.constituents.is_empty() => rest.arrow = span_of(&part),
                Rule::stray_arrow | Rule::stray_back_arrow => self.wrong_way_arrow(&part),
                _ => {}
            }
        }
        self.untaken = leftover;
        if !rest.constituents.is_empty() {
            self.line_rest = Some(rest);
        }
    }

    /// Reports the constituents of a line ended early that no line around took.
    fn report_line_rest(&mut self) {
        if let Some(rest) = self.line_rest.take() {
            let message = "the line ended at the operator before this arrow, which took the whole line: no \
                           line around takes what follows (CQL 6.2 refuses it too)";
            self.diagnostics.push(Diagnostic::new(rest.arrow, message));
        }
    }

    /// The bounds of a quantifier: `*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}`.
    fn quantifier(&mut self, pair: &Pair<'_, Rule>) -> (u32, Option<u32>) {
        let text = pair.as_str();
        if self.in_path_parentheses && matches!(text, "*" | "{*}" | "+" | "{+}") {
            // CQL 6.2 has made them the path's own repetitions before the line is read.
            let message = format!(
                "inside a path's parentheses, '{text}' repeats the path's constituent, not the line's: put the \
                 line in braces, as {{line --> check{text}}}"
            );
            self.diagnostics.push(Diagnostic::new(span_of(pair), message));
        }
        match text {
            "*" | "{*}" => return (0, None),
            "+" | "{+}" => return (1, None),
            "?" => return (0, Some(1)),
            _ => {}
        }
        let inside = text.trim_start_matches('{').trim_end_matches('}');
        let mut bounds = inside.split(',').map(str::trim);
        let mut number = |text: Option<&str>| -> Option<u32> {
            let text = text.filter(|text| !text.is_empty())?;
            text.parse().map_or_else(
                |_| {
                    self.diagnostics.push(Diagnostic::new(span_of(pair), "this count is too large"));
                    Some(0)
                },
                Some,
            )
        };
        let min = number(bounds.next()).unwrap_or(0);
        let max = if inside.contains(',') { number(bounds.next()) } else { Some(min) };
        if max.is_some_and(|max| max < min) {
            let max = max.unwrap_or(min);
            self.diagnostics.push(Diagnostic::new(
                span_of(pair),
                format!("the count {text} runs backwards: the fewest comes first, as in {{{max},{min}}}"),
            ));
        }
        (min, max)
    }

    fn items(&mut self, pairs: Pairs<'_, Rule>) -> Items {
        let mut items = Items::default();
        for pair in pairs {
            items.add(pair, self);
        }
        items
    }
}

fn word(text: &str) -> Word {
    match text {
        "wtm" => Word::Wtm,
        "btm" => Word::Btm,
        "check" => Word::Check,
        "mate" => Word::Mate,
        "stalemate" => Word::Stalemate,
        "initial" => Word::Initial,
        "terminal" => Word::Terminal,
        "ply" => Word::Ply,
        "true" => Word::True,
        // CQL 6.2's `extension` never matches.
        "false" | "extension" => Word::False,
        "sidetomove" => Word::SideToMove,
        "white" => Word::White,
        "black" => Word::Black,
        "mainline" => Word::Mainline,
        "variation" => Word::Variation,
        "virtualmainline" => Word::VirtualMainline,
        "primary" => Word::Primary,
        "secondary" => Word::Secondary,
        "cql_hhdbhascook" => Word::HasCook,
        "gamenumber" => Word::GameNumber,
        "lastgamenumber" => Word::LastGameNumber,
        "passedpawns" => Word::PassedPawns,
        "isolatedpawns" => Word::IsolatedPawns,
        "doubledpawns" => Word::DoubledPawns,
        "connectedpawns" => Word::ConnectedPawns,
        "positionid" => Word::PositionId,
        "depth" => Word::Depth,
        "currenttransform" => Word::CurrentTransform,
        _ => Word::MoveNumber,
    }
}

/// A transform of the whole filter after it, as CQL 6.2 reads it; but where a counting
/// transform's filter is a comparison or arithmetic on a filter that has no value
/// (`flipcolor count {player white "Carlsen"} == 1`), the transform counts that filter and the
/// operator applies to the count, as CQL 6.2 reads that.
fn transform_of(transform: TransformKind, counting: &Counting, body: Expr, start: usize) -> ExprKind {
    match body.kind {
        ExprKind::Binary(op, left, right)
            if counting.count && (op.is_comparison() || op.is_arithmetic()) && type_of(&left) == Type::Filter =>
        {
            let span = Span::new(start, left.span.end);
            let counted = Expr { kind: transform_of(transform, counting, *left, start), span };
            ExprKind::Binary(op, Box::new(counted), right)
        }
        kind => ExprKind::Transform {
            transform,
            count: counting.count,
            bounds: counting.bounds.clone(),
            body: Box::new(Expr { kind, span: body.span }),
        },
    }
}

/// What a transform counts: `count`, or the copies within a range (`flip 2 8 F`).
struct Counting {
    count: bool,
    bounds: Vec<Expr>,
}

fn transform_kind(text: &str) -> TransformKind {
    match text {
        // CQL 6.2 spells `flip` `flipdihedral` and `dihedral` too.
        "flip" | "flipdihedral" | "dihedral" | "✵" => TransformKind::Flip,
        "flipvertical" => TransformKind::FlipVertical,
        "fliphorizontal" => TransformKind::FlipHorizontal,
        "flipdiagonal" => TransformKind::FlipDiagonal,
        "flipoffdiagonal" => TransformKind::FlipOffDiagonal,
        "flipcolor" | "⬓" => TransformKind::FlipColor,
        "rotate90" => TransformKind::Rotate90,
        "rotate45" => TransformKind::Rotate45,
        "reversecolor" => TransformKind::ReverseColor,
        "shift" => TransformKind::Shift,
        "shifthorizontal" => TransformKind::ShiftHorizontal,
        _ => TransformKind::ShiftVertical,
    }
}

fn game_filter(pair: Pair<'_, Rule>) -> GameFilter {
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    let side = |part: Option<&Pair<'_, Rule>>| {
        part.filter(|part| part.as_rule() == Rule::side)
            .map(|part| if part.as_str().starts_with('w') { Side::White } else { Side::Black })
    };
    match rule {
        Rule::result_filter => {
            let value = inner.find(|part| part.as_rule() == Rule::result_value);
            GameFilter::Result(value.map_or(String::new(), |value| value.as_str().to_owned()))
        }
        Rule::elo_filter => GameFilter::Elo(side(inner.find(|part| part.as_rule() == Rule::side).as_ref())),
        Rule::year_filter => GameFilter::Year,
        _ => GameFilter::Variant(string(inner.find(|part| part.as_rule() == Rule::string))),
    }
}

/// Where `op` is `+`, `right` a text, and `left` ends with `#T` written without parentheses
/// (`#T` itself, or the last operand of arithmetic or a `-` before it, as in `5 * #T`), makes
/// that count take the sum: `#(T + right)` in its place, as CQL 6.2 reads it. Otherwise gives
/// `right` back.
pub(super) fn count_on(left: &mut Expr, op: BinaryOp, right: Expr) -> Result<(), Expr> {
    if op != BinaryOp::Add || type_of(&right) != Type::Text || !ends_with_bare_count(left) {
        return Err(right);
    }
    let end = right.span.end;
    let mut node = left;
    loop {
        let bare_count = counts_bare_text(node);
        node.span.end = end;
        node = match &mut node.kind {
            ExprKind::Unary(UnaryOp::Count, text) if bare_count => {
                let start = text.span.start;
                let hole = placeholder(text.span);
                let counted = std::mem::replace(&mut **text, hole);
                let sum = ExprKind::Binary(BinaryOp::Add, Box::new(counted), Box::new(right));
                **text = Expr { kind: sum, span: Span { start, end } };
                return Ok(());
            }
            ExprKind::Binary(_, _, last) | ExprKind::Unary(_, last) => last,
            _ => unreachable!("checked by ends_with_bare_count"),
        };
    }
}

/// Whether `expr` ends with `#T` written without parentheses, T a text: it is one, or its
/// last operand is, through arithmetic and `-` written before a number.
pub(super) fn ends_with_bare_count(expr: &Expr) -> bool {
    let mut node = expr;
    loop {
        if counts_bare_text(node) {
            return true;
        }
        node = match &node.kind {
            ExprKind::Binary(
                BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem,
                _,
                last,
            )
            | ExprKind::Unary(UnaryOp::Negate, last)
                if last.span.end == node.span.end =>
            {
                last
            }
            _ => return false,
        };
    }
}

/// Whether `expr` is `#T` written without parentheses, T a text.
fn counts_bare_text(expr: &Expr) -> bool {
    matches!(&expr.kind, ExprKind::Unary(UnaryOp::Count, text) if expr.span.end == text.span.end && type_of(text) == Type::Text)
}

fn is_prefix(rule: Rule) -> bool {
    matches!(rule, Rule::op_not | Rule::op_complement | Rule::op_count | Rule::op_negate | Rule::op_abs | Rule::op_sqrt)
}

fn is_keyword(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::kw_input
            | Rule::kw_output
            | Rule::kw_matchcount
            | Rule::kw_gamenumber
            | Rule::kw_result
            | Rule::kw_matchstring
            | Rule::kw_variant
            | Rule::kw_sort
            | Rule::kw_persistent
            | Rule::kw_atomic
            | Rule::kw_quiet
            | Rule::kw_if
            | Rule::kw_then
            | Rule::kw_else
            | Rule::kw_square
            | Rule::kw_piece
            | Rule::kw_all
            | Rule::op_in
            | Rule::kw_find
            | Rule::kw_child
            | Rule::kw_lca
            | Rule::kw_ancestor
            | Rule::kw_descendant
            | Rule::kw_position
            | Rule::kw_comment
            | Rule::kw_message
            | Rule::kw_echo
            | Rule::kw_xray
            | Rule::kw_distance
            | Rule::kw_function
            | Rule::kw_loop
            | Rule::kw_while
            | Rule::kw_typename
    )
}

fn placeholder(span: Span) -> Expr {
    Expr { kind: ExprKind::Number(0), span }
}

fn path(pair: Option<Pair<'_, Rule>>) -> String {
    let Some(pair) = pair else { return String::new() };
    match pair.into_inner().next() {
        Some(inner) if inner.as_rule() == Rule::string => string(Some(inner)),
        Some(inner) => inner.as_str().to_owned(),
        None => String::new(),
    }
}

/// The text of a quoted string, as written (CQL 6.2 has no escapes inside quotes).
fn string(pair: Option<Pair<'_, Rule>>) -> String {
    let Some(pair) = pair else { return String::new() };
    pair.into_inner().next().map_or("", |text| text.as_str()).to_owned()
}

// ----- Designators --------------------------------------------------------------------------

fn build_squares(pair: Pair<'_, Rule>) -> SquareDesignator {
    let span = span_of(&pair);
    let inner = pair.into_inner().next().expect("grammar: a square designator has a kind");
    let parts = match inner.as_rule() {
        Rule::square_list => inner
            .into_inner()
            .filter_map(|item| {
                let item_span = span_of(&item);
                match item.as_rule() {
                    Rule::backhand => Some(SquarePart::Backhand(item_span)),
                    Rule::board_and_backhand => Some(SquarePart::BoardAndBackhand(item_span)),
                    Rule::region => Some(SquarePart::Region(build_region(item))),
                    _ => None,
                }
            })
            .collect(),
        Rule::region => vec![SquarePart::Region(build_region(inner))],
        Rule::all_squares => vec![SquarePart::AllBoard(span)],
        rule => unreachable!("grammar: {rule:?} is no square designator"),
    };
    SquareDesignator { parts, span }
}

fn build_region(pair: Pair<'_, Rule>) -> Region {
    let span = span_of(&pair);
    let mut inner = pair.into_inner();
    let files = coordinate(inner.next().expect("grammar: a region has a file part"));
    let ranks = coordinate(inner.next().expect("grammar: a region has a rank part"));
    Region { files, ranks, span }
}

fn coordinate(part: Pair<'_, Rule>) -> Coordinate {
    let inner = part.into_inner().next().expect("grammar: a coordinate has a kind");
    match inner.as_rule() {
        Rule::any => Coordinate::Any,
        Rule::light => Coordinate::Light,
        Rule::dark => Coordinate::Dark,
        Rule::file | Rule::rank => Coordinate::One(index(inner.as_str())),
        Rule::file_range | Rule::rank_range => {
            let mut ends = inner.into_inner();
            let low = index(ends.next().expect("grammar: a range has a start").as_str());
            let high = index(ends.next().expect("grammar: a range has an end").as_str());
            Coordinate::Range(low, high)
        }
        rule => unreachable!("grammar: {rule:?} is no coordinate"),
    }
}

/// The 0-based index of a file letter or a rank number (`a` and `1` are 0).
fn index(text: &str) -> u8 {
    match text.parse::<u8>() {
        Ok(number) => number - 1,
        Err(_) => text.as_bytes()[0] - b'a',
    }
}

fn build_pieces(pair: Pair<'_, Rule>) -> PieceDesignator {
    let span = span_of(&pair);
    let mut atoms = Vec::new();
    let mut list = false;
    let mut piece_span = Span::new(span.start, span.start);
    let mut squares = None;
    for part in pair.into_inner() {
        let part_span = span_of(&part);
        match part.as_rule() {
            Rule::piece_list => {
                list = true;
                piece_span = part_span;
                atoms.extend(part.into_inner().filter_map(piece_atom));
            }
            Rule::figurines => {
                piece_span = part_span;
                let figurines: Vec<PieceAtom> = part.into_inner().filter_map(piece_atom).collect();
                list = figurines.len() > 1;
                atoms.extend(figurines);
            }
            Rule::tier => {
                piece_span = piece_span.join(part_span);
                if let Some(PieceAtom { kind: PieceAtomKind::Letters { level, .. }, span }) = atoms.last_mut() {
                    *level = part.as_str().len() as u8;
                    *span = span.join(part_span);
                }
            }
            Rule::square_designator => squares = Some(build_squares(part)),
            Rule::designator_end => {}
            _ => {
                piece_span = part_span;
                atoms.extend(piece_atom(part));
            }
        }
    }
    PieceDesignator { piece: PiecePart { atoms, list, span: piece_span }, squares, span }
}

fn piece_atom(pair: Pair<'_, Rule>) -> Option<PieceAtom> {
    let span = span_of(&pair);
    let text = pair.as_str();
    let kind = match pair.as_rule() {
        Rule::piece_entity => PieceAtomKind::Entity(text.chars().nth(1).expect("grammar: &X;")),
        Rule::figurine => PieceAtomKind::Figurine(text.chars().next().expect("grammar: a figurine")),
        Rule::empty_piece => PieceAtomKind::Empty,
        Rule::letters1 | Rule::letters2 | Rule::list_letters => {
            let letters = text.trim_end_matches('+');
            let level = (text.len() - letters.len()) as u8;
            PieceAtomKind::Letters { text: letters.to_owned(), level }
        }
        _ => return None,
    };
    Some(PieceAtom { kind, span })
}

/// The message for a word the query does not know: the word it most likely meant, among the
/// language's words, the variants' own words and `known` (the query's variables), where one is
/// close.
pub(super) fn unknown_word_message(word: &str, known: &[&str]) -> String {
    let family_words = Variant::all().iter().flat_map(|variant| variant.vocabulary().words).map(|word| word.name);
    let words = suggest::WORDS.iter().copied().chain(family_words).chain(known.iter().copied());
    match suggest::nearest(word, words) {
        Some(meant) => format!("unknown word {}: did you mean {}?", quoted(word), quoted(meant)),
        None => format!("unknown word {}", quoted(word)),
    }
}

/// Whether braces hold only a repetition's bounds, written without spaces (`{3}`, `{2,}`,
/// `{,4}`, `{2,4}`): CQL 6.2 reads these as a repetition wherever they stand.
fn is_brace_repetition(text: &str) -> bool {
    let Some(inner) = text.strip_prefix('{').and_then(|rest| rest.strip_suffix('}')) else { return false };
    let (first, second) = inner.split_once(',').unwrap_or((inner, ""));
    !inner.is_empty() && [first, second].iter().all(|bound| bound.bytes().all(|byte| byte.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(source: &str) -> Vec<Expr> {
        let (ast, diagnostics) = parse(source);
        assert_eq!(diagnostics, Vec::new(), "{source}");
        ast.body
    }

    fn shape(expr: &Expr, source: &str) -> String {
        match &expr.kind {
            ExprKind::Binary(op, left, right) => {
                format!("({} {} {})", shape(left, source), op.symbol(), shape(right, source))
            }
            ExprKind::Unary(op, operand) => format!("({} {})", op.symbol(), shape(operand, source)),
            _ => expr.span.text(source).to_owned(),
        }
    }

    #[test]
    fn precedence() {
        let source = "not #R + 1 > 2 and R | r & Q or ~k in [a1]";
        let filters = body(source);
        assert_eq!(filters.len(), 1);
        assert_eq!(shape(&filters[0], source), "(((not (((# R) + 1) > 2)) and (R | (r & Q))) or ((~ k) in [a1]))");
    }

    #[test]
    fn power_rank_and_loops_take_a_whole_set_expression_light_and_from_an_operand() {
        let source = "power R | Q > 5 square x in A attacks k | B x light K | Q move to parent : e4";
        let filters = body(source);
        assert_eq!(filters.len(), 4, "{filters:#?}");
        let ExprKind::Binary(BinaryOp::Gt, power, _) = &filters[0].kind else { panic!("{:?}", filters[0].kind) };
        let ExprKind::Power(set) = &power.kind else { panic!("{:?}", power.kind) };
        assert_eq!(set.span.text(source), "R | Q");
        let ExprKind::Loop { set, body: looped, .. } = &filters[1].kind else { panic!("{:?}", filters[1].kind) };
        assert_eq!((set.span.text(source), looped.span.text(source)), ("A attacks k | B", "x"));
        let ExprKind::Binary(BinaryOp::Union, shade, _) = &filters[2].kind else { panic!("{:?}", filters[2].kind) };
        assert!(matches!(shade.kind, ExprKind::Shade { light: true, .. }));
        let ExprKind::Move(MoveFilter { to: Some(to), .. }) = &filters[3].kind else { panic!("{:?}", filters[3].kind) };
        assert_eq!(to.span.text(source), "parent : e4");
    }

    #[test]
    fn juxtaposed_filters() {
        let filters = body("Qh7 kg8 // the classic\n/* block */ Ra-h7");
        assert_eq!(filters.len(), 3);
    }

    #[test]
    fn squares_or_pieces() {
        let source = "b4 a-h7 ab3 Ne6 KNe6 Ra-h1-2 [Bb][L?] &L;? ka1 R+1 KN+e6";
        let filters = body(source);
        let kinds: Vec<&str> = filters
            .iter()
            .map(|f| match &f.kind {
                ExprKind::Squares(_) => "squares",
                ExprKind::Pieces(_) => "pieces",
                _ => "other",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "squares", "squares", "pieces", "pieces", "pieces", "pieces", "pieces", "squares", "pieces", "other",
                "pieces"
            ]
        );
        let ExprKind::Pieces(kn) = &filters[10].kind else { panic!() };
        assert_eq!(kn.piece.atoms[0].kind, PieceAtomKind::Letters { text: "KN".into(), level: 1 });
        assert_eq!(kn.squares.as_ref().unwrap().span.text(source), "e6");
    }

    #[test]
    fn header_parameters() {
        let (ast, diagnostics) = parse(
            "cql(input games.pgn output \"hits.pgn\" matchcount 2 gamenumber 1 1000 variant \"Croatian Ties\" variations)\nQh7",
        );
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let header = ast.header.unwrap();
        assert_eq!(header.input.as_deref(), Some("games.pgn"));
        assert_eq!(header.output.as_deref(), Some("hits.pgn"));
        assert_eq!(header.matchcount, Some((2, Some(2))), "one number is an exact count");
        assert_eq!(header.gamenumber, Some((1, Some(1000))));
        assert_eq!(header.variant.unwrap().0, "Croatian Ties");
        assert!(header.variations);
        assert_eq!(ast.body.len(), 1);
    }

    /// Found by fuzzing: a vertical tab at the end.
    #[test]
    fn vertical_tab_at_the_end() {
        let (_, diagnostics) = parse("[DL1]\n\u{b}");
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        let (_, diagnostics) = parse("R\n\u{e}");
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    }

    /// Found by fuzzing: unclosed nests took time exponential in their depth. At depth 200 that
    /// would never end; linear work ends in milliseconds, far inside the minute allowed here.
    #[test]
    fn unclosed_nests_are_not_exponential() {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let source = format!("cql(vari{} Qh7 {} {{ Qh7 {}", "{".repeat(200), "(".repeat(200), "{ (".repeat(100));
            sender.send(parse(&source).1.len()).unwrap();
        });
        let errors = receiver.recv_timeout(std::time::Duration::from_secs(60)).expect("parsing never ended");
        assert!(errors > 0);
    }

    /// Deep nests, long prefix runs and long operator chains are refused before any pass over
    /// the tree could run out of stack (tests run on threads of 2 MiB).
    #[test]
    fn deep_queries_are_refused_not_overflowed() {
        for (source, message) in [
            (format!("{}R{}", "(".repeat(5000), ")".repeat(5000)), "brackets nest more than 64 deep"),
            (format!("{}R", "- ".repeat(5000)), "more than 64 prefix operators in a row"),
            (format!("1{}", " + 1".repeat(5000)), "this filter chains more than 256 operators such as '+' in a row"),
            (format!("{}R", "light ".repeat(300)), "filters nest more than 128 deep here"),
            (format!("{}R", "not light ".repeat(200)), "filters nest more than 128 deep here"),
            (format!("{}R", "flip ".repeat(200)), "filters nest more than 128 deep here"),
            (format!("{}R", "flip R or ".repeat(1500)), "filters nest more than 128 deep here"),
            (format!("{}R", "flipcolor ".repeat(2001)), "this query holds 2001 transforms, more than 2000"),
            (format!("{}R", "move from ".repeat(200)), "filters nest more than 128 deep here"),
            (format!("{}R", "pin through ".repeat(200)), "filters nest more than 128 deep here"),
            (format!("{}R", "line --> ".repeat(200)), "filters nest more than 128 deep here"),
            (format!("{}R{}", "between(a1 ".repeat(200), ")".repeat(200)), "brackets nest more than 64 deep"),
            (format!("{}R", "light ~~".repeat(100)), "this filter nests more than 256 levels deep"),
            (format!("{}R{}", "{ not ".repeat(300), "}".repeat(300)), "brackets nest more than 64 deep"),
        ] {
            let (ast, diagnostics) = parse(&source);
            assert!(diagnostics.iter().any(|d| d.message.starts_with(message)), "{diagnostics:?}");
            drop(ast);
        }
    }

    /// A chain of one associative operator is a balanced tree: the depth of 257 terms is 10,
    /// far from the limit on nesting, and the terms stay in the order written.
    #[test]
    fn flat_chains_are_not_nesting() {
        fn depth(expr: &Expr) -> usize {
            1 + expr.children().into_iter().map(depth).max().unwrap_or(0)
        }
        for (op, terms) in [("or", 257), ("and", 257), ("|", 5000), ("&", 5000), ("and", 20_000)] {
            let source = vec!["Ka1"; terms].join(&format!(" {op} "));
            let filters = body(&source);
            assert_eq!(filters.len(), 1);
            let ExprKind::Binary(binary, ..) = &filters[0].kind else { panic!("{op}: not a chain") };
            assert_eq!(binary.symbol(), op);
            let operands = filters[0].operands(*binary);
            assert_eq!(operands.len(), terms, "{op}");
            assert!(operands.windows(2).all(|pair| pair[0].span.end < pair[1].span.start), "{op}: out of order");
            assert!(depth(&filters[0]) <= 16, "{op} x {terms}: {} deep", depth(&filters[0]));
        }
        // Operators of different levels still group by precedence.
        let source = "a1 or b1 and c1 or d1 | e1 | f1 and g1";
        assert_eq!(shape(&body(source)[0], source), "(a1 or ((b1 and c1) or ((d1 | (e1 | f1)) and g1)))");
    }

    /// Found by fuzzing: brackets inside quotes in the body, which the balancing skipped and the
    /// grammar did not, took exponential time.
    #[test]
    fn quoted_brackets_in_the_body() {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let source = format!("R {} Q", "\"(n5-{{{N-{{b5-{{{k1-{-{{b3\"n5bs{ialv".repeat(8));
            sender.send(parse(&source).1).unwrap();
        });
        let diagnostics = receiver.recv_timeout(std::time::Duration::from_secs(60)).expect("parsing never ended");
        assert!(diagnostics.iter().any(|d| d.message.contains("never closed")), "{diagnostics:?}");
    }

    /// Found by fuzzing: the closing brackets added for unclosed ones fell into a line comment
    /// at the end, and were lost to it.
    #[test]
    fn unclosed_brackets_before_a_final_line_comment() {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let source = format!("{} R //", "(b5-{{{k1-{{b5-{".repeat(6));
            sender.send(parse(&source).1).unwrap();
        });
        let diagnostics = receiver.recv_timeout(std::time::Duration::from_secs(60)).expect("parsing never ended");
        assert!(diagnostics.iter().any(|d| d.message.contains("is never closed")), "{diagnostics:?}");
    }

    /// Found by fuzzing: a word after a multi-byte space.
    #[test]
    fn words_after_wide_characters() {
        let (_, diagnostics) = parse("cql\u{2009}tar in\"L(variant \"Laser Chess()\nas;er ?]\n");
        assert!(!diagnostics.is_empty());
    }

    #[test]
    fn every_mistake_is_reported() {
        let (ast, diagnostics) = parse("Qh7 R[ kg8 { Ra1 @@ } )");
        let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert_eq!(ast.body.len(), 3);
    }
}
