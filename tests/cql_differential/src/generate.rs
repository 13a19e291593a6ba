//! Random CQL 6.2 queries, typed: each subexpression yields the kind of value its place wants,
//! variables are assigned before they are read, and a share of the queries is made invalid on
//! purpose (a stray keyword somewhere).
//!
//! The productions follow CQL 6.2's grammar keyword by keyword: every word of its keyword table
//! and every Unicode symbol has a place here, so that the coverage report can show each used.

use crate::query::{Node, Part, Ty};
use crate::rng::Rng;

/// What queries to make.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// How deep expressions nest.
    pub depth: usize,
    /// The share of queries, in 100, made invalid on purpose.
    pub invalid_percent: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options { depth: 4, invalid_percent: 5 }
    }
}

/// A random query.
pub fn query(rng: &mut Rng, options: Options) -> Node {
    let unicode = rng.percent(25);
    let mut generator =
        Generator { rng, depth: options.depth, vars: Vec::new(), unicode, names: 0, functions: Vec::new() };
    let mut query = generator.query();
    if generator.rng.percent(options.invalid_percent) {
        generator.spoil(&mut query);
    }
    query
}

fn word(text: impl Into<String>) -> Part {
    Part::Word(text.into())
}

fn glued(text: impl Into<String>) -> Part {
    Part::Glued(text.into())
}

fn node(node: Node) -> Part {
    Part::Node(node)
}

fn optional(parts: Vec<Part>) -> Part {
    Part::Optional(parts)
}

/// What a variable holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holds {
    /// A value of a kind.
    Value(Ty),
    /// A piece (a piece variable: a set of one square that follows its piece).
    Piece,
    /// A dictionary, with the types of its keys and of its values.
    Dictionary { key: Ty, value: Ty },
}

/// A variable in scope: its name and what it holds.
#[derive(Clone, Debug)]
struct Variable {
    name: String,
    holds: Holds,
}

struct Generator<'r> {
    rng: &'r mut Rng,
    depth: usize,
    vars: Vec<Variable>,
    unicode: bool,
    names: usize,
    /// Functions defined so far: name and number of parameters.
    functions: Vec<(String, usize)>,
}

/// CQL 6.2's direction words.
const DIRECTIONS: [&str; 15] = [
    "up",
    "down",
    "left",
    "right",
    "northeast",
    "northwest",
    "southeast",
    "southwest",
    "horizontal",
    "vertical",
    "orthogonal",
    "diagonal",
    "anydirection",
    "maindiagonal",
    "offdiagonal",
];

/// The transforms that take a filter, a count or a range first.
const TRANSFORMS: [&str; 13] = [
    "flip",
    "flipcolor",
    "fliphorizontal",
    "flipvertical",
    "flipdihedral",
    "dihedral",
    "rotate90",
    "rotate45",
    "reversecolor",
    "shift",
    "shifthorizontal",
    "shiftvertical",
    "notransform",
];

/// Filters of one word that match or not.
const WORDS: [&str; 21] = [
    "check",
    "mate",
    "stalemate",
    "wtm",
    "btm",
    "initial",
    "terminal",
    "mainline",
    "variation",
    "true",
    "false",
    "castle",
    "enpassant",
    "nullmove",
    "primary",
    "secondary",
    "virtualmainline",
    "extension",
    "cql_hhdbhascook",
    "removecomment",
    "try",
];

/// Sets of one word.
const SET_WORDS: [&str; 13] = [
    "passedpawns",
    "isolatedpawns",
    "doubledpawns",
    "connectedpawns",
    "from",
    "to",
    "enpassantsquare",
    "puremate",
    "purestalemate",
    "modelmate",
    "modelstalemate",
    "idealmate",
    "idealstalemate",
];

/// Numbers of one word.
const NUMBER_WORDS: [&str; 11] = [
    "ply",
    "movenumber",
    "gamenumber",
    "year",
    "depth",
    "positionid",
    "sidetomove",
    "white",
    "black",
    "pathcount",
    "pathcountunfocused",
];

/// Strings of one word: the tags CQL names, and what the position has.
const STRING_WORDS: [&str; 8] = ["event", "site", "date", "eco", "eventdate", "fen", "hascomment", "originalcomment"];

const PIECES: [&str; 19] =
    ["K", "Q", "R", "B", "N", "P", "k", "q", "r", "b", "n", "p", "A", "a", "_", "[Aa]", "[RQ]", "[Bb]", "[KQRkqr]"];

const FIGURINES: [&str; 17] = ["♔", "♕", "♖", "♗", "♘", "♙", "♚", "♛", "♜", "♝", "♞", "♟", "△", "▲", "□", "◭", "♖♕"];

const TEXTS: [&str; 9] = ["a", "Carlsen", "e4", "1-0", "", "x y", "Sicilian", "B", "2025"];

/// Words CQL 6.2 keeps in its table but refuses wherever they stand (old or unused ones).
/// What follows `hhdb`: keys that are filters, texts (with a text looked for, or matched), numbers
/// as filters, awards, and keys CQL 6.2 refuses.
const HHDB_KEYS: [&str; 30] = [
    "sound",
    "unsound",
    "cooked",
    "dual",
    "\"<cook>\"",
    "\"<eg>\"",
    "\"<minor_dual>\"",
    "\"(c)\"",
    "MC",
    "U3",
    "twin",
    "white_wins_in_draw",
    "award",
    "prize max",
    "special hm",
    "commendation",
    "sort prize",
    "special sort award",
    "composer ~~ \"a\"",
    "composer \"a\"",
    "stipulation \"#2\"",
    "search \"Carlsen\"",
    "firstcomment \"1\"",
    "diagram ~~ \"1\"",
    "gbr kings ~~ \"a\"",
    "gbr \"0\"",
    "egdiagram > 1",
    "<main>",
    "source",
    "\"MC\"",
];

const REFUSED_WORDS: [&str; 7] = ["any", "arrow", "oldline", "pgn", "substring", "transform", "piecepath"];

impl Generator<'_> {
    fn query(&mut self) -> Node {
        let mut parts = self.header();
        if self.rng.percent(4) {
            // Two positions kept, for what compares positions (`consecutivemoves`).
            for _ in 0..2 {
                let name = self.fresh(Self::stem(Ty::Pos));
                let value = self.pos(self.depth.saturating_sub(2));
                parts.push(optional(vec![node(Node::new(
                    Ty::Filter,
                    vec![word(name.clone()), word("="), node(value)],
                ))]));
                self.declare(&name, Holds::Value(Ty::Pos));
            }
        }
        let filters = self.rng.between(1, 4);
        for _ in 0..filters {
            let filter = match self.rng.below(100) {
                0..30 => self.assignment(),
                30..34 => self.function_definition(),
                34..42 => self.dictionary(),
                _ => self.filter(self.depth),
            };
            parts.push(optional(vec![node(filter)]));
        }
        Node::new(Ty::Frame, parts)
    }

    /// `cql(parameters)`, each parameter one the shrinker may leave out.
    fn header(&mut self) -> Vec<Part> {
        let mut parameters = Vec::new();
        if self.rng.percent(30) {
            parameters.push("variations".to_owned());
        }
        match self.rng.below(16) {
            0 => parameters.push("quiet".to_owned()),
            1 => parameters.push("silent".to_owned()),
            2 => parameters.push(format!("matchcount {} {}", self.rng.between(1, 3), self.rng.between(3, 50))),
            3 => parameters.push(format!("gamenumber {} {}", self.rng.between(1, 20), self.rng.between(20, 80))),
            4 => parameters.push(format!("result {}", self.rng.pick(&["1-0", "0-1", "1/2-1/2"]))),
            5 => parameters.push("matchstring \"found\"".to_owned()),
            6 => parameters.push(format!("sort matchcount {} {}", self.rng.between(0, 2), self.rng.between(2, 90))),
            7 => parameters.push("input @GAMES@".to_owned()),
            8 => parameters.push("output header-out.pgn".to_owned()),
            9 => parameters.push(format!("gamenumber {}", self.rng.between(1, 60))),
            _ => {}
        }
        let mut parts = vec![word("cql(")];
        parts.extend(parameters.into_iter().map(|parameter| optional(vec![glued(" "), glued(parameter)])));
        parts.push(glued(")"));
        parts
    }

    /// A fresh variable name: letters only, so that no name reads as a square or a piece.
    fn fresh(&mut self, stem: &str) -> String {
        self.names += 1;
        let mut n = self.names;
        let mut suffix = String::new();
        loop {
            suffix.insert(0, char::from(b'a' + (n % 26) as u8));
            n /= 26;
            if n == 0 {
                break;
            }
        }
        format!("{stem}{suffix}")
    }

    fn stem(ty: Ty) -> &'static str {
        match ty {
            Ty::Set => "zone",
            Ty::Num => "count",
            Ty::Pos => "spot",
            Ty::Str => "label",
            Ty::Filter | Ty::Frame => "flag",
        }
    }

    fn variable(&mut self, holds: Holds) -> Option<String> {
        let fitting: Vec<String> =
            self.vars.iter().filter(|var| var.holds == holds).map(|var| var.name.clone()).collect();
        (!fitting.is_empty()).then(|| self.rng.pick(&fitting).clone())
    }

    fn declare(&mut self, name: &str, holds: Holds) {
        self.vars.push(Variable { name: name.to_owned(), holds });
    }

    /// An assignment, the variable then in scope for the filters after it.
    fn assignment(&mut self) -> Node {
        let d = self.depth - 1;
        if self.rng.percent(10) {
            let name = self.fresh("piece");
            let set = self.set(d);
            self.declare(&name, Holds::Piece);
            let head = if self.unicode && self.rng.percent(60) {
                vec![word(format!("◭{name}")), word("=")]
            } else if self.rng.percent(20) {
                vec![word(format!("[Aa]{name}")), word("=")]
            } else {
                vec![word("piece"), word(name), word("=")]
            };
            return Node::new(Ty::Filter, head.into_iter().chain([node(set)]).collect());
        }
        let ty = *self.rng.pick(&[Ty::Set, Ty::Num, Ty::Num, Ty::Pos, Ty::Str]);
        let value = self.of(ty, d);
        if let Some(name) = self.variable(Holds::Value(ty))
            && self.rng.percent(40)
        {
            let op = match ty {
                Ty::Num => *self.rng.pick(&["+=", "-=", "*=", "/=", "%=", "="]),
                Ty::Set => *self.rng.pick(&["|=", "&=", "=?", "="]),
                Ty::Str => *self.rng.pick(&["+=", "="]),
                _ => "=",
            };
            let op = match op {
                "|=" => self.spelled("|=", "∪="),
                "&=" => self.spelled("&=", "∩="),
                other => other,
            };
            return Node::new(Ty::Filter, vec![word(name), word(op), node(value)]);
        }
        let name = self.fresh(Self::stem(ty));
        let mut parts = Vec::new();
        if matches!(ty, Ty::Num | Ty::Str) {
            match self.rng.below(10) {
                0 => parts.push(word("persistent")),
                1 => parts.extend([word("persistent"), word("quiet")]),
                2 => parts.push(word("atomic")),
                _ => {}
            }
        }
        let op = if ty == Ty::Set && self.rng.percent(10) { "=?" } else { "=" };
        parts.extend([word(name.clone()), word(op), node(value)]);
        self.declare(&name, Holds::Value(ty));
        Node::new(Ty::Filter, parts)
    }

    /// `function name(a b) { body }`, the function then callable.
    fn function_definition(&mut self) -> Node {
        let name = self.fresh("func");
        let arity = self.rng.below(3);
        let parameters: Vec<String> = (0..arity).map(|_| self.fresh("arg")).collect();
        for parameter in &parameters {
            self.declare(parameter, Holds::Value(Ty::Set));
        }
        let body = self.filter(self.depth - 1);
        self.vars.truncate(self.vars.len() - arity);
        self.functions.push((name.clone(), arity));
        let mut parts = vec![word("function"), word(name), glued("(")];
        parts.extend(parameters.into_iter().map(word));
        parts.extend([word(")"), word("{"), node(body), word("}")]);
        Node::new(Ty::Filter, parts)
    }

    /// `[local|persistent] dictionary D` and an entry set: `D[key] = value`. Keys and values
    /// are numbers, texts or sets (and positions, in a local dictionary).
    fn dictionary(&mut self) -> Node {
        let name = self.fresh("Dict");
        let mut parts = Vec::new();
        let local = match self.rng.below(3) {
            0 => {
                parts.push(word("local"));
                true
            }
            1 => {
                parts.push(word("persistent"));
                false
            }
            _ => false,
        };
        let types: &[Ty] = if local { &[Ty::Str, Ty::Num, Ty::Set, Ty::Pos] } else { &[Ty::Str, Ty::Num, Ty::Set] };
        // Texts as keys twice as often: they are what real queries count by.
        let key = if self.rng.percent(20) { Ty::Str } else { *self.rng.pick(types) };
        let value = *self.rng.pick(types);
        parts.extend([word("dictionary"), word(name.clone())]);
        let store = self.store(&name, key, value);
        parts.push(optional(store));
        self.declare(&name, Holds::Dictionary { key, value });
        Node::new(Ty::Filter, parts)
    }

    /// `D[key] = value`.
    fn store(&mut self, name: &str, key: Ty, value: Ty) -> Vec<Part> {
        let d = self.depth.saturating_sub(2);
        let mut parts = self.entry(name, key);
        parts.extend([word("="), node(self.of(value, d))]);
        parts
    }

    /// `D[key]`: a key in parentheses but for texts and numbers (CQL 6.2 reads `D[a1]` as D
    /// and the square list `[a1]`).
    fn entry(&mut self, name: &str, key: Ty) -> Vec<Part> {
        let d = self.depth.saturating_sub(2);
        let key = self.of(key, d);
        let bare = matches!(key.ty, Ty::Str) || (key.ty == Ty::Num && self.rng.percent(50));
        let mut parts = vec![word(name.to_owned()), glued("[")];
        if bare {
            parts.push(node(key));
        } else {
            parts.extend([word("("), node(key), word(")")]);
        }
        parts.push(word("]"));
        parts
    }

    /// A dictionary in scope whose values are of type `value` (of any type with none).
    fn dictionary_of(&mut self, value: Option<Ty>) -> Option<(String, Ty, Ty)> {
        let fitting: Vec<(String, Ty, Ty)> = self
            .vars
            .iter()
            .filter_map(|var| match var.holds {
                Holds::Dictionary { key, value: held } if value.is_none_or(|value| value == held) => {
                    Some((var.name.clone(), key, held))
                }
                _ => None,
            })
            .collect();
        (!fitting.is_empty()).then(|| self.rng.pick(&fitting).clone())
    }

    /// Now and then, where a value of type `ty` is wanted, a dictionary's entry of that type.
    fn entry_value(&mut self, ty: Ty) -> Option<Node> {
        if !self.rng.percent(8) {
            return None;
        }
        let (name, key, _) = self.dictionary_of(Some(ty))?;
        let parts = self.entry(&name, key);
        Some(Node::new(ty, parts))
    }

    /// A filter on a dictionary: an entry as a test, a store, `unbind`, a walk over its keys.
    fn dictionary_filter(&mut self, d: usize) -> Option<Vec<Part>> {
        let (name, key, value) = self.dictionary_of(None)?;
        Some(match self.rng.below(6) {
            0 => self.entry(&name, key),
            1 => self.store(&name, key, value),
            2 => vec![word("unbind"), word(name)],
            3 => {
                let mut parts = vec![word("unbind")];
                parts.extend(self.entry(&name, key));
                parts
            }
            _ => {
                let variable = self.fresh("key");
                self.declare(&variable, Holds::Value(key));
                let body = self.filter(d);
                self.vars.pop();
                // `string K in D` over a dictionary of texts (over others, refused).
                let string = self.rng.percent(if key == Ty::Str { 75 } else { 20 });
                let head = match self.rng.below(3) {
                    _ if string => vec![word("string"), word(variable), word("in")],
                    0 | 1 => vec![word(variable), word("∊")],
                    _ => vec![word(variable), word("[element]")],
                };
                head.into_iter().chain([word(name), node(body)]).collect()
            }
        })
    }

    fn of(&mut self, ty: Ty, depth: usize) -> Node {
        match ty {
            Ty::Set => self.set(depth),
            Ty::Num => self.num(depth),
            Ty::Pos => self.pos(depth),
            Ty::Str => self.string(depth),
            Ty::Filter | Ty::Frame => self.filter(depth),
        }
    }

    fn any_value(&mut self, depth: usize) -> Node {
        let ty = *self.rng.pick(&[Ty::Set, Ty::Set, Ty::Num, Ty::Num, Ty::Pos, Ty::Str, Ty::Str]);
        self.of(ty, depth)
    }

    /// A range of numbers before a filter or a set: `N`, `N M`, a numeric variable.
    fn range(&mut self, low: i64, high: i64) -> Vec<Part> {
        if let Some(name) = self.variable(Holds::Value(Ty::Num))
            && self.rng.percent(15)
        {
            return vec![word(name)];
        }
        let first = self.rng.between(low, high);
        if self.rng.percent(50) {
            vec![word(first.to_string()), word(self.rng.between(first, high).to_string())]
        } else {
            vec![word(first.to_string())]
        }
    }

    // Sets of squares.

    fn set(&mut self, depth: usize) -> Node {
        if let Some(entry) = self.entry_value(Ty::Set) {
            return entry;
        }
        if depth == 0 || self.rng.percent(30) {
            return self.set_leaf();
        }
        let d = depth - 1;
        let parts = match self.rng.below(22) {
            0 => self.infix(Ty::Set, d, &["|", "∪"]),
            1 => self.infix(Ty::Set, d, &["&", "∩"]),
            2 => {
                let set = self.set(d);
                vec![word("~"), self.operand(set)]
            }
            3 => self.infix(Ty::Set, d, &["attacks", "attackedby", "attack", "attacked by"]),
            4 => {
                let arrow = if self.rng.percent(50) { self.spelled("->", "→") } else { self.spelled("<-", "←") };
                let mut parts = self.infix(Ty::Set, d, &[arrow]);
                if self.rng.percent(25) {
                    let set = self.set(d);
                    parts.extend([word(arrow), self.operand(set)]);
                }
                parts
            }
            5 | 6 => {
                let mut parts = vec![word(*self.rng.pick(&DIRECTIONS))];
                let set = self.set(d);
                // `6 .` reads as a number with a decimal point.
                if self.rng.percent(50) && !set.render().starts_with('.') {
                    parts.extend(self.range(0, 7));
                }
                parts.push(node(set));
                parts
            }
            7 => vec![word("between"), glued("("), node(self.set(d)), node(self.set(d)), word(")")],
            8 => vec![word(*self.rng.pick(&["light", "dark"])), node(self.set(d))],
            9 => {
                let mut parts = vec![word("pin")];
                for key in ["from", "through", "to"] {
                    if self.rng.percent(40) {
                        parts.push(optional(vec![word(key), node(self.set(d))]));
                    }
                }
                parts
            }
            10 => {
                let mut parts = vec![word(if self.rng.percent(80) { "ray" } else { "xray" })];
                if parts[0] == word("ray") {
                    match self.rng.below(4) {
                        0 => parts.push(word(*self.rng.pick(&DIRECTIONS))),
                        1 => parts.push(word(*self.rng.pick(&["attack", "attacks"]))),
                        2 => {
                            let first = self.rng.below(DIRECTIONS.len());
                            let second = (first + 1 + self.rng.below(DIRECTIONS.len() - 1)) % DIRECTIONS.len();
                            parts.push(word(DIRECTIONS[first]));
                            parts.push(word(DIRECTIONS[second]));
                        }
                        _ => {}
                    }
                }
                parts.push(word("("));
                for _ in 0..self.rng.between(2, 3) {
                    parts.push(node(self.set(d)));
                }
                parts.push(word(")"));
                parts
            }
            11 => {
                if self.rng.percent(70) {
                    vec![word("makesquare"), word("("), node(self.num(d)), node(self.num(d)), word(")")]
                } else {
                    vec![word("makesquare"), node(self.string(d))]
                }
            }
            12 => return self.square_loop(d, false),
            13 => self.at(Ty::Set, d),
            14 => {
                vec![word("if"), node(self.filter(d)), word("then"), node(self.set(d)), word("else"), node(self.set(d))]
            }
            15 => vec![word("("), node(self.set(d)), word(")")],
            16 => {
                let op = self.spelled("&", "∩");
                self.infix(Ty::Pos, d, &[op])
            }
            17 | 18 => match self.variable(Holds::Piece) {
                Some(name) => vec![word(name)],
                None => return self.set_leaf(),
            },
            19 => match self.functions.iter().filter(|(_, arity)| *arity > 0).cloned().collect::<Vec<_>>().as_slice() {
                [] => return self.set_leaf(),
                functions => {
                    let (name, arity) = self.rng.pick(functions).clone();
                    let mut parts = vec![word(name), if self.rng.percent(20) { word("(") } else { glued("(") }];
                    for _ in 0..arity {
                        parts.push(node(self.set(d)));
                    }
                    parts.push(word(")"));
                    return Node::new(Ty::Filter, parts);
                }
            },
            _ => match self.variable(Holds::Value(Ty::Set)) {
                Some(name) => vec![word(name)],
                None => return self.set_leaf(),
            },
        };
        Node::new(Ty::Set, parts)
    }

    /// `square [all] x in S F`, `piece [all] x in S F` and their Unicode and bracket spellings:
    /// the squares, or pieces, of S for which F holds (whether it holds for all, with `all`).
    fn square_loop(&mut self, depth: usize, all: bool) -> Node {
        let piece = self.rng.percent(50);
        let name = self.fresh(if piece { "piece" } else { "square" });
        let over = self.set(depth);
        self.declare(&name, if piece { Holds::Piece } else { Holds::Value(Ty::Set) });
        let body = self.filter(depth);
        self.vars.pop();
        let mut parts = Vec::new();
        match self.rng.below(if self.unicode { 2 } else { 4 }) {
            0 if self.unicode => {
                if all {
                    parts.push(word("∀"));
                }
                let head = format!("{}{name}∊", if piece { "◭" } else { "" });
                parts.push(if all { glued(head) } else { word(head) });
            }
            1 | 0 => {
                parts.push(word(if piece { "piece" } else { "square" }));
                if all {
                    parts.push(word("all"));
                }
                parts.extend([word(name), word("in")]);
            }
            _ => {
                let forall = if all { "[forall]" } else { "" };
                let piece_mark = if piece { "[Aa]" } else { "" };
                parts.extend([word(format!("{forall}{piece_mark}{name}")), word("[element]")]);
            }
        }
        parts.extend([node(over), node(body)]);
        Node::new(if all { Ty::Filter } else { Ty::Set }, parts)
    }

    fn set_leaf(&mut self) -> Node {
        let text = match self.rng.below(12) {
            0 => self.spelled(".", "▦").to_owned(),
            1 => self.squares(),
            2 => self.rng.pick(&SET_WORDS).to_string(),
            3 => "[]".to_owned(),
            4 => match self.variable(Holds::Value(Ty::Set)).or_else(|| self.variable(Holds::Piece)) {
                Some(name) => name,
                None => self.squares(),
            },
            _ => {
                let piece = if self.unicode && self.rng.percent(50) {
                    self.rng.pick(&FIGURINES).to_string()
                } else {
                    self.rng.pick(&PIECES).to_string()
                };
                if self.rng.percent(60) { format!("{piece}{}", self.squares()) } else { piece }
            }
        };
        Node::word(Ty::Set, text)
    }

    /// A square designator: a square, ranges, or a list of them.
    fn squares(&mut self) -> String {
        let one = |rng: &mut Rng| -> String {
            let file = |rng: &mut Rng| char::from(b'a' + rng.below(8) as u8);
            let rank = |rng: &mut Rng| char::from(b'1' + rng.below(8) as u8);
            let mut text = String::new();
            let (a, b) = (file(rng), file(rng));
            text.push(a.min(b));
            if a != b && rng.percent(40) {
                text.push('-');
                text.push(a.max(b));
            }
            let (c, d) = (rank(rng), rank(rng));
            text.push(c.min(d));
            if c != d && rng.percent(40) {
                text.push('-');
                text.push(c.max(d));
            }
            text
        };
        if self.rng.percent(20) {
            let items: Vec<String> = (0..self.rng.between(1, 3)).map(|_| one(self.rng)).collect();
            format!("[{}]", items.join(","))
        } else {
            one(self.rng)
        }
    }

    /// A move's dash: `K--e4`, `--`, `Q[x]r`, `×`, `P--e8=Q`, with a target `(F)` glued to it.
    fn dash(&mut self, depth: usize) -> Node {
        let piece = |generator: &mut Generator<'_>| {
            if generator.rng.percent(50) { generator.designator() } else { String::new() }
        };
        let from = piece(self);
        let capture = self.rng.percent(30);
        let sign = match (capture, self.unicode && self.rng.percent(60)) {
            (false, false) => "--",
            (false, true) => "――",
            (true, false) => "[x]",
            (true, true) => "×",
        };
        let to = piece(self);
        let promotion =
            if self.rng.percent(10) { format!("={}", self.rng.pick(&["Q", "N", "[QR]", "q"])) } else { String::new() };
        let mut parts = vec![word(format!("{from}{sign}{to}{promotion}"))];
        if self.rng.percent(30) {
            parts.extend([glued("("), node(self.filter(depth)), word(")")]);
        }
        Node::new(Ty::Filter, parts)
    }

    /// A piece designator, with squares or without, or squares alone.
    fn designator(&mut self) -> String {
        let piece = if self.unicode && self.rng.percent(50) {
            self.rng.pick(&FIGURINES).to_string()
        } else {
            self.rng.pick(&PIECES).to_string()
        };
        match self.rng.below(3) {
            0 => piece,
            1 => format!("{piece}{}", self.squares()),
            _ => self.squares(),
        }
    }

    /// The dash of `legal` and `pseudolegal`: no capture, and a target only of castling or en
    /// passant.
    fn legal_dash(&mut self) -> Node {
        let from = if self.rng.percent(70) { self.designator() } else { String::new() };
        let to = if self.rng.percent(50) { self.designator() } else { String::new() };
        let sign = self.spelled("--", "――");
        let mut parts = vec![word(format!("{from}{sign}{to}"))];
        if self.rng.percent(20) {
            parts.extend([glued("("), word(*self.rng.pick(&["o-o", "o-o-o", "castle", "enpassant"])), word(")")]);
        }
        Node::new(Ty::Filter, parts)
    }

    /// `left OP right`, both of kind `ty`, OP one of `ops`.
    fn infix(&mut self, ty: Ty, depth: usize, ops: &[&'static str]) -> Vec<Part> {
        let op = *self.rng.pick(ops);
        let (left, right) = (self.of(ty, depth), self.of(ty, depth));
        vec![self.operand(left), word(op), self.operand(right)]
    }

    /// `P : X`, X of kind `ty`.
    fn at(&mut self, ty: Ty, depth: usize) -> Vec<Part> {
        let (position, value) = (self.pos(depth), self.of(ty, depth));
        vec![self.operand(position), word(":"), self.operand(value)]
    }

    // Numbers.

    fn num(&mut self, depth: usize) -> Node {
        if let Some(entry) = self.entry_value(Ty::Num) {
            return entry;
        }
        if depth == 0 || self.rng.percent(30) {
            return self.num_leaf();
        }
        let d = depth - 1;
        let parts = match self.rng.below(26) {
            0 | 1 => vec![word("#"), node(self.set(d))],
            2 => vec![word("#"), node(self.string(d))],
            3 => self.infix(Ty::Num, d, &["+", "-", "*", "/", "%"]),
            4 => {
                let number = self.num(d);
                vec![word("-"), self.operand(number)]
            }
            5 => vec![word(*self.rng.pick(&["abs", "sqrt"])), node(self.num(d))],
            6 => {
                let mut parts = vec![word(*self.rng.pick(&["min", "max"])), word("(")];
                for _ in 0..self.rng.between(2, 3) {
                    parts.push(node(self.num(d)));
                }
                parts.push(word(")"));
                parts
            }
            7 => vec![word("power"), node(self.set(d))],
            8 => vec![word(*self.rng.pick(&["rank", "file", "type", "colortype", "pieceid"])), node(self.set(d))],
            9 => self.at(Ty::Num, d),
            10 => {
                vec![word("if"), node(self.filter(d)), word("then"), node(self.num(d)), word("else"), node(self.num(d))]
            }
            11 => vec![word("("), node(self.num(d)), word(")")],
            12 => {
                let mut parts = vec![word("elo")];
                if self.rng.percent(80) {
                    parts.push(word(*self.rng.pick(&["white", "black"])));
                }
                parts
            }
            13 => vec![word("find"), word("all"), node(self.filter(d))],
            14 => {
                let transform = self.transform_word();
                vec![word(transform), word("count"), node(self.filter(d))]
            }
            15 => {
                let mut parts = vec![word("move"), word(*self.rng.pick(&["legal", "pseudolegal"])), word("count")];
                if self.rng.percent(50) {
                    parts.push(optional(vec![word(*self.rng.pick(&["from", "to", "capture"])), node(self.set(d))]));
                }
                parts
            }
            16 => {
                let mut parts = vec![word("countmoves")];
                if self.rng.percent(60) {
                    parts.push(word(*self.rng.pick(&["legal", "pseudolegal"])));
                    parts.push(node(self.legal_dash()));
                } else {
                    parts.push(node(self.dash(d)));
                }
                parts
            }
            17 => vec![word("ascii"), node(self.string(d))],
            18 => vec![word("int"), node(Node::word(Ty::Str, format!("\"{}\"", self.rng.between(0, 99))))],
            19 => vec![word("indexof"), word("("), node(self.string(d)), node(self.string(d)), word(")")],
            20 => vec![word("distance"), word("("), node(self.pos(d)), node(self.pos(d)), word(")")],
            21 => return self.line(d, Ty::Num),
            22 => match self.pair_of_positions() {
                Some((first, second)) => {
                    let mut parts = vec![word("consecutivemoves")];
                    if self.rng.percent(30) {
                        parts.push(word("quiet"));
                    }
                    parts.extend([word("("), word(first), word(second), word(")")]);
                    parts
                }
                None => return self.num_leaf(),
            },
            23 => match self.dictionary_of(None) {
                Some((name, key, Ty::Num)) if self.rng.percent(50) => self.entry(&name, key),
                Some((name, ..)) => vec![word("#"), word(name)],
                None => return self.num_leaf(),
            },
            24 => return self.path(d, Ty::Num),
            _ => match self.variable(Holds::Value(Ty::Num)) {
                Some(name) => vec![word(name)],
                None => return self.num_leaf(),
            },
        };
        Node::new(Ty::Num, parts)
    }

    fn pair_of_positions(&mut self) -> Option<(String, String)> {
        let names: Vec<String> =
            self.vars.iter().filter(|var| var.holds == Holds::Value(Ty::Pos)).map(|var| var.name.clone()).collect();
        (names.len() >= 2).then(|| {
            let first = self.rng.below(names.len());
            let second = (first + 1 + self.rng.below(names.len() - 1)) % names.len();
            (names[first].clone(), names[second].clone())
        })
    }

    fn num_leaf(&mut self) -> Node {
        let text = match self.rng.below(7) {
            0 | 1 => self.rng.pick(&NUMBER_WORDS).to_string(),
            2 => self.rng.between(0, 1000).to_string(),
            3 if self.rng.percent(10) => "lastgamenumber".to_owned(),
            4 => match self.variable(Holds::Value(Ty::Num)) {
                Some(name) => name,
                None => self.rng.between(0, 9).to_string(),
            },
            _ => self.rng.between(0, 9).to_string(),
        };
        Node::word(Ty::Num, text)
    }

    // Positions.

    fn pos(&mut self, depth: usize) -> Node {
        if let Some(entry) = self.entry_value(Ty::Pos) {
            return entry;
        }
        if depth > 0 && self.rng.percent(30) {
            let d = depth - 1;
            let parts = match self.rng.below(5) {
                0 => vec![word("lca"), word("("), node(self.pos(d)), node(self.pos(d)), word(")")],
                1 => vec![word("find"), node(self.filter(d))],
                2 => vec![word("find"), word("<--"), node(self.filter(d))],
                3 => vec![word("position"), node(self.num(d))],
                _ => return self.line(d, Ty::Pos),
            };
            return Node::new(Ty::Pos, parts);
        }
        if let Some(name) = self.variable(Holds::Value(Ty::Pos))
            && self.rng.percent(40)
        {
            return Node::word(Ty::Pos, name);
        }
        let text = match self.rng.below(9) {
            0 => self.spelled("currentposition", "∙").to_owned(),
            1 => "curpos".to_owned(),
            2 => "initialposition".to_owned(),
            3 => "parent".to_owned(),
            4 => "child".to_owned(),
            5 => "pathstart".to_owned(),
            6 => "pathlastposition".to_owned(),
            _ => format!("child({})", self.rng.between(0, 2)),
        };
        Node::word(Ty::Pos, text)
    }

    // Strings.

    fn string(&mut self, depth: usize) -> Node {
        if let Some(entry) = self.entry_value(Ty::Str) {
            return entry;
        }
        if depth > 0 && self.rng.percent(45) {
            let d = depth - 1;
            let parts = match self.rng.below(13) {
                0 | 1 => self.infix(Ty::Str, d, &["+"]),
                2 => vec![word(*self.rng.pick(&["lowercase", "uppercase"])), node(self.string(d))],
                3 => vec![word(*self.rng.pick(&["typename", "piecename"])), node(self.set(d))],
                4 => vec![word("("), word("player"), word(*self.rng.pick(&["white", "black"])), word(")")],
                5 => {
                    let mut parts = vec![word("str"), word("(")];
                    for _ in 0..self.rng.between(1, 3) {
                        parts.push(node(self.any_value(d)));
                    }
                    parts.push(word(")"));
                    parts
                }
                6 => vec![word("ascii"), node(Node::word(Ty::Num, self.rng.between(32, 126).to_string()))],
                7 => {
                    let low = self.rng.between(0, 3);
                    let index = if self.rng.percent(50) {
                        low.to_string()
                    } else {
                        format!("{low}:{}", self.rng.between(low, 6))
                    };
                    let string = self.string(d);
                    vec![self.operand(string), glued(format!("[{index}]"))]
                }
                8 => {
                    let string = self.string(d);
                    vec![
                        self.operand(string),
                        word("~~"),
                        word(format!("\"{}\"", self.rng.pick(&["(B)", "a", "[0-9]+", "^1", "(.)(.)"]))),
                    ]
                }
                9 => vec![
                    word(*self.rng.pick(&["max", "min"])),
                    word("("),
                    node(self.string(d)),
                    node(self.string(d)),
                    word(")"),
                ],
                10 => vec![
                    word("tag"),
                    word(format!("\"{}\"", self.rng.pick(&["White", "ECO", "Opening", "TimeControl", "Nothing"]))),
                ],
                11 => self.at(Ty::Str, d),
                _ => vec![word("readfile"), word("\"@GAMES@\"")],
            };
            return Node::new(Ty::Str, parts);
        }
        if let Some(name) = self.variable(Holds::Value(Ty::Str))
            && self.rng.percent(40)
        {
            return Node::word(Ty::Str, name);
        }
        match self.rng.below(7) {
            // A tag's word takes a string after it as a search (`event "x"`): in parentheses
            // it stands alone.
            0 | 1 => {
                let tag = Node::word(Ty::Str, *self.rng.pick(&STRING_WORDS));
                if self.rng.percent(60) { Node::new(Ty::Str, vec![word("("), node(tag), word(")")]) } else { tag }
            }
            // The name of the transform a filter is tested under.
            2 if self.rng.percent(10) => Node::word(Ty::Str, "currenttransform"),
            _ => Node::word(Ty::Str, format!("\"{}\"", self.rng.pick(&TEXTS))),
        }
    }

    // Filters.

    fn filter(&mut self, depth: usize) -> Node {
        if depth == 0 {
            return if self.rng.percent(50) { Node::word(Ty::Filter, *self.rng.pick(&WORDS)) } else { self.set_leaf() };
        }
        let d = depth - 1;
        let parts = match self.rng.below(44) {
            0 | 1 => match self.rng.percent(20).then(|| self.dictionary_filter(d)).flatten() {
                Some(parts) => parts,
                None => return Node::word(Ty::Filter, *self.rng.pick(&WORDS)),
            },
            2 | 3 => return self.set(depth),
            4 => vec![word("not"), node(self.filter(d))],
            5 => vec![node(self.filter(d)), word(*self.rng.pick(&["and", "or"])), node(self.filter(d))],
            6 => {
                let mut parts = vec![word("{")];
                for _ in 0..self.rng.between(1, 3) {
                    parts.push(optional(vec![node(self.filter(d))]));
                }
                parts.push(word("}"));
                parts
            }
            7 | 8 => {
                let op = self.relation();
                self.infix(Ty::Num, d, &[op])
            }
            9 => {
                if self.rng.percent(50) {
                    self.infix(Ty::Set, d, &["==", "in", "!="])
                } else {
                    let (set, op, number) = (self.set(d), self.relation(), self.num(d));
                    vec![self.operand(set), word(op), self.operand(number)]
                }
            }
            10 => self.infix(Ty::Str, d, &["==", "<", "in", "!=", ">="]),
            11 => self.infix(Ty::Pos, d, &["==", "[<]", "[>]", "[<=]", "[>=]", "≺", "≻", "≼", "≽"]),
            12 | 13 => return self.move_filter(d),
            14 => return self.line(d, Ty::Filter),
            15 => {
                let mut parts = vec![word(self.transform_word())];
                if self.rng.percent(20) {
                    parts.extend(self.range(0, 8));
                }
                parts.push(node(self.filter(d)));
                parts
            }
            16 => {
                let mut parts = vec![word("find")];
                if self.rng.percent(30) {
                    parts.push(word("quiet"));
                }
                match self.rng.below(4) {
                    0 => parts.push(word("all")),
                    1 => parts.extend(self.range(0, 20)),
                    2 => parts.push(word("<--")),
                    _ => {}
                }
                parts.push(node(self.filter(d)));
                parts
            }
            17 => {
                let (source, target) = (self.fresh("spot"), self.fresh("spot"));
                self.declare(&source, Holds::Value(Ty::Pos));
                self.declare(&target, Holds::Value(Ty::Pos));
                let body = self.filter(d);
                self.vars.truncate(self.vars.len() - 2);
                let mut parts = vec![word("echo")];
                if self.rng.percent(20) {
                    parts.push(word("quiet"));
                }
                parts.extend([word("("), word(source), word(target), word(")")]);
                if self.rng.percent(30) {
                    parts.extend([word("in"), word("all")]);
                }
                parts.push(node(body));
                parts
            }
            18 | 19 => {
                let key = *self.rng.pick(&["comment", "message"]);
                let mut parts = vec![word(key)];
                if key == "message" && self.rng.percent(25) {
                    parts.push(word("quiet"));
                }
                if self.rng.percent(20) {
                    parts.push(node(self.any_value(d)));
                } else {
                    parts.push(word("("));
                    for _ in 0..self.rng.between(1, 3) {
                        parts.push(node(if self.rng.percent(40) {
                            Node::word(Ty::Str, "\"at\"")
                        } else {
                            self.any_value(d)
                        }));
                    }
                    parts.push(word(")"));
                }
                parts
            }
            20 => {
                let mut parts = vec![word("if"), node(self.filter(d))];
                if self.rng.percent(70) {
                    parts.push(word("then"));
                }
                parts.push(node(self.filter(d)));
                if self.rng.percent(50) {
                    parts.push(optional(vec![word("else"), node(self.filter(d))]));
                }
                parts
            }
            21 => vec![word("result"), word(*self.rng.pick(&["1-0", "0-1", "1/2-1/2"]))],
            22 => self.at(Ty::Filter, d),
            23 => {
                let mut parts = vec![word("sort")];
                if self.rng.percent(20) {
                    parts.push(word("quiet"));
                }
                match self.rng.below(3) {
                    0 => parts.extend([word(*self.rng.pick(&["min", "max"])), word("\"doc\"")]),
                    1 => parts.push(word("\"doc\"")),
                    _ => {}
                }
                let value = if self.rng.percent(70) { self.num(d) } else { self.set(d) };
                parts.push(node(value));
                parts
            }
            24 => return self.square_loop(d, true),
            25 => vec![word("("), node(self.filter(d)), word(")")],
            26 => return self.dash(d),
            27 => {
                let key = *self.rng.pick(&["currentmove", "previous", "legal", "pseudolegal"]);
                let dash = if key.ends_with("legal") { self.legal_dash() } else { self.dash(d) };
                vec![word(key), node(dash)]
            }
            28 => {
                let key = *self.rng.pick(&["ancestor", "descendant"]);
                vec![word(key), word("("), node(self.pos(d)), node(self.pos(d)), word(")")]
            }
            29 => {
                let ty = *self.rng.pick(&[Ty::Set, Ty::Num, Ty::Str, Ty::Pos]);
                vec![word("equal"), word("("), node(self.of(ty, d)), node(self.of(ty, d)), word(")")]
            }
            30 => {
                let Some(name) = self.vars.last().map(|var| var.name.clone()) else {
                    return Node::word(Ty::Filter, *self.rng.pick(&WORDS));
                };
                let key = *self.rng.pick(&["isbound", "isunbound", "unbind"]);
                let name = if key != "unbind" && self.rng.percent(30) { format!("\"{name}\"") } else { name };
                vec![word(key), word(name)]
            }
            31 => {
                let key = *self.rng.pick(&["player", "event", "site", "date", "eco", "hascomment", "eventdate"]);
                let mut parts = vec![word(key)];
                if key == "player" && self.rng.percent(50) {
                    parts.push(word(*self.rng.pick(&["white", "black"])));
                }
                if self.rng.percent(30) {
                    parts.extend([word("~~"), word(format!("\"{}\"", self.rng.pick(&["a", "[0-9]", "B"])))]);
                } else {
                    parts.push(word(format!("\"{}\"", self.rng.pick(&TEXTS[..4]))));
                }
                parts
            }
            32 => vec![word("settag"), word("("), word("\"Found\""), node(self.string(d)), word(")")],
            33 => vec![word("writefile"), word("("), word("\"found.cqo\""), node(self.string(d)), word(")")],
            34 => {
                // Mostly an assertion that holds, so that the run goes on.
                let filter = self.filter(d);
                if self.rng.percent(70) {
                    vec![
                        word("assert"),
                        word("{"),
                        node(filter.clone()),
                        word("or"),
                        word("not"),
                        word("("),
                        node(filter),
                        word(")"),
                        word("}"),
                    ]
                } else {
                    vec![word("assert"), node(filter)]
                }
            }
            35 => {
                // Loops that end: a counter bounds them, where a numeric variable is in scope.
                let body = self.filter(d);
                let Some(counter) = self.variable(Holds::Value(Ty::Num)) else {
                    return Node::new(Ty::Filter, vec![word("while"), word("("), word("false"), word(")"), node(body)]);
                };
                let bound = self.rng.between(0, 5).to_string();
                let step = vec![word(counter.clone()), word("+="), word("1")];
                if self.rng.percent(50) {
                    let mut parts = vec![
                        word("while"),
                        word("("),
                        word(counter.clone()),
                        word("<"),
                        word(bound),
                        word(")"),
                        word("{"),
                    ];
                    parts.extend(step);
                    parts.extend([node(body), word("}")]);
                    parts
                } else {
                    let mut parts = vec![word("loop"), word("{")];
                    parts.extend(step);
                    parts.extend([word(counter), word("<"), word(bound), node(body), word("}")]);
                    parts
                }
            }
            36 => return self.path(d, Ty::Filter),
            37 => {
                let (name, arity) = match self.functions.as_slice() {
                    [] => return Node::word(Ty::Filter, *self.rng.pick(&WORDS)),
                    functions => self.rng.pick(functions).clone(),
                };
                let mut parts = vec![word(name), if self.rng.percent(20) { word("(") } else { glued("(") }];
                for _ in 0..arity {
                    parts.push(node(self.set(d)));
                }
                parts.push(word(")"));
                parts
            }
            38 => match self.dictionary_filter(d) {
                Some(parts) => parts,
                None => return Node::word(Ty::Filter, *self.rng.pick(&WORDS)),
            },
            39 => {
                let string = self.string(d);
                let mut parts = vec![word("{"), self.operand(string), word("~~"), word("\"(.)(.)\"")];
                if self.rng.percent(50) {
                    let (op, number) = (self.relation(), self.num(d));
                    parts.extend([word("\\-1"), word(op), self.operand(number)]);
                } else {
                    let string = self.string(d);
                    parts.extend([word(format!("\\{}", self.rng.between(0, 2))), word("=="), self.operand(string)]);
                }
                parts.push(word("}"));
                parts
            }
            40 => match self.rng.below(6) {
                0 => vec![word("false"), word("and"), word("cql_abort")],
                1 => vec![word("cql_assertvariations"), word("\"variations wanted\"")],
                2 => vec![word("hhdb"), word(*self.rng.pick(&HHDB_KEYS))],
                3 => {
                    let mut parts = vec![word("similarposition")];
                    for option in ["nosort", "notransform"] {
                        if self.rng.percent(30) {
                            parts.push(word(option));
                        }
                    }
                    parts.push(word("\"@GAMES@\""));
                    parts
                }
                4 => vec![word(*self.rng.pick(&REFUSED_WORDS))],
                _ => vec![word("/*"), word("a comment"), word("*/"), word(*self.rng.pick(&WORDS))],
            },
            _ => {
                // A value where a filter is wanted: a comparison, so that CQL does not stop on a
                // number or a string that stands alone.
                let ty = *self.rng.pick(&[Ty::Num, Ty::Str, Ty::Pos]);
                match ty {
                    Ty::Pos => {
                        let position = self.pos(d);
                        vec![self.operand(position), word(":"), node(Node::word(Ty::Filter, *self.rng.pick(&WORDS)))]
                    }
                    _ => {
                        let op = self.relation();
                        self.infix(ty, d, &[op])
                    }
                }
            }
        };
        Node::new(Ty::Filter, parts)
    }

    fn relation(&mut self) -> &'static str {
        match *self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]) {
            "<=" => self.spelled("<=", "≤"),
            ">=" => self.spelled(">=", "≥"),
            "!=" => self.spelled("!=", "≠"),
            other => other,
        }
    }

    fn transform_word(&mut self) -> &'static str {
        match *self.rng.pick(&TRANSFORMS) {
            // The two with a symbol, spelled as symbols more often than the unicode share.
            "flip" if self.rng.percent(15) => "✵",
            "flipcolor" if self.rng.percent(15) => "⬓",
            "flip" => self.spelled("flip", "✵"),
            "flipcolor" => self.spelled("flipcolor", "⬓"),
            other => other,
        }
    }

    /// `move [previous|legal|pseudolegal] [from S] [to S] [capture S] [promote P] [enpassant]
    /// [castle|o-o|o-o-o] [null] [primary|secondary] [comment (...)]`.
    fn move_filter(&mut self, depth: usize) -> Node {
        let mut parts = vec![word("move")];
        let when =
            if self.rng.percent(60) { Some(*self.rng.pick(&["previous", "legal", "pseudolegal"])) } else { None };
        if let Some(when) = when {
            parts.push(word(when));
        }
        let legal = when.is_some_and(|when| when.ends_with("legal"));
        for key in ["from", "to", "capture", "captures", "promote", "enpassantsquare"] {
            if legal && matches!(key, "capture" | "captures" | "promote") {
                continue;
            }
            if self.rng.percent(if key == "captures" || key == "enpassantsquare" { 5 } else { 25 }) {
                let value = if key == "promote" {
                    Node::word(Ty::Set, *self.rng.pick(&["Q", "N", "q", "[RB]", "A"]))
                } else {
                    self.set(depth)
                };
                parts.push(optional(vec![word(key), node(value)]));
            }
        }
        if self.rng.percent(25) {
            let flags: &[&str] = if legal {
                &["enpassant", "castle", "o-o", "o-o-o"]
            } else if parts.len() == 1 + usize::from(when.is_some()) {
                &["enpassant", "castle", "o-o", "o-o-o", "null", "null", "primary", "secondary"]
            } else {
                &["castle", "o-o", "o-o-o", "primary", "secondary"]
            };
            parts.push(optional(vec![word(*self.rng.pick(flags))]));
        }
        if self.rng.percent(10) {
            parts.push(optional(vec![word("comment"), word("("), word("\"moved\""), word(")")]));
        }
        Node::new(Ty::Filter, parts)
    }

    /// `line [options] --> F --> F{n,m} ...`, or backwards with `<--`; groups `( --> F --> G )+`.
    fn line(&mut self, depth: usize, ty: Ty) -> Node {
        let mut parts = vec![word("line")];
        let backward = self.rng.percent(20);
        let mut options: Vec<&str> = vec!["quiet", "firstmatch", "singlecolor"];
        if !backward {
            options.extend(["nestban", "primary", "secondary"]);
        }
        for option in options {
            if self.rng.percent(6) {
                parts.push(optional(vec![word(option)]));
            }
        }
        match ty {
            Ty::Pos => parts.push(word("lastposition")),
            Ty::Num if self.rng.percent(40) => parts.push(word("count")),
            _ if self.rng.percent(10) => parts.extend(self.range(0, 20)),
            _ => {}
        }
        let arrow = if backward { "<--" } else { "-->" };
        for _ in 0..self.rng.between(1, 4) {
            let mut step = vec![word(arrow)];
            if self.rng.percent(10) {
                step.extend([word("("), node(self.filter(depth)), word(arrow), node(self.filter(depth)), word(")")]);
            } else {
                step.push(node(self.filter(depth)));
            }
            step.push(self.repetition());
            parts.push(optional(step));
        }
        Node::new(ty, parts)
    }

    /// A repetition after a constituent of a line or a path: `*`, `+`, `?`, `{n}`, `{n,m}`...
    fn repetition(&mut self) -> Part {
        let text = match self.rng.below(12) {
            0 => "*".to_owned(),
            1 => "+".to_owned(),
            2 => "?".to_owned(),
            3 => format!("{{{}}}", self.rng.between(1, 3)),
            4 => {
                let low = self.rng.between(0, 2);
                format!("{{{},{}}}", low, self.rng.between(low, 4))
            }
            5 => format!("{{{},}}", self.rng.between(0, 2)),
            6 => format!("{{,{}}}", self.rng.between(1, 3)),
            7 => (*self.rng.pick(&["{*}", "{+}"])).to_owned(),
            _ => String::new(),
        };
        glued(text)
    }

    /// `{ path [parameters] constituents }`: a path in braces, which end it.
    fn path(&mut self, depth: usize, ty: Ty) -> Node {
        let mut parts = vec![word("{"), word(self.spelled("path", "⊢"))];
        let focus = self.rng.percent(25);
        if focus {
            parts.push(word(self.spelled("focus", "◎")));
            if self.rng.percent(20) {
                parts.push(word("capture"));
            }
            parts.push(node(self.set(depth)));
            if self.rng.percent(20) {
                parts.push(optional(vec![word("piecepath")]));
            }
        }
        for option in ["quiet", "verbose", "nestban", "firstmatch", "keepallbest"] {
            if self.rng.percent(6) {
                parts.push(optional(vec![word(option)]));
            }
        }
        if !focus && self.rng.percent(10) {
            parts.push(optional(vec![word(*self.rng.pick(&["singlecolor", "primary"]))]));
        }
        if self.rng.percent(8) {
            parts.push(optional(vec![word("title"), word("\"a path\"")]));
        }
        if self.rng.percent(8) {
            parts.push(optional(vec![word("max"), node(self.num(depth))]));
        }
        match ty {
            Ty::Num => parts.push(word("count")),
            Ty::Pos => parts.push(word("lastposition")),
            _ if self.rng.percent(10) => parts.extend(self.range(0, 10)),
            _ => {}
        }
        for _ in 0..self.rng.between(1, 3) {
            let constituent = match self.rng.below(6) {
                0 => vec![word("("), node(self.dash(depth)), node(self.dash(depth)), word(")"), self.repetition()],
                1 => vec![word("{"), node(self.filter(depth)), word("}")],
                _ => {
                    let dash = self.dash(depth);
                    vec![node(dash), self.repetition()]
                }
            };
            parts.push(optional(constituent));
        }
        if self.rng.percent(10) {
            parts.push(optional(vec![word(*self.rng.pick(&["pathdebug", "pathcount > 0", "pathstart : check"]))]));
        }
        parts.push(word("}"));
        Node::new(ty, parts)
    }

    /// An operand of an operator: a compound one in parentheses, mostly, so that CQL reads it
    /// as one (the rest of the time it stands bare, and precedence decides).
    fn operand(&mut self, operand: Node) -> Part {
        let compound =
            operand.parts.len() > 1 && !matches!(operand.parts.first(), Some(Part::Word(w)) if w == "(" || w == "{");
        if compound && self.rng.percent(75) {
            let ty = operand.ty;
            node(Node::new(ty, vec![word("("), node(operand), word(")")]))
        } else {
            node(operand)
        }
    }

    /// `ascii` or its Unicode spelling, the latter in Unicode queries at random.
    fn spelled(&mut self, ascii: &'static str, unicode: &'static str) -> &'static str {
        if self.unicode && self.rng.percent(60) { unicode } else { ascii }
    }

    /// Makes a query invalid: a stray keyword somewhere in it.
    fn spoil(&mut self, query: &mut Node) {
        let stray = *self.rng.pick(crate::keywords::KEYWORDS);
        let body = query.parts.iter().position(|part| *part == glued(")")).map_or(0, |end| end + 1);
        let at = body + self.rng.below(query.parts.len() - body + 1);
        query.parts.insert(at, optional(vec![word(stray)]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keywords::{Coverage, KEYWORDS, SYMBOLS};

    #[test]
    fn the_same_seed_gives_the_same_queries() {
        let make = |seed| query(&mut Rng::new(seed), Options::default()).render();
        assert_eq!(make(3), make(3));
        assert_ne!(make(3), make(4));
    }

    #[test]
    fn queries_start_with_their_header() {
        let mut rng = Rng::new(11);
        for _ in 0..500 {
            let text = query(&mut rng, Options { invalid_percent: 0, ..Options::default() }).render();
            assert!(text.starts_with("cql("), "{text}");
        }
    }

    #[test]
    fn every_keyword_and_symbol_is_generated() {
        let mut rng = Rng::new(5);
        let mut coverage = Coverage::default();
        for _ in 0..60_000 {
            coverage.count(&query(&mut rng, Options::default()).render());
        }
        let missing: Vec<&str> = KEYWORDS
            .iter()
            .copied()
            .chain(SYMBOLS.iter().map(|(symbol, _)| *symbol))
            .filter(|name| coverage.uses(name) == 0)
            .collect();
        assert!(missing.is_empty(), "never generated: {missing:?}");
    }
}
