//! What the query targets share: the inputs they leave out. With `CQLQ_FUZZ_NO_SKIP` set in the
//! environment, the workarounds for known findings skip nothing, to reproduce or minimize those
//! findings (`CQLQ_FUZZ_NO_SKIP=1 cargo fuzz tmin ...`) or to see that they are fixed.
#![allow(dead_code)] // Each target uses only some of it.

use std::sync::OnceLock;

/// Whether the workarounds are on (`CQLQ_FUZZ_NO_SKIP` unset).
fn skipping() -> bool {
    static SKIPPING: OnceLock<bool> = OnceLock::new();
    *SKIPPING.get_or_init(|| std::env::var_os("CQLQ_FUZZ_NO_SKIP").is_none())
}

/// Moves the target into a folder of its own under the system's temporary folder, once: the
/// files a query writes (`writefile`) land there, not in the repository. The corpus must then
/// be named by an absolute path, as `fuzz/run` names it (cargo-fuzz names the artifacts so).
pub fn write_files_aside() {
    static MOVED: OnceLock<()> = OnceLock::new();
    MOVED.get_or_init(|| {
        let folder = std::env::temp_dir().join("cqlq-fuzz-files");
        if std::fs::create_dir_all(&folder).is_ok() {
            let _ = std::env::set_current_dir(&folder);
        }
    });
}

/// Queries longer than this are skipped: a long query of many transforms (each expanded at
/// compile time, a `shift` on the 26x26 board of One into hundreds of placements) takes long
/// without saying anything new. Long enough for the example queries and deep nesting.
pub const MAX_QUERY: usize = 2048;

/// Whether a query nests a `shift` under transforms of many copies: `flip flip shift {Ka1 kb3}`
/// compiles into 8 x 8 x 2,601 copies before the equal ones merge (a second on the 26x26 board
/// of One in a release build, far more in an instrumented one). Counted in the text, not in the
/// tree, so sibling transforms count as nested: the skip is on the safe side.
pub fn blows_up(text: &str) -> bool {
    let (many, shifts) = transforms(text);
    skipping() && many >= 2 && shifts >= 1
}

/// Whether a query has a `shift` with another transform of many copies (`flip shift {Ka1 kb3}`,
/// `shift shift Ka1`): fine on boards up to 12x12, but up to a second each on the 18x18 and
/// 26x26 boards in an instrumented build, which would slow fuzzing down tenfold.
pub fn heavy_on_big_boards(text: &str) -> bool {
    let (many, shifts) = transforms(text);
    skipping() && shifts >= 1 && many + shifts >= 2
}

/// The boards that [`heavy_on_big_boards`] queries skip.
pub const BIG_BOARD: usize = 144;

/// The number of transforms of many copies (`flip`, `rotate90`), and of shifts, in a text.
fn transforms(text: &str) -> (usize, usize) {
    let words = |word: &str| {
        text.match_indices(word)
            .filter(|(at, _)| {
                let next = text.as_bytes().get(at + word.len());
                word.starts_with("shift") || !next.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
            })
            .count()
    };
    (words("flip") + words("rotate90"), words("shift"))
}
