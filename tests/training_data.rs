//! Each network trained on the repository's games names them:
//! `networks/data-<commit>.tsv` is a data manifest (the format of
//! `data/selfplay/manifest.tsv`, paths relative to `networks/`) holding the
//! rows the repository's manifest had at that commit, and
//! `networks/README.md` says which of these lists each network was trained
//! on, so that `trainer ... networks/data-<commit>.tsv` retrains it from a
//! clone. This test holds each such list to the repository's manifest:
//! every row it names must be a row there, the same in every column but
//! the path. It compares the two lists only (the copy `.ci/run` tests
//! leaves the game files out); the trainer checks the files themselves
//! before it trains.

use std::path::{Path, PathBuf};

use rookery::tools::datagen::manifest::{self, Entry};

const REPOSITORY: &str = env!("CARGO_MANIFEST_DIR");
/// Where a network's list finds the game files, from `networks/`.
const DATA_FROM_NETWORKS: &str = "../data/selfplay/";

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
    let repository_manifest = Path::new(REPOSITORY).join("data/selfplay/manifest.tsv");
    let rows: Vec<Entry> = manifest::read(&repository_manifest).unwrap();
    let lists = data_lists();
    assert!(!lists.is_empty(), "no networks/data-*.tsv");
    for list in lists {
        let named = manifest::read(&list).unwrap();
        assert!(!named.is_empty(), "{list:?} names no file");
        for entry in named {
            let path = entry
                .path
                .strip_prefix(DATA_FROM_NETWORKS)
                .unwrap_or_else(|| panic!("{list:?}: {} is not under data/selfplay/", entry.path));
            let row = rows
                .iter()
                .find(|row| row.path == path)
                .unwrap_or_else(|| panic!("{list:?}: {path} is not in the data manifest"));
            let named_row = Entry {
                path: path.to_string(),
                ..entry.clone()
            };
            assert_eq!(
                row, &named_row,
                "{list:?}: {path} differs from its manifest row"
            );
        }
    }
}
