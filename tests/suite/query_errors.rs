//! Every file of `tests/query_errors/` holds a query with mistakes; its snapshot is the full text
//! cqlq shows for it (for the variant named in the query, else Standard).

use cqlq::{Query, Variant};

fn rendered(source: &str, origin: &str) -> String {
    match Query::parse_for(source, Some(Variant::standard()).filter(|_| !source.contains("variant"))) {
        Err(error) => error.with_origin(origin).to_string(),
        Ok(query) => {
            let variant = query.variant().unwrap_or_else(Variant::standard);
            match query.compile(variant) {
                Err(error) => error.with_origin(origin).to_string(),
                Ok(_) => panic!("{origin} has no mistake"),
            }
        }
    }
}

#[test]
fn query_errors() {
    insta::glob!("query_errors/*.cql", |path| {
        let source = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        insta::assert_snapshot!(rendered(&source, name));
    });
}

/// A long line is shown around its mistake, a hundred characters at most with `…` where it is
/// cut, and the carets stop where the window does: a query of one 20 KB line shows a line of
/// the usual size, not the whole line twice over.
#[test]
fn long_lines_are_cut_around_the_mistake() {
    let middle = format!("{}R[ {}", "Ka1 ".repeat(2500), "Kb2 ".repeat(2500));
    let long_word = format!("Ka1 {} Kb2", "x".repeat(20_000));
    let at_the_end = format!("{}Qh7 and", "Ka1 ".repeat(5000));
    for (name, query) in [("long-line-middle", middle), ("long-line-word", long_word), ("long-line-end", at_the_end)] {
        let shown = rendered(&query, "long.cql");
        assert!(shown.len() < 500, "{name}: {} bytes shown", shown.len());
        insta::assert_snapshot!(name, shown);
    }
}

/// Control characters in a query are shown escaped, in the line and in the message: a NUL or an
/// escape byte never reaches the terminal.
#[test]
fn control_characters_are_escaped() {
    let query = "Ka1 \u{1b}[31mred\u{1b}[0m Kb2\nR\u{0}x and\tQ[ \u{7}\u{202e}";
    let shown = rendered(query, "control.cql");
    assert!(!shown.chars().any(|c| c.is_control() && c != '\n'), "{shown:?}");
    insta::assert_snapshot!("control-characters", shown);
}

/// Functions whose calls never end, or grow too fast once read in (each call making two), are
/// refused at once: a query of 16 levels of doubling comes to 65,536 calls.
#[test]
fn functions_whose_calls_grow_too_fast_are_refused() {
    let mut doubling = String::from("function f0() { Ka1 }\n");
    for level in 1..=16 {
        doubling.push_str(&format!("function f{level}() {{ f{}() f{}() }}\n", level - 1, level - 1));
    }
    doubling.push_str("f16()\n");
    let started = std::time::Instant::now();
    let shown = rendered(&doubling, "doubling.cql");
    assert!(shown.contains("come to more than 2000 calls"), "{shown}");
    assert_eq!(shown.matches("error:").count(), 1, "said once: {shown}");
    eprintln!("16 levels of doubling refused in {:?}", started.elapsed());
}

/// Loops nested four deep or more are sound, but slow: the query says so before it runs.
#[test]
fn deeply_nested_loops_are_warned_of() {
    let warned = |text: &str| Query::parse(text).unwrap().warnings().map(|warnings| warnings.to_string());
    let five = "piece p1 in A piece p2 in A piece p3 in A piece p4 in A piece p5 in A true";
    let shown = warned(five).expect("a warning");
    assert!(shown.starts_with("warning: 5 loops nested in one another"), "{shown}");
    assert!(shown.contains("1048576"), "{shown}");
    assert_eq!(warned("piece p1 in A piece p2 in A piece p3 in A true"), None);
    assert!(warned("square s1 in . { square s2 in . square s3 in . square s4 in . true }").is_some());
}
