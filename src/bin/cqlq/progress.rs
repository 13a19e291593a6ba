//! The progress line of a search on a terminal: how much of the input is read (with a bar and
//! the time left when its size is known), the games read and matched so far, and the speed.

use std::time::Duration;

use cqlq::search::Summary;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often the line is drawn at most, a second.
const DRAWS_PER_SECOND: u8 = 5;

/// A progress line on standard error.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A line for inputs of `total` bytes as stored, if known.
    pub fn new(total: Option<u64>) -> Progress {
        let bar = match total {
            Some(total) => {
                let bar = ProgressBar::with_draw_target(Some(total), target());
                bar.set_style(
                    ProgressStyle::with_template("{bar:24} {percent:>3}% {msg}, {binary_bytes_per_sec}, {eta} left")
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                bar
            }
            None => {
                let bar = ProgressBar::with_draw_target(None, target());
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {binary_bytes} read, {msg}, {binary_bytes_per_sec}")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                );
                bar
            }
        };
        bar.enable_steady_tick(Duration::from_millis(1000 / u64::from(DRAWS_PER_SECOND)));
        Progress { bar }
    }

    /// Shows the counts so far.
    pub fn show(&self, summary: &Summary) {
        self.bar.set_position(summary.input_bytes);
        self.bar.set_message(counts(summary));
    }

    /// Takes the line away.
    pub fn clear(&self) {
        self.bar.finish_and_clear();
    }
}

fn target() -> ProgressDrawTarget {
    ProgressDrawTarget::stderr_with_hz(DRAWS_PER_SECOND)
}

/// The counts of the line: `12,345 games, 67 matched`.
fn counts(summary: &Summary) -> String {
    format!("{} games, {} matched", grouped(summary.games), grouped(summary.matched))
}

/// A number with its thousands apart: `1,234,567`.
fn grouped(number: u64) -> String {
    let digits = number.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_well() {
        let summary = Summary { games: 1_234_567, matched: 89, ..Summary::default() };
        assert_eq!(counts(&summary), "1,234,567 games, 89 matched");
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
    }
}
