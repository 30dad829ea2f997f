//! The trainer run as a user runs it, on a fixed small input: the same
//! command gives the same network, byte for byte (what a network's recipe,
//! `networks/recipe-<id>.toml`, relies on), with one output bucket or
//! eight (a network the engine then loads), and a data list whose counts
//! this build's training filter does not reproduce is refused before
//! anything is trained.
//!
//! The input is the archive's ten fixture games (`tests/data/selfplay/`),
//! converted to the current format: about a thousand positions, so a run
//! of a few epochs takes well under a second.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rookery::nnue::activate_file;
use rookery::records::TRAINING_FILTER_VERSION;
use rookery::records::convert::convert;
use rookery::records::manifest::{self, MANIFEST_NAME};

const TRAINER: &str = env!("CARGO_BIN_EXE_trainer");
/// Positions per step: several steps an epoch on the fixture's games.
const BATCH: &str = "128";
const EPOCHS: &str = "3";

/// A scratch folder holding `data/games.bin.xz`, the fixture games, and
/// `data/manifest.tsv` listing it.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rookery-trainer-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/selfplay");
    let inputs = [
        fixtures.join("a1153ef_s30001_first5.bin"),
        fixtures.join("257e666_s40001_first5.bin"),
    ];
    convert(&inputs, &dir.join("data/games.bin.xz"), "seed=1").unwrap();
    manifest::add_new_files(&dir.join("data")).unwrap();
    dir
}

/// Runs the trainer with `threads` into `dir/out`, on `data`. The thread
/// count is part of the recipe: each thread sums its slice of a batch's
/// gradient, so another count adds the same floats in another order (on
/// this input, one and two threads give float checkpoints that differ in
/// most bytes after three epochs, though the quantised networks happen to
/// agree).
fn train(dir: &Path, out: &str, threads: &str, data: &Path) -> Output {
    train_with(dir, out, threads, data, &[])
}

/// [`train`] with `more` arguments.
fn train_with(dir: &Path, out: &str, threads: &str, data: &Path, more: &[&str]) -> Output {
    Command::new(TRAINER)
        .args(["--out-dir"])
        .arg(dir.join(out))
        .args(more)
        .args(["--epochs", EPOCHS, "--batch", BATCH, "--threads", threads])
        .args(["--mirror", "--wd", "0.1", "--lr", "0.004", "--wdl", "0.1"])
        .args([
            "--sigmoid-scale",
            "fit",
            "--val-fraction",
            "0.1",
            "--seed",
            "7",
        ])
        .arg(data)
        .output()
        .unwrap()
}

/// What a successful run wrote: the network and the last epoch's float
/// checkpoint.
fn network(dir: &Path, out: &str, run: &Output) -> (Vec<u8>, Vec<u8>) {
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let read = |name: &str| std::fs::read(dir.join(out).join(name)).unwrap();
    (read("final.nnue"), read(&format!("epoch-{EPOCHS}.f32")))
}

#[test]
fn the_same_command_trains_the_same_network_to_the_byte() {
    let dir = scratch("determinism");
    let data = dir.join("data").join(MANIFEST_NAME);
    for threads in ["1", "2"] {
        let first = network(&dir, "a", &train(&dir, "a", threads, &data));
        let second = network(&dir, "b", &train(&dir, "b", threads, &data));
        assert!(first == second, "two runs on {threads} threads differ");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_eight_bucket_run_is_reproducible_and_writes_a_network_the_engine_loads() {
    const BUCKETS: [&str; 2] = ["--output-buckets", "8"];
    const BUCKETS_AT: usize = 12;
    let dir = scratch("buckets");
    let data = dir.join("data").join(MANIFEST_NAME);
    let run = train_with(&dir, "a", "2", &data, &BUCKETS);
    let stderr = String::from_utf8_lossy(&run.stderr).to_string();
    let first = network(&dir, "a", &run);
    let second = network(&dir, "b", &train_with(&dir, "b", "2", &data, &BUCKETS));
    assert!(first == second, "two runs with 8 output buckets differ");
    assert!(
        stderr
            .lines()
            .next()
            .is_some_and(|line| line.contains("8 output buckets by piece count")),
        "{stderr}"
    );
    let (bytes, _) = first;
    let buckets = u16::from_le_bytes([bytes[BUCKETS_AT], bytes[BUCKETS_AT + 1]]);
    assert_eq!(buckets, 8);
    // The engine's loader (`EvalFile`, `bench --eval-file`) takes it.
    activate_file(dir.join("a/final.nnue").to_str().unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_list_whose_counts_the_filter_does_not_give_is_refused() {
    let dir = scratch("list");
    let list = dir.join("data").join(MANIFEST_NAME);
    let text = std::fs::read_to_string(&list).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut row: Vec<String> = lines[2].split('\t').map(str::to_string).collect();
    let positions: u64 = row[8].parse().unwrap();
    row[8] = (positions + 1).to_string();
    lines[2] = row.join("\t");
    std::fs::write(&list, lines.join("\n") + "\n").unwrap();
    let run = train(&dir, "out", "1", &list);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(
        stderr.contains("games.bin.xz") && stderr.contains("does not reproduce"),
        "{stderr}"
    );

    // A list counted under another filter names the build to use.
    let other = TRAINING_FILTER_VERSION + 1;
    lines[0] = format!("# training_filter_version={other}");
    std::fs::write(&list, lines.join("\n") + "\n").unwrap();
    let run = train(&dir, "out", "1", &list);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(
        stderr.contains(&format!("whose TRAINING_FILTER_VERSION is {other}")),
        "{stderr}"
    );
    assert!(!dir.join("out/final.nnue").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
