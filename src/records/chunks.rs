//! Self-play output in chunks: files of a fixed number of games that are
//! finished, compressed and never written again, so they can be committed
//! while generation goes on.
//!
//! Chunk `k` of seed `s` is `s{s}-c{k}.bin.xz` in the output folder. It is
//! played by one worker alone, with the random stream `(s, k)`, into
//! `….bin.part`; when it holds its games the part gets its trailer and is
//! compressed to a temporary file that is synced, then renamed (the
//! folder synced again) before the part is removed, so a file with the
//! finished name is always whole and always holds its number of games. A
//! run that is
//! interrupted, or reaches its game limit, leaves its open chunks as parts
//! (readable, but not finished): a run started again with the same seed
//! skips the finished chunks and plays the others from their own streams,
//! so an open chunk is played again from its start. One process at a time
//! writes a seed's chunks in a folder.
//!
//! A part that will not be played again (the session ends, the machine
//! may not last) is closed instead by [`close_parts`]: its whole games are
//! written again with their trailer and compressed into its finished
//! file, which then holds fewer games than a full chunk (its trailer says
//! how many, so it reads as whole where a cut file is refused), and a
//! later run with the seed skips it like any finished chunk. A run killed
//! (`kill -9`) loses at most the games of its open chunks that were not
//! finished: the finished ones are in their parts for `dataclose`, and a
//! run started again plays the same games again. A kill between the
//! rename and the part's removal leaves a part beside its finished file;
//! `dataclose` removes it once the finished file reads whole.
//! [`close_file`] closes the one file of an interrupted `datagen --output`
//! run the same way.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::{GameRecord, GameWriter, naming, open_game_file, open_part_file};

/// xz's preset for finished chunks: 6 is xz's default; higher presets
/// only differ in a dictionary larger than a chunk.
const XZ_PRESET: u32 = 6;
/// Digits of a chunk's number in its file name (more are written in full).
const CHUNK_NUMBER_DIGITS: usize = 5;
/// What a finished chunk's name ends with.
pub(crate) const FINISHED_SUFFIX: &str = ".bin.xz";
/// What an open chunk's name ends with.
const PART_SUFFIX: &str = ".bin.part";

/// The chunks of one seed in one folder.
pub(crate) struct ChunkSet {
    dir: PathBuf,
    seed: u64,
    pub(crate) games_per_chunk: u64,
    /// The lowest chunk number not yet handed out.
    next: AtomicU64,
}

impl ChunkSet {
    /// The chunks of `seed` in `dir`, which is made if it does not exist.
    pub(crate) fn new(dir: &Path, seed: u64, games_per_chunk: u64) -> io::Result<ChunkSet> {
        fs::create_dir_all(dir)?;
        Ok(ChunkSet {
            dir: dir.to_path_buf(),
            seed,
            games_per_chunk: games_per_chunk.max(1),
            next: AtomicU64::new(0),
        })
    }

    /// The next chunk number to play: the lowest not handed out yet whose
    /// finished file does not exist.
    pub(crate) fn claim(&self) -> u64 {
        loop {
            let number = self.next.fetch_add(1, Ordering::Relaxed);
            if !self.path(number, FINISHED_SUFFIX).exists() {
                return number;
            }
        }
    }

    fn path(&self, number: u64, suffix: &str) -> PathBuf {
        self.dir.join(format!(
            "s{}-c{number:0width$}{suffix}",
            self.seed,
            width = CHUNK_NUMBER_DIGITS
        ))
    }

    /// Starts chunk `number` afresh, its header carrying `notes`.
    pub(crate) fn open(&self, number: u64, notes: &str) -> io::Result<Chunk> {
        let part = self.path(number, PART_SUFFIX);
        let writer = GameWriter::new(File::create(&part)?, notes)?;
        Ok(Chunk {
            writer,
            part,
            finished: self.path(number, FINISHED_SUFFIX),
        })
    }
}

/// A chunk being played.
pub(crate) struct Chunk {
    writer: GameWriter<File>,
    part: PathBuf,
    finished: PathBuf,
}

impl Chunk {
    /// Appends a finished game, in one write.
    pub(crate) fn write(&mut self, game: &GameRecord) -> io::Result<()> {
        self.writer.write(game)
    }

    /// Gives a chunk that holds its `games_per_chunk` games its trailer,
    /// compresses it into its finished file and removes the part, saying
    /// which file it made. A
    /// chunk cut short (the run's game limit, an error) stays a part: a
    /// later run with the seed plays it again from its own stream, the
    /// same games first, so only [`close_parts`] makes a short finished
    /// chunk.
    pub(crate) fn finish(self, games_per_chunk: u64) -> io::Result<Option<PathBuf>> {
        if self.writer.games() < games_per_chunk {
            return Ok(None);
        }
        self.writer.finish()?.sync_all()?;
        compress(&self.part, &self.finished)?;
        fs::remove_file(&self.part)?;
        Ok(Some(self.finished))
    }
}

/// A part closed by [`close_parts`].
#[derive(Debug, PartialEq, Eq)]
pub struct Closed {
    /// The finished file it became.
    pub path: PathBuf,
    /// The whole games it holds.
    pub games: u64,
}

/// Closes every open chunk (`.bin.part`) in `dir` as it stands: its whole
/// games, under its own header and with their trailer, are compressed into
/// its finished file and the part is removed (a game cut off by the
/// interruption is dropped). A part without a whole game is left alone; a
/// part beside a finished file that reads whole is the leftover of a
/// finish cut short between the rename and the removal, and is removed.
/// Run it only while no generator writes into `dir`.
pub fn close_parts(dir: &Path) -> io::Result<Vec<Closed>> {
    let mut parts: Vec<(PathBuf, PathBuf)> = fs::read_dir(dir)
        .map_err(naming(dir))?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<io::Result<Vec<_>>>()?
        .into_iter()
        .filter_map(|path| {
            let stem = path.to_str()?.strip_suffix(PART_SUFFIX)?;
            let finished = PathBuf::from(format!("{stem}{FINISHED_SUFFIX}"));
            Some((path, finished))
        })
        .collect();
    parts.sort();
    let mut closed = Vec::new();
    for (part, finished) in parts {
        if finished.exists() {
            reads_whole(&finished).map_err(|error| {
                io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!(
                        "{} has a finished file that does not read whole: {error}",
                        part.display()
                    ),
                )
            })?;
            fs::remove_file(&part)?;
            continue;
        }
        let whole = part.with_extension("whole");
        let closed_part = copy_whole_games(&part, &whole).and_then(|games| match games {
            0 => Ok(None),
            games => {
                compress(&whole, &finished)?;
                fs::remove_file(&part)?;
                Ok(Some(Closed {
                    path: finished,
                    games,
                }))
            }
        });
        // The copy is removed whatever happened: the part still holds
        // every game it had.
        let _ = fs::remove_file(&whole);
        closed.extend(closed_part?);
    }
    Ok(closed)
}

/// Closes the game file of an interrupted `datagen --output` run in
/// place: its whole games, under its first header, are written again with
/// their trailer to a temporary file that then replaces it. `None` when it
/// is closed already (it reads whole). A compressed file is a finished
/// file, never an open one.
pub fn close_file(path: &Path) -> io::Result<Option<u64>> {
    if path.extension().is_some_and(|e| e == "xz") {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{}: a compressed file is finished, not open",
                path.display()
            ),
        ));
    }
    if reads_whole(path).is_ok() {
        return Ok(None);
    }
    let whole = path.with_extension("whole");
    let games = copy_whole_games(path, &whole).and_then(|games| {
        File::open(&whole)?.sync_all()?;
        fs::rename(&whole, path)?;
        Ok(games)
    });
    let _ = fs::remove_file(&whole);
    games.map(Some)
}

/// Reads the finished game file at `path` to its end (checking its
/// trailer).
fn reads_whole(path: &Path) -> io::Result<()> {
    let mut reader = open_game_file(path)?;
    while reader.next_game()?.is_some() {}
    Ok(())
}

/// Writes the header, the whole games of the open game file `part` and
/// their trailer to a new raw file `whole`, saying how many games it
/// copied; its errors name `part`.
fn copy_whole_games(part: &Path, whole: &Path) -> io::Result<u64> {
    let mut reader = open_part_file(part)?;
    let mut copy = || -> io::Result<u64> {
        let mut out = GameWriter::new(BufWriter::new(File::create(whole)?), reader.notes())?;
        while let Some(game) = reader.next_game()? {
            out.write(&game)?;
        }
        let games = out.games();
        out.finish()?.flush()?;
        Ok(games)
    };
    copy().map_err(naming(part))
}

/// Writes `raw` xz-compressed to `finished`, through a temporary file
/// synced and renamed at the end, so `finished` never exists half
/// written; the folder is synced too, so the rename is on the disk before
/// the caller removes what `finished` was made of.
pub(super) fn compress(raw: &Path, finished: &Path) -> io::Result<()> {
    let temporary = finished.with_extension("xz.tmp");
    {
        let mut encoder =
            liblzma::write::XzEncoder::new(BufWriter::new(File::create(&temporary)?), XZ_PRESET);
        io::copy(&mut File::open(raw)?, &mut encoder)?;
        encoder.finish()?.into_inner()?.sync_all()?;
    }
    fs::rename(&temporary, finished)?;
    let folder = finished.parent().filter(|dir| !dir.as_os_str().is_empty());
    File::open(folder.unwrap_or(Path::new(".")))?.sync_all()
}
