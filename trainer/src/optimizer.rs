//! The optimiser (AdamW) and the learning-rate schedule.
//!
//! AdamW keeps two moments per parameter, each a [`FloatNetwork`], and
//! walks parameters, gradient and moments tensor by tensor, so it needs no
//! knowledge of the layers beyond which tensors are weights: weight decay
//! (decoupled, as in Loshchilov and Hutter) applies to weights only, never
//! to biases. The state is public so that checkpoints can save and resume
//! it exactly.
//!
//! The schedule is a step schedule: the base rate, then ×[`DROP_FACTOR`]
//! at each of [`DROP_POINTS`] (fractions of the run's epochs).

use crate::model::{FloatNetwork, IS_WEIGHT};

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;
/// Where the learning rate drops, as fractions of the run's epochs ...
const DROP_POINTS: [f64; 2] = [0.6, 0.85];
/// ... and by how much each time.
const DROP_FACTOR: f32 = 0.3;

/// AdamW's state: the moment estimates and the number of steps taken.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    pub first_moment: FloatNetwork,
    pub second_moment: FloatNetwork,
    pub steps: u64,
}

impl Default for AdamW {
    fn default() -> AdamW {
        AdamW {
            first_moment: FloatNetwork::zeros(),
            second_moment: FloatNetwork::zeros(),
            steps: 0,
        }
    }
}

impl AdamW {
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

/// The learning rate of each epoch of a run.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    pub base_rate: f32,
    pub epochs: usize,
}

impl Schedule {
    /// The rate for `epoch` (counted from 0).
    pub fn rate(&self, epoch: usize) -> f32 {
        let progress = epoch as f64 / self.epochs as f64;
        DROP_POINTS
            .iter()
            .filter(|&&point| progress >= point)
            .fold(self.base_rate, |rate, _| rate * DROP_FACTOR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_drops_at_sixty_and_eighty_five_percent() {
        let schedule = Schedule {
            base_rate: 1.0,
            epochs: 20,
        };
        let rates: Vec<f32> = (0..20).map(|epoch| schedule.rate(epoch)).collect();
        assert!(rates[..12].iter().all(|&rate| rate == 1.0));
        assert!(rates[12..17].iter().all(|&rate| rate == DROP_FACTOR));
        assert!(
            rates[17..]
                .iter()
                .all(|&rate| rate == DROP_FACTOR * DROP_FACTOR)
        );
    }

    #[test]
    fn a_first_step_moves_each_parameter_by_the_rate_against_its_gradient() {
        let mut parameters = FloatNetwork::zeros();
        parameters.output_bias = 1.0;
        parameters.feature_bias[0] = 1.0;
        let mut gradient = FloatNetwork::zeros();
        gradient.output_bias = 0.5;
        gradient.feature_weights[3][4] = -2.0;
        let mut optimizer = AdamW::default();
        optimizer.step(&mut parameters, &gradient, 0.01, 0.1);
        assert!(
            (parameters.output_bias - 0.99).abs() < 1e-6,
            "biases are not decayed"
        );
        assert!((parameters.feature_weights[3][4] - 0.01).abs() < 1e-6);
        assert_eq!(parameters.feature_bias[0], 1.0, "no gradient, no decay");
        assert_eq!(optimizer.steps, 1);
    }
}
