//! The evaluation network (NNUE): `(768 → HIDDEN)×2 → 1`, with one output
//! layer or eight chosen by the pieces on the board, and a squared clipped
//! ReLU, trained on Rookery's own self-play games.
//!
//! Each of the 768 inputs is one (colour, piece, square) seen from one
//! side's perspective ([`feature_index`]). The first layer's output for a
//! perspective is its *accumulator*: the bias plus the weight rows of the
//! pieces on the board. A move changes two to four pieces, so the search
//! updates the accumulators by adding and subtracting those rows
//! ([`Accumulator::play`]) instead of summing all of them again.
//!
//! The output layer reads the side to move's accumulator first and the
//! other side's second, each through SCReLU (`clamp(x, 0, 1)²`), and scales
//! the result to centipawns. A network has one output layer, or one per
//! output bucket ([`OutputBuckets`]: eight, by the number of pieces on the
//! board); the position's bucket is an index into the network's output
//! layers, so a network of either kind runs the same loops. All arithmetic
//! is in integers: weights are quantised by [`QA`] (first layer) and [`QB`]
//! (output layer). The loops are plain loops over fixed-size arrays, which
//! LLVM vectorises on any target; `kernels.rs` compiles the hot ones again
//! for AVX2 and AVX-512, and [`crate::util::simd`] picks a path at start-up,
//! so one binary runs on any x86-64 processor.
//!
//! The hidden width [`HIDDEN`] is fixed when the engine is built: 256, or
//! 384 or 512 with the cargo feature `hidden-384` or `hidden-512` (the
//! trainer has the same features and trains networks of its width). A
//! network file of another width is refused, naming its shape and the ones
//! this build evaluates (`shape.rs`). Only a 256-wide build embeds the
//! shipped network (gen 14, `networks/default.nnue`); a build of another
//! width starts with none (every position evaluates as 0, and the engine
//! says so after `uci` and at each `go`; `bench` and `datagen` refuse to
//! run) until `EvalFile`, or `bench --eval-file`, gives it one of its
//! width. Its tests that need no embedded network pass:
//! `cargo test --release --features hidden-512 -p rookery nnue`.

mod accumulator;
mod format;
mod kernels;
mod network;
pub(crate) mod piece_changes;
mod shape;

pub(crate) use accumulator::Accumulator;
pub use format::QuantisedNetwork;
pub(crate) use kernels::check_simd_path;
pub use network::{Network, activate_file};
pub(crate) use network::{active, missing_network, set_active};
pub use shape::{OutputBuckets, shape_name};

use shakmaty::{Chess, Color, Piece, Position, Square};

const SQUARES: usize = 64;
/// Input features per perspective: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 2 * 6 * SQUARES;
/// Neurons of the first layer, per perspective: 256 unless a feature
/// says otherwise.
#[cfg(not(any(feature = "hidden-384", feature = "hidden-512")))]
pub const HIDDEN: usize = 256;
#[cfg(all(feature = "hidden-384", not(feature = "hidden-512")))]
pub const HIDDEN: usize = 384;
#[cfg(all(feature = "hidden-512", not(feature = "hidden-384")))]
pub const HIDDEN: usize = 512;
#[cfg(all(feature = "hidden-384", feature = "hidden-512"))]
compile_error!("the features hidden-384 and hidden-512 each set the hidden width: choose one");
/// Quantisation of the first layer (and of the clipping ceiling).
pub const QA: i32 = 255;
/// Quantisation of the output layer.
pub const QB: i32 = 64;
/// The network's output unit in centipawns: an output of 1.0 is this.
pub const SCALE: i32 = 400;
/// Largest magnitude of a quantised output weight (1.98 · QB, as trainers
/// clip them): the output layer's arithmetic relies on it, and a network
/// file that exceeds it is refused.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

/// The input feature of `piece` on `square` seen from `perspective`: its
/// own pieces first, and the board mirrored top to bottom for Black, so
/// both sides see the same network from their own side.
pub fn feature_index(perspective: Color, piece: Piece, square: Square) -> usize {
    let (square, own) = match perspective {
        Color::White => (square, piece.color == Color::White),
        Color::Black => (square.flip_vertical(), piece.color == Color::Black),
    };
    let side = if own { 0 } else { INPUTS / 2 };
    side + (piece.role as usize - 1) * SQUARES + usize::from(square)
}

/// The evaluation of `pos` in centipawns for the side to move, computed
/// from scratch (the tests of the accumulator and of the trainer check
/// against it; the search updates accumulators).
pub fn evaluate(network: &Network, pos: &Chess) -> i32 {
    let board = pos.board();
    Accumulator::new(network, board).evaluate(network, pos.turn(), board.occupied())
}

/// What the tests of the accumulator and of the SIMD paths share: random
/// games that reach every kind of accumulator update often.
#[cfg(test)]
mod random_games {
    use shakmaty::{Chess, Move, Position};

    use crate::util::rng::SplitMix64;

    /// A random legal move of `pos` (`None` when there is none): one of
    /// the rare kinds (en passant, castling, promotion) whenever there is
    /// one and a coin says so, so that each kind is checked many times.
    pub(super) fn random_move(pos: &Chess, rng: &mut SplitMix64) -> Option<Move> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let rare: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.is_en_passant() || m.is_castle() || m.is_promotion())
            .collect();
        Some(if !rare.is_empty() && rng.below(2) == 0 {
            rng.choose(&rare)
        } else {
            rng.choose(&moves)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Role;

    #[test]
    fn features_mirror_between_perspectives() {
        let white_knight = Piece {
            color: Color::White,
            role: Role::Knight,
        };
        let black_knight = Piece {
            color: Color::Black,
            role: Role::Knight,
        };
        assert_eq!(
            feature_index(Color::White, white_knight, Square::G1),
            64 + 6
        );
        assert_eq!(
            feature_index(Color::Black, black_knight, Square::G8),
            feature_index(Color::White, white_knight, Square::G1)
        );
        assert_eq!(
            feature_index(Color::Black, white_knight, Square::G1),
            384 + 64 + 62
        );
    }
}
