//! Laser Chess: random legal games from every named setup, written in Laser Algebraic Notation
//! and read back.

use cqlq::Variant;
use cqlq::notation::laser::{Turn, setup_notation};
use cqlq::rules::laser::{LaserBoard, LaserMove};
use cqlq::variant::Initial;

/// A small random generator (xorshift), the same games on every run.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Each named setup's starting board.
fn setups() -> Vec<(&'static str, LaserBoard)> {
    let laser = Variant::by_name("Laser Chess").unwrap();
    let Initial::Laser(setups) = &laser.initial else { panic!("Laser Chess has named setups") };
    setups
        .setups
        .iter()
        .map(|&(name, text)| (name, LaserBoard::from_setup(&setup_notation::read::<2>(laser, text).unwrap()).unwrap()))
        .collect()
}

/// A random legal game of at most `plies` turns: its record and the board after each turn.
fn random_game(start: &LaserBoard, random: &mut Random, plies: usize) -> (Vec<String>, Vec<LaserBoard>) {
    let mut board = start.clone();
    let (mut record, mut boards) = (Vec::new(), Vec::new());
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
        record.push(String::from_utf8(text).unwrap());
        boards.push(board.clone());
    }
    (record, boards)
}

#[test]
fn random_games_read_back_to_the_same_positions() {
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    let (mut games, mut plies, mut removals, mut kings) = (0, 0, 0, 0);
    for (name, start) in setups() {
        for _ in 0..1000 {
            let (record, boards) = random_game(&start, &mut random, 120);
            let mut board = start.clone();
            for (ply, (text, expected)) in record.iter().zip(&boards).enumerate() {
                let turn = Turn::parse(text.as_bytes()).unwrap();
                let played = board
                    .play_turn(&turn)
                    .unwrap_or_else(|error| panic!("{name}, ply {}: {text}: {}", ply + 1, error.describe(&board)));
                // The record writes every removal, so none is left out.
                assert!(!played.unwritten_removal, "{name}, ply {}", ply + 1);
                assert_eq!(&board, expected, "{name}, ply {}: {text}", ply + 1);
                removals += usize::from(played.shot.hit.is_some());
            }
            kings += usize::from(board.winner().is_some());
            games += 1;
            plies += record.len();
        }
    }
    eprintln!("{games} games, {plies} plies, {removals} removals, {kings} Kings hit");
    assert_eq!(games, 5000);
    // The games are games: pieces are removed and Kings are hit.
    assert!(removals > plies / 50 && kings > 100, "{plies} plies, {removals} removals, {kings} Kings hit");
}
