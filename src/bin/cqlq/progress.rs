//! The progress line of a search on a terminal: how much of the input is read (with a bar and
//! the time left when its size is known), the games read and matched so far, and the speed.

use std::time::{Duration, Instant};

use cqlq::search::Summary;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often the line is drawn at most, a second.
const DRAWS_PER_SECOND: u8 = 5;

/// A progress line on standard error.
pub struct Progress {
    bar: ProgressBar,
    /// The size of the inputs as stored, where it is known.
    total: Option<u64>,
    started: Instant,
}

impl Progress {
    /// A line for inputs of `total` bytes as stored, if known.
    pub fn new(total: Option<u64>) -> Progress {
        let (bar, template) = match total {
            Some(total) => (ProgressBar::with_draw_target(Some(total), target()), "{bar:24} {percent:>3}% {msg}"),
            None => (ProgressBar::with_draw_target(None, target()), "{spinner} {msg}"),
        };
        bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
        let progress = Progress { bar, total, started: Instant::now() };
        progress.show(&Summary::default());
        progress.bar.enable_steady_tick(Duration::from_millis(1000 / u64::from(DRAWS_PER_SECOND)));
        progress
    }

    /// Shows the counts so far, the speed once there is one, and the time left once it can be
    /// told.
    pub fn show(&self, summary: &Summary) {
        self.bar.set_message(message(summary, self.total, self.started.elapsed()));
        self.bar.set_position(summary.input_bytes);
    }

    /// Takes the line away.
    pub fn clear(&self) {
        self.bar.finish_and_clear();
    }
}

/// What the line says after its bar, `elapsed` into the search: the counts; with no size known,
/// the bytes read; once a second has gone and bytes were read, the speed, and with a size, the
/// time left. No field is ever empty.
fn message(summary: &Summary, total: Option<u64>, elapsed: Duration) -> String {
    let mut line = match total {
        Some(_) => counts(summary),
        None => format!("{} read, {}", bytes(summary.input_bytes), counts(summary)),
    };
    if elapsed >= Duration::from_secs(1) && summary.input_bytes > 0 {
        let rate = summary.input_bytes as f64 / elapsed.as_secs_f64();
        line.push_str(&format!(", {}/s", bytes(rate as u64)));
        if let Some(total) = total {
            let left = total.saturating_sub(summary.input_bytes) as f64 / rate;
            line.push_str(&format!(", {} left", duration(left)));
        }
    }
    line
}

/// A size in bytes, as people read it: `812 B`, `3.4 MiB`.
fn bytes(count: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = count as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{count} B") } else { format!("{value:.1} {}", UNITS[unit]) }
}

/// A time in seconds, as people read it: `7 s`, `3 min 20 s`, `2 h 5 min`.
fn duration(seconds: f64) -> String {
    let seconds = seconds.round() as u64;
    match seconds {
        0..60 => format!("{seconds} s"),
        60..3600 => format!("{} min {} s", seconds / 60, seconds % 60),
        _ => format!("{} h {} min", seconds / 3600, seconds % 3600 / 60),
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
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
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

    #[test]
    fn no_field_is_empty_and_no_time_left_is_told_before_it_is_known() {
        let start = Summary::default();
        assert_eq!(message(&start, Some(1 << 20), Duration::ZERO), "0 games, 0 matched");
        assert_eq!(message(&start, None, Duration::from_secs(5)), "0 B read, 0 games, 0 matched");
        let half = Summary { games: 10, input_bytes: 1 << 19, ..Summary::default() };
        assert_eq!(message(&half, Some(1 << 20), Duration::from_millis(500)), "10 games, 0 matched");
        assert_eq!(message(&half, Some(1 << 20), Duration::from_secs(2)), "10 games, 0 matched, 256.0 KiB/s, 2 s left");
    }

    #[test]
    fn sizes_and_times_read_well() {
        assert_eq!(bytes(812), "812 B");
        assert_eq!(bytes(3 << 20), "3.0 MiB");
        assert_eq!(duration(0.4), "0 s");
        assert_eq!(duration(200.0), "3 min 20 s");
        assert_eq!(duration(7500.0), "2 h 5 min");
    }
}
