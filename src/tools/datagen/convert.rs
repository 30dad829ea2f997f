//! `rookery dataconvert`: game files of any format version rewritten in
//! the current one, with notes saying where they came from. The games are
//! the same ones (every move, score, "not scored" mark and result): only
//! the bytes change, and a converted file reads back as its original.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::chunks::compress;
use super::record::{self, open_game_file};

/// What a conversion wrote.
pub struct Converted {
    pub games: u64,
    pub bytes: u64,
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
    let mut games = 0;
    {
        let mut out = BufWriter::new(File::create(&raw)?);
        out.write_all(&record::file_header(notes)?)?;
        for input in inputs {
            let mut reader = open_game_file(input)?;
            while let Some(game) = reader.next_game()? {
                game.write_to(&mut out)?;
                games += 1;
            }
        }
        out.flush()?;
    }
    if compressed {
        compress(&raw, output)?;
        fs::remove_file(&raw)?;
    }
    Ok(Converted {
        games,
        bytes: fs::metadata(output)?.len(),
    })
}
