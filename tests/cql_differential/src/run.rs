//! Running a query through a program (CQL 6.2 or `cqlq cql`) on the games, and what came of it.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The query was read and run over all the games.
    Ran,
    /// The program refused the query (or stopped on an error it reported).
    Refused,
    /// The program crashed, panicked or ran past its time.
    Failed,
}

/// What a program did with a query.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// How it ended.
    pub status: Status,
    /// What it printed, the version line left out and the closing line cut to its counts
    /// (`N matches of M games`).
    pub printed: Vec<String>,
    /// The first lines of what it said on the way out, for a report.
    pub said: String,
    /// The output file (empty when none was written).
    pub output: Vec<u8>,
    /// Whether cqlq warned that the query read a position CQL 6.2 finds only in the memory an
    /// earlier game left (a position of an earlier game's path that this game does not have).
    pub reads_leftovers: bool,
}

/// What cqlq's warning of a position left by an earlier game says.
const LEFTOVERS: &str = "CQL 6.2 reads what its memory still holds of the earlier game";

/// A program the queries are run through.
#[derive(Clone, Debug)]
pub struct Program {
    /// The executable.
    pub path: PathBuf,
    /// The arguments before the query's own (`cql` for cqlq).
    pub leading: Vec<String>,
    /// The exit codes that mean a crash rather than a refusal (a Rust panic is 101).
    pub crash_codes: Vec<i32>,
    /// How long a query may run.
    pub limit: Duration,
}

impl Program {
    /// Runs `query` (the text of a query file) on `games` in a folder of its own in `dir`,
    /// named after the program: the query is `query.cql` there, the output `out.pgn`, so that
    /// both programs name the same files in what they print.
    pub fn run(&self, dir: &Path, query: &str, games: &Path) -> Outcome {
        let name = self.path.file_name().and_then(|name| name.to_str()).unwrap_or("program");
        let dir = dir.join(name);
        if let Err(error) = std::fs::create_dir_all(&dir) {
            return failed(format!("cannot make {}: {error}", dir.display()));
        }
        let query_file = dir.join("query.cql");
        let output_file = dir.join("out.pgn");
        let _ = std::fs::remove_file(&output_file);
        // A query may name the games file (`input`, `readfile`, `similarposition`) as `@GAMES@`.
        let query = query.replace("@GAMES@", &games.display().to_string());
        if let Err(error) = std::fs::write(&query_file, query) {
            return failed(format!("cannot write the query: {error}"));
        }
        let child = Command::new(&self.path)
            .args(&self.leading)
            .arg("-s")
            .arg("-i")
            .arg(games)
            .arg("-o")
            .arg("out.pgn")
            .arg("query.cql")
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = match child {
            Ok(child) => child,
            Err(error) => return failed(format!("cannot start {}: {error}", self.path.display())),
        };
        // Read both pipes on their own threads, so that a program that prints much never waits.
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let out_reader = std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = stdout.read_to_end(&mut text);
            text
        });
        let err_reader = std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = stderr.read_to_end(&mut text);
            text
        });
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if start.elapsed() > self.limit => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(1)),
                Err(_) => break None,
            }
        };
        let stdout = String::from_utf8_lossy(&out_reader.join().unwrap_or_default()).into_owned();
        let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
        let printed = printed_lines(&stdout);
        let said = said(&stdout, &stderr);
        let output = std::fs::read(&output_file).unwrap_or_default();
        let status = match status.map(|status| status.code()) {
            None | Some(None) => Status::Failed,
            Some(Some(0)) => Status::Ran,
            Some(Some(code)) if self.crash_codes.contains(&code) => Status::Failed,
            Some(Some(_)) if stdout.contains("internal error") => Status::Failed,
            Some(Some(_)) => Status::Refused,
        };
        let reads_leftovers = stderr.contains(LEFTOVERS);
        Outcome { status, printed, said, output, reads_leftovers }
    }
}

fn failed(said: String) -> Outcome {
    Outcome { status: Status::Failed, printed: Vec::new(), said, output: Vec::new(), reads_leftovers: false }
}

/// The lines a program printed, as compared: without its version line, the closing line cut to
/// its counts.
fn printed_lines(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|line| !(line.starts_with("CQL version") || line.starts_with("cqlq version")))
        .map(|line| match line.find(" games in ") {
            Some(at) if line.contains(" matches of ") => line[..at + " games".len()].to_owned(),
            _ => line.to_owned(),
        })
        .collect()
}

/// What a program said of a query, for a report: the line of its error if it has one, else its
/// last lines.
fn said(stdout: &str, stderr: &str) -> String {
    let lines: Vec<&str> = stdout.lines().chain(stderr.lines()).filter(|line| !line.trim().is_empty()).collect();
    if let Some(error) = lines.iter().find(|line| line.contains("error")) {
        return error.chars().take(400).collect();
    }
    let start = lines.len().saturating_sub(3);
    lines[start..].join(" | ").chars().take(400).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closing_line_is_cut_to_its_counts() {
        let printed = printed_lines(
            "CQL version 6.2\nGame: 3 move 1(wtm): hi\n\n2 matches of 9 games in 0.1 seconds using 1 thread to x.pgn\n",
        );
        assert_eq!(printed, vec!["Game: 3 move 1(wtm): hi", "", "2 matches of 9 games"]);
    }
}
