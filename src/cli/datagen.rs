//! `rookery datagen`: self-play games for training data, appended to one
//! game file or written in chunks; the work is `tools::datagen`'s.

use std::path::PathBuf;

use rookery::tools::datagen;

use super::{Failure, Outcome};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Game file to append to.
    #[arg(
        long,
        required_unless_present = "chunk_dir",
        conflicts_with = "chunk_dir"
    )]
    output: Option<PathBuf>,
    /// Folder to write chunks into instead: files of --chunk-games
    /// games, xz-compressed when full and never written again, named
    /// s<seed>-c<number>.bin.xz. Run again with the same seed, it
    /// plays only the chunks that are missing.
    #[arg(long, value_name = "DIR")]
    chunk_dir: Option<PathBuf>,
    /// Games in a chunk.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    chunk_games: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Soft node limit of each move's search: no iteration starts
    /// past it (2000 gives about 5000 nodes a move).
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Stop after this many games.
    #[arg(long)]
    games: Option<u64>,
    /// Stop after this many positions (plies) are recorded.
    #[arg(long)]
    positions: Option<u64>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub(crate) fn run(args: Args) -> Outcome {
    let output = match (args.output, args.chunk_dir) {
        (_, Some(dir)) => datagen::Output::Chunks {
            dir,
            games_per_chunk: args.chunk_games,
        },
        (Some(path), None) => datagen::Output::File(path),
        (None, None) => unreachable!("clap requires --output or --chunk-dir"),
    };
    let settings = datagen::Settings {
        output,
        threads: args.threads,
        nodes: args.nodes,
        games: args.games,
        positions: args.positions,
        seed: args.seed,
    };
    datagen::run(&settings).map_err(|error| Failure::of("datagen", error))
}
