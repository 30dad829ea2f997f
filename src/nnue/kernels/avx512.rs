//! The network's hot loops compiled for AVX-512 (512-bit vectors: 32
//! values of 16 bits, which needs `avx512bw` beside `avx512f`). As for
//! AVX2 (`avx2.rs`): the accumulator update is the plain loop compiled
//! here, the output layer's sum is written with intrinsics.
//!
//! Callers must make sure the processor has both features, and POPCNT for
//! `evaluate` (`crate::util::simd::Simd`).

use std::arch::x86_64::*;

use shakmaty::{Bitboard, Color};

use crate::nnue::accumulator::{HALF_FITS_I32, MAX_TERM};
use crate::nnue::piece_changes::PieceChanges;
use crate::nnue::{Accumulator, HIDDEN, Network, QA};

/// 16-bit values in a 512-bit register.
const LANES: usize = 32;
// The loops below take whole registers and would skip a remainder.
const _: () = assert!(HIDDEN.is_multiple_of(LANES));
/// Terms each 32-bit sum of `screlu_dot` adds: two per register of values.
const TERMS_PER_SUM: usize = 2 * HIDDEN / LANES;
const _: () = assert!(
    MAX_TERM * (TERMS_PER_SUM as i64) <= i32::MAX as i64,
    "a 32-bit sum of the output layer could overflow at this width"
);

#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn play(parent: &Accumulator, network: &Network, changes: &PieceChanges) -> Accumulator {
    parent.updated(network, changes)
}

#[target_feature(enable = "avx512f,avx512bw,popcnt")]
pub(super) fn evaluate(
    accumulator: &Accumulator,
    network: &Network,
    turn: Color,
    occupied: Bitboard,
) -> i32 {
    accumulator.output(network, turn, occupied, |values, weights| {
        screlu_dot(values, weights)
    })
}

/// `accumulator::screlu_dot`, 32 values a step into sixteen 32-bit sums
/// added at the end, as in `avx2.rs`.
#[target_feature(enable = "avx512f,avx512bw")]
fn screlu_dot(values: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i64 {
    let zero = _mm512_setzero_si512();
    let ceiling = _mm512_set1_epi16(QA as i16);
    let mut sums = _mm512_setzero_si512();
    let (values, _) = values.as_chunks::<LANES>();
    let (weights, _) = weights.as_chunks::<LANES>();
    for (values, weights) in values.iter().zip(weights) {
        // SAFETY: each chunk is LANES readable i16s, one register's worth,
        // and `loadu` needs no alignment.
        let (values, weights) = unsafe {
            (
                _mm512_loadu_si512(values.as_ptr().cast()),
                _mm512_loadu_si512(weights.as_ptr().cast()),
            )
        };
        let clipped = _mm512_min_epi16(_mm512_max_epi16(values, zero), ceiling);
        let products = _mm512_mullo_epi16(clipped, weights);
        sums = _mm512_add_epi32(sums, _mm512_madd_epi16(products, clipped));
    }
    if HALF_FITS_I32 {
        i64::from(_mm512_reduce_add_epi32(sums))
    } else {
        let low = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(sums));
        let high = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64::<1>(sums));
        _mm512_reduce_add_epi64(_mm512_add_epi64(low, high))
    }
}
