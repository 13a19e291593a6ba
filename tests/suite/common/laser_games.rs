//! Random legal Laser Chess games from every named setup, written as PGN: for the tests and
//! the benchmark. The same seed gives the same games.

use cqlq::Variant;
use cqlq::notation::laser::setup_notation;
use cqlq::rules::laser::{LaserBoard, LaserMove};
use cqlq::variant::{Color, Initial};

/// A small random generator (xorshift).
pub struct Random(pub u64);

impl Random {
    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The Laser Chess variant.
pub fn laser() -> &'static Variant {
    Variant::by_name("Laser Chess").unwrap()
}

/// Each named setup, and its starting board.
pub fn setups() -> Vec<(&'static str, LaserBoard)> {
    let Initial::Laser(setups) = &laser().initial else { panic!("Laser Chess has named setups") };
    setups
        .setups
        .iter()
        .map(|&(name, text)| {
            (name, LaserBoard::from_setup(&setup_notation::read::<2>(laser(), text).unwrap()).unwrap())
        })
        .collect()
}

/// A game played at random.
pub struct Game {
    /// The name of its setup.
    pub setup: &'static str,
    /// The board it starts from (Red to move when Red starts).
    pub start: LaserBoard,
    /// Its turns, in Laser Algebraic Notation, every removal written.
    pub turns: Vec<String>,
    /// The board after each turn.
    pub boards: Vec<LaserBoard>,
}

impl Game {
    /// A random legal game of at most `plies` turns from `start`, Red moving first when
    /// `red_first`.
    pub fn random(setup: &'static str, start: &LaserBoard, random: &mut Random, plies: usize, red_first: bool) -> Game {
        let mut board = start.clone();
        if red_first {
            board.set_turn(Color::Black, 1);
        }
        let start = board.clone();
        let (mut turns, mut boards) = (Vec::new(), Vec::new());
        let mut moves = Vec::new();
        for _ in 0..plies {
            board.legal_turns(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m: LaserMove = moves[random.below(moves.len())];
            let before = board.clone();
            let shot = board.play(m).unwrap();
            let mut text = Vec::new();
            before.turn_of(m, &shot).write(&mut text);
            turns.push(String::from_utf8(text).unwrap());
            boards.push(board.clone());
        }
        Game { setup, start, turns, boards }
    }

    /// The result: the side whose beam did not hit its own King wins when a King was hit.
    pub fn result(&self) -> &'static str {
        match self.boards.last().and_then(LaserBoard::winner) {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "*",
        }
    }

    /// The movetext: numbered turns (`1...` first when Red starts), then the result.
    pub fn movetext(&self) -> String {
        let mut text = String::new();
        let red_first = self.start.turn() == Color::Black;
        for (index, turn) in self.turns.iter().enumerate() {
            let ply = index + usize::from(red_first);
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            } else if index == 0 {
                text.push_str("1... ");
            }
            text.push_str(turn);
            text.push(' ');
        }
        text.push_str(self.result());
        text
    }

    /// The game as PGN: its setup named in the `FEN` tag (none for Ace, the default).
    pub fn pgn(&self, event: &str) -> String {
        let fen = if self.setup == "Ace" { String::new() } else { format!("[FEN \"{}\"]\n", self.setup) };
        format!(
            "[Event \"{event}\"]\n[Variant \"Laser Chess\"]\n{fen}[Result \"{}\"]\n\n{}\n\n",
            self.result(),
            self.movetext()
        )
    }
}
