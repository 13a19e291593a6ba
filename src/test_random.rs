//! Numbers drawn at random for the unit tests: the same for the same seed, on every machine.

/// Numbers drawn at random below the bound asked for (xorshift), the same for the same seed
/// (which must not be 0).
pub(crate) fn random_below(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |below| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % below as u64) as usize
    }
}
