//! The network's hot loops on each instruction-set path ([`Simd`]).
//!
//! The accumulator update ([`Accumulator::play`]) and the output layer
//! ([`Accumulator::evaluate`]) are written once, as plain loops in
//! `accumulator.rs`, and compiled once per path: the plain path with the
//! baseline's vectors, and on x86-64 a copy inside a `#[target_feature]`
//! function for AVX2 ([`avx2`]) and for AVX-512 ([`avx512`]), which LLVM
//! vectorises 16 and 32 values wide. The output layer's sum is the
//! exception: LLVM vectorises it only 8 values wide for AVX2, so each of
//! those paths writes it with intrinsics. The output layer's bucket is
//! chosen from the number of pieces on the board, counted inside each
//! path's function: one `popcnt` on the AVX2 and AVX-512 paths (which
//! need POPCNT beside their vectors) instead of the baseline's dozen
//! instructions, on the way to every evaluation's output weights. All of
//! it is integer arithmetic (wrapping where it may wrap, exact elsewhere),
//! so every path gives the same values bit for bit; the tests below
//! compare every path the processor supports with the plain one.
//!
//! Per call, on the 2-core dev machine (AMD Zen 4), plain / AVX2 /
//! AVX-512: `play` 54 / 40 / 37.5 ns, `evaluate` 80 / 24 / 19 ns. A build
//! for the processor that builds (`target-cpu=native`, the old default)
//! would be no faster in these loops, and dies with an illegal
//! instruction on an older processor.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;

use shakmaty::fen::Fen;
use shakmaty::{Bitboard, CastlingMode, Chess, Color, Position};

use super::accumulator::screlu_dot;
use super::{Accumulator, Network};
use crate::nnue::piece_changes::PieceChanges;
use crate::util::simd::{Path, Simd};

/// The network's loops on each path.
impl Simd {
    /// [`Accumulator::play`] on this path.
    #[inline]
    fn play(self, parent: &Accumulator, network: &Network, changes: &PieceChanges) -> Accumulator {
        match self.path() {
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
    fn evaluate(
        self,
        accumulator: &Accumulator,
        network: &Network,
        turn: Color,
        occupied: Bitboard,
    ) -> i32 {
        match self.path() {
            Path::Plain => accumulator.output(network, turn, occupied, screlu_dot),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Simd` holds this path only where the processor
            // has AVX2 and POPCNT (`Simd::supported`).
            Path::Avx2 => unsafe { avx2::evaluate(accumulator, network, turn, occupied) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, for AVX-512 F and BW and POPCNT.
            Path::Avx512 => unsafe { avx512::evaluate(accumulator, network, turn, occupied) },
        }
    }
}

/// Positions of the start-up check: the start, a middlegame full of
/// castling and en passant chances, promotions on both sides, and a
/// Chess960 start (castling from other files).
const CHECK_POSITIONS: [(&str, CastlingMode); 4] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        CastlingMode::Standard,
    ),
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
];

/// What `path` computes in the check: for each check position and each of
/// its legal moves, the evaluation after the move for both sides to move
/// (an accumulator update and the output layer of the position's piece
/// count each time).
fn check_values(path: Simd, network: &Network) -> Vec<i32> {
    let mut values = Vec::new();
    for (fen, mode) in CHECK_POSITIONS {
        let pos: Chess = fen
            .parse::<Fen>()
            .ok()
            .and_then(|fen| fen.into_position(mode).ok())
            .expect("the check positions are legal");
        let accumulator = Accumulator::new(network, pos.board());
        for m in pos.legal_moves() {
            let played = path.play(&accumulator, network, &PieceChanges::of(m, pos.turn()));
            let mut after = pos.clone();
            after.play_unchecked(m);
            for turn in [Color::White, Color::Black] {
                values.push(path.evaluate(&played, network, turn, after.board().occupied()));
            }
        }
    }
    values
}

/// The start-up check of the path the hot loops use (see `util/simd.rs`): when
/// it computes anything other than the plain path in the check positions,
/// the engine falls back to the plain path, and the returned message says
/// so. Nothing to say when the paths agree, or the path is the plain one.
pub(crate) fn check_simd_path(network: &Network) -> Option<String> {
    let chosen = Simd::detected();
    if chosen == Simd::PLAIN {
        return None;
    }
    let agree = check_values(chosen, network) == check_values(Simd::PLAIN, network);
    fall_back_unless(agree, chosen)
}

/// Falls back to the plain path unless the `chosen` path's values
/// `agree` with it; says so when it does.
fn fall_back_unless(agree: bool, chosen: Simd) -> Option<String> {
    if agree {
        return None;
    }
    Simd::fall_back_to_plain();
    let message = format!(
        "simd: the {} path evaluated the start-up check positions differently from the \
         plain path; using the plain path (please report this processor)",
        chosen.name()
    );
    log::error!("{message}");
    Some(message)
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

    /// The evaluation in centipawns for `turn`, the side to move, of the
    /// position whose `occupied` squares these are (their count chooses
    /// the output bucket).
    #[inline]
    pub(crate) fn evaluate(&self, network: &Network, turn: Color, occupied: Bitboard) -> i32 {
        Simd::detected().evaluate(self, network, turn, occupied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::random_games::random_move;
    use crate::nnue::{HIDDEN, OutputBuckets};
    use crate::util::rng::SplitMix64;
    use shakmaty::EnPassantMode;

    /// Plays random games with a random network of 8 output buckets, and
    /// checks after every move that each supported path computes the
    /// plain path's accumulator and evaluations (through the bucket of the
    /// position's piece count). Castling, en passant and promotions are
    /// played whenever a coin says so, so each kind of update is checked
    /// many times. Returns how many moves were checked.
    fn paths_agree_in_random_games(start: &Chess, games: usize, seed: u64) -> usize {
        let network = Network::random(seed, OutputBuckets::PieceCount);
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
                let played = Simd::PLAIN.play(&accumulator, &network, &changes);
                pos.play_unchecked(m);
                let fen = Fen::from_position(&pos, EnPassantMode::Legal);
                let occupied = pos.board().occupied();
                for path in Simd::supported() {
                    assert_eq!(
                        path.play(&accumulator, &network, &changes),
                        played,
                        "{} after {m:?}, now {fen}",
                        path.name()
                    );
                    for turn in [Color::White, Color::Black] {
                        assert_eq!(
                            path.evaluate(&played, &network, turn, occupied),
                            Simd::PLAIN.evaluate(&played, &network, turn, occupied),
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
        crate::util::simd::report_paths_compared("network accumulator and output");
        let mut checked = paths_agree_in_random_games(&Chess::default(), 40, 21);
        // From the start-up check's other positions too: castling and en
        // passant chances, promotions, a Chess960 start.
        for (fen, mode) in &CHECK_POSITIONS[1..] {
            let start = fen.parse::<Fen>().unwrap().into_position(*mode).unwrap();
            checked += paths_agree_in_random_games(&start, 20, 23);
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// The output layer on accumulators of any 16-bit values, far beyond
    /// what a trained network reaches, and output weights of either
    /// extreme, in every output bucket: each path clamps and sums them as
    /// the plain path does.
    #[test]
    fn every_path_evaluates_any_accumulator_as_the_plain_one() {
        /// Piece counts to evaluate with: every bucket's.
        const MOST_PIECES: usize = 32;
        let mut rng = SplitMix64::new(29);
        for seed in 0..200 {
            let buckets = OutputBuckets::ALL[seed as usize % OutputBuckets::ALL.len()];
            let network = Network::random(seed, buckets);
            let mut values = || -> [i16; HIDDEN] {
                std::array::from_fn(|_| match rng.below(4) {
                    // Around the clamp's ends, and anywhere.
                    0 => rng.below(8) as i16 - 4,
                    1 => QA_I16 + rng.below(8) as i16 - 4,
                    _ => rng.next_u64() as i16,
                })
            };
            let accumulator = Accumulator::from_values(values(), values());
            let pieces = 2 + rng.below(MOST_PIECES - 1);
            let occupied =
                Bitboard(rng.next_u64()) | Bitboard(u64::MAX >> (u64::BITS as usize - pieces));
            for path in Simd::supported() {
                for turn in [Color::White, Color::Black] {
                    assert_eq!(
                        path.evaluate(&accumulator, &network, turn, occupied),
                        Simd::PLAIN.evaluate(&accumulator, &network, turn, occupied),
                        "{} with network {seed}, {occupied:?}",
                        path.name()
                    );
                }
            }
        }
    }

    const QA_I16: i16 = crate::nnue::QA as i16;

    #[test]
    fn the_start_up_check_passes_every_supported_path_and_falls_back_on_a_mismatch() {
        let network = Network::random(37, OutputBuckets::PieceCount);
        let plain = check_values(Simd::PLAIN, &network);
        assert!(plain.len() > 100, "{} values", plain.len());
        for path in Simd::supported() {
            assert_eq!(check_values(path, &network), plain, "{}", path.name());
        }
        assert_eq!(check_simd_path(&network), None);
        assert_eq!(fall_back_unless(true, Simd::detected()), None);

        // A path that disagrees is dropped for the plain one, loudly. (The
        // plain path gives the same values as every other, so the rest of
        // this test process is none the worse for it.)
        let message = fall_back_unless(false, Simd::detected()).unwrap();
        assert!(message.contains("using the plain path"), "{message}");
        assert_eq!(Simd::detected(), Simd::PLAIN);
        assert_eq!(check_simd_path(&network), None);
    }
}
