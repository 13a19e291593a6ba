//! The movetext of a Croatian Chess game in a PGN container: moves are words of the book's
//! notation (which owns `.`, `[`, `]`, `;`, `|`, `$` and the rest inside a word), between move
//! numbers (`12.`, `12...`), `{}` comments, NAGs (`$14` alone), `...` placeholders, variations
//! and the result.

use std::ops::ControlFlow;

use crate::notation::MovetextReader;
use crate::notation::pgn::Visitor;

/// Reads the movetext of Croatian Chess games.
#[derive(Debug)]
pub struct CroatianMovetext;

/// The reader of Croatian Chess movetext.
pub static CROATIAN_MOVETEXT: CroatianMovetext = CroatianMovetext;

/// The claims written alone or after a move that hold parentheses.
const CLAIMS: [&[u8]; 4] = [b"(===)", b"(==)", b"(=)", b"()"];

impl MovetextReader for CroatianMovetext {
    fn read<'a>(&self, text: &'a [u8], start: usize, end: usize, visitor: &mut dyn Visitor<'a>) {
        let mut at = start;
        let mut depth = 0usize;
        while at < end {
            let byte = text[at];
            if byte.is_ascii_whitespace() {
                at += 1;
                continue;
            }
            if byte == b'{' {
                let close = text[at..end].iter().position(|&b| b == b'}').map_or(end, |offset| at + offset);
                visitor.comment(&text[at + 1..close]);
                at = (close + 1).min(end);
                continue;
            }
            if byte == b';' && !text[at..end].starts_with(b";;") {
                // A comment to the end of the line.
                at = text[at..end].iter().position(|&b| b == b'\n').map_or(end, |offset| at + offset);
                continue;
            }
            let word_end = text[at..end].iter().position(u8::is_ascii_whitespace).map_or(end, |offset| at + offset);
            let mut word = &text[at..word_end];
            at = word_end;
            // A variation opens with `(` before a word, and closes with `)` after one.
            while word.first() == Some(&b'(') && !CLAIMS.iter().any(|claim| word.starts_with(claim)) {
                word = &word[1..];
                match visitor.begin_variation() {
                    ControlFlow::Continue(()) => depth += 1,
                    ControlFlow::Break(()) => {
                        at = skip_variation(text, at - word.len(), end);
                        word = &word[..0];
                        break;
                    }
                }
            }
            let mut closes = 0;
            while depth > closes && word.last() == Some(&b')') && !CLAIMS.iter().any(|claim| word.ends_with(claim)) {
                word = &word[..word.len() - 1];
                closes += 1;
            }
            // Where the word ends in the text, its closing parentheses cut off.
            let word_end = word.as_ptr() as usize - text.as_ptr() as usize + word.len();
            if word.is_empty() {
                continue;
            }
            if self.word(word, word_end, visitor).is_break() {
                return;
            }
            for _ in 0..closes {
                visitor.end_variation();
                depth -= 1;
            }
        }
    }
}

impl CroatianMovetext {
    /// Tells the visitor what one word is.
    fn word<'a>(&self, word: &'a [u8], end: usize, visitor: &mut dyn Visitor<'a>) -> ControlFlow<()> {
        if matches!(word, b"1-0" | b"0-1" | b"1/2-1/2" | b"*") {
            visitor.outcome(word);
            return ControlFlow::Continue(());
        }
        if word == b"..." {
            return ControlFlow::Continue(());
        }
        if word.first() == Some(&b'$') && word.len() > 1 && word[1..].iter().all(u8::is_ascii_digit)
            || word.iter().all(|&b| b == b'!' || b == b'?')
        {
            visitor.nag(word);
            return ControlFlow::Continue(());
        }
        let digits = word.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits > 0 && word.get(digits) == Some(&b'.') {
            let dots = word[digits..].iter().take_while(|&&b| b == b'.').count();
            visitor.move_number(&word[..digits + dots])?;
            let rest = &word[digits + dots..];
            return if rest.is_empty() { ControlFlow::Continue(()) } else { visitor.move_token(rest, end) };
        }
        visitor.move_token(word, end)
    }
}

/// Where a variation that opens at `at` ends: after its matching `)`, comments skipped.
fn skip_variation(text: &[u8], at: usize, end: usize) -> usize {
    let mut depth = 1usize;
    let mut index = at;
    while index < end {
        match text[index] {
            b'{' => {
                index = text[index..end].iter().position(|&b| b == b'}').map_or(end, |offset| index + offset);
            }
            b'(' if !CLAIMS.iter().any(|claim| text[index..end].starts_with(claim)) => depth += 1,
            b'(' => {
                let claim = CLAIMS.iter().find(|claim| text[index..end].starts_with(claim)).expect("a claim");
                index += claim.len() - 1;
            }
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return index + 1;
                }
            }
            _ => {}
        }
        index += 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Heard(Vec<String>);

    impl<'a> Visitor<'a> for Heard {
        fn move_number(&mut self, number: &'a [u8]) -> ControlFlow<()> {
            self.0.push(format!("#{}", String::from_utf8_lossy(number)));
            ControlFlow::Continue(())
        }
        fn move_token(&mut self, token: &'a [u8], _end: usize) -> ControlFlow<()> {
            self.0.push(String::from_utf8_lossy(token).into_owned());
            ControlFlow::Continue(())
        }
        fn comment(&mut self, text: &'a [u8]) {
            self.0.push(format!("{{{}}}", String::from_utf8_lossy(text)));
        }
        fn nag(&mut self, nag: &'a [u8]) {
            self.0.push(format!("nag {}", String::from_utf8_lossy(nag)));
        }
        fn outcome(&mut self, result: &'a [u8]) {
            self.0.push(format!("= {}", String::from_utf8_lossy(result)));
        }
    }

    /// The notation's own symbols stay inside their moves; the container's are read around
    /// them; a variation is skipped where the visitor does not enter it.
    #[test]
    fn moves_keep_their_symbols() {
        let text = b"1. [Qk2-f7]~[Af7-i7]~[Ai7-i9] Sb4~Ab2::S..b6*..b8* {a comment; it} 2.e4 $14 (2. d4 d5) \
                     ... Nb3+(=) 3... (==) 1/2-1/2";
        let mut heard = Heard::default();
        CROATIAN_MOVETEXT.read(text, 0, text.len(), &mut heard);
        assert_eq!(
            heard.0,
            [
                "#1.",
                "[Qk2-f7]~[Af7-i7]~[Ai7-i9]",
                "Sb4~Ab2::S..b6*..b8*",
                "{a comment; it}",
                "#2.",
                "e4",
                "nag $14",
                "Nb3+(=)",
                "#3...",
                "(==)",
                "= 1/2-1/2"
            ]
        );
    }
}
