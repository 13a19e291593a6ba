//! The reader of Croatian Chess moves: short (EAN) and long (XAN) notation of either edition,
//! read into a tree of plies, steps and side effects. What the tree means on a board (which
//! piece moves, what a cascade does) is for the rules; this reader knows only the text.
//!
//! ```
//! use cqlq::notation::crochess::dialect::{Edition, Figure, Link};
//! use cqlq::notation::crochess::moves::{read_move, SideEffect};
//!
//! let cascade = read_move("[Qk2-f7]~[Af7-i7]~[Ai7-i9]", Edition::Ed2020)?;
//! assert_eq!(cascade.plies.len(), 3);
//! assert_eq!(cascade.plies[1].link, Some(Link::Cascade));
//! assert_eq!(cascade.plies[1].piece, Some(Figure::Pyramid));
//!
//! let capture = read_move("e26*R=Q", Edition::Current)?;
//! let effect = capture.plies[0].steps().last().unwrap().effect.clone();
//! assert_eq!(effect, Some(SideEffect::Capture { piece: Some(Figure::Rook), lost: None, promotion: Some(Figure::Queen) }));
//! # Ok::<_, cqlq::notation::crochess::moves::NotationError>(())
//! ```

use std::fmt;

use super::dialect::{Dialect, Edition, Figure, Link, LostTag, LostTagPlace};

/// A move as written: its plies, the status after it, and any annotation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Move {
    /// The plies, the first with no link.
    pub plies: Vec<Ply>,
    /// What the move claims or ends the game with (`+`, `#`, a draw offer).
    pub status: Status,
    /// A claim standing for a whole move (`#` a self-mate claim, `##` resignation, `(==)`
    /// draw accepted, `(===)` draw by rule); the move then has no plies.
    pub claim: Option<Claim>,
    /// The annotation after `_` (`!`, `?!`).
    pub annotation: Option<String>,
}

/// One ply: a piece's whole movement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// How it follows the ply before (none for the first).
    pub link: Option<Link>,
    /// The piece written (none: a Pawn in the first ply, the piece on the field after a link).
    pub piece: Option<Figure>,
    /// A tag the piece loses, written before its field (current edition: `==e12`, `P::b3`).
    pub lost: Option<LostTag>,
    /// What the ply says.
    pub body: PlyBody,
    /// Whether it was written in brackets (`[Qk2-f7]`).
    pub bracketed: bool,
    /// Where it begins in the move (a byte offset).
    pub column: usize,
}

/// What a ply says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlyBody {
    /// The field it starts from (all, part or none of it), then its steps.
    Steps {
        /// The start: a field, a file, a rank or nothing.
        start: Coordinates,
        /// The steps, the last one the destination.
        steps: Vec<Step>,
    },
    /// Nothing after a link that may stand alone (`He12@`), or the piece alone (`Ra18|||R`).
    Unwritten,
    /// Pieces listed after a dual trance-journey (`He12@@P,B,R`), each where it stood if
    /// written (`Pq16,Bp14`).
    Pieces(Vec<(Figure, Coordinates)>),
    /// A sense-journey's uplifted piece, where it stood, then its ply (`Bc5,z11-n7`).
    Uplift {
        /// Where the uplifted piece stood.
        from: Coordinates,
        /// Its ply.
        ply: Box<PlyBody>,
    },
}

/// A field, or part of one: `e4`, `e`, `4`, or nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Coordinates {
    /// The file, from 0 (`a`).
    pub file: Option<u8>,
    /// The rank, from 0 (rank 1).
    pub rank: Option<u8>,
}

/// One step of a ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// How the field is reached from the one before.
    pub link: StepLink,
    /// The field (a file alone only for a castling King's destination).
    pub field: Coordinates,
    /// What happens there.
    pub effect: Option<SideEffect>,
    /// A tag lost on this step, written after the field (2020 edition: `e12==`).
    pub lost: Option<LostTag>,
}

/// How a step's field follows the field before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepLink {
    /// The destination of a ply written without steps (`Nc3`).
    Destination,
    /// `.`: the very next field.
    Next,
    /// `..`: a field further on, steps unwritten between.
    Distant,
    /// `-`: the destination.
    Final,
    /// `\`: a repositioned start (current edition).
    Reposition,
}

/// What happens on a step's field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SideEffect {
    /// `*`: a capture, of the piece named if any; `=Q` after it promotes the capturing Pawn.
    Capture {
        /// The piece captured.
        piece: Option<Figure>,
        /// A tag it loses.
        lost: Option<LostTag>,
        /// The piece the capturing Pawn promotes to.
        promotion: Option<Figure>,
    },
    /// `<`: the piece there is displaced to the field written.
    Displacement {
        /// The piece displaced.
        piece: Option<Figure>,
        /// A tag it loses.
        lost: Option<LostTag>,
        /// Where it goes.
        to: Coordinates,
    },
    /// `:`: an en passant capture, of the private on the field (or rank) written, if one is.
    EnPassant {
        /// The piece captured.
        piece: Option<Figure>,
        /// Where it stood.
        at: Coordinates,
    },
    /// `&`: castling, the Rook landing on the file written, if one is.
    Castling {
        /// Where the Rook lands.
        rook: Coordinates,
    },
    /// `=Q` or `Q`: the Pawn promotes.
    Promotion(Figure),
    /// `=` alone: the Pawn is tagged for a delayed promotion.
    PromotionTag,
    /// `%`: the enemy piece there is converted.
    Conversion {
        /// The piece converted.
        piece: Option<Figure>,
        /// A tag it loses.
        lost: Option<LostTag>,
    },
    /// `%%`: the conversion fails (a Starchild), and the Pyramid is oblated.
    FailedConversion,
    /// `^` (current edition): the piece passes through a transparent one.
    Transparency(Option<Figure>),
    /// `/` (current edition): the piece diverges from a Shaman or Starchild.
    Divergence(Option<Figure>),
    /// `>`: a figure on the syzygy's line is demoted to a Pawn.
    Demotion {
        /// The figure.
        piece: Option<Figure>,
        /// A tag it loses.
        lost: Option<LostTag>,
        /// Where it stands, or part of it.
        at: Coordinates,
    },
    /// `$`, `$$`: a captured piece is resurrected (own, or the opponent's), on the field
    /// written for a Wave or Starchild.
    Resurrection {
        /// Whether it is the opponent's.
        opponents: bool,
        /// The piece.
        piece: Figure,
        /// Where it reappears.
        at: Coordinates,
    },
    /// `$$$`: the resurrection fails.
    FailedResurrection,
}

/// What a move claims after its plies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Status {
    /// `+`, `++`, `#`, `##`.
    pub check: Option<CheckMark>,
    /// `(=)` or `()`.
    pub draw_offer: Option<DrawOffer>,
}

/// A mark of check or mate after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckMark {
    /// `+`.
    Check,
    /// `++` in the 2020 edition: a double check.
    DoubleCheck,
    /// `#` (and `++` in the current edition).
    Mate,
    /// `##` after plies: a mate claimed by the other side (self-mate).
    SelfMate,
}

/// A draw offer after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawOffer {
    /// `(=)`: offered.
    Offered,
    /// `()`: withdrawn.
    Withdrawn,
}

/// A move that is a claim alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// `#`: the opponent claims a self-mate.
    SelfMate,
    /// `##`: resignation.
    Resignation,
    /// `(==)`: a draw offer accepted.
    DrawAccepted,
    /// `(===)`: a draw by rule or by the arbiter.
    DrawByRule,
}

/// Why a move cannot be read: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// The ply (from 1), where the mistake lies in one.
    pub ply: Option<usize>,
    /// The step of the ply (from 1), where it lies in one.
    pub step: Option<usize>,
    /// The byte offset in the move.
    pub column: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(ply) = self.ply {
            write!(f, "ply {ply}, ")?;
        }
        if let Some(step) = self.step {
            write!(f, "step {step}, ")?;
        }
        write!(f, "column {}: {}", self.column + 1, self.reason)
    }
}

impl std::error::Error for NotationError {}

/// The largest board's side: files `a` to `z`, ranks 1 to 26.
const MAX_SIDE: u8 = 26;

impl Ply {
    /// The steps written (none for an unwritten ply).
    #[must_use]
    pub fn steps(&self) -> &[Step] {
        match &self.body {
            PlyBody::Steps { steps, .. } => steps,
            PlyBody::Uplift { ply, .. } => match &**ply {
                PlyBody::Steps { steps, .. } => steps,
                _ => &[],
            },
            PlyBody::Unwritten | PlyBody::Pieces(_) => &[],
        }
    }

    /// The field the ply starts from, as far as it is written.
    #[must_use]
    pub fn start(&self) -> Coordinates {
        match &self.body {
            PlyBody::Steps { start, .. } => *start,
            PlyBody::Uplift { from, .. } => *from,
            PlyBody::Unwritten | PlyBody::Pieces(_) => Coordinates::default(),
        }
    }

    /// The field it ends on, where written in full.
    #[must_use]
    pub fn destination(&self) -> Option<Coordinates> {
        self.steps().last().map(|step| step.field)
    }
}

impl Coordinates {
    /// Whether both file and rank are given.
    #[must_use]
    pub const fn is_field(&self) -> bool {
        self.file.is_some() && self.rank.is_some()
    }
}

/// Reads one move of `edition`'s notation (a whitespace-free token, move number and NAGs
/// taken off).
///
/// # Errors
///
/// What is wrong, with the ply, the step and the column.
pub fn read_move(text: &str, edition: Edition) -> Result<Move, NotationError> {
    Reader { text, dialect: Dialect::of(edition), ply: None, step: None }.read()
}

/// Reads one move of Classical Chess, where the classical forms are allowed besides: `x` for a
/// capture (`Nxe5`), `O-O`, `0-0` and their queen-side forms, and `e.p.`.
///
/// # Errors
///
/// As [`read_move`].
pub fn read_classical_move(text: &str, edition: Edition) -> Result<Move, NotationError> {
    let castling = |king_file: char| format!("K{king_file}&");
    let rewritten = match text.trim_end_matches(['+', '#']) {
        "O-O" | "0-0" => Some(castling('g') + &text[text.trim_end_matches(['+', '#']).len()..]),
        "O-O-O" | "0-0-0" => Some(castling('c') + &text[text.trim_end_matches(['+', '#']).len()..]),
        _ => None,
    };
    if let Some(rewritten) = rewritten {
        return read_move(&rewritten, edition);
    }
    let capture_mark =
        |text: &str| text.find('x').filter(|&at| text[at + 1..].starts_with(|c: char| c.is_ascii_lowercase()));
    if !text.contains("e.p.") && capture_mark(text).is_none() {
        return read_move(text, edition);
    }
    let mut plain = text.replace("e.p.", ":");
    if let Some(at) = capture_mark(&plain) {
        // `Nxe5`: the capture marked before the field becomes the default capture.
        plain.remove(at);
    }
    read_move(&plain, edition)
}

/// The state of reading one move.
struct Reader<'t> {
    text: &'t str,
    dialect: &'static Dialect,
    ply: Option<usize>,
    step: Option<usize>,
}

impl Reader<'_> {
    fn error(&self, column: usize, reason: impl Into<String>) -> NotationError {
        NotationError { ply: self.ply, step: self.step, column, reason: reason.into() }
    }

    fn read(mut self) -> Result<Move, NotationError> {
        let text = self.text;
        if text.is_empty() {
            return Err(self.error(0, "an empty move"));
        }
        if let Some(at) = text.find(char::is_whitespace) {
            return Err(self.error(at, "a move holds no space"));
        }
        let (body, annotation) = match text.find('_') {
            Some(at) => (&text[..at], Some(text[at + 1..].to_owned())),
            // Glyphs glued to the move (`ef8*!`), as PGN writes them.
            None => {
                let plain = text.trim_end_matches(['!', '?']);
                (plain, (plain.len() < text.len()).then(|| text[plain.len()..].to_owned()))
            }
        };
        let claim = match body {
            "#" => Some(Claim::SelfMate),
            "##" => Some(Claim::Resignation),
            "(==)" => Some(Claim::DrawAccepted),
            "(===)" => Some(Claim::DrawByRule),
            _ => None,
        };
        if claim.is_some() {
            return Ok(Move { plies: Vec::new(), status: Status::default(), claim, annotation });
        }
        let (plies_text, status) = self.status(body);
        if plies_text.is_empty() {
            return Err(self.error(0, "a move needs a ply before its status"));
        }
        let plies = self.plies(plies_text)?;
        Ok(Move { plies, status, claim: None, annotation })
    }

    /// Takes the status marks off the end.
    fn status<'b>(&self, body: &'b str) -> (&'b str, Status) {
        let mut rest = body;
        let mut status = Status::default();
        for (symbol, offer) in [("(=)", DrawOffer::Offered), ("()", DrawOffer::Withdrawn)] {
            if let Some(before) = rest.strip_suffix(symbol) {
                status.draw_offer = Some(offer);
                rest = before;
                break;
            }
        }
        let marks: [(&str, CheckMark); 4] = [
            ("##", CheckMark::SelfMate),
            ("#", CheckMark::Mate),
            ("++", if self.dialect.double_check { CheckMark::DoubleCheck } else { CheckMark::Mate }),
            ("+", CheckMark::Check),
        ];
        for (symbol, mark) in marks {
            if let Some(before) = rest.strip_suffix(symbol) {
                status.check = Some(mark);
                rest = before;
                break;
            }
        }
        (rest, status)
    }

    /// Splits the plies at their links and reads each.
    fn plies(&mut self, text: &str) -> Result<Vec<Ply>, NotationError> {
        let mut plies = Vec::new();
        let mut at = 0;
        let mut link = None;
        loop {
            self.ply = Some(plies.len() + 1);
            self.step = None;
            let rest = &text[at..];
            let (inner, bracketed, length) = if let Some(inside) = rest.strip_prefix('[') {
                let close = inside.find(']').ok_or_else(|| self.error(at, "this '[' is never closed"))?;
                (&inside[..close], true, close + 2)
            } else {
                let end = (0..rest.len())
                    .find(|&offset| rest.is_char_boundary(offset) && self.dialect.link_at(&rest[offset..]).is_some())
                    .unwrap_or(rest.len());
                (&rest[..end], false, end)
            };
            let start = at + usize::from(bracketed);
            let ply = self.ply(inner, start, link, bracketed)?;
            plies.push(ply);
            self.step = None;
            at += length;
            if at == text.len() {
                return Ok(plies);
            }
            let Some((next, size)) = self.dialect.link_at(&text[at..]) else {
                return Err(self.error(at, format!("expected a link between plies, found '{}'", &text[at..])));
            };
            link = Some(next);
            at += size;
            if at == text.len() {
                self.ply = Some(plies.len() + 1);
                if !may_stand_alone(next) {
                    return Err(self.error(at, "a ply must follow this link"));
                }
                plies.push(Ply {
                    link: Some(next),
                    piece: None,
                    lost: None,
                    body: PlyBody::Unwritten,
                    bracketed: false,
                    column: at,
                });
                return Ok(plies);
            }
        }
    }

    /// Reads one ply (without its link and brackets), which begins at byte `at` of the move.
    fn ply(&mut self, text: &str, at: usize, link: Option<Link>, bracketed: bool) -> Result<Ply, NotationError> {
        let mut cursor = Cursor { text, at: 0, base: at };
        if text.is_empty() {
            if link.is_some_and(may_stand_alone) {
                return Ok(Ply { link, piece: None, lost: None, body: PlyBody::Unwritten, bracketed, column: at });
            }
            return Err(self.error(at, "an empty ply"));
        }
        if link == Some(Link::DualTranceJourney) {
            let pieces = self.listed_pieces(text, at)?;
            return Ok(Ply { link, piece: None, lost: None, body: PlyBody::Pieces(pieces), bracketed, column: at });
        }
        let piece = self.piece(&mut cursor)?;
        if cursor.rest().is_empty() && link.is_some_and(may_stand_alone) {
            // The piece alone: its fate is the link's (`Ra18|||R`).
            return Ok(Ply { link, piece, lost: None, body: PlyBody::Unwritten, bracketed, column: at });
        }
        let lost = self.lost_before(&mut cursor);
        if let Some(comma) = cursor.rest().find(',').filter(|_| link == Some(Link::SenseJourney)) {
            // A sense-journey: the uplifted piece's field, then its ply (`Bc5,z11-n7`).
            let from_column = cursor.column();
            let mut field_cursor = Cursor { text: &cursor.rest()[..comma], at: 0, base: from_column };
            let from = self.field(&mut field_cursor, "an uplifted piece is named with its field")?;
            cursor.advance(comma + 1);
            let rest = cursor.rest();
            let ply = if rest.contains(['.', '-', '\\']) {
                self.stepped(&mut cursor)?
            } else {
                self.destination_only(&mut cursor)?
            };
            let body = PlyBody::Uplift { from, ply: Box::new(ply) };
            return Ok(Ply { link, piece, lost, body, bracketed, column: at });
        }
        let rest = cursor.rest();
        let body = if rest.contains(['.', '-', '\\']) {
            self.stepped(&mut cursor)?
        } else {
            self.destination_only(&mut cursor)?
        };
        if !cursor.rest().is_empty() {
            return Err(self.error(cursor.column(), format!("unexpected '{}'", cursor.rest())));
        }
        Ok(Ply { link, piece, lost, body, bracketed, column: at })
    }

    /// The pieces listed after a dual trance-journey, each with its field if written
    /// (`P,B,R` or `Pq16,Bp14`).
    fn listed_pieces(&self, text: &str, at: usize) -> Result<Vec<(Figure, Coordinates)>, NotationError> {
        let mut pieces = Vec::new();
        let mut offset = 0;
        for item in text.split(',') {
            let mut cursor = Cursor { text: item, at: 0, base: at + offset };
            let piece =
                self.piece(&mut cursor)?.ok_or_else(|| self.error(cursor.column(), "expected a piece letter"))?;
            let field = self.partial(&mut cursor)?;
            if !cursor.rest().is_empty() {
                return Err(self.error(cursor.column(), format!("unexpected '{}'", cursor.rest())));
            }
            pieces.push((piece, field));
            offset += item.len() + 1;
        }
        Ok(pieces)
    }

    /// The piece letter at the cursor, if an upper-case letter is there.
    fn piece(&self, cursor: &mut Cursor<'_>) -> Result<Option<Figure>, NotationError> {
        match cursor.peek() {
            Some(letter) if letter.is_ascii_uppercase() => {
                let figure = self.dialect.figure(letter).ok_or_else(|| {
                    self.error(
                        cursor.column(),
                        format!(
                            "'{letter}' is no piece of the {} (pieces: {})",
                            self.dialect.edition,
                            self.dialect.letters()
                        ),
                    )
                })?;
                cursor.advance(1);
                Ok(Some(figure))
            }
            _ => Ok(None),
        }
    }

    /// A lost tag written before a field, where the edition writes them there.
    fn lost_before(&self, cursor: &mut Cursor<'_>) -> Option<LostTag> {
        if self.dialect.lost_tag_place != LostTagPlace::BeforeField {
            return None;
        }
        let (tag, size) = self.dialect.lost_tag_at(cursor.rest())?;
        cursor.advance(size);
        Some(tag)
    }

    /// A lost tag written after a field, where the edition writes them there.
    fn lost_after(&self, cursor: &mut Cursor<'_>) -> Option<LostTag> {
        if self.dialect.lost_tag_place != LostTagPlace::AfterField {
            return None;
        }
        let (tag, size) = self.dialect.lost_tag_at(cursor.rest())?;
        cursor.advance(size);
        Some(tag)
    }

    /// `[start] field effect`: a ply written by its destination.
    fn destination_only(&mut self, cursor: &mut Cursor<'_>) -> Result<PlyBody, NotationError> {
        let column = cursor.column();
        let parts = self.coordinate_run(cursor)?;
        let castling = cursor.peek() == Some('&');
        let (start, destination) = match parts.as_slice() {
            [] => return Err(self.error(column, "expected the field the ply ends on")),
            // A castling King names only its file (`Kd&`).
            [Part::File(file)] if castling => (Coordinates::default(), Coordinates { file: Some(*file), rank: None }),
            [before @ .., Part::File(file), Part::Rank(rank)] => {
                (self.start_of(before, column)?, Coordinates { file: Some(*file), rank: Some(*rank) })
            }
            _ => return Err(self.error(column, "expected a field such as e4 to end the ply")),
        };
        self.step = Some(1);
        let lost = self.lost_after(cursor);
        let effect = self.effect(cursor)?;
        let lost = lost.or_else(|| self.lost_after(cursor));
        let step = Step { link: StepLink::Destination, field: destination, effect, lost };
        Ok(PlyBody::Steps { start, steps: vec![step] })
    }

    /// `[start] (link field effect)+`: a ply written step by step.
    fn stepped(&mut self, cursor: &mut Cursor<'_>) -> Result<PlyBody, NotationError> {
        let column = cursor.column();
        let parts = self.coordinate_run(cursor)?;
        let start = self.start_of(&parts, column)?;
        let mut steps = Vec::new();
        while !cursor.rest().is_empty() {
            self.step = Some(steps.len() + 1);
            let link_column = cursor.column();
            let link = self.step_link(cursor).ok_or_else(|| {
                self.error(link_column, format!("expected a step ('.', '..', '-' or '\\'), found '{}'", cursor.rest()))
            })?;
            if steps.last().is_some_and(|step: &Step| step.link == StepLink::Final) {
                return Err(self.error(link_column, "nothing may follow the destination written after '-'"));
            }
            if link == StepLink::Reposition && !steps.is_empty() {
                return Err(self.error(link_column, "'\\' repositions only the start of a ply"));
            }
            let field_column = cursor.column();
            let parts = self.coordinate_run(cursor)?;
            let field = match parts.as_slice() {
                [Part::File(file), Part::Rank(rank)] => Coordinates { file: Some(*file), rank: Some(*rank) },
                [Part::File(file)] if cursor.peek() == Some('&') => Coordinates { file: Some(*file), rank: None },
                _ => return Err(self.error(field_column, "expected a field such as e4 after the step")),
            };
            let lost = self.lost_after(cursor);
            let effect = self.effect(cursor)?;
            let lost = lost.or_else(|| self.lost_after(cursor));
            steps.push(Step { link, field, effect, lost });
        }
        if steps.is_empty() {
            return Err(self.error(column, "a ply needs a destination"));
        }
        Ok(PlyBody::Steps { start, steps })
    }

    fn step_link(&self, cursor: &mut Cursor<'_>) -> Option<StepLink> {
        let rest = cursor.rest();
        let (link, size) = if rest.starts_with("..") {
            (StepLink::Distant, 2)
        } else if rest.starts_with('.') {
            (StepLink::Next, 1)
        } else if rest.starts_with('-') {
            (StepLink::Final, 1)
        } else if rest.starts_with('\\') && self.dialect.edition == Edition::Current {
            (StepLink::Reposition, 1)
        } else {
            return None;
        };
        cursor.advance(size);
        Some(link)
    }

    /// The start of a ply from the coordinates before its destination: a field, a file, a
    /// rank or nothing.
    fn start_of(&self, parts: &[Part], column: usize) -> Result<Coordinates, NotationError> {
        match parts {
            [] => Ok(Coordinates::default()),
            [Part::File(file)] => Ok(Coordinates { file: Some(*file), rank: None }),
            [Part::Rank(rank)] => Ok(Coordinates { file: None, rank: Some(*rank) }),
            [Part::File(file), Part::Rank(rank)] => Ok(Coordinates { file: Some(*file), rank: Some(*rank) }),
            _ => Err(self.error(column, "the start of a ply is a field, a file or a rank")),
        }
    }

    /// Files (`a`..`z`) and ranks (1 to 26) written one after the other.
    fn coordinate_run(&self, cursor: &mut Cursor<'_>) -> Result<Parts, NotationError> {
        let mut parts = Parts::default();
        while let Some(next) = cursor.peek() {
            let column = cursor.column();
            let part = if next.is_ascii_lowercase() {
                cursor.advance(1);
                Part::File(next as u8 - b'a')
            } else if next.is_ascii_digit() {
                let length = cursor.rest().bytes().take(2).take_while(u8::is_ascii_digit).count();
                let digits = &cursor.rest()[..length];
                let rank: u8 = digits.parse().unwrap_or(0);
                if rank == 0 || rank > MAX_SIDE {
                    return Err(self.error(column, format!("rank {digits} is off every board (1 to {MAX_SIDE})")));
                }
                cursor.advance(length);
                Part::Rank(rank - 1)
            } else {
                break;
            };
            if parts.len == parts.items.len() {
                return Err(self.error(column, "more files and ranks than a start and a field"));
            }
            parts.items[parts.len] = part;
            parts.len += 1;
        }
        Ok(parts)
    }

    /// The side effect at the cursor, if one is written.
    fn effect(&self, cursor: &mut Cursor<'_>) -> Result<Option<SideEffect>, NotationError> {
        let column = cursor.column();
        let rest = cursor.rest();
        let effect = if rest.starts_with('*') {
            cursor.advance(1);
            let piece = self.piece(cursor)?;
            let lost = self.lost_before(cursor).or_else(|| self.lost_after(cursor));
            let promotion =
                if cursor.peek() == Some('=') {
                    cursor.advance(1);
                    Some(self.piece(cursor)?.ok_or_else(|| {
                        self.error(cursor.column(), "'=' after a capture needs the piece promoted to")
                    })?)
                } else {
                    None
                };
            SideEffect::Capture { piece, lost, promotion }
        } else if rest.starts_with('<') {
            cursor.advance(1);
            let piece = self.piece(cursor)?;
            let lost = self.lost_before(cursor);
            let to = self.field(cursor, "a displacement names the field the piece goes to")?;
            SideEffect::Displacement { piece, lost, to }
        } else if rest.starts_with(':') && !self.is_link(rest) {
            cursor.advance(1);
            let piece = self.piece(cursor)?;
            let at = self.partial(cursor)?;
            SideEffect::EnPassant { piece, at }
        } else if rest.starts_with('&') && !rest.starts_with("&&") {
            cursor.advance(1);
            let rook = self.partial(cursor)?;
            SideEffect::Castling { rook }
        } else if rest.starts_with("%%") {
            cursor.advance(2);
            SideEffect::FailedConversion
        } else if rest.starts_with('%') {
            cursor.advance(1);
            let piece = self.piece(cursor)?;
            let lost = self.lost_before(cursor);
            SideEffect::Conversion { piece, lost }
        } else if rest.starts_with("$$$") {
            cursor.advance(3);
            SideEffect::FailedResurrection
        } else if rest.starts_with('$') {
            let opponents = rest.starts_with("$$");
            cursor.advance(if opponents { 2 } else { 1 });
            let piece =
                self.piece(cursor)?.ok_or_else(|| self.error(cursor.column(), "a resurrection names the piece"))?;
            let at = self.partial(cursor)?;
            SideEffect::Resurrection { opponents, piece, at }
        } else if rest.starts_with('>') {
            cursor.advance(1);
            let piece = self.piece(cursor)?;
            let lost = self.lost_before(cursor);
            let at = self.partial(cursor)?;
            if piece.is_none() && at == Coordinates::default() {
                return Err(self.error(column, "a demotion names the piece or its field"));
            }
            SideEffect::Demotion { piece, lost, at }
        } else if (rest.starts_with('^') || rest.starts_with('/')) && self.dialect.edition == Edition::Current {
            let transparency = rest.starts_with('^');
            cursor.advance(1);
            let piece = self.piece(cursor)?;
            if transparency { SideEffect::Transparency(piece) } else { SideEffect::Divergence(piece) }
        } else if rest.starts_with('=') && !rest.starts_with("==") {
            cursor.advance(1);
            match self.piece(cursor)? {
                Some(piece) => SideEffect::Promotion(piece),
                None => SideEffect::PromotionTag,
            }
        } else if rest.starts_with(|c: char| c.is_ascii_uppercase()) {
            let piece = self.piece(cursor)?.expect("an upper-case letter");
            SideEffect::Promotion(piece)
        } else {
            return Ok(None);
        };
        Ok(Some(effect))
    }

    /// Whether the text begins with a link (so that `::` in 2020 is not an en passant).
    fn is_link(&self, text: &str) -> bool {
        self.dialect.link_at(text).is_some()
    }

    /// A whole field, which must be there.
    fn field(&self, cursor: &mut Cursor<'_>, missing: &str) -> Result<Coordinates, NotationError> {
        let column = cursor.column();
        let field = self.partial(cursor)?;
        if field.is_field() { Ok(field) } else { Err(self.error(column, missing)) }
    }

    /// A field or part of one, possibly nothing.
    fn partial(&self, cursor: &mut Cursor<'_>) -> Result<Coordinates, NotationError> {
        let column = cursor.column();
        match self.coordinate_run(cursor)?.as_slice() {
            [] => Ok(Coordinates::default()),
            [Part::File(file)] => Ok(Coordinates { file: Some(*file), rank: None }),
            [Part::Rank(rank)] => Ok(Coordinates { file: None, rank: Some(*rank) }),
            [Part::File(file), Part::Rank(rank)] => Ok(Coordinates { file: Some(*file), rank: Some(*rank) }),
            _ => Err(self.error(column, "expected a field, a file or a rank")),
        }
    }
}

/// Whether a link may end a move with nothing after it: the piece's fate is the link itself, or
/// the rules work out what it did (the spiral of a trance-journey, the Serpent's ply after a
/// Pawn-sacrifice).
fn may_stand_alone(link: Link) -> bool {
    matches!(
        link,
        Link::TranceJourney
            | Link::DualTranceJourney
            | Link::FailedTranceJourney
            | Link::FailedTeleport
            | Link::Oblation
            | Link::SenseJourney
            | Link::FailedSenseJourney
            | Link::PawnSacrifice
    )
}

/// A file or a rank, from 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Part {
    #[default]
    Empty,
    File(u8),
    Rank(u8),
}

/// The files and ranks written in a run (`d1h5`: a start and a field), kept without an
/// allocation: at most two of each, and one more to tell a run too long.
#[derive(Clone, Copy, Debug, Default)]
struct Parts {
    items: [Part; 5],
    len: usize,
}

impl Parts {
    fn as_slice(&self) -> &[Part] {
        &self.items[..self.len]
    }
}

impl std::ops::Deref for Parts {
    type Target = [Part];

    fn deref(&self) -> &[Part] {
        self.as_slice()
    }
}

/// A position in a ply's text.
struct Cursor<'t> {
    text: &'t str,
    at: usize,
    /// Where the ply's text begins in the move.
    base: usize,
}

impl Cursor<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn advance(&mut self, bytes: usize) {
        self.at = (self.at + bytes).min(self.text.len());
        while !self.text.is_char_boundary(self.at) {
            self.at += 1;
        }
    }

    fn column(&self) -> usize {
        self.base + self.at
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    fn read(text: &str, edition: Edition) -> Move {
        read_move(text, edition).unwrap_or_else(|error| panic!("{text}: {error}"))
    }

    fn field(name: &str) -> Coordinates {
        let file = name.as_bytes()[0] - b'a';
        let rank: u8 = name[1..].parse().unwrap();
        Coordinates { file: Some(file), rank: Some(rank - 1) }
    }

    /// Every notation example of the seed appendix reads with the 2020 tables.
    #[test]
    fn the_seed_examples_read() {
        for example in SEED_EXAMPLES {
            read(example, Edition::Ed2020);
        }
    }

    /// The strings the reference library reads, with the current tables; and the book's forms
    /// it refuses but the book means (status after plies, tags alone, unwritten journeys).
    #[test]
    fn the_current_forms_read() {
        for example in CURRENT_EXAMPLES {
            read(example, Edition::Current);
        }
    }

    #[test]
    fn short_moves_split_their_start_from_their_destination() {
        let m = read("Bd1h5", Edition::Current);
        let ply = &m.plies[0];
        assert_eq!(ply.piece, Some(Figure::Bishop));
        assert_eq!(ply.start(), field("d1"));
        assert_eq!(ply.destination(), Some(field("h5")));
        let pawn = read("ih3:5", Edition::Ed2020);
        assert_eq!(pawn.plies[0].piece, None);
        assert_eq!(pawn.plies[0].start(), Coordinates { file: Some(8), rank: None });
        assert_eq!(
            pawn.plies[0].steps()[0].effect,
            Some(SideEffect::EnPassant { piece: None, at: Coordinates { file: None, rank: Some(4) } })
        );
        let castle = read("Kr&q", Edition::Ed2020);
        assert_eq!(castle.plies[0].destination(), Some(Coordinates { file: Some(17), rank: None }));
        assert_eq!(
            castle.plies[0].steps()[0].effect,
            Some(SideEffect::Castling { rook: Coordinates { file: Some(16), rank: None } })
        );
    }

    #[test]
    fn the_editions_differ_where_the_book_changed() {
        // The Pegasus is G in 2020 and E now, where G is the Grenadier.
        assert_eq!(read("Gc2-f8", Edition::Ed2020).plies[0].piece, Some(Figure::Pegasus));
        assert_eq!(read("Gc2-f8", Edition::Current).plies[0].piece, Some(Figure::Grenadier));
        // The lost promotion tag follows the field in 2020 and comes first now.
        assert_eq!(read("e12==", Edition::Ed2020).plies[0].steps()[0].lost, Some(LostTag::Promotion));
        assert_eq!(read("==e12", Edition::Current).plies[0].lost, Some(LostTag::Promotion));
        // Pawn-sacrifice: `::` in 2020, `;;` now.
        let sacrifice = "Sb4~Ab2::S..b6*..b8";
        assert_eq!(read(sacrifice, Edition::Ed2020).plies[2].link, Some(Link::PawnSacrifice));
        let now = read("Sb4~Ab2;;S..b6*..b8*.c9<c10..e9^W..g9*.h8<h9", Edition::Current);
        assert_eq!(now.plies[2].link, Some(Link::PawnSacrifice));
        // `++` is a double check in 2020, a mate now.
        assert_eq!(read("Qd8++", Edition::Ed2020).status.check, Some(CheckMark::DoubleCheck));
        assert_eq!(read("Qd8++", Edition::Current).status.check, Some(CheckMark::Mate));
        // `||` failed a teleport in 2020; now it is a re-emergence.
        assert_eq!(read("Ba18||", Edition::Ed2020).plies[1].link, Some(Link::FailedTeleport));
        assert_eq!(read("Ic3||b3", Edition::Current).plies[1].link, Some(Link::Reemergence));
    }

    #[test]
    fn cascades_and_journeys_keep_their_plies() {
        let journey = read("[He13..e18<Ni14..m12<Pj17..g24]", Edition::Ed2020);
        let steps = journey.plies[0].steps();
        assert_eq!(steps.len(), 3);
        assert_eq!(
            steps[0].effect,
            Some(SideEffect::Displacement { piece: Some(Figure::Knight), lost: None, to: field("i14") })
        );
        let unwritten = read("[Hf10-d11]~[Wd11-e13]@", Edition::Ed2020);
        assert_eq!(unwritten.plies[2].body, PlyBody::Unwritten);
        let dual = read("He12@@P,B,R", Edition::Current);
        let listed = |figures: [Figure; 3]| figures.map(|figure| (figure, Coordinates::default())).to_vec();
        assert_eq!(dual.plies[1].body, PlyBody::Pieces(listed([Figure::Pawn, Figure::Bishop, Figure::Rook])));
        let placed = read("[Hd13-e12]@@Pq16,Bp14", Edition::Current);
        assert_eq!(
            placed.plies[1].body,
            PlyBody::Pieces(vec![(Figure::Pawn, field("q16")), (Figure::Bishop, field("p14"))])
        );
        let uplift = read("[Id4-c5]\"[Bc5,z11-n7]", Edition::Current);
        assert_eq!(uplift.plies[1].start(), field("c5"));
        assert_eq!(uplift.plies[1].destination(), Some(field("n7")));
        assert_eq!(read("Ra13-a18|||R", Edition::Current).plies[1].piece, Some(Figure::Rook));
        assert_eq!(read("ef8*!", Edition::Current).annotation.as_deref(), Some("!"));
        let capture = read("e26*R=Q", Edition::Current);
        assert_eq!(
            capture.plies[0].steps()[0].effect,
            Some(SideEffect::Capture { piece: Some(Figure::Rook), lost: None, promotion: Some(Figure::Queen) })
        );
        let status = read("Nb3+(=)", Edition::Current);
        assert_eq!(status.status, Status { check: Some(CheckMark::Check), draw_offer: Some(DrawOffer::Offered) });
        assert_eq!(read("ef8*_!", Edition::Current).annotation.as_deref(), Some("!"));
        assert_eq!(read("##", Edition::Current).claim, Some(Claim::Resignation));
    }

    #[test]
    fn classical_forms_read_only_where_asked() {
        let capture = read_classical_move("Nxe5", Edition::Ed2020).unwrap();
        assert_eq!(capture.plies[0].start(), Coordinates::default());
        assert_eq!(capture.plies[0].destination(), Some(field("e5")));
        let castle = read_classical_move("O-O-O+", Edition::Ed2020).unwrap();
        assert_eq!(castle.plies[0].destination(), Some(Coordinates { file: Some(2), rank: None }));
        assert_eq!(castle.status.check, Some(CheckMark::Check));
        assert!(read_move("O-O", Edition::Ed2020).is_err());
        // `Nxe5` outside Classical Chess is a Knight from the x-file.
        assert_eq!(read("Nxe5", Edition::Ed2020).plies[0].start(), Coordinates { file: Some(23), rank: None });
    }

    #[test]
    fn errors_name_the_ply_the_step_and_the_column() {
        let error = read_move("Qf7~Xi7", Edition::Ed2020).unwrap_err();
        assert_eq!((error.ply, error.step, error.column), (Some(2), None, 4));
        assert!(error.reason.contains("'X' is no piece of the 2020 edition"), "{error}");
        let error = read_move("C.c5.g6..p27", Edition::Ed2020).unwrap_err();
        assert_eq!((error.ply, error.step, error.column), (Some(1), Some(3), 10));
        assert_eq!(error.to_string(), "ply 1, step 3, column 11: rank 27 is off every board (1 to 26)");
        let error = read_move("Bd5-e6.f7", Edition::Ed2020).unwrap_err();
        assert!(error.reason.contains("nothing may follow"), "{error}");
        assert!(read_move("[Qk2-f7~Af7", Edition::Ed2020).is_err());
        assert!(read_move("Qk2~", Edition::Ed2020).is_err());
        assert!(read_move("e4 e5", Edition::Ed2020).is_err());
        assert!(read_move("", Edition::Ed2020).is_err());
    }

    /// The notation strings of the seed appendix (`\alg{...}` that write a move).
    pub(in crate::notation::crochess) const SEED_EXAMPLES: &[&str] = &[
        "Bd5~Ah5%",
        "Bd5~Ah5%R",
        "Bh9-d5~Ad5-h5%",
        "Bl23~Ah23%%",
        "C..i11..p15",
        "C..j9..p15",
        "C.b4.f5..p15",
        "C.c5..p15",
        "C.c5.g6..p15",
        "C.f2.g6..p15",
        "Cp14",
        "Cp15",
        "Gc2-f7",
        "Gcf8",
        "Gf7",
        "Gg4*",
        "Gg4*P",
        "Hd11~We13@H..e18<i14..m12<j17..g24",
        "Hd11~We13@Hg24",
        "Hf12~Wd9~We13@H..e18*..m12*..g24",
        "Kd&",
        "Kd&e",
        "Kr&",
        "Kr&q",
        "Nc3",
        "Qf7~Ai7~Ai9",
        "Qk2-f7~Af7-i7~Ai7-i9",
        "[Bh9-d5]~[Ad5-h5%R]",
        "[Bs16-l23]~[Al23-h23%%]",
        "[H-f12]~[Wf12-d9]~[Wd9-e13]@",
        "[H-f12]~[Wf12-d9]~[Wd9-e13]@[He13..e18*N..m12*P..g24]",
        "[He13..e18*N..m12*P..g24]",
        "[He13..e18<Ni14..m12<Pj17..g24]",
        "[Hf10-d11]~[Wd11-e13]@",
        "[Hf10-d11]~[Wd11-e13]@[He13-g24]",
        "[Hf10-d11]~[Wd11-e13]@[He13..e18<Ni14..m12<Pj17..g24]",
        "[Qk2-f7]~[Af7-i7]~[Ai7-i9]",
        "e12==",
        "e8*",
        "e8*W",
        "e8=Q",
        "e8Q",
        "g4",
        "h2-h5",
        "h3:",
        "h3:5",
        "h5",
        "i2",
        "ih3:",
        "ih3:5",
        "j9",
        "l14=",
        "m2",
    ];

    /// Strings of the current edition: those the reference library reads, and the book's forms
    /// it refuses.
    pub(in crate::notation::crochess) const CURRENT_EXAMPLES: &[&str] = &[
        "Bdh5",
        "B..f3-h5",
        "[Qk2-f7]~[Af7-i7]~[Ai7-i9]",
        "h3:5",
        "Kr&q",
        "e8Q",
        "e26*R=Q",
        "==e12",
        "Re2~Wc2~P::b3*N",
        "He12@H\\w18..q16*..k14*..c18",
        "Sb4~Ab2;;S..b6*..b8*.c9<c10..e9^W..g9*.h8<h9",
        "It9$Iu8",
        "Ic3||b3",
        "Eh2~Wb4|Wa24|Wr4~Bt6",
        "Mn14-m12>Bp8",
        "#",
        "##",
        "(==)",
        "Bdh5+",
        "Bdh5#",
        "Nb3+(=)",
        "ef8*_!",
        "l14=",
        "Bl23~Ah23%%",
        "He12@@",
        "He12@@P,B,R",
        "Hz1@@@",
        "Ra18|||",
        "Id4~Ic5'",
    ];
}
