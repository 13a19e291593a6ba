//! Temporary files removed when a signal stops the command.
//!
//! The paths of the temporary files being written are kept in a table of atomic pointers. On
//! `SIGHUP`, `SIGINT`, `SIGQUIT`, `SIGTERM`, `SIGXFSZ` (a file grown past its limit) or
//! `SIGABRT` (which an overflowed stack raises too), a handler takes each path out of the table
//! and unlinks it (atomic operations and `unlink` are all it does, both safe in a signal
//! handler, whatever the thread was doing), then raises the signal again with its default
//! action, so that the command ends as the signal would have ended it and the shell sees
//! that. A signal ignored when the command started (`nohup`) stays ignored. Nothing can remove a
//! file on `SIGKILL`: the next run writing to the same file does (see `output/stale.rs`).
//!
//! ```text
//! let on_signal = remove_on_signal(&path);   // the file at path is removed on a signal
//! ...                                        // until on_signal is dropped
//! ```

use std::path::Path;

/// A path removed if a signal stops the command, until this is dropped.
pub struct RemovedOnSignal {
    /// Its place in the table, when it found one.
    #[cfg(unix)]
    slot: Option<usize>,
}

/// Has the file at `path` removed if a signal stops the command, until the value returned is
/// dropped. The handler is installed the first time. When the table is full, the path is not
/// kept (a later run removes the file).
#[cfg(unix)]
pub fn remove_on_signal(path: &Path) -> RemovedOnSignal {
    RemovedOnSignal { slot: unix::register(path) }
}

/// Nothing is done on a signal here.
#[cfg(not(unix))]
pub fn remove_on_signal(_path: &Path) -> RemovedOnSignal {
    RemovedOnSignal {}
}

#[cfg(unix)]
impl Drop for RemovedOnSignal {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            unix::unregister(slot);
        }
    }
}

#[cfg(unix)]
mod unix {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::ptr;
    use std::sync::Once;
    use std::sync::atomic::{AtomicPtr, Ordering};

    /// The signals that remove the files.
    const SIGNALS: [libc::c_int; 6] =
        [libc::SIGHUP, libc::SIGINT, libc::SIGQUIT, libc::SIGTERM, libc::SIGXFSZ, libc::SIGABRT];

    /// The most paths kept at once (a command writes two outputs at most).
    const SLOTS: usize = 16;

    /// The paths, as C strings made by `CString::into_raw`; null where there is none. Whoever
    /// swaps a pointer out of its slot owns it: the handler, or [`unregister`].
    static PATHS: [AtomicPtr<libc::c_char>; SLOTS] = [const { AtomicPtr::new(ptr::null_mut()) }; SLOTS];

    static INSTALLED: Once = Once::new();

    /// Keeps `path` (made absolute, should the command change folders) in a free slot.
    pub(super) fn register(path: &Path) -> Option<usize> {
        INSTALLED.call_once(install);
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let raw = CString::new(path.as_os_str().as_bytes()).ok()?.into_raw();
        let slot = PATHS
            .iter()
            .position(|slot| slot.compare_exchange(ptr::null_mut(), raw, Ordering::SeqCst, Ordering::SeqCst).is_ok());
        if slot.is_none() {
            // SAFETY: `raw` came from `into_raw` above and was put in no slot.
            drop(unsafe { CString::from_raw(raw) });
        }
        slot
    }

    /// Takes the path out of `slot`, unless the handler took it (then the process is ending).
    pub(super) fn unregister(slot: usize) {
        let raw = PATHS[slot].swap(ptr::null_mut(), Ordering::SeqCst);
        if !raw.is_null() {
            // SAFETY: `raw` came from `into_raw` in `register`; the swap made it ours alone.
            drop(unsafe { CString::from_raw(raw) });
        }
    }

    /// Installs the handler for each signal whose action is the default one.
    fn install() {
        for signal in SIGNALS {
            // SAFETY: `sigaction` reads and writes the structs given, which are zeroed (a valid
            // value) and then filled in; the handler is async-signal-safe (see `on_signal`).
            unsafe {
                let mut current: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, ptr::null(), &mut current) != 0 || current.sa_sigaction != libc::SIG_DFL {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                // The default action comes back as the handler starts; every signal waits
                // while it runs; on the alternate stack where there is one (an overflowed stack).
                action.sa_flags = libc::SA_RESETHAND | libc::SA_ONSTACK;
                libc::sigfillset(&mut action.sa_mask);
                libc::sigaction(signal, &action, ptr::null_mut());
            }
        }
    }

    /// Unlinks every path kept, then raises the signal again: its default action (back since
    /// the handler started) ends the process when the handler returns.
    extern "C" fn on_signal(signal: libc::c_int) {
        for slot in &PATHS {
            let raw = slot.swap(ptr::null_mut(), Ordering::SeqCst);
            if !raw.is_null() {
                // SAFETY: a C string from `register`, which the swap made the handler's alone;
                // `unlink` is async-signal-safe. The string is never freed: the process ends.
                unsafe { libc::unlink(raw) };
            }
        }
        // SAFETY: `raise` is async-signal-safe.
        unsafe { libc::raise(signal) };
    }
}
