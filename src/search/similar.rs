//! The games a query's `similarposition` filters compare positions with, read before the search.

use std::fmt;
use std::io;
use std::path::Path;

use super::{Found, Input, PositionsFormat, Search, SearchOptions, Sink, Summary};
use crate::query::{Query, SimilarIndex};

/// Why the games of a `similarposition` file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimilarGamesError {
    /// The file, as the query names it.
    pub file: String,
    /// What went wrong.
    pub reason: String,
}

impl fmt::Display for SimilarGamesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "similarposition cannot read its games from {}: {}", self.file, self.reason)
    }
}

impl std::error::Error for SimilarGamesError {}

/// Reads the files of games of the query's `similarposition` filters that are not read yet
/// (the main line of each game, every position of it); returns the name of each file read
/// with its number of games. A file that cannot be opened, or holds no game, is an error.
pub fn load_similar_games(query: &Query) -> Result<Vec<(String, u64)>, SimilarGamesError> {
    let mut read = Vec::new();
    for games in query.similar_games() {
        if games.index().is_some() {
            continue;
        }
        let failed = |reason: String| SimilarGamesError { file: games.file().to_owned(), reason };
        let index = read_positions(games.file(), games.notransform()).map_err(|error| failed(error.to_string()))?;
        if index.games() == 0 {
            return Err(failed("it holds no game".to_owned()));
        }
        read.push((games.file().to_owned(), index.games()));
        games.set_index(index);
    }
    Ok(read)
}

/// The positions of the main lines of the games of a file.
fn read_positions(file: &str, notransform: bool) -> Result<SimilarIndex, Box<dyn std::error::Error>> {
    let mut input = Input::open(Path::new(file))?;
    let options = SearchOptions { positions: Some(PositionsFormat::Tsv), ..SearchOptions::default() };
    // Every position matches `true`: every game read comes with its positions.
    let search = Search::new(Query::parse("true")?, options)?;
    let mut positions = Positions(SimilarIndex::new(notransform));
    let _flow = search.run(&mut input, &mut positions, &mut Summary::default())?;
    Ok(positions.0)
}

/// Takes the positions of each game found into the index.
struct Positions(SimilarIndex);

impl Sink for Positions {
    fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
        let lines = String::from_utf8_lossy(game.positions);
        for line in lines.lines() {
            let mut fields = line.splitn(3, '\t');
            let (Some(number), Some(ply), Some(position)) = (fields.next(), fields.next(), fields.next()) else {
                continue;
            };
            if let (Ok(number), Ok(ply)) = (number.parse(), ply.parse()) {
                self.0.add(number, ply, position);
            }
        }
        Ok(())
    }
}
