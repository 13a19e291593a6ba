//! The catalogue: one row per variant.
//!
//! Croatian Chess follows the 2020 edition of the book (Pegasus `G`), with the setups of
//! `notations/crochess.md` §1: Pawns on ranks 2 and 3 from Nineteen on, the scout Pawns of
//! Hemera's Dawn onwards as plain Pawns, and the Monoliths where the book's formula puts them.
//!
//! Chess Evolved Online uses the two-letter codes of the notation proposal in upper case (a side
//! writes them in its own case). Three units had no usable code there; cqlq gives them one:
//! Bishop `BB` (as the proposal's own example writes it), Portal `PT`, and Royalguard `RY`
//! (the proposal gives `RG` to both Ranger and Royalguard; Ranger keeps it). The Pawn, written
//! without a code in moves, is `P`.

use super::pieces::{PieceType, Role};
use super::vocabulary::{Counter, CounterFen, FamilyWord, Mark, MarkDef, MarkOn, Vocabulary, WordMeaning};
use super::{
    BackhandRule, Capabilities, CastlingRule, CroatianSetup, Edition, Family, Initial, Kings, LaserSetup, Notation,
    PositionFormat, RuleSetId, Variant,
};
use crate::board::Geometry;
use crate::variant::Color;

impl Mark {
    /// A piece that was a pawn and promoted (Crazyhouse: it goes back to the hand as a pawn;
    /// `Q~`).
    pub const PROMOTED: Mark = Mark::new(0);
    /// Bit 0 of a piece's level: a Chess Evolved Online tier or a Laser Chess orientation (`+`).
    pub const LEVEL_LOW: Mark = Mark::new(1);
    /// Bit 1 of the level.
    pub const LEVEL_HIGH: Mark = Mark::new(2);
    /// A rook (and in Croatian Chess a king) that may still castle (Croatian `&`).
    pub const CASTLE: Mark = Mark::new(3);
    /// A Croatian Chess private that may still rush (`|`).
    pub const RUSH: Mark = Mark::new(4);
    /// A Croatian Chess pawn tagged for a delayed promotion (`=`).
    pub const PROMOTION_TAG: Mark = Mark::new(5);
    /// A Croatian Chess private that rushed in the last move and may be taken en passant (`:`).
    pub const RUSHED: Mark = Mark::new(6);
    /// A Croatian Chess private rushing in the move being made (`;`).
    pub const RUSHING: Mark = Mark::new(7);
}

/// Castling rights, which classical chess keeps on its rooks.
const CASTLE_RIGHTS: MarkDef =
    MarkDef { mark: Mark::CASTLE, meaning: "able to castle", symbol: None, on: MarkOn::Castlers };

/// The marks of classical chess: castling rights.
const CLASSICAL_MARKS: [MarkDef; 1] = [CASTLE_RIGHTS];

/// The marks of Crazyhouse: castling rights, and promoted pieces (`Q~`).
const CRAZYHOUSE_MARKS: [MarkDef; 2] = [
    CASTLE_RIGHTS,
    MarkDef { mark: Mark::PROMOTED, meaning: "a promoted piece", symbol: Some('~'), on: MarkOn::Promoted },
];

/// The tags of Croatian Chess, in the order setup strings write them.
const CROATIAN_MARKS: [MarkDef; 5] = [
    MarkDef { mark: Mark::RUSH, meaning: "able to rush", symbol: Some('|'), on: MarkOn::Pawns },
    MarkDef { mark: Mark::CASTLE, meaning: "able to castle", symbol: Some('&'), on: MarkOn::Castlers },
    MarkDef { mark: Mark::PROMOTION_TAG, meaning: "tagged for promotion", symbol: Some('='), on: MarkOn::Pawns },
    MarkDef { mark: Mark::RUSHED, meaning: "rushing", symbol: Some(':'), on: MarkOn::Pawns },
    MarkDef { mark: Mark::RUSHING, meaning: "rushing", symbol: Some(';'), on: MarkOn::Pawns },
];

/// The levels of Laser Chess's orientations and Chess Evolved Online's tiers (`+` each).
const LEVEL_LOW: MarkDef =
    MarkDef { mark: Mark::LEVEL_LOW, meaning: "given a tier or orientation", symbol: None, on: MarkOn::Pieces };
const LEVEL_HIGH: MarkDef = MarkDef { mark: Mark::LEVEL_HIGH, ..LEVEL_LOW };

/// The marks of Laser Chess: orientations.
const LASER_MARKS: [MarkDef; 2] = [LEVEL_LOW, LEVEL_HIGH];

/// The marks of Chess Evolved Online: tiers, and castling rights on its rooks.
const EVOLVED_MARKS: [MarkDef; 3] = [LEVEL_LOW, LEVEL_HIGH, CASTLE_RIGHTS];

/// What the classical rules have: cqlq plays them.
const CLASSICAL_RULES: Capabilities = Capabilities {
    check: true,
    instead_of_check: None,
    played: true,
    replayed: true,
    lasers: false,
    levels: false,
    pawns_off_back_ranks: true,
    en_passant: true,
    pawn_tags: false,
    kings: Kings::OneEach,
    stalemate_without_check: false,
    removals: false,
    vocabulary: Vocabulary { marks: &CLASSICAL_MARKS, ..Vocabulary::NONE },
};

/// What Crazyhouse has: the classical rules, and promoted pieces that go back to the hand as
/// pawns.
const CRAZYHOUSE_RULES: Capabilities =
    Capabilities { vocabulary: Vocabulary { marks: &CRAZYHOUSE_MARKS, ..Vocabulary::NONE }, ..CLASSICAL_RULES };

/// What Croatian Chess has: check, and tags on its pawns (their en passant is a tag too).
const CROATIAN_RULES: Capabilities = Capabilities {
    check: true,
    instead_of_check: None,
    played: false,
    replayed: true,
    lasers: false,
    levels: false,
    pawns_off_back_ranks: false,
    en_passant: false,
    pawn_tags: true,
    kings: Kings::OneEach,
    stalemate_without_check: false,
    removals: true,
    vocabulary: Vocabulary {
        words: &CROATIAN_WORDS,
        counters: &[Counter { name: "momentum", start: 0, fen: CounterFen::Unwritten }],
        actions: &croatian::ACTIONS,
        marks: &CROATIAN_MARKS,
    },
};

/// The names the Croatian Chess rules answer to: the actions of their moves, and the counter
/// of the last move's momentum.
pub mod croatian {
    /// The actions a Croatian Chess move may do besides moving, capturing and promoting, each
    /// at its index: `move previous cascade`.
    pub const ACTIONS: [&str; 10] = [
        "cascade",
        "teleport",
        "conversion",
        "displacement",
        "resurrection",
        "demotion",
        "promotion",
        "rush",
        "journey",
        "oblation",
    ];
    /// A ply activated another piece, which moved on (`~`).
    pub const CASCADE: u8 = 0;
    /// A piece entered a Star or Monolith and emerged elsewhere (`|`).
    pub const TELEPORT: u8 = 1;
    /// A Pyramid converted an enemy piece, or failed to (`%`, `%%`).
    pub const CONVERSION: u8 = 2;
    /// A piece was displaced to another field (`<`).
    pub const DISPLACEMENT: u8 = 3;
    /// A captured piece came back (`$`, `$$`).
    pub const RESURRECTION: u8 = 4;
    /// A figure was demoted to a Pawn (`>`).
    pub const DEMOTION: u8 = 5;
    /// A Pawn promoted, or was tagged for promotion (`=`).
    pub const PROMOTION: u8 = 6;
    /// A private rushed two fields or more.
    pub const RUSH: u8 = 7;
    /// A Shaman's trance-journey or a Starchild's sense-journey (`@`, `"`).
    pub const JOURNEY: u8 = 8;
    /// A piece was oblated: removed from play, not captured (`||` in 2020, `|||`, a
    /// Pawn-sacrifice, a dual journey).
    pub const OBLATION: u8 = 9;
    /// The counter of the momentum the last move's cascade spent.
    pub const MOMENTUM: u8 = 0;
}

const CROATIAN_WORDS: [FamilyWord; 5] = [
    FamilyWord {
        name: "tagged",
        meaning: WordMeaning::Marked(Mark::PROMOTION_TAG),
        about: "the Pawns tagged for a delayed promotion",
    },
    FamilyWord { name: "canrush", meaning: WordMeaning::Marked(Mark::RUSH), about: "the privates that may still rush" },
    FamilyWord {
        name: "cancastle",
        meaning: WordMeaning::Marked(Mark::CASTLE),
        about: "the Kings and Rooks that may still castle",
    },
    FamilyWord {
        name: "rushed",
        meaning: WordMeaning::Marked(Mark::RUSHED),
        about: "the privates that rushed in the last move, which may be taken en passant",
    },
    FamilyWord {
        name: "momentum",
        meaning: WordMeaning::Counter { counter: croatian::MOMENTUM, side: Color::White },
        about: "the momentum the last move's cascade spent: the fields its plies travelled",
    },
];

/// What Laser Chess has: lasers and oriented pieces, no check.
const LASER_RULES: Capabilities = Capabilities {
    check: false,
    instead_of_check: Some("a beam that reaches a King removes it, and the game ends"),
    played: true,
    replayed: true,
    lasers: true,
    levels: true,
    pawns_off_back_ranks: false,
    en_passant: false,
    pawn_tags: false,
    kings: Kings::AtMostOne,
    stalemate_without_check: false,
    removals: false,
    vocabulary: Vocabulary {
        words: &LASER_WORDS,
        counters: &[],
        actions: &[laser::ROTATE_ACTION, laser::SWAP_ACTION],
        marks: &LASER_MARKS,
    },
};

/// The names the Laser Chess rules answer to: the sets their words ask for, and the actions of
/// their moves.
pub mod laser {
    /// `beam`: the squares the last shot passed through.
    pub const BEAM: u8 = 0;
    /// `nextbeam`: the squares the side to move's laser would pass through if it fired now.
    pub const NEXT_BEAM: u8 = 1;
    /// `hit`: the square of the piece the last shot removed.
    pub const HIT: u8 = 2;
    /// A piece turning on its square.
    pub const ROTATE_ACTION: &str = "rotate";
    /// A Switch changing places with another piece.
    pub const SWAP_ACTION: &str = "swap";
    /// The index of [`ROTATE_ACTION`] among the actions.
    pub const ROTATE: u8 = 0;
    /// The index of [`SWAP_ACTION`] among the actions.
    pub const SWAP: u8 = 1;
}

const LASER_WORDS: [FamilyWord; 3] = [
    FamilyWord {
        name: "beam",
        meaning: WordMeaning::RulesSet(laser::BEAM),
        about: "the squares the last shot passed through",
    },
    FamilyWord {
        name: "nextbeam",
        meaning: WordMeaning::RulesSet(laser::NEXT_BEAM),
        about: "the squares the side to move's laser would pass through if it fired now",
    },
    FamilyWord {
        name: "hit",
        meaning: WordMeaning::RulesSet(laser::HIT),
        about: "the square of the piece the last shot removed",
    },
];

/// What Chess Evolved Online has: tiers, no check.
const EVOLVED_RULES: Capabilities = Capabilities {
    check: false,
    instead_of_check: Some("a side loses when its morale runs out, and a King is captured like any unit"),
    played: false,
    replayed: false,
    lasers: false,
    levels: true,
    pawns_off_back_ranks: true,
    en_passant: false,
    pawn_tags: false,
    kings: Kings::OneEach,
    stalemate_without_check: false,
    removals: false,
    vocabulary: Vocabulary { marks: &EVOLVED_MARKS, ..Vocabulary::NONE },
};

/// What Atomic has: check (never by a king touching the other), and a king gone at the end.
const ATOMIC_RULES: Capabilities = Capabilities { kings: Kings::AtMostOne, removals: true, ..CLASSICAL_RULES };

/// What Antichess has: no check, and kings like any other piece.
const ANTICHESS_RULES: Capabilities = Capabilities {
    check: false,
    instead_of_check: Some("a king is a piece like any other, and may be taken"),
    kings: Kings::Any,
    stalemate_without_check: true,
    ..CLASSICAL_RULES
};

/// What Horde has: a White side of pawns, some on the first rank, and no White king.
const HORDE_RULES: Capabilities =
    Capabilities { kings: Kings::AtMostOne, pawns_off_back_ranks: false, ..CLASSICAL_RULES };

/// What King of the Hill has: the hill, where a king wins.
const KING_OF_THE_HILL_RULES: Capabilities = Capabilities {
    vocabulary: Vocabulary {
        words: &[FamilyWord {
            name: "hill",
            meaning: WordMeaning::Squares(&["d4", "e4", "d5", "e5"]),
            about: "the four centre squares, where a king wins",
        }],
        counters: &[],
        actions: &[],
        marks: &CLASSICAL_MARKS,
    },
    ..CLASSICAL_RULES
};

/// What Three-check has: the checks each side has given, the third of which wins.
const THREE_CHECK_RULES: Capabilities = Capabilities {
    vocabulary: Vocabulary {
        words: &[
            FamilyWord {
                name: "whitechecks",
                meaning: WordMeaning::Counter { counter: 0, side: Color::White },
                about: "the checks White has given",
            },
            FamilyWord {
                name: "blackchecks",
                meaning: WordMeaning::Counter { counter: 0, side: Color::Black },
                about: "the checks Black has given",
            },
        ],
        counters: &[Counter { name: "checks given", start: 0, fen: CounterFen::LeftOf { limit: 3 } }],
        actions: &[],
        marks: &CLASSICAL_MARKS,
    },
    ..CLASSICAL_RULES
};

/// A variant of lichess, on the classical board with the classical pieces.
const fn lichess(
    name: &'static str,
    aliases: &'static [&'static str],
    rule_set: RuleSetId,
    capabilities: Capabilities,
    initial: &'static str,
) -> Variant {
    Variant {
        name,
        aliases,
        code: None,
        family: Family::Classical,
        rule_set,
        capabilities,
        notation: Notation::San,
        position_format: PositionFormat::Fen,
        geometry: board(8, 8),
        pieces: &CLASSICAL,
        players: WHITE_BLACK,
        backhand: BackhandRule::Captures,
        castling: CastlingRule::Standard,
        initial: Initial::Fen(initial),
    }
}

const fn board(files: u8, ranks: u8) -> Geometry {
    match Geometry::new(files, ranks) {
        Some(geometry) => geometry,
        None => panic!("catalogue boards are 1x1 to 26x26"),
    }
}

const fn piece(name: &'static str, symbol: &'static str, role: Option<Role>, value: Option<i32>) -> PieceType {
    PieceType { name, symbol, role, ownerless: false, private: matches!(role, Some(Role::Pawn)), value }
}

const fn ownerless(name: &'static str, symbol: &'static str) -> PieceType {
    PieceType { name, symbol, role: None, ownerless: true, private: false, value: None }
}

/// A piece that rushes and is taken en passant as pawns are.
const fn private(name: &'static str, symbol: &'static str) -> PieceType {
    PieceType { name, symbol, role: None, ownerless: false, private: true, value: None }
}

const PAWN: PieceType = piece("Pawn", "P", Some(Role::Pawn), Some(1));
const KNIGHT: PieceType = piece("Knight", "N", Some(Role::Knight), Some(3));
const BISHOP: PieceType = piece("Bishop", "B", Some(Role::Bishop), Some(3));
const ROOK: PieceType = piece("Rook", "R", Some(Role::Rook), Some(5));
const QUEEN: PieceType = piece("Queen", "Q", Some(Role::Queen), Some(9));
const KING: PieceType = piece("King", "K", Some(Role::King), Some(0));

/// The classical alphabet, in the order of the classical rules' piece arrays.
const CLASSICAL: [PieceType; 6] = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING];

const PEGASUS: PieceType = piece("Pegasus", "G", None, None);
const PYRAMID: PieceType = piece("Pyramid", "A", None, None);
const UNICORN: PieceType = piece("Unicorn", "U", None, None);
const WAVE: PieceType = piece("Wave", "W", None, None);
const STAR: PieceType = ownerless("Star", "T");
const CENTAUR: PieceType = piece("Centaur", "C", None, None);
const SERPENT: PieceType = piece("Serpent", "S", None, None);
const SHAMAN: PieceType = piece("Shaman", "H", None, None);
const MONOLITH: PieceType = ownerless("Monolith", "M");
const STARCHILD: PieceType = piece("Starchild", "I", None, None);

/// The current edition's letter for the Pegasus, and its two new privates.
const PEGASUS_NOW: PieceType = piece("Pegasus", "E", None, None);
const SCOUT: PieceType = private("Scout", "O");
const GRENADIER: PieceType = private("Grenadier", "G");

/// The pieces of the 2020 edition in the order the variants add them: each variant's alphabet
/// is a beginning of this list (Croatian Ties the first seven, One all of it).
static ED2020_PIECES: [PieceType; 16] = [
    PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PEGASUS, PYRAMID, UNICORN, WAVE, STAR, CENTAUR, SERPENT, SHAMAN, MONOLITH,
    STARCHILD,
];

/// The pieces of the current edition in the order the variants add them: Pegasus `E`, and
/// Scouts and Grenadiers with Hemera's Dawn's Centaurs.
static CURRENT_PIECES: [PieceType; 18] = [
    PAWN,
    KNIGHT,
    BISHOP,
    ROOK,
    QUEEN,
    KING,
    PEGASUS_NOW,
    PYRAMID,
    UNICORN,
    WAVE,
    STAR,
    CENTAUR,
    SCOUT,
    GRENADIER,
    SERPENT,
    SHAMAN,
    MONOLITH,
    STARCHILD,
];

/// The first `count` pieces of an edition's list: a variant's alphabet.
const fn first(pieces: &'static [PieceType], count: usize) -> &'static [PieceType] {
    pieces.split_at(count).0
}

const LASER: [PieceType; 5] = [
    piece("King", "K", Some(Role::King), None),
    piece("Switch", "S", None, None),
    piece("Defender", "D", None, None),
    piece("Deflector", "B", None, None),
    piece("Laser", "L", None, None),
];

/// Chess Evolved Online units, by rarity as the notation proposal lists them. Values are the
/// morale values where known (classic units).
const CHESS_EVOLVED: [PieceType; 72] = [
    piece("Pawn", "P", Some(Role::Pawn), Some(0)),
    piece("Knight", "KN", Some(Role::Knight), Some(6)),
    piece("Bishop", "BB", Some(Role::Bishop), Some(9)),
    piece("Rook", "RR", Some(Role::Rook), Some(12)),
    piece("Queen", "QQ", Some(Role::Queen), Some(21)),
    piece("King", "KK", Some(Role::King), Some(0)),
    // Common.
    piece("Archer", "AR", None, None),
    piece("Axeman", "AX", None, None),
    piece("Banshee", "BS", None, None),
    piece("Bat", "BT", None, None),
    piece("Bomber", "BO", None, None),
    piece("Dryad", "DY", None, None),
    piece("Sapling", "SG", None, None),
    piece("Fireball", "FR", None, None),
    piece("Frostmage", "FM", None, None),
    piece("Ghost", "GH", None, None),
    piece("Guardian", "GD", None, None),
    piece("Militia", "ML", None, None),
    piece("Penguin", "PG", None, None),
    piece("Poisonmage", "PM", None, None),
    piece("Shieldsman", "SH", None, None),
    piece("Skeleton", "SK", None, None),
    piece("Slime", "SL", None, None),
    piece("Spearman", "SE", None, None),
    piece("Spider", "SP", None, None),
    piece("Swordsman", "SW", None, None),
    piece("Tiger", "TG", None, None),
    piece("Warrior", "WR", None, None),
    piece("Windmage", "WM", None, None),
    // Rare.
    piece("Alchemist", "AC", None, None),
    piece("Basilisk", "BA", None, None),
    piece("Berserker", "BK", None, None),
    piece("Crusader", "CR", None, None),
    piece("Frostmephit", "FP", None, None),
    piece("Giantslime", "GS", None, None),
    piece("Legionary", "LG", None, None),
    piece("Magetower", "MT", None, None),
    piece("Necromancer", "NC", None, None),
    piece("Paladin", "PD", None, None),
    piece("Phantasm", "PH", None, None),
    piece("Portal", "PT", None, None),
    piece("Prince", "PC", None, None),
    piece("Princess", "PS", None, None),
    piece("Pyromancer", "PY", None, None),
    piece("Ranger", "RG", None, None),
    piece("Samurai", "SA", None, None),
    piece("Wisp", "WS", None, None),
    // Epic.
    piece("Behemoth", "BM", None, None),
    piece("Demon", "DM", None, None),
    piece("Dragon", "DG", None, None),
    piece("Ghast", "GT", None, None),
    piece("Harpy", "HR", None, None),
    piece("Hauntedarmor", "HD", None, None),
    piece("Lifestone", "LS", None, None),
    piece("Medusa", "MD", None, None),
    piece("Minotaur", "MO", None, None),
    piece("Ninja", "NJ", None, None),
    piece("Valkyrie", "VK", None, None),
    piece("Wizard", "WZ", None, None),
    // Legendary.
    piece("Antimage", "AM", None, None),
    piece("Comet", "CT", None, None),
    piece("Enchantress", "EC", None, None),
    piece("Gemini", "GM", None, None),
    piece("Geminitwin", "GW", None, None),
    piece("Lich", "LH", None, None),
    piece("Lilith", "LL", None, None),
    piece("Moonfox", "MF", None, None),
    piece("Phoenix", "PX", None, None),
    piece("Phoenixegg", "PE", None, None),
    piece("Royalguard", "RY", None, None),
    piece("Soulkeeper", "SU", None, None),
    piece("Vampire", "VP", None, None),
];

const WHITE_BLACK: [&str; 2] = ["White", "Black"];
const LIGHT_DARK: [&str; 2] = ["Light", "Dark"];

const STANDARD_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const fn croatian(
    name: &'static str,
    code: &'static str,
    aliases: &'static [&'static str],
    side: u8,
    pieces: &'static [PieceType],
    setup: CroatianSetup,
) -> Variant {
    Variant {
        name,
        aliases,
        code: Some(code),
        family: Family::Croatian,
        rule_set: RuleSetId::Croatian,
        capabilities: CROATIAN_RULES,
        notation: Notation::Croatian,
        position_format: PositionFormat::SetupString,
        geometry: board(side, side),
        pieces,
        players: LIGHT_DARK,
        backhand: BackhandRule::Captures,
        castling: CastlingRule::Croatian,
        initial: Initial::Croatian(setup),
    }
}

/// The scouts of Hemera's Dawn onwards (crochess.md §1): the files two either side of each
/// Centaur (and Shaman) on rank 4, one either side on rank 5.
const HD_SCOUTS: &[&str] = &["c4", "g4", "n4", "r4", "d5", "f5", "o5", "q5"];
const TR_SCOUTS: &[&str] = &["g4", "k4", "l4", "p4", "h5", "j5", "m5", "o5"];
const COT_SCOUTS: &[&str] =
    &["d4", "h4", "i4", "l4", "m4", "p4", "q4", "u4", "e5", "g5", "j5", "l5", "m5", "o5", "r5", "t5"];
const ONE_SCOUTS: &[&str] =
    &["e4", "i4", "j4", "m4", "n4", "q4", "r4", "v4", "f5", "h5", "k5", "m5", "n5", "p5", "s5", "u5"];

/// The current edition's Grenadiers: under each rank-4 scout on rank 3, under each rank-5
/// scout on rank 2.
const HD_GRENADIERS: &[&str] = &["c3", "g3", "n3", "r3", "d2", "f2", "o2", "q2"];
const TR_GRENADIERS: &[&str] = &["g3", "k3", "l3", "p3", "h2", "j2", "m2", "o2"];
const COT_GRENADIERS: &[&str] =
    &["d3", "h3", "i3", "l3", "m3", "p3", "q3", "u3", "e2", "g2", "j2", "l2", "m2", "o2", "r2", "t2"];
const ONE_GRENADIERS: &[&str] =
    &["e3", "i3", "j3", "m3", "n3", "q3", "r3", "v3", "f2", "h2", "k2", "m2", "n2", "p2", "s2", "u2"];

/// A setup of the 2020 edition: Pawns on the scouts' squares.
const fn ed2020(
    figure_row: &'static str,
    pawn_ranks: &'static [u8],
    privates: &'static [(char, &'static [&'static str])],
    monoliths: &'static [&'static str],
) -> CroatianSetup {
    CroatianSetup { edition: Edition::Ed2020, figure_row, pawn_ranks, privates, monoliths }
}

/// A setup of the current edition: Scouts, and Grenadiers under them.
const fn current(
    figure_row: &'static str,
    pawn_ranks: &'static [u8],
    privates: &'static [(char, &'static [&'static str])],
    monoliths: &'static [&'static str],
) -> CroatianSetup {
    CroatianSetup { edition: Edition::Current, figure_row, pawn_ranks, privates, monoliths }
}

/// Every variant, Standard first.
pub(super) static CATALOGUE: [Variant; 34] = [
    Variant {
        name: "Standard",
        aliases: &["Chess", "Normal", "Orthodox", "From Position", "Standard Chess"],
        code: None,
        family: Family::Classical,
        rule_set: RuleSetId::Classical,
        capabilities: CLASSICAL_RULES,
        notation: Notation::San,
        position_format: PositionFormat::Fen,
        geometry: board(8, 8),
        pieces: &CLASSICAL,
        players: WHITE_BLACK,
        backhand: BackhandRule::Captures,
        castling: CastlingRule::Standard,
        initial: Initial::Fen(STANDARD_FEN),
    },
    Variant {
        name: "Chess960",
        aliases: &["Fischerandom", "Fischer Random", "FRC", "960"],
        code: None,
        family: Family::Classical,
        rule_set: RuleSetId::Classical,
        capabilities: CLASSICAL_RULES,
        notation: Notation::San,
        position_format: PositionFormat::Fen,
        geometry: board(8, 8),
        pieces: &CLASSICAL,
        players: WHITE_BLACK,
        backhand: BackhandRule::Captures,
        castling: CastlingRule::Free,
        initial: Initial::Fen(STANDARD_FEN),
    },
    Variant {
        name: "Crazyhouse",
        aliases: &["ZH", "House", "Drop Chess"],
        code: None,
        family: Family::Classical,
        rule_set: RuleSetId::Classical,
        capabilities: CRAZYHOUSE_RULES,
        notation: Notation::San,
        position_format: PositionFormat::Fen,
        geometry: board(8, 8),
        pieces: &CLASSICAL,
        players: WHITE_BLACK,
        backhand: BackhandRule::Drops,
        castling: CastlingRule::Standard,
        initial: Initial::Fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"),
    },
    croatian("Classical Chess", "cc", &["Croatian Classical Chess"], 8, &CLASSICAL, ed2020("RNBQKBNR", &[2], &[], &[])),
    croatian("Croatian Ties", "ct", &[], 10, first(&ED2020_PIECES, 7), ed2020("RGNBQKBNGR", &[2], &[], &[])),
    croatian("Mayan Ascendancy", "ma", &[], 12, first(&ED2020_PIECES, 8), ed2020("RGANBQKBNAGR", &[2], &[], &[])),
    croatian("Age of Aquarius", "aoa", &[], 14, first(&ED2020_PIECES, 9), ed2020("RGAUNBQKBNUAGR", &[2], &[], &[])),
    croatian("Miranda's Veil", "mv", &[], 16, first(&ED2020_PIECES, 10), ed2020("RGAUWNBQKBNWUAGR", &[2], &[], &[])),
    croatian("Nineteen", "n", &["19"], 18, first(&ED2020_PIECES, 11), ed2020("TRNBWGUAQKAUGWBNRt", &[2, 3], &[], &[])),
    croatian(
        "Hemera's Dawn",
        "hd",
        &[],
        20,
        first(&ED2020_PIECES, 12),
        ed2020("TRNBCWGUAQKAUGWCBNRt", &[2, 3], &[('P', HD_SCOUTS)], &[]),
    ),
    croatian(
        "Tamoanchan Revisited",
        "tr",
        &[],
        22,
        first(&ED2020_PIECES, 13),
        ed2020("TRNBSWUGCAQKACGUWSBNRt", &[2, 3], &[('P', TR_SCOUTS)], &[]),
    ),
    croatian(
        "Conquest of Tlalocan",
        "cot",
        &[],
        24,
        first(&ED2020_PIECES, 14),
        ed2020("TRNBSCUWGAHQKHAGWUCSBNRt", &[2, 3], &[('P', COT_SCOUTS)], &[]),
    ),
    croatian(
        "Discovery",
        "d",
        &[],
        24,
        first(&ED2020_PIECES, 15),
        ed2020("TRNBSCUWGAHQKHAGWUCSBNRt", &[2, 3], &[('P', COT_SCOUTS)], &["b7", "w18"]),
    ),
    croatian(
        "One",
        "o",
        &[],
        26,
        first(&ED2020_PIECES, 16),
        ed2020("TRNBSICUGWAHQKHAWGUCISBNRt", &[2, 3], &[('P', ONE_SCOUTS)], &["b8", "y19"]),
    ),
    croatian("Classical Chess (current edition)", "cc", &[], 8, &CLASSICAL, current("RNBQKBNR", &[2], &[], &[])),
    croatian(
        "Croatian Ties (current edition)",
        "ct",
        &[],
        10,
        first(&CURRENT_PIECES, 7),
        current("RENBQKBNER", &[2], &[], &[]),
    ),
    croatian(
        "Mayan Ascendancy (current edition)",
        "ma",
        &[],
        12,
        first(&CURRENT_PIECES, 8),
        current("REANBQKBNAER", &[2], &[], &[]),
    ),
    croatian(
        "Age of Aquarius (current edition)",
        "aoa",
        &[],
        14,
        first(&CURRENT_PIECES, 9),
        current("REAUNBQKBNUAER", &[2], &[], &[]),
    ),
    croatian(
        "Miranda's Veil (current edition)",
        "mv",
        &[],
        16,
        first(&CURRENT_PIECES, 10),
        current("REAUWNBQKBNWUAER", &[2], &[], &[]),
    ),
    croatian(
        "Nineteen (current edition)",
        "n",
        &[],
        18,
        first(&CURRENT_PIECES, 11),
        current("TRNBWEUAQKAUEWBNRt", &[2, 3], &[], &[]),
    ),
    croatian(
        "Hemera's Dawn (current edition)",
        "hd",
        &[],
        20,
        first(&CURRENT_PIECES, 14),
        current("TRNBCWEUAQKAUEWCBNRt", &[2, 3], &[('O', HD_SCOUTS), ('G', HD_GRENADIERS)], &[]),
    ),
    croatian(
        "Tamoanchan Revisited (current edition)",
        "tr",
        &[],
        22,
        first(&CURRENT_PIECES, 15),
        current("TRNBSWUECAQKACEUWSBNRt", &[2, 3], &[('O', TR_SCOUTS), ('G', TR_GRENADIERS)], &[]),
    ),
    croatian(
        "Conquest of Tlalocan (current edition)",
        "cot",
        &[],
        24,
        first(&CURRENT_PIECES, 16),
        current("TRNBSCUWEAHQKHAEWUCSBNRt", &[2, 3], &[('O', COT_SCOUTS), ('G', COT_GRENADIERS)], &[]),
    ),
    croatian(
        "Discovery (current edition)",
        "d",
        &[],
        24,
        first(&CURRENT_PIECES, 17),
        current("TRNBSCUWEAHQKHAEWUCSBNRt", &[2, 3], &[('O', COT_SCOUTS), ('G', COT_GRENADIERS)], &["b7", "w18"]),
    ),
    croatian(
        "One (current edition)",
        "o",
        &[],
        26,
        first(&CURRENT_PIECES, 18),
        current("TRNBSICUEWAHQKHAWEUCISBNRt", &[2, 3], &[('O', ONE_SCOUTS), ('G', ONE_GRENADIERS)], &["b8", "y19"]),
    ),
    Variant {
        name: "Laser Chess",
        aliases: &["Laser"],
        code: None,
        family: Family::Laser,
        rule_set: RuleSetId::Laser,
        capabilities: LASER_RULES,
        notation: Notation::Laser,
        position_format: PositionFormat::SetupNotation,
        geometry: board(10, 8),
        pieces: &LASER,
        players: ["Blue", "Red"],
        backhand: BackhandRule::Captures,
        castling: CastlingRule::None,
        initial: Initial::Laser(LaserSetup {
            setups: &[
                ("Ace", "l++3d++kd++b+++2/2b7/3B+6/b++1B1ss+1b+++1B+/b+++1B+1S+S1b++1B/6b+++3/7B++2/2B+DKD3L"),
                ("Curiosity", "l++3d++kd++s+2/*/3B+2b++3/b++B2B+++s+2b+++B+/b+++B+2S+b+2b++B/3B2b+++3/*/2S+DKD3L"),
                ("Grail", "l++3bd++b+++3/5k4/b++3bd++s+3/b+++1s1B+1B+++3/3b+1b+++1S1B+/3S+DB++3B/4K5/3B+DB++3L"),
                ("Mercury", "l++3bkb+++2S+/5d++b+++3/b+++2s+1d++4/b++3B+3B1/1b++3b+++3B/4D1S+2B+/3B+D5/s+2B+KB++3L"),
                ("Sophie", "l++3kB+b+++3/3d++1d+3B/b++3bb+++1S+1B+/7s2/2S7/b+++1s+1B+B++3B/b++3D+++1D3/3B+b+++K3L"),
            ],
            lasers: ["j1", "a8"],
            reserved: ["j2-j8 b1 b8", "a1-a7 i1 i8"],
        }),
    },
    Variant {
        name: "Chess Evolved Online",
        aliases: &["CEO", "Chess Evolved"],
        code: None,
        family: Family::ChessEvolved,
        rule_set: RuleSetId::ChessEvolved,
        capabilities: EVOLVED_RULES,
        notation: Notation::ChessEvolved,
        position_format: PositionFormat::Fen,
        geometry: board(8, 8),
        pieces: &CHESS_EVOLVED,
        players: WHITE_BLACK,
        backhand: BackhandRule::Captures,
        castling: CastlingRule::Free,
        initial: Initial::Fen("rrknbbqqkkbbknrr/pppppppp/8/8/8/8/PPPPPPPP/RRKNBBQQKKBBKNRR w - - 0 1"),
    },
    Variant {
        name: "X-Decor",
        aliases: &["X-Decor-libre", "xdecor chess", "realchess"],
        code: None,
        family: Family::Classical,
        rule_set: RuleSetId::Classical,
        capabilities: CLASSICAL_RULES,
        notation: Notation::XDecor,
        position_format: PositionFormat::Fen,
        geometry: board(8, 8),
        pieces: &CLASSICAL,
        players: WHITE_BLACK,
        backhand: BackhandRule::Captures,
        castling: CastlingRule::Standard,
        initial: Initial::Fen(STANDARD_FEN),
    },
    lichess("Atomic", &["Atomic Chess"], RuleSetId::Atomic, ATOMIC_RULES, STANDARD_FEN),
    lichess(
        "Antichess",
        &["Giveaway", "Suicide", "Losing Chess", "Take All"],
        RuleSetId::Antichess,
        ANTICHESS_RULES,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    ),
    lichess(
        "Horde",
        &["Horde Chess"],
        RuleSetId::Horde,
        HORDE_RULES,
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
    ),
    lichess("King of the Hill", &["KOTH"], RuleSetId::KingOfTheHill, KING_OF_THE_HILL_RULES, STANDARD_FEN),
    lichess(
        "Racing Kings",
        &["Racing", "Racing Kings Chess"],
        RuleSetId::RacingKings,
        CLASSICAL_RULES,
        "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
    ),
    lichess("Three-check", &["3check", "Three Check Chess"], RuleSetId::ThreeCheck, THREE_CHECK_RULES, STANDARD_FEN),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn croatian_figure_rows_fill_their_boards() {
        for variant in &CATALOGUE {
            if let Initial::Croatian(setup) = &variant.initial {
                assert_eq!(setup.figure_row.len(), usize::from(variant.geometry.files()), "{}", variant.name);
                for letter in setup.figure_row.chars() {
                    let symbol = letter.to_ascii_uppercase().to_string();
                    assert!(variant.piece_by_symbol(&symbol).is_some(), "{} lacks {letter}", variant.name);
                }
            }
        }
    }

    /// The scouts stand two files either side of each Centaur and Shaman on rank 4, and one
    /// file either side on rank 5 (crochess.md §1): Pawns in 2020, Scouts now, with a
    /// Grenadier under each (rank 3 under rank 4, rank 2 under rank 5).
    #[test]
    fn scouts_follow_the_centaurs_and_shamans() {
        for variant in &CATALOGUE {
            let Initial::Croatian(setup) = &variant.initial else { continue };
            let mut scouts = Vec::new();
            let mut grenadiers = Vec::new();
            for (file, letter) in setup.figure_row.bytes().enumerate() {
                let spawns = letter == b'C' || (letter == b'H' && setup.figure_row.len() >= 24);
                if spawns && variant.geometry.files() >= 20 {
                    for (offset, rank) in [(-2, 4), (2, 4), (-1, 5), (1, 5)] {
                        let file = (b'a' + (file as i32 + offset) as u8) as char;
                        scouts.push(format!("{file}{rank}"));
                        grenadiers.push(format!("{file}{}", 7 - rank));
                    }
                }
            }
            let listed = |letter: char| {
                let mut squares: Vec<String> = setup
                    .privates
                    .iter()
                    .filter(|(symbol, _)| *symbol == letter)
                    .flat_map(|(_, squares)| squares.iter().map(|s| s.to_string()))
                    .collect();
                squares.sort();
                squares
            };
            for list in [&mut scouts, &mut grenadiers] {
                list.sort();
                list.dedup();
            }
            match setup.edition {
                Edition::Ed2020 => {
                    assert_eq!(listed('P'), scouts, "{}", variant.name);
                    assert_eq!(setup.privates.len(), usize::from(!scouts.is_empty()), "{}", variant.name);
                }
                Edition::Current => {
                    assert_eq!(listed('O'), scouts, "{}", variant.name);
                    assert_eq!(listed('G'), grenadiers, "{}", variant.name);
                }
            }
        }
    }

    /// Each variant has its twin in the other edition, of the same board, and names it apart.
    #[test]
    fn every_croatian_variant_has_both_editions() {
        for variant in CATALOGUE.iter().filter(|variant| variant.edition().is_some()) {
            for edition in Edition::ALL {
                let twin = variant.in_edition(edition).expect("both editions");
                assert_eq!((twin.edition(), twin.code, twin.geometry), (Some(edition), variant.code, variant.geometry));
            }
            let letters = variant.letters();
            match variant.edition() {
                Some(Edition::Ed2020) => assert!(!letters.contains('E') && !letters.contains('O'), "{letters}"),
                _ => assert!(!variant.name.contains("Ties") || letters.contains('E'), "{letters}"),
            }
        }
        assert!(Variant::standard().in_edition(Edition::Current).is_none());
    }
}
