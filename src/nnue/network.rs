//! The quantised network: its weights, its file format, and which network
//! the engine evaluates with.
//!
//! ```text
//! network file, little-endian:
//!   4 bytes   magic "RKNN"
//!   u32       hidden width, must equal HIDDEN
//!   i16[768][HIDDEN]  feature weights, row f = input feature f   (× QA)
//!   i16[HIDDEN]       feature biases                             (× QA)
//!   i16[2][HIDDEN]    output weights: side to move's half first  (× QB)
//!   i16               output bias                                (× QA·QB)
//! ```
//!
//! The trainer writes this with [`QuantisedNetwork::to_bytes`] and both
//! read it with [`QuantisedNetwork::from_bytes`] (the engine through
//! [`Network::from_bytes`]), so the two cannot disagree on the layout.
//!
//! The active network is a `&'static Network`: the one embedded in the
//! binary, or one loaded from `EvalFile`, leaked so that every board can
//! hold a plain reference (no reference count touched at every node by
//! every thread). A load happens only at start-up (`engine.toml`) or on a
//! user's `setoption`, and re-sending the same path loads nothing, so the
//! leak is bounded by what the user does.

use std::sync::{LazyLock, RwLock};

use sha2::{Digest, Sha256};

use super::{HIDDEN, INPUTS, MAX_OUTPUT_WEIGHT, QA};

const MAGIC: &[u8; 4] = b"RKNN";
const HEADER_BYTES: usize = 8;
/// The network shipped inside the binary.
const EMBEDDED_BYTES: &[u8] = include_bytes!("../../networks/default.nnue");
/// Hex digits of a network file's SHA-256 that name it.
const IDENTITY_HEX_DIGITS: usize = 12;
/// Most pieces on a board: the most weight rows an accumulator sums.
const MAX_PIECES: usize = 32;

// The output layer sums each perspective's HIDDEN terms of
// clamp(x, 0, QA)² · weight in an i32 (see `accumulator::screlu_dot`).
const _: () = assert!(
    (QA as i64) * (QA as i64) * (MAX_OUTPUT_WEIGHT as i64) * (HIDDEN as i64) <= i32::MAX as i64,
    "the output layer's i32 sum could overflow at this width"
);
// Each term's clamp(x, 0, QA) · weight is an i16 product first (see
// `accumulator::screlu_dot`).
const _: () = assert!(
    (QA as i64) * (MAX_OUTPUT_WEIGHT as i64) <= i16::MAX as i64,
    "clamp(x, 0, QA) · weight could overflow i16"
);

/// A network's weights as the engine uses them.
pub struct Network {
    /// One row of `HIDDEN` weights per input feature.
    pub(super) feature_weights: Vec<[i16; HIDDEN]>,
    pub(super) feature_bias: [i16; HIDDEN],
    /// `[0]` weighs the side to move's accumulator, `[1]` the other's.
    pub(super) output_weights: [[i16; HIDDEN]; 2],
    pub(super) output_bias: i16,
    /// The first hex digits of the file's SHA-256: the network's name.
    identity: String,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}->{HIDDEN}x2->1, {})", self.identity)
    }
}

/// The weights in plain vectors, as a trainer produces them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantisedNetwork {
    /// `INPUTS × HIDDEN`, row-major by feature.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// `2 × HIDDEN`: side to move first.
    pub output_weights: Vec<i16>,
    pub output_bias: i16,
}

/// The size of a valid network file.
pub(crate) const FILE_BYTES: usize = HEADER_BYTES + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN + 1);

impl QuantisedNetwork {
    /// The network file's bytes. Panics if the vectors have the wrong
    /// lengths (a trainer bug, not a user error).
    pub fn to_bytes(&self) -> Vec<u8> {
        assert_eq!(self.feature_weights.len(), INPUTS * HIDDEN);
        assert_eq!(self.feature_bias.len(), HIDDEN);
        assert_eq!(self.output_weights.len(), 2 * HIDDEN);
        let mut bytes = Vec::with_capacity(FILE_BYTES);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let values = self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
            .chain(std::iter::once(&self.output_bias));
        for value in values {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes
    }

    /// Reads a network file, saying what is wrong with one that does not
    /// fit: the engine loads its networks this way, and the trainer starts
    /// from a shipped one this way (`trainer --init`).
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantisedNetwork, String> {
        if bytes.len() < HEADER_BYTES || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a Rookery network file (no RKNN header)".to_string());
        }
        let width_bytes = bytes[MAGIC.len()..HEADER_BYTES].try_into();
        let width =
            u32::from_le_bytes(width_bytes.expect("the header holds 4 bytes of width")) as usize;
        if width != HIDDEN {
            return Err(format!(
                "network has {width} hidden neurons, this engine needs {HIDDEN}"
            ));
        }
        if bytes.len() != FILE_BYTES {
            return Err(format!(
                "network file has {} bytes, expected {FILE_BYTES}",
                bytes.len()
            ));
        }
        let mut values = bytes[HEADER_BYTES..]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut take = |count: usize| values.by_ref().take(count).collect::<Vec<i16>>();
        let feature_weights = take(INPUTS * HIDDEN);
        let feature_bias = take(HIDDEN);
        let output_weights = take(2 * HIDDEN);
        let output_bias = take(1)[0];
        if output_weights
            .iter()
            .any(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT.unsigned_abs())
        {
            return Err(format!(
                "network has output weights beyond ±{MAX_OUTPUT_WEIGHT}"
            ));
        }
        if let Some(neuron) = overflowing_neuron(&feature_weights, &feature_bias) {
            return Err(format!(
                "hidden neuron {neuron}'s bias and {MAX_PIECES} largest weights could pass \
                 ±{} in the 16-bit accumulator",
                i16::MAX
            ));
        }
        Ok(QuantisedNetwork {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }
}

/// The first hidden neuron whose accumulator could leave the `i16` range
/// on some board: its bias and the [`MAX_PIECES`] weights of largest
/// magnitude (a bound on any board's sum, as a board has at most that many
/// pieces). The accumulator's arithmetic wraps, so only the sums of real
/// boards must fit, not the steps of an update.
fn overflowing_neuron(feature_weights: &[i16], feature_bias: &[i16]) -> Option<usize> {
    (0..HIDDEN).find(|&neuron| {
        let mut magnitudes: Vec<i32> = feature_weights[neuron..]
            .iter()
            .step_by(HIDDEN)
            .map(|&w| i32::from(w).abs())
            .collect();
        magnitudes.sort_unstable_by(|a, b| b.cmp(a));
        let worst: i32 =
            i32::from(feature_bias[neuron]).abs() + magnitudes.iter().take(MAX_PIECES).sum::<i32>();
        worst > i32::from(i16::MAX)
    })
}

/// The name of a network file: the first [`IDENTITY_HEX_DIGITS`] hex
/// digits of its SHA-256 (`networks/README.md` names networks so).
pub(crate) fn identity(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    hex[..IDENTITY_HEX_DIGITS].to_string()
}

impl Network {
    /// The same weights in the rows the engine's evaluation reads; only for
    /// weights [`QuantisedNetwork::from_bytes`] has checked, so private.
    fn from_checked(quantised: QuantisedNetwork) -> Network {
        let row = |values: &[i16]| -> [i16; HIDDEN] {
            values.try_into().expect("a row holds HIDDEN weights")
        };
        Network {
            feature_weights: quantised
                .feature_weights
                .chunks_exact(HIDDEN)
                .map(row)
                .collect(),
            feature_bias: row(&quantised.feature_bias),
            output_weights: [
                row(&quantised.output_weights[..HIDDEN]),
                row(&quantised.output_weights[HIDDEN..]),
            ],
            output_bias: quantised.output_bias,
            identity: identity(&quantised.to_bytes()),
        }
    }

    /// The network's name: the first hex digits of its file's SHA-256.
    pub(crate) fn identity(&self) -> &str {
        &self.identity
    }

    /// Reads a network file, saying what is wrong with one that does not fit.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        QuantisedNetwork::from_bytes(bytes).map(Network::from_checked)
    }

    /// A network of random weights of a trained network's size, for tests
    /// that need every weight to matter.
    #[cfg(test)]
    pub(super) fn random(seed: u64) -> Network {
        let mut rng = crate::rng::SplitMix64::new(seed);
        let mut small = |range: usize| (rng.below(2 * range + 1) as i64 - range as i64) as i16;
        let quantised = QuantisedNetwork {
            feature_weights: (0..INPUTS * HIDDEN).map(|_| small(60)).collect(),
            feature_bias: (0..HIDDEN).map(|_| small(100)).collect(),
            output_weights: (0..2 * HIDDEN).map(|_| small(127)).collect(),
            output_bias: small(1000),
        };
        Network::from_bytes(&quantised.to_bytes()).expect("a valid network")
    }

    /// Reads a network file from disk. Only a regular file of the right
    /// size is read, so a device, a pipe or a huge file can neither hang
    /// the engine nor fill its memory. The kind of file is checked before
    /// it is opened: opening a named pipe waits for a writer.
    pub(crate) fn load(path: &str) -> Result<Network, String> {
        let cannot_read = |e: std::io::Error| format!("cannot read '{path}': {e}");
        if !std::fs::metadata(path).map_err(cannot_read)?.is_file() {
            return Err(format!("'{path}' is not a regular file"));
        }
        let file = std::fs::File::open(path).map_err(cannot_read)?;
        let metadata = file.metadata().map_err(cannot_read)?;
        if metadata.len() != FILE_BYTES as u64 {
            return Err(format!(
                "'{path}': network file has {} bytes, expected {FILE_BYTES}",
                metadata.len()
            ));
        }
        let mut bytes = Vec::with_capacity(FILE_BYTES);
        std::io::Read::read_to_end(
            &mut std::io::Read::take(file, FILE_BYTES as u64),
            &mut bytes,
        )
        .map_err(cannot_read)?;
        Network::from_bytes(&bytes).map_err(|e| format!("'{path}': {e}"))
    }
}

static EMBEDDED: LazyLock<&'static Network> = LazyLock::new(|| {
    let network = Network::from_bytes(EMBEDDED_BYTES).expect("the embedded network is valid");
    Box::leak(Box::new(network))
});

static ACTIVE: RwLock<Option<&'static Network>> = RwLock::new(None);

/// The network evaluations use now.
pub(crate) fn active() -> &'static Network {
    let chosen = *ACTIVE
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    chosen.unwrap_or(*EMBEDDED)
}

/// Makes `network` the active one (`EvalFile`); `None` restores the
/// embedded network. Takes effect for positions set up afterwards.
pub(crate) fn set_active(network: Option<Network>) {
    let leaked = network.map(|n| &*Box::leak(Box::new(n)));
    *ACTIVE
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner()) = leaked;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_loads() {
        assert_eq!(EMBEDDED_BYTES.len(), FILE_BYTES);
        let _ = *EMBEDDED;
    }

    #[test]
    fn a_network_is_named_by_its_files_sha256() {
        // sha256("abc") = ba7816bf8f01cfea414140de5dae2223…
        assert_eq!(identity(b"abc"), "ba7816bf8f01");
        assert_eq!(EMBEDDED.identity(), identity(EMBEDDED_BYTES));
        assert_eq!(EMBEDDED.identity().len(), IDENTITY_HEX_DIGITS);
    }

    #[test]
    fn weights_that_could_overflow_the_accumulator_are_refused() {
        let mut quantised = QuantisedNetwork::from_bytes(EMBEDDED_BYTES).unwrap();
        // 32 pieces' rows of 1,100 in one neuron, with a bias of 0: the
        // sum could reach 35,200.
        let neuron = 17;
        quantised.feature_bias[neuron] = 0;
        for feature in 0..MAX_PIECES {
            quantised.feature_weights[feature * HIDDEN + neuron] = 1_100;
        }
        let refused = Network::from_bytes(&quantised.to_bytes()).unwrap_err();
        assert!(refused.contains("neuron 17"), "{refused}");
        // 1,000 each (32,000 in all) fits.
        for feature in 0..MAX_PIECES {
            quantised.feature_weights[feature * HIDDEN + neuron] = 1_000;
        }
        assert!(Network::from_bytes(&quantised.to_bytes()).is_ok());
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused_with_a_reason() {
        let quantised = QuantisedNetwork {
            feature_weights: (0..INPUTS * HIDDEN).map(|i| (i % 97) as i16 - 48).collect(),
            feature_bias: vec![3; HIDDEN],
            output_weights: (0..2 * HIDDEN).map(|i| (i % 13) as i16).collect(),
            output_bias: -77,
        };
        let bytes = quantised.to_bytes();
        assert_eq!(QuantisedNetwork::from_bytes(&bytes).unwrap(), quantised);
        let network = Network::from_bytes(&bytes).unwrap();
        assert_eq!(network.feature_weights[1][0], (HIDDEN % 97) as i16 - 48);
        assert_eq!(network.output_weights[1][0], (HIDDEN % 13) as i16);
        assert_eq!(network.output_bias, -77);

        let short = Network::from_bytes(&bytes[..bytes.len() - 2]).unwrap_err();
        assert!(short.contains("bytes"), "{short}");
        let foreign = Network::from_bytes(b"not a network at all").unwrap_err();
        assert!(foreign.contains("RKNN"), "{foreign}");
        let mut wide = bytes.clone();
        wide[4] = wide[4].wrapping_add(1);
        let width = Network::from_bytes(&wide).unwrap_err();
        assert!(width.contains("hidden"), "{width}");
        let mut heavy = bytes.clone();
        let last_output_weight = heavy.len() - 4;
        for weight in [300, i16::MIN] {
            heavy[last_output_weight..last_output_weight + 2]
                .copy_from_slice(&weight.to_le_bytes());
            let refused = Network::from_bytes(&heavy).unwrap_err();
            assert!(refused.contains("output weights"), "{weight}: {refused}");
        }
    }
}
