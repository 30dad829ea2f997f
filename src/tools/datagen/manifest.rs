//! The data manifest: `data/selfplay/manifest.tsv`, one row per committed
//! game file, so that anyone with a clone can see what the networks were
//! trained on and retrain them from exactly those bytes.
//!
//! A tab-separated table with a header row; paths are relative to the
//! manifest's folder. `engine_commit`, `network`, `seed` and `nodes` come
//! from the file's notes (`-` where a file has none); the counts come from
//! reading it: `training_positions` is the number of lines
//! `rookery datatext` of the build that wrote the row prints for it (a
//! later change to which positions are fit for training counts anew). `bytes` and `sha256` are the file's
//! as stored (compressed), and [`verified_paths`] refuses a file whose
//! size or hash differs from its row, before any training reads it.
//!
//! Rows are only ever added ([`add_new_files`]): a committed file is
//! immutable, so its row is too.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::chunks::FINISHED_SUFFIX;
use super::record::open_game_file;

/// The manifest's file name in its folder.
pub const MANIFEST_NAME: &str = "manifest.tsv";
/// The header row's columns, in order.
const COLUMNS: [&str; 11] = [
    "path",
    "format",
    "engine_commit",
    "network",
    "seed",
    "nodes",
    "games",
    "plies",
    "training_positions",
    "bytes",
    "sha256",
];
/// What a column a file's notes do not give holds.
const UNKNOWN: &str = "-";
/// Bytes read at a time while hashing.
const HASH_BUFFER_BYTES: usize = 1 << 16;

/// One row: a game file and what it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Relative to the manifest's folder, with `/` between folders.
    pub path: String,
    pub format: u16,
    pub engine_commit: String,
    pub network: String,
    pub seed: String,
    pub nodes: String,
    pub games: u64,
    pub plies: u64,
    pub training_positions: u64,
    pub bytes: u64,
    pub sha256: String,
}

impl Entry {
    /// Reads the file at `dir/path` and says what it holds.
    pub fn describe(dir: &Path, path: &str) -> io::Result<Entry> {
        let full = dir.join(path);
        let (bytes, sha256) = size_and_sha256(&full)?;
        let mut reader = open_game_file(&full)?;
        let note = |key: &str| {
            reader
                .notes()
                .split_whitespace()
                .find_map(|word| word.strip_prefix(key)?.strip_prefix('='))
                .unwrap_or(UNKNOWN)
                .to_string()
        };
        let mut entry = Entry {
            path: path.to_string(),
            format: reader.version(),
            engine_commit: note("engine"),
            network: note("network"),
            seed: note("seed"),
            nodes: note("nodes"),
            games: 0,
            plies: 0,
            training_positions: 0,
            bytes,
            sha256,
        };
        while let Some(game) = reader.next_game()? {
            entry.games += 1;
            entry.plies += game.ply_count() as u64;
            entry.training_positions += game.training_positions().len() as u64;
        }
        Ok(entry)
    }

    fn to_row(&self) -> String {
        [
            self.path.clone(),
            self.format.to_string(),
            self.engine_commit.clone(),
            self.network.clone(),
            self.seed.clone(),
            self.nodes.clone(),
            self.games.to_string(),
            self.plies.to_string(),
            self.training_positions.to_string(),
            self.bytes.to_string(),
            self.sha256.clone(),
        ]
        .join("\t")
    }

    fn from_row(row: &str) -> Option<Entry> {
        let fields: Vec<&str> = row.split('\t').collect();
        let [
            path,
            format,
            engine_commit,
            network,
            seed,
            nodes,
            games,
            plies,
            positions,
            bytes,
            sha256,
        ] = fields[..]
        else {
            return None;
        };
        Some(Entry {
            path: path.to_string(),
            format: format.parse().ok()?,
            engine_commit: engine_commit.to_string(),
            network: network.to_string(),
            seed: seed.to_string(),
            nodes: nodes.to_string(),
            games: games.parse().ok()?,
            plies: plies.parse().ok()?,
            training_positions: positions.parse().ok()?,
            bytes: bytes.parse().ok()?,
            sha256: sha256.to_string(),
        })
    }
}

/// The rows of the manifest at `manifest`.
pub fn read(manifest: &Path) -> io::Result<Vec<Entry>> {
    let text = fs::read_to_string(manifest).map_err(|error| {
        io::Error::new(error.kind(), format!("{}: {error}", manifest.display()))
    })?;
    let mut lines = text.lines();
    if lines.next() != Some(&COLUMNS.join("\t")) {
        return Err(invalid(manifest, 1, "the header row is not the manifest's"));
    }
    lines
        .enumerate()
        .map(|(index, row)| {
            Entry::from_row(row).ok_or_else(|| invalid(manifest, index + 2, "a malformed row"))
        })
        .collect()
}

/// The paths of every file the manifest lists, each checked against its
/// row: an error names the first file that is missing or whose size or
/// SHA-256 is not the row's.
pub fn verified_paths(manifest: &Path) -> io::Result<Vec<PathBuf>> {
    let dir = manifest.parent().unwrap_or(Path::new("."));
    read(manifest)?
        .into_iter()
        .map(|entry| {
            let path = dir.join(&entry.path);
            let (bytes, sha256) = size_and_sha256(&path)?;
            if (bytes, &sha256) != (entry.bytes, &entry.sha256) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "{}: {bytes} bytes with sha256 {sha256}, but {} lists {} bytes with \
                         sha256 {}: the file is not the one the manifest names",
                        path.display(),
                        manifest.display(),
                        entry.bytes,
                        entry.sha256
                    ),
                ));
            }
            Ok(path)
        })
        .collect()
}

/// Adds a row for every finished game file under `dir` (any depth) that
/// the manifest `dir/manifest.tsv` does not list yet, in path order,
/// making the manifest if there is none. Says which rows it added.
///
/// A listed file that is gone is an error, and nothing is added: a file
/// moved or renamed would otherwise be listed twice, once under a path
/// that no longer exists.
pub fn add_new_files(dir: &Path) -> io::Result<Vec<Entry>> {
    let manifest = dir.join(MANIFEST_NAME);
    let listed: HashSet<String> = if manifest.exists() {
        let listed: HashSet<String> = read(&manifest)?
            .into_iter()
            .map(|entry| entry.path)
            .collect();
        let mut gone: Vec<&String> = listed.iter().filter(|p| !dir.join(p).exists()).collect();
        gone.sort();
        if let Some(path) = gone.first() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "{}: lists {path}, which is not there (and {} more): a committed file \
                     is never moved or deleted; put it back, or remove its row by hand",
                    manifest.display(),
                    gone.len() - 1
                ),
            ));
        }
        listed
    } else {
        fs::write(&manifest, format!("{}\n", COLUMNS.join("\t")))?;
        HashSet::new()
    };
    let mut new_paths: Vec<String> = game_files(dir, "")?
        .into_iter()
        .filter(|path| !listed.contains(path))
        .collect();
    new_paths.sort();
    let added = new_paths
        .iter()
        .map(|path| Entry::describe(dir, path))
        .collect::<io::Result<Vec<_>>>()?;
    let mut file = fs::OpenOptions::new().append(true).open(&manifest)?;
    for entry in &added {
        writeln!(file, "{}", entry.to_row())?;
    }
    Ok(added)
}

/// The finished game files under `dir/relative`, as paths relative to
/// `dir`.
fn game_files(dir: &Path, relative: &str) -> io::Result<Vec<String>> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir.join(relative))? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if relative.is_empty() {
            name.clone()
        } else {
            format!("{relative}/{name}")
        };
        if entry.file_type()?.is_dir() {
            found.extend(game_files(dir, &path)?);
        } else if name.ends_with(FINISHED_SUFFIX) {
            found.push(path);
        }
    }
    Ok(found)
}

/// The file's size and SHA-256 (lower-case hex).
fn size_and_sha256(path: &Path) -> io::Result<(u64, String)> {
    let mut file = File::open(path)
        .map_err(|error| io::Error::new(error.kind(), format!("{}: {error}", path.display())))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; HASH_BUFFER_BYTES];
    let mut bytes = 0u64;
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
        bytes += read as u64;
    }
    let hex = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((bytes, hex))
}

fn invalid(manifest: &Path, line: usize, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{} line {line}: {what}", manifest.display()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::datagen::convert::convert;

    /// The version-2 fixture converted into `dir/sub/games.bin.xz`.
    fn data_folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("rookery-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("sub")).unwrap();
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/selfplay/257e666_s40001_first5.bin");
        let notes = "engine=257e666 network=4937624ec121 seed=40001 nodes=2000";
        convert(&[fixture], &dir.join("sub/games.bin.xz"), notes).unwrap();
        dir
    }

    #[test]
    fn new_files_get_a_row_once_with_what_they_hold() {
        let dir = data_folder("manifest-rows");
        let added = add_new_files(&dir).unwrap();
        assert_eq!(added.len(), 1);
        let entry = &added[0];
        assert_eq!(entry.path, "sub/games.bin.xz");
        assert_eq!(entry.format, 3);
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
        assert_eq!(read(&dir.join(MANIFEST_NAME)).unwrap(), added);
        assert!(add_new_files(&dir).unwrap().is_empty());
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
        assert_eq!(read(&dir.join(MANIFEST_NAME)).unwrap().len(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_whose_sha256_is_not_its_rows_is_refused() {
        let dir = data_folder("manifest-sha");
        add_new_files(&dir).unwrap();
        let manifest = dir.join(MANIFEST_NAME);
        assert_eq!(
            verified_paths(&manifest).unwrap(),
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
        fs::remove_file(&path).unwrap();
        assert!(verified_paths(&manifest).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_manifest_without_its_header_or_with_a_bad_row_is_refused() {
        let dir = data_folder("manifest-bad");
        let manifest = dir.join(MANIFEST_NAME);
        fs::write(&manifest, "path\tsha256\n").unwrap();
        assert!(read(&manifest).unwrap_err().to_string().contains("header"));
        fs::write(
            &manifest,
            format!("{}\nsub/games.bin.xz\t3\n", COLUMNS.join("\t")),
        )
        .unwrap();
        assert!(read(&manifest).unwrap_err().to_string().contains("line 2"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
