//! What a query means in a variant: its syntax tree, how each letter resolved, and each
//! designator's squares drawn on the board, as text or JSON.
//!
//! ```
//! use cqlq::query::explain;
//! use cqlq::{Query, Variant};
//!
//! let query = Query::parse("[D1]")?;
//! let plan = query.compile(Variant::by_name("Croatian Ties").unwrap())?;
//! let json = explain::json(&plan);
//! assert_eq!(json["designators"][0]["squares"], serde_json::json!(["a1", "c1", "e1", "g1", "i1"]));
//! # Ok::<_, cqlq::QueryError>(())
//! ```

use std::fmt::Write;

use serde_json::{Value, json};

use super::ast::{
    AttackSide, Constituent, ConstituentBody, DictionaryOp, Expr, ExprKind, FindQuantity, Header, Lasting, LoopOver,
    PathStep,
};
use super::{Plan, Query};
use crate::board::diagram;

/// The explanation as text: the variant, the tree, the letters, and a diagram per designator.
#[must_use]
pub fn text(query: &Query, plan: &Plan) -> String {
    let variant = plan.variant();
    let geometry = variant.geometry;
    let mut out = String::new();
    let _ = writeln!(out, "variant: {} ({}, pieces {})", variant.name, geometry, variant.letters());
    if let Some(header) = query.header() {
        let _ = writeln!(out, "header: {}", describe_header(header));
    }
    out.push_str("query:\n");
    for filter in &query.ast().body {
        tree(&mut out, filter, query.source(), 1);
    }
    let letters: Vec<&(String, String)> = plan.designators().iter().flat_map(|d| &d.letters).collect();
    if !letters.is_empty() {
        out.push_str("letters:\n");
        let mut seen = Vec::new();
        for (written, meaning) in letters {
            if !seen.contains(&(written, meaning)) {
                seen.push((written, meaning));
                let _ = writeln!(out, "  {written} = {meaning}");
            }
        }
    }
    for designator in plan.designators() {
        let _ = writeln!(out, "\n{}", designator.text);
        out.push_str(&diagram::render(geometry, |square| if designator.squares.contains(&square) { 'x' } else { '.' }));
        let backhand =
            if designator.backhand.is_empty() { "nothing".to_owned() } else { designator.backhand.join(" ") };
        let _ = writeln!(out, "backhand: {backhand}");
    }
    out
}

/// The explanation as JSON: `{"variant": NAME, "designators": [{"text", "squares", "backhand"}]}`.
#[must_use]
pub fn json(plan: &Plan) -> Value {
    let geometry = plan.variant().geometry;
    let designators: Vec<Value> = plan
        .designators()
        .iter()
        .map(|designator| {
            let squares: Vec<String> =
                designator.squares.iter().map(|square| geometry.square_name(*square).to_string()).collect();
            json!({"text": designator.text, "squares": squares, "backhand": designator.backhand})
        })
        .collect();
    json!({"variant": plan.variant().name, "designators": designators})
}

fn describe_header(header: &Header) -> String {
    let mut parts = Vec::new();
    if let Some(input) = &header.input {
        parts.push(format!("input {input}"));
    }
    if let Some(output) = &header.output {
        parts.push(format!("output {output}"));
    }
    if let Some((low, high)) = header.matchcount {
        parts.push(format!("matchcount {low}{}", high.map_or(String::new(), |h| format!(" {h}"))));
    }
    if let Some((low, high)) = header.gamenumber {
        parts.push(format!("gamenumber {low}{}", high.map_or(String::new(), |h| format!(" {h}"))));
    }
    if let Some(result) = &header.result {
        parts.push(format!("result {result}"));
    }
    if header.variations {
        parts.push("variations".to_owned());
    }
    if let Some(text) = &header.matchstring {
        parts.push(format!("matchstring {text:?}"));
    }
    if let Some((name, _)) = &header.variant {
        parts.push(format!("variant {name:?}"));
    }
    if let Some(sort) = &header.sort {
        let direction = if sort.min { "min" } else { "max" };
        parts.push(format!("sort {direction} {:?}", sort.label.as_deref().unwrap_or("")));
    }
    parts.join(", ")
}

/// One line per node, indented by depth.
fn tree(out: &mut String, expr: &Expr, source: &str, depth: usize) {
    let indent = "  ".repeat(depth);
    let text = expr.span.text(source);
    match &expr.kind {
        ExprKind::Number(value) => {
            let _ = writeln!(out, "{indent}number {value}");
        }
        ExprKind::Squares(_) => {
            let _ = writeln!(out, "{indent}squares {text}");
        }
        ExprKind::Pieces(_) => {
            let _ = writeln!(out, "{indent}pieces {text}");
        }
        ExprKind::Unary(op, _) => line(out, &indent, op.symbol()),
        ExprKind::Binary(op, _, _) => line(out, &indent, op.symbol()),
        ExprKind::Extreme { max, .. } => line(out, &indent, if *max { "max" } else { "min" }),
        ExprKind::Block(_) => line(out, &indent, "{} all of"),
        ExprKind::Word(word) => line(out, &indent, word.text()),
        ExprKind::MateShape { .. } => line(out, &indent, text),
        ExprKind::Attacks { side: AttackSide::Attackers, .. } => line(out, &indent, "attacks: the attackers of"),
        ExprKind::Attacks { side: AttackSide::Targets, .. } => line(out, &indent, "attackedby: the targets of"),
        ExprKind::Between(..) => line(out, &indent, "between"),
        ExprKind::Distance(..) => line(out, &indent, "distance: the plies between two positions"),
        ExprKind::Equal(..) => line(out, &indent, "equal: whether two filters give the same value"),
        ExprKind::ConsecutiveMoves { .. } => {
            line(out, &indent, "consecutivemoves: the moves in a row two lines share after they part")
        }
        ExprKind::TypeName(_) => line(out, &indent, "typename: the letter of the piece"),
        ExprKind::Text(text) => line(out, &indent, &format!("text {text:?}")),
        ExprKind::Tag(_) => line(out, &indent, &format!("tag text: {text}")),
        ExprKind::TextFunction { function, .. } => line(out, &indent, function.name()),
        ExprKind::Str(_) => line(out, &indent, "str: the parts as one text"),
        ExprKind::IndexOf(..) => line(out, &indent, "indexof: where the first text stands in the second"),
        ExprKind::Substring { range: false, .. } => line(out, &indent, "[i]: a character of the text"),
        ExprKind::Substring { range: true, .. } => line(out, &indent, "[i:j]: a part of the text"),
        ExprKind::RegexMatch { pattern, .. } => line(out, &indent, &format!("~~ {pattern:?}: the part matched")),
        ExprKind::RegexGroup { group, start: false } => {
            line(out, &indent, &format!("\\{group}: what the group matched"))
        }
        ExprKind::RegexGroup { group, start: true } => {
            line(out, &indent, &format!("\\-{group}: where the group begins"))
        }
        ExprKind::CurrentFen => line(out, &indent, "fen: the position's FEN"),
        ExprKind::PieceName(_) => line(out, &indent, "piecename: the letter of the piece, in its colour's case"),
        ExprKind::WriteFile(..) => line(out, &indent, "writefile: the text added to the file"),
        ExprKind::OriginalComment => line(out, &indent, "originalcomment: the comment of the move played"),
        ExprKind::Glyph(glyph) => line(out, &indent, &format!("hascomment: the move played has the glyph ${glyph}")),
        ExprKind::RemoveComment => line(out, &indent, "removecomment: the position's comment left out"),
        ExprKind::SimilarPosition { games, .. } => {
            let how = if games.notransform() { "as it stands" } else { "as it stands or under a symmetry" };
            line(out, &indent, &format!("similarposition: the position is one of {}'s, {how}", games.file()));
        }
        ExprKind::Assert(_) => line(out, &indent, "assert: matches, or the run stops"),
        ExprKind::Abort => line(out, &indent, "cql_abort: the run stops"),
        ExprKind::SetTag(name, _) => line(out, &indent, &format!("settag: the tag {name} of the game written")),
        ExprKind::SquareNamed(_) => line(out, &indent, "makesquare: the square the text names"),
        ExprKind::Repeat { test: None, .. } => line(out, &indent, "loop: again while it matches"),
        ExprKind::Repeat { test: Some(_), .. } => line(out, &indent, "while: again while the test matches"),
        ExprKind::Dash { capture, .. } => {
            line(out, &indent, if *capture { "[x]: the capture played next" } else { "--: the move played next" });
        }
        ExprKind::NoTransform(_) => line(out, &indent, "notransform: as written, in every copy"),
        ExprKind::Sort { min, label, .. } => {
            let order = if *min { "smallest" } else { "largest" };
            line(out, &indent, &format!("sort {:?}, {order} first", label.as_deref().unwrap_or("")));
        }
        ExprKind::Arrows { forward: true, .. } => {
            line(out, &indent, "->: the squares of the first set seeing the next")
        }
        ExprKind::Arrows { forward: false, .. } => {
            line(out, &indent, "<-: the squares of the first set seen from the next")
        }
        ExprKind::XRay(_) => line(out, &indent, "xray: the squares of the last set"),
        ExprKind::Ray { directions, .. } => line(out, &indent, &format!("ray {directions:?}").to_lowercase()),
        ExprKind::Pin { .. } => line(out, &indent, "pin"),
        ExprKind::Shade { light, .. } => line(out, &indent, if *light { "light" } else { "dark" }),
        ExprKind::SquareNumber { what, .. } => line(out, &indent, what.text()),
        ExprKind::MakeSquare(..) => line(out, &indent, "makesquare (file, rank)"),
        ExprKind::Direction { direction, bounds, .. } => {
            let bound = |expr: &Expr| match &expr.kind {
                ExprKind::Number(number) => number.to_string(),
                ExprKind::Variable { name, .. } => name.clone(),
                _ => "?".to_owned(),
            };
            let range = match &bounds[..] {
                [] => String::new(),
                [only] => format!(" {} steps", bound(only)),
                [min, max, ..] => format!(" {} to {} steps", bound(min), bound(max)),
            };
            line(out, &indent, &format!("{direction:?}{range}").to_lowercase());
        }
        ExprKind::Fen(text, _) => line(out, &indent, &format!("fen {text:?}")),
        ExprKind::Power(_) => line(out, &indent, "power"),
        ExprKind::PieceId(_) => line(out, &indent, "pieceid"),
        ExprKind::Move(_) => line(out, &indent, &format!("move: {text}")),
        ExprKind::Transform { transform, count, bounds, .. } => {
            let counting = match (count, bounds.len()) {
                (false, _) => "",
                (true, 0) => " count",
                (true, _) => " count, within the bounds below",
            };
            line(out, &indent, &format!("{}{counting}", transform.text()));
        }
        ExprKind::Line { constituents, .. } => {
            line(out, &indent, &format!("line, counts {}", line_counts(constituents)));
        }
        ExprKind::Path(path) => {
            let steps: Vec<String> = path.steps.iter().map(path_step).collect();
            line(out, &indent, &format!("path, constituents {}", steps.join(" ")));
        }
        ExprKind::PathWord(_) => line(out, &indent, &format!("path word {text}")),
        ExprKind::Game(_) => line(out, &indent, &format!("game: {text}")),
        ExprKind::Variable { name, .. } => line(out, &indent, &format!("variable {name}")),
        ExprKind::FamilyWord(name) => line(out, &indent, &format!("variant word {name}")),
        ExprKind::Assign { name, lasting, .. } => {
            let kind = match lasting {
                Lasting::Game => "",
                Lasting::Run => "persistent ",
                Lasting::RunQuietly => "persistent quiet ",
            };
            line(out, &indent, &format!("{kind}assign to {name}"));
        }
        ExprKind::Dictionary { name, op, .. } => {
            let what = match op {
                DictionaryOp::Declare => "",
                DictionaryOp::Entry { .. } => ", the entry of a key",
                DictionaryOp::Store { .. } => ", an entry given",
                DictionaryOp::Count => ", its number of keys",
                DictionaryOp::Forget(Some(_)) => ", an entry removed",
                DictionaryOp::Forget(None) => ", emptied",
                DictionaryOp::Walk { .. } => ", each key in turn",
            };
            line(out, &indent, &format!("dictionary {name}{what}"));
        }
        ExprKind::IsBound { name, bound } => {
            line(out, &indent, &format!("whether {name} {} a value", if *bound { "holds" } else { "lacks" }));
        }
        ExprKind::Unbind(name) => line(out, &indent, &format!("{name} loses its value")),
        ExprKind::If { .. } => line(out, &indent, "if, then, else"),
        ExprKind::Position(_) => line(out, &indent, &format!("position: {text}")),
        ExprKind::Find { quantity, backward, .. } => {
            let quantity = match quantity {
                FindQuantity::First => "the first position".to_owned(),
                FindQuantity::All => "how many positions, at least one".to_owned(),
                FindQuantity::Count => "how many positions".to_owned(),
                FindQuantity::Range => "how many positions, when as many as the bounds say".to_owned(),
            };
            let direction = if *backward { "back to the start" } else { "on to the end" };
            line(out, &indent, &format!("find {quantity}, {direction}, where"));
        }
        ExprKind::Comment { message, .. } => line(out, &indent, if *message { "message" } else { "comment" }),
        ExprKind::Echo { source, target, all, .. } => {
            let all = if *all { " in all" } else { "" };
            line(out, &indent, &format!("echo ({source} {target}){all}: at each other position"));
        }
        ExprKind::Lca(..) => line(out, &indent, "lca: where the lines to both meet"),
        ExprKind::Descends { strict, .. } => {
            let or_same = if *strict { "" } else { ", or is it" };
            line(out, &indent, &format!("ancestor: the first position lies on the line to the second{or_same}"));
        }
        ExprKind::NumberedPosition(_) => line(out, &indent, "position: the game's position numbered"),
        ExprKind::NumberedChild(_) => line(out, &indent, "child: the position the variation numbered begins with"),
        ExprKind::At { .. } => line(out, &indent, ": at the position, the filter"),
        ExprKind::Loop { over, all, name, .. } => {
            let over = if *over == LoopOver::Pieces { "piece" } else { "square" };
            line(out, &indent, &format!("{over}{} {name} in", if *all { " all" } else { "" }));
        }
    }
    // A chain of one associative operator shows as one node, however it is grouped.
    let children = match &expr.kind {
        ExprKind::Binary(op, ..) if op.is_associative() => expr.operands(*op),
        _ => expr.children(),
    };
    for child in children {
        tree(out, child, source, depth + 1);
    }
}

fn line(out: &mut String, indent: &str, text: &str) {
    let _ = writeln!(out, "{indent}{text}");
}

/// The counts of a line's constituents, `{1,1} ({0,1} {1,})` with the groups in brackets.
fn line_counts(constituents: &[Constituent]) -> String {
    let counts: Vec<String> = constituents
        .iter()
        .map(|c| {
            let count = format!("{{{},{}}}", c.min, c.max.map_or(String::new(), |max| max.to_string()));
            match &c.body {
                ConstituentBody::Filter(_) => count,
                ConstituentBody::Group(group) => format!("({}){count}", line_counts(group)),
            }
        })
        .collect();
    counts.join(" ")
}

/// A path constituent in brief: `F` a filter, `--` a dash, groups in parentheses, with counts.
fn path_step(step: &PathStep) -> String {
    match step {
        PathStep::Filter(_) => "F".to_owned(),
        PathStep::Move(_) => "--".to_owned(),
        PathStep::Group(steps) => format!("({})", steps.iter().map(path_step).collect::<Vec<_>>().join(" ")),
        PathStep::Repeat { step, min, max } => {
            format!("{}{{{min},{}}}", path_step(step), max.map_or(String::new(), |max| max.to_string()))
        }
    }
}
