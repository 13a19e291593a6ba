//! Where the command writes: standard output or a file, checked and named.
//!
//! A file is written as the shell's `>` would write it, in effect: through symbolic links, to
//! devices and pipes as they are, refused where the user may not write it; and where it can be
//! done safely, under a temporary name beside it that is renamed over it only when the run ends
//! well, so that an interrupted run never leaves half a file in place of a good one
//! ([`destination`] has the rules). A file that is also an input (the same file, whatever its
//! name) is refused before anything is read. Every write is checked, and a failure names the
//! output, never the input: `cannot write out.pgn: no space left on the device`.

mod destination;
mod reasons;
mod stale;
mod temporary;

use std::io::{self, BufWriter, Write};
use std::path::Path;

use anyhow::bail;

use destination::{Destination, Stream};

/// Bytes buffered before a write.
const BUFFER_BYTES: usize = 1 << 20;

/// An output being written.
pub struct Output {
    name: String,
    out: BufWriter<Destination>,
}

impl Output {
    /// Standard output.
    pub fn stdout() -> Output {
        Output { name: "standard output".to_owned(), out: buffered(Destination::Stream(Stream::Output)) }
    }

    /// Standard output for `None` or `-`, else the file at `path`, which must be none of the
    /// `inputs` and none of the other `outputs` of the run (by name or as the same file).
    pub fn open(path: Option<&Path>, inputs: &[&Path], outputs: &[&Path]) -> anyhow::Result<Output> {
        match path {
            None => Ok(Output::stdout()),
            Some(path) if path.as_os_str() == "-" => Ok(Output::stdout()),
            Some(path) => Output::file(path, inputs, outputs),
        }
    }

    fn file(path: &Path, inputs: &[&Path], outputs: &[&Path]) -> anyhow::Result<Output> {
        let name = path.display().to_string();
        let clash = |other: &&Path| *other == path || same_file(path, other);
        if let Some(input) = inputs.iter().find(|other| clash(other)) {
            if *input == path {
                bail!("{name} is an input: writing to it would destroy it; choose another output file");
            }
            bail!("{name} is the same file as the input {}: choose another output file", input.display());
        }
        if let Some(output) = outputs.iter().find(|other| clash(other)) {
            bail!("{name} is written twice, as {} too: give each output its own file", output.display());
        }
        let destination = Destination::open(path, &name)?;
        Ok(Output { name, out: buffered(destination) })
    }

    /// Flushes what is written so far.
    pub fn flush(&mut self) -> io::Result<()> {
        let name = &self.name;
        self.out.flush().map_err(|error| named(name, error))
    }

    /// Flushes, and gives a file its final name (or its final length, written in place).
    pub fn finish(mut self) -> io::Result<()> {
        let out = std::mem::replace(&mut self.out, closed());
        let destination = out.into_inner().map_err(|error| named(&self.name, error.into_error()))?;
        destination.finish().map_err(|error| named(&self.name, error))
    }
}

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let name = &self.name;
        self.out.write(bytes).map_err(|error| named(name, error))
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        let name = &self.name;
        self.out.write_all(bytes).map_err(|error| named(name, error))
    }

    fn flush(&mut self) -> io::Result<()> {
        Output::flush(self)
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        // Not finished. A stream or a device gets what was written to it so far, as the run's
        // output up to its end; a file is left as it was where it can be (its temporary file
        // is removed, and the bytes still buffered are not written in place).
        let (mut destination, buffered) = std::mem::replace(&mut self.out, closed()).into_parts();
        if let (true, Ok(bytes)) = (destination.is_stream(), buffered) {
            let _ = destination.write_all(&bytes);
        }
    }
}

fn buffered(destination: Destination) -> BufWriter<Destination> {
    BufWriter::with_capacity(BUFFER_BYTES, destination)
}

/// What is left of an output once it is finished or given up.
fn closed() -> BufWriter<Destination> {
    BufWriter::with_capacity(0, Destination::Closed)
}

/// Whether two paths name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    if b.as_os_str() == "-" {
        return false;
    }
    identity(a).is_some_and(|a| identity(b) == Some(a))
}

#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|metadata| (metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn identity(path: &Path) -> Option<std::path::PathBuf> {
    std::fs::canonicalize(path).ok()
}

/// An error writing the output `name`, saying so; its kind stays (a closed pipe is still one).
pub fn named(name: &str, error: io::Error) -> io::Error {
    if error.get_ref().is_some_and(|inner| inner.is::<Named>()) {
        return error;
    }
    io::Error::new(error.kind(), Named(format!("cannot write {name}: {}", reasons::describe(&error))))
}

/// The message of an error named after its output.
#[derive(Debug)]
struct Named(String);

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Named {}
