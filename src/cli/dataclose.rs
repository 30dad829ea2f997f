//! `rookery dataclose`: the open chunks of a stopped datagen run closed as
//! they stand, one line per chunk closed.

use std::path::PathBuf;

use rookery::tools::datagen::chunks;

use super::{Failure, Outcome};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The folder of the chunks (datagen's --chunk-dir).
    dir: PathBuf,
}

pub(crate) fn run(args: Args) -> Outcome {
    let closed = chunks::close_parts(&args.dir).map_err(|error| Failure::of("dataclose", error))?;
    for chunk in closed {
        println!("{}: {} games", chunk.path.display(), chunk.games);
    }
    Ok(())
}
