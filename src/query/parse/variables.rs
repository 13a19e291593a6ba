//! The filters that name things or choose: assignments and variables, `if`, and the `square`
//! and `piece` loops. A name means a variable from where it is first given a value on, as in
//! CQL 6.2; before that, a word that reads as a designator is one.

use pest::iterators::Pair;

use super::{Builder, Rule, placeholder, span_of};
use crate::query::ast::{AssignOp, AttackSide, BinaryOp, DictionaryOp, Expr, ExprKind, Lasting, LoopOver, Span, Type};
use crate::query::check::type_of;
use crate::query::diagnostic::{Diagnostic, quoted};
use crate::variant::vocabulary;

impl Builder {
    /// The variable a name stands for: inside a function's body, a parameter stands for what
    /// the call gave it.
    pub(super) fn resolve(&self, name: &str) -> String {
        self.aliases.last().and_then(|aliases| aliases.get(name)).cloned().unwrap_or_else(|| name.to_owned())
    }

    /// Whether a name stands for a variable here.
    pub(super) fn is_variable(&self, name: &str) -> bool {
        self.variables.contains_key(&self.resolve(name)) || self.is_dictionary(name)
    }

    /// A name standing for its variable's value.
    pub(super) fn variable(&mut self, pair: &Pair<'_, Rule>) -> ExprKind {
        let name = self.resolve(pair.as_str());
        if self.dictionaries.contains_key(&name) {
            return self.dictionary(name, DictionaryOp::Declare);
        }
        let ty = match self.variables.get(&name) {
            Some(ty) => *ty,
            None if vocabulary::word_value(&name).is_some() => return ExprKind::FamilyWord(name),
            None => {
                let known: Vec<&str> = self.variables.keys().map(String::as_str).collect();
                let message = super::unknown_word_message(&name, &known);
                self.diagnostics.push(Diagnostic::new(span_of(pair), message));
                Type::Number
            }
        };
        ExprKind::Variable { name, ty }
    }

    /// `[persistent] x OP F`. As in CQL 6.2, the value reaches over arithmetic and the set
    /// operators but not over comparisons, `in`, `and` and `or`: `x = R or Q` is
    /// `(x = R) or Q`.
    pub(super) fn assignment(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let mut lasting = Lasting::Game;
        let mut name = String::new();
        let mut op = AssignOp::Set;
        let mut value = None;
        let mut name_span = span_of(&pair);
        let atomic = pair.clone().into_inner().any(|part| part.as_rule() == Rule::kw_atomic);
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::kw_persistent => lasting = Lasting::Run,
                Rule::kw_quiet if lasting == Lasting::Run => lasting = Lasting::RunQuietly,
                Rule::kw_quiet => {
                    let message = "'quiet' before an assignment belongs to 'persistent': write 'persistent quiet x = ...' \
                                   (CQL 6.2 refuses 'quiet' alone there too)";
                    self.diagnostics.push(Diagnostic::new(span_of(&part), message));
                }
                Rule::variable_word => {
                    name = self.resolve(part.as_str());
                    name_span = span_of(&part);
                }
                Rule::assign_op => op = assign_op(part.as_str()),
                Rule::filter => {
                    let first =
                        matches!(op, AssignOp::Set | AssignOp::SetOrUnset) && !self.variables.contains_key(&name);
                    let assignment = Assignment { name: name.clone(), name_span, op, lasting };
                    let outer = std::mem::replace(&mut self.assigning, first.then_some((assignment, self.nested + 1)));
                    value = Some(self.operators(part.into_inner()));
                    self.assigning = outer;
                }
                _ => {}
            }
        }
        let (value, depth) = value.expect("grammar: an assignment has a value");
        if atomic && !self.atomics.contains(&name) {
            self.atomics.push(name.clone());
        }
        let assignment = Assignment { name, name_span, op, lasting };
        (self.assign_into(value, &assignment).kind, depth + 1)
    }

    /// The assignment of the leftmost operand of `expr` that lies inside a comparison, `in`,
    /// `and` or `or`, with the rest of `expr` around it.
    fn assign_into(&mut self, expr: Expr, assignment: &Assignment) -> Expr {
        match expr.kind {
            // A comparison in parentheses is the value (its span begins before its left side's).
            ExprKind::Binary(op, left, right) if reaches_past(op) && left.span.start == expr.span.start => {
                let left = self.assign_into(*left, assignment);
                let span = Span::new(assignment.name_span.start, expr.span.end);
                Expr { kind: ExprKind::Binary(op, Box::new(left), right), span }
            }
            // So is a comparison of positions (`x = child [<] currentposition`).
            ExprKind::Descends { ancestor, descendant, strict, later_first, keeps_notes: false }
                if (if later_first { &descendant } else { &ancestor }).span.start == expr.span.start =>
            {
                let (mut ancestor, mut descendant) = (ancestor, descendant);
                let left = if later_first { &mut descendant } else { &mut ancestor };
                let value = std::mem::replace(&mut **left, placeholder(expr.span));
                **left = self.assign_into(value, assignment);
                let span = Span::new(assignment.name_span.start, expr.span.end);
                Expr {
                    kind: ExprKind::Descends { ancestor, descendant, strict, later_first, keeps_notes: false },
                    span,
                }
            }
            kind => {
                let value = Expr { kind, span: expr.span };
                let Assignment { name, name_span, op, lasting } = assignment;
                if *op == AssignOp::Union && super::climb::bare_variable(&self.source, &value) == Some(name.as_str()) {
                    let message = format!(
                        "'{name} |= {name}' joins a variable with itself, which CQL 6.2 refuses as a likely mistake"
                    );
                    self.diagnostics.push(Diagnostic::new(Span::new(name_span.start, value.span.end), message));
                }
                self.declare_assigned(assignment, &value);
                let span = Span::new(name_span.start, value.span.end);
                let kind = ExprKind::Assign { name: name.clone(), op: *op, value: Box::new(value), lasting: *lasting };
                Expr { kind, span }
            }
        }
    }

    /// Where an `and` or `or` ends the value of a variable's first assignment (`value` is what
    /// comes before it), declares the variable, so that the name is the variable after it.
    pub(super) fn value_ends(&mut self, value: &Expr) {
        let Some((assignment, _)) = self.assigning.take_if(|(_, nested)| *nested == self.nested) else { return };
        let mut leftmost = value;
        while let ExprKind::Binary(op, left, _) = &leftmost.kind
            && reaches_past(*op)
        {
            leftmost = left;
        }
        self.declare_assigned(&assignment, leftmost);
    }

    /// Records the variable an assignment gives `value` to, with the type it then holds.
    fn declare_assigned(&mut self, assignment: &Assignment, value: &Expr) {
        let Assignment { name, name_span, op, lasting } = assignment;
        let ty = match op {
            AssignOp::Arithmetic(BinaryOp::Add) if type_of(value) == Type::Text => Type::Text,
            AssignOp::Arithmetic(_) => Type::Number,
            AssignOp::Union | AssignOp::Intersection | AssignOp::Piece => Type::Set,
            AssignOp::Set | AssignOp::SetOrUnset => type_of(value),
        };
        if lasting.is_persistent() {
            self.declare_persistent(name, ty, *name_span);
        }
        let combines = !matches!(op, AssignOp::Set | AssignOp::SetOrUnset);
        let starts_with_a_value = self.persistent.contains(name);
        self.declare(name, ty, *name_span, combines && !starts_with_a_value);
    }

    /// Records that `name` lasts from game to game. As in CQL 6.2, only numbers, sets and
    /// texts can, and a variable given a value without `persistent` cannot become persistent
    /// later.
    fn declare_persistent(&mut self, name: &str, ty: Type, span: Span) {
        if !matches!(ty, Type::Number | Type::Set | Type::Text) {
            let message =
                format!("{} cannot be persistent: only numbers, sets and texts last from game to game", quoted(name));
            self.diagnostics.push(Diagnostic::new(span, message));
        } else if self.variables.contains_key(name) && !self.persistent.contains(name) {
            let message =
                format!("{} was first given a value without 'persistent', so it cannot be persistent", quoted(name));
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        self.persistent.insert(name.to_owned());
    }

    /// Records that `name` holds values of type `ty` from here on. A variable keeps the type of
    /// its first value; an operator that combines needs a value already given.
    pub(super) fn declare(&mut self, name: &str, ty: Type, span: Span, combines: bool) {
        if self.dictionaries.contains_key(name) {
            let message = format!("{} is a dictionary: give its entries values, as in {name}[k] = v", quoted(name));
            self.diagnostics.push(Diagnostic::new(span, message));
            return;
        }
        match self.variables.get(name) {
            None if combines => self.diagnostics.push(Diagnostic::new(
                span,
                format!("{} has no value yet to combine with: give it one with '=' first", quoted(name)),
            )),
            Some(held) if *held != ty && ty != Type::Filter => self.diagnostics.push(Diagnostic::new(
                span,
                format!("{} holds {} and cannot now take {}", quoted(name), noun(*held), noun(ty)),
            )),
            _ => {}
        }
        if ty != Type::Filter {
            self.variables.entry(name.to_owned()).or_insert(ty);
        }
    }

    /// Refuses a piece letter of chess as the name of a variable or a function (`◭p`, `f(a)`), as
    /// CQL 6.2 refuses it: the letter is read as a piece there.
    pub(super) fn refuse_piece_letter_name(&mut self, word: &Pair<'_, Rule>) {
        if let [
            letter @ (b'K' | b'Q' | b'R' | b'B' | b'N' | b'P' | b'A' | b'k' | b'q' | b'r' | b'b' | b'n' | b'p' | b'a'),
        ] = word.as_str().as_bytes()
        {
            let message = format!(
                "a piece letter cannot name a variable or a function ({} stands for pieces): choose another name",
                quoted(&char::from(*letter).to_string())
            );
            self.diagnostics.push(Diagnostic::new(span_of(word), message));
        }
    }

    /// `piece x = S`.
    pub(super) fn piece_assignment(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let mut name = String::new();
        let mut value = None;
        for part in pair.into_inner() {
            let part = match part.as_rule() {
                Rule::piece_variable => {
                    let word = part.into_inner().next().expect("grammar: a piece variable's name");
                    self.refuse_piece_letter_name(&word);
                    word
                }
                _ => part,
            };
            match part.as_rule() {
                Rule::variable_word => {
                    name = self.resolve(part.as_str());
                    self.declare(&name, Type::Set, span_of(&part), false);
                }
                Rule::argument | Rule::set_argument => value = Some(self.operators(part.into_inner())),
                _ => {}
            }
        }
        let (value, depth) = value.expect("grammar: piece x = S takes a set");
        (ExprKind::Assign { name, op: AssignOp::Piece, value: Box::new(value), lasting: Lasting::Game }, depth + 1)
    }

    /// `if F [then] G [else H]`.
    pub(super) fn if_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let mut filters = Vec::new();
        for part in pair.into_inner().filter(|part| part.as_rule() == Rule::filter) {
            filters.push(self.operators(part.into_inner()));
        }
        let depth = filters.iter().map(|(_, depth)| *depth).max().unwrap_or(0) + 1;
        let mut filters = filters.into_iter().map(|(filter, _)| Box::new(filter));
        let condition = filters.next().expect("grammar: if has a condition");
        let then = filters.next().expect("grammar: if has a filter to test");
        (ExprKind::If { condition, then, otherwise: filters.next() }, depth)
    }

    /// `square [all] X in S F` and `piece [all] X in S F`; `X ∊ D F` over a dictionary's keys.
    pub(super) fn loop_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let mut over = LoopOver::Squares;
        let mut all = false;
        let mut keys_only = false;
        let mut square_or_piece = false;
        let mut name = (String::new(), Span::default());
        let mut set: Option<(Expr, u32)> = None;
        let mut body: Option<(Expr, u32)> = None;
        let mut parts = pair.into_inner();
        while let Some(part) = parts.next() {
            match part.as_rule() {
                Rule::kw_piece => {
                    over = LoopOver::Pieces;
                    square_or_piece = true;
                }
                Rule::kw_square => square_or_piece = true,
                Rule::kw_all | Rule::kw_forall => all = true,
                Rule::kw_string => keys_only = true,
                Rule::variable_word => name = (part.as_str().to_owned(), span_of(&part)),
                Rule::piece_variable => {
                    over = LoopOver::Pieces;
                    let word = part.into_inner().next().expect("grammar: a piece variable's name");
                    self.refuse_piece_letter_name(&word);
                    name = (word.as_str().to_owned(), span_of(&word));
                }
                Rule::argument | Rule::set_argument => {
                    let (domain, depth) = self.operators(part.into_inner());
                    if let ExprKind::Dictionary { name: dictionary, op: DictionaryOp::Declare, .. } = domain.kind {
                        if keys_only && self.dictionaries.get(&dictionary).and_then(|info| info.key) != Some(Type::Text)
                        {
                            let message = "string x in D goes through the keys of a dictionary whose keys are texts";
                            self.diagnostics.push(Diagnostic::new(domain.span, message));
                        }
                        if all || square_or_piece {
                            let message = "a dictionary's keys are gone through as x ∊ D F (no ∀, no square or piece)";
                            self.diagnostics.push(Diagnostic::new(domain.span, message));
                        }
                        let body =
                            parts.find(|part| part.as_rule() == Rule::filter).expect("grammar: a loop has a body");
                        return self.dictionary_walk(dictionary, name, body);
                    }
                    if keys_only {
                        let message = "string x in D goes through the text keys of a dictionary D";
                        self.diagnostics.push(Diagnostic::new(domain.span, message));
                    }
                    self.declare(&name.0, Type::Set, name.1, false);
                    set = Some((domain, depth));
                }
                Rule::filter => body = Some(self.operators(part.into_inner())),
                _ => {}
            }
        }
        let (set, set_depth) = set.expect("grammar: a loop has a set");
        let (mut body, body_depth) = body.expect("grammar: a loop has a body");
        let depth = set_depth.max(body_depth) + 1;
        let name = name.0;
        // CQL 6.2 ends the body before a set operator its left side does not take
        // (`square x in S true | T` is `(square x in S true) | T`): the loop is that operand.
        let Some(left) = untaken_left_operand(&mut body) else {
            return (ExprKind::Loop { over, all, name, set: Box::new(set), body: Box::new(body) }, depth);
        };
        let start = set.span.start.min(left.span.start);
        let inner = std::mem::replace(left, Expr { kind: ExprKind::Number(0), span: Span::default() });
        let span = Span::new(start, inner.span.end);
        *left = Expr { kind: ExprKind::Loop { over, all, name, set: Box::new(set), body: Box::new(inner) }, span };
        (body.kind, depth)
    }
}

/// The leftmost operand of a chain of set operators that is no set, which such an operator
/// does not take in CQL 6.2: where a loop's body is that chain, the body ends there.
fn untaken_left_operand(expr: &mut Expr) -> Option<&mut Expr> {
    let left = match &mut expr.kind {
        // `&` takes two positions too (the squares whose contents agree).
        ExprKind::Binary(BinaryOp::Intersection, left, _) if type_of(left) == Type::Position => return None,
        ExprKind::Binary(BinaryOp::Union | BinaryOp::Intersection, left, _) => &mut **left,
        ExprKind::Attacks { attackers, side: AttackSide::Attackers, .. } => &mut **attackers,
        ExprKind::Attacks { targets, side: AttackSide::Targets, .. } => &mut **targets,
        ExprKind::Arrows { sets, .. } => sets.first_mut()?,
        _ => return None,
    };
    // A `move` is a set in CQL 6.2 only when `from`, `to` or `capture` comes first.
    let set_in_cql = match &left.kind {
        ExprKind::Move(filter) => filter.set_in_cql,
        _ => type_of(left) == Type::Set,
    };
    if set_in_cql { untaken_left_operand(left) } else { Some(left) }
}

/// An assignment's parts before its value.
pub(super) struct Assignment {
    name: String,
    name_span: Span,
    op: AssignOp,
    lasting: Lasting,
}

/// Whether an operator is looser than an assignment's value: comparisons, `in`, `and`, `or`.
fn reaches_past(op: BinaryOp) -> bool {
    op.is_comparison() || matches!(op, BinaryOp::In | BinaryOp::And | BinaryOp::Or)
}

fn assign_op(text: &str) -> AssignOp {
    match text {
        "+=" => AssignOp::Arithmetic(BinaryOp::Add),
        "-=" => AssignOp::Arithmetic(BinaryOp::Sub),
        "*=" => AssignOp::Arithmetic(BinaryOp::Mul),
        "/=" => AssignOp::Arithmetic(BinaryOp::Div),
        "%=" => AssignOp::Arithmetic(BinaryOp::Rem),
        "|=" | "∪=" => AssignOp::Union,
        "&=" | "∩=" => AssignOp::Intersection,
        "=?" => AssignOp::SetOrUnset,
        _ => AssignOp::Set,
    }
}

fn noun(ty: Type) -> &'static str {
    match ty {
        Type::Filter => "no value",
        Type::Set => "a set of squares",
        Type::Number => "a number",
        Type::Position => "a position",
        Type::Text => "a text",
    }
}
