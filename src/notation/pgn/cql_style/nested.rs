//! Lines of moves nested to any depth: a [`Line`] is dropped, cloned, compared and shown by
//! loops over its tree of variations, never by recursion, so that a game of a hundred thousand
//! nested variations fits on the stack of any thread (the derived implementations would take
//! a few stack frames for each level).
//!
//! ```
//! use cqlq::notation::pgn::cql_style::{Line, MoveNode};
//!
//! // 1.e4 ( 1.d4 ( 1.d4 ( ... ) ) ), 100,000 variations deep.
//! let mut line = Line::default();
//! for depth in 0..100_000 {
//!     let san = if depth == 99_999 { "e4" } else { "d4" };
//!     let variations = if depth == 0 { Vec::new() } else { vec![std::mem::take(&mut line)] };
//!     line.moves.push(MoveNode { number: 1, san: san.into(), variations, ..MoveNode::default() });
//! }
//! let copy = line.clone();
//! assert!(copy == line);
//! ```

use std::fmt;

use super::movetext::{Line, MoveNode, write_comment, write_moves};
use super::wrap::Wrapped;

impl Drop for Line {
    fn drop(&mut self) {
        // The variations are taken out of their moves into one list, level after level, so
        // that each line is dropped with none left inside it.
        let mut nested = Vec::new();
        take_variations(&mut self.moves, &mut nested);
        while let Some(mut line) = nested.pop() {
            take_variations(&mut line.moves, &mut nested);
        }
    }
}

/// Moves the variations of `moves` to the end of `into`.
fn take_variations(moves: &mut [MoveNode], into: &mut Vec<Line>) {
    for node in moves {
        into.append(&mut node.variations);
    }
}

impl Clone for Line {
    fn clone(&self) -> Line {
        // The lines being copied, from the outermost to the one inside the others.
        let mut outer: Vec<Copying<'_>> = Vec::new();
        let mut current = Copying::new(self);
        loop {
            if let Some(variation) = current.next_variation() {
                outer.push(std::mem::replace(&mut current, Copying::new(variation)));
                continue;
            }
            match outer.pop() {
                Some(mut parent) => {
                    parent.attach(current.copy);
                    current = parent;
                }
                None => return current.copy,
            }
        }
    }
}

/// A line being copied: the original, its copy so far (the moves, then their variations as
/// they are copied), and the next variation to copy (a move's index and the variation's).
struct Copying<'a> {
    original: &'a Line,
    copy: Line,
    next: (usize, usize),
}

impl<'a> Copying<'a> {
    fn new(original: &'a Line) -> Copying<'a> {
        let moves = original.moves.iter().map(MoveNode::without_variations).collect();
        Copying { original, copy: Line { comment: original.comment.clone(), moves }, next: (0, 0) }
    }

    /// The next variation of the original to copy, stepping past it.
    fn next_variation(&mut self) -> Option<&'a Line> {
        let (mut at, mut index) = self.next;
        while let Some(node) = self.original.moves.get(at) {
            if let Some(variation) = node.variations.get(index) {
                self.next = (at, index + 1);
                return Some(variation);
            }
            (at, index) = (at + 1, 0);
        }
        self.next = (at, 0);
        None
    }

    /// Gives the copy of the variation [`Copying::next_variation`] returned last to its move.
    fn attach(&mut self, variation: Line) {
        if let Some(node) = self.copy.moves.get_mut(self.next.0) {
            node.variations.push(variation);
        }
    }
}

impl MoveNode {
    /// The move with what it carries but its variations.
    fn without_variations(&self) -> MoveNode {
        MoveNode {
            number: self.number,
            black: self.black,
            san: self.san.clone(),
            nags: self.nags.clone(),
            comment: self.comment.clone(),
            variations: Vec::new(),
        }
    }

    /// Whether two moves are the same but for their variations.
    fn same_but_variations(&self, other: &MoveNode) -> bool {
        (self.number, self.black, &self.san, &self.nags, &self.comment)
            == (other.number, other.black, &other.san, &other.nags, &other.comment)
    }
}

impl PartialEq for Line {
    fn eq(&self, other: &Line) -> bool {
        let mut pairs = vec![(self, other)];
        while let Some((one, other)) = pairs.pop() {
            if one.comment != other.comment || one.moves.len() != other.moves.len() {
                return false;
            }
            for (a, b) in one.moves.iter().zip(&other.moves) {
                if !a.same_but_variations(b) || a.variations.len() != b.variations.len() {
                    return false;
                }
                pairs.extend(a.variations.iter().zip(&b.variations));
            }
        }
        true
    }
}

impl Eq for Line {}

impl fmt::Debug for Line {
    /// The line as it is written: `Line("{comment} 1.e4 ( 1.d4 ) 1...e5")`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::new();
        let mut lines = Wrapped::new(&mut text);
        if let Some(comment) = &self.comment {
            write_comment(&mut lines, comment);
            lines.space();
        }
        write_moves(&mut lines, &self.moves);
        // One line, whatever the width: the words with a space between them.
        let text = String::from_utf8_lossy(&text);
        f.debug_tuple("Line").field(&text.split_ascii_whitespace().collect::<Vec<_>>().join(" ")).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(san: &str, variations: Vec<Line>) -> MoveNode {
        MoveNode { number: 1, san: san.into(), variations, ..MoveNode::default() }
    }

    /// `1.e4 ( 1.d4 ( 1.d4 ... ) )`, `depth` variations deep, with a second variation at the
    /// top.
    fn deep(depth: usize) -> Line {
        let mut line = Line { comment: None, moves: vec![node("d4", Vec::new())] };
        for _ in 1..depth {
            line = Line { comment: None, moves: vec![node("d4", vec![line])] };
        }
        let second = Line { comment: Some(b"second".to_vec()), moves: vec![node("c4", Vec::new())] };
        Line { comment: Some(b"game".to_vec()), moves: vec![node("e4", vec![line, second]), node("e5", Vec::new())] }
    }

    #[test]
    fn deep_lines_are_cloned_compared_written_and_dropped_on_a_small_stack() {
        let checked = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(|| {
                let line = deep(100_000);
                let copy = line.clone();
                assert!(copy == line);
                let mut other = line.clone();
                other.moves[0].variations[1].moves[0].nags.push(1);
                assert!(other != line);
                let mut written = Vec::new();
                write_moves(&mut Wrapped::new(&mut written), &copy.moves);
                assert_eq!(written.iter().filter(|&&byte| byte == b'(').count(), 100_001);
            })
            .unwrap()
            .join();
        assert!(checked.is_ok());
    }

    #[test]
    fn copies_keep_every_variation_in_its_place() {
        let line = deep(3);
        let text = format!("{line:?}");
        assert_eq!(text, "Line(\"{game} 1.e4 ( 1.d4 ( 1.d4 ( 1.d4 ) ) ) ( {second} 1.c4 ) 1.e5\")");
        assert_eq!(format!("{:?}", line.clone()), text);
    }
}
