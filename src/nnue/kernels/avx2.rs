//! The network's hot loops compiled for AVX2 (256-bit vectors: 16 values
//! of 16 bits). The accumulator update is the plain loop of
//! `accumulator.rs`, inlined (`#[inline(always)]`) into a function with
//! AVX2 enabled before LLVM vectorises it; the output layer's sum is
//! written with intrinsics, as LLVM's own vectorisation of it for AVX2
//! used 128-bit vectors (about 40% fewer instructions in `evaluate` so).
//!
//! Callers must make sure the processor has AVX2, and POPCNT for
//! `evaluate`, which counts the pieces that choose the output bucket
//! (`crate::util::simd::Simd`).

use std::arch::x86_64::*;

use shakmaty::{Bitboard, Color};

use crate::nnue::accumulator::{HALF_FITS_I32, MAX_TERM};
use crate::nnue::piece_changes::PieceChanges;
use crate::nnue::{Accumulator, HIDDEN, Network, QA};

/// 16-bit values in a 256-bit register.
const LANES: usize = 16;
// The loops below take whole registers and would skip a remainder.
const _: () = assert!(HIDDEN.is_multiple_of(LANES));
/// Terms each 32-bit sum of `screlu_dot` adds: two per register of values.
const TERMS_PER_SUM: usize = 2 * HIDDEN / LANES;
const _: () = assert!(
    MAX_TERM * (TERMS_PER_SUM as i64) <= i32::MAX as i64,
    "a 32-bit sum of the output layer could overflow at this width"
);

#[target_feature(enable = "avx2")]
pub(super) fn play(parent: &Accumulator, network: &Network, changes: &PieceChanges) -> Accumulator {
    parent.updated(network, changes)
}

#[target_feature(enable = "avx2,popcnt")]
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

/// `accumulator::screlu_dot`, 16 values a step: clamp, multiply by the
/// weight in 16 bits, then multiply by the clamped value again and add
/// neighbouring pairs in 32 bits (`madd`) into eight sums, which are added
/// in 32 bits at the end where a whole half fits (`HALF_FITS_I32`), else
/// in 64. The same terms summed in another order: integer sums that
/// cannot overflow do not depend on it.
#[target_feature(enable = "avx2")]
fn screlu_dot(values: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i64 {
    let zero = _mm256_setzero_si256();
    let ceiling = _mm256_set1_epi16(QA as i16);
    let mut sums = _mm256_setzero_si256();
    let (values, _) = values.as_chunks::<LANES>();
    let (weights, _) = weights.as_chunks::<LANES>();
    for (values, weights) in values.iter().zip(weights) {
        // SAFETY: each chunk is LANES readable i16s, one register's worth,
        // and `loadu` needs no alignment.
        let (values, weights) = unsafe {
            (
                _mm256_loadu_si256(values.as_ptr().cast()),
                _mm256_loadu_si256(weights.as_ptr().cast()),
            )
        };
        let clipped = _mm256_min_epi16(_mm256_max_epi16(values, zero), ceiling);
        let products = _mm256_mullo_epi16(clipped, weights);
        sums = _mm256_add_epi32(sums, _mm256_madd_epi16(products, clipped));
    }
    if HALF_FITS_I32 {
        let fours = _mm_add_epi32(
            _mm256_castsi256_si128(sums),
            _mm256_extracti128_si256::<1>(sums),
        );
        let twos = _mm_add_epi32(fours, _mm_shuffle_epi32::<0b01_00_11_10>(fours));
        let one = _mm_add_epi32(twos, _mm_shuffle_epi32::<0b10_11_00_01>(twos));
        i64::from(_mm_cvtsi128_si32(one))
    } else {
        let low = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(sums));
        let high = _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(sums));
        let fours = _mm256_add_epi64(low, high);
        let twos = _mm_add_epi64(
            _mm256_castsi256_si128(fours),
            _mm256_extracti128_si256::<1>(fours),
        );
        let one = _mm_add_epi64(twos, _mm_unpackhi_epi64(twos, twos));
        _mm_cvtsi128_si64(one)
    }
}
