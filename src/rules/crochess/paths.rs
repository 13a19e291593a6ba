//! Where a ply of the short notation starts: the side's pieces of the kind written (a Pawn where
//! none is), on the file or rank written, whose paths reach the destination through the fields
//! written (crochess.md §2, §3.1). Each piece's paths are generated from its way of moving; a
//! path passes only empty fields (Waves and Starchilds let sliders through in the current
//! edition) and ends where the ply ends.

use super::board::CroatianBoard;
use crate::board::{Square, SquareSet};
use crate::notation::crochess::dialect::Figure;
use crate::notation::crochess::moves::{Coordinates, SideEffect};
use crate::position::Mark;
use crate::variant::{Color, Edition};

/// A jump: files and ranks.
type Vector = (i32, i32);

const KNIGHT: [Vector; 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const LONG_JUMP: [Vector; 16] = [
    (1, 4),
    (4, 1),
    (4, -1),
    (1, -4),
    (-1, -4),
    (-4, -1),
    (-4, 1),
    (-1, 4),
    (2, 3),
    (3, 2),
    (3, -2),
    (2, -3),
    (-2, -3),
    (-3, -2),
    (-3, 2),
    (-2, 3),
];

/// What a ply asks of the path of its piece.
pub(super) struct Wanted<'a> {
    /// The piece, its side, and the field written before its steps (all of it, part or none).
    pub figure: Figure,
    pub color: Color,
    pub start: Coordinates,
    /// The fields the ply passes before its destination, as written.
    pub through: &'a [Square],
    /// Where the ply ends.
    pub destination: Square,
    /// What happens there.
    pub effect: Option<&'a SideEffect>,
    /// Whether a piece moves on from the destination (a cascade, a teleport, a journey): the
    /// field may then hold an own piece or a Star.
    pub goes_on: bool,
}

impl<const W: usize> CroatianBoard<W> {
    /// The fields the piece on `from` may end a ply of its own on, moving as a `figure` of
    /// its side (a Wave moves as its activator): empty fields and enemy pieces, and with
    /// `goes_on` own pieces and celestial bodies too (a cascade, a teleport goes on from there).
    /// Castling, en passant, promotions and journeys are not among them.
    #[must_use]
    pub fn ply_ends(&self, from: Square, figure: Figure, goes_on: bool) -> Vec<Square> {
        let Some((piece, _)) = self.figure_at(from) else { return Vec::new() };
        let wanted = |destination| Wanted {
            figure,
            color: piece.color,
            start: Coordinates::default(),
            through: &[],
            destination,
            effect: None,
            goes_on,
        };
        match self.far_fields(figure, from, piece.color, None) {
            // The pieces whose paths are searched: search once.
            Some(fields) => {
                fields.iter().filter(|&destination| self.may_end_on(&wanted(destination), destination)).collect()
            }
            None => {
                self.geometry().all_squares().filter(|&destination| self.reaches(&wanted(destination), from)).collect()
            }
        }
    }

    /// The fields of the side's pieces of a kind that reach `destination` with a ply as the
    /// short notation writes it: from the file or rank of `start` (or anywhere), ending with
    /// `effect`; the piece the short notation's first ply moves is the one of these.
    #[must_use]
    pub fn ply_origins(
        &self,
        figure: Figure,
        start: Coordinates,
        destination: Square,
        effect: Option<&SideEffect>,
        goes_on: bool,
    ) -> Vec<Square> {
        let color = self.setup.turn;
        self.origins(&Wanted { figure, color, start, through: &[], destination, effect, goes_on })
    }

    /// The fields of the side's pieces that may make the ply.
    pub(super) fn origins(&self, wanted: &Wanted<'_>) -> Vec<Square> {
        self.candidates(wanted).collect()
    }

    /// The field of the one piece of the side that may make the ply, if one only may.
    pub(super) fn only_origin(&self, wanted: &Wanted<'_>) -> Option<Square> {
        let mut candidates = self.candidates(wanted);
        let origin = candidates.next()?;
        candidates.next().is_none().then_some(origin)
    }

    fn candidates<'s>(&'s self, wanted: &'s Wanted<'_>) -> impl Iterator<Item = Square> + 's {
        let owner = (!matches!(wanted.figure, Figure::Monolith | Figure::Star)).then_some(wanted.color);
        let geometry = self.geometry();
        self.fields_of(wanted.figure, owner)
            .into_iter()
            .filter(move |&from| {
                wanted.start.file.is_none_or(|file| geometry.file_of(from).index() == file)
                    && wanted.start.rank.is_none_or(|rank| geometry.rank_of(from).index() == rank)
            })
            .filter(move |&from| self.reaches(wanted, from))
    }

    /// Whether the piece on `from` reaches the destination as the ply asks.
    pub(super) fn reaches(&self, wanted: &Wanted<'_>, from: Square) -> bool {
        let to = wanted.destination;
        if from == to {
            // A tagged Pawn promoting where it stands (`l14Q`).
            return matches!(wanted.effect, Some(SideEffect::Promotion(_)))
                && self.setup.board.marked(Mark::PROMOTION_TAG).contains(from);
        }
        if !self.may_end_on(wanted, to) {
            return false;
        }
        let (df, dr) = self.delta(from, to);
        let color = wanted.color;
        let forward = if color == Color::White { 1 } else { -1 };
        let ranks = i32::from(self.geometry().ranks());
        let fits = match wanted.figure {
            Figure::Pawn => self.private_reaches(wanted, from, (df, dr), forward, 1),
            Figure::Scout => {
                let limit = scout_limit(ranks);
                let line = (dr * forward > 0 && df == 0 || dr == 0 && df != 0) && df.abs().max(dr.abs()) <= limit;
                (line && self.clear_line(from, to))
                    || (df.abs() == 1 && dr == -forward && self.occupied_or_passing(to))
                    || self.private_reaches(wanted, from, (df, dr), forward, 1)
            }
            Figure::Grenadier => {
                let line = (df == 0) != (dr == 0) && df.abs().max(dr.abs()) <= 5;
                (line && self.clear_line(from, to))
                    || (df.abs() == 1 && dr.abs() == 1)
                    || self.private_reaches(wanted, from, (df, dr), forward, 1)
            }
            Figure::Knight => KNIGHT.contains(&(df, dr)),
            Figure::King => {
                df.abs().max(dr.abs()) == 1 || (dr == 0 && matches!(wanted.effect, Some(SideEffect::Castling { .. })))
            }
            Figure::Bishop => df.abs() == dr.abs() && self.clear_line(from, to),
            Figure::Rook => (df == 0 || dr == 0) && self.clear_line(from, to),
            Figure::Queen => (df == 0 || dr == 0 || df.abs() == dr.abs()) && self.clear_line(from, to),
            Figure::Pegasus => self.repeats(from, (df, dr), &KNIGHT),
            Figure::Unicorn => {
                let jumps: &[(i32, i32)] = if self.on_own_colour(from, color) { &KNIGHT } else { &LONG_JUMP };
                jumps.contains(&(df, dr))
            }
            Figure::Centaur | Figure::Serpent | Figure::Monolith => {
                self.far_fields(wanted.figure, from, color, Some(to)).is_some_and(|fields| fields.contains(to))
            }
            Figure::Shaman => {
                let (moves, captures): (&[Vector], &[Vector]) =
                    if color == Color::White { (&KNIGHT, &LONG_JUMP) } else { (&LONG_JUMP, &KNIGHT) };
                // A step onto a neighbouring field holding a Shaman entrances it (a journey
                // follows).
                let entrances = df.abs().max(dr.abs()) == 1
                    && wanted.goes_on
                    && self.figure_at(to).is_some_and(|(_, figure)| figure == Figure::Shaman);
                entrances
                    || self.repeats(from, (df, dr), moves)
                    || self.repeats_through_anything(from, (df, dr), captures)
            }
            Figure::Starchild => {
                let miracle = df.abs().max(dr.abs()) == 1;
                miracle || self.geometry().is_light(from) != self.geometry().is_light(to)
            }
            // Passive and immovable pieces start no move of their own.
            Figure::Pyramid | Figure::Wave | Figure::Star => false,
        };
        fits && self.passes_through(from, wanted.through)
    }

    /// Pawn-like moves of a private: a step forward (sideways from Nineteen on, now), a rush
    /// from its first fields, a capture diagonally forward (en passant too).
    fn private_reaches(
        &self,
        wanted: &Wanted<'_>,
        from: Square,
        (df, dr): (i32, i32),
        forward: i32,
        step: i32,
    ) -> bool {
        let to = wanted.destination;
        let files = i32::from(self.geometry().files());
        let occupied = self.setup.board.occupied().contains(to);
        let en_passant = matches!(wanted.effect, Some(SideEffect::EnPassant { .. }));
        if df == 0 && dr == forward * step {
            return !occupied || wanted.goes_on;
        }
        if df == 0 && dr * forward >= 2 {
            // A rush: up to the last rank of the own half.
            let rank = i32::from(self.geometry().rank_of(to).index());
            let half = files / 2;
            let in_own_half = if forward > 0 { rank < half } else { rank >= files - half };
            return self.setup.board.marked(Mark::RUSH).contains(from)
                && in_own_half
                && self.clear_line(from, to)
                && (!occupied || wanted.goes_on);
        }
        if df.abs() == 1 && dr == forward {
            return occupied || en_passant;
        }
        let sideways = self.edition == Edition::Current && files >= 18;
        df.abs() == 1 && dr == 0 && sideways && (!occupied || wanted.goes_on)
    }

    /// Whether a ply may end on `to`: an empty field, an enemy piece (taken), or, where a
    /// piece moves on from there, an own piece, a Wave or a celestial body.
    fn may_end_on(&self, wanted: &Wanted<'_>, to: Square) -> bool {
        match self.figure_at(to) {
            None => true,
            Some((piece, figure)) => {
                let enemy = piece.color != wanted.color;
                let celestial = matches!(figure, Figure::Star | Figure::Monolith);
                (enemy && !celestial && figure != Figure::King)
                    || wanted.goes_on
                    || matches!(wanted.effect, Some(SideEffect::Promotion(_)))
            }
        }
    }

    fn delta(&self, from: Square, to: Square) -> (i32, i32) {
        let geometry = self.geometry();
        (
            i32::from(geometry.file_of(to).index()) - i32::from(geometry.file_of(from).index()),
            i32::from(geometry.rank_of(to).index()) - i32::from(geometry.rank_of(from).index()),
        )
    }

    fn offset(&self, square: Square, (df, dr): (i32, i32)) -> Option<Square> {
        let geometry = self.geometry();
        geometry.square_at(
            i32::from(geometry.file_of(square).index()) + df,
            i32::from(geometry.rank_of(square).index()) + dr,
        )
    }

    /// Whether a field lets a slider through: empty, or (now) a Wave or a Starchild.
    fn passable(&self, square: Square) -> bool {
        match self.figure_at(square) {
            None => !self.setup.board.occupied().contains(square),
            Some((_, figure)) => self.edition == Edition::Current && matches!(figure, Figure::Wave | Figure::Starchild),
        }
    }

    fn occupied_or_passing(&self, to: Square) -> bool {
        self.setup.board.occupied().contains(to)
    }

    /// Whether the fields strictly between two fields on a line let a slider through.
    fn clear_line(&self, from: Square, to: Square) -> bool {
        let (df, dr) = self.delta(from, to);
        if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return false;
        }
        let unit = (df.signum(), dr.signum());
        let mut at = from;
        for _ in 1..df.abs().max(dr.abs()) {
            at = self.offset(at, unit).expect("fields between two fields lie on the board");
            if !self.passable(at) {
                return false;
            }
        }
        true
    }

    /// Whether `delta` is one of `vectors` taken one or more times, every landing before the
    /// last empty (a Pegasus, a light Shaman's movement).
    fn repeats(&self, from: Square, delta: (i32, i32), vectors: &[(i32, i32)]) -> bool {
        self.repetitions(delta, vectors).is_some_and(|(vector, times)| {
            let mut at = from;
            (1..times).all(|_| {
                at = self.offset(at, vector).expect("landings before the destination lie on the board");
                !self.setup.board.occupied().contains(at)
            })
        })
    }

    /// Whether `delta` is one of `vectors` taken one or more times, whatever stands between (a
    /// Shaman's capture-ply takes each enemy on its way).
    fn repeats_through_anything(&self, _from: Square, delta: (i32, i32), vectors: &[(i32, i32)]) -> bool {
        self.repetitions(delta, vectors).is_some()
    }

    fn repetitions(&self, (df, dr): (i32, i32), vectors: &[(i32, i32)]) -> Option<((i32, i32), i32)> {
        vectors.iter().find_map(|&(vf, vr)| {
            let times = if vf != 0 { df / vf } else { dr / vr };
            (times >= 1 && vf * times == df && vr * times == dr).then_some(((vf, vr), times))
        })
    }

    /// The fields a piece whose paths are searched (Centaur, Serpent, Monolith) may land on at
    /// the end of a ply from `from`; `None` for the other pieces. The search stops once it
    /// finds `until` (the fields found so far are given).
    fn far_fields(&self, figure: Figure, from: Square, color: Color, until: Option<Square>) -> Option<SquareSet<W>> {
        match figure {
            Figure::Centaur => Some(self.centaur_fields(from, color, until)),
            Figure::Serpent => Some(self.serpent_fields(from, until)),
            Figure::Monolith => Some(self.monolith_fields(from, until)),
            _ => None,
        }
    }

    /// A Centaur alternates short (knight) and long jumps, the first as the Unicorn would from
    /// its field, each pair of vectors repeated until it is blocked or leaves the board.
    fn centaur_fields(&self, from: Square, color: Color, until: Option<Square>) -> SquareSet<W> {
        let short_first = self.on_own_colour(from, color);
        let (first, second): (&[Vector], &[Vector]) =
            if short_first { (&KNIGHT, &LONG_JUMP) } else { (&LONG_JUMP, &KNIGHT) };
        let occupied = self.setup.board.occupied();
        let mut fields = SquareSet::EMPTY;
        for &one in first {
            for &two in second {
                let mut at = from;
                for index in 0..self.geometry().squares() {
                    let Some(next) = self.offset(at, if index % 2 == 0 { one } else { two }) else { break };
                    if next == from {
                        break;
                    }
                    fields.add(next);
                    if until == Some(next) {
                        return fields;
                    }
                    if occupied.contains(next) {
                        break;
                    }
                    at = next;
                }
            }
        }
        fields
    }

    /// A Serpent steps diagonally, alternating between the two diagonals, over empty fields, up
    /// to its limit of steps.
    fn serpent_fields(&self, from: Square, until: Option<Square>) -> SquareSet<W> {
        let ranks = i32::from(self.geometry().ranks());
        let limit = match self.edition {
            Edition::Ed2020 => (ranks + 2) / 3,
            Edition::Current => ranks / 2 + 3,
        };
        let occupied = self.setup.board.occupied();
        let mut fields = SquareSet::EMPTY;
        // Empty fields reached, by the diagonal of the last step: 0 rising, 1 falling.
        let mut seen = [SquareSet::<W>::EMPTY; 2];
        let mut frontier = vec![(from, 0usize), (from, 1usize)];
        for _ in 0..limit {
            let mut next = Vec::new();
            for (at, last) in frontier {
                let diagonal: [Vector; 2] = if last == 0 { [(1, -1), (-1, 1)] } else { [(1, 1), (-1, -1)] };
                for vector in diagonal {
                    let Some(field) = self.offset(at, vector) else { continue };
                    fields.add(field);
                    if until == Some(field) {
                        return fields;
                    }
                    let parity = 1 - last;
                    if !occupied.contains(field) && !seen[parity].contains(field) {
                        seen[parity].add(field);
                        next.push((field, parity));
                    }
                }
            }
            frontier = next;
        }
        fields.discard(from);
        fields
    }

    /// A Monolith's steps land on empty fields only: in 2020 up to three knight steps; now
    /// step k jumps a distance of 2k+1 (both coordinates moving). It may end on a Star.
    fn monolith_fields(&self, from: Square, until: Option<Square>) -> SquareSet<W> {
        let occupied = self.setup.board.occupied();
        let stars = self.fields_of(Figure::Star, None);
        let steps = if self.edition == Edition::Ed2020 { 3 } else { 8 };
        let mut fields = SquareSet::EMPTY;
        let mut frontier = vec![from];
        let mut seen = SquareSet::<W>::EMPTY;
        for step in 1..=steps {
            let radius: i32 = if self.edition == Edition::Ed2020 { 3 } else { 2 * step + 1 };
            let mut next = Vec::new();
            for &at in &frontier {
                for df in -(radius - 1)..radius {
                    let dr_abs = radius - df.abs();
                    if df == 0 || dr_abs == 0 {
                        continue;
                    }
                    for dr in [dr_abs, -dr_abs] {
                        let Some(field) = self.offset(at, (df, dr)) else { continue };
                        if stars.contains(field) {
                            fields.add(field);
                        }
                        if !occupied.contains(field) && !seen.contains(field) {
                            seen.add(field);
                            fields.add(field);
                            next.push(field);
                        }
                        if until == Some(field) && fields.contains(field) {
                            return fields;
                        }
                    }
                }
            }
            frontier = next;
        }
        fields.discard(from);
        fields
    }

    /// Whether the fields written between the start and the destination lie, in order, on a
    /// straight path from `from` (the pieces whose plies go along one line); other pieces' paths
    /// are not checked against them.
    fn passes_through(&self, from: Square, through: &[Square]) -> bool {
        let mut at = from;
        for &field in through {
            let (df, dr) = self.delta(at, field);
            if df == 0 && dr == 0 {
                return false;
            }
            at = field;
        }
        true
    }
}

/// The longest ply of a Scout (crochess.md §2).
fn scout_limit(ranks: i32) -> i32 {
    match ranks {
        ..=20 => 5,
        21..=24 => 6,
        _ => 7,
    }
}
