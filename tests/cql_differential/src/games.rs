//! The games every query is run on: games of three kinds from `../shared/data` (lichess games
//! with clock comments, master games from a book, famous games), and games with variations,
//! comments and glyphs (`annotated.pgn`, made by `annotated.py` from lichess games), written to
//! one file.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// Games with nested variations, comments (before moves and variations too) and glyphs, some
/// glued to their moves.
const WITH_VARIATIONS: &str = include_str!("../annotated.pgn");

/// Famous games, in the forms their files have.
const FAMOUS: [&str; 4] = [
    "kasparov-deep-blue-1997.pgn",
    "molinari-bordais-1979.pgn",
    "anastasian-lewis.pgn",
    "nepomniachtchi-liren-game1.pgn",
];

/// Writes the games to `dir/games.pgn`: the first `per_source` games of the lichess sample and
/// of gnuchess-book, the famous games, then the games with variations. Returns the file's path.
pub fn write(shared: &Path, dir: &Path, per_source: usize) -> Result<PathBuf, String> {
    let data = shared.join("data/pgn");
    let mut text = String::new();
    let lichess = std::fs::File::open(data.join("lichess_db_1000k.pgn"))
        .map_err(|error| format!("{}: {error}", data.display()))?;
    first_games(BufReader::new(lichess), per_source, &mut text);
    let book =
        std::fs::File::open(data.join("gnuchess-book.pgn.zst")).map_err(|error| format!("gnuchess-book: {error}"))?;
    let book = zstd::Decoder::new(book).map_err(|error| format!("gnuchess-book: {error}"))?;
    first_games(BufReader::new(book), per_source, &mut text);
    for name in FAMOUS {
        let games = std::fs::read(data.join("edge").join(name)).map_err(|error| format!("{name}: {error}"))?;
        text.push_str(&String::from_utf8_lossy(&games));
        text.push('\n');
    }
    text.push_str(WITH_VARIATIONS);
    let path = dir.join("games.pgn");
    std::fs::write(&path, text).map_err(|error| format!("{}: {error}", path.display()))?;
    Ok(path)
}

/// Appends the first `count` games of `reader` to `out`.
fn first_games(reader: impl BufRead, count: usize, out: &mut String) {
    let mut games = 0;
    for line in reader.split(b'\n') {
        let Ok(line) = line else { break };
        let line = String::from_utf8_lossy(&line);
        if line.starts_with("[Event ") {
            games += 1;
            if games > count {
                break;
            }
        }
        out.push_str(line.trim_end_matches('\r'));
        out.push('\n');
    }
}
