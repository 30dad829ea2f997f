//! `rookery dataconvert`: game files of any format version rewritten in
//! the current one, with notes saying where they came from. The games are
//! the same ones (every move, score, "not scored" mark and result): only
//! the bytes change, and a converted file reads back as its original.
//!
//! Its inputs are read as finished files: a cut one is an error and
//! nothing is written. A file of a version before the trailer cannot show
//! that it was not cut at a game's end; converting one is what the command
//! is for, so it is read, and [`Converted::without_trailer`] names it, for
//! the caller to say whether a manifest row vouches for it
//! (`manifest::vouching_row`).

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::chunks::compress;
use super::{GameWriter, open_game_file};

/// What a conversion wrote.
pub struct Converted {
    pub games: u64,
    pub bytes: u64,
    /// The inputs of a format version without a trailer: nothing in them
    /// shows that they were not cut at a game's end.
    pub without_trailer: Vec<PathBuf>,
}

/// Writes every game of `inputs` (in order; `.xz` files are decompressed)
/// to `output` in the current format, with `notes` in its header; xz
/// compressed when `output`'s name ends in `.xz`. An existing `output` is
/// refused: a converted file is a new file.
pub fn convert(inputs: &[PathBuf], output: &Path, notes: &str) -> io::Result<Converted> {
    if output.exists() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} exists: choose a new file", output.display()),
        ));
    }
    let compressed = output.extension().is_some_and(|e| e == "xz");
    let raw = if compressed {
        output.with_extension("raw.tmp")
    } else {
        output.to_path_buf()
    };
    let mut without_trailer = Vec::new();
    let mut write = || -> io::Result<u64> {
        let mut out = GameWriter::new(BufWriter::new(File::create(&raw)?), notes)?;
        for input in inputs {
            let mut reader = open_game_file(input)?;
            while let Some(game) = reader.next_game()? {
                out.write(&game)?;
            }
            if !reader.has_trailer() {
                without_trailer.push(input.clone());
            }
        }
        let games = out.games();
        out.finish()?.flush()?;
        Ok(games)
    };
    let games = match write() {
        Ok(games) => games,
        Err(error) => {
            // Nothing is left of a conversion that failed.
            let _ = fs::remove_file(&raw);
            return Err(error);
        }
    };
    if compressed {
        compress(&raw, output)?;
        fs::remove_file(&raw)?;
    }
    Ok(Converted {
        games,
        bytes: fs::metadata(output)?.len(),
        without_trailer,
    })
}
