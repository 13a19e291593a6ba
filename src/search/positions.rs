//! The lines `cqlq positions` writes: every position of a game, one a line, as TSV, JSON Lines
//! or EPD.

use std::io::Write;

/// How each position is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PositionsFormat {
    /// `GAME<TAB>PLY<TAB>POSITION`, the position in its variant's own string.
    #[default]
    Tsv,
    /// `{"game":1,"ply":0,"position":"..."}`.
    Jsonl,
    /// EPD: the position's first four FEN fields, then the opcodes `hmvc`, `fmvn`, `id "game G
    /// ply P"`, and `c0` (players and event) and `c1` (result) as pgn-extract's `-Wepd` writes
    /// them.
    Epd,
}

/// What EPD lines of a game say besides the position: its players and event, its result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EpdComments {
    /// `White-Black Event`.
    pub game: String,
    /// The result, as in the `Result` tag.
    pub result: String,
}

impl EpdComments {
    /// The comments of a game with these tags' values (`?` where one is missing).
    #[must_use]
    pub fn new(white: Option<&str>, black: Option<&str>, event: Option<&str>, result: Option<&str>) -> EpdComments {
        let clean = |text: Option<&str>| text.unwrap_or("?").replace(['"', ';'], "'");
        EpdComments {
            game: format!("{}-{} {}", clean(white), clean(black), clean(event)),
            result: clean(result.or(Some("*"))),
        }
    }
}

impl PositionsFormat {
    /// The format with this name (`tsv`, `jsonl`, `epd`).
    #[must_use]
    pub fn by_name(name: &str) -> Option<PositionsFormat> {
        match name.to_ascii_lowercase().as_str() {
            "tsv" => Some(PositionsFormat::Tsv),
            "jsonl" | "json" => Some(PositionsFormat::Jsonl),
            "epd" => Some(PositionsFormat::Epd),
            _ => None,
        }
    }

    /// Appends the line of the position after `ply` plies of game number `game`, written in
    /// its variant's own string as `position` (see
    /// [`position_string`](crate::notation::position_string)).
    pub fn write_line(self, out: &mut Vec<u8>, game: u64, ply: u32, position: &str, comments: &EpdComments) {
        // Writing to a vector does not fail.
        let _ = match self {
            PositionsFormat::Tsv => writeln!(out, "{game}\t{ply}\t{position}"),
            PositionsFormat::Jsonl => {
                writeln!(out, "{{\"game\":{game},\"ply\":{ply},\"position\":{}}}", serde_json::json!(position))
            }
            PositionsFormat::Epd => {
                let mut fields = position.split(' ');
                let four: Vec<&str> = fields.by_ref().take(4).collect();
                let halfmoves = fields.next().unwrap_or("0");
                let fullmoves = fields.next().unwrap_or("1");
                writeln!(
                    out,
                    "{} hmvc {halfmoves}; fmvn {fullmoves}; id \"game {game} ply {ply}\"; c0 \"{}\"; c1 \"{}\";",
                    four.join(" "),
                    comments.game,
                    comments.result
                )
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::position::Setup;

    #[test]
    fn each_format_writes_one_line() {
        let setup = Setup::<1>::initial(Variant::standard());
        let position = crate::notation::position_string::write(&setup);
        let comments = EpdComments::new(Some("A \"B\""), None, Some("Open"), Some("1-0"));
        let mut out = Vec::new();
        for format in [PositionsFormat::Tsv, PositionsFormat::Jsonl, PositionsFormat::Epd] {
            format.write_line(&mut out, 3, 0, &position, &comments);
        }
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!(
                "3\t0\t{fen} w KQkq - 0 1\n{{\"game\":3,\"ply\":0,\"position\":\"{fen} w KQkq - 0 1\"}}\n\
                 {fen} w KQkq - hmvc 0; fmvn 1; id \"game 3 ply 0\"; c0 \"A 'B'-? Open\"; c1 \"1-0\";\n"
            )
        );
        assert_eq!(PositionsFormat::by_name("EPD"), Some(PositionsFormat::Epd));
    }
}
