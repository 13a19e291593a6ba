//! Peers run as programs, when they are installed: pgn-extract's position search and
//! python-chess's replay, measured in the same run as cqlq.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// pgn-extract's pattern for a black king on g8 and a white queen on h7: the positions of
/// cqlq's `kg8 Qh7`.
pub const PGN_EXTRACT_PATTERN: &str = "??????k?/???????Q/*/*/*/*/*/*";

/// cqlq's query for the games pgn-extract's pattern finds.
pub const PATTERN_QUERY: &str = "kg8 Qh7";

/// A program by name, on the `PATH` or where Debian puts games.
fn installed(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// pgn-extract's search of `corpus` for [`PGN_EXTRACT_PATTERN`] on its one thread: the games it
/// matched and the time taken. `None` when pgn-extract is not installed.
pub fn pgn_extract(corpus: &Path, scratch: &Path) -> Option<(u64, Duration)> {
    let program = installed("pgn-extract")?;
    let tags = scratch.join("fen-pattern.txt");
    let out = scratch.join("pgn-extract-matches.pgn");
    std::fs::write(&tags, format!("FENPattern \"{PGN_EXTRACT_PATTERN}\"\n")).ok()?;
    let start = Instant::now();
    let status = Command::new(program)
        .arg("-s")
        .arg("-t")
        .arg(&tags)
        .arg("-o")
        .arg(&out)
        .arg(corpus)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    let time = start.elapsed();
    if !status.success() {
        return None;
    }
    let matches = std::fs::read(&out).ok()?;
    let games = memchr::memmem::find_iter(&matches, b"[Event ").count() as u64;
    Some((games, time))
}

/// python-chess replaying games of `corpus` (`BoardBuilder`, every move made) for about
/// `seconds`: the plies it made and the time taken. `None` when python-chess is not installed.
pub fn python_chess(corpus: &Path, seconds: f64) -> Option<(u64, Duration)> {
    const SCRIPT: &str = r#"
import sys, time
import chess.pgn
path, budget = sys.argv[1], float(sys.argv[2])
plies = 0
start = time.perf_counter()
with open(path, encoding="latin-1") as games:
    while time.perf_counter() - start < budget:
        board = chess.pgn.read_game(games, Visitor=chess.pgn.BoardBuilder)
        if board is None:
            break
        plies += len(board.move_stack)
print(plies, time.perf_counter() - start)
"#;
    let output = Command::new("python3")
        .args(["-c", SCRIPT])
        .arg(corpus)
        .arg(seconds.to_string())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    let mut fields = text.split_whitespace();
    let plies = fields.next()?.parse().ok()?;
    let time = fields.next()?.parse().ok()?;
    Some((plies, Duration::from_secs_f64(time)))
}
