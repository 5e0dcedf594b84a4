//! The examples' test inputs: a xorshift64 sequence (Marsaglia 2003, shifts 13, 7, 17) from a
//! seed — reproducible data for the kernels to process, not a property under test.

/// The sequence from `seed` (made odd: a zero state would stay zero).
pub fn xorshift(seed: u64) -> impl Iterator<Item = u64> {
    let mut x = seed | 1;
    std::iter::repeat_with(move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    })
}
