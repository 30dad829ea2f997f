//! The network file: a header that says the network's [`Shape`], then its
//! weights. The trainer writes it with [`QuantisedNetwork::to_bytes`] and
//! both read it with [`QuantisedNetwork::from_bytes`] (the engine through
//! `Network::from_bytes`), so the two cannot disagree on the layout.
//!
//! A network is named by its file's SHA-256, so a shipped file's bytes
//! never change: the reader accepts every header ever written (format 1,
//! the gen 1 to 14 files such as `networks/default.nnue`, for ever) and
//! the writer writes the newest (format 2).
//!
//! ```text
//! format 2, little-endian (written since the header said the shape):
//!   offset  type      field
//!    0      4 bytes   magic "RKNN"
//!    4      u32       0: a versioned header (format 1's hidden width, never 0)
//!    8      u16       format version: 2
//!   10      u16       hidden width: first-layer neurons per perspective
//!   12      u16       output buckets (1: a single output)
//!   14      u8        how the output bucket is chosen: 0 none, 1 piece count
//!   15      u8        input mirroring: 0 none, 1 left to right when the
//!                     perspective's king is on files e-h
//!   16      u16       king buckets of the inputs (1: none)
//!   18      weights
//!
//! format 1, read as 1 output bucket, no mirroring, 1 king bucket:
//!    0      4 bytes   magic "RKNN"
//!    4      u32       hidden width
//!    8      weights
//!
//! weights, for the shapes this build evaluates (`shape.rs`): HIDDEN is
//! the build's width, B the output buckets (1, or 8 by piece count):
//!   i16[768][HIDDEN]  feature weights, row f = input feature f   (× QA)
//!   i16[HIDDEN]       feature biases                             (× QA)
//!   i16[B][2][HIDDEN] output weights, bucket by bucket: the side
//!                     to move's half first                       (× QB)
//!   i16[B]            output biases, one per bucket              (× QA·QB)
//! ```
//!
//! A new field or a new meaning of one is a new format version: a reader
//! refuses a version it does not know rather than misread it, and an engine
//! from before format 2 reads a format-2 file as 0 neurons wide and refuses
//! it. The weights of other shapes (another width, mirrored inputs, king
//! buckets) get their layout when a build evaluates them; until then their
//! header is read and the network refused, naming its shape and the
//! supported ones.

use super::shape::{BucketChoice, Mirroring, OutputBuckets, Shape};
use super::{HIDDEN, INPUTS, MAX_OUTPUT_WEIGHT};

const MAGIC: &[u8; 4] = b"RKNN";
/// Where format 1 put its hidden width and format 2 puts [`VERSIONED`].
const WIDTH_OR_MARK_AT: usize = MAGIC.len();
/// The word that marks a versioned header: no network is 0 neurons wide.
const VERSIONED: u32 = 0;
/// The format [`QuantisedNetwork::to_bytes`] writes.
const FORMAT_VERSION: u16 = 2;
/// The bytes before the weights, in format 1 and in format 2.
const FORMAT_1_HEADER_BYTES: usize = 8;
const FORMAT_2_HEADER_BYTES: usize = 18;
/// The longest header, which is what a reader looks at first.
pub(super) const MAX_HEADER_BYTES: usize = FORMAT_2_HEADER_BYTES;
/// Most pieces on a board: the most weight rows an accumulator sums.
const MAX_PIECES: usize = 32;

const _: () = assert!(
    HIDDEN <= u16::MAX as usize,
    "format 2 writes the hidden width as a u16"
);

/// The bytes of the weights of a network of this build's width with
/// `buckets`.
pub(super) fn weight_bytes(buckets: OutputBuckets) -> usize {
    2 * (INPUTS * HIDDEN + HIDDEN + buckets.count() * (2 * HIDDEN + 1))
}

/// The header's bytes after the magic that say `shape` (format 2).
fn header_fields(shape: &Shape) -> Vec<u8> {
    let hidden = u16::try_from(shape.hidden).expect("a supported width fits a u16");
    let mut fields = Vec::with_capacity(FORMAT_2_HEADER_BYTES - WIDTH_OR_MARK_AT);
    fields.extend_from_slice(&VERSIONED.to_le_bytes());
    fields.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    fields.extend_from_slice(&hidden.to_le_bytes());
    fields.extend_from_slice(&shape.output_buckets.to_le_bytes());
    fields.push(match shape.bucket_choice {
        BucketChoice::None => 0,
        BucketChoice::PieceCount => 1,
    });
    fields.push(match shape.mirroring {
        Mirroring::None => 0,
        Mirroring::Horizontal => 1,
    });
    fields.extend_from_slice(&shape.king_buckets.to_le_bytes());
    fields
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The shape a header says and where its weights start. `bytes` is the
/// file, or its first [`MAX_HEADER_BYTES`] at least.
fn read_header(bytes: &[u8]) -> Result<(Shape, usize), String> {
    if bytes.len() < FORMAT_1_HEADER_BYTES || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a Rookery network file (no RKNN header)".to_string());
    }
    let width_or_mark = u32_at(bytes, WIDTH_OR_MARK_AT);
    if width_or_mark != VERSIONED {
        return Ok((Shape::of_format_1(width_or_mark), FORMAT_1_HEADER_BYTES));
    }
    if bytes.len() < FORMAT_2_HEADER_BYTES {
        return Err("network file ends inside its header".to_string());
    }
    let version = u16_at(bytes, 8);
    if version != FORMAT_VERSION {
        return Err(format!(
            "network file format {version}; this build reads formats 1 and {FORMAT_VERSION}"
        ));
    }
    let shape = Shape {
        hidden: u16_at(bytes, 10).into(),
        output_buckets: u16_at(bytes, 12),
        bucket_choice: match bytes[14] {
            0 => BucketChoice::None,
            1 => BucketChoice::PieceCount,
            other => return Err(format!("network file has output bucket choice {other}")),
        },
        mirroring: match bytes[15] {
            0 => Mirroring::None,
            1 => Mirroring::Horizontal,
            other => return Err(format!("network file has input mirroring {other}")),
        },
        king_buckets: u16_at(bytes, 16),
    };
    let consistent = shape.hidden > 0
        && shape.output_buckets > 0
        && shape.king_buckets > 0
        && (shape.bucket_choice == BucketChoice::None) == (shape.output_buckets == 1);
    if !consistent {
        return Err(format!("network file's header is inconsistent: {shape}"));
    }
    Ok((shape, FORMAT_2_HEADER_BYTES))
}

/// The output buckets of a network of a shape this build evaluates and
/// where its weights start (the length of its header), or why the file is
/// refused.
pub(super) fn supported_header(bytes: &[u8]) -> Result<(OutputBuckets, usize), String> {
    let (shape, header_bytes) = read_header(bytes)?;
    Ok((shape.supported()?, header_bytes))
}

/// The weights in plain vectors, as a trainer produces them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantisedNetwork {
    /// `INPUTS × HIDDEN`, row-major by feature.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// The output layers and which one evaluates a position.
    pub buckets: OutputBuckets,
    /// `buckets.count() × 2 × HIDDEN`, bucket by bucket: the side to
    /// move's half first.
    pub output_weights: Vec<i16>,
    /// One per bucket.
    pub output_bias: Vec<i16>,
}

impl QuantisedNetwork {
    /// The network file's bytes, with the newest header. Panics if the
    /// vectors have the wrong lengths (a trainer bug, not a user error).
    pub fn to_bytes(&self) -> Vec<u8> {
        let buckets = self.buckets.count();
        assert_eq!(self.feature_weights.len(), INPUTS * HIDDEN);
        assert_eq!(self.feature_bias.len(), HIDDEN);
        assert_eq!(self.output_weights.len(), buckets * 2 * HIDDEN);
        assert_eq!(self.output_bias.len(), buckets);
        let mut bytes = Vec::with_capacity(FORMAT_2_HEADER_BYTES + weight_bytes(self.buckets));
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&header_fields(&Shape::evaluated(self.buckets)));
        let values = self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
            .chain(&self.output_bias);
        for value in values {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes
    }

    /// Reads a network file of either format, saying what is wrong with
    /// one that does not fit: the engine loads its networks this way, and
    /// the trainer starts from a shipped one this way (`trainer --init`).
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantisedNetwork, String> {
        let (buckets, header_bytes) = supported_header(bytes)?;
        let expected = header_bytes + weight_bytes(buckets);
        if bytes.len() != expected {
            return Err(format!(
                "network file has {} bytes, expected {expected}",
                bytes.len()
            ));
        }
        let mut values = bytes[header_bytes..]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut take = |count: usize| values.by_ref().take(count).collect::<Vec<i16>>();
        let feature_weights = take(INPUTS * HIDDEN);
        let feature_bias = take(HIDDEN);
        let output_weights = take(buckets.count() * 2 * HIDDEN);
        let output_bias = take(buckets.count());
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
            buckets,
            output_weights,
            output_bias,
        })
    }

    /// A network of random weights of a trained network's magnitudes with
    /// `buckets`, for tests that need every weight to matter.
    #[cfg(test)]
    pub(super) fn random(seed: u64, buckets: OutputBuckets) -> QuantisedNetwork {
        let mut rng = crate::util::rng::SplitMix64::new(seed);
        let mut small = |range: usize| (rng.below(2 * range + 1) as i64 - range as i64) as i16;
        QuantisedNetwork {
            feature_weights: (0..INPUTS * HIDDEN).map(|_| small(60)).collect(),
            feature_bias: (0..HIDDEN).map(|_| small(100)).collect(),
            buckets,
            output_weights: (0..buckets.count() * 2 * HIDDEN)
                .map(|_| small(127))
                .collect(),
            output_bias: (0..buckets.count()).map(|_| small(1000)).collect(),
        }
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

#[cfg(test)]
mod tests {
    use super::super::shape::SUPPORTED;
    use super::*;

    /// A format-2 header saying `shape`, with no weights after it.
    fn header(shape: &Shape) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&header_fields(shape));
        bytes
    }

    #[test]
    fn networks_of_either_output_round_trip_under_the_format_2_header() {
        for (seed, buckets) in [(1, OutputBuckets::Single), (2, OutputBuckets::PieceCount)] {
            let quantised = QuantisedNetwork::random(seed, buckets);
            let bytes = quantised.to_bytes();
            assert_eq!(bytes.len(), FORMAT_2_HEADER_BYTES + weight_bytes(buckets));
            assert_eq!(
                read_header(&bytes),
                Ok((Shape::evaluated(buckets), FORMAT_2_HEADER_BYTES))
            );
            assert_eq!(QuantisedNetwork::from_bytes(&bytes).unwrap(), quantised);
        }
    }

    #[test]
    fn a_bucketed_networks_header_is_the_diagrams() {
        let bytes = QuantisedNetwork::random(3, OutputBuckets::PieceCount).to_bytes();
        // The module's diagram, byte by byte: magic, mark, version 2, this
        // build's width, 8 output buckets, by piece count, not mirrored,
        // 1 king bucket.
        let [low, high] = u16::try_from(HIDDEN).unwrap().to_le_bytes();
        let diagram = [
            b'R', b'K', b'N', b'N', 0, 0, 0, 0, 2, 0, low, high, 8, 0, 1, 0, 1, 0,
        ];
        assert_eq!(bytes[..FORMAT_2_HEADER_BYTES], diagram);
    }

    #[test]
    fn other_shapes_are_refused_naming_theirs_and_the_supported_ones() {
        let supported = format!(
            "only {HIDDEN} wide, 1 output bucket, not mirrored, 1 king bucket or \
             {HIDDEN} wide, 8 output buckets by piece count, not mirrored, 1 king bucket"
        );
        let wider = 2 * HIDDEN as u32;
        let wide = Shape {
            hidden: wider,
            ..SUPPORTED[0]
        };
        let three = Shape {
            output_buckets: 3,
            ..SUPPORTED[1]
        };
        let mirrored = Shape {
            mirroring: Mirroring::Horizontal,
            king_buckets: 4,
            ..SUPPORTED[0]
        };
        for (shape, named) in [
            (wide, format!("is {wider} wide, 1 output bucket")),
            (three, "3 output buckets by piece count".to_string()),
            (
                mirrored,
                "mirrored left to right, 4 king buckets".to_string(),
            ),
        ] {
            let refused = QuantisedNetwork::from_bytes(&header(&shape)).unwrap_err();
            assert!(
                refused.contains(&named) && refused.contains(&supported),
                "{refused}"
            );
        }
        let weights = QuantisedNetwork::random(4, OutputBuckets::Single).to_bytes();
        let mut format_1_wide = MAGIC.to_vec();
        format_1_wide.extend_from_slice(&wider.to_le_bytes());
        format_1_wide.extend_from_slice(&weights[FORMAT_2_HEADER_BYTES..]);
        let refused = QuantisedNetwork::from_bytes(&format_1_wide).unwrap_err();
        assert!(refused.contains(&format!("is {wider} wide")), "{refused}");
    }

    #[test]
    fn output_weights_beyond_the_limit_are_refused_in_any_bucket() {
        let mut quantised = QuantisedNetwork::random(5, OutputBuckets::PieceCount);
        let last = quantised.output_weights.len() - 1;
        quantised.output_weights[last] = 300;
        let refused = QuantisedNetwork::from_bytes(&quantised.to_bytes()).unwrap_err();
        assert!(refused.contains("output weights"), "{refused}");
    }

    #[test]
    fn weights_that_could_overflow_the_accumulator_are_refused() {
        let mut quantised = QuantisedNetwork::random(6, OutputBuckets::Single);
        // 32 pieces' rows of 1,100 in one neuron, with a bias of 0: the
        // sum could reach 35,200.
        let neuron = 17;
        quantised.feature_bias[neuron] = 0;
        for feature in 0..MAX_PIECES {
            quantised.feature_weights[feature * HIDDEN + neuron] = 1_100;
        }
        let refused = QuantisedNetwork::from_bytes(&quantised.to_bytes()).unwrap_err();
        assert!(refused.contains("neuron 17"), "{refused}");
        // 1,000 each (32,000 in all) fits.
        for feature in 0..MAX_PIECES {
            quantised.feature_weights[feature * HIDDEN + neuron] = 1_000;
        }
        assert!(QuantisedNetwork::from_bytes(&quantised.to_bytes()).is_ok());
    }

    #[test]
    fn unknown_cut_or_inconsistent_headers_are_refused() {
        let good = header(&SUPPORTED[0]);
        let changed = |at: usize, value: u8| {
            let mut bytes = good.clone();
            bytes[at] = value;
            bytes
        };
        for (bytes, reason) in [
            (changed(8, 3), "format 3"),
            (changed(14, 7), "bucket choice 7"),
            (changed(15, 2), "mirroring 2"),
            (changed(12, 8), "8 output buckets chosen by nothing"),
            (changed(12, 0), "inconsistent"),
            (changed(16, 0), "inconsistent"),
            (
                good[..FORMAT_2_HEADER_BYTES - 1].to_vec(),
                "inside its header",
            ),
            (b"RKNX\0\0\0\0".to_vec(), "no RKNN header"),
        ] {
            let refused = read_header(&bytes).unwrap_err();
            assert!(refused.contains(reason), "{reason}: {refused}");
        }
    }
}

/// The tests of the shipped network's file, which only a build of its
/// width embeds.
#[cfg(all(test, not(any(feature = "hidden-384", feature = "hidden-512"))))]
mod shipped_tests {
    use super::super::shape::SUPPORTED;
    use super::*;

    const SHIPPED: &[u8] = include_bytes!("../../networks/default.nnue");

    #[test]
    fn a_format_1_file_reads_as_the_single_output_shape() {
        assert_eq!(
            read_header(SHIPPED),
            Ok((SUPPORTED[0], FORMAT_1_HEADER_BYTES))
        );
        assert_eq!(
            SHIPPED.len(),
            FORMAT_1_HEADER_BYTES + weight_bytes(OutputBuckets::Single)
        );
        assert!(QuantisedNetwork::from_bytes(SHIPPED).is_ok());
    }

    #[test]
    fn new_files_get_the_format_2_header_before_the_same_weights() {
        let quantised = QuantisedNetwork::from_bytes(SHIPPED).unwrap();
        let bytes = quantised.to_bytes();
        // The module's diagram, byte by byte: magic, mark, version 2,
        // width 256, 1 output bucket, chosen by nothing, not mirrored,
        // 1 king bucket.
        let diagram = [
            b'R', b'K', b'N', b'N', 0, 0, 0, 0, 2, 0, 0, 1, 1, 0, 0, 0, 1, 0,
        ];
        assert_eq!(bytes[..FORMAT_2_HEADER_BYTES], diagram);
        assert_eq!(
            bytes[FORMAT_2_HEADER_BYTES..],
            SHIPPED[FORMAT_1_HEADER_BYTES..]
        );
        assert_eq!(
            read_header(&bytes),
            Ok((SUPPORTED[0], FORMAT_2_HEADER_BYTES))
        );
        assert_eq!(QuantisedNetwork::from_bytes(&bytes).unwrap(), quantised);
    }
}
