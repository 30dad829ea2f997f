//! The data manifest: `data/selfplay/manifest.tsv`, one row per committed
//! game file, so that anyone with a clone can see what the networks were
//! trained on and retrain them from exactly those bytes.
//!
//! A tab-separated table: a first line `# training_filter_version=N`,
//! then a header row, then the rows; paths are relative to the manifest's
//! folder. `engine_commit`, `network`, `seed` and `nodes` come from the
//! file's notes (`-` where a file has none); the counts come from reading
//! it: `training_positions` is the number of lines `rookery datatext`
//! prints for it under the training filter of version N
//! (`record::TRAINING_FILTER_VERSION`), which the first line names, so a
//! count is never read under another filter unnoticed. `bytes` and
//! `sha256` are the file's as stored (compressed), and [`verified_paths`]
//! refuses a file whose size or hash differs from its row, before any
//! training reads it. A network's data list (`networks/data-<commit>.tsv`)
//! is a manifest too, its rows the data manifest's at that commit.
//!
//! Rows are only ever added ([`add_new_files`]): a committed file is
//! immutable, so its row is too. A file is added only once it has read to
//! its end and ended in its trailer: a file without one (of a format
//! version before 4) could have been cut at a game's end, and only a row
//! written before the cut could vouch for it ([`vouch_for_end`]). [`check`]
//! holds the manifest and its folder to each other both ways: every row's
//! file is there, with the row's size, hash and counts, and every game file
//! there has a row.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use sha2::{Digest, Sha256};

use super::chunks::FINISHED_SUFFIX;
use super::{GameReader, TRAINING_FILTER_VERSION, open_game_file};

/// The manifest's file name in its folder.
pub const MANIFEST_NAME: &str = "manifest.tsv";
/// What the first line says before the training filter's version.
const FILTER_LINE: &str = "# training_filter_version=";
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

/// A manifest: the training filter its counts are under, and its rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    pub filter_version: u32,
    pub entries: Vec<Entry>,
}

/// What a game file holds, read to its end.
pub struct Contents {
    /// Its row, but for `bytes` and `sha256` (left empty).
    pub entry: Entry,
    /// Whether a trailer vouched for its end (see [`vouch_for_end`]).
    pub has_trailer: bool,
}

impl Contents {
    /// Reads the game file at `path` to its end (an error for a cut one)
    /// and counts what it holds; the row's path is `name`.
    pub fn read(path: &Path, name: &str) -> io::Result<Contents> {
        let mut reader = open_game_file(path)?;
        let note = |key: &str| {
            reader
                .notes()
                .split_whitespace()
                .find_map(|word| word.strip_prefix(key)?.strip_prefix('='))
                .unwrap_or(UNKNOWN)
                .to_string()
        };
        let mut entry = Entry {
            path: name.to_string(),
            format: reader.version(),
            engine_commit: note("engine"),
            network: note("network"),
            seed: note("seed"),
            nodes: note("nodes"),
            games: 0,
            plies: 0,
            training_positions: 0,
            bytes: 0,
            sha256: String::new(),
        };
        while let Some(game) = reader.next_game()? {
            entry.games += 1;
            entry.plies += game.ply_count() as u64;
            entry.training_positions += game.training_position_count() as u64;
        }
        Ok(Contents {
            entry,
            has_trailer: reader.has_trailer(),
        })
    }
}

impl Entry {
    /// Reads the file at `dir/path` and says what it holds; an error for a
    /// file that does not read to its end or has no trailer.
    pub fn describe(dir: &Path, path: &str) -> io::Result<Entry> {
        let full = dir.join(path);
        let (bytes, sha256) = size_and_sha256(&full)?;
        let contents = Contents::read(&full, path)?;
        if !contents.has_trailer {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: format version {} has no trailer, so nothing shows it was not cut \
                     at a game's end: a new row is only made for a file that ends in its \
                     trailer (`rookery dataconvert` rewrites a whole file in the current \
                     version)",
                    full.display(),
                    contents.entry.format
                ),
            ));
        }
        Ok(Entry {
            bytes,
            sha256,
            ..contents.entry
        })
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

/// The first two lines of a manifest whose counts are under this build's
/// training filter.
fn manifest_head() -> String {
    format!(
        "{FILTER_LINE}{TRAINING_FILTER_VERSION}\n{}\n",
        COLUMNS.join("\t")
    )
}

/// The manifest at `manifest`.
pub fn read(manifest: &Path) -> io::Result<Manifest> {
    let text = fs::read_to_string(manifest).map_err(|error| {
        io::Error::new(error.kind(), format!("{}: {error}", manifest.display()))
    })?;
    let mut lines = text.lines();
    let filter_version = lines
        .next()
        .and_then(|line| line.strip_prefix(FILTER_LINE)?.parse().ok())
        .ok_or_else(|| {
            invalid(
                manifest,
                1,
                &format!("the first line is not `{FILTER_LINE}N`, the training filter's version"),
            )
        })?;
    if lines.next() != Some(&COLUMNS.join("\t")) {
        return Err(invalid(manifest, 2, "the header row is not the manifest's"));
    }
    let entries = lines
        .enumerate()
        .map(|(index, row)| {
            Entry::from_row(row).ok_or_else(|| invalid(manifest, index + 3, "a malformed row"))
        })
        .collect::<io::Result<_>>()?;
    Ok(Manifest {
        filter_version,
        entries,
    })
}

/// The manifest at `manifest` and the path of every file it lists, each
/// checked against its row: an error names the first file that is
/// missing or whose size or SHA-256 is not the row's.
pub fn verified_paths(manifest: &Path) -> io::Result<(Manifest, Vec<PathBuf>)> {
    let dir = manifest.parent().unwrap_or(Path::new("."));
    let read = read(manifest)?;
    let paths = read
        .entries
        .iter()
        .map(|entry| {
            let path = dir.join(&entry.path);
            match differs_from_row(&path, entry)? {
                Some(fault) => Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "{}: {fault}, but {} lists {} bytes with sha256 {}: the file is not \
                         the one the manifest names",
                        path.display(),
                        manifest.display(),
                        entry.bytes,
                        entry.sha256
                    ),
                )),
                None => Ok(path),
            }
        })
        .collect::<io::Result<_>>()?;
    Ok((read, paths))
}

/// `None` when the file at `path` has the size and SHA-256 of `entry`,
/// else what it has instead.
fn differs_from_row(path: &Path, entry: &Entry) -> io::Result<Option<String>> {
    let (bytes, sha256) = size_and_sha256(path)?;
    Ok(((bytes, &sha256) != (entry.bytes, &entry.sha256))
        .then(|| format!("{bytes} bytes with sha256 {sha256}")))
}

/// What shows that a finished game file's end is its true end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Vouch {
    /// Its trailer (checked as it is read to its end).
    Trailer,
    /// A row of this manifest, whose size and SHA-256 it has (a file of a
    /// version before the trailer, committed with its row).
    Row(PathBuf),
    /// Nothing: a file without a trailer that no manifest lists.
    Nothing,
}

/// What vouches for the end of the game file at `path`, opened as
/// `reader`: its trailer, or, for a file of a version without one, its row
/// in a manifest above it ([`vouching_row`]).
pub fn vouch_for_end<R: BufRead>(path: &Path, reader: &GameReader<R>) -> io::Result<Vouch> {
    if reader.has_trailer() {
        return Ok(Vouch::Trailer);
    }
    Ok(vouching_row(path)?.map_or(Vouch::Nothing, Vouch::Row))
}

/// The nearest `manifest.tsv` above the file at `path` that lists it,
/// once the file is checked to have its row's size and SHA-256 (an error
/// when it has not); `None` when no manifest lists it.
pub fn vouching_row(path: &Path) -> io::Result<Option<PathBuf>> {
    let full = fs::canonicalize(path)
        .map_err(|error| io::Error::new(error.kind(), format!("{}: {error}", path.display())))?;
    for dir in full.ancestors().skip(1) {
        let manifest = dir.join(MANIFEST_NAME);
        if !manifest.is_file() {
            continue;
        }
        let Some(relative) = full
            .strip_prefix(dir)
            .ok()
            .and_then(Path::to_str)
            .map(|relative| relative.replace(std::path::MAIN_SEPARATOR, "/"))
        else {
            continue;
        };
        let listed = read(&manifest)?;
        if let Some(entry) = listed.entries.iter().find(|entry| entry.path == relative) {
            if let Some(fault) = differs_from_row(&full, entry)? {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "{}: {fault}, but its row in {} says {} bytes with sha256 {}",
                        path.display(),
                        manifest.display(),
                        entry.bytes,
                        entry.sha256
                    ),
                ));
            }
            return Ok(Some(manifest));
        }
    }
    Ok(None)
}

/// Adds a row for every finished game file under `dir` (any depth) that
/// the manifest `dir/manifest.tsv` does not list yet, in path order,
/// making the manifest if there is none. Says which rows it added.
///
/// Nothing is added unless every new file reads to its end and ends in its
/// trailer, and the manifest's counts are under this build's training
/// filter. A listed file that is gone is an error too: a file moved or
/// renamed would otherwise be listed twice, once under a path that no
/// longer exists.
pub fn add_new_files(dir: &Path) -> io::Result<Vec<Entry>> {
    let manifest = dir.join(MANIFEST_NAME);
    let listed: HashSet<String> = if manifest.exists() {
        let read = read(&manifest)?;
        if read.filter_version != TRAINING_FILTER_VERSION {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: counts training positions under filter version {}, this build under \
                     version {TRAINING_FILTER_VERSION}: rows of both would not add up",
                    manifest.display(),
                    read.filter_version
                ),
            ));
        }
        let listed: HashSet<String> = read.entries.into_iter().map(|entry| entry.path).collect();
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
        fs::write(&manifest, manifest_head())?;
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

/// What [`check`] found.
pub struct Checked {
    /// Rows whose files were read.
    pub files: usize,
    /// Every disagreement between the manifest and its folder, one line
    /// each; none when they agree.
    pub faults: Vec<String>,
}

/// Holds the manifest `dir/manifest.tsv` and the game files under `dir`
/// to each other: a listed file that is missing, a game file without a
/// row, a row listed twice, and a file whose size, SHA-256 or contents
/// (format, notes, games, plies, training positions: each file is read to
/// its end, `threads` at a time) differ from its row are faults, as are
/// counts under another training filter than this build's.
pub fn check(dir: &Path, threads: usize) -> io::Result<Checked> {
    let manifest = read(&dir.join(MANIFEST_NAME))?;
    let mut faults = Vec::new();
    if manifest.filter_version != TRAINING_FILTER_VERSION {
        faults.push(format!(
            "{MANIFEST_NAME}: its training positions are counted under filter version {}, this \
             build's is {TRAINING_FILTER_VERSION}: check it with a build of that version",
            manifest.filter_version
        ));
    }
    let mut seen = HashSet::new();
    for entry in &manifest.entries {
        if !seen.insert(entry.path.as_str()) {
            faults.push(format!("{}: listed twice", entry.path));
        }
    }
    let mut on_disk = game_files(dir, "")?;
    on_disk.sort();
    for path in &on_disk {
        if !seen.contains(path.as_str()) {
            faults.push(format!(
                "{path}: a game file with no row in {MANIFEST_NAME}"
            ));
        }
    }
    let on_disk: HashSet<&str> = on_disk.iter().map(String::as_str).collect();
    let present: Vec<&Entry> = manifest
        .entries
        .iter()
        .filter(|entry| {
            let there = on_disk.contains(entry.path.as_str());
            if !there {
                faults.push(format!("{}: listed, but not there", entry.path));
            }
            there
        })
        .collect();
    let compare_positions = manifest.filter_version == TRAINING_FILTER_VERSION;
    let next = AtomicUsize::new(0);
    let found = Mutex::new(vec![Vec::new(); present.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(entry) = present.get(index) else {
                        break;
                    };
                    let file_faults = check_file(dir, entry, compare_positions);
                    found.lock().expect("a checker panicked")[index] = file_faults;
                }
            });
        }
    });
    faults.extend(
        found
            .into_inner()
            .expect("a checker panicked")
            .into_iter()
            .flatten(),
    );
    Ok(Checked {
        files: present.len(),
        faults,
    })
}

/// How the file of `entry` under `dir` differs from its row.
fn check_file(dir: &Path, entry: &Entry, compare_positions: bool) -> Vec<String> {
    let path = dir.join(&entry.path);
    match differs_from_row(&path, entry) {
        Ok(None) => {}
        Ok(Some(fault)) => {
            return vec![format!(
                "{}: {fault}, its row {} bytes with sha256 {}",
                entry.path, entry.bytes, entry.sha256
            )];
        }
        Err(error) => return vec![error.to_string()],
    }
    // The size and hash are the row's, which vouches for the end of a file
    // without a trailer.
    let read = match Contents::read(&path, &entry.path) {
        Ok(contents) => contents.entry,
        Err(error) => return vec![error.to_string()],
    };
    let mut columns = vec![
        ("format", read.format.to_string(), entry.format.to_string()),
        (
            "engine_commit",
            read.engine_commit,
            entry.engine_commit.clone(),
        ),
        ("network", read.network, entry.network.clone()),
        ("seed", read.seed, entry.seed.clone()),
        ("nodes", read.nodes, entry.nodes.clone()),
        ("games", read.games.to_string(), entry.games.to_string()),
        ("plies", read.plies.to_string(), entry.plies.to_string()),
    ];
    if compare_positions {
        columns.push((
            "training_positions",
            read.training_positions.to_string(),
            entry.training_positions.to_string(),
        ));
    }
    columns
        .into_iter()
        .filter(|(_, file, row)| file != row)
        .map(|(column, file, row)| {
            format!("{}: holds {column} {file}, its row says {row}", entry.path)
        })
        .collect()
}

/// The finished game files under `dir/relative`, as paths relative to
/// `dir`.
fn game_files(dir: &Path, relative: &str) -> io::Result<Vec<String>> {
    let mut found = Vec::new();
    let folder = dir.join(relative);
    for entry in fs::read_dir(&folder)
        .map_err(|error| io::Error::new(error.kind(), format!("{}: {error}", folder.display())))?
    {
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
#[path = "manifest_tests.rs"]
mod tests;
