//! A generated query as a tree: what it renders to, and the smaller queries a shrinker tries.
//!
//! Every subexpression is a [`Node`] with the kind of value it yields ([`Ty`]). A node may be
//! replaced by a node of its own kind below it, or by the smallest expression of its kind, and
//! an [`Part::Optional`] part may be left out: each such edit gives a smaller query that CQL
//! 6.2 reads the same way, or refuses, which the shrinker finds out by running it.

/// The kind of value an expression yields, as CQL 6.2 types its filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A set of squares.
    Set,
    /// A number.
    Num,
    /// A position.
    Pos,
    /// A string.
    Str,
    /// A filter used only for whether it matches: any expression may stand in its place.
    Filter,
    /// A part of the query's frame (the header, the body): never replaced, only trimmed.
    Frame,
}

impl Ty {
    /// The smallest expression of this kind that CQL 6.2 accepts where one is wanted.
    pub fn smallest(self) -> Option<&'static str> {
        match self {
            Ty::Set => Some("a1"),
            Ty::Num => Some("1"),
            Ty::Pos => Some("currentposition"),
            Ty::Str => Some("\"a\""),
            Ty::Filter => Some("true"),
            Ty::Frame => None,
        }
    }

    /// Whether an expression of kind `other` may stand where one of this kind is wanted.
    pub fn takes(self, other: Ty) -> bool {
        self == other || (self == Ty::Filter && other != Ty::Frame)
    }
}

/// A piece of a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// A token, a space before it.
    Word(String),
    /// A token written right after the one before, with no space.
    Glued(String),
    /// A subexpression.
    Node(Node),
    /// Parts the query may do without (a parameter, a filter of a body).
    Optional(Vec<Part>),
}

/// An expression: its kind and its parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The kind of value it yields.
    pub ty: Ty,
    /// What it is made of, in order.
    pub parts: Vec<Part>,
}

impl Node {
    /// A node of kind `ty` made of `parts`.
    pub fn new(ty: Ty, parts: Vec<Part>) -> Node {
        Node { ty, parts }
    }

    /// A node of one token.
    pub fn word(ty: Ty, word: impl Into<String>) -> Node {
        Node::new(ty, vec![Part::Word(word.into())])
    }

    /// The query text: tokens separated by single spaces, glued ones not.
    pub fn render(&self) -> String {
        let mut out = String::new();
        render_parts(&self.parts, &mut out);
        out
    }

    /// Every query one edit smaller than this one, shortest first.
    pub fn smaller(&self) -> Vec<Node> {
        let edits = count_edits(self);
        let mut found: Vec<Node> = (0..edits)
            .filter_map(|edit| {
                let mut copy = self.clone();
                let mut counter = edit;
                apply_edit(&mut copy, &mut counter).then_some(copy)
            })
            .filter(|node| node != self)
            .collect();
        found.sort_by_key(|node| node.render().len());
        found.dedup();
        found
    }
}

fn render_parts(parts: &[Part], out: &mut String) {
    for part in parts {
        match part {
            Part::Word(word) => {
                if !out.is_empty() && !out.ends_with([' ', '\n']) {
                    out.push(' ');
                }
                out.push_str(word);
            }
            Part::Glued(word) => out.push_str(word),
            Part::Node(node) => render_parts(&node.parts, out),
            Part::Optional(parts) => render_parts(parts, out),
        }
    }
}

/// The number of edits of a node and everything in it: for each node, one per node of a kind
/// it takes below it (through optional parts), one for the smallest expression of its kind;
/// for each optional part, one for leaving it out.
fn count_edits(node: &Node) -> usize {
    let mut below = Vec::new();
    nodes_below(&node.parts, &mut below);
    let own = below.iter().filter(|child| node.ty.takes(child.ty)).count() + usize::from(node.ty.smallest().is_some());
    own + count_part_edits(&node.parts)
}

fn count_part_edits(parts: &[Part]) -> usize {
    parts
        .iter()
        .map(|part| match part {
            Part::Word(_) | Part::Glued(_) => 0,
            Part::Node(node) => count_edits(node),
            Part::Optional(inner) => 1 + count_part_edits(inner),
        })
        .sum()
}

/// The nodes right below `parts`, looking through optional parts.
fn nodes_below<'a>(parts: &'a [Part], out: &mut Vec<&'a Node>) {
    for part in parts {
        match part {
            Part::Node(node) => out.push(node),
            Part::Optional(inner) => nodes_below(inner, out),
            Part::Word(_) | Part::Glued(_) => {}
        }
    }
}

/// Applies the edit numbered `counter` (counted as [`count_edits`] counts), if it is in this
/// node; returns whether it was applied, `counter` lowered by the edits passed.
fn apply_edit(node: &mut Node, counter: &mut usize) -> bool {
    let mut below = Vec::new();
    nodes_below(&node.parts, &mut below);
    let takers: Vec<Node> = below.into_iter().filter(|child| node.ty.takes(child.ty)).cloned().collect();
    if *counter < takers.len() {
        let ty = node.ty;
        *node = takers[*counter].clone();
        // A filter slot keeps its own kind, so that what stands in it is trimmed as a filter.
        if ty == Ty::Filter {
            node.ty = Ty::Filter;
        }
        return true;
    }
    *counter -= takers.len();
    if let Some(smallest) = node.ty.smallest() {
        if *counter == 0 {
            *node = Node::word(node.ty, smallest);
            return true;
        }
        *counter -= 1;
    }
    apply_part_edit(&mut node.parts, counter)
}

fn apply_part_edit(parts: &mut Vec<Part>, counter: &mut usize) -> bool {
    for index in 0..parts.len() {
        match &mut parts[index] {
            Part::Word(_) | Part::Glued(_) => {}
            Part::Node(node) => {
                if apply_edit(node, counter) {
                    return true;
                }
            }
            Part::Optional(inner) => {
                if *counter == 0 {
                    parts.remove(index);
                    return true;
                }
                *counter -= 1;
                if apply_part_edit(inner, counter) {
                    return true;
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Node {
        let or = Node::new(
            Ty::Filter,
            vec![
                Part::Node(Node::word(Ty::Filter, "check")),
                Part::Word("or".into()),
                Part::Node(Node::word(Ty::Set, "Qh7")),
            ],
        );
        Node::new(
            Ty::Frame,
            vec![
                Part::Word("cql()".into()),
                Part::Optional(vec![Part::Node(or)]),
                Part::Optional(vec![Part::Word("mate".into())]),
            ],
        )
    }

    #[test]
    fn a_query_renders_with_single_spaces() {
        assert_eq!(sample().render(), "cql() check or Qh7 mate");
    }

    #[test]
    fn smaller_queries_replace_by_parts_and_leave_optional_parts_out() {
        let smaller: Vec<String> = sample().smaller().iter().map(Node::render).collect();
        for expected in ["cql() mate", "cql() check or Qh7", "cql() check mate", "cql() Qh7 mate", "cql() true mate"] {
            assert!(smaller.contains(&expected.to_owned()), "{expected} not in {smaller:?}");
        }
        assert!(smaller.windows(2).all(|pair| pair[0].len() <= pair[1].len()));
    }
}
