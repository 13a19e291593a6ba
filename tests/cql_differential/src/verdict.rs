//! Comparing what CQL 6.2 and cqlq did with the same query.

use crate::run::{Outcome, Status};

/// How the two runs compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// They agree: both ran, and wrote and printed the same.
    Agree,
    /// They agree: both refused the query.
    BothRefused,
    /// CQL 6.2 crashed or ran past its time: nothing to compare with.
    NoReference,
    /// They differ where cqlq says the query read a position of an earlier game that CQL 6.2
    /// finds only in the memory that game left: CQL 6.2's answer is no reference there.
    Leftovers,
    /// cqlq crashed, panicked or ran past its time.
    CqlqFailed,
    /// CQL 6.2 ran the query; cqlq refused it.
    CqlqRefused,
    /// CQL 6.2 refused the query; cqlq ran it.
    CqlqAccepted,
    /// They matched different games.
    Games,
    /// They matched the same games, but different positions in them.
    Positions,
    /// They matched the same games and positions, but wrote them differently.
    OutputBytes,
    /// They wrote the same, but printed differently (`message`, the closing counts).
    Printed,
}

impl Verdict {
    /// Whether this is a disagreement to report.
    pub fn disagrees(self) -> bool {
        !matches!(self, Verdict::Agree | Verdict::BothRefused | Verdict::NoReference | Verdict::Leftovers)
    }

    /// Its name in reports and in the file of cases found.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Agree => "agree",
            Verdict::BothRefused => "both-refused",
            Verdict::NoReference => "no-reference",
            Verdict::Leftovers => "leftovers",
            Verdict::CqlqFailed => "cqlq-failed",
            Verdict::CqlqRefused => "cqlq-refused",
            Verdict::CqlqAccepted => "cqlq-accepted",
            Verdict::Games => "games",
            Verdict::Positions => "positions",
            Verdict::OutputBytes => "output-bytes",
            Verdict::Printed => "printed",
        }
    }

    /// The verdict named `name`.
    pub fn named(name: &str) -> Option<Verdict> {
        ALL.iter().copied().find(|verdict| verdict.name() == name)
    }
}

/// Every verdict, in report order.
pub const ALL: [Verdict; 11] = [
    Verdict::Agree,
    Verdict::BothRefused,
    Verdict::NoReference,
    Verdict::Leftovers,
    Verdict::CqlqFailed,
    Verdict::CqlqRefused,
    Verdict::CqlqAccepted,
    Verdict::Games,
    Verdict::Positions,
    Verdict::OutputBytes,
    Verdict::Printed,
];

/// Whether what a query prints can be compared: `pathdebug` prints CQL 6.2's inner state (its
/// memory addresses among it), which is no part of the language and no other program prints
/// alike. Its games, positions and output files are still compared.
pub fn prints_comparably(query: &str) -> bool {
    !query.contains("pathdebug")
}

/// Compares CQL 6.2's outcome (`reference`) with cqlq's, what they printed too when `printed`.
pub fn compare(reference: &Outcome, cqlq: &Outcome, printed: bool) -> Verdict {
    match (&reference.status, &cqlq.status) {
        (Status::Failed, _) => Verdict::NoReference,
        (_, Status::Failed) => Verdict::CqlqFailed,
        (Status::Refused, Status::Refused) => Verdict::BothRefused,
        (Status::Ran, Status::Refused) => Verdict::CqlqRefused,
        (Status::Refused, Status::Ran) => Verdict::CqlqAccepted,
        (Status::Ran, Status::Ran) => match both_ran(reference, cqlq, printed) {
            verdict if verdict.disagrees() && cqlq.reads_leftovers => Verdict::Leftovers,
            verdict => verdict,
        },
    }
}

/// Compares two runs that both ran the query.
fn both_ran(reference: &Outcome, cqlq: &Outcome, printed: bool) -> Verdict {
    if reference.output != cqlq.output {
        let (ours, theirs) = (games_and_marks(&cqlq.output), games_and_marks(&reference.output));
        if ours.iter().map(|(game, _)| game).ne(theirs.iter().map(|(game, _)| game)) {
            Verdict::Games
        } else if ours != theirs {
            Verdict::Positions
        } else {
            Verdict::OutputBytes
        }
    } else if printed && reference.printed != cqlq.printed {
        Verdict::Printed
    } else {
        Verdict::Agree
    }
}

/// The games of an output file (their `{Game number N}` comments) with, for each, the places
/// of its `{CQL}` marks, counted in movetext words before each.
pub fn games_and_marks(output: &[u8]) -> Vec<(u64, Vec<usize>)> {
    let text = String::from_utf8_lossy(output);
    let mut games = Vec::new();
    for chunk in text.split("{Game number ").skip(1) {
        let number = chunk.split(|c: char| !c.is_ascii_digit()).next().and_then(|n| n.parse().ok()).unwrap_or(0);
        let mut marks = Vec::new();
        let mut words = 0;
        let mut in_word = false;
        let mut depth = 0usize;
        let mut comment = String::new();
        for c in chunk.chars() {
            match c {
                '{' => {
                    depth += 1;
                    comment.clear();
                }
                '}' if depth > 0 => {
                    depth -= 1;
                    if comment.starts_with("CQL") {
                        marks.push(words);
                    }
                }
                _ if depth > 0 => comment.push(c),
                c if c.is_whitespace() => {
                    words += usize::from(in_word);
                    in_word = false;
                }
                _ => in_word = true,
            }
        }
        games.push((number, marks));
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ran(output: &str, printed: &[&str]) -> Outcome {
        Outcome {
            status: Status::Ran,
            printed: printed.iter().map(|line| (*line).to_owned()).collect(),
            said: String::new(),
            output: output.as_bytes().to_vec(),
            reads_leftovers: false,
        }
    }

    #[test]
    fn differences_are_told_apart_from_the_coarsest() {
        let game = |n: u32, movetext: &str| format!("[Event \"?\"]\n\n{{Game number {n}}}\n{movetext}\n\n\n");
        let reference = ran(&game(1, "1.e4 {CQL} e5 *"), &["1 matches of 2 games"]);
        assert_eq!(compare(&reference, &reference, true), Verdict::Agree);
        assert_eq!(compare(&reference, &ran(&game(2, "1.e4 {CQL} e5 *"), &[]), true), Verdict::Games);
        assert_eq!(compare(&reference, &ran(&game(1, "1.e4 e5 {CQL} *"), &[]), true), Verdict::Positions);
        assert_eq!(compare(&reference, &ran(&game(1, "1.e4  {CQL} e5 *"), &[]), true), Verdict::OutputBytes);
        assert_eq!(
            compare(&reference, &ran(&game(1, "1.e4 {CQL} e5 *"), &["2 matches of 2 games"]), true),
            Verdict::Printed
        );
        assert_eq!(
            compare(&reference, &ran(&game(1, "1.e4 {CQL} e5 *"), &["2 matches of 2 games"]), false),
            Verdict::Agree
        );
        assert!(!prints_comparably("{path pathdebug}") && prints_comparably("path check"));
        let refused = Outcome { status: Status::Refused, ..reference.clone() };
        assert_eq!(compare(&reference, &refused, true), Verdict::CqlqRefused);
        assert_eq!(compare(&refused, &reference, true), Verdict::CqlqAccepted);
        assert_eq!(compare(&refused, &refused, true), Verdict::BothRefused);
        // A run that read what an earlier game left in CQL 6.2's memory has no reference where
        // they differ, and agrees where they do not.
        let leftovers = Outcome { reads_leftovers: true, ..ran(&game(2, "1.e4 {CQL} e5 *"), &[]) };
        assert_eq!(compare(&reference, &leftovers, true), Verdict::Leftovers);
        assert_eq!(compare(&leftovers, &leftovers, true), Verdict::Agree);
    }
}
