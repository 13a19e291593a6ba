//! What cqlq writes, under hostile use: `-o FILE` and `--errors FILE` write as the shell's `>`
//! would (through symbolic links, to pipes and devices, refused where the user may not write,
//! keeping an existing file's mode, owner and hard links); and a temporary file is never left
//! behind (removed on a signal; after `kill -9`, by the next run).
//!
//! The tests of permissions run cqlq as a user who is not root: the user running the tests, or
//! `nobody` when that is root (whom no permission stops); where that cannot be, they say they
//! are skipped and why. Links, modes, owners, pipes and signals as tested here are Unix's.

use crate::common;

use std::ffi::CString;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt, symlink};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{temp_dir, text};

/// A folder of the test's own, readable by every user, with the games `in.pgn` in it.
fn folder(name: &str) -> common::TempDir {
    let dir = temp_dir(&format!("output-{name}"));
    fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/games/classics.pgn"), dir.join("in.pgn")).unwrap();
    dir
}

/// `cqlq ARGS`, run in `dir`.
fn command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cqlq"));
    command.args(args).current_dir(dir).stdin(Stdio::null());
    command
}

/// The games of `in.pgn`, all found, written to `output` (in `dir`).
fn search_to(dir: &Path, output: &str) -> Output {
    command(dir, &["search", "-q", "-c", "true", "-o", output, "in.pgn"]).output().unwrap()
}

/// What `search_to` writes.
fn expected(dir: &Path) -> Vec<u8> {
    let output = command(dir, &["search", "-q", "-c", "true", "in.pgn"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    output.stdout
}

/// The temporary files of cqlq in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.contains(".cqlq-") && name.ends_with(".tmp"))
        .collect();
    names.sort();
    names
}

/// Asserts that a run ended well.
fn assert_ran(output: &Output) {
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}

/// The user and group `nobody`.
const NOBODY: u32 = 65534;

/// Who runs cqlq in the tests of permissions.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Runner {
    /// The user running the tests, who is not root.
    Myself,
    /// `nobody`, the tests running as root.
    Nobody,
}

fn runner() -> Runner {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 { Runner::Nobody } else { Runner::Myself }
}

/// Runs `command` as `runner`; `None`, saying why, when that user cannot run it.
fn run_as(runner: Runner, mut command: Command, test: &str) -> Option<Output> {
    if runner == Runner::Nobody {
        command.uid(NOBODY).gid(NOBODY);
    }
    match command.output() {
        Ok(output) => Some(output),
        Err(error) => {
            eprintln!("skipped {test}: cqlq cannot be run as the user nobody here ({error})");
            None
        }
    }
}

/// Makes `path` the runner's.
fn give(path: &Path, runner: Runner) {
    if runner == Runner::Nobody {
        std::os::unix::fs::chown(path, Some(NOBODY), Some(NOBODY)).unwrap();
    }
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().mode() & 0o7777
}

fn set_mode(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn a_link_is_written_through_and_stays_a_link() {
    let dir = folder("links");
    let games = expected(&dir);
    fs::create_dir(dir.join("real")).unwrap();
    fs::write(dir.join("real/target.pgn"), "old\n").unwrap();
    symlink("real/target.pgn", dir.join("link.pgn")).unwrap();
    assert_ran(&search_to(&dir, "link.pgn"));
    assert!(fs::symlink_metadata(dir.join("link.pgn")).unwrap().file_type().is_symlink());
    assert_eq!(fs::read(dir.join("real/target.pgn")).unwrap(), games, "the file linked to is written");
    assert_eq!(temporaries(&dir.join("real")), Vec::<String>::new());
    // A link to nothing yet: the file is made where it leads.
    symlink("real/made.pgn", dir.join("dangling.pgn")).unwrap();
    assert_ran(&search_to(&dir, "dangling.pgn"));
    assert!(fs::symlink_metadata(dir.join("dangling.pgn")).unwrap().file_type().is_symlink());
    assert_eq!(fs::read(dir.join("real/made.pgn")).unwrap(), games);
    fs::remove_dir_all(dir).unwrap();
}

#[test]
#[cfg(target_os = "linux")]
fn standard_output_by_another_name_is_written_through() {
    let dir = folder("stdout");
    let games = expected(&dir);
    // `ln -s /proc/self/fd/1 so; cqlq search -o so ... > result.pgn`
    symlink("/proc/self/fd/1", dir.join("so")).unwrap();
    let result = fs::File::create(dir.join("result.pgn")).unwrap();
    let output = command(&dir, &["search", "-q", "-c", "true", "-o", "so", "in.pgn"]).stdout(result).output().unwrap();
    assert_ran(&output);
    assert_eq!(fs::read(dir.join("result.pgn")).unwrap(), games);
    assert!(fs::symlink_metadata(dir.join("so")).unwrap().file_type().is_symlink(), "the link stays");
    // `-o /dev/stdout` into a pipe, and into a file opened to append to.
    let output = search_to(&dir, "/dev/stdout");
    assert_ran(&output);
    assert_eq!(output.stdout, games);
    fs::write(dir.join("log.pgn"), "first\n").unwrap();
    let log = fs::OpenOptions::new().append(true).open(dir.join("log.pgn")).unwrap();
    let output =
        command(&dir, &["search", "-q", "-c", "true", "-o", "/dev/stdout", "in.pgn"]).stdout(log).output().unwrap();
    assert_ran(&output);
    assert_eq!(fs::read(dir.join("log.pgn")).unwrap(), [b"first\n".as_slice(), &games].concat());
    assert_eq!(temporaries(&dir), Vec::<String>::new());
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn pipes_and_devices_are_written_as_they_are() {
    let dir = folder("fifo");
    let games = expected(&dir);
    let fifo = dir.join("fifo");
    let path = CString::new(fifo.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid C string for the path.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
    symlink("fifo", dir.join("to-fifo")).unwrap();
    for name in ["fifo", "to-fifo"] {
        let reading = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).unwrap())
        };
        let output = search_to(&dir, name);
        // Should cqlq not have opened the pipe, its reader is let go.
        let _ = fs::OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(&fifo);
        assert_ran(&output);
        assert_eq!(reading.join().unwrap(), games, "{name}");
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }
    assert_ran(&search_to(&dir, "/dev/null"));
    assert!(fs::metadata("/dev/null").unwrap().file_type().is_char_device());
    assert_eq!(temporaries(&dir), Vec::<String>::new());
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_existing_file_keeps_its_mode_and_its_hard_links() {
    let dir = folder("mode-links");
    let games = expected(&dir);
    fs::write(dir.join("private.pgn"), "old\n").unwrap();
    set_mode(&dir.join("private.pgn"), 0o600);
    assert_ran(&search_to(&dir, "private.pgn"));
    assert_eq!((fs::read(dir.join("private.pgn")).unwrap(), mode(&dir.join("private.pgn"))), (games.clone(), 0o600));
    fs::write(dir.join("a.pgn"), "old\n").unwrap();
    fs::hard_link(dir.join("a.pgn"), dir.join("b.pgn")).unwrap();
    let errors = dir.join("errors.jsonl");
    fs::write(&errors, "old\n").unwrap();
    fs::hard_link(&errors, dir.join("errors-too.jsonl")).unwrap();
    let output = command(&dir, &["search", "-q", "-c", "true", "-o", "a.pgn", "--errors", "errors.jsonl", "in.pgn"])
        .output()
        .unwrap();
    assert_ran(&output);
    let (a, b) = (fs::metadata(dir.join("a.pgn")).unwrap(), fs::metadata(dir.join("b.pgn")).unwrap());
    assert_eq!((a.ino(), a.nlink()), (b.ino(), 2), "still one file of two names");
    assert_eq!(fs::read(dir.join("b.pgn")).unwrap(), games);
    assert_eq!(fs::read(dir.join("errors-too.jsonl")).unwrap(), b"", "no errors, written through the link");
    #[cfg(target_os = "linux")]
    {
        // An extended attribute (an access control list is one) stays with the file.
        let tagged = dir.join("tagged.pgn");
        fs::write(&tagged, "old\n").unwrap();
        let path = CString::new(tagged.as_os_str().as_bytes()).unwrap();
        let name = c"user.cqlq-test";
        // SAFETY: valid C strings, and a value of the length given.
        let set = unsafe { libc::setxattr(path.as_ptr(), name.as_ptr(), b"1".as_ptr().cast(), 1, 0) };
        if set == 0 {
            assert_ran(&search_to(&dir, "tagged.pgn"));
            assert_eq!(fs::read(&tagged).unwrap(), games);
            // SAFETY: as above; no buffer, so only the value's length is asked for.
            let length = unsafe { libc::getxattr(path.as_ptr(), name.as_ptr(), std::ptr::null_mut(), 0) };
            assert_eq!(length, 1, "the attribute stays");
        } else {
            eprintln!("skipped extended attributes: the file system of {} has none", dir.display());
        }
    }
    assert_eq!(temporaries(&dir), Vec::<String>::new());
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_file_the_user_may_not_write_is_refused_as_by_the_shell() {
    let dir = folder("read-only");
    let games = expected(&dir);
    set_mode(&dir, 0o777);
    let read_only = dir.join("ro.pgn");
    fs::write(&read_only, "old\n").unwrap();
    set_mode(&read_only, 0o444);
    let runner = runner();
    give(&read_only, runner);
    for option in ["-o", "--errors"] {
        let run = command(&dir, &["search", "-q", "-c", "true", option, "ro.pgn", "in.pgn"]);
        let Some(output) = run_as(runner, run, "a_file_the_user_may_not_write_is_refused_as_by_the_shell") else {
            return;
        };
        let errors = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{errors}");
        assert!(
            errors.contains("cannot write ro.pgn: permission denied (the file is not writable for you); choose"),
            "{errors}"
        );
        assert!(!errors.contains("os error"), "{errors}");
        assert_eq!(fs::read(&read_only).unwrap(), b"old\n", "{option}");
        assert_eq!(temporaries(&dir), Vec::<String>::new());
    }
    // Root writes a read-only file, as with the shell's `>`; the file stays read-only.
    if runner == Runner::Nobody {
        assert_ran(&search_to(&dir, "ro.pgn"));
        assert_eq!((fs::read(&read_only).unwrap(), mode(&read_only)), (games, 0o444));
    }
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn another_users_file_in_an_open_folder_is_refused() {
    if runner() != Runner::Nobody {
        eprintln!(
            "skipped another_users_file_in_an_open_folder_is_refused: it needs root to make the file of another user"
        );
        return;
    }
    let dir = folder("open-folder");
    set_mode(&dir, 0o777);
    fs::write(dir.join("roots.pgn"), "root's\n").unwrap();
    let run = command(&dir, &["search", "-q", "-c", "true", "-o", "roots.pgn", "in.pgn"]);
    let Some(output) = run_as(Runner::Nobody, run, "another_users_file_in_an_open_folder_is_refused") else {
        return;
    };
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("cannot write roots.pgn: permission denied"), "{}", text(&output.stderr));
    let roots = fs::metadata(dir.join("roots.pgn")).unwrap();
    assert_eq!((fs::read(dir.join("roots.pgn")).unwrap(), roots.uid()), (b"root's\n".to_vec(), 0));
    assert_eq!(temporaries(&dir), Vec::<String>::new());
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_file_in_a_folder_the_user_may_not_write_is_written_in_place() {
    let dir = folder("closed-folder");
    let games = expected(&dir);
    let closed = dir.join("closed");
    fs::create_dir(&closed).unwrap();
    let mine = closed.join("mine.pgn");
    fs::write(&mine, "old\n").unwrap();
    let runner = runner();
    give(&mine, runner);
    // Closed to the runner: root's folder for nobody, or the runner's own, read-only.
    set_mode(&closed, 0o555);
    let before = fs::metadata(&mine).unwrap().ino();
    let test = "a_file_in_a_folder_the_user_may_not_write_is_written_in_place";
    let run = command(&dir, &["search", "-q", "-c", "true", "-o", "closed/mine.pgn", "in.pgn"]);
    let Some(output) = run_as(runner, run, test) else {
        set_mode(&closed, 0o755);
        return;
    };
    assert_ran(&output);
    assert_eq!((fs::read(&mine).unwrap(), fs::metadata(&mine).unwrap().ino()), (games, before), "in place");
    // No new file can be made there.
    let run = command(&dir, &["search", "-q", "-c", "true", "-o", "closed/new.pgn", "in.pgn"]);
    let output = run_as(runner, run, test).unwrap();
    assert_eq!(output.status.code(), Some(2));
    let errors = text(&output.stderr);
    assert!(
        errors.contains("cannot write closed/new.pgn: permission denied (no file may be made in the folder closed)"),
        "{errors}"
    );
    assert!(!closed.join("new.pgn").exists());
    set_mode(&closed, 0o755);
    assert_eq!(temporaries(&closed), Vec::<String>::new());
    fs::remove_dir_all(dir).unwrap();
}

/// Starts `cqlq search -c true -o out.pgn -` in `dir`, reading a pipe kept open (so that it
/// waits), with the default action for `signals` whatever the tests were started with, and
/// waits for its temporary file; returns the process and the file's name.
fn waiting_search(dir: &Path, signals: &[libc::c_int]) -> (Child, String) {
    let mut command = command(dir, &["search", "-q", "-c", "true", "-o", "out.pgn", "-"]);
    command.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null());
    let signals = signals.to_vec();
    // SAFETY: `signal` is async-signal-safe, as what runs between fork and exec must be.
    unsafe {
        command.pre_exec(move || {
            for &signal in &signals {
                libc::signal(signal, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(30) {
        let mine = format!("-{}-", child.id());
        if let Some(name) = temporaries(dir).into_iter().find(|name| name.contains(&mine)) {
            return (child, name);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("no temporary file came");
}

fn send(child: &Child, signal: libc::c_int) {
    // SAFETY: the process is our child, not yet waited for.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
}

#[test]
fn a_signal_removes_the_temporary_file_and_ends_the_run_as_it_would() {
    let dir = folder("signals");
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        fs::write(dir.join("out.pgn"), "old\n").unwrap();
        let (mut child, _) = waiting_search(&dir, &[signal]);
        send(&child, signal);
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(signal), "the signal ends it");
        assert_eq!(temporaries(&dir), Vec::<String>::new(), "signal {signal}");
        assert_eq!(fs::read(dir.join("out.pgn")).unwrap(), b"old\n");
    }
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_next_run_removes_what_a_killed_run_left() {
    let dir = folder("killed");
    let (mut child, left) = waiting_search(&dir, &[]);
    send(&child, libc::SIGKILL);
    child.wait().unwrap();
    assert_eq!(temporaries(&dir), std::slice::from_ref(&left), "nothing can remove it on SIGKILL");
    // `.out.pgn.cqlq-HOST-PID-0.tmp`: this machine's name, as cqlq writes it.
    let host = left.strip_prefix(".out.pgn.cqlq-").unwrap().rsplitn(3, '-').nth(2).unwrap().to_owned();
    let running = format!(".out.pgn.cqlq-{host}-{}-0.tmp", std::process::id());
    let elsewhere = format!(".out.pgn.cqlq-another-machine-{}-0.tmp", child.id());
    let other_file = format!(".other.pgn.cqlq-{host}-{}-0.tmp", child.id());
    for name in [&running, &elsewhere, &other_file] {
        fs::write(dir.join(name), "x").unwrap();
    }
    let output = command(&dir, &["search", "-q", "-c", "true", "-o", "out.pgn", "in.pgn"]).output().unwrap();
    assert_ran(&output);
    let mut kept = vec![running, elsewhere, other_file];
    kept.sort();
    assert_eq!(temporaries(&dir), kept, "only the file of a process that no longer runs goes");
    fs::remove_dir_all(dir).unwrap();
}
