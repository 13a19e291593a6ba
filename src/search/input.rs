//! Where games come from, and how they are cut into windows of whole games.
//!
//! Regular files are memory-mapped. Standard input, pipes and compressed data are streams, read
//! (and decompressed) by a thread of their own into a window that holds about
//! [`WINDOW_BYTES`] at a time, so memory does not grow with the input. zstd and gzip data are
//! known by their first bytes, whatever the file is called.
//!
//! A window ends at the last game start found in its bytes. A stream's window is handed out
//! when it is full, or once its oldest byte has waited [`WINDOW_WAIT`] and it holds a whole
//! game: the games of a slow stream are searched as they come.
//!
//! What the input holds is decided from its first bytes, unless the caller says: PGN, or a file in
//! a notation's own format (see [`sniff_container_for`]), whose games are then cut by that format's
//! splitter. An input taken for PGN that is no PGN (binary data, lines of positions, other
//! text) is refused before any game is read, with what it looks like. A stream that fails part way (a cut `.zst`) first
//! gives every game read before the failure, then the error.

use std::io::{self, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use crate::notation::pgn::{
    NotPgn, PREAMBLE_BYTES, SNIFF_BYTES, Splitter, foreign_compression, sniff_content, sniff_wants,
};
use crate::notation::{Container, GameSplitter};
use crate::rules::formats::{recognise_container, sniff_container_for};
use crate::variant::Variant;

use super::reasons::{describe, in_words, open_to_read, without_number};

/// About how many bytes a window holds (a game longer than this makes its window longer).
pub const WINDOW_BYTES: usize = 8 << 20;

/// The most games a window holds (tiny games would otherwise make a window of millions).
pub const WINDOW_GAMES: usize = 1 << 16;

/// How many times [`WINDOW_BYTES`] (and [`WINDOW_GAMES`]) a window of a mapped file grows to.
/// A mapped window costs no memory of its own, and each window's end waits for all its games to
/// be written, so fewer, longer windows keep the threads busier.
pub const MAPPED_GROWTH: usize = 8;

/// The part of a stream's window that a mapped file's first window holds (an eighth of
/// [`WINDOW_BYTES`] and of [`WINDOW_GAMES`]), so that the threads start after a short scan;
/// each next window holds four times the last, up to [`MAPPED_GROWTH`] times a stream's. The
/// file is scanned for its games this part at a time.
const MAPPED_FIRST_PART: usize = 8;

/// How many windows of a mapped file may wait cut before the search reaches them.
const CUT_AHEAD: usize = 2;

/// The longest the bytes of a stream wait before they are searched.
pub const WINDOW_WAIT: Duration = Duration::from_secs(1);

/// The bytes a stream's reader hands over at a time, and how many it may hold ready.
const CHUNK_BYTES: usize = 64 << 10;

/// The bytes read from a decompressor at a time, into a chunk.
const READ_PIECE: usize = 8 << 10;
const CHUNKS_AHEAD: usize = 8;

/// The first bytes of the compressed formats cqlq decompresses.
const ZSTD_MAGIC: &[u8] = b"\x28\xB5\x2F\xFD";
const GZIP_MAGIC: &[u8] = b"\x1F\x8B";

/// The largest window a zstd frame may ask for, as a power of two: 2 GiB (zstd's own largest
/// on 64-bit machines, 1 GiB on 32-bit ones), as `zstd --long=31` writes. A frame asks for its
/// window in its header, and decoding takes that much memory at most, only for frames that
/// ask for it (the default limit, 128 MiB, refuses `zstd --long=30` files).
const ZSTD_WINDOW_LOG_MAX: u32 = if usize::BITS >= 64 { 31 } else { 30 };

/// The compressed format data starts with, if cqlq decompresses it: zstd (a frame, or a
/// skippable frame, magic 0x184D2A50 to 0x184D2A5F, before one) or gzip.
fn compression(head: &[u8]) -> Option<&'static str> {
    let skippable = matches!(head, [0x50..=0x5F, 0x2A, 0x4D, 0x18, ..]);
    if head.starts_with(ZSTD_MAGIC) || skippable {
        Some("zstd")
    } else if head.starts_with(GZIP_MAGIC) {
        Some("gzip")
    } else {
        None
    }
}

enum Source {
    Mapped(Option<memmap2::Mmap>),
    Stream(Box<dyn Read + Send>),
}

/// An input of games.
pub struct Input {
    name: String,
    source: Source,
    size: Option<u64>,
    consumed: Arc<AtomicU64>,
    /// How the input holds its games, when the caller says so.
    container: Option<Container>,
    /// The variant of games that name none, where the caller knows it.
    variant: Option<&'static Variant>,
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Input").field("name", &self.name).finish()
    }
}

impl Input {
    /// Opens a path: `-` is standard input; regular files are memory-mapped unless they hold
    /// zstd or gzip data, which is decompressed as it is read.
    pub fn open(path: &Path) -> io::Result<Input> {
        if path == Path::new("-") {
            return Ok(Input::from_reader("<stdin>", io::stdin()));
        }
        let name = path.display().to_string();
        let file = open_to_read(path)?;
        let metadata = file.metadata().map_err(in_words)?;
        if !metadata.is_file() {
            return Ok(Input::from_reader(name, file));
        }
        let size = metadata.len();
        let map = if size == 0 {
            None
        } else {
            // SAFETY: the map is only read, and only while the file is searched. A file
            // changed by another process meanwhile may give wrong results, not unsafety
            // in cqlq's own code (which reads bytes without assumptions on them).
            Some(unsafe { memmap2::Mmap::map(&file).map_err(in_words)? })
        };
        let head = map.as_deref().unwrap_or(&[]);
        if compressed(head) {
            drop(map);
            let mut input = Input::from_reader(name, file);
            input.size = Some(size);
            return Ok(input);
        }
        Ok(Input {
            name,
            source: Source::Mapped(map),
            size: Some(size),
            consumed: Arc::default(),
            container: None,
            variant: None,
        })
    }

    /// An input read from a stream; zstd and gzip data are decompressed.
    pub fn from_reader(name: impl Into<String>, reader: impl Read + Send + 'static) -> Input {
        Input {
            name: name.into(),
            source: Source::Stream(Box::new(reader)),
            size: None,
            consumed: Arc::default(),
            container: None,
            variant: None,
        }
    }

    /// Takes the games that name no variant for games of `variant`: a text of them without
    /// tags is then in that variant's own format of bare move lists, if it has one.
    pub fn assume_variant(&mut self, variant: Option<&'static Variant>) {
        self.variant = variant;
    }

    /// Reads the input as `container` holds games, instead of deciding from its first bytes.
    #[must_use]
    pub fn with_container(mut self, container: Option<Container>) -> Input {
        self.container = container;
        self
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

    /// The size of the input as stored (compressed, for compressed data), where it is known.
    #[must_use]
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// How many bytes of the input as stored have been read so far.
    #[must_use]
    pub fn consumed(&self) -> u64 {
        self.consumed.load(Ordering::Relaxed)
    }

    /// The counter behind [`Input::consumed`], to read while the input is being read.
    pub(super) fn consumed_counter(&self) -> Arc<AtomicU64> {
        self.consumed.clone()
    }

    /// Calls `each` with windows of whole games, in order (see [`Window`]). While `each` works
    /// on a window, the next one is read and cut on another thread.
    ///
    /// Fails before the first window when the input is taken for PGN and is none (the error
    /// holds a [`NotPgn`]), and after the last one when a stream could not be read to its end.
    pub fn windows<F>(&mut self, mut each: F) -> io::Result<()>
    where
        F: FnMut(&Window<'_>) -> io::Result<ControlFlow<()>>,
    {
        let forced = (self.container, self.variant);
        match &mut self.source {
            Source::Mapped(map) => {
                let text = map.as_deref().unwrap_or(&[]);
                let container = choose(forced, text, true)?;
                mapped_windows(text, container, &self.consumed, &mut each)
            }
            Source::Stream(reader) => {
                let reader = std::mem::replace(reader, Box::new(io::empty()));
                let stream = Stream::start(reader, self.consumed.clone());
                stream_windows(stream, forced, &mut each)
            }
        }
    }
}

/// A window of whole games of an input.
#[derive(Clone, Copy, Debug)]
pub struct Window<'a> {
    /// The window's bytes.
    pub text: &'a [u8],
    /// Its offset in the input.
    pub base: u64,
    /// The offsets (within the window) where its games start; the bytes before the first hold
    /// none, or games the splitter left to the reader.
    pub starts: &'a [usize],
    /// How the input holds its games.
    pub container: Container,
    /// Whether the window runs to the end of the input (of what could be read of it).
    pub last: bool,
}

/// How a text (or the first bytes of it, `whole` when it is all of it) holds games: as the
/// caller says, else as its first bytes look. Refuses a text taken for PGN that is none.
fn choose(
    (forced, variant): (Option<Container>, Option<&'static Variant>),
    head: &[u8],
    whole: bool,
) -> io::Result<Container> {
    if let Some(container) = forced {
        return match recognise_container(head) {
            Some(seen) if seen.name() != container.name() => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "--notation {} reads the format \"{}\", but by its first bytes this is \"{}\": give \
                     --notation {}, or leave --notation out",
                    container.name(),
                    container.description(),
                    seen.description(),
                    seen.name()
                ),
            )),
            _ => Ok(container),
        };
    }
    let container = sniff_container_for(head, variant);
    if let Container::Pgn = container {
        sniff(head, whole)?;
    }
    Ok(container)
}

/// Whether data starts with the first bytes of a compressed format.
fn compressed(head: &[u8]) -> bool {
    compression(head).is_some() || foreign_compression(head).is_some()
}

/// Refuses a text that is no PGN; `whole` when `text` is all of it.
fn sniff(text: &[u8], whole: bool) -> io::Result<()> {
    if !whole && text.len() < sniff_wants(text) {
        // A stream's first window after a wait: too little to judge, and what there is reads.
        return Ok(());
    }
    sniff_content(text).map_err(|not_pgn: NotPgn| io::Error::new(io::ErrorKind::InvalidData, not_pgn))
}

/// The callback of [`Input::windows`].
type Each<'f> = dyn FnMut(&Window<'_>) -> io::Result<ControlFlow<()>> + 'f;

/// Runs `work` on this thread and `ahead` on another, and returns both results.
fn overlapped<A: Send, W>(work: impl FnOnce() -> W, ahead: impl FnOnce() -> A + Send) -> (W, A) {
    std::thread::scope(|scope| {
        let ahead = scope.spawn(ahead);
        let worked = work();
        let ahead = ahead.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (worked, ahead)
    })
}

/// The windows of a mapped input, given to `each` in order. A thread of its own cuts them,
/// running up to [`CUT_AHEAD`] windows ahead of the search, so that a window's end never waits
/// for the next to be found (the first is small, so that the search starts at once).
fn mapped_windows(text: &[u8], container: Container, consumed: &AtomicU64, each: &mut Each<'_>) -> io::Result<()> {
    std::thread::scope(|scope| {
        let (cut, windows) = std::sync::mpsc::sync_channel(CUT_AHEAD);
        scope.spawn(move || {
            let mut cutter = Cutter::new(container);
            // Window sizes in parts of a stream's window.
            let (mut base, mut parts) = (0, 1);
            while base < text.len() {
                let end = cutter.cut_mapped(text, base, parts);
                let starts = cutter.take_starts(base, end);
                if cut.send((base, end, starts)).is_err() {
                    // The search stopped.
                    return;
                }
                base = end;
                parts = (4 * parts).min(MAPPED_GROWTH * MAPPED_FIRST_PART);
            }
        });
        // Leaving early drops the receiver, which stops the cutting.
        for (base, end, starts) in windows {
            let window = Window {
                text: &text[base..end],
                base: base as u64,
                starts: &starts,
                container,
                last: end == text.len(),
            };
            let flow = each(&window);
            consumed.store(end as u64, Ordering::Relaxed);
            if flow?.is_break() {
                return Ok(());
            }
        }
        Ok(())
    })
}

/// Why a stream ended early: the compressed format it was decoded from, if any, and the error.
struct Failure {
    format: Option<&'static str>,
    error: io::Error,
}

impl Failure {
    /// The error of a search whose input failed after `decoded` bytes (decompressed, where it
    /// is compressed), all of them searched.
    fn into_error(self, decoded: usize) -> io::Error {
        let Failure { format, error } = self;
        if error.get_ref().is_some_and(|inner| inner.is::<NotPgn>()) {
            return error;
        }
        // A decoder's own message starts in lowercase, as the sentence goes on.
        let reason = if error.raw_os_error().is_some() { describe(&error) } else { without_number(&error) };
        let message = match format {
            Some(format) if reason.contains("checksum") => format!(
                "the {format} data fails its checksum after {decoded} bytes of decompressed data ({reason}): it is \
                 damaged before that point, where it could not tell, so games read from it may be damaged too"
            ),
            Some(format) => format!(
                "the {format} data is cut short or damaged: decoding failed after {decoded} bytes of decompressed \
                 data ({reason}); the games before were searched"
            ),
            None => format!(
                "the input is cut short or damaged: reading failed after {decoded} bytes ({reason}); the games \
                 before were searched"
            ),
        };
        io::Error::new(error.kind(), message)
    }
}

/// A stream read by a thread of its own, in chunks.
struct Stream {
    chunks: Receiver<Result<Vec<u8>, Failure>>,
    /// Chunks taken, handed back to the reader to fill again.
    emptied: SyncSender<Vec<u8>>,
    ended: bool,
    /// Why the stream ended early, if it did.
    failure: Option<Failure>,
}

impl Stream {
    /// Starts reading: the thread decompresses zstd and gzip data, and counts the bytes it
    /// reads as stored into `consumed`. It ends when the stream does, or when nobody takes
    /// its chunks any more.
    fn start(reader: Box<dyn Read + Send>, consumed: Arc<AtomicU64>) -> Stream {
        let (sender, chunks) = sync_channel(CHUNKS_AHEAD);
        let (emptied, to_fill) = sync_channel(CHUNKS_AHEAD + 2);
        let chunker = Chunker { sender, to_fill };
        std::thread::spawn(move || chunker.read(Counting { inner: reader, consumed }));
        Stream { chunks, emptied, ended: false, failure: None }
    }

    /// Takes the next chunk into `buffer`, waiting at most `wait` (forever with `None`); notes
    /// when the stream has ended.
    fn take(&mut self, buffer: &mut Vec<u8>, wait: Option<Duration>) {
        let received = match wait {
            Some(wait) => self.chunks.recv_timeout(wait),
            None => self.chunks.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(Ok(chunk)) => {
                buffer.extend_from_slice(&chunk);
                let _ = self.emptied.try_send(chunk);
            }
            Ok(Err(failure)) => {
                self.failure = Some(failure);
                self.ended = true;
            }
            Err(RecvTimeoutError::Disconnected) => self.ended = true,
            Err(RecvTimeoutError::Timeout) => {}
        }
    }

    /// Fills `buffer` with the first bytes of the stream, enough to tell what it holds: until it
    /// holds [`SNIFF_BYTES`] after its preamble (see [`sniff_wants`]), the stream ends, or its
    /// first bytes have waited [`WINDOW_WAIT`].
    fn head(&mut self, buffer: &mut Vec<u8>) {
        let started = Instant::now();
        while !self.ended && buffer.len() < sniff_wants(buffer).min(PREAMBLE_BYTES + SNIFF_BYTES) {
            let Some(wait) = WINDOW_WAIT.checked_sub(started.elapsed()) else { break };
            self.take(buffer, Some(wait));
        }
    }

    /// Fills `buffer`, which holds the stream from input offset `base`, until a window can be
    /// cut from it, and returns where the window ends: the buffer is full, the stream has
    /// ended, or its bytes have waited long enough and hold a whole game.
    fn gather(&mut self, cutter: &mut Cutter, buffer: &mut Vec<u8>, base: usize) -> usize {
        let started = Instant::now();
        while !self.ended {
            let waited = started.elapsed();
            if buffer.len() >= WINDOW_BYTES || waited >= WINDOW_WAIT {
                let end = cutter.cut_stream(buffer, base, false);
                if end > base {
                    return end;
                }
                // No whole game yet: wait for more, however long it takes.
                self.take(buffer, None);
            } else {
                self.take(buffer, Some(WINDOW_WAIT - waited));
            }
        }
        cutter.cut_stream(buffer, base, true)
    }
}

/// The reading end of a [`Stream`]: sends chunks of the stream, and fills again the chunks
/// handed back.
struct Chunker {
    sender: SyncSender<Result<Vec<u8>, Failure>>,
    to_fill: Receiver<Vec<u8>>,
}

impl Chunker {
    /// Reads chunks from `reader`, decompressed as its first bytes say, and sends them until
    /// the stream ends, fails, or nobody listens.
    fn read(self, mut reader: Counting) {
        let mut head = Vec::with_capacity(8);
        if let Err(error) = (&mut reader).take(6).read_to_end(&mut head) {
            let _ = self.sender.send(Err(Failure { format: None, error }));
            return;
        }
        let format = compression(&head);
        let whole = io::Cursor::new(head.clone()).chain(reader);
        let decoded: io::Result<Box<dyn Read>> = match format {
            Some("zstd") => zstd::stream::read::Decoder::new(whole).and_then(|mut decoder| {
                decoder.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
                Ok(Box::new(decoder) as Box<dyn Read>)
            }),
            Some(_) => Ok(Box::new(flate2::read::MultiGzDecoder::new(whole))),
            None => match foreign_compression(&head) {
                Some(foreign) => Err(io::Error::new(io::ErrorKind::InvalidData, NotPgn::Compressed(foreign))),
                None => Ok(Box::new(whole)),
            },
        };
        match decoded {
            Ok(decoded) => self.send(decoded, format),
            Err(error) => {
                let _ = self.sender.send(Err(Failure { format, error }));
            }
        }
    }

    /// Sends the chunks of `decoded`, decompressed from `format` where it is. A chunk is
    /// filled a read at a time and sent once full, or as soon as a read gives less than asked
    /// (a slow stream's bytes go on at once). A decompressor that fails drops what it decoded
    /// in the read that failed: it is read a piece of [`READ_PIECE`] at a time, which keeps
    /// that loss small, so that where decoding failed is told more closely.
    fn send(&self, mut decoded: Box<dyn Read>, format: Option<&'static str>) {
        let piece_bytes = if format.is_some() { READ_PIECE } else { CHUNK_BYTES };
        loop {
            let mut chunk = self.to_fill.try_recv().unwrap_or_default();
            chunk.resize(CHUNK_BYTES, 0);
            let mut filled = 0;
            let mut failure = None;
            let mut ended = false;
            while filled < CHUNK_BYTES {
                let piece = (filled + piece_bytes).min(CHUNK_BYTES);
                match decoded.read(&mut chunk[filled..piece]) {
                    Ok(0) => {
                        ended = true;
                        break;
                    }
                    Ok(read) => {
                        filled += read;
                        if filled < piece {
                            break;
                        }
                    }
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(error) => {
                        failure = Some(Failure { format, error });
                        break;
                    }
                }
            }
            chunk.truncate(filled);
            if filled > 0 && self.sender.send(Ok(chunk)).is_err() {
                return;
            }
            if let Some(failure) = failure {
                let _ = self.sender.send(Err(failure));
                return;
            }
            if ended {
                return;
            }
        }
    }
}

/// A reader that counts the bytes read through it.
struct Counting {
    inner: Box<dyn Read + Send>,
    consumed: Arc<AtomicU64>,
}

impl Read for Counting {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buffer)?;
        self.consumed.fetch_add(read as u64, Ordering::Relaxed);
        Ok(read)
    }
}

fn stream_windows(
    mut stream: Stream,
    forced: (Option<Container>, Option<&'static Variant>),
    each: &mut Each<'_>,
) -> io::Result<()> {
    let mut current: Vec<u8> = Vec::with_capacity(WINDOW_BYTES + CHUNK_BYTES);
    let mut spare: Vec<u8> = Vec::with_capacity(WINDOW_BYTES + CHUNK_BYTES);
    stream.head(&mut current);
    let container = choose(forced, &current, stream.ended)?;
    let mut cutter = Cutter::new(container);
    let mut base = 0;
    let mut end = stream.gather(&mut cutter, &mut current, base);
    loop {
        let used = end - base;
        if used == 0 {
            break;
        }
        let starts = cutter.take_starts(base, end);
        spare.clear();
        spare.extend_from_slice(&current[used..]);
        let next = end;
        // The window runs to the end once the stream has ended and left nothing after it.
        let last = stream.ended && used == current.len();
        let window = Window { text: &current[..used], base: base as u64, starts: &starts, container, last };
        let (flow, (returned, next_end)) = overlapped(
            || each(&window),
            || {
                let next_end = stream.gather(&mut cutter, &mut spare, next);
                (cutter, next_end)
            },
        );
        if flow?.is_break() {
            return Ok(());
        }
        (cutter, end) = (returned, next_end);
        std::mem::swap(&mut current, &mut spare);
        base = next;
    }
    match stream.failure {
        Some(failure) => Err(failure.into_error(base)),
        None => Ok(()),
    }
}

/// Finds game starts and decides where windows end.
struct Cutter {
    splitter: Box<dyn GameSplitter>,
    /// Game starts found, as input offsets.
    starts: Vec<usize>,
    /// How far the input was given to the splitter, as an input offset.
    given: usize,
}

impl Cutter {
    /// A cutter of games as `container` holds them.
    fn new(container: Container) -> Cutter {
        let splitter: Box<dyn GameSplitter> = match container {
            Container::Pgn => Box::new(Splitter::default()),
            Container::Native(format) => format.splitter(),
        };
        Cutter { splitter, starts: Vec::new(), given: 0 }
    }

    /// `text` is the whole of a mapped input, and its window starts at `base`: scans on, a
    /// [`MAPPED_FIRST_PART`] of a stream's window size at a time, until a game starts at least
    /// `parts` such parts in, and returns that start (or the start that ends a window of
    /// `parts` parts of [`WINDOW_GAMES`], or the end of the input).
    fn cut_mapped(&mut self, text: &[u8], base: usize, parts: usize) -> usize {
        loop {
            if let Some(end) = self.full_window(base, parts * WINDOW_GAMES / MAPPED_FIRST_PART) {
                return end;
            }
            if let Some(&last) = self.starts.last()
                && last >= base + parts * WINDOW_BYTES / MAPPED_FIRST_PART
            {
                return last;
            }
            if self.given >= text.len() {
                return text.len();
            }
            let to = (self.given + WINDOW_BYTES / MAPPED_FIRST_PART).min(text.len());
            self.splitter.scan(&text[..to], 0, to == text.len(), &mut self.starts);
            self.given = to;
        }
    }

    /// `buffer` holds the stream from input offset `base` on (`ended` when that is all of it):
    /// scans its new bytes and returns where the complete games in it end (`base` when none is
    /// complete yet).
    fn cut_stream(&mut self, buffer: &[u8], base: usize, ended: bool) -> usize {
        self.splitter.scan(buffer, base, ended, &mut self.starts);
        if let Some(end) = self.full_window(base, WINDOW_GAMES) {
            return end;
        }
        if ended {
            return base + buffer.len();
        }
        self.starts.iter().rev().find(|&&start| start > base).copied().unwrap_or(base)
    }

    /// The start that ends a window from `base` holding `games` games, if so many were found.
    fn full_window(&self, base: usize, games: usize) -> Option<usize> {
        let after = self.starts.partition_point(|&start| start <= base);
        self.starts.get(after + games - 1).copied()
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

    /// The input's windows joined again, how many games start in them, and how many in each.
    fn windows(mut input: Input) -> (Vec<u8>, usize, Vec<usize>) {
        let mut joined = Vec::new();
        let mut games = Vec::new();
        input
            .windows(|window| {
                assert_eq!(window.base as usize, joined.len());
                joined.extend_from_slice(window.text);
                games.push(window.starts.len());
                Ok(ControlFlow::Continue(()))
            })
            .unwrap();
        (joined, games.iter().sum(), games)
    }

    #[test]
    fn streams_are_cut_at_game_starts() {
        let text = games(300_000);
        let (joined, starts, windows_seen) = windows(Input::from_bytes("test", text.clone()));
        assert_eq!(joined, text);
        assert_eq!(starts, 300_000);
        assert!(windows_seen.len() > 1);
        assert!(windows_seen.iter().all(|&games| games <= WINDOW_GAMES), "{windows_seen:?}");
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
        // A mapped file's windows grow: an eighth of a stream's first, then four times as many
        // games each.
        let eighth = WINDOW_GAMES / MAPPED_FIRST_PART;
        assert_eq!(windows_seen, [eighth, 4 * eighth, 16 * eighth, 300_000 - 21 * eighth]);
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
