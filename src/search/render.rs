//! Rendering the games found on the search's threads, ahead of the sink that writes them.
//!
//! A game is rendered as soon as its replay tells that it is found, by the thread that replayed
//! it ([`RenderedAhead`]), where the render needs nothing that only the merge in input order
//! knows (its line); the others are rendered at the merge, a chunk of events a thread
//! ([`Rendered`]).

use std::ops::Range;

use super::driver::Found;

/// Makes what a sink writes for a game found, on the search's threads, ahead of
/// [`Sink::found`](super::Sink::found), which then has it as [`Found::rendered`].
pub trait Render: Sync {
    /// Appends to `out` the bytes written for a game found; returns what is to be said about
    /// it on the console, if anything (with the query's messages,
    /// [`Sink::message`](super::Sink::message)).
    fn render(&self, game: &Found<'_>, out: &mut Vec<u8>) -> Option<String>;

    /// Whether [`Render::render`] writes `game` without reading its [`Found::line`], so that
    /// the game can be rendered as soon as it is replayed, before the lines ahead of it are
    /// counted (its `line` is then 0). No, unless the render says so.
    fn renders_without_line(&self, game: &Found<'_>) -> bool {
        let _ = game;
        false
    }
}

/// The games found among some consecutive events, rendered one after another into one buffer
/// on one thread: few allocations, and each freed at once.
pub(super) struct Rendered {
    bytes: Vec<u8>,
    /// Where each event's bytes end (an event that is no game found has none).
    ends: Vec<usize>,
    /// What was said about the games, by the index of their events.
    said: Vec<(usize, String)>,
}

impl Rendered {
    /// The events rendered together.
    pub(super) const EVENTS: usize = 32;

    /// Room for the events of a chunk, about `size` bytes of them.
    pub(super) fn with_capacity(size: usize) -> Rendered {
        Rendered { bytes: Vec::with_capacity(size), ends: Vec::with_capacity(Self::EVENTS), said: Vec::new() }
    }

    /// Renders the next event of the chunk: a game found (`Some`), or nothing.
    pub(super) fn push(&mut self, renderer: &dyn Render, game: Option<&Found<'_>>) {
        if let Some(game) = game
            && let Some(said) = renderer.render(game, &mut self.bytes)
        {
            self.said.push((self.ends.len(), said));
        }
        self.ends.push(self.bytes.len());
    }

    /// The bytes of the `index`th event of the chunk, and what was said about it.
    pub(super) fn of(&self, index: usize) -> (&[u8], Option<&str>) {
        let start = index.checked_sub(1).map_or(0, |before| self.ends[before]);
        let said = self.said.iter().find(|(at, _)| *at == index).map(|(_, said)| said.as_str());
        (&self.bytes[start..self.ends[index]], said)
    }
}

/// The games of a batch that its replay found, rendered by the thread that replayed them, one
/// after another into one buffer.
#[derive(Debug, Default)]
pub(super) struct RenderedAhead {
    bytes: Vec<u8>,
    /// For each record of the batch, in order, its game if it was rendered.
    games: Vec<Option<AheadGame>>,
}

/// A game rendered ahead.
#[derive(Debug)]
struct AheadGame {
    /// The number it was rendered with: the merge, which numbers the games, takes the render
    /// only where it gives the game the same.
    number: u64,
    bytes: Range<usize>,
    said: Option<String>,
}

impl RenderedAhead {
    /// Renders the next record of the batch: a game found, numbered `number` (`Some`), or
    /// nothing.
    pub(super) fn push(&mut self, renderer: &dyn Render, game: Option<&Found<'_>>) {
        let game = game.map(|game| {
            let start = self.bytes.len();
            let said = renderer.render(game, &mut self.bytes);
            AheadGame { number: game.number, bytes: start..self.bytes.len(), said }
        });
        self.games.push(game);
    }

    /// The bytes of the `index`th record of the batch and what was said about it, where it
    /// was rendered as game `number`.
    pub(super) fn of(&self, index: usize, number: u64) -> Option<(&[u8], Option<&str>)> {
        let game = self.games.get(index)?.as_ref().filter(|game| game.number == number)?;
        Some((&self.bytes[game.bytes.clone()], game.said.as_deref()))
    }

    /// The bytes held.
    pub(super) fn weight(&self) -> usize {
        self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes the game's number and line.
    struct Numbers;

    impl Render for Numbers {
        fn render(&self, game: &Found<'_>, out: &mut Vec<u8>) -> Option<String> {
            out.extend_from_slice(format!("{}@{};", game.number, game.line).as_bytes());
            game.number.is_multiple_of(2).then(|| format!("even {}", game.number))
        }
    }

    fn game(number: u64, line: u64) -> Found<'static> {
        Found::bare(number, line, b"", &[])
    }

    #[test]
    fn a_chunk_gives_each_event_its_bytes() {
        let mut chunk = Rendered::with_capacity(64);
        chunk.push(&Numbers, Some(&game(1, 10)));
        chunk.push(&Numbers, None);
        chunk.push(&Numbers, Some(&game(2, 20)));
        assert_eq!(chunk.of(0), (&b"1@10;"[..], None));
        assert_eq!(chunk.of(1), (&b""[..], None));
        assert_eq!(chunk.of(2), (&b"2@20;"[..], Some("even 2")));
    }

    #[test]
    fn a_game_rendered_ahead_is_given_under_its_number_only() {
        let mut ahead = RenderedAhead::default();
        ahead.push(&Numbers, None);
        ahead.push(&Numbers, Some(&game(4, 0)));
        ahead.push(&Numbers, Some(&game(5, 0)));
        assert_eq!(ahead.of(0, 3), None);
        assert_eq!(ahead.of(1, 4), Some((&b"4@0;"[..], Some("even 4"))));
        assert_eq!(ahead.of(2, 5), Some((&b"5@0;"[..], None)));
        // Numbered otherwise by the merge: rendered again there.
        assert_eq!(ahead.of(2, 6), None);
        assert_eq!(ahead.of(3, 6), None);
        assert_eq!(ahead.weight(), 8);
        assert!(!Numbers.renders_without_line(&game(1, 1)));
    }
}
