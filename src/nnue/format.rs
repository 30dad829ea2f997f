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
//! weights, for the one shape this build evaluates (SUPPORTED):
//!   i16[768][HIDDEN]  feature weights, row f = input feature f   (× QA)
//!   i16[HIDDEN]       feature biases                             (× QA)
//!   i16[2][HIDDEN]    output weights: side to move's half first  (× QB)
//!   i16               output bias                                (× QA·QB)
//! ```
//!
//! A new field or a new meaning of one is a new format version: a reader
//! refuses a version it does not know rather than misread it, and an engine
//! from before format 2 reads a format-2 file as 0 neurons wide and refuses
//! it. The weights of other shapes get their layout when a build evaluates
//! them; until then their header is read and the network refused, naming
//! its shape and the supported ones.

use std::fmt;

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
/// The bytes of the weights of the [`SUPPORTED`] shape.
pub(super) const WEIGHT_BYTES: usize = 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN + 1);
/// Most pieces on a board: the most weight rows an accumulator sums.
const MAX_PIECES: usize = 32;

const _: () = assert!(
    HIDDEN <= u16::MAX as usize,
    "format 2 writes the hidden width as a u16"
);

/// How a network with several outputs picks the one it evaluates with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BucketChoice {
    /// One output: nothing to choose.
    None,
    /// By the number of pieces on the board.
    PieceCount,
}

/// Whether the inputs are seen mirrored left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mirroring {
    None,
    /// Mirrored when the perspective's king stands on files e to h.
    Horizontal,
}

/// What a network file says its network is: the sizes of its weights and
/// how its inputs and outputs are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    /// First-layer neurons per perspective.
    hidden: u32,
    output_buckets: u16,
    bucket_choice: BucketChoice,
    mirroring: Mirroring,
    /// Input sets chosen by the king's square (1: one set).
    king_buckets: u16,
}

/// The shapes this build evaluates: `(768 → 256)×2 → 1`.
const SUPPORTED: [Shape; 1] = [Shape {
    hidden: HIDDEN as u32,
    output_buckets: 1,
    bucket_choice: BucketChoice::None,
    mirroring: Mirroring::None,
    king_buckets: 1,
}];

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} wide, ", self.hidden)?;
        match (self.output_buckets, self.bucket_choice) {
            (1, BucketChoice::None) => write!(f, "1 output bucket")?,
            (n, BucketChoice::None) => write!(f, "{n} output buckets chosen by nothing")?,
            (n, BucketChoice::PieceCount) => write!(f, "{n} output buckets by piece count")?,
        }
        match self.mirroring {
            Mirroring::None => write!(f, ", not mirrored")?,
            Mirroring::Horizontal => write!(f, ", mirrored left to right")?,
        }
        match self.king_buckets {
            1 => write!(f, ", 1 king bucket"),
            n => write!(f, ", {n} king buckets"),
        }
    }
}

impl Shape {
    /// The shape a format-1 header of width `hidden` stands for.
    fn of_format_1(hidden: u32) -> Shape {
        Shape {
            hidden,
            ..SUPPORTED[0]
        }
    }

    /// `Ok` when this build evaluates networks of this shape, else why not.
    fn check_supported(&self) -> Result<(), String> {
        if SUPPORTED.contains(self) {
            return Ok(());
        }
        let supported: Vec<String> = SUPPORTED.iter().map(Shape::to_string).collect();
        Err(format!(
            "network is {self}; this build evaluates only {}",
            supported.join(" or ")
        ))
    }

    /// The header's bytes that say this shape (format 2).
    fn header_fields(&self) -> Vec<u8> {
        let hidden = u16::try_from(self.hidden).expect("a supported width fits a u16");
        let mut fields = Vec::with_capacity(FORMAT_2_HEADER_BYTES - WIDTH_OR_MARK_AT);
        fields.extend_from_slice(&VERSIONED.to_le_bytes());
        fields.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        fields.extend_from_slice(&hidden.to_le_bytes());
        fields.extend_from_slice(&self.output_buckets.to_le_bytes());
        fields.push(match self.bucket_choice {
            BucketChoice::None => 0,
            BucketChoice::PieceCount => 1,
        });
        fields.push(match self.mirroring {
            Mirroring::None => 0,
            Mirroring::Horizontal => 1,
        });
        fields.extend_from_slice(&self.king_buckets.to_le_bytes());
        fields
    }
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

/// Where the weights of a network of a [`SUPPORTED`] shape start: the
/// length of its header, or why the file is refused.
pub(super) fn supported_header(bytes: &[u8]) -> Result<usize, String> {
    let (shape, header_bytes) = read_header(bytes)?;
    shape.check_supported()?;
    Ok(header_bytes)
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

impl QuantisedNetwork {
    /// The network file's bytes, with the newest header. Panics if the
    /// vectors have the wrong lengths (a trainer bug, not a user error).
    pub fn to_bytes(&self) -> Vec<u8> {
        assert_eq!(self.feature_weights.len(), INPUTS * HIDDEN);
        assert_eq!(self.feature_bias.len(), HIDDEN);
        assert_eq!(self.output_weights.len(), 2 * HIDDEN);
        let mut bytes = Vec::with_capacity(FORMAT_2_HEADER_BYTES + WEIGHT_BYTES);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&SUPPORTED[0].header_fields());
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

    /// Reads a network file of either format, saying what is wrong with
    /// one that does not fit: the engine loads its networks this way, and
    /// the trainer starts from a shipped one this way (`trainer --init`).
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantisedNetwork, String> {
        let header_bytes = supported_header(bytes)?;
        let expected = header_bytes + WEIGHT_BYTES;
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

#[cfg(test)]
mod tests {
    use super::*;

    const SHIPPED: &[u8] = include_bytes!("../../networks/default.nnue");

    /// A format-2 header saying `shape`, with no weights after it.
    fn header(shape: &Shape) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&shape.header_fields());
        bytes
    }

    #[test]
    fn a_format_1_file_reads_as_the_supported_shape() {
        assert_eq!(
            read_header(SHIPPED),
            Ok((SUPPORTED[0], FORMAT_1_HEADER_BYTES))
        );
        assert_eq!(SHIPPED.len(), FORMAT_1_HEADER_BYTES + WEIGHT_BYTES);
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

    #[test]
    fn other_shapes_are_refused_naming_theirs_and_the_supported_one() {
        let supported = "only 256 wide, 1 output bucket, not mirrored, 1 king bucket";
        let wide = Shape {
            hidden: 512,
            ..SUPPORTED[0]
        };
        let bucketed = Shape {
            output_buckets: 8,
            bucket_choice: BucketChoice::PieceCount,
            ..SUPPORTED[0]
        };
        let mirrored = Shape {
            mirroring: Mirroring::Horizontal,
            king_buckets: 4,
            ..SUPPORTED[0]
        };
        for (shape, named) in [
            (wide, "is 512 wide, 1 output bucket"),
            (bucketed, "8 output buckets by piece count"),
            (mirrored, "mirrored left to right, 4 king buckets"),
        ] {
            let refused = QuantisedNetwork::from_bytes(&header(&shape)).unwrap_err();
            assert!(
                refused.contains(named) && refused.contains(supported),
                "{refused}"
            );
        }
        let mut format_1_wide = SHIPPED.to_vec();
        format_1_wide[WIDTH_OR_MARK_AT..FORMAT_1_HEADER_BYTES]
            .copy_from_slice(&512u32.to_le_bytes());
        let refused = QuantisedNetwork::from_bytes(&format_1_wide).unwrap_err();
        assert!(refused.contains("is 512 wide"), "{refused}");
    }

    #[test]
    fn weights_that_could_overflow_the_accumulator_are_refused() {
        let mut quantised = QuantisedNetwork::from_bytes(SHIPPED).unwrap();
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
            (changed(11, 0), "inconsistent"),
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
