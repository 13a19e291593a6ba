//! Checks that need no variant: what type each expression has, and whether ranges and light/dark
//! parts are well formed. Every mistake is collected; none stops the check.
//!
//! Three types exist: filters (which match or not), sets of squares (with backhand slots), and
//! numbers. A set stands for its size where a number is wanted (`r >= 2` is `#r >= 2`), and any
//! set or number can stand as a filter (a set matches when it is not empty; a number when it has
//! a value).

pub(crate) use super::ast::Type;
use super::ast::{
    AssignOp, BinaryOp, Constituent, Coordinate, DashWhen, DictionaryOp, Expr, ExprKind, FindQuantity, GameFilter,
    Header, MoveFilter, PathExpr, PathFocus, PathStep, PathWord, QueryAst, Region, SquareDesignator, SquarePart,
    TextFunction, TextPart, UnaryOp,
};
use super::diagnostic::{Diagnostic, quoted, unknown_variant};
use crate::variant::Variant;
use crate::variant::vocabulary::{self, WordValue};

impl Type {
    /// The type's name in a sentence: "a number".
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Type::Filter => "a filter",
            Type::Set => "a set of squares",
            Type::Number => "a number",
            Type::Position => "a position",
            Type::Text => "a text",
        }
    }
}

/// Checks a query; returns every mistake found.
pub(crate) fn check(ast: &QueryAst, source: &str) -> Vec<Diagnostic> {
    let mut checker = Checker { source, diagnostics: Vec::new() };
    if let Some(header) = &ast.header {
        checker.header(header);
    }
    for filter in &ast.body {
        checker.expr(filter);
    }
    checker.diagnostics
}

/// Checks one filter of the body; returns its mistakes.
pub(crate) fn check_filter(filter: &Expr, source: &str) -> Vec<Diagnostic> {
    let mut checker = Checker { source, diagnostics: Vec::new() };
    checker.expr(filter);
    checker.diagnostics
}

/// `ancestor(...)` and `descendant(...)`, filters that CQL 6.2 takes for numbers where a number
/// is wanted: the query is read, and the run stops where the number is worked out.
pub(crate) fn numeric_in_name(expr: &Expr) -> bool {
    matches!(expr.kind, ExprKind::Descends { keeps_notes: true, .. })
}

/// The type of an expression that passed the check.
pub(crate) fn type_of(expr: &Expr) -> Type {
    match &expr.kind {
        ExprKind::Extreme { args, .. } if args.first().is_some_and(|first| type_of(first) == Type::Text) => Type::Text,
        ExprKind::Number(_) | ExprKind::Extreme { .. } => Type::Number,
        ExprKind::Squares(_) | ExprKind::Pieces(_) | ExprKind::MateShape { .. } => Type::Set,
        ExprKind::Unary(op, _) => match op {
            UnaryOp::Not => Type::Filter,
            UnaryOp::Complement => Type::Set,
            UnaryOp::Count | UnaryOp::Negate | UnaryOp::Abs | UnaryOp::Sqrt => Type::Number,
        },
        ExprKind::Binary(op, left, right) => match op {
            BinaryOp::Union | BinaryOp::Intersection => Type::Set,
            BinaryOp::Add if type_of(left) == Type::Text => Type::Text,
            op if op.is_arithmetic() => Type::Number,
            // A comparison that holds has its left side's value, a number or a text, as in CQL
            // 6.2 (`!=` has none, nor has a comparison of two sets or of two positions).
            BinaryOp::Ne => Type::Filter,
            op if op.is_comparison() => match (type_of(left), type_of(right)) {
                (Type::Text, Type::Text) => Type::Text,
                (Type::Set, Type::Set) | (Type::Position | Type::Text, _) | (_, Type::Position | Type::Text) => {
                    Type::Filter
                }
                _ => Type::Number,
            },
            _ => Type::Filter,
        },
        // A block's value is its last filter's, as in CQL 6.2: `{check #R}` is a number.
        ExprKind::Block(filters) => filters.last().map_or(Type::Filter, type_of),
        ExprKind::Fen(..) | ExprKind::Equal(..) => Type::Filter,
        ExprKind::Line { options, .. } if options.lastposition => Type::Position,
        ExprKind::Line { .. } => Type::Number,
        ExprKind::Path(path) if path.options.lastposition => Type::Position,
        ExprKind::Path(_) => Type::Number,
        ExprKind::PathWord(PathWord::Count) => Type::Number,
        ExprKind::PathWord(PathWord::Start | PathWord::LastPosition) => Type::Position,
        ExprKind::PathWord(PathWord::Debug) => Type::Filter,
        ExprKind::Word(word) => word.value_type(),
        ExprKind::Move(MoveFilter { count: true, .. }) => Type::Number,
        ExprKind::Attacks { .. }
        | ExprKind::Arrows { .. }
        | ExprKind::XRay(_)
        | ExprKind::Between(..)
        | ExprKind::Ray { .. }
        | ExprKind::Pin { .. }
        | ExprKind::Shade { .. }
        | ExprKind::Direction { .. }
        | ExprKind::MakeSquare(..)
        | ExprKind::Move(_) => Type::Set,
        ExprKind::Power(_) | ExprKind::PieceId(_) | ExprKind::SquareNumber { .. } => Type::Number,
        ExprKind::Transform { count: true, .. } => Type::Number,
        // A transformed set or number has a value (over the transformed copies); a transformed
        // position or text only matches or not.
        ExprKind::Transform { body, .. } => match type_of(body) {
            ty @ (Type::Set | Type::Number) => ty,
            _ => Type::Filter,
        },
        ExprKind::Game(GameFilter::Elo(_) | GameFilter::Year | GameFilter::Award(_)) => Type::Number,
        ExprKind::Game(_) => Type::Filter,
        ExprKind::Variable { ty, .. } => *ty,
        ExprKind::FamilyWord(name) => match vocabulary::word_value(name) {
            Some(WordValue::Number) => Type::Number,
            _ => Type::Set,
        },
        ExprKind::Assign { .. } => Type::Filter,
        ExprKind::If { then, otherwise: Some(otherwise), .. } => match type_of(then) {
            // Each branch's type once: an `if` nested in a branch would double the work.
            ty if ty == type_of(otherwise) => ty,
            _ => Type::Filter,
        },
        ExprKind::If { .. } => Type::Filter,
        ExprKind::Loop { all: true, .. } => Type::Filter,
        ExprKind::Dictionary { op: DictionaryOp::Entry { value, .. }, .. } => *value,
        ExprKind::Dictionary { op: DictionaryOp::Count, .. } => Type::Number,
        ExprKind::Dictionary { .. } | ExprKind::IsBound { .. } | ExprKind::Unbind(_) => Type::Filter,
        ExprKind::Position(_) | ExprKind::Lca(..) | ExprKind::NumberedPosition(_) | ExprKind::NumberedChild(_) => {
            Type::Position
        }
        // `A [<] B` and the like have their left side's value where they hold, as in CQL 6.2.
        ExprKind::Descends { keeps_notes: false, .. } => Type::Position,
        ExprKind::Descends { .. } => Type::Filter,
        ExprKind::Find { quantity: FindQuantity::First, .. } => Type::Position,
        ExprKind::Find { .. } => Type::Number,
        ExprKind::At { body, .. } | ExprKind::NoTransform(body) => type_of(body),
        ExprKind::Comment { .. } => Type::Filter,
        // A set is sorted by its size; a text by its bytes.
        ExprKind::Sort { value, .. } => match type_of(value) {
            Type::Text => Type::Text,
            _ => Type::Number,
        },
        ExprKind::Repeat { .. } => Type::Filter,
        ExprKind::Dash { when: DashWhen::Count, .. } => Type::Number,
        ExprKind::Dash { target: Some(target), .. } => match type_of(target) {
            value @ (Type::Number | Type::Set | Type::Text) => value,
            _ => Type::Filter,
        },
        ExprKind::Dash { .. } => Type::Filter,
        ExprKind::Distance(..) | ExprKind::ConsecutiveMoves { .. } => Type::Number,
        ExprKind::TypeName(_)
        | ExprKind::Text(_)
        | ExprKind::Tag(_)
        | ExprKind::Str(_)
        | ExprKind::Substring { .. }
        | ExprKind::RegexMatch { .. }
        | ExprKind::RegexGroup { start: false, .. }
        | ExprKind::CurrentFen
        | ExprKind::OriginalComment
        | ExprKind::PieceName(_) => Type::Text,
        ExprKind::RegexGroup { start: true, .. } | ExprKind::IndexOf(..) => Type::Number,
        ExprKind::TextFunction { function, arg } => match function {
            TextFunction::Int => Type::Number,
            TextFunction::Ascii if type_of(arg) == Type::Text => Type::Number,
            _ => Type::Text,
        },
        ExprKind::WriteFile(..)
        | ExprKind::Glyph(_)
        | ExprKind::RemoveComment
        | ExprKind::SetTag(..)
        | ExprKind::Assert(_)
        | ExprKind::SimilarPosition { .. }
        | ExprKind::Abort => Type::Filter,
        ExprKind::SquareNamed(_) => Type::Set,
        ExprKind::Echo { body, .. } if type_of(body) == Type::Number => Type::Number,
        ExprKind::Echo { .. } => Type::Filter,
        ExprKind::Loop { .. } => Type::Set,
    }
}

/// Whether a text looked for after a tag word (`event "Blitz"`) would rather be a regular
/// expression, as CQL 6.2 judges it: brackets around something, or `*`, `+` or `?` after its
/// first character. CQL refuses such a search, to be sure.
pub(super) fn looks_like_a_pattern(text: &str) -> bool {
    let bracketed = text.find('[').is_some_and(|open| text[open..].contains(']'));
    bracketed || text.char_indices().skip(1).any(|(_, c)| matches!(c, '*' | '+' | '?'))
}

struct Checker<'a> {
    source: &'a str,
    diagnostics: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn header(&mut self, header: &Header) {
        if let Some((name, span)) = &header.variant
            && Variant::by_name(name).is_err()
        {
            self.diagnostics.push(Diagnostic::new(*span, unknown_variant(name)));
        }
        for (low, high) in [header.matchcount, header.gamenumber].into_iter().flatten() {
            if let Some(high) = high
                && high < low
            {
                self.diagnostics.push(Diagnostic::new(header.span, format!("the range {low} {high} runs backwards")));
            }
        }
        if header.gamenumber.is_some_and(|(low, _)| low == 0) {
            self.diagnostics.push(Diagnostic::new(header.span, "games are numbered from 1: gamenumber 0 is no game"));
        }
        if let Some(sort) = &header.sort {
            self.sorted_number(&sort.expr);
            self.want_number(&sort.expr, "sort");
        }
    }

    /// Checks an expression and returns its type.
    fn expr(&mut self, expr: &Expr) -> Type {
        match &expr.kind {
            ExprKind::Number(_) => {}
            ExprKind::Squares(squares) => self.squares(squares),
            ExprKind::Pieces(pieces) => {
                if let Some(squares) = &pieces.squares {
                    self.squares(squares);
                }
            }
            ExprKind::Unary(op, operand) => match op {
                UnaryOp::Not => {
                    self.expr(operand);
                }
                UnaryOp::Count if type_of(operand) == Type::Text => {
                    self.expr(operand);
                }
                UnaryOp::Complement | UnaryOp::Count => self.want_set(operand, op.symbol()),
                UnaryOp::Negate | UnaryOp::Abs | UnaryOp::Sqrt => self.want_number(operand, op.symbol()),
            },
            ExprKind::Binary(op, left, right) => match op {
                BinaryOp::Or | BinaryOp::And => {
                    self.expr(left);
                    self.expr(right);
                }
                BinaryOp::In if type_of(left) == Type::Text => {
                    self.want_text(left, "in");
                    self.want_text(right, "in");
                }
                BinaryOp::Add if type_of(left) == Type::Text => {
                    self.want_text(left, "+");
                    self.want_text(right, "+");
                }
                BinaryOp::Intersection if type_of(left) == Type::Position => {
                    self.want_position(left, op.symbol());
                    self.want_position(right, op.symbol());
                }
                BinaryOp::In | BinaryOp::Union | BinaryOp::Intersection => {
                    self.want_set(left, op.symbol());
                    self.want_set(right, op.symbol());
                }
                op if op.is_comparison() && type_of(left) == Type::Position => {
                    self.want_position(left, op.symbol());
                    self.want_position(right, op.symbol());
                }
                op if op.is_comparison() && type_of(left) == Type::Text => {
                    self.expr(left);
                    if self.expr(right) != Type::Text {
                        self.mismatch(right, "a text is compared with a text", type_of(right));
                    }
                }
                op if op.is_comparison() => {
                    self.want_number(left, op.symbol());
                    self.want_number(right, op.symbol());
                }
                _ => {
                    self.want_strict_number(left, op.symbol());
                    self.want_strict_number(right, op.symbol());
                }
            },
            ExprKind::Extreme { max, args } => {
                let name = if *max { "max" } else { "min" };
                let texts = type_of(expr) == Type::Text;
                for arg in args {
                    if texts { self.want_text(arg, name) } else { self.want_number(arg, name) }
                }
            }
            ExprKind::Block(filters) => {
                for filter in filters {
                    self.expr(filter);
                }
            }
            ExprKind::Word(_) | ExprKind::Fen(..) | ExprKind::MateShape { .. } => {}
            ExprKind::Attacks { attackers, targets, .. } => {
                self.want_set(attackers, "attacks");
                self.want_set(targets, "attacks");
            }
            ExprKind::Between(first, second) => {
                self.want_set(first, "between");
                self.want_set(second, "between");
            }
            ExprKind::Ray { sets, .. } => {
                for set in sets {
                    self.want_set(set, "ray");
                }
            }
            ExprKind::Arrows { sets, .. } | ExprKind::XRay(sets) => {
                for set in sets {
                    self.want_set(set, "attacks");
                }
            }
            ExprKind::Pin { from, through, to, .. } => {
                for set in [from, through, to].into_iter().flatten() {
                    self.want_set(set, "pin");
                }
            }
            ExprKind::Shade { light, set } => self.want_set(set, if *light { "light" } else { "dark" }),
            ExprKind::Direction { bounds, set, .. } => {
                for bound in bounds {
                    self.want_range_bound(bound, "a direction");
                }
                self.want_set(set, "a direction");
            }
            ExprKind::SquareNumber { what, set } => self.want_set(set, what.text()),
            ExprKind::MakeSquare(file, rank) => {
                self.want_number(file, "makesquare");
                self.want_number(rank, "makesquare");
            }
            ExprKind::Power(set) => self.want_set(set, "power"),
            ExprKind::PieceId(set) => self.want_set(set, "pieceid"),
            ExprKind::Move(filter) => self.move_filter(filter),
            ExprKind::Transform { bounds, body, .. } => {
                for bound in bounds {
                    self.want_range_bound(bound, "a transform");
                }
                if let Some(similar) = transformed_similar(body) {
                    let message = "'similarposition' tries the symmetries itself: it cannot stand inside a transform";
                    self.diagnostics.push(Diagnostic::new(similar.span, message));
                }
                self.expr(body);
            }
            ExprKind::Line { constituents, .. } => {
                for filter in constituents.iter().flat_map(Constituent::filters) {
                    self.expr(filter);
                }
            }
            ExprKind::Path(path) => self.path(path),
            ExprKind::Game(GameFilter::Variant(name)) => {
                if Variant::by_name(name).is_err() {
                    self.diagnostics.push(Diagnostic::new(expr.span, unknown_variant(name)));
                }
            }
            ExprKind::Game(GameFilter::Holds { text, .. }) if looks_like_a_pattern(text) => {
                let message = format!(
                    "\"{text}\" is looked for as written, but it reads like a regular expression: write \
                     ~~ \"{text}\" after the tag word to match it as one, or \"{text}\" in the tag word to \
                     look for it as written"
                );
                self.diagnostics.push(Diagnostic::new(expr.span, message));
            }
            ExprKind::Game(_)
            | ExprKind::Variable { .. }
            | ExprKind::FamilyWord(_)
            | ExprKind::PathWord(_)
            | ExprKind::IsBound { .. }
            | ExprKind::Unbind(_) => {}
            // The types of keys and values were checked as the text was read.
            ExprKind::Dictionary { .. } => {
                for child in expr.children() {
                    self.expr(child);
                }
            }
            ExprKind::Assign { name, op, value, .. } => self.assignment(expr, name, *op, value),
            ExprKind::If { condition, then, otherwise } => {
                self.expr(condition);
                self.expr(then);
                if let Some(otherwise) = otherwise {
                    self.expr(otherwise);
                }
            }
            ExprKind::Loop { set, body, .. } => {
                self.want_set(set, "in");
                self.expr(body);
            }
            ExprKind::Position(_) | ExprKind::Text(_) => {}
            ExprKind::NoTransform(body) => {
                self.expr(body);
            }
            ExprKind::Sort { value, .. } => {
                self.sorted_number(value);
                let found = self.expr(value);
                if matches!(found, Type::Filter | Type::Position) && !numeric_in_name(value) {
                    self.mismatch(value, "'sort' works on numbers, texts (or the sizes of sets)", found);
                }
            }
            ExprKind::Repeat { test, body } => {
                if let Some(test) = test {
                    self.expr(test);
                }
                self.expr(body);
            }
            ExprKind::Dash { from, to, target, .. } => {
                for set in [from, to].into_iter().flatten() {
                    self.want_set(set, "--");
                }
                if let Some(target) = target {
                    self.expr(target);
                }
            }
            ExprKind::Equal(first, second) => {
                self.expr(first);
                self.expr(second);
            }
            ExprKind::Distance(first, second) => {
                self.want_position(first, "distance");
                self.want_position(second, "distance");
            }
            ExprKind::ConsecutiveMoves { positions, .. } => {
                self.want_position(&positions.0, "consecutivemoves");
                self.want_position(&positions.1, "consecutivemoves");
            }
            ExprKind::TypeName(set) => self.want_set(set, "typename"),
            ExprKind::PieceName(set) => self.want_set(set, "piecename"),
            ExprKind::Tag(_)
            | ExprKind::RegexGroup { .. }
            | ExprKind::CurrentFen
            | ExprKind::OriginalComment
            | ExprKind::Glyph(_)
            | ExprKind::RemoveComment
            | ExprKind::SimilarPosition { .. }
            | ExprKind::Abort => {}
            ExprKind::Assert(filter) => {
                self.expr(filter);
            }
            ExprKind::SetTag(_, value) => self.want_text(value, "settag"),
            ExprKind::TextFunction { function, arg } => match function {
                TextFunction::Ascii => {
                    if matches!(self.expr(arg), Type::Filter | Type::Set | Type::Position) {
                        self.mismatch(arg, "'ascii' takes a text or a number", type_of(arg));
                    }
                }
                function => self.want_text(arg, function.name()),
            },
            ExprKind::Str(parts) => {
                for part in parts {
                    if let TextPart::Value(expr) = part {
                        self.expr(expr);
                    }
                }
            }
            ExprKind::IndexOf(first, second) => {
                self.want_text(first, "indexof");
                self.want_text(second, "indexof");
            }
            ExprKind::WriteFile(file, text) => {
                self.want_text(file, "writefile");
                self.want_text(text, "writefile");
            }
            ExprKind::SquareNamed(name) => self.want_text(name, "makesquare"),
            ExprKind::Substring { text, start, end, .. } => {
                self.want_text(text, "[...]");
                for bound in [start, end].into_iter().flatten() {
                    self.want_number(bound, "[...]");
                }
            }
            ExprKind::RegexMatch { text, pattern } => {
                self.want_text(text, "~~");
                if let Err(error) = super::texts::Pattern::new(pattern) {
                    self.diagnostics.push(Diagnostic::new(expr.span, error));
                }
            }
            ExprKind::Comment { parts, .. } => {
                for part in parts {
                    if let TextPart::Value(expr) = part {
                        self.expr(expr);
                    }
                }
            }
            ExprKind::Find { bounds, body, .. } => {
                for bound in bounds {
                    self.want_range_bound(bound, "find");
                }
                self.expr(body);
            }
            ExprKind::Echo { body, .. } => {
                self.expr(body);
            }
            ExprKind::Lca(first, second) => {
                self.want_position(first, "lca");
                self.want_position(second, "lca");
            }
            ExprKind::Descends { ancestor, descendant, .. } => {
                self.want_position(ancestor, "ancestor");
                self.want_position(descendant, "ancestor");
            }
            ExprKind::NumberedPosition(number) => self.want_number(number, "position"),
            ExprKind::NumberedChild(number) => {
                let found = self.expr(number);
                if found != Type::Number {
                    self.mismatch(number, "child takes the number of a variation", found);
                }
            }
            ExprKind::At { position, body } => {
                self.want_position(position, ":");
                self.expr(body);
            }
        }
        type_of(expr)
    }

    /// A number written after `sort` is refused, as CQL 6.2 refuses it: it would sort
    /// nothing, and reads like the range older CQL took there.
    fn sorted_number(&mut self, value: &Expr) {
        if let ExprKind::Number(number) = value.kind {
            let message = format!(
                "sort takes a value that differs from game to game, and {number} is always {number} (sort no \
                 longer takes a range)"
            );
            self.diagnostics.push(Diagnostic::new(value.span, message));
        }
    }

    /// An assignment's value must be of a type a variable holds, and fit the operator.
    fn assignment(&mut self, expr: &Expr, name: &str, op: AssignOp, value: &Expr) {
        let found = self.expr(value);
        let wanted = match op {
            AssignOp::Set | AssignOp::SetOrUnset => None,
            AssignOp::Arithmetic(BinaryOp::Add) if found == Type::Text => Some(Type::Text),
            AssignOp::Arithmetic(_) => Some(Type::Number),
            AssignOp::Union | AssignOp::Intersection | AssignOp::Piece => Some(Type::Set),
        };
        let fits = match wanted {
            None => found != Type::Filter,
            Some(Type::Number) => matches!(found, Type::Number | Type::Set),
            Some(wanted) => found == wanted,
        };
        if !fits {
            let what = match wanted {
                None => format!(
                    "a variable holds a number, a set of squares, a position or a text, so '{name}' cannot take"
                ),
                Some(wanted) => format!("this assignment to '{name}' takes {}, and", wanted.noun()),
            };
            let text = quoted(value.span.text(self.source));
            self.diagnostics.push(Diagnostic::new(expr.span, format!("{what} {text}, which is {}", found.noun())));
        }
    }

    fn path(&mut self, path: &PathExpr) {
        if let Some(PathFocus::Pieces { set, .. }) = &path.options.focus {
            self.want_set(set, "focus");
        }
        if let Some(max) = &path.options.max {
            self.want_number(max, "a path's max");
        }
        for bound in &path.options.bounds {
            self.want_number(bound, "a path's range");
        }
        let mut pending: Vec<&PathStep> = path.steps.iter().collect();
        while let Some(step) = pending.pop() {
            match step {
                PathStep::Filter(expr) | PathStep::Move(expr) => {
                    self.expr(expr);
                }
                PathStep::Group(steps) => pending.extend(steps),
                PathStep::Repeat { step, .. } => pending.push(step),
            }
        }
    }

    fn move_filter(&mut self, filter: &MoveFilter) {
        for set in [&filter.from, &filter.to, &filter.capture, &filter.en_passant_square].into_iter().flatten() {
            self.want_set(set, "move");
        }
        if let Some(comment) = &filter.comment {
            self.expr(comment);
        }
        if let Some(promote) = &filter.promote {
            let plain_piece = matches!(&promote.kind, ExprKind::Pieces(pieces) if pieces.squares.is_none());
            if !plain_piece {
                let text = promote.span.text(self.source);
                self.diagnostics.push(Diagnostic::new(
                    promote.span,
                    format!(
                        "'promote' takes pieces without squares, such as Q or [RBN], and {} is not one",
                        quoted(text)
                    ),
                ));
            }
        }
    }

    fn want_set(&mut self, operand: &Expr, operator: &str) {
        let found = self.expr(operand);
        if found != Type::Set {
            let what = match operator {
                "#" => "'#' counts the squares of a set".to_owned(),
                "~" => "'~' takes the squares not in a set".to_owned(),
                "in" => "'in' compares two sets of squares".to_owned(),
                "attacks" => "'attacks' and 'attackedby' work on sets of squares".to_owned(),
                "between" | "ray" | "pin" | "move" | "light" | "dark" | "power" => {
                    format!("'{operator}' takes sets of squares")
                }
                symbol => format!("'{symbol}' combines sets of squares"),
            };
            self.mismatch(operand, &what, found);
        }
    }

    fn want_text(&mut self, operand: &Expr, operator: &str) {
        let found = self.expr(operand);
        if found != Type::Text {
            self.mismatch(operand, &format!("'{operator}' works on texts"), found);
        }
    }

    fn want_position(&mut self, operand: &Expr, operator: &str) {
        let found = self.expr(operand);
        if found != Type::Position {
            let what = if operator == ":" {
                "':' takes a position on its left, such as parent or a variable given find".to_owned()
            } else {
                format!("'{operator}' takes positions")
            };
            self.mismatch(operand, &what, found);
        }
    }

    fn want_number(&mut self, operand: &Expr, operator: &str) {
        let found = self.expr(operand);
        if matches!(found, Type::Filter | Type::Position | Type::Text) && !numeric_in_name(operand) {
            self.mismatch(operand, &format!("'{operator}' works on numbers (or the sizes of sets)"), found);
        }
    }

    /// A bound of a range (`find x 5`, `flip x`, `up x`): a number. A variable holding
    /// anything else is refused: CQL 6.2 reads it as the start of the filter that follows.
    fn want_range_bound(&mut self, bound: &Expr, owner: &str) {
        let found = self.expr(bound);
        if found != Type::Number {
            let what = format!("the range of {owner} takes numbers");
            self.mismatch(bound, &what, found);
        }
    }

    /// An operand of arithmetic, which CQL 6.2 wants a number: a set is refused there, and
    /// counted with `#`.
    fn want_strict_number(&mut self, operand: &Expr, operator: &str) {
        let found = self.expr(operand);
        if found == Type::Set {
            let what = format!("'{operator}' works on numbers: count a set's squares with '#', as in #R {operator} 1");
            self.mismatch(operand, &what, found);
        } else if found != Type::Number && !numeric_in_name(operand) {
            self.mismatch(operand, &format!("'{operator}' works on numbers"), found);
        }
    }

    fn mismatch(&mut self, operand: &Expr, what: &str, found: Type) {
        let text = operand.span.text(self.source);
        let text = quoted(text);
        self.diagnostics.push(Diagnostic::new(operand.span, format!("{what}, and {text} is {}", found.noun())));
    }

    fn squares(&mut self, squares: &SquareDesignator) {
        for part in &squares.parts {
            if let SquarePart::Region(region) = part {
                self.region(region);
            }
        }
    }

    fn region(&mut self, region: &Region) {
        let shaded = |c: Coordinate| matches!(c, Coordinate::Light | Coordinate::Dark);
        if shaded(region.files) && shaded(region.ranks) {
            self.diagnostics
                .push(Diagnostic::new(region.span, "L and D stand for the file part or for the rank part, not both"));
        }
        let text = region.span.text(self.source);
        for (coordinate, what) in [(region.files, "file"), (region.ranks, "rank")] {
            if let Coordinate::Range(low, high) = coordinate
                && high < low
            {
                self.diagnostics.push(Diagnostic::new(
                    region.span,
                    format!("the {what} range in {} runs backwards: write it from low to high", quoted(text)),
                ));
            }
        }
    }
}

/// A `similarposition` inside `body`, which a transform around it cannot transform (CQL 6.2
/// refuses it even inside `notransform`).
fn transformed_similar(body: &Expr) -> Option<&Expr> {
    match &body.kind {
        ExprKind::SimilarPosition { .. } => Some(body),
        _ => body.children().into_iter().find_map(transformed_similar),
    }
}
