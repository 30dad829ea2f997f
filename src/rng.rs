//! A small, fast, seedable random generator for everything that needs
//! variety rather than secrecy: random openings for self-play, random games
//! in tests, weight initialisation and shuffling in the trainer.
//!
//! SplitMix64 (Steele, Lea and Flood, 2014) passes BigCrush, needs one
//! `u64` of state and no crate, and the same seed gives the same sequence
//! on every platform, which keeps tests and data generation reproducible.

/// SplitMix64's increment (the golden ratio in 64 bits); also a good odd
/// constant for deriving independent streams from one seed.
const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's finaliser (Stafford's "Mix13"): every input bit moves every
/// output bit. Also a cheap hash of a 64-bit key.
pub(crate) fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// Generator number `index` of a family seeded by `seed`: threads or
    /// epochs that must not share a sequence.
    pub fn stream(seed: u64, index: u64) -> SplitMix64 {
        SplitMix64(seed ^ (index + 1).wrapping_mul(GOLDEN_GAMMA))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        mix64(self.0)
    }

    /// Uniform in `0..bound` (`bound` > 0) by multiply-high (Lemire), with
    /// a bias below 2⁻³² for any bound that fits memory.
    pub fn below(&mut self, bound: usize) -> usize {
        ((u128::from(self.next_u64()) * bound as u128) >> u64::BITS) as usize
    }

    /// One element of a non-empty slice, chosen uniformly.
    pub fn choose<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_are_reproducible_and_streams_differ() {
        let first: Vec<u64> = (0..4).map(|_| SplitMix64::new(7).next_u64()).collect();
        assert!(first.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            SplitMix64::stream(7, 0).next_u64(),
            SplitMix64::stream(7, 1).next_u64()
        );
        let mut rng = SplitMix64::new(3);
        let mut seen = [0usize; 6];
        for _ in 0..6000 {
            seen[rng.below(6)] += 1;
        }
        assert!(
            seen.iter().all(|&count| (800..1200).contains(&count)),
            "{seen:?}"
        );
    }
}
