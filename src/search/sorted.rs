//! [`SortedSink`]: the games found by a query with `sort`, held back until the search ends and
//! then passed on in the order of their values.
//!
//! Memory stays small whatever the number of games found. With a limit of N games, only the N
//! best are kept, in a bounded heap. Without one, the games' bytes go to a temporary file once
//! they pass a threshold, and only their keys and places stay in memory; at the end they are
//! read back in order.

use std::collections::BinaryHeap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;

use super::driver::{Found, Problem, Sink, Summary};
use super::render::Render;
use super::replay::{GameEdits, GameNote, MatchedPly};
use crate::notation::Container;
use crate::query::{SortSpec, SortValue};

/// The bytes of games held in memory before they go to a temporary file.
const SPILL_BYTES: u64 = 16 << 20;

/// Where a game stands in the order: by its values for the sort keys in turn (the best
/// first, a missing value last), then in the order the games were found.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    values: Vec<Ranked>,
    found: u64,
}

/// A game's value for one sort key, ordered best first.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ranked {
    value: Option<SortValue>,
    min: bool,
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Ranked) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    fn cmp(&self, other: &Ranked) -> std::cmp::Ordering {
        SortValue::order(self.min, self.value.as_ref(), other.value.as_ref())
    }
}

/// A game found, with its text in memory or in the spill file.
#[derive(Debug)]
struct Held {
    key: Key,
    input: Arc<str>,
    number: u64,
    offset: u64,
    line: u64,
    text: Text,
    movetext: usize,
    matched: Vec<MatchedPly>,
    variations: Vec<Vec<(u32, u32)>>,
    notes: Vec<GameNote>,
    container: Container,
    edits: GameEdits,
}

#[derive(Debug)]
enum Text {
    InMemory(Vec<u8>),
    /// Its place in the spill file.
    Spilled {
        at: u64,
        len: usize,
    },
}

impl PartialEq for Held {
    fn eq(&self, other: &Held) -> bool {
        self.key == other.key
    }
}

impl Eq for Held {}

impl PartialOrd for Held {
    fn partial_cmp(&self, other: &Held) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Held {
    fn cmp(&self, other: &Held) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

/// Holds the games found and passes them to another sink in the order of their values for
/// the query's sort keys ([`SortValue::order`], key by key), ties in input order, at most
/// `limit` of them. Errors and progress pass through at once.
pub struct SortedSink<'s> {
    inner: &'s mut dyn Sink,
    /// For each sort key, whether the smallest value comes first.
    min: Vec<bool>,
    limit: Option<usize>,
    /// With a limit: the best games so far, the worst on top.
    best: BinaryHeap<Held>,
    /// Without one: every game, in the order found.
    all: Vec<Held>,
    found: u64,
    held_bytes: u64,
    spill_after: u64,
    spill: Option<Spill>,
    input: Option<Arc<str>>,
}

impl<'s> SortedSink<'s> {
    /// A sink sorting for `inner` by these keys, keeping at most `limit` games.
    pub fn new(inner: &'s mut dyn Sink, keys: &[SortSpec], limit: Option<u64>) -> SortedSink<'s> {
        SortedSink {
            inner,
            min: keys.iter().map(|key| key.min).collect(),
            limit: limit.map(|limit| usize::try_from(limit).unwrap_or(usize::MAX)),
            best: BinaryHeap::new(),
            all: Vec::new(),
            found: 0,
            held_bytes: 0,
            spill_after: SPILL_BYTES,
            spill: None,
            input: None,
        }
    }

    /// Sets how many bytes of games are held in memory before they go to a temporary file.
    #[must_use]
    pub fn spill_after(mut self, bytes: u64) -> SortedSink<'s> {
        self.spill_after = bytes;
        self
    }

    /// Passes the games on, sorted.
    pub fn finish(mut self) -> io::Result<()> {
        let mut games = if self.limit.is_some() {
            std::mem::take(&mut self.best).into_vec()
        } else {
            std::mem::take(&mut self.all)
        };
        games.sort_unstable();
        let mut buffer = Vec::new();
        for game in &games {
            let sort: Vec<Option<SortValue>> = game.key.values.iter().map(|ranked| ranked.value.clone()).collect();
            let text = match &game.text {
                Text::InMemory(text) => text.as_slice(),
                Text::Spilled { at, len } => {
                    let spill =
                        self.spill.as_mut().ok_or_else(|| io::Error::other("a spilled game without a spill file"))?;
                    spill.read(*at, *len, &mut buffer)?;
                    buffer.as_slice()
                }
            };
            self.inner.found(&Found {
                input: &game.input,
                number: game.number,
                offset: game.offset,
                line: game.line,
                text,
                movetext: game.movetext,
                matched: &game.matched,
                variations: &game.variations,
                notes: &game.notes,
                edits: &game.edits,
                sort: &sort,
                played: &[],
                moves_only: false,
                outcome: None,
                positions: &[],
                container: game.container,
                rendered: None,
                said: None,
                said_when_found: true,
            })?;
        }
        Ok(())
    }

    fn key(&mut self, sort: &[Option<SortValue>]) -> Key {
        self.found += 1;
        let values = self
            .min
            .iter()
            .zip(sort.iter().chain(std::iter::repeat(&None)))
            .map(|(min, value)| Ranked { value: value.clone(), min: *min })
            .collect();
        Key { values, found: self.found }
    }

    /// The input's name, shared by the games of one input.
    fn input(&mut self, name: &str) -> Arc<str> {
        match &self.input {
            Some(input) if &**input == name => input.clone(),
            _ => {
                let input: Arc<str> = Arc::from(name);
                self.input = Some(input.clone());
                input
            }
        }
    }

    /// The text of a game as it is held: in memory, or in the spill file once the games held
    /// pass the threshold.
    fn text(&mut self, text: &[u8]) -> io::Result<Text> {
        self.held_bytes += text.len() as u64;
        if self.held_bytes <= self.spill_after {
            return Ok(Text::InMemory(text.to_vec()));
        }
        if self.spill.is_none() {
            let mut spill = Spill::new()?;
            for game in &mut self.all {
                if let Text::InMemory(bytes) = &game.text {
                    game.text = spill.write(bytes)?;
                }
            }
            self.spill = Some(spill);
        }
        self.spill.as_mut().expect("made above").write(text)
    }
}

impl Sink for SortedSink<'_> {
    fn renderer(&self) -> Option<Arc<dyn Render>> {
        // The games are rendered ahead for what is said about them, said when they are found.
        self.inner.renderer()
    }

    fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
        if let Some(said) = game.said {
            self.inner.message(game.number, said)?;
        }
        let key = self.key(game.sort);
        if let Some(limit) = self.limit
            && self.best.len() >= limit
            && self.best.peek().is_none_or(|worst| worst.key < key)
        {
            // No better than the worst of the best kept: it can never be passed on.
            return Ok(());
        }
        let text = match self.limit {
            Some(_) => Text::InMemory(game.text.to_vec()),
            None => self.text(game.text)?,
        };
        let held = Held {
            key,
            input: self.input(game.input),
            number: game.number,
            offset: game.offset,
            line: game.line,
            text,
            movetext: game.movetext,
            matched: game.matched.to_vec(),
            variations: game.variations.to_vec(),
            notes: game.notes.to_vec(),
            container: game.container,
            edits: game.edits.clone(),
        };
        match self.limit {
            Some(limit) => {
                self.best.push(held);
                if self.best.len() > limit {
                    self.best.pop();
                }
            }
            None => self.all.push(held),
        }
        Ok(())
    }

    fn problem(&mut self, problem: &Problem<'_>) -> io::Result<()> {
        self.inner.problem(problem)
    }

    fn message(&mut self, game: u64, text: &str) -> io::Result<()> {
        self.inner.message(game, text)
    }

    fn progress(&mut self, summary: &Summary) {
        self.inner.progress(summary);
    }
}

/// A temporary file holding the bytes of games, removed when done. On Unix its name is
/// removed as soon as it is made (the open file lives on without it, and is read back where it
/// stands), so that nothing is left behind whatever stops the process.
struct Spill {
    path: PathBuf,
    out: BufWriter<File>,
    written: u64,
    /// Whether the file still has its name, to remove when done.
    named: bool,
    /// The file opened to read back by its name, once writing is over (where it keeps one).
    #[cfg(not(unix))]
    reader: Option<File>,
}

impl Spill {
    fn new() -> io::Result<Spill> {
        let folder = std::env::temp_dir();
        let mut attempt = 0u32;
        loop {
            let path = folder.join(format!("cqlq-sort-{}-{attempt}.tmp", std::process::id()));
            match OpenOptions::new().read(true).write(true).create_new(true).open(&path) {
                Ok(file) => {
                    let named = !cfg!(unix) || std::fs::remove_file(&path).is_err();
                    return Ok(Spill {
                        path,
                        out: BufWriter::new(file),
                        written: 0,
                        named,
                        #[cfg(not(unix))]
                        reader: None,
                    });
                }
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists && attempt < 1000 => attempt += 1,
                Err(error) => return Err(spill_error(&path, &error)),
            }
        }
    }

    fn write(&mut self, bytes: &[u8]) -> io::Result<Text> {
        let at = self.written;
        self.out.write_all(bytes).map_err(|error| spill_error(&self.path, &error))?;
        self.written += bytes.len() as u64;
        Ok(Text::Spilled { at, len: bytes.len() })
    }

    /// Reads back the `len` bytes written at `at`, where they stand in the open file.
    #[cfg(unix)]
    fn read(&mut self, at: u64, len: usize, buffer: &mut Vec<u8>) -> io::Result<()> {
        use std::os::unix::fs::FileExt;
        self.out.flush().map_err(|error| spill_error(&self.path, &error))?;
        buffer.resize(len, 0);
        self.out.get_ref().read_exact_at(buffer, at).map_err(|error| spill_error(&self.path, &error))
    }

    /// Reads back the `len` bytes written at `at`, from the file opened again by its name.
    #[cfg(not(unix))]
    fn read(&mut self, at: u64, len: usize, buffer: &mut Vec<u8>) -> io::Result<()> {
        use std::io::{Read, Seek, SeekFrom};
        if self.reader.is_none() {
            self.out.flush().map_err(|error| spill_error(&self.path, &error))?;
            self.reader = Some(File::open(&self.path).map_err(|error| spill_error(&self.path, &error))?);
        }
        let reader = self.reader.as_mut().expect("opened above");
        buffer.resize(len, 0);
        reader
            .seek(SeekFrom::Start(at))
            .and_then(|_| reader.read_exact(buffer))
            .map_err(|error| spill_error(&self.path, &error))
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        if self.named {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

fn spill_error(path: &std::path::Path, error: &io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("the temporary file {} of sorted games: {error}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Nowhere;

    /// A game found with this number, text and sort values.
    fn game<'a>(number: u64, text: &'a [u8], sort: &'a [Option<SortValue>]) -> Found<'a> {
        Found::bare(number, 1, text, sort)
    }

    fn largest(label: &str) -> SortSpec {
        SortSpec { min: false, label: label.to_owned(), quiet: false }
    }

    /// Keeps the numbers of the games it is given, in turn.
    struct Numbers(Vec<u64>);

    impl Sink for Numbers {
        fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
            self.0.push(game.number);
            Ok(())
        }
    }

    #[test]
    fn games_go_by_each_key_in_turn_then_in_the_order_found() {
        let number = |n: i64| Some(SortValue::Number(n));
        let text = |t: &str| Some(SortValue::Text(t.into()));
        // Largest number first, then the smallest text, a game without a value after the others.
        let games = [
            (1, [number(3), text("b")]),
            (2, [number(5), None]),
            (3, [number(5), text("a")]),
            (4, [None, text("a")]),
            (5, [number(3), text("b")]),
            (6, [number(3), text("a")]),
        ];
        let keys = [largest("n"), SortSpec { min: true, label: "t".to_owned(), quiet: false }];
        let mut numbers = Numbers(Vec::new());
        let mut sink = SortedSink::new(&mut numbers, &keys, None);
        for (number, sort) in &games {
            sink.found(&game(*number, b"x", sort)).unwrap();
        }
        sink.finish().unwrap();
        assert_eq!(numbers.0, [3, 2, 6, 1, 5, 4]);
    }

    impl Sink for Nowhere {
        fn found(&mut self, _game: &Found<'_>) -> io::Result<()> {
            Ok(())
        }
    }

    fn feed(sink: &mut SortedSink<'_>, games: u64) {
        let text = vec![b'x'; 1000];
        for number in 1..=games {
            let sort = [(number % 7 != 0).then_some(SortValue::Number((number * 37 % 101) as i64))];
            sink.found(&game(number, &text, &sort)).unwrap();
        }
    }

    #[test]
    fn a_limit_keeps_only_the_best_games() {
        let mut nowhere = Nowhere;
        let mut sink = SortedSink::new(&mut nowhere, &[largest("x")], Some(3));
        feed(&mut sink, 1000);
        assert_eq!(sink.best.len(), 3);
        assert!(sink.all.is_empty() && sink.spill.is_none());
    }

    #[test]
    fn without_a_limit_the_texts_go_to_a_file_past_the_threshold() {
        let mut nowhere = Nowhere;
        let mut sink = SortedSink::new(&mut nowhere, &[largest("x")], None).spill_after(10_000);
        feed(&mut sink, 1000);
        let in_memory = sink.all.iter().filter(|game| matches!(game.text, Text::InMemory(_))).count();
        assert_eq!((sink.all.len(), in_memory), (1000, 0));
        let spill = sink.spill.as_ref().unwrap();
        let path = spill.path.clone();
        // On Unix its name went as it was made; elsewhere it goes at the end.
        assert_eq!((path.exists(), spill.named), (!cfg!(unix), !cfg!(unix)));
        sink.finish().unwrap();
        assert!(!path.exists(), "the temporary file is removed");
    }
}
