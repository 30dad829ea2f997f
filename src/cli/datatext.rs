//! `rookery datatext`: the training positions of game files as text
//! lines on stdout, for tools that read no game record.

use std::io::Write;
use std::path::PathBuf;

use rookery::tools::datagen::record::open_game_file;

use super::{Failure, Outcome};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Game files written by `datagen` (`.xz` files are decompressed).
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

pub(crate) fn run(args: Args) -> Outcome {
    write_text(&args.files).map_err(|error| Failure::of("datatext", error))
}

/// Prints the training positions of every game in `files` as text.
fn write_text(files: &[PathBuf]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for path in files {
        let mut games = open_game_file(path)?;
        while let Some(game) = games.next_game()? {
            for position in game.training_positions() {
                writeln!(out, "{}", position.to_text())?;
            }
        }
    }
    out.flush()
}
