//! Rates the engine reports: nodes per second, as `info … nps`, `bench`
//! and `perft` give it. Plain arithmetic, below the protocol and the tools
//! that print it.

use std::time::Duration;

const NANOS_PER_SECOND: u128 = 1_000_000_000;

/// Nodes per second over `elapsed` (a zero time counts as a nanosecond).
pub(crate) fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    let per_second = u128::from(nodes) * NANOS_PER_SECOND / elapsed.as_nanos().max(1);
    u64::try_from(per_second).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_per_second_counts_a_zero_time_as_a_nanosecond() {
        assert_eq!(nodes_per_second(3_000, Duration::from_millis(2)), 1_500_000);
        assert_eq!(nodes_per_second(7, Duration::ZERO), 7_000_000_000);
        assert_eq!(nodes_per_second(u64::MAX, Duration::ZERO), u64::MAX);
    }
}
