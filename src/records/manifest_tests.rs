//! The tests of `records::manifest`: reading, adding rows, and the
//! check that holds the manifest and its folder to each other both ways
//! (a missing file, an unlisted one, a deleted row, counts that differ).
//! A child module of `manifest.rs`, in a file of its own as the tests grew
//! past the code's size (README, "How it is built").

use super::*;
use crate::records::convert::convert;

/// The version-2 fixture.
fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/selfplay/257e666_s40001_first5.bin")
}

/// The version-2 fixture converted into `dir/sub/games.bin.xz`.
fn data_folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rookery-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("sub")).unwrap();
    let notes = "engine=257e666 network=4937624ec121 seed=40001 nodes=2000";
    convert(&[fixture()], &dir.join("sub/games.bin.xz"), notes).unwrap();
    dir
}

/// The faults `check` finds in `dir`.
fn faults(dir: &Path) -> Vec<String> {
    check(dir, 2).unwrap().faults
}

#[test]
fn new_files_get_a_row_once_with_what_they_hold() {
    let dir = data_folder("manifest-rows");
    let added = add_new_files(&dir).unwrap();
    assert_eq!(added.len(), 1);
    let entry = &added[0];
    assert_eq!(entry.path, "sub/games.bin.xz");
    assert_eq!(entry.format, 4);
    assert_eq!(
        (
            &*entry.engine_commit,
            &*entry.network,
            &*entry.seed,
            &*entry.nodes
        ),
        ("257e666", "4937624ec121", "40001", "2000")
    );
    assert_eq!((entry.games, entry.plies), (5, 97 + 59 + 212 + 215 + 366));
    assert!(entry.training_positions > 0 && entry.training_positions < entry.plies);
    assert_eq!(
        entry.bytes,
        fs::metadata(dir.join(&entry.path)).unwrap().len()
    );
    let manifest = read(&dir.join(MANIFEST_NAME)).unwrap();
    assert_eq!(
        (manifest.filter_version, &manifest.entries),
        (TRAINING_FILTER_VERSION, &added)
    );
    assert!(add_new_files(&dir).unwrap().is_empty());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_cut_file_or_one_without_a_trailer_gets_no_row() {
    let dir = data_folder("manifest-cut");
    let path = dir.join("sub/games.bin.xz");
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let error = add_new_files(&dir).unwrap_err().to_string();
    assert!(error.contains("sub/games.bin.xz"), "{error}");
    assert!(read(&dir.join(MANIFEST_NAME)).unwrap().entries.is_empty());
    // A whole file of version 2, compressed: readable, but nothing
    // shows it was not cut at a game's end.
    let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), 6);
    encoder.write_all(&fs::read(fixture()).unwrap()).unwrap();
    fs::write(&path, encoder.finish().unwrap()).unwrap();
    let error = add_new_files(&dir).unwrap_err().to_string();
    assert!(error.contains("no trailer"), "{error}");
    assert!(read(&dir.join(MANIFEST_NAME)).unwrap().entries.is_empty());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_without_a_trailer_is_vouched_for_by_its_row_only() {
    let dir = data_folder("manifest-vouch");
    let converted = dir.join("sub/games.bin.xz");
    let reader = open_game_file(&converted).unwrap();
    assert_eq!(vouch_for_end(&converted, &reader).unwrap(), Vouch::Trailer);
    // An old file with its row (as the committed files have theirs).
    let old = dir.join("sub/old.bin");
    fs::copy(fixture(), &old).unwrap();
    let reader = open_game_file(&old).unwrap();
    assert_eq!(vouch_for_end(&old, &reader).unwrap(), Vouch::Nothing);
    let (bytes, sha256) = size_and_sha256(&old).unwrap();
    let row = Entry {
        path: "sub/old.bin".to_string(),
        bytes,
        sha256,
        ..Contents::read(&old, "sub/old.bin").unwrap().entry
    };
    let manifest = dir.join(MANIFEST_NAME);
    fs::write(&manifest, format!("{}{}\n", manifest_head(), row.to_row())).unwrap();
    assert_eq!(
        vouch_for_end(&old, &reader).unwrap(),
        Vouch::Row(fs::canonicalize(&manifest).unwrap())
    );
    // Cut at a game's end, it is not the file its row names.
    let bytes = fs::read(&old).unwrap();
    fs::write(&old, &bytes[..bytes.len() - 100]).unwrap();
    let error = vouch_for_end(&old, &reader).unwrap_err().to_string();
    assert!(error.contains("its row in"), "{error}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_listed_file_that_is_gone_stops_the_manifest_growing() {
    let dir = data_folder("manifest-moved");
    add_new_files(&dir).unwrap();
    fs::create_dir_all(dir.join("moved")).unwrap();
    fs::rename(dir.join("sub/games.bin.xz"), dir.join("moved/games.bin.xz")).unwrap();
    let error = add_new_files(&dir).unwrap_err().to_string();
    assert!(
        error.contains("lists sub/games.bin.xz, which is not there"),
        "{error}"
    );
    assert_eq!(read(&dir.join(MANIFEST_NAME)).unwrap().entries.len(), 1);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_whose_sha256_is_not_its_rows_is_refused() {
    let dir = data_folder("manifest-sha");
    add_new_files(&dir).unwrap();
    let manifest = dir.join(MANIFEST_NAME);
    assert_eq!(
        verified_paths(&manifest).unwrap().1,
        vec![dir.join("sub/games.bin.xz")]
    );
    // The same size, one byte changed.
    let path = dir.join("sub/games.bin.xz");
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&path, bytes).unwrap();
    let error = verified_paths(&manifest).unwrap_err().to_string();
    assert!(
        error.contains("games.bin.xz") && error.contains("sha256"),
        "{error}"
    );
    assert_eq!(faults(&dir).len(), 1);
    fs::remove_file(&path).unwrap();
    assert!(verified_paths(&manifest).is_err());
    fs::remove_dir_all(&dir).unwrap();
}

/// A folder of two files and the manifest that lists them.
fn two_files(name: &str) -> PathBuf {
    let dir = data_folder(name);
    convert(&[fixture()], &dir.join("sub/more.bin.xz"), "seed=2").unwrap();
    add_new_files(&dir).unwrap();
    assert_eq!(faults(&dir), Vec::<String>::new());
    dir
}

/// Rewrites the manifest of `dir` through `edit`, line by line.
fn edit_manifest(dir: &Path, edit: impl Fn(&str) -> Option<String>) {
    let path = dir.join(MANIFEST_NAME);
    let text = fs::read_to_string(&path).unwrap();
    let edited: String = text.lines().filter_map(&edit).map(|l| l + "\n").collect();
    fs::write(&path, edited).unwrap();
}

#[test]
fn the_check_finds_a_deleted_row() {
    let dir = two_files("check-row");
    edit_manifest(&dir, |line| {
        (!line.starts_with("sub/more.bin.xz")).then(|| line.to_string())
    });
    assert_eq!(
        faults(&dir),
        ["sub/more.bin.xz: a game file with no row in manifest.tsv"]
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_check_finds_an_unlisted_file() {
    let dir = two_files("check-unlisted");
    fs::create_dir_all(dir.join("new")).unwrap();
    convert(&[fixture()], &dir.join("new/s9-c00000.bin.xz"), "seed=9").unwrap();
    assert_eq!(
        faults(&dir),
        ["new/s9-c00000.bin.xz: a game file with no row in manifest.tsv"]
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_check_finds_a_missing_file() {
    let dir = two_files("check-missing");
    fs::remove_file(dir.join("sub/games.bin.xz")).unwrap();
    assert_eq!(faults(&dir), ["sub/games.bin.xz: listed, but not there"]);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_check_finds_a_wrong_count() {
    let dir = two_files("check-count");
    let rows = read(&dir.join(MANIFEST_NAME)).unwrap().entries;
    let positions = rows[0].training_positions;
    edit_manifest(&dir, |line| {
        Some(if line.starts_with("sub/games.bin.xz") {
            let mut row = Entry::from_row(line).unwrap();
            row.games += 1;
            row.training_positions -= 1;
            row.to_row()
        } else {
            line.to_string()
        })
    });
    assert_eq!(
        faults(&dir),
        [
            "sub/games.bin.xz: holds games 5, its row says 6".to_string(),
            format!(
                "sub/games.bin.xz: holds training_positions {positions}, its row says {}",
                positions - 1
            )
        ]
    );
    // Counts under another filter version cannot be compared.
    edit_manifest(&dir, |line| {
        Some(match line.strip_prefix(FILTER_LINE) {
            Some(_) => format!("{FILTER_LINE}{}", TRAINING_FILTER_VERSION + 1),
            None => line.to_string(),
        })
    });
    let found = faults(&dir);
    assert!(found[0].contains("filter version"), "{found:?}");
    assert_eq!(found[1], "sub/games.bin.xz: holds games 5, its row says 6");
    assert_eq!(found.len(), 2);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_manifest_without_its_header_or_with_a_bad_row_is_refused() {
    let dir = data_folder("manifest-bad");
    let manifest = dir.join(MANIFEST_NAME);
    fs::write(&manifest, format!("{}\n", COLUMNS.join("\t"))).unwrap();
    assert!(read(&manifest).unwrap_err().to_string().contains("filter"));
    fs::write(&manifest, format!("{FILTER_LINE}1\npath\tsha256\n")).unwrap();
    assert!(read(&manifest).unwrap_err().to_string().contains("header"));
    fs::write(
        &manifest,
        format!("{}sub/games.bin.xz\t3\n", manifest_head()),
    )
    .unwrap();
    assert!(read(&manifest).unwrap_err().to_string().contains("line 3"));
    fs::remove_dir_all(&dir).unwrap();
}
