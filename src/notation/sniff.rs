//! Reading one position from a line of text whose format (and variant) may be unknown.
//!
//! A line is a FEN (an `epd ` prefix allowed, as in perft suites), a Croatian Chess setup string,
//! or Laser Chess Setup Notation. Given a variant, the line must be one of its positions. Without
//! one, the variant is sniffed: a setup string names its variant; otherwise the board's ranks
//! and files, its letters and the position's validity decide, trying Standard before its
//! relatives (Crazyhouse first where the board has a hand or promoted pieces), then Laser Chess,
//! Chess Evolved Online and the Croatian boards by size.
//!
//! ```
//! use cqlq::notation::sniff::read_position;
//!
//! let line = "l++3d++kd++b+++2/2b7/3B+6/b++1B1ss+1b+++1B+/b+++1B+1S+S1b++1B/6b+++3/7B++2/2B+DKD3L";
//! assert_eq!(read_position(line, None)?.variant().name, "Laser Chess");
//! let fen = "epd bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf -";
//! assert_eq!(read_position(fen, None)?.variant().name, "Chess960");
//! assert_eq!(read_position("Ct Ke1,ke10", None)?.variant().name, "Croatian Ties");
//! # Ok::<_, cqlq::notation::sniff::ReadPositionError>(())
//! ```

use std::fmt;

use super::BoardError;
use super::crochess::setup_string;
use super::fen::{self, ParseFenError};
use super::laser::setup_notation::{self, ParseSetupNotationError};
use crate::build_position;
use crate::position::{AnyPosition, Position};
pub use crate::variant::PositionFormat;
use crate::variant::{BackhandRule, Variant};

/// A line that is no position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadPositionError {
    /// The variant the line was read as, when one fitted best.
    pub variant: Option<&'static str>,
    /// The format it was read as.
    pub format: PositionFormat,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for ReadPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.variant {
            Some(variant) => write!(f, "not a {variant} position ({}): {}", self.format, self.reason),
            None => write!(f, "not a position ({}): {}", self.format, self.reason),
        }
    }
}

impl std::error::Error for ReadPositionError {}

/// How far a reading got before it failed: a later stage makes a better error message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    /// The text is not in the format at all.
    Format,
    /// The board holds letters or signs the variant does not have.
    Letters,
    /// The letters fit, the ranks do not.
    Shape,
    /// The board read; a later field did not.
    Fields,
    /// Everything read; the position is impossible.
    Validity,
}

fn board_stage(error: &BoardError) -> Stage {
    match error {
        BoardError::RankCount { .. } | BoardError::RankLength { .. } => Stage::Shape,
        _ => Stage::Letters,
    }
}

struct Failure {
    stage: Stage,
    error: ReadPositionError,
}

/// Reads a position from a line, of the given variant or of a sniffed one. What only the
/// variant's rules judge is not checked: [`crate::rules::read_position`] checks it too.
pub fn read_position(line: &str, variant: Option<&'static Variant>) -> Result<AnyPosition, ReadPositionError> {
    read_position_checked(line, variant, |_| Ok(()))
}

/// Reads a position as [`read_position`] does; a candidate reading is taken only where `check`
/// accepts the position, else it failed as an impossible position, for the reason given.
///
/// # Errors
///
/// Why the line is no position: of the candidate reading that came furthest.
pub fn read_position_checked(
    line: &str,
    variant: Option<&'static Variant>,
    check: impl Fn(&AnyPosition) -> Result<(), String>,
) -> Result<AnyPosition, ReadPositionError> {
    let line = line.trim();
    let (text, epd) = match line.strip_prefix("epd ") {
        Some(rest) => (rest.trim_start(), true),
        None => (line, false),
    };
    let candidates = candidates(text, variant, epd);
    let mut best: Option<Failure> = None;
    for (candidate, format) in candidates {
        let checked = read_as(candidate, format, text).and_then(|position| match check(&position) {
            Ok(()) => Ok(position),
            Err(reason) => Err(Failure {
                stage: Stage::Validity,
                error: ReadPositionError { variant: Some(candidate.name), format, reason },
            }),
        });
        match checked {
            Ok(position) => return Ok(position),
            Err(failure) => {
                if best.as_ref().is_none_or(|best| failure.stage > best.stage) {
                    best = Some(failure);
                }
            }
        }
    }
    Err(best.map(|failure| failure.error).unwrap_or(ReadPositionError {
        variant: variant.map(|v| v.name),
        format: PositionFormat::Fen,
        reason: "empty line".to_owned(),
    }))
}

/// The variants and formats to try, most likely first.
fn candidates(text: &str, variant: Option<&'static Variant>, epd: bool) -> Vec<(&'static Variant, PositionFormat)> {
    let mut words = text.split_ascii_whitespace();
    let first = words.next().unwrap_or("");
    let coded = (!epd).then(|| setup_string::variant_of(text)).flatten().filter(|_| words.next().is_some());
    if let Some(variant) = variant {
        let format = match variant.position_format {
            PositionFormat::SetupString if coded.is_some() => PositionFormat::SetupString,
            PositionFormat::SetupNotation if !epd && text.split_ascii_whitespace().count() <= 2 => {
                return vec![(variant, PositionFormat::SetupNotation), (variant, PositionFormat::Fen)];
            }
            _ => PositionFormat::Fen,
        };
        return vec![(variant, format)];
    }
    if let Some(variant) = coded {
        return vec![(variant, PositionFormat::SetupString)];
    }
    let board = first.split('[').next().unwrap_or("");
    let ranks = board.split('/').count();
    // A last rank of letters may be a hand; one of squares (`8`) is a rank too many.
    let hand_row = board.rsplit('/').next().is_some_and(|last| last.bytes().all(|b| b.is_ascii_alphabetic()));
    let looks_like_drops = first.contains('[') || first.contains('~');
    let mut order: Vec<&'static Variant> = sniff_order()
        .iter()
        .copied()
        .filter(|variant| {
            let own = usize::from(variant.geometry.ranks());
            own == ranks || (variant.backhand == BackhandRule::Drops && hand_row && own + 1 == ranks)
        })
        .collect();
    if looks_like_drops {
        order.sort_by_key(|variant| variant.backhand != BackhandRule::Drops);
    }
    if order.is_empty() {
        order.push(Variant::standard());
    }
    let mut out = Vec::new();
    for variant in order {
        if variant.position_format == PositionFormat::SetupNotation && !epd {
            out.push((variant, PositionFormat::SetupNotation));
        }
        out.push((variant, PositionFormat::Fen));
    }
    out
}

/// The variants sniffing considers, most likely first. The 8x8 Croatian Classical Chess and
/// X-Decor read as Standard unless asked for by name.
const SNIFF_ORDER: [&str; 15] = [
    "Standard",
    "Crazyhouse",
    "Chess960",
    "Laser Chess",
    "Chess Evolved Online",
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
];

/// The variants of [`SNIFF_ORDER`], looked up once.
fn sniff_order() -> &'static [&'static Variant] {
    static ORDER: std::sync::LazyLock<Vec<&'static Variant>> = std::sync::LazyLock::new(|| {
        SNIFF_ORDER.iter().map(|name| Variant::by_name(name).expect("sniffed variants are in the catalogue")).collect()
    });
    &ORDER
}

fn read_as(variant: &'static Variant, format: PositionFormat, text: &str) -> Result<AnyPosition, Failure> {
    build_position!(variant, W => read_width::<W>(variant, format, text))
}

fn read_width<const W: usize>(
    variant: &'static Variant,
    format: PositionFormat,
    text: &str,
) -> Result<Position<W>, Failure> {
    let fail = |stage, reason: String| Failure {
        stage,
        error: ReadPositionError { variant: Some(variant.name), format, reason },
    };
    let setup = match format {
        PositionFormat::Fen => fen::read::<W>(variant, text).map_err(|error| {
            let stage = match &error {
                ParseFenError::Board(board) => board_stage(board),
                _ => Stage::Fields,
            };
            fail(stage, error.to_string())
        })?,
        PositionFormat::SetupNotation => setup_notation::read::<W>(variant, text).map_err(|error| {
            let stage = match &error {
                ParseSetupNotationError::Board(board) => board_stage(board),
                _ => Stage::Format,
            };
            fail(stage, error.to_string())
        })?,
        PositionFormat::SetupString => {
            let (named, setup) =
                setup_string::read::<W>(text).map_err(|error| fail(Stage::Letters, error.to_string()))?;
            if named != variant {
                return Err(fail(Stage::Fields, format!("the setup string is of {}", named.name)));
            }
            setup
        }
    };
    Position::from_setup(setup).map_err(|error| fail(Stage::Validity, error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sniffed(line: &str) -> &'static str {
        read_position(line, None).unwrap_or_else(|e| panic!("{line}: {e}")).variant().name
    }

    #[test]
    fn sniffing_picks_the_variant() {
        assert_eq!(sniffed("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), "Standard");
        assert_eq!(sniffed("epd 2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - -"), "Crazyhouse");
        assert_eq!(sniffed("2k5/8/8/8/8/8/8/4K3/Qn w - -"), "Crazyhouse");
        assert_eq!(sniffed("rrknbbqqkkbbknrr/pppppppp/8/8/8/8/PPPPPPPP/RRKNBBQQKKBBKNRR w"), "Chess Evolved Online");
        assert_eq!(sniffed("k9/10/10/10/10/10/10/10/10/9K w"), "Croatian Ties");
        let mut discovery = "24/".repeat(10);
        discovery.push_str(&"24/".repeat(12));
        discovery.push_str("k23/K22M w");
        assert_eq!(sniffed(&discovery), "Discovery");
    }

    #[test]
    fn the_best_error_is_kept() {
        let error = read_position("8/8/8/8/8/8/8/8 w - -", None).unwrap_err();
        assert_eq!(error.to_string(), "not a Standard position (FEN): White has no king");
        let error = read_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x", None).unwrap_err();
        assert_eq!(
            error.to_string(),
            "not a Standard position (FEN): invalid side to move in fen: 'x' (expected w or b)"
        );
        let standard = Variant::standard();
        let error = read_position("Ct Ke1,ke10", Some(standard)).unwrap_err();
        assert!(error.to_string().starts_with("not a Standard position (FEN)"), "{error}");
    }

    /// A rank too many is no Crazyhouse hand, sniffed or not: the board is too tall.
    #[test]
    fn a_rank_too_many_is_no_hand() {
        let line = "6k1/7Q/8/8/8/8/8/6K1/8 b - - 0 1";
        let too_tall = "invalid board in fen: 9 ranks where the board has 8";
        for (variant, name) in
            [(None, "Standard"), (Some(Variant::standard()), "Standard"), (Variant::by_name("zh").ok(), "Crazyhouse")]
        {
            let error = read_position(line, variant).unwrap_err();
            assert_eq!(error.to_string(), format!("not a {name} position (FEN): {too_tall}"));
        }
        assert_eq!(sniffed("6k1/7Q/8/8/8/8/8/6K1/Qn b - - 0 1"), "Crazyhouse");
    }
}
