//! `path` and the words about it: its options, its constituents (filters, dashes with the
//! filters after them, groups and repetitions), and `pathcount` and its kin.

use pest::iterators::Pair;

use super::{Builder, Rule, span_of, string};
use crate::query::ast::{
    BinaryOp, DashWhen, Expr, ExprKind, PathExpr, PathFocus, PathOptions, PathStep, PathWord, PieceAtom, PieceAtomKind,
    Span, Word,
};
use crate::query::check::{Type, type_of};
use crate::query::diagnostic::Diagnostic;

/// The bounds of the range `count` stands for: from minus this to this.
const COUNT_BOUND: i64 = 100_000;

impl Builder {
    /// `path [options] constituents`.
    pub(super) fn path_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let span = span_of(&pair);
        let outer_rereads = std::mem::take(&mut self.path_rereads);
        let mut options = PathOptions::default();
        let mut steps = Vec::new();
        let mut depth = 0;
        let mut singlecolor = false;
        let mut blank_line_before = false;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::path_option => depth = depth.max(self.path_option(part, &mut options, &mut singlecolor)),
                Rule::path_step => {
                    let step_span = span_of(&part);
                    // Past a blank line CQL 6.2 has closed the path: `+` and `*` are arithmetic again.
                    self.past_blank_line_in_path = blank_line_before;
                    blank_line_before |= super::has_blank_line(part.as_str());
                    self.check_dash_after_dash(steps.last(), &part);
                    let (step, step_depth) = self.path_step(part);
                    depth = depth.max(step_depth);
                    if matches!(&step, PathStep::Filter(filter) if lone_dash(filter)) {
                        self.lone_dash_in_braces(step_span, !steps.is_empty());
                    }
                    steps.push(step);
                }
                _ => {}
            }
        }
        if singlecolor {
            if options.focus.is_some() {
                self.diagnostics.push(Diagnostic::new(span, "'singlecolor' cannot be used with 'focus'"));
            }
            options.focus = Some(PathFocus::SideToMove);
        }
        if options.piecepath && !matches!(options.focus, Some(PathFocus::Pieces { .. })) {
            let message = "'piecepath' comments the moves of the pieces in focus: it needs 'focus' in the same path";
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        if options.primary && options.focus.is_some() {
            let message = "'primary' and 'focus' (or 'singlecolor') cannot be used in one path: write \
                           'pathstart:depth == depth' as a constituent to keep to the main line";
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        self.check_path_words(span);
        self.past_blank_line_in_path = false;
        let atomics = self.atomics.clone();
        let reread = std::mem::replace(&mut self.path_rereads, outer_rereads);
        (ExprKind::Path(Box::new(PathExpr { options, steps, atomics, reread })), depth + 1)
    }

    /// Reports `legal` or `countmoves` among the path's constituents at `span` (once, though a
    /// function's body is checked where it is defined and again at each call).
    pub(super) fn check_path_words(&mut self, span: Span) {
        let Some(word) = top_level_word(span.text(&self.source), &["legal", "countmoves"]) else { return };
        let message = format!(
            "'{word}' cannot stand where the path's constituents are (its '--' would read as one): put the \
             filter in braces, as {{{word} --}}"
        );
        if !self.diagnostics.iter().any(|seen| seen.span.start == span.start && seen.message == message) {
            self.diagnostics.push(Diagnostic::new(span, message));
        }
    }

    /// CQL 6.2 looks at every path's constituents as it reads the words of the query, in the
    /// bodies of functions never called too: each `path` of the text at `span`, up to the
    /// bracket that closes around it or a blank line, is checked as [`Builder::check_path_words`]
    /// checks a path.
    pub(super) fn check_paths_in(&mut self, span: Span) {
        let text = span.text(&self.source).to_owned();
        let words = super::functions::code_words(text.as_bytes());
        for (at, _) in words.into_iter().filter(|&(start, end)| &text[start..end] == "path") {
            let end = at + path_extent(&text[at..]);
            self.check_path_words(Span::new(span.start + at, span.start + end));
        }
    }

    /// One option of a `path`; gives how deep its filter is (0 without one).
    fn path_option(&mut self, pair: Pair<'_, Rule>, options: &mut PathOptions, singlecolor: &mut bool) -> u32 {
        let Some(option) = pair.into_inner().next() else { return 0 };
        let span = span_of(&option);
        let twice = |builder: &mut Builder, seen: bool, word: &str| {
            if seen {
                builder.diagnostics.push(Diagnostic::new(span, format!("'{word}' is given twice in one path")));
            }
        };
        match option.as_rule() {
            // `count`: the range CQL 6.2 makes of it, -100000 to 100000 (a `max` value may be
            // below 0).
            Rule::kw_count => {
                twice(self, options.range.is_some() || !options.bounds.is_empty(), "a range");
                let bound = |value| Expr { kind: ExprKind::Number(value), span };
                options.bounds = vec![bound(-COUNT_BOUND), bound(COUNT_BOUND)];
                0
            }
            Rule::path_bounds => {
                twice(self, options.range.is_some() || !options.bounds.is_empty(), "a range");
                let bounds: Vec<Expr> = option.into_inner().map(|bound| self.range_bound(bound)).collect();
                match super::constant_bounds(&bounds) {
                    Some(numbers) => options.range = Some(super::exact_or_range(&numbers)),
                    None => options.bounds = bounds,
                }
                0
            }
            Rule::path_title => {
                let title = string(option.into_inner().nth(1));
                if title.is_empty() {
                    self.diagnostics.push(Diagnostic::new(span, "'title' takes a text that is not empty"));
                }
                options.title = Some(title);
                0
            }
            Rule::path_max => {
                twice(self, options.max.is_some(), "max");
                let filter = option.into_inner().nth(1).expect("grammar: max takes a filter");
                let (max, depth) = self.at_path_top_level(|builder| builder.operators(filter.into_inner()));
                options.max = Some(Box::new(max));
                depth
            }
            Rule::path_focus => {
                twice(self, options.focus.is_some(), "focus");
                let mut capture = false;
                let mut set = None;
                for part in option.into_inner() {
                    match part.as_rule() {
                        Rule::kw_capture => capture = true,
                        Rule::filter => {
                            set = Some(self.at_path_top_level(|builder| builder.operators(part.into_inner())));
                        }
                        _ => {}
                    }
                }
                let (set, depth) = set.expect("grammar: focus takes a set");
                options.focus = Some(PathFocus::Pieces { set: Box::new(set), capture });
                depth
            }
            _ => {
                let word = option.as_str();
                let flag = match word {
                    "singlecolor" => singlecolor,
                    "verbose" => &mut options.verbose,
                    "keepallbest" => &mut options.keepallbest,
                    "primary" => &mut options.primary,
                    "piecepath" => &mut options.piecepath,
                    "quiet" => &mut options.quiet,
                    "nestban" => &mut options.nestban,
                    "firstmatch" => &mut options.firstmatch,
                    "lastposition" => &mut options.lastposition,
                    _ => {
                        let message = "a path follows every move or, with 'primary', the main ones: it takes no \
                                       'secondary'";
                        self.diagnostics.push(Diagnostic::new(span, message));
                        return 0;
                    }
                };
                let seen = *flag;
                *flag = true;
                twice(self, seen, word);
                0
            }
        }
    }

    /// One constituent of a path, with how deep it is.
    fn path_step(&mut self, pair: Pair<'_, Rule>) -> (PathStep, u32) {
        let mut step = None;
        let mut depth = 0;
        let mut repeat_span = None;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::path_group => {
                    let mut steps = Vec::new();
                    for inner in part.into_inner().filter(|inner| inner.as_rule() == Rule::path_step) {
                        self.check_dash_after_dash(steps.last(), &inner);
                        let (inner, inner_depth) = self.path_step(inner);
                        depth = depth.max(inner_depth);
                        steps.push(inner);
                    }
                    step = Some(PathStep::Group(steps));
                }
                Rule::path_dash => {
                    let span = span_of(&part);
                    let (dash, dash_depth, after_plus) = self.path_dash(part);
                    depth = depth.max(dash_depth);
                    step = Some(PathStep::Move(dash));
                    if let Some(after) = after_plus {
                        // `--k+`: the `+` after the dash's last piece repeats the dash, as in
                        // CQL 6.2, and the filters after it follow the repetition.
                        let repeated = step.take().expect("a dash was just read");
                        let repeat = PathStep::Repeat { step: Box::new(repeated), min: 1, max: None };
                        step = Some(if after.is_empty() {
                            repeat
                        } else {
                            PathStep::Group(
                                std::iter::once(repeat).chain(after.into_iter().map(PathStep::Filter)).collect(),
                            )
                        });
                        repeat_span = Some(span);
                    }
                }
                Rule::path_holder => {
                    let (filter, filter_depth) = self.path_holder(part);
                    depth = depth.max(filter_depth);
                    step = Some(PathStep::Filter(filter));
                }
                Rule::path_repeat => {
                    if let Some(span) = repeat_span {
                        let message = "two repetitions in a row after one constituent: put the constituent and \
                                       its first repetition in parentheses";
                        self.diagnostics.push(Diagnostic::new(span, message));
                    }
                    let (min, max) = self.quantifier(&part);
                    let repeated = step.take().expect("grammar: a repetition follows a dash or a group");
                    step = Some(PathStep::Repeat { step: Box::new(repeated), min, max });
                }
                _ => {}
            }
        }
        (step.expect("grammar: a path constituent"), depth + 1)
    }

    /// CQL 6.2 first reads a dash right after a dash of a path (alone or in parentheses) as a
    /// dash filter of the first dash's target, and refuses it there when `(` follows it after
    /// a space, or follows the parentheses of its target: the path refuses it too.
    fn check_dash_after_dash(&mut self, before: Option<&PathStep>, step: &Pair<'_, Rule>) {
        let Some(PathStep::Move(_)) = before else { return };
        let Some(first) = step.clone().into_inner().next() else { return };
        // Parentheses with a dash and filters after it: more than one filter.
        let mut loose = None;
        let dash = match first.as_rule() {
            Rule::path_dash => first,
            Rule::path_group => {
                let group = span_of(&first);
                let mut inner = first.into_inner().filter(|inner| inner.as_rule() == Rule::path_step);
                let (Some(only), None) = (inner.next(), inner.next()) else { return };
                match only.into_inner().next() {
                    Some(dash) if dash.as_rule() == Rule::path_dash => {
                        loose = has_loose_targets(&dash).then_some(group);
                        dash
                    }
                    _ => return,
                }
            }
            _ => return,
        };
        let glued_target = dash.clone().into_inner().find(|part| part.as_rule() == Rule::path_target);
        let Some(last) = dash.into_inner().filter(|part| part.as_rule() != Rule::path_target).last() else { return };
        let end = span_of(&last).end;
        if let Some(target) = glued_target.filter(|target| span_of(target).start == end) {
            // CQL 6.2 reads the target once as part of the dash before, and drops it: the
            // `sort`s in it are numbered then, and again when it is read as the dash's own.
            self.unlabeled_sorts += unlabeled_sorts_in(&target);
            self.reread_target = Some(end);
        }
        let source = &self.source;
        let after = source[end..].trim_start();
        let at = source.len() - after.len();
        let next = if after.starts_with('(') && at == end {
            // The parentheses of the dash's target: what follows them.
            source[after_parentheses(source, at)..].trim_start()
        } else {
            after
        };
        if next.starts_with('(') {
            let at = source.len() - next.len();
            let message = "after a dash that follows a dash, '(' begins the dash's target only right after it, and \
                           only once: CQL 6.2 refuses this '(' (put the dash in parentheses, or write '{' '}' between)";
            self.diagnostics.push(Diagnostic::new(Span::new(at, at + 1), message));
        } else if let Some(group) = loose {
            let message = "parentheses right after a dash hold one filter, as CQL 6.2 reads them: here a dash \
                           and filters after it (put the filters after the parentheses, or the dash's target in \
                           parentheses right after it)";
            self.diagnostics.push(Diagnostic::new(group, message));
        }
    }

    /// A dash alone in braces at `span` in a path, which CQL 6.2 reads as the dash itself, no
    /// constituent: the path ends before it (a word to read again after a stop), and it is the
    /// filter after the path; refused where the path would end with no constituent (`after` is
    /// false) or no stop fits before it.
    fn lone_dash_in_braces(&mut self, span: Span, after: bool) {
        if after && super::stop_fits(&self.source, span.start) {
            self.strays.push(span.start);
        } else {
            let message = "a dash alone in braces is no path constituent (CQL 6.2 reads '{X--Y}' as the dash \
                           itself, after the path): write the dash without braces";
            self.diagnostics.push(Diagnostic::new(span, message));
        }
    }

    /// A dash of a path with the filters after it, as one dash whose target holds them; where a
    /// `+` follows its last piece (`--k+`: which repeats the dash there, as in CQL 6.2, rather
    /// than naming a tier), the dash alone and the filters after the `+`.
    fn path_dash(&mut self, pair: Pair<'_, Rule>) -> (Expr, u32, Option<Vec<Expr>>) {
        let span = span_of(&pair);
        let mut targets = Vec::new();
        let mut depth = 0;
        let mut dash_parts = Vec::new();
        for part in pair.clone().into_inner() {
            if part.as_rule() == Rule::path_target {
                let reread = self.reread_target.take_if(|start| *start == span_of(&part).start).is_some();
                let (filter, filter_depth) = self.path_holder(part);
                if matches!(filter.kind, ExprKind::Block(_)) && lone_dash(&filter) {
                    // As a constituent after the dash's other filters: the path ends before it.
                    self.lone_dash_in_braces(filter.span, true);
                }
                if reread {
                    self.path_rereads.push(filter.span);
                }
                depth = depth.max(filter_depth);
                targets.push(filter);
            } else {
                dash_parts.push(part);
            }
        }
        let (kind, dash_depth) = self.dash_parts(dash_parts.into_iter());
        let ExprKind::Dash { from, mut to, capture, promote, when, .. } = kind else {
            unreachable!("parse: a path's dash is a dash")
        };
        let after_plus = to.as_deref_mut().is_some_and(drop_one_plus).then(|| std::mem::take(&mut targets));
        let target = (!targets.is_empty()).then(|| {
            let target_span = Span::new(targets[0].span.start, targets[targets.len() - 1].span.end);
            Box::new(Expr { kind: ExprKind::Block(targets), span: target_span })
        });
        (
            Expr { kind: ExprKind::Dash { from, to, capture, promote, target, when }, span },
            depth.max(dash_depth),
            after_plus,
        )
    }

    /// Reads a filter at a path's top level (its option's value, its focus or a constituent):
    /// there, before any blank line, CQL 6.2 has taken every `+` and `*` for a repetition.
    fn at_path_top_level<T>(&mut self, read: impl FnOnce(&mut Self) -> T) -> T {
        self.with_path_parentheses(!self.past_blank_line_in_path, read)
    }

    /// Reads what braces or brackets hold, where `+` and `*` are arithmetic even inside a
    /// path's parentheses.
    pub(super) fn outside_path_parentheses<T>(&mut self, read: impl FnOnce(&mut Self) -> T) -> T {
        self.with_path_parentheses(false, read)
    }

    /// Reads with `+` and `*` taken for a path's repetitions where `inside`, then as before.
    fn with_path_parentheses<T>(&mut self, inside: bool, read: impl FnOnce(&mut Self) -> T) -> T {
        let outer = std::mem::replace(&mut self.in_path_parentheses, inside);
        let read = read(self);
        self.in_path_parentheses = outer;
        read
    }

    /// A filter of a path. As in CQL 6.2, a number or arithmetic alone is refused there: it is
    /// most likely a range or a repetition written in the wrong place.
    fn path_holder(&mut self, pair: Pair<'_, Rule>) -> (Expr, u32) {
        let body = pair.into_inner().next().expect("grammar: a path's filter has a body");
        let (filter, depth) = self.at_path_top_level(|builder| builder.operators(body.into_inner()));
        if let Some(what) = lone_number(&filter) {
            let message = format!(
                "a path constituent cannot be {what} alone (a range goes right after 'path'; '+' and '*' after a \
                 dash or a group repeat it): put the filter in braces"
            );
            self.diagnostics.push(Diagnostic::new(filter.span, message));
        }
        (filter, depth)
    }

    /// `pathcount`, `pathstart`, `pathlastposition`, `pathdebug`; `pathcountunfocused`, the
    /// moves out of focus so far (`ply - pathstart:ply - pathcount`).
    pub(super) fn path_word(&mut self, pair: &Pair<'_, Rule>) -> (ExprKind, u32) {
        let span = span_of(pair);
        let word = match pair.as_str() {
            "pathcount" => PathWord::Count,
            "pathstart" => PathWord::Start,
            "pathlastposition" => PathWord::LastPosition,
            "pathdebug" => PathWord::Debug,
            _ => {
                let expr = |kind| Box::new(Expr { kind, span });
                let start_ply = ExprKind::At {
                    position: expr(ExprKind::PathWord(PathWord::Start)),
                    body: expr(ExprKind::Word(Word::Ply)),
                };
                let before = ExprKind::Binary(BinaryOp::Sub, expr(ExprKind::Word(Word::Ply)), expr(start_ply));
                return (ExprKind::Binary(BinaryOp::Sub, expr(before), expr(ExprKind::PathWord(PathWord::Count))), 3);
            }
        };
        (ExprKind::PathWord(word), 1)
    }
}

/// How many `sort` filters without a label a piece of the query holds.
fn unlabeled_sorts_in(pair: &Pair<'_, Rule>) -> usize {
    let labeled = |sort: &Pair<'_, Rule>| sort.clone().into_inner().any(|part| part.as_rule() == Rule::string);
    pair.clone().into_inner().flatten().filter(|part| part.as_rule() == Rule::sort_filter && !labeled(part)).count()
}

/// What a constituent of a path or a line is, when it is a number, a numeric variable or
/// arithmetic alone (in braces or not): CQL 6.2 refuses these there, as most likely a range or
/// a repetition written in the wrong place (`pathcountunfocused` is arithmetic too).
pub(super) fn lone_number(filter: &Expr) -> Option<&'static str> {
    match &filter.kind {
        ExprKind::Number(_) => Some("a number"),
        ExprKind::Variable { ty: Type::Number, .. } => Some("a numeric variable"),
        ExprKind::Binary(op, ..) if op.is_arithmetic() && type_of(filter) == Type::Number => Some("arithmetic"),
        // Braces around one filter are no more than the filter, except around a variable.
        ExprKind::Block(items) => match &items[..] {
            [only] if !matches!(only.kind, ExprKind::Variable { .. }) => lone_number(only),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a filter is a dash of the move played next alone, in braces that hold nothing else.
fn lone_dash(filter: &Expr) -> bool {
    match &filter.kind {
        ExprKind::Dash { when, .. } => *when == DashWhen::Next,
        ExprKind::Block(items) => matches!(&items[..], [only] if lone_dash(only)),
        _ => false,
    }
}

/// Takes the one `+` off a piece written alone with one (`k+`); whether there was one.
fn drop_one_plus(to: &mut Expr) -> bool {
    let ExprKind::Pieces(pieces) = &mut to.kind else { return false };
    if pieces.squares.is_some() || pieces.piece.list {
        return false;
    }
    match &mut pieces.piece.atoms[..] {
        [PieceAtom { kind: PieceAtomKind::Letters { level, .. }, .. }] if *level == 1 => {
            *level = 0;
            true
        }
        _ => false,
    }
}

/// The first of `words` that `text` holds as a word outside braces, brackets, quotes and
/// comments (where a path reads its constituents).
/// How far the path at the start of `text` may reach: to the bracket that closes one opened
/// before it, or to a blank line.
fn path_extent(text: &str) -> usize {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' if depth == 0 => return at,
            '}' | ')' | ']' => depth -= 1,
            '\n' if text[at + 1..].split_once('\n').is_some_and(|(line, _)| line.trim().is_empty()) => return at,
            _ => {}
        }
    }
    text.len()
}

fn top_level_word<'w>(text: &str, words: &[&'w str]) -> Option<&'w str> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut at = 0;
    while at < bytes.len() {
        let rest = &text[at..];
        match bytes[at] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                at += rest[1..].find(['"', '\n']).map_or(rest.len(), |end| end + 2);
                continue;
            }
            b'/' if rest.starts_with("//") || rest.starts_with("/*") => {
                let end = if rest.starts_with("//") { rest.find('\n') } else { rest.find("*/").map(|end| end + 2) };
                at += end.unwrap_or(rest.len());
                continue;
            }
            byte if byte.is_ascii_alphabetic() => {
                let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                if depth == 0
                    && let Some(word) = words.iter().find(|word| **word == &rest[..len])
                {
                    return Some(word);
                }
                at += len;
                continue;
            }
            _ => {}
        }
        at += rest.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// Where the parentheses opened at `open` in `source` close (just after the `)`), quoted texts
/// aside; the end of `source` if they do not.
fn after_parentheses(source: &str, open: usize) -> usize {
    let mut depth = 0usize;
    let mut quoted = false;
    for (at, byte) in source.bytes().enumerate().skip(open) {
        match byte {
            b'"' => quoted = !quoted,
            b'(' if !quoted => depth += 1,
            b')' if !quoted => {
                depth -= 1;
                if depth == 0 {
                    return at + 1;
                }
            }
            _ => {}
        }
    }
    source.len()
}

/// Whether a dash of a path has filters after it other than a target in parentheses right
/// after it (`-- check`, `--(check) mate`; not `--(check)`): with them, it is more than one
/// filter.
fn has_loose_targets(dash: &Pair<'_, Rule>) -> bool {
    let parts = dash.clone().into_inner();
    let end = parts.clone().filter(|part| part.as_rule() != Rule::path_target).last().map(|last| span_of(&last).end);
    let mut targets = parts.filter(|part| part.as_rule() == Rule::path_target);
    match targets.next() {
        None => false,
        Some(first) => Some(span_of(&first).start) != end || targets.next().is_some(),
    }
}
