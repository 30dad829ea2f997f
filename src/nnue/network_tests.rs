//! Unit tests of `network.rs`: a network's name; each shape this build
//! evaluates loaded from a file and evaluated as a plain reference
//! computes it; files of other shapes, or bad ones, refused with a reason;
//! and the shipped network's file under either header (in a build that
//! embeds it).

use shakmaty::{Bitboard, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Position, Square};

use super::*;
use crate::nnue::random_games::random_move;
use crate::nnue::{OutputBuckets, QB, SCALE, SQUARES, evaluate, feature_index};
use crate::score::MAX_EVAL;
use crate::util::rng::SplitMix64;

/// Where format 2 puts the hidden width, the output buckets and the input
/// mirroring (`format.rs`'s diagram).
const WIDTH_AT: usize = 10;
const BUCKETS_AT: usize = 12;
const MIRRORING_AT: usize = 15;
/// Plies of each random game whose positions are evaluated.
const GAME_PLIES: usize = 300;

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
fn the_embedded_network_loads() {
    let _ = *EMBEDDED;
}

#[test]
fn a_network_is_named_by_its_files_sha256() {
    // sha256("abc") = ba7816bf8f01cfea414140de5dae2223…
    assert_eq!(identity(b"abc"), "ba7816bf8f01");
    let bytes = QuantisedNetwork::random(1, OutputBuckets::Single).to_bytes();
    let network = Network::from_bytes(&bytes).unwrap();
    assert_eq!(network.identity(), identity(&bytes));
    assert_eq!(network.identity().len(), IDENTITY_HEX_DIGITS);
}

/// The evaluation of `pos` by `network` written out plainly: every sum in
/// `i64` from scratch, no vectors, no update move by move, and the output
/// bucket by its rule written out again ((pieces − 2) / 4).
fn reference(network: &QuantisedNetwork, pos: &Chess) -> i32 {
    let board = pos.board();
    let accumulator = |perspective: Color| -> Vec<i64> {
        let mut values: Vec<i64> = network.feature_bias.iter().map(|&b| b.into()).collect();
        for (square, piece) in board {
            let row = feature_index(perspective, piece, square) * HIDDEN;
            for (value, &weight) in values
                .iter_mut()
                .zip(&network.feature_weights[row..row + HIDDEN])
            {
                *value += i64::from(weight);
            }
        }
        values
    };
    let bucket = match network.buckets {
        OutputBuckets::Single => 0,
        OutputBuckets::PieceCount => (board.occupied().count() - 2) / 4,
    };
    let weights = &network.output_weights[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
    let halves = accumulator(pos.turn())
        .into_iter()
        .chain(accumulator(!pos.turn()));
    let qa = i64::from(QA);
    let sum: i64 = halves
        .zip(weights)
        .map(|(value, &weight)| value.clamp(0, qa).pow(2) * i64::from(weight))
        .sum();
    let output = sum / qa + i64::from(network.output_bias[bucket]);
    let centipawns = output * i64::from(SCALE) / (qa * i64::from(QB));
    centipawns.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
}

/// Positions with every count of pieces from 32 down to 2, with either
/// side to move (the start position with pieces taken off at random: no
/// piece on its starting square attacks the other king), and the
/// positions of a few random games.
fn positions_of_every_piece_count() -> Vec<Chess> {
    let mut rng = SplitMix64::new(41);
    let mut positions = Vec::new();
    for pieces in 2..=32 {
        for turn in [Color::White, Color::Black] {
            let mut setup = Chess::default().to_setup(EnPassantMode::Legal);
            let mut others: Vec<Square> = (setup.board.occupied() & !setup.board.kings())
                .into_iter()
                .collect();
            while others.len() + 2 > pieces {
                let at = others.swap_remove(rng.below(others.len()));
                assert!(setup.board.remove_piece_at(at).is_some());
            }
            setup.castling_rights = Bitboard::EMPTY;
            setup.turn = turn;
            positions.push(Chess::from_setup(setup, CastlingMode::Standard).unwrap());
        }
    }
    for _ in 0..4 {
        let mut pos = Chess::default();
        for _ in 0..GAME_PLIES {
            let Some(m) = random_move(&pos, &mut rng) else {
                break;
            };
            pos.play_unchecked(m);
            positions.push(pos.clone());
        }
    }
    positions
}

#[test]
fn each_supported_shape_loads_from_a_file_and_evaluates_as_a_plain_reference() {
    let positions = positions_of_every_piece_count();
    for (seed, buckets) in [(11, OutputBuckets::Single), (12, OutputBuckets::PieceCount)] {
        let quantised = QuantisedNetwork::random(seed, buckets);
        let name = format!("shape-{}.nnue", buckets.count());
        let file = TempFile::with(&name, &quantised.to_bytes());
        let network = Network::load(file.path()).unwrap();
        let mut buckets_seen = vec![false; buckets.count()];
        for pos in &positions {
            let pieces = pos.board().occupied().count();
            buckets_seen[buckets.of(pieces)] = true;
            assert_eq!(
                evaluate(&network, pos),
                reference(&quantised, pos),
                "{buckets:?}, {pieces} pieces, {:?}",
                pos.board()
            );
        }
        assert!(buckets_seen.iter().all(|&seen| seen), "{buckets:?}");
    }
}

#[test]
fn the_output_bucket_chooses_the_output_layer() {
    let mut quantised = QuantisedNetwork::random(13, OutputBuckets::PieceCount);
    // Bucket b's bias alone says b pawns (100 cp each); its weights say
    // nothing.
    const PAWN_CP: i32 = 100;
    quantised.output_weights.fill(0);
    let pawn = PAWN_CP * QA * QB / SCALE;
    for (bucket, bias) in quantised.output_bias.iter_mut().enumerate() {
        *bias = i16::try_from(bucket as i32 * pawn).unwrap();
    }
    let network = Network::from_bytes(&quantised.to_bytes()).unwrap();
    for pos in positions_of_every_piece_count() {
        let pieces = pos.board().occupied().count();
        let bucket = OutputBuckets::PieceCount.of(pieces) as i32;
        assert_eq!(
            evaluate(&network, &pos),
            bucket * PAWN_CP,
            "{pieces} pieces"
        );
    }
}

#[test]
fn another_shape_is_refused_as_that_shape_not_for_its_size() {
    let single = QuantisedNetwork::random(14, OutputBuckets::Single).to_bytes();
    let header = &single[..MAX_HEADER_BYTES];
    let wider = u16::try_from(2 * HIDDEN).unwrap();
    // Twice as wide, with as many weights as that width has.
    let mut wide = header.to_vec();
    wide[WIDTH_AT..WIDTH_AT + 2].copy_from_slice(&wider.to_le_bytes());
    wide.resize(
        MAX_HEADER_BYTES + 2 * weight_bytes(OutputBuckets::Single),
        0,
    );
    // Three output buckets by piece count.
    let bucketed = QuantisedNetwork::random(15, OutputBuckets::PieceCount).to_bytes();
    let mut three = bucketed.clone();
    three[BUCKETS_AT..BUCKETS_AT + 2].copy_from_slice(&3u16.to_le_bytes());
    // Mirrored inputs.
    let mut mirrored = single.clone();
    mirrored[MIRRORING_AT] = 1;
    for (name, bytes, shape) in [
        ("wide.nnue", wide, format!("is {wider} wide")),
        (
            "three.nnue",
            three,
            "3 output buckets by piece count".into(),
        ),
        ("mirrored.nnue", mirrored, "mirrored left to right".into()),
    ] {
        let file = TempFile::with(name, &bytes);
        let refused = Network::load(file.path()).unwrap_err();
        assert!(
            refused.contains(file.path())
                && refused.contains(&shape)
                && refused.contains(&format!("this build evaluates only {HIDDEN} wide")),
            "{refused}"
        );
    }
}

#[test]
fn files_round_trip_and_bad_ones_are_refused_with_a_reason() {
    let quantised = QuantisedNetwork {
        feature_weights: (0..INPUTS * HIDDEN).map(|i| (i % 97) as i16 - 48).collect(),
        feature_bias: vec![3; HIDDEN],
        buckets: OutputBuckets::PieceCount,
        output_weights: (0..16 * HIDDEN).map(|i| (i % 13) as i16).collect(),
        output_bias: (0..8).map(|bucket| -77 + bucket).collect(),
    };
    let bytes = quantised.to_bytes();
    assert_eq!(QuantisedNetwork::from_bytes(&bytes).unwrap(), quantised);
    let network = Network::from_bytes(&bytes).unwrap();
    assert_eq!(network.feature_weights[1][0], (HIDDEN % 97) as i16 - 48);
    let last = network.output_layer(32);
    assert_eq!(last.weights[1][0], ((15 * HIDDEN) % 13) as i16);
    assert_eq!(last.bias, -70);
    assert_eq!(network.output_layer(2).bias, -77);

    let short = Network::from_bytes(&bytes[..bytes.len() - 2]).unwrap_err();
    assert!(short.contains("bytes"), "{short}");
    let foreign = Network::from_bytes(b"not a network at all").unwrap_err();
    assert!(foreign.contains("RKNN"), "{foreign}");
    let single = QuantisedNetwork::random(16, OutputBuckets::Single).to_bytes();
    let mut heavy = single.clone();
    let last_output_weight = heavy.len() - 4;
    for weight in [300, i16::MIN] {
        heavy[last_output_weight..last_output_weight + 2].copy_from_slice(&weight.to_le_bytes());
        let refused = Network::from_bytes(&heavy).unwrap_err();
        assert!(refused.contains("output weights"), "{weight}: {refused}");
    }
    // Any count of occupied squares has a bucket.
    assert_eq!(network.output_layer(SQUARES).bias, -70);
}

/// The tests of the shipped network's file, which only a build of its
/// width embeds.
#[cfg(not(any(feature = "hidden-384", feature = "hidden-512")))]
mod shipped {
    use super::*;

    #[test]
    fn the_embedded_network_is_named_by_its_file() {
        assert_eq!(EMBEDDED.identity(), identity(EMBEDDED_BYTES));
        assert_eq!(missing(&EMBEDDED), None);
        // The same weights under the format-2 header are another file.
        let rewritten = QuantisedNetwork::from_bytes(EMBEDDED_BYTES)
            .unwrap()
            .to_bytes();
        let renamed = Network::from_bytes(&rewritten).unwrap();
        assert_eq!(renamed.identity(), identity(&rewritten));
        assert_ne!(renamed.identity(), EMBEDDED.identity());
    }

    #[test]
    fn files_of_either_header_load() {
        let format_1 = TempFile::with("format-1.nnue", EMBEDDED_BYTES);
        let loaded = Network::load(format_1.path()).unwrap();
        assert_eq!(loaded.identity(), EMBEDDED.identity());
        let rewritten = QuantisedNetwork::from_bytes(EMBEDDED_BYTES)
            .unwrap()
            .to_bytes();
        let format_2 = TempFile::with("format-2.nnue", &rewritten);
        let loaded = Network::load(format_2.path()).unwrap();
        assert_eq!(loaded.identity(), identity(&rewritten));
        assert_eq!(loaded.outputs, EMBEDDED.outputs);
    }
}

/// A build that embeds no network says so until it is given one.
#[cfg(any(feature = "hidden-384", feature = "hidden-512"))]
#[test]
fn a_build_without_an_embedded_network_evaluates_nothing_and_says_so() {
    assert_eq!(EMBEDDED.identity(), NO_NETWORK);
    assert_eq!(evaluate(&EMBEDDED, &Chess::default()), 0);
    let missing = missing(&EMBEDDED).unwrap();
    assert!(missing.contains(&format!("{HIDDEN} wide")), "{missing}");
}
