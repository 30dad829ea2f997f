//! Each network trained on the repository's games names them:
//! `networks/data-<commit>.tsv` is a data manifest (the format of
//! `data/selfplay/manifest.tsv`, paths relative to `networks/`) holding the
//! rows the repository's manifest had at that commit, with their training
//! positions counted under the training filter its first line names, and
//! `networks/README.md` says which of these lists each network was trained
//! on, so that `trainer ... networks/data-<commit>.tsv` retrains it from a
//! clone. This test holds each such list to the repository's manifest:
//! every row it names must be a row there, the same in every column but
//! the path (and the training positions, where the manifest has been
//! counted again under a newer filter). It compares the lists only, which
//! every clone has; the trainer checks the files themselves before it
//! trains.
//!
//! Each shipped network also has a recipe, `networks/recipe-<id>.toml`:
//! the commit, toolchain, build, threads, seed, flags and data list that
//! made its bytes, and the SHA-256 they gave. The test of the recipes
//! holds each to the files it names, and asks one of the shipped network.
//!
//! The game files (`data/selfplay/*/`) are in a full clone only (and in
//! the copy `.ci/run` tests): a sparse one leaves them out (README.md,
//! "Getting the code"). The test that reads some of them says so in the
//! test output and passes when they are not there.

use std::io::Write;
use std::path::{Path, PathBuf};

use rookery::records::TRAINING_FILTER_VERSION;
use rookery::records::manifest::{self, Contents, Entry};
use sha2::{Digest, Sha256};

const REPOSITORY: &str = env!("CARGO_MANIFEST_DIR");
/// Where a network's list finds the game files, from `networks/`.
const DATA_FROM_NETWORKS: &str = "../data/selfplay/";
/// Files of the data manifest read to their end by the test of the game
/// files: the smallest of each folder, so a few seconds cover every
/// engine's folder (`rookery datamanifest --check data/selfplay` reads
/// them all, in minutes).
const FILES_READ_A_FOLDER: usize = 1;

fn repository_manifest() -> PathBuf {
    Path::new(REPOSITORY).join("data/selfplay/manifest.tsv")
}

/// The networks' data lists, `networks/data-*.tsv`, in name order.
fn data_lists() -> Vec<PathBuf> {
    network_files("data-", ".tsv")
}

#[test]
fn every_file_a_network_was_trained_on_is_a_row_of_the_data_manifest() {
    let repository = manifest::read(&repository_manifest()).unwrap();
    assert_eq!(
        repository.filter_version, TRAINING_FILTER_VERSION,
        "the data manifest's counts are not this build's filter's"
    );
    let lists = data_lists();
    assert!(!lists.is_empty(), "no networks/data-*.tsv");
    for list in lists {
        let named = manifest::read(&list).unwrap();
        assert!(!named.entries.is_empty(), "{list:?} names no file");
        assert!(
            named.filter_version <= repository.filter_version,
            "{list:?} names a filter newer than the manifest's"
        );
        let same_filter = named.filter_version == repository.filter_version;
        for entry in named.entries {
            let path = entry
                .path
                .strip_prefix(DATA_FROM_NETWORKS)
                .unwrap_or_else(|| panic!("{list:?}: {} is not under data/selfplay/", entry.path));
            let row = repository
                .entries
                .iter()
                .find(|row| row.path == path)
                .unwrap_or_else(|| panic!("{list:?}: {path} is not in the data manifest"));
            let named_row = Entry {
                path: path.to_string(),
                training_positions: if same_filter {
                    entry.training_positions
                } else {
                    row.training_positions
                },
                ..entry.clone()
            };
            assert_eq!(
                row, &named_row,
                "{list:?}: {path} differs from its manifest row"
            );
        }
    }
}

#[test]
fn the_game_files_that_are_here_hold_what_their_rows_say() {
    let manifest = manifest::read(&repository_manifest()).unwrap();
    let data = Path::new(REPOSITORY).join("data/selfplay");
    let mut folders: Vec<&str> = manifest
        .entries
        .iter()
        .filter_map(|entry| Some(entry.path.split_once('/')?.0))
        .collect();
    folders.sort();
    folders.dedup();
    let mut read = 0;
    for folder in folders {
        let mut rows: Vec<&Entry> = manifest
            .entries
            .iter()
            .filter(|entry| entry.path.starts_with(&format!("{folder}/")))
            .collect();
        rows.sort_by_key(|entry| entry.bytes);
        for row in rows.into_iter().take(FILES_READ_A_FOLDER) {
            let path = data.join(&row.path);
            if !path.exists() {
                continue;
            }
            let contents = Contents::read(&path, &row.path).unwrap();
            let listed = Entry {
                bytes: 0,
                sha256: String::new(),
                ..row.clone()
            };
            assert_eq!(
                contents.entry, listed,
                "{} is not what its row says",
                row.path
            );
            read += 1;
        }
    }
    if read == 0 {
        // Straight to the standard error, which the test harness does not
        // capture, so the skip shows in `cargo test`'s output.
        let _ = writeln!(
            std::io::stderr(),
            "training_data: skipped reading the game files: none of data/selfplay/*/ is in this \
             checkout (a sparse clone, README.md \"Getting the code\"); a full clone reads them"
        );
    }
}

/// The files in `networks/` whose names start with `prefix` and end with
/// `suffix`, in name order.
fn network_files(prefix: &str, suffix: &str) -> Vec<PathBuf> {
    let networks = Path::new(REPOSITORY).join("networks");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&networks)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().and_then(|name| name.to_str());
            name.is_some_and(|name| name.starts_with(prefix) && name.ends_with(suffix))
        })
        .collect();
    found.sort();
    found
}

#[test]
fn the_shipped_network_has_a_recipe_true_to_the_files_it_names() {
    let shipped = std::fs::read(Path::new(REPOSITORY).join("networks/default.nnue")).unwrap();
    let shipped: String = Sha256::digest(&shipped)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    let mut shipped_has_one = false;
    for path in network_files("recipe-", ".toml") {
        let text = std::fs::read_to_string(&path).unwrap();
        let recipe: toml::Table = text.parse().unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let text_of = |key: &str| -> &str {
            recipe
                .get(key)
                .and_then(toml::Value::as_str)
                .unwrap_or_else(|| panic!("{path:?}: no {key}"))
        };
        let number_of = |key: &str| {
            recipe
                .get(key)
                .and_then(toml::Value::as_integer)
                .unwrap_or_else(|| panic!("{path:?}: no {key}"))
        };
        let words_of = |key: &str| -> Vec<&str> {
            recipe
                .get(key)
                .and_then(toml::Value::as_array)
                .unwrap_or_else(|| panic!("{path:?}: no {key}"))
                .iter()
                .map(|word| word.as_str().unwrap())
                .collect()
        };
        let id = text_of("network");
        let sha256 = text_of("sha256");
        assert_eq!(path.file_name().unwrap(), &*format!("recipe-{id}.toml"));
        assert!(sha256.len() == 64 && sha256.starts_with(id), "{path:?}");
        for key in ["trainer_commit", "rust_toolchain", "build"] {
            assert!(!text_of(key).is_empty(), "{path:?}: {key}");
        }
        let list = manifest::read(&Path::new(REPOSITORY).join(text_of("data_list"))).unwrap();
        assert_eq!(
            i64::from(list.filter_version),
            number_of("training_filter_version")
        );
        // The command is the flags, in order, on the data list.
        let command: Vec<&str> = text_of("command")
            .split_whitespace()
            .filter(|word| *word != "\\")
            .collect();
        let flags = words_of("flags");
        assert_eq!(command[1..=flags.len()], flags[..], "{path:?}: the command");
        assert_eq!(command.last(), Some(&text_of("data_list")));
        let defaults = words_of("defaults");
        let every: Vec<&str> = flags.iter().chain(&defaults).copied().collect();
        for (flag, key) in [("--threads", "threads"), ("--seed", "seed")] {
            let at = every.iter().position(|word| *word == flag);
            let value = at.and_then(|at| every.get(at + 1));
            assert_eq!(
                value.map(|value| value.parse::<i64>().unwrap()),
                Some(number_of(key)),
                "{path:?}: {flag}"
            );
        }
        let retrain = recipe.get("retrain").and_then(|r| r.get("result"));
        assert!(retrain.and_then(toml::Value::as_str).is_some(), "{path:?}");
        shipped_has_one |= sha256 == shipped;
    }
    assert!(
        shipped_has_one,
        "networks/default.nnue (sha256 {shipped}) has no networks/recipe-*.toml"
    );
}
