//! The dual trance-journey (`@@`) of a dark Shaman entranced by a dark Shaman: it takes every
//! piece, own or not, on the step-fields of both dark spirals around its field (but Kings,
//! Stars and Monoliths), and is oblated. The takes are the rules', not the player's: a record
//! may list them (`He12@@P,B,R`, `Pq16,Bp14`), and the list must be those pieces; where it
//! lists none, they are worked out.

use super::board::CroatianBoard;
use super::journal::Journal;
use super::play::Record;
use crate::board::Square;
use crate::notation::MoveErrorKind;
use crate::notation::crochess::dialect::Figure;
use crate::notation::crochess::moves::{Coordinates, PlyBody};

/// The first step of a dark Shaman's spiral, a knight's vector; each step after it is one
/// longer and turns clockwise by a right angle, and the second spiral is the first turned by
/// half a turn.
const DARK_FIRST_STEP: (i32, i32) = (1, 2);

impl<const W: usize> CroatianBoard<W> {
    /// The fields of the board a dark Shaman's spirals from `from` pass, each spiral in its
    /// order (the fields off the board count, and are left out).
    pub(super) fn dark_spiral_fields(&self, from: Square) -> Vec<Square> {
        let geometry = self.geometry();
        let (file, rank) = (i32::from(geometry.file_of(from).index()), i32::from(geometry.rank_of(from).index()));
        // A step k fields long leaves a board of this size for good once k exceeds it twice.
        let steps = 2 * i32::from(geometry.files().max(geometry.ranks())) + 2;
        let mut fields = Vec::new();
        for turn in [1, -1] {
            let (mut df, mut dr) = (DARK_FIRST_STEP.0 * turn, DARK_FIRST_STEP.1 * turn);
            let (mut at_file, mut at_rank) = (file, rank);
            for length in 1..=steps {
                at_file += length * df;
                at_rank += length * dr;
                fields.extend(geometry.square_at(at_file, at_rank));
                // A right angle clockwise: (x, y) becomes (y, -x).
                (df, dr) = (dr, -df);
            }
        }
        fields
    }

    /// Plays a dual trance-journey of the Shaman lifted from `from`: its takes, checked against
    /// the pieces `body` lists, if it lists any.
    pub(super) fn dual_journey(
        &mut self,
        from: Square,
        body: &PlyBody,
        record: &mut Record<W>,
        journal: &mut Journal<W>,
    ) -> Result<(), (MoveErrorKind, String)> {
        let taken: Vec<(Square, Figure)> = self
            .dark_spiral_fields(from)
            .into_iter()
            .filter_map(|square| Some((square, self.figure_at(square)?.1)))
            .filter(|(_, figure)| !matches!(figure, Figure::King | Figure::Star | Figure::Monolith))
            .collect();
        if let PlyBody::Pieces(listed) = body {
            self.check_listed(&taken, listed)?;
        } else if !matches!(body, PlyBody::Unwritten) {
            return Err((MoveErrorKind::Illegal, "a dual trance-journey lists the pieces it takes".to_owned()));
        }
        for (square, _) in taken {
            let (piece, _) = self.figure_at(square).expect("a piece to take");
            self.capture(square, piece, record, journal);
        }
        Ok(())
    }

    /// Whether the pieces a record lists are the pieces the journey takes: as many, each of
    /// the kind written, on the field written where one is.
    fn check_listed(
        &self,
        taken: &[(Square, Figure)],
        listed: &[(Figure, Coordinates)],
    ) -> Result<(), (MoveErrorKind, String)> {
        let geometry = self.geometry();
        let mut left: Vec<(Square, Figure)> = taken.to_vec();
        // The pieces listed with their fields first, so that a bare letter takes what is left.
        let mut order: Vec<&(Figure, Coordinates)> = listed.iter().collect();
        order.sort_by_key(|(_, at)| u8::from(!at.is_field()) + u8::from(at.file.is_none() && at.rank.is_none()));
        for (figure, at) in order {
            let fits = |(square, found): &(Square, Figure)| {
                found == figure
                    && at.file.is_none_or(|file| geometry.file_of(*square).index() == file)
                    && at.rank.is_none_or(|rank| geometry.rank_of(*square).index() == rank)
            };
            let index = left
                .iter()
                .position(fits)
                .ok_or_else(|| (MoveErrorKind::Illegal, format!("the journey takes no {} as listed", figure.name())))?;
            left.swap_remove(index);
        }
        if let Some((square, figure)) = left.first() {
            return Err((
                MoveErrorKind::Illegal,
                format!(
                    "the journey takes {} pieces, the record lists {}: the {} on {} too",
                    taken.len(),
                    listed.len(),
                    figure.name(),
                    geometry.square_name(*square)
                ),
            ));
        }
        Ok(())
    }
}
