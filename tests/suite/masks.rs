//! Square sets against a `BTreeSet<Square>` model, on 8x8, 10x8, 10x10 and 26x26 boards.

use std::collections::BTreeSet;

use cqlq::board::{Direction, File, Geometry, Masks, Rank, Square, SquareSet};
use proptest::prelude::*;

type Model = BTreeSet<Square>;

fn model_of(geometry: Geometry, indices: &[u16]) -> Model {
    indices.iter().map(|i| Square::from_index(i % geometry.squares() as u16)).collect()
}

fn set_of<const W: usize>(model: &Model) -> SquareSet<W> {
    model.iter().copied().collect()
}

fn model_translate(geometry: Geometry, model: &Model, files: i32, ranks: i32) -> Model {
    model
        .iter()
        .filter_map(|&square| {
            let file = i32::from(geometry.file_of(square).index()) + files;
            let rank = i32::from(geometry.rank_of(square).index()) + ranks;
            geometry.square_at(file, rank)
        })
        .collect()
}

fn agrees<const W: usize>(set: SquareSet<W>, model: &Model) -> Result<(), TestCaseError> {
    prop_assert_eq!(set.iter().collect::<Model>(), model.clone());
    prop_assert_eq!(set.count(), model.len());
    prop_assert_eq!(set.is_empty(), model.is_empty());
    prop_assert_eq!(set.iter().collect::<Vec<_>>(), model.iter().copied().collect::<Vec<_>>(), "square order");
    prop_assert_eq!(set.first(), model.first().copied());
    prop_assert_eq!(set.last(), model.last().copied());
    Ok(())
}

fn check<const W: usize>(
    geometry: Geometry,
    a: &[u16],
    b: &[u16],
    files: i32,
    ranks: i32,
) -> Result<(), TestCaseError> {
    let masks = Masks::<W>::new(geometry).unwrap();
    let (ma, mb) = (model_of(geometry, a), model_of(geometry, b));
    let (sa, sb) = (set_of::<W>(&ma), set_of::<W>(&mb));
    let board: Model = geometry.all_squares().collect();
    agrees(sa, &ma)?;
    agrees(sa | sb, &ma.union(&mb).copied().collect())?;
    agrees(sa & sb, &ma.intersection(&mb).copied().collect())?;
    agrees(sa - sb, &ma.difference(&mb).copied().collect())?;
    agrees(sa ^ sb, &ma.symmetric_difference(&mb).copied().collect())?;
    agrees(masks.complement(sa), &board.difference(&ma).copied().collect())?;
    prop_assert_eq!(sa.is_subset(sb), ma.is_subset(&mb));
    prop_assert_eq!(sa.is_disjoint(sb), ma.is_disjoint(&mb));
    for square in geometry.all_squares().step_by(7) {
        prop_assert_eq!(sa.contains(square), ma.contains(&square));
        let mut with = sa;
        prop_assert_eq!(with.insert(square), !ma.contains(&square));
        prop_assert!(with.contains(square));
        prop_assert!(with.remove(square));
        prop_assert!(!with.contains(square));
    }
    for direction in Direction::ALL {
        let (df, dr) = direction.offset();
        agrees(masks.shift(sa, direction), &model_translate(geometry, &ma, df, dr))?;
    }
    agrees(masks.translate(sa, files, ranks), &model_translate(geometry, &ma, files, ranks))?;
    // Files, ranks and shades.
    let file = File::new((files.unsigned_abs() % u32::from(geometry.files())) as u8).unwrap();
    let rank = Rank::new((ranks.unsigned_abs() % u32::from(geometry.ranks())) as u8).unwrap();
    let on_file: Model = board.iter().copied().filter(|s| geometry.file_of(*s) == file).collect();
    let on_rank: Model = board.iter().copied().filter(|s| geometry.rank_of(*s) == rank).collect();
    let light: Model = board.iter().copied().filter(|s| geometry.is_light(*s)).collect();
    agrees(masks.file(file), &on_file)?;
    agrees(masks.rank(rank), &on_rank)?;
    agrees(masks.light(), &light)?;
    agrees(masks.dark(), &board.difference(&light).copied().collect())?;
    agrees(masks.full(), &board)?;
    Ok(())
}

fn squares() -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(any::<u16>(), 0..80)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn eight_by_eight(a in squares(), b in squares(), files in -9i32..9, ranks in -9i32..9) {
        check::<1>(Geometry::new(8, 8).unwrap(), &a, &b, files, ranks)?;
    }

    #[test]
    fn ten_by_eight(a in squares(), b in squares(), files in -11i32..11, ranks in -9i32..9) {
        check::<2>(Geometry::new(10, 8).unwrap(), &a, &b, files, ranks)?;
    }

    #[test]
    fn ten_by_ten(a in squares(), b in squares(), files in -11i32..11, ranks in -11i32..11) {
        check::<2>(Geometry::new(10, 10).unwrap(), &a, &b, files, ranks)?;
    }

    #[test]
    fn twenty_six_by_twenty_six(a in squares(), b in squares(), files in -27i32..27, ranks in -27i32..27) {
        check::<11>(Geometry::new(26, 26).unwrap(), &a, &b, files, ranks)?;
    }

    /// The same board in a wider class than it needs behaves the same.
    #[test]
    fn eight_by_eight_in_eleven_words(a in squares(), b in squares(), files in -9i32..9, ranks in -9i32..9) {
        check::<11>(Geometry::new(8, 8).unwrap(), &a, &b, files, ranks)?;
    }
}
