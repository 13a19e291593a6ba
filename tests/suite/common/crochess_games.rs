//! Random Croatian Chess games, every move written in both the short and the long notation of
//! an edition: plies of every piece that moves on its own, captures, rushes, en passant,
//! castling, promotions (immediate where the variant forces them, tagged where it delays them,
//! and a tagged Pawn's promotion later), cascades through Pyramids and Waves, and teleports
//! through Stars. The moves are chosen from the paths the rules generate; each is played in both
//! notations, which must agree.

use cqlq::board::Square;
use cqlq::notation::crochess::dialect::{Dialect, Figure};
use cqlq::notation::crochess::moves::Coordinates;
use cqlq::position::{Mark, PositionView};
use cqlq::rules::GameRules;
use cqlq::rules::crochess::CroatianBoard;
use cqlq::variant::{Color, Edition, Variant};

use super::games::Rng;

/// A move written both ways.
#[derive(Clone, Debug)]
pub struct Written {
    /// The short notation (EAN).
    pub short: String,
    /// The long notation (XAN).
    pub long: String,
}

/// A generated game: its moves, and the setup string after each.
pub struct Game {
    /// The variant, in its edition.
    pub variant: &'static Variant,
    /// The moves.
    pub moves: Vec<Written>,
    /// The setup string after each move.
    pub positions: Vec<String>,
}

/// The variants whose promotions are forced (crochess.md §1).
fn promotion_is_forced(variant: &Variant) -> bool {
    matches!(variant.code, Some("cc" | "ct" | "ma" | "cot"))
}

/// A random game of `plies` plies of `variant` (fewer where the side to move has no move the
/// generator writes), each move checked: its short and long forms give the same position.
///
/// # Panics
///
/// Where the two forms disagree or one is refused: a defect of the reader or the rules.
pub fn random_game<const W: usize>(variant: &'static Variant, seed: u64, plies: usize) -> Game {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut board = CroatianBoard::<W>::start(variant, None).unwrap();
    let dialect = Dialect::of(variant.edition().unwrap());
    let mut game = Game { variant, moves: Vec::new(), positions: Vec::new() };
    for _ in 0..plies {
        let candidates = candidates(&board);
        if candidates.is_empty() {
            break;
        }
        // Cascades, teleports, castling and promotions are rarer than plain moves: favour them.
        let special: Vec<&Candidate> = candidates.iter().filter(|c| c.special).collect();
        // Each kind of piece that can move is as likely to as any other, so that the pieces
        // behind the Pawns get their turn.
        let chosen = if !special.is_empty() && rng.below(3) == 0 {
            special[rng.below(special.len())].clone()
        } else {
            let mut kinds: Vec<Figure> = candidates.iter().map(|c| c.figure).collect();
            kinds.sort_by_key(|figure| *figure as usize);
            kinds.dedup();
            let kind = kinds[rng.below(kinds.len())];
            let of_kind: Vec<&Candidate> = candidates.iter().filter(|c| c.figure == kind).collect();
            of_kind[rng.below(of_kind.len())].clone()
        };
        let Some(written) = write(&board, dialect, &chosen, &mut rng) else { continue };
        let mut short = board.clone();
        let mut long = board.clone();
        let mut reason = None;
        let played = short.play_token(written.short.as_bytes(), &mut reason);
        assert!(played.is_ok(), "{}: {} refused: {reason:?}\n{}", variant.name, written.short, position(&board));
        let played = long.play_token(written.long.as_bytes(), &mut reason);
        assert!(played.is_ok(), "{}: {} refused: {reason:?}\n{}", variant.name, written.long, position(&board));
        assert_eq!(
            position(&short),
            position(&long),
            "{}: {} and {} differ",
            variant.name,
            written.short,
            written.long
        );
        game.positions.push(position(&short));
        game.moves.push(written);
        board = short;
    }
    game
}

fn position<const W: usize>(board: &CroatianBoard<W>) -> String {
    let mut out = String::new();
    board.write_position(&mut out);
    out
}

/// A move the generator may write: a first ply, and what follows it.
#[derive(Clone, Debug)]
struct Candidate {
    from: Square,
    to: Square,
    figure: Figure,
    then: Then,
    special: bool,
}

#[derive(Clone, Debug)]
enum Then {
    /// The move ends there (taking an enemy piece there).
    Nothing,
    /// The piece there (a Pyramid or Wave of the mover's) moves on to a field.
    Cascade { activated: Figure, to: Square },
    /// The piece enters the Star there and emerges on a field.
    Teleport { emerge: Square },
    /// The King castles with the Rook on the field, landing on `to`.
    Castle { rook_to: Square },
    /// The Pawn takes en passant the private on the field.
    EnPassant,
    /// The Pawn promotes to a Queen.
    Promote,
    /// The Pawn is tagged for a later promotion.
    Tag,
    /// The tagged Pawn promotes where it stands.
    PromoteTagged,
}

fn candidates<const W: usize>(board: &CroatianBoard<W>) -> Vec<Candidate> {
    let color = board.turn();
    let geometry = board.geometry();
    let variant = board.variant();
    let last_rank = if color == Color::White { geometry.ranks() - 1 } else { 0 };
    let mut out = Vec::new();
    for from in geometry.all_squares() {
        let Some((piece, figure)) = board.figure_at(from) else { continue };
        // Either side moves a Monolith.
        let own = piece.color == color || figure == Figure::Monolith;
        if !own || matches!(figure, Figure::Pyramid | Figure::Wave | Figure::Star) {
            continue;
        }
        if figure == Figure::Pawn && board.marked(Mark::PROMOTION_TAG).contains(from) {
            out.push(Candidate { from, to: from, figure, then: Then::PromoteTagged, special: true });
        }
        for to in board.ply_ends(from, figure, true) {
            let there = board.figure_at(to);
            let plain = |then, special| Candidate { from, to, figure, then, special };
            let takes_or_empty = there
                .is_none_or(|(p, f)| p.color != color && !matches!(f, Figure::Star | Figure::Monolith | Figure::King));
            if takes_or_empty {
                if figure == Figure::Pawn && geometry.rank_of(to).index() == last_rank {
                    let then = if promotion_is_forced(variant) { Then::Promote } else { Then::Tag };
                    out.push(plain(then, true));
                } else {
                    out.push(plain(Then::Nothing, false));
                }
                continue;
            }
            let (owner, target) = there.expect("a piece stands there");
            let straight_pawn = figure == Figure::Pawn && geometry.file_of(to) == geometry.file_of(from);
            // A King activates only Waves; a Monolith nothing.
            let activator =
                figure != Figure::Monolith && !straight_pawn && (figure != Figure::King || target == Figure::Wave);
            if owner.color == color && matches!(target, Figure::Pyramid | Figure::Wave) && activator {
                let moves_as = if target == Figure::Wave { wave_moves_as(figure) } else { Some(Figure::Rook) };
                let Some(moves_as) = moves_as else { continue };
                let momentum = distance(board, from, to);
                for next in board.ply_ends(to, moves_as, false) {
                    if next == from || board.figure_at(next).is_some_and(|(_, f)| f == Figure::King) {
                        continue;
                    }
                    if target == Figure::Pyramid
                        && (distance(board, to, next) > momentum || promotion_zone(board, next, color))
                    {
                        continue;
                    }
                    out.push(plain(Then::Cascade { activated: target, to: next }, true));
                }
            } else if target == Figure::Star && !matches!(figure, Figure::King | Figure::Pawn | Figure::Monolith) {
                for emerge in portal_fields(board, to) {
                    out.push(plain(Then::Teleport { emerge }, true));
                }
            }
        }
        if figure == Figure::Pawn {
            // A diagonal step onto an empty field a private rushed past takes it en passant.
            let forward = if color == Color::White { 1 } else { -1 };
            for side in [-1, 1] {
                let to = geometry.square_at(
                    i32::from(geometry.file_of(from).index()) + side,
                    i32::from(geometry.rank_of(from).index()) + forward,
                );
                if let Some(to) = to.filter(|&to| !board.occupied().contains(to))
                    && en_passant_victim(board, to, color).is_some()
                {
                    out.push(Candidate { from, to, figure, then: Then::EnPassant, special: true });
                }
            }
        }
        if figure == Figure::King && board.marked(Mark::CASTLE).contains(from) {
            out.extend(castlings(board, from));
        }
    }
    out
}

/// A Pyramid that ends its ply on the opponent's half would promote own Pawns it touches:
/// the generator keeps it out of that half.
fn promotion_zone<const W: usize>(board: &CroatianBoard<W>, square: Square, color: Color) -> bool {
    let rank = board.geometry().rank_of(square).index();
    let half = board.geometry().ranks() / 2;
    if color == Color::White { rank >= half } else { rank < half }
}

/// How a Wave moves when a piece activates it (crochess.md §2), for the pieces the generator
/// lets activate one.
fn wave_moves_as(activator: Figure) -> Option<Figure> {
    match activator {
        Figure::Knight | Figure::Pegasus => Some(Figure::Pegasus),
        Figure::Queen | Figure::King => Some(Figure::Queen),
        Figure::Unicorn | Figure::Centaur => Some(Figure::Centaur),
        Figure::Rook => Some(Figure::Rook),
        Figure::Bishop => Some(Figure::Bishop),
        _ => None,
    }
}

/// The fields of a line move, or 1 for a jump.
fn distance<const W: usize>(board: &CroatianBoard<W>, from: Square, to: Square) -> u32 {
    let g = board.geometry();
    let df = (i32::from(g.file_of(to).index()) - i32::from(g.file_of(from).index())).unsigned_abs();
    let dr = (i32::from(g.rank_of(to).index()) - i32::from(g.rank_of(from).index())).unsigned_abs();
    if df == 0 || dr == 0 || df == dr { df.max(dr) } else { 1 }
}

/// The empty fields beside a Star of the other shade than the one at `star`.
fn portal_fields<const W: usize>(board: &CroatianBoard<W>, star: Square) -> Vec<Square> {
    let g = board.geometry();
    let shade = board.figure_at(star).unwrap().0.color;
    let mut fields = Vec::new();
    for other in g.all_squares() {
        if board.figure_at(other).is_some_and(|(piece, figure)| figure == Figure::Star && piece.color != shade) {
            for (df, dr) in [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)] {
                let field =
                    g.square_at(i32::from(g.file_of(other).index()) + df, i32::from(g.rank_of(other).index()) + dr);
                if let Some(field) = field.filter(|&field| !board.occupied().contains(field)) {
                    fields.push(field);
                }
            }
        }
    }
    fields
}

fn en_passant_victim<const W: usize>(board: &CroatianBoard<W>, to: Square, color: Color) -> Option<Square> {
    let g = board.geometry();
    let behind = if color == Color::White { 1 } else { -1 };
    let victim = g.square_at(i32::from(g.file_of(to).index()), i32::from(g.rank_of(to).index()) + behind)?;
    let rushed = board.marked(Mark::RUSHED) & board.color(color.other());
    rushed.contains(victim).then_some(victim)
}

/// Castling with each Rook that still may: every landing field of the King between them.
fn castlings<const W: usize>(board: &CroatianBoard<W>, king: Square) -> Vec<Candidate> {
    let g = board.geometry();
    let rank = i32::from(g.rank_of(king).index());
    let king_file = i32::from(g.file_of(king).index());
    let mut out = Vec::new();
    for toward in [-1i32, 1] {
        let mut file = king_file + toward;
        let rook = loop {
            let Some(square) = g.square_at(file, rank) else { break None };
            match board.figure_at(square) {
                None => file += toward,
                Some((_, Figure::Rook)) if board.marked(Mark::CASTLE).contains(square) => break Some(file),
                Some(_) => break None,
            }
        };
        let Some(rook_file) = rook else { continue };
        let landings: Vec<i32> = if toward < 0 {
            (rook_file + 2..=king_file - 2).collect()
        } else {
            (king_file + 2..=rook_file - 1).collect()
        };
        for landing in landings {
            let to = g.square_at(landing, rank).unwrap();
            let rook_to = g.square_at(landing - toward, rank).unwrap();
            out.push(Candidate { from: king, to, figure: Figure::King, then: Then::Castle { rook_to }, special: true });
        }
    }
    out
}

/// Writes a candidate in the short and the long notation; `None` where the short notation
/// cannot tell it apart from another move the generator does not write.
fn write<const W: usize>(board: &CroatianBoard<W>, dialect: &Dialect, c: &Candidate, rng: &mut Rng) -> Option<Written> {
    let g = board.geometry();
    let name = |square: Square| g.square_name(square).to_string();
    let letter = |figure: Figure| -> String {
        if figure == Figure::Pawn { String::new() } else { dialect.letter(figure).unwrap().to_string() }
    };
    let piece = letter(c.figure);
    let long_piece = if c.figure == Figure::Pawn && rng.below(2) == 0 {
        String::new()
    } else {
        dialect.letter(c.figure).unwrap().to_string()
    };
    let (to, from) = (name(c.to), name(c.from));
    let enemy_there = board.figure_at(c.to).is_some_and(|(p, _)| p.color != board.turn());
    let capture = if enemy_there && rng.below(2) == 0 { "*" } else { "" };
    let effect_for_origin = match &c.then {
        Then::EnPassant => {
            Some(cqlq::notation::crochess::moves::SideEffect::EnPassant { piece: None, at: Coordinates::default() })
        }
        _ => None,
    };
    let goes_on = matches!(c.then, Then::Cascade { .. } | Then::Teleport { .. });
    // The shortest start that leaves one piece: none, the file, the rank, the whole field.
    let file = g.file_of(c.from).index();
    let rank = g.rank_of(c.from).index();
    let starts = [
        (Coordinates::default(), String::new()),
        (Coordinates { file: Some(file), rank: None }, g.file_of(c.from).char().to_string()),
        (Coordinates { file: None, rank: Some(rank) }, (rank + 1).to_string()),
        (Coordinates { file: Some(file), rank: Some(rank) }, from.clone()),
    ];
    let disambiguation = starts
        .iter()
        .find(|(start, _)| {
            let origins = board.ply_origins(c.figure, *start, c.to, effect_for_origin.as_ref(), goes_on);
            origins == [c.from]
        })
        .map(|(_, text)| text.clone())?;
    let (short, long) = match &c.then {
        Then::Nothing => (format!("{piece}{disambiguation}{to}{capture}"), format!("{long_piece}{from}-{to}{capture}")),
        Then::Cascade { activated, to: next } => {
            let a = letter(*activated);
            let next = name(*next);
            (format!("{piece}{disambiguation}{to}~{a}{next}"), format!("[{long_piece}{from}-{to}]~[{a}{to}-{next}]"))
        }
        Then::Teleport { emerge } => {
            let emerge = name(*emerge);
            (format!("{piece}{disambiguation}{to}|{emerge}"), format!("{long_piece}{from}-{to}|{piece}{emerge}"))
        }
        Then::Castle { rook_to } => {
            let king_file = g.file_of(c.to).char();
            let rook_file = g.file_of(*rook_to).char();
            (format!("K{king_file}&"), format!("K{from}-{to}&{rook_file}"))
        }
        Then::EnPassant => (format!("{disambiguation}{to}:"), format!("{from}-{to}:")),
        Then::Promote => {
            let q = dialect.letter(Figure::Queen).unwrap();
            (format!("{disambiguation}{to}{capture}={q}"), format!("{from}-{to}{capture}={q}"))
        }
        Then::Tag => (format!("{disambiguation}{to}="), format!("{from}-{to}=")),
        Then::PromoteTagged => {
            let q = dialect.letter(Figure::Queen).unwrap();
            (format!("{to}{q}"), format!("{to}={q}"))
        }
    };
    Some(Written { short, long })
}

/// The pieces a game moves: by the letters of its short moves (a Pawn where none is), the
/// pieces its cascades activate, and the Stars it teleports through.
pub fn pieces_moved(game: &Game) -> Vec<Figure> {
    let dialect = Dialect::of(game.variant.edition().unwrap());
    let mut moved = Vec::new();
    for written in &game.moves {
        for (index, ply) in written.short.split(['~', '|']).enumerate() {
            let first = ply.chars().next().unwrap_or(' ');
            let figure = if first.is_ascii_uppercase() {
                dialect.figure(first)
            } else if index == 0 {
                Some(Figure::Pawn)
            } else {
                None
            };
            moved.extend(figure);
        }
        if written.short.contains('|') {
            moved.push(Figure::Star);
        }
    }
    moved.sort_by_key(|figure| *figure as usize);
    moved.dedup();
    moved
}

/// Whether a game moves every piece of its variant.
pub fn moves_every_piece(game: &Game) -> bool {
    let moved = pieces_moved(game);
    game.variant.pieces.iter().all(|piece| moved.iter().any(|figure| figure.name() == piece.name))
}

/// How a record writes its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Every move in the short notation.
    Short,
    /// Every move in the long notation.
    Long,
    /// Each move short or long at random (a third long).
    Mixed,
}

/// The game as a PGN record, its moves in `form`.
pub fn pgn(game: &Game, event: &str, seed: u64, form: Form) -> String {
    let mut rng = Rng(seed | 1);
    let variant = game.variant;
    let base = variant.name.trim_end_matches(" (current edition)");
    let result = "*";
    let mut out = format!(
        "[Event \"{event}\"]\n[Site \"cqlq samples\"]\n[Round \"{seed}\"]\n[White \"Light\"]\n[Black \"Dark\"]\n[Result \"{result}\"]\n[Variant \"{base}\"]\n"
    );
    if variant.edition() == Some(Edition::Current) {
        out.push_str("[Edition \"current\"]\n");
    }
    out.push('\n');
    let mut line = String::new();
    for (index, written) in game.moves.iter().enumerate() {
        if index % 2 == 0 {
            // Lines break before move numbers only: a line that opened with a bracketed ply
            // would read as a tag.
            if line.len() > 70 {
                out.push_str(line.trim_end());
                out.push('\n');
                line.clear();
            }
            line.push_str(&format!("{}. ", index / 2 + 1));
        }
        let long = match form {
            Form::Short => false,
            Form::Long => true,
            Form::Mixed => rng.below(3) == 0,
        };
        line.push_str(if long { &written.long } else { &written.short });
        line.push(' ');
    }
    line.push_str(result);
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// The variants of the book in an edition, Classical Chess to One.
pub fn croatian_variants(edition: Edition) -> Vec<&'static Variant> {
    Variant::all().iter().filter(|variant| variant.edition() == Some(edition)).collect()
}
