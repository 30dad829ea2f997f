//! What a network is besides its weights: its [`Shape`] (how wide, how
//! many output layers and how a position picks one, how its inputs are
//! seen), the shapes this build evaluates ([`SUPPORTED`]), and the words
//! that name a shape in errors and in the trainer's report.
//!
//! The width is this build's (`HIDDEN`, chosen by a cargo feature); the
//! output buckets are the network file's: one output layer, or eight
//! chosen by the number of pieces on the board ([`OutputBuckets`]), which
//! the engine and the trainer both take from here, so the two cannot
//! disagree on which bucket a position is in. Mirrored inputs and king
//! buckets have a place in the header (`format.rs`) but no build
//! evaluates them yet.

use std::fmt;

use super::HIDDEN;

/// Output layers of a network bucketed by piece count.
pub const PIECE_COUNT_BUCKETS: usize = 8;
/// Pieces on the board per piece-count bucket (2 to 5 pieces: bucket 0,
/// 6 to 9: bucket 1, and so on up to 30 to 32: bucket 7).
const PIECES_PER_BUCKET: usize = 4;
/// The pieces every position has: the kings.
const KINGS: usize = 2;

/// How many output layers a network has and which one evaluates a
/// position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputBuckets {
    /// One output layer for every position.
    Single,
    /// [`PIECE_COUNT_BUCKETS`] output layers, by the pieces on the board,
    /// kings included: `(pieces − 2) / 4`, the rule of Bullet-trained
    /// engines.
    PieceCount,
}

impl OutputBuckets {
    /// The kinds a network may have.
    pub const ALL: [OutputBuckets; 2] = [OutputBuckets::Single, OutputBuckets::PieceCount];

    /// The number of output layers.
    pub const fn count(self) -> usize {
        match self {
            OutputBuckets::Single => 1,
            OutputBuckets::PieceCount => PIECE_COUNT_BUCKETS,
        }
    }

    /// The kind with `count` output layers (the trainer's
    /// `--output-buckets`), if there is one.
    pub fn with_count(count: usize) -> Option<OutputBuckets> {
        OutputBuckets::ALL
            .into_iter()
            .find(|buckets| buckets.count() == count)
    }

    /// The output layer of a position with `pieces` pieces on the board,
    /// kings included (a board with more pieces than chess allows gets
    /// the last). One formula for either kind, without a branch: it is
    /// on the way to every evaluation's output weights.
    #[inline(always)]
    pub fn of(self, pieces: usize) -> usize {
        (pieces.saturating_sub(KINGS) / PIECES_PER_BUCKET).min(self.count() - 1)
    }
}

/// How a network with several outputs picks the one it evaluates with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BucketChoice {
    /// One output: nothing to choose.
    None,
    /// By the number of pieces on the board.
    PieceCount,
}

/// Whether the inputs are seen mirrored left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mirroring {
    None,
    /// Mirrored when the perspective's king stands on files e to h.
    Horizontal,
}

/// What a network file says its network is: the sizes of its weights and
/// how its inputs and outputs are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    /// First-layer neurons per perspective.
    pub(super) hidden: u32,
    pub(super) output_buckets: u16,
    pub(super) bucket_choice: BucketChoice,
    pub(super) mirroring: Mirroring,
    /// Input sets chosen by the king's square (1: one set).
    pub(super) king_buckets: u16,
}

/// The shapes this build evaluates: `(768 → HIDDEN)×2 → 1`, with one
/// output layer or [`PIECE_COUNT_BUCKETS`] chosen by piece count, in the
/// order of [`OutputBuckets::ALL`].
pub(super) const SUPPORTED: [Shape; 2] = [
    Shape::evaluated(OutputBuckets::Single),
    Shape::evaluated(OutputBuckets::PieceCount),
];

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
    /// The shape of this build's width with `buckets`.
    pub(super) const fn evaluated(buckets: OutputBuckets) -> Shape {
        Shape {
            hidden: HIDDEN as u32,
            output_buckets: buckets.count() as u16,
            bucket_choice: match buckets {
                OutputBuckets::Single => BucketChoice::None,
                OutputBuckets::PieceCount => BucketChoice::PieceCount,
            },
            mirroring: Mirroring::None,
            king_buckets: 1,
        }
    }

    /// The shape a format-1 header of width `hidden` stands for.
    pub(super) fn of_format_1(hidden: u32) -> Shape {
        Shape {
            hidden,
            ..Shape::evaluated(OutputBuckets::Single)
        }
    }

    /// The output buckets of a shape this build evaluates, or why it does
    /// not evaluate this one.
    pub(super) fn supported(&self) -> Result<OutputBuckets, String> {
        if let Some(at) = SUPPORTED.iter().position(|shape| shape == self) {
            return Ok(OutputBuckets::ALL[at]);
        }
        let supported: Vec<String> = SUPPORTED.iter().map(Shape::to_string).collect();
        Err(format!(
            "network is {self}; this build evaluates only {}",
            supported.join(" or ")
        ))
    }
}

/// The words that name the shape of this build's networks with `buckets`,
/// as the engine's errors name it: "256 wide, 8 output buckets by piece
/// count, not mirrored, 1 king bucket".
pub fn shape_name(buckets: OutputBuckets) -> String {
    Shape::evaluated(buckets).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_count_buckets_follow_the_bullet_rule() {
        let buckets: Vec<usize> = (2..=32).map(|n| OutputBuckets::PieceCount.of(n)).collect();
        assert_eq!(buckets[..4], [0; 4]); // 2 to 5 pieces
        assert_eq!(buckets[4..8], [1; 4]); // 6 to 9
        assert_eq!(buckets[28..], [7; 3]); // 30 to 32
        assert_eq!(OutputBuckets::PieceCount.of(64), PIECE_COUNT_BUCKETS - 1);
        assert!((0..=64).all(|n| OutputBuckets::Single.of(n) == 0));
    }

    #[test]
    fn the_supported_shapes_are_this_widths_with_either_output() {
        for (shape, buckets) in SUPPORTED.iter().zip(OutputBuckets::ALL) {
            assert_eq!(shape.supported(), Ok(buckets));
            assert_eq!(OutputBuckets::with_count(buckets.count()), Some(buckets));
        }
        assert_eq!(OutputBuckets::with_count(3), None);
        let name = shape_name(OutputBuckets::PieceCount);
        assert_eq!(
            name,
            format!("{HIDDEN} wide, 8 output buckets by piece count, not mirrored, 1 king bucket")
        );
    }
}
