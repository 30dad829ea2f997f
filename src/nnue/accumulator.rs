//! The first layer's output for both perspectives, kept up to date move by
//! move, and the output layer that turns it into centipawns.
//!
//! The search copies a board to make a move (shakmaty has no unmake), and
//! the accumulator travels inside the board, so a child's accumulator is
//! its parent's plus the move's few weight rows: nothing to undo, nothing
//! to keep in step with a separate stack.
//!
//! The arithmetic here is written once, in plain loops, and knows nothing
//! of instruction sets: `kernels.rs` compiles its hot part once per path
//! (so these kernels are `#[inline(always)]`) and defines the two entry
//! points that choose the path, [`Accumulator::play`] and
//! [`Accumulator::evaluate`].

use shakmaty::{Bitboard, Color, Piece, Square};

use super::{HIDDEN, MAX_OUTPUT_WEIGHT, Network, QA, QB, SCALE, feature_index};
use crate::nnue::piece_changes::PieceChanges;
use crate::score::MAX_EVAL;

/// The first layer's output seen from White and from Black.
#[derive(Clone, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Accumulator {
    white: [i16; HIDDEN],
    black: [i16; HIDDEN],
}

impl std::fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Accumulator({:?}…)", &self.white[..4])
    }
}

impl Accumulator {
    /// The accumulator of `board` computed from scratch (once per position
    /// set up, so on the plain path).
    pub(crate) fn new(network: &Network, board: &shakmaty::Board) -> Accumulator {
        let mut accumulator = Accumulator {
            white: network.feature_bias,
            black: network.feature_bias,
        };
        for (square, piece) in board {
            accumulator.apply(network, (square, piece), i16::wrapping_add);
        }
        accumulator
    }

    /// An accumulator holding any values, for tests of the output layer.
    #[cfg(test)]
    pub(super) fn from_values(white: [i16; HIDDEN], black: [i16; HIDDEN]) -> Accumulator {
        Accumulator { white, black }
    }

    /// [`Accumulator::play`] in plain loops, which `kernels.rs` compiles once
    /// per instruction set: written in one pass per perspective, each value
    /// is the parent's less the removed pieces' weights plus the added
    /// ones'. (Copying the parent and then updating it row by row reads and
    /// writes every value up to five times; `rookery bench` ran about 6%
    /// faster with this.)
    #[inline(always)]
    pub(super) fn updated(&self, network: &Network, changes: &PieceChanges) -> Accumulator {
        Accumulator {
            white: updated(&self.white, network, changes, Color::White),
            black: updated(&self.black, network, changes, Color::Black),
        }
    }

    /// Combines both perspectives' values with the weight rows of `piece`
    /// on `square` by `op` (add a piece, or subtract it).
    #[inline(always)]
    fn apply(
        &mut self,
        network: &Network,
        (square, piece): (Square, Piece),
        op: impl Fn(i16, i16) -> i16,
    ) {
        for (values, perspective) in [
            (&mut self.white, Color::White),
            (&mut self.black, Color::Black),
        ] {
            let row = &network.feature_weights[feature_index(perspective, piece, square)];
            combine(values, row, &op);
        }
    }

    /// [`Accumulator::evaluate`] with `dot` for [`screlu_dot`] (the same
    /// sum, in a given instruction set's vectors), through the output
    /// layer of the position whose `occupied` squares these are. (Counted
    /// here, the pieces are counted with the path's instructions: one
    /// `popcnt` where it has it.)
    #[inline(always)]
    pub(super) fn output(
        &self,
        network: &Network,
        turn: Color,
        occupied: Bitboard,
        dot: impl Fn(&[i16; HIDDEN], &[i16; HIDDEN]) -> i64,
    ) -> i32 {
        let (ours, theirs) = match turn {
            Color::White => (&self.white, &self.black),
            Color::Black => (&self.black, &self.white),
        };
        let layer = network.output_layer(occupied.count());
        let sum = dot(ours, &layer.weights[0]) + dot(theirs, &layer.weights[1]);
        let output = sum / i64::from(QA) + i64::from(layer.bias);
        let centipawns = output * i64::from(SCALE) / i64::from(QA * QB);
        // An extreme network or position must not pass for a tablebase
        // win or a mate.
        centipawns.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
    }
}

/// One perspective's values after a move that makes `changes`.
#[inline(always)]
fn updated(
    parent: &[i16; HIDDEN],
    network: &Network,
    changes: &PieceChanges,
    perspective: Color,
) -> [i16; HIDDEN] {
    let row = |&(square, piece): &(Square, Piece)| {
        &network.feature_weights[feature_index(perspective, piece, square)]
    };
    match (changes.removed(), changes.added()) {
        ([removed], [added]) => {
            let (sub, add) = (row(removed), row(added));
            std::array::from_fn(|i| parent[i].wrapping_sub(sub[i]).wrapping_add(add[i]))
        }
        ([first, second], [added]) => {
            let (sub1, sub2, add) = (row(first), row(second), row(added));
            std::array::from_fn(|i| {
                parent[i]
                    .wrapping_sub(sub1[i])
                    .wrapping_sub(sub2[i])
                    .wrapping_add(add[i])
            })
        }
        (removed, added) => {
            // Castling (two off, two on) and anything rarer.
            let mut values = *parent;
            for change in removed {
                combine(&mut values, row(change), i16::wrapping_sub);
            }
            for change in added {
                combine(&mut values, row(change), i16::wrapping_add);
            }
            values
        }
    }
}

/// Combines each value with its weight by `op` (adds or subtracts a row).
#[inline(always)]
fn combine(values: &mut [i16; HIDDEN], weights: &[i16; HIDDEN], op: impl Fn(i16, i16) -> i16) {
    for (value, &weight) in values.iter_mut().zip(weights) {
        *value = op(*value, weight);
    }
}

/// The largest term of [`screlu_dot`]: QA² · [`MAX_OUTPUT_WEIGHT`],
/// about 8.3 million.
pub(super) const MAX_TERM: i64 = (QA as i64) * (QA as i64) * (MAX_OUTPUT_WEIGHT as i64);
/// Whether a whole half of the output layer's sum, [`HIDDEN`] terms, fits
/// an `i32`: at 256 it does (just: 2.11 · 10⁹), and each path sums it in
/// 32 bits as it always has; at 384 or 512 it may not, and each path adds
/// its 32-bit partial sums in 64 bits. A constant, so each build compiles
/// only its own way.
pub(super) const HALF_FITS_I32: bool = MAX_TERM * (HIDDEN as i64) <= i32::MAX as i64;
/// The terms [`screlu_dot`] sums in an `i32` before adding the sums in an
/// `i64`: the whole half where it fits, else 128 (an `i32` holds 260 of
/// the largest terms).
const TERMS_PER_I32_SUM: usize = if HALF_FITS_I32 { HIDDEN } else { 128 };
const _: () = assert!(
    MAX_TERM * (TERMS_PER_I32_SUM as i64) <= i32::MAX as i64,
    "a chunk of the output layer's sum could overflow i32"
);
const _: () = assert!(
    HIDDEN.is_multiple_of(TERMS_PER_I32_SUM),
    "the output layer's sum reads whole chunks"
);

/// Σ clamp(value, 0, QA)² · weight, computed as (clamped · weight) ·
/// clamped: the first product fits an `i16` because the network file
/// guarantees |weight| ≤ [`MAX_OUTPUT_WEIGHT`] (255 · 127 < 2¹⁵), which
/// lets the loop vectorise into 16-bit multiplies and 32-bit multiply-adds
/// on any SIMD target. Summed in `i32` by chunks of [`TERMS_PER_I32_SUM`],
/// and the chunks in `i64`.
#[inline(always)]
pub(super) fn screlu_dot(values: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i64 {
    let (values, _) = values.as_chunks::<TERMS_PER_I32_SUM>();
    let (weights, _) = weights.as_chunks::<TERMS_PER_I32_SUM>();
    values
        .iter()
        .zip(weights)
        .map(|(values, weights)| {
            let chunk: i32 = values
                .iter()
                .zip(weights)
                .map(|(&value, &weight)| {
                    let clipped = value.clamp(0, QA as i16);
                    i32::from(clipped.wrapping_mul(weight)) * i32::from(clipped)
                })
                .sum();
            i64::from(chunk)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::OutputBuckets;
    use crate::nnue::random_games::random_move;
    use crate::util::rng::SplitMix64;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

    fn position(fen: &str, mode: CastlingMode) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(mode).unwrap()
    }

    /// Plays random games from `start`, updating an accumulator move by
    /// move, and checks it against one computed from scratch after every
    /// move. Returns how many moves of each kind were checked.
    fn incremental_matches_refresh(start: Chess, games: usize, seed: u64) -> [usize; 4] {
        let network = Network::random(seed, OutputBuckets::Single);
        let mut rng = SplitMix64::new(seed);
        let mut kinds = [0; 4]; // captures, en passant, castling, promotions
        for _ in 0..games {
            let mut pos = start.clone();
            let mut accumulator = Accumulator::new(&network, pos.board());
            for _ in 0..160 {
                let Some(m) = random_move(&pos, &mut rng) else {
                    break;
                };
                kinds[0] += usize::from(m.is_capture());
                kinds[1] += usize::from(m.is_en_passant());
                kinds[2] += usize::from(m.is_castle());
                kinds[3] += usize::from(m.is_promotion());
                accumulator = accumulator.play(&network, &PieceChanges::of(m, pos.turn()));
                pos.play_unchecked(m);
                assert_eq!(
                    accumulator,
                    Accumulator::new(&network, pos.board()),
                    "after {m:?} in {}",
                    Fen::from_position(&pos, EnPassantMode::Legal)
                );
            }
        }
        kinds
    }

    #[test]
    fn incremental_accumulators_equal_a_refresh_in_random_games() {
        let mut kinds = incremental_matches_refresh(Chess::default(), 200, 1);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            let found = incremental_matches_refresh(position(fen, CastlingMode::Standard), 100, 3);
            kinds.iter_mut().zip(found).for_each(|(k, f)| *k += f);
        }
        let chess960 = position(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            CastlingMode::Chess960,
        );
        let found = incremental_matches_refresh(chess960, 100, 5);
        kinds.iter_mut().zip(found).for_each(|(k, f)| *k += f);
        assert!(kinds.iter().all(|&count| count >= 10), "{kinds:?}");
    }
}
