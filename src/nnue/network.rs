//! The network the engine evaluates with: its weights in the rows the
//! evaluation reads (an output layer per output bucket), its name, and
//! which network is active. The file's layout is `format.rs`'s.
//!
//! A 256-wide build embeds the shipped network; a build of another width
//! embeds none and evaluates with a stand-in of zero weights until it is
//! given a network ([`missing_network`] says why it should be).
//!
//! The active network is a `&'static Network`: the one embedded in the
//! binary, or one loaded from `EvalFile` (or `bench --eval-file`), leaked
//! so that every board can hold a plain reference (no reference count
//! touched at every node by every thread). A load happens only at start-up
//! (`engine.toml`, `bench --eval-file`) or on a user's `setoption`, and
//! re-sending the same path loads nothing, so the leak is bounded by what
//! the user does.

use std::sync::{LazyLock, RwLock};

use sha2::{Digest, Sha256};

use std::io::Read;

use super::format::{self, MAX_HEADER_BYTES, QuantisedNetwork, weight_bytes};
use super::{HIDDEN, INPUTS, MAX_OUTPUT_WEIGHT, OutputBuckets, QA};

/// The network shipped inside the binary, gen 14: 256 wide, so only a
/// build of that width embeds it.
#[cfg(not(any(feature = "hidden-384", feature = "hidden-512")))]
const EMBEDDED_BYTES: &[u8] = include_bytes!("../../networks/default.nnue");
/// Hex digits of a network file's SHA-256 that name it.
const IDENTITY_HEX_DIGITS: usize = 12;
/// The name of the stand-in of a build that embeds no network: no file's
/// name, which is hex digits.
const NO_NETWORK: &str = "none";

// Each term's clamp(x, 0, QA) · weight is an i16 product first (see
// `accumulator::screlu_dot`).
const _: () = assert!(
    (QA as i64) * (MAX_OUTPUT_WEIGHT as i64) <= i16::MAX as i64,
    "clamp(x, 0, QA) · weight could overflow i16"
);

/// One output bucket's layer: what turns both accumulators into the
/// evaluation. Aligned as the accumulator is, so that the output layer's
/// vector loads of both never straddle two cache lines.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(super) struct OutputLayer {
    /// `[0]` weighs the side to move's accumulator, `[1]` the other's.
    pub(super) weights: [[i16; HIDDEN]; 2],
    pub(super) bias: i16,
}

/// A network's weights as the engine uses them.
pub struct Network {
    /// One row of `HIDDEN` weights per input feature.
    pub(super) feature_weights: Vec<[i16; HIDDEN]>,
    pub(super) feature_bias: [i16; HIDDEN],
    /// Which output layer evaluates a position.
    buckets: OutputBuckets,
    /// One per output bucket.
    outputs: Box<[OutputLayer]>,
    /// The first hex digits of the file's SHA-256: the network's name.
    identity: String,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({INPUTS}->{HIDDEN}x2->{}, {})",
            self.outputs.len(),
            self.identity
        )
    }
}

/// The name of a network file: the first [`IDENTITY_HEX_DIGITS`] hex
/// digits of its SHA-256 (`networks/README.md` names networks so).
pub(crate) fn identity(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    hex[..IDENTITY_HEX_DIGITS].to_string()
}

impl Network {
    /// The same weights in the rows the engine's evaluation reads, named
    /// `identity`; only for weights [`QuantisedNetwork::from_bytes`] has
    /// checked, so private.
    fn from_checked(quantised: QuantisedNetwork, identity: String) -> Network {
        let row = |values: &[i16]| -> [i16; HIDDEN] {
            values.try_into().expect("a row holds HIDDEN weights")
        };
        let buckets = quantised.buckets;
        Network {
            feature_weights: quantised
                .feature_weights
                .chunks_exact(HIDDEN)
                .map(row)
                .collect(),
            feature_bias: row(&quantised.feature_bias),
            outputs: quantised
                .output_weights
                .chunks_exact(2 * HIDDEN)
                .zip(&quantised.output_bias)
                .map(|(weights, &bias)| OutputLayer {
                    weights: [row(&weights[..HIDDEN]), row(&weights[HIDDEN..])],
                    bias,
                })
                .collect(),
            buckets,
            identity,
        }
    }

    /// The output layer of a position with `pieces` pieces on the board:
    /// its bucket computed without a branch, then an index, the same for
    /// a network of one bucket.
    #[inline(always)]
    pub(super) fn output_layer(&self, pieces: usize) -> &OutputLayer {
        &self.outputs[self.buckets.of(pieces)]
    }

    /// The network's name: the first hex digits of its file's SHA-256.
    pub(crate) fn identity(&self) -> &str {
        &self.identity
    }

    /// Reads a network file, saying what is wrong with one that does not
    /// fit. It is named by these bytes, header and all, as they are: the
    /// same weights under the other format's header are another file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        QuantisedNetwork::from_bytes(bytes)
            .map(|quantised| Network::from_checked(quantised, identity(bytes)))
    }

    /// A network of random weights of a trained network's magnitudes with
    /// `buckets`, for tests that need every weight to matter.
    #[cfg(test)]
    pub(super) fn random(seed: u64, buckets: OutputBuckets) -> Network {
        let quantised = QuantisedNetwork::random(seed, buckets);
        Network::from_bytes(&quantised.to_bytes()).expect("a valid network")
    }

    /// What a build that embeds no network evaluates with until it is
    /// given one: every weight 0, so every evaluation 0.
    #[cfg(any(feature = "hidden-384", feature = "hidden-512"))]
    fn stand_in() -> Network {
        let quantised = QuantisedNetwork {
            feature_weights: vec![0; INPUTS * HIDDEN],
            feature_bias: vec![0; HIDDEN],
            buckets: OutputBuckets::Single,
            output_weights: vec![0; 2 * HIDDEN],
            output_bias: vec![0],
        };
        Network::from_checked(quantised, NO_NETWORK.to_string())
    }

    /// Reads a network file from disk. Only a regular file of a shape
    /// this build evaluates and of that shape's size is read, so a device,
    /// a pipe or a huge file can neither hang the engine nor fill its
    /// memory. The kind of file is checked before it is opened (opening a
    /// named pipe waits for a writer), and the header before the size, so
    /// that another shape is refused as that shape.
    pub(crate) fn load(path: &str) -> Result<Network, String> {
        let cannot_read = |e: std::io::Error| format!("cannot read '{path}': {e}");
        let in_file = |e: String| format!("'{path}': {e}");
        if !std::fs::metadata(path).map_err(cannot_read)?.is_file() {
            return Err(format!("'{path}' is not a regular file"));
        }
        let mut file = std::fs::File::open(path).map_err(cannot_read)?;
        let length = file.metadata().map_err(cannot_read)?.len();
        let mut bytes = Vec::with_capacity(MAX_HEADER_BYTES);
        (&mut file)
            .take(MAX_HEADER_BYTES as u64)
            .read_to_end(&mut bytes)
            .map_err(cannot_read)?;
        let (buckets, header_bytes) = format::supported_header(&bytes).map_err(in_file)?;
        let expected = header_bytes + weight_bytes(buckets);
        if length != expected as u64 {
            return Err(in_file(format!(
                "network file has {length} bytes, expected {expected}"
            )));
        }
        file.take((expected - bytes.len()) as u64)
            .read_to_end(&mut bytes)
            .map_err(cannot_read)?;
        Network::from_bytes(&bytes).map_err(in_file)
    }
}

/// The network evaluations use when none was chosen: the shipped one, or
/// the stand-in of a build that embeds none.
static EMBEDDED: LazyLock<&'static Network> = LazyLock::new(|| {
    #[cfg(not(any(feature = "hidden-384", feature = "hidden-512")))]
    let network = Network::from_bytes(EMBEDDED_BYTES).expect("the embedded network is valid");
    #[cfg(any(feature = "hidden-384", feature = "hidden-512"))]
    let network = Network::stand_in();
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

/// Why the engine should not be trusted to evaluate now, if it should
/// not: a build that embeds no network (one of another width than the
/// shipped network's) has been given none. `bench` and `datagen` refuse to
/// run then, and the engine says so after `uci` and at each `go`.
pub(crate) fn missing_network() -> Option<String> {
    missing(active())
}

/// Why `network` is no network to evaluate with, if it is the stand-in.
fn missing(network: &Network) -> Option<String> {
    (network.identity == NO_NETWORK).then(|| {
        format!(
            "this build is {HIDDEN} wide and embeds no network (only a 256-wide build embeds \
             the shipped one): give it a {HIDDEN}-wide network file with EvalFile (bench: \
             --eval-file); until then every position evaluates as 0"
        )
    })
}

/// Makes `network` the active one (`EvalFile`); `None` restores the
/// embedded network. Takes effect for positions set up afterwards.
pub(crate) fn set_active(network: Option<Network>) {
    let leaked = network.map(|n| &*Box::leak(Box::new(n)));
    *ACTIVE
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner()) = leaked;
}

/// Makes the network in the file at `path` the active one, for a tool
/// run outside the UCI loop (`rookery bench --eval-file`); when the file
/// cannot be used the active network stays, and the reason names the file.
pub fn activate_file(path: &str) -> Result<(), String> {
    set_active(Some(Network::load(path)?));
    Ok(())
}

#[cfg(test)]
#[path = "network_tests.rs"]
mod tests;
