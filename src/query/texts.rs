//! Texts: their values, made as CQL 6.2 makes them. A text is bytes to CQL (its length,
//! indexes and case are of bytes, its case ASCII's); cqlq keeps texts as UTF-8 and reads them
//! byte by byte alike.

use std::fmt;
use std::sync::Arc;

use super::SortValue;
use super::context::Context;
use super::plan::{DashTarget, NumberNode, Program, SubstringNode, TextValue, compare_texts, extreme};
use super::state::Value;
use crate::board::Square;
use crate::position::{PositionView, RulesView};
use crate::variant::{Color, Kind, Piece};

/// The regular expression of `~~`, compiled once. Two patterns are the same when written the
/// same.
#[derive(Clone)]
pub(crate) struct Pattern {
    source: Arc<str>,
    regex: regex::bytes::Regex,
}

impl Pattern {
    /// The pattern of a regular expression, or why it is none.
    pub(crate) fn new(source: &str) -> Result<Pattern, String> {
        regex::bytes::RegexBuilder::new(source)
            .unicode(false)
            .size_limit(1 << 20)
            .build()
            .map(|regex| Pattern { source: source.into(), regex })
            .map_err(|error| {
                let reason = error.to_string();
                let reason = reason.lines().last().unwrap_or("").trim_start_matches("error: ").to_owned();
                format!("'{source}' is no regular expression that cqlq reads: {reason}")
            })
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pattern({:?})", self.source)
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Eq for Pattern {}

impl std::hash::Hash for Pattern {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.source.hash(state);
    }
}

/// The files `writefile` has made in this run: it adds to them from then on.
static OPENED: std::sync::Mutex<std::collections::BTreeSet<String>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// What the groups of the last `~~` match matched: for each group, where it begins and what
/// it matched (none for a group that took no part).
pub(crate) type Groups = Vec<Option<(usize, Arc<str>)>>;

/// A text made of bytes cut from a UTF-8 text (a cut inside a character leaves a replacement
/// character).
fn text_of(bytes: &[u8]) -> Arc<str> {
    String::from_utf8_lossy(bytes).into()
}

impl<const W: usize> Program<W> {
    /// The value of a text, if it has one.
    pub(super) fn text<P: RulesView<W>>(
        &self,
        value: &TextValue<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<Arc<str>> {
        match value {
            TextValue::Literal(text) => Some(text.clone()),
            TextValue::Unmapped(text) => self.text(text, context, at),
            TextValue::Dash(node) => {
                let Some(DashTarget::Text(target)) = &node.target else { return None };
                let mut value = None;
                self.dash_find(node, context, at, |after| {
                    value = self.text(target, context, after);
                    value.is_some()
                });
                value
            }
            TextValue::Sorted { key, smallest, value } => {
                let mark = context.state.notes_len();
                let Some(value) = self.text(value, context, at) else {
                    context.state.truncate_notes(mark);
                    return None;
                };
                context.state.record_sort((*key, *smallest), SortValue::Text(value.clone()), mark);
                Some(value)
            }
            TextValue::PieceLetter { set, colored } => {
                let squares = self.squares(set, context, at);
                let mut iter = squares.iter();
                let (Some(square), None) = (iter.next(), iter.next()) else { return None };
                let view = &context.frames[at].position;
                Some(match piece_on(view, square) {
                    Some(piece) if *colored => view.variant().symbol(piece).into(),
                    Some(piece) => view.variant().symbol(Piece { color: Color::White, ..piece }).into(),
                    None => "_".into(),
                })
            }
            TextValue::Game(slot) => context.game.texts.get(*slot).cloned().flatten(),
            TextValue::Entry(entry) => match self.entry(entry, context, at) {
                Some(Value::Text(text)) => Some(text),
                _ => None,
            },
            TextValue::Variable(slot) => match context.state.get(*slot) {
                Value::Text(text) => Some(text),
                Value::Unset => self.unbound(*slot, context, at),
                _ => None,
            },
            TextValue::Concat(left, right) => {
                let left = self.text(left, context, at)?;
                let right = self.text(right, context, at)?;
                Some(format!("{left}{right}").into())
            }
            TextValue::Compared(op, left, right) => {
                let left = self.text(left, context, at)?;
                let right = self.text(right, context, at)?;
                compare_texts(*op, &left, &right).then_some(left)
            }
            TextValue::Case { upper, text } => {
                let text = self.text(text, context, at)?;
                Some(if *upper { text.to_ascii_uppercase() } else { text.to_ascii_lowercase() }.into())
            }
            TextValue::ReadFile(name) => {
                // CQL 6.2 says what it reads, and stops where it cannot.
                let Some(name) = self.text(name, context, at) else {
                    context.state.refuse("readfile could not open a file: its name has no value");
                    return None;
                };
                if ![".cqo", ".pgn", ".cql"].iter().any(|extension| name.ends_with(extension)) {
                    let reason = format!("readfile reads .cqo, .pgn and .cql files only, and '{name}' is none");
                    context.state.refuse(&reason);
                    return None;
                }
                context.state.message(format!("\nReading file: {name}"));
                let bytes = match std::fs::read(&*name) {
                    Ok(bytes) => bytes,
                    Err(error) => {
                        context.state.refuse(&format!("readfile could not open the file {name}: {error}"));
                        return None;
                    }
                };
                context.state.message(format!("Read file: {name} got {} bytes", bytes.len()));
                Some(text_of(&bytes))
            }
            TextValue::Substring(node) => self.substring(node, context, at),
            TextValue::Match(text, pattern) => {
                let text = self.text(text, context, at)?;
                match pattern.regex.captures(text.as_bytes()) {
                    Some(captures) => {
                        let groups: Groups = captures
                            .iter()
                            .map(|group| group.map(|group| (group.start(), text_of(group.as_bytes()))))
                            .collect();
                        let whole = groups.first().cloned().flatten().map(|(_, text)| text);
                        context.state.set_groups(groups);
                        whole
                    }
                    None => {
                        context.state.set_groups(Vec::new());
                        None
                    }
                }
            }
            TextValue::Group(group) => context.state.group_matched(*group).map(|(_, text)| text),
            TextValue::Str(parts) => {
                let mut text = String::new();
                for part in parts {
                    self.text_part(part, context, at, &mut text);
                }
                Some(text.into())
            }
            TextValue::Character(code) => {
                let code = u8::try_from(self.number(code, context, at)?).ok().filter(|&code| code > 0)?;
                Some(text_of(&[code]))
            }
            TextValue::Fen => Some(self.cql_fen(context, at).into()),
            TextValue::Transform(names) => Some(names.text().into()),
            TextValue::OriginalComment => context.remarks.get(at).and_then(|remark| remark.comment.clone()),
            TextValue::Extreme { max, args } => {
                extreme(*max, args.iter().map(|arg| move || self.text(arg, context, at)), context.state)
            }
            TextValue::If(conditional) => self.text(self.choose(conditional, context, at)?, context, at),
            TextValue::At(position, text) => self.text(text, context, self.position(position, context, at)?),
            TextValue::Block(block) => {
                let matched = block.before.iter().all(|filter| self.filter(filter, context, at));
                if matched { self.text(&block.last, context, at) } else { None }
            }
        }
    }

    /// `T[i]` (none when i is past either end; negative i counts from the end) and `T[i:j]`
    /// (i and j brought within the text, j no less than i).
    fn substring<P: RulesView<W>>(
        &self,
        node: &SubstringNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<Arc<str>> {
        let text = self.text(&node.text, context, at)?;
        let bytes = text.as_bytes();
        let len = i64::try_from(bytes.len()).ok()?;
        let bound = |bound: &Option<NumberNode<W>>| match bound {
            Some(bound) => self.number(bound, context, at).map(Some),
            None => Some(None),
        };
        let start = bound(&node.start)?.unwrap_or(0);
        let start = if start < 0 { start + len } else { start };
        if !node.range {
            let index = usize::try_from(start).ok().filter(|&index| index < bytes.len())?;
            return Some(text_of(&bytes[index..=index]));
        }
        let end = bound(&node.end)?.map_or(len, |end| if end < 0 { end + len } else { end });
        let start = start.clamp(0, len);
        let end = end.clamp(start, len);
        Some(text_of(&bytes[usize::try_from(start).ok()?..usize::try_from(end).ok()?]))
    }

    /// `writefile(F T)`: writes T at the end of the file F, which must be a `.cqo` or `.cql`
    /// file. As in CQL 6.2, the first write of a run to a file makes it anew (and says so),
    /// the next ones add to it.
    pub(super) fn write_file<P: RulesView<W>>(
        &self,
        file: &TextValue<W>,
        text: &TextValue<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> bool {
        let (Some(file), Some(text)) = (self.text(file, context, at), self.text(text, context, at)) else {
            return false;
        };
        if !(file.ends_with(".cqo") || file.ends_with(".cql")) {
            return false;
        }
        let mut opened = OPENED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !opened.contains(&*file) {
            context.state.message(format!("writefile: opening file: {file}"));
            if std::fs::File::create(&*file).is_err() {
                return false;
            }
            opened.insert(file.to_string());
        }
        let appended = std::fs::OpenOptions::new().append(true).open(&*file);
        appended.and_then(|mut out| std::io::Write::write_all(&mut out, text.as_bytes())).is_ok()
    }

    /// The numbers of texts: `#T`, `int T`, `ascii T`, `indexof(T U)`, `\-N`.
    pub(super) fn text_number<P: RulesView<W>>(
        &self,
        node: &NumberNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<i64> {
        match node {
            NumberNode::TextLength(text) => i64::try_from(self.text(text, context, at)?.len()).ok(),
            NumberNode::TextToInt(text) => whole_number(&self.text(text, context, at)?),
            NumberNode::Code(text) => match self.text(text, context, at)?.as_bytes() {
                [code] => Some(i64::from(*code)),
                _ => None,
            },
            NumberNode::IndexOf(texts) => {
                let (needle, haystack) = &**texts;
                let needle = self.text(needle, context, at)?;
                let haystack = self.text(haystack, context, at)?;
                find(haystack.as_bytes(), needle.as_bytes()).and_then(|index| i64::try_from(index).ok())
            }
            NumberNode::GroupStart(group) => {
                let (start, _) = context.state.group_matched(*group)?;
                i64::try_from(start).ok()
            }
            _ => None,
        }
    }
}

/// Where a text first stands in another, in bytes.
pub(crate) fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    haystack.windows(needle.len()).position(|window| window == needle)
}

/// The number a text writes: digits, perhaps after a `-`, and nothing else; as CQL 6.2 adds
/// them up, in 32 bits that wrap.
fn whole_number(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value = digits.bytes().fold(0i32, |sum, digit| sum.wrapping_mul(10).wrapping_add(i32::from(digit - b'0')));
    Some(i64::from(if negative { value.wrapping_neg() } else { value }))
}

impl<const W: usize> Program<W> {
    /// `fen` as CQL 6.2 writes it: the board and the side to move; castling on a wing where the
    /// king and that rook stand on their first squares in this position and every one before
    /// it; the square a pawn's double step just passed over; and `0 1` for the counters. On
    /// other boards than 8x8, the position as cqlq writes it.
    fn cql_fen<P: RulesView<W>>(&self, context: &Context<'_, P, W>, at: usize) -> String {
        let view = &context.frames[at].position;
        let written = view.position_string();
        let geometry = self.masks.geometry();
        let mut fields = written.split_whitespace();
        let (Some(board), Some(side)) = (fields.next(), fields.next()) else { return written };
        if geometry.last_file().index() != 7 || geometry.last_rank().index() != 7 {
            return written;
        }
        let symbol_on = |position: &P, name: &str| {
            let square = geometry.parse_square(name).ok()?;
            piece_on(position, square).map(|piece| position.variant().symbol(piece))
        };
        let stands = |king: &str, rook: &str, letter: &str| {
            let (king_symbol, rook_symbol) =
                if letter.chars().all(char::is_uppercase) { ("K", "R") } else { ("k", "r") };
            context.ancestry(at).all(|there| {
                let position = &context.frames[there].position;
                symbol_on(position, king).as_deref() == Some(king_symbol)
                    && symbol_on(position, rook).as_deref() == Some(rook_symbol)
            })
        };
        let wings = [("e1", "h1", "K"), ("e1", "a1", "Q"), ("e8", "h8", "k"), ("e8", "a8", "q")];
        let castling: String =
            wings.iter().filter(|(king, rook, letter)| stands(king, rook, letter)).map(|wing| wing.2).collect();
        let castling = if castling.is_empty() { "-".to_owned() } else { castling };
        format!("{board} {side} {castling} {} 0 1", self.passed_over(context, at).unwrap_or_else(|| "-".to_owned()))
    }

    /// The square a pawn's double step that led to `at` passed over.
    fn passed_over<P: RulesView<W>>(&self, context: &Context<'_, P, W>, at: usize) -> Option<String> {
        let played = context.frames[at].previous?;
        let view = &context.frames[at].position;
        let pawn =
            piece_on(view, played.to()).is_some_and(|piece| view.variant().symbol(piece).eq_ignore_ascii_case("p"));
        let geometry = self.masks.geometry();
        let (from, to) = (played.from()?, played.to());
        let (from_rank, to_rank) = (i32::from(geometry.rank_of(from).index()), i32::from(geometry.rank_of(to).index()));
        let file = geometry.file_of(to);
        if !pawn || geometry.file_of(from) != file || (from_rank - to_rank).abs() != 2 {
            return None;
        }
        let passed = geometry.square_at(i32::from(file.index()), (from_rank + to_rank) / 2)?;
        Some(geometry.square_name(passed).to_string())
    }
}

/// The piece on a square, if any.
pub(super) fn piece_on<const W: usize>(view: &impl PositionView<W>, square: Square) -> Option<Piece> {
    let kind = (0..view.variant().kinds())
        .map(|index| Kind::new(index as u8))
        .find(|&kind| view.kind(kind).contains(square))?;
    let color = if view.color(Color::White).contains(square) { Color::White } else { Color::Black };
    Some(Piece { kind, color })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_are_digits_alone() {
        assert_eq!(whole_number("42"), Some(42));
        assert_eq!(whole_number("-7"), Some(-7));
        assert_eq!(whole_number("4 2"), None);
        assert_eq!(whole_number(""), None);
        assert_eq!(whole_number("-"), None);
        assert_eq!(whole_number("+3"), None);
        assert_eq!(whole_number("2147483648"), Some(-2_147_483_648));
    }

    #[test]
    fn patterns_compare_by_their_text() {
        assert_eq!(Pattern::new("a+").unwrap(), Pattern::new("a+").unwrap());
        assert!(Pattern::new("(").is_err());
        assert_eq!(find(b"Blitz", b"l"), Some(1));
        assert_eq!(find(b"abc", b"zzz"), None);
    }
}
