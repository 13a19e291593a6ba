//! FEN, extended to every variant and board size.
//!
//! `board [side [castling [en-passant [halfmoves [fullmove]]]]]`, where:
//!
//! - the board has one rank per board rank, last rank first, with empty runs of any size (`10`,
//!   `26`) and the variant's symbols (`G` a Pegasus, `KN+` a Chess Evolved Online Knight+);
//! - the backhand follows the board in brackets (`[NNp]`), or as one more rank (`.../RNBQKBNR/NNp`);
//!   in drop variants it is the hands, elsewhere the captured pieces;
//! - a promoted piece carries `~` (`Q~`), a Laser Chess piece one `+` per quarter turn;
//! - castling is `KQkq` (the outermost rook on each side of the king, X-FEN), rook files
//!   (`HAha`, Shredder-FEN), or `-`; on boards wider than ten files the letters `K` and `Q` always
//!   name a side, so the right of a rook on the k- or q-file that is not the outermost on its
//!   side cannot be written (Croatian Chess setup strings keep it);
//! - missing fields take their defaults (first player to move, no castling, no en passant,
//!   clocks 0 and 1); EPD operations after the fourth field are ignored.
//!
//! ```
//! use cqlq::notation::fen;
//! use cqlq::Variant;
//!
//! let zh = Variant::by_name("Crazyhouse").unwrap();
//! let setup = fen::read::<1>(zh, "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - -")?;
//! assert_eq!(setup.backhand.total(), 10);
//! assert_eq!(fen::write(&setup, fen::CastlingStyle::XFen), "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1");
//! # Ok::<_, fen::ParseFenError>(())
//! ```

use std::fmt;

use super::rows::{self, BoardError, RowSyntax};
use crate::board::{File, Rank, Square};
use crate::position::{Backhand, Mark, Setup};
use crate::variant::vocabulary::CounterFen;
use crate::variant::{BackhandRule, CastlingRule, Color, Piece, Role, Variant};

/// How castling rights are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CastlingStyle {
    /// `K`/`Q` for the outermost rook on a side, a file letter for any other (X-FEN).
    #[default]
    XFen,
    /// Always the rook's file (Shredder-FEN: `HAha`).
    Shredder,
}

/// Why a FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseFenError {
    /// The text is empty.
    Empty,
    /// The board part.
    Board(BoardError),
    /// The backhand part.
    Backhand(String),
    /// The side to move.
    Turn(String),
    /// The castling rights.
    Castling(String),
    /// The en passant square.
    EnPassant(String),
    /// The halfmove clock or move number.
    Clock(String),
    /// The variant's counters (Three-check's `3+3`).
    Counter(String),
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseFenError::Empty => f.write_str("empty fen"),
            ParseFenError::Board(error) => write!(f, "invalid board in fen: {error}"),
            ParseFenError::Backhand(text) => write!(f, "invalid backhand in fen: {text}"),
            ParseFenError::Turn(text) => write!(f, "invalid side to move in fen: '{text}' (expected w or b)"),
            ParseFenError::Castling(text) => write!(f, "invalid castling part in fen: {text}"),
            ParseFenError::EnPassant(text) => write!(f, "invalid en passant square in fen: '{text}'"),
            ParseFenError::Clock(text) => write!(f, "invalid move counter in fen: '{text}'"),
            ParseFenError::Counter(text) => write!(f, "invalid counters in fen: '{text}'"),
        }
    }
}

impl std::error::Error for ParseFenError {}

impl From<BoardError> for ParseFenError {
    fn from(error: BoardError) -> Self {
        ParseFenError::Board(error)
    }
}

/// Reads a FEN of a variant whose boards fit in `W` words.
pub fn read<const W: usize>(variant: &'static Variant, text: &str) -> Result<Setup<W>, ParseFenError> {
    let mut fields = text.split_ascii_whitespace();
    let board_field = fields.next().ok_or(ParseFenError::Empty)?;
    let mut setup = Setup::empty(variant);
    let (board_text, backhand_text) = split_backhand(variant, board_field);
    setup.board = rows::read(variant, board_text, RowSyntax::Fen)?;
    if let Some(text) = backhand_text {
        setup.backhand = read_backhand(variant, text)?;
    }
    if let Some(turn) = fields.next() {
        setup.turn = match turn {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            _ => return Err(ParseFenError::Turn(turn.to_owned())),
        };
    }
    if let Some(castling) = fields.next() {
        read_castling(&mut setup, castling)?;
    }
    if let Some(en_passant) = fields.next()
        && en_passant != "-"
    {
        let square =
            variant.geometry.parse_square(en_passant).map_err(|_| ParseFenError::EnPassant(en_passant.to_owned()))?;
        setup.en_passant = Some(square);
    }
    let rest: Vec<&str> = fields.collect();
    let mut clocks = Vec::with_capacity(2);
    for field in rest {
        if !read_counters(&mut setup, field)? {
            clocks.push(field);
        }
    }
    let numeric = |text: &str| text.bytes().all(|b| b.is_ascii_digit());
    if clocks.first().is_some_and(|text| numeric(text)) {
        setup.halfmove_clock = parse_clock(clocks[0])?;
        if let Some(fullmove) = clocks.get(1).filter(|text| numeric(text)) {
            setup.fullmove_number = parse_clock(fullmove)?.max(1);
        }
    }
    if variant.castling == CastlingRule::Croatian {
        derive_rush_tags(&mut setup);
    }
    Ok(setup)
}

/// Reads a field that writes the variant's counters (`2+3`: what is left of the limit for
/// White and Black; `+1+0`: the counts), if the field is one; whether it was.
fn read_counters<const W: usize>(setup: &mut Setup<W>, field: &str) -> Result<bool, ParseFenError> {
    let counters = setup.variant.vocabulary().counters;
    let Some((index, limit)) = counters.iter().enumerate().find_map(|(index, counter)| match counter.fen {
        CounterFen::LeftOf { limit } => Some((index, limit)),
        CounterFen::Unwritten => None,
    }) else {
        return Ok(false);
    };
    let (counts, text) = match field.strip_prefix('+') {
        Some(text) => (true, text),
        None => (false, field),
    };
    let Some((white, black)) = text.split_once('+') else { return Ok(false) };
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    if !digits(white) || !digits(black) {
        return Ok(false);
    }
    let invalid = || ParseFenError::Counter(field.to_owned());
    let mut values = [0; 2];
    for (value, text) in values.iter_mut().zip([white, black]) {
        let number: u16 = text.parse().map_err(|_| invalid())?;
        if number > limit {
            return Err(invalid());
        }
        *value = if counts { number } else { limit - number };
    }
    setup.counters[index] = values;
    Ok(true)
}

/// The field that writes the variant's counters, as lichess writes Three-check's (`2+3`, what
/// is left of the limit), if the variant's FEN writes any.
fn write_counters<const W: usize>(setup: &Setup<W>) -> Option<String> {
    setup.variant.vocabulary().counters.iter().zip(&setup.counters).find_map(|(counter, [white, black])| match counter
        .fen
    {
        CounterFen::LeftOf { limit } => {
            Some(format!("{}+{}", limit.saturating_sub(*white), limit.saturating_sub(*black)))
        }
        CounterFen::Unwritten => None,
    })
}

fn parse_clock(text: &str) -> Result<u32, ParseFenError> {
    text.parse().map_err(|_| ParseFenError::Clock(text.to_owned()))
}

/// Separates `[hand]` or a hand row from the ranks.
fn split_backhand<'a>(variant: &Variant, field: &'a str) -> (&'a str, Option<&'a str>) {
    if let Some(open) = field.find('[') {
        let hand = field[open + 1..].strip_suffix(']').unwrap_or(&field[open + 1..]);
        return (&field[..open], Some(hand));
    }
    let ranks = usize::from(variant.geometry.ranks());
    if field.split('/').count() == ranks + 1 {
        let cut = field.rfind('/').expect("more than one rank");
        let hand = &field[cut + 1..];
        // A backhand is letters; one more rank of squares (`8`) is a board too tall.
        if hand.bytes().all(|b| b.is_ascii_alphabetic()) || hand == "-" {
            return (&field[..cut], Some(hand));
        }
    }
    (field, None)
}

fn read_backhand(variant: &Variant, text: &str) -> Result<Backhand, ParseFenError> {
    let mut backhand = Backhand::empty(variant.kinds());
    if text == "-" {
        return Ok(backhand);
    }
    if let Some(found) = text.chars().find(|c| !c.is_ascii_alphabetic()) {
        return Err(ParseFenError::Backhand(format!("'{found}' in '{text}' is no piece letter")));
    }
    let pieces = variant.split_symbols(text).map_err(|at| {
        let letters = rows::symbol_at(variant, text, at);
        ParseFenError::Backhand(format!("'{letters}' is no piece here (pieces: {})", variant.letters()))
    })?;
    for (_, piece) in pieces {
        backhand.add(piece);
    }
    Ok(backhand)
}

fn home_rank(variant: &Variant, color: Color) -> Rank {
    match color {
        Color::White => Rank::new(0).expect("rank 1"),
        Color::Black => variant.geometry.last_rank(),
    }
}

/// The rooks of a colour on its home rank, in file order, and its king there.
fn castling_pieces<const W: usize>(setup: &Setup<W>, color: Color) -> (Option<Square>, Vec<Square>) {
    let variant = setup.variant;
    let geometry = variant.geometry;
    let rank = home_rank(variant, color);
    let on_home = |square: &Square| geometry.rank_of(*square) == rank;
    let of_role =
        |role| variant.kind_of_role(role).map(|kind| setup.board.pieces(Piece { kind, color })).unwrap_or_default();
    let king = of_role(Role::King).iter().find(on_home);
    let rooks = of_role(Role::Rook).iter().filter(on_home).collect();
    (king, rooks)
}

fn read_castling<const W: usize>(setup: &mut Setup<W>, text: &str) -> Result<(), ParseFenError> {
    if text == "-" {
        return Ok(());
    }
    let variant = setup.variant;
    let geometry = variant.geometry;
    for letter in text.chars() {
        let color = Color::of_case(letter.is_ascii_uppercase());
        let (king, rooks) = castling_pieces(setup, color);
        let missing = || ParseFenError::Castling(format!("no rook for '{letter}'"));
        let no_king = || {
            let rank = home_rank(variant, color).number();
            ParseFenError::Castling(format!("no king on rank {rank} for '{letter}'"))
        };
        let king_file = king.map(|k| geometry.file_of(k));
        let rook = match letter.to_ascii_lowercase() {
            'k' => {
                let king_file = king_file.ok_or_else(no_king)?;
                rooks.iter().rev().find(|r| geometry.file_of(**r) > king_file).copied()
            }
            'q' => {
                let king_file = king_file.ok_or_else(no_king)?;
                rooks.iter().find(|r| geometry.file_of(**r) < king_file).copied()
            }
            lower if lower.is_ascii_lowercase() => {
                let Some(file) = File::from_char(lower).filter(|file| geometry.has_file(*file)) else {
                    return Err(ParseFenError::Castling(format!("'{letter}' names no file of the {geometry} board")));
                };
                rooks.iter().find(|r| geometry.file_of(**r) == file).copied()
            }
            _ => return Err(ParseFenError::Castling(format!("'{letter}' is no castling right"))),
        };
        let rook = rook.ok_or_else(missing)?;
        setup.board.set_mark(Mark::CASTLE, rook, true);
        if variant.castling == CastlingRule::Croatian
            && let Some(king) = king
        {
            setup.board.set_mark(Mark::CASTLE, king, true);
        }
    }
    Ok(())
}

/// Croatian Chess privates may rush from where the initial setup puts them.
fn derive_rush_tags<const W: usize>(setup: &mut Setup<W>) {
    let initial = Setup::<W>::initial(setup.variant);
    for kind in setup.variant.kinds_where(|piece| piece.private).iter() {
        for color in Color::ALL {
            let piece = Piece { kind, color };
            let home = setup.board.pieces(piece) & initial.board.pieces(piece);
            for square in home {
                setup.board.set_mark(Mark::RUSH, square, true);
            }
        }
    }
}

/// Writes a setup as FEN.
#[must_use]
pub fn write<const W: usize>(setup: &Setup<W>, style: CastlingStyle) -> String {
    let variant = setup.variant;
    let mut out = rows::write(variant, &setup.board, RowSyntax::Fen);
    if variant.backhand == BackhandRule::Drops || !setup.backhand.is_empty() {
        out.push('[');
        out.push_str(&write_backhand(variant, &setup.backhand));
        out.push(']');
    }
    out.push(' ');
    out.push(setup.turn.fen_char());
    out.push(' ');
    out.push_str(&write_castling(setup, style));
    out.push(' ');
    match setup.en_passant {
        Some(square) => out.push_str(&variant.geometry.square_name(square).to_string()),
        None => out.push('-'),
    }
    if let Some(counters) = write_counters(setup) {
        out.push(' ');
        out.push_str(&counters);
    }
    out.push_str(&format!(" {} {}", setup.halfmove_clock, setup.fullmove_number));
    out
}

/// The backhand's pieces, White's then Black's, from the last kind of the alphabet to the first.
pub(crate) fn write_backhand(variant: &Variant, backhand: &Backhand) -> String {
    let mut out = String::new();
    for color in Color::ALL {
        for kind in (0..variant.kinds()).rev() {
            let piece = Piece { kind: crate::variant::Kind::new(kind as u8), color };
            for _ in 0..backhand.count(piece) {
                out.push_str(&variant.symbol(piece));
            }
        }
    }
    out
}

fn write_castling<const W: usize>(setup: &Setup<W>, style: CastlingStyle) -> String {
    let geometry = setup.variant.geometry;
    let mut out = String::new();
    for color in Color::ALL {
        let (king, rooks) = castling_pieces(setup, color);
        let Some(king) = king else { continue };
        let king_file = geometry.file_of(king);
        let castling: Vec<Square> =
            rooks.iter().copied().filter(|rook| setup.board.marked(Mark::CASTLE).contains(*rook)).collect();
        // King side first, then queen side, as FEN writes them.
        let king_side = castling.iter().rev().filter(|rook| geometry.file_of(**rook) > king_file);
        let queen_side = castling.iter().filter(|rook| geometry.file_of(**rook) < king_file);
        for (side_letter, outermost, rook) in king_side
            .map(|rook| ('k', rooks.iter().rev().find(|r| geometry.file_of(**r) > king_file), rook))
            .chain(queen_side.map(|rook| ('q', rooks.iter().find(|r| geometry.file_of(**r) < king_file), rook)))
        {
            let is_outermost = outermost == Some(rook);
            let letter = match style {
                CastlingStyle::XFen if is_outermost => side_letter,
                _ => geometry.file_of(*rook).char(),
            };
            if !is_outermost && matches!(letter, 'k' | 'q') {
                continue; // It would read back as a side letter.
            }
            out.push(if color == Color::White { letter.to_ascii_uppercase() } else { letter });
        }
    }
    if out.is_empty() { "-".to_owned() } else { out }
}

/// Writes just the board part (ranks and backhand), as `fen "..."` filters compare.
#[must_use]
pub fn write_board<const W: usize>(setup: &Setup<W>) -> String {
    let mut out = rows::write(setup.variant, &setup.board, RowSyntax::Fen);
    if setup.variant.backhand == BackhandRule::Drops {
        out.push('[');
        out.push_str(&write_backhand(setup.variant, &setup.backhand));
        out.push(']');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn round_trip(variant: &str, fen: &str) {
        let variant = Variant::by_name(variant).unwrap();
        let setup = read::<1>(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(write(&setup, CastlingStyle::XFen), fen);
        Position::from_setup(setup).unwrap_or_else(|e| panic!("{fen}: {e}"));
    }

    #[test]
    fn classical_fens_round_trip() {
        round_trip("Standard", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        round_trip("Chess960", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
        round_trip("Crazyhouse", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[] w KQkq - 2 3");
        round_trip("Crazyhouse", "rnbqk2r/pppp1ppp/8/8/8/8/PPPPPPPP/RNBQ~KB1R[NNp] b KQkq - 0 5");
    }

    #[test]
    fn shredder_and_xfen_castling() {
        let chess960 = Variant::by_name("Chess960").unwrap();
        let setup = read::<1>(chess960, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf -").unwrap();
        assert_eq!(write_castling(&setup, CastlingStyle::XFen), "KQkq");
        assert_eq!(write_castling(&setup, CastlingStyle::Shredder), "HFhf");
    }

    #[test]
    fn xfen_names_inner_rooks_by_file() {
        // Two rooks on the queen side: the inner one's right is written with its file.
        let chess960 = Variant::by_name("Chess960").unwrap();
        let setup = read::<1>(chess960, "1r1r2k1/8/8/8/8/8/8/1R1R2K1 w Dd - 0 1").unwrap();
        assert!(setup.board.marked(Mark::CASTLE).contains(chess960.geometry.parse_square("d1").unwrap()));
        assert_eq!(write_castling(&setup, CastlingStyle::XFen), "Dd");
        let setup = read::<1>(chess960, "1r1r2k1/8/8/8/8/8/8/1R1R2K1 w Qq - 0 1").unwrap();
        assert_eq!(write_castling(&setup, CastlingStyle::Shredder), "Bb");
    }

    #[test]
    fn hand_as_ninth_rank() {
        let zh = Variant::by_name("Crazyhouse").unwrap();
        let bracket = read::<1>(zh, "r3k2r/8/8/8/8/8/8/R3K2R[Qp] w KQkq - 0 1").unwrap();
        let row = read::<1>(zh, "r3k2r/8/8/8/8/8/8/R3K2R/Qp w KQkq - 0 1").unwrap();
        assert_eq!(bracket, row);
    }

    #[test]
    fn big_boards_take_multi_digit_runs() {
        let one = Variant::by_name("One").unwrap();
        let mut fen = String::from("26/");
        fen.push_str(&"26/".repeat(23));
        fen.push_str("k25/K24T w - - 0 1");
        let setup = read::<11>(one, &fen).unwrap();
        assert_eq!(setup.board.occupied().count(), 3);
        assert_eq!(write(&setup, CastlingStyle::XFen), fen);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let standard = Variant::standard();
        let error = read::<1>(standard, "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w").unwrap_err();
        assert_eq!(error.to_string(), "invalid board in fen: rank 7 has 9 squares where the board has 8 files");
        let error = read::<1>(standard, "8/8/8/8/8/8/8/4K2G w").unwrap_err();
        assert_eq!(error.to_string(), "invalid board in fen: 'G' on rank 1 is no piece here (pieces: P N B R Q K)");
        let error = read::<1>(standard, "8/8/8/8/8/8/8/4K3 x").unwrap_err();
        assert_eq!(error.to_string(), "invalid side to move in fen: 'x' (expected w or b)");
        let error = read::<1>(standard, "8/8/8/8/8/8/8/4K3 w K").unwrap_err();
        assert_eq!(error.to_string(), "invalid castling part in fen: no rook for 'K'");
    }

    /// Each message names what is wrong: not a whole run of letters, some of them pieces; not
    /// a rank of squares as a backhand; not a rook where the king is missing.
    #[test]
    fn errors_name_the_wrong_thing() {
        let standard = Variant::standard();
        let zh = Variant::by_name("Crazyhouse").unwrap();
        for (variant, fen, message) in [
            (standard, "6k1/7Q/8/8/8/8/8/6K1/8 b - - 0 1", "invalid board in fen: 9 ranks where the board has 8"),
            (zh, "6k1/7Q/8/8/8/8/8/6K1/8 b - - 0 1", "invalid board in fen: 9 ranks where the board has 8"),
            (
                standard,
                "8/8/8/8/8/8/8/3KG3 w",
                "invalid board in fen: 'G' on rank 1 is no piece here (pieces: P N B R Q K)",
            ),
            (zh, "4k3/8/8/8/8/8/8/4K3[QN1] w", "invalid backhand in fen: '1' in 'QN1' is no piece letter"),
            (zh, "4k3/8/8/8/8/8/8/4K3[QNG] w", "invalid backhand in fen: 'G' is no piece here (pieces: P N B R Q K)"),
            (standard, "4k3/8/8/8/8/8/8/R6R w K", "invalid castling part in fen: no king on rank 1 for 'K'"),
            (standard, "r3k2r/8/8/8/8/8/8/4K3 w z", "invalid castling part in fen: 'z' names no file of the 8x8 board"),
        ] {
            assert_eq!(read::<1>(variant, fen).unwrap_err().to_string(), message, "{fen}");
        }
        // A backhand written as one more rank of letters still reads.
        let setup = read::<1>(standard, "4k3/8/8/8/8/8/8/4K3/Qn w").unwrap();
        assert_eq!(setup.backhand.total(), 2);
    }
}
