//! [`Backhand`]: the pieces beside the board, with counts.
//!
//! In drop variants it is each side's hand (a white Knight in White's hand is `N`); elsewhere it
//! holds the pieces captured so far, each in its own colour.

use crate::variant::{Color, Kind, KindSet, Piece};

/// How many pieces of each kind and colour are beside the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Backhand {
    counts: Vec<u16>,
}

impl Backhand {
    /// An empty backhand for an alphabet of `kinds` piece types.
    #[must_use]
    pub fn empty(kinds: usize) -> Backhand {
        Backhand { counts: vec![0; 2 * kinds] }
    }

    fn slot(&self, piece: Piece) -> usize {
        piece.color.index() * (self.counts.len() / 2) + piece.kind.index()
    }

    /// How many of this piece there are.
    #[must_use]
    #[inline]
    pub fn count(&self, piece: Piece) -> u32 {
        self.counts.get(self.slot(piece)).map_or(0, |&count| u32::from(count))
    }

    /// Sets how many of this piece there are.
    pub fn set(&mut self, piece: Piece, count: u16) {
        let slot = self.slot(piece);
        self.counts[slot] = count;
    }

    /// Adds one piece.
    pub fn add(&mut self, piece: Piece) {
        let slot = self.slot(piece);
        self.counts[slot] = self.counts[slot].saturating_add(1);
    }

    /// Takes one piece out, if there is one.
    pub fn remove(&mut self, piece: Piece) -> bool {
        let slot = self.slot(piece);
        if self.counts[slot] == 0 {
            return false;
        }
        self.counts[slot] -= 1;
        true
    }

    /// The number of pieces in all.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&count| u32::from(count)).sum()
    }

    /// Whether nothing is beside the board.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&count| count == 0)
    }

    /// The kinds of a colour with at least one piece.
    #[must_use]
    pub fn kinds(&self, color: Color) -> KindSet {
        let kinds = self.counts.len() / 2;
        let own = &self.counts[color.index() * kinds..][..kinds];
        own.iter().enumerate().filter(|(_, count)| **count > 0).map(|(index, _)| Kind::new(index as u8)).collect()
    }

    /// Every piece with its count (non-zero counts only), White's first, in alphabet order.
    pub fn iter(&self) -> impl Iterator<Item = (Piece, u32)> + '_ {
        let kinds = self.counts.len() / 2;
        self.counts.iter().enumerate().filter(|(_, count)| **count > 0).map(move |(slot, &count)| {
            let color = if slot < kinds { Color::White } else { Color::Black };
            (Piece { kind: Kind::new((slot % kinds) as u8), color }, u32::from(count))
        })
    }
}
