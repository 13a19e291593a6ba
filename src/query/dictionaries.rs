//! Evaluating dictionaries: their keys, kept in CQL 6.2's order (numbers by value, texts by
//! their bytes, sets as the numbers their squares make, positions in the order of the game),
//! and the filters that read, write, forget and go through their entries.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Arc;

use super::context::Context;
use super::plan::{EntryNode, Program, SetValue, StoreNode, ValueNode, WalkNode};
use super::state::Value;
use crate::position::RulesView;

/// A dictionary's entries, in the order of their keys.
pub(crate) type Entries<const W: usize> = BTreeMap<Key<W>, Value<W>>;

/// A dictionary's key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Key<const W: usize> {
    Number(i64),
    Text(Arc<str>),
    Set(SetValue<W>),
    /// A position, by the index of its frame (in a local dictionary only).
    Position(usize),
}

impl<const W: usize> Key<W> {
    /// The key a value makes; none for a value missing.
    pub(crate) fn of(value: Value<W>) -> Option<Key<W>> {
        match value {
            Value::Number(number) => Some(Key::Number(number)),
            Value::Text(text) => Some(Key::Text(text)),
            Value::Set(set) => Some(Key::Set(set)),
            Value::Position(frame) => Some(Key::Position(frame)),
            Value::Unset | Value::Piece(_) => None,
        }
    }

    /// The value a variable takes for the key.
    pub(crate) fn value(&self) -> Value<W> {
        match self {
            Key::Number(number) => Value::Number(*number),
            Key::Text(text) => Value::Text(text.clone()),
            Key::Set(set) => Value::Set(*set),
            Key::Position(frame) => Value::Position(*frame),
        }
    }

    /// The rank of the key's type among the others (a dictionary's keys are of one type).
    fn rank(&self) -> u8 {
        match self {
            Key::Text(_) => 0,
            Key::Number(_) => 1,
            Key::Set(_) => 2,
            Key::Position(_) => 3,
        }
    }
}

impl<const W: usize> Ord for Key<W> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Key::Number(a), Key::Number(b)) => a.cmp(b),
            (Key::Text(a), Key::Text(b)) => a.as_bytes().cmp(b.as_bytes()),
            (Key::Set(a), Key::Set(b)) => compare_sets(a, b),
            (Key::Position(a), Key::Position(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl<const W: usize> PartialOrd for Key<W> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Sets in the order of the numbers their squares make, a square worth more than every
/// square before it: the set holding the last square where they differ is the larger. Sets
/// of the same squares are ordered by their backhand slots.
fn compare_sets<const W: usize>(a: &SetValue<W>, b: &SetValue<W>) -> Ordering {
    match (a.squares ^ b.squares).last() {
        Some(square) if a.squares.contains(square) => Ordering::Greater,
        Some(_) => Ordering::Less,
        None => {
            let bits = |set: &SetValue<W>| set.backhand.map(|kinds| kinds.to_bits());
            bits(a).cmp(&bits(b))
        }
    }
}

impl<const W: usize> Program<W> {
    /// The value the key of an entry makes at `at`.
    fn key<P: RulesView<W>>(&self, key: &ValueNode<W>, context: &Context<'_, P, W>, at: usize) -> Option<Key<W>> {
        Key::of(self.value(key, context, at)?)
    }

    /// The value a dictionary holds for a key, if it holds one.
    pub(super) fn entry<P: RulesView<W>>(
        &self,
        node: &EntryNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<Value<W>> {
        let key = self.key(&node.key, context, at)?;
        context.state.entry(node.dictionary, &key)
    }

    /// `D[k] = v`: matches when the key and the value exist.
    pub(super) fn store<P: RulesView<W>>(&self, node: &StoreNode<W>, context: &Context<'_, P, W>, at: usize) -> bool {
        let Some(key) = self.key(&node.entry.key, context, at) else { return false };
        let Some(value) = self.value(&node.value, context, at) else { return false };
        context.state.store(node.entry.dictionary, key, value);
        true
    }

    /// `unbind D[k]` (with a key) and `unbind D`: matches when the key exists.
    pub(super) fn forget<P: RulesView<W>>(
        &self,
        dictionary: usize,
        key: Option<&ValueNode<W>>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> bool {
        match key {
            Some(key) => match self.key(key, context, at) {
                Some(key) => context.state.forget(dictionary, Some(&key)),
                None => return false,
            },
            None => context.state.forget(dictionary, None),
        }
        true
    }

    /// `x ∊ D F`: F with x each key in turn, whatever F answers; x has no value afterwards.
    /// As in CQL 6.2, a variable that holds a value already stops the run.
    pub(super) fn walk<P: RulesView<W>>(&self, node: &WalkNode<W>, context: &Context<'_, P, W>, at: usize) -> bool {
        let state = context.state;
        if state.get(node.variable) != Value::Unset {
            state.refuse(
                "a variable that goes through a dictionary's keys held a value already, which it would lose: \
                 unbind it first, or use another name",
            );
            return true;
        }
        for key in state.keys(node.dictionary) {
            state.set(node.variable, key.value());
            self.filter(&node.body, context, at);
        }
        state.set(node.variable, Value::Unset);
        true
    }
}
