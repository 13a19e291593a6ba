//! Writing a game's moves again, in the short or the long notation, in its own edition of the
//! book or the other. Each move is rewritten from what it played (the field its piece started
//! from) and kept only where it plays the same again: on the board of the edition written,
//! whose pieces are the game's by their names in the book. A move that means something else
//! there, or that the edition has no symbols for, is an error naming it.

use super::board::CroatianBoard;
use crate::board::Square;
use crate::notation::crochess::dialect::Link;
use crate::notation::crochess::moves::{
    Coordinates, Move, NotationError, PlyBody, SideEffect, StepLink, read_classical_move, read_move,
};
use crate::notation::crochess::setup_string;
use crate::notation::crochess::write::write_move;
use crate::position::{Mark, Setup};
use crate::rules::{GameRules, NotationForm, Rewritten};
use crate::variant::{Color, Kind, Piece, Variant};

impl<const W: usize> CroatianBoard<W> {
    /// See [`GameRules::rewrite`].
    pub(super) fn rewrite_game(
        &self,
        tokens: &[&str],
        form: NotationForm,
        target: &'static Variant,
    ) -> Result<Rewritten, String> {
        let edition = target.edition().unwrap_or(self.edition);
        let mut read = self.clone();
        let mut written = CroatianBoard::from_setup(self.translated(target)?);
        let setup = (written.setup != Setup::initial(target)).then(|| setup_string::write(&written.setup));
        let mut moves = Vec::with_capacity(tokens.len());
        for (index, token) in tokens.iter().enumerate() {
            let named = || format!("move {} ('{token}')", index + 1);
            let m = read.read_token(token).map_err(|error| format!("{}: {error}", named()))?;
            let mut reason = None;
            let played = read.play_token(token.as_bytes(), &mut reason).map_err(|kind| {
                format!("{}: {}", named(), reason.map_or_else(|| format!("{kind:?}"), |reason| reason.to_string()))
            })?;
            let expected = read.translated(target)?;
            let origin = played.facts.from().map(|from| self.coordinates(from));
            // A move that took where it landed writes the capture (`Nxe5`, a landing on an
            // enemy piece: `Nf3-e5*`).
            let mut m = m;
            if m.plies.len() == 1 && played.facts.capture() == Some(played.facts.to()) && !played.facts.is_en_passant()
            {
                mark_capture(&mut m);
            }
            let rewritten = candidates(&m, form, origin).into_iter().find_map(|candidate| {
                let text = write_move(&candidate, edition).ok()?;
                let mut trial = written.clone();
                trial.play_token(text.as_bytes(), &mut None).ok()?;
                (trial.setup == expected).then_some((text, trial))
            });
            let (text, after) = rewritten
                .ok_or_else(|| format!("{} cannot be written in the {form} notation of the {edition}", named()))?;
            moves.push(text);
            written = after;
        }
        Ok(Rewritten { setup, moves })
    }

    /// Reads a move as [`GameRules::play_token`] does: Classical Chess takes its own forms
    /// (`Nxe5`, `O-O`, `e.p.`) too.
    pub(super) fn read_token(&self, token: &str) -> Result<Move, NotationError> {
        if self.takes_classical_forms() {
            read_classical_move(token, self.edition)
        } else {
            read_move(token, self.edition)
        }
    }

    /// Whether the variant is Classical Chess (code `cc`), whose moves may be written in the
    /// classical forms.
    pub(super) fn takes_classical_forms(&self) -> bool {
        self.setup.variant.code == Some("cc")
    }

    /// The position as a position of `target`: the same pieces by their names in the book,
    /// with their tags, the same backhand, side to move and counters.
    fn translated(&self, target: &'static Variant) -> Result<Setup<W>, String> {
        if std::ptr::eq(target, self.setup.variant) {
            return Ok(self.setup.clone());
        }
        let other = CroatianBoard::<W>::from_setup(Setup::empty(target));
        let kind_there = |piece: Piece| {
            let figure = self.alphabet.figure(piece.kind).expect("a piece of the book");
            let kind =
                other.alphabet.kind(figure).ok_or_else(|| format!("{} has no {}", target.name, figure.name()))?;
            Ok::<_, String>(Piece { kind, ..piece })
        };
        let mut setup = Setup { variant: target, ..Setup::empty(target) };
        for (square, piece) in self.setup.board.iter() {
            setup.board.put(square, kind_there(piece)?);
            for mark in Mark::ALL {
                setup.board.set_mark(mark, square, self.setup.board.marked(mark).contains(square));
            }
        }
        for kind in (0..self.setup.variant.kinds()).map(|index| Kind::new(index as u8)) {
            for color in Color::ALL {
                let piece = Piece { kind, color };
                for _ in 0..self.setup.backhand.count(piece) {
                    setup.backhand.add(kind_there(piece)?);
                }
            }
        }
        setup.turn = self.setup.turn;
        setup.en_passant = self.setup.en_passant;
        setup.halfmove_clock = self.setup.halfmove_clock;
        setup.fullmove_number = self.setup.fullmove_number;
        setup.counters = self.setup.counters;
        Ok(setup)
    }

    fn coordinates(&self, square: Square) -> Coordinates {
        let geometry = self.geometry();
        Coordinates { file: Some(geometry.file_of(square).index()), rank: Some(geometry.rank_of(square).index()) }
    }
}

/// The ways of writing a move in `form`, the preferred first: the long notation writes where
/// each ply starts; the short one writes the first ply's start only as far as it needs to
/// (nothing, the file, the rank, the field) and the others' not at all.
fn candidates(m: &Move, form: NotationForm, origin: Option<Coordinates>) -> Vec<Move> {
    let starts = match (form, origin) {
        (NotationForm::Long, Some(origin)) => vec![origin],
        (NotationForm::Long, None) => Vec::new(),
        (NotationForm::Short, origin) => {
            let origin = origin.unwrap_or_default();
            vec![
                Coordinates::default(),
                Coordinates { rank: None, ..origin },
                Coordinates { file: None, ..origin },
                origin,
            ]
        }
    };
    starts.into_iter().map(|start| written_from(m, form, start)).collect()
}

/// The move with its first ply written from `start`, in `form`.
fn written_from(m: &Move, form: NotationForm, start: Coordinates) -> Move {
    let mut m = m.clone();
    let mut previous_end: Option<Coordinates> = None;
    for (index, ply) in m.plies.iter_mut().enumerate() {
        let PlyBody::Steps { start: ply_start, steps } = &mut ply.body else {
            previous_end = None;
            continue;
        };
        let end = steps.last().map(|step| step.field);
        let one_step = steps.len() == 1;
        let castling = steps.last().is_some_and(|step| matches!(step.effect, Some(SideEffect::Castling { .. })));
        match form {
            NotationForm::Long => {
                if index == 0 {
                    *ply_start = start;
                } else if ply.link == Some(Link::Cascade)
                    && !ply_start.is_field()
                    && let Some(before) = previous_end.filter(Coordinates::is_field)
                {
                    // A ply going on from where the one before ended (a cascade's).
                    *ply_start = before;
                }
                if ply_start.is_field()
                    && let Some(first) = steps.first_mut().filter(|step| step.link == StepLink::Destination)
                {
                    first.link = StepLink::Final;
                }
                if castling && let Some(last) = steps.last_mut() {
                    last.field.rank = last.field.rank.or(start.rank);
                }
            }
            NotationForm::Short => {
                ply.bracketed = false;
                *ply_start = if index == 0 { start } else { Coordinates::default() };
                if one_step && let Some(step) = steps.first_mut() {
                    step.link = StepLink::Destination;
                    if castling {
                        step.field.rank = None;
                    }
                }
            }
        }
        previous_end = end;
    }
    m
}

/// Marks the capture on the last step of a one-ply move that lands on a piece without saying so.
fn mark_capture(m: &mut Move) {
    if let Some(PlyBody::Steps { steps, .. }) = m.plies.first_mut().map(|ply| &mut ply.body)
        && let Some(last) = steps.last_mut()
        && last.effect.is_none()
    {
        last.effect = Some(SideEffect::Capture { piece: None, lost: None, promotion: None });
    }
}
