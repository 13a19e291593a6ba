//! Where the command writes: standard output or a file, checked and named.
//!
//! A file is written under a temporary name in its own folder and renamed over the final name
//! only when the run ends well, so that an interrupted run never leaves half a file under the
//! final name. A file that is also an input (the same file, whatever its name) is refused
//! before anything is read. Every write is checked, and a failure names the output, never the
//! input: `cannot write out.pgn: No space left on device`.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::bail;

/// Bytes buffered before a write.
const BUFFER_BYTES: usize = 1 << 20;

/// An output being written.
pub struct Output {
    name: String,
    out: BufWriter<Box<dyn Write>>,
    /// The temporary file and the final path, for a file renamed at the end.
    rename: Option<(PathBuf, PathBuf)>,
}

impl Output {
    /// Standard output.
    pub fn stdout() -> Output {
        Output { name: "standard output".to_owned(), out: buffered(Box::new(io::stdout())), rename: None }
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
        let existing = fs::metadata(path).ok();
        if existing.as_ref().is_some_and(|metadata| !metadata.is_file()) {
            // A device or a pipe (`/dev/null`, a FIFO): written to as it is.
            let file = OpenOptions::new().write(true).open(path).map_err(|error| cannot_write(&name, &error))?;
            return Ok(Output { name, out: buffered(Box::new(file)), rename: None });
        }
        let (temporary, file) = temporary_beside(path).map_err(|error| cannot_write(&name, &error))?;
        Ok(Output { name, out: buffered(Box::new(file)), rename: Some((temporary, path.to_path_buf())) })
    }

    /// Flushes what is written so far.
    pub fn flush(&mut self) -> io::Result<()> {
        let name = &self.name;
        self.out.flush().map_err(|error| named(name, error))
    }

    /// Flushes, and gives a file its final name.
    pub fn finish(mut self) -> io::Result<()> {
        self.flush()?;
        if let Some((temporary, path)) = self.rename.take() {
            fs::rename(&temporary, &path).map_err(|error| {
                let _ = fs::remove_file(&temporary);
                named(&self.name, error)
            })?;
        }
        Ok(())
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
        // Not finished: the final name is left as it was.
        if let Some((temporary, _)) = self.rename.take() {
            let _ = fs::remove_file(temporary);
        }
    }
}

fn buffered(out: Box<dyn Write>) -> BufWriter<Box<dyn Write>> {
    BufWriter::with_capacity(BUFFER_BYTES, out)
}

/// A new file in the folder of `path`, with a name of its own.
fn temporary_beside(path: &Path) -> io::Result<(PathBuf, File)> {
    let folder = path.parent().filter(|folder| !folder.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let stem = path.file_name().map_or_else(|| "output".into(), |name| name.to_string_lossy());
    let mut attempt = 0u32;
    loop {
        let temporary = folder.join(format!(".{stem}.cqlq-{}-{attempt}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&temporary) {
            Ok(file) => return Ok((temporary, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(error) => return Err(error),
        }
    }
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
    fs::metadata(path).ok().map(|metadata| (metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn identity(path: &Path) -> Option<PathBuf> {
    fs::canonicalize(path).ok()
}

/// An error writing the output `name`, saying so; its kind stays (a closed pipe is still one).
pub fn named(name: &str, error: io::Error) -> io::Error {
    if error.get_ref().is_some_and(|inner| inner.is::<Named>()) {
        return error;
    }
    io::Error::new(error.kind(), Named(format!("cannot write {name}: {error}")))
}

fn cannot_write(name: &str, error: &io::Error) -> anyhow::Error {
    anyhow::anyhow!("cannot write {name}: {error}")
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
