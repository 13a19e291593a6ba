//! Random legal games in PGN, from a seed: the samples of `samples/games/` are made with this,
//! and tests make more.
#![allow(dead_code)]

use cqlq::notation::fen::{self, CastlingStyle};
use cqlq::notation::sniff::read_position;
use cqlq::rules::classical::{Board, MoveList};
use cqlq::{AnyPosition, Variant};

/// A splitmix64 generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The Chess960 starting rank of position `number` (0..960), White's pieces.
pub fn chess960_rank(number: usize) -> String {
    let mut rank = [' '; 8];
    let mut n = number;
    rank[(n % 4) * 2 + 1] = 'B';
    n /= 4;
    rank[(n % 4) * 2] = 'B';
    n /= 4;
    let place = |rank: &mut [char; 8], piece: char, index: usize| {
        let square = (0..8).filter(|&s| rank[s] == ' ').nth(index).unwrap();
        rank[square] = piece;
    };
    place(&mut rank, 'Q', n % 6);
    n /= 6;
    let knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n];
    let empty: Vec<usize> = (0..8).filter(|&s| rank[s] == ' ').collect();
    rank[empty[knights.0]] = 'N';
    rank[empty[knights.1]] = 'N';
    for piece in ['R', 'K', 'R'] {
        place(&mut rank, piece, 0);
    }
    rank.iter().collect()
}

fn board_of(variant: &'static Variant, fen: &str) -> Board {
    match read_position(fen, Some(variant)).unwrap() {
        AnyPosition::W1(position) => Board::from_position(&position),
        _ => unreachable!("8x8"),
    }
}

/// `count` random games of a classical variant, as PGN.
pub fn random_games(variant_name: &str, count: usize, seed: u64) -> String {
    let variant = Variant::by_name(variant_name).unwrap();
    let mut rng = Rng(seed);
    let mut out = String::new();
    for game in 1..=count {
        let (start, fen) = match variant_name {
            "Chess960" => {
                let rank = chess960_rank(rng.below(960));
                let fen = format!("{}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1", rank.to_lowercase(), rank);
                (board_of(variant, &fen), Some(fen))
            }
            _ => (Board::initial(variant), None),
        };
        let plies = 20 + rng.below(100);
        let (movetext, result) = random_movetext(start, plies, &mut rng);
        out.push_str(&format!("[Event \"Random games {variant_name}\"]\n[Site \"cqlq samples\"]\n"));
        out.push_str(&format!("[Date \"2026.11.{:02}\"]\n[Round \"{game}\"]\n", 1 + game % 28));
        out.push_str(&format!("[White \"Random {}\"]\n[Black \"Random {}\"]\n", rng.below(100), rng.below(100)));
        out.push_str(&format!("[Result \"{result}\"]\n"));
        if variant_name != "Standard" {
            out.push_str(&format!("[Variant \"{variant_name}\"]\n"));
        }
        if let Some(fen) = fen {
            out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n"));
        }
        out.push('\n');
        out.push_str(&movetext);
        out.push_str("\n\n");
    }
    out
}

/// Random legal moves from `board`, written as PGN movetext wrapped at 79 columns, with a few
/// comments, NAGs and one-move variations; the game ends at mate, stalemate or `plies`.
fn random_movetext(mut board: Board, plies: usize, rng: &mut Rng) -> (String, &'static str) {
    let mut words: Vec<String> = Vec::new();
    let mut result = "*";
    for ply in 0..plies {
        let mut moves = MoveList::new();
        board.legal_moves(&mut moves);
        if moves.is_empty() {
            result = if board.is_check() {
                if board.turn() == cqlq::Color::White { "0-1" } else { "1-0" }
            } else {
                "1/2-1/2"
            };
            break;
        }
        let chosen = moves.as_slice()[rng.below(moves.len())];
        if board.turn() == cqlq::Color::White {
            words.push(format!("{}.", board.fullmoves()));
        } else if ply == 0 {
            words.push(format!("{}...", board.fullmoves()));
        }
        let alternative = moves.as_slice()[rng.below(moves.len())];
        words.push(board.san(chosen).to_string());
        match rng.below(40) {
            0 => words.push("{a comment}".to_owned()),
            1 => words.push("$1".to_owned()),
            2 if alternative != chosen => words.push(format!("({})", board.san(alternative))),
            _ => {}
        }
        board.play(chosen);
    }
    words.push(result.to_owned());
    let mut text = String::new();
    let mut column = 0;
    for word in words {
        if column > 0 && column + 1 + word.len() > 79 {
            text.push('\n');
            column = 0;
        } else if column > 0 {
            text.push(' ');
            column += 1;
        }
        text.push_str(&word);
        column += word.len();
    }
    (text, result)
}

/// The FEN of a board, for messages.
pub fn fen_of(board: &Board) -> String {
    fen::write(&board.to_setup(), CastlingStyle::XFen)
}
