//! A fast hasher for the tables a search keeps per game: memos keyed by positions' indices,
//! constituents' numbers and short texts, built and dropped thousands of times a second.
//!
//! The standard library's SipHash resists crafted keys, which these tables never see (their
//! keys are the search's own numbers), and costs several times more per key. This one mixes
//! each word into the state by a rotation, an exclusive or and a multiplication by an odd
//! constant, the scheme of the Firefox and rustc hashers.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A map with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// A set with [`FastHasher`].
pub type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

/// A hasher of the search's own keys: quick, and no defence against crafted ones.
#[derive(Clone, Copy, Debug, Default)]
pub struct FastHasher {
    state: u64,
}

/// An odd constant whose bits are well spread (from the golden ratio).
const SPREAD: u64 = 0x9e37_79b9_7f4a_7c15;

impl FastHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        self.state = (self.state.rotate_left(5) ^ word).wrapping_mul(SPREAD);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(word) ^ (rest.len() as u64) << 59);
        }
    }

    #[inline]
    fn write_u8(&mut self, value: u8) {
        self.mix(u64::from(value));
    }

    #[inline]
    fn write_u32(&mut self, value: u32) {
        self.mix(u64::from(value));
    }

    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.mix(value);
    }

    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.mix(value as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // The table takes its buckets from the low bits and its tags from the high ones: a last
        // rotation brings the best-mixed high bits down.
        self.state.rotate_left(26)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_keep_what_they_are_given() {
        let mut map: FastMap<(usize, usize), bool> = FastMap::default();
        for a in 0..200 {
            for b in 0..50 {
                map.insert((a, b), (a + b) % 3 == 0);
            }
        }
        assert_eq!(map.len(), 10_000);
        assert_eq!(map.get(&(7, 2)), Some(&true));
        assert_eq!(map.get(&(7, 3)), Some(&false));
        assert_eq!(map.get(&(200, 0)), None);
        let texts: FastSet<Option<String>> =
            ["a", "ab", "abcdefgh", "abcdefghi"].map(|t| Some(t.to_owned())).into_iter().collect();
        assert!(texts.contains(&Some("abcdefgh".to_owned())));
        assert!(!texts.contains(&Some("abcdefg".to_owned())));
    }

    #[test]
    fn nearby_keys_spread_over_the_low_bits() {
        let hash = |key: (usize, usize)| {
            let mut hasher = FastHasher::default();
            std::hash::Hash::hash(&key, &mut hasher);
            hasher.finish() & 0xff
        };
        let buckets: FastSet<u64> = (0..64).map(|at| hash((at, 1))).collect();
        assert!(buckets.len() > 32, "{} buckets of 64 keys", buckets.len());
    }
}
