//! The network the engine evaluates with: its weights in the rows the
//! evaluation reads, its name, and which network is active. The file's
//! layout is `format.rs`'s.
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

use super::format::{self, MAX_HEADER_BYTES, QuantisedNetwork, WEIGHT_BYTES};
use super::{HIDDEN, INPUTS, MAX_OUTPUT_WEIGHT, QA};

/// The network shipped inside the binary.
const EMBEDDED_BYTES: &[u8] = include_bytes!("../../networks/default.nnue");
/// Hex digits of a network file's SHA-256 that name it.
const IDENTITY_HEX_DIGITS: usize = 12;

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
            identity,
        }
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

    /// A network of random weights of a trained network's size, for tests
    /// that need every weight to matter.
    #[cfg(test)]
    pub(super) fn random(seed: u64) -> Network {
        let mut rng = crate::util::rng::SplitMix64::new(seed);
        let mut small = |range: usize| (rng.below(2 * range + 1) as i64 - range as i64) as i16;
        let quantised = QuantisedNetwork {
            feature_weights: (0..INPUTS * HIDDEN).map(|_| small(60)).collect(),
            feature_bias: (0..HIDDEN).map(|_| small(100)).collect(),
            output_weights: (0..2 * HIDDEN).map(|_| small(127)).collect(),
            output_bias: small(1000),
        };
        Network::from_bytes(&quantised.to_bytes()).expect("a valid network")
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
        let expected = format::supported_header(&bytes).map_err(in_file)? + WEIGHT_BYTES;
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

/// Makes the network in the file at `path` the active one, for a tool
/// run outside the UCI loop (`rookery bench --eval-file`); when the file
/// cannot be used the active network stays, and the reason names the file.
pub fn activate_file(path: &str) -> Result<(), String> {
    set_active(Some(Network::load(path)?));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_loads() {
        let _ = *EMBEDDED;
    }

    #[test]
    fn a_network_is_named_by_its_files_sha256() {
        // sha256("abc") = ba7816bf8f01cfea414140de5dae2223…
        assert_eq!(identity(b"abc"), "ba7816bf8f01");
        assert_eq!(EMBEDDED.identity(), identity(EMBEDDED_BYTES));
        assert_eq!(EMBEDDED.identity().len(), IDENTITY_HEX_DIGITS);
        // The same weights under the format-2 header are another file.
        let rewritten = QuantisedNetwork::from_bytes(EMBEDDED_BYTES)
            .unwrap()
            .to_bytes();
        let renamed = Network::from_bytes(&rewritten).unwrap();
        assert_eq!(renamed.identity(), identity(&rewritten));
        assert_ne!(renamed.identity(), EMBEDDED.identity());
    }

    /// A file in the temporary directory, removed when dropped.
    struct TempFile(std::path::PathBuf);

    impl TempFile {
        fn with(name: &str, bytes: &[u8]) -> TempFile {
            let file = format!("rookery-unit-{}-{name}", std::process::id());
            let path = std::env::temp_dir().join(file);
            std::fs::write(&path, bytes).unwrap();
            TempFile(path)
        }

        fn path(&self) -> &str {
            self.0.to_str().unwrap()
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    #[test]
    fn files_of_either_header_load_and_another_shape_is_refused_as_that_shape() {
        let format_1 = TempFile::with("format-1.nnue", EMBEDDED_BYTES);
        let loaded = Network::load(format_1.path()).unwrap();
        assert_eq!(loaded.identity(), EMBEDDED.identity());
        let rewritten = QuantisedNetwork::from_bytes(EMBEDDED_BYTES)
            .unwrap()
            .to_bytes();
        let format_2 = TempFile::with("format-2.nnue", &rewritten);
        let loaded = Network::load(format_2.path()).unwrap();
        assert_eq!(loaded.identity(), identity(&rewritten));
        assert_eq!(loaded.output_weights, EMBEDDED.output_weights);

        // Twice as wide, with as many weights as that width has: refused
        // for its shape, not for its size.
        let mut wide = rewritten[..MAX_HEADER_BYTES].to_vec();
        wide[10..12].copy_from_slice(&512u16.to_le_bytes());
        wide.resize(MAX_HEADER_BYTES + 2 * WEIGHT_BYTES, 0);
        let wide = TempFile::with("wide.nnue", &wide);
        let refused = Network::load(wide.path()).unwrap_err();
        assert!(
            refused.contains(wide.path()) && refused.contains("is 512 wide"),
            "{refused}"
        );
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
