//! The random queries known to disagree: for a seed, the index of each random query that did
//! not agree when the cases were last recorded, with the case it shrank to.
//!
//! Shrinking runs many queries under a time limit, so on a loaded machine it may end on another
//! smallest query than it did when recorded. `--check` therefore asks first whether the random
//! query itself is known to disagree, and shrinks only the ones that are not.
//!
//! One query a line: the seed, a tab, the index, a tab, the verdict, a tab, the case it shrank to.
//! Lines starting with `#` and blank lines are notes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::verdict::Verdict;

/// What was recorded of one random query that disagreed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The verdict it was judged with.
    pub verdict: Verdict,
    /// The case it shrank to.
    pub case: String,
}

/// The disagreeing random queries of a file, by seed and index; its notes kept.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    /// The notes at the top of the file.
    pub notes: Vec<String>,
    /// The disagreements, by seed and index.
    pub queries: BTreeMap<(u64, usize), Disagreement>,
}

impl Seen {
    /// Reads the file at `path`; a missing file knows of none.
    pub fn read(path: &Path) -> Result<Seen, String> {
        crate::cases::read_file(path, Seen::parse)
    }

    /// The disagreements of a file's text; an error names the line.
    pub fn parse(text: &str) -> Result<Seen, (usize, String)> {
        let mut seen = Seen::default();
        for (index, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                if seen.queries.is_empty() {
                    seen.notes.push(line.to_owned());
                }
                continue;
            }
            let wrong = || (index + 1, "a line is `seed<TAB>index<TAB>verdict<TAB>case`".to_owned());
            let mut fields = line.splitn(4, '\t');
            let (Some(seed), Some(number), Some(verdict), Some(case)) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                return Err(wrong());
            };
            let (Ok(seed), Ok(number)) = (seed.parse(), number.parse()) else { return Err(wrong()) };
            let verdict = Verdict::named(verdict).ok_or_else(|| (index + 1, format!("`{verdict}` is no verdict")))?;
            seen.queries.insert((seed, number), Disagreement { verdict, case: case.to_owned() });
        }
        Ok(seen)
    }

    /// The text of the file.
    pub fn render(&self) -> String {
        let mut text = String::new();
        for note in &self.notes {
            let _ = writeln!(text, "{note}");
        }
        for ((seed, index), disagreement) in &self.queries {
            let _ = writeln!(text, "{seed}\t{index}\t{}\t{}", disagreement.verdict.name(), disagreement.case);
        }
        text
    }

    /// What is known of the random query `index` of `seed`.
    pub fn get(&self, seed: u64, index: usize) -> Option<&Disagreement> {
        self.queries.get(&(seed, index))
    }

    /// Forgets what was recorded for the first `count` queries of `seed`, to record them anew.
    pub fn forget(&mut self, seed: u64, count: usize) {
        self.queries.retain(|(of, index), _| *of != seed || *index >= count);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_of_disagreements_reads_back_as_written() {
        let text = "# notes\n1\t7\tgames\tcql() flip Qh7\n1\t12\tcqlq-refused\tcql() path\n";
        let mut seen = Seen::parse(text).unwrap();
        assert_eq!(seen.get(1, 7).unwrap().verdict, Verdict::Games);
        assert_eq!(seen.render(), text);
        seen.forget(1, 10);
        assert!(seen.get(1, 7).is_none() && seen.get(1, 12).is_some());
        assert!(Seen::parse("1\tseven\tgames\tq\n").is_err());
    }
}
