//! Why a file cannot be read or written, in words: lowercase phrases without the system's
//! error number (`no such file or folder`, not `No such file or directory (os error 2)`), and
//! for a folder given as an input, what to give instead.

use std::collections::BTreeMap;
use std::fs::File;
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

/// The same error, its message in words (see [`describe`]).
pub fn in_words(error: io::Error) -> io::Error {
    if error.raw_os_error().is_none() {
        return error;
    }
    io::Error::new(error.kind(), describe(&error))
}

/// The system's text for an error, without its number, starting in lowercase.
pub(crate) fn without_number(error: &io::Error) -> String {
    let text = error.to_string();
    let text = match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => &text[..at],
        _ => text.as_str(),
    };
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_lowercase().chain(chars).collect())
}

/// Opens a file to read its games or positions. A folder is refused, with the files in it
/// that were likely meant (`samples/games/*.pgn`); errors are in words.
pub fn open_to_read(path: &Path) -> io::Result<File> {
    let file = File::open(path).map_err(in_words)?;
    if file.metadata().map_err(in_words)?.is_dir() {
        return Err(io::Error::new(ErrorKind::IsADirectory, folder_given(path)));
    }
    Ok(file)
}

/// What to say of a folder given where a file was expected: its files of the most common
/// extension as a pattern the shell expands, or those of its folders (`samples/*/*.pgn`).
fn folder_given(path: &Path) -> String {
    let folder = path.display().to_string();
    let folder = folder.trim_end_matches('/');
    let refusal = "a folder, not a file: cqlq reads files, not folders";
    let (files, folders) = files_by_extension(path);
    let (pattern, (extension, count)) = match commonest(&files) {
        Some(commonest) => (folder.to_owned(), commonest),
        None => {
            let mut deeper: BTreeMap<String, usize> = BTreeMap::new();
            for inner in &folders {
                for (extension, count) in files_by_extension(inner).0 {
                    *deeper.entry(extension).or_default() += count;
                }
            }
            match commonest(&deeper) {
                Some(commonest) => (format!("{folder}/*"), commonest),
                None => return format!("{refusal}, and it holds no files with an extension"),
            }
        }
    };
    let files = if count == 1 { "1 file".to_owned() } else { format!("{count} files") };
    format!("{refusal}; give the files in it, as {pattern}/*.{extension} ({files})")
}

/// How many files a folder holds of each extension, and its folders.
fn files_by_extension(path: &Path) -> (BTreeMap<String, usize>, Vec<std::path::PathBuf>) {
    let mut extensions: BTreeMap<String, usize> = BTreeMap::new();
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            folders.push(entry.path());
        } else if let Some(extension) = kind
            .is_file()
            .then(|| entry.path())
            .and_then(|file| file.extension().map(|extension| extension.to_string_lossy().into_owned()))
        {
            *extensions.entry(extension).or_default() += 1;
        }
    }
    (extensions, folders)
}

/// The most common extension and its count; of equals, the first in order.
fn commonest(extensions: &BTreeMap<String, usize>) -> Option<(String, usize)> {
    let mut best: Option<(&String, usize)> = None;
    for (extension, &count) in extensions {
        if best.is_none_or(|(_, most)| count > most) {
            best = Some((extension, count));
        }
    }
    best.map(|(extension, count)| (extension.clone(), count))
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
        assert_eq!(in_words(io::Error::from_raw_os_error(2)).to_string(), "no such file or folder");
    }

    #[test]
    fn a_folder_is_refused_with_the_files_meant() {
        let dir = std::env::temp_dir().join(format!("cqlq-folder-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["a.pgn", "b.pgn", "notes.txt"] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        let error = open_to_read(&dir).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::IsADirectory);
        let expected = format!(
            "a folder, not a file: cqlq reads files, not folders; give the files in it, as {}/*.pgn (2 files)",
            dir.display()
        );
        assert_eq!(error.to_string(), expected);
        // A folder of folders: the files of its folders.
        let outer = dir.join("outer");
        std::fs::create_dir_all(outer.join("inner")).unwrap();
        std::fs::write(outer.join("inner/c.epd"), "").unwrap();
        let expected = format!(
            "a folder, not a file: cqlq reads files, not folders; give the files in it, as {}/*/*.epd (1 file)",
            outer.display()
        );
        assert_eq!(open_to_read(&outer).unwrap_err().to_string(), expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
