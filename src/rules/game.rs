//! [`GameRules`]: what replaying the games of a rule family needs of its board, so that one
//! replayer serves every family and each family keeps its rules to itself.

use std::fmt;

use crate::notation::{MoveError, MoveErrorKind, MoveNotation, MoveReader};
use crate::position::{MoveEffects, MoveFacts, Position, PositionError, RulesView};
use crate::variant::Variant;

/// The formats of other programs' game records that a family may write its games in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordFormat {
    /// The X-Decor move table, as the mod shows it (figurines, en dashes, `×`).
    XDecorTable,
    /// The X-Decor move table in ASCII letters (`Ng1-f3`, `O-O`).
    XDecorLetters,
    /// X-Decor's `moves_raw` record, one game a line.
    XDecorRaw,
}

impl RecordFormat {
    /// The format's name, in words.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            RecordFormat::XDecorTable => "an X-Decor move table",
            RecordFormat::XDecorLetters => "an X-Decor move table in letters",
            RecordFormat::XDecorRaw => "an X-Decor moves_raw record",
        }
    }
}

/// The forms of a family's own notation that a game's moves may be written again in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotationForm {
    /// Each move by where it goes, its start written only as far as it tells the piece apart
    /// (Croatian Chess's short notation, EAN).
    Short,
    /// Each move from its start (Croatian Chess's long notation, XAN).
    Long,
}

impl fmt::Display for NotationForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotationForm::Short => "short",
            NotationForm::Long => "long",
        })
    }
}

/// A game's moves written again by [`GameRules::rewrite`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewritten {
    /// The position the game starts from, in the target's own position format, where it is not
    /// the target's first.
    pub setup: Option<String>,
    /// The moves.
    pub moves: Vec<String>,
}

/// A board of a rule family, as a game's replay drives it: where a game starts, how a move
/// token of the family's own notation is played, what queries see of the move.
///
/// Replay is monomorphized per family: the classical family's moves are played without a call
/// through a pointer.
pub trait GameRules<const W: usize>: RulesView<W> + Clone + Send + Sync + 'static {
    /// A move as played: what [`GameRules::facts`] and [`GameRules::warning`] need of it.
    type Played: Copy + Send + Sync + fmt::Debug + 'static;

    /// Whether a game's move numbers say which side moves first (`1...`: the second player),
    /// because the family's setups do not.
    const TURN_FROM_MOVE_NUMBERS: bool = false;

    /// The position a game of `variant` starts from: `setup` (the text of its `FEN` tag), else
    /// the variant's initial position; or why the text is no position of the variant.
    fn start(variant: &'static Variant, setup: Option<&str>) -> Result<Self, String>;

    /// The board of a position that stands alone (a line of `cqlq filter`, `explain
    /// --position`); or why it is no position the rules can play on.
    fn from_position(position: &Position<W>) -> Result<Self, String>;

    /// What the rules refuse in a position that [`Position::from_setup`] accepts: by default
    /// nothing.
    ///
    /// # Errors
    ///
    /// Why no game of the rules can reach the position (the side not to move in check).
    fn check_position(position: &Position<W>) -> Result<(), PositionError> {
        let _ = position;
        Ok(())
    }

    /// Plays a move token of the family's own notation (SAN; Laser Algebraic Notation). On an
    /// error the board is unchanged; the kind is returned and any reason put in `reason`.
    fn play_token(&mut self, token: &[u8], reason: &mut Option<MoveError>) -> Result<Self::Played, MoveErrorKind>;

    /// Whether a token of the family's own notation is a null move.
    fn is_null_token(token: &[u8]) -> bool {
        let _ = token;
        false
    }

    /// The reader that plays the tokens of a notation other than the family's own on its
    /// boards; `None` where the family's moves are not written in that notation.
    fn reader_of(notation: MoveNotation) -> Option<&'static dyn MoveReader<Self, Self::Played>> {
        let _ = notation;
        None
    }

    /// What queries see of `played`, the move that reached this position.
    fn facts(&self, played: Self::Played) -> Option<MoveFacts>;

    /// What `played`, the move that reached this position, did besides what its facts hold
    /// (pieces removed besides its capture, another piece moved); nothing by default.
    #[inline(always)]
    fn effects(&self, played: Self::Played) -> MoveEffects<W> {
        let _ = played;
        MoveEffects::NONE
    }

    /// What the rules did that the record of `played` (reaching this position) does not say,
    /// in words: a warning, the move stands.
    fn warning(&self, played: &Self::Played) -> Option<String> {
        let _ = played;
        None
    }

    /// Writes `played`, the move that led from this position to `after`, as the family's own
    /// records write it (SAN with its check sign); `goes_on`: a move follows it, so a check is
    /// no mate. `false`, writing nothing, where the family writes no moves of its own (its
    /// games keep their tokens as written).
    fn write_move(&self, played: &Self::Played, after: &Self, goes_on: bool, out: &mut String) -> bool {
        let _ = (played, after, goes_on, out);
        false
    }

    /// A move kept with a game found, to play it again for writing the game without reading
    /// its record: `None` where the family keeps none.
    fn keep(played: &Self::Played) -> Option<u32> {
        let _ = played;
        None
    }

    /// Plays a move [`GameRules::keep`] kept, which was legal here; `None` where it is no move
    /// of the family.
    fn play_kept(&mut self, kept: u32) -> Option<Self::Played> {
        let _ = kept;
        None
    }

    /// Plays a move [`GameRules::keep`] kept, which was legal here, and appends its text to
    /// `out` as [`GameRules::write_move`] writes it; `None`, with nothing written, where it is
    /// no move of the family or the family writes no moves of its own.
    fn play_kept_written(&mut self, kept: u32, goes_on: bool, out: &mut Vec<u8>) -> Option<Self::Played> {
        let before = self.clone();
        let played = self.play_kept(kept)?;
        let mut text = String::new();
        if !before.write_move(&played, self, goes_on, &mut text) {
            return None;
        }
        out.extend_from_slice(text.as_bytes());
        Some(played)
    }

    /// Writes the moves of a main line from this position in a record format of another
    /// program, with its result.
    ///
    /// # Errors
    ///
    /// Why the game cannot be written so (by default, the family writes no such format).
    fn write_record(
        &self,
        moves: &[Self::Played],
        format: RecordFormat,
        result: Option<&[u8]>,
        out: &mut Vec<u8>,
    ) -> Result<(), String> {
        let _ = (moves, result, out);
        Err(format!("{} games cannot be written as {}", self.variant().name, format.name()))
    }

    /// Writes a game's moves again in the family's own notation: `tokens` (as its record
    /// writes them, played from this position) in `form`, for a game of `target` (this
    /// position's variant, or the same rules in another edition of their book). Each move
    /// written plays what the move read played.
    ///
    /// # Errors
    ///
    /// Why a move cannot be written so (by default, the family writes its moves in one form).
    fn rewrite(&self, tokens: &[&str], form: NotationForm, target: &'static Variant) -> Result<Rewritten, String> {
        let _ = (tokens, target);
        Err(format!("{} games are not written in a {form} notation", self.variant().name))
    }

    /// Writes the position as its variant writes positions (FEN; Setup Notation and the side
    /// to move).
    fn write_position(&self, out: &mut String);

    /// The position drawn for `cqlq explain`: its pieces, and what the family's rules show of
    /// it beyond them (each laser's beam).
    fn draw(&self) -> String {
        crate::position::drawing::draw(self, |_| None)
    }

    /// Takes a game's first move number, `fullmove`, and whether the second player makes that
    /// move (`1...`), as who moves first: for families whose setups do not say.
    fn number_first_move(&mut self, fullmove: u32, second: bool) {
        let _ = (fullmove, second);
    }
}
