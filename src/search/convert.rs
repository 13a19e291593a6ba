//! Writing the games read in another notation: PGN with SAN for every tool that reads PGN, the
//! X-Decor move table (as the mod shows it, or in letters) and its `moves_raw` record.
//!
//! [`Converter`] renders games on the search's threads (it is a [`Render`]); [`pgn_of`] writes
//! a game read from a notation's own format as PGN, with the comments of a search.

use std::borrow::Cow;
use std::fmt;

use super::driver::Found;
use super::main_line::{MainLine, read_main_line};
use super::render::Render;
use crate::notation::pgn::export;
use crate::notation::pgn::export::WrittenMove;
use crate::notation::{Container, NativeFormat};
use crate::rules::registry::{Typed, WithRules, with_rules};
use crate::rules::{GameRules, NotationForm, RecordFormat, Rewritten};
use crate::variant::{Edition, Notation, Variant};

/// The notations games are converted to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// PGN in export format, moves in SAN.
    Pgn,
    /// The X-Decor move table, as the mod shows it (figurines, en dashes, `×`).
    XDecor,
    /// The X-Decor move table in ASCII letters, as a person types it (`Ng1-f3`, `O-O`).
    XDecorLetters,
    /// X-Decor's `moves_raw` record, one game a line.
    XDecorRaw,
    /// The game's own notation in its short form (Croatian Chess's EAN), in PGN.
    Short,
    /// The game's own notation in its long form (Croatian Chess's XAN), in PGN.
    Long,
}

impl Target {
    /// The targets, by the names `cqlq convert --to` takes.
    pub const NAMES: [(&'static str, Target); 6] = [
        ("pgn", Target::Pgn),
        ("xdecor", Target::XDecor),
        ("xdecor-letters", Target::XDecorLetters),
        ("xdecor-raw", Target::XDecorRaw),
        ("short", Target::Short),
        ("long", Target::Long),
    ];

    /// The target with this name.
    #[must_use]
    pub fn by_name(name: &str) -> Option<Target> {
        Target::NAMES.iter().find(|(known, _)| known.eq_ignore_ascii_case(name)).map(|&(_, target)| target)
    }
}

/// Why a game was not converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotConverted(pub String);

impl fmt::Display for NotConverted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotConverted {}

/// The byte that starts a rendering that is no game but why the game was not converted (no
/// game written starts with it).
pub const NOT_CONVERTED: u8 = 0;

/// Converts the games found into a target notation.
#[derive(Clone, Copy, Debug)]
pub struct Converter {
    /// The notation written.
    pub target: Target,
    /// The variant of games without a `Variant` tag.
    pub default_variant: &'static Variant,
    /// The edition of the book games of a variant with editions follow where they have no
    /// `Edition` tag (none: the variant's own).
    pub edition: Option<Edition>,
    /// The edition a game's own notation is written in ([`Target::Short`], [`Target::Long`];
    /// none: the game's own).
    pub to_edition: Option<Edition>,
}

impl Render for Converter {
    /// Appends the game converted; a game that cannot be converted appends [`NOT_CONVERTED`]
    /// and why ([`Converter::not_converted`] reads it).
    fn render(&self, game: &Found<'_>, out: &mut Vec<u8>) -> Option<String> {
        if let Err(NotConverted(why)) = self.convert(game, out) {
            out.push(NOT_CONVERTED);
            out.extend_from_slice(why.as_bytes());
        }
        None
    }
}

impl Converter {
    /// Why a rendered game was not converted, if it was not.
    #[must_use]
    pub fn not_converted(rendered: &[u8]) -> Option<Cow<'_, str>> {
        rendered.strip_prefix(&[NOT_CONVERTED]).map(String::from_utf8_lossy)
    }

    /// Appends a game converted.
    pub fn convert(&self, game: &Found<'_>, out: &mut Vec<u8>) -> Result<(), NotConverted> {
        if let (Container::Native(format), Target::Pgn) = (game.container, self.target)
            && format.is_pgn_movetext()
        {
            write_movetext_game(format, game, out);
            return Ok(());
        }
        let line = read_main_line(game.text, game.container, self.default_variant, self.edition).ok_or_else(|| {
            NotConverted("its moves cannot be read as chess moves (its variant or its FEN tag)".to_owned())
        })?;
        let format = match self.target {
            Target::Pgn => {
                pgn_of(&line, game, &[], out);
                return Ok(());
            }
            Target::XDecor => RecordFormat::XDecorTable,
            Target::XDecorLetters => RecordFormat::XDecorLetters,
            Target::XDecorRaw => RecordFormat::XDecorRaw,
            Target::Short => return self.rewrite(&line, NotationForm::Short, out),
            Target::Long => return self.rewrite(&line, NotationForm::Long, out),
        };
        let record = Record { line: &line, format, out };
        with_rules(line.variant, record).map_err(|_| NotConverted("its moves are not replayed".to_owned()))??;
        // A blank line ends a game of the table, a line end a raw record.
        out.push(b'\n');
        Ok(())
    }
}

impl Converter {
    /// Writes a game in its own notation's `form` as PGN: its tags (its `Variant`, and its
    /// `Edition` where it has one), its setup where it has one, its moves written again.
    fn rewrite(&self, line: &MainLine<'_>, form: NotationForm, out: &mut Vec<u8>) -> Result<(), NotConverted> {
        if let Some((ply, token, why)) = &line.error {
            return Err(NotConverted(format!("its ply {ply} ('{token}') cannot be played: {why}")));
        }
        let target = match self.to_edition {
            Some(edition) => line.variant.in_edition(edition).ok_or_else(|| {
                NotConverted(format!("{} has no editions to write it in the {edition}", line.variant.name))
            })?,
            None => line.variant,
        };
        let tokens: Vec<&str> = line.moves.iter().map(|written| written.san.as_str()).collect();
        let rewrite = Rewrite { line, tokens: &tokens, form, target };
        let rewritten =
            with_rules(line.variant, rewrite).map_err(|_| NotConverted("its moves are not replayed".to_owned()))??;
        // The variant by the name of its first edition, the edition in its own tag.
        let named = target.edition().and_then(|_| target.in_edition(Edition::default())).unwrap_or(target);
        let mut tags: Vec<(Cow<'_, str>, Cow<'_, str>)> = line
            .tags
            .iter()
            .map(|(name, value)| (String::from_utf8_lossy(name), crate::notation::pgn::tag_text(value)))
            .filter(|(name, _)| !["Variant", "Edition"].iter().any(|tag| name.eq_ignore_ascii_case(tag)))
            .collect();
        tags.push(("Variant".into(), named.name.into()));
        if let Some(edition) = target.edition() {
            tags.push(("Edition".into(), edition.tag().into()));
        }
        let moves: Vec<WrittenMove> = line
            .moves
            .iter()
            .zip(rewritten.moves)
            .map(|(read, san)| WrittenMove { number: read.number, black: read.black, san })
            .collect();
        let result = line.outcome.map_or("*", |outcome| std::str::from_utf8(outcome).unwrap_or("*"));
        let game = export::Game { tags, setup: rewritten.setup, moves: &moves, comments: &[], result };
        export::write(&game, out);
        Ok(())
    }
}

/// Writing a main line's moves again in its own notation, by the rules of its variant.
struct Rewrite<'l, 'a> {
    line: &'l MainLine<'a>,
    tokens: &'l [&'l str],
    form: NotationForm,
    target: &'static Variant,
}

impl WithRules for Rewrite<'_, '_> {
    type Output = Result<Rewritten, NotConverted>;

    fn run<R: GameRules<W>, const W: usize>(self, _typed: Typed<W>) -> Result<Rewritten, NotConverted> {
        let line = self.line;
        let initial = R::start(line.variant, line.fen_tag.as_deref()).map_err(NotConverted)?;
        initial.rewrite(self.tokens, self.form, self.target).map_err(NotConverted)
    }
}

/// Writing a main line in the record format of another program, by the rules of its variant.
struct Record<'l, 'a, 'o> {
    line: &'l MainLine<'a>,
    format: RecordFormat,
    out: &'o mut Vec<u8>,
}

impl WithRules for Record<'_, '_, '_> {
    type Output = Result<(), NotConverted>;

    fn run<R: GameRules<W>, const W: usize>(self, _typed: Typed<W>) -> Result<(), NotConverted> {
        let line = self.line;
        let initial = R::start(line.variant, line.fen_tag.as_deref()).map_err(NotConverted)?;
        let mut board = initial.clone();
        let moves: Option<Vec<R::Played>> = line.kept.iter().map(|&kept| board.play_kept(kept)).collect();
        let moves = moves.filter(|moves| moves.len() == line.moves.len());
        let moves = moves.ok_or_else(|| NotConverted("its moves are not kept by its rules".to_owned()))?;
        initial.write_record(&moves, self.format, line.outcome, self.out).map_err(NotConverted)
    }
}

/// Whether a game is written in its PGN container's own notation (SAN).
fn is_san(line: &MainLine<'_>, container: Container) -> bool {
    matches!(container, Container::Pgn) && line.variant.notation == Notation::San
}

/// What the `Annotator` tag of a game written in SAN from another notation says: where it
/// came from.
pub(super) fn provenance(line: &MainLine<'_>, game: &Found<'_>) -> String {
    let from = match game.container {
        Container::Native(format) => format.description(),
        Container::Pgn => line.variant.name,
    };
    provenance_from(from, game)
}

/// Writes a game of a format that holds PGN movetext as it stands (a Laser Chess move list) as
/// PGN: the Seven Tag Roster, its variant and where it came from, then its movetext, and `*`
/// where the record has no result.
pub(super) fn write_movetext_game(format: &dyn NativeFormat, game: &Found<'_>, out: &mut Vec<u8>) {
    write_movetext_tags(format, game, out);
    let text = game.text.trim_ascii_end();
    out.extend_from_slice(text);
    end_movetext(game, out);
}

/// The tags [`write_movetext_game`] writes, then the blank line before the movetext.
pub(super) fn write_movetext_tags(format: &dyn NativeFormat, game: &Found<'_>, out: &mut Vec<u8>) {
    let annotator = provenance_from(format.description(), game);
    let result = game.outcome.map_or("*", |outcome| std::str::from_utf8(outcome).unwrap_or("*"));
    let tags = [("Variant", format.variant().name), ("Annotator", annotator.as_str())];
    export::write_tags(tags.into_iter(), result, out);
    out.push(b'\n');
}

/// Ends the movetext of a game [`write_movetext_game`] writes: ` *` where it has no result,
/// then a blank line.
pub(super) fn end_movetext(game: &Found<'_>, out: &mut Vec<u8>) {
    if game.outcome.is_none() {
        out.extend_from_slice(b" *");
    }
    out.extend_from_slice(b"\n\n");
}

/// What the `Annotator` tag of a game written as PGN from `from` says.
pub(super) fn provenance_from(from: &str, game: &Found<'_>) -> String {
    format!("cqlq, from the {from} of {} at line {}", game.input, game.line)
}

/// Writes a game's main line as PGN, the comments given (ply, text) after their moves. A game
/// read from another notation keeps its tags but `Variant` (where its rules are Standard
/// chess) and gains an `Annotator` tag saying where it came from; one whose moves stop at an
/// error ends with a comment saying so, and `*`.
pub fn pgn_of(line: &MainLine<'_>, game: &Found<'_>, comments: &[(u32, String)], out: &mut Vec<u8>) {
    let mut tags: Vec<(Cow<'_, str>, Cow<'_, str>)> = line
        .tags
        .iter()
        .map(|(name, value)| (String::from_utf8_lossy(name), crate::notation::pgn::tag_text(value)))
        .collect();
    let standard_rules = line.variant.same_rules(Variant::standard());
    if !is_san(line, game.container) {
        if standard_rules {
            tags.retain(|(name, _)| !name.eq_ignore_ascii_case("Variant"));
        }
        tags.retain(|(name, _)| !name.eq_ignore_ascii_case("Annotator"));
        tags.push(("Annotator".into(), provenance(line, game).into()));
    }
    let mut comments = comments.to_vec();
    let mut result = line.outcome.map_or("*", |outcome| std::str::from_utf8(outcome).unwrap_or("*"));
    if let Some((ply, token, why)) = &line.error {
        comments.push((
            ply.saturating_sub(1),
            format!("the record goes on with '{token}', which cqlq could not play: {why}"),
        ));
        result = "*";
    }
    let game = export::Game { tags, setup: line.setup.clone(), moves: &line.moves, comments: &comments, result };
    export::write(&game, out);
}
