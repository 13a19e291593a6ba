//! Playing a move of the notation on a [`CroatianBoard`]: each ply lifts its piece, walks its
//! steps with their side effects, and ends where the next ply goes on (a cascade's activated
//! piece, a teleport's emergence, a journey, a Pawn-sacrifice's Serpent) or where the move ends.
//! Every change is journalled, so that a move that fails leaves the board as it was.

use super::board::CroatianBoard;
use super::journal::Journal;
use super::paths::Wanted;
use crate::board::{Square, SquareSet};
use crate::notation::MoveErrorKind;
use crate::notation::crochess::dialect::{Figure, Link};
use crate::notation::crochess::moves::{Coordinates, Move, Ply, PlyBody, SideEffect, Step, StepLink};
use crate::position::{Mark, MoveFacts, Wing};
use crate::variant::{Color, Piece, croatian};

/// A move as played: what queries see of it.
#[derive(Clone, Copy, Debug)]
pub struct Played<const W: usize> {
    /// The first ply's piece, from and to, the first capture and promotion, the actions.
    pub facts: MoveFacts,
    /// The fields of the pieces the move took or oblated besides its first capture.
    pub removed: SquareSet<W>,
    /// Another piece the move moved: the first displaced or activated one, from and to.
    pub displaced: Option<(Square, Square)>,
}

/// Why a move could not be played: which ply, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayError {
    /// The kind of failure.
    pub kind: MoveErrorKind,
    /// The ply, from 1.
    pub ply: usize,
    /// Why, in words.
    pub reason: String,
}

/// The piece a ply moves, lifted off the board.
#[derive(Clone, Copy, Debug)]
struct Hand {
    piece: Piece,
    figure: Figure,
    /// Where it stands as the ply starts (none after a teleport, until it emerges).
    at: Option<Square>,
}

/// What a move did, gathered as its plies are played.
pub(super) struct Record<const W: usize> {
    mover: Option<(Square, Square, Piece)>,
    capture: Option<(Square, Piece)>,
    en_passant: bool,
    castle: Option<Wing>,
    promotion: Option<crate::variant::Kind>,
    actions: u16,
    removed: SquareSet<W>,
    displaced: Option<(Square, Square)>,
    rushed: SquareSet<W>,
    momentum: u32,
}

impl<const W: usize> Record<W> {
    fn act(&mut self, action: u8) {
        self.actions |= 1 << action;
    }

    fn took(&mut self, square: Square, piece: Piece) {
        if self.capture.is_none() {
            self.capture = Some((square, piece));
        } else {
            self.removed.add(square);
        }
    }
}

impl<const W: usize> CroatianBoard<W> {
    /// Plays a move; on an error the board is unchanged.
    pub(super) fn play_move(&mut self, m: &Move) -> Result<Played<W>, PlayError> {
        let result = self.play_journalled(m, None);
        let candidates = std::mem::take(&mut self.journal.candidates);
        match result {
            Err(error) if error.kind == MoveErrorKind::Ambiguous && !candidates.is_empty() => {
                // Several pieces fit the first ply: keep those with which the whole move can be
                // played (a cascade that needs the field one of them stands on).
                let fits: Vec<Square> = candidates
                    .iter()
                    .copied()
                    .filter(|&origin| self.clone().play_journalled(m, Some(origin)).is_ok())
                    .collect();
                match fits.as_slice() {
                    [origin] => self.play_journalled(m, Some(*origin)),
                    _ => Err(error),
                }
            }
            result => result,
        }
    }

    /// Plays a move, its first ply from `origin` where given; on an error the board is as it
    /// was.
    fn play_journalled(&mut self, m: &Move, origin: Option<Square>) -> Result<Played<W>, PlayError> {
        let mut journal = std::mem::take(&mut self.journal);
        let result = self.play_plies(m, &mut journal, origin);
        if result.is_err() {
            for &(square, piece, marks) in journal.saved.iter().rev() {
                self.restore(square, piece, marks);
            }
            for &(piece, added) in journal.backhand.iter().rev() {
                if added {
                    self.setup.backhand.remove(piece);
                } else {
                    self.setup.backhand.add(piece);
                }
            }
        }
        journal.touched = SquareSet::EMPTY;
        journal.saved.clear();
        journal.backhand.clear();
        self.journal = journal;
        result
    }

    fn play_plies(
        &mut self,
        m: &Move,
        journal: &mut Journal<W>,
        origin: Option<Square>,
    ) -> Result<Played<W>, PlayError> {
        let color = self.setup.turn;
        let rushed_before = self.setup.board.marked(Mark::RUSHED);
        let mut record = Record {
            mover: None,
            capture: None,
            en_passant: false,
            castle: None,
            promotion: None,
            actions: 0,
            removed: SquareSet::EMPTY,
            displaced: None,
            rushed: SquareSet::EMPTY,
            momentum: 0,
        };
        if m.plies.is_empty() {
            return Err(PlayError { kind: MoveErrorKind::Unreadable, ply: 0, reason: "the move has no ply".into() });
        }
        let mut hand: Option<Hand> = None;
        // Where the last two plies ended, the last first.
        let mut ends: [Option<Square>; 2] = [None; 2];
        for (index, ply) in m.plies.iter().enumerate() {
            let fail = |kind, reason: String| PlayError { kind, ply: index + 1, reason };
            let next = m.plies.get(index + 1).and_then(|next| next.link);
            let mut current = match ply.link {
                None => self.lift_first(ply, color, next.is_some(), origin, journal).map_err(|(k, r)| fail(k, r))?,
                Some(Link::FailedTeleport | Link::Oblation) => {
                    // The piece that entered the body finds no field free: it leaves play.
                    let gone = hand.take().ok_or_else(|| fail(MoveErrorKind::Illegal, "no piece teleports".into()))?;
                    self.oblate(gone.piece, &mut record, journal);
                    if let Some(body) = ends[0] {
                        record.removed.add(body);
                    }
                    continue;
                }
                Some(Link::PawnSacrifice) => {
                    // The Serpent that activated the Pyramid moves on from where it stands.
                    let serpent_at = ends[1]
                        .ok_or_else(|| fail(MoveErrorKind::Illegal, "no Serpent before the Pawn-sacrifice".into()))?;
                    self.lift(serpent_at, journal).ok_or_else(|| fail(MoveErrorKind::Illegal, "no Serpent".into()))?
                }
                Some(_) => hand.take().ok_or_else(|| fail(MoveErrorKind::Illegal, "no piece moves on".into()))?,
            };
            if let Some(figure) = ply.piece
                && figure != current.figure
                && !matches!(ply.link, Some(Link::Teleport | Link::Reemergence))
            {
                return Err(fail(
                    MoveErrorKind::Illegal,
                    format!("the piece that moves on is a {}, not a {}", current.figure.name(), figure.name()),
                ));
            }
            // Where the move's piece starts: where the first ply lifted it.
            let origin = if index == 0 { current.at } else { None };
            if matches!(ply.link, Some(Link::TranceJourney | Link::SenseJourney)) {
                record.act(croatian::JOURNEY);
            }
            let end = match &ply.body {
                PlyBody::Steps { start, steps } => {
                    if current.at.is_none() && start.is_field() {
                        current.at = self.field(*start);
                    }
                    self.walk(&mut current, steps, &mut record, journal).map_err(|(k, r)| fail(k, r))?
                }
                PlyBody::Uplift { from, ply: body } => {
                    // A sense-journey lifts the piece on `from` and moves it.
                    let from = self.field(*from).ok_or_else(|| {
                        fail(MoveErrorKind::Illegal, "the uplifted piece's field is not written".into())
                    })?;
                    let uplifted = self
                        .lift(from, journal)
                        .ok_or_else(|| fail(MoveErrorKind::Illegal, "no piece to uplift".into()))?;
                    self.put(current.at.unwrap_or(from), current.piece, journal);
                    current = uplifted;
                    let PlyBody::Steps { steps, .. } = &**body else {
                        return Err(fail(MoveErrorKind::Illegal, "the uplifted piece goes nowhere".into()));
                    };
                    self.walk(&mut current, steps, &mut record, journal).map_err(|(k, r)| fail(k, r))?
                }
                PlyBody::Pieces(_) | PlyBody::Unwritten if ply.link == Some(Link::DualTranceJourney) => {
                    // The entranced Shaman takes what its spirals pass, and is oblated.
                    let from = current.at.ok_or_else(|| fail(MoveErrorKind::Illegal, "no Shaman journeys".into()))?;
                    self.dual_journey(from, &ply.body, &mut record, journal).map_err(|(k, r)| fail(k, r))?;
                    self.oblate(current.piece, &mut record, journal);
                    continue;
                }
                PlyBody::Pieces(_) => {
                    return Err(fail(MoveErrorKind::Illegal, "only a dual trance-journey lists pieces".into()));
                }
                PlyBody::Unwritten => {
                    return Err(fail(
                        MoveErrorKind::Illegal,
                        "the ply writes no field: where a journey ends and what it takes are the player's choice"
                            .into(),
                    ));
                }
            };
            if index == 0 {
                record.mover = Some((origin.unwrap_or(end), end, current.piece));
            }
            ends = [Some(end), ends[0]];
            self.end_ply(current, end, ply, next, &mut hand, &mut record, journal).map_err(|(k, r)| fail(k, r))?;
        }
        self.finish_move(color, rushed_before, record.rushed, record.momentum);
        let (from, to, mover) = record.mover.expect("the first ply sets the mover");
        let mut facts = MoveFacts::new(Some(from), to, mover);
        if let Some((square, piece)) = record.capture {
            facts = if record.en_passant { facts.en_passant_of(square, piece) } else { facts.capturing(square, piece) };
        }
        if let Some(kind) = record.promotion {
            facts = facts.promoting(kind);
        }
        if let Some(wing) = record.castle {
            facts = facts.castling(wing);
        }
        for action in 0..16u8 {
            if record.actions >> action & 1 == 1 {
                facts = facts.acting(action);
            }
        }
        Ok(Played { facts, removed: record.removed, displaced: record.displaced })
    }

    /// Lifts the piece the first ply moves: from the field written, else the one piece of the
    /// side whose paths fit the ply.
    fn lift_first(
        &mut self,
        ply: &Ply,
        color: Color,
        goes_on: bool,
        forced: Option<Square>,
        journal: &mut Journal<W>,
    ) -> Result<Hand, (MoveErrorKind, String)> {
        let figure = ply.piece.unwrap_or(Figure::Pawn);
        let steps = ply.steps();
        let last = steps.last().ok_or_else(|| (MoveErrorKind::Illegal, "the ply goes nowhere".to_owned()))?;
        let start = ply.start();
        let from_field = if start.is_field() { self.field(start) } else { None };
        let destination = match self.destination(last, from_field) {
            Some(destination) => destination,
            None if matches!(last.effect, Some(SideEffect::Castling { .. })) => {
                // Castling writes the King's file: the rank is the King's own.
                let home = self.home_rank(color);
                self.field(Coordinates { file: last.field.file, rank: Some(home) })
                    .ok_or_else(|| (MoveErrorKind::Illegal, "the King's field is off the board".to_owned()))?
            }
            None => return Err((MoveErrorKind::Illegal, "the destination is off the board".to_owned())),
        };
        let through: Vec<Square> = steps[..steps.len() - 1].iter().filter_map(|step| self.field(step.field)).collect();
        let wanted =
            Wanted { figure, color, start, through: &through, destination, effect: last.effect.as_ref(), goes_on };
        let origin = match forced.or(from_field) {
            Some(field) => {
                let found = self.figure_at(field);
                let own = |piece: Piece| piece.color == color || matches!(figure, Figure::Monolith);
                match found {
                    // A ply written from its field to its destination in one step goes where the
                    // piece's paths go (longer plies are journeys and captures along the way).
                    Some((piece, found))
                        if found == figure
                            && own(piece)
                            && forced.is_none()
                            && steps.len() == 1
                            && !self.reaches(&wanted, field) =>
                    {
                        let name = |square: Square| self.geometry().square_name(square).to_string();
                        return Err((
                            MoveErrorKind::Illegal,
                            format!("the {} on {} does not reach {}", figure.name(), name(field), name(destination)),
                        ));
                    }
                    Some((piece, found)) if found == figure && own(piece) => field,
                    _ => {
                        let name = self.geometry().square_name(field);
                        return Err((
                            MoveErrorKind::Illegal,
                            format!("no {} of the side to move on {name}", figure.name()),
                        ));
                    }
                }
            }
            None => {
                let origins = self.origins(&wanted);
                let name = |square: Square| self.geometry().square_name(square).to_string();
                match origins.as_slice() {
                    [origin] => *origin,
                    [] => {
                        return Err((
                            MoveErrorKind::Illegal,
                            format!("no {} of the side to move reaches {}", figure.name(), name(destination)),
                        ));
                    }
                    many => {
                        journal.candidates = many.to_vec();
                        let fields: Vec<String> = many.iter().map(|&square| name(square)).collect();
                        return Err((
                            MoveErrorKind::Ambiguous,
                            format!("the {}s on {} all reach {}", figure.name(), fields.join(", "), name(destination)),
                        ));
                    }
                }
            }
        };
        if origin == destination {
            // A tagged Pawn promoting where it stands.
            let (piece, figure) = self.figure_at(origin).expect("the origin holds the piece");
            return Ok(Hand { piece, figure, at: Some(origin) });
        }
        Ok(self.lift(origin, journal).expect("the origin holds the piece"))
    }

    /// Walks a ply's steps, applying the side effects on the way; gives the destination (the
    /// effects there are the ply's end's).
    fn walk(
        &mut self,
        hand: &mut Hand,
        steps: &[Step],
        record: &mut Record<W>,
        journal: &mut Journal<W>,
    ) -> Result<Square, (MoveErrorKind, String)> {
        let (last, passed) =
            steps.split_last().ok_or_else(|| (MoveErrorKind::Illegal, "the ply goes nowhere".to_owned()))?;
        // The fields the ply has passed, to count a Centaur's jumps across a gap.
        // The last three fields the ply passed, the oldest first.
        let mut path = Path::default();
        if let Some(at) = hand.at {
            path.push(at);
        }
        for step in passed {
            let field = self
                .field(step.field)
                .ok_or_else(|| (MoveErrorKind::Illegal, "a field of the ply is not written in full".to_owned()))?;
            if step.link == StepLink::Reposition {
                hand.at = Some(field);
                continue;
            }
            record.momentum += hand.at.map_or(1, |at| self.momentum(hand.figure, path.fields(), at, field));
            path.push(field);
            match &step.effect {
                Some(SideEffect::Capture { .. }) => {
                    let (piece, _) = self
                        .figure_at(field)
                        .ok_or_else(|| (MoveErrorKind::Illegal, format!("nothing to take on {}", self.name(field))))?;
                    self.capture(field, piece, record, journal);
                }
                Some(SideEffect::Displacement { to, .. }) => self.displace(field, *to, record, journal)?,
                _ => {}
            }
            hand.at = Some(field);
        }
        let destination = match self.destination(last, hand.at) {
            Some(destination) => destination,
            None => return Err((MoveErrorKind::Illegal, "the destination is not written in full".to_owned())),
        };
        record.momentum += hand.at.map_or(1, |at| self.momentum(hand.figure, path.fields(), at, destination));
        Ok(destination)
    }

    /// Ends a ply on its destination: its side effect there, then what the next ply needs.
    #[allow(clippy::too_many_arguments)]
    fn end_ply(
        &mut self,
        hand: Hand,
        end: Square,
        ply: &Ply,
        next: Option<Link>,
        following: &mut Option<Hand>,
        record: &mut Record<W>,
        journal: &mut Journal<W>,
    ) -> Result<(), (MoveErrorKind, String)> {
        let last = ply.steps().last();
        let effect = last.and_then(|step| step.effect.as_ref());
        let mut piece = hand.piece;
        let start = hand.at;
        match effect {
            Some(SideEffect::Castling { rook }) => return self.castle(hand, end, *rook, record, journal),
            Some(SideEffect::EnPassant { at, .. }) => {
                let victim = self.en_passant_victim(end, *at, piece.color)?;
                let (taken, _) = self.figure_at(victim).expect("the victim stands there");
                self.capture(victim, taken, record, journal);
                record.en_passant = record.capture.is_some_and(|(square, _)| square == victim);
            }
            Some(SideEffect::Capture { promotion, .. }) => {
                let (taken, _) = self
                    .figure_at(end)
                    .ok_or_else(|| (MoveErrorKind::Illegal, format!("nothing to take on {}", self.name(end))))?;
                self.capture(end, taken, record, journal);
                if let Some(figure) = promotion {
                    piece = self.promote(piece, *figure, record)?;
                }
            }
            Some(SideEffect::Promotion(figure)) => {
                if start == Some(end) {
                    self.lift(end, journal);
                } else {
                    self.take_default(end, piece.color, record, journal)?;
                }
                piece = self.promote(piece, *figure, record)?;
            }
            Some(SideEffect::PromotionTag) => {
                self.take_default(end, piece.color, record, journal)?;
                self.put(end, piece, journal);
                self.setup.board.set_mark(Mark::PROMOTION_TAG, end, true);
                record.act(croatian::PROMOTION);
                return Ok(());
            }
            Some(SideEffect::Conversion { .. }) => {
                // The Pyramid turns the enemy piece to its side, and is gone.
                let (target, figure) = self
                    .figure_at(end)
                    .ok_or_else(|| (MoveErrorKind::Illegal, format!("nothing to convert on {}", self.name(end))))?;
                if target.color == piece.color || figure == Figure::King {
                    return Err((MoveErrorKind::Illegal, format!("the {} cannot be converted", figure.name())));
                }
                self.lift(end, journal);
                self.put(end, Piece { kind: target.kind, color: piece.color }, journal);
                record.act(croatian::CONVERSION);
                return Ok(());
            }
            Some(SideEffect::FailedConversion) => {
                // The Pyramid that found nothing to convert leaves play.
                record.act(croatian::CONVERSION);
                self.oblate(piece, record, journal);
                return Ok(());
            }
            Some(SideEffect::Displacement { to, .. }) => self.displace(end, *to, record, journal)?,
            _ => {}
        }
        match next {
            Some(Link::Cascade | Link::TranceJourney | Link::DualTranceJourney | Link::FailedTranceJourney) => {
                let activated = self
                    .lift(end, journal)
                    .ok_or_else(|| (MoveErrorKind::Illegal, format!("no piece on {} to move on", self.name(end))))?;
                self.put(end, piece, journal);
                if record.displaced.is_none() {
                    record.displaced = Some((end, end));
                }
                if next == Some(Link::Cascade) {
                    record.act(croatian::CASCADE);
                }
                *following = Some(activated);
            }
            Some(Link::SenseJourney | Link::FailedSenseJourney) => {
                self.put(end, piece, journal);
                *following = Some(Hand { piece, figure: hand.figure, at: Some(end) });
            }
            Some(Link::Teleport | Link::Reemergence | Link::FailedTeleport | Link::Oblation) => {
                let body = self.figure_at(end).map(|(_, figure)| figure);
                if !matches!(body, Some(Figure::Star | Figure::Monolith)) {
                    return Err((
                        MoveErrorKind::Illegal,
                        format!("no Star or Monolith on {} to teleport", self.name(end)),
                    ));
                }
                record.act(croatian::TELEPORT);
                *following = Some(Hand { piece, figure: hand.figure, at: None });
            }
            Some(Link::PawnSacrifice) => {
                // The Pyramid lands on an own Pawn, which is oblated.
                let (pawn, figure) = self
                    .figure_at(end)
                    .ok_or_else(|| (MoveErrorKind::Illegal, format!("no Pawn on {} to sacrifice", self.name(end))))?;
                if figure != Figure::Pawn || pawn.color != piece.color {
                    return Err((MoveErrorKind::Illegal, format!("no own Pawn on {} to sacrifice", self.name(end))));
                }
                self.lift(end, journal);
                record.removed.add(end);
                self.oblate(pawn, record, journal);
                self.put(end, piece, journal);
            }
            None => {
                if !matches!(effect, Some(SideEffect::Capture { .. } | SideEffect::EnPassant { .. })) {
                    self.take_default(end, piece.color, record, journal)?;
                }
                self.put(end, piece, journal);
                if hand.figure.is_private() && piece.kind == hand.piece.kind {
                    self.note_rush(start, end, piece.color, record);
                }
                self.after_effects(effect, end, piece.color, record, journal)?;
            }
        }
        // An activated piece keeps its way through the cascade: only where it comes to rest
        // does the move end for it.
        if let (Some(displaced), true) = (record.displaced, following.is_some()) {
            record.displaced = Some((displaced.0, end));
        }
        Ok(())
    }

    /// The effects that follow a ply's landing: a Monolith's demotion, a resurrection.
    fn after_effects(
        &mut self,
        effect: Option<&SideEffect>,
        end: Square,
        color: Color,
        record: &mut Record<W>,
        journal: &mut Journal<W>,
    ) -> Result<(), (MoveErrorKind, String)> {
        match effect {
            Some(SideEffect::Demotion { piece, at, .. }) => {
                let target = self
                    .find_piece(*piece, *at, None)
                    .ok_or_else(|| (MoveErrorKind::Illegal, "no figure on the field written to demote".to_owned()))?;
                let (demoted, _) = self.figure_at(target).expect("found");
                let pawn = self.alphabet.kind(Figure::Pawn).expect("every variant has Pawns");
                self.lift(target, journal);
                self.put(target, Piece { kind: pawn, color: demoted.color }, journal);
                record.act(croatian::DEMOTION);
            }
            Some(SideEffect::Resurrection { opponents, piece, at }) => {
                let owner = if *opponents { color.other() } else { color };
                let kind = self.alphabet.kind(*piece).ok_or_else(|| {
                    (MoveErrorKind::Illegal, format!("{} has no {}", self.setup.variant.name, piece.name()))
                })?;
                let resurrected = Piece { kind, color: owner };
                if !self.setup.backhand.remove(resurrected) {
                    return Err((MoveErrorKind::Illegal, format!("no {} was captured", piece.name())));
                }
                journal.backhand.push((resurrected, false));
                let field = if at.is_field() {
                    // A Wave or a Starchild comes back on the empty field written, and the
                    // Starchild stays.
                    let field = self.field(*at).ok_or_else(|| {
                        (MoveErrorKind::Illegal, "the resurrected piece's field is off the board".to_owned())
                    })?;
                    if self.setup.board.occupied().contains(field) {
                        return Err((MoveErrorKind::Illegal, format!("{} is not empty", self.name(field))));
                    }
                    field
                } else if *at == Coordinates::default() {
                    // Any other piece takes the Starchild's place, and the Starchild is oblated.
                    let starchild = self.lift(end, journal).ok_or_else(|| {
                        (MoveErrorKind::Illegal, format!("no Starchild on {} to resurrect", self.name(end)))
                    })?;
                    self.oblate(starchild.piece, record, journal);
                    end
                } else {
                    return Err((MoveErrorKind::Illegal, "a resurrected piece comes back on a whole field".to_owned()));
                };
                self.put(field, resurrected, journal);
                record.act(croatian::RESURRECTION);
            }
            _ => {}
        }
        Ok(())
    }

    /// Takes a piece out of play as if the opponent had captured it: it is kept with the
    /// captured pieces, which may be resurrected.
    fn oblate(&mut self, piece: Piece, record: &mut Record<W>, journal: &mut Journal<W>) {
        self.setup.backhand.add(piece);
        journal.backhand.push((piece, true));
        record.act(croatian::OBLATION);
    }

    /// Castling: the King lands on the file written, the Rook beside it on the side it came
    /// from (or on the file written after `&`).
    fn castle(
        &mut self,
        king: Hand,
        end: Square,
        rook_file: Coordinates,
        record: &mut Record<W>,
        journal: &mut Journal<W>,
    ) -> Result<(), (MoveErrorKind, String)> {
        let geometry = self.geometry();
        let from = king.at.ok_or_else(|| (MoveErrorKind::Illegal, "the King's field is unknown".to_owned()))?;
        let (king_file, end_file) = (geometry.file_of(from).index(), geometry.file_of(end).index());
        let toward = if end_file > king_file { 1i32 } else { -1 };
        let rank = geometry.rank_of(from);
        let castlers = self.setup.board.marked(Mark::CASTLE);
        let rook_kind = self.alphabet.kind(Figure::Rook);
        let mut file = i32::from(king_file) + toward;
        let rook = loop {
            let Some(square) = geometry.square_at(file, i32::from(rank.index())) else {
                return Err((MoveErrorKind::Illegal, "no Rook to castle with on that side".to_owned()));
            };
            if let Some(piece) = self.setup.board.piece_at(square)
                && Some(piece.kind) == rook_kind
                && piece.color == king.piece.color
                && castlers.contains(square)
            {
                break square;
            }
            file += toward;
        };
        let rook_end_file = rook_file.file.map_or(i32::from(end_file) - toward, i32::from);
        let rook_end = geometry
            .square_at(rook_end_file, i32::from(rank.index()))
            .ok_or_else(|| (MoveErrorKind::Illegal, "the Rook's field is off the board".to_owned()))?;
        let rook_piece = self.lift(rook, journal).expect("the Rook stands there").piece;
        for field in [end, rook_end] {
            if self.setup.board.occupied().contains(field) {
                return Err((MoveErrorKind::Illegal, format!("{} is not empty", self.name(field))));
            }
        }
        self.put(end, king.piece, journal);
        self.put(rook_end, rook_piece, journal);
        record.castle = Some(if toward > 0 { Wing::King } else { Wing::Queen });
        record.displaced = Some((rook, rook_end));
        Ok(())
    }

    /// The rushed private an en passant capture onto `end` takes: the enemy private that rushed
    /// in the last move across `end`'s file, or the one on the field written.
    fn en_passant_victim(&self, end: Square, at: Coordinates, color: Color) -> Result<Square, (MoveErrorKind, String)> {
        let geometry = self.geometry();
        let file = at.file.unwrap_or(geometry.file_of(end).index());
        let rushed = self.setup.board.marked(Mark::RUSHED) & self.setup.board.color(color.other());
        rushed
            .iter()
            .find(|&square| {
                geometry.file_of(square).index() == file
                    && at.rank.is_none_or(|rank| geometry.rank_of(square).index() == rank)
            })
            .ok_or_else(|| {
                (MoveErrorKind::Illegal, format!("no private rushed past {} in the last move", self.name(end)))
            })
    }

    /// Ends a move of `color`: the privates that rushed before may no longer be taken en
    /// passant (it lasts one move), those of `rushed` may; the other side moves; the momentum
    /// spent is kept.
    pub(super) fn finish_move(
        &mut self,
        color: Color,
        rushed_before: SquareSet<W>,
        rushed: SquareSet<W>,
        momentum: u32,
    ) {
        for square in rushed_before {
            self.setup.board.set_mark(Mark::RUSHED, square, false);
        }
        for square in rushed {
            self.setup.board.set_mark(Mark::RUSHED, square, true);
        }
        if color == Color::Black {
            self.setup.fullmove_number += 1;
        }
        self.setup.turn = color.other();
        self.set_momentum(momentum);
    }

    fn note_rush(&mut self, start: Option<Square>, end: Square, color: Color, record: &mut Record<W>) {
        if start.is_some_and(|start| self.rushes(start, end, color)) {
            record.rushed.add(end);
            record.act(croatian::RUSH);
        }
    }

    /// Whether a private of `color` going from `start` to `end` rushes: two fields or more
    /// straight forward.
    pub(super) fn rushes(&self, start: Square, end: Square, color: Color) -> bool {
        let geometry = self.geometry();
        let forward = if color == Color::White { 1 } else { -1 };
        let files_equal = geometry.file_of(start) == geometry.file_of(end);
        let ranks = (i32::from(geometry.rank_of(end).index()) - i32::from(geometry.rank_of(start).index())) * forward;
        files_equal && ranks >= 2
    }

    fn promote(
        &mut self,
        piece: Piece,
        figure: Figure,
        record: &mut Record<W>,
    ) -> Result<Piece, (MoveErrorKind, String)> {
        let kind = self
            .alphabet
            .kind(figure)
            .ok_or_else(|| (MoveErrorKind::Illegal, format!("{} has no {}", self.setup.variant.name, figure.name())))?;
        if record.promotion.is_none() {
            record.promotion = Some(kind);
        }
        record.act(croatian::PROMOTION);
        Ok(Piece { kind, color: piece.color })
    }

    /// Takes the enemy piece on a field a ply ends on, as a landing does by default; an own
    /// piece there is an error.
    fn take_default(
        &mut self,
        end: Square,
        color: Color,
        record: &mut Record<W>,
        journal: &mut Journal<W>,
    ) -> Result<(), (MoveErrorKind, String)> {
        match self.figure_at(end) {
            None => Ok(()),
            Some((piece, figure)) if landing_takes(piece, figure, color) => {
                self.capture(end, piece, record, journal);
                Ok(())
            }
            Some((_, figure)) => {
                Err((MoveErrorKind::Illegal, format!("a {} stands on {}", figure.name(), self.name(end))))
            }
        }
    }

    /// Displaces the piece on `from` to the field written.
    fn displace(
        &mut self,
        from: Square,
        to: Coordinates,
        record: &mut Record<W>,
        journal: &mut Journal<W>,
    ) -> Result<(), (MoveErrorKind, String)> {
        let to = self
            .field(to)
            .ok_or_else(|| (MoveErrorKind::Illegal, "the displacement's field is not written".to_owned()))?;
        let moved = self
            .lift(from, journal)
            .ok_or_else(|| (MoveErrorKind::Illegal, format!("nothing to displace on {}", self.name(from))))?;
        if self.setup.board.occupied().contains(to) {
            return Err((MoveErrorKind::Illegal, format!("{} is not empty", self.name(to))));
        }
        self.put(to, moved.piece, journal);
        record.act(croatian::DISPLACEMENT);
        record.displaced.get_or_insert((from, to));
        Ok(())
    }

    pub(super) fn capture(&mut self, square: Square, piece: Piece, record: &mut Record<W>, journal: &mut Journal<W>) {
        self.lift(square, journal);
        self.setup.backhand.add(piece);
        journal.backhand.push((piece, true));
        record.took(square, piece);
    }

    /// The field of a piece a side effect names: on the field written, or the only one of its
    /// kind on the file or rank written.
    fn find_piece(&self, figure: Option<Figure>, at: Coordinates, color: Option<Color>) -> Option<Square> {
        if at.is_field() {
            return self.field(at);
        }
        let geometry = self.geometry();
        let candidates: Vec<Square> = self
            .setup
            .board
            .occupied()
            .iter()
            .filter(|&square| {
                let (piece, found) = match self.figure_at(square) {
                    Some(found) => found,
                    None => return false,
                };
                figure.is_none_or(|figure| figure == found)
                    && color.is_none_or(|color| color == piece.color)
                    && at.file.is_none_or(|file| geometry.file_of(square).index() == file)
                    && at.rank.is_none_or(|rank| geometry.rank_of(square).index() == rank)
            })
            .collect();
        match candidates.as_slice() {
            [only] => Some(*only),
            _ => None,
        }
    }

    /// Takes a piece off a field, journalled.
    fn lift(&mut self, square: Square, journal: &mut Journal<W>) -> Option<Hand> {
        let (piece, figure) = self.figure_at(square)?;
        self.save(square, journal);
        self.setup.board.take(square);
        Some(Hand { piece, figure, at: Some(square) })
    }

    /// Puts a piece on a field (its tags are lost: a piece that moves has none), journalled.
    fn put(&mut self, square: Square, piece: Piece, journal: &mut Journal<W>) {
        self.save(square, journal);
        self.setup.board.put(square, piece);
    }

    fn save(&self, square: Square, journal: &mut Journal<W>) {
        if !journal.touched.contains(square) {
            journal.touched.add(square);
            journal.saved.push((square, self.setup.board.piece_at(square), self.marks_at(square)));
        }
    }

    /// The field a ply's step names: written in full, or (castling) its file on the rank of
    /// `from`.
    fn destination(&self, step: &Step, from: Option<Square>) -> Option<Square> {
        match (step.field.file, step.field.rank, from) {
            (Some(_), Some(_), _) => self.field(step.field),
            (Some(file), None, Some(from)) if matches!(step.effect, Some(SideEffect::Castling { .. })) => {
                let rank = self.geometry().rank_of(from).index();
                self.field(Coordinates { file: Some(file), rank: Some(rank) })
            }
            _ => None,
        }
    }

    pub(super) fn field(&self, at: Coordinates) -> Option<Square> {
        self.geometry().square_at(i32::from(at.file?), i32::from(at.rank?))
    }

    fn home_rank(&self, color: Color) -> u8 {
        if color == Color::White { 0 } else { self.geometry().ranks() - 1 }
    }

    fn name(&self, square: Square) -> String {
        self.geometry().square_name(square).to_string()
    }

    /// The momentum a step from `from` to `to` spends, as the piece moves: the fields a line
    /// crosses, the jumps a Pegasus or Shaman repeats, the jumps of a Centaur's alternation
    /// (from the two jumps before, where the ply wrote them), one for any other jump.
    pub(super) fn momentum(&self, figure: Figure, path: &[Square], from: Square, to: Square) -> u32 {
        let geometry = self.geometry();
        let delta = |a: Square, b: Square| {
            (
                i32::from(geometry.file_of(b).index()) - i32::from(geometry.file_of(a).index()),
                i32::from(geometry.rank_of(b).index()) - i32::from(geometry.rank_of(a).index()),
            )
        };
        let (df, dr) = delta(from, to);
        match figure {
            Figure::Pegasus | Figure::Shaman => {
                // One vector repeated: the count is how many times.
                let step = gcd(df.unsigned_abs(), dr.unsigned_abs());
                let (vf, vr) = (df.unsigned_abs() / step.max(1), dr.unsigned_abs() / step.max(1));
                if matches!((vf.min(vr), vf.max(vr)), (1, 2) | (1, 4) | (2, 3)) { step } else { 1 }
            }
            Figure::Centaur if path.len() >= 3 => {
                // The jumps alternate the two vectors of its first two jumps.
                let n = path.len();
                let vectors = [delta(path[n - 3], path[n - 2]), delta(path[n - 2], path[n - 1])];
                let mut at = (0, 0);
                for jumps in 1..=64u32 {
                    let (vf, vr) = vectors[(jumps as usize - 1) % 2];
                    at = (at.0 + vf, at.1 + vr);
                    if at == (df, dr) {
                        return jumps;
                    }
                }
                1
            }
            Figure::Knight | Figure::Unicorn | Figure::Centaur | Figure::Starchild | Figure::Monolith => 1,
            _ => self.distance(from, to),
        }
    }

    /// The fields a step travels: along a line, the fields crossed; a jump counts one.
    fn distance(&self, from: Square, to: Square) -> u32 {
        let geometry = self.geometry();
        let df = i32::from(geometry.file_of(to).index()) - i32::from(geometry.file_of(from).index());
        let dr = i32::from(geometry.rank_of(to).index()) - i32::from(geometry.rank_of(from).index());
        if df == 0 || dr == 0 || df.abs() == dr.abs() { df.unsigned_abs().max(dr.unsigned_abs()) } else { 1 }
    }
}

/// Whether a ply of `color` that ends on `piece` takes it by landing there: an enemy piece but
/// a King or a celestial body.
pub(super) fn landing_takes(piece: Piece, figure: Figure, color: Color) -> bool {
    piece.color != color && !matches!(figure, Figure::Star | Figure::Monolith | Figure::King)
}

/// The greatest common divisor.
fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The last three fields a ply passed, kept without an allocation.
#[derive(Clone, Copy)]
struct Path {
    fields: [Square; 3],
    len: usize,
}

impl Default for Path {
    fn default() -> Path {
        Path { fields: [Square::from_index(0); 3], len: 0 }
    }
}

impl Path {
    fn push(&mut self, field: Square) {
        if self.len == self.fields.len() {
            self.fields.rotate_left(1);
            self.len -= 1;
        }
        self.fields[self.len] = field;
        self.len += 1;
    }

    /// The fields, the oldest first.
    fn fields(&self) -> &[Square] {
        &self.fields[..self.len]
    }
}
