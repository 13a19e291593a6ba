//! Where a Laser Chess variant's lasers stand and where each side's pieces may go, read from
//! the catalogue ([`LaserSetup`]), once per variant.

use std::sync::LazyLock;

use super::beam::LaserKind;
use crate::board::Geometry;
use crate::variant::{Initial, Kind, LaserSetup, MAX_KINDS, Variant};

/// The most squares a Laser Chess board may have: its square sets are 128-bit words.
pub const MAX_SQUARES: usize = 128;

/// A Laser Chess variant's board as its rules see it.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The variant.
    pub variant: &'static Variant,
    /// The board's shape.
    pub geometry: Geometry,
    /// The square of each side's laser (by [`Color::index`](crate::variant::Color::index)).
    pub lasers: [u8; 2],
    /// The squares each side's pieces may not stand on: both lasers' squares and the squares
    /// reserved for the other side.
    pub barred: [u128; 2],
    /// The variant's kind of each [`LaserKind`].
    pub kinds: [Kind; 5],
    /// The [`LaserKind`] of each of the variant's kinds.
    laser_kinds: [Option<LaserKind>; MAX_KINDS],
}

/// Why a variant's data does not describe a Laser Chess board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// The variant is not of the Laser Chess family.
    NotLaser(&'static str),
    /// The board has more squares than the rules handle.
    TooLarge(&'static str),
    /// A square or range of the layout is not on the board.
    Square(&'static str, String),
    /// The alphabet lacks a kind the rules need (by its letter).
    Kind(&'static str, &'static str),
}

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LayoutError::NotLaser(name) => write!(f, "{name} is not played by the Laser Chess rules"),
            LayoutError::TooLarge(name) => write!(f, "{name}: a board of more than {MAX_SQUARES} squares"),
            LayoutError::Square(name, text) => write!(f, "{name}: '{text}' is no square or range of the board"),
            LayoutError::Kind(name, letter) => write!(f, "{name}: no piece '{letter}' in the alphabet"),
        }
    }
}

impl std::error::Error for LayoutError {}

/// The layouts of the catalogue's Laser Chess variants.
static LAYOUTS: LazyLock<Vec<(&'static Variant, Result<Layout, LayoutError>)>> = LazyLock::new(|| {
    Variant::all()
        .iter()
        .filter(|variant| matches!(variant.initial, Initial::Laser(_)))
        .map(|variant| (variant, Layout::read(variant)))
        .collect()
});

impl Layout {
    /// The layout of a catalogue variant.
    pub fn of(variant: &'static Variant) -> Result<&'static Layout, LayoutError> {
        match LAYOUTS.iter().find(|(known, _)| std::ptr::eq(*known, variant)) {
            Some((_, layout)) => layout.as_ref().map_err(Clone::clone),
            None => Err(LayoutError::NotLaser(variant.name)),
        }
    }

    /// Reads a variant's layout from its data.
    fn read(variant: &'static Variant) -> Result<Layout, LayoutError> {
        let Initial::Laser(setup) = &variant.initial else { return Err(LayoutError::NotLaser(variant.name)) };
        let geometry = variant.geometry;
        if geometry.squares() > MAX_SQUARES {
            return Err(LayoutError::TooLarge(variant.name));
        }
        let square = |text: &str| {
            geometry
                .parse_square(text)
                .map(|square| square.index() as u8)
                .map_err(|_| LayoutError::Square(variant.name, text.to_owned()))
        };
        let lasers = [square(setup.lasers[0])?, square(setup.lasers[1])?];
        let laser_squares = (1u128 << lasers[0]) | (1u128 << lasers[1]);
        let reserved = [reserved_squares(variant, setup, 0)?, reserved_squares(variant, setup, 1)?];
        let barred = [laser_squares | reserved[1], laser_squares | reserved[0]];
        let mut kinds = [Kind::new(0); 5];
        for (slot, kind) in kinds.iter_mut().zip(LaserKind::ALL) {
            let letter = kind.letter();
            *slot = variant.piece_by_symbol(letter).ok_or(LayoutError::Kind(variant.name, letter))?.kind;
        }
        let mut laser_kinds = [None; MAX_KINDS];
        for (laser_kind, kind) in LaserKind::ALL.into_iter().zip(kinds) {
            laser_kinds[kind.index()] = Some(laser_kind);
        }
        Ok(Layout { variant, geometry, lasers, barred, kinds, laser_kinds })
    }

    /// The rules' kind of one of the variant's kinds.
    #[must_use]
    #[inline]
    pub fn laser_kind(&self, kind: Kind) -> Option<LaserKind> {
        self.laser_kinds.get(kind.index()).copied().flatten()
    }

    /// The number of squares.
    #[must_use]
    pub fn squares(&self) -> usize {
        self.geometry.squares()
    }

    /// The square one step from `square` along `(files, ranks)`, if it is on the board.
    #[must_use]
    #[inline]
    pub fn step(&self, square: u8, (files, ranks): (i8, i8)) -> Option<u8> {
        let width = self.geometry.files();
        let file = i32::from(square % width) + i32::from(files);
        let rank = i32::from(square / width) + i32::from(ranks);
        self.geometry.square_at(file, rank).map(|square| square.index() as u8)
    }

    /// The square of a name (`j4`), if it is on the board.
    #[must_use]
    pub fn square(&self, name: &str) -> Option<u8> {
        self.geometry.parse_square(name).ok().map(|square| square.index() as u8)
    }

    /// The name of a square (`j4`).
    #[must_use]
    pub fn name(&self, square: u8) -> String {
        self.geometry.square_name(crate::board::Square::from_index(u16::from(square))).to_string()
    }
}

/// The squares reserved for the side at `side` (0 first player): squares and ranges such as
/// `j2-j8` along a file or a rank.
fn reserved_squares(variant: &'static Variant, setup: &LaserSetup, side: usize) -> Result<u128, LayoutError> {
    let geometry = variant.geometry;
    let mut set = 0u128;
    for part in setup.reserved[side].split_ascii_whitespace() {
        let bad = || LayoutError::Square(variant.name, part.to_owned());
        let (first, last) = part.split_once('-').unwrap_or((part, part));
        let first = geometry.parse_square(first).map_err(|_| bad())?;
        let last = geometry.parse_square(last).map_err(|_| bad())?;
        let (from_file, from_rank) = (geometry.file_of(first).index(), geometry.rank_of(first).index());
        let (to_file, to_rank) = (geometry.file_of(last).index(), geometry.rank_of(last).index());
        if from_file != to_file && from_rank != to_rank {
            return Err(bad());
        }
        for file in from_file.min(to_file)..=from_file.max(to_file) {
            for rank in from_rank.min(to_rank)..=from_rank.max(to_rank) {
                set |= 1u128 << (usize::from(rank) * usize::from(geometry.files()) + usize::from(file));
            }
        }
    }
    Ok(set)
}
