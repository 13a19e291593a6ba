//! The words a variant adds to the query language, as data: named squares (King of the Hill's
//! hill), sets its rules find (Laser Chess's beams), numbers its positions keep (Three-check's
//! checks given), the actions its moves may do (a Laser Chess turn or swap), and the marks its
//! pieces may carry (Crazyhouse's promoted pieces, Croatian Chess's tags).
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
    /// The marks its pieces may carry, and on which pieces.
    pub marks: &'static [MarkDef],
}

/// A mark a piece may carry beside its kind and colour: a slot of [`MAX_MARKS`], which each
/// variant's vocabulary gives a meaning, a symbol and the pieces that may carry it
/// ([`MarkDef`]); the slots the catalogue uses are named on this type (`Mark::CASTLE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mark(u8);

/// The most marks a position keeps for its pieces.
pub const MAX_MARKS: usize = 8;

impl Mark {
    /// The mark of a slot, below [`MAX_MARKS`].
    #[must_use]
    pub const fn new(slot: u8) -> Mark {
        assert!((slot as usize) < MAX_MARKS, "a mark's slot is below MAX_MARKS");
        Mark(slot)
    }

    /// Its slot.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Every slot.
    pub const ALL: [Mark; MAX_MARKS] = {
        let mut all = [Mark(0); MAX_MARKS];
        let mut slot = 0;
        while slot < MAX_MARKS {
            all[slot] = Mark(slot as u8);
            slot += 1;
        }
        all
    };
}

/// What a mark means in a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarkDef {
    /// The mark.
    pub mark: Mark,
    /// What a marked piece is, in words that follow "the piece cannot be" (`able to rush`).
    pub meaning: &'static str,
    /// The symbol that writes it after a piece in the variant's position strings, if one does.
    pub symbol: Option<char>,
    /// The pieces that may carry it.
    pub on: MarkOn,
}

/// The pieces that may carry a mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkOn {
    /// Any piece.
    Pieces,
    /// Pieces that are neither royal nor pawns (the pieces a pawn promotes to).
    Promoted,
    /// Rooks, and kings where castling rights sit on them too (Croatian Chess).
    Castlers,
    /// Pawns.
    Pawns,
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
    /// The squares of the pieces that carry a mark (Croatian Chess's tags).
    Marked(Mark),
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
pub const MAX_ACTIONS: usize = 16;

impl Vocabulary {
    /// No words, counters or actions.
    pub const NONE: Vocabulary = Vocabulary { words: &[], counters: &[], actions: &[], marks: &[] };

    /// The word of this name.
    #[must_use]
    pub fn word(&self, name: &str) -> Option<&'static FamilyWord> {
        self.words.iter().find(|word| word.name == name)
    }

    /// What a mark means in the variant, if its pieces may carry it.
    #[must_use]
    pub fn mark(&self, mark: Mark) -> Option<&'static MarkDef> {
        self.marks.iter().find(|def| def.mark == mark)
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
            WordMeaning::Squares(_) | WordMeaning::RulesSet(_) | WordMeaning::Marked(_) => WordValue::Set,
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

/// What a mark means in the first variant of the catalogue whose pieces may carry it.
#[must_use]
pub fn mark_meaning(mark: Mark) -> &'static str {
    Variant::all().iter().find_map(|variant| variant.vocabulary().mark(mark)).map_or("marked", |def| def.meaning)
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

    /// A variant lists a mark once, and writes each with its own symbol.
    #[test]
    fn a_variant_lists_each_mark_once() {
        for variant in Variant::all() {
            let marks = variant.vocabulary().marks;
            for (index, def) in marks.iter().enumerate() {
                let later = &marks[index + 1..];
                assert!(later.iter().all(|other| other.mark != def.mark), "{}", variant.name);
                if def.symbol.is_some() {
                    assert!(later.iter().all(|other| other.symbol != def.symbol), "{}", variant.name);
                }
            }
        }
        let standard = Variant::standard().vocabulary();
        assert!(standard.mark(Mark::CASTLE).is_some() && standard.mark(Mark::PROMOTED).is_none());
        assert_eq!(mark_meaning(Mark::RUSH), "able to rush");
    }
}
