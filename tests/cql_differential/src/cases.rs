//! The cases found so far: every disagreement the tester has shrunk, kept as a regression
//! case, open until cqlq agrees with CQL 6.2 on it.
//!
//! One case a line: `open` or `fixed`, a tab, the verdict it was found with, a tab, the query
//! (on one line). Lines starting with `#` and blank lines are notes.

use std::fmt::Write as _;
use std::path::Path;

use crate::verdict::Verdict;

/// Whether a case still shows its disagreement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// cqlq does not yet agree with CQL 6.2 on it.
    Open,
    /// cqlq agrees: it must go on agreeing.
    Fixed,
}

/// A regression case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Open or fixed.
    pub state: State,
    /// The verdict it was found with.
    pub found_as: Verdict,
    /// The query.
    pub query: String,
}

/// The cases of a file, its notes kept; a missing file has none.
#[derive(Clone, Debug, Default)]
pub struct Cases {
    /// The notes at the top of the file.
    pub notes: Vec<String>,
    /// The cases, in the order found.
    pub cases: Vec<Case>,
}

impl Cases {
    /// Reads the cases of `path`.
    pub fn read(path: &Path) -> Result<Cases, String> {
        read_file(path, Cases::parse)
    }

    /// The cases of a file's text; an error names the line.
    pub fn parse(text: &str) -> Result<Cases, (usize, String)> {
        let mut cases = Cases::default();
        for (index, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                if cases.cases.is_empty() {
                    cases.notes.push(line.to_owned());
                }
                continue;
            }
            let mut fields = line.splitn(3, '\t');
            let (Some(state), Some(verdict), Some(query)) = (fields.next(), fields.next(), fields.next()) else {
                return Err((index + 1, "a case is `open|fixed<TAB>verdict<TAB>query`".to_owned()));
            };
            let state = match state {
                "open" => State::Open,
                "fixed" => State::Fixed,
                other => return Err((index + 1, format!("`{other}` is neither `open` nor `fixed`"))),
            };
            let found_as = Verdict::named(verdict).ok_or_else(|| (index + 1, format!("`{verdict}` is no verdict")))?;
            cases.cases.push(Case { state, found_as, query: query.to_owned() });
        }
        Ok(cases)
    }

    /// The text of the file.
    pub fn render(&self) -> String {
        let mut text = String::new();
        for note in &self.notes {
            let _ = writeln!(text, "{note}");
        }
        for case in &self.cases {
            let state = match case.state {
                State::Open => "open",
                State::Fixed => "fixed",
            };
            let _ = writeln!(text, "{state}\t{}\t{}", case.found_as.name(), case.query);
        }
        text
    }

    /// The case of `query`, if there is one.
    pub fn find(&self, query: &str) -> Option<&Case> {
        self.cases.iter().find(|case| case.query == query)
    }
}

/// What `parse` makes of the file at `path` (its default when there is no file), an error
/// naming the file and its line.
pub fn read_file<T: Default>(path: &Path, parse: impl Fn(&str) -> Result<T, (usize, String)>) -> Result<T, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text).map_err(|(line, error)| format!("{}:{line}: {error}", path.display())),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(T::default()),
        Err(error) => Err(format!("{}: {error}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_of_cases_reads_back_as_written() {
        let text = "# found by the tester\n\nopen\tcqlq-refused\tcql() path\nfixed\tgames\tcql() flip Qh7\n";
        let cases = Cases::parse(text).unwrap();
        assert_eq!(cases.cases.len(), 2);
        assert_eq!(cases.cases[1].state, State::Fixed);
        assert_eq!(cases.render(), text);
        assert!(Cases::parse("shut\tgames\tx\n").is_err());
    }
}
