//! The variant catalogue: every variant cqlq knows, as data.
//!
//! A [`Variant`] is a row of a table: its names, board, piece alphabet with values, players,
//! how its backhand works, its rule family and notation, and its initial setup. Adding a variant
//! (or a board size) is adding a row to the catalogue (`src/variant/catalogue.rs`).
//!
//! ```
//! use cqlq::Variant;
//!
//! let ties = Variant::by_name("croatian ties").expect("known variant");
//! assert_eq!(ties.name, "Croatian Ties");
//! assert_eq!(ties.geometry.to_string(), "10x10");
//! assert_eq!(Variant::by_name("Miranda's Veil"), Variant::by_name("MIRANDASVEIL"));
//! assert_eq!(Variant::by_name("giveaway").map(|variant| variant.name), Ok("Antichess"));
//! assert!(Variant::by_name("Makruk").is_err());
//! ```

mod catalogue;
mod pieces;
pub mod vocabulary;

use std::fmt;

pub use catalogue::{croatian, laser};
pub use pieces::{Color, Kind, KindSet, MAX_KINDS, Piece, PieceType, Role};
pub use vocabulary::{FamilyWord, Vocabulary, WordMeaning};

use crate::board::{Geometry, Width};

/// The rule family of a variant: which rules replay its games and answer `check` or `attacks`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Chess and its close relatives on 8x8: Standard, Chess960, Crazyhouse, X-Decor.
    Classical,
    /// Croatian Chess, 8x8 to 26x26.
    Croatian,
    /// Chess Evolved Online: armies of units with two-letter codes, no check.
    ChessEvolved,
    /// Laser Chess on 10x8: mirrors and a laser, no check.
    Laser,
}

/// The rule set a variant's games are played by: variants of one rule set share one set of
/// rules (Standard, Chess960, Crazyhouse and X-Decor share the classical board's), and the
/// rule registry maps each, with the board width of the variant, to its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSetId {
    /// Chess on the classical board: Standard, Chess960, Crazyhouse, X-Decor.
    Classical,
    /// Atomic: captures explode.
    Atomic,
    /// Antichess: captures are compulsory, and losing every piece wins.
    Antichess,
    /// Horde: White's pawns against Black's army.
    Horde,
    /// King of the Hill: a king in the centre wins.
    KingOfTheHill,
    /// Racing Kings: the first king on the last rank wins.
    RacingKings,
    /// Three-check: the third check wins.
    ThreeCheck,
    /// Croatian Chess.
    Croatian,
    /// Chess Evolved Online.
    ChessEvolved,
    /// Laser Chess.
    Laser,
}

/// What a variant's rules have, as data: what queries may ask of its positions and what its
/// positions may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// Check, and so mate, stalemate and pins.
    pub check: bool,
    /// What stands for check where there is none, in words (for messages).
    pub instead_of_check: Option<&'static str>,
    /// Whether cqlq plays the variant's moves, and so knows its attacks and legal moves.
    pub played: bool,
    /// Whether cqlq replays the variant's games, and so knows the move that reached each
    /// position (`move previous`), where it may not know the legal moves.
    pub replayed: bool,
    /// Lasers, whose beams remove pieces, a King among them: a side may be left without one.
    pub lasers: bool,
    /// Pieces with a level: a tier or an orientation (`+` after a letter).
    pub levels: bool,
    /// Pawns may not stand on the first or the last rank.
    pub pawns_off_back_ranks: bool,
    /// Pawns may be captured en passant, the square named by the position.
    pub en_passant: bool,
    /// Pawns carry tags: able to rush, tagged for promotion, rushed, rushing.
    pub pawn_tags: bool,
    /// How many kings a side has.
    pub kings: Kings,
    /// A side to move without a legal move is a position of its own even though the variant
    /// has no check (Antichess's stalemate, which wins): `stalemate` asks for it.
    pub stalemate_without_check: bool,
    /// A move may remove pieces besides the one it captures (Atomic's explosions), which
    /// `move ... capture S` counts as captured too.
    pub removals: bool,
    /// The words, counters and move actions the variant adds to the language.
    pub vocabulary: Vocabulary,
}

/// How many kings a side of a variant has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kings {
    /// One each, always.
    OneEach,
    /// One at most: a side's king may be gone (Laser Chess's beam, Atomic's explosions) or
    /// never there (Horde's White).
    AtMostOne,
    /// Any number: kings are ordinary pieces (Antichess, where pawns promote to kings).
    Any,
}

/// The notation a variant's game records are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// PGN with Standard Algebraic Notation (and drops, `N@f3`).
    San,
    /// Croatian Chess short (EAN) and long (XAN) notation.
    Croatian,
    /// X-Decor-libre's figurine long algebraic move table.
    XDecor,
    /// The Chess Evolved Online notation proposal.
    ChessEvolved,
    /// Laser Algebraic Notation.
    Laser,
}

/// The text formats of a position: each variant writes its positions in one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionFormat {
    /// FEN, extended to every variant.
    Fen,
    /// A Croatian Chess setup string.
    SetupString,
    /// Laser Chess Setup Notation.
    SetupNotation,
}

impl fmt::Display for PositionFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PositionFormat::Fen => "FEN",
            PositionFormat::SetupString => "setup string",
            PositionFormat::SetupNotation => "Setup Notation",
        })
    }
}

/// What the backhand (the place beside the board) holds in a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackhandRule {
    /// Each side's reserve of pieces it may drop (Crazyhouse): captures change colour.
    Drops,
    /// The pieces captured so far, each in its own colour.
    Captures,
}

/// How castling works in a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingRule {
    /// The king starts on the e-file and castles with the rooks in the corners.
    Standard,
    /// King and rooks start anywhere on the first rank (Chess960, Chess Evolved Online armies).
    Free,
    /// Croatian Chess: King and Rooks carry castling tags; the King lands on a range of files.
    Croatian,
    /// No castling.
    None,
}

/// How the initial position of a variant is given.
#[derive(Debug, PartialEq, Eq)]
pub enum Initial {
    /// A FEN (extended to the variant's board and alphabet).
    Fen(&'static str),
    /// Laser Chess setups in Setup Notation, with the squares its rules fix.
    Laser(LaserSetup),
    /// A Croatian Chess setup built from its parts (see [`CroatianSetup`]).
    Croatian(CroatianSetup),
}

/// The setups of a Laser Chess variant and the squares its rules fix.
#[derive(Debug, PartialEq, Eq)]
pub struct LaserSetup {
    /// The named setups in Setup Notation; a game names none starts from the first.
    pub setups: &'static [(&'static str, &'static str)],
    /// The squares of the lasers, the first player's then the second's; no piece moves there.
    pub lasers: [&'static str; 2],
    /// The squares only the first player's pieces, then only the second's, may stand on:
    /// ranges along a file or rank (`j2-j8`) and squares, separated by spaces.
    pub reserved: [&'static str; 2],
}

impl LaserSetup {
    /// The Setup Notation of the setup named `name` (compared without case).
    #[must_use]
    pub fn named(&self, name: &str) -> Option<&'static str> {
        self.setups.iter().find(|(setup, _)| setup.eq_ignore_ascii_case(name.trim())).map(|&(_, text)| text)
    }
}

/// An edition of the Croatian Chess book, whose pieces, setups and notation a variant follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Edition {
    /// The 2020 edition (the seed appendix): Pegasus `G`, Pawn-sacrifice `::`, a lost promotion
    /// tag written after the field (`e12==`), `||` a failed teleport.
    #[default]
    Ed2020,
    /// The current book and reference library: Pegasus `E`, Scout `O`, Grenadier `G`,
    /// Pawn-sacrifice `;;`, lost tags written before the field (`==e12`), `||` re-emergence and
    /// `|||` oblation, journeys `@@` `@@@`, sense-journeys `"` `'`.
    Current,
}

impl Edition {
    /// Both editions, the default first.
    pub const ALL: [Edition; 2] = [Edition::Ed2020, Edition::Current];

    /// The edition's name in an `Edition` tag: `2020` or `current`.
    #[must_use]
    pub const fn tag(self) -> &'static str {
        match self {
            Edition::Ed2020 => "2020",
            Edition::Current => "current",
        }
    }

    /// The edition an `[Edition "..."]` tag or `--edition` names: `2020` or `current`.
    #[must_use]
    pub fn by_name(name: &str) -> Option<Edition> {
        match name.trim().to_ascii_lowercase().as_str() {
            "2020" | "ed2020" => Some(Edition::Ed2020),
            "current" | "now" | "ednow" => Some(Edition::Current),
            _ => None,
        }
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Edition::Ed2020 => "2020 edition",
            Edition::Current => "current edition",
        })
    }
}

/// The initial setup of a Croatian Chess variant, in the terms of the book.
///
/// The dark side mirrors the light side vertically with colours swapped; the Monoliths are not
/// mirrored (each is listed).
#[derive(Debug, PartialEq, Eq)]
pub struct CroatianSetup {
    /// The edition of the book the variant's pieces, setup and notation follow.
    pub edition: Edition,
    /// The light figure row on rank 1, file `a` first. Case matters only for the ownerless Stars
    /// (`T` bright, `t` dim).
    pub figure_row: &'static str,
    /// The ranks full of light Pawns.
    pub pawn_ranks: &'static [u8],
    /// Further light privates by letter, each put where the list says in place of what stands
    /// there: the scouts of Hemera's Dawn onwards (Pawns in 2020, Scouts now) and the current
    /// edition's Grenadiers under them.
    pub privates: &'static [(char, &'static [&'static str])],
    /// The Monoliths: the one in the light half (`M`), then the one in the dark half (`m`).
    pub monoliths: &'static [&'static str],
}

/// A variant: one row of the catalogue. Variants are equal when their names are.
#[derive(Debug)]
pub struct Variant {
    /// The full name, such as `Croatian Ties`.
    pub name: &'static str,
    /// Other names it is known by (matched like the name, without case, spaces or punctuation).
    pub aliases: &'static [&'static str],
    /// The code of the variant in Croatian Chess setup strings (`ct`, `o`).
    pub code: Option<&'static str>,
    /// The rule family.
    pub family: Family,
    /// The rule set its games are played by.
    pub rule_set: RuleSetId,
    /// What its rules have.
    pub capabilities: Capabilities,
    /// The notation of its game records.
    pub notation: Notation,
    /// The format its positions are written in.
    pub position_format: PositionFormat,
    /// The board.
    pub geometry: Geometry,
    /// The piece alphabet; a [`Kind`] indexes it.
    pub pieces: &'static [PieceType],
    /// What the players are called: first, second.
    pub players: [&'static str; 2],
    /// What the backhand holds.
    pub backhand: BackhandRule,
    /// How castling works.
    pub castling: CastlingRule,
    /// The initial setup.
    pub initial: Initial,
}

impl Variant {
    /// Every variant of the catalogue, in the order `cqlq variants` lists them.
    #[must_use]
    pub fn all() -> &'static [Variant] {
        &catalogue::CATALOGUE
    }

    /// The words, counters and move actions the variant adds to the query language.
    #[must_use]
    pub const fn vocabulary(&self) -> &Vocabulary {
        &self.capabilities.vocabulary
    }

    /// Standard chess.
    #[must_use]
    pub fn standard() -> &'static Variant {
        &catalogue::CATALOGUE[0]
    }

    /// The variant with this name, alias or Croatian Chess code, compared without case, spaces
    /// or punctuation.
    pub fn by_name(name: &str) -> Result<&'static Variant, UnknownVariant> {
        let same = |known: &str| name_key(known).eq(name_key(name));
        Variant::all()
            .iter()
            .find(|variant| {
                same(variant.name) || variant.code.is_some_and(same) || variant.aliases.iter().any(|alias| same(alias))
            })
            .ok_or_else(|| UnknownVariant { name: name.to_owned() })
    }

    /// Whether the games of `other` are played by the same rules on the same board: the
    /// variants differ in name, or in the notation of their records, only.
    #[must_use]
    pub fn same_rules(&self, other: &Variant) -> bool {
        self.rule_set == other.rule_set
            && self.geometry == other.geometry
            && std::ptr::eq(self.pieces, other.pieces)
            && self.backhand == other.backhand
            && self.castling == other.castling
    }

    /// The position of this variant in the catalogue.
    #[must_use]
    pub fn index(&'static self) -> usize {
        Variant::all().iter().position(|variant| std::ptr::eq(variant, self)).expect("variants live in the catalogue")
    }

    /// The size class of the variant's square sets.
    #[must_use]
    pub const fn width(&self) -> Width {
        Width::of(self.geometry)
    }

    /// The number of piece types.
    #[must_use]
    pub fn kinds(&self) -> usize {
        self.pieces.len()
    }

    /// Every kind of the alphabet.
    #[must_use]
    pub fn all_kinds(&self) -> KindSet {
        KindSet::first(self.pieces.len())
    }

    /// The kinds that belong to nobody (Stars, Monoliths).
    #[must_use]
    pub fn ownerless_kinds(&self) -> KindSet {
        self.kinds_where(|piece| piece.ownerless)
    }

    /// The kinds for which `test` holds.
    pub fn kinds_where(&self, test: impl Fn(&PieceType) -> bool) -> KindSet {
        self.pieces
            .iter()
            .enumerate()
            .filter(|(_, piece)| test(piece))
            .map(|(index, _)| Kind::new(index as u8))
            .collect()
    }

    /// The edition of the Croatian Chess book the variant follows; `None` for variants of one
    /// edition only.
    #[must_use]
    pub const fn edition(&self) -> Option<Edition> {
        match &self.initial {
            Initial::Croatian(setup) => Some(setup.edition),
            _ => None,
        }
    }

    /// The same variant as an edition of the book has it: the catalogue row of the same code
    /// and that edition; `None` for variants of one edition only.
    #[must_use]
    pub fn in_edition(&'static self, edition: Edition) -> Option<&'static Variant> {
        if self.edition() == Some(edition) {
            return Some(self);
        }
        self.edition()?;
        Variant::all().iter().find(|other| other.code == self.code && other.edition() == Some(edition))
    }

    /// The type of a kind of this variant.
    #[must_use]
    pub fn piece_type(&self, kind: Kind) -> &'static PieceType {
        &self.pieces_static()[kind.index()]
    }

    fn pieces_static(&self) -> &'static [PieceType] {
        self.pieces
    }

    /// The kind that plays a classical role (the King, a Knight), if any.
    #[must_use]
    pub fn kind_of_role(&self, role: Role) -> Option<Kind> {
        self.pieces.iter().position(|piece| piece.role == Some(role)).map(|index| Kind::new(index as u8))
    }

    /// The piece a symbol stands for: upper case for the first player, lower case for the second
    /// (`G` a light Pegasus, `kn` a black Knight in Chess Evolved Online). Mixed case is no symbol.
    #[must_use]
    pub fn piece_by_symbol(&self, symbol: &str) -> Option<Piece> {
        let upper = symbol.bytes().all(|b| b.is_ascii_uppercase());
        let lower = symbol.bytes().all(|b| b.is_ascii_lowercase());
        if symbol.is_empty() || !(upper || lower) {
            return None;
        }
        let index = self.pieces.iter().position(|piece| piece.symbol.eq_ignore_ascii_case(symbol))?;
        Some(Piece { kind: Kind::new(index as u8), color: Color::of_case(upper) })
    }

    /// The symbol of a piece as written on this variant's boards.
    #[must_use]
    pub fn symbol(&self, piece: Piece) -> String {
        self.piece_type(piece.kind).symbol_for(piece.color)
    }

    /// The longest symbol of the alphabet (2 for Chess Evolved Online's codes, 1 elsewhere).
    #[must_use]
    pub fn longest_symbol(&self) -> usize {
        self.pieces.iter().map(|piece| piece.symbol.len()).max().unwrap_or(1)
    }

    /// Splits a run of letters into the symbols of this alphabet, such as `PKN` into `P` and `KN`.
    ///
    /// Longer symbols are tried first, and the split backs off where that leads nowhere. Returns
    /// the pieces with the byte offset where each symbol starts, or the offset of the first letter
    /// that begins no symbol.
    pub fn split_symbols(&self, letters: &str) -> Result<Vec<(usize, Piece)>, usize> {
        split_by(letters, self.longest_symbol(), |symbol| self.piece_by_symbol(symbol))
    }

    /// The letters of the alphabet for messages: `K Q R B N P`.
    #[must_use]
    pub fn letters(&self) -> String {
        self.pieces.iter().map(|piece| piece.symbol).collect::<Vec<_>>().join(" ")
    }

    /// The name of a side in this variant (`White`, `Light`, `Blue`).
    #[must_use]
    pub fn player(&self, color: Color) -> &'static str {
        self.players[color.index()]
    }
}

impl PartialEq for Variant {
    fn eq(&self, other: &Variant) -> bool {
        self.name == other.name
    }
}

impl Eq for Variant {}

impl std::hash::Hash for Variant {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// A name that is no variant of the catalogue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant {
    /// The name asked for.
    pub name: String,
}

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Variant::all().iter().map(|variant| variant.name).collect();
        write!(f, "unknown variant '{}' (known: {})", self.name, names.join(", "))
    }
}

impl std::error::Error for UnknownVariant {}

/// Splits `text` into symbols of at most `longest` bytes that `lookup` knows, longer symbols
/// first, backing off where that leads nowhere. Returns each symbol's offset and meaning, or the
/// offset where a longest-first reading gets stuck.
pub fn split_by<T>(text: &str, longest: usize, lookup: impl Fn(&str) -> Option<T>) -> Result<Vec<(usize, T)>, usize> {
    let bytes = text.as_bytes();
    let known = |start: usize, len: usize| {
        len <= bytes.len() - start && text.is_char_boundary(start + len) && lookup(&text[start..start + len]).is_some()
    };
    // reach[i]: the length of the symbol that starts a complete split of text[i..], or 0.
    let mut reach = vec![0usize; bytes.len() + 1];
    for start in (0..bytes.len()).rev() {
        if !text.is_char_boundary(start) {
            continue;
        }
        reach[start] = (1..=longest)
            .rev()
            .find(|&len| known(start, len) && (start + len == bytes.len() || reach[start + len] != 0))
            .unwrap_or(0);
    }
    if !bytes.is_empty() && reach[0] == 0 {
        let mut at = 0;
        while let Some(len) = (1..=longest).rev().find(|&len| known(at, len)) {
            at += len;
        }
        return Err(at);
    }
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let len = reach[at];
        out.push((at, lookup(&text[at..at + len]).expect("the split was found above")));
        at += len;
    }
    Ok(out)
}

/// A name reduced for comparison: lower case, letters and digits only.
#[must_use]
pub fn normalize_name(name: &str) -> String {
    name_key(name).map(char::from).collect()
}

/// The bytes of a name that count in comparisons, lower-cased.
fn name_key(name: &str) -> impl Iterator<Item = u8> + '_ {
    name.bytes().filter(u8::is_ascii_alphanumeric).map(|byte| byte.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_full_name_is_accepted() {
        for name in [
            "Standard",
            "Chess960",
            "Crazyhouse",
            "Classical Chess",
            "Croatian Ties",
            "Mayan Ascendancy",
            "Age of Aquarius",
            "Miranda's Veil",
            "Nineteen",
            "Hemera's Dawn",
            "Tamoanchan Revisited",
            "Conquest of Tlalocan",
            "Discovery",
            "One",
            "Laser Chess",
            "Chess Evolved Online",
            "X-Decor",
        ] {
            let variant = Variant::by_name(name).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(variant.name, name);
            assert_eq!(Variant::by_name(&name.to_uppercase()).unwrap().name, name);
            assert_eq!(Variant::by_name(&name.replace(' ', "")).unwrap().name, name);
        }
    }

    #[test]
    fn names_and_aliases_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for variant in Variant::all() {
            // The two editions of a Croatian Chess variant share its code.
            let code = variant.code.filter(|_| variant.edition() != Some(Edition::Current));
            for name in std::iter::once(&variant.name).chain(variant.aliases).chain(code.as_ref()) {
                assert!(seen.insert(normalize_name(name)), "{name} is listed twice");
            }
        }
    }

    #[test]
    fn symbols_are_unique_within_a_variant() {
        for variant in Variant::all() {
            let mut seen = std::collections::HashSet::new();
            for piece in variant.pieces {
                assert!(seen.insert(piece.symbol), "{} repeats {}", variant.name, piece.symbol);
                assert_eq!(piece.symbol, piece.symbol.to_ascii_uppercase());
            }
            assert!(variant.pieces.len() <= MAX_KINDS);
            assert!(variant.kind_of_role(Role::King).is_some(), "{} has a king", variant.name);
        }
    }

    #[test]
    fn splitting_letter_runs() {
        let ceo = Variant::by_name("Chess Evolved Online").unwrap();
        let split = ceo.split_symbols("PEC").unwrap();
        let symbols: Vec<_> = split.iter().map(|(_, piece)| ceo.symbol(*piece)).collect();
        assert_eq!(symbols, ["P", "EC"]);
        let split = ceo.split_symbols("rrknbb").unwrap();
        assert_eq!(split.len(), 3);
        assert_eq!(ceo.split_symbols("KNx"), Err(2));
        let standard = Variant::standard();
        assert_eq!(standard.split_symbols("KN").unwrap().len(), 2);
        assert_eq!(standard.split_symbols("KG"), Err(1));
    }
}
