//! Reading an input in blocks of whole lines, in bounded memory whatever the length of its
//! lines: a line longer than a position can be is cut, and the rest of it is dropped as it is
//! read. Lines end at `\n`, `\r\n` or a lone `\r`, all three read as `\n`.

use std::io::{self, Read};

use memchr::{memchr, memrchr};

/// Reads blocks of whole lines from a reader.
pub struct LineBlocks<R> {
    reader: R,
    /// About how many bytes of lines a block holds.
    block_bytes: usize,
    /// The most bytes of a line kept.
    max_line: usize,
    /// Whole lines, then the start of a line not ended yet.
    buffer: Vec<u8>,
    /// Where the line not ended yet starts in `buffer`.
    partial: usize,
    /// Where the lines that were cut start in `buffer`.
    cut: Vec<usize>,
    /// Whether the rest of a cut line is being dropped.
    dropping: bool,
    /// The block handed out last, still at the head of `buffer`.
    handed_out: usize,
    ended: bool,
    chunk: Box<[u8]>,
    /// Whether the last chunk read ended with a `\r`, whose `\n` may begin the next.
    after_cr: bool,
}

/// One block: whole lines, in order.
pub struct Block<'a> {
    text: &'a [u8],
    cut: &'a [usize],
}

/// A line of a block, without its line end.
pub struct Line<'a> {
    /// The line's bytes, its first `max_line` only when it was cut.
    pub text: &'a [u8],
    /// Whether the line was longer than `max_line` bytes and was cut.
    pub cut: bool,
}

impl<R: Read> LineBlocks<R> {
    /// Blocks of about `block_bytes` bytes of `reader`'s lines, lines cut after `max_line`
    /// bytes.
    pub fn new(reader: R, block_bytes: usize, max_line: usize) -> LineBlocks<R> {
        let block_bytes = block_bytes.max(1);
        LineBlocks {
            reader,
            block_bytes,
            max_line: max_line.max(1),
            buffer: Vec::with_capacity(block_bytes + block_bytes / 4),
            partial: 0,
            cut: Vec::new(),
            dropping: false,
            handed_out: 0,
            ended: false,
            chunk: vec![0; (64 << 10).min(block_bytes.next_power_of_two())].into_boxed_slice(),
            after_cr: false,
        }
    }

    /// The next block, `None` once the input has ended. A last line without a line end is a
    /// line.
    pub fn next_block(&mut self) -> io::Result<Option<Block<'_>>> {
        self.forget_handed_out();
        while !self.ended && self.partial < self.block_bytes {
            self.read_more()?;
        }
        if self.ended && self.partial < self.buffer.len() {
            // The last line has no line end.
            self.buffer.push(b'\n');
            self.partial = self.buffer.len();
        }
        if self.partial == 0 {
            return Ok(None);
        }
        self.handed_out = self.partial;
        let cut_here = self.cut.partition_point(|&start| start < self.partial);
        Ok(Some(Block { text: &self.buffer[..self.partial], cut: &self.cut[..cut_here] }))
    }

    /// Drops the block handed out last from the head of the buffer.
    fn forget_handed_out(&mut self) {
        let gone = std::mem::take(&mut self.handed_out);
        if gone == 0 {
            return;
        }
        self.buffer.drain(..gone);
        self.partial -= gone;
        self.cut.retain(|&start| start >= gone);
        for start in &mut self.cut {
            *start -= gone;
        }
    }

    /// Reads one chunk into the buffer, cutting a line that grows too long.
    fn read_more(&mut self) -> io::Result<()> {
        let read = loop {
            match self.reader.read(&mut self.chunk) {
                Ok(read) => break read,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        };
        if read == 0 {
            self.ended = true;
            return Ok(());
        }
        let read = self.normalize_line_ends(read);
        let mut rest = &self.chunk[..read];
        while !rest.is_empty() {
            if self.dropping {
                let Some(end) = memchr(b'\n', rest) else { return Ok(()) };
                self.dropping = false;
                self.buffer.push(b'\n');
                self.partial = self.buffer.len();
                rest = &rest[end + 1..];
                continue;
            }
            let room = self.max_line - (self.buffer.len() - self.partial);
            if rest.len() <= room {
                // No line of `rest` can be too long: they are all shorter than the room left.
                self.buffer.extend_from_slice(rest);
                if let Some(last_end) = memrchr(b'\n', rest) {
                    self.partial = self.buffer.len() - rest.len() + last_end + 1;
                }
                return Ok(());
            }
            match memchr(b'\n', rest) {
                Some(end) if end <= room => {
                    self.buffer.extend_from_slice(&rest[..=end]);
                    self.partial = self.buffer.len();
                    rest = &rest[end + 1..];
                }
                _ => {
                    self.buffer.extend_from_slice(&rest[..room]);
                    self.cut.push(self.partial);
                    self.dropping = true;
                    rest = &rest[room..];
                }
            }
        }
        Ok(())
    }
}

impl<R> LineBlocks<R> {
    /// Turns the line ends of the chunk's first `read` bytes into `\n`, `\r\n` and a lone `\r`
    /// alike (the `\n` of a `\r` that ends a chunk may begin the next); returns how many bytes
    /// are left.
    fn normalize_line_ends(&mut self, read: usize) -> usize {
        let chunk = &mut self.chunk[..read];
        let from = usize::from(std::mem::take(&mut self.after_cr) && chunk[0] == b'\n');
        if memchr(b'\r', &chunk[from..]).is_none() {
            chunk.copy_within(from.., 0);
            return read - from;
        }
        let mut written = 0;
        let mut at = from;
        while at < read {
            let byte = chunk[at];
            chunk[written] = if byte == b'\r' { b'\n' } else { byte };
            written += 1;
            if byte == b'\r' {
                match chunk.get(at + 1) {
                    Some(b'\n') => at += 1,
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
            at += 1;
        }
        written
    }
}

impl<'a> Block<'a> {
    /// The block's bytes: whole lines, each with its line end.
    pub fn text(&self) -> &'a [u8] {
        self.text
    }

    /// The block's lines, in order.
    pub fn lines(&self) -> impl Iterator<Item = Line<'a>> + 'a {
        let text = self.text;
        let mut cut = self.cut.iter().copied().peekable();
        let mut start = 0;
        std::iter::from_fn(move || {
            if start >= text.len() {
                return None;
            }
            let end = memchr(b'\n', &text[start..]).map_or(text.len(), |i| start + i);
            let was_cut = cut.next_if_eq(&start).is_some();
            let line = Line { text: &text[start..end], cut: was_cut };
            start = end + 1;
            Some(line)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A reader handing out at most `step` bytes a call.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    /// Every line read, as (text, cut), over all blocks; and the largest block.
    fn read_all(data: &[u8], step: usize, block_bytes: usize, max_line: usize) -> (Vec<(Vec<u8>, bool)>, usize) {
        let mut blocks = LineBlocks::new(Trickle { data, step }, block_bytes, max_line);
        let mut lines = Vec::new();
        let mut largest = 0;
        while let Some(block) = blocks.next_block().unwrap() {
            largest = largest.max(block.text().len());
            lines.extend(block.lines().map(|line| (line.text.to_vec(), line.cut)));
        }
        (lines, largest)
    }

    /// The lines of `data` as cut by the rule, without the reader.
    fn expected(data: &[u8], max_line: usize) -> Vec<(Vec<u8>, bool)> {
        let data = String::from_utf8_lossy(data).replace("\r\n", "\n").replace('\r', "\n").into_bytes();
        let data = data.as_slice();
        let mut pieces: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
        if data.ends_with(b"\n") || data.is_empty() {
            pieces.pop();
        }
        pieces.into_iter().map(|line| (line[..line.len().min(max_line)].to_vec(), line.len() > max_line)).collect()
    }

    #[test]
    fn lines_across_blocks_and_reads() {
        let data = b"first line\nsecond\n\nthird without end";
        for step in [1, 3, 64] {
            for block_bytes in [1, 5, 100] {
                let (lines, _) = read_all(data, step, block_bytes, 1000);
                assert_eq!(lines, expected(data, 1000), "step {step}, blocks of {block_bytes}");
            }
        }
    }

    #[test]
    fn every_line_end_ends_a_line_once() {
        let data = b"a\rb\r\nc\n\rd\r";
        for step in [1, 2, 3, 64] {
            let (lines, _) = read_all(data, step, 4, 1000);
            let texts: Vec<&[u8]> = lines.iter().map(|(text, _)| text.as_slice()).collect();
            assert_eq!(texts, [&b"a"[..], b"b", b"c", b"", b"d"], "{step} bytes a read");
        }
    }

    #[test]
    fn long_lines_are_cut_and_their_rest_dropped() {
        let mut data = b"short\n".to_vec();
        data.extend(std::iter::repeat_n(b'x', 100_000));
        data.extend(b"\nafter\n");
        let (lines, largest) = read_all(&data, 4096, 16, 10);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[1], (b"xxxxxxxxxx".to_vec(), true));
        assert_eq!(lines[2], (b"after".to_vec(), false));
        assert!(largest < 64, "a long line is never held whole: {largest}");
    }

    proptest! {
        #[test]
        fn blocks_hold_the_lines_of_the_input(
            data in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), Just(b'a'), Just(b'b')], 0..200),
            step in 1usize..40,
            block_bytes in 1usize..50,
            max_line in 1usize..30,
        ) {
            let (lines, _) = read_all(&data, step, block_bytes, max_line);
            prop_assert_eq!(lines, expected(&data, max_line));
        }
    }
}
