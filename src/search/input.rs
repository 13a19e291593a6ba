//! Where games come from, and how they are cut into windows of whole games.
//!
//! Regular files are memory-mapped; standard input (`-`) and compressed files (`.zst`, `.gz`)
//! are read as streams into a buffer that holds one window at a time. Either way, memory does
//! not grow with the input: a window ends at the last game start found in its bytes.

use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use memchr::memrchr;

use crate::notation::pgn::Splitter;

/// About how many bytes a window holds (a game longer than this makes its window longer).
pub const WINDOW_BYTES: usize = 8 << 20;

enum Source {
    Mapped(Option<memmap2::Mmap>),
    Stream(Box<dyn Read + Send>),
}

/// An input of games.
pub struct Input {
    name: String,
    source: Source,
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Input").field("name", &self.name).finish()
    }
}

impl Input {
    /// Opens a path: `-` is standard input; `.zst` and `.gz` files are decompressed as they are
    /// read; other files are memory-mapped.
    pub fn open(path: &Path) -> io::Result<Input> {
        if path == Path::new("-") {
            return Ok(Input::from_reader("<stdin>", io::stdin()));
        }
        let name = path.display().to_string();
        let file = File::open(path)?;
        let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        let source = match extension.as_deref() {
            Some("zst" | "zstd") => Source::Stream(Box::new(zstd::stream::read::Decoder::new(file)?)),
            Some("gz") => Source::Stream(Box::new(flate2::read::MultiGzDecoder::new(file))),
            _ if file.metadata()?.is_file() => {
                let map = if file.metadata()?.len() == 0 {
                    None
                } else {
                    // SAFETY: the map is only read, and only while the file is searched. A file
                    // changed by another process meanwhile may give wrong results, not unsafety
                    // in cqlq's own code (which reads bytes without assumptions on them).
                    Some(unsafe { memmap2::Mmap::map(&file)? })
                };
                Source::Mapped(map)
            }
            _ => Source::Stream(Box::new(file)),
        };
        Ok(Input { name, source })
    }

    /// An input read from a stream.
    pub fn from_reader(name: impl Into<String>, reader: impl Read + Send + 'static) -> Input {
        Input { name: name.into(), source: Source::Stream(Box::new(reader)) }
    }

    /// An input from bytes already in memory.
    #[must_use]
    pub fn from_bytes(name: impl Into<String>, bytes: Vec<u8>) -> Input {
        Input::from_reader(name, io::Cursor::new(bytes))
    }

    /// The name used in messages.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Calls `each` with windows of whole games, in order: the window's bytes, its offset in
    /// the input, and the offsets (within the window) where its games start. While `each`
    /// works on a window, the next one is read and cut on another thread.
    pub fn windows<F>(&mut self, mut each: F) -> io::Result<()>
    where
        F: FnMut(&[u8], u64, &[usize]) -> io::Result<ControlFlow<()>>,
    {
        match &mut self.source {
            Source::Mapped(map) => mapped_windows(map.as_deref().unwrap_or(&[]), &mut each),
            Source::Stream(reader) => stream_windows(reader, &mut each),
        }
    }
}

/// The callback of [`Input::windows`].
type Each<'f> = dyn FnMut(&[u8], u64, &[usize]) -> io::Result<ControlFlow<()>> + 'f;

/// Runs `work` on this thread and `ahead` on another, and returns both results.
fn overlapped<A: Send, W>(work: impl FnOnce() -> W, ahead: impl FnOnce() -> A + Send) -> (W, A) {
    std::thread::scope(|scope| {
        let ahead = scope.spawn(ahead);
        let worked = work();
        let ahead = ahead.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (worked, ahead)
    })
}

fn mapped_windows(text: &[u8], each: &mut Each<'_>) -> io::Result<()> {
    let mut cutter = Cutter::default();
    let mut base = 0;
    let mut end = cutter.cut_mapped(text, 0);
    let mut starts = cutter.take_starts(0, end);
    while base < text.len() {
        let next = end;
        let (flow, (returned, next_end, next_starts)) = overlapped(
            || each(&text[base..end], base as u64, &starts),
            move || {
                let end = if next < text.len() { cutter.cut_mapped(&text[next..], next) } else { next };
                let starts = cutter.take_starts(next, end);
                (cutter, end, starts)
            },
        );
        if flow?.is_break() {
            return Ok(());
        }
        (cutter, base, end, starts) = (returned, next, next_end, next_starts);
    }
    Ok(())
}

fn stream_windows(reader: &mut Box<dyn Read + Send>, each: &mut Each<'_>) -> io::Result<()> {
    let mut cutter = Cutter::default();
    let mut current: Vec<u8> = Vec::with_capacity(WINDOW_BYTES * 2);
    let mut spare: Vec<u8> = Vec::with_capacity(WINDOW_BYTES * 2);
    let mut base = 0;
    let mut eof = fill(reader.as_mut(), &mut current, WINDOW_BYTES)?;
    let mut end = cutter.cut_stream(&current, base, eof);
    loop {
        let used = end - base;
        if used == 0 {
            if eof {
                return Ok(());
            }
            // No whole game yet: a game longer than a window.
            eof = fill(reader.as_mut(), &mut current, WINDOW_BYTES)?;
            end = cutter.cut_stream(&current, base, eof);
            continue;
        }
        let starts = cutter.take_starts(base, end);
        spare.clear();
        spare.extend_from_slice(&current[used..]);
        let next = end;
        let (flow, (returned, filled, next_end)) = overlapped(
            || each(&current[..used], base as u64, &starts),
            || {
                let filled = if eof { Ok(true) } else { fill(reader.as_mut(), &mut spare, WINDOW_BYTES) };
                let next_end = match filled {
                    Ok(eof) => cutter.cut_stream(&spare, next, eof),
                    Err(_) => next,
                };
                (cutter, filled, next_end)
            },
        );
        if flow?.is_break() {
            return Ok(());
        }
        (cutter, eof, end) = (returned, filled?, next_end);
        std::mem::swap(&mut current, &mut spare);
        base = next;
    }
}

/// Reads up to `target` more bytes into `buffer`; true when the stream has ended.
fn fill(reader: &mut dyn Read, buffer: &mut Vec<u8>, target: usize) -> io::Result<bool> {
    let read = reader.take(target as u64).read_to_end(buffer)?;
    Ok(read < target)
}

/// Finds game starts and decides where windows end.
#[derive(Default)]
struct Cutter {
    splitter: Splitter,
    /// Game starts found, as input offsets.
    starts: Vec<usize>,
    /// How far the input was scanned, as an input offset.
    scanned: usize,
}

impl Cutter {
    /// `text` is the rest of a mapped input, from input offset `base`: scans on until a game
    /// starts at least a window's size in, and returns that start (or the end of the input).
    fn cut_mapped(&mut self, text: &[u8], base: usize) -> usize {
        loop {
            let from = self.scanned - base;
            if from >= text.len() {
                return base + text.len();
            }
            // Whole lines only: up to the first line end past a window's size.
            let limit = (from + WINDOW_BYTES).min(text.len());
            let to = memchr::memchr(b'\n', &text[limit..]).map_or(text.len(), |i| limit + i + 1);
            self.splitter.scan(&text[from..to], base + from, &mut self.starts);
            self.scanned = base + to;
            if let Some(&last) = self.starts.last()
                && last >= base + WINDOW_BYTES
            {
                return last;
            }
        }
    }

    /// `buffer` holds the stream from input offset `base` on: scans its new whole lines and
    /// returns where the complete games in it end (`base` when none is complete yet).
    fn cut_stream(&mut self, buffer: &[u8], base: usize, eof: bool) -> usize {
        let from = self.scanned - base;
        let to = if eof { buffer.len() } else { memrchr(b'\n', &buffer[from..]).map_or(from, |i| from + i + 1) };
        if to > from {
            self.splitter.scan(&buffer[from..to], base + from, &mut self.starts);
            self.scanned = base + to;
        }
        if eof {
            return base + buffer.len();
        }
        self.starts.iter().rev().find(|&&start| start > base).copied().unwrap_or(base)
    }

    /// The starts in `[from, to)`, relative to `from`; later ones stay.
    fn take_starts(&mut self, from: usize, to: usize) -> Vec<usize> {
        let taken: Vec<usize> = self.starts.iter().filter(|&&s| s >= from && s < to).map(|&s| s - from).collect();
        self.starts.retain(|&s| s >= to);
        taken
    }
}

/// The paths a search reads: the given ones, or `-` for standard input.
#[must_use]
pub fn paths_or_stdin(paths: &[PathBuf]) -> Vec<PathBuf> {
    if paths.is_empty() { vec![PathBuf::from("-")] } else { paths.to_vec() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(count: usize) -> Vec<u8> {
        let mut text = Vec::new();
        for index in 0..count {
            text.extend_from_slice(format!("[Event \"{index}\"]\n\n1. e4 {{ a comment }} e5 *\n\n").as_bytes());
        }
        text
    }

    fn windows(mut input: Input) -> (Vec<u8>, usize, usize) {
        let mut joined = Vec::new();
        let mut starts = 0;
        let mut windows = 0;
        input
            .windows(|window, base, found| {
                assert_eq!(base as usize, joined.len());
                joined.extend_from_slice(window);
                starts += found.len();
                windows += 1;
                Ok(ControlFlow::Continue(()))
            })
            .unwrap();
        (joined, starts, windows)
    }

    #[test]
    fn streams_are_cut_at_game_starts() {
        let text = games(300_000);
        let (joined, starts, windows_seen) = windows(Input::from_bytes("test", text.clone()));
        assert_eq!(joined, text);
        assert_eq!(starts, 300_000);
        assert!(windows_seen > 1);
    }

    #[test]
    fn files_are_mapped_and_cut_the_same() {
        let text = games(300_000);
        let path = std::env::temp_dir().join(format!("cqlq-input-{}.pgn", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        let (joined, starts, windows_seen) = windows(Input::open(&path).unwrap());
        std::fs::remove_file(&path).unwrap();
        assert_eq!(joined, text);
        assert_eq!(starts, 300_000);
        assert!(windows_seen > 1);
    }

    #[test]
    fn a_game_longer_than_a_window_stays_whole() {
        let mut text = games(3);
        text.extend_from_slice(b"[Event \"long\"]\n\n1. e4 {");
        text.extend(std::iter::repeat_n(b'x', WINDOW_BYTES * 2 + 17));
        text.extend_from_slice(b"} e5 *\n\n");
        text.extend(games(2));
        let (joined, starts, _) = windows(Input::from_bytes("long", text.clone()));
        assert_eq!((joined, starts), (text, 6));
    }

    #[test]
    fn empty_and_tiny_inputs() {
        assert_eq!(windows(Input::from_bytes("empty", Vec::new())).1, 0);
        let (joined, starts, _) = windows(Input::from_bytes("one", b"1. e4 *".to_vec()));
        assert_eq!((joined.as_slice(), starts), (&b"1. e4 *"[..], 1));
    }
}
