//! The tags of a game as CQL 6.2 reads them: through the game record of SCID, its PGN library,
//! which gives dates and ECO codes one normal form, trims players' names, and reads a missing
//! event, site or player as `?`.

use super::ast::{Side, TagWord};
use super::context::TagSource;

/// The text of a tag word for a game, if the game has one.
pub(crate) fn tag_text(word: &TagWord, tags: &impl TagSource) -> Option<String> {
    let present = |text: &str| (!text.is_empty()).then(|| text.to_owned());
    match word {
        TagWord::Event | TagWord::Site => {
            let name = if *word == TagWord::Event { "Event" } else { "Site" };
            tags.tag(name).map_or(Some("?".to_owned()), |value| present(&value))
        }
        TagWord::Player(Some(side)) => player(tags, *side),
        TagWord::Player(None) => Some(format!("{}\n{}", player(tags, Side::White)?, player(tags, Side::Black)?)),
        TagWord::Date => Some(normal_date(tags.tag("Date").as_deref().unwrap_or(""))),
        TagWord::EventDate => Some(normal_date(tags.tag("EventDate").as_deref().unwrap_or(""))),
        TagWord::Eco => tags.tag("ECO").and_then(|eco| normal_eco(&eco)),
        TagWord::Named(name) => tags.tag(name).and_then(|value| present(&value)),
    }
}

/// A player's name in its normal form ([`normal_player`]); `?` when the tag is missing.
fn player(tags: &impl TagSource, side: Side) -> Option<String> {
    let name = if side == Side::White { "White" } else { "Black" };
    match tags.tag(name) {
        None => Some("?".to_owned()),
        Some(value) => {
            let normal = normal_player(&value);
            (!normal.is_empty()).then_some(normal)
        }
    }
}

/// A player's name as SCID keeps it, so that one player has one name: no space at the start,
/// one space after each comma, no space, tab or dot at the end (`Anand,V.` is `Anand, V`), the
/// Dutch prefixes capitalized one way (`van der Wiel` is `Van der Wiel`), and a rating in
/// brackets at the end left out (`Tal, M (2600)` is `Tal, M`).
pub(crate) fn normal_player(name: &str) -> String {
    if is_normal_player(name.as_bytes()) {
        return name.to_owned();
    }
    let mut normal = String::with_capacity(name.len() + 2);
    let (mut after_comma, mut at_start) = (false, true);
    for c in name.chars() {
        match c {
            ',' => {
                normal.push(',');
                (after_comma, at_start) = (true, false);
            }
            ' ' if after_comma || at_start => {}
            ' ' => normal.push(' '),
            c => {
                if after_comma {
                    normal.push(' ');
                }
                normal.push(c);
                (after_comma, at_start) = (false, false);
            }
        }
    }
    normal.truncate(normal.trim_end_matches(['.', ' ', '\t']).len());
    if normal.starts_with("van ") {
        normal.replace_range(..1, "V");
    }
    for prefix in ["Van Der ", "Van Den ", "Van De "] {
        if normal.starts_with(prefix) {
            normal.replace_range(4..5, "d");
        }
    }
    // ` (2600)` at the end: a rating, not part of the name.
    let bytes = normal.as_bytes();
    let len = bytes.len();
    if len > 7
        && bytes[len - 7..len - 5] == *b" ("
        && bytes[len - 5..len - 1].iter().all(u8::is_ascii_digit)
        && bytes[len - 1] == b')'
    {
        normal.truncate(len - 7);
    }
    normal
}

/// Whether a name is in its normal form already, as most are, told by one look at its bytes:
/// no space first, each comma followed by one space and more of the name, nothing to trim at
/// the end, no Dutch prefix to capitalize, no rating. (It may answer no for a normal name.)
fn is_normal_player(name: &[u8]) -> bool {
    let [first, .., last] = name else { return false };
    let commas_spaced = name.iter().enumerate().all(|(at, &byte)| {
        byte != b',' || (name.get(at + 1) == Some(&b' ') && !matches!(name.get(at + 2), None | Some(b' ' | b',')))
    });
    *first != b' '
        && !matches!(last, b'.' | b' ' | b'\t' | b')' | b',')
        && !name.starts_with(b"van ")
        && !name.starts_with(b"Van D")
        && commas_spaced
}

/// The leading digits of a text as a number (0 when there are none).
fn leading_number(text: &str) -> u64 {
    let text = text.trim_start();
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    text[..digits].bytes().fold(0u64, |value, digit| value.saturating_mul(10).saturating_add(u64::from(digit - b'0')))
}

/// A date as `yyyy.mm.dd`: each field the number it begins with, `?`s for one that is missing
/// or out of range (a year past 2047, a month past 12, a day past 31), nothing read after a
/// field out of range.
pub(crate) fn normal_date(date: &str) -> String {
    let mut fields = date.splitn(3, '.');
    let year = leading_number(fields.next().unwrap_or(""));
    let year = if year > 2047 { 0 } else { year };
    let month = leading_number(fields.next().unwrap_or(""));
    let (month, day) = if month > 12 {
        (0, 0)
    } else {
        let day = leading_number(fields.next().unwrap_or(""));
        (month, if day > 31 { 0 } else { day })
    };
    let field = |value: u64, width: usize| {
        if value == 0 { "?".repeat(width) } else { format!("{value:0width$}") }
    };
    format!("{}.{}.{}", field(year, 4), field(month, 2), field(day, 2))
}

/// An ECO code in its normal form: a letter A to E (either case), two digits (missing ones are
/// 0, as in `C4`), and the optional extension of a lower-case letter and a digit 1 to 4. None
/// for a text that does not begin as a code.
pub(crate) fn normal_eco(eco: &str) -> Option<String> {
    let bytes = eco.as_bytes();
    let letter = bytes.first()?.to_ascii_uppercase();
    if !(b'A'..=b'E').contains(&letter) {
        return None;
    }
    let mut code = String::from(char::from(letter));
    let mut at = 1;
    for _ in 0..2 {
        match bytes.get(at) {
            None => code.push('0'),
            Some(digit) if digit.is_ascii_digit() => {
                code.push(char::from(*digit));
                at += 1;
            }
            Some(_) => return None,
        }
    }
    if at == 3
        && let Some(&extension) = bytes.get(3).filter(|b| b.is_ascii_lowercase())
    {
        code.push(char::from(extension));
        if let Some(&digit) = bytes.get(4).filter(|b| (b'1'..=b'4').contains(b)) {
            code.push(char::from(digit));
        }
    }
    Some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_take_the_normal_form() {
        assert_eq!(normal_player("Anastasian, A."), "Anastasian, A");
        assert_eq!(normal_player("  Anand,V"), "Anand, V");
        assert_eq!(normal_player("Anand,   V  . "), "Anand, V");
        assert_eq!(normal_player("Magnus  Carlsen"), "Magnus  Carlsen");
        assert_eq!(normal_player("van der Wiel, J."), "Van der Wiel, J");
        assert_eq!(normal_player("Van Den Doel"), "Van den Doel");
        assert_eq!(normal_player("Tal, M (2600)"), "Tal, M");
        assert_eq!(normal_player("Tal, M. (2600)"), "Tal, M.");
        assert_eq!(normal_player("..."), "");
    }

    /// A name taken as normal at one look is what normalizing makes of it: random names over
    /// the letters and signs that normalizing looks at.
    #[test]
    fn a_name_taken_as_normal_at_one_look_is_normal() {
        let mut random = crate::test_random::random_below(0x2545_f491_4f6c_dd1d);
        let pieces = ["van ", "Van Der ", "Van D", ",", " ", ".", "\t", "(2600)", " (", ")", "1", "Tal", "é", "M"];
        let mut taken = 0;
        for _ in 0..50_000 {
            let name: String = (0..random(7)).map(|_| pieces[random(pieces.len())]).collect();
            if is_normal_player(name.as_bytes()) {
                taken += 1;
                let mut slow = name.clone();
                slow.insert(0, ' ');
                assert_eq!(normal_player(&slow), name, "{name:?}");
            }
        }
        assert!(taken > 1000, "{taken} names taken as normal");
    }

    #[test]
    fn dates_take_the_normal_form() {
        assert_eq!(normal_date("2025.05.01"), "2025.05.01");
        assert_eq!(normal_date("1990"), "1990.??.??");
        assert_eq!(normal_date("1990.13.45"), "1990.??.??");
        assert_eq!(normal_date("19xx.01.02"), "0019.01.02");
        assert_eq!(normal_date("2001.02"), "2001.02.??");
        assert_eq!(normal_date("??"), "????.??.??");
        assert_eq!(normal_date(""), "????.??.??");
        assert_eq!(normal_date("3000.01.01"), "????.01.01");
    }

    #[test]
    fn eco_codes_take_the_normal_form() {
        assert_eq!(normal_eco("C46").as_deref(), Some("C46"));
        assert_eq!(normal_eco("c4").as_deref(), Some("C40"));
        assert_eq!(normal_eco("E99z").as_deref(), Some("E99z"));
        assert_eq!(normal_eco("A00b1").as_deref(), Some("A00b1"));
        assert_eq!(normal_eco("A00b7").as_deref(), Some("A00b"));
        assert_eq!(normal_eco("F00"), None);
        assert_eq!(normal_eco("Cx"), None);
        assert_eq!(normal_eco(""), None);
    }
}
