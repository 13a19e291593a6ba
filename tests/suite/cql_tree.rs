//! The words about where a position lies in the game's tree of moves: `positionid`,
//! `position N`, `depth`, `ancestor`, `descendant` and `[<]`, `[<=]`, `[>]`, `[>=]` (`≺`, `≼`,
//! `≻`, `≽`). The answers were worked out by hand on a short game with variations;
//! `cql_reference.rs` runs the same kinds of query beside CQL 6.2 on real games.

use crate::common::replay_lines;

/// Main line 1.e4 e5 2.Nf3 Nc6 (plies 0 to 4); 1...c5 2.Nf3 d6 replaces 1...e5, and inside
/// it 2.c3 replaces 2.Nf3.
const GAME: &str = "[Event \"tree\"]\n\n1. e4 e5 (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3 Nc6 *\n";

/// A position that matched: its ply, and the variations it lies in.
type Matched = (u32, Vec<(u32, u32)>);

/// The positions that match, each as its ply and the variations it lies in (by the ply of
/// the move each replaces and its number), or the reason the search stopped.
fn matched(query: &str, variations: bool) -> Result<Vec<Matched>, String> {
    let record = replay_lines(GAME, query, None, variations).remove(0);
    if let Some(refusal) = record.refusal {
        return Err(refusal);
    }
    let paths = if record.variations.is_empty() { vec![Vec::new(); record.matched.len()] } else { record.variations };
    Ok(record.matched.iter().map(|matched| matched.ply).zip(paths).collect())
}

/// The plies of the main line's positions that match.
fn plies(query: &str) -> Vec<u32> {
    matched(query, false).unwrap().into_iter().map(|(ply, _)| ply).collect()
}

#[test]
fn positions_are_numbered_along_the_main_line() {
    assert_eq!(plies("positionid == 3"), vec![3]);
    assert_eq!(plies("positionid >= 3"), vec![3, 4]);
    assert_eq!(plies("position 2 : wtm"), vec![0, 1, 2, 3, 4]);
    assert_eq!(plies("position 2 : btm"), Vec::<u32>::new());
    // `position` takes the arithmetic after it, not a comparison nor `:`.
    assert_eq!(plies("position ply - 1 : btm"), vec![2, 4]);
    assert_eq!(plies("position 1 + 1 == currentposition"), vec![2]);
    // A number the game has no position for gives none.
    assert_eq!(plies("position 9 : wtm"), Vec::<u32>::new());
    assert_eq!(plies("position -1 : wtm"), Vec::<u32>::new());
}

#[test]
fn an_ancestor_lies_before_on_the_line() {
    assert_eq!(plies("ancestor(position 2 currentposition)"), vec![3, 4]);
    assert_eq!(plies("descendant(currentposition position 2)"), vec![3, 4]);
    assert_eq!(plies("position 2 [<] currentposition"), vec![3, 4]);
    assert_eq!(plies("position 2 ≼ currentposition"), vec![2, 3, 4]);
    assert_eq!(plies("currentposition [>] position 3"), vec![4]);
    // As in CQL 6.2, `[>=]` is `[>]`: a position is not after itself.
    assert_eq!(plies("currentposition [>=] position 3"), vec![4]);
    assert_eq!(plies("currentposition ≽ position 3"), vec![4]);
    assert_eq!(plies("ancestor(currentposition currentposition)"), Vec::<u32>::new());
}

#[test]
fn depth_counts_the_variations_a_position_lies_in() {
    let nested = vec![(2, 1), (3, 1)];
    assert_eq!(
        matched("depth == 2", true).unwrap(),
        vec![(3, nested)],
        "2.c3 lies in the variation of 2.Nf3, inside that of 1...e5"
    );
    let depth_one: Vec<u32> = matched("depth == 1", true).unwrap().into_iter().map(|(ply, _)| ply).collect();
    assert_eq!(depth_one, vec![2, 3, 4]);
    assert_eq!(plies("depth == 0"), vec![0, 1, 2, 3, 4]);
}

#[test]
fn the_variations_positions_are_numbered_after_the_main_line() {
    // The main line's positions have their numbers with variations searched too ...
    let main: Vec<u32> = matched("mainline positionid > 2", true).unwrap().into_iter().map(|(ply, _)| ply).collect();
    assert_eq!(main, vec![3, 4]);
    // ... then the tree is walked depth first, the main continuation first: 1...c5 2.Nf3 2...d6
    // are 5, 6 and 7, 2.c3 inside them 8 (as CQL 6.2 numbers them).
    let said = |query: &str| replay_lines(GAME, query, None, true).remove(0).messages;
    let numbers = said("variation message quiet(positionid)");
    assert_eq!(numbers, ["5", "6", "7", "8"]);
    assert_eq!(said("variation message quiet(ply)"), ["2", "3", "4", "3"], "in the order CQL 6.2 tests them");
    // `position N` finds any position of the game: on the line tested, or off it (2.Nf3 of the
    // variation, seen from 2.c3 that replaces it), as CQL 6.2 does.
    let found = |query: &str| -> Vec<u32> { matched(query, true).unwrap().into_iter().map(|(ply, _)| ply).collect() };
    assert_eq!(found("depth == 2 position 5 : wtm"), vec![3]);
    assert_eq!(found("depth == 2 position 6 : btm"), vec![3]);
    assert_eq!(found("depth == 2 position 9"), Vec::<u32>::new());
}

#[test]
fn the_second_position_is_not_looked_for_where_the_first_has_none() {
    // As in CQL 6.2: `ancestor`, `descendant`, `[>]` and `[>=]` look at the later position
    // first, `[<]` and `[<=]` at the earlier; the `find` here says where it looks.
    let said = |query: &str| replay_lines(GAME, query, None, false).remove(0).messages.len();
    let find = "(find message(\"looked\"))";
    assert_eq!(said(&format!("ancestor({find} position 9)")), 0);
    assert_eq!(said(&format!("descendant(position 9 {find})")), 0);
    assert_eq!(said(&format!("position 9 [>] {find}")), 0);
    assert_eq!(said(&format!("position 9 [<] {find}")), 0);
    assert_eq!(said(&format!("{find} [<] position 9")), 5);
    assert_eq!(said(&format!("{find} [>] position 9")), 5);
}

#[test]
fn a_try_is_the_one_variation_of_whites_on_the_line() {
    // `try`: exactly one position back to the start has Black to move after a move that begins
    // a variation (CQL 6.2's answers on this game).
    let game = "[Event \"tries\"]\n\n1. e4 e5 (1... c5 2. Nf3 (2. c3 d5 3. d4) 2... d6) 2. Nf3 (2. d4 exd4 (2... d6 3. c3) \
                3. Qxd4) 2... Nc6 *\n";
    let record = replay_lines(game, "try", None, true).remove(0);
    let tries: Vec<(u32, Vec<(u32, u32)>)> =
        record.matched.iter().map(|matched| matched.ply).zip(record.variations).collect();
    let in_c3 = vec![(2, 1), (3, 1)];
    let in_d4 = vec![(3, 1)];
    let in_d6 = vec![(3, 1), (4, 1)];
    assert_eq!(
        tries,
        [
            (3, in_c3.clone()),
            (4, in_c3.clone()),
            (5, in_c3),
            (3, in_d4.clone()),
            (4, in_d4.clone()),
            (4, in_d6.clone()),
            (5, in_d6),
            (5, in_d4),
        ]
    );
    assert!(replay_lines(game, "try", None, false).remove(0).matched.is_empty(), "no try on the main line");
}

/// With variations searched, a game is one tree: the moves from a position, its children, the
/// positions after it, and the runs of `line` and `path` go into its variations too, as in
/// CQL 6.2 (its answers on this game).
#[test]
fn the_variations_are_searched_as_one_tree() {
    let found = |query: &str| matched(query, true).unwrap();
    let variation = vec![(2, 1)];
    assert_eq!(found("child(1) : depth == 1"), vec![(1, Vec::new())], "1...c5 is the second child of 1.e4");
    assert_eq!(found("move to c3"), vec![(2, variation.clone())], "2.c3 is played after 1...c5");
    assert_eq!(found("initial (find all depth >= 1) == 4"), vec![(0, Vec::new())]);
    assert_eq!(found("initial path --{2} --c3"), vec![(0, Vec::new())], "a path goes into the variations");
    assert_eq!(found("initial line --> true{3} --> depth == 2"), vec![(0, Vec::new())]);
    assert_eq!(found("line --> btm --> wtm --> btm --> depth == 1"), vec![(1, Vec::new())]);
    // `virtualmainline`: all but 2.c3, a variation of a move of White's.
    let virtual_mainline = found("virtualmainline");
    assert_eq!(virtual_mainline.len(), 8);
    assert!(!virtual_mainline.contains(&(3, vec![(2, 1), (3, 1)])));
    // Without variations, the main line is the game.
    assert_eq!(plies("virtualmainline"), vec![0, 1, 2, 3, 4]);
    assert_eq!(plies("child(1)"), Vec::<u32>::new());
}

/// `consecutivemoves`: the moves in a row that the lines from where two positions part share
/// (2.Nf3 on both sides of 1...e5 and 1...c5), and the comments on the longest share of the
/// game, added once the game is found, as CQL 6.2 adds them.
#[test]
fn consecutive_moves_are_shared_by_two_variations() {
    let found = |query: &str| matched(query, true).unwrap();
    let variation = vec![(2, 1)];
    let sharing = vec![(3, variation.clone()), (4, variation), (3, Vec::new()), (4, Vec::new())];
    assert_eq!(found("echo (a b) consecutivemoves(a b) == 1"), sharing);
    assert_eq!(found("echo (a b) consecutivemoves 2 (a b)"), Vec::new());
    // One position on the line to the other shares nothing.
    assert_eq!(found("start = position 0 here = currentposition consecutivemoves(start here)"), Vec::new());
    let record = replay_lines(GAME, "echo (first second) consecutivemoves(first second)", None, true).remove(0);
    let notes: Vec<_> = record.notes.iter().filter_map(|note| Some((note.ply, note.text.clone()?))).collect();
    assert!(notes.contains(&(3, "first-move[1]".to_owned())), "{notes:?}");
    assert!(notes.contains(&(3, "second-move[1]".to_owned())), "{notes:?}");
    let quiet = replay_lines(GAME, "echo quiet (a b) consecutivemoves quiet (a b)", None, true).remove(0);
    assert!(quiet.notes.iter().all(|note| note.text.as_deref().is_none_or(|text| !text.contains("-move["))));
}
