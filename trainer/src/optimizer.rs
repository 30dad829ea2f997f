//! The optimiser (AdamW) and the learning-rate schedule.
//!
//! AdamW keeps two moments per parameter, each a [`FloatNetwork`], and
//! walks parameters, gradient and moments tensor by tensor, so it needs no
//! knowledge of the layers beyond which tensors are weights: weight decay
//! (decoupled, as in Loshchilov and Hutter) applies to weights only, never
//! to biases. The state is public so that checkpoints can save and resume
//! it exactly.
//!
//! The schedule is a cosine decay per optimiser step, from the base rate
//! at the run's first step to a fraction of it at its last: a function of
//! the global step count alone (which AdamW keeps and checkpoints save),
//! so a resumed run continues the curve where it stopped.

use rookery::nnue::OutputBuckets;

use crate::model::{FloatNetwork, IS_WEIGHT};

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// AdamW's state: the moment estimates and the number of steps taken.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    pub first_moment: FloatNetwork,
    pub second_moment: FloatNetwork,
    pub steps: u64,
}

impl AdamW {
    /// A fresh optimiser for networks with `buckets`: no steps taken.
    pub fn new(buckets: OutputBuckets) -> AdamW {
        AdamW {
            first_moment: FloatNetwork::zeros(buckets),
            second_moment: FloatNetwork::zeros(buckets),
            steps: 0,
        }
    }

    /// One step of `parameters` down `gradient` with learning rate `rate`,
    /// decaying weights by `weight_decay` (relative to the rate).
    pub fn step(
        &mut self,
        parameters: &mut FloatNetwork,
        gradient: &FloatNetwork,
        rate: f32,
        weight_decay: f32,
    ) {
        self.steps += 1;
        let steps = i32::try_from(self.steps).unwrap_or(i32::MAX);
        let first_correction = 1.0 / (1.0 - BETA1.powi(steps));
        let second_correction = 1.0 / (1.0 - BETA2.powi(steps));
        let tensors = parameters
            .tensors_mut()
            .into_iter()
            .zip(gradient.tensors())
            .zip(self.first_moment.tensors_mut())
            .zip(self.second_moment.tensors_mut())
            .zip(IS_WEIGHT);
        for ((((values, gradients), firsts), seconds), is_weight) in tensors {
            let decay = if is_weight { rate * weight_decay } else { 0.0 };
            let moments = firsts.iter_mut().zip(seconds.iter_mut());
            for ((value, &gradient), (first, second)) in
                values.iter_mut().zip(gradients).zip(moments)
            {
                *first = BETA1 * *first + (1.0 - BETA1) * gradient;
                *second = BETA2 * *second + (1.0 - BETA2) * gradient * gradient;
                let first_unbiased = *first * first_correction;
                let second_unbiased = *second * second_correction;
                *value -=
                    rate * first_unbiased / (second_unbiased.sqrt() + EPSILON) + decay * *value;
            }
        }
    }
}

/// The learning rate of each optimiser step of a run: a half cosine from
/// `base_rate` at step 0 down to `base_rate × final_fraction` at step
/// `total_steps − 1`, and that final rate after it.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    pub base_rate: f32,
    /// The last step's rate as a fraction of `base_rate`.
    pub final_fraction: f32,
    /// The run's steps: its epochs times the batches of an epoch.
    pub total_steps: u64,
}

impl Schedule {
    /// The rate for step `step` (counted from 0 over the whole run).
    pub fn rate(&self, step: u64) -> f32 {
        let last = self.total_steps.saturating_sub(1).max(1);
        let progress = step.min(last) as f64 / last as f64;
        let cosine = 0.5 * (1.0 + (std::f64::consts::PI * progress).cos());
        let final_rate = f64::from(self.base_rate) * f64::from(self.final_fraction);
        (final_rate + (f64::from(self.base_rate) - final_rate) * cosine) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_falls_by_a_cosine_from_the_base_to_the_final_fraction() {
        const BASE: f32 = 0.001;
        const FRACTION: f32 = 0.01;
        const STEPS: u64 = 1001;
        let schedule = Schedule {
            base_rate: BASE,
            final_fraction: FRACTION,
            total_steps: STEPS,
        };
        let rates: Vec<f32> = (0..STEPS).map(|step| schedule.rate(step)).collect();
        assert_eq!(rates[0], BASE);
        assert!((rates[rates.len() - 1] - BASE * FRACTION).abs() < 1e-9);
        assert!(rates.windows(2).all(|pair| pair[1] <= pair[0]));
        let halfway = BASE * (1.0 + FRACTION) / 2.0;
        assert!((schedule.rate(STEPS / 2) - halfway).abs() < 1e-5 * BASE);
        assert_eq!(schedule.rate(STEPS + 10), rates[rates.len() - 1]);
    }

    #[test]
    fn a_first_step_moves_each_parameter_by_the_rate_against_its_gradient() {
        let buckets = OutputBuckets::PieceCount;
        let mut parameters = FloatNetwork::zeros(buckets);
        parameters.output_bias[5] = 1.0;
        parameters.feature_bias[0] = 1.0;
        let mut gradient = FloatNetwork::zeros(buckets);
        gradient.output_bias[5] = 0.5;
        gradient.feature_weights[3][4] = -2.0;
        let mut optimizer = AdamW::new(buckets);
        optimizer.step(&mut parameters, &gradient, 0.01, 0.1);
        assert!(
            (parameters.output_bias[5] - 0.99).abs() < 1e-6,
            "biases are not decayed"
        );
        assert!((parameters.feature_weights[3][4] - 0.01).abs() < 1e-6);
        assert_eq!(parameters.feature_bias[0], 1.0, "no gradient, no decay");
        assert_eq!(optimizer.steps, 1);
    }
}
