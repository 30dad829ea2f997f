//! The `EvalFile` option and the `eval` command, as a GUI uses them: a
//! network file that cannot be used is refused with a reason and the
//! network in use stays; a good one is evaluated with; `<empty>` goes back
//! to the embedded network. A file of either header format loads; a
//! network of each shape this build evaluates (1 output bucket, or 8 by
//! piece count) evaluates as a plain reference says; a network of another
//! shape is refused as that shape.

mod common;

use common::{Engine, command, errors};
use rookery::nnue::{
    HIDDEN, INPUTS, OutputBuckets, QA, QB, QuantisedNetwork, SCALE, feature_index,
};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position};

/// The network shipped in the binary, as a file.
const SHIPPED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/networks/default.nnue");
const POSITION: &str =
    "position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

/// The centipawns the `eval` command prints.
fn evaluation(engine: &mut Engine) -> i32 {
    let lines = command(engine, "eval");
    lines
        .iter()
        .find_map(|l| l.strip_prefix("info string static evaluation "))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no evaluation in {lines:#?}"))
}

/// A file in the temporary directory, removed when dropped.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn with(name: &str, bytes: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!("rookery-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        TempFile(path)
    }

    /// A named pipe, which nothing ever writes to.
    fn pipe(name: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("rookery-{}-{name}", std::process::id()));
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success(), "mkfifo {path:?}");
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
fn unusable_network_files_are_refused_and_the_network_is_kept() {
    let mut engine = Engine::start();
    engine.handshake();
    command(&mut engine, POSITION);
    let embedded = evaluation(&mut engine);

    let shipped = std::fs::read(SHIPPED).unwrap();
    let truncated = TempFile::with("truncated.nnue", &shipped[..shipped.len() - 100]);
    let mut renamed = shipped.clone();
    renamed[..4].copy_from_slice(b"NOPE");
    let foreign = TempFile::with("foreign.nnue", &renamed);
    // Opening a pipe waits for a writer: it used to hang the engine.
    let pipe = TempFile::pipe("pipe.nnue");
    for (value, reason) in [
        ("/nonexistent/rookery.nnue", "cannot read"),
        (truncated.path(), "bytes"),
        (foreign.path(), "RKNN"),
        (std::env::temp_dir().to_str().unwrap(), "not a regular file"),
        (pipe.path(), "not a regular file"),
    ] {
        let out = command(
            &mut engine,
            &format!("setoption name EvalFile value {value}"),
        );
        let refused = errors(&out);
        assert!(
            refused.len() == 1 && refused[0].contains("EvalFile") && refused[0].contains(reason),
            "{value}: {out:#?}"
        );
        assert_eq!(
            evaluation(&mut engine),
            embedded,
            "{value} changed the network"
        );
    }

    // A file with other weights is used at once, and `<empty>` goes back.
    let mut changed = shipped.clone();
    let bias = changed.len() - 2;
    changed[bias..].copy_from_slice(&i16::MIN.to_le_bytes());
    let other = TempFile::with("other.nnue", &changed);
    let out = command(
        &mut engine,
        &format!("setoption name EvalFile value {}", other.path()),
    );
    assert!(errors(&out).is_empty(), "{out:#?}");
    assert_ne!(evaluation(&mut engine), embedded);
    command(&mut engine, "setoption name EvalFile value <empty>");
    assert_eq!(evaluation(&mut engine), embedded);
}

/// A format-2 header (`src/nnue/format.rs`'s diagram, written out here as
/// a second reading of it): `hidden` wide, `buckets` output buckets chosen
/// by `choice`, mirroring `mirroring`, `king_buckets` king buckets.
fn format_2_header(
    hidden: u16,
    buckets: u16,
    choice: u8,
    mirroring: u8,
    king_buckets: u16,
) -> Vec<u8> {
    let mut header = b"RKNN".to_vec();
    header.extend_from_slice(&0u32.to_le_bytes());
    header.extend_from_slice(&2u16.to_le_bytes());
    header.extend_from_slice(&hidden.to_le_bytes());
    header.extend_from_slice(&buckets.to_le_bytes());
    header.extend_from_slice(&[choice, mirroring]);
    header.extend_from_slice(&king_buckets.to_le_bytes());
    header
}

/// This build's width, as format 2 writes it.
const WIDTH: u16 = HIDDEN as u16;

/// A network of `buckets` with weights given by formulas (every weight
/// matters, none overflows anything).
fn known_network(buckets: OutputBuckets) -> QuantisedNetwork {
    let count = buckets.count();
    QuantisedNetwork {
        feature_weights: (0..INPUTS * HIDDEN)
            .map(|i| ((i * 7919) % 61) as i16 - 30)
            .collect(),
        feature_bias: (0..HIDDEN).map(|i| (i % 17) as i16 * 8).collect(),
        buckets,
        output_weights: (0..count * 2 * HIDDEN)
            .map(|i| ((i * 31) % 255) as i16 - 127)
            .collect(),
        output_bias: (0..count).map(|b| b as i16 * 1000 - 3000).collect(),
    }
}

/// The evaluation of the position `fen` by `network`, written out plainly
/// from the network file's description (`src/nnue/mod.rs`): each
/// perspective's accumulator summed from scratch in `i64`, side to move
/// first, SCReLU, the output layer of bucket (pieces − 2) / 4 (or the one
/// layer), scaled to centipawns.
fn reference(network: &QuantisedNetwork, fen: &str) -> i32 {
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let board = pos.board();
    let accumulator = |perspective: Color| -> Vec<i64> {
        (0..HIDDEN)
            .map(|neuron| {
                let rows = board.iter().map(|(square, piece)| {
                    let feature = feature_index(perspective, piece, square);
                    i64::from(network.feature_weights[feature * HIDDEN + neuron])
                });
                i64::from(network.feature_bias[neuron]) + rows.sum::<i64>()
            })
            .collect()
    };
    let bucket = match network.buckets {
        OutputBuckets::Single => 0,
        OutputBuckets::PieceCount => (board.occupied().count() - 2) / 4,
    };
    let weights = &network.output_weights[bucket * 2 * HIDDEN..];
    let qa = i64::from(QA);
    let sum: i64 = accumulator(pos.turn())
        .into_iter()
        .chain(accumulator(!pos.turn()))
        .zip(weights)
        .map(|(value, &weight)| value.clamp(0, qa).pow(2) * i64::from(weight))
        .sum();
    let output = sum / qa + i64::from(network.output_bias[bucket]);
    (output * i64::from(SCALE) / (qa * i64::from(QB))) as i32
}

/// Positions of 32, 28, 14 and 4 pieces: output buckets 7, 6, 3 and 0.
const FENS: [&str; 4] = [
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 b - - 0 10",
    "6k1/pp3ppp/8/3r4/8/5P2/PP4PP/3R2K1 w - - 0 30",
    "8/8/4k3/8/2P5/4K3/5p2/8 b - - 0 50",
];

#[test]
fn each_supported_shape_is_evaluated_through_eval_file_as_a_plain_reference() {
    let mut engine = Engine::start();
    engine.handshake();
    for buckets in OutputBuckets::ALL {
        let network = known_network(buckets);
        let file = TempFile::with(
            &format!("known-{}.nnue", buckets.count()),
            &network.to_bytes(),
        );
        let out = command(
            &mut engine,
            &format!("setoption name EvalFile value {}", file.path()),
        );
        assert!(errors(&out).is_empty(), "{out:#?}");
        for fen in FENS {
            command(&mut engine, &format!("position fen {fen}"));
            assert_eq!(
                evaluation(&mut engine),
                reference(&network, fen),
                "{buckets:?}: {fen}"
            );
        }
    }
}

#[test]
fn every_supported_shape_loads_and_another_shape_is_refused_as_such() {
    let mut engine = Engine::start();
    engine.handshake();
    command(&mut engine, POSITION);
    let embedded = evaluation(&mut engine);

    // The shipped network under both headers: format 1 (the shipped file)
    // and format 2 (what the trainer writes now), the same weights after
    // them; and a network of 8 output buckets.
    let shipped = std::fs::read(SHIPPED).unwrap();
    let rewritten = QuantisedNetwork::from_bytes(&shipped).unwrap().to_bytes();
    assert_eq!(rewritten[..18], format_2_header(256, 1, 0, 0, 1)[..]);
    assert_eq!(rewritten[18..], shipped[8..]);
    let format_1 = TempFile::with("format-1.nnue", &shipped);
    let format_2 = TempFile::with("format-2.nnue", &rewritten);
    for file in [&format_2, &format_1] {
        let out = command(
            &mut engine,
            &format!("setoption name EvalFile value {}", file.path()),
        );
        assert!(errors(&out).is_empty(), "{out:#?}");
        assert_eq!(evaluation(&mut engine), embedded, "{}", file.path());
    }
    let bucketed = known_network(OutputBuckets::PieceCount).to_bytes();
    assert_eq!(bucketed[..18], format_2_header(WIDTH, 8, 1, 0, 1)[..]);
    let bucketed = TempFile::with("bucketed.nnue", &bucketed);
    command(
        &mut engine,
        &format!("setoption name EvalFile value {}", bucketed.path()),
    );
    let in_use = evaluation(&mut engine);
    assert_ne!(in_use, embedded);

    // Other shapes asked for: refused, naming the file, its shape and the
    // supported ones, and the network in use stays.
    let weights = &shipped[8..];
    let wider = 2 * WIDTH;
    let mut format_1_wide = shipped[..8].to_vec();
    format_1_wide[4..8].copy_from_slice(&u32::from(wider).to_le_bytes());
    let supported = format!(
        "this build evaluates only {WIDTH} wide, 1 output bucket, not mirrored, 1 king bucket \
         or {WIDTH} wide, 8 output buckets by piece count, not mirrored, 1 king bucket"
    );
    for (name, header, shape) in [
        (
            "wide.nnue",
            format_2_header(wider, 1, 0, 0, 1),
            format!("{wider} wide, 1 output bucket"),
        ),
        (
            "three-buckets.nnue",
            format_2_header(WIDTH, 3, 1, 0, 1),
            format!("{WIDTH} wide, 3 output buckets by piece count"),
        ),
        (
            "mirrored.nnue",
            format_2_header(WIDTH, 1, 0, 1, 1),
            "mirrored left to right".to_string(),
        ),
        ("wide-format-1.nnue", format_1_wide, format!("{wider} wide")),
    ] {
        let file = TempFile::with(name, &[&header[..], weights].concat());
        let out = command(
            &mut engine,
            &format!("setoption name EvalFile value {}", file.path()),
        );
        let refused = errors(&out);
        assert!(
            refused.len() == 1
                && refused[0].starts_with("info string error: EvalFile: ")
                && refused[0].contains(file.path())
                && refused[0].contains(&shape)
                && refused[0].contains(&supported)
                && refused[0].ends_with("keeping the current network"),
            "{name}: {out:#?}"
        );
        assert_eq!(
            evaluation(&mut engine),
            in_use,
            "{name} changed the network"
        );
    }
}
