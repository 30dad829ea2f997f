//! Which vector instructions the network's hot loops run with, chosen once
//! per process from what the processor has.
//!
//! A release build targets the architecture's baseline (SSE2 on x86-64),
//! so one binary runs on every x86-64 processor. The hot loops, the
//! accumulator update ([`Accumulator::play`]) and the output layer
//! ([`Accumulator::evaluate`]), are written once, as plain loops in
//! `accumulator.rs`, and compiled once per path: the plain path with the
//! baseline's vectors, and on x86-64 a copy inside a `#[target_feature]`
//! function for AVX2 ([`avx2`]) and for AVX-512 ([`avx512`]), which LLVM
//! vectorises 16 and 32 values wide. The output layer's sum is the
//! exception: LLVM vectorises it only 8 values wide for AVX2, so each of
//! those paths writes it with intrinsics. All of it is integer arithmetic
//! (wrapping where it may wrap, exact elsewhere), so every path gives the
//! same values bit for bit; the tests below compare every path the
//! processor supports with the plain one.
//!
//! Per call, on the 2-core dev machine (AMD Zen 4), plain / AVX2 /
//! AVX-512: `play` 54 / 40 / 37.5 ns, `evaluate` 80 / 24 / 19 ns. A build
//! for the processor that builds (`target-cpu=native`, the old default)
//! would be no faster in these loops, and dies with an illegal
//! instruction on an older processor.
//!
//! The fastest supported path is taken ([`Simd::detected`]); the
//! environment variable `ROOKERY_SIMD` (`plain`, `avx2`, `avx512`) asks
//! for another one, which is used if the processor supports it. The
//! engine names the path in its `uci` reply and in `bench`.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;

use std::sync::LazyLock;

use shakmaty::Color;

use super::accumulator::screlu_dot;
use super::{Accumulator, Network};
use crate::piece_changes::PieceChanges;

/// The environment variable that asks for a given path by its name.
const OVERRIDE_VARIABLE: &str = "ROOKERY_SIMD";

/// An instruction set the network's loops can run with. A value names a
/// path this processor supports: only [`Simd::supported`] makes one, which
/// is what makes running a path's `#[target_feature]` functions sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Simd(Path);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    /// The target's baseline instructions (SSE2 on x86-64, NEON on
    /// aarch64), which LLVM vectorises the plain loops with.
    Plain,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// AVX-512 with its 16-bit operations (`avx512f` and `avx512bw`).
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

/// The path evaluations use, found on first use.
static DETECTED: LazyLock<Simd> = LazyLock::new(|| {
    let supported = Simd::supported();
    let fastest = *supported.last().expect("the plain path runs everywhere");
    let Ok(asked) = std::env::var(OVERRIDE_VARIABLE) else {
        return fastest;
    };
    let found = supported.into_iter().find(|path| path.name() == asked);
    if found.is_none() {
        log::warn!(
            "{OVERRIDE_VARIABLE}={asked}: not a path this processor supports; using {}",
            fastest.name()
        );
    }
    found.unwrap_or(fastest)
});

impl Simd {
    /// The path evaluations use: the fastest this processor supports,
    /// unless [`OVERRIDE_VARIABLE`] names another one it supports.
    #[inline]
    pub(crate) fn detected() -> Simd {
        *DETECTED
    }

    /// Every path this processor supports, slowest first.
    pub(crate) fn supported() -> Vec<Simd> {
        #[allow(unused_mut)] // Only the plain path off x86-64.
        let mut paths = vec![Simd(Path::Plain)];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected;
            if is_x86_feature_detected!("avx2") {
                paths.push(Simd(Path::Avx2));
            }
            if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw") {
                paths.push(Simd(Path::Avx512));
            }
        }
        paths
    }

    /// The path's name, as the engine reports it and `ROOKERY_SIMD` takes it.
    pub(crate) fn name(self) -> &'static str {
        match self.0 {
            Path::Plain => "plain",
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => "avx512",
        }
    }

    /// [`Accumulator::play`] on this path.
    #[inline]
    pub(super) fn play(
        self,
        parent: &Accumulator,
        network: &Network,
        changes: &PieceChanges,
    ) -> Accumulator {
        match self.0 {
            Path::Plain => parent.updated(network, changes),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Simd` holds this path only where the processor
            // has AVX2 (`Simd::supported`).
            Path::Avx2 => unsafe { avx2::play(parent, network, changes) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, for AVX-512 F and BW.
            Path::Avx512 => unsafe { avx512::play(parent, network, changes) },
        }
    }

    /// [`Accumulator::evaluate`] on this path.
    #[inline]
    pub(super) fn evaluate(self, accumulator: &Accumulator, network: &Network, turn: Color) -> i32 {
        match self.0 {
            Path::Plain => accumulator.output(network, turn, screlu_dot),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Simd` holds this path only where the processor
            // has AVX2 (`Simd::supported`).
            Path::Avx2 => unsafe { avx2::evaluate(accumulator, network, turn) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, for AVX-512 F and BW.
            Path::Avx512 => unsafe { avx512::evaluate(accumulator, network, turn) },
        }
    }
}

/// The entry points of the hot loops, which choose the path: they live
/// here so that `accumulator.rs` holds only plain arithmetic and needs
/// nothing of this module.
impl Accumulator {
    /// The accumulator after a move that makes `changes`.
    #[inline]
    pub(crate) fn play(&self, network: &Network, changes: &PieceChanges) -> Accumulator {
        Simd::detected().play(self, network, changes)
    }

    /// The evaluation in centipawns for `turn`, the side to move.
    #[inline]
    pub(crate) fn evaluate(&self, network: &Network, turn: Color) -> i32 {
        Simd::detected().evaluate(self, network, turn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::HIDDEN;
    use crate::nnue::random_games::random_move;
    use crate::rng::SplitMix64;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

    const PLAIN: Simd = Simd(Path::Plain);

    /// Plays random games with a random network, and checks after every
    /// move that each supported path computes the plain path's
    /// accumulator and evaluations. Castling, en passant and promotions
    /// are played whenever a coin says so, so each kind of update is
    /// checked many times. Returns how many moves were checked.
    fn paths_agree_in_random_games(start: &Chess, games: usize, seed: u64) -> usize {
        let network = Network::random(seed);
        let mut rng = SplitMix64::new(seed);
        let mut checked = 0;
        for _ in 0..games {
            let mut pos = start.clone();
            let mut accumulator = Accumulator::new(&network, pos.board());
            for _ in 0..200 {
                let Some(m) = random_move(&pos, &mut rng) else {
                    break;
                };
                let changes = PieceChanges::of(m, pos.turn());
                let played = PLAIN.play(&accumulator, &network, &changes);
                pos.play_unchecked(m);
                let fen = Fen::from_position(&pos, EnPassantMode::Legal);
                for path in Simd::supported() {
                    assert_eq!(
                        path.play(&accumulator, &network, &changes),
                        played,
                        "{} after {m:?}, now {fen}",
                        path.name()
                    );
                    for turn in [Color::White, Color::Black] {
                        assert_eq!(
                            path.evaluate(&played, &network, turn),
                            PLAIN.evaluate(&played, &network, turn),
                            "{} in {fen}, {turn:?} to move",
                            path.name()
                        );
                    }
                }
                accumulator = played;
                checked += 1;
            }
        }
        checked
    }

    #[test]
    fn every_path_agrees_with_the_plain_one_in_random_games() {
        let mut checked = paths_agree_in_random_games(&Chess::default(), 40, 21);
        for (fen, mode) in [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                CastlingMode::Standard,
            ),
            (
                "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                CastlingMode::Standard,
            ),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                CastlingMode::Chess960,
            ),
        ] {
            let start = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
            checked += paths_agree_in_random_games(&start, 20, 23);
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// The output layer on accumulators of any 16-bit values, far beyond
    /// what a trained network reaches, and output weights of either
    /// extreme: each path clamps and sums them as the plain path does.
    #[test]
    fn every_path_evaluates_any_accumulator_as_the_plain_one() {
        let mut rng = SplitMix64::new(29);
        for seed in 0..200 {
            let network = Network::random(seed);
            let mut values = || -> [i16; HIDDEN] {
                std::array::from_fn(|_| match rng.below(4) {
                    // Around the clamp's ends, and anywhere.
                    0 => rng.below(8) as i16 - 4,
                    1 => QA_I16 + rng.below(8) as i16 - 4,
                    _ => rng.next_u64() as i16,
                })
            };
            let accumulator = Accumulator::from_values(values(), values());
            for path in Simd::supported() {
                for turn in [Color::White, Color::Black] {
                    assert_eq!(
                        path.evaluate(&accumulator, &network, turn),
                        PLAIN.evaluate(&accumulator, &network, turn),
                        "{} with network {seed}",
                        path.name()
                    );
                }
            }
        }
    }

    const QA_I16: i16 = crate::nnue::QA as i16;
}
