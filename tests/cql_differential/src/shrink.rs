//! Shrinking a query that shows a disagreement to a smallest one that still shows it.

use std::collections::HashMap;

use crate::query::Node;
use crate::verdict::Verdict;

/// The smallest query found below `query` that `judge` still gives `verdict` for, trying at
/// most `limit` queries: each round takes the first (shortest) one-edit-smaller query that keeps
/// the verdict, until none does.
pub fn shrink(query: &Node, verdict: Verdict, limit: usize, mut judge: impl FnMut(&str) -> Verdict) -> Node {
    let mut best = query.clone();
    let mut tried: HashMap<String, Verdict> = HashMap::new();
    'rounds: loop {
        for candidate in best.smaller() {
            let text = candidate.render();
            let found = match tried.get(&text) {
                Some(found) => *found,
                None if tried.len() >= limit => break 'rounds,
                None => {
                    let found = judge(&text);
                    tried.insert(text, found);
                    found
                }
            };
            if found == verdict {
                best = candidate;
                continue 'rounds;
            }
        }
        break;
    }
    best
}

/// The stems of the names the generator gives variables and functions.
const STEMS: [&str; 11] = ["zone", "count", "spot", "label", "flag", "piece", "square", "func", "arg", "Dict", "key"];

/// The query with its variables renamed in the order they first stand (`countc` before
/// `zoneb` becomes `counta`, `zonea`...): queries that differ only in the names the generator
/// happened to give are one case.
pub fn canonical_names(query: &str) -> String {
    let mut renamed: Vec<(String, String)> = Vec::new();
    let mut out = String::with_capacity(query.len());
    let mut word = String::new();
    let mut quoted = false;
    let flush = |word: &mut String, out: &mut String, renamed: &mut Vec<(String, String)>| {
        if word.is_empty() {
            return;
        }
        let stem = STEMS.iter().find(|stem| {
            word.strip_prefix(**stem)
                .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_lowercase()))
        });
        match stem {
            Some(stem) if !crate::keywords::KEYWORDS.contains(&word.as_str()) => {
                let known = renamed.iter().find(|(from, _)| from == word).map(|(_, to)| to.clone());
                let name = known.unwrap_or_else(|| {
                    let index = renamed.iter().filter(|(_, to)| to.starts_with(*stem)).count();
                    let name = format!("{stem}{}", char::from(b'a' + (index % 26) as u8));
                    renamed.push((word.clone(), name.clone()));
                    name
                });
                out.push_str(&name);
            }
            _ => out.push_str(word),
        }
        word.clear();
    };
    for c in query.chars() {
        if !quoted && (c.is_ascii_alphanumeric() || c == '_') {
            word.push(c);
            continue;
        }
        flush(&mut word, &mut out, &mut renamed);
        if c == '"' {
            quoted = !quoted;
        }
        out.push(c);
    }
    flush(&mut word, &mut out, &mut renamed);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::{Part, Ty};

    #[test]
    fn variables_are_renamed_in_order_of_appearance_keywords_and_strings_kept() {
        assert_eq!(
            canonical_names("cql() countd = 1 zonec = a1 countmoves -- countd += 1 message(\"countd\") zonec"),
            "cql() counta = 1 zonea = a1 countmoves -- counta += 1 message(\"countd\") zonea"
        );
    }

    #[test]
    fn a_query_shrinks_to_the_part_that_keeps_the_verdict() {
        let leaf = |text: &str| Part::Node(Node::word(Ty::Set, text));
        let union = Node::new(Ty::Set, vec![leaf("Qh7"), Part::Word("|".into()), leaf("path")]);
        let query = Node::new(
            Ty::Frame,
            vec![
                Part::Word("cql()".into()),
                Part::Optional(vec![Part::Node(union)]),
                Part::Optional(vec![Part::Word("mate".into())]),
            ],
        );
        // A pretend cqlq refusing every query with `path` in it.
        let judge = |text: &str| if text.contains("path") { Verdict::CqlqRefused } else { Verdict::Agree };
        let small = shrink(&query, Verdict::CqlqRefused, 100, judge);
        assert_eq!(small.render(), "cql() path");
    }
}
