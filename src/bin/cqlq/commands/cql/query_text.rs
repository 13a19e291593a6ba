//! The query `cqlq cql` runs, as text: the query file with the command line's filters added to
//! its body and its transforms around both, as CQL 6.2 combines them.
//!
//! `-flip`, `-flipcolor` and `-shift` apply to the whole body, the command line's filters
//! included, wherever they stand on the command line; the filters (`-cql`, `-player`, `-fen`,
//! ...) must match at the same position as the body. The file's header stays first, and the
//! body keeps its lines, so that a mistake in the file is reported where it is.

use super::options::{Filter, Transform};

/// The text of the query: `source` (the query file, whose header ends at `header_end`) with
/// `filters` and `transforms` added.
pub fn combined(source: &str, header_end: usize, filters: &[Filter], transforms: &[Transform]) -> String {
    if filters.is_empty() && transforms.is_empty() {
        return source.to_owned();
    }
    let header_end = if source.is_char_boundary(header_end) { header_end } else { 0 };
    let (header, body) = source.split_at(header_end);
    let mut text = String::with_capacity(source.len() + 64);
    text.push_str(header);
    for transform in transforms {
        text.push_str(match transform {
            Transform::Flip => " flip {",
            Transform::FlipColor => " flipcolor {",
            Transform::Shift => " shift {",
        });
    }
    text.push_str(body);
    for filter in filters {
        text.push('\n');
        text.push_str(&filter_text(filter));
    }
    text.push('\n');
    for _ in transforms {
        text.push('}');
    }
    text
}

/// A filter of the command line in the query language.
pub fn filter_text(filter: &Filter) -> String {
    match filter {
        Filter::Player(name) => format!("player {}", quoted(name)),
        Filter::White(name) => format!("player white {}", quoted(name)),
        Filter::Black(name) => format!("player black {}", quoted(name)),
        Filter::Event(name) => format!("event {}", quoted(name)),
        Filter::Site(name) => format!("site {}", quoted(name)),
        Filter::Year(low, high) if low == high => format!("year == {low}"),
        Filter::Year(low, high) => format!("year >= {low} and year <= {high}"),
        Filter::Result(result) => format!("result {result}"),
        Filter::Fen(fen) => format!("fen {}", quoted(fen.split_whitespace().next().unwrap_or_default())),
        Filter::Cql(text) => format!("{{{text}\n}}"),
        Filter::SimilarPosition { file, nosort, notransform } => {
            let nosort = if *nosort { " nosort" } else { "" };
            let notransform = if *notransform { " notransform" } else { "" };
            format!("similarposition{nosort}{notransform} {}", quoted(file))
        }
    }
}

/// A text as a quoted string of the query language.
fn quoted(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_join_the_body_and_transforms_surround_both() {
        let source = "cql(input a.pgn) // header\nQh7\n";
        let header_end = source.find(')').unwrap() + 1;
        assert_eq!(combined(source, header_end, &[], &[]), source);
        let filters = [Filter::Cql("kg8".into()), Filter::White("Morphy \"Paul\"".into())];
        assert_eq!(
            combined(source, header_end, &filters, &[Transform::FlipColor, Transform::Flip]),
            "cql(input a.pgn) flipcolor { flip { // header\nQh7\n\n{kg8\n}\nplayer white \"Morphy \\\"Paul\\\"\"\n}}"
        );
        assert_eq!(combined("", 0, &[Filter::Year(1850, 1860)], &[]), "\nyear >= 1850 and year <= 1860\n");
    }

    #[test]
    fn a_fen_gives_its_board() {
        let fen = Filter::Fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into());
        assert_eq!(filter_text(&fen), "fen \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR\"");
        assert_eq!(filter_text(&Filter::Year(1852, 1852)), "year == 1852");
    }
}
