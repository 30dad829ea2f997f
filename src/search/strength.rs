//! Playing at a chosen rating. The search gets the rating as a plain
//! number: which one the options ask for (`UCI_LimitStrength` and
//! `UCI_Elo`, or Stockfish's `Skill Level`) is the options' to say
//! (`Options::playing_elo`).
//!
//! A rating becomes two handicaps, both heavier as the rating falls:
//!
//! * **a node budget** per move, doubling every [`ELO_PER_NODE_DOUBLING`]
//!   points, on one search thread. It is a soft limit (no new iteration
//!   past it, a hard cap at [`HARD_NODE_FACTOR`] times it), and an
//!   iteration that the cap or the clock cuts short leaves the last full
//!   set of lines to choose among, so every candidate was searched in full;
//! * **a human choice among the best moves**: the search looks at
//!   [`CANDIDATE_LINES`] lines (MultiPV; it shows only the lines the
//!   `MultiPV` option asks for, and last the line it plays), and the move
//!   to play is drawn among them with a chance that falls exponentially
//!   with how many centipawns it gives away, `exp(−loss / T)`. The temperature `T` is
//!   large for a low rating and falls linearly towards [`EXACT_PLAY_ELO`]
//!   (above the highest rating offered, so it never reaches nothing). A
//!   weak player so mostly finds a good move, often a slightly worse one,
//!   and only rarely a blunder, and the blunders it makes are moves a
//!   search of its depth found plausible, never random ones.
//!
//! The clock is never a handicap: a limited search stops at its node
//! budget or its time budget, whichever comes first, so it cannot lose on
//! time any more than the full-strength engine. The rating scale is
//! Stockfish 15.1's `UCI_Elo` (its range, 1350 to 2850, too), against which
//! the constants were calibrated by matches (the README's table).

use super::limits::Limits;
use crate::util::rng::SplitMix64;

/// The lowest and highest rating the handicaps are calibrated for:
/// Stockfish 15.1's `UCI_Elo` range, which the `UCI_Elo` option offers
/// (the engine checks at compile time that the two agree).
pub(crate) const MIN_ELO: i32 = 1350;
pub(crate) const MAX_ELO: i32 = 2850;

/// The node budget at [`MIN_ELO`] ...
const NODES_AT_MIN_ELO: f64 = 85.0;
/// ... doubling every this many rating points above it.
const ELO_PER_NODE_DOUBLING: f64 = 80.0;
/// The hard node cap, in node budgets: an iteration that started below the
/// budget may finish, but not run away.
const HARD_NODE_FACTOR: u64 = 8;

/// Lines searched to choose among.
pub(crate) const CANDIDATE_LINES: usize = 4;
/// The temperature, in centipawns, at [`MIN_ELO`] ...
const TEMPERATURE_AT_MIN_ELO: f64 = 30.0;
/// ... falling linearly towards zero at this rating, which is above the
/// highest one offered: even at [`MAX_ELO`] the choice is not quite exact.
const EXACT_PLAY_ELO: f64 = 3000.0;
const _: () = assert!((MAX_ELO as f64) < EXACT_PLAY_ELO);

/// A chosen playing strength, for one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: i32,
    /// Seeds the draw of the move to play: the caller picks a fresh one per
    /// search, so that games vary; a test picks a fixed one.
    seed: u64,
}

impl Strength {
    /// The strength of rating `elo`, clamped into the offered range, with
    /// `seed` for its choice.
    pub fn new(elo: i32, seed: u64) -> Strength {
        Strength {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
            seed,
        }
    }

    /// `limits` with this strength's node budget added (a tighter limit
    /// already there stays).
    pub(crate) fn limit(self, limits: Limits) -> Limits {
        let soft = limits
            .soft_nodes
            .map_or(self.soft_nodes(), |n| n.min(self.soft_nodes()));
        let hard = limits
            .nodes
            .map_or(self.hard_nodes(), |n| n.min(self.hard_nodes()));
        Limits {
            soft_nodes: Some(soft),
            nodes: Some(hard),
            ..limits
        }
    }

    /// Nodes per move: no new iteration starts past this many.
    fn soft_nodes(self) -> u64 {
        let doublings = f64::from(self.elo - MIN_ELO) / ELO_PER_NODE_DOUBLING;
        (NODES_AT_MIN_ELO * doublings.exp2()) as u64
    }

    /// The node count at which the search is cut, whatever it is doing.
    fn hard_nodes(self) -> u64 {
        self.soft_nodes() * HARD_NODE_FACTOR
    }

    /// The temperature of the choice, in centipawns.
    fn temperature(self) -> f64 {
        let share = (EXACT_PLAY_ELO - f64::from(self.elo)) / (EXACT_PLAY_ELO - f64::from(MIN_ELO));
        TEMPERATURE_AT_MIN_ELO * share
    }

    /// Which of the lines with these `scores` (best first, in centipawns)
    /// to play: line `i` with a chance proportional to
    /// `exp(−(scores[0] − scores[i]) / T)`. `scores` must not be empty.
    pub(crate) fn choose(self, scores: &[i32]) -> usize {
        let temperature = self.temperature();
        if scores.len() <= 1 {
            return 0;
        }
        let best = scores[0];
        let weights: Vec<f64> = scores
            .iter()
            .map(|&score| (-f64::from(best.saturating_sub(score)) / temperature).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        // A uniform draw in [0, total), 53 bits of it.
        let mut draw =
            (SplitMix64::new(self.seed).next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (index, weight) in weights.iter().enumerate() {
            if draw < *weight {
                return index;
            }
            draw -= weight;
        }
        scores.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_grows_with_the_rating_and_the_range_is_clamped() {
        let low = Strength::new(MIN_ELO, 0);
        assert_eq!(low.soft_nodes(), NODES_AT_MIN_ELO as u64);
        assert_eq!(Strength::new(0, 0), low);
        assert_eq!(Strength::new(i32::MAX, 0), Strength::new(MAX_ELO, 0));
        let mut last = 0;
        for elo in (MIN_ELO..=MAX_ELO).step_by(50) {
            let strength = Strength::new(elo, 0);
            assert!(strength.soft_nodes() > last);
            assert_eq!(
                strength.hard_nodes(),
                strength.soft_nodes() * HARD_NODE_FACTOR
            );
            last = strength.soft_nodes();
        }
        let doubled = Strength::new(MIN_ELO + ELO_PER_NODE_DOUBLING as i32, 0);
        assert_eq!(doubled.soft_nodes(), 2 * low.soft_nodes());
    }

    /// How often each of `scores`' lines is chosen in `draws` searches
    /// at rating `elo`, seeded 0, 1, 2, ...
    fn frequencies(elo: i32, scores: &[i32], draws: u64) -> Vec<usize> {
        let mut counts = vec![0; scores.len()];
        for seed in 0..draws {
            counts[Strength::new(elo, seed).choose(scores)] += 1;
        }
        counts
    }

    #[test]
    fn better_moves_are_chosen_more_often_and_blunders_rarely() {
        let scores = [50, 30, -100, -600];
        let counts = frequencies(MIN_ELO, &scores, 10_000);
        assert!(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > counts[3]);
        assert!(counts[1] > 1000, "{counts:?}");
        assert!(counts[3] < 100, "{counts:?}");
        // The expected shares, from exp(−loss / T) with T = 30 cp.
        let weights: Vec<f64> = scores
            .iter()
            .map(|s| (-(f64::from(50 - s)) / TEMPERATURE_AT_MIN_ELO).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        for (count, weight) in counts.iter().zip(&weights) {
            let expected = 10_000.0 * weight / total;
            assert!((*count as f64 - expected).abs() < 200.0, "{counts:?}");
        }
    }

    #[test]
    fn a_higher_rating_chooses_the_best_line_more_often() {
        let scores = [20, 0, -40, -80];
        let low = frequencies(1500, &scores, 5_000)[0];
        let high = frequencies(2500, &scores, 5_000)[0];
        assert!(high > low + 500, "{low} {high}");
    }

    #[test]
    fn the_top_rating_nearly_always_plays_a_clearly_best_line() {
        let best = frequencies(MAX_ELO, &[60, 20, -20, -60], 1_000)[0];
        assert!(best > 950, "{best}");
    }

    #[test]
    fn one_line_or_equal_lines_are_handled() {
        assert_eq!(Strength::new(MIN_ELO, 1).choose(&[0]), 0);
        let counts = frequencies(MIN_ELO, &[10, 10], 4_000);
        assert!(counts[0].abs_diff(counts[1]) < 400, "{counts:?}");
    }
}
