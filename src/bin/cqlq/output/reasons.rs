//! Why an output cannot be written, in words: lowercase phrases without the system's error
//! number (`no space left on the device`, not `No space left on device (os error 28)`), and for
//! a file that cannot be opened, what to do about it.

use std::io::{self, ErrorKind};
use std::path::Path;

pub use cqlq::search::describe;

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
    fn a_file_that_cannot_be_made_says_why_and_what_to_do() {
        let denied = io::Error::from_raw_os_error(13);
        let message = cannot_open("out.pgn", Path::new("out.pgn"), Opening::New, &denied).to_string();
        assert_eq!(
            message,
            "cannot write out.pgn: permission denied (no file may be made in the current folder); choose another \
             output file"
        );
    }
}
