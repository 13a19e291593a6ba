//! A temporary file beside an output's final file, renamed over it when the run ends well.
//!
//! It is removed when it is dropped unrenamed, when a signal stops the command
//! ([`crate::signals`]), or, when the command was killed where nothing could remove it, by the
//! next run that writes to the same file ([`super::stale`]). It takes the owner, group and
//! permissions of the file it replaces, or it is not made.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use super::stale;
use crate::signals::{RemovedOnSignal, remove_on_signal};

/// The names tried before giving up (a name is taken by a file of this process's number left
/// by an earlier process that had it).
const ATTEMPTS: u32 = 100;

/// A temporary file's name, and the final name it takes.
pub struct Temporary {
    path: PathBuf,
    target: PathBuf,
    renamed: bool,
    /// Dropped after the file is removed, or once it is complete, before its renaming.
    on_signal: Option<RemovedOnSignal>,
}

impl Temporary {
    /// A new file in the folder of `target` (a path with no link left to follow), to be renamed
    /// over it, given the owner, group and permissions of `replaced` (the file there now, if
    /// any; a new file gets the permissions the shell's `>` gives one). The temporary files
    /// that killed runs left for `target` are removed first.
    pub fn beside(target: &Path, replaced: Option<&Metadata>) -> io::Result<(Temporary, File)> {
        let folder = target.parent().filter(|folder| !folder.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let Some(file_name) = target.file_name() else {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "no file name"));
        };
        let prefix = stale::prefix(file_name);
        stale::remove_stale(folder, &prefix);
        for attempt in 0..ATTEMPTS {
            let path = folder.join(stale::name(&prefix, attempt));
            // Known to the signal handler before it exists, so that no moment is left out.
            let on_signal = remove_on_signal(&path);
            let file = match create_new(&path, replaced.is_some()) {
                Ok(file) => file,
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(error) => return Err(error),
            };
            let temporary =
                Temporary { path, target: target.to_path_buf(), renamed: false, on_signal: Some(on_signal) };
            if let Some(replaced) = replaced {
                // On failure the temporary file is dropped, and so removed.
                take_on(&file, replaced)?;
            }
            return Ok((temporary, file));
        }
        Err(io::Error::new(io::ErrorKind::AlreadyExists, "every temporary name is taken"))
    }

    /// Gives the temporary file its final name (its file closed before).
    ///
    /// The file it replaces is removed first: a file renamed over another is written out to
    /// the disk before the rename returns on some file systems (ext4 does so), which would
    /// make the end of every run wait for the disk. The temporary file is complete by then,
    /// and a signal no longer removes it: a run stopped between the two steps leaves it under
    /// its temporary name.
    pub fn rename(mut self) -> io::Result<()> {
        self.on_signal = None;
        // Where it cannot be removed (or is not there), the rename replaces it, or says why not.
        let _ = fs::remove_file(&self.target);
        fs::rename(&self.path, &self.target)?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// A new file at `path`, which must not exist; readable by its owner only when it is to take
/// the permissions of another (which it takes before anything is written to it).
fn create_new(path: &Path, private: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = private;
    options.open(path)
}

/// Gives `file` the owner, group and permissions of the file it replaces: an error when it
/// cannot have them (a file of another user, whose owner only root may give).
#[cfg(unix)]
fn take_on(file: &File, replaced: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let own = file.metadata()?;
    if (own.uid(), own.gid()) != (replaced.uid(), replaced.gid()) {
        std::os::unix::fs::fchown(file, Some(replaced.uid()), Some(replaced.gid()))?;
    }
    // The permission bits: set-user-ID and set-group-ID fall, as writing the file clears them.
    file.set_permissions(fs::Permissions::from_mode(replaced.mode() & 0o777))
}

/// Gives `file` the permissions of the file it replaces.
#[cfg(not(unix))]
fn take_on(file: &File, replaced: &Metadata) -> io::Result<()> {
    file.set_permissions(replaced.permissions())
}
