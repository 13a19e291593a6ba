//! The formats of game records the rule families read, in one list: a `--notation` name, the
//! sniffing of a file's first bytes and a variant's movetext all find their reader here.

use super::classical::xdecor;
use super::laser::notation::LIST_FORMAT;
use crate::notation::crochess::movetext::CROATIAN_MOVETEXT;
use crate::notation::pgn::SNIFF_BYTES;
use crate::notation::{Container, Movetext, NativeFormat, starts_with_tag};
use crate::variant::{Notation, Variant};

/// The native formats, in the order sniffing tries them.
static NATIVE: [&dyn NativeFormat; 3] = [&xdecor::RAW_FORMAT, &xdecor::TABLE_FORMAT, &LIST_FORMAT];

/// The container `--notation` names: `pgn` (or `san`) or a native format's name, without case.
#[must_use]
pub fn container_by_name(name: &str) -> Option<Container> {
    if name.eq_ignore_ascii_case("pgn") || name.eq_ignore_ascii_case("san") {
        return Some(Container::Pgn);
    }
    NATIVE.iter().find(|format| format.name().eq_ignore_ascii_case(name)).map(|&format| Container::Native(format))
}

/// The names `--notation` takes.
#[must_use]
pub fn container_names() -> Vec<&'static str> {
    std::iter::once("pgn").chain(NATIVE.iter().map(|format| format.name())).collect()
}

/// What a file whose first bytes are `head` holds (only the first [`SNIFF_BYTES`] are looked
/// at): a native format whose marks are there, else PGN (which
/// [`sniff_content`](crate::notation::pgn::sniff_content) then checks).
#[must_use]
pub fn sniff_container(head: &[u8]) -> Container {
    sniff_container_for(head, None)
}

/// [`sniff_container`] for a text whose games are of `variant` where they name none: a text
/// that starts with no tag is in the native format that holds such games of the variant (a
/// Laser Chess move list), if one does.
#[must_use]
pub fn sniff_container_for(head: &[u8], variant: Option<&Variant>) -> Container {
    let head = &head[..head.len().min(SNIFF_BYTES)];
    if starts_with_tag(head) {
        return Container::Pgn;
    }
    let untagged = variant.and_then(|variant| NATIVE.iter().find(|format| format.holds_untagged(variant)));
    match untagged {
        Some(&format) => Container::Native(format),
        None => recognise_container(head).unwrap_or(Container::Pgn),
    }
}

/// What a text whose first bytes are `head` surely holds, where they tell: PGN when it opens
/// with a tag pair, a native format whose marks are there. `None` where they do not tell (PGN
/// movetext without tags reads as such only when nothing else fits).
#[must_use]
pub fn recognise_container(head: &[u8]) -> Option<Container> {
    let head = &head[..head.len().min(SNIFF_BYTES)];
    if starts_with_tag(head) {
        return Some(Container::Pgn);
    }
    NATIVE.iter().find(|format| format.sniff(head)).map(|&format| Container::Native(format))
}

/// How the moves of a game of `variant` held in `container` are read and played; `None` where
/// cqlq does not replay them yet.
#[must_use]
pub fn movetext(container: Container, variant: &Variant) -> Option<Movetext> {
    match container {
        Container::Native(format) => Some(Movetext { reader: None, moves: format.moves() }),
        Container::Pgn => match variant.notation {
            Notation::San | Notation::Laser => Some(Movetext { reader: None, moves: None }),
            Notation::XDecor => {
                Some(Movetext { reader: Some(&xdecor::TABLE_MOVETEXT), moves: Some(xdecor::TABLE_NOTATION) })
            }
            Notation::Croatian => Some(Movetext { reader: Some(&CROATIAN_MOVETEXT), moves: None }),
            Notation::ChessEvolved => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::pgn::NOTATION_NAMES;

    #[test]
    fn containers_are_named_and_sniffed() {
        assert!(matches!(container_by_name("PGN"), Some(Container::Pgn)));
        assert_eq!(container_names(), NOTATION_NAMES, "the names the messages give");
        for name in container_names() {
            assert_eq!(container_by_name(name).map(Container::name), Some(name));
        }
        assert!(container_by_name("nothing").is_none());
        assert!(matches!(
            sniff_container(b"[Event \"a\"]\n[Variant \"X-Decor\"]\n\n1. e2\xE2\x80\x93e4 *"),
            Container::Pgn
        ));
        assert!(matches!(sniff_container(b"1. e4 e5 *"), Container::Pgn));
        assert!(recognise_container(b"1. e4 e5 *").is_none());
        assert!(matches!(recognise_container(b"\n[Event \"a\"]\n"), Some(Container::Pgn)));
    }
}
