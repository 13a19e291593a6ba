//! `hhdb`: the conventions of Harold van der Heijden's database of endgame studies. As in CQL
//! 6.2, each key stands for a filter of the language, read in its place (under `notransform`);
//! the awards are read from the `Event` tag by a game filter of their own.

use pest::iterators::Pair;

use super::{Builder, Rule, TEXT_PIN, parse_rule, span_of, string};
use crate::query::ast::{Award, AwardKind, BinaryOp, Expr, ExprKind, GameFilter, Span, Word};
use crate::query::check::looks_like_a_pattern;
use crate::query::diagnostic::Diagnostic;

/// The keys written in full for a key that marks the `Black` tag.
const LONG_KEYS: [(&str, &str); 17] = [
    ("anticipation", "AN"),
    ("colors_reversed", "CR"),
    ("corrected_solution", "(s)"),
    ("correction", "(c)"),
    ("dual_after_move_1", "U2"),
    ("dual_at_move_1", "U1"),
    ("modification", "(m)"),
    ("posthumous", "PH"),
    ("theme_tournament", "TT"),
    ("theme_tourney", "TT"),
    ("theoretical_ending", "TE"),
    ("too_many_composers", "MC"),
    ("twin", "TW"),
    ("unreachable", "U5"),
    ("version", "(v)"),
    ("white_fails", "U3"),
    ("white_wins_in_draw", "U4"),
];

/// The keys that mark the `Black` tag: `hhdb MC` is `"MC" in player black`.
const BLACK_TAG_KEYS: [&str; 16] =
    ["(c)", "(m)", "(s)", "(v)", "AN", "CR", "MC", "PH", "TE", "TT", "TW", "U1", "U2", "U3", "U4", "U5"];

/// What the `gbr` code of the `Black` tag is matched with (`+0100.00a1b2`): the code, and the
/// part of it that `hhdb gbr kings` and the others stand for.
const GBR: &str = r#"player black ~~ "[+-=]\d{4}\.\d{2}[a-h][1-8][a-h][1-8]""#;
const GBR_PARTS: [(&str, &str); 5] =
    [("gbr", ""), ("gbrkings", "[-4:]"), ("gbrmaterial", "[1:-4]"), ("gbrpawns", "[6:8]"), ("gbrpieces", "[1:5]")];

/// The filter each other key stands for.
const KEY_FILTERS: [(&str, &str); 17] = [
    ("<cook>", r#"originalcomment "<cook" or false"#),
    ("<eg>", r#"originalcomment "<eg>""#),
    (
        "<main>",
        r#"cql_assertvariations "'hhdb <main>' can only be used when 'variations' is set in the CQL header (or run with 'cql -variations')" and originalcomment "<main>""#,
    ),
    ("<minor_dual>", r#"originalcomment "<minor_dual" or false"#),
    (
        "<or>",
        r#"cql_assertvariations "'hhdb <or>' can only be used when 'variations' is set in the CQL header (or run with 'cql -variations...')" and originalcomment "<or>""#,
    ),
    (
        "composer",
        r#"{if isunbound CQL_composer_string
              CQL_composer_string =
                if player black "MC"
                  position 0: {originalcomment ~~ "^([^.]+)\." \1}
                else {if player white[-3:] == " NN" player white[:-3] else player white}
            CQL_composer_string}"#,
    ),
    ("cooked", "cql_hhdbhascook"),
    ("diagram", r##"{event ~~ "#([^ ]+)" \1}"##),
    ("dual", r#"player black ~~ "U[12]" or false"#),
    ("egdiagram", r#"position 0 : {originalcomment ~~ "EG#(\d+)" int \1}"#),
    ("firstcomment", "position 0 : originalcomment"),
    (
        "mainline",
        r#"cql_assertvariations "'hhdb mainline' can only be used when 'variations' is set in the CQL header (or run with 'cql -variations...')" and not find quiet <-- move previous secondary and not originalcomment "<main>""#,
    ),
    (
        "search",
        r#"event + \n + tag "White" + \n + tag "Black" + if (position 0: originalcomment) \n + position 0:originalcomment else """#,
    ),
    // A study shown unsound (`<cook>` in its text) with a `U1` or `U2` mark is counted sound.
    ("sound", r#"not {hhdb cooked and player black ~~ "U[12]" or player black ~~ "U[345]"}"#),
    ("unsound", r#"hhdb cooked or player black ~~ "U[1-5]""#),
    ("stipulation", r#"{position 0:originalcomment ~~ "stipulation: ([^.]+)\." \1}"#),
    (
        "variation",
        r#"cql_assertvariations "'hhdb variation' can only be used when 'variations' is set in the CQL header (or run with 'cql -variations...')" and find quiet <-- move previous secondary and not originalcomment "<main>""#,
    ),
];

/// The categories `hhdb sort` orders the awards by: prizes first, each kind's special awards
/// after its others.
fn award_category(kind: AwardKind) -> u32 {
    match kind {
        AwardKind::Prize | AwardKind::Any => 1,
        AwardKind::HonourableMention => 3,
        AwardKind::Commendation => 5,
    }
}

/// The word of a kind of award.
fn award_word(kind: AwardKind) -> &'static str {
    match kind {
        AwardKind::Any => "award",
        AwardKind::Prize => "prize",
        AwardKind::HonourableMention => "hm",
        AwardKind::Commendation => "commendation",
    }
}

impl Builder {
    /// `hhdb KEY`, `hhdb KEY "text"` and `hhdb` with awards.
    pub(super) fn hhdb_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let span = span_of(&pair);
        let mut awards = Vec::new();
        let mut key = None;
        let mut search = None;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::hhdb_award => awards.push((part.as_str().to_owned(), span_of(&part))),
                Rule::hhdb_key => key = Some(part.as_str().trim_matches('"').to_owned()),
                Rule::hhdb_text => key = Some(part.into_inner().map(|word| word.as_str()).collect::<String>()),
                Rule::tag_search => search = Some((string(part.clone().into_inner().next()), span_of(&part))),
                _ => {}
            }
        }
        if !awards.is_empty() {
            return self.hhdb_awards(&awards, span);
        }
        let Some(key) = key else {
            let message = "'hhdb' takes a key: one of (c) (m) (s) (v) <cook> <eg> <main> <minor_dual> <or> AN CR MC PH \
                           TE TT TW U1 U2 U3 U4 U5 award commendation composer cooked diagram dual egdiagram \
                           firstcomment gbr hm mainline max prize search sort sound special stipulation unsound \
                           variation, or one of their long names (the keys with other characters than letters, \
                           digits and '_' in quotes)";
            self.diagnostics.push(Diagnostic::new(span, message));
            return (ExprKind::Word(Word::False), 1);
        };
        let key = LONG_KEYS.iter().find(|(long, _)| *long == key).map_or(key.as_str(), |(_, short)| short);
        let filter = if BLACK_TAG_KEYS.contains(&key) {
            format!("\"{key}\" in player black")
        } else if let Some((_, part)) = GBR_PARTS.iter().find(|(name, _)| *name == key) {
            format!("{GBR}{part}")
        } else if let Some((_, filter)) = KEY_FILTERS.iter().find(|(name, _)| *name == key) {
            (*filter).to_owned()
        } else {
            let message = format!("'hhdb {key}' stands for no filter in CQL 6.2");
            self.diagnostics.push(Diagnostic::new(span, message));
            return (ExprKind::Word(Word::False), 1);
        };
        let (expanded, depth) = self.read_in(&format!("notransform {filter}"), span);
        let Some((text, text_span)) = search else { return (expanded.kind, depth) };
        if looks_like_a_pattern(&text) {
            let message = format!(
                "\"{text}\" is looked for as written, but it reads like a regular expression: write hhdb {key} ~~ \
                 \"{text}\" to match it as one, or \"{text}\" in hhdb {key} to look for it as written"
            );
            self.diagnostics.push(Diagnostic::new(text_span, message));
        }
        let looked_for = Expr { kind: ExprKind::Text(text), span: text_span };
        (ExprKind::Binary(BinaryOp::In, Box::new(looked_for), Box::new(expanded)), depth + 1)
    }

    /// `hhdb` followed by `award`, `prize`, `hm`, `commendation`, `special`, `max` or `sort`.
    fn hhdb_awards(&mut self, words: &[(String, Span)], span: Span) -> (ExprKind, u32) {
        let mut kind = None;
        let (mut special, mut max, mut sort) = (false, false, false);
        for (word, word_span) in words {
            let twice = match word.as_str() {
                "special" => std::mem::replace(&mut special, true),
                "max" => std::mem::replace(&mut max, true),
                "sort" => std::mem::replace(&mut sort, true),
                word => {
                    let named = match word {
                        "prize" => AwardKind::Prize,
                        "hm" => AwardKind::HonourableMention,
                        "commendation" => AwardKind::Commendation,
                        _ => AwardKind::Any,
                    };
                    kind.replace(named).is_some()
                }
            };
            if twice {
                let message = format!(
                    "'hhdb' takes one kind of award (award, prize, hm or commendation) and each of special, max \
                     and sort once: {word} is given again"
                );
                self.diagnostics.push(Diagnostic::new(*word_span, message));
            }
        }
        let refusal = if sort && words.last().is_some_and(|(word, _)| word == "sort") {
            Some("'sort' after 'hhdb' comes first: written last, it could be read as a 'sort' filter after 'hhdb'")
        } else if sort && kind.is_none() && !special {
            Some("'hhdb sort' also takes the kind of award to sort by: special, award, prize, hm or commendation")
        } else if sort && max {
            Some("'hhdb' takes 'sort' or 'max', not both")
        } else {
            None
        };
        if let Some(message) = refusal {
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        let award = Award { kind: kind.unwrap_or(AwardKind::Any), special, max };
        if !sort {
            return (ExprKind::Game(GameFilter::Award(award)), 1);
        }
        let (expanded, depth) = self.read_in(&award_sort(award), span);
        (expanded.kind, depth)
    }

    /// A text of the language read as if it stood at `span` in the query.
    fn read_in(&mut self, text: &str, span: Span) -> (Expr, u32) {
        let block = format!("{{{text}}}");
        let outer = TEXT_PIN.replace(Some(span));
        // The text stands in braces of its own: a path around it reads none of it.
        let read = self.outside_path_parentheses(|builder| {
            parse_rule(Rule::block, &block).ok().and_then(|mut pairs| pairs.next()).map(|block| {
                let mut items = builder.items(block.into_inner());
                let depth = items.depth + 1;
                let filter = match items.filters.len() {
                    1 => items.filters.remove(0),
                    _ => Expr { kind: ExprKind::Block(items.filters), span },
                };
                (filter, depth)
            })
        });
        TEXT_PIN.set(outer);
        read.unwrap_or_else(|| {
            self.diagnostics.push(Diagnostic::new(span, "internal: the filter this stands for could not be read"));
            (Expr { kind: ExprKind::Word(Word::False), span }, 1)
        })
    }
}

/// What `hhdb sort` with an award stands for: the award, then the games in the order of its
/// category, rank and last rank, each the smaller first.
fn award_sort(award: Award) -> String {
    if award.special {
        let kind = award_word(award.kind);
        return format!("hhdb special and hhdb sort {kind}");
    }
    if award.kind == AwardKind::Any {
        return "hhdb sort prize or hhdb sort hm or hhdb sort commendation".to_owned();
    }
    let (kind, category) = (award_word(award.kind), award_category(award.kind));
    format!(
        "{{hhdb {kind}
          if (hhdb special) then {{
            cql_category = {special_category}
            cql_truerank = hhdb special {kind}
            cql_maxrank = hhdb special {kind} max}}
          else {{
            cql_category = {category}
            cql_truerank = hhdb {kind}
            cql_maxrank = hhdb {kind} max}}
          sort quiet min \"cql_category\" cql_category
          sort quiet min \"cql_truerank\" cql_truerank
          sort quiet min \"cql_maxrank\" cql_maxrank
          true}}",
        special_category = category + 1
    )
}
