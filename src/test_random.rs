//! Numbers drawn at random for the unit tests: the same for the same seed, on every machine.

/// 64-bit words drawn at random (xorshift), the same for the same seed (which must not be 0).
pub(crate) fn random_words(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// Numbers drawn at random below the bound asked for, from [`random_words`].
pub(crate) fn random_below(seed: u64) -> impl FnMut(usize) -> usize {
    let mut words = random_words(seed);
    move |below| (words() % below as u64) as usize
}
