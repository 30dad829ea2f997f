//! The `EvalFile` option and the `eval` command, as a GUI uses them: a
//! network file that cannot be used is refused with a reason and the
//! network in use stays; a good one is evaluated with; `<empty>` goes back
//! to the embedded network.

mod common;

use common::{Engine, command, errors};

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
