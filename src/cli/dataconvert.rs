//! `rookery dataconvert`: game files of any format version rewritten as
//! one file of the current version; the work is `records::convert`'s.

use std::path::PathBuf;

use rookery::records::{convert, manifest};

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
    for input in &converted.without_trailer {
        let vouched = manifest::vouching_row(input)
            .map_err(|error| Failure::of("dataconvert", error))?
            .is_some();
        if !vouched {
            eprintln!(
                "rookery: dataconvert: note: {} has no trailer and no manifest row vouches for \
                 it: if it was cut at a game's end, so is {}",
                input.display(),
                args.output.display()
            );
        }
    }
    println!(
        "{}: {} games, {} bytes",
        args.output.display(),
        converted.games,
        converted.bytes
    );
    Ok(())
}
