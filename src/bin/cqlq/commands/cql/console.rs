//! What `cqlq cql` tells on the console, where CQL 6.2 tells it: on standard output (on
//! standard error when the games go to standard output).
//!
//! The banner, then a dot each tenth of the line increment of games read and the count
//! (`[10000]`) on a line of its own each line increment, with `<N>` for each game found under
//! `-showmatches`, then the closing line: `N matches of M games in T seconds using K threads to
//! FILE`.

use std::io::{self, Write};
use std::time::Duration;

use cqlq::search::Summary;

use crate::commands::search::Watch;

/// The console of the command.
#[derive(Clone, Copy, Debug)]
pub struct Console {
    /// Standard error instead of standard output.
    stderr: bool,
}

impl Console {
    /// The console: standard error when `games_on_stdout`, else standard output.
    pub fn new(games_on_stdout: bool) -> Console {
        Console { stderr: games_on_stdout }
    }

    /// Writes `text` at once. A console that cannot be written to is no reason to stop.
    pub fn print(self, text: &str) {
        let _ = if self.stderr {
            write_now(&mut io::stderr().lock(), text)
        } else {
            write_now(&mut io::stdout().lock(), text)
        };
    }
}

fn write_now(out: &mut impl Write, text: &str) -> io::Result<()> {
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// The closing line: `N matches of M games in T seconds using K threads to FILE`.
pub fn closing_line(matched: u64, games: u64, elapsed: Duration, threads: usize, output: &str) -> String {
    let plural = if threads == 1 { "" } else { "s" };
    format!(
        "{matched} matches of {games} games in {} seconds using {threads} thread{plural} to {output}\n",
        seconds(elapsed)
    )
}

/// Seconds to the millisecond, without trailing zeros: `0.015`, `0.3`, `12`.
fn seconds(elapsed: Duration) -> String {
    let millis = elapsed.as_millis();
    let text = format!("{}.{:03}", millis / 1000, millis % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// The progress marks of the games read and found.
pub struct Marks {
    console: Console,
    /// Games between two counts.
    increment: u64,
    /// Whether each game found is told.
    showmatches: bool,
    /// The games marked so far.
    marked: u64,
}

impl Marks {
    /// Marks every `increment` games on `console`; `showmatches` tells each game found.
    pub fn new(console: Console, increment: u64, showmatches: bool) -> Marks {
        Marks { console, increment: increment.max(1), showmatches, marked: 0 }
    }

    /// The marks of the games read up to `games`.
    fn up_to(&mut self, games: u64) -> String {
        let dot_every = self.increment / 10;
        let mut text = String::new();
        while self.marked < games {
            self.marked += 1;
            if self.marked.is_multiple_of(self.increment) {
                text.push_str(&format!("[{}]\n", self.marked));
            } else if dot_every > 0 && self.marked.is_multiple_of(dot_every) {
                text.push('.');
            }
        }
        text
    }
}

impl Watch for Marks {
    /// Messages go where CQL 6.2 prints them: with the marks, on standard output.
    fn message(&mut self, game: u64, text: &str) {
        let marks = self.up_to(game);
        self.console.print(&format!("{marks}{text}\n"));
    }

    fn show(&mut self, summary: &Summary) {
        let text = self.up_to(summary.games);
        if !text.is_empty() {
            self.console.print(&text);
        }
    }

    fn found(&mut self, number: u64) {
        let mut text = self.up_to(number);
        if self.showmatches {
            text.push_str(&format!("<{number}>"));
        }
        if !text.is_empty() {
            self.console.print(&text);
        }
    }

    fn clear(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closing_line_reads_as_cql_writes_it() {
        let line = closing_line(1520, 2000, Duration::from_millis(295), 2, "g.pgn");
        assert_eq!(line, "1520 matches of 2000 games in 0.295 seconds using 2 threads to g.pgn\n");
        assert_eq!(seconds(Duration::from_millis(300)), "0.3");
        assert_eq!(seconds(Duration::from_millis(12_000)), "12");
        assert_eq!(seconds(Duration::from_micros(150)), "0");
        assert!(closing_line(1, 1, Duration::ZERO, 1, "x").ends_with("using 1 thread to x\n"));
    }

    #[test]
    fn dots_each_tenth_of_the_increment_and_counts_on_their_lines() {
        let mut marks = Marks::new(Console::new(false), 300, false);
        assert_eq!(marks.up_to(2000).matches('\n').count(), 6);
        let mut marks = Marks::new(Console::new(false), 300, false);
        assert_eq!(marks.up_to(300), ".........[300]\n");
        assert_eq!(marks.up_to(400), "...");
        let mut marks = Marks::new(Console::new(false), 1, false);
        assert_eq!(marks.up_to(2), "[1]\n[2]\n");
    }
}
