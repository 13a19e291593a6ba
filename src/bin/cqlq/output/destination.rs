//! How an output file is written, chosen when it is opened: as the shell's `>` would write it,
//! in effect, and never leaving half a file in place of a good one where a rename is safe.
//!
//! 1. A name of the file that the command's standard output or standard error already writes
//!    to (`/dev/stdout`, `/proc/self/fd/1`, a link to them, the file `>` opened) is written
//!    through that stream.
//! 2. A folder is refused; a device, a pipe or a socket is written to as it is.
//! 3. An existing file must be writable, as for `>`: it is opened for writing (not emptied),
//!    and refused, saying why, when the system says no (root may write a read-only file, as
//!    with `>`).
//! 4. A regular file, there or not, is written under a temporary name in the folder of the file
//!    its name leads to (symbolic links followed), with the owner, group and permissions of the
//!    file it replaces, and renamed over it when the run ends well. Through a link, the file
//!    linked to is replaced, and the link stays.
//! 5. Where a rename would change more than the bytes — the file has other hard links or
//!    extended attributes (an access control list), its owner cannot be given to a new file,
//!    no file can be made in its folder, or its name leads to it by a way no link can be
//!    followed (`/proc/PID/fd/N` of a file since removed) — the file is written in place: emptied just before the first bytes are written (or at
//!    the end, when there are none), so that a run that stops before writing leaves it as it
//!    was, and one that stops after leaves the beginning of its output.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::bail;

use super::reasons::{Opening, cannot_open};
use super::temporary::Temporary;

/// The most symbolic links followed from a name, as the system follows them.
const MAX_LINKS: usize = 40;

/// Where the bytes of an output go.
pub enum Destination {
    /// The command's own standard output or error.
    Stream(Stream),
    /// A device, a pipe or a socket, written as it is.
    Direct(File),
    /// A regular file written where it stands.
    InPlace(InPlace),
    /// A temporary file, renamed over the final name when the run ends well.
    Renamed { file: File, temporary: Temporary },
    /// Nothing: an output finished, or given up.
    Closed,
}

/// The command's standard streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Output,
    Error,
}

impl Destination {
    /// How the file at `path` (named `name` in messages) is written, by the rules above.
    pub fn open(path: &Path, name: &str) -> anyhow::Result<Destination> {
        let existing = match fs::metadata(path) {
            Ok(metadata) => metadata,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Destination::create(path, name),
            Err(error) => return Err(cannot_open(name, path, Opening::Existing, &error)),
        };
        if let Some(stream) = Stream::writing_to(&existing) {
            return Ok(Destination::Stream(stream));
        }
        if existing.is_dir() {
            bail!("cannot write {name}: it is a folder; give the name of a file");
        }
        // Opened for writing as `>` opens it, but not emptied: the system says whether it may be.
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|error| cannot_open(name, path, Opening::Existing, &error))?;
        if !existing.is_file() {
            return Ok(Destination::Direct(file));
        }
        let temporary = renamable(path, &existing)
            .filter(|_| !has_extended_attributes(&file))
            .and_then(|real| Temporary::beside(&real, Some(&existing)).ok());
        Ok(match temporary {
            Some((temporary, file)) => Destination::Renamed { file, temporary },
            None => Destination::InPlace(InPlace::new(file)),
        })
    }

    /// A file that is not there yet (or a link to nothing): made where its name leads.
    fn create(path: &Path, name: &str) -> anyhow::Result<Destination> {
        let real = follow_links(path).map_err(|error| cannot_open(name, path, Opening::New, &error))?;
        if let Ok((temporary, file)) = Temporary::beside(&real, None) {
            return Ok(Destination::Renamed { file, temporary });
        }
        // Made as `>` makes it, which says why it cannot be.
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|error| cannot_open(name, path, Opening::New, &error))?;
        Ok(Destination::InPlace(InPlace::new(file)))
    }

    /// Whether it is a stream or a device, where what is written cannot be taken back.
    pub fn is_stream(&self) -> bool {
        matches!(self, Destination::Stream(_) | Destination::Direct(_))
    }

    /// Ends the writing: a temporary file takes its final name; a file written in place that
    /// was given nothing is emptied.
    pub fn finish(self) -> io::Result<()> {
        match self {
            Destination::Stream(stream) => stream.flush(),
            Destination::Direct(_) | Destination::Closed => Ok(()),
            Destination::InPlace(mut file) => file.empty(),
            Destination::Renamed { file, temporary } => {
                drop(file);
                temporary.rename()
            }
        }
    }
}

impl Write for Destination {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Destination::Stream(stream) => stream.write(bytes),
            Destination::Direct(file) | Destination::Renamed { file, .. } => file.write(bytes),
            Destination::InPlace(file) => file.write(bytes),
            Destination::Closed => Ok(bytes.len()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Destination::Stream(stream) => stream.flush(),
            Destination::Direct(file) | Destination::Renamed { file, .. } => file.flush(),
            Destination::InPlace(file) => file.flush(),
            Destination::Closed => Ok(()),
        }
    }
}

impl Stream {
    /// The stream that already writes to the file of `metadata`, if one does.
    #[cfg(unix)]
    fn writing_to(metadata: &Metadata) -> Option<Stream> {
        let file = identity(metadata);
        [Stream::Output, Stream::Error].into_iter().find(|stream| stream.identity().is_some_and(|own| own == file))
    }

    /// The stream that already writes to a file: not known here.
    #[cfg(not(unix))]
    fn writing_to(_metadata: &Metadata) -> Option<Stream> {
        None
    }

    /// The file the stream writes to, as [`identity`] tells files apart.
    #[cfg(unix)]
    fn identity(self) -> Option<(u64, u64)> {
        use std::os::fd::AsFd;
        let descriptor = match self {
            Stream::Output => io::stdout().as_fd().try_clone_to_owned(),
            Stream::Error => io::stderr().as_fd().try_clone_to_owned(),
        };
        File::from(descriptor.ok()?).metadata().ok().map(|metadata| identity(&metadata))
    }

    fn write(self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Output => io::stdout().write(bytes),
            Stream::Error => io::stderr().write(bytes),
        }
    }

    fn flush(self) -> io::Result<()> {
        match self {
            Stream::Output => io::stdout().flush(),
            Stream::Error => io::stderr().flush(),
        }
    }
}

/// A regular file written where it stands: emptied just before the first bytes go in, or at
/// the end when there are none.
pub struct InPlace {
    file: File,
    emptied: bool,
}

impl InPlace {
    /// The file, opened for writing at its start and not emptied.
    fn new(file: File) -> InPlace {
        InPlace { file, emptied: false }
    }

    /// Empties the file, the first time only.
    fn empty(&mut self) -> io::Result<()> {
        if !self.emptied {
            self.file.set_len(0)?;
            self.emptied = true;
        }
        Ok(())
    }
}

impl Write for InPlace {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.empty()?;
        self.file.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// The path of the file that `path` leads to, when a temporary file renamed over that path
/// replaces `existing` (the file `path` leads to now) and nothing else: the same file is
/// found by following the links by their text, and it has no other hard link.
#[cfg(unix)]
fn renamable(path: &Path, existing: &Metadata) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let real = follow_links(path).ok()?;
    let found = fs::symlink_metadata(&real).ok()?;
    (identity(&found) == identity(existing) && existing.nlink() == 1).then_some(real)
}

/// The path of the file that `path` leads to, its links followed.
#[cfg(not(unix))]
fn renamable(path: &Path, _existing: &Metadata) -> Option<PathBuf> {
    follow_links(path).ok()
}

/// Whether the file carries extended attributes that a new file would not get (an access
/// control list, a user's own attributes); a security label, which the system gives a new file
/// as well, does not count.
#[cfg(target_os = "linux")]
fn has_extended_attributes(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: with no buffer, flistxattr only says how long the list of names is.
    let length = unsafe { libc::flistxattr(file.as_raw_fd(), std::ptr::null_mut(), 0) };
    let Ok(length @ 1..) = usize::try_from(length) else { return false };
    let mut names = vec![0u8; length];
    // SAFETY: the buffer is writable for the length given.
    let written = unsafe { libc::flistxattr(file.as_raw_fd(), names.as_mut_ptr().cast(), names.len()) };
    let Ok(written) = usize::try_from(written) else {
        // The list grew in between: there are some.
        return true;
    };
    names[..written].split(|&byte| byte == 0).any(|name| !name.is_empty() && name != b"security.selinux")
}

/// Whether the file carries extended attributes: not looked at here.
#[cfg(not(target_os = "linux"))]
fn has_extended_attributes(_file: &File) -> bool {
    false
}

/// What tells a file apart from every other: its device and its number there.
#[cfg(unix)]
fn identity(metadata: &Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (metadata.dev(), metadata.ino())
}

/// `path` with the symbolic links of its last part followed, by their text, to a name that is
/// no link (there or not). The folders on the way are left as they are named: a file beside
/// the result is in the same folder whatever the folder is called.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(folder) => folder.join(target),
                    None => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn links_are_followed_to_the_file_they_lead_to() {
        use std::os::unix::fs::symlink;
        let folder = std::env::temp_dir().join(format!("cqlq-links-{}", std::process::id()));
        let _ = fs::remove_dir_all(&folder);
        fs::create_dir_all(folder.join("inner")).unwrap();
        symlink("inner/target.pgn", folder.join("first")).unwrap();
        symlink("../second", folder.join("inner/target.pgn")).unwrap();
        symlink(folder.join("real.pgn"), folder.join("second")).unwrap();
        assert_eq!(follow_links(&folder.join("first")).unwrap(), folder.join("real.pgn"));
        assert_eq!(follow_links(&folder.join("real.pgn")).unwrap(), folder.join("real.pgn"));
        symlink("loop", folder.join("loop")).unwrap();
        assert!(follow_links(&folder.join("loop")).is_err());
        fs::remove_dir_all(&folder).unwrap();
    }
}
