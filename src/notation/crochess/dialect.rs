//! The symbols of the two editions of Croatian Chess notation, as tables: piece letters, the
//! links between the plies of a move, and the lost-tag marks. The reader is one; an edition is
//! a choice of tables.

pub use crate::variant::Edition;

/// A piece of Croatian Chess, whatever letter an edition gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Figure {
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
    /// Pegasus (`G` in 2020, `E` now).
    Pegasus,
    /// Pyramid.
    Pyramid,
    /// Unicorn.
    Unicorn,
    /// Wave.
    Wave,
    /// Star.
    Star,
    /// Centaur.
    Centaur,
    /// Scout (current edition).
    Scout,
    /// Grenadier (current edition).
    Grenadier,
    /// Serpent.
    Serpent,
    /// Shaman.
    Shaman,
    /// Monolith.
    Monolith,
    /// Starchild.
    Starchild,
}

impl Figure {
    /// Every piece, in the order of the book's tables.
    pub const ALL: [Figure; 18] = [
        Figure::Pawn,
        Figure::Knight,
        Figure::Bishop,
        Figure::Rook,
        Figure::Queen,
        Figure::King,
        Figure::Pegasus,
        Figure::Pyramid,
        Figure::Unicorn,
        Figure::Wave,
        Figure::Star,
        Figure::Centaur,
        Figure::Scout,
        Figure::Grenadier,
        Figure::Serpent,
        Figure::Shaman,
        Figure::Monolith,
        Figure::Starchild,
    ];

    /// Its name, as the catalogue names the piece.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Figure::Pawn => "Pawn",
            Figure::Knight => "Knight",
            Figure::Bishop => "Bishop",
            Figure::Rook => "Rook",
            Figure::Queen => "Queen",
            Figure::King => "King",
            Figure::Pegasus => "Pegasus",
            Figure::Pyramid => "Pyramid",
            Figure::Unicorn => "Unicorn",
            Figure::Wave => "Wave",
            Figure::Star => "Star",
            Figure::Centaur => "Centaur",
            Figure::Scout => "Scout",
            Figure::Grenadier => "Grenadier",
            Figure::Serpent => "Serpent",
            Figure::Shaman => "Shaman",
            Figure::Monolith => "Monolith",
            Figure::Starchild => "Starchild",
        }
    }

    /// Whether it is a private: it rushes, and is taken en passant.
    #[must_use]
    pub const fn is_private(self) -> bool {
        matches!(self, Figure::Pawn | Figure::Scout | Figure::Grenadier)
    }
}

/// How one ply of a move follows the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Link {
    /// `~`: the piece the last ply activated moves on (a cascade).
    Cascade,
    /// `|`: the piece teleports and emerges on the field written.
    Teleport,
    /// `||` in 2020: the teleport fails.
    FailedTeleport,
    /// `||` now: a Starchild re-emerges beside the body it entered.
    Reemergence,
    /// `|||` now: the piece is oblated, no portal-field being free.
    Oblation,
    /// `@`: a trance-journey.
    TranceJourney,
    /// `@@` now: a dual trance-journey.
    DualTranceJourney,
    /// `@@@` now: a failed trance-journey.
    FailedTranceJourney,
    /// `::` in 2020, `;;` now: a Pawn-sacrifice, after which the Serpent moves on.
    PawnSacrifice,
    /// `"` now: a sense-journey.
    SenseJourney,
    /// `'` now: a failed sense-journey.
    FailedSenseJourney,
}

/// A tag a piece loses as it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LostTag {
    /// `==`: the tag for a delayed promotion.
    Promotion,
    /// `::` (current edition): the right to rush.
    Rush,
    /// `&&` (current edition): the right to castle.
    Castling,
}

/// Where an edition writes a lost tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LostTagPlace {
    /// After the field (`e12==`).
    AfterField,
    /// Before the field, after the piece (`==e12`, `P::b3`).
    BeforeField,
}

/// The symbols of an edition.
#[derive(Debug)]
pub struct Dialect {
    /// The edition.
    pub edition: Edition,
    /// The piece letters.
    pub pieces: &'static [(char, Figure)],
    /// The piece of each capital letter, `A` first: the letters as a table.
    pub by_letter: [Option<Figure>; 26],
    /// The links between plies, longest first.
    pub links: &'static [(&'static str, Link)],
    /// The lost tags, longest first, and where they are written.
    pub lost_tags: &'static [(&'static str, LostTag)],
    /// Where lost tags are written.
    pub lost_tag_place: LostTagPlace,
    /// Whether `++` is a double check (2020) rather than a mate.
    pub double_check: bool,
}

impl Dialect {
    /// The symbol table of an edition.
    #[must_use]
    pub const fn of(edition: Edition) -> &'static Dialect {
        match edition {
            Edition::Ed2020 => &ED2020,
            Edition::Current => &CURRENT,
        }
    }

    /// The piece a letter names.
    #[must_use]
    pub fn figure(&self, letter: char) -> Option<Figure> {
        if letter.is_ascii_uppercase() { self.by_letter[usize::from(letter as u8 - b'A')] } else { None }
    }

    /// The letter of a piece.
    #[must_use]
    pub fn letter(&self, figure: Figure) -> Option<char> {
        self.pieces.iter().find(|(_, known)| *known == figure).map(|(symbol, _)| *symbol)
    }

    /// The letters, for messages.
    #[must_use]
    pub fn letters(&self) -> String {
        self.pieces.iter().map(|(symbol, _)| symbol.to_string()).collect::<Vec<_>>().join(" ")
    }

    /// The link at the start of `text`, with its length.
    #[must_use]
    pub fn link_at(&self, text: &str) -> Option<(Link, usize)> {
        symbol_at(self.links, text)
    }

    /// The lost tag at the start of `text`, with its length.
    #[must_use]
    pub fn lost_tag_at(&self, text: &str) -> Option<(LostTag, usize)> {
        symbol_at(self.lost_tags, text)
    }

    /// How the edition writes a link.
    #[must_use]
    pub fn link_symbol(&self, link: Link) -> Option<&'static str> {
        self.links.iter().find(|(_, known)| *known == link).map(|(symbol, _)| *symbol)
    }
}

/// The entry of a table (longest symbols first) whose symbol opens `text`, with the symbol's
/// length. The first byte rules out most places before the whole symbol is compared.
fn symbol_at<T: Copy>(table: &[(&'static str, T)], text: &str) -> Option<(T, usize)> {
    let first = *text.as_bytes().first()?;
    table
        .iter()
        .find(|(symbol, _)| symbol.as_bytes()[0] == first && text.starts_with(symbol))
        .map(|(symbol, value)| (*value, symbol.len()))
}

const CLASSICAL_LETTERS: [(char, Figure); 6] = [
    ('P', Figure::Pawn),
    ('N', Figure::Knight),
    ('B', Figure::Bishop),
    ('R', Figure::Rook),
    ('Q', Figure::Queen),
    ('K', Figure::King),
];

/// The piece of each capital letter of `pieces`.
const fn by_letter(pieces: &[(char, Figure)]) -> [Option<Figure>; 26] {
    let mut table = [None; 26];
    let mut index = 0;
    while index < pieces.len() {
        let (letter, figure) = pieces[index];
        assert!(letter.is_ascii_uppercase(), "piece letters are capitals");
        table[(letter as u8 - b'A') as usize] = Some(figure);
        index += 1;
    }
    table
}

/// The piece letters of the 2020 edition.
const ED2020_PIECES: &[(char, Figure)] = &[
    CLASSICAL_LETTERS[0],
    CLASSICAL_LETTERS[1],
    CLASSICAL_LETTERS[2],
    CLASSICAL_LETTERS[3],
    CLASSICAL_LETTERS[4],
    CLASSICAL_LETTERS[5],
    ('G', Figure::Pegasus),
    ('A', Figure::Pyramid),
    ('U', Figure::Unicorn),
    ('W', Figure::Wave),
    ('T', Figure::Star),
    ('C', Figure::Centaur),
    ('S', Figure::Serpent),
    ('H', Figure::Shaman),
    ('M', Figure::Monolith),
    ('I', Figure::Starchild),
];

/// The 2020 edition's symbols (the seed appendix).
pub static ED2020: Dialect = Dialect {
    edition: Edition::Ed2020,
    pieces: ED2020_PIECES,
    by_letter: by_letter(ED2020_PIECES),
    links: &[
        ("~", Link::Cascade),
        ("||", Link::FailedTeleport),
        ("|", Link::Teleport),
        ("@", Link::TranceJourney),
        ("::", Link::PawnSacrifice),
    ],
    lost_tags: &[("==", LostTag::Promotion)],
    lost_tag_place: LostTagPlace::AfterField,
    double_check: true,
};

/// The piece letters of the current edition.
const CURRENT_PIECES: &[(char, Figure)] = &[
    CLASSICAL_LETTERS[0],
    CLASSICAL_LETTERS[1],
    CLASSICAL_LETTERS[2],
    CLASSICAL_LETTERS[3],
    CLASSICAL_LETTERS[4],
    CLASSICAL_LETTERS[5],
    ('E', Figure::Pegasus),
    ('A', Figure::Pyramid),
    ('U', Figure::Unicorn),
    ('W', Figure::Wave),
    ('T', Figure::Star),
    ('C', Figure::Centaur),
    ('O', Figure::Scout),
    ('G', Figure::Grenadier),
    ('S', Figure::Serpent),
    ('H', Figure::Shaman),
    ('M', Figure::Monolith),
    ('I', Figure::Starchild),
];

/// The current edition's symbols (the current book and libcrochess).
pub static CURRENT: Dialect = Dialect {
    edition: Edition::Current,
    pieces: CURRENT_PIECES,
    by_letter: by_letter(CURRENT_PIECES),
    links: &[
        ("~", Link::Cascade),
        ("|||", Link::Oblation),
        ("||", Link::Reemergence),
        ("|", Link::Teleport),
        ("@@@", Link::FailedTranceJourney),
        ("@@", Link::DualTranceJourney),
        ("@", Link::TranceJourney),
        (";;", Link::PawnSacrifice),
        ("\"", Link::SenseJourney),
        ("'", Link::FailedSenseJourney),
    ],
    lost_tags: &[("==", LostTag::Promotion), ("::", LostTag::Rush), ("&&", LostTag::Castling)],
    lost_tag_place: LostTagPlace::BeforeField,
    double_check: false,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_letter_names_one_piece_and_links_are_longest_first() {
        for dialect in [&ED2020, &CURRENT] {
            for (index, (letter, figure)) in dialect.pieces.iter().enumerate() {
                assert!(dialect.pieces[index + 1..].iter().all(|(other, _)| other != letter), "{letter}");
                assert_eq!(dialect.letter(*figure), Some(*letter));
            }
            for (index, (symbol, _)) in dialect.links.iter().enumerate() {
                // A longer symbol starting with this one must come before it.
                assert!(dialect.links[index + 1..].iter().all(|(later, _)| !later.starts_with(symbol)), "{symbol}");
            }
        }
        assert_eq!(ED2020.figure('G'), Some(Figure::Pegasus));
        assert_eq!(CURRENT.figure('G'), Some(Figure::Grenadier));
        assert_eq!(Edition::by_name("Current"), Some(Edition::Current));
    }
}
