//! The shape of a game's tree of positions, when a search follows its variations: which frame
//! each position's parent is, and where the positions after it end.
//!
//! The frames of a tree lie in the order CQL 6.2 numbers them (`positionid`): depth first, the
//! main continuation of each position before its variations. In that order the positions after
//! a position (its descendants) are the frames right after it, up to its subtree's end, and its
//! main continuation is the next frame. A context without a tree is one line: each frame's
//! parent is the frame before it.

use std::ops::Range;

/// The parent and the subtree's end of each frame of a game's tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameTree {
    /// The frame of each frame's parent (`NONE` for the first).
    parents: Vec<u32>,
    /// One past the last frame of each frame's subtree.
    ends: Vec<u32>,
    /// The frames that end a line cut short (by a move that could not be played): no move
    /// follows them in the tree, but they are not the end of a game.
    cut: Vec<bool>,
}

/// The parent of a tree's first frame.
const NONE: u32 = u32::MAX;

impl GameTree {
    /// An empty tree, to be built with [`GameTree::push`].
    #[must_use]
    pub fn new() -> GameTree {
        GameTree::default()
    }

    /// Forgets every frame, keeping the memory for the next game.
    pub fn clear(&mut self) {
        self.parents.clear();
        self.ends.clear();
        self.cut.clear();
    }

    /// Adds the next frame in CQL 6.2's order, a child of `parent` (an earlier frame; none for
    /// the first). Once every frame is added, [`GameTree::seal`] finds the subtrees.
    pub fn push(&mut self, parent: Option<usize>) {
        let at = self.parents.len();
        debug_assert!(parent.is_none_or(|parent| parent < at), "a parent comes before its children");
        self.parents.push(parent.map_or(NONE, |parent| u32::try_from(parent).unwrap_or(NONE)));
        self.ends.push(u32::try_from(at + 1).unwrap_or(u32::MAX));
        self.cut.push(false);
    }

    /// Marks the last frame added as the end of a line cut short.
    pub fn cut_last(&mut self) {
        if let Some(last) = self.cut.last_mut() {
            *last = true;
        }
    }

    /// Finds where each frame's subtree ends, once every frame is added.
    pub fn seal(&mut self) {
        for at in (1..self.parents.len()).rev() {
            let parent = self.parents[at];
            if parent != NONE {
                let end = self.ends[at];
                let parent_end = &mut self.ends[parent as usize];
                *parent_end = (*parent_end).max(end);
            }
        }
    }

    /// How many frames the tree has.
    #[must_use]
    pub fn len(&self) -> usize {
        self.parents.len()
    }

    /// Whether the tree has no frame.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.parents.is_empty()
    }

    /// The frame of the position before `at`, if `at` is not the first.
    #[must_use]
    pub fn parent(&self, at: usize) -> Option<usize> {
        self.parents.get(at).filter(|&&parent| parent != NONE).map(|&parent| parent as usize)
    }

    /// The frames of `at` and every position after it, on every line through it.
    #[must_use]
    pub fn subtree(&self, at: usize) -> Range<usize> {
        at..self.ends.get(at).map_or(at, |&end| end as usize)
    }

    /// Whether `at` ends a line that was cut short.
    #[must_use]
    pub fn is_cut(&self, at: usize) -> bool {
        self.cut.get(at).copied().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::GameTree;

    /// The main line 0 - 1 - 2 - 3; after 1, a variation 4 - 5 replaces the move to 2; after 0,
    /// a variation 6 replaces the move to 1.
    fn sample() -> GameTree {
        let mut tree = GameTree::new();
        for parent in [None, Some(0), Some(1), Some(2), Some(1), Some(4), Some(0)] {
            tree.push(parent);
        }
        tree.seal();
        tree
    }

    #[test]
    fn subtrees_are_the_frames_after_a_position_in_cql_order() {
        let tree = sample();
        assert_eq!(tree.subtree(0), 0..7);
        assert_eq!(tree.subtree(1), 1..6);
        assert_eq!(tree.subtree(2), 2..4);
        assert_eq!(tree.subtree(4), 4..6);
        assert_eq!(tree.subtree(6), 6..7);
        assert_eq!(tree.parent(4), Some(1));
        assert_eq!(tree.parent(0), None);
    }
}
