//! `rookery dataclose`: the open chunks of a stopped datagen run (or an
//! interrupted `datagen --output` file) closed as they stand, with their
//! trailers, one line per file closed.

use std::path::{Path, PathBuf};

use rookery::records::chunks;

use super::{Failure, Outcome};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The folder of the chunks (datagen's --chunk-dir), or a file.
    dir: PathBuf,
}

pub(crate) fn run(args: Args) -> Outcome {
    close(&args.dir).map_err(|error| Failure::of("dataclose", error))
}

/// Closes the open chunks of the folder `path`, or the open file `path`,
/// and says what it closed.
fn close(path: &Path) -> std::io::Result<()> {
    if path.is_file() {
        match chunks::close_file(path)? {
            Some(games) => println!("{}: {games} games", path.display()),
            None => println!("{}: closed already", path.display()),
        }
        return Ok(());
    }
    for chunk in chunks::close_parts(path)? {
        println!("{}: {} games", chunk.path.display(), chunk.games);
    }
    Ok(())
}
