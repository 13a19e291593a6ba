//! The game samples of `samples/games/` are what the generator in `tests/common/games.rs` makes;
//! `CQLQ_WRITE_SAMPLES=1 cargo test --test samples_check` writes them again.

use crate::common;

use std::path::PathBuf;

const SAMPLES: [(&str, &str, usize, u64); 3] = [
    ("random-standard.pgn", "Standard", 120, 1),
    ("random-chess960.pgn", "Chess960", 30, 2),
    ("random-crazyhouse.pgn", "Crazyhouse", 30, 3),
];

#[test]
fn game_samples_are_reproducible() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/games");
    for (file, variant, count, seed) in SAMPLES {
        let text = common::games::random_games(variant, count, seed);
        let path = dir.join(file);
        if std::env::var_os("CQLQ_WRITE_SAMPLES").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(committed, text, "{file} differs from what the generator makes");
    }
}
