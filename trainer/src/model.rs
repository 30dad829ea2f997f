//! The float network the trainer optimises: its weights, its forward and
//! backward passes, and its quantisation into the engine's integer format.
//!
//! It is the engine's network (`rookery::nnue`) in `f32`: one accumulator
//! per perspective (the bias plus the weight rows of the active features),
//! squared clipped ReLU, and an output layer that reads the side to move's
//! half first: one layer, or one per output bucket, of which a position
//! uses (and trains) only its bucket's (the library's `OutputBuckets`
//! chooses it from the position's piece count, as the engine does). The
//! layout mirrors the engine's file (rows of `HIDDEN` weights per input
//! feature, the output layers bucket by bucket), so quantising is a plain
//! scale and round, and every size comes from the library, so the two
//! cannot drift apart; the width is the build's (`rookery::nnue::HIDDEN`,
//! set by the crate's `hidden-*` features).
//!
//! The same type holds gradients and the optimiser's moments: anything
//! shaped like the network is a [`FloatNetwork`], and [`FloatNetwork::tensors`]
//! lets the optimiser and the checkpoint walk all of them in one order.
//!
//! Inner loops run over fixed-size `[f32; HIDDEN]` rows so that LLVM
//! vectorises them; the one reduction (the output layer's dot product)
//! keeps [`LANES`] partial sums because float addition is not reordered
//! otherwise.

use rookery::nnue::{HIDDEN, INPUTS, MAX_OUTPUT_WEIGHT, OutputBuckets, QA, QB, QuantisedNetwork};
use rookery::util::rng::SplitMix64;

/// Largest magnitude any parameter may take: quantised by `QB` the output
/// weights reach the engine's `MAX_OUTPUT_WEIGHT` exactly (a power-of-two
/// divisor, so no rounding), which its output layer's arithmetic needs;
/// quantised by `QA·QB` the output bias still fits an `i16`.
pub const WEIGHT_CLIP: f32 = MAX_OUTPUT_WEIGHT as f32 / QB as f32;
/// The tensors of a network, in file order: feature weights, feature
/// biases, output weights, output biases (the last two bucket by bucket).
pub const TENSORS: usize = 4;
/// Which of [`FloatNetwork::tensors`] are weights (decayed) and which
/// biases (not decayed).
pub const IS_WEIGHT: [bool; TENSORS] = [true, false, true, false];
/// What each tensor is multiplied by when quantised (the engine's units).
const QUANTISATION: [i32; TENSORS] = [QA, QA, QB, QA * QB];
/// Initial feature weights are uniform in ± this: with the ~30 pieces of
/// an opening position the accumulators start with a spread of about 0.4,
/// inside the SCReLU's useful range (0, 1).
const FEATURE_WEIGHT_INIT: f32 = 0.125;
/// Partial sums of the output layer's dot product (a vector's width).
const LANES: usize = 16;
const _: () = assert!(
    HIDDEN.is_multiple_of(LANES),
    "the output layer's dot product reads whole chunks of LANES"
);

/// The network in `f32`; also the shape of its gradients and moments.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// One row of `HIDDEN` weights per input feature (`INPUTS` rows).
    pub feature_weights: Vec<[f32; HIDDEN]>,
    pub feature_bias: [f32; HIDDEN],
    /// The output layers and which one a position uses.
    pub buckets: OutputBuckets,
    /// One per bucket: `[0]` weighs the side to move's accumulator, `[1]`
    /// the other's.
    pub output_weights: Vec<[[f32; HIDDEN]; 2]>,
    /// One per bucket.
    pub output_bias: Vec<f32>,
}

/// What the backward pass needs from the forward pass.
pub struct Activations {
    /// The accumulators before SCReLU: side to move first.
    pub accumulators: [[f32; HIDDEN]; 2],
    /// The output bucket the position used.
    pub bucket: usize,
    /// The network's output; times `SCALE` it is centipawns.
    pub output: f32,
}

impl FloatNetwork {
    /// All zeros, with `buckets`: an empty gradient or optimiser moment.
    pub fn zeros(buckets: OutputBuckets) -> FloatNetwork {
        FloatNetwork {
            feature_weights: vec![[0.0; HIDDEN]; INPUTS],
            feature_bias: [0.0; HIDDEN],
            buckets,
            output_weights: vec![[[0.0; HIDDEN]; 2]; buckets.count()],
            output_bias: vec![0.0; buckets.count()],
        }
    }

    /// A fresh network to train: small uniform weights, zero biases.
    pub fn initial(seed: u64, buckets: OutputBuckets) -> FloatNetwork {
        let output_init = 1.0 / (2.0 * HIDDEN as f32).sqrt();
        let mut network = FloatNetwork::zeros(buckets);
        network.randomise(seed, FEATURE_WEIGHT_INIT, output_init, 0.0);
        network
    }

    /// Sets every weight uniform in ±`feature` (first layer) or ±`output`
    /// (output layer) and every bias uniform in ±`bias`.
    pub fn randomise(&mut self, seed: u64, feature: f32, output: f32, bias: f32) {
        let mut rng = SplitMix64::new(seed);
        let ranges = [feature, bias, output, bias];
        for (tensor, range) in self.tensors_mut().into_iter().zip(ranges) {
            for value in tensor {
                *value = range * uniform(&mut rng);
            }
        }
    }

    /// The tensors in file order (see [`IS_WEIGHT`]).
    pub fn tensors(&self) -> [&[f32]; TENSORS] {
        [
            self.feature_weights.as_flattened(),
            &self.feature_bias,
            self.output_weights.as_flattened().as_flattened(),
            &self.output_bias,
        ]
    }

    /// The tensors in file order, mutably.
    pub fn tensors_mut(&mut self) -> [&mut [f32]; TENSORS] {
        [
            self.feature_weights.as_flattened_mut(),
            &mut self.feature_bias,
            self.output_weights.as_flattened_mut().as_flattened_mut(),
            &mut self.output_bias,
        ]
    }

    /// Sets every value to zero, keeping the allocation.
    pub fn clear(&mut self) {
        for tensor in self.tensors_mut() {
            tensor.fill(0.0);
        }
    }

    /// Adds `other` to `self`, value by value.
    pub fn add(&mut self, other: &FloatNetwork) {
        for (ours, theirs) in self.tensors_mut().into_iter().zip(other.tensors()) {
            for (value, added) in ours.iter_mut().zip(theirs) {
                *value += added;
            }
        }
    }

    /// Multiplies every value by `factor`.
    pub fn scale(&mut self, factor: f32) {
        for tensor in self.tensors_mut() {
            for value in tensor {
                *value *= factor;
            }
        }
    }

    /// Keeps every parameter within ±[`WEIGHT_CLIP`], so that quantising
    /// cannot overflow.
    pub fn clip(&mut self) {
        for tensor in self.tensors_mut() {
            for value in tensor {
                *value = value.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
        }
    }

    /// The forward pass for a position whose active features are
    /// `features` (side to move's perspective first), through the output
    /// layer of its bucket: a feature per piece on the board, so each
    /// perspective's count of them is the position's piece count.
    pub fn forward(&self, features: [&[u16]; 2]) -> Activations {
        let accumulators = features.map(|active| self.accumulate(active));
        let bucket = self.buckets.of(features[0].len());
        let weights = &self.output_weights[bucket];
        let output = self.output_bias[bucket]
            + screlu_dot(&accumulators[0], &weights[0])
            + screlu_dot(&accumulators[1], &weights[1]);
        Activations {
            accumulators,
            bucket,
            output,
        }
    }

    /// Adds to `gradient` the gradient of a loss whose derivative with
    /// respect to this position's output is `output_gradient`.
    pub fn backward(
        &self,
        features: [&[u16]; 2],
        activations: &Activations,
        output_gradient: f32,
        gradient: &mut FloatNetwork,
    ) {
        let bucket = activations.bucket;
        gradient.output_bias[bucket] += output_gradient;
        let sides = features
            .into_iter()
            .zip(&activations.accumulators)
            .zip(&self.output_weights[bucket])
            .zip(&mut gradient.output_weights[bucket]);
        for (((active, accumulator), weights), weight_gradients) in sides {
            let mut accumulator_gradient = [0.0f32; HIDDEN];
            for (((slot, weight_gradient), &value), &weight) in accumulator_gradient
                .iter_mut()
                .zip(weight_gradients.iter_mut())
                .zip(accumulator)
                .zip(weights)
            {
                *weight_gradient += output_gradient * screlu(value);
                *slot = output_gradient * weight * screlu_derivative(value);
            }
            add_row(&mut gradient.feature_bias, &accumulator_gradient);
            for &feature in active {
                add_row(
                    &mut gradient.feature_weights[usize::from(feature)],
                    &accumulator_gradient,
                );
            }
        }
    }

    /// The engine's integer network: first layer ×`QA`, output weights
    /// ×`QB`, output bias ×`QA·QB`, rounded to nearest. [`clip`](Self::clip)
    /// keeps every product inside `i16` (`as` would saturate otherwise).
    pub fn quantise(&self) -> QuantisedNetwork {
        let tensors = self.tensors();
        let [feature_weights, feature_bias, output_weights, output_bias] =
            std::array::from_fn(|tensor| {
                let factor = QUANTISATION[tensor] as f32;
                tensors[tensor]
                    .iter()
                    .map(|value| (value * factor).round() as i16)
                    .collect::<Vec<i16>>()
            });
        QuantisedNetwork {
            feature_weights,
            feature_bias,
            buckets: self.buckets,
            output_weights,
            output_bias,
        }
    }

    /// The float network `quantised` stands for: each value divided by
    /// its tensor's factor, so that quantising it gives `quantised` back.
    /// A shipped network is a starting point for training on (`--init`).
    pub fn dequantise(quantised: &QuantisedNetwork) -> FloatNetwork {
        let mut network = FloatNetwork::zeros(quantised.buckets);
        let sources = [
            quantised.feature_weights.as_slice(),
            &quantised.feature_bias,
            &quantised.output_weights,
            &quantised.output_bias,
        ];
        for ((tensor, source), factor) in network
            .tensors_mut()
            .into_iter()
            .zip(sources)
            .zip(QUANTISATION)
        {
            for (value, &stored) in tensor.iter_mut().zip(source) {
                *value = f32::from(stored) / factor as f32;
            }
        }
        network
    }

    fn accumulate(&self, features: &[u16]) -> [f32; HIDDEN] {
        let mut accumulator = self.feature_bias;
        for &feature in features {
            add_row(
                &mut accumulator,
                &self.feature_weights[usize::from(feature)],
            );
        }
        accumulator
    }
}

/// Uniform in [-1, 1), from the top 24 bits (an `f32`'s mantissa).
fn uniform(rng: &mut SplitMix64) -> f32 {
    const MANTISSA_BITS: u32 = 24;
    let unit =
        (rng.next_u64() >> (u64::BITS - MANTISSA_BITS)) as f32 / (1u32 << MANTISSA_BITS) as f32;
    2.0 * unit - 1.0
}

fn add_row(values: &mut [f32; HIDDEN], row: &[f32; HIDDEN]) {
    for (value, added) in values.iter_mut().zip(row) {
        *value += added;
    }
}

/// Squared clipped ReLU: `clamp(x, 0, 1)²`.
fn screlu(x: f32) -> f32 {
    let clipped = x.clamp(0.0, 1.0);
    clipped * clipped
}

fn screlu_derivative(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 }
}

/// Σ screlu(value)·weight, in [`LANES`] partial sums so that it vectorises.
fn screlu_dot(values: &[f32; HIDDEN], weights: &[f32; HIDDEN]) -> f32 {
    let mut lanes = [0.0f32; LANES];
    let (value_chunks, _) = values.as_chunks::<LANES>();
    let (weight_chunks, _) = weights.as_chunks::<LANES>();
    for (value_chunk, weight_chunk) in value_chunks.iter().zip(weight_chunks) {
        for ((lane, &value), &weight) in lanes.iter_mut().zip(value_chunk).zip(weight_chunk) {
            *lane += screlu(value) * weight;
        }
    }
    lanes.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Sample;
    use crate::test_positions::random_positions;
    use rookery::nnue::{Network, SCALE, evaluate};
    use rookery::records::GameResult;
    use shakmaty::Position;

    /// A network of a trained one's magnitudes with `buckets`:
    /// accumulators spread over the SCReLU's range, output weights of a
    /// few tenths.
    fn realistic_network(seed: u64, buckets: OutputBuckets) -> FloatNetwork {
        let mut network = FloatNetwork::zeros(buckets);
        network.randomise(seed, 0.15, 0.6, 0.2);
        network
    }

    /// `network` with every parameter moved to the nearest value its
    /// quantisation can represent.
    fn on_the_quantisation_grid(network: &FloatNetwork) -> FloatNetwork {
        let mut rounded = network.clone();
        for (tensor, factor) in rounded.tensors_mut().into_iter().zip(QUANTISATION) {
            for value in tensor {
                *value = (*value * factor as f32).round() / factor as f32;
            }
        }
        rounded
    }

    /// The float and the engine's evaluations of random positions, in
    /// centipawns for the side to move.
    fn evaluations(float: &FloatNetwork, engine: &Network) -> Vec<(f32, f32)> {
        let positions = random_positions(300, 11);
        assert!(positions.iter().any(|pos| pos.turn().is_black()));
        positions
            .iter()
            .map(|pos| {
                let sample = Sample::new(pos, 0, GameResult::Draw).unwrap();
                let float_cp = float.forward(sample.features()).output * SCALE as f32;
                (float_cp, evaluate(engine, pos) as f32)
            })
            .collect()
    }

    #[test]
    fn the_engine_computes_the_quantised_float_network_of_either_output() {
        // Same weights: only the engine's two truncating divisions differ,
        // by under a centipawn, plus float rounding.
        const TOLERANCE_CP: f32 = 1.5;
        for buckets in OutputBuckets::ALL {
            let float = realistic_network(7, buckets);
            let engine = Network::from_bytes(&float.quantise().to_bytes()).unwrap();
            for (float_cp, engine_cp) in evaluations(&on_the_quantisation_grid(&float), &engine) {
                assert!(
                    (engine_cp - float_cp).abs() <= TOLERANCE_CP,
                    "{buckets:?}: engine {engine_cp}, float {float_cp}"
                );
            }
        }
    }

    #[test]
    fn the_engine_agrees_with_the_float_network_up_to_quantisation() {
        // Rounding the output weights to 1/QB and the first layer to 1/QA
        // moves an evaluation by ~10 cp at these magnitudes (a random
        // error per weight, summed over hundreds of active neurons), the
        // same whatever the evaluation's size. Measured 256 wide: mean 10,
        // worst 40. A sum of random errors grows as the square root of
        // their count, so a wider build gets wider tolerances (512 wide:
        // mean 15.2 measured).
        const MEAN_TOLERANCE_CP: f32 = 15.0;
        const WORST_TOLERANCE_CP: f32 = 50.0;
        const MEASURED_WIDTH: f32 = 256.0;
        let widening = (HIDDEN as f32 / MEASURED_WIDTH).sqrt();
        let float = realistic_network(7, OutputBuckets::Single);
        let engine = Network::from_bytes(&float.quantise().to_bytes()).unwrap();
        let errors: Vec<f32> = evaluations(&float, &engine)
            .iter()
            .map(|(float_cp, engine_cp)| (engine_cp - float_cp).abs())
            .collect();
        let mean = errors.iter().sum::<f32>() / errors.len() as f32;
        let worst = errors.iter().copied().fold(0.0, f32::max);
        assert!(mean <= MEAN_TOLERANCE_CP * widening, "mean error {mean} cp");
        assert!(
            worst <= WORST_TOLERANCE_CP * widening,
            "worst error {worst} cp"
        );
    }

    #[test]
    fn clipping_keeps_quantised_output_weights_in_the_engines_range() {
        let mut network = FloatNetwork::zeros(OutputBuckets::PieceCount);
        network.randomise(3, 10.0, 10.0, 10.0);
        network.clip();
        let quantised = network.quantise();
        let largest = quantised.output_weights.iter().map(|w| w.abs()).max();
        assert_eq!(largest, Some(MAX_OUTPUT_WEIGHT));
        assert!(Network::from_bytes(&quantised.to_bytes()).is_ok());
    }

    #[test]
    fn a_dequantised_network_quantises_back_to_the_same_weights() {
        let float = on_the_quantisation_grid(&realistic_network(5, OutputBuckets::PieceCount));
        let quantised = float.quantise();
        let restored = FloatNetwork::dequantise(&quantised);
        assert_eq!(restored.quantise(), quantised);
        for (ours, theirs) in restored.tensors().into_iter().zip(float.tensors()) {
            for (a, b) in ours.iter().zip(theirs) {
                assert!((a - b).abs() <= 1e-6, "{a} vs {b}");
            }
        }
    }

    #[test]
    fn tensors_cover_every_parameter_once() {
        for buckets in OutputBuckets::ALL {
            let network = FloatNetwork::zeros(buckets);
            let total: usize = network.tensors().iter().map(|t| t.len()).sum();
            let output = buckets.count() * (2 * HIDDEN + 1);
            assert_eq!(total, INPUTS * HIDDEN + HIDDEN + output);
        }
    }
}
