//! Why an output cannot be written, in words: lowercase phrases without the system's error
//! number (`no space left on the device`, not `No space left on device (os error 28)`), and for
//! a file that cannot be opened, what to do about it.

use std::io::{self, ErrorKind};
use std::path::Path;

/// What went wrong, as the end of a sentence. An error of the system is described by its kind;
/// an error with a message of its own keeps it.
pub fn describe(error: &io::Error) -> String {
    if error.raw_os_error().is_none() {
        return error.to_string();
    }
    let phrase = match error.kind() {
        ErrorKind::PermissionDenied => "permission denied",
        ErrorKind::NotFound => "no such file or folder",
        ErrorKind::StorageFull => "no space left on the device",
        ErrorKind::QuotaExceeded => "the disk quota is exceeded",
        ErrorKind::FileTooLarge => "the file would grow too large",
        ErrorKind::ReadOnlyFilesystem => "the file system is read-only",
        ErrorKind::IsADirectory => "it is a folder",
        ErrorKind::NotADirectory => "a part of its path is not a folder",
        ErrorKind::BrokenPipe => "the pipe was closed by its reader",
        ErrorKind::ExecutableFileBusy => "it is a program that is running",
        ErrorKind::InvalidFilename => "the name is too long, or not a valid file name",
        _ => return without_number(error),
    };
    phrase.to_owned()
}

/// The system's text for an error, without its number, starting in lowercase.
fn without_number(error: &io::Error) -> String {
    let text = error.to_string();
    let text = match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => &text[..at],
        _ => text.as_str(),
    };
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_lowercase().chain(chars).collect())
}

/// How a file was being opened when it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// An existing file, for writing.
    Existing,
    /// A new file, made in its folder.
    New,
}

/// Why the output `name` (the file at `path`) cannot be opened, and what to do.
pub fn cannot_open(name: &str, path: &Path, opening: Opening, error: &io::Error) -> anyhow::Error {
    let folder = match path.parent().filter(|folder| !folder.as_os_str().is_empty()) {
        Some(folder) => format!("the folder {}", folder.display()),
        None => "the current folder".to_owned(),
    };
    let choose = "choose another output file";
    match (error.kind(), opening) {
        (ErrorKind::PermissionDenied, Opening::Existing) => {
            anyhow::anyhow!("cannot write {name}: permission denied (the file is not writable for you); {choose}")
        }
        (ErrorKind::PermissionDenied, Opening::New) => {
            anyhow::anyhow!("cannot write {name}: permission denied (no file may be made in {folder}); {choose}")
        }
        (ErrorKind::NotFound, Opening::New) => {
            anyhow::anyhow!("cannot write {name}: {folder} does not exist; create it or {choose}")
        }
        _ => anyhow::anyhow!("cannot write {name}: {}; {choose}", describe(error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_of_the_system_are_told_without_their_number() {
        assert_eq!(describe(&io::Error::from_raw_os_error(28)), "no space left on the device");
        let busy = describe(&io::Error::from_raw_os_error(16));
        assert!(!busy.contains("os error") && busy.starts_with(char::is_lowercase), "{busy}");
        assert_eq!(describe(&io::Error::other("Its Own words")), "Its Own words");
        let denied = io::Error::from_raw_os_error(13);
        let message = cannot_open("out.pgn", Path::new("out.pgn"), Opening::New, &denied).to_string();
        assert_eq!(
            message,
            "cannot write out.pgn: permission denied (no file may be made in the current folder); choose another \
             output file"
        );
    }
}
