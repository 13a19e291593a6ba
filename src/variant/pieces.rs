//! The vocabulary of pieces: [`Color`], [`Role`], piece types of a variant, [`Kind`] and [`KindSet`].

use std::fmt;

/// A side: the first player (White, Light, Blue) or the second (Black, Dark, Red).
///
/// Ownerless pieces (Croatian Chess Stars and Monoliths) carry a colour too: it tells the bright
/// Star from the dim one and the light-half Monolith from the dark-half one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// The first player; upper-case letters.
    White,
    /// The second player; lower-case letters.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour that writes symbols in this case: upper case is White.
    #[must_use]
    pub const fn of_case(upper: bool) -> Color {
        if upper { Color::White } else { Color::Black }
    }

    /// The FEN letter of the side to move: `w` or `b`.
    #[must_use]
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

/// The part a piece plays in classical chess, where it has one: it gives figurines (`♘`) and the
/// classes major (`M`: queen, rook) and minor (`I`: bishop, knight) their meaning in every variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A pawn.
    Pawn,
    /// A knight.
    Knight,
    /// A bishop.
    Bishop,
    /// A rook.
    Rook,
    /// A queen.
    Queen,
    /// The royal piece.
    King,
}

impl Role {
    /// Whether the role is a major piece (queen or rook).
    #[must_use]
    pub const fn is_major(self) -> bool {
        matches!(self, Role::Queen | Role::Rook)
    }

    /// Whether the role is a minor piece (bishop or knight).
    #[must_use]
    pub const fn is_minor(self) -> bool {
        matches!(self, Role::Bishop | Role::Knight)
    }
}

/// One type of piece in a variant's alphabet.
#[derive(Debug, PartialEq, Eq)]
pub struct PieceType {
    /// The name, such as `Pegasus`.
    pub name: &'static str,
    /// The symbol in upper case, as the first player writes it (`G`, `KN`); the second player
    /// writes it in lower case.
    pub symbol: &'static str,
    /// The classical role, if the piece plays one.
    pub role: Option<Role>,
    /// Whether the piece belongs to nobody (Stars, Monoliths).
    pub ownerless: bool,
    /// Whether it is a private: a pawn, or a piece that rushes and is taken en passant as pawns
    /// are (Croatian Chess's Scouts and Grenadiers).
    pub private: bool,
    /// The material value used by `power`, where the variant defines one.
    pub value: Option<i32>,
}

impl PieceType {
    /// The symbol as a side writes it.
    #[must_use]
    pub fn symbol_for(&self, color: Color) -> String {
        match color {
            Color::White => self.symbol.to_owned(),
            Color::Black => self.symbol.to_ascii_lowercase(),
        }
    }
}

/// A piece type of a particular variant: an index into its alphabet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Kind(u8);

impl Kind {
    /// The kind with this index in the variant's alphabet.
    #[must_use]
    pub const fn new(index: u8) -> Kind {
        Kind(index)
    }

    /// The index in the variant's alphabet.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece of a variant: its kind and its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The kind.
    pub kind: Kind,
    /// The colour (for ownerless pieces, their shade).
    pub color: Color,
}

/// The largest number of piece types a variant may have.
pub const MAX_KINDS: usize = 128;

/// A set of piece kinds of one variant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KindSet(u128);

impl KindSet {
    /// No kind.
    pub const EMPTY: KindSet = KindSet(0);

    /// The first `count` kinds of an alphabet.
    #[must_use]
    pub const fn first(count: usize) -> KindSet {
        if count >= MAX_KINDS { KindSet(u128::MAX) } else { KindSet((1u128 << count) - 1) }
    }

    /// The set with one kind.
    #[must_use]
    pub const fn single(kind: Kind) -> KindSet {
        KindSet(1 << kind.0)
    }

    /// Whether the kind is in the set.
    #[must_use]
    pub const fn contains(self, kind: Kind) -> bool {
        self.0 & (1 << kind.0) != 0
    }

    /// Adds a kind.
    pub fn add(&mut self, kind: Kind) {
        self.0 |= 1 << kind.0;
    }

    /// The kinds in either set.
    #[must_use]
    pub const fn union(self, other: KindSet) -> KindSet {
        KindSet(self.0 | other.0)
    }

    /// The kinds in both sets.
    #[must_use]
    pub const fn intersection(self, other: KindSet) -> KindSet {
        KindSet(self.0 & other.0)
    }

    /// The kinds of this set that are not in `other`.
    #[must_use]
    pub const fn difference(self, other: KindSet) -> KindSet {
        KindSet(self.0 & !other.0)
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set as bits: bit `i` stands for the kind of index `i`.
    #[must_use]
    pub const fn to_bits(self) -> u128 {
        self.0
    }

    /// The number of kinds.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The kinds in alphabet order.
    pub fn iter(self) -> impl Iterator<Item = Kind> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let index = bits.trailing_zeros();
            bits &= bits - 1;
            Some(Kind(index as u8))
        })
    }
}

impl FromIterator<Kind> for KindSet {
    fn from_iter<I: IntoIterator<Item = Kind>>(iter: I) -> Self {
        let mut set = KindSet::EMPTY;
        for kind in iter {
            set.add(kind);
        }
        set
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_sets() {
        let set: KindSet = [Kind::new(0), Kind::new(70), Kind::new(127)].into_iter().collect();
        assert_eq!(set.len(), 3);
        assert!(set.contains(Kind::new(70)));
        assert_eq!(set.iter().map(Kind::index).collect::<Vec<_>>(), vec![0, 70, 127]);
        assert_eq!(KindSet::first(6).len(), 6);
        assert_eq!(KindSet::first(128).len(), 128);
    }
}
