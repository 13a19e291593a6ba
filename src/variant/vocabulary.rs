//! The words a variant adds to the query language, as data: named squares (King of the Hill's
//! hill), sets its rules find (Laser Chess's beams), numbers its positions keep (Three-check's
//! checks given), and the actions its moves may do (a Laser Chess turn or swap).
//!
//! The query compiler resolves a word against the vocabulary of the variant it compiles for,
//! so the shared grammar and plan hold no word of any one family; a family adds a word by
//! adding a row here and, for what its rules find, an answer in its rules.

use super::{Color, Variant};

/// The words of a variant, the counters its positions keep and the actions of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vocabulary {
    /// The query words.
    pub words: &'static [FamilyWord],
    /// The counters a position keeps for each side beside its board (Three-check's checks
    /// given); a [`Counter`]'s index in this list names it.
    pub counters: &'static [Counter],
    /// The actions a move may do besides moving, capturing and promoting, each named as
    /// `move` takes it (`move previous rotate`); an action's index in this list names it.
    pub actions: &'static [&'static str],
}

/// A query word of a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FamilyWord {
    /// The word, as a query writes it.
    pub name: &'static str,
    /// What it means.
    pub meaning: WordMeaning,
    /// What it stands for, in words (for messages and `cqlq variants`).
    pub about: &'static str,
}

/// What a variant's word stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordMeaning {
    /// Fixed squares, named in the variant's coordinates.
    Squares(&'static [&'static str]),
    /// A set of squares the variant's rules find in each position; the number names it to
    /// the rules.
    RulesSet(u8),
    /// The value of a counter of the position (an index into [`Vocabulary::counters`]) for a
    /// side; `flipcolor` takes the other side's.
    Counter {
        /// The counter.
        counter: u8,
        /// The side whose count it is.
        side: Color,
    },
}

/// The kind of value a word has, for the query's type check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordValue {
    /// A set of squares.
    Set,
    /// A number.
    Number,
}

/// A counter a position keeps for each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter {
    /// What it counts, in words.
    pub name: &'static str,
    /// Its value in the variant's initial position.
    pub start: u16,
    /// How a FEN writes it.
    pub fen: CounterFen,
}

/// How a FEN writes a counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterFen {
    /// It does not.
    Unwritten,
    /// As lichess writes Three-check's checks: what is left of `limit` for White and Black as
    /// `2+3` before the clocks, or the counts themselves as `+1+0` after them.
    LeftOf {
        /// The count that ends the game.
        limit: u16,
    },
}

/// The most counters a variant's positions keep.
pub const MAX_COUNTERS: usize = 2;

/// The most actions a variant's moves may do (the bits [`crate::position::MoveFacts`] keeps
/// for them).
pub const MAX_ACTIONS: usize = 3;

impl Vocabulary {
    /// No words, counters or actions.
    pub const NONE: Vocabulary = Vocabulary { words: &[], counters: &[], actions: &[] };

    /// The word of this name.
    #[must_use]
    pub fn word(&self, name: &str) -> Option<&'static FamilyWord> {
        self.words.iter().find(|word| word.name == name)
    }

    /// The index of the action of this name.
    #[must_use]
    pub fn action(&self, name: &str) -> Option<u8> {
        self.actions.iter().position(|action| *action == name).map(|index| index as u8)
    }
}

impl WordMeaning {
    /// The kind of value it has.
    #[must_use]
    pub const fn value(&self) -> WordValue {
        match self {
            WordMeaning::Squares(_) | WordMeaning::RulesSet(_) => WordValue::Set,
            WordMeaning::Counter { .. } => WordValue::Number,
        }
    }
}

/// The kind of value a word of some variant of the catalogue has, if any variant has it.
#[must_use]
pub fn word_value(name: &str) -> Option<WordValue> {
    Variant::all().iter().find_map(|variant| variant.vocabulary().word(name)).map(|word| word.meaning.value())
}

/// Whether some variant of the catalogue has a move action of this name.
#[must_use]
pub fn is_action(name: &str) -> bool {
    Variant::all().iter().any(|variant| variant.vocabulary().action(name).is_some())
}

/// The variants whose vocabulary has this word or action, by name.
#[must_use]
pub fn variants_knowing(name: &str) -> Vec<&'static str> {
    let knows = |variant: &Variant| {
        let vocabulary = variant.vocabulary();
        vocabulary.word(name).is_some() || vocabulary.action(name).is_some()
    };
    Variant::all().iter().filter(|variant| knows(variant)).map(|variant| variant.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word means the same kind of value in every variant that has it, so that a query is
    /// type-checked once for all of them.
    #[test]
    fn a_word_has_one_kind_of_value() {
        for variant in Variant::all() {
            let vocabulary = variant.vocabulary();
            assert!(vocabulary.counters.len() <= MAX_COUNTERS, "{}", variant.name);
            assert!(vocabulary.actions.len() <= MAX_ACTIONS, "{}", variant.name);
            for word in vocabulary.words {
                assert_eq!(word_value(word.name), Some(word.meaning.value()), "{} in {}", word.name, variant.name);
                if let WordMeaning::Squares(squares) = word.meaning {
                    for square in squares {
                        assert!(variant.geometry.parse_square(square).is_ok(), "{square} in {}", variant.name);
                    }
                }
                if let WordMeaning::Counter { counter, .. } = word.meaning {
                    assert!(usize::from(counter) < vocabulary.counters.len(), "{} in {}", word.name, variant.name);
                }
            }
        }
    }
}
