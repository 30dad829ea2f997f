//! `rookery datamanifest`: a data folder's `manifest.tsv` brought up to
//! date with its finished game files, or checked against them.

use std::path::{Path, PathBuf};

use rookery::records::manifest;

use super::{Failure, Outcome};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Only check: every listed file is there with its row's size,
    /// SHA-256 and contents (read to the end), and every game file has
    /// a row.
    #[arg(long)]
    check: bool,
    /// The data folder (data/selfplay in the repository).
    dir: PathBuf,
}

pub(crate) fn run(args: Args) -> Outcome {
    update_manifest(&args.dir, args.check).map_err(|error| Failure::of("datamanifest", error))
}

/// Adds the new files of `dir` to its manifest and prints their rows, or
/// with `check` holds the manifest and the folder to each other (an error
/// listing every fault).
fn update_manifest(dir: &Path, check: bool) -> std::io::Result<()> {
    if check {
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let checked = manifest::check(dir, threads)?;
        if !checked.faults.is_empty() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "{} does not agree with {}:\n  {}",
                    dir.join(manifest::MANIFEST_NAME).display(),
                    dir.display(),
                    checked.faults.join("\n  ")
                ),
            ));
        }
        println!(
            "{} files match the manifest: size, SHA-256 and contents; no game file without a row",
            checked.files
        );
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
