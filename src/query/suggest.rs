//! The word a query most likely meant where it holds one cqlq does not know: `mat` for `mate`,
//! `flipcolr` for `flipcolor`, `attack` for `attacks`.

/// The words of the language that a misspelt word may be meant for.
pub(super) const WORDS: &[&str] = &[
    "abs",
    "all",
    "and",
    "anydirection",
    "attackedby",
    "attacks",
    "between",
    "black",
    "btm",
    "capture",
    "castle",
    "check",
    "child",
    "colortype",
    "comment",
    "connectedpawns",
    "consecutivemoves",
    "count",
    "cql",
    "currentposition",
    "dark",
    "date",
    "diagonal",
    "dihedral",
    "distance",
    "doubledpawns",
    "down",
    "drop",
    "echo",
    "eco",
    "elo",
    "else",
    "enpassant",
    "event",
    "false",
    "fen",
    "file",
    "find",
    "flip",
    "flipcolor",
    "flipdiagonal",
    "flipdihedral",
    "fliphorizontal",
    "flipoffdiagonal",
    "flipvertical",
    "from",
    "function",
    "gamenumber",
    "horizontal",
    "if",
    "in",
    "initial",
    "initialposition",
    "input",
    "isolatedpawns",
    "lastgamenumber",
    "lca",
    "left",
    "legal",
    "light",
    "line",
    "loop",
    "mainline",
    "makesquare",
    "matchcount",
    "matchstring",
    "mate",
    "max",
    "message",
    "min",
    "move",
    "movenumber",
    "northeast",
    "northwest",
    "not",
    "or",
    "orthogonal",
    "output",
    "parent",
    "passedpawns",
    "persistent",
    "piece",
    "pin",
    "player",
    "ply",
    "power",
    "previous",
    "promote",
    "pseudolegal",
    "quiet",
    "rank",
    "ray",
    "result",
    "reversecolor",
    "right",
    "rotate45",
    "rotate90",
    "shift",
    "shifthorizontal",
    "shiftvertical",
    "sidetomove",
    "silent",
    "site",
    "sort",
    "southeast",
    "southwest",
    "square",
    "stalemate",
    "tag",
    "terminal",
    "then",
    "through",
    "to",
    "true",
    "type",
    "typename",
    "up",
    "variant",
    "variation",
    "variations",
    "vertical",
    "virtualmainline",
    "while",
    "white",
    "wtm",
    "xray",
    "year",
];

/// The candidate closest to `word` in spelling, if one is close enough to be what was meant:
/// one letter added, dropped, changed or two swapped (two for words of eight letters or more; a
/// word of four letters or fewer may not have a letter changed: `five` is not `file`). Of
/// equally close candidates, the one that starts with the most of `word` wins.
pub(super) fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    let letters = word.chars().count();
    let allowed = if letters >= 8 { 2 } else { 1 };
    let changed_letter = |candidate: &str| candidate.chars().count() == letters && !is_swap(&word, candidate);
    candidates
        .into_iter()
        .filter(|candidate| *candidate != word)
        .filter(|candidate| letters > 4 || !changed_letter(candidate))
        .map(|candidate| (distance(&word, candidate), common_prefix(&word, candidate), candidate))
        .filter(|&(distance, _, _)| distance <= allowed)
        .min_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(b.2)))
        .map(|(_, _, candidate)| candidate)
}

/// The number of letters added, dropped, changed, or swapped with the next, that make `a` into
/// `b` (the optimal string alignment distance).
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let change = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1).min(rows[i][j - 1] + 1).min(rows[i - 1][j - 1] + change);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

/// Whether `b` is `a` with two letters next to each other swapped.
fn is_swap(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let differ: Vec<usize> = (0..a.len().min(b.len())).filter(|&i| a[i] != b[i]).collect();
    a.len() == b.len() && differ.len() == 2 && differ[1] == differ[0] + 1 && a[differ[0]] == b[differ[1]]
}

/// How many characters two words start with alike.
fn common_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspellings_find_their_word() {
        let cases = [
            ("mat", Some("mate")),
            ("flipcolr", Some("flipcolor")),
            ("attack", Some("attacks")),
            ("chek", Some("check")),
            ("movenumbr", Some("movenumber")),
            ("fliphorizonal", Some("fliphorizontal")),
            ("pinn", Some("pin")),
            ("wmt", Some("wtm")),
            ("knight", None),
            ("five", None),
            ("xyzzy", None),
            ("mate", None),
        ];
        for (word, meant) in cases {
            assert_eq!(nearest(word, WORDS.iter().copied()), meant, "{word}");
        }
    }

    #[test]
    fn distances() {
        assert_eq!(distance("mat", "mate"), 1);
        assert_eq!(distance("wmt", "wtm"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn the_words_are_in_order_and_once() {
        assert!(WORDS.windows(2).all(|pair| pair[0] < pair[1]), "sorted, no repeats");
    }
}
