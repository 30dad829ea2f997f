//! The training loop's arithmetic: the loss, one pass of mini-batch AdamW
//! steps over a set of samples (each step at its schedule's rate), and the
//! validation loss, all spread over threads.
//!
//! Each batch is cut into one contiguous slice per thread; every thread
//! runs the forward and backward passes of its slice into a gradient of
//! its own (a dense [`FloatNetwork`]: the first layer's 768×HIDDEN floats
//! stay in cache, and clearing them costs far less than the batch), the
//! gradients are summed, and one optimiser step follows. Threads are
//! scoped per batch: spawning two to sixteen threads is microseconds
//! against a batch's tens of milliseconds, and needs no channels or locks.

use crate::data::Sample;
use crate::model::FloatNetwork;
use crate::optimizer::{AdamW, Schedule};

/// Mean squared error between win probabilities: the network's output
/// through a sigmoid against a blend of the search score's (through the
/// same sigmoid) and the game's result.
#[derive(Clone, Copy, Debug)]
pub struct Loss {
    /// λ: the weight of the search score in the target; the game result
    /// gets `1 − λ`.
    pub score_weight: f32,
    /// Centipawns per unit of the sigmoid's argument (400: a pawn-ish
    /// advantage of 100 cp is a 56% expectation).
    pub sigmoid_scale: f32,
    /// Centipawns per unit of network output (`rookery::nnue::SCALE`).
    pub output_scale: f32,
}

impl Loss {
    /// What the network should predict for `sample`, as a probability.
    pub fn target(&self, sample: &Sample) -> f32 {
        self.score_weight * sigmoid(sample.score() / self.sigmoid_scale)
            + (1.0 - self.score_weight) * sample.result()
    }

    /// The loss of `output` against `target`, and its derivative with
    /// respect to `output`.
    pub fn of(&self, output: f32, target: f32) -> (f32, f32) {
        let slope = self.output_scale / self.sigmoid_scale;
        let prediction = sigmoid(output * slope);
        let error = prediction - target;
        let derivative = 2.0 * error * prediction * (1.0 - prediction) * slope;
        (error * error, derivative)
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// How a run trains: everything an epoch needs besides the data.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub loss: Loss,
    pub batch_size: usize,
    pub weight_decay: f32,
    pub threads: usize,
}

/// A network being trained, with its optimiser and per-thread gradients.
pub struct Trainer {
    pub network: FloatNetwork,
    pub optimizer: AdamW,
    settings: Settings,
    gradients: Vec<FloatNetwork>,
}

impl Trainer {
    pub fn new(network: FloatNetwork, optimizer: AdamW, settings: Settings) -> Trainer {
        Trainer {
            gradients: vec![FloatNetwork::zeros(network.buckets); settings.threads.max(1)],
            network,
            optimizer,
            settings,
        }
    }

    /// One pass over `samples` in their order, one optimiser step per
    /// batch at the rate `schedule` gives the optimiser's step count;
    /// returns the mean training loss (each batch's loss measured before
    /// its step).
    pub fn train_pass(&mut self, samples: &[Sample], schedule: &Schedule) -> f64 {
        let mut loss_sum = 0.0;
        for batch in samples.chunks(self.settings.batch_size.max(1)) {
            let (batch_loss, used) = self.batch_gradient(batch);
            loss_sum += batch_loss;
            let [total, others @ ..] = &mut self.gradients[..used] else {
                unreachable!("a batch has at least one slice");
            };
            for other in others.iter() {
                total.add(other);
            }
            total.scale(1.0 / batch.len() as f32);
            let rate = schedule.rate(self.optimizer.steps);
            self.optimizer
                .step(&mut self.network, total, rate, self.settings.weight_decay);
            self.network.clip();
        }
        loss_sum / samples.len().max(1) as f64
    }

    /// Fills the first gradient buffers, one per slice of the batch, with
    /// the slices' summed (not averaged) gradients; returns the batch's
    /// summed loss and how many buffers hold a slice (a batch smaller
    /// than the thread count leaves some out).
    fn batch_gradient(&mut self, batch: &[Sample]) -> (f64, usize) {
        let slice = batch.len().div_ceil(self.gradients.len());
        let network = &self.network;
        let loss = self.settings.loss;
        std::thread::scope(|scope| {
            let workers: Vec<_> = self
                .gradients
                .iter_mut()
                .zip(batch.chunks(slice))
                .map(|(gradient, part)| {
                    scope.spawn(move || {
                        gradient.clear();
                        accumulate_gradient(network, &loss, part, gradient)
                    })
                })
                .collect();
            let used = workers.len();
            let sum = workers
                .into_iter()
                .map(|worker| worker.join().expect("a training thread panicked"))
                .sum();
            (sum, used)
        })
    }
}

/// Adds the gradient of `samples`' summed loss to `gradient`; returns
/// that summed loss.
fn accumulate_gradient(
    network: &FloatNetwork,
    loss: &Loss,
    samples: &[Sample],
    gradient: &mut FloatNetwork,
) -> f64 {
    let mut sum = 0.0;
    for sample in samples {
        let features = sample.features();
        let activations = network.forward(features);
        let (value, derivative) = loss.of(activations.output, loss.target(sample));
        network.backward(features, &activations, derivative, gradient);
        sum += f64::from(value);
    }
    sum
}

/// The mean loss of `network` on `samples`, computed on `threads` threads.
pub fn mean_loss(network: &FloatNetwork, loss: &Loss, samples: &[Sample], threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let slice = samples.len().div_ceil(threads.max(1));
    let sum: f64 = std::thread::scope(|scope| {
        let workers: Vec<_> = samples
            .chunks(slice)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|sample| {
                            let output = network.forward(sample.features()).output;
                            f64::from(loss.of(output, loss.target(sample)).0)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().expect("a validation thread panicked"))
            .sum()
    });
    sum / samples.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_positions::random_positions;
    use rookery::nnue::{HIDDEN, OutputBuckets, SCALE};
    use rookery::records::GameResult;
    use shakmaty::{Chess, Color, Position, Role};

    const LOSS: Loss = Loss {
        score_weight: 0.75,
        sigmoid_scale: 400.0,
        output_scale: SCALE as f32,
    };

    /// White's material in centipawns minus Black's.
    fn material(pos: &Chess) -> i16 {
        const VALUES: [(Role, i16); 5] = [
            (Role::Pawn, 100),
            (Role::Knight, 300),
            (Role::Bishop, 300),
            (Role::Rook, 500),
            (Role::Queen, 900),
        ];
        let board = pos.board();
        VALUES
            .iter()
            .map(|&(role, value)| {
                let count =
                    |color: Color| (board.by_role(role) & board.by_color(color)).count() as i16;
                value * (count(Color::White) - count(Color::Black))
            })
            .sum()
    }

    fn material_samples(count: usize, seed: u64) -> Vec<Sample> {
        random_positions(count, seed)
            .iter()
            .map(|pos| {
                let score = material(pos);
                let result = match score.signum() {
                    1 => GameResult::WhiteWins,
                    -1 => GameResult::BlackWins,
                    _ => GameResult::Draw,
                };
                Sample::new(pos, score, result).unwrap()
            })
            .collect()
    }

    #[test]
    fn analytic_gradients_match_finite_differences() {
        const STEP: f32 = 1e-3;
        const RELATIVE_TOLERANCE: f64 = 0.02;
        const ABSOLUTE_TOLERANCE: f64 = 1e-6;
        let samples = material_samples(4, 21);
        let buckets = OutputBuckets::PieceCount;
        let mut network = FloatNetwork::zeros(buckets);
        network.randomise(5, 0.1, 0.5, 0.1);
        let mut gradient = FloatNetwork::zeros(buckets);
        accumulate_gradient(&network, &LOSS, &samples, &mut gradient);

        let feature = usize::from(samples[0].features()[0][0]);
        // The output layer of the first sample's bucket, and of a bucket
        // no sample is in (no gradient).
        let bucket = buckets.of(samples[0].features()[0].len());
        let unused = (0..buckets.count())
            .find(|&b| {
                samples
                    .iter()
                    .all(|s| buckets.of(s.features()[0].len()) != b)
            })
            .unwrap();
        let probes: [(usize, usize); 8] = [
            (0, feature * HIDDEN + 3),
            (0, feature * HIDDEN + 100),
            (1, 17),
            (2, bucket * 2 * HIDDEN + 40),
            (2, bucket * 2 * HIDDEN + HIDDEN + 9),
            (2, unused * 2 * HIDDEN + 7),
            (3, bucket),
            (3, unused),
        ];
        let summed_loss = |network: &FloatNetwork| -> f64 {
            samples
                .iter()
                .map(|s| {
                    f64::from(
                        LOSS.of(network.forward(s.features()).output, LOSS.target(s))
                            .0,
                    )
                })
                .sum()
        };
        for (tensor, index) in probes {
            let analytic = f64::from(gradient.tensors()[tensor][index]);
            let mut moved = network.clone();
            moved.tensors_mut()[tensor][index] += STEP;
            let above = summed_loss(&moved);
            moved.tensors_mut()[tensor][index] -= 2.0 * STEP;
            let below = summed_loss(&moved);
            let numeric = (above - below) / (2.0 * f64::from(STEP));
            assert!(
                (analytic - numeric).abs()
                    <= ABSOLUTE_TOLERANCE + RELATIVE_TOLERANCE * numeric.abs(),
                "tensor {tensor}[{index}]: analytic {analytic}, numeric {numeric}"
            );
        }
    }

    #[test]
    fn training_on_material_balance_lowers_the_loss() {
        const EPOCHS: usize = 6;
        const RATE: f32 = 0.002;
        const CONSTANT: Schedule = Schedule {
            base_rate: RATE,
            final_fraction: 1.0,
            total_steps: 1,
        };
        let mut samples = material_samples(24000, 3);
        let validation = samples.split_off(20000);
        let settings = Settings {
            loss: LOSS,
            batch_size: 128,
            weight_decay: 0.0,
            threads: 2,
        };
        let buckets = OutputBuckets::Single;
        let mut trainer = Trainer::new(
            FloatNetwork::initial(9, buckets),
            AdamW::new(buckets),
            settings,
        );
        let before = mean_loss(&trainer.network, &LOSS, &validation, 2);
        for _ in 0..EPOCHS {
            trainer.train_pass(&samples, &CONSTANT);
        }
        let after = mean_loss(&trainer.network, &LOSS, &validation, 2);
        assert!(after < 0.5 * before, "validation loss {before} -> {after}");
    }
}
