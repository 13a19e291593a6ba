//! CQL 6.2's reserved words and Unicode symbols, and how often a query uses each: the coverage
//! report of the generator.

use std::collections::BTreeMap;

/// The reserved words of CQL 6.2 (its keyword table), `.` (every square) among them. The tester
/// keeps its own copy, taken from CQL's source, rather than cqlq's list of the words it knows:
/// what it covers must not follow what cqlq has.
pub const KEYWORDS: &[&str] = &[
    "abs",
    "all",
    "ancestor",
    "and",
    "any",
    "anydirection",
    "arrow",
    "ascii",
    "assert",
    "attack",
    "attacked",
    "attackedby",
    "attacks",
    "atomic",
    "between",
    "black",
    "btm",
    "by",
    "capture",
    "captures",
    "castle",
    "check",
    "child",
    "cql",
    "cql_abort",
    "cql_assertvariations",
    "cql_hhdbhascook",
    "colortype",
    "comment",
    "connectedpawns",
    "consecutivemoves",
    "count",
    "countmoves",
    "currentmove",
    "currentposition",
    "curpos",
    "currenttransform",
    "dark",
    "date",
    "depth",
    "descendant",
    "diagonal",
    "dictionary",
    "dihedral",
    "distance",
    "doubledpawns",
    "down",
    "echo",
    "eco",
    "elo",
    "else",
    "enpassant",
    "enpassantsquare",
    "equal",
    "event",
    "eventdate",
    "extension",
    "false",
    "fen",
    "file",
    "find",
    "firstmatch",
    "flip",
    "flipcolor",
    "flipdihedral",
    "fliphorizontal",
    "flipvertical",
    "focus",
    "from",
    "function",
    "gamenumber",
    "hascomment",
    "hhdb",
    "horizontal",
    "idealmate",
    "idealstalemate",
    "if",
    "in",
    "indexof",
    "initial",
    "initialposition",
    "input",
    "int",
    "isbound",
    "isolatedpawns",
    "isunbound",
    "keepallbest",
    "lastgamenumber",
    "lastposition",
    "lca",
    "left",
    "legal",
    "light",
    "line",
    "local",
    "loop",
    "lowercase",
    "maindiagonal",
    "mainline",
    "makesquare",
    "matchcount",
    "matchstring",
    "mate",
    "max",
    "message",
    "min",
    "modelmate",
    "modelstalemate",
    "move",
    "movenumber",
    "nestban",
    "northeast",
    "northwest",
    "nosort",
    "not",
    "notransform",
    "null",
    "nullmove",
    "o-o",
    "o-o-o",
    "offdiagonal",
    "oldline",
    "or",
    "originalcomment",
    "orthogonal",
    "output",
    "parent",
    "passedpawns",
    "path",
    "pathcount",
    "pathcountunfocused",
    "pathdebug",
    "pathlastposition",
    "pathstart",
    "persistent",
    "pgn",
    "piece",
    "pieceid",
    "piecename",
    "piecepath",
    "pin",
    "player",
    "ply",
    "position",
    "positionid",
    "power",
    "previous",
    "primary",
    "promote",
    "pseudolegal",
    "puremate",
    "purestalemate",
    "quiet",
    "rank",
    "ray",
    "readfile",
    "removecomment",
    "result",
    "reversecolor",
    "right",
    "rotate45",
    "rotate90",
    "secondary",
    "settag",
    "shift",
    "shifthorizontal",
    "shiftvertical",
    "sidetomove",
    "silent",
    "similarposition",
    "singlecolor",
    "site",
    "sort",
    "sqrt",
    "southeast",
    "southwest",
    "square",
    "stalemate",
    "str",
    "string",
    "substring",
    "tag",
    "terminal",
    "then",
    "through",
    "title",
    "to",
    "transform",
    "true",
    "try",
    "type",
    "typename",
    "unbind",
    "up",
    "uppercase",
    "variation",
    "variations",
    "verbose",
    "vertical",
    "virtualmainline",
    "while",
    "white",
    "writefile",
    "wtm",
    "xray",
    "year",
    ".",
];

/// CQL 6.2's Unicode symbols, each with the ASCII it stands for.
pub const SYMBOLS: &[(&str, &str)] = &[
    ("≤", "<="),
    ("≥", ">="),
    ("≠", "!="),
    ("→", "->"),
    ("←", "<-"),
    ("⊢", "path"),
    ("◎", "focus"),
    ("∙", "currentposition"),
    ("✵", "flip"),
    ("⬓", "flipcolor"),
    ("×", "[x]"),
    ("∀", "[forall]"),
    ("∊", "[element]"),
    ("▦", "."),
    ("□", "_"),
    ("△", "A"),
    ("▲", "a"),
    ("◭", "[Aa]"),
    ("∩", "&"),
    ("∪", "|"),
    ("≺", "[<]"),
    ("≻", "[>]"),
    ("≼", "[<=]"),
    ("≽", "[>=]"),
    ("――", "--"),
    ("♔", "K"),
    ("♕", "Q"),
    ("♖", "R"),
    ("♗", "B"),
    ("♘", "N"),
    ("♙", "P"),
    ("♚", "k"),
    ("♛", "q"),
    ("♜", "r"),
    ("♝", "b"),
    ("♞", "n"),
    ("♟", "p"),
];

/// How often each keyword and symbol stands in queries.
#[derive(Clone, Debug, Default)]
pub struct Coverage {
    uses: BTreeMap<&'static str, u64>,
}

impl Coverage {
    /// Counts the keywords and symbols of `query`.
    pub fn count(&mut self, query: &str) {
        let code = without_strings(query);
        for word in words(&code) {
            if let Some(keyword) = KEYWORDS.iter().find(|keyword| **keyword == word) {
                *self.uses.entry(keyword).or_default() += 1;
            }
        }
        for (symbol, _) in SYMBOLS.iter().copied() {
            let count = code.matches(symbol).count() as u64;
            if count > 0 {
                *self.uses.entry(symbol).or_default() += count;
            }
        }
    }

    /// The uses of a keyword or symbol.
    pub fn uses(&self, name: &str) -> u64 {
        self.uses.get(name).copied().unwrap_or(0)
    }

    /// The report: every keyword and symbol with its uses, the least used first.
    pub fn report(&self, at_least: u64) -> String {
        let mut all: Vec<(&str, u64)> = KEYWORDS
            .iter()
            .copied()
            .chain(SYMBOLS.iter().map(|(symbol, _)| *symbol))
            .map(|name| (name, self.uses(name)))
            .collect();
        all.sort_by_key(|&(name, uses)| (uses, name));
        let below = all.iter().filter(|(_, uses)| *uses < at_least).count();
        let mut text = format!(
            "keyword coverage: {} keywords and symbols, {} used fewer than {at_least} times\n",
            all.len(),
            below
        );
        for (name, uses) in all {
            text.push_str(&format!("{uses:>9}  {name}\n"));
        }
        text
    }
}

/// The query with its quoted strings left out.
fn without_strings(query: &str) -> String {
    let mut out = String::with_capacity(query.len());
    let mut quoted = false;
    let mut escaped = false;
    for c in query.chars() {
        if quoted {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => quoted = false,
                _ => {}
            }
            continue;
        }
        if c == '"' {
            quoted = true;
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// The words of a query: runs of letters, digits, `_` and the dashes of `o-o` and `o-o-o`, and
/// a `.` standing alone.
fn words(code: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let mut start = None;
    for (at, c) in code.char_indices() {
        let part = c.is_ascii_alphanumeric()
            || c == '_'
            || (c == '-' && start.is_some_and(|s| code[s..at].ends_with('o') && bytes.get(at + 1) == Some(&b'o')));
        match (part, start) {
            (true, None) => start = Some(at),
            (false, Some(s)) => {
                found.push(&code[s..at]);
                start = None;
            }
            _ => {}
        }
        if c == '.'
            && !bytes.get(at + 1).is_some_and(u8::is_ascii_alphanumeric)
            && (at == 0 || !bytes[at - 1].is_ascii_alphanumeric())
        {
            found.push(".");
        }
    }
    if let Some(s) = start {
        found.push(&code[s..]);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_outside_strings_are_counted() {
        let mut coverage = Coverage::default();
        coverage.count("cql() move o-o-o message(\"move\") ◭x∊. ♔――a1 Ka1 or .");
        assert_eq!(coverage.uses("move"), 1);
        assert_eq!(coverage.uses("o-o-o"), 1);
        assert_eq!(coverage.uses("o-o"), 0);
        assert_eq!(coverage.uses("message"), 1);
        assert_eq!(coverage.uses("◭"), 1);
        assert_eq!(coverage.uses("――"), 1);
        assert_eq!(coverage.uses("."), 2);
        assert_eq!(coverage.uses("or"), 1);
    }

    #[test]
    fn the_table_has_each_keyword_once() {
        let mut sorted = KEYWORDS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), KEYWORDS.len());
    }
}
