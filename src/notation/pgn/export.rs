//! Writing a game in PGN's export format: the Seven Tag Roster first, then the other tags, then
//! the movetext in SAN, `1. e4 e5 2. Nf3`, comments after the moves they follow, lines of at
//! most 79 characters, and the result.
//!
//! ```
//! use cqlq::notation::pgn::export::{self, Game, WrittenMove};
//!
//! let moves = [(1, false, "e4"), (1, true, "e5"), (2, false, "Nf3")]
//!     .map(|(number, black, san)| WrittenMove { number, black, san: san.to_owned() });
//! let game = Game {
//!     tags: vec![("White".into(), "Morphy".into())],
//!     setup: None,
//!     moves: &moves,
//!     comments: &[(2, "a classic".into())],
//!     result: "*",
//! };
//! let mut out = Vec::new();
//! export::write(&game, &mut out);
//! let text = String::from_utf8(out)?;
//! assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"));
//! assert!(text.ends_with("\n\n1. e4 e5 {a classic} 2. Nf3 *\n\n"));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

/// The longest line of movetext written.
const LINE_WIDTH: usize = 79;

/// The Seven Tag Roster, in its order, with the value of a tag the game does not have.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// A game to write.
#[derive(Clone, Debug)]
pub struct Game<'a> {
    /// Its tags (the roster's ones in any order; `Result` is taken from [`Game::result`],
    /// `SetUp` and `FEN` from [`Game::setup`]).
    pub tags: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    /// The position it starts from, where it is not its variant's first: as its `FEN` tag
    /// gives it.
    pub setup: Option<String>,
    /// Its moves, as written.
    pub moves: &'a [WrittenMove],
    /// Comments, each after the move of its ply (ply 0: before the first move), in order.
    pub comments: &'a [(u32, String)],
    /// Its result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'a str,
}

/// A move as the game's notation writes it, and its number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    /// The number of the move.
    pub number: u32,
    /// Whether the second player makes it.
    pub black: bool,
    /// The move (SAN, its check sign included).
    pub san: String,
}

/// Writes a tag pair, its value escaped.
fn write_tag(out: &mut Vec<u8>, name: &str, value: &str) {
    out.push(b'[');
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b" \"");
    for byte in value.bytes() {
        if matches!(byte, b'"' | b'\\') {
            out.push(b'\\');
        }
        // A line end would end the tag: it becomes a space.
        out.push(if byte == b'\n' || byte == b'\r' { b' ' } else { byte });
    }
    out.extend_from_slice(b"\"]\n");
}

/// Lines of movetext, wrapped at [`LINE_WIDTH`].
struct Wrapped<'o> {
    out: &'o mut Vec<u8>,
    line: usize,
}

impl Wrapped<'_> {
    fn word(&mut self, word: &[u8]) {
        // A line of movetext opening with `[` would read as a tag pair (a Croatian Chess move
        // may open so): such a word stays on its line.
        let opens_tag = word.first() == Some(&b'[');
        if self.line > 0 && self.line + 1 + word.len() > LINE_WIDTH && !opens_tag {
            self.out.push(b'\n');
            self.line = 0;
        } else if self.line > 0 {
            self.out.push(b' ');
            self.line += 1;
        }
        self.out.extend_from_slice(word);
        self.line += word.len();
    }

    /// A comment, its words wrapped, `}` written as `)`.
    fn comment(&mut self, text: &str) {
        let clean = text.replace('}', ")");
        let mut words = clean.split_ascii_whitespace().peekable();
        let mut first = true;
        while let Some(word) = words.next() {
            let last = words.peek().is_none();
            let word = match (first, last) {
                (true, true) => format!("{{{word}}}"),
                (true, false) => format!("{{{word}"),
                (false, true) => format!("{word}}}"),
                (false, false) => word.to_owned(),
            };
            self.word(word.as_bytes());
            first = false;
        }
        if first {
            self.word(b"{}");
        }
    }
}

/// Writes the tag pairs of a game: the Seven Tag Roster in its order (`?` for those missing,
/// `result` for `Result`), then the others of `tags` as they come.
pub fn write_tags<'t>(tags: impl Iterator<Item = (&'t str, &'t str)> + Clone, result: &str, out: &mut Vec<u8>) {
    for (name, missing) in ROSTER {
        let value = tags.clone().filter(|(tag, _)| tag.eq_ignore_ascii_case(name)).last().map(|(_, value)| value);
        write_tag(out, name, if name == "Result" { result } else { value.unwrap_or(missing) });
    }
    for (name, value) in tags {
        if !ROSTER.iter().any(|(roster, _)| name.eq_ignore_ascii_case(roster)) {
            write_tag(out, name, value);
        }
    }
}

/// Writes a game, then a blank line.
pub fn write(game: &Game<'_>, out: &mut Vec<u8>) {
    let tags = game.tags.iter().filter(|(name, _)| !["SetUp", "FEN"].iter().any(|tag| name.eq_ignore_ascii_case(tag)));
    write_tags(tags.map(|(name, value)| (name.as_ref(), value.as_ref())), game.result, out);
    if let Some(setup) = &game.setup {
        write_tag(out, "SetUp", "1");
        write_tag(out, "FEN", setup);
    }
    out.push(b'\n');
    let mut lines = Wrapped { out, line: 0 };
    let mut comments = game.comments.iter().peekable();
    while let Some((_, text)) = comments.next_if(|(ply, _)| *ply == 0) {
        lines.comment(text);
    }
    let mut after_comment = true;
    for (index, written) in game.moves.iter().enumerate() {
        let (number, san) = (written.number, &written.san);
        // A move number stays on the line of its move.
        let word = if !written.black {
            format!("{number}. {san}")
        } else if after_comment {
            format!("{number}... {san}")
        } else {
            san.clone()
        };
        lines.word(word.as_bytes());
        let ply = u32::try_from(index + 1).unwrap_or(u32::MAX);
        after_comment = false;
        while let Some((_, text)) = comments.next_if(|(at, _)| *at == ply) {
            lines.comment(text);
            after_comment = true;
        }
    }
    lines.word(game.result.as_bytes());
    out.extend_from_slice(b"\n\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(first: (u32, bool), sans: &[&str]) -> Vec<WrittenMove> {
        let mut next = first;
        sans.iter()
            .map(|san| {
                let (number, black) = next;
                next = if black { (number + 1, false) } else { (number, true) };
                WrittenMove { number, black, san: (*san).to_owned() }
            })
            .collect()
    }

    #[test]
    fn games_are_written_in_export_format() {
        let played = moves((1, false), &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]);
        let tags = vec![("Black".into(), "B \"x\"".into()), ("Annotator".into(), "cqlq".into())];
        let comments = [(0, "start".to_owned()), (3, "the queen}".to_owned()), (7, "mate".to_owned())];
        let game = Game { tags, setup: None, moves: &played, comments: &comments, result: "1-0" };
        let mut out = Vec::new();
        write(&game, &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n\
             [Black \"B \\\"x\\\"\"]\n[Result \"1-0\"]\n[Annotator \"cqlq\"]\n\n\
             {start} 1. e4 e5 2. Qh5 {the queen)} 2... Nc6 3. Bc4 Nf6 4. Qxf7# {mate} 1-0\n\n"
        );
    }

    #[test]
    fn long_games_wrap_and_positions_set_up_are_given() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30";
        let mut sans = Vec::new();
        for _ in 0..20 {
            sans.extend(["Kd8", "Kd1", "Ke8", "Ke1"]);
        }
        let played = moves((30, true), &sans);
        let game = Game { tags: Vec::new(), setup: Some(fen.to_owned()), moves: &played, comments: &[], result: "*" };
        let mut out = Vec::new();
        write(&game, &mut out);
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n30... Kd8 31. Kd1")), "{text}");
        assert!(text.lines().all(|line| line.len() <= LINE_WIDTH));
    }
}
