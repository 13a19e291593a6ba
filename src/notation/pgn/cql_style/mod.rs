//! PGN as CQL 6.2 writes the games it finds, so that its users can compare their output with
//! cqlq's line by line.
//!
//! CQL does not copy a game: it reads it into a database record and writes the record back.
//! The tags come in its order with its reading of their values (see [`tags`]), then a blank
//! line, the comment before the first move on a line of its own, then the movetext: moves in
//! SAN as the position gives them (`Qxf7#` even where the file says `Qxf7`), move numbers glued
//! to their moves (`1.e4 e5 2.Nf3`, `12...Nc6` after a comment or a variation), annotation
//! glyphs as `$N` (`!` becomes `$1`), the last comment of each move, variations in `( ... )`,
//! and the result, in lines of at most [`LINE_WIDTH`] bytes; then two blank lines. Letters from
//! `À` to `ÿ` are written in Latin-1, one byte each, as CQL writes them.
//!
//! ```
//! use cqlq::notation::pgn::cql_style::{CqlGame, Line, MoveNode};
//!
//! let moves = vec![
//!     MoveNode { number: 1, san: "e4".into(), ..MoveNode::default() },
//!     MoveNode { number: 1, black: true, san: "e5".into(), comment: Some(b"CQL".to_vec()), ..MoveNode::default() },
//!     MoveNode { number: 2, san: "Nf3".into(), nags: vec![1], ..MoveNode::default() },
//! ];
//! let game = CqlGame {
//!     tags: vec![(b"White".as_slice(), b"Morphy".as_slice())],
//!     line: Line { comment: Some(b"Game number 1".to_vec()), moves },
//!     result: b"*",
//! };
//! let mut out = Vec::new();
//! game.write(&mut out);
//! let expected = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Morphy\"]\n\
//!     [Black \"?\"]\n[Result \"*\"]\n\n{Game number 1}\n1.e4 e5 {CQL} 2.Nf3 $1 *\n\n\n";
//! assert_eq!(String::from_utf8(out)?, expected);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod movetext;
mod nested;
pub mod tags;
mod wrap;

pub use movetext::{Line, MAX_NAGS, MoveNode, MoveText, MoveWriter, append_comment, nag_of};
pub use wrap::{GAME_BUFFER, LINE_WIDTH, TRUNCATED};

use movetext::write_first_comment;
use wrap::Wrapped;

/// A game ready to be written as CQL 6.2 writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CqlGame<'a> {
    /// The tag pairs as read, in order, values as written (escapes in).
    pub tags: Vec<(&'a [u8], &'a [u8])>,
    /// The main line; its comment is the game's comment before the first move.
    pub line: Line,
    /// The result (`1-0`, `0-1`, `1/2-1/2`, `*`), written as the `Result` tag too.
    pub result: &'a [u8],
}

impl CqlGame<'_> {
    /// Appends the game to `out`: tags, a blank line, the game's comment on a line of its own,
    /// the movetext and the result, then two blank lines.
    pub fn write(&self, out: &mut Vec<u8>) {
        self.write_within(out, GAME_BUFFER);
    }

    /// Appends the game to `out` as [`CqlGame::write`] does, in a buffer of `buffer` bytes (CQL
    /// 6.2's `-outputbuffersize`) instead of [`GAME_BUFFER`].
    pub fn write_within(&self, out: &mut Vec<u8>, buffer: usize) {
        write_game(out, &self.tags, self.result, self.line.comment.as_deref(), buffer, |moves| {
            moves.nodes(&self.line.moves);
        });
    }
}

/// Appends a game to `out` as [`CqlGame::write`] does, its main line's moves written by
/// `moves` as they come, with a [`MoveWriter`]: for games read once, without a tree of moves.
/// The game's text is bounded by a buffer of `buffer` bytes, as CQL 6.2 bounds it.
pub fn write_game(
    out: &mut Vec<u8>,
    tags: &[(&[u8], &[u8])],
    result: &[u8],
    comment: Option<&[u8]>,
    buffer: usize,
    moves: impl FnOnce(&mut MoveWriter<'_, '_>),
) {
    let start = out.len();
    for (name, value) in tags::cql_tags(tags, result) {
        out.push(b'[');
        wrap::push_folded(out, &name);
        out.extend_from_slice(b" \"");
        wrap::push_folded(out, &value);
        out.extend_from_slice(b"\"]\n");
    }
    out.push(b'\n');
    let mut lines = Wrapped::bounded(out, start, buffer);
    if let Some(comment) = comment {
        write_first_comment(&mut lines, comment);
    }
    moves(&mut MoveWriter::new(&mut lines));
    lines.word(result);
    lines.end_line();
    lines.finish();
    out.extend_from_slice(b"\n\n");
}
