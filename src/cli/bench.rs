//! `rookery bench`: the fixed bench positions searched at a fixed depth,
//! each position's line and then `N nodes N nps`; the node count
//! identifies the search. It evaluates with the network the engine would
//! start with (the config's `EvalFile`, or the embedded one) unless
//! `--eval-file` names another, and a file it cannot use fails it: a
//! bench of another network than the one asked for would mislead. The
//! first line names the network that ran.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use rookery::engine::config::Config;
use rookery::nnue;
use rookery::tools::bench;

use super::{Failure, Outcome};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Search depth.
    #[arg(default_value_t = bench::DEFAULT_DEPTH)]
    depth: i32,
    /// Transposition table size in MB (measuring only: changes the count).
    #[arg(long, default_value_t = bench::DEFAULT_HASH_MB)]
    hash: usize,
    /// Search threads (measuring only: several make the count vary).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Evaluate with this network file instead of the config's EvalFile
    /// or the embedded network.
    #[arg(long, value_name = "PATH")]
    eval_file: Option<String>,
}

/// Runs the bench with `args`, the network chosen as `config` (the
/// `--config` file, or the `engine.toml` beside the executable) says
/// when `args` does not.
pub(crate) fn run(args: Args, config: Option<&Path>) -> Outcome {
    let network = match args.eval_file {
        Some(path) => Some(("--eval-file", path)),
        None => Config::load(config)
            .eval_file()
            .map_err(|error| Failure::of("bench", error))?
            .map(|path| ("the config's EvalFile", path.to_string())),
    };
    if let Some((source, path)) = network {
        nnue::activate_file(&path)
            .map_err(|error| Failure::of("bench", format!("{source}: {error}")))?;
    }
    let settings = bench::Settings {
        depth: args.depth.max(1),
        hash_mb: args.hash.max(1),
        threads: args.threads.max(1),
    };
    let never = AtomicBool::new(false);
    let summary = bench::run(settings, &never, &mut |line| println!("{line}"))
        .map_err(|error| Failure::of("bench", error))?;
    if let Some(summary) = summary {
        println!("{}", summary.line());
    }
    Ok(())
}
