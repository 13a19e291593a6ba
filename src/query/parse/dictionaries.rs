//! Dictionaries, as CQL 6.2 has them: `[local | persistent] dictionary D` (persistent unless
//! said `local`), `D[k] = v`, `D[k]`, `#D`, `unbind D[k]`, `unbind D` and `x ∊ D F`; and, for
//! any variable, `unbind x`, `isbound x` and `isunbound x`.
//!
//! A dictionary's keys are all of one type and its values all of one type, each fixed where
//! the text first shows it; positions can be keys or values only of a local dictionary, whose
//! entries are forgotten when a game ends.

use pest::iterators::Pair;

use super::{Builder, Rule, span_of, string};
use crate::query::ast::{DictionaryOp, Expr, ExprKind, Span, Type};
use crate::query::check::type_of;
use crate::query::diagnostic::{Diagnostic, quoted};

/// What the text has shown of a dictionary so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct DictionaryInfo {
    /// Whether its entries last from game to game.
    pub persistent: bool,
    /// The type of its keys, once one was given.
    pub key: Option<Type>,
    /// The type of its values, once one was given.
    pub value: Option<Type>,
}

impl Builder {
    /// Whether a name stands for a dictionary here.
    pub(super) fn is_dictionary(&self, name: &str) -> bool {
        self.dictionaries.contains_key(&self.resolve(name))
    }

    /// A use of the dictionary `name`.
    pub(super) fn dictionary(&self, name: String, op: DictionaryOp) -> ExprKind {
        let persistent = self.dictionaries.get(&name).is_none_or(|info| info.persistent);
        ExprKind::Dictionary { name, persistent, op }
    }

    /// `[local | persistent] dictionary D`, perhaps followed by `[k]` and `[k] = v`.
    pub(super) fn dictionary_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let mut parts = pair.into_inner();
        let head = parts.next().expect("grammar: a dictionary filter has a head");
        let name = self.dictionary_head(head);
        let Some(key) = parts.next() else {
            return (self.dictionary(name, DictionaryOp::Declare), 1);
        };
        self.entry_use(name, key, parts.next())
    }

    /// `D[k] = v` without the declaration.
    pub(super) fn entry_store(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let mut parts = pair.into_inner();
        let word = parts.next().expect("grammar: a store names its dictionary");
        let name = self.resolve(word.as_str());
        if !self.dictionaries.contains_key(&name) {
            let message = if self.variables.get(&name) == Some(&Type::Text) {
                format!(
                    "{} is a text: a part of it cannot be given a value (only a dictionary's entry can)",
                    quoted(&name)
                )
            } else {
                format!("{} is no dictionary: declare it first, as in dictionary {name}", quoted(&name))
            };
            self.diagnostics.push(Diagnostic::new(span_of(&word), message));
        }
        let key = parts.next().expect("grammar: a store has a key");
        self.entry_use(name, key, parts.next())
    }

    /// `D[k]`, or `D[k] = v` with `value`.
    fn entry_use(&mut self, name: String, key: Pair<'_, Rule>, value: Option<Pair<'_, Rule>>) -> (ExprKind, u32) {
        let (key, key_depth) = self.dictionary_key(key);
        let Some(value) = value else {
            let depth = key_depth + 1;
            return (self.dictionary_entry(name, key), depth);
        };
        let value = value.into_inner().next().expect("grammar: a store has a value");
        let value_span = span_of(&value);
        let (value, value_depth) = self.operators(value.into_inner());
        self.key_type(&name, &key);
        let ty = type_of(&value);
        let kind = self.dictionary(name.clone(), DictionaryOp::Store { key: Box::new(key), value: Box::new(value) });
        if let Some(info) = self.dictionaries.get_mut(&name) {
            let problem = match (ty, info.value) {
                (Type::Filter, _) => {
                    Some("a dictionary's value must be a number, a set, a text or a position".to_owned())
                }
                (Type::Position, _) if info.persistent => Some(format!(
                    "{} lasts from game to game, so it cannot hold positions: declare it local",
                    quoted(&name)
                )),
                (ty, Some(held)) if held != ty => {
                    Some(format!("{} holds {} as values, not {}", quoted(&name), held.noun(), ty.noun()))
                }
                _ => {
                    info.value = Some(ty);
                    None
                }
            };
            if let Some(message) = problem {
                self.diagnostics.push(Diagnostic::new(value_span, message));
            }
        }
        (kind, key_depth.max(value_depth) + 1)
    }

    /// `D[k]` read: the value held for k, of the type of the values given before (with none
    /// given yet, only whether there is one).
    pub(super) fn dictionary_entry(&mut self, name: String, key: Expr) -> ExprKind {
        self.key_type(&name, &key);
        let value = self.dictionaries.get(&name).and_then(|info| info.value).unwrap_or(Type::Filter);
        self.dictionary(name, DictionaryOp::Entry { key: Box::new(key), value })
    }

    /// Refuses `D[a1]` where `D` is a dictionary of one or two letters: it reads like a piece
    /// on squares, and CQL 6.2 reads it as the dictionary followed by the squares.
    pub(super) fn refuse_short_dictionary_on_squares(&mut self, designator: &Pair<'_, Rule>) {
        let mut parts = designator.clone().into_inner();
        let Some(letters) = parts.next().filter(|part| matches!(part.as_rule(), Rule::letters1 | Rule::letters2))
        else {
            return;
        };
        let Some(squares) = parts.next().filter(|part| part.as_rule() == Rule::square_designator) else { return };
        let name = letters.as_str();
        if self.dictionaries.contains_key(name) {
            let squares = squares.as_str();
            let message = format!(
                "'{name}{squares}' reads as the dictionary {name} and then the squares {squares}, as in CQL 6.2: \
                 for the entry of the squares write {name}[({squares})], or {name} {squares} for both filters"
            );
            self.diagnostics.push(Diagnostic::new(span_of(designator), message));
        }
    }

    /// `[k]`: the key, its type checked later.
    fn dictionary_key(&mut self, pair: Pair<'_, Rule>) -> (Expr, u32) {
        let filter = pair.into_inner().find(|part| part.as_rule() == Rule::filter).expect("grammar: a key");
        self.outside_path_parentheses(|builder| builder.operators(filter.into_inner()))
    }

    /// Checks a key against the dictionary's key type, which the first key fixes.
    fn key_type(&mut self, name: &str, key: &Expr) {
        let ty = type_of(key);
        let Some(info) = self.dictionaries.get_mut(name) else { return };
        let problem = match (ty, info.key) {
            (Type::Filter, _) => Some("a dictionary's key must be a number, a set, a text or a position".to_owned()),
            (Type::Position, _) if info.persistent => Some(format!(
                "{} lasts from game to game, so its keys cannot be positions: declare it local",
                quoted(name)
            )),
            (ty, Some(held)) if held != ty => {
                Some(format!("{} has {} as keys, not {}", quoted(name), held.noun(), ty.noun()))
            }
            _ => {
                info.key = Some(ty);
                None
            }
        };
        if let Some(message) = problem {
            self.diagnostics.push(Diagnostic::new(key.span, message));
        }
    }

    /// `[local | persistent] dictionary D`: declares D, or names it again with the same lasting.
    fn dictionary_head(&mut self, pair: Pair<'_, Rule>) -> String {
        let mut persistent = true;
        let mut name = String::new();
        let mut span = span_of(&pair);
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::kw_local => persistent = false,
                Rule::variable_word => {
                    name = self.resolve(part.as_str());
                    span = span_of(&part);
                }
                _ => {}
            }
        }
        if self.variables.contains_key(&name) {
            let message = format!("{} is a variable already, so it cannot be a dictionary", quoted(&name));
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        let info =
            self.dictionaries.entry(name.clone()).or_insert(DictionaryInfo { persistent, key: None, value: None });
        if info.persistent != persistent {
            let (was, now) = if info.persistent { ("persistent", "local") } else { ("local", "persistent") };
            let message = format!("{} was declared {was}, so it cannot be {now} here", quoted(&name));
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        name
    }

    /// `unbind x`, `unbind D` and `unbind D[k]`.
    pub(super) fn unbind_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let mut name = String::new();
        let mut name_span = Span::default();
        let mut key = None;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::dictionary_head => name = self.dictionary_head(part),
                Rule::variable_word => {
                    name = self.resolve(part.as_str());
                    name_span = span_of(&part);
                }
                Rule::dictionary_key => key = Some(self.dictionary_key(part)),
                _ => {}
            }
        }
        if self.dictionaries.contains_key(&name) {
            return match key {
                Some((key, depth)) => {
                    if self.dictionaries.get(&name).is_some_and(|info| info.key.is_none()) {
                        let message = format!(
                            "{} has no keys yet to unbind: give it one first, as in {name}[k] = v",
                            quoted(&name)
                        );
                        self.diagnostics.push(Diagnostic::new(key.span, message));
                    }
                    self.key_type(&name, &key);
                    (self.dictionary(name, DictionaryOp::Forget(Some(Box::new(key)))), depth + 1)
                }
                None => (self.dictionary(name, DictionaryOp::Forget(None)), 1),
            };
        }
        if !self.variables.contains_key(&name) {
            let message = format!("unbind takes a variable given a value before: {} is none", quoted(&name));
            self.diagnostics.push(Diagnostic::new(name_span, message));
        } else if let Some((key, _)) = key {
            let message = format!("{} is no dictionary: it has no entries to unbind", quoted(&name));
            self.diagnostics.push(Diagnostic::new(key.span, message));
        }
        (ExprKind::Unbind(name), 1)
    }

    /// `isbound x`, `isunbound x` (or the name as a text): whether the variable holds a value.
    /// The name may be given a value later in the text; a dictionary is always bound.
    pub(super) fn bound_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let mut bound = true;
        let mut name = String::new();
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::kw_isunbound => bound = false,
                Rule::string => name = string(Some(part)),
                Rule::variable_word => name = self.resolve(part.as_str()),
                _ => {}
            }
        }
        (ExprKind::IsBound { name, bound }, 1)
    }

    /// `x ∊ D F`: F with x each key of D. The variable takes the keys' type.
    pub(super) fn dictionary_walk(
        &mut self,
        name: String,
        variable: (String, Span),
        body: Pair<'_, Rule>,
    ) -> (ExprKind, u32) {
        let key = self.dictionaries.get(&name).and_then(|info| info.key.zip(info.value)).map(|(key, _)| key);
        let (variable, span) = variable;
        match key {
            Some(key) => self.declare(&variable, key, span, false),
            None => {
                let message = format!(
                    "{} has no entries yet to go through: give it one first, as in {name}[k] = v",
                    quoted(&name)
                );
                self.diagnostics.push(Diagnostic::new(span, message));
            }
        }
        let (body, depth) = self.operators(body.into_inner());
        (self.dictionary(name, DictionaryOp::Walk { variable, body: Box::new(body) }), depth + 1)
    }
}
