//! The commonest move read without building its tree: one ply of one piece, written short
//! (`Nc3`, `e4`, `Nbd2`) or long (`Ng1-f3`, `e2-e4`), with a capture mark (`*`) at most. A
//! game's moves are mostly such moves; anything else (a status mark, a link, another side
//! effect, an annotation) is left to [`read_move`](super::moves::read_move), which reads
//! every move this reader reads to the same tree.
//!
//! ```
//! use cqlq::notation::crochess::dialect::{Dialect, Edition};
//! use cqlq::notation::crochess::moves::read_move;
//! use cqlq::notation::crochess::plain::read_plain;
//!
//! let dialect = Dialect::of(Edition::Ed2020);
//! let ply = read_plain(b"Ng1-f3*", dialect, false).expect("a plain move");
//! assert_eq!(Ok(ply.to_move()), read_move("Ng1-f3*", Edition::Ed2020));
//! assert!(read_plain(b"Ng1-f3+", dialect, false).is_none());
//! ```

use super::dialect::{Dialect, Figure};
use super::moves::{Coordinates, Move, Ply, PlyBody, SideEffect, Status, Step, StepLink};

/// The largest board side, in files or ranks.
const MAX_SIDE: u8 = 26;

/// A move of one ply with at most a capture as its side effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlainPly {
    /// The piece written (none: a Pawn).
    pub piece: Option<Figure>,
    /// The start written: a field, a file, a rank or nothing.
    pub start: Coordinates,
    /// Whether the destination follows `-` (long notation) rather than standing alone.
    pub long: bool,
    /// The destination.
    pub destination: Coordinates,
    /// Whether the ply ends with `*`.
    pub capture: bool,
}

/// Reads a plain move, or gives `None` where the move is not one (or is not well written:
/// [`read_move`](super::moves::read_move) then says why). `classical` leaves the forms of
/// Classical Chess (`Nxe5`) to the full reader.
#[must_use]
pub fn read_plain(text: &[u8], dialect: &Dialect, classical: bool) -> Option<PlainPly> {
    let mut at = 0;
    let piece = match text.first() {
        Some(&letter) if letter.is_ascii_uppercase() => {
            at = 1;
            Some(dialect.by_letter[usize::from(letter - b'A')]?)
        }
        _ => None,
    };
    let first = coordinates(text, &mut at)?;
    let (start, long, destination) = if text.get(at) == Some(&b'-') {
        at += 1;
        let destination = coordinates(text, &mut at)?;
        (first, true, destination)
    } else {
        let second = coordinates(text, &mut at)?;
        if second == Coordinates::default() { (second, false, first) } else { (first, false, second) }
    };
    if !destination.is_field() || coordinates(text, &mut at)? != Coordinates::default() {
        return None;
    }
    let capture = text.get(at) == Some(&b'*');
    at += usize::from(capture);
    if at != text.len() || classical && text.contains(&b'x') {
        return None;
    }
    Some(PlainPly { piece, start, long, destination, capture })
}

impl PlainPly {
    /// The move as the full reader reads it.
    #[must_use]
    pub fn to_move(&self) -> Move {
        let mut m = Move::default();
        self.write_into(&mut m);
        m
    }

    /// Makes `m` this move, reusing its storage: a game read move by move allocates nothing.
    pub fn write_into(&self, m: &mut Move) {
        let step = Step {
            link: if self.long { StepLink::Final } else { StepLink::Destination },
            field: self.destination,
            effect: self.capture.then_some(SideEffect::Capture { piece: None, lost: None, promotion: None }),
            lost: None,
        };
        m.status = Status::default();
        m.claim = None;
        m.annotation = None;
        m.plies.truncate(1);
        if let Some(Ply { body: PlyBody::Steps { start, steps }, link, piece, lost, bracketed, column }) =
            m.plies.first_mut()
        {
            *start = self.start;
            steps.clear();
            steps.push(step);
            (*link, *piece, *lost, *bracketed, *column) = (None, self.piece, None, false, 0);
            return;
        }
        m.plies.clear();
        m.plies.push(Ply {
            link: None,
            piece: self.piece,
            lost: None,
            body: PlyBody::Steps { start: self.start, steps: vec![step] },
            bracketed: false,
            column: 0,
        });
    }
}

/// A file (`a`..`z`), a rank (1 to 26, one or two digits), both or neither from `at`, which
/// it passes; `None` for a rank off every board.
fn coordinates(text: &[u8], at: &mut usize) -> Option<Coordinates> {
    let mut field = Coordinates::default();
    if let Some(&letter) = text.get(*at).filter(|letter| letter.is_ascii_lowercase()) {
        field.file = Some(letter - b'a');
        *at += 1;
    }
    if let Some(&digit) = text.get(*at).filter(|digit| digit.is_ascii_digit()) {
        let mut rank = digit - b'0';
        *at += 1;
        if let Some(&digit) = text.get(*at).filter(|digit| digit.is_ascii_digit()) {
            rank = rank * 10 + (digit - b'0');
            *at += 1;
        }
        if rank == 0 || rank > MAX_SIDE {
            return None;
        }
        field.rank = Some(rank - 1);
    }
    Some(field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::crochess::dialect::Edition;
    use crate::notation::crochess::moves::{read_classical_move, read_move};

    /// What the full reader makes of a text where the plain reader reads it.
    fn agree(text: &str) -> bool {
        for edition in [Edition::Ed2020, Edition::Current] {
            let dialect = Dialect::of(edition);
            for classical in [false, true] {
                let Some(ply) = read_plain(text.as_bytes(), dialect, classical) else { continue };
                let full = if classical { read_classical_move(text, edition) } else { read_move(text, edition) };
                if full != Ok(ply.to_move()) {
                    return false;
                }
            }
        }
        true
    }

    #[test]
    fn plain_moves_read_as_the_full_reader_reads_them() {
        for text in ["e4", "Nc3", "Nbd2", "R1a3", "Qh4e1", "e2-e4", "Ng1-f3*", "z26*", "b26-c25", "-e4", "Pe7-e5"] {
            assert!(read_plain(text.as_bytes(), Dialect::of(Edition::Ed2020), false).is_some(), "{text}");
            assert!(agree(text), "{text}");
        }
        for text in ["e4+", "e27", "e0", "Nxe5", "Kg&", "e8=Q", "Zz1", "e4~f5", "a1b2c3", "e2-e4-e5", "e4**"] {
            assert!(read_plain(text.as_bytes(), Dialect::of(Edition::Ed2020), true).is_none(), "{text}");
        }
    }

    /// Random texts over the characters of plain moves and of their neighbours: wherever the
    /// plain reader reads one, the full reader reads the same move.
    #[test]
    fn random_texts_read_alike() {
        const ALPHABET: &[u8] = b"PNGEOKabhxz0123456789-*.+=&~";
        let mut next = crate::test_random::random_below(0x2545_f491_4f6c_dd1d);
        let mut read = 0;
        for _ in 0..200_000 {
            let length = 1 + next(8);
            let text: String = (0..length).map(|_| char::from(ALPHABET[next(ALPHABET.len())])).collect();
            read += usize::from(read_plain(text.as_bytes(), Dialect::of(Edition::Current), false).is_some());
            assert!(agree(&text), "{text}");
        }
        assert!(read > 1_000, "the texts reach plain moves ({read})");
    }
}
