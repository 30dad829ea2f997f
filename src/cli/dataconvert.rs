//! `rookery dataconvert`: game files of any format version rewritten as
//! one file of the current version; the work is `tools::datagen`'s.

use std::path::PathBuf;

use rookery::tools::datagen::convert;

use super::{Failure, Outcome};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Notes for the new file's header, `key=value` words: engine=<commit>
    /// network=<id> seed=<n> nodes=<n> (what the manifest shows).
    #[arg(long, default_value = "")]
    notes: String,
    /// The new file (must not exist).
    #[arg(long)]
    output: PathBuf,
    /// Game files to read, in order.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

pub(crate) fn run(args: Args) -> Outcome {
    let converted = convert::convert(&args.files, &args.output, &args.notes)
        .map_err(|error| Failure::of("dataconvert", error))?;
    println!(
        "{}: {} games, {} bytes",
        args.output.display(),
        converted.games,
        converted.bytes
    );
    Ok(())
}
