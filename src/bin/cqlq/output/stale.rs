//! The names of temporary files, and the removal of those that runs which did not end left
//! behind.
//!
//! A temporary file is named after the file it will replace, the machine and the process that
//! write it: `.games.pgn.cqlq-HOST-PID-N.tmp` beside `games.pgn`. A run killed where it cannot
//! remove it (`kill -9`, a power cut) leaves it behind; the next run that writes to the same
//! file removes every temporary file of that file made on this machine by a process that no
//! longer runs. The files of a process that still runs, or of another machine (a folder shared
//! over the network), are left alone.

use std::ffi::OsStr;
use std::fs;
use std::path::Path;
use std::sync::OnceLock;

/// The most bytes of a file's name kept in the names of its temporary files (which may have
/// 255 in all).
const MAX_NAME_BYTES: usize = 120;

/// The most bytes of the machine's name kept.
const MAX_HOST_BYTES: usize = 64;

/// What the names of the temporary files of the file `file_name` start with: `.NAME.cqlq-`.
pub fn prefix(file_name: &OsStr) -> String {
    let name = file_name.to_string_lossy();
    let mut end = name.len().min(MAX_NAME_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!(".{}.cqlq-", &name[..end])
}

/// The name of this process's temporary file number `attempt`, starting with `prefix`.
pub fn name(prefix: &str, attempt: u32) -> String {
    format!("{prefix}{}-{}-{attempt}.tmp", host(), std::process::id())
}

/// The machine and the process that made the temporary file `name` of `prefix`.
fn maker<'n>(name: &'n str, prefix: &str) -> Option<(&'n str, u32)> {
    let rest = name.strip_prefix(prefix)?.strip_suffix(".tmp")?;
    let mut parts = rest.rsplitn(3, '-');
    parts.next()?.parse::<u32>().ok()?;
    let process = parts.next()?.parse().ok()?;
    let host = parts.next().filter(|host| is_host_name(host))?;
    Some((host, process))
}

/// Removes the temporary files of `prefix` in `folder` made on this machine by processes that
/// no longer run. Whatever cannot be read or removed is left.
pub fn remove_stale(folder: &Path, prefix: &str) {
    let Ok(entries) = fs::read_dir(folder) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some((host_name, process)) = name.to_str().and_then(|name| maker(name, prefix)) else { continue };
        if host_name == host() && !runs(process) && entry.file_type().is_ok_and(|kind| kind.is_file()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether a name is one [`host`] may give: letters, digits, `-` and `_`.
fn is_host_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_'))
}

/// The machine's name, as it goes in a file's name: letters, digits and `-`, anything else as
/// `_`.
fn host() -> &'static str {
    static HOST: OnceLock<String> = OnceLock::new();
    HOST.get_or_init(|| {
        let name = machine_name();
        let name: String = name
            .chars()
            .take(MAX_HOST_BYTES)
            .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' })
            .collect();
        if name.is_empty() { "host".to_owned() } else { name }
    })
}

#[cfg(unix)]
fn machine_name() -> String {
    let mut buffer = [0u8; 256];
    // SAFETY: the buffer is writable for the length given; what was written is read up to its
    // first NUL below, and not past the buffer's end.
    let status = unsafe { libc::gethostname(buffer.as_mut_ptr().cast(), buffer.len()) };
    let end = buffer.iter().position(|&byte| byte == 0).unwrap_or(buffer.len());
    if status == 0 { String::from_utf8_lossy(&buffer[..end]).into_owned() } else { String::new() }
}

#[cfg(not(unix))]
fn machine_name() -> String {
    std::env::var("COMPUTERNAME").unwrap_or_default()
}

/// Whether the process `id` runs on this machine (or may: anything but "no such process").
#[cfg(unix)]
fn runs(id: u32) -> bool {
    let Ok(id) = libc::pid_t::try_from(id) else { return false };
    if id <= 0 {
        // 0 and below name groups of processes, never a process.
        return true;
    }
    // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
    let status = unsafe { libc::kill(id, 0) };
    status == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Whether a process runs: unknown here, so every temporary file is taken to be in use.
#[cfg(not(unix))]
fn runs(_id: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_whose_they_are() {
        let prefix = prefix(OsStr::new("games.pgn"));
        assert_eq!(prefix, ".games.pgn.cqlq-");
        let name = name(&prefix, 3);
        assert_eq!(maker(&name, &prefix), Some((host(), std::process::id())));
        assert_eq!(maker(".games.pgn.cqlq-some-box-17-0.tmp", &prefix), Some(("some-box", 17)));
        assert_eq!(maker(".games.pgn.cqlq-17-0.tmp", &prefix), None, "no machine");
        assert_eq!(maker(".games.pgn.cqlq-x.cqlq-box-17-0.tmp", &prefix), None, "another file's");
        assert_eq!(maker(".games.pgn.cqlq-box-17-0.tmp.part", &prefix), None);
        let long = "é".repeat(200);
        assert!(self::prefix(OsStr::new(&long)).len() <= MAX_NAME_BYTES + 7);
    }

    #[test]
    #[cfg(unix)]
    fn only_files_of_processes_gone_are_removed() {
        let folder = std::env::temp_dir().join(format!("cqlq-stale-{}", std::process::id()));
        let _ = fs::remove_dir_all(&folder);
        fs::create_dir_all(&folder).unwrap();
        let mut gone = std::process::Command::new("true").spawn().unwrap();
        gone.wait().unwrap();
        let prefix = prefix(OsStr::new("out.pgn"));
        let files = [
            format!("{prefix}{}-{}-0.tmp", host(), gone.id()),
            format!("{prefix}{}-{}-0.tmp", host(), std::process::id()),
            format!("{prefix}another-machine-{}-0.tmp", gone.id()),
            format!(".other.pgn.cqlq-{}-{}-0.tmp", host(), gone.id()),
        ];
        for file in &files {
            fs::write(folder.join(file), "x").unwrap();
        }
        remove_stale(&folder, &prefix);
        let left: Vec<bool> = files.iter().map(|file| folder.join(file).exists()).collect();
        assert_eq!(left, [false, true, true, true]);
        fs::remove_dir_all(&folder).unwrap();
    }
}
