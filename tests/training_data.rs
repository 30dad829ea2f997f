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
//! The game files (`data/selfplay/*/`) are in a full clone only: a sparse
//! one, or the copy `.ci/run` tests, leaves them out (README.md, "Getting
//! the code"). The test that reads some of them says so in the test output
//! and passes when they are not there.

use std::io::Write;
use std::path::{Path, PathBuf};

use rookery::tools::datagen::manifest::{self, Contents, Entry};
use rookery::tools::datagen::record::TRAINING_FILTER_VERSION;

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
    let networks = Path::new(REPOSITORY).join("networks");
    let mut lists: Vec<PathBuf> = std::fs::read_dir(&networks)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().and_then(|name| name.to_str());
            name.is_some_and(|name| name.starts_with("data-") && name.ends_with(".tsv"))
        })
        .collect();
    lists.sort();
    lists
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
             checkout (a sparse clone or the CI copy); a full clone reads them"
        );
    }
}
