//! `rookery datamanifest`: a data folder's `manifest.tsv` brought up to
//! date with its finished game files, or checked against them.

use std::path::{Path, PathBuf};

use rookery::tools::datagen::manifest;

use super::{Failure, Outcome};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Only check the listed files against their rows.
    #[arg(long)]
    check: bool,
    /// The data folder (data/selfplay in the repository).
    dir: PathBuf,
}

pub(crate) fn run(args: Args) -> Outcome {
    update_manifest(&args.dir, args.check).map_err(|error| Failure::of("datamanifest", error))
}

/// Adds the new files of `dir` to its manifest and prints their rows, or
/// with `check` verifies every listed file.
fn update_manifest(dir: &Path, check: bool) -> std::io::Result<()> {
    if check {
        let paths = manifest::verified_paths(&dir.join(manifest::MANIFEST_NAME))?;
        println!("{} files match the manifest", paths.len());
        return Ok(());
    }
    for entry in manifest::add_new_files(dir)? {
        println!(
            "{}: {} games, {} training positions, {} bytes ({:.2} bytes a position)",
            entry.path,
            entry.games,
            entry.training_positions,
            entry.bytes,
            entry.bytes as f64 / entry.training_positions.max(1) as f64
        );
    }
    Ok(())
}
