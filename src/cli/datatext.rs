//! `rookery datatext`: the training positions of game files as text
//! lines on stdout, for tools that read no game record. A file without a
//! trailer is read only on a manifest row's word (said on stderr).

use std::io::Write;
use std::path::PathBuf;

use rookery::records::manifest::{Vouch, vouch_for_end};
use rookery::records::open_game_file;

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

/// Prints the training positions of every game in `files` as text. A file
/// without a trailer is read only when a manifest row vouches for it (said
/// on stderr); one that nothing vouches for is an error before any of its
/// lines.
fn write_text(files: &[PathBuf]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for path in files {
        let mut games = open_game_file(path)?;
        match vouch_for_end(path, &games)? {
            Vouch::Trailer => {}
            Vouch::Row(manifest) => eprintln!(
                "rookery: datatext: {} has no trailer (format version {}); its end is vouched \
                 for by its row in {} (size and SHA-256)",
                path.display(),
                games.version(),
                manifest.display()
            ),
            Vouch::Nothing => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "{}: format version {} has no trailer and no manifest row vouches for \
                         it, so nothing shows it was not cut at a game's end",
                        path.display(),
                        games.version()
                    ),
                ));
            }
        }
        while let Some(game) = games.next_game()? {
            for position in game.training_positions() {
                writeln!(out, "{}", position.to_text())?;
            }
        }
    }
    out.flush()
}
