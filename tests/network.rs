//! The `EvalFile` option and the `eval` command, as a GUI uses them: a
//! network file that cannot be used is refused with a reason and the
//! network in use stays; a good one is evaluated with; `<empty>` goes back
//! to the embedded network. A file of either header format loads; a
//! network of a shape this build does not evaluate is refused as that
//! shape.

mod common;

use common::{Engine, command, errors};
use rookery::nnue::QuantisedNetwork;

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

#[test]
fn every_supported_shape_loads_and_another_shape_is_refused_as_such() {
    let mut engine = Engine::start();
    engine.handshake();
    command(&mut engine, POSITION);
    let embedded = evaluation(&mut engine);

    // The only shape this build evaluates, 256 wide with one output, under
    // both headers: format 1 (the shipped file) and format 2 (what the
    // trainer writes now), the same weights after them.
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

    // Other weights in use, then other shapes asked for: refused, naming
    // the shape and the supported one, and the network in use stays.
    let mut changed = rewritten.clone();
    let bias = changed.len() - 2;
    changed[bias..].copy_from_slice(&i16::MIN.to_le_bytes());
    let other = TempFile::with("other-format-2.nnue", &changed);
    command(
        &mut engine,
        &format!("setoption name EvalFile value {}", other.path()),
    );
    let in_use = evaluation(&mut engine);
    assert_ne!(in_use, embedded);
    let weights = &shipped[8..];
    let mut format_1_wide = shipped[..8].to_vec();
    format_1_wide[4..8].copy_from_slice(&512u32.to_le_bytes());
    let supported =
        "this build evaluates only 256 wide, 1 output bucket, not mirrored, 1 king bucket";
    for (name, header, shape) in [
        (
            "wide.nnue",
            format_2_header(512, 1, 0, 0, 1),
            "512 wide, 1 output bucket",
        ),
        (
            "buckets.nnue",
            format_2_header(256, 8, 1, 0, 1),
            "256 wide, 8 output buckets by piece count",
        ),
        (
            "mirrored.nnue",
            format_2_header(256, 1, 0, 1, 1),
            "mirrored left to right",
        ),
        ("wide-format-1.nnue", format_1_wide, "512 wide"),
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
                && refused[0].contains(shape)
                && refused[0].contains(supported)
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
