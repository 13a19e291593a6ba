//! Croatian Chess's [`GameRules`]: a game starts from the variant's setup or a setup string
//! (or FEN) in its `FEN` tag, partial boards included; its moves are the book's notation in the
//! edition of the variant, short or long, and Classical Chess's own forms (`Nxe5`, `O-O`).

use super::board::CroatianBoard;
#[cfg(debug_assertions)]
use super::plain::same_play;
use super::play::{PlayError, Played};
use crate::notation::crochess::dialect::Dialect;
use crate::notation::crochess::plain::read_plain;
use crate::notation::crochess::setup_string;
use crate::notation::{MoveError, MoveErrorKind, fen};
use crate::position::{MoveEffects, MoveFacts, Position, Setup};
use crate::rules::{GameRules, NotationForm, Rewritten};
use crate::variant::Variant;

impl<const W: usize> GameRules<W> for CroatianBoard<W> {
    type Played = Played<W>;

    fn start(variant: &'static Variant, setup: Option<&str>) -> Result<CroatianBoard<W>, String> {
        let Some(text) = setup.map(str::trim).filter(|text| !text.is_empty()) else {
            return Ok(CroatianBoard::from_setup(Setup::initial(variant)));
        };
        let code = text.split_ascii_whitespace().next().unwrap_or("");
        let setup = if variant.code.is_some_and(|own| own.eq_ignore_ascii_case(code)) {
            setup_string::read_of::<W>(variant, text).map_err(|error| error.to_string())?
        } else {
            fen::read::<W>(variant, text).map_err(|error| format!("neither a setup string nor a FEN: {error}"))?
        };
        Ok(CroatianBoard::from_setup(setup))
    }

    fn from_position(position: &Position<W>) -> Result<CroatianBoard<W>, String> {
        Ok(CroatianBoard::from_setup(position.setup().clone()))
    }

    fn play_token(&mut self, token: &[u8], reason: &mut Option<MoveError>) -> Result<Played<W>, MoveErrorKind> {
        let unreadable = |reason: &mut Option<MoveError>, why: String| {
            *reason = Some(MoveError::because(MoveErrorKind::Unreadable, why));
            MoveErrorKind::Unreadable
        };
        if let Some(ply) = read_plain(token, Dialect::of(self.edition()), self.takes_classical_forms()) {
            #[cfg(debug_assertions)]
            let before = self.clone();
            if let Some(played) = self.play_plain(&ply) {
                #[cfg(debug_assertions)]
                {
                    let mut general = before;
                    let general_played = general.play_move(&ply.to_move());
                    assert!(
                        general_played.as_ref().is_ok_and(|other| same_play((self, &played), (&general, other))),
                        "the plain and the general play of '{}' differ: {played:?} and {general_played:?}",
                        String::from_utf8_lossy(token)
                    );
                }
                return Ok(played);
            }
            let mut m = std::mem::take(&mut self.plain.0);
            ply.write_into(&mut m);
            let result = self.play_move(&m);
            self.plain.0 = m;
            return result.map_err(|error| played_error(error, reason));
        }
        let Ok(text) = std::str::from_utf8(token) else {
            return Err(unreadable(reason, "the move is not UTF-8".to_owned()));
        };
        let read = self.read_token(text);
        let m = match read {
            Ok(m) => m,
            Err(error) => return Err(unreadable(reason, format!("{} ({})", error, self.edition()))),
        };
        if m.plies.is_empty() {
            // A claim alone (`#`, `##`, `(==)`) moves nothing.
            return Err(unreadable(reason, "a claim, not a move".to_owned()));
        }
        self.play_move(&m).map_err(|error| played_error(error, reason))
    }

    fn facts(&self, played: Played<W>) -> Option<MoveFacts> {
        Some(played.facts)
    }

    fn effects(&self, played: Played<W>) -> MoveEffects<W> {
        MoveEffects { removed: played.removed, displaced: played.displaced }
    }

    fn rewrite(&self, tokens: &[&str], form: NotationForm, target: &'static Variant) -> Result<Rewritten, String> {
        self.rewrite_game(tokens, form, target)
    }

    fn write_position(&self, out: &mut String) {
        out.push_str(&setup_string::write(self.setup()));
    }
}

/// A move that could not be played, as the game's error tells it.
fn played_error(error: PlayError, reason: &mut Option<MoveError>) -> MoveErrorKind {
    *reason = Some(MoveError::because(error.kind, format!("ply {}: {}", error.ply, error.reason)));
    error.kind
}
