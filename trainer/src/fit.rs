//! Fitting the sigmoid scale: the centipawns per unit of the sigmoid that
//! turns search scores into expected results, chosen so that those
//! expectations match the games' results as closely as they can.
//!
//! The fitted scale `s` minimises Σ (σ(score / s) − result)² over the
//! positions, both from the side to move's view. The sum depends on a
//! position only through its score and result, so positions are first
//! folded into one group per distinct score (its count and summed result;
//! the summed squared results do not depend on `s` and drop out), and each
//! evaluation costs the distinct scores, a few thousand, not the millions
//! of positions. The search is one-dimensional: a coarse grid over
//! [`MIN_SCALE`, `MAX_SCALE`], then golden-section search between the
//! neighbours of the grid's best point, so a sum with more than one dip
//! still ends in the lowest one the grid sees.

use std::collections::HashMap;

/// The smallest scale the fit considers, in centipawns ...
pub const MIN_SCALE: f32 = 50.0;
/// ... and the largest.
pub const MAX_SCALE: f32 = 1000.0;
/// Intervals of the coarse grid (50 cp each over the default range).
const GRID_INTERVALS: usize = 19;
/// Golden-section search stops when its bracket is this narrow (cp).
const TOLERANCE: f64 = 0.01;
/// 1/φ: the fraction of the bracket each golden-section probe keeps.
const INVERSE_GOLDEN_RATIO: f64 = 0.618_033_988_749_894_9;

/// One distinct score's positions: how many and their summed result.
struct Group {
    score: f64,
    count: f64,
    result_sum: f64,
}

/// The scale in [`MIN_SCALE`, `MAX_SCALE`] that minimises
/// Σ (σ(score / s) − result)² over `outcomes`, pairs of a score in
/// centipawns and a result in [0, 1] (0.5 a draw), both from the same
/// side's view. An empty set fits any scale; it gets about `MIN_SCALE`.
pub fn fit_sigmoid_scale(outcomes: &[(f32, f32)]) -> f32 {
    let groups = fold(outcomes);
    let objective = |scale: f64| -> f64 {
        groups
            .iter()
            .map(|group| {
                let expected = sigmoid(group.score / scale);
                group.count * expected * expected - 2.0 * expected * group.result_sum
            })
            .sum()
    };
    let (low, high) = (f64::from(MIN_SCALE), f64::from(MAX_SCALE));
    let spacing = (high - low) / GRID_INTERVALS as f64;
    let grid_point = |index: usize| low + spacing * index as f64;
    let best = (0..=GRID_INTERVALS)
        .map(|index| (index, objective(grid_point(index))))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(0, |(index, _)| index);
    let bracket = (
        grid_point(best.saturating_sub(1)),
        grid_point((best + 1).min(GRID_INTERVALS)),
    );
    golden_section(objective, bracket) as f32
}

/// The outcomes grouped by score, in score order (so that sums over the
/// groups, and with them the fit, are the same on every run).
fn fold(outcomes: &[(f32, f32)]) -> Vec<Group> {
    let mut by_score: HashMap<u32, Group> = HashMap::new();
    for &(score, result) in outcomes {
        let group = by_score.entry(score.to_bits()).or_insert(Group {
            score: f64::from(score),
            count: 0.0,
            result_sum: 0.0,
        });
        group.count += 1.0;
        group.result_sum += f64::from(result);
    }
    let mut groups: Vec<Group> = by_score.into_values().collect();
    groups.sort_by(|a, b| a.score.total_cmp(&b.score));
    groups
}

/// The minimum of `f` within `(low, high)`, assuming one dip there.
fn golden_section(f: impl Fn(f64) -> f64, (mut low, mut high): (f64, f64)) -> f64 {
    let mut left = high - INVERSE_GOLDEN_RATIO * (high - low);
    let mut right = low + INVERSE_GOLDEN_RATIO * (high - low);
    let (mut f_left, mut f_right) = (f(left), f(right));
    while high - low > TOLERANCE {
        if f_left <= f_right {
            high = right;
            (right, f_right) = (left, f_left);
            left = high - INVERSE_GOLDEN_RATIO * (high - low);
            f_left = f(left);
        } else {
            low = left;
            (left, f_left) = (right, f_right);
            right = low + INVERSE_GOLDEN_RATIO * (high - low);
            f_right = f(right);
        }
    }
    (low + high) / 2.0
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rookery::util::rng::SplitMix64;

    /// Bits of a `u64` that fit an `f64`'s mantissa.
    const MANTISSA_BITS: u32 = 53;

    /// Uniform in [0, 1).
    fn unit(rng: &mut SplitMix64) -> f64 {
        (rng.next_u64() >> (u64::BITS - MANTISSA_BITS)) as f64 / (1u64 << MANTISSA_BITS) as f64
    }

    /// `count` games' worth of outcomes drawn from a known scale: integer
    /// scores spread over ± `spread` cp, each a win with probability
    /// σ(score / scale) and a loss otherwise.
    fn synthetic(scale: f64, spread: i32, count: usize, seed: u64) -> Vec<(f32, f32)> {
        let mut rng = SplitMix64::new(seed);
        let width = (2 * spread + 1) as usize;
        (0..count)
            .map(|_| {
                let score = rng.below(width) as i32 - spread;
                let won = unit(&mut rng) < sigmoid(f64::from(score) / scale);
                (score as f32, if won { 1.0 } else { 0.0 })
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_the_scale_the_results_were_drawn_from() {
        const RELATIVE_TOLERANCE: f64 = 0.03;
        const OUTCOMES: usize = 200_000;
        const SPREAD: i32 = 1000;
        for (seed, scale) in [(1, 150.0), (2, 400.0), (3, 700.0)] {
            let outcomes = synthetic(scale, SPREAD, OUTCOMES, seed);
            let fitted = f64::from(fit_sigmoid_scale(&outcomes));
            assert!(
                (fitted - scale).abs() <= RELATIVE_TOLERANCE * scale,
                "drawn from {scale}, fitted {fitted}"
            );
        }
    }

    #[test]
    fn the_fit_stays_within_its_range() {
        // Results that ignore the score entirely want an infinitely flat
        // sigmoid; results that follow its sign exactly, a step.
        let flat: Vec<(f32, f32)> = (-500..=500).map(|score| (score as f32, 0.5)).collect();
        assert!((fit_sigmoid_scale(&flat) - MAX_SCALE).abs() < 1.0);
        let step: Vec<(f32, f32)> = (-500..=500)
            .map(|score| (score as f32, if score > 0 { 1.0 } else { 0.0 }))
            .collect();
        assert!((fit_sigmoid_scale(&step) - MIN_SCALE).abs() < 1.0);
        assert!((fit_sigmoid_scale(&[]) - MIN_SCALE).abs() < 1.0);
    }
}
