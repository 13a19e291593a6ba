//! Laser Chess's [`GameRules`]: a game starts from a named setup or Setup Notation (the `FEN`
//! tag), its move numbers say who moves first, its turns are Laser Algebraic Notation, and a
//! removal the record leaves out is made and told as a warning.

use super::board::LaserBoard;
use super::moves::LaserMove;
use super::turns::Played;
use crate::board::Square;
use crate::notation::laser::setup_notation;
use crate::notation::{MoveError, MoveErrorKind};
use crate::position::{MoveEffects, MoveFacts, Position};
use crate::rules::GameRules;
use crate::rules::laser::notation::Turn;
use crate::variant::{Color, Initial, Piece, Variant, laser};

impl GameRules<2> for LaserBoard {
    type Played = Played;

    const TURN_FROM_MOVE_NUMBERS: bool = true;

    fn start(variant: &'static Variant, setup: Option<&str>) -> Result<LaserBoard, String> {
        let Some(text) = setup.map(str::trim) else { return LaserBoard::initial(variant).map_err(|e| e.to_string()) };
        let setups = match &variant.initial {
            Initial::Laser(setups) => Some(setups),
            _ => None,
        };
        let named = setups.and_then(|setups| setups.named(text));
        let setup = setup_notation::read::<2>(variant, named.unwrap_or(text)).map_err(|error| {
            let names = setups.map(|setups| setups.setups.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", "));
            format!("{error} (nor the name of a setup: {})", names.unwrap_or_default())
        })?;
        LaserBoard::from_setup(&setup).map_err(|error| error.to_string())
    }

    fn from_position(position: &Position<2>) -> Result<LaserBoard, String> {
        LaserBoard::from_setup(position.setup()).map_err(|error| error.to_string())
    }

    fn play_token(&mut self, token: &[u8], reason: &mut Option<MoveError>) -> Result<Played, MoveErrorKind> {
        let turn = Turn::parse(token).map_err(|error| {
            *reason = Some(MoveError::because(MoveErrorKind::Unreadable, error.to_string()));
            MoveErrorKind::Unreadable
        })?;
        self.play_turn(&turn).map_err(|error| {
            *reason = Some(MoveError::because(MoveErrorKind::Illegal, error.describe(self)));
            MoveErrorKind::Illegal
        })
    }

    fn facts(&self, played: Played) -> Option<MoveFacts> {
        let square = |at: u8| Square::from_index(u16::from(at));
        let (from, to) = match played.m {
            LaserMove::Step { from, to } => (from, to),
            LaserMove::Rotate { square, .. } => (square, square),
            // The Switch stands where the other piece stood.
            LaserMove::Swap { switch, with } => (switch, with),
        };
        // The piece that moved stands where it went, unless the beam removed it there.
        let mover = match played.shot.hit {
            Some((hit, piece)) if hit == to => piece,
            _ => self.piece_at(to)?,
        };
        let piece = |kind, color| Piece { kind: self.layout().kinds[kind as usize], color };
        let facts = MoveFacts::new(Some(square(from)), square(to), piece(mover.kind, mover.color));
        let facts = match played.m {
            LaserMove::Rotate { .. } => facts.acting(laser::ROTATE),
            LaserMove::Swap { .. } => facts.acting(laser::SWAP),
            LaserMove::Step { .. } => facts,
        };
        Some(match played.shot.hit {
            Some((hit, removed)) => facts.capturing(square(hit), piece(removed.kind, removed.color)),
            None => facts,
        })
    }

    fn effects(&self, played: Played) -> MoveEffects<2> {
        match played.m {
            // The piece the Switch took the place of went to the Switch's square.
            LaserMove::Swap { switch, with } => MoveEffects {
                displaced: Some((Square::from_index(u16::from(with)), Square::from_index(u16::from(switch)))),
                ..MoveEffects::NONE
            },
            LaserMove::Step { .. } | LaserMove::Rotate { .. } => MoveEffects::NONE,
        }
    }

    fn warning(&self, played: &Played) -> Option<String> {
        let (_, removed) = played.shot.hit.filter(|_| played.unwritten_removal)?;
        let mut turn = Vec::new();
        self.turn_of(played.m, &played.shot).write(&mut turn);
        Some(format!(
            "the turn writes no removal, but the beam removes {}'s {} ({}): removed all the same",
            self.layout().variant.players[removed.color.index()],
            removed.kind.name(),
            String::from_utf8_lossy(&turn)
        ))
    }

    fn write_position(&self, out: &mut String) {
        out.push_str(&setup_notation::write(&self.to_setup()));
        out.push_str(if self.turn() == Color::White { " w" } else { " b" });
    }

    fn draw(&self) -> String {
        self.draw_shots()
    }

    fn number_first_move(&mut self, fullmove: u32, second: bool) {
        self.set_turn(if second { Color::Black } else { Color::White }, fullmove);
    }
}
