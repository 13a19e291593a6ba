//! The tag pairs of a game as CQL 6.2 writes them.
//!
//! CQL keeps a game in a database record (SCID's) with fields for some tags, and writes them
//! back in its own order with its own reading of their values:
//!
//! 1. the seven tags of the roster, `Event`, `Site`, `Date`, `Round`, `White`, `Black`,
//!    `Result`, always (a missing one is `?`; the last of a tag given twice counts); the
//!    players' names without blanks around them or dots at their end; the date as
//!    `YYYY.MM.DD` with `?` for each unknown or impossible part; the result of the movetext;
//! 2. each player's rating (`WhiteElo`, or the first of `Rating`, `Rapid`, `ICCF`, `USCF`,
//!    `DWZ`, `BCF` after the colour), its leading digits at most 4000, left out when 0;
//! 3. `ECO`, as a code `A00` to `E99` with an optional letter and digit (`B12c3`), left out when
//!    it is none; `EventDate` as a date, left out when wholly unknown;
//! 4. every other tag in the order read (a tag given twice where it first stands, with its
//!    last value), a second rating of a player among them;
//! 5. `FEN` last, its fields separated by single spaces, the move counters added when missing.

use std::borrow::Cow;

use crate::hash::FastMap;

/// A tag pair as written: name, then value with its escapes.
pub type Tag<'a> = (Cow<'a, [u8]>, Cow<'a, [u8]>);

/// The roster's tags before `Result`, in order.
const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

/// The kinds of rating a player's rating tag may name after `White` or `Black`.
const RATING_KINDS: [&str; 7] = ["Elo", "Rating", "Rapid", "ICCF", "USCF", "DWZ", "BCF"];

/// The highest rating CQL keeps.
const MAX_RATING: u32 = 4000;

/// The highest year a date may have.
const MAX_YEAR: u32 = 2047;

/// The tags of a game (as read, in order), as CQL 6.2 writes them; `result` is the game's result.
#[must_use]
pub fn cql_tags<'a>(tags: &[(&'a [u8], &'a [u8])], result: &'a [u8]) -> Vec<Tag<'a>> {
    let last = |name: &str| tags.iter().rev().find(|(tag, _)| *tag == name.as_bytes()).map(|(_, value)| *value);
    let mut written: Vec<Tag<'a>> = Vec::with_capacity(tags.len() + ROSTER.len() + 1);
    for name in ROSTER {
        let value = match (name, last(name)) {
            ("Date", value) => Cow::Owned(date(value.unwrap_or_default()).into_bytes()),
            ("White" | "Black", Some(value)) => Cow::Borrowed(player_name(value)),
            (_, Some(value)) => Cow::Borrowed(value),
            (_, None) => Cow::Borrowed(b"?".as_slice()),
        };
        written.push((Cow::Borrowed(name.as_bytes()), value));
    }
    written.push((Cow::Borrowed(b"Result".as_slice()), Cow::Borrowed(result)));
    let mut ratings: [Option<Tag<'a>>; 2] = [None, None];
    let mut eco = None;
    let mut event_date = None;
    let mut others: Vec<Tag<'a>> = Vec::new();
    // Where each other tag stands in `others`: a game may have many thousands of tags.
    let mut placed: FastMap<&'a [u8], usize> = FastMap::default();
    for &(name, value) in tags {
        if let Some(side) = rating_side(name)
            && ratings[side].is_none()
        {
            // A rating that reads as 0 is dropped and leaves the place free.
            let rating = rating(value);
            if rating > 0 {
                ratings[side] = Some((Cow::Borrowed(name), Cow::Owned(rating.to_string().into_bytes())));
            }
            continue;
        }
        match name {
            b"Event" | b"Site" | b"Date" | b"Round" | b"White" | b"Black" | b"Result" => {}
            b"ECO" => eco = eco_code(value),
            b"EventDate" => event_date = Some(date(value)).filter(|date| date != "????.??.??"),
            b"FEN" => {}
            _ => match placed.get(name) {
                Some(&at) => others[at].1 = Cow::Borrowed(value),
                None => {
                    placed.insert(name, others.len());
                    others.push((Cow::Borrowed(name), Cow::Borrowed(value)));
                }
            },
        }
    }
    written.extend(ratings.into_iter().flatten());
    written.extend(eco.map(|code| (Cow::Borrowed(b"ECO".as_slice()), Cow::Owned(code.into_bytes()))));
    written.extend(event_date.map(|date| (Cow::Borrowed(b"EventDate".as_slice()), Cow::Owned(date.into_bytes()))));
    written.extend(others);
    if let Some(fen) = last("FEN") {
        written.push((Cow::Borrowed(b"FEN".as_slice()), Cow::Owned(fen_fields(fen))));
    }
    written
}

/// A player's name as CQL keeps it: without blanks around it or dots at its end.
fn player_name(value: &[u8]) -> &[u8] {
    let end = value.iter().rposition(|byte| !byte.is_ascii_whitespace() && *byte != b'.').map_or(0, |i| i + 1);
    value[..end].trim_ascii_start()
}

/// Which player (0 White, 1 Black) a rating tag such as `WhiteElo` or `BlackUSCF` is about.
fn rating_side(name: &[u8]) -> Option<usize> {
    let (side, kind) =
        if let Some(kind) = name.strip_prefix(b"White") { (0, kind) } else { (1, name.strip_prefix(b"Black")?) };
    RATING_KINDS.iter().any(|known| known.as_bytes() == kind).then_some(side)
}

/// A rating as CQL reads it: the digits after any blanks, at most [`MAX_RATING`]; 0 for none.
fn rating(value: &[u8]) -> u32 {
    let text = value.trim_ascii_start();
    if text.first() == Some(&b'-') {
        // Read as a huge unsigned number: the highest rating.
        return MAX_RATING;
    }
    leading_number(text).min(MAX_RATING)
}

/// The number the leading digits of `text` make (saturating), 0 when there are none.
fn leading_number(text: &[u8]) -> u32 {
    text.iter()
        .take_while(|byte| byte.is_ascii_digit())
        .fold(0u32, |number, digit| number.saturating_mul(10).saturating_add(u32::from(digit - b'0')))
}

/// A date as CQL writes it: `YYYY.MM.DD`, each part `?` where it is unknown or impossible.
/// The year is the leading number; the month follows the first `.`, the day the next one.
fn date(value: &[u8]) -> String {
    let year = leading_number(value.trim_ascii_start());
    let first_dot = value.iter().position(|&byte| byte == b'.');
    let after = |dot: Option<usize>| dot.map_or(0, |dot| leading_number(value[dot + 1..].trim_ascii_start()));
    let month = after(first_dot);
    let second_dot =
        first_dot.and_then(|dot| value[dot + 1..].iter().position(|&byte| byte == b'.').map(|i| dot + 1 + i));
    let day = after(second_dot);
    // Written digit by digit: every game found has its date written again.
    let mut written = String::with_capacity(10);
    let parts = [(year, 1..=MAX_YEAR, 4), (month, 1..=12, 2), (day, 1..=31, 2)];
    for (index, (number, valid, width)) in parts.into_iter().enumerate() {
        if index > 0 {
            written.push('.');
        }
        for place in (0..width).rev() {
            let digit = (number / 10u32.pow(place) % 10) as u8;
            written.push(if valid.contains(&number) { char::from(b'0' + digit) } else { '?' });
        }
    }
    written
}

/// An ECO code as CQL reads it: a letter `A` to `E` (either case), then two digits (a missing
/// one read as 0, when nothing follows), then an optional lower-case letter and a digit 1 to 4;
/// anything after that is ignored. `None` when the value is no code.
fn eco_code(value: &[u8]) -> Option<String> {
    let letter = value.first()?.to_ascii_uppercase();
    if !(b'A'..=b'E').contains(&letter) {
        return None;
    }
    let mut code = String::from(char::from(letter));
    let mut rest = &value[1..];
    for _ in 0..2 {
        match rest.first() {
            None => code.push('0'),
            Some(digit) if digit.is_ascii_digit() => {
                code.push(char::from(*digit));
                rest = &rest[1..];
            }
            Some(_) => return None,
        }
    }
    if let Some(&sub) = rest.first().filter(|byte| byte.is_ascii_lowercase()) {
        code.push(char::from(sub));
        if let Some(&digit) = rest.get(1).filter(|byte| (b'1'..=b'4').contains(byte)) {
            code.push(char::from(digit));
        }
    }
    Some(code)
}

/// A FEN with its fields separated by single spaces, and the move counters it lacks added.
fn fen_fields(fen: &[u8]) -> Vec<u8> {
    let mut fields: Vec<&[u8]> = fen.split(u8::is_ascii_whitespace).filter(|field| !field.is_empty()).collect();
    if fields.len() == 4 {
        fields.push(b"0");
    }
    if fields.len() == 5 {
        fields.push(b"1");
    }
    fields.join(b" ".as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(tags: &[(&str, &str)], result: &str) -> Vec<String> {
        let tags: Vec<(&[u8], &[u8])> = tags.iter().map(|(n, v)| (n.as_bytes(), v.as_bytes())).collect();
        cql_tags(&tags, result.as_bytes())
            .iter()
            .map(|(name, value)| format!("{}={}", String::from_utf8_lossy(name), String::from_utf8_lossy(value)))
            .collect()
    }

    #[test]
    fn the_roster_first_with_defaults_then_ratings_eco_and_the_rest() {
        let tags = [
            ("Zeta", "1"),
            ("FEN", "4k3/8/8/8/8/8/4P3/4K3  w - -"),
            ("Event", ""),
            ("SetUp", "1"),
            ("WhiteElo", "abc"),
            ("BlackUSCF", "2700x"),
            ("EventDate", "?"),
            ("ECO", "a0"),
            ("White", "A"),
            ("White", " B. ."),
            ("Zeta", "2"),
            ("BlackElo", "2100"),
            ("Result", "1-0"),
        ];
        assert_eq!(
            written(&tags, "0-1"),
            [
                "Event=",
                "Site=?",
                "Date=????.??.??",
                "Round=?",
                "White=B",
                "Black=?",
                "Result=0-1",
                "BlackUSCF=2700",
                "ECO=A00",
                "Zeta=2",
                "SetUp=1",
                "BlackElo=2100",
                "FEN=4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            ]
        );
    }

    #[test]
    fn ratings_are_numbers_up_to_4000() {
        assert_eq!(rating(b"  2500 "), 2500);
        assert_eq!(rating(b"5000"), 4000);
        assert_eq!(rating(b"-5"), 4000);
        assert_eq!(rating(b"?"), 0);
        assert_eq!(rating_side(b"WhiteFIDE"), None);
        assert_eq!(rating_side(b"BlackDWZ"), Some(1));
    }

    #[test]
    fn dates_keep_their_possible_parts() {
        for (value, date_written) in [
            ("1997.02.30", "1997.02.30"),
            ("0000.01.01", "????.01.01"),
            ("2048.01.01", "????.01.01"),
            ("97.01.01", "0097.01.01"),
            ("1997-01-01", "1997.??.??"),
            ("1997.1.5", "1997.01.05"),
            (" 1997.01.01", "1997.01.01"),
            ("1997..01", "1997.??.01"),
            ("1997.13.40", "1997.??.??"),
            ("19a7.01.01", "0019.01.01"),
            ("", "????.??.??"),
        ] {
            assert_eq!(date(value.as_bytes()), date_written, "{value}");
        }
    }

    #[test]
    fn eco_codes() {
        for (value, code) in [
            ("A00", Some("A00")),
            ("A", Some("A00")),
            ("A5", Some("A50")),
            ("A0a", None),
            ("A0 ", None),
            ("A000", Some("A00")),
            ("A00ab", Some("A00a")),
            ("A00a12", Some("A00a1")),
            ("A00a5", Some("A00a")),
            ("e99", Some("E99")),
            ("X12", None),
            (" B12", None),
            ("?", None),
            ("A00/01", Some("A00")),
        ] {
            assert_eq!(eco_code(value.as_bytes()).as_deref(), code, "{value}");
        }
    }

    /// Many tags, one given again at the end: each stands once, in the order read, with its
    /// last value (in time in proportion to their number: 100,000 tags are read at once).
    #[test]
    fn many_tags_keep_their_order_and_last_values() {
        let names: Vec<String> = (0..100_000).map(|i| format!("T{i}")).collect();
        let mut tags: Vec<(&[u8], &[u8])> = names.iter().map(|name| (name.as_bytes(), b"first".as_slice())).collect();
        tags.push((b"T7", b"last"));
        let written = cql_tags(&tags, b"*");
        assert_eq!(written.len(), 7 + names.len());
        assert_eq!(written[7].0.as_ref(), b"T0");
        assert_eq!((written[14].0.as_ref(), written[14].1.as_ref()), (b"T7".as_slice(), b"last".as_slice()));
        assert_eq!(written.last().unwrap().0.as_ref(), b"T99999");
    }
}
